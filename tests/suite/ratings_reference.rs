//! The Elo rating list against Ordo 1.2.6 (github.com/michiguel/Ordo at 17eec77), an independent
//! implementation, on fixed sets of results in tests/data/ratings/ (six players, twelve of the
//! fifteen pairings). `scripts/ordo_reference.py` wrote the Ordo outputs next to them (the exact
//! commands are in tests/data/ratings/README.md).
//!
//! - results.csv, 1,410 games with draws: the ratings, anchored at the pool's mean and at player C,
//!   agree with Ordo's to 1e-5 Elo (Ordo prints six decimals and stops iterating at about that
//!   resolution), and the ranking is Ordo's.
//! - decisive.csv, 1,040 games that the Elo model fits exactly (every pair's score is the model's
//!   for the ratings 400·log10 of the strengths 8, 4, 2, 2, 1, 1/2): the ratings are those, as
//!   Ordo's are. The 95% errors: Ordo replays every game 20,000 times from the fitted ratings (a
//!   parametric bootstrap); we compute the cluster-robust (sandwich) variance from the results,
//!   each game its own cluster. When the model fits exactly the two estimate the same spread, and
//!   they agree within 4% for every rating and every difference. (On data the model does not fit
//!   exactly they part by design: the sandwich measures the results' own spread, e.g. their
//!   draws, where the bootstrap replays the model's.)

use std::collections::HashMap;

use bot_arena::stats::{Anchor, Comparisons, PairScore, RatingList};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ratings/");

fn read(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(format!("{DATA}{name}")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(|f| f.trim().trim_matches('"').trim().to_string()).collect())
        .collect()
}

/// The players in first-seen order and the results of a file, every game its own cluster.
fn comparisons(results: &str) -> (Vec<String>, Comparisons) {
    let rows = read(results);
    let mut names: Vec<String> = Vec::new();
    let index = |name: &str, names: &mut Vec<String>| {
        names.iter().position(|n| n == name).unwrap_or_else(|| {
            names.push(name.to_string());
            names.len() - 1
        })
    };
    let games: Vec<(usize, usize, u64)> = rows
        .iter()
        .flat_map(|r| {
            let (a, b) = (index(&r[0], &mut names), index(&r[1], &mut names));
            let count = |k: usize| r[k].parse::<usize>().unwrap();
            let results = [(2, count(2)), (1, count(3)), (0, count(4))];
            results.into_iter().flat_map(move |(hp, n)| std::iter::repeat_n((a, b, hp), n))
        })
        .collect();
    let mut c = Comparisons::new(names.len());
    for (a, b, half_points) in games {
        c.push_cluster(&[PairScore { a, b, half_points, games: 1 }]);
    }
    (names, c)
}

/// Ordo's ratings (and 95% errors, when it computed them) by player.
fn ordo(name: &str) -> HashMap<String, (f64, Option<f64>)> {
    read(name).into_iter().map(|r| (r[1].clone(), (r[2].parse().unwrap(), r[3].parse().ok()))).collect()
}

fn check_ratings(names: &[String], ours: &RatingList, theirs: &HashMap<String, (f64, Option<f64>)>) {
    for (name, r) in names.iter().zip(&ours.ratings) {
        let want = theirs[name].0;
        assert!((r.value - want).abs() < 1e-5, "{name}: {} vs Ordo {want}", r.value);
    }
}

#[test]
fn ratings_match_ordo() {
    let (names, c) = comparisons("results.csv");
    assert_eq!(names.len(), 6);
    check_ratings(&names, &c.elo(Anchor::Mean), &ordo("ordo-mean.csv"));
    let at_c = names.iter().position(|n| n == "C").unwrap();
    let list = c.elo(Anchor::Bot(at_c));
    check_ratings(&names, &list, &ordo("ordo-anchor-C.csv"));
    // The same order as Ordo's list (its rows are ranked).
    let ranked: Vec<String> = read("ordo-mean.csv").into_iter().map(|r| r[1].clone()).collect();
    let ours: Vec<String> = list.ranking().into_iter().map(|i| names[i].clone()).collect();
    assert_eq!(ours, ranked);
}

#[test]
fn errors_agree_with_ordos_simulation() {
    let (names, c) = comparisons("decisive.csv");
    let list = c.elo(Anchor::Mean);
    let theirs = ordo("ordo-decisive.csv");
    check_ratings(&names, &list, &theirs);
    let strength = [8.0f64, 4.0, 2.0, 2.0, 1.0, 0.5];
    let mean = strength.iter().map(|s| 400.0 * s.log10()).sum::<f64>() / 6.0;
    for (name, s) in ["A", "B", "C", "D", "E", "F"].iter().zip(strength) {
        let i = names.iter().position(|n| n == name).unwrap();
        assert!((list.ratings[i].value - (400.0 * s.log10() - mean)).abs() < 1e-9, "{name}");
    }
    let within = |ours: f64, want: f64, what: &str| {
        println!("reference: 95% error of {what}: {ours:.2} (Ordo {want:.2}, ratio {:.3})", ours / want);
        assert!((ours / want - 1.0).abs() < 0.04, "{what}: {ours} vs Ordo {want}");
    };
    for (i, name) in names.iter().enumerate() {
        let r = list.ratings[i];
        within((r.hi - r.lo) / 2.0, theirs[name].1.unwrap(), name);
    }
    // The difference matrix: row N, columns 0..N−1, in Ordo's ranked order.
    let matrix = read("ordo-decisive-errors.csv");
    let order: Vec<usize> = matrix.iter().map(|r| names.iter().position(|n| *n == r[1]).unwrap()).collect();
    for (row, r) in matrix.iter().enumerate() {
        for col in 0..row {
            let d = list.difference(order[row], order[col]);
            let what = format!("{} − {}", names[order[row]], names[order[col]]);
            within((d.hi - d.lo) / 2.0, r[2 + col].parse().unwrap(), &what);
        }
    }
}
