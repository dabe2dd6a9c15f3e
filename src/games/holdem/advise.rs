//! `arena advise holdem`: equity, the current hand's category and pot-odds guidance.
//!
//! ```text
//! arena advise holdem --hole AhAs [--board "Kd 7c 2h"] [--vs KdKc | --opponents N] [--trials N] [--seed S]
//!                     [--pot CHIPS --to-call CHIPS]
//! ```
//! With `--vs` the equity is exact (every board); with `--opponents N` (default 1) it is a Monte Carlo
//! estimate against N uniformly random hands (`--trials`, default 1,000,000; `--seed`, default 1).
//! Example:
//! ```text
//! $ arena advise holdem --hole AhAs --vs KdKc
//! hole AhAs, board -, against KdKc: exact over 1712304 boards
//! equity 81.2555 % (win 81.0646 %, tie 0.3818 %)
//! hand now: one pair
//! pot odds: calling breaks even when to_call / (to_call + pot) = 0.8126, i.e. a call of up to 4.34 × the pot
//! ```
//! With `--pot` and `--to-call`, it also prints the pot odds, the rate of return RR = equity / pot
//! odds and the source's fold/call/raise probabilities for that RR.

use serde_json::json;

use crate::cards::{parse_cards, Card};
use crate::error::{Error, Result};
use crate::games::Advice;

use super::equity::{exact_heads_up, monte_carlo, FastRng, Opponents};
use super::eval::{category, eval};

#[derive(clap::Args, Debug)]
pub struct AdviseArgs {
    /// Your two hole cards, e.g. AhAs.
    #[arg(long)]
    pub hole: String,
    /// The board so far: 0, 3, 4 or 5 cards.
    #[arg(long, default_value = "")]
    pub board: String,
    /// One opponent's known hole cards: exact equity over every board.
    #[arg(long, conflicts_with = "opponents")]
    pub vs: Option<String>,
    /// Number of opponents with random hands (Monte Carlo).
    #[arg(long, default_value_t = 1)]
    pub opponents: usize,
    /// Monte Carlo trials.
    #[arg(long, default_value_t = 1_000_000)]
    pub trials: u64,
    /// Monte Carlo seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Chips in the pot (bets included), for the RR line.
    #[arg(long)]
    pub pot: Option<u64>,
    /// Chips you must put in to call, for the RR line.
    #[arg(long)]
    pub to_call: Option<u64>,
}

fn two(s: &str, what: &str) -> Result<[Card; 2]> {
    parse_cards(s)?.try_into().map_err(|_| Error::input(format!("{what}: expected exactly two cards, got `{s}`")))
}

pub fn run(a: &AdviseArgs) -> Result<Advice> {
    let hole = two(&a.hole, "--hole")?;
    let board = parse_cards(&a.board)?;
    if ![0, 3, 4, 5].contains(&board.len()) {
        return Err(Error::input(format!("--board: 0, 3, 4 or 5 cards, not {}", board.len())));
    }
    let mut seen: Vec<Card> = hole.iter().chain(&board).copied().collect();
    let vs = a.vs.as_deref().map(|v| two(v, "--vs")).transpose()?;
    seen.extend(vs.iter().flatten());
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != seen.len() {
        return Err(Error::input("a card appears twice among --hole, --board and --vs"));
    }
    if vs.is_none() && !(1..=9).contains(&a.opponents) {
        return Err(Error::input("--opponents: 1 to 9"));
    }
    if a.trials == 0 || a.trials > 1_000_000_000 {
        return Err(Error::input("--trials: 1 to 1000000000"));
    }
    let cards = |cs: &[Card]| {
        if cs.is_empty() {
            "-".to_string()
        } else {
            cs.iter().map(|c| c.to_string()).collect()
        }
    };
    let mut out = String::new();
    let (e, against) = match vs {
        Some(v) => {
            let e = exact_heads_up(hole, v, &board);
            out += &format!(
                "hole {}, board {}, against {}: exact over {} boards\n",
                cards(&hole),
                cards(&board),
                cards(&v),
                e.samples
            );
            (e, json!({ "hand": cards(&v), "method": "exact", "boards": e.samples }))
        }
        None => {
            let e = monte_carlo(hole, &board, Opponents::Random(a.opponents), a.trials, &mut FastRng::new(a.seed));
            out += &format!(
                "hole {}, board {}, against {} random hand(s): Monte Carlo, {} trials, seed {}\n",
                cards(&hole),
                cards(&board),
                a.opponents,
                a.trials,
                a.seed
            );
            let how =
                json!({ "random_hands": a.opponents, "method": "monte-carlo", "trials": a.trials, "seed": a.seed });
            (e, how)
        }
    };
    out += &format!("equity {:.4} % (win {:.4} %, tie {:.4} %)\n", 100.0 * e.equity, 100.0 * e.win, 100.0 * e.tie);
    let now = if board.len() >= 3 {
        category(eval(&seen[..2 + board.len()])).name()
    } else if hole[0].rank() == hole[1].rank() {
        "one pair"
    } else {
        "high card"
    };
    out += &format!("hand now: {now}\n");
    // The largest call, as a multiple of the pot, that the equity pays for (none with a sure win).
    let max_call = (e.equity < 1.0).then(|| e.equity / (1.0 - e.equity));
    out += &format!(
        "pot odds: calling breaks even when to_call / (to_call + pot) = {:.4}, i.e. a call of up to {:.2} × the pot\n",
        e.equity,
        max_call.unwrap_or(f64::INFINITY)
    );
    let mut rr_json = serde_json::Value::Null;
    if let (Some(pot), Some(call)) = (a.pot, a.to_call) {
        if call == 0 {
            out += "nothing to call: checking is free\n";
            rr_json = json!({ "pot": pot, "to_call": 0, "pot_odds": 0.0, "rr": null });
        } else {
            let odds = call as f64 / (call + pot) as f64;
            let rr = e.equity / odds;
            let (f, c, r) = match rr {
                x if x < 0.8 => (95, 0, 5),
                x if x < 1.0 => (80, 5, 15),
                x if x < 1.3 => (0, 60, 40),
                _ => (0, 30, 70),
            };
            out += &format!(
                "pot odds {odds:.4}, RR = equity / pot odds = {rr:.3}: the source's table says fold {f} %, call {c} %, raise {r} %\n"
            );
            rr_json = json!({
                "pot": pot, "to_call": call, "pot_odds": odds, "rr": rr,
                "percent": { "fold": f, "call": c, "raise": r },
            });
        }
    }
    let json = json!({
        "game": "holdem",
        "hole": cards(&hole),
        "board": cards(&board),
        "against": against,
        "equity": e.equity,
        "win": e.win,
        "tie": e.tie,
        "hand_now": now,
        "max_call_pot_multiple": max_call,
        "rate_of_return": rr_json,
    });
    Ok(Advice { text: out, json })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(hole: &str) -> AdviseArgs {
        AdviseArgs {
            hole: hole.into(),
            board: String::new(),
            vs: None,
            opponents: 1,
            trials: 20_000,
            seed: 1,
            pot: None,
            to_call: None,
        }
    }

    #[test]
    fn exact_against_a_known_hand() {
        let mut a = args("AhAs");
        a.vs = Some("KdKc".into());
        let out = run(&a).unwrap().text;
        assert!(out.contains("equity 81.2555 % (win 81.0646 %, tie 0.3818 %)"), "{out}");
        assert!(out.contains("hand now: one pair"), "{out}");
    }

    #[test]
    fn rr_line_and_bad_input() {
        let mut a = args("AhKh");
        a.board = "Qh 7h 2c".into();
        a.pot = Some(500);
        a.to_call = Some(100);
        let out = run(&a).unwrap().text;
        assert!(out.contains("RR = "), "{out}");
        assert!(out.contains("hand now: high card"), "{out}");
        assert!(run(&args("Ah")).is_err());
        let mut dup = args("AhKh");
        dup.board = "Ah 7h 2c".into();
        assert!(run(&dup).is_err());
        let mut short = args("AhKh");
        short.board = "7h 2c".into();
        assert!(run(&short).is_err());
    }
}
