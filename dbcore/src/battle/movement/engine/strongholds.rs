//! Moves at Cities, Forts and camps (§4.2, §4.3, §4.7, §8.4): who holds one, its walls and
//! gates, and contact with a stronghold at the end of a move.

use super::*;

/// The army holding the stronghold with this outline, if any holds it (§4.2, §4.6).
pub(super) fn holder(ctx: &MoveContext, outline: &Polygon) -> Option<usize> {
    ctx.strongholds
        .iter()
        .find(|s| s.perimeter == *outline)
        .map(|s| s.army)
}

/// Whether the convex pieces reach inside `outline` by more than the tolerance.
pub(super) fn pieces_inside(pieces: &[Piece], outline: &Polygon) -> bool {
    pieces.iter().any(|piece| {
        super::super::geom::inset_convex(piece, TOLERANCE)
            .is_some_and(|inner| polygons_intersect(&Polygon::new(inner), outline))
    })
}

pub(super) fn wholly_inside(r: &ElementRect, outline: &Polygon) -> bool {
    r.corners().iter().all(|&c| outline.contains(c))
}

/// Least distance from a segment to the outline's boundary.
pub(super) fn gap_to_outline(seg: &crate::geometry::Segment, outline: &Polygon) -> f64 {
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
pub(super) fn clear_of_outline(r: &ElementRect, outline: &Polygon) -> bool {
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
pub(super) fn touches_outline(r: &ElementRect, outline: &Polygon) -> bool {
    if clear_of_outline(r, outline) {
        return false;
    }
    [Edge::Front, Edge::Rear, Edge::Left, Edge::Right]
        .iter()
        .any(|&e| gap_to_outline(&r.edge(e), outline) <= TOLERANCE)
        && !pieces_inside(&[Piece::of(&r.corners())], outline)
}

/// Its front edge touches the outline from outside: it assaults the place (§4.7).
pub(super) fn front_on_outline(r: &ElementRect, outline: &Polygon) -> bool {
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
pub(super) fn check_walls(ctx: &MoveContext, p: &Proposal) -> Result<(), MoveError> {
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
pub(super) fn through_gates(m: &MoverPath, outline: &Polygon, gates: &[Point]) -> bool {
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
pub(super) fn crossing(p0: Point, p1: Point, q0: Point, q1: Point) -> Option<Point> {
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
pub(super) fn check_stronghold_contact(ctx: &MoveContext, p: &Proposal) -> Result<(), MoveError> {
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
