//! Gauntlet: the first bot (the candidate) plays each of the others in turn, one table per
//! opponent, the candidate in one seat and copies of the opponent in the others (heads-up: the
//! candidate against each opponent). It answers "how does the candidate fare against each of
//! these", the question engine testers ask most.

use super::Shape;
use crate::error::{Error, Result};

/// The gauntlet shape: the first bot against each of the others in turn.
pub struct Gauntlet;

impl Shape for Gauntlet {
    fn name(&self) -> &'static str {
        "gauntlet"
    }

    fn tables(&self, _listed: &[usize], bots: usize, seats: usize) -> Result<Vec<Vec<usize>>> {
        if bots < 2 {
            return Err(Error::input("a gauntlet needs a candidate and at least one opponent"));
        }
        Ok((1..bots).map(|opponent| (0..seats).map(|seat| if seat == 0 { 0 } else { opponent }).collect()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_candidate_meets_every_opponent() {
        assert_eq!(Gauntlet.tables(&[0, 1, 2, 3], 4, 2).unwrap(), vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(Gauntlet.tables(&[0, 1, 2], 3, 4).unwrap(), vec![vec![0, 1, 1, 1], vec![0, 2, 2, 2]]);
        assert!(Gauntlet.tables(&[0], 1, 2).is_err());
    }
}
