//! The caller's buffers a reset or step writes into ([`Out`], [`Obs`]),
//! checked against the batch's sizes and split into the slots of
//! consecutive envs.

/// Where a step writes its results: slices of `n` envs each (`obs` holds
/// `n * C * H * W` values, `mask` `n * num_actions`, `rewards` `n * num_players`).
pub struct Out<'a> {
    pub obs: Obs<'a>,
    pub mask: Option<&'a mut [bool]>,
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_move: &'a mut [i32],
    pub lengths: &'a mut [i64],
}

/// The observation buffer and its element type (`None`: not written).
pub enum Obs<'a> {
    None,
    F32(&'a mut [f32]),
    U8(&'a mut [u8]),
    Bool(&'a mut [bool]),
}

impl<'a> Obs<'a> {
    pub(super) fn len(&self) -> Option<usize> {
        match self {
            Obs::None => None,
            Obs::F32(s) => Some(s.len()),
            Obs::U8(s) => Some(s.len()),
            Obs::Bool(s) => Some(s.len()),
        }
    }

    fn split_at(self, at: usize) -> (Obs<'a>, Obs<'a>) {
        match self {
            Obs::None => (Obs::None, Obs::None),
            Obs::F32(s) => {
                let (a, b) = s.split_at_mut(at);
                (Obs::F32(a), Obs::F32(b))
            }
            Obs::U8(s) => {
                let (a, b) = s.split_at_mut(at);
                (Obs::U8(a), Obs::U8(b))
            }
            Obs::Bool(s) => {
                let (a, b) = s.split_at_mut(at);
                (Obs::Bool(a), Obs::Bool(b))
            }
        }
    }
}

fn split2<T>(s: &mut [T], at: usize) -> (&mut [T], &mut [T]) {
    s.split_at_mut(at)
}

impl<'a> Out<'a> {
    /// Split off the first `k` envs.
    pub(super) fn split(self, k: usize, dims: Dims) -> (Out<'a>, Out<'a>) {
        let (o1, o2) = self.obs.split_at(k * dims.obs);
        let (m1, m2) = match self.mask {
            Some(m) => {
                let (a, b) = split2(m, k * dims.actions);
                (Some(a), Some(b))
            }
            None => (None, None),
        };
        let (r1, r2) = split2(self.rewards, k * dims.players);
        let (t1, t2) = split2(self.terminated, k);
        let (u1, u2) = split2(self.truncated, k);
        let (p1, p2) = split2(self.to_move, k);
        let (l1, l2) = split2(self.lengths, k);
        (
            Out {
                obs: o1,
                mask: m1,
                rewards: r1,
                terminated: t1,
                truncated: u1,
                to_move: p1,
                lengths: l1,
            },
            Out {
                obs: o2,
                mask: m2,
                rewards: r2,
                terminated: t2,
                truncated: u2,
                to_move: p2,
                lengths: l2,
            },
        )
    }
}
#[derive(Debug, Clone, Copy)]
pub(super) struct Dims {
    pub(super) obs: usize,
    pub(super) actions: usize,
    pub(super) players: usize,
}
