//! report.html's game viewer: which games a run that kept its moves shows step by step, and (when
//! Chromium is installed: `scripts/chromium-check.sh`) that the page, opened at
//! `#game=K&step=N`, draws step N of the record: its event, every seat's own cards or tiles, the
//! stones on a gomoku board.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tempfile::TempDir;

use crate::common::arena;
use crate::report::{chromium, dump_dom};

/// Runs `config` (a shipped config) for `games` games keeping its moves; returns the run folder.
fn run_kept(dir: &Path, name: &str, config: &str, games: u32) -> PathBuf {
    let out = dir.join(name);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(config);
    let output = arena()
        .args(["run", "-q", "--records", "moves", "--threads", "2", "--games", &games.to_string(), "--out"])
        .arg(&out)
        .arg(&config)
        .output()
        .unwrap();
    assert!(output.status.success(), "{name}: {}", String::from_utf8_lossy(&output.stderr));
    out
}

fn report(dir: &Path, extra: &[&str]) -> std::process::Output {
    arena().arg("report").arg(dir).args(extra).output().unwrap()
}

fn page(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("report.html")).unwrap()
}

/// `arena replay DIR --game N --json`: the record's events and every step's views.
fn replayed(dir: &Path, game: u64) -> Value {
    let out = arena().arg("replay").arg(dir).args(["--json", "--game", &game.to_string()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// An event as the viewer writes it: `seat 1 (rr): raise 300`, or the chance event's text.
fn event_text(doc: &Value, i: usize) -> String {
    let event = &doc["events"][i];
    match event.as_array() {
        Some(pair) => {
            let seat = pair[0].as_u64().unwrap() as usize;
            format!("seat {seat} ({}): {}", doc["seats"][seat].as_str().unwrap(), pair[1].as_str().unwrap())
        }
        None => event.as_str().unwrap().to_string(),
    }
}

/// The page picks each pairing's first game and the first bot's largest win and loss, adds the
/// games `--game` names, and writes no script for a run that kept no moves; `--game` there, or
/// a game the run does not have, is refused in one line.
#[test]
fn the_page_shows_the_games_it_picks_and_the_ones_asked_for() {
    let tmp = TempDir::new().unwrap();
    let dir = run_kept(tmp.path(), "holdem", "holdem-headsup.toml", 6);
    let out = report(&dir, &["--game", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = page(&dir);
    assert!(text.contains("<h2>Games step by step</h2>"));
    assert!(text.contains("the pairing&#39;s first game") || text.contains("the pairing's first game"));
    assert!(text.contains("largest win") && text.contains("largest loss"), "win and loss picked");
    assert!(text.contains("asked for (--game)"));
    assert!(text.contains("data-pairing=\"0\" data-number=\"5\""), "game 5 shown");
    assert_eq!(text.matches("<script>").count(), 1, "one script");
    let out = report(&dir, &["--game", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game 99"));

    // A run without move records: the page as before, with no script; --game is refused.
    let plain = tmp.path().join("plain");
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/holdem-headsup.toml");
    let run = arena().args(["run", "-q", "--games", "4", "--out"]).arg(&plain).arg(&config).output().unwrap();
    assert!(run.status.success());
    assert!(report(&plain, &[]).status.success());
    let text = page(&plain);
    assert!(!text.contains("<script") && !text.contains("Games step by step"));
    let out = report(&plain, &["--game", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("kept no move records"));
}

/// Every forfeit is shown up to 20, and the page says how many more there were: a bot that
/// answers its greeting, then quits at its first move, forfeits each of 24 games (one that never
/// answers would stop the run: it could not run).
#[test]
fn forfeits_are_shown_up_to_twenty() {
    let tmp = TempDir::new().unwrap();
    let config = crate::common::write(
        tmp.path(),
        "quits.toml",
        "name = \"quits\"\ngame = \"gomoku\"\ngames = 24\nseed = 1\n[table]\nsize = 9\n\
         [[bots]]\nname = \"quits\"\nkind = \"external\"\nparams = { command = [\"sh\", \"-c\", \"read hello; echo '{\\\"type\\\": \\\"ready\\\"}'; exit 1\"] }\n\
         [[bots]]\nname = \"random\"\nkind = \"random\"\n",
    );
    let dir = tmp.path().join("quits");
    let run = arena().args(["run", "-q", "--records", "moves", "--out"]).arg(&dir).arg(&config).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let out = report(&dir, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = page(&dir);
    assert_eq!(text.matches("seat 0 (quits) forfeits").count(), 20, "20 forfeits shown");
    assert!(text.contains("4 more forfeits or engine errors are not shown"));
}

/// One game of each of the five games, opened in headless Chromium at a few steps: the event
/// line is the record's event, every seat's own cards or tiles are on the table, a gomoku board
/// holds as many stones as moves were played; and the browser logs nothing.
#[test]
fn the_viewer_steps_through_every_game_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no Chromium (install it with scripts/chromium-check.sh, or set CHROMIUM)");
        return;
    };
    let tmp = TempDir::new().unwrap();
    for (name, config) in [
        ("holdem", "holdem-headsup.toml"),
        ("stud", "stud.toml"),
        ("zhajinhua", "zhajinhua-3.toml"),
        ("gomoku", "gomoku.toml"),
        ("mahjong", "mahjong.toml"),
    ] {
        let dir = run_kept(tmp.path(), name, config, 2);
        let out = report(&dir, &[]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        // Game 0 of the page is the run's first game (pairing 0, game 0).
        assert!(page(&dir).contains("id=\"game-0\" data-game=\"0\" data-pairing=\"0\" data-number=\"0\""));
        let doc = replayed(&dir, 0);
        let frames = doc["frames"].as_array().unwrap();
        let last = frames.len() - 1;
        for step in [0, 3.min(last), last] {
            let url = format!("file://{}#game=0&step={step}", dir.join("report.html").display());
            let profile = tmp.path().join(format!("profile-{name}-{step}"));
            let dom = dump_dom(&chromium, &profile, &[], &url);
            let dom_text = String::from_utf8_lossy(&dom.stdout);
            let log = String::from_utf8_lossy(&dom.stderr);
            let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
            assert!(console.is_empty(), "{name}: console output: {console:?}");
            let viewer = viewer_of(&dom_text, 0);
            assert!(viewer.contains(&format!("data-step=\"{step}\"")), "{name}: not at step {step}");
            let event = match step {
                0 => "The deal".to_string(),
                n => format!("{n}. {}", html_escape(&event_text(&doc, n - 1))),
            };
            assert!(
                viewer.contains(&format!("<div class=\"event\" data-step=\"{step}\">{event}</div>")),
                "{name} step {step}: no event line `{event}`"
            );
            let views = frames[step]["views"].as_array().unwrap();
            let table = section_of(viewer, "<table class=\"seats\">");
            for (seat, view) in views.iter().enumerate() {
                for hidden in own_cards(view) {
                    let chip = if view.get("melds").is_some() { "data-tile" } else { "data-card" };
                    assert!(
                        table.contains(&format!("{chip}=\"{hidden}\"")),
                        "{name} step {step}: seat {seat}'s {hidden} is not on the table"
                    );
                }
            }
            if let Some(moves) = views[0].get("moves").and_then(Value::as_array) {
                let stones = section_of(viewer, "<table class=\"grid\">").matches("class=\"stone ").count();
                assert_eq!(stones, moves.len(), "{name} step {step}: stones on the board");
            }
        }
    }
}

/// The part of the dumped page that is viewer `k`.
fn viewer_of(dom: &str, k: usize) -> &str {
    let start = dom.find(&format!("id=\"game-{k}\"")).expect("the viewer");
    let end = dom[start..].find("class=\"viewer\"").map_or(dom.len(), |e| start + e);
    &dom[start..end]
}

/// From `start` to the end of that table.
fn section_of<'a>(text: &'a str, start: &str) -> &'a str {
    let at = text.find(start).unwrap_or_else(|| panic!("no {start}"));
    let end = text[at..].find("</table>").unwrap();
    &text[at..at + end]
}

/// A seat's own hidden cards or tiles in its view: hold'em and stud `hole`, zhajinhua `cards`
/// (once looked), mahjong `hand`.
fn own_cards(view: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["hole", "cards", "hand"] {
        match view.get(key) {
            Some(Value::String(card)) => out.push(card.clone()),
            Some(Value::Array(cards)) => out.extend(cards.iter().filter_map(Value::as_str).map(str::to_string)),
            _ => {}
        }
    }
    out
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
