//! The architecture holds: layers import only downward (ARCHITECTURE.md, "Layers"). Every
//! `crate::...` and `super::...` path in `src/` (use declarations and paths in code; comments,
//! strings and `#[cfg(test)] mod tests` left out) is resolved to the module it names, and the test
//! fails, naming the file and line, when a module imports a layer above its own or a module of its
//! own layer other than itself (the games are peers: none knows another).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::files_under;

/// The layers, bottom first. A top-level module of `src/` not listed here fails the test, so a new
/// one must be placed. `games` is special: each game (a folder or file of `src/games/`) is a module
/// of its own in the games' layer.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["cards", "stats"],
    &["core"],
    &["external", "human"],
    &["games", "games::*"],
    &["registry"],
    &["config"],
    &["report"],
    &["league"],
    &["tournament"],
    &["cli"],
    // The crate's root: lib.rs re-exports, main.rs calls the command line.
    &["lib", "main"],
];

/// A module the rules are about: a top-level module of the crate, or one game (`games::holdem`,
/// a folder or file of `src/games/`); the games' own `mod.rs` is `games`.
fn unit_of(path: &[String], src: &Path) -> Option<String> {
    let top = path.first()?;
    if top == "games" {
        if let Some(game) = path.get(1) {
            let folder = src.join("games").join(game);
            if folder.is_dir() || folder.with_extension("rs").is_file() {
                return Some(format!("games::{game}"));
            }
        }
    }
    Some(top.clone())
}

fn layer_of(unit: &str) -> Option<usize> {
    let name = if unit.starts_with("games::") { "games::*" } else { unit };
    LAYERS.iter().position(|layer| layer.contains(&name))
}

/// The module path of a source file: `src/games/holdem/engine.rs` is `games::holdem::engine`,
/// `src/core/mod.rs` is `core`, `src/lib.rs` is `lib`.
fn module_of(file: &Path, src: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The source with comments, string and char literals blanked (lines kept, so line numbers hold),
/// and cut before `#[cfg(test)]` followed by a `mod` (unit tests may use any layer).
fn code_of(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if let Some(name) = test_module_at(rest) {
            // An inline `mod tests { ... }` runs to the end of the file in this code base; a
            // `mod tests;` declaration names a file that `test_only_files` leaves out.
            if declared_apart(rest) || name.is_empty() {
                i += rest.find(';').map_or(rest.len(), |e| e + 1);
                continue;
            }
            break;
        }
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            i += end;
            continue;
        }
        if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            out.extend(rest[..end].chars().filter(|&c| c == '\n'));
            i += end;
            continue;
        }
        if let Some(end) = literal_end(rest) {
            out.push_str("\"\"");
            out.extend(rest[..end].chars().filter(|&c| c == '\n'));
            i += end;
            continue;
        }
        let c = rest.chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// At `#[cfg(test)]` followed by a module (`mod x;`, `pub mod x { ... }`): the module's name.
fn test_module_at(s: &str) -> Option<&str> {
    let after = s.strip_prefix("#[cfg(test)]")?.trim_start();
    let after = after.strip_prefix("pub ").unwrap_or(after).trim_start();
    let after = after.strip_prefix("mod ")?.trim_start();
    Some(&after[..after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len())])
}

/// Whether the module at the start of `rest` is declared in a file of its own (`mod x;`, ending
/// at `;` before any `{`) rather than inline.
fn declared_apart(rest: &str) -> bool {
    rest.find(';').is_some_and(|semi| rest.find('{').is_none_or(|brace| semi < brace))
}

/// The modules declared `#[cfg(test)] mod x;` in a file of their own: test code, which may use
/// any layer (a game's measuring tests play it against the registry's bots).
fn test_only_modules(files: &[PathBuf], src: &Path) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for (at, _) in text.match_indices("#[cfg(test)]") {
            let rest = &text[at..];
            let Some(name) = test_module_at(rest) else { continue };
            if declared_apart(rest) {
                found.push([module_of(file, src), vec![name.to_string()]].concat());
            }
        }
    }
    found
}

/// The length of a string or char literal at the start of `s` (raw strings included), if one is.
fn literal_end(s: &str) -> Option<usize> {
    let raw = s.strip_prefix('r').or_else(|| s.strip_prefix("br")).filter(|r| r.starts_with('#') || r.starts_with('"'));
    if let Some(r) = raw {
        let hashes = r.chars().take_while(|&c| c == '#').count();
        if !r[hashes..].starts_with('"') {
            return None;
        }
        let close = format!("\"{}", "#".repeat(hashes));
        let start = s.len() - r.len() + hashes + 1;
        return Some(start + s[start..].find(&close)? + close.len());
    }
    let body = s.strip_prefix('"').or_else(|| s.strip_prefix("b\""))?;
    let start = s.len() - body.len();
    let mut escaped = false;
    for (k, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(start + k + 1),
            _ => {}
        }
    }
    None
}

/// Every path a file names that starts with `crate` or `super`, with its line: the paths in
/// `use` trees are expanded (`use crate::{a::b, c}` names `crate::a::b` and `crate::c`).
fn paths_in(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let line_at = |byte: usize| code[..byte].matches('\n').count() + 1;
    let mut k = 0;
    while k < chars.len() {
        let (at, _) = chars[k];
        let rest = &code[at..];
        let boundary = k == 0 || !ident(chars[k - 1].1) && chars[k - 1].1 != ':';
        let root = ["crate::", "super::"].into_iter().find(|r| rest.starts_with(r));
        match root {
            Some(_) if boundary => {
                let (paths, len) = use_tree(rest);
                for p in paths {
                    found.push((line_at(at), p));
                }
                k += rest[..len].chars().count().max(1);
            }
            _ => k += 1,
        }
    }
    found
}

/// Parses a path or use tree at the start of `s`: the full paths it names and its length.
fn use_tree(s: &str) -> (Vec<Vec<String>>, usize) {
    let mut segments = Vec::new();
    let mut i = 0;
    loop {
        let name: String = s[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            break;
        }
        i += name.len();
        segments.push(name);
        let after = &s[i..];
        if let Some(next) = after.strip_prefix("::") {
            i += 2;
            let next = next.trim_start();
            if next.starts_with('{') {
                i += after.len() - 2 - next.len() + 1;
                let mut paths = Vec::new();
                loop {
                    let inner = &s[i..];
                    let skip = inner.len() - inner.trim_start_matches([' ', '\n', '\r', '\t', ',']).len();
                    i += skip;
                    if s[i..].starts_with('}') {
                        i += 1;
                        break;
                    }
                    let (subs, len) = use_tree(&s[i..]);
                    if len == 0 {
                        i += 1;
                        continue;
                    }
                    i += len;
                    paths.extend(subs.into_iter().map(|sub| [segments.clone(), sub].concat()));
                }
                return (paths, i);
            }
            continue;
        }
        break;
    }
    let len = i;
    (if segments.is_empty() { Vec::new() } else { vec![segments] }, len)
}

/// `path` as seen from the module `from`, made absolute (without `crate`).
fn absolute(from: &[String], path: &[String]) -> Vec<String> {
    let mut base: Vec<String> = from.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &path[1..];
        }
        Some("super") => {
            // In `a/b.rs` (module a::b), `super` is `a`; in `a/b/mod.rs` (module a::b) too.
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => {}
    }
    base.extend(rest.iter().cloned());
    base
}

/// Every import that breaks the rule, as `file:line: message`.
fn violations(src: &Path) -> Vec<String> {
    let files = files_under(src, "rs");
    let tests = test_only_modules(&files, src);
    let modules: Vec<Vec<String>> = files.iter().map(|f| module_of(f, src)).collect();
    let mut file_edges: BTreeMap<(Vec<String>, Vec<String>), String> = BTreeMap::new();
    let mut broken = Vec::new();
    let mut edges: BTreeMap<(String, String), String> = BTreeMap::new();
    for file in &files {
        let module = module_of(file, src);
        if tests.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let Some(unit) = unit_of(&module, src) else { continue };
        let shown = file.strip_prefix(src.parent().unwrap()).unwrap().display().to_string();
        let Some(layer) = layer_of(&unit) else {
            broken.push(format!(
                "{shown}: module `{unit}` is in no layer (add it to LAYERS in tests/suite/architecture.rs)"
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (line, path) in paths_in(&code_of(&text)) {
            let target = absolute(&module, &path);
            let Some(to) = unit_of(&target, src) else { continue };
            if to == unit {
                // Within a game, between its files: the file the path lands in (the longest
                // module a file holds), unless one contains the other (a folder's mod.rs).
                let file_of = modules.iter().filter(|m| target.starts_with(m)).max_by_key(|m| m.len());
                if let Some(other) = file_of.filter(|m| !m.starts_with(&module) && !module.starts_with(m)) {
                    file_edges.entry((module.clone(), other.clone())).or_insert(format!("{shown}:{line}"));
                }
                continue;
            }
            let Some(to_layer) = layer_of(&to) else { continue };
            let named = format!("crate::{}", target.join("::"));
            if to_layer > layer {
                broken.push(format!(
                    "{shown}:{line}: `{unit}` (layer {layer}) imports `{named}` from `{to}`, a layer above (layer {to_layer})"
                ));
            } else if to.starts_with("games::") && layer > layer_of("registry").unwrap() {
                broken.push(format!(
                    "{shown}:{line}: `{unit}` imports `{named}` from the game `{to}`: above the registry, games are \
                     seen only through it"
                ));
            } else if to_layer == layer {
                broken.push(format!("{shown}:{line}: `{unit}` imports `{named}` from `{to}`, a peer in its own layer"));
            }
            edges.entry((unit.clone(), to.clone())).or_insert(format!("{shown}:{line}"));
        }
    }
    for ((a, b), at) in &edges {
        if a < b {
            if let Some(back) = edges.get(&(b.clone(), a.clone())) {
                broken.push(format!("`{a}` and `{b}` import each other ({at} and {back})"));
            }
        }
    }
    for ((a, b), at) in &file_edges {
        if a < b && unit_of(a, src).is_some_and(|u| u.starts_with("games::")) {
            if let Some(back) = file_edges.get(&(b.clone(), a.clone())) {
                broken.push(format!("`{}` and `{}` import each other ({at} and {back})", a.join("::"), b.join("::")));
            }
        }
    }
    broken
}

#[test]
fn layers_import_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let broken = violations(&src);
    assert!(broken.is_empty(), "{} imports break the layers:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn the_reader_finds_paths_in_use_trees_and_code() {
    let code =
        code_of("use crate::{a::{b, c::D}, e};\n// crate::x\nlet s = \"crate::y\";\nfn f() { super::z::w(); }\n");
    let paths: Vec<String> = paths_in(&code).into_iter().map(|(l, p)| format!("{l}:{}", p.join("::"))).collect();
    assert_eq!(paths, ["1:crate::a::b", "1:crate::a::c::D", "1:crate::e", "4:super::z::w"]);
    let from: Vec<String> = ["games", "holdem", "engine"].map(String::from).to_vec();
    assert_eq!(absolute(&from, &["super".into(), "super".into(), "cli".into()]), ["games", "cli"]);
}

/// ARCHITECTURE.md's map names every file of `src/` (by its file name, in its folder's entry), so
/// a new file cannot go undescribed.
#[test]
fn the_architecture_page_names_every_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let map = &page[page.find("## Files").expect("a Files section")..];
    let files = files_under(&root.join("src"), "rs");
    let missing: Vec<String> = files
        .iter()
        .filter(|f| !map.contains(f.file_name().unwrap().to_str().unwrap()))
        .map(|f| f.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md does not name: {}", missing.join(", "));
}
