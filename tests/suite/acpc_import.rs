//! `arena import acpc`: logs written by the official ACPC dealer (tests/data/acpc/: the first 60
//! hands of a duplicate pair and of a 3-player match, their SCORE lines recomputed as the dealer
//! adds them up) turned into run folders, their totals held to the dealer's, and bad logs refused
//! in one line that names the line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::common::arena;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/acpc").join(name)
}

/// Runs `arena import acpc FILES --out OUT`: (exit code, stdout, stderr).
fn import(files: &[PathBuf], out: &Path, more: &[&str]) -> (i32, String, String) {
    let output = arena().args(["import", "acpc"]).args(files).arg("--out").arg(out).args(more).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

/// games.csv's rows: (pairing, game, seed, seat, bot, payoff).
fn rows(dir: &Path) -> Vec<(u64, u64, String, usize, String, f64)> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].to_string(),
                f[3].parse().unwrap(),
                f[4].to_string(),
                f[5].parse().unwrap(),
            )
        })
        .collect()
}

/// Each bot's payoffs in games.csv added up (big blinds).
fn totals(dir: &Path) -> HashMap<String, f64> {
    let mut totals = HashMap::new();
    for (_, _, _, _, bot, payoff) in rows(dir) {
        *totals.entry(bot).or_insert(0.0) += payoff;
    }
    totals
}

/// A log's SCORE line: chips by name.
fn score(log: &str) -> HashMap<String, f64> {
    let line = log.lines().rfind(|l| l.starts_with("SCORE:")).unwrap();
    let mut parts = line["SCORE:".len()..].split(':');
    let (chips, names) = (parts.next().unwrap(), parts.next().unwrap());
    names.split('|').map(String::from).zip(chips.split('|').map(|c| c.parse().unwrap())).collect()
}

/// summary.csv's `ci_unit` column, one a bot.
fn ci_units(dir: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let column = reader.headers().unwrap().iter().position(|h| h == "ci_unit").unwrap();
    reader.records().map(|r| r.unwrap()[column].to_string()).collect()
}

/// Every PHH file of history/ is TOML whose chips moved as games.csv says: finishing minus
/// starting stack is the seat's payoff in chips (100 a big blind), `_arena_seats` naming the seat
/// of each PHH player. Returns the number of files.
fn check_histories(dir: &Path) -> usize {
    let payoffs: HashMap<(u64, u64, usize), f64> =
        rows(dir).into_iter().map(|(p, g, _, seat, _, payoff)| ((p, g, seat), payoff)).collect();
    let mut files = 0;
    for entry in std::fs::read_dir(dir.join("history")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let phh: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(phh["variant"].as_str(), Some("NT"), "{}", path.display());
        assert!(!phh["actions"].as_array().unwrap().is_empty());
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let (p, g) = stem.split_once('-').unwrap();
        let (p, g): (u64, u64) = (p.parse().unwrap(), g.parse().unwrap());
        let ints =
            |key: &str| -> Vec<i64> { phh[key].as_array().unwrap().iter().map(|v| v.as_integer().unwrap()).collect() };
        let (start, finish, seats) = (ints("starting_stacks"), ints("finishing_stacks"), ints("_arena_seats"));
        assert!(start.iter().all(|&s| s == 20_000), "{}", path.display());
        for (i, &seat) in seats.iter().enumerate() {
            let payoff = payoffs[&(p, g, seat as usize)];
            assert!(((finish[i] - start[i]) as f64 - payoff * 100.0).abs() < 1e-6, "{} seat {seat}", path.display());
        }
        files += 1;
    }
    files
}

/// `arena report` reads the folder as a run's and writes report.html.
fn reports(out: &Path) {
    let report = arena().arg("report").arg(out).output().unwrap();
    assert_eq!(report.status.code(), Some(0), "{}", String::from_utf8_lossy(&report.stderr));
    assert!(out.join("report.html").exists());
}

#[test]
fn a_duplicate_pair_is_one_paired_run_whose_totals_are_the_dealers() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("dup");
    let (code, stdout, stderr) = import(&[data("dupA.log"), data("dupB.log")], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("placed as a duplicate match"), "{stdout}");
    assert!(stdout.contains("95% interval, 60 deals)"), "the verdict counts the pairs as deals: {stdout}");
    // Each player's chips: the SCORE lines of both logs added.
    let (a, b) = (
        score(&std::fs::read_to_string(data("dupA.log")).unwrap()),
        score(&std::fs::read_to_string(data("dupB.log")).unwrap()),
    );
    let totals = totals(&out);
    for name in ["Alice", "Bob"] {
        let chips = a[name] + b[name];
        assert!((totals[name] * 100.0 - chips).abs() < 1e-6, "{name}: {} bb against {chips} chips", totals[name]);
    }
    // Both games of a deal share its seed, and sit the players the other way round.
    let rows = rows(&out);
    assert_eq!(rows.len(), 2 * 120);
    let mut deals: HashMap<u64, Vec<(String, usize, String)>> = HashMap::new();
    for (p, g, seed, seat, bot, _) in &rows {
        assert_eq!(*p, 0);
        deals.entry(g / 2).or_default().push((seed.clone(), *seat, bot.clone()));
    }
    assert_eq!(deals.len(), 60);
    for (deal, seats) in &deals {
        assert!(seats.iter().all(|s| s.0 == seats[0].0), "deal {deal}: {seats:?}");
        let seat0: Vec<&str> = seats.iter().filter(|s| s.1 == 0).map(|s| s.2.as_str()).collect();
        assert_eq!(seat0.len(), 2, "deal {deal}");
        assert_ne!(seat0[0], seat0[1], "deal {deal}: each player holds seat 0 once");
    }
    assert_eq!(ci_units(&out), ["deal", "deal"], "the summary's intervals are over deals");
    let config = std::fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(config.contains("paired = true") && config.contains("seed = 42"), "{config}");
    assert_eq!(check_histories(&out), 120);
    reports(&out);
}

#[test]
fn a_single_log_is_one_pairing_a_seat_order_not_paired() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("3p");
    let log = std::fs::read_to_string(data("ep3p.log")).unwrap();
    let (code, stdout, stderr) = import(&[data("ep3p.log")], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("not paired"), "{stdout}");
    assert!(stdout.contains(log.lines().last().unwrap()), "the dealer's SCORE line is shown: {stdout}");
    // A split pot's half chip (7661.5) is whole under our rules: the totals may differ from the
    // dealer's by half a chip a split.
    let halves = log.lines().filter(|l| l.starts_with("STATE:") && l.contains(".5|")).count() as f64;
    assert!(halves >= 1.0, "the sample holds a split pot's half chip");
    let totals = totals(&out);
    for (name, chips) in score(&log) {
        assert!(
            (totals[&name] * 100.0 - chips).abs() <= 0.5 * halves + 1e-6,
            "{name}: {} bb, {chips} chips",
            totals[&name]
        );
    }
    assert!(totals.values().sum::<f64>().abs() < 1e-6);
    let config = std::fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(config.contains("paired = false") && config.contains("schedule = \"rotations\""), "{config}");
    // Three seat orders, 20 hands each, every player in each seat once an order.
    let rows = rows(&out);
    for p in 0..3u64 {
        assert_eq!(rows.iter().filter(|r| r.0 == p).count(), 20 * 3);
    }
    assert!(ci_units(&out).iter().all(|u| u == "game"));
    assert_eq!(check_histories(&out), 60);
    reports(&out);
}

#[test]
fn a_heads_up_log_adds_up_to_its_score_line_exactly() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("a");
    let (code, _, stderr) = import(&[data("dupA.log")], &out, &["--records", "gz", "--no-hand-history"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.join("games.csv.gz").exists() && !out.join("history").exists());
    let score = score(&std::fs::read_to_string(data("dupA.log")).unwrap());
    let text = String::from_utf8(crate::common::gunzipped(&out.join("games.csv.gz"))).unwrap();
    let mut totals: HashMap<&str, f64> = HashMap::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        *totals.entry(f[4]).or_insert(0.0) += f[5].parse::<f64>().unwrap();
    }
    for (name, chips) in &score {
        assert!((totals[name.as_str()] * 100.0 - chips).abs() < 1e-6, "{name}");
    }
}

/// `log` with its SCORE line made anew from its hands, as the dealer adds them up.
fn rescored(log: &str) -> String {
    let mut sums: HashMap<String, f64> = HashMap::new();
    let mut out = String::new();
    let mut names = Vec::new();
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("SCORE:") {
            names = rest.split(':').nth(1).unwrap().split('|').map(String::from).collect();
            continue;
        }
        if line.starts_with("STATE:") {
            let f: Vec<&str> = line.rsplitn(3, ':').collect();
            for (who, chips) in f[0].split('|').zip(f[1].split('|')) {
                *sums.entry(who.to_string()).or_insert(0.0) += chips.parse::<f64>().unwrap();
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    let chips: Vec<String> = names.iter().map(|n| sums[n].to_string()).collect();
    out.push_str(&format!("SCORE:{}:{}\n", chips.join("|"), names.join("|")));
    out
}

/// Imports `log` written to a file: it must be refused with exit 2 and one line naming `at`.
fn refused(log: &str, at: &str, says: &str) {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("bad.log");
    std::fs::write(&path, log).unwrap();
    let (code, stdout, stderr) = import(&[path], &dir.path().join("out"), &[]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: ") && stderr.contains(&format!("bad.log:{at}: ")), "{stderr}");
    assert!(stderr.contains(says), "{stderr}");
    assert!(!dir.path().join("out").join("games.csv").exists());
}

#[test]
fn bad_logs_are_refused_naming_the_line() {
    let good = std::fs::read_to_string(data("dupA.log")).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    // Line 7 (hand 2): `STATE:2:...:<cards>:<chips>:<names>`.
    let line = lines[6];
    assert!(line.starts_with("STATE:2:"), "{line}");
    let with = |new: &str| {
        let mut l = lines.clone();
        l[6] = new;
        l.join("\n") + "\n"
    };
    // A card dealt twice: the first hole card again as the second position's.
    let fields: Vec<&str> = line.split(':').collect();
    let cards = fields[3];
    let with_cards = |new: &str| {
        let mut f = fields.clone();
        f[3] = new;
        f.join(":")
    };
    let twice = format!("{}|{}{}", &cards[..4], &cards[..2], &cards[7..]);
    refused(&with(&with_cards(&twice)), "7", "dealt twice");
    // A card that is no card.
    refused(&with(&with_cards(&format!("Xx{}", &cards[2..]))), "7", "not a card");
    // Chips that our rules do not give (the SCORE line made to agree with them).
    let chips = fields[4];
    let (x, y) = chips.split_once('|').unwrap();
    let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
    let moved = line.replacen(&format!(":{chips}:"), &format!(":{}|{}:", x + 100.0, y - 100.0), 1);
    refused(&rescored(&with(&moved)), "7", "under our rules");
    // A SCORE line that is not the sum of the hands.
    let last = lines.len();
    let mut off = lines.clone();
    let score_line = off[last - 1].replacen("SCORE:", "SCORE:1", 1);
    off[last - 1] = &score_line;
    refused(&(off.join("\n") + "\n"), &last.to_string(), "the hands add up to");
    // No SCORE line: the match did not finish.
    refused(&(lines[..last - 1].join("\n") + "\n"), &(last - 1).to_string(), "without a SCORE line");
}

#[test]
fn a_duplicate_of_other_cards_is_refused() {
    let dir = TempDir::new().unwrap();
    let a = std::fs::read_to_string(data("dupA.log")).unwrap();
    // dupB's header (seed 42) on hands whose cards are dupA's after the first: hand 0 of dupB
    // now shows hand 1's cards.
    let b = std::fs::read_to_string(data("dupB.log")).unwrap();
    let mut lines: Vec<String> = b.lines().map(String::from).collect();
    let a1 = a.lines().find(|l| l.starts_with("STATE:1:")).unwrap();
    let b0 = lines.iter().position(|l| l.starts_with("STATE:0:")).unwrap();
    lines[b0] = a1.replacen("STATE:1:", "STATE:0:", 1);
    let path = dir.path().join("dupB.log");
    std::fs::write(&path, rescored(&(lines.join("\n") + "\n"))).unwrap();
    let (code, _, stderr) = import(&[data("dupA.log"), path], &dir.path().join("out"), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("dupB.log:{}: ", b0 + 1)) && stderr.contains("not a duplicate"), "{stderr}");
}

#[test]
fn import_refuses_move_records_and_unknown_formats() {
    let dir = TempDir::new().unwrap();
    let (code, _, stderr) = import(&[data("dupA.log")], &dir.path().join("m"), &["--records", "moves"]);
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    let output = arena().args(["import", "pokerstars"]).arg(data("dupA.log")).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("unknown import format") && stderr.contains("acpc"), "{stderr}");
}
