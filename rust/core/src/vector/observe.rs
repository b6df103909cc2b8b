//! Observations of a batch: the element types of its buffers, where a
//! board's cells sit in an observation plane ([`CellLayout`]), and the
//! optional direct writer a game gives ([`BatchGame`]), which is then also
//! its [`Game::observation`] ([`write_f32_observation`]).

use crate::bitset::BitIter;
use crate::board::Board;
use crate::game::Game;
use crate::unchecked::IdsBelow;

/// An observation element type of the batch buffers. A `u8` holds a plane
/// value `v` in [0, 1] as `round(255 v)` (an indicator is 0 or 255).
pub trait ObsElem: Copy {
    fn from_bool(b: bool) -> Self;

    /// Eight values at once: byte `t` of `flags` (0 or 1) gives value `t`
    /// (for [`write_bits`] and [`write_equal`]: one store of eight cells for
    /// the one-byte types).
    #[inline(always)]
    fn from_flags8(flags: u64) -> [Self; 8] {
        flags.to_le_bytes().map(|b| Self::from_bool(b != 0))
    }

    /// Sixteen values at once from sixteen mask bytes (each 0 or 0xff),
    /// for [`write_masks`]: a few vector instructions for every type.
    #[inline(always)]
    fn from_masks16(m: [u8; 16]) -> [Self; 16] {
        m.map(|b| Self::from_bool(b != 0))
    }

    /// The buffer as float32 values when this type is `f32` (for
    /// [`write_plane`] and [`fill_plane`]: a plane kept as floats is then
    /// one copy; for [`write_equal`]: a plain loop).
    #[inline(always)]
    fn as_f32(_out: &mut [Self]) -> Option<&mut [f32]> {
        None
    }
}

impl ObsElem for bool {
    #[inline(always)]
    fn from_bool(b: bool) -> bool {
        b
    }

    /// With the bytes masked to their low bit the compiler sees that they
    /// are already `bool`s: one store, no per-byte test.
    #[inline(always)]
    fn from_flags8(flags: u64) -> [bool; 8] {
        (flags & ONES).to_le_bytes().map(|b| b != 0)
    }

    #[inline(always)]
    fn from_masks16(m: [u8; 16]) -> [bool; 16] {
        let mut o = [false; 16];
        for i in 0..16 {
            o[i] = m[i] & 1 != 0;
        }
        o
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

    #[inline(always)]
    fn from_flags8(flags: u64) -> [u8; 8] {
        ((flags & ONES) * 0xff).to_le_bytes()
    }

    #[inline(always)]
    fn from_masks16(m: [u8; 16]) -> [u8; 16] {
        m
    }
}

impl ObsElem for f32 {
    #[inline(always)]
    fn from_bool(b: bool) -> f32 {
        b as u8 as f32
    }

    /// 1.0 is `0x3f80_0000`: each mask byte widened to 32 bits (all ones or
    /// zero) and ANDed with it, which the compiler vectorises.
    #[inline(always)]
    fn from_masks16(m: [u8; 16]) -> [f32; 16] {
        let mut o = [0.0f32; 16];
        for i in 0..16 {
            o[i] = f32::from_bits(m[i] as i8 as i32 as u32 & 0x3f80_0000);
        }
        o
    }

    #[inline(always)]
    fn as_f32(out: &mut [f32]) -> Option<&mut [f32]> {
        Some(out)
    }
}

/// Every byte equal to 1.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The eight bits of `b` as eight bytes (0 or 1), bit `t` in byte `t`,
/// from a table (2 kB, in cache after the first env): a multiply works too,
/// but the compiler then vectorises the loops of [`write_bits`] with
/// emulated 64-bit multiplies (1.5x its instructions, measured).
#[inline(always)]
pub(crate) fn spread_byte(b: u8) -> u64 {
    SPREAD[b as usize]
}

static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            t[b] |= ((b as u64 >> bit) & 1) << (8 * bit);
            bit += 1;
        }
        b += 1;
    }
    t
};

/// `out[i] = bit i of words` (bits past the words read as 0): a legal-action
/// mask or an indicator plane from a bit set, written eight values a store.
#[inline]
pub fn write_bits<T: ObsElem>(words: &[u64], out: &mut [T]) {
    let n = out.len();
    let whole = n / 64 * 64;
    let (blocks, rest) = out.split_at_mut(whole);
    for (block, &w) in blocks.chunks_exact_mut(64).zip(words) {
        for (t, eight) in block.chunks_exact_mut(8).enumerate() {
            let eight: &mut [T; 8] = eight.try_into().expect("eight values");
            *eight = T::from_flags8(spread_byte((w >> (8 * t)) as u8));
        }
    }
    // Blocks past the words (none in a mask) read as 0.
    for block in blocks.chunks_exact_mut(64).skip(words.len()) {
        block.fill(T::from_bool(false));
    }
    let w = words.get(n / 64).copied().unwrap_or(0);
    let eights = rest.len() / 8 * 8;
    let (head, tail) = rest.split_at_mut(eights);
    for (t, eight) in head.chunks_exact_mut(8).enumerate() {
        let eight: &mut [T; 8] = eight.try_into().expect("eight values");
        *eight = T::from_flags8(spread_byte((w >> (8 * t)) as u8));
    }
    for (t, v) in tail.iter_mut().enumerate() {
        *v = T::from_bool(w >> (eights + t) & 1 != 0);
    }
}

/// `out[i] = (values[i] == v)` for `v` and every value below 0x80 (the
/// cell colours of a board): an indicator plane, eight values a store
/// (float32 values by a plain loop, `equal_f32`: 0.73 times the
/// instructions of a float32 Hex batch step).
#[inline]
pub fn write_equal<T: ObsElem>(values: &[u8], v: u8, out: &mut [T]) {
    debug_assert!(v < 0x80 && out.len() <= values.len());
    if let Some(f) = T::as_f32(out) {
        return equal_f32(values, v, f);
    }
    let want = ONES * v as u64;
    let eights = out.len() / 8 * 8;
    let (head, tail) = out.split_at_mut(eights);
    for (eight, vals) in head.chunks_exact_mut(8).zip(values.chunks_exact(8)) {
        let eight: &mut [T; 8] = eight.try_into().expect("eight values");
        let x = u64::from_le_bytes(vals.try_into().expect("eight values")) ^ want;
        // Byte by byte (each below 0x80): the top bit of `(x | 0x80) - 1` is
        // clear only for a zero byte (no borrow crosses bytes).
        let nonzero = (x | ONES << 7).wrapping_sub(ONES);
        *eight = T::from_flags8(!nonzero >> 7 & ONES);
    }
    for (o, &x) in tail.iter_mut().zip(&values[eights..]) {
        *o = T::from_bool(x == v);
    }
}

/// [`write_equal`] of float32 values: a plain loop, which the compiler
/// vectorises wider than eight values a step. Out of line: a batch step
/// inlines the writers of every element type into one loop, where this
/// one inlined costs the others (0.9% more instructions a bool Hex step,
/// 0.35% out of line).
#[inline(never)]
fn equal_f32(values: &[u8], v: u8, out: &mut [f32]) {
    for (o, &x) in out.iter_mut().zip(values) {
        *o = f32::from(u8::from(x == v));
    }
}

/// The legal-action mask of the actions `legal` into `mask` (one entry an
/// action id): true at those, false elsewhere. The ids are checked once
/// for the list (its largest) rather than one by one; eight consecutive
/// ids in a row of the list (most of a list of nearly every action) go
/// out as one write.
pub fn write_legal_mask(legal: &[crate::game::Action], mask: &mut [bool]) {
    write_mask_of(IdsBelow::new(legal, mask.len()), mask);
}

/// [`write_legal_mask`] of ids checked before ([`IdsBelow`]).
pub fn write_mask_of(legal: IdsBelow<'_>, mask: &mut [bool]) {
    let legal = legal.within(mask.len());
    mask.fill(false);
    // SAFETY: every id is below the mask's length (`IdsBelow::within`).
    // Unchecked: a mask is written for every leaf of the batched
    // search (callgrind there: see docs/performance-log.md).
    let set = |mask: &mut [bool], a: crate::game::Action| unsafe {
        *crate::unchecked::get_mut(mask, a as usize) = true
    };
    let (Some(&first), Some(&last)) = (legal.first(), legal.last()) else {
        return;
    };
    if 2 * legal.len() < (last as usize).saturating_sub(first as usize) {
        // Sparse (as a sorted list spread over its range): no runs to look for.
        legal.iter().for_each(|&a| set(mask, a));
        return;
    }
    let mut k = 0;
    while k < legal.len() {
        let a = legal[k];
        if let Some(w) = legal.get(k..k + 8).filter(|w| w[7] == a.wrapping_add(7)) {
            // The ends fit a run (all a sorted list needs): the whole window
            // compared, with no early exit (a few vector instructions).
            let off: [u32; 8] = std::array::from_fn(|j| w[j] ^ a.wrapping_add(j as u32));
            if off.iter().fold(0, |x, &y| x | y) == 0 {
                // a + 7 is an id of the list, below the mask's length
                let a = a as usize;
                mask[a..a + 8].copy_from_slice(&[true; 8]);
                k += 8;
                continue;
            }
        }
        set(mask, a);
        k += 1;
    }
}

/// `out[p] = (masks[p] != 0)` for mask bytes that are 0 or 0xff: an
/// indicator plane from masks made by [`mask_where`], sixteen values a step
/// (a few vector instructions for every element type).
#[inline]
pub fn write_masks<T: ObsElem>(masks: &[u8], out: &mut [T]) {
    let n = out.len().min(masks.len());
    let whole = n / 16 * 16;
    let (head, tail) = out[..n].split_at_mut(whole);
    for (o, m) in head.chunks_exact_mut(16).zip(masks.chunks_exact(16)) {
        let o: &mut [T; 16] = o.try_into().expect("sixteen values");
        *o = T::from_masks16(m.try_into().expect("sixteen bytes"));
    }
    for (o, &m) in tail.iter_mut().zip(&masks[whole..]) {
        *o = T::from_bool(m != 0);
    }
}

/// A plane that is the same in every state, kept both as masks (0 or
/// 0xff) and as float32 values: float32 output is one copy of the floats
/// (a library copy, several values an instruction), other types go through
/// [`write_masks`].
#[inline]
pub fn write_plane<T: ObsElem>(masks: &[u8], floats: &[f32], out: &mut [T]) {
    match T::as_f32(out) {
        Some(f) => f.copy_from_slice(&floats[..f.len()]),
        None => write_masks(masks, out),
    }
}

/// `out` filled with `value`; float32 ones are copied from `ones` (a
/// plane of 1.0 at least as long), zeros set as bytes, both by library
/// calls (several values an instruction).
#[inline]
pub fn fill_plane<T: ObsElem>(value: bool, ones: &[f32], out: &mut [T]) {
    match T::as_f32(out) {
        Some(f) if value => f.copy_from_slice(&ones[..f.len()]),
        Some(f) => f.fill(0.0),
        None => out.fill(T::from_bool(value)),
    }
}

/// `masks[p] = 0xff if f(a[p], b[p]) else 0` for `p` below `masks.len()`
/// (at most the lengths of `a` and `b`): a plain byte loop, which the
/// compiler vectorises when `f` has no branches (`&` rather than `&&`).
#[inline(always)]
pub fn mask_where(a: &[u8], b: &[u8], masks: &mut [u8], f: impl Fn(u8, u8) -> bool) {
    let n = masks.len().min(a.len()).min(b.len());
    let (a, b, masks) = (&a[..n], &b[..n], &mut masks[..n]);
    for i in 0..n {
        masks[i] = 0u8.wrapping_sub(u8::from(f(a[i], b[i])));
    }
}

/// [`mask_where`] for `N` planes of one byte each at once:
/// `masks[k * plane + p] = 0xff if a[p] & b[p] == values[k] else 0` for
/// `p` below `plane` (consecutive one-hot planes of a spread plane masked
/// to the board): each byte pair is read once for the `N` planes.
#[inline(always)]
pub fn mask_equal_each<const N: usize>(a: &[u8], b: &[u8], values: [u8; N], masks: &mut [u8]) {
    let plane = masks.len() / N;
    let (a, b) = (&a[..plane], &b[..plane]);
    let outs: [&mut [u8]; N] = {
        let mut rest = &mut masks[..N * plane];
        std::array::from_fn(|_| {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(plane);
            rest = tail;
            head
        })
    };
    for p in 0..plane {
        let g = a[p] & b[p];
        for k in 0..N {
            outs[k][p] = 0u8.wrapping_sub(u8::from(g == values[k]));
        }
    }
}

pub use crate::board::CellLayout;

/// What a batch needs of a game beyond [`Game`]: an optional direct writer
/// of its observation (in every element type, without float32 planes in
/// between). Each game keeps it in `games/<game>/observation.rs`.
pub trait BatchGame: Game {
    /// True when [`BatchGame::write_observation`] is implemented. Such a
    /// game's [`Game::observation`] is that writer's float32 values with its
    /// board's layout: the one writer of its planes.
    fn direct_observation(&self) -> bool {
        false
    }

    /// Write the observation into `out` (`observation_shape` values), the
    /// board's cells placed by `layout` (made by [`CellLayout::of`] from this
    /// game's board), every value written (`out` may hold anything before).
    /// `scratch` is working space.
    fn write_observation<T: ObsElem>(
        &self,
        _layout: &CellLayout,
        _out: &mut [T],
        _scratch: &mut Vec<u8>,
    ) {
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

/// Three planes of `plane` values indexed by action id, for a game whose
/// every cell has one (`action_of[cell]`, OpenSpiel's layout): stones of
/// colour `me`, the other stones, the empty cells (colour 0); 0 at the ids
/// of no cell.
pub(crate) fn write_planes_by_action(
    colour: &[u8],
    action_of: &[u16],
    me: u8,
    plane: usize,
    out: &mut [f32],
) {
    out[..3 * plane].fill(0.0);
    for (&c, &a) in colour.iter().zip(action_of) {
        let k = if c == 0 {
            2
        } else if c == me {
            0
        } else {
            1
        };
        out[k * plane + a as usize] = 1.0;
    }
}

/// The legal-action mask of the cells in the bit set `cells`, each at its
/// action id (`action_of[cell]`), false elsewhere; returns their number.
pub(crate) fn write_cells_mask(cells: &[u64], action_of: &[u16], mask: &mut [bool]) -> usize {
    mask.fill(false);
    let mut count = 0;
    for (wi, &w) in cells.iter().enumerate() {
        for t in BitIter(w) {
            mask[action_of[wi * 64 + t as usize] as usize] = true;
            count += 1;
        }
    }
    count
}

/// `g`'s observation as float32 values through its direct writer
/// ([`BatchGame::write_observation`]) with `layout`, its working space one
/// per thread (kept from call to call, so that it stays in that core's
/// cache however many games there are). With the board's own layout
/// ([`Board::cell_layout`]) it is [`Game::observation`] of a game with a
/// direct writer.
pub(crate) fn write_f32_observation<G: BatchGame>(g: &G, layout: &CellLayout, out: &mut [f32]) {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SCRATCH.with_borrow_mut(|scratch| g.write_observation(layout, out, scratch))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_masks_are_true_at_the_legal_ids_only() {
        let on = |m: &[bool]| {
            m.iter()
                .enumerate()
                .filter(|(_, &x)| x)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let mut mask = vec![true; 10];
        write_legal_mask(&[0, 3, 9], &mut mask);
        assert_eq!(on(&mask), vec![0, 3, 9]);
        write_legal_mask(&[], &mut mask);
        assert!(mask.iter().all(|&m| !m));
        // Unsorted ids are fine; an id past the mask is refused, not written.
        write_legal_mask(&[7, 2], &mut mask);
        assert_eq!(on(&mask), vec![2, 7]);
        let refused = std::panic::catch_unwind(move || write_legal_mask(&[2, 10], &mut mask));
        assert!(refused.is_err());
        // Lists with runs of eight and more consecutive ids, and lists that
        // only look like runs at their ends, sorted or shuffled.
        let mut rng = crate::rng::rng_for(5, 0);
        for case in 0..2000u32 {
            let n = 1 + (case as usize % 150);
            let keep = crate::rng::below(&mut rng, 4);
            let mut list: Vec<crate::game::Action> = (0..n as u32)
                .filter(|_| keep == 0 || crate::rng::below(&mut rng, 8) >= keep)
                .collect();
            if case % 3 == 0 && list.len() > 8 && list[..8] == [0, 1, 2, 3, 4, 5, 6, 7] {
                // a window with the ends of a run but a gap inside
                list[3] = 7;
            }
            if case % 2 == 1 {
                for i in (1..list.len()).rev() {
                    list.swap(i, crate::rng::below(&mut rng, i + 1));
                }
            }
            let mut mask = vec![true; n];
            write_legal_mask(&list, &mut mask);
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(
                on(&mask),
                sorted.iter().map(|&a| a as usize).collect::<Vec<_>>(),
                "{list:?}"
            );
        }
    }

    #[test]
    fn spread_byte_puts_each_bit_in_its_byte() {
        for b in 0..=255u8 {
            let s = spread_byte(b).to_le_bytes();
            for (t, &v) in s.iter().enumerate() {
                assert_eq!(v, b >> t & 1, "byte {b:#010b}, bit {t}");
            }
        }
    }

    /// The eight-at-a-time writers agree with the plain loops for every
    /// element type and every length around the word and block ends, over
    /// buffers holding garbage.
    #[test]
    fn bits_and_equal_match_the_plain_loops() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in (0..=200usize).chain([361, 625]) {
            let words: Vec<u64> = (0..len.div_ceil(64)).map(|_| next()).collect();
            let values: Vec<u8> = (0..len).map(|_| (next() % 3) as u8).collect();
            let bit = |i: usize| words[i / 64] >> (i % 64) & 1 != 0;
            let bit: &dyn Fn(usize) -> bool = &bit;
            fn check<T: ObsElem + PartialEq + std::fmt::Debug>(
                len: usize,
                garbage: T,
                words: &[u64],
                values: &[u8],
                bit: &dyn Fn(usize) -> bool,
            ) {
                let mut out = vec![garbage; len];
                write_bits(words, &mut out);
                assert_eq!(
                    out,
                    (0..len).map(|i| T::from_bool(bit(i))).collect::<Vec<_>>(),
                    "bits, {len}"
                );
                for v in 0..4 {
                    write_equal(values, v, &mut out);
                    assert_eq!(
                        out,
                        values
                            .iter()
                            .map(|&c| T::from_bool(c == v))
                            .collect::<Vec<_>>(),
                        "equal {v}, {len}"
                    );
                    let mut masks = vec![7u8; len];
                    mask_where(values, values, &mut masks, |x, y| (x == v) & (y == v));
                    assert!(
                        masks
                            .iter()
                            .zip(values)
                            .all(|(&m, &c)| m == if c == v { 0xff } else { 0 }),
                        "mask_where {v}, {len}"
                    );
                    write_masks(&masks, &mut out);
                    assert_eq!(
                        out,
                        values
                            .iter()
                            .map(|&c| T::from_bool(c == v))
                            .collect::<Vec<_>>(),
                        "masks {v}, {len}"
                    );
                }
            }
            check(len, true, &words, &values, bit);
            check(len, 7u8, &words, &values, bit);
            check(len, 7f32, &words, &values, bit);
        }
        // Several one-hot planes in one pass agree with one pass each.
        for len in [0usize, 1, 15, 16, 17, 169, 200] {
            let a: Vec<u8> = (0..len).map(|_| (next() % 7) as u8).collect();
            let b: Vec<u8> = (0..len)
                .map(|_| if next() % 5 == 0 { 0 } else { 0xff })
                .collect();
            let mut got = vec![7u8; 3 * len];
            mask_equal_each(&a, &b, [1, 0, 6], &mut got);
            let mut want = vec![7u8; 3 * len];
            for (k, v) in [1u8, 0, 6].into_iter().enumerate() {
                mask_where(&a, &b, &mut want[k * len..(k + 1) * len], |x, y| x & y == v);
            }
            assert_eq!(got, want, "mask_equal_each, {len}");
        }
        // Bits past the words read as 0.
        let mut out = [true; 70];
        write_bits(&[u64::MAX], &mut out);
        assert!(out[..64].iter().all(|&b| b) && out[64..].iter().all(|&b| !b));
    }
}
