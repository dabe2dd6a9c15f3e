//! Luck taken out of a game's payoffs, without bias (docs/book/src/luck-method.md).
//!
//! Duplicate deals take out the luck of who was dealt what; what is left is the luck of the
//! chance that falls later (the board, the next card) and of the bots' own coin flips. A game
//! that has a *value function* ([`Game::value`]: each seat's expected payoff if nobody bet again,
//! over the chance not yet revealed) lets the play loop add, at every step, a correction with
//! mean zero (AIVAT, Burch et al. 2018):
//!
//! - at a decision, `Σ π(a') W(a') − W(a)` when the bot said the probabilities `π` it drew its
//!   action `a` from ([`crate::core::Bot::policy`]), where `W(a)` is the value after action `a`
//!   averaged over the chance it reveals; nothing when the policy is unknown;
//! - at the chance the step reveals (a street's cards, a next card): `W(a) − V`, `V` the value
//!   once it is revealed.
//!
//! Each term has mean zero given everything before it, so the adjusted payoff (payoff plus the
//! terms) has the plain payoff's mean for any value function; a good value function makes it
//! vary much less. The terms are also kept by component ([`Terms`]: the value or the game's
//! stake value, decision or chance, the game's cell of street and pot), so that the report can
//! weigh each component by a coefficient fitted on the deals before (`stats::TermFit`): any
//! weight that depends only on earlier deals keeps the mean, since a term's cell is known before
//! it falls. The *all-in* adjustment is the last step's chance term alone: once no
//! decision is left, the payoff is replaced by its expectation over the cards still to come,
//! enumerated exactly.
//!
//! The expectation over chance is a game's to compute: it enumerates the completions when they
//! are few and otherwise averages a sample of them drawn from the deal's own luck stream
//! ([`LuckCache::rng`], shared by every replay of a deal, apart from the deck's stream). A
//! sampled average is an unbiased estimate of the exact one drawn independently of the cards
//! that fall, so the sum keeps its mean.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::core::game::{Game, Seat};
use crate::core::play::{Adjusted, PerSeat, SeatResult};
use crate::core::seeds::mix;

/// How a verdict's payoff is estimated: the `estimator` column of match.csv and summary.csv.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Estimator {
    /// The payoffs as they fell, each game on its own.
    Plain,
    /// The payoffs as they fell, averaged over a deal's seat rotations.
    Duplicate,
    /// Duplicate, the payoff of a game whose result no decision could change any more replaced
    /// by its expectation over the cards still to come.
    #[value(name = "all-in")]
    #[serde(rename = "all-in")]
    AllIn,
    /// Duplicate, with AIVAT's corrections at every chance event and at every decision of a bot
    /// whose probabilities are known, weighed by street and pot size as fitted on the deals
    /// before.
    Aivat,
    /// Plain or duplicate, regressed on each seat's starting strength (what the deal alone
    /// decided, as the game measures it) with coefficients fitted on the deals before
    /// (docs/book/src/luck-method.md).
    // (The strength is the game's `Game::covariate`; this comment is the help text's, so it
    // names no item of the code.)
    Covariates,
}

impl Estimator {
    /// The name a config's `estimator` and `--estimator` take.
    pub fn name(self) -> &'static str {
        match self {
            Estimator::Plain => "plain",
            Estimator::Duplicate => "duplicate",
            Estimator::AllIn => "all-in",
            Estimator::Aivat => "aivat",
            Estimator::Covariates => "covariates",
        }
    }

    /// Every estimator's name, as a config or `--estimator` spells it, in a list.
    pub fn names() -> String {
        <Estimator as clap::ValueEnum>::value_variants().iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
    }

    /// Whether this estimator needs the game's value function (it adjusts the payoffs).
    pub fn adjusts(self) -> bool {
        matches!(self, Estimator::AllIn | Estimator::Aivat)
    }

    /// Whether the verdicts carry an adjusted payoff beside the plain one (all but plain and
    /// duplicate).
    pub fn has_adjusted(self) -> bool {
        self.adjusts() || self.starts()
    }

    /// Whether this estimator needs the game's starting strengths ([`Game::covariate`]).
    pub fn starts(self) -> bool {
        self == Estimator::Covariates
    }

    /// The columns this estimator adds to games.csv, before the game's own: the adjusted
    /// payoffs, or each seat's starting strength.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Estimator::AllIn | Estimator::Aivat => &LUCK_COLUMNS,
            Estimator::Covariates => &[START_COLUMN],
            Estimator::Plain | Estimator::Duplicate => &[],
        }
    }

    /// A seat's payoff as this estimator counts it: adjusted when it adjusts and the record
    /// carries the adjustment, else as it fell.
    pub fn payoff(self, result: &SeatResult) -> f64 {
        match (self, result.adjusted) {
            (Estimator::AllIn, Some(a)) => a.allin,
            (Estimator::Aivat, Some(a)) => a.aivat,
            _ => result.payoff,
        }
    }
}

/// The pot's share of the chips in play (what the seats in the hand started with) at which a
/// luck cell's pot bucket changes ([`pot_bucket`]): a blind pot, a raised pot, a pot bet into
/// again, a pot where most chips are in. At 100 big blinds a seat heads-up: 4, 12 and 40 bb.
const POT_SHARES: [f64; 3] = [0.02, 0.06, 0.2];
/// The buckets [`pot_bucket`] sorts a pot into.
pub const POT_BUCKETS: usize = POT_SHARES.len() + 1;

/// The bucket of a pot that is `share` of the chips in play, below [`POT_BUCKETS`]: a game's
/// [`Game::luck_cell`] by pot size, one table for every game.
pub fn pot_bucket(share: f64) -> usize {
    POT_SHARES.iter().filter(|&&edge| share >= edge).count()
}

/// The most completions a game's sampled value averages ([`sample_size`]).
pub const FULL_SAMPLE: usize = 2_000;
/// The pot's share of the chips in play from which a value averages [`FULL_SAMPLE`] completions.
const FULL_SAMPLE_SHARE: f64 = 0.2;

/// How many completions a sampled value averages when the pot with the bet called is `share` of
/// the chips in play: [`FULL_SAMPLE`] × (share ÷ a fifth)², at least the game's `floor`, at most
/// [`FULL_SAMPLE`]. A sampled value's error is the pot times the spread of its share over
/// √samples, so up to the full sample every pot's values carry the same error in chips, and a pot
/// of antes or blinds costs a fraction of the count. The size depends on the betting alone, never
/// on a card not yet known: each value stays an unbiased estimate of its exact average, and each
/// term keeps its mean.
pub fn sample_size(share: f64, floor: usize) -> usize {
    let scaled = FULL_SAMPLE as f64 * (share / FULL_SAMPLE_SHARE).powi(2);
    (scaled.ceil() as usize).clamp(floor, FULL_SAMPLE)
}

/// games.csv's column of the all-in adjusted payoff.
pub const ALLIN_COLUMN: &str = "payoff_allin";
/// games.csv's column of the AIVAT adjusted payoff.
pub const AIVAT_COLUMN: &str = "payoff_aivat";
/// The columns a game with a value function adds to games.csv, before its own, when a run
/// adjusts its payoffs.
pub const LUCK_COLUMNS: [&str; 3] = [ALLIN_COLUMN, AIVAT_COLUMN, TERMS_COLUMN];
/// games.csv's column of a seat's AIVAT terms by component ([`Terms`]).
pub const TERMS_COLUMN: &str = "aivat_terms";

/// One seat's AIVAT terms of a game, summed by component: `(component, sum)` for each component
/// with a term, in component order. A component is a value (0 the game's value, 1 its stake
/// value), a kind (0 a decision's term, 1 a chance's) and a cell of the game's
/// ([`Game::luck_cell`]): `(value × 2 + kind) × cells + cell`. The terms of value 0 add up to
/// the AIVAT correction. In games.csv: `component:sum` pairs separated by spaces, each sum as
/// Rust prints an `f64` (read back bit for bit), empty when the seat has none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Terms(pub Vec<(u16, f64)>);

impl std::fmt::Display for Terms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (k, x)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}:{x}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Terms {
    type Err = String;
    fn from_str(text: &str) -> Result<Terms, String> {
        let bad = || format!("`{TERMS_COLUMN}` is not a list of component:number pairs");
        text.split_whitespace()
            .map(|pair| {
                let (k, x) = pair.split_once(':').ok_or_else(bad)?;
                Ok((k.parse().map_err(|_| bad())?, x.parse::<f64>().map_err(|_| bad())?))
            })
            .collect::<Result<Vec<_>, String>>()
            .map(Terms)
    }
}
/// games.csv's column of a seat's starting strength minus the table's mean (the covariate of
/// `estimator = "covariates"`).
pub const START_COLUMN: &str = "start";

/// Each seat's starting strength minus the table's mean, from [`Game::covariate`]: by the
/// exchangeability the game promises, each has mean zero exactly, whatever the scale.
pub fn centred_starts<G: Game>(game: &G, state: &G::State, out: &mut [f64]) {
    game.covariate(state, out);
    let mean = out.iter().sum::<f64>() / out.len() as f64;
    out.iter_mut().for_each(|x| *x -= mean);
}

/// The key of the luck stream among a deal's streams (the deal's own is the deck).
const LUCK_STREAM: u64 = 0x4c55_434b; // "LUCK"

/// What a game's value function keeps between calls within one game: the completions of the
/// chance not yet revealed (or a sample of them), as every seat's showdown rank, for the number
/// of chance events known when they were drawn. A game fills it its own way; the play loop
/// clears it every game.
#[derive(Clone, Debug)]
pub struct LuckCache {
    /// `(known, seats)` of the completions held, `None` when none are.
    pub key: Option<(usize, usize)>,
    /// Completion after completion, one rank a seat (higher wins).
    pub ranks: Vec<u32>,
    /// What the game counted over the completions for one situation (hold'em: how often each
    /// order of the hands still in comes up; stud: how often each set of seats holds the best
    /// hand), so that the values of several actions in it, and of the chance that closes the
    /// street, cost the count once: the counts do not depend on the bets.
    pub counts: Vec<(u64, u64)>,
    /// The situation whose counts are held, as the game keys it (hold'em and stud: the cards
    /// known, and the seats still in with whether the count is exact), `None` before the first.
    pub counts_key: Option<(usize, u64)>,
    /// The deal's luck stream: a sample of completions is drawn from it.
    pub rng: ChaCha8Rng,
}

impl LuckCache {
    /// The cache of the game whose deal seed is `deal`.
    pub fn new(deal: u64) -> LuckCache {
        LuckCache {
            key: None,
            ranks: Vec::new(),
            counts: Vec::new(),
            counts_key: None,
            rng: ChaCha8Rng::seed_from_u64(mix(deal, LUCK_STREAM)),
        }
    }
}

/// Whether a value is wanted exactly (every completion) or may be a sample's average.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exactness {
    /// Enumerate when the completions are few, else average a sample.
    Sampled,
    /// Enumerate every completion, however many (the all-in adjustment).
    Exact,
}

/// A step as [`Luck::step`] sees it: the state acted in, the action, the bot's stated policy.
type Step<'a, G> = (&'a <G as Game>::State, &'a <G as Game>::Action, &'a [(<G as Game>::Action, f64)]);

/// The corrections of one game as it is played ([`Luck::step`] after every action).
#[derive(Clone, Debug)]
pub struct Luck {
    cache: LuckCache,
    /// Σ of the last step's chance term: the all-in correction (set at the step that ends the game).
    allin: PerSeat<f64>,
    /// Σ of every step's terms.
    aivat: PerSeat<f64>,
    /// How the value after the game's last step is averaged over the cards it deals: exactly
    /// for the all-in estimator (its column is that term alone), by the sample of other steps
    /// for AIVAT (unbiased as well, and a pre-flop all-in costs 2,000 boards, not 1.7 million).
    last: Exactness,
    /// Every seat's terms by component ([`Terms`]), `width` a seat; empty before the first
    /// step, which learns the game's cells and whether it has a stake value.
    terms: Vec<f64>,
    width: usize,
    cells: usize,
    stake: bool,
    /// Scratch, per seat, of the value and the stake value: after the action, averaged over the
    /// policy, once the chance is revealed.
    values: [[Vec<f64>; 2]; 3],
}

/// A term's kind, in its component ([`Terms`]).
const DECISION: usize = 0;
const CHANCE: usize = 1;

impl Luck {
    /// Luck's terms at the start of deal number `deal` at a table of `seats`: all zero. The
    /// last step's value is exact (the all-in adjustment); see [`Luck::for_estimator`].
    pub fn new(seats: usize, deal: u64) -> Luck {
        Luck {
            cache: LuckCache::new(deal),
            allin: smallvec::smallvec![0.0; seats],
            aivat: smallvec::smallvec![0.0; seats],
            last: Exactness::Exact,
            terms: Vec::new(),
            width: 0,
            cells: 0,
            stake: false,
            values: std::array::from_fn(|_| [vec![0.0; seats], vec![0.0; seats]]),
        }
    }

    /// [`Luck::new`] for a run of `estimator`: the last step's value exact for the all-in
    /// estimator only; an AIVAT run averages it over the sample its other steps use, so its
    /// `payoff_allin` column is then an unbiased estimate of the exact one, not the exact one.
    pub fn for_estimator(seats: usize, deal: u64, estimator: Estimator) -> Luck {
        let last = if estimator == Estimator::AllIn { Exactness::Exact } else { Exactness::Sampled };
        Luck { last, ..Luck::new(seats, deal) }
    }

    /// Adds the terms of one step: `before` the state the seat acted in, `action` what it did,
    /// `after` the state it led to, `policy` the probabilities the bot drew its action from
    /// (empty when unknown; ignored unless it gives `action` a positive probability, sums to one
    /// and holds only legal actions).
    pub fn step<G: Game>(
        &mut self,
        game: &G,
        before: &G::State,
        action: &G::Action,
        after: &G::State,
        policy: &[(G::Action, f64)],
    ) {
        let seats = self.aivat.len();
        let known = game.revealed(before);
        let revealed = game.revealed(after);
        let over = game.to_act(after).is_none();
        // The value after the action, over the chance it reveals (exactly for the game's last
        // step when the run wants the all-in adjustment exact).
        let exactness = if over && revealed > known { self.last } else { Exactness::Sampled };
        let [mut w, mut expected, mut v] = std::mem::take(&mut self.values);
        game.value(after, known, exactness, &mut self.cache, &mut w[0]);
        // The stake value right after, on the same completions (a game keeps one count). The
        // first step learns whether the game has one, and its cells.
        let stake = game.stake_value(after, known, exactness, &mut self.cache, &mut w[1]);
        if self.width == 0 {
            self.cells = game.luck_cells().max(1);
            self.stake = stake;
            self.width = 2 * self.cells * if stake { 2 } else { 1 };
            self.terms = vec![0.0; seats * self.width];
        }
        if !self.expected_over(game, (before, action, policy), known, &w, &mut expected, &mut v) {
            expected[0].copy_from_slice(&w[0]);
            expected[1].copy_from_slice(&w[1]);
        }
        if revealed > known {
            game.value(after, revealed, Exactness::Sampled, &mut self.cache, &mut v[0]);
            if self.stake {
                game.stake_value(after, revealed, Exactness::Sampled, &mut self.cache, &mut v[1]);
            }
        } else {
            v[0].copy_from_slice(&w[0]);
            v[1].copy_from_slice(&w[1]);
        }
        for seat in 0..seats {
            self.aivat[seat] += expected[0][seat] - v[0][seat];
            if over {
                self.allin[seat] = w[0][seat] - v[0][seat];
            }
        }
        let cells = [game.luck_cell(before).min(self.cells - 1), game.luck_cell(after).min(self.cells - 1)];
        for value in 0..if self.stake { 2 } else { 1 } {
            self.add_terms(value, cells, &expected[value], &w[value], &v[value]);
        }
        self.values = [w, expected, v];
    }

    /// Adds a step's terms of value `value` to their components: the decision's `expected − w`
    /// in the cell of the state acted in, the chance's `w − v` in the cell of the state it
    /// revealed its cards into (`cells`).
    fn add_terms(&mut self, value: usize, cells: [usize; 2], expected: &[f64], w: &[f64], v: &[f64]) {
        let decision = (value * 2 + DECISION) * self.cells + cells[0];
        let chance = (value * 2 + CHANCE) * self.cells + cells[1];
        for seat in 0..self.aivat.len() {
            let row = &mut self.terms[seat * self.width..(seat + 1) * self.width];
            row[decision] += expected[seat] - w[seat];
            row[chance] += w[seat] - v[seat];
        }
    }

    /// Seat `seat`'s terms by component, those that are not zero ([`Terms`]).
    pub fn terms(&self, seat: Seat) -> Terms {
        let row = self.terms.get(seat * self.width..(seat + 1) * self.width).unwrap_or(&[]);
        Terms(row.iter().enumerate().filter(|(_, x)| **x != 0.0).map(|(k, &x)| (k as u16, x)).collect())
    }

    /// `Σ π(a') W(a')` over the bot's stated policy into `sum`, of the value and (when the game
    /// has one) the stake value (`w` is scratch); false when the policy cannot be used (then
    /// `sum` holds nothing meaningful). No allocation: this runs at every decision.
    fn expected_over<G: Game>(
        &mut self,
        game: &G,
        (before, action, policy): Step<'_, G>,
        known: usize,
        w_action: &[Vec<f64>; 2],
        sum: &mut [Vec<f64>; 2],
        w: &mut [Vec<f64>; 2],
    ) -> bool {
        let total: f64 = policy.iter().map(|(_, p)| p).sum();
        let played = policy.iter().any(|(a, p)| a == action && *p > 0.0);
        if policy.is_empty() || !played || (total - 1.0).abs() > 1e-9 || policy.iter().any(|(_, p)| *p < 0.0) {
            return false;
        }
        let values = if self.stake { 2 } else { 1 };
        sum.iter_mut().for_each(|s| s.fill(0.0));
        for (a, p) in policy {
            if *p == 0.0 {
                continue;
            }
            if a == action {
                for k in 0..values {
                    w[k].copy_from_slice(&w_action[k]);
                }
            } else {
                let mut state = before.clone();
                if game.apply(&mut state, a).is_err() {
                    return false;
                }
                game.value(&state, known, Exactness::Sampled, &mut self.cache, &mut w[0]);
                if self.stake {
                    game.stake_value(&state, known, Exactness::Sampled, &mut self.cache, &mut w[1]);
                }
            }
            for k in 0..values {
                sum[k].iter_mut().zip(w[k].iter()).for_each(|(s, x)| *s += p * x);
            }
        }
        true
    }

    /// Adds `p` to `action`'s probability in a bot's `policy` (a [`crate::core::Bot::policy`]
    /// being made up as the bot decides): equal actions are one entry, nothing is added for a
    /// zero probability.
    pub fn add_chance<A: PartialEq>(policy: &mut Vec<(A, f64)>, action: A, p: f64) {
        if p <= 0.0 {
            return;
        }
        match policy.iter_mut().find(|(a, _)| *a == action) {
            Some((_, q)) => *q += p,
            None => policy.push((action, p)),
        }
    }

    /// The adjusted payoffs of a game that ended with `payoff` by the rules: (all-in, AIVAT).
    pub fn adjusted(&self, seat: Seat, payoff: f64) -> Adjusted {
        Adjusted { allin: payoff + self.allin[seat], aivat: payoff + self.aivat[seat] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_follows_the_pot() {
        // From a fifth of the chips in play the full sample; below, in proportion to the pot's
        // square (the same error in chips); never fewer than the floor.
        assert_eq!(sample_size(0.2, 16), FULL_SAMPLE);
        assert_eq!(sample_size(0.9, 16), FULL_SAMPLE);
        assert_eq!(sample_size(0.1, 16), FULL_SAMPLE / 4);
        assert_eq!(sample_size(0.01, 16), 16);
        assert_eq!(sample_size(0.01, 200), 200);
        let sizes: Vec<usize> = (0..=40).map(|i| sample_size(f64::from(i) / 100.0, 16)).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    }
}
