//! Pickling games: a game's `__reduce__` names `_restore`, defined here,
//! which rebuilds the game from its spec, its set-up position (if it was set
//! up with `from_position`) and the actions played since. Pickles made
//! before the function moved into the extension name
//! `hexcore._pickle.restore`, which is this same function.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList};

use crate::errors::value_error;
use crate::game::{PyGame, RESTORE};

/// Add `_restore` to the module, and hand it to the games' `__reduce__`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let f = wrap_pyfunction!(_restore, m)?;
    m.add_function(f.clone())?;
    let _ = RESTORE.set(m.py(), f.into_any().unbind());
    Ok(())
}

/// A cell value or set-up keyword value: an int in -128..=127 (not a bool).
fn small_int<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let ok = !v.is_instance_of::<PyBool>()
        && v.is_instance_of::<PyInt>()
        && v.extract::<i64>().is_ok_and(|x| (-128..=127).contains(&x));
    if ok {
        Ok(v.clone())
    } else {
        Err(value_error(format!(
            "cell value {} is not a small int",
            v.repr()?
        )))
    }
}

/// `(cells, to_move)` or `(cells, to_move, extra)` with `extra` the further
/// `from_position` keywords as a mapping or (name, value) pairs: the cells
/// as a list of small ints, `to_move` as given, and `extra` as a dict.
#[allow(clippy::type_complexity)]
fn read_setup<'py>(
    setup: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>, Bound<'py, PyDict>)> {
    let py = setup.py();
    let fields = setup.try_iter()?.collect::<PyResult<Vec<_>>>()?;
    if fields.len() < 2 {
        return Err(value_error(format!(
            "expected cells and to_move, got {} fields",
            fields.len()
        )));
    }
    if fields.len() > 3 {
        return Err(value_error("too many fields"));
    }
    let extra = PyDict::new(py);
    if let Some(given) = fields.get(2) {
        let given = py
            .get_type::<PyDict>()
            .call1((given,))?
            .cast_into::<PyDict>()?;
        for (k, v) in given.iter() {
            extra.set_item(k.str()?, small_int(&v)?)?;
        }
    }
    let cells = fields[0]
        .try_iter()?
        .map(|v| small_int(&v?))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((PyList::new(py, cells)?, fields[1].clone(), extra))
}

/// Rebuild a pickled game: `name` is its class name, `spec` its spec
/// string, `setup` None or `(cells, to_move)` / `(cells, to_move, extra)`
/// (see `from_position`), `actions` the action ids played since.
#[pyfunction]
pub fn _restore<'py>(
    name: &Bound<'py, PyAny>,
    spec: &Bound<'py, PyAny>,
    setup: &Bound<'py, PyAny>,
    actions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = name.py();
    let (game_name, options) = crate::spec::_parse_spec(spec)?;
    let cls = match crate::class_named(py, &game_name) {
        Some(cls) if cls.getattr("__name__")?.eq(name)? => cls,
        _ => {
            return Err(value_error(format!(
                "pickled game {} does not match its spec {}",
                name.repr()?,
                spec.repr()?
            )))
        }
    };
    let g = if setup.is_none() {
        cls.call((), Some(&options))?
    } else {
        let (cells, to_move, extra) = read_setup(setup).map_err(|e| {
            if e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<PyValueError>(py) {
                value_error(format!("malformed pickled position: {}", e.value(py)))
            } else {
                e
            }
        })?;
        for (k, v) in extra.iter() {
            if options.contains(&k)? {
                return Err(PyTypeError::new_err(format!(
                    "_from_cells() got multiple values for keyword argument {}",
                    k.repr()?
                )));
            }
            options.set_item(k, v)?;
        }
        cls.getattr("_from_cells")?
            .call((cells, to_move), Some(&options))?
    };
    let game = g.cast::<PyGame>()?;
    for a in actions.try_iter()? {
        let a = a?;
        if a.is_instance_of::<PyBool>() || !a.is_instance_of::<PyInt>() {
            return Err(value_error(format!(
                "malformed pickled action {}",
                a.repr()?
            )));
        }
        PyGame::apply_action(game, &a)?;
    }
    Ok(g)
}
