//! The [`Game`] trait for Churn: moves and actions, apply and undo, the
//! end of the game, notation and observation, over the state and mechanics
//! in `mod.rs`.

use super::*;

impl Game for Churn {
    type Undo = ChurnUndo;

    fn board(&self) -> &Board {
        &self.board
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        self.board.num_cells() + 1
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn winner_mask(&self) -> WinnerMask {
        self.winners
    }

    fn zobrist(&self) -> u64 {
        self.full_hash()
    }

    fn cell_value(&self, cell: usize) -> i8 {
        self.groups.colour(cell) as i8
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        // The same cells, in the same order, as `legal_cells` alone: the
        // pair cells when there are any are cheaper to find.
        if self.over || !self.iso[self.to_move as usize - 1].is_empty() || !self.pair_cells(out) {
            self.legal_cells(out);
        }
        if self.swap_available() {
            out.push(self.board.num_cells() as Action);
        }
    }

    fn apply_action(&mut self, action: Action) {
        if action as usize == self.board.num_cells() {
            self.do_swap();
        } else {
            self.do_place(action as usize, None);
        }
    }

    fn apply_action_undoable(&mut self, action: Action) -> ChurnUndo {
        let mut undo = ChurnUndo {
            action,
            removed: 0,
            swap_available: self.swap_available,
        };
        if action as usize == self.board.num_cells() {
            self.do_swap();
        } else {
            let mut log = std::mem::take(&mut self.removal_log);
            let before = log.len();
            self.do_place(action as usize, Some(&mut log));
            undo.removed = (log.len() - before) as u32;
            self.removal_log = log;
        }
        undo
    }

    /// Undoes a placement in place: the group the stone joined is lifted,
    /// its other stones and the removed ones are put back (their groups form
    /// again as they were). A swap is undone by rebuilding.
    fn undo_action(&mut self, undo: ChurnUndo) {
        let n = self.board.num_cells();
        let mover = 3 - self.to_move;
        if undo.action as usize == n {
            let mut colours = self.groups.colours().to_vec();
            let cell = (0..n).find(|&c| colours[c] == 2).expect("swapped stone");
            colours[cell] = 1;
            let board = self.board.clone();
            self.groups.rebuild(&board, &colours);
            self.rebuild();
            self.to_move = 2;
        } else if undo.removed == 0 && self.groups.group_size(undo.action as usize) == 1 {
            // A stone placed alone (most placements near the start): lifting
            // it is the whole undo, no members to collect and put back.
            self.take_group(undo.action as usize, mover, None);
            self.to_move = mover;
        } else {
            let cell = undo.action as usize;
            let group: smallvec::SmallVec<[u16; 64]> =
                self.groups.members(cell).map(|c| c as u16).collect();
            self.take_group(cell, mover, None);
            let mut log = std::mem::take(&mut self.removal_log);
            let from = log.len() - undo.removed as usize;
            for &c in group
                .iter()
                .filter(|&&c| c as usize != cell)
                .chain(&log[from..])
            {
                self.put(c as usize, mover);
            }
            log.truncate(from);
            self.removal_log = log;
            self.to_move = mover;
        }
        self.ply -= 1;
        self.swap_available = undo.swap_available;
        self.check_end();
    }

    fn action_to_string(&self, action: Action) -> String {
        if action as usize == self.board.num_cells() {
            "swap".to_string()
        } else {
            self.board.label(action as usize).to_string()
        }
    }

    fn single_action_turns(&self) -> bool {
        true
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn is_legal_action(&self, action: Action) -> bool {
        let n = self.board.num_cells();
        if self.over || action as usize > n {
            return false;
        }
        if action as usize == n {
            return self.swap_available();
        }
        let k = self.to_move as usize - 1;
        if !self.iso[k].is_empty() {
            return self.iso[k].contains(action as usize);
        }
        let mut buf = Vec::new();
        self.legal_cells(&mut buf);
        buf.contains(&action)
    }

    fn random_action<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Action>) -> Option<Action> {
        if self.over {
            return None;
        }
        let k = self.to_move as usize - 1;
        let extra = self.swap_available() as usize;
        let iso = &self.iso[k];
        let count = iso.len();
        if count > 0 {
            let i = below(rng, count + extra);
            return Some(if i == count {
                self.board.num_cells() as Action
            } else {
                iso.select(i).unwrap() as Action
            });
        }
        buf.clear();
        if !self.pair_cells(buf) {
            self.legal_cells(buf);
        }
        if extra != 0 {
            buf.push(self.board.num_cells() as Action);
        }
        Some(buf[below(rng, buf.len())])
    }

    fn legal_moves(&self, _limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        out.extend(v.into_iter().map(|a| smallvec![a]));
        Ok(())
    }

    /// The replies after placing on `action` (a legal cell), worked out from
    /// this position: the placement only changes the mover's groups, so the
    /// opponent's isolation and group sizes are known once the mover's
    /// removals are. `swap` is left to the caller.
    fn count_moves_after(&self, action: Action) -> Option<u128> {
        let cell = action as usize;
        let n = self.board.num_cells();
        if self.over || cell >= n {
            return None;
        }
        let (k, o) = (self.to_move as usize - 1, 2 - self.to_move as usize);
        let colour = self.to_move;
        let cyt = self.board.cyclic_padded_table();
        // SAFETY: `cell` is a cell (checked above).
        let s = unsafe { formed_size_at(&self.nmask[k], cyt, &self.groups, cell) };
        // The groups the stone joins (every run of friendly neighbours has a
        // head), and the other mover groups smaller than the group formed.
        // SAFETY: as above.
        let joined =
            unsafe { head_roots(&self.nmask[k], cyt, &self.groups, cell) }.unwrap_or([NO_CELL; 3]);
        let mut removed: smallvec::SmallVec<[u16; 64]> = smallvec::SmallVec::new();
        if s > 1 {
            for r in self.groups.roots_of(colour) {
                if self.groups.size_at_root(r) < s && !joined.contains(&(r as u16)) {
                    removed.extend(self.groups.members(r).map(|c| c as u16));
                }
            }
        }
        let empty_after = self.num_empty - 1 + removed.len();
        if empty_after == 0 {
            return Some(0);
        }
        let swap = (self.pie && self.ply == 0 && colour == 1) as u128;
        // Opponent's isolated cells: theirs now but `cell`, and freed cells
        // with no opponent neighbour.
        let nm_o = &self.nmask[o];
        let iso = self.iso[o].len() - self.iso[o].contains(cell) as usize
            + removed.iter().filter(|&&c| nm_o[c as usize] == 0).count();
        if iso > 0 {
            return Some(iso as u128 + swap);
        }
        // Otherwise the smallest group the opponent can form, over the empty
        // cells after the move (the opponent's groups are unchanged).
        let others = self
            .empty
            .iter()
            .filter(|&c| c != cell)
            .chain(removed.iter().map(|&c| c as usize));
        // SAFETY: empty and removed cells are cells.
        let count = unsafe { count_smallest(nm_o, cyt, &self.groups, others) };
        Some(count as u128 + swap)
    }

    fn count_moves(&self) -> u128 {
        if self.over {
            return 0;
        }
        let k = self.to_move as usize - 1;
        let n = if !self.iso[k].is_empty() {
            self.iso[k].len()
        } else {
            // SAFETY: members of `empty` are cells.
            unsafe {
                count_smallest(
                    &self.nmask[k],
                    self.board.cyclic_padded_table(),
                    &self.groups,
                    self.empty.iter(),
                )
            }
        };
        (n + self.swap_available() as usize) as u128
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        if self.over {
            return Err(MoveError::new(
                crate::game::Reason::GameOver,
                format!("the game is over; {t:?} cannot be played"),
            ));
        }
        if t == "swap" {
            if self.swap_available() {
                return Ok(smallvec![self.board.num_cells() as Action]);
            }
            let why = if !self.pie {
                "the pie rule is off"
            } else {
                "swap is only allowed as Blue's first move"
            };
            return Err(MoveError::new(
                crate::game::Reason::SwapNotAllowed,
                format!("swap is not allowed here: {why}"),
            ));
        }
        let cell = self.board.index(&t).ok_or_else(|| {
            if t.is_empty() {
                MoveError::new(crate::game::Reason::Syntax, "empty move")
            } else {
                MoveError::new(
                    crate::game::Reason::UnknownCell,
                    format!("{t:?} is not a cell of this board"),
                )
            }
        })?;
        match self.cell_error(cell) {
            Some(e) => Err(e),
            None => Ok(smallvec![cell as Action]),
        }
    }

    fn format_move(&self, actions: &[Action]) -> String {
        actions
            .iter()
            .map(|&a| self.action_to_string(a))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn observation_shape(&self) -> [usize; 3] {
        let (h, w) = self.board.grid_shape();
        [4, h, w]
    }

    /// Planes: stones of the player to move, opponent stones, cells on the
    /// board, and a constant plane equal to 1 when Blue is to move. Written
    /// by `observation.rs` ([`crate::vector::BatchGame::write_observation`]),
    /// which batches use too.
    fn observation(&self, out: &mut [f32]) {
        crate::vector::write_f32_observation(self, self.board.cell_layout(), out)
    }

    fn diagram(&self) -> String {
        self.board.diagram(|c| match self.groups.colour(c) {
            1 => 'R',
            2 => 'B',
            _ => '.',
        })
    }
}
