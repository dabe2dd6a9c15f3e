//! A gomoku bot as a Gomocup ("Piskvork") engine: `arena brain gomoku --bot NAME` reads the
//! manager's commands on stdin and answers on stdout, so Piskvork or any Gomocup manager can
//! seat the project's bots.
//!
//! | command | answer |
//! |---|---|
//! | `START n`, `RECTSTART w,h` (square only), `RESTART` | `OK`: a new empty board (sizes 5 to 25) |
//! | `BEGIN`, `TURN x,y`, `BOARD` … `DONE` | the bot's move `x,y` |
//! | `INFO key value` | none (see below) |
//! | `TAKEBACK x,y` | `OK`: the stone is removed |
//! | `PLAY x,y` | `x,y`: the manager's move is played for the bot |
//! | `SWAP2BOARD` … `DONE` | 0 stones: three from the built-in balanced openings; 3 or 5: the bot stays white and plays the next move |
//! | `ABOUT` | `name="arena-<bot>", version="…", author="bot-arena", country="…"` ([`COUNTRY`]) |
//! | `END`, end of input | none: the brain exits |
//! | anything else | `UNKNOWN …` |
//!
//! A command it cannot carry out (a move off the board or on a stone, a size out of range, a
//! rule it does not play) is answered `ERROR …` and changes nothing. Nothing but these answers is
//! written to stdout; warnings go to stderr.
//!
//! `INFO rule` picks the rule (0 freestyle, 1 exactly five, 4 renju, 8 caro: five or more not
//! blocked at both ends; 9, caro with exactly five, is refused with `ERROR` when a move is asked
//! for). `INFO seed N` (an extension: unknown keys are ignored by other engines) sets the seed of
//! the bot's random stream.
//!
//! Time: the brain keeps to the manager's limits ([`Limits::budget`]). Each move gets
//! `timeout_turn` less a margin ([`margin`]: 30 ms and a tenth of the limit), and when
//! `timeout_match` is set no more than `time_left` shared over the moves still to come; the clock
//! starts when the command is read. A bot that searches (`search`) is given the deadline
//! ([`Bot::think_until`]), which it keeps only when asked (`clock = true`: then it stops there
//! with the best move of its deepest complete search, and its moves depend on the machine's
//! load); by default it keeps to its node budget, the same moves at any load. The other bots
//! answer in microseconds. Without time keys (or with time to spare) the bots play as
//! they do in-process. `max_memory` is read; the bots use a few MiB at most.
//!
//! Determinism: the bot's random stream is `ChaCha8Rng::seed_from_u64(seed)`, `seed` being the
//! last `INFO seed` value or else `--seed` (default 0). It starts afresh, with a fresh bot, at
//! every `START`, `RECTSTART`, `RESTART`, `BOARD` and `INFO seed`, so the same session always
//! gets the same answers, and a game played through the protocol gets the moves the same bot
//! makes in-process from the same stream.
//!
//! Colours: the brain plays the side to move when asked. After `BOARD` that is black when both
//! sides have as many stones, white when the opponent has one more (anything else is an `ERROR`);
//! the stones of each colour are laid in the order sent, alternating black and white.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use super::{Book, Gomoku, Move, Rule, State};
use crate::core::{Bot, BotFactory, BotRng, Engine, EngineBot, EngineNames};

/// The balanced 15×15 freestyle openings shipped with the project (three stones each), which
/// SWAP2BOARD draws from when asked to open.
pub const BALANCED_OPENINGS: &str = include_str!("../../../openings/freestyle-15.txt");

/// ABOUT's `country`, which Gomocup's tester asks for: the project has no single country.
pub const COUNTRY: &str = "International";

/// Board sizes the bots play.
const SIZES: std::ops::RangeInclusive<usize> = 5..=25;

/// A bot ready to be seated: its kind, checked parameters and the name it gives in ABOUT.
pub type BrainBot = EngineBot<Gomoku>;

/// Gomocup's engine protocol, as the registry offers it (`arena brain gomoku`).
pub fn engine() -> Engine<Gomoku> {
    Engine {
        names: EngineNames { protocol: "Gomocup", program_prefix: Some("pbrain-"), default_bot: "search" },
        // START and INFO rule say what the board is.
        table: None,
        // On the standard board, so that a bad value is an error before the manager starts a game.
        check: |bot| (bot.kind.make)(&bot.params, &Gomoku::new(15, Rule::Freestyle, 0)).map(drop),
        serve: |bot, seed, input, output| Brain::new(bot, seed).serve(input, output),
    }
}

/// The limits the manager announced, in milliseconds (`max_memory` in bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `INFO timeout_turn`: the most one move may take.
    pub timeout_turn: Option<i64>,
    /// `INFO timeout_match`: the most the whole match may take (0: no limit).
    pub timeout_match: Option<i64>,
    /// `INFO time_left`: what is left of the match's time.
    pub time_left: Option<i64>,
    /// `INFO max_memory`: the memory the engine may use (0: no limit).
    pub max_memory: Option<i64>,
}

/// What the brain keeps back from a time limit of `ms` for reading, writing and the manager's
/// own measuring: 30 ms and a tenth of the limit.
pub fn margin(ms: i64) -> i64 {
    30 + ms / 10
}

/// Own moves a match's remaining time is shared over, at most (fewer as the board fills).
const MOVES_AHEAD: i64 = 25;

impl Limits {
    /// The time one move may take with `empty` cells left, or `None` when no limit was given.
    /// `timeout_turn` 0 is Gomocup's "as fast as possible": no time at all (the bot stops at its
    /// first look at the clock). `time_left` counts only with a `timeout_match` above 0 (0: no
    /// match limit).
    pub fn budget(&self, empty: usize) -> Option<Duration> {
        let turn = self.timeout_turn.map(|t| t - margin(t));
        let of_match = match (self.timeout_match, self.time_left) {
            (Some(m), Some(left)) if m > 0 => {
                let ahead = (empty as i64 / 2).clamp(1, MOVES_AHEAD);
                Some((left / ahead).min(left - margin(left)))
            }
            _ => None,
        };
        let ms = match (turn, of_match) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(Duration::from_millis(ms.max(0) as u64))
    }
}

/// One engine session: the board, the bot and its random stream.
pub struct Brain {
    bot: BrainBot,
    seed: u64,
    rule: Rule,
    /// Why moves are refused (a rule the bots do not play), until the next INFO rule.
    unsupported: Option<String>,
    /// The limits the manager has announced so far; they bound the bot's clock.
    pub limits: Limits,
    /// The table; `None` before START.
    game: Option<Gomoku>,
    factory: Option<BotFactory<Gomoku>>,
    player: Option<Box<dyn Bot<Gomoku>>>,
    rng: BotRng,
    /// The position; the side to move is the brain's whenever it is asked for a move.
    state: State,
    /// When the command being answered was read: the move's clock starts there.
    received: Instant,
}

/// What a command line asks.
enum Command<'a> {
    Start(&'a str),
    RectStart(&'a str),
    Restart,
    Begin,
    Turn(&'a str),
    Board,
    Info(&'a str, &'a str),
    End,
    About,
    Takeback(&'a str),
    Play(&'a str),
    Swap2Board,
    Unknown(&'a str),
}

impl<'a> Command<'a> {
    fn parse(line: &'a str) -> Command<'a> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_uppercase().as_str() {
            "START" => Command::Start(rest),
            "RECTSTART" => Command::RectStart(rest),
            "RESTART" => Command::Restart,
            "BEGIN" => Command::Begin,
            "TURN" => Command::Turn(rest),
            "BOARD" => Command::Board,
            "INFO" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                Command::Info(key, value.trim())
            }
            "END" => Command::End,
            "ABOUT" => Command::About,
            "TAKEBACK" => Command::Takeback(rest),
            "PLAY" => Command::Play(rest),
            "SWAP2BOARD" => Command::Swap2Board,
            _ => Command::Unknown(word),
        }
    }
}

/// `x,y` (spaces allowed around the numbers).
fn coordinates(text: &str) -> Result<(i64, i64), String> {
    let bad = || format!("bad coordinates `{text}`: expected x,y");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    Ok((x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?))
}

/// Reads one line (lossy UTF-8, line end and surrounding spaces trimmed); `None` at the end.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&bytes).trim().to_string()))
}

/// The lines of a BOARD or SWAP2BOARD block, up to DONE; `None` if the input ends first.
fn read_block(input: &mut impl BufRead) -> io::Result<Option<Vec<String>>> {
    let mut lines = Vec::new();
    while let Some(line) = read_line(input)? {
        if line.eq_ignore_ascii_case("DONE") {
            return Ok(Some(lines));
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    Ok(None)
}

/// Stones in colour order: black first, alternating (`black` has as many as `white`, or one more).
fn alternate(black: &[Move], white: &[Move]) -> Vec<Move> {
    let mut moves = Vec::with_capacity(black.len() + white.len());
    for (i, &b) in black.iter().enumerate() {
        moves.push(b);
        moves.extend(white.get(i));
    }
    moves
}

impl Brain {
    /// An engine that plays `bot`, its random stream seeded with `seed`, waiting for START.
    pub fn new(bot: BrainBot, seed: u64) -> Brain {
        Brain {
            bot,
            seed,
            rule: Rule::Freestyle,
            unsupported: None,
            limits: Limits::default(),
            game: None,
            factory: None,
            player: None,
            rng: BotRng::seed_from_u64(seed),
            state: State::new(0),
            received: Instant::now(),
        }
    }

    /// Serves one session: reads commands until END or the end of the input.
    pub fn serve(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        while let Some(line) = read_line(&mut input)? {
            self.received = Instant::now();
            if line.is_empty() {
                continue;
            }
            let answer = match Command::parse(&line) {
                Command::End => return Ok(()),
                Command::Board => match read_block(&mut input)? {
                    Some(lines) => Some(self.board(&lines)),
                    None => return Ok(()),
                },
                Command::Swap2Board => match read_block(&mut input)? {
                    Some(lines) => Some(self.swap2(&lines)),
                    None => return Ok(()),
                },
                command => self.answer(command),
            };
            if let Some(answer) = answer {
                writeln!(output, "{answer}")?;
                output.flush()?;
            }
        }
        Ok(())
    }

    /// The answer to a one-line command (`None`: INFO, which is never answered).
    fn answer(&mut self, command: Command) -> Option<String> {
        let answer = match command {
            Command::Start(size) => self.start(size.parse().map_err(|_| format!("bad board size `{size}`"))),
            Command::RectStart(dims) => match coordinates(dims) {
                Ok((w, h)) if w == h => self.start(usize::try_from(w).map_err(|_| format!("bad board size {w}"))),
                Ok(_) => Err("rectangular boards are not supported".into()),
                Err(e) => Err(e),
            },
            Command::Restart => self.table().map(|_| ()).map(|()| {
                self.new_game(true);
                "OK".into()
            }),
            Command::Begin => self.table().map(|_| ()).and_then(|()| self.think()),
            Command::Turn(at) => self.cell(at).and_then(|m| {
                put(&mut self.state, m);
                self.think()
            }),
            Command::Takeback(at) => self.cell_taken(at).and_then(|m| self.take_back(m)).map(|_| "OK".into()),
            Command::Play(at) => self.cell(at).map(|m| {
                put(&mut self.state, m);
                format!("{},{}", m.x, m.y)
            }),
            Command::Info(key, value) => {
                self.info(key, value);
                return None;
            }
            Command::About => Ok(format!(
                "name=\"arena-{}\", version=\"{}\", author=\"bot-arena\", country=\"{COUNTRY}\"",
                self.bot.name,
                env!("CARGO_PKG_VERSION")
            )),
            Command::Unknown(word) => return Some(format!("UNKNOWN command `{word}`")),
            Command::End | Command::Board | Command::Swap2Board => unreachable!("handled by serve"),
        };
        Some(answer.unwrap_or_else(|e| format!("ERROR {e}")))
    }

    /// START / RECTSTART: a new board of `size`.
    fn start(&mut self, size: Result<usize, String>) -> Result<String, String> {
        let size = size?;
        if !SIZES.contains(&size) {
            return Err(format!("unsupported size {size} (the bots play {} to {})", SIZES.start(), SIZES.end()));
        }
        self.game = Some(Gomoku::new(size, self.rule, 0));
        self.new_game(true);
        Ok("OK".into())
    }

    /// The table, or the error of a command sent before START.
    fn table(&self) -> Result<&Gomoku, String> {
        self.game.as_ref().ok_or_else(|| "no board: START first".to_string())
    }

    /// A fresh bot and random stream; `clear` also empties the board.
    fn new_game(&mut self, clear: bool) {
        let Some(game) = &self.game else { return };
        if clear {
            self.state = State::new(game.size);
        }
        let factory = self.factory.get_or_insert_with(|| {
            (self.bot.kind.make)(&self.bot.params, game).expect("the bot's parameters were checked for gomoku")
        });
        self.player = Some(factory());
        self.rng = BotRng::seed_from_u64(self.seed);
    }

    /// An empty cell of the board.
    fn cell(&self, text: &str) -> Result<Move, String> {
        let m = self.on_board(text)?;
        if self.state.cell(m.x as usize, m.y as usize) != 0 {
            return Err(format!("{},{} is taken", m.x, m.y));
        }
        Ok(m)
    }

    /// A cell holding a stone.
    fn cell_taken(&self, text: &str) -> Result<Move, String> {
        let m = self.on_board(text)?;
        if self.state.cell(m.x as usize, m.y as usize) == 0 {
            return Err(format!("{},{} is empty", m.x, m.y));
        }
        Ok(m)
    }

    fn on_board(&self, text: &str) -> Result<Move, String> {
        let n = self.table()?.size as i64;
        let (x, y) = coordinates(text)?;
        if !(0..n).contains(&x) || !(0..n).contains(&y) {
            return Err(format!("{x},{y} is off the {n}x{n} board"));
        }
        Ok(Move { x: x as u8, y: y as u8 })
    }

    /// TAKEBACK: removes the stone; the others keep their colours (the last stone simply goes).
    fn take_back(&mut self, m: Move) -> Result<(), String> {
        let (mut black, mut white): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
        for (i, &s) in self.state.moves.iter().enumerate() {
            if s != m {
                if i % 2 == 0 { &mut black } else { &mut white }.push(s);
            }
        }
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return Err(format!(
                "taking {},{} back leaves {} black and {} white stones",
                m.x,
                m.y,
                black.len(),
                white.len()
            ));
        }
        self.state = position(self.state.size, &alternate(&black, &white));
        Ok(())
    }

    /// BOARD: a new position (`x,y,1` the brain's stones, `x,y,2` the opponent's), then a move.
    fn board(&mut self, lines: &[String]) -> String {
        self.impose(lines).and_then(|_| self.think()).unwrap_or_else(|e| format!("ERROR {e}"))
    }

    fn impose(&mut self, lines: &[String]) -> Result<(), String> {
        let size = self.table()?.size;
        let (mut own, mut theirs) = (Vec::new(), Vec::new());
        let mut seen = vec![false; size * size];
        for line in lines {
            let (at, field) = match line.rsplit_once(',') {
                Some((at, field)) if at.contains(',') => (at, field),
                _ => return Err(format!("bad BOARD line `{line}`: expected x,y,field")),
            };
            let m = self.on_board(at)?;
            let cell = m.y as usize * size + m.x as usize;
            if std::mem::replace(&mut seen[cell], true) {
                return Err(format!("{},{} is given twice", m.x, m.y));
            }
            match field.trim() {
                "1" => own.push(m),
                "2" => theirs.push(m),
                "3" => return Err("continuous games (field 3) are not supported".into()),
                other => return Err(format!("bad field `{other}` in `{line}`: 1 own stone, 2 the opponent's")),
            }
        }
        let moves = if own.len() == theirs.len() {
            alternate(&own, &theirs)
        } else if theirs.len() == own.len() + 1 {
            alternate(&theirs, &own)
        } else {
            return Err(format!(
                "cannot tell the colours: {} own stones and {} of the opponent's (the side to move has as many, or one fewer)",
                own.len(),
                theirs.len()
            ));
        };
        self.new_game(false);
        self.state = position(size, &moves);
        Ok(())
    }

    /// SWAP2BOARD: open with three stones, or answer the opening as white.
    fn swap2(&mut self, lines: &[String]) -> String {
        self.swap2_answer(lines).unwrap_or_else(|e| format!("ERROR {e}"))
    }

    fn swap2_answer(&mut self, lines: &[String]) -> Result<String, String> {
        let game = self.table()?.clone();
        match lines.len() {
            0 => {
                let book = Book::from_text("built-in openings", BALANCED_OPENINGS, &game).map_err(|e| e.to_string())?;
                let stones = &book.openings[self.rng.random_range(0..book.openings.len())];
                Ok(stones.iter().map(|m| format!("{},{}", m.x, m.y)).collect::<Vec<_>>().join(" "))
            }
            3 | 5 => {
                let mut stones = Vec::new();
                for line in lines {
                    let m = self.on_board(line)?;
                    if stones.contains(&m) {
                        return Err(format!("{},{} is given twice", m.x, m.y));
                    }
                    stones.push(m);
                }
                let state = position(game.size, &stones);
                let m = self.choose(&game, &state)?;
                Ok(format!("{},{}", m.x, m.y))
            }
            n => Err(format!("SWAP2BOARD with {n} stones (0, 3 or 5 expected)")),
        }
    }

    /// The bot's move in the position, played on the board.
    fn think(&mut self) -> Result<String, String> {
        let (game, state) = (self.table()?.clone(), self.state.clone());
        let m = self.choose(&game, &state)?;
        put(&mut self.state, m);
        Ok(format!("{},{}", m.x, m.y))
    }

    /// Asks the bot for a move in `state` (a panic or an impossible move is an error).
    fn choose(&mut self, game: &Gomoku, state: &State) -> Result<Move, String> {
        if let Some(why) = &self.unsupported {
            return Err(why.clone());
        }
        if !state.board.contains(&0) {
            return Err("the board is full".into());
        }
        if self.player.is_none() {
            self.new_game(false);
        }
        let (player, rng) = (self.player.as_mut().expect("a bot"), &mut self.rng);
        let empty = state.board.iter().filter(|&&c| c == 0).count();
        if let Some(budget) = self.limits.budget(empty) {
            player.think_until(self.received + budget);
        }
        let m = catch_unwind(AssertUnwindSafe(|| player.act(game, &state, rng))).map_err(|_| "the bot panicked")?;
        if m.x as usize >= game.size || m.y as usize >= game.size || state.cell(m.x as usize, m.y as usize) != 0 {
            return Err(format!("the bot chose {},{}, which is not an empty cell", m.x, m.y));
        }
        Ok(m)
    }

    /// INFO: records the value; a bad value is ignored with a warning on stderr (INFO has no answer).
    fn info(&mut self, key: &str, value: &str) {
        let number = || value.parse::<i64>().ok();
        let key = key.to_ascii_lowercase();
        let slot = match key.as_str() {
            "timeout_turn" => &mut self.limits.timeout_turn,
            "timeout_match" => &mut self.limits.timeout_match,
            "time_left" => &mut self.limits.time_left,
            "max_memory" => &mut self.limits.max_memory,
            "rule" => {
                match number() {
                    Some(bits) => self.set_rule(bits),
                    None => warn(format_args!("arena brain: ignoring INFO rule `{value}` (not a number)")),
                }
                return;
            }
            "seed" => {
                match value.parse::<u64>() {
                    Ok(seed) => {
                        self.seed = seed;
                        self.new_game(false);
                    }
                    Err(_) => {
                        warn(format_args!("arena brain: ignoring INFO seed `{value}` (not a number from 0 to 2^64-1)"))
                    }
                }
                return;
            }
            _ => return, // game_type, evaluate, folder and keys of other managers
        };
        match number() {
            Some(v) => *slot = Some(v),
            None => warn(format_args!("arena brain: ignoring INFO {key} `{value}` (not a number)")),
        }
    }

    /// INFO rule: a bitmask of 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    fn set_rule(&mut self, bits: i64) {
        self.unsupported = (bits & 9 == 9 && bits & 4 == 0)
            .then(|| format!("rule {bits}: caro (8) with exactly five (1) is not supported"));
        let rule = if bits & 4 != 0 {
            Rule::Renju
        } else if bits & 8 != 0 {
            Rule::Caro
        } else if bits & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        if rule != self.rule {
            self.rule = rule;
            if let Some(game) = &mut self.game {
                game.rule = rule;
            }
            // The bots read the rule when they are built.
            self.factory = None;
            self.new_game(false);
        }
    }
}

/// The position after `moves` (black first, alternating), stones laid without judging them.
fn position(size: usize, moves: &[Move]) -> State {
    let mut s = State::new(size);
    for &m in moves {
        put(&mut s, m);
    }
    s
}

/// Lays a stone of the side to move on the empty cell `m` (the manager judges the game).
fn put(s: &mut State, m: Move) {
    s.board[m.y as usize * s.size + m.x as usize] = 1 + s.to_move() as u8;
    s.moves.push(m);
}

/// A note on stderr for whoever runs the engine; not `eprintln!`, which panics when nobody reads
/// stderr any more (a manager that closed it has no use for notes).
fn warn(args: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "{args}");
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::core::Game;

    fn bot(kind: &str) -> BrainBot {
        let kind = super::super::bots::BOT_KINDS.iter().find(|k| k.name == kind).unwrap();
        let params = crate::core::Params::new(kind.params, &toml::Table::new(), "test").unwrap();
        BrainBot::new(kind.name.to_string(), kind.clone(), params)
    }

    /// The answers to a script, one string per line.
    fn session(kind: &str, seed: u64, script: &str) -> Vec<String> {
        let mut out = Vec::new();
        Brain::new(bot(kind), seed).serve(Cursor::new(script), &mut out).unwrap();
        String::from_utf8(out).unwrap().lines().map(str::to_string).collect()
    }

    fn mv(answer: &str) -> Move {
        let (x, y) = coordinates(answer).unwrap_or_else(|e| panic!("{answer}: {e}"));
        Move { x: x as u8, y: y as u8 }
    }

    #[test]
    fn answers_every_mandatory_command() {
        let out = session(
            "weights",
            0,
            "ABOUT\nSTART 15\nINFO timeout_turn 1000\nINFO time_left 5000\nBEGIN\nTURN 0,0\nEND\nBEGIN\n",
        );
        assert_eq!(out.len(), 4, "{out:?}");
        assert_eq!(
            out[0],
            format!(
                "name=\"arena-weights\", version=\"{}\", author=\"bot-arena\", country=\"International\"",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(out[1], "OK");
        let (first, second) = (mv(&out[2]), mv(&out[3]));
        assert!(first.x < 15 && first.y < 15);
        assert!(second != first && second != Move { x: 0, y: 0 } && second.x < 15 && second.y < 15);
    }

    #[test]
    fn bad_commands_get_one_error_line_and_change_nothing() {
        let script = "TURN 1,1\nBEGIN\nSTART 4\nSTART 26\nSTART x\nRECTSTART 20,15\nRECTSTART 15,15\nTURN 15,0\nTURN 1\nTURN 7,7\n\
                      TURN 7,7\nHELLO there\nTAKEBACK 0,0\nBOARD\n1,1,1\n1,1,2\nDONE\nBOARD\n1,1,1\n2,2,1\nDONE\nBOARD\n1,1,3\nDONE\n\
                      BOARD\n1,1\nDONE\nSWAP2BOARD\n1,1\nDONE\nEND\n";
        let out = session("search", 0, script);
        let expected_start = [
            "ERROR no board: START first",
            "ERROR no board: START first",
            "ERROR unsupported size 4 (the bots play 5 to 25)",
            "ERROR unsupported size 26 (the bots play 5 to 25)",
            "ERROR bad board size `x`",
            "ERROR rectangular boards are not supported",
            "OK",
            "ERROR 15,0 is off the 15x15 board",
            "ERROR bad coordinates `1`: expected x,y",
        ];
        assert_eq!(out[..9], expected_start);
        let reply = mv(&out[9]); // TURN 7,7 is played and answered
        assert_ne!(reply, Move { x: 7, y: 7 });
        assert_eq!(
            out[10..],
            [
                "ERROR 7,7 is taken",
                "UNKNOWN command `HELLO`",
                "ERROR 0,0 is empty",
                "ERROR 1,1 is given twice",
                "ERROR cannot tell the colours: 2 own stones and 0 of the opponent's (the side to move has as many, or one fewer)",
                "ERROR continuous games (field 3) are not supported",
                "ERROR bad BOARD line `1,1`: expected x,y,field",
                "ERROR SWAP2BOARD with 1 stones (0, 3 or 5 expected)",
            ]
        );
    }

    #[test]
    fn board_order_does_not_matter_and_colours_follow_the_counts() {
        // The opponent opens at 7,7; the brain (search: deterministic) answers `first`.
        let first = session("search", 0, "START 15\nTURN 7,7\n")[1].clone();
        let third = if first == "7,9" { "9,7" } else { "7,9" };
        // Three stones, black, white, black: the brain is white (one stone fewer), in any order.
        let ordered = session("search", 0, &format!("START 15\nBOARD\n7,7,2\n{first},1\n{third},2\nDONE\n"));
        let shuffled = session("search", 0, &format!("START 15\nBOARD\n{third},2\n{first},1\n7,7,2\nDONE\n"));
        assert_eq!(ordered, shuffled);
        // The same position reached move by move gets the same answer.
        let by_moves = session("search", 0, &format!("START 15\nTURN 7,7\nTURN {third}\n"));
        assert_eq!(by_moves[1..], [first, ordered[1].clone()]);
    }

    #[test]
    fn restart_and_takeback_replay_the_same_answers() {
        let game = "TURN 7,7\nTURN 9,9\nTURN 5,5\n";
        let out = session("weights", 3, &format!("START 15\n{game}RESTART\n{game}"));
        assert_eq!(out[1..4], out[5..8]);
        assert_eq!(out[4], "OK");
        // Take back the last two stones (the brain's answer and the opponent's move) and replay:
        // the search bot is deterministic, so it answers the same.
        let out = session("search", 0, "START 15\nTURN 7,7\nTURN 9,9\n");
        let last = &out[2];
        let again =
            session("search", 0, &format!("START 15\nTURN 7,7\nTURN 9,9\nTAKEBACK {last}\nTAKEBACK 9,9\nTURN 9,9\n"));
        assert_eq!(again[3..], ["OK", "OK", last.as_str()]);
    }

    #[test]
    fn info_seed_is_the_seed_of_the_bots_stream() {
        let game = "TURN 7,7\nTURN 9,9\nTURN 5,5\nTURN 3,3\n";
        let by_flag = session("random", 42, &format!("START 15\n{game}"));
        let by_info = session("random", 0, &format!("START 15\nINFO seed 42\n{game}"));
        assert_eq!(by_flag, by_info);
        assert_ne!(by_flag, session("random", 0, &format!("START 15\n{game}")));
    }

    /// The brain's moves are the moves the same bot makes in-process from the same stream.
    #[test]
    fn plays_as_the_bot_plays_in_process() {
        let game = Gomoku::new(15, Rule::Freestyle, 0);
        let make = |kind: &str| {
            let b = bot(kind);
            (b.kind.make)(&b.params, &game).unwrap()()
        };
        for kind in ["weights", "search", "random-adjacent"] {
            let (mut player, mut rng) = (make(kind), BotRng::seed_from_u64(9));
            let (mut opponent, mut opponent_rng) = (make("random-adjacent"), BotRng::seed_from_u64(1));
            let mut s = game.deal(&mut crate::core::DealRng::seed_from_u64(0));
            let (mut script, mut expected) = ("START 15\n".to_string(), vec!["OK".to_string()]);
            while game.to_act(&s).is_some() {
                let theirs = opponent.act(&game, &&s, &mut opponent_rng);
                game.apply(&mut s, &theirs).unwrap();
                script.push_str(&format!("TURN {},{}\n", theirs.x, theirs.y));
                if game.to_act(&s).is_none() {
                    break;
                }
                let ours = player.act(&game, &&s, &mut rng);
                game.apply(&mut s, &ours).unwrap();
                expected.push(format!("{},{}", ours.x, ours.y));
            }
            assert!(expected.len() > 5);
            assert_eq!(session(kind, 9, &script), expected, "{kind}");
        }
    }

    #[test]
    fn under_renju_black_avoids_its_forbidden_points() {
        // Black (the brain, to move with 4 stones each) has two open twos crossing at 5,5: a
        // double three. Freestyle bots take it; under renju they may not.
        let board = "BOARD\n3,5,1\n4,5,1\n5,3,1\n5,4,1\n0,0,2\n14,0,2\n0,14,2\n14,14,2\nDONE\n";
        for kind in ["weights", "search"] {
            assert_eq!(session(kind, 0, &format!("START 15\n{board}"))[1], "5,5", "{kind} in freestyle");
            assert_ne!(session(kind, 0, &format!("START 15\nINFO rule 4\n{board}"))[1], "5,5", "{kind} in renju");
        }
        let picks = |rule: u32| -> Vec<String> {
            (0..60)
                .map(|seed| {
                    session("random-adjacent", seed, &format!("START 15\nINFO rule {rule}\n{board}"))[1].clone()
                })
                .collect()
        };
        assert!(picks(0).iter().any(|m| m == "5,5"), "a random neighbour is sometimes the crossing");
        assert!(picks(4).iter().all(|m| m != "5,5"));
        // Caro with exactly five is refused when a move is asked for; exactly five is played.
        let out = session("weights", 0, "START 15\nINFO rule 9\nBEGIN\nINFO rule 1\nBEGIN\n");
        assert_eq!(out[1], "ERROR rule 9: caro (8) with exactly five (1) is not supported");
        assert_eq!(out[2], session("weights", 0, "START 15\nINFO rule 1\nBEGIN\n")[1]);
    }

    #[test]
    fn the_budget_keeps_a_margin_and_shares_the_match() {
        let ms = |l: Limits, empty: usize| l.budget(empty).map(|d| d.as_millis() as i64);
        assert_eq!(ms(Limits::default(), 225), None, "no time keys: no clock");
        let turn = Limits { timeout_turn: Some(200), ..Limits::default() };
        assert_eq!(ms(turn, 225), Some(150));
        assert_eq!(ms(Limits { timeout_turn: Some(0), ..turn }, 225), Some(0), "as fast as possible");
        // time_left counts only under a match limit (timeout_match 0: none).
        let unlimited = Limits { timeout_match: Some(0), time_left: Some(1000), ..turn };
        assert_eq!(ms(unlimited, 225), Some(150));
        let matched = Limits { timeout_match: Some(60_000), time_left: Some(2_500), ..turn };
        assert_eq!(ms(matched, 225), Some(100), "2.5 s over 25 moves");
        assert_eq!(ms(matched, 3), Some(150), "one move left: the turn's limit");
        let short =
            Limits { timeout_match: Some(60_000), time_left: Some(40), timeout_turn: Some(5000), max_memory: None };
        assert_eq!(ms(short, 2), Some(6), "40 ms left: 40 less 30 less 4");
    }

    /// On a clock (`clock = true`), a search that would take seconds answers in time; without
    /// one the brain plays the move of its node budget (the other tests).
    #[test]
    fn a_deep_search_answers_inside_timeout_turn() {
        let kind = super::super::bots::BOT_KINDS.iter().find(|k| k.name == "search").unwrap();
        let table: toml::Table = toml::from_str("depth = 8\nwidth = 8\nclock = true").unwrap();
        let params = crate::core::Params::new(kind.params, &table, "test").unwrap();
        let deep = BrainBot::new("deep".into(), kind.clone(), params);
        let script = "START 15\nINFO timeout_turn 100\nBOARD\n7,7,2\n8,8,1\n7,8,2\nDONE\nTURN 9,9\nTURN 5,5\n";
        let began = std::time::Instant::now();
        let mut out = Vec::new();
        Brain::new(deep, 0).serve(Cursor::new(script), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.lines().count(), 4, "{out}");
        out.lines().skip(1).for_each(|m| {
            mv(m);
        });
        assert!(began.elapsed() < std::time::Duration::from_millis(3 * 100 + 150), "{:?}", began.elapsed());
    }

    #[test]
    fn swap2_opens_from_the_balanced_set_or_answers_as_white() {
        let book = Book::from_text("b", BALANCED_OPENINGS, &Gomoku::new(15, Rule::Freestyle, 0)).unwrap();
        let out = session("search", 5, "START 15\nSWAP2BOARD\nDONE\nSWAP2BOARD\n7,7\n8,7\n9,9\nDONE\nSWAP2BOARD\n7,7\n8,7\n9,9\n8,8\n8,6\nDONE\nBEGIN\n");
        let opened: Vec<Move> = out[1].split(' ').map(mv).collect();
        assert!(book.openings.contains(&opened), "{opened:?}");
        for (answer, stones) in [(&out[2], "7,7 8,7 9,9"), (&out[3], "7,7 8,7 9,9 8,8 8,6")] {
            assert!(!stones.split(' ').any(|s| s == answer), "{answer} is free");
            mv(answer);
        }
        assert_eq!(out[4], session("search", 5, "START 15\nBEGIN\n")[1], "SWAP2BOARD leaves the board as it was");
        let out = session("search", 0, "START 15\nPLAY 3,3\nTURN 7,7\nEND\n");
        assert_eq!(out[1], "3,3");
        assert_ne!(out[2], "3,3");
    }
}
