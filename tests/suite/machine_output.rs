//! What machines and logs read: `--json` (its numbers are the CSVs'), `arena gate --junit` (XML a
//! parser accepts, failures included) and the progress lines written when stderr is not a
//! terminal.

use std::collections::HashMap;
use std::path::Path;
use std::process::Output;

use crate::common::{arena, write, GATE_MATCH};
use serde_json::Value;
use tempfile::TempDir;

/// Three bots in a small paired round robin: every CSV (summary, match, ratings) is written.
const ROUND_ROBIN: &str = r#"
game = "gomoku"
games = 40
seed = 2
paired = true
bots = ["weights", "random-adjacent", "random"]
[table]
size = 9
"#;

/// random-adjacent is far stronger than random on a small board: the SPRT stops early.
const SPRT_RUN: &str = r#"
game = "gomoku"
games = 100000
seed = 5
paired = true
bots = ["random-adjacent", "random"]
[table]
size = 9
opening = 2
[sprt]
elo0 = 0
elo1 = 40
model = "logistic"
"#;

fn ok(output: Output) -> Output {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

fn json_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document: {e}: {}", String::from_utf8_lossy(&output.stdout)))
}

fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| headers.iter().zip(r.unwrap().iter()).map(|(h, v)| (h.into(), v.into())).collect())
        .collect()
}

/// Every column of `row` has the same value in `object`: numbers within the CSV's six decimals,
/// `inf`/`-inf` as those strings, an empty cell as null, text as text. Returns the columns
/// compared.
fn same_row(row: &HashMap<String, String>, object: &Value, what: &str) -> usize {
    for (column, cell) in row {
        let value = object.get(column).unwrap_or_else(|| panic!("{what}: no `{column}` in {object}"));
        let agree = match (cell.as_str(), value) {
            ("", Value::Null) => true,
            ("inf" | "-inf", Value::String(s)) => s == cell,
            (_, Value::Number(n)) => {
                let (csv, json) = (cell.parse::<f64>().unwrap(), n.as_f64().unwrap());
                (csv - json).abs() <= 5.0000001e-7
            }
            (_, Value::String(s)) => s == cell,
            _ => false,
        };
        assert!(agree, "{what}: `{column}` is {cell} in the CSV and {value} in the JSON");
    }
    row.len()
}

/// Each CSV row against the JSON array's row at the same index.
fn same_rows(path: &Path, array: &Value) -> usize {
    let rows = csv_rows(path);
    let array = array.as_array().unwrap_or_else(|| panic!("not an array: {array}"));
    assert_eq!(rows.len(), array.len(), "{}: rows", path.display());
    rows.iter().zip(array).map(|(row, object)| same_row(row, object, &path.display().to_string())).sum()
}

#[test]
fn run_json_holds_the_csvs_numbers() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "rr.toml", ROUND_ROBIN);
    let out = dir.path().join("rr");
    let output = ok(arena().args(["run", "--json", "--out"]).arg(&out).arg(&config).output().unwrap());
    let doc = json_of(&output);
    // The text went to stderr, whole.
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(text.starts_with("rr: 120 games of gomoku (round-robin, 3 pairings, seed 2), paired"), "{text}");
    assert!(text.contains("rating list") && text.contains("results: "), "{text}");
    assert_eq!(doc["games_played"], 120);
    assert_eq!(doc["ended"], "complete");
    let compared = same_rows(&out.join("summary.csv"), &doc["bots"])
        + same_rows(&out.join("match.csv"), &doc["matches"])
        + same_rows(&out.join("ratings.csv"), &doc["ratings"]["rows"]);
    assert_eq!(compared, 3 * 15 + 3 * 32 + 3 * 11, "every column of every row");

    // An SPRT run: its match row carries the test's columns.
    let config = write(dir.path(), "sprt.toml", SPRT_RUN);
    let out = dir.path().join("sprt");
    let doc = json_of(&ok(arena().args(["run", "--json", "--out"]).arg(&out).arg(&config).output().unwrap()));
    assert_eq!(doc["ended"], "sprt");
    assert_eq!(doc["ratings"], Value::Null);
    assert_eq!(same_rows(&out.join("match.csv"), &doc["matches"]), 32 + 10);
    assert_eq!(doc["matches"][0]["decision"], "H1");

    // `arena stats --run` recomputes the same row from games.csv.
    let stats = ok(arena()
        .args(["stats", "--json", "--elo0", "0", "--elo1", "40", "--model", "logistic", "--run"])
        .arg(&out)
        .output()
        .unwrap());
    assert_eq!(same_rows(&out.join("match.csv"), &json_of(&stats)["matches"]), 32 + 10);
}

#[test]
fn stats_json_holds_the_texts_numbers() {
    let args = ["stats", "--penta", "12,60,140,75,13", "--elo0", "0", "--elo1", "5"];
    let text = String::from_utf8(ok(arena().args(args).output().unwrap()).stdout).unwrap();
    let doc = json_of(&ok(arena().args(args).arg("--json").output().unwrap()));
    assert_eq!(doc["counts"]["wl_dd"], 140);
    assert_eq!((doc["observations"].as_u64(), doc["games"].as_u64()), (Some(300), Some(600)));
    let f = |key: &str| doc[key].as_f64().unwrap();
    let s = |key: &str| doc["sprt"][key].as_f64().unwrap();
    let expected = [
        format!("score     {:.5} (95% interval [{:.5}, {:.5}])", f("score"), f("score_lo"), f("score_hi")),
        format!(
            "Elo       {:+.2} ± {:.2} (95% interval [{:+.2}, {:+.2}])",
            f("elo"),
            f("elo_err"),
            f("elo_lo"),
            f("elo_hi")
        ),
        format!("nElo      {:+.2} ± {:.2}", f("nelo"), f("nelo_err")),
        format!("LOS       {:.2} %", 100.0 * f("los")),
        format!("LLR       {:.6} (bounds {:.6}, {:+.6})", s("llr"), s("lower"), s("upper")),
    ];
    for line in expected {
        assert!(text.lines().any(|l| l == line), "`{line}` not in\n{text}");
    }
    assert_eq!(doc["sprt"]["decision"], "continue");
    assert_eq!(
        json_of(&ok(arena().args(["stats", "--tri", "1,2,3", "--json"]).output().unwrap()))["sprt"],
        Value::Null
    );
}

/// One expectation that passes and one that fails (with markup in its name), as the terminal,
/// JSON and JUnit XML show them.
#[test]
fn gate_json_and_junit_report_every_expectation() {
    let dir = TempDir::new().unwrap();
    write(dir.path(), "match.toml", GATE_MATCH);
    let gate = write(
        dir.path(),
        "gate.toml",
        concat!(
            "[[expect]]\nname = \"adjacent beats random\"\nconfig = \"match.toml\"\ngames = 400\nseed = 3\nwin_rate_lo = 0.5\nelo_lo = 0\n",
            "[[expect]]\nname = \"random <beats> 'adjacent' & \\\"more\\\"\"\nconfig = \"match.toml\"\ngames = 400\nseed = 3\nbot = \"random\"\nwin_rate_lo = 0.5\n",
        ),
    );
    let run = |extra: &[&str]| {
        let mut cmd = arena();
        cmd.args(["gate", "--out"]).arg(dir.path().join("out")).args(extra).arg(&gate);
        cmd.output().unwrap()
    };
    let plain = run(&[]);
    assert_eq!(plain.status.code(), Some(1));
    let lines: Vec<String> = String::from_utf8(plain.stdout).unwrap().lines().map(String::from).collect();
    // Each expectation's line, then the verdict on its two bots in a sentence, then the count.
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(
        lines[0].starts_with("PASS adjacent beats random (400 games): ") && lines[2].starts_with("FAIL random <beats>")
    );
    assert!(lines[1].starts_with("  random-adjacent is stronger than random: +"), "{lines:?}");

    let junit = dir.path().join("junit.xml");
    let output = run(&["--json", "--junit", junit.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    // The text went to stderr; stdout is the document.
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().collect::<Vec<_>>(), lines);
    let doc = json_of(&output);
    assert_eq!((doc["passed"].as_u64(), doc["failed"].as_u64()), (Some(1), Some(1)));
    let expectations = doc["expectations"].as_array().unwrap();
    for (e, pair) in expectations.iter().zip(lines.chunks(2)) {
        assert_eq!(e["line"].as_str(), Some(pair[0].as_str()));
        assert_eq!(e["verdict"].as_str(), Some(pair[1].trim_start()));
        assert_eq!(e["games"], 400);
    }
    let failing = &expectations[1]["checks"][0];
    assert_eq!(failing["criterion"], "win_rate_lo");
    assert_eq!(failing["pass"], false);
    assert!(failing["value"].as_f64().unwrap() < 0.5 && failing["bound"] == 0.5);
    let win_rate = csv_rows(&Path::new(&expectations[1]["results"].as_str().unwrap()).join("summary.csv"))
        .into_iter()
        .find(|r| r["bot"] == "random")
        .unwrap()["win_rate_lo"]
        .parse::<f64>()
        .unwrap();
    assert!((win_rate - failing["value"].as_f64().unwrap()).abs() <= 5.0000001e-7);

    // The JUnit XML parses; one test case per expectation, the failure's message the terminal's line.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let tree = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = tree.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!((root.attribute("tests"), root.attribute("failures")), (Some("2"), Some("1")));
    let suite = root.children().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!((suite.attribute("tests"), suite.attribute("failures")), (Some("2"), Some("1")));
    let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].attribute("name"), Some("adjacent beats random"));
    assert!(cases[0].children().all(|n| !n.has_tag_name("failure")), "a passing case has no failure");
    // Every case carries the terminal's lines as its output: its own and the verdict's sentence.
    for (case, pair) in cases.iter().zip(lines.chunks(2)) {
        let out = case.children().find(|n| n.has_tag_name("system-out")).unwrap();
        assert_eq!(out.text(), Some(format!("{}\n{}", pair[0], pair[1].trim_start()).as_str()));
    }
    assert_eq!(cases[1].attribute("name"), Some("random <beats> 'adjacent' & \"more\""));
    let failure = cases[1].children().find(|n| n.has_tag_name("failure")).unwrap();
    assert_eq!(failure.attribute("message"), Some(lines[2].as_str()));
    assert!(failure.text().unwrap().contains("FAIL win_rate_lo"), "{xml}");
    for case in cases {
        assert!(case.attribute("time").unwrap().parse::<f64>().unwrap() >= 0.0);
    }
}

/// A run long enough for a few lines at 0.05 s: rr against always-call, 2,500 to 14,000 games/s here.
fn progress_run(dir: &Path, every: &str, sprt: bool) -> (Vec<String>, Value) {
    let mut text = String::from("game = \"holdem\"\ngames = 6000\npaired = true\nbots = [\"rr\", \"always-call\"]\n");
    if sprt {
        // A payoff SPRT that cannot decide in 6,000 games: the LLR is shown all along.
        text.push_str("[sprt]\npayoff0 = 900\npayoff1 = 950\n");
    }
    let config = write(dir, &format!("progress-{every}-{sprt}.toml"), &text);
    let out = dir.join(format!("out-{every}-{sprt}"));
    let output = ok(arena()
        .args(["run", "--json", "--threads", "2", "--progress-every", every, "--out"])
        .arg(&out)
        .arg(&config)
        .output()
        .unwrap());
    (String::from_utf8(output.stderr.clone()).unwrap().lines().map(String::from).collect(), json_of(&output))
}

#[test]
fn progress_lines_when_stderr_is_not_a_terminal() {
    let dir = TempDir::new().unwrap();
    let (stderr, doc) = progress_run(dir.path(), "0.05", false);
    // The header comes first, before any game is played, then the progress lines.
    assert!(stderr[0].starts_with("progress-0.05-false: 6000 games of holdem"), "{stderr:?}");
    let progress: Vec<&String> = stderr.iter().filter(|l| l.starts_with("progress: ")).collect();
    assert!(progress.len() >= 2, "{stderr:?}");
    assert!(stderr[1].starts_with("progress: "), "{stderr:?}");
    let mut last = 0u64;
    for line in &progress {
        // `progress: 1,234/6,000 games[, 2,468 games/s, ETA 2s]`
        let done: u64 = line["progress: ".len()..].split('/').next().unwrap().replace(',', "").parse().unwrap();
        assert!(done >= last && done <= 6000, "{line}");
        last = done;
        assert!(line.contains("/6,000 games"), "{line}");
        if line.contains("games/s") {
            assert!(line.contains(", ETA ") || done == 6000, "{line}");
            assert!(!line.contains("≤"), "no SPRT, so the ETA is not a bound: {line}");
        }
    }
    assert!(progress.iter().any(|l| l.contains(" games/s, ETA ")), "the rate becomes known: {progress:?}");
    assert_eq!(doc["games_played"], 6000);

    let (stderr, _) = progress_run(dir.path(), "0", false);
    assert!(!stderr.iter().any(|l| l.starts_with("progress: ")), "--progress-every 0: {stderr:?}");

    let (stderr, doc) = progress_run(dir.path(), "0.05", true);
    // The header and every progress line name the test: its model and the unit of its bounds,
    // the unit of the hold'em verdict (bb/100).
    assert!(stderr[0].contains(": at most 6000 games of holdem"), "{stderr:?}");
    assert!(stderr[0].ends_with("; SPRT payoff [900, 950] bb/100"), "{stderr:?}");
    let m = &doc["matches"][0];
    assert_eq!(
        (&m["decision"], &m["model"], &m["unit"], &m["h1"]),
        (
            &serde_json::json!("continue"),
            &serde_json::json!("payoff"),
            &serde_json::json!("bb/100"),
            &serde_json::json!(950.0)
        )
    );
    let known: Vec<&String> = stderr.iter().filter(|l| l.contains("games/s")).collect();
    assert!(!known.is_empty(), "{stderr:?}");
    for line in known {
        assert!(
            line.contains(", SPRT payoff [900, 950] bb/100: LLR ")
                && (line.contains(", ETA ≤ ") || line.starts_with("progress: 6,000/")),
            "{line}"
        );
    }
}

/// The text line that starts with `label`, with the label cut off.
fn line_after<'a>(text: &'a str, label: &str) -> &'a str {
    let line = text.lines().find_map(|l| l.strip_prefix(label));
    line.unwrap_or_else(|| panic!("no `{label}` line in:\n{text}")).trim()
}

/// Every adviser answers in JSON with the figures its text shows (rounded as the text rounds them).
#[test]
fn every_adviser_answers_in_json_with_the_texts_figures() {
    let both = |args: &[&str]| {
        let text = String::from_utf8(ok(arena().args(args).output().unwrap()).stdout).unwrap();
        let json = json_of(&ok(arena().args(args).arg("--json").output().unwrap()));
        (text, json)
    };

    let (text, json) = both(&["advise", "holdem", "--hole", "AhAs", "--vs", "KdKc", "--pot", "100", "--to-call", "50"]);
    let equity = format!(
        "equity {:.4} % (win {:.4} %, tie {:.4} %)",
        100.0 * json["equity"].as_f64().unwrap(),
        100.0 * json["win"].as_f64().unwrap(),
        100.0 * json["tie"].as_f64().unwrap()
    );
    assert!(text.contains(&equity), "{equity}\n{text}");
    assert_eq!(json["against"]["boards"], 1_712_304);
    let rr = &json["rate_of_return"];
    assert!(text.contains(&format!("RR = equity / pot odds = {:.3}", rr["rr"].as_f64().unwrap())), "{text}");
    assert!(text.contains(&format!(
        "fold {} %, call {} %, raise {} %",
        rr["percent"]["fold"], rr["percent"]["call"], rr["percent"]["raise"]
    )));
    assert_eq!(json["hand_now"], line_after(&text, "hand now:"));

    let (text, json) = both(&["advise", "zhajinhua", "--hand", "AS AH KD", "--opponents", "2"]);
    assert!(
        line_after(&text, "win:").starts_with(&format!("{:.2}%", 100.0 * json["win"]["p"].as_f64().unwrap())),
        "{text}"
    );
    assert!(line_after(&text, "strength:").starts_with(&json["strength"].to_string()), "{text}");
    assert!(line_after(&text, "category:").starts_with(json["category"].as_str().unwrap()), "{text}");

    let (text, json) = both(&["advise", "stud", "--me", "9S 9D KC", "--opponent", "XX AH 4C"]);
    let win = format!("{:.4} (exact, {} outcomes)", json["win"].as_f64().unwrap(), json["outcomes"]);
    assert_eq!(line_after(&text, "win probability:"), win);
    assert_eq!(line_after(&text, "advice:"), json["advice"]);

    let (text, json) =
        both(&["advise", "mahjong", "--hand", "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C", "--seat-wind", "S"]);
    assert_eq!(line_after(&text, "total:"), format!("{} (8-fan minimum met)", json["total"]));
    let fans = json["fans"].as_array().unwrap();
    assert_eq!(fans.len(), text.lines().filter(|l| l.starts_with("  ")).count());
    for fan in fans {
        let shown =
            format!("{:<36} {:>2} x{}", fan["fan"].as_str().unwrap(), fan["points"].as_u64().unwrap(), fan["count"]);
        assert!(text.contains(&shown), "{shown}\n{text}");
    }
    let (text, json) = both(&["advise", "mahjong", "--hand", "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C F"]);
    let discards = json["discards"].as_array().unwrap();
    assert_eq!(discards.len(), text.lines().filter(|l| l.starts_with("  ")).count());
    assert_eq!(discards[0]["discard"], "F");

    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mcr_fans_sample.jsonl");
    let (text, json) = both(&["advise", "mahjong", "--batch", vectors.to_str().unwrap()]);
    let hands = json.as_array().unwrap();
    assert_eq!(hands.len(), text.lines().count());
    for (hand, line) in hands.iter().zip(text.lines()) {
        assert!(line.starts_with(&format!("{},{},", hand["id"].as_str().unwrap(), hand["total"])), "{line}");
    }
}

/// Every adviser takes `--explain`: its answer gains an `explain:` section that says how the
/// figures are formed, the figures themselves unchanged.
#[test]
fn every_adviser_explains_how_its_figures_are_formed() {
    let advisers: &[(&str, &[&str])] = &[
        (
            "holdem",
            &[
                "--hole",
                "AD 2D",
                "--board",
                "QC KC 2C",
                "--opponents",
                "2",
                "--pot",
                "500",
                "--to-call",
                "100",
                "--stack",
                "100",
            ],
        ),
        ("stud", &["--me", "9S 9D KC", "--opponent", "XX AH 4C"]),
        ("zhajinhua", &["--hand", "AS AH KD", "--opponents", "2", "--pot", "6", "--round", "2"]),
        ("gomoku", &["--moves", "7,7 8,8 6,7 9,9 8,7"]),
        ("mahjong", &["--hand", "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C F"]),
    ];
    let help = String::from_utf8(arena().args(["advise", "--help"]).output().unwrap().stdout).unwrap();
    let listed: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .collect();
    assert_eq!(listed, advisers.iter().map(|(name, _)| *name).collect::<Vec<_>>(), "an adviser is not checked here");
    for (name, args) in advisers {
        let answer = |explain: bool| {
            let mut command = arena();
            command.args(["advise", name]).args(*args);
            if explain {
                command.arg("--explain");
            }
            String::from_utf8(ok(command.output().unwrap()).stdout).unwrap()
        };
        let (plain, explained) = (answer(false), answer(true));
        assert!(!plain.contains("explain:"), "{name}: {plain}");
        let (figures, explanation) = explained.split_once("explain:").unwrap_or_else(|| panic!("{name}: {explained}"));
        assert!(explanation.lines().filter(|l| l.starts_with("  ")).count() >= 2, "{name}: {explanation}");
        // The explanation is added to the answer, which stays as it was (the bot's lines of
        // hold'em and zhajinhua come after the hand's, so compare line by line).
        for line in figures.lines().filter(|l| !l.is_empty()) {
            assert!(plain.contains(line), "{name}: `{line}` is not in the plain answer:\n{plain}");
        }
    }
}

/// `arena advise gomoku`: every cell row of the text is a cell of the JSON with the same scores
/// and mark, and so are the best scores, the winning cells and the explanation's terms.
#[test]
fn gomoku_adviser_answers_in_json_with_the_texts_figures() {
    // White's open four on column 7 against black's three on row 10: black must block, and could
    // not win at once.
    let args = ["advise", "gomoku", "--moves", "3,10 7,5 4,10 7,6 5,10 7,7 0,0 7,8", "--top", "6", "--explain"];
    let text = String::from_utf8(ok(arena().args(args).output().unwrap()).stdout).unwrap();
    let json = json_of(&ok(arena().args(args).arg("--json").output().unwrap()));
    assert_eq!(json["to_move"], "black");
    assert!(text.contains(&format!("best attack {}, best defence {}", json["best_attack"], json["best_defence"])));
    assert!(line_after(&text, "best attack")
        .contains(&format!("the bot plays the best {}", json["plays"].as_str().unwrap())));
    let cells = json["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.trim_start().starts_with("cell ")).skip(1).take(6).collect();
    let tied = json["bot_cells"].as_array().unwrap().len();
    for (cell, row) in cells.iter().zip(&rows) {
        let mark = match (cell["bot"].as_bool().unwrap(), tied) {
            (false, _) => "",
            (true, 1) => "  <- the bot plays this",
            (true, _) => "  <- tied best",
        };
        let shown = format!(
            "{:>6}  {:>7}  {:>7}{mark}",
            cell["cell"].as_str().unwrap(),
            cell["attack"].as_i64().unwrap(),
            cell["defence"].as_i64().unwrap()
        );
        assert_eq!(*row, shown, "\n{text}");
    }
    assert_eq!(json["bot_cells"], serde_json::json!(["7,4", "7,9"]));
    assert!(text.contains("the bot plays one of the 2 tied best cells, at random\n"), "{text}");
    assert_eq!(json["wins_at"], serde_json::json!([]));
    assert!(!text.contains("makes five at"), "{text}");
    // The explanation of the top cell: one text line a term, and the terms add up to its scores.
    let explain = &json["explain"];
    assert_eq!(explain["cell"], cells[0]["cell"]);
    for (score, weight) in [("attack", "own"), ("defence", "opp")] {
        let terms = explain[score]["terms"].as_array().unwrap();
        let points: i64 = terms.iter().map(|t| t["points"].as_i64().unwrap()).sum();
        assert_eq!(points, cells[0][score].as_i64().unwrap());
        assert_eq!(explain[score]["score"], cells[0][score]);
        let side = explain[score]["side"].as_str().unwrap();
        for t in terms {
            let (stones, lines) = (t["stones"].as_u64().unwrap(), t["lines"].as_array().unwrap());
            let line = format!(" x {weight}[{stones}] {} = {}", t["weight"], t["points"]);
            let found = text
                .lines()
                .find(|l| l.contains(&line) && l.trim_start().starts_with(&format!("{stones} {side} stone")));
            let found = found.unwrap_or_else(|| panic!("`{line}` not in\n{text}"));
            assert!(found.contains(&format!(" {:>2} line", lines.len())), "{found}");
            if stones >= 2 {
                let named: Vec<&str> = lines.iter().map(|l| l.as_str().unwrap()).collect();
                assert!(found.ends_with(&format!(": {}", named.join(" "))), "{found}");
            }
        }
    }
    // A win in one is listed in both.
    let args = ["advise", "gomoku", "--size", "9", "--moves", "0,4 8,0 1,4 8,2 2,4 8,8 3,4 6,8"];
    let text = String::from_utf8(ok(arena().args(args).output().unwrap()).stdout).unwrap();
    let json = json_of(&ok(arena().args(args).arg("--json").output().unwrap()));
    assert_eq!(json["wins_at"], serde_json::json!(["4,4"]));
    assert_eq!(line_after(&text, "black makes five at"), "4,4");
}

/// With `--json`, every command that takes it leaves stdout one JSON document and its text on
/// stderr, whatever the run came to: a run, its resume when nothing is left (which printed its
/// text on stdout before the one printer), its extension, its status and its statistics.
#[test]
fn every_json_flag_leaves_stdout_one_document() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "rr.toml", ROUND_ROBIN);
    let out = dir.path().join("rr");
    let folder = out.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["run", "--games", "4", "--out", folder, config.to_str().unwrap()],
        &["resume", folder],
        &["resume", folder, "--games", "6"],
        &["status", folder],
        &["stats", "--run", folder],
        &["stats", "--tri", "1,2,3", "--elo0", "0", "--elo1", "5"],
    ];
    for args in commands {
        let output = ok(arena().args(args).arg("--json").output().unwrap());
        let doc = json_of(&output);
        assert!(doc.is_object(), "{args:?}: {doc}");
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(!text.trim().is_empty(), "{args:?}: the text goes to stderr");
    }
    let whole = json_of(&ok(arena().args(["resume", folder, "--json"]).output().unwrap()));
    assert_eq!(whole["ended"], "nothing to resume");
    assert_eq!(whole["games_played"], 18);
}
