//! `hexcore.Churn`.

use std::sync::Arc;

use hexcore_core::{Churn, Game};
use pyo3::prelude::*;

use crate::errors::{options_error, Int};
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{build, Arg};
use crate::session::Session;

#[pyclass(name = "Churn", module = "hexcore._core", extends = PyGame, subclass)]
pub struct PyChurn;

/// This game's class, as the generated class table names it.
pub use PyChurn as Class;

/// No cell values written as text in `from_position`.
pub const TEXT_VALUE: Option<TextValue> = None;

fn game<R>(slf: &PyRef<'_, PyChurn>, f: impl FnOnce(&Churn) -> R) -> PyResult<R> {
    match &slf.as_super().any {
        AnyGame::Churn(s) => Ok(f(&s.g)),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("not a Churn game")),
    }
}

/// A new game from the constructor's arguments.
fn options(
    size: Arg<'_, '_>,
    sides: Arg<'_, '_>,
    board: Arg<'_, '_>,
    pie: Arg<'_, '_>,
) -> PyResult<Churn> {
    build(&[
        ("size", size),
        ("sides", sides),
        ("board", board),
        ("pie", pie),
    ])
}

#[pymethods]
impl PyChurn {
    /// `Churn(size=3)`, `Churn(sides=(3,4,3,4,3,4))` or `Churn(board="limping-34")`;
    /// `pie=False` turns the pie rule off.
    #[new]
    #[pyo3(signature = (size=None, *, sides=None, board=None, pie=None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        sides: Option<&Bound<'_, PyAny>>,
        board: Option<&Bound<'_, PyAny>>,
        pie: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let g = PyGame::new(AnyGame::Churn(Session::new(
            options(size, sides, board, pie)?,
            None,
        )));
        Ok(PyClassInitializer::from(g).add_subclass(PyChurn))
    }

    /// A position from cell values (0 empty, 1 red, 2 blue) in cell order.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, *, size=None, sides=None, board=None, pie=None))]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<Int>,
        to_move: Int,
        size: Option<&Bound<'_, PyAny>>,
        sides: Option<&Bound<'_, PyAny>>,
        board: Option<&Bound<'_, PyAny>>,
        pie: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let start = options(size, sides, board, pie)?;
        let cells = crate::errors::small_cells(&cells)?;
        let g = Churn::from_cells(
            Arc::new(start.board().clone()),
            start.pie(),
            &cells,
            to_move.clone(),
        )
        .map_err(options_error)?;
        wrap(
            py,
            PyGame::new(AnyGame::Churn(Session::new(
                g,
                Some((cells, to_move.value as usize, Vec::new())),
            ))),
        )
    }

    #[getter]
    fn pie(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.pie())
    }

    /// Stones on the board: (red, blue).
    fn scores(slf: PyRef<'_, Self>) -> PyResult<(u32, u32)> {
        game(&slf, |g| g.stone_counts())
    }
}
