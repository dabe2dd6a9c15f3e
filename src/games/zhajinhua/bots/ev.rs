//! `ev` and `ev-adaptive`: the series' expected-value AI.
//!
//! The bot estimates P, its probability of winning against the seats still in, and takes the
//! action with the highest expected chip value (chips already in the pot are sunk, so folding is 0):
//! - call: `P * (pot + H * (my call + the others' calls)) - H * my call`. The rules file's "over
//!   the remaining round" is stretched to `H` = `horizon` rounds (default 6), so that calling along
//!   with a middling hand is priced as what it is, paying every round; a blind seat that may compare
//!   no one (all others seen) is committed to the rest of the hand.
//! - the others' calls: a blind seat calls whatever it holds, so its money is there to be won; a
//!   seen seat goes on only when it likes its hand, so its calls count `seen_call_weight` (0).
//!   Counting them in full (the `ev-naive` roster variant) loses about 13 chips a hand to
//!   `threshold`, which calls with pairs and better only.
//! - raise to a rung L: the same with the stake L, only when P >= `raise_min_p` and it beats the
//!   call by `raise_margin` chips;
//! - compare with seat j: `q_j * P_rest * (pot + c) - c`, q_j the probability of beating j outright
//!   (the asker loses ties), P_rest that of beating the others;
//! - look (a blind seat only): the expected value of the seen decision over the hands it might
//!   hold, `E[max(0, P_h * A - B)]` at seen prices, against the best blind action at half price
//!   with P averaged over all hands; it looks when the information is worth its price.
//!
//! P against k opponents is the product of per-opponent probabilities. For `ev` each is the exact
//! heads-up equity (card removal included, [`super::super::winprob`]); the product ignores the
//! opponents' removal of each other's cards, which moves P by under 0.01 (checked against Monte
//! Carlo below). `ev-adaptive` reweights each opponent's hand distribution by its actions
//! ([`super::belief`]).

use std::sync::OnceLock;

use crate::core::{factory, BotFactory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params, Seat};
use crate::error::Result;

use super::super::engine::{Action, Public, View, Zhajinhua, MAX_SEATS};
use super::super::eval::hand_index;
use super::super::winprob::{equity_table, heads_up};
use super::belief::{Belief, Likelihoods};

const EV_SPECS: [ParamSpec; 5] = [
    ParamSpec::new("horizon", "6.0", "rounds of calling that a call or a raise is priced as committing to")
        .range(1.0, 1000.0),
    ParamSpec::new("raise_margin", "1.0", "chips by which a raise's EV must beat the call's").range(-1e6, 1e6),
    ParamSpec::new("raise_min_p", "0.85", "the least win probability against all seats still in at which it raises")
        .range(0.0, 1.0),
    ParamSpec::new("look_bias", "0.0", "chips added to the EV of looking (positive: looks sooner)").range(-1e6, 1e6),
    ParamSpec::new(
        "seen_call_weight",
        "0.0",
        "how far a seen seat's future calls count as money to win (0: it keeps calling only when its hand is good)",
    )
    .range(0.0, 1.0),
];
pub const EV_PARAMS: &[ParamSpec] = &EV_SPECS;

/// ev's parameters, then the belief model's.
pub const ADAPTIVE_PARAMS: &[ParamSpec] = &{
    let belief = [
        ParamSpec::new("call_mid", "0.4", "heads-up equity at which a seen seat is as likely to call as not")
            .range(0.0, 1.0),
        ParamSpec::new("raise_mid", "0.7", "heads-up equity at which a seen seat is as likely to raise as not")
            .range(0.0, 1.0),
        ParamSpec::new("width", "0.1", "softness of those two logistic likelihoods (equity units)").range(0.001, 1.0),
    ];
    let mut all = [EV_SPECS[0]; 8];
    let mut i = 0;
    while i < all.len() {
        all[i] = if i < EV_SPECS.len() { EV_SPECS[i] } else { belief[i - EV_SPECS.len()] };
        i += 1;
    }
    all
};

pub const EV: BotKind<Zhajinhua> = BotKind {
    name: "ev",
    about: "expected-value AI: exact heads-up win probability, EV of fold/call/raise/compare, looks when worth it",
    params: EV_PARAMS,
    make: |p, game| make(p, game, false),
};

pub const EV_ADAPTIVE: BotKind<Zhajinhua> = BotKind {
    name: "ev-adaptive",
    about: "ev with each opponent's hand distribution updated from its actions (seen calls, raises, compares won)",
    params: ADAPTIVE_PARAMS,
    make: |p, game| make(p, game, true),
};

#[derive(Clone, Debug)]
pub struct EvConfig {
    pub horizon: f64,
    pub raise_margin: f64,
    pub raise_min_p: f64,
    pub look_bias: f64,
    pub seen_call_weight: f64,
    /// `Some` for ev-adaptive.
    pub adaptive: Option<Likelihoods>,
}

impl EvConfig {
    /// The configuration of checked parameters of `ev` (or `ev-adaptive` when `adaptive`).
    pub fn from_params(p: &Params, adaptive: bool) -> EvConfig {
        let adaptive = adaptive.then(|| Likelihoods {
            call_mid: p.f64("call_mid"),
            raise_mid: p.f64("raise_mid"),
            width: p.f64("width"),
        });
        EvConfig {
            horizon: p.f64("horizon"),
            raise_margin: p.f64("raise_margin"),
            raise_min_p: p.f64("raise_min_p"),
            look_bias: p.f64("look_bias"),
            seen_call_weight: p.f64("seen_call_weight"),
            adaptive,
        }
    }
}

fn make(p: &Params, game: &Zhajinhua, adaptive: bool) -> Result<BotFactory<Zhajinhua>> {
    let cfg = EvConfig::from_params(p, adaptive);
    tables(game.special_235); // build the tables once, before the games run in parallel
    Ok(factory(move || EvBot::new(cfg.clone())))
}

/// What ev weighs in a decision: every action's expected chip value as the bot computes it, in
/// the order it weighs them (fold first, at 0: chips in the pot are sunk), and the figures behind
/// them. The bot plays the first action of the highest value, or looks when looking is worth at
/// least that ([`Weighed::choice`]).
#[derive(Clone, Debug)]
pub struct Weighed<'a> {
    /// (action, value in chips); a raise carries `raise_margin` off already.
    pub values: &'a [(Action, f64)],
    /// The value of looking, for a blind seat.
    pub look: Option<f64>,
    /// P: the probability of beating every seat still in.
    pub p_all: f64,
    /// Rounds of calling a call or a raise is priced as committing to.
    pub horizon: f64,
    /// Whether P reached `raise_min_p` (else no raise is weighed).
    pub may_raise: bool,
}

impl Weighed<'_> {
    /// The action the bot plays.
    pub fn choice(&self) -> Action {
        let mut best = (Action::Fold, f64::NEG_INFINITY);
        for &(action, value) in self.values {
            if value > best.1 {
                best = (action, value);
            }
        }
        match self.look {
            Some(look) if look >= best.1 => Action::Look,
            _ => best.0,
        }
    }
}

/// Per-rule-set tables the bot reads: heads-up equity and strict win by hand, and for the blind
/// seat the distribution of equity^k over all hands.
pub struct Tables {
    pub equity: &'static [f32],
    pub win: Vec<f32>,
    /// `mean_pow[k]` = E[equity^k] over all hands, k = 0..MAX_SEATS.
    pub mean_pow: [f64; MAX_SEATS],
    /// Strict heads-up win averaged over all hands.
    pub mean_win: f64,
    /// `sorted_pow[k]`: equity^k of every hand, ascending, and `tail_sum[k][i]` = sum of entries i..
    pub sorted_pow: Vec<Vec<f32>>,
    pub tail_sum: Vec<Vec<f64>>,
}

pub fn tables(special_235: bool) -> &'static Tables {
    static PLAIN: OnceLock<Tables> = OnceLock::new();
    static SPECIAL: OnceLock<Tables> = OnceLock::new();
    let cell = if special_235 { &SPECIAL } else { &PLAIN };
    cell.get_or_init(|| {
        let equity = equity_table(special_235);
        let win: Vec<f32> =
            super::super::eval::all_hands().iter().map(|&h| heads_up(h, special_235).win() as f32).collect();
        let n = equity.len() as f64;
        let mut mean_pow = [0.0; MAX_SEATS];
        let mut sorted_pow = Vec::new();
        let mut tail_sum = Vec::new();
        for (k, mean) in mean_pow.iter_mut().enumerate() {
            let mut xs: Vec<f32> = equity.iter().map(|&e| e.powi(k as i32)).collect();
            xs.sort_unstable_by(f32::total_cmp);
            let mut tail = vec![0.0; xs.len() + 1];
            for i in (0..xs.len()).rev() {
                tail[i] = tail[i + 1] + xs[i] as f64;
            }
            *mean = tail[0] / n;
            sorted_pow.push(xs);
            tail_sum.push(tail);
        }
        let mean_win = win.iter().map(|&w| w as f64).sum::<f64>() / n;
        Tables { equity, win, mean_pow, mean_win, sorted_pow, tail_sum }
    })
}

impl Tables {
    /// E[max(0, a * equity^k - b)] over all hands: the value of looking and then playing on only
    /// when the seen call pays.
    pub fn expected_positive(&self, k: usize, a: f64, b: f64) -> f64 {
        if a <= 0.0 {
            return 0.0;
        }
        let xs = &self.sorted_pow[k];
        let t = (b / a) as f32;
        let i = xs.partition_point(|&x| x <= t);
        let count = (xs.len() - i) as f64;
        (a * self.tail_sum[k][i] - b * count) / xs.len() as f64
    }
}

pub struct EvBot {
    cfg: EvConfig,
    /// ev-adaptive: one belief per seat, and how many public events it has read.
    beliefs: Vec<Belief>,
    events_read: usize,
    /// The values of the last decision ([`Weighed::values`]): one buffer from move to move.
    values: Vec<(Action, f64)>,
}

/// The win probabilities the decision needs.
struct Odds {
    /// Beat each opponent (showdown share, ties halved), by seat.
    p: [f64; MAX_SEATS],
    /// Beat it outright (compare: the asker loses ties), by seat.
    q: [f64; MAX_SEATS],
}

impl EvBot {
    pub fn new(cfg: EvConfig) -> EvBot {
        let beliefs = if cfg.adaptive.is_some() { vec![Belief::uniform(); MAX_SEATS] } else { Vec::new() };
        EvBot { cfg, beliefs, events_read: 0, values: Vec::new() }
    }

    fn odds(&self, game: &Zhajinhua, view: &View<'_>) -> Odds {
        let t = tables(game.special_235);
        let p = view.public;
        let mut odds = Odds { p: [0.0; MAX_SEATS], q: [0.0; MAX_SEATS] };
        let (equity, win) = match view.cards {
            Some(cards) => {
                let i = hand_index(cards);
                (t.equity[i] as f64, t.win[i] as f64)
            }
            None => (0.5, t.mean_win),
        };
        for j in (0..p.seats).filter(|&j| j != view.seat && p.in_hand[j]) {
            let scale = match &self.cfg.adaptive {
                Some(_) => self.beliefs[j].scale(equity, view.cards.is_some()),
                None => 1.0,
            };
            odds.p[j] = (equity * scale).min(1.0);
            odds.q[j] = (win * scale).min(1.0);
        }
        odds
    }

    fn read_events(&mut self, p: &Public, me: Seat) {
        if let Some(lk) = &self.cfg.adaptive {
            for e in &p.events[self.events_read..] {
                Belief::observe(&mut self.beliefs, lk, e, me);
            }
        }
        self.events_read = p.events.len();
    }

    /// Every action's value in `view` ([`Weighed`]); the bot plays [`Weighed::choice`]. A
    /// fresh bot (ev-adaptive with no events read) weighs as the first decision of a hand.
    pub fn weigh(&mut self, game: &Zhajinhua, view: &View<'_>) -> Weighed<'_> {
        let p = view.public;
        let me = view.seat;
        let t = tables(game.special_235);
        let odds = self.odds(game, view);
        let opponents = || (0..p.seats).filter(move |&j| j != me && p.in_hand[j]);
        let k = opponents().count();
        let pot = p.pot as f64;
        let stack = p.stack[me] as f64;
        let rounds_left = (game.round_cap + 1).saturating_sub(p.round).max(1) as f64;
        // A call commits to `horizon` rounds; to the rest of the hand when there is no one this
        // seat may ever ask to compare (a blind seat facing only seen seats): then the only ways
        // out are the cap and folding.
        let can_end = opponents().any(|j| game.blind_may_compare_seen || p.seen[me] || !p.seen[j]);
        let h = if can_end { self.cfg.horizon.min(rounds_left) } else { rounds_left };
        // Per stake unit: what I pay, and what the others who can still pay put in. A blind seat
        // calls whatever it holds, so its calls are money to win; a seen seat goes on calling when
        // its hand is good, so its calls are weighted by `seen_call_weight`.
        let my_mult = game.multiplier(p, me) as f64;
        let their_mult: f64 = opponents()
            .filter(|&j| p.can_act(j))
            .map(|j| if p.seen[j] { self.cfg.seen_call_weight * game.seen_multiplier as f64 } else { 1.0 })
            .sum();
        let p_all: f64 = if view.cards.is_some() {
            opponents().map(|j| odds.p[j]).product()
        } else if self.cfg.adaptive.is_some() {
            opponents().map(|j| odds.p[j]).product::<f64>() / 0.5f64.powi(k as i32) * t.mean_pow[k]
        } else {
            t.mean_pow[k]
        };
        let committed = |stake: f64| {
            let cost = (h * stake * my_mult).min(stack);
            p_all * (pot + h * stake * (my_mult + their_mult)) - cost
        };

        let stake = p.stake as f64;
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        values.extend([(Action::Fold, 0.0), (Action::Call, committed(stake))]);
        let may_raise = p_all >= self.cfg.raise_min_p;
        for &to in
            game.stakes.iter().filter(|&&to| may_raise && to > p.stake && to * game.multiplier(p, me) <= p.stack[me])
        {
            values.push((Action::Raise(to), committed(to as f64) - self.cfg.raise_margin));
        }
        let price = (stake * my_mult).min(stack);
        for j in opponents().filter(|&j| game.may_compare(p, me, j)) {
            let rest = if odds.p[j] > 0.0 { p_all / odds.p[j] } else { 0.0 };
            let rest = if k == 1 { 1.0 } else { rest.min(1.0) };
            values.push((Action::Compare(j), odds.q[j] * rest * (pot + price) - price));
        }

        // Looking: play the seen hand at double price only when it pays.
        let look = view.cards.is_none().then(|| {
            let seen = game.seen_multiplier as f64;
            let a = pot + h * stake * (seen + their_mult);
            let b = (h * stake * seen).min(stack);
            t.expected_positive(k, a, b) + self.cfg.look_bias
        });
        self.values = values;
        Weighed { values: &self.values, look, p_all, horizon: h, may_raise }
    }
}

impl Bot<Zhajinhua> for EvBot {
    fn act(&mut self, game: &Zhajinhua, view: &View<'_>, _: &mut BotRng) -> Action {
        self.read_events(view.public, view.seat);
        self.weigh(game, view).choice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::core::DealRng;
    use crate::core::Game;
    use rand::SeedableRng;

    fn bot(adaptive: bool) -> EvBot {
        let specs = if adaptive { ADAPTIVE_PARAMS } else { EV_PARAMS };
        let p = Params::new(specs, &toml::Table::new(), "test").unwrap();
        let lk = adaptive.then(|| Likelihoods {
            call_mid: p.f64("call_mid"),
            raise_mid: p.f64("raise_mid"),
            width: p.f64("width"),
        });
        EvBot::new(EvConfig {
            horizon: 3.0,
            raise_margin: 1.0,
            raise_min_p: 0.85,
            look_bias: 0.0,
            seen_call_weight: 0.0,
            adaptive: lk,
        })
    }

    #[test]
    fn expected_positive_matches_a_direct_sum() {
        let t = tables(false);
        for (k, a, b) in [(1, 10.0, 4.0), (3, 30.0, 6.0), (5, 12.0, 0.5), (2, 1.0, 5.0)] {
            let direct: f64 = t.equity.iter().map(|&e| (a * (e as f64).powi(k as i32) - b).max(0.0)).sum::<f64>()
                / t.equity.len() as f64;
            assert!((t.expected_positive(k, a, b) - direct).abs() < 1e-4, "{k} {a} {b}");
        }
    }

    #[test]
    fn strong_hands_raise_or_compare_and_weak_hands_fold() {
        let game = Zhajinhua::with_seats(2);
        let mut s = game.deal(&mut DealRng::seed_from_u64(3));
        s.hands[0] = parse_cards("AS AD AC").unwrap().try_into().unwrap();
        s.public.seen[0] = true;
        let a = bot(false).weigh(&game, &game.view(&s, 0)).choice();
        assert!(matches!(a, Action::Raise(_)), "{a:?}");
        s.hands[0] = parse_cards("2S 3D 5C").unwrap().try_into().unwrap();
        s.public.seen[1] = true;
        assert_eq!(bot(false).weigh(&game, &game.view(&s, 0)).choice(), Action::Fold);
    }

    #[test]
    fn the_product_of_heads_up_equities_is_close_to_monte_carlo() {
        // The approximation the bot makes for k opponents, measured on a few hands.
        use crate::games::zhajinhua::winprob::beats_all_monte_carlo;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        for s in ["AS AH KD", "KS QS 9D", "7C 7D 2H", "QS JD 4C"] {
            let h: [crate::cards::Card; 3] = parse_cards(s).unwrap().try_into().unwrap();
            let win = heads_up(h, false).win();
            for k in [2, 5] {
                let mc = beats_all_monte_carlo(h, k, 40_000, false, &mut rng);
                assert!(
                    (win.powi(k as i32) - mc.p).abs() < 0.01 + 4.0 * mc.std_error,
                    "{s} k={k}: {mc:?} vs {}",
                    win.powi(k as i32)
                );
            }
        }
    }
}
