//! `game_class!` defines a Python class for a [`Game`](hexcore_core::Game)
//! with the methods every game shares; each game's own file adds its
//! constructor and extras in a second `#[pymethods]` block.

#[macro_export]
macro_rules! game_class {
    ($py:ident, $game:ty, $name:literal) => {
        $crate::game_class!($py, $game, $name, setup_keys = []);
    };
    ($py:ident, $game:ty, $name:literal, setup_keys = [$($key:literal),*]) => {
        #[pyclass(name = $name, module = "hexcore._core", subclass)]
        pub struct $py {
            pub s: $crate::session::Session<$game>,
        }

        impl $py {
            pub fn wrap(g: $game, setup: Option<$crate::session::Setup>) -> Self {
                $py { s: $crate::session::Session::new(g, setup) }
            }
        }

        #[pymethods]
        impl $py {
            /// The spec string that rebuilds this game's options.
            #[getter]
            fn spec(&self) -> String {
                hexcore_core::Game::spec(&self.s.g)
            }

            #[getter]
            fn board(&self) -> $crate::board::PyBoard {
                $crate::board::PyBoard { inner: std::sync::Arc::new(hexcore_core::Game::board(&self.s.g).clone()) }
            }

            #[getter]
            fn num_players(&self) -> usize {
                hexcore_core::Game::num_players(&self.s.g)
            }

            /// 1-based player to move.
            #[getter]
            fn to_move(&self) -> usize {
                hexcore_core::Game::to_move(&self.s.g)
            }

            #[getter]
            fn is_over(&self) -> bool {
                hexcore_core::Game::is_over(&self.s.g)
            }

            /// Players sharing the result of a finished game (all players =
            /// draw); empty while the game goes on.
            #[getter]
            fn winners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                pyo3::types::PyTuple::new(py, hexcore_core::winners_of(hexcore_core::Game::winner_mask(&self.s.g)))
            }

            #[getter]
            fn zobrist(&self) -> u64 {
                hexcore_core::Game::zobrist(&self.s.g)
            }

            /// Moves played so far, in the game's notation.
            #[getter]
            fn history(&self) -> Vec<String> {
                self.s.history()
            }

            /// Number of complete moves played.
            #[getter]
            fn ply(&self) -> usize {
                self.s.num_moves()
            }

            /// Actions of the turn in progress (empty between turns).
            #[getter]
            fn pending_actions(&self) -> Vec<u32> {
                self.s.pending().to_vec()
            }

            /// Every action applied since the start.
            #[getter]
            fn actions(&self) -> Vec<u32> {
                self.s.all_actions().to_vec()
            }

            fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<String>> {
                let g = &self.s.g;
                if !self.s.pending().is_empty() {
                    return Err($crate::errors::error(py, "IllegalMoveError",
                        "a turn is in progress; legal_moves() lists whole moves between turns".into(), Some("mid_turn")));
                }
                let mut out = Vec::new();
                match hexcore_core::Game::legal_moves(g, 100_000, &mut out) {
                    Ok(()) => Ok(out.iter().map(|m| hexcore_core::Game::format_move(g, m)).collect()),
                    Err(n) => Err($crate::errors::error(py, "TooManyMovesError",
                        format!("{n} legal moves is too many to list; use count_moves() or the action API"), None)),
                }
            }

            /// Exact number of legal moves (a Python int of any size).
            fn count_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                if !self.s.pending().is_empty() {
                    return Err($crate::errors::error(py, "IllegalMoveError",
                        "a turn is in progress; count_moves() counts whole moves between turns".into(), Some("mid_turn")));
                }
                match hexcore_core::Game::count_moves(&self.s.g) { n if n < u128::MAX => pyo3::IntoPyObjectExt::into_bound_py_any(n, py), _ => pyo3::IntoPyObjectExt::into_bound_py_any(hexcore_core::Game::count_moves_big(&self.s.g), py) }
            }

            /// Play a move in the game's notation; raises IllegalMoveError
            /// (a ValueError) with a `.reason` and leaves the game unchanged.
            fn play(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<String> {
                let mv = $crate::errors::move_text(mv)?;
                self.s.play(&mv).map_err(|e| $crate::errors::move_error(py, e))
            }

            /// Undo the last move (or the turn in progress); returns its text.
            fn undo(&mut self) -> PyResult<String> {
                self.s.undo().ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("nothing to undo"))
            }

            fn copy(&self) -> Self {
                $py { s: self.s.clone() }
            }

            fn __copy__(&self) -> Self {
                self.copy()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                self.copy()
            }

            fn cells<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i8>> {
                let g = &self.s.g;
                let n = hexcore_core::Game::board(g).num_cells();
                let v: Vec<i8> = (0..n).map(|c| hexcore_core::Game::cell_value(g, c)).collect();
                numpy::PyArray1::from_vec(py, v)
            }

            #[getter]
            fn num_actions(&self) -> usize {
                hexcore_core::Game::num_actions(&self.s.g)
            }

            fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i32>> {
                let mut v: Vec<u32> = Vec::with_capacity(64);
                hexcore_core::Game::legal_actions(&self.s.g, &mut v);
                // u32 action ids always fit i32 (num_actions is far below 2^31).
                let v: &[i32] = unsafe { std::slice::from_raw_parts(v.as_ptr() as *const i32, v.len()) };
                numpy::PyArray1::from_slice(py, v)
            }

            fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<bool>> {
                let g = &self.s.g;
                let mut v = Vec::new();
                hexcore_core::Game::legal_actions(g, &mut v);
                let mut mask = vec![false; hexcore_core::Game::num_actions(g)];
                for a in v {
                    mask[a as usize] = true;
                }
                numpy::PyArray1::from_slice(py, &mask)
            }

            /// Apply one action id (checked); raises IllegalMoveError.
            fn apply_action(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
                let a: i64 = $crate::errors::action_id(py, action)?;
                self.s.apply_action(a).map_err(|e| $crate::errors::move_error(py, e))
            }

            fn action_to_string(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
                let a: i64 = $crate::errors::action_id(py, action)?;
                let n = hexcore_core::Game::num_actions(&self.s.g);
                if a < 0 || a as u64 >= n as u64 {
                    return Err($crate::errors::error(py, "IllegalMoveError",
                        format!("action {a} is out of range 0..{n}"), Some("action_out_of_range")));
                }
                Ok(hexcore_core::Game::action_to_string(&self.s.g, a as u32))
            }

            /// Float32 planes (C, H, W) on the board's axial grid.
            fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
                use numpy::PyArrayMethods;
                let g = &self.s.g;
                let shape = hexcore_core::Game::observation_shape(g);
                let mut v = vec![0f32; shape[0] * shape[1] * shape[2]];
                hexcore_core::Game::observation(g, &mut v);
                numpy::PyArray1::from_vec(py, v).reshape(shape)
            }

            #[getter]
            fn observation_shape(&self) -> (usize, usize, usize) {
                let s = hexcore_core::Game::observation_shape(&self.s.g);
                (s[0], s[1], s[2])
            }

            fn diagram(&self) -> String {
                hexcore_core::Game::diagram(&self.s.g)
            }

            fn __str__(&self) -> String {
                hexcore_core::Game::diagram(&self.s.g)
            }

            fn __repr__(&self) -> String {
                let g = &self.s.g;
                let state = if hexcore_core::Game::is_over(g) {
                    format!("over, winners={:?}", hexcore_core::winners_of(hexcore_core::Game::winner_mask(g)))
                } else {
                    format!("to_move={}", hexcore_core::Game::to_move(g))
                };
                format!("<{} {:?} ply={} {}>", $name, hexcore_core::Game::spec(g), self.s.num_moves(), state)
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                let Ok(o) = other.cast::<$py>() else { return false };
                let o = o.borrow();
                let (a, b) = (&self.s.g, &o.s.g);
                let n = hexcore_core::Game::board(a).num_cells();
                hexcore_core::Game::spec(a) == hexcore_core::Game::spec(b)
                    && hexcore_core::Game::zobrist(a) == hexcore_core::Game::zobrist(b)
                    && hexcore_core::Game::to_move(a) == hexcore_core::Game::to_move(b)
                    && self.s.pending() == o.s.pending()
                    && (0..n).all(|c| hexcore_core::Game::cell_value(a, c) == hexcore_core::Game::cell_value(b, c))
            }

            fn __hash__(&self) -> u64 {
                hexcore_core::Game::zobrist(&self.s.g)
            }

            /// Pickle support: rebuilt by replaying the actions.
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String, Option<$crate::session::Setup>, Vec<u32>))> {
                let f = py.import("hexcore._pickle")?.getattr("restore")?;
                Ok((f, ($name.to_string(), hexcore_core::Game::spec(&self.s.g), self.s.setup.clone(), self.s.all_actions().to_vec())))
            }

            /// A test position: `{"c3": 1, "d2": 2}` (Quintun neutrals as "A".."E"),
            /// the player to move and the constructor options.
            #[classmethod]
            #[pyo3(signature = (position, to_move=$crate::errors::Int(1), **options))]
            fn from_position<'py>(cls: &Bound<'py, pyo3::types::PyType>, position: &Bound<'py, PyAny>, to_move: $crate::errors::Int,
                                  options: Option<&Bound<'py, pyo3::types::PyDict>>) -> PyResult<Bound<'py, PyAny>> {
                let py = cls.py();
                // Keywords that describe the position go to `_from_cells` only.
                let setup_keys: &[&str] = &[$($key),*];
                let ctor = pyo3::types::PyDict::new(py);
                if let Some(o) = options {
                    for (k, v) in o.iter() {
                        if !k.extract::<String>().is_ok_and(|k| setup_keys.contains(&k.as_str())) {
                            ctor.set_item(k, v)?;
                        }
                    }
                }
                let empty = cls.call((), Some(&ctor))?;
                let n = empty.getattr("board")?.getattr("num_cells")?.extract::<usize>()?;
                let board = empty.getattr("board")?;
                let items = position.call_method0("items")
                    .map_err(|_| pyo3::exceptions::PyTypeError::new_err("position must be a mapping of cell label to value"))?;
                let mut cells = vec![0i8; n];
                for item in items.try_iter()? {
                    let (label, value): (Bound<'py, PyAny>, Bound<'py, PyAny>) = item?.extract()?;
                    let label: String = label.extract()
                        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("position keys must be cell labels (str)"))?;
                    let cell: usize = board.call_method1("index", (label.as_str(),))?.extract()?;
                    let v: i64 = if let Ok(s) = value.extract::<String>() {
                        let s = s.trim().to_ascii_uppercase();
                        match s.as_str() {
                            "A" | "B" | "C" | "D" | "E" => -((s.as_bytes()[0] - b'A') as i64 + 1),
                            _ => return Err($crate::errors::value_error(format!("position value {s:?} for {label} is not a player number or a neutral letter A-E"))),
                        }
                    } else {
                        value.extract::<i64>().map_err(|_| $crate::errors::value_error(format!("position value for {label} must be an int or a letter")))?
                    };
                    if v < -100 || v > 100 {
                        return Err($crate::errors::value_error(format!("position value {v} for {label} is out of range")));
                    }
                    cells[cell] = v as i8;
                }
                let _ = py;
                cls.getattr("_from_cells")?.call((cells, to_move.0), options)
            }

            /// Replay a list of moves from the start (`Game.replay(["c3", "d2"], size=3)`).
            #[classmethod]
            #[pyo3(signature = (moves, **options))]
            fn replay<'py>(cls: &Bound<'py, pyo3::types::PyType>, moves: &Bound<'py, PyAny>,
                           options: Option<&Bound<'py, pyo3::types::PyDict>>) -> PyResult<Bound<'py, PyAny>> {
                let g = cls.call((), options)?;
                let moves = if let Ok(s) = moves.extract::<String>() {
                    pyo3::types::PyList::new(cls.py(), s.split_whitespace().map(|x| x.to_string()).collect::<Vec<_>>())?.into_any()
                } else {
                    moves.clone()
                };
                for m in moves.try_iter()? {
                    let m = m?;
                    g.call_method1("play", (m,))?;
                }
                Ok(g)
            }

            fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
                slf.py().import("hexcore.render")?.getattr("svg")?.call1((slf,))?.extract()
            }

            /// The set-up start, if any: (cells, to_move, {keyword: value}).
            fn _setup<'py>(&self, py: Python<'py>) -> PyResult<Option<(Vec<i8>, usize, Bound<'py, pyo3::types::PyDict>)>> {
                let Some((cells, to_move, extra)) = &self.s.setup else { return Ok(None) };
                let d = pyo3::types::PyDict::new(py);
                for (k, v) in extra {
                    d.set_item(k, v)?;
                }
                Ok(Some((cells.clone(), *to_move, d)))
            }

            #[pyo3(signature = (depth, unit="move", threads=$crate::errors::Int(1), divide=false))]
            fn _perft<'py>(&self, py: Python<'py>, depth: $crate::errors::Int, unit: &str, threads: $crate::errors::Int, divide: bool) -> PyResult<Bound<'py, PyAny>> {
                use pyo3::IntoPyObjectExt;
                let (depth, threads) = (depth.0, threads.0);
                let unit = $crate::errors::parse_unit(unit)?;
                if !(0..=100_000).contains(&depth) {
                    return Err($crate::errors::value_error(format!("depth must be between 0 and 100000, got {depth}")));
                }
                if threads < 1 || threads > 1024 {
                    return Err($crate::errors::value_error(format!("threads must be between 1 and 1024, got {threads}")));
                }
                if !self.s.pending().is_empty() {
                    return Err($crate::errors::error(py, "IllegalMoveError",
                        "perft starts between turns; finish or undo the turn in progress".into(), Some("mid_turn")));
                }
                let g = self.s.g.clone();
                let (d, t) = (depth as u32, threads as usize);
                if divide {
                    let v = py.detach(move || hexcore_core::divide(&g, d, unit, t));
                    v.into_bound_py_any(py)
                } else {
                    let n = py.detach(move || hexcore_core::perft(&g, d, unit, t));
                    n.into_bound_py_any(py)
                }
            }

            #[pyo3(signature = (n, seed=0, threads=$crate::errors::Int(1), max_plies=u64::MAX))]
            fn _playouts<'py>(&self, py: Python<'py>, n: $crate::errors::Int, seed: u64, threads: $crate::errors::Int, max_plies: u64)
                -> PyResult<(Bound<'py, numpy::PyArray1<u64>>, Bound<'py, numpy::PyArray1<u64>>, Bound<'py, numpy::PyArray1<u8>>, Bound<'py, numpy::PyArray1<bool>>)> {
                let (n, threads) = (n.0, threads.0);
                if !(0..=1i64 << 40).contains(&n) {
                    return Err($crate::errors::value_error(format!("n must be between 0 and 2**40, got {n}")));
                }
                if threads < 1 || threads > 1024 {
                    return Err($crate::errors::value_error(format!("threads must be between 1 and 1024, got {threads}")));
                }
                if !self.s.pending().is_empty() {
                    return Err($crate::errors::error(py, "IllegalMoveError",
                        "playouts start between turns; finish or undo the turn in progress".into(), Some("mid_turn")));
                }
                let g = self.s.g.clone();
                let res = py.detach(move || hexcore_core::playouts(&g, n as usize, seed, threads as usize, max_plies));
                let plies: Vec<u64> = res.iter().map(|r| r.plies).collect();
                let actions: Vec<u64> = res.iter().map(|r| r.actions).collect();
                let winners: Vec<u8> = res.iter().map(|r| r.winners).collect();
                let finished: Vec<bool> = res.iter().map(|r| r.finished).collect();
                Ok((numpy::PyArray1::from_vec(py, plies), numpy::PyArray1::from_vec(py, actions),
                    numpy::PyArray1::from_vec(py, winners), numpy::PyArray1::from_vec(py, finished)))
            }
        }
    };
}
