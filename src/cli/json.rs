//! `--json`: the verdicts as one JSON document on stdout, for machines. The rows are those of
//! summary.csv, match.csv and ratings.csv, keyed by the same column names, with numbers at full
//! precision (the CSVs round to six decimals). A number JSON cannot hold is written the way the
//! CSVs write it: `"inf"` or `"-inf"` for an infinity, `null` for an undefined figure.

use serde_json::{json, Map, Value};

use crate::report::export::Figure;
use crate::report::{BotSummary, MatchRow, RatingTable, Verdicts};

/// A figure: a number, `"inf"`/`"-inf"`, or `null` when undefined (NaN): as [`Figure`] writes it.
pub fn num(x: f64) -> Value {
    serde_json::to_value(Figure(x)).expect("a figure serialises")
}

/// The rating list: its anchor, the deals behind it and ratings.csv's rows.
pub fn ratings(t: &RatingTable) -> Value {
    json!({ "anchor": t.anchor, "deals": t.deals, "rows": t.rows().values() })
}

/// A run's verdicts: `bots`, `matches` and `ratings` (`null` with fewer than three bots), the rows
/// of summary.csv, match.csv and ratings.csv.
pub fn verdicts(v: &Verdicts) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("bots".into(), BotSummary::rows(&v.bots, v.headline.unit).values().into());
    out.insert("matches".into(), MatchRow::rows(&v.matches, v.headline).values().into());
    out.insert("ratings".into(), v.ratings.as_ref().map_or(Value::Null, ratings));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_json_cannot_hold_are_written_as_the_csv_writes_them() {
        assert_eq!(num(0.25), json!(0.25));
        assert_eq!(num(f64::INFINITY), json!("inf"));
        assert_eq!(num(f64::NEG_INFINITY), json!("-inf"));
        assert_eq!(num(f64::NAN), Value::Null);
    }
}
