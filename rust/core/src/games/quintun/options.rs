//! Quintun's options: `size` (4 to 10, default 7), `placement` ("side" or
//! "gap", default "side") and `swap` (the pie rule, on by default).

use crate::facts::{one_stone_an_action, Augment, Facts, GameFacts, PieRule};
use crate::game::OptionsError;
use crate::spec::{Configure, Kind, OptionInfo, Reader, Value};

use super::{Placement, Quintun, QuintunBoard, MAX_SIZE, MIN_SIZE};

impl Configure for Quintun {
    const NAME: &'static str = "quintun";

    const OPTIONS: &'static [OptionInfo] = &[
        OptionInfo {
            name: "size",
            kind: Kind::Int,
            default: Some(|_| Value::Int(7)),
            always_printed: true,
        },
        OptionInfo {
            name: "placement",
            kind: Kind::Str,
            default: Some(|_| Value::Str("side".into())),
            always_printed: false,
        },
        OptionInfo {
            name: "swap",
            kind: Kind::Bool,
            default: Some(|_| Value::Bool(true)),
            always_printed: false,
        },
    ];

    fn from_options(r: &Reader<'_>) -> Result<Self, OptionsError> {
        let size = r.value("size")?;
        let n = match size {
            Value::Int(n) if (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&n) => n as usize,
            v => {
                return Err(OptionsError::new(
                    "size",
                    format!(
                        "size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {}",
                        v.repr()
                    ),
                ))
            }
        };
        let placement: Placement = r.str("placement")?.parse()?;
        let swap = r.bool("swap")?;
        let geo = QuintunBoard::shared(n)?;
        Ok(Quintun::with_geometry(geo, placement, swap))
    }

    fn option_values(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("size", Value::Int(self.size() as i64)),
            ("placement", Value::Str(self.placement().name().into())),
            ("swap", Value::Bool(self.swap_rule())),
        ]
    }
}

impl Facts for Quintun {
    /// Black and White; `swap` is the pie rule; one stone an action and
    /// nothing removed, besides one swap; stone planes first; no symmetry
    /// mapping (its actions come in kinds tied to the order of cells: the
    /// two stones of an EXTEND, a pending first stone).
    const FACTS: GameFacts = GameFacts {
        player_names: &["Black", "White"],
        pie_rule: Some(PieRule::bool_option("swap")),
        max_actions: Some(one_stone_an_action::<1>),
        stone_planes: true,
        augment: Augment::None,
    };
}
