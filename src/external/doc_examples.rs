//! The examples in docs/protocol.md are what the host sends: every JSON block marked
//! `<!-- message: NAME -->` must be, once its layout is taken out, byte for byte the line the host
//! writes (the same fields in the same order; the document may indent freely). `cargo test --release -- --ignored print_protocol_examples --nocapture`
//! prints them all, to paste into the document when an encoding changes.

use serde_json::Value;

use crate::core::wire::Texts;
use crate::core::{GameDef, Params};
use crate::external::examples::{line, scripted};
use crate::external::protocol::message;
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
    all
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
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md")).unwrap();
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
