//! Havannah's options: `size`, the hexagon's side (2 to
//! [`HAVANNAH_MAX_SIZE`], default 8, OpenSpiel's `board_size`), and `swap`
//! (off by default).

use crate::facts::{one_stone_an_action, Augment, Facts, GameFacts, PieRule};
use crate::game::OptionsError;
use crate::spec::{int_of, Configure, Kind, OptionInfo, Reader, Value};

use super::{Havannah, HAVANNAH_MAX_SIZE};

impl Configure for Havannah {
    const NAME: &'static str = "havannah";

    const OPTIONS: &'static [OptionInfo] = &[
        OptionInfo {
            name: "size",
            kind: Kind::Int,
            default: Some(|_| Value::Int(8)),
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
        let swap = r.bool("swap")?;
        match int_of("size", &r.value("size")?)? {
            n if (2..=HAVANNAH_MAX_SIZE as i64).contains(&n) => Havannah::new(n as usize, swap),
            n => Err(OptionsError::new(
                "size",
                format!("size must be an integer from 2 to {HAVANNAH_MAX_SIZE}, got {n}"),
            )),
        }
    }

    fn option_values(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("size", Value::Int(self.size() as i64)),
            ("swap", Value::Bool(self.swap())),
        ]
    }
}

impl Facts for Havannah {
    /// x and o; `swap` is the pie rule; one stone an action and nothing
    /// removed, besides one swap; stone planes first; every board symmetry
    /// maps every position.
    const FACTS: GameFacts = GameFacts {
        player_names: &["x", "o"],
        pie_rule: Some(PieRule::bool_option("swap")),
        max_actions: Some(one_stone_an_action::<1>),
        stone_planes: true,
        augment: Augment::All,
    };
}
