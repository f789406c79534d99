//! The compact state written straight into bytes, for speed.
//!
//! serde's writer spends most of its time on what dbcore's own types make certain: it scans
//! every field name for characters to escape, and grows its buffer as it goes. Here the hot
//! parts of a compact state (the actions, the elements of the set-up and of the battle, their
//! poses) are written directly, each field name as a literal; everything rarer (the terrain,
//! the rules configuration, cities, verdicts, commands) goes through serde as before, into the
//! same buffer. The bytes are those serde writes for the derived [`super::StateOut`], number
//! for number: floats through serde_json's own formatter, names and codes escaped as it escapes
//! them. The tests below hold the two writers to the same text on every golden state and on
//! every action variant.

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

use crate::battle::bound::Action;
use crate::battle::movement::{GroupStep, MoveOrder};
use crate::battle::setup::{ArmySetup, ElementId, ElementSetup};
use crate::battle::state::{LossCause, Status};
use crate::battlefield::Battlefield;
use crate::dice::DieScore;
use crate::geometry::{Point, Polygon, Pose};
use crate::terrain::TerrainFeature;

use super::{SavedElement, SetupOut, StateOut};

/// Every status with its text as serde writes it (the test below holds the table to serde's
/// writer, and the match in it to the variants), for writing and reading it by hand.
pub(super) const STATUSES: [(&str, Status); 5] = [
    (
        "{\"status\":\"lost\",\"cause\":\"destroyed\"}",
        Status::Lost {
            cause: LossCause::Destroyed,
        },
    ),
    (
        "{\"status\":\"lost\",\"cause\":\"off_table\"}",
        Status::Lost {
            cause: LossCause::OffTable,
        },
    ),
    (
        "{\"status\":\"lost\",\"cause\":\"removed\"}",
        Status::Lost {
            cause: LossCause::Removed,
        },
    ),
    ("{\"status\":\"afloat\"}", Status::Afloat),
    ("{\"status\":\"in_play\"}", Status::InPlay),
];

/// A buffer the compact state is written into.
pub(super) struct Out {
    pub(super) buf: Vec<u8>,
    /// The last element kind written, and where its text is in `buf` ([`Out::kind`]).
    last_kind: Option<(crate::troops::ElementKind, std::ops::Range<usize>)>,
}

impl Out {
    /// An empty buffer with room for about `bytes`.
    pub(super) fn with_capacity(bytes: usize) -> Out {
        Out {
            buf: Vec::with_capacity(bytes),
            last_kind: None,
        }
    }

    /// Always inlined, so that each literal's length is known where it is copied and the copy
    /// is a few stores rather than a call of `memcpy` (#15).
    #[inline(always)]
    fn raw(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// A value through serde, as the derived writer would write it.
    fn serde<T: Serialize + ?Sized>(&mut self, v: &T) {
        serde_json::to_writer(&mut self.buf, v).expect("a battle state always serialises");
    }

    /// A number as serde_json writes an `f64`: its own shortest form, `null` when not finite.
    ///
    /// Eighths under 2³¹ (the whole and half numbers of most set-ups, facings, PIP-sized
    /// steps) are written by hand (#15: about a quarter of the instructions of the general
    /// formatter): such a number is `m / 8` exactly, its decimal has at most three digits
    /// after the point, and no decimal with fewer digits is within half its spacing (10⁻³
    /// against 2⁻²² at most), so that decimal is the shortest form, which serde_json writes in
    /// plain notation with at least one digit after the point (`4.0`, `-0.375`, `-0.0`). The
    /// tests hold both ways to the same text.
    /// Whether `m` is whole is asked of a conversion to an integer and back (a saturating
    /// conversion: NaN gives 0, a number beyond the range its end, neither the same again but
    /// 2⁶³, which the bound refuses), since `trunc` is a call of the C library here.
    #[inline]
    fn f64(&mut self, x: f64) {
        let m = x * 8.0;
        let i = m as i64;
        if i as f64 == m && i.unsigned_abs() < 1 << 34 {
            const EIGHTHS: [&str; 8] = ["0", "125", "25", "375", "5", "625", "75", "875"];
            if x.is_sign_negative() {
                self.buf.push(b'-');
            }
            let a = i.unsigned_abs();
            self.u64(a >> 3);
            self.buf.push(b'.');
            self.raw(EIGHTHS[(a & 7) as usize]);
        } else if x.is_finite() {
            CompactFormatter
                .write_f64(&mut self.buf, x)
                .expect("writing to memory");
        } else {
            self.raw("null");
        }
    }

    fn u64(&mut self, n: u64) {
        CompactFormatter
            .write_u64(&mut self.buf, n)
            .expect("writing to memory");
    }

    fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    /// A string, escaped as serde_json escapes it.
    fn str(&mut self, s: &str) {
        if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
            self.buf.push(b'"');
            self.raw(s);
            self.buf.push(b'"');
        } else {
            self.serde(s);
        }
    }

    /// `[item,item,...]`, each written by `item` (#15: the short per-army lists by hand, not
    /// through serde).
    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.buf.push(b'[');
        for (i, t) in items.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            item(self, t);
        }
        self.buf.push(b']');
    }

    fn id(&mut self, id: ElementId) {
        self.u64(u64::from(id.0));
    }

    fn ids(&mut self, ids: &[ElementId]) {
        self.buf.push(b'[');
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.id(*id);
        }
        self.buf.push(b']');
    }

    fn die(&mut self, d: DieScore) {
        self.u64(u64::from(d.get()));
    }

    fn dice(&mut self, dice: &[DieScore]) {
        self.buf.push(b'[');
        for (i, d) in dice.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.die(*d);
        }
        self.buf.push(b']');
    }

    fn pose(&mut self, p: &Pose) {
        self.raw("{\"x\":");
        self.f64(p.x);
        self.raw(",\"y\":");
        self.f64(p.y);
        self.raw(",\"facing\":");
        self.f64(p.facing);
        self.buf.push(b'}');
    }

    fn poses(&mut self, poses: &[Pose]) {
        self.buf.push(b'[');
        for (i, p) in poses.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.pose(p);
        }
        self.buf.push(b']');
    }

    fn point(&mut self, p: &Point) {
        self.raw("{\"x\":");
        self.f64(p.x);
        self.raw(",\"y\":");
        self.f64(p.y);
        self.buf.push(b'}');
    }

    fn points(&mut self, points: &[Point]) {
        self.buf.push(b'[');
        for (i, p) in points.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.point(p);
        }
        self.buf.push(b']');
    }

    fn polygon(&mut self, p: &Polygon) {
        self.raw("{\"points\":");
        self.points(&p.points);
        self.buf.push(b'}');
    }

    /// The board and its terrain: area features (the many-pointed outlines) by hand, the
    /// others through serde.
    fn battlefield(&mut self, b: &Battlefield) {
        self.raw("{\"board\":{\"width\":");
        self.f64(b.board.width);
        self.raw(",\"depth\":");
        self.f64(b.board.depth);
        self.raw("},\"features\":[");
        for (i, f) in b.features.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            match f {
                TerrainFeature::Area(a) => {
                    self.raw("{\"area\":{\"kind\":");
                    self.serde(&a.kind);
                    self.raw(",\"outline\":");
                    self.polygon(&a.outline);
                    self.raw(",\"straight_edged\":");
                    self.bool(a.straight_edged);
                    self.raw(",\"crest\":");
                    self.points(&a.crest);
                    self.raw(",\"gates\":");
                    self.points(&a.gates);
                    self.raw("}}");
                }
                other => self.serde(other),
            }
        }
        self.raw("]}");
    }

    fn action(&mut self, a: &Action) {
        match a {
            Action::RollPips { die } => {
                self.raw("{\"action\":\"roll_pips\",\"die\":");
                self.die(*die);
            }
            Action::RollCommandPips { dice } => {
                self.raw("{\"action\":\"roll_command_pips\",\"dice\":");
                self.dice(dice);
            }
            Action::DiceRiver { die } => {
                self.raw("{\"action\":\"dice_river\",\"die\":");
                self.die(*die);
            }
            Action::Move { order } => {
                self.raw("{\"action\":\"move\",\"order\":");
                self.order(order);
            }
            Action::EndMovement => self.raw("{\"action\":\"end_movement\""),
            Action::Flee => self.raw("{\"action\":\"flee\""),
            Action::Shoot {
                shooter,
                target,
                support,
                dice,
                recoil_own_depth,
                shoots_back,
            } => {
                self.raw("{\"action\":\"shoot\",\"shooter\":");
                self.id(*shooter);
                self.raw(",\"target\":");
                self.id(*target);
                self.raw(",\"support\":");
                self.ids(support);
                self.raw(",\"dice\":");
                self.dice(dice);
                if !recoil_own_depth.is_empty() {
                    self.raw(",\"recoil_own_depth\":");
                    self.ids(recoil_own_depth);
                }
                if *shoots_back {
                    self.raw(",\"shoots_back\":true");
                }
            }
            Action::Sally { city, pose } => {
                self.raw("{\"action\":\"sally\",\"city\":");
                self.u64(*city as u64);
                self.raw(",\"pose\":");
                self.pose(pose);
            }
            Action::Land { ids, poses } => {
                self.raw("{\"action\":\"land\",\"ids\":");
                self.ids(ids);
                self.raw(",\"poses\":");
                self.poses(poses);
            }
            Action::Fight {
                a,
                b,
                dice,
                recoil_own_depth,
                c_in_c_bonus,
            } => {
                self.raw("{\"action\":\"fight\",\"a\":");
                self.id(*a);
                self.raw(",\"b\":");
                self.id(*b);
                self.raw(",\"dice\":");
                self.dice(dice);
                if !recoil_own_depth.is_empty() {
                    self.raw(",\"recoil_own_depth\":");
                    self.ids(recoil_own_depth);
                }
                if !c_in_c_bonus.is_empty() {
                    self.raw(",\"c_in_c_bonus\":");
                    self.ids(c_in_c_bonus);
                }
            }
            Action::Hold { ids } => {
                self.raw("{\"action\":\"hold\",\"ids\":");
                self.ids(ids);
            }
        }
        self.buf.push(b'}');
    }

    fn order(&mut self, o: &MoveOrder) {
        match o {
            MoveOrder::Element { id, path } => {
                self.raw("{\"type\":\"element\",\"id\":");
                self.id(*id);
                self.raw(",\"path\":");
                self.poses(path);
            }
            MoveOrder::Group { ids, steps } => {
                self.raw("{\"type\":\"group\",\"ids\":");
                self.ids(ids);
                self.raw(",\"steps\":[");
                for (i, s) in steps.iter().enumerate() {
                    if i > 0 {
                        self.buf.push(b',');
                    }
                    self.step(s);
                }
                self.buf.push(b']');
            }
            MoveOrder::Column { ids, path } => {
                self.raw("{\"type\":\"column\",\"ids\":");
                self.ids(ids);
                self.raw(",\"path\":");
                self.poses(path);
            }
            MoveOrder::IntoContact {
                ids,
                target,
                contact,
            } => {
                self.raw("{\"type\":\"into_contact\",\"ids\":");
                self.ids(ids);
                self.raw(",\"target\":");
                self.id(*target);
                self.raw(",\"contact\":");
                self.serde(contact);
            }
            MoveOrder::Dismount { id } => {
                self.raw("{\"type\":\"dismount\",\"id\":");
                self.id(*id);
            }
            MoveOrder::ThroughCity { ids, city } => {
                self.raw("{\"type\":\"through_city\",\"ids\":");
                self.ids(ids);
                self.raw(",\"city\":");
                self.u64(*city as u64);
            }
        }
        self.buf.push(b'}');
    }

    fn step(&mut self, s: &GroupStep) {
        match s {
            GroupStep::Advance { distance } => {
                self.raw("{\"step\":\"advance\",\"distance\":");
                self.f64(*distance);
            }
            GroupStep::Wheel { pivot, degrees } => {
                self.raw("{\"step\":\"wheel\",\"pivot\":");
                self.serde(pivot);
                self.raw(",\"degrees\":");
                self.f64(*degrees);
            }
        }
        self.buf.push(b'}');
    }

    /// An element kind by its code, escaped as serde_json would escape it (codes need none).
    /// The last kind written is kept with where its text is in the buffer, and the next
    /// element of that kind copies it (#15: formatting a code goes through `fmt` into a string
    /// of its own; the same kind always gives the same text).
    fn kind(&mut self, k: &crate::troops::ElementKind) {
        use std::fmt::Write as _;
        if let Some((last, at)) = &self.last_kind {
            if last == k {
                self.buf.extend_from_within(at.clone());
                return;
            }
        }
        let start = self.buf.len();
        let mut code = String::new();
        write!(code, "{k}").expect("writing to memory");
        self.str(&code);
        self.last_kind = Some((*k, start..self.buf.len()));
    }

    fn element_setup(&mut self, e: &ElementSetup) {
        self.raw("{\"id\":");
        self.id(e.id);
        self.raw(",\"kind\":");
        self.kind(&e.kind);
        self.raw(",\"pose\":");
        self.pose(&e.pose);
        self.raw(",\"general\":");
        self.bool(e.general);
        self.raw(",\"contingent\":");
        match e.contingent {
            Some(c) => self.u64(u64::from(c)),
            None => self.raw("null"),
        }
        self.raw(",\"dismounts_as\":");
        match &e.dismounts_as {
            Some(k) => self.kind(k),
            None => self.raw("null"),
        }
        if e.mobile_tower {
            self.raw(",\"mobile_tower\":true");
        }
        self.buf.push(b'}');
    }

    fn army(&mut self, a: &ArmySetup) {
        self.raw("{\"name\":");
        self.str(&a.name);
        self.raw(",\"base_edge\":");
        self.serde(&a.base_edge);
        self.raw(",\"elements\":[");
        for (i, e) in a.elements.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.element_setup(e);
        }
        self.raw("],\"camp\":");
        match &a.camp {
            Some(p) => self.polygon(p),
            None => self.raw("null"),
        }
        if a.camp_followers {
            self.raw(",\"camp_followers\":true");
        }
        if !a.commands.is_empty() {
            self.raw(",\"commands\":");
            self.serde(&a.commands);
        }
        if let Some(p) = &a.pip_allocation {
            self.raw(",\"pip_allocation\":");
            self.serde(p);
        }
        self.buf.push(b'}');
    }

    fn setup(&mut self, s: &SetupOut<'_>) {
        self.raw("{\"format\":");
        self.str(s.format);
        self.raw(",\"version\":");
        self.u64(u64::from(s.version));
        self.raw(",\"variant\":");
        self.serde(&s.variant);
        if let Some(c) = s.config {
            self.raw(",\"config\":");
            self.serde(c);
        }
        self.raw(",\"battlefield\":");
        self.battlefield(s.battlefield);
        self.raw(",\"armies\":[");
        for (i, a) in s.armies.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.army(a);
        }
        self.raw("],\"first\":");
        self.u64(s.first as u64);
        self.raw(",\"sandbox\":");
        self.bool(s.sandbox);
        if let Some(o) = s.city_owner {
            self.raw(",\"city_owner\":");
            self.u64(o as u64);
        }
        if !s.held_back.is_empty() {
            self.raw(",\"held_back\":");
            self.ids(s.held_back);
        }
        if s.free_army_size {
            self.raw(",\"free_army_size\":true");
        }
        self.buf.push(b'}');
    }

    /// A status as serde writes it, from the table below (#15: serde's writer of an internally
    /// tagged enum goes through a map).
    fn status(&mut self, s: Status) {
        let text = STATUSES
            .iter()
            .find(|(_, t)| *t == s)
            .map(|(text, _)| *text)
            .expect("every status is in the table");
        self.raw(text);
    }

    fn saved_element(&mut self, e: &SavedElement) {
        self.raw("{\"pose\":");
        self.pose(&e.pose);
        if let Some(k) = &e.kind {
            self.raw(",\"kind\":");
            self.kind(k);
        }
        if let Some(s) = e.status {
            self.raw(",\"status\":");
            self.status(s);
        }
        if e.moves_this_bound != 0 {
            self.raw(",\"moves_this_bound\":");
            self.u64(u64::from(e.moves_this_bound));
        }
        if e.moved_this_bound != 0.0 {
            self.raw(",\"moved_this_bound\":");
            self.f64(e.moved_this_bound);
        }
        self.buf.push(b'}');
    }

    /// The compact state without its digest: the bytes serde writes for `s`.
    pub(super) fn state(&mut self, s: &StateOut<'_>) {
        self.raw("{\"format\":");
        self.str(s.format);
        self.raw(",\"version\":");
        self.u64(u64::from(s.version));
        self.raw(",\"setup\":");
        self.buf.extend_from_slice(s.setup_text);
        self.raw(",\"actions\":[");
        for (i, a) in s.actions.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.action(a);
        }
        self.raw("],\"bound\":");
        self.u64(u64::from(s.bound));
        self.raw(",\"active\":");
        self.u64(s.active as u64);
        self.raw(",\"phase\":");
        self.serde(&s.phase);
        self.raw(",\"pips\":");
        self.u64(u64::from(s.pips));
        if let Some(r) = &s.river {
            self.raw(",\"river\":");
            self.serde(r);
        }
        if s.plough_rough {
            self.raw(",\"plough_rough\":true");
        }
        self.raw(",\"bounds_begun\":");
        self.list(s.bounds_begun, |o, n| o.u64(u64::from(*n)));
        self.raw(",\"elements\":[");
        for (i, e) in s.elements.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.saved_element(e);
        }
        self.buf.push(b']');
        if !s.sallied.is_empty() {
            self.raw(",\"sallied\":");
            self.serde(s.sallied);
        }
        if !s.shot.is_empty() {
            self.raw(",\"shot\":");
            self.ids(s.shot);
        }
        if !s.shots.is_empty() {
            self.raw(",\"shots\":[");
            for (i, (a, b)) in s.shots.iter().enumerate() {
                if i > 0 {
                    self.buf.push(b',');
                }
                self.buf.push(b'[');
                self.id(*a);
                self.buf.push(b',');
                self.id(*b);
                self.buf.push(b']');
            }
            self.buf.push(b']');
        }
        if !s.fought.is_empty() {
            self.raw(",\"fought\":");
            self.ids(s.fought);
        }
        if !s.pursued.is_empty() {
            self.raw(",\"pursued\":");
            self.ids(s.pursued);
        }
        self.raw(",\"camp_sacked\":");
        self.list(s.camp_sacked, |o, b| o.bool(*b));
        self.raw(",\"camp_followers\":");
        self.list(s.camp_followers, |o, b| o.bool(*b));
        if !s.cities.is_empty() {
            self.raw(",\"cities\":");
            self.serde(s.cities);
        }
        if let Some(v) = s.verdict {
            self.raw(",\"verdict\":");
            self.serde(v);
        }
        if !s.commands.is_empty() {
            self.raw(",\"commands\":");
            self.serde(s.commands);
        }
        self.buf.push(b'}');
    }
}

/// The compact state's text without its digest, as [`Out::state`] writes it.
pub(super) fn state_bytes(s: &StateOut<'_>) -> Vec<u8> {
    // Room for the usual sizes, so that the buffer is seldom grown (and copied) on the way.
    let mut out = Out::with_capacity(4096 + 160 * s.actions.len() + 200 * s.elements.len());
    out.state(s);
    out.buf
}

/// The set-up's part of the compact state, as [`Out::state`] writes it: what
/// [`super::SetupText`] keeps.
pub(super) fn setup_bytes(s: &SetupOut<'_>) -> Vec<u8> {
    let mut out = Out::with_capacity(2048);
    out.setup(s);
    out.buf
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn pose(x: f64, y: f64, f: f64) -> Pose {
        Pose::new(x, y, f)
    }

    fn die(n: u8) -> DieScore {
        DieScore::new(n).expect("1 to 6")
    }

    /// Every variant of every action, with the optional fields both given and left out.
    pub(in crate::battle::saved) fn every_action() -> Vec<Action> {
        use crate::battle::movement::{ContactWanted, Flank};
        let p = pose(6.257464374963667, 4.970142500145332, -14.036243467926479);
        let orders = vec![
            MoveOrder::Element {
                id: ElementId(2),
                path: vec![pose(4.5, 6.0, 0.0), p],
            },
            MoveOrder::Group {
                ids: vec![ElementId(1), ElementId(2)],
                steps: vec![
                    GroupStep::Advance { distance: -0.5 },
                    GroupStep::Wheel {
                        pivot: Flank::Left,
                        degrees: -1e-7,
                    },
                ],
            },
            MoveOrder::Column {
                ids: vec![ElementId(3)],
                path: vec![],
            },
            MoveOrder::IntoContact {
                ids: vec![ElementId(3)],
                target: ElementId(103),
                contact: ContactWanted::Front,
            },
            MoveOrder::Dismount { id: ElementId(7) },
            MoveOrder::ThroughCity {
                ids: vec![ElementId(4), ElementId(5)],
                city: 2,
            },
        ];
        let mut v: Vec<Action> = orders
            .into_iter()
            .map(|order| Action::Move { order })
            .collect();
        v.extend([
            Action::RollPips { die: die(4) },
            Action::RollCommandPips {
                dice: vec![die(1), die(6), die(3)],
            },
            Action::DiceRiver { die: die(2) },
            Action::EndMovement,
            Action::Shoot {
                shooter: ElementId(1),
                target: ElementId(101),
                support: vec![],
                dice: [die(1), die(2)],
                recoil_own_depth: vec![],
                shoots_back: false,
            },
            Action::Shoot {
                shooter: ElementId(1),
                target: ElementId(101),
                support: vec![ElementId(2), ElementId(3)],
                dice: [die(5), die(6)],
                recoil_own_depth: vec![ElementId(101)],
                shoots_back: true,
            },
            Action::Sally {
                city: 1,
                pose: pose(1e21, f64::NAN, 0.1 + 0.2),
            },
            Action::Land {
                ids: vec![ElementId(9)],
                poses: vec![pose(0.0, -0.0, 359.99999999999994)],
            },
            Action::Fight {
                a: ElementId(1),
                b: ElementId(0xFFFF_0001),
                dice: [die(3), die(3)],
                recoil_own_depth: vec![],
                c_in_c_bonus: vec![],
            },
            Action::Fight {
                a: ElementId(1),
                b: ElementId(2),
                dice: [die(3), die(3)],
                recoil_own_depth: vec![ElementId(2)],
                c_in_c_bonus: vec![ElementId(1)],
            },
            Action::Hold { ids: vec![] },
            Action::Flee,
        ]);
        v
    }

    /// A battlefield with a City (gates, straight edges) and a hill (crest).
    pub(in crate::battle::saved) fn some_terrain() -> Battlefield {
        use crate::terrain::{AreaFeature, AreaKind};
        let square = |x: f64| Polygon {
            points: vec![
                Point::new(x, 1.0),
                Point::new(x + 2.0, 1.0),
                Point::new(x + 2.0, 3.0),
                Point::new(x, 3.0),
            ],
        };
        let mut b = Battlefield::default();
        b.features.push(TerrainFeature::Area(AreaFeature {
            kind: AreaKind::City,
            outline: square(1.0),
            straight_edged: true,
            crest: vec![],
            gates: vec![Point::new(2.0, 1.0), Point::new(0.1 + 0.2, 3.0)],
        }));
        b.features.push(TerrainFeature::Area(AreaFeature {
            kind: AreaKind::GentleHill,
            outline: square(6.0),
            straight_edged: false,
            crest: vec![Point::new(6.5, 2.0), Point::new(7.5, 2.0)],
            gates: vec![],
        }));
        b
    }

    // Numbers are written as serde_json writes an `f64`, by hand or not: eighths and others,
    // signed zeros, the bounds of the hand-written range, and any bit pattern.
    #[test]
    fn numbers_are_written_as_serde_writes_them() {
        let mut xs = vec![
            0.0,
            -0.0,
            4.0,
            180.0,
            -0.375,
            0.125,
            2147483647.875,
            -2147483647.875,
            2147483648.0,
            -2147483648.0,
            9_223_372_036_854_775_808.0 / 8.0,
            -9_223_372_036_854_775_808.0 / 8.0,
            1e16,
            1e-7,
            0.1 + 0.2,
            5e-324,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut state = 0x243F_6A88_85A3_08D3u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let r = next();
            xs.push(match r % 4 {
                0 => f64::from_bits(next()),
                1 => (next() % 400_000) as f64 / 8.0 - 25_000.0,
                2 => (next() as i64 >> (next() % 40)) as f64 / 8.0,
                _ => (next() % 1_000_000) as f64 / 1000.0,
            });
        }
        let (mut by_hand, mut general) = (0, 0);
        for x in xs {
            let mut out = Out::with_capacity(0);
            out.f64(x);
            let want = serde_json::to_string(&x).expect("serialises");
            assert_eq!(String::from_utf8(out.buf).expect("UTF-8"), want, "{x:?}");
            let m = x * 8.0;
            if m == m.trunc() && m.abs() < 17_179_869_184.0 {
                by_hand += 1;
            } else {
                general += 1;
            }
        }
        assert!(by_hand > 1000 && general > 1000);
    }

    #[test]
    fn statuses_are_written_as_serde_writes_them() {
        for (text, status) in STATUSES {
            // Every variant is in the table: a new one fails to compile here.
            match status {
                Status::InPlay
                | Status::Afloat
                | Status::Lost {
                    cause: LossCause::Destroyed | LossCause::OffTable | LossCause::Removed,
                } => {}
            }
            let mut out = Out::with_capacity(0);
            out.status(status);
            let serde = serde_json::to_string(&status).expect("serialises");
            assert_eq!(String::from_utf8(out.buf).expect("UTF-8"), serde);
            assert_eq!(text, serde);
        }
        let distinct: std::collections::HashSet<_> = STATUSES.iter().map(|(t, _)| *t).collect();
        assert_eq!(distinct.len(), STATUSES.len());
    }

    #[test]
    fn terrain_is_written_as_serde_writes_it() {
        let b = some_terrain();
        let mut out = Out::with_capacity(0);
        out.battlefield(&b);
        let serde = serde_json::to_string(&b).expect("serialises");
        assert_eq!(String::from_utf8(out.buf).expect("UTF-8"), serde);
    }

    #[test]
    fn every_action_is_written_as_serde_writes_it() {
        for a in every_action() {
            let mut out = Out::with_capacity(0);
            out.action(&a);
            let serde = serde_json::to_string(&a).expect("serialises");
            assert_eq!(String::from_utf8(out.buf).expect("UTF-8"), serde, "{a:?}");
        }
    }

    #[test]
    fn names_and_codes_are_escaped_as_serde_escapes_them() {
        for s in [
            "Romans",
            "tab\there",
            "quote \" and \\",
            "\u{1f}\u{7f}é",
            "",
        ] {
            let mut out = Out::with_capacity(0);
            out.str(s);
            assert_eq!(out.buf, serde_json::to_vec(s).expect("serialises"), "{s:?}");
        }
        for code in ["4Bd", "3Kn", "Ps", "LCh", "3Wb"] {
            let k: crate::troops::ElementKind = code.parse().expect("a kind code");
            let mut out = Out::with_capacity(0);
            out.kind(&k);
            assert_eq!(
                out.buf,
                serde_json::to_vec(&k).expect("serialises"),
                "{code}"
            );
        }
        // Runs of one kind and changes between, in one buffer, as serde writes the list.
        let kinds: Vec<crate::troops::ElementKind> = [
            "4Bd", "4Bd", "3Kn", "4Bd", "Ps", "Ps", "Ps", "Mtd-3Bw", "4Bd", "4Bd",
        ]
        .iter()
        .map(|c| c.parse().expect("a kind code"))
        .collect();
        let mut out = Out::with_capacity(0);
        out.list(&kinds, |o, k| o.kind(k));
        assert_eq!(out.buf, serde_json::to_vec(&kinds).expect("serialises"));
    }
}
