//! The [`Game`] trait for Quintun: moves and actions, apply and undo, the
//! end of the game, notation and observation, over the state and mechanics
//! in `mod.rs`.

use super::*;

impl Game for Quintun {
    type Undo = QuintunUndo;

    fn board(&self) -> &Board {
        &self.geo.board
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        KINDS * self.geo.board.num_cells() + 1
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn winner_mask(&self) -> WinnerMask {
        self.winners
    }

    fn zobrist(&self) -> u64 {
        self.full_hash()
    }

    fn cell_value(&self, cell: usize) -> i8 {
        self.cells[cell]
    }

    fn mid_turn(&self) -> bool {
        self.pending.is_some()
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if let Some(first) = self.pending {
            let mut v = SmallVec::new();
            self.completions(first, &mut v);
            out.extend(v.into_iter().map(Quintun::neutral_action));
            return;
        }
        if self.over {
            return;
        }
        // In increasing action order (OpenSpiel expects it), a word of
        // cells at a time: the empty Interior cells and the Ring cells that
        // have neutral actions (each colour's in turn). The count is known,
        // so the actions are written into place, with room for eight more:
        // the Interior cells between two Ring cells go a byte at a time
        // (`write_members`), and a Ring cell's colours are each stored and
        // kept by moving the index or not (no branch).
        let geo = &*self.geo;
        let mut by_kind = self.ring.first;
        by_kind[self.ring.new_colour as usize] |= self.ring.new_mask;
        // The colours with neutral actions (often one or two).
        let mut kinds = [(0u32, 0u64); NUM_COLOURS];
        let mut num_kinds = 0;
        for (k, &m) in by_kind.iter().enumerate().skip(1) {
            kinds[num_kinds] = (k as u32, m);
            num_kinds += (m != 0) as usize;
        }
        let swap = self.swap_available();
        let total = (self.num_interior_empty + self.ring.num_new + self.ring.num_first) as usize
            + swap as usize;
        let start = out.len();
        out.resize(start + total + 8, 0);
        let dst = &mut out[start..];
        let mut i = 0;
        for (wi, (&inner, &edge)) in self
            .interior_empty
            .0
            .iter()
            .zip(&self.ring.neutral_cells.0)
            .enumerate()
        {
            let base = 64 * wi as u32;
            let (mut rest, mut e) = (inner, edge);
            while e != 0 {
                let t = e.trailing_zeros();
                e &= e - 1;
                let below = rest & ((1u64 << t) - 1);
                rest ^= below;
                i = write_members(below, base, KINDS as u32, 0, dst, i);
                let c = base + t;
                let bit = 1u64 << geo.pos_of(c as usize);
                for &(k, m) in &kinds[..num_kinds] {
                    dst[i] = c * KINDS as u32 + k;
                    i += (m & bit != 0) as usize;
                }
            }
            i = write_members(rest, base, KINDS as u32, 0, dst, i);
        }
        if swap {
            dst[i] = self.swap_action();
            i += 1;
        }
        out.truncate(start + i);
        debug_assert_eq!(i, total, "legal actions miscounted");
    }

    fn is_legal_action(&self, action: Action) -> bool {
        if action as usize >= self.num_actions() {
            return false;
        }
        if let Some(first) = self.pending {
            return match self.decode(action) {
                Decoded::Neutral(c, k) => self.completes(first, c, k),
                _ => false,
            };
        }
        if self.over {
            return false;
        }
        match self.decode(action) {
            Decoded::Swap => self.swap_available(),
            Decoded::Stone(c) => self.interior_empty.contains(c),
            Decoded::Neutral(c, k) => {
                if k == self.ring.new_colour {
                    self.geo.is_ring(c) && self.ring.new_mask >> self.geo.pos_of(c) & 1 != 0
                } else {
                    self.geo.is_ring(c)
                        && self.ring.first[k as usize] >> self.geo.pos_of(c) & 1 != 0
                }
            }
        }
    }

    fn apply_action(&mut self, action: Action) {
        self.apply(action);
    }

    fn apply_action_undoable(&mut self, action: Action) -> QuintunUndo {
        let mut u = QuintunUndo {
            action,
            hash: self.hash,
            ply: self.ply,
            n3: self.n3,
            n4: self.n4,
            free_index: 0,
            swap_cell: self.swap_cell,
            pending: self.pending,
            to_move: self.to_move,
            over: self.over,
            winners: self.winners,
            masks: 0,
            ring: false,
        };
        match self.decode(action) {
            Decoded::Swap => self.do_swap(),
            Decoded::Stone(c) => {
                u.free_index = self.free_at[c];
                self.stone_move(c);
            }
            Decoded::Neutral(c, k) => (u.masks, u.ring) = self.neutral_move(c, k, true),
        }
        u
    }

    /// Undoes an action in place, from the record and the logs.
    fn undo_action(&mut self, u: QuintunUndo) {
        match self.decode(u.action) {
            Decoded::Swap => {
                let cell = u.swap_cell.expect("a swap had Black's first stone") as usize;
                self.groups.unplace(cell);
                self.groups.place_alone(cell, 1);
                self.cells[cell] = 1;
            }
            Decoded::Stone(c) => {
                self.groups.unplace(c);
                self.cells[c] = 0;
                self.interior_empty.insert(c);
                self.num_interior_empty += 1;
                // put back into the free list where it stood
                let i = u.free_index as usize;
                if i < self.free.len() {
                    let moved = self.free[i];
                    self.free_at[moved as usize] = self.free.len() as u16;
                    self.free.push(moved);
                    self.free[i] = c as u16;
                } else {
                    self.free.push(c as u16);
                }
                self.free_at[c] = i as u16;
            }
            Decoded::Neutral(c, k) => {
                if u.ring {
                    let t = self.ring_log.pop().expect("ring log entry");
                    self.ring = t;
                }
                for _ in 0..u.masks {
                    let (r, m) = self.mask_log.pop().expect("mask log entry");
                    self.groups.set_root_mask(r as usize, m);
                }
                let bit = 1u64 << self.geo.pos_of(c);
                self.cells[c] = 0;
                self.ring_empty |= bit;
                self.colour_ring[k as usize] &= !bit;
                if self.colour_ring[k as usize] == 0 {
                    self.present &= !(1 << (k - 1));
                }
            }
        }
        self.hash = u.hash;
        self.ply = u.ply;
        self.n3 = u.n3;
        self.n4 = u.n4;
        self.swap_cell = u.swap_cell;
        self.pending = u.pending;
        self.to_move = u.to_move;
        self.over = u.over;
        self.winners = u.winners;
    }

    fn cheap_undo(&self) -> bool {
        true
    }

    fn action_to_string(&self, action: Action) -> String {
        match self.decode(action) {
            Decoded::Swap => "swap".to_string(),
            Decoded::Stone(c) => self.geo.label(c).to_string(),
            Decoded::Neutral(c, k) => self.format_neutral((c as u16, k)),
        }
    }

    fn single_action_turns(&self) -> bool {
        self.pending.is_none() && self.ring.num_extends == 0
    }

    fn random_action<R: Rng>(&self, rng: &mut R, _buf: &mut Vec<Action>) -> Option<Action> {
        if let Some(first) = self.pending {
            let mut v = SmallVec::new();
            self.completions(first, &mut v);
            return Some(Quintun::neutral_action(v[below(rng, v.len())]));
        }
        if self.over {
            return None;
        }
        let stones = self.num_interior_empty as usize;
        let news = self.ring.num_new as usize;
        let exts = self.ring.num_first as usize;
        let total = stones + news + exts + self.swap_available() as usize;
        if total == 0 {
            return None;
        }
        let mut i = below(rng, total);
        if i < stones {
            return Some((self.free[i] as usize * KINDS) as Action);
        }
        i -= stones;
        if i < news {
            let cell = self.geo.cell_at(select64(self.ring.new_mask, i as u32));
            return Some(Quintun::neutral_action((cell as u16, self.ring.new_colour)));
        }
        i -= news;
        if i < exts {
            for k in 1..=NUM_COLOURS {
                let c = self.ring.first[k].count_ones() as usize;
                if i < c {
                    let p = select64(self.ring.first[k], i as u32);
                    return Some(Quintun::neutral_action((
                        self.geo.cell_at(p) as u16,
                        k as u8,
                    )));
                }
                i -= c;
            }
            unreachable!("first halves counted");
        }
        Some(self.swap_action())
    }

    fn legal_moves(&self, _limit: u128, out: &mut Vec<MoveActions>) -> Result<(), u128> {
        if self.over || self.pending.is_some() {
            return Ok(());
        }
        out.extend(
            self.interior_empty
                .iter()
                .map(|c| -> MoveActions { smallvec![(c * KINDS) as Action] }),
        );
        let mut m = self.ring.new_mask;
        while m != 0 {
            let p = m.trailing_zeros();
            m &= m - 1;
            out.push(smallvec![Quintun::neutral_action((
                self.geo.cell_at(p) as u16,
                self.ring.new_colour
            ))]);
        }
        let mut v = SmallVec::new();
        for k in 1..=NUM_COLOURS {
            let mut m = self.ring.first[k];
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                let first = (self.geo.cell_at(p) as u16, k as u8);
                v.clear();
                self.completions(first, &mut v);
                for &second in &v {
                    out.push(smallvec![
                        Quintun::neutral_action(first),
                        Quintun::neutral_action(second)
                    ]);
                }
            }
        }
        if self.swap_available() {
            out.push(smallvec![self.swap_action()]);
        }
        Ok(())
    }

    fn count_moves(&self) -> u128 {
        let (a, b, c, d) = self.count_by_kind();
        (a + b + c + d) as u128
    }

    fn parse_move(&self, text: &str) -> Result<MoveActions, MoveError> {
        if self.over {
            return Err(MoveError::new(
                crate::game::Reason::GameOver,
                "the game is over",
            ));
        }
        let mv = self.read_move(text)?;
        // The record's swap: White's first move repeating Black's first cell.
        if let (Parsed::Stone(c), Some(s)) = (mv, self.swap_cell) {
            if c == s as usize && self.swap_available() {
                return Ok(smallvec![self.swap_action()]);
            }
        }
        self.check(&mv)
    }

    fn format_move(&self, actions: &[Action]) -> String {
        match actions {
            [a] => self.action_to_string(*a),
            [a, b] => match (self.decode(*a), self.decode(*b)) {
                (Decoded::Neutral(c1, k1), Decoded::Neutral(c2, k2)) => {
                    self.format_extend((c1 as u16, k1), (c2 as u16, k2))
                }
                _ => format!(
                    "{},{}",
                    self.action_to_string(*a),
                    self.action_to_string(*b)
                ),
            },
            _ => actions
                .iter()
                .map(|&a| self.action_to_string(a))
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    fn observation_shape(&self) -> [usize; 3] {
        let (h, w) = self.geo.board.grid_shape();
        [11, h, w]
    }

    /// Planes: the mover's stones, the opponent's, neutral colours A..E (5),
    /// Ring cells, cells on the board, the pending EXTEND stone, and a
    /// constant plane equal to 1 when White is to move. Written by
    /// `observation.rs` ([`crate::vector::BatchGame::write_observation`]),
    /// which batches use too.
    fn observation(&self, out: &mut [f32]) {
        crate::vector::write_f32_observation(self, self.geo.board.cell_layout(), out)
    }

    /// The sample game's picture: `o` Black, `x` White, letters for neutrals,
    /// `,` empty Ring, `.` empty Interior; column names above and below,
    /// row numbers on the right.
    fn diagram(&self) -> String {
        let geo = &*self.geo;
        let width = geo.num_columns;
        let names: Vec<String> = (0..width).map(column_name).collect();
        let deep = names.iter().map(|s| s.len()).max().unwrap_or(1);
        let header: Vec<String> = (0..deep)
            .map(|k| {
                names
                    .iter()
                    .map(|s| {
                        let pad = deep - s.len();
                        if k < pad {
                            ' '
                        } else {
                            s.as_bytes()[k - pad] as char
                        }
                    })
                    .collect()
            })
            .collect();
        let rows = 2 * geo.n - 1;
        let mut grid = vec![vec![' '; width]; rows];
        for cell in 0..self.cells.len() {
            let (x, r) = geo.record_xy(cell);
            let v = self.cells[cell];
            grid[r - 1][x] = match v {
                1 => 'o',
                2 => 'x',
                0 if geo.is_ring(cell) => ',',
                0 => '.',
                _ => LETTERS[(-v) as usize - 1],
            };
        }
        let mut lines: Vec<String> = header.clone();
        for (k, line) in grid.iter().enumerate() {
            lines.push(format!("{}  {}", line.iter().collect::<String>(), k + 1));
        }
        lines.extend(header);
        lines.join("\n")
    }
}
