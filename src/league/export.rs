//! The league's games as PGN, the form Ordo and BayesElo read: one game a pair of seats held by
//! two different versions (as the Elo table counts them), the lower seat as White, the better
//! place winning and an equal place a draw; no moves, the result alone.

use std::collections::BTreeMap;
use std::io::Write;

use crate::error::Result;
use crate::league::rate::{each_game, versions};
use crate::league::League;

/// Writes `game`'s games to `out`; returns how many PGN games it wrote.
pub(crate) fn pgn(league: &League, game: &str, out: &mut impl Write) -> std::io::Result<Result<u64>> {
    let listed = match versions(league, game) {
        Ok(listed) => listed,
        Err(e) => return Ok(Err(e)),
    };
    let index: BTreeMap<i64, usize> = listed.iter().enumerate().map(|(k, (id, _))| (*id, k)).collect();
    let names: Vec<String> = listed.iter().map(|(_, v)| v.label()).collect();
    let mut written = 0u64;
    let mut failed: Option<std::io::Error> = None;
    let walked = each_game(league, game, &index, |_, _, seats| {
        for (x, a) in seats.iter().enumerate() {
            for b in &seats[x + 1..] {
                if a.0 == b.0 || failed.is_some() {
                    continue;
                }
                let result = match a.2.cmp(&b.2) {
                    std::cmp::Ordering::Less => "1-0",
                    std::cmp::Ordering::Equal => "1/2-1/2",
                    std::cmp::Ordering::Greater => "0-1",
                };
                let wrote = write!(
                    out,
                    "[Event \"{game}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\n{result}\n\n",
                    names[a.0], names[b.0]
                );
                match wrote {
                    Ok(()) => written += 1,
                    Err(e) => failed = Some(e),
                }
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(walked.map(|()| written))
}
