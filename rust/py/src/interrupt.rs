//! Long runs (perft, divide, playouts, solve) that Ctrl-C can stop.
//!
//! The work runs on a worker thread; the calling thread waits without the
//! GIL in steps of [`POLL`], and between steps runs the signal handlers
//! (`check_signals`) and an optional `tick` (the solver's progress
//! callback). When either raises, the worker's stop flag is set, the worker
//! is joined and the Python exception is re-raised. A panic in the worker
//! becomes a `RuntimeError`, never an abort.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use hexcore_core::RunError;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::IntoPyErr;

/// How often the waiting thread checks for signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Stack of the worker thread (like a main thread's; perft walks deeper
/// than the core's inline depth start their own, larger, thread).
const WORKER_STACK: usize = 8 << 20;

/// Run `work` on a worker thread while this thread waits without the GIL,
/// calling `check_signals` and `tick` every [`POLL`]. If either raises,
/// `stop` is set, the worker joined, and that exception returned. `what`
/// names the run in the message of an internal error.
pub fn run_with<T: Send>(
    py: Python<'_>,
    what: &str,
    stop: &AtomicBool,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    let rx = Mutex::new(rx);
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("hexcore-run".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, move || {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
                let _ = tx.send(r);
            })
            .map_err(|e| {
                PyRuntimeError::new_err(format!("could not start a thread for {what}: {e}"))
            })?;
        let outcome = loop {
            match py.detach(|| {
                rx.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .recv_timeout(POLL)
            }) {
                Ok(r) => break Ok(r),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    break Ok(Err(
                        Box::new("worker ended") as Box<dyn std::any::Any + Send>
                    ))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals().and_then(|_| tick(py)) {
                break Err(e);
            }
        };
        if outcome.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let joined = py.detach(|| worker.join());
        match outcome {
            Err(e) => Err(e),
            Ok(Ok(v)) => Ok(v),
            Ok(Err(p)) => Err(internal(what, &*p)),
        }
        .and_then(|v| match joined {
            Ok(()) => Ok(v),
            Err(p) => Err(internal(what, &*p)),
        })
    })
}

fn internal(what: &str, payload: &(dyn std::any::Any + Send)) -> PyErr {
    let detail = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    PyRuntimeError::new_err(format!("internal error in {what}: {detail}"))
}

/// Run a stoppable core run (`work` gets the stop flag) as [`run_with`]
/// does, mapping its [`RunError`] to a Python exception.
pub fn run<T: Send>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce(&AtomicBool) -> Result<T, RunError> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let r = run_with(py, what, &stop, |_| Ok(()), || work(&stop))?;
    r.map_err(|e| e.into_pyerr(py))
}
