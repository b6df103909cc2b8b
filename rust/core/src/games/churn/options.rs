//! Churn's options: the board (`size`, `sides` or `board`) and the pie
//! rule, with their defaults.

use std::sync::Arc;

use crate::facts::{Augment, Facts, GameFacts, PieRule};
use crate::game::OptionsError;
use crate::spec::{
    read_board, Configure, Kind, OptionInfo, Reader, Value, BOARD_NAME, BOARD_SIDES, BOARD_SIZE,
};

use super::Churn;

impl Configure for Churn {
    const NAME: &'static str = "churn";

    /// The board options, then `pie` (on by default).
    const OPTIONS: &'static [OptionInfo] = &[
        BOARD_SIZE,
        BOARD_SIDES,
        BOARD_NAME,
        OptionInfo {
            name: "pie",
            kind: Kind::Bool,
            default: Some(|_| Value::Bool(true)),
            always_printed: false,
        },
    ];

    fn from_options(r: &Reader<'_>) -> Result<Self, OptionsError> {
        let board = read_board(r)?;
        Ok(Churn::new(Arc::new(board), r.bool("pie")?))
    }

    fn option_values(&self) -> Vec<(&'static str, Value)> {
        let b = &self.board;
        let shape = if b.is_hexhex() {
            ("size", Value::Int(b.side_lengths()[0] as i64))
        } else {
            (
                "sides",
                Value::Tuple(
                    b.side_lengths()
                        .iter()
                        .map(|&x| Value::Int(x as i64))
                        .collect(),
                ),
            )
        };
        vec![shape, ("pie", Value::Bool(self.pie))]
    }
}

impl Facts for Churn {
    /// Red and Blue; `pie` is the pie rule; no small action bound (removals
    /// let games run long: random games on side 7 take about 1.2 million
    /// actions); stone planes first; every position may be mapped by a
    /// symmetry.
    const FACTS: GameFacts = GameFacts {
        player_names: &["Red", "Blue"],
        pie_rule: Some(PieRule::bool_option("pie")),
        max_actions: None,
        stone_planes: true,
        augment: Augment::All,
    };
}
