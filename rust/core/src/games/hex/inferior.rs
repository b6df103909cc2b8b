//! Inferior cells for the solver's values pass ([`super::solver`]): cells
//! that can be filled in without changing the value of the position.
//!
//! The *ring* of an empty cell is its six neighbouring places in turn
//! around it; a place off the board is the edge beyond it (x's past the
//! first or last row, o's past the first or last column, neither past a
//! corner). Two places next to each other in the ring touch (two cells
//! next to a common cell and to each other, or a cell of an edge row and
//! that edge), so a colour's places that form one unbroken arc are joined
//! without the cell.
//! - A cell is *dead* when, however its empty neighbours are filled, each
//!   colour's places in its ring form at most one arc: a stone there never
//!   joins anything that was not joined already, so its colour never
//!   changes the winner. Dead cells can be filled with either colour.
//! - Two empty neighbours `a`, `b` are *captured* by a player when a stone
//!   of theirs on either makes the other dead (with the opponent's stone
//!   on it): whatever the opponent plays in the pair, the player answers
//!   on the other cell and the opponent's stone is dead. The pair can be
//!   filled with the player's stones.
//!
//! Both tests read the ring only, and more stones never bring a dead cell
//! back to life, so a filled cell stays fillable after any other move:
//! the value of the position is the value of the position with the cells
//! filled, and the value of each move outside them is the value of that
//! move on the filled board. The solver searches the filled board's empty
//! cells only, and decides the position when filling ends the game.
//!
//! A move `b` is *dominated* by a move `a` of the same player when, after
//! their stone on `a`, `b` is dead or in a pair captured by them: the
//! position after `a` is then the position after `a` with `b` (and its
//! partner) filled with their stones, at least as good for them as the
//! position after `b` alone, since a stone never hurts its owner. A
//! dominated move is dropped only while its dominator is kept, so every
//! dropped move is no better than one kept.

use super::{Hex, O, X};

/// Ring places: empty, an x stone or edge, an o stone or edge, neither (a
/// corner off the board).
const WALL: u8 = 3;

/// The neighbour offsets in (row, column) in turn around a cell.
const RING: [(i32, i32); 6] = [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)];

/// Per ring (two bits a place, place `j` at bits `2j`): whether the cell is dead.
static DEAD: std::sync::LazyLock<Vec<bool>> =
    std::sync::LazyLock::new(|| (0..1 << 12).map(ring_is_dead).collect());

/// Whether each colour's places form at most one arc in every filling of
/// the empty places of `ring`.
fn ring_is_dead(ring: usize) -> bool {
    let place = |j: usize| (ring >> (2 * j) & 3) as u8;
    let empties: Vec<usize> = (0..6).filter(|&j| place(j) == 0).collect();
    (0..1usize << empties.len()).all(|fill| {
        let mut colours = [0u8; 6];
        for (j, c) in colours.iter_mut().enumerate() {
            *c = place(j);
        }
        for (i, &j) in empties.iter().enumerate() {
            colours[j] = if fill >> i & 1 != 0 { X } else { O };
        }
        [X, O].into_iter().all(|k| {
            (0..6)
                .filter(|&j| colours[j] == k && colours[(j + 5) % 6] != k)
                .count()
                <= 1
        })
    })
}

impl Hex {
    /// The ring of `cell` (see the module documentation), with `with` as
    /// `(cell, colour)` read in place of that cell's colour.
    fn ring(&self, cell: usize, with: (usize, u8)) -> usize {
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        let (r, c) = (cell as i32 / cols, cell as i32 % cols);
        let mut ring = 0;
        for (j, &(dr, dc)) in RING.iter().enumerate() {
            let (nr, nc) = (r + dr, c + dc);
            let inside = (0..rows).contains(&nr) as u8 | ((0..cols).contains(&nc) as u8) << 1;
            let v = match inside {
                3 => {
                    let nb = (nr * cols + nc) as usize;
                    if nb == with.0 {
                        with.1
                    } else {
                        self.colour[nb]
                    }
                }
                2 => X,
                1 => O,
                _ => WALL,
            };
            ring |= (v as usize) << (2 * j);
        }
        ring
    }

    /// Whether empty `cell` is dead with `with` read as in [`Hex::ring`].
    fn dead_with(&self, cell: usize, with: (usize, u8)) -> bool {
        DEAD[self.ring(cell, with)]
    }

    /// Whether empty neighbours `a` and `b` are a pair captured by colour
    /// `p`: their stone on either makes the other dead.
    fn captured(&self, a: usize, b: usize, p: u8) -> bool {
        self.dead_with(b, (a, p)) && self.dead_with(a, (b, p))
    }

    /// Fill this position's dead cells (with o's stones, `dead`) and
    /// captured pairs (with their owner's, `captured`) until none is left
    /// or the game is over; boards of at most 64 cells and two rows and
    /// columns, no swap on offer. The player to move is kept.
    pub(super) fn fill_inferior(&mut self, dead: bool, captured: bool) {
        if self.rows < 2 || self.cols < 2 {
            return;
        }
        let mut changed = true;
        while changed && self.winners == 0 {
            changed = false;
            let mut e = self.empty.words()[0];
            while e != 0 && self.winners == 0 {
                let a = e.trailing_zeros() as usize;
                e &= e - 1;
                if self.colour[a] != 0 {
                    continue;
                }
                if dead && self.dead_with(a, (usize::MAX, 0)) {
                    self.put(a, O, false);
                    changed = true;
                    continue;
                }
                if !captured {
                    continue;
                }
                for k in 0..self.board.neighbors(a).len() {
                    let b = self.board.neighbors(a)[k] as usize;
                    if b < a || self.colour[b] != 0 {
                        continue;
                    }
                    let owner = [X, O].into_iter().find(|&p| self.captured(a, b, p));
                    if let Some(p) = owner {
                        // both cells, even when the first ends the game:
                        // a cell left empty would look free to give away
                        // (the certificates' concessions)
                        self.put(a, p, false);
                        self.put(b, p, false);
                        changed = true;
                        break;
                    }
                }
            }
        }
    }
}

impl Hex {
    /// The cells of `moves` (empty cells) that the player to move may drop
    /// as dominated by another of `moves` (module documentation); boards
    /// of at most 64 cells and two rows and columns, no swap on offer.
    pub(super) fn dominated(&self, moves: u64) -> u64 {
        if self.rows < 2 || self.cols < 2 {
            return 0;
        }
        let me = self.to_move;
        let mut dropped = 0u64;
        let mut f = self.clone();
        let mut m = moves;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            if dropped >> a & 1 != 0 {
                continue;
            }
            f.clone_from(self);
            f.put(a, me, false);
            if f.winners != 0 {
                continue;
            }
            for &b in self.board.neighbors(a) {
                let b = b as usize;
                if moves >> b & 1 == 0 || dropped >> b & 1 != 0 {
                    continue;
                }
                let inferior = f.dead_with(b, (usize::MAX, 0))
                    || f.board.neighbors(b).iter().any(|&c| {
                        let c = c as usize;
                        f.colour[c] == 0 && f.captured(b, c, me)
                    });
                if inferior {
                    dropped |= 1 << b;
                }
            }
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn ring_of(places: [u8; 6]) -> usize {
        places
            .iter()
            .enumerate()
            .fold(0, |r, (j, &v)| r | (v as usize) << (2 * j))
    }

    #[test]
    fn the_dead_rings() {
        // four of one colour in a row: dead whatever the other two are
        assert!(ring_is_dead(ring_of([X, X, X, X, 0, 0])));
        // three and three: dead
        assert!(ring_is_dead(ring_of([X, X, X, O, O, O])));
        // an empty ring, two stones apart, a lone wall between empties: alive
        assert!(!ring_is_dead(ring_of([0; 6])));
        assert!(!ring_is_dead(ring_of([X, 0, X, 0, 0, 0])));
        assert!(!ring_is_dead(ring_of([X, X, X, O, 0, O])));
        assert!(!ring_is_dead(ring_of([X, X, WALL, X, O, O])));
    }

    /// Filling in keeps the player to move and every stone.
    #[test]
    fn fill_in_keeps_the_side_to_move_and_the_stones() {
        let mut g = Hex::new(3, 3, false).unwrap();
        for a in [4, 0, 8] {
            g.apply_action(a);
        }
        let before = g.colours().to_vec();
        let mut f = g.clone();
        f.fill_inferior(true, true);
        assert_eq!(f.to_move(), g.to_move());
        assert!(before
            .iter()
            .zip(f.colours())
            .all(|(&b, &a)| b == 0 || a == b));
    }
}
