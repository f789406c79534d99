//! The referee of tactical moves: [`plan_move`] turns an order into the paths of its movers
//! (single element, group, column, into contact), and [`validate`] checks those paths against
//! §7 and §8, whatever order produced them.

use crate::contact::{
    classify_contact, classify_with_outlines, may_contact_edge, ContactKind, ContactPart,
};
use crate::few::Few;
use crate::geometry::{
    convex_hull, finite_bounds, Corner, Edge, ElementRect, Point, Polygon, Pose, TOLERANCE,
};
use crate::terrain::{
    polygons_intersect, polyline_distance_to_polygon, polyline_distance_to_segment, Going,
    GoingContext, RiverState, TerrainFeature,
};
use crate::troops::{ElementKind, TroopType};
use crate::zones::{KeptZone, ZoneRelation};

use super::geom::{angle_diff, legs, legs_of, local, overlaps, pose_at, same_facing, Leg, Piece};
use super::{
    ContactWanted, ElementMove, Flank, GroupStep, MoveContext, MoveError, MoveOrder, MovePlan,
    Refusals,
};
use crate::battle::cache::Projector;
use crate::battle::setup::ElementId;

mod going;
mod groups;
mod in_the_way;
mod into_contact;
mod passage;
mod strongholds;
mod threat_zones;

use going::*;
use groups::*;
use in_the_way::*;
pub(crate) use into_contact::front_to_front;
use into_contact::*;
pub use passage::GATE_REACH;
use strongholds::*;
use threat_zones::*;

/// Whether the element at `idx` of `ctx.elements` is in close combat (§7.1, §10.2): its front
/// edge in a lined-up contact with an enemy (§8.2 a–c), or an enemy's front edge lined up against
/// it. Lost elements are never in close combat and never hold anyone in it.
pub fn in_close_combat(ctx: &MoveContext, idx: usize) -> bool {
    if let Some(known) = ctx.close_combat.and_then(|f| f.get(idx)) {
        debug_assert_eq!(
            known,
            in_close_combat(
                &MoveContext {
                    close_combat: None,
                    ..*ctx
                },
                idx
            ),
            "a memoised close-combat flag differs from a fresh computation"
        );
        return known;
    }
    let me = &ctx.elements[idx];
    if !me.in_play() {
        return false;
    }
    let r = me.rect(ctx.config);
    let holds = |o: &crate::battle::state::ElementState, or: &ElementRect| {
        o.in_play()
            && o.army != me.army
            && classify_contact(&r, or)
                .is_some_and(|c| (c.lined_up && is_combat_contact(c.kind)) || must_conform(&c))
    };
    // Only neighbours can touch: the grid lists every element within four tolerances (far more
    // than any contact's reach), in the same order.
    // With the grid, each element's contact outline is worked out once for the state, not once
    // per pair: the same classification ([`crate::contact::classify_with_outlines`]).
    let v = match ctx.grid() {
        Some(g) => g
            .find_near(g.corners(idx), NEAR_CONTACT, |j| {
                let o = &ctx.elements[j];
                (o.in_play()
                    && o.army != me.army
                    && classify_with_outlines(
                        (g.rect(idx), g.outline(idx)),
                        (g.rect(j), g.outline(j)),
                    )
                    .is_some_and(|c| (c.lined_up && is_combat_contact(c.kind)) || must_conform(&c)))
                .then_some(())
            })
            .is_some(),
        None => ctx.elements.iter().any(|o| holds(o, &o.rect(ctx.config))),
    };
    if let Some(f) = ctx.close_combat {
        f.set(idx, v);
    }
    v
}

/// How far off the grid looks for elements that may touch (a contact is within one tolerance).
const NEAR_CONTACT: f64 = 4.0 * TOLERANCE;

/// The indices of the elements that may lie within `margin` of `pts` (every element when the
/// context has no per-state grid), ascending: a pre-test that never drops one the exact test
/// would keep.
fn near_indices(ctx: &MoveContext, pts: &[Point], margin: f64) -> Vec<usize> {
    match ctx.grid() {
        Some(g) => g.near(pts, margin),
        None => (0..ctx.elements.len()).collect(),
    }
}

/// The first `Some` that `f` gives for the elements [`near_indices`] lists, in its order: the
/// same answer without the list (#15).
fn find_near<T>(
    ctx: &MoveContext,
    pts: &[Point],
    margin: f64,
    f: impl FnMut(usize) -> Option<T>,
) -> Option<T> {
    match ctx.grid() {
        Some(g) => g.find_near(pts, margin, f),
        None => (0..ctx.elements.len()).find_map(f),
    }
}

/// Element `j`'s corners, from the per-state grid when there is one.
fn corners_of(ctx: &MoveContext, j: usize) -> [Point; 4] {
    match ctx.grid() {
        Some(g) => *g.corners(j),
        None => rect(ctx, j).corners(),
    }
}

/// Front edges (or a front corner and a front edge) that touch without lining up (§8.3): the two
/// must conform, and if neither can they fight as if in full front contact.
pub fn must_conform(c: &crate::contact::Contact) -> bool {
    !c.lined_up
        && match c.kind {
            ContactKind::FrontToFront => true,
            ContactKind::CornerToEdge | ContactKind::EdgeToCorner => is_front(c.a) && is_front(c.b),
            _ => false,
        }
}

fn is_combat_contact(k: ContactKind) -> bool {
    matches!(
        k,
        ContactKind::FrontToFront
            | ContactKind::FrontToRear
            | ContactKind::RearToFront
            | ContactKind::FrontToSide
            | ContactKind::SideToFront
    )
}

/// Plan a tactical move (§7, §8): every mover's final pose and what the move does, or the rule
/// that forbids it. Pure: nothing in `ctx` changes.
pub fn plan_move(ctx: &MoveContext, order: &MoveOrder) -> Result<MovePlan, MoveError> {
    match order {
        MoveOrder::Element { id, path } => {
            let idx = index_of(ctx, *id)?;
            check_may_move(ctx, idx)?;
            if path.is_empty() {
                return Err(MoveError::refused("§7.2", "a move needs at least one pose"));
            }
            let e = &ctx.elements[idx];
            // The poses snapped as they are read, without a list of them (#15).
            let path = path.iter().map(|p| p.snapped());
            let mover = MoverPath {
                idx,
                legs: legs_of(e.pose, path, 1.0, ctx.config.depth(e.kind)),
            };
            validate(ctx, Proposal::new(Shape::Single, vec![mover]))
        }
        MoveOrder::Group { ids, steps } => plan_group(ctx, ids, steps),
        MoveOrder::Column { ids, path } => plan_column(ctx, ids, path),
        MoveOrder::IntoContact {
            ids,
            target,
            contact,
        } => plan_into_contact(ctx, ids, *target, *contact),
        MoveOrder::Dismount { id } => plan_dismount(ctx, *id),
        MoveOrder::ThroughCity { ids, city } => passage::plan_through_city(ctx, ids, *city),
    }
}

pub(crate) fn index_of(ctx: &MoveContext, id: ElementId) -> Result<usize, MoveError> {
    ctx.elements
        .iter()
        .position(|e| e.id == id)
        .ok_or(MoveError::UnknownElement { id })
}

fn rect(ctx: &MoveContext, idx: usize) -> ElementRect {
    ctx.elements[idx].rect(ctx.config)
}

/// Checks that the element may make a tactical move at all (§7.1).
fn check_may_move(ctx: &MoveContext, idx: usize) -> Result<(), MoveError> {
    let e = &ctx.elements[idx];
    if !e.in_play() {
        return Err(MoveError::NotMovable {
            id: e.id,
            reason: "it has been lost".into(),
        });
    }
    if e.army != ctx.army {
        return Err(MoveError::NotMovable {
            id: e.id,
            reason: "it is not its army's bound".into(),
        });
    }
    if in_close_combat(ctx, idx) {
        return Err(MoveError::InCloseCombat { id: e.id });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Proposals: the paths an order asks for
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct MoverPath {
    idx: usize,
    legs: Few<Leg>,
}

impl MoverPath {
    fn start(&self) -> ElementRect {
        self.legs[0].from
    }
    fn end(&self) -> ElementRect {
        self.legs[self.legs.len() - 1].to
    }
    fn distance(&self) -> f64 {
        self.legs.iter().map(|l| l.distance()).sum()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Single,
    Group,
    Column,
}

#[derive(Debug, Clone)]
struct Proposal {
    shape: Shape,
    movers: Vec<MoverPath>,
    /// The movers move one after another (forming a column, §7.4): each meets the earlier ones
    /// where they ended and the later ones where they still stand.
    sequential: bool,
    /// The move lines up in close combat (an into-contact order): an element crossing a river
    /// may turn as little as that needs (§3.5, §7.8).
    lining_up: bool,
}

impl Proposal {
    fn new(shape: Shape, movers: Vec<MoverPath>) -> Proposal {
        Proposal {
            shape,
            movers,
            sequential: false,
            lining_up: false,
        }
    }

    /// §7.2, §7.4: the furthest any front corner moves (each element of a group or column moves
    /// the same distance, so the largest counts).
    fn distance(&self) -> f64 {
        self.movers.iter().map(|m| m.distance()).fold(0.0, f64::max)
    }

    fn is_mover(&self, j: usize) -> bool {
        self.movers.iter().any(|m| m.idx == j)
    }
}

// ---------------------------------------------------------------------------------------------
// Second moves (§7.5)
// ---------------------------------------------------------------------------------------------

/// Whether a Psiloi second move may end in this going (§7.5): bad, or with the §17.50 switch
/// rough as well.
fn psiloi_second_move_end(ctx: &MoveContext, end: Going) -> bool {
    end == Going::Bad || (ctx.config.moves.psiloi_second_move_into_rough && end == Going::Rough)
}

fn check_second_move(
    ctx: &MoveContext,
    p: &Proposal,
    along_road: bool,
    going: Going,
) -> Result<(), MoveError> {
    let again = p
        .movers
        .iter()
        .any(|m| ctx.elements[m.idx].moves_this_bound >= 1);
    if !again || along_road {
        return Ok(());
    }
    // Never starting or passing within 1 BW of enemy.
    for m in &p.movers {
        let mut pieces: Vec<Piece> = vec![Piece::of(&m.start().corners())];
        pieces.extend(m.legs.iter().flat_map(|l| l.swept()));
        for (j, o) in ctx.elements.iter().enumerate() {
            if !o.in_play() || o.army == ctx.army {
                continue;
            }
            let er = rect(ctx, j).polygon();
            for piece in &pieces {
                if piece.len() >= 3 && Polygon::new(piece.to_vec()).within(&er, 1.0 + TOLERANCE) {
                    return Err(MoveError::refused(
                        "§7.5",
                        format!(
                            "a second or later move may not start or pass within 1 BW of enemy (element {})",
                            o.id
                        ),
                    ));
                }
            }
        }
    }
    for m in &p.movers {
        let e = &ctx.elements[m.idx];
        let n = e.moves_this_bound;
        let tt = e.kind.troop_type();
        let ok = if tt == TroopType::LH || e.kind.is_mounted_infantry() {
            n < 3 && going == Going::Good
        } else if tt == TroopType::Ps {
            n < 2
                && (ctx.first_bound_of_army
                    || (rect_going(ctx, m.idx, &m.start()) == Going::Good
                        && psiloi_second_move_end(ctx, rect_going(ctx, m.idx, &m.end()))))
        } else {
            false
        };
        if !ok {
            return Err(MoveError::refused(
                "§7.5",
                format!(
                    "element {} may not make move {} this bound: only Light Horse and mounted infantry (2nd and 3rd, wholly in good going), Psiloi (2nd, in their first bound or from good into bad going) and moves along a road may move again",
                    e.id,
                    n + 1
                ),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Validation of a proposal
// ---------------------------------------------------------------------------------------------

fn on_board(ctx: &MoveContext, r: &ElementRect) -> bool {
    r.corners()
        .iter()
        .all(|&p| ctx.battlefield.board.contains(p))
}

/// What limits a move's distance, kept to be put in words only if the move is refused as too
/// far: the element, its kind, the going on its path and the area feature giving that going.
type TooFarLimit = (
    ElementId,
    ElementKind,
    Going,
    Option<(usize, crate::terrain::AreaKind)>,
);

struct Checked {
    along_road: bool,
    allowed: f64,
}

/// The pieces a mover's legs sweep, leg by leg; a one-leg move's own pieces as they are (#15).
fn swept_pieces(legs: &[Leg]) -> Few<Piece> {
    match legs {
        [only] => only.swept(),
        legs => legs.iter().flat_map(|l| l.swept()).collect(),
    }
}

/// Every check that does not depend on contact: movers, board, terrain, distance, second moves,
/// elements in the way.
///
/// When any refusal will do ([`Refusals::Any`]), the elements in the way are looked for before
/// the going and the distance: most moves a driver tries and the battle refuses are blocked
/// (#15: about three in four), and the going is the costly part. Every check reads only the
/// context and the proposal, none reads another's result, and a move is accepted only when it
/// passes them all, so the order decides only which refusal is given.
fn check_paths(ctx: &MoveContext, p: &Proposal, slide: f64) -> Result<Checked, MoveError> {
    for m in &p.movers {
        check_may_move(ctx, m.idx)?;
        let id = ctx.elements[m.idx].id;
        if m.legs.iter().any(|l| !on_board(ctx, &l.to)) {
            return Err(MoveError::OffTable { id });
        }
    }
    // Each mover's swept pieces, for the going and for `check_in_the_way`: a lone mover's
    // without a list of one (#15).
    let (one, many): (Few<Piece>, Vec<Few<Piece>>);
    let swept: &[Few<Piece>] = match &p.movers[..] {
        [m] => {
            one = swept_pieces(&m.legs);
            std::slice::from_ref(&one)
        }
        movers => {
            many = movers.iter().map(|m| swept_pieces(&m.legs)).collect();
            &many
        }
    };
    let early = ctx.refusals == Refusals::Any;
    if early {
        check_in_the_way(ctx, p, swept)?;
    }
    let along_road = p.movers.iter().all(|m| {
        // A one-leg move's two midpoints without a list (#15).
        if let [leg] = &m.legs[..] {
            let mids = [m.start().pose.front_mid(), leg.to.pose.front_mid()];
            return ctx.battlefield.move_along_road(&mids);
        }
        let mut mids = Vec::with_capacity(m.legs.len() + 1);
        mids.push(m.start().pose.front_mid());
        mids.extend(m.legs.iter().map(|l| l.to.pose.front_mid()));
        ctx.battlefield.move_along_road(&mids)
    });
    let mut going = Going::Good;
    // The first river a mover's front edge reaches, by its feature number.
    let mut river: Option<usize> = None;
    let mut allowed = f64::INFINITY;
    // What limits the move, put in words only when the move is refused as too far.
    let mut limit: Option<TooFarLimit> = None;
    let mut river_limits = false;
    for (m, pieces) in p.movers.iter().zip(swept) {
        let e = &ctx.elements[m.idx];
        let (g, feature) = going_and_feature_of(ctx, going_context(ctx, m.idx), pieces);
        if g == Going::Impassable {
            return Err(MoveError::Terrain {
                id: e.id,
                rule: "§3.4".into(),
                terrain: "a waterway".into(),
            });
        }
        if !along_road && g == Going::Bad && !ctx.config.kind(e.kind.base()).may_enter_bad_going {
            return Err(MoveError::Terrain {
                id: e.id,
                rule: "§7.3".into(),
                terrain: "bad going off-road".into(),
            });
        }
        going = going.max(g);
        river = river.or_else(|| front_ever_in_river(ctx, &m.legs));
        let own_going = if along_road { Going::Good } else { g };
        let own = ctx.config.move_distance(e.kind, own_going >= Going::Rough);
        if own < allowed {
            allowed = own;
            let area = feature.and_then(|i| match &ctx.battlefield.features[i] {
                TerrainFeature::Area(a) => Some((i, a.kind)),
                _ => None,
            });
            limit = Some((e.id, e.kind, own_going, area));
        }
    }
    let all_psiloi = p
        .movers
        .iter()
        .all(|m| ctx.elements[m.idx].kind.troop_type() == TroopType::Ps);
    if p.shape == Shape::Group && (along_road || going == Going::Bad) && !all_psiloi {
        return Err(MoveError::refused(
            "§7.4",
            "a group moving along a road or through bad going must be a column unless it is all Psiloi",
        ));
    }
    if let Some(feature) = river.filter(|_| !along_road) {
        match ctx.river {
            None => return Err(MoveError::RiverNotDiced { feature }),
            Some(RiverState::Paltry) => {}
            Some(state) => {
                if 1.0 < allowed {
                    river_limits = true;
                }
                allowed = allowed.min(1.0);
                if state == RiverState::SlowsNarrow && p.shape == Shape::Group {
                    return Err(MoveError::refused(
                        "§3.5",
                        format!(
                            "the river (feature {feature}) is slow with banks and a narrow \
                             crossing: only single elements and columns cross it"
                        ),
                    ));
                }
            }
        }
    }
    let distance = p.distance();
    if distance > allowed + slide + TOLERANCE {
        let cause = if let Some(feature) = river.filter(|_| river_limits) {
            format!(
                "the path crosses the river (feature {feature}), which slows every move across \
                 it to 1 BW (§3.5, §7.8)"
            )
        } else {
            limit.map_or_else(String::new, |(id, kind, going, area)| {
                too_far_cause(id, kind, going, along_road, allowed, p.movers.len(), area)
            })
        };
        return Err(MoveError::TooFar {
            asked: distance,
            allowed,
            cause,
        });
    }
    check_second_move(
        ctx,
        p,
        along_road,
        if along_road { Going::Good } else { going },
    )?;
    if !early {
        check_in_the_way(ctx, p, swept)?;
    }
    check_walls(ctx, p)?;
    check_stronghold_contact(ctx, p)?;
    Ok(Checked {
        along_road,
        allowed,
    })
}

/// Checks a proposal and builds its plan, conforming at the end if needed (§8.3).
fn validate(ctx: &MoveContext, p: Proposal) -> Result<MovePlan, MoveError> {
    let checked = check_paths(ctx, &p, 0.0)?;
    if !p.lining_up {
        check_river_angle(ctx, &p)?;
    }
    check_threat_zones(ctx, &p, checked.allowed)?;
    let (touches, _) = end_contacts(ctx, &p)?;
    // The pair sharing the most front edge lines up (the first such pair on a tie).
    let conform = touches
        .iter()
        .filter_map(|t| match t {
            Touch::Conform {
                mover,
                enemy,
                shared,
            } => Some((*mover, *enemy, *shared)),
            Touch::Legal => None,
        })
        .fold(None::<(usize, usize, f64)>, |best, c| match best {
            Some(b) if b.2 >= c.2 => Some(b),
            _ => Some(c),
        })
        .map(|(m, e, _)| (m, e));
    let Some((mover, enemy)) = conform else {
        return finish(ctx, &p, &checked, Vec::new());
    };
    // §8.3: a group meeting a lone element makes it conform, unless it stands wholly in rough or
    // bad going; otherwise the mover conforms with its own move plus a slide of under 1 BW.
    let m = p.movers.iter().find(|m| m.idx == mover).expect("mover");
    // The contacted element conforming to the mover, if it is free to and has room (§8.3).
    let enemy_conforms = || -> Option<ElementMove> {
        if in_close_combat(ctx, enemy) {
            return None;
        }
        let e = &ctx.elements[enemy];
        let to = front_to_front(&m.end().pose).snapped();
        let new_rect = ElementRect::new(to, 1.0, ctx.config.depth(e.kind));
        let (slide_x, _) = local(&e.pose, to.front_mid());
        let clear = slide_x.abs() < 1.0
            && on_board(ctx, &new_rect)
            && rect_going(ctx, enemy, &new_rect) != Going::Impassable
            && ctx.elements.iter().enumerate().all(|(k, o)| {
                k == enemy
                    || !o.in_play()
                    || p.is_mover(k)
                    || !overlaps(&new_rect.corners(), &o.rect(ctx.config).corners())
            })
            && p.movers
                .iter()
                .all(|q| !overlaps(&new_rect.corners(), &q.end().corners()));
        clear.then_some(ElementMove {
            id: e.id,
            from: e.pose,
            to,
            becomes: None,
        })
    };
    if p.shape != Shape::Single
        && !in_a_group(ctx, enemy)
        && !wholly_rough_or_bad(ctx, enemy)
        && !in_close_combat(ctx, enemy)
    {
        // §8.3: if it cannot conform, the pair fights as if in full front contact, the
        // contacted element counting as overlapped (see `battle::engagement`).
        let extra = enemy_conforms().into_iter().collect();
        return finish(ctx, &p, &checked, extra);
    }
    // The movers conform: turn and slide the contacting element onto the enemy's front edge, and
    // every other mover with it. Where troops, terrain or the spacing of the enemy stop them,
    // the contacted element conforms instead, or the pair fights as §8.3 says: the move stands.
    match movers_conform(ctx, &p, m, enemy) {
        Ok(plan) => Ok(plan),
        Err(_) => {
            let extra = enemy_conforms().into_iter().collect();
            finish(ctx, &p, &checked, extra)
        }
    }
}

/// The movers lining up on `enemy` with their own move plus a slide of less than 1 BW (§8.3).
fn movers_conform(
    ctx: &MoveContext,
    p: &Proposal,
    m: &MoverPath,
    enemy: usize,
) -> Result<MovePlan, MoveError> {
    let want = front_to_front(&rect(ctx, enemy).pose);
    let have = m.end().pose;
    let turn = angle_diff(have.facing, want.facing);
    let moved = want.front_mid() - (have.front_mid());
    let (slide_x, _) = local(&have, want.front_mid());
    let slide = slide_x.abs();
    if slide >= 1.0 {
        return Err(MoveError::refused(
            "§8.3",
            "lining up would need a sideways slide of 1 BW or more",
        ));
    }
    let mut q = p.clone();
    for mv in &mut q.movers {
        let end = mv.end();
        let pivot = have.front_mid();
        let rotated = super::geom::rotate_pose(&end.pose, pivot, turn);
        let to = Pose::new(rotated.x + moved.x, rotated.y + moved.y, rotated.facing).snapped();
        mv.legs.push(Leg::new(end.pose, to, 1.0, end.depth));
    }
    let checked = check_paths(ctx, &q, slide)?;
    let (touches, _) = end_contacts(ctx, &q)?;
    if touches.iter().any(|t| matches!(t, Touch::Conform { .. })) {
        return Err(MoveError::refused(
            "§8.2",
            "the move cannot end lined up with the enemy it touches",
        ));
    }
    finish(ctx, &q, &checked, Vec::new())
}

fn finish(
    ctx: &MoveContext,
    p: &Proposal,
    checked: &Checked,
    conforming: Vec<ElementMove>,
) -> Result<MovePlan, MoveError> {
    let distance = p.distance();
    let (_, any_contact) = end_contacts(ctx, p)?;
    let forward = p.movers.iter().all(|m| {
        m.legs
            .iter()
            .all(|l| l.shift().dot(l.from.pose.forward()) >= -TOLERANCE)
    });
    let mut moves: Vec<ElementMove> = p
        .movers
        .iter()
        .map(|m| {
            let e = &ctx.elements[m.idx];
            ElementMove {
                id: e.id,
                from: e.pose,
                to: m.end().pose.snapped(),
                becomes: None,
            }
        })
        .collect();
    moves.extend(conforming);
    Ok(MovePlan {
        movers: p.movers.iter().map(|m| ctx.elements[m.idx].id).collect(),
        moves,
        distance,
        along_road: checked.along_road,
        full_distance_forward: checked.along_road
            && p.shape != Shape::Group
            && forward
            && distance >= checked.allowed - TOLERANCE,
        into_contact: any_contact,
    })
}

// ---------------------------------------------------------------------------------------------
// Dismounting (§7.9)
// ---------------------------------------------------------------------------------------------

fn plan_dismount(ctx: &MoveContext, id: ElementId) -> Result<MovePlan, MoveError> {
    let idx = index_of(ctx, id)?;
    check_may_move(ctx, idx)?;
    let e = &ctx.elements[idx];
    let Some(foot) = e.dismounts_as else {
        return Err(MoveError::refused(
            "§7.9",
            format!("element {id} ({}) cannot dismount", e.kind.code()),
        ));
    };
    if e.moves_this_bound > 0 {
        return Err(MoveError::refused(
            "§7.9",
            "dismounting uses the element's whole tactical move",
        ));
    }
    let r = rect(ctx, idx);
    if let Some(o) = ctx.elements.iter().find(|o| {
        o.in_play() && o.army != e.army && classify_contact(&r, &o.rect(ctx.config)).is_some()
    }) {
        return Err(MoveError::refused(
            "§7.9",
            format!(
                "element {id} may not dismount in contact with enemy element {}",
                o.id
            ),
        ));
    }
    let zones = enemy_zones(ctx);
    if zones.iter().any(|(_, z)| z.view().holds(&r)) {
        return Err(MoveError::refused(
            "§7.9",
            format!("element {id} may not dismount in an enemy threat zone"),
        ));
    }
    Ok(MovePlan {
        movers: vec![id],
        moves: vec![ElementMove {
            id,
            from: e.pose,
            to: e.pose,
            becomes: Some(foot),
        }],
        distance: 0.0,
        along_road: false,
        full_distance_forward: false,
        into_contact: false,
    })
}

/// What limits a move, in a player's words: the going the path of element `id` enters (or the
/// road it keeps to) and how far its troop type moves there (§7.3).
/// What limits a move, in a player's words: the feature the path enters (the going of the
/// worst feature entered) and the troop type, e.g. "the path enters the wood (feature 2), bad
/// going for Knights: at most 1 BW (§7.3)".
fn too_far_cause(
    id: ElementId,
    kind: ElementKind,
    going: Going,
    along_road: bool,
    distance: f64,
    movers: usize,
    feature: Option<(usize, crate::terrain::AreaKind)>,
) -> String {
    let troops = kind.base().name();
    let whose = if movers > 1 {
        format!("the path of element {id}")
    } else {
        "the path".to_string()
    };
    let bw = super::bw_text(distance);
    let going_name = match going {
        Going::Rough => "rough going",
        _ => "bad going",
    };
    let entered = match feature {
        Some((i, k)) => format!("the {} (feature {i}), {going_name}", k.game_name()),
        None => going_name.to_string(),
    };
    match (along_road, going) {
        (true, _) => format!("{troops} moving along the road: at most {bw} (§7.3)"),
        (false, Going::Good) => format!("{troops} in good going: at most {bw} (§7.3)"),
        (false, _) => format!("{whose} enters {entered} for {troops}: at most {bw} (§7.3)"),
    }
}
