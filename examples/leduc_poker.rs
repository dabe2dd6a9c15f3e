//! Leduc hold'em, a second small poker game from outside the library, beside Kuhn poker: small
//! enough that `leduc_poker exploit BOT` walks every deal and gives a bot's exact
//! exploitability (bot_arena::core::exact), and a CFR bot whose exploitability falls toward 0 as
//! it trains.
//!
//! ```sh
//! cargo run --release --example leduc_poker -- exploit random
//! cargo run --release --example leduc_poker -- exploit cfr --iterations 1000
//! cargo run --release --example leduc_poker -- run --game leduc --bot cfr --bot random --games 2000 --paired
//! ```
//!
//! # The rules (as OpenSpiel's `leduc_poker` has them)
//!
//! Six cards, two each of J < Q < K. Each seat antes 1 chip and gets one card; a public card is
//! dealt after the first betting round. Two betting rounds, seat 0 first in each: a seat checks
//! or calls, raises (by 2 chips in the first round, 4 in the second; at most two raises a round),
//! or, facing a raise only, folds. A round ends when a raise is called or both seats check. At
//! the showdown a card that pairs the public card wins, else the higher card; equal cards split.
//! Payoffs are in chips.
//!
//! # The bots
//!
//! - `random`: a legal action, uniformly. `always-call`: checks or calls.
//! - `cfr` (parameter `iterations`): vanilla counterfactual regret minimisation, trained over
//!   every deal when the bot kind is made; it plays its average strategy.
//!
//! Every bot says its policy (`Bot::policy_at`).

use std::collections::HashMap;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::sync::Arc;

use bot_arena::core::exact::{exploitability, SmallGame};
use bot_arena::core::roster::{bot_from_args, OwnKinds};
use bot_arena::core::wire::{show, words, List, Text, Texts};
use bot_arena::core::{factory, BotKind, GameDef};
use bot_arena::core::{
    Bot, BotRng, DealRng, Game, Headline, IllegalAction, Outcome, ParamSpec, Params, Seat, Unit, Wire,
};
use bot_arena::error::Result;
use bot_arena::Arena;
use rand::seq::SliceRandom;
use rand::Rng;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// A card's rank: 0 J, 1 Q, 2 K.
type Rank = u8;

fn rank_text(r: Rank) -> &'static str {
    ["J", "Q", "K"][usize::from(r)]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Fold,
    Call,
    Raise,
}

impl Action {
    fn text(self) -> &'static str {
        match self {
            Action::Fold => "fold",
            Action::Call => "call",
            Action::Raise => "raise",
        }
    }
}

/// The raise of each round, in chips.
const RAISE: [u32; 2] = [2, 4];
/// Raises allowed in a round.
const MAX_RAISES: u8 = 2;

/// A hand: the ranks of seat 0's card, seat 1's and the public card (dealt at the start, shown
/// from the second round), and the betting.
#[derive(Clone, Debug)]
struct State {
    cards: [Rank; 3],
    /// Each round's actions.
    rounds: [Vec<Action>; 2],
    round: usize,
    /// Chips each seat has put in.
    put: [u32; 2],
    raises: u8,
    to_act: Seat,
    /// Set when the hand is over: the payoff of seat 0.
    result: Option<f64>,
}

impl State {
    fn new(cards: [Rank; 3]) -> State {
        State { cards, rounds: [Vec::new(), Vec::new()], round: 0, put: [1, 1], raises: 0, to_act: 0, result: None }
    }
}

#[derive(Clone, Debug)]
struct View {
    seat: Seat,
    card: Rank,
    board: Option<Rank>,
    rounds: [Vec<Action>; 2],
    put: [u32; 2],
    raises: u8,
}

impl View {
    fn to_call(&self) -> u32 {
        self.put[1 - self.seat] - self.put[self.seat]
    }

    fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.to_call() > 0 {
            out.push(Action::Fold);
        }
        out.push(Action::Call);
        if self.raises < MAX_RAISES {
            out.push(Action::Raise);
        }
    }
}

struct Leduc;

impl Game for Leduc {
    type State = State;
    type Action = Action;
    type View<'a> = View;

    fn seats(&self) -> usize {
        2
    }

    fn deal(&self, rng: &mut DealRng) -> State {
        let mut deck = [0, 0, 1, 1, 2, 2];
        deck.shuffle(rng);
        State::new([deck[0], deck[1], deck[2]])
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        s.result.is_none().then_some(s.to_act)
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        if let Some(seat) = self.to_act(s) {
            self.view(s, seat).legal(out);
        }
    }

    fn view(&self, s: &State, seat: Seat) -> View {
        View {
            seat,
            card: s.cards[seat],
            board: (s.round > 0).then_some(s.cards[2]),
            rounds: s.rounds.clone(),
            put: s.put,
            raises: s.raises,
        }
    }

    fn apply(&self, s: &mut State, action: &Action) -> std::result::Result<(), IllegalAction> {
        let seat = self.to_act(s).ok_or_else(|| IllegalAction("the hand is over".into()))?;
        let mut legal = Vec::new();
        self.legal_actions(s, &mut legal);
        if !legal.contains(action) {
            return Err(IllegalAction(format!("`{}` is not legal for seat {seat} now", action.text())));
        }
        let other = 1 - seat;
        s.rounds[s.round].push(*action);
        match action {
            Action::Fold => {
                let lost = f64::from(s.put[seat]);
                s.result = Some(if seat == 0 { -lost } else { lost });
                return Ok(());
            }
            Action::Raise => {
                s.put[seat] = s.put[other] + RAISE[s.round];
                s.raises += 1;
            }
            Action::Call => s.put[seat] = s.put[other],
        }
        let ends = *action == Action::Call && s.rounds[s.round].len() >= 2;
        if !ends {
            s.to_act = other;
        } else if s.round == 0 {
            s.round = 1;
            s.raises = 0;
            s.to_act = 0;
        } else {
            let strength = |card: Rank| if card == s.cards[2] { 10 + card } else { card };
            let stake = f64::from(s.put[0]);
            s.result = Some(match strength(s.cards[0]).cmp(&strength(s.cards[1])) {
                std::cmp::Ordering::Greater => stake,
                std::cmp::Ordering::Less => -stake,
                std::cmp::Ordering::Equal => 0.0,
            });
        }
        Ok(())
    }

    fn outcome(&self, s: &State) -> Outcome {
        let p = s.result.expect("asked once the hand is over");
        Outcome::from_payoffs([p, -p])
    }

    fn forfeit(&self, _s: &State, seat: Seat) -> Outcome {
        // The most a hand can cost: an ante, two raises of 2 and two of 4.
        let stake = 13.0;
        Outcome::from_payoffs((0..2).map(|x| if x == seat { -stake } else { stake }))
    }
}

struct ViewJson<'a>(&'a View);

impl Serialize for ViewJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let v = self.0;
        let mut o = s.serialize_struct("view", 6)?;
        o.serialize_field("seat", &v.seat)?;
        o.serialize_field("card", rank_text(v.card))?;
        o.serialize_field("board", &v.board.map(rank_text))?;
        o.serialize_field("first_round", &List(v.rounds[0].iter().map(|a| a.text())))?;
        o.serialize_field("second_round", &List(v.rounds[1].iter().map(|a| a.text())))?;
        o.serialize_field("pot", &(v.put[0] + v.put[1]))?;
        o.serialize_field("to_call", &v.to_call())?;
        o.end()
    }
}

impl Wire for Leduc {
    fn view_json<'a, 'v>(&'a self, view: &'a View) -> impl Serialize + 'a {
        ViewJson(view)
    }

    fn write_legal(&self, view: &View, out: &mut Texts) {
        let mut legal = Vec::new();
        view.legal(&mut legal);
        for action in legal {
            out.push_str(action.text());
        }
    }

    fn action_text(&self, action: &Action) -> impl Display {
        let text = action.text();
        show(move |f| f.write_str(text))
    }

    fn parse_action(&self, text: &str) -> std::result::Result<Action, String> {
        match words(text).as_slice() {
            [w] if w == "fold" => Ok(Action::Fold),
            [w] if w == "call" => Ok(Action::Call),
            [w] if w == "raise" => Ok(Action::Raise),
            _ => Err(format!("`{text}` is not a Leduc action (fold, call, raise)")),
        }
    }

    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        s.cards.map(|c| Text(rank_text(c)))
    }

    fn reveal(&self, s: &State) -> impl Serialize {
        s.result
    }
}

impl GameDef for Leduc {
    const NAME: &'static str = "leduc";
    const ABOUT: &'static str =
        "Leduc hold'em: six cards, an ante each, two rounds of fixed raises (examples/leduc_poker.rs)";
    const SEATS: RangeInclusive<usize> = 2..=2;
    const OPTIONS: &'static [ParamSpec] = &[];
    const ROSTER: &'static str = "";

    fn from_options(_options: &Params, seats: usize) -> Result<Leduc> {
        match seats {
            2 => Ok(Leduc),
            _ => Err(bot_arena::error::Error::input(format!("leduc is for 2 seats, not {seats}"))),
        }
    }

    fn headline(&self) -> Headline {
        Headline::payoff(Unit::new("chips/hand", 1.0)).called("hand").edge(0.1)
    }

    fn bot_kinds() -> Vec<BotKind<Leduc>> {
        vec![RANDOM, ALWAYS_CALL, CFR]
    }

    fn redeal_hidden(&self, s: &State, seat: Seat, rng: &mut DealRng) -> Option<State> {
        // The cards `seat` has not seen, dealt anew from what is left of the deck.
        let mut s = s.clone();
        let mut left = vec![0, 0, 1, 1, 2, 2];
        let seen = if s.round > 0 { vec![s.cards[seat], s.cards[2]] } else { vec![s.cards[seat]] };
        for c in seen {
            let at = left.iter().position(|&x| x == c)?;
            left.remove(at);
        }
        left.shuffle(rng);
        s.cards[1 - seat] = left[0];
        if s.round == 0 {
            s.cards[2] = left[1];
        }
        Some(s)
    }

    fn conserved(&self, _s: &State) -> Option<u64> {
        None
    }
}

/// Every deal: each ordered choice of three of the six cards, each as likely.
impl SmallGame for Leduc {
    fn deals(&self) -> Vec<State> {
        let deck = [0, 0, 1, 1, 2, 2];
        let mut deals = Vec::with_capacity(120);
        for a in 0..6 {
            for b in (0..6).filter(|&b| b != a) {
                for c in (0..6).filter(|&c| c != a && c != b) {
                    deals.push(State::new([deck[a], deck[b], deck[c]]));
                }
            }
        }
        deals
    }
}

const RANDOM: BotKind<Leduc> =
    BotKind { name: "random", about: "a legal action, uniformly", params: &[], make: |_, _| Ok(factory(|| Uniform)) };

const ALWAYS_CALL: BotKind<Leduc> =
    BotKind { name: "always-call", about: "checks or calls", params: &[], make: |_, _| Ok(factory(|| AlwaysCall)) };

const CFR_PARAMS: &[ParamSpec] =
    &[ParamSpec::new("iterations", "1000", "CFR iterations over every deal before it plays").range(0.0, 1e6)];

const CFR: BotKind<Leduc> = BotKind {
    name: "cfr",
    about: "vanilla CFR's average strategy, trained over every deal when made",
    params: CFR_PARAMS,
    make: |p, _| {
        let strategy = Arc::new(train(p.i64("iterations") as usize));
        Ok(factory(move || Cfr { strategy: strategy.clone() }))
    },
};

/// Picks from a policy with the bot's stream.
fn draw(policy: &[(Action, f64)], rng: &mut BotRng) -> Action {
    let r: f64 = rng.random();
    let mut acc = 0.0;
    for &(action, p) in policy {
        acc += p;
        if r < acc {
            return action;
        }
    }
    policy.last().expect("a policy has an action").0
}

struct Uniform;

impl Bot<Leduc> for Uniform {
    fn act(&mut self, game: &Leduc, v: &View, rng: &mut BotRng) -> Action {
        let mut policy = Vec::new();
        self.policy_at(game, v, &mut policy);
        draw(&policy, rng)
    }

    fn policy_at(&mut self, _game: &Leduc, v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        let mut legal = Vec::new();
        v.legal(&mut legal);
        let p = 1.0 / legal.len() as f64;
        out.extend(legal.into_iter().map(|a| (a, p)));
        true
    }
}

struct AlwaysCall;

impl Bot<Leduc> for AlwaysCall {
    fn act(&mut self, _game: &Leduc, _v: &View, _rng: &mut BotRng) -> Action {
        Action::Call
    }

    fn policy_at(&mut self, _game: &Leduc, _v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        out.push((Action::Call, 1.0));
        true
    }
}

/// An information set as CFR names it: the seat's card, the public card once shown, the betting.
fn infoset(v: &View) -> String {
    let mut key = format!("{}{}", rank_text(v.card), v.board.map_or("", rank_text));
    for (i, round) in v.rounds.iter().enumerate() {
        key.push(if i == 0 { ':' } else { '/' });
        key.extend(round.iter().map(|a| a.text().chars().next().unwrap()));
    }
    key
}

/// Per information set: the regrets and the strategy sums, by legal action.
#[derive(Default)]
struct Tables {
    regret: HashMap<String, Vec<f64>>,
    sum: HashMap<String, Vec<f64>>,
}

/// Vanilla CFR over every deal, both seats updated each iteration; the average strategy.
fn train(iterations: usize) -> HashMap<String, Vec<(Action, f64)>> {
    let game = Leduc;
    let deals = game.deals();
    let mut t = Tables::default();
    for _ in 0..iterations {
        for deal in &deals {
            cfr(&game, &mut t, deal, [1.0, 1.0]);
        }
    }
    // The average strategy, each information set's sums normalised, with its legal actions.
    let mut average = HashMap::new();
    let mut seen: Vec<State> = deals.clone();
    while let Some(s) = seen.pop() {
        let Some(seat) = game.to_act(&s) else { continue };
        let v = game.view(&s, seat);
        let mut legal = Vec::new();
        v.legal(&mut legal);
        let key = infoset(&v);
        let sums = t.sum.get(&key).cloned().unwrap_or_else(|| vec![0.0; legal.len()]);
        let total: f64 = sums.iter().sum();
        let policy = legal
            .iter()
            .zip(&sums)
            .map(|(&a, &x)| (a, if total > 0.0 { x / total } else { 1.0 / legal.len() as f64 }))
            .collect();
        average.insert(key, policy);
        for a in legal {
            let mut next = s.clone();
            game.apply(&mut next, &a).expect("legal");
            seen.push(next);
        }
    }
    average
}

/// One CFR pass below `s` with the seats' reach; the value of each seat.
fn cfr(game: &Leduc, t: &mut Tables, s: &State, reach: [f64; 2]) -> [f64; 2] {
    let Some(seat) = game.to_act(s) else {
        let p = s.result.expect("over");
        return [p, -p];
    };
    let v = game.view(s, seat);
    let mut legal = Vec::new();
    v.legal(&mut legal);
    let key = infoset(&v);
    let regrets = t.regret.entry(key.clone()).or_insert_with(|| vec![0.0; legal.len()]).clone();
    // Regret matching: the positive regrets' shares, uniform when none is positive.
    let positive: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    let strategy: Vec<f64> =
        regrets.iter().map(|r| if positive > 0.0 { r.max(0.0) / positive } else { 1.0 / legal.len() as f64 }).collect();
    let mut values = Vec::with_capacity(legal.len());
    let mut node = [0.0; 2];
    for (i, a) in legal.iter().enumerate() {
        let mut next = s.clone();
        game.apply(&mut next, a).expect("legal");
        let mut r = reach;
        r[seat] *= strategy[i];
        let value = cfr(game, t, &next, r);
        node[0] += strategy[i] * value[0];
        node[1] += strategy[i] * value[1];
        values.push(value[seat]);
    }
    let other = reach[1 - seat];
    let regret = t.regret.get_mut(&key).expect("made above");
    for (i, value) in values.iter().enumerate() {
        regret[i] += other * (value - node[seat]);
    }
    let sum = t.sum.entry(key).or_insert_with(|| vec![0.0; legal.len()]);
    for (i, p) in strategy.iter().enumerate() {
        sum[i] += reach[seat] * p;
    }
    node
}

struct Cfr {
    strategy: Arc<HashMap<String, Vec<(Action, f64)>>>,
}

impl Bot<Leduc> for Cfr {
    fn act(&mut self, game: &Leduc, v: &View, rng: &mut BotRng) -> Action {
        let mut policy = Vec::new();
        self.policy_at(game, v, &mut policy);
        draw(&policy, rng)
    }

    fn policy_at(&mut self, _game: &Leduc, v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        out.extend_from_slice(&self.strategy[&infoset(v)]);
        true
    }
}

/// `exploit BOT [--iterations N]`: the bot's exact exploitability, every deal walked.
fn exploit(args: &[String]) -> i32 {
    let (bot, overrides): (&str, Vec<String>) = match args {
        [bot] => (bot, Vec::new()),
        [bot, flag, n] if flag == "--iterations" => (bot, vec![format!("iterations={n}")]),
        _ => {
            eprintln!("error: usage: leduc_poker exploit BOT [--iterations N]");
            return 2;
        }
    };
    let made = bot_from_args(&OwnKinds::<Leduc>::new(), bot, &overrides).and_then(|(kind, params)| {
        let kind = Leduc::bot_kinds().into_iter().find(|k| k.name == kind).expect("the roster resolved a kind");
        (kind.make)(&params, &Leduc)
    });
    let made = match made {
        Ok(made) => made,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut bots = vec![made(), made()];
    match exploitability(&Leduc, &mut bots) {
        Ok(e) => {
            println!(
                "{bot}: NashConv {:.6} chips/hand, exploitability {:.6} chips/hand (a best response wins {:.6} in seat 0 and {:.6} in seat 1; {bot} itself {:.6} and {:.6}; {} information sets)",
                e.nash_conv,
                e.nash_conv / 2.0,
                e.best_response[0],
                e.best_response[1],
                e.value[0],
                e.value[1],
                e.infosets
            );
            0
        }
        Err(seat) => {
            eprintln!("error: bot `{bot}` cannot say its policy (seat {seat}); exact best response needs it");
            2
        }
    }
}

fn main() {
    let arena = Arena::standard().game::<Leduc>();
    if std::env::args_os().nth(1).is_some_and(|a| a == "exploit") {
        let args: Vec<String> = std::env::args_os().skip(2).map(|a| a.to_string_lossy().into_owned()).collect();
        std::process::exit(exploit(&args));
    }
    bot_arena::cli::main(arena)
}
