//! `arena advise stud`: the document's expert system on its own. Given my cards (hole card first)
//! and each opponent's face-up cards (`XX` for its hole card), it prints my hand's category, my
//! win probability (exact over every unseen card; Monte Carlo above `--exact-max` outcomes) and
//! exactly one advice.
//!
//! ```text
//! $ arena advise stud --me "8S 10D 10S 8H 8C" --opponent "XX 3C 5D 4H 6H"
//! category: full house
//! win probability: 1.0000 (exact, 43 outcomes)
//! advice: bet big
//!
//! $ arena advise stud --me "9S 9D KC" --opponent "XX AH 4C"
//! category: one pair (3 of 5 cards)
//! win probability: 0.8023 (exact, 15339390 outcomes)
//! advice: bet big
//!
//! $ arena advise stud --me "AS KD" --opponent "XX QC" --opponent "XX 2H"
//! category: high card (2 of 5 cards)
//! win probability: 0.4745 (Monte Carlo, 200000 samples)
//! advice: call or check
//! ```
//!
//! Options: `--short-deck` (the 28-card 8-A deck), `--exact-max N` (default 50,000,000
//! outcomes, about half a second), `--samples N` (200,000) and `--seed N` for the Monte Carlo,
//! `--bet-above 0.7`, `--fold-below 0.3`. Errors (bad card, duplicate, wrong counts) are
//! `Error::Input`: one line, exit code 2.
//!
//! Cards: rank `2`-`9`, `10` or `T`, `J`, `Q`, `K`, `A` and suit `C D H S`, either case. I hold
//! 2 to 5 cards; every opponent shows `XX` and as many face-up cards as I do (one fewer than my
//! cards). Bad cards, a card given twice (in any hand) and wrong counts are input errors.

use rand::SeedableRng;

use super::bots::expert::Thresholds;
use super::engine::short_deck;
use super::eval::value;
use super::odds::{win_probability, Budget, Odds, Position};
use crate::cards::{parse_cards, parse_cards_or_hidden, CardSet};
use crate::error::{Error, Result};

#[derive(clap::Args, Debug)]
pub struct AdviseArgs {
    /// My cards, hole card first, then my face-up cards: 2 to 5 cards, e.g. "8S 10D 10S 8H 8C"
    #[arg(long)]
    pub me: String,
    /// An opponent still in the hand: XX (its hole card), then its face-up cards, as many as mine,
    /// e.g. "XX 3C 5D 4H 6H". Repeat for each opponent (1 to 4).
    #[arg(long = "opponent", required = true)]
    pub opponents: Vec<String>,
    /// Play the 28-card short deck (8 to A)
    #[arg(long)]
    pub short_deck: bool,
    /// Enumerate exactly up to this many outcomes, sample above
    #[arg(long, default_value_t = 50_000_000)]
    pub exact_max: u64,
    /// Monte Carlo samples above the exact budget
    #[arg(long, default_value_t = 200_000)]
    pub samples: u32,
    /// Seed of the Monte Carlo samples
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Advise "bet big" above this win probability
    #[arg(long, default_value_t = 0.7)]
    pub bet_above: f64,
    /// Advise "fold" below this win probability
    #[arg(long, default_value_t = 0.3)]
    pub fold_below: f64,
    /// Also show how the figures are formed: what is enumerated and the rule behind the advice.
    #[arg(long)]
    pub explain: bool,
}

/// The advisor's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub category: super::eval::Category,
    pub cards: usize,
    pub odds: Odds,
    pub advice: super::bots::expert::Advice,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.cards == 5 {
            writeln!(f, "category: {}", self.category)?;
        } else {
            writeln!(f, "category: {} ({} of 5 cards)", self.category, self.cards)?;
        }
        let how = if self.odds.exact {
            format!("exact, {} outcomes", self.odds.outcomes)
        } else {
            format!("Monte Carlo, {} samples", self.odds.outcomes)
        };
        writeln!(f, "win probability: {:.4} ({how})", self.odds.win)?;
        write!(f, "advice: {}", self.advice.text())
    }
}

/// Checks the cards and computes the advice.
pub fn advise(args: &AdviseArgs) -> Result<Report> {
    let me = parse_cards(&args.me).map_err(|e| Error::input(format!("--me: {e}")))?;
    if !(2..=5).contains(&me.len()) {
        return Err(Error::input(format!(
            "--me: expected 2 to 5 cards (the hole card, then 1 to 4 face-up cards), got {}",
            me.len()
        )));
    }
    if args.opponents.len() > 4 {
        return Err(Error::input(format!("at most 4 opponents (5 seats), got {}", args.opponents.len())));
    }
    let deck = if args.short_deck { short_deck() } else { CardSet::FULL };
    let mut seen = CardSet::EMPTY;
    let mut take = |c: crate::cards::Card, whose: &str| -> Result<()> {
        if !deck.contains(c) {
            return Err(Error::input(format!("{whose}: {c} is not in the short deck (8 to A)")));
        }
        if seen.contains(c) {
            return Err(Error::input(format!("{whose}: {c} was already given")));
        }
        seen.insert(c);
        Ok(())
    };
    for &c in &me {
        take(c, "--me")?;
    }
    let mut opponents = Vec::with_capacity(args.opponents.len());
    for text in &args.opponents {
        let whose = format!("--opponent \"{text}\"");
        let cards = parse_cards_or_hidden(text).map_err(|e| Error::input(format!("{whose}: {e}")))?;
        let hidden = cards.iter().filter(|c| c.is_none()).count();
        let up: Vec<_> = cards.iter().flatten().copied().collect();
        if hidden != 1 || up.len() != me.len() - 1 {
            return Err(Error::input(format!(
                "{whose}: expected XX (the hole card) and {} face-up card(s), as many as mine; got {hidden} XX and {} face-up",
                me.len() - 1,
                up.len()
            )));
        }
        for &c in &up {
            take(c, &whose)?;
        }
        opponents.push(up.into_iter().collect::<CardSet>());
    }
    let thresholds = Thresholds { bet_above: args.bet_above, fold_below: args.fold_below };
    if !(0.0..=1.0).contains(&thresholds.fold_below)
        || !(0.0..=1.0).contains(&thresholds.bet_above)
        || thresholds.fold_below > thresholds.bet_above
    {
        return Err(Error::input("--fold-below and --bet-above must satisfy 0 <= fold-below <= bet-above <= 1"));
    }
    let mine: CardSet = me.iter().copied().collect();
    let pos = Position { mine, opponents: &opponents, dead: CardSet::EMPTY };
    let budget = Budget { exact_max: args.exact_max, samples: args.samples.max(1) };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let odds = win_probability(deck, &pos, budget, &mut rng);
    Ok(Report { category: value(mine).category(), cards: me.len(), odds, advice: thresholds.advice(odds.win) })
}

/// What `arena advise stud` prints: the report as text (`Display`), and as JSON with `--json`
/// (`Serialize`, in this order).
#[derive(serde::Serialize)]
pub struct Answer {
    game: &'static str,
    category: String,
    cards: usize,
    win: f64,
    method: &'static str,
    outcomes: u64,
    advice: &'static str,
    thresholds: Thresholds,
    #[serde(skip)]
    report: Report,
    /// `--explain`'s lines, text only.
    #[serde(skip)]
    explain: Option<String>,
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.report, self.explain.as_deref().unwrap_or(""))
    }
}

pub fn run(args: &AdviseArgs) -> Result<Answer> {
    let report = advise(args)?;
    Ok(Answer {
        game: "stud",
        category: report.category.to_string(),
        cards: report.cards,
        win: report.odds.win,
        method: if report.odds.exact { "exact" } else { "monte-carlo" },
        outcomes: report.odds.outcomes,
        advice: report.advice.text(),
        thresholds: Thresholds { bet_above: args.bet_above, fold_below: args.fold_below },
        explain: args.explain.then(|| explain(args, &report)),
        report,
    })
}

/// How the win probability is counted and the rule that turns it into the advice.
fn explain(args: &AdviseArgs, report: &Report) -> String {
    let seats = args.opponents.len() + 1;
    let how = match report.odds.exact {
        true => format!(
            "every way the unseen cards can fill the opponents' hole cards and the {} card(s) still to come to each of the \
             {seats} seats is counted once ({} outcomes, at most --exact-max {} are enumerated)",
            5 - report.cards,
            report.odds.outcomes,
            args.exact_max
        ),
        false => format!(
            "more than --exact-max {} outcomes: {} deals of the unseen cards drawn from seed {}",
            args.exact_max, report.odds.outcomes, args.seed
        ),
    };
    let rule = match report.advice.text() {
        "bet big" => format!("{:.4} > --bet-above {}", report.odds.win, args.bet_above),
        "fold" => format!("{:.4} < --fold-below {}", report.odds.win, args.fold_below),
        _ => format!("{} <= {:.4} <= {}", args.fold_below, report.odds.win, args.bet_above),
    };
    format!(
        "\nexplain:\n  win probability: the share of the pot won at the showdown (ties split); {how}\n  \
         the expert's rule: bet big above --bet-above, fold below --fold-below, else call or check; here {rule}: {}\n",
        report.advice.text()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        args: AdviseArgs,
    }

    fn run_line(line: &str) -> Result<String> {
        let mut words = vec!["advise".to_string()];
        // Split on `--`: each flag and its quoted value.
        for part in line.split(" --").filter(|p| !p.is_empty()) {
            let part = part.trim_start_matches("--");
            let (flag, value) = part.split_once(' ').unwrap_or((part, ""));
            words.push(format!("--{flag}"));
            if !value.is_empty() {
                words.push(value.trim_matches('"').to_string());
            }
        }
        let cli = Cli::try_parse_from(words).map_err(|e| Error::input(e.to_string()))?;
        run(&cli.args).map(|answer| answer.to_string())
    }

    #[test]
    fn the_documents_example() {
        let out = run_line(r#"--me "8S 10D 10S 8H 8C" --opponent "XX 3C 5D 4H 6H""#).unwrap();
        assert_eq!(out, "category: full house\nwin probability: 1.0000 (exact, 43 outcomes)\nadvice: bet big");
        // Exactly one advice (the document printed two).
        assert_eq!(out.matches("advice").count(), 1);
        // T for ten, lower case, cards written together.
        let same = run_line(r#"--me "8s td ts 8h 8c" --opponent "XX3c5d4h6h""#).unwrap();
        assert_eq!(same, out);
    }

    /// What `arena list stud` says of the expert's `exact_max`: at 2,000 outcomes the last street
    /// is exact against one or two opponents, not three, and the fourth street is sampled; at
    /// 100,000 (expert-exact) the fourth street heads-up and the last against three are exact.
    #[test]
    fn when_the_expert_is_exact() {
        let five = r#"--me "8S 10D 10S 8H 8C" --opponent "XX 3C 5D 4H 6H""#;
        let two = r#" --opponent "XX 2C 2D 4S 6S""#;
        let three = r#" --opponent "XX 7C 7D 9S 9H""#;
        let four = r#"--me "8S 10D 10S 8H" --opponent "XX 3C 5D 4H""#;
        for (line, budget, exact) in [
            (five.to_string(), 2000, true),
            (format!("{five}{two}"), 2000, true),
            (format!("{five}{two}{three}"), 2000, false),
            (four.to_string(), 2000, false),
            (four.to_string(), 100_000, true),
            (format!("{five}{two}{three}"), 100_000, true),
        ] {
            let out = run_line(&format!("{line} --exact-max {budget}")).unwrap();
            assert_eq!(out.contains("(exact, "), exact, "{line} at {budget}: {out}");
        }
    }

    #[test]
    fn partial_hands_and_several_opponents() {
        let out = run_line(r#"--me "AS AD" --opponent "XX KC" --opponent "XX 2H""#).unwrap();
        assert!(out.starts_with("category: one pair (2 of 5 cards)\n"), "{out}");
        assert!(out.contains("Monte Carlo"), "{out}");
        let out = run_line(r#"--me "AS AD AC QD" --opponent "XX 2C 7D 9H" --opponent "XX 3H 4C 5S""#).unwrap();
        assert!(out.contains("(exact, "), "{out}");
        assert!(out.ends_with("advice: bet big"), "{out}");
        // Sure loser: my 2-3-4-6-7 against a showing set of aces.
        let out = run_line(r#"--me "2C 3D 4H 6S 7C" --opponent "XX AS AD AH KC""#).unwrap();
        assert!(out.contains("win probability: 0.0000") && out.ends_with("advice: fold"), "{out}");
    }

    #[test]
    fn bad_input_is_an_input_error_with_a_clear_message() {
        let cases = [
            (r#"--me "8S 1D 10S 8H 8C" --opponent "XX 3C 5D 4H 6H""#, "bad card `1D`"),
            (r#"--me "8S 8S 10S 8H 8C" --opponent "XX 3C 5D 4H 6H""#, "appears twice"),
            (r#"--me "8S 10D 10S 8H 8C" --opponent "XX 3C 5D 4H 8S""#, "8s was already given"),
            (
                r#"--me "8S 10D 10S 8H 8C" --opponent "XX 3C 5D 4H 6H" --opponent "XX 3C 2D 2H 2S""#,
                "3c was already given",
            ),
            (r#"--me "8S 10D 10S 8H" --opponent "XX 3C 5D 4H 6H""#, "expected XX (the hole card) and 3 face-up"),
            (r#"--me "8S 10D 10S 8H 8C" --opponent "3C 5D 4H 6H 7H""#, "got 0 XX"),
            (r#"--me "8S 10D 10S 8H 8C" --opponent "XX XX 5D 4H 6H""#, "got 2 XX"),
            (r#"--me "8S 10D 10S 8H 8C 2C" --opponent "XX 3C 5D 4H 6H""#, "expected 2 to 5 cards"),
            (r#"--me "8S" --opponent "XX""#, "expected 2 to 5 cards"),
            (r#"--me "8S 10D 10S 8H 8C" --opponent "XX 3C 5D 4H 6H" --short-deck"#, "not in the short deck"),
        ];
        for (line, message) in cases {
            match run_line(line) {
                Err(Error::Input(m)) => assert!(m.contains(message), "{line}: {m}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }
}
