//! The check of a laid-out table against the terrain rules (DBA3.md §3.2–§3.8, §4.1–§4.5):
//! [`validate_terrain`] and its [`TerrainProblem`]s.

use super::*;

/// One problem with a laid-out table. Features are named by their index in
/// [`Battlefield::features`].
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum TerrainProblem {
    /// A feature needs a rectangle whose length plus width is more than 9 BW (§3.2).
    #[error(
        "§3.2: feature {feature} needs a rectangle with length + width {sum:.3} BW, more than 9"
    )]
    TooBig {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// Length plus width, BW.
        sum: f64,
    },
    /// A feature is less than 1 BW wide at its centre (§3.2).
    #[error("§3.2: feature {feature} is {width:.3} BW wide at its centre, less than 1 BW")]
    TooNarrow {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// Its width at the centre, BW.
        width: f64,
    },
    /// More than one feature is less than 3 BW wide at its centre (§3.2).
    #[error(
        "§3.2: features {features:?} are all less than 3 BW wide at the centre; at most one may be"
    )]
    SeveralNarrow {
        /// Their indices among the battlefield's features.
        features: Vec<usize>,
    },
    /// A gully is shorter than 3 times its width (§3.2).
    #[error("§3.2: gully {feature} is {length:.3} BW long, less than 3 × its width {width:.3}")]
    GullyTooShort {
        /// The gully's index among the battlefield's features.
        feature: usize,
        /// Its length, BW.
        length: f64,
        /// Its width, BW.
        width: f64,
    },
    /// A feature other than a gully is longer than twice its width (§3.2).
    #[error("§3.2: feature {feature} is {length:.3} BW long, more than 2 × its width {width:.3}")]
    TooLong {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// Its length, BW.
        length: f64,
        /// Its width, BW.
        width: f64,
    },
    /// A feature of a kind that must be curved has straight edges (§3.2).
    #[error("§3.2: feature {feature} ({kind}) has straight edges; only BUAs and plough may")]
    StraightEdges {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// Its kind.
        kind: AreaKind,
    },
    /// A feature's outline has fewer than 3 vertices or no area.
    #[error("§3.2: feature {feature} has a degenerate outline (fewer than 3 vertices or no area)")]
    DegenerateOutline {
        /// The feature's index among the battlefield's features.
        feature: usize,
    },
    /// A hill has no crest line of at least two points inside its outline (§3.3).
    #[error("§3.3: hill {feature} needs a crest line of at least two points inside its outline")]
    BadCrest {
        /// The hill's index among the battlefield's features.
        feature: usize,
    },
    /// A City or Fort has the wrong number of gates (§4.2, §4.3).
    #[error("§4.2–4.3: feature {feature} ({kind}) has {gates} gates (City 1 or 2, Fort 1)")]
    BadGates {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// City or Fort.
        kind: AreaKind,
        /// Gates given.
        gates: usize,
    },
    /// More features of one type than §3.7 allows.
    #[error("§3.7: {count} features of type {feature_type}, at most {max} allowed")]
    TooMany {
        /// The feature type.
        feature_type: FeatureType,
        /// Features of that type on the table.
        count: usize,
        /// The most allowed.
        max: u8,
    },
    /// No feature of bad or rough going, river or waterway is on the table (§3.7).
    #[error(
        "§3.7: the table needs at least one bad-going, rough-going, river or waterway feature"
    )]
    NoDifficultTerrain,
    /// Two area features are less than 1 BW apart (§3.8).
    #[error("§3.8: area features {a} and {b} are {gap:.3} BW apart, less than 1 BW")]
    FeaturesTooClose {
        /// One feature's index among the battlefield's features.
        a: usize,
        /// The other's.
        b: usize,
        /// The gap between them, BW.
        gap: f64,
    },
    /// A feature is less than 1 BW from a battlefield edge (§3.8).
    #[error("§3.8: feature {feature} is {gap:.3} BW from the {edge} edge, less than 1 BW")]
    TooCloseToEdge {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// The edge.
        edge: BoardEdge,
        /// The gap, BW.
        gap: f64,
    },
    /// A feature lies partly off the board (§1.2).
    #[error("§1.2: feature {feature} lies partly off the board")]
    OffBoard {
        /// The feature's index among the battlefield's features.
        feature: usize,
    },
    /// An area feature lies in the waterway (§3.4).
    #[error("§3.4: area feature {feature} lies in the waterway")]
    InWaterway {
        /// The feature's index among the battlefield's features.
        feature: usize,
    },
    /// A City or Fort is not wholly within 6 BW of two battlefield edges (§3.8).
    #[error(
        "§3.8: the {kind} (feature {feature}) is not wholly within 6 BW of two battlefield edges"
    )]
    FortificationNotNearCorner {
        /// The feature's index among the battlefield's features.
        feature: usize,
        /// City or Fort.
        kind: AreaKind,
    },
    /// A road is drawn 1 BW wide or more (§3.6).
    #[error("§3.6: road {feature} is {width:.3} BW wide; a road is drawn less than 1 BW wide")]
    RoadTooWide {
        /// The road's index among the battlefield's features.
        feature: usize,
        /// Its drawn width, BW.
        width: f64,
    },
    /// A road does not run from a battlefield edge to a battlefield edge (§3.6).
    #[error("§3.6: road {feature} does not run from a battlefield edge to a battlefield edge")]
    RoadNotEdgeToEdge {
        /// The road's index among the battlefield's features.
        feature: usize,
    },
    /// A road starts or ends at the waterway's edge (§3.6).
    #[error("§3.6: road {feature} starts or ends at the waterway's edge")]
    RoadFromWaterwayEdge {
        /// The road's index among the battlefield's features.
        feature: usize,
    },
    /// A second road neither crosses nor joins the first (§3.6).
    #[error("§3.6: road {second} neither crosses nor joins road {first}")]
    RoadsDisjoint {
        /// The first road's index among the battlefield's features.
        first: usize,
        /// The second road's index.
        second: usize,
    },
    /// A river is more than 1 BW wide (§3.5).
    #[error("§3.5: river {feature} is {width:.3} BW wide, more than 1 BW")]
    RiverTooWide {
        /// The river's index among the battlefield's features.
        feature: usize,
        /// Its width, BW.
        width: f64,
    },
    /// A river does not run from one battlefield edge to another or into a waterway (§3.5).
    #[error("§3.5: river {feature} does not run from a battlefield edge to a different edge or into a waterway")]
    RiverEnds {
        /// The river's index among the battlefield's features.
        feature: usize,
    },
    /// A river is longer than 1.5 times the straight distance between its ends (§3.5).
    #[error("§3.5: river {feature} is {length:.3} BW long, more than 1.5 × the {straight:.3} BW between its ends")]
    RiverTooWinding {
        /// The river's index among the battlefield's features.
        feature: usize,
        /// Its length along its course, BW.
        length: f64,
        /// The straight distance between its ends, BW.
        straight: f64,
    },
    /// A river comes within 4 BW of an edge it does not end at (§3.5).
    #[error("§3.5: river {feature} comes within 4 BW of the {edge} edge ({gap:.3} BW)")]
    RiverNearOtherEdge {
        /// The river's index among the battlefield's features.
        feature: usize,
        /// The edge.
        edge: BoardEdge,
        /// Its least distance to that edge, BW.
        gap: f64,
    },
    /// A river crosses a hill, dunes, an oasis or a built-up area (§3.5).
    #[error("§3.5: river {river} crosses feature {feature} ({kind}); rivers may not cross hills, dunes, oasis or BUAs")]
    RiverCrosses {
        /// The river's index among the battlefield's features.
        river: usize,
        /// The feature crossed, by its index.
        feature: usize,
        /// Its kind.
        kind: AreaKind,
    },
    /// A waterway extends less than 1 BW or more than 4 BW inward (§3.4).
    #[error("§3.4: waterway {feature} extends {depth:.3} BW inward; it must extend 1 to 4 BW")]
    WaterwayDepth {
        /// The waterway's index among the battlefield's features.
        feature: usize,
        /// The depth found, BW.
        depth: f64,
    },
    /// A waterway is more than 3 BW deep along more than half its length (§3.4, §17.7).
    #[error("§3.4, §17.7: waterway {feature} is at most 3 BW deep along only {fraction:.3} of its length; at least half is needed")]
    WaterwayTooDeep {
        /// The waterway's index among the battlefield's features.
        feature: usize,
        /// The fraction of its length that is at most 3 BW deep.
        fraction: f64,
    },
    /// A waterway's beach is more than 2 BW wide (§3.4).
    #[error("§3.4: waterway {feature} has a beach {beach:.3} BW wide, more than 2 BW")]
    BeachTooWide {
        /// The waterway's index among the battlefield's features.
        feature: usize,
        /// The beach's width, BW.
        beach: f64,
    },
    /// A waterway has fewer than two depth stations.
    #[error("§3.4: waterway {feature} needs at least two depth stations")]
    WaterwayProfile {
        /// The waterway's index among the battlefield's features.
        feature: usize,
    },
    /// A waterway lies along a long side of the Big Battle or Giant board (§14.2, §14.6).
    #[error("§14.2: waterway {feature} lies along a long side of the Big Battle or Giant board")]
    WaterwayOnLongSide {
        /// The waterway's index among the battlefield's features.
        feature: usize,
    },
}

impl TerrainProblem {
    /// The digest section the problem breaks.
    pub fn rule(&self) -> &'static str {
        use TerrainProblem::*;
        match self {
            TooBig { .. }
            | TooNarrow { .. }
            | SeveralNarrow { .. }
            | GullyTooShort { .. }
            | TooLong { .. }
            | StraightEdges { .. }
            | DegenerateOutline { .. } => "§3.2",
            BadCrest { .. } => "§3.3",
            BadGates { .. } => "§4.2",
            TooMany { .. } | NoDifficultTerrain => "§3.7",
            FeaturesTooClose { .. } | TooCloseToEdge { .. } | FortificationNotNearCorner { .. } => {
                "§3.8"
            }
            OffBoard { .. } => "§1.2",
            InWaterway { .. } => "§3.4",
            RoadTooWide { .. }
            | RoadNotEdgeToEdge { .. }
            | RoadFromWaterwayEdge { .. }
            | RoadsDisjoint { .. } => "§3.6",
            RiverTooWide { .. }
            | RiverEnds { .. }
            | RiverTooWinding { .. }
            | RiverNearOtherEdge { .. }
            | RiverCrosses { .. } => "§3.5",
            WaterwayDepth { .. }
            | WaterwayTooDeep { .. }
            | BeachTooWide { .. }
            | WaterwayProfile { .. } => "§3.4",
            WaterwayOnLongSide { .. } => "§14.2",
        }
    }
}

/// Fewest vertices an outline needs to pass as a natural curve rather than a straight-edged shape.
pub const MIN_CURVE_VERTICES: usize = 8;

/// Check a laid-out table against §3.2–§3.8 (with the variant's counts, §14.2, §14.6), returning
/// every problem found (empty when the table is legal).
///
/// Readings where the digest is silent:
/// * a City or Fort whose outline lies inside a hill counts with it as one feature (§3.2), so the
///   pair is exempt from the 1 BW gap;
/// * an outline flagged curved but with fewer than [`MIN_CURVE_VERTICES`] vertices counts as
///   straight-edged;
/// * the quarter placement of §3.8 items 3–4 depends on the die rolled for each feature, not on
///   the finished table: [`check_quarter_placement`] checks it feature by feature;
/// * a road end counts as "on an edge" within [`TOLERANCE`] of it, or inside a BUA (§3.6 lets a road
///   end at a BUA on a waterway edge), or on another road (a second road may join the first).
pub fn validate_terrain(bf: &Battlefield, variant: Variant) -> Vec<TerrainProblem> {
    let mut out = Vec::new();
    let board = &bf.board;
    let limits = TerrainLimits::for_variant(variant);
    let areas: Vec<(usize, &AreaFeature)> = bf
        .features
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            TerrainFeature::Area(a) => Some((i, a)),
            _ => None,
        })
        .collect();
    let waterways: Vec<(usize, &Waterway)> = bf
        .features
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            TerrainFeature::Waterway(w) => Some((i, w)),
            _ => None,
        })
        .collect();
    let board_poly = board.polygon();

    // §3.2 sizes and shapes, §3.3 crests, §4.2-4.3 gates.
    let mut narrow = Vec::new();
    for &(i, a) in &areas {
        if a.outline.points.len() < 3 || a.outline.area() < 1e-9 {
            out.push(TerrainProblem::DegenerateOutline { feature: i });
            continue;
        }
        // A City or Fort on a hill counts with the hill as one feature (§3.2): the hill's width
        // is the one that counts.
        let on_hill = areas.iter().any(|&(_, h)| fort_on_hill(a, h));
        // Most outlines are settled by cheap bounds on their size: the 720-bearing measure is
        // taken only when some comparison with the §3.2 limits is left open (#15).
        if let Some(under_3) = SizeBounds::of(&a.outline).and_then(|b| b.settled(a.kind)) {
            if under_3 && !on_hill {
                narrow.push(i);
            }
        } else {
            size_problems(i, a, on_hill, measure(&a.outline), &mut out, &mut narrow);
        }
        let straight = a.straight_edged || a.outline.points.len() < MIN_CURVE_VERTICES;
        if straight && !a.kind.may_be_straight_edged() {
            out.push(TerrainProblem::StraightEdges {
                feature: i,
                kind: a.kind,
            });
        }
        if a.kind.is_hill()
            && (a.crest.len() < 2 || a.crest.iter().any(|&p| !a.outline.contains(p)))
        {
            out.push(TerrainProblem::BadCrest { feature: i });
        }
        let gates_ok = match a.kind {
            AreaKind::City => (1..=2).contains(&a.gates.len()),
            AreaKind::Fort => a.gates.len() == 1,
            _ => true,
        };
        if !gates_ok {
            out.push(TerrainProblem::BadGates {
                feature: i,
                kind: a.kind,
                gates: a.gates.len(),
            });
        }
        if a.outline.points.iter().any(|&p| !board_poly.contains(p)) {
            out.push(TerrainProblem::OffBoard { feature: i });
        }
    }
    if narrow.len() > 1 {
        out.push(TerrainProblem::SeveralNarrow { features: narrow });
    }

    // §3.7 counts.
    // A City or Fort on a hill counts with it as one feature (§3.2): the pair counts as the BUA.
    let carrying_hill = |i: usize| match &bf.features[i] {
        TerrainFeature::Area(h) => areas.iter().any(|&(_, a)| fort_on_hill(a, h)),
        _ => false,
    };
    let mut sorted: Vec<FeatureType> = bf
        .features
        .iter()
        .enumerate()
        .filter(|&(i, _)| !carrying_hill(i))
        .map(|(_, f)| f.feature_type())
        .collect();
    sorted.sort();
    let mut k = 0;
    while k < sorted.len() {
        let t = sorted[k];
        let count = sorted[k..].iter().take_while(|&&u| u == t).count();
        if count > limits.max_of(t) as usize {
            out.push(TerrainProblem::TooMany {
                feature_type: t,
                count,
                max: limits.max_of(t),
            });
        }
        k += count;
    }
    let ctx = GoingContext::default();
    let has_difficult = bf.features.iter().any(|f| match f {
        TerrainFeature::Area(a) => matches!(a.going(ctx), Some(Going::Rough | Going::Bad)),
        TerrainFeature::River(_) | TerrainFeature::Waterway(_) => true,
        TerrainFeature::Road(_) => false,
    });
    if !has_difficult {
        out.push(TerrainProblem::NoDifficultTerrain);
    }

    // §3.8 gaps.
    for (n, &(i, a)) in areas.iter().enumerate() {
        for &(j, b) in &areas[n + 1..] {
            // Bounding boxes a full gap apart: the outlines are too (the box distance is a lower
            // bound), so the vertex-by-vertex distance is not needed.
            let ((alo, ahi), (blo, bhi)) = (a.outline.bounds(), b.outline.bounds());
            let dx = (blo.x - ahi.x).max(alo.x - bhi.x).max(0.0);
            let dy = (blo.y - ahi.y).max(alo.y - bhi.y).max(0.0);
            if dx.hypot(dy) >= 1.0 {
                continue;
            }
            if fort_on_hill(a, b) || fort_on_hill(b, a) {
                continue;
            }
            // (The gap is measured only to report it: `closer_than` is its comparison.)
            if a.outline.closer_than(&b.outline, 1.0 - TOLERANCE) {
                let gap = a.outline.distance_to_polygon(&b.outline);
                out.push(TerrainProblem::FeaturesTooClose { a: i, b: j, gap });
            }
        }
        if !a.kind.is_bua() {
            for edge in BoardEdge::ALL {
                let gap = a
                    .outline
                    .points
                    .iter()
                    .map(|&p| board.distance_to_edge(p, edge))
                    .fold(f64::INFINITY, f64::min);
                if gap < 1.0 - TOLERANCE {
                    out.push(TerrainProblem::TooCloseToEdge {
                        feature: i,
                        edge,
                        gap,
                    });
                }
            }
            for &(_, w) in &waterways {
                let water = w.water_polygon(board);
                if polygons_intersect(&water, &a.outline) {
                    out.push(TerrainProblem::InWaterway { feature: i });
                }
            }
        }
        if a.kind.is_fortified() {
            let near: Vec<BoardEdge> = BoardEdge::ALL
                .into_iter()
                .filter(|&e| {
                    a.outline
                        .points
                        .iter()
                        .all(|&p| board.distance_to_edge(p, e) <= 6.0 + TOLERANCE)
                })
                .collect();
            if near.len() < 2 {
                out.push(TerrainProblem::FortificationNotNearCorner {
                    feature: i,
                    kind: a.kind,
                });
            }
        }
    }

    // §3.6 roads.
    let roads: Vec<(usize, &Road)> = bf
        .features
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            TerrainFeature::Road(r) => Some((i, r)),
            _ => None,
        })
        .collect();
    for &(i, r) in &roads {
        let joins_other = |q: Point| {
            roads
                .iter()
                .any(|&(j, o)| j != i && polyline_distance_to_point(&o.path, q) <= TOLERANCE)
        };
        if r.width >= 1.0 {
            out.push(TerrainProblem::RoadTooWide {
                feature: i,
                width: r.width,
            });
        }
        let ends = [r.path.first().copied(), r.path.last().copied()];
        let mut ok = r.path.len() >= 2;
        let mut from_water = false;
        for p in ends.into_iter().flatten() {
            let in_bua = areas
                .iter()
                .any(|&(_, a)| a.kind.is_bua() && a.outline.contains(p));
            let edge = board.edge_at(p);
            if edge.is_none() && !in_bua && !joins_other(p) {
                ok = false;
            }
            if let Some(e) = edge {
                if !in_bua && waterways.iter().any(|&(_, w)| w.edge == e) {
                    from_water = true;
                }
            }
        }
        if ok {
            if let (Some(a), Some(b)) = (ends[0], ends[1]) {
                if let (Some(ea), Some(eb)) = (board.edge_at(a), board.edge_at(b)) {
                    if ea == eb {
                        ok = false;
                    }
                }
            }
        }
        if !ok {
            out.push(TerrainProblem::RoadNotEdgeToEdge { feature: i });
        }
        if from_water {
            out.push(TerrainProblem::RoadFromWaterwayEdge { feature: i });
        }
    }
    if roads.len() >= 2 {
        let (first, r0) = roads[0];
        for &(second, r) in &roads[1..] {
            let meet = polyline_segments(&r.path)
                .any(|s| polyline_distance_to_segment(&r0.path, &s) <= TOLERANCE);
            if !meet {
                out.push(TerrainProblem::RoadsDisjoint { first, second });
            }
        }
    }

    // §3.5 rivers.
    for (i, f) in bf.features.iter().enumerate() {
        let TerrainFeature::River(r) = f else {
            continue;
        };
        if r.width > 1.0 + TOLERANCE {
            out.push(TerrainProblem::RiverTooWide {
                feature: i,
                width: r.width,
            });
        }
        let (Some(&start), Some(&end)) = (r.course.first(), r.course.last()) else {
            out.push(TerrainProblem::RiverEnds { feature: i });
            continue;
        };
        let end_edge = |p: Point| -> Option<BoardEdge> {
            board.edge_at(p).or_else(|| {
                waterways
                    .iter()
                    .find(|&&(_, w)| w.water_polygon(board).contains(p))
                    .map(|&(_, w)| w.edge)
            })
        };
        let (es, ee) = (end_edge(start), end_edge(end));
        let into_water = waterways.iter().any(|&(_, w)| {
            w.water_polygon(board).contains(end) || w.water_polygon(board).contains(start)
        });
        match (es, ee) {
            (Some(a), Some(b)) if a != b || into_water => {}
            _ => out.push(TerrainProblem::RiverEnds { feature: i }),
        }
        let length = polyline_length(&r.course);
        let straight = start.distance(end);
        if length > 1.5 * straight + TOLERANCE {
            out.push(TerrainProblem::RiverTooWinding {
                feature: i,
                length,
                straight,
            });
        }
        for edge in BoardEdge::ALL {
            if Some(edge) == es || Some(edge) == ee {
                continue;
            }
            let (a, b) = board.edge_segment(edge);
            let gap = polyline_distance_to_segment(&r.course, &Segment::new(a, b)) - r.width * 0.5;
            if gap <= 4.0 + TOLERANCE {
                out.push(TerrainProblem::RiverNearOtherEdge {
                    feature: i,
                    edge,
                    gap,
                });
            }
        }
        for &(j, a) in &areas {
            let forbidden = a.kind.is_hill()
                || a.kind.is_bua()
                || matches!(a.kind, AreaKind::Dunes | AreaKind::Oasis);
            if forbidden
                && polyline_distance_to_polygon(&r.course, &a.outline) < r.width * 0.5 - TOLERANCE
            {
                out.push(TerrainProblem::RiverCrosses {
                    river: i,
                    feature: j,
                    kind: a.kind,
                });
            }
        }
    }

    // §3.4 waterways.
    for &(i, w) in &waterways {
        if w.depths.len() < 2 {
            out.push(TerrainProblem::WaterwayProfile { feature: i });
            continue;
        }
        if let Some(&d) = w
            .depths
            .iter()
            .find(|&&d| !(1.0 - TOLERANCE..=4.0 + TOLERANCE).contains(&d))
        {
            out.push(TerrainProblem::WaterwayDepth {
                feature: i,
                depth: d,
            });
        }
        let steps = 4096;
        let shallow = (0..steps)
            .filter(|&k| w.depth_at((k as f64 + 0.5) / steps as f64) <= 3.0 + TOLERANCE)
            .count();
        let fraction = shallow as f64 / steps as f64;
        if fraction < 0.5 {
            out.push(TerrainProblem::WaterwayTooDeep {
                feature: i,
                fraction,
            });
        }
        if w.beach > 2.0 + TOLERANCE || w.beach < 0.0 {
            out.push(TerrainProblem::BeachTooWide {
                feature: i,
                beach: w.beach,
            });
        }
        // Giant differs from Big Battle only as §14.6 says: its waterway keeps off the long sides.
        if matches!(variant, Variant::BigBattle | Variant::Giant)
            && board.edge_length(w.edge) > board.depth + TOLERANCE
        {
            out.push(TerrainProblem::WaterwayOnLongSide { feature: i });
        }
    }
    out
}

/// The §3.2 size problems of area feature `i` (`a`) measured as `size`, pushed to `out`, and
/// the feature added to `narrow` when it is under 3 BW wide at its centre and not a City or
/// Fort on a hill (`on_hill`).
pub(super) fn size_problems(
    i: usize,
    a: &AreaFeature,
    on_hill: bool,
    size: FeatureSize,
    out: &mut Vec<TerrainProblem>,
    narrow: &mut Vec<usize>,
) {
    if size.length + size.breadth > 9.0 + TOLERANCE {
        out.push(TerrainProblem::TooBig {
            feature: i,
            sum: size.length + size.breadth,
        });
    }
    if size.centre_width < 1.0 - TOLERANCE {
        out.push(TerrainProblem::TooNarrow {
            feature: i,
            width: size.centre_width,
        });
    }
    if size.centre_width < 3.0 - TOLERANCE && !on_hill {
        narrow.push(i);
    }
    if a.kind == AreaKind::Gully {
        if size.length < 3.0 * size.centre_width - TOLERANCE {
            out.push(TerrainProblem::GullyTooShort {
                feature: i,
                length: size.length,
                width: size.centre_width,
            });
        }
    } else if size.length > 2.0 * size.centre_width + TOLERANCE {
        out.push(TerrainProblem::TooLong {
            feature: i,
            length: size.length,
            width: size.centre_width,
        });
    }
}

/// Bounds on what [`measure`] gives an outline, from a few sums instead of its 720 bearings, so
/// that [`validate_terrain`] can settle the §3.2 comparisons of most features without measuring
/// them (#15). Each bound holds with [`SIZE_BOUND_MARGIN`] to spare, far above the rounding of
/// either computation, so a comparison the bounds settle comes out as it would with the
/// measure; one they leave open is left to the measure.
#[derive(Debug, Clone, Copy)]
pub(super) struct SizeBounds {
    /// At least the length + breadth: the sides of the upright enclosing rectangle (the
    /// measure's least rectangle is no larger than the one at its first bearing).
    pub(super) sum_hi: f64,
    /// At least the length: the greatest distance between two vertices (a side of any
    /// enclosing rectangle is the outline's spread along one direction).
    pub(super) length_hi: f64,
    /// At most the centre width: twice the centroid's distance from the outline, when the
    /// centroid is inside (every line through it then runs at least that far inside), else 0.
    pub(super) width_lo: f64,
    /// At least the centre width: the least of the sections through the centroid at eight of
    /// the measure's own bearings (the centre width is the least over all of them).
    pub(super) width_hi: f64,
}

/// The slack every [`SizeBounds`] bound keeps, in BW.
pub(super) const SIZE_BOUND_MARGIN: f64 = 1e-9;

impl SizeBounds {
    /// The bounds of an outline, or `None` for outlines the bounds do not serve: fewer than
    /// three or more than 128 vertices, or a coordinate that is not finite or beyond 10⁶ BW.
    pub(super) fn of(poly: &Polygon) -> Option<SizeBounds> {
        let pts = &poly.points;
        if !(3..=128).contains(&pts.len())
            || pts.iter().any(|p| !(p.x.abs() <= 1e6 && p.y.abs() <= 1e6))
        {
            return None;
        }
        let (mut lo, mut hi) = (pts[0], pts[0]);
        for p in pts {
            lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        let sum_hi = (hi.x - lo.x) + (hi.y - lo.y) + SIZE_BOUND_MARGIN;
        let mut far = 0.0f64;
        for (k, p) in pts.iter().enumerate() {
            for q in &pts[k + 1..] {
                far = far.max(p.distance(*q));
            }
        }
        let length_hi = far + SIZE_BOUND_MARGIN;
        let c = centroid(poly);
        let width_lo = if poly.contains_strictly(c) {
            let r = poly
                .edges()
                .map(|e| e.distance_to_point(c))
                .fold(f64::INFINITY, f64::min);
            (2.0 * r - SIZE_BOUND_MARGIN).max(0.0)
        } else {
            0.0
        };
        // Any reach that carries the line past the whole outline gives the same section.
        let reach = sum_hi * 2.0 + 1.0;
        let width_hi = (0..8)
            .map(|k| {
                let a = bearings::BEARINGS[k * 90];
                length_inside(&Segment::new(c - a * reach, c + a * reach), poly)
            })
            .fold(f64::INFINITY, f64::min)
            + SIZE_BOUND_MARGIN;
        Some(SizeBounds {
            sum_hi,
            length_hi,
            width_lo,
            width_hi,
        })
    }

    /// `Some(under_3)` when the bounds settle that a feature of `kind` is neither too big, too
    /// narrow nor too long for §3.2, `under_3` being whether it is under 3 BW wide at its
    /// centre (the measure's comparisons, see [`size_problems`]); `None` when any of these is
    /// left open, and always for a Gully (its own length rule is left to the measure).
    pub(super) fn settled(&self, kind: AreaKind) -> Option<bool> {
        let fits = kind != AreaKind::Gully
            && self.sum_hi <= 9.0 + TOLERANCE
            && self.width_lo >= 1.0 - TOLERANCE
            && self.length_hi <= 2.0 * self.width_lo + TOLERANCE;
        if !fits {
            None
        } else if self.width_lo >= 3.0 - TOLERANCE {
            Some(false)
        } else if self.width_hi < 3.0 - TOLERANCE {
            Some(true)
        } else {
            None
        }
    }
}

/// Whether area feature `a` is under 3 BW wide at its centre, judged as [`validate_terrain`]
/// judges it for the §3.2 "at most one narrow feature" rule (cheap bounds first, the measure
/// when they leave it open); whether it counts also depends on [`fort_on_hill`].
pub(crate) fn under_three_wide(a: &AreaFeature) -> bool {
    match SizeBounds::of(&a.outline).and_then(|b| b.settled(a.kind)) {
        Some(under_3) => under_3,
        None => measure(&a.outline).centre_width < 3.0 - TOLERANCE,
    }
}

/// Whether [`validate_terrain`] looks at `a`'s size at all: an outline of fewer than 3 points or
/// no area is reported as degenerate instead.
pub(crate) fn has_measurable_outline(a: &AreaFeature) -> bool {
    a.outline.points.len() >= 3 && a.outline.area() >= 1e-9
}

/// A City or Fort sitting on a hill: its outline lies inside the hill's (§3.2).
pub fn fort_on_hill(fort: &AreaFeature, hill: &AreaFeature) -> bool {
    fort.kind.is_fortified()
        && hill.kind.is_hill()
        && !fort.outline.points.is_empty()
        && fort
            .outline
            .points
            .iter()
            .all(|&p| hill.outline.contains(p))
}
