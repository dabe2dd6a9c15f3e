//! The document's expert: its exact win probability against the seats still in, then
//! P > bet_above → bet big (raise the pot, or show hand when very likely to win),
//! P < fold_below → fold (check if free), otherwise call or check, betting small now and then.

use rand::Rng;

use crate::core::luck::Luck;
use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::{Error, Result};

use super::super::engine::{Action, Stud, View, MAX_SEATS};
use super::super::odds::{win_probability, Budget, Position};
use crate::cards::CardSet;

/// The document's three advices, exactly one per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    BetBig,
    CallOrCheck,
    Fold,
}

impl Advice {
    pub fn text(self) -> &'static str {
        match self {
            Advice::BetBig => "bet big",
            Advice::CallOrCheck => "call or check",
            Advice::Fold => "fold",
        }
    }
}

/// The advice thresholds.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Thresholds {
    pub bet_above: f64,
    pub fold_below: f64,
}

impl Thresholds {
    pub const DOCUMENT: Thresholds = Thresholds { bet_above: 0.7, fold_below: 0.3 };

    pub fn advice(&self, p_win: f64) -> Advice {
        if p_win > self.bet_above {
            Advice::BetBig
        } else if p_win < self.fold_below {
            Advice::Fold
        } else {
            Advice::CallOrCheck
        }
    }
}

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("bet_above", "0.7", "bet big when P(win) is above this").range(0.0, 1.0),
    ParamSpec::new("fold_below", "0.3", "fold (check when free) when P(win) is below this (at most bet_above)")
        .range(0.0, 1.0),
    ParamSpec::new("show_hand_above", "0.9", "bet big = show hand (all in) when P(win) is above this").range(0.0, 1.0),
    ParamSpec::new("big_bet", "1.0", "otherwise bet big = raise by this fraction of the pot (after calling)")
        .range(0.01, 100.0),
    ParamSpec::new("bluff", "0.1", "between the thresholds, the probability of a small bet when nothing is to call")
        .range(0.0, 1.0),
    ParamSpec::new("small_bet", "0.5", "the small bet, as a fraction of the pot").range(0.01, 100.0),
    ParamSpec::new(
        "exact_max",
        "2000",
        "enumerate every unseen card exactly up to this many outcomes, else sample (2000: exact on the last street against 1-2 opponents; 100000: also the fourth street heads-up and the last against 3)",
    )
    .range(0.0, 1e7),
    ParamSpec::new("samples", "200", "Monte Carlo samples above that budget").range(1.0, 1e6),
];

pub const KIND: BotKind<Stud> = BotKind {
    name: "expert",
    about: "the document's expert system: win probability (exact within exact_max outcomes, sampled above), bet big above 0.7, fold below 0.3",
    params: PARAMS,
    make: |p, _| {
        let cfg = Config::from_params(p)?;
        Ok(factory(move || ExpertBot { cfg, cache: None, last: Vec::with_capacity(2) }))
    },
};

#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub thresholds: Thresholds,
    pub show_hand_above: f64,
    pub big_bet: f64,
    pub bluff: f64,
    pub small_bet: f64,
    pub budget: Budget,
}

impl Config {
    pub fn from_params(p: &Params) -> Result<Config> {
        let thresholds = Thresholds { bet_above: p.f64("bet_above"), fold_below: p.f64("fold_below") };
        if thresholds.fold_below > thresholds.bet_above {
            return Err(Error::input("stud bot expert: fold_below must not exceed bet_above"));
        }
        Ok(Config {
            thresholds,
            show_hand_above: p.f64("show_hand_above"),
            big_bet: p.f64("big_bet"),
            bluff: p.f64("bluff"),
            small_bet: p.f64("small_bet"),
            budget: Budget { exact_max: p.i64("exact_max") as u64, samples: p.i64("samples") as u32 },
        })
    }
}

pub struct ExpertBot {
    cfg: Config,
    /// P(win) for (street, seats still in): the cards seen change only with these.
    cache: Option<(usize, u32, f64)>,
    /// The probabilities the last decision drew its action from (given its P(win)).
    last: Vec<(Action, f64)>,
}

impl ExpertBot {
    fn p_win(&mut self, game: &Stud, view: &View, rng: &mut BotRng) -> f64 {
        let in_mask = (0..view.seats()).filter(|&s| view.in_hand(s)).fold(0u32, |m, s| m | 1 << s);
        if let Some((street, mask, p)) = self.cache {
            if street == view.street() && mask == in_mask {
                return p;
            }
        }
        let mut opponents = [CardSet::EMPTY; MAX_SEATS];
        let mut n = 0;
        let mut dead = CardSet::EMPTY;
        for s in (0..view.seats()).filter(|&s| s != view.seat()) {
            if view.in_hand(s) {
                opponents[n] = view.up_set(s);
                n += 1;
            } else {
                dead = dead.union(view.up_set(s));
            }
        }
        let pos = Position { mine: view.my_cards(), opponents: &opponents[..n], dead };
        let p = win_probability(game.deck, &pos, self.cfg.budget, rng).win;
        self.cache = Some((view.street(), in_mask, p));
        p
    }
}

/// A raise to `current + fraction × (pot after my call)`, clamped to what is allowed.
fn raise_by_pot(game: &Stud, view: &View, fraction: f64) -> Option<Action> {
    let (min, max) = (view.min_bet_to(game)?, view.max_bet_to()?);
    let pot_after_call = (view.pot() + view.to_call()) as f64;
    let to = view.current_bet() + (fraction * pot_after_call).round() as u32;
    Some(if to >= max { Action::ShowHand } else { Action::Bet(to.max(min)) })
}

fn check_or_call(view: &View) -> Action {
    if view.to_call() == 0 {
        Action::Check
    } else {
        Action::Call
    }
}

impl ExpertBot {
    fn decide(&mut self, game: &Stud, view: &View<'_>, rng: &mut BotRng) -> Action {
        let p = self.p_win(game, view, rng);
        let action = match self.cfg.thresholds.advice(p) {
            Advice::BetBig => {
                let raise = if p > self.cfg.show_hand_above && view.max_bet_to().is_some() {
                    Some(Action::ShowHand)
                } else {
                    raise_by_pot(game, view, self.cfg.big_bet)
                };
                raise.unwrap_or_else(|| check_or_call(view))
            }
            Advice::Fold if view.to_call() == 0 => Action::Check,
            Advice::Fold => Action::Fold,
            Advice::CallOrCheck => {
                if view.to_call() == 0 {
                    // The bluff: a small bet with probability `bluff`, else a check.
                    let bet = raise_by_pot(game, view, self.cfg.small_bet).unwrap_or(Action::Check);
                    Luck::add_chance(&mut self.last, bet, self.cfg.bluff);
                    Luck::add_chance(&mut self.last, Action::Check, 1.0 - self.cfg.bluff);
                    return if rng.random::<f64>() < self.cfg.bluff { bet } else { Action::Check };
                }
                check_or_call(view)
            }
        };
        Luck::add_chance(&mut self.last, action, 1.0);
        action
    }
}

impl Bot<Stud> for ExpertBot {
    fn act(&mut self, game: &Stud, view: &View<'_>, rng: &mut BotRng) -> Action {
        self.last.clear();
        self.decide(game, view, rng)
    }

    /// Given its P(win) (sampled or not), the expert's only coin flip is the bluff.
    fn policy(&self, _: &Stud, _: &View<'_>, out: &mut Vec<(Action, f64)>) {
        out.extend_from_slice(&self.last);
    }
}
