//! Constructor options from Python: each argument becomes a spec
//! [`Value`] and the core reads them against the game's option table
//! (kinds, defaults and checks live there, once: `hexcore_core::spec`).
//! `None` or a missing argument takes the default; any other bad value
//! raises ValueError naming the argument. Spec strings are parsed and
//! printed by the core too; this file only converts.

use std::sync::Arc;

use hexcore_core::spec::{self, Options, Reader, Value, BOARD_OPTIONS};
use hexcore_core::{limits, Board, Game};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};

use crate::errors::{options_error, value_error};

pub type Arg<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

fn repr(v: &Bound<'_, PyAny>) -> String {
    v.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A Python value as a spec value: a numpy bool is a bool, ints beyond 64
/// bits are kept as their digits (out of every range; messages show the
/// number given), sequences become tuples, anything else is kept as its
/// `repr` for the message.
pub fn value(v: &Bound<'_, PyAny>) -> Value {
    if v.is_none() {
        return Value::None;
    }
    if v.is_instance_of::<PyBool>() || is_numpy_bool(v) {
        return Value::Bool(v.is_truthy().unwrap_or(false));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Value::Str(s.to_string_lossy().into_owned());
    }
    match v.extract::<i64>() {
        Ok(x) => return Value::Int(x),
        Err(e) if e.is_instance_of::<PyOverflowError>(v.py()) => {
            return Value::BigInt(v.str().map(|s| s.to_string()).unwrap_or_default())
        }
        Err(_) => {}
    }
    if let Ok(items) = v.try_iter() {
        if let Ok(items) = items
            .map(|x| x.map(|x| value(&x)))
            .collect::<PyResult<Vec<Value>>>()
        {
            return Value::Tuple(items);
        }
    }
    Value::Other(repr(v))
}

/// A numpy bool (`np.True_`), read as a bool like numpy's integers are read
/// as ints.
fn is_numpy_bool(v: &Bound<'_, PyAny>) -> bool {
    let t = v.get_type();
    let module = t.module().map(|m| m.to_string()).unwrap_or_default();
    let name = t.name().map(|n| n.to_string()).unwrap_or_default();
    module == "numpy" && (name == "bool" || name == "bool_")
}

/// A spec value as Python's.
pub fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::None => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::BigInt(digits) => py
            .get_type::<pyo3::types::PyInt>()
            .call1((digits.as_str(),))?,
        Value::Str(s) | Value::Other(s) => PyString::new(py, s).into_any(),
        Value::Tuple(items) => PyTuple::new(
            py,
            items
                .iter()
                .map(|x| to_python(py, x))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
    })
}

/// The options given (not None) among `args`, in order.
pub fn options(args: &[(&str, Arg<'_, '_>)]) -> Options {
    let mut o = Options::new();
    for (k, v) in args {
        if let Some(v) = v.filter(|v| !v.is_none()) {
            o.insert(k, value(v)).expect("argument names are distinct");
        }
    }
    o
}

/// The options of a keyword dict.
pub fn options_of_dict(d: &Bound<'_, PyDict>) -> PyResult<Options> {
    let mut o = Options::new();
    for (k, v) in d.iter() {
        let k: String = k
            .extract()
            .map_err(|_| value_error("option names must be strings"))?;
        if !v.is_none() {
            o.insert(&k, value(&v)).map_err(options_error)?;
        }
    }
    Ok(o)
}

/// A game of type `G` from its constructor arguments.
pub fn build<G: Game>(args: &[(&str, Arg<'_, '_>)]) -> PyResult<G> {
    spec::build::<G>(&options(args)).map_err(options_error)
}

/// An int (not a bool) argument, if given.
pub fn int_arg(name: &'static str, v: Arg<'_, '_>) -> PyResult<Option<i64>> {
    v.filter(|v| !v.is_none())
        .map(|v| spec::int_of(name, &value(v)).map_err(options_error))
        .transpose()
}

/// The threads a call uses (`None`: the default), checked by the core.
pub fn threads(threads: Option<crate::errors::Int>) -> PyResult<usize> {
    hexcore_core::limits::threads(threads).map_err(options_error)
}

/// An int argument as given (any width), for the core's checks: a
/// TypeError naming the argument for anything but an int (bools and floats
/// included).
pub fn int_of(name: &str, v: &Bound<'_, PyAny>) -> PyResult<crate::errors::Int> {
    let not_int = v.is_instance_of::<PyBool>()
        || v.extract::<pyo3::Bound<'_, pyo3::types::PyInt>>().is_err()
            && v.call_method0("__index__").is_err();
    if not_int {
        let t = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} must be an int, got {t}"
        )));
    }
    v.extract()
}

/// A seed, as every call that takes one reads it: any int of
/// `0..=2**64-1` (a TypeError for another type, the core's ValueError,
/// `limits::seed`, otherwise). Python passes seeds through unchecked.
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let i = int_of("seed", &obj)?;
        limits::seed(i).map(Seed).map_err(options_error)
    }
}

/// Declares an int argument type read as given (`int_of`) and checked by
/// the core's check for it, so that the binding where the value enters
/// Rust holds the one check.
macro_rules! checked_int {
    ($(#[$doc:meta])* $ty:ident($inner:ty) = $name:literal, $check:path) => {
        $(#[$doc])*
        pub struct $ty(pub $inner);

        impl<'a, 'py> FromPyObject<'a, 'py> for $ty {
            type Error = PyErr;

            fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
                let i = int_of($name, &obj)?;
                $check(i).map($ty).map_err(options_error)
            }
        }
    };
}

checked_int!(
    /// UCT's `simulations` (`limits::search_simulations`).
    Simulations(u64) = "simulations", limits::search_simulations
);
checked_int!(
    /// UCT's `max_rollout_plies` (`limits::rollout_plies`).
    RolloutPlies(u64) = "max_rollout_plies", limits::rollout_plies
);
checked_int!(
    /// UCT's `max_nodes` (`limits::tree_nodes`).
    TreeNodes(usize) = "max_nodes", limits::tree_nodes
);

/// An argument checked by the core's check of that name
/// (`limits::check`); for `hexcore._core.check_arg`.
pub fn check_arg(name: &str, v: &Bound<'_, PyAny>) -> PyResult<u64> {
    let i = int_of(name, v)?;
    limits::check(name, i)
        .ok_or_else(|| value_error(format!("no check for an argument named {name:?}")))?
        .map_err(options_error)
}

/// A board from `size`, `sides` or `board` (at most one of them).
pub fn board(size: Arg<'_, '_>, sides: Arg<'_, '_>, name: Arg<'_, '_>) -> PyResult<Arc<Board>> {
    let o = options(&[("size", size), ("sides", sides), ("board", name)]);
    let r = Reader::with_table("Board", BOARD_OPTIONS, &o).map_err(options_error)?;
    spec::read_board(&r).map(Arc::new).map_err(options_error)
}
