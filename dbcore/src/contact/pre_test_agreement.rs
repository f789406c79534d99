//! Tests of contact (§8.2, §10.4): each pre-test and kept outline against the plain
//! classification it spares, to the bit, and the scan against every pair.

use super::*;
use crate::geometry::{boxes_apart, convex_gap, exact_bits, tolerance_side, Pose};

/// A small xorshift generator, so the random cases are the same on every run.
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Pairs of rectangles around the reach of the pre-tests: grid positions (the 2^-12 BW storage
/// grid makes exact touches common), a spread of bearings and the base depths of §1.3.
fn pairs() -> Vec<(ElementRect, ElementRect)> {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let depths = [0.5, 0.75, 1.0, 1.5, 2.0];
    let facings = [0.0, 90.0, 180.0, 270.0, 45.0, 30.0, 137.5];
    (0..20_000)
        .map(|_| {
            let at = |n: u64| (n % 32_768) as f64 / 4096.0;
            let a = ElementRect::new(
                Pose::new(0.0, 0.0, facings[(next() % 7) as usize]),
                1.0,
                depths[(next() % 5) as usize],
            );
            let b = ElementRect::new(
                Pose::new(
                    at(next()) - 2.0,
                    at(next()) - 2.0,
                    facings[(next() % 7) as usize],
                ),
                1.0,
                depths[(next() % 5) as usize],
            );
            (a, b)
        })
        .collect()
}

// DBA3.md §0.3: contact is decided within the tolerance; the cheap refusals in front of the
// exact tests (issue #15) must never change an answer.
#[test]
fn pose_distance_refusal_agrees_with_the_exact_classification() {
    let mut refused = 0;
    for (a, b) in pairs() {
        let exact = if rect_cmp(&a, &b) == Ordering::Greater {
            classify_ordered(&b, &a).map(|c| c.swapped())
        } else {
            classify_ordered(&a, &b)
        };
        if clearly_apart(&a, &b) {
            refused += 1;
            assert_eq!(exact, None, "{a:?} {b:?}");
        }
        assert_eq!(classify_contact(&a, &b), exact, "{a:?} {b:?}");
    }
    assert!(
        refused > 1000,
        "the sample reaches the pre-test ({refused})"
    );
}

// DBA3.md §0.3: the outline kept per rectangle (#15) gives the separating-axis gap and the
// edge lengths bit for bit as worked out afresh from the corners, and the corner refusals
// without square roots only refuse corners and edges further apart than the tolerance.
#[test]
fn outlines_and_corner_refusals_agree_with_a_fresh_computation() {
    use crate::geometry::convex_gap_up_to;
    let mut beyond = 0;
    for (a, b) in pairs() {
        let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
        for limit in [TOLERANCE, f64::INFINITY] {
            assert_eq!(
                outline_gap_up_to(&oa, &ob, limit).to_bits(),
                convex_gap_up_to(&a.corners(), &b.corners(), limit).to_bits(),
                "{a:?} {b:?}"
            );
        }
        for (k, e) in EDGES.into_iter().enumerate() {
            assert_eq!(oa.len[k].to_bits(), edge_of(&oa.c, e).length().to_bits());
            for p in ob.c {
                if clearly_beyond(edge_of(&oa.c, e), p) {
                    beyond += 1;
                    assert!(edge_of(&oa.c, e).distance_to_point(p) > TOLERANCE);
                }
            }
        }
    }
    assert!(beyond > 1000, "the sample reaches the refusal ({beyond})");
}

/// The classification written plainly, as it stood before the outlines (#15): the same
/// decisions on `Segment` and `Point` arithmetic, the gap afresh from the corners.
fn classify_reference(a: &ElementRect, b: &ElementRect) -> Option<Contact> {
    if rect_cmp(a, b) == Ordering::Greater {
        return classify_reference(b, a).map(|c| c.swapped());
    }
    let (ca, cb) = (a.corners(), b.corners());
    // Only compared with the tolerance below, so the gap may stop at the first axis above it.
    let gap = crate::geometry::convex_gap_up_to(&ca, &cb, TOLERANCE);
    if gap > TOLERANCE {
        return None;
    }
    if gap < -TOLERANCE {
        return Some(Contact {
            kind: ContactKind::Intersecting,
            a: None,
            b: None,
            shared_length: 0.0,
            lined_up: false,
        });
    }
    // Edge to edge: the longest shared portion wins (two rectangles that do not interpenetrate
    // can share only one edge pair; the maximum only settles near-degenerate ties).
    let mut best: Option<(Edge, Edge, f64)> = None;
    // Each edge's length once, not once per pair of edges.
    let lengths = |c: &[Point; 4]| EDGES.map(|e| edge_of(c, e).length());
    let (length_a, length_b) = (lengths(&ca), lengths(&cb));
    for (i, ea) in EDGES.into_iter().enumerate() {
        let sa = edge_of(&ca, ea);
        for (j, eb) in EDGES.into_iter().enumerate() {
            let sb = edge_of(&cb, eb);
            // Cheap rejections first: edges that do not run opposite ways, or whose midpoints are
            // too far apart for the edges to meet.
            // (A distance is never below either of its sides, so midpoints further apart than
            // the limit along an axis are refused without the square root.)
            let limit = 0.5 * (length_a[i] + length_b[j]) + TOLERANCE;
            let gap = sa.midpoint() - sb.midpoint();
            if (sa.b - sa.a).dot(sb.b - sb.a) >= 0.0
                || gap.x.abs() > limit
                || gap.y.abs() > limit
                || sa.midpoint().distance(sb.midpoint()) > limit
            {
                continue;
            }
            if let Some(len) = edge_contact_length_of(sa, sb, length_a[i], length_b[j]) {
                if best.is_none_or(|(_, _, l)| len > l) {
                    best = Some((ea, eb, len));
                }
            }
        }
    }
    if let Some((ea, eb, len)) = best {
        let near = |p: Corner, q: Corner| corner_of(&ca, p).near(corner_of(&cb, q));
        let (kind, lined_up) = match (ea, eb) {
            (Edge::Front, Edge::Front) => (
                ContactKind::FrontToFront,
                near(Corner::FrontLeft, Corner::FrontRight)
                    && near(Corner::FrontRight, Corner::FrontLeft),
            ),
            (Edge::Front, Edge::Rear) => (
                ContactKind::FrontToRear,
                near(Corner::FrontLeft, Corner::RearLeft)
                    && near(Corner::FrontRight, Corner::RearRight),
            ),
            (Edge::Rear, Edge::Front) => (
                ContactKind::RearToFront,
                near(Corner::RearLeft, Corner::FrontLeft)
                    && near(Corner::RearRight, Corner::FrontRight),
            ),
            (Edge::Front, side) if is_side(side) => {
                let theirs = if side == Edge::Left {
                    Corner::FrontLeft
                } else {
                    Corner::FrontRight
                };
                (
                    ContactKind::FrontToSide,
                    near(Corner::FrontLeft, theirs) || near(Corner::FrontRight, theirs),
                )
            }
            (side, Edge::Front) if is_side(side) => {
                let mine = if side == Edge::Left {
                    Corner::FrontLeft
                } else {
                    Corner::FrontRight
                };
                (
                    ContactKind::SideToFront,
                    near(mine, Corner::FrontLeft) || near(mine, Corner::FrontRight),
                )
            }
            (x, y) if is_side(x) && is_side(y) => (ContactKind::SideToSide, false),
            _ => (ContactKind::OtherEdges, false),
        };
        return Some(Contact {
            kind,
            a: Some(ContactPart::Edge(ea)),
            b: Some(ContactPart::Edge(eb)),
            shared_length: len,
            lined_up,
        });
    }
    // Corner to corner: the nearest pair within tolerance.
    let mut best_c: Option<(Corner, Corner, f64)> = None;
    for (i, p) in ca.iter().enumerate() {
        for (j, q) in cb.iter().enumerate() {
            // A distance is never below either of its sides: corners further apart than the
            // tolerance along an axis are refused without the square root.
            if (p.x - q.x).abs() > TOLERANCE || (p.y - q.y).abs() > TOLERANCE {
                continue;
            }
            let d = p.distance(*q);
            if d <= TOLERANCE && best_c.is_none_or(|(_, _, bd)| d < bd) {
                best_c = Some((CORNERS[i], CORNERS[j], d));
            }
        }
    }
    if let Some((p, q, _)) = best_c {
        return Some(Contact {
            kind: ContactKind::CornerToCorner,
            a: Some(ContactPart::Corner(p)),
            b: Some(ContactPart::Corner(q)),
            shared_length: 0.0,
            lined_up: false,
        });
    }
    // Corner to edge, either way round.
    let mut best_e: Option<(ContactKind, ContactPart, ContactPart, f64)> = None;
    for (i, p) in ca.iter().enumerate() {
        for eb in EDGES {
            if clearly_beyond(edge_of(&cb, eb), *p) {
                continue;
            }
            let d = edge_of(&cb, eb).distance_to_point(*p);
            if d <= TOLERANCE && best_e.as_ref().is_none_or(|x| d < x.3) {
                best_e = Some((
                    ContactKind::CornerToEdge,
                    ContactPart::Corner(CORNERS[i]),
                    ContactPart::Edge(eb),
                    d,
                ));
            }
        }
    }
    for (j, q) in cb.iter().enumerate() {
        for ea in EDGES {
            if clearly_beyond(edge_of(&ca, ea), *q) {
                continue;
            }
            let d = edge_of(&ca, ea).distance_to_point(*q);
            if d <= TOLERANCE && best_e.as_ref().is_none_or(|x| d < x.3) {
                best_e = Some((
                    ContactKind::EdgeToCorner,
                    ContactPart::Edge(ea),
                    ContactPart::Corner(CORNERS[j]),
                    d,
                ));
            }
        }
    }
    best_e.map(|(kind, pa, pb, _)| Contact {
        kind,
        a: Some(pa),
        b: Some(pb),
        shared_length: 0.0,
        lined_up: false,
    })
}

fn same_bits(x: &Option<Contact>, y: &Option<Contact>) -> bool {
    x == y
        && x.as_ref().map(|c| c.shared_length.to_bits())
            == y.as_ref().map(|c| c.shared_length.to_bits())
}

// DBA3.md §0.3, §8.2: the classification with the outline's kept numbers and the square
// roots skipped when clear (#15) gives every contact exactly as before, to the bit.
#[test]
fn classification_is_the_reference_to_the_bit() {
    let mut touching = 0;
    for (a, b) in pairs() {
        let want = classify_reference(&a, &b);
        touching += usize::from(want.is_some());
        let got = classify_contact(&a, &b);
        assert!(same_bits(&got, &want), "{a:?} {b:?}: {got:?} {want:?}");
        let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
        let got = classify_with_outlines((&a, &oa), (&b, &ob));
        assert!(same_bits(&got, &want), "{a:?} {b:?}");
    }
    assert!(touching > 1000, "the sample reaches contacts ({touching})");
}

// DBA3.md §8.2: the box sweep of the scan (#15) finds exactly the contacts of every pair,
// in pair order, on crowded tables cut from the sample.
#[test]
fn scan_finds_every_pair_contact() {
    let all = pairs();
    let mut found = 0;
    // Tables of 24 (sorted by insertion) and of 80 (by the library's sort).
    let tables = all.chunks(12).chain(all.chunks(40).take(100));
    for (t, chunk) in tables.enumerate() {
        let table: Vec<(u32, u8, ElementRect)> = chunk
            .iter()
            .enumerate()
            .flat_map(|(k, (a, b))| {
                // Pairs side by side, 1.5 BW apart, so that pairs meet pairs too.
                let dx = f64::from(k as u32 % 3) * 1.5;
                let at = |r: &ElementRect| {
                    let p = Pose::new(r.pose.x + dx, r.pose.y, r.pose.facing);
                    ElementRect::new(p, r.width, r.depth)
                };
                let k = k as u32;
                [
                    (2 * k, (k % 2) as u8, at(a)),
                    (2 * k + 1, ((k + t as u32) % 2) as u8, at(b)),
                ]
            })
            .collect();
        for enemies_only in [false, true] {
            let mut want = Vec::new();
            for i in 0..table.len() {
                for j in i + 1..table.len() {
                    if enemies_only && table[i].1 == table[j].1 {
                        continue;
                    }
                    if let Some(c) = classify_reference(&table[i].2, &table[j].2) {
                        want.push((table[i].0, table[j].0, c));
                    }
                }
            }
            let got = scan(&table, enemies_only);
            assert_eq!(got.len(), want.len(), "table {t}");
            for (g, (a, b, c)) in got.iter().zip(&want) {
                assert_eq!((g.a, g.b), (*a, *b), "table {t}");
                assert!(same_bits(&Some(g.contact.clone()), &Some(c.clone())));
            }
            found += got.len();
        }
    }
    assert!(found > 1000, "the tables have contacts ({found})");
}

#[test]
fn box_refusal_agrees_with_the_separating_axis_gap() {
    let mut refused = 0;
    for (a, b) in pairs() {
        let (ca, cb) = (a.corners(), b.corners());
        if boxes_apart(&ca, &cb, 0.0) {
            refused += 1;
            assert!(convex_gap(&ca, &cb) >= -TOLERANCE, "{a:?} {b:?}");
        }
        if boxes_apart(&ca, &cb, 1e-6) {
            assert!(convex_gap(&ca, &cb) > 1e-9, "{a:?} {b:?}");
        }
    }
    assert!(
        refused > 1000,
        "the sample reaches the pre-test ({refused})"
    );
}
/// A number in [0, 1) from the generator.
fn unit(next: &mut impl FnMut() -> u64) -> f64 {
    (next() >> 11) as f64 / (1u64 << 53) as f64
}

/// One of `k` choices from the generator.
fn pick(next: &mut impl FnMut() -> u64, k: usize) -> usize {
    ((unit(next) * k as f64) as usize).min(k - 1)
}

/// A width (most often 1) and a depth, zero and tiny among them.
fn size(next: &mut impl FnMut() -> u64) -> (f64, f64) {
    let sizes = [1.0, 0.5, 0.75, 1.5, 2.0, 0.0, 1e-300, 3.0];
    let width = if pick(next, 6) == 0 {
        sizes[pick(next, 8)]
    } else {
        1.0
    };
    (width, sizes[pick(next, 8)])
}

/// Pairs of rectangles placed every way a contact can come about (#15): touching along any
/// edge pair at an offset, square or a little turned, corner to corner, apart by about a
/// tolerance, overlapping, along the board's axes on the storage grid, rotated at random,
/// degenerate (width or depth zero), and with huge, tiny, infinite and NaN numbers.
fn placed_pairs(n: usize, seed: u64) -> Vec<(ElementRect, ElementRect)> {
    let mut next = xorshift(seed);
    let next = &mut next;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let square = [0.0, 90.0, 180.0, 270.0];
        let facing_a = match pick(next, 4) {
            0 | 1 => square[pick(next, 4)],
            2 => (unit(next) * 360.0 * 4096.0).round() / 4096.0,
            _ => unit(next) * 360.0,
        };
        let (wa, da) = size(next);
        let (wb, db) = size(next);
        let grid = |v: f64| (v * 4096.0).round() / 4096.0;
        let (xa, ya) = match pick(next, 3) {
            0 => (0.0, 0.0),
            1 => (grid(unit(next) * 30.0), grid(unit(next) * 20.0)),
            _ => (unit(next) * 30.0 - 15.0, unit(next) * 20.0 - 10.0),
        };
        let a = ElementRect::new(Pose::new(xa, ya, facing_a), wa, da);
        let ca = a.corners();
        let offsets = [0.0, 1e-12, -1e-12, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0];
        let off =
            offsets[pick(next, 10)] * TOLERANCE + if pick(next, 4) == 0 { 1e-15 } else { 0.0 };
        let turn = [0.0, 0.0, 0.0, 1e-9, -1e-9, 0.01, 1.0, 90.0, 180.0, 270.0][pick(next, 10)];
        let mut b = match pick(next, 6) {
            // Near at random, any facing.
            0 => ElementRect::new(
                Pose::new(
                    xa + unit(next) * 4.0 - 2.0,
                    ya + unit(next) * 4.0 - 2.0,
                    unit(next) * 360.0,
                ),
                wb,
                db,
            ),
            // An edge of B against an edge of A, moved along it and out by `off`.
            1 | 2 => {
                let (k, m) = (pick(next, 4), pick(next, 4));
                let (sa, along) = (edge_of(&ca, EDGES[k]), unit(next) * 2.0 - 0.5);
                let d = sa.b - sa.a;
                let l = d.length().max(1e-300);
                let normal = Point::new(d.y / l, -d.x / l);
                let target = sa.a + d * along + normal * off;
                // B facing so that its edge `m` faces A's edge `k`, then turned a little.
                let inward = facing_a + [180.0, 0.0, 90.0, 270.0][k];
                let face = inward + [0.0, 270.0, 180.0, 90.0][m] + turn;
                let trial = ElementRect::new(Pose::new(0.0, 0.0, face), wb, db);
                let mid = edge_of(&trial.corners(), EDGES[m]).midpoint();
                let at = target - mid;
                ElementRect::new(Pose::new(at.x, at.y, face), wb, db)
            }
            // A corner of B on a corner of A, give or take `off`.
            3 => {
                let face = facing_a + turn + [0.0, 90.0, 180.0, 270.0, 45.0][pick(next, 5)];
                let trial = ElementRect::new(Pose::new(0.0, 0.0, face), wb, db);
                let at = ca[pick(next, 4)] - trial.corners()[pick(next, 4)] + Point::new(off, -off);
                ElementRect::new(Pose::new(at.x, at.y, face), wb, db)
            }
            // On the storage grid, square to the board (exact touches are common).
            4 => ElementRect::new(
                Pose::new(
                    xa + grid(unit(next) * 4.0 - 2.0),
                    ya + grid(unit(next) * 4.0 - 2.0),
                    square[pick(next, 4)],
                ),
                wb,
                db,
            ),
            // Overlapping or inside.
            _ => ElementRect::new(
                Pose::new(
                    xa + unit(next) - 0.5,
                    ya + unit(next) - 0.5,
                    facing_a + turn,
                ),
                wb,
                db,
            ),
        };
        let mut a = a;
        match pick(next, 24) {
            0 => a.pose.x = f64::NAN,
            1 => b.pose.y = f64::INFINITY,
            2 => b.depth = f64::NAN,
            3 => b.pose.facing = f64::NEG_INFINITY,
            4 => a.width = f64::INFINITY,
            5 | 6 => {
                // Huge or tiny: the same pair scaled.
                let k = [1e300, 1e-300][pick(next, 2)];
                for r in [&mut a, &mut b] {
                    r.pose.x *= k;
                    r.pose.y *= k;
                    r.width *= k;
                    r.depth *= k;
                }
            }
            7 => b.pose.x = -0.0,
            _ => {}
        }
        out.push((a, b));
    }
    out
}

// DBA3.md §0.3, §8.2: the classifier with the box gap of aligned rectangles, the lengths
// along the board's axes without a square root and the distance tests on squares (#15)
// gives every contact exactly as the plain classifier, to the bit, on pairs placed every
// way, either way round.
#[test]
fn classification_of_placed_pairs_is_the_reference_to_the_bit() {
    let (mut aligned, mut edges, mut corners, mut crossing, mut apart) = (0, 0, 0, 0, 0);
    for (a, b) in placed_pairs(120_000, 0x9e37_79b9_7f4a_7c15) {
        for (a, b) in [(a, b), (b, a)] {
            // The classifier as it stood: the pose pre-test, then the plain classification
            // (the pre-test refuses some degenerate pairs the plain gap calls intersecting).
            let want = if clearly_apart(&a, &b) {
                None
            } else {
                classify_reference(&a, &b)
            };
            let got = classify_contact(&a, &b);
            assert!(same_bits(&got, &want), "{a:?} {b:?}: {got:?} {want:?}");
            let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
            let got = classify_with_outlines((&a, &oa), (&b, &ob));
            assert!(same_bits(&got, &want), "{a:?} {b:?}: {got:?} {want:?}");
            aligned += usize::from(oa.aligned != 0 && ob.aligned != 0);
            match want.map(|c| c.kind) {
                None => apart += 1,
                Some(ContactKind::Intersecting) => crossing += 1,
                Some(ContactKind::CornerToCorner)
                | Some(ContactKind::CornerToEdge)
                | Some(ContactKind::EdgeToCorner) => corners += 1,
                Some(_) => edges += 1,
            }
        }
    }
    // The sample reaches every branch.
    for (what, n) in [
        ("aligned pairs", aligned),
        ("edge contacts", edges),
        ("corner contacts", corners),
        ("intersecting pairs", crossing),
        ("pairs apart", apart),
    ] {
        assert!(n > 2000, "{what}: {n}");
    }
}

// DBA3.md §0.3: an aligned outline's lengths and the box gap are what the outline's axes
// give: each length `Point::length`'s to the bit, and the gap on the same side of the
// tolerance as the separating-axis gap (and equal to it when not above), with grid, random,
// huge and tiny pairs.
#[test]
fn box_gap_and_lengths_agree_with_the_axes() {
    let mut boxed = 0;
    for (a, b) in placed_pairs(60_000, 0x1234_5678_9abc_def1) {
        let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
        for o in [&oa, &ob] {
            for (k, e) in EDGES.into_iter().enumerate() {
                assert_eq!(o.len[k].to_bits(), edge_of(&o.c, e).length().to_bits());
            }
        }
        if oa.aligned == 0 || ob.aligned == 0 {
            continue;
        }
        boxed += 1;
        let full = convex_gap(&oa.c, &ob.c);
        let (got, early) = (box_gap(&oa, &ob), outline_gap_up_to(&oa, &ob, TOLERANCE));
        assert_eq!(got > TOLERANCE, early > TOLERANCE, "{a:?} {b:?}");
        if got <= TOLERANCE {
            assert_eq!(got, full, "{a:?} {b:?}");
            assert_eq!(got, early, "{a:?} {b:?}");
        }
    }
    assert!(boxed > 1000, "the sample reaches aligned pairs ({boxed})");
}

// DBA3.md §0.3: a length is within the tolerance, or beyond it, on squares exactly when the
// hypotenuse says so: lengths a hair either side of it in every direction, along the axes,
// zeros of both signs, tiny, huge, infinite and NaN sides.
#[test]
fn squared_tolerance_tests_agree_with_the_hypotenuse() {
    let mut next = xorshift(0x0bad_5eed_1234_4321);
    let next = &mut next;
    let special = [
        0.0,
        -0.0,
        TOLERANCE,
        -TOLERANCE,
        f64::MIN_POSITIVE,
        5e-324,
        1e300,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut checked = 0;
    for k in 0..200_000 {
        let v = match k % 4 {
            0 => {
                let angle = unit(next) * std::f64::consts::TAU;
                let scale = 1.0 + (unit(next) * 2.0 - 1.0) * [1e-5, 1e-6, 1e-9, 1e-15][k % 3];
                Point::new(angle.cos(), angle.sin()) * (TOLERANCE * scale)
            }
            1 => {
                let l = TOLERANCE * (1.0 + (unit(next) - 0.5) * 1e-5);
                [Point::new(l, 0.0), Point::new(-0.0, -l)][k % 2]
            }
            2 => Point::new(
                special[(unit(next) * 11.0) as usize % 11],
                special[(unit(next) * 11.0) as usize % 11],
            ),
            _ => Point::new(unit(next) * 0.01 - 0.005, unit(next) * 0.01 - 0.005),
        };
        assert_eq!(beyond_tolerance(v), v.length() > TOLERANCE, "{v:?}");
        assert_eq!(within_tolerance(v), v.length() <= TOLERANCE, "{v:?}");
        assert_eq!(edge_length(v).to_bits(), v.length().to_bits(), "{v:?}");
        checked += usize::from(tolerance_side(v).is_none());
    }
    assert!(checked > 100, "the sample reaches close calls ({checked})");
}

/// The scan's box as it was first written (#15): the extremes of the four corners, widened.
fn scan_box_reference(o: &RectOutline) -> (f64, f64, f64, f64) {
    let reach = 2.0 * TOLERANCE;
    let c = &o.c;
    if !c.iter().all(|p| p.x.is_finite() && p.y.is_finite()) {
        let inf = f64::INFINITY;
        return (-inf, -inf, inf, inf);
    }
    let xs = c.iter().map(|p| p.x);
    let ys = c.iter().map(|p| p.y);
    (
        xs.clone().fold(f64::INFINITY, f64::min) - reach,
        ys.clone().fold(f64::INFINITY, f64::min) - reach,
        xs.fold(f64::NEG_INFINITY, f64::max) + reach,
        ys.fold(f64::NEG_INFINITY, f64::max) + reach,
    )
}

/// Rectangles of every kind the outline meets: the random pairs, the placed pairs, and poses
/// with zeros of both signs, huge and non-finite coordinates and degenerate sizes.
fn outline_sample() -> Vec<ElementRect> {
    let mut rects: Vec<ElementRect> = pairs()
        .into_iter()
        .chain(placed_pairs(4_000, 0x5eed_c0de_0001))
        .flat_map(|(a, b)| [a, b])
        .collect();
    let coords = [0.0, -0.0, 1.0, -2.5, 1e300, f64::INFINITY, f64::NAN];
    let facings = [0.0, -0.0, 90.0, 180.0, 270.0, 45.0, f64::NAN];
    let sizes = [0.0, -0.0, 1.0, 0.5, f64::INFINITY];
    for (k, &x) in coords.iter().enumerate() {
        for &f in &facings {
            for &w in &sizes {
                let y = coords[(k + 2) % coords.len()];
                rects.push(ElementRect::new(Pose::new(x, y, f), w, 0.75));
                rects.push(ElementRect::new(Pose::new(x, -y, f), 1.0, w));
            }
        }
    }
    rects
}

// DBA3.md §8.2: the scan's box (#15) of an aligned rectangle, taken from two opposite
// corners, is the box of all four to the bit; the others take it as before.
#[test]
fn scan_box_is_the_box_of_the_four_corners() {
    let (mut aligned, mut not) = (0, 0);
    for r in outline_sample() {
        let o = RectOutline::of(&r);
        let (got, want) = (scan_box(&o), scan_box_reference(&o));
        let bits =
            |b: (f64, f64, f64, f64)| [b.0.to_bits(), b.1.to_bits(), b.2.to_bits(), b.3.to_bits()];
        assert_eq!(bits(got), bits(want), "{r:?}");
        if o.aligned != 0 {
            aligned += 1;
        } else {
            not += 1;
        }
    }
    assert!(
        aligned > 1000 && not > 1000,
        "both kinds ({aligned}, {not})"
    );
}

// DBA3.md §0.3: an outline keeps no axes when it is aligned (#15); the axes it works out on
// the way are those a full outline keeps, to the bit.
#[test]
fn axes_worked_out_on_the_way_are_the_kept_ones() {
    let mut aligned = 0;
    for r in outline_sample() {
        let o = RectOutline::of(&r);
        aligned += usize::from(o.aligned != 0);
        for i in 0..4 {
            let d = o.c[(i + 1) % 4] - o.c[i];
            let l = d.length();
            let axis = if l != 0.0 {
                Point::new(-d.y / l, d.x / l)
            } else {
                Point::new(0.0, 0.0)
            };
            let own = projection(&o.c, axis);
            let (got_axis, got_own) = o.axis_and_own_kept(i);
            assert_eq!(
                [got_axis.x, got_axis.y, got_own.0, got_own.1].map(f64::to_bits),
                [axis.x, axis.y, own.0, own.1].map(f64::to_bits),
                "{r:?} edge {i}"
            );
        }
    }
    assert!(
        aligned > 1000,
        "the sample has aligned outlines ({aligned})"
    );
}

// DBA3.md §8.2: aligned edges on lines more than two tolerances apart (#15) are exactly those
// the edge contact refuses without looking further; nearer ones are left to it, and some of
// them are in contact.
#[test]
fn aligned_edges_apart_are_refused_by_the_edge_contact() {
    let (mut apart, mut near_contact) = (0, 0);
    for (a, b) in pairs()
        .into_iter()
        .chain(placed_pairs(20_000, 0x5eed_c0de_0002))
    {
        let (oa, ob) = (RectOutline::of(&a), RectOutline::of(&b));
        if oa.aligned == 0 || ob.aligned == 0 {
            continue;
        }
        for (i, ea) in EDGES.into_iter().enumerate() {
            let along_x = (oa.aligned == 1) == (i % 2 == 0);
            for (j, eb) in EDGES.into_iter().enumerate() {
                // Only edges along the same axis are asked.
                let j_along_x = (ob.aligned == 1) == (j % 2 == 0);
                if j_along_x != along_x {
                    continue;
                }
                let (sa, sb) = (edge_of(&oa.c, ea), edge_of(&ob.c, eb));
                let exact = edge_contact_length_of(sa, sb, oa.len[i], ob.len[j]);
                if oa.moderate && ob.moderate && aligned_edges_apart(&oa.c, i, &ob.c, j, along_x) {
                    apart += 1;
                    assert_eq!(exact, None, "{a:?} {b:?} {i} {j}");
                } else if exact.is_some() {
                    near_contact += 1;
                }
            }
        }
    }
    assert!(
        apart > 1000 && near_contact > 100,
        "both outcomes ({apart}, {near_contact})"
    );
}

// The squared tests of the midpoints (#15) answer as the hypotenuse does, inside, outside
// and at the limit, with zeros, huge, tiny and non-finite numbers.
#[test]
fn midpoint_squares_agree_with_the_hypotenuse() {
    let mut next = xorshift(0x1357_9bdf_2468_ace0);
    let next = &mut next;
    let special = [
        0.0,
        -0.0,
        1e-160,
        5e-324,
        1e160,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let (mut inside, mut outside) = (0, 0);
    for k in 0..200_000 {
        let limit = match k % 5 {
            0 => special[pick(next, special.len())],
            1 => TOLERANCE,
            _ => 0.5 + unit(next) * 2.0,
        };
        let gap = match k % 3 {
            0 => {
                let angle = unit(next) * std::f64::consts::TAU;
                let scale = 1.0 + (unit(next) * 2.0 - 1.0) * [1e-5, 1e-7, 1e-15][k % 4 % 3];
                Point::new(angle.cos(), angle.sin()) * (limit * scale)
            }
            1 => Point::new(
                special[pick(next, special.len())],
                special[pick(next, special.len())],
            ),
            _ => Point::new(unit(next) * 6.0 - 3.0, unit(next) * 6.0 - 3.0),
        };
        let want = !matches!(gap.length().partial_cmp(&limit), Some(Ordering::Greater));
        assert_eq!(midpoints_within(gap, limit), want, "{gap:?} {limit}");
        if want {
            inside += 1;
        } else {
            outside += 1;
        }
    }
    assert!(
        inside > 1000 && outside > 1000,
        "both ({inside}, {outside})"
    );
}

// DBA3.md §1.3: the edges read from the corners worked out with one sine and cosine (#15),
// which the close combat's supporters and battlefield-edge overlaps read, are
// `ElementRect::edge` to the bit.
#[test]
fn edges_of_the_corners_are_the_edges_to_the_bit() {
    let mut turned = 0;
    for r in outline_sample() {
        let bits = |c: [Point; 4]| c.map(|p| [exact_bits(p.x), exact_bits(p.y)]);
        for e in EDGES {
            let (got, want) = (edge_of(&r.corners(), e), r.edge(e));
            assert_eq!(
                bits([got.a, got.b, got.a, got.b]),
                bits([want.a, want.b, want.a, want.b])
            );
        }
        turned += usize::from(r.pose.facing != 0.0);
    }
    assert!(turned > 1000, "the sample has turned elements ({turned})");
}
