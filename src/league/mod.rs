//! The league: every finished run of every game kept in one SQLite database, and the ratings of
//! each version of each bot over all of that evidence together (`arena league`).
//!
//! - db.rs: the database file: its schema, its migrations, many writers at once.
//! - import.rs: a run folder (whole, merged or one shard) added once, game by game.
//! - rate.rs: the league's table: Elo from pairs (anchors, relative anchors between versions),
//!   the payoff rating in the game's unit, the crosstable and whether it is transitive.
//! - export.rs: the games as PGN, which Ordo and BayesElo read.
//! - page.rs: the league as one HTML page (`arena league report`).

pub(crate) mod db;
pub(crate) mod export;
pub(crate) mod import;
pub(crate) mod page;
pub(crate) mod rate;

pub(crate) use db::League;
