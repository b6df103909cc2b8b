//! The enums over the games, generated from the one list of games
//! ([`hexcore_core::for_each_game!`]): [`Any<F>`] holds one game's
//! `F::Of<G>` (a session, a search tree, a batch...), and the macros
//! `dispatch!`, `map_any!` and `zip_any!` run code on whichever game it
//! holds. Nothing here names a game: a game added to the list gets its
//! variant and its arms everywhere.

use hexcore_core::solve::Solvable;
use hexcore_core::vector::BatchGame;
use hexcore_core::Game;

/// A family of per-game types: `Of<G>` is what an [`Any<Self>`] holds for
/// the game `G`.
pub trait PerGame {
    type Of<G: Member>;
}

/// A game of the list, and how to move its value in and out of an
/// [`Any`] (implemented for every game by the generated code below).
pub trait Member: Game + Solvable + BatchGame + Clone + Send + Sync + 'static {
    /// `x` as the variant of this game.
    fn into_any<F: PerGame>(x: F::Of<Self>) -> Any<F>;
    /// The value of this game's variant, or `x` back when it holds another game.
    fn from_any<F: PerGame>(x: Any<F>) -> Result<F::Of<Self>, Any<F>>;
    /// The value of this game's variant, borrowed, or `None` when `x` holds
    /// another game.
    fn ref_of<F: PerGame>(x: &Any<F>) -> Option<&F::Of<Self>>;
}

macro_rules! generate_any {
    ([] $($module:ident: $Game:ident,)*) => {
        /// One value of the family `F` for whichever game it is.
        pub enum Any<F: PerGame> {
            $($Game(F::Of<hexcore_core::$Game>),)*
        }

        impl<F: PerGame> Clone for Any<F>
        where
            $(F::Of<hexcore_core::$Game>: Clone,)*
        {
            fn clone(&self) -> Self {
                match self {
                    $(Any::$Game(x) => Any::$Game(x.clone()),)*
                }
            }
        }

        impl<F: PerGame> Any<F> {
            /// The Python class name of the game (`"Churn"`).
            pub fn class_name(&self) -> &'static str {
                match self {
                    $(Any::$Game(_) => stringify!($Game),)*
                }
            }
        }

        /// The class names of all games, in the list's order.
        pub const CLASS_NAMES: &[&str] = &[$(stringify!($Game),)*];

        $(
            impl Member for hexcore_core::$Game {
                fn into_any<F: PerGame>(x: F::Of<Self>) -> Any<F> {
                    Any::$Game(x)
                }
                #[allow(unreachable_patterns)]
                fn from_any<F: PerGame>(x: Any<F>) -> Result<F::Of<Self>, Any<F>> {
                    match x {
                        Any::$Game(v) => Ok(v),
                        other => Err(other),
                    }
                }
                #[allow(unreachable_patterns)]
                fn ref_of<F: PerGame>(x: &Any<F>) -> Option<&F::Of<Self>> {
                    match x {
                        Any::$Game(v) => Some(v),
                        _ => None,
                    }
                }
            }
        )*
    };
}
hexcore_core::for_each_game!(generate_any);

/// The games' class names for messages: `"Churn, Wunchunk or Quintun"`.
pub fn class_list() -> String {
    match CLASS_NAMES {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// `dispatch!(any, v => body)`: `body` with `v` bound to the value inside
/// `any` (a pattern), whatever the game.
macro_rules! dispatch {
    ($any:expr, $v:pat => $body:expr) => {
        hexcore_core::for_each_game!(dispatch_arms, $any, $v, $body)
    };
}

macro_rules! dispatch_arms {
    ([$any:expr, $v:pat, $body:expr] $($module:ident: $Game:ident,)*) => {
        match $any {
            $($crate::any::Any::$Game($v) => $body,)*
        }
    };
}

/// `map_any!(any, v => body)`: the same game's variant of another family,
/// holding `body`.
macro_rules! map_any {
    ($any:expr, $v:pat => $body:expr) => {
        hexcore_core::for_each_game!(map_arms, $any, $v, $body)
    };
}

macro_rules! map_arms {
    ([$any:expr, $v:pat, $body:expr] $($module:ident: $Game:ident,)*) => {
        match $any {
            $($crate::any::Any::$Game($v) => $crate::any::Any::$Game($body),)*
        }
    };
}

/// `zip_any!((a, b), (x, y) => body, otherwise)`: `body` when `a` and `b`
/// hold the same game, `otherwise` when not.
macro_rules! zip_any {
    (($a:expr, $b:expr), ($x:pat, $y:pat) => $body:expr, $otherwise:expr) => {
        hexcore_core::for_each_game!(zip_arms, $a, $b, $x, $y, $body, $otherwise)
    };
}

macro_rules! zip_arms {
    ([$a:expr, $b:expr, $x:pat, $y:pat, $body:expr, $otherwise:expr] $($module:ident: $Game:ident,)*) => {
        {
            #[allow(unreachable_patterns)]
            let out = match ($a, $b) {
                $(($crate::any::Any::$Game($x), $crate::any::Any::$Game($y)) => $body,)*
                _ => $otherwise,
            };
            out
        }
    };
}
