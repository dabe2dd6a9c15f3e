//! `arena report` and `--report`: the page holds every section, agrees with the run's CSVs, and (when Chromium is installed: `scripts/chromium-check.sh`)
//! renders in a real browser with no console error and a drawing in every plot.
//!
//! The browser test runs with the suite when /usr/bin/chromium (or $CHROMIUM) exists, and says it
//! skipped otherwise. Its screenshots go to target/report-screenshots/.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{arena, write};
use tempfile::TempDir;

/// Gomoku, a small paired round robin of three.
const GOMOKU: &str = r#"
name = "gomoku-report"
game = "gomoku"
games = 30
seed = 3
paired = true
bots = ["weights", "random-adjacent", "random"]
[table]
size = 9
"#;

/// Hold'em heads-up duplicate hands with a payoff SPRT that decides early.
pub(crate) const HOLDEM_SPRT: &str = r#"
name = "holdem-sprt-report"
game = "holdem"
games = 20000
seed = 1
paired = true
bots = ["rr", "random"]
[table]
format = "cash"
stack = 100
[sprt]
payoff0 = 0
payoff1 = 2000
"#;

/// Mahjong: a field of three kinds at four seats, every deal replayed with the seats rotated.
pub(crate) const MAHJONG_FIELD: &str = r#"
name = "mahjong-field-report"
game = "mahjong"
games = 16
seed = 2
paired = true
seats = 4
bots = ["greedy", "random", "expectimax"]
"#;

/// Runs `config` with `--report` into `dir/name`; returns the run folder.
pub(crate) fn run_with_report(dir: &Path, name: &str, config: &str) -> PathBuf {
    let cfg = write(dir, &format!("{name}.toml"), config);
    let out = dir.join(name);
    let output =
        arena().args(["run", "-q", "--report", "--threads", "2", "--out"]).arg(&out).arg(&cfg).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("report.html"));
    out
}

fn page(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("report.html")).unwrap()
}

/// The plots of a page: each `<svg ...>...</svg>`.
fn svgs(page: &str) -> Vec<&str> {
    page.split("<svg").skip(1).map(|s| &s[..s.find("</svg>").expect("a closed svg")]).collect()
}

/// Drawing elements in one SVG beyond its white background.
fn marks(svg: &str) -> usize {
    ["<path", "<polyline", "<polygon", "<circle", "<line", "<rect"]
        .iter()
        .map(|t| svg.matches(t).count())
        .sum::<usize>()
}

#[test]
fn reports_hold_every_section_and_agree_with_the_csvs() {
    let tmp = TempDir::new().unwrap();
    let gomoku = run_with_report(tmp.path(), "gomoku", GOMOKU);
    let html = page(&gomoku);
    for section in [
        "Bots",
        "Verdict",
        "Mean payoff, 95% intervals",
        "Win rate, 95% intervals",
        "Payoff difference between bots",
        "Running mean payoff, 95% band",
        "Pentanomial",
        "Pairwise results",
        "Wins by colour",
        "Game length",
    ] {
        assert!(html.contains(section), "no section {section}");
    }
    assert!(!html.contains("<script"), "a run that kept no moves gets a page with no script");
    for fetch in ["src=", "href=", "url(", "@import"] {
        assert!(!html.contains(fetch), "the page fetches nothing, yet has {fetch}");
    }
    // summary.csv's games and payoffs are the table's.
    let summary = std::fs::read_to_string(gomoku.join("summary.csv")).unwrap();
    let rows: Vec<csv::StringRecord> =
        csv::Reader::from_reader(summary.as_bytes()).records().map(Result::unwrap).collect();
    // Gomoku's payoffs in points/game (columns 10 to 12), with the decimals that show two
    // significant figures of the narrowest interval's half-width, at least two.
    let x = |row: &csv::StringRecord, i: usize| row[i].parse::<f64>().unwrap();
    let d = rows
        .iter()
        .map(|r| (x(r, 12) - x(r, 11)) / 2.0)
        .filter(|h| *h > 0.0)
        .map(|h| (1 - h.log10().floor() as i64).clamp(2, 6) as usize)
        .max()
        .unwrap_or(2);
    for row in &rows {
        let payoff = x(row, 10);
        assert!(html.contains(&format!("<td>{payoff:+.d$} [")), "no payoff {payoff:+.d$} of {}", &row[0]);
    }
    for svg in svgs(&html) {
        assert!(marks(svg) > 5, "an empty plot: {}", &svg[..svg.len().min(200)]);
    }

    // The LLR path ends where match.csv's LLR is (recomputed from games.csv in game order).
    let holdem = run_with_report(tmp.path(), "holdem", HOLDEM_SPRT);
    let html = page(&holdem);
    let matches = std::fs::read_to_string(holdem.join("match.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(matches.as_bytes());
    let header = rows.headers().unwrap().clone();
    let row = rows.records().next().unwrap().unwrap();
    let llr: f64 = row[header.iter().position(|h| h == "llr").unwrap()].parse().unwrap();
    assert!(html.contains(&format!("Final LLR {llr:.3}")), "the page's final LLR is not match.csv's {llr}");
    assert!(html.contains("SPRT log-likelihood ratio") && html.contains("bb/100, seat 0"));

    // Mahjong: each bot's win, self-draw and deal-in rates, recounted from games.csv (a win in a
    // game where nobody dealt in was self-drawn).
    let mahjong = run_with_report(tmp.path(), "mahjong", MAHJONG_FIELD);
    let html = page(&mahjong);
    let mut games = csv::Reader::from_path(mahjong.join("games.csv")).unwrap();
    let header = games.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = games.records().map(Result::unwrap).collect();
    let mut by_game: std::collections::BTreeMap<(String, String), Vec<&csv::StringRecord>> = Default::default();
    for row in &rows {
        by_game.entry((row[col("pairing")].to_string(), row[col("game")].to_string())).or_default().push(row);
    }
    // Per bot: [hands, won, self-drawn, dealt in].
    let mut counts: std::collections::BTreeMap<String, [u32; 4]> = Default::default();
    let mut self_drawn_total = 0;
    for seats in by_game.values() {
        let discard_win = seats.iter().any(|r| &r[col("dealt_in")] == "1");
        for r in seats {
            let won = &r[col("won")] == "1";
            let c = counts.entry(r[col("bot")].to_string()).or_default();
            c[0] += 1;
            c[1] += u32::from(won);
            c[2] += u32::from(won && !discard_win);
            c[3] += u32::from(&r[col("dealt_in")] == "1");
            self_drawn_total += u32::from(won && !discard_win);
        }
    }
    assert!(self_drawn_total > 0, "no self-drawn win in the run: the check checks nothing");
    for (bot, [hands, won, drew, dealt]) in &counts {
        let rate = |n: u32| format!("{:.3}", f64::from(n) / f64::from(*hands));
        let row = format!(
            "<tr><td class=\"l\">{bot}</td><td>{hands}</td><td>{}</td><td>{}</td><td>{}</td>",
            rate(*won),
            rate(*drew),
            rate(*dealt)
        );
        assert!(html.contains(&row), "no row {row}");
    }

    // Several folders side by side, written where --out says.
    let both = tmp.path().join("both.html");
    let out = arena().arg("report").arg(&gomoku).arg(&holdem).arg("--out").arg(&both).output().unwrap();
    assert!(out.status.success());
    let html = std::fs::read_to_string(&both).unwrap();
    assert_eq!(html.matches("<section class=\"run\">").count(), 2);
    // Several folders and no --out: one clear line, exit 2.
    let out = arena().arg("report").arg(&gomoku).arg(&holdem).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out"));
}

/// Chromium, headless, with the flags this closed network needs (no background connections).
pub(crate) fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    path.exists().then_some(path)
}

pub(crate) fn headless(chromium: &Path, profile: &Path) -> Command {
    let mut c = Command::new(chromium);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    c.arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// The DOM of `url` as headless Chromium laid it out (`--dump-dom`), with `flags` before it;
/// Chromium must succeed. The output's stderr holds the browser's log.
pub(crate) fn dump_dom(chromium: &Path, profile: &Path, flags: &[&str], url: &str) -> std::process::Output {
    let dom = headless(chromium, profile).args(flags).arg("--dump-dom").arg(url).output().unwrap();
    assert!(dom.status.success(), "{url}: chromium failed: {}", String::from_utf8_lossy(&dom.stderr));
    dom
}

#[test]
fn reports_render_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no Chromium (install it with scripts/chromium-check.sh, or set CHROMIUM)");
        return;
    };
    let tmp = TempDir::new().unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    for (name, config, sections) in [
        ("gomoku", GOMOKU, &["Wins by colour", "Game length", "Pairwise results"][..]),
        ("holdem-sprt", HOLDEM_SPRT, &["SPRT log-likelihood ratio", "Pentanomial", "By seat"][..]),
        ("mahjong-field", MAHJONG_FIELD, &["Wins and deal-ins", "Fans of wins", "Per-deal payoff"][..]),
    ] {
        let dir = run_with_report(tmp.path(), name, config);
        let url = format!("file://{}", dir.join("report.html").display());
        // The DOM as the browser parsed it: every section there, every plot with a drawing.
        let dom = dump_dom(&chromium, &tmp.path().join(format!("profile-{name}-dom")), &[], &url);
        let dom_text = String::from_utf8_lossy(&dom.stdout);
        for section in sections.iter().chain(&["Bots", "Running mean payoff, 95% band", "Mean payoff, 95% intervals"]) {
            assert!(dom_text.contains(section), "{name}: no section {section} in the rendered page");
        }
        let plots = svgs(&dom_text);
        assert!(plots.len() >= 5, "{name}: only {} plots", plots.len());
        for svg in plots {
            assert!(marks(svg) > 5, "{name}: an empty plot in the rendered page");
        }
        // No console message at all (an error in the page would be one).
        let log = String::from_utf8_lossy(&dom.stderr);
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{name}: console output: {console:?}");
        let shot = shots.join(format!("{name}.png"));
        let _ = std::fs::remove_file(&shot);
        let out = headless(&chromium, &tmp.path().join(format!("profile-{name}-shot")))
            .arg("--window-size=1000,3600")
            .arg(format!("--screenshot={}", shot.display()))
            .arg(&url)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: screenshot failed");
        let png = std::fs::read(&shot).unwrap();
        assert!(png.starts_with(b"\x89PNG") && png.len() > 50_000, "{name}: screenshot of {} bytes", png.len());
        eprintln!("{name}: {}", shot.display());
    }
}

/// `arena report DIR --export` writes the tables the run itself exported (the page recomputes
/// them from games.csv with the run's own tallies), for a round robin with ratings and an SPRT
/// run that stopped early; JUnit and several folders are refused with one line and exit 2.
#[test]
fn report_exports_the_tables_the_run_exported() {
    let dir = TempDir::new().unwrap();
    for (name, text) in [("gomoku", GOMOKU), ("holdem", HOLDEM_SPRT)] {
        let config = write(dir.path(), &format!("{name}.toml"), text);
        let out = dir.path().join(name);
        let (ran, read) =
            (dir.path().join(format!("{name}-run.jsonl")), dir.path().join(format!("{name}-report.jsonl")));
        let run = arena()
            .args(["run", "-q", "--out"])
            .arg(&out)
            .arg(&config)
            .arg("--export")
            .arg(format!("jsonl:{}", ran.display()))
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let report =
            arena().arg("report").arg(&out).arg("--export").arg(format!("jsonl:{}", read.display())).output().unwrap();
        assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
        let (ran, read) = (std::fs::read_to_string(ran).unwrap(), std::fs::read_to_string(read).unwrap());
        assert!(ran.lines().any(|l| l.starts_with(r#"{"table":"match""#)), "{ran}");
        assert_eq!(ran, read, "{name}");
    }
    let out = dir.path().join("gomoku");
    for (args, refusal) in [
        (vec!["--export", "junit:x.xml"], "JUnit holds a gate's verdicts"),
        (vec!["--out", "both.html", "--export", "csv:x.csv"], "give one run folder"),
    ] {
        let mut command = arena();
        command.arg("report").arg(&out);
        if args[0] == "--out" {
            command.arg(&out);
        }
        let refused = command.args(&args).current_dir(dir.path()).output().unwrap();
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(refusal) && stderr.lines().count() == 1, "{stderr}");
        assert!(!dir.path().join("x.csv").exists() && !dir.path().join("x.xml").exists());
    }
    // A page or a table the user names where no file can be made: bad input naming that path,
    // not the temporary file beside it, and nothing left behind.
    let under_file = dir.path().join("gomoku.toml").join("page.html");
    let missing = dir.path().join("no/such/folder/x.csv");
    for (args, path, says) in [
        (vec!["--out".to_string(), under_file.display().to_string()], &under_file, "Not a directory"),
        (vec!["--export".to_string(), format!("csv:{}", missing.display())], &missing, "No such file"),
    ] {
        let refused = arena().arg("report").arg(&out).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(&format!("error: {}: ", path.display())) && stderr.contains(says), "{stderr}");
        assert!(!stderr.contains(&format!("{}.tmp", path.display())), "{stderr}");
    }
}
