//! Wunchunk's observation: one writer of its planes (float32), which
//! [`crate::game::Game::observation`] calls and batches use too
//! ([`BatchGame`] without a direct writer: a batch of another element type
//! converts the planes).

use crate::vector::BatchGame;

use super::Wunchunk;

impl Wunchunk {
    /// The planes of [`crate::game::Game::observation`] (described there).
    pub(super) fn write_planes(&self, out: &mut [f32]) {
        let (h, w) = self.board.grid_shape();
        let plane = h * w;
        let n = self.ncol();
        out.iter_mut().for_each(|x| *x = 0.0);
        let me = self.mover_colour() as usize;
        let left = (self.st.allot - self.st.placed.min(self.st.allot)) as f32
            / self.board.num_cells() as f32;
        for p in 0..plane {
            out[(n + 1) * plane + p] = left;
        }
        for cell in 0..self.board.num_cells() {
            let (r, c) = self.board.grid_pos(cell);
            let i = r * w + c;
            let v = self.groups.colour(cell) as usize;
            if v != 0 {
                let k = (v + n - me) % n;
                out[k * plane + i] = 1.0;
            }
            out[n * plane + i] = 1.0;
        }
    }
}

impl BatchGame for Wunchunk {}
