//! Text for a person at the terminal (`arena play`, `arena replay --game`): the [`Screen`] a view
//! is drawn for (who sits where, how wide the terminal is), lines laid out to its width without
//! breaking a word ([`wrap`]), and the view on the wire written one field a line ([`fields`]: what
//! a game without a table of its own shows; nothing is added or left out, so a person sees what a
//! bot outside the process sees).

use serde_json::Value;

use crate::core::Seat;

/// The width a text laid out for no terminal in particular takes (a replay's, a pipe's).
pub const WIDTH: usize = 80;

/// What a view drawn for a person is laid out with: the players' names by seat (none: seats are
/// named by number) and the terminal's width in columns.
#[derive(Clone, Copy, Debug)]
pub struct Screen<'a> {
    /// Every seat's player name, by seat.
    pub names: &'a [String],
    /// The width to wrap to, in characters.
    pub width: usize,
}

impl Screen<'_> {
    /// Seats named by number, [`WIDTH`] columns.
    pub const PLAIN: Screen<'static> = Screen { names: &[], width: WIDTH };

    /// The player in `seat` as a sentence names it: `rr (seat 1)`, or `seat 1`.
    pub fn who(&self, seat: Seat) -> String {
        match self.names.get(seat) {
            Some(name) => format!("{name} (seat {seat})"),
            None => format!("seat {seat}"),
        }
    }

    /// A table row's name for `seat` (beside its number) seen from `viewer`: the player's name,
    /// the viewer's marked `(you)` unless its name already says so (`arena play` names the person
    /// `you`); without names, `you` for the viewer and nothing for the others.
    pub fn label(&self, seat: Seat, viewer: Seat) -> String {
        match (self.names.get(seat), seat == viewer) {
            (Some(name), true) if name != "you" => format!("{name} (you)"),
            (Some(name), _) => name.clone(),
            (None, true) => "you".to_string(),
            (None, false) => String::new(),
        }
    }
}

/// `items` after `lead`, separated by `sep`, in lines of at most `width` columns: an item that
/// does not fit goes whole to the next line, indented by `indent` spaces (an item longer than a
/// line stands alone on its line). An item's leading spaces (a wider gap before it: a new suit of
/// tiles) are dropped when it starts a line. Ends with a newline.
pub fn wrap<S: AsRef<str>>(
    lead: &str,
    items: impl IntoIterator<Item = S>,
    sep: &str,
    indent: usize,
    width: usize,
) -> String {
    let columns = |s: &str| s.chars().count();
    let mut out = String::from(lead);
    let mut line = columns(lead);
    let mut first = true;
    for item in items {
        let mut item = item.as_ref();
        let gap = if first { 0 } else { columns(sep) };
        if !first && line + gap + columns(item) > width {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', indent));
            line = indent;
            item = item.trim_start();
        } else if !first {
            out.push_str(sep);
            line += gap;
        }
        out.push_str(item);
        line += columns(item);
        first = false;
    }
    out.push('\n');
    out
}

/// Rows of cells in aligned columns, two spaces apart, indented by two (a table's seats, a
/// showdown's hands); a column empty in every row takes no room.
pub fn columns<const N: usize>(rows: &[[String; N]]) -> String {
    let widths: Vec<usize> = (0..N).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    let mut text = String::new();
    for row in rows {
        let mut line = String::from(" ");
        for (cell, &width) in row.iter().zip(&widths).filter(|&(_, &width)| width > 0) {
            line.push(' ');
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', width - cell.chars().count() + 1));
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// A count and its unit: `1 chip`, `2 chips`.
pub fn count(n: impl Into<i64>, unit: &str) -> String {
    match n.into() {
        1 => format!("1 {unit}"),
        n => format!("{n} {unit}s"),
    }
}

/// An amount with its sign and unit, the unit singular for one (`+390 chips`, `-1 chip`,
/// `+1 big blind`): `units` is the unit's plural, ending in `s`.
pub fn signed_units(amount: f64, units: &str) -> String {
    match amount.abs() == 1.0 {
        true => format!("{} {}", signed(amount), units.strip_suffix('s').unwrap_or(units)),
        false => format!("{} {units}", signed(amount)),
    }
}

/// Chips or points with their sign: `+390`, `-1.5`, `0`.
pub fn signed(amount: f64) -> String {
    match amount == 0.0 {
        true => "0".to_string(),
        false => format!("{amount:+}"),
    }
}

/// The fields of a JSON object, one `name: value` line each (a list of objects, such as a hand's
/// history, one line per item below its name).
pub fn fields(json: &Value) -> String {
    let Value::Object(map) = json else { return format!("{}\n", inline(json)) };
    let mut out = String::new();
    for (name, value) in map {
        match value {
            Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object) => {
                out.push_str(&format!("{name}:\n"));
                for item in items {
                    out.push_str(&format!("  {}\n", inline(item)));
                }
            }
            _ => out.push_str(&format!("{name}: {}\n", inline(value))),
        }
    }
    out
}

/// One value on one line: `-` for nothing, `yes`/`no`, a list's items by spaces, a list of lists
/// (one per seat) split by ` | `, an object as `name=value` pairs.
fn inline(value: &Value) -> String {
    match value {
        Value::Null => "-".to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "-".to_string(),
        Value::Array(items) => {
            let nested = items.iter().any(Value::is_array);
            let words: Vec<String> = items.iter().map(inline).collect();
            words.join(if nested { " | " } else { " " })
        }
        Value::Object(map) => map.iter().map(|(k, v)| format!("{k}={}", inline(v))).collect::<Vec<_>>().join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_keep_to_the_width_and_never_break_an_item() {
        let items = ["1) discard 4m", "2) discard 4s", "3) concealed kong 5m", "4) pass"];
        let text = wrap("legal: ", items, "  ", 7, 30);
        assert_eq!(text, "legal: 1) discard 4m\n       2) discard 4s\n       3) concealed kong 5m\n       4) pass\n");
        assert!(text.lines().all(|line| line.chars().count() <= 30), "{text}");
        assert_eq!(wrap("", ["a", "b", "c"], " ", 0, 80), "a b c\n");
        // An item longer than the line stands alone rather than being cut.
        assert_eq!(wrap("x: ", ["abcdefghij", "k"], " ", 3, 8), "x: abcdefghij\n   k\n");
        assert_eq!(wrap("empty: ", Vec::<String>::new(), " ", 0, 80), "empty: \n");
        // A wider gap before an item is kept inside a line and dropped at a line's start.
        assert_eq!(wrap("", ["1m", "2m", " E", " C"], " ", 0, 8), "1m 2m  E\nC\n");
    }

    #[test]
    fn a_screen_names_seats_by_name_or_number() {
        let names = ["you".to_string(), "rr".to_string()];
        let screen = Screen { names: &names, width: 80 };
        assert_eq!(
            (screen.who(1), screen.label(0, 0), screen.label(1, 0)),
            ("rr (seat 1)".into(), "you".into(), "rr".into())
        );
        let plain = (Screen::PLAIN.who(1), Screen::PLAIN.label(1, 1), Screen::PLAIN.label(0, 1));
        assert_eq!(plain, ("seat 1".into(), "you".into(), String::new()));
        let me = ["me".to_string(), "rr".to_string()];
        assert_eq!(Screen { names: &me, width: 80 }.label(0, 0), "me (you)");
        assert_eq!((signed(390.0), signed(-1.5), signed(0.0)), ("+390".into(), "-1.5".into(), "0".into()));
        assert_eq!(
            (count(1u32, "chip"), count(0u32, "chip"), count(99i64, "chip")),
            ("1 chip".into(), "0 chips".into(), "99 chips".into())
        );
    }

    #[test]
    fn columns_line_up_and_empty_ones_take_no_room() {
        let rows = [
            ["seat 0".to_string(), "you".to_string(), String::new(), "Qh Kd".to_string()],
            ["seat 1".to_string(), "always-call".to_string(), String::new(), "?? ??".to_string()],
        ];
        assert_eq!(columns(&rows), "  seat 0  you          Qh Kd\n  seat 1  always-call  ?? ??\n");
    }

    #[test]
    fn every_kind_of_field_reads_on_its_own_line() {
        let view = serde_json::json!({
            "seat": 1,
            "hole": ["6s", "2d"],
            "up": [["6s", "9h"], [], ["2d"]],
            "in": [true, false],
            "raise": {"min": 100, "max": 9900},
            "winner": null,
            "history": [{"seat": 0, "action": "call"}, {"street": 1}],
            "empty": [],
        });
        assert_eq!(
            fields(&view),
            "seat: 1\nhole: 6s 2d\nup: 6s 9h | - | 2d\nin: yes no\nraise: min=100 max=9900\nwinner: -\n\
             history:\n  seat=0 action=call\n  street=1\nempty: -\n"
        );
    }
}
