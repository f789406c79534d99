//! Troop entries as the army lists write them (DBA3.md §16.1), and their parser.
//!
//! The grammar this module reads (and prints back, so that parse and print round-trip):
//!
//! ```text
//! entry   = package { " or " package } [ " (Gen)" ]
//! package = part | "(" part { " + " part } ")"
//! part    = count "x" choice { " or " choice }
//! choice  = troop [ " (" note ")" ]
//! troop   = code | code "/" code | digit "/" code | code "//" code
//! ```
//!
//! - `N×A or N×B` (a new count after `or`) offers whole packages: every element of the entry comes
//!   from the one package chosen (§16.1, the DBA 2.x convention the digest keeps).
//! - `A or B` inside one part lets each of its elements be chosen separately (§16.1).
//! - `A/B` and `3/4Bd` are set per game for the whole entry, all alike (§2.3, §15.3).
//! - `A//B` is a mounted element that may dismount as the foot B (§2.3, §7.9).
//! - A note in brackets after a choice (`Lit (if Olympias)`, `Sp (from 704BC)`) is kept as text:
//!   the lists' conditions on dates or sub-lists are not enforced by the choice rules (see
//!   [`choose`](mod@super::choose)).
//!
//! Element codes are read by [`ElementKind`]'s own parser; this module only splits the text.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

use crate::error::{ErrorCode, ErrorInfo};
use crate::troops::ElementKind;

/// One way of fielding an element of a part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Troop {
    /// A single kind.
    One(ElementKind),
    /// `A/B` or `3/4Bd`: set as one or the other at the start of each game, every element of the
    /// entry alike (§2.3, §15.3).
    Either(ElementKind, ElementKind),
    /// `A//B`: mounted `A` that may dismount as the foot `B` (§2.3). It may also be fielded
    /// already dismounted, as `B`, at the start of a game (§15.3).
    Dismounts {
        /// The mounted kind, as it starts.
        mounted: ElementKind,
        /// The foot kind it dismounts as.
        foot: ElementKind,
    },
}

impl Troop {
    /// The ways one element of this troop may be fielded in a game.
    pub fn fieldings(&self) -> Vec<Fielded> {
        match *self {
            Troop::One(k) => vec![Fielded::new(k)],
            Troop::Either(a, b) => vec![Fielded::new(a), Fielded::new(b)],
            Troop::Dismounts { mounted, foot } => vec![
                Fielded {
                    kind: mounted,
                    dismounts_as: Some(foot),
                },
                Fielded::new(foot),
            ],
        }
    }
}

impl fmt::Display for Troop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Troop::One(k) => write!(f, "{k}"),
            Troop::Either(a, b) => {
                let (sa, sb) = (a.to_string(), b.to_string());
                match (split_figures(&sa), split_figures(&sb)) {
                    (Some((da, ra)), Some((db, rb))) if ra == rb => write!(f, "{da}/{db}{rb}"),
                    _ => write!(f, "{sa}/{sb}"),
                }
            }
            Troop::Dismounts { mounted, foot } => write!(f, "{mounted}//{foot}"),
        }
    }
}

/// `"4Bd"` → `Some(('4', "Bd"))`: a one-digit figure count and the rest.
fn split_figures(code: &str) -> Option<(char, &str)> {
    let mut chars = code.chars();
    let d = chars.next().filter(|c| c.is_ascii_digit())?;
    let rest = chars.as_str();
    (!rest.is_empty() && !rest.starts_with(|c: char| c.is_ascii_digit())).then_some((d, rest))
}

/// How one element is fielded: its kind and, for `A//B` kept mounted, the foot it may dismount
/// into. Written `"3Kn"` or `"3Kn//4Bd"` in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fielded {
    /// What the element is as fielded.
    pub kind: ElementKind,
    /// The foot kind it may dismount into, for a `A//B` element.
    pub dismounts_as: Option<ElementKind>,
}

impl Fielded {
    /// A kind that does not dismount.
    pub const fn new(kind: ElementKind) -> Self {
        Fielded {
            kind,
            dismounts_as: None,
        }
    }
}

impl fmt::Display for Fielded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dismounts_as {
            Some(foot) => write!(f, "{}//{foot}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl FromStr for Fielded {
    type Err = ParseEntryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut p = Parser::new(s);
        p.skip_ws();
        let troop = p.troop()?;
        p.skip_ws();
        if !p.at_end() {
            return Err(p.error("the end of the element (a code, or A//B)"));
        }
        match troop {
            Troop::One(k) => Ok(Fielded::new(k)),
            Troop::Dismounts { mounted, foot } => Ok(Fielded {
                kind: mounted,
                dismounts_as: Some(foot),
            }),
            Troop::Either(..) => Err(ParseEntryError {
                text: crate::sizes::quote(s),
                column: 1,
                expected: "one fielded element (a code, or A//B), not a choice A/B",
            }),
        }
    }
}

impl Serialize for Fielded {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fielded {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A troop with the note the list attaches to it (`Lit (if Olympias)`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Choice {
    /// The troop.
    pub troop: Troop,
    /// The list's note on it, if any (`if Olympias`).
    pub note: Option<String>,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.troop)?;
        if let Some(n) = &self.note {
            write!(f, " ({n})")?;
        }
        Ok(())
    }
}

/// `count` elements, each one of `choices` (chosen separately, §16.1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Part {
    /// How many elements.
    pub count: u8,
    /// What each may be.
    pub choices: Vec<Choice>,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x", self.count)?;
        for (i, c) in self.choices.iter().enumerate() {
            if i > 0 {
                f.write_str(" or ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// One alternative of an entry: its parts, all fielded together.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Package {
    /// The parts, fielded together.
    pub parts: Vec<Part>,
}

impl Package {
    /// Elements in this package.
    pub fn elements(&self) -> u32 {
        self.parts.iter().map(|p| u32::from(p.count)).sum()
    }
}

impl fmt::Display for Package {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.parts.len() == 1 {
            return write!(f, "{}", self.parts[0]);
        }
        f.write_str("(")?;
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{p}")?;
        }
        f.write_str(")")
    }
}

/// One troop entry of an army list: alternatives (packages), one of which is fielded whole,
/// and whether it is the general's entry.
///
/// Serialises as its text, e.g. `"1x3Kn//4Pk (Gen)"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TroopEntry {
    /// The alternatives, joined by `or` in the list (at least one).
    pub packages: Vec<Package>,
    /// Marked `(Gen)`: the general's element comes from this entry (§2.5).
    pub general: bool,
}

impl TroopEntry {
    /// Elements the entry gives: the first package's count (every bundled entry's packages are
    /// the same size; [`TroopEntry::sizes_agree`] says whether this one's are).
    pub fn elements(&self) -> u32 {
        self.packages.first().map_or(0, Package::elements)
    }
    /// Every package gives the same number of elements.
    pub fn sizes_agree(&self) -> bool {
        self.packages
            .iter()
            .all(|p| p.elements() == self.elements())
    }
    /// Every kind that any element of this entry may be fielded as (in order of the text).
    pub fn kinds(&self) -> Vec<ElementKind> {
        let mut v: Vec<ElementKind> = Vec::new();
        for p in &self.packages {
            for part in &p.parts {
                for c in &part.choices {
                    for f in c.troop.fieldings() {
                        if !v.contains(&f.kind) {
                            v.push(f.kind);
                        }
                    }
                }
            }
        }
        v
    }
}

impl fmt::Display for TroopEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.packages.iter().enumerate() {
            if i > 0 {
                f.write_str(" or ")?;
            }
            write!(f, "{p}")?;
        }
        if self.general {
            f.write_str(" (Gen)")?;
        }
        Ok(())
    }
}

impl FromStr for TroopEntry {
    type Err = ParseEntryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Parser::new(s).entry()
    }
}

impl Serialize for TroopEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TroopEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A troop entry that could not be read: the text around the fault (at most
/// [`QUOTED_AROUND_FAULT`] characters each side), the character (1-based, counted in
/// characters, not bytes) where reading stopped, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("§16.1: cannot read troop entry `{text}`: at character {column} expected {expected}")]
pub struct ParseEntryError {
    /// The entry's text around the fault, cut ends marked `…`.
    pub text: String,
    /// The character, counted from 1, where reading stopped.
    pub column: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl ErrorInfo for ParseEntryError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }
    fn rule(&self) -> Option<&'static str> {
        Some("§16.1")
    }
}

/// The characters quoted on each side of a fault in an entry that cannot be read: a message
/// stays short however long the entry (issue #44: an 800 KB entry gave an 800 KB message).
pub const QUOTED_AROUND_FAULT: usize = 40;

/// The entry's text around character `at`, at most [`QUOTED_AROUND_FAULT`] characters on each
/// side, cut ends marked `…`.
fn window(chars: &[char], at: usize) -> String {
    let from = at.saturating_sub(QUOTED_AROUND_FAULT);
    let to = (at + QUOTED_AROUND_FAULT).min(chars.len());
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    out.extend(&chars[from..to]);
    if to < chars.len() {
        out.push('…');
    }
    out
}

/// The largest count one part may give: a whole army.
const MAX_COUNT: u32 = 12;

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn new(text: &str) -> Self {
        Parser {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    fn error(&self, expected: &'static str) -> ParseEntryError {
        ParseEntryError {
            text: window(&self.chars, self.pos),
            column: self.pos + 1,
            expected,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// At `or` followed by white space (not consumed).
    fn at_or(&self) -> bool {
        let c = |i: usize| self.chars.get(self.pos + i).copied();
        matches!(c(0), Some('o' | 'O'))
            && matches!(c(1), Some('r' | 'R'))
            && c(2).is_some_and(char::is_whitespace)
    }

    /// At a count: digits followed by `x` or `×`.
    fn at_count(&self) -> bool {
        self.count_at(self.pos)
    }

    /// Digits followed by `x` or `×` start at character `at`.
    fn count_at(&self, at: usize) -> bool {
        let mut i = at;
        while self.chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        i > at && matches!(self.chars.get(i), Some('x' | 'X' | '×'))
    }

    /// At `(` opening a package (a count follows). Looks ahead in place: it once copied the
    /// whole text to look, once a package, which made an entry of many packages quadratic in
    /// its length (issue #44).
    fn at_package(&self) -> bool {
        if self.peek() != Some('(') {
            return false;
        }
        let mut i = self.pos + 1;
        while self.chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        self.count_at(i)
    }

    fn entry(&mut self) -> Result<TroopEntry, ParseEntryError> {
        self.skip_ws();
        let mut packages = vec![self.package()?];
        let mut general = false;
        loop {
            self.skip_ws();
            if self.at_end() {
                break;
            }
            if self.at_or() {
                self.pos += 2;
                self.skip_ws();
                packages.push(self.package()?);
                continue;
            }
            if self.peek() == Some('(') && self.gen_mark() {
                general = true;
                self.skip_ws();
                if !self.at_end() {
                    return Err(self.error("the end of the entry after (Gen)"));
                }
                break;
            }
            return Err(self.error("`or` and another package, `(Gen)`, or the end of the entry"));
        }
        Ok(TroopEntry { packages, general })
    }

    /// Consume `(Gen)` if it is here.
    fn gen_mark(&mut self) -> bool {
        let rest: String = self.chars[self.pos..].iter().take(5).collect();
        if rest.eq_ignore_ascii_case("(gen)") {
            self.pos += 5;
            true
        } else {
            false
        }
    }

    fn package(&mut self) -> Result<Package, ParseEntryError> {
        if self.at_package() {
            self.pos += 1;
            self.skip_ws();
            let mut parts = vec![self.part()?];
            loop {
                self.skip_ws();
                match self.peek() {
                    Some('+') => {
                        self.pos += 1;
                        self.skip_ws();
                        parts.push(self.part()?);
                    }
                    Some(')') => {
                        self.pos += 1;
                        return Ok(Package { parts });
                    }
                    _ => return Err(self.error("`+` and another part, or `)` closing the package")),
                }
            }
        }
        Ok(Package {
            parts: vec![self.part()?],
        })
    }

    fn part(&mut self) -> Result<Part, ParseEntryError> {
        let count = self.count()?;
        let mut choices = vec![self.choice()?];
        loop {
            let save = self.pos;
            self.skip_ws();
            if !self.at_or() {
                self.pos = save;
                break;
            }
            self.pos += 2;
            self.skip_ws();
            // `or` then a count or a package starts the next package of the entry.
            if self.at_count() || self.at_package() {
                self.pos = save;
                break;
            }
            choices.push(self.choice()?);
        }
        Ok(Part { count, choices })
    }

    fn count(&mut self) -> Result<u8, ParseEntryError> {
        let start = self.pos;
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d);
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error("a count of elements such as `2x`"));
        }
        if !(1..=MAX_COUNT).contains(&n) {
            self.pos = start;
            return Err(self.error("a count of 1 to 12 elements"));
        }
        if !matches!(self.peek(), Some('x' | 'X' | '×')) {
            return Err(self.error("`x` after the count (as in `2x4Bd`)"));
        }
        self.pos += 1;
        Ok(n as u8)
    }

    fn choice(&mut self) -> Result<Choice, ParseEntryError> {
        let troop = self.troop()?;
        let save = self.pos;
        self.skip_ws();
        if self.peek() == Some('(') && !self.at_package() {
            let rest: String = self.chars[self.pos..].iter().take(5).collect();
            if !rest.eq_ignore_ascii_case("(gen)") {
                let open = self.pos;
                let mut depth = 0usize;
                let mut end = None;
                for (i, &c) in self.chars.iter().enumerate().skip(open) {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(i);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else {
                    return Err(self.error("`)` closing the note"));
                };
                let note: String = self.chars[open + 1..end].iter().collect();
                let note = note.trim().to_string();
                if note.is_empty() {
                    self.pos = open + 1;
                    return Err(self.error("the text of a note inside the brackets"));
                }
                self.pos = end + 1;
                return Ok(Choice {
                    troop,
                    note: Some(note),
                });
            }
        }
        self.pos = save;
        Ok(Choice { troop, note: None })
    }

    /// A code token: letters, digits and `-` (for `Mtd-4Bw`).
    fn token(&mut self) -> (usize, String) {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            self.pos += 1;
        }
        (start, self.chars[start..self.pos].iter().collect())
    }

    fn kind_at(&mut self, start: usize, code: &str) -> Result<ElementKind, ParseEntryError> {
        if code.is_empty() {
            self.pos = start;
            return Err(self.error("an element code such as `4Bd` or `Mtd-4Lb`"));
        }
        code.parse::<ElementKind>().map_err(|e| {
            self.pos = start;
            self.error(e.expected)
        })
    }

    fn troop(&mut self) -> Result<Troop, ParseEntryError> {
        let (start, first) = self.token();
        if self.peek() == Some('/') {
            self.pos += 1;
            let dismount = self.peek() == Some('/');
            if dismount {
                self.pos += 1;
            }
            let (second_start, second) = self.token();
            let b = self.kind_at(second_start, &second)?;
            // `3/4Bd`: the first code is only a figure count and borrows the second's type.
            let a = if !dismount && !first.is_empty() && first.chars().all(|c| c.is_ascii_digit()) {
                match split_figures(&second) {
                    Some((_, rest)) => {
                        let code = format!("{first}{rest}");
                        self.kind_at(start, &code)?
                    }
                    None => {
                        self.pos = second_start;
                        return Err(
                            self.error("a code with a figure count after `3/` (as `3/4Bd`)")
                        );
                    }
                }
            } else {
                self.kind_at(start, &first)?
            };
            if dismount {
                if !a.is_mounted() {
                    self.pos = start;
                    return Err(self.error("a mounted kind before `//`"));
                }
                if !b.is_foot() {
                    self.pos = second_start;
                    return Err(self.error("a foot kind after `//`"));
                }
                return Ok(Troop::Dismounts {
                    mounted: a,
                    foot: b,
                });
            }
            if a == b {
                self.pos = second_start;
                return Err(self.error("a kind different from the one before `/`"));
            }
            return Ok(Troop::Either(a, b));
        }
        let k = self.kind_at(start, &first)?;
        Ok(Troop::One(k))
    }
}
