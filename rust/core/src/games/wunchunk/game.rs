//! The [`Game`] trait for Wunchunk: moves and actions, apply and undo, the
//! end of the game, notation and observation, over the state and mechanics
//! in `mod.rs`.

use super::*;

impl Game for Wunchunk {
    type Undo = WunchunkUndo;

    fn board(&self) -> &Board {
        &self.board
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn num_actions(&self) -> usize {
        self.board.num_cells() * self.ncol() + 3
    }

    fn to_move(&self) -> usize {
        self.st.to_move as usize
    }

    fn is_over(&self) -> bool {
        self.st.over
    }

    fn winner_mask(&self) -> WinnerMask {
        self.st.winners
    }

    fn zobrist(&self) -> u64 {
        self.full_hash()
    }

    fn cell_value(&self, cell: usize) -> i8 {
        self.groups.colour(cell) as i8
    }

    fn mid_turn(&self) -> bool {
        self.st.placed > 0
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.st.over {
            return;
        }
        if self.st.phase == Phase::Choose {
            out.push(self.pass_action());
            out.push(self.swap_action());
            return;
        }
        let n = self.ncol();
        if self.st.allot > self.st.placed {
            if self.st.phase == Phase::Play && self.balance_turn() {
                let limit = self.other_colour_limit();
                for x in self.open_cells().iter() {
                    for c in 1..=n {
                        if if c == 1 {
                            self.colour1_completable(x)
                        } else {
                            x < limit
                        } {
                            out.push(self.place_action(x, c));
                        }
                    }
                }
            } else {
                let plain = self.st.phase == Phase::Play;
                for x in self.open_cells().iter() {
                    for c in 1..=n {
                        if plain || self.placement_ok(x, c as u8) {
                            out.push(self.place_action(x, c));
                        }
                    }
                }
            }
        }
        if self.end_ok() {
            out.push(self.end_action());
        }
        if self.st.placed == 0 {
            out.push(self.pass_action());
            if self.swap_legal() {
                out.push(self.swap_action());
            }
        }
    }

    fn is_legal_action(&self, action: Action) -> bool {
        if self.st.over || action as usize >= self.num_actions() {
            return false;
        }
        let end = self.end_action();
        if action == end {
            return self.end_ok();
        }
        if action == end + 1 {
            return self.st.placed == 0;
        }
        if action == end + 2 {
            return self.swap_legal();
        }
        if self.st.phase == Phase::Choose || self.st.placed >= self.st.allot {
            return false;
        }
        let cell = action as usize / self.ncol();
        let colour = (action as usize % self.ncol() + 1) as u8;
        if !self.open_cells().contains(cell) {
            return false;
        }
        self.placement_ok(cell, colour)
    }

    fn apply_action(&mut self, action: Action) {
        let end = self.end_action();
        if action == end {
            self.end_placement_turn();
        } else if action == end + 1 {
            self.end_turn(true);
            self.st.swap_ready = false;
        } else if action == end + 2 {
            self.do_swap();
        } else {
            let (cell, colour) = self.decode(action as usize);
            self.do_place(cell, colour);
        }
    }

    fn apply_action_undoable(&mut self, action: Action) -> WunchunkUndo {
        let undo = WunchunkUndo {
            action,
            st: self.st,
        };
        self.apply_action(action);
        undo
    }

    /// Undoes in place: an action changes the status and at most one stone,
    /// which `Groups::unplace` takes back (undos come in reverse order).
    fn undo_action(&mut self, undo: WunchunkUndo) {
        if undo.action < self.end_action() {
            let (cell, colour) = self.decode(undo.action as usize);
            self.groups.unplace(cell);
            self.empty.insert(cell);
            self.num_empty += 1;
            self.hash ^= zobrist::piece(cell, colour as u64);
        }
        self.st = undo.st;
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn action_to_string(&self, action: Action) -> String {
        let end = self.end_action();
        if action == end {
            "end".to_string()
        } else if action == end + 1 {
            "pass".to_string()
        } else if action == end + 2 {
            "swap".to_string()
        } else if action > end + 2 {
            format!("action{action}")
        } else {
            let n = self.ncol();
            format!(
                "{}{}",
                action as usize % n + 1,
                self.board.label(action as usize / n)
            )
        }
    }

    fn random_action<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
        if self.st.over {
            return None;
        }
        if self.st.phase == Phase::Play && !self.balance_turn() {
            // placements on open cells x colours, then END (mid-turn) or PASS (+ SWAP)
            let n = self.ncol();
            let open = if self.st.allot > self.st.placed {
                self.open_cells()
            } else {
                Cells::default()
            };
            let places = open.len() * n;
            let extra = if self.st.placed > 0 {
                1
            } else {
                1 + self.swap_legal() as usize
            };
            let i = below(rng, places + extra);
            if i < places {
                let (k, c) = self.decode(i);
                return Some(self.place_action(open.select(k), c as usize));
            }
            let e = self.end_action();
            return Some(if self.st.placed > 0 {
                e
            } else if i == places {
                e + 1
            } else {
                e + 2
            });
        }
        if self.st.phase == Phase::Play {
            // balance turn: rejection sampling over the same candidates
            // (uniform over the legal ones), then the full list if unlucky
            let n = self.ncol();
            let open = if self.st.allot > self.st.placed {
                self.open_cells()
            } else {
                Cells::default()
            };
            let places = open.len() * n;
            let extra = if self.st.placed > 0 {
                1
            } else {
                1 + self.swap_legal() as usize
            };
            let e = self.end_action();
            for _ in 0..32 {
                let i = below(rng, places + extra);
                let a = if i < places {
                    let (x, c) = (open.select(i / n), i % n + 1);
                    if !self.balance_completable(x, c as u8) {
                        continue;
                    }
                    self.place_action(x, c)
                } else if self.st.placed > 0 {
                    if !self.end_ok() {
                        continue;
                    }
                    e
                } else if i == places {
                    e + 1
                } else {
                    e + 2
                };
                return Some(a);
            }
        }
        uniform_action(self, rng, buf)
    }

    fn legal_moves(&self, limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128> {
        if self.st.over {
            return Ok(());
        }
        let count = self.count_moves();
        if count > limit {
            return Err(count);
        }
        debug_assert_eq!(self.st.placed, 0, "legal_moves between turns");
        out.reserve(count.min(1 << 20) as usize);
        if self.st.phase != Phase::Choose && self.st.allot > 0 {
            let mut cur = MoveActions::new();
            if self.st.phase == Phase::Play && !self.balance_turn() {
                self.enumerate_plain(0, 0, &mut cur, out);
            } else {
                self.enumerate_checked(&mut cur, out);
            }
        }
        out.push(smallvec![self.pass_action()]);
        if self.swap_legal() {
            out.push(smallvec![self.swap_action()]);
        }
        Ok(())
    }

    fn count_moves(&self) -> u128 {
        if let Some(c) = self.count_single_stone_balance() {
            return c;
        }
        self.count_saturating()
    }

    fn count_turn_completions(&self) -> Option<u128> {
        if self.st.over && self.st.placed == 0 {
            return Some(0);
        }
        Some(self.count_completions())
    }

    fn count_moves_big(&self) -> num_bigint::BigUint {
        self.count_big()
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        if self.st.over {
            return Err(MoveError::new(
                crate::game::Reason::GameOver,
                format!("the game is over; {text:?} cannot be played"),
            ));
        }
        let t: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        if t.is_empty() {
            return Err(MoveError::new(crate::game::Reason::Syntax, "empty move"));
        }
        if t == "pass" {
            return Ok(smallvec![self.pass_action()]);
        }
        if t == "swap" {
            if self.swap_legal() {
                return Ok(smallvec![self.swap_action()]);
            }
            let why = match (self.balance, self.start) {
                (_, Start::Open) => {
                    "in the open start only the second player's first move may be swap"
                }
                (Balance::Pie, _) => {
                    "swap is only allowed right after the first move placed a stone"
                }
                _ => "this game has no swap (use balance='pie' or start='open')",
            };
            return Err(MoveError::new(
                crate::game::Reason::SwapNotAllowed,
                format!("swap is not allowed here: {why}"),
            ));
        }
        if self.st.phase == Phase::Choose {
            return Err(MoveError::new(
                crate::game::Reason::OpenChoice,
                format!(
                    "{text:?}: in the open start the second player must answer 'pass' or 'swap'"
                ),
            ));
        }
        let mut placed = self.parse_placements(&t, text)?;
        if self.st.phase == Phase::Setup {
            self.check_setup(&placed, text)?;
        }
        placed.sort_unstable();
        if self.balance_turn() {
            let mut g = self.clone();
            for &(cell, colour) in &placed {
                g.put(cell, colour);
            }
            if g.groups.chunk_count(1) > 1 {
                return Err(MoveError::new(
                    crate::game::Reason::Balance,
                    format!("{text:?}: on colour 1's second turn colour 1 must end with at most one chunk (balance rule)"),
                ));
            }
        }
        let mut acts: MoveActions = placed
            .iter()
            .map(|&(c, col)| self.place_action(c, col as usize))
            .collect();
        let last = placed.last().expect("placements").0;
        let more_room = (last + 1..self.board.num_cells())
            .any(|c| self.empty.contains(c) && !placed.iter().any(|p| p.0 == c));
        if placed.len() < self.st.allot as usize && more_room {
            acts.push(self.end_action());
        }
        Ok(acts)
    }

    fn format_move(&self, actions: &[Action]) -> String {
        let end = self.end_action();
        let parts: Vec<String> = actions
            .iter()
            .filter(|&&a| a != end)
            .map(|&a| self.action_to_string(a))
            .collect();
        if parts.is_empty() && actions.contains(&end) {
            return "end".into();
        }
        parts.join(",")
    }

    fn observation_shape(&self) -> [usize; 3] {
        let (h, w) = self.board.grid_shape();
        [self.ncol() + 2, h, w]
    }

    /// Planes: one per colour, starting with the mover's colour and going on
    /// in colour order; the cells of the board; a constant plane holding the
    /// stones the mover may still place this turn, divided by the number of
    /// cells (so every value lies in [0, 1]).
    /// Written by `observation.rs`, which batches use too.
    fn observation(&self, out: &mut [f32]) {
        self.write_planes(out)
    }

    fn diagram(&self) -> String {
        self.board.diagram(|c| match self.groups.colour(c) {
            0 => '.',
            k => (b'0' + k) as char,
        })
    }
}
