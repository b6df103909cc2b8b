//! The perft suites of `seeds/perft/*.perft` (the format of
//! `python/hexcore/perft_suite.py`): every count up to a node limit, at move
//! and at action level. Run with `cargo test --release`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use hexcore_core::{perft, Board, Churn, Game, Quintun, Unit, Wunchunk};

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
            out.push(Entry { id: rest.into(), spec: String::new(), moves: Vec::new(), counts: Vec::new() });
            continue;
        }
        let e = out.last_mut().unwrap_or_else(|| panic!("line {}: {key:?} before the first id", lineno + 1));
        match key {
            "spec" => e.spec = rest.into(),
            "moves" => e.moves = rest.split_whitespace().map(String::from).collect(),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("perft DEPTH COUNT");
                e.counts.push((d.trim().parse().unwrap(), n.trim().parse().unwrap()));
            }
            _ => panic!("line {}: unknown key {key:?}", lineno + 1),
        }
    }
    out
}

/// `name(key=value,...)`: the name and the options (quotes stripped;
/// a parenthesised tuple stays one value).
fn parse_spec(spec: &str) -> (String, HashMap<String, String>) {
    let (name, rest) = spec.split_once('(').unwrap_or((spec, ")"));
    let body = rest.strip_suffix(')').expect("spec ends with ')'");
    let mut opts = HashMap::new();
    let (mut depth, mut cur) = (0, String::new());
    let mut push = |item: &str| {
        if let Some((k, v)) = item.split_once('=') {
            opts.insert(k.trim().to_string(), v.trim().trim_matches(|c| c == '\'' || c == '"').to_string());
        }
    };
    for c in body.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                push(&cur);
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    push(&cur);
    (name.trim().to_string(), opts)
}

fn opt<'a>(o: &'a HashMap<String, String>, k: &str, default: &'a str) -> &'a str {
    o.get(k).map(String::as_str).unwrap_or(default)
}

fn flag(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes")
}

/// Check every count of `e` within the node limit; returns how many.
fn check<G: Game>(mut g: G, e: &Entry) -> usize {
    for m in &e.moves {
        let acts = g.parse_move(m).unwrap_or_else(|err| panic!("{}: move {m}: {err}", e.id));
        g.play_move(&acts);
    }
    let mut checked = 0;
    for &(d, n) in &e.counts {
        if n > NODE_LIMIT {
            continue;
        }
        let threads = if n > 100_000 { 2 } else { 1 };
        assert_eq!(perft(&g, d, Unit::Move, threads), n, "{} perft {d} (move)", e.id);
        assert_eq!(perft(&g, d, Unit::Action, threads), n, "{} perft {d} (action)", e.id);
        checked += 1;
    }
    checked
}

fn run(e: &Entry) -> usize {
    let (name, o) = parse_spec(&e.spec);
    match name.as_str() {
        "churn" => {
            let board = match o.get("sides") {
                Some(s) => {
                    let v: Vec<usize> = s.trim_matches(|c| c == '(' || c == ')').split(',').map(|x| x.trim().parse().unwrap()).collect();
                    Board::from_sides(v.try_into().expect("six sides")).unwrap()
                }
                None => Board::hexhex(opt(&o, "size", "3").parse().unwrap()).unwrap(),
            };
            check(Churn::new(Arc::new(board), flag(opt(&o, "pie", "true"))), e)
        }
        "wunchunk" => {
            let g = Wunchunk::new(
                opt(&o, "size", "6").parse().unwrap(),
                opt(&o, "players", "2").parse().unwrap(),
                opt(&o, "start", "standard").parse().unwrap(),
                opt(&o, "balance", "ap").parse().unwrap(),
            )
            .unwrap_or_else(|err| panic!("{}: {err:?}", e.spec));
            check(g, e)
        }
        "quintun" => {
            let g = Quintun::new(opt(&o, "size", "7").parse().unwrap(), opt(&o, "placement", "side").parse().unwrap(), flag(opt(&o, "swap", "true")))
                .unwrap();
            check(g, e)
        }
        other => panic!("{}: unknown game {other:?}", e.id),
    }
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
    assert!(files.len() >= 3, "perft suites missing in {}", dir.display());
    for f in &files {
        let entries = parse_suite(&std::fs::read_to_string(f).unwrap());
        assert!(!entries.is_empty(), "{}: no entries", f.display());
        let checked: usize = entries.iter().map(run).sum();
        assert!(checked > 0, "{}: no count within the node limit", f.display());
        eprintln!("{}: {checked} counts checked at both units", f.display());
    }
}

#[test]
fn spec_parsing() {
    let (name, o) = parse_spec("churn(sides=(3,4,3,4,3,4),pie=false)");
    assert_eq!(name, "churn");
    assert_eq!(o["sides"], "(3,4,3,4,3,4)");
    assert_eq!(o["pie"], "false");
    assert_eq!(parse_spec("wunchunk(size=5,balance='none')").1["balance"], "none");
}
