use clap::Subcommand;

use crate::cli::EXIT_OK;
use crate::error::Result;
use crate::games::{holdem, mahjong, stud, zhajinhua};

/// The source documents' advisers, one per game.
#[derive(Subcommand, Debug)]
pub enum AdviseCmd {
    /// Hold'em: equity of a hand (Monte Carlo or exact), its category and pot-odds guidance.
    Holdem(holdem::advise::AdviseArgs),
    /// Five-card stud: category, exact win probability against hidden cards, and the expert's advice.
    Stud(stud::advise::AdviseArgs),
    /// Zhajinhua: category, strength value and win probability of a three-card hand.
    Zhajinhua(zhajinhua::advise::AdviseArgs),
    /// Mahjong (MCR): shanten, effective tiles, and the fans of a complete hand (or a --batch file).
    Mahjong(mahjong::advise::AdviseArgs),
}

pub fn advise(cmd: &AdviseCmd) -> Result<i32> {
    let text = match cmd {
        AdviseCmd::Holdem(args) => holdem::advise::run(args)?,
        AdviseCmd::Stud(args) => stud::advise::run(args)?,
        AdviseCmd::Zhajinhua(args) => zhajinhua::advise::run(args)?,
        AdviseCmd::Mahjong(args) => mahjong::advise::run(args)?,
    };
    println!("{}", text.trim_end());
    Ok(EXIT_OK)
}
