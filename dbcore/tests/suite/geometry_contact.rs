//! Contact classification, overlap and flank/rear eligibility (DBA3.md §8.2, §8.4, §10.4).

use dbcore::contact::{
    classify_contact, may_contact_edge, overlap, scan_contacts, ContactKind, ContactPart,
    OverlapKind,
};
use dbcore::geometry::{Corner, Edge, ElementRect, Point, Pose, TOLERANCE};

fn el(x: f64, y: f64, facing: f64, depth: f64) -> ElementRect {
    ElementRect::new(Pose::new(x, y, facing), 1.0, depth)
}

/// Move `r` so that its corner `c` lands on `to`.
fn with_corner_at(r: ElementRect, c: Corner, to: Point) -> ElementRect {
    let d = to - r.corner(c);
    el(r.pose.x + d.x, r.pose.y + d.y, r.pose.facing, r.depth)
}

#[test]
fn full_mutual_front_contact_is_lined_up_8_2_a() {
    // DBA3.md §8.2 (a): front corners touching both sides.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = el(0.0, 0.0, 180.0, 0.75);
    let c = classify_contact(&a, &b).expect("touching");
    assert_eq!(c.kind, ContactKind::FrontToFront);
    assert_eq!(c.a, Some(ContactPart::Edge(Edge::Front)));
    assert_eq!(c.b, Some(ContactPart::Edge(Edge::Front)));
    assert!(c.lined_up);
    assert!((c.shared_length - 1.0).abs() < 1e-9);
}

#[test]
fn offset_front_contact_is_not_lined_up_8_2_a() {
    // DBA3.md §8.2 (a): an offset front contact is a contact but not a legal final position.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = el(0.3, 0.0, 180.0, 0.5);
    let c = classify_contact(&a, &b).unwrap();
    assert_eq!(c.kind, ContactKind::FrontToFront);
    assert!(!c.lined_up);
    assert!((c.shared_length - 0.7).abs() < 1e-9);
}

#[test]
fn lined_up_within_tolerance_but_not_beyond_8_2_a() {
    // DBA3.md §0.3 / §8.2: corners "touch" within the tolerance only.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let near = classify_contact(&a, &el(0.5 * TOLERANCE, 0.0, 180.0, 0.5)).unwrap();
    assert!(near.lined_up);
    let off = classify_contact(&a, &el(2.0 * TOLERANCE, 0.0, 180.0, 0.5)).unwrap();
    assert!(!off.lined_up);
}

#[test]
fn front_to_rear_seen_from_both_elements_8_2_b() {
    // DBA3.md §8.2 (b): full front edge to rear edge contact.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = el(0.0, 0.75, 0.0, 0.75); // rear edge on y = 0
    let c = classify_contact(&a, &b).unwrap();
    assert_eq!(c.kind, ContactKind::FrontToRear);
    assert_eq!(c.b, Some(ContactPart::Edge(Edge::Rear)));
    assert!(c.lined_up);
    let back = classify_contact(&b, &a).unwrap();
    assert_eq!(back.kind, ContactKind::RearToFront);
    assert_eq!(back, c.swapped());
}

#[test]
fn front_to_side_with_front_corners_together_8_2_c() {
    // DBA3.md §8.2 (c): front edge against a side edge, the two front corners touching.
    let target = el(0.0, 0.0, 0.0, 0.5); // left edge on x = -0.5, front-left corner (-0.5, 0)
    let flanker = with_corner_at(
        el(0.0, 0.0, 90.0, 0.5),
        Corner::FrontLeft,
        target.corner(Corner::FrontLeft),
    );
    let c = classify_contact(&flanker, &target).unwrap();
    assert_eq!(c.kind, ContactKind::FrontToSide);
    assert_eq!(c.b, Some(ContactPart::Edge(Edge::Left)));
    assert!(c.lined_up);
    assert!((c.shared_length - 0.5).abs() < 1e-9);
    assert_eq!(
        classify_contact(&target, &flanker).unwrap().kind,
        ContactKind::SideToFront
    );

    // Slid back along the side by a quarter: still a flank contact, no longer squared up.
    let slid = el(flanker.pose.x, flanker.pose.y - 0.25, 90.0, 0.5);
    let c = classify_contact(&slid, &target).unwrap();
    assert_eq!(c.kind, ContactKind::FrontToSide);
    assert!(!c.lined_up);
}

#[test]
fn mutual_side_contact_8_2_and_10_4() {
    // DBA3.md §8.2 / §10.4: mutual side-edge contact.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = el(1.0, -0.5, 180.0, 0.5); // x in [0.5, 1.5], facing the other way
    let c = classify_contact(&a, &b).unwrap();
    assert_eq!(c.kind, ContactKind::SideToSide);
    assert_eq!(c.a, Some(ContactPart::Edge(Edge::Right)));
    assert_eq!(c.b, Some(ContactPart::Edge(Edge::Right)));
    assert!(!c.lined_up);
    // §10.4: counts as overlap even against Psiloi or Scythed Chariots.
    assert_eq!(overlap(&a, true, &b, true), Some(OverlapKind::SideEdges));
}

#[test]
fn rear_to_rear_is_other_edges() {
    // DBA3.md §8.2: rear to rear is none of the legal contact positions.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = el(0.0, -1.0, 180.0, 0.5);
    assert_eq!(
        classify_contact(&a, &b).unwrap().kind,
        ContactKind::OtherEdges
    );
}

/// The typical overlap: `overlapper` stands beside `friend`, which is in full frontal contact
/// with `enemy`.
fn overlap_scene() -> (ElementRect, ElementRect, ElementRect) {
    let friend = el(0.0, 0.0, 0.0, 0.5);
    let enemy = el(0.0, 0.0, 180.0, 0.5);
    let overlapper = el(1.0, 0.0, 0.0, 0.5);
    (friend, enemy, overlapper)
}

#[test]
fn front_corners_left_to_left_overlap_10_4() {
    // DBA3.md §10.4: front corners touching left-to-left is an overlap.
    let (_, enemy, overlapper) = overlap_scene();
    let c = classify_contact(&overlapper, &enemy).unwrap();
    assert_eq!(c.kind, ContactKind::CornerToCorner);
    assert_eq!(c.a, Some(ContactPart::Corner(Corner::FrontLeft)));
    assert_eq!(c.b, Some(ContactPart::Corner(Corner::FrontLeft)));
    assert_eq!(
        overlap(&overlapper, false, &enemy, false),
        Some(OverlapKind::FrontCorners)
    );
    // Symmetric: the enemy overlaps the overlapper too (right-to-right seen the other way round
    // would be the mirror scene).
    assert_eq!(
        overlap(&enemy, false, &overlapper, false),
        Some(OverlapKind::FrontCorners)
    );
}

#[test]
fn psiloi_and_scythed_chariots_not_overlapped_by_corners_10_4() {
    // DBA3.md §10.4 exception: Ps and SCh are never overlapped by corner-to-corner contact.
    let (_, enemy, overlapper) = overlap_scene();
    assert_eq!(overlap(&overlapper, false, &enemy, true), None);
}

#[test]
fn element_in_frontal_combat_does_not_overlap_10_4() {
    // DBA3.md §10.4: only an element not in frontal close combat overlaps.
    let (_, enemy, overlapper) = overlap_scene();
    assert_eq!(overlap(&overlapper, true, &enemy, false), None);
}

#[test]
fn front_right_to_front_left_corner_is_not_overlap_10_4() {
    // DBA3.md §10.4: right-to-right or left-to-left only. Diagonal corner contact with an enemy
    // facing the same way (its front-left on our front-right) is not an overlap.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = with_corner_at(
        el(0.0, 0.0, 0.0, 0.5),
        Corner::RearLeft,
        a.corner(Corner::FrontRight),
    );
    let c = classify_contact(&a, &b).unwrap();
    assert_eq!(c.kind, ContactKind::CornerToCorner);
    assert_eq!(overlap(&a, false, &b, false), None);
}

#[test]
fn corner_against_an_edge() {
    // DBA3.md §8.2: a corner against an edge is not lined up.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = with_corner_at(
        el(0.0, 0.0, 225.0, 0.5),
        Corner::FrontLeft,
        Point::new(0.1, 0.0),
    );
    let c = classify_contact(&b, &a).unwrap();
    assert_eq!(c.kind, ContactKind::CornerToEdge);
    assert_eq!(c.a, Some(ContactPart::Corner(Corner::FrontLeft)));
    assert_eq!(c.b, Some(ContactPart::Edge(Edge::Front)));
    assert_eq!(
        classify_contact(&a, &b).unwrap().kind,
        ContactKind::EdgeToCorner
    );
}

#[test]
fn touching_only_within_tolerance_0_3() {
    // DBA3.md §0.3: touching means within the one tolerance.
    let a = el(0.0, 0.0, 0.0, 0.5);
    assert!(classify_contact(&a, &el(0.0, 0.5 * TOLERANCE, 180.0, 0.5)).is_some());
    assert!(classify_contact(&a, &el(0.0, TOLERANCE, 180.0, 0.5)).is_some());
    assert!(classify_contact(&a, &el(0.0, 1.5 * TOLERANCE, 180.0, 0.5)).is_none());
}

#[test]
fn interpenetration_is_reported() {
    // DBA3.md §7.2, §0.3: elements may not overlap beyond the tolerance.
    let a = el(0.0, 0.0, 0.0, 0.5);
    let b = el(0.0, -0.1, 180.0, 0.5);
    assert_eq!(
        classify_contact(&a, &b).unwrap().kind,
        ContactKind::Intersecting
    );
    // Interpenetrating by less than the tolerance is still a touch.
    let c = classify_contact(&a, &el(0.0, -0.5 * TOLERANCE, 180.0, 0.5)).unwrap();
    assert_eq!(c.kind, ContactKind::FrontToFront);
}

#[test]
fn scan_reports_every_touching_pair_in_slice_order() {
    // DBA3.md §8.2: every contact on the table is found.
    // Two friends side by side (side 0) facing two enemies (side 1), the second offset by half a
    // base so the enemies do not touch each other, plus a far element.
    let elements = vec![
        (10, 0u8, el(0.0, 0.0, 0.0, 0.5)),
        (11, 0u8, el(1.0, 0.0, 0.0, 0.5)),
        (20, 1u8, el(0.0, 0.0, 180.0, 0.5)),
        (21, 1u8, el(1.5, 0.0, 180.0, 0.5)),
        (30, 1u8, el(8.0, 8.0, 90.0, 0.5)),
    ];
    let found = scan_contacts(&elements);
    let pairs: Vec<(u32, u32, bool, ContactKind)> = found
        .iter()
        .map(|r| (r.a, r.b, r.same_side, r.contact.kind))
        .collect();
    assert_eq!(
        pairs,
        vec![
            (10, 11, true, ContactKind::SideToSide),
            (10, 20, false, ContactKind::FrontToFront),
            (11, 20, false, ContactKind::CornerToCorner),
            (11, 21, false, ContactKind::FrontToFront),
        ]
    );
    assert!(found[1].contact.lined_up);
    assert!(!found[3].contact.lined_up);
}

#[test]
fn side_contact_from_beyond_the_side_line_8_4() {
    // DBA3.md §8.4: a mover entirely beyond the line extending the side edge may hit that side.
    let target = el(0.0, 0.0, 0.0, 0.5);
    let mover = el(2.0, 0.0, 270.0, 0.5);
    assert!(may_contact_edge(&mover, &target, Edge::Right));
    assert!(!may_contact_edge(&mover, &target, Edge::Left));
    assert!(!may_contact_edge(&mover, &target, Edge::Rear));
    assert!(may_contact_edge(&mover, &target, Edge::Front));
}

#[test]
fn side_contact_refused_from_in_front_8_4() {
    // DBA3.md §8.4: partly beyond the side line but in front of the rear line: not allowed.
    let target = el(0.0, 0.0, 0.0, 0.5);
    let mover = el(0.8, 2.0, 180.0, 0.5);
    assert!(!may_contact_edge(&mover, &target, Edge::Right));
}

#[test]
fn side_contact_from_behind_and_outside_8_4() {
    // DBA3.md §8.4: partly beyond both the side-edge line and the rear-edge line.
    let target = el(0.0, 0.0, 0.0, 0.5);
    let behind_right = el(0.6, -1.2, 0.0, 0.5);
    assert!(may_contact_edge(&behind_right, &target, Edge::Right));
    assert!(!may_contact_edge(&behind_right, &target, Edge::Left));
    let behind_left = el(-0.2, -1.0, 0.0, 0.5);
    assert!(may_contact_edge(&behind_left, &target, Edge::Left));
    assert!(!may_contact_edge(&behind_left, &target, Edge::Right));
}

#[test]
fn rear_contact_only_from_wholly_behind_8_4() {
    // DBA3.md §8.4: wholly on the far side of the rear edge's extended line.
    let target = el(0.0, 0.0, 0.0, 0.5); // rear line y = -0.5
    assert!(may_contact_edge(
        &el(3.0, -0.5, 0.0, 0.5),
        &target,
        Edge::Rear
    ));
    assert!(may_contact_edge(
        &el(0.3, -2.0, 0.0, 0.5),
        &target,
        Edge::Rear
    ));
    // Straddling the rear line: not wholly beyond.
    assert!(!may_contact_edge(
        &el(3.0, -0.3, 0.0, 0.5),
        &target,
        Edge::Rear
    ));
}
