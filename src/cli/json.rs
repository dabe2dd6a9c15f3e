//! `--json`: the verdicts as one JSON document on stdout, for machines. The rows are those of
//! summary.csv, match.csv and ratings.csv, keyed by the same column names, with numbers at full
//! precision (the CSVs round to six decimals). A number JSON cannot hold is written the way the
//! CSVs write it: `"inf"` or `"-inf"` for an infinity, `null` for an undefined figure.

use serde_json::{json, Map, Value};

use crate::cli::out::say;
use crate::report::{BotSummary, MatchRow, RatingTable, Verdicts};
use crate::stats::MeanCi;

/// A figure: a number, `"inf"`/`"-inf"`, or `null` when undefined (NaN).
pub fn num(x: f64) -> Value {
    if x.is_nan() {
        Value::Null
    } else if x.is_infinite() {
        Value::from(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        Value::from(x)
    }
}

/// A summary.csv row.
pub fn bot(b: &BotSummary) -> Value {
    json!({
        "bot": b.bot,
        "games": b.games,
        "wins": b.wins,
        "draws": b.draws,
        "losses": b.losses,
        "forfeits": b.forfeits,
        "score": num(b.score),
        "win_rate": num(b.win_rate),
        "win_rate_lo": num(b.win_rate_lo),
        "win_rate_hi": num(b.win_rate_hi),
        "mean_payoff": num(b.payoff.mean),
        "payoff_lo": num(b.payoff.lo),
        "payoff_hi": num(b.payoff.hi),
        "ci_unit": b.ci_unit.as_str(),
    })
}

/// A match.csv row (with the SPRT's columns when the run had one).
pub fn match_row(r: &MatchRow) -> Value {
    let mut row = Map::new();
    let mut put = |key: &str, value: Value| {
        row.insert(key.to_string(), value);
    };
    put("pairing", r.pairing.into());
    put("bot_a", r.bot_a.as_str().into());
    put("bot_b", r.bot_b.as_str().into());
    put("games", r.games.into());
    put("deals", r.deals.into());
    put("wins", r.tri.wins.into());
    put("draws", r.tri.draws.into());
    put("losses", r.tri.losses.into());
    for (key, count) in ["ll", "ld", "wl_dd", "wd", "ww"].into_iter().zip(r.penta.0) {
        put(key, count.into());
    }
    let e = &r.elo;
    let figures = [
        ("score", e.score),
        ("elo", e.elo),
        ("elo_err", e.elo_err),
        ("nelo", e.nelo),
        ("nelo_err", e.nelo_err),
        ("los", e.los),
    ];
    for (key, x) in figures {
        put(key, num(x));
    }
    let means: [(&str, &MeanCi); 3] =
        [("payoff_a", &r.payoff_a), ("payoff_b", &r.payoff_b), ("mean_payoff_diff", &r.payoff_diff)];
    for (key, m) in means {
        let stem = key.strip_prefix("mean_").unwrap_or(key);
        put(key, num(m.mean));
        put(&format!("{stem}_lo"), num(m.lo));
        put(&format!("{stem}_hi"), num(m.hi));
    }
    put("variance_ratio", num(r.variance_ratio));
    if let Some(s) = &r.sprt {
        let (lower, upper) = s.sprt.bounds();
        for (key, x) in [("h0", s.sprt.h0), ("h1", s.sprt.h1), ("alpha", s.sprt.alpha), ("beta", s.sprt.beta)] {
            put(key, num(x));
        }
        put("model", s.sprt.model.to_string().into());
        put("unit", s.sprt.unit.into());
        for (key, x) in [("llr", s.llr), ("lower", lower), ("upper", upper)] {
            put(key, num(x));
        }
        put("decision", s.decision.to_string().into());
    }
    Value::Object(row)
}

/// The rating list: its anchor, the deals behind it and ratings.csv's rows.
pub fn ratings(t: &RatingTable) -> Value {
    let rows: Vec<Value> = t
        .rows
        .iter()
        .map(|r| {
            json!({
                "rank": r.rank,
                "bot": r.bot,
                "games": r.games,
                "score": num(r.score),
                "elo": num(r.elo.value),
                "elo_lo": num(r.elo.lo),
                "elo_hi": num(r.elo.hi),
                "payoff": num(r.payoff.value),
                "payoff_lo": num(r.payoff.lo),
                "payoff_hi": num(r.payoff.hi),
                "anchor": t.anchor,
            })
        })
        .collect();
    json!({ "anchor": t.anchor, "deals": t.deals, "rows": rows })
}

/// A run's verdicts: `bots`, `matches` and `ratings` (`null` with fewer than three bots).
pub fn verdicts(v: &Verdicts) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("bots".into(), v.bots.iter().map(bot).collect());
    out.insert("matches".into(), v.matches.iter().map(match_row).collect());
    out.insert("ratings".into(), v.ratings.as_ref().map_or(Value::Null, ratings));
    out
}

/// Prints `doc` on stdout, pretty, as the one thing there.
pub fn print(doc: &Value) {
    say!("{}", serde_json::to_string_pretty(doc).expect("a JSON value prints"));
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
