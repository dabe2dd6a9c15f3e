//! `arena advise zhajinhua`: the category, strength value and win probability of a hand.
//!
//! ```text
//! $ arena advise zhajinhua --hand "AS AH KD"
//! hand:      As Ah Kd
//! category:  pair (对子), pair of As, K kicker
//! strength:  7344 (0x1cb0: category 1, ranks c b 0; ranks 0-c = 2-A)
//! win:       91.14% against 1 random hand (tie 0.02%, exact over all 18424 hands)
//!
//! $ arena advise zhajinhua --hand "AS AH KD" --opponents 2
//! win:       83.08% against 2 random hands (exact over all pairs of hands)     (other lines as above)
//!
//! $ arena advise zhajinhua --hand "AS AH KD" --opponents 3
//! win:       75.86% against 3 random hands (Monte Carlo, 200000 deals, standard error 0.10%)
//!
//! $ arena advise zhajinhua --hand "2s 3d 5c" --special-235
//! hand:      2s 3d 5c
//! category:  high card (高牌), 5-3-2 high card
//! strength:  784 (0x0310: category 0, ranks 3 1 0; ranks 0-c = 2-A)
//! win:       0.23% against 1 random hand (tie 0.14%, exact over all 18424 hands)
//! ```
//! Options: `--opponents N` (1-5, default 1), `--special-235`, `--samples N` (Monte Carlo deals,
//! default 200000), `--seed N` (default 1).
//! One opponent is exact (card removal included), two are exact (inclusion-exclusion counts), three
//! or more are a Monte Carlo estimate with its standard error (seeded, so the output is repeatable).
//! A win is beating every opponent outright; `--special-235` applies the 2-3-5 rule.

use crate::core::roster::{bot_from_args, OwnKinds};

use rand::SeedableRng;

use crate::cards::{parse_cards, Card};
use crate::error::{Error, Result};

use super::bots::ev::{EvBot, EvConfig, Weighed};
use super::engine::{Action, Public, View, Zhajinhua, MAX_SEATS};
use super::eval::{describe, evaluate, Category, Strength};
use super::winprob::{beats_all_monte_carlo, beats_two_exact, heads_up, OPPONENT_HANDS};
use crate::core::Wire;

#[derive(clap::Args, Debug)]
pub struct AdviseArgs {
    /// Three cards, e.g. "AS AH KD" (ranks 2-9, 10 or T, J, Q, K, A; suits C D H S).
    #[arg(long)]
    pub hand: String,
    /// Opponents still in the hand (1 to 5).
    #[arg(long, default_value_t = 1)]
    pub opponents: usize,
    /// Apply the special_235 table option (2-3-5 of mixed suits beats a leopard).
    #[arg(long)]
    pub special_235: bool,
    /// Monte Carlo deals for three or more opponents.
    #[arg(long, default_value_t = 200_000)]
    pub samples: u32,
    /// Seed of the Monte Carlo deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The pot now, in chips: with it the adviser follows the `ev` bot (or `--bot`) and prints
    /// the expected value of every action it weighs, and what it plays.
    #[arg(long)]
    pub pot: Option<i64>,
    /// The current stake, a rung of the default ladder 1 2 5 10 (blind units).
    #[arg(long, default_value_t = 1, requires = "pot")]
    pub stake: i64,
    /// The betting round, from 1 (compare is allowed from round 2).
    #[arg(long, default_value_t = 1, requires = "pot")]
    pub round: u32,
    /// My chips behind (each opponent has the default stack, 100, behind).
    #[arg(long, default_value_t = 100, requires = "pot")]
    pub stack: i64,
    /// How many of the opponents have looked at their cards.
    #[arg(long, default_value_t = 0, requires = "pot")]
    pub seen_opponents: usize,
    /// I have not looked at my cards yet: the bot decides without them (and may look).
    #[arg(long, requires = "pot")]
    pub blind: bool,
    /// The bot to follow: `ev`, `ev-adaptive` (with no actions seen yet) or a roster variant.
    #[arg(long, default_value = "ev", requires = "pot")]
    pub bot: String,
    /// A bot parameter, `name=value` (`horizon=3`); repeat for each.
    #[arg(long = "param", value_name = "NAME=VALUE", requires = "pot")]
    pub params: Vec<String>,
    /// Also show how each figure is formed: the formulas with their numbers.
    #[arg(long)]
    pub explain: bool,
}

/// What `arena advise zhajinhua` prints: the text (`Display`), or the JSON with `--json`
/// (`Serialize`, in this order).
#[derive(serde::Serialize)]
pub struct Answer {
    game: &'static str,
    hand: String,
    category: &'static str,
    category_zh: &'static str,
    describe: String,
    strength: Strength,
    opponents: usize,
    special_235: bool,
    win: Win,
    /// With `--pot`: what the bot weighs and plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<BotAnswer>,
    #[serde(skip)]
    explain: bool,
}

/// The win probability and how it was counted.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Win {
    /// One opponent: every hand it may hold.
    HeadsUp {
        p: f64,
        tie: f64,
        method: &'static str,
        hands: u32,
    },
    /// Two opponents: every pair of hands.
    Two {
        p: f64,
        method: &'static str,
    },
    MonteCarlo {
        p: f64,
        std_error: f64,
        method: &'static str,
        deals: u32,
        seed: u64,
    },
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = self.strength;
        writeln!(f, "hand:      {}", self.hand)?;
        writeln!(f, "category:  {} ({}), {}", self.category, self.category_zh, self.describe)?;
        writeln!(
            f,
            "strength:  {value} ({value:#06x}: category {}, ranks {:x} {:x} {:x}; ranks 0-c = 2-A)",
            value >> 12,
            value >> 8 & 15,
            value >> 4 & 15,
            value & 15
        )?;
        let k = self.opponents;
        match self.win {
            Win::HeadsUp { p, tie, hands, .. } => writeln!(
                f,
                "win:       {:.2}% against 1 random hand (tie {:.2}%, exact over all {hands} hands)",
                100.0 * p,
                100.0 * tie
            )?,
            Win::Two { p, .. } => {
                writeln!(f, "win:       {:.2}% against 2 random hands (exact over all pairs of hands)", 100.0 * p)?
            }
            Win::MonteCarlo { p, std_error, deals, .. } => writeln!(
                f,
                "win:       {:.2}% against {k} random hands (Monte Carlo, {deals} deals, standard error {:.2}%)",
                100.0 * p,
                100.0 * std_error
            )?,
        }
        if self.explain {
            f.write_str(&explain_hand(k))?;
        }
        match &self.bot {
            Some(bot) => write!(f, "{bot}"),
            None => Ok(()),
        }
    }
}

pub fn run(args: &AdviseArgs) -> Result<Answer> {
    let cards = parse_cards(&args.hand)?;
    let hand: [Card; 3] = cards.try_into().map_err(|c: Vec<Card>| {
        Error::input(format!("a zhajinhua hand has 3 cards, `{}` has {}", args.hand, c.len()))
    })?;
    if !(1..=5).contains(&args.opponents) {
        return Err(Error::input(format!("--opponents must be 1 to 5, not {}", args.opponents)));
    }
    if args.samples == 0 {
        return Err(Error::input("--samples must be at least 1"));
    }
    let value = evaluate(hand);
    let cat = Category::of(value);
    let win = match args.opponents {
        1 => {
            let odds = heads_up(hand, args.special_235);
            Win::HeadsUp { p: odds.win(), tie: odds.tie(), method: "exact", hands: OPPONENT_HANDS }
        }
        2 => Win::Two { p: beats_two_exact(hand, args.special_235), method: "exact" },
        k => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
            let e = beats_all_monte_carlo(hand, k, args.samples, args.special_235, &mut rng);
            let (deals, seed) = (args.samples, args.seed);
            Win::MonteCarlo { p: e.p, std_error: e.std_error, method: "monte-carlo", deals, seed }
        }
    };
    Ok(Answer {
        game: "zhajinhua",
        hand: format!("{} {} {}", hand[0], hand[1], hand[2]),
        category: cat.name(),
        category_zh: cat.name_zh(),
        describe: describe(value),
        strength: value,
        opponents: args.opponents,
        special_235: args.special_235,
        win,
        bot: args.pot.map(|_| follow_the_bot(args, hand)).transpose()?,
        explain: args.explain,
    })
}

/// How the win probability is counted, for `--explain`.
fn explain_hand(opponents: usize) -> String {
    let how = match opponents {
        1 => "every hand the opponent may hold from the 49 unseen cards is counted once",
        2 => "every pair of hands from the unseen cards, counted by inclusion-exclusion over the hands that beat or tie mine",
        _ => "deals of the opponents' hands from the unseen cards, drawn from the seed; the standard error is sqrt(p(1-p)/deals)",
    };
    format!(
        "explain:\n  the strength value orders hands: the category × 4096, then the ranks that decide, highest first\n  \
         a win beats every opponent outright: {how}\n"
    )
}

/// The situation as the bot sees it: me in seat 0, the opponents in seats 1.., the first
/// `seen_opponents` of them seen, the pot shared out as evenly as chips allow.
fn situation(args: &AdviseArgs, game: &Zhajinhua, pot: i64) -> Result<Public> {
    let seats = args.opponents + 1;
    if pot < 1 {
        return Err(Error::input(format!("--pot must be at least 1 chip, not {pot}")));
    }
    if !game.stakes.contains(&args.stake) {
        return Err(Error::input(format!("--stake {} is not a rung of the ladder {:?}", args.stake, game.stakes)));
    }
    if !(1..=game.round_cap).contains(&args.round) {
        return Err(Error::input(format!("--round must be 1 to {}, not {}", game.round_cap, args.round)));
    }
    if !(1..=1_000_000_000).contains(&args.stack) {
        return Err(Error::input(format!("--stack must be 1 to 1000000000 chips, not {}", args.stack)));
    }
    if args.seen_opponents > args.opponents {
        return Err(Error::input(format!(
            "--seen-opponents {} is more than the {} opponent(s)",
            args.seen_opponents, args.opponents
        )));
    }
    let mut p = Public {
        seats,
        pot,
        stack: [game.stack; MAX_SEATS],
        put_in: [0; MAX_SEATS],
        in_hand: [false; MAX_SEATS],
        seen: [false; MAX_SEATS],
        stake: args.stake,
        round: args.round,
        to_act: Some(0),
        events: Vec::new(),
    };
    p.stack[0] = args.stack;
    for seat in 0..seats {
        p.in_hand[seat] = true;
        p.put_in[seat] = pot / seats as i64 + i64::from((seat as i64) < pot % seats as i64);
        p.seen[seat] = if seat == 0 { !args.blind } else { seat <= args.seen_opponents };
    }
    Ok(p)
}

/// What `ev` (or `--bot`) weighs in the situation given, and what it plays.
#[derive(serde::Serialize)]
struct BotAnswer {
    name: String,
    kind: String,
    p_all: f64,
    horizon: f64,
    values: Vec<ActionValue>,
    look: Option<f64>,
    may_raise: bool,
    action: String,
    #[serde(skip)]
    opponents: usize,
    #[serde(skip)]
    blind: bool,
    #[serde(skip)]
    raise_min_p: f64,
    /// `--explain`'s formulas with this situation's numbers, text only.
    #[serde(skip)]
    explain: Option<String>,
}

/// An action the bot weighs and its expected chips.
#[derive(serde::Serialize)]
struct ActionValue {
    action: String,
    ev: f64,
}

impl std::fmt::Display for BotAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} ({}): P {:.4} of beating all {} opponent(s){}, priced over {} round(s); expected chips of each action:",
            self.name,
            self.kind,
            self.p_all,
            self.opponents,
            if self.blind { " with a hand not seen yet" } else { "" },
            self.horizon
        )?;
        // An action's text names it: the one the bot plays is marked.
        let mark = |action: &str| if action == self.action { "  <- the bot" } else { "" };
        for v in &self.values {
            writeln!(f, "  {:<10} {:+.2}{}", v.action, v.ev, mark(&v.action))?;
        }
        if let Some(look) = self.look {
            writeln!(f, "  {:<10} {look:+.2}{}", "look", mark("look"))?;
        }
        if !self.may_raise {
            writeln!(f, "  (no raise weighed: P {:.4} < raise_min_p {})", self.p_all, self.raise_min_p)?;
        }
        writeln!(f, "the bot: {}", self.action)?;
        f.write_str(self.explain.as_deref().unwrap_or(""))
    }
}

fn follow_the_bot(args: &AdviseArgs, hand: [Card; 3]) -> Result<BotAnswer> {
    let (kind, params) = bot_from_args(&OwnKinds::<super::Zhajinhua>::new(), &args.bot, &args.params)?;
    if kind != "ev" && kind != "ev-adaptive" {
        return Err(Error::input(format!(
            "--bot: the adviser follows ev and its variants, not `{}` ({kind})",
            args.bot
        )));
    }
    let mut game = Zhajinhua::with_seats(args.opponents + 1);
    game.special_235 = args.special_235;
    let public = situation(args, &game, args.pot.expect("called with --pot"))?;
    let mut bot = EvBot::new(EvConfig::from_params(&params, kind == "ev-adaptive"));
    let view = View { seat: 0, public: &public, cards: (!args.blind).then_some(hand) };
    let weighed = bot.weigh(&game, &view);
    let text_of = |a: &Action| game.action_text(a).to_string();
    let values = weighed.values.iter().map(|(a, v)| ActionValue { action: text_of(a), ev: *v }).collect();
    Ok(BotAnswer {
        name: args.bot.clone(),
        kind,
        p_all: weighed.p_all,
        horizon: weighed.horizon,
        values,
        look: weighed.look,
        may_raise: weighed.may_raise,
        action: text_of(&weighed.choice()),
        opponents: args.opponents,
        blind: args.blind,
        raise_min_p: params.f64("raise_min_p"),
        explain: args.explain.then(|| explain_values(&game, &public, &weighed, &params)),
    })
}

/// The formulas behind ev's values, with this situation's numbers.
fn explain_values(game: &Zhajinhua, p: &Public, w: &Weighed, params: &crate::core::Params) -> String {
    let my_mult = game.multiplier(p, 0);
    let seen = game.seen_multiplier;
    [
        "explain:".to_string(),
        "  fold = 0: the chips in the pot are sunk".to_string(),
        format!(
            "  call = P × (pot + H × stake × (mine + theirs)) − H × stake × mine, the cost capped at my stack: \
             P {:.4}, pot {}, H {}, stake {}, mine {my_mult} (a seen seat pays {seen} a unit), \
             theirs = 1 per blind opponent able to pay + seen_call_weight {} × {seen} per seen one",
            w.p_all,
            p.pot,
            w.horizon,
            p.stake,
            params.f64("seen_call_weight")
        ),
        format!(
            "  raise to L = the call's formula with stake L, less raise_margin {}, weighed only when P >= raise_min_p {}",
            params.f64("raise_margin"),
            params.f64("raise_min_p")
        ),
        "  compare with j = q_j × P(beating the others) × (pot + price) − price: q_j beats j outright (the asker loses ties)"
            .to_string(),
        format!(
            "  look (a blind seat) = E[max(0, P_h × A − B)] over the hands it may hold, at seen prices, + look_bias {}",
            params.f64("look_bias")
        ),
        "  the bot plays the first action of the highest value, and looks when looking is worth at least that".to_string(),
    ]
    .join("\n")
        + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Advice;

    /// The answer as the command line erases it: its text and its JSON.
    fn answer(args: &AdviseArgs) -> Result<Advice> {
        run(args).map(|a| Advice::of(&a))
    }

    fn args(hand: &str, opponents: usize) -> AdviseArgs {
        AdviseArgs {
            hand: hand.into(),
            opponents,
            special_235: false,
            samples: 20_000,
            seed: 1,
            pot: None,
            stake: 1,
            round: 1,
            stack: 100,
            seen_opponents: 0,
            blind: false,
            bot: "ev".into(),
            params: Vec::new(),
            explain: false,
        }
    }

    #[test]
    fn prints_category_strength_and_win() {
        let out = answer(&args("AS AH KD", 1)).unwrap().text;
        assert!(out.contains("category:  pair (对子), pair of As, K kicker"), "{out}");
        assert!(out.contains("strength:  7344 (0x1cb0"), "{out}");
        assert!(out.contains("win:       91.14% against 1 random hand"), "{out}");
        assert!(answer(&args("AS AH KD", 2)).unwrap().text.contains("against 2 random hands (exact"));
        assert!(answer(&args("AS AH KD", 4)).unwrap().text.contains("Monte Carlo, 20000 deals"));
    }

    /// The adviser's figures are the bot's formulas on the situation given: a call priced over
    /// six rounds, a compare, and the choice of the highest.
    #[test]
    fn the_bot_is_followed_with_its_own_values() {
        let mut a = args("AS AH KD", 2);
        (a.pot, a.round) = (Some(6), 2);
        let advice = answer(&a).unwrap();
        let bot = &advice.json["bot"];
        let p = bot["p_all"].as_f64().unwrap();
        let value = |action: &str| {
            let values = bot["values"].as_array().unwrap();
            values.iter().find(|v| v["action"] == action).map(|v| v["ev"].as_f64().unwrap())
        };
        // Seen (mine 2 a unit), two blind opponents (1 each), stake 1, H 6, pot 6.
        let call = p * (6.0 + 6.0 * (2.0 + 2.0)) - 12.0;
        assert!((value("call").unwrap() - call).abs() < 1e-9, "{advice:?}");
        // Compare with 1: beat it outright, and the other with P / P_1; price 2.
        let hand = ["As", "Ah", "Kd"].map(|c| Card::parse(c).unwrap());
        let heads_up = super::super::winprob::heads_up(hand, false);
        let compare = heads_up.win() * (p / heads_up.equity()) * (6.0 + 2.0) - 2.0;
        assert!((value("compare 1").unwrap() - compare).abs() < 1e-4, "{compare} {advice:?}");
        assert_eq!(value("raise 2"), None, "P below raise_min_p: no raise weighed");
        assert_eq!(bot["action"], "call");
        assert!(advice.text.contains("  call       +12.93  <- the bot"), "{}", advice.text);
        // A hand that cannot win folds; a blind seat with a cheap pot looks.
        let mut weak = args("7S 4H 2D", 2);
        (weak.pot, weak.round, weak.seen_opponents) = (Some(6), 2, 1);
        assert_eq!(answer(&weak).unwrap().json["bot"]["action"], "fold");
        let mut blind = args("7S 4H 2D", 1);
        (blind.pot, blind.blind) = (Some(3), true);
        assert_eq!(answer(&blind).unwrap().json["bot"]["action"], "look");
        // A variant's parameters are used: with raise_min_p 0.5 the pair raises.
        let mut raiser = args("AS AH KD", 2);
        (raiser.pot, raiser.round, raiser.params) = (Some(6), 2, vec!["raise_min_p=0.5".into()]);
        assert!(answer(&raiser).unwrap().json["bot"]["action"].as_str().unwrap().starts_with("raise"));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for (hand, n) in
            [("AS AH", 1), ("AS AH KD QC", 1), ("AS AS KD", 1), ("ZZ AH KD", 1), ("AS AH KD", 0), ("AS AH KD", 6)]
        {
            assert!(answer(&args(hand, n)).is_err(), "{hand} {n}");
        }
        let situations: [fn(&mut AdviseArgs); 6] = [
            |a| a.pot = Some(0),
            |a| a.stake = 3,
            |a| a.round = 0,
            |a| a.stack = 0,
            |a| a.seen_opponents = 2,
            |a| a.bot = "threshold".into(),
        ];
        for set in situations {
            let mut a = args("AS AH KD", 1);
            a.pot = Some(5);
            set(&mut a);
            assert!(answer(&a).is_err(), "{a:?}");
        }
    }
}
