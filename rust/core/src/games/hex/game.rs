//! [`Game`] for [`Hex`].

use std::sync::atomic::AtomicBool;

use rand::Rng;
use smallvec::smallvec;

use crate::bitset::BitIter;
use crate::board::Board;
use crate::game::{Action, Game, MoveActions, MoveError, Reason, WinnerMask};
use crate::playout::{play_random_stones, StonePlacing};
use crate::rng::below;

use super::{Hex, HexUndo, HEX_OBSERVATION_PLANES, O, X};

impl Game for Hex {
    type Undo = HexUndo;
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

    /// The empty cells in increasing order, then `swap` when on offer
    /// (OpenSpiel's order).
    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.winners != 0 {
            return;
        }
        out.reserve(self.num_empty as usize + 1);
        for (wi, &w) in self.empty.words().iter().enumerate() {
            out.extend(BitIter(w).map(|t| (wi * 64 + t as usize) as Action));
        }
        if self.swap_available {
            out.push(self.board.num_cells() as Action);
        }
    }

    fn apply_action(&mut self, action: Action) {
        self.apply(action, false);
    }

    fn apply_action_undoable(&mut self, action: Action) -> HexUndo {
        let (swap_available, first) = (self.swap_available, self.first);
        let placed = self
            .apply(action, true)
            .expect("an undoable placement returns its record");
        HexUndo {
            action,
            placed,
            swap_available,
            first,
        }
    }

    fn undo_action(&mut self, undo: HexUndo) {
        let n = self.board.num_cells();
        if undo.action as usize == n {
            let x_cell = undo.first as usize;
            let o_cell = self.mirror(x_cell);
            self.take(o_cell, undo.placed);
            // x's stone was alone on the board: it joins nothing.
            self.put(x_cell, X, false);
            self.to_move = O;
        } else {
            self.take(undo.action as usize, undo.placed);
            self.to_move = 3 - self.to_move;
        }
        self.ply -= 1;
        self.swap_available = undo.swap_available;
        self.first = undo.first;
    }

    fn action_to_string(&self, action: Action) -> String {
        if action as usize == self.board.num_cells() {
            "swap".to_string()
        } else {
            self.board.label(action as usize).to_string()
        }
    }

    fn is_legal_action(&self, action: Action) -> bool {
        let n = self.board.num_cells();
        if self.winners != 0 || action as usize > n {
            return false;
        }
        if action as usize == n {
            return self.swap_available;
        }
        self.empty.contains(action as usize)
    }

    fn single_action_turns(&self) -> bool {
        true
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn count_moves_after(&self, action: Action) -> Option<u128> {
        let cell = action as usize;
        if self.winners != 0 || cell >= self.board.num_cells() {
            return None;
        }
        if self.wins_at(cell) {
            return Some(0);
        }
        let swap_next = self.swap && self.ply == 0 && self.to_move == X;
        Some((self.num_empty as usize - 1 + swap_next as usize) as u128)
    }

    fn random_action<R: Rng>(&self, rng: &mut R, _buf: &mut Vec<Action>) -> Option<Action> {
        if self.winners != 0 {
            return None;
        }
        let count = self.num_empty as usize;
        let n = self.board.num_cells();
        if !self.swap_available && 2 * count >= n {
            // At least half the cells are empty: draw cells until an empty
            // one comes (two draws on average at worst), uniform over them.
            loop {
                let c = below(rng, n);
                if self.empty.contains(c) {
                    return Some(c as Action);
                }
            }
        }
        let i = below(rng, count + self.swap_available as usize);
        Some(if i == count {
            self.board.num_cells() as Action
        } else {
            self.empty.select(i).expect("i < number of empty cells") as Action
        })
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
        (self.num_empty as usize + self.swap_available as usize) as u128
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        let t = text.trim().to_ascii_lowercase();
        if self.winners != 0 {
            return Err(MoveError::new(
                Reason::GameOver,
                format!("the game is over; {t:?} cannot be played"),
            ));
        }
        if t == "swap" {
            return if self.swap_available {
                Ok(smallvec![self.board.num_cells() as Action])
            } else {
                Err(self.swap_error())
            };
        }
        let cell = self.board.index(&t).ok_or_else(|| {
            let letters = t.bytes().take_while(|b| b.is_ascii_lowercase()).count();
            let looks_like_cell = letters > 0
                && letters < t.len()
                && t[letters..].bytes().all(|b| b.is_ascii_digit());
            if looks_like_cell {
                MoveError::new(
                    Reason::UnknownCell,
                    format!(
                        "{t:?} is not a cell of this {}x{} board",
                        self.rows, self.cols
                    ),
                )
            } else {
                MoveError::new(
                    Reason::Syntax,
                    format!("{t:?} is not a Hex move: a cell such as \"a1\" or \"swap\""),
                )
            }
        })?;
        if !self.empty.contains(cell) {
            return Err(MoveError::new(
                Reason::Occupied,
                format!("cell {t} is occupied"),
            ));
        }
        Ok(smallvec![cell as Action])
    }

    fn format_move(&self, actions: &[Action]) -> String {
        actions
            .iter()
            .map(|&a| self.action_to_string(a))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn observation_shape(&self) -> [usize; 3] {
        [
            HEX_OBSERVATION_PLANES,
            self.rows as usize,
            self.cols as usize,
        ]
    }

    /// Planes (4, rows, cols), cell `(row, col)` at `[.., row, col]`:
    /// stones of the player to move, the opponent's stones, a constant
    /// plane equal to 1 when o is to move, and a constant plane equal to 1
    /// when the swap is on offer. Written by `observation.rs`
    /// ([`crate::vector::BatchGame::write_observation`]), which batches use
    /// too.
    fn observation(&self, out: &mut [f32]) {
        crate::vector::write_f32_observation(self, self.board.cell_layout(), out)
    }

    /// Column letters on top, rows numbered down the left, x and o stones.
    fn diagram(&self) -> String {
        let label_w = self.rows.to_string().len();
        let letters: Vec<String> = (0..self.cols as usize)
            .map(crate::board::row_name)
            .collect();
        let mut out = format!("{:w$} {}\n", "", letters.join(" "), w = label_w);
        out.push_str(&self.board.diagram(|c| match self.colour[c] {
            X => 'x',
            O => 'o',
            _ => '.',
        }));
        out
    }
}

impl StonePlacing for Hex {
    fn ended(&self) -> bool {
        self.winners != 0
    }
    fn empty_cells(&self) -> &[u64] {
        self.empty_words()
    }
    fn swap_open(&self) -> bool {
        self.swap_available
    }
    fn take_swap(&mut self) -> bool {
        self.do_swap(false);
        true
    }
    fn place_stone(&mut self, cell: usize) {
        self.do_place(cell, false);
    }
}
