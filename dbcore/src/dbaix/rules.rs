//! The numbers of DBAix: combat factors (DBAIX.md §6.2), tactical factors (DBAIX.md §6.3),
//! results (DBAIX.md §7), PIP costs (DBAIX.md §3.1) and exact combat odds by enumeration.

use serde::{Deserialize, Serialize};

use crate::dice::DieScore;
use crate::geometry::{Edge, ElementRect, Point, Segment};

use super::{FigureClass, Side};

/// Contact tolerance in inches.
pub(super) const EPS: f64 = 1.0 / 256.0;

/// A figure's combat factor (DBAIX.md §6.2; Vitalstatistix as "most Gauls", DBAIX.md §11.8).
pub fn combat_factor(class: FigureClass) -> i32 {
    use FigureClass::*;
    match class {
        Getafix | Cacofonix => 0,
        DubiusStatus | CaligulaMinus | Geriatrix | GallicWoman | Pegleg => 1,
        Officer | Legionary => 2,
        Gaul | Vitalstatistix | Pirate => 3,
        Asterix | Captain => 4,
        Obelix => 5,
    }
}

/// A tactical factor in a figure's score (DBAIX.md §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "factor")]
#[serde(deny_unknown_fields)]
pub enum TacticalFactor {
    /// −1 for each enemy front edge against its side or rear.
    FlankOrRear {
        /// Enemy front edges against it.
        count: u8,
    },
    /// −1 for each enemy overlapping it (a separate factor, DBAIX.md §11.9).
    Overlapped {
        /// Enemies overlapping it.
        count: u8,
    },
    /// +1 a side for a Roman lined up beside it, at most +2.
    RomanSideSupport {
        /// Romans lined up beside it (1 or 2).
        count: u8,
    },
    /// +2 under the magic potion (Gauls but Obelix, DBAIX.md §5).
    MagicPotion,
}

impl TacticalFactor {
    /// What the factor adds to the total.
    pub fn value(self) -> i32 {
        match self {
            TacticalFactor::FlankOrRear { count } | TacticalFactor::Overlapped { count } => {
                -i32::from(count)
            }
            TacticalFactor::RomanSideSupport { count } => i32::from(count),
            TacticalFactor::MagicPotion => 2,
        }
    }
}

/// What a combat does to one figure (DBAIX.md §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FigureResult {
    /// Higher, a Gaul: follows up one base depth.
    FollowUp,
    /// Higher (Romans and Pirates), equal (DBAIX.md §11.10), or lower and a Gaul: no effect.
    Stays,
    /// Lower, a Roman: recoils one base depth.
    Recoils,
    /// Lower, a Pirate: turns about and flees one move.
    Flees,
    /// Half or less: Getafix, Vitalstatistix, Asterix or a Gallic woman is captured.
    Captured,
    /// Half or less: any other Gaul is removed.
    Removed,
    /// Half or less: a Roman goes back to camp.
    SentToCamp,
    /// Half or less: a Pirate flees off the table for good.
    FledOff,
}

impl FigureResult {
    /// Whether the figure is out of the fight (captured, removed, in camp or gone).
    pub fn is_loss(self) -> bool {
        matches!(
            self,
            FigureResult::Captured
                | FigureResult::Removed
                | FigureResult::SentToCamp
                | FigureResult::FledOff
        )
    }
}

/// The result for a figure of class `me` scoring `mine` against `theirs` of an opponent of class
/// `them` (DBAIX.md §7).
pub fn result_for(me: FigureClass, mine: i32, them: FigureClass, theirs: i32) -> FigureResult {
    use FigureClass::*;
    if mine > theirs {
        return if me.side() == Side::Gauls {
            FigureResult::FollowUp
        } else {
            FigureResult::Stays
        };
    }
    if mine == theirs {
        return FigureResult::Stays;
    }
    // "Half or less": 2 × mine ≤ theirs, in whole numbers. Beaten by Obelix counts as that.
    if 2 * mine <= theirs || them == Obelix {
        return match me {
            Getafix | Vitalstatistix | Asterix | GallicWoman => FigureResult::Captured,
            _ => match me.side() {
                Side::Gauls => FigureResult::Removed,
                Side::Romans => FigureResult::SentToCamp,
                Side::Pirates => FigureResult::FledOff,
            },
        };
    }
    match me.side() {
        Side::Romans => FigureResult::Recoils,
        Side::Gauls => FigureResult::Stays,
        Side::Pirates => FigureResult::Flees,
    }
}

/// Both results of a combat between `a` and `b` with totals `ta` and `tb`.
pub fn results(a: FigureClass, ta: i32, b: FigureClass, tb: i32) -> (FigureResult, FigureResult) {
    (result_for(a, ta, b, tb), result_for(b, tb, a, ta))
}

/// One line of [`DbaixOdds`]: how many of the 36 throws give these two results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OddsEntry {
    /// `a`'s result.
    pub a: FigureResult,
    /// `b`'s result.
    pub b: FigureResult,
    /// How many of the 36 throws give it.
    pub count: u8,
}

/// Exact odds of a DBAix combat, counted over the 36 throws of the two dice, in the order of the
/// results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DbaixOdds {
    /// Every pair of results that can happen, with its count; counts sum to 36.
    pub outcomes: Vec<OddsEntry>,
}

impl DbaixOdds {
    /// Throws out of 36 giving `a` the result `r`.
    pub fn a_count(&self, r: FigureResult) -> u32 {
        self.outcomes
            .iter()
            .filter(|e| e.a == r)
            .map(|e| u32::from(e.count))
            .sum()
    }
    /// Throws out of 36 giving `b` the result `r`.
    pub fn b_count(&self, r: FigureResult) -> u32 {
        self.outcomes
            .iter()
            .filter(|e| e.b == r)
            .map(|e| u32::from(e.count))
            .sum()
    }
}

/// Enumerate the 36 throws of a combat between `a` (with tactical total `a_mod`) and `b`.
pub fn odds(a: FigureClass, a_mod: i32, b: FigureClass, b_mod: i32) -> DbaixOdds {
    let mut outcomes: Vec<OddsEntry> = Vec::new();
    for da in DieScore::ALL {
        for db in DieScore::ALL {
            let ta = i32::from(da.get()) + combat_factor(a) + a_mod;
            let tb = i32::from(db.get()) + combat_factor(b) + b_mod;
            let (ra, rb) = results(a, ta, b, tb);
            match outcomes.iter_mut().find(|e| e.a == ra && e.b == rb) {
                Some(e) => e.count += 1,
                None => outcomes.push(OddsEntry {
                    a: ra,
                    b: rb,
                    count: 1,
                }),
            }
        }
    }
    outcomes.sort_by_key(|e| (e.a, e.b));
    DbaixOdds { outcomes }
}

/// Why a move costs more (DBAIX.md §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PipAddOn {
    /// +1: Romans moving as a group with no officer.
    GroupWithoutOfficer,
    /// +1: a Roman but Caligula Minus more than 12 in from Dubius Status.
    FarFromDubiusStatus,
    /// +1: a Gaul but Asterix, Obelix, Getafix or Cacofonix more than 8 in from Vitalstatistix.
    FarFromVitalstatistix,
    /// +1: a Gallic woman more than 4 in from her husband.
    FarFromHusband,
    /// +1: a Pirate more than 4 in from the Captain.
    FarFromCaptain,
    /// +2: the mover's second move this bound (not for Romans along the paved road).
    SecondMove,
    /// +2: the move contacts an enemy's side or rear (not for Gallic women).
    FlankContact,
    /// +3: Romans coming back from camp as reinforcements (DBAIX.md §8.2).
    Reinforcements,
}

impl PipAddOn {
    /// The extra PIPs it costs.
    pub fn value(self) -> u8 {
        match self {
            PipAddOn::SecondMove | PipAddOn::FlankContact => 2,
            PipAddOn::Reinforcements => 3,
            _ => 1,
        }
    }
}

/// What a move costs (DBAIX.md §3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixPipCost"))]
#[serde(deny_unknown_fields)]
pub struct PipCost {
    /// The move's base cost (DBAIX.md §3.1): 1 PIP for a Roman group, and for a Gaul group moving
    /// straight ahead as configured (DBAIX.md §11.3); otherwise 2; 0 for binders going to
    /// Cacofonix (DBAIX.md §4).
    pub base: u8,
    /// Why it costs more, each add-on once.
    pub add_ons: Vec<PipAddOn>,
    /// Base plus every add-on.
    pub total: u8,
}

// ---- geometry in inches ------------------------------------------------------------------

/// Whether two segments lie on one line and overlap along a stretch longer than `EPS`.
pub(super) fn segments_touch(a: Segment, b: Segment) -> bool {
    let d = a.b - a.a;
    let len = d.length();
    if len < EPS {
        return false;
    }
    let u = d * (1.0 / len);
    // Both ends of b on a's line.
    let off = |p: Point| (p - a.a).cross(u).abs();
    if off(b.a) > EPS || off(b.b) > EPS {
        return false;
    }
    let t0 = (b.a - a.a).dot(u);
    let t1 = (b.b - a.a).dot(u);
    let (lo, hi) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
    hi.min(len) - lo.max(0.0) > EPS
}

/// Whether the interiors of two bases overlap (touching is allowed).
pub(super) fn overlaps(a: &ElementRect, b: &ElementRect) -> bool {
    // Separating axis test on the four edge normals of two rectangles.
    let axes = [
        a.pose.forward(),
        a.pose.forward().right(),
        b.pose.forward(),
        b.pose.forward().right(),
    ];
    let ca = a.corners();
    let cb = b.corners();
    for ax in axes {
        let (mut amin, mut amax, mut bmin, mut bmax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for p in ca {
            let v = p.dot(ax);
            amin = amin.min(v);
            amax = amax.max(v);
        }
        for p in cb {
            let v = p.dot(ax);
            bmin = bmin.min(v);
            bmax = bmax.max(v);
        }
        if amax <= bmin + EPS || bmax <= amin + EPS {
            return false;
        }
    }
    true
}

/// The closest distance between two bases (0 when touching).
pub(super) fn base_distance(a: &ElementRect, b: &ElementRect) -> f64 {
    if overlaps(a, b) {
        return 0.0;
    }
    a.polygon().distance_to_polygon(&b.polygon())
}

/// Whether `a`'s front edge is against `b`'s front edge, lined up corner to corner (DBAIX.md §6.1).
pub(super) fn front_to_front(a: &ElementRect, b: &ElementRect) -> bool {
    let fa = a.edge(Edge::Front);
    let fb = b.edge(Edge::Front);
    fa.a.distance(fb.b) < EPS && fa.b.distance(fb.a) < EPS
}

/// Whether `a`'s front edge is against `b`'s side or rear edge.
pub(super) fn front_on_flank_or_rear(a: &ElementRect, b: &ElementRect) -> Option<Edge> {
    let fa = a.edge(Edge::Front);
    [Edge::Left, Edge::Right, Edge::Rear]
        .into_iter()
        .find(|e| segments_touch(fa, b.edge(*e)))
}

/// Whether two bases are in "edge and corner contact" (DBAIX.md §3): an edge of each fully
/// against the other's, two corners shared.
pub(super) fn grouped(a: &ElementRect, b: &ElementRect) -> bool {
    let cb = b.corners();
    a.corners()
        .iter()
        .filter(|p| cb.iter().any(|q| p.distance(*q) < EPS))
        .count()
        >= 2
}

/// Whether `a` has `b` beside it, side edge to side edge with front corners level (DBAIX.md §6.3).
pub(super) fn side_by_side(a: &ElementRect, b: &ElementRect) -> bool {
    let fa = a.edge(Edge::Front);
    let fb = b.edge(Edge::Front);
    (fa.b.distance(fb.a) < EPS || fa.a.distance(fb.b) < EPS)
        && (a.pose.facing - b.pose.facing).abs() < 0.01
}

/// Whether an enemy `e` overlaps `a` (DBAIX.md §6.3): one of its front corners on one of `a`'s
/// front corners (an enemy lined up beside `a`'s opponent), or a side edge against a side edge.
pub(super) fn overlapping(a: &ElementRect, e: &ElementRect) -> bool {
    let fa = a.edge(Edge::Front);
    let fe = e.edge(Edge::Front);
    let corner = [fa.a, fa.b]
        .iter()
        .any(|p| [fe.a, fe.b].iter().any(|q| p.distance(*q) < EPS));
    let sides = [Edge::Left, Edge::Right].iter().any(|x| {
        [Edge::Left, Edge::Right]
            .iter()
            .any(|y| segments_touch(a.edge(*x), e.edge(*y)))
    });
    corner || sides
}
