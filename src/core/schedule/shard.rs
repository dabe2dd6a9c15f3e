//! Shards: a share of a schedule's games, so one run can be played on many machines and merged.
//!
//! Shard `k` of `n` holds the games of every deal `d` (the tournament's deals numbered in game
//! order, `game index / replays`) with `d mod n = k - 1`. Whole deals, so every observation (all
//! the replays of a deal) is played and read in one place; dealt out in turn, so every shard gets
//! its share of every table, slow bots and fast ones alike, and the first games of the run are
//! spread over all the shards (a merge of what every shard has played so far is a prefix of the
//! run, which is what lets an SPRT over shards stop where a one-machine run would).

use serde::{Deserialize, Serialize};

use crate::core::schedule::Schedule;
use crate::error::{Error, Result};

/// Shard `index` of `count` (1-based: `1/4` to `4/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's number, 0-based.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

/// At most this many shards (a job array of this size is already far past any cluster's limit).
pub const MAX_SHARDS: u64 = 1 << 20;

impl Shard {
    /// The whole run: one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, checked.
    pub fn new(index: u64, count: u64) -> Result<Shard> {
        if !(1..=MAX_SHARDS).contains(&count) || !(1..=count).contains(&index) {
            return Err(Error::input(format!(
                "shard {index}/{count}: want K/N with 1 <= K <= N <= {MAX_SHARDS} (shard 1/4 to 4/4)"
            )));
        }
        Ok(Shard { index, count })
    }

    /// Reads `K/N`, or `auto` / `auto/N`: the index from the environment (a Slurm job array's
    /// `SLURM_ARRAY_TASK_ID`, or a Kubernetes indexed Job's `JOB_COMPLETION_INDEX`), the count
    /// after the slash, else from Slurm's `SLURM_ARRAY_TASK_COUNT`.
    pub fn parse(spec: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard> {
        let bad = || Error::input(format!("--shard {spec}: want K/N (shard K of N, 1-based), auto or auto/N"));
        let (index, count) = match spec.split_once('/') {
            Some((index, count)) => (index, Some(count.parse::<u64>().map_err(|_| bad())?)),
            None if spec == "auto" => (spec, None),
            None => return Err(bad()),
        };
        if index != "auto" {
            return Shard::new(index.parse().map_err(|_| bad())?, count.ok_or_else(bad)?);
        }
        let number = |name: &str| -> Result<Option<u64>> {
            env(name)
                .map(|v| v.trim().parse::<u64>().map_err(|_| Error::input(format!("{name}={v}: not a whole number"))))
                .transpose()
        };
        let (index, from_env) = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            if id < min || (id - min) % step != 0 {
                return Err(Error::input(format!(
                    "--shard auto: SLURM_ARRAY_TASK_ID={id} is not on the array's range (min {min}, step {step})"
                )));
            }
            ((id - min) / step + 1, number("SLURM_ARRAY_TASK_COUNT")?)
        } else if let Some(i) = number("JOB_COMPLETION_INDEX")? {
            (i + 1, None)
        } else {
            return Err(Error::input(
                "--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes indexed Job) is set; give --shard K/N",
            ));
        };
        let count = match (count, from_env) {
            (Some(given), Some(env)) if given != env => {
                return Err(Error::input(format!("--shard {spec}: the Slurm array has {env} tasks, not {given}")))
            }
            (Some(n), _) | (None, Some(n)) => n,
            (None, None) => {
                return Err(Error::input(
                    "--shard auto: the number of shards is not in the environment; give --shard auto/N",
                ))
            }
        };
        Shard::new(index, count)
    }

    /// True when game `i` of `schedule` is in this shard.
    pub fn holds(&self, schedule: &Schedule, i: u64) -> bool {
        (i / schedule.replays) % self.count == self.index - 1
    }

    /// The number of this shard's games.
    pub fn games(&self, schedule: &Schedule) -> u64 {
        let deals = schedule.total() / schedule.replays;
        deals.saturating_sub(self.index - 1).div_ceil(self.count) * schedule.replays
    }

    /// The index in the tournament of this shard's game number `position` (0-based, in order).
    pub fn game(&self, schedule: &Schedule, position: u64) -> u64 {
        let r = schedule.replays;
        ((position / r) * self.count + self.index - 1) * r + position % r
    }

    /// The shard's games from its game number `position` on, in order, as tournament indexes.
    pub fn games_from(self, schedule: &Schedule, position: u64) -> impl Iterator<Item = u64> + Send + 'static {
        let (end, schedule) = (self.games(schedule), schedule.clone());
        (position..end).map(move |p| self.game(&schedule, p))
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn schedule(pairings: usize, games: u64, paired: bool) -> Schedule {
        Schedule::new(vec![vec![0, 1]; pairings], games, paired, 1)
    }

    proptest! {
        /// The shards together hold every game exactly once, whole deals each, in order.
        #[test]
        fn shards_partition_the_games_by_whole_deals(pairings in 1usize..5, games in 1u64..40, paired: bool, count in 1u64..9) {
            let s = schedule(pairings, games, paired);
            let mut owner = vec![0u64; s.total() as usize];
            for index in 1..=count {
                let shard = Shard::new(index, count).unwrap();
                let mine: Vec<u64> = shard.games_from(&s, 0).collect();
                prop_assert_eq!(mine.len() as u64, shard.games(&s));
                prop_assert!(mine.windows(2).all(|w| w[0] < w[1]), "in game order");
                for &i in &mine {
                    prop_assert!(shard.holds(&s, i));
                    owner[i as usize] += index;
                }
                let from_3: Vec<u64> = shard.games_from(&s, 3).collect();
                prop_assert_eq!(&from_3[..], &mine[mine.len().min(3)..]);
            }
            for (i, &o) in owner.iter().enumerate() {
                prop_assert!(o >= 1 && o <= count, "game {} held by one shard", i);
                let deal_mates = (i as u64 / s.replays * s.replays)..(i as u64 / s.replays + 1) * s.replays;
                prop_assert!(deal_mates.map(|j| owner[j as usize]).all(|x| x == o), "a deal stays together");
            }
        }
    }

    #[test]
    fn specs_from_the_command_line_and_the_environment() {
        let none = |_: &str| None;
        assert_eq!(Shard::parse("2/4", &none).unwrap(), Shard { index: 2, count: 4 });
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "auto"] {
            assert!(Shard::parse(bad, &none).is_err(), "{bad}");
        }
        let slurm = |name: &str| {
            let vars = [("SLURM_ARRAY_TASK_ID", "7"), ("SLURM_ARRAY_TASK_MIN", "5"), ("SLURM_ARRAY_TASK_COUNT", "4")];
            vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(Shard::parse("auto", &slurm).unwrap(), Shard { index: 3, count: 4 });
        assert!(Shard::parse("auto/5", &slurm).unwrap_err().to_string().contains("4 tasks, not 5"));
        let k8s = |name: &str| (name == "JOB_COMPLETION_INDEX").then(|| "0".to_string());
        assert_eq!(Shard::parse("auto/3", &k8s).unwrap(), Shard { index: 1, count: 3 });
        assert!(Shard::parse("auto", &k8s).unwrap_err().to_string().contains("auto/N"));
    }
}
