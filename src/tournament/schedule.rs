//! Who plays whom, in which seat, on which deal.
//!
//! - A *pairing* is one table of bots. With no more bots than seats there is one pairing and the
//!   bots fill the seats cyclically (two bots at a four-seat mahjong table sit A B A B). With more
//!   bots than seats, every combination of `seats` bots is a pairing: for two-seat games that is a
//!   round robin over all pairs.
//! - Paired mode replays every deal once per seat rotation: game `g` of a pairing uses deal
//!   `g / seats` and seats bot `table[(seat + g) % seats]` in `seat`. For two seats that is the
//!   same opening with colours swapped; for N seats every bot plays every seat's cards.

use crate::core::GameSeeds;

/// One table of bots: `table[seat]` is a bot index in the base seating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub table: Vec<usize>,
}

/// The whole tournament as a sequence of games, in the order results are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub pairings: Vec<Pairing>,
    /// Games per pairing, a multiple of `replays`.
    pub games: u64,
    /// Games per deal: the number of seats when paired, else 1.
    pub replays: u64,
    pub seed: u64,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub pairing: usize,
    pub game: u64,
    pub seeds: GameSeeds,
}

impl Schedule {
    /// `bots` bots at tables of `seats`; `games` rounds up to whole rotations when paired.
    pub fn new(bots: usize, seats: usize, games: u64, paired: bool, seed: u64) -> Schedule {
        let replays = if paired { seats as u64 } else { 1 };
        let pairings = if bots <= seats {
            vec![Pairing { table: (0..seats).map(|s| s % bots).collect() }]
        } else {
            combinations(bots, seats).into_iter().map(|table| Pairing { table }).collect()
        };
        Schedule { pairings, games: games.div_ceil(replays) * replays, replays, seed }
    }

    pub fn total(&self) -> u64 {
        self.pairings.len() as u64 * self.games
    }

    /// The `i`-th game of the tournament (pairing-major).
    pub fn job(&self, i: u64) -> Job {
        let pairing = (i / self.games) as usize;
        let game = i % self.games;
        Job { pairing, game, seeds: GameSeeds::derive(self.seed, pairing as u64, game, self.replays) }
    }

    /// The bot in each seat for `job`.
    pub fn lineup(&self, job: &Job) -> Vec<usize> {
        let table = &self.pairings[job.pairing].table;
        let n = table.len();
        let rotation = (job.game % self.replays) as usize;
        (0..n).map(|seat| table[(seat + rotation) % n]).collect()
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
    fn round_robin_covers_every_pair_once() {
        let s = Schedule::new(4, 2, 10, false, 1);
        let tables: Vec<_> = s.pairings.iter().map(|p| p.table.clone()).collect();
        assert_eq!(tables, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(s.total(), 60);
        assert_eq!(combinations(5, 3).len(), 10);
    }

    #[test]
    fn paired_games_swap_seats_on_the_same_deal() {
        let s = Schedule::new(2, 2, 5, true, 9);
        assert_eq!(s.games, 6, "rounded up to whole pairs");
        let (a, b) = (s.job(2), s.job(3));
        assert_eq!(a.seeds.deal, b.seeds.deal);
        assert_eq!(s.lineup(&a), vec![0, 1]);
        assert_eq!(s.lineup(&b), vec![1, 0]);
        assert_ne!(s.job(4).seeds.deal, a.seeds.deal);
    }

    #[test]
    fn few_bots_fill_the_seats_and_rotate_through_them() {
        let s = Schedule::new(2, 4, 8, true, 1);
        assert_eq!(s.pairings, vec![Pairing { table: vec![0, 1, 0, 1] }]);
        let lineups: Vec<_> = (0..4).map(|i| s.lineup(&s.job(i))).collect();
        assert_eq!(lineups[1], vec![1, 0, 1, 0]);
        // Every seat sees every bot across one rotation.
        for seat in 0..4 {
            let mut seen: Vec<usize> = lineups.iter().map(|l| l[seat]).collect();
            seen.sort();
            assert_eq!(seen, vec![0, 0, 1, 1]);
        }
    }
}
