//! What a game declares about itself besides its rules and options: one
//! table per game, [`Facts::FACTS`], written once next to its option table
//! in `games/<game>/options.rs` (as OpenSpiel's games each declare a
//! `GameType`). The Python package reads the tables
//! (`hexcore._core._game_facts`, the games' `max_actions`) instead of
//! declaring the facts again.
//!
//! ```
//! use hexcore_core::facts::{Augment, Setting};
//! use hexcore_core::{catalog, Game, Hex};
//!
//! let f = catalog::facts("hex").unwrap();
//! assert_eq!(f.player_names, ["x", "o"]);
//! let pie = f.pie_rule.unwrap();
//! assert_eq!((pie.option, pie.on, pie.off), ("swap", Setting::Bool(true), Setting::Bool(false)));
//! assert_eq!(f.augment, Augment::All);
//! assert_eq!(Hex::new(11, 11, false).unwrap().max_actions(), Some(122));
//! assert_eq!(catalog::facts("churn").unwrap().max_actions, None);
//! ```

use crate::spec::Value;

/// A game's facts table (each game implements it in
/// `games/<game>/options.rs`, beside its [`Configure`](crate::spec::Configure)).
pub trait Facts {
    /// The game's facts, declared here, once.
    const FACTS: GameFacts;
}

/// One game's facts, declared once ([`Facts::FACTS`]).
#[derive(Debug, Clone, Copy)]
pub struct GameFacts {
    /// The names of the seats' colours, seat 1 first, as many as the most
    /// seats the game has.
    pub player_names: &'static [&'static str],
    /// The option that turns the pie (swap) rule on, or None when the game
    /// has no such rule.
    pub pie_rule: Option<PieRule>,
    /// A proven upper bound on the number of actions in a game of a variant
    /// from its start, given the variant's cell count and player count
    /// ([`Game::max_actions`](crate::Game::max_actions)); None when the game
    /// has no small one (Churn: removals let games run long).
    pub max_actions: Option<fn(cells: usize, players: usize) -> usize>,
    /// The observation's first `num_players` planes hold the stones of each
    /// seat's colour (1 on the cell, 0 elsewhere), the mover's first.
    pub stone_planes: bool,
    /// Which positions a board symmetry may map.
    pub augment: Augment,
}

/// The option that turns a game's pie (swap) rule on: its name in the
/// option table and its values with the rule on and off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieRule {
    pub option: &'static str,
    pub on: Setting,
    pub off: Setting,
}

impl PieRule {
    /// The rule turned on by the bool option `option` (`swap=true`, `pie=true`).
    pub const fn bool_option(option: &'static str) -> PieRule {
        PieRule {
            option,
            on: Setting::Bool(true),
            off: Setting::Bool(false),
        }
    }
}

/// An option value a table can hold as a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Bool(bool),
    Str(&'static str),
}

impl Setting {
    /// The option value, as spec strings and constructors read it.
    pub fn value(self) -> Value {
        match self {
            Setting::Bool(b) => Value::Bool(b),
            Setting::Str(s) => Value::Str(s.into()),
        }
    }
}

crate::choice! {
    /// Which positions a board symmetry may map (training's augmentation).
    /// Where it is not `None`, action `cell * kinds + kind` (`kinds =
    /// num_actions / num_cells`) places on `cell` and the actions after the
    /// cell actions name no cell.
    pub enum Augment("augment") {
        /// Every position.
        All = "all",
        /// Positions before the first action of a turn.
        TurnStart = "turn_start",
        /// No position.
        None = "none",
    }
}

/// The action bound of a game whose every action puts a stone on an empty
/// cell and removes none, besides `SWAPS` swap actions: `cells + SWAPS`.
pub fn one_stone_an_action<const SWAPS: usize>(cells: usize, _players: usize) -> usize {
    cells + SWAPS
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::catalog::{self, Visitor};
    use crate::spec::{build, Kind};
    use crate::{rng_for, Game};

    /// The most actions in `self.0` random games of the variant (each played
    /// to its end), and the variant's bound.
    struct RandomLengths(u64);
    impl Visitor for RandomLengths {
        type Output = (u64, Option<usize>);
        fn visit<G: Game>(self, game: G) -> (u64, Option<usize>) {
            let stop = AtomicBool::new(false);
            let mut buf = Vec::new();
            let most = (0..self.0)
                .map(|i| {
                    let mut g = game.clone();
                    let (_, actions) = g
                        .play_random(&mut rng_for(7, i), u64::MAX, &mut buf, &stop)
                        .unwrap();
                    assert!(g.is_over());
                    actions
                })
                .max()
                .unwrap();
            (most, game.max_actions())
        }
    }

    #[test]
    fn random_games_stay_within_the_action_bound() {
        for spec in [
            "quintun(size=4)",
            "quintun(size=4,swap=false)",
            "hex(size=4,swap=true)",
            "hex(rows=2,cols=5)",
            "y(size=4)",
            "havannah(size=3,swap=true)",
            "wunchunk(size=5)",
            "wunchunk(size=5,start=open,balance=pie)",
            "wunchunk(size=7,players=3)",
            "wunchunk(size=7,players=4,balance=none)",
        ] {
            let (most, bound) = catalog::load(spec, RandomLengths(40)).unwrap();
            let bound = bound.unwrap_or_else(|| panic!("{spec}: no bound"));
            assert!(
                most as usize <= bound,
                "{spec}: {most} actions, bound {bound}"
            );
        }
        assert_eq!(
            catalog::load("churn(size=2)", RandomLengths(1)).unwrap().1,
            None
        );
    }

    /// A variant's cell count, seats and action bound.
    struct Variant;
    impl Visitor for Variant {
        type Output = (usize, usize, Option<usize>);
        fn visit<G: Game>(self, g: G) -> (usize, usize, Option<usize>) {
            (g.board().num_cells(), g.num_players(), g.max_actions())
        }
    }

    #[test]
    fn bounds_follow_the_variant() {
        let bound = |spec: &str| catalog::load(spec, Variant).unwrap().2;
        assert_eq!(bound("hex(size=11)"), Some(122));
        assert_eq!(bound("hex(rows=3,cols=5)"), Some(16));
        assert_eq!(bound("y(size=5)"), Some(15));
        assert_eq!(bound("havannah(size=4)"), Some(38));
        let (cells, _, b) = catalog::load("quintun(size=7,swap=false)", Variant).unwrap();
        assert_eq!(b, Some(cells + 1));
        // 2 * 91 + 1 * 92 + 1 on side 6; 2 * 169 + 3 * 170 + 1 for four players on side 8
        assert_eq!(bound("wunchunk()"), Some(275));
        assert_eq!(bound("wunchunk(players=4)"), Some(849));
        assert_eq!(bound("churn(size=7)"), None);
    }

    /// The option table's entry of the pie rule's option is of the
    /// settings' kind, and the rule on and off build two different variants.
    struct PieRuleReads;
    impl Visitor for PieRuleReads {
        type Output = ();
        fn visit<G: Game>(self, _: G) {
            let Some(pie) = G::FACTS.pie_rule else { return };
            let info = G::OPTIONS
                .iter()
                .find(|o| o.name == pie.option)
                .unwrap_or_else(|| panic!("{}: no option {}", G::NAME, pie.option));
            let spec = |setting: Setting| {
                let kind = match setting {
                    Setting::Bool(_) => Kind::Bool,
                    Setting::Str(_) => Kind::Str,
                };
                assert_eq!(info.kind, kind, "{}", G::NAME);
                let mut options = crate::spec::Options::new();
                options.insert(pie.option, setting.value()).unwrap();
                build::<G>(&options)
                    .unwrap_or_else(|e| panic!("{}: {e}", G::NAME))
                    .spec()
            };
            assert_ne!(spec(pie.on), spec(pie.off), "{}", G::NAME);
        }
    }

    #[test]
    fn every_table_is_consistent() {
        for &name in catalog::GAME_NAMES {
            let facts = catalog::facts(name).unwrap();
            let (_, seats, _) = catalog::load(&format!("{name}()"), Variant).unwrap();
            catalog::load(&format!("{name}()"), PieRuleReads).unwrap();
            let names = facts.player_names;
            assert!(
                names.len() >= seats && names.iter().all(|n| !n.is_empty()),
                "{name}"
            );
            assert!(
                names
                    .iter()
                    .enumerate()
                    .all(|(i, n)| !names[..i].contains(n)),
                "{name}: {names:?}"
            );
        }
        // as many names as the most seats
        assert_eq!(catalog::load("wunchunk(players=4)", Variant).unwrap().1, 4);
        assert_eq!(catalog::facts("wunchunk").unwrap().player_names.len(), 4);
        assert_eq!(catalog::facts("churn").unwrap().player_names.len(), 2);
        assert!(catalog::facts("chess").is_none());
        assert_eq!(Augment::TurnStart.name(), "turn_start");
    }
}
