//! Terrain features, going classes, and the check of a laid-out table against the terrain rules
//! (DBA3.md §3, §4.1–4.5, §14.2, §14.6).
//!
//! Features are plain data in the board frame of [`crate::battlefield`] (origin at the south-west
//! corner, +y up the table, in BW). Area features are polygons; their natural curved outlines are
//! approximated by many-vertex polygons, and each carries a flag saying whether the outline is
//! meant to be straight-edged (only BUAs and Plough may be, §3.2). Linear features are polylines
//! (river, road) or a band along one edge (waterway).
//!
//! [`validate_terrain`] checks a whole table against §3.2–§3.8 and reports **every** problem at
//! once, each naming the rule that forbids it, so a table editor can show them all together.

use crate::board::{Board, BoardEdge, Quarter, Variant};
use crate::geometry::{finite_bounds, ElementRect, Point, Polygon, Segment, TOLERANCE};
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod bearings;
mod home;
mod quarters;
mod shapes;
mod validation;

#[cfg(test)]
pub(crate) mod intersect_agreement;
#[cfg(test)]
mod measure_tests;

pub use home::*;
pub use quarters::*;
pub use shapes::*;
pub use validation::*;

// Declared here, beside the features, since the placement rules take a whole table
// (`validate_terrain`); its methods and the questions asked of it are `crate::battlefield`'s,
// which re-exports it (#48: so that the terrain does not import the battlefield).
/// The table: a board and the terrain on it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Battlefield {
    /// The board's size.
    pub board: Board,
    /// Every terrain feature; a feature's index here is how problems and events name it.
    pub features: Vec<TerrainFeature>,
}

// ---------------------------------------------------------------------------------------------
// Going
// ---------------------------------------------------------------------------------------------

/// The going classes of §3.1, ordered from best to worst so that "the worst of them" (§3.1: an
/// element partly in several goings counts as wholly in the worst) is simply the maximum.
///
/// `Impassable` is the waterway (§3.4). Rivers are none of these (§0.3, §3.5) and are reported by
/// their own queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Going {
    /// Good going: open ground, gentle hills, and Plough until it turns rough (§3.1).
    Good,
    /// Rough going: rocky ground, scrub, boggy ground, enclosures, hamlets, Plough once rough
    /// (§3.1).
    Rough,
    /// Bad going: difficult hills, woods, marshes, gullies, dunes and oases (not for camelry),
    /// Edifices (§3.1).
    Bad,
    /// Impassable: the waterway (§3.4).
    Impassable,
}

/// What the going of a feature depends on besides the feature itself (§3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GoingContext {
    /// The element has camels (Cm, LCm, camel-mounted generals or Mtd-X, §17.28): dunes and oasis
    /// are good going for it.
    pub camel_mounted: bool,
    /// Game state: the first PIP score was 1 (BBDBA: first-bound PIP total < 8, §17.7b), so Plough
    /// is rough for the whole game.
    pub plough_is_rough: bool,
}

// ---------------------------------------------------------------------------------------------
// Area features
// ---------------------------------------------------------------------------------------------

/// The kinds of area feature (§3.1, §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    /// A gentle hill: good going, with a crest line (§3.3).
    GentleHill,
    /// A difficult (steep or wooded) hill: bad going, with a crest line (§3.3).
    DifficultHill,
    /// A wood: bad going that blocks sight (§3.1, §9.5).
    Wood,
    /// A marsh: bad going.
    Marsh,
    /// A gully: bad going, long and narrow (§3.2).
    Gully,
    /// Dunes: bad going, good for camelry.
    Dunes,
    /// An oasis: bad going, good for camelry.
    Oasis,
    /// Rocky ground: rough going.
    Rocky,
    /// Scrub: rough going.
    Scrub,
    /// Boggy ground: rough going.
    Boggy,
    /// Enclosures: rough going.
    Enclosures,
    /// Plough: good going, rough for the whole game if the first PIP score is 1 (§3.1, §17.13).
    Plough,
    /// A hamlet: a built-up area, rough going (§4.1).
    Hamlet,
    /// An Edifice: a built-up area, bad going; it may serve as a camp (§4.5).
    Edifice,
    /// A City: a walled built-up area with 1 or 2 gates, garrisoned and defended by its denizens
    /// (§4.2).
    City,
    /// A Fort: a walled built-up area with 1 gate, garrisoned from the start (§4.3).
    Fort,
}

impl AreaKind {
    /// Every kind, in declaration order.
    pub const ALL: [AreaKind; 16] = [
        AreaKind::GentleHill,
        AreaKind::DifficultHill,
        AreaKind::Wood,
        AreaKind::Marsh,
        AreaKind::Gully,
        AreaKind::Dunes,
        AreaKind::Oasis,
        AreaKind::Rocky,
        AreaKind::Scrub,
        AreaKind::Boggy,
        AreaKind::Enclosures,
        AreaKind::Plough,
        AreaKind::Hamlet,
        AreaKind::Edifice,
        AreaKind::City,
        AreaKind::Fort,
    ];

    /// The going inside the feature (§3.1). `None` for City and Fort, whose effects are the
    /// garrison rules of §4.2–4.3 rather than a going class.
    pub fn going(self, ctx: GoingContext) -> Option<Going> {
        use AreaKind::*;
        Some(match self {
            GentleHill => Going::Good,
            Plough if ctx.plough_is_rough => Going::Rough,
            Plough => Going::Good,
            Dunes | Oasis if ctx.camel_mounted => Going::Good,
            DifficultHill | Wood | Marsh | Gully | Dunes | Oasis | Edifice => Going::Bad,
            Rocky | Scrub | Boggy | Enclosures | Hamlet => Going::Rough,
            City | Fort => return None,
        })
    }

    /// The feature as players name it in a sentence ("the {name}"): "gentle hill", "rocky
    /// ground", "City".
    pub const fn game_name(self) -> &'static str {
        use AreaKind::*;
        match self {
            GentleHill => "gentle hill",
            DifficultHill => "difficult hill",
            Wood => "wood",
            Marsh => "marsh",
            Gully => "gully",
            Dunes => "dunes",
            Oasis => "oasis",
            Rocky => "rocky ground",
            Scrub => "scrub",
            Boggy => "boggy ground",
            Enclosures => "enclosures",
            Plough => "plough",
            Hamlet => "hamlet",
            Edifice => "edifice",
            City => "City",
            Fort => "Fort",
        }
    }

    /// A built-up area (§4.1).
    pub fn is_bua(self) -> bool {
        matches!(
            self,
            AreaKind::City | AreaKind::Fort | AreaKind::Hamlet | AreaKind::Edifice
        )
    }

    /// A hill of either kind: it has a crest line (§3.3).
    pub fn is_hill(self) -> bool {
        matches!(self, AreaKind::GentleHill | AreaKind::DifficultHill)
    }

    /// City or Fort: walled BUAs (§4.2–4.3).
    pub fn is_fortified(self) -> bool {
        matches!(self, AreaKind::City | AreaKind::Fort)
    }

    /// May have a straight-edged outline (§3.2: only BUAs and Plough).
    pub fn may_be_straight_edged(self) -> bool {
        self.is_bua() || self == AreaKind::Plough
    }

    /// The feature type this kind counts as in the §3.7 lists and maxima (all BUAs are one type).
    pub fn feature_type(self) -> FeatureType {
        use AreaKind::*;
        match self {
            GentleHill => FeatureType::GentleHill,
            DifficultHill => FeatureType::DifficultHill,
            Wood => FeatureType::Wood,
            Marsh => FeatureType::Marsh,
            Gully => FeatureType::Gully,
            Dunes => FeatureType::Dunes,
            Oasis => FeatureType::Oasis,
            Rocky => FeatureType::Rocky,
            Scrub => FeatureType::Scrub,
            Boggy => FeatureType::Boggy,
            Enclosures => FeatureType::Enclosures,
            Plough => FeatureType::Plough,
            Hamlet | Edifice | City | Fort => FeatureType::Bua,
        }
    }
}

/// An area feature: a polygon outline plus what its kind needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AreaFeature {
    /// What the feature is, which decides its going and its rules.
    pub kind: AreaKind,
    /// The outline, in board coordinates (curves approximated by many vertices).
    pub outline: Polygon,
    /// The outline is meant as straight-edged (allowed only for BUAs and Plough, §3.2).
    pub straight_edged: bool,
    /// Hills only: the crest line (a polyline inside the outline) to which the hill rises (§3.3).
    #[serde(default)]
    pub crest: Vec<Point>,
    /// City (1 or 2) and Fort (1): gate positions on the outline (§4.2–4.3).
    #[serde(default)]
    pub gates: Vec<Point>,
}

impl AreaFeature {
    /// A feature with a natural (curved) outline and no crest or gates.
    pub fn new(kind: AreaKind, outline: Polygon) -> Self {
        AreaFeature {
            kind,
            outline,
            straight_edged: false,
            crest: Vec::new(),
            gates: Vec::new(),
        }
    }

    /// A natural outline approximated by a polygon of `n` vertices (at least 8) round an ellipse
    /// centred at `centre` with semi-axes `rx` and `ry`, the `rx` axis turned `rotation_deg`
    /// anticlockwise from +x. Hills get a crest along their long axis.
    pub fn ellipse(
        kind: AreaKind,
        centre: Point,
        rx: f64,
        ry: f64,
        rotation_deg: f64,
        n: usize,
    ) -> Self {
        let offsets = AreaFeature::ellipse_offsets(rx, ry, rotation_deg, n);
        AreaFeature::ellipse_at(kind, centre, &offsets, rx, rotation_deg)
    }

    /// The vertices of [`AreaFeature::ellipse`] less its centre: the same for every centre, so
    /// that a caller placing one shape at many centres (the placement search) works out the
    /// sines and cosines once (#15).
    pub(crate) fn ellipse_offsets(rx: f64, ry: f64, rotation_deg: f64, n: usize) -> Vec<Point> {
        let n = n.max(8);
        // Vertices sit just outside the ellipse so that the polygon's edges touch it from outside:
        // the polygon is never narrower than the ellipse it stands for.
        let k = 1.0 / (std::f64::consts::PI / n as f64).cos();
        (0..n)
            .map(|i| {
                let t = std::f64::consts::TAU * (i as f64) / (n as f64);
                let local = Point::new(rx * k * t.cos(), ry * k * t.sin());
                local.rotated_cw(-rotation_deg)
            })
            .collect()
    }

    /// [`AreaFeature::ellipse`] at `centre` from its [`AreaFeature::ellipse_offsets`]: the same
    /// feature to the bit.
    pub(crate) fn ellipse_at(
        kind: AreaKind,
        centre: Point,
        offsets: &[Point],
        rx: f64,
        rotation_deg: f64,
    ) -> Self {
        let points = offsets.iter().map(|&o| centre + o).collect();
        let mut f = AreaFeature::new(kind, Polygon::new(points));
        if kind.is_hill() {
            let axis = Point::new(1.0, 0.0).rotated_cw(-rotation_deg);
            let half = rx * 0.6;
            f.crest = vec![centre - axis * half, centre + axis * half];
        }
        f
    }

    /// A straight-edged rectangle (for BUAs and Plough), axis-aligned from `lo` to `hi`.
    pub fn rectangle(kind: AreaKind, lo: Point, hi: Point) -> Self {
        let mut f = AreaFeature::new(
            kind,
            Polygon::new(vec![lo, Point::new(hi.x, lo.y), hi, Point::new(lo.x, hi.y)]),
        );
        f.straight_edged = true;
        f
    }

    /// Going inside, §3.1 (`None` for City/Fort).
    pub fn going(&self, ctx: GoingContext) -> Option<Going> {
        self.kind.going(ctx)
    }
}

// ---------------------------------------------------------------------------------------------
// Linear features
// ---------------------------------------------------------------------------------------------

/// A river's state, fixed by one die at the first off-road crossing attempt (§3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RiverState {
    /// 1–2: crossed as good going; no bank defence.
    Paltry,
    /// 3–4: crossing move limited to 1 BW; bank defence counts.
    Slows,
    /// 5–6: as `Slows`, and only single elements or columns may cross.
    SlowsNarrow,
}

impl RiverState {
    /// The state for a die score (§3.5).
    pub fn from_die(score: u8) -> Result<RiverState, TerrainError> {
        match score {
            1 | 2 => Ok(RiverState::Paltry),
            3 | 4 => Ok(RiverState::Slows),
            5 | 6 => Ok(RiverState::SlowsNarrow),
            _ => Err(TerrainError::BadDie(score)),
        }
    }
}

/// Errors from terrain constructors.
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TerrainError {
    /// A die is a d6 (§0.3).
    #[error("§0.3: a die scores 1 to 6, not {0}")]
    BadDie(u8),
}

/// A river: a centre line and a width (§3.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct River {
    /// Centre line, from one end to the other.
    pub course: Vec<Point>,
    /// Width in BW (at most 1, §3.5).
    pub width: f64,
    /// Unknown (`None`) until the first off-road crossing attempt (§3.5).
    pub state: Option<RiverState>,
}

/// Paved road or earth track (§3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RoadSurface {
    /// A paved road.
    Paved,
    /// An earth track.
    Track,
}

/// A road: a centre line, drawn less than 1 BW wide (§3.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Road {
    /// The centre line, BW, from one battlefield edge to another (§3.6).
    pub path: Vec<Point>,
    /// Paved or track.
    pub surface: RoadSurface,
    /// Drawn width in BW (less than 1).
    pub width: f64,
}

/// A waterway: a band along one whole battlefield edge (§3.4).
///
/// The shore is given as depths (distance inward from the edge, BW) at evenly spaced stations along
/// the edge, first station at the edge's start (west end for South/North, south end for
/// West/East), joined by straight lines; at least two stations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Waterway {
    /// The battlefield edge it lies along.
    pub edge: BoardEdge,
    /// The shore's distance inward from the edge, BW, at evenly spaced stations along it (see
    /// above).
    pub depths: Vec<f64>,
    /// Width of the beach or flood plain inland of the shore (0..=2 BW, good going, §3.4).
    #[serde(default)]
    pub beach: f64,
}

impl Waterway {
    /// A waterway of constant depth.
    pub fn uniform(edge: BoardEdge, depth: f64, beach: f64) -> Self {
        Waterway {
            edge,
            depths: vec![depth, depth],
            beach,
        }
    }

    /// Depth at fraction `t` (0..=1) along the edge.
    pub fn depth_at(&self, t: f64) -> f64 {
        let n = self.depths.len();
        match n {
            0 => 0.0,
            1 => self.depths[0],
            _ => {
                let x = t.clamp(0.0, 1.0) * (n - 1) as f64;
                let i = (x.floor() as usize).min(n - 2);
                let f = x - i as f64;
                self.depths[i] * (1.0 - f) + self.depths[i + 1] * f
            }
        }
    }

    fn band(&self, board: &Board, extra: f64) -> Polygon {
        let (a, b) = board.edge_segment(self.edge);
        let inward = board.inward(self.edge);
        let n = (self.depths.len().max(2) - 1) * 8;
        // Room for every point at once (#15: grown one push at a time, it was reallocated five
        // times or so for every going a mover beside the water was asked).
        let mut pts = Vec::with_capacity(n + 3);
        pts.push(a);
        for i in 0..=n {
            let t = i as f64 / n as f64;
            let on_edge = a + (b - a) * t;
            pts.push(on_edge + inward * (self.depth_at(t) + extra));
        }
        pts.push(b);
        Polygon::new(pts)
    }

    /// A box holding [`Waterway::water_polygon`] (min x, min y, max x, max y): the board's edge
    /// along its length, and from the least to the greatest depth inward (and the edge's line
    /// itself). `None` when a depth or the board is not finite. Pure speed (#15): a shape whose
    /// box is clear of it does not meet the water, and the band need not be built to say so.
    pub(crate) fn water_bounds(&self, board: &Board) -> Option<(f64, f64, f64, f64)> {
        let (lo, hi) = self
            .depths
            .iter()
            .fold((0.0f64, 0.0f64), |(lo, hi), &d| (lo.min(d), hi.max(d)));
        let finite = self.depths.iter().all(|d| d.is_finite())
            && board.width.is_finite()
            && board.depth.is_finite();
        if !finite {
            return None;
        }
        let (w, d) = (board.width, board.depth);
        Some(match self.edge {
            BoardEdge::South => (0.0, lo, w, hi),
            BoardEdge::North => (0.0, d - hi, w, d - lo),
            BoardEdge::West => (lo, 0.0, hi, d),
            BoardEdge::East => (w - hi, 0.0, w - lo, d),
        })
    }

    /// The water itself (impassable).
    pub fn water_polygon(&self, board: &Board) -> Polygon {
        self.band(board, 0.0)
    }

    /// Water plus beach.
    pub fn with_beach_polygon(&self, board: &Board) -> Polygon {
        self.band(board, self.beach)
    }
}

/// Any terrain feature on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TerrainFeature {
    /// A hill, wood, marsh, built-up area or other feature with an outline.
    Area(AreaFeature),
    /// A river (§3.5).
    River(River),
    /// A road (§3.6).
    Road(Road),
    /// A waterway along one edge (§3.4).
    Waterway(Waterway),
}

impl TerrainFeature {
    /// The §3.7 feature type.
    pub fn feature_type(&self) -> FeatureType {
        match self {
            TerrainFeature::Area(a) => a.kind.feature_type(),
            TerrainFeature::River(_) => FeatureType::River,
            TerrainFeature::Road(_) => FeatureType::Road,
            TerrainFeature::Waterway(_) => FeatureType::Waterway,
        }
    }
}

#[cfg(test)]
mod water_bounds_tests {
    use super::*;
    use crate::geometry::unit_stream;

    // DBA3.md §3.4 (a waterway is impassable): the box a move's going is pre-tested against holds
    // every point of the water's band, along every edge, for shores of any shape, on boards of
    // every size; with a depth not finite there is no box, and the band is met as before.
    #[test]
    fn water_bounds_hold_the_band() {
        let mut next = unit_stream(0x2545_f491_4f6c_dd1d);
        let mut u = move |scale: f64| next() * scale;
        for _ in 0..2_000 {
            let board = Board {
                width: 8.0 + u(40.0),
                depth: 8.0 + u(40.0),
            };
            let edge = [
                BoardEdge::South,
                BoardEdge::North,
                BoardEdge::West,
                BoardEdge::East,
            ][(u(4.0) as usize).min(3)];
            let stations = (u(6.0) as usize).min(5);
            let w = Waterway {
                edge,
                depths: (0..stations).map(|_| u(4.0) - 0.5).collect(),
                beach: u(2.0),
            };
            let (x0, y0, x1, y1) = w.water_bounds(&board).expect("finite");
            for p in w.water_polygon(&board).points {
                assert!(
                    p.x >= x0 - 1e-9 && p.x <= x1 + 1e-9 && p.y >= y0 - 1e-9 && p.y <= y1 + 1e-9,
                    "{p:?} outside {:?} for {w:?}",
                    (x0, y0, x1, y1)
                );
            }
        }
        let board = Board {
            width: 12.0,
            depth: 12.0,
        };
        let mut w = Waterway::uniform(BoardEdge::South, 1.0, 0.5);
        w.depths[1] = f64::NAN;
        assert_eq!(w.water_bounds(&board), None);
    }
}
