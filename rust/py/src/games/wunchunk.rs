//! `hexcore.Wunchunk`.

use hexcore_core::Wunchunk;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::options_error;
use crate::game::{wrap, AnyGame, PyGame, TextValue};
use crate::options::{build, Arg};
use crate::session::Session;

#[pyclass(name = "Wunchunk", module = "hexcore._core", extends = PyGame, subclass)]
pub struct PyWunchunk;

/// This game's class, as the generated class table names it.
pub use PyWunchunk as Class;

/// No cell values written as text in `from_position`.
pub const TEXT_VALUE: Option<TextValue> = None;

fn game<R>(slf: &PyRef<'_, PyWunchunk>, f: impl FnOnce(&Wunchunk) -> R) -> PyResult<R> {
    match &slf.as_super().any {
        AnyGame::Wunchunk(s) => Ok(f(&s.g)),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(
            "not a Wunchunk game",
        )),
    }
}

/// A new game from the constructor's arguments.
fn options(
    size: Arg<'_, '_>,
    players: Arg<'_, '_>,
    start: Arg<'_, '_>,
    balance: Arg<'_, '_>,
) -> PyResult<Wunchunk> {
    build(&[
        ("size", size),
        ("players", players),
        ("start", start),
        ("balance", balance),
    ])
}

#[pymethods]
impl PyWunchunk {
    #[classattr]
    fn _setup_keys() -> Vec<&'static str> {
        vec!["colour1_turns", "passes"]
    }

    /// `Wunchunk(size=6, players=2, start="standard", balance="ap")`; size
    /// 5-8 for two players, 7-8 (default 8) for three or four; `start="open"`
    /// and `balance="pie"` need two players.
    #[new]
    #[pyo3(signature = (size=None, players=None, start=None, balance=None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        balance: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let g = options(size, players, start, balance)?;
        Ok(
            PyClassInitializer::from(PyGame::new(AnyGame::Wunchunk(Session::new(g, None))))
                .add_subclass(PyWunchunk),
        )
    }

    /// A position from cell values (0 empty, k colour k) in cell order, in
    /// regular play with no swap on offer. `colour1_turns` is the number of
    /// regular turns colour 1 has completed (2, the default: the balance rule
    /// is behind; 1: colour 1's next turn is the balance turn); `passes` the
    /// consecutive passes just made (0 to players - 1).
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None, players=None, start=None, balance=None, colour1_turns=crate::errors::Int::of(2),
                        passes=crate::errors::Int::of(0)))]
    #[allow(clippy::too_many_arguments)]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<crate::errors::Int>,
        to_move: crate::errors::Int,
        size: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        balance: Option<&Bound<'_, PyAny>>,
        colour1_turns: crate::errors::Int,
        passes: crate::errors::Int,
    ) -> PyResult<Py<PyAny>> {
        let base = options(size, players, start, balance)?;
        let cells = crate::errors::small_cells(&cells)?;
        let g = Wunchunk::from_cells_with_turns(
            base.size(),
            base.players(),
            base.start(),
            base.balance(),
            &cells,
            to_move.clone(),
            colour1_turns.clone(),
            passes.clone(),
        )
        .map_err(options_error)?;
        // The core accepted them: to_move and passes are small, colour1_turns >= 0.
        let (to_move, c1, passes) = (to_move.value, colour1_turns.value, passes.value);
        let mut extra = Vec::new();
        if c1 < 2 {
            extra.push(("colour1_turns", c1));
        }
        if passes != 0 {
            extra.push(("passes", passes));
        }
        wrap(
            py,
            PyGame::new(AnyGame::Wunchunk(Session::new(
                g,
                Some((cells, to_move as usize, extra)),
            ))),
        )
    }

    #[getter]
    fn size(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.size())
    }

    #[getter]
    fn players(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.players())
    }

    #[getter]
    fn start(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        game(&slf, |g| g.start().name())
    }

    #[getter]
    #[pyo3(name = "balance")]
    fn balance_name(slf: PyRef<'_, Self>) -> PyResult<&'static str> {
        game(&slf, |g| g.balance().name())
    }

    /// Stones the mover may place this turn (chunks of the mover's own colour
    /// at the start of the turn; 4 in the open setup).
    #[getter]
    fn allotment(slf: PyRef<'_, Self>) -> PyResult<usize> {
        game(&slf, |g| g.allotment())
    }

    /// True on the turn the balance rule checks (colour 1's second regular turn).
    #[getter]
    fn balance_turn(slf: PyRef<'_, Self>) -> PyResult<bool> {
        game(&slf, |g| g.balance_turn())
    }

    /// The colour each seat plays: {seat: colour}.
    #[getter]
    fn seat_colour<'py>(slf: PyRef<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let pairs: Vec<(usize, usize)> = game(&slf, |g| {
            (1..=g.players())
                .map(|seat| (seat, g.seat_colour(seat)))
                .collect()
        })?;
        let d = PyDict::new(slf.py());
        for (seat, colour) in pairs {
            d.set_item(seat, colour)?;
        }
        Ok(d)
    }

    /// Per seat: `[chunks, #groups of size 1, ..., #size M]` of that seat's
    /// colour (M = the largest group on the board).
    fn scores(slf: PyRef<'_, Self>) -> PyResult<Vec<Vec<u32>>> {
        game(&slf, |g| g.scores())
    }

    /// The same vectors per colour (index 0 = colour 1).
    fn colour_vectors(slf: PyRef<'_, Self>) -> PyResult<Vec<Vec<u32>>> {
        game(&slf, |g| g.colour_vectors())
    }
}
