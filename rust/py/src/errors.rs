//! Raising the package's Python exceptions (defined in `hexcore/errors.py`).

use hexcore_core::MoveError;
use hexcore_core::{ErrorKind, OptionsError, Reason};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyAnyMethods;

/// Build an exception of class `name` from `hexcore.errors`.
pub fn error(py: Python<'_>, name: &str, message: String, reason: Option<&str>) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let cls = py.import("hexcore.errors")?.getattr(name)?;
        let exc = match reason {
            Some(r) => cls.call1((message.clone(), r))?,
            None => cls.call1((message.clone(),))?,
        };
        Ok(PyErr::from_value(exc))
    })();
    made.unwrap_or_else(|_| PyValueError::new_err(message))
}

/// The exception for a rejected move, by the reason's kind:
/// `NotationError` for text that names no move of this game,
/// `GameOverError` after the end, `IllegalMoveError` otherwise.
pub fn move_error(py: Python<'_>, e: MoveError) -> PyErr {
    let class = match e.kind() {
        ErrorKind::Notation => "NotationError",
        ErrorKind::GameOver => "GameOverError",
        ErrorKind::Illegal => "IllegalMoveError",
    };
    error(py, class, e.message, Some(e.reason.code()))
}

/// A ValueError for invalid options; the message names the argument.
pub fn options_error(e: OptionsError) -> PyErr {
    if e.message.starts_with(e.argument) {
        value_error(e.message)
    } else {
        value_error(format!("{}: {}", e.argument, e.message))
    }
}

/// An IllegalMoveError with reason `mid_turn` for whole-move calls made
/// while a turn is in progress.
pub fn mid_turn_error(py: Python<'_>, what: &str) -> PyErr {
    error(py, "IllegalMoveError", format!("a turn is in progress; {what}"), Some(Reason::MidTurn.code()))
}

pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// An action id from any Python integer (including numpy integers).
pub fn action_id(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err("action ids are integers, not bool"));
    }
    match obj.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => {
            Err(error(py, "IllegalMoveError", format!("action {obj} is out of range"), Some(Reason::ActionOutOfRange.code())))
        }
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "action ids are integers, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
        ))),
    }
}

pub fn parse_unit(unit: &str) -> PyResult<hexcore_core::Unit> {
    match unit {
        "move" => Ok(hexcore_core::Unit::Move),
        "action" => Ok(hexcore_core::Unit::Action),
        _ => Err(value_error(format!("unit must be 'move' or 'action', got {unit:?}"))),
    }
}

/// An integer argument that never raises OverflowError: values beyond 64 bits
/// saturate, so the range checks that follow reject them with a ValueError
/// that names the argument. Booleans and non-integers are TypeErrors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Int(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Err(pyo3::exceptions::PyTypeError::new_err("expected an int, got bool"));
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int(v)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
                let negative = obj.lt(0i64).unwrap_or(false);
                Ok(Int(if negative { i64::MIN } else { i64::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

/// Text of a move argument: a str (lone surrogates become unknown text, not
/// a UnicodeEncodeError).
pub fn move_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let s = obj.cast::<pyo3::types::PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "a move is a str, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
        ))
    })?;
    Ok(s.to_string_lossy().into_owned())
}

/// Cell values of a set-up position as i8 (anything else is a ValueError).
pub fn small_cells(cells: &[Int]) -> PyResult<Vec<i8>> {
    cells.iter().map(|c| i8::try_from(c.0).map_err(|_| value_error(format!("cell value {} is out of range", c.0)))).collect()
}

/// A str argument as Rust text; lone surrogates become U+FFFD (so they read
/// as unknown text rather than raising UnicodeEncodeError).
pub fn lossy_str(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<pyo3::types::PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be a str, got {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
        ))
    })?;
    Ok(s.to_string_lossy().into_owned())
}
