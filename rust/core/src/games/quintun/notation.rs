//! Record notation: formatting and reading moves (`j4`, `Ai1`, `Akm1`,
//! `Ag1,Af2`, `swap`) and the legality checks behind `parse_move`.

use smallvec::smallvec;

use crate::game::{Action, MoveActions, MoveError, Reason};

use super::board::column_name;
use super::{Neutral, Placement, Quintun, GAP_MIN, KINDS};

pub(super) const LETTERS: [char; 5] = ['A', 'B', 'C', 'D', 'E'];

impl Quintun {
    pub(super) fn format_neutral(&self, s: Neutral) -> String {
        format!(
            "{}{}",
            LETTERS[s.1 as usize - 1],
            self.geo.label(s.0 as usize)
        )
    }

    /// Canonical text of an EXTEND: reading order, compact when one colour
    /// and one row on a board of at most 26 columns.
    pub(super) fn format_extend(&self, a: Neutral, b: Neutral) -> String {
        let geo = &*self.geo;
        let (xa, ra) = geo.record_xy(a.0 as usize);
        let (xb, rb) = geo.record_xy(b.0 as usize);
        let (s1, s2, x1, x2) = if (ra, xa) <= (rb, xb) {
            (a, b, xa, xb)
        } else {
            (b, a, xb, xa)
        };
        if s1.1 == s2.1 && ra == rb && geo.compact_extend() {
            format!(
                "{}{}{}{}",
                LETTERS[s1.1 as usize - 1],
                column_name(x1),
                column_name(x2),
                ra
            )
        } else {
            format!("{},{}", self.format_neutral(s1), self.format_neutral(s2))
        }
    }

    // ------------------------------------------------------------------ parsing

    fn parse_cell(&self, text: &str) -> Result<usize, MoveError> {
        let b = text.as_bytes();
        let letters = b.iter().take_while(|c| c.is_ascii_lowercase()).count();
        let digits = &b[letters..];
        if letters == 0
            || digits.is_empty()
            || !digits.iter().all(|c| c.is_ascii_digit())
            || digits[0] == b'0'
        {
            return Err(MoveError::new(
                crate::game::Reason::Syntax,
                format!("{text:?} is not a cell (column letters, then row number)"),
            ));
        }
        self.geo.index(text).ok_or_else(|| {
            MoveError::new(
                crate::game::Reason::UnknownCell,
                format!("no cell {text:?} on a side-{} board", self.geo.n),
            )
        })
    }

    fn parse_colour(letter: u8, text: &str) -> Result<u8, MoveError> {
        match letter {
            b'A'..=b'E' => Ok(letter - b'A' + 1),
            _ => Err(MoveError::new(
                crate::game::Reason::BadColour,
                format!(
                    "{text:?}: neutral colours are A..E, not {:?}",
                    letter as char
                ),
            )),
        }
    }

    /// `X` + letters + digits, as (colour letter, letters, digits).
    fn split_neutral(s: &str) -> Option<(u8, &str, &str)> {
        let b = s.as_bytes();
        if b.len() < 3 || !b[0].is_ascii_uppercase() {
            return None;
        }
        let letters = b[1..].iter().take_while(|c| c.is_ascii_lowercase()).count();
        let rest = &s[1 + letters..];
        if letters == 0 || rest.is_empty() || !rest.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        Some((b[0], &s[1..1 + letters], rest))
    }

    /// Read a move without checking its legality (syntax and cells only).
    pub(super) fn read_move(&self, text: &str) -> Result<Parsed, MoveError> {
        let s = text.trim();
        if s.eq_ignore_ascii_case("swap") {
            return Ok(Parsed::Swap);
        }
        if s.contains(',') {
            let parts: Vec<&str> = s.split(',').map(|p| p.trim()).collect();
            if parts.len() != 2 {
                return Err(MoveError::new(
                    crate::game::Reason::Syntax,
                    format!("{text:?}: EXTEND is two neutral stones, e.g. 'Ag1,Af2'"),
                ));
            }
            let mut stones: [Neutral; 2] = [(0, 0); 2];
            for (i, p) in parts.iter().enumerate() {
                let Some((letter, letters, digits)) = Quintun::split_neutral(p) else {
                    return Err(MoveError::new(
                        crate::game::Reason::Syntax,
                        format!("{text:?}: {p:?} is not a neutral stone like 'Ag1'"),
                    ));
                };
                let cell = self.parse_cell(&format!("{letters}{digits}"))?;
                let k = Quintun::parse_colour(letter, text)?;
                stones[i] = (cell as u16, k);
            }
            return Quintun::extend_of(stones, text);
        }
        if let Some((letter, letters, digits)) = Quintun::split_neutral(s) {
            let k = Quintun::parse_colour(letter, text)?;
            if self.geo.compact_extend() && letters.len() == 2 {
                let l = letters.as_bytes();
                let c1 = self.parse_cell(&format!("{}{digits}", l[0] as char))?;
                let c2 = self.parse_cell(&format!("{}{digits}", l[1] as char))?;
                return Quintun::extend_of([(c1 as u16, k), (c2 as u16, k)], text);
            }
            let label = format!("{letters}{digits}");
            if letters.len() == 2 && self.geo.index(&label).is_none() {
                let l = letters.as_bytes();
                let (a, b) = (
                    format!("{}{digits}", l[0] as char),
                    format!("{}{digits}", l[1] as char),
                );
                if self.geo.index(&a).is_some() && self.geo.index(&b).is_some() {
                    let c = letter as char;
                    return Err(MoveError::new(
                        crate::game::Reason::Syntax,
                        format!("{text:?}: the compact EXTEND form exists on sides 4-7 only; on a side-{} board write '{c}{a},{c}{b}'", self.geo.n),
                    ));
                }
            }
            let cell = self.parse_cell(&label)?;
            return Ok(Parsed::New(cell, k));
        }
        let b = s.as_bytes();
        if !b.is_empty() && b[0].is_ascii_lowercase() {
            let letters = b.iter().take_while(|c| c.is_ascii_lowercase()).count();
            if letters < b.len() && b[letters..].iter().all(|c| c.is_ascii_digit()) {
                return Ok(Parsed::Stone(self.parse_cell(s)?));
            }
        }
        Err(MoveError::new(
            crate::game::Reason::Syntax,
            format!("cannot read move {text:?}"),
        ))
    }

    fn extend_of(mut stones: [Neutral; 2], text: &str) -> Result<Parsed, MoveError> {
        if stones[0].0 == stones[1].0 {
            return Err(MoveError::new(
                crate::game::Reason::ExtendSameCell,
                format!("{text:?}: both stones on one cell"),
            ));
        }
        stones.sort_unstable();
        Ok(Parsed::Extend(stones))
    }

    /// Why a read move is illegal now, if it is.
    pub(super) fn check(&self, mv: &Parsed) -> Result<MoveActions, MoveError> {
        let geo = &*self.geo;
        match *mv {
            Parsed::Swap => {
                if self.swap_available() {
                    Ok(smallvec![self.swap_action()])
                } else {
                    Err(MoveError::new(
                        crate::game::Reason::SwapNotAllowed,
                        "swap is only White's first move, after a Black STONE, with swap on",
                    ))
                }
            }
            Parsed::Stone(c) => {
                if geo.is_ring(c) {
                    return Err(MoveError::new(
                        crate::game::Reason::StoneOnRing,
                        format!("{} is a Ring cell: stones go on the Interior", geo.label(c)),
                    ));
                }
                if self.cells[c] != 0 {
                    return Err(MoveError::new(
                        crate::game::Reason::Occupied,
                        format!("{} is occupied", geo.label(c)),
                    ));
                }
                Ok(smallvec![(c * KINDS) as Action])
            }
            Parsed::New(c, k) => {
                self.check_ring_cell(c)?;
                let want = self.ring.new_colour;
                if want == 0 {
                    return Err(MoveError::new(
                        crate::game::Reason::WrongNewColour,
                        "all five neutral colours are on the board: no NEW move",
                    ));
                }
                if k != want {
                    let msg = if self.present >> (k - 1) & 1 != 0 {
                        format!(
                            "{} is already on the board (one stone is not an EXTEND); NEW uses {}",
                            LETTERS[k as usize - 1],
                            LETTERS[want as usize - 1]
                        )
                    } else {
                        format!(
                            "a NEW move uses the lowest colour not on the board: {}, not {}",
                            LETTERS[want as usize - 1],
                            LETTERS[k as usize - 1]
                        )
                    };
                    return Err(MoveError::new(crate::game::Reason::WrongNewColour, msg));
                }
                if self.ring.new_mask >> geo.pos_of(c) & 1 == 0 {
                    return Err(match self.placement {
                        Placement::Side => MoveError::new(
                            crate::game::Reason::PlacementSide,
                            format!("{} is not on a side without stones (and such a side exists)", geo.label(c)),
                        ),
                        Placement::Gap => MoveError::new(
                            crate::game::Reason::PlacementGap,
                            format!(
                                "{} is fewer than {GAP_MIN} empty ring cells from a neutral (and some empty ring cell is at least that far both ways)",
                                geo.label(c)
                            ),
                        ),
                    });
                }
                Ok(smallvec![Quintun::neutral_action((c as u16, k))])
            }
            Parsed::Extend(stones) => {
                for s in &stones {
                    self.check_ring_cell(s.0 as usize)?;
                }
                for s in &stones {
                    if self.present >> (s.1 - 1) & 1 == 0 {
                        return Err(MoveError::new(
                            crate::game::Reason::ExtendAbsentColour,
                            format!(
                                "EXTEND uses colours already on the board; {} is not",
                                LETTERS[s.1 as usize - 1]
                            ),
                        ));
                    }
                }
                if !self.extend_ok(stones[0], stones[1]) {
                    return Err(MoveError::new(
                        crate::game::Reason::ExtendSplitsColour,
                        "afterwards a neutral colour would not be one connected block",
                    ));
                }
                Ok(smallvec![
                    Quintun::neutral_action(stones[0]),
                    Quintun::neutral_action(stones[1])
                ])
            }
        }
    }

    fn check_ring_cell(&self, c: usize) -> Result<(), MoveError> {
        let geo = &*self.geo;
        if !geo.is_ring(c) {
            return Err(MoveError::new(
                crate::game::Reason::NeutralInInterior,
                format!(
                    "{} is an Interior cell: neutrals go on the Ring",
                    geo.label(c)
                ),
            ));
        }
        if self.cells[c] != 0 {
            return Err(MoveError::new(
                crate::game::Reason::Occupied,
                format!("{} is occupied", geo.label(c)),
            ));
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Parsed {
    Stone(usize),
    New(usize, u8),
    Extend([Neutral; 2]),
    Swap,
}

/// The moves of a Quintun record: numbered lines `N  black  white` as in the
/// sample game (`1. j4 j4`, the number with or without a dot), or plain moves
/// separated by white space. Reading stops at `resign` (a result written in a
/// record, not a move). Errors ([`Reason::Syntax`]) name the line that is
/// not a record line.
pub fn record_moves(text: &str) -> Result<Vec<&str>, MoveError> {
    let bad = |line: &str| {
        MoveError::new(
            Reason::Syntax,
            format!("not a record line (a move number, then one or two moves): {line:?}"),
        )
    };
    let numbered = |tok: &str| {
        let digits = tok.strip_suffix('.').unwrap_or(tok);
        !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
    };
    let resign =
        |tok: &str| tok.eq_ignore_ascii_case("resign") || tok.eq_ignore_ascii_case("resigns");
    let mut out = Vec::new();
    if !text.split_whitespace().next().is_some_and(numbered) {
        for tok in text.split_whitespace() {
            if resign(tok) {
                break;
            }
            out.push(tok);
        }
        return Ok(out);
    }
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut toks = line.split_whitespace().peekable();
        if !toks.next().is_some_and(numbered) {
            return Err(bad(line));
        }
        if toks.peek() == Some(&".") {
            toks.next();
        }
        let moves: Vec<&str> = toks.collect();
        if moves.is_empty() || moves.len() > 2 {
            return Err(bad(line));
        }
        for tok in moves {
            if resign(tok) {
                return Ok(out);
            }
            out.push(tok);
        }
    }
    Ok(out)
}
