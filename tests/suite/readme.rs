//! The README tells the truth: every example it shows is run and its output compared, line for
//! line (snapshot tests, as fastchess checks its documentation).
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

/// Whether `actual` is `expected`, where a `...` line of `expected` matches any lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
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

fn check_readme(slow: bool) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let all = examples(&readme);
    assert!(all.len() >= 10, "the README's examples were not found: {all:?}");
    let bin = Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let scratch = tempfile::TempDir::new().unwrap();
    // The configs name files relative to the project's root: configs, openings, the example bots
    // (the roster's Botzone and ACPC examples run them) and (for the Gomocup engine example) the
    // built binary.
    for dir in ["bots", "configs", "openings", "target", "tests"] {
        std::os::unix::fs::symlink(repo.join(dir), scratch.path().join(dir)).unwrap();
    }
    let mut failures = Vec::new();
    let mut ran = 0;
    for example in all.iter().filter(|e| SLOW.iter().any(|s| e.command.contains(s)) == slow) {
        assert!(example.command.contains("arena "), "README.md:{}: not an arena command", example.line);
        let output = Command::new("sh")
            .arg("-c")
            .arg(&example.command)
            .current_dir(scratch.path())
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
                "README.md:{}: `{}` prints\n{}\n(stderr: {})\nbut the README shows\n{}\n",
                example.line,
                example.command,
                actual.join("\n"),
                String::from_utf8_lossy(&output.stderr).trim_end(),
                example.output.join("\n")
            ));
        }
    }
    assert!(ran > 0, "no example ran");
    assert!(failures.is_empty(), "{} of {ran} README examples differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    check_readme(false);
}

#[test]
#[ignore = "plays the README's long tournaments (about 20 minutes): run with --include-ignored"]
fn the_readme_tournaments_print_what_the_readme_shows() {
    check_readme(true);
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
}

/// The config the README shows as `configs/example.toml` is that file, and it runs.
#[test]
fn the_readme_config_is_a_real_file_that_runs() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let start = readme.find("```toml\n# configs/example.toml\n").expect("the README shows configs/example.toml");
    let block = &readme[start + "```toml\n".len()..];
    let block = &block[..block.find("```").unwrap()];
    let file = std::fs::read_to_string(repo.join("configs/example.toml")).unwrap();
    assert_eq!(block, file, "README's configs/example.toml differs from the file");
    let out = tempfile::TempDir::new().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "--quiet", "--games", "20", "--out"])
        .arg(out.path().join("example"))
        .arg(repo.join("configs/example.toml"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}
