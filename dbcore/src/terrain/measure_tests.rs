//! Tests of the shapes (DBA3.md §3.2, §3.8: sizes and outlines): each fast form against the plain
//! form it replaced.

use super::*;
use proptest::prelude::*;

/// `measure` as it was written before its tables: every bearing worked out in each search,
/// every section through [`length_inside`].
fn measure_plain(poly: &Polygon) -> FeatureSize {
    let c = centroid(poly);
    let mut best = (f64::INFINITY, 0.0, 0.0, 0.0);
    for i in 0..720 {
        let ang = i as f64 * 0.25;
        let u = Point::from_bearing(ang);
        let v = u.right();
        let (mut ulo, mut uhi, mut vlo, mut vhi) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for &p in &poly.points {
            let du = (p - c).dot(u);
            let dv = (p - c).dot(v);
            ulo = ulo.min(du);
            uhi = uhi.max(du);
            vlo = vlo.min(dv);
            vhi = vhi.max(dv);
        }
        let (lu, lv) = (uhi - ulo, vhi - vlo);
        if lu + lv < best.0 - 1e-12 {
            best = (lu + lv, lu, lv, ang);
        }
    }
    let (_, lu, lv, _) = best;
    let (length, breadth) = if lu >= lv { (lu, lv) } else { (lv, lu) };
    let reach = (length + breadth) * 2.0 + 1.0;
    let centre_width = (0..720)
        .map(|i| {
            let across = Point::from_bearing(i as f64 * 0.25);
            length_inside(&Segment::new(c - across * reach, c + across * reach), poly)
        })
        .fold(f64::INFINITY, f64::min);
    FeatureSize {
        length,
        breadth,
        centre_width,
    }
}

fn bits(s: FeatureSize) -> [u64; 3] {
    [
        s.length.to_bits(),
        s.breadth.to_bits(),
        s.centre_width.to_bits(),
    ]
}

/// A star-shaped outline: `radii` at even bearings about `centre`, scaled.
fn star(centre: (f64, f64), radii: &[f64], turn: f64) -> Polygon {
    let n = radii.len() as f64;
    Polygon::new(
        radii
            .iter()
            .enumerate()
            .map(|(k, &r)| {
                let p = Point::from_bearing(turn + k as f64 * 360.0 / n) * r;
                Point::new(centre.0 + p.x, centre.1 + p.y)
            })
            .collect(),
    )
}

#[test]
fn measure_matches_the_plain_measure_on_fixed_shapes() {
    let shapes = [
        Polygon::new(vec![]),
        Polygon::new(vec![Point::new(1.0, 1.0)]),
        Polygon::new(vec![Point::new(1.0, 1.0), Point::new(3.0, 2.0)]),
        // Collinear, zero area.
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(1.0, 1.0),
            Point::new(2.0, 2.0),
        ]),
        AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 3.0), Point::new(5.0, 5.5)).outline,
        AreaFeature::rectangle(AreaKind::Wood, Point::new(0.0, 0.0), Point::new(1.0, 8.0)).outline,
        // An L (concave: some sections through the centroid leave and re-enter).
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(4.0, 0.0),
            Point::new(4.0, 1.0),
            Point::new(1.0, 1.0),
            Point::new(1.0, 4.0),
            Point::new(0.0, 4.0),
        ]),
        // A repeated vertex and a non-finite one.
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(0.0, 0.0),
            Point::new(2.0, 0.0),
            Point::new(1.0, 2.0),
        ]),
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(f64::NAN, 0.0),
            Point::new(1.0, 2.0),
        ]),
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(f64::INFINITY, 0.0),
            Point::new(1.0, 2.0),
        ]),
        star((6.0, 6.0), &[2.0; 16], 0.0),
        star((6.0, 6.0), &[1.0, 3.0, 1.0, 3.0, 1.0, 3.0, 1.0, 3.0], 7.0),
    ];
    for poly in &shapes {
        assert_eq!(bits(measure(poly)), bits(measure_plain(poly)), "{poly:?}");
    }
}

/// What [`SizeBounds::settled`] says of `poly` (when it says anything) is what the measure
/// says: the bounds hold, and the problems and the narrow list of [`size_problems`] are none
/// and the one settled.
fn assert_settles_as_measured(poly: &Polygon, kind: AreaKind) {
    let Some(b) = SizeBounds::of(poly) else {
        return;
    };
    let size = measure(poly);
    assert!(size.length + size.breadth <= b.sum_hi, "{b:?} {size:?}");
    assert!(size.length <= b.length_hi, "{b:?} {size:?}");
    assert!(b.width_lo <= size.centre_width, "{b:?} {size:?}");
    assert!(size.centre_width <= b.width_hi, "{b:?} {size:?}");
    if let Some(under_3) = b.settled(kind) {
        let feature = AreaFeature::new(kind, poly.clone());
        let (mut out, mut narrow) = (Vec::new(), Vec::new());
        size_problems(0, &feature, false, size, &mut out, &mut narrow);
        assert!(out.is_empty(), "{b:?} {size:?} {out:?}");
        assert_eq!(narrow.is_empty(), !under_3, "{b:?} {size:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    // DBA3.md §4.6: a camp's length and breadth are the measure's, to the bit.
    #[test]
    fn measure_rectangle_is_the_measure_s(
        pts in prop::collection::vec((-2.0f64..14.0, -2.0f64..14.0), 0..12),
    ) {
        let poly = Polygon::new(pts.into_iter().map(|(x, y)| Point::new(x, y)).collect());
        let size = measure(&poly);
        let (length, breadth) = measure_rectangle(&poly);
        prop_assert_eq!(
            (exact(length), exact(breadth)),
            (exact(size.length), exact(size.breadth))
        );
    }
}

fn exact(x: f64) -> u64 {
    crate::geometry::exact_bits(x)
}

// DBA3.md §3.8: the area of an outline in a quarter, settled from boxes, is the clip's own
// area to the bit, for outlines within, across and clear of upright cells and any other cell.
#[test]
fn clipped_area_is_the_clip_area() {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(38);
    let mut u = |scale: f64| ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) * scale;
    let upright = |x0: f64, y0: f64, x1: f64, y1: f64| {
        Polygon::new(vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ])
    };
    let mut settled = 0;
    for n in 0..4_000 {
        let k = 3 + (n % 20);
        let radii: Vec<f64> = (0..k).map(|_| 0.2 + u(3.0)).collect();
        let poly = star((u(24.0), u(24.0)), &radii, u(360.0));
        let cell = match n % 4 {
            0 => upright(0.0, 0.0, 12.0, 12.0),
            1 => upright(12.0, 0.0, 24.0, 12.0),
            2 => upright(u(12.0), u(12.0), 12.0 + u(12.0), 12.0 + u(12.0)),
            _ => Polygon::new(vec![
                Point::new(0.0, 0.0),
                Point::new(24.0, 0.0),
                Point::new(12.0, 20.0),
            ]),
        };
        let clipped = clip_to_convex(&poly, &cell).area();
        assert_eq!(
            clipped_area(&poly, &cell).to_bits(),
            clipped.to_bits(),
            "{poly:?}"
        );
        let b = finite_bounds(&poly.points).expect("finite");
        let c = finite_bounds(&cell.points).expect("finite");
        let within = c.0 <= b.0 && b.2 <= c.2 && c.1 <= b.1 && b.3 <= c.3;
        let apart = b.2 < c.0 || b.0 > c.2 || b.3 < c.1 || b.1 > c.3;
        if n % 4 != 3 && (within || apart) {
            settled += 1;
        }
    }
    // Both shortcuts are taken often, so the comparison above is of them.
    assert!(settled > 1_000, "{settled}");
}

// DBA3.md §3.8: the area of an outline in each quarter, with the outline's box worked out
// once and the quarter's polygon built only when the boxes do not settle it, is the clip's
// own area to the bit, on square and Big Battle boards seen from every base edge; and the
// quarters a feature touches are those the clip gives.
#[test]
fn quarter_areas_are_the_clip_areas() {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(308);
    let mut u = |scale: f64| ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) * scale;
    let boards = [
        Board::standard(15.0).expect("board"),
        Board::big_battle(18.0).expect("board"),
    ];
    let (mut within, mut across) = (0, 0);
    for n in 0..1_500 {
        let board = boards[n % 2];
        let k = 3 + (n % 20);
        let radii: Vec<f64> = (0..k).map(|_| 0.2 + u(3.0)).collect();
        let poly = star((u(board.width), u(board.depth)), &radii, u(360.0));
        let bounds = finite_bounds(&poly.points);
        for base in BoardEdge::ALL {
            let mut touched = Vec::new();
            for q in (1..=4).map(Quarter) {
                let cell = board.quarter_polygon(q, base).expect("a quarter");
                let clipped = clip_to_convex(&poly, &cell).area();
                let area = area_in_quarter(&poly, bounds, &board, q, base).expect("a quarter");
                assert_eq!(area.to_bits(), clipped.to_bits(), "{poly:?} in {q:?}");
                if clipped > TOLERANCE * TOLERANCE {
                    touched.push(q);
                }
                if (clipped - poly.area()).abs() == 0.0 {
                    within += 1;
                } else if clipped > 0.0 {
                    across += 1;
                }
            }
            let feature = TerrainFeature::Area(AreaFeature::new(AreaKind::Wood, poly.clone()));
            assert_eq!(quarters_touched(&feature, &board, base), touched);
        }
    }
    // Outlines within one quarter and across two are both met often.
    assert!(within > 1_000 && across > 1_000, "{within} {across}");
}

// DBA3.md §3.2: the demonstration's wood and hill are settled without measuring, one
// wide, one narrow, and a gully or a long strip is left to the measure.
#[test]
fn size_bounds_settle_common_features() {
    let settle = |f: AreaFeature| SizeBounds::of(&f.outline).and_then(|b| b.settled(f.kind));
    let wood = AreaFeature::ellipse(AreaKind::Wood, Point::new(3.2, 7.5), 1.7, 1.55, 0.0, 20);
    let hill = AreaFeature::ellipse(
        AreaKind::GentleHill,
        Point::new(11.5, 7.6),
        1.5,
        1.1,
        0.0,
        20,
    );
    assert_eq!(settle(wood), Some(false));
    assert_eq!(settle(hill), Some(true));
    let gully = AreaFeature::ellipse(AreaKind::Gully, Point::new(8.0, 8.0), 3.5, 0.6, 30.0, 20);
    assert_eq!(settle(gully), None);
    let strip = AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 2.0), Point::new(7.0, 4.0));
    assert_eq!(settle(strip), None);
    for poly in [
        AreaFeature::ellipse(AreaKind::Wood, Point::new(3.2, 7.5), 1.7, 1.55, 0.0, 20).outline,
        AreaFeature::ellipse(AreaKind::Gully, Point::new(8.0, 8.0), 3.5, 0.6, 30.0, 20).outline,
        AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 2.0), Point::new(7.0, 4.0)).outline,
    ] {
        assert_settles_as_measured(&poly, AreaKind::Wood);
        assert_settles_as_measured(&poly, AreaKind::Gully);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn measure_matches_the_plain_measure(
        cx in 0.0f64..24.0,
        cy in 0.0f64..24.0,
        radii in prop::collection::vec(0.05f64..5.0, 3..24),
        turn in 0.0f64..360.0,
    ) {
        let poly = star((cx, cy), &radii, turn);
        prop_assert_eq!(bits(measure(&poly)), bits(measure_plain(&poly)));
    }

    #[test]
    fn measure_matches_the_plain_measure_on_any_vertices(
        pts in prop::collection::vec((-2.0f64..14.0, -2.0f64..14.0), 0..12),
    ) {
        let poly = Polygon::new(pts.into_iter().map(|(x, y)| Point::new(x, y)).collect());
        prop_assert_eq!(bits(measure(&poly)), bits(measure_plain(&poly)));
    }

    // DBA3.md §3.2: a feature the size bounds settle is judged as the full measure
    // judges it: no size problem, and narrow exactly when under 3 BW at its centre.
    #[test]
    fn size_bounds_settle_as_the_measure_would(
        cx in 0.0f64..24.0,
        cy in 0.0f64..24.0,
        radii in prop::collection::vec(0.3f64..4.5, 3..24),
        turn in 0.0f64..360.0,
        gully in any::<bool>(),
    ) {
        let poly = star((cx, cy), &radii, turn);
        let kind = if gully { AreaKind::Gully } else { AreaKind::Wood };
        assert_settles_as_measured(&poly, kind);
    }

    // DBA3.md §3.2: the same for the ellipses the placement search lays out.
    #[test]
    fn size_bounds_settle_ellipses_as_the_measure_would(
        rx in 0.3f64..5.0,
        ry in 0.3f64..5.0,
        rotation in 0.0f64..180.0,
        vertices in 8usize..40,
    ) {
        let f = AreaFeature::ellipse(
            AreaKind::GentleHill, Point::new(8.0, 8.0), rx, ry, rotation, vertices,
        );
        assert_settles_as_measured(&f.outline, f.kind);
    }

    #[test]
    fn sections_contain_what_the_polygon_contains(
        pts in prop::collection::vec((-2.0f64..14.0, -2.0f64..14.0), 0..12),
        probes in prop::collection::vec((-4.0f64..16.0, -4.0f64..16.0), 1..40),
    ) {
        let poly = Polygon::new(pts.into_iter().map(|(x, y)| Point::new(x, y)).collect());
        let sections = Sections::new(&poly);
        // Random points, and points on the vertices' own lines and edges (the close calls).
        let mut ps: Vec<Point> = probes.iter().map(|&(x, y)| Point::new(x, y)).collect();
        for e in poly.edges() {
            ps.extend([e.a, e.b, e.midpoint(), Point::new(e.a.x, e.b.y), Point::new(e.b.x, e.a.y)]);
        }
        for p in ps {
            prop_assert_eq!(sections.contains_strictly(p), poly.contains_strictly(p), "{:?}", p);
        }
    }
}

/// The enclosing-rectangle search as it stood in `measure` before [`least_rectangle`] (#15):
/// a bearing at a time, folded with `f64::min` and `max`. Kept as the reference.
fn least_rectangle_reference(dirs: &[Point; 720], rel: &[Point]) -> (f64, f64, f64) {
    let mut best = (f64::INFINITY, 0.0, 0.0);
    for &u in dirs {
        let v = u.right();
        let (mut ulo, mut uhi, mut vlo, mut vhi) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for &r in rel {
            let du = r.dot(u);
            let dv = r.dot(v);
            ulo = ulo.min(du);
            uhi = uhi.max(du);
            vlo = vlo.min(dv);
            vhi = vhi.max(dv);
        }
        let (lu, lv) = (uhi - ulo, vhi - vlo);
        if lu + lv < best.0 - 1e-12 {
            best = (lu + lv, lu, lv);
        }
    }
    best
}

/// A coordinate for the rectangle tests: a special value (signed zeros, NaN, infinities,
/// the largest and the least), any bit pattern, a small whole number (ties and exact
/// zeros), or an ordinary table coordinate.
fn coordinate(rng: &mut super::intersect_agreement::Rng) -> f64 {
    const SPECIAL: [f64; 14] = [
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        1e300,
        -1e-300,
        1.0,
        -1.0,
    ];
    match rng.next() % 5 {
        0 => SPECIAL[(rng.next() % SPECIAL.len() as u64) as usize],
        1 => f64::from_bits(rng.next()),
        2 => (rng.next() % 9) as f64 - 4.0,
        _ => rng.range(-6.0, 6.0),
    }
}

// DBA3.md §3.2: a feature's length and width come from its enclosing rectangle with the
// least length + width. The tabled search gives the bits of the bearing-at-a-time one for
// any offsets: none, one, many, repeated, signed zeros, NaN, infinities, huge and tiny.
#[test]
fn least_rectangle_matches_the_bearing_at_a_time_search() {
    let dirs: [Point; 720] = std::array::from_fn(|i| Point::from_bearing(i as f64 * 0.25));
    let bits3 = |r: (f64, f64, f64)| [r.0.to_bits(), r.1.to_bits(), r.2.to_bits()];
    let mut rng = super::intersect_agreement::Rng(0x2545_F491_4F6C_DD1D);
    let mut cases: Vec<Vec<Point>> = vec![
        vec![],
        vec![Point::new(0.0, 0.0)],
        vec![Point::new(-0.0, -0.0), Point::new(0.0, 0.0)],
        // A flat outline with zeros of both signs: every offset across it is a zero.
        vec![
            Point::new(-0.0, -1.5),
            Point::new(0.0, -1.5),
            Point::new(0.0, 1.5),
            Point::new(-0.0, 1.5),
        ],
        vec![Point::new(f64::NAN, 0.0), Point::new(1.0, 1.0)],
        vec![
            Point::new(f64::INFINITY, 0.0),
            Point::new(f64::NEG_INFINITY, 0.0),
        ],
    ];
    for _ in 0..3000 {
        // Up to 13 offsets: none, some fours and a remainder.
        let n = (rng.next() % 14) as usize;
        cases.push(
            (0..n)
                .map(|_| {
                    let x = coordinate(&mut rng);
                    Point::new(x, coordinate(&mut rng))
                })
                .collect(),
        );
    }
    for rel in &cases {
        assert_eq!(
            bits3(least_rectangle(&dirs, rel)),
            bits3(least_rectangle_reference(&dirs, rel)),
            "{rel:?}"
        );
    }
}

// DBA3.md §3.2: the measure's table of bearings holds the bits `from_bearing` gives.
#[test]
fn bearing_table_is_from_bearing() {
    for (i, p) in bearings::BEARINGS.iter().enumerate() {
        let q = Point::from_bearing(i as f64 * 0.25);
        assert_eq!(
            (p.x.to_bits(), p.y.to_bits()),
            (q.x.to_bits(), q.y.to_bits()),
            "bearing {i}"
        );
    }
}

// The crossings are sorted as `sort_by(total_cmp)` sorts them, whatever they hold.
#[test]
fn sort_crossings_is_the_total_order_sort() {
    let mut rng = super::intersect_agreement::Rng(0x1234_5678_9ABC_DEF1);
    for _ in 0..4000 {
        let n = (rng.next() % 22) as usize;
        let mut ts: Vec<f64> = (0..n)
            .map(|_| match rng.next() % 4 {
                0 => coordinate(&mut rng),
                1 => [0.0, -0.0, 1.0, 0.5][(rng.next() % 4) as usize],
                _ => rng.range(0.0, 1.0),
            })
            .collect();
        let mut want = ts.clone();
        want.sort_by(|x, y| x.total_cmp(y));
        sort_crossings(&mut ts);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&ts), bits(&want));
    }
}

/// Outlines for the section tests: stars, ellipses (vertices exactly on the axes through
/// the centre), rectangles, concave shapes, arbitrary vertices, and outlines far from the
/// origin (where the pre-test is not taken).
fn section_outlines(rng: &mut super::intersect_agreement::Rng) -> Vec<Polygon> {
    let mut v = vec![
        AreaFeature::ellipse(AreaKind::Wood, Point::new(3.2, 7.5), 1.7, 1.55, 0.0, 20).outline,
        AreaFeature::ellipse(AreaKind::Wood, Point::new(11.5, 7.6), 1.5, 1.1, 0.0, 20).outline,
        AreaFeature::ellipse(AreaKind::Wood, Point::new(0.0, 0.0), 2.0, 1.0, 30.0, 8).outline,
        AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 3.0), Point::new(5.0, 5.5)).outline,
        AreaFeature::rectangle(AreaKind::Wood, Point::new(-1.0, -1.0), Point::new(1.0, 1.0))
            .outline,
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(4.0, 0.0),
            Point::new(4.0, 1.0),
            Point::new(1.0, 1.0),
            Point::new(1.0, 4.0),
            Point::new(0.0, 4.0),
        ]),
        star((6.0, 6.0), &[1.0, 3.0, 1.0, 3.0, 1.0, 3.0, 1.0, 3.0], 7.0),
        star((5000.0, 6.0), &[1.0, 2.0, 1.5, 2.5, 1.0], 0.0),
        star((1e-3, -1e-3), &[1e-3, 2e-3, 1e-3, 3e-3], 0.0),
    ];
    for _ in 0..40 {
        let n = 3 + (rng.next() % 30) as usize;
        let radii: Vec<f64> = (0..n).map(|_| rng.range(0.05, 4.0)).collect();
        let turn = [0.0, 45.0, rng.range(0.0, 360.0)][(rng.next() % 3) as usize];
        v.push(star(
            (rng.range(-2.0, 30.0), rng.range(-2.0, 30.0)),
            &radii,
            turn,
        ));
    }
    for _ in 0..40 {
        let n = 3 + (rng.next() % 12) as usize;
        v.push(Polygon::new(
            (0..n)
                .map(|_| {
                    // Whole and half numbers often, so that vertices meet the lines.
                    if rng.next() % 2 == 0 {
                        Point::new(
                            (rng.next() % 17) as f64 * 0.5,
                            (rng.next() % 17) as f64 * 0.5,
                        )
                    } else {
                        Point::new(rng.range(-2.0, 14.0), rng.range(-2.0, 14.0))
                    }
                })
                .collect(),
        ));
    }
    v
}

// DBA3.md §3.2: the width at the centre is the shortest section through the centroid. Each
// section through it with the same-side pre-test gives the bits of `length_inside`, on
// every bearing of the table, and the pre-test both passes edges over and tries them.
#[test]
fn sections_through_the_centroid_are_length_inside() {
    let mut rng = super::intersect_agreement::Rng(0x0BAD_5EED_1234_5678);
    let (mut passed_over, mut tried, mut unsure) = (0u64, 0u64, 0u64);
    for poly in section_outlines(&mut rng) {
        let c = centroid(&poly);
        let rel: Vec<Point> = poly.points.iter().map(|&p| p - c).collect();
        let size = measure(&poly);
        for reach in [(size.length + size.breadth) * 2.0 + 1.0, 1.0, 40.0] {
            let mut sections = Sections::new(&poly);
            sections.through(c, &rel, reach);
            let line = sections.line.as_ref().expect("made ready");
            let Some(mask) = line.tried.clone() else {
                unsure += 1;
                continue;
            };
            let words = line.words;
            let n = rel.len();
            let k = 1e-7
                * poly
                    .points
                    .iter()
                    .chain([&c])
                    .fold(reach, |m, p| m.max(p.x.abs()).max(p.y.abs()));
            for (i, &across) in bearings::BEARINGS.iter().enumerate() {
                // An edge left out must have both ends clear of the line, on one side,
                // as the offsets across work out.
                let side = |r: Point| {
                    let v = r.x * across.y - r.y * across.x;
                    i8::from(v >= k) - i8::from(v <= -k)
                };
                for j in 0..n {
                    if (mask[i * words + j / 64] >> (j % 64)) & 1 == 0 {
                        let (a, b) = (side(rel[j]), side(rel[(j + 1) % n]));
                        assert!(a != 0 && a == b, "{poly:?} bearing {i} edge {j}");
                        passed_over += 1;
                    } else {
                        tried += 1;
                    }
                }
                let s = Segment::new(c - across * reach, c + across * reach);
                let want = length_inside(&s, &poly);
                let got = sections.section(i, across);
                assert_eq!(got.to_bits(), want.to_bits(), "{poly:?} {across:?} {reach}");
            }
        }
    }
    assert!(passed_over > 0 && tried > 0 && unsure > 0);
    assert!(passed_over > tried);
}

// DBA3.md §3.2: a section of an outline with a non-finite vertex or centre, or far from
// the origin for its size, is measured without the pre-test, and still as `length_inside`.
#[test]
fn sections_without_the_pretest_are_length_inside() {
    let shapes = [
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(f64::NAN, 0.0),
            Point::new(1.0, 2.0),
        ]),
        Polygon::new(vec![
            Point::new(0.0, 0.0),
            Point::new(f64::INFINITY, 0.0),
            Point::new(1.0, 2.0),
        ]),
        star((1e6, 1e6), &[1.0, 2.0, 1.0, 2.0], 0.0),
    ];
    for poly in &shapes {
        let c = centroid(poly);
        let rel: Vec<Point> = poly.points.iter().map(|&p| p - c).collect();
        let mut sections = Sections::new(poly);
        sections.through(c, &rel, 3.0);
        assert!(sections.line.as_ref().expect("made ready").tried.is_none());
        for (i, &across) in bearings::BEARINGS.iter().enumerate().step_by(7) {
            let s = Segment::new(c - across * 3.0, c + across * 3.0);
            assert_eq!(
                sections.section(i, across).to_bits(),
                length_inside(&s, poly).to_bits()
            );
        }
    }
}

// The banded inside test answers as `Polygon::contains_strictly` on points everywhere,
// on the vertices' own `y`, on the bands' bounds, and on the edges.
#[test]
fn banded_inside_test_is_contains_strictly() {
    let mut rng = super::intersect_agreement::Rng(0x5151_7777_0000_0001);
    let (mut inside, mut outside) = (0u64, 0u64);
    for poly in section_outlines(&mut rng) {
        let sections = Sections::new(&poly);
        let mut ps: Vec<Point> = Vec::new();
        if let Some(b) = &sections.bands {
            for k in 0..=b.n {
                let y = b.ylo + b.h * k as f64;
                for x in [-1.0, 0.5, 2.0, 4.0, 7.5, 12.0] {
                    ps.extend([
                        Point::new(x, y),
                        Point::new(x, f64::from_bits(y.to_bits() + 1)),
                    ]);
                }
            }
        }
        for e in poly.edges() {
            ps.extend([
                e.a,
                e.b,
                e.midpoint(),
                Point::new(e.a.x, e.b.y),
                Point::new(e.b.x, e.a.y),
            ]);
            ps.push(Point::new(e.a.x - 0.25, e.a.y));
        }
        for _ in 0..200 {
            ps.push(Point::new(rng.range(-3.0, 32.0), rng.range(-3.0, 32.0)));
        }
        ps.push(Point::new(f64::NAN, 3.0));
        ps.push(Point::new(3.0, f64::NAN));
        for p in ps {
            let want = poly.contains_strictly(p);
            assert_eq!(sections.contains_strictly(p), want, "{poly:?} {p:?}");
            if want {
                inside += 1;
            } else {
                outside += 1;
            }
        }
    }
    assert!(inside > 0 && outside > 0);
}

// DBA3.md §3.2: the whole measure, with the tabled rectangle search, gives the plain
// measure's bits on outlines with a special vertex (signed zeros, NaN, infinities, huge
// and tiny values) and on flat ones with zeros of both signs.
#[test]
fn measure_matches_the_plain_measure_with_special_vertices() {
    let mut rng = super::intersect_agreement::Rng(0x9E37_79B9_7F4A_7C15);
    let mut shapes = vec![
        Polygon::new(vec![
            Point::new(-0.0, -0.0),
            Point::new(0.0, -0.0),
            Point::new(0.0, 3.0),
            Point::new(-0.0, 3.0),
        ]),
        AreaFeature::ellipse(AreaKind::Wood, Point::new(3.2, 7.5), 1.7, 1.55, 0.0, 20).outline,
    ];
    for _ in 0..60 {
        let n = 3 + (rng.next() % 10) as usize;
        let radii: Vec<f64> = (0..n).map(|_| rng.range(0.2, 3.0)).collect();
        let mut poly = star((rng.range(0.0, 12.0), rng.range(0.0, 12.0)), &radii, 0.0);
        let k = (rng.next() % n as u64) as usize;
        let x = coordinate(&mut rng);
        poly.points[k] = Point::new(x, coordinate(&mut rng));
        shapes.push(poly);
    }
    for poly in &shapes {
        assert_eq!(bits(measure(poly)), bits(measure_plain(poly)), "{poly:?}");
    }
}
