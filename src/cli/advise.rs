use clap::Subcommand;

use crate::cli::EXIT_OK;
use crate::error::Result;
use crate::games::holdem;

/// The source documents' advisers, one per game.
#[derive(Subcommand, Debug)]
pub enum AdviseCmd {
    /// Hold'em: equity of a hand (Monte Carlo or exact), its category and pot-odds guidance.
    Holdem(holdem::advise::AdviseArgs),
}

pub fn advise(cmd: &AdviseCmd) -> Result<i32> {
    let text = match cmd {
        AdviseCmd::Holdem(args) => holdem::advise::run(args)?,
    };
    println!("{}", text.trim_end());
    Ok(EXIT_OK)
}
