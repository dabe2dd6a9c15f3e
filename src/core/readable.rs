//! A game's view on the wire written for a person (`arena play`): one line per field, lists as
//! words, per-seat lists split by `|`, lists of events one per line. Nothing is added or left
//! out, so a person at the terminal sees what a bot outside the process sees.

use serde_json::Value;

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
