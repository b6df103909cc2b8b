//! Spec strings, `name(key=value,...)`: `"churn(size=3)"`,
//! `"wunchunk(size=5,players=3)"`, `"churn(sides=(3,4,3,4,3,4),pie=false)"`.
//! Parsed here, once, and printed here, once; every game's
//! [`Game::spec`](crate::Game::spec) round-trips through
//! [`catalog::load`](crate::catalog::load).
//!
//! Each game declares its options in one table, [`Configure::OPTIONS`]: the
//! name, the kind of value ([`Kind`]) and the default, written once (a
//! default may depend on the other options given: Wunchunk's size is 6 for
//! two players and 8 for three or four). The constructors, the Python
//! classes, spec strings and the exported table all read it.
//!
//! Values are read by the kind of the option: for an option whose values are
//! strings a bare word or number is that string (`balance=none` is
//! `"none"`); for a boolean option `true`/`yes`/`on` and `false`/`no`/`off`
//! are booleans; numbers are integers, `(...)` or `[...]` tuples, and a
//! quoted value is a string. Options of a game this crate does not know are
//! read the same way as integers/booleans, and `none` there is
//! [`Value::None`].
//!
//! ```
//! use hexcore_core::spec::{self, Value};
//! use hexcore_core::{catalog, Game};
//!
//! let s = catalog::parse("wunchunk(players=3, balance=none)").unwrap();
//! assert_eq!(s.name, "wunchunk");
//! assert_eq!(s.options.get("balance"), Some(&Value::Str("none".into())));
//! let g: hexcore_core::Wunchunk = spec::build(&s.options).unwrap();
//! assert_eq!(g.spec(), "wunchunk(size=8,players=3,start=standard,balance='none')");
//! ```

use std::fmt::{self, Write as _};

use crate::board::Board;

/// Invalid constructor options or set-up position: the offending argument
/// (as the Python constructor names it) and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionsError {
    pub argument: &'static str,
    pub message: String,
}

impl OptionsError {
    pub fn new(argument: &'static str, message: impl Into<String>) -> OptionsError {
        OptionsError {
            argument,
            message: message.into(),
        }
    }
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptionsError {}

/// Spec values nest at most this many brackets deep.
pub const MAX_NESTING: usize = 8;

/// The kind of value an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Int,
    /// A tuple of integers.
    Ints,
    /// A string (a bare word in a spec string).
    Str,
    /// True or false.
    Bool,
}

impl Kind {
    /// `"int"`, `"ints"`, `"str"` or `"bool"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Ints => "ints",
            Kind::Str => "str",
            Kind::Bool => "bool",
        }
    }
}

/// One option value, from a spec string or from the Python caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    /// An integer beyond 64 bits, as its digits: out of every range, and
    /// messages show the number given.
    BigInt(String),
    Str(String),
    Tuple(Vec<Value>),
    /// A value of no kind an option takes, kept as its text for messages
    /// (a Python float, say).
    Other(String),
}

impl Value {
    /// The value as Python writes it, for messages: `'gap'`, `True`, `(3, 4)`.
    pub fn repr(&self) -> String {
        match self {
            Value::None => "None".into(),
            Value::Bool(b) => (if *b { "True" } else { "False" }).into(),
            Value::Int(i) => i.to_string(),
            Value::BigInt(s) => s.clone(),
            Value::Str(s) => repr_str(s),
            Value::Tuple(v) if v.len() == 1 => format!("({},)", v[0].repr()),
            Value::Tuple(v) => format!(
                "({})",
                v.iter().map(Value::repr).collect::<Vec<_>>().join(", ")
            ),
            Value::Other(s) => s.clone(),
        }
    }
}

/// Written as in a spec string: a string is bare when it reads back as
/// itself for any option (not a keyword, not a number), quoted otherwise.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::None => f.write_str("none"),
            Value::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::BigInt(s) => f.write_str(s),
            Value::Str(s) if is_bare(s) && matches!(generic(s, 0), Ok(Value::Str(_))) => {
                f.write_str(s)
            }
            Value::Str(s) => f.write_str(&repr_str(s)),
            Value::Tuple(v) => {
                f.write_char('(')?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_char(')')
            }
            Value::Other(s) => f.write_str(s),
        }
    }
}

/// A value that is one of a few names: what [`choice!`] parses, and the
/// error for a name outside the list (`start must be 'standard' or 'open',
/// got 'x'`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceError {
    /// What the value is (`"start"`, `"unit"`), as options and arguments name it.
    pub what: &'static str,
    /// The names allowed, in declaration order.
    pub names: &'static [&'static str],
    /// The text given.
    pub got: String,
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted: Vec<String> = self.names.iter().map(|n| format!("'{n}'")).collect();
        let list = match quoted.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => quoted.join(""),
        };
        write!(
            f,
            "{} must be {list}, got {}",
            self.what,
            repr_str(&self.got)
        )
    }
}

impl std::error::Error for ChoiceError {}

impl From<ChoiceError> for OptionsError {
    fn from(e: ChoiceError) -> OptionsError {
        OptionsError::new(e.what, e.to_string())
    }
}

/// An enum whose values are named in options and arguments (Wunchunk's
/// `start`, perft's `unit`, the batched search's `algorithm`): the enum, its
/// names, `name()`, `parse()`, `Display` and `FromStr` (erring with a
/// [`ChoiceError`]), declared once.
///
/// ```
/// hexcore_core::choice! {
///     /// A colour.
///     pub enum Colour("colour") { Red = "red", Blue = "blue" }
/// }
/// assert_eq!("blue".parse::<Colour>(), Ok(Colour::Blue));
/// assert_eq!(Colour::Red.to_string(), "red");
/// assert_eq!("x".parse::<Colour>().unwrap_err().to_string(), "colour must be 'red' or 'blue', got 'x'");
/// ```
#[macro_export]
macro_rules! choice {
    ($(#[$meta:meta])* $vis:vis enum $T:ident($what:literal) { $($(#[$vmeta:meta])* $V:ident = $name:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $T {
            $($(#[$vmeta])* $V,)+
        }

        impl $T {
            /// The names, in declaration order, as options and arguments spell them.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The name of this value.
            pub const fn name(self) -> &'static str {
                match self {
                    $($T::$V => $name,)+
                }
            }

            /// The value called `s`, if there is one.
            pub fn parse(s: &str) -> Option<$T> {
                match s {
                    $($name => Some($T::$V),)+
                    _ => None,
                }
            }
        }

        impl ::std::fmt::Display for $T {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $T {
            type Err = $crate::spec::ChoiceError;
            fn from_str(s: &str) -> Result<$T, $crate::spec::ChoiceError> {
                $T::parse(s).ok_or_else(|| $crate::spec::ChoiceError { what: $what, names: $T::NAMES, got: s.to_string() })
            }
        }
    };
}

/// A string as Python's `repr` writes it.
pub(crate) fn repr_str(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// A game's options (each game implements it in `games/<game>/options.rs`).
pub trait Configure: Sized {
    /// Game name as used in spec strings, lower case (`"churn"`).
    const NAME: &'static str;

    /// The game's options, each with its kind and its default (declared
    /// here, once: constructors, spec strings and Python read this table).
    const OPTIONS: &'static [OptionInfo];

    /// A new game from its options (see [`build`]); errors name the
    /// offending option.
    fn from_options(options: &Reader<'_>) -> Result<Self, OptionsError>;

    /// The value of each option of this game, in the table's order (the
    /// ones that describe it: a hexhex board by `size`, another by `sides`).
    fn option_values(&self) -> Vec<(&'static str, Value)>;
}

/// One option of a game: its name, kind and default.
#[derive(Clone, Copy)]
pub struct OptionInfo {
    pub name: &'static str,
    pub kind: Kind,
    /// The value an absent option takes, given the options that are present;
    /// `None` for an option with no default (a board given by `sides`).
    pub default: Option<fn(&Options) -> Value>,
    /// Whether `spec` writes the option when it has its default value.
    pub always_printed: bool,
}

impl fmt::Debug for OptionInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OptionInfo")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// Options by name, in the order given, each at most once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options(Vec<(String, Value)>);

impl Options {
    pub fn new() -> Options {
        Options::default()
    }

    /// Adds `key = value`; an error when `key` is already there.
    pub fn insert(&mut self, key: &str, value: Value) -> Result<(), OptionsError> {
        if self.get(key).is_some() {
            return Err(OptionsError::new(
                "spec",
                format!("option {} given twice in spec", repr_str(key)),
            ));
        }
        self.0.push((key.to_string(), value));
        Ok(())
    }

    /// The value given for `key`, if any ([`Value::None`] counts as absent).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0
            .iter()
            .find(|(k, v)| k == key && *v != Value::None)
            .map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A parsed spec string: the game's name (lower case) and its options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    pub options: Options,
}

pub(crate) fn spec_error(message: impl Into<String>) -> OptionsError {
    OptionsError::new("spec", message)
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_bare(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

fn is_integer(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// A value read without knowing its option's kind.
fn generic(text: &str, depth: usize) -> Result<Value, OptionsError> {
    if depth > MAX_NESTING {
        return Err(spec_error(format!(
            "spec values nest deeper than {MAX_NESTING} brackets"
        )));
    }
    let t = text.trim();
    if t.is_empty() {
        return Err(spec_error("empty value in spec"));
    }
    if let Some(close) = match t.as_bytes()[0] {
        b'(' => Some(')'),
        b'[' => Some(']'),
        _ => None,
    } {
        if t.len() < 2 || !t.ends_with(close) {
            return Err(spec_error(format!(
                "unbalanced brackets in spec value {}",
                repr_str(t)
            )));
        }
        let inner = t[1..t.len() - 1].trim();
        if inner.is_empty() {
            return Ok(Value::Tuple(Vec::new()));
        }
        return split(inner)?
            .iter()
            .map(|x| generic(x, depth + 1))
            .collect::<Result<_, _>>()
            .map(Value::Tuple);
    }
    match t.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => return Ok(Value::Bool(true)),
        "false" | "no" | "off" => return Ok(Value::Bool(false)),
        "none" => return Ok(Value::None),
        _ => {}
    }
    if is_integer(t) {
        return Ok(t
            .parse()
            .map(Value::Int)
            .unwrap_or_else(|_| Value::BigInt(t.strip_prefix('+').unwrap_or(t).to_string())));
    }
    let b = t.as_bytes();
    if b.len() >= 2 && b[0] == b[b.len() - 1] && matches!(b[0], b'\'' | b'"') {
        return Ok(Value::Str(t[1..t.len() - 1].to_string()));
    }
    if is_bare(t) {
        return Ok(Value::Str(t.to_string()));
    }
    Err(spec_error(format!(
        "cannot read spec value {}",
        repr_str(t)
    )))
}

/// `text` split at the commas outside brackets; a blank last part is dropped.
fn split(text: &str) -> Result<Vec<&str>, OptionsError> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, ch) in text.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return Err(spec_error("unbalanced brackets in spec"));
                }
            }
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(spec_error("unbalanced brackets in spec"));
    }
    if !text[start..].trim().is_empty() {
        parts.push(&text[start..]);
    }
    Ok(parts)
}

/// Splits a spec string into the game name and its options, each value
/// read by the kind of the option of that name in `table_of(game name)`
/// (the games' tables: [`crate::catalog::parse`]); `example` is a game name
/// for the error message.
pub fn parse_with(
    spec: &str,
    table_of: fn(&str) -> Option<&'static [OptionInfo]>,
    example: &str,
) -> Result<Spec, OptionsError> {
    let malformed = || {
        spec_error(format!(
            "malformed game spec {}; expected name(key=value,...), e.g. '{example}()'",
            repr_str(spec)
        ))
    };
    let s = spec.trim();
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    let (name, rest) = s.split_at(end);
    if !is_ident(name) {
        return Err(malformed());
    }
    let rest = rest.trim_start();
    let args = if rest.is_empty() {
        ""
    } else if rest.starts_with('(') && rest.ends_with(')') && rest.len() >= 2 {
        &rest[1..rest.len() - 1]
    } else {
        return Err(malformed());
    };
    let name = name.to_ascii_lowercase();
    let table = table_of(&name).unwrap_or(&[]);
    let mut options = Options::new();
    for part in split(args)? {
        let Some((key, val)) = part.split_once('=') else {
            return Err(spec_error(format!(
                "spec option {} must be written key=value",
                repr_str(part.trim())
            )));
        };
        let key = key.trim();
        if !is_ident(key) {
            return Err(spec_error(format!(
                "bad option name {} in spec",
                repr_str(key)
            )));
        }
        let mut value = generic(val, 0)?;
        match table.iter().find(|o| o.name == key).map(|o| o.kind) {
            Some(Kind::Str) if is_bare(val.trim()) => value = Value::Str(val.trim().to_string()),
            Some(Kind::Bool) if !matches!(value, Value::Bool(_)) => {
                return Err(spec_error(format!(
                    "option {} of {name} must be true or false, got {}",
                    repr_str(key),
                    repr_str(val.trim())
                )));
            }
            _ => {}
        }
        options.insert(key, value)?;
    }
    Ok(Spec { name, options })
}

/// `name(key=value,...)`.
pub fn print(name: &str, options: &[(&str, Value)]) -> String {
    let mut s = format!("{name}(");
    for (i, (k, v)) in options.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{k}={v}");
    }
    s.push(')');
    s
}

/// The spec string of a game whose options have the values `values`: every
/// option the game always prints, and the others where they differ from
/// their defaults.
pub fn print_game<G: Configure>(values: &[(&'static str, Value)]) -> String {
    let mut given = Options::new();
    for (k, v) in values {
        let _ = given.insert(k, v.clone());
    }
    let shown: Vec<(&str, Value)> = values
        .iter()
        .filter(|(k, v)| match G::OPTIONS.iter().find(|o| o.name == *k) {
            Some(o) => o.always_printed || o.default.map(|d| d(&given)) != Some(v.clone()),
            None => true,
        })
        .cloned()
        .collect();
    print(G::NAME, &shown)
}

/// The default of each option of `G` given the options `given` (`None`
/// for an option without one), in the table's order.
pub fn defaults<G: Configure>(given: &Options) -> Vec<(&'static str, Kind, Option<Value>)> {
    G::OPTIONS
        .iter()
        .map(|o| (o.name, o.kind, o.default.map(|d| d(given))))
        .collect()
}

/// A game of type `G` from its options.
pub fn build<G: Configure>(options: &Options) -> Result<G, OptionsError> {
    G::from_options(&Reader::new::<G>(options)?)
}

/// Reads a game's options: every value checked against its kind, every
/// absent option given its default from the game's table.
pub struct Reader<'a> {
    options: &'a Options,
    table: &'static [OptionInfo],
}

impl<'a> Reader<'a> {
    /// A reader of `options` for the game `G`; an error names an option the
    /// game does not take.
    pub fn new<G: Configure>(options: &'a Options) -> Result<Reader<'a>, OptionsError> {
        Reader::with_table(G::NAME, G::OPTIONS, options)
    }

    /// A reader of `options` over the table `table` of `what`.
    pub fn with_table(
        what: &str,
        table: &'static [OptionInfo],
        options: &'a Options,
    ) -> Result<Reader<'a>, OptionsError> {
        for (k, _) in options.iter() {
            if !table.iter().any(|o| o.name == k) {
                let names: Vec<&str> = table.iter().map(|o| o.name).collect();
                return Err(spec_error(format!(
                    "{what} has no option {}; its options are {}",
                    repr_str(k),
                    names.join(", ")
                )));
            }
        }
        Ok(Reader { options, table })
    }

    fn info(&self, name: &str) -> &'static OptionInfo {
        self.table
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("option {name} is not in the table"))
    }

    /// The value given for `name`, if any.
    pub fn given(&self, name: &str) -> Option<&'a Value> {
        self.options.get(name)
    }

    /// The value of `name`: the one given or its default.
    pub fn value(&self, name: &'static str) -> Result<Value, OptionsError> {
        if let Some(v) = self.given(name) {
            return Ok(v.clone());
        }
        match self.info(name).default {
            Some(d) => Ok(d(self.options)),
            None => Err(OptionsError::new(name, format!("{name} has no default"))),
        }
    }

    /// An int option (not a bool).
    pub fn int(&self, name: &'static str) -> Result<i64, OptionsError> {
        int_of(name, &self.value(name)?)
    }

    /// An int option given, if it was.
    pub fn int_given(&self, name: &'static str) -> Result<Option<i64>, OptionsError> {
        self.given(name).map(|v| int_of(name, v)).transpose()
    }

    /// Exactly true or false (not 0/1).
    pub fn bool(&self, name: &'static str) -> Result<bool, OptionsError> {
        match self.value(name)? {
            Value::Bool(b) => Ok(b),
            v => Err(OptionsError::new(
                name,
                format!("{name} must be True or False, got {}", v.repr()),
            )),
        }
    }

    /// A string option.
    pub fn str(&self, name: &'static str) -> Result<String, OptionsError> {
        str_of(name, &self.value(name)?)
    }

    /// A string option given, if it was.
    pub fn str_given(&self, name: &'static str) -> Result<Option<String>, OptionsError> {
        self.given(name).map(|v| str_of(name, v)).transpose()
    }

    /// A tuple of ints given, if it was.
    pub fn ints_given(&self, name: &'static str) -> Result<Option<Vec<i64>>, OptionsError> {
        let Some(v) = self.given(name) else {
            return Ok(None);
        };
        match v {
            Value::Tuple(items) => items
                .iter()
                .map(|x| int_of(name, x))
                .collect::<Result<_, _>>()
                .map(Some),
            v => Err(OptionsError::new(
                name,
                format!("{name} must be a sequence of six ints, got {}", v.repr()),
            )),
        }
    }
}

/// An int (not a bool).
pub fn int_of(name: &'static str, v: &Value) -> Result<i64, OptionsError> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::BigInt(digits) => Err(OptionsError::new(
            name,
            format!("{name} is out of range, got {digits}"),
        )),
        v => Err(OptionsError::new(
            name,
            format!("{name} must be an int, got {}", v.repr()),
        )),
    }
}

fn str_of(name: &'static str, v: &Value) -> Result<String, OptionsError> {
    match v {
        Value::Str(s) => Ok(s.clone()),
        v => Err(OptionsError::new(
            name,
            format!("{name} must be a str, got {}", v.repr()),
        )),
    }
}

/// The options of a board (`hexcore.Board`, and Churn's): `size` (a hexhex
/// board's side), `sides` (six side lengths of a 120-degree hexagon) or
/// `board` (a named board), at most one of them.
pub const BOARD_OPTIONS: &[OptionInfo] = &[BOARD_SIZE, BOARD_SIDES, BOARD_NAME];
/// `size`: a hexhex board's side, 3 by default.
pub const BOARD_SIZE: OptionInfo = OptionInfo {
    name: "size",
    kind: Kind::Int,
    default: Some(|_| Value::Int(3)),
    always_printed: true,
};
/// `sides`: six side lengths.
pub const BOARD_SIDES: OptionInfo = OptionInfo {
    name: "sides",
    kind: Kind::Ints,
    default: None,
    always_printed: true,
};
/// `board`: a named board.
pub const BOARD_NAME: OptionInfo = OptionInfo {
    name: "board",
    kind: Kind::Str,
    default: None,
    always_printed: true,
};

/// The board the options `size`, `sides` and `board` of `r` describe (at
/// most one given; none: a hexhex board of the default size).
pub fn read_board(r: &Reader<'_>) -> Result<Board, OptionsError> {
    let size = r.int_given("size")?;
    let sides = r.ints_given("sides")?;
    let name = r.str_given("board")?;
    if size.is_some() as u8 + sides.is_some() as u8 + name.is_some() as u8 > 1 {
        return Err(OptionsError::new(
            "board",
            "give only one of size, sides and board",
        ));
    }
    if let Some(name) = name {
        return Board::named(&name).map_err(|e| OptionsError::new("board", format!("board: {e}")));
    }
    if let Some(s) = sides {
        if s.len() != 6 {
            return Err(OptionsError::new(
                "sides",
                format!("sides: expected six side lengths, got {}", s.len()),
            ));
        }
        if s.iter().any(|&x| x < 0) {
            return Err(OptionsError::new(
                "sides",
                format!("sides: lengths must be positive, got {s:?}"),
            ));
        }
        let arr = [
            s[0] as usize,
            s[1] as usize,
            s[2] as usize,
            s[3] as usize,
            s[4] as usize,
            s[5] as usize,
        ];
        return Board::from_sides(arr).map_err(|e| OptionsError::new("sides", e.to_string()));
    }
    let n = r.int("size")?;
    if !(2..=64).contains(&n) {
        return Err(OptionsError::new(
            "size",
            format!("size must be between 2 and 64, got {n}"),
        ));
    }
    Board::hexhex(n as usize).map_err(|e| OptionsError::new("size", e.to_string()))
}
