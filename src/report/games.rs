use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use crate::core::{GameRecord, Status};
use crate::error::{Error, Result};
use crate::tournament::schedule::Job;

/// The fixed columns of games.csv; the game's own columns follow.
pub const GAME_COLUMNS: &[&str] = &["pairing", "game", "seed", "seat", "bot", "payoff", "place", "moves", "status"];

/// Writes games.csv, one row per seat per game, in the order games are given.
pub struct GamesWriter {
    out: csv::Writer<BufWriter<File>>,
    path: std::path::PathBuf,
    row: Vec<String>,
}

impl GamesWriter {
    pub fn create(path: &Path, extra: &[&str]) -> Result<GamesWriter> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        let mut out = csv::Writer::from_writer(BufWriter::new(file));
        let header: Vec<&str> = GAME_COLUMNS.iter().chain(extra).copied().collect();
        out.write_record(&header).map_err(|e| csv_error(path, e))?;
        Ok(GamesWriter { out, path: path.to_path_buf(), row: Vec::new() })
    }

    /// Writes the rows of one game; `names[bot]` names the bots, `lineup[seat]` seats them.
    pub fn write(&mut self, job: &Job, lineup: &[usize], names: &[String], record: &GameRecord) -> Result<()> {
        for (seat, result) in record.seats.iter().enumerate() {
            let status = match &record.status {
                Status::Ok => "ok".to_string(),
                Status::Forfeit { seat: s, reason } if *s == seat => format!("forfeit: {reason}"),
                Status::Forfeit { .. } => "opponent forfeit".to_string(),
            };
            self.row.clear();
            self.row.extend([
                job.pairing.to_string(),
                job.game.to_string(),
                record.seed.to_string(),
                seat.to_string(),
                names[lineup[seat]].clone(),
                result.payoff.to_string(),
                result.place.to_string(),
                record.moves.to_string(),
                status,
            ]);
            self.row.extend(result.extra.iter().cloned());
            self.out.write_record(&self.row).map_err(|e| csv_error(&self.path, e))?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> Result<()> {
        self.out.flush().map_err(|e| Error::io(&self.path, e))
    }
}

fn csv_error(path: &Path, e: csv::Error) -> Error {
    Error::io(path, std::io::Error::other(e.to_string()))
}
