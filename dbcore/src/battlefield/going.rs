//! The going under an element (§3.1, §3.6, §7.3): the worst terrain it reaches into, in a
//! move or in combat, rivers under it and moves wholly along a road.

use super::*;

/// How far a move along a road may stray from the road's centre line and still be "wholly on the
/// road" (§3.6): the mover's reference point (midpoint of its front edge, which sits on the road
/// when the element is astride and centred on it) must stay within ¼ BW of the centre line. Roads
/// are drawn less than 1 BW wide, so ¼ BW keeps an astride element's centre on the drawn road.
pub const ROAD_ASTRIDE_TOLERANCE: f64 = 0.25;

impl Battlefield {
    pub(super) fn going_impl(&self, rect: &ElementRect, ctx: GoingContext, combat: bool) -> Going {
        self.going_boxed(rect, ctx, combat, None)
    }

    /// [`Self::going_impl`], the outlines' boxes read from `boxes` (by feature index) when
    /// given: the same going, since they are the boxes [`InsetRect::meets`] works out.
    pub(super) fn going_boxed(
        &self,
        rect: &ElementRect,
        ctx: GoingContext,
        combat: bool,
        boxes: Option<&[OutlineBox]>,
    ) -> Going {
        // Pure speed (#15): the shrunk rectangle is worked out only when some feature is tested
        // against it (a table of gentle hills and plough needs it never), and of an area's three
        // conditions the cheapest come first. The conditions are pure and only their conjunction
        // counts (a fortified hill in combat was skipped, which changes nothing, exactly as a
        // failed condition does), so the going found is the same as testing them in any order.
        // The shrunk rectangle keeps its box, and builds its polygon only for a feature whose
        // box comes near; `InsetRect::meets` is `polygons_intersect` against `inset_rect` (#15).
        let mut poly: Option<InsetRect> = None;
        let mut going = Going::Good;
        for (i, f) in self.features.iter().enumerate() {
            match f {
                TerrainFeature::Area(a) => {
                    if let Some(g) = a.going(ctx) {
                        if g > going
                            && !(combat && a.kind.is_hill() && self.hill_is_fortified(a))
                            && poly
                                .get_or_insert_with(|| InsetRect::new(rect))
                                .meets_boxed(&a.outline, || match boxes {
                                    Some(b) => b[i],
                                    None => outline_box(&a.outline),
                                })
                        {
                            going = g;
                        }
                    }
                }
                TerrainFeature::Waterway(w) => {
                    if poly
                        .get_or_insert_with(|| InsetRect::new(rect))
                        .meets(&w.water_polygon(&self.board))
                    {
                        going = Going::Impassable;
                    }
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => {}
            }
        }
        going
    }

    /// The going an element stands in: the worst going any part of it is in (§3.1). Touching a
    /// feature's edge is not being in it (the rectangle is shrunk by [`TOLERANCE`]). Rivers and
    /// roads do not change the going (§3.5, §3.6: a road helps only a move wholly along it, see
    /// [`Battlefield::move_along_road`]); City and Fort have no going class (§4.2–4.3); any part in
    /// a waterway gives [`Going::Impassable`].
    pub fn going_under(&self, rect: &ElementRect, ctx: GoingContext) -> Going {
        self.going_impl(rect, ctx, false)
    }

    /// The going for close-combat factors (§10.3): as [`Battlefield::going_under`], except that a
    /// hill carrying a City or Fort gives attackers no bad-going penalty (§17.34).
    pub fn combat_going_under(&self, rect: &ElementRect, ctx: GoingContext) -> Going {
        self.going_impl(rect, ctx, true)
    }

    /// [`Battlefield::combat_going_under`] with the outlines' boxes kept in `boxes` when they are
    /// this table's (#15), the same answer.
    pub(crate) fn combat_going_under_boxed(
        &self,
        rect: &ElementRect,
        ctx: GoingContext,
        boxes: Option<&AreaBoxes>,
    ) -> Going {
        self.going_boxed(rect, ctx, true, boxes.and_then(|b| b.of_table(self)))
    }

    /// Index of a river any part of the element is in (reaching over the bank by more than
    /// [`TOLERANCE`]).
    pub fn river_under(&self, rect: &ElementRect) -> Option<usize> {
        let poly = inset_rect(rect);
        self.features.iter().enumerate().find_map(|(i, f)| match f {
            TerrainFeature::River(r)
                if polyline_distance_to_polygon(&r.course, &poly) < r.width * 0.5 =>
            {
                Some(i)
            }
            _ => None,
        })
    }

    /// Whether any part of the element's front edge is in a river (reaching over the bank by more
    /// than [`TOLERANCE`]); used for crossings (§7.8) and bank defence (§3.5, §10.3).
    pub fn front_edge_in_river(&self, rect: &ElementRect) -> bool {
        let front = rect.edge(Edge::Front);
        self.features.iter().any(|f| match f {
            TerrainFeature::River(r) => {
                polyline_distance_to_segment(&r.course, &front) < r.width * 0.5 - TOLERANCE
            }
            _ => false,
        })
    }

    /// Whether a move path (the successive positions of the mover's front-edge midpoint) lies
    /// wholly along roads (§3.6): every point of it within [`ROAD_ASTRIDE_TOLERANCE`] of some road's
    /// centre line. Paths are checked at least every 1/16 BW.
    pub fn move_along_road(&self, path: &[Point]) -> bool {
        let roads: Vec<&[Point]> = self
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Road(r) => Some(r.path.as_slice()),
                _ => None,
            })
            .collect();
        if roads.is_empty() || path.is_empty() {
            return false;
        }
        let on_road = |p: Point| {
            roads
                .iter()
                .any(|r| polyline_distance_to_point(r, p) <= ROAD_ASTRIDE_TOLERANCE + TOLERANCE)
        };
        if path.len() == 1 {
            return on_road(path[0]);
        }
        path.windows(2).all(|w| {
            let n = ((w[0].distance(w[1]) * 16.0).ceil() as usize).max(1);
            (0..=n).all(|k| on_road(w[0] + (w[1] - w[0]) * (k as f64 / n as f64)))
        })
    }
}

#[cfg(test)]
pub(super) mod going_agreement {
    use super::*;
    use crate::geometry::Pose;
    use crate::terrain::Waterway;

    /// [`Battlefield::going_impl`] as it stood before the shrunk rectangle was made lazy and the
    /// cheap conditions put first (#15).
    fn going_reference(
        bf: &Battlefield,
        rect: &ElementRect,
        ctx: GoingContext,
        combat: bool,
    ) -> Going {
        let poly = inset_rect(rect);
        let mut going = Going::Good;
        for f in &bf.features {
            match f {
                TerrainFeature::Area(a) => {
                    if combat && a.kind.is_hill() && bf.hill_is_fortified(a) {
                        continue;
                    }
                    if let Some(g) = a.going(ctx) {
                        if g > going && polygons_intersect(&poly, &a.outline) {
                            going = g;
                        }
                    }
                }
                TerrainFeature::Waterway(w) => {
                    if polygons_intersect(&poly, &w.water_polygon(&bf.board)) {
                        going = Going::Impassable;
                    }
                }
                TerrainFeature::River(_) | TerrainFeature::Road(_) => {}
            }
        }
        going
    }

    fn ellipse(kind: AreaKind, cx: f64, cy: f64, rx: f64, ry: f64) -> AreaFeature {
        let pts = (0..20)
            .map(|k| {
                let t = f64::from(k) * std::f64::consts::TAU / 20.0;
                Point::new(cx + rx * t.cos(), cy + ry * t.sin())
            })
            .collect();
        AreaFeature::new(kind, Polygon::new(pts))
    }

    /// A difficult hill under a Fort, a gentle hill, a wood, dunes, plough, rocky ground and a
    /// waterway, some of them overlapping so that the worst going decides.
    pub(in crate::battlefield) fn table() -> Battlefield {
        let mut bf = Battlefield::new(Board::default());
        let areas = [
            ellipse(AreaKind::DifficultHill, 4.0, 4.0, 2.5, 2.0),
            ellipse(AreaKind::GentleHill, 11.0, 5.0, 2.5, 2.0),
            ellipse(AreaKind::Wood, 6.0, 10.0, 2.0, 2.0),
            ellipse(AreaKind::Dunes, 12.0, 11.0, 2.0, 1.5),
            AreaFeature::rectangle(
                AreaKind::Plough,
                Point::new(7.0, 6.0),
                Point::new(10.0, 9.0),
            ),
            ellipse(AreaKind::Rocky, 9.0, 9.0, 1.5, 1.5),
            AreaFeature::rectangle(AreaKind::Fort, Point::new(3.5, 3.5), Point::new(4.5, 4.5)),
        ];
        for a in areas {
            bf.features.push(TerrainFeature::Area(a));
        }
        bf.features.push(TerrainFeature::Waterway(Waterway::uniform(
            BoardEdge::South,
            1.5,
            0.5,
        )));
        bf
    }

    // DBA3.md §3.1, §17.34: the lazy shrunk rectangle and the reordered conditions (#15) never
    // change the going an element stands or fights in, for every context, on and off features.
    #[test]
    fn going_is_the_reference() {
        let bf = table();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let facings = [0.0, 90.0, 180.0, 270.0, 30.0, 212.5];
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..4_000 {
            let x = (next() % 4096) as f64 / 4096.0 * 16.0;
            let y = (next() % 4096) as f64 / 4096.0 * 16.0;
            let f = facings[(next() % 6) as usize];
            let rect = ElementRect::new(Pose::new(x, y, f), 1.0, 0.5);
            for (camel_mounted, plough_is_rough, combat) in [
                (false, false, false),
                (true, false, true),
                (false, true, true),
                (true, true, false),
            ] {
                let ctx = GoingContext {
                    camel_mounted,
                    plough_is_rough,
                };
                let want = going_reference(&bf, &rect, ctx, combat);
                assert_eq!(bf.going_impl(&rect, ctx, combat), want, "{rect:?} {ctx:?}");
                seen.insert(want);
            }
        }
        assert_eq!(seen.len(), 4, "every going met: {seen:?}");
    }

    // DBA3.md §3.1, §17.34: the going with the outlines' boxes kept for the table (#15) is the
    // going without them, on a table with outlines that are not finite too; boxes kept for
    // another table are not used.
    #[test]
    fn going_with_kept_boxes_is_the_reference() {
        let mut odd = table();
        if let TerrainFeature::Area(a) = &mut odd.features[2] {
            a.outline.points[4] = Point::new(f64::NAN, 10.0);
        }
        if let TerrainFeature::Area(a) = &mut odd.features[3] {
            a.outline.points[7].y = f64::INFINITY;
        }
        odd.features.push(TerrainFeature::Area(AreaFeature::new(
            AreaKind::Wood,
            Polygon::new(Vec::new()),
        )));
        let mut rng = crate::terrain::intersect_agreement::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next();
        let facings = [0.0, 90.0, 180.0, 270.0, 30.0, 212.5, f64::NAN];
        for bf in [table(), odd] {
            let (boxes, other) = (AreaBoxes::of(&bf), AreaBoxes::of(&table()));
            let mut seen = std::collections::BTreeSet::new();
            for k in 0..4_000 {
                let x = (next() % 4096) as f64 / 4096.0 * 16.0;
                let y = (next() % 4096) as f64 / 4096.0 * 16.0;
                let f = facings[(next() % 7) as usize];
                let x = if k % 500 == 0 { f64::INFINITY } else { x };
                let rect = ElementRect::new(Pose::new(x, y, f), 1.0, 0.5);
                for (camel_mounted, plough_is_rough) in [(false, false), (true, true)] {
                    let ctx = GoingContext {
                        camel_mounted,
                        plough_is_rough,
                    };
                    let want = going_reference(&bf, &rect, ctx, true);
                    for kept in [None, Some(&boxes), Some(&other)] {
                        let got = bf.combat_going_under_boxed(&rect, ctx, kept);
                        assert_eq!(got, want, "{rect:?} {ctx:?}");
                    }
                    seen.insert(want);
                }
            }
            assert!(seen.len() >= 3, "goings met: {seen:?}");
        }
    }
}
