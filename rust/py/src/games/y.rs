//! `hexcore.Y`.

use hexcore_core::Y;
use pyo3::prelude::*;

use crate::errors::{options_error, Int};
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{build, Arg};
use crate::session::Session;

#[pyclass(name = "Y", module = "hexcore._core", extends = PyGame, subclass)]
pub struct PyY;

/// This game's class, as the generated class table names it.
pub use PyY as Class;

/// No cell values written as text in `from_position`.
pub const TEXT_VALUE: Option<TextValue> = None;

fn game<R>(slf: &PyRef<'_, PyY>, f: impl FnOnce(&Y) -> R) -> PyResult<R> {
    match &slf.as_super().any {
        AnyGame::Y(s) => Ok(f(&s.g)),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("not a Y game")),
    }
}

#[pymethods]
impl PyY {
    /// `Y(size=19)`: the triangle of side `size` (1 to 26); a player wins
    /// by joining all three sides with one group.
    #[new]
    #[pyo3(signature = (size=None))]
    fn new(size: Arg<'_, '_>) -> PyResult<PyClassInitializer<Self>> {
        let g: Y = build(&[("size", size)])?;
        Ok(
            PyClassInitializer::from(PyGame::new(AnyGame::Y(Session::new(g, None))))
                .add_subclass(PyY),
        )
    }

    /// A position from cell values (0 empty, 1 x, 2 o) in cell order.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None))]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<Int>,
        to_move: Int,
        size: Arg<'_, '_>,
    ) -> PyResult<Py<PyAny>> {
        let start: Y = build(&[("size", size)])?;
        let cells = crate::errors::small_cells(&cells)?;
        let g = Y::from_cells(start.size(), &cells, to_move.clone()).map_err(options_error)?;
        wrap(
            py,
            PyGame::new(AnyGame::Y(Session::new(
                g,
                Some((cells, to_move.value as usize, Vec::new())),
            ))),
        )
    }

    #[getter]
    fn size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.size())
    }

    /// (x, o): 1 for the winner, -1 for the loser, 0 while the game goes on.
    fn scores(slf: PyRef<'_, Self>) -> PyResult<(i32, i32)> {
        game(&slf, |g| match hexcore_core::Game::winner_mask(g) {
            1 => (1, -1),
            2 => (-1, 1),
            _ => (0, 0),
        })
    }
}
