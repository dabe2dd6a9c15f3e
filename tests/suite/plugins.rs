//! Plugins: a crate that hands its own arena to `cli::main` (examples/holdem_plugin.rs). Its run
//! folder names the plugin's program beside the library (run.json's `program`), and its bots play.

use std::process::Command;

use crate::common::{arena, example, manifest};
use tempfile::TempDir;

#[test]
fn run_json_names_the_plugin_that_ran_the_arena() {
    let dir = TempDir::new().unwrap();
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/holdem_plugin.toml");
    let out = dir.path().join("plugin");
    let output = Command::new(example("holdem_plugin"))
        .args(["run", config, "--games", "4", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let run = manifest(&out);
    assert_eq!(run["program"], serde_json::json!({"name": "holdem_plugin", "version": env!("CARGO_PKG_VERSION")}));
    assert_eq!(run["tool"], "bot-arena");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("\nhigh-cards,"), "{summary}");
    // `arena` itself names no plugin.
    let out = dir.path().join("arena");
    let output = arena()
        .args(["run", "--game", "holdem", "--bot", "rr", "--bot", "always-call", "--games", "2", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(manifest(&out).get("program").is_none());
}
