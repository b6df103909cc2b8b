//! `hexcore._core._VecGame`: the Rust side of `hexcore.vector` (N games
//! stepped together into numpy buffers). The Python wrapper
//! `python/hexcore/vector.py` allocates the buffers and documents the API.
//!
//! The envs are a core [`Batch`] of sessions: each env's game with its
//! history (`get_state`) and the reason an action is illegal come from it.

use std::sync::atomic::AtomicBool;

use hexcore_core::session::{Batch, Session};
use hexcore_core::vector::{Obs, Out};
use hexcore_core::{limits, Game};
use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1,
    PyReadwriteArray2, PyReadwriteArray4,
};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::any::{Any, Member, PerGame};
use crate::errors::{cancelled, options_error, value_error, Int, IntoPyErr};
use crate::game::{wrap, AnyGame, PyGame};
use crate::interrupt::run_with;
use crate::options::{int_of, Seed};

/// Batches of at least this many envs are built, reset and stepped on a
/// worker thread while this one waits for Ctrl-C (smaller ones take well
/// under a second, and starting a thread would be a good part of a step).
const WAIT_FROM: usize = 1 << 16;

/// A copy of the game (with its history) inside a Python game object.
fn session_of(obj: &Bound<'_, PyAny>) -> PyResult<AnyGame> {
    if obj.cast::<PyGame>().is_ok() {
        return AnyGame::copy_of(obj, "a batch");
    }
    let name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(PyTypeError::new_err(format!(
        "expected a hexcore game ({}), got {name}",
        crate::any::class_list()
    )))
}

/// The batches family.
struct Batches;

impl PerGame for Batches {
    type Of<G: Member> = Batch<G>;
}

type AnyVec = Any<Batches>;

/// The sessions of `rest` as `G`'s (the game of the batch's first env), or
/// the index and class of the first that is another game.
fn all_like<G: Member>(
    _first: &Session<G>,
    rest: impl Iterator<Item = AnyGame>,
) -> Result<Vec<Session<G>>, (usize, &'static str)> {
    rest.enumerate()
        .map(|(i, g)| G::from_any(g).map_err(|other| (i + 1, other.class_name())))
        .collect()
}

/// The observation buffer, borrowed for the length of one call.
enum ObsGuard<'py> {
    None,
    F32(PyReadwriteArray4<'py, f32>),
    U8(PyReadwriteArray4<'py, u8>),
    Bool(PyReadwriteArray4<'py, bool>),
}

fn borrow_err(what: &str) -> impl Fn(numpy::BorrowError) -> PyErr + '_ {
    move |e| PyValueError::new_err(format!("the {what} buffer cannot be written: {e}"))
}

fn not_contiguous(what: &str) -> impl Fn(numpy::AsSliceError) -> PyErr + '_ {
    move |_| PyValueError::new_err(format!("the {what} buffer must be C-contiguous"))
}

impl<'py> ObsGuard<'py> {
    fn new(obj: &Bound<'py, PyAny>) -> PyResult<ObsGuard<'py>> {
        if obj.is_none() {
            return Ok(ObsGuard::None);
        }
        let e = borrow_err("observation");
        if let Ok(a) = obj.cast::<PyArray4<f32>>() {
            return Ok(ObsGuard::F32(a.try_readwrite().map_err(e)?));
        }
        if let Ok(a) = obj.cast::<PyArray4<u8>>() {
            return Ok(ObsGuard::U8(a.try_readwrite().map_err(e)?));
        }
        if let Ok(a) = obj.cast::<PyArray4<bool>>() {
            return Ok(ObsGuard::Bool(a.try_readwrite().map_err(e)?));
        }
        Err(PyTypeError::new_err(
            "the observation buffer must be a 4-d float32, uint8 or bool numpy array (or None)",
        ))
    }

    fn obs(&mut self) -> PyResult<Obs<'_>> {
        let e = not_contiguous("observation");
        Ok(match self {
            ObsGuard::None => Obs::None,
            ObsGuard::F32(a) => Obs::F32(a.as_slice_mut().map_err(e)?),
            ObsGuard::U8(a) => Obs::U8(a.as_slice_mut().map_err(e)?),
            ObsGuard::Bool(a) => Obs::Bool(a.as_slice_mut().map_err(e)?),
        })
    }
}

/// The output buffers of one call.
struct Buffers<'py> {
    obs: ObsGuard<'py>,
    mask: Option<PyReadwriteArray2<'py, bool>>,
    rewards: PyReadwriteArray2<'py, f32>,
    terminated: PyReadwriteArray1<'py, bool>,
    truncated: PyReadwriteArray1<'py, bool>,
    to_move: PyReadwriteArray1<'py, i32>,
    lengths: PyReadwriteArray1<'py, i64>,
}

fn rw1<'py, T: numpy::Element>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    dtype: &str,
) -> PyResult<PyReadwriteArray1<'py, T>> {
    let a = obj.cast::<PyArray1<T>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "the {what} buffer must be a 1-d {dtype} numpy array"
        ))
    })?;
    a.try_readwrite().map_err(borrow_err(what))
}

fn rw2<'py, T: numpy::Element>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    dtype: &str,
) -> PyResult<PyReadwriteArray2<'py, T>> {
    let a = obj.cast::<PyArray2<T>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "the {what} buffer must be a 2-d {dtype} numpy array"
        ))
    })?;
    a.try_readwrite().map_err(borrow_err(what))
}

impl<'py> Buffers<'py> {
    fn new(bufs: &Bound<'py, pyo3::types::PyTuple>) -> PyResult<Buffers<'py>> {
        if bufs.len() != 7 {
            return Err(value_error("expected 7 buffers: obs, mask, rewards, terminated, truncated, to_move, episode_lengths"));
        }
        let mask = bufs.get_item(1)?;
        Ok(Buffers {
            obs: ObsGuard::new(&bufs.get_item(0)?)?,
            mask: if mask.is_none() {
                None
            } else {
                Some(rw2(&mask, "mask", "bool")?)
            },
            rewards: rw2(&bufs.get_item(2)?, "rewards", "float32")?,
            terminated: rw1(&bufs.get_item(3)?, "terminated", "bool")?,
            truncated: rw1(&bufs.get_item(4)?, "truncated", "bool")?,
            to_move: rw1(&bufs.get_item(5)?, "to_move", "int32")?,
            lengths: rw1(&bufs.get_item(6)?, "episode_lengths", "int64")?,
        })
    }

    fn out(&mut self) -> PyResult<Out<'_>> {
        Ok(Out {
            obs: self.obs.obs()?,
            mask: match &mut self.mask {
                Some(m) => Some(m.as_slice_mut().map_err(not_contiguous("mask"))?),
                None => None,
            },
            rewards: self
                .rewards
                .as_slice_mut()
                .map_err(not_contiguous("rewards"))?,
            terminated: self
                .terminated
                .as_slice_mut()
                .map_err(not_contiguous("terminated"))?,
            truncated: self
                .truncated
                .as_slice_mut()
                .map_err(not_contiguous("truncated"))?,
            to_move: self
                .to_move
                .as_slice_mut()
                .map_err(not_contiguous("to_move"))?,
            lengths: self
                .lengths
                .as_slice_mut()
                .map_err(not_contiguous("episode_lengths"))?,
        })
    }
}

fn threads_arg(threads: Option<Int>) -> PyResult<usize> {
    crate::options::threads(threads)
}

/// N games of one type (see `hexcore.vector.VecGame`).
#[pyclass(name = "_VecGame", module = "hexcore._core")]
pub struct PyVecGame {
    inner: AnyVec,
    kind: &'static str,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl PyVecGame {
    /// One env per start position: `games` is a list of game objects, all
    /// of one type, one per env (`num_envs`, when given, must be its
    /// length), or one game object every env of `num_envs` starts from (one
    /// object given for many envs is read, and kept, once). The core checks
    /// `num_envs`, `max_plies` (None: no limit), `seed` and `threads`.
    #[new]
    #[pyo3(signature = (games, seed=Seed(0), threads=None, max_plies=None, num_envs=None))]
    fn new(
        py: Python<'_>,
        games: Bound<'_, PyAny>,
        seed: Seed,
        threads: Option<Int>,
        max_plies: Option<Bound<'_, PyAny>>,
        num_envs: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let num_envs = num_envs
            .map(|n| limits::num_envs(int_of("num_envs", &n)?).map_err(options_error))
            .transpose()?;
        let list = games.cast::<pyo3::types::PyList>().ok().cloned();
        let n = match (&list, num_envs) {
            (Some(list), Some(n)) if list.len() != n => {
                return Err(value_error(format!(
                    "got {} specs for num_envs={n}; give one spec or one per env",
                    list.len()
                )))
            }
            (Some(list), None) => limits::num_envs(list.len()).map_err(options_error)?,
            (_, Some(n)) => n,
            (None, None) => {
                return Err(PyTypeError::new_err(
                    "num_envs is required with a single spec",
                ))
            }
        };
        let max_plies = max_plies
            .map(|m| limits::max_plies(int_of("max_plies", &m)?).map_err(options_error))
            .transpose()?
            .unwrap_or(u64::MAX);
        let threads = threads_arg(threads)?;
        // The distinct objects (and the first env of each), and each env's.
        let (mut distinct, mut first_env) = (Vec::new(), Vec::new());
        let mut start_of: Vec<u32> = Vec::new();
        start_of.try_reserve_exact(n).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!("cannot allocate a batch of {n} envs"))
        })?;
        match &list {
            Some(list) => {
                let mut index: std::collections::HashMap<usize, u32> =
                    std::collections::HashMap::new();
                for (i, g) in list.iter().enumerate() {
                    let k = *index.entry(g.as_ptr() as usize).or_insert_with(|| {
                        distinct.push(g);
                        first_env.push(i);
                        distinct.len() as u32 - 1
                    });
                    start_of.push(k);
                }
            }
            None => {
                distinct.push(games);
                first_env.push(0);
                start_of.resize(n, 0);
            }
        }
        let games = distinct
            .iter()
            .map(session_of)
            .collect::<PyResult<Vec<_>>>()?;
        let kind = games[0].class_name();
        let n = start_of.len();
        let mut games = games.into_iter();
        let first = games.next().expect("num_envs is at least 1");
        let inner: AnyVec = map_any!(first, s0 => {
            let mut starts = all_like(&s0, games).map_err(|(k, other)| {
                let i = first_env[k];
                value_error(format!("env {i} is a {other} but env 0 is a {kind}; the envs of one batch play one game"))
            })?;
            starts.insert(0, s0);
            let stop = AtomicBool::new(false);
            let built = if n >= WAIT_FROM {
                run_with(py, "building the batch", &stop, |_| Ok(()), || Batch::build(starts, start_of, seed.0, max_plies, &stop))?
            } else {
                Batch::build(starts, start_of, seed.0, max_plies, &stop)
            };
            built.map_err(|e| e.into_pyerr(py))?
        });
        Ok(PyVecGame {
            inner,
            kind,
            threads,
        })
    }

    #[setter]
    fn set_threads(&mut self, threads: Int) -> PyResult<()> {
        self.threads = threads_arg(Some(threads))?;
        Ok(())
    }

    /// The seat the caller plays when the other seats move by themselves
    /// (uniformly random legal actions, within each step); `None`: every
    /// seat is stepped by the caller.
    #[getter]
    fn autoplay(&self) -> Option<usize> {
        dispatch!(&self.inner, v => v.games().autoplay())
    }

    #[setter]
    fn set_autoplay(&mut self, seat: Option<Int>) -> PyResult<()> {
        dispatch!(&mut self.inner, v => v.set_autoplay(seat)).map_err(options_error)
    }

    #[getter]
    fn game_type(&self) -> &'static str {
        self.kind
    }

    #[getter]
    fn num_envs(&self) -> usize {
        dispatch!(&self.inner, v => v.games().num_envs())
    }

    #[getter]
    fn num_actions(&self) -> usize {
        dispatch!(&self.inner, v => v.games().num_actions())
    }

    #[getter]
    fn num_players(&self) -> usize {
        dispatch!(&self.inner, v => v.games().num_players())
    }

    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let s = dispatch!(&self.inner, v => v.games().observation_shape());
        (s[0], s[1], s[2])
    }

    #[getter]
    fn max_plies(&self) -> u64 {
        dispatch!(&self.inner, v => v.games().max_plies())
    }

    /// Reset every env (reseeding when `seed` is given); writes the start
    /// observations and masks into the buffers
    /// `(obs, mask, rewards, terminated, truncated, to_move, episode_lengths)`.
    #[pyo3(signature = (seed, *buffers))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<Seed>,
        buffers: &Bound<'_, pyo3::types::PyTuple>,
    ) -> PyResult<()> {
        let mut b = Buffers::new(buffers)?;
        let out = b.out()?;
        let threads = self.threads;
        let big = self.num_envs() >= WAIT_FROM;
        let inner = &mut self.inner;
        let stop = AtomicBool::new(false);
        let work = || dispatch!(&mut *inner, v => v.reset_until(seed.as_ref().map(|s| s.0), out, threads, &stop));
        let whole = if big {
            run_with(py, "reset", &stop, |_| Ok(()), work)?
        } else {
            py.detach(work)
        };
        match whole.map_err(|e| e.into_pyerr(py))? {
            true => Ok(()),
            false => Err(cancelled(py)),
        }
    }

    /// Step every env with its action (int64 array, one per env); nothing is
    /// stepped when an action is illegal.
    /// With `active` (bool, one per env) only the flagged envs move.
    #[pyo3(signature = (actions, active, *buffers))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        active: Option<PyReadonlyArray1<'_, bool>>,
        buffers: &Bound<'_, pyo3::types::PyTuple>,
    ) -> PyResult<()> {
        let mut b = Buffers::new(buffers)?;
        let out = b.out()?;
        let actions = actions.as_slice().map_err(not_contiguous("actions"))?;
        let active = match &active {
            Some(a) => Some(a.as_slice().map_err(not_contiguous("active"))?),
            None => None,
        };
        let threads = self.threads;
        let big = self.num_envs() >= WAIT_FROM;
        let inner = &mut self.inner;
        let stop = AtomicBool::new(false);
        let work =
            || dispatch!(&mut *inner, v => v.step_until(actions, active, out, threads, &stop));
        let whole = if big {
            run_with(py, "step", &stop, |_| Ok(()), work)?
        } else {
            py.detach(work)
        };
        match whole.map_err(|e| e.into_pyerr(py))? {
            true => Ok(()),
            false => Err(cancelled(py)),
        }
    }

    /// Uniformly random legal actions written to `out` (int64, one per env).
    fn sample_actions(
        &mut self,
        py: Python<'_>,
        mut out: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        let out = out.as_slice_mut().map_err(not_contiguous("actions"))?;
        let threads = self.threads;
        let inner = &mut self.inner;
        py.detach(move || dispatch!(inner, v => v.sample_actions(out, threads)))
            .map_err(|e| e.into_pyerr(py))
    }

    /// Env `i`: (episode number, complete moves, done, actions of the episode).
    fn _env(&self, i: Int) -> PyResult<(u64, u64, bool, Vec<u32>)> {
        let i = self.index(i)?;
        Ok(dispatch!(&self.inner, v => {
            let e = v.games().env(i);
            (e.episode, e.plies, e.done, e.actions.clone())
        }))
    }

    /// Env `i`'s spec string (of its current game).
    fn _spec(&self, i: Int) -> PyResult<String> {
        let i = self.index(i)?;
        Ok(dispatch!(&self.inner, v => v.games().env(i).game.spec()))
    }

    /// Env `i`'s game with its history: the position its episode started
    /// from (with that position's own history) and the actions since.
    fn _state(&self, py: Python<'_>, i: Int) -> PyResult<Py<PyAny>> {
        let i = self.index(i)?;
        let any: AnyGame = dispatch!(&self.inner, v => Member::into_any(v.session(i).map_err(|e| internal(i, e))?));
        wrap(py, PyGame::new(any))
    }

    /// Env `i`'s start position (a copy, with its history).
    fn _start(&self, py: Python<'_>, i: Int) -> PyResult<Py<PyAny>> {
        let i = self.index(i)?;
        let any: AnyGame = dispatch!(&self.inner, v => Member::into_any(v.start(i).clone()));
        wrap(py, PyGame::new(any))
    }

    /// The spec string of every env's start position.
    fn _start_specs(&self) -> Vec<String> {
        dispatch!(&self.inner, v => (0..v.games().num_envs()).map(|i| v.games().start(i).spec()).collect())
    }

    /// Put a copy of `game` (with its history) in env `i`, with `plies`
    /// complete moves counted towards `max_plies`.
    fn _set_env(&mut self, i: Int, game: &Bound<'_, PyAny>, plies: u64) -> PyResult<()> {
        let i = self.index(i)?;
        let s = session_of(game)?;
        let kind = s.class_name();
        let bad = || PyTypeError::new_err(format!("this batch plays {}; got a {kind}", self.kind));
        zip_any!((&mut self.inner, s), (v, s) => v.set_env(i, s, plies), return Err(bad()))
            .map_err(|e| e.into_pyerr(game.py()))
    }
}

/// A session that does not replay (a bug) as a RuntimeError.
fn internal(i: usize, e: hexcore_core::MoveError) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal error: env {i}'s episode does not replay from its start: {e}"
    ))
}

impl PyVecGame {
    /// Env `i`'s index, checked.
    fn index(&self, i: Int) -> PyResult<usize> {
        let n = self.num_envs();
        match usize::try_from(i.value) {
            Ok(k) if k < n => Ok(k),
            _ => Err(PyIndexError::new_err(format!(
                "env index {i} is out of range 0..{n}"
            ))),
        }
    }
}

/// The zero-sum rewards of a finished game with `winner_mask` among `n`
/// seats as VecGame gives them (f32; the adapters take `_rewards`), for tests.
#[pyfunction]
fn _terminal_rewards(winner_mask: u8, n: usize) -> PyResult<Vec<f32>> {
    if !(1..=8).contains(&n) {
        return Err(value_error(format!("n must be between 1 and 8, got {n}")));
    }
    let mut out = vec![0f32; n];
    hexcore_core::terminal_rewards(winner_mask, n, &mut out);
    Ok(out)
}

/// Add this file's class and function to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecGame>()?;
    m.add_function(wrap_pyfunction!(_terminal_rewards, m)?)?;
    Ok(())
}
