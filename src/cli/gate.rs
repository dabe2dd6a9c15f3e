//! `arena gate GATE.toml`: named expectations about bot strength (the file's schema, its loading
//! and judging: [`crate::tournament::gate`]). One line per expectation; exit 0 when all pass, 1
//! when any fails, 2 on bad input.
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use crate::cli::out::{note, say};
use crate::cli::{json, EXIT_FAIL, EXIT_OK};
use crate::error::{Error, Result};
use crate::registry::Arena;
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

    fn json(&self) -> serde_json::Value {
        let checks: Vec<serde_json::Value> = self
            .checks
            .iter()
            .map(|c| {
                serde_json::json!({
                    "criterion": c.criterion,
                    "value": json::num(c.value),
                    "bound": json::num(c.bound),
                    "pass": c.pass,
                    "text": c.text,
                })
            })
            .collect();
        serde_json::json!({
            "name": self.name,
            "pass": self.pass(),
            "games": self.games,
            "seconds": self.seconds,
            "results": self.dir.display().to_string(),
            "line": self.line(),
            "checks": checks,
        })
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
    if args.json {
        note!("{summary}");
        json::print(&serde_json::json!({
            "gate": args.gate.display().to_string(),
            "passed": passed,
            "failed": total - passed,
            "expectations": verdicts.iter().map(Verdict::json).collect::<Vec<_>>(),
        }));
    } else {
        say!("{summary}");
    }
    if args.report {
        verdicts.iter().try_for_each(|v| super::report::write_for(arena, &v.dir))?;
    }
    if let Some(path) = &args.junit {
        std::fs::write(path, junit(&args.gate, &verdicts)).map_err(|e| Error::io(path, e))?;
    }
    Ok(if passed == total { EXIT_OK } else { EXIT_FAIL })
}

/// The verdicts as JUnit XML: one test suite (the gate file), one test case per expectation with
/// the terminal's line as its output; a failure carries that line and, in its body, every
/// criterion's figures.
fn junit(gate: &Path, verdicts: &[Verdict]) -> String {
    let failures = verdicts.iter().filter(|v| !v.pass()).count();
    let seconds: f64 = verdicts.iter().map(|v| v.seconds).sum();
    let suite = xml_escape(&gate.display().to_string());
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"arena gate\" tests=\"{}\" failures=\"{failures}\" time=\"{seconds:.3}\">\n",
        verdicts.len()
    ));
    xml.push_str(&format!(
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\" time=\"{seconds:.3}\">\n",
        verdicts.len()
    ));
    for v in verdicts {
        let head = format!(
            "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\">\n",
            xml_escape(&v.name),
            v.seconds
        );
        xml.push_str(&head);
        if !v.pass() {
            let body: Vec<String> = v
                .checks
                .iter()
                .map(|c| format!("{} {}: {}", if c.pass { "pass" } else { "FAIL" }, c.criterion, c.text))
                .collect();
            xml.push_str(&format!(
                "      <failure message=\"{}\" type=\"expectation\">{}</failure>\n",
                xml_escape(&v.line()),
                xml_escape(&body.join("\n"))
            ));
        }
        // Every case, passed or not, carries the terminal's line: what was judged and by which
        // figures (an SPRT's model and the unit of its bounds among them).
        xml.push_str(&format!("      <system-out>{}</system-out>\n    </testcase>\n", xml_escape(&v.line())));
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// Text as XML character data or an attribute value: the five markup characters escaped, and
/// the control characters XML 1.0 does not allow replaced (a name may hold anything).
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push_str(&format!("&#{};", c as u32)),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(xml_escape("x\u{1}y\nz"), "x\u{fffd}y&#10;z");
    }
}
