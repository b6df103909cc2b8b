//! A batch of sessions: the envs of a [`VecGames`] (stepped as plain games,
//! each recording the actions of its episode) with the session each episode
//! started from, so that every env's game with its history, and the reason
//! an action is illegal there, come from here.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::Session;
use crate::limits::IntArg;
use crate::vector::{BatchError, BatchGame, Out, StepError, VecGames};
use crate::{Action, MoveError, OptionsError, Reason};

/// `N` envs of one game, each a [`Session`] when looked at.
pub struct Batch<G: BatchGame> {
    games: VecGames<G>,
    /// The distinct starts, with their histories (indexed as `games`' starts).
    starts: Vec<Session<G>>,
    /// Envs put in a position by [`Batch::set_env`]: the episode that
    /// began there and the session it began from.
    set: HashMap<usize, (u64, Session<G>)>,
}

impl<G: BatchGame> Batch<G>
where
    G::Undo: Clone,
{
    /// One env per entry of `start_of`, which indexes `starts` (see
    /// [`VecGames::build`]).
    pub fn build(
        starts: Vec<Session<G>>,
        start_of: Vec<u32>,
        seed: u64,
        max_plies: u64,
        stop: &AtomicBool,
    ) -> Result<Batch<G>, BatchError> {
        let games = VecGames::build(
            starts.iter().map(|s| s.g.clone()).collect(),
            start_of,
            seed,
            max_plies,
            stop,
        )?;
        Ok(Batch {
            games,
            starts,
            set: HashMap::new(),
        })
    }

    /// The plain games (sizes, each env's state and counters).
    pub fn games(&self) -> &VecGames<G> {
        &self.games
    }

    /// See [`VecGames::set_autoplay`].
    pub fn set_autoplay(&mut self, seat: Option<impl Into<IntArg>>) -> Result<(), OptionsError> {
        self.games.set_autoplay(seat)
    }

    /// See [`VecGames::sample_actions`].
    pub fn sample_actions(&mut self, out: &mut [i64], threads: usize) -> Result<(), StepError> {
        self.games.sample_actions(out, threads)
    }

    /// See [`VecGames::reset_until`].
    pub fn reset_until(
        &mut self,
        seed: Option<u64>,
        out: Out<'_>,
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<bool, StepError> {
        let whole = self.games.reset_until(seed, out, threads, stop);
        self.forget_ended();
        whole
    }

    /// See [`VecGames::step_until`]; an illegal action's error says why it
    /// is illegal (as [`Session::illegal_action_error`]).
    pub fn step_until(
        &mut self,
        actions: &[i64],
        active: Option<&[bool]>,
        out: Out<'_>,
        threads: usize,
        stop: &AtomicBool,
    ) -> Result<bool, StepError> {
        let whole = self
            .games
            .step_until(actions, active, out, threads, stop)
            .map_err(|e| self.explain(e))?;
        self.forget_ended();
        Ok(whole)
    }

    /// Env `i`'s start session (`i` < `num_envs`).
    pub fn start(&self, i: usize) -> &Session<G> {
        &self.starts[self.games.start_index(i)]
    }

    /// The session env `i`'s current episode started from.
    fn episode_start(&self, i: usize) -> &Session<G> {
        match self.set.get(&i) {
            Some((episode, s)) if *episode == self.games.env(i).episode => s,
            _ => self.start(i),
        }
    }

    /// Env `i`'s game with its history (`i` < `num_envs`): the session its
    /// episode started from and the actions since. An error would mean the
    /// env played an action its session refuses (a bug).
    pub fn session(&self, i: usize) -> Result<Session<G>, MoveError> {
        self.episode_start(i).extended(&self.games.env(i).actions)
    }

    /// Put `session` in env `i` (see [`VecGames::set_env`]); its history
    /// stays with the env until the episode ends.
    pub fn set_env(&mut self, i: usize, session: Session<G>, plies: u64) -> Result<(), BatchError> {
        self.games.set_env(i, session.g.clone(), plies)?;
        self.set.insert(i, (self.games.env(i).episode, session));
        Ok(())
    }

    /// `e` saying why an illegal action is illegal.
    fn explain(&self, e: StepError) -> StepError {
        match e {
            StepError::Illegal { env, action, error } if error.reason == Reason::IllegalAction => {
                let error = match self.session(env) {
                    Ok(s) => {
                        let why = s.illegal_action_error(action as Action);
                        MoveError::new(why.reason, format!("env {env}: {}", why.message))
                    }
                    Err(_) => error,
                };
                StepError::Illegal { env, action, error }
            }
            e => e,
        }
    }

    /// Forget the positions set for episodes that have ended.
    fn forget_ended(&mut self) {
        let games = &self.games;
        self.set
            .retain(|&i, (episode, _)| games.env(i).episode == *episode);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Board, Churn, Game};

    fn out_for(
        n: usize,
        a: usize,
        buf: &mut (
            Vec<bool>,
            Vec<f32>,
            Vec<bool>,
            Vec<bool>,
            Vec<i32>,
            Vec<i64>,
        ),
    ) -> Out<'_> {
        *buf = (
            vec![false; n * a],
            vec![0.0; n * 2],
            vec![false; n],
            vec![false; n],
            vec![0; n],
            vec![0; n],
        );
        Out {
            obs: crate::vector::Obs::None,
            mask: Some(&mut buf.0),
            rewards: &mut buf.1,
            terminated: &mut buf.2,
            truncated: &mut buf.3,
            to_move: &mut buf.4,
            lengths: &mut buf.5,
        }
    }

    #[test]
    fn envs_are_their_start_sessions_extended() {
        let g = Churn::new(Arc::new(Board::hexhex(3).unwrap()), false);
        let mut start = Session::new(g, None);
        start.play("c3").unwrap();
        let a = start.g.num_actions();
        let stop = AtomicBool::new(false);
        let mut b = Batch::build(vec![start.clone()], vec![0, 0], 1, u64::MAX, &stop).unwrap();
        let mut buf = Default::default();
        b.reset_until(None, out_for(2, a, &mut buf), 1, &stop)
            .unwrap();
        let mut acts = vec![0i64; 2];
        b.sample_actions(&mut acts, 1).unwrap();
        b.step_until(&acts, None, out_for(2, a, &mut buf), 1, &stop)
            .unwrap();
        let s = b.session(1).unwrap();
        assert_eq!(
            s.all_actions(),
            [start.all_actions(), vec![acts[1] as Action]].concat()
        );
        assert_eq!(s.history()[0], "c3");
        // An occupied cell: the error names the env and gives the move's reason.
        let c3 = start.all_actions()[0] as i64;
        let mut next = vec![0i64; 2];
        b.sample_actions(&mut next, 1).unwrap();
        let e = b
            .step_until(&[next[0], c3], None, out_for(2, a, &mut buf), 1, &stop)
            .unwrap_err();
        match e {
            StepError::Illegal {
                env: 1,
                action,
                error,
            } => {
                assert_eq!(action, c3);
                assert_eq!(error.reason, Reason::Occupied);
                assert!(
                    error
                        .message
                        .starts_with(&format!("env 1: action {c3} (c3) is illegal: ")),
                    "{}",
                    error.message
                );
            }
            e => panic!("unexpected {e:?}"),
        }
        // A set position keeps its history until its episode ends.
        let mut other = Session::new(start.g.clone(), None);
        other
            .play(&start.g.action_to_string(acts[0] as Action))
            .unwrap();
        b.set_env(0, other.clone(), 1).unwrap();
        assert_eq!(b.session(0).unwrap().history(), other.history());
        b.reset_until(None, out_for(2, a, &mut buf), 1, &stop)
            .unwrap();
        assert_eq!(b.session(0).unwrap().history(), start.history());
        assert!(b.set.is_empty());
    }
}
