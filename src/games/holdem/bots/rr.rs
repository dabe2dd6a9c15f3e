//! The source's bot: hand strength (HS) by Monte Carlo against the opponents still in, pot odds,
//! rate of return RR = HS / pot odds, and a fold/call/raise table by RR, with chip protection.
//! Every number is a parameter (rules/holdem.md, "The seed's bot").

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rand::Rng;

use crate::cards::{Card, CardSet};
use crate::core::luck::Luck;
use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::{Error, Result};

use super::super::equity::{hand_strength, FastRng};
use super::super::{Action, Chips, Holdem, View};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("trials", "1000", "Monte Carlo trials for hand strength").range(1.0, 1e6),
    ParamSpec::new(
        "thresholds",
        "[0.8, 1.0, 1.3]",
        "RR bounds of the table's rows (RR < first: row 1, ...; ≥ last: last row), increasing",
    )
    .range(0.0, 1000.0),
    ParamSpec::new("fold", "[0.95, 0.80, 0.0, 0.0]", "fold probability per row").range(0.0, 1.0),
    ParamSpec::new("call", "[0.0, 0.05, 0.60, 0.30]", "call probability per row (raise = the rest)").range(0.0, 1.0),
    ParamSpec::new(
        "raise_pot",
        "1.0",
        "raise size as a fraction of the pot after calling (1.0 = pot-sized), capped by the stack",
    )
    .range(0.01, 100.0),
    ParamSpec::new("protect_bb", "4.0", "chip protection: fold if stack - to_call < this many big blinds ...")
        .range(0.0, 1e5),
    ParamSpec::new("protect_hs", "0.5", "... and HS is below this").range(0.0, 1.0),
];

pub const KIND: BotKind<Holdem> = BotKind {
    name: "rr",
    about: "the source's RR mapping: Monte Carlo hand strength / pot odds → fold/call/raise table",
    params: PARAMS,
    make: |p, _| {
        let cfg = RrConfig::from_params(p)?;
        // The pre-flop strengths its policy is asked for are the same in every hand: the bots
        // of one factory share them (each is a function of its key, so sharing changes nothing).
        let preflop = Arc::new(Mutex::new(HashMap::new()));
        Ok(factory(move || RrBot::new(cfg.clone()).sharing(preflop.clone())))
    },
};

#[derive(Clone, Debug)]
pub struct RrConfig {
    pub trials: u64,
    pub thresholds: Vec<f64>,
    pub fold: Vec<f64>,
    pub call: Vec<f64>,
    pub raise_pot: f64,
    pub protect_bb: f64,
    pub protect_hs: f64,
}

impl RrConfig {
    pub fn from_params(p: &Params) -> Result<RrConfig> {
        let cfg = RrConfig {
            trials: p.i64("trials") as u64,
            thresholds: p.f64s("thresholds"),
            fold: p.f64s("fold"),
            call: p.f64s("call"),
            raise_pot: p.f64("raise_pot"),
            protect_bb: p.f64("protect_bb"),
            protect_hs: p.f64("protect_hs"),
        };
        let rows = cfg.thresholds.len() + 1;
        if cfg.fold.len() != rows || cfg.call.len() != rows {
            return Err(Error::input(format!(
                "bot rr: `fold` and `call` need {rows} entries (one more than `thresholds`)"
            )));
        }
        if cfg.fold.iter().zip(&cfg.call).any(|(f, c)| f + c > 1.0 + 1e-9) {
            return Err(Error::input("bot rr: fold and call probabilities must sum to at most 1 per row"));
        }
        if cfg.thresholds.windows(2).any(|w| w[0] > w[1]) {
            return Err(Error::input("bot rr: `thresholds` must be increasing"));
        }
        Ok(cfg)
    }

    pub fn default_config() -> RrConfig {
        RrConfig::from_params(&Params::new(PARAMS, &Default::default(), "bot rr").unwrap()).unwrap()
    }

    /// The table's row (0-based) for a rate of return: the number of thresholds it reaches.
    pub fn row(&self, rr: f64) -> usize {
        self.thresholds.iter().take_while(|&&t| rr >= t).count()
    }

    /// The RR range of `row`: `0.8 <= RR < 1`, `RR < 0.8` for the first, `1.3 <= RR` for the last.
    pub fn row_bounds(&self, row: usize) -> String {
        let lo = row.checked_sub(1).map(|i| format!("{} <= ", self.thresholds[i])).unwrap_or_default();
        let hi = self.thresholds.get(row).map(|t| format!(" < {t}")).unwrap_or_default();
        format!("{lo}RR{hi}")
    }

    /// `row`'s fold, call and raise probabilities in whole percents.
    pub fn percents(&self, row: usize) -> [u32; 3] {
        let (fold, call) = (self.fold[row], self.call[row]);
        [fold, call, 1.0 - fold - call].map(|p| (100.0 * p).round() as u32)
    }

    /// The bot's decision from the numbers it looks at ([`Situation`]). [`RrBot`] draws its
    /// action from the result; `arena advise holdem` shows it.
    pub fn decide(&self, s: &Situation) -> Decision {
        let pot_odds = s.amount / (s.amount + s.pot);
        let rr = s.hs / pot_odds;
        let row = self.row(rr);
        // Chip protection: a short stack does not gamble with a weak hand.
        let protected = s.stack - s.to_call < self.protect_bb * s.big_blind && s.hs < self.protect_hs;
        Decision { pot_odds, rr, row, fold: self.fold[row], call: self.call[row], protected }
    }
}

/// What the rr bot looks at, in chips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Situation {
    /// Hand strength: the probability of beating the opponents still in.
    pub hs: f64,
    /// Chips behind, before calling.
    pub stack: f64,
    /// The bet to call (0 when checking is free).
    pub to_call: f64,
    /// What the bot would put in: the bet to call, or its own standard bet when nothing is owed.
    pub amount: f64,
    /// Chips in the pot, bets included.
    pub pot: f64,
    pub big_blind: f64,
}

/// What the rr bot makes of a decision ([`RrConfig::decide`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// amount / (amount + pot).
    pub pot_odds: f64,
    /// RR = HS / pot odds.
    pub rr: f64,
    /// The table's row (0-based): the number of thresholds RR reaches.
    pub row: usize,
    /// The row's fold and call probabilities (raise = the rest).
    pub fold: f64,
    pub call: f64,
    /// Chip protection applies: the bot folds (checks when checking is free) whatever the row says.
    pub protected: bool,
}

/// What HS depends on: the hand (sng plays many), hole cards, board length (the board only grows
/// within a hand), opponents still in.
type HsKey = (u32, [Card; 2], usize, usize);

/// What HS depends on when the policy is asked: the cards seen (hole and board, as sets) and the
/// opponents still in. Its Monte Carlo is seeded from this key alone ([`seed_of`]).
type SeenKey = (u64, u64, usize);

/// Remembered strengths, for the policy asked at every hand a seat could hold.
type Memo = HashMap<SeenKey, f64>;

/// The memo is emptied past this many entries (a few MB): boards change every hand.
const MEMO_CAP: usize = 1 << 17;

/// The seed of the policy's Monte Carlo: the key mixed (SplitMix64's finaliser), so the answer
/// depends on what the view shows and nothing else.
fn seed_of((hole, board, opponents): SeenKey) -> u64 {
    let mut z = hole ^ board.rotate_left(23) ^ (opponents as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub struct RrBot {
    cfg: RrConfig,
    /// HS of the last decision: the same hole cards, board and number of opponents reuse it.
    cache: Option<(HsKey, f64)>,
    /// The probabilities the last decision drew its action from ([`Bot::policy`]).
    last: Vec<(Action, f64)>,
    /// Strengths the policy was asked for after the flop, this bot's own.
    memo: Memo,
    /// Pre-flop strengths the policy was asked for, shared by the bots of one factory.
    preflop: Arc<Mutex<Memo>>,
}

impl RrBot {
    pub fn new(cfg: RrConfig) -> RrBot {
        RrBot { cfg, cache: None, last: Vec::with_capacity(3), memo: Memo::new(), preflop: Arc::default() }
    }

    fn sharing(mut self, preflop: Arc<Mutex<Memo>>) -> RrBot {
        self.preflop = preflop;
        self
    }

    /// HS as the policy sees it: the bot's Monte Carlo with its own trials, seeded from the cards
    /// seen and the opponents in, remembered.
    fn seen_hs(&mut self, v: &View<'_>) -> f64 {
        let cards = |c: &[Card]| c.iter().copied().collect::<CardSet>().0;
        let key = (cards(&v.hole()), cards(v.board()), v.opponents_in());
        let trials = self.cfg.trials;
        let compute = || hand_strength(v.hole(), v.board(), key.2, trials, &mut FastRng::new(seed_of(key)));
        if v.board().is_empty() {
            let known = self.preflop.lock().unwrap_or_else(|p| p.into_inner()).get(&key).copied();
            return known.unwrap_or_else(|| {
                let hs = compute();
                self.preflop.lock().unwrap_or_else(|p| p.into_inner()).insert(key, hs);
                hs
            });
        }
        if let Some(&hs) = self.memo.get(&key) {
            return hs;
        }
        if self.memo.len() >= MEMO_CAP {
            self.memo.clear();
        }
        let hs = compute();
        self.memo.insert(key, hs);
        hs
    }

    /// The probabilities the bot acts with at `v` for a hand of strength `hs`, pushed onto `out`;
    /// `true` when chip protection decided (the action is then certain and no number is drawn).
    fn distribution(&self, v: &View<'_>, hs: f64, out: &mut Vec<(Action, f64)>) -> bool {
        let to_call = v.to_call();
        let seat = v.seat();
        let bounds = v.raise_bounds();
        let fold_or_check = if to_call == 0 { Action::CheckCall } else { Action::Fold };
        // With nothing owed, the bot's own standard bet stands in for the amount to call.
        let amount = match (to_call, bounds) {
            (0, Some(b)) => self.raise_to(v, b) - v.bet(seat),
            (0, None) => v.blinds().big,
            (c, _) => c,
        } as f64;
        let d = self.cfg.decide(&Situation {
            hs,
            stack: v.stack(seat) as f64,
            to_call: to_call as f64,
            amount,
            pot: v.pot() as f64,
            big_blind: v.blinds().big as f64,
        });
        if d.protected {
            Luck::add_chance(out, fold_or_check, 1.0);
            return true;
        }
        let raise = bounds.map_or(Action::CheckCall, |b| Action::RaiseTo(self.raise_to(v, b)));
        Luck::add_chance(out, fold_or_check, d.fold);
        Luck::add_chance(out, Action::CheckCall, d.call);
        Luck::add_chance(out, raise, 1.0 - d.fold - d.call);
        false
    }

    fn hs(&mut self, v: &View<'_>, rng: &mut BotRng) -> f64 {
        let key = (v.hand_no(), v.hole(), v.board().len(), v.opponents_in());
        match self.cache {
            Some((k, hs)) if k == key => hs,
            _ => {
                let mut fast = FastRng::from_rng(rng);
                let hs = hand_strength(v.hole(), v.board(), key.3, self.cfg.trials, &mut fast);
                self.cache = Some((key, hs));
                hs
            }
        }
    }

    /// The raise-to amount: `raise_pot` × (pot after calling) on top of the bet to match, within
    /// the legal bounds.
    fn raise_to(&self, v: &View<'_>, (min, max): (Chips, Chips)) -> Chips {
        let pot_after_call = (v.pot() + v.to_call()) as f64;
        let want = v.current_bet() as f64 + self.cfg.raise_pot * pot_after_call;
        (want.round() as Chips).clamp(min, max)
    }
}

impl Bot<Holdem> for RrBot {
    fn act(&mut self, _: &Holdem, v: &View<'_>, rng: &mut BotRng) -> Action {
        let hs = self.hs(v, rng);
        let mut last = std::mem::take(&mut self.last);
        last.clear();
        let protected = self.distribution(v, hs, &mut last);
        self.last = last;
        if protected {
            return self.last[0].0;
        }
        // Drawn in the order fold (or check), call, raise, as the table's row reads.
        let r: f64 = rng.random();
        let mut acc = 0.0;
        for &(action, p) in &self.last {
            acc += p;
            if r < acc {
                return action;
            }
        }
        self.last.last().map_or(Action::CheckCall, |&(action, _)| action)
    }

    fn policy(&self, _: &Holdem, _: &View<'_>, out: &mut Vec<(Action, f64)>) {
        out.extend_from_slice(&self.last);
    }

    /// The same table as [`Bot::act`], with HS from a Monte Carlo seeded by the cards seen
    /// (`act` draws its trials from the bot's stream, so the two strengths differ by the Monte
    /// Carlo's noise, about 1.6 percentage points at 1,000 trials).
    fn policy_at(&mut self, _: &Holdem, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
        let hs = self.seen_hs(v);
        self.distribution(v, hs, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::cards::{parse_cards, CardSet};
    use crate::core::Game;

    fn deck(holes: &[&str]) -> [Card; 52] {
        let mut front: Vec<Card> = holes.iter().flat_map(|h| parse_cards(h).unwrap()).collect();
        let used: CardSet = front.iter().copied().collect();
        front.extend(Card::all().filter(|c| !used.contains(*c)));
        front.try_into().unwrap()
    }

    /// Heads-up, rr in the big blind with 350 chips facing the button's all-in.
    fn facing_all_in(hole: &str) -> Action {
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal_cards(&deck(&["AsKs", hole]), &[10_000, 350]);
        g.apply(&mut s, &Action::RaiseTo(10_000)).unwrap();
        let mut bot = RrBot::new(RrConfig::default_config());
        bot.act(&g, &g.view(&s, 1), &mut BotRng::seed_from_u64(1))
    }

    #[test]
    fn chip_protection_folds_weak_short_hands_and_strong_hands_call() {
        assert_eq!(facing_all_in("7c2d"), Action::Fold);
        for seed in 0..20 {
            let g = Holdem::new(2, 50, 100, 10_000);
            let mut s = g.deal_cards(&deck(&["9h8h", "AhAd"]), &[10_000, 350]);
            g.apply(&mut s, &Action::RaiseTo(10_000)).unwrap();
            let mut bot = RrBot::new(RrConfig::default_config());
            let a = bot.act(&g, &g.view(&s, 1), &mut BotRng::seed_from_u64(seed));
            assert_eq!(a, Action::CheckCall, "aces call an all-in (raising is not possible)");
        }
    }

    #[test]
    fn never_folds_when_checking_is_free() {
        // A table that always wants to fold: with nothing owed it must check.
        let mut cfg = RrConfig::default_config();
        cfg.fold = vec![1.0; 4];
        cfg.call = vec![0.0; 4];
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal_cards(&deck(&["7c2d", "AhAd"]), &[10_000, 10_000]);
        g.apply(&mut s, &Action::CheckCall).unwrap();
        let mut bot = RrBot::new(cfg);
        let a = bot.act(&g, &g.view(&s, 1), &mut BotRng::seed_from_u64(3));
        assert_eq!(a, Action::CheckCall);
    }

    #[test]
    fn raises_are_pot_sized_and_within_bounds() {
        let mut cfg = RrConfig::default_config();
        cfg.fold = vec![0.0; 4];
        cfg.call = vec![0.0; 4];
        let g = Holdem::new(2, 50, 100, 10_000);
        let s = g.deal_cards(&deck(&["AhAd", "7c2d"]), &[10_000, 10_000]);
        let mut bot = RrBot::new(cfg.clone());
        // Button: 50 to call into a pot of 150: pot after calling 200, raise to 100 + 200.
        assert_eq!(bot.act(&g, &g.view(&s, 0), &mut BotRng::seed_from_u64(1)), Action::RaiseTo(300));
        cfg.raise_pot = 100.0;
        let mut bot = RrBot::new(cfg);
        assert_eq!(bot.act(&g, &g.view(&s, 0), &mut BotRng::seed_from_u64(1)), Action::RaiseTo(10_000));
    }

    #[test]
    fn bad_parameters_are_refused() {
        let spec = |s: &str| Params::new(PARAMS, &toml::from_str(s).unwrap(), "bot rr").unwrap();
        assert!(RrConfig::from_params(&spec("fold = [0.5, 0.5]")).is_err());
        assert!(RrConfig::from_params(&spec("fold = [0.9, 0.9, 0.9, 0.9]")).is_err());
        assert!(RrConfig::from_params(&spec("thresholds = [1.0, 0.8, 1.3]")).is_err());
        // Out of their declared ranges: refused by the parameter check itself.
        for bad in
            ["raise_pot = 0.0", "raise_pot = nan", "trials = 0", "protect_hs = inf", "fold = [-1.0, 0.0, 0.0, 0.0]"]
        {
            assert!(Params::new(PARAMS, &toml::from_str(bad).unwrap(), "bot rr").is_err(), "{bad}");
        }
        assert!(RrConfig::from_params(&spec("trials = 200")).is_ok());
    }
}
