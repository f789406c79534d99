//! [`polygons_intersect`] against the form it replaced (#15), with the small generator the
//! other agreement tests share.

use super::*;
use crate::geometry::{exact_bits, Pose};

/// [`polygons_intersect`] as it stood before its boxes were taken by comparisons and the
/// shrunk rectangle kept its own box (#15).
fn polygons_intersect_reference(a: &Polygon, b: &Polygon) -> bool {
    if a.points.is_empty() || b.points.is_empty() {
        return false;
    }
    let finite = |p: &Polygon| p.points.iter().all(|q| q.x.is_finite() && q.y.is_finite());
    const APART: f64 = 1e-9;
    let ((alo, ahi), (blo, bhi)) = (a.bounds(), b.bounds());
    if (ahi.x + APART < blo.x
        || bhi.x + APART < alo.x
        || ahi.y + APART < blo.y
        || bhi.y + APART < alo.y)
        && finite(a)
        && finite(b)
    {
        return false;
    }
    let inside = a.points.iter().any(|&p| b.contains_strictly(p))
        || b.points.iter().any(|&p| a.contains_strictly(p));
    if inside {
        return true;
    }
    if !(finite(a) && finite(b)) {
        return a.edges().any(|e| b.edges().any(|f| e.intersects(&f)));
    }
    let size = [alo.x, alo.y, ahi.x, ahi.y, blo.x, blo.y, bhi.x, bhi.y]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let margin = 1e-3 * (1.0 + size);
    let apart = |e: &Segment, lo: Point, hi: Point| {
        e.a.x.max(e.b.x) + margin < lo.x
            || hi.x + margin < e.a.x.min(e.b.x)
            || e.a.y.max(e.b.y) + margin < lo.y
            || hi.y + margin < e.a.y.min(e.b.y)
    };
    a.edges().any(|e| {
        !apart(&e, blo, bhi)
            && b.edges().any(|f| {
                let (lo, hi) = (
                    Point::new(f.a.x.min(f.b.x), f.a.y.min(f.b.y)),
                    Point::new(f.a.x.max(f.b.x), f.a.y.max(f.b.y)),
                );
                !apart(&e, lo, hi) && e.intersects(&f)
            })
    })
}

/// [`inset_rect`] as it stood before its corners were worked out with one facing vector.
fn inset_rect_reference(r: &ElementRect) -> Polygon {
    let t = TOLERANCE.min(r.width * 0.25).min(r.depth * 0.25);
    let f = r.pose.forward();
    let front = r.pose.front_mid() - f * t;
    ElementRect::new(
        Pose::new(front.x, front.y, r.pose.facing),
        r.width - 2.0 * t,
        r.depth - 2.0 * t,
    )
    .polygon()
}

fn bits(p: &Polygon) -> Vec<(u64, u64)> {
    p.points
        .iter()
        .map(|q| (exact_bits(q.x), exact_bits(q.y)))
        .collect()
}

/// A xorshift generator for the tests (the going tests of `battlefield.rs` use it too).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in `lo..hi` on a grid of 1/4096 of the span.
    pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (self.next() % 4097) as f64 / 4096.0 * (hi - lo)
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.next() % v.len() as u64) as usize]
    }
}

fn ellipse(c: Point, rx: f64, ry: f64, n: usize) -> Polygon {
    Polygon::new(
        (0..n)
            .map(|k| {
                let t = k as f64 * std::f64::consts::TAU / n as f64;
                Point::new(c.x + rx * t.cos(), c.y + ry * t.sin())
            })
            .collect(),
    )
}

/// Outlines of every sort: terrain-like 20-gons, rectangles, concave and degenerate shapes,
/// and ones with signed zeros, NaN and infinite points.
fn outlines() -> Vec<Polygon> {
    let p = Point::new;
    let mut v = vec![
        Polygon::new(vec![]),
        Polygon::new(vec![p(5.0, 5.0)]),
        Polygon::new(vec![p(4.0, 4.0), p(6.0, 6.0)]),
        Polygon::new(vec![p(0.0, 0.0), p(3.0, 3.0), p(6.0, 6.0)]),
        AreaFeature::rectangle(AreaKind::Plough, p(4.0, 4.0), p(7.0, 6.0)).outline,
        AreaFeature::rectangle(AreaKind::Plough, p(-0.0, -0.0), p(2.0, 2.0)).outline,
        AreaFeature::rectangle(AreaKind::Plough, p(0.0, 0.0), p(0.0, 3.0)).outline,
        Polygon::new(vec![
            p(2.0, 2.0),
            p(8.0, 2.0),
            p(8.0, 3.0),
            p(3.0, 3.0),
            p(3.0, 8.0),
            p(2.0, 8.0),
        ]),
        Polygon::new(vec![p(1.0, 1.0), p(f64::NAN, 2.0), p(3.0, 1.0)]),
        Polygon::new(vec![p(1.0, 1.0), p(2.0, f64::NAN), p(3.0, 4.0)]),
        Polygon::new(vec![p(1.0, 1.0), p(f64::INFINITY, 2.0), p(3.0, 1.0)]),
        Polygon::new(vec![p(1.0, 1.0), p(2.0, f64::NEG_INFINITY), p(3.0, 4.0)]),
        Polygon::new(vec![p(f64::NAN, f64::NAN), p(f64::NAN, f64::NAN)]),
        Polygon::new(vec![p(-0.0, 5.0), p(0.0, 7.0), p(-0.0, 7.0), p(0.0, 5.0)]),
    ];
    for (cx, cy, rx, ry) in [
        (3.2, 7.5, 1.7, 1.55),
        (11.5, 7.6, 1.5, 1.1),
        (6.0, 6.0, 0.4, 0.3),
        (0.0, 0.0, 2.0, 2.0),
    ] {
        v.push(ellipse(p(cx, cy), rx, ry, 20));
    }
    v
}

/// Rectangles spread over and around the outlines, some of them flat or with non-finite
/// poses, and ones laid exactly against, or a hair off, an outline's edge.
fn rects(rng: &mut Rng, n: usize) -> Vec<ElementRect> {
    let facings = [0.0, 90.0, 180.0, 270.0, 30.0, 212.5, -0.0, 359.999];
    let mut v = Vec::with_capacity(n + 32);
    for _ in 0..n {
        let pose = Pose::new(rng.range(-2.0, 14.0), rng.range(-2.0, 14.0), {
            if rng.next() % 2 == 0 {
                rng.pick(&facings)
            } else {
                rng.range(0.0, 360.0)
            }
        });
        let (w, d) = match rng.next() % 8 {
            0 => (0.0, 0.5),
            1 => (1.0, 0.0),
            2 => (rng.range(0.0, 3.0), rng.range(0.0, 3.0)),
            _ => (1.0, 0.5),
        };
        v.push(ElementRect::new(pose, w, d));
    }
    // Against the plough rectangle (4..7 × 4..6): touching, within tolerance, just over it.
    for gap in [
        0.0,
        1e-12,
        1e-10,
        1e-9,
        2e-9,
        1e-6,
        TOLERANCE,
        2.0 * TOLERANCE,
        -1e-9,
    ] {
        v.push(ElementRect::new(Pose::new(5.0, 4.0 - gap, 180.0), 1.0, 0.5));
        v.push(ElementRect::new(Pose::new(5.5, 6.0 + gap, 0.0), 1.0, 0.5));
        v.push(ElementRect::new(Pose::new(7.0 + gap, 5.0, 90.0), 1.0, 0.5));
        v.push(ElementRect::new(
            Pose::new(7.0 + gap + 0.5, 5.0, 270.0),
            1.0,
            0.5,
        ));
    }
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        v.push(ElementRect::new(Pose::new(bad, 5.0, 0.0), 1.0, 0.5));
        v.push(ElementRect::new(Pose::new(5.0, 5.0, bad), 1.0, 0.5));
        v.push(ElementRect::new(Pose::new(5.0, 5.0, 0.0), bad, 0.5));
    }
    v
}

// DBA3.md §3.1: the shrunk rectangle worked out with one facing vector (#15) has the very
// same corners.
#[test]
fn inset_rect_is_the_reference() {
    let mut rng = Rng(0x853c_49e6_748f_ea9b);
    for r in rects(&mut rng, 3_000) {
        assert_eq!(
            bits(&inset_rect(&r)),
            bits(&inset_rect_reference(&r)),
            "{r:?}"
        );
    }
}

// DBA3.md §3.1, §3.4: the boxes by comparisons and the shrunk rectangle's own box (#15) never
// change whether an element is in a feature, or whether two outlines meet.
#[test]
fn polygons_intersect_is_the_reference() {
    let mut rng = Rng(0xda94_2042_e4dd_58b5);
    let outlines = outlines();
    let (mut met, mut missed) = (0, 0);
    for r in rects(&mut rng, 2_000) {
        let mut inset = InsetRect::new(&r);
        let poly = inset_rect_reference(&r);
        for o in &outlines {
            let want = polygons_intersect_reference(&poly, o);
            assert_eq!(polygons_intersect(&poly, o), want, "{r:?} {o:?}");
            assert_eq!(
                polygons_intersect(o, &poly),
                polygons_intersect_reference(o, &poly)
            );
            assert_eq!(inset.meets(o), want, "{r:?} {o:?}");
            if want {
                met += 1;
            } else {
                missed += 1;
            }
        }
    }
    // Outline against outline, and random polygons against each other.
    for a in &outlines {
        for b in &outlines {
            assert_eq!(
                polygons_intersect(a, b),
                polygons_intersect_reference(a, b),
                "{a:?} {b:?}"
            );
        }
    }
    for _ in 0..3_000 {
        let poly = |rng: &mut Rng| {
            let n = 1 + (rng.next() % 8) as usize;
            Polygon::new(
                (0..n)
                    .map(|_| Point::new(rng.range(0.0, 4.0), rng.range(0.0, 4.0)))
                    .collect(),
            )
        };
        let (a, b) = (poly(&mut rng), poly(&mut rng));
        assert_eq!(
            polygons_intersect(&a, &b),
            polygons_intersect_reference(&a, &b),
            "{a:?} {b:?}"
        );
    }
    assert!(
        met > 1_000 && missed > 1_000,
        "both answers met ({met}, {missed})"
    );
}

// The box by comparisons is `Polygon::bounds`, but for a zero's sign, and its finiteness is
// that of every coordinate.
#[test]
fn points_bounds_is_the_polygon_box() {
    let mut rng = Rng(0x1405_7b7e_f767_814f);
    let mut shapes = outlines();
    for r in rects(&mut rng, 500) {
        shapes.push(r.polygon());
    }
    for s in &shapes {
        let (((lo, hi), finite), (rlo, rhi)) = (bounds_and_finite(&s.points), s.bounds());
        assert_eq!(points_bounds(&s.points), (lo, hi));
        for (x, y) in [(lo.x, rlo.x), (lo.y, rlo.y), (hi.x, rhi.x), (hi.y, rhi.y)] {
            assert!(x == y || (x.is_nan() && y.is_nan()), "{s:?}: {x} {y}");
        }
        let want = s.points.iter().all(|q| q.x.is_finite() && q.y.is_finite());
        assert_eq!(finite, want, "{s:?}");
    }
}
