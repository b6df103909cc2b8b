//! `hexcore.Wunchunk`.

use hexcore_core::{Wunchunk, WunchunkBalance as Balance, WunchunkStart as Start};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::value_error;
use crate::game_class;

game_class!(PyWunchunk, Wunchunk, "Wunchunk", setup_keys = ["colour1_turns", "passes"]);

/// An int option, with a ValueError naming it otherwise.
fn int_option(name: &str, v: &Bound<'_, PyAny>) -> PyResult<i64> {
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Err(value_error(format!("{name} must be an int, got {v}")));
    }
    v.extract::<i64>().map_err(|_| value_error(format!("{name} must be an int, got {}", v.repr().map(|r| r.to_string()).unwrap_or_default())))
}

fn str_option(name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    v.extract::<String>().map_err(|_| value_error(format!("{name} must be a string, got {}", v.repr().map(|r| r.to_string()).unwrap_or_default())))
}

fn build(size: Option<&Bound<'_, PyAny>>, players: Option<&Bound<'_, PyAny>>, start: Option<&Bound<'_, PyAny>>,
         balance: Option<&Bound<'_, PyAny>>) -> PyResult<(usize, usize, Start, Balance)> {
    let players = match players {
        Some(p) if !p.is_none() => int_option("players", p)?,
        _ => 2,
    };
    if !(2..=4).contains(&players) {
        return Err(value_error(format!("players must be 2, 3 or 4, got {players}")));
    }
    let size = match size {
        Some(s) if !s.is_none() => int_option("size", s)?,
        _ => if players == 2 { 6 } else { 8 },
    };
    if !(5..=8).contains(&size) {
        return Err(value_error(format!("size must be between 5 and 8, got {size}")));
    }
    let start_s = match start {
        Some(s) if !s.is_none() => str_option("start", s)?,
        _ => "standard".into(),
    };
    let start = Start::parse(&start_s).ok_or_else(|| value_error(format!("start must be 'standard' or 'open', got {start_s:?}")))?;
    let balance_s = match balance {
        Some(s) if !s.is_none() => str_option("balance", s)?,
        _ => "ap".into(),
    };
    let balance = Balance::parse(&balance_s)
        .ok_or_else(|| value_error(format!("balance must be 'ap', 'pie' or 'none', got {balance_s:?}")))?;
    Ok((size as usize, players as usize, start, balance))
}

#[pymethods]
impl PyWunchunk {
    /// `Wunchunk(size=6, players=2, start="standard", balance="ap")`; size
    /// 5-8 for two players, 7-8 (default 8) for three or four; `start="open"`
    /// and `balance="pie"` need two players.
    #[new]
    #[pyo3(signature = (size=None, players=None, start=None, balance=None))]
    fn new(size: Option<&Bound<'_, PyAny>>, players: Option<&Bound<'_, PyAny>>, start: Option<&Bound<'_, PyAny>>,
           balance: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let (size, players, start, balance) = build(size, players, start, balance)?;
        let g = Wunchunk::new(size, players, start, balance).map_err(|(_, msg)| value_error(msg))?;
        Ok(PyWunchunk::wrap(g, None))
    }

    /// A position from cell values (0 empty, k colour k) in cell order, in
    /// regular play with no swap on offer. `colour1_turns` is the number of
    /// regular turns colour 1 has completed (2, the default: the balance rule
    /// is behind; 1: colour 1's next turn is the balance turn); `passes` the
    /// consecutive passes just made (0 to players - 1).
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None, players=None, start=None, balance=None, colour1_turns=crate::errors::Int(2),
                        passes=crate::errors::Int(0)))]
    #[allow(clippy::too_many_arguments)]
    fn _from_cells(cells: Vec<crate::errors::Int>, to_move: crate::errors::Int, size: Option<&Bound<'_, PyAny>>, players: Option<&Bound<'_, PyAny>>,
                   start: Option<&Bound<'_, PyAny>>, balance: Option<&Bound<'_, PyAny>>, colour1_turns: crate::errors::Int,
                   passes: crate::errors::Int) -> PyResult<Self> {
        let (size, players, start, balance) = build(size, players, start, balance)?;
        let to_move = to_move.0;
        let cells = crate::errors::small_cells(&cells)?;
        if let Some(v) = cells.iter().find(|&&v| v < 0 || v as usize > players) {
            return Err(value_error(format!("position value {v} is not a colour 1..{players} (or 0 for empty)")));
        }
        if !(1..=players as i64).contains(&to_move) {
            return Err(value_error(format!("to_move must be in 1..{players}, got {to_move}")));
        }
        let (c1, passes) = (colour1_turns.0, passes.0);
        if c1 < 0 {
            return Err(value_error(format!("colour1_turns must be a non-negative int, got {c1}")));
        }
        if !(0..players as i64).contains(&passes) {
            return Err(value_error(format!("passes must be in 0..{}, got {passes}", players - 1)));
        }
        let raw: Vec<u8> = cells.iter().map(|&v| v as u8).collect();
        let g = Wunchunk::from_cells_with_turns(size, players, start, balance, &raw, to_move as usize, c1.min(2) as u8, passes as u8)
            .map_err(|(_, msg)| value_error(msg))?;
        let mut extra = Vec::new();
        if c1 < 2 {
            extra.push(("colour1_turns", c1));
        }
        if passes != 0 {
            extra.push(("passes", passes));
        }
        Ok(PyWunchunk::wrap(g, Some((cells, to_move as usize, extra))))
    }

    #[getter]
    fn size(&self) -> usize {
        self.s.g.size()
    }

    #[getter]
    fn players(&self) -> usize {
        self.s.g.players()
    }

    #[getter]
    fn start(&self) -> &'static str {
        self.s.g.start().name()
    }

    #[getter]
    #[pyo3(name = "balance")]
    fn balance_name(&self) -> &'static str {
        self.s.g.balance().name()
    }

    /// Stones the mover may place this turn (chunks of the mover's own colour
    /// at the start of the turn; 4 in the open setup).
    #[getter]
    fn allotment(&self) -> usize {
        self.s.g.allotment()
    }

    /// True on the turn the balance rule checks (colour 1's second regular turn).
    #[getter]
    fn balance_turn(&self) -> bool {
        self.s.g.balance_turn()
    }

    /// The colour each seat plays: {seat: colour}.
    #[getter]
    fn seat_colour<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for seat in 1..=self.s.g.players() {
            d.set_item(seat, self.s.g.seat_colour(seat))?;
        }
        Ok(d)
    }

    /// Per seat: `[chunks, #groups of size 1, ..., #size M]` of that seat's
    /// colour (M = the largest group on the board).
    fn scores(&self) -> Vec<Vec<u32>> {
        self.s.g.scores()
    }

    /// The same vectors per colour (index 0 = colour 1).
    fn colour_vectors(&self) -> Vec<Vec<u32>> {
        self.s.g.colour_vectors()
    }
}
