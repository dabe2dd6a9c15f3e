//! The games, one folder each. Each knows `core`, `cards` and its own folder, never another game
//! nor the layers above; it declares what it brings by implementing [`crate::core::GameDef`] in
//! its own `mod.rs`, and plugs in with one line in [`crate::registry::Arena::standard`].

pub mod gomoku;
pub mod holdem;
pub mod mahjong;
pub mod stud;
pub mod zhajinhua;
