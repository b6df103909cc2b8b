//! What the examples share: the trivial evaluator of the batched search
//! bench (`batched_speed`, and the batched workloads of `instructions`).

use std::time::Instant;

use hexcore_core::search::{Evaluator, InputBuffers, Rows};

/// The trivial evaluator over buffers of its own: uniform priors over the
/// legal actions, every seat worth 1/2, answered in float32 as the numpy
/// evaluator of `benches/batched_search_bench.py` does.
pub struct Trivial {
    inputs: InputBuffers,
    priors: Vec<f32>,
    values: Vec<f32>,
    players: usize,
    /// Wall time spent answering, in seconds.
    pub seconds: f64,
}

impl Trivial {
    /// For observations of `obs_len` floats, `actions` actions and `players` seats.
    pub fn new(obs_len: usize, actions: usize, players: usize) -> Trivial {
        Trivial {
            inputs: InputBuffers::new(obs_len, actions),
            priors: Vec::new(),
            values: Vec::new(),
            players,
            seconds: 0.0,
        }
    }
}

impl Evaluator for Trivial {
    type Error = std::convert::Infallible;

    fn inputs<T: Send>(
        &mut self,
        rows: usize,
        fill: impl FnOnce(&mut [f32], &mut [bool]) -> T + Send,
    ) -> Result<T, Self::Error> {
        Ok(self.inputs.fill(rows, fill))
    }

    fn evaluate<T: Send>(
        &mut self,
        leaves: usize,
        take: impl FnOnce(Rows<'_>, Rows<'_>, &mut [f32], &mut [bool]) -> T + Send,
    ) -> Result<T, Self::Error> {
        let t = Instant::now();
        self.priors.clear();
        self.priors.extend(
            self.inputs
                .rows(leaves)
                .1
                .iter()
                .map(|&m| f32::from(u8::from(m))),
        );
        self.values.clear();
        self.values.resize(leaves * self.players, 0.5);
        self.seconds += t.elapsed().as_secs_f64();
        let b = &mut self.inputs;
        Ok(take(
            Rows::F32(&self.priors),
            Rows::F32(&self.values),
            &mut b.obs,
            &mut b.masks,
        ))
    }
}
