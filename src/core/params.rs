//! Named, typed, documented parameters: bot parameters and game table options use the same
//! mechanism, so `arena list` documents both and unknown keys are errors everywhere.
//!
//! A parameter that names files says so ([`PathUse`]): where a file names it (a config, a
//! roster), [`resolve_paths`] makes its relative paths absolute from that file's folder, so that a
//! config means the same from any working folder.

use std::path::{Component, Path, PathBuf};

use toml::{Table, Value};

use crate::error::{shown, Error, Result};

/// One declared parameter. `default` is a TOML literal (`"15"`, `"0.7"`, `"[1, 2, 8]"`,
/// `"\"freestyle\""`); its type is the parameter's type. A number (or every number of an array)
/// may be given a range, a string a list of choices: [`Params::new`] checks them for every game
/// and bot alike, and `arena list` prints them. Floats are always finite.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The key a config or `--param` uses.
    pub name: &'static str,
    /// The value when none is given, as TOML text; its type is the parameter's type.
    pub default: &'static str,
    /// One line for `arena list`: what the value does, with its unit.
    pub help: &'static str,
    /// Inclusive bounds of a number, or of each number of an array.
    pub range: Option<(f64, f64)>,
    /// The values a string may take.
    pub choices: &'static [&'static str],
    /// Whether, and how, the value names files.
    pub path: PathUse,
    /// The form a string must have (a time control's `10+0.1`): `Err` says what is wrong.
    pub form: Option<Form>,
}

/// A check of a string parameter's form: `Err` says what is wrong.
pub type Form = fn(&str) -> Result<(), String>;

/// How a parameter's value names files: [`resolve_paths`] makes the relative ones absolute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathUse {
    /// Not a path.
    None,
    /// A string naming a file or a folder (empty: none).
    File,
    /// A list of strings, a program and its arguments: the program is a path when it holds a `/`
    /// (else it is looked for on `PATH`); an argument is a path when it names a file that exists
    /// there, or holds a `/` and names a file or folder that exists there (others, `--fast`,
    /// `{game}`, a package name after `-m`, are passed as written).
    Command,
    /// A table whose values under these keys (in any case) are paths: Gomocup's `info.folder`.
    Keys(&'static [&'static str]),
}

impl ParamSpec {
    /// A parameter named `name` whose value is `default` (TOML text) unless given.
    pub const fn new(name: &'static str, default: &'static str, help: &'static str) -> ParamSpec {
        ParamSpec { name, default, help, range: None, choices: &[], path: PathUse::None, form: None }
    }

    /// The value is a file or folder ([`PathUse::File`]).
    pub const fn file(self) -> ParamSpec {
        ParamSpec { path: PathUse::File, ..self }
    }

    /// The value is a program and its arguments ([`PathUse::Command`]).
    pub const fn command(self) -> ParamSpec {
        ParamSpec { path: PathUse::Command, ..self }
    }

    /// The value is a table whose `keys` are paths ([`PathUse::Keys`]).
    pub const fn paths_in(self, keys: &'static [&'static str]) -> ParamSpec {
        ParamSpec { path: PathUse::Keys(keys), ..self }
    }

    /// The number (or each number of the array) must lie in `min..=max`.
    pub const fn range(self, min: f64, max: f64) -> ParamSpec {
        ParamSpec { range: Some((min, max)), ..self }
    }

    /// The string must be one of `choices`.
    pub const fn choices(self, choices: &'static [&'static str]) -> ParamSpec {
        ParamSpec { choices, ..self }
    }

    /// The string must pass `form` (which says what is wrong when it does not).
    pub const fn form(self, form: Form) -> ParamSpec {
        ParamSpec { form: Some(form), ..self }
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
            Value::String(text) => self.form.and_then(|form| form(text).err()),
            _ => None,
        }
    }

    fn default_value(&self) -> Value {
        let doc: Table = toml::from_str(&format!("v = {}", self.default))
            .unwrap_or_else(|e| panic!("bad default for parameter {}: {e}", self.name));
        doc["v"].clone()
    }
}

/// Makes the relative paths among `given` (values of parameters of `specs`, as written in a file
/// in folder `base`, or on the command line with the working folder as `base`) absolute, joined to
/// `base` (made absolute itself): a path means what it meant where it was written, whatever the
/// working folder when it is used, and a resolved config written into a run folder keeps that
/// meaning. Values of the wrong type are left for [`Params::new`] to refuse.
pub fn resolve_paths(specs: &[ParamSpec], given: &mut Table, base: &Path) {
    // The working folder for an empty `base` (a path with no folder: `x.toml`).
    let base = match base.as_os_str().is_empty() {
        true => std::env::current_dir().unwrap_or_default(),
        false => std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf()),
    };
    for spec in specs.iter().filter(|s| s.path != PathUse::None) {
        let Some(value) = given.get_mut(spec.name) else { continue };
        match (spec.path, value) {
            (PathUse::File, Value::String(path)) => *path = joined(&base, path),
            (PathUse::Command, Value::Array(words)) => {
                for (i, word) in words.iter_mut().enumerate() {
                    let Value::String(word) = word else { continue };
                    let there = base.join(&*word);
                    let is_path = match i {
                        0 => word.contains('/'),
                        // A folder without a `/` may be a name (`python3 -m mybot`, a package).
                        _ if word.starts_with('-') || word.is_empty() => false,
                        _ if word.contains('/') => there.exists(),
                        _ => there.is_file(),
                    };
                    if is_path {
                        *word = joined(&base, word);
                    }
                }
            }
            (PathUse::Keys(keys), Value::Table(table)) => {
                for (key, value) in table.iter_mut() {
                    if let (true, Value::String(path)) = (keys.iter().any(|k| k.eq_ignore_ascii_case(key)), value) {
                        *path = joined(&base, path);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `path` from folder `base`: itself when absolute or empty (or not UTF-8 once joined). The
/// folder it is in is written as the system finds it (`..` and links followed) when it exists;
/// the last name stays as written (a program may act on the name it is called by).
fn joined(base: &Path, path: &str) -> String {
    if path.is_empty() || Path::new(path).is_absolute() {
        return path.to_string();
    }
    // `./x` is `x` (a `.` inside a path is dropped by the components already).
    let full = base.join(Path::new(path).components().filter(|c| *c != Component::CurDir).collect::<PathBuf>());
    let found = full.parent().and_then(|dir| dir.canonicalize().ok()).zip(full.file_name());
    let full = found.map_or(full.clone(), |(dir, name)| dir.join(name));
    full.to_str().map_or_else(|| path.to_string(), str::to_string)
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

    /// The float `name` (an integer given for it reads as a float). Panics when the spec has
    /// no such float: a bug of the game, since values were checked against the spec.
    pub fn f64(&self, name: &str) -> f64 {
        self.get(name).as_float().expect("declared float")
    }

    /// The integer `name`; panics like [`Params::f64`].
    pub fn i64(&self, name: &str) -> i64 {
        self.get(name).as_integer().expect("declared integer")
    }

    /// The boolean `name`; panics like [`Params::f64`].
    pub fn bool(&self, name: &str) -> bool {
        self.get(name).as_bool().expect("declared bool")
    }

    /// The string `name`; panics like [`Params::f64`].
    pub fn str(&self, name: &str) -> &str {
        self.get(name).as_str().expect("declared string")
    }

    /// The list of floats `name`; panics like [`Params::f64`].
    pub fn f64s(&self, name: &str) -> Vec<f64> {
        let array = self.get(name).as_array().expect("declared array");
        array.iter().map(|v| v.as_float().expect("float array")).collect()
    }

    /// The list of integers `name`; panics like [`Params::f64`].
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
    fn relative_paths_start_from_the_folder_of_the_file_that_names_them() {
        const PATHS: &[ParamSpec] = &[
            ParamSpec::new("book", "\"\"", "a file").file(),
            ParamSpec::new("command", "[]", "a program").command(),
            ParamSpec::new("info", "{}", "INFO keys").paths_in(&["folder"]),
            ParamSpec::new("name", "\"\"", "not a path"),
        ];
        // The file that names them is in configs/; the openings are beside that folder.
        let dir = tempfile::TempDir::new().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let base = root.join("configs");
        std::fs::create_dir_all(base.join("pkg/sub")).unwrap();
        std::fs::create_dir_all(root.join("openings")).unwrap();
        std::fs::write(base.join("bot.py"), "").unwrap();
        let at = |p: &str| base.join(p).display().to_string();
        let mut given = table(
            r#"book = "../openings/o.txt"
            name = "bot.py"
            command = ["./engine", "bot.py", "--fast", "{game}", "pkg", "pkg/sub", "out/log.txt", "-m", "python3"]
            info = { FOLDER = "scratch", thread_num = 1, note = "bot.py" }"#,
        );
        resolve_paths(PATHS, &mut given, &base);
        // The folder is written as the system finds it: `..` followed, as it exists.
        let book = root.join("openings/o.txt").display().to_string();
        assert_eq!(given["book"].as_str(), Some(book.as_str()));
        assert_eq!(given["name"].as_str(), Some("bot.py"), "not a path parameter");
        let command: Vec<&str> = given["command"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let (engine, script, sub) = (at("engine"), at("bot.py"), at("pkg/sub"));
        // The program (a path: it holds a `/`), an existing file, an existing folder named with a
        // `/`; not an option, a placeholder, a folder that may be a package name, a file to be.
        let expected = [&engine, &script, "--fast", "{game}", "pkg", &sub, "out/log.txt", "-m", "python3"];
        assert_eq!(command, expected);
        assert_eq!(given["info"]["FOLDER"].as_str(), Some(at("scratch").as_str()));
        assert_eq!(given["info"]["note"].as_str(), Some("bot.py"), "only the keys named");
        // Absolute and empty paths stay; a program without `/` is found on PATH; wrong types are
        // left for the check.
        let mut given = table("book = \"/abs/o.txt\"\ncommand = [\"python3\", \"bot.py\"]\ninfo = 3");
        resolve_paths(PATHS, &mut given, &base);
        assert_eq!(given["book"].as_str(), Some("/abs/o.txt"));
        assert_eq!(given["command"][0].as_str(), Some("python3"));
        assert_eq!(given["command"][1].as_str(), Some(script.as_str()));
        assert_eq!(given["info"].as_integer(), Some(3));
        let mut empty = table("book = \"\"");
        resolve_paths(PATHS, &mut empty, &base);
        assert_eq!(empty["book"].as_str(), Some(""));
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
