//! The README and the user's guide (docs/book/, an mdBook) hold together: the README stays short,
//! every chapter file is in SUMMARY.md and every entry of it is a file, every link between
//! chapters (and from the README into the book) leads to a file and, with `#anchor`, to a heading
//! of it, every `{{#include}}` finds its file and anchor. `mdbook build` (scripts/book.sh) builds
//! the pages; this checks what it would not refuse.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::files_under;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn book() -> PathBuf {
    repo().join("docs/book/src")
}

/// The id mdBook gives a heading: lower case, spaces to `-`, other punctuation dropped.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a Markdown text outside its fenced code blocks (and not the fences).
fn outside_fences(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The anchors of a Markdown file's headings (outside fenced code).
fn anchors(text: &str) -> BTreeSet<String> {
    outside_fences(text).filter(|l| l.starts_with('#')).map(|l| anchor_of(l.trim_start_matches('#'))).collect()
}

/// The targets of the Markdown links `[text](target)` in `text`, outside fenced code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in outside_fences(text) {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// Every problem with the links of `file` (its text `text`): a target that is not there, an
/// anchor that is no heading of its file.
fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for target in links(text) {
        if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() { file.to_path_buf() } else { file.parent().unwrap().join(path) };
        if !resolved.exists() {
            broken.push(format!("{}: `{target}` leads nowhere", file.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            let there = std::fs::read_to_string(&resolved).unwrap();
            if !anchors(&there).contains(anchor) {
                broken.push(format!(
                    "{}: `{target}`: no heading `#{anchor}` in {}",
                    file.display(),
                    resolved.display()
                ));
            }
        }
    }
    broken
}

#[test]
fn the_readme_is_short_and_links_into_the_book() {
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 300, "the README has {lines} lines; at most 300 (the rest belongs in the book)");
    let broken = broken_links(&repo().join("README.md"), &text);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(links(&text).iter().any(|l| l.ends_with("SUMMARY.md")), "the README names the book");
}

#[test]
fn every_chapter_is_in_the_summary_and_every_link_leads_somewhere() {
    let summary_path = book().join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let listed: BTreeSet<PathBuf> = links(&summary).iter().map(|l| book().join(l)).collect();
    let files = files_under(&book(), "md");
    let mut problems = Vec::new();
    for file in &files {
        if *file != summary_path && !listed.contains(file) {
            problems.push(format!("{} is in no entry of SUMMARY.md", file.display()));
        }
    }
    for file in &listed {
        if !file.exists() {
            problems.push(format!("SUMMARY.md lists {}, which is not there", file.display()));
        }
    }
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        problems.extend(broken_links(file, &text));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(listed.len() >= 30, "the book has {} chapters", listed.len());
}

/// `{{#include FILE}}` and `{{#include FILE:ANCHOR}}` find the file, and the anchor's
/// `ANCHOR: name` and `ANCHOR_END: name` lines in it.
#[test]
fn every_include_finds_its_file_and_anchor() {
    let files = files_under(&book(), "md");
    let mut found = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (i, _) in text.match_indices("{{#include ") {
            let rest = &text[i + "{{#include ".len()..];
            let target = &rest[..rest.find("}}").unwrap()];
            let (path, anchor) = match target.split_once(':') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target, None),
            };
            let included = std::fs::read_to_string(file.parent().unwrap().join(path))
                .unwrap_or_else(|e| panic!("{}: {{{{#include {target}}}}}: {e}", file.display()));
            if let Some(anchor) = anchor {
                let start = format!("ANCHOR: {anchor}");
                let end = format!("ANCHOR_END: {anchor}");
                assert!(
                    included.contains(&start) && included.contains(&end),
                    "{}: {path} has no anchor `{anchor}`",
                    file.display()
                );
            }
            found += 1;
        }
    }
    assert!(found >= 2, "the tour and the architecture are included, found {found} includes");
}

#[test]
fn headings_become_the_anchors_mdbook_makes() {
    assert_eq!(anchor_of(" A bot that cannot run stops the run"), "a-bot-that-cannot-run-stops-the-run");
    assert_eq!(anchor_of("report.html: the run in pictures"), "reporthtml-the-run-in-pictures");
    assert_eq!(anchor_of("No-limit hold'em (`holdem`)"), "no-limit-holdem-holdem");
    assert_eq!(links("see [a](b.md#c) and [d](e.md)\n```\n[x](y)\n```\n"), ["b.md#c", "e.md"]);
}
