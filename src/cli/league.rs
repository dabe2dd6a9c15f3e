//! `arena league`: runs kept together in one SQLite file (`add`), the ratings of every version
//! of every bot over all of them (`table`), and the games for Ordo and BayesElo (`export`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::cli::out::say;
use crate::cli::EXIT_OK;
use crate::core::Params;
use crate::error::{Error, Result};
use crate::league::page::{self, Rated};
use crate::league::rate::{games_held, Evidence, Options};
use crate::league::{export, import, League};
use crate::registry::Arena;
use crate::stats::Unit;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena league add league.db results/nightly results/gate/*\n  arena league table league.db --game zhajinhua --relative 50\n  arena league report league.db --out league.html\n  arena league export league.db --game gomoku --pgn league.pgn"
)]
pub struct LeagueArgs {
    #[command(subcommand)]
    command: LeagueCommand,
}

#[derive(Subcommand, Debug)]
enum LeagueCommand {
    /// Add finished run folders (any game; whole, merged or shards): each game is kept once.
    Add(AddArgs),
    /// Every version of every bot rated over all the games kept: Elo and the payoff, with 95% intervals.
    Table(TableArgs),
    /// The league as one self-contained HTML page: each game's table, each bot across its versions, the crosstable.
    Report(ReportArgs),
    /// The games as PGN (a pair of seats a game, the result alone), which Ordo and BayesElo read.
    Export(ExportArgs),
}

#[derive(Args, Debug)]
struct AddArgs {
    /// The league file (SQLite; made when missing).
    league: PathBuf,
    /// Finished run folders.
    #[arg(required = true, value_name = "RUN")]
    runs: Vec<PathBuf>,
    /// A bot's version label, `NAME=LABEL` (a commit, a release); repeat for each bot.
    /// Default: the arena's commit and the hash of the bot's kind and parameters.
    #[arg(long = "version", value_name = "NAME=LABEL", value_parser = parse_label)]
    versions: Vec<(String, String)>,
    /// The version label of every bot not named by --version.
    #[arg(long, value_name = "LABEL")]
    label: Option<String>,
}

#[derive(Args, Debug)]
struct TableArgs {
    /// The league file.
    league: PathBuf,
    /// The game to rate (needed when the league holds more than one).
    #[arg(long)]
    game: Option<String>,
    /// Anchor the Elo list: `NAME[@VERSION]=ELO` (default: the field's mean at 0).
    #[arg(long, value_name = "NAME=ELO", value_parser = parse_anchor)]
    anchor: Option<(String, f64)>,
    /// Hold successive versions of a bot together with a normal prior of this sd in Elo (Ordo's
    /// relative anchors): versions with few games are rated near their neighbours.
    #[arg(long, value_name = "ELO", value_parser = parse_sd)]
    relative: Option<f64>,
}

#[derive(Args, Debug)]
struct ReportArgs {
    /// The league file.
    league: PathBuf,
    /// Where the page goes: a file, or a folder (as league.html in it). Default: the league's
    /// file with `.html` for its extension.
    #[arg(long, value_name = "DIR|FILE")]
    out: Option<PathBuf>,
    /// The one game to show (default: every game the league holds).
    #[arg(long)]
    game: Option<String>,
}

#[derive(Args, Debug)]
struct ExportArgs {
    /// The league file.
    league: PathBuf,
    /// The game to export (needed when the league holds more than one).
    #[arg(long)]
    game: Option<String>,
    /// Where the PGN goes.
    #[arg(long, value_name = "FILE")]
    pgn: PathBuf,
}

fn parse_label(text: &str) -> std::result::Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, label)) if !name.is_empty() && !label.is_empty() => Ok((name.to_string(), label.to_string())),
        _ => Err(format!("`{text}` is not NAME=LABEL")),
    }
}

fn parse_anchor(text: &str) -> std::result::Result<(String, f64), String> {
    let (name, elo) = text.split_once('=').ok_or_else(|| format!("`{text}` is not NAME=ELO"))?;
    let elo: f64 =
        elo.trim().trim_end_matches("Elo").trim().parse().map_err(|_| format!("`{elo}` is not an Elo number"))?;
    if name.is_empty() || !elo.is_finite() {
        return Err(format!("`{text}` is not NAME=ELO"));
    }
    Ok((name.to_string(), elo))
}

fn parse_sd(text: &str) -> std::result::Result<f64, String> {
    match text.trim().trim_end_matches("Elo").trim().parse::<f64>() {
        Ok(sd) if sd > 0.0 && sd.is_finite() => Ok(sd),
        _ => Err(format!("`{text}` is not a positive number of Elo")),
    }
}

pub fn league(arena: &Arena, args: &LeagueArgs) -> Result<i32> {
    match &args.command {
        LeagueCommand::Add(add) => add_runs(add),
        LeagueCommand::Table(table) => show_table(arena, table),
        LeagueCommand::Report(report) => write_report(arena, report),
        LeagueCommand::Export(export) => export_pgn(export),
    }
}

fn add_runs(args: &AddArgs) -> Result<i32> {
    let mut league = League::open(&args.league, true)?;
    let labels: BTreeMap<String, String> = args.versions.iter().cloned().collect();
    for run in &args.runs {
        let added = import::add(&mut league, run, &labels, args.label.as_deref())?;
        let versions: Vec<String> = added.versions.iter().map(|(n, v)| format!("{n}@{v}")).collect();
        if added.new == 0 {
            say!(
                "{}: already in the league ({} {} games, none new; {})",
                run.display(),
                added.read,
                added.game,
                versions.join(", ")
            );
        } else {
            say!(
                "{}: added {} {} games of `{}` ({} already kept; {})",
                run.display(),
                added.new,
                added.game,
                added.name,
                added.read - added.new,
                versions.join(", ")
            );
        }
    }
    Ok(EXIT_OK)
}

/// The game asked for, or the league's one game.
fn game_of(league: &League, game: Option<&str>) -> Result<String> {
    let held = games_held(league)?;
    match game {
        Some(game) => Ok(game.to_string()),
        None if held.len() == 1 => Ok(held[0].clone()),
        None if held.is_empty() => {
            Err(Error::input(format!("{}: the league holds no games yet", league.path.display())))
        }
        None => Err(Error::input(format!(
            "{}: the league holds {} games ({}): name one with --game",
            league.path.display(),
            held.len(),
            held.join(", ")
        ))),
    }
}

/// The unit of `game`'s payoffs at its default table, and whether its verdicts lead with Elo (a
/// league's runs may have set other stakes; their payoffs are in chips or points as the games
/// paid them).
fn headline_of(arena: &Arena, game: &str) -> Result<(Unit, bool)> {
    let entry = arena.find(game)?;
    let defaults = Params::new(entry.options(), &Default::default(), entry.name())?;
    let headline = entry.venue(&defaults, *entry.seats().start(), &[], None)?.headline();
    Ok((headline.unit, headline.is_elo()))
}

fn show_table(arena: &Arena, args: &TableArgs) -> Result<i32> {
    let league = League::open(&args.league, false)?;
    let game = game_of(&league, args.game.as_deref())?;
    let (unit, elo_leads) = headline_of(arena, &game)?;
    let evidence = Evidence::read(&league, &game)?;
    let table = evidence.rate(&Options { anchor: args.anchor.clone(), relative_sd: args.relative })?;
    say!("{}", table.text(&evidence, &game, unit, elo_leads).trim_end());
    Ok(EXIT_OK)
}

/// The page's file: `--out` as a file, or league.html in `--out` when it is a folder, or the
/// league's file with `.html`.
fn page_path(args: &ReportArgs) -> PathBuf {
    match &args.out {
        Some(out) if out.is_dir() => out.join("league.html"),
        Some(out) => out.clone(),
        None => args.league.with_extension("html"),
    }
}

fn write_report(arena: &Arena, args: &ReportArgs) -> Result<i32> {
    let league = League::open(&args.league, false)?;
    let games = match &args.game {
        Some(_) => vec![game_of(&league, args.game.as_deref())?],
        None => games_held(&league)?,
    };
    if games.is_empty() {
        return Err(Error::input(format!("{}: the league holds no games yet", league.path.display())));
    }
    let mut read = Vec::new();
    for game in &games {
        let (unit, elo_leads) = headline_of(arena, game)?;
        let evidence = Evidence::read(&league, game)?;
        let table = evidence.rate(&Options::default())?;
        read.push((game, unit, elo_leads, evidence, table));
    }
    let rated: Vec<Rated> = read
        .iter()
        .map(|(game, unit, elo_leads, evidence, table)| Rated {
            game,
            unit: *unit,
            elo_leads: *elo_leads,
            evidence,
            table,
        })
        .collect();
    let name =
        args.league.file_name().map_or_else(|| args.league.display().to_string(), |n| n.to_string_lossy().into_owned());
    let html = page::page(&name, &rated)?;
    let path = page_path(args);
    crate::report::write_output(&path, html.as_bytes())?;
    say!(
        "{}: the league's page, {} {} ({}), {} KB",
        path.display(),
        games.len(),
        if games.len() == 1 { "game" } else { "games" },
        games.join(", "),
        html.len().div_ceil(1024)
    );
    Ok(EXIT_OK)
}

fn export_pgn(args: &ExportArgs) -> Result<i32> {
    let league = League::open(&args.league, false)?;
    let game = game_of(&league, args.game.as_deref())?;
    let file = std::fs::File::create(&args.pgn).map_err(|e| Error::bad_path(&args.pgn, e))?;
    let mut out = std::io::BufWriter::new(file);
    let written = export::pgn(&league, &game, &mut out).map_err(|e| Error::io(&args.pgn, e))??;
    out.flush().map_err(|e| Error::io(&args.pgn, e))?;
    say!("{}: {written} {game} games as PGN (a pair of seats a game)", args.pgn.display());
    Ok(EXIT_OK)
}
