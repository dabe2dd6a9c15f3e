//! Tables out, in any format: a table is a named list of rows ([`Rows`]), built from any
//! `Serialize` row struct (its field names are the columns), and an [`Exporter`] turns tables
//! into bytes. One file per format; [`ExportFormat::exporter`] is the one place that picks them,
//! so a new format is one file here and one line there.

mod csv;
mod html;
mod json;
mod jsonl;
mod junit;
mod markup;

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::stats::Unit;

/// What a row struct's column name holds where the table's payoff unit goes ([`Rows::in_unit`]).
pub const UNIT: &str = "{unit}";

pub use self::csv::Csv;
pub use self::html::{html_table, table_markup, Html};
pub use self::json::Json;
pub use self::jsonl::JsonLines;
pub use self::junit::JUnit;
pub use self::markup::{escape, Markup};

/// A derived figure that may be undefined or infinite. It serialises as the `--json` documents
/// have always written such numbers: the number, `"inf"`/`"-inf"` (JSON holds no infinity) or
/// `null` when undefined (NaN); the CSV exporter then writes a float with six decimals and `null`
/// as an empty cell, which is what summary.csv and the other CSVs have always held.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figure(pub f64);

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let x = self.0;
        if x.is_nan() {
            s.serialize_none()
        } else if x.is_infinite() {
            s.serialize_str(if x > 0.0 { "inf" } else { "-inf" })
        } else {
            s.serialize_f64(x)
        }
    }
}

/// One table: its name (a file's stem, a section's title), its columns in order and its rows,
/// each a JSON object keyed by the columns (serde_json keeps the keys in the struct's order).
#[derive(Clone, Debug, PartialEq)]
pub struct Rows {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Map<String, Value>>,
}

impl Rows {
    /// The table of `rows`. The columns are those of `T::default()` (so an empty table still has
    /// its header), then any a row adds (optional flattened groups, such as match.csv's SPRT
    /// columns), in order of first appearance.
    pub fn of<T: Serialize + Default>(name: &str, rows: &[T]) -> Rows {
        let mut columns: Vec<String> = object(&T::default()).keys().cloned().collect();
        let rows: Vec<Map<String, Value>> = rows.iter().map(object).collect();
        for row in &rows {
            for key in row.keys() {
                if !columns.contains(key) {
                    columns.push(key.clone());
                }
            }
        }
        Rows { name: name.to_string(), columns, rows }
    }

    /// The table with its payoff columns named in `unit`: a column whose row struct names it with
    /// `{unit}` (`payoff_{unit}`) gets the unit's column name (`payoff_bb_per_100`), so that no
    /// payoff figure goes out without its unit.
    pub fn in_unit(mut self, unit: Unit) -> Rows {
        let name = |column: &str| column.replace(UNIT, &unit.column());
        self.columns = self.columns.iter().map(|c| name(c)).collect();
        for row in &mut self.rows {
            *row = std::mem::take(row).into_iter().map(|(k, v)| (name(&k), v)).collect();
        }
        self
    }

    /// The rows as JSON values, for a document that embeds them.
    pub fn values(&self) -> Vec<Value> {
        self.rows.iter().cloned().map(Value::Object).collect()
    }
}

/// A row struct as a JSON object.
fn object<T: Serialize>(row: &T) -> Map<String, Value> {
    match serde_json::to_value(row) {
        Ok(Value::Object(map)) => map,
        // Row types are structs of plain fields; anything else is a programming error.
        other => panic!("a row serialises to a JSON object, not {other:?}"),
    }
}

/// A cell as text: integers and strings as they are, a float with six decimals (fixed, so stable
/// across platforms), `null` empty, a nested value as JSON.
pub fn cell(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(x) if n.is_f64() => format!("{x:.6}"),
            _ => n.to_string(),
        },
        Some(v) => v.to_string(),
    }
}

/// Turns tables into the bytes of one file.
pub trait Exporter {
    fn serialize(&self, tables: &[Rows]) -> Result<Vec<u8>>;
}

/// The formats `--export` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Json,
    JsonLines,
    Html,
    JUnit,
}

impl ExportFormat {
    /// The one place a format's name meets its exporter.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Csv => Box::new(Csv),
            ExportFormat::Json => Box::new(Json),
            ExportFormat::JsonLines => Box::new(JsonLines),
            ExportFormat::Html => Box::new(Html),
            ExportFormat::JUnit => Box::new(JUnit),
        }
    }

    const NAMES: [(&'static str, ExportFormat); 5] = [
        ("csv", ExportFormat::Csv),
        ("json", ExportFormat::Json),
        ("jsonl", ExportFormat::JsonLines),
        ("html", ExportFormat::Html),
        ("junit", ExportFormat::JUnit),
    ];
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = ExportFormat::NAMES.iter().find(|(_, k)| k == self).map_or("?", |(n, _)| n);
        f.write_str(name)
    }
}

impl FromStr for ExportFormat {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        ExportFormat::NAMES.iter().find(|(n, _)| *n == s).map(|&(_, k)| k).ok_or_else(|| {
            let names: Vec<&str> = ExportFormat::NAMES.iter().map(|(n, _)| *n).collect();
            format!("unknown format `{s}` (one of: {})", names.join(", "))
        })
    }
}

/// `--export FORMAT:FILE`: a format and the file to write.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    pub format: ExportFormat,
    pub file: std::path::PathBuf,
}

impl FromStr for Export {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let (format, file) = s.split_once(':').ok_or("expected FORMAT:FILE, e.g. jsonl:results.jsonl")?;
        if file.is_empty() {
            return Err("the file after FORMAT: is empty".into());
        }
        Ok(Export { format: format.parse()?, file: file.into() })
    }
}

impl Export {
    /// Writes `tables` in this format to the file (atomically; a file that cannot be made is bad
    /// input).
    pub fn write(&self, tables: &[Rows]) -> Result<()> {
        let bytes = self.format.exporter().serialize(tables)?;
        crate::report::write_output(&self.file, &bytes)
    }
}

/// The error of a format that cannot hold the tables it is given.
fn unfit(format: &str, why: impl fmt::Display) -> Error {
    Error::Input(format!("{format} export: {why}"))
}

/// A row with a text cell and a figure: what each exporter's tests write.
#[cfg(test)]
#[derive(Serialize, Default)]
pub(crate) struct TestRow {
    pub bot: String,
    pub score: Figure,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Default)]
    struct Row {
        bot: String,
        games: u64,
        score: Figure,
    }

    #[test]
    fn figures_serialise_as_the_json_documents_write_them() {
        let v = |x| serde_json::to_value(Figure(x)).unwrap();
        assert_eq!(v(0.25), serde_json::json!(0.25));
        assert_eq!(v(f64::INFINITY), serde_json::json!("inf"));
        assert_eq!(v(f64::NEG_INFINITY), serde_json::json!("-inf"));
        assert_eq!(v(f64::NAN), Value::Null);
    }

    #[test]
    fn an_empty_table_keeps_its_columns_and_cells_format_as_the_csvs() {
        let t = Rows::of::<Row>("summary", &[]);
        assert_eq!(t.columns, ["bot", "games", "score"]);
        let t = Rows::of("summary", &[Row { bot: "a".into(), games: 3, score: Figure(1.0) }]);
        let cells: Vec<String> = t.columns.iter().map(|c| cell(t.rows[0].get(c))).collect();
        assert_eq!(cells, ["a", "3", "1.000000"]);
        assert_eq!(cell(Some(&Value::Null)), "");
    }

    #[test]
    fn export_arguments_name_a_format_and_a_file() {
        let e: Export = "jsonl:out/r.jsonl".parse().unwrap();
        assert_eq!((e.format, e.file.to_str().unwrap()), (ExportFormat::JsonLines, "out/r.jsonl"));
        assert!("xml:f".parse::<Export>().is_err());
        assert!("csv".parse::<Export>().is_err());
        assert!("csv:".parse::<Export>().is_err());
        for (name, format) in ExportFormat::NAMES {
            assert_eq!(format.to_string(), name);
        }
    }
}
