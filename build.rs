//! Computes the evaluators' tables at compile time, so that no command pays for them at start:
//! `build/*.rs` write Rust source into `OUT_DIR`, which the evaluators `include!`.

use std::path::Path;

#[path = "build/holdem_eval.rs"]
mod holdem_eval;

fn main() {
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out);
    std::fs::write(out.join("holdem_eval_tables.rs"), holdem_eval::write()).expect("write the hold'em tables");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build");
}
