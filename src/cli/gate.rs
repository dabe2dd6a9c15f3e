//! `arena gate GATE.toml`: named expectations about bot strength (the file's schema, its loading
//! and judging: [`crate::tournament::gate`]). One line per expectation; exit 0 when all pass, 1
//! when any fails, 2 on bad input.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use crate::cli::out::{say, Printer};
use crate::cli::{EXIT_FAIL, EXIT_OK};
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::export::{Exporter, JUnit, Rows};
use crate::report::history;
use crate::tournament::gate::{load, play, Verdict};
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena gate configs/ci-gate.toml\n  arena gate configs/ci-gate.toml --history gate-history.csv --commit \"$CI_COMMIT_SHORT_SHA\""
)]
pub struct GateArgs {
    /// The gate file (TOML, a list of [[expect]]).
    gate: PathBuf,
    /// Worker threads (results do not depend on it).
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// Where each expectation's run folder goes.
    #[arg(long, default_value = "results/gate")]
    out: PathBuf,
    /// Also write the verdicts as JUnit XML (one test case per expectation) to this file.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print the verdicts as one JSON document on stdout (the text goes to stderr).
    #[arg(long)]
    json: bool,
    /// Seconds between progress lines of each expectation's run when stderr is not a terminal (0: none).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = super::run::parse_seconds)]
    progress_every: f64,
    /// No progress of the expectations' runs: only the verdicts are printed.
    #[arg(long, short)]
    quiet: bool,
    /// Check the gate file, its configs and baselines, and play nothing (exit 0: all are valid).
    #[arg(long)]
    check: bool,
    /// Also write report.html (plots and tables) into each expectation's run folder.
    #[arg(long)]
    report: bool,
    /// Append the verdicts to this history file, one row per criterion of every expectation
    /// (.csv or .jsonl, by its name); `arena report --history FILE` draws it.
    #[arg(long, value_name = "FILE")]
    history: Option<PathBuf>,
    /// The commit the history's rows name (default: $ARENA_COMMIT, else `git rev-parse --short
    /// HEAD` here, else `unknown`).
    #[arg(long, value_name = "REV", requires = "history")]
    commit: Option<String>,
    /// The date the history's rows carry (default: $ARENA_DATE, else now in UTC, RFC 3339).
    #[arg(long, value_name = "DATE", requires = "history")]
    date: Option<String>,
}

/// The commit the history names: the flag, else `$ARENA_COMMIT`, else the current folder's
/// `git rev-parse --short HEAD`, else `unknown` (a gate run outside a repository still keeps its
/// rows).
fn commit(flag: Option<&str>) -> String {
    let git = || {
        let out = std::process::Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        let rev = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !rev.is_empty()).then_some(rev)
    };
    given(flag, "ARENA_COMMIT").or_else(git).unwrap_or_else(|| "unknown".into())
}

/// The date the history carries: the flag, else `$ARENA_DATE`, else now.
fn date(flag: Option<&str>) -> String {
    given(flag, "ARENA_DATE").unwrap_or_else(crate::report::now)
}

/// A flag's value, else the environment variable `var`'s, when either is set and not blank.
fn given(flag: Option<&str>, var: &str) -> Option<String> {
    flag.map(str::to_string).or_else(|| std::env::var(var).ok()).map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

pub fn gate(arena: &Arena, args: &GateArgs) -> Result<i32> {
    let expectations = load(arena, &args.gate)?;
    if let Some(path) = &args.history {
        history::check(path)?;
    }
    if args.check {
        say!("{}: {} expectations, all valid", args.gate.display(), expectations.len());
        return Ok(EXIT_OK);
    }
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: super::run::progress_mode(args.quiet, args.progress_every),
        history: false,
        stop: Arc::default(),
        records: crate::report::Records::Csv,
        flush_every: crate::tournament::runner::FLUSH_EVERY,
        cores: Vec::new(),
        luck: crate::core::luck::Estimator::Plain,
    };
    let printer = Printer::new(args.json);
    let verdicts = play(arena, &args.gate, &expectations, &args.out, &opts, |v| {
        printer.line(v.line());
        if let Some(sentence) = &v.sentence {
            printer.line(format!("  {sentence}"));
        }
    })?;
    let passed = verdicts.iter().filter(|v| v.pass()).count();
    let total = verdicts.len();
    let summary = format!("{passed} of {total} expectations passed");
    let results = Rows::of(&args.gate.display().to_string(), &verdicts.iter().map(Verdict::result).collect::<Vec<_>>());
    printer.line(summary);
    printer.document(&serde_json::json!({
        "gate": args.gate.display().to_string(),
        "passed": passed,
        "failed": total - passed,
        "expectations": results.values(),
    }));
    if args.report {
        verdicts.iter().try_for_each(|v| super::report::write_for(arena, &v.dir))?;
    }
    if let Some(path) = &args.history {
        let (commit, date) = (commit(args.commit.as_deref()), date(args.date.as_deref()));
        let rows: Vec<_> = verdicts.iter().flat_map(|v| v.history(&commit, &date)).collect();
        history::append(path, &rows)?;
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, JUnit.serialize(&[results])?).map_err(|e| Error::io(path, e))?;
    }
    Ok(if passed == total { EXIT_OK } else { EXIT_FAIL })
}
