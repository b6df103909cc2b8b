//! Hex's options: the board, `size` (a square board's side, default 11) or
//! `rows` and `cols` (a rhombus, 1 to [`HEX_MAX_SIZE`] each), and `swap`
//! (off by default; square boards only).

use crate::facts::{one_stone_an_action, Augment, Facts, GameFacts, PieRule};
use crate::game::OptionsError;
use crate::spec::{int_of, Configure, Kind, OptionInfo, Reader, Value};

use super::{Hex, HEX_MAX_SIZE};

/// A side of the board: 1 to [`HEX_MAX_SIZE`].
fn dim(name: &'static str, v: &Value) -> Result<usize, OptionsError> {
    match int_of(name, v)? {
        n if (1..=HEX_MAX_SIZE as i64).contains(&n) => Ok(n as usize),
        n => Err(OptionsError::new(
            name,
            format!("{name} must be an integer from 1 to {HEX_MAX_SIZE}, got {n}"),
        )),
    }
}

impl Configure for Hex {
    const NAME: &'static str = "hex";

    const OPTIONS: &'static [OptionInfo] = &[
        OptionInfo {
            name: "size",
            kind: Kind::Int,
            default: Some(|_| Value::Int(11)),
            always_printed: true,
        },
        OptionInfo {
            name: "rows",
            kind: Kind::Int,
            default: None,
            always_printed: true,
        },
        OptionInfo {
            name: "cols",
            kind: Kind::Int,
            default: None,
            always_printed: true,
        },
        OptionInfo {
            name: "swap",
            kind: Kind::Bool,
            default: Some(|_| Value::Bool(false)),
            always_printed: false,
        },
    ];

    fn from_options(r: &Reader<'_>) -> Result<Self, OptionsError> {
        let (rows, cols) = match (r.given("size"), r.given("rows"), r.given("cols")) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(OptionsError::new(
                    "size",
                    "give size, or rows and cols, not both",
                ))
            }
            (None, Some(rows), Some(cols)) => (dim("rows", rows)?, dim("cols", cols)?),
            (None, Some(_), None) => return Err(OptionsError::new("cols", "rows needs cols")),
            (None, None, Some(_)) => return Err(OptionsError::new("rows", "cols needs rows")),
            (_, None, None) => {
                let n = dim("size", &r.value("size")?)?;
                (n, n)
            }
        };
        Hex::new(rows, cols, r.bool("swap")?)
    }

    fn option_values(&self) -> Vec<(&'static str, Value)> {
        let (rows, cols) = (
            Value::Int(self.rows() as i64),
            Value::Int(self.cols() as i64),
        );
        let mut v = if self.rows() == self.cols() {
            vec![("size", rows)]
        } else {
            vec![("rows", rows), ("cols", cols)]
        };
        v.push(("swap", Value::Bool(self.swap())));
        v
    }
}

impl Facts for Hex {
    /// x and o; `swap` is the pie rule; one stone an action and nothing
    /// removed, besides one swap; stone planes first; every board symmetry
    /// that keeps each seat's two sides (the half turn) maps every position.
    const FACTS: GameFacts = GameFacts {
        player_names: &["x", "o"],
        pie_rule: Some(PieRule::bool_option("swap")),
        max_actions: Some(one_stone_an_action::<1>),
        stone_planes: true,
        augment: Augment::All,
    };
}
