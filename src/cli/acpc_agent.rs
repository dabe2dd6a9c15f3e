//! `arena acpc-agent GAME --bot B HOST PORT`: one of the game's bots as an ACPC poker agent,
//! connected to a dealer (the ACPC server's `dealer`, or a match run by its `play_match.pl`, which
//! starts each agent with the host and port appended). The protocol itself is the game's engine
//! protocol, as the registry offers it (hold'em: `games::holdem::acpc::agent`).

use std::io::BufReader;

use clap::Args;

use crate::cli::EXIT_OK;
use crate::error::{Error, Result};
use crate::registry::{Arena, Open};

/// The engine protocol this command speaks.
const PROTOCOL: &str = "ACPC";

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    arena acpc-agent holdem --bot rr 127.0.0.1 18791\n  \
    arena acpc-agent holdem --bot rr-tight --seed 7 localhost 18791\n  \
    arena acpc-agent holdem --bot rr --table stack=100 127.0.0.1 18791   # a 100-big-blind table\n\n\
    Under the ACPC server's play_match.pl, give a script that passes the host and port on:\n  \
    printf '#!/bin/sh\\nexec arena acpc-agent holdem --bot rr \"$1\" \"$2\"\\n' > rr.sh && chmod +x rr.sh\n  \
    ./play_match.pl demo holdem.nolimit.2p.reverse_blinds.game 1000 42 rr ./rr.sh example ./example_player.nolimit.2p.sh")]
pub struct AcpcAgentArgs {
    /// The game: one whose engine protocol is ACPC's (holdem).
    game: String,
    /// The bot: a roster name or bot kind (see `arena list holdem`); default: rr.
    #[arg(long)]
    bot: Option<String>,
    /// A bot parameter, `name=value` with a TOML value (`trials=200`); repeat for each.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// A table option over ACPC's no-limit table (blinds 50/100, 20,000 chips), which the dealer's
    /// states do not show: `stack=100` (in big blinds), `big_blind=10`; repeat for each. The seats
    /// come from the states.
    #[arg(long = "table", value_name = "NAME=VALUE")]
    table: Vec<String>,
    /// Seed of the bot's random stream (each hand's stream comes from it and the hand's number).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The dealer's host.
    host: String,
    /// The port the dealer listens on for this seat.
    port: u16,
}

pub fn acpc_agent(arena: &Arena, args: &AcpcAgentArgs) -> Result<i32> {
    let game = arena.find(&args.game)?;
    let Some(engine) = game.engine().filter(|e| e.protocol == PROTOCOL) else {
        let with: Vec<&str> =
            arena.games().filter(|g| g.engine().is_some_and(|e| e.protocol == PROTOCOL)).map(|g| g.name()).collect();
        return Err(Error::input(format!("{} has no ACPC agent (only {} has)", game.name(), with.join(", "))));
    };
    let address = format!("{}:{}", args.host, args.port);
    // Connected only once the bot, its parameters and the table are known good.
    let open: Open<'_> = Box::new(|| {
        let (reading, writing) = crate::external::socket::connect(&address)
            .map_err(|e| Error::input(format!("cannot connect to the dealer at {address}: {e}")))?;
        Ok((Box::new(BufReader::new(reading)), Box::new(writing)))
    });
    let bot = args.bot.as_deref().unwrap_or(engine.default_bot);
    game.serve_engine(bot, &args.params, &args.table, args.seed, open)?;
    Ok(EXIT_OK)
}
