//! Start-up: no command pays for building tables. Each command with a trivial answer must take
//! about as long as `arena --version`: the fastest of several runs of each (the fastest run is the
//! one the machine's other work disturbed least), compared as a ratio, not an absolute time. The
//! runs of `--version` and of the commands alternate, so that both see the same load: the other
//! tests of this binary run at the same time.
//!
//! Built at run time, the hold'em evaluator's tables cost about 80 ms and the shanten tables
//! several hundred: dozens of times a trivial command. Run in release builds only (in debug
//! builds, unoptimised code is what is slow).

use std::time::{Duration, Instant};

use crate::common::arena;

/// How long one run of `arena args...` takes; it must succeed.
fn time(args: &[&str]) -> Duration {
    let start = Instant::now();
    let out = arena().args(args).output().unwrap();
    let took = start.elapsed();
    assert!(out.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    took
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn commands_with_a_trivial_answer_start_as_fast_as_a_trivial_command() {
    const RUNS: usize = 7;
    // Generous: the tables built at start cost 10 to 100 times this.
    const SLACK: f64 = 5.0;
    let commands: [&[&str]; 7] = [
        &["list"],
        &["advise", "holdem", "--hole", "AhAs", "--board", "2c 7d 9h Js 3c", "--vs", "KdKc"],
        &["advise", "stud", "--me", "8S 10D 10S 8H 8C", "--opponent", "XX 3C 5D 4H 6H"],
        &["advise", "zhajinhua", "--hand", "AS AH KD"],
        &["advise", "mahjong", "--hand", "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E C | C"],
        &["advise", "mahjong", "--hand", "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C"],
        &["advise", "gomoku", "--moves", "7,7 8,8 7,8", "--explain"],
    ];
    // The fastest of RUNS runs of each, in rounds: `--version`, then each command.
    let mut trivial = Duration::MAX;
    let mut fastest = [Duration::MAX; 7];
    for _ in 0..RUNS {
        trivial = trivial.min(time(&["--version"]));
        for (args, best) in commands.iter().zip(&mut fastest) {
            *best = (*best).min(time(args));
        }
    }
    for (args, took) in commands.iter().zip(fastest) {
        let ratio = took.as_secs_f64() / trivial.as_secs_f64();
        assert!(
            ratio < SLACK,
            "arena {args:?} took {took:?}, {ratio:.1} times `arena --version` ({trivial:?}): more than {SLACK}"
        );
    }
}
