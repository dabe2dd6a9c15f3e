//! The value function that takes the luck of the draws out of a hand's payoffs (core/luck.rs,
//! docs/book/src/luck-method.md).
//!
//! A hand's chance is the wall: the deal, then one tile at every draw. Duplicate deals take out
//! the deal; AIVAT's chance term at a draw takes out what that one tile changed, measured by a
//! value: each seat's expected points from the tiles as they stand. Given everything on the table
//! (every hand, every discard), the next tile is uniform over the tiles left in the wall, whatever
//! its end (the wall was shuffled uniformly), so the value averaged over a draw is exact: at most
//! 34 kinds, weighted by the copies left.
//!
//! The value, seat by seat (one hand, no flowers: [`Mahjong::tiles_adjust`]):
//!
//! - a seat that has just drawn a tile it may win on is taken to declare: the value is the
//!   payoff of that self-drawn win (each other seat pays its fans + 8), exactly what follows;
//! - otherwise each seat has a chance to win the hand and a gain when it does, from its tiles
//!   ([`Mahjong::prospect`]): a seat holding 14 tiles takes its best discard (the one of the
//!   lowest shanten whose prospect is best). A seat `s` shanten from ready needs `s + 1` more useful
//!   tiles; they come at a rate proportional to its effective tiles not yet in sight (in the wall or
//!   in another hand) over all tiles not in sight, times its draws left (the live wall ÷ 4); the
//!   chance of `s + 1` of them in that time is a Poisson tail. A ready hand counts only the waits
//!   that make the 8 fans the rules ask, and gains what those wins score; others are discounted by
//!   [`Model::per_shanten`] a step and gain [`Model::fans`] fans;
//! - a winner's gain is paid by the three others equally, so the values add up to zero like the
//!   payoffs. With the live wall empty every chance is zero, and at the end of the hand the value
//!   is the payoff.
//!
//! Why this one: it needs no model of the bots, costs a few shanten look-ups a seat, and the
//! largest luck of a hand, the winning tile drawn or not, is in it exactly. Its constants are fixed
//! ([`MODEL`], chosen on seeds 1001–1002, outside any measurement): any fixed value keeps the
//! adjusted payoff unbiased; a closer one takes out more.

use super::bots::best_discard;
use super::engine::{Action, Mahjong, Phase, State, WinOn, SEATS};
use super::shanten::{shanten, shanten_each};
use super::tiles::{Counts, Tile, TILE_KINDS};
use crate::core::Seat;

/// The constants of the prospects ([`Mahjong::prospect`]).
#[derive(Clone, Copy, Debug)]
struct Model {
    /// Useful tiles a seat gets per draw of its own, per useful tile not in sight over all tiles
    /// not in sight: its own draw and the other seats' discards it may claim.
    rate: f64,
    /// The chance that a step of a hand not ready with enough fans leads to one that is.
    per_shanten: f64,
    /// The share of wins that are self-drawn (three seats pay) rather than on a discard.
    self_drawn: f64,
    /// The fans of a win by a hand not yet ready with its fans.
    fans: f64,
    /// Useful tiles a ready seat expects from one of its waits that another seat holds and does
    /// not need, over that seat's draws left ÷ the kinds it does not need (at most one).
    junk: f64,
}

/// The constants in use: the best of a small grid (rate 1-4, per shanten 0.3-0.8, junk 0-3) by
/// the variance ratio of pruned against greedy on 500 deals of seeds 1001 and 1002; the ratio
/// moved little across it (1.33-1.46).
const MODEL: Model = Model { rate: 2.0, per_shanten: 0.3, self_drawn: 0.4, fans: 10.0, junk: 0.5 };

/// What a seat's chance to win the hand is made of, and the points a win brings it.
#[derive(Clone, Copy, Debug, Default)]
struct Prospect {
    /// The useful tiles it expects from the wall (its draws, the others' discards of theirs).
    expected: f64,
    /// The useful tiles it needs: shanten + 1.
    needed: i32,
    /// The chance that the hand those tiles make has its fans.
    discount: f64,
    /// The points a win brings it.
    gain: f64,
    /// Its waits that make a win with its fans (ready hands only), a bit a kind.
    waits: u64,
    /// The kinds it holds and does not need (one fewer leaves its shanten as it is).
    junk: u64,
}

/// The seat that holds 14 tiles (it is to discard), with the tile it has just drawn (none after a
/// claim) and whether that tile replaced a kong.
type Turn = (Seat, Option<Tile>, bool);

impl Mahjong {
    /// Whether the payoffs can be adjusted: one hand without flowers, where each step draws at
    /// most one tile (a flower's replacements, or the next hand's deal, would be several).
    pub(super) fn tiles_adjust(&self) -> bool {
        self.hands == 1 && !self.flowers
    }

    /// Each seat's value at `s` ([`crate::core::Game::value`]) with the first `known` tiles taken
    /// known: the payoffs so far plus the hand's value, averaged over the last draw when it is
    /// not known.
    pub(super) fn tiles_value(&self, s: &State, known: usize, out: &mut [f64]) {
        for (o, &p) in out.iter_mut().zip(&s.payoff) {
            *o = f64::from(p);
        }
        if s.phase == Phase::Over {
            return;
        }
        let mut hand = [0.0; SEATS];
        self.hand_values(s, known, &mut hand);
        out.iter_mut().zip(hand).for_each(|(o, h)| *o += h);
    }

    /// The hand's part of [`Mahjong::tiles_value`].
    fn hand_values(&self, s: &State, known: usize, hand: &mut [f64; SEATS]) {
        if let Some((winner, payer, fans)) = self.claimed_win(s) {
            return discard_win(winner, payer, fans, hand);
        }
        let visible = visible(s);
        let turn = match s.phase {
            Phase::Turn { seat, drawn, after_kong } => Some((seat, drawn, after_kong)),
            _ => None,
        };
        let mut prospects = [Prospect::default(); SEATS];
        for (seat, p) in prospects.iter_mut().enumerate() {
            if turn.map(|t| t.0) != Some(seat) {
                *p = self.prospect(s, seat, &s.hands[seat], &visible);
            }
        }
        let unknown = Mahjong::tiles_taken(s).saturating_sub(known);
        debug_assert!(unknown <= 1, "a step draws at most one tile in a table that adjusts");
        match turn {
            Some((seat, Some(drawn), kong)) if unknown > 0 => {
                // The drawn tile not yet known: any of the wall's tiles, itself included, each copy
                // as likely. The other seats' prospects do not change with it (a tile in the wall
                // and one in another hand are both out of their sight).
                let mut pool = wall(s, &visible);
                pool[drawn as usize] += 1;
                let total: u32 = pool.iter().map(|&n| u32::from(n)).sum();
                let mut before = s.hands[seat];
                before[drawn as usize] -= 1;
                for (k, &copies) in pool.iter().enumerate().filter(|(_, &n)| n > 0) {
                    let mut held = before;
                    held[k] += 1;
                    let mut v = [0.0; SEATS];
                    self.turn_values(s, (seat, Some(k as Tile), kong), &held, &visible, &prospects, &mut v);
                    let weight = f64::from(copies) / f64::from(total);
                    hand.iter_mut().zip(v).for_each(|(h, x)| *h += weight * x);
                }
            }
            Some(t) => self.turn_values(s, t, &s.hands[t.0], &visible, &prospects, hand),
            None => shares(&prospects, draws(s), hand),
        }
    }

    /// The win a seat may claim on the tile offered (a discard, a kong to rob) and has not
    /// passed: the first in turn order after the seat that offers it, as the rules give it.
    /// (winner, the seat that pays for it, fans).
    fn claimed_win(&self, s: &State) -> Option<(Seat, Seat, f64)> {
        let (from, tile, asking, answers, kong) = match &s.phase {
            Phase::Claims { from, tile, asking, answers, .. } => (*from, *tile, *asking, answers, false),
            Phase::RobKong { seat, tile, asking, answers } => (*seat, *tile, *asking, answers, true),
            _ => return None,
        };
        let after = |k: Seat| (k + SEATS - from) % SEATS;
        (1..SEATS).map(|k| (from + k) % SEATS).find_map(|k| {
            let open = answers[k] == Action::Win || after(k) >= after(asking);
            let score = open.then(|| self.win_score(s, k, tile, false, kong)).flatten()?;
            Some((k, from, f64::from(score.total)))
        })
    }

    /// The hand's values when `turn`'s seat holds `held` (14 tiles less its sets) and the other
    /// seats' prospects are `prospects`: a win on the drawn tile is taken, else the seat's best
    /// discard counts.
    fn turn_values(
        &self,
        s: &State,
        (seat, drawn, kong): Turn,
        held: &Counts,
        visible: &Counts,
        prospects: &[Prospect; SEATS],
        out: &mut [f64; SEATS],
    ) {
        if let Some(t) = drawn {
            let mut standing = *held;
            standing[t as usize] -= 1;
            let on = WinOn { tile: t, self_drawn: true, kong, elsewhere: s.seen[t as usize] };
            if let Some(score) = self.win_score_with(s, seat, &standing, on) {
                let pay = f64::from(score.total) + 8.0;
                for (k, o) in out.iter_mut().enumerate() {
                    *o = if k == seat { 3.0 * pay } else { -pay };
                }
                return;
            }
        }
        // The discard the greedy bot would make; the first seat after this one that may win on
        // it is taken to (its discarder pays fans + 8, the other two 8).
        let (discard, _) = best_discard(held, s.melds[seat].len(), &s.seen);
        let on = WinOn { tile: discard, self_drawn: false, kong: false, elsewhere: s.seen[discard as usize] };
        for winner in (1..SEATS).map(|k| (seat + k) % SEATS) {
            if let Some(score) = self.win_score_with(s, winner, &s.hands[winner], on) {
                return discard_win(winner, seat, f64::from(score.total), out);
            }
        }
        let mut rest = *held;
        rest[discard as usize] -= 1;
        let mut all = *prospects;
        all[seat] = self.prospect(s, seat, &rest, visible);
        shares(&all, draws(s), out);
    }

    /// The prospect of `seat` standing with `standing` (13 tiles less its sets) at `s`.
    fn prospect(&self, s: &State, seat: Seat, standing: &Counts, visible: &Counts) -> Prospect {
        let m = MODEL;
        let declared = s.melds[seat].len();
        let sh = shanten(standing, declared);
        let after = shanten_each(standing, declared, true);
        // Copies of each kind out of this seat's sight: in the wall or another hand.
        let out_of_sight = |k: usize| f64::from(4u8.saturating_sub(visible[k] + standing[k]));
        let unseen: f64 = (0..TILE_KINDS).map(out_of_sight).sum();
        let (mut useful, mut valid, mut fans, mut waits) = (0.0, 0.0, 0.0, 0u64);
        for k in (0..TILE_KINDS).filter(|&k| after[k] < sh) {
            let copies = out_of_sight(k);
            useful += copies;
            if sh == 0 && copies > 0.0 {
                let on = WinOn { tile: k as Tile, self_drawn: true, kong: false, elsewhere: s.seen[k] };
                if let Some(score) = self.win_score_with(s, seat, standing, on) {
                    valid += copies;
                    fans += copies * f64::from(score.total);
                    waits |= 1 << k;
                }
            }
        }
        let (count, needed, discount, fans) = if sh == 0 && valid > 0.0 {
            (valid, 1, 1.0, fans / valid)
        } else {
            let sh = sh.max(0);
            (useful, sh as i32 + 1, m.per_shanten.powi(sh.max(1) as i32), m.fans)
        };
        let expected = if unseen > 0.0 { m.rate * draws(s) * count / unseen } else { 0.0 };
        let gain = m.self_drawn * 3.0 * (fans + 8.0) + (1.0 - m.self_drawn) * (fans + 24.0);
        let removed = shanten_each(standing, declared, false);
        let junk = (0..TILE_KINDS).filter(|&k| standing[k] > 0 && removed[k] <= sh).fold(0, |m, k| m | 1 << k);
        Prospect { expected, needed, discount, gain, waits, junk }
    }
}

/// Each seat's value from the prospects, with `draws` draws left a seat: what it expects to win,
/// less a third of what each other seat expects to win (the three others pay a winner), so that
/// the values add up to zero. A ready seat's waits that another seat holds and does not need add
/// to the tiles it expects: that seat will discard them.
fn shares(prospects: &[Prospect; SEATS], draws: f64, out: &mut [f64; SEATS]) {
    let m = MODEL;
    let worth: [f64; SEATS] = std::array::from_fn(|j| {
        let p = &prospects[j];
        let held: f64 = (0..SEATS)
            .filter(|&k| k != j && prospects[k].junk != 0)
            .map(|k| {
                let junk = prospects[k].junk;
                f64::from((p.waits & junk).count_ones()) * (draws / f64::from(junk.count_ones())).min(1.0)
            })
            .sum();
        p.discount * poisson_at_least(p.expected + m.junk * held, p.needed) * p.gain
    });
    let total: f64 = worth.iter().sum();
    for (o, w) in out.iter_mut().zip(worth) {
        *o = w - (total - w) / 3.0;
    }
}

/// The payoffs of a win by `winner` on `payer`'s tile with `fans`: the payer pays fans + 8, the
/// other two 8.
fn discard_win(winner: Seat, payer: Seat, fans: f64, out: &mut [f64; SEATS]) {
    for (k, o) in out.iter_mut().enumerate() {
        *o = match k {
            k if k == winner => fans + 24.0,
            k if k == payer => -(fans + 8.0),
            _ => -8.0,
        };
    }
}

/// The draws a seat has left: the live wall's tiles ÷ 4.
fn draws(s: &State) -> f64 {
    Mahjong::live_left(s) as f64 / SEATS as f64
}

/// The chance that a Poisson count of mean `mean` is at least `k`.
fn poisson_at_least(mean: f64, k: i32) -> f64 {
    let (mut term, mut below) = ((-mean).exp(), 0.0);
    for j in 0..k {
        below += term;
        term *= mean / f64::from(j + 1);
    }
    (1.0 - below).max(0.0)
}

/// The copies of each kind out of every hand: in the discards on the table and the declared sets
/// (concealed kongs included).
fn visible(s: &State) -> Counts {
    let mut seen = [0u8; TILE_KINDS];
    for seat in 0..SEATS {
        s.discards[seat].iter().for_each(|&t| seen[t as usize] += 1);
        s.melds[seat].iter().flat_map(|m| m.tiles()).for_each(|t| seen[t as usize] += 1);
    }
    seen
}

/// The copies of each kind left in the live wall: neither in sight nor in a hand.
fn wall(s: &State, visible: &Counts) -> Counts {
    std::array::from_fn(|k| 4 - visible[k] - s.hands.iter().map(|h| h[k]).sum::<u8>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::luck::{Exactness, LuckCache};
    use crate::core::{Bot, BotRng, Game, GameSeeds};
    use crate::games::mahjong::bots::{GreedyBot, RandomBot};
    use rand::SeedableRng;

    /// Every step of a hand played by greedy bots (seat 3 random, for other shapes of play):
    /// (state before, action).
    fn steps(game: &Mahjong, seed: u64) -> Vec<(State, Action)> {
        let seeds = GameSeeds::derive(seed, 0, 0, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut rng = BotRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while let Some(seat) = game.to_act(&s) {
            let v = game.view(&s, seat);
            let a = if seat == 3 { RandomBot.act(game, &v, &mut rng) } else { GreedyBot.act(game, &v, &mut rng) };
            out.push((s.clone(), a));
            game.apply(&mut s, &a).unwrap();
        }
        out.push((s, Action::Pass));
        out
    }

    fn value(game: &Mahjong, s: &State, known: usize) -> [f64; SEATS] {
        let mut v = [0.0; SEATS];
        game.value(s, known, Exactness::Sampled, &mut LuckCache::new(0), &mut v);
        v
    }

    /// The chance term's exact mean is zero: the value after a draw, with the tile not known,
    /// is the average over every tile the wall could have given of the value with that tile
    /// known. The average is taken independently of the value's own: the step is played again
    /// with the drawn tile's place in the wall swapped with each place still in the wall, each
    /// as likely (the wall was shuffled uniformly).
    #[test]
    fn a_draw_is_valued_at_its_average_over_the_wall() {
        let game = Mahjong::new(8);
        let mut draws = 0;
        for seed in 0..6 {
            for (before, action) in steps(&game, seed) {
                let Some(_) = game.to_act(&before) else { continue };
                let mut after = before.clone();
                game.apply(&mut after, &action).unwrap();
                let known = game.revealed(&before);
                if game.revealed(&after) == known {
                    continue;
                }
                assert_eq!(game.revealed(&after), known + 1, "one tile a step");
                let ((front, back), (front_after, _)) = (before.taken(), after.taken());
                let drawn_at = if front_after > front { front } else { back - 1 };
                let mut mean = [0.0; SEATS];
                for place in front..back {
                    let mut other = before.clone();
                    other.swap_in_wall(drawn_at, place);
                    game.apply(&mut other, &action).unwrap();
                    let v = value(&game, &other, game.revealed(&other));
                    mean.iter_mut().zip(v).for_each(|(m, x)| *m += x / (back - front) as f64);
                }
                let unknown = value(&game, &after, known);
                for seat in 0..SEATS {
                    assert!((mean[seat] - unknown[seat]).abs() < 1e-9, "seed {seed}: {mean:?} vs {unknown:?}");
                }
                draws += 1;
            }
        }
        assert!(draws > 200, "only {draws} draws checked");
    }

    /// The values add up to zero like the payoffs, and at the end of the hand they are the
    /// payoffs; a draw changes them (the value is not a constant).
    #[test]
    fn values_add_to_zero_and_end_at_the_payoffs() {
        let game = Mahjong::new(8);
        let mut moved = 0;
        for seed in 10..20 {
            let mut last = [0.0; SEATS];
            for (s, _) in steps(&game, seed) {
                let v = value(&game, &s, game.revealed(&s));
                assert!(v.iter().sum::<f64>().abs() < 1e-9, "{v:?}");
                if game.to_act(&s).is_none() {
                    assert_eq!(v, s.payoff.map(f64::from));
                }
                moved += usize::from(v != last);
                last = v;
            }
        }
        assert!(moved > 100);
        assert!(game.adjusts());
        assert!(!Mahjong { flowers: true, ..Mahjong::new(8) }.adjusts());
        assert!(!Mahjong { hands: 16, ..Mahjong::new(8) }.adjusts());
    }

    /// A seat that may win on the tile it has drawn, or on the tile offered, is valued at that
    /// win (the bots here always take it; of several seats that may win on a discard, the first
    /// after the discarder): the payoffs the hand ends with.
    #[test]
    fn a_win_in_hand_is_valued_at_its_payoffs() {
        let game = Mahjong::new(0);
        let mut found = [0; 2];
        for seed in 0..20 {
            let steps = steps(&game, seed);
            let end = &steps.last().unwrap().0;
            for (s, action) in &steps {
                if *action != Action::Win || game.to_act(s) != end.winner {
                    continue;
                }
                assert_eq!(value(&game, s, game.revealed(s)), end.payoff.map(f64::from), "{:?}", s.phase);
                found[usize::from(matches!(s.phase, Phase::Turn { .. }))] += 1;
            }
        }
        assert!(found[0] > 0 && found[1] > 0, "{found:?}");
    }
}
