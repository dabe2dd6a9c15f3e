//! Bots hosted in this process by a program that embeds bot-arena (Python's `bot_arena` package):
//! a bot written in another language, called in the host's own threads rather than over a pipe.
//! It is told the protocol's messages (docs/book/src/protocol.md: `new_game`, `act`,
//! `game_over`) as JSON values and answers `act` with an action text, as a program would; its
//! answer is judged by the protocol's own code, so an in-process bot and the same bot over the
//! protocol play the same games.
//!
//! The embedding program registers each bot under a name ([`host`]) before the run; a config then
//! seats it as a bot of the hosted kind ([`kind`], added to every game by
//! [`crate::Arena::hosting`]) whose parameter `object` names it. Bot kinds are made from their
//! parameters alone, so the names live in one table of the process.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::RngCore;

use crate::core::wire::Texts;
use crate::core::Params;
use crate::core::{Bot, BotFactory, BotKind, BotRng, Fault, FaultKind, GameDef, GameEnd, GameStart, Limits, ParamSpec};
use crate::error::Result;
use crate::external::protocol::{judge_answer, message};

/// A bot's answer to `act`: the action's text and, optionally, the probabilities it drew it from
/// (action text → probability), as the protocol's answer gives them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The action, in the game's notation (one of the `legal` texts, or a size inside a range).
    pub action: String,
    /// The policy the action was drawn from, if the bot says.
    pub policy: Option<BTreeMap<String, f64>>,
}

/// Why a hosted bot gave no answer: the reason its seat forfeits with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The bot's code failed (a Python exception): the reason is its last line
    /// (`ValueError: no such card`). The seat forfeits with a `crash`.
    Failed(String),
    /// The bot answered something that is not an answer (not a text, a dict without an
    /// `action`): the seat forfeits with a protocol fault.
    Malformed(String),
}

/// One game's player of a hosted bot: told the protocol's messages in order, each as the JSON
/// text of one line of the protocol (without its line break). Text, not a tree: the embedding
/// language's own JSON reader (Python's, in C) makes its values faster than a tree could be
/// converted.
pub trait Player: Send {
    /// `new_game` (seat, game index, seed). A failure forfeits the game before its first move.
    fn new_game(&mut self, message: &str) -> std::result::Result<(), Refusal>;
    /// `act` (the view and the legal actions): the answer.
    fn act(&mut self, message: &str) -> std::result::Result<Answer, Refusal>;
    /// `game_over` (payoffs, places, a forfeit, what the rules reveal); its failures are ignored,
    /// as a program's are.
    fn game_over(&mut self, message: &str);
}

/// A bot the embedding program hosts: it makes the player of each game (a fresh object, or the
/// same one told every game).
pub trait Host: Send + Sync {
    /// The player of one game.
    fn player(&self) -> std::result::Result<Box<dyn Player>, Refusal>;
}

/// The hosted bots of this process, by name.
static HOSTS: Mutex<BTreeMap<String, Arc<dyn Host>>> = Mutex::new(BTreeMap::new());

fn hosts() -> std::sync::MutexGuard<'static, BTreeMap<String, Arc<dyn Host>>> {
    HOSTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Registers `host` under `name` (replacing one of that name) for configs to seat.
pub fn host(name: &str, host: Arc<dyn Host>) {
    hosts().insert(name.to_string(), host);
}

/// Removes the bot registered under `name`.
pub fn unhost(name: &str) {
    hosts().remove(name);
}

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "object",
        "\"\"",
        "the name the embedding program registered the bot under (Python: a key of bot_arena.run's `bots`; \"\": the bot's own name)",
    ),
    ParamSpec::new(
        "move_ms",
        "5000",
        "longest decision in milliseconds (the host's clock); over it the bot forfeits (0: no limit)",
    )
    .range(0.0, Limits::MAX_MS),
];

/// The hosted bot kind of game `G`, named `name` (Python's package calls it `python`).
pub fn kind<G: GameDef>(name: &'static str, about: &'static str) -> BotKind<G> {
    BotKind { name, about, params: PARAMS, make: make::<G> }
}

fn make<G: GameDef>(p: &Params, _game: &G) -> Result<BotFactory<G>> {
    let name: Arc<str> = Arc::from(p.str("object"));
    Ok(Arc::new(move || Box::new(Hosted::<G>::new(Arc::clone(&name))) as Box<dyn Bot<G>>))
}

/// The bot registered under `name`, looked up as a game starts: a folder's bots are made to read
/// it back (`arena report`) when no program hosts them. A bot nobody registered never answers,
/// so a run stops at its start (tournament/start_watch.rs) rather than forfeit every game.
fn lookup(name: &str) -> std::result::Result<Arc<dyn Host>, Fault> {
    let hosts = hosts();
    hosts.get(name).cloned().ok_or_else(|| {
        let known: Vec<&str> = hosts.keys().map(String::as_str).collect();
        let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        let reason = format!(
            "no hosted bot named {} (registered: {known}); a Python bot is seated by bot_arena.run(..., bots={{NAME: bot}})",
            crate::error::shown(name)
        );
        Fault::new(FaultKind::Crash, reason).at_start()
    })
}

/// One seat's hosted bot for one game.
struct Hosted<G: GameDef> {
    /// The name the bot is registered under.
    name: Arc<str>,
    player: Option<Box<dyn Player>>,
    /// The legal actions of the decision being asked, reused from move to move.
    legal: Texts,
    /// The message being told, reused from message to message.
    text: String,
    policy: Vec<(G::Action, f64)>,
}

impl<G: GameDef> Hosted<G> {
    fn new(name: Arc<str>) -> Hosted<G> {
        Hosted { name, player: None, legal: Texts::default(), text: String::new(), policy: Vec::new() }
    }
}

/// The fault a refusal forfeits with.
fn fault(refusal: Refusal) -> Fault {
    match refusal {
        Refusal::Failed(reason) => Fault::new(FaultKind::Crash, reason),
        Refusal::Malformed(reason) => Fault::new(FaultKind::Protocol, format!("bad answer to act: {reason}")),
    }
}

/// Writes `message` as JSON into `text`, replacing what was there.
fn encode<'t>(text: &'t mut String, message: &impl serde::Serialize) -> &'t str {
    let mut bytes = std::mem::take(text).into_bytes();
    bytes.clear();
    serde_json::to_writer(&mut bytes, message).expect("messages serialise");
    *text = String::from_utf8(bytes).expect("JSON is UTF-8");
    text
}

impl<G: GameDef> Bot<G> for Hosted<G> {
    /// Outside the host's play loop (which calls [`Bot::try_act`]) a fault panics.
    fn act(&mut self, game: &G, view: &G::View<'_>, rng: &mut BotRng) -> G::Action {
        self.try_act(game, view, rng, None).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, _game: &G, start: &GameStart<'_>, rng: &mut BotRng) -> std::result::Result<(), Fault> {
        // The one number drawn, as the `external` kind draws it: the same seed a program would get.
        let seed = rng.next_u64();
        let name = if self.name.is_empty() { start.name } else { &self.name };
        let mut player = lookup(name)?.player().map_err(fault)?;
        let new_game = message::NewGame { seat: start.seat, game: start.game, seed };
        player.new_game(encode(&mut self.text, &new_game)).map_err(fault)?;
        self.player = Some(player);
        Ok(())
    }

    fn try_act(
        &mut self,
        game: &G,
        view: &G::View<'_>,
        _rng: &mut BotRng,
        _deadline: Option<Instant>,
    ) -> std::result::Result<G::Action, Fault> {
        self.legal.clear();
        game.write_legal(view, &mut self.legal);
        let act = encode(&mut self.text, &message::Act { view: game.view_json(view), legal: &self.legal });
        let player = self.player.as_mut().expect("start made the player");
        let answer = player.act(act).map_err(fault)?;
        judge_answer(game, view, &self.legal, &answer.action, answer.policy.as_ref(), &mut self.policy)
    }

    fn policy(&self, _game: &G, _view: &G::View<'_>, out: &mut Vec<(G::Action, f64)>) {
        out.extend_from_slice(&self.policy);
    }

    fn finish(&mut self, game: &G, state: &G::State, end: &GameEnd<'_>) {
        // Every ending is told, a forfeit's too: unlike a program's process, the object lives on.
        if let Some(mut player) = self.player.take() {
            player.game_over(encode(&mut self.text, &message::game_over(game, state, end)));
        }
    }
}
