//! `hexcore._core._mcts`: Monte Carlo tree search of `hexcore-core`, run on
//! a worker thread while the calling thread waits without the GIL and checks
//! for Ctrl-C every 50 ms.
//!
//! The position must be between turns: a game in the middle of a
//! multi-action turn is refused with `IllegalMoveError` (reason `mid_turn`),
//! as `solve` does, since the result is a whole move for `play()`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use hexcore_core::search::{search, SearchError, SearchOptions, SearchResult};
use hexcore_core::{Game, Reason};
use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{error, mid_turn_error};
use crate::game::{AnyGame, PyGame};

fn search_error(py: Python<'_>, e: SearchError) -> PyErr {
    match e {
        SearchError::GameOver => error(py, "GameOverError", e.to_string(), Some(Reason::GameOver.code())),
        SearchError::Cancelled => PyRuntimeError::new_err("the search was cancelled"),
        SearchError::Threads(m) => PyRuntimeError::new_err(m),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Run the search on a worker thread; Ctrl-C raises the stop flag.
fn run<G: Game>(py: Python<'_>, g: G, opts: SearchOptions) -> PyResult<(SearchResult, G)> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let rx = std::sync::Mutex::new(rx);
    let worker = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search(&g, &opts, &stop).map(|r| (r, g))));
            let _ = tx.send(r);
        })
    };
    let outcome = loop {
        match py.detach(|| rx.lock().unwrap_or_else(|e| e.into_inner()).recv_timeout(Duration::from_millis(50))) {
            Ok(r) => break Ok(r),
            Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(Err(Box::new("search thread ended") as Box<dyn std::any::Any + Send>)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Err(e) = py.check_signals() {
            break Err(e);
        }
    };
    match outcome {
        Ok(r) => {
            let _ = py.detach(|| worker.join());
            match r {
                Ok(Ok(x)) => Ok(x),
                Ok(Err(e)) => Err(search_error(py, e)),
                Err(_) => Err(PyRuntimeError::new_err("internal error in the search")),
            }
        }
        Err(e) => {
            stop.store(true, Ordering::Relaxed);
            let _ = py.detach(|| worker.join());
            Err(e)
        }
    }
}

fn result_dict<'py, G: Game>(py: Python<'py>, g: &G, r: SearchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let visits: Vec<i64> = r.visits.iter().map(|&v| v as i64).collect();
    d.set_item("visits", PyArray1::from_vec(py, visits))?;
    d.set_item("values", PyArray1::from_vec(py, r.values))?;
    d.set_item("action", r.best)?;
    d.set_item("move", g.format_move(&r.turn))?;
    d.set_item("turn", r.turn.clone())?;
    d.set_item("pv", r.pv.iter().map(|&a| g.action_to_string(a)).collect::<Vec<_>>())?;
    d.set_item("simulations", r.simulations)?;
    d.set_item("seconds", r.seconds)?;
    d.set_item("nodes", r.nodes)?;
    Ok(d)
}

/// Search the position with UCT and random rollouts. Returns a dict:
/// `visits` (int64 array over actions), `values` (float32 array, mean value
/// for the player to move), `action` (most visited), `move` (the whole turn
/// as text), `turn` (its actions), `pv` (action texts), `simulations`,
/// `seconds`, `nodes`.
#[pyfunction]
#[pyo3(signature = (game, simulations=None, seconds=None, threads=1, seed=0, c=std::f64::consts::SQRT_2,
                    max_rollout_plies=1000, max_nodes=10_000_000))]
#[allow(clippy::too_many_arguments)]
pub fn _mcts<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    simulations: Option<u64>,
    seconds: Option<f64>,
    threads: usize,
    seed: u64,
    c: f64,
    max_rollout_plies: u64,
    max_nodes: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let Ok(obj) = game.cast::<PyGame>() else {
        return Err(PyTypeError::new_err(format!(
            "mcts takes a Churn, Wunchunk or Quintun game, got {}",
            game.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
        )));
    };
    let any = {
        let b = obj.try_borrow().map_err(|e| PyRuntimeError::new_err(format!("the game is in use: {e}")))?;
        if b.any.mid_turn() {
            return Err(mid_turn_error(py, "finish it with apply_action() or undo() it before searching"));
        }
        b.any.clone()
    };
    let opts = SearchOptions { simulations, seconds, threads, seed, c, max_rollout_plies, max_nodes };
    match any {
        AnyGame::Churn(s) => {
            let (r, g) = run(py, s.g, opts)?;
            result_dict(py, &g, r)
        }
        AnyGame::Wunchunk(s) => {
            let (r, g) = run(py, s.g, opts)?;
            result_dict(py, &g, r)
        }
        AnyGame::Quintun(s) => {
            let (r, g) = run(py, s.g, opts)?;
            result_dict(py, &g, r)
        }
    }
}
