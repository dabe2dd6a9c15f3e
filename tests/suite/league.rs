//! `arena league`: runs kept in one SQLite file. A game is counted once whether its run is added
//! whole, as shards, merged, or twice; eight writers at once keep every run once; the Elo table
//! agrees with Ordo on the same games (Ordo's figures kept in tests/data/league/); a planted
//! regression between two versions of a bot is named; bad input is one line and exit 2.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{arena, write};

fn ok(out: Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status.code());
    String::from_utf8(out.stdout).unwrap()
}

/// A zhajinhua run by flags into `out` (two seats, the bots round robin).
fn run(out: &Path, bots: &[&str], games: u32, seed: u32, more: &[&str]) -> PathBuf {
    let mut cmd = arena();
    cmd.args(["run", "--game", "zhajinhua", "--seats", "2", "--threads", "2", "--games"]);
    cmd.arg(games.to_string()).args(["--seed", &seed.to_string(), "--out"]).arg(out);
    bots.iter().for_each(|b| {
        cmd.args(["--bot", b]);
    });
    ok(cmd.args(more).output().unwrap());
    out.to_path_buf()
}

fn league(args: &[&str], db: &Path, more: &[&Path]) -> Output {
    let (sub, rest) = args.split_first().unwrap();
    arena().args(["league", sub]).arg(db).args(more).args(rest).output().unwrap()
}

/// The number after `label` in the table (its Elo).
fn elo_in(table: &str, label: &str) -> f64 {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(label))
        .unwrap_or_else(|| panic!("{label} in {table}"));
    line.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn a_game_is_counted_once_whole_sharded_or_merged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bots = ["ev", "threshold"];
    let s1 = run(&d.join("s1"), &bots, 40, 3, &["--shard", "1/2"]);
    let s2 = run(&d.join("s2"), &bots, 40, 3, &["--shard", "2/2"]);
    let merged = d.join("merged");
    ok(arena().args(["merge", "--quiet", "--out"]).arg(&merged).arg(&s1).arg(&s2).output().unwrap());
    let db = d.join("league.db");

    let first = ok(league(&["add", "--label", "v1"], &db, &[&s1]));
    assert!(first.contains("added 20 zhajinhua games"), "{first}");
    let whole = ok(league(&["add", "--label", "v1"], &db, &[&merged]));
    assert!(whole.contains("added 20 zhajinhua games") && whole.contains("(20 already kept"), "{whole}");
    let again = ok(league(&["add", "--label", "v1"], &db, &[&s2, &merged]));
    assert_eq!(again.matches("already in the league (").count(), 2, "{again}");
    let table = ok(league(&["table"], &db, &[]));
    assert!(table.contains("1 runs, 40 games"), "{table}");

    // Another version label is another bot, so the same folder is another run's evidence.
    let relabelled = ok(league(&["add", "--version", "ev=v2", "--label", "v1"], &db, &[&merged]));
    assert!(relabelled.contains("added 40 zhajinhua games"), "{relabelled}");
    let table = ok(league(&["table"], &db, &[]));
    assert!(table.contains("2 bots in 3 versions, 2 runs, 80 games"), "{table}");
}

#[test]
fn eight_writers_at_once_keep_every_run_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let runs: Vec<PathBuf> =
        (0..8).map(|k| run(&d.join(format!("r{k}")), &["ev", "random"], 30, 100 + k, &[])).collect();
    let db = d.join("league.db");
    // Each run is added by two of the eight processes at once.
    let children: Vec<_> = (0..8)
        .map(|k| {
            arena()
                .args(["league", "add"])
                .arg(&db)
                .arg(&runs[k])
                .arg(&runs[(k + 1) % 8])
                .args(["--label", "v1"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let said: Vec<String> = children.into_iter().map(|c| ok(c.wait_with_output().unwrap())).collect();
    let said = said.join("");
    assert_eq!(said.matches(": added 30 zhajinhua games").count(), 8, "{said}");
    assert_eq!(said.matches("already in the league").count(), 8, "{said}");
    let table = ok(league(&["table"], &db, &[]));
    assert!(table.contains("2 bots in 2 versions, 8 runs, 240 games"), "{table}");
}

/// Ordo's ratings of tests/data/league/ordo-zhajinhua.pgn's games (how they were made is at the
/// head of its figures' file): ours lie within its 95% error of its ratings, both anchored at the
/// field's mean at 0, and the export writes the very games Ordo read.
#[test]
fn the_elo_table_agrees_with_ordo() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/league");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bots = ["ev", "threshold", "always-call", "ev-naive"];
    let folder = run(&d.join("o1"), &bots, 300, 7, &[]);
    let db = d.join("league.db");
    ok(league(&["add", "--label", "v1"], &db, &[&folder]));
    let pgn = d.join("o.pgn");
    ok(arena().args(["league", "export"]).arg(&db).arg("--pgn").arg(&pgn).output().unwrap());
    assert_eq!(
        std::fs::read_to_string(&pgn).unwrap(),
        std::fs::read_to_string(data.join("ordo-zhajinhua.pgn")).unwrap()
    );

    let table = ok(league(&["table"], &db, &[]));
    let ordo = std::fs::read_to_string(data.join("ordo-zhajinhua.txt")).unwrap();
    let mut compared = 0;
    let rated = |l: &&str| l.contains(" : ") && l.split_whitespace().next().is_some_and(|t| t.parse::<u32>().is_ok());
    for line in ordo.lines().filter(rated) {
        let (name, figures) = line.split_once(" : ").unwrap();
        let name = name.split_whitespace().nth(1).unwrap();
        let figures: Vec<f64> = figures.split_whitespace().take(2).map(|x| x.parse().unwrap()).collect();
        let ours = elo_in(&table, name);
        assert!((ours - figures[0]).abs() <= figures[1], "{name}: ours {ours}, Ordo's {} ± {}", figures[0], figures[1]);
        compared += 1;
    }
    assert_eq!(compared, 4, "{ordo}");
}

#[test]
fn a_planted_regression_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("league.db");
    let first = run(&d.join("first"), &["ev", "threshold", "always-call"], 200, 5, &[]);
    ok(league(&["add", "--label", "v1"], &db, &[&first]));
    // The same bots again, ev unchanged as v2: no regression.
    let same = run(&d.join("same"), &["ev", "threshold", "always-call"], 200, 6, &[]);
    ok(league(&["add", "--version", "ev=v2", "--label", "v1"], &db, &[&same]));
    // ev as v3 plays at random: the planted regression.
    let config = write(
        d,
        "planted.toml",
        "name = \"planted\"\ngame = \"zhajinhua\"\ngames = 200\nseed = 11\nseats = 2\nschedule = \"round-robin\"\n\n\
         [[bots]]\nname = \"ev\"\nkind = \"random\"\n\n[[bots]]\nname = \"threshold\"\nkind = \"threshold\"\n\n\
         [[bots]]\nname = \"always-call\"\nkind = \"always-call\"\n",
    );
    let planted = d.join("planted");
    ok(arena().arg("run").arg(&config).arg("--out").arg(&planted).args(["--threads", "2"]).output().unwrap());
    ok(league(&["add", "--version", "ev=v3", "--label", "v1"], &db, &[&planted]));

    for relative in [&[][..], &["--relative", "50"][..]] {
        let table = ok(league(&[&["table"][..], relative].concat(), &db, &[]));
        let said =
            |from: &str| table.lines().find(|l| l.starts_with(from)).unwrap_or_else(|| panic!("{from}: {table}"));
        assert!(said("ev@v2 against ev@v1:").ends_with("not told apart by the games so far"), "{table}");
        assert!(said("ev@v3 against ev@v2:").ends_with("weaker: a regression"), "{table}");
        // zhajinhua's verdicts lead with the payoff: the sentence is in chips/hand.
        assert!(said("ev@v3 against ev@v2:").contains(" chips/hand ["), "{table}");
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let refused = |out: Output, says: &str| {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(says), "{stderr}");
    };
    refused(league(&["table"], &d.join("none.db"), &[]), "no league at");
    let not_db = write(d, "not.db", &"not a database at all\n".repeat(200));
    refused(league(&["table"], &not_db, &[]), "not a database");
    refused(league(&["add"], &d.join("l.db"), &[d]), "no run folder at");
    let folder = run(&d.join("r"), &["ev", "random"], 10, 1, &[]);
    refused(league(&["add", "--version", "nobody=v2"], &d.join("l.db"), &[&folder]), "the run has no bot `nobody`");
    ok(league(&["add"], &d.join("l.db"), &[&folder]));
    refused(league(&["table", "--game", "gomoku"], &d.join("l.db"), &[]), "holds no gomoku games");
    refused(league(&["table", "--anchor", "nobody=0"], &d.join("l.db"), &[]), "no bot `nobody`");
    // A league written by a newer arena is refused, not misread.
    let conn = rusqlite::Connection::open(d.join("l.db")).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    refused(league(&["table"], &d.join("l.db"), &[]), "written by a newer arena");
}

/// `arena gate` with `within_best`: each expectation's run is added to the league, and the judged
/// version passes while its rating is within the gap of the league's best version's, in the
/// game's payoff unit or in Elo; a version that plays at random under ev's name fails by chips.
#[test]
fn the_gate_holds_a_version_within_reach_of_the_leagues_best() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let field = "game = \"zhajinhua\"\ngames = 100\nseed = 1\nseats = 2\nschedule = \"round-robin\"\n\n\
                 [[bots]]\nname = \"threshold\"\nkind = \"threshold\"\n\n[[bots]]\nname = \"always-call\"\nkind = \"always-call\"\n";
    write(d, "ev.toml", &format!("name = \"ev\"\n{field}\n[[bots]]\nname = \"ev\"\nkind = \"ev\"\n"));
    write(d, "random.toml", &format!("name = \"ev-random\"\n{field}\n[[bots]]\nname = \"ev\"\nkind = \"random\"\n"));
    let expect = |name: &str, config: &str, seed: u32, version: &str, within: &str| {
        format!(
            "[[expect]]\nname = \"{name}\"\nconfig = \"{config}\"\nbot = \"ev\"\ngames = 200\nseed = {seed}\n\
             league = \"league.db\"\nversion = \"{version}\"\nwithin_best = \"{within}\"\n\n"
        )
    };
    let gate = write(
        d,
        "gate.toml",
        &[
            expect("ev v1", "ev.toml", 4, "v1", "10 chips/hand"),
            expect("ev v2", "random.toml", 5, "v2", "10 chips/hand"),
            expect("ev v2 by Elo", "random.toml", 6, "v2", "200 Elo"),
        ]
        .concat(),
    );
    let out = arena().arg("gate").arg(&gate).arg("--out").arg(d.join("runs")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let line = |from: &str| stdout.lines().find(|l| l.starts_with(from)).unwrap_or_else(|| panic!("{from}: {stdout}"));
    assert!(
        line("PASS ev v1 (").contains("ev@v1 against the league's best, ev@v1, +0.0 chips/hand >= -10 chips/hand"),
        "{stdout}"
    );
    assert!(line("FAIL ev v2 (").contains("ev@v2 against the league's best, ev@v1, -"), "{stdout}");
    assert!(line("PASS ev v2 by Elo (").contains(" Elo >= -200 Elo"), "{stdout}");
    let table = ok(league(&["table"], &d.join("league.db"), &[]));
    assert!(table.contains("3 runs, 1800 games") && table.contains("ev@v2 against ev@v1: -"), "{table}");

    // The league and the gap go together, and the gap carries its unit.
    let half = write(d, "half.toml", "[[expect]]\nname = \"x\"\nconfig = \"ev.toml\"\nwithin_best = \"10 Elo\"\n");
    let out = arena().arg("gate").arg(&half).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("league, within_best (and version) go together"));
    let bare =
        write(d, "bare.toml", "[[expect]]\nname = \"x\"\nconfig = \"ev.toml\"\nleague = \"l.db\"\nwithin_best = 10\n");
    let out = arena().arg("gate").arg(&bare).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("within_best: must be a gap with its unit"));
}

/// A run of four bots at four seats (zhajinhua) into `out`.
fn field(out: &Path, games: u32, seed: u32) -> PathBuf {
    let bots = ["ev", "threshold", "always-call", "ev-naive"];
    let mut cmd = arena();
    cmd.args(["run", "--game", "zhajinhua", "--seats", "4", "--threads", "2", "--quiet", "--games"]);
    cmd.arg(games.to_string()).args(["--seed", &seed.to_string(), "--out"]).arg(out);
    bots.iter().for_each(|b| {
        cmd.args(["--bot", b]);
    });
    ok(cmd.output().unwrap());
    out.to_path_buf()
}

/// The signed numbers of a text (`+40.7 [+26.8, +54.6]` → 40.7, 26.8, 54.6).
fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-' || c == 'i' || c == 'n' || c == 'f'))
        .filter(|t| t.starts_with('+') || t.starts_with('-'))
        .map(|t| t.parse().unwrap_or_else(|_| panic!("{t} in {text}")))
        .collect()
}

/// The table's rows as the terminal prints them: each version's label and its figures (Elo,
/// the field's rating when there is one, the payoff, each with its interval).
fn table_rows(table: &str) -> Vec<(String, Vec<f64>)> {
    table
        .lines()
        .filter(|l| l.split_whitespace().next().is_some_and(|t| t.parse::<u32>().is_ok()))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let figures = words[2..words.len() - 2].join(" ");
            (words[1].to_string(), numbers(&figures))
        })
        .collect()
}

/// The same rows read from the page's table: `<tr><td>rank</td><td>label</td><td>figures…`.
fn page_rows(page: &str) -> Vec<(String, Vec<f64>)> {
    let at = page.find("<h3>Table</h3>").expect("the page's table");
    let table = &page[at..at + page[at..].find("</table>").unwrap()];
    table
        .split("<tr>")
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row
                .split("</td>")
                .filter(|c| c.contains("<td"))
                .filter_map(|c| c.rsplit_once('>').map(|(_, text)| text))
                .collect();
            let figures = cells[2..cells.len() - 2].join(" ");
            (cells[1].to_string(), numbers(&figures))
        })
        .collect()
}

/// A league of two four-seat zhajinhua runs (ev in two versions) and a two-seat run: the page
/// holds every figure of `league table` for the game, each version against the one before, the
/// crosstable, a plot of each figure across the versions, and the field's rating; `--out` takes
/// a folder or a file; the page is the same bytes when written again.
#[test]
fn the_league_page_holds_the_tables_figures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("league.db");
    ok(league(&["add", "--label", "v1"], &db, &[&field(&d.join("a"), 200, 1)]));
    ok(league(&["add", "--version", "ev=v2", "--label", "v1"], &db, &[&field(&d.join("b"), 200, 2)]));
    ok(league(&["add", "--label", "v1"], &db, &[&run(&d.join("c"), &["ev", "threshold"], 100, 3, &["--quiet"])]));

    let table = ok(league(&["table"], &db, &[]));
    let said = ok(league(&["report"], &db, &[]));
    let path = d.join("league.html");
    assert!(said.starts_with(&format!("{}: the league's page, 1 game (zhajinhua), ", path.display())), "{said}");
    assert!(said.trim_end().ends_with(" KB"), "{said}");
    let page = std::fs::read_to_string(&path).unwrap();

    let (ours, theirs) = (table_rows(&table), page_rows(&page));
    assert_eq!(ours.len(), 5, "{table}");
    // Elo, Plackett-Luce and the payoff, each with its interval: nine numbers a row.
    assert!(ours.iter().all(|(_, n)| n.len() == 9), "{ours:?}");
    assert_eq!(ours, theirs);
    assert!(table.contains("Plackett-Luce [95% CI]") && page.contains("<th>Plackett-Luce [95% CI]</th>"));

    let step = table.lines().find(|l| l.starts_with("ev@v2 against ev@v1: ")).expect(&table);
    assert!(page.contains(&format!("<li>{step}.</li>")), "{step}");
    let transitive = table.lines().last().unwrap();
    assert!(transitive.starts_with("transitive as far as the games tell"), "{table}");
    assert!(page.contains(&format!("<p class=\"transitive\">T{}.</p>", &transitive[1..])));
    for plot in ["Payoff", "Elo", "Plackett-Luce"] {
        assert!(page.contains(&format!("<h3>{plot} of each bot across its versions, 95% intervals</h3>")), "{plot}");
    }
    // The crosstable: five rows of five cells, a pair's score of its pairs of seats; the diagonal
    // and ev's two versions, which never met, empty.
    let at = page.find("<h3>Crosstable</h3>").unwrap();
    let cross = &page[at..at + page[at..].find("</table>").unwrap()];
    assert_eq!(cross.matches("<tr>").count(), 6);
    assert_eq!(cross.matches("<td>-</td>").count(), 7, "{cross}");
    // ev@v1 and threshold@v1: 200 four-seat games and 100 two-seat ones; ev@v2 and threshold: 200.
    assert_eq!(cross.matches("% of 300</td>").count(), 2, "{cross}");
    assert!(cross.contains("% of 200</td>"), "{cross}");

    // A folder takes league.html; the same league gives the same bytes.
    let folder = d.join("pages");
    std::fs::create_dir(&folder).unwrap();
    ok(arena().args(["league", "report"]).arg(&db).arg("--out").arg(&folder).output().unwrap());
    assert!(std::fs::read_to_string(folder.join("league.html")).unwrap() == page, "the page changed");
    let file = d.join("one.html");
    ok(arena().args(["league", "report"]).arg(&db).args(["--game", "zhajinhua", "--out"]).arg(&file).output().unwrap());
    assert!(std::fs::read_to_string(&file).unwrap() == page);
}

/// A page that cannot be written is one error line and exit 2 (a folder that is not there, a
/// path under a file), as is a league that is not there or a game it does not hold.
#[test]
fn a_league_page_on_a_bad_path_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("l.db");
    ok(league(&["add"], &db, &[&run(&d.join("r"), &["ev", "random"], 10, 1, &["--quiet"])]));
    let under_file = write(d, "file", "x").join("page.html");
    for (out, says) in [(d.join("no/such/folder/page.html"), "No such file"), (under_file, "Not a directory")] {
        let done = arena().args(["league", "report"]).arg(&db).arg("--out").arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(says), "{stderr}");
        assert!(!out.exists());
    }
    for (args, says) in [(&["report"][..], "no league at"), (&["report", "--game", "gomoku"][..], "holds no gomoku")] {
        let db = if says == "no league at" { d.join("none.db") } else { db.clone() };
        let done = league(args, &db, &[]);
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!((done.status.code(), stderr.lines().count()), (Some(2), 1), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}

/// On a real field (four zhajinhua bots at four seats), the Plackett-Luce ratings order the bots
/// as the payoff rating does wherever the payoff tells two bots apart (their 95% intervals do not
/// overlap); and at least one pair is told apart, so the check checks something.
#[test]
fn the_field_rating_agrees_with_the_payoff_on_a_real_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("l.db");
    ok(league(&["add", "--label", "v1"], &db, &[&field(&d.join("f"), 400, 1)]));
    let table = ok(league(&["table"], &db, &[]));
    let rows = table_rows(&table);
    assert_eq!(rows.len(), 4, "{table}");
    let mut apart = 0;
    for (a, x) in &rows {
        for (b, y) in &rows {
            // [Elo lo hi] [PL lo hi] [payoff lo hi]: x is clearly ahead of y on the payoff.
            if x[7] > y[8] {
                apart += 1;
                assert!(x[3] > y[3], "{a} makes more than {b} but is rated below it by the field: {table}");
            }
        }
    }
    assert!(apart >= 3, "{table}");
}

/// The league's page in headless Chromium (when installed: scripts/chromium-check.sh): every plot
/// has its marks and its legend, none covers a mark, every plot fills its column.
#[test]
fn the_league_page_draws_its_plots_in_headless_chromium() {
    let Some(chromium) = crate::report::chromium() else {
        eprintln!("skipped: no Chromium (install it with scripts/chromium-check.sh, or set CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("league.db");
    ok(league(&["add", "--label", "v1"], &db, &[&field(&d.join("a"), 100, 1)]));
    ok(league(&["add", "--version", "ev=v2", "--label", "v1"], &db, &[&field(&d.join("b"), 100, 2)]));
    ok(league(&["report"], &db, &[]));
    let plots = crate::plots::measured_page(&chromium, d, &d.join("league.html"), "league");
    assert_eq!(plots.len(), 3, "{plots:?}");
    for plot in &plots {
        assert!(plot["marks"].as_u64() > Some(0) && plot["legends"].as_u64() > Some(0), "{plot}");
        assert!(plot["hits"].as_array().unwrap().is_empty(), "{plot}");
        assert!(plot["width"].as_f64().unwrap() >= 0.95 * plot["column"].as_f64().unwrap(), "{plot}");
    }
}
