//! The small things a newcomer hits first, each on the real binary: how a missing run folder is
//! said, where a resume picks up, what a typo was probably meant to be, every error of a config at
//! once, help texts without source markup, `--quiet` wherever progress is printed.

use std::path::Path;
use std::process::Output;

use crate::common::{arena, write};
use tempfile::TempDir;

/// Runs `arena ARGS` in `dir`.
fn run_in<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Output {
    arena().current_dir(dir).args(args).output().unwrap()
}

/// The command was refused with exit 2, nothing on stdout, and exactly `line` on stderr.
fn refused_with(output: &Output, line: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end(), line);
    assert!(output.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&output.stdout));
}

/// Every command that reads a run folder says a missing one, or one that holds no run, in the
/// same words.
#[test]
fn every_command_says_a_missing_run_folder_the_same_way() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("notes")).unwrap();
    write(&d.join("notes"), "README.md", "not a run");
    write(d, "plain.txt", "");
    let commands: &[&[&str]] =
        &[&["resume"], &["stats", "--run"], &["report"], &["replay"], &["replay", "--check"], &["merge"]];
    for command in commands {
        for (folder, why) in [
            ("results/x", "no such folder"),
            ("notes", "it holds no run: no run.json"),
            ("plain.txt", "a file, not a folder"),
        ] {
            let args: Vec<&str> = command.iter().copied().chain([folder]).collect();
            let out = run_in(d, &args);
            refused_with(&out, &format!("error: no run folder at {folder} ({why})"));
        }
    }
    // A run folder without its config: the file it lacks is named.
    let made = run_in(d, &["run", "--game", "gomoku", "--bot", "random", "--games", "2", "--quiet", "--out", "run"]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    std::fs::remove_file(d.join("run/config.toml")).unwrap();
    for command in commands {
        let args: Vec<&str> = command.iter().copied().chain(["run"]).collect();
        refused_with(&run_in(d, &args), "error: no run folder at run (it holds no run: no config.toml)");
    }
    // The gate's history file, which is no folder, is said the same way.
    refused_with(
        &run_in(d, &["report", "--history", "h.csv"]),
        "error: no gate history at h.csv (no such file: `arena gate GATE --history FILE` writes it)",
    );
}

/// `arena resume` says where the run picks up: how many games it keeps of how many, and how many
/// are left; and, when none is, that there is nothing to resume.
#[test]
fn resume_says_where_it_picks_up() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let args = ["run", "--game", "holdem", "--bot", "rr", "--bot", "rr-tight", "--games", "200", "--paired"];
    let made = run_in(d, &[&args[..], &["--quiet", "--out", "run"]].concat());
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    // As a kill leaves it: the first 60 games (two rows each) on disk, run.json still running.
    let games = std::fs::read_to_string(d.join("run/games.csv")).unwrap();
    let kept: Vec<&str> = games.lines().take(1 + 2 * 60).collect();
    std::fs::write(d.join("run/games.csv"), kept.join("\n") + "\n").unwrap();
    let manifest = std::fs::read_to_string(d.join("run/run.json")).unwrap().replace("\"complete\"", "\"running\"");
    std::fs::write(d.join("run/run.json"), manifest).unwrap();
    let resumed = run_in(d, &["resume", "run"]);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(stdout.lines().nth(1), Some("resumed run with 60 of 200 games played (140 to play)"), "{stdout}");
    assert_eq!(std::fs::read_to_string(d.join("run/games.csv")).unwrap(), games, "the run resumed is the run");
    let again = run_in(d, &["resume", "run"]);
    assert_eq!(String::from_utf8_lossy(&again.stdout), "run: complete (200 of 200 games); nothing to resume\n");
    // Extended: the games played are kept, the rest is played.
    let extended = run_in(d, &["resume", "run", "--games", "300"]);
    let stdout = String::from_utf8_lossy(&extended.stdout);
    assert_eq!(stdout.lines().nth(1), Some("resumed run with 200 of 300 games played (100 to play)"), "{stdout}");
}

/// A mistyped name is answered with the names it was likely meant to be, by the one measure
/// every kind of name is held to: subcommands, flags and their values, games, bot kinds and roster
/// names, table options and bot parameters.
#[test]
fn a_typo_is_answered_with_what_was_meant() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let holdem = "known: rr, always-call, always-fold, always-raise, all-in, random, lbr, acpc, external, human, \
                  rr-tight, rr-loose, rr-fast, rr-station, acpc-example, acpc-port)";
    let cases: &[(&[&str], String)] = &[
        (&["rnu"], "error: unrecognized subcommand 'rnu' (did you mean `run`?); try --help".into()),
        (&["stat"], "error: unrecognized subcommand 'stat' (did you mean `stats` or `status`?); try --help".into()),
        (&["advise", "holdme"], "error: unrecognized subcommand 'holdme' (did you mean `holdem`?); try --help".into()),
        (&["chess"], "error: unrecognized subcommand 'chess'; try --help".into()),
        (
            &["run", "--sed", "3"],
            "error: unexpected argument '--sed' found (did you mean `--seed`?); try --help".into(),
        ),
        (
            &["run", "x.toml", "--records", "gzz"],
            "error: invalid value 'gzz' for '--records <RECORDS>' [possible values: csv, gz, moves, moves-gz, none] \
             (did you mean `gz`?); try --help"
                .into(),
        ),
        (
            &["list", "holdme"],
            "error: unknown game `holdme` (did you mean `holdem`? known: holdem, stud, zhajinhua, gomoku, mahjong)"
                .into(),
        ),
        (
            &["run", "--game", "holdem", "--bot", "rr", "--bot", "always-cal"],
            format!("error: unknown bot `always-cal` for holdem (did you mean `always-call`? {holdem}"),
        ),
        (
            &["run", "--game", "holdem", "--bot", "rr-tigth", "--bot", "rr"],
            format!("error: unknown bot `rr-tigth` for holdem (did you mean `rr-tight`? {holdem}"),
        ),
        (
            &["run", "--game", "holdem", "--bot", "rr", "--bot", "chess-engine"],
            format!("error: unknown bot `chess-engine` for holdem ({holdem}"),
        ),
    ];
    for (args, line) in cases {
        let out = arena().current_dir(d).args(*args).stdin(std::process::Stdio::null()).output().unwrap();
        refused_with(&out, line);
    }
    // A parameter named on the command line (--param) and a table option in a config file.
    let out = arena().args(["brain", "gomoku", "--bot", "search", "--param", "dpeth=4"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unknown parameter `dpeth` for bot `search` (did you mean `depth`? known: depth,"),
        "{stderr}"
    );
    let config = write(d, "c.toml", "game = \"gomoku\"\nbots = [\"random\"]\n[table]\nszie = 9\n");
    let out = run_in(d, &["run", config.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains("c.toml:4: unknown parameter `szie` for the gomoku table (did you mean `size`? known: size,"),
        "{stderr}"
    );
}

/// A config's errors are all told at once, in line order (a line each, under one saying how many),
/// whatever kind each is: unknown keys, wrong types, unknown bots and parameters, bad values. One
/// error stays one line.
#[test]
fn every_error_of_a_config_is_told_at_once_in_line_order() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let text = "game = \"holdem\"\n\
                gmaes = 10\n\
                seed = -3\n\
                bots = [\"rr\", \"rr-tigth\", { name = \"x\", kind = \"rr\", params = { fold = \"no\" } }]\n\
                paired = \"yes\"\n\
                [table]\n\
                big_blnd = 3\n\
                small_blind = -4\n";
    let config = write(d, "x.toml", text);
    let out = run_in(d, &["run", config.to_str().unwrap(), "--out", "never"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty() && !d.join("never").exists(), "nothing is played or written");
    let lines: Vec<&str> = stderr.lines().collect();
    let heads: Vec<String> = lines.iter().map(|l| l.split(" (").next().unwrap().to_string()).collect();
    let path = config.display().to_string();
    let expected = [
        format!("error: {path} has 7 errors:"),
        format!("  {path}:2: unknown field `gmaes`"),
        format!("  {path}:3: seed must be 0 or more"),
        format!("  {path}:4: unknown bot `rr-tigth` for holdem"),
        format!("  {path}:4: parameter `fold` of bot `x` must be array like [0.95, 0.80, 0.0, 0.0], not `\"no\"`"),
        format!("  {path}:5: invalid type: string \"yes\", expected a boolean"),
        format!("  {path}:7: unknown parameter `big_blnd` for the holdem table"),
        format!("  {path}:8: parameter `small_blind` of the holdem table must be in 0..=1000000, not -4"),
    ];
    assert_eq!(heads, expected, "{stderr}");
    assert!(lines[1].contains("(did you mean `games` or `game`?"), "{stderr}");
    assert!(lines[3].contains("(did you mean `rr-tight`?"), "{stderr}");
    assert!(lines[6].contains("(did you mean `big_blind`?"), "{stderr}");
    // Fixed one by one, the count goes down; with one left, it is one line as ever.
    let one = write(d, "one.toml", "game = \"holdem\"\nbots = [\"rr\"]\ngames = 10\ncolour = 3\n");
    let out = run_in(d, &["run", one.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: {}:4: unknown field `colour` (known: name,", one.display())),
        "{stderr}"
    );
    // Flags are checked the same way: several errors, no lines to name.
    let out = run_in(d, &["run", "--game", "holdem", "--bot", "rrr", "--bot", "always-cal", "--seats", "40"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    assert_eq!(lines[0], "error: the command line has 3 errors:");
    assert!(lines[1].starts_with("  unknown bot `rrr` for holdem (did you mean `rr`?"), "{stderr}");
    assert!(lines[2].starts_with("  unknown bot `always-cal` for holdem (did you mean `always-call`?"), "{stderr}");
    assert_eq!(lines[3], "  holdem is played by 2 to 10 seats, not 40");
}

/// Source markup in a help text, if any: rustdoc's links (`` [`Game::covariate`] ``, `[Arena]`,
/// `[crate::config]`), Markdown links and bold. clap takes the doc comments of the command line's
/// structs as the help, so a comment written for the code reads as noise on the terminal. Usage
/// placeholders (`[OPTIONS]`, `[CONFIG]`) and clap's own brackets (`[default: 10]`) are no markup.
fn markup(text: &str) -> Option<String> {
    for pattern in ["[`", "`]", "](", "**"] {
        if let Some(at) = text.find(pattern) {
            return Some(text[at.saturating_sub(30)..(at + 30).min(text.len())].to_string());
        }
    }
    // An intra-doc link: a bracketed path (`a::b`) or type name (`Arena`: a capital, then lower case).
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let inside = &after[..after.find(']').unwrap_or(0)];
        let path = !inside.is_empty() && inside.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':');
        let mut chars = inside.chars();
        let type_name =
            chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.next().is_some_and(|c| c.is_lowercase());
        if path && (inside.contains("::") || type_name) {
            return Some(format!("[{inside}]"));
        }
        rest = after;
    }
    None
}

/// Every subcommand's `-h` and `--help` (hidden ones too) reads as text, without the markup of the
/// doc comments clap takes them from.
#[test]
fn help_texts_carry_no_source_markup() {
    assert_eq!(
        markup("strength (decided: [`Game::covariate`]) with").as_deref(),
        Some("strength (decided: [`Game::covariate`]) with")
    );
    assert_eq!(markup("see [Arena] for it").as_deref(), Some("[Arena]"));
    assert_eq!(markup("see [crate::config] for it").as_deref(), Some("[crate::config]"));
    assert_eq!(markup("Usage: arena run [OPTIONS] [CONFIG] [default: 10] [possible values: a, b] [K/N]"), None);
    // The commands, found from the help itself: each lists its subcommands under `Commands:`.
    let mut commands: Vec<Vec<String>> = vec![vec![], vec!["protocol-bot".to_string()]];
    let mut checked = 0;
    while let Some(command) = commands.pop() {
        for flag in ["-h", "--help"] {
            let out = arena().args(&command).arg(flag).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(out.status.success() && text.contains("Usage: arena"), "{command:?} {flag}: {text}");
            if let Some(found) = markup(&text) {
                panic!("`arena {} {flag}` shows source markup: {found}", command.join(" "));
            }
            checked += 1;
            if flag == "--help" {
                let listed = text.lines().skip_while(|l| *l != "Commands:").skip(1).take_while(|l| l.starts_with("  "));
                // A name at the indent of the list; deeper lines continue a description.
                for line in listed.filter(|l| !l.starts_with("   ")) {
                    let name = line.split_whitespace().next().unwrap();
                    if name != "help" {
                        commands.push(command.iter().cloned().chain([name.to_string()]).collect());
                    }
                }
            }
        }
    }
    // The root, its 15 commands and protocol-bot, advise's five games; twice each.
    assert!(checked >= 2 * 22, "only {checked} help texts were read");
}

/// Whether `line` of stderr is a progress line (a run's, or a check's).
fn is_progress(line: &str) -> bool {
    line.starts_with("progress: ") || line.starts_with("checked ")
}

/// Every command that prints progress takes `-q` and then prints none: a run, its resume, the
/// gate's runs, a check of the records; merge and import take it too.
#[test]
fn quiet_silences_progress_wherever_it_is_printed() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let holdem = ["--game", "holdem", "--bot", "rr", "--bot", "rr-tight", "--paired", "--records", "moves"];
    let every = ["--progress-every", "0.01"];
    let owned = |parts: &[&[&str]]| -> Vec<String> { parts.concat().iter().map(|s| s.to_string()).collect() };
    let run = |folder: &str| owned(&[&["run"], &holdem, &["--games", "4000", "--out", folder], &every]);
    let resume = |folder: &str| owned(&[&["resume", folder, "--games", "8000"], &every]);
    write(d, "match.toml", "game = \"holdem\"\ngames = 4000\npaired = true\nbots = [\"rr\", \"rr-tight\"]\n");
    write(d, "gate.toml", "[[expect]]\nname = \"rr\"\nconfig = \"match.toml\"\nbot = \"rr\"\nwin_rate_lo = 0\n");
    let gate = |out: &str| owned(&[&["gate", "gate.toml", "--out", out], &every]);
    let check = |folder: &str| owned(&[&["replay", folder, "--check"], &every]);
    let commands: Vec<(&str, Vec<String>, Vec<String>)> = vec![
        // (Run twice, -q then --quiet: the second replaces the first.)
        ("run", run("loud"), [run("quiet"), vec!["--force".into()]].concat()),
        ("resume", resume("loud"), resume("quiet")),
        ("gate", gate("gate-loud"), gate("gate-quiet")),
        ("replay --check", check("loud"), check("quiet")),
    ];
    for (name, loud, quiet) in commands {
        let out = run_in(d, &loud);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(stderr.lines().any(is_progress), "{name} prints no progress to silence: {stderr}");
        for flag in ["-q", "--quiet"] {
            let out = run_in(d, &[&quiet[..], &[flag.to_string()]].concat());
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{name} {flag}: {stderr}");
            assert!(!stderr.lines().any(is_progress), "{name} {flag} prints progress: {stderr}");
            assert!(!out.stdout.is_empty(), "{name} {flag}: the result is still printed");
        }
    }
    // Merge and import take it as well, and print no progress.
    for k in ["1", "2"] {
        let shard = run_in(d, &[run(&format!("shard{k}")), owned(&[&["--shard", &format!("{k}/2"), "-q"]])].concat());
        assert!(shard.status.success(), "{}", String::from_utf8_lossy(&shard.stderr));
    }
    let acpc = crate::common::project("tests/data/acpc");
    let (a, b) = (acpc.join("dupA.log"), acpc.join("dupB.log"));
    for args in [
        vec!["merge", "shard1", "shard2", "--out", "merged", "-q"],
        vec!["import", "acpc", a.to_str().unwrap(), b.to_str().unwrap(), "--out", "imported", "-q"],
    ] {
        let out = run_in(d, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(!stderr.lines().any(is_progress), "{args:?}: {stderr}");
    }
}
