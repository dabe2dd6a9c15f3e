//! The game viewer of report.html: a few games of a run that kept its moves (`--records moves`),
//! each step as every seat saw it, stepped through by a small inline script. This file chooses
//! the games from games.csv ([`select`]) and writes their steps into the page ([`section`]); the
//! steps themselves (each seat's wire view after every event) are replayed by the tournament
//! layer, which hands them here as plain [`ViewedGame`]s. It knows no game: the script draws any
//! view as fields, cards and tiles as chips, and a view with a board of rows as a grid.
//!
//! The page stays readable without the script: each game's heading, why it was chosen, its
//! result and its events are plain HTML; the script only adds the stepping table.
//!
//! Size: a mahjong hand has some three hundred steps and four views of about half a kilobyte
//! each. Each view is stored as a patch of the same seat's view one step before (fields that
//! changed, lists that grew by what was appended), and identical patches once per game (a
//! public change is the same patch for every seat), which keeps a game to a few tens of KB.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use serde_json::{json, Map, Value};

use super::escape;
use super::run::RunData;
use crate::core::Status;

/// Forfeits and engine errors shown at most; the page says how many more there were.
pub const MAX_FAULTS: usize = 20;

/// The games of one run the page shows step by step.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub games: Vec<ViewedGame>,
    /// Forfeits and engine errors beyond [`MAX_FAULTS`], not shown.
    pub faults_left_out: usize,
}

/// A game chosen for the viewer: where it is in the run and why it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub pairing: usize,
    pub game: u64,
    pub why: Vec<String>,
}

/// One game's steps, as plain data.
#[derive(Clone, Debug)]
pub struct ViewedGame {
    pub pick: Pick,
    /// Each seat as `seat 0 (name)`.
    pub seats: Vec<String>,
    /// Each event: the seat that acted (none for a chance event) and its text.
    pub events: Vec<(Option<usize>, String)>,
    /// One step after the deal and one after each event; empty when the game's own code failed.
    pub steps: Vec<Step>,
    /// The payoffs and how the game ended.
    pub result: String,
    /// The terminal command that shows the same game.
    pub command: String,
}

/// One step: the seat to act next and every seat's wire view.
#[derive(Clone, Debug)]
pub struct Step {
    pub to_act: Option<usize>,
    pub views: Vec<Value>,
}

/// The games to show: each pairing's first game, the largest win and the largest loss of its
/// first bot, every forfeit and engine error (up to [`MAX_FAULTS`]) and the games `asked` for
/// (pairing, game), in the run's order; and how many faults were left out.
pub fn select(run: &RunData, asked: &[(usize, u64)]) -> (Vec<Pick>, usize) {
    let mut why: BTreeMap<(usize, u64), Vec<String>> = BTreeMap::new();
    let mut add = |pairing: usize, game: u64, reason: String| why.entry((pairing, game)).or_default().push(reason);
    // Per pairing: its first game and its first bot's best and worst payoff (game, payoff).
    let mut first: BTreeMap<usize, u64> = BTreeMap::new();
    let mut best: BTreeMap<usize, (u64, f64)> = BTreeMap::new();
    let mut worst: BTreeMap<usize, (u64, f64)> = BTreeMap::new();
    let mut faults = 0;
    for row in &run.games {
        first.entry(row.pairing).or_insert(row.game);
        match &row.record.status {
            Status::Ok => {}
            status => {
                faults += 1;
                if faults <= MAX_FAULTS {
                    add(row.pairing, row.game, fault_text(status, &row.lineup, &run.names));
                }
            }
        }
        let Some(payoff) = first_bot_payoff(run, row) else { continue };
        if payoff > 0.0 && best.get(&row.pairing).is_none_or(|&(_, p)| payoff > p) {
            best.insert(row.pairing, (row.game, payoff));
        }
        if payoff < 0.0 && worst.get(&row.pairing).is_none_or(|&(_, p)| payoff < p) {
            worst.insert(row.pairing, (row.game, payoff));
        }
    }
    for (&pairing, &game) in &first {
        add(pairing, game, "the pairing's first game".to_string());
    }
    let bot = |pairing: usize| &run.names[run.schedule.pairings[pairing].table[0]];
    for (&pairing, &(game, payoff)) in &best {
        add(pairing, game, format!("{}'s largest win in the pairing ({})", bot(pairing), signed(payoff)));
    }
    for (&pairing, &(game, payoff)) in &worst {
        add(pairing, game, format!("{}'s largest loss in the pairing ({})", bot(pairing), signed(payoff)));
    }
    for &(pairing, game) in asked {
        add(pairing, game, "asked for (--game)".to_string());
    }
    let picks = why.into_iter().map(|((pairing, game), why)| Pick { pairing, game, why }).collect();
    (picks, faults.saturating_sub(MAX_FAULTS))
}

/// The payoff of the pairing's first bot in `row` (its first seat there), unless the game failed.
fn first_bot_payoff(run: &RunData, row: &crate::report::GameRow) -> Option<f64> {
    if matches!(row.record.status, Status::Error(_)) {
        return None;
    }
    let bot = run.schedule.pairings.get(row.pairing)?.table[0];
    let seat = row.lineup.iter().position(|&b| b == bot)?;
    Some(row.record.seats.get(seat)?.payoff)
}

fn fault_text(status: &Status, lineup: &[usize], names: &[String]) -> String {
    match status {
        Status::Forfeit { seat, reason } => {
            let name = lineup.get(*seat).and_then(|&b| names.get(b)).map_or("?", String::as_str);
            format!("seat {seat} ({name}) forfeits: {}", reason.reason())
        }
        Status::Error(message) => format!("engine error: {message}"),
        Status::Ok => String::new(),
    }
}

fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{x}")
    } else {
        format!("{x}")
    }
}

/// The run's viewer section (nothing when it shows no game); its games are numbered from
/// `first` on the page (`#game=K&step=N` opens game K at step N).
pub fn section(run: &RunData, first: usize) -> String {
    let viewer = &run.viewer;
    if viewer.games.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h2>Games step by step</h2>\n<p class=\"note\">");
    out.push_str(
        "Each pairing's first game, its first bot's largest win and largest loss, every forfeit and \
         engine error, and the games asked for with <code>arena report --game N</code>. Every hand is \
         open: each seat's row shows what that seat's own view holds. Step with the buttons or the \
         Left/Right arrow keys (Home, End); <code>#game=K&amp;step=N</code> after the page's address \
         opens game K at step N (<code>&amp;alone</code>: that game alone).",
    );
    if viewer.faults_left_out > 0 {
        let _ = write!(out, " {} more forfeits or engine errors are not shown.", viewer.faults_left_out);
    }
    out.push_str("</p>\n");
    for (k, game) in viewer.games.iter().enumerate() {
        out.push_str(&game_html(game, first + k));
    }
    out
}

/// One game: its heading, why, result and events as plain HTML, and its steps as JSON for the
/// script.
fn game_html(game: &ViewedGame, k: usize) -> String {
    let pick = &game.pick;
    let mut out = format!(
        "<div class=\"viewer\" id=\"game-{k}\" data-game=\"{k}\" data-pairing=\"{}\" data-number=\"{}\" tabindex=\"0\">\n\
         <h3>Game {k}: pairing {}, game {}: {}</h3>\n<p class=\"note\">{}. Result: {}. In a terminal: <code>{}</code></p>\n",
        pick.pairing,
        pick.game,
        pick.pairing,
        pick.game,
        escape(&game.seats.join(", ")),
        escape(&pick.why.join("; ")),
        escape(&game.result),
        escape(&game.command),
    );
    out.push_str("<details class=\"events\"><summary>Events</summary><ol>");
    for (_, text) in &game.events {
        let _ = write!(out, "<li>{}</li>", escape(text));
    }
    out.push_str("</ol></details>\n");
    if !game.steps.is_empty() {
        // `<` never reaches the page raw, so no text of a view can close the script element.
        let data = encode(game).to_string().replace('<', "\\u003c");
        let _ = writeln!(out, "<script type=\"application/json\" class=\"viewer-data\">{data}</script>");
    }
    out.push_str("</div>\n");
    out
}

/// The game as the script reads it: `seats`, `events` (`[seat or null, text]`), `patches` (each
/// distinct patch once) and `frames` (`[to_act, [patch index or null per seat]]`, null where the
/// seat's view did not change).
fn encode(game: &ViewedGame) -> Value {
    let mut patches: Vec<Value> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut before: Vec<Value> = vec![Value::Null; game.seats.len()];
    let mut frames = Vec::with_capacity(game.steps.len());
    for step in &game.steps {
        let seats: Vec<Value> = step
            .views
            .iter()
            .zip(&mut before)
            .map(|(view, old)| {
                let Some(patch) = patch(old, view) else { return Value::Null };
                *old = view.clone();
                let at = *index.entry(patch.to_string()).or_insert_with(|| {
                    patches.push(patch);
                    patches.len() - 1
                });
                json!(at)
            })
            .collect();
        frames.push(json!([step.to_act, seats]));
    }
    json!({
        "seats": game.seats,
        "events": game.events.iter().map(|(seat, text)| json!([seat, text])).collect::<Vec<_>>(),
        "result": game.result,
        "patches": patches,
        "frames": frames,
    })
}

/// What turns `old` into `new`, none when they are equal: `[0, value]` sets the value, `[1,
/// items…]` appends to a list, `[2, {field: patch}]` patches an object's fields (`[4]` removes
/// one: a phase may change which fields a view has), `[3, {index: patch}]` a list's items in
/// place, `[5, index, item, …]` inserts items (indexes in the new list, ascending: a sorted hand
/// that drew), `[6, index, …]` removes items (indexes in the old list); the shortest of those
/// that apply and setting the whole value.
pub fn patch(old: &Value, new: &Value) -> Option<Value> {
    if old == new {
        return None;
    }
    let mut best = json!([0, new]);
    let mut consider = |candidate: Value| {
        if candidate.to_string().len() < best.to_string().len() {
            best = candidate;
        }
    };
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let mut fields: Map<String, Value> = b
                .iter()
                .filter_map(|(k, v)| match a.get(k) {
                    Some(was) => patch(was, v).map(|p| (k.clone(), p)),
                    None => Some((k.clone(), json!([0, v]))),
                })
                .collect();
            fields.extend(a.keys().filter(|k| !b.contains_key(*k)).map(|k| (k.clone(), json!([4]))));
            consider(json!([2, fields]));
        }
        (Value::Array(a), Value::Array(b)) => {
            if b.len() > a.len() && b[..a.len()] == a[..] {
                consider(Value::Array(std::iter::once(json!(1)).chain(b[a.len()..].iter().cloned()).collect()));
            }
            if a.len() == b.len() {
                let items: Map<String, Value> = a
                    .iter()
                    .zip(b)
                    .enumerate()
                    .filter_map(|(i, (x, y))| patch(x, y).map(|p| (i.to_string(), p)))
                    .collect();
                consider(json!([3, items]));
            }
            if let Some(extra) = left_over(a, b) {
                let mut op = vec![json!(5)];
                op.extend(extra.into_iter().flat_map(|i| [json!(i), b[i].clone()]));
                consider(Value::Array(op));
            }
            if let Some(gone) = left_over(b, a) {
                consider(Value::Array(std::iter::once(json!(6)).chain(gone.into_iter().map(|i| json!(i))).collect()));
            }
        }
        _ => {}
    }
    Some(best)
}

/// When `short` is `long` with some items left out (in order), the indexes in `long` of those
/// items; none otherwise (or when nothing is left out).
fn left_over(short: &[Value], long: &[Value]) -> Option<Vec<usize>> {
    if short.len() >= long.len() {
        return None;
    }
    let mut next = short.iter().peekable();
    let mut extra = Vec::new();
    for (i, item) in long.iter().enumerate() {
        if next.peek() == Some(&item) {
            next.next();
        } else {
            extra.push(i);
        }
    }
    next.peek().is_none().then_some(extra)
}

/// The viewer's style (added to the page's when it shows a game).
pub const STYLE: &str = ".viewer{border:1px solid #bbb;padding:.4em .8em;margin:1em 0}\
.viewer:focus{outline:2px solid #36c}.viewer .bar button{margin-right:.3em}.viewer .bar input{vertical-align:middle;width:14em}\
.viewer .event{font-weight:bold;margin:.4em 0}.viewer .next{color:#444;font-size:.9em}\
.viewer table td{text-align:left;vertical-align:top}.viewer tr.acted{background:#fff3c4}.viewer tr.to-act td:first-child{border-left:4px solid #36c}\
.chip{display:inline-block;min-width:1.7em;padding:.05em .2em;margin:.05em;border:1px solid #888;border-radius:3px;\
background:#fff;text-align:center;font-family:monospace;font-size:1.05em}\
.card.h,.card.d{color:#c00}.card.c,.card.s{color:#000}.tile.m{background:#fde8e8}.tile.s{background:#e6f4e6}\
.tile.p{background:#e6eefc}.tile.z{background:#f2eadb}.tile.back{background:#8a6d3b;color:#8a6d3b}\
.meld{display:inline-block;border:1px solid #bbb;border-radius:4px;padding:0 .15em;margin:.05em .2em .05em 0}\
.meld.closed{border-style:dashed}.viewer ol.hist{margin:0;padding-left:1.6em;max-height:9em;overflow-y:auto;font-size:.85em}\
table.grid{border-collapse:collapse;background:#dcb35c}table.grid td{width:1.6em;height:1.6em;padding:0;border:1px solid #a5824a;\
text-align:center;font-size:.7em}table.grid td.stone.x{background:radial-gradient(#444,#000);color:#fff;border-radius:50%}\
table.grid td.stone.o{background:radial-gradient(#fff,#ccc);color:#000;border-radius:50%}table.grid td.last{outline:2px solid #d00}\
.views{display:flex;gap:1em;flex-wrap:wrap}.views>div{flex:1 1 0;min-width:14em}\
body.alone h1,body.alone .run>:not(.shown){display:none}";

/// The viewer's script: reads each game's JSON, rebuilds every step's views from the patches and
/// draws the chosen step.
pub const SCRIPT: &str = include_str!("viewer.js");

#[cfg(test)]
mod tests {
    use super::patch;
    use serde_json::json;

    #[test]
    fn patches_name_what_changed_and_what_grew() {
        let old = json!({"pot": 3, "board": ["2s"], "stacks": [9, 9], "hole": ["Qs", "8c"]});
        let new = json!({"pot": 5, "board": ["2s", "8h"], "stacks": [9, 7], "hole": ["Qs", "8c"]});
        assert_eq!(patch(&old, &new), Some(json!([2, {"pot": [0, 5], "board": [1, "8h"], "stacks": [0, [9, 7]]}])));
        assert_eq!(patch(&old, &old), None);
        assert_eq!(patch(&json!(null), &json!(1)), Some(json!([0, 1])));
    }

    #[test]
    fn patches_insert_into_and_remove_from_sorted_lists_and_follow_changing_fields() {
        let hand = json!(["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "E", "E", "S", "S"]);
        let drew = json!(["1m", "2m", "3m", "4s", "5s", "5s", "6s", "7p", "8p", "9p", "E", "E", "S", "S"]);
        assert_eq!(patch(&hand, &drew), Some(json!([5, 5, "5s"])));
        assert_eq!(patch(&drew, &hand), Some(json!([6, 5])));
        // A phase changes the fields: those that stay are patched, not the whole view written.
        let turn = json!({"hand": hand, "phase": "turn", "drawn": "5s"});
        let claim = json!({"hand": hand, "phase": "claim", "from": 1, "tile": "N"});
        assert_eq!(
            patch(&turn, &claim),
            Some(json!([2, {"phase": [0, "claim"], "from": [0, 1], "tile": [0, "N"], "drawn": [4]}]))
        );
    }
}
