//! Exact solver for two-player positions: who wins with perfect play.
//!
//! [`solve`] gives the value (win / loss / draw for the player to move) of
//! every legal move of a position, and the best move, preferring the
//! shortest win and the longest loss. It searches with negamax and
//! alpha-beta at the action level ([`search`]), a transposition table shared
//! by all threads whose entries hold the full position ([`table`]), and the
//! board's symmetries ([`keys`]). The root moves are shared out among the
//! threads; every value found is exact, so the answer does not depend on
//! the number of threads. A solve stops when its node or time budget runs
//! out or when the caller raises the stop flag; it then returns what it has
//! proved so far, marked incomplete.
//!
//! Values are proved in two passes: first win / draw / loss of every root
//! move, then (if the budget allows) the distance to the end for the best
//! moves, so the choice among equally valued moves is by distance.
//!
//! ```
//! use std::sync::Arc;
//! use hexcore_core::{Board, Churn};
//! use hexcore_core::solve::{solve, Monitor, Outcome, SolveOptions};
//!
//! let g = Churn::new(Arc::new(Board::hexhex(2).unwrap()), false);
//! let s = solve(&g, &SolveOptions::default(), &Monitor::default()).unwrap();
//! assert!(s.complete);
//! assert_eq!(s.value, Some(Outcome::Win));
//! ```

pub mod certificate;
pub mod dfpn;
pub mod keys;
pub mod search;
pub mod table;

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::game::{Action, MoveActions, OptionsError};
pub use certificate::{Certificate, Strategy};
use dfpn::Dfpn;
pub use keys::{symmetries, Solvable};
use search::{Searcher, Shared, MATE};
use table::Table;

/// A game value for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
    fn of(score: i32) -> Outcome {
        match score.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}

/// How the values of the root moves are proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Negamax with alpha-beta ([`search`]).
    AlphaBeta,
    /// Depth-first proof-number search ([`dfpn`]): values only, no
    /// distance pass.
    Dfpn,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Dfpn => "dfpn",
        }
    }

    /// The algorithm named `name` ("alphabeta" or "dfpn").
    pub fn from_name(name: &str) -> Result<Algorithm, OptionsError> {
        match name {
            "alphabeta" => Ok(Algorithm::AlphaBeta),
            "dfpn" => Ok(Algorithm::Dfpn),
            _ => Err(OptionsError::new(
                "algorithm",
                format!("algorithm must be 'alphabeta' or 'dfpn', got {name:?}"),
            )),
        }
    }
}

#[derive(Debug, Clone)]
pub struct SolveOptions {
    pub max_nodes: Option<u64>,
    pub max_seconds: Option<f64>,
    pub threads: usize,
    /// Transposition table size in bytes.
    pub table_bytes: usize,
    /// Use the board's symmetries (on by default).
    pub symmetry: bool,
    /// Prove distances for the best moves after their values (alpha-beta
    /// only).
    pub distances: bool,
    /// `None`: alpha-beta with distances, else the game's choice
    /// ([`Solvable::solver_algorithm`]).
    pub algorithm: Option<Algorithm>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_nodes: None,
            max_seconds: None,
            threads: 1,
            table_bytes: 64 << 20,
            symmetry: true,
            distances: true,
            algorithm: None,
        }
    }
}

/// Live counters of a running solve, and its stop flag.
#[derive(Debug, Default)]
pub struct Monitor {
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
    pub table_filled: AtomicU64,
    pub table_capacity: AtomicU64,
}

/// One legal move of the root and what is known of it.
#[derive(Debug, Clone)]
pub struct MoveValue {
    pub actions: MoveActions,
    pub text: String,
    /// Value for the player making the move (`None`: not proved in budget).
    pub value: Option<Outcome>,
}

#[derive(Debug, Clone)]
pub struct Solution {
    /// Value for the player to move (`None` if not proved in budget).
    pub value: Option<Outcome>,
    pub moves: Vec<MoveValue>,
    /// Index into `moves` of the best move (among the proved ones).
    pub best: Option<usize>,
    /// Plies (whole turns) to the end after the best move with perfect play
    /// (the winner hurrying, the loser delaying), when proved.
    pub plies_to_end: Option<u32>,
    pub nodes: u64,
    pub seconds: f64,
    /// Every move's value was proved.
    pub complete: bool,
    pub table_entries: u64,
    pub table_capacity: u64,
    pub symmetries: usize,
    /// The algorithm that proved the values.
    pub algorithm: Algorithm,
    /// The certificate written ([`solve_and_certify`]), `None` when none
    /// was asked for or the budget ran out before it was finished.
    pub certificate: Option<Certificate>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    Players(usize),
    GameOver,
    MidTurn,
    /// A budget or parameter out of range.
    Invalid(OptionsError),
    TooManyMoves(usize),
    /// The transposition table (this many bytes) could not be allocated.
    Memory(usize),
    /// The certificate could not be written (I/O, or its index is full).
    Certificate(String),
    /// A budget ran out or the caller stopped the work (internal: `solve`
    /// returns what it proved instead).
    Stopped,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Players(n) => write!(
                f,
                "the solver handles two-player games only; this game has {n} players"
            ),
            SolveError::GameOver => f.write_str("the game is over: there is nothing to solve"),
            SolveError::MidTurn => {
                f.write_str("solve starts between turns; finish or undo the turn in progress")
            }
            SolveError::Invalid(e) => write!(f, "{e}"),
            SolveError::TooManyMoves(n) => write!(
                f,
                "the position has more than {n} legal moves; solve a later position"
            ),
            SolveError::Memory(b) => write!(
                f,
                "cannot allocate a transposition table of {b} bytes; ask for a smaller table"
            ),
            SolveError::Certificate(m) => f.write_str(m),
            SolveError::Stopped => f.write_str("stopped before the end"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Most root moves `solve` lists.
pub const MAX_ROOT_MOVES: usize = 1_000_000;

/// Every legal move of `g` (between turns) as its action sequence.
fn root_moves<G: Solvable>(g: &G) -> Result<Vec<MoveActions>, SolveError> {
    fn walk<G: Solvable>(
        pos: &G,
        seq: &mut MoveActions,
        out: &mut Vec<MoveActions>,
    ) -> Result<(), SolveError> {
        let mut buf = Vec::new();
        pos.legal_actions(&mut buf);
        for &a in &buf {
            let mut child = pos.clone();
            child.apply_action(a);
            seq.push(a);
            if child.mid_turn() && !child.is_over() {
                walk(&child, seq, out)?;
            } else {
                out.push(seq.clone());
                if out.len() > MAX_ROOT_MOVES {
                    return Err(SolveError::TooManyMoves(MAX_ROOT_MOVES));
                }
            }
            seq.pop();
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(g, &mut MoveActions::new(), &mut out)?;
    Ok(out)
}

/// The position after a root move, and how to read its score at the root:
/// (negate, it ended a turn).
fn after<G: Solvable>(g: &G, actions: &[Action]) -> (G, bool) {
    let mut c = g.clone();
    for &a in actions {
        c.apply_action(a);
    }
    let negate = c.to_move() != g.to_move();
    (c, negate)
}

/// Solve `g`: see the module documentation.
pub fn solve<G: Solvable>(
    g: &G,
    opts: &SolveOptions,
    mon: &Monitor,
) -> Result<Solution, SolveError> {
    solve_and_certify(g, opts, mon, None)
}

/// Solve `g` and, when `certificate` is given and the value is proved
/// within the budget, write the proof's nodes to it ([`certificate`]).
/// Its index of positions takes up to `opts.table_bytes` more memory.
pub fn solve_and_certify<G: Solvable>(
    g: &G,
    opts: &SolveOptions,
    mon: &Monitor,
    certificate: Option<&mut dyn Write>,
) -> Result<Solution, SolveError> {
    if g.num_players() != 2 {
        return Err(SolveError::Players(g.num_players()));
    }
    if g.is_over() {
        return Err(SolveError::GameOver);
    }
    if g.mid_turn() {
        return Err(SolveError::MidTurn);
    }
    if opts.max_nodes == Some(0) {
        return Err(SolveError::Invalid(OptionsError::new(
            "max_nodes",
            "max_nodes must be positive",
        )));
    }
    if let Some(s) = opts.max_seconds {
        if s.is_nan() || s <= 0.0 || !s.is_finite() {
            return Err(SolveError::Invalid(OptionsError::new(
                "max_seconds",
                format!("max_seconds must be a positive number, got {s}"),
            )));
        }
    }
    if opts.threads == 0 {
        return Err(SolveError::Invalid(OptionsError::new(
            "threads",
            "threads must be at least 1",
        )));
    }
    let t0 = Instant::now();
    let table = Table::new(opts.table_bytes).map_err(SolveError::Memory)?;
    mon.table_capacity
        .store(table.capacity(), Ordering::Relaxed);
    let start_nodes = mon.nodes.load(Ordering::Relaxed);
    let sh = Shared {
        table: &table,
        stop: &mon.stop,
        halt: AtomicBool::new(false),
        nodes: &mon.nodes,
        filled: &mon.table_filled,
        max_nodes: opts
            .max_nodes
            .map_or(u64::MAX, |n| start_nodes.saturating_add(n)),
        deadline: opts
            .max_seconds
            .map(|s| t0 + Duration::from_secs_f64(s.min(1e9))),
    };
    let seqs = root_moves(g)?;
    let children: Vec<(G, bool)> = seqs.iter().map(|s| after(g, s)).collect();
    let nthreads = opts.threads.min(seqs.len()).max(1);
    let mut nsym = 1;
    // distances are alpha-beta's; the game chooses for a values-only solve
    let algorithm = opts.algorithm.unwrap_or_else(|| {
        if opts.distances {
            Algorithm::AlphaBeta
        } else {
            g.solver_algorithm()
        }
    });
    let dfpn = algorithm == Algorithm::Dfpn;
    // df-pn: one table per thread, the memory shared out among them
    let dfpn_bytes = opts.table_bytes / nthreads;
    let dfpn_filled = AtomicU64::new(0);
    let dfpn_capacity = AtomicU64::new(0);

    // df-pn: root moves whose positions are the same up to symmetry are
    // solved once (alpha-beta finds the second in its shared table)
    let mut same_as: Vec<usize> = (0..children.len()).collect();
    if dfpn && opts.symmetry {
        let mut keyer = keys::Keyer::new(g, true);
        if keyer.exact() {
            let mut first: std::collections::HashMap<(u128, u64), usize> =
                std::collections::HashMap::new();
            for (i, (c, _)) in children.iter().enumerate() {
                let k = keyer.key(c);
                same_as[i] = *first.entry((k.cells, k.side)).or_insert(i);
            }
        }
    }
    let jobs: Vec<usize> = (0..children.len()).filter(|&i| same_as[i] == i).collect();

    // pass 1: win / draw / loss of every root move (for the mover)
    let values: Mutex<Vec<Option<i32>>> = Mutex::new(vec![None; seqs.len()]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..nthreads {
            handles.push(scope.spawn(|| {
                let record = |i: usize, v: Option<i32>| {
                    if let Some(v) = v {
                        let negate = children[i].1;
                        values.lock().unwrap_or_else(|e| e.into_inner())[i] =
                            Some(if negate { -v } else { v });
                    }
                };
                if dfpn {
                    let mut s = Dfpn::new(g, &sh, opts.symmetry, dfpn_bytes);
                    loop {
                        let j = next.fetch_add(1, Ordering::Relaxed);
                        if j >= jobs.len() || s.count.aborted {
                            break;
                        }
                        let i = jobs[j];
                        record(i, s.value(&children[i].0));
                    }
                    s.flush();
                    dfpn_filled.fetch_add(s.table.filled(), Ordering::Relaxed);
                    dfpn_capacity.fetch_add(s.table.capacity(), Ordering::Relaxed);
                    return s.num_symmetries();
                }
                let mut s = Searcher::new(g, &sh, opts.symmetry);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= children.len() || s.count.aborted {
                        break;
                    }
                    s.g.clone_from(&children[i].0);
                    record(i, s.exact());
                    mon.table_filled.store(table.filled(), Ordering::Relaxed);
                }
                s.flush();
                s.num_symmetries()
            }));
        }
        for h in handles {
            nsym = h.join().expect("solver thread");
        }
    });
    let mut values = values.into_inner().unwrap_or_else(|e| e.into_inner());
    for i in 0..values.len() {
        // the same position reached by another move: the same score, read
        // through that move's sign
        if same_as[i] != i {
            let (j, flip) = (same_as[i], children[i].1 != children[same_as[i]].1);
            values[i] = values[j].map(|v| if flip { -v } else { v });
        }
    }
    let complete = values.iter().all(|v| v.is_some());
    let best_score = values.iter().flatten().copied().max();
    let value = if complete {
        best_score.map(Outcome::of)
    } else if best_score == Some(1) {
        // one proved win is enough for the position's value
        Some(Outcome::Win)
    } else {
        None
    };
    let mut best = best_score.and_then(|b| values.iter().position(|&v| v == Some(b)));

    // pass 2: distances of the best moves (wins: shortest; losses: longest)
    let mut plies_to_end = None;
    if opts.distances && !dfpn && complete && value != Some(Outcome::Draw) && !sh.stopped() {
        let target = best_score.expect("complete and non-empty");
        let cands: Vec<usize> = (0..seqs.len())
            .filter(|&i| values[i] == Some(target))
            .collect();
        // best distance score so far at the root (parent's terms)
        let alpha = AtomicI32::new(-MATE - 1);
        let found: Mutex<Vec<(usize, i32)>> = Mutex::new(Vec::new());
        let aborted = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..nthreads.min(cands.len()) {
                scope.spawn(|| {
                    let mut s = Searcher::new(g, &sh, opts.symmetry);
                    s.set_distance_mode(true);
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= cands.len() || s.count.aborted {
                            break;
                        }
                        let i = cands[k];
                        let (c, negate) = &children[i];
                        s.g.clone_from(c);
                        let a = alpha.load(Ordering::Relaxed);
                        // parent score p = narrow(x), x = child score (negated if needed);
                        // we only care whether p >= a, i.e. x >= widen(a): a move that
                        // ties the best so far is proved too, so the lowest-numbered
                        // best move is chosen whatever order the threads took them in
                        let xa = if a <= -MATE {
                            -MATE - 1
                        } else {
                            a + a.signum()
                        };
                        // and the move's value is known: a win scores above 0, a loss below
                        let lo = if target > 0 { (xa - 1).max(0) } else { xa - 1 };
                        let hi = if target > 0 { MATE + 2 } else { 0 };
                        let r = if *negate {
                            s.window(-hi, -lo).map(|v| -v)
                        } else {
                            s.window(lo, hi)
                        };
                        match r {
                            Some(x) => {
                                let p = x - x.signum();
                                if x > lo {
                                    alpha.fetch_max(p, Ordering::Relaxed);
                                    found.lock().unwrap_or_else(|e| e.into_inner()).push((i, p));
                                }
                            }
                            None => aborted.store(true, Ordering::Relaxed),
                        }
                    }
                    s.flush();
                });
            }
        });
        if !aborted.load(Ordering::Relaxed) {
            let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
            if let Some(&(i, p)) = found
                .iter()
                .max_by_key(|&&(i, p)| (p, std::cmp::Reverse(i)))
            {
                best = Some(i);
                plies_to_end = Some((MATE - p.abs()) as u32);
            }
        }
    }

    // the certificate: the strategies that prove the value
    let mut cert = None;
    if let (Some(out), Some(v)) = (certificate, value) {
        if !sh.stopped() {
            let me = g.to_move();
            let other = 3 - me;
            let goals: &[(usize, i32)] = match v {
                Outcome::Win => &[(me, 1)],
                Outcome::Loss => &[(other, 1)],
                Outcome::Draw => &[(me, 0), (other, 0)],
            };
            // df-pn: a fresh table and one thread, so the file does not
            // depend on the thread count
            let mut ab;
            let mut pn;
            let prover: &mut dyn certificate::Prover<G> = if dfpn {
                pn = Dfpn::new(g, &sh, opts.symmetry, opts.table_bytes);
                &mut pn
            } else {
                ab = Searcher::new(g, &sh, opts.symmetry);
                &mut ab
            };
            let mut w = certificate::Writer::new(g, prover, out, opts.table_bytes);
            let mut done = Certificate::default();
            let mut stopped = false;
            for &(p, goal) in goals {
                match w.strategy(g, p, goal) {
                    Ok(st) => done.strategies.push(st),
                    Err(SolveError::Stopped) => {
                        stopped = true;
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
            w.out.flush().map_err(|e| {
                SolveError::Certificate(format!("cannot write the certificate: {e}"))
            })?;
            done.positions = w.positions();
            w.s.flush();
            if !stopped {
                cert = Some(done);
            }
        }
    }

    let moves = seqs
        .iter()
        .zip(&values)
        .map(|(s, v)| MoveValue {
            actions: s.clone(),
            text: g.format_move(s),
            value: v.map(Outcome::of),
        })
        .collect();
    mon.table_filled.store(table.filled(), Ordering::Relaxed);
    Ok(Solution {
        value,
        moves,
        best,
        plies_to_end,
        nodes: mon.nodes.load(Ordering::Relaxed) - start_nodes,
        seconds: t0.elapsed().as_secs_f64(),
        complete,
        table_entries: if dfpn {
            dfpn_filled.load(Ordering::Relaxed)
        } else {
            table.filled()
        },
        table_capacity: if dfpn {
            dfpn_capacity.load(Ordering::Relaxed)
        } else {
            table.capacity()
        },
        symmetries: nsym,
        algorithm,
        certificate: cert,
    })
}
