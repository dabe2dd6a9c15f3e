//! The end-to-end contest: heads-up always-call hold'em hands, rs_poker 5.0's arena (in process,
//! no historian, nothing written) against the real `arena run` spawned as a process (timed from
//! spawn to exit, so start-up, dealing, the bots, the records and the CSV files are all in it).
//!
//! Both play no-limit hold'em with blinds 50/100 and stacks of 10,000 (`arena run --game
//! holdem`'s defaults), a fresh hand each time. bot-arena is run three ways: games.csv on one
//! thread, `--records none` on one thread, games.csv on two threads. A fourth way measures the
//! machine rather than the runner: two one-thread `--records none` runs started together, whose
//! combined rate against one such run alone is the most any two threads get from these two
//! cores (on a virtual machine, two cores may be one core's two hardware threads, or share it
//! with other machines). A round runs rs_poker and the four ways once each, the order rotating
//! from round to round; the figures are the medians over the rounds of each way's time and of the
//! per-round ratios.
//!
//! `ARENA_PEER_HANDS` (default 1,000,000) and `ARENA_PEER_ROUNDS` (default 5) choose the size, for
//! a quick check: `ARENA_PEER_HANDS=20000 ARENA_PEER_ROUNDS=3 cargo bench --features peers --bench
//! peers -- arena`.

use std::future::Future;
use std::path::Path;
use std::pin::pin;
use std::process::Command;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use bot_arena::tournament::progress::thousands;
use rs_poker::arena::agent::CallingAgent;
use rs_poker::arena::game_state::Round;
use rs_poker::arena::{Agent, GameStateBuilder, HoldemSimulationBuilder};

use super::median;

const SMALL_BLIND: f32 = 50.0;
const BIG_BLIND: f32 = 100.0;
const STACK: f32 = 10_000.0;

/// One way of running the contest: rs_poker, or `arena run` with these arguments.
#[derive(Clone, Copy)]
enum Way {
    RsPoker,
    Ours {
        threads: usize,
        records: &'static str,
    },
    /// Two one-thread `--records none` runs at once.
    Pair,
}

const WAYS: [Way; 5] = [
    Way::RsPoker,
    Way::Ours { threads: 1, records: "csv" },
    Way::Ours { threads: 1, records: "none" },
    Way::Ours { threads: 2, records: "csv" },
    Way::Pair,
];
const RS_POKER: usize = 0;
const CSV_1: usize = 1;
const NONE_1: usize = 2;
const CSV_2: usize = 3;
const PAIR: usize = 4;

/// What a side's hands came to, to check that both played the same game `hands` times.
#[derive(Debug, PartialEq)]
struct Tally {
    hands: u64,
    /// Hands that ended in a split pot: a property of the game alone (two random hands and a
    /// board, always shown down), so the two sides' rates must agree within sampling error.
    splits: u64,
}

pub fn contest() {
    let hands = env_number("ARENA_PEER_HANDS", 1_000_000);
    let rounds = env_number("ARENA_PEER_ROUNDS", 5) as usize;
    assert!(hands > 0 && rounds > 0, "ARENA_PEER_HANDS and ARENA_PEER_ROUNDS must be at least 1");
    let scratch = tempfile::tempdir().expect("a temporary folder for the runs' output");

    let mut times = vec![Vec::with_capacity(rounds); WAYS.len()];
    let mut theirs = None;
    // bot-arena's summary.csv and match.csv: the same whatever the threads and records.
    let mut ours: Option<(Tally, String)> = None;
    for round in 0..rounds {
        for i in (0..WAYS.len()).map(|k| (k + round) % WAYS.len()) {
            let out = scratch.path().join(format!("round-{round}-way-{i}"));
            let start = Instant::now();
            match WAYS[i] {
                Way::RsPoker => {
                    let tally = rs_poker_arena(hands);
                    times[i].push(start.elapsed().as_secs_f64());
                    assert_eq!(tally.hands, hands, "rs_poker played {} hands, not {hands}", tally.hands);
                    theirs = Some(tally);
                }
                Way::Pair => {
                    let twin = scratch.path().join(format!("round-{round}-way-{i}-twin"));
                    std::thread::scope(|s| {
                        s.spawn(|| arena_run(hands, 1, "none", &twin));
                        arena_run(hands, 1, "none", &out);
                    });
                    times[i].push(start.elapsed().as_secs_f64());
                    for dir in [&out, &twin] {
                        assert!(check_run(dir, hands, "none") == *ours.as_ref().expect("a run before the pair"));
                        std::fs::remove_dir_all(dir).expect("remove a run's output");
                    }
                }
                Way::Ours { threads, records } => {
                    arena_run(hands, threads, records, &out);
                    times[i].push(start.elapsed().as_secs_f64());
                    let result = check_run(&out, hands, records);
                    match &ours {
                        None => ours = Some(result),
                        Some(first) => assert!(
                            *first == result,
                            "bot-arena's summary differs between runs ({threads} threads, records {records})"
                        ),
                    }
                    std::fs::remove_dir_all(&out).expect("remove a run's output");
                }
            }
        }
    }

    let per_round = |f: &dyn Fn(usize) -> f64| -> (f64, f64, f64) {
        let mut v: Vec<f64> = (0..rounds).map(f).collect();
        let m = median(&mut v);
        (m, v[0], v[rounds - 1])
    };
    let time = |i: usize| median(&mut times[i].clone());
    let rate = |i: usize| hands as f64 / time(i) / 1e6;
    println!(
        "arena: {} heads-up always-call hands, blinds 50/100, stacks 10,000, {rounds} rounds \
         (rs_poker in process; `arena run` spawned, timed to its exit)",
        thousands(hands)
    );
    println!("  rs_poker 5.0 arena, nothing written: {:.2} s ({:.2} M hands/s)", time(RS_POKER), rate(RS_POKER));
    let verdict = |ratio: f64, target: f64| if ratio >= target { "met" } else { "NOT met" };
    for (i, what, target) in [(CSV_1, "games.csv, 1 thread", 1.0), (NONE_1, "--records none, 1 thread", 3.0)] {
        let (ratio, lo, hi) = per_round(&|r| times[RS_POKER][r] / times[i][r]);
        println!(
            "  bot-arena {what}: {:.2} s ({:.2} M hands/s): ratio {ratio:.2} [rounds {lo:.2}-{hi:.2}] (target {target}: {})",
            time(i),
            rate(i),
            verdict(ratio, target),
        );
    }
    let (ratio, lo, hi) = per_round(&|r| times[CSV_1][r] / times[CSV_2][r]);
    println!(
        "  bot-arena games.csv, 2 threads: {:.2} s ({:.2} M hands/s): {ratio:.2} times the 1-thread rate [rounds {lo:.2}-{hi:.2}] (target 1.8: {})",
        time(CSV_2),
        rate(CSV_2),
        verdict(ratio, 1.8),
    );
    let (ceiling, lo, hi) = per_round(&|r| 2.0 * times[NONE_1][r] / times[PAIR][r]);
    println!(
        "  the machine: two 1-thread --records none runs at once: {:.2} s for both: {ceiling:.2} times one run's rate \
         [rounds {lo:.2}-{hi:.2}] (the most two threads can give here)",
        time(PAIR),
    );

    let (theirs, (ours, _)) = (theirs.expect("rs_poker ran"), ours.expect("bot-arena ran"));
    let (p, q) = (theirs.splits as f64 / hands as f64, ours.splits as f64 / hands as f64);
    let pooled = (theirs.splits + ours.splits) as f64 / (2 * hands) as f64;
    let tolerance = 5.0 * (2.0 * pooled * (1.0 - pooled) / hands as f64).sqrt();
    assert!(
        (p - q).abs() <= tolerance,
        "split pots: rs_poker {:.4}%, bot-arena {:.4}% (more than 5 standard errors apart)",
        p * 100.0,
        q * 100.0
    );
    println!(
        "  answers agree: both played {} hands to showdown; split pots {:.2}% and {:.2}% (within {:.2} points, \
         5 standard errors); games.csv {} rows; summary.csv and match.csv the same on 1 and 2 threads, csv and none",
        thousands(hands),
        p * 100.0,
        q * 100.0,
        tolerance * 100.0,
        thousands(2 * hands),
    );
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.replace(['_', ','], "").parse().unwrap_or_else(|_| panic!("{name}={v}: not a whole number")),
        Err(_) => default,
    }
}

/// rs_poker's arena: `hands` fresh heads-up hands between two calling agents, no historian.
fn rs_poker_arena(hands: u64) -> Tally {
    let mut tally = Tally { hands: 0, splits: 0 };
    // The agents go from hand to hand (a simulation hands them back): less work for rs_poker than
    // making them anew as its own benchmark does.
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(CallingAgent::new("a")), Box::new(CallingAgent::new("b"))];
    for hand in 0..hands {
        let game_state = GameStateBuilder::new()
            .num_players_with_stack(2, STACK)
            .blinds(BIG_BLIND, SMALL_BLIND)
            .build()
            .expect("a heads-up game state");
        let mut sim = HoldemSimulationBuilder::default()
            .game_state(game_state)
            .agents(agents)
            .build_with_rng(rs_poker::arena::seeded_rng(Some(hand)))
            .expect("a simulation");
        run_to_completion(sim.run());

        let state = &sim.game_state;
        assert!(matches!(state.round, Round::Complete) && state.board.len() == 5, "hand {hand} did not reach showdown");
        assert_eq!(state.stacks.iter().sum::<f32>(), 2.0 * STACK, "hand {hand}: chips not conserved");
        tally.hands += 1;
        tally.splits += (state.stacks[0] == STACK) as u64;
        agents = std::mem::take(&mut sim.agents);
    }
    tally
}

/// Runs a future that never waits (rs_poker's simulation is `async`, but with calling agents and
/// no historian nothing in it awaits anything), without a runtime in between.
fn run_to_completion<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("rs_poker's simulation waited on something"),
    }
}

/// `arena run` as a user types it, `hands` games of two always-call bots into `out`.
fn arena_run(hands: u64, threads: usize, records: &str, out: &Path) {
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["run", "--game", "holdem", "--bot", "always-call", "--bot", "always-call", "--quiet"])
        .args(["--games", &hands.to_string(), "--threads", &threads.to_string(), "--records", records])
        .arg("--out")
        .arg(out)
        .output()
        .expect("start arena");
    assert!(output.status.success(), "arena run failed: {}", String::from_utf8_lossy(&output.stderr));
}

/// Checks a run's files (games.csv has a row per seat per hand; none has no games.csv) and returns
/// its tally with its summary.csv and match.csv, which must not depend on the threads or records.
fn check_run(out: &Path, hands: u64, records: &str) -> (Tally, String) {
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let games = out.join("games.csv");
    if records == "none" {
        assert!(!games.exists(), "--records none wrote games.csv");
    } else {
        let bytes = std::fs::read(&games).expect("games.csv");
        let rows = bytes.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
        assert_eq!(rows, 2 * hands, "games.csv has {rows} rows for {hands} heads-up hands");
    }
    let summary = read("summary.csv");
    // bot,games,wins,draws,...: the first bot's games and draws (a split pot is a draw for both).
    let first: Vec<&str> = summary.lines().nth(1).expect("a bot in summary.csv").split(',').collect();
    let number = |i: usize| first[i].parse::<u64>().expect("a count in summary.csv");
    assert_eq!(number(1), hands, "summary.csv counts {} games, not {hands}", number(1));
    (Tally { hands: number(1), splits: number(3) }, summary + &read("match.csv"))
}
