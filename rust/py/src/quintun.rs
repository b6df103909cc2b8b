//! `hexcore.Quintun`.

use std::sync::Arc;

use hexcore_core::{Quintun, QuintunBoard, QuintunPlacement as Placement, QUINTUN_MAX_SIZE as MAX_SIZE, QUINTUN_MIN_SIZE as MIN_SIZE};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use crate::errors::value_error;
use crate::game_class;

game_class!(PyQuintun, Quintun, "Quintun");

/// Check the constructor options the way the reference does: ValueError
/// naming the argument.
fn options(size: &Bound<'_, PyAny>, placement: &Bound<'_, PyAny>, swap: &Bound<'_, PyAny>) -> PyResult<(usize, Placement, bool)> {
    let bad_size = || value_error(format!("size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size}"));
    if size.is_instance_of::<PyBool>() {
        return Err(bad_size());
    }
    let n: i64 = size.extract().map_err(|_| bad_size())?;
    if !(MIN_SIZE as i64..=MAX_SIZE as i64).contains(&n) {
        return Err(bad_size());
    }
    let bad_placement = || value_error(format!("placement must be 'side' or 'gap', got {placement}"));
    if !placement.is_instance_of::<PyString>() {
        return Err(bad_placement());
    }
    let p: String = placement.extract()?;
    let p = Placement::parse(&p).ok_or_else(bad_placement)?;
    if !swap.is_instance_of::<PyBool>() {
        return Err(value_error(format!("swap must be True or False, got {swap}")));
    }
    Ok((n as usize, p, swap.extract()?))
}

fn geometry(n: usize) -> PyResult<Arc<QuintunBoard>> {
    Ok(Arc::new(QuintunBoard::new(n).map_err(value_error)?))
}

#[pymethods]
impl PyQuintun {
    /// `Quintun(size=7, placement="side", swap=True)`: side 4..10; placement
    /// `"side"` (a NEW neutral goes on a side without stones when there is
    /// one) or `"gap"` (five empty ring cells to the nearest neutral both
    /// ways, when possible); `swap` is the pie rule.
    #[new]
    #[pyo3(signature = (size=None, placement=None, swap=None))]
    fn new(py: Python<'_>, size: Option<Bound<'_, PyAny>>, placement: Option<Bound<'_, PyAny>>, swap: Option<Bound<'_, PyAny>>) -> PyResult<Self> {
        let size = size.unwrap_or_else(|| 7i64.into_pyobject(py).expect("int").into_any());
        let placement = placement.unwrap_or_else(|| PyString::new(py, "side").into_any());
        let swap = swap.unwrap_or_else(|| PyBool::new(py, true).to_owned().into_any());
        let (n, p, s) = options(&size, &placement, &swap)?;
        Ok(PyQuintun::wrap(Quintun::with_geometry(geometry(n)?, p, s), None))
    }

    /// A position from cell values in cell order (0 empty, 1 Black, 2 White,
    /// -1..-5 neutral A..E); no swap is offered.
    #[staticmethod]
    #[pyo3(signature = (cells, to_move, size=None, placement=None, swap=None))]
    fn _from_cells(
        py: Python<'_>,
        cells: Vec<crate::errors::Int>,
        to_move: crate::errors::Int,
        size: Option<Bound<'_, PyAny>>,
        placement: Option<Bound<'_, PyAny>>,
        swap: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let size = size.unwrap_or_else(|| 7i64.into_pyobject(py).expect("int").into_any());
        let placement = placement.unwrap_or_else(|| PyString::new(py, "side").into_any());
        let swap = swap.unwrap_or_else(|| PyBool::new(py, true).to_owned().into_any());
        let (n, p, s) = options(&size, &placement, &swap)?;
        let to_move = to_move.0;
        let cells = crate::errors::small_cells(&cells)?;
        if !(1..=2).contains(&to_move) {
            return Err(value_error(format!("to_move must be 1 or 2, got {to_move}")));
        }
        let g = Quintun::from_cells(geometry(n)?, p, s, &cells, to_move as u8).map_err(|e| value_error(format!("position: {e}")))?;
        Ok(PyQuintun::wrap(g, Some((cells, to_move as usize, Vec::new()))))
    }

    #[getter]
    fn size(&self) -> usize {
        self.s.g.size()
    }

    #[getter]
    fn placement(&self) -> &'static str {
        self.s.g.placement().name()
    }

    #[getter]
    fn swap(&self) -> bool {
        self.s.g.swap_rule()
    }

    /// Whether (Black, White) meet a win condition now.
    fn qualified(&self) -> (bool, bool) {
        self.s.g.qualified()
    }

    /// Per player (Black, White): the most neutral colours one of its groups
    /// touches (a group with four, or two groups with three, win).
    fn scores(&self) -> (u32, u32) {
        self.s.g.best_colours()
    }

    /// Legal moves by kind: `{"stone": .., "new": .., "extend": .., "swap": ..}`.
    fn count_by_kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (a, b, c, d) = self.s.g.count_by_kind();
        let out = PyDict::new(py);
        out.set_item("stone", a)?;
        out.set_item("new", b)?;
        out.set_item("extend", c)?;
        out.set_item("swap", d)?;
        Ok(out)
    }
}
