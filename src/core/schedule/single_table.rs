//! One table: the bots as listed fill the seats in order, cyclically when fewer are listed than
//! there are seats (two bots at four seats sit A B A B; "pruned", "greedy", "greedy", "greedy" is
//! pruned against three copies of greedy).

use super::Shape;
use crate::error::{Error, Result};

/// The single-table shape: the bots as listed, at one table.
pub struct SingleTable;

impl Shape for SingleTable {
    fn name(&self) -> &'static str {
        "single-table"
    }

    fn tables(&self, listed: &[usize], _bots: usize, seats: usize) -> Result<Vec<Vec<usize>>> {
        if listed.is_empty() || listed.len() > seats {
            return Err(Error::input(format!(
                "one table seats 1 to {seats} bots, not {} (schedule \"round-robin\" or \"gauntlet\" plays more)",
                listed.len()
            )));
        }
        Ok(vec![(0..seats).map(|seat| listed[seat % listed.len()]).collect()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_bots_fill_the_seats() {
        assert_eq!(SingleTable.tables(&[0, 1, 1, 1], 2, 4).unwrap(), vec![vec![0, 1, 1, 1]]);
        assert_eq!(SingleTable.tables(&[0, 1, 2], 3, 6).unwrap(), vec![vec![0, 1, 2, 0, 1, 2]]);
        assert_eq!(SingleTable.tables(&[0], 1, 4).unwrap(), vec![vec![0; 4]]);
        assert!(SingleTable.tables(&[0, 1, 2], 3, 2).is_err());
    }
}
