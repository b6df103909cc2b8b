//! `hexcore.Board`: a read-only view of a board's geometry.

use std::sync::Arc;

use hexcore_core::{Board, NO_CELL};
use numpy::{PyArray2, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

use crate::errors::{illegal, value_error, Int};

#[pyclass(name = "Board", module = "hexcore._core", frozen)]
pub struct PyBoard {
    pub inner: Arc<Board>,
}

impl PyBoard {
    fn cell(&self, i: Int) -> PyResult<usize> {
        let n = self.inner.num_cells();
        match usize::try_from(i.value) {
            Ok(c) if c < n => Ok(c),
            _ => Err(PyIndexError::new_err(format!(
                "cell index {i} out of range 0..{n}"
            ))),
        }
    }
}

#[pymethods]
impl PyBoard {
    /// `Board(size=n)`, `Board(sides=(s1..s6))` or `Board(board="limping-34")`.
    #[new]
    #[pyo3(signature = (size=None, *, sides=None, board=None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        sides: Option<&Bound<'_, PyAny>>,
        board: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ok(PyBoard {
            inner: crate::options::board(size, sides, board)?,
        })
    }

    #[getter]
    fn num_cells(&self) -> usize {
        self.inner.num_cells()
    }

    fn __len__(&self) -> usize {
        self.inner.num_cells()
    }

    /// Side lengths clockwise from the top edge.
    #[getter]
    fn side_lengths(&self) -> Vec<u16> {
        self.inner.side_lengths().to_vec()
    }

    /// (rows, cols) of a rhombus (Hex's board), None for a hexagon.
    #[getter]
    fn rhombus(&self) -> Option<(usize, usize)> {
        self.inner.rhombus_dims()
    }

    /// The side of a triangle (Y's board), None for other shapes.
    #[getter]
    fn triangle(&self) -> Option<usize> {
        self.inner.triangle_size()
    }

    /// Abstract Play's name for this board, if it has one.
    #[getter]
    fn name(&self) -> Option<&'static str> {
        self.inner.ap_name()
    }

    fn label(&self, i: Int) -> PyResult<String> {
        Ok(self.inner.label(self.cell(i)?).to_string())
    }

    #[getter]
    fn labels(&self) -> Vec<String> {
        self.inner.labels().to_vec()
    }

    fn index(&self, py: Python<'_>, label: &Bound<'_, PyAny>) -> PyResult<usize> {
        let label = crate::errors::lossy_str(label, "a cell label")?;
        self.inner
            .index(&label.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                illegal(
                    py,
                    hexcore_core::Reason::UnknownCell,
                    format!("{label:?} is not a cell of this board"),
                )
            })
    }

    fn axial(&self, i: Int) -> PyResult<(i32, i32)> {
        Ok(self.inner.axial(self.cell(i)?))
    }

    /// Cube coordinates (x, y, z) with x + y + z = 0.
    fn cube(&self, i: Int) -> PyResult<(i32, i32, i32)> {
        let (q, r) = self.inner.axial(self.cell(i)?);
        Ok((q, -q - r, r))
    }

    /// The cell at axial (q, r), or None.
    fn at_axial(&self, q: Int, r: Int) -> Option<usize> {
        let (q, r) = (
            q.value.clamp(-1 << 20, 1 << 20) as i32,
            r.value.clamp(-1 << 20, 1 << 20) as i32,
        );
        self.inner.at_axial(q, r)
    }

    fn neighbors(&self, i: Int) -> PyResult<Vec<u16>> {
        Ok(self.inner.neighbors(self.cell(i)?).to_vec())
    }

    /// (num_cells, 6) int32 neighbour table, padded with -1.
    fn neighbor_table<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i32>> {
        let n = self.inner.num_cells();
        let v: Vec<i32> = self
            .inner
            .neighbor_table()
            .iter()
            .map(|&c| if c == NO_CELL { -1 } else { c as i32 })
            .collect();
        numpy::PyArray1::from_vec(py, v)
            .reshape([n, 6])
            .expect("reshape")
    }

    fn is_ring(&self, i: Int) -> PyResult<bool> {
        Ok(self.inner.is_ring(self.cell(i)?))
    }

    /// Edge cells, clockwise from the top-left corner.
    #[getter]
    fn ring(&self) -> Vec<u16> {
        self.inner.ring().to_vec()
    }

    /// The six sides, clockwise from the top edge, corner to corner.
    #[getter]
    fn sides(&self) -> Vec<Vec<u16>> {
        self.inner.sides().to_vec()
    }

    #[getter]
    fn corners(&self) -> Vec<u16> {
        self.inner.corners().to_vec()
    }

    /// (first cell, width) of each row, bottom row ("a") first.
    #[getter]
    fn rows(&self) -> Vec<(u16, u16)> {
        self.inner.rows().to_vec()
    }

    /// (height, width) of the axial grid used by observations.
    #[getter]
    fn grid_shape(&self) -> (usize, usize) {
        self.inner.grid_shape()
    }

    /// (row, column) of a cell in the observation grid.
    fn grid_pos(&self, i: Int) -> PyResult<(usize, usize)> {
        Ok(self.inner.grid_pos(self.cell(i)?))
    }

    /// Text picture of the empty board (or of `marks`, one character per cell).
    #[pyo3(signature = (marks=None))]
    fn diagram(&self, marks: Option<&str>) -> PyResult<String> {
        let chars: Vec<char> = match marks {
            Some(m) => m.chars().collect(),
            None => vec!['.'; self.inner.num_cells()],
        };
        if chars.len() != self.inner.num_cells() {
            return Err(value_error(format!(
                "marks: expected {} characters, got {}",
                self.inner.num_cells(),
                chars.len()
            )));
        }
        Ok(self.inner.diagram(|c| chars[c]))
    }

    /// Same shape and same cell labels.
    fn __eq__(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.inner.side_lengths() == other.inner.side_lengths()
                && self.inner.labels() == other.inner.labels())
    }

    fn __hash__(&self) -> u64 {
        self.inner.side_lengths().iter().fold(0u64, |h, &s| {
            h.wrapping_mul(1_000_003).wrapping_add(s as u64)
        })
    }

    fn __repr__(&self) -> String {
        let s = self.inner.side_lengths();
        if let Some((rows, cols)) = self.inner.rhombus_dims() {
            format!("<Board: {rows} x {cols} rhombus>")
        } else if let Some(size) = self.inner.triangle_size() {
            format!("<Board: triangle of side {size}>")
        } else if self.inner.is_hexhex() {
            format!("Board(size={})", s[0])
        } else {
            format!(
                "Board(sides=({}, {}, {}, {}, {}, {}))",
                s[0], s[1], s[2], s[3], s[4], s[5]
            )
        }
    }

    fn __str__(&self) -> String {
        self.inner.diagram(|_| '.')
    }
}
