//! The verdict on two bots in one sentence: which is stronger, by how much in the game's unit,
//! with its 95% interval and the number of deals; or that it is not decided, with the deals an
//! answer would take at the effect seen; or what an SPRT decided, in words. The terminal, match.csv,
//! report.html, the `--json` documents and the gate's JUnit all print this one sentence.
//!
//! What a verdict is counted on is the game's [`Headline`]: the payoff difference for chip and point
//! games (where the bot that wins more hands can lose more chips), Elo for games of who wins.

use crate::core::{Headline, Leads, Unit};
use crate::report::MatchRow;
use crate::stats::{normal_cdf, MeanCi, SprtDecision, SprtModel};

/// The figure a verdict is given in, from A's side: an estimate, its 95% interval and its
/// standard error, in the verdict's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lead {
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
    /// How far the estimate is from "no difference" in standard errors' terms: the likelihood of
    /// superiority is Φ of it.
    pub z: f64,
}

impl Lead {
    /// A payoff difference per game, in `unit`.
    fn payoff(d: &MeanCi, unit: Unit) -> Lead {
        let se = d.sd / (d.n as f64).sqrt();
        let z = if se > 0.0 {
            d.mean / se
        } else if d.mean == 0.0 {
            0.0
        } else {
            d.mean.signum() * f64::INFINITY
        };
        Lead { estimate: unit.of(d.mean), lo: unit.of(d.lo), hi: unit.of(d.hi), z }
    }

    /// Whether the interval leaves out 0: the verdict names the stronger bot.
    pub fn decided(&self) -> bool {
        self.lo > 0.0 || self.hi < 0.0
    }

    /// The likelihood that A is the stronger, on the verdict's own quantity.
    pub fn los(&self) -> f64 {
        normal_cdf(self.z)
    }
}

/// A row's verdict figure: the payoff difference (adjusted for luck when the run adjusts it) in
/// the game's unit, or the score's excess over ½ for Elo games (whose interval decides as the Elo
/// interval does, and stays finite when every game was won).
pub fn lead(row: &MatchRow, headline: Headline) -> Lead {
    match headline.leads {
        Leads::Payoff => {
            Lead::payoff(row.adjusted.as_ref().map_or(&row.payoff_diff, |a| &a.payoff_diff), headline.unit)
        }
        Leads::Elo => {
            let e = &row.elo;
            let z = if e.se > 0.0 { (e.score - 0.5) / e.se } else { (e.score - 0.5).signum() * f64::INFINITY };
            let z = if e.score == 0.5 { 0.0 } else { z };
            Lead { estimate: e.score - 0.5, lo: e.score_ci.lo - 0.5, hi: e.score_ci.hi - 0.5, z }
        }
    }
}

/// Decimals that show payoffs in a unit to two significant figures of the narrowest of their 95%
/// intervals' half-widths (`(lo, hi)` pairs, in the unit), at least two: bb/100 with two
/// decimals, a Kuhn poker chip with four. An interval of no width (every game alike) asks for two.
pub fn decimals(intervals: impl IntoIterator<Item = (f64, f64)>) -> usize {
    intervals
        .into_iter()
        .map(|(lo, hi)| (hi - lo) / 2.0)
        .filter(|h| h.is_finite() && *h > 0.0)
        .map(|h| (1 - h.log10().floor() as i64).clamp(2, 6) as usize)
        .max()
        .unwrap_or(2)
}

/// `13143` → `13,143`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count written as a person would round it: two significant figures past 100 (`1,900`).
fn about(n: f64) -> String {
    if n < 100.0 {
        return thousands(n.ceil() as u64);
    }
    let step = 10f64.powi(n.log10().floor() as i32 - 1);
    thousands(((n / step).ceil() * step) as u64)
}

/// The deals still to play before an interval of this half-width around `effect` (at `n` deals)
/// would leave out 0, if the effect stayed as it is: the half-width shrinks as 1/√n.
pub fn deals_to_decide(effect: f64, half_width: f64, n: u64) -> Option<f64> {
    if effect == 0.0 || !half_width.is_finite() || n == 0 {
        return None;
    }
    let needed = n as f64 * (half_width / effect.abs()).powi(2);
    Some((needed - n as f64).max(1.0))
}

/// The row's verdict sentence (no final period, so that it reads inside other text).
pub fn sentence(row: &MatchRow, headline: Headline) -> String {
    match &row.sprt {
        Some(s) => sprt_sentence(row, headline, s.decision),
        None => estimate_sentence(row, headline),
    }
}

/// The units a game's verdict is over and their count: `1,000 deals`, or `500 pairs` when a deal
/// is a pair of games with the seats swapped.
fn observations(row: &MatchRow) -> String {
    let noun = if row.deals == 1 { "deal" } else { "deals" };
    format!("{} {noun}", thousands(row.deals))
}

/// A signed figure in `decimals`.
fn signed(x: f64, decimals: usize) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    format!("{x:+.decimals$}")
}

/// The estimate with its interval in the verdict's unit, seen from the stronger side `sign`
/// (+1: A, −1: B): `328.70 bb/100 [24.48, 632.92]`, `+120.10 bb/100 [-80.00, +320.20]`.
fn figure(row: &MatchRow, headline: Headline, lead: &Lead, sign: f64) -> String {
    let (lo, hi) = if sign > 0.0 { (lead.lo, lead.hi) } else { (-lead.hi, -lead.lo) };
    match headline.leads {
        Leads::Payoff => {
            let d = decimals([(lead.lo, lead.hi)]);
            let how = match row.adjusted.as_ref() {
                Some(a) => format!(" ({})", a.estimator.name()),
                None => String::new(),
            };
            format!("{} {}{how} [{}, {}]", signed(sign * lead.estimate, d), headline.unit, signed(lo, d), signed(hi, d))
        }
        Leads::Elo => {
            let e = &row.elo;
            let iv = e.elo_interval();
            let (elo, elo_lo, elo_hi) = if sign > 0.0 { (e.elo, iv.lo, iv.hi) } else { (-e.elo, -iv.hi, -iv.lo) };
            let score = if sign > 0.0 { e.score } else { 1.0 - e.score };
            format!(
                "{} Elo [{}, {}], score {:.1}%",
                signed(elo, 1),
                signed(elo_lo, 1),
                signed(elo_hi, 1),
                100.0 * score
            )
        }
    }
}

/// The verdict of an estimate: decided when its 95% interval leaves out 0.
fn estimate_sentence(row: &MatchRow, headline: Headline) -> String {
    let lead = lead(row, headline);
    let (a, b) = (&row.bot_a, &row.bot_b);
    let over = observations(row);
    if lead.decided() {
        let (strong, weak, sign) = if lead.lo > 0.0 { (a, b, 1.0) } else { (b, a, -1.0) };
        return format!(
            "{strong} is stronger than {weak}: {} (95% interval, {over})",
            figure(row, headline, &lead, sign)
        );
    }
    let (ahead, behind, sign) = if lead.estimate >= 0.0 { (a, b, 1.0) } else { (b, a, -1.0) };
    let more = match deals_to_decide(lead.estimate, (lead.hi - lead.lo) / 2.0, row.deals) {
        Some(more) => format!("; at this effect about {} more deals would decide it", about(more)),
        None => "; no difference seen, so no estimate of the deals it would take".to_string(),
    };
    format!(
        "not decided: the interval holds 0 ({ahead} against {behind}: {}, 95% interval, {over}){more}",
        figure(row, headline, &lead, sign)
    )
}

/// An SPRT's decision in words: `accepted: rr-tight wins at least 200 bb/100 more than rr, after
/// 3,633 hands; error rates 5%/5%`.
fn sprt_sentence(row: &MatchRow, headline: Headline, decision: SprtDecision) -> String {
    let s = match &row.sprt {
        Some(s) => s.sprt,
        None => unreachable!("an SPRT sentence is for a row with an SPRT"),
    };
    let (a, b) = (&row.bot_a, &row.bot_b);
    let bound = |h: f64| format!("{} {}", trim(h), s.unit);
    // What H1 claims of A against B, and what H0 leaves it at, in the test's own terms.
    let (claim, at_most) = match s.model {
        SprtModel::Payoff => {
            (format!("wins at least {} more than {b}", bound(s.h1)), format!("it wins at most {} more", bound(s.h0)))
        }
        _ => (
            format!("is at least {} stronger than {b}", bound(s.h1)),
            format!("it is at most {} stronger", bound(s.h0)),
        ),
    };
    let games = format!("{} {}", thousands(row.games), headline.games(row.games));
    let errors = format!("error rates {}%/{}%", trim(100.0 * s.alpha), trim(100.0 * s.beta));
    match decision {
        SprtDecision::AcceptH1 => format!("accepted: {a} {claim}, after {games}; {errors}"),
        SprtDecision::AcceptH0 => format!("rejected: {a} {claim}; {at_most}, after {games}; {errors}"),
        SprtDecision::Continue => {
            let (lower, upper) = s.bounds();
            let llr = row.sprt.map_or(f64::NAN, |r| r.llr);
            format!(
                "not decided: the SPRT on whether {a} {claim} goes on after {games} (LLR {llr:.2}, decides at {lower:.2} or {upper:.2})"
            )
        }
    }
}

/// A bound as written: `200`, `0.5`, `-1.25`.
fn trim(x: f64) -> String {
    let s = format!("{x}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// What local best response's winnings against `bot` say (`setting` its actions, `hands` played,
/// `payoff` its payoff in big blinds a game over deals), in mbb/hand: the figure, its interval
/// and the bound, as the terminal (`arena exploit`) and report.html say it.
pub fn lbr_sentence(bot: &str, setting: &str, hands: u64, payoff: &MeanCi) -> String {
    let mbb = |bb: f64| format!("{:.0}", 1000.0 * bb + 0.0);
    let verdict = if payoff.lo > 0.0 {
        format!("{bot} is exploitable by at least {} mbb/hand (the interval's lower end)", mbb(payoff.lo))
    } else {
        format!("LBR's winnings are not shown to be above 0: this finds no exploitability of {bot}")
    };
    format!(
        "LBR ({setting}) wins {} mbb/hand against {bot} (95% interval {} to {}, {hands} hands, {} deals): {verdict}.",
        mbb(payoff.mean),
        mbb(payoff.lo),
        mbb(payoff.hi),
        payoff.n
    )
}

/// What an LBR figure means and what it does not, in two sentences.
pub const LBR_MEANING: &str = "What LBR wins is a lower bound on the bot's exploitability: a best response \
wins at least as much. A figure near 0 does not show the bot hard to exploit, only not exploitable the \
way LBR looks (one street at a time, its bets valued as if called and checked down, no re-raise planned).";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::SprtResult;
    use crate::stats::{Pentanomial, Sprt, Trinomial, Welford};

    const BB: Unit = Unit::new("bb/100", 100.0);

    /// A heads-up row of paired deals: A's payoff minus B's in each deal (per game, big blinds),
    /// and the pairs' counts of games won.
    fn row(diffs: &[f64], penta: [u64; 5]) -> MatchRow {
        let diff: Welford = diffs.iter().copied().collect();
        let half: Welford = diffs.iter().map(|d| d / 2.0).collect();
        let other: Welford = diffs.iter().map(|d| -d / 2.0).collect();
        let penta = Pentanomial(penta);
        MatchRow {
            pairing: 0,
            bot_a: "rr".into(),
            bot_b: "rr-tight".into(),
            games: 2 * diffs.len() as u64,
            deals: diffs.len() as u64,
            tri: Trinomial::default(),
            penta,
            pentanomial: true,
            elo: penta.estimate(),
            payoff_a: half.ci(0.95),
            payoff_b: other.ci(0.95),
            payoff_diff: diff.ci(0.95),
            diff,
            variance_ratio: 1.0,
            adjusted: None,
            sprt: None,
        }
    }

    fn holdem() -> Headline {
        Headline::payoff(BB).called("hand")
    }

    #[test]
    fn a_decided_payoff_verdict_names_the_stronger_bot_in_the_unit() {
        // B wins about 2 big blinds a deal more: the verdict is B's, in bb/100, from B's side.
        let diffs: Vec<f64> = (0..400).map(|i| -2.0 + if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let r = row(&diffs, [100, 0, 200, 0, 100]);
        let text = sentence(&r, holdem());
        assert!(text.starts_with("rr-tight is stronger than rr: +200.00 bb/100 ["), "{text}");
        assert!(text.ends_with("(95% interval, 400 deals)"), "{text}");
        let lead = lead(&r, holdem());
        assert!(lead.decided() && lead.hi < 0.0);
        // The likelihood of superiority is on the payoff (B ahead: A's LOS near 0), whatever
        // the hands won say (here, exactly even).
        assert!(lead.los() < 1e-6, "{}", lead.los());
    }

    #[test]
    fn an_undecided_verdict_says_so_and_how_many_deals_would_decide_it() {
        // Mean +0.1 bb a deal with a spread of 1 over 100 deals: the interval holds 0.
        let diffs: Vec<f64> = (0..100).map(|i| 0.1 + if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let r = row(&diffs, [0, 0, 100, 0, 0]);
        let text = sentence(&r, holdem());
        assert!(text.starts_with("not decided: the interval holds 0 (rr against rr-tight: +10.00 bb/100 ["), "{text}");
        // Half-width t(99)·1.005/√100 ≈ 0.1994 bb against an effect of 0.1: (0.1994/0.1)² × 100
        // ≈ 398 deals in all, so about 300 more (two significant figures, rounded up).
        assert!(text.ends_with("at this effect about 300 more deals would decide it"), "{text}");
        let more = deals_to_decide(0.1, (r.payoff_diff.hi - r.payoff_diff.lo) / 2.0, 100).unwrap();
        assert!((more - 297.6).abs() < 2.0, "{more}");
        // No effect at all: no estimate.
        assert_eq!(deals_to_decide(0.0, 1.0, 100), None);
    }

    #[test]
    fn the_los_is_the_normal_probability_of_the_payoff_being_above_zero() {
        let diffs: Vec<f64> = (0..50).map(|i| 0.3 + if i % 2 == 0 { 2.0 } else { -2.0 }).collect();
        let r = row(&diffs, [0, 0, 50, 0, 0]);
        let d = &r.payoff_diff;
        let expected = normal_cdf(d.mean / (d.sd / (d.n as f64).sqrt()));
        assert!((lead(&r, holdem()).los() - expected).abs() < 1e-12);
        assert!(expected > 0.5 && expected < 0.99);
    }

    #[test]
    fn an_sprt_decision_is_put_into_words() {
        let diffs: Vec<f64> = (0..3633).map(|i| 2.5 + if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        let mut r = row(&diffs, [0, 0, 3633, 0, 0]);
        r.bot_a = "rr-tight".into();
        r.bot_b = "rr".into();
        let sprt = Sprt::new(0.0, 200.0, 0.05, 0.05, SprtModel::Payoff).unwrap().in_payoff_unit(BB);
        let llr = sprt.llr_payoff(&r.diff);
        r.sprt = Some(SprtResult { sprt, llr, decision: sprt.decision(llr) });
        assert_eq!(
            sentence(&r, holdem()),
            "accepted: rr-tight wins at least 200 bb/100 more than rr, after 7,266 hands; error rates 5%/5%"
        );
        r.sprt = Some(SprtResult { sprt, llr: -3.0, decision: SprtDecision::AcceptH0 });
        assert_eq!(
            sentence(&r, holdem()),
            "rejected: rr-tight wins at least 200 bb/100 more than rr; it wins at most 0 bb/100 more, after 7,266 hands; error rates 5%/5%"
        );
        r.sprt = Some(SprtResult { sprt, llr: 1.0, decision: SprtDecision::Continue });
        assert!(sentence(&r, holdem()).starts_with("not decided: the SPRT on whether rr-tight wins at least 200 bb/100 more than rr goes on after 7,266 hands (LLR 1.00"));
        let elo = Sprt::new(0.0, 20.0, 0.05, 0.1, SprtModel::Logistic).unwrap();
        r.sprt = Some(SprtResult { sprt: elo, llr: 3.0, decision: SprtDecision::AcceptH1 });
        let gomoku = Headline::elo(Unit::new("points/game", 1.0));
        assert_eq!(
            sentence(&r, gomoku),
            "accepted: rr-tight is at least 20 Elo stronger than rr, after 7,266 games; error rates 5%/10%"
        );
    }

    #[test]
    fn an_elo_verdict_decides_on_the_score_and_survives_a_clean_sweep() {
        let gomoku = Headline::elo(Unit::new("points/game", 1.0));
        // Every pair won by A: Elo +inf, but the score's interval is finite and decides.
        let r = row(&[2.0; 50], [0, 0, 0, 0, 50]);
        let text = sentence(&r, gomoku);
        assert!(text.starts_with("rr is stronger than rr-tight: +inf Elo [+"), "{text}");
        assert!(text.contains("score 100.0% (95% interval, 50 deals)"), "{text}");
        // Even: not decided, and no estimate of the deals (no effect seen).
        let even = row(&[0.0; 50], [0, 0, 50, 0, 0]);
        assert!(sentence(&even, gomoku).starts_with("not decided: the interval holds 0"));
    }

    #[test]
    fn counts_are_rounded_as_a_person_would() {
        assert_eq!(about(297.6), "300");
        assert_eq!(about(1849.0), "1,900");
        assert_eq!(about(42.2), "43");
    }

    #[test]
    fn payoffs_show_two_significant_figures_of_their_intervals() {
        assert_eq!(decimals([(-632.9, -24.5)]), 2);
        assert_eq!(decimals([(0.1109, 0.1215)]), 4);
        assert_eq!(decimals([(1.0, 1.0)]), 2);
        assert_eq!(decimals([(1.0, 1.0), (0.5, 0.6)]), 3);
        assert_eq!(decimals([(f64::NEG_INFINITY, f64::INFINITY)]), 2);
    }
}
