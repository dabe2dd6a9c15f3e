//! `arena bench --instructions`: instructions a game, counted by valgrind's callgrind in a child
//! `arena run`, without and with records.jsonl; a clear error when valgrind is missing.

use crate::common::arena;

/// The figures of `arena bench --instructions FILTER --games N`: (name, value, unit) a line.
fn figures(filter: &str, games: &str) -> Vec<(String, f64, String)> {
    let out = arena().args(["bench", "--instructions", filter, "--games", games]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|line| {
            let words: Vec<&str> = line.splitn(3, ' ').collect();
            assert_eq!(words.len(), 3, "name value unit: {line}");
            (words[0].to_string(), words[1].parse().unwrap(), words[2].to_string())
        })
        .collect()
}

#[test]
fn without_valgrind_on_path_it_says_so_in_one_line() {
    let out = arena().args(["bench", "--instructions", "holdem"]).env("PATH", "/nonexistent").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.starts_with("error: ") && said.contains("valgrind is not on PATH"), "{said}");
    assert!(out.stdout.is_empty());
}

#[test]
fn games_without_instructions_and_an_unknown_game_are_refused() {
    let out = arena().args(["bench", "--games", "100"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "--games is --instructions' own");
    let out = arena().args(["bench", "--instructions", "chess", "--games", "100"]).env("PATH", "").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The figures name their unit, records cost more than none, and a second count gives the same
/// figures (what a count is for, on a machine whose load moves the seconds): the same within what
/// the start-up's clock calibration varies by, which loops for a time and so for a number of
/// instructions that varies run to run (up to 200,000 in all here; spread over 900 games, about
/// 220 a game each way, a percent of a zhajinhua game).
#[test]
fn instructions_a_game_are_counted_with_and_without_records_and_repeat() {
    let valgrind = std::process::Command::new("valgrind").arg("--version").output();
    if !valgrind.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: valgrind is not on PATH");
        return;
    }
    let first = figures("zhajinhua", "1000");
    let names: Vec<&str> = first.iter().map(|(name, _, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "instructions.zhajinhua_per_game",
            "instructions.zhajinhua_moves_per_game",
            "instructions.zhajinhua_moves_vs_csv"
        ]
    );
    assert_eq!(first[0].2, "instructions/game");
    assert_eq!(first[1].2, "instructions/game");
    assert_eq!(first[2].2, "%");
    assert!(first[0].1 > 1000.0 && first[1].1 > first[0].1, "{first:?}");
    assert!((first[2].1 - 100.0 * first[1].1 / first[0].1).abs() < 0.1, "{first:?}");
    let second = figures("zhajinhua", "1000");
    for (a, b) in first.iter().zip(&second).take(2) {
        assert!((a.1 - b.1).abs() <= 2.0 * 200_000.0 / 900.0, "{a:?} then {b:?}");
    }
}
