//! Where every random number comes from.
//!
//! A run has one master seed. Each game gets independent ChaCha8 streams, keyed by
//! `(master seed, pairing, game index, role)`:
//!
//! ```text
//! mix(a, b)      = splitmix64(a ^ splitmix64(b))          (splitmix64: Steele, Lea & Flood 2014)
//! deal_seed      = mix(mix(mix(master, pairing), deal), 0)
//! bot_seed(seat) = mix(mix(mix(master, pairing), game), 1 + seat)
//! stream         = ChaCha8Rng::seed_from_u64(seed)
//! ```
//!
//! `deal` is the game index divided by the number of replays of each deal (1 unpaired, the number
//! of seat rotations when paired), so every replay of a deal sees the same cards, wall or opening.
//! The deal seed is written in games.csv: `seed_from_u64(seed)` alone replays the deal of a row.
//! Nothing else (no clock, no thread-local generator, no hash-map order) feeds a game.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The stream that draws a game's chance (deck, wall, opening).
pub type DealRng = ChaCha8Rng;

/// The stream of one seat's bot: `ChaCha8Rng::seed_from_u64(seed)`, set up when the bot first
/// draws from it. Most bots of a fast game never draw (always-call, the document bots that
/// decide from the cards), and setting up two streams cost a hold'em hand a tenth of its time.
/// The stream's state (300 bytes) is boxed, so a seat's unused stream is two words to set up.
#[derive(Clone, Debug)]
pub struct BotRng {
    seed: u64,
    stream: Option<Box<ChaCha8Rng>>,
}

impl BotRng {
    fn stream(&mut self) -> &mut ChaCha8Rng {
        let seed = self.seed;
        self.stream.get_or_insert_with(|| Box::new(ChaCha8Rng::seed_from_u64(seed)))
    }
}

impl RngCore for BotRng {
    fn next_u32(&mut self) -> u32 {
        self.stream().next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.stream().next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.stream().fill_bytes(dest)
    }
}

impl SeedableRng for BotRng {
    type Seed = <ChaCha8Rng as SeedableRng>::Seed;

    fn from_seed(seed: Self::Seed) -> BotRng {
        BotRng { seed: 0, stream: Some(Box::new(ChaCha8Rng::from_seed(seed))) }
    }

    /// The stream `ChaCha8Rng::seed_from_u64(state)` draws, set up at the first draw.
    fn seed_from_u64(state: u64) -> BotRng {
        BotRng { seed: state, stream: None }
    }
}

/// SplitMix64's finaliser: a bijective, well-mixed 64-bit hash.
pub const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Combines a seed with one more key.
pub const fn mix(seed: u64, key: u64) -> u64 {
    splitmix64(seed ^ splitmix64(key))
}

/// The seeds of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSeeds {
    /// Seed of the deal stream (shared by every replay of the deal).
    pub deal: u64,
    /// The deal's number within its pairing, `game / replays` (shared by every replay).
    pub deal_index: u64,
    /// `mix(mix(master, pairing), game)`: seat k's bot stream is `mix(bots, 1 + k)`.
    pub bots: u64,
}

/// The deal a game belongs to within its pairing: `game / replays` (every replay of a deal shares
/// it). No division when deals are not replayed: this runs a few times a game.
pub fn deal_of(game: u64, replays: u64) -> u64 {
    if replays <= 1 {
        game
    } else {
        game / replays
    }
}

impl GameSeeds {
    /// The streams of game `game` of pairing `pairing`; with `replays` > 1 the replays of one
    /// deal share its deal stream.
    pub fn derive(master: u64, pairing: u64, game: u64, replays: u64) -> GameSeeds {
        let table = mix(master, pairing);
        let deal_index = deal_of(game, replays);
        GameSeeds { deal: mix(mix(table, deal_index), 0), deal_index, bots: mix(table, game) }
    }

    /// The stream all of the game's chance is drawn from.
    pub fn deal_rng(&self) -> DealRng {
        DealRng::seed_from_u64(self.deal)
    }

    /// The stream of the bot in `seat`, its own whatever the others draw.
    pub fn bot_rng(&self, seat: usize) -> BotRng {
        BotRng::seed_from_u64(mix(self.bots, 1 + seat as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_share_the_deal_but_not_the_bot_streams() {
        let a = GameSeeds::derive(7, 0, 4, 2);
        let b = GameSeeds::derive(7, 0, 5, 2);
        let c = GameSeeds::derive(7, 0, 6, 2);
        assert_eq!(a.deal, b.deal);
        assert_ne!(a.deal, c.deal);
        assert_ne!(a.bots, b.bots);
        assert_ne!(GameSeeds::derive(7, 1, 4, 2).deal, a.deal);
        assert_ne!(GameSeeds::derive(8, 0, 4, 2).deal, a.deal);
    }

    /// A bot's stream is ChaCha8's for its seed, draw for draw, however it is drawn.
    #[test]
    fn bot_streams_are_chacha8_streams() {
        for seed in [0, 1, 7, u64::MAX] {
            let (mut lazy, mut eager) = (BotRng::seed_from_u64(seed), ChaCha8Rng::seed_from_u64(seed));
            let (mut a, mut b) = ([0u8; 13], [0u8; 13]);
            lazy.fill_bytes(&mut a);
            eager.fill_bytes(&mut b);
            assert_eq!(a, b);
            for _ in 0..100 {
                assert_eq!((lazy.next_u32(), lazy.next_u64()), (eager.next_u32(), eager.next_u64()));
            }
        }
        let (mut lazy, mut eager) = (BotRng::from_seed([3; 32]), ChaCha8Rng::from_seed([3; 32]));
        assert_eq!(lazy.next_u64(), eager.next_u64());
    }

    #[test]
    fn derivation_is_stable() {
        // Pinned: changing the derivation changes every published result.
        let s = GameSeeds::derive(1, 0, 0, 1);
        assert_eq!(s.deal, mix(mix(mix(1, 0), 0), 0));
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
    }
}
