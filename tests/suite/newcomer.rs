//! The small things a newcomer hits first, each on the real binary: how a missing run folder is
//! said, where a resume picks up, what a typo was probably meant to be, every error of a config at
//! once, help texts without source markup, `--quiet` wherever progress is printed.

use std::path::Path;
use std::process::Output;

use crate::common::{arena, write};
use tempfile::TempDir;

/// Runs `arena ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    arena().current_dir(dir).args(args).output().unwrap()
}

/// The command was refused with exit 2, nothing on stdout, and exactly `line` on stderr.
fn refused_with(output: &Output, line: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end(), line);
    assert!(output.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&output.stdout));
}

/// Every command that reads a run folder says a missing one, or one that holds no run, in the
/// same words.
#[test]
fn every_command_says_a_missing_run_folder_the_same_way() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("notes")).unwrap();
    write(&d.join("notes"), "README.md", "not a run");
    write(d, "plain.txt", "");
    let commands: &[&[&str]] =
        &[&["resume"], &["stats", "--run"], &["report"], &["replay"], &["replay", "--check"], &["merge"]];
    for command in commands {
        for (folder, why) in [
            ("results/x", "no such folder"),
            ("notes", "it holds no run: no run.json"),
            ("plain.txt", "a file, not a folder"),
        ] {
            let args: Vec<&str> = command.iter().copied().chain([folder]).collect();
            let out = run_in(d, &args);
            refused_with(&out, &format!("error: no run folder at {folder} ({why})"));
        }
    }
    // A run folder without its config: the file it lacks is named.
    let made = run_in(d, &["run", "--game", "gomoku", "--bot", "random", "--games", "2", "--quiet", "--out", "run"]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    std::fs::remove_file(d.join("run/config.toml")).unwrap();
    for command in commands {
        let args: Vec<&str> = command.iter().copied().chain(["run"]).collect();
        refused_with(&run_in(d, &args), "error: no run folder at run (it holds no run: no config.toml)");
    }
    // The gate's history file, which is no folder, is said the same way.
    refused_with(
        &run_in(d, &["report", "--history", "h.csv"]),
        "error: no gate history at h.csv (no such file: `arena gate GATE --history FILE` writes it)",
    );
}
