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
use crate::battle::state::Status;
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
    /// The last element kind read, with its code ([`Bytes::kind`]).
    last_kind: Option<(&'a str, ElementKind)>,
}

/// Powers of ten that an `f64` holds exactly.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Powers of ten up to the largest a `u64` holds.
const POWERS_U64: [u64; 20] = {
    let mut p = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        p[i] = p[i - 1] * 10;
        i += 1;
    }
    p
};

/// `mantissa / 10^fraction` correctly rounded to an `f64` (to nearest, ties to even), as the
/// standard library's parser rounds the decimal it spells, for `fraction` up to 19, where
/// `10^fraction` is a `u64`. In integers, so exact: the quotient to 64 or 65 bits, the
/// remainder for whether anything is left below them, then rounded to 53 bits. The quotient of
/// a non-zero mantissa is at least 10^-19, far above the smallest normal `f64`, so the scaling
/// by a power of two is exact too (#15: a 17-digit number costs a fraction of the general
/// parse).
fn ratio_to_f64(mantissa: u64, fraction: usize) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let p = POWERS_U64[fraction];
    // Bit lengths of the mantissa and the power; the mantissa shifted so that the quotient
    // lies in [2^63, 2^65).
    let bm = 64 - mantissa.leading_zeros();
    let bp = 64 - p.leading_zeros();
    let shift = 64 + bp - bm;
    let a = u128::from(mantissa) << shift;
    let q = a / u128::from(p);
    let inexact = a % u128::from(p) != 0;
    let bits = 128 - q.leading_zeros();
    let extra = bits - 53;
    let mut top = (q >> extra) as u64;
    let rest = q & ((1u128 << extra) - 1);
    let half = 1u128 << (extra - 1);
    if rest > half || (rest == half && (inexact || top & 1 == 1)) {
        top += 1;
    }
    // `top` is at most 2^53 (a carry out of 53 bits), exact as an `f64`; the value is
    // `top * 2^(extra - shift)`.
    let exponent = i64::from(extra) - i64::from(shift);
    let scale = f64::from_bits(((1023 + exponent) as u64) << 52);
    top as f64 * scale
}

impl<'a> Bytes<'a> {
    fn new(s: &'a str) -> Bytes<'a> {
        Bytes {
            s,
            b: s.as_bytes(),
            i: 0,
            last_kind: None,
        }
    }

    /// Step over `s` if the text goes on with it. Always inlined, so that each literal's
    /// length is known where it is compared and the comparison is a few loads rather than a
    /// call of `memcmp` (#15).
    #[inline(always)]
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
    #[inline(always)]
    fn lit(&mut self, s: &str) -> Option<()> {
        self.eat(s).then_some(())
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// A string without escapes, borrowed from the text.
    fn str(&mut self) -> Option<&'a str> {
        self.lit("\"")?;
        let start = self.i;
        let mut i = start;
        // Eight bytes at a time (#15): the first quote, backslash or control character in a
        // word is its lowest byte whose test below leaves a bit (the usual test for a zero
        // byte, which may flag bytes above the first hit but never below it).
        const ONES: u64 = 0x0101_0101_0101_0101;
        const TOPS: u64 = 0x8080_8080_8080_8080;
        let end = loop {
            let Some(chunk) = self.b.get(i..i + 8) else {
                // The last few bytes of the text, one at a time.
                while !matches!(*self.b.get(i)?, b'"' | b'\\' | 0..=0x1F) {
                    i += 1;
                }
                break i;
            };
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            let w = u64::from_le_bytes(w);
            let zero = |x: u64| x.wrapping_sub(ONES) & !x & TOPS;
            let quote = zero(w ^ (ONES * u64::from(b'"')));
            let backslash = zero(w ^ (ONES * u64::from(b'\\')));
            let control = w.wrapping_sub(ONES * 0x20) & !w & TOPS;
            let hits = quote | backslash | control;
            if hits != 0 {
                break i + (hits.trailing_zeros() / 8) as usize;
            }
            i += 8;
        };
        if self.b[end] != b'"' {
            return None;
        }
        let s = self.s.get(start..end)?;
        self.i = end + 1;
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

    /// Digits from here, folded into `mantissa` (wrapping: the caller counts them and trusts it
    /// only up to 19), up to eight at a time: a 16-digit fraction in three steps instead of
    /// sixteen (#15). Each step reads eight bytes as a word, finds how many of them are digits
    /// from the first on, and folds those in at once.
    #[inline(always)]
    fn digits(&mut self, mantissa: &mut u64) -> usize {
        const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
        const THREES: u64 = 0x3030_3030_3030_3030;
        let start = self.i;
        let mut i = self.i;
        while let Some(chunk) = self.b.get(i..i + 8) {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            let w = u64::from_le_bytes(w);
            // A byte is a digit when its high half is 3, and still 3 after adding 6 (no byte
            // of UTF-8 text is above 0xF4, so adding 6 carries into no other byte): any other
            // byte leaves bits in `other`, and the first such byte ends the digits.
            let other =
                ((w & HIGH) ^ THREES) | ((w.wrapping_add(0x0606_0606_0606_0606) & HIGH) ^ THREES);
            let n = (other.trailing_zeros() / 8) as usize;
            if n == 0 {
                break;
            }
            // The first `n` bytes (the first in the lowest) as digits moved to the top of the
            // word, zeros below them as leading zeros; whatever the subtraction did to the bytes
            // after them is shifted out. Then pairs, fours and all eight as one number.
            let v = w.wrapping_sub(THREES) << (8 * (8 - n));
            let v = (v.wrapping_mul(10) + (v >> 8)) & 0x00FF_00FF_00FF_00FF;
            let v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
            let v = (v.wrapping_mul(10_000) + (v >> 32)) & 0xFFFF_FFFF;
            *mantissa = mantissa.wrapping_mul(POWERS_U64[n]).wrapping_add(v);
            i += n;
            if n < 8 {
                self.i = i;
                return i - start;
            }
        }
        // The last few bytes of the text, one at a time.
        while let Some(c @ b'0'..=b'9') = self.b.get(i).copied() {
            *mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            i += 1;
        }
        self.i = i;
        i - start
    }

    /// A JSON number as an `f64`, finite, correctly rounded. Always inlined (#15): most of the
    /// numbers are the three of a pose, and a call each cost about twenty instructions of
    /// saving and restoring registers.
    #[inline(always)]
    fn f64(&mut self) -> Option<f64> {
        let start = self.i;
        let negative = self.eat("-");
        let int = self.i;
        // The digits as one integer while it is exact, for the quick cases below.
        let mut mantissa: u64 = 0;
        // The integer part one digit at a time: dbcore's numbers have one to three there,
        // fewer than a word's step costs.
        while let Some(c @ b'0'..=b'9') = self.peek() {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            self.i += 1;
        }
        let int_digits = self.i - int;
        if int_digits == 0 || (int_digits > 1 && self.b[int] == b'0') {
            return None;
        }
        let mut digits = int_digits;
        let mut fraction = 0;
        let mut integer = true;
        if self.eat(".") {
            integer = false;
            fraction = self.digits(&mut mantissa);
            if fraction == 0 {
                return None;
            }
            digits += fraction;
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
        } else if !integer && digits <= 19 {
            // 16 or 17 significant digits, the most of what dbcore writes: rounded exactly in
            // integers rather than through the general parser, which reads the text again
            // (#15). Integers are left to the general path, below, as before.
            let x = ratio_to_f64(mantissa, fraction);
            return Some(if negative { -x } else { x });
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
        let v = crate::json::plain_from_slice(&self.b[self.i..end])?;
        self.i = end;
        Some(v)
    }

    /// `[item, item, ...]`, each read by `item`.
    fn list<T>(&mut self, item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.list_sized(4, item)
    }

    /// [`Bytes::list`] with room for `room` items once there is one (#15: a long list, of
    /// actions or outline points, is then not grown and copied on the way; an empty one still
    /// allocates nothing).
    fn list_sized<T>(
        &mut self,
        room: usize,
        mut item: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.lit("[")?;
        if self.eat("]") {
            return Some(Vec::new());
        }
        let mut v = Vec::with_capacity(room);
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
        let points = self.list_sized(32, Self::point)?;
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

    /// An element kind by its code. The last code read is kept with its kind, so that the run
    /// of one kind an army's elements mostly are is parsed once (#15: a parse of a code costs
    /// some four hundred instructions; the same code always gives the same kind).
    fn kind(&mut self) -> Option<ElementKind> {
        let code = self.str()?;
        if let Some((last, kind)) = self.last_kind {
            if last == code {
                return Some(kind);
            }
        }
        let kind = code.parse().ok()?;
        self.last_kind = Some((code, kind));
        Some(kind)
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
            "flee" => Action::Flee,
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
        let elements = self.list_sized(16, Self::element_setup)?;
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
        let free_army_size = self.eat(",\"free_army_size\":true");
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
            free_army_size,
        })
    }

    /// An element's status: the spellings dbcore writes by hand (#15: serde's reader of the
    /// internally tagged enum cost a thousand instructions each), any other through serde.
    fn status(&mut self) -> Option<Status> {
        for (text, status) in super::write::STATUSES {
            if self.eat(text) {
                return Some(status);
            }
        }
        self.serde()
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
            Some(self.status()?)
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
        // Room for the actions of a text this long (about 90 bytes each in a played battle).
        let actions = self.list_sized((self.b.len() / 128).min(4096), Self::action)?;
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
        let room = setup.armies.iter().map(|a| a.elements.len()).sum();
        let elements = self.list_sized(room, Self::saved_element)?;
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

    /// `Bytes::f64` as it was before the eight-digit steps and the integer rounding (#15): the
    /// reference the new reader is held to, bit for bit, on every text.
    fn f64_before(p: &mut Bytes<'_>) -> Option<f64> {
        let start = p.i;
        let negative = p.eat("-");
        let int = p.i;
        let mut mantissa: u64 = 0;
        let mut digits = 0usize;
        while let Some(c @ b'0'..=b'9') = p.peek() {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            digits += 1;
            p.i += 1;
        }
        let int_digits = p.i - int;
        if int_digits == 0 || (int_digits > 1 && p.b[int] == b'0') {
            return None;
        }
        let mut integer = true;
        if p.eat(".") {
            integer = false;
            let frac = p.i;
            while let Some(c @ b'0'..=b'9') = p.peek() {
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                digits += 1;
                p.i += 1;
            }
            let fraction = p.i - frac;
            if fraction == 0 {
                return None;
            }
            if digits <= 19
                && mantissa < (1 << 53)
                && fraction < EXACT_POWERS.len()
                && !matches!(p.peek(), Some(b'e' | b'E'))
            {
                let x = mantissa as f64 / EXACT_POWERS[fraction];
                return Some(if negative { -x } else { x });
            }
        }
        if matches!(p.peek(), Some(b'e' | b'E')) {
            integer = false;
            p.i += 1;
            if matches!(p.peek(), Some(b'+' | b'-')) {
                p.i += 1;
            }
            let exp = p.i;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            if p.i == exp {
                return None;
            }
        }
        let text = p.s.get(start..p.i)?;
        if integer && p.b[start] == b'-' && text.bytes().skip(1).all(|c| c == b'0') {
            return None;
        }
        let x: f64 = text.parse().ok()?;
        x.is_finite().then_some(x)
    }

    /// A small xorshift generator, so the random cases are the same on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The new reader and the old on `text`: the same number to the bit, the same refusal,
    /// and the same place after the number.
    fn same_as_before(text: &str) {
        let mut new = Bytes::new(text);
        let mut old = Bytes::new(text);
        let (a, b) = (new.f64(), f64_before(&mut old));
        assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{text:?}");
        if a.is_some() {
            assert_eq!(new.i, old.i, "{text:?}");
        }
    }

    #[test]
    fn numbers_are_read_to_the_bit_as_before() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        // Random decimals of every length and place of the point, with and without a sign,
        // an exponent, and something after them.
        let tails = ["", ",", "}", "]", "e5", "E-3", "e", ".", "x", "0", " "];
        for _ in 0..200_000 {
            let digits = 1 + rng.below(24) as usize;
            let text: String = (0..digits)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            let point = rng.below(digits as u64 + 1) as usize;
            let (int, frac) = text.split_at(point);
            let mut t = String::new();
            if rng.below(2) == 0 {
                t.push('-');
            }
            // Mostly a JSON integer part (no leading zero), sometimes anything.
            let int = if rng.below(8) == 0 {
                int
            } else {
                let trimmed = int.trim_start_matches('0');
                if trimmed.is_empty() {
                    "0"
                } else {
                    trimmed
                }
            };
            t.push_str(int);
            if !frac.is_empty() || rng.below(4) == 0 {
                t.push('.');
                t.push_str(frac);
            }
            t.push_str(tails[rng.below(tails.len() as u64) as usize]);
            same_as_before(&t);
        }
        // Every float as serde_json writes it, and its neighbours in the last digit.
        for _ in 0..200_000 {
            let x = f64::from_bits(rng.next());
            if !x.is_finite() {
                continue;
            }
            let text = serde_json::to_string(&x).expect("a finite float");
            same_as_before(&text);
            for step in [1u8, 9] {
                let mut bytes = text.clone().into_bytes();
                if let Some(last) = bytes.iter().rposition(u8::is_ascii_digit) {
                    bytes[last] = b'0' + (bytes[last] - b'0' + step) % 10;
                    same_as_before(&String::from_utf8(bytes).expect("ASCII"));
                }
            }
        }
        // Floats in dbcore's own range (board coordinates, facings, distances): 16 and 17
        // significant digits, the case the integer rounding is for.
        for _ in 0..200_000 {
            let x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 400.0 - 40.0;
            same_as_before(&serde_json::to_string(&x).expect("a finite float"));
            same_as_before(&format!("{x:.17}"));
            same_as_before(&format!("{x:.19}"));
        }
        // Edges: zeros, signs, the limits of 2^53, 19 and 20 digits, overflow, refusals.
        for t in [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "0.0000000000000000000",
            "-0.0000000000000000000",
            "9007199254740992.0",
            "9007199254740993.0",
            "9007199254740995.0",
            "900719925474099.25",
            "1844674407370955161.5",
            "18446744073709551615.0",
            "18446744073709551616.0",
            "9999999999999999999.0",
            "0.9999999999999999999",
            "0.1000000000000000055511151231257827",
            "1.0000000000000002220",
            "1.0000000000000001110",
            "1.0000000000000001111",
            "4.9406564584124654e-324",
            "1.7976931348623157e308",
            "1e999",
            "-1e999",
            "1.5e-",
            "01.5",
            "-.5",
            "1.",
            "NaN",
            "\"NaN\"",
            "Infinity",
            "-",
            "",
        ] {
            same_as_before(t);
        }
    }

    #[test]
    fn halfway_decimals_round_to_even_as_before() {
        // A decimal exactly halfway between two floats: an odd 54-bit integer over 2^f, which
        // is that integer times 5^f over 10^f, so it is spelt with f decimals.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..50_000 {
            let n = (rng.next() >> 10) | (1 << 53) | 1;
            for f in 0..=4u32 {
                let Some(m) = n.checked_mul(5u64.pow(f)) else {
                    continue;
                };
                let digits = m.to_string();
                let f = f as usize;
                let (int, frac) = digits.split_at(digits.len() - f);
                let text = if f == 0 {
                    format!("{int}.0")
                } else {
                    format!("{int}.{frac}")
                };
                same_as_before(&text);
                assert_eq!(
                    ratio_to_f64(m, f).to_bits(),
                    format!("{m}e-{f}")
                        .parse::<f64>()
                        .expect("a number")
                        .to_bits(),
                    "{m}e-{f}"
                );
            }
        }
    }

    #[test]
    fn the_integer_rounding_is_the_standard_parse() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let check = |m: u64, f: usize| {
            let parsed: f64 = format!("{m}e-{f}").parse().expect("a number");
            assert_eq!(ratio_to_f64(m, f).to_bits(), parsed.to_bits(), "{m}e-{f}");
        };
        for f in 0..=19 {
            for m in [
                0,
                1,
                2,
                9,
                10,
                (1 << 53) - 1,
                1 << 53,
                (1 << 53) + 1,
                (1 << 54) + 2,
                10u64.pow(15),
                10u64.pow(16) - 1,
                10u64.pow(16),
                10u64.pow(19) - 1,
                10u64.pow(19),
                u64::MAX - 1,
                u64::MAX,
            ] {
                check(m, f);
            }
            for _ in 0..20_000 {
                // Mantissas of every bit length.
                let m = rng.next() >> rng.below(64);
                check(m, f);
            }
        }
    }

    #[test]
    fn eight_digit_steps_read_what_one_digit_at_a_time_reads() {
        let mut rng = Rng(0x0f0f_1234_dead_beef);
        // Digits and the bytes next to them, above and below in each half of a byte, and
        // characters of two, three and four bytes (the highest bytes UTF-8 has).
        let alphabet: Vec<char> = "0123456789/:.eE-+ @pP\x7f\x00Z9é€\u{10FFFF}😀\u{F4}"
            .chars()
            .collect();
        for _ in 0..200_000 {
            let len = rng.below(30) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let mut p = Bytes::new(&text);
            let mut m = 0u64;
            let n = p.digits(&mut m);
            let run = text.bytes().take_while(u8::is_ascii_digit).count();
            let want = text[..run].bytes().fold(0u64, |m, c| {
                m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'))
            });
            assert_eq!((n, m, p.i), (run, want, run), "{text:?}");
        }
    }

    /// `Bytes::str` as it was before it read eight bytes at a time (#15).
    fn str_before<'a>(p: &mut Bytes<'a>) -> Option<&'a str> {
        p.lit("\"")?;
        let start = p.i;
        loop {
            match *p.b.get(p.i)? {
                b'"' => break,
                b'\\' => return None,
                c if c < 0x20 => return None,
                _ => p.i += 1,
            }
        }
        let s = p.s.get(start..p.i)?;
        p.i += 1;
        Some(s)
    }

    #[test]
    fn strings_are_read_as_before() {
        let mut rng = Rng(0x5151_7272_abab_0101);
        // Quotes, backslashes, control characters, the bytes next to them, and characters of
        // two to four bytes, at every place in a word.
        let alphabet: Vec<char> = "aZ\"\"\\\u{0}\u{1f} !#[]\u{7f}\u{80}é€😀\u{10FFFF}01"
            .chars()
            .collect();
        for _ in 0..300_000 {
            let len = rng.below(40) as usize;
            let mut text = String::from("\"");
            text.extend((0..len).map(|_| alphabet[rng.below(alphabet.len() as u64) as usize]));
            if rng.below(2) == 0 {
                text.push('"');
            }
            let (mut new, mut old) = (Bytes::new(&text), Bytes::new(&text));
            let (a, b) = (new.str(), str_before(&mut old));
            assert_eq!(a, b, "{text:?}");
            if a.is_some() {
                assert_eq!(new.i, old.i, "{text:?}");
            }
        }
    }

    #[test]
    fn kinds_are_read_as_serde_reads_them_in_any_order() {
        // A run of one code, others between, an unknown code and an escaped one (which the
        // reader leaves to serde, giving up on the whole text).
        let codes = [
            "4Bd",
            "4Bd",
            "3Kn",
            "4Bd",
            "Ps",
            "Ps",
            "X",
            "4Bd",
            "\\u0034Bd",
            "Cv",
            "Cv",
        ];
        let text: String = codes.iter().map(|c| format!("\"{c}\"")).collect();
        let mut p = Bytes::new(&text);
        for c in codes {
            let quoted = format!("\"{c}\"");
            let at = p.i;
            let serde = serde_json::from_str::<ElementKind>(&quoted).ok();
            match p.kind() {
                Some(k) => assert_eq!(Some(k), serde, "{c}"),
                None => {
                    assert!(
                        serde.is_none() || c.contains('\\'),
                        "{c}: serde reads {serde:?}"
                    );
                    p.i = at + quoted.len();
                }
            }
        }
        assert_eq!(p.i, text.len());
    }

    #[test]
    fn statuses_are_read_as_serde_reads_them() {
        for (text, status) in super::super::write::STATUSES {
            let mut p = Bytes::new(text);
            assert_eq!(p.status(), Some(status), "{text}");
            assert_eq!(p.i, text.len(), "{text}");
            assert_eq!(
                serde_json::from_str::<Status>(text).expect("serde reads it"),
                status
            );
        }
        // Any other spelling goes to serde, which reads it or refuses it as ever.
        for text in [
            "{\"cause\":\"destroyed\",\"status\":\"lost\"}",
            "{\"status\":\"lost\"}",
            "{\"status\": \"afloat\"}",
            "{\"status\":\"sunk\"}",
        ] {
            let mut p = Bytes::new(text);
            assert_eq!(
                p.status(),
                serde_json::from_str::<Status>(text).ok(),
                "{text}"
            );
        }
    }

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
