//! The compact state read straight from its bytes, for speed.
//!
//! The text dbcore writes has one spelling: its fields in one order, no spaces, names and codes
//! without escapes. This reader takes exactly that spelling for the hot parts of a compact
//! state (the actions, the elements of the set-up and of the battle, their poses) and hands
//! the rarer parts (the terrain, the rules configuration, cities, verdicts, commands, statuses)
//! to serde, each on its own slice of the text. On anything else (spaces, another order, an
//! unknown field, an escape, a number out of range, anything serde would refuse) it gives up
//! with `None`, and the caller reads the text with serde as before, which also names the field
//! of a fault. So it never accepts what serde refuses, and what it accepts it reads to the
//! same values: integers in their types' ranges, floats through the standard library's
//! correctly rounded parser, as serde_json's own (with `float_roundtrip`) rounds them, after
//! checking that they are JSON numbers. The tests below hold it to serde's reader on every
//! golden state.

use serde::de::DeserializeOwned;

use crate::battle::bound::Action;
use crate::battle::movement::{GroupStep, MoveOrder};
use crate::battle::setup::{ArmySetup, BattleSetup, ElementId, ElementSetup};
use crate::battlefield::{Battlefield, Board};
use crate::dice::DieScore;
use crate::geometry::{Point, Polygon, Pose};
use crate::terrain::{AreaFeature, TerrainFeature};
use crate::troops::ElementKind;

use super::{SavedElement, StateIn};

/// A cursor over the text.
struct Bytes<'a> {
    /// The text, and its bytes.
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

/// Powers of ten that an `f64` holds exactly.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

impl<'a> Bytes<'a> {
    fn new(s: &'a str) -> Bytes<'a> {
        Bytes {
            s,
            b: s.as_bytes(),
            i: 0,
        }
    }

    /// Step over `s` if the text goes on with it.
    fn eat(&mut self, s: &str) -> bool {
        let s = s.as_bytes();
        if self.b[self.i..].starts_with(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }

    /// Step over `s`, which must come next.
    fn lit(&mut self, s: &str) -> Option<()> {
        self.eat(s).then_some(())
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// A string without escapes, borrowed from the text.
    fn str(&mut self) -> Option<&'a str> {
        self.lit("\"")?;
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => break,
                b'\\' => return None,
                c if c < 0x20 => return None,
                _ => self.i += 1,
            }
        }
        let s = self.s.get(start..self.i)?;
        self.i += 1;
        Some(s)
    }

    /// An unsigned integer as JSON spells it, at most `max`.
    fn uint(&mut self, max: u64) -> Option<u64> {
        let start = self.i;
        let mut n: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            n = n.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            self.i += 1;
        }
        let digits = self.i - start;
        // No leading zeros, no fraction or exponent (an integer field refuses them).
        if digits == 0 || (digits > 1 && self.b[start] == b'0') {
            return None;
        }
        if matches!(self.peek(), Some(b'.' | b'e' | b'E' | b'-' | b'+')) {
            return None;
        }
        (n <= max).then_some(n)
    }

    fn u32(&mut self) -> Option<u32> {
        self.uint(u64::from(u32::MAX)).map(|n| n as u32)
    }

    fn u8(&mut self) -> Option<u8> {
        self.uint(u64::from(u8::MAX)).map(|n| n as u8)
    }

    fn usize(&mut self) -> Option<usize> {
        self.uint(usize::MAX as u64).map(|n| n as usize)
    }

    fn bool(&mut self) -> Option<bool> {
        if self.eat("true") {
            Some(true)
        } else if self.eat("false") {
            Some(false)
        } else {
            None
        }
    }

    /// A JSON number as an `f64`, finite, correctly rounded.
    fn f64(&mut self) -> Option<f64> {
        let start = self.i;
        let negative = self.eat("-");
        let int = self.i;
        // The digits as one integer while it is exact, for the quick case below.
        let mut mantissa: u64 = 0;
        let mut digits = 0usize;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            digits += 1;
            self.i += 1;
        }
        let int_digits = self.i - int;
        if int_digits == 0 || (int_digits > 1 && self.b[int] == b'0') {
            return None;
        }
        let mut integer = true;
        if self.eat(".") {
            integer = false;
            let frac = self.i;
            while let Some(c @ b'0'..=b'9') = self.peek() {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                digits += 1;
                self.i += 1;
            }
            let fraction = self.i - frac;
            if fraction == 0 {
                return None;
            }
            // Up to 19 digits (no wrapping) whose integer is below 2^53, over an exact power of
            // ten: both exact, the one division is correctly rounded, so it is the number the
            // text gives, as the full parse would.
            if digits <= 19
                && mantissa < (1 << 53)
                && fraction < EXACT_POWERS.len()
                && !matches!(self.peek(), Some(b'e' | b'E'))
            {
                let x = mantissa as f64 / EXACT_POWERS[fraction];
                return Some(if negative { -x } else { x });
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            let exp = self.i;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.i += 1;
            }
            if self.i == exp {
                return None;
            }
        }
        let text = self.s.get(start..self.i)?;
        // A negative integer zero is left to serde, which reads integers its own way.
        if integer && self.b[start] == b'-' && text.bytes().skip(1).all(|c| c == b'0') {
            return None;
        }
        let x: f64 = text.parse().ok()?;
        x.is_finite().then_some(x)
    }

    /// The end of the JSON value that starts here (found by its brackets and quotes alone).
    fn value_end(&self) -> Option<usize> {
        let b = self.b;
        let mut i = self.i;
        let mut depth = 0usize;
        loop {
            let c = *b.get(i)?;
            i += 1;
            match c {
                b'"' => loop {
                    match *b.get(i)? {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                },
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    if depth == 0 {
                        return Some(i - 1);
                    }
                    depth -= 1;
                }
                b',' if depth == 0 => return Some(i - 1),
                _ => {
                    // A number or a literal goes on to the next separator.
                    if depth == 0 && matches!(b.get(i), Some(b',' | b'}' | b']') | None) {
                        return Some(i);
                    }
                    continue;
                }
            }
            if depth == 0 {
                return Some(i);
            }
        }
    }

    /// The value that starts here, read by serde from its own slice of the text.
    fn serde<T: DeserializeOwned>(&mut self) -> Option<T> {
        let end = self.value_end()?;
        let v = serde_json::from_slice(&self.b[self.i..end]).ok()?;
        self.i = end;
        Some(v)
    }

    /// `[item, item, ...]`, each read by `item`.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.lit("[")?;
        let mut v = Vec::new();
        if self.eat("]") {
            return Some(v);
        }
        loop {
            v.push(item(self)?);
            if self.eat("]") {
                return Some(v);
            }
            self.lit(",")?;
        }
    }

    fn id(&mut self) -> Option<ElementId> {
        self.u32().map(ElementId)
    }

    fn ids(&mut self) -> Option<Vec<ElementId>> {
        self.list(Self::id)
    }

    fn die(&mut self) -> Option<DieScore> {
        DieScore::new(self.u8()?).ok()
    }

    fn dice2(&mut self) -> Option<[DieScore; 2]> {
        self.lit("[")?;
        let a = self.die()?;
        self.lit(",")?;
        let b = self.die()?;
        self.lit("]")?;
        Some([a, b])
    }

    fn pose(&mut self) -> Option<Pose> {
        self.lit("{\"x\":")?;
        let x = self.f64()?;
        self.lit(",\"y\":")?;
        let y = self.f64()?;
        self.lit(",\"facing\":")?;
        let facing = self.f64()?;
        self.lit("}")?;
        Some(Pose { x, y, facing })
    }

    fn poses(&mut self) -> Option<Vec<Pose>> {
        self.list(Self::pose)
    }

    fn point(&mut self) -> Option<Point> {
        self.lit("{\"x\":")?;
        let x = self.f64()?;
        self.lit(",\"y\":")?;
        let y = self.f64()?;
        self.lit("}")?;
        Some(Point { x, y })
    }

    fn polygon(&mut self) -> Option<Polygon> {
        self.lit("{\"points\":")?;
        let points = self.list(Self::point)?;
        self.lit("}")?;
        Some(Polygon { points })
    }

    /// The board and its terrain: area features by hand, the others by serde.
    fn battlefield(&mut self) -> Option<Battlefield> {
        self.lit("{\"board\":{\"width\":")?;
        let width = self.f64()?;
        self.lit(",\"depth\":")?;
        let depth = self.f64()?;
        self.lit("},\"features\":")?;
        let features = self.list(|p| {
            if !p.eat("{\"area\":{\"kind\":") {
                return p.serde::<TerrainFeature>();
            }
            let kind = p.serde()?;
            p.lit(",\"outline\":")?;
            let outline = p.polygon()?;
            p.lit(",\"straight_edged\":")?;
            let straight_edged = p.bool()?;
            p.lit(",\"crest\":")?;
            let crest = p.list(Self::point)?;
            p.lit(",\"gates\":")?;
            let gates = p.list(Self::point)?;
            p.lit("}}")?;
            Some(TerrainFeature::Area(AreaFeature {
                kind,
                outline,
                straight_edged,
                crest,
                gates,
            }))
        })?;
        self.lit("}")?;
        Some(Battlefield {
            board: Board { width, depth },
            features,
        })
    }

    fn kind(&mut self) -> Option<ElementKind> {
        self.str()?.parse().ok()
    }

    /// The ids of an optional list field, empty when it is not there.
    fn ids_if(&mut self, field: &str) -> Option<Vec<ElementId>> {
        if self.eat(field) {
            self.ids()
        } else {
            Some(Vec::new())
        }
    }

    fn action(&mut self) -> Option<Action> {
        self.lit("{\"action\":")?;
        let a = match self.str()? {
            "roll_pips" => {
                self.lit(",\"die\":")?;
                Action::RollPips { die: self.die()? }
            }
            "roll_command_pips" => {
                self.lit(",\"dice\":")?;
                Action::RollCommandPips {
                    dice: self.list(Self::die)?,
                }
            }
            "dice_river" => {
                self.lit(",\"die\":")?;
                Action::DiceRiver { die: self.die()? }
            }
            "move" => {
                self.lit(",\"order\":")?;
                Action::Move {
                    order: self.order()?,
                }
            }
            "end_movement" => Action::EndMovement,
            "shoot" => {
                self.lit(",\"shooter\":")?;
                let shooter = self.id()?;
                self.lit(",\"target\":")?;
                let target = self.id()?;
                self.lit(",\"support\":")?;
                let support = self.ids()?;
                self.lit(",\"dice\":")?;
                let dice = self.dice2()?;
                let recoil_own_depth = self.ids_if(",\"recoil_own_depth\":")?;
                let shoots_back = self.eat(",\"shoots_back\":true");
                Action::Shoot {
                    shooter,
                    target,
                    support,
                    dice,
                    recoil_own_depth,
                    shoots_back,
                }
            }
            "sally" => {
                self.lit(",\"city\":")?;
                let city = self.usize()?;
                self.lit(",\"pose\":")?;
                Action::Sally {
                    city,
                    pose: self.pose()?,
                }
            }
            "land" => {
                self.lit(",\"ids\":")?;
                let ids = self.ids()?;
                self.lit(",\"poses\":")?;
                Action::Land {
                    ids,
                    poses: self.poses()?,
                }
            }
            "fight" => {
                self.lit(",\"a\":")?;
                let a = self.id()?;
                self.lit(",\"b\":")?;
                let b = self.id()?;
                self.lit(",\"dice\":")?;
                let dice = self.dice2()?;
                let recoil_own_depth = self.ids_if(",\"recoil_own_depth\":")?;
                let c_in_c_bonus = self.ids_if(",\"c_in_c_bonus\":")?;
                Action::Fight {
                    a,
                    b,
                    dice,
                    recoil_own_depth,
                    c_in_c_bonus,
                }
            }
            "hold" => {
                self.lit(",\"ids\":")?;
                Action::Hold { ids: self.ids()? }
            }
            _ => return None,
        };
        self.lit("}")?;
        Some(a)
    }

    fn order(&mut self) -> Option<MoveOrder> {
        self.lit("{\"type\":")?;
        let o = match self.str()? {
            "element" => {
                self.lit(",\"id\":")?;
                let id = self.id()?;
                self.lit(",\"path\":")?;
                MoveOrder::Element {
                    id,
                    path: self.poses()?,
                }
            }
            "group" => {
                self.lit(",\"ids\":")?;
                let ids = self.ids()?;
                self.lit(",\"steps\":")?;
                MoveOrder::Group {
                    ids,
                    steps: self.list(Self::step)?,
                }
            }
            "column" => {
                self.lit(",\"ids\":")?;
                let ids = self.ids()?;
                self.lit(",\"path\":")?;
                MoveOrder::Column {
                    ids,
                    path: self.poses()?,
                }
            }
            "into_contact" => {
                self.lit(",\"ids\":")?;
                let ids = self.ids()?;
                self.lit(",\"target\":")?;
                let target = self.id()?;
                self.lit(",\"contact\":")?;
                MoveOrder::IntoContact {
                    ids,
                    target,
                    contact: self.serde()?,
                }
            }
            "dismount" => {
                self.lit(",\"id\":")?;
                MoveOrder::Dismount { id: self.id()? }
            }
            "through_city" => {
                self.lit(",\"ids\":")?;
                let ids = self.ids()?;
                self.lit(",\"city\":")?;
                MoveOrder::ThroughCity {
                    ids,
                    city: self.usize()?,
                }
            }
            _ => return None,
        };
        self.lit("}")?;
        Some(o)
    }

    fn step(&mut self) -> Option<GroupStep> {
        self.lit("{\"step\":")?;
        let s = match self.str()? {
            "advance" => {
                self.lit(",\"distance\":")?;
                GroupStep::Advance {
                    distance: self.f64()?,
                }
            }
            "wheel" => {
                self.lit(",\"pivot\":")?;
                let pivot = self.serde()?;
                self.lit(",\"degrees\":")?;
                GroupStep::Wheel {
                    pivot,
                    degrees: self.f64()?,
                }
            }
            _ => return None,
        };
        self.lit("}")?;
        Some(s)
    }

    fn element_setup(&mut self) -> Option<ElementSetup> {
        self.lit("{\"id\":")?;
        let id = self.id()?;
        self.lit(",\"kind\":")?;
        let kind = self.kind()?;
        self.lit(",\"pose\":")?;
        let pose = self.pose()?;
        self.lit(",\"general\":")?;
        let general = self.bool()?;
        self.lit(",\"contingent\":")?;
        let contingent = if self.eat("null") {
            None
        } else {
            Some(self.u8()?)
        };
        self.lit(",\"dismounts_as\":")?;
        let dismounts_as = if self.eat("null") {
            None
        } else {
            Some(self.kind()?)
        };
        let mobile_tower = self.eat(",\"mobile_tower\":true");
        self.lit("}")?;
        Some(ElementSetup {
            id,
            kind,
            pose,
            general,
            contingent,
            dismounts_as,
            mobile_tower,
        })
    }

    fn army(&mut self) -> Option<ArmySetup> {
        self.lit("{\"name\":")?;
        let name = self.str()?.to_string();
        self.lit(",\"base_edge\":")?;
        let base_edge = self.serde()?;
        self.lit(",\"elements\":")?;
        let elements = self.list(Self::element_setup)?;
        self.lit(",\"camp\":")?;
        let camp = if self.eat("null") {
            None
        } else {
            Some(self.polygon()?)
        };
        let camp_followers = self.eat(",\"camp_followers\":true");
        let commands = if self.eat(",\"commands\":") {
            self.serde()?
        } else {
            Vec::new()
        };
        let pip_allocation = if self.eat(",\"pip_allocation\":") {
            Some(self.serde()?)
        } else {
            None
        };
        self.lit("}")?;
        Some(ArmySetup {
            name,
            base_edge,
            elements,
            camp,
            camp_followers,
            commands,
            pip_allocation,
        })
    }

    fn setup(&mut self) -> Option<BattleSetup> {
        self.lit("{\"format\":")?;
        let format = self.str()?.to_string();
        self.lit(",\"version\":")?;
        let version = self.u32()?;
        self.lit(",\"variant\":")?;
        let variant = self.serde()?;
        let config = if self.eat(",\"config\":") {
            self.serde()?
        } else {
            super::default_config().clone()
        };
        self.lit(",\"battlefield\":")?;
        let battlefield = self.battlefield()?;
        self.lit(",\"armies\":")?;
        let armies = self.list(Self::army)?;
        self.lit(",\"first\":")?;
        let first = self.usize()?;
        self.lit(",\"sandbox\":")?;
        let sandbox = self.bool()?;
        let city_owner = if self.eat(",\"city_owner\":") {
            Some(self.usize()?)
        } else {
            None
        };
        let held_back = self.ids_if(",\"held_back\":")?;
        self.lit("}")?;
        Some(BattleSetup {
            format,
            version,
            variant,
            config,
            battlefield,
            armies,
            first,
            sandbox,
            city_owner,
            held_back,
        })
    }

    fn saved_element(&mut self) -> Option<SavedElement> {
        self.lit("{\"pose\":")?;
        let pose = self.pose()?;
        let kind = if self.eat(",\"kind\":") {
            Some(self.kind()?)
        } else {
            None
        };
        let status = if self.eat(",\"status\":") {
            Some(self.serde()?)
        } else {
            None
        };
        let moves_this_bound = if self.eat(",\"moves_this_bound\":") {
            self.u8()?
        } else {
            0
        };
        let moved_this_bound = if self.eat(",\"moved_this_bound\":") {
            self.f64()?
        } else {
            0.0
        };
        self.lit("}")?;
        Some(SavedElement {
            pose,
            kind,
            status,
            moves_this_bound,
            moved_this_bound,
        })
    }

    /// An optional field read by serde, its type's default when it is not there.
    fn serde_if<T: DeserializeOwned + Default>(&mut self, field: &str) -> Option<T> {
        if self.eat(field) {
            self.serde()
        } else {
            Some(T::default())
        }
    }

    fn state(&mut self) -> Option<StateIn> {
        self.lit("{\"format\":")?;
        let format = self.str()?.to_string();
        self.lit(",\"version\":")?;
        let version = self.u32()?;
        self.lit(",\"setup\":")?;
        let setup = self.setup()?;
        self.lit(",\"actions\":")?;
        let actions = self.list(Self::action)?;
        self.lit(",\"bound\":")?;
        let bound = self.u32()?;
        self.lit(",\"active\":")?;
        let active = self.usize()?;
        self.lit(",\"phase\":")?;
        let phase = self.serde()?;
        self.lit(",\"pips\":")?;
        let pips = self.u8()?;
        let river = self.serde_if(",\"river\":")?;
        let plough_rough = self.eat(",\"plough_rough\":true");
        self.lit(",\"bounds_begun\":")?;
        let bounds_begun = self.list(Self::u32)?;
        self.lit(",\"elements\":")?;
        let elements = self.list(Self::saved_element)?;
        let sallied = self.serde_if(",\"sallied\":")?;
        let shot = self.ids_if(",\"shot\":")?;
        let shots = if self.eat(",\"shots\":") {
            self.list(|p| {
                p.lit("[")?;
                let a = p.id()?;
                p.lit(",")?;
                let b = p.id()?;
                p.lit("]")?;
                Some((a, b))
            })?
        } else {
            Vec::new()
        };
        let fought = self.ids_if(",\"fought\":")?;
        let pursued = self.ids_if(",\"pursued\":")?;
        self.lit(",\"camp_sacked\":")?;
        let camp_sacked = self.list(Self::bool)?;
        self.lit(",\"camp_followers\":")?;
        let camp_followers = self.list(Self::bool)?;
        let cities = self.serde_if(",\"cities\":")?;
        let verdict = self.serde_if(",\"verdict\":")?;
        let commands = self.serde_if(",\"commands\":")?;
        self.lit(",\"digest\":")?;
        let digest = self.str()?.to_string();
        self.lit("}")?;
        Some(StateIn {
            format,
            version,
            setup,
            actions,
            bound,
            active,
            phase,
            pips,
            river,
            plough_rough,
            bounds_begun,
            elements,
            sallied,
            shot,
            shots,
            fought,
            pursued,
            camp_sacked,
            camp_followers,
            cities,
            verdict,
            commands,
            digest,
        })
    }
}

/// The compact state in `text` if it is in the one spelling dbcore writes (spaces around it
/// aside), read to the values serde would read; `None` for any other text, which serde then
/// reads (or refuses, naming the field).
pub(super) fn state(text: &str) -> Option<StateIn> {
    let text = text.trim_matches(|c: char| matches!(c, ' ' | '\n' | '\r' | '\t'));
    let mut p = Bytes::new(text);
    let s = p.state()?;
    (p.i == p.b.len()).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_read_as_serde_reads_it() {
        for a in super::super::write::tests::every_action() {
            let text = serde_json::to_string(&a).expect("serialises");
            let mut p = Bytes::new(&text);
            let fast = p.action();
            assert_eq!(fast, serde_json::from_str::<Action>(&text).ok(), "{text}");
            assert!(fast.is_none() || p.i == text.len(), "{text}");
        }
    }

    #[test]
    fn terrain_is_read_as_serde_reads_it() {
        let text =
            serde_json::to_string(&super::super::write::tests::some_terrain()).expect("serialises");
        let mut p = Bytes::new(&text);
        let fast = p.battlefield().expect("read by hand");
        assert_eq!(p.i, text.len());
        assert_eq!(
            fast,
            serde_json::from_str::<Battlefield>(&text).expect("reads")
        );
    }

    #[test]
    fn short_decimals_are_read_to_the_bit_as_serde_reads_them() {
        // The quick case of `f64` (a fraction, up to 19 digits) against serde's parser, on
        // numbers of every length and place of the point.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let digits = 1 + (seed % 19) as usize;
            let mantissa = (seed >> 8) % 10u64.pow(digits as u32);
            let text = format!("{mantissa:0digits$}");
            let point = 1 + (seed >> 4) as usize % digits;
            let (int, frac) = text.split_at(point.min(digits - 1).max(1));
            let int = int.trim_start_matches('0');
            let int = if int.is_empty() { "0" } else { int };
            let sign = if seed & 1 == 1 { "-" } else { "" };
            let f = if frac.is_empty() {
                format!("{sign}{int}.0")
            } else {
                format!("{sign}{int}.{frac}")
            };
            let mut p = Bytes::new(&f);
            let fast = p.f64().map(f64::to_bits);
            assert_eq!(p.i, f.len(), "{f}");
            let serde = serde_json::from_str::<f64>(&f).ok().map(f64::to_bits);
            assert_eq!(fast, serde, "{f}");
        }
    }

    #[test]
    fn numbers_are_read_as_serde_reads_them() {
        let floats = [
            "0",
            "1",
            "-1",
            "0.5",
            "-0.0",
            "6.257464374963667",
            "-14.036243467926479",
            "1e21",
            "1E-7",
            "2.5e+3",
            "123456789012345678901234567890",
            "0.1",
            "4.35",
            "1e999",
            "-0",
            "01",
            "1.",
            ".5",
            "+1",
            "-",
            "1e",
            "1.5e-",
            "nan",
            "inf",
        ];
        for f in floats {
            let mut p = Bytes::new(f);
            let fast = p.f64().filter(|_| p.i == f.len());
            let serde = serde_json::from_str::<f64>(f).ok();
            match fast {
                Some(x) => assert_eq!(Some(x.to_bits()), serde.map(f64::to_bits), "{f}"),
                // Left to serde, whatever it makes of it.
                None => assert!(serde.is_none() || f == "-0", "{f}: serde reads {serde:?}"),
            }
        }
        for n in [
            "0",
            "7",
            "255",
            "256",
            "-1",
            "1.0",
            "1e2",
            "007",
            "4294967295",
            "4294967296",
        ] {
            let mut p = Bytes::new(n);
            let fast = p.u32().filter(|_| p.i == n.len());
            assert_eq!(fast, serde_json::from_str::<u32>(n).ok(), "{n}");
        }
    }
}
