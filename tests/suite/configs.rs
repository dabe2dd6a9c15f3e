//! Every config, gate config and roster shipped in the repository resolves: games, bots,
//! parameters and table options all exist and are valid.

use std::path::Path;

use bot_arena::config::{Overrides, RunConfig, Source};
use bot_arena::Arena;

fn tomls(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_shipped_config_resolves() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut loaded = 0;
    for dir in ["configs", "configs/gate", "configs/luck"] {
        for path in tomls(&repo.join(dir)) {
            // Gate files (`*-gate.toml`) are checked below, as gates.
            if path.file_name().unwrap().to_str().unwrap().ends_with("-gate.toml") {
                continue;
            }
            let cfg =
                RunConfig::load(&Arena::standard(), &path, &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
            assert!(!cfg.bots.is_empty());
            // The resolved config (config.toml of a run) reads back as the same config: bots
            // listed again, copies, schedule and anchor included.
            let text = cfg.to_toml();
            let again =
                RunConfig::parse(&Arena::standard(), &Source::file("resolved", &text), "x", &Overrides::default())
                    .unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()));
            assert_eq!(again, cfg, "{}", path.display());
            loaded += 1;
        }
    }
    assert!(loaded >= 15, "only {loaded} configs found");
}

/// Every shipped gate file loads and each of its matches resolves (`arena gate --check` plays
/// nothing).
#[test]
fn every_shipped_gate_checks() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gates: Vec<_> = tomls(&repo.join("configs"))
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_str().unwrap().ends_with("-gate.toml"))
        .collect();
    assert!(gates.len() >= 2, "the CI gate and the tour's: {gates:?}");
    for gate in gates {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["gate", "--check", "--quiet"])
            .arg(&gate)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {}", gate.display(), String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn every_roster_entry_resolves() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for path in tomls(&repo.join("bots")) {
        let game = path.file_stem().unwrap().to_str().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let roster: toml::Table = toml::from_str(&text).unwrap();
        // Each entry, used by name in a config, resolves with its parameters checked.
        for name in roster.keys() {
            let config = format!("game = \"{game}\"\ngames = 1\nbots = [\"{name}\"]\n");
            let file = std::env::temp_dir().join(format!("bot-arena-roster-{game}-{name}.toml"));
            std::fs::write(&file, config).unwrap();
            let cfg = RunConfig::load(&Arena::standard(), &file, &Overrides::default())
                .unwrap_or_else(|e| panic!("{game}/{name}: {e}"));
            assert_eq!(cfg.bots[0].name, *name);
            std::fs::remove_file(&file).unwrap();
        }
    }
}
