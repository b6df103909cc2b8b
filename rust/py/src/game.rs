//! The methods every game shares, on one base class `_Game` holding an
//! [`AnyGame`]; each game's class extends it with its constructor and
//! extras (`games/<game>.rs`, which also implements [`GameClass`]).
//!
//! Methods that take Python objects convert them before borrowing the game,
//! so an argument whose `__index__`/`__eq__`/`__str__` re-enters the same
//! games runs while nothing is borrowed; a borrow that still conflicts (a
//! method of this game running on another thread, or re-entry from inside
//! one) is a `RuntimeError`, never a panic.

use std::sync::{Arc, OnceLock};

use hexcore_core::{winners_of, Action, Game, Unit};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::IntoPyObjectExt;

use crate::any::{Any, Member, PerGame};
use crate::board::PyBoard;
use crate::errors::{
    action_id, error, illegal, lossy_str, mid_turn_error, move_text, options_error, parse_unit,
    value_error, Class, Int, IntoPyErr,
};
use crate::session::{Session, Setup};

/// The function a game's pickle names to rebuild it (`_restore`, defined in
/// `pickle.rs`, which puts it here when the module is made).
pub static RESTORE: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();

/// The sessions family: a Python game object holds a [`Session`].
pub struct Sessions;

impl PerGame for Sessions {
    type Of<G: Member> = Session<G>;
}

/// The game inside a Python game object.
pub type AnyGame = Any<Sessions>;

/// The cell value a text stands for in `from_position` (besides ints).
pub type TextValue = fn(&str) -> Option<i64>;

/// What the base class needs of each game's class (implemented for every
/// game in `lib.rs`, from its binding file `games/<game>.rs`).
pub trait GameClass: Member {
    /// A Python object of the game's own class around `init`.
    fn new_object(py: Python<'_>, init: PyClassInitializer<PyGame>) -> PyResult<Py<PyAny>>;

    /// The game's names for cell values as text (`TEXT_VALUE` in its file),
    /// if it has any.
    const TEXT_VALUE: Option<TextValue>;
}

impl AnyGame {
    /// True while a turn is in progress (actions played, the move not complete).
    pub fn mid_turn(&self) -> bool {
        dispatch!(self, s => s.mid_turn())
    }

    /// A copy of the hexcore game `game` (`what` names the caller in the
    /// `TypeError` for anything else).
    pub fn copy_of(game: &Bound<'_, PyAny>, what: &str) -> PyResult<AnyGame> {
        Ok(Self::borrow_of(game, what)?.any.clone())
    }

    /// The hexcore game `game`, borrowed (errors as [`AnyGame::copy_of`]).
    pub fn borrow_of<'py>(game: &Bound<'py, PyAny>, what: &str) -> PyResult<PyRef<'py, PyGame>> {
        let Ok(obj) = game.cast::<PyGame>() else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{what} takes a {} game, got {}",
                crate::any::class_list(),
                game.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| "?".into())
            )));
        };
        obj.try_borrow()
            .map_err(|e| PyRuntimeError::new_err(format!("the game is in use: {e}")))
    }
}

#[pyclass(name = "_Game", module = "hexcore._core", subclass)]
pub struct PyGame {
    pub any: AnyGame,
    /// `board`, made on first use and shared by copies.
    board: Arc<OnceLock<Py<PyBoard>>>,
}

impl PyGame {
    pub fn new(any: AnyGame) -> Self {
        PyGame {
            any,
            board: Arc::new(OnceLock::new()),
        }
    }

    fn require_between_turns(&self, py: Python<'_>, what: &str) -> PyResult<()> {
        if dispatch!(&self.any, s => s.mid_turn()) {
            return Err(mid_turn_error(py, what));
        }
        Ok(())
    }
}

/// A Python object of the game's own class around `game`.
pub fn wrap(py: Python<'_>, game: PyGame) -> PyResult<Py<PyAny>> {
    fn new_object<G: GameClass>(
        _: &Session<G>,
    ) -> fn(Python<'_>, PyClassInitializer<PyGame>) -> PyResult<Py<PyAny>> {
        G::new_object
    }
    let make = dispatch!(&game.any, s => new_object(s));
    make(py, PyClassInitializer::from(game))
}

fn busy(_: impl std::fmt::Debug) -> PyErr {
    PyRuntimeError::new_err("Already borrowed: the game is being used by another call")
}

/// Borrow a game argument (fallible: a RuntimeError, never a panic).
fn borrow_game<'py>(obj: &Bound<'py, PyGame>) -> PyResult<PyRef<'py, PyGame>> {
    obj.try_borrow().map_err(busy)
}

fn legal_actions_of<G: Game>(g: &G) -> Vec<Action> {
    let mut v = Vec::with_capacity(256);
    g.legal_actions(&mut v);
    v
}

fn same_position<A: Game, B: Game>(a: &Session<A>, b: &Session<B>) -> bool
where
    A::Undo: Clone,
    B::Undo: Clone,
{
    let (ga, gb) = (&a.g, &b.g);
    let n = ga.board().num_cells();
    ga.spec() == gb.spec()
        && ga.zobrist() == gb.zobrist()
        && ga.to_move() == gb.to_move()
        && n == gb.board().num_cells()
        && a.pending() == b.pending()
        && (0..n).all(|c| ga.cell_value(c) == gb.cell_value(c))
}

fn perft_of<'py, G: Game>(
    py: Python<'py>,
    g: G,
    depth: u32,
    unit: Unit,
    threads: usize,
    divide: bool,
) -> PyResult<Bound<'py, PyAny>> {
    // If the worker threads cannot be started, count on one thread.
    if divide {
        let v = crate::interrupt::run(py, "perft", |stop| {
            match hexcore_core::try_divide(&g, depth, unit, threads, stop) {
                Err(hexcore_core::RunError::Threads { .. }) if threads > 1 => {
                    hexcore_core::try_divide(&g, depth, unit, 1, stop)
                }
                r => r,
            }
        })?;
        v.into_bound_py_any(py)
    } else {
        let n = crate::interrupt::run(py, "perft", |stop| {
            match hexcore_core::try_perft(&g, depth, unit, threads, stop) {
                Err(hexcore_core::RunError::Threads { .. }) if threads > 1 => {
                    hexcore_core::try_perft(&g, depth, unit, 1, stop)
                }
                r => r,
            }
        })?;
        n.into_bound_py_any(py)
    }
}

type PlayoutArrays<'py> = (
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u64>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<bool>>,
);

/// Games per call of `playouts_into`: results are copied out of a buffer of
/// this many between calls.
const PLAYOUT_CHUNK: usize = 1 << 16;

/// Bytes of result arrays per game (plies, actions, winners, finished).
pub const PLAYOUT_BYTES: usize = 8 + 8 + 1 + 1;

fn reserve<T>(n: usize) -> Result<Vec<T>, ()> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| ())?;
    Ok(v)
}

fn playouts_of<'py, G: Game>(
    py: Python<'py>,
    g: G,
    n: usize,
    seed: u64,
    threads: usize,
    max_plies: u64,
) -> PyResult<PlayoutArrays<'py>> {
    let arrays = (|| {
        Ok::<_, ()>((
            reserve::<u64>(n)?,
            reserve::<u64>(n)?,
            reserve::<u8>(n)?,
            reserve::<bool>(n)?,
            reserve::<hexcore_core::PlayoutResult>(n.min(PLAYOUT_CHUNK))?,
        ))
    })();
    let Ok((mut plies, mut actions, mut winners, mut finished, mut buf)) = arrays else {
        return Err(pyo3::exceptions::PyMemoryError::new_err(format!(
            "cannot allocate the results of {n} playouts ({} bytes)",
            (n as u128) * PLAYOUT_BYTES as u128
        )));
    };
    crate::interrupt::run(py, "random_playouts", |stop| {
        let mut threads = threads;
        let mut done = 0usize;
        while done < n {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(hexcore_core::RunError::Cancelled);
            }
            let len = (n - done).min(PLAYOUT_CHUNK);
            buf.clear();
            buf.resize(len, hexcore_core::PlayoutResult::default());
            match hexcore_core::playouts_into(
                &g,
                seed,
                done as u64,
                &mut buf,
                threads,
                max_plies,
                stop,
            ) {
                // If the worker threads cannot be started, play on one thread.
                Err(hexcore_core::RunError::Threads { .. }) if threads > 1 => {
                    threads = 1;
                    continue;
                }
                r => r?,
            }
            plies.extend(buf.iter().map(|r| r.plies));
            actions.extend(buf.iter().map(|r| r.actions));
            winners.extend(buf.iter().map(|r| r.winners));
            finished.extend(buf.iter().map(|r| r.finished));
            done += len;
        }
        Ok(())
    })?;
    Ok((
        PyArray1::from_vec(py, plies),
        PyArray1::from_vec(py, actions),
        PyArray1::from_vec(py, winners),
        PyArray1::from_vec(py, finished),
    ))
}

#[pymethods]
impl PyGame {
    /// The spec string that rebuilds this game's options.
    #[getter]
    fn spec(&self) -> String {
        dispatch!(&self.any, s => s.g.spec())
    }

    /// The board (one shared object per game and its copies).
    #[getter]
    fn board(&self, py: Python<'_>) -> PyResult<Py<PyBoard>> {
        if let Some(b) = self.board.get() {
            return Ok(b.clone_ref(py));
        }
        let inner = Arc::new(dispatch!(&self.any, s => s.g.board().clone()));
        let made = Py::new(py, PyBoard { inner })?;
        Ok(self.board.get_or_init(|| made).clone_ref(py))
    }

    #[getter]
    fn num_players(&self) -> usize {
        dispatch!(&self.any, s => s.g.num_players())
    }

    /// 1-based player to move.
    #[getter]
    fn to_move(&self) -> usize {
        dispatch!(&self.any, s => s.g.to_move())
    }

    #[getter]
    fn is_over(&self) -> bool {
        dispatch!(&self.any, s => s.g.is_over())
    }

    /// Players sharing the result of a finished game (all players = draw);
    /// empty while the game goes on.
    #[getter]
    fn winners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, winners_of(dispatch!(&self.any, s => s.g.winner_mask())))
    }

    #[getter]
    fn zobrist(&self) -> u64 {
        dispatch!(&self.any, s => s.g.zobrist())
    }

    /// Moves played so far, in the game's notation.
    #[getter]
    fn history(&self) -> Vec<String> {
        dispatch!(&self.any, s => s.history())
    }

    /// Number of complete moves played.
    #[getter]
    fn ply(&self) -> usize {
        dispatch!(&self.any, s => s.num_moves())
    }

    /// Actions of the turn in progress (empty between turns).
    #[getter]
    fn pending_actions(&self) -> Vec<u32> {
        dispatch!(&self.any, s => s.pending())
    }

    /// Every action applied since the start.
    #[getter]
    fn actions(&self) -> Vec<u32> {
        dispatch!(&self.any, s => s.all_actions())
    }

    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.require_between_turns(py, "legal_moves() lists whole moves between turns")?;
        dispatch!(&self.any, s => {
            let mut out = Vec::new();
            match s.g.legal_moves(100_000, &mut out) {
                Ok(()) => Ok(out.iter().map(|m| s.g.format_move(m)).collect()),
                Err(n) => Err(error(py, Class::TooManyMoves,
                    format!("{n} legal moves is too many to list; use count_moves() or the action API"), None)),
            }
        })
    }

    /// Exact number of legal moves (a Python int of any size).
    fn count_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.require_between_turns(py, "count_moves() counts whole moves between turns")?;
        match dispatch!(&self.any, s => s.g.count_moves()) {
            n if n < u128::MAX => n.into_bound_py_any(py),
            _ => dispatch!(&self.any, s => s.g.count_moves_big()).into_bound_py_any(py),
        }
    }

    /// Play a move in the game's notation; raises IllegalMoveError (a
    /// ValueError) with a `.reason` and leaves the game unchanged.
    fn play(slf: &Bound<'_, Self>, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        let py = slf.py();
        let mv = move_text(mv)?;
        let mut this = slf.try_borrow_mut().map_err(busy)?;
        dispatch!(&mut this.any, s => s.play(&mv)).map_err(|e| e.into_pyerr(py))
    }

    /// Undo the last move (or the turn in progress); returns its text.
    fn undo(&mut self) -> PyResult<String> {
        dispatch!(&mut self.any, s => s.undo())
            .ok_or_else(|| PyIndexError::new_err("nothing to undo"))
    }

    fn copy(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(
            py,
            PyGame {
                any: self.any.clone(),
                board: self.board.clone(),
            },
        )
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.copy(py)
    }

    fn cells<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let v: Vec<i8> = dispatch!(&self.any, s => (0..s.g.board().num_cells()).map(|c| s.g.cell_value(c)).collect());
        PyArray1::from_vec(py, v)
    }

    #[getter]
    fn num_actions(&self) -> usize {
        dispatch!(&self.any, s => s.g.num_actions())
    }

    /// A proven upper bound on the number of actions in a game of this
    /// variant from its start (None: no small one, Churn), from the game's
    /// facts table in the core.
    #[getter]
    fn max_actions(&self) -> Option<usize> {
        dispatch!(&self.any, s => s.g.max_actions())
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let v = dispatch!(&self.any, s => legal_actions_of(&s.g));
        // Action ids are far below 2^31.
        let v: Vec<i32> = v.into_iter().map(|a| a as i32).collect();
        PyArray1::from_vec(py, v)
    }

    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let (v, n) = dispatch!(&self.any, s => (legal_actions_of(&s.g), s.g.num_actions()));
        let mut mask = vec![false; n];
        for a in v {
            mask[a as usize] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Apply one action id (checked); raises IllegalMoveError.
    pub(crate) fn apply_action(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = slf.py();
        let a = action_id(py, action)?;
        let mut this = slf.try_borrow_mut().map_err(busy)?;
        dispatch!(&mut this.any, s => s.apply_action(a)).map_err(|e| e.into_pyerr(py))
    }

    /// The text of action id `action` in the game's notation (the inverse of
    /// `string_to_action`); raises IllegalMoveError out of range.
    fn action_to_string(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let py = slf.py();
        let a = action_id(py, action)?;
        let this = slf.try_borrow().map_err(busy)?;
        dispatch!(&this.any, s => {
            let n = s.g.num_actions();
            if a < 0 || a as u64 >= n as u64 {
                return Err(illegal(py, hexcore_core::Reason::ActionOutOfRange, format!("action {a} is out of range 0..{n}")));
            }
            Ok(s.g.action_to_string(a as Action))
        })
    }

    /// The action id whose text is `text` (the inverse of `action_to_string`);
    /// raises NotationError where no action has that text.
    fn string_to_action(slf: &Bound<'_, Self>, text: &str) -> PyResult<i64> {
        let py = slf.py();
        let this = slf.try_borrow().map_err(busy)?;
        dispatch!(&this.any, s => s.g.string_to_action(text).map(|a| a as i64).map_err(|e| e.into_pyerr(py)))
    }

    /// Float32 planes (C, H, W) on the board's axial grid.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let (v, shape) = dispatch!(&self.any, s => {
            let shape = s.g.observation_shape();
            let mut v = vec![0f32; shape[0] * shape[1] * shape[2]];
            s.g.observation(&mut v);
            (v, shape)
        });
        PyArray1::from_vec(py, v).reshape(shape)
    }

    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let s = dispatch!(&self.any, s => s.g.observation_shape());
        (s[0], s[1], s[2])
    }

    fn diagram(&self) -> String {
        dispatch!(&self.any, s => s.g.diagram())
    }

    fn __str__(&self) -> String {
        self.diagram()
    }

    fn __repr__(&self) -> String {
        dispatch!(&self.any, s => {
            let state = if s.g.is_over() {
                format!("over, winners={:?}", winners_of(s.g.winner_mask()))
            } else {
                format!("to_move={}", s.g.to_move())
            };
            format!("<{} {:?} ply={} {}>", self.any.class_name(), s.g.spec(), s.num_moves(), state)
        })
    }

    /// Equality by position: options, cells, player to move, turn in progress.
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyGame>() else {
            return Ok(false);
        };
        let a = slf.try_borrow().map_err(busy)?;
        let b = borrow_game(o)?;
        Ok(zip_any!((&a.any, &b.any), (x, y) => same_position(x, y), false))
    }

    fn __hash__(&self) -> u64 {
        self.zobrist()
    }

    /// Pickle support: rebuilt by `_restore` (in `pickle.rs`) from the
    /// spec, the set-up and the actions.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, String, Option<Setup>, Vec<u32>))> {
        let f = RESTORE
            .get(py)
            .ok_or_else(|| PyRuntimeError::new_err("hexcore._core is not initialised"))?
            .bind(py)
            .clone();
        let (spec, setup, actions) =
            dispatch!(&self.any, s => (s.g.spec(), s.setup.as_deref().cloned(), s.all_actions()));
        Ok((f, (self.any.class_name().to_string(), spec, setup, actions)))
    }

    /// A test position: `{"c3": 1, "d2": 2}` (Quintun neutrals also as
    /// "A".."E"), the player to move and the constructor options.
    #[classmethod]
    #[pyo3(signature = (position, to_move=Int::of(1), **options))]
    fn from_position<'py>(
        cls: &Bound<'py, PyType>,
        position: &Bound<'py, PyAny>,
        to_move: Int,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        // Keywords that describe the position go to `_from_cells` only.
        let setup_keys: Vec<String> = cls
            .getattr("_setup_keys")
            .and_then(|k| k.extract())
            .unwrap_or_default();
        let ctor = PyDict::new(py);
        if let Some(o) = options {
            for (k, v) in o.iter() {
                if !k.extract::<String>().is_ok_and(|k| setup_keys.contains(&k)) {
                    ctor.set_item(k, v)?;
                }
            }
        }
        let empty = cls.call((), Some(&ctor))?;
        let empty = empty.cast::<PyGame>()?;
        let (board, text_value): (Arc<hexcore_core::Board>, TextValue) = {
            let g = borrow_game(empty)?;
            let board = Arc::new(dispatch!(&g.any, s => s.g.board().clone()));
            fn text_value_of<G: GameClass>(_: &Session<G>) -> TextValue {
                G::TEXT_VALUE.unwrap_or(|_| None)
            }
            let text_value = dispatch!(&g.any, s => text_value_of(s));
            (board, text_value)
        };
        let items = position.call_method0("items").map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "position must be a mapping of cell label to value",
            )
        })?;
        let mut cells = vec![0i8; board.num_cells()];
        let mut seen = vec![false; board.num_cells()];
        for item in items.try_iter()? {
            let (label, value): (Bound<'py, PyAny>, Bound<'py, PyAny>) = item?.extract()?;
            let label = lossy_str(&label, "a position key (cell label)")?;
            let cell = board
                .index(&label.trim().to_ascii_lowercase())
                .ok_or_else(|| {
                    illegal(
                        py,
                        hexcore_core::Reason::UnknownCell,
                        format!("position: {label:?} is not a cell of this board"),
                    )
                })?;
            let v: i64 = if let Ok(s) = value.cast::<PyString>() {
                let s = s.to_string_lossy();
                text_value(&s).ok_or_else(|| {
                    value_error(format!(
                        "position: value {s:?} for {label} is not a cell value of this game"
                    ))
                })?
            } else {
                crate::options::int_arg("position", Some(&value))?.ok_or_else(|| {
                    value_error(format!("position: value for {label} must be an int"))
                })?
            };
            if !(-100..=100).contains(&v) {
                return Err(value_error(format!(
                    "position: value {v} for {label} is out of range"
                )));
            }
            if std::mem::replace(&mut seen[cell], true) {
                return Err(value_error(format!(
                    "position: cell {} is given twice (keys are not case-sensitive)",
                    board.label(cell)
                )));
            }
            cells[cell] = v as i8;
        }
        cls.getattr("_from_cells")?.call((cells, &to_move), options)
    }

    /// Replay a list of moves from the start (`Game.replay(["c3", "d2"], size=3)`).
    #[classmethod]
    #[pyo3(signature = (moves, **options))]
    pub(crate) fn replay<'py>(
        cls: &Bound<'py, PyType>,
        moves: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let g = cls.call((), options)?;
        let moves = if let Ok(s) = moves.extract::<String>() {
            PyList::new(
                cls.py(),
                s.split_whitespace()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>(),
            )?
            .into_any()
        } else {
            moves.clone()
        };
        for m in moves.try_iter()? {
            g.call_method1("play", (m?,))?;
        }
        Ok(g)
    }

    /// The set-up start, if any: (cells, to_move, {keyword: value}).
    #[allow(clippy::type_complexity)]
    fn _setup<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Vec<i8>, usize, Bound<'py, PyDict>)>> {
        let setup = dispatch!(&self.any, s => s.setup.clone());
        let Some(setup) = setup else { return Ok(None) };
        let (cells, to_move, extra) = &*setup;
        let d = PyDict::new(py);
        for (k, v) in extra {
            d.set_item(k, v)?;
        }
        Ok(Some((cells.clone(), *to_move, d)))
    }

    /// `mid_turn=True` counts from a position in the middle of a turn (the
    /// rest of that turn is the first of the `depth` moves), as the Ray
    /// backend's work units need; the public `perft` refuses such roots.
    #[pyo3(signature = (depth, unit="move", threads=None, divide=false, mid_turn=false))]
    fn _perft<'py>(
        &self,
        py: Python<'py>,
        depth: Int,
        unit: &str,
        threads: Option<Int>,
        divide: bool,
        mid_turn: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let unit = parse_unit(unit)?;
        let depth = hexcore_core::limits::depth(depth).map_err(options_error)?;
        let threads = crate::options::threads(threads)?;
        if !mid_turn && dispatch!(&self.any, s => s.mid_turn()) {
            return Err(illegal(
                py,
                hexcore_core::Reason::MidTurn,
                "perft starts between turns; finish or undo the turn in progress",
            ));
        }
        dispatch!(&self.any, s => perft_of(py, s.g.clone(), depth, unit, threads, divide))
    }

    #[pyo3(signature = (n, seed=None, threads=None, max_plies=None))]
    fn _playouts<'py>(
        &self,
        py: Python<'py>,
        n: Int,
        seed: Option<crate::options::Seed>,
        threads: Option<Int>,
        max_plies: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PlayoutArrays<'py>> {
        let n = hexcore_core::limits::playouts(n).map_err(options_error)?;
        let seed = seed.map_or(0, |s| s.0);
        let max_plies = max_plies
            .filter(|v| !v.is_none())
            .map(|v| {
                hexcore_core::limits::playout_plies(crate::options::int_of("max_plies", v)?)
                    .map_err(options_error)
            })
            .transpose()?
            .unwrap_or(u64::MAX);
        let threads = crate::options::threads(threads)?;
        if dispatch!(&self.any, s => s.mid_turn()) {
            return Err(illegal(
                py,
                hexcore_core::Reason::MidTurn,
                "playouts start between turns; finish or undo the turn in progress",
            ));
        }
        dispatch!(&self.any, s => playouts_of(py, s.g.clone(), n as usize, seed, threads, max_plies))
    }
}
