//! Hex knowledge for the exact solver ([`crate::solve`]): which of a
//! position's actions to search, in which order.
//!
//! Only cuts that keep both the value and the distance to the end exact.
//! A *threat* of a player is an empty cell where a stone of theirs would
//! join their two edges; a *double threat* is a move after which they have
//! two threats. Two facts make the cuts sound: a stone never helps the
//! other player, and (the Hex theorem) a top-bottom chain and a left-right
//! chain always share a cell, so the two players cannot both have threats
//! unless they share them: when the opponent has two threats, the player
//! to move has none.
//! 1. A threat of the player to move wins at once: the only move searched.
//! 2. Else a threat of the opponent must be taken: every other move loses
//!    in two plies, taking it loses no sooner (one of them is searched).
//! 3. Else a double threat of the player to move wins in three plies, the
//!    quickest win left: the only move searched.
//! 4. Else, for each double threat `m` of the opponent with threats
//!    `w1, w2, ...`, a move outside {m, w1, w2} (outside {m} when there are
//!    three threats or more) loses in four plies: the opponent plays `m`,
//!    and the player to move, without a threat of their own, can block
//!    only one. Those moves are dropped; moves inside lose no sooner. When
//!    no move is inside all of them, every move loses in four plies and one
//!    is searched.
//!
//! What is left is searched centre first (the cells nearest the middle of
//! the rhombus), where strong Hex moves lie; the search's history scores
//! reorder them from there. Cuts 2-4 are skipped while the swap is on
//! offer (it changes the stones), and on boards over 64 cells.

use crate::game::Action;

use super::{Hex, BOTH_EDGES};

/// Per player, what a stone on each empty cell would reach (boards of at
/// most 64 cells, cells as bits).
struct Reach {
    /// Empty cells where a stone would touch the first / second edge
    /// (directly or through the groups it joins).
    edge: [u64; 2],
    /// Per group root: the empty cells next to the group.
    libs: [u64; 64],
}

impl Hex {
    /// Whether a stone of `colour` on empty `cell` would join its edges.
    #[inline]
    fn would_win(&self, cell: usize, colour: u8) -> bool {
        self.reach_bits(cell, colour) == BOTH_EDGES
    }

    /// The edge bits of the group a stone of `colour` on empty `cell` would
    /// make.
    #[inline]
    fn reach_bits(&self, cell: usize, colour: u8) -> u32 {
        let mut bits = self.edge_bits(cell, colour);
        for &nb in self.board.neighbors(cell) {
            if self.groups.colour(nb as usize) == colour {
                bits |= self.groups.group_mask(nb as usize);
            }
        }
        bits
    }

    fn neighbour_mask(&self, cell: usize) -> u64 {
        self.board.neighbors(cell).iter().fold(0, |m, &nb| m | 1 << nb)
    }

    fn reach(&self, colour: u8, empty: u64) -> Reach {
        let mut r = Reach { edge: [0; 2], libs: [0; 64] };
        let mut e = empty;
        while e != 0 {
            let c = e.trailing_zeros() as usize;
            e &= e - 1;
            let mut bits = self.edge_bits(c, colour);
            for &nb in self.board.neighbors(c) {
                let nb = nb as usize;
                if self.groups.colour(nb) == colour {
                    bits |= self.groups.group_mask(nb);
                    r.libs[self.groups.root_of_stone(nb)] |= 1 << c;
                }
            }
            for (k, edge) in r.edge.iter_mut().enumerate() {
                if bits >> k & 1 != 0 {
                    *edge |= 1 << c;
                }
            }
        }
        r
    }

    /// The threats `colour` would have after a stone on empty `m`.
    fn threats_after(&self, r: &Reach, colour: u8, m: usize, empty: u64) -> u64 {
        let mut near = self.neighbour_mask(m);
        let mut bits = self.edge_bits(m, colour);
        for &nb in self.board.neighbors(m) {
            let nb = nb as usize;
            if self.groups.colour(nb) == colour {
                bits |= self.groups.group_mask(nb);
                near |= r.libs[self.groups.root_of_stone(nb)];
            }
        }
        let mut w = near & empty & !(1 << m);
        for (k, edge) in r.edge.iter().enumerate() {
            if bits >> k & 1 == 0 {
                w &= edge;
            }
        }
        w
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
        let you = 3 - me;
        let keep = |acts: &mut Vec<Action>, a: Action| {
            acts.clear();
            acts.push(a);
        };
        if let Some(&a) = acts.iter().find(|&&a| (a as usize) < n && self.would_win(a as usize, me)) {
            return keep(acts, a);
        }
        if !self.swap_available {
            if let Some(&a) = acts.iter().find(|&&a| self.would_win(a as usize, you)) {
                return keep(acts, a);
            }
            if n <= 64 {
                let empty = self.empty.words()[0];
                let mine = self.reach(me, empty);
                let mut e = empty;
                while e != 0 {
                    let m = e.trailing_zeros() as usize;
                    e &= e - 1;
                    if self.threats_after(&mine, me, m, empty).count_ones() >= 2 {
                        return keep(acts, m as Action);
                    }
                }
                let theirs = self.reach(you, empty);
                let mut must = empty;
                let mut e = empty;
                while e != 0 {
                    let m = e.trailing_zeros() as usize;
                    e &= e - 1;
                    let w = self.threats_after(&theirs, you, m, empty);
                    match w.count_ones() {
                        0 | 1 => {}
                        2 => must &= w | 1 << m,
                        _ => must &= 1 << m,
                    }
                }
                if must == 0 {
                    return keep(acts, empty.trailing_zeros() as Action);
                }
                acts.retain(|&a| must >> a & 1 != 0);
            }
        }
        acts.sort_unstable_by_key(|&a| (if (a as usize) < n { self.centre_distance(a as usize) } else { 0 }, a));
    }
}
