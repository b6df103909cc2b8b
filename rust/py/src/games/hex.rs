//! `hexcore.Hex`.

use hexcore_core::{Hex, HEX_MAX_SIZE};
use pyo3::prelude::*;

use crate::errors::{options_error, value_error, Int};
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{bool_arg, int_arg, Arg};
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

/// Hex: (rows, cols, swap) from `size` or `rows` and `cols` (default 11).
fn options(size: Arg<'_, '_>, rows: Arg<'_, '_>, cols: Arg<'_, '_>, swap: Arg<'_, '_>) -> PyResult<(usize, usize, bool)> {
    let (size, rows, cols) = (int_arg("size", size)?, int_arg("rows", rows)?, int_arg("cols", cols)?);
    let dim = |name: &str, v: i64| -> PyResult<usize> {
        if (1..=HEX_MAX_SIZE as i64).contains(&v) {
            Ok(v as usize)
        } else {
            Err(value_error(format!("{name} must be an integer from 1 to {HEX_MAX_SIZE}, got {v}")))
        }
    };
    let (r, c) = match (size, rows, cols) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => return Err(value_error("give size, or rows and cols, not both")),
        (Some(n), None, None) => (dim("size", n)?, dim("size", n)?),
        (None, None, None) => (11, 11),
        (None, Some(r), Some(c)) => (dim("rows", r)?, dim("cols", c)?),
        (None, Some(_), None) => return Err(value_error("rows needs cols")),
        (None, None, Some(_)) => return Err(value_error("cols needs rows")),
    };
    Ok((r, c, bool_arg("swap", swap, false)?))
}

#[pymethods]
impl PyHex {
    /// `Hex(size=11, swap=False)` or `Hex(rows=r, cols=c)`: an r x c rhombus
    /// (1 to 25 each); x joins the top and bottom rows, o the left and right
    /// columns; `swap=True` lets o's first move take x's stone, mirrored
    /// (square boards only).
    #[new]
    #[pyo3(signature = (size=None, *, rows=None, cols=None, swap=None))]
    fn new(size: Arg<'_, '_>, rows: Arg<'_, '_>, cols: Arg<'_, '_>, swap: Arg<'_, '_>) -> PyResult<PyClassInitializer<Self>> {
        let (r, c, s) = options(size, rows, cols, swap)?;
        let g = Hex::new(r, c, s).map_err(options_error)?;
        Ok(PyClassInitializer::from(PyGame::new(AnyGame::Hex(Session::new(g, None)))).add_subclass(PyHex))
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
        let (r, c, s) = options(size, rows, cols, swap)?;
        let to_move = to_move.0;
        let cells = crate::errors::small_cells(&cells)?;
        if !(1..=2).contains(&to_move) {
            return Err(value_error(format!("to_move must be 1 or 2, got {to_move}")));
        }
        if let Some(v) = cells.iter().find(|&&v| !(0..=2).contains(&v)) {
            return Err(value_error(format!("position: cell value {v} is not 0 (empty), 1 (x) or 2 (o)")));
        }
        let raw: Vec<u8> = cells.iter().map(|&v| v as u8).collect();
        let g = Hex::from_cells(r, c, s, &raw, to_move as u8).map_err(options_error)?;
        wrap(py, PyGame::new(AnyGame::Hex(Session::new(g, Some((cells, to_move as usize, Vec::new()))))))
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
