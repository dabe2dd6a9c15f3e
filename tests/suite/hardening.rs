//! Every reproducer of the hardening review: hostile or careless input is refused with one line on
//! stderr and exit code 2 (never a panic, never a silently wrong result), and the outputs are
//! clean.

use std::process::Output;

use crate::common::{arena, write};
use tempfile::TempDir;

/// Runs `arena ARGS` in `dir`.
fn run_in(dir: &std::path::Path, args: &[&str]) -> Output {
    arena().current_dir(dir).args(args).output().unwrap()
}

/// The command failed with exit 2 and one short line on stderr containing `expected`.
fn refused(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line, got {stderr}");
    assert!(stderr.starts_with("error: ") && stderr.len() < 400, "{stderr}");
    assert!(stderr.contains(expected), "expected `{expected}` in {stderr}");
}

fn succeeded(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn card_strings_ending_in_any_character_never_panic() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let out = succeeded(&run_in(d, &["advise", "holdem", "--hole", "A♠K♠", "--trials", "1000"]));
    assert!(out.contains("hole AsKs"), "{out}");
    refused(&run_in(d, &["advise", "zhajinhua", "--hand", "é"]), "bad card `é`");
    succeeded(&run_in(d, &["advise", "stud", "--me", "A♠ KD", "--opponent", "XX QC"]));
    refused(&run_in(d, &["advise", "holdem", "--hole", &"Z".repeat(100_000)]), "…`");
    // Suit first (HA) and ten as 10 or T, in any game.
    let out = succeeded(&run_in(d, &["advise", "zhajinhua", "--hand", "HA SA D10"]));
    assert!(out.contains("Ah As Td"), "{out}");
}

#[test]
fn runs_too_large_to_play_are_refused_before_any_game() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut forty = vec!["run", "--game", "holdem", "--games", "1"];
    forty.extend(std::iter::repeat_n(["--bot", "random"], 40).flatten());
    refused(&run_in(d, &forty), "847660528 tables of bots");
    let bots: Vec<String> = (0..60).map(|i| format!("{{ name = \"r{i}\", kind = \"random\" }}")).collect();
    let sixty =
        write(d, "sixty.toml", &format!("game = \"stud\"\ngames = 10\nseats = 5\nbots = [{}]\n", bots.join(", ")));
    refused(&run_in(d, &["run", sixty.to_str().unwrap()]), "tables of bots is more than the limit");
    refused(
        &run_in(d, &["run", "--game", "gomoku", "--bot", "random", "--bot", "random", "--threads", "65535"]),
        "--threads",
    );
    let three = ["run", "--game", "gomoku", "--bot", "random", "--bot", "weights", "--bot", "random-adjacent"];
    let mut huge = three.to_vec();
    huge.extend(["--games", "6148914691236517206"]);
    refused(&run_in(d, &huge), "more than 2^64");
}

#[test]
fn values_that_would_overflow_or_are_not_numbers_are_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let config = |name: &str, text: &str| write(d, name, text).to_str().unwrap().to_string();
    let zhj = config(
        "zhj.toml",
        "game = \"zhajinhua\"\nbots = [\"ev\", \"random\"]\n[table]\nstakes = [1, 9000000000000000000]\n",
    );
    refused(&run_in(d, &["run", &zhj]), "zhj.toml:4: parameter `stakes` of the zhajinhua table must be in 1..=1000000");
    let stud = config("stud.toml", "game = \"stud\"\nseats = 5\nbots = [\"expert\"]\n[table]\nstack = 4000000000\n");
    refused(&run_in(d, &["run", &stud]), "stud.toml:5: parameter `stack`");
    refused(
        &run_in(d, &["stats", "--penta", "1,1,1,1,18446744073709551615", "--elo0", "0", "--elo1", "5"]),
        "limit of 2^53",
    );
    let many = "1m ".repeat(256);
    refused(&run_in(d, &["advise", "mahjong", "--hand", &many]), "more than 4 copies of 1m");
    for (kind, param) in [("rr", "raise_pot = nan"), ("rr", "protect_bb = inf"), ("rr", "trials = -3")] {
        let text = format!(
            "game = \"holdem\"\nbots = [{{ name = \"x\", kind = \"{kind}\", params = {{ {param} }} }}, \"random\"]\n"
        );
        refused(&run_in(d, &["run", &config("p.toml", &text)]), "p.toml:2: parameter");
    }
    for param in ["horizon = nan", "raise_min_p = 2.0", "look_bias = -inf"] {
        for kind in ["ev", "ev-adaptive"] {
            let text = format!(
                "game = \"zhajinhua\"\nbots = [{{ name = \"x\", kind = \"{kind}\", params = {{ {param} }} }}]\n"
            );
            refused(&run_in(d, &["run", &config("p.toml", &text)]), "p.toml:2: parameter");
        }
    }
    for (kind, param) in [
        ("expectimax", "decay = nan"),
        ("expectimax", "win_bonus = inf"),
        ("expectimax", "depth = 9"),
        ("pruned", "accuracy = -0.5"),
        ("pruned", "w_pung = nan"),
        ("pruned", "danger_simple = 1e300"),
        ("pruned", "samples = 1000000"),
    ] {
        let text =
            format!("game = \"mahjong\"\nbots = [{{ name = \"x\", kind = \"{kind}\", params = {{ {param} }} }}]\n");
        refused(&run_in(d, &["run", &config("p.toml", &text)]), "p.toml:2: parameter");
    }
    // Inside every range, yet a tree no game would finish: depth 8 over 32 cells.
    let search = config(
        "s.toml",
        "game = \"gomoku\"\nbots = [{ name = \"x\", kind = \"search\", params = { depth = 8, width = 32 } }]\n",
    );
    refused(&run_in(d, &["run", &search]), "width^depth = 32^8 is more than 16777216 positions a move");
    let exact = config(
        "e.toml",
        "game = \"stud\"\nbots = [{ name = \"x\", kind = \"expert\", params = { exact_max = 9223372036854775000 } }]\n",
    );
    refused(&run_in(d, &["run", &exact]), "exact_max");
}

#[test]
fn gate_criteria_must_be_real_numbers() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let repo = env!("CARGO_MANIFEST_DIR");
    for criterion in [
        "win_rate_lo = nan",
        "win_rate_lo = -inf",
        "payoff_lo = nan",
        "payoff_lo = \"nan points/game\"",
        "tolerance = -1.0",
    ] {
        let text = format!(
            "[[expect]]\nname = \"x\"\nconfig = \"{repo}/configs/gate/gomoku-weights-random.toml\"\nbaseline = \"{repo}/results/baselines/gomoku-weights-random.csv\"\n{criterion}\n"
        );
        let gate = write(d, "gate.toml", &text);
        refused(&run_in(d, &["gate", gate.to_str().unwrap()]), "must be a finite number");
    }
}

/// An SPRT runs the test its bounds name, or nothing: bounds of two tests, a model that is not the
/// bounds' test, half a pair and SPRT flags without bounds are refused, with the line at fault.
#[test]
fn an_sprt_is_the_test_its_bounds_name_or_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let head = "game = \"holdem\"\nbots = [\"rr-loose\", \"rr\"]\n[sprt]\n";
    for (sprt, expected) in [
        ("elo0 = 0\npayoff1 = 1\n", "c.toml:5: elo0/elo1 and payoff0/payoff1 are the bounds of two different tests"),
        ("payoff0 = 0\npayoff1 = 1\nelo1 = 5\n", "c.toml:4: elo0/elo1 and payoff0/payoff1"),
        (
            "payoff0 = 0\npayoff1 = 1\nmodel = \"normalized\"\n",
            "c.toml:6: model = \"normalized\" contradicts payoff0/payoff1",
        ),
        (
            "elo0 = 0\nelo1 = 5\nmodel = \"payoff\"\n",
            "c.toml:6: model = \"payoff\" takes its bounds as payoff0/payoff1",
        ),
        ("payoff0 = 0\n", "c.toml:4: payoff0 needs payoff1 too"),
        ("model = \"logistic\"\n", "c.toml:3: the SPRT needs its bounds"),
        ("payoff0 = 1\npayoff1 = 0\n", "c.toml:4: the SPRT needs payoff0 < payoff1"),
        // The unit, when written, must be the test's: payoff bounds are in the verdict's unit.
        (
            "payoff0 = 0\npayoff1 = 1\nunit = \"bb a hand\"\n",
            "c.toml:6: unit = \"bb a hand\" is not this test's unit: its bounds are in bb/100",
        ),
    ] {
        let c = write(d, "c.toml", &format!("{head}{sprt}"));
        refused(&run_in(d, &["run", c.to_str().unwrap()]), expected);
    }
    // The same in a gate's expectation, at its line.
    write(d, "m.toml", "game = \"holdem\"\nbots = [\"rr-loose\", \"rr\"]\n");
    let gate =
        write(d, "g.toml", "[[expect]]\nname = \"x\"\nconfig = \"m.toml\"\n\nsprt = { elo0 = 0, payoff1 = 1 }\n");
    refused(&run_in(d, &["gate", gate.to_str().unwrap()]), "g.toml:5: expectation `x`: elo0/elo1 and payoff0/payoff1");
    // `arena stats`: SPRT flags without bounds, and flags of two tests.
    refused(&run_in(d, &["stats", "--tri", "1,2,3", "--model", "payoff"]), "the SPRT needs its bounds");
    refused(&run_in(d, &["stats", "--tri", "1,2,3", "--alpha", "0.1"]), "the SPRT needs its bounds");
    refused(
        &run_in(d, &["stats", "--tri", "1,2,3", "--elo0", "0", "--elo1", "5", "--model", "payoff"]),
        "--model payoff takes its bounds as --payoff0/--payoff1",
    );
    refused(&run_in(d, &["stats", "--tri", "1,2,3", "--payoff0", "0", "--payoff1", "5"]), "use --run DIR");
}

#[test]
fn paths_and_files_stay_where_they_belong() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for name in ["../../bot-arena-escaped", "/tmp/bot-arena-escaped", "a/b"] {
        let c = write(d, "n.toml", &format!("name = \"{name}\"\ngame = \"gomoku\"\nbots = [\"random\"]\n"));
        refused(&run_in(d, &["run", c.to_str().unwrap()]), "n.toml:1: bad run name");
    }
    refused(&run_in(d, &["run", "/dev/zero"]), "not a regular file");
    // `stats --run` on a games.csv with a game's rows deleted says so; with one seat's row
    // deleted it refuses the file.
    succeeded(&run_in(
        d,
        &["run", "--game", "gomoku", "--bot", "random", "--bot", "weights", "--games", "10", "--out", "r"],
    ));
    let games = std::fs::read_to_string(d.join("r/games.csv")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    lines.drain(7..9); // game 3, both seats
    std::fs::write(d.join("r/games.csv"), lines.join("\n") + "\n").unwrap();
    let out = succeeded(&run_in(d, &["stats", "--run", "r"]));
    assert!(out.starts_with("run: partial") && out.contains("9 of 10 games read"), "{out}");
    lines.remove(7); // one seat of game 4
    std::fs::write(d.join("r/games.csv"), lines.join("\n") + "\n").unwrap();
    refused(&run_in(d, &["stats", "--run", "r"]), "out of order");
    refused(&run_in(d, &["run", "/"]), "not a regular file");
    assert!(!std::path::Path::new("/tmp/bot-arena-escaped").exists());
    assert!(!d.parent().unwrap().parent().unwrap().join("bot-arena-escaped").exists());
}

#[test]
fn errors_are_one_line_and_point_at_the_right_place() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    refused(
        &run_in(d, &["run", "--game", "gomoku", "--bot", "random", "--games", "-1"]),
        "--games must be at least 1, not -1",
    );
    refused(&run_in(d, &["run", "--bogus"]), "unexpected argument '--bogus' found; try --help");
    // A command without its subcommand: the help on stdout, one error line on stderr.
    for args in [&[][..], &["advise"][..]] {
        let out = run_in(d, args);
        refused(&out, "a command is needed");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: arena"), "{args:?}");
    }
    refused(&run_in(d, &["stats", "--tri", "1,2"]), "--tri needs 3");
    let long = format!("--{}", "x".repeat(100_000));
    refused(&run_in(d, &["run", &long]), "…");
    refused(&run_in(d, &["run", "--game", "go\nmoku", "--bot", "random"]), "unknown game `go\\nmoku`");
    let c = write(d, "c.toml", "game = \"gomoku\"\ngames = 10\nbots = [\"random\"]\n");
    refused(&run_in(d, &["run", c.to_str().unwrap(), "--games", "0"]), "--games must be at least 1");
    let t = write(d, "t.toml", "game = \"holdem\"\nbots = [\"random\"]\n\n[table]\nformat = \"cash\"\nbig_blind = 0\n");
    refused(&run_in(d, &["run", t.to_str().unwrap()]), "t.toml:6: parameter `big_blind`");
    let gate = format!("{}/configs/ci-gate.toml", env!("CARGO_MANIFEST_DIR"));
    refused(&run_in(d, &["run", &gate]), "run it with `arena gate FILE`");
    // A bad value in a local roster is blamed on the roster's own line.
    std::fs::create_dir(d.join("bots")).unwrap();
    write(
        &d.join("bots"),
        "gomoku.toml",
        "[mine]\nkind = \"weights\"\nabout = \"x\"\n\n[broken]\nkind = \"weights\"\nparams = { own = \"x\" }\n",
    );
    let b = write(d, "b.toml", "game = \"gomoku\"\nbots = [\"broken\", \"random\"]\n");
    refused(&run_in(d, &["run", b.to_str().unwrap()]), "bots/gomoku.toml:5: parameter `own`");
}

/// A command missing a required argument names it, on its one line: clap's message spans lines
/// (the missing arguments are listed under it), and the line keeps them all.
#[test]
fn a_missing_argument_is_named() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (args, missing) in [
        (&["gate"][..], "<GATE>"),
        (&["resume"], "<DIR>"),
        (&["merge"], "<DIR>..."),
        (&["report"], "<DIRS|--history <FILE>>"),
        (&["play"], "--bot <BOTS>, <GAME>"),
        (&["play", "holdem"], "--bot <BOTS>"),
        (&["brain"], "<GAME>"),
        (&["advise", "holdem"], "--hole <HOLE>"),
        (&["advise", "stud"], "--me <ME>, --opponent <OPPONENTS>"),
        (&["advise", "zhajinhua"], "--hand <HAND>"),
    ] {
        let out = arena().current_dir(d).args(args).stdin(std::process::Stdio::null()).output().unwrap();
        refused(&out, &format!("error: the following required arguments were not provided: {missing}; try --help"));
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
    // The values clap lists under an invalid one stay on the line too.
    refused(
        &run_in(d, &["run", "x.toml", "--records", "zz"]),
        "for '--records <RECORDS>' [possible values: csv, gz, moves, moves-gz, none]",
    );
}

/// A refusal is one line on stderr and nothing else: no header, note or verdict printed before it
/// (and no file changed by it).
#[test]
fn refusals_come_before_any_output() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let nothing_but = |out: Output, expected: &str| {
        refused(&out, expected);
        assert!(out.stdout.is_empty(), "{expected}: stdout {}", String::from_utf8_lossy(&out.stdout));
    };
    let c =
        write(d, "c.toml", "game = \"gomoku\"\ngames = 8\npaired = true\nbots = [\"random\", \"random-adjacent\"]\n");
    let c = c.to_str().unwrap();
    // run: a game without hand histories, and one bot (its note) into a path that is a file.
    let stud = write(d, "stud.toml", "game = \"stud\"\ngames = 8\nbots = [\"random\", \"always-call\"]\n");
    nothing_but(
        run_in(d, &["run", stud.to_str().unwrap(), "--hand-history", "--out", "hh"]),
        "stud has no hand-history format",
    );
    write(d, "mine.txt", "");
    let one = run_in(d, &["run", "--game", "gomoku", "--bot", "random", "--games", "2", "--out", "mine.txt"]);
    nothing_but(one, "mine.txt");
    // merge: an unfinished shard, refused before the merged run's header.
    for k in ["1", "2"] {
        succeeded(&run_in(d, &["run", c, "--quiet", "--shard", &format!("{k}/2"), "--out", &format!("shard{k}")]));
    }
    let manifest = d.join("shard2/run.json");
    let text = std::fs::read_to_string(&manifest).unwrap().replace("\"complete\"", "\"running\"");
    std::fs::write(&manifest, text).unwrap();
    let games = std::fs::read(d.join("shard2/games.csv")).unwrap();
    std::fs::write(d.join("shard2/games.csv"), &games[..games.len() / 2]).unwrap();
    nothing_but(run_in(d, &["merge", "shard1", "shard2", "--out", "merged"]), "is unfinished");
    // resume: a changed config, refused before the run's header.
    let config = d.join("shard2/config.toml");
    std::fs::write(&config, std::fs::read_to_string(&config).unwrap().replace("seed = 1", "seed = 2")).unwrap();
    nothing_but(run_in(d, &["resume", "shard2"]), "config.toml no longer matches");
    // resume --games of a run that kept no games: refused, and its config.toml left as it was.
    succeeded(&run_in(d, &["run", c, "--quiet", "--records", "none", "--out", "none"]));
    let before = std::fs::read(d.join("none/config.toml")).unwrap();
    nothing_but(run_in(d, &["resume", "none", "--games", "20"]), "kept no games");
    assert_eq!(std::fs::read(d.join("none/config.toml")).unwrap(), before, "the refused resume changed config.toml");
    // stats --run: an Elo SPRT of a four-seat run, refused before the line on the folder.
    let m = write(d, "m.toml", "game = \"mahjong\"\ngames = 1\nbots = [\"greedy\", \"random\"]\nseats = 4\n");
    succeeded(&run_in(d, &["run", m.to_str().unwrap(), "--quiet", "--out", "mahjong"]));
    nothing_but(
        run_in(d, &["stats", "--run", "mahjong", "--elo0", "0", "--elo1", "5"]),
        "count independent games or pairs",
    );
    // gate: an expectation whose folder is a file, refused before any verdict.
    let gate = write(
        d,
        "g.toml",
        "[[expect]]\nname = \"a\"\nconfig = \"c.toml\"\nwin_rate_lo = 0\n[[expect]]\nname = \"b\"\nconfig = \"c.toml\"\nwin_rate_lo = 0\n",
    );
    std::fs::create_dir_all(d.join("gates")).unwrap();
    write(&d.join("gates"), "b", "mine");
    nothing_but(run_in(d, &["gate", gate.to_str().unwrap(), "--out", "gates"]), "gates/b");
}

/// A roster file is checked whole when it is loaded: a variant with a misspelt parameter or an
/// unknown kind is refused at its line even when the run uses another variant.
#[test]
fn a_roster_is_checked_whole() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("bots")).unwrap();
    let c = write(d, "c.toml", "game = \"gomoku\"\ngames = 2\nbots = [\"mine\", \"random\"]\n");
    let c = c.to_str().unwrap();
    let good = "[mine]\nkind = \"weights\"\n\n";
    for (variant, expected) in [
        (
            "[typo]\nkind = \"weights\"\nparams = { onw = [1, 2, 8, 32, 128] }\n",
            "bots/gomoku.toml:4: unknown parameter `onw` for bot `typo`",
        ),
        ("[ghost]\nkind = \"wieghts\"\n", "bots/gomoku.toml:4: [ghost]: unknown bot `wieghts` for gomoku"),
        (
            "[a]\nkind = \"b\"\n[b]\nkind = \"a\"\n",
            "bots/gomoku.toml:4: [a]: roster entries build on each other in a cycle",
        ),
        ("[shy]\nkind = \"weights\"\nparams = { own = \"x\" }\n", "bots/gomoku.toml:4: parameter `own` of bot `shy`"),
        // A variant built on another: its parameters are checked against the kind underneath.
        (
            "[deep]\nkind = \"mine\"\nparams = { depth = 3 }\n",
            "bots/gomoku.toml:4: unknown parameter `depth` for bot `deep`",
        ),
    ] {
        write(&d.join("bots"), "gomoku.toml", &format!("{good}{variant}"));
        refused(&run_in(d, &["run", c, "--out", "r"]), expected);
        refused(&run_in(d, &["list", "gomoku"]), expected);
    }
    write(&d.join("bots"), "gomoku.toml", good);
    succeeded(&run_in(d, &["run", c, "--quiet", "--out", "r"]));
}

/// One name is one bot: a config that lists two different bots under one name (an inline bot
/// named like a roster variant or a kind, beside it) is refused with both places, where it used to
/// rename one of them `name#2`. The same bot listed twice is one bot in two seats.
#[test]
fn one_name_is_one_bot() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let head = "game = \"holdem\"\ngames = 2\nbots = [\n";
    let inline = "  { name = \"rr-tight\", kind = \"rr\", params = { trials = 200 } },\n";
    for (bots, expected) in [
        (
            format!("{inline}  \"rr-tight\",\n]\n"),
            "c.toml:5: two different bots are named `rr-tight`: the roster's `rr-tight` (bots/holdem.toml (built in):3) and, at line 4, an inline bot of kind `rr`",
        ),
        (
            format!("  \"rr-tight\",\n  \"random\",\n{inline}]\n"),
            "c.toml:6: two different bots are named `rr-tight`: an inline bot of kind `rr` and, at line 4, the roster's `rr-tight` (bots/holdem.toml (built in):3)",
        ),
        (
            "  { name = \"rr\", kind = \"rr\", params = { trials = 200 } },\n  \"rr\",\n]\n".to_string(),
            "c.toml:5: two different bots are named `rr`: the kind `rr` and, at line 4, an inline bot of kind `rr`",
        ),
        (
            "  { name = \"x\", kind = \"rr-loose\" },\n  { name = \"x\", kind = \"rr\" },\n]\n".to_string(),
            "c.toml:5: two different bots are named `x`: an inline bot of kind `rr` and, at line 4, an inline bot built on the roster's `rr-loose` (bots/holdem.toml (built in):8)",
        ),
    ] {
        let c = write(d, "c.toml", &format!("{head}{bots}"));
        refused(&run_in(d, &["run", c.to_str().unwrap(), "--out", "r"]), expected);
    }
    // The same bot twice (as a name and inline with the same parameters) is one bot in two seats.
    let same =
        "  \"rr-fast\",\n  { name = \"rr-fast\", kind = \"rr\", params = { trials = 200 } },\n  \"random\",\n]\n";
    let c = write(d, "c.toml", &format!("{head}{same}"));
    let out = succeeded(&run_in(d, &["run", c.to_str().unwrap(), "--out", "same"]));
    assert!(out.contains("\nrr-fast ") && !out.contains("rr-fast#2"), "{out}");
}

#[test]
fn names_are_safe_to_print_and_to_open_in_a_spreadsheet() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for name in ["=cmd|' /C calc'!A0", "two\\nlines", "-x", "+1", "@sum"] {
        let c =
            write(d, "n.toml", &format!("game = \"gomoku\"\nbots = [{{ name = \"{name}\", kind = \"random\" }}]\n"));
        refused(&run_in(d, &["run", c.to_str().unwrap()]), "bad bot name");
    }
}

#[test]
fn usage_traps_are_closed() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // --hand-history for a game without hand histories: refused, nothing written.
    let out =
        run_in(d, &["run", "--game", "stud", "--bot", "random", "--bot", "random", "--hand-history", "--out", "hh"]);
    refused(&out, "stud has no hand-history format");
    assert!(!d.join("hh/history").exists());
    // One bot plays itself, and says so.
    let out = run_in(d, &["run", "--game", "gomoku", "--bot", "random", "--games", "2", "--out", "one"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("plays itself"));
    // The same default number of games for flags and files.
    let file = write(d, "nogames.toml", "game = \"gomoku\"\nbots = [\"random\", \"random-adjacent\"]\n");
    let a = succeeded(&run_in(d, &["run", file.to_str().unwrap(), "--out", "a"]));
    let b = succeeded(&run_in(
        d,
        &["run", "--game", "gomoku", "--bot", "random", "--bot", "random-adjacent", "--out", "b"],
    ));
    assert!(a.contains(": 100 games of gomoku") && b.contains(": 100 games of gomoku"), "{a}\n{b}");
    // A local roster adds to the built-in one.
    std::fs::create_dir(d.join("bots")).unwrap();
    write(&d.join("bots"), "gomoku.toml", "[mine]\nkind = \"weights\"\n");
    let out = run_in(
        d,
        &["run", "--game", "gomoku", "--bot", "mine", "--bot", "weights-defensive", "--games", "2", "--out", "r"],
    );
    succeeded(&out);
}

#[test]
fn one_notation_for_cards_and_flags_in_every_csv() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    succeeded(&run_in(
        d,
        &["run", "--game", "holdem", "--bot", "random", "--bot", "always-call", "--games", "4", "--out", "h"],
    ));
    succeeded(&run_in(
        d,
        &["run", "--game", "zhajinhua", "--bot", "random", "--bot", "ev", "--games", "4", "--out", "z"],
    ));
    let holdem = std::fs::read_to_string(d.join("h/games.csv")).unwrap();
    let row: Vec<&str> = holdem.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[9].len(), 5, "hole cards as `Qs 8c`: {}", row[9]);
    let zhj = std::fs::read_to_string(d.join("z/games.csv")).unwrap();
    let row: Vec<&str> = zhj.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[9].len(), 8, "a hand as `Qs 6s 2s`: {}", row[9]);
    for csv in [&holdem, &zhj] {
        assert!(!csv.contains("true") && !csv.contains("false"), "flags are 1/0: {csv}");
    }
}

/// A reader that goes away ends the command quietly, with 141 (128 + SIGPIPE, as a shell
/// reported it when the signal ended the command) and nothing on stderr: no panic, no "failed
/// printing to stdout". The signal itself is ignored (a bot's closed pipe must not end a run),
/// so this is the command line's own doing.
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    use std::process::Stdio;
    let closed = || {
        let mut child = arena().args(["list"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take()); // the reader goes away at once, like `arena list | head -0`
        child.wait_with_output().unwrap()
    };
    // A child that another test forks at this moment holds a copy of the read end until it execs
    // (close-on-exec), so `list` may find a reader for a moment and exit 0; not five times over.
    let mut output = closed();
    for _ in 0..4 {
        if output.status.code() != Some(0) || !output.stderr.is_empty() {
            break;
        }
        output = closed();
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    // A reader that takes a line and goes, on outputs small and large.
    let exe = env!("CARGO_BIN_EXE_arena");
    for args in ["list", "list holdem", "stats --tri 30,10,60"] {
        let pipeline = format!("'{exe}' {args} | head -1");
        let output = std::process::Command::new("sh").args(["-c", &pipeline]).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert!(output.status.success() && stdout.lines().count() == 1, "{args}: {stdout}");
        assert!(stderr.is_empty(), "{args}: {stderr}");
    }
}

/// `arena advise gomoku` refuses a position it cannot read or that is over, one line each.
#[test]
fn gomoku_adviser_refuses_bad_positions() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let advise = |moves: &str, more: &[&str]| {
        let mut args = vec!["advise", "gomoku", "--moves", moves];
        args.extend(more);
        run_in(d, &args)
    };
    refused(&advise("7,7 8,8 7,7", &[]), "--moves: move 3: 7,7 is taken");
    refused(&advise("7,7 15,0", &[]), "--moves: move 2: 15,0 is off the 15x15 board");
    refused(&advise("3,3 8,8", &["--size", "7"]), "--moves: move 2: 8,8 is off the 7x7 board");
    refused(&advise("7,7 8;8", &[]), "--moves: `8;8` is not a gomoku move (x,y from 0, e.g. 7,7)");
    refused(&advise("7,7 -1,2", &[]), "`-1,2` is not a gomoku move");
    refused(&advise("0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0", &[]), "move 9: 4,0 ends the game: black makes five");
    refused(&advise("7,7", &["--size", "26"]), "parameter `size`");
    refused(&advise("7,7", &["--rule", "go"]), "parameter `rule`");
    refused(&advise("7,7", &["--bot", "search"]), "follows weights and its variants, not `search`");
    refused(&advise("7,7", &["--param", "own=[1,2]"]), "must list 5 weights");
    refused(&advise("7,7", &["--top", "0"]), "--top");
    // A full 5x5 board without a five (13 black stones, 12 white): no move is left.
    let full = "0,0 0,1 0,2 1,0 0,3 1,1 0,4 1,2 1,3 2,0 1,4 2,3 2,1 2,4 2,2 3,3 3,0 3,4 3,1 4,0 3,2 4,1 4,2 4,4 4,3";
    refused(&advise(full, &["--size", "5"]), "move 25: no empty cell is left");
}
