//! A panic of a game's own code (dealing, applying, scoring) ends that game as `error: <message>`
//! in games.csv, the run finishes and writes its summary, and exits with code 3.

use bot_arena::core::wire::Texts;
use bot_arena::core::{factory, BotKind, GameDef};
use bot_arena::core::{Bot, BotRng, DealRng, Game, Headline, IllegalAction, Outcome, ParamSpec, Params, Seat, Wire};
use bot_arena::Arena;
use rand::Rng;
use serde::Serialize;
use serde_json::{json, Value};
use std::fmt::Display;

/// Two seats each say a number; the higher wins. The engine panics on a deal whose secret is 0.
struct Boom;

impl Game for Boom {
    type State = (u32, Vec<u32>);
    type Action = u32;
    type View<'a> = &'a [u32];
    fn seats(&self) -> usize {
        2
    }
    fn deal(&self, rng: &mut DealRng) -> (u32, Vec<u32>) {
        (rng.random_range(0..4), Vec::new())
    }
    fn to_act(&self, s: &Self::State) -> Option<Seat> {
        (s.1.len() < 2).then_some(s.1.len())
    }
    fn legal_actions(&self, _s: &Self::State, out: &mut Vec<u32>) {
        out.extend(0..3);
    }
    fn view<'a>(&self, s: &'a Self::State, _seat: Seat) -> &'a [u32] {
        &s.1
    }
    fn apply(&self, s: &mut Self::State, a: &u32) -> Result<(), IllegalAction> {
        assert!(s.0 != 0, "secret zero");
        s.1.push(*a);
        Ok(())
    }
    fn outcome(&self, s: &Self::State) -> Outcome {
        let d = (s.1[0] as f64 - s.1[1] as f64).signum();
        Outcome::from_payoffs([d, -d])
    }
    fn forfeit(&self, _s: &Self::State, seat: Seat) -> Outcome {
        Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }))
    }
}

impl Wire for Boom {
    fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl Serialize + 'a {
        json!({ "said": view })
    }
    fn write_legal(&self, _view: &&[u32], out: &mut Texts) {
        (0..3).for_each(|n: u32| out.push(n));
    }
    fn action_text(&self, action: &u32) -> impl Display {
        action
    }
    fn parse_action(&self, text: &str) -> Result<u32, String> {
        text.trim().parse().map_err(|_| format!("{text} is not a number"))
    }
    fn reveal(&self, _state: &Self::State) -> impl Serialize {
        Value::Null
    }
    fn deal_json<'a>(&'a self, state: &'a Self::State) -> impl Serialize + 'a {
        json!({ "secret": state.0 })
    }
}

struct Says;

impl Bot<Boom> for Says {
    fn act(&mut self, _game: &Boom, _view: &&[u32], rng: &mut BotRng) -> u32 {
        rng.random_range(0..3)
    }
}

impl GameDef for Boom {
    const NAME: &'static str = "boom";
    const ABOUT: &'static str = "a game whose engine panics on a quarter of the deals";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const OPTIONS: &'static [ParamSpec] = &[];
    fn from_options(_options: &Params, _seats: usize) -> bot_arena::error::Result<Boom> {
        Ok(Boom)
    }
    fn headline(&self) -> Headline {
        Headline::elo(bot_arena::core::POINTS_A_GAME)
    }
    fn bot_kinds() -> Vec<BotKind<Boom>> {
        let kind = |name| BotKind { name, about: "a random number", params: &[], make: |_, _| Ok(factory(|| Says)) };
        vec![kind("says"), kind("also-says")]
    }
    fn redeal_hidden(&self, _state: &Self::State, _seat: Seat, _rng: &mut DealRng) -> Option<Self::State> {
        None
    }
    fn conserved(&self, _state: &Self::State) -> Option<u64> {
        None
    }
}

#[test]
fn an_engine_panic_is_that_games_error_and_the_run_exits_3_with_its_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = ["arena", "run", "--game", "boom", "--bot", "says", "--bot", "also-says", "--games", "40", "--quiet"];
    let code = bot_arena::cli::main_from(
        &Arena::empty().game::<Boom>(),
        args.iter().map(|s| s.to_string()).chain(["--out".into(), out.display().to_string()]),
    );
    assert_eq!(code, 3);
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 80, "every game is in games.csv");
    let errors = rows.iter().filter(|r| r.ends_with(",,,0,error: secret zero")).count();
    let ok = rows.iter().filter(|r| r.ends_with(",ok")).count();
    assert!(errors > 0 && ok > 0 && errors + ok == 80, "{games}");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 3, "{summary}");
    // Errored games count for nobody: the bots' games are the games with a result.
    let played: u64 = summary.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(played, ok as u64, "{summary}");
}

/// A game whose own code failed keeps a record that says so (no deal, no events, the message),
/// and `arena replay --check` counts it rather than playing it back.
#[test]
fn an_engine_panic_is_on_record_and_the_check_passes_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let arena = Arena::empty().game::<Boom>();
    let args = ["arena", "run", "--game", "boom", "--bot", "says", "--bot", "also-says", "--games", "40", "--quiet"];
    let more = ["--records", "moves", "--out", &out.display().to_string()].map(String::from);
    assert_eq!(bot_arena::cli::main_from(&arena, args.iter().map(|s| s.to_string()).chain(more)), 3);
    let records = std::fs::read_to_string(out.join("records.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = records.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 40, "one record a game");
    let errors: Vec<&serde_json::Value> = lines.iter().filter(|l| l["status"]["error"].is_string()).collect();
    assert!(!errors.is_empty() && errors.len() < 40);
    for line in &errors {
        assert_eq!((line["deal"].is_null(), line["events"].as_array().unwrap().len()), (true, 0), "{line}");
        assert_eq!(line["status"]["error"], "secret zero");
    }
    let check = ["arena", "replay", "--check", &out.display().to_string()].map(String::from);
    assert_eq!(bot_arena::cli::main_from(&arena, check), 0);
}
