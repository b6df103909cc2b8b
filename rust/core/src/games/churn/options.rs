//! Churn's options: the board (`size`, `sides` or `board`) and the pie
//! rule, with their defaults.

use std::sync::Arc;

use crate::game::OptionsError;
use crate::spec::{read_board, Kind, OptionInfo, Reader, Value, BOARD_NAME, BOARD_SIDES, BOARD_SIZE};

use super::Churn;

/// The board options, then `pie` (on by default).
pub(super) const OPTIONS: &[OptionInfo] =
    &[BOARD_SIZE, BOARD_SIDES, BOARD_NAME, OptionInfo { name: "pie", kind: Kind::Bool, default: Some(|_| Value::Bool(true)), always_printed: false }];

pub(super) fn from_options(r: &Reader<'_>) -> Result<Churn, OptionsError> {
    let board = read_board(r)?;
    Ok(Churn::new(Arc::new(board), r.bool("pie")?))
}

pub(super) fn option_values(g: &Churn) -> Vec<(&'static str, Value)> {
    let b = &g.board;
    let shape = if b.is_hexhex() {
        ("size", Value::Int(b.side_lengths()[0] as i64))
    } else {
        ("sides", Value::Tuple(b.side_lengths().iter().map(|&x| Value::Int(x as i64)).collect()))
    };
    vec![shape, ("pie", Value::Bool(g.pie))]
}
