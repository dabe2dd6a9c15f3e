//! Kuhn poker, a whole game defined outside the library and run through the standard command
//! line: every command (run, list, gate, stats, report, play, resume, merge) knows it as `kuhn`.
//!
//! ```sh
//! cargo run --release --example kuhn_poker -- list kuhn
//! cargo run --release --example kuhn_poker -- run examples/kuhn_poker.toml
//! cargo run --release --example kuhn_poker -- conformance 1000 1     # the game's contract
//! cargo run --release --example kuhn_poker -- exploit nash-sixth      # exact exploitability
//! cargo run --release --example kuhn_poker -- play kuhn --bot nash   # you against the equilibrium
//! ```
//!
//! # The rules
//!
//! Three cards, J < Q < K. Two seats each put an ante of 1 chip in the pot and get one card; the
//! third card is not dealt. Seat 0 acts first: it checks or bets 1 chip. After a check, seat 1
//! checks (showdown) or bets 1; facing a bet, a seat folds (the other takes the pot) or calls
//! (showdown). At a showdown the higher card takes the pot. A hand therefore wins or loses 1 or
//! 2 chips; the payoff is in chips (antes). Each seat sits down with 2 chips, all a hand can use,
//! and a seat that forfeits loses both, so that forfeiting never costs less than playing on.
//!
//! Seat 0 is the first to act (the harness's convention: games.csv's `seat` 0 moves first). Played
//! unpaired, a bot keeps its seat in every game; paired, every deal is replayed with the seats
//! swapped, so each bot plays both sides of each deal.
//!
//! # The bots
//!
//! - `nash` (parameter `alpha`, 0 to 1/3): the equilibrium family (Kuhn 1950). First to act: bet
//!   J with probability alpha, never Q, K with 3·alpha; after check and bet, call with Q with
//!   probability alpha + 1/3, K always, J never. Second: facing a bet, call with K, with Q one
//!   time in three, fold J; after a check, bet K, bet J one time in three, check Q. Every member
//!   is worth -1/18 chip a hand to the first seat against any other.
//! - `random`: a legal action, uniformly. `always-bet`: bets, and calls every bet. `always-call`:
//!   checks, and calls every bet.
//!
//! Every bot says its policy (`Bot::policy_at`), so `kuhn_poker exploit BOT` walks every deal
//! and gives its exact exploitability (bot_arena::core::exact).
//!
//! Randomness comes only from the bot stream the host passes to `act`, so a run is the same on
//! any number of threads.
//!
//! # On the wire (docs/book/src/protocol.md)
//!
//! `hello` names the game `kuhn`, with no table options. An `act` shows the seat's view:
//!
//! ```json
//! {"type": "act",
//!  "view": {"seat": 0, "seats": 2, "card": "Q", "actions": ["check", "bet"], "pot": 3, "to_call": 1},
//!  "legal": ["fold", "call"]}
//! ```
//!
//! `card` is the seat's own card (`J`, `Q` or `K`: ranks alone, Kuhn poker has no suits),
//! `actions` the betting so far in order (seat 0's first), `pot` the chips in the pot (2 to 4),
//! `to_call` what calling costs (0 or 1). The actions are `check` and `bet` when nothing is to
//! call, `fold` and `call` facing a bet, listed in that order. `game_over`'s `reveal` is
//! `{"cards": ["K", "J"], "winner": 0}`: both cards by seat at a showdown, `null` when a fold
//! ended the hand (no one shows), and the seat that took the pot.
//!
//! games.csv's own columns: `card` (the seat's card) and `actions` (the hand's betting, as on the
//! wire, spaced: `check bet call`).
//!
//! # The conformance check
//!
//! `kuhn_poker conformance [GAMES [SEED]]` (defaults 1000 and 1) holds the game to the contract
//! every registered game keeps (bot_arena::core::conformance: legal actions accepted and read
//! back from their text, refusals leaving the state as it was, the chips counted by `conserved`
//! never changing, no view changing when the cards its seat cannot see are dealt anew, forfeits
//! coming out worst, zero-sum payoffs, same seeds same record). It prints what it looked at and
//! exits 0, or prints what broke and exits 1. Everything else goes to the command line.

use std::fmt::{self, Display};
use std::ops::RangeInclusive;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Card {
    J,
    Q,
    K,
}

impl Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Card::J => "J",
            Card::Q => "Q",
            Card::K => "K",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Check,
    Bet,
    Call,
    Fold,
}

impl Action {
    fn text(self) -> &'static str {
        match self {
            Action::Check => "check",
            Action::Bet => "bet",
            Action::Call => "call",
            Action::Fold => "fold",
        }
    }
}

/// Chips each seat sits down with: an ante and one bet, all a hand of Kuhn poker can use.
const STACK: u32 = 2;

/// A hand. The chips are kept as the table holds them (behind each seat, in the pot) rather than
/// derived from the actions, so that the conformance check's count of them tests something.
#[derive(Clone, Debug)]
struct State {
    /// The cards of seat 0 and seat 1, then the card nobody holds.
    cards: [Card; 3],
    /// The actions so far; a hand has at most three.
    actions: [Action; 3],
    len: usize,
    stacks: [u32; 2],
    pot: u32,
    /// The seat that took the pot, once the hand is over.
    winner: Option<Seat>,
}

impl State {
    fn actions(&self) -> &[Action] {
        &self.actions[..self.len]
    }

    fn showdown(&self) -> bool {
        self.winner.is_some() && self.actions().last() != Some(&Action::Fold)
    }
}

/// What a seat sees: its own card and the public betting, copied out of the state so that no bot
/// can reach the other card.
#[derive(Clone, Copy, Debug)]
struct View {
    seat: Seat,
    card: Card,
    actions: [Action; 3],
    len: usize,
    pot: u32,
}

impl View {
    fn actions(&self) -> &[Action] {
        &self.actions[..self.len]
    }

    fn to_call(self) -> u32 {
        u32::from(self.actions().last() == Some(&Action::Bet))
    }

    /// The legal actions, in the wire's order.
    fn legal(self) -> [Action; 2] {
        match self.to_call() {
            0 => [Action::Check, Action::Bet],
            _ => [Action::Fold, Action::Call],
        }
    }
}

/// Kuhn poker: two seats, no table options.
struct Kuhn;

impl Game for Kuhn {
    type State = State;
    type Action = Action;
    type View<'a> = View;

    fn seats(&self) -> usize {
        2
    }

    fn deal(&self, rng: &mut DealRng) -> State {
        let mut cards = [Card::J, Card::Q, Card::K];
        cards.shuffle(rng);
        State { cards, actions: [Action::Check; 3], len: 0, stacks: [STACK - 1; 2], pot: 2, winner: None }
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        s.winner.is_none().then_some(s.len % 2)
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        if let Some(seat) = self.to_act(s) {
            out.extend(self.view(s, seat).legal());
        }
    }

    fn view(&self, s: &State, seat: Seat) -> View {
        View { seat, card: s.cards[seat], actions: s.actions, len: s.len, pot: s.pot }
    }

    fn apply(&self, s: &mut State, action: &Action) -> std::result::Result<(), IllegalAction> {
        let seat = self.to_act(s).ok_or_else(|| IllegalAction("the hand is over".into()))?;
        let legal = self.view(s, seat).legal();
        if !legal.contains(action) {
            let [a, b] = legal.map(Action::text);
            return Err(IllegalAction(format!("`{}`: seat {seat} may {a} or {b}", action.text())));
        }
        // Checked above, before anything changes: a refused action leaves the state as it was.
        if matches!(action, Action::Bet | Action::Call) {
            s.stacks[seat] -= 1;
            s.pot += 1;
        }
        s.actions[s.len] = *action;
        s.len += 1;
        let winner = match (action, s.actions()) {
            (Action::Fold, _) => Some(1 - seat),
            (Action::Call, _) | (Action::Check, [Action::Check, Action::Check]) => {
                Some(if s.cards[0] > s.cards[1] { 0 } else { 1 })
            }
            _ => None,
        };
        if let Some(w) = winner {
            s.stacks[w] += s.pot;
            s.pot = 0;
            s.winner = Some(w);
        }
        Ok(())
    }

    fn outcome(&self, s: &State) -> Outcome {
        Outcome::from_payoffs(s.stacks.map(|stack| f64::from(stack) - f64::from(STACK)))
    }

    fn forfeit(&self, _s: &State, seat: Seat) -> Outcome {
        let stake = f64::from(STACK);
        Outcome::from_payoffs((0..2).map(|x| if x == seat { -stake } else { stake }))
    }

    fn columns(&self) -> &'static [&'static str] {
        &["card", "actions"]
    }

    fn record(&self, s: &State, seat: Seat, out: &mut Texts) {
        out.push(s.cards[seat]);
        out.push_with(|text| {
            for (i, action) in s.actions().iter().enumerate() {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(action.text());
            }
        });
    }
}

/// The view on the wire, in the order the module's documentation shows.
struct ViewJson<'a>(&'a View);

impl Serialize for ViewJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let v = self.0;
        let mut o = s.serialize_struct("view", 6)?;
        o.serialize_field("seat", &v.seat)?;
        o.serialize_field("seats", &2)?;
        o.serialize_field("card", &Text(v.card))?;
        o.serialize_field("actions", &List(v.actions().iter().map(|a| a.text())))?;
        o.serialize_field("pot", &v.pot)?;
        o.serialize_field("to_call", &v.to_call())?;
        o.end()
    }
}

#[derive(serde::Serialize)]
struct Reveal {
    cards: Option<[Text<Card>; 2]>,
    winner: Option<Seat>,
}

impl Wire for Kuhn {
    fn view_json<'a, 'v>(&'a self, view: &'a View) -> impl Serialize + 'a {
        ViewJson(view)
    }

    fn write_legal(&self, view: &View, out: &mut Texts) {
        for action in view.legal() {
            out.push_str(action.text());
        }
    }

    fn action_text(&self, action: &Action) -> impl Display {
        let text = action.text();
        show(move |f| f.write_str(text))
    }

    fn parse_action(&self, text: &str) -> std::result::Result<Action, String> {
        match words(text).as_slice() {
            [w] if w == "check" => Ok(Action::Check),
            [w] if w == "bet" => Ok(Action::Bet),
            [w] if w == "call" => Ok(Action::Call),
            [w] if w == "fold" => Ok(Action::Fold),
            _ => Err(format!("`{text}` is not a Kuhn poker action (check, bet, call, fold)")),
        }
    }

    /// Each seat's card (the third stays in the deck).
    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        [Text(s.cards[0]), Text(s.cards[1])]
    }

    fn reveal(&self, s: &State) -> impl Serialize {
        let cards = s.showdown().then(|| [Text(s.cards[0]), Text(s.cards[1])]);
        Reveal { cards, winner: s.winner }
    }
}

impl GameDef for Kuhn {
    const NAME: &'static str = "kuhn";
    const ABOUT: &'static str =
        "Kuhn poker: J, Q, K, an ante each, one card each, one bet of 1 (a plugin game: examples/kuhn_poker.rs)";
    const SEATS: RangeInclusive<usize> = 2..=2;
    const OPTIONS: &'static [ParamSpec] = &[];
    const ROSTER: &'static str = ROSTER;

    fn from_options(_options: &Params, seats: usize) -> Result<Kuhn> {
        match seats {
            2 => Ok(Kuhn),
            _ => Err(bot_arena::error::Error::input(format!("kuhn is for 2 seats, not {seats}"))),
        }
    }

    fn headline(&self) -> Headline {
        Headline::payoff(Unit::new("chips/hand", 1.0)).called("hand").edge(0.05)
    }

    fn bot_kinds() -> Vec<BotKind<Kuhn>> {
        vec![NASH, RANDOM, ALWAYS_BET, ALWAYS_CALL]
    }

    /// The two cards `seat` cannot see (the other seat's and the undealt one) dealt anew.
    fn redeal_hidden(&self, s: &State, seat: Seat, rng: &mut DealRng) -> Option<State> {
        let mut s = s.clone();
        let other = 1 - seat;
        if rng.random_bool(0.5) {
            s.cards.swap(other, 2);
        }
        Some(s)
    }

    fn conserved(&self, s: &State) -> Option<u64> {
        Some(u64::from(s.stacks[0] + s.stacks[1] + s.pot))
    }
}

/// Named variants of `nash`, as a `bots/kuhn.toml` would hold them.
const ROSTER: &str = r#"
[nash-0]
kind = "nash"
about = "the equilibrium that never bets first: checks every card, calls Q one time in three"
params = { alpha = 0.0 }

[nash-sixth]
kind = "nash"
about = "the equilibrium halfway: bets J first one time in six, K one time in two"
params = { alpha = 0.16666666666666666 }

[nash-third]
kind = "nash"
about = "the equilibrium that bets most: J one time in three, K always, calls Q two times in three"
params = { alpha = 0.3333333333333333 }
"#;

/// `alpha`'s largest value: with more, the first seat would bet K more often than always.
const ALPHA_MAX: f64 = 1.0 / 3.0;

const NASH_PARAMS: &[ParamSpec] = &[ParamSpec::new(
    "alpha",
    "0.3333333333333333",
    "how often seat 0 bets J first (K: 3 alpha; calls with Q: alpha + 1/3); every value is an equilibrium",
)
.range(0.0, ALPHA_MAX)];

const NASH: BotKind<Kuhn> = BotKind {
    name: "nash",
    about:
        "an equilibrium strategy (Kuhn 1950): the first seat's bluffs and value bets set by alpha, the second's fixed",
    params: NASH_PARAMS,
    make: |p, _| {
        let alpha = p.f64("alpha");
        Ok(factory(move || Nash { alpha }))
    },
};

const RANDOM: BotKind<Kuhn> =
    BotKind { name: "random", about: "a legal action, uniformly", params: &[], make: |_, _| Ok(factory(|| RandomBot)) };

const ALWAYS_CALL: BotKind<Kuhn> = BotKind {
    name: "always-call",
    about: "checks, and calls every bet",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysCall)),
};

const ALWAYS_BET: BotKind<Kuhn> = BotKind {
    name: "always-bet",
    about: "bets whenever it may, calls every bet",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysBet)),
};

struct Nash {
    alpha: f64,
}

impl Nash {
    /// The probability of the aggressive choice (bet, or call) in this spot.
    fn aggression(&self, v: &View) -> f64 {
        use Action::*;
        let third = 1.0 / 3.0;
        match (v.seat, v.actions(), v.card) {
            (0, [], Card::J) => self.alpha,
            (0, [], Card::Q) => 0.0,
            (0, [], Card::K) => 3.0 * self.alpha,
            (0, [Check, Bet], Card::J) => 0.0,
            (0, [Check, Bet], Card::Q) => self.alpha + third,
            (0, [Check, Bet], Card::K) => 1.0,
            (1, [Bet], Card::J) => 0.0,
            (1, [Bet], Card::Q) => third,
            (1, [Bet], Card::K) => 1.0,
            (1, [Check], Card::J) => third,
            (1, [Check], Card::Q) => 0.0,
            (1, [Check], Card::K) => 1.0,
            _ => unreachable!("no other spot in Kuhn poker: seat {} after {:?}", v.seat, v.actions()),
        }
    }
}

impl Bot<Kuhn> for Nash {
    fn act(&mut self, _game: &Kuhn, v: &View, rng: &mut BotRng) -> Action {
        let p = self.aggression(v);
        // Only a mixed choice draws from the stream.
        let aggressive = if p <= 0.0 {
            false
        } else if p >= 1.0 {
            true
        } else {
            rng.random_bool(p)
        };
        let [passive, bold] = v.legal();
        if aggressive {
            bold
        } else {
            passive
        }
    }

    fn policy_at(&mut self, _game: &Kuhn, v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        let (p, [passive, bold]) = (self.aggression(v), v.legal());
        out.extend([(passive, 1.0 - p), (bold, p)]);
        true
    }
}

struct RandomBot;

impl Bot<Kuhn> for RandomBot {
    fn act(&mut self, _game: &Kuhn, v: &View, rng: &mut BotRng) -> Action {
        v.legal()[rng.random_range(0..2)]
    }

    fn policy_at(&mut self, _game: &Kuhn, v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        out.extend(v.legal().map(|a| (a, 0.5)));
        true
    }
}

struct AlwaysBet;

impl Bot<Kuhn> for AlwaysBet {
    fn act(&mut self, _game: &Kuhn, v: &View, _rng: &mut BotRng) -> Action {
        v.legal()[1]
    }

    fn policy_at(&mut self, _game: &Kuhn, v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        out.push((v.legal()[1], 1.0));
        true
    }
}

struct AlwaysCall;

impl Bot<Kuhn> for AlwaysCall {
    fn act(&mut self, _game: &Kuhn, v: &View, _rng: &mut BotRng) -> Action {
        match v.to_call() {
            0 => Action::Check,
            _ => Action::Call,
        }
    }

    fn policy_at(&mut self, game: &Kuhn, v: &View, out: &mut Vec<(Action, f64)>) -> bool {
        out.push((self.act(game, v, &mut <BotRng as rand::SeedableRng>::seed_from_u64(0)), 1.0));
        true
    }
}

/// Every deal: the six orders of the three cards, each as likely.
impl SmallGame for Kuhn {
    fn deals(&self) -> Vec<State> {
        use Card::*;
        [[J, Q, K], [J, K, Q], [Q, J, K], [Q, K, J], [K, J, Q], [K, Q, J]]
            .map(|cards| State {
                cards,
                actions: [Action::Check; 3],
                len: 0,
                stacks: [STACK - 1; 2],
                pot: 2,
                winner: None,
            })
            .to_vec()
    }
}

/// `exploit BOT`: the bot's exact exploitability, every deal walked (bot_arena::core::exact).
///
/// The values the tests hold it to, worked by hand (chips a hand, seat 0 first to act):
/// - the equilibrium family: NashConv 0 for every alpha; the bots win -1/18 in seat 0.
/// - always-bet (bets, calls every bet): seat 0's best response bets or calls with K (+2),
///   with Q is even (betting wins 2 against J and loses 2 against K), checks and folds J (-1):
///   (2 + 0 - 1)/3 = 1/3; seat 1's calls K (+2), Q is even calling, folds J (-1): 1/3. Against
///   itself always-bet wins 0 in each seat (every hand a called bet, each card equally likely on
///   either side), so NashConv = 2/3, exploitability 1/3.
/// - always-call (checks, calls every bet): seat 0's best response bets K (called, +2), is even
///   with Q (a check-down or a called bet, won against J and lost against K), checks J (-1):
///   1/3; seat 1's, after the check, the same: 1/3. Against itself 0 in each seat: NashConv 2/3.
/// - random: NashConv 11/12 (OpenSpiel's figure for the uniform policy).
fn exploit(args: &[String]) -> i32 {
    let [bot] = args else {
        eprintln!("error: exploit takes one bot; usage: kuhn_poker exploit BOT");
        return 2;
    };
    let made = bot_from_args(&OwnKinds::<Kuhn>::new(), bot, &[]).and_then(|(kind, params)| {
        let kind = Kuhn::bot_kinds().into_iter().find(|k| k.name == kind).expect("the roster resolved a kind");
        (kind.make)(&params, &Kuhn)
    });
    let made = match made {
        Ok(made) => made,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut bots = vec![made(), made()];
    match exploitability(&Kuhn, &mut bots) {
        Ok(e) => {
            let [b0, b1] = [e.best_response[0], e.best_response[1]];
            println!(
                "{bot}: NashConv {:.6} chips/hand, exploitability {:.6} chips/hand (a best response wins {b0:.6} in seat 0 and {b1:.6} in seat 1; {bot} itself {:.6} and {:.6}; {} information sets)",
                e.nash_conv,
                e.nash_conv / 2.0,
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

/// `conformance [GAMES [SEED]]`: the contract check of the game this example adds.
fn conformance(arena: &Arena, args: &[String]) -> i32 {
    let number = |i: usize, default: u64| match args.get(i) {
        None => Ok(default),
        Some(text) => text.parse::<u64>().map_err(|_| format!("`{text}` is not a whole number")),
    };
    let (games, seed) = match (number(0, 1000), number(1, 1), args.len()) {
        (Ok(games), Ok(seed), 0..=2) => (games, seed),
        (Err(e), _, _) | (_, Err(e), _) => {
            eprintln!("error: conformance: {e}; usage: kuhn_poker conformance [GAMES [SEED]]");
            return 2;
        }
        _ => {
            eprintln!("error: conformance takes at most GAMES and SEED; usage: kuhn_poker conformance [GAMES [SEED]]");
            return 2;
        }
    };
    let game = arena.find(Kuhn::NAME).expect("registered in main");
    match game.conformance(games, seed) {
        Ok(c) => {
            println!(
                "kuhn keeps the contract: {} games from seed {seed}, {} states, {} refused actions, {} redeals of hidden cards ({} seen by the other seat)",
                c.games, c.states, c.refused, c.redealt, c.redeals_seen
            );
            0
        }
        Err(e) => {
            println!("kuhn breaks the contract: {e}");
            1
        }
    }
}

fn main() {
    let arena = Arena::standard().game::<Kuhn>();
    // Read as `OsString`s: the command line's own arguments (paths) need not be UTF-8.
    if std::env::args_os().nth(1).is_some_and(|a| a == "conformance") {
        let args: Vec<String> = std::env::args_os().skip(2).map(|a| a.to_string_lossy().into_owned()).collect();
        std::process::exit(conformance(&arena, &args));
    }
    if std::env::args_os().nth(1).is_some_and(|a| a == "exploit") {
        let args: Vec<String> = std::env::args_os().skip(2).map(|a| a.to_string_lossy().into_owned()).collect();
        std::process::exit(exploit(&args));
    }
    bot_arena::cli::main(arena)
}
