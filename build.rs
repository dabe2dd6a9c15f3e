//! Computes the evaluators' tables at compile time, so that no command pays for them at start:
//! `build/*.rs` write Rust source (and binary id tables) into `OUT_DIR`, which the evaluators
//! `include!`.

use std::path::Path;

#[path = "build/holdem_eval.rs"]
mod holdem_eval;
#[path = "build/mahjong_shanten.rs"]
mod mahjong_shanten;

fn main() {
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let write = |name: &str, bytes: &[u8]| std::fs::write(Path::new(&out).join(name), bytes).expect("write a table");
    write("holdem_eval_tables.rs", holdem_eval::write().as_bytes());
    for (name, bytes) in mahjong_shanten::write() {
        write(name, &bytes);
    }
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build");
}
