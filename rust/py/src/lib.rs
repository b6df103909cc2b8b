//! Python bindings of hexcore (`hexcore._core`). No game rules live here:
//! each file wraps one type of `hexcore-core`; each game's class (its
//! constructor and extras) is its file under `games/`, and everything that
//! dispatches over the games is generated from the core's list of games
//! (see `any.rs`). A game's state and history live in the core
//! (`hexcore_core::session`); the module imports nothing from the `hexcore`
//! package above it (tests/bindings/test_extension_alone.py loads it alone).

use pyo3::prelude::*;

#[macro_use]
pub mod any;
pub mod batched;
pub mod board;
pub mod errors;
pub mod game;
pub mod interrupt;
pub mod options;
pub mod outcome;
pub mod pickle;
pub mod search;
/// A game with its history lives in the core; `crate::session` names it here.
pub use hexcore_core::session;
pub mod solve;
pub mod spec;
pub mod vector;

/// The games' binding files (`games/<game>.rs`, each exporting its class
/// as `Class` and its `TEXT_VALUE`), the base class's hooks into them, and
/// adding their classes to the module.
macro_rules! game_classes {
    ([] $($module:ident: $Game:ident,)*) => {
        pub mod games {
            $(pub mod $module;)*
        }

        $(
            impl game::GameClass for hexcore_core::$Game {
                fn new_object(py: Python<'_>, init: PyClassInitializer<game::PyGame>) -> PyResult<Py<PyAny>> {
                    Ok(Py::new(py, init.add_subclass(games::$module::Class))?.into_any())
                }
                const TEXT_VALUE: Option<game::TextValue> = games::$module::TEXT_VALUE;
            }
        )*

        /// A new game of the game called `name` (None: no such game).
        fn new_game_named(py: Python<'_>, name: &str, options: &hexcore_core::spec::Options) -> PyResult<Option<Py<PyAny>>> {
            $(if name == <hexcore_core::$Game as hexcore_core::spec::Configure>::NAME {
                return spec::new_game::<hexcore_core::$Game>(py, options).map(Some);
            })*
            Ok(None)
        }

        /// The class of the game called `name` (None: no such game).
        fn class_named<'py>(py: Python<'py>, name: &str) -> Option<Bound<'py, pyo3::types::PyType>> {
            $(if name == <hexcore_core::$Game as hexcore_core::spec::Configure>::NAME {
                return Some(py.get_type::<games::$module::Class>());
            })*
            None
        }

        /// The option table of the game called `name` with each default
        /// given `options` (None: no such game).
        #[allow(clippy::type_complexity)]
        fn defaults_named(
            name: &str,
            options: &hexcore_core::spec::Options,
        ) -> Option<Vec<(&'static str, hexcore_core::spec::Kind, Option<hexcore_core::spec::Value>)>> {
            $(if name == <hexcore_core::$Game as hexcore_core::spec::Configure>::NAME {
                return Some(hexcore_core::spec::defaults::<hexcore_core::$Game>(options));
            })*
            None
        }

        fn add_game_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_class::<games::$module::Class>()?;)*
            Ok(())
        }
    };
}
hexcore_core::for_each_game!(game_classes);

/// Every `IllegalMoveError.reason` code the engine raises, in the core's order.
#[pyfunction]
fn _reason_codes() -> Vec<&'static str> {
    hexcore_core::Reason::ALL.iter().map(|r| r.code()).collect()
}

/// The threads a call uses when `threads` is None: one per available core,
/// at most `MAX_THREADS`.
#[pyfunction]
fn default_threads() -> usize {
    hexcore_core::limits::default_threads()
}

/// The thread count a call given `threads` uses: `threads` checked to be in
/// `1..=MAX_THREADS` (a ValueError saying so otherwise), or
/// `default_threads()` for None. For wrappers that check their arguments
/// before starting work; the entry points check `threads` themselves.
#[pyfunction]
#[pyo3(signature = (threads=None))]
fn check_threads(threads: Option<errors::Int>) -> PyResult<usize> {
    options::threads(threads)
}

/// `value` checked by the core's check of the argument `name` (`games`,
/// `seed`, `playouts`, `max_nodes`, `num_envs`, `max_plies`, `table_mb`,
/// `tasks`, `chunk`):
/// a TypeError for a value that is not an int, a ValueError naming the
/// argument and its range otherwise. For the functions written in Python;
/// the bindings check the arguments they take themselves.
#[pyfunction]
fn check_arg(name: &str, value: &Bound<'_, PyAny>) -> PyResult<u64> {
    options::check_arg(name, value)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<game::PyGame>()?;
    add_game_classes(m)?;
    m.add_function(wrap_pyfunction!(_reason_codes, m)?)?;
    m.add_function(wrap_pyfunction!(spec::_parse_spec, m)?)?;
    m.add_function(wrap_pyfunction!(spec::_load, m)?)?;
    m.add_function(wrap_pyfunction!(spec::_game_options, m)?)?;
    m.add_function(wrap_pyfunction!(spec::_game_facts, m)?)?;
    // `Reason = Literal["syntax", ...]` as in the stub (at runtime the union
    // of one Literal per code, which is what the stub's Literal means).
    let typing = m.py().import("typing")?;
    let literal = typing.getattr("Literal")?;
    let each = _reason_codes()
        .into_iter()
        .map(|c| literal.get_item(c))
        .collect::<PyResult<Vec<_>>>()?;
    m.add(
        "Reason",
        typing
            .getattr("Union")?
            .get_item(pyo3::types::PyTuple::new(m.py(), each)?)?,
    )?;
    m.add_function(wrap_pyfunction!(solve::_solve, m)?)?;
    m.add_function(wrap_pyfunction!(outcome::_rewards, m)?)?;
    m.add_function(wrap_pyfunction!(search::_mcts, m)?)?;
    m.add_class::<search::PyMcts>()?;
    m.add_class::<batched::PyBatchedMcts>()?;
    vector::register(m)?;
    pickle::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The limits the core checks, exported (hexcore_core::limits).
    m.add("MAX_THREADS", hexcore_core::limits::MAX_THREADS)?;
    m.add("MAX_DEPTH", hexcore_core::limits::MAX_DEPTH)?;
    m.add("MAX_PLAYOUTS", hexcore_core::limits::MAX_PLAYOUTS)?;
    m.add("MAX_ENVS", hexcore_core::limits::MAX_ENVS)?;
    m.add("MAX_TABLE_MB", hexcore_core::limits::MAX_TABLE_MB)?;
    m.add("MAX_GAMES", hexcore_core::limits::MAX_GAMES)?;
    m.add("MAX_JOB_TASKS", hexcore_core::limits::MAX_JOB_TASKS)?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    m.add_function(wrap_pyfunction!(check_threads, m)?)?;
    m.add_function(wrap_pyfunction!(check_arg, m)?)?;
    Ok(())
}
