//! Helpers shared by the end-to-end tests.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

/// The `arena` binary built for this test run.
pub fn arena() -> Command {
    Command::cargo_bin("arena").unwrap()
}

/// The binary of example `name` beside this test's: target/<profile>/deps/suite-<hash> →
/// target/<profile>/examples/<name>. Refused when it is missing or older than its source, so
/// that a test never judges a stale build.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(Path::parent).expect("the test runs from target/<profile>/deps");
    let bin = profile.join("examples").join(name);
    let build = format!(
        "`cargo test` builds it, `cargo test --test suite MODULE::` does not: run \
         `cargo build --release --example {name}` (without --release for a debug test) first"
    );
    let built = std::fs::metadata(&bin)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("the example's binary {}: {e}; {build}", bin.display()));
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(format!("{name}.rs"));
    let written = std::fs::metadata(&source).and_then(|m| m.modified()).unwrap();
    assert!(built >= written, "{} is older than {}: {build}", bin.display(), source.display());
    bin
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The run folder's manifest, `run.json`.
pub fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// The `status` column of every row of `bot` in a games.csv.
pub fn statuses(games_csv: &str, bot: &str) -> Vec<String> {
    let mut reader = csv::Reader::from_reader(games_csv.as_bytes());
    reader.records().map(|r| r.unwrap()).filter(|r| &r[4] == bot).map(|r| r[8].to_string()).collect()
}

/// The environment variable that marks the processes of one test's runs: every bot inherits it.
pub const MARK: &str = "ARENA_TEST_MARK";

/// A mark for `test` in `module` (`module_path!()`), unique to it in the whole test binary and
/// among test binaries running at once (it holds the process id): the tests of every module run
/// in one process, in parallel, and each counts only the processes that carry its own mark.
pub fn mark(module: &str, test: &str) -> String {
    format!("{module}::{test}-{}", std::process::id())
}

/// Live processes whose environment holds `entry` (`MARK=mark`). Zombies do not count: they
/// hold nothing.
#[cfg(target_os = "linux")]
pub fn marked(entry: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for proc_entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = proc_entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(environ) = std::fs::read(proc_entry.path().join("environ")) else { continue };
        let zombie = std::fs::read_to_string(proc_entry.path().join("stat"))
            .map(|stat| stat.rsplit_once(") ").is_none_or(|(_, rest)| rest.starts_with('Z')))
            .unwrap_or(true);
        if !zombie && environ.split(|&b| b == 0).any(|e| e == entry.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

/// Processes carrying `mark` still alive after giving them `grace` to go.
#[cfg(target_os = "linux")]
pub fn survivors(mark: &str, grace: std::time::Duration) -> Vec<u32> {
    let until = std::time::Instant::now() + grace;
    loop {
        let alive = marked(&format!("{MARK}={mark}"));
        if alive.is_empty() || std::time::Instant::now() > until {
            return alive;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A small gomoku match (paired, 9x9, random-adjacent against random) for the gate's tests.
pub const GATE_MATCH: &str = r#"
game = "gomoku"
games = 10
bots = ["random-adjacent", "random"]
paired = true
[table]
size = 9
"#;

/// A file's text, decompressed when it is gzip's.
pub fn gunzipped(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    if !path.to_string_lossy().ends_with(".gz") {
        return bytes;
    }
    let mut text = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).unwrap();
    text
}

/// `path` in the project (the folder Cargo.toml is in).
pub fn project(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Whether python3 runs; if not, says which test skips and why (`needed`: what needs it).
pub fn python(needed: &str) -> bool {
    let there = interpreter().is_some();
    if !there {
        eprintln!("skipped: python3 is not installed ({needed} is Python)");
    }
    there
}

/// The Python interpreter itself (`sys.executable` of the `python3` on the path), asked once.
/// The `python3` on a path may be a script: pyenv's shim runs bash and pyenv before Python, some
/// 0.2 s of every start, which the host cannot tell from the bot's own work. A bot started every
/// turn (Botzone's way) paid it some 150 times a game: most of the suite's time (issue 47).
pub fn interpreter() -> Option<&'static str> {
    static FOUND: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let out = Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).output().ok()?;
            let path = String::from_utf8(out.stdout).ok()?.trim().to_string();
            (out.status.success() && !path.is_empty()).then_some(path)
        })
        .as_deref()
}

/// The command that starts one of the project's Python bots (`script`, from the project's
/// folder) as fast as Python starts: the interpreter itself ([`interpreter`]) with `-S`, which
/// leaves out the site's packages and their `.pth` imports (0.08 s here; the bots use only the
/// standard library). Only for tests that can run (after [`python`]).
pub fn python_bot(script: &str) -> Vec<String> {
    let python = interpreter().expect("python3 runs (checked with `python` first)");
    vec![python.to_string(), "-S".to_string(), project(script).display().to_string()]
}

/// Runs `config` (written to `dir/<out>.toml`) into `dir/out` on `threads`, from the project's
/// folder, its processes marked `mark`; returns (games.csv, stdout).
pub fn run_in(dir: &Path, mark: &str, config: &str, out: &str, threads: usize) -> (String, String) {
    let path = write(dir, &format!("{out}.toml"), config);
    let output = arena()
        .args(["run", "--threads", &threads.to_string(), "--out"])
        .arg(dir.join(out))
        .arg(&path)
        .current_dir(project(""))
        .env(MARK, mark)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    (std::fs::read_to_string(dir.join(out).join("games.csv")).unwrap(), String::from_utf8(output.stdout).unwrap())
}

/// Every file under `dir` (its subfolders too) whose name ends in `.ext`, sorted.
pub fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, ext, &mut out);
    out.sort();
    out
}
