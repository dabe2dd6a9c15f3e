//! Generated inputs for every parser and command-line entry point: configs, rosters, gate files,
//! card and tile strings, `advise mahjong --batch` files, `stats` counts and flags and run
//! folders, openings files, Gomocup brain sessions and `--param`, and the external protocol's
//! action texts. Most inputs are near-valid: the project's own configs, rosters and data files
//! with a few lines deleted, duplicated, cut or given a hostile value. The promise checked is
//! the README's: exit code 0, or one line on stderr and exit code 2 (for a config, its errors a
//! line each under one that counts them; for a run whose outside bot could not run, exit code 5:
//! the one error line naming the bot, then its log's last lines, indented); never a panic.
//!
//! The property tests run in-process (through `cli::execute`, which returns the refusal that
//! `arena` prints) with a bounded number of cases; those that need a real process (stdin,
//! `--param`) run the binary. `campaign` (ignored) is the acceptance campaign: tens of thousands
//! of fresh cases from another seed, each a process of the release binary under `timeout` and
//! `ulimit -v`:
//!
//! ```sh
//! CAMPAIGN_CASES=30000 CAMPAIGN_SEED=2026 cargo test --release --test suite fuzz_inputs::campaign -- --ignored --nocapture
//! ```

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use bot_arena::cards::{parse_cards, parse_cards_or_hidden};
use bot_arena::config::{Overrides, RunConfig, Source};
use bot_arena::core::roster::Roster;
use bot_arena::core::GameDef;
use bot_arena::core::{Params, Wire};
use bot_arena::games::gomoku::brain::{Brain, BrainBot};
use bot_arena::games::gomoku::{openings, Book, Gomoku, Rule};
use bot_arena::games::mahjong::tiles::{parse_tile, Hand};
use bot_arena::Arena;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

// ---------------------------------------------------------------------------------------------
// The material: the project's own files, and values a hostile or careless user would write.

/// Every `.toml` directly in `dir` (relative to the repository), as (file name, text).
fn files_in(dir: &str, ext: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(Path::new(REPO).join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    files.sort();
    files
}

fn configs() -> &'static [(String, String)] {
    static CONFIGS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    CONFIGS.get_or_init(|| [files_in("configs", "toml"), files_in("configs/gate", "toml")].concat())
}

fn rosters() -> &'static [(String, String)] {
    static ROSTERS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    ROSTERS.get_or_init(|| files_in("bots", "toml"))
}

/// The rosters as a run in a process reads them: hold'em's `acpc-port` waits a minute for an
/// agent to connect (`start_ms = 60000`), and none ever does here, so a case that picked it took a
/// minute and the cases of a run 12 minutes (the picks are proptest's, new every run). Waiting
/// 300 ms then stopping the run (a bot that could not run) is the same path, sooner.
fn process_rosters() -> &'static [(String, String)] {
    static ROSTERS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    ROSTERS.get_or_init(|| {
        let rosters =
            rosters().iter().map(|(name, text)| (name.clone(), text.replace("start_ms = 60000", "start_ms = 300")));
        let rosters: Vec<(String, String)> = rosters.collect();
        // A roster that waits on a port some other way would bring the minutes back: say so.
        for (name, text) in &rosters {
            assert!(!text.contains("port =") || text.contains("start_ms = 300"), "bots/{name}: a port's wait to cut");
        }
        rosters
    })
}

fn gates() -> &'static [(String, String)] {
    static GATES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    GATES.get_or_init(|| files_in("configs", "toml").into_iter().filter(|(_, t)| t.contains("[[expect]]")).collect())
}

fn repo_text(path: &str) -> String {
    std::fs::read_to_string(Path::new(REPO).join(path)).unwrap()
}

/// TOML values that have broken, or could break, a parser or a limit.
const HOSTILE_VALUES: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "7",
    "65",
    "100001",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "1e308",
    "-1e308",
    "1e-308",
    "0.5",
    "-0.0",
    "true",
    "false",
    "\"\"",
    "\"x\"",
    "\"../../escaped\"",
    "\"/tmp/escaped\"",
    "\"a\\nb\"",
    "\"=1+1\"",
    "\"é♠\"",
    "\"\\u001b[31m\"",
    "[]",
    "[1, 2]",
    "[nan]",
    "[1, 9000000000000000000]",
    "[[1]]",
    "{}",
    "{ kind = \"random\" }",
    "\"random\"",
    "\"weights\"",
    "\"pruned\"",
    "\"rr\"",
    "\"holdem\"",
    "\"gomoku\"",
    "\"mahjong\"",
    "\"stud\"",
    "\"zhajinhua\"",
    "\"logistic\"",
    "\"payoff\"",
    "\"round-robin\"",
    "\"gauntlet\"",
    "\"renju\"",
    "\"sng\"",
    "1979-05-27",
    "'''x'''",
];

/// Whole lines to insert.
const HOSTILE_LINES: &[&str] = &[
    "[table]",
    "[sprt]",
    "[[expect]]",
    "[bots]",
    "games = 0",
    "games = 1000000000000",
    "seats = 10",
    "seats = 0",
    "paired = true",
    "schedule = \"round-robin\"",
    "schedule = \"gauntlet\"",
    "anchor = \"nobody\"",
    "bots = []",
    "bots = [\"random\", \"random\", \"random\", \"random\", \"random\", \"random\"]",
    "elo0 = 0",
    "elo1 = nan",
    "model = \"payoff\"",
    "payoff0 = 0",
    "payoff1 = 1e308",
    "name = \"\"",
    "stack = 100000",
    "kind = \"external\"",
    "params = { depth = 99 }",
    "params = { nope = 1 }",
    "about = 3",
    "config = \"/dev/zero\"",
    "config = \"/\"",
    "baseline = \"nowhere.csv\"",
    "bot = \"nobody\"",
    "win_rate_lo = -inf",
    "tolerance = nan",
    "sprt = { elo0 = 0 }",
    "openings = \"/dev/null\"",
    "opening = 300",
    "size = 1",
    "size = 100",
    "rule = \"standard\"",
    "= 1",
    "x",
    "\"",
    "[",
    "]]",
    "a.b.c = 1",
    "\u{0}",
    "é = 1",
];

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    DeleteLine(Index),
    DuplicateLine(Index),
    /// The value after a line's `=` replaced.
    ReplaceValue(Index, &'static str),
    InsertLine(Index, &'static str),
    /// Cut the text at a byte (on a character boundary at or before it).
    Cut(Index),
    /// A byte replaced (the text then read as lossy UTF-8).
    Byte(Index, u8),
    SwapLines(Index, Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => any::<Index>().prop_map(Edit::DeleteLine),
        1 => any::<Index>().prop_map(Edit::DuplicateLine),
        4 => (any::<Index>(), select(HOSTILE_VALUES)).prop_map(|(i, v)| Edit::ReplaceValue(i, v)),
        2 => (any::<Index>(), select(HOSTILE_LINES)).prop_map(|(i, l)| Edit::InsertLine(i, l)),
        1 => any::<Index>().prop_map(Edit::Cut),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Byte(i, b)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

/// `text` with `edits` applied in turn.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for e in edits {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.is_empty() {
            lines.push(String::new());
        }
        let n = lines.len();
        match e {
            Edit::DeleteLine(i) => {
                lines.remove(i.index(n));
            }
            Edit::DuplicateLine(i) => {
                let line = lines[i.index(n)].clone();
                lines.insert(i.index(n), line);
            }
            Edit::ReplaceValue(i, v) => {
                // The i-th line holding `=`, else any line.
                let with: Vec<usize> = (0..n).filter(|&k| lines[k].contains('=')).collect();
                let k = if with.is_empty() { i.index(n) } else { with[i.index(with.len())] };
                let key = lines[k].split('=').next().unwrap_or("").to_string();
                lines[k] = format!("{key}= {v}");
            }
            Edit::InsertLine(i, l) => lines.insert(i.index(n + 1), l.to_string()),
            Edit::Cut(i) => {
                let mut at = i.index(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.truncate(at);
                continue;
            }
            Edit::Byte(i, b) => {
                let mut bytes = text.into_bytes();
                if !bytes.is_empty() {
                    let at = i.index(bytes.len());
                    bytes[at] = *b;
                }
                text = String::from_utf8_lossy(&bytes).into_owned();
                continue;
            }
            Edit::SwapLines(a, b) => lines.swap(a.index(n), b.index(n)),
        }
        text = lines.join("\n");
        text.push('\n');
    }
    text
}

/// One of `files`, mutated by one to four edits.
fn mutated(files: &'static [(String, String)]) -> impl Strategy<Value = (String, String)> {
    (select(files), prop::collection::vec(edit(), 1..5))
        .prop_map(|((name, text), edits)| (name.clone(), mutate(&text, &edits)))
}

/// Words that make card strings: every notation of a few cards, the hidden card, and junk.
const CARD_WORDS: &[&str] = &[
    "Ah", "AH", "As", "Kd", "KD", "Qc", "Js", "Td", "TD", "10d", "10D", "9h", "2c", "2C", "HA", "SA", "D10", "SK",
    "A♠", "K♠", "Q♥", "J♦", "T♣", "10♣", "XX", "xx", "X", "A", "10", "1", "0", "11", "Z", "é", "♠", "A♠K♠", "AhAh",
    "AsKsQs", ",", "", "-", "\u{0}", "🂡", "a", "h",
];

/// Words that make mahjong hands.
const TILE_WORDS: &[&str] = &[
    "1m",
    "2m",
    "3m",
    "4m",
    "5m",
    "6m",
    "7m",
    "8m",
    "9m",
    "1p",
    "5p",
    "9p",
    "1s",
    "5s",
    "9s",
    "E",
    "S",
    "W",
    "N",
    "C",
    "F",
    "P",
    "[1m2m3m]",
    "[5p5p5p]",
    "[E E E E]",
    "(9s9s9s9s)",
    "(????)",
    "[",
    "]",
    "(",
    ")",
    "|",
    "| C",
    "0m",
    "10m",
    "m",
    "1",
    "Z",
    "é",
    "中",
    "1m1m1m1m1m",
    "[1m2m]",
    "[1m1m1m1m1m]",
    "",
];

fn words(pool: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    (prop::collection::vec(select(pool), 0..max), select(&[" ", "", ",", "  ", "\t"][..]))
        .prop_map(|(words, sep)| words.join(sep))
}

/// A command-line number, in range or not, or not a number.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "-1",
    "-0",
    "1000",
    "9007199254740992",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1.5",
    "1e3",
    "nan",
    "inf",
    "-inf",
    "x",
    "",
    " 1",
    "0x10",
    "١",
];

// ---------------------------------------------------------------------------------------------
// A case: a command line and the files it reads.

/// One command line, with files to write first; `{dir}` in an argument is the case's folder.
#[derive(Clone, Debug)]
struct Case {
    args: Vec<String>,
    files: Vec<(String, String)>,
    stdin: String,
}

impl Case {
    fn new(args: &[&str]) -> Case {
        Case { args: args.iter().map(|a| a.to_string()).collect(), files: Vec::new(), stdin: String::new() }
    }

    fn file(mut self, name: &str, text: String) -> Case {
        self.files.push((name.to_string(), text));
        self
    }

    fn arg(mut self, arg: impl Into<String>) -> Case {
        self.args.push(arg.into());
        self
    }

    /// Writes the files into `dir` and gives the arguments with `{dir}` filled in.
    fn prepare(&self, dir: &Path) -> Vec<String> {
        for (name, text) in &self.files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        self.args.iter().map(|a| a.replace("{dir}", dir.to_str().unwrap())).collect()
    }
}

fn arena() -> &'static Arena {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    ARENA.get_or_init(Arena::standard)
}

/// Whether `text` is a refusal as the tool writes one: one line, or (every error of a config) a
/// line that counts them, `X has N errors:`, then those N errors a line each, indented; no line
/// longer than an error's 501 characters (and its indent).
fn is_refusal(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let short = |line: &&str| !line.is_empty() && !line.contains('\r') && line.chars().count() <= 503;
    if !lines.iter().all(short) || text.trim_end_matches('\n').contains("\n\n") {
        return false;
    }
    match lines.as_slice() {
        [_] => true,
        [head, errors @ ..] => {
            let count =
                head.strip_suffix(" errors:").and_then(|h| h.rsplit(" has ").next()).and_then(|n| n.parse().ok());
            count == Some(errors.len())
                && errors.len() > 1
                && errors.iter().all(|e| e.starts_with("  ") && !e.starts_with("   "))
        }
        [] => false,
    }
}

/// Runs `case` in this process: exit 0, or a refusal (exit 2, [`is_refusal`]), never a panic (a
/// panic fails the property with the case that caused it).
fn in_process(case: &Case) -> Result<(), TestCaseError> {
    let dir = tempfile::TempDir::new().unwrap();
    let args = case.prepare(dir.path());
    match bot_arena::cli::execute(arena(), std::iter::once("arena".to_string()).chain(args)) {
        Ok(code) => prop_assert!(code == 0, "exit {code}"),
        Err(e) => {
            let text = e.to_string();
            prop_assert!(is_refusal(&text), "not a refusal's lines: {text:?}");
        }
    }
    Ok(())
}

/// What one process of the binary did.
#[derive(Debug, PartialEq)]
enum Verdict {
    Ok,
    /// Exit 2 with a refusal on stderr: `error: ` and one line, or a config's errors ([`is_refusal`]).
    Refused,
    /// Exit 5: one error line naming a bot that could not run, then only its log's last lines,
    /// indented (a mutated roster's program that does not exist here, say).
    BotCannotRun,
    Panic(String),
    Hang,
    OutOfMemory(String),
    MultiLine(String),
    OtherExit(i32, String),
}

/// Runs `case` as a process of the binary under `timeout` seconds and `ulimit -v` `memory_kib`.
fn as_process(case: &Case, timeout: u32, memory_kib: u64) -> Verdict {
    let dir = tempfile::TempDir::new().unwrap();
    // A process's arguments cannot hold a NUL byte.
    let args: Vec<String> = case.prepare(dir.path()).into_iter().map(|a| a.replace('\0', "\u{1}")).collect();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {memory_kib}; exec timeout -s KILL {timeout} \"$@\""))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_arena"))
        .args(&args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(case.stdin.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        _ if stderr.contains("panicked") => Verdict::Panic(stderr),
        _ if stderr.contains("memory allocation") || stderr.contains("out of memory") => Verdict::OutOfMemory(stderr),
        Some(0) => Verdict::Ok,
        Some(2) if stderr.starts_with("error: ") && is_refusal(&stderr) => Verdict::Refused,
        Some(2) => Verdict::MultiLine(stderr),
        Some(5) if cannot_run(&stderr) => Verdict::BotCannotRun,
        // `timeout` killed it.
        Some(124 | 137) => Verdict::Hang,
        Some(101) => Verdict::Panic(stderr),
        code => Verdict::OtherExit(code.unwrap_or(-1), stderr),
    }
}

/// Whether `stderr` is what a run whose bot could not run prints: one error line naming the bot,
/// then at most 5 of its log's lines, indented.
fn cannot_run(stderr: &str) -> bool {
    let mut lines = stderr.lines();
    let error = lines.next().unwrap_or_default();
    let tail: Vec<&str> = lines.collect();
    error.starts_with("error: bot ")
        && error.contains(" could not run: ")
        && tail.len() <= 5
        && tail.iter().all(|l| l.starts_with("  "))
}

// ---------------------------------------------------------------------------------------------
// The families of cases.

/// `arena run` of a mutated config (one game a pairing, so a valid config plays little).
fn run_config() -> impl Strategy<Value = Case> {
    mutated(configs()).prop_map(|(_, text)| {
        Case::new(&["run", "{dir}/c.toml", "--games", "1", "--threads", "1", "--quiet", "--out", "{dir}/out"])
            .file("c.toml", text)
    })
}

/// A mutated roster in `./bots/`, and a config naming its bots.
fn roster_case() -> impl Strategy<Value = Case> {
    (mutated(process_rosters()), prop::collection::vec(any::<Index>(), 1..4)).prop_map(|((name, text), picks)| {
        let game = name.trim_end_matches(".toml").to_string();
        let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix('[')?.strip_suffix(']')).collect();
        let bots: Vec<String> = if names.is_empty() {
            vec!["\"random\"".into()]
        } else {
            picks.iter().map(|i| format!("{:?}", names[i.index(names.len())])).collect()
        };
        let config = format!("game = \"{game}\"\nbots = [{}]\n", bots.join(", "));
        Case::new(&["run", "c.toml", "--games", "1", "--threads", "1", "--quiet", "--out", "out"])
            .file(&format!("bots/{name}"), text)
            .file("c.toml", config)
    })
}

/// `arena gate --check` of a mutated gate file, beside the real configs and baselines.
fn gate_case() -> impl Strategy<Value = Case> {
    mutated(gates()).prop_map(|(_, text)| {
        let text = text
            .replace("config = \"", &format!("config = \"{REPO}/configs/"))
            .replace("baseline = \"", &format!("baseline = \"{REPO}/configs/"));
        Case::new(&["gate", "{dir}/g.toml", "--check"]).file("g.toml", text)
    })
}

fn cards_case() -> impl Strategy<Value = Case> {
    let s = || words(CARD_WORDS, 8);
    prop_oneof![
        (s(), s(), s()).prop_map(|(hole, board, vs)| {
            let mut case = Case::new(&["advise", "holdem", "--hole", &hole, "--trials", "20"]);
            if !board.is_empty() {
                case = case.arg("--board").arg(board);
            }
            if !vs.is_empty() {
                case = case.arg("--vs").arg(vs);
            }
            case
        }),
        (s(), prop::collection::vec(s(), 0..3)).prop_map(|(me, opponents)| {
            opponents.into_iter().fold(Case::new(&["advise", "stud", "--me", &me]), |c, o| c.arg("--opponent").arg(o))
        }),
        (s(), select(NUMBERS)).prop_map(|(hand, n)| Case::new(&[
            "advise",
            "zhajinhua",
            "--hand",
            &hand,
            "--opponents",
            n
        ])),
    ]
}

fn tiles_case() -> impl Strategy<Value = Case> {
    let flags = select(&["", "--self-drawn", "--explain", "--fourth-tile", "--kong-related", "--last-wall-tile"][..]);
    (words(TILE_WORDS, 16), words(TILE_WORDS, 6), flags, select(&["E", "S", "x", "", "EE"][..])).prop_map(
        |(hand, seen, flag, wind)| {
            let mut case = Case::new(&["advise", "mahjong", "--hand", &hand, "--seat-wind", wind]);
            if !seen.is_empty() {
                case = case.arg("--seen").arg(seen);
            }
            if !flag.is_empty() {
                case = case.arg(flag);
            }
            case
        },
    )
}

/// JSON values to put in a batch line.
const JSON_VALUES: &[&str] = &[
    "null",
    "0",
    "-1",
    "1e400",
    "18446744073709551616",
    "\"\"",
    "\"1m\"",
    "\"x\"",
    "[]",
    "{}",
    "true",
    "[\"1m\", 3]",
    "\"[1m1m1m1m1m]\"",
    "255",
    "256",
];

fn batch_case() -> impl Strategy<Value = Case> {
    let lines: Vec<String> =
        repo_text("tests/data/mcr_fans_sample.jsonl").lines().take(40).map(str::to_string).collect();
    let line_edit = (any::<Index>(), any::<Index>(), select(JSON_VALUES), 0u8..3);
    (prop::collection::vec(select(lines), 1..4), prop::collection::vec(line_edit, 1..4)).prop_map(|(picked, edits)| {
        let mut lines = picked;
        for (which, at, value, how) in edits {
            let n = lines.len();
            let line = &mut lines[which.index(n)];
            match how {
                // A field's value replaced: the text after the k-th `": `, up to its `,`.
                0 => {
                    let starts: Vec<usize> = line.match_indices("\": ").map(|(i, _)| i + 3).collect();
                    if let Some(&start) = starts.get(at.index(starts.len().max(1))) {
                        let end = line[start..].find([',', '}']).map_or(line.len(), |e| start + e);
                        line.replace_range(start..end, value);
                    }
                }
                1 => {
                    let mut cut = at.index(line.len() + 1);
                    while !line.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    line.truncate(cut);
                }
                _ => *line = value.to_string(),
            }
        }
        Case::new(&["advise", "mahjong", "--batch", "{dir}/b.jsonl"]).file("b.jsonl", lines.join("\n"))
    })
}

fn stats_case() -> impl Strategy<Value = Case> {
    let counts = |n: usize| prop::collection::vec(select(NUMBERS), n - 1..n + 2).prop_map(|v| v.join(","));
    let numbers = &["0", "5", "-5", "10", "nan", "inf", "-inf", "1e308", "x", "0.05", "1", "0.5"][..];
    (
        prop_oneof![counts(5).prop_map(|c| ("--penta", c)), counts(3).prop_map(|c| ("--tri", c))],
        prop::collection::vec((select(&["--elo0", "--elo1", "--alpha", "--beta"][..]), select(numbers)), 0..4),
        select(&["", "normalized", "logistic", "payoff", "bayes"][..]),
        any::<bool>(),
    )
        .prop_map(|((flag, counts), options, model, json)| {
            let mut case = Case::new(&["stats", flag, &counts]);
            for (name, value) in options {
                case = case.arg(name).arg(value);
            }
            if !model.is_empty() {
                case = case.arg("--model").arg(model);
            }
            if json {
                case = case.arg("--json");
            }
            case
        })
}

/// A small finished run folder, made once: games.csv, run.json, config.toml, summary.csv.
fn run_folder() -> &'static [(String, String)] {
    static FOLDER: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let dir = tempfile::TempDir::new().unwrap();
        let out = dir.path().join("run");
        let args = ["arena", "run", "--game", "gomoku", "--bot", "random", "--bot", "random-adjacent", "--games", "6"];
        let code =
            bot_arena::cli::execute(arena(), args.iter().copied().chain(["--quiet", "--out", out.to_str().unwrap()]));
        assert_eq!(code.unwrap(), 0);
        files_in_folder(&out)
    })
}

fn files_in_folder(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    files.sort();
    files
}

/// `arena stats --run` (or `resume`) of the run folder with one of its files mutated.
fn run_folder_case() -> impl Strategy<Value = Case> {
    (any::<Index>(), prop::collection::vec(edit(), 1..4), select(&["stats", "resume"][..])).prop_map(
        |(which, edits, command)| {
            let files = run_folder();
            let k = which.index(files.len());
            let case = match command {
                "stats" => Case::new(&["stats", "--elo0", "0", "--elo1", "5", "--run", "{dir}/run"]),
                _ => Case::new(&["resume", "{dir}/run", "--threads", "1", "--quiet"]),
            };
            files.iter().enumerate().fold(case, |case, (i, (name, text))| {
                let text = if i == k { mutate(text, &edits) } else { text.clone() };
                case.file(&format!("run/{name}"), text)
            })
        },
    )
}

/// `arena run` from flags.
fn run_flags_case() -> impl Strategy<Value = Case> {
    let games = &["gomoku", "holdem", "stud", "zhajinhua", "mahjong", "go\nmoku", "", "HOLDEM"][..];
    let bots = &[
        "random",
        "weights",
        "random-adjacent",
        "always-call",
        "rr",
        "greedy",
        "ev",
        "nobody",
        "",
        "-x",
        "=1",
        "weights-defensive",
        "external",
    ][..];
    let flag = prop_oneof![
        select(bots).prop_map(|b| vec!["--bot".to_string(), b.to_string()]),
        select(&["-1", "0", "1", "2", "x", "18446744073709551616", "6148914691236517206"][..])
            .prop_map(|n| vec!["--games".to_string(), n.to_string()]),
        select(NUMBERS).prop_map(|n| vec!["--seed".to_string(), n.to_string()]),
        select(&["0", "1", "65535", "x", "-1"][..]).prop_map(|n| vec!["--threads".to_string(), n.to_string()]),
        select(&["0", "1", "2", "4", "11", "x"][..]).prop_map(|n| vec!["--seats".to_string(), n.to_string()]),
        select(&["--paired", "--hand-history", "--force", "--json", "--bogus", "-q"][..])
            .prop_map(|f| vec![f.to_string()]),
    ];
    (select(games), prop::collection::vec(flag, 0..6)).prop_map(|(game, flags)| {
        let mut case = Case::new(&["run", "--game", game, "--quiet", "--out", "{dir}/out"]);
        if !flags.iter().any(|f| f[0] == "--games") {
            case = case.arg("--games").arg("1");
        }
        flags.into_iter().flatten().fold(case, Case::arg)
    })
}

/// Gomocup sessions: the protocol's commands, well-formed or not.
fn brain_session() -> impl Strategy<Value = String> {
    let command = prop_oneof![
        select(&["START 15", "START 20", "START 5", "START 0", "START 100000", "START x", "RECTSTART 15,15"][..])
            .prop_map(str::to_string),
        (0i64..22, 0i64..22).prop_map(|(x, y)| format!("TURN {x},{y}")),
        select(&["TURN -1,3", "TURN 7", "TURN a,b", "TURN 99999999999999999999,1", "BEGIN", "END", "ABOUT"][..])
            .prop_map(str::to_string),
        (prop::collection::vec((0i64..21, 0i64..21, 0u8..4), 0..8), any::<bool>()).prop_map(|(stones, done)| {
            let mut s = String::from("BOARD\n");
            for (x, y, c) in stones {
                s.push_str(&format!("{x},{y},{c}\n"));
            }
            if done {
                s.push_str("DONE");
            }
            s
        }),
        select(
            &[
                "INFO rule 0",
                "INFO rule 4",
                "INFO rule 1",
                "INFO timeout_turn 0",
                "INFO timeout_match -1",
                "INFO max_memory 1",
                "INFO time_left x",
                "INFO",
                "RESTART",
                "TAKEBACK 7,7",
                "TAKEBACK x",
                "SWAP2BOARD\nDONE",
                "SWAP2BOARD\n7,7\n8,8\n9,9\nDONE",
                "PLAY 7,7",
                "",
                "\u{0}",
                "é",
            ][..]
        )
        .prop_map(str::to_string),
    ];
    prop::collection::vec(command, 0..12).prop_map(|c| c.join("\n") + "\n")
}

/// `arena brain gomoku` with `--param`s and a session on stdin (a real process: it reads stdin).
fn brain_case() -> impl Strategy<Value = Case> {
    let param = prop_oneof![
        (select(&["depth", "width", "extend", "own", "opp", "nope", ""][..]), select(HOSTILE_VALUES))
            .prop_map(|(k, v)| format!("{k}={v}")),
        select(&["depth", "=", "depth==2", "own=[1,2,3]", "depth=2"][..]).prop_map(str::to_string),
    ];
    (
        select(&["weights", "random", "search", "nobody", "weights-defensive"][..]),
        prop::collection::vec(param, 0..3),
        brain_session(),
    )
        .prop_map(|(bot, params, session)| {
            // The search bot searches only at its default depth and width or less, so a case stays short.
            let params: Vec<String> = if bot == "search" {
                params.into_iter().filter(|p| !p.starts_with('d') && !p.starts_with('w')).collect()
            } else {
                params
            };
            let mut case = Case::new(&["brain", "gomoku", "--bot", bot]);
            for p in params {
                case = case.arg("--param").arg(p);
            }
            case.stdin = session;
            case
        })
}

/// Every family, for the campaign.
fn any_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        4 => run_config(),
        2 => roster_case(),
        2 => gate_case(),
        3 => cards_case(),
        3 => tiles_case(),
        2 => batch_case(),
        3 => stats_case(),
        2 => run_folder_case(),
        3 => run_flags_case(),
        2 => brain_case(),
        1 => openings_case(),
    ]
}

/// A config playing a mutated openings file.
fn openings_case() -> impl Strategy<Value = Case> {
    let openings = repo_text("openings/freestyle-15.txt");
    prop::collection::vec(edit(), 1..4).prop_map(move |edits| {
        let text = mutate(&openings, &edits);
        Case::new(&["run", "c.toml", "--games", "2", "--threads", "1", "--quiet", "--out", "out"])
            .file("o.txt", text)
            .file(
                "c.toml",
                "game = \"gomoku\"\nbots = [\"random\", \"weights\"]\n[table]\nopenings = \"o.txt\"\n".into(),
            )
    })
}

// ---------------------------------------------------------------------------------------------
// The property tests (in CI): parsers and in-process commands.

/// Checks that a parser's refusal is one line (a config's, its errors a line each: [`is_refusal`]).
fn one_line<T, E: std::fmt::Display>(result: Result<T, E>) -> Result<(), TestCaseError> {
    if let Err(e) = result {
        let text = e.to_string();
        prop_assert!(is_refusal(&text), "not a refusal's lines: {text:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 400, failure_persistence: None, ..Config::default() })]

    #[test]
    fn configs_parse_or_are_refused_in_one_line(
        (_, text) in mutated(configs()),
        games in prop::option::of(select(&[-1i64, 0, 1, 1_000_000_000_000, i64::MAX][..])),
    ) {
        let overrides = Overrides { games, ..Overrides::default() };
        one_line(RunConfig::parse(arena(), &Source::file("c.toml", &text), "c", &overrides))?;
    }

    #[test]
    fn rosters_parse_or_are_refused_in_one_line((name, text) in mutated(rosters()), pick in any::<Index>()) {
        let game = arena().find(name.trim_end_matches(".toml")).unwrap();
        match Roster::parse(&text, &format!("bots/{name}")) {
            Ok(roster) => {
                // Checked whole as `Roster::load` does, then one entry looked up.
                one_line(roster.check(game))?;
                let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix('[')?.strip_suffix(']')).collect();
                if !names.is_empty() {
                    one_line(roster.lookup(game, names[pick.index(names.len())]))?;
                }
            }
            Err(e) => one_line::<(), _>(Err(e))?,
        }
    }

    #[test]
    fn card_strings_parse_or_are_refused(s in words(CARD_WORDS, 10), raw in ".{0,12}") {
        one_line(parse_cards(&s))?;
        one_line(parse_cards_or_hidden(&s))?;
        one_line(parse_cards(&raw))?;
    }

    #[test]
    fn tile_strings_parse_or_are_refused(s in words(TILE_WORDS, 18), raw in ".{0,12}") {
        one_line(Hand::parse(&s))?;
        one_line(Hand::parse(&raw))?;
        one_line(parse_tile(&raw))?;
    }

    #[test]
    fn openings_files_parse_or_are_refused(edits in prop::collection::vec(edit(), 1..5)) {
        let text = mutate(&repo_text("openings/freestyle-15.txt"), &edits);
        let _ = openings::parse(&text);
        for size in [15, 20] {
            one_line(Book::from_text("o.txt", &text, &Gomoku::new(size, Rule::Freestyle, 0)))?;
        }
    }

    #[test]
    fn acpc_logs_import_or_are_refused(
        edits in prop::collection::vec(edit(), 1..5),
        log in select(&["dupA.log", "ep3p.log"][..]),
        pair in any::<bool>(),
    ) {
        use bot_arena::core::ImportFile;
        use bot_arena::games::holdem::acpc::log::read;
        let file = |name: &str, text: String| ImportFile { name: name.to_string(), text };
        let text = mutate(&repo_text(&format!("tests/data/acpc/{log}")), &edits);
        let mut files = vec![file(log, text)];
        if pair {
            files.push(file("dupB.log", repo_text("tests/data/acpc/dupB.log")));
        }
        one_line(read(&files))?;
    }

    #[test]
    fn action_texts_parse_or_are_refused(text in words(ACTION_WORDS, 4), raw in ".{0,16}") {
        for t in [&text, &raw] {
            let _ = game::<bot_arena::games::holdem::Holdem>(2).parse_action(t);
            let _ = game::<bot_arena::games::stud::Stud>(2).parse_action(t);
            let _ = game::<bot_arena::games::zhajinhua::Zhajinhua>(3).parse_action(t);
            let _ = game::<Gomoku>(2).parse_action(t);
            let _ = game::<bot_arena::games::mahjong::Mahjong>(4).parse_action(t);
        }
    }

    #[test]
    fn brain_sessions_never_panic(session in brain_session(), bot in select(&["weights", "random"][..])) {
        let mut brain = Brain::new(brain_bot(bot), 1);
        let mut output = Vec::new();
        prop_assert!(brain.serve(session.as_bytes(), &mut output).is_ok());
    }
}

proptest! {
    #![proptest_config(Config { cases: 300, failure_persistence: None, ..Config::default() })]

    #[test]
    fn advise_with_card_strings(case in cards_case()) {
        in_process(&case)?;
    }

    #[test]
    fn advise_with_tile_strings(case in tiles_case()) {
        in_process(&case)?;
    }

    #[test]
    fn advise_batch_files(case in batch_case()) {
        in_process(&case)?;
    }

    #[test]
    fn stats_counts_and_flags(case in stats_case()) {
        in_process(&case)?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 120, failure_persistence: None, ..Config::default() })]

    #[test]
    fn gate_files_are_checked_or_refused(case in gate_case()) {
        in_process(&case)?;
    }

    #[test]
    fn stats_of_damaged_run_folders(case in run_folder_case()) {
        in_process(&case)?;
    }

    #[test]
    fn run_from_flags(case in run_flags_case()) {
        in_process(&case)?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 48, failure_persistence: None, ..Config::default() })]

    /// A real process: the brain reads its stdin, a roster is read from the working folder.
    #[test]
    fn brain_params_and_local_rosters_in_a_process(case in prop_oneof![brain_case(), roster_case(), run_config()]) {
        let verdict = as_process(&case, 120, 8 << 20);
        prop_assert!(matches!(verdict, Verdict::Ok | Verdict::Refused | Verdict::BotCannotRun), "{verdict:?}");
    }
}

const ACTION_WORDS: &[&str] = &[
    "fold",
    "call",
    "check",
    "raise",
    "bet",
    "all-in",
    "allin",
    "look",
    "compare",
    "discard",
    "pass",
    "win",
    "chow",
    "pung",
    "kong",
    "h8",
    "8,8",
    "7",
    "1m",
    "E",
    "C",
    "100",
    "-1",
    "18446744073709551616",
    "1e9",
    "nan",
    "",
    "é",
    "raise 100",
    "bet 99999999999",
    "compare 9",
    "discard 1m",
    "chow 1m",
    "kong (1m)",
];

/// A game with its default table options.
fn game<G: GameDef>(seats: usize) -> G {
    G::from_options(&Params::new(G::OPTIONS, &Default::default(), "table").unwrap(), seats).unwrap()
}

fn brain_bot(name: &str) -> BrainBot {
    let kind = arena().kinds::<Gomoku>().unwrap().iter().find(|k| k.name == name).unwrap().clone();
    let params = Params::new(kind.params, &Default::default(), name).unwrap();
    BrainBot::new(name.to_string(), kind, params)
}

// ---------------------------------------------------------------------------------------------
// The acceptance campaign (ignored: minutes).

/// Fresh cases from `CAMPAIGN_SEED` (default 2026; the tests above use proptest's own seeds),
/// `CAMPAIGN_CASES` of them (default 30,000), each a process of the binary under `timeout` (60 s)
/// and `ulimit -v` (4 GiB), on `CAMPAIGN_JOBS` workers (default 2). Every case must end with
/// exit 0, or exit 2 and one line on stderr: no panic, hang, out-of-memory abort or other exit.
#[test]
#[ignore = "the acceptance campaign: minutes; see the module's doc"]
fn campaign() {
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (cases, seed, jobs) = (env("CAMPAIGN_CASES", 30_000), env("CAMPAIGN_SEED", 2026), env("CAMPAIGN_JOBS", 2));
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes));
    let strategy = any_case();
    let all: Vec<Case> = (0..cases).map(|_| strategy.new_tree(&mut runner).unwrap().current()).collect();
    let next = std::sync::atomic::AtomicU64::new(0);
    let tally = std::sync::Mutex::new(std::collections::BTreeMap::<&'static str, u64>::new());
    let findings = std::sync::Mutex::new(Vec::new());
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= cases {
                    break;
                }
                let case = &all[i as usize];
                let verdict = as_process(case, 60, 4 << 20);
                let key = match &verdict {
                    Verdict::Ok => "exit 0",
                    Verdict::Refused => "exit 2, refused",
                    Verdict::BotCannotRun => "exit 5, a bot that could not run",
                    Verdict::Panic(_) => "panic",
                    Verdict::Hang => "hang",
                    Verdict::OutOfMemory(_) => "out of memory",
                    Verdict::MultiLine(_) => "multi-line error",
                    Verdict::OtherExit(..) => "other exit",
                };
                *tally.lock().unwrap().entry(key).or_default() += 1;
                if !matches!(verdict, Verdict::Ok | Verdict::Refused | Verdict::BotCannotRun) {
                    eprintln!(
                        "FINDING {key}: {:?} stdin {:?} files {:?}\n  {verdict:?}",
                        case.args, case.stdin, case.files
                    );
                    findings.lock().unwrap().push((case.clone(), verdict));
                }
                if (i + 1).is_multiple_of(1000) {
                    eprintln!("campaign: {} cases, {:.0} s", i + 1, started.elapsed().as_secs_f64());
                }
            });
        }
    });
    let tally = tally.into_inner().unwrap();
    eprintln!("campaign: seed {seed}, {cases} cases in {:.0} s: {tally:?}", started.elapsed().as_secs_f64());
    let findings = findings.into_inner().unwrap();
    assert!(findings.is_empty(), "{} findings (see FINDING lines)", findings.len());
}
