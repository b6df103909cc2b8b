//! The one error path from the core to Python.
//!
//! The package's exception classes are defined here, once, when the module
//! is imported (`hexcore.errors` re-exports them):
//!
//! ```text
//! HexcoreError(Exception)
//! ├── IllegalMoveError(HexcoreError, ValueError)   .reason (default "illegal_action")
//! │   ├── NotationError
//! │   └── GameOverError
//! └── TooManyMovesError                            .reason (default "too_many_moves")
//! ```
//!
//! Raising one runs no Python code: the classes are held by the extension
//! (no lookup by name), and their `__init__` is Rust. So a Ctrl-C that
//! arrives while an exception is built stays pending and is raised as
//! `KeyboardInterrupt` by the caller's next bytecode; nothing can replace it
//! by another exception. Every core error type becomes a Python exception
//! through [`IntoPyErr`], in this file.

use hexcore_core::search::SearchError;
use hexcore_core::solve::SolveError;
use hexcore_core::vector::{BatchError, StepError};
use std::sync::Arc;

use hexcore_core::limits::IntArg;
use hexcore_core::{ErrorKind, MoveError, OptionsError, Reason, RunError};
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyAnyMethods, PyCFunction, PyDict, PyString, PyTuple, PyType};

/// The package's exception classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Hexcore,
    IllegalMove,
    Notation,
    GameOver,
    TooManyMoves,
}

impl Class {
    const ALL: [Class; 5] = [
        Class::Hexcore,
        Class::IllegalMove,
        Class::Notation,
        Class::GameOver,
        Class::TooManyMoves,
    ];

    fn name(self) -> &'static str {
        match self {
            Class::Hexcore => "HexcoreError",
            Class::IllegalMove => "IllegalMoveError",
            Class::Notation => "NotationError",
            Class::GameOver => "GameOverError",
            Class::TooManyMoves => "TooManyMovesError",
        }
    }

    fn doc(self) -> &'static str {
        match self {
            Class::Hexcore => "Base class of hexcore's own errors.",
            Class::IllegalMove => {
                "A move or action that the rules do not allow here.\n\n\
                 ``reason`` is a short machine-readable code (``\"occupied\"``,\n\
                 ``\"isolation\"``, ``\"balance\"``, ...; every code is listed by\n\
                 ``hexcore._core.Reason``); the message says it in words. A failed\n\
                 ``play`` or ``apply_action`` leaves the game unchanged."
            }
            Class::Notation => {
                "Text that does not name a move of this game (bad syntax, unknown cell)."
            }
            Class::GameOver => "A move or action after the game has ended.",
            Class::TooManyMoves => {
                "``legal_moves()`` would be too long to list; use ``count_moves()``."
            }
        }
    }

    /// The `reason` when none is given (`None`: the class has no `reason`).
    fn default_reason(self) -> Option<&'static str> {
        match self {
            Class::Hexcore => None,
            Class::IllegalMove | Class::Notation | Class::GameOver => {
                Some(Reason::IllegalAction.code())
            }
            Class::TooManyMoves => Some("too_many_moves"),
        }
    }

    /// The class for a rejected move, by the kind of its reason.
    pub fn of(reason: Reason) -> Class {
        match reason.kind() {
            ErrorKind::Notation => Class::Notation,
            ErrorKind::GameOver => Class::GameOver,
            ErrorKind::Illegal => Class::IllegalMove,
        }
    }
}

static CLASSES: PyOnceLock<[Py<PyType>; 5]> = PyOnceLock::new();

/// Make the classes (once per interpreter).
fn make_classes(py: Python<'_>) -> PyResult<[Py<PyType>; 5]> {
    let mut made: Vec<Py<PyType>> = Vec::with_capacity(Class::ALL.len());
    for class in Class::ALL {
        let bases = match class {
            Class::Hexcore => PyTuple::new(py, [py.get_type::<pyo3::exceptions::PyException>()])?,
            Class::IllegalMove => PyTuple::new(
                py,
                [made[0].bind(py).clone(), py.get_type::<PyValueError>()],
            )?,
            Class::Notation | Class::GameOver => PyTuple::new(py, [made[1].bind(py).clone()])?,
            Class::TooManyMoves => PyTuple::new(py, [made[0].bind(py).clone()])?,
        };
        let dict = PyDict::new(py);
        // The public home of the classes, where pickle finds them.
        dict.set_item("__module__", "hexcore.errors")?;
        dict.set_item("__doc__", class.doc())?;
        if let Some(default) = class.default_reason() {
            if matches!(class, Class::IllegalMove | Class::TooManyMoves) {
                dict.set_item("__init__", Bound::new(py, ErrorInit { default })?)?;
            }
        }
        let cls = py
            .get_type::<PyType>()
            .call1((class.name(), bases, dict))?
            .cast_into::<PyType>()?;
        made.push(cls.unbind());
    }
    made.try_into().map_err(|_| {
        PyRuntimeError::new_err("internal error: the exception classes were not all made")
    })
}

/// The class object of `class`.
pub fn class(py: Python<'_>, class: Class) -> PyResult<Bound<'_, PyType>> {
    let all = CLASSES.get_or_try_init(py, || make_classes(py))?;
    Ok(all[class as usize].bind(py).clone())
}

/// Add the classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for c in Class::ALL {
        m.add(c.name(), class(m.py(), c)?)?;
    }
    Ok(())
}

/// `__init__(self, message, reason=None)` of the classes with a `reason`:
/// `args` is `(message,)` (so `str(e)` is the message) and `reason` the code
/// given, or the class's default when it is empty or None. A descriptor, so
/// that a Rust function binds like a method.
#[pyclass(frozen, module = "hexcore._core", name = "_ErrorInit")]
struct ErrorInit {
    default: &'static str,
}

#[pymethods]
impl ErrorInit {
    fn __get__(
        slf: &Bound<'_, Self>,
        obj: Option<Bound<'_, PyAny>>,
        _owner: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let Some(obj) = obj else {
            return Ok(slf.clone().into_any().unbind());
        };
        let (obj, default) = (obj.unbind(), slf.get().default);
        let f = PyCFunction::new_closure(
            slf.py(),
            Some(c"__init__"),
            None,
            move |args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>| {
                init(obj.bind(args.py()), default, args, kwargs).map(|()| args.py().None())
            },
        )?;
        Ok(f.into_any().unbind())
    }

    /// `Class.__init__(obj, message, reason=None)`, called on the class.
    #[pyo3(signature = (obj, *args, **kwargs))]
    fn __call__(
        &self,
        obj: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        init(obj, self.default, args, kwargs)
    }
}

fn init(
    obj: &Bound<'_, PyAny>,
    default: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    let py = obj.py();
    let too_many = || {
        PyTypeError::new_err(format!(
            "takes a message and an optional reason, got {} arguments",
            args.len()
        ))
    };
    let mut slots: [Option<Bound<'_, PyAny>>; 2] = [None, None];
    if args.len() > 2 {
        return Err(too_many());
    }
    for (i, a) in args.iter().enumerate() {
        slots[i] = Some(a);
    }
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let i = match k
                .cast::<PyString>()
                .ok()
                .map(|s| s.to_string_lossy().into_owned())
                .as_deref()
            {
                Some("message") => 0,
                Some("reason") => 1,
                _ => {
                    return Err(PyTypeError::new_err(format!(
                        "unexpected keyword argument {}",
                        k.repr()?
                    )))
                }
            };
            if slots[i].replace(v).is_some() {
                return Err(PyTypeError::new_err(format!(
                    "got multiple values for {}",
                    k.repr()?
                )));
            }
        }
    }
    let [message, reason] = slots;
    let message = message.ok_or_else(|| PyTypeError::new_err("missing the message"))?;
    obj.setattr("args", (message,))?;
    let reason = match reason {
        Some(r) if r.is_truthy()? => r,
        _ => PyString::new(py, default).into_any(),
    };
    obj.setattr("reason", reason)
}

/// An exception of `class` with `message` (and `reason`, for the classes
/// that have one; `None`: the class's default). If the class cannot be
/// made, that failure is the exception.
pub fn error(
    py: Python<'_>,
    class: Class,
    message: impl Into<String>,
    reason: Option<&str>,
) -> PyErr {
    let message = message.into();
    let made = self::class(py, class).and_then(|cls| match (class.default_reason(), reason) {
        (Some(_), r) => cls.call1((message, r)),
        (None, _) => cls.call1((message,)),
    });
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// An `IllegalMoveError` (or the subclass for the reason's kind).
pub fn illegal(py: Python<'_>, reason: Reason, message: impl Into<String>) -> PyErr {
    error(py, Class::of(reason), message, Some(reason.code()))
}

/// A cancelled run: the pending exception (the KeyboardInterrupt a signal
/// handler raised), or a new `KeyboardInterrupt`.
pub fn cancelled(py: Python<'_>) -> PyErr {
    PyErr::take(py).unwrap_or_else(|| PyKeyboardInterrupt::new_err("cancelled"))
}

/// The Python exception for each error type of the core.
pub trait IntoPyErr {
    fn into_pyerr(self, py: Python<'_>) -> PyErr;
}

/// The batched search's errors: the evaluator's own exception unchanged,
/// bad answers and arguments `ValueError`, a finished game `GameOverError`,
/// threads that cannot start `RuntimeError`.
impl IntoPyErr for hexcore_core::search::BatchError<PyErr> {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        use hexcore_core::search::BatchError as E;
        match self {
            E::Evaluator(e) => e,
            E::Invalid(e) => e.into_pyerr(py),
            E::Output(_) | E::Players(_) => value_error(self.to_string()),
            E::GameOver(_) => illegal(py, Reason::GameOver, self.to_string()),
            E::Threads(m) => PyRuntimeError::new_err(m),
        }
    }
}

/// A rejected move: `NotationError` for text that names no move of this
/// game, `GameOverError` after the end, `IllegalMoveError` otherwise.
impl IntoPyErr for MoveError {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        illegal(py, self.reason, self.message)
    }
}

/// Invalid options or an argument out of range: a `ValueError` whose
/// message names the argument (the conversion needs no `py`, so it is also
/// a plain function for `map_err`).
pub fn options_error(e: OptionsError) -> PyErr {
    if e.message.starts_with(e.argument) {
        value_error(e.message)
    } else {
        value_error(format!("{}: {}", e.argument, e.message))
    }
}

impl IntoPyErr for OptionsError {
    fn into_pyerr(self, _py: Python<'_>) -> PyErr {
        options_error(self)
    }
}

/// `Cancelled` is `KeyboardInterrupt`, `TooManyMoves` a `TooManyMovesError`,
/// anything else a `ValueError`.
impl IntoPyErr for RunError {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            RunError::Cancelled => cancelled(py),
            RunError::TooManyMoves { .. } => error(py, Class::TooManyMoves, self.to_string(), None),
            RunError::Invalid(e) => e.into_pyerr(py),
            RunError::TooDeep { .. } | RunError::Threads { .. } => value_error(self.to_string()),
        }
    }
}

impl IntoPyErr for SolveError {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let msg = self.to_string();
        match self {
            SolveError::GameOver => illegal(py, Reason::GameOver, msg),
            SolveError::MidTurn => illegal(py, Reason::MidTurn, msg),
            SolveError::TooManyMoves(_) => error(py, Class::TooManyMoves, msg, None),
            SolveError::Memory(_) => PyMemoryError::new_err(msg),
            SolveError::Invalid(e) => e.into_pyerr(py),
            SolveError::Players(_) | SolveError::Certificate(_) | SolveError::Stopped => {
                value_error(msg)
            }
        }
    }
}

impl IntoPyErr for SearchError {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            SearchError::GameOver => illegal(py, Reason::GameOver, self.to_string()),
            SearchError::Cancelled => cancelled(py),
            SearchError::Threads(m) => PyRuntimeError::new_err(m),
            SearchError::Invalid(e) => e.into_pyerr(py),
            SearchError::NoBudget | SearchError::Players(_) => value_error(self.to_string()),
        }
    }
}

/// A batch that cannot be built or an env that cannot be set: `MemoryError`
/// naming the envs and the bytes, `KeyboardInterrupt`, else `ValueError`
/// (starts that do not fit together, a finished or mid-turn position, ...).
impl IntoPyErr for BatchError {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            BatchError::Memory { .. } => PyMemoryError::new_err(self.to_string()),
            BatchError::Cancelled => cancelled(py),
            BatchError::NoEnvs
            | BatchError::StartIndex { .. }
            | BatchError::Misfit { .. }
            | BatchError::Position { .. }
            | BatchError::EnvIndex { .. } => value_error(self.to_string()),
        }
    }
}

/// A batch step refused: a `ValueError` for shapes and an interrupted
/// batch, else an `IllegalMoveError` with the env and the action as `.env`
/// and `.action`.
impl IntoPyErr for StepError {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            StepError::Shape { .. } | StepError::Interrupted => value_error(self.to_string()),
            StepError::Illegal { env, action, error } => {
                let err = error.into_pyerr(py);
                let v = err.value(py);
                if let Err(e) = v
                    .setattr("env", env)
                    .and_then(|_| v.setattr("action", action))
                {
                    return e;
                }
                err
            }
        }
    }
}

/// An IllegalMoveError with reason `mid_turn` for whole-move calls made
/// while a turn is in progress.
pub fn mid_turn_error(py: Python<'_>, what: &str) -> PyErr {
    illegal(
        py,
        Reason::MidTurn,
        format!("a turn is in progress; {what}"),
    )
}

pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// An action id from any Python integer (including numpy integers).
pub fn action_id(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "action ids are integers, not bool",
        ));
    }
    match obj.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => Err(illegal(
            py,
            Reason::ActionOutOfRange,
            format!("action {obj} is out of range"),
        )),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "action ids are integers, got {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        ))),
    }
}

pub fn parse_unit(unit: &str) -> PyResult<hexcore_core::Unit> {
    unit.parse()
        .map_err(|e: hexcore_core::spec::ChoiceError| options_error(e.into()))
}

/// An integer argument that never raises OverflowError: `value` is the
/// int, saturated at the bounds of i64 beyond 64 bits, so the range checks
/// that follow reject such a value with a ValueError that names the
/// argument; messages print the Int itself, which shows the value as given
/// (the core's checks take it as an [`IntArg`]). Booleans and non-integers
/// are TypeErrors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Int {
    pub value: i64,
    /// The digits of a value wider than 64 bits.
    wide: Option<Arc<str>>,
}

impl Int {
    pub const fn of(value: i64) -> Int {
        Int { value, wide: None }
    }
}

impl std::fmt::Display for Int {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.wide {
            Some(digits) => f.write_str(digits),
            None => write!(f, "{}", self.value),
        }
    }
}

impl From<Int> for IntArg {
    fn from(i: Int) -> IntArg {
        match i.wide {
            Some(digits) => IntArg::Wide(digits),
            None => IntArg::Int(i.value),
        }
    }
}

/// The int as given (to pass an argument on).
impl<'py> IntoPyObject<'py> for &Int {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.wide {
            None => Ok(self.value.into_pyobject(py)?.into_any()),
            Some(digits) => py.get_type::<pyo3::types::PyInt>().call1((&**digits,)),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "expected an int, got bool",
            ));
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int::of(v)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
                let negative = obj.lt(0i64)?;
                // `str` of an int that is not a Python int (a numpy one) is its digits too.
                let digits = obj
                    .call_method0("__index__")?
                    .str()?
                    .to_string_lossy()
                    .into_owned();
                Ok(Int {
                    value: if negative { i64::MIN } else { i64::MAX },
                    wide: Some(digits.into()),
                })
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
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        ))
    })?;
    Ok(s.to_string_lossy().into_owned())
}

/// Cell values of a set-up position as i8 (anything else is a ValueError).
pub fn small_cells(cells: &[Int]) -> PyResult<Vec<i8>> {
    cells
        .iter()
        .map(|c| {
            i8::try_from(c.value)
                .map_err(|_| value_error(format!("cell value {c} is out of range")))
        })
        .collect()
}

/// A str argument as Rust text; lone surrogates become U+FFFD (so they read
/// as unknown text rather than raising UnicodeEncodeError).
pub fn lossy_str(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj.cast::<pyo3::types::PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be a str, got {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        ))
    })?;
    Ok(s.to_string_lossy().into_owned())
}
