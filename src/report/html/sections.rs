//! The sections of one run's part of the page, in reading order: what was run, who won, how sure
//! that is, how the run got there, and what the game's players look at.

use std::fmt::Write;

use super::plot::{self, Estimate, Level, Line};
use super::run::RunData;
use super::scale::{self, Bins};
use super::{escape, figure_of as figure, games};
use crate::error::Result;
use crate::report::{num, verdict, BotSummary};
use crate::stats::MeanCi;

/// Bins of the per-deal payoff histogram, at most.
const BINS: usize = 15;
/// The share of a run's games a running mean is left to settle before its plot's y range is fitted
/// (see [`plot::lines`]).
const SETTLE: f64 = 0.1;
/// Rows of the difference plot; more are in match.csv.
const MAX_DIFFERENCES: usize = 20;

/// One run's sections.
pub fn run(run: &RunData) -> Result<String> {
    let mut out = String::new();
    out.push_str(&header(run));
    out.push_str(&verdicts(run));
    out.push_str(&exploitability(run));
    out.push_str(&bot_table(run));
    out.push_str(&timing(run));
    out.push_str(&forests(run)?);
    out.push_str(&differences(run)?);
    out.push_str(&running(run)?);
    out.push_str(&sprt(run)?);
    out.push_str(&distribution(run)?);
    out.push_str(&matrix(run));
    out.push_str(&games::section(run)?);
    Ok(out)
}

/// The run's name, status, seeds and config.
fn header(run: &RunData) -> String {
    let cfg = &run.cfg;
    let mut rows: Vec<(&str, String)> = vec![
        ("folder", run.dir.display().to_string()),
        ("game", cfg.game.to_string()),
        ("schedule", format!("{}{}", cfg.shape.name(), if cfg.paired { ", paired" } else { "" })),
        ("seed", cfg.seed.to_string()),
        ("games read", format!("{} of {} scheduled", run.games.len(), run.schedule.total())),
    ];
    match &run.manifest {
        Some(m) => {
            rows.push((
                "status",
                format!("{} ({} of {} games played)", m.status.as_str(), run.played(), m.games_planned),
            ));
            rows.push(("started", m.started.clone()));
            rows.push(("ended", m.ended.clone().unwrap_or_else(|| "not ended".into())));
            rows.push(("tool", format!("{} {} (commit {})", m.tool, m.version, m.commit)));
            rows.push(("command", m.command.join(" ")));
        }
        None => rows.push(("status", "unknown: no run.json in the folder".into())),
    }
    let mut out = format!("<h2>{}</h2>\n<table>\n", escape(&cfg.name));
    for (key, value) in rows {
        let _ = writeln!(out, "<tr><th class=\"l\">{key}</th><td class=\"l\">{}</td></tr>", escape(&value));
    }
    let _ = write!(
        out,
        "</table>\n<details><summary>config.toml</summary>\n<pre>{}</pre>\n</details>\n",
        escape(&run.config_text)
    );
    out
}

/// Every two bots' verdict in its sentence (as the terminal and match.csv say it).
fn verdicts(run: &RunData) -> String {
    let rows = &run.verdicts.matches;
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h3>Verdict</h3>\n<ul class=\"verdicts\">\n");
    for m in rows.iter().take(MAX_DIFFERENCES) {
        let _ = writeln!(out, "<li>{}</li>", escape(&verdict::sentence(m, run.headline)));
    }
    out.push_str("</ul>\n");
    if rows.len() > MAX_DIFFERENCES {
        let _ = writeln!(out, "<p class=\"note\">{} more pairs are in match.csv.</p>", rows.len() - MAX_DIFFERENCES);
    }
    out
}

/// A run of local best response (hold'em's `lbr` kind, `arena exploit`): for each LBR bot, the
/// bot it measures, its setting, the hands, what it wins in mbb/hand with its 95% interval, the
/// sentence of the bound and what the figure means; nothing for any other run.
fn exploitability(run: &RunData) -> String {
    let measured = |lbr: &str| {
        let others: Vec<&str> = run.cfg.bots.iter().map(|b| b.name.as_str()).filter(|&n| n != lbr).collect();
        others.join(", ")
    };
    let mut rows = String::new();
    let mut sentences = String::new();
    for choice in run.cfg.bots.iter().filter(|b| b.kind == "lbr") {
        let Some(summary) = run.verdicts.bots.iter().find(|b| b.bot == choice.name) else { continue };
        let (bot, setting, p) = (measured(&choice.name), choice.params.str("setting"), &summary.payoff);
        let mbb = |bb: f64| format!("{:.0}", 1000.0 * bb + 0.0);
        let _ = writeln!(
            rows,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>[{}, {}]</td></tr>",
            escape(&bot),
            escape(&choice.name),
            escape(setting),
            summary.games,
            p.n,
            mbb(p.mean),
            mbb(p.lo),
            mbb(p.hi)
        );
        let _ = writeln!(sentences, "<li>{}</li>", escape(&verdict::lbr_sentence(&bot, setting, summary.games, p)));
    }
    if rows.is_empty() {
        return String::new();
    }
    format!(
        "<h3>Exploitability</h3>\n<table>\n<tr><th class=\"l\">bot measured</th><th class=\"l\">by</th>\
         <th class=\"l\">setting</th><th>hands</th><th>deals</th><th>LBR wins, mbb/hand</th><th>95% interval</th></tr>\n\
         {rows}</table>\n<ul class=\"verdicts\">\n{sentences}</ul>\n<p class=\"note\">{} mbb/hand: thousandths of a \
         big blind a hand. Setting fc: LBR folds or calls; fcpa: it also raises the pot or goes all-in.</p>\n",
        escape(verdict::LBR_MEANING)
    )
}

/// The per-bot table: summary.csv's figures.
fn bot_table(run: &RunData) -> String {
    let unit = run.headline.unit;
    let d = verdict::decimals(run.verdicts.bots.iter().map(|b| (unit.of(b.payoff.lo), unit.of(b.payoff.hi))));
    let mut out = format!(
        "<h3>Bots</h3>\n<table>\n<tr><th class=\"l\">bot</th><th>games</th><th>wins</th><th>draws</th><th>losses</th>\
         <th>forfeits</th><th>score</th><th>win rate [95%]</th><th>payoff, {} [95%]</th></tr>\n",
        escape(unit.name)
    );
    for b in &run.verdicts.bots {
        let _ = writeln!(
            out,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.3}</td>\
             <td>{:.3} [{:.3}, {:.3}]</td><td>{:+.d$} [{:+.d$}, {:+.d$}]</td></tr>",
            escape(&b.bot),
            b.games,
            b.wins,
            b.draws,
            b.losses,
            b.forfeits,
            b.score,
            b.win_rate,
            b.win_rate_lo,
            b.win_rate_hi,
            unit.of(b.payoff.mean),
            unit.of(b.payoff.lo),
            unit.of(b.payoff.hi)
        );
    }
    let unit_note = match run.verdicts.bots.first().map(|b| b.ci_unit.as_str()) {
        Some("deal") => {
            "Intervals are over deals: a deal's replays and a bot's seats at one table are one observation."
        }
        _ => "Intervals are over games.",
    };
    let _ = write!(out, "</table>\n<p class=\"note\">{unit_note}</p>\n");
    out
}

/// The time and memory of the bots outside the process and of bots on a clock: timing.csv's
/// rows, as measured on the machine that ran them.
fn timing(run: &RunData) -> String {
    /// timing.csv's columns as the page heads them.
    const LABELS: &[(&str, &str)] = &[
        ("bot", "bot"),
        ("moves", "decisions"),
        ("mean_ms", "mean, ms"),
        ("median_ms", "median, ms"),
        ("p90_ms", "p90, ms"),
        ("p99_ms", "p99, ms"),
        ("max_ms", "max, ms"),
        ("time_losses", "lost on time"),
        ("clock_left_min_ms", "least on its clock, ms"),
        ("peak_memory_mib", "peak memory, MiB"),
    ];
    let Some((header, rows)) = run.timing.split_first() else { return String::new() };
    let mut out = String::from("<h3>Time and memory</h3>\n<table>\n<tr>");
    for (i, name) in header.iter().enumerate() {
        let class = if i == 0 { " class=\"l\"" } else { "" };
        let label = LABELS.iter().find(|(column, _)| column == name).map_or(name.as_str(), |(_, label)| label);
        let _ = write!(out, "<th{class}>{}</th>", escape(label));
    }
    out.push_str("</tr>\n");
    for row in rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            // Times to a hundredth of a millisecond under 10 ms, else a tenth; counts whole.
            let shown = match cell.parse::<f64>() {
                Ok(v) if i > 0 && v.fract() != 0.0 && v < 10.0 => format!("{v:.2}"),
                Ok(v) if i > 0 && v.fract() != 0.0 => format!("{v:.1}"),
                _ => cell.clone(),
            };
            let class = if i == 0 { " class=\"l\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", escape(&shown));
        }
        out.push_str("</tr>\n");
    }
    out.push_str(
        "</table>\n<p class=\"note\">The bots outside the process and those on a clock. Decision times are the bot's own \
         (a program outside is not charged what it waits for a core). Measured on the machine that ran the games: the one \
         part of this page that differs from run to run.</p>\n",
    );
    out
}

/// Each bot's mean payoff and win rate with their 95% intervals.
fn forests(run: &RunData) -> Result<String> {
    let bots = &run.verdicts.bots;
    let unit = run.headline.unit;
    let payoff: Vec<Estimate> = bots
        .iter()
        .map(|b| Estimate {
            label: b.bot.clone(),
            mean: unit.of(b.payoff.mean),
            lo: unit.of(b.payoff.lo),
            hi: unit.of(b.payoff.hi),
        })
        .collect();
    let wins: Vec<Estimate> = bots
        .iter()
        .map(|b| Estimate { label: b.bot.clone(), mean: b.win_rate, lo: b.win_rate_lo, hi: b.win_rate_hi })
        .collect();
    let even = 1.0 / run.cfg.seats as f64;
    let (payoff_title, wins_title) = ("Mean payoff, 95% intervals", "Win rate, 95% intervals");
    Ok(figure(
        payoff_title,
        &plot::forest(payoff_title, &payoff, &format!("mean payoff ({unit})"), 0.0)?,
        "The line is zero: a bot whose interval lies right of it wins payoff on average.",
    ) + &figure(
        wins_title,
        &plot::forest(wins_title, &wins, "share of games won (sole first place)", even)?,
        &format!("The line is {even:.3}: one table's share when all seats are equal (draws count as not won)."),
    ))
}

/// Every two bots' payoff difference (A minus B) against zero.
fn differences(run: &RunData) -> Result<String> {
    let rows = &run.verdicts.matches;
    if rows.is_empty() {
        return Ok(String::new());
    }
    let unit = run.headline.unit;
    let shown: Vec<Estimate> = rows
        .iter()
        .take(MAX_DIFFERENCES)
        .map(|m| Estimate {
            label: format!("{} - {}", m.bot_a, m.bot_b),
            mean: unit.of(m.payoff_diff.mean),
            lo: unit.of(m.payoff_diff.lo),
            hi: unit.of(m.payoff_diff.hi),
        })
        .collect();
    let more = rows.len().saturating_sub(MAX_DIFFERENCES);
    let note = format!(
        "A's mean payoff minus B's where they shared a table, in {unit}, over deals; an interval clear of zero separates them.{}",
        if more > 0 { format!(" {more} more pairs are in match.csv.") } else { String::new() }
    );
    let title = "Payoff difference between bots, 95% intervals";
    Ok(figure(title, &plot::forest(title, &shown, &format!("payoff difference ({unit})"), 0.0)?, &note))
}

/// Each bot's mean payoff as the games came in, with its 95% band; in a run that takes the luck
/// out of its payoffs, the adjusted mean beside the plain one.
fn running(run: &RunData) -> Result<String> {
    let estimator = run.cfg.estimator;
    let unit = run.headline.unit;
    let line = |bot: usize, label: String, mean: &dyn Fn(&BotSummary) -> Option<MeanCi>| {
        let means = run.running.iter().filter_map(|(games, s)| mean(&s[bot]).map(|m| (*games as f64, m)));
        let points = means.clone().map(|(g, m)| (g, unit.of(m.mean))).filter(|p| p.1.is_finite()).collect();
        let band = means
            .map(|(g, m)| (g, unit.of(m.lo), unit.of(m.hi)))
            .filter(|b| b.1.is_finite() && b.2.is_finite())
            .collect();
        Line { label, points, band }
    };
    let mut lines: Vec<Line> =
        run.names.iter().enumerate().map(|(bot, name)| line(bot, name.clone(), &|s| Some(s.payoff))).collect();
    if estimator.has_adjusted() {
        for (bot, name) in run.names.iter().enumerate() {
            lines.push(line(bot, format!("{name} ({})", estimator.name()), &|s| s.adjusted));
        }
    }
    let zero = [Level { label: "zero".into(), y: 0.0 }];
    let title = "Running mean payoff, 95% band";
    Ok(figure(
        title,
        &plot::lines(title, &lines, &zero, "games played", &format!("mean payoff ({unit})"), SETTLE)?,
        if estimator.has_adjusted() {
            "Each bot's mean payoff over the games read so far, in game order, as it fell and with the luck taken out (the estimator in brackets); the band is its 95% interval. A flat line inside a narrowing band has settled."
        } else {
            "Each bot's mean payoff over the games read so far, in game order; the band is its 95% interval. A flat line inside a narrowing band has settled."
        },
    ))
}

/// The SPRT's log-likelihood ratio, game by game, between its bounds.
fn sprt(run: &RunData) -> Result<String> {
    let Some(sprt) = &run.cfg.sprt else { return Ok(String::new()) };
    let (lower, upper) = sprt.bounds();
    let llr = run.llr_path.last().map_or(0.0, |p| p.1);
    let line = Line {
        label: "LLR".into(),
        points: run.llr_path.iter().map(|&(g, l)| (g as f64, l)).collect(),
        band: Vec::new(),
    };
    let levels = [
        Level { label: format!("H1 bound {upper:.3}"), y: upper },
        Level { label: format!("H0 bound {lower:.3}"), y: lower },
    ];
    let note = format!(
        "SPRT {} (alpha {}, beta {}): H0 says the difference is {} {unit}, H1 {} {unit}. Final LLR {llr:.3}: {}. Recomputed from games.csv in game order.",
        sprt.describe(),
        sprt.alpha,
        sprt.beta,
        sprt.h0,
        sprt.h1,
        match run.verdicts.matches.first() {
            Some(m) => verdict::sentence(m, run.headline),
            None => sprt.decision(llr).as_str().to_string(),
        },
        unit = sprt.unit,
    );
    let title = "SPRT log-likelihood ratio";
    // The whole path in range: it starts at zero and the bounds are in the range anyway.
    Ok(figure(title, &plot::lines(title, &[line], &levels, "games played", "LLR (natural log)", 0.0)?, &note))
}

/// The pentanomial counts of paired two-seat runs; otherwise each bot's per-deal payoffs.
fn distribution(run: &RunData) -> Result<String> {
    let penta: Vec<_> = run.verdicts.matches.iter().filter(|m| m.pentanomial).take(4).collect();
    if !penta.is_empty() {
        let labels: Vec<String> = ["LL", "LD", "WL+DD", "WD", "WW"].iter().map(|s| s.to_string()).collect();
        let mut out = String::new();
        for m in penta {
            let counts: Vec<f64> = m.penta.0.iter().map(|&c| c as f64).collect();
            let title = format!("Pentanomial: {} against {}", m.bot_a, m.bot_b);
            out.push_str(&figure(
                &title,
                &plot::bars(
                    &title,
                    &labels,
                    &counts,
                    &format!("outcome of a pair of games, from {}'s side", m.bot_a),
                    "pairs",
                )?,
                "Each deal played twice with the seats swapped; the two results of a pair, W win, D draw, L loss.",
            ));
        }
        return Ok(out);
    }
    let unit = run.headline.unit;
    let mut out = String::new();
    for (name, deals) in run.names.iter().zip(&run.deal_payoffs).take(6) {
        if deals.is_empty() {
            continue;
        }
        let title = format!("Per-deal payoff: {name}");
        let x_desc = format!("mean payoff in a deal ({unit})");
        let deals: Vec<f64> = deals.iter().map(|&d| unit.of(d)).collect();
        let deals = &deals;
        let mut distinct: Vec<f64> = deals.clone();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        // A few values each get a bar of their own; more share round bins.
        let plot = if distinct.len() <= BINS {
            let counts = distinct.iter().map(|d| deals.iter().filter(|v| *v == d).count() as f64).collect::<Vec<_>>();
            let labels: Vec<String> = distinct.iter().map(|d| scale::tidy((d * 1e3).round() / 1e3)).collect();
            plot::bars(&title, &labels, &counts, &x_desc, "deals")?
        } else {
            plot::histogram(&title, &Bins::round(deals, BINS), &x_desc, "deals")?
        };
        out.push_str(&figure(&title, &plot, ""));
    }
    Ok(out)
}

/// Every two bots' payoff difference as a table, when each two met at one table (round robins).
fn matrix(run: &RunData) -> String {
    let n = run.names.len();
    let rows = &run.verdicts.matches;
    if n < 3 || rows.is_empty() {
        return String::new();
    }
    let index = |name: &str| run.names.iter().position(|b| b == name);
    let mut cells = vec![vec![None; n]; n];
    for m in rows {
        let (Some(a), Some(b)) = (index(&m.bot_a), index(&m.bot_b)) else { continue };
        if cells[a][b].is_some() {
            return "<h3>Pairwise results</h3>\n<p class=\"note\">Bots met at more than one table: every pair's rows are in match.csv.</p>\n".into();
        }
        let (d, unit) = (&m.payoff_diff, run.headline.unit);
        let d = (unit.of(d.mean), unit.of(d.lo), unit.of(d.hi));
        cells[a][b] = Some(d);
        cells[b][a] = Some((-d.0, -d.2, -d.1));
    }
    let mut out = String::from("<h3>Pairwise results</h3>\n<table>\n<tr><th class=\"l\">row minus column</th>");
    for name in &run.names {
        let _ = write!(out, "<th>{}</th>", escape(name));
    }
    out.push_str("</tr>\n");
    for (a, name) in run.names.iter().enumerate() {
        let _ = write!(out, "<tr><th class=\"l\">{}</th>", escape(name));
        for cell in &cells[a] {
            match cell {
                // Bold when the interval is clear of zero.
                Some((mean, lo, hi)) if *lo > 0.0 || *hi < 0.0 => {
                    let _ = write!(out, "<td><b>{}</b> [{}, {}]</td>", signed(*mean), signed(*lo), signed(*hi));
                }
                Some((mean, lo, hi)) => {
                    let _ = write!(out, "<td>{} [{}, {}]</td>", signed(*mean), signed(*lo), signed(*hi));
                }
                None => out.push_str("<td>-</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str(
        &format!(
            "</table>\n<p class=\"note\">Mean payoff of the row's bot minus the column's, in {}, with its 95% interval; bold when the interval is clear of zero.</p>\n",
            run.headline.unit
        ),
    );
    out
}

fn signed(x: f64) -> String {
    let text = num(x);
    match text.parse::<f64>() {
        Ok(v) => format!("{v:+.3}"),
        Err(_) => text,
    }
}
