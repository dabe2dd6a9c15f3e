//! The examples in docs/book/src/protocol.md are what the host sends: every JSON block marked
//! `<!-- message: NAME -->` must be, once its layout is taken out, byte for byte the line the host
//! writes (the same fields in the same order; the document may indent freely). `cargo test --release -- --ignored print_protocol_examples --nocapture`
//! prints them all, to paste into the document when an encoding changes.

use serde_json::Value;

use crate::core::wire::Texts;
use crate::core::{Fault, Game, GameDef, GameEnd, Limits, Outcome, Params, Status, Wire};
use crate::external::examples::{act, line, scripted};
use crate::external::protocol::{
    message, over_memory, read_answer, read_answer_with_policy, read_policy, start_timeout, stopped_reading,
};
use crate::games::holdem::Action as HoldemAction;
use crate::games::mahjong::Mahjong;
use crate::games::stud::Stud;
use crate::games::{gomoku::Gomoku, holdem::Holdem};

/// Every example of the document, by name.
fn examples() -> Vec<(String, String)> {
    let (_, options, _) = scripted::<Holdem>("", 2, &[]);
    // The bot's parameters as the host holds them: the kind's, in its order, defaults filled in.
    let given = toml::from_str(
        r#"command = ["python3", "bots/examples/holdem_random.py"]
        move_ms = 1000
        game_ms = 60000
        start_ms = 5000"#,
    )
    .unwrap();
    let arena = crate::registry::Arena::standard();
    let specs = crate::core::BotChoice::specs(arena.find("holdem").unwrap().bot_params("external").unwrap());
    let params = Params::new(&specs, &given, "mine").unwrap();
    let new_game = message::NewGame { seat: 1, game: 17, seed: 11_400_714_819_323_198_485 };
    let mut all = vec![
        ("hello".to_string(), line(message::hello("holdem", &options, 2, "mine", params.table()))),
        ("new_game".to_string(), line(new_game)),
    ];
    // Every registered game's documented position: a game added to the registry with a
    // `PROTOCOL_EXAMPLE` and no example in the document fails the test.
    all.extend(arena.games().filter_map(|g| g.protocol_examples()).flatten());
    // A forfeit as `game_over` tells it: seat 1 timed out at its first decision.
    let (game, _, state) = scripted::<Holdem>("", 2, &[]);
    let reason = Limits { move_ms: Some(1000), ..Limits::default() }.judge(WAITED, WAITED, false).unwrap();
    let (outcome, status) = (game.forfeit(&state, 1), Status::Forfeit { seat: 1, reason });
    all.push(("game_over with a forfeit".into(), line(message::game_over(&game, &state, &end(&outcome, &status)))));
    // Stud lists the pot bet only below the most the hand allows: with 2 chips left after the
    // ante and 2 in the pot, the show hand (2) stands for it.
    let (game, _, state) = scripted::<Stud>("stack = 3", 2, &[]);
    all.push(("stud act, the pot bet over the maximum".into(), act(&game, &state)));
    // Hold'em's `to_call` is what calling costs: against a raise larger than the stack, the stack.
    let (game, _, state) = scripted::<Holdem>("format = \"sng\"", 2, &["fold", "raise 10050"]);
    all.push(("holdem act, to_call against a short stack".into(), act(&game, &state)));
    // A `policy` request: the first decision's view, as `act` shows it.
    let (game, _, state) = scripted::<Holdem>("", 2, &[]);
    let view = game.view(&state, game.to_act(&state).unwrap());
    let mut legal = Texts::default();
    game.write_legal(&view, &mut legal);
    all.push(("holdem policy".into(), line(message::Policy { view: game.view_json(&view), legal: &legal })));
    all
}

/// The documented answers to `policy` are read as the host reads them: the good one into
/// actions, each wrong one refused with the reason the document quotes.
#[test]
fn the_documented_policy_answers_are_judged_as_the_host_judges_them() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/book/src/protocol.md")).unwrap();
    let (game, _, state) = scripted::<Holdem>("", 2, &[]);
    let view = game.view(&state, game.to_act(&state).unwrap());
    let mut legal = Texts::default();
    game.write_legal(&view, &mut legal);
    let good = r#"{"policy": {"fold": 0.2, "call": 0.5, "raise 300": 0.3}}"#;
    assert!(doc.contains(good), "docs/book/src/protocol.md shows the answer");
    let mut policy = Vec::new();
    read_policy(&game, &view, &legal, good.as_bytes(), &mut policy).unwrap();
    policy.sort_by(|a, b| a.1.total_cmp(&b.1));
    assert_eq!(policy, [(HoldemAction::Fold, 0.2), (HoldemAction::RaiseTo(300), 0.3), (HoldemAction::CheckCall, 0.5)]);
    // Within 1e-6 of one is one.
    read_policy(&game, &view, &legal, br#"{"policy": {"call": 0.9999995}}"#, &mut policy).unwrap();
    for wrong in [
        r#"{"policy": {"call": 0.5}}"#,
        r#"{"policy": {"call": 1.5, "fold": -0.5}}"#,
        r#"{"policy": {"raise 20000": 1}}"#,
        r#"{"policy": null}"#,
        r#"{"action": "call"}"#,
    ] {
        let mut out = Vec::new();
        let fault = read_policy(&game, &view, &legal, wrong.as_bytes(), &mut out).unwrap_err();
        assert!(out.is_empty(), "{wrong}: nothing read");
        assert!(doc.contains(fault.reason()), "docs/book/src/protocol.md does not quote `{}`", fault.reason());
    }
}

/// A decision's time in the documented timeout reasons.
const WAITED: std::time::Duration = std::time::Duration::from_micros(1_000_400);

fn end<'a>(outcome: &'a Outcome, status: &'a Status) -> GameEnd<'a> {
    GameEnd { outcome, status }
}

/// Every reason docs/book/src/protocol.md quotes is one the host gives: the answers of its fault table
/// read as the host reads them, in the documented positions, and the timeouts.
#[test]
fn the_documented_reasons_are_the_hosts() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/book/src/protocol.md")).unwrap();
    let reason = |fault: Fault| fault.reason().to_string();
    let limits = Limits { move_ms: Some(1000), game_ms: Some(60000), ..Limits::default() };
    let mut reasons = vec![
        reason(limits.judge(WAITED, WAITED, false).unwrap()),
        reason(limits.judge(std::time::Duration::from_micros(1_203_500), WAITED, true).unwrap()),
        reason(
            Limits { game_ms: Some(60000), ..Limits::default() }
                .judge(WAITED, std::time::Duration::from_micros(60_000_300), false)
                .unwrap(),
        ),
        reason(start_timeout(std::time::Duration::from_secs(5), std::time::Duration::from_micros(5_000_200))),
        reason(
            Limits { tc: Some(crate::core::TimeControl::parse("10+0.1").unwrap()), ..Limits::default() }
                .judge_on_clock(
                    std::time::Duration::from_micros(412_500),
                    WAITED,
                    Some(std::time::Duration::from_micros(412_400)),
                    false,
                )
                .unwrap(),
        ),
        reason(over_memory(108 << 20, 100 << 20)),
        reason(stopped_reading()),
    ];
    // Hold'em's first decision: seat 0, the small blind, facing the big blind.
    let (game, _, state) = scripted::<Holdem>("", 2, &[]);
    let view = game.view(&state, game.to_act(&state).unwrap());
    let mut legal = Texts::default();
    game.write_legal(&view, &mut legal);
    for answer in [r#"{"action":"raise 1"}"#, r#"{"action":"bet 5"}"#, "call", r#"{"type":"ready"}"#] {
        reasons.push(reason(read_answer(&game, &view, &legal, answer.as_bytes()).unwrap_err()));
    }
    // Stud's documented position (nothing owed): `call` is refused; hold'em's takes it as a check.
    let (stud, _, state) = scripted::<Stud>("", 2, &[]);
    let view = stud.view(&state, stud.to_act(&state).unwrap());
    let mut legal = Texts::default();
    stud.write_legal(&view, &mut legal);
    reasons.push(reason(read_answer(&stud, &view, &legal, br#"{"action":"call"}"#).unwrap_err()));
    let (game, _, state) = scripted::<Holdem>("", 2, &["call", "check"]);
    let view = game.view(&state, game.to_act(&state).unwrap());
    let mut legal = Texts::default();
    game.write_legal(&view, &mut legal);
    assert_eq!(read_answer(&game, &view, &legal, br#"{"action":"call"}"#).unwrap(), HoldemAction::CheckCall);
    for reason in reasons {
        assert!(doc.contains(&reason), "docs/book/src/protocol.md does not quote the host's reason `{reason}`");
    }
    // Case never matters: the documented answer reads as its lower-case spelling.
    let mahjong = Mahjong::new(8);
    assert!(doc.contains(r#"{"action": "Discard 5M"}"#));
    assert_eq!(mahjong.parse_action("Discard 5M"), mahjong.parse_action("discard 5m"));
    assert_eq!(mahjong.parse_action("discard e"), mahjong.parse_action("discard E"));
}

/// The marked JSON blocks of the document (`<!-- message: NAME -->` then a ```json block), each
/// written on one line without spaces, as the host writes JSON.
fn documented(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in text.split("<!-- message: ").skip(1) {
        let (name, rest) = part.split_once(" -->").expect("a closed marker");
        let block = rest.split_once("```json\n").expect("a json block after the marker").1;
        let block = block.split_once("```").expect("a closed block").0;
        let value: Value = serde_json::from_str(block).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name.to_string(), line(value)));
    }
    out
}

#[test]
fn the_protocol_document_shows_what_the_host_sends() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/book/src/protocol.md")).unwrap();
    let shown: std::collections::BTreeMap<String, String> = documented(&doc).into_iter().collect();
    let made: std::collections::BTreeMap<String, String> = examples().into_iter().collect();
    assert_eq!(shown.keys().collect::<Vec<_>>(), made.keys().collect::<Vec<_>>(), "one example of each message");
    for (name, host) in &made {
        assert_eq!(&shown[name], host, "{name}: the document differs from the host");
    }
}

#[test]
#[ignore]
fn print_protocol_examples() {
    for (name, line) in examples() {
        let value: Value = serde_json::from_str(&line).unwrap();
        println!("<!-- message: {name} -->\n```json\n{}\n```\n", serde_json::to_string_pretty(&value).unwrap());
    }
}

/// This thread's CPU time: on a loaded machine, wall time says little.
fn cpu_time() -> std::time::Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid timespec to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// What building and writing an `act` message costs the host, in CPU time: the view, the legal
/// actions and the line, into buffers reused from move to move as `External` does.
/// `cargo test --release -- --ignored encode_cost --nocapture`
#[test]
#[ignore]
fn encode_cost() {
    fn measure<G: GameDef>(game: &G, state: &G::State) {
        let seat = game.to_act(state).unwrap();
        let (mut legal, mut out) = (Texts::default(), Vec::new());
        let n = 20_000;
        let began = cpu_time();
        for _ in 0..n {
            let view = game.view(state, seat);
            legal.clear();
            game.write_legal(&view, &mut legal);
            out.clear();
            serde_json::to_writer(&mut out, &message::Act { view: game.view_json(&view), legal: &legal }).unwrap();
        }
        println!("{} act: {:?} of CPU each, {} bytes", G::NAME, (cpu_time() - began) / n, out.len());
    }
    let (game, _, state) = scripted::<Holdem>("", 2, &["call", "check"]);
    measure(&game, &state);
    let (game, _, state) = scripted::<Gomoku>("", 2, &["7,7", "8,7", "7,8", "8,8"]);
    measure(&game, &state);
}

/// The documented answer with a policy reads as the host reads it: its action, and its
/// probabilities as actions of the game.
#[test]
fn the_documented_policy_is_read_as_actions() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/book/src/protocol.md")).unwrap();
    let line = r#"{"action": "raise 300", "policy": {"fold": 0.05, "call": 0.25, "raise 300": 0.7}}"#;
    assert!(doc.contains(line), "docs/book/src/protocol.md shows the policy answer");
    let (game, _, state) = scripted::<Holdem>("", 2, &[]);
    let view = game.view(&state, game.to_act(&state).unwrap());
    let mut legal = Texts::default();
    game.write_legal(&view, &mut legal);
    let mut policy = Vec::new();
    let action = read_answer_with_policy(&game, &view, &legal, line.as_bytes(), &mut policy).unwrap();
    assert_eq!(action, HoldemAction::RaiseTo(300));
    policy.sort_by(|a, b| a.1.total_cmp(&b.1));
    assert_eq!(
        policy,
        vec![(HoldemAction::Fold, 0.05), (HoldemAction::CheckCall, 0.25), (HoldemAction::RaiseTo(300), 0.7)]
    );
    // A policy naming something that is not an action is dropped, not a fault.
    let odd = br#"{"action": "call", "policy": {"call": 0.5, "dance": 0.5}}"#;
    assert_eq!(read_answer_with_policy(&game, &view, &legal, odd, &mut policy).unwrap(), HoldemAction::CheckCall);
    assert!(policy.is_empty());
}
