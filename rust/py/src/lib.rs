//! Python bindings of hexcore (`hexcore._core`). No game rules live here:
//! each file wraps one type of `hexcore-core`.

use pyo3::prelude::*;

pub mod board;
pub mod churn;
pub mod errors;
pub mod game_class;
pub mod quintun;
pub mod session;
pub mod vector;
pub mod wunchunk;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<churn::PyChurn>()?;
    m.add_class::<quintun::PyQuintun>()?;
    m.add_class::<wunchunk::PyWunchunk>()?;
    vector::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
