//! The going a move passes through (§7.3, §7.8): the worst going its swept areas reach into,
//! roads, and the river a front edge enters and the angle it crosses at.

use super::*;

pub(super) fn going_context(ctx: &MoveContext, idx: usize) -> GoingContext {
    GoingContext {
        camel_mounted: ctx.elements[idx].kind.is_camel_mounted(),
        plough_is_rough: ctx.plough_rough,
    }
}

/// The worst going met by the convex pieces (each shrunk by [`TOLERANCE`] so that a touch is not
/// being in a feature, §3.1).
pub(super) fn going_of(ctx: &MoveContext, gctx: GoingContext, pieces: &[Piece]) -> Going {
    going_and_feature_of(ctx, gctx, pieces).0
}

/// The worst going the pieces enter, with the first feature found giving it (its index among
/// the battlefield's features), so that a refusal can name it.
pub(super) fn going_and_feature_of(
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
        let piece_box = area_boxes.map(|_| super::super::super::grid::bounds_of(piece));
        let near_any = ctx
            .battlefield
            .features
            .iter()
            .enumerate()
            .any(|(i, f)| match f {
                TerrainFeature::Area(a) => {
                    a.going(gctx).is_some_and(|g| g > going)
                        && !match (area_boxes, piece_box) {
                            (Some(boxes), Some(pb)) => super::super::super::grid::bounds_apart(
                                pb,
                                super::super::super::grid::bounds_of_box(boxes[i]),
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
                        && !super::super::super::grid::bounds_apart(
                            super::super::super::grid::bounds_of(piece),
                            w.water_bounds(&ctx.battlefield.board),
                            1e-6,
                        )
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => false,
            });
        if !near_any {
            debug_assert!(
                going == Going::Impassable
                    || super::super::geom::inset_convex(piece, TOLERANCE).is_none_or(|inner| {
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
        let Some(inner) = super::super::geom::inset_convex(piece, TOLERANCE) else {
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

pub(super) fn rect_going(ctx: &MoveContext, idx: usize, r: &ElementRect) -> Going {
    going_of(ctx, going_context(ctx, idx), &[Piece::of(&r.corners())])
}

/// Whether the element stands wholly in rough or bad going (§8.3): every corner inside some area
/// of rough or bad going.
pub(super) fn wholly_rough_or_bad(ctx: &MoveContext, idx: usize) -> bool {
    let gctx = going_context(ctx, idx);
    rect(ctx, idx).corners().iter().all(|&p| {
        ctx.battlefield
            .areas()
            .any(|(_, a)| a.going(gctx).is_some_and(|g| g >= Going::Rough) && a.outline.contains(p))
    })
}

/// The river the front edge reaches, moving along the legs, by its feature number: the first
/// river of the battlefield's list it reaches on the first leg that reaches one (§7.3, §7.8).
pub(super) fn front_ever_in_river(ctx: &MoveContext, legs: &[Leg]) -> Option<usize> {
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
pub(super) fn check_river_angle(ctx: &MoveContext, p: &Proposal) -> Result<(), MoveError> {
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
