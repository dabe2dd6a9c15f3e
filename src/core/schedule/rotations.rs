//! One table in every seat order: the bots as listed (exactly one a seat), then moved round the
//! table a seat at a time, each order a pairing of its own. Unpaired, every bot plays every seat
//! equally often on cards of their own: what a log of another program's match is made of when it
//! rotates the seats hand by hand but deals each hand once (an imported ACPC dealer's log).

use super::Shape;
use crate::error::{Error, Result};

/// The rotations shape: one table in each seat order, a pairing each.
pub struct Rotations;

impl Shape for Rotations {
    fn name(&self) -> &'static str {
        "rotations"
    }

    fn tables(&self, listed: &[usize], _bots: usize, seats: usize) -> Result<Vec<Vec<usize>>> {
        if listed.len() != seats {
            return Err(Error::input(format!(
                "schedule \"rotations\" seats one bot a seat: {seats} bots, not {}",
                listed.len()
            )));
        }
        Ok((0..seats).map(|r| (0..seats).map(|seat| listed[(seat + r) % seats]).collect()).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seat_order_is_a_pairing() {
        assert_eq!(Rotations.tables(&[0, 1], 2, 2).unwrap(), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(Rotations.tables(&[0, 1, 2], 3, 3).unwrap(), vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
        assert!(Rotations.tables(&[0, 1], 2, 3).is_err());
    }
}
