//! ev-adaptive's model of one opponent: a distribution over its hand's heads-up equity (20 bins),
//! starting from the distribution over all hands and reweighted by what the opponent does.
//!
//! Only actions taken after looking say something about a hand: a blind seat has not seen its
//! cards, so its calls and raises carry no information. A seen seat that calls is likelier to hold
//! a hand worth calling, one that raises likelier still (logistic likelihoods in the equity, with
//! midpoints `call_mid`, `raise_mid`); a seat that wins a compare beat a hand, which a hand of equity
//! e does with probability about e. Every observation multiplies in, so the estimated win rate
//! moves further with every action of the hand (the series' "dynamic convergence").

use std::sync::OnceLock;

use crate::core::Seat;

use super::super::engine::Event;
use super::super::winprob::equity_table;

pub const BINS: usize = 20;

#[derive(Clone, Copy, Debug)]
pub struct Likelihoods {
    pub call_mid: f64,
    pub raise_mid: f64,
    pub width: f64,
}

#[derive(Clone, Debug)]
pub struct Belief {
    /// Unnormalised weight of each equity bin.
    w: [f64; BINS],
    /// Whether the opponent has looked.
    seen: bool,
}

fn centre(b: usize) -> f64 {
    (b as f64 + 0.5) / BINS as f64
}

/// The share of all hands in each equity bin: the prior, before any action.
fn prior() -> &'static [f64; BINS] {
    static PRIOR: OnceLock<[f64; BINS]> = OnceLock::new();
    PRIOR.get_or_init(|| {
        let equity = equity_table(false);
        let mut h = [0.0; BINS];
        for &e in equity {
            h[((e as f64 * BINS as f64) as usize).min(BINS - 1)] += 1.0 / equity.len() as f64;
        }
        h
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Belief {
    pub fn uniform() -> Belief {
        Belief { w: *prior(), seen: false }
    }

    /// Probability that my hand beats this opponent, divided by the same against a random hand:
    /// the factor applied to the exact heads-up figure. `equity` is my hand's heads-up equity;
    /// `known` is false while I am blind (my hand is then a random hand of equity uniform in 0..1).
    pub fn scale(&self, equity: f64, known: bool) -> f64 {
        let beat = |b: usize| {
            if known {
                ((equity - b as f64 / BINS as f64) * BINS as f64).clamp(0.0, 1.0)
            } else {
                1.0 - centre(b)
            }
        };
        let expect = |w: &[f64; BINS]| {
            let total: f64 = w.iter().sum();
            w.iter().enumerate().map(|(b, &x)| x * beat(b)).sum::<f64>() / total
        };
        let against_random = expect(prior());
        if against_random < 1e-9 {
            return 1.0;
        }
        expect(&self.w) / against_random
    }

    fn reweight(&mut self, f: impl Fn(f64) -> f64) {
        for (b, w) in self.w.iter_mut().enumerate() {
            *w *= f(centre(b));
        }
        let total: f64 = self.w.iter().sum();
        if total > 0.0 {
            self.w.iter_mut().for_each(|w| *w /= total);
        } else {
            self.w = *prior();
        }
    }

    /// Updates the beliefs (one per seat) with one public event; `me` is the observer.
    pub fn observe(beliefs: &mut [Belief], lk: &Likelihoods, event: &Event, me: Seat) {
        match *event {
            Event::Look { seat } => beliefs[seat].seen = true,
            Event::Call { seat, .. } if seat != me && beliefs[seat].seen => {
                beliefs[seat].reweight(|e| sigmoid((e - lk.call_mid) / lk.width))
            }
            Event::Raise { seat, .. } if seat != me && beliefs[seat].seen => {
                beliefs[seat].reweight(|e| sigmoid((e - lk.raise_mid) / lk.width))
            }
            Event::Compare { seat, target, loser, .. } => {
                let winner = if loser == seat { target } else { seat };
                if winner != me {
                    beliefs[winner].reweight(|e| e);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LK: Likelihoods = Likelihoods { call_mid: 0.4, raise_mid: 0.7, width: 0.1 };

    #[test]
    fn blind_actions_say_nothing_and_seen_raises_converge() {
        let mut beliefs = vec![Belief::uniform(); 2];
        for _ in 0..5 {
            Belief::observe(&mut beliefs, &LK, &Event::Raise { seat: 1, stake: 2, paid: 2 }, 0);
        }
        assert!((beliefs[1].scale(0.8, true) - 1.0).abs() < 1e-12, "blind raises are no evidence");
        Belief::observe(&mut beliefs, &LK, &Event::Look { seat: 1 }, 0);
        let mut last = beliefs[1].scale(0.8, true);
        assert!(last < 1.0 + 1e-12);
        for _ in 0..6 {
            Belief::observe(&mut beliefs, &LK, &Event::Raise { seat: 1, stake: 2, paid: 4 }, 0);
            let now = beliefs[1].scale(0.8, true);
            assert!(now < last, "each seen raise lowers my estimate");
            last = now;
        }
        // After many raises the opponent is believed to hold about raise_mid or better: an 0.8
        // hand wins against that well under its 0.8 against a random hand.
        assert!(0.8 * last < 0.5, "{}", 0.8 * last);
        // A strong hand keeps most of its edge.
        assert!(0.99 * beliefs[1].scale(0.99, true) > 0.9);
    }
}
