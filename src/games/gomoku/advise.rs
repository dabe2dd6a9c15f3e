//! `arena advise gomoku`: a position as the document's bot (`weights`, document 002) sees it. The
//! board, whose move it is, and the cells the bot ranks highest with their attack and defence
//! scores, computed by the bot's own [`cell_scores`] and chosen by its own [`best_cells`]: the
//! cell marked is the one the bot plays (one of them, at random, when several tie).
//!
//! ```text
//! arena advise gomoku --moves "7,7 8,8 ..." [--size 15] [--rule freestyle] [--top 5]
//!                     [--bot weights --param own=[...] --param opp=[...]] [--explain]
//! ```
//! `--moves` lists the stones played, black first, as `x,y` from 0 (x the column), the notation of
//! games.csv's `move_list`. `--explain` breaks the bot's cell's two scores into the lines through
//! it, grouped by the stones in them: each group's count times its weight.

use crate::core::roster::{bot_from_args, OwnKinds};

use crate::core::GameDef;
use crate::core::Wire;
use crate::error::{Error, Result};

use super::bots::weights::{self, best_cells, cell_scores, lines_through, CellScore, Weights};
use super::{makes_five, Gomoku, Move, Rule, State};

#[derive(clap::Args, Debug)]
pub struct AdviseArgs {
    /// The stones played, black first: `x,y` from 0 (x the column) separated by spaces, as in
    /// games.csv's move_list, e.g. "7,7 8,8 7,8"
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Board size (cells a side, 5 to 25)
    #[arg(long, default_value_t = 15)]
    pub size: u32,
    /// freestyle, standard or renju (under renju black's forbidden points are never advised)
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// How many cells to show, best first
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// The bot followed: weights or a roster variant of it (weights-defensive, ...)
    #[arg(long, default_value = "weights")]
    pub bot: String,
    /// A parameter of that bot, name=value (own=[1,2,8,32,128], opp=[1,5,10,30,120])
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Also show how the bot's cell's attack and defence are formed, line by line
    #[arg(long)]
    pub explain: bool,
}

/// Black (side 0) and white, as the text names them.
const SIDES: [&str; 2] = ["black", "white"];

/// The table the position is on: the game's own options, checked as a config's are.
fn table(a: &AdviseArgs) -> Result<Gomoku> {
    let mut given = toml::Table::new();
    given.insert("size".into(), i64::from(a.size).into());
    given.insert("rule".into(), a.rule.clone().into());
    let options = crate::core::Params::new(Gomoku::OPTIONS, &given, "the board (--size, --rule)")?;
    Gomoku::from_options(&options, 2)
}

/// The position after `--moves`, read with the game's own move parser and judged by its rules.
fn position(game: &Gomoku, moves: &str) -> Result<State> {
    let stones = moves
        .split_whitespace()
        .map(|m| game.parse_action(m).map_err(|e| Error::input(format!("--moves: {e}"))))
        .collect::<Result<Vec<Move>>>()?;
    game.start(&stones).map_err(|(i, why)| Error::input(format!("--moves: move {}: {why}", i + 1)))
}

/// The bot's weights, from `--bot` (weights or a roster variant) and `--param`.
fn bot_weights(a: &AdviseArgs) -> Result<(String, Weights)> {
    let (kind, params) = bot_from_args(&OwnKinds::<super::Gomoku>::new(), &a.bot, &a.params)?;
    if kind != weights::KIND.name {
        return Err(Error::input(format!(
            "--bot: the adviser follows weights and its variants, not `{}` ({kind})",
            a.bot
        )));
    }
    Ok((kind, weights::weights(&params, &format!("bot `{}`", a.bot))?))
}

fn cell_text(size: usize, cell: usize) -> String {
    format!("{},{}", cell % size, cell / size)
}

/// A line of five by its end cells: `3,7-7,7`.
fn line_text(size: usize, line: &[u16; 5]) -> String {
    format!("{}-{}", cell_text(size, line[0] as usize), cell_text(size, line[4] as usize))
}

/// What `arena advise gomoku` prints: the text (`Display`), or the JSON with `--json`
/// (`Serialize`, in this order).
#[derive(Debug, serde::Serialize)]
pub struct Answer {
    game: &'static str,
    size: usize,
    rule: &'static str,
    moves: Vec<String>,
    to_move: &'static str,
    bot: String,
    kind: String,
    own: [i32; 5],
    opp: [i32; 5],
    best_attack: Option<i32>,
    best_defence: Option<i32>,
    /// The score the bot plays by; none when every cell is forbidden.
    plays: Option<&'static str>,
    /// The cells the bot plays (one of, at random).
    bot_cells: Vec<String>,
    /// The `--top` cells shown, best first.
    cells: Vec<CellAnswer>,
    wins_at: Vec<String>,
    explain: Option<Explained>,
    /// The board as text.
    #[serde(skip)]
    picture: String,
}

#[derive(Debug, serde::Serialize)]
struct CellAnswer {
    cell: String,
    attack: i32,
    defence: i32,
    /// Whether the bot plays it (or ties for it).
    bot: bool,
}

/// The top cell's two scores, line by line.
#[derive(Debug, serde::Serialize)]
struct Explained {
    cell: String,
    attack: Score,
    defence: Score,
}

#[derive(Debug, serde::Serialize)]
struct Score {
    score: i32,
    /// The side whose stones count.
    side: &'static str,
    /// One group a number of stones, most first.
    terms: Vec<Term>,
}

#[derive(Debug, serde::Serialize)]
struct Term {
    stones: usize,
    lines: Vec<String>,
    weight: i32,
    points: i32,
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let me = usize::from(self.to_move == SIDES[1]);
        f.write_str(&self.picture)?;
        let last = self.moves.last().map_or(String::new(), |m| format!(", after {m}"));
        writeln!(f, "{} ({}) to move: move {}{last}", self.to_move, ["x", "o"][me], self.moves.len() + 1)?;
        let name = if self.bot == self.kind { self.kind.clone() } else { format!("{} ({})", self.bot, self.kind) };
        writeln!(f, "bot {name}: own {:?}, opp {:?}", self.own, self.opp)?;
        match (self.best_attack, self.best_defence) {
            (Some(attack), Some(defence)) => {
                let (higher, what) = if self.plays == Some("defence") { (">", "defence") } else { ("<=", "attack") };
                writeln!(
                    f,
                    "best attack {attack}, best defence {defence} ({defence} {higher} {attack}): the bot plays the best {what}, ties by the other score"
                )?
            }
            _ => writeln!(f, "every empty cell is forbidden to black: the bot's move loses")?,
        }
        writeln!(f, "{:>6}  {:>7}  {:>7}", "cell", "attack", "defence")?;
        let ties = self.bot_cells.len();
        for c in &self.cells {
            let mark = match (c.bot, ties) {
                (false, _) => "",
                (true, 1) => "  <- the bot plays this",
                (true, _) => "  <- tied best",
            };
            writeln!(f, "{:>6}  {:>7}  {:>7}{mark}", c.cell, c.attack, c.defence)?;
        }
        if ties > 1 {
            let shown = self.cells.len();
            let beyond = if ties > shown { format!(" ({shown} shown)") } else { String::new() };
            writeln!(f, "the bot plays one of the {ties} tied best cells{beyond}, at random")?;
        }
        if !self.wins_at.is_empty() {
            write!(f, "{} makes five at {}", self.to_move, self.wins_at.join(" "))?;
            f.write_str(if self.bot_cells.iter().any(|c| self.wins_at.contains(c)) {
                "\n"
            } else {
                ": the bot passes it up (document 002's bot blocks when the best defence is higher)\n"
            })?;
        }
        match &self.explain {
            Some(explained) => write!(f, "{explained}"),
            None => Ok(()),
        }
    }
}

impl std::fmt::Display for Explained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (me, them) = (self.attack.side, self.defence.side);
        write!(
            f,
            "explain:\n  attack of a cell = Σ own[{me}'s stones in the line] over the lines of five through it without a {them} stone\n  \
             defence of a cell = Σ opp[{them}'s stones in the line] over the lines of five through it without a {me} stone\n"
        )?;
        let cell = &self.cell;
        for (score, weight, part, other) in
            [("attack", "own", &self.attack, them), ("defence", "opp", &self.defence, me)]
        {
            let count: usize = part.terms.iter().map(|t| t.lines.len()).sum();
            let total = part.score;
            writeln!(f, "  {score} of {cell} = {total}, over the {count} lines through it without a {other} stone:")?;
            for t in &part.terms {
                let (stones, each, points) = (t.stones, t.weight, t.points);
                let plural = if t.lines.len() == 1 { "line " } else { "lines" };
                write!(
                    f,
                    "    {stones} {} stone{} {:>2} {plural} x {weight}[{stones}] {each} = {points}",
                    part.side,
                    if stones == 1 { " " } else { "s" },
                    t.lines.len()
                )?;
                if stones >= 2 {
                    writeln!(f, ": {}", t.lines.join(" "))?;
                } else {
                    writeln!(f)?;
                }
            }
        }
        Ok(())
    }
}

pub fn run(a: &AdviseArgs) -> Result<Answer> {
    let game = table(a)?;
    let s = position(&game, &a.moves)?;
    if a.top == 0 {
        return Err(Error::input("--top: at least 1"));
    }
    let (kind, w) = bot_weights(a)?;
    let n = s.size;
    let me = s.to_move();

    let mut cells = cell_scores(&game, &s, w);
    let mut ties = Vec::new();
    best_cells(cells.iter().copied(), &mut ties);
    ties.sort_unstable();
    // Best first; cells of equal rank row by row (the bot itself draws among the tied ones).
    cells.sort_by_key(|c| (std::cmp::Reverse(c.rank()), c.cell));
    let best_attack = cells.iter().map(|c| c.attack).max();
    let best_defence = cells.iter().map(|c| c.defence).max();
    let blocks = best_defence > best_attack;
    let mut wins: Vec<usize> = cells
        .iter()
        .map(|c| c.cell)
        .filter(|&c| makes_five(&s.board, n, c % n, c / n, 1 + me as u8, game.rule))
        .collect();
    wins.sort_unstable();
    let shown = &cells[..a.top.min(cells.len())];
    let cell_answer = |c: &CellScore| CellAnswer {
        cell: cell_text(n, c.cell),
        attack: c.attack,
        defence: c.defence,
        bot: ties.contains(&c.cell),
    };
    let explain = match (a.explain, shown.first()) {
        (true, Some(top)) => Some(explain(&s, game.rule, top, w)),
        _ => None,
    };
    Ok(Answer {
        game: "gomoku",
        size: n,
        rule: game.rule.name(),
        moves: s.moves.iter().map(|m| format!("{},{}", m.x, m.y)).collect(),
        to_move: SIDES[me],
        bot: a.bot.clone(),
        kind,
        own: w.own[..5].try_into().expect("six weights"),
        opp: w.opp[..5].try_into().expect("six weights"),
        best_attack,
        best_defence,
        plays: best_attack.map(|_| if blocks { "defence" } else { "attack" }),
        bot_cells: ties.iter().map(|&c| cell_text(n, c)).collect(),
        cells: shown.iter().map(cell_answer).collect(),
        wins_at: wins.iter().map(|&c| cell_text(n, c)).collect(),
        explain,
        picture: super::wire::picture(&s),
    })
}

/// How the scores are formed: `top`'s two scores line by line: the lines through the cell each
/// side can still win, grouped by the side's stones in them, each group worth its count times its
/// weight (lines with two stones or more named by their end cells).
fn explain(s: &State, rule: Rule, top: &CellScore, w: Weights) -> Explained {
    let n = s.size;
    let score = |side: usize, total: i32, table: &[i32; 6]| Score {
        score: total,
        side: SIDES[side],
        terms: lines_through(s, rule, top.cell, side)
            .into_iter()
            .map(|(stones, lines)| {
                let weight = table[stones];
                let points = lines.len() as i32 * weight;
                Term { stones, lines: lines.iter().map(|l| line_text(n, l)).collect(), weight, points }
            })
            .collect(),
    };
    Explained {
        cell: cell_text(n, top.cell),
        attack: score(s.to_move(), top.attack, &w.own),
        defence: score(1 - s.to_move(), top.defence, &w.opp),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::Advice;
    use crate::core::{Bot, BotRng, Game};
    use crate::games::gomoku::bots::weights::WeightsBot;
    use serde_json::json;

    fn args(moves: &str) -> AdviseArgs {
        AdviseArgs {
            moves: moves.into(),
            size: 15,
            rule: "freestyle".into(),
            top: 5,
            bot: "weights".into(),
            params: Vec::new(),
            explain: true,
        }
    }

    /// The moves of a position as `--moves` takes them.
    fn moves_text(s: &State) -> String {
        s.moves.iter().map(|m| format!("{},{}", m.x, m.y)).collect::<Vec<_>>().join(" ")
    }

    /// The cells the adviser marks for the bot.
    fn marked(advice: &Advice) -> Vec<String> {
        advice.json["bot_cells"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
    }

    /// What the weights bot with weights `w` plays from a fresh start on the position, over
    /// several of its own random streams.
    fn bot_plays(game: &Gomoku, s: &State, w: Weights) -> Vec<String> {
        let mut plays: Vec<String> = (0..16)
            .map(|seed| {
                let m = WeightsBot::new(w).act(game, &s, &mut BotRng::seed_from_u64(seed));
                format!("{},{}", m.x, m.y)
            })
            .collect();
        plays.sort();
        plays.dedup();
        plays
    }

    /// The adviser's marked cells are the bot's moves, and the explanation's terms add up to the
    /// top cell's scores.
    fn agrees(a: &AdviseArgs) -> Advice {
        let game = table(a).unwrap();
        let s = position(&game, &a.moves).unwrap();
        let advice = Advice::of(&run(a).unwrap());
        let plays = bot_plays(&game, &s, bot_weights(a).unwrap().1);
        let cells = marked(&advice);
        assert!(plays.iter().all(|p| cells.contains(p)), "bot plays {plays:?}, marked {cells:?}\n{}", advice.text);
        if cells.len() == 1 {
            assert_eq!(advice.json["cells"][0]["cell"], cells[0]);
        }
        let top = &advice.json["cells"][0];
        for score in ["attack", "defence"] {
            let terms = advice.json["explain"][score]["terms"].as_array().unwrap();
            let sum: i64 = terms.iter().map(|t| t["points"].as_i64().unwrap()).sum();
            assert_eq!(sum, top[score].as_i64().unwrap(), "{score}\n{}", advice.text);
        }
        advice
    }

    /// Black has an open three it could make four with; white has an open four: the bot must
    /// block one end, and says so.
    #[test]
    fn blocks_an_open_four() {
        // White 7,5 7,6 7,7 7,8 (open at 7,4 and 7,9); black three on row 10, and a stray stone.
        let a = args("3,10 7,5 4,10 7,6 5,10 7,7 0,0 7,8");
        let advice = agrees(&a);
        let cells = marked(&advice);
        assert_eq!(cells, ["7,4", "7,9"]);
        assert_eq!(advice.json["plays"], "defence");
        assert!(advice.text.contains("black (x) to move: move 9, after 7,8\n"), "{}", advice.text);
        assert!(advice.text.contains("4 white stones  1 line  x opp[4] 120 = 120: 7,4-7,8"), "{}", advice.text);
    }

    /// Black has four in a row with one end open, white nothing near: the bot completes five.
    #[test]
    fn wins_when_it_can() {
        let advice = agrees(&args("0,7 14,0 1,7 14,2 2,7 14,4 3,7 14,6"));
        assert_eq!(marked(&advice), ["4,7"]);
        assert_eq!(advice.json["wins_at"], json!(["4,7"]));
        assert!(advice.text.contains("\n   4,7      186       16  <- the bot plays this\n"), "{}", advice.text);
        assert!(advice.text.contains("black makes five at 4,7\n"), "{}", advice.text);
    }

    /// Document 002's bot blocks a higher-scoring threat rather than win (the position of the
    /// weights bot's own test): the adviser shows both.
    #[test]
    fn shows_the_win_the_bot_passes_up() {
        let black = ["1,3", "2,3", "3,3", "4,3", "0,14", "14,14", "14,0", "7,14"];
        let white = ["8,10", "9,10", "10,10", "11,10", "12,6", "12,7", "12,8", "12,9"];
        let moves: Vec<&str> = black.iter().zip(&white).flat_map(|(b, w)| [*b, *w]).collect();
        let advice = agrees(&args(&moves.join(" ")));
        assert_eq!(marked(&advice), ["12,10"]);
        assert_eq!(advice.json["wins_at"], json!(["0,3", "5,3"]));
        assert!(advice.text.contains("the bot passes it up"), "{}", advice.text);
        // With lighter defence weights the bot takes the win.
        let mut a = args(&moves.join(" "));
        a.params = vec!["opp=[0, 1, 2, 7, 30]".into()];
        let advice = agrees(&a);
        assert_eq!(marked(&advice), ["5,3"]);
        assert!(!advice.text.contains("passes it up"), "{}", advice.text);
    }

    /// On positions along weights-against-weights games (every rule, two sizes), the cells the
    /// adviser marks are the ones the bot plays.
    #[test]
    fn marks_what_the_bot_plays_along_whole_games() {
        for (rule, size, seed) in
            [("freestyle", 15, 1), ("renju", 15, 2), ("standard", 9, 3), ("caro", 15, 4), ("standard", 15, 5)]
        {
            let mut a = args("");
            (a.rule, a.size) = (rule.into(), size);
            let game = table(&a).unwrap();
            let mut s = game.deal(&mut crate::core::DealRng::seed_from_u64(seed));
            let mut rng = BotRng::seed_from_u64(seed);
            let params = crate::core::Params::new(weights::PARAMS, &toml::Table::new(), "test").unwrap();
            let mut bot = WeightsBot::new(weights::weights(&params, "test").unwrap());
            let mut checked = 0;
            while game.to_act(&s).is_some() {
                if s.moves.len() % 3 == 1 {
                    a.moves = moves_text(&s);
                    agrees(&a);
                    checked += 1;
                }
                let m = bot.act(&game, &&s, &mut rng);
                game.apply(&mut s, &m).unwrap();
            }
            assert!(checked > 3, "{rule}: {checked} positions");
        }
    }

    #[test]
    fn bad_input_is_refused() {
        let cases = [
            ("7,7 7,7", "move 2: 7,7 is taken"),
            ("7,7 15,3", "move 2: 15,3 is off the 15x15 board"),
            ("7,7 8", "`8` is not a gomoku move"),
            ("0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0", "move 9: 4,0 ends the game: black makes five"),
        ];
        for (moves, expected) in cases {
            let e = run(&args(moves)).unwrap_err().to_string();
            assert!(e.contains(expected), "{moves}: {e}");
        }
        let mut a = args("");
        a.size = 30;
        assert!(run(&a).unwrap_err().to_string().contains("size"));
        a = args("");
        a.bot = "search".into();
        assert!(run(&a).unwrap_err().to_string().contains("follows weights"));
        a = args("");
        a.top = 0;
        assert!(run(&a).is_err());
    }
}
