//! `arena stats`: the calculator for match counts given on the command line.
//!
//! ```text
//! $ arena stats --penta 12,60,140,75,13 --elo0 0 --elo1 5
//! pairs     300 (600 games): LL 12, LD 60, WL+DD 140, WD 75, WW 13
//! score     0.51417 (95% interval [0.48918, 0.53915])
//! Elo       +9.85 ± 17.39 (95% interval [-7.52, +27.26])
//! nElo      +15.76 ± 27.80
//! LOS       86.68 %
//! SPRT      normalized [0, 5] nElo, alpha 0.05, beta 0.05
//! LLR       0.327990 (bounds -2.944439, +2.944439)
//! decision  continue
//! ```
//!
//! `--tri L,D,W` takes per-game counts instead (each game an independent observation). The counts
//! are those of the first bot ("A"): a positive Elo means A is stronger. The lead's CLI can also build
//! [`Counts`] from a run folder and call [`report`].

use super::elo::{EloEstimate, Pentanomial, Trinomial};
use super::sprt::{Sprt, SprtDecision, SprtGiven, SprtPlace};
use crate::error::{shown, Error, Result};

/// Elo, nElo, LOS and (with --elo0/--elo1) the SPRT of match counts.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// Pair counts of the first bot, in the order LL,LD,WL+DD,WD,WW (pairs scoring 0, 1/4, 1/2, 3/4, 1;
    /// a pair is two games with the seats swapped)
    #[arg(long, value_name = "LL,LD,WLDD,WD,WW")]
    pub penta: Option<String>,
    /// Game counts of the first bot, in the order L,D,W (losses, draws, wins); use --penta for
    /// paired games
    #[arg(long, value_name = "L,D,W")]
    pub tri: Option<String>,
    /// SPRT of an Elo model: H0 (in nElo, or Elo with --model logistic); needs --elo1
    #[arg(long, allow_hyphen_values = true)]
    pub elo0: Option<f64>,
    /// SPRT of an Elo model: H1; needs --elo0
    #[arg(long, allow_hyphen_values = true)]
    pub elo1: Option<f64>,
    /// SPRT of the payoff difference (with --run only): H0, in the unit of the run's verdict
    /// (hold'em cash bb/100, stud and zhajinhua chips a hand, mahjong points); needs --payoff1
    #[arg(long, allow_hyphen_values = true)]
    pub payoff0: Option<f64>,
    /// SPRT of the payoff difference (with --run only): H1; needs --payoff0
    #[arg(long, allow_hyphen_values = true)]
    pub payoff1: Option<f64>,
    /// SPRT: false-positive rate (accepting H1 when H0 holds) [default: 0.05]
    #[arg(long)]
    pub alpha: Option<f64>,
    /// SPRT: false-negative rate (accepting H0 when H1 holds) [default: 0.05]
    #[arg(long)]
    pub beta: Option<f64>,
    /// SPRT model of --elo0/--elo1: "normalized" (nElo, the default) or "logistic" (Elo);
    /// --payoff0/--payoff1 are the payoff model's
    #[arg(long, value_name = "normalized|logistic|payoff")]
    pub model: Option<String>,
}

/// Match counts of the first bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counts {
    Tri(Trinomial),
    Penta(Pentanomial),
}

/// Runs the calculator: the report to print, or a one-line input error.
pub fn run(args: &StatsArgs) -> Result<String> {
    let counts = parse_counts(args)?;
    let sprt = parse_sprt(args, COUNTS)?;
    let llr = sprt.map(|s| (s, counts.llr(&s)));
    Ok(report(&counts, llr.as_ref()))
}

/// The counts from --penta or --tri (exactly one).
pub fn parse_counts(args: &StatsArgs) -> Result<Counts> {
    match (&args.penta, &args.tri) {
        (Some(p), None) => {
            let c = parse_list::<5>(p, "--penta", "LL,LD,WL+DD,WD,WW")?;
            Ok(Counts::Penta(Pentanomial(c)))
        }
        (None, Some(t)) => {
            let [losses, draws, wins] = parse_list::<3>(t, "--tri", "L,D,W")?;
            Ok(Counts::Tri(Trinomial { losses, draws, wins }))
        }
        (Some(_), Some(_)) => Err(Error::input("give either --penta or --tri, not both")),
        (None, None) => Err(Error::input("give the counts: --penta LL,LD,WL+DD,WD,WW or --tri L,D,W")),
    }
}

/// The SPRT the flags ask for at `place` (none when no SPRT flag is given).
pub fn parse_sprt(args: &StatsArgs, place: SprtPlace) -> Result<Option<Sprt>> {
    let given = SprtGiven {
        elo0: args.elo0,
        elo1: args.elo1,
        payoff0: args.payoff0,
        payoff1: args.payoff1,
        alpha: args.alpha,
        beta: args.beta,
        model: args.model.clone(),
        unit: None,
    };
    if given.is_empty() {
        return Ok(None);
    }
    given.resolve(place).map(Some).map_err(|(_, e)| e)
}

/// Where the calculator's SPRT runs: on counts (no payoffs), two seats.
pub const COUNTS: SprtPlace = SprtPlace { payoff: None, seats: 2, flags: true };

/// Counts add up to at most this (2^53): every total stays exact, in integers and in f64.
pub const MAX_COUNT: u64 = 1 << 53;

fn parse_list<const K: usize>(text: &str, flag: &str, order: &str) -> Result<[u64; K]> {
    let bad = || Error::input(format!("{flag} needs {K} non-negative integers {order}, got {}", shown(text)));
    let mut out = [0u64; K];
    let mut parts = text.split(',');
    for slot in out.iter_mut() {
        *slot = parts.next().and_then(|s| s.trim().parse().ok()).ok_or_else(bad)?;
    }
    if parts.next().is_some() {
        return Err(bad());
    }
    let total = out.iter().try_fold(0u64, |sum, &c| sum.checked_add(c).filter(|&t| t <= MAX_COUNT));
    if total.is_none() {
        return Err(Error::input(format!("{flag}: the counts add up to more than the limit of 2^53")));
    }
    Ok(out)
}

impl Counts {
    /// The LLR of an SPRT on these counts.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        match self {
            Counts::Penta(p) => sprt.llr_penta(p),
            Counts::Tri(t) => sprt.llr_tri(t),
        }
    }
}

/// The readable report of counts (and an SPRT with its LLR if given).
pub fn report(counts: &Counts, sprt: Option<&(Sprt, f64)>) -> String {
    let (head, e) = match counts {
        Counts::Penta(p) => {
            let [ll, ld, wl, wd, ww] = p.0;
            let head = format!(
                "pairs     {} ({} games): LL {ll}, LD {ld}, WL+DD {wl}, WD {wd}, WW {ww}",
                p.pairs(),
                p.games()
            );
            (head, p.estimate())
        }
        Counts::Tri(t) => {
            let head = format!("games     {}: W {}, D {}, L {}", t.games(), t.wins, t.draws, t.losses);
            (head, t.estimate())
        }
    };
    report_estimate(head, &e, sprt)
}

/// The report of Elo figures computed elsewhere (e.g. over deals), under a first line `head`.
pub fn report_estimate(head: String, e: &EloEstimate, sprt: Option<&(Sprt, f64)>) -> String {
    let mut out = vec![head];
    let i = e.elo_interval();
    out.push(format!("score     {:.5} (95% interval [{:.5}, {:.5}])", e.score, e.score_ci.lo, e.score_ci.hi));
    out.push(format!("Elo       {:+.2} ± {:.2} (95% interval [{:+.2}, {:+.2}])", e.elo, e.elo_err, i.lo, i.hi));
    out.push(format!("nElo      {:+.2} ± {:.2}", e.nelo, e.nelo_err));
    out.push(format!("LOS       {:.2} %", 100.0 * e.los));
    if let Some(&(s, llr)) = sprt {
        let unit = s.unit;
        let (lower, upper) = s.bounds();
        out.push(format!("SPRT      {}, alpha {}, beta {}", s.describe(), s.alpha, s.beta));
        out.push(format!("LLR       {llr:.6} (bounds {lower:.6}, {upper:+.6})"));
        let decision = match s.decision(llr) {
            SprtDecision::AcceptH0 => format!("H0 accepted (the data favour {} over {} {unit})", s.h0, s.h1),
            SprtDecision::AcceptH1 => format!("H1 accepted (the data favour {} over {} {unit})", s.h1, s.h0),
            SprtDecision::Continue => "continue".to_string(),
        };
        out.push(format!("decision  {decision}"));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        args: StatsArgs,
    }

    fn run_line(line: &str) -> Result<String> {
        let cli = Cli::try_parse_from(std::iter::once("stats").chain(line.split_whitespace()))
            .map_err(|e| Error::input(e.to_string()))?;
        run(&cli.args)
    }

    /// The example of the module doc, verbatim.
    #[test]
    fn doc_example_is_current() {
        let doc = include_str!("calc.rs");
        let example: Vec<&str> = doc
            .lines()
            .skip_while(|l| !l.starts_with("//! $ arena stats"))
            .skip(1)
            .take_while(|l| *l != "//! ```")
            .map(|l| &l[4..])
            .collect();
        let out = run_line("--penta 12,60,140,75,13 --elo0 0 --elo1 5").unwrap();
        assert_eq!(out, example.join("\n"));
    }

    #[test]
    fn penta_report_with_sprt() {
        let out = run_line("--penta 365,16618,36229,16974,390 --elo0 0 --elo1 2").unwrap();
        assert!(out.contains("pairs     70576 (141152 games)"), "{out}");
        assert!(out.contains("LLR       2.250368 "), "{out}");
        assert!(out.contains("Elo       +1.00 ± 0.92"), "{out}");
        assert!(out.contains("LOS       98.31 %"), "{out}");
        assert!(out.contains("decision  continue"), "{out}");
    }

    #[test]
    fn tri_report_negative_hypothesis_and_logistic() {
        let out = run_line("--tri 10650,20431,10871 --elo0 -1.75 --elo1 0.25").unwrap();
        assert!(out.contains("LLR       2.297500 "), "{out}");
        assert!(out.contains("games     41952: W 10871, D 20431, L 10650"), "{out}");
        let out = run_line("--penta 10789,19328,33806,19402,10543 --elo0 -3 --elo1 1 --model logistic").unwrap();
        assert!(out.contains("LLR       2.131068 "), "{out}");
        let out = run_line("--penta 0,0,0,100,1000 --elo0 0 --elo1 5 --alpha 0.01 --beta 0.01").unwrap();
        assert!(out.contains("decision  H1 accepted (the data favour 5 over 0 nElo)"), "{out}");
        let out = run_line("--tri 900,1200,750 --elo0 0 --elo1 5 --model logistic").unwrap();
        assert!(out.contains("decision  H0 accepted (the data favour 0 over 5 Elo)"), "{out}");
        let out = run_line("--tri 5,1,0").unwrap();
        assert!(!out.contains("LLR"), "{out}");
    }

    #[test]
    fn bad_input_is_one_clear_line() {
        for line in [
            "--penta 1,2,3,4",
            "--penta 1,2,3,4,5,6",
            "--penta 1,2,x,4,5",
            "--tri 1,-2,3",
            "--tri 1,2,3 --penta 1,2,3,4,5",
            "--elo0 0 --elo1 5",
            "--tri 1,2,3 --elo0 0",
            "--tri 1,2,3 --elo0 5 --elo1 0",
            "--tri 1,2,3 --elo0 0 --elo1 5 --model bayes",
            "--tri 1,2,3 --elo0 0 --elo1 5 --alpha 0",
        ] {
            let err = run_line(line).unwrap_err().to_string();
            assert!(!err.is_empty() && !err.contains('\n'), "{line}: {err}");
        }
    }
}
