//! `hexcore._core._mcts`: Monte Carlo tree search of `hexcore-core`, run on
//! a worker thread while the calling thread waits without the GIL and checks
//! for Ctrl-C (the one wait loop, `interrupt::run_with`).
//!
//! The position must be between turns: a game in the middle of a
//! multi-action turn is refused with `IllegalMoveError` (reason `mid_turn`),
//! as `solve` does, since the result is a whole move for `play()`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use hexcore_core::search::{search, Mcts, SearchError, SearchOptions, SearchResult};
use hexcore_core::{Action, Game, Reason};
use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::any::{Any, Member, PerGame};
use crate::errors::{illegal, mid_turn_error, move_text, Int, IntoPyErr};
use crate::game::{wrap, AnyGame, PyGame};
use crate::interrupt::run_with;
use crate::options::{RolloutPlies, Seed, Simulations, TreeNodes};
use crate::session::Session;

/// The wait loop's tick: `progress(seconds)` (the seconds since the search
/// began) at every poll; an exception it raises stops the search.
fn progress_tick<'a>(
    progress: Option<&'a Bound<'a, PyAny>>,
) -> impl FnMut(Python<'_>) -> PyResult<()> + 'a {
    let t0 = Instant::now();
    move |_| match progress {
        Some(cb) => cb.call1((t0.elapsed().as_secs_f64(),)).map(|_| ()),
        None => Ok(()),
    }
}

/// Run the search on a worker thread; Ctrl-C or an exception of `progress`
/// raises the stop flag.
fn run<G: Game>(
    py: Python<'_>,
    g: G,
    opts: SearchOptions,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(SearchResult, G)> {
    let stop = AtomicBool::new(false);
    let r = run_with(py, "the search", &stop, progress_tick(progress), || {
        search(&g, &opts, &stop)
    })?;
    Ok((r.map_err(|e| e.into_pyerr(py))?, g))
}

fn result_dict<'py, G: Game>(
    py: Python<'py>,
    g: &G,
    r: SearchResult,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let visits: Vec<i64> = r.visits.iter().map(|&v| v as i64).collect();
    d.set_item("visits", PyArray1::from_vec(py, visits))?;
    d.set_item("values", PyArray1::from_vec(py, r.values))?;
    d.set_item("action", r.best)?;
    d.set_item("move", g.format_move(&r.turn))?;
    d.set_item("turn", r.turn.clone())?;
    d.set_item(
        "pv",
        r.pv.iter()
            .map(|&a| g.action_to_string(a))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("simulations", r.simulations)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("nodes", r.nodes)?;
    d.set_item("proven", r.proven.map(|o| o.name()))?;
    let proven_actions = PyDict::new(py);
    for (a, o) in r.proven_actions {
        proven_actions.set_item(a, o.name())?;
    }
    d.set_item("proven_actions", proven_actions)?;
    Ok(d)
}

/// A copy of the game a search starts from: a hexcore game between turns
/// (`what` names the caller in the error).
fn searchable(py: Python<'_>, game: &Bound<'_, PyAny>, what: &str) -> PyResult<AnyGame> {
    let any = AnyGame::copy_of(game, what)?;
    if any.mid_turn() {
        return Err(mid_turn_error(
            py,
            "finish it with apply_action() or undo() it before searching",
        ));
    }
    Ok(any)
}

/// Search the position with UCT and random rollouts. Returns a dict:
/// `visits` (int64 array over actions), `values` (float32 array, mean value
/// for the player to move), `action` (most visited), `move` (the whole turn
/// as text), `turn` (its actions), `pv` (action texts), `simulations`,
/// `seconds`, `nodes`, `proven` (the root's proven value for the player to
/// move, `"win"` / `"loss"` / `"draw"`, or None) and `proven_actions`
/// (action -> proven value); the proofs only with `solver`. `progress`
/// (a callable or None) is called with the seconds so far about every
/// 20 ms from the calling thread; an exception it raises stops the search
/// and propagates.
#[pyfunction]
#[pyo3(signature = (game, simulations=None, seconds=None, threads=None, seed=Seed(0), c=std::f64::consts::SQRT_2,
                    max_rollout_plies=RolloutPlies(1000), max_nodes=TreeNodes(10_000_000), solver=false, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn _mcts<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    simulations: Option<Simulations>,
    seconds: Option<f64>,
    threads: Option<Int>,
    seed: Seed,
    c: f64,
    max_rollout_plies: RolloutPlies,
    max_nodes: TreeNodes,
    solver: bool,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = crate::options::threads(threads)?;
    let any = searchable(py, game, "mcts")?;
    let opts = SearchOptions {
        simulations: simulations.map(|s| s.0),
        seconds,
        threads,
        seed: seed.0,
        c,
        max_rollout_plies: max_rollout_plies.0,
        max_nodes: max_nodes.0,
        solver,
    };
    dispatch!(any, s => {
        let (r, g) = run(py, s.g, opts, progress.as_ref())?;
        result_dict(py, &g, r)
    })
}

/// The search trees family: a tree kept across moves, with its own copy of
/// the game.
pub struct Trees;

impl PerGame for Trees {
    type Of<G: Member> = (Session<G>, Mcts<G>);
}

/// A search tree kept across moves, whatever the game.
pub type AnyMcts = Any<Trees>;

/// `hexcore._core._MCTS`: the reusable search behind `hexcore.search.MCTS`
/// (argument checks and documentation are there).
#[pyclass(name = "_MCTS", module = "hexcore._core")]
pub struct PyMcts {
    inner: AnyMcts,
    /// The thread count (checked, or the default when none was given).
    #[pyo3(get)]
    threads: usize,
}

fn mcts_search<'py, G: Game>(
    py: Python<'py>,
    m: &mut Mcts<G>,
    simulations: Option<u64>,
    seconds: Option<f64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let stop = AtomicBool::new(false);
    let r = run_with(py, "the search", &stop, progress_tick(progress), || {
        m.search(simulations, seconds, &stop)
    })?;
    let r = r.map_err(|e| e.into_pyerr(py))?;
    result_dict(py, m.game(), r)
}

fn mcts_advance<G: Game>(
    py: Python<'_>,
    s: &mut Session<G>,
    m: &mut Mcts<G>,
    mv: &Bound<'_, PyAny>,
) -> PyResult<String>
where
    G::Undo: Clone,
{
    let acts: Vec<Action> = if mv.is_instance_of::<PyString>() {
        let text = move_text(mv)?;
        let acts = s.g.check_move(&text).map_err(|e| e.into_pyerr(py))?;
        acts.to_vec()
    } else if mv.is_instance_of::<PyInt>() && !mv.is_instance_of::<PyBool>() {
        let Ok(a) = mv.extract::<i64>() else {
            let n = s.g.num_actions();
            return Err(illegal(
                py,
                Reason::ActionOutOfRange,
                format!("action {mv} is out of range 0..{n}"),
            ));
        };
        let a = s.g.check_action(a).map_err(|e| e.into_pyerr(py))?;
        let mut h = s.g.clone();
        h.apply_action(a);
        if h.mid_turn() {
            return Err(illegal(
                py,
                Reason::MidTurn,
                format!("action {a} starts a turn of several actions; give the whole move as text"),
            ));
        }
        vec![a]
    } else {
        return Err(PyTypeError::new_err(format!(
            "a move is a str (or an int action id for a one-action turn), got {}",
            mv.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        )));
    };
    let text = s.g.format_move(&acts);
    for &a in &acts {
        s.apply_action(a as i64).map_err(|e| e.into_pyerr(py))?;
    }
    m.advance(&acts);
    Ok(text)
}

#[pymethods]
impl PyMcts {
    #[new]
    #[pyo3(signature = (game, threads=None, seed=Seed(0), c=std::f64::consts::SQRT_2, max_rollout_plies=RolloutPlies(1000),
                        max_nodes=TreeNodes(10_000_000), solver=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        threads: Option<Int>,
        seed: Seed,
        c: f64,
        max_rollout_plies: RolloutPlies,
        max_nodes: TreeNodes,
        solver: bool,
    ) -> PyResult<Self> {
        let threads = crate::options::threads(threads)?;
        let any = searchable(py, game, "MCTS")?;
        let opts = SearchOptions {
            simulations: None,
            seconds: None,
            threads,
            seed: seed.0,
            c,
            max_rollout_plies: max_rollout_plies.0,
            max_nodes: max_nodes.0,
            solver,
        };
        let err = |e: SearchError| e.into_pyerr(py);
        let inner: AnyMcts = map_any!(any, s => {
            let m = Mcts::new(s.g.clone(), &opts).map_err(err)?;
            (s, m)
        });
        Ok(PyMcts { inner, threads })
    }

    /// Add simulations to the trees; returns the dict of `_mcts`
    /// (`progress` as there).
    #[pyo3(signature = (simulations=None, seconds=None, progress=None))]
    fn search<'py>(
        &mut self,
        py: Python<'py>,
        simulations: Option<Simulations>,
        seconds: Option<f64>,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let simulations = simulations.map(|s| s.0);
        dispatch!(&mut self.inner, (_s, m) => mcts_search(py, m, simulations, seconds, progress.as_ref()))
    }

    /// Play a whole move and keep the subtree below it; returns its text.
    fn advance(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        dispatch!(&mut self.inner, (s, m) => mcts_advance(py, s, m, r#move))
    }

    /// A copy of the root position (with its history).
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let any: AnyGame = map_any!(&self.inner, (s, _) => s.clone());
        wrap(py, PyGame::new(any))
    }

    #[getter]
    fn nodes(&self) -> usize {
        dispatch!(&self.inner, (_s, m) => m.nodes())
    }

    #[getter]
    fn root_visits(&self) -> u64 {
        dispatch!(&self.inner, (_s, m) => m.root_visits())
    }
}
