//! `arena run --report` and `arena resume --report` write report.html while the run plays: a page
//! that says how far the run has got and reloads itself, rewritten as play goes on, replaced at
//! the end by the final page, the same bytes as `arena report` writes afterwards. The pages caught
//! mid-run are read in headless Chromium when it is installed (`scripts/chromium-check.sh`), else
//! from the file.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::arena;
use crate::report::{chromium, dump_dom};

/// The games played that a live page says, from its text (`<span id="played">N</span>`).
fn played(page: &str) -> Option<u64> {
    let at = page.find("id=\"played\">")? + "id=\"played\">".len();
    page[at..].split('<').next()?.parse().ok()
}

/// The games played that a live page's run table says, from its status row (`running (N of M
/// games played)`).
fn status_played(page: &str) -> Option<u64> {
    let at = page.find("<th class=\"l\">status</th><td class=\"l\">running (")?;
    let rest = &page[at..];
    rest[rest.find('(')? + 1..].split(' ').next()?.parse().ok()
}

/// `dir`'s report.html equals the page `arena report` writes from the folder afterwards.
fn final_page_is_arena_reports(dir: &Path) {
    let page = std::fs::read(dir.join("report.html")).unwrap();
    let again = dir.join("again.html");
    let out = arena().arg("report").arg(dir).arg("--out").arg(&again).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(page == std::fs::read(&again).unwrap(), "the final page is not arena report's");
    let text = String::from_utf8(page).unwrap();
    assert!(!text.contains("http-equiv=\"refresh\"") && played(&text).is_none(), "the final page still reloads");
}

#[test]
fn a_report_written_while_the_run_plays_grows_and_ends_as_arena_reports() {
    let tmp = tempfile::TempDir::new().unwrap();
    let dir = tmp.path().join("run");
    // Long enough for several pages (the duplicate SPRT decides after 4,468 hands, about a second
    // on one thread: a page every 50 ms; with aivat's fitted weights it decides after 2,202 or
    // fewer, too short on a busy machine); an SPRT, so the page has its path.
    let mut child = arena()
        .args(["run", "configs/holdem-rr-tight-sprt.toml", "--threads", "1", "--quiet", "--report"])
        .args(["--report-every", "0.05", "--flush-every", "0.05", "--out"])
        .arg(&dir)
        .spawn()
        .unwrap();
    let page = dir.join("report.html");
    let mut caught: Vec<(u64, String)> = Vec::new();
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(began.elapsed() < Duration::from_secs(300), "the run did not end");
        if let Ok(text) = std::fs::read_to_string(&page) {
            if let Some(n) = played(&text) {
                if caught.last().is_none_or(|(m, _)| n > *m) {
                    assert!(text.contains("http-equiv=\"refresh\""), "a live page that does not reload");
                    // The run table counts what the banner counts (run.json says 0 until the end).
                    assert_eq!(status_played(&text), Some(n), "the run table and the banner disagree");
                    caught.push((n, text));
                }
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(child.wait().unwrap().success());
    assert!(
        caught.len() >= 3,
        "only {} live pages caught: {:?}",
        caught.len(),
        caught.iter().map(|c| c.0).collect::<Vec<_>>()
    );
    // Three moments: the first page caught, one in the middle, the last.
    let moments = [&caught[0], &caught[caught.len() / 2], &caught[caught.len() - 1]];
    let counts: Vec<u64> = match chromium() {
        Some(chromium) => moments
            .iter()
            .enumerate()
            .map(|(i, (_, text))| {
                let copy = tmp.path().join(format!("moment-{i}.html"));
                std::fs::write(&copy, text).unwrap();
                let url = format!("file://{}", copy.display());
                let dom = dump_dom(&chromium, &tmp.path().join(format!("profile-{i}")), &[], &url);
                let dom = String::from_utf8_lossy(&dom.stdout);
                assert!(dom.contains("SPRT log-likelihood ratio"), "moment {i}: no LLR path");
                played(&dom).expect("the rendered page says how many games")
            })
            .collect(),
        None => {
            eprintln!("Chromium not found: the live pages are read from the file (scripts/chromium-check.sh)");
            moments.iter().map(|(n, _)| *n).collect()
        }
    };
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "the game counts do not grow: {counts:?}");
    final_page_is_arena_reports(&dir);
}

#[test]
fn resume_with_report_ends_with_arena_reports_page() {
    let tmp = tempfile::TempDir::new().unwrap();
    let dir = tmp.path().join("run");
    let first = arena()
        .args([
            "run",
            "--game",
            "stud",
            "--bot",
            "expert",
            "--bot",
            "always-call",
            "--games",
            "200",
            "--quiet",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(!dir.join("report.html").exists());
    let resumed = arena().arg("resume").arg(&dir).args(["--games", "400", "--quiet", "--report"]).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    final_page_is_arena_reports(&dir);
    // --report-every without --report is a usage error: one line, exit 2.
    let out = arena().arg("resume").arg(&dir).args(["--report-every", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}
