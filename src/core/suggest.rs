//! "Did you mean": the known names nearest a mistyped one, for the refusal that names it. One
//! measure for every kind of name the user types (commands, games, bots, table options,
//! parameters, config keys), so a typo is caught the same way wherever it is made.

/// The edit distance from `a` to `b` in characters: insertions, deletions, substitutions, and
/// swaps of two neighbouring characters (`holdme` is one edit from `holdem`), each one edit
/// (Damerau's distance in its optimal string alignment form), case ignored.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    // Three rows of the table: the one two back (for swaps), the last, the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let substitution = last[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            row[j] = substitution.min(last[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

/// The most edits a name may be from `given` to be suggested: one for a name of up to four
/// characters (two edits turn `rr` into any two-letter name), two beyond.
fn reach(given: &str) -> usize {
    if given.chars().count() <= 4 {
        1
    } else {
        2
    }
}

/// The known names `given` was likely meant to be, nearest first (a tie in the order given): those
/// within [`reach`] of it, and those it begins by half or more (three characters at least: `gom`
/// for `gomoku`, not `blind` for `blind_factor`). At most three.
pub fn nearest<'a>(given: &str, known: &[&'a str]) -> Vec<&'a str> {
    let lower = given.to_lowercase();
    let mut near: Vec<(usize, usize, &str)> = known
        .iter()
        .enumerate()
        .filter(|(_, k)| **k != given)
        .filter_map(|(i, &k)| {
            let d = distance(given, k);
            let length = lower.chars().count();
            let begins = length >= 3 && 2 * length >= k.chars().count() && k.to_lowercase().starts_with(&lower);
            (d <= reach(given) || begins).then_some((d, i, k))
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.2 == b.2);
    near.into_iter().take(3).map(|(_, _, k)| k).collect()
}

/// `did you mean `x`?` (or `` `x` or `y` ``) when a known name is near `given`.
pub fn did_you_mean(given: &str, known: &[&str]) -> Option<String> {
    let near = nearest(given, known);
    let quoted: Vec<String> = near.iter().map(|k| format!("`{k}`")).collect();
    match quoted.as_slice() {
        [] => None,
        [one] => Some(format!("did you mean {one}?")),
        [init @ .., last] => Some(format!("did you mean {} or {last}?", init.join(", "))),
    }
}

/// What a refusal of `given` says after it, in its parentheses: the suggestion when there is one,
/// then every known name: `did you mean `holdem`? known: holdem, stud, ...` (`known: none` when
/// there is nothing to choose from).
pub fn known_names(given: &str, known: &[&str]) -> String {
    let list = if known.is_empty() { "none".to_string() } else { known.join(", ") };
    match did_you_mean(given, known) {
        Some(suggestion) => format!("{suggestion} known: {list}"),
        None => format!("known: {list}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_of_each_kind_is_one() {
        assert_eq!(distance("holdem", "holdem"), 0);
        assert_eq!(distance("holdme", "holdem"), 1, "a swap");
        assert_eq!(distance("hodem", "holdem"), 1, "a deletion");
        assert_eq!(distance("holdeem", "holdem"), 1, "an insertion");
        assert_eq!(distance("holdam", "holdem"), 1, "a substitution");
        assert_eq!(distance("HoldEm", "holdem"), 0, "case ignored");
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("gomoku", "mahjong"), 6, "the o kept");
        assert_eq!(distance("ca", "abc"), 3, "optimal string alignment: no edit of a swapped pair");
        assert_eq!(distance("麻将", "麻雀"), 1, "characters, not bytes");
    }

    #[test]
    fn near_names_are_suggested_nearest_first_and_far_ones_not() {
        let games = ["holdem", "stud", "zhajinhua", "gomoku", "mahjong"];
        assert_eq!(nearest("holdme", &games), ["holdem"]);
        assert_eq!(nearest("zhajinhau", &games), ["zhajinhua"]);
        assert_eq!(nearest("gom", &games), ["gomoku"], "a beginning");
        assert!(nearest("blind", &["big_blind", "blind_factor"]).is_empty(), "too short a beginning");
        assert!(nearest("chess", &games).is_empty());
        assert!(nearest("sud", &["stud", "run"]).contains(&"stud"));
        // Short names are held to one edit: `ab` is not `rr`.
        assert!(nearest("ab", &["rr"]).is_empty());
        let bots = ["rr", "rr-tight", "rr-loose", "random", "all-in"];
        assert_eq!(nearest("rrr", &bots), ["rr"]);
        assert_eq!(nearest("rr-tihgt", &bots), ["rr-tight"]);
        assert_eq!(did_you_mean("rr-tigth", &bots).as_deref(), Some("did you mean `rr-tight`?"));
        assert_eq!(did_you_mean("sizes", &["size", "sized"]).as_deref(), Some("did you mean `size` or `sized`?"));
        assert_eq!(did_you_mean("chess", &bots), None);
    }

    #[test]
    fn the_known_names_follow_the_suggestion() {
        assert_eq!(known_names("stdu", &["stud", "gomoku"]), "did you mean `stud`? known: stud, gomoku");
        assert_eq!(known_names("chess", &["stud", "gomoku"]), "known: stud, gomoku");
        assert_eq!(known_names("x", &[]), "known: none");
    }
}
