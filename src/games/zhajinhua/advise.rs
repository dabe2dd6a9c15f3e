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

use std::fmt::Write;

use rand::SeedableRng;

use serde_json::json;

use crate::cards::{parse_cards, Card};
use crate::error::{Error, Result};
use crate::games::Advice;

use super::eval::{describe, evaluate, Category};
use super::winprob::{beats_all_monte_carlo, beats_two_exact, heads_up, OPPONENT_HANDS};

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
}

pub fn run(args: &AdviseArgs) -> Result<Advice> {
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
    let mut out = String::new();
    let _ = writeln!(out, "hand:      {} {} {}", hand[0], hand[1], hand[2]);
    let _ = writeln!(out, "category:  {} ({}), {}", cat.name(), cat.name_zh(), describe(value));
    let _ = writeln!(
        out,
        "strength:  {value} ({value:#06x}: category {}, ranks {:x} {:x} {:x}; ranks 0-c = 2-A)",
        value >> 12,
        value >> 8 & 15,
        value >> 4 & 15,
        value & 15
    );
    let (win, win_json) = match args.opponents {
        1 => {
            let odds = heads_up(hand, args.special_235);
            let text = format!(
                "{:.2}% against 1 random hand (tie {:.2}%, exact over all {OPPONENT_HANDS} hands)",
                100.0 * odds.win(),
                100.0 * odds.tie()
            );
            (text, json!({ "p": odds.win(), "tie": odds.tie(), "method": "exact", "hands": OPPONENT_HANDS }))
        }
        2 => {
            let p = beats_two_exact(hand, args.special_235);
            (
                format!("{:.2}% against 2 random hands (exact over all pairs of hands)", 100.0 * p),
                json!({ "p": p, "method": "exact" }),
            )
        }
        k => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
            let e = beats_all_monte_carlo(hand, k, args.samples, args.special_235, &mut rng);
            let text = format!(
                "{:.2}% against {k} random hands (Monte Carlo, {} deals, standard error {:.2}%)",
                100.0 * e.p,
                args.samples,
                100.0 * e.std_error
            );
            let how = json!({ "p": e.p, "std_error": e.std_error, "method": "monte-carlo", "deals": args.samples, "seed": args.seed });
            (text, how)
        }
    };
    let _ = writeln!(out, "win:       {win}");
    let json = json!({
        "game": "zhajinhua",
        "hand": format!("{} {} {}", hand[0], hand[1], hand[2]),
        "category": cat.name(),
        "category_zh": cat.name_zh(),
        "describe": describe(value),
        "strength": value,
        "opponents": args.opponents,
        "special_235": args.special_235,
        "win": win_json,
    });
    Ok(Advice { text: out, json })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(hand: &str, opponents: usize) -> AdviseArgs {
        AdviseArgs { hand: hand.into(), opponents, special_235: false, samples: 20_000, seed: 1 }
    }

    #[test]
    fn prints_category_strength_and_win() {
        let out = run(&args("AS AH KD", 1)).unwrap().text;
        assert!(out.contains("category:  pair (对子), pair of As, K kicker"), "{out}");
        assert!(out.contains("strength:  7344 (0x1cb0"), "{out}");
        assert!(out.contains("win:       91.14% against 1 random hand"), "{out}");
        assert!(run(&args("AS AH KD", 2)).unwrap().text.contains("against 2 random hands (exact"));
        assert!(run(&args("AS AH KD", 4)).unwrap().text.contains("Monte Carlo, 20000 deals"));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for (hand, n) in
            [("AS AH", 1), ("AS AH KD QC", 1), ("AS AS KD", 1), ("ZZ AH KD", 1), ("AS AH KD", 0), ("AS AH KD", 6)]
        {
            assert!(run(&args(hand, n)).is_err(), "{hand} {n}");
        }
    }
}
