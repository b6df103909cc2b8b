//! `hexcore.Havannah`.

use hexcore_core::Havannah;
use pyo3::prelude::*;

use crate::errors::{options_error, Int};
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{build, Arg};
use crate::session::Session;

#[pyclass(name = "Havannah", module = "hexcore._core", extends = PyGame, subclass)]
pub struct PyHavannah;

/// This game's class, as the generated class table names it.
pub use PyHavannah as Class;

/// No cell values written as text in `from_position`.
pub const TEXT_VALUE: Option<TextValue> = None;

fn game<R>(slf: &PyRef<'_, PyHavannah>, f: impl FnOnce(&Havannah) -> R) -> PyResult<R> {
    match &slf.as_super().any {
        AnyGame::Havannah(s) => Ok(f(&s.g)),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(
            "not a Havannah game",
        )),
    }
}

#[pymethods]
impl PyHavannah {
    /// `Havannah(size=8, swap=False)`: the hexagon of side `size` (2 to 13);
    /// a player wins by a ring, a bridge or a fork, a full board is a draw;
    /// `swap=True` lets o's first move take x's stone.
    #[new]
    #[pyo3(signature = (size=None, *, swap=None))]
    fn new(size: Arg<'_, '_>, swap: Arg<'_, '_>) -> PyResult<PyClassInitializer<Self>> {
        let g: Havannah = build(&[("size", size), ("swap", swap)])?;
        Ok(
            PyClassInitializer::from(PyGame::new(AnyGame::Havannah(Session::new(g, None))))
                .add_subclass(PyHavannah),
        )
    }

    /// A position from cell values (0 empty, 1 x, 2 o) in cell order; no
    /// swap is offered.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None, *, swap=None))]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<Int>,
        to_move: Int,
        size: Arg<'_, '_>,
        swap: Arg<'_, '_>,
    ) -> PyResult<Py<PyAny>> {
        let start: Havannah = build(&[("size", size), ("swap", swap)])?;
        let cells = crate::errors::small_cells(&cells)?;
        let g = Havannah::from_cells(start.size(), start.swap(), &cells, to_move.clone())
            .map_err(options_error)?;
        wrap(
            py,
            PyGame::new(AnyGame::Havannah(Session::new(
                g,
                Some((cells, to_move.value as usize, Vec::new())),
            ))),
        )
    }

    #[getter]
    fn size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.size())
    }

    #[getter]
    fn swap(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.swap())
    }

    /// Whether o may take x's first stone now.
    #[getter]
    fn swap_available(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.swap_available())
    }

    /// How the game was won: "ring", "bridge" or "fork" (the first of them
    /// when the last stone made several), None while it goes on or after
    /// a draw.
    fn win_kind(slf: PyRef<'_, Self>) -> PyResult<Option<&'static str>> {
        game(&slf, |g| g.win_kinds().first().map(|k| k.name()))
    }

    /// (x, o): 1 for the winner, -1 for the loser, 0 while the game goes on
    /// or after a draw.
    fn scores(slf: PyRef<'_, Self>) -> PyResult<(i32, i32)> {
        game(&slf, |g| match hexcore_core::Game::winner_mask(g) {
            1 => (1, -1),
            2 => (-1, 1),
            _ => (0, 0),
        })
    }
}
