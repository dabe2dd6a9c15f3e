//! Local best response (LBR; Lisý and Bowling, "Equilibrium Approximation Quality of Current
//! No-Limit Poker Bots", 2017): a greedy player that measures how much a heads-up bot can be
//! beaten. It keeps the opponent's range, the 1,326 hands it could hold weighted by Bayes' rule
//! with the opponent's own action probabilities ([`Bot::policy_at`], asked of a copy of the bot
//! for every hand), and at each of its decisions takes the action of the highest local value:
//! its equity against the range, and for a bet the share of the range that would fold to it.
//! What it wins is a lower bound on the bot's exploitability (any strategy's winnings are).
//!
//! The values, in chips, relative to folding now (chips already in the pot are sunk), with `pot`
//! everything in the middle, `asked` what LBR must add to call, `wp` its equity against the range
//! (ties count half) and `a` what a bet adds beyond the call:
//! - fold: 0 (only when something is owed);
//! - call or check: `wp·pot − (1−wp)·asked`;
//! - bet: `fp·pot + (1−fp)·(wc·(pot+a) − (1−wc)·(asked+a))`, `fp` the range's fold probability
//!   facing the bet, `wc` LBR's equity against the hands that do not fold (each hand weighted by
//!   its chance of not folding).
//!
//! These are the paper's formulas with its simplifications but one: a bet that is not folded to
//! is valued as if it were called and the hand then checked down (a re-raise is not considered).
//! The paper values that call with the equity against the whole range; here it is the equity
//! against the hands that would not fold, since a bot that calls all-ins only with its strong
//! hands would otherwise draw LBR into shoves that lose (against rr, several big blinds a hand).
//! Either way what LBR wins is a lower bound on the exploitability. Ties go to the action
//! listed first (fold, call, then the smaller bet). The paper's settings named here: `fc` (fold
//! or call) and `fcpa` (fold, call, a pot-sized raise, all-in); LBR uses them in every round.
//! Before the river the equity is a Monte Carlo over `runouts` boards drawn from LBR's stream
//! (every hand of the range meeting a board is left out of that board); on the river it is exact.

use rand::SeedableRng;

use crate::cards::{Card, CardSet};
use crate::core::roster::{bot_from_args, program_spec, OwnKinds};
use crate::core::{factory, Bot, BotFactory, BotKind, BotRng, Fault, FaultKind, Game, GameDef, GameEnd, GameStart};
use crate::core::{ParamSpec, Params};
use crate::error::{Error, Result};

use super::super::equity::FastRng;
use super::super::eval::Hand;
use super::super::{Action, Event, Format, Holdem, State, View};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "opponent",
        "\"rr\"",
        "the bot it responds to, by roster name or kind, or a program, KIND:COMMAND (`external:python3 mybot.py`, paths from the working folder); it must say its policy (`arena list holdem`, docs/book/src/protocol.md's `policy`)",
    ),
    ParamSpec::new(
        "setting",
        "\"fcpa\"",
        "its actions: \"fc\" fold or call; \"fcpa\" also a pot-sized raise and all-in",
    )
    .choices(&["fc", "fcpa"]),
    ParamSpec::new("runouts", "100", "boards sampled for its equity against the range before the river (exact on it)")
        .range(1.0, 1e5),
];

pub const KIND: BotKind<Holdem> = BotKind {
    name: "lbr",
    about:
        "local best response to a bot that says its policy (`opponent`): what it wins bounds that bot's exploitability",
    params: PARAMS,
    make,
};

/// The built-in bots that say their policy, for the refusal of one that does not.
const CAN_SAY: &str = "rr and its variants, always-call, always-fold, always-raise, all-in and random do; \
                       a program over the protocol does when its `ready` says \"policy\": true";

/// The actions LBR weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Fold or call.
    Fc,
    /// Fold, call, a pot-sized raise or all-in.
    Fcpa,
}

fn make(p: &Params, game: &Holdem) -> Result<BotFactory<Holdem>> {
    if game.seats != 2 || game.format != Format::Cash {
        return Err(Error::input(
            "bot lbr: local best response plays heads-up cash hands (2 seats, format = \"cash\")",
        ));
    }
    let model = model_factory(p.str("opponent"), game)?;
    let setting = if p.str("setting") == "fc" { Setting::Fc } else { Setting::Fcpa };
    let runouts = p.i64("runouts") as usize;
    Ok(factory(move || Lbr::new(model(), setting, runouts)))
}

/// The table options of `game` as a config gives them, for a copy of the opponent started
/// outside a run (a program is told them in `hello`).
fn table_of(game: &Holdem) -> Result<Params> {
    let big = game.blinds.big;
    let table = toml::toml! {
        small_blind = (i64::from(game.blinds.small))
        big_blind = (i64::from(big))
        ante = (i64::from(game.blinds.ante))
        stack = (i64::from(game.stack / big.max(1)))
    };
    Params::new(Holdem::OPTIONS, &table, "the holdem table")
}

/// The factory of the bot named `name` (a roster name or kind of hold'em, or a program,
/// `KIND:COMMAND`), refused in one line when its bots cannot say their policy, or when its first
/// answer is refused (a copy is started and asked at the first decision of a hand).
pub fn model_factory(name: &str, game: &Holdem) -> Result<BotFactory<Holdem>> {
    // Hold'em's own kinds and `external`: a program over the protocol that answers `policy`.
    let catalog = OwnKinds::<Holdem>::new().and(crate::external::kind::<Holdem>());
    let (kind, params) = match program_spec(name)? {
        Some((_, kind, command)) => {
            let words = toml::Value::Array(command.into_iter().map(toml::Value::String).collect());
            bot_from_args(&catalog, &kind, &[format!("command={words}")])?
        }
        None => bot_from_args(&catalog, name, &[])?,
    };
    let kind = catalog.kind(&kind).expect("the roster resolved a kind of the catalog");
    // The copy asked here has a factory of its own: its program ends with it.
    let mut probe = (kind.make)(&params, game)?();
    let table = table_of(game)?;
    let deck: [Card; 52] = Card::all().collect::<Vec<_>>().try_into().expect("52 cards");
    let state = game.deal_cards(&deck, &[game.stack; 2]);
    let start = GameStart { seat: state.to_act, game: 0, name, players: &[], table: &table, run: None };
    let refused = |what: String| Error::input(format!("bot `{name}` ({}) {what}", kind.name));
    probe
        .start(game, &start, &mut BotRng::seed_from_u64(0))
        .map_err(|fault| refused(format!("could not start to say its policy: {fault}")))?;
    if !probe.policy_at(game, &game.view(&state, state.to_act), &mut Vec::new()) {
        return Err(match probe.policy_fault() {
            Some(fault) => refused(format!("gave a first answer to `policy` that is refused: {fault}")),
            None => refused(format!(
                "cannot say its policy, its action probabilities for any hand it could hold, \
                 which local best response needs ({CAN_SAY})"
            )),
        });
    }
    (kind.make)(&params, game)
}

/// Every two-card hand, in a fixed order.
fn all_hands() -> Vec<[Card; 2]> {
    let cards: Vec<Card> = Card::all().collect();
    let mut hands = Vec::with_capacity(1326);
    for (i, &a) in cards.iter().enumerate() {
        hands.extend(cards[i + 1..].iter().map(|&b| [a, b]));
    }
    hands
}

pub struct Lbr {
    /// A copy of the opponent, asked for its policy (never for an action).
    model: Box<dyn Bot<Holdem>>,
    setting: Setting,
    runouts: usize,
    /// The opponent's range: every hand it could hold and its weight (not normalised). Empty
    /// until the first decision.
    range: Vec<([Card; 2], f64)>,
    /// Events of the hand's history already folded into the range.
    seen: usize,
    /// The model's answer, reused.
    policy: Vec<(Action, f64)>,
    /// Why the model could not say its policy in this hand, which forfeits the opponent's game.
    failed: Option<Fault>,
    /// The opponent's seat in this game.
    opp: usize,
}

impl Lbr {
    pub fn new(model: Box<dyn Bot<Holdem>>, setting: Setting, runouts: usize) -> Lbr {
        Lbr { model, setting, runouts, range: Vec::new(), seen: 0, policy: Vec::new(), failed: None, opp: 1 }
    }

    /// The hand so far as LBR may know it: its own cards, the board shown, the actions, and in
    /// the opponent's seat two cards of its own choosing (the opponent's are never read; each
    /// hand of the range is put there in turn). Replayed from the deal; `each_opponent_action`
    /// sees the state before every opponent action not yet seen, with the action.
    fn replay(
        &mut self,
        game: &Holdem,
        v: &View<'_>,
        mut each_opponent_action: impl FnMut(&mut Self, &mut State, usize, Action),
    ) -> State {
        let (me, opp) = (v.seat(), 1 - v.seat());
        let shown: CardSet = v.hole().iter().chain(v.board()).copied().collect();
        let mut spare = Card::all().filter(|&c| !shown.contains(c));
        let mut deck = [Card::new(0, 0); 52];
        deck[2 * me..2 * me + 2].copy_from_slice(&v.hole());
        for slot in &mut deck[2 * opp..2 * opp + 2] {
            *slot = spare.next().expect("cards to spare");
        }
        deck[4..4 + v.board().len()].copy_from_slice(v.board());
        for slot in &mut deck[4 + v.board().len()..] {
            *slot = spare.next().expect("cards to spare");
        }
        let mut state = game.deal_cards(&deck, &[game.stack; 2]);
        for (i, event) in v.history().iter().enumerate() {
            if let Event::Act { seat, action } = *event {
                if usize::from(seat) == opp && i >= self.seen {
                    each_opponent_action(self, &mut state, opp, action);
                }
                game.apply(&mut state, &action).expect("the hand's own actions are legal");
            }
        }
        self.seen = v.history().len();
        state
    }

    /// The model's probability of `action` at `state` for every hand of the range, multiplied
    /// into its weight (Bayes' rule; the normalisation is left to whoever reads the range). An
    /// action the model gives no hand any chance of (its own Monte Carlo, not the one it says,
    /// chose it) leaves the range as it was.
    fn update(&mut self, game: &Holdem, state: &mut State, opp: usize, action: Action) {
        let before: Vec<f64> = self.range.iter().map(|&(_, w)| w).collect();
        for i in 0..self.range.len() {
            if self.range[i].1 > 0.0 {
                let p = self.chance(game, state, opp, self.range[i].0, |a| a == action);
                self.range[i].1 *= p;
            }
        }
        if self.range.iter().all(|&(_, w)| w <= 0.0) {
            self.range.iter_mut().zip(before).for_each(|(entry, w)| entry.1 = w);
        }
    }

    /// The model's probability, holding `hand` at `state`, of the actions `which` picks.
    fn chance(
        &mut self,
        game: &Holdem,
        state: &mut State,
        opp: usize,
        hand: [Card; 2],
        which: impl Fn(Action) -> bool,
    ) -> f64 {
        state.hole[opp] = hand;
        self.policy.clear();
        if self.failed.is_none() && !self.model.policy_at(game, &game.view(state, opp), &mut self.policy) {
            let fault = self
                .model
                .policy_fault()
                .unwrap_or_else(|| Fault::new(FaultKind::Protocol, "could not say its policy, having said it could"));
            self.failed = Some(fault);
        }
        self.policy.iter().filter(|&&(a, _)| which(a)).map(|&(_, p)| p).sum()
    }

    /// Each hand's chance of folding to LBR's `action` at `state` (0 for hands out of the range).
    fn fold_chances(&mut self, game: &Holdem, state: &State, opp: usize, action: Action) -> Vec<f64> {
        let mut after = state.clone();
        game.apply(&mut after, &action).expect("LBR's bets are within the bounds");
        (0..self.range.len())
            .map(|i| {
                let (hand, w) = self.range[i];
                if w > 0.0 {
                    self.chance(game, &mut after, opp, hand, |a| a == Action::Fold)
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// LBR's equity against each hand of the range: exact on the river, else over `runouts`
    /// sampled boards (a hand meeting a board is left out of that board). NaN for a hand out of
    /// the range or met by every board.
    fn equities(&self, v: &View<'_>, rng: &mut BotRng) -> Vec<f64> {
        let board: CardSet = v.board().iter().copied().collect();
        let dead = board.union(v.hole().iter().copied().collect());
        let mut won = vec![0.0; self.range.len()];
        let mut met = vec![0u32; self.range.len()];
        let mut tally = |full: CardSet| {
            let base = Hand::new().with_set(full);
            let mine = base.plus(v.hole()[0]).plus(v.hole()[1]).value();
            for (i, &([a, b], w)) in self.range.iter().enumerate() {
                if w > 0.0 && !full.contains(a) && !full.contains(b) {
                    let theirs = base.plus(a).plus(b).value();
                    won[i] += match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    met[i] += 1;
                }
            }
        };
        if v.board().len() == 5 {
            tally(board);
        } else {
            let mut fast = FastRng::from_rng(rng);
            let mut live: Vec<Card> = Card::all().filter(|&c| !dead.contains(c)).collect();
            let missing = 5 - v.board().len();
            for _ in 0..self.runouts {
                // A partial shuffle: the first `missing` cards are the run-out.
                let mut full = board;
                for k in 0..missing {
                    let j = k + fast.below((live.len() - k) as u32) as usize;
                    live.swap(k, j);
                    full.insert(live[k]);
                }
                tally(full);
            }
        }
        won.iter().zip(&met).map(|(&w, &n)| if n > 0 { w / f64::from(n) } else { f64::NAN }).collect()
    }

    /// The range's mean of `each` (a figure per hand), each hand weighted by its weight times
    /// `keep` (its chance of being there); 0.5 for an empty range.
    fn mean(&self, each: &[f64], keep: impl Fn(usize) -> f64) -> f64 {
        let (mut sum, mut total) = (0.0, 0.0);
        for (i, &(_, w)) in self.range.iter().enumerate() {
            let weight = w * keep(i);
            if weight > 0.0 && each[i].is_finite() {
                sum += weight * each[i];
                total += weight;
            }
        }
        if total > 0.0 {
            sum / total
        } else {
            0.5
        }
    }
}

impl Bot<Holdem> for Lbr {
    /// The copy of the opponent is started as the opponent in its seat (a program is spoken to
    /// as in a game: `hello`, `new_game`, ..., `game_over`), from a stream of its own, so that
    /// LBR's draws are those against a bot of the process.
    fn start(&mut self, game: &Holdem, start: &GameStart<'_>, rng: &mut BotRng) -> Result<(), Fault> {
        self.opp = 1 - start.seat;
        let name = start.players.get(self.opp).map_or("opponent", |p| p.name.as_str());
        // The copy's own name, so that a program's log is its own file.
        let name = format!("{name}.policy");
        let seat = GameStart { seat: self.opp, name: &name, ..*start };
        let mut own = rng.clone();
        self.model.start(game, &seat, &mut own).map_err(|fault| fault.of_seat(self.opp))
    }

    fn try_act(
        &mut self,
        game: &Holdem,
        v: &View<'_>,
        rng: &mut BotRng,
        _deadline: Option<std::time::Instant>,
    ) -> Result<Action, Fault> {
        let action = self.act(game, v, rng);
        match self.failed.take() {
            Some(fault) => {
                let fault = Fault::new(fault.kind, format!("its policy, asked by LBR: {}", fault.reason()));
                Err(fault.of_seat(1 - v.seat()))
            }
            None => Ok(action),
        }
    }

    fn finish(&mut self, game: &Holdem, state: &State, end: &GameEnd<'_>) {
        self.model.finish(game, state, end);
    }

    fn act(&mut self, game: &Holdem, v: &View<'_>, rng: &mut BotRng) -> Action {
        let opp = 1 - v.seat();
        if self.range.is_empty() {
            let mine: CardSet = v.hole().iter().copied().collect();
            self.range = all_hands()
                .into_iter()
                .map(|h| (h, if mine.contains(h[0]) || mine.contains(h[1]) { 0.0 } else { 1.0 }))
                .collect();
        }
        let state = self.replay(game, v, |lbr, state, opp, action| lbr.update(game, state, opp, action));
        let board: CardSet = v.board().iter().copied().collect();
        for (hand, w) in &mut self.range {
            if board.contains(hand[0]) || board.contains(hand[1]) {
                *w = 0.0;
            }
        }
        let equity = self.equities(v, rng);
        let wp = self.mean(&equity, |_| 1.0);
        let (pot, asked) = (f64::from(v.pot()), f64::from(v.to_call()));
        let mut choices: Vec<(Action, f64)> = Vec::with_capacity(4);
        if asked > 0.0 {
            choices.push((Action::Fold, 0.0));
        }
        choices.push((Action::CheckCall, wp * pot - (1.0 - wp) * asked));
        if let (Setting::Fcpa, Some((min, max))) = (self.setting, v.raise_bounds()) {
            // A pot-sized raise: the call, then as much again as the pot would then hold.
            let pot_to = (v.current_bet() + v.pot() + v.to_call()).clamp(min, max);
            let mut bets = vec![pot_to];
            if max > pot_to {
                bets.push(max);
            }
            for to in bets {
                let action = Action::RaiseTo(to);
                let a = f64::from(to - v.bet(v.seat())) - asked;
                let folds = self.fold_chances(game, &state, opp, action);
                let fp = self.mean(&folds, |_| 1.0);
                // Called: the equity against the hands that do not fold.
                let wc = self.mean(&equity, |i| 1.0 - folds[i]);
                let called = wc * (pot + a) - (1.0 - wc) * (asked + a);
                choices.push((action, fp * pot + (1.0 - fp) * called));
            }
        }
        // The first of the best: ties go to the action listed first.
        choices.iter().fold(choices[0], |best, &c| if c.1 > best.1 { c } else { best }).0
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::cards::parse_cards;

    fn deck(cards: &str) -> [Card; 52] {
        let mut front = parse_cards(cards).unwrap();
        let used: CardSet = front.iter().copied().collect();
        front.extend(Card::all().filter(|c| !used.contains(*c)));
        front.try_into().unwrap()
    }

    fn lbr(opponent: &str, setting: Setting) -> Lbr {
        let game = Holdem::new(2, 50, 100, 10_000);
        Lbr::new(model_factory(opponent, &game).unwrap()(), setting, 100)
    }

    #[test]
    fn against_always_fold_it_raises_in_the_small_blind_and_only_calls_when_it_may_not_raise() {
        let game = Holdem::new(2, 50, 100, 10_000);
        let s = game.deal_cards(&deck("7c2d AhAd"), &[10_000, 10_000]);
        let v = game.view(&s, 0);
        let mut rng = BotRng::seed_from_u64(1);
        // Every hand folds to a raise: the pot-sized raise (the smaller bet) wins the pot.
        assert_eq!(lbr("always-fold", Setting::Fcpa).act(&game, &v, &mut rng), Action::RaiseTo(300));
        assert_eq!(lbr("always-fold", Setting::Fc).act(&game, &v, &mut rng), Action::CheckCall);
    }

    #[test]
    fn the_range_follows_the_opponents_actions_by_bayes() {
        // Limped pre-flop; on a board of kings rr (big blind) bets the pot. Its range is then the
        // prior times its own chance of that bet, hand by hand: a king far more than air.
        let game = Holdem::new(2, 50, 100, 10_000);
        let mut s = game.deal_cards(&deck("7c2d AhAd KsKh5c9d3h"), &[10_000, 10_000]);
        for action in [Action::CheckCall, Action::CheckCall, Action::RaiseTo(200)] {
            game.apply(&mut s, &action).unwrap();
        }
        let v = game.view(&s, 0);
        let mut rng = BotRng::seed_from_u64(1);
        let mut against_rr = lbr("rr", Setting::Fc);
        let mut against_caller = lbr("always-call", Setting::Fc);
        against_rr.act(&game, &v, &mut rng);
        against_caller.act(&game, &v, &mut rng);
        let two = |hand: &str| -> [Card; 2] {
            let mut c: [Card; 2] = parse_cards(hand).unwrap().try_into().unwrap();
            c.sort_by_key(|c| c.bit());
            c
        };
        let share = |l: &Lbr, hand: &str| {
            let total: f64 = l.range.iter().map(|&(_, w)| w).sum();
            let mut h = l.range.iter().find(|&&(h, _)| h == two(hand) || h == [two(hand)[1], two(hand)[0]]).unwrap().1;
            h /= total;
            h
        };
        // The chance of rr's own actions for a hand: its pre-flop check, then its bet on the flop.
        let mut rr = model_factory("rr", &game).unwrap()();
        let mut chance = |hand: &str| {
            let mut s = game.deal_cards(&deck("7c2d AhAd KsKh5c9d3h"), &[10_000, 10_000]);
            game.apply(&mut s, &Action::CheckCall).unwrap();
            let mut p = 1.0;
            for action in [Action::CheckCall, Action::RaiseTo(200)] {
                s.hole[1] = two(hand);
                let mut out = Vec::new();
                rr.policy_at(&game, &game.view(&s, 1), &mut out);
                p *= out.iter().filter(|&&(a, _)| a == action).map(|&(_, p)| p).sum::<f64>();
                game.apply(&mut s, &action).unwrap();
            }
            p
        };
        let (king, air) = (chance("KdQc"), chance("8h4s"));
        assert!(king > 3.0 * air && air > 0.0, "rr checks then bets a king more often than air: {king} {air}");
        let ratio = share(&against_rr, "KdQc") / share(&against_rr, "8h4s");
        assert!((ratio - king / air).abs() < 1e-9, "posterior ratio {ratio}, policy ratio {}", king / air);
        // Always-call never bets: its range stays flat (here the bet is impossible for it, so
        // the range is left as it was).
        assert!((share(&against_caller, "KdQc") - share(&against_caller, "8h4s")).abs() < 1e-12);
        // LBR's own cards and the board's are out of the range.
        assert_eq!(share(&against_rr, "7c2d"), 0.0);
        assert_eq!(share(&against_rr, "KsQc"), 0.0);
    }

    #[test]
    fn a_bot_that_cannot_say_its_policy_is_refused_in_one_line() {
        let game = Holdem::new(2, 50, 100, 10_000);
        let err = model_factory("lbr", &game).err().expect("lbr does not say its policy").to_string();
        assert!(err.contains("cannot say its policy") && !err.contains('\n'), "{err}");
    }
}
