//! Computes the evaluators' tables at compile time, so that no command pays for them at start:
//! `build/*.rs` write Rust source (and binary id tables) into `OUT_DIR`, which the evaluators
//! `include!`. It also records the git commit the tool is built from (`ARENA_GIT_COMMIT`, which
//! run.json carries).

use std::path::Path;

#[path = "build/holdem_eval.rs"]
mod holdem_eval;
#[path = "build/mahjong_shanten.rs"]
mod mahjong_shanten;

fn main() {
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let write = |name: &str, bytes: &[u8]| std::fs::write(Path::new(&out).join(name), bytes).expect("write a table");
    write("holdem_eval_tables.rs", holdem_eval::write().as_bytes());
    for (name, bytes) in mahjong_shanten::write() {
        write(name, &bytes);
    }
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build");
    git_commit();
}

/// Sets `ARENA_GIT_COMMIT` to the commit checked out, and asks to be run again when HEAD moves.
/// (No `-dirty` mark: edits do not rerun this script, so the mark would go stale.) Outside a git checkout (a crate from a
/// registry), nothing is set and run.json says `unknown`.
fn git_commit() {
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let (Some(commit), Some(git_dir)) = (git(&["rev-parse", "HEAD"]), git(&["rev-parse", "--absolute-git-dir"])) else {
        return;
    };
    println!("cargo::rustc-env=ARENA_GIT_COMMIT={commit}");
    // HEAD names the branch; logs/HEAD changes on every commit, checkout and reset of this
    // checkout (a worktree has its own).
    for file in ["HEAD", "logs/HEAD"] {
        println!("cargo::rerun-if-changed={git_dir}/{file}");
    }
}
