//! `arena gate GATE.toml`: named expectations about bot strength (the file's schema, its loading
//! and judging: [`crate::tournament::gate`]). One line per expectation; exit 0 when all pass, 1
//! when any fails, 2 on bad input.
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use crate::cli::out::{note, say};
use crate::cli::{json, EXIT_FAIL, EXIT_OK};
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::export::{Exporter, Figure, JUnit, Rows};
use crate::tournament::folder::{self, FolderLock};
use crate::tournament::gate::{judge, load, slug, Check};
use crate::tournament::run::execute;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(after_help = "Example:\n  arena gate configs/ci-gate.toml")]
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
    /// Check the gate file, its configs and baselines, and play nothing (exit 0: all are valid).
    #[arg(long)]
    check: bool,
    /// Also write report.html (plots and tables) into each expectation's run folder.
    #[arg(long)]
    report: bool,
}

/// An expectation's verdict as one row of the gate's results: a `--json` document's
/// `expectations` and a JUnit test case (see [`JUnit`]).
#[derive(Default, Serialize)]
struct GateResult {
    name: String,
    pass: bool,
    games: u64,
    seconds: f64,
    results: String,
    line: String,
    checks: Vec<CheckResult>,
}

/// One criterion of a [`GateResult`].
#[derive(Default, Serialize)]
struct CheckResult {
    criterion: &'static str,
    value: Figure,
    bound: Figure,
    pass: bool,
    text: String,
}

/// One expectation's verdict, as the terminal, JSON and JUnit show it.
struct Verdict {
    name: String,
    games: u64,
    seconds: f64,
    dir: PathBuf,
    checks: Vec<Check>,
}

impl Verdict {
    fn pass(&self) -> bool {
        self.checks.iter().all(|c| c.pass)
    }

    /// The terminal's line: `PASS name (200 games): figures; figures`.
    fn line(&self) -> String {
        let figures: Vec<&str> = self.checks.iter().map(|c| c.text.as_str()).collect();
        let mark = if self.pass() { "PASS" } else { "FAIL" };
        format!("{mark} {} ({} games): {}", self.name, self.games, figures.join("; "))
    }

    /// The verdict as `--json` and the JUnit export show it.
    fn result(&self) -> GateResult {
        let checks = self
            .checks
            .iter()
            .map(|c| CheckResult {
                criterion: c.criterion,
                value: Figure(c.value),
                bound: Figure(c.bound),
                pass: c.pass,
                text: c.text.clone(),
            })
            .collect();
        GateResult {
            name: self.name.clone(),
            pass: self.pass(),
            games: self.games,
            seconds: self.seconds,
            results: self.dir.display().to_string(),
            line: self.line(),
            checks,
        }
    }
}

pub fn gate(arena: &Arena, args: &GateArgs) -> Result<i32> {
    let expectations = load(arena, &args.gate)?;
    if args.check {
        say!("{}: {} expectations, all valid", args.gate.display(), expectations.len());
        return Ok(EXIT_OK);
    }
    let base = args.gate.parent().unwrap_or(Path::new("."));
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: super::run::progress_mode(false, args.progress_every),
        history: false,
        stop: Arc::default(),
        records: crate::report::Records::Csv,
        flush_every: crate::tournament::runner::FLUSH_EVERY,
    };
    // Every folder made ready before the first verdict is printed: a folder that cannot be used
    // refuses the gate with its one line, not after some verdicts.
    let dirs: Vec<PathBuf> = expectations.iter().map(|(e, _)| args.out.join(slug(&e.name))).collect();
    let mut locks = std::collections::BTreeMap::<PathBuf, FolderLock>::new();
    for dir in &dirs {
        if !locks.contains_key(dir) {
            locks.insert(dir.clone(), folder::prepare(dir, true)?);
        }
    }
    let mut verdicts = Vec::new();
    for ((e, cfg), dir) in expectations.iter().zip(dirs) {
        // Two expectations of one name share a folder: the second finds it as the first left it.
        let lock = match locks.remove(&dir) {
            Some(lock) => lock,
            None => folder::prepare(&dir, true)?,
        };
        let started = Instant::now();
        let report = execute(arena, cfg, cfg.schedule()?, &opts, &dir, lock, None)?;
        let judged = e.judged(cfg);
        let checks = judge(e, base, &report.verdicts.bots, &report.verdicts.matches, &judged)?;
        let verdict = Verdict {
            name: e.name.clone(),
            games: report.end.played,
            seconds: started.elapsed().as_secs_f64(),
            dir,
            checks,
        };
        // With --json, stdout holds the document alone and the lines go to stderr.
        if args.json {
            note!("{}", verdict.line());
        } else {
            say!("{}", verdict.line());
        }
        verdicts.push(verdict);
    }
    let passed = verdicts.iter().filter(|v| v.pass()).count();
    let total = verdicts.len();
    let summary = format!("{passed} of {total} expectations passed");
    let results = Rows::of(&args.gate.display().to_string(), &verdicts.iter().map(Verdict::result).collect::<Vec<_>>());
    if args.json {
        note!("{summary}");
        json::print(&serde_json::json!({
            "gate": args.gate.display().to_string(),
            "passed": passed,
            "failed": total - passed,
            "expectations": results.values(),
        }));
    } else {
        say!("{summary}");
    }
    if args.report {
        verdicts.iter().try_for_each(|v| super::report::write_for(arena, &v.dir))?;
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, JUnit.serialize(&[results])?).map_err(|e| Error::io(path, e))?;
    }
    Ok(if passed == total { EXIT_OK } else { EXIT_FAIL })
}
