//! The list of games as functions: their names, their option tables and
//! facts, and a game built from a spec string and handed to a [`Visitor`],
//! whichever game it is. Generated from
//! [`for_each_game!`](crate::for_each_game); the spec language itself is
//! [`crate::spec`].
//!
//! ```
//! use hexcore_core::catalog::{self, Visitor};
//! use hexcore_core::Game;
//!
//! struct Actions;
//! impl Visitor for Actions {
//!     type Output = usize;
//!     fn visit<G: Game>(self, game: G) -> usize {
//!         game.num_actions()
//!     }
//! }
//! assert_eq!(catalog::load("churn(size=3)", Actions).unwrap(), 20);
//! assert!(catalog::load("chess()", Actions).unwrap_err().message.starts_with("unknown game 'chess'"));
//! ```

use crate::facts::{Facts, GameFacts};
use crate::game::Game;
use crate::spec::{
    build, parse_with, repr_str, spec_error, Configure, OptionInfo, OptionsError, Spec,
};

/// What to do with a game built by [`load`] or [`visit`], whichever game it is.
pub trait Visitor {
    type Output;
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

macro_rules! generate_dispatch {
    ([] $($module:ident: $Game:ident,)*) => {
        /// The option table of the game called `name`, if there is one.
        pub fn option_table(name: &str) -> Option<&'static [OptionInfo]> {
            $(if name == <crate::$Game as Configure>::NAME {
                return Some(<crate::$Game as Configure>::OPTIONS);
            })*
            None
        }

        /// The facts of the game called `name` (player names, pie rule,
        /// action bound...), if there is one (see [`crate::facts`]).
        pub fn facts(name: &str) -> Option<&'static GameFacts> {
            $(if name == <crate::$Game as Configure>::NAME {
                return Some(&<crate::$Game as Facts>::FACTS);
            })*
            None
        }

        /// The names of the games, in the list's order.
        pub const GAME_NAMES: &[&str] = &[$(<crate::$Game as Configure>::NAME,)*];

        /// The game `spec` names, built from its options and handed to `visitor`.
        pub fn visit<V: Visitor>(spec: &Spec, visitor: V) -> Result<V::Output, OptionsError> {
            $(if spec.name == <crate::$Game as Configure>::NAME {
                return Ok(visitor.visit(build::<crate::$Game>(&spec.options)?));
            })*
            Err(unknown_game(&spec.name))
        }
    };
}
crate::for_each_game!(generate_dispatch);

/// The error for a game name that is not in the list of games.
pub fn unknown_game(name: &str) -> OptionsError {
    let mut known = GAME_NAMES.to_vec();
    known.sort_unstable();
    spec_error(format!(
        "unknown game {}; known games: {}",
        repr_str(name),
        known.join(", ")
    ))
}

/// Parses `text` and hands the game it describes to `visitor`.
pub fn load<V: Visitor>(text: &str, visitor: V) -> Result<V::Output, OptionsError> {
    visit(&parse(text)?, visitor)
}

/// Splits a spec string into the game name and its options, each value read
/// by the kind of that game's option (see [`crate::spec`]).
pub fn parse(spec: &str) -> Result<Spec, OptionsError> {
    parse_with(spec, option_table, GAME_NAMES[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{print, Options, Value};

    #[test]
    fn reads_values_by_kind() {
        let s = parse(" Churn ( sides=(3,4,3,4,3,4), pie=off ) ").unwrap();
        assert_eq!(s.name, "churn");
        assert_eq!(
            s.options.get("sides"),
            Some(&Value::Tuple([3, 4, 3, 4, 3, 4].map(Value::Int).to_vec()))
        );
        assert_eq!(s.options.get("pie"), Some(&Value::Bool(false)));
        let s = parse("wunchunk(balance=1,start=none)").unwrap();
        assert_eq!(s.options.get("balance"), Some(&Value::Str("1".into())));
        assert_eq!(s.options.get("start"), Some(&Value::Str("none".into())));
        // an unknown game: generic values
        let s = parse("chess(x=none,y=1,z=[1,(2)])").unwrap();
        assert_eq!(
            s.options.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>(),
            vec![
                Value::None,
                Value::Int(1),
                Value::Tuple(vec![Value::Int(1), Value::Tuple(vec![Value::Int(2)])])
            ]
        );
    }

    #[test]
    fn rejects_malformed_specs() {
        for bad in [
            "",
            "(size=3)",
            "churn(size=3",
            "churn size",
            "churn(size)",
            "churn(size=3,size=4)",
            "churn(pie=1)",
            "churn(size=)",
            "churn(1x=3)",
            "churn(size=(1,2)",
            "churn(size=a b)",
            "churn(x=((((((((((1))))))))))",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        // an integer beyond 64 bits reads (as its digits) and is out of range
        let s = parse("churn(size=99999999999999999999)").unwrap();
        assert_eq!(
            s.options.get("size"),
            Some(&Value::BigInt("99999999999999999999".into()))
        );
        assert!(build::<crate::Churn>(&s.options).is_err());
    }

    #[test]
    fn defaults_come_from_the_table() {
        let w = |text: &str| -> crate::Wunchunk { build(&parse(text).unwrap().options).unwrap() };
        assert_eq!(w("wunchunk()").size(), 6);
        assert_eq!(w("wunchunk(players=3)").size(), 8);
        assert_eq!(
            w("wunchunk(players=4)").spec(),
            "wunchunk(size=8,players=4,start=standard,balance=ap)"
        );
        let c: crate::Churn = build(&Options::new()).unwrap();
        assert_eq!(c.spec(), "churn(size=3)");
        let q: crate::Quintun =
            build(&parse("quintun(swap=no,placement=gap)").unwrap().options).unwrap();
        assert_eq!(q.spec(), "quintun(size=7,placement=gap,swap=false)");
        assert!(build::<crate::Quintun>(&parse("quintun(pie=true)").unwrap().options).is_err());
    }

    #[test]
    fn big_numbers_are_out_of_range() {
        let s = parse("churn(size=99999999999999999999)").unwrap();
        assert_eq!(
            s.options.get("size"),
            Some(&Value::BigInt("99999999999999999999".into()))
        );
        let e = build::<crate::Churn>(&s.options).unwrap_err();
        assert_eq!(e.message, "size is out of range, got 99999999999999999999");
    }

    #[test]
    fn prints_what_it_parses() {
        let v = [
            ("a", Value::Str("none".into())),
            ("b", Value::Str("it's".into())),
            ("c", Value::Str("gap".into())),
            ("d", Value::Str("7".into())),
        ];
        let text = print("x", &v);
        assert_eq!(text, "x(a='none',b=\"it's\",c=gap,d='7')");
        let back = parse(&text).unwrap();
        assert_eq!(
            back.options
                .iter()
                .map(|(_, v)| v.clone())
                .collect::<Vec<_>>(),
            v.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>()
        );
    }
}
