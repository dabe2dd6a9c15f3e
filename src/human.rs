//! The `human` bot kind: a person at the terminal plays a seat (`arena play`, or a config that
//! seats `{ kind = "human" }`). Every game has it, through its [`Wire`] encoding: the person is
//! told what the other seats did ([`Wire::narrate`]), sees their seat's view drawn as the game
//! draws its table ([`Wire::view_text`]: from the view alone, so nothing a bot outside the process
//! could not see), types an action in the game's notation or its number in the legal list, and is
//! asked again, with the rules' reason, until the action is legal ([`Wire::judge`]). The last
//! screen is the game's end ([`Wire::end_text`]) and every seat's result in the game's unit
//! ([`GameDef::payoff_text`]). Everything is laid out to the terminal's width. The end of the
//! input is a forfeit, as a bot's exit would be.

use std::io::{BufRead, Write};

use crate::core::readable::{wrap, Screen};
use crate::core::wire::Told;
use crate::core::{factory, BotKind, GameDef};
use crate::core::{Bot, BotRng, Fault, FaultKind, GameEnd, GameStart, Seat, Status, Wire};

/// Legal lists longer than this are summed up (a gomoku board's empty cells).
const LISTED: usize = 30;

/// The narrowest layout: a terminal that says it is narrower is taken to be this wide.
const NARROWEST: usize = 20;

/// The `human` kind of game `G`.
pub fn kind<G: GameDef>() -> BotKind<G> {
    BotKind {
        name: "human",
        about: "a person at the terminal: reads the seat's view on stdout, types actions on stdin (arena play)",
        params: &[],
        make: |_, _| Ok(factory(Human::default)),
    }
}

/// A person's seat: what they were told at the start of the game, and how much of the table's
/// story they have been told since.
#[derive(Debug, Default)]
pub struct Human {
    seat: Seat,
    /// Every seat's player, by seat.
    names: Vec<String>,
    /// The game's count of what has been told ([`Wire::narrate`]).
    told: u64,
}

/// A line to the person; a closed terminal is not worth a panic (the next read ends the game).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// The terminal's width in columns: `COLUMNS` when it is set (as a shell exports it, or a
/// person to ask for another width), else what the terminal on stdout says, else 80.
pub fn terminal_width() -> usize {
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok());
    columns.filter(|&c| c > 0).or_else(tty_width).unwrap_or(crate::core::readable::WIDTH).max(NARROWEST)
}

/// The width of the terminal on stdout, if stdout is one.
#[cfg(unix)]
fn tty_width() -> Option<usize> {
    let mut size = libc::winsize { ws_row: 0, ws_col: 0, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: TIOCGWINSZ writes one `winsize` through the pointer, which points at one; on a file
    // that is not a terminal the call fails and writes nothing.
    let asked = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (asked == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(unix))]
fn tty_width() -> Option<usize> {
    None
}

impl Human {
    /// The screen the person's terminal shows now (its width may have changed since).
    fn screen(&self) -> Screen<'_> {
        Screen { names: &self.names, width: terminal_width() }
    }

    /// Tells what the other seats did and the table showed since the person was last told, one
    /// line each (`rr (seat 1): checks`). The person's own actions are left out: they typed them.
    fn tell<G: Wire>(&mut self, game: &G, view: &G::View<'_>) -> String {
        let mut told = Vec::new();
        let screen = Screen { names: &self.names, width: terminal_width() };
        game.narrate(view, &screen, &mut self.told, &mut told);
        let mut text = String::new();
        for Told { seat, text: what } in told {
            match seat {
                Some(seat) if seat == self.seat => {}
                Some(seat) => text.push_str(&words(&format!("{}: {what}", screen.who(seat)), screen.width)),
                None => text.push_str(&words(&what, screen.width)),
            }
        }
        text
    }

    /// Tells what happened, shows the view and the legal actions, then reads lines until one is
    /// a legal action.
    fn ask<G: Wire>(&mut self, game: &G, view: &G::View<'_>) -> Result<G::Action, Fault> {
        let legal = game.legal_texts(view);
        let told = self.tell(game, view);
        let screen = self.screen();
        say(&format!("\n{told}{}{}", game.view_text(view, &screen), menu(&legal, screen.width)));
        let stdin = std::io::stdin();
        loop {
            say(&format!("seat {}> ", self.seat));
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) => return Err(Fault::new(FaultKind::Crash, "the player left (end of input)")),
                Err(e) => return Err(Fault::new(FaultKind::Crash, format!("cannot read the player's input: {e}"))),
                Ok(_) => {}
            }
            match answer(game, view, &legal, line.trim(), self.screen().width) {
                Ok(Some(action)) => return Ok(action),
                Ok(None) => {}
                Err(why) => say(&words(&why, self.screen().width)),
            }
        }
    }

    /// The last screen: the rest of the table's story, the game's end, and every seat's result
    /// in the game's unit (after a forfeit, who forfeited and whom it credited).
    fn last_screen<G: GameDef>(&mut self, game: &G, state: &G::State, end: &GameEnd<'_>) -> String {
        let mut text = format!("\n{}", self.tell(game, &game.view(state, self.seat)));
        let screen = self.screen();
        text.push_str("\n=== game over ===\n");
        text.push_str(&game.end_text(state, &screen));
        let outcome = end.outcome;
        let you = |seat: Seat| if seat == self.seat { "you".to_string() } else { screen.who(seat) };
        if let Status::Forfeit { seat, reason } = end.status {
            let s = if *seat == self.seat { "" } else { "s" };
            text.push_str(&words(&format!("{} forfeit{s}: {reason}", you(*seat)), screen.width));
            let credited: Vec<String> =
                (0..outcome.payoff.len()).filter(|&s| outcome.payoff[s] > 0.0).map(&you).collect();
            if !credited.is_empty() {
                text.push_str(&words(&format!("the forfeit credits {}", credited.join(" and ")), screen.width));
            }
        }
        let seats = outcome.payoff.len();
        for seat in std::iter::once(self.seat).chain((0..seats).filter(|&s| s != self.seat)) {
            let payoff = outcome.payoff[seat];
            let verb = match payoff {
                p if p > 0.0 => "won",
                p if p < 0.0 => "lost",
                _ => "broke even,",
            };
            let place = match seats > 2 {
                true => format!(", place {} of {seats}", outcome.place[seat]),
                false => String::new(),
            };
            text.push_str(&words(&format!("{} {verb} {}{place}", you(seat), game.payoff_text(payoff)), screen.width));
        }
        text
    }
}

/// A sentence laid out to `width` columns, broken only between words (the lines after the first
/// indented).
fn words(sentence: &str, width: usize) -> String {
    wrap("", sentence.split(' '), " ", 4, width)
}

/// The legal actions numbered and laid out to `width` columns, or summed up when there are many.
fn menu(legal: &[String], width: usize) -> String {
    if legal.len() > LISTED {
        let (first, last) = (&legal[0], &legal[legal.len() - 1]);
        return format!("legal: {} actions, {first} ... {last} (? lists them)\n", legal.len());
    }
    let items = legal.iter().enumerate().map(|(i, text)| format!("{}) {text}", i + 1));
    wrap("legal: ", items, "  ", "legal: ".len(), width)
}

/// What a typed line comes to: an action, nothing (an empty line, a help request: ask again),
/// or why it is refused.
fn answer<G: Wire>(
    game: &G,
    view: &G::View<'_>,
    legal: &[String],
    line: &str,
    width: usize,
) -> Result<Option<G::Action>, String> {
    if line.is_empty() {
        return Ok(None);
    }
    if line == "?" || line.eq_ignore_ascii_case("help") {
        let how = "type an action as the list writes it, or its number; where the list gives a size's ends \
                   (`raise 200`, `raise 9900`), any size the rules allow between them may be typed";
        say(&format!("{}{}", wrap("", how.split(' '), " ", 0, width), wrap("legal: ", legal, ", ", 7, width)));
        return Ok(None);
    }
    let text = match line.parse::<usize>() {
        Ok(k) if (1..=legal.len()).contains(&k) => legal[k - 1].as_str(),
        Ok(k) => return Err(format!("no action {k}: the list runs from 1 to {}", legal.len())),
        Err(_) => line,
    };
    let action = game.parse_action(text)?;
    game.judge(view, &action).map_err(|e| format!("not now: {e}"))?;
    Ok(Some(action))
}

impl<G: GameDef> Bot<G> for Human {
    /// Only the host's [`Bot::try_act`] can tell a person who left; asked directly, a person who
    /// left ends the program's game with a panic, which the host counts as a forfeit.
    fn act(&mut self, game: &G, view: &G::View<'_>, _rng: &mut BotRng) -> G::Action {
        self.ask(game, view).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, _game: &G, start: &GameStart<'_>, _rng: &mut BotRng) -> Result<(), Fault> {
        self.seat = start.seat;
        self.names = start.players.iter().map(|player| player.name.clone()).collect();
        let screen = self.screen();
        let others: Vec<String> = (0..self.names.len()).filter(|&s| s != start.seat).map(|s| screen.who(s)).collect();
        let head = format!(
            "=== {} game {}: you are seat {}, against {} ===",
            G::NAME,
            start.game + 1,
            start.seat,
            others.join(", ")
        );
        say(&format!("\n{}", wrap("", head.split(' '), " ", 4, screen.width)));
        Ok(())
    }

    fn try_act(
        &mut self,
        game: &G,
        view: &G::View<'_>,
        _rng: &mut BotRng,
        _deadline: Option<std::time::Instant>,
    ) -> Result<G::Action, Fault> {
        self.ask(game, view)
    }

    fn finish(&mut self, game: &G, state: &G::State, end: &GameEnd<'_>) {
        let text = self.last_screen(game, state, end);
        say(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{DealRng, Game};
    use crate::games::holdem::Holdem;
    use rand::SeedableRng;

    #[test]
    fn a_typed_line_is_an_action_a_number_or_asked_again_with_the_reason() {
        let game = Holdem::new(2, 50, 100, 10_000);
        let state = game.deal(&mut DealRng::seed_from_u64(1));
        let seat = game.to_act(&state).unwrap();
        let view = game.view(&state, seat);
        let legal = game.legal_texts(&view);
        assert_eq!(legal[0], "fold");
        let typed =
            |line: &str| answer(&game, &view, &legal, line, 80).map(|a| a.map(|a| game.action_text(&a).to_string()));
        assert_eq!(typed("1"), Ok(Some("fold".to_string())));
        assert_eq!(typed(" CALL "), Ok(Some("call".to_string())));
        assert_eq!(typed(""), Ok(None));
        // A raise between the listed ends is legal; outside them it is refused with the range.
        let (min, max) = view.raise_bounds().unwrap();
        assert_eq!(typed(&format!("raise {}", min + 1)), Ok(Some(format!("raise {}", min + 1))));
        assert!(typed(&format!("raise {}", max + 1)).unwrap_err().contains("outside"));
        assert!(typed("99").unwrap_err().contains("no action 99"));
        assert!(typed("bet 5").unwrap_err().contains("not a hold'em action"));
    }
}
