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
use crate::battle::setup::ElementId;

mod passage;
pub use passage::GATE_REACH;

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
// Terrain
// ---------------------------------------------------------------------------------------------

fn going_context(ctx: &MoveContext, idx: usize) -> GoingContext {
    GoingContext {
        camel_mounted: ctx.elements[idx].kind.is_camel_mounted(),
        plough_is_rough: ctx.plough_rough,
    }
}

/// The worst going met by the convex pieces (each shrunk by [`TOLERANCE`] so that a touch is not
/// being in a feature, §3.1).
fn going_of(ctx: &MoveContext, gctx: GoingContext, pieces: &[Piece]) -> Going {
    going_and_feature_of(ctx, gctx, pieces).0
}

/// The worst going the pieces enter, with the first feature found giving it (its index among
/// the battlefield's features), so that a refusal can name it.
fn going_and_feature_of(
    ctx: &MoveContext,
    gctx: GoingContext,
    pieces: &[Piece],
) -> (Going, Option<usize>) {
    let mut going = Going::Good;
    let mut feature = None;
    // The features' boxes from the per-state memo when there is one (#15).
    let area_boxes = ctx
        .close_combat
        .and_then(|m| m.area_boxes(ctx).of_table(ctx.battlefield));
    for piece in pieces {
        // Box pre-test on the piece as it is, pure speed: the shrunk piece lies within it, so a
        // piece whose box is apart from the box of every feature that could make the going worse
        // meets none of them (the exact test would also say so), and needs no shrinking. The
        // piece's box is worked out once for every feature (`bounds_apart` answers as
        // `boxes_apart`).
        let piece_box = area_boxes.map(|_| super::super::grid::bounds_of(piece));
        let near_any = ctx
            .battlefield
            .features
            .iter()
            .enumerate()
            .any(|(i, f)| match f {
                TerrainFeature::Area(a) => {
                    a.going(gctx).is_some_and(|g| g > going)
                        && !match (area_boxes, piece_box) {
                            (Some(boxes), Some(pb)) => super::super::grid::bounds_apart(
                                pb,
                                super::super::grid::bounds_of_box(boxes[i]),
                                1e-6,
                            ),
                            _ => crate::geometry::boxes_apart(piece, &a.outline.points, 1e-6),
                        }
                }
                // Its band's box, on the board's edge, against the piece's own (#15: every piece
                // of every move was shrunk and met with the band built afresh, on any table
                // with water); the slack is far above the rounding of the band's points.
                TerrainFeature::Waterway(w) => {
                    going < Going::Impassable
                        && !super::super::grid::bounds_apart(
                            super::super::grid::bounds_of(piece),
                            w.water_bounds(&ctx.battlefield.board),
                            1e-6,
                        )
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => false,
            });
        if !near_any {
            debug_assert!(
                going == Going::Impassable
                    || super::geom::inset_convex(piece, TOLERANCE).is_none_or(|inner| {
                        let poly = Polygon::new(inner);
                        ctx.battlefield.features.iter().all(|f| match f {
                            TerrainFeature::Waterway(w) => {
                                !polygons_intersect(&poly, &w.water_polygon(&ctx.battlefield.board))
                            }
                            _ => true,
                        })
                    }),
                "a piece passed over by the box test meets the water"
            );
            continue;
        }
        let Some(inner) = super::geom::inset_convex(piece, TOLERANCE) else {
            continue;
        };
        let poly = Polygon::new(inner);
        for (i, f) in ctx.battlefield.features.iter().enumerate() {
            match f {
                TerrainFeature::Area(a) => {
                    if let Some(g) = a.going(gctx) {
                        if g > going && polygons_intersect(&poly, &a.outline) {
                            going = g;
                            feature = Some(i);
                        }
                    }
                }
                TerrainFeature::Waterway(w) => {
                    if going < Going::Impassable
                        && polygons_intersect(&poly, &w.water_polygon(&ctx.battlefield.board))
                    {
                        going = Going::Impassable;
                        feature = Some(i);
                    }
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => {}
            }
        }
    }
    (going, feature)
}

fn rect_going(ctx: &MoveContext, idx: usize, r: &ElementRect) -> Going {
    going_of(ctx, going_context(ctx, idx), &[Piece::of(&r.corners())])
}

/// Whether the element stands wholly in rough or bad going (§8.3): every corner inside some area
/// of rough or bad going.
fn wholly_rough_or_bad(ctx: &MoveContext, idx: usize) -> bool {
    let gctx = going_context(ctx, idx);
    rect(ctx, idx).corners().iter().all(|&p| {
        ctx.battlefield
            .areas()
            .any(|(_, a)| a.going(gctx).is_some_and(|g| g >= Going::Rough) && a.outline.contains(p))
    })
}

/// The river the front edge reaches, moving along the legs, by its feature number: the first
/// river of the battlefield's list it reaches on the first leg that reaches one (§7.3, §7.8).
fn front_ever_in_river(ctx: &MoveContext, legs: &[Leg]) -> Option<usize> {
    let rivers: Vec<_> = ctx
        .battlefield
        .features
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            TerrainFeature::River(r) => Some((i, r)),
            _ => None,
        })
        .collect();
    if rivers.is_empty() {
        return None;
    }
    legs.iter().find_map(|l| {
        let a = l.from.edge(Edge::Front);
        let b = l.to.edge(Edge::Front);
        let hull = convex_hull(&[a.a, a.b, b.a, b.b]).points;
        rivers.iter().find_map(|&(i, r)| {
            let reach = r.width * 0.5 - TOLERANCE;
            let reached = if hull.len() >= 3 {
                polyline_distance_to_polygon(&r.course, &Polygon::new(hull.clone())) < reach
            } else {
                polyline_distance_to_segment(&r.course, &a) < reach
                    || polyline_distance_to_segment(&r.course, &b) < reach
            };
            reached.then_some(i)
        })
    })
}

/// §3.5, §7.8: an element whose front edge is in a river when the move begins is crossing it and
/// keeps the angle at which it entered until across. Reading: any river, whatever its state; the
/// element keeps its facing for the whole move (no leg may turn or wheel), except an into-contact
/// move and the conforming that follows a contact, which are the minimum needed to line up in
/// close combat. Once its front edge is out of the water it may turn again in a later move.
fn check_river_angle(ctx: &MoveContext, p: &Proposal) -> Result<(), MoveError> {
    for m in &p.movers {
        let start = m.start();
        let standing = Leg::new(start.pose, start.pose, 1.0, start.depth);
        let Some(river) = front_ever_in_river(ctx, std::slice::from_ref(&standing)) else {
            continue;
        };
        let turns = m
            .legs
            .iter()
            .any(|l| l.wheel.is_some() || !same_facing(l.to.pose.facing, start.pose.facing));
        if turns {
            return Err(MoveError::refused(
                "§7.8",
                format!(
                    "element {} is crossing the river (feature {river}) and must keep the angle at which it entered until across",
                    ctx.elements[m.idx].id
                ),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Cities, forts and camps (§4.2, §4.3, §4.7, §8.4)
// ---------------------------------------------------------------------------------------------

/// The army holding the stronghold with this outline, if any holds it (§4.2, §4.6).
fn holder(ctx: &MoveContext, outline: &Polygon) -> Option<usize> {
    ctx.strongholds
        .iter()
        .find(|s| s.perimeter == *outline)
        .map(|s| s.army)
}

/// Whether the convex pieces reach inside `outline` by more than the tolerance.
fn pieces_inside(pieces: &[Piece], outline: &Polygon) -> bool {
    pieces.iter().any(|piece| {
        super::geom::inset_convex(piece, TOLERANCE)
            .is_some_and(|inner| polygons_intersect(&Polygon::new(inner), outline))
    })
}

fn wholly_inside(r: &ElementRect, outline: &Polygon) -> bool {
    r.corners().iter().all(|&c| outline.contains(c))
}

/// Least distance from a segment to the outline's boundary.
fn gap_to_outline(seg: &crate::geometry::Segment, outline: &Polygon) -> f64 {
    outline
        .edges()
        .map(|e| e.distance_to_segment(seg))
        .fold(f64::INFINITY, f64::min)
}

/// Whether no edge of `r` can come within [`TOLERANCE`] of `outline`: their boxes are apart by
/// more than twice the tolerance and a slack far above rounding, on x or y (false when a
/// coordinate is not finite, so such values go to the exact tests). Every distance between the
/// element's edges and the outline's is then above the tolerance, so [`touches_outline`] and
/// [`front_on_outline`] are false. Pure speed (#15: every candidate move asks them of each
/// mover and each enemy camp, city and fort).
fn clear_of_outline(r: &ElementRect, outline: &Polygon) -> bool {
    let (Some(a), Some(b)) = (finite_bounds(&r.corners()), finite_bounds(&outline.points)) else {
        return false;
    };
    let size = [a.0, a.1, a.2, a.3, b.0, b.1, b.2, b.3]
        .iter()
        .fold(1.0f64, |m, v| m.max(v.abs()));
    let margin = 2.0 * TOLERANCE + 1e-9 * size;
    a.2 + margin < b.0 || b.2 + margin < a.0 || a.3 + margin < b.1 || b.3 + margin < a.1
}

/// The element touches the outline from outside (some edge within the tolerance, not inside).
fn touches_outline(r: &ElementRect, outline: &Polygon) -> bool {
    if clear_of_outline(r, outline) {
        return false;
    }
    [Edge::Front, Edge::Rear, Edge::Left, Edge::Right]
        .iter()
        .any(|&e| gap_to_outline(&r.edge(e), outline) <= TOLERANCE)
        && !pieces_inside(&[Piece::of(&r.corners())], outline)
}

/// Its front edge touches the outline from outside: it assaults the place (§4.7).
fn front_on_outline(r: &ElementRect, outline: &Polygon) -> bool {
    if clear_of_outline(r, outline) {
        return false;
    }
    gap_to_outline(&r.edge(Edge::Front), outline) <= TOLERANCE
        && !pieces_inside(&[Piece::of(&r.corners())], outline)
}

/// City and Fort walls (§4.2, §4.3). A City or Fort held by the enemy may only be assaulted by
/// front-edge contact: no mover may pass over or end partly inside its outline. One the mover's
/// own army holds may be entered or left, but not crossed. One nobody holds (empty, its denizens
/// gone) either side may move into or through (§4.2). No move ends astride the walls.
///
/// Reading where the digest leaves the geometry open: a move may reach inside a held outline only
/// if it starts or ends with the mover wholly inside it (leaving or entering). When the feature
/// lists gates, the mover's front-edge midpoint must cross the outline within ½ BW of one
/// ([`through_gates`]); a feature without gates (only possible in hand-made set-ups, since §4.2
/// terrain validation asks for them) is entered anywhere. Passing through one's own City
/// along a road (§4.2, §17.10, 1 PIP per element) is its own order, [`MoveOrder::ThroughCity`]:
/// an ordinary path across a City its army holds is refused here.
/// Camps have no walls: what an enemy entering a camp does is the battle's concern (§4.6).
fn check_walls(ctx: &MoveContext, p: &Proposal) -> Result<(), MoveError> {
    for (_, a) in ctx.battlefield.areas() {
        if !a.kind.is_fortified() {
            continue;
        }
        let outline = &a.outline;
        let held = holder(ctx, outline);
        let held_by_enemy = held.is_some_and(|h| h != ctx.army);
        for m in &p.movers {
            let pieces = swept_pieces(&m.legs);
            if !pieces_inside(&pieces, outline) {
                continue;
            }
            let id = ctx.elements[m.idx].id;
            let rule = if a.kind == crate::terrain::AreaKind::Fort {
                "§4.3"
            } else {
                "§4.2"
            };
            let (start_in, end_in) = (
                wholly_inside(&m.start(), outline),
                wholly_inside(&m.end(), outline),
            );
            if held_by_enemy && !start_in {
                return Err(MoveError::refused(
                    rule,
                    format!(
                        "element {id} may not pass over the walls of a {:?} held by the enemy; it may only assault it by front-edge contact (§4.7)",
                        a.kind
                    ),
                ));
            }
            let end_partly = !end_in && pieces_inside(&[Piece::of(&m.end().corners())], outline);
            if end_partly || (held.is_some() && !(start_in || end_in)) {
                return Err(MoveError::refused(
                    rule,
                    format!(
                        "element {id} may not end astride the walls of a {:?}, nor cross one its own army holds; it enters or leaves by a move that starts or ends wholly inside",
                        a.kind
                    ),
                ));
            }
            if !a.gates.is_empty() && !through_gates(m, outline, &a.gates) {
                return Err(MoveError::refused(
                    rule,
                    format!(
                        "element {id} may enter or leave a {:?} only through a gate",
                        a.kind
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// §4.2, §4.3: every place where the mover's front-edge midpoint crosses the outline is within
/// ½ BW (half an element's width) of a gate. Reading: the gate is the point the set-up gives; an
/// element 1 BW wide passes it when its front edge is centred within half its width of it.
fn through_gates(m: &MoverPath, outline: &Polygon, gates: &[Point]) -> bool {
    let mut mids = vec![m.start().pose.front_mid()];
    mids.extend(m.legs.iter().map(|l| l.to.pose.front_mid()));
    mids.windows(2).all(|w| {
        outline
            .edges()
            .all(|e| match crossing(w[0], w[1], e.a, e.b) {
                Some(x) => gates.iter().any(|&g| g.distance(x) <= 0.5 + TOLERANCE),
                None => true,
            })
    })
}

/// Where segment `p0 p1` crosses segment `q0 q1`, if it does (parallel segments never cross).
fn crossing(p0: Point, p1: Point, q0: Point, q1: Point) -> Option<Point> {
    let r = p1 - p0;
    let s = q1 - q0;
    let den = r.cross(s);
    if den.abs() < 1e-12 {
        return None;
    }
    let t = (q0 - p0).cross(s) / den;
    let u = (q0 - p0).cross(r) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| p0 + r * t)
}

/// Who may contact a city, fort or camp held by the enemy, and how many (§4.7, §8.4): CP, Lit,
/// CWg, Art and WWg may not touch one (a WWg mobile tower may); Scythed Chariots may not touch one
/// with their front edge; at most 3 elements may be in front-edge contact with one. Only movers
/// that end touching without having started so are refused (moving *into* contact).
fn check_stronghold_contact(ctx: &MoveContext, p: &Proposal) -> Result<(), MoveError> {
    for s in ctx.strongholds.iter().filter(|s| s.army != ctx.army) {
        let outline = &s.perimeter;
        let mut new_front = false;
        for m in &p.movers {
            let e = &ctx.elements[m.idx];
            let (start, end) = (m.start(), m.end());
            if !touches_outline(&end, outline) || touches_outline(&start, outline) {
                continue;
            }
            let tower = e.kind.troop_type() == TroopType::WWg && e.mobile_tower;
            if e.kind.never_contacts_enemy() && !tower {
                return Err(MoveError::refused(
                    "§8.4",
                    format!(
                        "element {} ({}) may not move into contact with a city, fort or camp held by the enemy (§4.7)",
                        e.id,
                        e.kind.code()
                    ),
                ));
            }
            if front_on_outline(&end, outline) {
                if e.kind.troop_type() == TroopType::SCh {
                    return Err(MoveError::refused(
                        "§8.4",
                        format!(
                            "element {} (Scythed Chariots) may not move its front edge into contact with a city, fort or camp held by the enemy (§4.7)",
                            e.id
                        ),
                    ));
                }
                new_front = true;
            }
        }
        if !new_front {
            continue;
        }
        let assaulters = ctx
            .elements
            .iter()
            .enumerate()
            .filter(|(_, o)| o.in_play() && o.army != s.army)
            .filter(|(j, o)| {
                let r = match p.movers.iter().find(|m| m.idx == *j) {
                    Some(m) => m.end(),
                    None => o.rect(ctx.config),
                };
                front_on_outline(&r, outline)
            })
            .count();
        if assaulters > 3 {
            return Err(MoveError::refused(
                "§4.7",
                "at most 3 enemy elements may be in front-edge contact with one city, fort or camp",
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Threat zones
// ---------------------------------------------------------------------------------------------

use crate::battle::cache::Projector;

/// Every enemy threat zone against the moving army (§8.1): enemy elements not in close combat
/// (§17.15), all round for War Wagons; camps, cities and forts held by another army.
fn enemy_zones(ctx: &MoveContext) -> Vec<(Projector, KeptZone)> {
    // Room for every element and place at once (#15: growing it copied the zones three times).
    let mut v = Vec::with_capacity(ctx.elements.len() + ctx.strongholds.len());
    for (j, o) in ctx.elements.iter().enumerate() {
        if !o.in_play()
            || o.army == ctx.army
            || (!ctx.config.moves.close_combat_threat_zones && in_close_combat(ctx, j))
        {
            continue;
        }
        let all_round = o.kind.troop_type() == TroopType::WWg;
        v.push((
            Projector::Element(j),
            KeptZone::of_element(&o.rect(ctx.config), all_round),
        ));
    }
    for (k, s) in ctx.strongholds.iter().enumerate() {
        if s.army != ctx.army {
            v.push((
                Projector::Stronghold(k),
                KeptZone::Perimeter(s.perimeter.clone()),
            ));
        }
    }
    v
}

/// Where a mover first is in, or reaches, an enemy zone: (leg, distance along it, pose there,
/// projectors).
struct Entry {
    leg: usize,
    t: f64,
    pose: Pose,
    projectors: Vec<Projector>,
}

fn zone_entry(mover: &MoverPath, zones: &[&(Projector, KeptZone)]) -> Option<Entry> {
    for (li, leg) in mover.legs.iter().enumerate() {
        let holding = |r: &ElementRect| -> Vec<Projector> {
            zones
                .iter()
                .filter(|(_, z)| z.view().relation(r) != ZoneRelation::Outside)
                .map(|(p, _)| *p)
                .collect()
        };
        let at_start = holding(&leg.from);
        if !at_start.is_empty() {
            return Some(Entry {
                leg: li,
                t: 0.0,
                pose: leg.from.pose,
                projectors: at_start,
            });
        }
        if leg.turns() || leg.wheel.is_some() {
            let at_end = holding(&leg.to);
            if !at_end.is_empty() {
                return Some(Entry {
                    leg: li,
                    t: 0.0,
                    pose: leg.from.pose,
                    projectors: at_end,
                });
            }
            continue;
        }
        let shift = leg.shift();
        let len = shift.length();
        if len <= 0.0 {
            continue;
        }
        let hits: Vec<(f64, Projector)> = zones
            .iter()
            .filter_map(|(p, z)| {
                z.view()
                    .entry_distance(&leg.from, shift, len)
                    .map(|t| (t, *p))
            })
            .collect();
        if let Some(t) = hits.iter().map(|h| h.0).reduce(f64::min) {
            let at = leg.from.pose.front_mid() + shift * (t / len);
            return Some(Entry {
                leg: li,
                t,
                pose: Pose::new(at.x, at.y, leg.from.pose.facing),
                projectors: hits
                    .iter()
                    .filter(|h| h.0 <= t + TOLERANCE)
                    .map(|h| h.1)
                    .collect(),
            });
        }
    }
    None
}

/// Whether the mover meets every enemy zone, if at all, only at the very end of its move (§8.1,
/// the module's reading): its legs before the last never reach one, the last is straight, and
/// for each zone it ends in it ends on the outer boundary (within [`TOLERANCE`] of the gap, not
/// of the distance along the path, so that the same tolerance holds whatever the angle of
/// approach) and was closing on it all the way: the gap to a convex zone along a straight move
/// is convex, so a gap still shrinking at the end was larger everywhere before.
fn reaches_zones_only_at_end(m: &MoverPath, zones: &[&(Projector, KeptZone)]) -> bool {
    let Some((last, before)) = m.legs.split_last() else {
        return true;
    };
    let earlier = MoverPath {
        idx: m.idx,
        legs: before.iter().copied().collect(),
    };
    if !before.is_empty() && zone_entry(&earlier, zones).is_some() {
        return false;
    }
    let len = last.shift().length();
    if last.turns() || last.wheel.is_some() {
        return zones.iter().all(|(_, z)| {
            z.view().relation(&last.from) == ZoneRelation::Outside
                && z.view().relation(&last.to) == ZoneRelation::Outside
        });
    }
    let dir = last.shift();
    let at = |t: f64| {
        let c = last.from.pose.front_mid() + dir * (t / len.max(f64::MIN_POSITIVE));
        ElementRect::new(
            Pose::new(c.x, c.y, last.from.pose.facing),
            1.0,
            last.from.depth,
        )
    };
    zones.iter().all(|(_, z)| {
        let Some(t) = z.view().entry_distance(&last.from, dir, len) else {
            return true;
        };
        if t >= len - TOLERANCE && z.view().relation(&last.to) != ZoneRelation::Inside {
            return true;
        }
        if t <= 0.0 || z.view().relation(&last.to) != ZoneRelation::OnBoundary {
            return false;
        }
        let end = z.view().gap(&last.to);
        let step = (len - t).min(TOLERANCE);
        z.view().gap(&at(len - step)) >= end - 1e-12 && z.view().gap(&at(t)) > end + 1e-9
    })
}

/// §8.1 (b): every mover goes straight back, without turning, its full move distance.
fn straight_back_full(p: &Proposal, full: f64) -> bool {
    p.movers.iter().all(|m| {
        m.legs.len() == 1 && {
            let l = &m.legs[0];
            let f = l.from.pose.forward();
            let s = l.shift();
            !l.turns() && s.dot(f) <= -(full - TOLERANCE) && s.dot(f.right()).abs() <= TOLERANCE
        }
    })
}

/// §8.1 (a): the move advances to touch, or to square up to, the front edge of the projector.
fn advances_on(
    ctx: &MoveContext,
    p: &Proposal,
    m: &MoverPath,
    entry: &Pose,
    who: Projector,
) -> bool {
    match who {
        Projector::Element(j) => {
            let er = rect(ctx, j);
            let touches_front = p.movers.iter().any(|q| {
                classify_contact(&q.end(), &er).is_some_and(|c| {
                    matches!(
                        c.b,
                        Some(ContactPart::Edge(Edge::Front))
                            | Some(ContactPart::Corner(Corner::FrontLeft))
                            | Some(ContactPart::Corner(Corner::FrontRight))
                    ) && matches!(
                        c.a,
                        Some(ContactPart::Edge(Edge::Front))
                            | Some(ContactPart::Corner(Corner::FrontLeft))
                            | Some(ContactPart::Corner(Corner::FrontRight))
                    )
                })
            });
            if touches_front {
                return true;
            }
            // Advancing or squaring up: the front-edge midpoint gets nearer the line of the
            // enemy's front edge (moving along that line is not advancing) or the mover turns to
            // face it more squarely, without getting further from that line, further off to the
            // side of it, or less squarely faced.
            let end = m.end().pose;
            let dist = |q: &Pose| local(&er.pose, q.front_mid()).1.abs();
            let lat = |q: &Pose| local(&er.pose, q.front_mid()).0.abs();
            let ang = |q: &Pose| angle_diff(q.facing, er.pose.facing + 180.0).abs();
            let progress = dist(&end) < dist(entry) - TOLERANCE || ang(&end) < ang(entry) - 1e-6;
            progress
                && dist(&end) <= dist(entry) + TOLERANCE
                && lat(&end) <= lat(entry) + TOLERANCE
                && ang(&end) <= ang(entry) + 1e-6
        }
        Projector::Stronghold(k) => {
            let poly = &ctx.strongholds[k].perimeter;
            let d = |r: &ElementRect| {
                let rp = r.polygon();
                let mut best = f64::INFINITY;
                for e in poly.edges() {
                    for f in rp.edges() {
                        best = best.min(e.distance_to_segment(&f));
                    }
                }
                best
            };
            // §8.1 (a) reads "or contact that camp, city or fort": only ending in contact will do.
            p.movers.iter().any(|q| d(&q.end()) <= TOLERANCE)
        }
    }
}

/// The box (min x, min y, max x, max y) of every position the movers of `p` take: each leg's
/// start and end and the area it sweeps; `None` when a coordinate is not finite.
fn path_bounds(p: &Proposal) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    let mut add = |q: Point| {
        b = Some(match b {
            None => (q.x, q.y, q.x, q.y),
            Some(a) => (a.0.min(q.x), a.1.min(q.y), a.2.max(q.x), a.3.max(q.y)),
        });
    };
    for m in &p.movers {
        for leg in &m.legs {
            leg.from.corners().into_iter().for_each(&mut add);
            leg.to.corners().into_iter().for_each(&mut add);
            leg.swept()
                .iter()
                .flat_map(|p| p.iter().copied())
                .for_each(&mut add);
        }
    }
    b.filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite() && b.3.is_finite())
}

fn check_threat_zones(ctx: &MoveContext, p: &Proposal, full: f64) -> Result<(), MoveError> {
    // The zones of a battle state are worked out once for every move checked against it.
    let fresh;
    let zones: &[(Projector, KeptZone)] = match ctx
        .close_combat
        .and_then(|memo| memo.enemy_zones(ctx, || enemy_zones(ctx)))
    {
        Some(known) => known,
        None => {
            fresh = enemy_zones(ctx);
            &fresh
        }
    };
    // Only the zones near the path can be met on it: the box of every position of every leg
    // (its start, its end and what it sweeps) against each zone's box, with a margin far above
    // the tolerance of a touch. The zones keep their order, so every answer is as before. They
    // are lent, not copied (#15: a copy of every zone near every move checked).
    let bounds = path_bounds(p);
    let zones: Vec<&(Projector, KeptZone)> = zones
        .iter()
        .filter(|(_, z)| {
            let m = NEAR_CONTACT;
            bounds.is_none_or(|b| {
                z.view().bounds().is_none_or(|z| {
                    !(z.2 + m < b.0 || b.2 + m < z.0 || z.3 + m < b.1 || b.3 + m < z.1)
                })
            })
        })
        .collect();
    let zones = zones.as_slice();
    let mut first: Option<(usize, Entry)> = None;
    for (k, m) in p.movers.iter().enumerate() {
        if let Some(e) = zone_entry(m, zones) {
            let better = first
                .as_ref()
                .is_none_or(|(_, f)| (e.leg, e.t) < (f.leg, f.t));
            if better {
                first = Some((k, e));
            }
        }
    }
    let Some((k, entry)) = first else {
        return Ok(());
    };
    if entry.leg == 0 && entry.t <= TOLERANCE && straight_back_full(p, full) {
        return Ok(());
    }
    let m = &p.movers[k];
    // Reaching a zone's boundary with the very end of the move leaves nothing to restrict.
    if p.movers.iter().all(|q| reaches_zones_only_at_end(q, zones)) {
        return Ok(());
    }
    if entry
        .projectors
        .iter()
        .any(|&who| advances_on(ctx, p, m, &entry.pose, who))
    {
        return Ok(());
    }
    let enemies = entry
        .projectors
        .iter()
        .filter_map(|w| match w {
            Projector::Element(j) => Some(ctx.elements[*j].id),
            Projector::Stronghold(_) => None,
        })
        .collect();
    Err(MoveError::ThreatZone {
        id: ctx.elements[m.idx].id,
        enemies,
        full,
    })
}

// ---------------------------------------------------------------------------------------------
// Elements in the way and interpenetration (§7.2, §7.6)
// ---------------------------------------------------------------------------------------------

/// `r` lies wholly beyond `friend`'s rear edge and squarely within the lines of its sides.
fn squarely_behind(friend: &ElementRect, r: &ElementRect) -> bool {
    r.corners().iter().all(|&c| {
        let (x, y) = local(&friend.pose, c);
        y <= -friend.depth + TOLERANCE && x.abs() <= friend.width * 0.5 + TOLERANCE
    })
}

/// `r` lies wholly beyond `friend`'s front edge and squarely within the lines of its sides.
fn squarely_in_front(friend: &ElementRect, r: &ElementRect) -> bool {
    r.corners().iter().all(|&c| {
        let (x, y) = local(&friend.pose, c);
        y >= -TOLERANCE && x.abs() <= friend.width * 0.5 + TOLERANCE
    })
}

/// Some part of `r` lies straight in front of `friend` (between the lines of its sides, beyond
/// its front edge).
fn partly_in_front(friend: &ElementRect, r: &ElementRect) -> bool {
    let far = 1000.0;
    let strip = [
        pose_at(&friend.pose, -friend.width * 0.5, 0.0, 0.0).front_mid(),
        pose_at(&friend.pose, friend.width * 0.5, 0.0, 0.0).front_mid(),
        pose_at(&friend.pose, friend.width * 0.5, far, 0.0).front_mid(),
        pose_at(&friend.pose, -friend.width * 0.5, far, 0.0).front_mid(),
    ];
    overlaps(&r.corners(), &strip)
}

/// §7.6: mounted through friendly Psiloi, Psiloi through any friends, from partly in front to
/// squarely behind, or from squarely behind to squarely in front.
fn may_interpenetrate(ctx: &MoveContext, m: &MoverPath, j: usize) -> bool {
    let me = &ctx.elements[m.idx];
    let friend = &ctx.elements[j];
    if friend.army != me.army {
        return false;
    }
    let kinds_ok = me.kind.troop_type() == TroopType::Ps
        || (me.kind.is_mounted() && friend.kind.troop_type() == TroopType::Ps);
    if !kinds_ok {
        return false;
    }
    let fr = rect(ctx, j);
    let (start, end) = (m.start(), m.end());
    if overlaps(&end.corners(), &fr.corners()) {
        return false;
    }
    (partly_in_front(&fr, &start) && squarely_behind(&fr, &end))
        || (squarely_behind(&fr, &start) && squarely_in_front(&fr, &end))
}

/// `swept` holds, by mover, the pieces its legs sweep ([`Leg::swept`], leg after leg), worked
/// out once by [`check_paths`] for all its checks.
fn check_in_the_way(
    ctx: &MoveContext,
    p: &Proposal,
    swept: &[Few<Piece>],
) -> Result<(), MoveError> {
    for (m, pieces) in p.movers.iter().zip(swept) {
        for piece in pieces {
            let blocker = find_near(ctx, piece, 0.0, |j| {
                let o = &ctx.elements[j];
                (!p.is_mover(j)
                    && o.in_play()
                    && overlaps(piece, &corners_of(ctx, j))
                    && !may_interpenetrate(ctx, m, j))
                .then_some(o.id)
            });
            if let Some(blocker) = blocker {
                return Err(MoveError::Blocked { blocker });
            }
        }
    }
    // Moving one after another, each meets the earlier movers where they ended and the later
    // ones where they still stand.
    if p.sequential {
        for (k, pieces) in swept.iter().enumerate() {
            let others: Vec<(usize, ElementRect)> = p
                .movers
                .iter()
                .enumerate()
                .filter(|&(n, _)| n != k)
                .map(|(n, q)| (q.idx, if n < k { q.end() } else { q.start() }))
                .collect();
            for piece in pieces {
                for (j, r) in &others {
                    if overlaps(piece, &r.corners()) {
                        return Err(MoveError::Blocked {
                            blocker: ctx.elements[*j].id,
                        });
                    }
                }
            }
        }
    }
    // Movers may not end on top of one another.
    for (a, m) in p.movers.iter().enumerate() {
        for n in &p.movers[a + 1..] {
            if overlaps(&m.end().corners(), &n.end().corners()) {
                return Err(MoveError::Blocked {
                    blocker: ctx.elements[n.idx].id,
                });
            }
        }
    }
    Ok(())
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
// Contact at the end (§8.2–8.4)
// ---------------------------------------------------------------------------------------------

fn is_front(part: Option<ContactPart>) -> bool {
    matches!(
        part,
        Some(ContactPart::Edge(Edge::Front))
            | Some(ContactPart::Corner(Corner::FrontLeft))
            | Some(ContactPart::Corner(Corner::FrontRight))
    )
}

/// What the end of a move does with an enemy it touches.
enum Touch {
    /// Lined up (§8.2 a–c) or in an overlap position (§8.2 d).
    Legal,
    /// Front edges meet but are not lined up: someone must conform (§8.3).
    Conform {
        mover: usize,
        enemy: usize,
        /// Length of front edge they share (0 when only a corner touches).
        shared: f64,
    },
}

fn end_contacts(ctx: &MoveContext, p: &Proposal) -> Result<(Vec<Touch>, bool), MoveError> {
    let mut touches = Vec::new();
    let mut any = false;
    for m in &p.movers {
        let me = &ctx.elements[m.idx];
        let end = m.end();
        for j in near_indices(ctx, &end.corners(), NEAR_CONTACT) {
            let o = &ctx.elements[j];
            if !o.in_play() || o.army == ctx.army {
                continue;
            }
            let er = rect(ctx, j);
            let Some(c) = classify_contact(&end, &er) else {
                continue;
            };
            any = true;
            if me.kind.never_contacts_enemy() {
                return Err(MoveError::refused(
                    "§8.4",
                    format!(
                        "element {} ({}) may never move into contact with enemy",
                        me.id,
                        me.kind.code()
                    ),
                ));
            }
            let eligibility = |edge: Edge| -> Result<(), MoveError> {
                if may_contact_edge(&m.start(), &er, edge) {
                    Ok(())
                } else {
                    Err(MoveError::refused(
                        "§8.4",
                        format!(
                            "element {} did not start beyond the line of the {:?} edge of element {}",
                            me.id, edge, o.id
                        ),
                    ))
                }
            };
            match c.kind {
                ContactKind::FrontToFront if c.lined_up => touches.push(Touch::Legal),
                ContactKind::FrontToRear if c.lined_up => {
                    eligibility(Edge::Rear)?;
                    touches.push(Touch::Legal);
                }
                ContactKind::FrontToSide if c.lined_up => {
                    if let Some(ContactPart::Edge(side)) = c.b {
                        eligibility(side)?;
                    }
                    touches.push(Touch::Legal);
                }
                ContactKind::SideToSide => touches.push(Touch::Legal),
                ContactKind::CornerToCorner
                    if c.a == c.b
                        && matches!(
                            c.a,
                            Some(ContactPart::Corner(Corner::FrontLeft))
                                | Some(ContactPart::Corner(Corner::FrontRight))
                        ) =>
                {
                    touches.push(Touch::Legal)
                }
                _ if is_front(c.a) && is_front(c.b) => touches.push(Touch::Conform {
                    mover: m.idx,
                    enemy: j,
                    shared: c.shared_length,
                }),
                _ if is_front(c.a) || is_front(c.b) => {
                    return Err(MoveError::refused(
                        "§8.2",
                        format!(
                            "element {} would end touching element {} without lining up (front to front, front to rear, front to flank with front corners together, or overlapping)",
                            me.id, o.id
                        ),
                    ))
                }
                _ => {}
            }
        }
    }
    Ok((touches, any))
}

/// The pose that puts a mover's front edge squarely on the target's front edge (§8.2 a).
fn front_to_front(target: &Pose) -> Pose {
    Pose::new(
        target.x,
        target.y,
        (target.facing + 180.0).rem_euclid(360.0),
    )
}

/// An enemy element in a group of its own army (touching a friend side to side or front to rear,
/// lined up), as §8.3 distinguishes lone elements from groups.
fn in_a_group(ctx: &MoveContext, j: usize) -> bool {
    let r = rect(ctx, j);
    let me = &ctx.elements[j];
    ctx.elements.iter().enumerate().any(|(k, o)| {
        k != j
            && o.in_play()
            && o.army == me.army
            && same_facing(o.pose.facing, me.pose.facing)
            && classify_contact(&r, &rect(ctx, k)).is_some_and(|c| {
                c.kind == ContactKind::SideToSide
                    || (matches!(c.kind, ContactKind::FrontToRear | ContactKind::RearToFront)
                        && c.lined_up)
            })
    })
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
// Groups and columns (§7.4)
// ---------------------------------------------------------------------------------------------

/// The indices of a group's elements, in the order named: in place for one or two (#15: an
/// into-contact move of one element, which a driver tries for every mover, made a heap block
/// for its one index).
fn group_indices(ctx: &MoveContext, ids: &[ElementId]) -> Result<Few<usize>, MoveError> {
    if ids.is_empty() {
        return Err(MoveError::refused(
            "§7.4",
            "a group needs at least one element",
        ));
    }
    let mut v = Few::default();
    for id in ids {
        let i = index_of(ctx, *id)?;
        if v.contains(&i) {
            return Err(MoveError::refused(
                "§7.4",
                format!("element {id} is named twice"),
            ));
        }
        check_may_move(ctx, i)?;
        v.push(i);
    }
    let c0 = ctx.elements[v[0]].contingent;
    if v.iter().any(|&i| ctx.elements[i].contingent != c0) {
        return Err(MoveError::refused(
            "§7.4",
            "allied elements form groups only with elements of their own contingent",
        ));
    }
    Ok(v)
}

/// Two elements are linked in a group: side by side with front corners lined up, or one
/// directly behind the other in column.
fn linked(ctx: &MoveContext, a: usize, b: usize) -> bool {
    let (ra, rb) = (rect(ctx, a), rect(ctx, b));
    if !same_facing(ra.pose.facing, rb.pose.facing) {
        return false;
    }
    classify_contact(&ra, &rb).is_some_and(|c| match c.kind {
        ContactKind::SideToSide => {
            ra.corner(Corner::FrontLeft)
                .near(rb.corner(Corner::FrontRight))
                || ra
                    .corner(Corner::FrontRight)
                    .near(rb.corner(Corner::FrontLeft))
        }
        ContactKind::FrontToRear | ContactKind::RearToFront => c.lined_up,
        _ => false,
    })
}

fn check_is_group(ctx: &MoveContext, v: &[usize]) -> Result<(), MoveError> {
    let f0 = ctx.elements[v[0]].pose.facing;
    if v.iter()
        .any(|&i| !same_facing(ctx.elements[i].pose.facing, f0))
    {
        return Err(MoveError::refused(
            "§7.4",
            "the elements of a group all face the same way",
        ));
    }
    let mut reached = vec![false; v.len()];
    reached[0] = true;
    let mut stack = vec![0];
    while let Some(k) = stack.pop() {
        for n in 0..v.len() {
            if !reached[n] && linked(ctx, v[k], v[n]) {
                reached[n] = true;
                stack.push(n);
            }
        }
    }
    if let Some(n) = reached.iter().position(|r| !r) {
        return Err(MoveError::refused(
            "§7.4",
            format!(
                "element {} is not in edge and corner contact with the rest of the group",
                ctx.elements[v[n]].id
            ),
        ));
    }
    Ok(())
}

/// A group one element wide (§7.4): every front-edge midpoint on the line through the first,
/// along the facing.
fn is_column(ctx: &MoveContext, v: &[usize]) -> bool {
    let p0 = ctx.elements[v[0]].pose;
    v.iter()
        .all(|&i| local(&p0, ctx.elements[i].pose.front_mid()).0.abs() <= TOLERANCE)
}

fn plan_group(
    ctx: &MoveContext,
    ids: &[ElementId],
    steps: &[GroupStep],
) -> Result<MovePlan, MoveError> {
    let v = group_indices(ctx, ids)?;
    check_is_group(ctx, &v)?;
    if steps.is_empty() {
        return Err(MoveError::refused(
            "§7.4",
            "a group move needs at least one step",
        ));
    }
    let mut poses: Vec<Pose> = v.iter().map(|&i| ctx.elements[i].pose).collect();
    let depths: Vec<f64> = v
        .iter()
        .map(|&i| ctx.config.depth(ctx.elements[i].kind))
        .collect();
    let mut legs_by_mover: Vec<Few<Leg>> = vec![Few::Zero; v.len()];
    for step in steps {
        match *step {
            GroupStep::Advance { distance } => {
                for (k, pose) in poses.iter_mut().enumerate() {
                    let to = pose_at(pose, 0.0, distance, 0.0);
                    legs_by_mover[k].push(Leg::new(*pose, to, 1.0, depths[k]));
                    *pose = to;
                }
            }
            GroupStep::Wheel { pivot, degrees } => {
                // The front corner of the group on the pivot side: among the most forward front
                // corners, the one furthest to that side.
                let facing = poses[0];
                let corners: Vec<Point> = poses
                    .iter()
                    .zip(&depths)
                    .flat_map(|(p, &d)| {
                        let r = ElementRect::new(*p, 1.0, d);
                        [r.corner(Corner::FrontLeft), r.corner(Corner::FrontRight)]
                    })
                    .collect();
                let front = corners
                    .iter()
                    .map(|&c| local(&facing, c).1)
                    .fold(f64::NEG_INFINITY, f64::max);
                let side = |c: &Point| local(&facing, *c).0;
                let candidates = corners
                    .iter()
                    .filter(|&&c| local(&facing, c).1 >= front - TOLERANCE);
                let pivot_point = match pivot {
                    Flank::Left => candidates.min_by(|a, b| side(a).total_cmp(&side(b))),
                    Flank::Right => candidates.max_by(|a, b| side(a).total_cmp(&side(b))),
                }
                .copied()
                .expect("a group has front corners");
                // Pivoting about the left corner, the right end swings forward and the group
                // turns left (anticlockwise); about the right corner it turns right.
                let forward = match pivot {
                    Flank::Left => degrees <= 0.0,
                    Flank::Right => degrees >= 0.0,
                };
                if !forward {
                    return Err(MoveError::refused(
                        "§7.4",
                        "a group wheels with its front edge pivoting forward (about the left front corner it turns anticlockwise, about the right clockwise)",
                    ));
                }
                for (k, pose) in poses.iter_mut().enumerate() {
                    let leg = Leg::wheel(*pose, pivot_point, degrees, 1.0, depths[k]);
                    *pose = leg.to.pose;
                    legs_by_mover[k].push(leg);
                }
            }
        }
    }
    let shape = if v.len() > 1 && !is_column(ctx, &v) {
        Shape::Group
    } else if v.len() > 1 {
        Shape::Column
    } else {
        Shape::Single
    };
    let movers: Vec<MoverPath> = v
        .iter()
        .zip(legs_by_mover)
        .map(|(&idx, legs)| MoverPath { idx, legs })
        .collect();
    validate(ctx, Proposal::new(shape, movers))
}

/// A column's leader moves straight ahead to each pose of its path, turning only there (§7.4).
fn check_column_path(lead: &Pose, path: &[Pose]) -> Result<(), MoveError> {
    let mut at = *lead;
    for p in path {
        let d = p.front_mid() - at.front_mid();
        if d.length() > TOLERANCE {
            let (x, _) = local(&at, p.front_mid());
            if x.abs() > TOLERANCE || d.dot(at.forward()) < 0.0 {
                return Err(MoveError::refused(
                    "§7.4",
                    "a column moves straight ahead between the points where it wheels",
                ));
            }
        }
        at = *p;
    }
    Ok(())
}

/// Forming a column (§7.4): the leader moves along `path` as a column's leader would; then each
/// other element in turn moves, as if by a single-element move, to line up directly behind the
/// one before it. None may end with its front edge further back than where it began. An element
/// that cannot reach the tail this bound (it would end further back, or the tail is beyond its
/// good-going move distance) is no longer part of the group (§7.4): it stays where it is, and
/// the next element lines up behind the last one that did join. The plan's movers are those that
/// joined.
fn plan_forming_column(
    ctx: &MoveContext,
    v: &[usize],
    path: &[Pose],
) -> Result<MovePlan, MoveError> {
    let f0 = ctx.elements[v[0]].pose.facing;
    if v.iter()
        .any(|&i| !same_facing(ctx.elements[i].pose.facing, f0))
    {
        return Err(MoveError::refused(
            "§7.4",
            "the elements forming a column all face the same way",
        ));
    }
    check_is_group(ctx, v)?;
    let path: Vec<Pose> = path.iter().map(|p| p.snapped()).collect();
    let lead = ctx.elements[v[0]].pose;
    check_column_path(&lead, &path)?;
    let mut movers = vec![MoverPath {
        idx: v[0],
        legs: legs(lead, &path, 1.0, ctx.config.depth(ctx.elements[v[0]].kind)),
    }];
    let mut tail = *path.last().expect("path");
    let mut tail_depth = ctx.config.depth(ctx.elements[v[0]].kind);
    for &i in &v[1..] {
        let e = &ctx.elements[i];
        let depth = ctx.config.depth(e.kind);
        let to = pose_at(&tail, 0.0, -tail_depth, 0.0).snapped();
        let end = ElementRect::new(to, 1.0, depth);
        let back = [Corner::FrontLeft, Corner::FrontRight]
            .iter()
            .any(|&c| local(&e.pose, end.corner(c)).1 < -TOLERANCE);
        let leg = Leg::new(e.pose, to, 1.0, depth);
        let too_far = leg.distance() > ctx.config.move_distance(e.kind, false) + TOLERANCE;
        if back || too_far {
            continue;
        }
        movers.push(MoverPath {
            idx: i,
            legs: Few::one(leg),
        });
        tail = to;
        tail_depth = depth;
    }
    let shape = if movers.len() == 1 {
        Shape::Single
    } else {
        Shape::Column
    };
    let mut p = Proposal::new(shape, movers);
    p.sequential = true;
    validate(ctx, p)
}

/// A column follows its leader (§7.4). Each pose of `path` is reached by the leader moving
/// straight ahead and then turning to the pose's facing; the others follow along the same line
/// and turn at the same points. If the others are not yet lined up behind the leader, the order
/// forms the column instead (see [`plan_forming_column`]).
fn plan_column(ctx: &MoveContext, ids: &[ElementId], path: &[Pose]) -> Result<MovePlan, MoveError> {
    let v = group_indices(ctx, ids)?;
    if path.is_empty() {
        return Err(MoveError::refused(
            "§7.4",
            "a column move needs at least one pose",
        ));
    }
    // Each follower stands lined up behind the one before it, or the column is being formed.
    let in_column = v.windows(2).all(|w| {
        let (a, b) = (rect(ctx, w[0]), rect(ctx, w[1]));
        same_facing(a.pose.facing, b.pose.facing)
            && classify_contact(&b, &a)
                .is_some_and(|c| c.kind == ContactKind::FrontToRear && c.lined_up)
    });
    if !in_column {
        return plan_forming_column(ctx, &v, path);
    }
    let path: Vec<Pose> = path.iter().map(|p| p.snapped()).collect();
    let lead = ctx.elements[v[0]].pose;
    check_column_path(&lead, &path)?;
    // The trace: points of the front-edge midpoint with the facing of the segment leaving each.
    let depths: Vec<f64> = v
        .iter()
        .map(|&i| ctx.config.depth(ctx.elements[i].kind))
        .collect();
    let behind: f64 = depths.iter().sum();
    let mut trace: Vec<(Point, f64)> = vec![
        (lead.front_mid() - lead.forward() * behind, lead.facing),
        (lead.front_mid(), lead.facing),
    ];
    for p in &path {
        trace.push((p.front_mid(), p.facing));
    }
    // Arc positions of the trace points.
    let mut s = vec![0.0];
    for w in trace.windows(2) {
        s.push(s[s.len() - 1] + w[0].0.distance(w[1].0));
    }
    // The leader's path length, which every element of the column follows.
    let lead_len = s[s.len() - 1] - s[1];
    let pose_at_arc = |a: f64| -> Pose {
        let mut k = 0;
        while k + 2 < trace.len() && s[k + 1] < a - 1e-12 {
            k += 1;
        }
        let (p0, f0) = trace[k];
        let seg = trace[k + 1].0 - p0;
        let len = seg.length();
        let pt = if len > 0.0 {
            p0 + seg * ((a - s[k]) / len)
        } else {
            p0
        };
        Pose::new(pt.x, pt.y, f0)
    };
    let mut movers = Vec::with_capacity(v.len());
    let mut offset = 0.0;
    for (k, &idx) in v.iter().enumerate() {
        let start_arc = s[1] - offset;
        let end_arc = start_arc + lead_len;
        let mut poses: Vec<Pose> = Vec::new();
        for (t, &(pt, facing)) in trace.iter().enumerate().skip(1) {
            if s[t] > start_arc + TOLERANCE && s[t] < end_arc - TOLERANCE {
                let incoming = trace[t - 1].1;
                poses.push(Pose::new(pt.x, pt.y, incoming));
                poses.push(Pose::new(pt.x, pt.y, facing));
            }
        }
        let end = if k == 0 {
            *path.last().expect("path")
        } else {
            pose_at_arc(end_arc)
        };
        poses.push(end);
        let start = ctx.elements[idx].pose;
        let mut legs = legs(start, &poses, 1.0, depths[k]);
        legs.retain(|l| l.distance() > 0.0 || l.turns());
        if legs.is_empty() {
            legs.push(Leg::new(start, start, 1.0, depths[k]));
        }
        movers.push(MoverPath { idx, legs });
        offset += depths[k];
    }
    let shape = if v.len() == 1 {
        Shape::Single
    } else {
        Shape::Column
    };
    validate(ctx, Proposal::new(shape, movers))
}

// ---------------------------------------------------------------------------------------------
// Into contact (§8.2–8.4)
// ---------------------------------------------------------------------------------------------

/// Where a mover's front edge must end for the wanted contact with `target` (§8.2), or `None`
/// when no friend is in front contact for an overlap.
fn contact_pose(ctx: &MoveContext, target: usize, wanted: ContactWanted) -> Option<Pose> {
    let t = rect(ctx, target);
    let tp = t.pose;
    Some(match wanted {
        ContactWanted::Front => front_to_front(&tp),
        ContactWanted::Rear => {
            let m = tp.front_mid() - tp.forward() * t.depth;
            Pose::new(m.x, m.y, tp.facing)
        }
        ContactWanted::Flank(Flank::Left) => {
            let c = t.corner(Corner::FrontLeft) - tp.forward() * 0.5;
            Pose::new(c.x, c.y, (tp.facing + 90.0).rem_euclid(360.0))
        }
        ContactWanted::Flank(Flank::Right) => {
            let c = t.corner(Corner::FrontRight) - tp.forward() * 0.5;
            Pose::new(c.x, c.y, (tp.facing + 270.0).rem_euclid(360.0))
        }
        ContactWanted::Overlap(side) => {
            let friend_in_front = ctx.elements.iter().enumerate().any(|(k, o)| {
                o.in_play()
                    && o.army == ctx.army
                    && classify_contact(&rect(ctx, k), &t)
                        .is_some_and(|c| c.kind == ContactKind::FrontToFront && c.lined_up)
            });
            if !friend_in_front {
                return None;
            }
            let x = match side {
                Flank::Left => -1.0,
                Flank::Right => 1.0,
            };
            front_to_front(&pose_at(&tp, x, 0.0, 0.0))
        }
    })
}

fn plan_into_contact(
    ctx: &MoveContext,
    ids: &[ElementId],
    target: ElementId,
    wanted: ContactWanted,
) -> Result<MovePlan, MoveError> {
    let v = group_indices(ctx, ids)?;
    if v.len() > 1 {
        check_is_group(ctx, &v)?;
    }
    let t = index_of(ctx, target)?;
    let te = &ctx.elements[t];
    if !te.in_play() || te.army == ctx.army {
        return Err(MoveError::refused(
            "§8.2",
            format!("element {target} is not an enemy in play"),
        ));
    }
    for &i in &v {
        let e = &ctx.elements[i];
        if e.kind.never_contacts_enemy() {
            return Err(MoveError::refused(
                "§8.4",
                format!(
                    "element {} ({}) may never move into contact with enemy",
                    e.id,
                    e.kind.code()
                ),
            ));
        }
    }
    let Some(dest) = contact_pose(ctx, t, wanted) else {
        return Err(MoveError::refused(
            "§8.2 (d)",
            "an overlap needs a friend in front-edge contact with the target",
        ));
    };
    let dest = dest.snapped();
    let tr = rect(ctx, t);
    let edge = match wanted {
        ContactWanted::Flank(Flank::Left) => Some(Edge::Left),
        ContactWanted::Flank(Flank::Right) => Some(Edge::Right),
        ContactWanted::Rear => Some(Edge::Rear),
        _ => None,
    };
    // Try each element of the group as the one making the contact, nearest first; the others keep
    // their places relative to it.
    let mut options: Vec<(f64, Proposal)> = Vec::new();
    for &c in &v {
        if let Some(edge) = edge {
            if !may_contact_edge(&rect(ctx, c), &tr, edge) {
                continue;
            }
        }
        let from = ctx.elements[c].pose;
        let turn = angle_diff(from.facing, dest.facing);
        let shape = if v.len() == 1 {
            Shape::Single
        } else if is_column(ctx, &v) {
            Shape::Column
        } else {
            Shape::Group
        };
        // Straight to the contact, or, for a flank or rear (§8.4), first to a place standing off
        // that edge and then straight in: the way round the enemy's corner that a player takes
        // from a start partly beyond both of its lines.
        let standoffs: &[f64] = if edge.is_some() {
            &[0.0, 0.25, 0.5, 1.0, 1.5, 2.0]
        } else {
            &[0.0]
        };
        for &off in standoffs {
            let via = dest.front_mid() - dest.forward() * off;
            let shift = via - from.front_mid();
            let back = dest.forward() * off;
            let movers: Vec<MoverPath> = v
                .iter()
                .map(|&i| {
                    let e = &ctx.elements[i];
                    let depth = ctx.config.depth(e.kind);
                    let r = super::geom::rotate_pose(&e.pose, from.front_mid(), turn);
                    let mid = Pose::new(r.x + shift.x, r.y + shift.y, r.facing).snapped();
                    let mut legs = Few::one(Leg::new(e.pose, mid, 1.0, depth));
                    if off > 0.0 {
                        let to = Pose::new(mid.x + back.x, mid.y + back.y, mid.facing).snapped();
                        legs.push(Leg::new(mid, to, 1.0, depth));
                    }
                    MoverPath { idx: i, legs }
                })
                .collect();
            let mut p = Proposal::new(shape, movers);
            p.lining_up = true;
            options.push((p.distance(), p));
        }
    }
    if options.is_empty() {
        return Err(MoveError::refused(
            "§8.4",
            format!(
                "no element of the mover starts beyond the line of the {} of element {target}",
                match edge {
                    Some(Edge::Rear) => "rear edge",
                    _ => "side edge",
                }
            ),
        ));
    }
    options.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut first_err = None;
    for (_, p) in options {
        match validate(ctx, p) {
            Ok(plan) => return Ok(plan),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.expect("at least one option was tried"))
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

#[cfg(test)]
mod tests {
    use super::*;

    // DBA3.md §4.7: an element the box pre-test finds clear of a camp's or city's outline
    // neither touches it nor has its front on it, for elements facing every way about an
    // outline, many of them touching it.
    #[test]
    fn an_element_clear_of_the_outline_box_does_not_touch_it() {
        let outline = Polygon::new(vec![
            Point::new(4.0, 0.0),
            Point::new(7.0, 0.0),
            Point::new(7.5, 1.0),
            Point::new(7.0, 2.0),
            Point::new(4.0, 2.0),
        ]);
        let mut next = crate::geometry::unit_stream(0x853c_49e6_748f_ea9bu64);
        let mut u = move |scale: f64| next() * scale;
        let (mut clear, mut touching) = (0, 0);
        for n in 0..20_000 {
            let r = match n % 3 {
                // On the north wall, facing it, its front within the tolerance or just beyond.
                0 => ElementRect::new(
                    Pose::new(4.0 + u(3.0), 2.0 + u(3.0 * TOLERANCE), 180.0),
                    1.0,
                    0.5,
                ),
                // Beside the west wall, facing north, its side edge on the wall or near it.
                1 => ElementRect::new(Pose::new(3.5 - u(3.0 * TOLERANCE), u(2.0), 0.0), 1.0, 0.5),
                _ => ElementRect::new(Pose::new(u(11.0), u(6.0) - 2.0, u(360.0)), 1.0, 0.5),
            };
            let is_clear = clear_of_outline(&r, &outline);
            let touches = {
                let exact = [Edge::Front, Edge::Rear, Edge::Left, Edge::Right]
                    .iter()
                    .any(|&e| gap_to_outline(&r.edge(e), &outline) <= TOLERANCE);
                exact && !pieces_inside(&[Piece::of(&r.corners())], &outline)
            };
            let front = gap_to_outline(&r.edge(Edge::Front), &outline) <= TOLERANCE
                && !pieces_inside(&[Piece::of(&r.corners())], &outline);
            assert!(!(is_clear && (touches || front)), "{r:?}");
            assert_eq!(touches_outline(&r, &outline), touches, "{r:?}");
            assert_eq!(front_on_outline(&r, &outline), front, "{r:?}");
            clear += usize::from(is_clear);
            touching += usize::from(touches);
        }
        assert!(clear > 5_000 && touching > 3_000, "{clear} {touching}");
    }
}
