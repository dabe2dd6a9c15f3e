//! Relative paths in a config start from the folder of the file that names them, through the
//! `arena` binary: a config with a relative `command` (a program, a script argument) and a
//! relative `openings` file plays the same games from any working folder; the run folder's
//! config.toml holds them absolute, so `arena resume` (and `arena run --resume`) continue it from
//! a third folder; a roster's paths start from its folder, `bots/`; paths given as flags on the
//! command line start from the working folder.

#![cfg(target_os = "linux")]

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use crate::common::{arena, manifest, mark, statuses, survivors, write, MARK};
use tempfile::TempDir;

/// A project folder (`project/`: a config, its bots, an engine and an openings file, all named
/// relative to it) and other working folders beside it.
struct Folders {
    dir: TempDir,
    mark: String,
}

const CONFIG: &str = r#"game = "gomoku"
games = 4
paired = true
bots = [
  { name = "engine", kind = "gomocup", params = { command = ["./engines/pbrain-weights"] } },
  { name = "mine", kind = "external", params = { command = ["sh", "bots/mine.sh"] } },
  "weights",
]

[table]
openings = "openings/two.txt"
"#;

impl Folders {
    fn new(test: &str) -> Folders {
        let dir = TempDir::new().unwrap();
        let exe = env!("CARGO_BIN_EXE_arena");
        for folder in ["project/bots", "project/engines", "project/openings", "a", "b", "c"] {
            std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        }
        let project = dir.path().join("project");
        write(&project, "x.toml", CONFIG);
        write(&project, "bots/mine.sh", &format!("exec {exe:?} protocol-bot\n"));
        let engine =
            write(&project, "engines/pbrain-weights", &format!("#!/bin/sh\nexec {exe:?} brain gomoku --bot weights\n"));
        std::fs::set_permissions(&engine, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        write(&project, "openings/two.txt", "0,0, 1,0, 0,1\n0,0, -1,1\n");
        Folders { dir, mark: mark(module_path!(), test) }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `arena ARGS` from working folder `from`.
    fn arena(&self, from: &str, args: &[&str]) -> Output {
        arena().args(args).current_dir(self.path(from)).env(MARK, &self.mark).output().unwrap()
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.path(file)).unwrap()
    }
}

/// Asserts that `output` is a success, and that every game of run folder `out` went well.
fn played(folders: &Folders, output: &Output, out: &str, bots: &[&str]) {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let games = folders.read(&format!("{out}/games.csv"));
    for bot in bots {
        let rows = statuses(&games, bot);
        assert!(!rows.is_empty() && rows.iter().all(|s| s == "ok"), "{out}: {bot}: {rows:?}");
    }
}

/// The string values of `key` anywhere in the TOML `text` (a bot's command, the openings).
fn values<'t>(text: &'t str, key: &str) -> Vec<&'t str> {
    text.lines().filter(|l| l.trim_start().starts_with(&format!("{key} ="))).collect()
}

#[test]
fn a_config_plays_the_same_from_any_working_folder_and_resumes_from_a_third() {
    let folders = Folders::new("anywhere");
    let project = folders.path("project").canonicalize().unwrap();
    // From the config's own folder, and from another.
    let here = folders.arena("project", &["run", "x.toml", "--quiet", "--out", "../here"]);
    played(&folders, &here, "here", &["engine", "mine", "weights"]);
    let there = folders.arena("a", &["run", "../project/x.toml", "--quiet", "--out", "../there"]);
    played(&folders, &there, "there", &["engine", "mine", "weights"]);
    assert!(folders.read("here/games.csv") == folders.read("there/games.csv"), "other games from another folder");
    // Every path in the run folder's config is absolute, into the project.
    let config = folders.read("there/config.toml");
    let script = project.join("bots/mine.sh").display().to_string();
    let engine = project.join("engines/pbrain-weights").display().to_string();
    let openings = project.join("openings/two.txt").display().to_string();
    assert_eq!(values(&config, "openings"), [format!("openings = {openings:?}")], "{config}");
    assert!(config.contains(&format!("command = [{engine:?}]")), "{config}");
    assert!(config.contains(&format!("command = [\"sh\", {script:?}]")), "{config}");
    assert_eq!(folders.read("here/config.toml"), config, "the resolved config depends on the working folder");

    // Extended to twice the games from a third folder, the run comes out as one run of 8 games.
    let resumed = folders.arena("b", &["resume", "../there", "--games", "8", "--quiet"]);
    played(&folders, &resumed, "there", &["engine", "mine", "weights"]);
    let longer = folders.arena("project", &["run", "x.toml", "--games", "8", "--quiet", "--out", "../longer"]);
    played(&folders, &longer, "longer", &["engine", "mine", "weights"]);
    assert!(folders.read("there/games.csv") == folders.read("longer/games.csv"), "the resumed run differs");
    // `arena run --resume` from yet another folder knows the run for this config's.
    let again = folders.arena("c", &["run", "../project/x.toml", "--resume", "--quiet", "--out", "../here"]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing to resume"), "{again:?}");
    assert!(survivors(&folders.mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

/// A roster's relative paths start from its folder, `bots/` of the working folder; flags on the
/// command line start from the working folder: the same `sh bots/mine.sh` that plays from the
/// project cannot start from elsewhere (the run stops: the bot could not run).
#[test]
fn a_roster_starts_from_its_folder_and_flags_from_the_working_folder() {
    let folders = Folders::new("roster");
    let roster = "[mine-roster]\nkind = \"external\"\nparams = { command = [\"sh\", \"mine.sh\"] }\n";
    write(&folders.path("project/bots"), "gomoku.toml", roster);
    let game = ["run", "--game", "gomoku", "--games", "2", "--quiet"];
    let from_roster = folders
        .arena("project", &[&game[..], &["--bot", "mine-roster", "--bot", "weights", "--out", "../roster"]].concat());
    played(&folders, &from_roster, "roster", &["mine-roster"]);
    let script = folders.path("project/bots/mine.sh").canonicalize().unwrap().display().to_string();
    assert!(folders.read("roster/config.toml").contains(&format!("command = [\"sh\", {script:?}]")));
    // Its config.toml resumes from elsewhere.
    let resumed = folders.arena("a", &["resume", "../roster", "--games", "4", "--quiet"]);
    played(&folders, &resumed, "roster", &["mine-roster"]);
    assert_eq!(statuses(&folders.read("roster/games.csv"), "mine-roster").len(), 4);

    let flag = "mine=external:sh bots/mine.sh";
    let from_project =
        folders.arena("project", &[&game[..], &["--bot", flag, "--bot", "weights", "--out", "../flags"]].concat());
    played(&folders, &from_project, "flags", &["mine"]);
    assert!(folders.read("flags/config.toml").contains(&format!("command = [\"sh\", {script:?}]")));
    let from_elsewhere =
        folders.arena("a", &[&game[..], &["--bot", flag, "--bot", "weights", "--out", "../lost"]].concat());
    assert_eq!(from_elsewhere.status.code(), Some(5), "{}", String::from_utf8_lossy(&from_elsewhere.stderr));
    let stderr = String::from_utf8_lossy(&from_elsewhere.stderr);
    assert!(stderr.starts_with("error: bot mine could not run: exited with code "), "{stderr}");
    assert!(stderr.lines().next().unwrap().contains(" before answering hello"), "{stderr}");
    assert!(stderr.contains("bots/mine.sh"), "its log says what sh could not open: {stderr}");
    assert_eq!(manifest(&folders.path("lost"))["status"], "failed");
    assert!(survivors(&folders.mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}
