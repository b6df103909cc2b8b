//! Y's observation: one writer of its planes (float32), which
//! [`Game::observation`] calls and batches use too ([`BatchGame`] without a
//! direct writer: a batch of another element type converts the planes);
//! and the legal-action mask written straight from the empty cells.

use crate::game::{Action, Game};
use crate::vector::{write_cells_mask, write_planes_by_action, BatchGame};

use super::Y;

impl Y {
    /// The planes of [`Game::observation`] (described there).
    pub(super) fn write_planes(&self, out: &mut [f32]) {
        write_planes_by_action(
            &self.colour,
            &self.actions,
            self.to_move,
            self.num_actions(),
            out,
        )
    }
}

/// The observation goes through [`Game::observation`] (no direct writer);
/// the legal-action mask is written straight from the empty cells.
impl BatchGame for Y {
    /// The empty cells' action ids.
    fn write_legal_mask(&self, mask: &mut [bool]) -> Option<usize> {
        if self.is_over() {
            mask.fill(false);
            return Some(0);
        }
        Some(write_cells_mask(self.empty_words(), &self.actions, mask))
    }

    /// The `k`-th empty cell's action id (cells and ids increase together).
    fn nth_legal(&self, k: usize) -> Action {
        self.cell_to_action(
            self.empty_select(k)
                .expect("k below the number of legal actions"),
        )
    }
}
