//! Python bindings of hexcore (`hexcore._core`). No game rules live here:
//! each file wraps one type of `hexcore-core`.

use pyo3::prelude::*;

pub mod board;
pub mod churn;
pub mod errors;
pub mod game;
pub mod interrupt;
pub mod options;
pub mod quintun;
pub mod search;
pub mod session;
pub mod solve;
pub mod vector;
pub mod wunchunk;

/// Every `IllegalMoveError.reason` code the engine raises, in the core's order.
#[pyfunction]
fn _reason_codes() -> Vec<&'static str> {
    hexcore_core::Reason::ALL.iter().map(|r| r.code()).collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<churn::PyChurn>()?;
    m.add_class::<quintun::PyQuintun>()?;
    m.add_class::<wunchunk::PyWunchunk>()?;
    m.add_function(wrap_pyfunction!(_reason_codes, m)?)?;
    // `Reason = Literal["syntax", ...]` as in the stub (at runtime the union
    // of one Literal per code, which is what the stub's Literal means).
    let typing = m.py().import("typing")?;
    let literal = typing.getattr("Literal")?;
    let each = _reason_codes().into_iter().map(|c| literal.get_item(c)).collect::<PyResult<Vec<_>>>()?;
    m.add("Reason", typing.getattr("Union")?.get_item(pyo3::types::PyTuple::new(m.py(), each)?)?)?;
    m.add_function(wrap_pyfunction!(solve::_solve, m)?)?;
    m.add_function(wrap_pyfunction!(search::_mcts, m)?)?;
    m.add_class::<search::PyMcts>()?;
    vector::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
