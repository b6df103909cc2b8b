//! `hexcore.Hex`.

use hexcore_core::Hex;
use pyo3::prelude::*;

use crate::errors::{options_error, Int};
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{build, Arg};
use crate::session::Session;

#[pyclass(name = "Hex", module = "hexcore._core", extends = PyGame, subclass)]
pub struct PyHex;

/// This game's class, as the generated class table names it.
pub use PyHex as Class;

/// No cell values written as text in `from_position`.
pub const TEXT_VALUE: Option<TextValue> = None;

fn game<R>(slf: &PyRef<'_, PyHex>, f: impl FnOnce(&Hex) -> R) -> PyResult<R> {
    match &slf.as_super().any {
        AnyGame::Hex(s) => Ok(f(&s.g)),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("not a Hex game")),
    }
}

/// A new game from the constructor's arguments.
fn options(
    size: Arg<'_, '_>,
    rows: Arg<'_, '_>,
    cols: Arg<'_, '_>,
    swap: Arg<'_, '_>,
) -> PyResult<Hex> {
    build(&[
        ("size", size),
        ("rows", rows),
        ("cols", cols),
        ("swap", swap),
    ])
}

#[pymethods]
impl PyHex {
    /// `Hex(size=11, swap=False)`, or `rows` and `cols` for a rows x cols rhombus
    /// (1 to 25 each); x joins the top and bottom rows, o the left and right
    /// columns; `swap=True` lets o's first move take x's stone, mirrored
    /// (square boards only).
    #[new]
    #[pyo3(signature = (size=None, *, rows=None, cols=None, swap=None))]
    fn new(
        size: Arg<'_, '_>,
        rows: Arg<'_, '_>,
        cols: Arg<'_, '_>,
        swap: Arg<'_, '_>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let g = options(size, rows, cols, swap)?;
        Ok(
            PyClassInitializer::from(PyGame::new(AnyGame::Hex(Session::new(g, None))))
                .add_subclass(PyHex),
        )
    }

    /// A position from cell values (0 empty, 1 x, 2 o) in cell order; no
    /// swap is offered.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None, *, rows=None, cols=None, swap=None))]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<Int>,
        to_move: Int,
        size: Arg<'_, '_>,
        rows: Arg<'_, '_>,
        cols: Arg<'_, '_>,
        swap: Arg<'_, '_>,
    ) -> PyResult<Py<PyAny>> {
        let start = options(size, rows, cols, swap)?;
        let cells = crate::errors::small_cells(&cells)?;
        let g = Hex::from_cells(
            start.rows(),
            start.cols(),
            start.swap(),
            &cells,
            to_move.clone(),
        )
        .map_err(options_error)?;
        wrap(
            py,
            PyGame::new(AnyGame::Hex(Session::new(
                g,
                Some((cells, to_move.value as usize, Vec::new())),
            ))),
        )
    }

    #[getter]
    fn rows(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.rows())
    }

    #[getter]
    fn cols(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.cols())
    }

    /// The side of a square board, None otherwise.
    #[getter]
    fn size(slf: PyRef<'_, Self>) -> PyResult<Option<usize>> {
        game(&slf, |g| (g.rows() == g.cols()).then_some(g.rows()))
    }

    #[getter]
    fn swap(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.swap())
    }

    /// Whether `swap` is a legal move now.
    #[getter]
    fn swap_available(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.swap_available())
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
