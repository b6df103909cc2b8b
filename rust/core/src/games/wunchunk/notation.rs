//! Move notation: reading the placements of a move (`1g7,2h8`) with
//! Abstract Play's checks in Abstract Play's order.

use smallvec::SmallVec;

use crate::game::{MoveError, Reason};

use super::Wunchunk;

impl Wunchunk {
    /// Parse the placements of a move (AP's checks, in AP's order).
    pub(super) fn parse_placements(
        &self,
        text: &str,
        original: &str,
    ) -> Result<SmallVec<[(usize, u8); 8]>, MoveError> {
        let steps: Vec<&str> = text.split(',').collect();
        if steps.iter().all(|s| s.is_empty()) {
            return Err(MoveError::new(
                Reason::Syntax,
                format!("{original:?} is not a move"),
            ));
        }
        if steps.iter().any(|s| s.is_empty()) {
            return Err(MoveError::new(
                Reason::Syntax,
                format!("{original:?}: an empty placement (a stray comma)"),
            ));
        }
        if let Some(word) = steps.iter().find(|s| **s == "pass" || **s == "swap") {
            return Err(MoveError::new(
                Reason::Syntax,
                format!(
                    "{original:?}: {word:?} is a whole move and cannot be combined with placements"
                ),
            ));
        }
        let allot = self.st.allot as usize;
        if steps.len() > allot {
            return Err(MoveError::new(
                Reason::TooManyStones,
                format!(
                    "{original:?}: {} stones, but only {allot} allowed",
                    steps.len()
                ),
            ));
        }
        if steps.len() > self.num_empty as usize {
            return Err(MoveError::new(
                Reason::MoreThanEmpty,
                format!(
                    "{original:?}: {} stones, but only {} empty cells",
                    steps.len(),
                    self.num_empty
                ),
            ));
        }
        let mut placed: SmallVec<[(usize, u8); 8]> = SmallVec::new();
        for step in steps {
            let mut chars = step.chars();
            let ch = chars.next().expect("non-empty step");
            let colour = match ch.to_digit(10) {
                Some(d) if d >= 1 && d as usize <= self.ncol() => d as u8,
                Some(_) => {
                    return Err(MoveError::new(
                        Reason::BadColour,
                        format!("{step:?}: colour {ch:?} is not one of 1..{}", self.ncol()),
                    ))
                }
                None => {
                    return Err(MoveError::new(
                        Reason::Syntax,
                        format!("{step:?}: a step is a colour digit and a cell, like 1g7"),
                    ))
                }
            };
            let label = chars.as_str();
            if label.is_empty() {
                return Err(MoveError::new(
                    Reason::Syntax,
                    format!("{step:?}: a colour without a cell"),
                ));
            }
            let cell = self.board.index(label).ok_or_else(|| {
                MoveError::new(
                    Reason::UnknownCell,
                    format!("{step:?}: no cell {label:?} on this board"),
                )
            })?;
            if !self.empty.contains(cell) {
                return Err(MoveError::new(
                    Reason::Occupied,
                    format!("{step:?}: cell {label} is occupied"),
                ));
            }
            if placed.iter().any(|&(c, _)| c == cell) {
                return Err(MoveError::new(
                    Reason::DuplicateCell,
                    format!("{step:?}: cell {label} is used twice in one move"),
                ));
            }
            placed.push((cell, colour));
        }
        Ok(placed)
    }

    pub(super) fn check_setup(
        &self,
        placed: &[(usize, u8)],
        original: &str,
    ) -> Result<(), MoveError> {
        for colour in 1..=2u8 {
            let mine: SmallVec<[usize; 4]> = placed
                .iter()
                .filter(|p| p.1 == colour)
                .map(|p| p.0)
                .collect();
            if mine.len() >= 2 && !self.board.neighbors(mine[0]).contains(&(mine[1] as u16)) {
                return Err(MoveError::new(
                    Reason::OpenSetup,
                    format!("{original:?}: the two colour-{colour} setup stones must be adjacent"),
                ));
            }
            if mine.len() > 2 {
                return Err(MoveError::new(
                    Reason::OpenSetup,
                    format!("{original:?}: at most two colour-{colour} stones in the setup"),
                ));
            }
        }
        if placed.len() < 4 {
            return Err(MoveError::new(
                Reason::OpenSetup,
                format!("{original:?}: the setup is exactly two adjacent stones of each colour"),
            ));
        }
        Ok(())
    }
}
