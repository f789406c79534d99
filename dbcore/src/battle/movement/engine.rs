//! The referee of tactical moves: [`plan_move`] and the checks it makes.

use crate::contact::{classify_contact, ContactKind};
use crate::geometry::{ElementRect, Point, Pose, TOLERANCE};
use crate::terrain::{
    polygons_intersect, polyline_distance_to_polygon, Going, GoingContext, RiverState,
    TerrainFeature,
};
use crate::troops::TroopType;

use super::geom::{inset_convex, legs, overlaps, Leg};
use super::{ElementMove, MoveContext, MoveError, MoveOrder, MovePlan};
use crate::battle::setup::ElementId;

/// Whether the element at `idx` of `elements` is in close combat (§7.1, §10.2): its front edge in a
/// lined-up contact with an enemy (§8.2 a–c), or an enemy's front edge lined up against it. Lost
/// elements are never in close combat and never hold anyone in it.
pub fn in_close_combat(ctx: &MoveContext, idx: usize) -> bool {
    let me = &ctx.elements[idx];
    if !me.in_play() {
        return false;
    }
    let r = me.rect(ctx.config);
    ctx.elements.iter().any(|o| {
        o.in_play()
            && o.army != me.army
            && classify_contact(&r, &o.rect(ctx.config)).is_some_and(|c| {
                c.lined_up
                    && matches!(
                        c.kind,
                        ContactKind::FrontToFront
                            | ContactKind::FrontToRear
                            | ContactKind::RearToFront
                            | ContactKind::FrontToSide
                            | ContactKind::SideToFront
                    )
            })
    })
}

/// Plan a tactical move (§7, §8): every mover's final pose and what the move does, or the rule
/// that forbids it. Pure: nothing in `ctx` changes.
pub fn plan_move(ctx: &MoveContext, order: &MoveOrder) -> Result<MovePlan, MoveError> {
    match order {
        MoveOrder::Element { id, path } => plan_element(ctx, *id, path),
        _ => Err(MoveError::refused(
            "§7.4",
            "this kind of order is not handled yet",
        )),
    }
}

pub(crate) fn index_of(ctx: &MoveContext, id: ElementId) -> Result<usize, MoveError> {
    ctx.elements
        .iter()
        .position(|e| e.id == id)
        .ok_or(MoveError::UnknownElement { id })
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

/// What the terrain makes of one mover's path.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PathTerrain {
    /// The worst going any part of the swept area is in.
    pub going: Option<Going>,
    /// The front edge is in a river at some point (any state).
    pub river: bool,
}

fn going_context(ctx: &MoveContext, idx: usize) -> GoingContext {
    GoingContext {
        camel_mounted: ctx.elements[idx].kind.is_camel_mounted(),
        plough_is_rough: ctx.plough_rough,
    }
}

/// The worst going met by the convex pieces `pieces` (each shrunk by [`TOLERANCE`] so that a touch
/// is not being in a feature, §3.1).
pub(crate) fn going_of(ctx: &MoveContext, gctx: GoingContext, pieces: &[Vec<Point>]) -> Going {
    let mut going = Going::Good;
    for piece in pieces {
        let Some(inner) = inset_convex(piece, TOLERANCE) else {
            continue;
        };
        let poly = crate::geometry::Polygon::new(inner);
        for f in &ctx.battlefield.features {
            match f {
                TerrainFeature::Area(a) => {
                    if let Some(g) = a.going(gctx) {
                        if g > going && polygons_intersect(&poly, &a.outline) {
                            going = g;
                        }
                    }
                }
                TerrainFeature::Waterway(w) => {
                    if polygons_intersect(&poly, &w.water_polygon(&ctx.battlefield.board)) {
                        going = Going::Impassable;
                    }
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => {}
            }
        }
    }
    going
}

/// Whether a front edge sweeping the convex area `piece` reaches into a river (§7.3, §7.8).
fn front_in_river(ctx: &MoveContext, piece: &[Point]) -> bool {
    let poly = crate::geometry::Polygon::new(piece.to_vec());
    ctx.battlefield.features.iter().any(|f| match f {
        TerrainFeature::River(r) => {
            polyline_distance_to_polygon(&r.course, &poly) < r.width * 0.5 - TOLERANCE
        }
        _ => false,
    })
}

/// The areas swept by the front edge along the legs (for rivers).
fn front_sweeps(legs: &[Leg]) -> Vec<Vec<Point>> {
    use crate::geometry::{convex_hull, Edge};
    legs.iter()
        .map(|l| {
            let a = l.from.edge(Edge::Front);
            let b = l.to.edge(Edge::Front);
            let h = convex_hull(&[a.a, a.b, b.a, b.b]).points;
            if h.len() < 3 {
                vec![a.a, a.b]
            } else {
                h
            }
        })
        .collect()
}

fn front_in_river_seg(ctx: &MoveContext, pts: &[Point]) -> bool {
    if pts.len() >= 3 {
        return front_in_river(ctx, pts);
    }
    let seg = crate::geometry::Segment::new(pts[0], pts[pts.len() - 1]);
    ctx.battlefield.features.iter().any(|f| match f {
        TerrainFeature::River(r) => {
            crate::terrain::polyline_distance_to_segment(&r.course, &seg)
                < r.width * 0.5 - TOLERANCE
        }
        _ => false,
    })
}

/// Terrain along one mover's legs.
pub(crate) fn path_terrain(ctx: &MoveContext, idx: usize, legs: &[Leg]) -> PathTerrain {
    let gctx = going_context(ctx, idx);
    let pieces: Vec<Vec<Point>> = legs.iter().flat_map(|l| l.swept()).collect();
    let going = going_of(ctx, gctx, &pieces);
    let river = front_sweeps(legs)
        .iter()
        .any(|p| front_in_river_seg(ctx, p));
    PathTerrain {
        going: Some(going),
        river,
    }
}

/// The first element (not in `movers`, in play) that a leg's swept area overlaps.
fn first_blocker(ctx: &MoveContext, movers: &[usize], legs: &[Leg]) -> Option<usize> {
    for leg in legs {
        for piece in leg.swept() {
            for (j, o) in ctx.elements.iter().enumerate() {
                if movers.contains(&j) || !o.in_play() {
                    continue;
                }
                if overlaps(&piece, &o.rect(ctx.config).corners()) {
                    return Some(j);
                }
            }
        }
    }
    None
}

fn on_board(ctx: &MoveContext, r: &ElementRect) -> bool {
    r.corners().iter().all(|&p| ctx.battlefield.board.contains(p))
}

fn plan_element(ctx: &MoveContext, id: ElementId, path: &[Pose]) -> Result<MovePlan, MoveError> {
    let idx = index_of(ctx, id)?;
    check_may_move(ctx, idx)?;
    let e = &ctx.elements[idx];
    if path.is_empty() {
        return Err(MoveError::refused("§7.2", "a move needs at least one pose"));
    }
    let path: Vec<Pose> = path.iter().map(|p| p.snapped()).collect();
    let depth = ctx.config.depth(e.kind);
    let legs = legs(e.pose, &path, 1.0, depth);
    for l in &legs {
        if !on_board(ctx, &l.to) {
            return Err(MoveError::OffTable { id });
        }
    }
    let mut mids = vec![e.pose.front_mid()];
    mids.extend(path.iter().map(|p| p.front_mid()));
    let along_road = ctx.battlefield.move_along_road(&mids);
    let terrain = path_terrain(ctx, idx, &legs);
    let going = if along_road {
        Going::Good
    } else {
        terrain.going.unwrap_or(Going::Good)
    };
    if going == Going::Impassable {
        return Err(MoveError::Terrain {
            id,
            rule: "§3.4".into(),
            terrain: "a waterway".into(),
        });
    }
    let rules = ctx.config.kind(e.kind.base());
    if going == Going::Bad && !rules.may_enter_bad_going && !e.kind.is_mounted_infantry() {
        return Err(MoveError::Terrain {
            id,
            rule: "§7.3".into(),
            terrain: "bad going off-road".into(),
        });
    }
    let mut allowed = ctx.config.move_distance(e.kind, going >= Going::Rough);
    if terrain.river && !along_road {
        match ctx.river {
            None => return Err(MoveError::RiverNotDiced),
            Some(RiverState::Paltry) => {}
            Some(_) => allowed = allowed.min(1.0),
        }
    }
    let distance: f64 = legs.iter().map(|l| l.distance()).sum();
    if distance > allowed + TOLERANCE {
        return Err(MoveError::TooFar {
            asked: distance,
            allowed,
        });
    }
    if let Some(j) = first_blocker(ctx, &[idx], &legs) {
        return Err(MoveError::Blocked {
            blocker: ctx.elements[j].id,
        });
    }
    let end = *path.last().expect("path is not empty");
    let forward = legs.iter().all(|l| l.shift().dot(l.from.pose.forward()) >= -TOLERANCE);
    let _ = TroopType::Ps;
    Ok(MovePlan {
        movers: vec![id],
        moves: vec![ElementMove {
            id,
            from: e.pose,
            to: end,
            becomes: None,
        }],
        distance,
        along_road,
        full_distance_forward: along_road && forward && distance >= allowed - TOLERANCE,
        into_contact: false,
    })
}
