//! Observations of a batch: the element types of its buffers, where a
//! board's cells sit in an observation plane ([`CellLayout`]), and the
//! optional direct writer a game gives ([`BatchGame`]).

use crate::board::Board;
use crate::game::Game;

/// An observation element type of the batch buffers. A `u8` holds a plane
/// value `v` in [0, 1] as `round(255 v)` (an indicator is 0 or 255).
pub trait ObsElem: Copy {
    fn from_bool(b: bool) -> Self;
}

impl ObsElem for bool {
    #[inline(always)]
    fn from_bool(b: bool) -> bool {
        b
    }
}

impl ObsElem for u8 {
    #[inline(always)]
    fn from_bool(b: bool) -> u8 {
        if b {
            255
        } else {
            0
        }
    }
}

impl ObsElem for f32 {
    #[inline(always)]
    fn from_bool(b: bool) -> f32 {
        b as u8 as f32
    }
}

/// Where a board's cells sit in an observation plane: runs of cells with
/// consecutive numbers on consecutive plane indices, and which grid points
/// are cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellLayout {
    pub(crate) plane: usize,
    /// (first cell, its index in the plane, length), by plane index.
    runs: Vec<(usize, usize, usize)>,
    /// 0xff on cells, 0 elsewhere (one per plane index).
    pub(crate) mask: Vec<u8>,
}

/// Bytes per block copy in [`CellLayout::spread`].
const BLOCK: usize = 16;

impl CellLayout {
    pub fn of(board: &Board) -> CellLayout {
        let (h, w) = board.grid_shape();
        let plane = h * w;
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        let mut on_board = vec![false; plane];
        for cell in 0..board.num_cells() {
            let (r, c) = board.grid_pos(cell);
            let i = r * w + c;
            on_board[i] = true;
            match runs.last_mut() {
                Some((c0, i0, len)) if *c0 + *len == cell && *i0 + *len == i => *len += 1,
                _ => runs.push((cell, i, 1)),
            }
        }
        runs.sort_by_key(|r| r.1);
        let mask = on_board.iter().map(|&b| if b { 0xff } else { 0 }).collect();
        CellLayout { plane, runs, mask }
    }

    /// `values` (one byte per cell) placed on the plane: the returned slice
    /// (of `scratch`) holds `values[cell]` at each cell's index and
    /// unspecified bytes elsewhere (to be masked by `self.mask`). Runs are
    /// copied in whole blocks of [`BLOCK`] bytes, by increasing plane index,
    /// so a block's spill past its run is overwritten by the next run or
    /// lands off the board.
    pub(crate) fn spread<'s>(&self, values: &[u8], scratch: &'s mut Vec<u8>) -> &'s [u8] {
        if scratch.len() < self.plane + BLOCK {
            scratch.resize(self.plane + BLOCK, 0);
        }
        for &(c0, i0, len) in &self.runs {
            let (mut c, mut i) = (c0, i0);
            let end = c0 + len;
            while c < end {
                match values.get(c..c + BLOCK) {
                    Some(src) => {
                        let src: &[u8; BLOCK] = src.try_into().expect("a block");
                        let dst: &mut [u8; BLOCK] = (&mut scratch[i..i + BLOCK]).try_into().expect("a block");
                        *dst = *src;
                    }
                    None => {
                        let k = end - c;
                        scratch[i..i + k].copy_from_slice(&values[c..end]);
                    }
                }
                c += BLOCK;
                i += BLOCK;
            }
        }
        &scratch[..self.plane]
    }
}

/// What a batch needs of a game beyond [`Game`]: an optional direct writer
/// of its observation (same values as [`Game::observation`], without the
/// float32 planes in between).
pub trait BatchGame: Game {
    /// True when [`BatchGame::write_observation`] is implemented.
    fn direct_observation(&self) -> bool {
        false
    }

    /// Write the observation into `out` (`observation_shape` values), the
    /// board's cells placed by `layout` (made by [`CellLayout::of`] from this
    /// game's board).
    /// `scratch` is working space.
    fn write_observation<T: ObsElem>(&self, _layout: &CellLayout, _out: &mut [T], _scratch: &mut Vec<u8>) {
        unreachable!("no direct observation writer")
    }

    /// Write the legal-action mask (`num_actions` flags) straight from the
    /// game's state and return the number of legal actions, or `None` (and
    /// write nothing) when the game has no direct mask writer: the batch
    /// then goes through [`Game::legal_actions`]. A game that has one
    /// returns `Some` in every state, gives [`BatchGame::nth_legal`] too,
    /// and its [`Game::is_legal_action`] agrees with the mask: the batch
    /// then keeps no masks of its own and checks actions with it.
    fn write_legal_mask(&self, _mask: &mut [bool]) -> Option<usize> {
        None
    }

    /// Prefetch the cache lines of this game's state (beyond the value
    /// itself) that a step reads or writes: the batch calls it a few envs
    /// ahead so that they are in cache by the step. A hint only.
    #[inline(always)]
    fn prefetch(&self) {}

    /// The `k`-th of [`Game::legal_actions`] (in that order), `k` below the
    /// count [`BatchGame::write_legal_mask`] returned.
    fn nth_legal(&self, _k: usize) -> crate::game::Action {
        unreachable!("no direct mask writer")
    }
}

/// No direct layout: the env's observation goes through [`Game::observation`].
pub(super) const NO_LAYOUT: u32 = u32::MAX;

/// The index of `board`'s layout in `layouts`, added when new.
pub(super) fn layout_index(layouts: &mut Vec<CellLayout>, board: &Board) -> u32 {
    let l = CellLayout::of(board);
    match layouts.iter().position(|x| *x == l) {
        Some(k) => k as u32,
        None => {
            layouts.push(l);
            (layouts.len() - 1) as u32
        }
    }
}
