//! Y's option: `size`, the triangle's side (1 to [`Y_MAX_SIZE`], default
//! 19, OpenSpiel's `board_size`).

use crate::facts::{one_stone_an_action, Augment, Facts, GameFacts};
use crate::game::OptionsError;
use crate::spec::{int_of, Configure, Kind, OptionInfo, Reader, Value};

use super::{Y, Y_MAX_SIZE};

impl Configure for Y {
    const NAME: &'static str = "y";

    const OPTIONS: &'static [OptionInfo] = &[OptionInfo {
        name: "size",
        kind: Kind::Int,
        default: Some(|_| Value::Int(19)),
        always_printed: true,
    }];

    fn from_options(r: &Reader<'_>) -> Result<Self, OptionsError> {
        match int_of("size", &r.value("size")?)? {
            n if (1..=Y_MAX_SIZE as i64).contains(&n) => Y::new(n as usize),
            n => Err(OptionsError::new(
                "size",
                format!("size must be an integer from 1 to {Y_MAX_SIZE}, got {n}"),
            )),
        }
    }

    fn option_values(&self) -> Vec<(&'static str, Value)> {
        vec![("size", Value::Int(self.size() as i64))]
    }
}

impl Facts for Y {
    /// x and o; no pie rule; one stone an action and nothing removed; stone
    /// planes first; every board symmetry maps every position.
    const FACTS: GameFacts = GameFacts {
        player_names: &["x", "o"],
        pie_rule: None,
        max_actions: Some(one_stone_an_action::<0>),
        stone_planes: true,
        augment: Augment::All,
    };
}
