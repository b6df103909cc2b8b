//! `hexcore.Quintun`.

use hexcore_core::{quintun_record_moves, Quintun, QuintunBoard};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};

use crate::errors::{options_error, Int, IntoPyErr};
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{build, Arg};
use crate::session::Session;

#[pyclass(name = "Quintun", module = "hexcore._core", extends = PyGame, subclass)]
pub struct PyQuintun;

/// This game's class, as the generated class table names it.
pub use PyQuintun as Class;

/// Cell values written as text in `from_position`: neutral colour letters.
pub const TEXT_VALUE: Option<TextValue> = Some(neutral_value);

fn game<R>(slf: &PyRef<'_, PyQuintun>, f: impl FnOnce(&Quintun) -> R) -> PyResult<R> {
    match &slf.as_super().any {
        AnyGame::Quintun(s) => Ok(f(&s.g)),
        _ => Err(pyo3::exceptions::PyTypeError::new_err("not a Quintun game")),
    }
}

/// A neutral stone written as its colour letter in `from_position`
/// ("A".."E" -> -1..-5).
fn neutral_value(text: &str) -> Option<i64> {
    match text.trim().to_ascii_uppercase().as_bytes() {
        [c @ b'A'..=b'E'] => Some(-((c - b'A') as i64 + 1)),
        _ => None,
    }
}

/// A new game from the constructor's arguments.
fn options(size: Arg<'_, '_>, placement: Arg<'_, '_>, swap: Arg<'_, '_>) -> PyResult<Quintun> {
    build(&[("size", size), ("placement", placement), ("swap", swap)])
}

#[pymethods]
impl PyQuintun {
    /// `Quintun(size=7, placement="side", swap=True)`: side 4..10; placement
    /// `"side"` (a NEW neutral goes on a side without stones when there is
    /// one) or `"gap"` (five empty ring cells to the nearest neutral both
    /// ways, when possible); `swap` is the pie rule.
    #[new]
    #[pyo3(signature = (size=None, placement=None, swap=None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        placement: Option<&Bound<'_, PyAny>>,
        swap: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let g = PyGame::new(AnyGame::Quintun(Session::new(
            options(size, placement, swap)?,
            None,
        )));
        Ok(PyClassInitializer::from(g).add_subclass(PyQuintun))
    }

    /// A position from cell values in cell order (0 empty, 1 Black, 2 White,
    /// -1..-5 neutral A..E); no swap is offered.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None, placement=None, swap=None))]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<Int>,
        to_move: Int,
        size: Option<&Bound<'_, PyAny>>,
        placement: Option<&Bound<'_, PyAny>>,
        swap: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let start = options(size, placement, swap)?;
        let cells = crate::errors::small_cells(&cells)?;
        let g = Quintun::from_cells(
            QuintunBoard::shared(start.size()).map_err(options_error)?,
            start.placement(),
            start.swap_rule(),
            &cells,
            to_move.clone(),
        )
        .map_err(options_error)?;
        wrap(
            py,
            PyGame::new(AnyGame::Quintun(Session::new(
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
    fn placement(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        game(&slf, |g| g.placement().name())
    }

    #[getter]
    fn swap(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.swap_rule())
    }

    /// Whether (Black, White) meet a win condition now.
    fn qualified(slf: PyRef<'_, Self>) -> PyResult<(bool, bool)> {
        game(&slf, |g| g.qualified())
    }

    /// Per player (Black, White): the most neutral colours one of its groups
    /// touches (a group with four, or two groups with three, win).
    fn scores(slf: PyRef<'_, Self>) -> PyResult<(u32, u32)> {
        game(&slf, |g| g.best_colours())
    }

    /// Replay moves from the start: a list, a string of moves, or a record of
    /// numbered lines as in the sample game (`1. j4 j4`; reading stops at
    /// `resign`).
    #[classmethod]
    #[pyo3(signature = (moves, **options))]
    fn replay<'py>(
        cls: &Bound<'py, PyType>,
        moves: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(text) = moves.extract::<String>() {
            let list = PyList::new(
                cls.py(),
                quintun_record_moves(&text).map_err(|e| e.into_pyerr(cls.py()))?,
            )?;
            return PyGame::replay(cls, list.as_any(), options);
        }
        PyGame::replay(cls, moves, options)
    }

    /// Legal moves by kind: `{"stone": .., "new": .., "extend": .., "swap": ..}`.
    fn count_by_kind<'py>(slf: PyRef<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let (a, b, c, d) = game(&slf, |g| g.count_by_kind())?;
        let out = PyDict::new(slf.py());
        out.set_item("stone", a)?;
        out.set_item("new", b)?;
        out.set_item("extend", c)?;
        out.set_item("swap", d)?;
        Ok(out)
    }
}
