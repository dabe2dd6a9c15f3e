//! Round robin: every combination of `seats` distinct bots is a table (for two-seat games, every
//! pair), in lexicographic order.

use super::Shape;
use crate::error::{Error, Result};

/// The round-robin shape: every two bots meet.
pub struct RoundRobin;

impl Shape for RoundRobin {
    fn name(&self) -> &'static str {
        "round-robin"
    }

    fn tables(&self, _listed: &[usize], bots: usize, seats: usize) -> Result<Vec<Vec<usize>>> {
        if bots < seats {
            return Err(Error::input(format!(
                "a round robin at {seats} seats needs at least {seats} bots, not {bots} (schedule \"single-table\" seats fewer)"
            )));
        }
        Ok(combinations(bots, seats))
    }
}

/// All `k`-subsets of `0..n` in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..k).collect();
    if k == 0 || k > n {
        return out;
    }
    loop {
        out.push(current.clone());
        let Some(i) = (0..k).rev().find(|&i| current[i] < n - k + i) else {
            return out;
        };
        current[i] += 1;
        for j in i + 1..k {
            current[j] = current[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_combination_once() {
        assert_eq!(combinations(5, 3).len(), 10);
        assert_eq!(combinations(4, 4), vec![vec![0, 1, 2, 3]]);
        let t = RoundRobin.tables(&[0, 1, 2], 3, 2).unwrap();
        assert_eq!(t, vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert!(RoundRobin.tables(&[0, 1], 2, 4).is_err());
    }
}
