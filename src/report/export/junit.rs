//! JUnit XML: the gate's verdicts for CI. Each table is a test suite (its name the gate file)
//! and each row a test case; the rows are the gate's results, with the columns `name`, `pass`,
//! `seconds`, `line` (the terminal's line, every case's output and a failure's message) and
//! `checks` (each criterion's `pass`, `criterion` and `text`, a failure's body), and `verdict` (the
//! verdict sentence on the run's two bots, added to the output when not empty). Tables of other
//! rows are refused rather than written as empty cases.

use serde_json::{Map, Value};

use super::markup::{escape, Markup};
use super::{unfit, Exporter, Rows};
use crate::error::Result;

pub struct JUnit;

const NEEDS: [&str; 5] = ["name", "pass", "seconds", "line", "checks"];

impl Exporter for JUnit {
    fn serialize(&self, tables: &[Rows]) -> Result<Vec<u8>> {
        for t in tables {
            if let Some(missing) = NEEDS.iter().find(|c| !t.columns.iter().any(|have| have == *c)) {
                return Err(unfit("junit", format!("table `{}` is not gate results (no `{missing}` column)", t.name)));
            }
        }
        let cases = |t: &Rows| t.rows.len();
        let fails = |t: &Rows| t.rows.iter().filter(|r| !passed(r)).count();
        let secs = |t: &Rows| t.rows.iter().map(seconds).sum::<f64>();
        let (tests, failures) = (tables.iter().map(cases).sum::<usize>(), tables.iter().map(fails).sum::<usize>());
        let total: f64 = tables.iter().map(secs).sum();
        let xml_ = |text: &str| escape(text, Markup::Xml);
        let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.push_str(&format!(
            "<testsuites name=\"arena gate\" tests=\"{tests}\" failures=\"{failures}\" time=\"{total:.3}\">\n"
        ));
        for t in tables {
            let suite = xml_(&t.name);
            xml.push_str(&format!(
                "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3}\">\n",
                cases(t),
                fails(t),
                secs(t)
            ));
            for row in &t.rows {
                let line = text(row, "line");
                xml.push_str(&format!(
                    "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\">\n",
                    xml_(text(row, "name")),
                    seconds(row)
                ));
                if !passed(row) {
                    let checks = row.get("checks").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                    let body: Vec<String> = checks
                        .iter()
                        .filter_map(Value::as_object)
                        .map(|c| {
                            let mark = if passed(c) { "pass" } else { "FAIL" };
                            format!("{mark} {}: {}", text(c, "criterion"), text(c, "text"))
                        })
                        .collect();
                    xml.push_str(&format!(
                        "      <failure message=\"{}\" type=\"expectation\">{}</failure>\n",
                        xml_(line),
                        xml_(&body.join("\n"))
                    ));
                }
                // Every case, passed or not, carries the terminal's line: what was judged and by
                // which figures (an SPRT's model and the unit of its bounds among them), and the
                // verdict in its sentence.
                let out = match text(row, "verdict") {
                    "" => line.to_string(),
                    verdict => format!("{line}\n{verdict}"),
                };
                xml.push_str(&format!("      <system-out>{}</system-out>\n    </testcase>\n", xml_(&out)));
            }
            xml.push_str("  </testsuite>\n");
        }
        xml.push_str("</testsuites>\n");
        Ok(xml.into_bytes())
    }
}

fn passed(row: &Map<String, Value>) -> bool {
    row.get("pass").and_then(Value::as_bool).unwrap_or(false)
}

fn seconds(row: &Map<String, Value>) -> f64 {
    row.get("seconds").and_then(Value::as_f64).unwrap_or(0.0)
}

fn text<'a>(row: &'a Map<String, Value>, key: &str) -> &'a str {
    row.get(key).and_then(Value::as_str).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize, Default)]
    struct Check {
        criterion: String,
        pass: bool,
        text: String,
    }

    #[derive(Serialize, Default)]
    struct Case {
        name: String,
        pass: bool,
        seconds: f64,
        line: String,
        checks: Vec<Check>,
    }

    #[test]
    fn cases_are_escaped_and_a_failure_carries_its_checks() {
        let case = Case {
            name: "a<b & 'c'\u{1}".into(),
            pass: false,
            seconds: 1.5,
            line: "FAIL x".into(),
            checks: vec![
                Check { criterion: "min_score".into(), pass: true, text: "ok".into() },
                Check { criterion: "sprt".into(), pass: false, text: "\"no\"".into() },
            ],
        };
        let xml = String::from_utf8(JUnit.serialize(&[Rows::of("gate.toml", &[case])]).unwrap()).unwrap();
        assert!(xml.contains("<testsuites name=\"arena gate\" tests=\"1\" failures=\"1\" time=\"1.500\">"));
        assert!(xml
            .contains("<testcase name=\"a&lt;b &amp; &apos;c&apos;\u{fffd}\" classname=\"gate.toml\" time=\"1.500\">"));
        assert!(xml.contains(
            "<failure message=\"FAIL x\" type=\"expectation\">pass min_score: ok&#10;FAIL sprt: &quot;no&quot;</failure>"
        ));
    }

    #[test]
    fn tables_that_are_not_gate_results_are_refused() {
        #[derive(Serialize, Default)]
        struct Row {
            bot: String,
        }
        assert!(JUnit.serialize(&[Rows::of::<Row>("summary", &[])]).is_err());
    }
}
