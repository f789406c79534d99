//! Property tests of the element geometry: relations do not depend on where the table is or which
//! way it is turned, contacts read the same from both elements, and nothing touches beyond the
//! tolerance (DBA3.md §0.3, §8.2, §10.4).

use dbcore::contact::{classify_contact, may_contact_edge, overlap, scan_contacts, ContactKind};
use dbcore::geometry::{convex_gap, convex_hull, Edge, ElementRect, Point, Pose, TOLERANCE};
use dbcore::paths::{first_met, BoardBounds, MoveDirection, Obstacle, ObstacleKind, ObstacleShape};
use dbcore::zones::{
    front_edge_distance, nearest_distance, shot_geometry, ThreatZone, ZoneRelation,
};
use proptest::prelude::*;

const EDGES: [Edge; 4] = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left];
const DEPTHS: [f64; 5] = [0.375, 0.5, 0.75, 1.0, 1.5];

fn el(x: f64, y: f64, facing: f64, depth: f64) -> ElementRect {
    ElementRect::new(Pose::new(x, y, facing), 1.0, depth)
}

fn normal_bearing(e: Edge) -> f64 {
    match e {
        Edge::Front => 0.0,
        Edge::Right => 90.0,
        Edge::Rear => 180.0,
        Edge::Left => 270.0,
    }
}

/// Element B placed with its edge `eb` against edge `ea` of `a`, slid `offset` along it and
/// `gap` away from it.
fn place_against(
    a: &ElementRect,
    ea: Edge,
    eb: Edge,
    depth: f64,
    offset: f64,
    gap: f64,
) -> ElementRect {
    let facing = a.pose.facing + normal_bearing(ea) + 180.0 - normal_bearing(eb);
    let s = a.edge(ea);
    let u = (s.b - s.a) * (1.0 / s.length());
    let n = Point::from_bearing(a.pose.facing + normal_bearing(ea));
    let target = s.midpoint() + u * offset + n * gap;
    let b0 = el(0.0, 0.0, facing, depth);
    let shift = target - b0.edge(eb).midpoint();
    el(shift.x, shift.y, facing, depth)
}

/// Rotate the whole table by `deg` clockwise about the origin, then shift it by `t`.
fn moved(r: &ElementRect, deg: f64, t: Point) -> ElementRect {
    let p = r.pose.front_mid().rotated_cw(deg) + t;
    el(p.x, p.y, r.pose.facing + deg, r.depth)
}

#[derive(Debug, Clone)]
struct Scene {
    a: ElementRect,
    b: ElementRect,
}

fn edge_strategy() -> impl Strategy<Value = Edge> {
    (0usize..4).prop_map(|i| EDGES[i])
}

fn depth_strategy() -> impl Strategy<Value = f64> {
    (0usize..DEPTHS.len()).prop_map(|i| DEPTHS[i])
}

/// Pairs in or near contact: any edge against any edge, at the usual offsets or anywhere along.
fn contact_scene() -> impl Strategy<Value = Scene> {
    (
        edge_strategy(),
        edge_strategy(),
        depth_strategy(),
        depth_strategy(),
        // Offsets: lined up, half a base along, anywhere, or slid right off to meet corner to
        // corner (2.0 / -2.0 stand for "the sum of the half-lengths", either way).
        prop_oneof![
            Just(0.0),
            Just(0.5),
            Just(-0.5),
            -1.3f64..1.3,
            Just(2.0),
            Just(-2.0)
        ],
        prop_oneof![
            Just(0.0),
            Just(0.25 * TOLERANCE),
            Just(-0.25 * TOLERANCE),
            Just(4.0 * TOLERANCE),
            0.0f64..0.4
        ],
        0.0f64..360.0,
    )
        .prop_map(|(ea, eb, da, db, offset, gap, facing)| {
            let len = |e: Edge, d: f64| {
                if matches!(e, Edge::Front | Edge::Rear) {
                    1.0
                } else {
                    d
                }
            };
            let offset = if offset.abs() == 2.0 {
                offset.signum() * 0.5 * (len(ea, da) + len(eb, db))
            } else {
                offset
            };
            let a = el(0.0, 0.0, facing, da);
            let b = place_against(&a, ea, eb, db, offset, gap);
            Scene { a, b }
        })
}

/// Pairs placed anywhere near each other at any angle.
fn loose_scene() -> impl Strategy<Value = Scene> {
    (
        depth_strategy(),
        depth_strategy(),
        -2.5f64..2.5,
        -2.5f64..2.5,
        0.0f64..360.0,
        0.0f64..360.0,
    )
        .prop_map(|(da, db, x, y, fa, fb)| Scene {
            a: el(0.0, 0.0, fa, da),
            b: el(x, y, fb, db),
        })
}

/// Whether `c`, a corner of one rectangle on an edge of the other, holds of `a` and `b` as they
/// stand: the corner within [`TOLERANCE`] of the edge (and a hair more for rounding).
fn corner_on_edge_holds(c: &dbcore::contact::Contact, a: &ElementRect, b: &ElementRect) -> bool {
    use dbcore::contact::ContactPart::{Corner as C, Edge as E};
    let near = |p: Point, e: dbcore::geometry::Segment| e.distance_to_point(p) <= TOLERANCE + 1e-9;
    match (c.kind, c.a, c.b) {
        (ContactKind::CornerToEdge, Some(C(k)), Some(E(e))) => near(a.corner(k), b.edge(e)),
        (ContactKind::EdgeToCorner, Some(E(e)), Some(C(k))) => near(b.corner(k), a.edge(e)),
        _ => false,
    }
}

/// DBA3.md §8.2 (our reading of a touch at a corner): two parallel edges that overlap by no more
/// than [`TOLERANCE`] put each rectangle's corner on the other's edge, and both descriptions
/// are true. Which one the classification gives may change with the table's position (it orders
/// the pair by position), so the property accepts the other one when it holds of the scene as it
/// stood.
fn same_touch(
    p: &Option<dbcore::contact::Contact>,
    q: &Option<dbcore::contact::Contact>,
    (a, b): (&ElementRect, &ElementRect),
) -> bool {
    same_contact(p, q)
        || match (p, q) {
            (Some(p), Some(q)) => {
                corner_on_edge_holds(p, a, b)
                    && corner_on_edge_holds(q, a, b)
                    && p.shared_length == 0.0
                    && q.shared_length == 0.0
            }
            _ => false,
        }
}

fn same_contact(
    p: &Option<dbcore::contact::Contact>,
    q: &Option<dbcore::contact::Contact>,
) -> bool {
    match (p, q) {
        (None, None) => true,
        (Some(p), Some(q)) => {
            p.kind == q.kind
                && p.a == q.a
                && p.b == q.b
                && p.lined_up == q.lined_up
                && (p.shared_length - q.shared_length).abs() < 1e-6
        }
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// DBA3.md §8.2, §8.4, §10.4, §8.1: relations do not change when the table is translated or
    /// rotated.
    #[test]
    fn relations_survive_moving_the_table(
        s in contact_scene(),
        deg in 0.0f64..360.0,
        tx in -20.0f64..20.0,
        ty in -20.0f64..20.0,
    ) {
        // DBA3.md §0.3: relations do not depend on where the table is.
        let t = Point::new(tx, ty);
        let (a2, b2) = (moved(&s.a, deg, t), moved(&s.b, deg, t));
        prop_assert!(same_touch(
            &classify_contact(&s.a, &s.b),
            &classify_contact(&a2, &b2),
            (&s.a, &s.b),
        ));
        prop_assert_eq!(overlap(&s.a, false, &s.b, false), overlap(&a2, false, &b2, false));
        prop_assert_eq!(overlap(&s.b, false, &s.a, true), overlap(&b2, false, &a2, true));
        for e in EDGES {
            prop_assert_eq!(may_contact_edge(&s.b, &s.a, e), may_contact_edge(&b2, &a2, e));
        }
        for all_round in [false, true] {
            prop_assert_eq!(
                ThreatZone::of_element(&s.a, all_round).relation(&s.b),
                ThreatZone::of_element(&a2, all_round).relation(&b2)
            );
        }
        prop_assert!((nearest_distance(&s.a, &s.b) - nearest_distance(&a2, &b2)).abs() < 1e-9);
    }

    /// DBA3.md §9.2: shooting geometry does not depend on where the table is.
    #[test]
    fn shooting_survives_moving_the_table(
        s in loose_scene(),
        far in 0.0f64..3.0,
        deg in 0.0f64..360.0,
        tx in -20.0f64..20.0,
        ty in -20.0f64..20.0,
    ) {
        // DBA3.md §9.2: the shooting zone does not depend on where the table is.
        let t = Point::new(tx, ty);
        let b = el(s.b.pose.x, s.b.pose.y + far, s.b.pose.facing, s.b.depth);
        let (a2, b2) = (moved(&s.a, deg, t), moved(&b, deg, t));
        for all_round in [false, true] {
            let g1 = shot_geometry(&s.a, all_round, 3.0, &b);
            let g2 = shot_geometry(&a2, all_round, 3.0, &b2);
            prop_assert_eq!(g1.is_some(), g2.is_some());
            if let (Some(g1), Some(g2)) = (g1, g2) {
                prop_assert_eq!(g1.shooting_edge, g2.shooting_edge);
                prop_assert_eq!(g1.target_edge, g2.target_edge);
                prop_assert!((g1.distance - g2.distance).abs() < 1e-9);
            }
        }
    }

    /// DBA3.md §8.2: a contact reads the same from both elements (A front-to-B-rear iff B
    /// rear-to-A-front, and so on).
    #[test]
    fn contact_reads_the_same_from_both_sides(s in prop_oneof![contact_scene(), loose_scene()]) {
        // DBA3.md §8.2: a contact is the same seen from either element.
        let ab = classify_contact(&s.a, &s.b);
        let ba = classify_contact(&s.b, &s.a);
        prop_assert_eq!(ab.is_some(), ba.is_some());
        if let (Some(ab), Some(ba)) = (ab, ba) {
            let expected = match ab.kind {
                ContactKind::FrontToRear => ContactKind::RearToFront,
                ContactKind::RearToFront => ContactKind::FrontToRear,
                ContactKind::FrontToSide => ContactKind::SideToFront,
                ContactKind::SideToFront => ContactKind::FrontToSide,
                ContactKind::CornerToEdge => ContactKind::EdgeToCorner,
                ContactKind::EdgeToCorner => ContactKind::CornerToEdge,
                k => k,
            };
            prop_assert_eq!(ba.kind, expected);
            prop_assert_eq!(ba.a, ab.b);
            prop_assert_eq!(ba.b, ab.a);
            prop_assert_eq!(ba.lined_up, ab.lined_up);
        }
        // The scan agrees with the pairwise answer.
        let scan = scan_contacts(&[(1, 0u8, s.a), (2, 1u8, s.b)]);
        prop_assert_eq!(scan.len(), usize::from(classify_contact(&s.a, &s.b).is_some()));
        if let Some(r) = scan.first() {
            prop_assert!(same_contact(&Some(r.contact.clone()), &classify_contact(&s.a, &s.b)));
        }
    }

    /// DBA3.md §0.3: nothing counts as touching beyond the tolerance.
    #[test]
    fn nothing_touches_beyond_the_tolerance(
        ea in edge_strategy(),
        eb in edge_strategy(),
        db in depth_strategy(),
        offset in -1.3f64..1.3,
        gap in (1.01 * TOLERANCE)..0.5,
        facing in 0.0f64..360.0,
    ) {
        let a = el(0.0, 0.0, facing, 0.5);
        let b = place_against(&a, ea, eb, db, offset, gap);
        prop_assert!(classify_contact(&a, &b).is_none());
        prop_assert!(overlap(&a, false, &b, false).is_none());
        prop_assert!(overlap(&b, false, &a, false).is_none());
    }

    /// DBA3.md §0.3: a reported touch is within the tolerance, and anything within it is reported.
    #[test]
    fn reported_touches_are_within_the_tolerance(s in prop_oneof![contact_scene(), loose_scene()]) {
        let d = nearest_distance(&s.a, &s.b);
        match classify_contact(&s.a, &s.b) {
            None => prop_assert!(d > TOLERANCE - 1e-12),
            Some(c) if c.kind == ContactKind::Intersecting => prop_assert!(d == 0.0),
            Some(_) => prop_assert!(d <= TOLERANCE + 1e-12),
        }
    }

    /// DBA3.md §12.1, §12.4: a straight move stops on first contact: there the leading edge
    /// touches what it met, and nothing has been entered by more than the tolerance.
    #[test]
    fn straight_moves_stop_at_first_contact(
        s in loose_scene(),
        backward in any::<bool>(),
        far in 0.0f64..3.0,
    ) {
        // DBA3.md §7.2: a move stops at first contact.
        let ob = el(s.b.pose.x * 1.5, s.b.pose.y * 1.5 + far, s.b.pose.facing, s.b.depth);
        let mover = el(s.a.pose.x + 7.0, s.a.pose.y + 7.0, s.a.pose.facing, s.a.depth);
        let ob = el(ob.pose.x + 7.0, ob.pose.y + 7.0, ob.pose.facing, ob.depth);
        prop_assume!(convex_gap(&mover.corners(), &ob.corners()) > TOLERANCE);
        let board = BoardBounds { min: Point::new(-100.0, -100.0), max: Point::new(100.0, 100.0) };
        let dir = if backward { MoveDirection::Backward } else { MoveDirection::Forward };
        let obstacles = [Obstacle { id: 1, kind: ObstacleKind::Element, shape: ObstacleShape::Rect(ob) }];
        let out = first_met(&mover, dir, 6.0, &obstacles, &board);
        let f = mover.pose.forward() * if backward { -out.distance } else { out.distance };
        let after = el(mover.pose.x + f.x, mover.pose.y + f.y, mover.pose.facing, mover.depth);
        prop_assert!(convex_gap(&after.corners(), &ob.corners()) >= -TOLERANCE - 1e-9);
        if !out.met.is_empty() {
            let lead = if backward {
                let rear = after.edge(Edge::Rear);
                let poly = ob.polygon();
                poly.edges().map(|e| e.distance_to_point(rear.a).min(e.distance_to_point(rear.b)).min(rear.distance_to_point(e.a)).min(rear.distance_to_point(e.b))).fold(f64::INFINITY, f64::min)
            } else {
                front_edge_distance(&after, &ob)
            };
            prop_assert!(lead <= TOLERANCE + 1e-9, "leading edge {} away", lead);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { max_global_rejects: 100_000, ..ProptestConfig::default() })]

    /// DBA3.md §8.1: a straight move's entry distance into a threat zone is the first moment it is
    /// in the zone: there it holds the mover, a little earlier it did not.
    #[test]
    fn threat_zone_entry_is_the_first_moment_in(
        s in loose_scene(),
        all_round in any::<bool>(),
        bearing in 0.0f64..360.0,
        shift in 1.5f64..4.0,
    ) {
        // DBA3.md §8.1: entering a threat zone.
        let a = s.a;
        let start = Point::from_bearing(bearing + 180.0) * shift;
        let mover = el(s.b.pose.x + start.x, s.b.pose.y + start.y, s.b.pose.facing, s.b.depth);
        let tz = ThreatZone::of_element(&a, all_round);
        prop_assume!(!tz.holds(&mover));
        let dir = Point::from_bearing(bearing);
        if let Some(t) = tz.entry_distance(&mover, dir, 8.0) {
            let at = |d: f64| el(mover.pose.x + dir.x * d, mover.pose.y + dir.y * d, mover.pose.facing, mover.depth);
            prop_assert!(tz.holds(&at(t)));
            if t > 4.0 * TOLERANCE {
                prop_assert_eq!(tz.relation(&at(t - 4.0 * TOLERANCE)), ZoneRelation::Outside);
            }
        } else {
            let end = el(mover.pose.x + dir.x * 8.0, mover.pose.y + dir.y * 8.0, mover.pose.facing, mover.depth);
            prop_assert!(!tz.holds(&end));
        }
    }
}

#[test]
fn convex_hull_drops_inner_and_collinear_points() {
    let pts = [
        Point::new(0.0, 0.0),
        Point::new(1.0, 0.0),
        Point::new(2.0, 0.0),
        Point::new(2.0, 2.0),
        Point::new(1.0, 1.0),
        Point::new(0.0, 2.0),
        Point::new(2.0, 2.0),
    ];
    let h = convex_hull(&pts);
    assert_eq!(h.points.len(), 4);
    assert!((h.signed_area() - 4.0).abs() < 1e-12);
}

proptest! {
    /// The hull of points on a coarse grid (so that repeats and collinear runs are common; up to
    /// 24 points, beyond the 16 sorted on the stack) is the one strictly convex anticlockwise
    /// polygon of input points, starting at the least point by x then y, that holds every input
    /// point: such a polygon is unique, so any correct hull gives these points in this order.
    #[test]
    fn convex_hull_is_the_unique_strict_anticlockwise_hull(
        raw in prop::collection::vec((0i32..9, 0i32..9), 0..24)
    ) {
        let pts: Vec<Point> = raw
            .iter()
            .map(|&(x, y)| Point::new(f64::from(x) * 0.25, f64::from(y) * 0.25))
            .collect();
        let h = convex_hull(&pts).points;
        for v in &h {
            prop_assert!(pts.contains(v));
        }
        let least = pts
            .iter()
            .copied()
            .min_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        prop_assert_eq!(h.first().copied(), least);
        let n = h.len();
        if n >= 3 {
            for i in 0..n {
                let (a, b, c) = (h[i], h[(i + 1) % n], h[(i + 2) % n]);
                // Strictly convex, anticlockwise: every corner turns left.
                prop_assert!((b - a).cross(c - b) > 0.0);
                for &p in &pts {
                    prop_assert!((b - a).cross(p - a) >= 0.0);
                }
            }
        } else {
            // No area: nothing, one point, or the two ends of the segment every point lies on
            // (least first).
            prop_assert_eq!(n == 0, pts.is_empty());
            for &p in &pts {
                match n {
                    1 => prop_assert_eq!(p, h[0]),
                    _ => {
                        prop_assert!((h[1] - h[0]).cross(p - h[0]) == 0.0);
                        prop_assert!((p - h[0]).dot(h[1] - h[0]) >= 0.0);
                        prop_assert!((p - h[1]).dot(h[0] - h[1]) >= 0.0);
                    }
                }
            }
        }
    }
}

#[test]
fn convex_gap_measures_separation_and_depth() {
    let a = el(0.0, 0.0, 0.0, 1.0).corners();
    assert!((convex_gap(&a, &el(0.0, 1.5, 180.0, 1.0).corners()) - 1.5).abs() < 1e-12);
    assert!(convex_gap(&a, &el(0.0, 0.0, 180.0, 1.0).corners()).abs() < 1e-12);
    assert!((convex_gap(&a, &el(0.0, -0.25, 180.0, 1.0).corners()) + 0.25).abs() < 1e-12);
}
