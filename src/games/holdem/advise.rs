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

use crate::cards::{parse_cards, Card};
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

/// What `arena advise holdem` prints: the text (`Display`), or the JSON with `--json`
/// (`Serialize`, in this order).
#[derive(Debug, serde::Serialize)]
pub struct Answer {
    game: &'static str,
    hole: String,
    board: String,
    against: Against,
    equity: f64,
    win: f64,
    tie: f64,
    hand_now: &'static str,
    /// The largest call, as a multiple of the pot, that the equity pays for (none with a sure win).
    max_call_pot_multiple: Option<f64>,
    /// With `--pot` and `--to-call`.
    rate_of_return: Option<RateOfReturn>,
    /// With `--stack` too: what the rr bot does.
    bot: Option<BotAnswer>,
    /// `--explain`'s lines, text only.
    #[serde(skip)]
    explain: Option<String>,
}

/// Whom the equity is against, and how it was counted.
#[derive(Debug, serde::Serialize)]
#[serde(untagged)]
enum Against {
    Hand { hand: String, method: &'static str, boards: u64 },
    Random { random_hands: usize, method: &'static str, trials: u64, seed: u64 },
}

#[derive(Debug, serde::Serialize)]
struct RateOfReturn {
    pot: u64,
    to_call: u64,
    pot_odds: f64,
    /// None when there is nothing to call.
    rr: Option<f64>,
    /// The source's table for that RR, in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    percent: Option<Percent<u32>>,
}

#[derive(Debug, serde::Serialize)]
struct Percent<T> {
    fold: T,
    call: T,
    raise: T,
}

#[derive(Debug, serde::Serialize)]
struct BotAnswer {
    bot: String,
    kind: String,
    hs: f64,
    opponents: usize,
    trials: u64,
    stack: u64,
    pot: u64,
    to_call: u64,
    amount: u64,
    big_blind: u64,
    pot_odds: f64,
    rr: f64,
    /// The table's row, from 1.
    row: usize,
    probabilities: Percent<f64>,
    chip_protection: bool,
    action: String,
    #[serde(skip)]
    row_bounds: String,
    #[serde(skip)]
    protect_bb: f64,
    #[serde(skip)]
    protect_hs: f64,
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (hole, board) = (&self.hole, &self.board);
        match &self.against {
            Against::Hand { hand, boards, .. } => {
                writeln!(f, "hole {hole}, board {board}, against {hand}: exact over {boards} boards")?
            }
            Against::Random { random_hands, trials, seed, .. } => writeln!(
                f,
                "hole {hole}, board {board}, against {random_hands} random hand(s): Monte Carlo, {trials} trials, seed {seed}"
            )?,
        }
        writeln!(
            f,
            "equity {:.4} % (win {:.4} %, tie {:.4} %)",
            100.0 * self.equity,
            100.0 * self.win,
            100.0 * self.tie
        )?;
        writeln!(f, "hand now: {}", self.hand_now)?;
        writeln!(
            f,
            "pot odds: calling breaks even when to_call / (to_call + pot) = {:.4}, i.e. a call of up to {:.2} × the pot",
            self.equity,
            self.max_call_pot_multiple.unwrap_or(f64::INFINITY)
        )?;
        match &self.rate_of_return {
            Some(RateOfReturn { pot_odds, rr: Some(rr), percent: Some(p), .. }) => writeln!(
                f,
                "pot odds {pot_odds:.4}, RR = equity / pot odds = {rr:.3}: the source's table says fold {} %, call {} %, raise {} %",
                p.fold, p.call, p.raise
            )?,
            Some(_) => writeln!(f, "nothing to call: checking is free")?,
            None => {}
        }
        if let Some(bot) = &self.bot {
            write!(f, "{bot}")?;
        }
        f.write_str(self.explain.as_deref().unwrap_or(""))
    }
}

impl std::fmt::Display for BotAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (amount, pot, hs) = (self.amount, self.pot, self.hs);
        writeln!(
            f,
            "{} ({}): HS {hs:.3} against {} opponent(s) ({} trials), pot odds {amount} / ({amount} + {pot}) = {:.4}, RR = {:.3}",
            self.bot, self.kind, self.opponents, self.trials, self.pot_odds, self.rr
        )?;
        let p = &self.probabilities;
        writeln!(
            f,
            "table row {} ({}): fold {:.0} %, call {:.0} %, raise {:.0} %",
            self.row,
            self.row_bounds,
            100.0 * p.fold,
            100.0 * p.call,
            100.0 * p.raise
        )?;
        let left = self.stack - self.to_call;
        let short = (left as f64) < self.protect_bb * self.big_blind as f64;
        let weak = hs < self.protect_hs;
        writeln!(
            f,
            "chip protection: stack after calling {left} {} {} x big blind {} and HS {hs:.3} {} {}: {}",
            if short { "<" } else { ">=" },
            self.protect_bb,
            self.big_blind,
            if weak { "<" } else { ">=" },
            self.protect_hs,
            if self.chip_protection { "applies" } else { "does not apply" }
        )?;
        writeln!(f, "the bot: {}", self.action)
    }
}

pub fn run(a: &AdviseArgs) -> Result<Answer> {
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
    let (e, against) = match vs {
        Some(v) => {
            let e = exact_heads_up(hole, v, &board);
            (e, Against::Hand { hand: cards(&v), method: "exact", boards: e.samples })
        }
        None => {
            let e = monte_carlo(hole, &board, Opponents::Random(a.opponents), a.trials, &mut FastRng::new(a.seed));
            let (random_hands, trials, seed) = (a.opponents, a.trials, a.seed);
            (e, Against::Random { random_hands, method: "monte-carlo", trials, seed })
        }
    };
    let now = if board.len() >= 3 {
        category(eval(&seen[..2 + board.len()])).name()
    } else if hole[0].rank() == hole[1].rank() {
        "one pair"
    } else {
        "high card"
    };
    let rate_of_return = match (a.pot, a.to_call) {
        (Some(pot), Some(0)) => Some(RateOfReturn { pot, to_call: 0, pot_odds: 0.0, rr: None, percent: None }),
        (Some(pot), Some(call)) => {
            let odds = call as f64 / (call + pot) as f64;
            let rr = e.equity / odds;
            // The source's rate-of-return table is the rr bot's default one.
            let table = RrConfig::default_config();
            let [fold, call_, raise] = table.percents(table.row(rr));
            let percent = Some(Percent { fold, call: call_, raise });
            Some(RateOfReturn { pot, to_call: call, pot_odds: odds, rr: Some(rr), percent })
        }
        _ => None,
    };
    let bot = match a.stack {
        Some(stack) => {
            let (Some(pot), Some(to_call)) = (a.pot, a.to_call) else {
                return Err(Error::input("--stack needs --pot and --to-call (the situation the bot sees)"));
            };
            Some(follow_the_bot(a, &hole, &board, stack, pot, to_call)?)
        }
        None => None,
    };
    Ok(Answer {
        game: "holdem",
        hole: cards(&hole),
        board: cards(&board),
        against,
        equity: e.equity,
        win: e.win,
        tie: e.tie,
        hand_now: now,
        max_call_pot_multiple: (e.equity < 1.0).then(|| e.equity / (1.0 - e.equity)),
        rate_of_return,
        bot,
        explain: a.explain.then(|| explain(a, vs.is_some(), e.equity)),
    })
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
) -> Result<BotAnswer> {
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
    let left = stack - to_call;
    debug_assert_eq!((left as f64) < cfg.protect_bb * a.big_blind as f64 && hs < cfg.protect_hs, d.protected);
    let action = match (d.protected, to_call) {
        (true, 0) => "check (chip protection)".to_string(),
        (true, _) => "fold (chip protection)".to_string(),
        (false, _) => {
            format!("fold {:.0} %, call {:.0} %, raise {:.0} %", 100.0 * d.fold, 100.0 * d.call, 100.0 * raise)
        }
    };
    Ok(BotAnswer {
        bot: a.bot.clone(),
        kind,
        hs,
        opponents: a.opponents,
        trials: a.trials,
        stack,
        pot,
        to_call,
        amount,
        big_blind: a.big_blind,
        pot_odds: d.pot_odds,
        rr: d.rr,
        row: d.row + 1,
        probabilities: Percent { fold: d.fold, call: d.call, raise },
        chip_protection: d.protected,
        action,
        row_bounds: cfg.row_bounds(d.row),
        protect_bb: cfg.protect_bb,
        protect_hs: cfg.protect_hs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Advice;

    /// The answer as the command line erases it: its text and its JSON.
    fn answer(args: &AdviseArgs) -> Result<Advice> {
        run(args).map(|a| Advice::of(&a))
    }

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
        let out = answer(&a).unwrap().text;
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
        let advice = answer(&a).unwrap();
        let bot = &advice.json["bot"];
        let hs = bot["hs"].as_f64().unwrap();
        assert!((0.26..0.30).contains(&hs), "{hs}");
        assert!((bot["pot_odds"].as_f64().unwrap() - 100.0 / 600.0).abs() < 1e-12);
        assert_eq!(bot["row"], 4, "RR {} reaches the last row: call or raise", bot["rr"]);
        assert_eq!(bot["chip_protection"], true);
        assert!(advice.text.ends_with("the bot: fold (chip protection)\n"), "{}", advice.text);
        // With chips to spare the same hand plays the table's row.
        a.stack = Some(5000);
        let advice = answer(&a).unwrap();
        assert_eq!(advice.json["bot"]["chip_protection"], false);
        assert!(advice.text.ends_with("the bot: fold 0 %, call 30 %, raise 70 %\n"), "{}", advice.text);
        // A roster variant and a parameter: rr-tight, with protection up to 50 big blinds.
        (a.bot, a.params) = ("rr-tight".into(), vec!["protect_bb=50".into()]);
        let advice = answer(&a).unwrap();
        assert_eq!(advice.json["bot"]["chip_protection"], true, "{}", advice.text);
        for (bot, params) in [("always-call", vec![]), ("rr", vec!["protect_bb=x".to_string()]), ("nope", vec![])] {
            (a.bot, a.params) = (bot.into(), params);
            assert!(answer(&a).is_err(), "{bot}");
        }
    }

    #[test]
    fn rr_line_and_bad_input() {
        let mut a = args("AhKh");
        a.board = "Qh 7h 2c".into();
        a.pot = Some(500);
        a.to_call = Some(100);
        let out = answer(&a).unwrap().text;
        assert!(out.contains("RR = "), "{out}");
        assert!(out.contains("hand now: high card"), "{out}");
        assert!(answer(&args("Ah")).is_err());
        let mut dup = args("AhKh");
        dup.board = "Ah 7h 2c".into();
        assert!(answer(&dup).is_err());
        let mut short = args("AhKh");
        short.board = "7h 2c".into();
        assert!(answer(&short).is_err());
    }
}
