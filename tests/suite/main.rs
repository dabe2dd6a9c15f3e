//! The end-to-end and library tests, one test binary: each file here was once a test crate of its
//! own under tests/, and each linked the whole library (with the release profile's LTO) into a
//! binary of its own. One binary builds in a fraction of the time; its tests run in parallel with
//! one another (`cargo test --release --test suite MODULE::` runs one file's tests).
//!
//! Every test is written to share the process: its files in a temporary folder of its own, its
//! child processes found by a mark of its own (never by name or count), no environment variable
//! or current folder changed. tests/allocations.rs stays a crate of its own: it installs a
//! counting global allocator.

mod common;

mod acpc_import;
mod acpc_kind;
mod architecture;
mod book;
mod botzone_kind;
mod cannot_run;
mod check_bot;
mod cli;
mod clocks;
mod config_paths;
mod configs;
mod conformance;
mod engine_errors;
mod exploit;
mod external;
mod faults;
mod fuzz_inputs;
mod gate_history;
mod gomocup_kind;
mod gomoku_files;
mod gomoku_gomocup;
mod hardening;
mod instructions;
mod kuhn_poker;
mod league;
mod live_report;
mod luck;
mod luck_honesty;
mod machine_output;
mod moves;
mod newcomer;
mod play;
mod plots;
mod plugins;
mod ratings_reference;
mod readme;
mod records;
mod report;
mod run_folder;
mod runs;
mod said_plainly;
mod shards;
mod slurm;
mod startup;
mod stats_honesty;
mod stats_vectors;
mod verdict_honesty;
mod verdicts;
mod viewer;
