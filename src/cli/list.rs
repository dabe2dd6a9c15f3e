use clap::Args;

use crate::cli::{out, EXIT_OK};
use crate::core::roster::Roster;
use crate::core::{Leads, Limits, ParamSpec, Params, PathUse};
use crate::error::Result;
use crate::registry::{Arena, GameEntry};

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Only this game.
    game: Option<String>,
}

/// `name = default  (range)  help`, aligned.
fn params(out: &mut String, indent: &str, specs: &[ParamSpec]) {
    let head = |s: &ParamSpec| match s.bounds() {
        Some(bounds) => format!("{} = {}  ({bounds})", s.name, s.default),
        None => format!("{} = {}", s.name, s.default),
    };
    let width = specs.iter().map(|s| head(s).chars().count()).max().unwrap_or(0);
    for s in specs {
        // Said once here, for every parameter that names files (params::resolve_paths).
        let paths = match s.path {
            PathUse::None => "",
            _ => " (a relative path starts from the folder of the file that names it)",
        };
        out.push_str(&format!("{indent}{:<width$}  {}{paths}\n", head(s), s.help));
    }
}

fn describe(game: &dyn GameEntry) -> Result<String> {
    let mut out = format!("{}: {}\n", game.name(), game.about());
    let seats = game.seats();
    out.push_str(&format!("  seats: {}..={}\n", seats.start(), seats.end()));
    // What its verdicts are counted in, at the default table (a table option may change it:
    // hold'em's sit-and-go is judged by Elo).
    let defaults = Params::new(game.options(), &Default::default(), game.name())?;
    let headline = game.venue(&defaults, *seats.start(), &[], None)?.headline();
    let (unit, edge) = (headline.unit, headline.edge);
    out.push_str(&match headline.leads {
        Leads::Payoff => format!(
            "  verdicts: the payoff difference in {unit} (a {} is one game); `arena compare` looks for {edge} {unit}\n",
            headline.game
        ),
        Leads::Elo => {
            format!("  verdicts: Elo on games won (payoffs in {unit}); `arena compare` looks for {edge} Elo\n")
        }
    });
    if !game.options().is_empty() {
        out.push_str("  table options ([table] in a config):\n");
        params(&mut out, "    ", game.options());
    }
    if !game.tables().is_empty() {
        out.push_str("  table presets (preset = \"NAME\" in [table]; options given beside it win):\n");
        for preset in game.tables() {
            let options: Vec<&str> = preset.options.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            out.push_str(&format!("    {}: {} ({})\n", preset.name, preset.about, options.join(", ")));
        }
    }
    out.push_str("  bots:\n");
    for bot in game.bots() {
        out.push_str(&format!("    {}: {}\n", bot.name, bot.about));
        params(&mut out, "      ", bot.params);
    }
    out.push_str("  every bot also takes (unless it sets its own default above):\n");
    params(&mut out, "    ", Limits::SPECS);
    let roster = Roster::load(game)?;
    if !roster.entries.is_empty() {
        out.push_str(&format!("  roster (bots/{}.toml):\n", game.name()));
        for (name, entry) in &roster.entries {
            let params: Vec<String> = entry.params.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            out.push_str(&format!(
                "    {name}: {} ({}{}{})\n",
                entry.about,
                entry.kind,
                if params.is_empty() { "" } else { "; " },
                params.join(", ")
            ));
        }
    }
    Ok(out)
}

pub fn list(arena: &Arena, args: &ListArgs) -> Result<i32> {
    match &args.game {
        Some(name) => out::stdout(format_args!("{}", describe(arena.find(name)?)?)),
        None => {
            let all: Result<Vec<String>> = arena.games().map(describe).collect();
            out::stdout(format_args!("{}", all?.join("\n")));
        }
    }
    Ok(EXIT_OK)
}
