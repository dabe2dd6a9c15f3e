use clap::Subcommand;

use crate::cli::EXIT_OK;
use crate::error::Result;
use crate::games::{holdem, zhajinhua};

/// The source documents' advisers, one per game.
#[derive(Subcommand, Debug)]
pub enum AdviseCmd {
    /// Hold'em: equity of a hand (Monte Carlo or exact), its category and pot-odds guidance.
    Holdem(holdem::advise::AdviseArgs),
    /// Zhajinhua: category, strength value and win probability of a three-card hand.
    Zhajinhua(zhajinhua::advise::AdviseArgs),
}

pub fn advise(cmd: &AdviseCmd) -> Result<i32> {
    let text = match cmd {
        AdviseCmd::Holdem(args) => holdem::advise::run(args)?,
        AdviseCmd::Zhajinhua(args) => zhajinhua::advise::run(args)?,
    };
    println!("{}", text.trim_end());
    Ok(EXIT_OK)
}
