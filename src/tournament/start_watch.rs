//! Bots that cannot run: a bot outside the process whose program cannot be started, ends at once
//! or never answers its greeting forfeits every game it plays, and a run of such forfeits is
//! worthless. [`StartWatch`] finds such a bot early, so that the run stops with the reason
//! instead of going on.
//!
//! The definition: a bot could not run when, in this session's games (`arena run` or `arena
//! resume`), in game order,
//! - it has not answered anything: no decision, and no forfeit but at its start (any other fault,
//!   a wrong answer, a late one, a crash in play, is one of a program that answered), and
//! - [`FIRST_GAMES`] of its games (or fewer, when the session has no more for it) ended with it
//!   forfeiting at the start ([`Fault::at_start`]: its program could not be started, ended, or
//!   stayed silent past its limit before its first answer: a spawn failure, an exit before
//!   `hello`, no `hello` in time, a Botzone bot silent at its first turn).
//!
//! Games in which the bot was never asked anything (an earlier seat's bot failed first, or the
//! hand ended before its turn) say nothing either way. A bot that has answered once keeps the
//! rule of every other fault for good: a later crash, even at a start, is a forfeit and the run
//! goes on.
//!
//! The games are judged as they are delivered, in game order, so the verdict (and the game at
//! which the run stops) is the same on any number of threads. While a bot has failed at its start
//! and not yet answered, the games are held back from the run's files (tournament/run.rs): when
//! it turns out unable to run they are dropped, so the folder keeps no forfeit of a bot that never
//! ran and `arena resume`, once the bot is fixed, plays those games.

use crate::core::{Fault, GameRecord, Status};

/// How many of its games a bot that never answered must forfeit at its start before the run stops:
/// more than one, so that one start that failed by chance (a loaded machine, a slow first
/// `hello`) stops nothing; few, so that a bot that cannot run stops the run within seconds.
pub const FIRST_GAMES: u32 = 3;

/// What is known of a bot in the session's games so far.
#[derive(Clone, Debug, Default, PartialEq)]
enum Started {
    /// Neither an answer nor a fault yet.
    #[default]
    Unknown,
    /// Only faults at its start: this many games, the last one's reason.
    Failing { games: u32, reason: String },
    /// It answered a decision, or forfeited otherwise than at its start.
    Answered,
}

/// A bot that could not run: its index in the run's bots, the games it forfeited at its start and
/// the reason of the last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CannotRun {
    pub bot: usize,
    pub games: u32,
    pub reason: String,
}

/// Which of a run's bots have answered, and which have only failed at their start.
#[derive(Clone, Debug)]
pub struct StartWatch {
    bots: Vec<Started>,
    /// Bots not yet [`Started::Answered`]: none left, and a game costs the watch one comparison.
    unanswered: usize,
    /// Bots [`Started::Failing`].
    failing: usize,
}

impl StartWatch {
    /// A watch over `bots` bots, none seen yet.
    pub fn new(bots: usize) -> StartWatch {
        StartWatch { bots: vec![Started::Unknown; bots], unanswered: bots, failing: 0 }
    }

    /// Judges a game played in this session, in game order (`lineup[seat]` is the seat's bot):
    /// the bot that could not run, when this game shows it.
    pub fn see(&mut self, lineup: &[usize], record: &GameRecord) -> Option<CannotRun> {
        if self.unanswered == 0 {
            return None;
        }
        // Every decision the record timed was answered, but a forfeit's last: the forfeited one.
        let forfeit = match &record.status {
            Status::Forfeit { seat, reason } => Some((*seat, reason)),
            Status::Ok | Status::Error(_) => None,
        };
        let answered = record.times.len() - usize::from(forfeit.is_some() && !record.times.is_empty());
        for &(seat, _) in &record.times[..answered] {
            self.answered(lineup[seat]);
        }
        let (seat, reason) = forfeit?;
        match reason.is_at_start() {
            true => self.failed(lineup[seat], reason),
            // A fault that is not at the start is one of a program that answered something.
            false => {
                self.answered(lineup[seat]);
                None
            }
        }
    }

    /// Whether a bot has failed at its start and not yet answered: its verdict is pending.
    pub fn doubtful(&self) -> bool {
        self.failing > 0
    }

    /// At the end of the session's games: the first bot that failed at its start (in fewer than
    /// [`FIRST_GAMES`] games: the session had no more for it) and never answered.
    pub fn finish(&self) -> Option<CannotRun> {
        self.bots.iter().enumerate().find_map(|(bot, started)| match started {
            Started::Failing { games, reason } => Some(CannotRun { bot, games: *games, reason: reason.clone() }),
            _ => None,
        })
    }

    fn answered(&mut self, bot: usize) {
        match &self.bots[bot] {
            Started::Answered => return,
            Started::Failing { .. } => self.failing -= 1,
            Started::Unknown => {}
        }
        self.bots[bot] = Started::Answered;
        self.unanswered -= 1;
    }

    fn failed(&mut self, bot: usize, fault: &Fault) -> Option<CannotRun> {
        let games = match &self.bots[bot] {
            Started::Answered => return None,
            Started::Unknown => {
                self.failing += 1;
                1
            }
            Started::Failing { games, .. } => games + 1,
        };
        let reason = fault.reason().to_string();
        self.bots[bot] = Started::Failing { games, reason: reason.clone() };
        (games >= FIRST_GAMES).then_some(CannotRun { bot, games, reason })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{FaultKind, SeatResult};
    use std::time::Duration;

    /// A record of a game in which `decisions` were answered (seat by seat), then `forfeit`: at
    /// a decision when the fault is not at the start, else before any (as a process bot's start).
    fn game(decisions: &[usize], forfeit: Option<(usize, Fault)>) -> GameRecord {
        let mut record = GameRecord::new();
        record.times = decisions.iter().map(|&seat| (seat, Duration::from_millis(1))).collect();
        record.seats = (0..2)
            .map(|_| SeatResult { payoff: 0.0, place: 1, adjusted: None, start: None, terms: Default::default() })
            .collect();
        if let Some((seat, reason)) = forfeit {
            if !reason.is_at_start() {
                record.times.push((seat, Duration::from_millis(1)));
            }
            record.status = Status::Forfeit { seat, reason };
        }
        record
    }

    fn exited() -> Fault {
        Fault::new(FaultKind::Crash, "exited with code 2 before answering hello").at_start()
    }

    #[test]
    fn a_bot_whose_first_games_all_fail_at_the_start_cannot_run() {
        let mut watch = StartWatch::new(2);
        for n in 1..FIRST_GAMES {
            assert_eq!(watch.see(&[0, 1], &game(&[], Some((0, exited())))), None, "game {n}");
            assert!(watch.doubtful());
        }
        let verdict = watch.see(&[0, 1], &game(&[], Some((0, exited()))));
        assert_eq!(verdict, Some(CannotRun { bot: 0, games: FIRST_GAMES, reason: exited().reason().into() }));
    }

    #[test]
    fn a_bot_that_answered_once_keeps_forfeiting_and_the_run_goes_on() {
        let mut watch = StartWatch::new(2);
        // Seated second: it fails at its start, then answers in a game, then fails for good.
        assert_eq!(watch.see(&[1, 0], &game(&[], Some((1, exited())))), None);
        assert!(watch.doubtful());
        assert_eq!(watch.see(&[1, 0], &game(&[0, 1, 0], None)), None);
        assert!(!watch.doubtful(), "an answer settles it");
        for _ in 0..10 {
            assert_eq!(watch.see(&[0, 1], &game(&[], Some((0, exited())))), None);
        }
        assert!(!watch.doubtful());
    }

    #[test]
    fn a_forfeited_decision_is_no_answer_and_a_fault_in_play_is_no_start_fault() {
        let mut watch = StartWatch::new(2);
        // Bot 0 forfeits its first decision at its first turn (as a Botzone bot does): not an answer.
        let mut first_turn = game(&[1], None);
        first_turn.times.push((0, Duration::from_millis(1)));
        first_turn.status = Status::Forfeit { seat: 0, reason: exited() };
        assert_eq!(watch.see(&[0, 1], &first_turn), None);
        assert!(watch.doubtful());
        // A fault that is not at its start is one of a program that answered, even at its
        // first decision (a malformed answer): that settles it.
        let malformed = Fault::new(FaultKind::Protocol, "answered `PLAY` to `0 3 0` (turn 1)");
        assert_eq!(watch.see(&[0, 1], &game(&[1], Some((0, malformed)))), None);
        assert!(!watch.doubtful());
    }

    #[test]
    fn games_that_never_asked_the_bot_say_nothing() {
        let mut watch = StartWatch::new(3);
        assert_eq!(watch.see(&[2, 1], &game(&[], Some((1, exited())))), None);
        // Bot 1 is seated second behind bot 0, which fails at its start: bot 1 was never asked.
        let bad_hello = Fault::new(FaultKind::Protocol, "bad answer to hello");
        for _ in 0..5 {
            assert_eq!(watch.see(&[0, 1], &game(&[], Some((0, bad_hello.clone())))), None);
        }
        assert!(watch.doubtful());
        assert_eq!(watch.finish().map(|c| (c.bot, c.games)), Some((1, 1)), "all of its games failed");
        assert!(watch.see(&[2, 1], &game(&[], Some((1, exited())))).is_none());
        assert_eq!(watch.see(&[2, 1], &game(&[], Some((1, exited())))).map(|c| c.bot), Some(1));
    }
}
