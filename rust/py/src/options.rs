//! Reading constructor options (of every game, in its file under `games/`,
//! and of `Board`) one way: `None` or a missing argument takes the default;
//! any other bad value raises ValueError naming the argument.

use std::sync::Arc;

use hexcore_core::Board;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::errors::value_error;

pub type Arg<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

pub fn given<'a, 'py>(v: Arg<'a, 'py>) -> Option<&'a Bound<'py, PyAny>> {
    v.filter(|v| !v.is_none())
}

pub fn show(v: &Bound<'_, PyAny>) -> String {
    v.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".into())
}

/// An int (not a bool); a value beyond 64 bits is out of every range, and
/// the error shows the number given.
pub fn int_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<i64> {
    let bad = || value_error(format!("{name} must be an int, got {}", show(v)));
    if v.is_instance_of::<PyBool>() {
        return Err(bad());
    }
    match v.extract::<i64>() {
        Ok(x) => Ok(x),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
            Err(value_error(format!("{name} is out of range, got {}", show(v))))
        }
        Err(_) => Err(bad()),
    }
}

/// A numpy bool (`np.True_`), read as a bool like numpy's integers are read
/// as ints.
fn is_numpy_bool(v: &Bound<'_, PyAny>) -> bool {
    let t = v.get_type();
    let module = t.module().map(|m| m.to_string()).unwrap_or_default();
    let name = t.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool" || name == "bool_")
}

pub fn int_arg(name: &str, v: Arg<'_, '_>) -> PyResult<Option<i64>> {
    given(v).map(|v| int_value(name, v)).transpose()
}

pub fn str_arg(name: &str, v: Arg<'_, '_>) -> PyResult<Option<String>> {
    given(v)
        .map(|v| {
            v.cast::<PyString>().map(|s| s.to_string_lossy().into_owned()).map_err(|_| value_error(format!("{name} must be a str, got {}", show(v))))
        })
        .transpose()
}

/// Exactly True or False, or a numpy bool (not 0/1).
pub fn bool_arg(name: &str, v: Arg<'_, '_>, default: bool) -> PyResult<bool> {
    match given(v) {
        None => Ok(default),
        Some(v) if v.is_instance_of::<PyBool>() || is_numpy_bool(v) => Ok(v.is_truthy()?),
        Some(v) => Err(value_error(format!("{name} must be True or False, got {}", show(v)))),
    }
}

fn sides_arg(v: Arg<'_, '_>) -> PyResult<Option<Vec<i64>>> {
    let Some(v) = given(v) else { return Ok(None) };
    let bad = || value_error(format!("sides must be a sequence of six ints, got {}", show(v)));
    if v.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let mut out = Vec::new();
    for x in v.try_iter().map_err(|_| bad())? {
        out.push(int_value("sides", &x?)?);
    }
    Ok(Some(out))
}

/// A board from `size`, `sides` or `board` (at most one of them).
pub fn board(size: Arg<'_, '_>, sides: Arg<'_, '_>, name: Arg<'_, '_>, default: usize) -> PyResult<Arc<Board>> {
    let size = int_arg("size", size)?;
    let sides = sides_arg(sides)?;
    let name = str_arg("board", name)?;
    let given = size.is_some() as u8 + sides.is_some() as u8 + name.is_some() as u8;
    if given > 1 {
        return Err(value_error("give only one of size, sides and board"));
    }
    let b = if let Some(name) = name {
        Board::named(&name).map_err(|e| value_error(format!("board: {e}")))?
    } else if let Some(s) = sides {
        if s.len() != 6 {
            return Err(value_error(format!("sides: expected six side lengths, got {}", s.len())));
        }
        if s.iter().any(|&x| x < 0) {
            return Err(value_error(format!("sides: lengths must be positive, got {s:?}")));
        }
        let arr = [s[0] as usize, s[1] as usize, s[2] as usize, s[3] as usize, s[4] as usize, s[5] as usize];
        Board::from_sides(arr).map_err(|e| value_error(e.to_string()))?
    } else {
        let n = size.unwrap_or(default as i64);
        if !(2..=64).contains(&n) {
            return Err(value_error(format!("size must be between 2 and 64, got {n}")));
        }
        Board::hexhex(n as usize).map_err(|e| value_error(e.to_string()))?
    };
    Ok(Arc::new(b))
}
