//! Hex knowledge for the exact solver ([`crate::solve`]): which of a
//! position's actions to search, in which order.
//!
//! Only sound cuts, exact for the value and for the distance to the end:
//! * a stone that wins at once is the best move there is (a win in one
//!   ply): it is the only one searched;
//! * when the opponent has a cell that would win at once and the player to
//!   move has none, every other move loses in two plies; a stone on that
//!   cell loses no sooner (a stone never helps the other side), so it is
//!   the only one searched. With two such cells every move loses in two
//!   plies, and one of them is searched.
//!
//! The rest are searched centre first (the cells nearest the middle of
//! the rhombus), which is where strong Hex moves lie; the search's history
//! scores reorder them from there.

use crate::game::Action;

use super::Hex;

impl Hex {
    /// Whether a stone of `colour` on empty `cell` would join its edges.
    #[inline]
    fn would_win(&self, cell: usize, colour: u8) -> bool {
        let mut bits = self.edge_bits(cell, colour);
        for &nb in self.board.neighbors(cell) {
            if self.groups.colour(nb as usize) == colour {
                bits |= self.groups.group_mask(nb as usize);
            }
        }
        bits == super::BOTH_EDGES
    }

    /// Twice the distance from `cell` to the centre of the board, in the
    /// hexagonal metric of the rhombus (neighbours differ by (0, 1), (1, 0)
    /// or (1, -1) in (row, col)).
    fn centre_distance(&self, cell: usize) -> u32 {
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        let (r, c) = ((cell as i32 / cols) * 2 - (rows - 1), (cell as i32 % cols) * 2 - (cols - 1));
        let s = -r - c;
        (r.abs() + c.abs() + s.abs()) as u32 / 2
    }

    /// The solver's action list: see the module documentation. `acts` holds
    /// the legal actions of an unfinished position.
    pub(super) fn solver_action_list(&self, acts: &mut Vec<Action>) {
        let n = self.board.num_cells();
        let me = self.to_move;
        if let Some(&a) = acts.iter().find(|&&a| (a as usize) < n && self.would_win(a as usize, me)) {
            acts.clear();
            acts.push(a);
            return;
        }
        // the swap (o's first turn only) changes the stones: no cut then
        if !self.swap_available {
            if let Some(&a) = acts.iter().find(|&&a| self.would_win(a as usize, 3 - me)) {
                acts.clear();
                acts.push(a);
                return;
            }
        }
        acts.sort_unstable_by_key(|&a| (if (a as usize) < n { self.centre_distance(a as usize) } else { 0 }, a));
    }
}
