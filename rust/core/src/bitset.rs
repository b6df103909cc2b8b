//! A bit set over cell indices, and word-level bit helpers shared by the games.

use crate::unchecked::{get, get_mut};

/// `SELECT_IN_BYTE[b * 8 + k]`: position of the k-th set bit of byte `b`.
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b * 8 + k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Position of the k-th set bit (0-based) of `w`; `k` must be below
/// `w.count_ones()`. Branch-free: byte counts by SWAR, then a byte table.
#[inline]
pub fn select64(w: u64, k: u32) -> u32 {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    debug_assert!(k < w.count_ones());
    let mut s = w - ((w >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i of `prefix`: set bits in bytes 0..=i (at most 64, so no carries).
    let prefix = s.wrapping_mul(L8);
    // High bit of byte i set when prefix_i <= k; prefixes only grow, so the
    // count of such bytes is the index of the byte holding the answer.
    let le = ((k as u64).wrapping_mul(L8) | H8).wrapping_sub(prefix) & H8;
    let byte = le.count_ones();
    let before = ((prefix << 8) >> (8 * byte)) as u32 & 0xff;
    let b = (w >> (8 * byte)) as usize & 0xff;
    8 * byte + SELECT_IN_BYTE[b * 8 + (k - before) as usize] as u32
}

/// Writes `scale * i + add` for every set bit `i` of `w` (bit `t` of the
/// word is `base + t`), lowest first, into `dst` from `j`, and returns the
/// next free index. A byte of the word at a time: the positions of its set
/// bits from [`SELECT_IN_BYTE`], all eight values stored whatever the
/// count, and `j` moved by the count; so `dst` needs room for eight values
/// past the last one written. About two instructions a cell for dense
/// words, where a loop over the set bits takes about ten a member.
#[inline(always)]
pub fn write_members(
    mut w: u64,
    base: u32,
    scale: u32,
    add: u32,
    dst: &mut [u32],
    mut j: usize,
) -> usize {
    while w != 0 {
        let k = w.trailing_zeros() / 8;
        let b = (w >> (8 * k)) as u8;
        w &= !(0xff << (8 * k));
        j = write_byte(b, scale * (base + 8 * k) + add, scale, dst, j);
    }
    j
}

/// [`write_members`] for a word with many members: every byte in turn, no
/// search for the next one that has any.
#[inline(always)]
fn write_members_dense(
    w: u64,
    base: u32,
    scale: u32,
    add: u32,
    dst: &mut [u32],
    mut j: usize,
) -> usize {
    for k in 0..8 {
        j = write_byte(
            (w >> (8 * k)) as u8,
            scale * (base + 8 * k) + add,
            scale,
            dst,
            j,
        );
    }
    j
}

/// One step of [`write_members`]: `first + scale * t` for the set bits `t`
/// of `b`, eight values stored from `j`; returns `j` moved by the count.
#[inline(always)]
fn write_byte(b: u8, first: u32, scale: u32, dst: &mut [u32], j: usize) -> usize {
    let at = (b as usize) * 8;
    let pos: &[u8; 8] = SELECT_IN_BYTE[at..at + 8]
        .try_into()
        .expect("eight positions");
    let mut v = [0u32; 8];
    for i in 0..8 {
        v[i] = first + scale * pos[i] as u32;
    }
    let d: &mut [u32; 8] = (&mut dst[j..j + 8]).try_into().expect("eight values");
    *d = v;
    j + b.count_ones() as usize
}

/// Appends `scale * i + add` for every member `i` of the bit set `words`
/// (bit `t` of word `wi` is `64 * wi + t`), in increasing order (see
/// [`write_members`]).
#[inline]
pub fn append_members(words: &[u64], scale: u32, add: u32, out: &mut Vec<u32>) {
    let count: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    let start = out.len();
    out.resize(start + count + 8, 0);
    let dst = &mut out[start..];
    let mut j = 0;
    for (wi, &w) in words.iter().enumerate() {
        j = if w.count_ones() >= 32 {
            write_members_dense(w, 64 * wi as u32, scale, add, dst, j)
        } else {
            write_members(w, 64 * wi as u32, scale, add, dst, j)
        };
    }
    debug_assert_eq!(j, count);
    out.truncate(start + count);
}

/// Set bits of a word, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let t = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(t)
    }
}

/// A copyable set of up to `64 * W` cells, for game states kept by value
/// (undo records, look-ahead copies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedSet<const W: usize>([u64; W]);

impl<const W: usize> Default for FixedSet<W> {
    fn default() -> Self {
        FixedSet([0; W])
    }
}

impl<const W: usize> FixedSet<W> {
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// The elements `>= from`.
    #[inline]
    pub fn from(&self, from: usize) -> Self {
        let wi = from >> 6;
        let mut w = self.0;
        for (k, x) in w.iter_mut().enumerate() {
            if k < wi {
                *x = 0;
            } else if k == wi {
                *x &= !0u64 << (from & 63);
            }
        }
        FixedSet(w)
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().fold(0, |n, w| n + w.count_ones() as usize)
    }

    #[inline]
    #[allow(dead_code)] // the crate has no caller; kept with `len` for clippy's len_without_is_empty
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The k-th smallest element (0-based); `usize::MAX` if there is none.
    #[inline]
    pub fn select(&self, mut k: usize) -> usize {
        for (wi, &w) in self.0.iter().enumerate() {
            let c = w.count_ones() as usize;
            if k < c {
                return wi * 64 + select64(w, k as u32) as usize;
            }
            k -= c;
        }
        usize::MAX
    }

    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0
            .into_iter()
            .enumerate()
            .flat_map(|(wi, w)| BitIter(w).map(move |t| wi * 64 + t as usize))
    }
}

#[derive(Debug, PartialEq, Eq, Default)]
pub struct BitSet {
    words: Vec<u64>,
}

impl Clone for BitSet {
    fn clone(&self) -> Self {
        BitSet {
            words: self.words.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.words.clone_from(&source.words);
    }
}

impl BitSet {
    pub fn new(bits: usize) -> BitSet {
        BitSet {
            words: vec![0; bits.div_ceil(64)],
        }
    }

    /// Insert `i` when `cond` holds, without a branch.
    #[inline]
    pub fn insert_if(&mut self, i: usize, cond: bool) {
        self.words[i >> 6] |= (cond as u64) << (i & 63);
    }

    /// [`BitSet::insert_if`] without the bounds test.
    ///
    /// # Safety
    /// `i` is below the capacity the set was created with (rounded up to 64).
    #[inline(always)]
    pub(crate) unsafe fn insert_if_unchecked(&mut self, i: usize, cond: bool) {
        // SAFETY: `i` is below the capacity (this function's contract), so
        // its word `i >> 6` is below the number of words.
        unsafe { *get_mut(&mut self.words, i >> 6) |= (cond as u64) << (i & 63) }
    }

    /// OR `bits` into word `word`, without the bounds test.
    ///
    /// # Safety
    /// `word` is below the number of words.
    #[inline(always)]
    pub(crate) unsafe fn insert_word_bits_unchecked(&mut self, word: usize, bits: u64) {
        // SAFETY: `word` is below the number of words (this function's contract).
        unsafe { *get_mut(&mut self.words, word) |= bits }
    }

    /// [`BitSet::remove`] without the bounds test.
    ///
    /// # Safety
    /// As for [`BitSet::insert_if_unchecked`].
    #[inline(always)]
    pub(crate) unsafe fn remove_unchecked(&mut self, i: usize) {
        // SAFETY: `i` is below the capacity (this function's contract), so
        // its word `i >> 6` is below the number of words.
        unsafe { *get_mut(&mut self.words, i >> 6) &= !(1 << (i & 63)) }
    }

    /// [`BitSet::contains`] without the bounds test.
    ///
    /// # Safety
    /// As for [`BitSet::insert_if_unchecked`].
    #[inline(always)]
    pub(crate) unsafe fn contains_unchecked(&self, i: usize) -> bool {
        // SAFETY: `i` is below the capacity (this function's contract), so
        // its word `i >> 6` is below the number of words.
        unsafe { get(&self.words, i >> 6) >> (i & 63) & 1 != 0 }
    }

    /// [`BitSet::remove_word_mask`] without the bounds test.
    ///
    /// # Safety
    /// `word` is below the number of words.
    #[inline(always)]
    pub(crate) unsafe fn remove_word_mask_unchecked(&mut self, word: usize, mask: u64) {
        // SAFETY: `word` is below the number of words (this function's contract).
        unsafe { *get_mut(&mut self.words, word) &= !mask }
    }

    /// The words, lowest cells first.
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Clear the bits of `mask` in word `word`.
    #[inline]
    pub fn remove_word_mask(&mut self, word: usize, mask: u64) {
        self.words[word] &= !mask;
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.words[i >> 6] &= !(1 << (i & 63));
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub fn len(&self) -> usize {
        // Boards of up to 127 cells fit one or two words: no loop for them.
        match *self.words {
            [w] => w.count_ones() as usize,
            [w0, w1] => (w0.count_ones() + w1.count_ones()) as usize,
            _ => self.words.iter().map(|w| w.count_ones() as usize).sum(),
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// The k-th smallest element (0-based), if there are more than k.
    #[inline]
    pub fn select(&self, mut k: usize) -> Option<usize> {
        if let [w] = *self.words {
            return (k < w.count_ones() as usize).then(|| select64(w, k as u32) as usize);
        }
        for (wi, &w) in self.words.iter().enumerate() {
            let c = w.count_ones() as usize;
            if k < c {
                return Some(wi * 64 + select64(w, k as u32) as usize);
            }
            k -= c;
        }
        None
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(wi, &w)| BitIter(w).map(move |t| wi * 64 + t as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `append_members` lists the members as a loop over the set bits does,
    /// scaled and offset, after what `out` held, for sparse and dense words.
    #[test]
    fn append_members_matches_bit_loop() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..500 {
            let words: Vec<u64> = (0..round % 4)
                .map(|k| match (round + k) % 4 {
                    0 => next() & next() & next(),
                    1 => next() | next(),
                    2 => u64::MAX,
                    _ => next(),
                })
                .collect();
            let (scale, add) = ((round % 7 + 1) as u32, (round % 5) as u32);
            let mut out = vec![7u32; round % 3];
            let mut want = out.clone();
            for (wi, &w) in words.iter().enumerate() {
                want.extend(BitIter(w).map(|t| scale * (64 * wi as u32 + t) + add));
            }
            append_members(&words, scale, add, &mut out);
            assert_eq!(out, want, "words {words:x?}, scale {scale}, add {add}");
        }
    }

    #[test]
    fn select64_matches_naive() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut words = vec![
            0,
            1,
            1 << 63,
            u64::MAX,
            0x8000_0000_0000_0001,
            0x00ff_0000_0000_ff00,
        ];
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words.push(x & x.rotate_left(23));
            words.push(x);
        }
        for w in words {
            let bits: Vec<u32> = (0..64).filter(|&i| w >> i & 1 != 0).collect();
            for (k, &b) in bits.iter().enumerate() {
                assert_eq!(select64(w, k as u32), b, "word {w:#x}, k {k}");
            }
            assert_eq!(BitIter(w).collect::<Vec<_>>(), bits);
        }
    }

    #[test]
    fn fixed_set_matches_bit_set() {
        let mut f = FixedSet::<3>::default();
        let mut b = BitSet::new(192);
        for i in [0, 5, 63, 64, 100, 128, 191] {
            f.insert(i);
            b.insert(i);
        }
        f.remove(100);
        b.remove(100);
        assert_eq!(f.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
        assert_eq!(f.len(), b.len());
        assert!(f.contains(64) && !f.contains(100));
        assert_eq!(
            (0..f.len()).map(|k| f.select(k)).collect::<Vec<_>>(),
            f.iter().collect::<Vec<_>>()
        );
        assert_eq!(f.select(f.len()), usize::MAX);
        assert_eq!(f.from(64).iter().collect::<Vec<_>>(), vec![64, 128, 191]);
        assert_eq!(f.from(65).iter().collect::<Vec<_>>(), vec![128, 191]);
        assert!(f.from(192).is_empty() && f.from(500).is_empty());
    }

    #[test]
    fn select_and_iter() {
        let mut b = BitSet::new(200);
        for i in [3, 64, 65, 130, 199] {
            b.insert(i);
        }
        assert_eq!(b.len(), 5);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 64, 65, 130, 199]);
        assert_eq!(b.select(2), Some(65));
        assert_eq!(b.select(5), None);
        b.remove(64);
        assert!(!b.contains(64));
        assert_eq!(b.select(1), Some(65));
    }

    #[test]
    fn select_from_len() {
        let mut c = FixedSet::<3>::default();
        let xs = [
            0usize, 3, 9, 17, 31, 32, 40, 63, 64, 65, 100, 127, 128, 150, 191,
        ];
        for &x in &xs {
            c.insert(x);
        }
        assert_eq!(c.len(), xs.len());
        for (k, &x) in xs.iter().enumerate() {
            assert_eq!(c.select(k), x);
            assert_eq!(c.from(x).len(), xs.len() - k);
            assert_eq!(c.from(x + 1).len(), xs.len() - k - 1);
        }
        assert_eq!(c.select(xs.len()), usize::MAX);
        assert_eq!(c.iter().collect::<Vec<_>>(), xs.to_vec());
        c.remove(64);
        assert!(!c.contains(64) && c.contains(65));
    }

    #[test]
    fn select_bits() {
        let w: u64 = 0xF0F0_0000_1234_8001;
        let bits: Vec<u32> = BitIter(w).collect();
        for (k, &b) in bits.iter().enumerate() {
            assert_eq!(select64(w, k as u32), b);
        }
        let mut s = FixedSet::<5>::default();
        for c in [0, 63, 64, 200, 270] {
            s.insert(c);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 270]);
        s.remove(64);
        assert!(!s.contains(64) && s.contains(63));
    }
}
