//! Spec strings in Python: `hexcore._core._parse_spec`, `_load` and
//! `_game_options`, over the core's one parser and option tables
//! (`hexcore_core::spec`); and `_game_facts`, each game's facts table
//! (`hexcore_core::facts`).

use hexcore_core::spec::{self, Options, Spec};
use hexcore_core::OptionsError;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::errors::{options_error, value_error};
use crate::game::{wrap, GameClass, PyGame};
use crate::options::{options_of_dict, to_python};
use crate::session::Session;

/// A spec error as a ValueError: the parser's messages stand alone, an
/// option's names the option.
pub fn spec_error(e: OptionsError) -> PyErr {
    if e.argument == "spec" {
        value_error(e.message)
    } else {
        options_error(e)
    }
}

fn text<'a>(spec: &'a Bound<'_, PyAny>) -> PyResult<std::borrow::Cow<'a, str>> {
    spec.cast::<PyString>()
        .map(|s| s.to_string_lossy())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "spec must be a string, got {}",
                spec.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })
}

/// `(name, {option: value})` of a spec string, each value read by the kind
/// of the game's option of that name.
#[pyfunction]
pub fn _parse_spec<'py>(spec: &Bound<'py, PyAny>) -> PyResult<(String, Bound<'py, PyDict>)> {
    let py = spec.py();
    let Spec { name, options } = hexcore_core::catalog::parse(&text(spec)?).map_err(spec_error)?;
    let d = PyDict::new(py);
    for (k, v) in options.iter() {
        d.set_item(k, to_python(py, v)?)?;
    }
    Ok((name, d))
}

/// A new game of type `G` from options, as its Python class.
pub fn new_game<G: GameClass>(py: Python<'_>, options: &Options) -> PyResult<Py<PyAny>>
where
    G::Undo: Clone,
{
    let g: G = spec::build(options).map_err(spec_error)?;
    wrap(py, PyGame::new(G::into_any(Session::new(g, None))))
}

/// The game a spec string describes.
#[pyfunction]
pub fn _load(spec: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let s = hexcore_core::catalog::parse(&text(spec)?).map_err(spec_error)?;
    crate::new_game_named(spec.py(), &s.name, &s.options)?
        .ok_or_else(|| spec_error(hexcore_core::catalog::unknown_game(&s.name)))
}

/// The options of the game `name`: `[(option, kind, default)]` in the
/// constructor's order, each default (None: no default) given the options in
/// `given` (Wunchunk's size depends on the players).
#[pyfunction]
#[pyo3(signature = (name, given=None))]
pub fn _game_options<'py>(
    py: Python<'py>,
    name: &str,
    given: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<(&'static str, &'static str, Bound<'py, PyAny>)>> {
    let options = given.map(options_of_dict).transpose()?.unwrap_or_default();
    let table = crate::defaults_named(name, &options)
        .ok_or_else(|| spec_error(hexcore_core::catalog::unknown_game(name)))?;
    table
        .into_iter()
        .map(|(k, kind, d)| {
            Ok((
                k,
                kind.name(),
                d.map(|d| to_python(py, &d))
                    .transpose()?
                    .unwrap_or_else(|| py.None().into_bound(py)),
            ))
        })
        .collect()
}

/// The facts of the game `name` (`hexcore_core::facts::GameFacts`, declared
/// once beside its option table): a dict of `player_names` (a tuple, seat 1
/// first), `pie_rule` (`(option, value when on, value when off)` or None),
/// `bounded` (whether `game.max_actions` has a bound), `stone_planes` and
/// `augment` (`"all"`, `"turn_start"` or `"none"`).
#[pyfunction]
pub fn _game_facts<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let f = hexcore_core::catalog::facts(name)
        .ok_or_else(|| spec_error(hexcore_core::catalog::unknown_game(name)))?;
    let d = PyDict::new(py);
    d.set_item("player_names", PyTuple::new(py, f.player_names)?)?;
    let pie = match f.pie_rule {
        Some(p) => (
            p.option,
            to_python(py, &p.on.value())?,
            to_python(py, &p.off.value())?,
        )
            .into_pyobject(py)?
            .into_any(),
        None => py.None().into_bound(py),
    };
    d.set_item("pie_rule", pie)?;
    d.set_item("bounded", f.max_actions.is_some())?;
    d.set_item("stone_planes", f.stone_planes)?;
    d.set_item("augment", f.augment.name())?;
    Ok(d)
}
