//! Board geometry: hexagons with 120-degree corners and the rhombus of Hex,
//! cell indices, labels, axial coordinates, neighbour tables, the ring, sides
//! and corners.
//!
//! The rhombus ([`Board::rhombus`]) numbers and labels its cells its own
//! way, as Hex does; what follows is about hexagons.
//!
//! A board is given by six side lengths, clockwise from the top edge. Cells are
//! indexed `0..num_cells` in label order: bottom row first, left to right.
//! Labels are Abstract Play style: a row letter counted from the bottom (`a`,
//! `b`, ..., `z`, `aa`, `ab`, ...) followed by the 1-based column from the left.
//! Axial coordinates `(q, r)` have `r` growing downward; a hexhex board is
//! centred on `(0, 0)`.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The six axial neighbour offsets.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1)];

/// The six directions in cyclic order around a cell: consecutive entries
/// (and the last and first) are neighbours of each other.
pub const CYCLIC_DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Marker for "no cell" in fixed-size neighbour rows.
pub const NO_CELL: u16 = u16::MAX;

/// Piece kinds with a Zobrist key per cell (`Board::zobrist_key`).
pub const ZOBRIST_KINDS: usize = 8;

/// Largest number of cells a board may have.
pub const MAX_CELLS: usize = 16_000;

/// Largest number of rows or columns of a rhombus.
pub const MAX_RHOMBUS: usize = 25;

/// Largest side of a triangle (its columns are lettered `a` to `z`).
pub const MAX_TRIANGLE: usize = 26;

/// The outline of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A hexagon with 120-degree corners (six side lengths).
    SixSided,
    /// The rhombus of Hex, `rows` x `cols`.
    Rhombus { rows: usize, cols: usize },
    /// The triangle of Y, `size` cells a side.
    Triangle { size: usize },
}

/// Abstract Play's named Churn boards and their side lengths.
pub const NAMED_BOARDS: [(&str, [u16; 6]); 6] = [
    ("hex3", [3, 3, 3, 3, 3, 3]),
    ("limping-34", [3, 4, 3, 4, 3, 4]),
    ("limping-335", [5, 3, 3, 5, 3, 3]),
    ("hex4", [4, 4, 4, 4, 4, 4]),
    ("limping-446", [6, 4, 4, 6, 4, 4]),
    ("hex5", [5, 5, 5, 5, 5, 5]),
];

/// Why a board could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardError(pub String);

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BoardError {}

/// Row name for a 0-based row index counted from the bottom: 0 -> `a`, 25 -> `z`, 26 -> `aa`.
pub fn row_name(index: usize) -> String {
    let mut s = Vec::new();
    let mut i = index + 1;
    while i > 0 {
        let rem = (i - 1) % 26;
        s.push(b'a' + rem as u8);
        i = (i - 1) / 26;
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}

/// A hexagonal board with precomputed tables.
#[derive(Debug, Clone)]
pub struct Board {
    shape: Shape,
    sides_len: [u16; 6],
    /// Name of each row, bottom row first (as `rows`).
    row_names: Vec<String>,
    coords: Vec<(i32, i32)>,
    labels: Vec<String>,
    index_of_label: HashMap<String, u16>,
    /// `neighbors[6*i .. 6*i+6]`, padded with `NO_CELL`.
    neighbors: Vec<u16>,
    degree: Vec<u8>,
    /// Neighbour in each of the `CYCLIC_DIRECTIONS` (`NO_CELL` off the board).
    cyclic: Vec<[u16; 6]>,
    /// `cyclic` with off-board entries replaced by `num_cells` (a sentinel).
    cyclic_padded: Vec<[u16; 6]>,
    /// The neighbours of each cell as bit-set words: up to six (word, mask)
    /// pairs, one per word touched.
    neighbor_words: Vec<[(u16, u64); 6]>,
    /// How many entries of each `neighbor_words` row are used.
    neighbor_words_len: Vec<u8>,
    /// Zobrist keys, `ZOBRIST_KINDS` per cell.
    zobrist: Vec<u64>,
    /// (first cell index, width) per row, bottom row first.
    rows: Vec<(u16, u16)>,
    ring: Vec<u16>,
    sides: [Vec<u16>; 6],
    corners: [u16; 6],
    qmin: i32,
    rmin: i32,
    width: usize,
    height: usize,
    grid: Vec<u16>,
    /// The observation grid where a game lays its cells out its own way
    /// ([`Board::with_observation_grid`]): each cell's (row, column) and
    /// the grid's (height, width); None: the bounding grid of the axial
    /// coordinates.
    observation_grid: Option<(Vec<(u16, u16)>, (usize, usize))>,
    /// Where the cells sit in an observation plane, made on first use
    /// ([`Board::cell_layout`]).
    layout: OnceLock<CellLayout>,
}

impl Board {
    /// The regular hexagon of side `n` (`3n(n-1)+1` cells).
    pub fn hexhex(n: usize) -> Result<Board, BoardError> {
        if !(2..=64).contains(&n) {
            return Err(BoardError(format!(
                "size must be between 2 and 64, got {n}"
            )));
        }
        Board::from_sides([n; 6])
    }

    /// A hexagon with 120-degree corners from its six side lengths, clockwise
    /// from the top edge. Valid when every side is at least 2 and
    /// `s1-s4 == s5-s2 == s3-s6`.
    pub fn from_sides(sides: [usize; 6]) -> Result<Board, BoardError> {
        let [s1, s2, s3, s4, s5, s6] = sides;
        if let Some(k) = sides.iter().position(|&s| s < 2) {
            return Err(BoardError(format!(
                "sides: side {} has length {}, every side needs at least 2 cells",
                k + 1,
                sides[k]
            )));
        }
        if sides.iter().any(|&s| s > 200) {
            return Err(BoardError(
                "sides: side lengths above 200 are not supported".into(),
            ));
        }
        let (a, b, c) = (
            s1 as i64 - s4 as i64,
            s5 as i64 - s2 as i64,
            s3 as i64 - s6 as i64,
        );
        if a != b || b != c {
            return Err(BoardError(format!("sides {sides:?} do not close a 120-degree hexagon: need s1-s4 == s5-s2 == s3-s6, got {a}, {b}, {c}")));
        }
        let nrows = s2 + s3 - 1;
        // Row i counted from the top.
        let row_range = |i: usize| -> (i32, i32) {
            let qmin = -(i.min(s6 - 1) as i32);
            let qmax = s1 as i32 - 1 - (i as i32 - (s2 as i32 - 1)).max(0);
            (qmin, qmax)
        };
        let total: usize = (0..nrows)
            .map(|i| {
                let (lo, hi) = row_range(i);
                (hi - lo + 1) as usize
            })
            .sum();
        if total > MAX_CELLS {
            return Err(BoardError(format!(
                "board has {total} cells; at most {MAX_CELLS} are supported"
            )));
        }
        let mut coords = Vec::with_capacity(total);
        let mut labels = Vec::with_capacity(total);
        let mut rows = Vec::with_capacity(nrows);
        for row in 0..nrows {
            let i = nrows - 1 - row;
            let (qmin, qmax) = row_range(i);
            rows.push((coords.len() as u16, (qmax - qmin + 1) as u16));
            let r = i as i32 - (s2 as i32 - 1);
            let name = row_name(row);
            for (c, q) in (qmin..=qmax).enumerate() {
                coords.push((q, r));
                labels.push(format!("{name}{}", c + 1));
            }
        }
        // Sides, clockwise from the top edge, each from corner to corner.
        let top = |i: usize| rows[nrows - 1 - i];
        let first = |i: usize| top(i).0;
        let last = |i: usize| top(i).0 + top(i).1 - 1;
        let side1: Vec<u16> = (0..s1).map(|j| first(0) + j as u16).collect();
        let side2: Vec<u16> = (0..s2).map(last).collect();
        let side3: Vec<u16> = (s2 - 1..nrows).map(last).collect();
        let side4: Vec<u16> = (0..s4).map(|j| last(nrows - 1) - j as u16).collect();
        let side5: Vec<u16> = (nrows - s5..nrows).rev().map(first).collect();
        let side6: Vec<u16> = (0..s6).rev().map(first).collect();
        let row_names = (0..nrows).map(row_name).collect();
        let sides_len = [
            s1 as u16, s2 as u16, s3 as u16, s4 as u16, s5 as u16, s6 as u16,
        ];
        Ok(Board::build(
            Shape::SixSided,
            sides_len,
            coords,
            labels,
            rows,
            row_names,
            [side1, side2, side3, side4, side5, side6],
        ))
    }

    /// The rhombus of Hex: `rows` x `cols` cells (each 1 to
    /// [`MAX_RHOMBUS`]), every row shifted half a cell right of the one
    /// above. Cell `row * cols + col` (row 0 at the top) is labelled by its
    /// column letter and 1-based row number, as in Hex records and
    /// OpenSpiel: `a1` is the top-left corner, `b1` its right-hand
    /// neighbour, `a2` the cell below it. Axial coordinates are
    /// `(q, r) = (col, row)`. As a hexagon it has the side lengths
    /// `(cols, rows, 1, cols, rows, 1)`: the top row, the right column
    /// downwards, the bottom-right corner, the bottom row leftwards, the
    /// left column upwards, the top-left corner.
    pub fn rhombus(rows: usize, cols: usize) -> Result<Board, BoardError> {
        for (what, v) in [("rows", rows), ("cols", cols)] {
            if !(1..=MAX_RHOMBUS).contains(&v) {
                return Err(BoardError(format!(
                    "{what} must be between 1 and {MAX_RHOMBUS}, got {v}"
                )));
            }
        }
        let coords: Vec<(i32, i32)> = (0..rows * cols)
            .map(|k| ((k % cols) as i32, (k / cols) as i32))
            .collect();
        let labels = (0..rows * cols)
            .map(|k| format!("{}{}", row_name(k % cols), k / cols + 1))
            .collect();
        // (first cell, width) per row, bottom row first.
        let row_list = (0..rows)
            .rev()
            .map(|r| ((r * cols) as u16, cols as u16))
            .collect();
        let row_names = (0..rows).rev().map(|r| (r + 1).to_string()).collect();
        let cell = |r: usize, c: usize| (r * cols + c) as u16;
        let sides = [
            (0..cols).map(|c| cell(0, c)).collect(),
            (0..rows).map(|r| cell(r, cols - 1)).collect(),
            vec![cell(rows - 1, cols - 1)],
            (0..cols).rev().map(|c| cell(rows - 1, c)).collect(),
            (0..rows).rev().map(|r| cell(r, 0)).collect(),
            vec![cell(0, 0)],
        ];
        let len = [cols as u16, rows as u16, 1, cols as u16, rows as u16, 1];
        Ok(Board::build(
            Shape::Rhombus { rows, cols },
            len,
            coords,
            labels,
            row_list,
            row_names,
            sides,
        ))
    }

    /// The triangle of Y: `size` cells a side (1 to [`MAX_TRIANGLE`]),
    /// numbered and labelled as OpenSpiel's `y` does: row `y` (0 at the
    /// top) holds `size - y` cells, `x` from 0 at the left; cell indices
    /// run row by row from the top, and cell `(x, y)` is labelled by the
    /// letter of `x` and the 1-based row number (`a1` the top-left corner,
    /// `b1` right of it, `a2` below it). Axial coordinates are
    /// `(q, r) = (x, y)`, so each row is shifted half a cell right of the
    /// one above. As a hexagon its side lengths are `(size, 1, size, 1,
    /// size, 1)`: the top row, the top-right corner, the long diagonal
    /// down to the bottom corner, that corner, the left column upwards,
    /// the top-left corner.
    pub fn triangle(size: usize) -> Result<Board, BoardError> {
        if !(1..=MAX_TRIANGLE).contains(&size) {
            return Err(BoardError(format!(
                "size must be between 1 and {MAX_TRIANGLE}, got {size}"
            )));
        }
        let mut coords = Vec::new();
        let mut labels = Vec::new();
        let mut starts = Vec::new();
        for y in 0..size {
            starts.push(coords.len() as u16);
            for x in 0..size - y {
                coords.push((x as i32, y as i32));
                labels.push(format!("{}{}", row_name(x), y + 1));
            }
        }
        let cell = |x: usize, y: usize| starts[y] + x as u16;
        let row_list = (0..size)
            .rev()
            .map(|y| (starts[y], (size - y) as u16))
            .collect();
        let row_names = (0..size).rev().map(|y| (y + 1).to_string()).collect();
        let sides = [
            (0..size).map(|x| cell(x, 0)).collect(),
            vec![cell(size - 1, 0)],
            (0..size).map(|y| cell(size - 1 - y, y)).collect(),
            vec![cell(0, size - 1)],
            (0..size).rev().map(|y| cell(0, y)).collect(),
            vec![cell(0, 0)],
        ];
        let len = [size as u16, 1, size as u16, 1, size as u16, 1];
        Ok(Board::build(
            Shape::Triangle { size },
            len,
            coords,
            labels,
            row_list,
            row_names,
            sides,
        ))
    }

    /// The same board with its cells renumbered row by row from the top
    /// row down (left to right in each row), the order of OpenSpiel's
    /// boards; labels, coordinates, rows and sides stay with their cells.
    pub fn top_down(self) -> Board {
        let order: Vec<usize> = self
            .rows
            .iter()
            .rev()
            .flat_map(|&(start, w)| start as usize..(start + w) as usize)
            .collect();
        let mut new_of = vec![0u16; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_of[old] = new as u16;
        }
        let coords = order.iter().map(|&c| self.coords[c]).collect();
        let labels = order.iter().map(|&c| self.labels[c].clone()).collect();
        let rows = self
            .rows
            .iter()
            .map(|&(start, w)| (new_of[start as usize], w))
            .collect();
        let sides = self
            .sides
            .clone()
            .map(|s| s.iter().map(|&c| new_of[c as usize]).collect());
        Board::build(
            self.shape,
            self.sides_len,
            coords,
            labels,
            rows,
            self.row_names,
            sides,
        )
    }

    /// The tables of a board from its cells (axial coordinates and labels,
    /// in index order), rows and sides.
    fn build(
        shape: Shape,
        sides_len: [u16; 6],
        coords: Vec<(i32, i32)>,
        labels: Vec<String>,
        rows: Vec<(u16, u16)>,
        row_names: Vec<String>,
        sides_v: [Vec<u16>; 6],
    ) -> Board {
        let total = coords.len();
        let qmin = coords.iter().map(|c| c.0).min().unwrap();
        let qmax = coords.iter().map(|c| c.0).max().unwrap();
        let rmin = coords.iter().map(|c| c.1).min().unwrap();
        let rmax = coords.iter().map(|c| c.1).max().unwrap();
        let width = (qmax - qmin + 1) as usize;
        let height = (rmax - rmin + 1) as usize;
        let mut grid = vec![NO_CELL; width * height];
        for (k, &(q, r)) in coords.iter().enumerate() {
            grid[(r - rmin) as usize * width + (q - qmin) as usize] = k as u16;
        }
        let lookup = |q: i32, r: i32| -> u16 {
            if q < qmin || q > qmax || r < rmin || r > rmax {
                NO_CELL
            } else {
                grid[(r - rmin) as usize * width + (q - qmin) as usize]
            }
        };
        let mut neighbors = vec![NO_CELL; 6 * total];
        let mut degree = vec![0u8; total];
        for (k, &(q, r)) in coords.iter().enumerate() {
            let mut d = 0;
            for (dq, dr) in DIRECTIONS {
                let n = lookup(q + dq, r + dr);
                if n != NO_CELL {
                    neighbors[6 * k + d] = n;
                    d += 1;
                }
            }
            degree[k] = d as u8;
        }
        let cyclic: Vec<[u16; 6]> = coords
            .iter()
            .map(|&(q, r)| CYCLIC_DIRECTIONS.map(|(dq, dr)| lookup(q + dq, r + dr)))
            .collect();
        let cyclic_padded: Vec<[u16; 6]> = cyclic
            .iter()
            .map(|cy| cy.map(|c| if c == NO_CELL { total as u16 } else { c }))
            .collect();
        let corners = [
            sides_v[0][0],
            sides_v[1][0],
            sides_v[2][0],
            sides_v[3][0],
            sides_v[4][0],
            sides_v[5][0],
        ];
        let mut ring = Vec::new();
        for s in &sides_v {
            ring.extend_from_slice(&s[..s.len() - 1]);
        }
        // A rhombus one cell wide meets itself: keep each cell once.
        let mut seen = vec![false; total];
        ring.retain(|&c| !std::mem::replace(&mut seen[c as usize], true));
        if ring.is_empty() {
            ring.push(0);
        }
        let (neighbor_words, neighbor_words_len): (Vec<[(u16, u64); 6]>, Vec<u8>) = (0..total)
            .map(|k| {
                let mut out = [(0u16, 0u64); 6];
                let mut used = 0;
                for &n in &neighbors[6 * k..6 * k + degree[k] as usize] {
                    let (w, bit) = ((n / 64), 1u64 << (n % 64));
                    match out[..used].iter_mut().find(|e| e.0 == w) {
                        Some(e) => e.1 |= bit,
                        None => {
                            out[used] = (w, bit);
                            used += 1;
                        }
                    }
                }
                (out, used as u8)
            })
            .unzip();
        let zobrist = (0..total * ZOBRIST_KINDS)
            .map(|i| crate::zobrist::piece(i / ZOBRIST_KINDS, (i % ZOBRIST_KINDS) as u64))
            .collect();
        let index_of_label = labels
            .iter()
            .enumerate()
            .map(|(k, l)| (l.clone(), k as u16))
            .collect();
        Board {
            shape,
            sides_len,
            row_names,
            coords,
            labels,
            index_of_label,
            neighbors,
            degree,
            cyclic,
            cyclic_padded,
            neighbor_words,
            neighbor_words_len,
            zobrist,
            rows,
            ring,
            sides: sides_v,
            corners,
            qmin,
            rmin,
            width,
            height,
            grid,
            observation_grid: None,
            layout: OnceLock::new(),
        }
    }

    /// The same board whose observation grid ([`Board::grid_pos`],
    /// [`Board::grid_shape`]) is `positions` (each cell's (row, column),
    /// all distinct) in a grid of `shape` (height, width), for a game whose
    /// observation lays the cells out its own way (OpenSpiel's Havannah:
    /// cell `(x, y)` at row `y`, column `x`).
    pub fn with_observation_grid(
        mut self,
        positions: Vec<(usize, usize)>,
        shape: (usize, usize),
    ) -> Result<Board, BoardError> {
        if positions.len() != self.num_cells() {
            return Err(BoardError(format!(
                "expected {} grid positions, got {}",
                self.num_cells(),
                positions.len()
            )));
        }
        let mut seen = vec![false; shape.0 * shape.1];
        for &(r, c) in &positions {
            if r >= shape.0 || c >= shape.1 || std::mem::replace(&mut seen[r * shape.1 + c], true) {
                return Err(BoardError(format!(
                    "grid position ({r}, {c}) is outside the {}x{} grid or repeated",
                    shape.0, shape.1
                )));
            }
        }
        let positions = positions
            .iter()
            .map(|&(r, c)| (r as u16, c as u16))
            .collect();
        self.observation_grid = Some((positions, shape));
        self.layout = OnceLock::new();
        Ok(self)
    }

    /// The same board with other cell labels (one per cell, all distinct),
    /// for a game whose notation names cells its own way (Quintun's record
    /// notation). Cell indices and everything else stay as they are.
    pub fn with_labels(mut self, labels: Vec<String>) -> Result<Board, BoardError> {
        if labels.len() != self.num_cells() {
            return Err(BoardError(format!(
                "expected {} labels, got {}",
                self.num_cells(),
                labels.len()
            )));
        }
        let index: HashMap<String, u16> = labels
            .iter()
            .enumerate()
            .map(|(k, l)| (l.clone(), k as u16))
            .collect();
        if index.len() != labels.len() {
            return Err(BoardError("cell labels must be distinct".into()));
        }
        self.labels = labels;
        self.index_of_label = index;
        Ok(self)
    }

    /// The same board with other row names (one per row, bottom row first,
    /// as [`Board::rows`]), for a game whose notation numbers rows its own
    /// way (OpenSpiel's Havannah: 1 at the top).
    pub fn with_row_names(mut self, names: Vec<String>) -> Result<Board, BoardError> {
        if names.len() != self.rows.len() {
            return Err(BoardError(format!(
                "expected {} row names, got {}",
                self.rows.len(),
                names.len()
            )));
        }
        self.row_names = names;
        Ok(self)
    }

    /// One of Abstract Play's named boards (`hex3`, `limping-34`, ...).
    pub fn named(name: &str) -> Result<Board, BoardError> {
        match NAMED_BOARDS.iter().find(|(n, _)| *n == name) {
            Some((_, s)) => Board::from_sides(s.map(|x| x as usize)),
            None => {
                let names: Vec<&str> = NAMED_BOARDS.iter().map(|(n, _)| *n).collect();
                Err(BoardError(format!(
                    "unknown board {name:?}; known boards: {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// Where the cells sit in an observation plane ([`CellLayout`]), made
    /// on first use and kept: the float32 observation of a game with a
    /// direct writer goes through it ([`crate::vector::write_f32_observation`]).
    pub(crate) fn cell_layout(&self) -> &CellLayout {
        self.layout.get_or_init(|| CellLayout::of(self))
    }

    #[inline]
    pub fn num_cells(&self) -> usize {
        self.coords.len()
    }

    pub fn side_lengths(&self) -> [u16; 6] {
        self.sides_len
    }

    /// True for a regular hexagon.
    pub fn is_hexhex(&self) -> bool {
        self.shape == Shape::SixSided && self.sides_len.iter().all(|&s| s == self.sides_len[0])
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side of a triangle.
    pub fn triangle_size(&self) -> Option<usize> {
        match self.shape {
            Shape::Triangle { size } => Some(size),
            _ => None,
        }
    }

    /// (rows, cols) of a rhombus.
    pub fn rhombus_dims(&self) -> Option<(usize, usize)> {
        match self.shape {
            Shape::Rhombus { rows, cols } => Some((rows, cols)),
            Shape::SixSided | Shape::Triangle { .. } => None,
        }
    }

    /// The name Abstract Play uses for this board, if any.
    pub fn ap_name(&self) -> Option<&'static str> {
        NAMED_BOARDS
            .iter()
            .find(|(_, s)| *s == self.sides_len)
            .map(|(n, _)| *n)
    }

    #[inline]
    pub fn label(&self, cell: usize) -> &str {
        &self.labels[cell]
    }

    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Cell index of a label (exact, lower-case).
    pub fn index(&self, label: &str) -> Option<usize> {
        self.index_of_label.get(label).map(|&k| k as usize)
    }

    #[inline]
    pub fn axial(&self, cell: usize) -> (i32, i32) {
        self.coords[cell]
    }

    /// Cell at axial coordinates, if on the board.
    pub fn at_axial(&self, q: i32, r: i32) -> Option<usize> {
        let (x, y) = (q - self.qmin, r - self.rmin);
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        let c = self.grid[y as usize * self.width + x as usize];
        (c != NO_CELL).then_some(c as usize)
    }

    /// Neighbours of a cell (2 to 6 of them).
    #[inline]
    pub fn neighbors(&self, cell: usize) -> &[u16] {
        &self.neighbors[6 * cell..6 * cell + self.degree[cell] as usize]
    }

    /// Neighbours in `CYCLIC_DIRECTIONS` order, `NO_CELL` where off the board.
    /// Direction `j` seen from the neighbour is `(j + 3) % 6`.
    #[inline]
    pub fn cyclic_neighbors(&self, cell: usize) -> &[u16; 6] {
        &self.cyclic[cell]
    }

    /// [`Board::cyclic_neighbors`] with `num_cells()` in place of `NO_CELL`,
    /// for tables that keep one spare sentinel entry and skip the bounds test.
    #[inline]
    pub fn cyclic_neighbors_padded(&self, cell: usize) -> &[u16; 6] {
        &self.cyclic_padded[cell]
    }

    /// The whole table behind [`Board::cyclic_neighbors_padded`].
    #[inline]
    pub fn cyclic_padded_table(&self) -> &[[u16; 6]] {
        &self.cyclic_padded
    }

    /// Neighbours of `cell` as (bit-set word, mask) pairs, one per word
    /// (on boards of up to 64 cells, always one).
    #[inline]
    pub fn neighbor_words(&self, cell: usize) -> &[(u16, u64)] {
        &self.neighbor_words[cell][..self.neighbor_words_len[cell] as usize]
    }

    /// `zobrist::piece(cell, kind)` from a table (`kind < ZOBRIST_KINDS`).
    #[inline]
    pub fn zobrist_key(&self, cell: usize, kind: usize) -> u64 {
        self.zobrist[cell * ZOBRIST_KINDS + kind]
    }

    /// The full neighbour table, `6 * num_cells`, padded with `NO_CELL`.
    pub fn neighbor_table(&self) -> &[u16] {
        &self.neighbors
    }

    /// (first cell, width) of each row, bottom row first.
    pub fn rows(&self) -> &[(u16, u16)] {
        &self.rows
    }

    /// The name of each row as the labels spell it, bottom row first (as
    /// [`Board::rows`]): `a`, `b`, ... on hexagons, `r`, ..., `2`, `1` on
    /// a rhombus.
    pub fn row_names(&self) -> &[String] {
        &self.row_names
    }

    /// Edge cells in clockwise order starting at the top-left corner.
    pub fn ring(&self) -> &[u16] {
        &self.ring
    }

    pub fn is_ring(&self, cell: usize) -> bool {
        self.degree[cell] < 6
    }

    /// The six sides, clockwise from the top edge, each listed clockwise from
    /// corner to corner (both corners included).
    pub fn sides(&self) -> &[Vec<u16>; 6] {
        &self.sides
    }

    /// The six corners; corner k starts side k.
    pub fn corners(&self) -> [u16; 6] {
        self.corners
    }

    /// Size of the observation grid, (height, width): the bounding grid of
    /// the axial coordinates (row `r - rmin`, column `q - qmin`) unless the
    /// game set its own ([`Board::with_observation_grid`]).
    pub fn grid_shape(&self) -> (usize, usize) {
        match &self.observation_grid {
            Some((_, shape)) => *shape,
            None => (self.height, self.width),
        }
    }

    /// (row, column) of a cell in the observation grid ([`Board::grid_shape`]).
    pub fn grid_pos(&self, cell: usize) -> (usize, usize) {
        if let Some((positions, _)) = &self.observation_grid {
            let (r, c) = positions[cell];
            return (r as usize, c as usize);
        }
        let (q, r) = self.coords[cell];
        ((r - self.rmin) as usize, (q - self.qmin) as usize)
    }

    /// A text picture of the board, top row first; `cell_char` chooses the
    /// glyph of each cell. Rows are labelled on the left.
    pub fn diagram(&self, cell_char: impl Fn(usize) -> char) -> String {
        let nrows = self.rows.len();
        let max_w = self.rows.iter().map(|r| r.1).max().unwrap_or(0) as usize;
        let label_w = self.row_names.iter().map(|n| n.len()).max().unwrap_or(0);
        let mut out = String::new();
        for row in (0..nrows).rev() {
            let (start, w) = self.rows[row];
            let name = &self.row_names[row];
            out.push_str(&format!("{name:>label_w$} "));
            let (q0, r0) = self.coords[start as usize];
            // Horizontal position in half-cells: 2q + r, shifted to start at 0.
            let x0 = 2 * (q0 - self.qmin) + (r0 - self.rmin);
            let min_x = (0..nrows)
                .map(|rw| {
                    let (q, r) = self.coords[self.rows[rw].0 as usize];
                    2 * (q - self.qmin) + (r - self.rmin)
                })
                .min()
                .unwrap_or(0);
            for _ in 0..(x0 - min_x) {
                out.push(' ');
            }
            for c in 0..w as usize {
                if c > 0 {
                    out.push(' ');
                }
                out.push(cell_char(start as usize + c));
            }
            out.push('\n');
        }
        let _ = max_w;
        out
    }
}

/// Where a board's cells sit in an observation plane: runs of cells with
/// consecutive numbers on consecutive plane indices, and which grid points
/// are cells.
#[derive(Debug, Clone, PartialEq)]
pub struct CellLayout {
    pub(crate) plane: usize,
    /// The copies [`CellLayout::spread_into`] makes of the runs of cells
    /// with consecutive numbers on consecutive plane indices, as (first
    /// cell, plane index): a block of sixteen per run of at most sixteen
    /// whose values have a whole block from its first cell (by increasing
    /// plane index; what lands past the run is written again by a later
    /// copy or lies off the board); the other runs exactly, in copies of
    /// eight cells, then of four (the last copy of a run overlapping the
    /// one before when its length is not a multiple), and of single cells
    /// (runs below four cells).
    copies16: Vec<(u32, u32)>,
    copies8: Vec<(u32, u32)>,
    copies4: Vec<(u32, u32)>,
    copies1: Vec<(u32, u32)>,
    /// 0xff on cells, 0 elsewhere (one per plane index).
    pub(crate) mask: Vec<u8>,
    /// The same as float32 values (1.0 on cells), for [`write_plane`].
    pub(crate) mask_f32: Vec<f32>,
    /// A plane of 1.0, for [`fill_plane`].
    pub(crate) ones: Vec<f32>,
}

/// Bytes per block copy in [`CellLayout::spread_into`].
const BLOCK: usize = 16;

impl CellLayout {
    pub fn of(board: &Board) -> CellLayout {
        let (h, w) = board.grid_shape();
        let plane = h * w;
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        let mut on_board = vec![false; plane];
        for cell in 0..board.num_cells() {
            let (r, c) = board.grid_pos(cell);
            let i = r * w + c;
            on_board[i] = true;
            match runs.last_mut() {
                Some((c0, i0, len)) if *c0 + *len == cell && *i0 + *len == i => *len += 1,
                _ => runs.push((cell, i, 1)),
            }
        }
        runs.sort_by_key(|r| r.1);
        let (mut copies16, mut copies8, mut copies4, mut copies1) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (c0, i0, len) in runs {
            let at = |k: usize| ((c0 + k) as u32, (i0 + k) as u32);
            if len <= BLOCK && c0 + BLOCK <= board.num_cells() {
                copies16.push(at(0));
            } else if len >= 8 {
                copies8.extend((0..len / 8).map(|j| at(8 * j)));
                if !len.is_multiple_of(8) {
                    copies8.push(at(len - 8));
                }
            } else if len >= 4 {
                copies4.extend([at(0), at(len - 4)]);
            } else {
                copies1.extend((0..len).map(at));
            }
        }
        let mask = on_board.iter().map(|&b| if b { 0xff } else { 0 }).collect();
        let mask_f32 = on_board.iter().map(|&b| f32::from(u8::from(b))).collect();
        CellLayout {
            plane,
            copies16,
            copies8,
            copies4,
            copies1,
            mask,
            mask_f32,
            ones: vec![1.0; plane],
        }
    }

    /// `values` (one byte per cell of the layout's board) placed on the
    /// plane: `dst` then holds `values[cell]` at each cell's index and
    /// unspecified bytes elsewhere (to be masked by `self.mask`). Every
    /// copy has a fixed size (no call): the blocks of sixteen first, by
    /// increasing plane index, then the exact copies, which write over
    /// what the blocks left past their runs. `dst` holds at least
    /// [`CellLayout::spread_len`] bytes (a block past the plane).
    pub(crate) fn spread_into(&self, values: &[u8], dst: &mut [u8]) {
        for &(c, i) in &self.copies16 {
            let (c, i) = (c as usize, i as usize);
            let src: &[u8; BLOCK] = values[c..c + BLOCK].try_into().expect("a block");
            let d: &mut [u8; BLOCK] = (&mut dst[i..i + BLOCK]).try_into().expect("a block");
            *d = *src;
        }
        for &(c, i) in &self.copies8 {
            let (c, i) = (c as usize, i as usize);
            let src: &[u8; 8] = values[c..c + 8].try_into().expect("eight bytes");
            let d: &mut [u8; 8] = (&mut dst[i..i + 8]).try_into().expect("eight bytes");
            *d = *src;
        }
        for &(c, i) in &self.copies4 {
            let (c, i) = (c as usize, i as usize);
            let src: &[u8; 4] = values[c..c + 4].try_into().expect("four bytes");
            let d: &mut [u8; 4] = (&mut dst[i..i + 4]).try_into().expect("four bytes");
            *d = *src;
        }
        for &(c, i) in &self.copies1 {
            dst[i as usize] = values[c as usize];
        }
    }

    /// Bytes [`CellLayout::spread_into`] needs.
    pub(crate) fn spread_len(&self) -> usize {
        self.plane + BLOCK
    }

    /// Working space of a direct observation writer, from `scratch`: room
    /// for one spread plane ([`CellLayout::spread_into`]) and `planes`
    /// planes of masks ([`mask_where`]), so that consecutive indicator
    /// planes go out in one [`write_masks`].
    pub(crate) fn spaces<'s>(
        &self,
        scratch: &'s mut Vec<u8>,
        planes: usize,
    ) -> (&'s mut [u8], &'s mut [u8]) {
        let n = self.spread_len();
        if scratch.len() < n + planes * self.plane {
            scratch.resize(n + planes * self.plane, 0);
        }
        let (grid, masks) = scratch.split_at_mut(n);
        (grid, &mut masks[..planes * self.plane])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hexhex_counts() {
        for n in 2..=32 {
            let b = Board::hexhex(n).unwrap();
            assert_eq!(b.num_cells(), 3 * n * (n - 1) + 1);
            assert_eq!(b.ring().len(), 6 * (n - 1));
            let interior = (0..b.num_cells()).filter(|&c| !b.is_ring(c)).count();
            assert_eq!(interior, b.num_cells() - 6 * (n - 1));
            for (k, s) in b.sides().iter().enumerate() {
                assert_eq!(s.len(), n);
                assert_eq!(s[s.len() - 1], b.sides()[(k + 1) % 6][0]);
            }
        }
    }

    #[test]
    fn labels_match_the_card() {
        let b = Board::hexhex(6).unwrap();
        assert_eq!(b.axial(b.index("f6").unwrap()), (0, 0));
        // label -> axial: r = (n-1) - L, q = (c-1) - (n-1) + max(0, L-(n-1))
        let n = 6i32;
        for cell in 0..b.num_cells() {
            let lab = b.label(cell);
            let l = (lab.as_bytes()[0] - b'a') as i32;
            let c: i32 = lab[1..].parse().unwrap();
            assert_eq!(
                b.axial(cell),
                ((c - 1) - (n - 1) + (l - (n - 1)).max(0), (n - 1) - l)
            );
        }
    }

    #[test]
    fn named_boards() {
        let cells: Vec<usize> = NAMED_BOARDS
            .iter()
            .map(|(n, _)| Board::named(n).unwrap().num_cells())
            .collect();
        assert_eq!(cells, vec![19, 27, 29, 37, 51, 61]);
        let widths: Vec<u16> = Board::named("limping-34")
            .unwrap()
            .rows()
            .iter()
            .rev()
            .map(|r| r.1)
            .collect();
        assert_eq!(widths, vec![3, 4, 5, 6, 5, 4]);
    }

    #[test]
    fn neighbours_are_symmetric() {
        let b = Board::from_sides([3, 4, 3, 4, 3, 4]).unwrap();
        for c in 0..b.num_cells() {
            for &n in b.neighbors(c) {
                assert!(b.neighbors(n as usize).contains(&(c as u16)));
            }
        }
    }

    #[test]
    fn cyclic_neighbours_are_adjacent_in_turn() {
        let b = Board::hexhex(4).unwrap();
        for c in 0..b.num_cells() {
            let cy = b.cyclic_neighbors(c);
            let mut present: Vec<u16> = cy.iter().copied().filter(|&x| x != NO_CELL).collect();
            present.sort();
            let mut plain = b.neighbors(c).to_vec();
            plain.sort();
            assert_eq!(present, plain);
            for j in 0..6 {
                let (a, n) = (cy[j], cy[(j + 1) % 6]);
                if a != NO_CELL && n != NO_CELL {
                    assert!(b.neighbors(a as usize).contains(&n));
                }
                if a != NO_CELL {
                    assert_eq!(b.cyclic_neighbors(a as usize)[(j + 3) % 6], c as u16);
                }
            }
        }
    }

    #[test]
    fn neighbour_words_cover_wide_boards() {
        for b in [
            Board::hexhex(40).unwrap(),
            Board::from_sides([2, 64, 2, 64, 2, 64]).unwrap(),
        ] {
            for c in 0..b.num_cells() {
                let mut from_words: Vec<usize> = Vec::new();
                for &(w, m) in b.neighbor_words(c) {
                    for bit in 0..64 {
                        if m >> bit & 1 != 0 {
                            from_words.push(w as usize * 64 + bit);
                        }
                    }
                }
                let mut plain: Vec<usize> = b.neighbors(c).iter().map(|&x| x as usize).collect();
                plain.sort();
                from_words.sort();
                assert_eq!(from_words, plain);
            }
        }
    }

    #[test]
    fn rhombus_cells_labels_and_neighbours() {
        let b = Board::rhombus(3, 4).unwrap();
        assert_eq!(b.num_cells(), 12);
        assert_eq!(
            (b.label(0), b.label(1), b.label(4), b.label(11)),
            ("a1", "b1", "a2", "d3")
        );
        assert_eq!(b.index("c2"), Some(6));
        assert_eq!(b.rhombus_dims(), Some((3, 4)));
        assert!(!b.is_hexhex());
        // Hex adjacency: (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1), (r+1, c).
        for cell in 0..12 {
            let (r, c) = ((cell / 4) as i32, (cell % 4) as i32);
            let mut expect: Vec<u16> = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
                .iter()
                .map(|(dr, dc)| (r + dr, c + dc))
                .filter(|&(r, c)| (0..3).contains(&r) && (0..4).contains(&c))
                .map(|(r, c)| (r * 4 + c) as u16)
                .collect();
            let mut got = b.neighbors(cell).to_vec();
            expect.sort();
            got.sort();
            assert_eq!(got, expect, "cell {cell}");
            assert_eq!(b.grid_pos(cell), (r as usize, c as usize));
        }
        assert_eq!(b.grid_shape(), (3, 4));
        let sides: Vec<Vec<u16>> = b.sides().to_vec();
        assert_eq!(sides[0], vec![0, 1, 2, 3]);
        assert_eq!(sides[1], vec![3, 7, 11]);
        assert_eq!(sides[3], vec![11, 10, 9, 8]);
        assert_eq!(sides[4], vec![8, 4, 0]);
        assert_eq!(b.ring().len(), 10);
        assert_eq!(b.diagram(|_| '.'), "1 . . . .\n2  . . . .\n3   . . . .\n");
        for (r, c) in [(1, 1), (1, 5), (5, 1), (25, 25)] {
            let b = Board::rhombus(r, c).unwrap();
            assert_eq!(b.num_cells(), r * c);
            let mut ring = b.ring().to_vec();
            ring.sort();
            ring.dedup();
            assert_eq!(ring.len(), b.ring().len());
            assert_eq!(ring.len(), (0..r * c).filter(|&k| b.is_ring(k)).count());
        }
        assert!(Board::rhombus(0, 3).is_err());
        assert!(Board::rhombus(3, 26).is_err());
    }

    #[test]
    fn triangle_cells_labels_and_neighbours() {
        let b = Board::triangle(4).unwrap();
        assert_eq!(b.num_cells(), 10);
        let labels: Vec<&str> = (0..10).map(|c| b.label(c)).collect();
        assert_eq!(
            labels,
            ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"]
        );
        assert_eq!(b.triangle_size(), Some(4));
        assert!(!b.is_hexhex() && b.rhombus_dims().is_none());
        // OpenSpiel's y neighbours of (x, y): (x, y-1), (x+1, y-1), (x+1, y), (x, y+1), (x-1, y+1), (x-1, y).
        let at = |x: i32, y: i32| (0..10).find(|&c| b.axial(c) == (x, y));
        for cell in 0..10 {
            let (x, y) = b.axial(cell);
            let mut expect: Vec<u16> = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
                .iter()
                .filter_map(|(dx, dy)| at(x + dx, y + dy))
                .map(|c| c as u16)
                .collect();
            let mut got = b.neighbors(cell).to_vec();
            expect.sort();
            got.sort();
            assert_eq!(got, expect, "cell {cell}");
        }
        assert_eq!(b.sides()[0], vec![0, 1, 2, 3]);
        assert_eq!(b.sides()[2], vec![3, 6, 8, 9]);
        assert_eq!(b.sides()[4], vec![9, 7, 4, 0]);
        assert_eq!(b.ring().len(), 9);
        assert_eq!(b.diagram(|_| '.'), "1 . . . .\n2  . . .\n3   . .\n4    .\n");
        assert_eq!(Board::triangle(1).unwrap().ring(), &[0]);
        assert!(Board::triangle(0).is_err() && Board::triangle(27).is_err());
    }

    #[test]
    fn top_down_renumbers_from_the_top_row() {
        let b = Board::hexhex(3).unwrap();
        let t = b.clone().top_down();
        assert_eq!(t.num_cells(), b.num_cells());
        let rows: Vec<u16> = t.rows().iter().rev().map(|r| r.0).collect();
        assert_eq!(rows, vec![0, 3, 7, 12, 16]);
        for c in 0..t.num_cells() {
            let old = b.index(t.label(c)).unwrap();
            assert_eq!(t.axial(c), b.axial(old));
            let mut n1: Vec<&str> = t
                .neighbors(c)
                .iter()
                .map(|&x| t.label(x as usize))
                .collect();
            let mut n2: Vec<&str> = b
                .neighbors(old)
                .iter()
                .map(|&x| b.label(x as usize))
                .collect();
            n1.sort();
            n2.sort();
            assert_eq!(n1, n2);
        }
        for k in 0..6 {
            let s1: Vec<&str> = t.sides()[k].iter().map(|&x| t.label(x as usize)).collect();
            let s2: Vec<&str> = b.sides()[k].iter().map(|&x| b.label(x as usize)).collect();
            assert_eq!(s1, s2);
        }
        assert_eq!(t.diagram(|_| '.'), b.diagram(|_| '.'));
    }

    #[test]
    fn bad_sides() {
        assert!(Board::from_sides([3, 4, 3, 3, 3, 4]).is_err());
        assert!(Board::from_sides([1, 1, 1, 1, 1, 1]).is_err());
        assert!(Board::hexhex(1).is_err());
    }
}
