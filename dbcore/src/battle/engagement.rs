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

use super::grid::ElementGrid;
use super::movement::{in_close_combat, must_conform, MoveContext};
use super::setup::ElementId;

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

/// Every close combat to fight this bound (§10.2), in order of the pair's ids (lower id first).
///
/// Mutual front-to-front pairs fight each other. An element whose front edge is lined up against
/// an enemy's side or rear fights it only if that enemy has no frontal opponent and must turn to
/// face it ([`CloseCombatPair::turn_to_face`], §8.5); otherwise it counts against that enemy as a
/// flank or rear contact (see [`close_combat_situation`]). Each element assaulting a defended camp,
/// city or fort fights its defender (§4.7).
///
/// Worked out once per battle state when `ctx` comes from [`super::Battle::move_context`] (the
/// state's cache); the same answer either way.
pub fn close_combats(ctx: &MoveContext) -> Vec<CloseCombatPair> {
    match memoised_close_combats(ctx) {
        Some(known) => known.to_vec(),
        None => close_combats_uncached(ctx),
    }
}

/// The close combats the per-state memo keeps for `ctx`, when `ctx` carries the memo and it
/// describes `ctx` (worked out and kept on the first question).
fn memoised_close_combats<'a>(ctx: &MoveContext<'a>) -> Option<&'a [CloseCombatPair]> {
    ctx.close_combat
        .and_then(|memo| memo.close_combats(ctx, || close_combats_uncached(ctx)))
}

/// [`close_combats`] lent to `f` instead of copied out: the per-state memo's own list when `ctx`
/// carries the memo (#15: a question about one pair copied the whole list to read it).
pub(crate) fn with_close_combats<R>(
    ctx: &MoveContext,
    f: impl FnOnce(&[CloseCombatPair]) -> R,
) -> R {
    match memoised_close_combats(ctx) {
        Some(known) => f(known),
        None => f(&close_combats_uncached(ctx)),
    }
}

/// [`close_combats`] worked out afresh.
fn close_combats_uncached(ctx: &MoveContext) -> Vec<CloseCombatPair> {
    with_enemy_contacts(ctx, |contacts| close_combats_from(ctx, contacts))
}

/// Every contact between enemies in play, each element named by its index in `ctx.elements`
/// (as [`crate::contact::scan_enemy_contacts`] over the elements in play reports them), given to `f`: the
/// per-state memo's when `ctx` carries it (worked out once per state, shared by the close
/// combats and the conforming of §8.3 and §12.6), else scanned afresh.
pub(crate) fn with_enemy_contacts<R>(
    ctx: &MoveContext,
    f: impl FnOnce(&[ContactReport]) -> R,
) -> R {
    // Through the grid's neighbours and outlines when the context has the state's grid.
    let scan = || View::new(ctx).enemy_contacts();
    match ctx.close_combat.and_then(|m| m.enemy_contacts(ctx, scan)) {
        Some(known) => f(known),
        None => f(&scan()),
    }
}

/// [`close_combats`] from the contacts between enemies in play of `ctx`.
fn close_combats_from(ctx: &MoveContext, contacts: &[ContactReport]) -> Vec<CloseCombatPair> {
    let v = View::new(ctx);
    let n = ctx.elements.len();
    let mut mutual: Vec<(usize, usize)> = Vec::new();
    let mut unlined: Vec<(usize, usize)> = Vec::new();
    // (contactor, contacted, which edge of the contacted)
    let mut flank: Vec<(usize, usize, CombatContact)> = Vec::new();
    for r in contacts {
        if !r.same_side && must_conform(&r.contact) {
            unlined.push((r.a as usize, r.b as usize));
        }
        if r.same_side || !r.contact.lined_up {
            continue;
        }
        let (a, b) = (r.a as usize, r.b as usize);
        match r.contact.kind {
            ContactKind::FrontToFront => mutual.push((a, b)),
            ContactKind::FrontToSide => flank.push((a, b, CombatContact::FrontToSide)),
            ContactKind::SideToFront => flank.push((b, a, CombatContact::FrontToSide)),
            ContactKind::FrontToRear => flank.push((a, b, CombatContact::FrontToRear)),
            ContactKind::RearToFront => flank.push((b, a, CombatContact::FrontToRear)),
            _ => {}
        }
    }
    let mut opponent: Vec<Option<usize>> = vec![None; n];
    let mut front_engaged = vec![false; n];
    let mut pairs: Vec<(usize, usize, CombatContact, bool)> = Vec::new();
    for &(a, b) in &mutual {
        opponent[a] = Some(b);
        opponent[b] = Some(a);
        front_engaged[a] = true;
        front_engaged[b] = true;
        pairs.push((a, b, CombatContact::FrontToFront, false));
    }
    for &(x, _, _) in &flank {
        front_engaged[x] = true;
    }
    // §8.3: front edges that could not line up fight as if in full contact, when neither has a
    // lined-up opponent.
    for &(a, b) in &unlined {
        if opponent[a].is_some() || opponent[b].is_some() {
            continue;
        }
        opponent[a] = Some(b);
        opponent[b] = Some(a);
        front_engaged[a] = true;
        front_engaged[b] = true;
        pairs.push((a, b, CombatContact::NotLinedUp, false));
    }
    let id = |i: usize| ctx.elements[i].id;
    flank.sort_by_key(|&(x, y, _)| (id(y), id(x)));
    for (x, y, contact) in flank {
        if opponent[x].is_some() || opponent[y].is_some() {
            continue;
        }
        if front_engaged[y] || v.gives_rear_support(y, &opponent) {
            continue;
        }
        opponent[x] = Some(y);
        opponent[y] = Some(x);
        pairs.push((x, y, contact, true));
    }
    // Assaults on places that only civilians defend: the assaulter fights their reserved id.
    let mut civilian_pairs: Vec<CloseCombatPair> = Vec::new();
    for (si, s) in ctx.strongholds.iter().enumerate() {
        let place = v.place(s);
        let Some(def) = v.defender(si) else {
            if let Some(civ) = s.civilians {
                for x in v.assaulters(si) {
                    if opponent[x].is_none() {
                        civilian_pairs.push(CloseCombatPair {
                            a: ctx.elements[x].id,
                            b: civ,
                            contact: CombatContact::Assault { place },
                            turn_to_face: None,
                        });
                    }
                }
            }
            continue;
        };
        for x in v.assaulters(si) {
            if opponent[x].is_some() {
                continue;
            }
            pairs.push((x, def, CombatContact::Assault { place }, false));
        }
    }
    let mut out: Vec<CloseCombatPair> = pairs
        .into_iter()
        .map(|(a, b, contact, turn)| {
            let (a, b) = match contact {
                CombatContact::FrontToFront | CombatContact::NotLinedUp if id(b) < id(a) => (b, a),
                _ => (a, b),
            };
            CloseCombatPair {
                a: id(a),
                b: id(b),
                contact,
                turn_to_face: turn.then(|| id(b)),
            }
        })
        .collect();
    out.extend(civilian_pairs);
    out.sort_by_key(|p| (p.a.min(p.b), p.a.max(p.b)));
    out
}

/// The stronghold whose civilians (denizens or camp followers) fight under `id`, if any.
fn civilians_of(ctx: &MoveContext, id: ElementId) -> Option<usize> {
    ctx.strongholds.iter().position(|s| s.civilians == Some(id))
}

/// An assault on a place that only its civilians defend (§4.2, §4.6, §4.7): the assaulter uses
/// its factor against foot; the denizens (in a City) or camp followers (in a camp) defend it
/// with +2, less 1 for each further assaulter.
fn civilians_situation(
    ctx: &MoveContext,
    v: &View,
    attacker: ElementId,
    si: usize,
    civilians_first: bool,
) -> Result<Situation, EngagementError> {
    let s = &ctx.strongholds[si];
    let civ = s.civilians.unwrap_or(attacker);
    let ia = v.index(attacker)?;
    v.in_play(ia)?;
    if ctx.elements[ia].army == s.army {
        return Err(EngagementError::NotEnemies {
            a: attacker,
            b: civ,
        });
    }
    let fights = close_combats(ctx)
        .iter()
        .any(|p| p.a == attacker && p.b == civ);
    if !fights {
        return Err(EngagementError::NotInContact {
            a: attacker,
            b: civ,
        });
    }
    let place = v.place(s);
    let extra = v.assaulters(si).into_iter().filter(|&x| x != ia).count();
    let extra = u8::try_from(extra)
        .unwrap_or(u8::MAX)
        .min(ctx.config.combat.max_extra_assaulters);
    let kind = ElementKind::new(if place == Stronghold::City {
        BaseKind::Denizens
    } else {
        BaseKind::CampFollowers
    });
    let defender = Combatant::new(kind).defending(place, extra);
    let e = &ctx.elements[ia];
    let mut assaulter = Combatant::new(e.kind).assaulting(place);
    assaulter.general = e.general;
    assaulter.going = v.going(ia)?;
    Ok(if civilians_first {
        Situation::close_combat(defender, assaulter)
    } else {
        Situation::close_combat(assaulter, defender)
    })
}

/// The close combat between `a` and `b` as the table shows it (§10.1–10.4, §3.3, §3.5, §4.7):
/// `a` becomes the situation's side A.
///
/// `a` and `b` must be one of the [`close_combats`] of this bound, either way round (a pair still
/// waiting to turn to face is accepted). The flank and rear contacts counted for each are the side and rear
/// edges overlapped by (§10.4) or touched by the front edge of an enemy other than its opponent.
pub fn close_combat_situation(
    ctx: &MoveContext,
    a: ElementId,
    b: ElementId,
) -> Result<Situation, EngagementError> {
    pair_situation(ctx, a, b, false)
}

/// [`close_combat_situation`] of a pair the caller found in [`close_combats`] of this very
/// `ctx` (either way round): the same situation, without looking for the pair among the close
/// combats again (#15: a second search of the list, a tenth of a combat derived from the table).
pub(crate) fn close_combat_situation_of_known_pair(
    ctx: &MoveContext,
    a: ElementId,
    b: ElementId,
) -> Result<Situation, EngagementError> {
    pair_situation(ctx, a, b, true)
}

/// The body of [`close_combat_situation`]; `known` when the pair is one of the close combats of
/// `ctx`, which the §10.2 test below would find.
fn pair_situation(
    ctx: &MoveContext,
    a: ElementId,
    b: ElementId,
    known: bool,
) -> Result<Situation, EngagementError> {
    let v = View::new(ctx);
    if let Some(si) = civilians_of(ctx, b) {
        return civilians_situation(ctx, &v, a, si, false);
    }
    if let Some(si) = civilians_of(ctx, a) {
        return civilians_situation(ctx, &v, b, si, true);
    }
    let ia = v.index(a)?;
    let ib = v.index(b)?;
    v.in_play(ia)?;
    v.in_play(ib)?;
    if ctx.elements[ia].army == ctx.elements[ib].army {
        return Err(EngagementError::NotEnemies { a, b });
    }
    // §10.2: only the combats of this bound, so a flank attacker on an enemy that already has a
    // frontal opponent is refused (it counts as that enemy's flank contact instead).
    let fights = known
        || with_close_combats(ctx, |pairs| {
            pairs
                .iter()
                .any(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
        });
    if !fights {
        return Err(EngagementError::NotInContact { a, b });
    }
    let ha = v.held_place(ia);
    let hb = v.held_place(ib);
    // holding[0] is a's, holding[1] is b's.
    let mut holding = [Holding::Field, Holding::Field];
    for (d, def, att, held) in [(1usize, ib, ia, hb), (0usize, ia, ib, ha)] {
        let Some(si) = held else { continue };
        let s = &ctx.strongholds[si];
        let place = v.place(s);
        if s.sacker == Some(ctx.elements[def].id) {
            // §4.2: a sacker has no garrison factor; we read that it fights its attacker as in
            // the open, without the walls, and its attacker is no assaulter.
            continue;
        }
        if !front_touches_perimeter(&v.rects[att], &s.perimeter) {
            // A reading (§4.6, §4.7): a camp has no walls, and only front-edge contact with its
            // perimeter assaults it; an enemy meeting an element inside a camp otherwise (its
            // front not along the perimeter, not lined up) fights it as in the open.
            if place == Stronghold::Camp {
                continue;
            }
            return Err(EngagementError::UnmatchedStronghold {
                defender: ctx.elements[def].id,
                opponent: ctx.elements[att].id,
                place,
            });
        }
        let extra = v.assaulters(si).into_iter().filter(|&x| x != att).count();
        let extra = u8::try_from(extra)
            .unwrap_or(u8::MAX)
            .min(ctx.config.combat.max_extra_assaulters);
        holding[d] = Holding::Defending {
            place,
            extra_assaulters: extra,
        };
        holding[1 - d] = Holding::Assaulting { place };
    }
    // The enemy contacts of the state (the memo's, already worked out for the close combats
    // above) answer every question about enemies; only friends are classified here (#15).
    with_enemy_contacts(ctx, |contacts| {
        let ca = v.close_combatant(ia, ib, holding[0], contacts)?;
        let cb = v.close_combatant(ib, ia, holding[1], contacts)?;
        Ok(Situation::close_combat(ca, cb))
    })
}

/// Every element of either army eligible to shoot this bound (§9.1), by id.
///
/// * Bows (and mounted infantry with bows) and War Wagons that have moved at most 1 BW this
///   bound (`moved` gives the distance moved this bound, BW).
/// * Artillery that has not moved, in its own army's bound (`active_army`), or in the enemy's
///   bound when `artillery_shot_at_by_artillery` says enemy Artillery shot at it in that enemy's
///   previous bound (the battle keeps that history).
/// * Never an element in close combat (§9.1, reading) or one sacking a camp (§4.2).
///
/// An eligible shooter may still have no target ([`shooting_targets`]). Artillery answering in the
/// enemy's bound may shoot only at the Artillery that shot at it; [`shooting_targets`] lists every
/// target it could see, and the battle narrows the choice.
pub fn shooters(
    ctx: &MoveContext,
    moved: &dyn Fn(ElementId) -> f64,
    active_army: usize,
    artillery_shot_at_by_artillery: &dyn Fn(ElementId) -> bool,
) -> Vec<ElementId> {
    let v = View::new(ctx);
    let mut out: Vec<ElementId> = (0..ctx.elements.len())
        .filter(|&i| {
            let e = &ctx.elements[i];
            if !e.in_play()
                || !e.kind.shoots()
                || ctx.config.shooting_range(e.kind).is_none()
                || in_close_combat(ctx, i)
                || v.sacking(i)
            {
                return false;
            }
            let m = moved(e.id);
            match e.kind.troop_type() {
                TroopType::Art => {
                    m <= TOLERANCE
                        && (e.army == active_army || artillery_shot_at_by_artillery(e.id))
                }
                _ => m <= 1.0 + TOLERANCE,
            }
        })
        .map(|i| ctx.elements[i].id)
        .collect();
    out.sort();
    out
}

/// The enemies `shooter` can shoot at now (§9.2–9.5), best priority first (§9.3), then nearest,
/// then by id. The shooter must pick among those of the best priority present.
///
/// `shooting_at_it` names the enemies that are shooting at `shooter` this bound (the battle knows
/// whom each has chosen); they rank after enemies in its threat zone. Artillery may pick any
/// target (§9.3), so all its targets are [`TargetPriority::Free`]. An element that does not shoot,
/// is in close combat or is sacking a camp has no targets. Whether it moved too far is
/// [`shooters`]' question.
pub fn shooting_targets(
    ctx: &MoveContext,
    shooter: ElementId,
    shooting_at_it: &[ElementId],
) -> Result<Vec<ShotTarget>, EngagementError> {
    let v = View::new(ctx);
    let i = v.index(shooter)?;
    v.in_play(i)?;
    // Every target the shooter can see and reach, ranked as if nobody were shooting at it: the
    // per-state memo's when `ctx` carries it (#15: a driver, a table tool or an AI asks again
    // for every shot it tries and every time it asks what dice are awaited).
    let scan = || shots_of(&v, i);
    let mut out = match ctx.close_combat.and_then(|m| m.shots(ctx, i, scan)) {
        Some(known) => known.to_vec(),
        None => scan(),
    };
    // §9.3: an enemy shooting at the shooter ranks after those in its threat zone (Artillery
    // picks freely among all its targets).
    let artillery = ctx.elements[i].kind.troop_type() == TroopType::Art;
    if !artillery && !shooting_at_it.is_empty() {
        for t in &mut out {
            if t.priority == TargetPriority::Free && shooting_at_it.contains(&t.target) {
                t.priority = TargetPriority::ShootingAtShooter;
            }
        }
    }
    out.sort_by(|p, q| {
        p.priority
            .cmp(&q.priority)
            .then(p.distance.total_cmp(&q.distance))
            .then(p.target.cmp(&q.target))
    });
    Ok(out)
}

/// The targets of element `i` (in play) in the view `v`, unsorted, each ranked in the shooter's
/// threat zone or free (§9.3 without the enemies shooting at it, which depend on the shots of
/// the bound, not on the table): what [`shooting_targets`] keeps per state.
fn shots_of(v: &View, i: usize) -> Vec<ShotTarget> {
    let ctx = v.ctx;
    let me = &ctx.elements[i];
    if !me.kind.shoots() || in_close_combat(ctx, i) || v.sacking(i) {
        return Vec::new();
    }
    let all_round = me.kind.troop_type() == TroopType::WWg;
    let artillery = me.kind.troop_type() == TroopType::Art;
    let tz = ThreatZone::of_element(&v.rects[i], all_round);
    let mut out = Vec::new();
    // Only enemies within range of the shooter can be shot at (a shot's distance is at most its
    // range plus a tolerance, and never below the gap of the two boxes).
    let reach = ctx
        .config
        .shooting_range(me.kind)
        .unwrap_or(UNLIMITED_RANGE)
        + NEAR_CONTACT;
    // Every shot needs a range (a shooter without one has no targets but the denizens below).
    if let Some(range) = ctx.config.shooting_range(me.kind) {
        let shooter = Shooter {
            rect: &v.rects[i],
            all_round,
            artillery,
            range,
            zone: &tz,
        };
        let candidates = v.within(i, reach).into_iter().filter_map(|t| {
            let e = &ctx.elements[t];
            (e.in_play() && e.army != me.army && !v.sacking(t)).then(|| (t, v.rects[t]))
        });
        let blockers = |t: usize| {
            let others: Vec<usize> = v
                .between(i, t)
                .into_iter()
                .filter(|&k| k != i && k != t && ctx.elements[k].in_play())
                .collect();
            let blockers = others
                .iter()
                .map(|&k| {
                    let o = &ctx.elements[k];
                    ShotBlocker {
                        rect: v.rects[k],
                        is_enemy_psiloi: o.army != me.army && o.kind.troop_type() == TroopType::Ps,
                    }
                })
                .collect();
            (others, blockers)
        };
        scan_shots(&shooter, ctx.battlefield, candidates, blockers, |t, at| {
            let ShotAt::Clear {
                distance,
                in_threat_zone,
            } = at
            else {
                return;
            };
            let priority = if in_threat_zone && !artillery {
                TargetPriority::InThreatZone
            } else {
                TargetPriority::Free
            };
            out.push(ShotTarget {
                target: ctx.elements[t].id,
                distance,
                in_threat_zone,
                priority,
            });
        });
    }
    // §4.2: Artillery may shoot at the denizens defending an enemy City (our reading: only
    // Artillery, whose destroying them makes the City surrender; see `denizens_target`).
    if artillery {
        for si in 0..ctx.strongholds.len() {
            if let Some((id, distance)) = v.denizens_target(i, si) {
                out.push(ShotTarget {
                    target: id,
                    distance,
                    in_threat_zone: false,
                    priority: TargetPriority::Free,
                });
            }
        }
    }
    out
}

// The one shooting-target scan, below the battle so that the table uses it too (#48).
pub(crate) use crate::zones::{scan_shots, Shooter, ShotAt};

/// The shot of `shooter` at `target` as the table shows it (§9.4–9.6): `shooter` becomes side A.
///
/// Checks that the shooter shoots and is not in close combat, that the target is within its zone,
/// range and sight (§9.2, §9.5); that there are at most `config.combat.max_support_shooters`
/// `support` shooters, each a different element of the shooter's army that could itself shoot at
/// `target` (§9.4); and, with `target_shoots_back`, that the target could shoot at the shooter
/// (§17.24). Whether each moved too far this bound is [`shooters`]' question: pass shooters from
/// its list. `from_behind` is set when the shooter is at least partly beyond the line of the
/// target's rear edge (§9.6, §11.2). A target wholly inside its own camp, city or fort defends it
/// (its factor applies when shot at, §10.3); a shooter inside its own counts as defending too
/// (Artillery in a City or Fort, §10.1).
pub fn shot_situation(
    ctx: &MoveContext,
    shooter: ElementId,
    target: ElementId,
    support: &[ElementId],
    target_shoots_back: bool,
) -> Result<Situation, EngagementError> {
    let v = View::new(ctx);
    let s = v.index(shooter)?;
    if let Some(si) = civilians_of(ctx, target) {
        return denizens_shot(&v, s, si, support);
    }
    let t = v.index(target)?;
    v.check_may_shoot(s)?;
    v.in_play(t)?;
    if ctx.elements[s].army == ctx.elements[t].army {
        return Err(EngagementError::NotEnemies {
            a: shooter,
            b: target,
        });
    }
    v.assess_shot(s, t)?;
    let max = ctx.config.combat.max_support_shooters;
    if support.len() > usize::from(max) {
        return Err(EngagementError::TooManySupportShooters {
            given: support.len(),
            max,
        });
    }
    let mut seen: BTreeSet<ElementId> = BTreeSet::new();
    seen.insert(shooter);
    for &id in support {
        if !seen.insert(id) {
            return Err(EngagementError::SupportRepeated { id });
        }
        let k = v.index(id)?;
        if ctx.elements[k].army != ctx.elements[s].army {
            return Err(EngagementError::SupportNotFriendly { id, shooter });
        }
        v.check_may_shoot(k)
            .and_then(|_| v.assess_shot(k, t).map(|_| ()))
            .map_err(|cause| EngagementError::SupportShooter {
                id,
                target,
                cause: Box::new(cause),
            })?;
    }
    if target_shoots_back {
        v.check_may_shoot(t)
            .and_then(|_| v.assess_shot(t, s).map(|_| ()))
            .map_err(|cause| EngagementError::CannotShootBack {
                target,
                shooter,
                cause: Box::new(cause),
            })?;
    }
    let from_behind = partly_beyond_rear(&v.rects[s], &v.rects[t]);
    let shooter_c = v.shot_combatant(s)?;
    let target_c = v.shot_combatant(t)?;
    Ok(Situation::shooting(
        shooter_c,
        target_c,
        Shot {
            shooter: ShooterSide::A,
            support_shooters: u8::try_from(support.len()).unwrap_or(u8::MAX),
            target_shoots_back,
            from_behind,
        },
    ))
}

/// Artillery's shot at a City's denizens (§4.2, §9.6): they defend the City (+2); no support
/// shooters (our reading: the walls are one target for one battery).
fn denizens_shot(
    v: &View,
    s: usize,
    si: usize,
    support: &[ElementId],
) -> Result<Situation, EngagementError> {
    v.check_may_shoot(s)?;
    let me = &v.ctx.elements[s];
    let target = v.ctx.strongholds[si].civilians.unwrap_or(me.id);
    if v.denizens_target(s, si).is_none() {
        return Err(EngagementError::OutOfReach {
            shooter: me.id,
            target,
        });
    }
    if !support.is_empty() {
        return Err(EngagementError::TooManySupportShooters {
            given: support.len(),
            max: 0,
        });
    }
    let shooter_c = v.shot_combatant(s)?;
    let target_c =
        Combatant::new(ElementKind::new(BaseKind::Denizens)).defending(Stronghold::City, 0);
    Ok(Situation::shooting(
        shooter_c,
        target_c,
        Shot {
            shooter: ShooterSide::A,
            support_shooters: 0,
            target_shoots_back: false,
            from_behind: false,
        },
    ))
}

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

    /// Element `i` stands directly behind a friend that has a frontal opponent (§8.5).
    fn gives_rear_support(&self, i: usize, opponent: &[Option<usize>]) -> bool {
        self.find_touching(i, |j| {
            (self.friends(i, j) && opponent[j].is_some() && self.directly_behind(i, j))
                .then_some(())
        })
        .is_some()
    }

    /// Element `i`'s front edge is in full contact with friend `j`'s rear edge, facing the same way.
    fn directly_behind(&self, i: usize, j: usize) -> bool {
        self.same_facing(i, j)
            && self
                .contact(i, j)
                .is_some_and(|c| c.kind == ContactKind::FrontToRear && c.lined_up)
    }

    /// The friends supporting `i` (§10.3): those in mutual side-edge contact, same facing,
    /// front edges level (by id), and the first by id of those directly behind it (front edge
    /// in full contact with its rear edge, same facing) not themselves in close combat. Each
    /// friend of the same facing is classified once for both questions (the contact seen from
    /// the friend is this one swapped, `classify_contact`'s promise).
    fn supporters(&self, i: usize) -> Result<(Supporters, Option<Supporter>), EngagementError> {
        // The friends abreast, on the stack up to eight (#15: a vector allocated for the first),
        // and the one behind with the least id.
        let mut abreast = [0usize; 8];
        let mut abreast_n = 0;
        let mut abreast_more: Vec<usize> = Vec::new();
        let mut beside = |j: usize| match abreast.get_mut(abreast_n) {
            Some(slot) => {
                *slot = j;
                abreast_n += 1;
            }
            None => abreast_more.push(j),
        };
        let mut behind: Option<usize> = None;
        let id = |j: usize| self.ctx.elements[j].id;
        // `i`'s corners once, as `ElementRect::corner` works each out (#15).
        let mut corners_i = None;
        self.find_touching(i, |j| {
            if !self.friends(i, j) || !self.same_facing(i, j) {
                return None::<()>;
            }
            let ci = *corners_i.get_or_insert_with(|| self.corners(i));
            let cj = self.corners(j);
            // Front-left and front-right are corners 0 and 1, rear-right and rear-left 2 and 3.
            let side_corners = ci[0].near(cj[1]) || ci[1].near(cj[0]);
            if side_corners && self.forward(i) == self.forward(j) {
                // Facing exactly the same way with a front corner on the other's: their sides
                // meet along the shallower depth and nothing else does, so the contact is side
                // to side (and not behind) without classifying it (#15; debug builds check).
                debug_assert!(
                    self.contact(i, j)
                        .is_some_and(|c| c.kind == ContactKind::SideToSide),
                    "friends abreast whose contact is not side to side"
                );
                beside(j);
                return None;
            }
            // A friend behind stands with its front corners at `i`'s rear ones (`lined_up` of a
            // rear-to-front contact); a friend neither abreast nor near that is passed over
            // unclassified. The test is looser than `near`, so whatever the contact could
            // count is still classified.
            let loose = |p: Point, q: Point| {
                (p.x - q.x).abs() <= 2.0 * TOLERANCE && (p.y - q.y).abs() <= 2.0 * TOLERANCE
            };
            let may_be_behind = loose(ci[3], cj[0]) && loose(ci[2], cj[1]);
            if !(side_corners || may_be_behind) {
                return None;
            }
            let c = self.contact(i, j)?;
            if c.kind == ContactKind::SideToSide && side_corners {
                beside(j);
            }
            // `j` directly behind `i`: its front edge against `i`'s rear edge, lined up.
            if c.kind == ContactKind::RearToFront
                && c.lined_up
                && !in_close_combat(self.ctx, j)
                && behind.is_none_or(|k| id(j) < id(k))
            {
                behind = Some(j);
            }
            None
        });
        let beside: &mut [usize] = if abreast_more.is_empty() {
            &mut abreast[..abreast_n]
        } else {
            abreast_more.extend_from_slice(&abreast[..abreast_n]);
            &mut abreast_more
        };
        beside.sort_by_key(|&j| id(j));
        let mut side = Supporters::new();
        for &mut j in beside {
            side.push(Supporter {
                kind: self.ctx.elements[j].kind,
                going: self.going(j)?,
            });
        }
        let rear = match behind {
            Some(j) => Some(Supporter {
                kind: self.ctx.elements[j].kind,
                going: self.going(j)?,
            }),
            None => None,
        };
        Ok((side, rear))
    }

    /// How many of `i`'s side and rear edges are overlapped by, or touched by the front edge of,
    /// an enemy other than `opponent` (§10.3, §10.4, §17.21).
    fn flank_rear_contacts(&self, i: usize, opponent: usize, contacts: &[ContactReport]) -> u8 {
        let t = self.ctx.elements[i].kind.troop_type();
        let ps_or_sch = matches!(t, TroopType::Ps | TroopType::SCh);
        // The edges counted, as a set of bits (one per edge, [`edge_bit`]): no allocation (#15).
        let mut edges = 0u8;
        let mut insert = |e: Edge| edges |= edge_bit(e);
        let mut with_opponent = None;
        for (j, c) in contacts_of(contacts, i) {
            if j == opponent {
                with_opponent = Some(c);
                continue;
            }
            match (c.kind, c.a) {
                (ContactKind::SideToFront, Some(ContactPart::Edge(e))) => {
                    insert(e);
                }
                (ContactKind::RearToFront, _) => {
                    insert(Edge::Rear);
                }
                _ => {}
            }
            // The contact seen from `j` is this one swapped (`classify_contact`'s promise), so
            // the overlap question does not classify the pair again.
            if let Some(k) =
                overlap_of_contact(c.swapped(), || front_engaged(contacts, j), ps_or_sch)
            {
                match (k, c.a) {
                    (OverlapKind::SideEdges, Some(ContactPart::Edge(e))) => {
                        insert(e);
                    }
                    (OverlapKind::FrontCorners, Some(ContactPart::Corner(Corner::FrontLeft))) => {
                        insert(Edge::Left);
                    }
                    (OverlapKind::FrontCorners, Some(ContactPart::Corner(Corner::FrontRight))) => {
                        insert(Edge::Right);
                    }
                    _ => {}
                }
            }
        }
        // §8.3: the contacted element of a pair that could not line up fights as if overlapped.
        let not_lined_up = with_opponent.is_some_and(|c| must_conform(&c));
        let overlapped_as_contacted = not_lined_up && self.ctx.elements[i].army != self.ctx.army;
        if self.ctx.config.combat.battlefield_edge_overlaps
            && !ps_or_sch
            && !matches!(t, TroopType::Cv | TroopType::LH)
        {
            let b = &self.ctx.battlefield.board;
            // The corners once, by `ElementRect::edge`'s arithmetic with one sine and cosine
            // (the grid's when there is one).
            let corners = self.corners(i);
            for e in [Edge::Left, Edge::Right] {
                let s = match e {
                    Edge::Left => Segment::new(corners[3], corners[0]),
                    _ => Segment::new(corners[1], corners[2]),
                };
                let along = |f: fn(Point) -> f64, at: f64| {
                    (f(s.a) - at).abs() <= TOLERANCE && (f(s.b) - at).abs() <= TOLERANCE
                };
                if along(|p| p.x, 0.0)
                    || along(|p| p.x, b.width)
                    || along(|p| p.y, 0.0)
                    || along(|p| p.y, b.depth)
                {
                    insert(e);
                }
            }
        }
        (edges.count_ones() as usize + usize::from(overlapped_as_contacted)).min(3) as u8
    }

    /// Entirely on land, against an opponent at least partly in a non-paltry river, off-road
    /// (§3.5, §17.22).
    fn defends_bank(&self, i: usize, o: usize) -> bool {
        let bf = self.ctx.battlefield;
        matches!(
            self.ctx.river,
            Some(RiverState::Slows | RiverState::SlowsNarrow)
        ) && bf.river_under(&self.rects[i]).is_none()
            && bf.river_under(&self.rects[o]).is_some()
            && !bf.move_along_road(&[self.rects[o].pose.front_mid()])
    }

    /// Element `i` fighting `o` in close combat, `contacts` being every contact between enemies
    /// in play of the state ([`with_enemy_contacts`]).
    fn close_combatant(
        &self,
        i: usize,
        o: usize,
        holding: Holding,
        contacts: &[ContactReport],
    ) -> Result<Combatant, EngagementError> {
        let e = &self.ctx.elements[i];
        let going = self.going(i)?;
        // The outlines' boxes kept by the state's memo (#15), as `going` reads them.
        let boxes = self.ctx.close_combat.map(|m| m.area_boxes(self.ctx));
        let uphill = self
            .ctx
            .battlefield
            .is_uphill_of_boxed(&self.rects[i], &self.rects[o], boxes);
        let defending_bank = self.defends_bank(i, o);
        let (side_supporters, rear_supporter) = self.supporters(i)?;
        Ok(Combatant {
            kind: e.kind,
            general: e.general,
            cinc_bonus: false,
            going,
            uphill,
            defending_bank,
            holding,
            side_supporters,
            rear_supporter,
            flank_rear_contacts: self.flank_rear_contacts(i, o, contacts),
            demoralised: false,
        })
    }

    fn shot_combatant(&self, i: usize) -> Result<Combatant, EngagementError> {
        let e = &self.ctx.elements[i];
        let holding = match self.held_place(i) {
            Some(si) => Holding::Defending {
                place: self.place(&self.ctx.strongholds[si]),
                extra_assaulters: 0,
            },
            None => Holding::Field,
        };
        let mut c = Combatant::new(e.kind);
        c.general = e.general;
        c.going = self.going(i)?;
        c.holding = holding;
        Ok(c)
    }

    /// Element `i` may shoot at all: it shoots, is in play, not in close combat, not sacking.
    fn check_may_shoot(&self, i: usize) -> Result<(), EngagementError> {
        self.in_play(i)?;
        let e = &self.ctx.elements[i];
        if !e.kind.shoots() || self.ctx.config.shooting_range(e.kind).is_none() {
            return Err(EngagementError::NotAShooter {
                id: e.id,
                kind: e.kind,
            });
        }
        if in_close_combat(self.ctx, i) {
            return Err(EngagementError::InCloseCombat { id: e.id });
        }
        if self.sacking(i) {
            return Err(EngagementError::Sacking { id: e.id });
        }
        Ok(())
    }

    /// Whether `s` can shoot at `t` (zone, range, sight, target not sacking), and at what distance
    /// (§9.2, §9.5, §4.2).
    fn assess_shot(&self, s: usize, t: usize) -> Result<f64, EngagementError> {
        let me = &self.ctx.elements[s];
        let them = &self.ctx.elements[t];
        let Some(range) = self.ctx.config.shooting_range(me.kind) else {
            return Err(EngagementError::NotAShooter {
                id: me.id,
                kind: me.kind,
            });
        };
        if self.sacking(t) {
            return Err(EngagementError::Sacking { id: them.id });
        }
        let (rs, rt) = (&self.rects[s], &self.rects[t]);
        let all_round = me.kind.troop_type() == TroopType::WWg;
        let artillery = me.kind.troop_type() == TroopType::Art;
        let Some(shot) = shot_geometry(rs, all_round, range, rt) else {
            // Inside the zone's side lines but too far, or outside them (§9.2)?
            return Err(match shot_geometry(rs, all_round, UNLIMITED_RANGE, rt) {
                Some(g) => EngagementError::OutOfRange {
                    shooter: me.id,
                    target: them.id,
                    distance: g.distance,
                    range,
                },
                None => EngagementError::OutOfReach {
                    shooter: me.id,
                    target: them.id,
                },
            });
        };
        // Only an element reaching into the box of shooter and target can overlap the field of
        // fire; the grid lists them in the same ascending order, so the first blocker is the same.
        let others: Vec<usize> = self
            .between(s, t)
            .into_iter()
            .filter(|&k| k != s && k != t && self.ctx.elements[k].in_play())
            .collect();
        let blockers: Vec<ShotBlocker> = others
            .iter()
            .map(|&k| {
                let o = &self.ctx.elements[k];
                ShotBlocker {
                    rect: self.rects[k],
                    is_enemy_psiloi: o.army != me.army && o.kind.troop_type() == TroopType::Ps,
                }
            })
            .collect();
        if let Some(b) = line_of_sight_blocker(rs, &shot, &blockers, artillery) {
            return Err(EngagementError::LineOfSight {
                shooter: me.id,
                target: them.id,
                by: Obstruction::Element {
                    id: self.ctx.elements[others[b]].id,
                },
            });
        }
        if let Err(block) = self.ctx.battlefield.element_line_of_sight(rs, rt) {
            return Err(EngagementError::LineOfSight {
                shooter: me.id,
                target: them.id,
                by: Obstruction::Terrain { block },
            });
        }
        Ok(shot.distance)
    }
}

/// An element that may defend its own camp (§4.6): one not of an allied contingent, and not
/// Elephants or Scythed Chariots. Others inside it do not defend it.
pub fn may_defend_camp(e: &super::state::ElementState) -> bool {
    e.contingent.is_none() && !matches!(e.kind.troop_type(), TroopType::El | TroopType::SCh)
}

/// A range longer than any table, to tell "out of range" from "outside the target zone" (§9.2).
const UNLIMITED_RANGE: f64 = 1.0e4;

/// The contacts of element `i` among `contacts` (every contact between enemies in play, by
/// element index, as [`with_enemy_contacts`] gives them), each with the other element and seen
/// from `i`: the report's contact, or its swap when `i` is the report's second element (the same
/// bits a classification from `i`'s side gives).
fn contacts_of(
    contacts: &[ContactReport],
    i: usize,
) -> impl Iterator<Item = (usize, crate::contact::Contact)> + '_ {
    contacts.iter().filter_map(move |r| {
        if r.a as usize == i {
            Some((r.b as usize, r.contact.clone()))
        } else if r.b as usize == i {
            Some((r.a as usize, r.contact.swapped()))
        } else {
            None
        }
    })
}

/// Element `i`'s front edge is lined up against an enemy (§8.2 a–c), read from every contact
/// between enemies in play (see [`contacts_of`]).
fn front_engaged(contacts: &[ContactReport], i: usize) -> bool {
    contacts_of(contacts, i).any(|(_, c)| {
        c.lined_up
            && matches!(
                c.kind,
                ContactKind::FrontToFront | ContactKind::FrontToSide | ContactKind::FrontToRear
            )
    })
}

/// One bit for each edge, for a set of edges without allocation.
fn edge_bit(e: Edge) -> u8 {
    match e {
        Edge::Front => 1,
        Edge::Right => 2,
        Edge::Rear => 4,
        Edge::Left => 8,
    }
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

/// Some corner of `shooter` lies beyond the line of `target`'s rear edge by more than
/// [`TOLERANCE`] (§9.6, §11.2).
fn partly_beyond_rear(shooter: &ElementRect, target: &ElementRect) -> bool {
    let f = target.pose.forward();
    let rear_mid = target.pose.front_mid() - f * target.depth;
    shooter
        .corners()
        .iter()
        .any(|&p| (rear_mid - p).dot(f) > TOLERANCE)
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
