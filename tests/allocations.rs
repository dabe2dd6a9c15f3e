//! The record path allocates nothing: once warm, a game's record filled again (as the runner
//! fills the records of its batches again), its rows formatted and written into games.csv take
//! no heap allocation, for hold'em, stud, zhajinhua and gomoku (a counting global allocator,
//! counting this thread's allocations only, so the test harness's other threads do not count).
//! A hold'em hand between always-call bots allocates nothing while it is played either; what
//! playing costs in the other games (their states, the bots' buffers) is printed:
//! `--nocapture` shows it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bot_arena::core::schedule::Job;
use bot_arena::core::BotChoice;
use bot_arena::core::{GameRecord, GameSeeds, Keep, Params};
use bot_arena::registry::Arena;
use bot_arena::report::{GamesWriter, RowFormat};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the counter is a
// thread-local `Cell` with a const initialiser, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Plays `games` games of `game` between two `bot`s after a warm-up into one record, as the
/// runner does, writing each to games.csv; returns (allocations while writing, allocations while
/// playing) over those games.
fn count(game: &str, bot: &str, games: u64) -> (u64, u64) {
    let arena = Arena::standard();
    let entry = arena.find(game).unwrap();
    let options = Params::new(entry.options(), &toml::Table::new(), game).unwrap();
    let params = Params::new(&BotChoice::specs(entry.bot_params(bot).unwrap()), &toml::Table::new(), bot).unwrap();
    let bots: Vec<BotChoice> = ["a", "b"]
        .map(|name| BotChoice { name: name.to_string(), kind: bot.to_string(), params: params.clone() })
        .to_vec();
    let table = entry.venue(&options, 2, &bots, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut writer = GamesWriter::create(&dir.path().join("games.csv"), table.columns(), false).unwrap();
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    let format = RowFormat::new(&names);
    let (mut writing, mut playing) = (0, 0);
    let warm_up = 200;
    let (mut record, mut rows) = (GameRecord::new(), Vec::new());
    let mut job =
        Job { pairing: 0, game: 0, seeds: GameSeeds::derive(7, 0, 0, 1), lineup: [0, 1].into_iter().collect() };
    for g in 0..warm_up + games {
        (job.game, job.seeds) = (g, GameSeeds::derive(7, 0, g, 1));
        let before = allocations();
        table.play_into(&job.lineup, job.game, &job.seeds, Keep::COLUMNS, &mut record);
        let played = allocations();
        rows.clear();
        format.rows(&job, &record, &mut rows);
        writer.write_rows(&rows).unwrap();
        let written = allocations();
        if g >= warm_up {
            (playing, writing) = (playing + played - before, writing + written - played);
        }
    }
    writer.finish().unwrap();
    (writing, playing)
}

/// A whole hold'em hand between two always-call bots, dealt, played and scored into a record
/// used before, allocates nothing: the state, the bots, their streams and the outcome live on the
/// stack or in the record.
#[test]
fn playing_a_holdem_hand_allocates_nothing() {
    let (_, playing) = count("holdem", "always-call", 1000);
    assert_eq!(playing, 0, "1,000 hold'em hands allocated {playing} times");
}

#[test]
fn writing_a_game_into_games_csv_allocates_nothing() {
    for (game, bot) in
        [("holdem", "always-call"), ("stud", "always-call"), ("zhajinhua", "always-call"), ("gomoku", "weights")]
    {
        let games = 1000;
        let (writing, playing) = count(game, bot, games);
        eprintln!(
            "{game}: {:.1} allocations a game while playing it, {writing} while writing {games} games",
            playing as f64 / games as f64
        );
        assert_eq!(writing, 0, "{game}: writing {games} games' rows allocated {writing} times");
    }
}
