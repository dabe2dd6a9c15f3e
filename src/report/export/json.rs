//! JSON: one pretty document, an object with each table's rows under its name, numbers at full
//! precision (figures as [`super::Figure`] writes them).

use serde_json::{Map, Value};

use super::{Exporter, Rows};
use crate::error::Result;

pub struct Json;

impl Exporter for Json {
    fn serialize(&self, tables: &[Rows]) -> Result<Vec<u8>> {
        let doc: Map<String, Value> = tables.iter().map(|t| (t.name.clone(), Value::Array(t.values()))).collect();
        let mut bytes = serde_json::to_vec_pretty(&doc).expect("a JSON value prints");
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::export::{Figure, TestRow as Row};

    #[test]
    fn tables_are_keyed_by_name_with_their_rows_in_order() {
        let rows = [Row { bot: "b".into(), score: Figure(f64::NAN) }, Row { bot: "a".into(), score: Figure(2.0) }];
        let bytes = Json.serialize(&[Rows::of("summary", &rows), Rows::of::<Row>("match", &[])]).unwrap();
        let back: Value = serde_json::from_slice(&bytes).unwrap();
        let want = serde_json::json!({
            "summary": [{ "bot": "b", "score": null }, { "bot": "a", "score": 2.0 }],
            "match": [],
        });
        assert_eq!(back, want);
        // Key order is the struct's, not the alphabet's.
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.find("\"summary\"") < text.find("\"match\""));
    }
}
