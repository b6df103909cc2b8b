//! `hexcore._core._BatchedMCTS`: the batched PUCT / Gumbel search of
//! `hexcore-core` (`search::batched`) with a Python evaluator. Argument
//! documentation lives in `hexcore.search`.
//!
//! The search runs on the calling thread: its Rust steps (selection, writing
//! observations, expansion and backup) run with the GIL released over the
//! core's thread pool, the GIL is taken back only to call the evaluator, and
//! Ctrl-C is checked between waves (a wave is short, so the search stops
//! within a wave; a KeyboardInterrupt raised inside the evaluator comes out
//! unchanged, like any other exception of the evaluator).
//!
//! Observations and masks are written straight into two numpy arrays the
//! search keeps and reuses; the evaluator gets read-only views of their
//! first `L` rows, valid until it returns.

use hexcore_core::search::{
    ActionsError, Algorithm, BatchError, BatchedMcts, BatchedOptions, Evaluator, Rows,
};
use hexcore_core::{limits, Game, MoveError, OptionsError};
use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PySlice, PyTuple};

use crate::any::{Any, Member, PerGame};
use crate::errors::{options_error, Int, IntoPyErr};
use crate::game::{wrap, AnyGame, PyGame};

/// The evaluator callable and the buffers it is handed.
struct PyEvaluator<'a, 'py> {
    py: Python<'py>,
    f: &'a Bound<'py, PyAny>,
    obs: &'a mut Option<Py<PyArray4<f32>>>,
    masks: &'a mut Option<Py<PyArray2<bool>>>,
    shape: [usize; 3],
    actions: usize,
    players: usize,
}

/// The first `rows` rows of `a`, read-only.
fn head<'py>(a: &Bound<'py, PyAny>, rows: usize) -> PyResult<Bound<'py, PyAny>> {
    let v = a.get_item(PySlice::new(a.py(), 0, rows as isize, 1))?;
    v.call_method1("setflags", (false,))?;
    Ok(v)
}

/// An evaluator's output as a C-contiguous float32 or float64 array.
enum Answer<'py> {
    F32(Bound<'py, PyArray2<f32>>),
    F64(Bound<'py, PyArray2<f64>>),
}

/// The bytes an array's data spans.
fn span<T: numpy::Element, D: numpy::ndarray::Dimension>(
    a: &Bound<'_, numpy::PyArray<T, D>>,
) -> std::ops::Range<usize> {
    let start = a.data() as usize;
    start..start + a.len() * std::mem::size_of::<T>()
}

impl<'py> Answer<'py> {
    /// `x` as `rows` x `cols` numbers (`what`: "priors" or "values", for the
    /// messages). A C-contiguous float32 or float64 array of the right shape
    /// is taken as it is; anything else goes through `numpy.asarray` first.
    fn of(x: &Bound<'py, PyAny>, what: &str, rows: usize, cols: usize) -> PyResult<Self> {
        if let Ok(a) = x.cast::<PyArray2<f32>>() {
            if a.shape() == [rows, cols] && a.is_c_contiguous() {
                return Ok(Answer::F32(a.clone()));
            }
        } else if let Ok(a) = x.cast::<PyArray2<f64>>() {
            if a.shape() == [rows, cols] && a.is_c_contiguous() {
                return Ok(Answer::F64(a.clone()));
            }
        }
        let py = x.py();
        let np = py.import("numpy")?;
        let arr = np
            .call_method1("asarray", (x,))
            .map_err(|e| PyValueError::new_err(format!("evaluator output is not numeric: {e}")))?;
        let dtype = arr.getattr("dtype")?;
        let kind: String = dtype.getattr("kind")?.extract()?;
        if !"biuf".contains(kind.as_str()) || kind.len() != 1 {
            return Err(PyValueError::new_err(format!(
                "evaluator {what} must be numbers, got dtype {}",
                dtype.str()?
            )));
        }
        let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
        if shape != [rows, cols] {
            return Err(PyValueError::new_err(format!(
                "evaluator {what} must have shape ({rows}, {cols}), got {}",
                arr.getattr("shape")?.repr()?
            )));
        }
        let kind = if arr.cast::<PyArray2<f32>>().is_ok() {
            np.getattr("float32")?
        } else {
            np.getattr("float64")?
        };
        let a = np.call_method1("ascontiguousarray", (arr, kind))?;
        if let Ok(a) = a.cast::<PyArray2<f32>>() {
            return Ok(Answer::F32(a.clone()));
        }
        let a = a
            .cast::<PyArray2<f64>>()
            .map_err(|_| PyValueError::new_err(format!("evaluator {what} must be numbers")))?;
        Ok(Answer::F64(a.clone()))
    }

    /// A copy when the answer shares memory with `buffers` (an evaluator
    /// that hands back part of its inputs), which the next wave overwrites.
    fn apart(self, buffers: &[std::ops::Range<usize>]) -> PyResult<Self> {
        let s = match &self {
            Answer::F32(a) => span(a),
            Answer::F64(a) => span(a),
        };
        if !buffers.iter().any(|b| s.start < b.end && b.start < s.end) {
            return Ok(self);
        }
        Ok(match self {
            Answer::F32(a) => Answer::F32(a.call_method0("copy")?.cast_into::<PyArray2<f32>>()?),
            Answer::F64(a) => Answer::F64(a.call_method0("copy")?.cast_into::<PyArray2<f64>>()?),
        })
    }
}

/// A read-only borrow of an [`Answer`].
enum Held<'py> {
    F32(PyReadonlyArray2<'py, f32>),
    F64(PyReadonlyArray2<'py, f64>),
}

impl<'py> Held<'py> {
    fn of(a: &Answer<'py>) -> PyResult<Self> {
        let busy = |e: numpy::BorrowError| {
            PyRuntimeError::new_err(format!("the evaluator's output is in use: {e}"))
        };
        Ok(match a {
            Answer::F32(a) => Held::F32(a.try_readonly().map_err(busy)?),
            Answer::F64(a) => Held::F64(a.try_readonly().map_err(busy)?),
        })
    }

    fn rows(&self) -> PyResult<Rows<'_>> {
        let e = |e: numpy::AsSliceError| PyRuntimeError::new_err(e.to_string());
        Ok(match self {
            Held::F32(a) => Rows::F32(a.as_slice().map_err(e)?),
            Held::F64(a) => Rows::F64(a.as_slice().map_err(e)?),
        })
    }
}

impl PyEvaluator<'_, '_> {
    /// Run `f` on the whole input buffers, with the GIL released.
    fn with_inputs<T: Send>(
        &mut self,
        f: impl FnOnce(&mut [f32], &mut [bool]) -> T + Send,
    ) -> PyResult<T> {
        let (Some(obs), Some(masks)) = (self.obs.as_ref(), self.masks.as_ref()) else {
            return Err(PyRuntimeError::new_err(
                "internal error: no observation buffer",
            ));
        };
        let (obs, masks) = (obs.bind(self.py), masks.bind(self.py));
        let mut o = obs.try_readwrite().map_err(|e| {
            PyRuntimeError::new_err(format!("the observation buffer is in use: {e}"))
        })?;
        let mut m = masks
            .try_readwrite()
            .map_err(|e| PyRuntimeError::new_err(format!("the mask buffer is in use: {e}")))?;
        let o = o
            .as_slice_mut()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let m = m
            .as_slice_mut()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(self.py.detach(|| f(o, m)))
    }
}

impl Evaluator for PyEvaluator<'_, '_> {
    type Error = PyErr;

    fn check(&mut self) -> PyResult<()> {
        self.py.check_signals()
    }

    fn inputs<T: Send>(
        &mut self,
        rows: usize,
        fill: impl FnOnce(&mut [f32], &mut [bool]) -> T + Send,
    ) -> PyResult<T> {
        let py = self.py;
        let [c, h, w] = self.shape;
        if self
            .obs
            .as_ref()
            .is_none_or(|o| o.bind(py).shape()[0] < rows)
        {
            let (obs, masks) = match take_spare(py, rows, [c, h, w], self.actions) {
                Some(spare) => spare,
                None => (
                    PyArray4::<f32>::zeros(py, [rows, c, h, w], false).unbind(),
                    PyArray2::<bool>::zeros(py, [rows, self.actions], false).unbind(),
                ),
            };
            (*self.obs, *self.masks) = (Some(obs), Some(masks));
        }
        self.with_inputs(fill)
    }

    fn evaluate<T: Send>(
        &mut self,
        leaves: usize,
        take: impl FnOnce(Rows<'_>, Rows<'_>, &mut [f32], &mut [bool]) -> T + Send,
    ) -> PyResult<T> {
        let py = self.py;
        let (Some(obs), Some(masks)) = (self.obs.as_ref(), self.masks.as_ref()) else {
            return Err(PyRuntimeError::new_err(
                "internal error: no observation buffer",
            ));
        };
        let (obs, masks) = (obs.bind(py).clone(), masks.bind(py).clone());
        let out = self
            .f
            .call1((head(obs.as_any(), leaves)?, head(masks.as_any(), leaves)?))?;
        let pair = out.cast::<PyTuple>().ok().filter(|t| t.len() == 2);
        let Some(pair) = pair else {
            return Err(PyValueError::new_err(
                "evaluator must return a tuple (priors, values)",
            ));
        };
        let ours = [span(&obs), span(&masks)];
        let p = Answer::of(&pair.get_item(0)?, "priors", leaves, self.actions)?.apart(&ours)?;
        let v = Answer::of(&pair.get_item(1)?, "values", leaves, self.players)?.apart(&ours)?;
        let (p, v) = (Held::of(&p)?, Held::of(&v)?);
        let (p, v) = (p.rows()?, v.rows()?);
        self.with_inputs(|o, m| take(p, v, o, m))
    }
}

/// An observation and a mask buffer.
type Inputs = (Py<PyArray4<f32>>, Py<PyArray2<bool>>);

/// The input buffers of the last search dropped, for the next search of
/// the same shapes: a one-off search a move (self-play) then writes into
/// memory already mapped rather than fresh pages (a page fault per 4 KiB
/// on first touch).
static SPARE: std::sync::Mutex<Option<Inputs>> = std::sync::Mutex::new(None);

/// The spare buffers, if they have room for `rows` leaves of these shapes
/// and nothing else holds them (no view an evaluator kept: its contents
/// would change under it).
fn take_spare(
    py: Python<'_>,
    rows: usize,
    [c, h, w]: [usize; 3],
    actions: usize,
) -> Option<Inputs> {
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    let fits = spare.as_ref().is_some_and(|(o, m)| {
        let (o, m) = (o.bind(py), m.bind(py));
        // SAFETY: live objects (bound), read with the GIL held.
        let alone = |x: &Bound<'_, PyAny>| unsafe { pyo3::ffi::Py_REFCNT(x.as_ptr()) } == 1;
        alone(o.as_any())
            && alone(m.as_any())
            && o.shape() == [rows, c, h, w]
            && m.shape() == [rows, actions]
    });
    if fits {
        spare.take()
    } else {
        None
    }
}

impl Drop for PyBatchedMcts {
    fn drop(&mut self) {
        if let (Some(o), Some(m)) = (self.obs.take(), self.masks.take()) {
            // Kept within the bound of the dropped searches' trees.
            let bytes = Python::attach(|py| {
                o.bind(py).len() * std::mem::size_of::<f32>() + m.bind(py).len()
            });
            if bytes <= hexcore_core::search::batched::SPARE_BYTES {
                let old = SPARE
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .replace((o, m));
                // Dropped after the lock: freeing arrays runs Python code.
                drop(old);
            }
        }
    }
}

fn batch_error(py: Python<'_>, e: BatchError<PyErr>) -> PyErr {
    e.into_pyerr(py)
}

/// The searches family: one [`BatchedMcts`] for whichever game.
pub struct Batches;

impl PerGame for Batches {
    type Of<G: Member> = BatchedMcts<G>;
}

/// The core games of `games` if they are all `G`s.
fn all_of<'a, G: Member>(games: impl Iterator<Item = &'a AnyGame>) -> Option<Vec<&'a G>> {
    games.map(|a| G::ref_of(a).map(|s| &s.g)).collect()
}

fn make<'a, G: Member>(
    py: Python<'_>,
    games: impl Iterator<Item = &'a AnyGame>,
    opts: &BatchedOptions,
) -> PyResult<BatchedMcts<G>> {
    let Some(gs) = all_of::<G>(games) else {
        return Err(PyValueError::new_err(
            "games must all have the same type and spec",
        ));
    };
    BatchedMcts::of(&gs, opts).map_err(|e| batch_error(py, BatchError::never(e)))
}

#[pyclass(name = "_BatchedMCTS", module = "hexcore._core")]
pub struct PyBatchedMcts {
    /// Copies of the roots with their histories (`None`: not kept, for a
    /// one-off search that never reads them).
    games: Option<Vec<AnyGame>>,
    inner: Any<Batches>,
    evaluator: Py<PyAny>,
    obs: Option<Py<PyArray4<f32>>>,
    masks: Option<Py<PyArray2<bool>>>,
    shape: [usize; 3],
    actions: usize,
}

#[pymethods]
impl PyBatchedMcts {
    #[new]
    #[pyo3(signature = (games, evaluator, algorithm="puct", c_puct=1.25, dirichlet_alpha=0.3, dirichlet_fraction=0.25,
                        max_considered=Int::of(16), gumbel_scale=1.0, leaves_per_tree=Int::of(1), threads=None, seed=None,
                        relative_values=false, keep_games=true))]
    fn new(
        py: Python<'_>,
        games: Vec<Bound<'_, PyAny>>,
        evaluator: Bound<'_, PyAny>,
        algorithm: &str,
        c_puct: f64,
        dirichlet_alpha: f64,
        dirichlet_fraction: f64,
        max_considered: Int,
        gumbel_scale: f64,
        leaves_per_tree: Int,
        threads: Option<Int>,
        seed: Option<crate::options::Seed>,
        relative_values: bool,
        keep_games: bool,
    ) -> PyResult<Self> {
        if !evaluator.is_callable() {
            return Err(PyTypeError::new_err("evaluator must be callable"));
        }
        let algorithm: Algorithm = algorithm
            .parse()
            .map_err(|e: hexcore_core::spec::ChoiceError| options_error(e.into()))?;
        let seed = seed.map_or(0, |s| s.0);
        let opts = BatchedOptions {
            algorithm,
            c_puct,
            dirichlet_alpha,
            dirichlet_fraction,
            max_considered: limits::max_considered(max_considered).map_err(options_error)?,
            gumbel_scale,
            leaves_per_tree: limits::leaves_per_tree(leaves_per_tree).map_err(options_error)?,
            threads: limits::threads(threads).map_err(options_error)?,
            seed,
            relative_values,
        };
        opts.check().map_err(options_error)?;
        let held = games
            .iter()
            .map(|g| AnyGame::borrow_of(g, "batched_search"))
            .collect::<PyResult<Vec<_>>>()?;
        let Some(first) = held.first().map(|g| &g.any) else {
            return Err(PyValueError::new_err("games must not be empty"));
        };
        for (i, g) in held.iter().map(|g| &g.any).enumerate() {
            // Games of one type: their specs are compared by the search.
            if g.class_name() != first.class_name() {
                let (spec, spec0) = (
                    dispatch!(g, s => s.g.spec()),
                    dispatch!(first, s => s.g.spec()),
                );
                return Err(PyValueError::new_err(format!(
                    "games must all have the same type and spec; game {i} is {} {spec:?}, game 0 is {} {spec0:?}",
                    g.class_name(),
                    first.class_name()
                )));
            }
        }
        let inner: Any<Batches> =
            map_any!(first, _ => make(py, held.iter().map(|g| &g.any), &opts)?);
        let (shape, actions) = dispatch!(first, s => (s.g.observation_shape(), s.g.num_actions()));
        let games = keep_games.then(|| held.iter().map(|g| g.any.clone()).collect());
        drop(held);
        Ok(PyBatchedMcts {
            games,
            inner,
            evaluator: evaluator.unbind(),
            obs: None,
            masks: None,
            shape,
            actions,
        })
    }

    /// Run `simulations` more simulations per tree; returns (actions,
    /// policies, visits, root_values, q_values, simulations, evaluations).
    fn search<'py>(&mut self, py: Python<'py>, simulations: Int) -> PyResult<Bound<'py, PyTuple>> {
        let simulations = limits::simulations(simulations).map_err(options_error)?;
        let f = self.evaluator.bind(py).clone();
        let players = dispatch!(&self.inner, m => m.num_players());
        let mut ev = PyEvaluator {
            py,
            f: &f,
            obs: &mut self.obs,
            masks: &mut self.masks,
            shape: self.shape,
            actions: self.actions,
            players,
        };
        let r = dispatch!(&mut self.inner, m => m.search(simulations, &mut ev))
            .map_err(|e| batch_error(py, e))?;
        let b = r.actions.len();
        let a = self.actions;
        let actions: Vec<i64> = r.actions.iter().map(|&x| x as i64).collect();
        let visits: Vec<i64> = r.visits.iter().map(|&x| x as i64).collect();
        (
            PyArray1::from_vec(py, actions),
            PyArray1::from_vec(py, r.policies).reshape([b, a])?,
            PyArray1::from_vec(py, visits).reshape([b, a])?,
            PyArray1::from_vec(py, r.root_values).reshape([b, players])?,
            PyArray1::from_vec(py, r.q_values).reshape([b, a])?,
            r.simulations,
            r.evaluations,
        )
            .into_pyobject(py)
    }

    /// Play one action per root and keep the subtrees below them.
    fn advance(&mut self, py: Python<'_>, actions: Vec<Int>) -> PyResult<()> {
        self.kept()?;
        let raw: Vec<i64> = actions.iter().map(|a| a.value).collect();
        let acts = dispatch!(&self.inner, m => m.check_actions(&raw)).map_err(|e| match e {
            ActionsError::Length(e) => options_error(e),
            ActionsError::Illegal { index, error } => {
                MoveError::new(error.reason, format!("game {index}: {}", error.message))
                    .into_pyerr(py)
            }
        })?;
        for (g, &a) in self.kept()?.iter_mut().zip(&acts) {
            dispatch!(g, s => s.apply_action(a as i64)).map_err(|e| e.into_pyerr(py))?;
        }
        dispatch!(&mut self.inner, m => m.advance(&acts));
        Ok(())
    }

    /// Put a copy of `game` (the others' type and spec, not finished) in
    /// place of game `index`, with a fresh tree; the other trees stay.
    fn replace(&mut self, py: Python<'_>, index: Int, game: Bound<'_, PyAny>) -> PyResult<()> {
        let g = AnyGame::copy_of(&game, "replace")?;
        let games = self.kept()?;
        let b = games.len();
        let i = limits::in_range("index", index, 0, b as i64 - 1).map_err(options_error)? as usize;
        let first = &games[0];
        // Games of one type: their specs are compared by the search (`same_spec`).
        if g.class_name() != first.class_name() {
            let (spec, spec0) = (
                dispatch!(&g, s => s.g.spec()),
                dispatch!(first, s => s.g.spec()),
            );
            return Err(PyValueError::new_err(format!(
                "the game must have the type and spec of the others ({} {spec0:?}), got {} {spec:?}",
                first.class_name(),
                g.class_name()
            )));
        }
        zip_any!((&mut self.inner, &g), (m, s) => m.replace(i, s.g.clone()), Err(BatchError::Invalid(OptionsError::new("game", "game must be of the others' type"))))
            .map_err(|e| batch_error(py, BatchError::never(e)))?;
        self.kept()?[i] = g;
        Ok(())
    }

    /// Simulations through each root, the kept ones included.
    #[getter]
    fn root_visits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(
            py,
            dispatch!(&self.inner, m => m.root_visits())
                .into_iter()
                .map(i64::from)
                .collect(),
        )
    }

    /// Copies of the current roots (with their histories).
    #[getter]
    fn games(&mut self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.kept()?
            .iter()
            .map(|g| wrap(py, PyGame::new(g.clone())))
            .collect()
    }
}

impl PyBatchedMcts {
    /// The kept copies of the roots.
    fn kept(&mut self) -> PyResult<&mut Vec<AnyGame>> {
        self.games.as_mut().ok_or_else(|| {
            PyRuntimeError::new_err("this search keeps no copies of its games (keep_games=False)")
        })
    }
}
