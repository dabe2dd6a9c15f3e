//! The README and the book tell the truth: every example they show is run and its output
//! compared, line for line (snapshot tests, as fastchess checks its documentation). The README
//! and each chapter of the book (docs/book/src/SUMMARY.md) run in a scratch folder of their own,
//! so a chapter's examples make what they use.
//!
//! The convention: a fenced block whose first line starts with `$ ` is a snapshot. Each `$ ` line
//! is a shell command running `arena` (`cargo run --release -- ...` means the same; a comment
//! after two spaces and `#` is dropped), and the lines up to the next `$ ` line are what it prints
//! on stdout (trailing blank lines aside). A line `...` in the output stands for any number of
//! lines the README leaves out. Commands run in a scratch folder that sees the project's
//! `bots/`, `configs/`, `openings/`, `target/` and `tests/`, so their results folders are fresh.
//!
//! The examples that play long tournaments take about 20 minutes in all on two cores; they are ignored in the
//! default run: `cargo test --release --test suite readme:: -- --include-ignored`.

use std::path::Path;
use std::process::Command;

/// One `$ command` of a snapshot block and the output the README shows for it.
#[derive(Debug)]
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

/// Every example in `text` (a Markdown file), in order.
fn examples(text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut block: Option<Vec<(usize, &str)>> = None;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            match block.take() {
                None => block = Some(Vec::new()),
                Some(lines) => examples.extend(snapshot(&lines)),
            }
        } else if let Some(lines) = &mut block {
            lines.push((i + 1, line));
        }
    }
    examples
}

/// The examples of one fenced block, if it is a snapshot.
fn snapshot(lines: &[(usize, &str)]) -> Vec<Example> {
    if !lines.first().is_some_and(|(_, l)| l.starts_with("$ ")) {
        return Vec::new();
    }
    let mut out: Vec<Example> = Vec::new();
    for &(line, text) in lines {
        match text.strip_prefix("$ ") {
            Some(command) => {
                let command = command.split("  #").next().unwrap().trim();
                let command = command.replacen("cargo run --release -- ", "arena ", 1);
                out.push(Example { line, command, output: Vec::new() });
            }
            None => out.last_mut().unwrap().output.push(text.trim_end().to_string()),
        }
    }
    for example in &mut out {
        while example.output.last().is_some_and(|l| l.is_empty()) {
            example.output.pop();
        }
    }
    out
}

/// Whether `actual` is `expected`, where a `...` line of `expected` matches any lines, and a line
/// ending in ` ...` any line that starts with what comes before it (what a run measures on the
/// machine, as the time lines of outside bots: `time: mine 9233 decisions, median ...`).
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) if first.ends_with(" ...") => {
            let start = &first[..first.len() - " ...".len()];
            actual.first().is_some_and(|a| a.starts_with(start)) && matches(rest, &actual[1..])
        }
        Some((first, rest)) => actual.first().is_some_and(|a| a == first) && matches(rest, &actual[1..]),
    }
}

/// Commands that play long tournaments (by their config or flags): run only with --ignored.
const SLOW: &[&str] = &[
    "--games 20000",
    "results/holdem-rr-vs-rr-tight",
    "results/killed",
    "results/extended",
    "search-vs-weights-sprt",
    "holdem-rr-tight-sprt",
    "mahjong-pruned-greedy",
    "holdem-gauntlet",
    "gomoku-round-robin",
    "gate configs/ci-gate.toml",
    "gomocup-brain",
    "mahjong-pruned-variants",
    "results/gz-",
    "results/zjh-",
    "gomoku-balance",
    "configs/gomoku.toml",
    "configs/gomoku-openings.toml",
    "configs/gomoku-renju.toml",
    "configs/mahjong.toml",
    "mahjong-expectimax-greedy",
    "mahjong-botzone",
    "--games 1000000",
    "--bot pruned-patent",
    "mahjong-patent-expectimax",
    "configs/holdem-headsup.toml",
    "configs/holdem-6max.toml",
];

/// The book's chapters, in the order of its SUMMARY.md, as paths from the project's root.
pub fn book_chapters() -> Vec<String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let summary = std::fs::read_to_string(repo.join("docs/book/src/SUMMARY.md")).unwrap();
    summary
        .lines()
        .filter_map(|line| line.split_once("](").map(|(_, rest)| rest))
        .map(|rest| format!("docs/book/src/{}", &rest[..rest.find(')').unwrap()]))
        .collect()
}

/// The snapshot examples of the files named (paths from the project's root), each with its file.
fn examples_of(files: &[String]) -> Vec<(String, Example)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(repo.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        all.extend(examples(&text).into_iter().map(|e| (file.clone(), e)));
    }
    all
}

/// The README's examples: none is a long tournament (those are the book's).
fn check_readme() {
    let readme = examples_of(&["README.md".to_string()]);
    assert!(readme.len() >= 5, "the README's examples were not found: {readme:?}");
    check_examples(&readme, false);
}

fn check_book(slow: bool) {
    let book = examples_of(&book_chapters());
    assert!(book.len() >= 50, "the book's examples were not found: {} of them", book.len());
    check_examples(&book, slow);
}

/// Runs the examples (the fast ones, or with `slow` the long tournaments) in one scratch folder, in
/// order, and fails with every one that prints something other than what its file shows.
fn check_examples(all: &[(String, Example)], slow: bool) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    // A scratch folder a file, made when its first example runs. The configs name files
    // relative to the project's root: configs, openings, the example bots (the roster's Botzone
    // and ACPC examples run them), test data and (for the Gomocup engine example) the built binary.
    let mut scratches: std::collections::HashMap<String, tempfile::TempDir> = Default::default();
    let mut scratch_of = |file: &str| -> std::path::PathBuf {
        let dir = scratches.entry(file.to_string()).or_insert_with(|| {
            let scratch = tempfile::TempDir::new().unwrap();
            for dir in ["bots", "configs", "openings", "target", "tests"] {
                std::os::unix::fs::symlink(repo.join(dir), scratch.path().join(dir)).unwrap();
            }
            scratch
        });
        dir.path().to_path_buf()
    };
    let mut failures = Vec::new();
    let mut ran = 0;
    for (file, example) in all.iter().filter(|(_, e)| SLOW.iter().any(|s| e.command.contains(s)) == slow) {
        // A step that sets the scene (a folder, a file) prints nothing; the rest run arena.
        assert!(
            example.command.contains("arena ") || example.output.is_empty(),
            "{file}:{}: not an arena command",
            example.line
        );
        let output = Command::new("sh")
            .arg("-c")
            .arg(&example.command)
            .current_dir(scratch_of(file))
            .env("PATH", &path)
            // `arena play` lays its screens out to COLUMNS: the README shows them at 80 columns,
            // what a pipe gets without it.
            .env_remove("COLUMNS")
            .output()
            .unwrap();
        ran += 1;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let actual: Vec<&str> = stdout.trim_end().lines().map(str::trim_end).collect();
        if !matches(&example.output, &actual) {
            failures.push(format!(
                "{file}:{}: `{}` prints\n{}\n(stderr: {})\nbut {file} shows\n{}\n",
                example.line,
                example.command,
                actual.join("\n"),
                String::from_utf8_lossy(&output.stderr).trim_end(),
                example.output.join("\n")
            ));
        }
    }
    assert!(ran > 0, "no example ran");
    assert!(failures.is_empty(), "{} of {ran} examples differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    check_readme();
}

#[test]
fn the_book_examples_print_what_the_book_shows() {
    check_book(false);
}

#[test]
#[ignore = "plays the book's long tournaments (about 20 minutes): run with --include-ignored"]
fn the_book_tournaments_print_what_the_book_shows() {
    check_book(true);
}

#[test]
fn the_snapshot_convention() {
    let text = "intro\n```\n$ arena a  # note\none\n\n$ cargo run --release -- b\ntwo\n```\n```toml\nx = 1\n```\n";
    let found = examples(text);
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].line, found[0].command.as_str(), found[0].output.clone()), (3, "arena a", vec!["one".into()]));
    assert_eq!((found[1].command.as_str(), found[1].output.clone()), ("arena b", vec!["two".into()]));
    let expected: Vec<String> = ["a", "...", "d"].map(String::from).to_vec();
    assert!(matches(&expected, &["a", "b", "c", "d"]) && matches(&expected, &["a", "d"]));
    assert!(!matches(&expected, &["a", "b"]) && !matches(&expected, &["x", "d"]));
    let measured: Vec<String> = ["time: x 3 decisions ...", "d"].map(String::from).to_vec();
    assert!(matches(&measured, &["time: x 3 decisions, median 0.04 ms", "d"]));
    assert!(!matches(&measured, &["time: x 4 decisions, median 0.04 ms", "d"]));
    assert!(!matches(&measured, &["d"]));
}

/// The config the book shows as `configs/example.toml` is that file, and it runs.
#[test]
fn the_books_config_is_a_real_file_that_runs() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("docs/book/src/configs.md")).unwrap();
    let start = readme.find("```toml\n# configs/example.toml\n").expect("the book shows configs/example.toml");
    let block = &readme[start + "```toml\n".len()..];
    let block = &block[..block.find("```").unwrap()];
    let file = std::fs::read_to_string(repo.join("configs/example.toml")).unwrap();
    assert_eq!(block, file, "the book's configs/example.toml differs from the file");
    let out = tempfile::TempDir::new().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "--quiet", "--games", "20", "--out"])
        .arg(out.path().join("example"))
        .arg(repo.join("configs/example.toml"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}
