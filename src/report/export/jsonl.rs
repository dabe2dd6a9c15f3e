//! JSON lines: one compact object a line, one line a row, every table's rows in turn; each
//! object starts with `"table"`, its table's name, then the row's columns (a stream a shell
//! filters with `grep` or `jq -c` without parsing a whole document).

use serde_json::{Map, Value};

use super::{Exporter, Rows};
use crate::error::Result;

pub struct JsonLines;

impl Exporter for JsonLines {
    fn serialize(&self, tables: &[Rows]) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for table in tables {
            for row in &table.rows {
                let mut line = Map::new();
                line.insert("table".into(), Value::String(table.name.clone()));
                line.extend(row.clone());
                serde_json::to_writer(&mut out, &line).expect("a JSON value prints");
                out.push(b'\n');
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::export::{Figure, TestRow as Row};

    #[test]
    fn one_object_a_line_even_when_a_cell_holds_a_line_break() {
        let rows =
            [Row { bot: "a\nb".into(), score: Figure(0.5) }, Row { bot: "c".into(), score: Figure(f64::NEG_INFINITY) }];
        let bytes = JsonLines.serialize(&[Rows::of("summary", &rows), Rows::of::<Row>("match", &[])]).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(
            text,
            "{\"table\":\"summary\",\"bot\":\"a\\nb\",\"score\":0.5}\n{\"table\":\"summary\",\"bot\":\"c\",\"score\":\"-inf\"}\n"
        );
        for line in text.lines() {
            assert!(serde_json::from_str::<Value>(line).unwrap().is_object());
        }
    }
}
