//! What the shooting and close-combat phases read off the table (DBA3.md §3.3, §3.5, §4.7, §8.2,
//! §8.5, §9, §10).
//!
//! The combat resolver ([`crate::combat`]) takes a [`Situation`] as the table shows it. This
//! module derives that situation from a [`MoveContext`]: who fights whom this bound
//! ([`close_combats`]), the geometric facts of one close combat ([`close_combat_situation`]), who
//! shoots ([`shooters`]), at whom ([`shooting_targets`]) and the facts of one shot
//! ([`shot_situation`]). Everything is a pure function of the context.
//!
//! Only geometric facts are reported here: which friend stands beside or behind, which edges are
//! overlapped, which going each element is in. The rules of *who* supports whom and what each
//! fact is worth stay in [`crate::combat`].
//!
//! Readings where the digest is silent, chosen as a DBA player would expect:
//! * **Side support** is given by a friend in mutual side-edge contact, facing the same way with
//!   front edges level, *whether or not that friend is itself in close combat*: a line of Spears
//!   each fighting its own opponent supports itself, which is what the factor is for (§10.3).
//! * **Rear support** is given only by a friend that is not itself in close combat (§10.3).
//! * **Turning to face** (§8.5): an element contacted on a side or rear edge with no frontal
//!   opponent turns to face the contactor with the lowest id when several touch it; the others
//!   then count against it as flank or rear contacts. An element whose front edge is already in
//!   lined-up contact with an enemy (even that enemy's side or rear), or that is giving rear
//!   support to a friend in frontal combat, does not turn, and its contactor fights no separate
//!   combat (§8.5, §10.2).
//! * **Assaults** (§4.7): each enemy element whose front edge touches the perimeter of a camp,
//!   city or fort holding elements of another army fights that place's defender (the lowest-id
//!   element of the holding army wholly inside it), one combat per assaulter. A place with no
//!   element inside but civilians defending it ([`super::movement::HeldStronghold::civilians`]: a
//!   City's denizens, a camp's fixed camp followers) is fought under the civilians' reserved id
//!   (§4.2, §4.6); they fight as `Dz` or `CF` with +2 in their place.
//! * **Bank defence** (§3.5, §17.22): "off-road" is tested by asking whether the opponent's
//!   front-edge midpoint stands on a road ([`crate::battlefield::Battlefield::move_along_road`]
//!   with that one point): an opponent crossing at the road's ford or bridge gives no bank factor.
//!   An undiced river gives none either.
//! * **Contacts** are those the movement engine leaves (§8.2 a–c, lined up, as
//!   [`in_close_combat`] reads them); an offset front-to-front touch is no combat here.
//! * **Flank and rear contacts** (§10.3, §10.4, §17.21): each of an element's two side edges and
//!   its rear edge counts once when an enemy other than its frontal opponent overlaps it or has
//!   its front edge against it; battlefield edges never count, unless the §17.21 switch
//!   [`crate::config::CombatRules::battlefield_edge_overlaps`] is on: then a side edge lying
//!   along a battlefield edge counts as overlapped (not for Ps and SCh, never overlapped, nor for
//!   Cv, LCh, LH and LCm, as TTS notes).
//! * **Targets in close combat** may be shot at: §9 forbids only shooting *by* them.
//! * **Sacking** (§4.2, §4.7): an element wholly inside an enemy army's camp, or named as a City's
//!   [`super::movement::HeldStronghold::sacker`] by the battle (which records captures), is sacking
//!   it and neither shoots nor is shot at. A City sacker attacked by an enemy has no garrison
//!   factor: we read that both fight as in the open (no walls, no assault rules).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use crate::battlefield::SightBlock;
use crate::combat::{
    Combatant, Going, Holding, ShooterSide, Shot, Situation, Stronghold, Supporter, Supporters,
};
use crate::contact::{
    classify_contact, classify_with_outlines, edge_contact_length, overlap_of_contact,
    scan_enemy_contacts, ContactKind, ContactPart, ContactReport, OverlapKind,
};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{
    finite_bounds, Corner, Edge, ElementRect, Point, Polygon, Segment, TOLERANCE,
};
use crate::terrain::{AreaKind, GoingContext, RiverState};
use crate::troops::{BaseKind, ElementKind, TroopType};
use crate::zones::{line_of_sight_blocker, shot_geometry, ShotBlocker, ThreatZone};

#[cfg(doc)]
use super::bound::Battle;
use super::grid::ElementGrid;
use super::movement::{in_close_combat, must_conform, MoveContext};
use super::setup::ElementId;

mod close_combat;
mod shooting;

pub use close_combat::*;
pub use shooting::*;

/// How the front edge of a combat's first element meets the second (§8.2 a–c, §4.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "contact")]
#[serde(deny_unknown_fields)]
pub enum CombatContact {
    /// Full mutual front-edge contact (§8.2 a).
    FrontToFront,
    /// `a`'s front edge against `b`'s side edge, front corners together (§8.2 c).
    FrontToSide,
    /// `a`'s front edge against `b`'s rear edge (§8.2 b).
    FrontToRear,
    /// `a`'s front edge against the perimeter of the place `b` defends (§4.7).
    Assault {
        /// The kind of place assaulted: camp, City or Fort.
        place: Stronghold,
    },
    /// Front edges that touch but could not be lined up (§8.3): they fight as if in full front
    /// contact, the contacted element (the one not of the moving army) counting as overlapped.
    NotLinedUp,
}

/// One close combat to fight this bound (§10.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CloseCombatPair {
    /// The element whose front edge makes the contact (the lower id of a front-to-front pair;
    /// the assaulter of a stronghold).
    pub a: ElementId,
    /// Its frontal opponent.
    pub b: ElementId,
    /// How they touch, which decides who is overlapped and whether either fights at a disadvantage.
    pub contact: CombatContact,
    /// The element that must first turn to face its contactor (§8.5): `b` when `a`'s front edge is
    /// against `b`'s side or rear and `b` had no frontal opponent.
    pub turn_to_face: Option<ElementId>,
}

/// Why an enemy in range cannot be seen (§9.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "by")]
#[serde(deny_unknown_fields)]
pub enum Obstruction {
    /// An element, friend or enemy, is in the way.
    Element {
        /// The element in the way.
        id: ElementId,
    },
    /// Terrain blocks sight.
    Terrain {
        /// The terrain that blocks it: its kind and where.
        block: SightBlock,
    },
}

impl fmt::Display for Obstruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obstruction::Element { id } => write!(f, "element {id} is in the way"),
            Obstruction::Terrain { block } => write!(f, "{block}"),
        }
    }
}

/// Which rank of §9.3's priority a target has for its shooter (best first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TargetPriority {
    /// In the shooter's own threat zone: must be shot before any other.
    InThreatZone,
    /// Shooting at the shooter: next.
    ShootingAtShooter,
    /// Free choice (Artillery's targets are always this, §9.3).
    Free,
}

/// An enemy a shooter can shoot at (§9.2–9.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ShotTarget {
    /// The enemy element.
    pub target: ElementId,
    /// From the nearest point of the shooting edge to the nearest point of the target, BW.
    pub distance: f64,
    /// The target is in the shooter's threat zone (§8.1).
    pub in_threat_zone: bool,
    /// How it ranks among the shooter's possible targets (§9.3).
    pub priority: TargetPriority,
}

/// Why a combat or a shot cannot be read off the table as asked. Each names its rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "error")]
#[serde(deny_unknown_fields)]
pub enum EngagementError {
    /// The element named is not in the battle.
    #[error("element {id} is not in this battle")]
    UnknownElement {
        /// The id.
        id: ElementId,
    },
    /// The element has been lost (§13.1).
    #[error("§13.1: element {id} has been lost and no longer fights")]
    NotInPlay {
        /// The element.
        id: ElementId,
    },
    /// The two elements are of one army (§10.2).
    #[error("§10.2: elements {a} and {b} are of the same army; only enemies fight or shoot")]
    NotEnemies {
        /// One element.
        a: ElementId,
        /// The other.
        b: ElementId,
    },
    /// The two elements do not fight each other this bound (§8.2, §10.2).
    #[error("§8.2, §10.2: elements {a} and {b} do not fight each other this bound: neither is the other's frontal opponent (front edge lined up against it, §8.5) nor assaults a place the other defends (§4.7)")]
    NotInContact {
        /// One element.
        a: ElementId,
        /// The other.
        b: ElementId,
    },
    /// The defender of a stronghold is not assaulted by the element named (§4.7).
    #[error("§4.7: element {defender} defends a {place} but element {opponent} is not in front-edge contact with its perimeter")]
    UnmatchedStronghold {
        /// The element defending the place.
        defender: ElementId,
        /// The element named as its assaulter.
        opponent: ElementId,
        /// The kind of place.
        place: Stronghold,
    },
    /// The element stands in impassable going (§3.4).
    #[error("§3.4: element {id} stands in impassable going")]
    ImpassableGoing {
        /// The element.
        id: ElementId,
    },
    /// The element's kind never shoots (§9.1).
    #[error("§9.1: element {id} ({kind}) does not shoot")]
    NotAShooter {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
    },
    /// The element is in close combat, so it does not shoot (§9.1).
    #[error("§9.1: element {id} is in close combat and does not shoot")]
    InCloseCombat {
        /// The element.
        id: ElementId,
    },
    /// The element is sacking a camp or City (§4.2, §4.7).
    #[error(
        "§4.2, §4.7: element {id} is sacking a camp or City: it neither shoots nor is shot at"
    )]
    Sacking {
        /// The element.
        id: ElementId,
    },
    /// The target is outside the shooter's shooting zone (§9.2).
    #[error(
        "§9.2: element {target} is not within the shooting zone of element {shooter} (at least ½ BW of its nearest edge directly in front of the shooting edge, extended 1 BW to either side)"
    )]
    OutOfReach {
        /// The shooter.
        shooter: ElementId,
        /// The target.
        target: ElementId,
    },
    /// The target is beyond the shooter's range (§9.1, §9.2).
    #[error("§9.1, §9.2: element {target} is {} from element {shooter}, beyond its range of {}", super::movement::bw_text(*.distance), super::movement::bw_text(*.range))]
    OutOfRange {
        /// The shooter.
        shooter: ElementId,
        /// The target.
        target: ElementId,
        /// How far the target is, BW.
        distance: f64,
        /// The shooter's range, BW.
        range: f64,
    },
    /// Something between them blocks the shooter's sight (§9.5).
    #[error("§9.5: element {shooter} cannot see element {target}: {by}")]
    LineOfSight {
        /// The shooter.
        shooter: ElementId,
        /// The target.
        target: ElementId,
        /// What blocks it.
        by: Obstruction,
    },
    /// More support shooters than §9.4 allows.
    #[error("§9.4: at most {max} support shooters, not {given}")]
    TooManySupportShooters {
        /// Support shooters named.
        given: usize,
        /// The most allowed.
        max: u8,
    },
    /// A support shooter is named twice, or is the main shooter (§9.4).
    #[error(
        "§9.4: element {id} is named twice, or is the main shooter, among the support shooters"
    )]
    SupportRepeated {
        /// The element.
        id: ElementId,
    },
    /// A support shooter is not of the main shooter's army (§9.4).
    #[error("§9.4: support shooter {id} is not of the main shooter {shooter}'s army")]
    SupportNotFriendly {
        /// The support shooter.
        id: ElementId,
        /// The main shooter.
        shooter: ElementId,
    },
    /// A support shooter could not shoot at the target itself (§9.4).
    #[error("§9.4: element {id} cannot support the shot at element {target}: {cause}")]
    SupportShooter {
        /// The support shooter.
        id: ElementId,
        /// The target.
        target: ElementId,
        /// Why it could not.
        cause: Box<EngagementError>,
    },
    /// The target may not shoot back at its shooter in the same exchange (§17.24).
    #[error("§17.24: target {target} cannot be shooting back at element {shooter}: {cause}")]
    CannotShootBack {
        /// The target that would shoot back.
        target: ElementId,
        /// The shooter it would shoot at.
        shooter: ElementId,
        /// Why it may not.
        cause: Box<EngagementError>,
    },
}

impl EngagementError {
    fn rule_ref(&self) -> Option<&'static str> {
        use EngagementError::*;
        Some(match self {
            UnknownElement { .. } => return None,
            NotInPlay { .. } => "§13.1",
            NotEnemies { .. } => "§10.2",
            NotInContact { .. } => "§10.2",
            UnmatchedStronghold { .. } => "§4.7",
            ImpassableGoing { .. } => "§3.4",
            NotAShooter { .. } | InCloseCombat { .. } => "§9.1",
            Sacking { .. } => "§4.2",
            OutOfReach { .. } => "§9.2",
            OutOfRange { .. } => "§9.1",
            LineOfSight { .. } => "§9.5",
            TooManySupportShooters { .. }
            | SupportRepeated { .. }
            | SupportNotFriendly { .. }
            | SupportShooter { .. } => "§9.4",
            CannotShootBack { .. } => "§17.24",
        })
    }
}

impl ErrorInfo for EngagementError {
    fn code(&self) -> ErrorCode {
        match self {
            EngagementError::UnknownElement { .. } => ErrorCode::UnknownElement,
            _ => ErrorCode::IllegalSituation,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        self.rule_ref()
    }
}

// The one shooting-target scan, below the battle so that the table uses it too (#48).
pub(crate) use crate::zones::{scan_shots, Shooter, ShotAt};

/// The context with every element's rectangle worked out once (lent by the per-state grid when
/// the context has one, #15).
struct View<'c, 'a> {
    ctx: &'c MoveContext<'a>,
    /// The per-state grid: neighbour look-ups and contact outlines worked out once per state.
    grid: Option<&'a ElementGrid>,
    rects: Cow<'a, [ElementRect]>,
}

/// How far off the grid looks for elements that may touch one (a contact is within one
/// tolerance; the grid's boxes are a pre-test, the classification decides).
const NEAR_CONTACT: f64 = 4.0 * TOLERANCE;

impl<'c, 'a> View<'c, 'a> {
    fn new(ctx: &'c MoveContext<'a>) -> Self {
        let grid = ctx.grid();
        let rects = match grid {
            Some(g) => Cow::Borrowed(g.rects()),
            None => Cow::Owned(ctx.elements.iter().map(|e| e.rect(ctx.config)).collect()),
        };
        View { ctx, grid, rects }
    }

    /// The contacts between enemies in play, as [`scan_enemy_contacts`] of them reports them (by
    /// element index, in pair order): with the grid, each element meets only its neighbours and
    /// the outlines are the grid's, worked out once per state (#15).
    fn enemy_contacts(&self) -> Vec<crate::contact::ContactReport> {
        let els = self.ctx.elements;
        let Some(g) = self.grid else {
            let live: Vec<(u32, usize, ElementRect)> = (0..els.len())
                .filter(|&i| els[i].in_play())
                .map(|i| (i as u32, els[i].army, self.rects[i]))
                .collect();
            return scan_enemy_contacts(&live);
        };
        let mut out = Vec::new();
        for i in 0..els.len() {
            if !els[i].in_play() {
                continue;
            }
            // Visited in place, not listed (#15: a list for every element of every state).
            g.find_near(g.corners(i), NEAR_CONTACT, |j| {
                if j <= i || !els[j].in_play() || els[j].army == els[i].army {
                    return None::<()>;
                }
                if let Some(contact) = self.contact(i, j) {
                    out.push(crate::contact::ContactReport {
                        a: i as u32,
                        b: j as u32,
                        same_side: false,
                        contact,
                    });
                }
                None
            });
        }
        out
    }

    /// The first `Some` that `f` gives for the elements that may touch element `i` (itself
    /// included), taken in ascending order: its neighbours in the grid, or every element without
    /// one (a superset of those [`View::contact`] finds). Visited in place, not listed (#15).
    fn find_touching<T>(&self, i: usize, f: impl FnMut(usize) -> Option<T>) -> Option<T> {
        match self.grid {
            Some(g) => g.find_near(g.corners(i), NEAR_CONTACT, f),
            None => (0..self.ctx.elements.len()).find_map(f),
        }
    }

    /// Elements `i` and `j` face the same way (forward vectors within [`TOLERANCE`]): the
    /// grid's vectors when there is one (the same bits as `pose.forward()`).
    fn same_facing(&self, i: usize, j: usize) -> bool {
        self.forward(i).distance(self.forward(j)) <= TOLERANCE
    }

    /// Element `i`'s forward vector: the grid's when there is one (the same bits as
    /// `pose.forward()`).
    fn forward(&self, i: usize) -> Point {
        match self.grid {
            Some(g) => g.forward(i),
            None => self.rects[i].pose.forward(),
        }
    }

    /// Element `i`'s corners (`ElementRect::corners`): the grid's, or worked out.
    fn corners(&self, i: usize) -> [Point; 4] {
        match self.grid {
            Some(g) => *g.corners(i),
            None => self.rects[i].corners(),
        }
    }

    /// Every element whose box may come within `margin` of element `i`'s (itself included),
    /// ascending; every element without a grid.
    fn within(&self, i: usize, margin: f64) -> Vec<usize> {
        match self.grid {
            Some(g) => g.near(g.corners(i), margin),
            None => (0..self.ctx.elements.len()).collect(),
        }
    }

    /// Every element that may reach into the box of both `s` and `t` (ascending): what can stand
    /// between them.
    fn between(&self, s: usize, t: usize) -> Vec<usize> {
        match self.grid {
            Some(g) => {
                let (a, b) = (g.corners(s), g.corners(t));
                let pts = [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]];
                g.near(&pts, NEAR_CONTACT)
            }
            None => (0..self.ctx.elements.len()).collect(),
        }
    }

    /// [`classify_contact`] of elements `i` and `j`, from the grid's outlines when there is one
    /// (the same answer to the bit).
    fn contact(&self, i: usize, j: usize) -> Option<crate::contact::Contact> {
        match self.grid {
            Some(g) => classify_with_outlines((g.rect(i), g.outline(i)), (g.rect(j), g.outline(j))),
            None => classify_contact(&self.rects[i], &self.rects[j]),
        }
    }

    fn index(&self, id: ElementId) -> Result<usize, EngagementError> {
        self.ctx
            .elements
            .iter()
            .position(|e| e.id == id)
            .ok_or(EngagementError::UnknownElement { id })
    }

    fn in_play(&self, i: usize) -> Result<(), EngagementError> {
        let e = &self.ctx.elements[i];
        if e.in_play() {
            Ok(())
        } else {
            Err(EngagementError::NotInPlay { id: e.id })
        }
    }

    fn friends(&self, i: usize, j: usize) -> bool {
        i != j
            && self.ctx.elements[j].in_play()
            && self.ctx.elements[j].army == self.ctx.elements[i].army
    }

    /// The going element `i` counts as in for combat (§3.1, §17.34).
    fn going(&self, i: usize) -> Result<Going, EngagementError> {
        let e = &self.ctx.elements[i];
        let gc = GoingContext {
            camel_mounted: e.kind.is_camel_mounted(),
            plough_is_rough: self.ctx.plough_rough,
        };
        let bf = self.ctx.battlefield;
        let memo = self.ctx.close_combat;
        let boxes = memo.map(|m| m.area_boxes(self.ctx));
        // The state's memo keeps each element's going once worked out (#15), when it is for
        // this table (its area boxes are this table's).
        let kept = memo.filter(|_| boxes.is_some_and(|b| b.of_table(bf).is_some()));
        let known = kept.and_then(|m| m.going(i, gc.plough_is_rough));
        let going = match known {
            Some(g) => {
                debug_assert_eq!(
                    g,
                    bf.combat_going_under_boxed(&self.rects[i], gc, boxes),
                    "memoised combat going differs from a fresh look-up"
                );
                g
            }
            None => {
                let g = bf.combat_going_under_boxed(&self.rects[i], gc, boxes);
                if let Some(m) = kept {
                    m.set_going(i, gc.plough_is_rough, g);
                }
                g
            }
        };
        Going::from_terrain(going).ok_or(EngagementError::ImpassableGoing { id: e.id })
    }

    /// A stronghold is a City or Fort when the battlefield has one with that outline, else a camp.
    fn place(&self, s: &super::movement::HeldStronghold) -> Stronghold {
        self.ctx
            .battlefield
            .areas()
            .find(|(_, a)| a.kind.is_fortified() && a.outline == s.perimeter)
            .map_or(Stronghold::Camp, |(_, a)| {
                if a.kind == AreaKind::City {
                    Stronghold::City
                } else {
                    Stronghold::Fort
                }
            })
    }

    /// The stronghold of its own army that element `i` stands wholly inside.
    fn held_place(&self, i: usize) -> Option<usize> {
        let e = &self.ctx.elements[i];
        if !e.in_play() {
            return None;
        }
        self.ctx.strongholds.iter().position(|s| {
            s.army == e.army
                && wholly_inside(&self.rects[i], &s.perimeter)
                && s.defenders.as_ref().is_none_or(|d| d.contains(&e.id))
        })
    }

    /// Whether Artillery element `s` can shoot at the denizens defending stronghold `si` (§4.2,
    /// §9.2, §9.5), and at what distance. Their target is the rectangle bounding the City's
    /// outline (facing the shooter), within the shooter's zone and range, with no element in the
    /// way; terrain sight is not checked, since the walls themselves are the target.
    fn denizens_target(&self, s: usize, si: usize) -> Option<(ElementId, f64)> {
        let st = &self.ctx.strongholds[si];
        let me = &self.ctx.elements[s];
        let id = st.civilians?;
        if st.army == me.army
            || self.place(st) != Stronghold::City
            || me.kind.troop_type() != TroopType::Art
        {
            return None;
        }
        let range = self.ctx.config.shooting_range(me.kind)?;
        let pts = &st.perimeter.points;
        let fold = |f: fn(f64, f64) -> f64, init: f64, g: fn(&Point) -> f64| {
            pts.iter().map(g).fold(init, f)
        };
        let (x0, x1) = (
            fold(f64::min, f64::INFINITY, |p| p.x),
            fold(f64::max, f64::NEG_INFINITY, |p| p.x),
        );
        let (y0, y1) = (
            fold(f64::min, f64::INFINITY, |p| p.y),
            fold(f64::max, f64::NEG_INFINITY, |p| p.y),
        );
        let walls = ElementRect::new(
            crate::geometry::Pose::new((x0 + x1) / 2.0, y1, 0.0),
            x1 - x0,
            y1 - y0,
        );
        let rs = &self.rects[s];
        let shot = shot_geometry(rs, false, range, &walls)?;
        let blockers: Vec<ShotBlocker> = (0..self.ctx.elements.len())
            .filter(|&k| k != s && self.ctx.elements[k].in_play())
            .filter(|&k| !wholly_inside(&self.rects[k], &st.perimeter))
            .map(|k| ShotBlocker {
                rect: self.rects[k],
                is_enemy_psiloi: self.ctx.elements[k].army != me.army
                    && self.ctx.elements[k].kind.troop_type() == TroopType::Ps,
            })
            .collect();
        if line_of_sight_blocker(rs, &shot, &blockers, true).is_some() {
            return None;
        }
        Some((id, shot.distance))
    }

    /// Wholly inside an enemy army's camp, or recorded by the battle as sacking a City: sacking
    /// it (§4.2, §4.7).
    fn sacking(&self, i: usize) -> bool {
        let e = &self.ctx.elements[i];
        self.ctx.strongholds.iter().any(|s| {
            s.sacker == Some(e.id)
                || (s.army != e.army
                    && self.place(s) == Stronghold::Camp
                    && wholly_inside(&self.rects[i], &s.perimeter))
        })
    }

    /// The defender of stronghold `si`: the lowest-id element of its army wholly inside it.
    fn defender(&self, si: usize) -> Option<usize> {
        let s = &self.ctx.strongholds[si];
        let camp = self.place(s) == Stronghold::Camp;
        (0..self.ctx.elements.len())
            .filter(|&i| {
                let e = &self.ctx.elements[i];
                e.in_play()
                    && e.army == s.army
                    && wholly_inside(&self.rects[i], &s.perimeter)
                    && (!camp || may_defend_camp(e))
                    && s.defenders.as_ref().is_none_or(|d| d.contains(&e.id))
            })
            .min_by_key(|&i| self.ctx.elements[i].id)
    }

    /// Elements of other armies whose front edge touches stronghold `si`'s perimeter from outside
    /// (§4.7), by id.
    fn assaulters(&self, si: usize) -> Vec<usize> {
        let s = &self.ctx.strongholds[si];
        // The perimeter's box once, for the pre-test of every element (#15).
        let bounds = finite_bounds(&s.perimeter.points);
        let mut v: Vec<usize> = (0..self.ctx.elements.len())
            .filter(|&i| {
                let e = &self.ctx.elements[i];
                if !e.in_play() || e.army == s.army {
                    return false;
                }
                // A contact needs a point of the front edge within the tolerance of a
                // perimeter edge (twice it, to be clear of rounding in that test).
                let far = self.rects[i].front_clear_of_box(bounds, 2.0 * TOLERANCE);
                debug_assert!(
                    !far || !front_touches_perimeter(&self.rects[i], &s.perimeter),
                    "a front edge passed over as far from a perimeter touches it"
                );
                !far && front_touches_perimeter(&self.rects[i], &s.perimeter)
            })
            .collect();
        v.sort_by_key(|&i| self.ctx.elements[i].id);
        v
    }
}

/// An element that may defend its own camp (§4.6): one not of an allied contingent, and not
/// Elephants or Scythed Chariots. Others inside it do not defend it.
pub fn may_defend_camp(e: &super::state::ElementState) -> bool {
    e.contingent.is_none() && !matches!(e.kind.troop_type(), TroopType::El | TroopType::SCh)
}

/// Every corner inside `poly` or on its boundary (within [`TOLERANCE`]).
fn wholly_inside(r: &ElementRect, poly: &Polygon) -> bool {
    r.corners().iter().all(|&c| poly.contains(c))
}

/// The element's front edge lies along `poly`'s boundary for more than [`TOLERANCE`] and the
/// element stands outside it (§4.7: front-edge contact with a camp, city or fort).
fn front_touches_perimeter(r: &ElementRect, poly: &Polygon) -> bool {
    let front = r.edge(Edge::Front);
    let shared: f64 = poly
        .edges()
        .map(|e| {
            edge_contact_length(front, e)
                .or_else(|| edge_contact_length(front, Segment::new(e.b, e.a)))
                .unwrap_or(0.0)
        })
        .sum();
    shared > TOLERANCE && !poly.contains_strictly(r.centre())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pose;

    // DBA3.md §4.7: a front edge the box pre-test passes over never touches the perimeter, for
    // elements facing every way about a camp's outline, some in front-edge contact with it.
    #[test]
    fn a_front_clear_of_the_box_does_not_touch_the_perimeter() {
        let camp = Polygon::new(vec![
            Point::new(4.0, 0.0),
            Point::new(7.0, 0.0),
            Point::new(7.0, 2.0),
            Point::new(4.0, 2.0),
        ]);
        let bounds = finite_bounds(&camp.points);
        let mut next = crate::geometry::unit_stream(0x2545_f491_4f6c_dd1du64);
        let mut u = move |scale: f64| next() * scale;
        let (mut far, mut touching) = (0, 0);
        for n in 0..20_000 {
            let r = if n % 4 == 0 {
                // Facing the camp's north wall from outside, its front on the wall.
                ElementRect::new(Pose::new(4.0 + u(3.0), 2.0 + u(1e-9), 180.0), 1.0, 0.5)
            } else {
                let facing = [0.0, 90.0, 180.0, 270.0, u(360.0)][n % 5];
                ElementRect::new(Pose::new(u(11.0), u(6.0) - 2.0, facing), 1.0, 0.5)
            };
            let is_far = r.front_clear_of_box(bounds, 2.0 * TOLERANCE);
            let touches = front_touches_perimeter(&r, &camp);
            assert!(!(is_far && touches), "{r:?}");
            far += usize::from(is_far);
            touching += usize::from(touches);
        }
        assert!(far > 5_000 && touching > 1_000, "{far} {touching}");
    }
}
