//! The `human` bot kind: a person at the terminal plays a seat (`arena play`, or a config that
//! seats `{ kind = "human" }`). Every game has it, through its [`Wire`] encoding: the person
//! sees exactly what a bot outside the process sees ([`Wire::view_text`]), types an action in
//! the game's notation or its number in the legal list, and is asked again, with the rules'
//! reason, until the action is legal ([`Wire::judge`]). The end of the input is a forfeit, as a
//! bot's exit would be.

use std::io::{BufRead, Write};

use crate::core::{factory, BotKind, GameDef};
use crate::core::{readable, Bot, BotRng, Fault, FaultKind, GameEnd, GameStart, Seat, Status, Wire};

/// Legal lists longer than this are summed up (a gomoku board's empty cells).
const LISTED: usize = 30;

/// The `human` kind of game `G`.
pub fn kind<G: GameDef>() -> BotKind<G> {
    BotKind {
        name: "human",
        about: "a person at the terminal: reads the seat's view on stdout, types actions on stdin (arena play)",
        params: &[],
        make: |_, _| Ok(factory(Human::default)),
    }
}

/// A person's seat: what they were told at the start of the game.
#[derive(Debug, Default)]
pub struct Human {
    seat: Seat,
}

/// A line to the person; a closed terminal is not worth a panic (the next read ends the game).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

impl Human {
    /// Shows the view and the legal actions, then reads lines until one is a legal action.
    fn ask<G: Wire>(&self, game: &G, view: &G::View<'_>) -> Result<G::Action, Fault> {
        let legal = game.legal_texts(view);
        say(&format!("\n{}{}", game.view_text(view), menu(&legal)));
        let stdin = std::io::stdin();
        loop {
            say(&format!("seat {}> ", self.seat));
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) => return Err(Fault::new(FaultKind::Crash, "the player left (end of input)")),
                Err(e) => return Err(Fault::new(FaultKind::Crash, format!("cannot read the player's input: {e}"))),
                Ok(_) => {}
            }
            match answer(game, view, &legal, line.trim()) {
                Ok(Some(action)) => return Ok(action),
                Ok(None) => {}
                Err(why) => say(&format!("{why}\n")),
            }
        }
    }
}

/// The legal actions numbered, or summed up when there are many.
fn menu(legal: &[String]) -> String {
    if legal.len() > LISTED {
        let (first, last) = (&legal[0], &legal[legal.len() - 1]);
        return format!("legal: {} actions, {first} ... {last} (? lists them)\n", legal.len());
    }
    let items: Vec<String> = legal.iter().enumerate().map(|(i, text)| format!("{}) {text}", i + 1)).collect();
    format!("legal: {}\n", items.join("  "))
}

/// What a typed line comes to: an action, nothing (an empty line, a help request: ask again),
/// or why it is refused.
fn answer<G: Wire>(game: &G, view: &G::View<'_>, legal: &[String], line: &str) -> Result<Option<G::Action>, String> {
    if line.is_empty() {
        return Ok(None);
    }
    if line == "?" || line.eq_ignore_ascii_case("help") {
        say(&format!(
            "type an action as the list writes it, or its number; where the list gives a size's ends \
             (`raise 200`, `raise 9900`), any size the rules allow between them may be typed\nlegal: {}\n",
            legal.join(", ")
        ));
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
        say(&format!("\n=== {} game {}: you are seat {} ===\n", G::NAME, start.game + 1, start.seat));
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
        let outcome = end.outcome;
        let mut text = String::from("\n=== game over ===\n");
        if let Status::Forfeit { seat, reason } = end.status {
            text.push_str(&format!("seat {seat} forfeits: {reason}\n"));
        }
        for (seat, (payoff, place)) in outcome.payoff.iter().zip(&outcome.place).enumerate() {
            let you = if seat == self.seat { "  (you)" } else { "" };
            text.push_str(&format!("seat {seat}: {payoff:+} (place {place}){you}\n"));
        }
        let reveal = serde_json::to_value(game.reveal(state)).expect("wire values serialise");
        text.push_str(&readable::fields(&reveal));
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
            |line: &str| answer(&game, &view, &legal, line).map(|a| a.map(|a| game.action_text(&a).to_string()));
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
