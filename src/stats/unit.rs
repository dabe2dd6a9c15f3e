//! The unit a game's payoff verdicts are counted in ([`Unit`]), and numbers written with it
//! (`"+12.5 bb/100"`: a gate's bounds).

/// The unit a game's payoff verdicts are counted in: every figure of a mean payoff or a payoff
/// difference (the terminal, summary.csv, match.csv, ratings.csv, report.html, the gate's bounds,
/// the SPRT's) is shown in it, so that a number copied from one place means the same in another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    /// As written after a number: `bb/100`, `chips/hand`, `points/hand`, `points/game`.
    pub name: &'static str,
    /// How many of the unit one game's payoff makes: hold'em counts a hand's payoff in big
    /// blinds and its verdicts in big blinds per 100 hands, so 100; a mahjong round of 16 hands,
    /// 1/16.
    pub scale: f64,
}

impl Unit {
    /// `name` per game's payoff times `scale`.
    pub const fn new(name: &'static str, scale: f64) -> Unit {
        Unit { name, scale }
    }

    /// A payoff per game in this unit.
    pub fn of(self, payoff: f64) -> f64 {
        self.scale * payoff
    }

    /// The name as it goes into a column name: `bb/100` → `bb_per_100` (summary.csv's
    /// `payoff_bb_per_100`).
    pub fn column(self) -> String {
        self.name.replace('/', "_per_").replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_")
    }
}

impl std::fmt::Display for Unit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A number written with its unit, as the terminal prints it (`+12.5 bb/100`, `-3 chips/hand`):
/// the number, or why the text is not one in `unit`.
pub fn parse_quantity(text: &str, unit: Unit) -> Result<f64, String> {
    let text = text.trim();
    let (number, written) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let written = written.trim();
    let value: f64 =
        number.parse().map_err(|_| format!("`{text}` is not a number with its unit, such as `10 {unit}`"))?;
    if !value.is_finite() {
        return Err(format!("`{text}` must be a finite number"));
    }
    match written {
        "" => Err(format!("`{text}` has no unit: write it in {unit}, as `{number} {unit}`")),
        w if w == unit.name => Ok(value),
        w => Err(format!("`{text}` is in {w}, but this game's payoffs are counted in {unit}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BB: Unit = Unit::new("bb/100", 100.0);

    #[test]
    fn a_unit_scales_and_names_its_columns() {
        assert_eq!(BB.of(1.5), 150.0);
        assert_eq!(BB.column(), "bb_per_100");
        assert_eq!(Unit::new("points/hand", 1.0).column(), "points_per_hand");
    }

    #[test]
    fn a_quantity_needs_its_own_unit() {
        assert_eq!(parse_quantity("+12.5 bb/100", BB), Ok(12.5));
        assert_eq!(parse_quantity(" -3  bb/100 ", BB), Ok(-3.0));
        assert!(parse_quantity("12.5", BB).unwrap_err().contains("no unit"));
        assert!(parse_quantity("12.5 chips/hand", BB).unwrap_err().contains("counted in bb/100"));
        assert!(parse_quantity("twelve bb/100", BB).is_err());
        assert!(parse_quantity("inf bb/100", BB).is_err());
    }
}
