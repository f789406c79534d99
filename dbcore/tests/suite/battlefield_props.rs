//! Property tests: table queries do not depend on where the table sits or which way it is turned
//! (DBA3.md §3.1 going, §3.3 uphill, §6.4 command distance, §9.5 line of sight, §3.5/§3.6 river
//! and road), and validation finds planted gap problems wherever they are (§3.8).

use crate::terrain_fixtures;

use dbcore::battlefield::{Battlefield, Board, SightBlock};
use dbcore::geometry::{ElementRect, Point, Polygon, Pose};
use dbcore::terrain::{validate_terrain, AreaKind, GoingContext, TerrainProblem};
use proptest::prelude::*;
use terrain_fixtures::*;

/// Move-and-turn: rotate clockwise by `deg` about the origin, then shift by `d`.
#[derive(Debug, Clone, Copy)]
struct Motion {
    deg: f64,
    d: Point,
}

impl Motion {
    fn point(&self, q: Point) -> Point {
        q.rotated_cw(self.deg) + self.d
    }
    fn rect(&self, r: &ElementRect) -> ElementRect {
        let m = self.point(r.pose.front_mid());
        ElementRect::new(
            Pose::new(m.x, m.y, r.pose.facing + self.deg),
            r.width,
            r.depth,
        )
    }
    fn poly(&self, p: &Polygon) -> Polygon {
        Polygon::new(p.points.iter().map(|&q| self.point(q)).collect())
    }
}

/// A sight result without the measured depth (which may differ in the last bits).
fn sight_key(r: Result<(), SightBlock>) -> Option<(String, usize)> {
    r.err().map(|b| {
        let (name, f) = match b {
            SightBlock::HillCrest { feature } => ("crest", feature),
            SightBlock::Fortification { feature, .. } => ("fort", feature),
            SightBlock::DeepFeature { feature, .. } => ("deep", feature),
            SightBlock::ShooterInGully { feature } => ("gully-shooter", feature),
            SightBlock::TargetInGully { feature } => ("gully-target", feature),
            SightBlock::ShooterInMarsh { feature } => ("marsh", feature),
            SightBlock::ShooterInRiver { feature } => ("river", feature),
        };
        (name.to_string(), f)
    })
}

/// Elements placed round the query table's features, clear of every threshold.
fn probes() -> Vec<ElementRect> {
    vec![
        el(5.0, 3.0, 0.0, 0.5),
        el(26.0, 3.0, 0.0, 0.5),
        el(24.0, 3.0, 0.0, 0.5),
        el(32.0, 3.0, 0.0, 0.5),
        el(38.0, 3.0, 0.0, 0.5),
        el(44.0, 4.3, 0.0, 0.5),
        el(50.0, 2.4, 0.0, 0.5),
        el(10.0, 9.0, 180.0, 0.5),
        el(10.0, 9.0, 0.0, 0.5),
        el(10.0, 6.0, 0.0, 0.5),
        el(10.0, 11.5, 0.0, 0.5),
        el(5.0, 19.6, 0.0, 0.5),
        el(42.5, 12.5, 0.0, 0.5),
        el(45.0, 10.5, 180.0, 0.5),
        el(55.0, 10.5, 180.0, 0.5),
        el(55.0, 10.5, 0.0, 0.5),
        el(21.0, 14.0, 0.0, 0.5),
    ]
}

/// Everything the queries say about the probes, in a comparable form.
fn answers(bf: &Battlefield, m: &Motion) -> Vec<String> {
    let ps: Vec<ElementRect> = probes().iter().map(|r| m.rect(r)).collect();
    let mut out = Vec::new();
    for ctx in [
        GoingContext::default(),
        GoingContext {
            camel_mounted: true,
            plough_is_rough: true,
        },
    ] {
        for r in &ps {
            out.push(format!(
                "going {:?} {:?}",
                bf.going_under(r, ctx),
                bf.combat_going_under(r, ctx)
            ));
        }
    }
    for r in &ps {
        out.push(format!(
            "river {:?} {:?}",
            bf.river_under(r),
            bf.front_edge_in_river(r)
        ));
    }
    // Pairs chosen to meet every kind of answer (see `the_probes_see_varied_answers`).
    let pairs = [
        (7, 8),
        (8, 7),
        (13, 12),
        (14, 15),
        (9, 10),
        (9, 7),
        (6, 9),
        (9, 6),
        (5, 9),
        (11, 0),
        (0, 1),
        (0, 16),
        (16, 0),
        (1, 2),
        (2, 3),
        (12, 13),
    ];
    for &(i, j) in &pairs {
        let (a, b) = (&ps[i], &ps[j]);
        out.push(format!("uphill {:?}", bf.is_uphill_of(a, b)));
        out.push(format!(
            "sight {:?}",
            sight_key(bf.element_line_of_sight(a, b))
        ));
    }
    let camp = m.poly(&Polygon::new(vec![
        p(14.0, 14.0),
        p(16.0, 14.0),
        p(16.0, 15.0),
        p(14.0, 15.0),
    ]));
    for &(i, j) in &pairs {
        let (g, mv) = (&ps[i], std::slice::from_ref(&ps[j]));
        out.push(format!(
            "command {} {}",
            bf.command_distance(g, mv, std::slice::from_ref(&camp), false),
            bf.within_command(g, mv, &[], false)
        ));
    }
    let path = [p(30.0, 10.5), p(30.0, 14.0), p(33.0, 17.0)].map(|q| m.point(q));
    let off = [p(30.0, 11.0), p(32.0, 12.0)].map(|q| m.point(q));
    out.push(format!(
        "road {} {}",
        bf.move_along_road(&path),
        bf.move_along_road(&off)
    ));
    out
}

fn moved(bf: &Battlefield, m: &Motion) -> Battlefield {
    bf.map_points(&|q| m.point(q))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn queries_do_not_change_when_the_table_is_moved(dx in -40.0f64..40.0, dy in -40.0f64..40.0) {
        // DBA3.md §3.1, §3.3, §3.5, §3.6, §6.4, §9.5 are about the terrain, not where it sits.
        let bf = query_table();
        let still = Motion { deg: 0.0, d: Point::new(0.0, 0.0) };
        let m = Motion { deg: 0.0, d: Point::new(dx, dy) };
        prop_assert_eq!(answers(&bf, &still), answers(&moved(&bf, &m), &m));
    }

    #[test]
    fn queries_do_not_change_when_the_table_is_turned(deg in 0.0f64..360.0, dx in -10.0f64..10.0) {
        // DBA3.md §3.1, §3.3, §3.5, §3.6, §6.4, §9.5: no direction on the table is special.
        let bf = query_table();
        let still = Motion { deg: 0.0, d: Point::new(0.0, 0.0) };
        let m = Motion { deg, d: Point::new(dx, 0.0) };
        prop_assert_eq!(answers(&bf, &still), answers(&moved(&bf, &m), &m));
    }

    #[test]
    fn validation_finds_a_planted_gap_problem_anywhere(
        gap in 0.05f64..0.9, bearing in 0.0f64..360.0
    ) {
        // DBA3.md §3.8 item 6: ≥ 1 BW between area features.
        let centre = p(7.5, 7.5);
        let dir = Point::from_bearing(bearing);
        // Two round features of radius 1.6 (outline drawn just outside the circle).
        let r = 1.6 / (std::f64::consts::PI / 32.0).cos();
        let other = centre + dir * (2.0 * r + gap);
        let bf = Battlefield {
            board: Board::standard(20.0).unwrap(),
            features: vec![
                area(AreaKind::Marsh, centre.x + 2.5, centre.y + 2.5, 1.6, 1.6, 0.0),
                area(AreaKind::Wood, other.x + 2.5, other.y + 2.5, 1.6, 1.6, 0.0),
            ],
        };
        let probs = validate_terrain(&bf, dbcore::battlefield::Variant::Standard);
        let found = probs
            .iter()
            .any(|q| matches!(q, TerrainProblem::FeaturesTooClose { a: 0, b: 1, .. }));
        prop_assert!(found, "{:?}", probs);
    }

    #[test]
    fn validation_accepts_a_wide_enough_gap(gap in 1.1f64..2.5, bearing in 0.0f64..360.0) {
        // DBA3.md §3.8 item 6.
        let centre = p(7.5, 7.5);
        let dir = Point::from_bearing(bearing);
        let r = 1.6 / (std::f64::consts::PI / 32.0).cos();
        let other = centre + dir * (2.0 * r + gap);
        let bf = Battlefield {
            board: Board::standard(20.0).unwrap(),
            features: vec![
                area(AreaKind::Marsh, centre.x + 2.5, centre.y + 2.5, 1.6, 1.6, 0.0),
                area(AreaKind::Wood, other.x + 2.5, other.y + 2.5, 1.6, 1.6, 0.0),
            ],
        };
        let probs = validate_terrain(&bf, dbcore::battlefield::Variant::Standard);
        prop_assert!(!probs
            .iter()
            .any(|q| matches!(q, TerrainProblem::FeaturesTooClose { .. })), "{:?}", probs);
    }
}

#[test]
fn the_probes_see_varied_answers() {
    // Guard: the invariance tests are only meaningful if the probes meet every kind of answer.
    let bf = query_table();
    let a = answers(
        &bf,
        &Motion {
            deg: 0.0,
            d: Point::new(0.0, 0.0),
        },
    );
    for want in [
        "going Bad",
        "going Rough",
        "going Good",
        "uphill true",
        "crest",
        "deep",
        "gully-shooter",
        "marsh",
        "river Some",
        "command 4",
        "command 8",
        "road true false",
    ] {
        assert!(a.iter().any(|s| s.contains(want)), "{want}");
    }
}
