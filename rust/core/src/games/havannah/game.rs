//! [`Game`] for [`Havannah`].

use std::sync::atomic::AtomicBool;

use rand::Rng;
use smallvec::smallvec;

use crate::bitset::BitIter;
use crate::board::{row_name, Board};
use crate::game::{Action, Game, MoveActions, MoveError, Reason, WinnerMask};
use crate::playout::{play_random_stones, StonePlacing};
use crate::rng::below;

use super::{Havannah, HavannahUndo, HAVANNAH_OBSERVATION_PLANES, O, X};

impl Game for Havannah {
    type Undo = HavannahUndo;
    fn board(&self) -> &Board {
        &self.board
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        let d = 2 * self.size as usize - 1;
        d * d
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

    /// The empty cells' action ids and, while the swap is on offer, x's
    /// stone's, increasing (OpenSpiel's order).
    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.winners != 0 {
            return;
        }
        out.reserve(self.num_empty as usize + 1);
        let start = out.len();
        for (wi, &w) in self.empty.words().iter().enumerate() {
            out.extend(BitIter(w).map(|t| self.actions[wi * 64 + t as usize] as Action));
        }
        if self.swap_available {
            let a = self.actions[self.first as usize] as Action;
            let at = start + out[start..].partition_point(|&b| b < a);
            out.insert(at, a);
        }
    }

    fn apply_action(&mut self, action: Action) {
        self.apply(action, false);
    }

    fn apply_action_undoable(&mut self, action: Action) -> HavannahUndo {
        let (swap_available, first) = (self.swap_available, self.first);
        let (cell, placed) = self.apply(action, true);
        HavannahUndo {
            cell: cell as u16,
            placed,
            swap_available,
            first,
        }
    }

    fn undo_action(&mut self, undo: HavannahUndo) {
        let cell = undo.cell as usize;
        match undo.placed {
            Some(placed) => self.take(cell, placed),
            None => {
                // The swap: the stone is x's again.
                self.hash ^= self.board.zobrist_key(cell, X as usize)
                    ^ self.board.zobrist_key(cell, O as usize);
                self.colour[cell] = X;
            }
        }
        self.to_move = 3 - self.to_move;
        self.ply -= 1;
        self.swap_available = undo.swap_available;
        self.first = undo.first;
    }

    /// OpenSpiel's text: column letter and 1-based row of the id's square.
    fn action_to_string(&self, action: Action) -> String {
        let d = 2 * self.size as usize - 1;
        format!(
            "{}{}",
            row_name(action as usize % d),
            action as usize / d + 1
        )
    }

    fn is_legal_action(&self, action: Action) -> bool {
        self.winners == 0
            && self.action_to_cell(action).is_some_and(|c| {
                self.empty.contains(c) || (self.swap_available && c == self.first as usize)
            })
    }

    fn single_action_turns(&self) -> bool {
        true
    }

    fn cheap_undo(&self) -> bool {
        true
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
                    return Some(self.actions[c] as Action);
                }
            }
        }
        let i = below(rng, count + self.swap_available as usize);
        let c = if i == count {
            self.first as usize
        } else {
            self.empty.select(i).expect("i < number of empty cells")
        };
        Some(self.actions[c] as Action)
    }

    /// [`Havannah::random_action`]'s draws, played at the cell level.
    fn random_rollout<R: Rng>(
        &mut self,
        rng: &mut R,
        max_plies: u64,
        _buf: &mut Vec<Action>,
    ) -> bool {
        let n = self.board.num_cells();
        let mut plies = 0u64;
        while self.winners == 0 {
            let count = self.num_empty as usize;
            let cell = if !self.swap_available && 2 * count >= n {
                loop {
                    let c = below(rng, n);
                    if self.empty.contains(c) {
                        break c;
                    }
                }
            } else {
                let i = below(rng, count + self.swap_available as usize);
                if i == count {
                    usize::MAX
                } else {
                    self.empty.select(i).expect("i < number of empty cells")
                }
            };
            if plies >= max_plies {
                return false;
            }
            if cell == usize::MAX {
                self.do_swap();
            } else {
                self.do_place(cell, false);
            }
            plies += 1;
        }
        true
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
        let cell = self.board.index(&t).ok_or_else(|| {
            let letters = t.bytes().take_while(|b| b.is_ascii_lowercase()).count();
            let looks_like_cell = letters > 0
                && letters < t.len()
                && t[letters..].bytes().all(|b| b.is_ascii_digit());
            if looks_like_cell {
                MoveError::new(
                    Reason::UnknownCell,
                    format!("{t:?} is not a cell of this size-{} board", self.size),
                )
            } else {
                MoveError::new(
                    Reason::Syntax,
                    format!("{t:?} is not a Havannah move: a cell such as \"a1\""),
                )
            }
        })?;
        if !(self.empty.contains(cell) || self.swap_available && cell == self.first as usize) {
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
        let d = 2 * self.size as usize - 1;
        [HAVANNAH_OBSERVATION_PLANES, d, d]
    }

    /// OpenSpiel's planes (3, 2 size - 1, 2 size - 1), cell `(x, y)` at
    /// `[.., y, x]` (its action id): stones of the player to move, the
    /// opponent's stones, the empty cells; all 0 off the board.
    /// Written by `observation.rs`, which batches use too.
    fn observation(&self, out: &mut [f32]) {
        self.write_planes(out)
    }

    /// Rows numbered down the left, x and o stones.
    fn diagram(&self) -> String {
        self.board.diagram(|c| match self.colour[c] {
            X => 'x',
            0 => '.',
            _ => 'o',
        })
    }
}

impl StonePlacing for Havannah {
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
        self.do_swap();
        false
    }
    fn place_stone(&mut self, cell: usize) {
        self.do_place(cell, false);
    }
}
