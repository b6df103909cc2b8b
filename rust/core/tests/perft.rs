//! The perft suites of `seeds/perft/*.perft` (the format of
//! `python/hexcore/perft_suite.py`): every count up to a node limit, at move
//! and at action level. Run with `cargo test --release`.

use std::path::PathBuf;

use hexcore_core::catalog::{self, Visitor};
use hexcore_core::{perft, Game, Unit};

/// Counts above this many nodes are left to the slow Python suite.
const NODE_LIMIT: u128 = 10_000_000;

struct Entry {
    id: String,
    spec: String,
    moves: Vec<String>,
    counts: Vec<(u32, u128)>,
}

fn parse_suite(text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for (lineno, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if key == "id" {
            out.push(Entry {
                id: rest.into(),
                spec: String::new(),
                moves: Vec::new(),
                counts: Vec::new(),
            });
            continue;
        }
        let e = out
            .last_mut()
            .unwrap_or_else(|| panic!("line {}: {key:?} before the first id", lineno + 1));
        match key {
            "spec" => e.spec = rest.into(),
            "moves" => e.moves = rest.split_whitespace().map(String::from).collect(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("perft DEPTH COUNT");
                e.counts
                    .push((d.trim().parse().unwrap(), n.trim().parse().unwrap()));
            }
            _ => panic!("line {}: unknown key {key:?}", lineno + 1),
        }
    }
    out
}

/// Check every count of `e` within the node limit; returns how many.
fn check<G: Game>(mut g: G, e: &Entry) -> usize {
    for m in &e.moves {
        let acts = g
            .parse_move(m)
            .unwrap_or_else(|err| panic!("{}: move {m}: {err}", e.id));
        g.play_move(&acts);
    }
    let mut checked = 0;
    for &(d, n) in &e.counts {
        if n > NODE_LIMIT {
            continue;
        }
        let threads = if n > 100_000 { 2 } else { 1 };
        assert_eq!(
            perft(&g, d, Unit::Move, threads),
            n,
            "{} perft {d} (move)",
            e.id
        );
        assert_eq!(
            perft(&g, d, Unit::Action, threads),
            n,
            "{} perft {d} (action)",
            e.id
        );
        checked += 1;
    }
    checked
}

/// Checks an entry on the game its spec describes (read by the engine's
/// own spec parser, defaults included).
struct Check<'a>(&'a Entry);

impl Visitor for Check<'_> {
    type Output = usize;
    fn visit<G: Game>(self, g: G) -> usize {
        check(g, self.0)
    }
}

fn run(e: &Entry) -> usize {
    catalog::load(&e.spec, Check(e)).unwrap_or_else(|err| panic!("{}: {}: {err}", e.id, e.spec))
}

#[test]
fn perft_suites() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../seeds/perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "perft suites missing in {}",
        dir.display()
    );
    for f in &files {
        let entries = parse_suite(&std::fs::read_to_string(f).unwrap());
        assert!(!entries.is_empty(), "{}: no entries", f.display());
        let checked: usize = entries.iter().map(run).sum();
        assert!(
            checked > 0,
            "{}: no count within the node limit",
            f.display()
        );
        eprintln!("{}: {checked} counts checked at both units", f.display());
    }
}

/// The printed spec of a game.
struct SpecOf;

impl Visitor for SpecOf {
    type Output = String;
    fn visit<G: Game>(self, g: G) -> String {
        g.spec()
    }
}

#[test]
fn suite_specs_round_trip() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../seeds/perft");
    for f in std::fs::read_dir(&dir).unwrap() {
        let path = f.unwrap().path();
        if path.extension().is_some_and(|x| x == "perft") {
            for e in parse_suite(&std::fs::read_to_string(&path).unwrap()) {
                let printed = catalog::load(&e.spec, SpecOf).unwrap();
                assert_eq!(
                    catalog::load(&printed, SpecOf).unwrap(),
                    printed,
                    "{}",
                    e.spec
                );
            }
        }
    }
}
