//! `arena gate --history FILE` and `arena report --history FILE`: the real gate appends its
//! verdicts, a simulated series of 30 commits with a regression injected at one of them is drawn,
//! and the page shows every commit, marks the failures and names the injected commit; a history
//! that does not parse is refused with its file and line.

use std::path::Path;
use std::process::Output;

use bot_arena::report::history::{append, read, HistoryRow, Outcome};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tempfile::TempDir;

use crate::common::{arena, write, GATE_MATCH};

/// Two criteria, so the page has two series; the bounds are ones the real run passes.
const GATE: &str = "[[expect]]\nname = \"adjacent vs random\"\nconfig = \"match.toml\"\ngames = 40\nseed = 3\n\
                    win_rate_lo = 0.3\nelo_lo = -200\n";

const COMMITS: usize = 30;
/// The commit (1-based) the regression is injected at, and one before it whose run was short:
/// a wide interval that fails its bound but overlaps its neighbours (a noisy fail, not a change).
const REGRESSION: usize = 17;
const NOISY: usize = 9;

/// A commit's id, as `git rev-parse --short` would print one.
fn id(commit: usize) -> String {
    format!("{:07x}", (commit as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 36)
}

fn date(commit: usize) -> String {
    format!("2026-01-{commit:02}T12:00:00Z")
}

fn gate(dir: &Path, commit: usize) -> Output {
    arena()
        .current_dir(dir)
        .args(["gate", "gate.toml", "--out", "gate-out", "--history", "history.csv", "--commit"])
        .arg(id(commit))
        .args(["--date", &date(commit)])
        .output()
        .unwrap()
}

/// The rows the gate would write at `commit` for the series `like` (a real row): the same
/// criterion, estimates around the real one with noise smaller than the interval, dropped by four
/// half-widths from [`REGRESSION`] on, judged as the gate judges (the lower end against the bound).
fn simulated(like: &HistoryRow, commit: usize, rng: &mut ChaCha8Rng) -> HistoryRow {
    // Half the real run's half-width: the simulated runs are longer.
    let h = (like.hi - like.lo) / 4.0;
    let level = if commit >= REGRESSION { like.estimate - 4.0 * h } else { like.estimate };
    let estimate = level + rng.random_range(-h / 3.0..h / 3.0);
    let (lo, hi) = if commit == NOISY { (like.bound - h, estimate + 2.0 * h) } else { (estimate - h, estimate + h) };
    HistoryRow {
        commit: id(commit),
        date: date(commit),
        estimate,
        lo,
        hi,
        verdict: if lo >= like.bound { Outcome::Pass } else { Outcome::Fail },
        ..like.clone()
    }
}

#[test]
fn thirty_commits_with_a_regression_show_every_point_the_failures_and_the_commit_it_began() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    write(d, "match.toml", GATE_MATCH);
    write(d, "gate.toml", GATE);
    // The first two commits through the real gate: it appends, header once, a row per criterion.
    for commit in [1, 2] {
        let out = gate(d, commit);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let path = d.join("history.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "commit,date,expectation,criterion,model,bot,seed,games,estimate,lo,hi,bound,verdict");
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[1].starts_with(&format!(
        "{},{},adjacent vs random,win_rate_lo,win rate,random-adjacent,3,40,",
        id(1),
        date(1)
    )));
    assert!(lines[2].starts_with(&format!("{},{},adjacent vs random,elo_lo,elo (pentanomial),", id(1), date(1))));
    assert!(lines[3].starts_with(&id(2)) && lines[4].starts_with(&id(2)), "{text}");
    let real = read(&path).unwrap();
    assert!(real.iter().all(|r| r.verdict == Outcome::Pass && r.lo < r.estimate && r.estimate < r.hi), "{real:?}");

    // The other 28 through the library's writer, a commit at a time, as the gate appends them.
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    for commit in 3..=COMMITS {
        let rows: Vec<HistoryRow> = real[2..].iter().map(|like| simulated(like, commit, &mut rng)).collect();
        append(&path, &rows).unwrap();
    }
    let rows = read(&path).unwrap();
    assert_eq!(rows.len(), 2 * COMMITS);

    let out = arena().current_dir(d).args(["report", "--history", "history.csv"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "report: history.html");
    let page = std::fs::read_to_string(d.join("history.html")).unwrap();
    let sections: Vec<&str> = page.split("<section class=\"series\">").skip(1).collect();
    assert_eq!(sections.len(), 2, "a section per criterion");
    for (section, criterion) in sections.iter().zip(["win_rate_lo", "elo_lo"]) {
        assert!(section.contains(&format!("<h2>adjacent vs random: {criterion}</h2>")), "{section}");
        let series: Vec<&HistoryRow> = rows.iter().filter(|r| r.criterion == criterion).collect();
        let failed: Vec<String> = series
            .iter()
            .filter(|r| r.verdict == Outcome::Fail)
            .map(|r| format!("<code>{}</code>", r.commit))
            .collect();
        // The regression fails every commit from it on, and the noisy commit fails too.
        assert_eq!(failed.len(), COMMITS - REGRESSION + 2, "{criterion}: {failed:?}");
        assert!(failed[0].contains(&id(NOISY)) && failed[1].contains(&id(REGRESSION)));
        // 30 points: a row each in the table, a marker each in the plot (circles pass,
        // triangles fail), and the failures listed and marked.
        assert_eq!(section.matches("<tr class=\"pass\">").count(), COMMITS - failed.len());
        assert_eq!(section.matches("<tr class=\"fail\">").count(), failed.len());
        assert_eq!(section.matches("<circle").count(), COMMITS - failed.len(), "{criterion}");
        assert_eq!(section.matches("<polygon").count(), failed.len(), "{criterion}");
        assert!(section.contains(&format!("Failures ({}): {}</p>", failed.len(), failed.join(", "))), "{section}");
        // The change is named at the injected commit, and only there (the noisy fail is not).
        let named = format!(
            "First commit of a change the intervals resolve: <b class=\"commit\">{}</b> (a drop, row {REGRESSION}).",
            id(REGRESSION)
        );
        assert!(
            section.contains(&named),
            "{criterion}: {}",
            section.lines().find(|l| l.contains("change")).unwrap_or("")
        );
        assert!(section.contains("viewBox") && page.contains("svg{width:100%"), "a scalable plot as wide as the page");
    }
}

fn refused(out: &Output, says: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(says), "`{says}` not in {stderr}");
}

#[test]
fn a_history_that_does_not_parse_is_refused_with_its_file_and_line() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let report = |args: &[&str]| arena().current_dir(d).arg("report").args(args).output().unwrap();
    // A name of no format is refused before the gate plays anything.
    write(d, "match.toml", GATE_MATCH);
    write(d, "gate.toml", GATE);
    let out =
        arena().current_dir(d).args(["gate", "gate.toml", "--out", "gate-out", "--history", "h.txt"]).output().unwrap();
    refused(&out, "h.txt: a history file's name ends in .csv or .jsonl");
    assert!(!d.join("gate-out").exists() && !d.join("h.txt").exists(), "nothing played, nothing written");
    refused(&report(&["--history", "h.txt"]), "h.txt: a history file's name ends in .csv or .jsonl");
    // A CSV that is not a history: refused by the gate before it plays, and by the report.
    write(d, "other.csv", "bot,score\na,1\n");
    let out = arena()
        .current_dir(d)
        .args(["gate", "gate.toml", "--out", "gate-out", "--history", "other.csv"])
        .output()
        .unwrap();
    refused(&out, "other.csv:1: not a history's header");
    assert!(!d.join("gate-out").exists());
    assert_eq!(std::fs::read_to_string(d.join("other.csv")).unwrap(), "bot,score\na,1\n", "left as it was");
    refused(&report(&["--history", "other.csv"]), "other.csv:1: not a history's header");
    // A bad row, named by its line: a number that is not one, a verdict of neither kind, a short row.
    let header = "commit,date,expectation,criterion,model,bot,seed,games,estimate,lo,hi,bound,verdict\n";
    let good = "abc1234,2026-01-01T00:00:00Z,e,elo_lo,elo (pentanomial),b,1,10,5,-inf,inf,0,pass\n";
    for (bad, says) in [
        ("abc1234,d,e,elo_lo,m,b,1,10,five,4,6,0,pass\n", "bad.csv:3: column `estimate`: `five` is not a number"),
        ("abc1234,d,e,elo_lo,m,b,1,10,5,4,6,0,maybe\n", "bad.csv:3: column `verdict`: `maybe` is not pass or fail"),
        ("abc1234,d,e\n", "bad.csv:3: 3 fields where the header has 13"),
    ] {
        write(d, "bad.csv", &format!("{header}{good}{bad}"));
        refused(&report(&["--history", "bad.csv"]), says);
    }
    write(d, "bad.jsonl", "{\"commit\": \"a\"}\n");
    refused(&report(&["--history", "bad.jsonl"]), "bad.jsonl:1: missing field");
    // Exactly one of run folders and --history.
    refused(&report(&[]), "not provided: <DIRS|--history <FILE>>");
    write(d, "ok.csv", &format!("{header}{good}"));
    refused(&report(&["results/x", "--history", "ok.csv"]), "cannot be used with");
    let out = report(&["--history", "ok.csv", "--out", "page.html"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(d.join("page.html")).unwrap().contains("abc1234"));
}
