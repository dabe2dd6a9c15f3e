//! Every variant of bots/gomoku.toml names a gomoku bot kind and valid parameters.

use bot_arena::core::Params;

#[test]
fn roster_variants_are_valid() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bots/gomoku.toml")).unwrap();
    let roster: toml::Table = toml::from_str(&text).unwrap();
    let game = bot_arena::games::find("gomoku").unwrap();
    assert!(roster.len() >= 2);
    for (name, variant) in &roster {
        let kind = variant["kind"].as_str().unwrap();
        let specs = game.bot_params(kind).unwrap_or_else(|| panic!("{name}: no kind {kind}"));
        let params = variant.get("params").and_then(|p| p.as_table()).cloned().unwrap_or_default();
        let checked = Params::new(specs, &params, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let options = Params::new(game.options(), &toml::Table::new(), "gomoku").unwrap();
        let choice = bot_arena::games::BotChoice { kind: kind.to_string(), params: checked };
        game.table(&options, 2, &[choice]).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
