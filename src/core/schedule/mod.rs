//! Who plays whom, in which seat, on which deal.
//!
//! - A *pairing* is one table of bots. Its shape comes from a [`Shape`], one file each (modelled
//!   on fastchess's schedulers): [`SingleTable`] (every bot listed at one table, filling the seats
//!   in order and cyclically: two bots at a four-seat mahjong table sit A B A B), [`RoundRobin`]
//!   (every combination of `seats` bots: for two-seat games, all pairs), [`Gauntlet`] (the first
//!   bot against each of the others, in one seat against copies of the opponent in the rest) and
//!   [`Rotations`] (one table in each of its seat orders, a pairing each).
//!   [`SHAPES`] lists them; a new shape is a file and a line there.
//! - Paired mode replays every deal once per seat rotation: game `g` of a pairing uses deal
//!   `g / seats` and seats bot `table[(seat + g) % seats]` in `seat`. For two seats that is the
//!   same opening with colours swapped; for N seats every bot plays every seat's cards.

mod gauntlet;
mod rotations;
mod round_robin;
mod shard;
mod single_table;

pub use gauntlet::Gauntlet;
pub use rotations::Rotations;
pub use round_robin::RoundRobin;
pub use shard::Shard;
pub use single_table::SingleTable;

use crate::core::GameSeeds;
use crate::error::{Error, Result};

/// A tournament shape: how the bots of a run are seated at tables.
pub trait Shape: Sync {
    /// The name in configs: `schedule = "round-robin"`.
    fn name(&self) -> &'static str;
    /// The tables, each `seats` bot indexes in seat order (before rotations). `listed` is the
    /// config's list of bots as indexes into the `bots` distinct bots (a bot listed twice appears
    /// twice). An error says why the bots do not fit the shape.
    fn tables(&self, listed: &[usize], bots: usize, seats: usize) -> Result<Vec<Vec<usize>>>;
}

impl std::fmt::Debug for dyn Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for dyn Shape {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

/// Every shape, in the order the documentation lists them.
pub const SHAPES: &[&dyn Shape] = &[&SingleTable, &RoundRobin, &Gauntlet, &Rotations];

/// The shape called `name`.
pub fn shape(name: &str) -> Result<&'static dyn Shape> {
    SHAPES.iter().copied().find(|s| s.name() == name).ok_or_else(|| {
        let known: Vec<&str> = SHAPES.iter().map(|s| s.name()).collect();
        Error::input(format!("unknown schedule `{name}` ({})", crate::core::suggest::known_names(name, &known)))
    })
}

/// The shape when a config names none: one table when the listed bots fit in the seats, else a
/// round robin.
pub fn default_shape(listed: usize, seats: usize) -> &'static dyn Shape {
    if listed <= seats {
        &SingleTable
    } else {
        &RoundRobin
    }
}

/// One table of bots: `table[seat]` is a bot index in the base seating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The bots at the table, by seat (indexes into the run's bots).
    pub table: Vec<usize>,
}

/// The whole tournament as a sequence of games, in the order results are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Every table of the run, in schedule order.
    pub pairings: Vec<Pairing>,
    /// Games per pairing, a multiple of `replays`.
    pub games: u64,
    /// Games per deal: the number of seats when paired, else 1.
    pub replays: u64,
    /// The run's master seed.
    pub seed: u64,
}

/// The bot in each seat of one game, as indexes of the run's bots (inline up to four seats).
pub type Lineup = crate::core::PerSeat<usize>;

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The table (index into [`Schedule::pairings`]).
    pub pairing: usize,
    /// The game's index within its pairing.
    pub game: u64,
    /// The game's random streams, derived from the master seed.
    pub seeds: GameSeeds,
    /// The bot in each seat: `lineup[seat]` indexes the run's bots.
    pub lineup: Lineup,
}

impl Schedule {
    /// `games` games at each of `tables` (all with the same number of seats); rounds up to whole
    /// rotations when paired.
    pub fn new(tables: Vec<Vec<usize>>, games: u64, paired: bool, seed: u64) -> Schedule {
        let seats = tables.first().map_or(1, Vec::len);
        debug_assert!(tables.iter().all(|t| t.len() == seats), "one seat count");
        let replays = if paired { seats as u64 } else { 1 };
        let pairings = tables.into_iter().map(|table| Pairing { table }).collect();
        Schedule { pairings, games: games.div_ceil(replays) * replays, replays, seed }
    }

    /// Games in the whole run, every pairing's.
    pub fn total(&self) -> u64 {
        self.pairings.len() as u64 * self.games
    }

    /// The `i`-th game of the tournament (pairing-major).
    pub fn job(&self, i: u64) -> Job {
        let mut job = Job { pairing: 0, game: 0, seeds: GameSeeds::derive(0, 0, 0, 1), lineup: Lineup::new() };
        self.job_into(i, &mut job);
        job
    }

    /// [`Schedule::job`] into `job`, reusing its lineup's buffer.
    pub fn job_into(&self, i: u64, job: &mut Job) {
        let pairing = (i / self.games) as usize;
        let game = i - pairing as u64 * self.games;
        let table = &self.pairings[pairing].table;
        let n = table.len();
        let rotation = if self.replays == 1 { 0 } else { (game % self.replays) as usize };
        job.lineup.clear();
        // The table read from seat `rotation` round: no division a seat.
        job.lineup.extend_from_slice(&table[rotation..]);
        job.lineup.extend_from_slice(&table[..rotation]);
        debug_assert_eq!(job.lineup.len(), n);
        job.pairing = pairing;
        job.game = game;
        job.seeds = GameSeeds::derive(self.seed, pairing as u64, game, self.replays);
    }

    /// The index in the tournament of game `game` of table `pairing` (the inverse of [`Schedule::job`]).
    pub fn index(&self, pairing: usize, game: u64) -> u64 {
        pairing as u64 * self.games + game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(shape: &dyn Shape, listed: &[usize], bots: usize, seats: usize) -> Vec<Vec<usize>> {
        shape.tables(listed, bots, seats).unwrap()
    }

    #[test]
    fn shapes_by_name() {
        for s in SHAPES {
            assert_eq!(shape(s.name()).unwrap(), *s);
        }
        let err = shape("swiss").unwrap_err().to_string();
        assert!(err.contains("single-table, round-robin, gauntlet"), "{err}");
        assert_eq!(default_shape(4, 4), &SingleTable as &dyn Shape);
        assert_eq!(default_shape(5, 4), &RoundRobin as &dyn Shape);
    }

    #[test]
    fn round_robin_covers_every_pair_once() {
        let s = Schedule::new(tables(&RoundRobin, &[0, 1, 2, 3], 4, 2), 10, false, 1);
        let tables: Vec<_> = s.pairings.iter().map(|p| p.table.clone()).collect();
        assert_eq!(tables, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(s.total(), 60);
    }

    #[test]
    fn paired_games_swap_seats_on_the_same_deal() {
        let s = Schedule::new(tables(&SingleTable, &[0, 1], 2, 2), 5, true, 9);
        assert_eq!(s.games, 6, "rounded up to whole pairs");
        let (a, b) = (s.job(2), s.job(3));
        assert_eq!(a.seeds.deal, b.seeds.deal);
        assert_eq!(a.lineup[..], [0, 1]);
        assert_eq!(b.lineup[..], [1, 0]);
        assert_ne!(s.job(4).seeds.deal, a.seeds.deal);
    }

    #[test]
    fn few_bots_fill_the_seats_and_rotate_through_them() {
        let s = Schedule::new(tables(&SingleTable, &[0, 1], 2, 4), 8, true, 1);
        assert_eq!(s.pairings, vec![Pairing { table: vec![0, 1, 0, 1] }]);
        let lineups: Vec<_> = (0..4).map(|i| s.job(i).lineup).collect();
        assert_eq!(lineups[1][..], [1, 0, 1, 0]);
        // Every seat sees every bot across one rotation.
        for seat in 0..4 {
            let mut seen: Vec<usize> = lineups.iter().map(|l| l[seat]).collect();
            seen.sort();
            assert_eq!(seen, vec![0, 0, 1, 1]);
        }
    }
}
