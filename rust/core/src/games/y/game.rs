//! [`Game`] for [`Y`].

use std::sync::atomic::AtomicBool;

use rand::Rng;
use smallvec::smallvec;

use crate::bitset::BitIter;
use crate::board::{row_name, Board};
use crate::game::{Action, Game, MoveActions, MoveError, Reason, WinnerMask};
use crate::playout::{play_random_stones, StonePlacing};
use crate::rng::below;

use super::{YUndo, X, Y, Y_OBSERVATION_PLANES};

impl Game for Y {
    type Undo = YUndo;
    fn board(&self) -> &Board {
        &self.board
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        self.size as usize * self.size as usize
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn is_over(&self) -> bool {
        self.winners != 0
    }

    fn winner_mask(&self) -> WinnerMask {
        self.winners
    }

    fn zobrist(&self) -> u64 {
        self.hash ^ self.flags_hash()
    }

    fn cell_value(&self, cell: usize) -> i8 {
        self.colour[cell] as i8
    }

    /// The empty cells' action ids, increasing (OpenSpiel's order).
    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.winners != 0 {
            return;
        }
        out.reserve(self.num_empty as usize);
        for (wi, &w) in self.empty.words().iter().enumerate() {
            out.extend(BitIter(w).map(|t| self.actions[wi * 64 + t as usize] as Action));
        }
    }

    fn apply_action(&mut self, action: Action) {
        self.do_place(self.cells[action as usize] as usize, false);
    }

    fn apply_action_undoable(&mut self, action: Action) -> YUndo {
        let cell = self.cells[action as usize];
        let placed = self
            .do_place(cell as usize, true)
            .expect("an undoable placement returns its record");
        YUndo { cell, placed }
    }

    fn undo_action(&mut self, undo: YUndo) {
        self.take(undo.cell as usize, undo.placed);
        self.to_move = 3 - self.to_move;
    }

    /// OpenSpiel's text: column letter and 1-based row of the id's square.
    fn action_to_string(&self, action: Action) -> String {
        let n = self.size as usize;
        format!(
            "{}{}",
            row_name(action as usize % n),
            action as usize / n + 1
        )
    }

    fn is_legal_action(&self, action: Action) -> bool {
        self.winners == 0
            && self
                .action_to_cell(action)
                .is_some_and(|c| self.empty.contains(c))
    }

    fn single_action_turns(&self) -> bool {
        true
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn count_moves_after(&self, action: Action) -> Option<u128> {
        let cell = self.action_to_cell(action)?;
        if self.winners != 0 {
            return None;
        }
        Some(if self.wins_at(cell) {
            0
        } else {
            self.num_empty as u128 - 1
        })
    }

    fn random_action<R: Rng>(&self, rng: &mut R, _buf: &mut Vec<Action>) -> Option<Action> {
        if self.winners != 0 {
            return None;
        }
        let count = self.num_empty as usize;
        let n = self.board.num_cells();
        if 2 * count >= n {
            // At least half the cells are empty: draw cells until an empty
            // one comes (two draws on average at worst), uniform over them.
            loop {
                let c = below(rng, n);
                if self.empty.contains(c) {
                    return Some(self.actions[c] as Action);
                }
            }
        }
        let c = self
            .empty
            .select(below(rng, count))
            .expect("a draw below the number of empty cells");
        Some(self.actions[c] as Action)
    }

    /// [`play_random_stones`]: uniform over the legal moves at every ply.
    fn play_random<R: Rng>(
        &mut self,
        rng: &mut R,
        max_plies: u64,
        buf: &mut Vec<Action>,
        _stop: &AtomicBool,
    ) -> Option<(u64, u64)> {
        let plies = play_random_stones(self, rng, max_plies, buf);
        Some((plies, plies))
    }

    fn legal_moves(&self, _limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        out.extend(v.into_iter().map(|a| smallvec![a]));
        Ok(())
    }

    fn count_moves(&self) -> u128 {
        if self.winners != 0 {
            return 0;
        }
        self.num_empty as u128
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        if self.winners != 0 {
            return Err(MoveError::new(
                Reason::GameOver,
                format!("the game is over; {t:?} cannot be played"),
            ));
        }
        let cell = self.board.index(&t).ok_or_else(|| {
            let letters = t.bytes().take_while(|b| b.is_ascii_lowercase()).count();
            let looks_like_cell = letters > 0
                && letters < t.len()
                && t[letters..].bytes().all(|b| b.is_ascii_digit());
            if looks_like_cell {
                MoveError::new(
                    Reason::UnknownCell,
                    format!("{t:?} is not a cell of this size-{} triangle", self.size),
                )
            } else {
                MoveError::new(
                    Reason::Syntax,
                    format!("{t:?} is not a Y move: a cell such as \"a1\""),
                )
            }
        })?;
        if !self.empty.contains(cell) {
            return Err(MoveError::new(
                Reason::Occupied,
                format!("cell {t} is occupied"),
            ));
        }
        Ok(smallvec![self.actions[cell] as Action])
    }

    fn format_move(&self, actions: &[Action]) -> String {
        actions
            .iter()
            .map(|&a| self.action_to_string(a))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn observation_shape(&self) -> [usize; 3] {
        [Y_OBSERVATION_PLANES, self.size as usize, self.size as usize]
    }

    /// OpenSpiel's planes (3, size, size), cell `(x, y)` at `[.., y, x]`
    /// (its action id): stones of the player to move, the opponent's
    /// stones, the empty cells; all 0 off the triangle.
    /// Written by `observation.rs`, which batches use too.
    fn observation(&self, out: &mut [f32]) {
        self.write_planes(out)
    }

    /// Column letters on top, rows numbered down the left, x and o stones.
    fn diagram(&self) -> String {
        let label_w = self.size.to_string().len();
        let letters: Vec<String> = (0..self.size as usize).map(row_name).collect();
        let mut out = format!("{:w$} {}\n", "", letters.join(" "), w = label_w);
        out.push_str(&self.board.diagram(|c| match self.colour[c] {
            X => 'x',
            0 => '.',
            _ => 'o',
        }));
        out
    }
}

impl StonePlacing for Y {
    fn ended(&self) -> bool {
        self.winners != 0
    }
    fn empty_cells(&self) -> &[u64] {
        self.empty_words()
    }
    fn place_stone(&mut self, cell: usize) {
        self.do_place(cell, false);
    }
}
