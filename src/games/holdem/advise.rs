//! `arena advise holdem`: equity, the current hand's category and pot-odds guidance.
//!
//! ```text
//! arena advise holdem --hole AhAs [--board "Kd 7c 2h"] [--vs KdKc | --opponents N] [--trials N] [--seed S]
//!                     [--pot CHIPS --to-call CHIPS [--stack CHIPS --big-blind CHIPS --bot rr --param k=v]]
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
//! odds and the source's fold/call/raise probabilities for that RR; with `--stack` too, what the
//! rr bot (or a roster variant of it) does there, through the bot's own [`RrConfig::decide`]:
//! HS, pot odds, RR, the table's row and chip protection.

use crate::core::roster::{bot_from_args, OwnKinds};
use serde_json::json;

use crate::cards::{parse_cards, Card};
use crate::core::Advice;
use crate::error::{Error, Result};

use super::bots::rr::{RrConfig, Situation};
use super::equity::{exact_heads_up, hand_strength, monte_carlo, FastRng, Opponents};
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
    /// Your chips behind, before calling: with --pot and --to-call, what the rr bot would do,
    /// chip protection included.
    #[arg(long)]
    pub stack: Option<u64>,
    /// The big blind in chips (chip protection counts the stack left in big blinds).
    #[arg(long, default_value_t = 100)]
    pub big_blind: u64,
    /// The bot followed with --stack: rr or a roster variant of it (rr-tight, ...).
    #[arg(long, default_value = "rr")]
    pub bot: String,
    /// A parameter of that bot, name=value (thresholds=[0.7,1.0,1.5], protect_bb=6).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Also show how each figure is formed: the equity's count, the RR table, chip protection.
    #[arg(long)]
    pub explain: bool,
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
            // The source's rate-of-return table is the rr bot's default one.
            let table = RrConfig::default_config();
            let [f, c, r] = table.percents(table.row(rr));
            out += &format!(
                "pot odds {odds:.4}, RR = equity / pot odds = {rr:.3}: the source's table says fold {f} %, call {c} %, raise {r} %\n"
            );
            rr_json = json!({
                "pot": pot, "to_call": call, "pot_odds": odds, "rr": rr,
                "percent": { "fold": f, "call": c, "raise": r },
            });
        }
    }
    let mut bot_json = serde_json::Value::Null;
    if let Some(stack) = a.stack {
        let (Some(pot), Some(to_call)) = (a.pot, a.to_call) else {
            return Err(Error::input("--stack needs --pot and --to-call (the situation the bot sees)"));
        };
        let (text, json) = follow_the_bot(a, &hole, &board, stack, pot, to_call)?;
        out += &text;
        bot_json = json;
    }
    if a.explain {
        out += &explain(a, vs.is_some(), e.equity);
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
        "bot": bot_json,
    });
    Ok(Advice { text: out, json })
}

/// How the figures are formed, for `--explain`.
fn explain(a: &AdviseArgs, exact: bool, equity: f64) -> String {
    let how = match exact {
        true => "every board the remaining cards can make is dealt once".to_string(),
        false => format!(
            "{} deals of the opponents' hands and the rest of the board from seed {}, standard error about {:.4} %",
            a.trials,
            a.seed,
            100.0 * (equity * (1.0 - equity) / a.trials as f64).sqrt()
        ),
    };
    let mut out = format!(
        "explain:\n  equity = P(win) + P(tie) shared among the tied hands: the share of the pot the hand takes on average; {how}\n"
    );
    if a.pot.is_some() && a.to_call.is_some() {
        out += "  pot odds = to_call / (to_call + pot): the share of the final pot a call pays; RR = equity / pot odds, above 1 a call pays in the long run\n";
        out += "  the source's table (the rr bot's defaults):\n";
        let table = RrConfig::default_config();
        for row in 0..=table.thresholds.len() {
            let [f, c, r] = table.percents(row);
            out += &format!("    {}: fold {f} %, call {c} %, raise {r} %\n", table.row_bounds(row));
        }
    }
    if a.stack.is_some() {
        out += "  the bot: HS is its equity by its own Monte Carlo against the opponents still in (here the adviser's trials); \
                with nothing to call it prices one big blind; its row of the table (`thresholds`, `fold`, `call`) gives the \
                probabilities it draws from; chip protection folds (or checks) when the stack left after calling is under \
                protect_bb big blinds and HS under protect_hs\n";
    }
    out
}

/// What the rr bot (or a variant, `--bot`, `--param`) does in the situation given: its hand
/// strength against the opponents still in (the adviser's `--trials` and `--seed`, more than the
/// bot's own trials so the figure is steady), pot odds, RR, the table's row, and chip protection.
fn follow_the_bot(
    a: &AdviseArgs,
    hole: &[Card; 2],
    board: &[Card],
    stack: u64,
    pot: u64,
    to_call: u64,
) -> Result<(String, serde_json::Value)> {
    let (kind, params) = bot_from_args(&OwnKinds::<super::Holdem>::new(), &a.bot, &a.params)?;
    if kind != "rr" {
        return Err(Error::input(format!("--bot: the adviser follows rr and its variants, not `{}` ({kind})", a.bot)));
    }
    if a.vs.is_some() {
        return Err(Error::input(
            "--stack follows the bot, which plays against random hands: use --opponents, not --vs",
        ));
    }
    if to_call > stack {
        return Err(Error::input(format!(
            "--to-call {to_call} is more than --stack {stack}: the call would be all in for {stack}"
        )));
    }
    let cfg = RrConfig::from_params(&params)?;
    let hs = hand_strength(*hole, board, a.opponents, a.trials, &mut FastRng::new(a.seed));
    // With nothing to call the bot weighs its own standard bet instead; here, one big blind.
    let amount = if to_call == 0 { a.big_blind } else { to_call };
    let situation = Situation {
        hs,
        stack: stack as f64,
        to_call: to_call as f64,
        amount: amount as f64,
        pot: pot as f64,
        big_blind: a.big_blind as f64,
    };
    let d = cfg.decide(&situation);
    let raise = 1.0 - d.fold - d.call;
    let mut out = format!(
        "{} ({kind}): HS {hs:.3} against {} opponent(s) ({} trials), pot odds {amount} / ({amount} + {pot}) = {:.4}, RR = {:.3}\n",
        a.bot, a.opponents, a.trials, d.pot_odds, d.rr
    );
    out += &format!(
        "table row {} ({}): fold {:.0} %, call {:.0} %, raise {:.0} %\n",
        d.row + 1,
        cfg.row_bounds(d.row),
        100.0 * d.fold,
        100.0 * d.call,
        100.0 * raise
    );
    let left = stack - to_call;
    let short = (left as f64) < cfg.protect_bb * a.big_blind as f64;
    let weak = hs < cfg.protect_hs;
    debug_assert_eq!(short && weak, d.protected);
    let protect = format!(
        "stack after calling {left} {} {} x big blind {} and HS {hs:.3} {} {}",
        if short { "<" } else { ">=" },
        cfg.protect_bb,
        a.big_blind,
        if weak { "<" } else { ">=" },
        cfg.protect_hs
    );
    let action = match (d.protected, to_call) {
        (true, 0) => "check (chip protection)".to_string(),
        (true, _) => "fold (chip protection)".to_string(),
        (false, _) => {
            format!("fold {:.0} %, call {:.0} %, raise {:.0} %", 100.0 * d.fold, 100.0 * d.call, 100.0 * raise)
        }
    };
    out += &format!("chip protection: {protect}: {}\n", if d.protected { "applies" } else { "does not apply" });
    out += &format!("the bot: {action}\n");
    let json = json!({
        "bot": a.bot, "kind": kind, "hs": hs, "opponents": a.opponents, "trials": a.trials,
        "stack": stack, "pot": pot, "to_call": to_call, "amount": amount, "big_blind": a.big_blind,
        "pot_odds": d.pot_odds, "rr": d.rr, "row": d.row + 1,
        "probabilities": { "fold": d.fold, "call": d.call, "raise": raise },
        "chip_protection": d.protected,
        "action": action,
    });
    Ok((out, json))
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
            stack: None,
            big_blind: 100,
            bot: "rr".into(),
            params: Vec::new(),
            explain: false,
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

    /// Document 003's chip-protection example: AD 2D on QC KC 2C, 500 in the pot, 100 to call,
    /// two opponents, and the last 100 chips. The document puts HS at 0.297 and RR at 1.8 (the
    /// table would call or raise) and then folds by chip protection; so does the bot here.
    #[test]
    fn the_documents_chip_protection_example() {
        let mut a = args("AD 2D");
        a.board = "QC KC 2C".into();
        a.opponents = 2;
        a.trials = 200_000;
        (a.pot, a.to_call, a.stack) = (Some(500), Some(100), Some(100));
        let advice = run(&a).unwrap();
        let bot = &advice.json["bot"];
        let hs = bot["hs"].as_f64().unwrap();
        assert!((0.26..0.30).contains(&hs), "{hs}");
        assert!((bot["pot_odds"].as_f64().unwrap() - 100.0 / 600.0).abs() < 1e-12);
        assert_eq!(bot["row"], 4, "RR {} reaches the last row: call or raise", bot["rr"]);
        assert_eq!(bot["chip_protection"], true);
        assert!(advice.text.ends_with("the bot: fold (chip protection)\n"), "{}", advice.text);
        // With chips to spare the same hand plays the table's row.
        a.stack = Some(5000);
        let advice = run(&a).unwrap();
        assert_eq!(advice.json["bot"]["chip_protection"], false);
        assert!(advice.text.ends_with("the bot: fold 0 %, call 30 %, raise 70 %\n"), "{}", advice.text);
        // A roster variant and a parameter: rr-tight, with protection up to 50 big blinds.
        (a.bot, a.params) = ("rr-tight".into(), vec!["protect_bb=50".into()]);
        let advice = run(&a).unwrap();
        assert_eq!(advice.json["bot"]["chip_protection"], true, "{}", advice.text);
        for (bot, params) in [("always-call", vec![]), ("rr", vec!["protect_bb=x".to_string()]), ("nope", vec![])] {
            (a.bot, a.params) = (bot.into(), params);
            assert!(run(&a).is_err(), "{bot}");
        }
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
