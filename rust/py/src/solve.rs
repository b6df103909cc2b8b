//! `hexcore._core._solve`: the exact solver of `hexcore-core`, run on a
//! worker thread while the calling thread waits without the GIL and checks
//! for Ctrl-C (see `interrupt`); the progress callback runs every 500 ms.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};

use hexcore_core::solve::{
    solve_and_certify, Algorithm, Monitor, Solution, Solvable, SolveError, SolveOptions,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::IntoPyErr;
use crate::game::AnyGame;
use hexcore_core::limits;

fn run<G: Solvable>(
    py: Python<'_>,
    g: G,
    opts: SolveOptions,
    progress: Option<Bound<'_, PyAny>>,
    mut certificate: Option<&mut (dyn Write + Send)>,
) -> PyResult<Solution> {
    let mon = Monitor::default();
    let t0 = Instant::now();
    let mut last = Instant::now();
    let tick = |_: Python<'_>| -> PyResult<()> {
        if let Some(cb) = &progress {
            if last.elapsed() >= Duration::from_millis(500) {
                last = Instant::now();
                let args = (
                    mon.nodes.load(Ordering::Relaxed),
                    mon.table_filled.load(Ordering::Relaxed),
                    mon.table_capacity.load(Ordering::Relaxed),
                    t0.elapsed().as_secs_f64(),
                );
                cb.call1(args)?;
            }
        }
        Ok(())
    };
    crate::interrupt::run_with(py, "the solver", &mon.stop, tick, || {
        let out = certificate.as_mut().map(|w| &mut **w as &mut dyn Write);
        solve_and_certify(&g, &opts, &mon, out)
    })?
    .map_err(|e| e.into_pyerr(py))
}

/// Solve a two-player position. Returns a dict: `value` ("win", "loss",
/// "draw" or None), `moves` (list of (text, value or None)), `best` (index
/// or None), `plies_to_end`, `nodes`, `seconds`, `complete`,
/// `table_entries`, `table_capacity`, `symmetries`, `algorithm`, `certificate`.
///
/// `algorithm`: "alphabeta", "dfpn", or None for the game's choice.
///
/// With `certificate` (a path), the proof's node lines are appended to that
/// file and `certificate` is `{"positions": n, "strategies": [(player,
/// goal, root)]}`, or None when the budget ran out first (see
/// `hexcore_core::solve::certificate`; the Python layer writes the header
/// and trailer lines).
/// `max_nodes`, checked by the core (`limits::node_budget`).
pub struct NodeBudget(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for NodeBudget {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let n = crate::options::int_of("max_nodes", &obj)?;
        limits::node_budget(n)
            .map(NodeBudget)
            .map_err(crate::errors::options_error)
    }
}

/// `table_mb`, checked by the core (`limits::table_mb`).
pub struct TableMb(usize);

impl<'a, 'py> FromPyObject<'a, 'py> for TableMb {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let mb = crate::options::int_of("table_mb", &obj)?;
        limits::table_mb(mb)
            .map(TableMb)
            .map_err(crate::errors::options_error)
    }
}

#[pyfunction]
#[pyo3(signature = (game, max_seconds=None, max_nodes=None, threads=None, table_mb=TableMb(256), progress=None, distances=true, certificate=None, algorithm=None))]
pub fn _solve<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    max_seconds: Option<f64>,
    max_nodes: Option<NodeBudget>,
    threads: Option<crate::errors::Int>,
    table_mb: TableMb,
    progress: Option<Bound<'py, PyAny>>,
    distances: bool,
    certificate: Option<std::path::PathBuf>,
    algorithm: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let (max_nodes, table_mb) = (max_nodes.map(|n| n.0), table_mb.0);
    let threads = crate::options::threads(threads)?;
    let algorithm = algorithm
        .map(|a| Algorithm::from_name(&a))
        .transpose()
        .map_err(crate::errors::options_error)?;
    let opts = SolveOptions {
        max_nodes,
        max_seconds,
        threads,
        table_bytes: table_mb << 20,
        distances,
        algorithm,
        ..Default::default()
    };
    let any = AnyGame::copy_of(game, "solve")?;
    if any.mid_turn() {
        return Err(SolveError::MidTurn.into_pyerr(py));
    }
    let mut file = match &certificate {
        Some(path) => Some(BufWriter::new(
            OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .map_err(|e| {
                    pyo3::exceptions::PyOSError::new_err(format!(
                        "cannot open the certificate file {}: {e}",
                        path.display()
                    ))
                })?,
        )),
        None => None,
    };
    let sol = dispatch!(any, s => run(py, s.g, opts, progress, file.as_mut().map(|f| f as &mut (dyn Write + Send)))?);
    let d = PyDict::new(py);
    d.set_item("value", sol.value.map(|v| v.name()))?;
    let moves = PyList::empty(py);
    for m in &sol.moves {
        moves.append((m.text.clone(), m.value.map(|v| v.name())))?;
    }
    d.set_item("moves", moves)?;
    d.set_item("best", sol.best)?;
    d.set_item("plies_to_end", sol.plies_to_end)?;
    d.set_item("nodes", sol.nodes)?;
    d.set_item("seconds", sol.seconds)?;
    d.set_item("complete", sol.complete)?;
    d.set_item("table_entries", sol.table_entries)?;
    d.set_item("table_capacity", sol.table_capacity)?;
    d.set_item("symmetries", sol.symmetries)?;
    d.set_item("algorithm", sol.algorithm.name())?;
    match &sol.certificate {
        Some(c) => {
            let cd = PyDict::new(py);
            cd.set_item("positions", c.positions)?;
            let st: Vec<(usize, i32, u64)> = c
                .strategies
                .iter()
                .map(|s| (s.player, s.goal, s.root))
                .collect();
            cd.set_item("strategies", st)?;
            d.set_item("certificate", cd)?;
        }
        None => d.set_item("certificate", py.None())?,
    }
    Ok(d)
}
