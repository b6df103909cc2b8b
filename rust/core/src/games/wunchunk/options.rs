//! Wunchunk's options: the start and balance variants, their checks (the
//! constructors) and Abstract Play's start layouts.

use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::facts::{Augment, Facts, GameFacts, PieRule, Setting};
use crate::groups::Groups;
use crate::limits::IntArg;
use crate::spec::{Configure, Kind, OptionInfo, Reader, Value};

use super::{Cells, Phase, Status, Wunchunk};

crate::choice! {
    /// How the game starts.
    pub enum Start("start") {
        /// Abstract Play's layouts, one chunk per colour.
        Standard = "standard",
        /// Two players: empty board, four-stone setup, then pass or swap.
        Open = "open",
    }
}

crate::choice! {
    /// The first-player balance rule.
    pub enum Balance("balance") {
        /// Colour 1's second regular turn must leave colour 1 with <= 1 chunk.
        Ap = "ap",
        /// Two players: after a first-move placement the second player may swap.
        Pie = "pie",
        None = "none",
    }
}

/// Abstract Play's start layouts; 3 and 4 players on side 7 reuse the side-8 labels.
fn start_layout(players: usize, size: usize) -> &'static [(&'static str, u8)] {
    match (players, size) {
        (2, 5) => &[("f4", 1), ("f5", 1), ("d4", 2), ("d5", 2)],
        (2, 6) => &[("g5", 1), ("g6", 1), ("e5", 2), ("e6", 2)],
        (2, 7) => &[("h6", 1), ("h7", 1), ("f6", 2), ("f7", 2)],
        (2, 8) => &[("i7", 1), ("i8", 1), ("g7", 2), ("g8", 2)],
        (3, _) => &[
            ("i7", 1),
            ("h7", 1),
            ("g7", 2),
            ("g8", 2),
            ("h9", 3),
            ("i8", 3),
        ],
        _ => &[
            ("j8", 1),
            ("i9", 1),
            ("j6", 2),
            ("i6", 2),
            ("g6", 3),
            ("f6", 3),
            ("g9", 4),
            ("f8", 4),
        ],
    }
}

pub(super) fn shared_board(size: usize) -> Arc<Board> {
    static BOARDS: [OnceLock<Arc<Board>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    BOARDS[size - 5]
        .get_or_init(|| Arc::new(Board::hexhex(size).expect("sizes 5-8 are valid")))
        .clone()
}

pub use crate::game::OptionsError;

impl Configure for Wunchunk {
    const NAME: &'static str = "wunchunk";

    /// `size` (5-8 for two players, 7-8 for three or four; default 6 for two
    /// and 8 for more), `players` (2, 3 or 4; default 2), `start` ("standard"
    /// or "open"; default "standard"), `balance` ("ap", "pie" or "none";
    /// default "ap"). Spec strings write all four.
    const OPTIONS: &'static [OptionInfo] = &[
        OptionInfo {
            name: "size",
            kind: Kind::Int,
            default: Some(|o| {
                Value::Int(
                    if matches!(o.get("players"), Some(Value::Int(p)) if *p != 2) {
                        8
                    } else {
                        6
                    },
                )
            }),
            always_printed: true,
        },
        OptionInfo {
            name: "players",
            kind: Kind::Int,
            default: Some(|_| Value::Int(2)),
            always_printed: true,
        },
        OptionInfo {
            name: "start",
            kind: Kind::Str,
            default: Some(|_| Value::Str("standard".into())),
            always_printed: true,
        },
        OptionInfo {
            name: "balance",
            kind: Kind::Str,
            default: Some(|_| Value::Str("ap".into())),
            always_printed: true,
        },
    ];

    fn from_options(r: &Reader<'_>) -> Result<Self, OptionsError> {
        let players = r.int("players")?;
        if !(2..=4).contains(&players) {
            return Err(OptionsError::new(
                "players",
                format!("players must be 2, 3 or 4, got {players}"),
            ));
        }
        let size = r.int("size")?;
        if !(5..=8).contains(&size) {
            return Err(OptionsError::new(
                "size",
                format!("size must be between 5 and 8, got {size}"),
            ));
        }
        let start: Start = r.str("start")?.parse()?;
        let balance: Balance = r.str("balance")?.parse()?;
        Wunchunk::new(size as usize, players as usize, start, balance)
    }

    fn option_values(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("size", Value::Int(self.size() as i64)),
            ("players", Value::Int(self.players as i64)),
            ("start", Value::Str(self.start.name().into())),
            ("balance", Value::Str(self.balance.name().into())),
        ]
    }
}

impl Facts for Wunchunk {
    /// Colours 1 to 4; `balance=pie` is the pie rule (off: `none`); the
    /// action bound [`action_bound`]; stone planes first; a symmetry may map
    /// the positions before the first action of a turn.
    const FACTS: GameFacts = GameFacts {
        player_names: &["colour 1", "colour 2", "colour 3", "colour 4"],
        pie_rule: Some(PieRule {
            option: "balance",
            on: Setting::Str(Balance::Pie.name()),
            off: Setting::Str(Balance::None.name()),
        }),
        max_actions: Some(action_bound),
        stone_planes: true,
        augment: Augment::TurnStart,
    };
}

/// The same type under its older name.
pub type OptionError = OptionsError;

/// The most actions a game on `cells` cells with `players` seats can last
/// from its start: nothing is removed, so at most one stone action per
/// cell, one "end" per turn that placed stones, fewer than `players` passes
/// in a row (that many end the game) between them, and one swap.
fn action_bound(cells: usize, players: usize) -> usize {
    cells + cells + (players - 1) * (cells + 1) + 1
}

impl Wunchunk {
    /// A new game; errors name the offending argument.
    pub fn new(
        size: usize,
        players: usize,
        start: Start,
        balance: Balance,
    ) -> Result<Wunchunk, OptionsError> {
        if !(2..=4).contains(&players) {
            return Err(OptionsError::new(
                "players",
                format!("players must be 2, 3 or 4, got {players}"),
            ));
        }
        let sizes: &[usize] = if players == 2 { &[5, 6, 7, 8] } else { &[7, 8] };
        if !sizes.contains(&size) {
            return Err(OptionsError::new(
                "size",
                format!("size must be one of {sizes:?} for {players} players, got {size}"),
            ));
        }
        if start == Start::Open && players != 2 {
            return Err(OptionsError::new(
                "start",
                "start='open' needs exactly 2 players",
            ));
        }
        if balance == Balance::Pie && players != 2 {
            return Err(OptionsError::new(
                "balance",
                "balance='pie' needs exactly 2 players",
            ));
        }
        let board = shared_board(size);
        let n = board.num_cells();
        let mut g = Wunchunk {
            groups: Groups::new(n, players),
            empty: Cells::default(),
            num_empty: n as u16,
            st: Status {
                swapped: false,
                to_move: 1,
                phase: if start == Start::Open {
                    Phase::Setup
                } else {
                    Phase::Play
                },
                passes: 0,
                c1_turns: 0,
                swap_ready: false,
                first_turn: true,
                plies: 0,
                allot: 0,
                placed: 0,
                last: 0,
                over: false,
                winners: 0,
            },
            hash: 0,
            players: players as u8,
            start,
            balance,
            board,
        };
        let mut cells = vec![0u8; n];
        if start == Start::Standard {
            for &(label, colour) in start_layout(players, size) {
                cells[g.board.index(label).expect("layout labels exist")] = colour;
            }
        }
        g.set_cells(&cells);
        g.begin_turn();
        Ok(g)
    }

    /// A test position: the given cell colours, regular play, seats owning
    /// their own colours, the balance rule behind (colour 1 has had two
    /// turns), no pass made, no swap on offer. A full board is a finished game.
    pub fn from_cells(
        size: usize,
        players: usize,
        start: Start,
        balance: Balance,
        cells: &[i8],
        to_move: impl Into<IntArg>,
    ) -> Result<Wunchunk, OptionsError> {
        Wunchunk::from_cells_with_turns(size, players, start, balance, cells, to_move, 2i64, 0i64)
    }

    /// `from_cells`, with the number of regular turns colour 1 has completed
    /// (1: the next colour-1 turn is the balance turn; 2 or more: the
    /// balance rule is behind) and the number of consecutive passes just
    /// made (below the number of players). Every value is checked here, as
    /// given.
    #[allow(clippy::too_many_arguments)]
    pub fn from_cells_with_turns(
        size: usize,
        players: usize,
        start: Start,
        balance: Balance,
        cells: &[i8],
        to_move: impl Into<IntArg>,
        colour1_turns: impl Into<IntArg>,
        passes: impl Into<IntArg>,
    ) -> Result<Wunchunk, OptionsError> {
        let mut g = Wunchunk::new(size, players, start, balance)?;
        if let Some(c) = cells.iter().find(|&&c| c < 0 || c as usize > players) {
            return Err(OptionsError::new(
                "position",
                format!("cell value {c} is not a colour 1..{players} (or 0 for empty)"),
            ));
        }
        let to_move = match to_move.into() {
            IntArg::Int(t) if (1..=players as i64).contains(&t) => t as u8,
            given => {
                return Err(OptionsError::new(
                    "to_move",
                    format!("to_move must be in 1..{players}, got {given}"),
                ))
            }
        };
        let colour1_turns = match colour1_turns.into() {
            IntArg::Int(t) if t >= 0 => t.min(2) as u8,
            IntArg::Wide(digits) if !digits.starts_with('-') => 2,
            given => {
                return Err(OptionsError::new(
                    "colour1_turns",
                    format!("colour1_turns must be a non-negative int, got {given}"),
                ))
            }
        };
        let passes = match passes.into() {
            IntArg::Int(p) if (0..players as i64).contains(&p) => p as u8,
            given => {
                return Err(OptionsError::new(
                    "passes",
                    format!("passes must be in 0..{}, got {given}", players - 1),
                ))
            }
        };
        let n = g.board.num_cells();
        if cells.len() != n {
            return Err(OptionsError::new(
                "position",
                format!("expected {n} cells, got {}", cells.len()),
            ));
        }
        let cells: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
        g.set_cells(&cells);
        g.st.phase = Phase::Play;
        g.st.c1_turns = colour1_turns;
        g.st.passes = passes;
        g.st.first_turn = false;
        g.st.to_move = to_move as u8;
        g.begin_turn();
        if g.num_empty == 0 {
            g.finish();
        }
        Ok(g)
    }
}
