//! Line of sight (§9.5) and screening (§6.4): what terrain blocks a sight line or a shot, and
//! the command distance of a mover beyond screening terrain.

use super::*;

/// Why terrain stops a line of sight or a shot (§9.5).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum SightBlock {
    /// The crest of a hill lies between, and the target is wholly beyond it (§9.5).
    #[error("§9.5: the crest of hill {feature} lies between (target wholly beyond it)")]
    HillCrest {
        /// The hill's index among the battlefield's features.
        feature: usize,
    },
    /// A City, Fort or other built-up area lies between (§9.5).
    #[error("§9.5: the {kind} (feature {feature}) lies between")]
    Fortification {
        /// Its index among the battlefield's features.
        feature: usize,
        /// Its kind.
        kind: AreaKind,
    },
    /// Half a BW or more of a feature that blocks sight lies between (§9.5).
    #[error("§9.5: {} of the {kind} (feature {feature}) lies between (½ BW or more blocks)", bw_text(*.depth))]
    DeepFeature {
        /// Its index among the battlefield's features.
        feature: usize,
        /// Its kind.
        kind: AreaKind,
        /// How much of it lies between, BW.
        depth: f64,
    },
    /// The shooter is in a gully (§9.5).
    #[error("§9.5: no shooting out of gully {feature}")]
    ShooterInGully {
        /// The gully's index among the battlefield's features.
        feature: usize,
    },
    /// The target is in a gully (§9.5).
    #[error("§9.5: no shooting into gully {feature}")]
    TargetInGully {
        /// The gully's index among the battlefield's features.
        feature: usize,
    },
    /// The shooter is partly in a marsh (§9.5).
    #[error("§9.5: no shooting by an element partly in marsh {feature}")]
    ShooterInMarsh {
        /// The marsh's index among the battlefield's features.
        feature: usize,
    },
    /// The shooter is partly in a river (§9.5).
    #[error("§9.5: no shooting by an element partly in river {feature}")]
    ShooterInRiver {
        /// The river's index among the battlefield's features.
        feature: usize,
    },
}

impl SightBlock {
    /// The digest section.
    pub fn rule(&self) -> &'static str {
        "§9.5"
    }
}

/// Command distance for a mover made entirely of Light Horse (§6.4).
pub const COMMAND_DISTANCE_LIGHT_HORSE: f64 = 20.0;
/// Command distance otherwise (§6.4).
pub const COMMAND_DISTANCE: f64 = 8.0;
/// Command distance when the whole mover lies beyond screening terrain (§6.4).
pub const COMMAND_DISTANCE_SCREENED: f64 = 4.0;

impl Battlefield {
    /// The terrain blocking the straight line `s`, if any (§9.5), in feature order.
    pub(super) fn ray_block(&self, s: &Segment, gully_points: bool) -> Option<SightBlock> {
        for (i, f) in self.features.iter().enumerate() {
            let TerrainFeature::Area(a) = f else { continue };
            if gully_points && a.kind == AreaKind::Gully {
                if a.outline.contains_strictly(s.a) {
                    return Some(SightBlock::ShooterInGully { feature: i });
                }
                if a.outline.contains_strictly(s.b) {
                    return Some(SightBlock::TargetInGully { feature: i });
                }
            }
            if a.kind.is_hill() && segment_crosses_polyline(s, &a.crest) {
                return Some(SightBlock::HillCrest { feature: i });
            }
            if a.kind.is_fortified()
                && !a.outline.contains(s.a)
                && !a.outline.contains(s.b)
                && length_inside(s, &a.outline) > TOLERANCE
            {
                return Some(SightBlock::Fortification {
                    feature: i,
                    kind: a.kind,
                });
            }
            if matches!(
                a.kind,
                AreaKind::DifficultHill
                    | AreaKind::Wood
                    | AreaKind::Oasis
                    | AreaKind::Dunes
                    | AreaKind::Hamlet
                    | AreaKind::Edifice
            ) {
                let depth = length_inside(s, &a.outline);
                if depth >= 0.5 - TOLERANCE {
                    return Some(SightBlock::DeepFeature {
                        feature: i,
                        kind: a.kind,
                        depth,
                    });
                }
            }
        }
        None
    }

    /// Terrain line of sight between two points (§9.5): blocked by a hill crest crossed on the way
    /// (a point on the crest itself sees both slopes), by a City or Fort neither point is in, by
    /// ½ BW or more of difficult hill, wood, oasis, dunes, hamlet or edifice along the line, and
    /// when either point is inside a gully. Elements in the way are not terrain and are not
    /// checked here.
    pub fn line_of_sight(&self, from: Point, to: Point) -> Result<(), SightBlock> {
        match self.ray_block(&Segment::new(from, to), true) {
            Some(b) => Err(b),
            None => Ok(()),
        }
    }

    pub(super) fn sight_between_impl(
        &self,
        from: &Segment,
        to: &Segment,
        gully_points: bool,
    ) -> Result<(), SightBlock> {
        let mut first = None;
        let fs = segment_samples(from, 9);
        let ts = segment_samples(to, 9);
        for &p in &fs {
            for &q in &ts {
                match self.ray_block(&Segment::new(p, q), gully_points) {
                    None => return Ok(()),
                    Some(b) => {
                        if first.is_none() {
                            first = Some(b);
                        }
                    }
                }
            }
        }
        // Report the block of the central line, the one a player would look along.
        match self.ray_block(&Segment::new(from.midpoint(), to.midpoint()), gully_points) {
            Some(b) => Err(b),
            None => Err(first.expect("some line was blocked")),
        }
    }

    /// Terrain line of sight between two segments (e.g. a shooter's front edge and a target's
    /// edge): clear when at least one straight line from a point of `from` to a point of `to` is
    /// clear (9 × 9 sampled lines). So a target only partly beyond a crest can be seen, as §9.5's
    /// "wholly beyond" requires.
    pub fn sight_between(&self, from: &Segment, to: &Segment) -> Result<(), SightBlock> {
        self.sight_between_impl(from, to, true)
    }

    /// Terrain checks for one element shooting at another (§9.5): no shooting by an element partly
    /// in a gully, marsh or river, nor at one partly in a gully; then sight from the shooter's
    /// front edge to any edge of the target.
    pub fn element_line_of_sight(
        &self,
        shooter: &ElementRect,
        target: &ElementRect,
    ) -> Result<(), SightBlock> {
        let sp = inset_rect(shooter);
        let tp = inset_rect(target);
        for (i, a) in self.areas() {
            if a.kind == AreaKind::Gully && polygons_intersect(&sp, &a.outline) {
                return Err(SightBlock::ShooterInGully { feature: i });
            }
            if a.kind == AreaKind::Gully && polygons_intersect(&tp, &a.outline) {
                return Err(SightBlock::TargetInGully { feature: i });
            }
            if a.kind == AreaKind::Marsh && polygons_intersect(&sp, &a.outline) {
                return Err(SightBlock::ShooterInMarsh { feature: i });
            }
        }
        if let Some(i) = self.river_under(shooter) {
            return Err(SightBlock::ShooterInRiver { feature: i });
        }
        let front = shooter.edge(Edge::Front);
        let mut first = None;
        for e in [Edge::Front, Edge::Left, Edge::Right, Edge::Rear] {
            match self.sight_between_impl(&front, &target.edge(e), false) {
                Ok(()) => return Ok(()),
                Err(b) => {
                    if first.is_none() {
                        first = Some(b);
                    }
                }
            }
        }
        Err(first.expect("four edges were tried"))
    }

    /// Whether the point `q` of a mover is screened from the general's viewpoint `g` (§6.4).
    ///
    /// "Beyond" reading: `q` is screened when the straight line from `g` to `q` crosses a hill's
    /// crest; or passes through a difficult hill, wood, oasis, dunes, BUA or camp that does not
    /// contain `g` (more than [`TOLERANCE`] of the line inside it); or when `q` is itself on a
    /// difficult hill or inside a wood, oasis or dunes ("on", "inside").
    ///
    /// `boxes` are the outlines' boxes by feature index, when known (#15): an outline whose box
    /// stands clear of the sight line's by more than twice the tolerance can neither hold `q`
    /// (within the tolerance of an edge, or inside) nor have any of the line inside it (the line
    /// meets none of its edges, and its middle is outside), so its tests are passed over. A
    /// hill's crest is tested whatever its outline's box, as before.
    pub(super) fn point_screened(
        &self,
        g: Point,
        q: Point,
        camps: &[Polygon],
        boxes: Option<&[OutlineBox]>,
    ) -> bool {
        let s = Segment::new(g, q);
        for (i, a) in self.areas() {
            if a.kind.is_hill() && segment_crosses_polyline(&s, &a.crest) {
                return true;
            }
            if boxes.is_some_and(|k| sight_clear_of_box(g, q, k[i])) {
                continue;
            }
            let area_screen = matches!(
                a.kind,
                AreaKind::DifficultHill | AreaKind::Wood | AreaKind::Oasis | AreaKind::Dunes
            );
            if area_screen && a.outline.contains(q) {
                return true;
            }
            if (area_screen || a.kind.is_bua())
                && !a.outline.contains(g)
                && length_inside(&s, &a.outline) > TOLERANCE
            {
                return true;
            }
        }
        camps
            .iter()
            .any(|c| !c.contains(g) && length_inside(&s, c) > TOLERANCE)
    }

    /// Whether the whole mover lies beyond screening terrain as seen from the general (§6.4):
    /// every sampled point of every mover element (a 5 × 5 grid over each) is screened, possibly by
    /// different features. The viewpoint is the centre of the general's element.
    pub fn mover_screened(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
    ) -> bool {
        self.mover_screened_boxed(general, mover, camps, None)
    }

    /// [`Battlefield::mover_screened`] with the outlines' boxes kept in `boxes` when they are
    /// this table's (#15), the same answer.
    pub(super) fn mover_screened_boxed(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        boxes: Option<&AreaBoxes>,
    ) -> bool {
        let g = general.centre();
        let boxes = boxes.and_then(|k| k.of_table(self));
        !mover.is_empty()
            && mover
                .iter()
                .flat_map(|m| rect_samples(m, 5))
                .all(|q| self.point_screened(g, q, camps, boxes))
    }

    /// The command distance that applies to a mover (§6.4): 20 BW when it is all Light Horse;
    /// otherwise 4 BW when [`Battlefield::mover_screened`], else 8 BW.
    pub fn command_distance(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        all_light_horse: bool,
    ) -> f64 {
        self.command_distance_boxed(general, mover, camps, all_light_horse, None)
    }

    /// [`Battlefield::command_distance`] with the outlines' boxes kept in `boxes` when they are
    /// this table's (#15), the same answer.
    pub(crate) fn command_distance_boxed(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        all_light_horse: bool,
        boxes: Option<&AreaBoxes>,
    ) -> f64 {
        if all_light_horse {
            COMMAND_DISTANCE_LIGHT_HORSE
        } else if self.mover_screened_boxed(general, mover, camps, boxes) {
            COMMAND_DISTANCE_SCREENED
        } else {
            COMMAND_DISTANCE
        }
    }

    /// Whether a mover (an element, or a group's elements) is within command distance of its
    /// general (§6.4, "within" = at or closer, §0.3). Measured between the nearest points of the
    /// general's element and the nearest element of the mover, at the start of its move.
    pub fn within_command(
        &self,
        general: &ElementRect,
        mover: &[ElementRect],
        camps: &[Polygon],
        all_light_horse: bool,
    ) -> bool {
        let limit = self.command_distance(general, mover, camps, all_light_horse);
        let gp = general.polygon();
        // The least distance is within the limit exactly when one mover's is (`within` is
        // that comparison, #15).
        mover
            .iter()
            .any(|m| gp.within(&m.polygon(), limit + TOLERANCE))
    }
}

#[cfg(test)]
mod screening_agreement {
    use super::*;
    use crate::geometry::{unit_stream as stream, Pose};

    // DBA3.md §6.4: the command distance with the outlines' boxes kept (#15) is the distance
    // worked out with every outline tested, for generals and movers all over a table with a
    // wood, dunes, a difficult hill and a camp, screened and not.
    #[test]
    fn command_distance_with_boxes_is_the_distance() {
        let bf = super::super::going::going_agreement::table();
        let boxes = AreaBoxes::of(&bf);
        let camp = Polygon::new(vec![
            Point::new(13.0, 1.0),
            Point::new(15.0, 1.0),
            Point::new(15.0, 2.5),
            Point::new(13.0, 2.5),
        ]);
        let camps = std::slice::from_ref(&camp);
        let mut unit = stream(0x9e37_79b9_7f4a_7c15);
        let at = |unit: &mut dyn FnMut() -> f64| {
            let facing = [0.0, 90.0, 180.0, 270.0, 33.0][(unit() * 5.0) as usize];
            ElementRect::new(Pose::new(unit() * 16.0, unit() * 16.0, facing), 1.0, 0.5)
        };
        let mut screened = 0;
        for _ in 0..3_000 {
            let general = at(&mut unit);
            let movers: Vec<ElementRect> = (0..1 + (unit() * 2.0) as usize)
                .map(|_| at(&mut unit))
                .collect();
            let want = bf.command_distance(&general, &movers, camps, false);
            let got = bf.command_distance_boxed(&general, &movers, camps, false, Some(&boxes));
            assert_eq!(got.to_bits(), want.to_bits(), "{general:?} {movers:?}");
            screened += usize::from(want == COMMAND_DISTANCE_SCREENED);
        }
        assert!(screened > 50, "only {screened} screened movers");
    }

    // DBA3.md §6.4 (#15): a sight line more than twice the tolerance clear of an outline's box
    // has no length inside the outline and its far end is not in it, for lines passing near,
    // along and across the box's sides.
    #[test]
    fn a_sight_line_clear_of_the_box_misses_the_outline() {
        let bf = super::super::going::going_agreement::table();
        let mut unit = stream(0x2545_f491_4f6c_dd1d);
        let mut clear = 0;
        for (_, a) in bf.areas() {
            let b = outline_box(&a.outline);
            let ((lo, hi), _) = b;
            for _ in 0..2_000 {
                // Ends anywhere within 1 BW of the box, many just past the margin.
                let mut end = || {
                    Point::new(
                        lo.x - 1.0 + unit() * (hi.x - lo.x + 2.0),
                        lo.y - 1.0 + unit() * (hi.y - lo.y + 2.0),
                    )
                };
                let (g, q) = (end(), end());
                if sight_clear_of_box(g, q, b) {
                    clear += 1;
                    assert!(!a.outline.contains(q), "{q:?}");
                    let inside = length_inside(&Segment::new(g, q), &a.outline);
                    assert!(inside <= TOLERANCE, "{g:?} {q:?}: {inside}");
                }
            }
        }
        assert!(clear > 1_000, "only {clear} lines clear");
        let nan = Point::new(f64::NAN, 0.0);
        let (_, a) = bf.areas().next().expect("an area");
        assert!(!sight_clear_of_box(nan, nan, outline_box(&a.outline)));
    }
}
