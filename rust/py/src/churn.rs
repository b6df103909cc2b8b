//! `hexcore.Churn`.

use hexcore_core::Churn;
use pyo3::prelude::*;

use crate::board::make_board;
use crate::errors::{value_error, Int};
use crate::game_class;

game_class!(PyChurn, Churn, "Churn");

#[pymethods]
impl PyChurn {
    /// `Churn(size=3)`, `Churn(sides=(3,4,3,4,3,4))` or `Churn(board="limping-34")`;
    /// `pie=False` turns the pie rule off.
    #[new]
    #[pyo3(signature = (size=None, *, sides=None, board=None, pie=true))]
    fn new(size: Option<Int>, sides: Option<Vec<Int>>, board: Option<&str>, pie: bool) -> PyResult<Self> {
        let b = make_board(size, sides, board, 3)?;
        Ok(PyChurn::wrap(Churn::new(b, pie), None))
    }

    /// A position from cell values (0 empty, 1 red, 2 blue) in cell order.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, *, size=None, sides=None, board=None, pie=true))]
    fn _from_cells(cells: Vec<Int>, to_move: Int, size: Option<Int>, sides: Option<Vec<Int>>, board: Option<&str>, pie: bool) -> PyResult<Self> {
        let to_move = to_move.0;
        let cells: Vec<i64> = cells.into_iter().map(|c| c.0).collect();
        let b = make_board(size, sides, board, 3)?;
        if !(1..=2).contains(&to_move) {
            return Err(value_error(format!("to_move must be 1 or 2, got {to_move}")));
        }
        if let Some(v) = cells.iter().find(|&&v| !(0..=2).contains(&v)) {
            return Err(value_error(format!("cell value {v} is not 0 (empty), 1 (red) or 2 (blue)")));
        }
        let raw: Vec<u8> = cells.iter().map(|&v| v as u8).collect();
        let g = Churn::from_cells(b, pie, &raw, to_move as u8).map_err(value_error)?;
        Ok(PyChurn::wrap(g, Some((cells.iter().map(|&v| v as i8).collect(), to_move as usize, Vec::new()))))
    }

    #[getter]
    fn pie(&self) -> bool {
        self.s.g.pie()
    }

    /// Stones on the board: (red, blue).
    fn scores(&self) -> (u32, u32) {
        self.s.g.stone_counts()
    }
}
