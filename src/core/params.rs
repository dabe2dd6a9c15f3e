//! Named, typed, documented parameters: bot parameters and game table options use the same
//! mechanism, so `arena list` documents both and unknown keys are errors everywhere.

use toml::{Table, Value};

use crate::error::{shown, Error, Result};

/// One declared parameter. `default` is a TOML literal (`"15"`, `"0.7"`, `"[1, 2, 8]"`,
/// `"\"freestyle\""`); its type is the parameter's type. A number (or every number of an array)
/// may be given a range, a string a list of choices: [`Params::new`] checks them for every game
/// and bot alike, and `arena list` prints them. Floats are always finite.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: &'static str,
    pub help: &'static str,
    /// Inclusive bounds of a number, or of each number of an array.
    pub range: Option<(f64, f64)>,
    /// The values a string may take.
    pub choices: &'static [&'static str],
}

impl ParamSpec {
    pub const fn new(name: &'static str, default: &'static str, help: &'static str) -> ParamSpec {
        ParamSpec { name, default, help, range: None, choices: &[] }
    }

    /// The number (or each number of the array) must lie in `min..=max`.
    pub const fn range(self, min: f64, max: f64) -> ParamSpec {
        ParamSpec { range: Some((min, max)), ..self }
    }

    /// The string must be one of `choices`.
    pub const fn choices(self, choices: &'static [&'static str]) -> ParamSpec {
        ParamSpec { choices, ..self }
    }

    /// The range or choices as `arena list` shows them (`1..=8`, `0.0..=1.0`, `cash|sng`).
    pub fn bounds(&self) -> Option<String> {
        if !self.choices.is_empty() {
            return Some(self.choices.join("|"));
        }
        let (lo, hi) = self.range?;
        let integer = matches!(self.default_value(), Value::Integer(_))
            || matches!(self.default_value(), Value::Array(a) if a.first().is_some_and(Value::is_integer));
        let show = |x: f64| if integer { format!("{}", x as i64) } else { format!("{x:?}") };
        Some(format!("{}..={}", show(lo), show(hi)))
    }

    /// Why `value` (already of the right type) is out of this spec's range or choices.
    fn out_of_bounds(&self, value: &Value) -> Option<String> {
        match value {
            Value::Array(items) => items.iter().find_map(|v| self.out_of_bounds(v)),
            Value::Float(x) if !x.is_finite() => Some(format!("must be a finite number, not {x}")),
            Value::Float(_) | Value::Integer(_) => {
                let x = value.as_float().or(value.as_integer().map(|i| i as f64))?;
                let (lo, hi) = self.range?;
                // A float is echoed in its shortest form (`1e300`, not three hundred digits).
                let shown = match value {
                    Value::Float(f) => format!("{f:?}"),
                    _ => value.to_string(),
                };
                (!(lo..=hi).contains(&x))
                    .then(|| format!("must be in {}, not {shown}", self.bounds().unwrap_or_default()))
            }
            Value::String(text) if !self.choices.is_empty() && !self.choices.contains(&text.as_str()) => {
                Some(format!("must be one of {}, not {}", self.choices.join(", "), crate::error::shown(text)))
            }
            _ => None,
        }
    }

    fn default_value(&self) -> Value {
        let doc: Table = toml::from_str(&format!("v = {}", self.default))
            .unwrap_or_else(|e| panic!("bad default for parameter {}: {e}", self.name));
        doc["v"].clone()
    }
}

/// Parameter values checked against their specs, with every default filled in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    values: Table,
}

fn same_type(expected: &Value, got: &Value) -> bool {
    match (expected, got) {
        (Value::Float(_), Value::Integer(_)) => true,
        (Value::Array(e), Value::Array(g)) => match e.first() {
            Some(first) => g.iter().all(|v| same_type(first, v)),
            None => true,
        },
        _ => std::mem::discriminant(expected) == std::mem::discriminant(got),
    }
}

fn normalise(expected: &Value, got: Value) -> Value {
    match (expected, got) {
        (Value::Float(_), Value::Integer(i)) => Value::Float(i as f64),
        (Value::Array(e), Value::Array(g)) => match e.first() {
            Some(first) => Value::Array(g.into_iter().map(|v| normalise(first, v)).collect()),
            None => Value::Array(g),
        },
        (_, v) => v,
    }
}

impl Params {
    /// Checks `given` against `specs`; `owner` names what the parameters belong to, for errors.
    /// An error names the parameter at fault ([`Error::Param`]), so a config can point at its line.
    pub fn new(specs: &[ParamSpec], given: &Table, owner: &str) -> Result<Params> {
        Params::check(specs, given, owner).map_err(|mut errors| errors.swap_remove(0))
    }

    /// As [`Params::new`], with every error found (unknown keys in `given`'s order, then wrong
    /// types and values out of bounds in the specs' order; never none), each an [`Error::Param`].
    pub fn check(specs: &[ParamSpec], given: &Table, owner: &str) -> std::result::Result<Params, Vec<Error>> {
        let fault = |key: &str, message: String| Error::Param { key: key.to_string(), message };
        let mut errors = Vec::new();
        for key in given.keys() {
            if !specs.iter().any(|s| s.name == key) {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                let known = crate::core::suggest::known_names(key, &known);
                errors.push(fault(key, format!("unknown parameter {} for {owner} ({known})", shown(key))));
            }
        }
        let mut values = Table::new();
        for spec in specs {
            let default = spec.default_value();
            let value = match given.get(spec.name) {
                Some(v) if same_type(&default, v) => {
                    let v = normalise(&default, v.clone());
                    if let Some(why) = spec.out_of_bounds(&v) {
                        errors.push(fault(spec.name, format!("parameter `{}` of {owner} {why}", spec.name)));
                    }
                    v
                }
                Some(v) => {
                    errors.push(fault(
                        spec.name,
                        format!(
                            "parameter `{}` of {owner} must be {} like {}, not {}",
                            spec.name,
                            default.type_str(),
                            spec.default,
                            shown(&v.to_string())
                        ),
                    ));
                    continue;
                }
                None => default,
            };
            values.insert(spec.name.to_string(), value);
        }
        match errors.is_empty() {
            true => Ok(Params { values }),
            false => Err(errors),
        }
    }

    /// All values, defaults included (written to the resolved config).
    pub fn table(&self) -> &Table {
        &self.values
    }

    fn get(&self, name: &str) -> &Value {
        self.values.get(name).unwrap_or_else(|| panic!("parameter `{name}` read but not declared"))
    }

    pub fn f64(&self, name: &str) -> f64 {
        self.get(name).as_float().expect("declared float")
    }

    pub fn i64(&self, name: &str) -> i64 {
        self.get(name).as_integer().expect("declared integer")
    }

    pub fn bool(&self, name: &str) -> bool {
        self.get(name).as_bool().expect("declared bool")
    }

    pub fn str(&self, name: &str) -> &str {
        self.get(name).as_str().expect("declared string")
    }

    pub fn f64s(&self, name: &str) -> Vec<f64> {
        let array = self.get(name).as_array().expect("declared array");
        array.iter().map(|v| v.as_float().expect("float array")).collect()
    }

    pub fn i64s(&self, name: &str) -> Vec<i64> {
        let array = self.get(name).as_array().expect("declared array");
        array.iter().map(|v| v.as_integer().expect("integer array")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec::new("depth", "2", "search depth"),
        ParamSpec::new("w", "[1.0, 2.0]", "weights"),
        ParamSpec::new("rule", "\"freestyle\"", "rule"),
    ];

    fn table(s: &str) -> Table {
        toml::from_str(s).unwrap()
    }

    #[test]
    fn defaults_fill_in_and_integers_widen_to_floats() {
        let p = Params::new(SPECS, &table("w = [3, 4]"), "bot x").unwrap();
        assert_eq!(p.i64("depth"), 2);
        assert_eq!(p.f64s("w"), vec![3.0, 4.0]);
        assert_eq!(p.str("rule"), "freestyle");
    }

    #[test]
    fn unknown_keys_and_wrong_types_are_errors() {
        let e = Params::new(SPECS, &table("deph = 3"), "bot x").unwrap_err();
        assert!(e.to_string().contains("unknown parameter `deph` for bot x"), "{e}");
        let e = Params::new(SPECS, &table("depth = \"3\""), "bot x").unwrap_err();
        assert!(e.to_string().contains("must be integer"), "{e}");
        assert!(Params::new(SPECS, &table("w = [1, \"a\"]"), "bot x").is_err());
    }

    #[test]
    fn every_error_is_found_unknown_keys_first() {
        let errors = Params::check(SPECS, &table("rule = 3\ndeph = 3\nw = \"x\""), "bot x").unwrap_err();
        let keys: Vec<&str> = errors
            .iter()
            .map(|e| match e {
                Error::Param { key, .. } => key.as_str(),
                _ => "?",
            })
            .collect();
        assert_eq!(keys, ["deph", "w", "rule"]);
        let first = Params::new(SPECS, &table("rule = 3\ndeph = 3"), "bot x").unwrap_err().to_string();
        assert!(first.starts_with("unknown parameter `deph`"), "{first}");
    }
}
