//! Outcome moves (DBA3.md §12): recoil and push-back, flight, pursuit, entering a captured
//! stronghold, and turning to face a flank or rear contact (§8.5).
//!
//! Every function here is pure: it reads the battle through a [`MoveContext`] and returns the
//! [`Effect`]s the battle commits **in order** (apply them with [`apply_effects`]). The effects of
//! one call never leave two elements in play overlapping by more than [`TOLERANCE`]: each move
//! stops at the first thing its leading edge meets ([`first_met`]), and every jump (recoil
//! interpenetration, a pivot along a side edge, lining up, turning to face) is checked to land in
//! clear space first. Poses in effects are snapped to the storage grid ([`Pose::snapped`]).
//!
//! Readings chosen where the digest is silent (each repeated where it is applied):
//! * A recoil or push-back that meets a battlefield edge stops there and the element stays in
//!   play; one that must recoil or be pushed back while already touching the edge is destroyed
//!   (§12.1, §17.66). Only flight takes an element over an edge (§12.4, §13.1).
//! * Recoil interpenetration puts the recoiler in the clear space immediately behind the friend
//!   and ends the recoil there, even when that is further or shorter than its recoil distance
//!   (§12.1 "to the clear space immediately behind the first friend met"). The space must be clear
//!   and wholly on the table; otherwise the friend is pushed back instead. Only a single friend met
//!   alone can be interpenetrated; two friends met at once are pushed (or block).
//! * Only the recoiler interpenetrates. A pushed-back friend moves just the distance the recoiler
//!   still needs and pushes the next friend in line in turn (§12.2, §17.41); it never jumps
//!   through a friend behind it, whatever the two types.
//! * A pushed-back friend that is merely blocked blocks the recoiler and is not destroyed (§17.41);
//!   one with an enemy front edge on its side, rear or rear corner is destroyed instead of moving
//!   (seed §12.1), and the recoiler goes on.
//! * Flight passes a friend it may pass (§7.6) only when it has the distance left to get wholly
//!   clear of it and nothing else is in the way; otherwise that friend stops it.

use crate::battlefield::BoardEdge;
use crate::contact::{classify_contact, ContactPart};
use crate::geometry::{convex_gap, Corner, Edge, ElementRect, Point, Polygon, Pose, TOLERANCE};
use crate::paths::{
    first_met, BoardBounds, Met, MoveDirection, Obstacle, ObstacleKind, ObstacleShape, PathOutcome,
};
use crate::terrain::{
    inset_rect, polygons_intersect, AreaKind, Going, GoingContext, TerrainFeature,
};
use crate::troops::TroopType;

use super::movement::geom::{local, same_facing};
use super::movement::MoveContext;
use super::setup::ElementId;
use super::state::ElementState;

pub use super::state::{apply_effects, Effect};

/// Recoil distance (§12.1, §17.40): foot the smaller of its depth and ½ BW; mounted 1 BW, or its
/// depth when that is less than 1 BW and the owner chooses it (`mounted_full_bw == false`).
pub fn recoil_distance(ctx: &MoveContext, id: ElementId, mounted_full_bw: bool) -> Option<f64> {
    let e = ctx.elements.iter().find(|e| e.id == id)?;
    let depth = ctx.config.depth(e.kind);
    Some(if e.kind.is_mounted() {
        if !mounted_full_bw && depth < 1.0 {
            depth
        } else {
            1.0
        }
    } else {
        depth.min(0.5)
    })
}

/// Recoil interpenetration (§12.1 table): whether a recoiler of this type may pass through a
/// friend of that type (both facing exactly the same way).
pub fn may_pass_in_recoil(recoiler: &ElementState, friend: &ElementState) -> bool {
    use TroopType::*;
    let f = friend.kind.troop_type();
    let r = recoiler.kind.troop_type();
    if recoiler.kind.is_mounted() {
        return !matches!(f, Pk | Hd | El);
    }
    match r {
        Ps => f != Ps,
        Bd | CP | Lit | CWg => matches!(f, Bd | Sp),
        Pk | Bw => friend.kind.counts_as_blades(),
        _ => false,
    }
}

/// Flight interpenetration (§7.6, §12.4): mounted through friendly Psiloi, Psiloi through any
/// friends.
pub fn may_pass_in_flight(fleer: &ElementState, friend: &ElementState) -> bool {
    fleer.kind.troop_type() == TroopType::Ps
        || (fleer.kind.is_mounted() && friend.kind.troop_type() == TroopType::Ps)
}

/// Recoil (§12.1), or a push-back it causes (§12.2).
///
/// * `opponent`: the close-combat opponent, if any; an Elephant recoiling from the defenders of a
///   city or fort is destroyed (§12.1, §4.7).
/// * `shot_from_behind`: the element was shot at least partly from behind its rear edge and first
///   turns to face its rear (§9.6): a `TurnedToFace` effect precedes the recoil.
/// * `mounted_full_bw`: a mounted element recoils 1 BW (`true`) or, when its depth is less, its
///   depth (`false`), at its owner's choice; ignored for foot.
///
/// War Wagons never recoil (§12.1: their outcomes are only no effect or destroyed, and the combat
/// resolver never asks them to recoil): for one, and for an element not in play, the answer is no
/// effect at all.
pub fn recoil(
    ctx: &MoveContext,
    id: ElementId,
    opponent: Option<ElementId>,
    shot_from_behind: bool,
    mounted_full_bw: bool,
) -> Vec<Effect> {
    let Some(i) = index(ctx, id) else {
        return Vec::new();
    };
    let e = &ctx.elements[i];
    if e.kind.troop_type() == TroopType::WWg {
        return Vec::new();
    }
    let mut w = World::new(ctx);
    if shot_from_behind {
        let turned = about_face(&w.rect(i));
        w.turn(i, turned);
    }
    if e.kind.troop_type() == TroopType::El {
        if let Some(o) = opponent.and_then(|o| index(ctx, o)) {
            if in_city_or_fort(ctx, &ctx.elements[o].rect(ctx.config)) {
                w.destroy(
                    i,
                    "§12.1, §4.7: Elephants recoiling from the defenders of a city or fort are destroyed",
                );
                return w.finish();
            }
        }
    }
    if enemy_front_on(&w, i, true) {
        w.destroy(
            i,
            "§12.1: an enemy front edge touches its side, rear or rear corner, so it cannot recoil",
        );
        return w.finish();
    }
    let dist = recoil_distance(ctx, id, mounted_full_bw).unwrap_or(0.0);
    let moved = w.back(i, dist, 0);
    if w.alive[i] && !w.gone_off(i) && moved <= TOLERANCE && dist > 0.0 {
        w.destroy(
            i,
            "§12.1: already in contact behind with something that stops a recoil, so it cannot recoil",
        );
    }
    w.finish()
}

/// Flight (§12.4): turn 180° in place, then straight forward the full tactical move for the going
/// it starts in (§7.3), pivoting along a side battlefield edge towards `own_base` (the army's base
/// edge, §5.2).
///
/// Not applied here: the §7.3 river limit on a tactical move (a fleeing element entering a river
/// is destroyed anyway, §17.39, and one already partly in a river is not counted as entering it).
/// The pivot at a side edge is checked only where it ends (like the rear corners of a wheel, §7.2).
pub fn flee(ctx: &MoveContext, id: ElementId, own_base: BoardEdge) -> Vec<Effect> {
    let Some(i) = index(ctx, id) else {
        return Vec::new();
    };
    let mut w = World::new(ctx);
    if enemy_front_on(&w, i, false) {
        w.destroy(
            i,
            "§12.4: an enemy front edge touches its side or rear as the flight begins",
        );
        return w.finish();
    }
    let turned = about_face(&w.rect(i));
    w.turn(i, turned);
    flight(
        &mut w,
        i,
        own_base,
        &[],
        "§12.4: after turning to flee it cannot move at all",
    );
    w.finish()
}

/// The flight of an element of a demoralised command (§14.5): it turns, if it does not already,
/// to face straight towards the nearest point of `own_base` (its army's base edge, which on a
/// board is the edge itself, met square on), then flees as a flight does (§12.4): its full
/// tactical move for the going it starts in, stopped by what stops a flight, lost if any part
/// goes over a battlefield edge, destroyed if it cannot move at all or if an enemy front edge
/// already touches its side or rear.
///
/// Readings (docs/rules/14-big-battle-and-giant.md):
/// * The turn is made about the element's centre, as the about-turn of §12.4 is (for a turn of
///   180° the two are the same rectangle). Where the turned element would stand partly off the
///   table it is set back onto it across its line of flight.
/// * Like the pivot at a side edge (§12.4) and a wheel (§7.2), the turn is checked where the
///   flight ends: elements the turn swings across do not stop the flight, but it must end clear of
///   them. An element that cannot get clear of them (the flight stops first) cannot flee, and is
///   destroyed as §12.4 destroys an element that, having turned, cannot move.
pub fn flee_to_base_edge(ctx: &MoveContext, id: ElementId, own_base: BoardEdge) -> Vec<Effect> {
    let Some(i) = index(ctx, id) else {
        return Vec::new();
    };
    let mut w = World::new(ctx);
    if enemy_front_on(&w, i, false) {
        w.destroy(
            i,
            "§14.5, §12.4: an enemy front edge touches its side or rear as the flight begins",
        );
        return w.finish();
    }
    let facing = facing_towards(own_base);
    let mut swung: Vec<usize> = Vec::new();
    if !same_facing(w.pose[i].facing, facing) {
        let r = w.rect(i);
        let m = r.centre() + Point::from_bearing(facing) * (r.depth * 0.5);
        let pose = onto_board(&w, Pose::new(m.x, m.y, facing), r.depth);
        w.turn(i, pose);
        let mine = w.rect(i).corners();
        swung = w
            .near(&mine, NEAR_CONTACT)
            .into_iter()
            .filter(|&j| {
                j != i && w.alive[j] && convex_gap(&mine, &w.rect(j).corners()) < -TOLERANCE
            })
            .collect();
    }
    flight(
        &mut w,
        i,
        own_base,
        &swung,
        "§14.5, §12.4: fleeing towards its base edge it cannot move at all",
    );
    if w.alive[i] && !w.gone_off(i) && !swung.is_empty() {
        let mine = w.rect(i).corners();
        let stuck = swung
            .iter()
            .any(|&j| w.alive[j] && convex_gap(&mine, &w.rect(j).corners()) < -TOLERANCE);
        if stuck {
            w.destroy(
                i,
                "§14.5, §12.4: turned towards its base edge, it cannot get clear of the elements beside it",
            );
        }
    }
    w.finish()
}

/// The facing of an element that faces straight towards `edge`.
fn facing_towards(edge: BoardEdge) -> f64 {
    match edge {
        BoardEdge::North => 0.0,
        BoardEdge::East => 90.0,
        BoardEdge::South => 180.0,
        BoardEdge::West => 270.0,
    }
}

/// `pose` moved, along the board's axes, just enough for an element of `depth` standing there to
/// be wholly on the table.
fn onto_board(w: &World, pose: Pose, depth: f64) -> Pose {
    let b = &w.ctx.battlefield.board;
    let c = ElementRect::new(pose, 1.0, depth).corners();
    let (lo_x, hi_x) = c
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.x), hi.max(p.x))
        });
    let (lo_y, hi_y) = c
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    let dx = (-lo_x).max(0.0) - (hi_x - b.width).max(0.0);
    let dy = (-lo_y).max(0.0) - (hi_y - b.depth).max(0.0);
    Pose::new(pose.x + dx, pose.y + dy, pose.facing)
}

/// The move of a flight (§12.4), once the element has turned: straight forward its full tactical
/// move for the going it starts in, pivoting along a side battlefield edge towards `own_base`,
/// lost over any other edge, stopped by enemy, friends it may not pass, waterways, strongholds
/// and bad going, destroyed by a river or when it cannot move at all (for the reason `stuck`).
/// `swung` are elements the turn swung across, which do not stop it.
fn flight(w: &mut World, i: usize, own_base: BoardEdge, swung: &[usize], stuck: &str) {
    let ctx = w.ctx;
    let e = &ctx.elements[i];
    let start = w.rect(i);
    let gctx = going_context(ctx, i);
    let rough = ctx.battlefield.going_under(&start, gctx) >= Going::Rough;
    let dist = ctx.config.move_distance(e.kind, rough);
    let terrain = terrain_obstacles(ctx, i, &start, Purpose::Flee);
    let el_or_sch = matches!(e.kind.troop_type(), TroopType::El | TroopType::SCh);
    let sides = own_base.sides();
    let mut moved = 0.0;
    let mut passed: Vec<usize> = swung.to_vec();
    let mut pivoted = false;
    for _ in 0..64 {
        let rem = dist - moved;
        if rem <= 1e-9 {
            break;
        }
        let out = w.first_met(i, MoveDirection::Forward, rem, &passed, &terrain);
        w.shift(i, out.distance);
        moved += out.distance;
        if out.met.is_empty() {
            break;
        }
        let rem = dist - moved;
        let edges: Vec<BoardEdge> = out.met.iter().filter_map(board_edge_met).collect();
        if !edges.is_empty() {
            let side_only = edges.iter().all(|e| sides.contains(e));
            if side_only && !pivoted && rem > TOLERANCE {
                pivoted = true;
                if let Some((pose, charge)) = w.pivot_along(i, edges[0], own_base, &terrain) {
                    w.place(i, pose);
                    moved += charge;
                    // A friend passed before the pivot may be ahead again.
                    passed = swung.to_vec();
                    continue;
                }
                break;
            }
            if rem > TOLERANCE {
                w.lose(i);
                return;
            }
            break;
        }
        if has_terrain(&out, ObstacleKind::River) {
            w.destroy(
                i,
                "§12.4, §17.39: a fleeing element entering any river is destroyed",
            );
            return;
        }
        if has_terrain(&out, ObstacleKind::Impassable)
            || has_terrain(&out, ObstacleKind::Stronghold)
            || has_terrain(&out, ObstacleKind::StopsMovement)
        {
            break;
        }
        let elems = met_elements(&out);
        if elems.is_empty() {
            break;
        }
        let blocker = elems.iter().copied().find(|&j| {
            w.army(j) != w.army(i) || !(elems.len() == 1 && may_pass_in_flight(&w.el(i), &w.el(j)))
        });
        if blocker.is_none() {
            let j = elems[0];
            if let Some(t) = w.clear_beyond(i, j, rem, &passed, &terrain) {
                w.shift(i, t);
                moved += t;
                passed.push(j);
                continue;
            }
        }
        let j = blocker.unwrap_or(elems[0]);
        if el_or_sch {
            w.destroy(
                j,
                "§12.4: it prevented the further flight of Elephants or Scythed Chariots",
            );
            w.destroy(
                i,
                "§12.4: fleeing Elephants or Scythed Chariots blocked by an element are destroyed",
            );
            return;
        }
        break;
    }
    if w.alive[i] && moved <= TOLERANCE {
        w.destroy(i, stuck);
    }
}

/// Pursuit (§12.5): straight ahead `distance` (from [`crate::combat::Pursuit`]). Call it after
/// the beaten opponent's own outcome effects are applied, so that the pursuer meets it where it
/// went. Elements in column behind the pursuer (§12.5) are the battle's to move, each by its own
/// call, leader first.
///
/// Following the seed's words, an element in a city, fort or camp, or in bad going other than
/// marsh or gully, does not pursue; nor does one whose pursuit would take any part over a
/// battlefield edge or into such bad going (the follow-up is not made at all, rather than made
/// short). Friends, waterways and strongholds stop it at contact. An enemy met is lined up with at
/// once, the pursuer conforming (§8.3): front to front, to a flank, or to the rear by the enemy's
/// facing; if the lined-up position is not clear the pursuer stays where it made contact.
pub fn pursue(ctx: &MoveContext, id: ElementId, distance: f64) -> Vec<Effect> {
    let Some(i) = index(ctx, id) else {
        return Vec::new();
    };
    let mut w = World::new(ctx);
    let start = w.rect(i);
    if in_any_stronghold(ctx, &start) {
        return Vec::new();
    }
    let gctx = going_context(ctx, i);
    let inner = inset_rect(&start);
    let in_blocking_bad = ctx.battlefield.areas().any(|(_, a)| {
        stops_pursuit(a.kind, a.going(gctx)) && polygons_intersect(&inner, &a.outline)
    });
    if in_blocking_bad || distance <= 0.0 {
        return Vec::new();
    }
    let terrain = terrain_obstacles(ctx, i, &start, Purpose::Pursue);
    let out = w.first_met(i, MoveDirection::Forward, distance, &[], &terrain);
    let rem = distance - out.distance;
    if rem > TOLERANCE
        && (out.met.iter().any(|m| board_edge_met(m).is_some())
            || has_terrain(&out, ObstacleKind::StopsMovement))
    {
        return Vec::new();
    }
    w.shift(i, out.distance);
    let enemy = met_elements(&out)
        .into_iter()
        .find(|&j| w.army(j) != w.army(i));
    if let Some(j) = enemy {
        let target = w.rect(j);
        let pose = line_up_pose(&w.rect(i), &target);
        let r = ElementRect::new(pose.snapped(), 1.0, w.depth(i));
        if w.clear_at(i, &r, &[j], &terrain) {
            w.place(i, pose);
        }
    }
    w.finish()
}

/// A winner moving into a city, fort or camp whose defenders it destroyed (§4.7, §12.5): straight
/// ahead `distance` (§4.7: its pursuit distance, or foot ½ BW, mounted 1 BW), the stronghold's
/// `perimeter` being no obstacle. Elephants do not enter (§17.38; whether a War Wagon is a mobile
/// tower is not known here, so that exception is left to the battle). Other elements and terrain
/// stop it at contact, and it never goes over a battlefield edge. It is not checked that it ends
/// inside the perimeter.
pub fn enter_stronghold(
    ctx: &MoveContext,
    id: ElementId,
    distance: f64,
    perimeter: &Polygon,
) -> Vec<Effect> {
    let Some(i) = index(ctx, id) else {
        return Vec::new();
    };
    if ctx.elements[i].kind.troop_type() == TroopType::El {
        return Vec::new();
    }
    let mut w = World::new(ctx);
    let start = w.rect(i);
    let terrain: Vec<Obstacle> = terrain_obstacles(ctx, i, &start, Purpose::Pursue)
        .into_iter()
        .filter(|o| match &o.shape {
            ObstacleShape::Polygon(p) => p != perimeter && o.kind != ObstacleKind::StopsMovement,
            ObstacleShape::Rect(_) => true,
        })
        .collect();
    let out = w.first_met(i, MoveDirection::Forward, distance.max(0.0), &[], &terrain);
    w.shift(i, out.distance);
    w.finish()
}

/// Turning to face (§8.5): an element whose side or rear edge is touched by `contactor`'s front
/// edge turns so that the two are in full mutual front contact, its front edge ending on the
/// contactor's front edge. No turn (`None`) when it is already in full front-edge contact with an
/// enemy, provides rear support (its front edge lined up on a friend's rear edge, facing the same
/// way), or the contact is not of that kind. When the turned element would not fit (it would
/// overlap another element, leave the table or enter a waterway or stronghold) it does not turn
/// either: it fights as it stands, with the flank or rear penalty of §8.5.
pub fn turn_to_face(ctx: &MoveContext, id: ElementId, contactor: ElementId) -> Option<Effect> {
    let i = index(ctx, id)?;
    let c = index(ctx, contactor)?;
    let w = World::new(ctx);
    if !w.alive[i] || !w.alive[c] || w.army(i) == w.army(c) {
        return None;
    }
    let me = w.rect(i);
    let them = w.rect(c);
    let touch = classify_contact(&them, &me)?;
    let on_side_or_rear = touch.a == Some(ContactPart::Edge(Edge::Front))
        && matches!(
            touch.b,
            Some(ContactPart::Edge(Edge::Left | Edge::Right | Edge::Rear))
        );
    if !on_side_or_rear {
        return None;
    }
    let busy = (0..ctx.elements.len()).any(|k| {
        if k == i || !w.alive[k] {
            return false;
        }
        let Some(t) = classify_contact(&me, &w.rect(k)) else {
            return false;
        };
        if w.army(k) != w.army(i) {
            t.kind == crate::contact::ContactKind::FrontToFront && t.lined_up
        } else {
            t.kind == crate::contact::ContactKind::FrontToRear
                && t.lined_up
                && same_facing(w.pose[k].facing, w.pose[i].facing)
        }
    });
    if busy {
        return None;
    }
    let tp = them.pose;
    let to = Pose::new(tp.x, tp.y, tp.facing + 180.0).snapped();
    let r = ElementRect::new(to, 1.0, me.depth);
    let terrain = terrain_obstacles(ctx, i, &me, Purpose::Recoil);
    if !w.clear_at(i, &r, &[], &terrain) {
        return None;
    }
    Some(Effect::TurnedToFace {
        id,
        from: ctx.elements[i].pose,
        to,
    })
}

/// Conforming (§8.3, §12.6): element `id`, whose front edge touches `other`'s front edge without
/// lining up ([`super::movement::must_conform`]), turns and slides so that the two are in full
/// mutual front contact, its front edge on `other`'s. `None` when it cannot: it is already lined
/// up in front contact with another enemy, it stands in a camp, city or fort, the slide would be
/// 1 BW or more (§8.3's limit for the contactor, read as the limit for any conforming), or the new
/// place is not clear (other elements, the table edge, waterways, strongholds, bad going it may
/// not enter).
pub fn conform(ctx: &MoveContext, id: ElementId, other: ElementId) -> Option<Effect> {
    let i = index(ctx, id)?;
    let j = index(ctx, other)?;
    let w = World::new(ctx);
    if w.army(i) == w.army(j) {
        return None;
    }
    let me = w.rect(i);
    let them = w.rect(j);
    if !classify_contact(&me, &them).is_some_and(|c| super::movement::must_conform(&c)) {
        return None;
    }
    if in_any_stronghold(ctx, &me) {
        return None;
    }
    let pinned = (0..ctx.elements.len()).any(|k| {
        k != i
            && k != j
            && w.alive[k]
            && w.army(k) != w.army(i)
            && classify_contact(&me, &w.rect(k)).is_some_and(|c| {
                c.lined_up
                    && matches!(
                        c.kind,
                        crate::contact::ContactKind::FrontToFront
                            | crate::contact::ContactKind::FrontToSide
                            | crate::contact::ContactKind::FrontToRear
                    )
            })
    });
    if pinned {
        return None;
    }
    let tp = them.pose;
    let to = Pose::new(tp.x, tp.y, tp.facing + 180.0).snapped();
    let (slide, _) = local(&me.pose, to.front_mid());
    if slide.abs() >= 1.0 {
        return None;
    }
    let r = ElementRect::new(to, 1.0, me.depth);
    let terrain = terrain_obstacles(ctx, i, &me, Purpose::Recoil);
    if !w.clear_at(i, &r, &[], &terrain) {
        return None;
    }
    Some(Effect::Moved {
        id,
        from: ctx.elements[i].pose,
        to,
    })
}

// ---------------------------------------------------------------------------------------------
// The scratch world an outcome move works on
// ---------------------------------------------------------------------------------------------

/// Obstacle ids at or above this are terrain; below, an index into the elements.
const TERRAIN_ID: u32 = 1 << 30;

/// The elements as the outcome move leaves them so far, and what it did, in time order.
struct World<'c, 'a> {
    ctx: &'c MoveContext<'a>,
    pose: Vec<Pose>,
    /// Pose after the last turn (or at the start): the `from` of its `Moved` effect.
    from: Vec<Pose>,
    alive: Vec<bool>,
    lost_off: Vec<bool>,
    last_move: Vec<Option<u32>>,
    log: Vec<(u32, Effect)>,
    clock: u32,
    /// Every element this outcome has moved or turned so far (the per-state grid has them where
    /// they stood), in the order first moved.
    displaced: Vec<usize>,
    /// Recoils and push-backs this outcome may still try ([`World::back`]): a bound derived
    /// from the number of elements (issue #44). Each push-back may push on every element it
    /// meets, so a pile of elements on one spot (which no battle played by dbcore holds, but a
    /// state from outside may) made the recursion exponential; a real chain touches each
    /// element a few times and never comes near the bound.
    pushes_left: usize,
}

impl<'c, 'a> World<'c, 'a> {
    fn new(ctx: &'c MoveContext<'a>) -> Self {
        let n = ctx.elements.len();
        World {
            ctx,
            pose: ctx.elements.iter().map(|e| e.pose).collect(),
            from: ctx.elements.iter().map(|e| e.pose).collect(),
            alive: ctx.elements.iter().map(|e| e.in_play()).collect(),
            lost_off: vec![false; n],
            last_move: vec![None; n],
            log: Vec::new(),
            clock: 0,
            displaced: Vec::new(),
            pushes_left: 64 + 16 * n,
        }
    }

    /// Every element that may reach within `margin` of the box of `pts` where this outcome has
    /// put them so far, ascending (#15): the per-state grid's neighbours, and every element this
    /// outcome has moved; every element when the context has no grid. A pre-test only: callers
    /// run the exact test on each, in the same order as over every element, so every answer is
    /// the same.
    fn near(&self, pts: &[Point], margin: f64) -> Vec<usize> {
        let Some(g) = self.ctx.grid() else {
            return (0..self.pose.len()).collect();
        };
        let mut v = g.near(pts, margin);
        if !self.displaced.is_empty() {
            v.extend_from_slice(&self.displaced);
            v.sort_unstable();
            v.dedup();
        }
        v
    }

    /// Mark element `i` as standing elsewhere than the state has it.
    fn displace(&mut self, i: usize) {
        if !self.displaced.contains(&i) {
            self.displaced.push(i);
        }
    }

    fn tick(&mut self) -> u32 {
        self.clock += 1;
        self.clock
    }

    fn el(&self, i: usize) -> ElementState {
        let mut e = self.ctx.elements[i].clone();
        e.pose = self.pose[i];
        e
    }

    fn army(&self, i: usize) -> usize {
        self.ctx.elements[i].army
    }

    fn depth(&self, i: usize) -> f64 {
        self.ctx.config.depth(self.ctx.elements[i].kind)
    }

    fn rect(&self, i: usize) -> ElementRect {
        ElementRect::new(self.pose[i], 1.0, self.depth(i))
    }

    fn gone_off(&self, i: usize) -> bool {
        self.lost_off[i]
    }

    fn turn(&mut self, i: usize, to: Pose) {
        let to = to.snapped();
        let t = self.tick();
        self.log.push((
            t,
            Effect::TurnedToFace {
                id: self.ctx.elements[i].id,
                from: self.pose[i],
                to,
            },
        ));
        self.pose[i] = to;
        self.from[i] = to;
        self.displace(i);
    }

    fn place(&mut self, i: usize, to: Pose) {
        self.pose[i] = to.snapped();
        self.displace(i);
        let t = self.tick();
        self.last_move[i] = Some(t);
    }

    /// Move straight forward (negative: back) along its facing.
    fn shift(&mut self, i: usize, by: f64) {
        if by == 0.0 {
            return;
        }
        let p = self.pose[i];
        let m = p.front_mid() + p.forward() * by;
        self.place(i, Pose::new(m.x, m.y, p.facing));
    }

    fn destroy(&mut self, i: usize, reason: &str) {
        if !self.alive[i] {
            return;
        }
        self.alive[i] = false;
        let t = self.tick();
        self.log.push((
            t,
            Effect::Destroyed {
                id: self.ctx.elements[i].id,
                reason: reason.to_string(),
            },
        ));
    }

    fn lose(&mut self, i: usize) {
        if !self.alive[i] {
            return;
        }
        self.alive[i] = false;
        self.lost_off[i] = true;
        let t = self.tick();
        self.log.push((
            t,
            Effect::LostOffTable {
                id: self.ctx.elements[i].id,
                from: self.from[i],
            },
        ));
    }

    /// The effects: turns, destructions and losses in the order they happened, then each
    /// surviving element's whole move, leading element first (pushed friends before the element
    /// pushing them, a destroyed element gone before anything moves into its place).
    fn finish(self) -> Vec<Effect> {
        let mut v = self.log;
        v.sort_by_key(|(t, _)| *t);
        let mut moves: Vec<(usize, Pose, Pose)> = (0..self.pose.len())
            .filter(|&i| {
                self.last_move[i].is_some() && self.alive[i] && self.pose[i] != self.from[i]
            })
            .map(|i| (i, self.from[i], self.pose[i]))
            .collect();
        // All the moves of one outcome go the same way (a recoil and the friends it pushes go
        // straight back together): the one furthest along that way moves first, so no state
        // between two effects has elements overlapping.
        let way = moves.iter().fold(Point::new(0.0, 0.0), |s, (_, a, b)| {
            s + (b.front_mid() - a.front_mid())
        });
        moves.sort_by(|x, y| {
            let kx = x.1.front_mid().dot(way);
            let ky = y.1.front_mid().dot(way);
            ky.total_cmp(&kx).then(x.0.cmp(&y.0))
        });
        let mut out: Vec<Effect> = v.into_iter().map(|(_, e)| e).collect();
        out.extend(moves.into_iter().map(|(i, from, to)| Effect::Moved {
            id: self.ctx.elements[i].id,
            from,
            to,
        }));
        out
    }

    fn board(&self) -> BoardBounds {
        let b = &self.ctx.battlefield.board;
        BoardBounds {
            min: Point::new(0.0, 0.0),
            max: Point::new(b.width, b.depth),
        }
    }

    /// Every element in play among `candidates` (ascending) other than `i` and `skip`, then the
    /// terrain.
    fn obstacles(
        &self,
        i: usize,
        candidates: Vec<usize>,
        skip: &[usize],
        terrain: &[Obstacle],
    ) -> Vec<Obstacle> {
        let mut v: Vec<Obstacle> = candidates
            .into_iter()
            .filter(|&j| j != i && self.alive[j] && !skip.contains(&j))
            .map(|j| Obstacle {
                id: j as u32,
                kind: ObstacleKind::Element,
                shape: ObstacleShape::Rect(self.rect(j)),
            })
            .collect();
        v.extend(terrain.iter().cloned());
        v
    }

    fn first_met(
        &self,
        i: usize,
        dir: MoveDirection,
        max: f64,
        skip: &[usize],
        terrain: &[Obstacle],
    ) -> PathOutcome {
        let r = self.rect(i);
        // Only an element reaching into the box swept by the rectangle (a tolerance further on)
        // can be met within `max`; one met further off changes nothing ([`first_met`] reports
        // only what it meets within the distance asked), so the answer is the same.
        let c = r.corners();
        let way = match dir {
            MoveDirection::Forward => r.pose.forward(),
            MoveDirection::Backward => -r.pose.forward(),
        } * (max + TOLERANCE);
        let swept = [
            c[0],
            c[1],
            c[2],
            c[3],
            c[0] + way,
            c[1] + way,
            c[2] + way,
            c[3] + way,
        ];
        let obs = self.obstacles(i, self.near(&swept, NEAR_CONTACT), skip, terrain);
        first_met(&r, dir, max, &obs, &self.board())
    }

    /// Whether `r` (where element `i` would stand) is wholly on the table and overlaps no other
    /// element in play (except `skip`) nor any terrain obstacle by more than [`TOLERANCE`].
    fn clear_at(&self, i: usize, r: &ElementRect, skip: &[usize], terrain: &[Obstacle]) -> bool {
        let b = &self.ctx.battlefield.board;
        if !r.corners().iter().all(|&p| b.contains(p)) {
            return false;
        }
        let mine = r.corners();
        let hit_element = self.near(&mine, NEAR_CONTACT).into_iter().any(|j| {
            j != i
                && self.alive[j]
                && !skip.contains(&j)
                && convex_gap(&mine, &self.rect(j).corners()) < -TOLERANCE
        });
        if hit_element {
            return false;
        }
        let inner = inset_rect(r);
        !terrain.iter().any(|o| match &o.shape {
            ObstacleShape::Polygon(p) => polygons_intersect(&inner, p),
            ObstacleShape::Rect(q) => polygons_intersect(&inner, &q.polygon()),
        })
    }

    /// Recoil (`level` 0) or push-back (`level` above 0) of `i` straight back up to `dist`
    /// (§12.1, §12.2); returns the distance it moved. A battlefield edge stops it; one already
    /// touching the edge is destroyed (§17.66).
    fn back(&mut self, i: usize, dist: f64, level: usize) -> f64 {
        if level > 32 || !self.alive[i] || self.pushes_left == 0 {
            return 0.0;
        }
        self.pushes_left -= 1;
        let start = self.rect(i);
        let terrain = terrain_obstacles(self.ctx, i, &start, Purpose::Recoil);
        let elephant = self.ctx.elements[i].kind.troop_type() == TroopType::El;
        let mut moved = 0.0;
        for _ in 0..64 {
            let rem = dist - moved;
            if rem <= 1e-9 {
                break;
            }
            let out = self.first_met(i, MoveDirection::Backward, rem, &[], &terrain);
            self.shift(i, -out.distance);
            moved += out.distance;
            if out.met.is_empty() {
                break;
            }
            let rem = dist - moved;
            if out.met.iter().any(|m| board_edge_met(m).is_some()) {
                // §12.1, §17.66: the edge stops it in play; already on it, it is destroyed.
                // (Not moved at all yet in this outcome: a friend pushed to the edge and then
                // met again by the recoiler only blocks it.)
                if moved <= TOLERANCE && rem > TOLERANCE && self.last_move[i].is_none() {
                    self.destroy(
                        i,
                        "§12.1, §17.66: it must recoil or be pushed back but already touches a battlefield edge",
                    );
                }
                break;
            }
            if out
                .met
                .iter()
                .any(|m| matches!(m, Met::Obstacle { kind, .. } if *kind != ObstacleKind::Element))
            {
                break;
            }
            let elems = met_elements(&out);
            if elephant {
                let mut stop = false;
                for &j in &elems {
                    if in_bua_or_camp(self.ctx, &self.rect(j)) {
                        stop = true;
                    } else if self.ctx.elements[j].kind.troop_type() == TroopType::El {
                        self.destroy(
                            j,
                            "§12.1: two Elephants meeting in a recoil destroy each other",
                        );
                        self.destroy(
                            i,
                            "§12.1: two Elephants meeting in a recoil destroy each other",
                        );
                        return moved;
                    } else {
                        self.destroy(j, "§12.1: met by recoiling Elephants");
                    }
                }
                if stop {
                    break;
                }
                continue;
            }
            let me = self.el(i);
            if elems.len() == 1 && level == 0 {
                let j = elems[0];
                let f = self.el(j);
                if f.army == me.army
                    && same_facing(f.pose.facing, me.pose.facing)
                    && may_pass_in_recoil(&me, &f)
                {
                    if let Some(t) = self.clear_behind(i, j, &terrain) {
                        self.shift(i, -t);
                        moved += t;
                        break;
                    }
                }
            }
            let blocked = elems.iter().any(|&j| {
                let f = &self.ctx.elements[j];
                f.army != me.army
                    || !same_facing(self.pose[j].facing, me.pose.facing)
                    || matches!(f.kind.troop_type(), TroopType::El | TroopType::WWg)
            });
            if blocked {
                break;
            }
            let mut least = rem;
            for &j in &elems {
                if enemy_front_on(self, j, true) {
                    self.destroy(
                        j,
                        "§12.1: pushed back with an enemy front edge on its side, rear or rear corner",
                    );
                    continue;
                }
                let p = self.back(j, rem, level + 1);
                if self.alive[j] {
                    least = least.min(p);
                }
            }
            if least <= 1e-9 {
                break;
            }
        }
        moved
    }

    /// How far back `i` must go to stand in the clear space immediately behind friend `j` (same
    /// facing), if that space is clear and on the table and nothing else is in the way.
    fn clear_behind(&self, i: usize, j: usize, terrain: &[Obstacle]) -> Option<f64> {
        let (_, y) = local(&self.pose[i], self.pose[j].front_mid());
        let t = self.depth(j) - y;
        if t <= 0.0 {
            return None;
        }
        let out = self.first_met(i, MoveDirection::Backward, t, &[j], terrain);
        if out.distance < t - TOLERANCE {
            return None;
        }
        let p = self.pose[i];
        let m = p.front_mid() - p.forward() * t;
        let r = ElementRect::new(Pose::new(m.x, m.y, p.facing).snapped(), 1.0, self.depth(i));
        self.clear_at(i, &r, &[], terrain).then_some(t)
    }

    /// How far forward fleeing `i` must go to be wholly clear of friend `j`, if it has the
    /// distance and nothing else is in the way (§7.6).
    fn clear_beyond(
        &self,
        i: usize,
        j: usize,
        rem: f64,
        passed: &[usize],
        terrain: &[Obstacle],
    ) -> Option<f64> {
        let p = self.pose[i];
        let f = p.forward();
        let ahead = self
            .rect(j)
            .corners()
            .iter()
            .map(|&c| (c - p.front_mid()).dot(f))
            .fold(f64::NEG_INFINITY, f64::max);
        let t = ahead + self.depth(i);
        if t > rem + TOLERANCE {
            return None;
        }
        let mut skip = passed.to_vec();
        skip.push(j);
        let out = self.first_met(i, MoveDirection::Forward, t, &skip, terrain);
        if out.distance < t - TOLERANCE {
            return None;
        }
        let m = p.front_mid() + f * t;
        let r = ElementRect::new(Pose::new(m.x, m.y, p.facing).snapped(), 1.0, self.depth(i));
        self.clear_at(i, &r, passed, terrain).then_some(t)
    }

    /// A fleeing element at a side edge pivots to run along it towards its own base edge (§12.4):
    /// the pose with a side edge on the table edge, its front edge level with its corner furthest
    /// towards its base, and the §7.2 distance that costs (the furthest front corner's travel).
    fn pivot_along(
        &self,
        i: usize,
        side: BoardEdge,
        own_base: BoardEdge,
        terrain: &[Obstacle],
    ) -> Option<(Pose, f64)> {
        let board = &self.ctx.battlefield.board;
        let facing = facing_towards(own_base);
        let fwd = Point::from_bearing(facing);
        let r = self.rect(i);
        let s = r
            .corners()
            .iter()
            .map(|c| c.dot(fwd))
            .fold(f64::NEG_INFINITY, f64::max);
        let on_line = board.edge_segment(side).0 + board.inward(side) * 0.5;
        let m = on_line + fwd * (s - on_line.dot(fwd));
        let pose = Pose::new(m.x, m.y, facing).snapped();
        let nr = ElementRect::new(pose, 1.0, r.depth);
        if !self.clear_at(i, &nr, &[], terrain) {
            return None;
        }
        let charge = [Corner::FrontLeft, Corner::FrontRight]
            .iter()
            .map(|&c| r.corner(c).distance(nr.corner(c)))
            .fold(0.0, f64::max);
        Some((pose, charge))
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn index(ctx: &MoveContext, id: ElementId) -> Option<usize> {
    ctx.elements.iter().position(|e| e.id == id && e.in_play())
}

fn going_context(ctx: &MoveContext, i: usize) -> GoingContext {
    GoingContext {
        camel_mounted: ctx.elements[i].kind.is_camel_mounted(),
        plough_is_rough: ctx.plough_rough,
    }
}

/// Facings closer than this (degrees) are "exactly the same way" (§12.1).
/// The same rectangle facing the other way: its rear edge becomes its front edge.
fn about_face(r: &ElementRect) -> Pose {
    let m = r.pose.front_mid() - r.pose.forward() * r.depth;
    Pose::new(m.x, m.y, r.pose.facing + 180.0)
}

/// Whether an enemy front edge touches element `i`'s side or rear edge (or, with `corners`, a
/// rear corner) (§12.1, §12.4).
fn enemy_front_on(w: &World, i: usize, corners: bool) -> bool {
    let me = w.rect(i);
    w.near(&me.corners(), NEAR_CONTACT).into_iter().any(|j| {
        if j == i || !w.alive[j] || w.army(j) == w.army(i) {
            return false;
        }
        let Some(c) = classify_contact(&w.rect(j), &me) else {
            return false;
        };
        c.a == Some(ContactPart::Edge(Edge::Front))
            && match c.b {
                Some(ContactPart::Edge(Edge::Left | Edge::Right | Edge::Rear)) => true,
                Some(ContactPart::Corner(Corner::RearLeft | Corner::RearRight)) => corners,
                _ => false,
            }
    })
}

/// How far off the grid looks for elements that may touch or overlap one (a contact is within
/// one tolerance; the grid's boxes are a pre-test, the exact tests decide).
const NEAR_CONTACT: f64 = 4.0 * TOLERANCE;

fn board_edge_met(m: &Met) -> Option<BoardEdge> {
    match m {
        Met::BoardEdge(e) => Some(*e),
        Met::Obstacle { .. } => None,
    }
}

fn has_terrain(out: &PathOutcome, kind: ObstacleKind) -> bool {
    out.met
        .iter()
        .any(|m| matches!(m, Met::Obstacle { kind: k, id } if *k == kind && *id >= TERRAIN_ID))
}

fn met_elements(out: &PathOutcome) -> Vec<usize> {
    out.met
        .iter()
        .filter_map(|m| match m {
            Met::Obstacle {
                id,
                kind: ObstacleKind::Element,
            } if *id < TERRAIN_ID => Some(*id as usize),
            _ => None,
        })
        .collect()
}

/// Outlines of every camp, city and fort: held strongholds from the context, and every City or
/// Fort on the table.
fn stronghold_outlines(ctx: &MoveContext) -> Vec<Polygon> {
    let mut v: Vec<Polygon> = ctx
        .strongholds
        .iter()
        .map(|s| s.perimeter.clone())
        .collect();
    for (_, a) in ctx.battlefield.areas() {
        if a.kind.is_fortified() && !v.contains(&a.outline) {
            v.push(a.outline.clone());
        }
    }
    v
}

fn in_any_stronghold(ctx: &MoveContext, r: &ElementRect) -> bool {
    let inner = inset_rect(r);
    stronghold_outlines(ctx)
        .iter()
        .any(|p| polygons_intersect(&inner, p))
}

fn in_city_or_fort(ctx: &MoveContext, r: &ElementRect) -> bool {
    let inner = inset_rect(r);
    ctx.battlefield
        .areas()
        .any(|(_, a)| a.kind.is_fortified() && polygons_intersect(&inner, &a.outline))
}

/// Partly in a BUA or a camp: safe from recoiling Elephants (§12.1).
fn in_bua_or_camp(ctx: &MoveContext, r: &ElementRect) -> bool {
    let inner = inset_rect(r);
    ctx.battlefield
        .areas()
        .any(|(_, a)| a.kind.is_bua() && polygons_intersect(&inner, &a.outline))
        || in_any_stronghold(ctx, r)
}

/// Bad going that keeps a pursuer out (§12.5): any but marsh and gully.
fn stops_pursuit(kind: AreaKind, going: Option<Going>) -> bool {
    going == Some(Going::Bad) && !matches!(kind, AreaKind::Marsh | AreaKind::Gully)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Recoil,
    Flee,
    Pursue,
}

/// The terrain an outcome move of element `i` (standing at `r`) may meet, leaving out features it
/// is already partly in:
/// * waterways, impassable (§3.4), and camps, cities and forts (§12.1, §12.4), always;
/// * recoil: bad going, for kinds that may not enter it (§7.3: Art, WWg);
/// * flight: bad going other than marsh, except for Ps and LH (§12.4), and rivers (§17.39);
/// * pursuit: bad going other than marsh and gully (§12.5).
fn terrain_obstacles(
    ctx: &MoveContext,
    i: usize,
    r: &ElementRect,
    purpose: Purpose,
) -> Vec<Obstacle> {
    let kind = ctx.elements[i].kind;
    let gctx = going_context(ctx, i);
    let inner = inset_rect(r);
    let mut v: Vec<Obstacle> = Vec::new();
    let push = |v: &mut Vec<Obstacle>, kind: ObstacleKind, p: Polygon| {
        let id = TERRAIN_ID + v.len() as u32;
        v.push(Obstacle {
            id,
            kind,
            shape: ObstacleShape::Polygon(p),
        });
    };
    for f in &ctx.battlefield.features {
        match f {
            TerrainFeature::Waterway(wy) => push(
                &mut v,
                ObstacleKind::Impassable,
                wy.water_polygon(&ctx.battlefield.board),
            ),
            TerrainFeature::Area(a) => {
                let bad = a.going(gctx) == Some(Going::Bad);
                if !bad || polygons_intersect(&inner, &a.outline) {
                    continue;
                }
                let stops = match purpose {
                    Purpose::Recoil => !ctx.config.kind(kind.base()).may_enter_bad_going,
                    Purpose::Flee => {
                        a.kind != AreaKind::Marsh
                            && !matches!(kind.troop_type(), TroopType::Ps | TroopType::LH)
                    }
                    Purpose::Pursue => stops_pursuit(a.kind, a.going(gctx)),
                };
                if stops {
                    let k = if purpose == Purpose::Recoil {
                        ObstacleKind::Impassable
                    } else {
                        ObstacleKind::StopsMovement
                    };
                    push(&mut v, k, a.outline.clone());
                }
            }
            TerrainFeature::River(rv) if purpose == Purpose::Flee => {
                let half = rv.width * 0.5;
                let already =
                    crate::terrain::polyline_distance_to_polygon(&rv.course, &inner) < half;
                if already {
                    continue;
                }
                for s in rv.course.windows(2) {
                    let d = s[1] - s[0];
                    let len = d.length();
                    if len == 0.0 {
                        continue;
                    }
                    let u = d * (1.0 / len);
                    let n = u.right() * half;
                    let (a, b) = (s[0] - u * half, s[1] + u * half);
                    push(
                        &mut v,
                        ObstacleKind::River,
                        Polygon::new(vec![a + n, b + n, b - n, a - n]),
                    );
                }
            }
            _ => {}
        }
    }
    for p in stronghold_outlines(ctx) {
        if !polygons_intersect(&inner, &p) {
            push(&mut v, ObstacleKind::Stronghold, p);
        }
    }
    v
}

/// Where a pursuer whose front has met `target` ends when it lines up (§12.5, §8.3): front to
/// front when the target faces it, on its rear when it faces away, else on the nearer flank with
/// front corners together.
fn line_up_pose(me: &ElementRect, target: &ElementRect) -> Pose {
    let tp = target.pose;
    let d = (tp.facing - me.pose.facing).rem_euclid(360.0);
    let d = if d > 180.0 { d - 360.0 } else { d };
    if d.abs() >= 135.0 {
        return Pose::new(tp.x, tp.y, tp.facing + 180.0);
    }
    if d.abs() <= 45.0 {
        let m = tp.front_mid() - tp.forward() * target.depth;
        return Pose::new(m.x, m.y, tp.facing);
    }
    let front = me.pose.front_mid();
    let left = target.edge(Edge::Left).distance_to_point(front);
    let right = target.edge(Edge::Right).distance_to_point(front);
    if left <= right {
        let c = target.corner(Corner::FrontLeft) - tp.forward() * 0.5;
        Pose::new(c.x, c.y, tp.facing + 90.0)
    } else {
        let c = target.corner(Corner::FrontRight) - tp.forward() * 0.5;
        Pose::new(c.x, c.y, tp.facing + 270.0)
    }
}
