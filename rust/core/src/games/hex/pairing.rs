//! Pairing strategies: positions a player has already won, shown by
//! disjoint pairs of empty cells (the proof certificates' pairing leaves,
//! checked by `hexcore.reference.certificate`).
//!
//! The nodes are the player's two edges and each group of the player's
//! stones (a group touching an edge is that edge). A pair of empty cells
//! {a, b} that both touch the same two nodes X and Y links them: whatever
//! the opponent does, the player takes the other cell when one is taken and
//! so holds a cell touching X and Y (a bridge, or a two-cell edge template).
//! Pairs with no cell in common whose links join the two edges win against
//! any play: on the full board the player holds a chain, so the opponent
//! never does (extra stones never hurt in Hex).
//!
//! The search below finds such pairs along one path of links from the
//! first edge to the second (depth first, a bounded number of steps); it
//! need not find every pairing, only a correct one.

use std::collections::HashMap;

use super::{Hex, X};

/// Steps of the path search before it gives up.
const BUDGET: u32 = 4096;

struct Links {
    /// `links[x]`: the nodes linked to `x`, with the empty cells touching
    /// both (two or more).
    links: Vec<Vec<(usize, Vec<u16>)>>,
    used: Vec<bool>,
    visited: Vec<bool>,
    path: Vec<[usize; 2]>,
    budget: u32,
}

impl Links {
    /// A path of disjoint pairs from node `x` to node 1 (the second edge).
    fn search(&mut self, x: usize) -> bool {
        if x == 1 {
            return true;
        }
        self.visited[x] = true;
        for i in 0..self.links[x].len() {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            let y = self.links[x][i].0;
            if self.visited[y] {
                continue;
            }
            let free: Vec<u16> = self.links[x][i]
                .1
                .iter()
                .copied()
                .filter(|&c| !self.used[c as usize])
                .take(2)
                .collect();
            if free.len() < 2 {
                continue;
            }
            let pair = [free[0] as usize, free[1] as usize];
            self.used[pair[0]] = true;
            self.used[pair[1]] = true;
            self.path.push(pair);
            if self.search(y) {
                return true;
            }
            self.path.pop();
            self.used[pair[0]] = false;
            self.used[pair[1]] = false;
        }
        self.visited[x] = false;
        false
    }
}

impl Hex {
    /// Disjoint pairs of empty cells that win the unfinished position for
    /// `player` against any play (module docs), if the search finds them;
    /// never while the swap is on offer (it would change the stones).
    pub(super) fn pairing_strategy(&self, player: usize) -> Option<Vec<[usize; 2]>> {
        if self.winners != 0 || self.swap_available || !(1..=2).contains(&player) {
            return None;
        }
        let me = player as u8;
        let shift = if me == X { 0 } else { 2 };
        let board = &*self.board;
        let n = self.colour.len();
        // each of the player's stones: its node (0, 1: the edges; 2..: groups)
        let mut node = vec![usize::MAX; n];
        let mut nodes = 2;
        let mut group: Vec<usize> = Vec::new();
        for start in 0..n {
            if self.colour[start] != me || node[start] != usize::MAX {
                continue;
            }
            group.clear();
            group.push(start);
            node[start] = 0;
            let mut i = 0;
            let mut edges = 0u8;
            while i < group.len() {
                let c = group[i];
                i += 1;
                edges |= self.edges[c] >> shift & 3;
                for &nb in board.neighbors(c) {
                    let nb = nb as usize;
                    if self.colour[nb] == me && node[nb] == usize::MAX {
                        node[nb] = 0;
                        group.push(nb);
                    }
                }
            }
            let id = match edges {
                1 => 0,
                2 => 1,
                3 => return None, // a winning chain: the game is over
                _ => {
                    nodes += 1;
                    nodes - 1
                }
            };
            for &c in &group {
                node[c] = id;
            }
        }
        // the empty cells touching each two nodes
        let mut common: HashMap<(usize, usize), Vec<u16>> = HashMap::new();
        let mut touched: Vec<usize> = Vec::with_capacity(8);
        for c in 0..n {
            if self.colour[c] != 0 {
                continue;
            }
            touched.clear();
            let e = self.edges[c] >> shift & 3;
            for (bit, id) in [(1, 0), (2, 1)] {
                if e & bit != 0 {
                    touched.push(id);
                }
            }
            for &nb in board.neighbors(c) {
                let id = node[nb as usize];
                if self.colour[nb as usize] == me && !touched.contains(&id) {
                    touched.push(id);
                }
            }
            for i in 0..touched.len() {
                for j in i + 1..touched.len() {
                    let (a, b) = (touched[i].min(touched[j]), touched[i].max(touched[j]));
                    common.entry((a, b)).or_default().push(c as u16);
                }
            }
        }
        let mut links = vec![Vec::new(); nodes];
        let mut keys: Vec<_> = common
            .into_iter()
            .filter(|(_, cells)| cells.len() >= 2)
            .collect();
        keys.sort_unstable();
        for ((a, b), cells) in keys {
            links[a].push((b, cells.clone()));
            links[b].push((a, cells));
        }
        // the second edge first, then the nodes in order
        for l in &mut links {
            l.sort_by_key(|&(y, _)| (y != 1, y));
        }
        let mut s = Links {
            links,
            used: vec![false; n],
            visited: vec![false; nodes],
            path: Vec::new(),
            budget: BUDGET,
        };
        s.search(0).then_some(s.path)
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::Hex;

    fn play(g: &mut Hex, cells: &[&str]) {
        for c in cells {
            let i = g.board().labels().iter().position(|l| l == c).unwrap();
            g.apply_action(i as u32);
        }
    }

    #[test]
    fn the_empty_board_has_none() {
        let g = Hex::new(5, 5, false).unwrap();
        assert_eq!(g.pairing_strategy(1), None);
        assert_eq!(g.pairing_strategy(2), None);
    }

    #[test]
    fn a_centre_stone_on_3x3_is_paired_to_both_edges() {
        // b2's neighbours in the top row (b1, c1) and the bottom row (a3,
        // b3): a pair to each edge
        let mut g = Hex::new(3, 3, false).unwrap();
        play(&mut g, &["b2"]);
        let p = g.pairing_strategy(1).expect("a pairing");
        assert_eq!(p.len(), 2);
        let mut cells: Vec<usize> = p.iter().flatten().copied().collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), 4);
        // o, with no stone, has none
        assert_eq!(g.pairing_strategy(2), None);
    }

    #[test]
    fn a_one_row_board_is_any_two_cells() {
        let g = Hex::new(1, 3, false).unwrap();
        assert_eq!(g.pairing_strategy(1).map(|p| p.len()), Some(1));
    }

    #[test]
    fn none_while_the_swap_is_on_offer() {
        let mut g = Hex::new(3, 3, true).unwrap();
        play(&mut g, &["b2"]);
        assert_eq!(g.pairing_strategy(1), None);
    }
}
