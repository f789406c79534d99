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

use crate::battlefield::{Battlefield, Board, BoardEdge, Quarter, Variant};
use crate::geometry::{finite_bounds, ElementRect, Point, Polygon, Segment, TOLERANCE};
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod bearings;

// ---------------------------------------------------------------------------------------------
// Going
// ---------------------------------------------------------------------------------------------

/// The going classes of §3.1, ordered from best to worst so that "the worst of them" (§3.1: an
/// element partly in several goings counts as wholly in the worst) is simply the maximum.
///
/// `Impassable` is the waterway (§3.4). Rivers are none of these (§0.3, §3.5) and are reported by
/// their own queries.
///
/// A combatant's going ([`crate::combat::Going`]) is this without `Impassable`; take it with
/// [`crate::combat::Going::from_terrain`].
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

// ---------------------------------------------------------------------------------------------
// Feature types and home terrain (§3.7)
// ---------------------------------------------------------------------------------------------

/// A feature type as counted by §3.7 (every BUA kind counts as `Bua`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FeatureType {
    /// Any built-up area: hamlet, Edifice, City or Fort (§4.1).
    Bua,
    /// A gentle hill.
    GentleHill,
    /// A difficult hill.
    DifficultHill,
    /// A wood.
    Wood,
    /// A marsh.
    Marsh,
    /// A gully.
    Gully,
    /// Dunes.
    Dunes,
    /// An oasis.
    Oasis,
    /// Rocky ground.
    Rocky,
    /// Scrub.
    Scrub,
    /// Boggy ground.
    Boggy,
    /// Enclosures.
    Enclosures,
    /// Plough.
    Plough,
    /// A river.
    River,
    /// A road.
    Road,
    /// A waterway.
    Waterway,
}

/// The feature type as players name it: "BUA", "gentle hill", "rocky ground", "river".
impl std::fmt::Display for FeatureType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use FeatureType::*;
        f.write_str(match self {
            Bua => "BUA",
            GentleHill => AreaKind::GentleHill.game_name(),
            DifficultHill => AreaKind::DifficultHill.game_name(),
            Wood => AreaKind::Wood.game_name(),
            Marsh => AreaKind::Marsh.game_name(),
            Gully => AreaKind::Gully.game_name(),
            Dunes => AreaKind::Dunes.game_name(),
            Oasis => AreaKind::Oasis.game_name(),
            Rocky => AreaKind::Rocky.game_name(),
            Scrub => AreaKind::Scrub.game_name(),
            Boggy => AreaKind::Boggy.game_name(),
            Enclosures => AreaKind::Enclosures.game_name(),
            Plough => AreaKind::Plough.game_name(),
            River => "river",
            Road => "road",
            Waterway => "waterway",
        })
    }
}

/// Items of a list for a message, joined by commas: "wood, river".
pub(crate) fn listed<T: std::fmt::Display>(items: &[T]) -> String {
    if items.is_empty() {
        return "none".to_string();
    }
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Per-variant counts of §3.7, §14.2, §14.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TerrainLimits {
    /// Compulsory features the defender picks: (min, max).
    pub compulsory: (u8, u8),
    /// Optional features: (min, max).
    pub optional: (u8, u8),
    /// At most this many of Waterway, River, Oasis, Gully, BUA.
    pub max_single: u8,
    /// At most this many roads.
    pub max_roads: u8,
    /// At most this many of any other type.
    pub max_other: u8,
}

impl TerrainLimits {
    /// §3.7 (standard), §14.2 (BBDBA: same maxima), §14.6 (Giant: at most 4 of a type). For Giant
    /// we read "at most 4 of one type" as raising only the general limit of 3: the one-only types
    /// and the two roads keep their limits (they describe one coast, one river, one town).
    pub fn for_variant(v: Variant) -> TerrainLimits {
        match v {
            // DBAix keeps its own table (dbaix::DbaixSetup); DBA terrain limits as standard.
            Variant::Standard | Variant::Dbaix => TerrainLimits {
                compulsory: (1, 2),
                optional: (2, 3),
                max_single: 1,
                max_roads: 2,
                max_other: 3,
            },
            Variant::BigBattle => TerrainLimits {
                compulsory: (1, 3),
                optional: (2, 4),
                max_single: 1,
                max_roads: 2,
                max_other: 3,
            },
            Variant::Giant => TerrainLimits {
                compulsory: (1, 4),
                optional: (3, 6),
                max_single: 1,
                max_roads: 2,
                max_other: 4,
            },
        }
    }

    /// The maximum number of features of type `t`.
    pub fn max_of(&self, t: FeatureType) -> u8 {
        match t {
            FeatureType::Waterway
            | FeatureType::River
            | FeatureType::Oasis
            | FeatureType::Gully
            | FeatureType::Bua => self.max_single,
            FeatureType::Road => self.max_roads,
            _ => self.max_other,
        }
    }
}

/// An army's home terrain (§3.7, §16.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HomeTerrain {
    /// Arable: farmland, the commonest home terrain.
    Arable,
    /// Forest.
    Forest,
    /// Hilly.
    Hilly,
    /// Steppe.
    Steppe,
    /// Dry.
    Dry,
    /// Tropical.
    Tropical,
    /// Littoral: the army may come by sea, and the table has a waterway (§3.4, §5.5).
    Littoral,
}

/// The home terrain as players name it: "arable", "littoral".
impl std::fmt::Display for HomeTerrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HomeTerrain::Arable => "arable",
            HomeTerrain::Forest => "forest",
            HomeTerrain::Hilly => "hilly",
            HomeTerrain::Steppe => "steppe",
            HomeTerrain::Dry => "dry",
            HomeTerrain::Tropical => "tropical",
            HomeTerrain::Littoral => "littoral",
        })
    }
}

/// The feature kind by its game name ([`AreaKind::game_name`]).
impl std::fmt::Display for AreaKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.game_name())
    }
}

/// One way to satisfy the compulsory choice: between `min` and `max` features, each of one of
/// `types` (e.g. "1–2 Rocky or Scrub").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CompulsoryOption {
    /// The feature types any of which count towards the option.
    pub types: Vec<FeatureType>,
    /// The fewest features of those types.
    pub min: u8,
    /// The most features of those types.
    pub max: u8,
}

/// A home terrain's §3.7 row as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HomeTerrainList {
    /// The home terrain.
    pub terrain: HomeTerrain,
    /// The compulsory features must match one of these options.
    pub compulsory: Vec<CompulsoryOption>,
    /// Types allowed as optional features.
    pub optional: Vec<FeatureType>,
    /// Pairs of optional types of which at most one may be chosen ("Difficult hills **or** Marsh").
    pub exclusive_pairs: Vec<(FeatureType, FeatureType)>,
}

impl HomeTerrain {
    /// Every home terrain, in declaration order.
    pub const ALL: [HomeTerrain; 7] = [
        HomeTerrain::Arable,
        HomeTerrain::Forest,
        HomeTerrain::Hilly,
        HomeTerrain::Steppe,
        HomeTerrain::Dry,
        HomeTerrain::Tropical,
        HomeTerrain::Littoral,
    ];

    /// The §3.7 row. "Extra X" in the optional column is read as "X is allowed as optional".
    pub fn list(self) -> HomeTerrainList {
        use FeatureType as F;
        let opt = |types: &[F], min, max| CompulsoryOption {
            types: types.to_vec(),
            min,
            max,
        };
        let (compulsory, optional, exclusive_pairs) = match self {
            HomeTerrain::Arable => (
                vec![opt(&[F::Bua], 1, 1), opt(&[F::Plough], 2, 2)],
                vec![
                    F::River,
                    F::DifficultHill,
                    F::GentleHill,
                    F::Wood,
                    F::Plough,
                    F::Enclosures,
                    F::Road,
                    F::Waterway,
                    F::Scrub,
                    F::Boggy,
                ],
                vec![],
            ),
            HomeTerrain::Forest => (
                vec![opt(&[F::Wood], 1, 2)],
                vec![F::River, F::Marsh, F::GentleHill, F::Wood, F::Bua],
                vec![],
            ),
            HomeTerrain::Hilly => (
                vec![opt(&[F::DifficultHill], 1, 2)],
                vec![F::River, F::Wood, F::Bua, F::Road, F::DifficultHill],
                vec![],
            ),
            HomeTerrain::Steppe => (
                vec![opt(&[F::GentleHill], 1, 2)],
                vec![F::River, F::Rocky, F::Scrub, F::Gully, F::Bua],
                vec![],
            ),
            HomeTerrain::Dry => (
                vec![opt(&[F::Rocky, F::Scrub], 1, 2)],
                vec![F::Dunes, F::DifficultHill, F::Oasis, F::Bua],
                vec![],
            ),
            HomeTerrain::Tropical => (
                vec![opt(&[F::Wood], 1, 2)],
                vec![
                    F::River,
                    F::Marsh,
                    F::Gully,
                    F::Bua,
                    F::Enclosures,
                    F::Road,
                    F::Wood,
                ],
                vec![],
            ),
            HomeTerrain::Littoral => (
                vec![opt(&[F::Waterway], 1, 1)],
                vec![
                    F::DifficultHill,
                    F::Marsh,
                    F::Wood,
                    F::Dunes,
                    F::Bua,
                    F::Road,
                    F::River,
                ],
                vec![(F::DifficultHill, F::Marsh), (F::Wood, F::Dunes)],
            ),
        };
        HomeTerrainList {
            terrain: self,
            compulsory,
            optional,
            exclusive_pairs,
        }
    }
}

/// A problem with the defender's choice of features from its home terrain (§3.7).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum HomeTerrainProblem {
    /// Too few or too many compulsory features for the variant (§3.7).
    #[error("§3.7: {count} compulsory features chosen, the variant allows {min} to {max}")]
    CompulsoryCount {
        /// Compulsory features chosen.
        count: usize,
        /// The fewest allowed.
        min: u8,
        /// The most allowed.
        max: u8,
    },
    /// The compulsory features chosen match none of the home terrain's options (§3.7).
    #[error("§3.7: the compulsory features chosen ({}) match no compulsory option of {terrain} home terrain", listed(.chosen))]
    CompulsoryMismatch {
        /// The defender's home terrain.
        terrain: HomeTerrain,
        /// The compulsory features chosen.
        chosen: Vec<FeatureType>,
    },
    /// Too few or too many optional features for the variant (§3.7).
    #[error("§3.7: {count} optional features chosen, the variant allows {min} to {max}")]
    OptionalCount {
        /// Optional features chosen.
        count: usize,
        /// The fewest allowed.
        min: u8,
        /// The most allowed.
        max: u8,
    },
    /// An optional feature the home terrain does not allow (§3.7).
    #[error("§3.7: {feature} is not an optional feature of {terrain} home terrain")]
    NotOptional {
        /// The defender's home terrain.
        terrain: HomeTerrain,
        /// The feature refused.
        feature: FeatureType,
    },
    /// Both features of a pair the home terrain allows only one of (§3.7).
    #[error("§3.7: {terrain} home terrain allows {a} or {b} as optional features, not both")]
    BothOfPair {
        /// The defender's home terrain.
        terrain: HomeTerrain,
        /// One of the pair.
        a: FeatureType,
        /// The other.
        b: FeatureType,
    },
    /// More features of one type than §3.7 allows.
    #[error("§3.7: {count} features of type {feature}, at most {max} allowed")]
    TooMany {
        /// The feature type.
        feature: FeatureType,
        /// Features of that type chosen.
        count: usize,
        /// The most allowed.
        max: u8,
    },
}

impl HomeTerrainProblem {
    /// The digest section the problem breaks.
    pub fn rule(&self) -> &'static str {
        "§3.7"
    }
}

/// Check the defender's chosen compulsory and optional features against its home terrain and the
/// variant's counts (§3.7, §14.2, §14.6). Every problem is reported.
///
/// For BBDBA and Giant, ranged compulsory options ("1–2 Woods") may stretch up to the variant's
/// compulsory maximum; fixed ones ("1 BUA", "2 Plough", "1 Waterway") stay as written.
pub fn check_home_terrain(
    terrain: HomeTerrain,
    variant: Variant,
    compulsory: &[FeatureType],
    optional: &[FeatureType],
) -> Vec<HomeTerrainProblem> {
    let limits = TerrainLimits::for_variant(variant);
    let list = terrain.list();
    let mut problems = Vec::new();
    let (cmin, cmax) = limits.compulsory;
    if compulsory.len() < cmin as usize || compulsory.len() > cmax as usize {
        problems.push(HomeTerrainProblem::CompulsoryCount {
            count: compulsory.len(),
            min: cmin,
            max: cmax,
        });
    }
    let matches = list.compulsory.iter().any(|o| {
        let max = if o.min == o.max {
            o.max
        } else {
            o.max.max(cmax)
        };
        compulsory.iter().all(|t| o.types.contains(t))
            && compulsory.len() >= o.min as usize
            && compulsory.len() <= max as usize
    });
    if !matches {
        problems.push(HomeTerrainProblem::CompulsoryMismatch {
            terrain,
            chosen: compulsory.to_vec(),
        });
    }
    let (omin, omax) = limits.optional;
    if optional.len() < omin as usize || optional.len() > omax as usize {
        problems.push(HomeTerrainProblem::OptionalCount {
            count: optional.len(),
            min: omin,
            max: omax,
        });
    }
    let mut seen = Vec::new();
    for &t in optional {
        if !list.optional.contains(&t) && !seen.contains(&t) {
            problems.push(HomeTerrainProblem::NotOptional {
                terrain,
                feature: t,
            });
        }
        seen.push(t);
    }
    for &(a, b) in &list.exclusive_pairs {
        if optional.contains(&a) && optional.contains(&b) {
            problems.push(HomeTerrainProblem::BothOfPair { terrain, a, b });
        }
    }
    let mut all: Vec<FeatureType> = compulsory.iter().chain(optional).copied().collect();
    all.sort();
    let mut i = 0;
    while i < all.len() {
        let t = all[i];
        let count = all[i..].iter().take_while(|&&u| u == t).count();
        if count > limits.max_of(t) as usize {
            problems.push(HomeTerrainProblem::TooMany {
                feature: t,
                count,
                max: limits.max_of(t),
            });
        }
        i += count;
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// Shape helpers (pure geometry used by terrain rules)
// ---------------------------------------------------------------------------------------------

/// Total length of a polyline.
pub fn polyline_length(pts: &[Point]) -> f64 {
    pts.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The segments of an open polyline.
pub fn polyline_segments(pts: &[Point]) -> impl Iterator<Item = Segment> + '_ {
    pts.windows(2).map(|w| Segment::new(w[0], w[1]))
}

/// Least distance from `p` to an open polyline (infinite when it has no points).
pub fn polyline_distance_to_point(pts: &[Point], p: Point) -> f64 {
    if pts.len() == 1 {
        return pts[0].distance(p);
    }
    polyline_segments(pts)
        .map(|s| s.distance_to_point(p))
        .fold(f64::INFINITY, f64::min)
}

/// Least distance from a segment to an open polyline.
pub fn polyline_distance_to_segment(pts: &[Point], s: &Segment) -> f64 {
    if pts.len() == 1 {
        return s.distance_to_point(pts[0]);
    }
    polyline_segments(pts)
        .map(|t| t.distance_to_segment(s))
        .fold(f64::INFINITY, f64::min)
}

/// Least distance from a polygon (boundary or interior) to an open polyline.
pub fn polyline_distance_to_polygon(pts: &[Point], poly: &Polygon) -> f64 {
    if pts.iter().any(|&p| poly.contains_strictly(p)) {
        return 0.0;
    }
    poly.edges()
        .map(|e| polyline_distance_to_segment(pts, &e))
        .fold(f64::INFINITY, f64::min)
}

/// The bounding box of `pts` as (min, max), the same box as [`Polygon::bounds`] (infinite and
/// inverted for no points; a NaN coordinate is passed over, as `f64::min` passes it over). Pure
/// speed (#15): one comparison per coordinate instead of the NaN-aware `f64::min`, which cost
/// most of a 20-gon's box; the two differ at most in the sign of a zero bound, and every caller
/// only compares the bounds or adds to them, where a zero's sign changes nothing.
pub(crate) fn points_bounds(pts: &[Point]) -> (Point, Point) {
    bounds_and_finite(pts).0
}

/// An outline's box (least and greatest corner) and whether every coordinate of it is finite:
/// what the going and uphill questions test first, and what a table's memo keeps (#15).
pub(crate) type OutlineBox = ((Point, Point), bool);

/// The [`OutlineBox`] of `outline`: [`points_bounds`] of its points and their finiteness.
pub(crate) fn outline_box(outline: &Polygon) -> OutlineBox {
    bounds_and_finite(&outline.points)
}

/// [`points_bounds`], and whether every coordinate of `pts` is finite, in the same pass (#15:
/// the separate pass over a 20-gon cost twice its box). `p · 0` is a zero for a finite
/// coordinate and a NaN for an infinite or NaN one, and a NaN stays in the sum, so the sum is 0
/// exactly when every coordinate is finite.
fn bounds_and_finite(pts: &[Point]) -> ((Point, Point), bool) {
    let mut lo = Point::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut zero = Point::new(0.0, 0.0);
    for &p in pts {
        lo.x = lesser(lo.x, p.x);
        lo.y = lesser(lo.y, p.y);
        hi.x = greater(hi.x, p.x);
        hi.y = greater(hi.y, p.y);
        zero = zero + p * 0.0;
    }
    ((lo, hi), zero.x == 0.0 && zero.y == 0.0)
}

/// `a.min(b)` for an `a` that is not a NaN, by one comparison (#15): `a` for a NaN `b`, as
/// `f64::min` gives; of two zeros either may come back, as with `f64::min`.
#[inline]
fn lesser(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// `a.max(b)` for an `a` that is not a NaN, by one comparison (#15), as [`lesser`].
#[inline]
fn greater(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Bounding boxes apart by more than any rounding of the exact tests of
/// [`polygons_intersect`]: no point of one is strictly inside the other and no edges cross.
fn boxes_apart((alo, ahi): (Point, Point), (blo, bhi): (Point, Point)) -> bool {
    const APART: f64 = 1e-9;
    ahi.x + APART < blo.x || bhi.x + APART < alo.x || ahi.y + APART < blo.y || bhi.y + APART < alo.y
}

/// Two polygons share at least one point (touching included).
pub fn polygons_intersect(a: &Polygon, b: &Polygon) -> bool {
    if a.points.is_empty() || b.points.is_empty() {
        return false;
    }
    // Bounding boxes apart: the answer is already known. Pure speed (swept paths against 20-gon
    // woods and hills, most of them far away). Only finite outlines are pre-tested (a NaN is
    // skipped by the box), so others are decided by the exact tests as before.
    let ((ab, a_finite), (bb, b_finite)) =
        (bounds_and_finite(&a.points), bounds_and_finite(&b.points));
    if boxes_apart(ab, bb) && a_finite && b_finite {
        return false;
    }
    polygons_intersect_near(a, b, ab, bb, a_finite && b_finite)
}

/// The exact tests of [`polygons_intersect`] for two outlines with points, given their boxes and
/// whether both are finite.
fn polygons_intersect_near(
    a: &Polygon,
    b: &Polygon,
    (alo, ahi): (Point, Point),
    (blo, bhi): (Point, Point),
    finite: bool,
) -> bool {
    let inside = a.points.iter().any(|&p| b.contains_strictly(p))
        || b.points.iter().any(|&p| a.contains_strictly(p));
    if inside {
        return true;
    }
    if !finite {
        return a.edges().any(|e| b.edges().any(|f| e.intersects(&f)));
    }
    // Pure speed: two edges whose boxes are apart by more than `margin` do not cross, and
    // `Segment::intersects` never says they do: its rounding moves a crossing by about a
    // millionth of the coordinates' size, and `margin` is a thousandth of it (plus a thousandth
    // of a BW). So only edges with boxes that close are tested exactly; the answer is the same.
    // Every coordinate is finite here, so `lesser` and `greater` are the edges' true bounds.
    let size = [alo.x, alo.y, ahi.x, ahi.y, blo.x, blo.y, bhi.x, bhi.y]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let margin = 1e-3 * (1.0 + size);
    let apart = |e: &Segment, lo: Point, hi: Point| {
        greater(e.a.x, e.b.x) + margin < lo.x
            || hi.x + margin < lesser(e.a.x, e.b.x)
            || greater(e.a.y, e.b.y) + margin < lo.y
            || hi.y + margin < lesser(e.a.y, e.b.y)
    };
    a.edges().any(|e| {
        !apart(&e, blo, bhi)
            && b.edges().any(|f| {
                let (lo, hi) = (
                    Point::new(lesser(f.a.x, f.b.x), lesser(f.a.y, f.b.y)),
                    Point::new(greater(f.a.x, f.b.x), greater(f.a.y, f.b.y)),
                );
                !apart(&e, lo, hi) && e.intersects(&f)
            })
    })
}

/// An element's shrunk rectangle ([`inset_rect`]) with its box, for testing it against many
/// outlines: the box is worked out once, and the polygon only for an outline whose box comes
/// near (#15: most features are far from any one element, and then nothing is allocated).
pub(crate) struct InsetRect {
    corners: [Point; 4],
    bounds: (Point, Point),
    finite: bool,
    polygon: Option<Polygon>,
}

impl InsetRect {
    pub(crate) fn new(r: &ElementRect) -> InsetRect {
        let corners = inset_corners(r);
        let (bounds, finite) = bounds_and_finite(&corners);
        InsetRect {
            corners,
            bounds,
            finite,
            polygon: None,
        }
    }

    /// `polygons_intersect(&inset_rect(r), outline)`, the same answer.
    pub(crate) fn meets(&mut self, outline: &Polygon) -> bool {
        self.meets_boxed(outline, || outline_box(outline))
    }

    /// [`Self::meets`] with the outline's [`outline_box`] given by `boxed` (kept from an
    /// earlier question, #15), the same answer when it is that box.
    pub(crate) fn meets_boxed(
        &mut self,
        outline: &Polygon,
        boxed: impl FnOnce() -> OutlineBox,
    ) -> bool {
        if outline.points.is_empty() {
            return false;
        }
        let (ob, finite) = boxed();
        let finite = finite && self.finite;
        if boxes_apart(self.bounds, ob) && finite {
            return false;
        }
        let corners = self.corners;
        let poly = self
            .polygon
            .get_or_insert_with(|| Polygon::new(corners.to_vec()));
        polygons_intersect_near(poly, outline, self.bounds, ob, finite)
    }
}

/// The element's rectangle shrunk by [`TOLERANCE`] on every side: an element merely touching a
/// feature's edge is not "in" it (§3.1 "partly in"), only one reaching over it is.
pub fn inset_rect(r: &ElementRect) -> Polygon {
    Polygon::new(inset_corners(r).to_vec())
}

/// The corners of [`inset_rect`], in the order of [`ElementRect::corners`]: those of the
/// rectangle `ElementRect::new(Pose::new(front.x, front.y, facing), width - 2t, depth - 2t)`,
/// worked out as [`ElementRect::corner`] does, with the one facing vector both need (#15: the
/// sine and cosine were half the cost of a shrunk rectangle).
fn inset_corners(r: &ElementRect) -> [Point; 4] {
    let t = TOLERANCE.min(r.width * 0.25).min(r.depth * 0.25);
    let f = r.pose.forward();
    let front = r.pose.front_mid() - f * t;
    let (width, depth) = (r.width - 2.0 * t, r.depth - 2.0 * t);
    let right = f.right();
    let hw = width * 0.5;
    [
        front - right * hw,
        front + right * hw,
        front + right * hw - f * depth,
        front - right * hw - f * depth,
    ]
}

/// Length of the part of segment `s` that lies inside polygon `poly`.
pub fn length_inside(s: &Segment, poly: &Polygon) -> f64 {
    let len = s.length();
    if len == 0.0 || poly.points.len() < 3 {
        return 0.0;
    }
    let d = s.b - s.a;
    let mut ts = vec![0.0, 1.0];
    for e in poly.edges() {
        ts.extend(edge_crossing(s.a, d, e.a, e.b - e.a));
    }
    inside_between(&mut ts, s.a, d, len, |p| poly.contains_strictly(p))
}

/// Where the segment from `from` along `d` crosses the edge from `a` along `f`, as a fraction
/// of the segment (0 to 1), or `None` where they are parallel or miss each other. Where along
/// the edge (`u`) is worked out first, with a sliver of slack at its ends so that a crossing at
/// a vertex is not lost; it refuses most edges, and the segment's fraction `t` is then not
/// needed. [`length_inside`] and the tabled sections of [`measure`] share it, so they find the
/// same crossings to the bit.
#[inline(always)]
fn edge_crossing(from: Point, d: Point, a: Point, f: Point) -> Option<f64> {
    let den = d.cross(f);
    if den.abs() < 1e-15 {
        return None;
    }
    let w = a - from;
    let u = w.cross(d) / den;
    if !(-1e-12..=1.0 + 1e-12).contains(&u) {
        return None;
    }
    let t = w.cross(f) / den;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// The length inside a polygon of the segment from `a` along `d` (of length `len`), given where
/// along it (`ts`, 0 to 1, its ends included) it crosses the polygon's edges: each stretch
/// between two crossings is inside or out as its midpoint is (`contains`). Sorts `ts`.
/// [`length_inside`] and the tabled sections of [`measure`] share it, so both add the same
/// stretches in the same order.
fn inside_between(
    ts: &mut [f64],
    a: Point,
    d: Point,
    len: f64,
    contains: impl Fn(Point) -> bool,
) -> f64 {
    sort_crossings(ts);
    let mut inside = 0.0;
    for w in ts.windows(2) {
        if w[1] - w[0] <= 0.0 {
            continue;
        }
        let mid = a + d * ((w[0] + w[1]) * 0.5);
        if contains(mid) {
            inside += (w[1] - w[0]) * len;
        }
    }
    inside
}

/// `ts` sorted by [`f64::total_cmp`]: by insertion when short (a section has a few crossings),
/// which saves the general sort's set-up (#15). A total order leaves one sorted arrangement
/// (values it holds equal have the same bits), so any sort by it gives the same slice.
fn sort_crossings(ts: &mut [f64]) {
    if ts.len() > 16 {
        ts.sort_by(|x, y| x.total_cmp(y));
        return;
    }
    for i in 1..ts.len() {
        let x = ts[i];
        let mut j = i;
        while j > 0 && ts[j - 1].total_cmp(&x).is_gt() {
            ts[j] = ts[j - 1];
            j -= 1;
        }
        ts[j] = x;
    }
}

/// The segment properly crosses the polyline: they intersect and neither end of the segment is
/// on the polyline (within [`TOLERANCE`]).
pub fn segment_crosses_polyline(s: &Segment, pts: &[Point]) -> bool {
    if pts.len() < 2 {
        return false;
    }
    polyline_distance_to_point(pts, s.a) > TOLERANCE
        && polyline_distance_to_point(pts, s.b) > TOLERANCE
        && polyline_segments(pts).any(|t| t.intersects(s))
}

/// The area's centroid (vertex mean if the area is zero).
pub fn centroid(poly: &Polygon) -> Point {
    let a = poly.signed_area();
    if a.abs() < 1e-12 {
        let n = poly.points.len().max(1) as f64;
        let s = poly.points.iter().fold(Point::default(), |acc, &p| acc + p);
        return s * (1.0 / n);
    }
    let mut c = Point::default();
    for e in poly.edges() {
        let k = e.a.cross(e.b);
        c = c + (e.a + e.b) * k;
    }
    c * (1.0 / (6.0 * a))
}

/// Size of an area feature as §3.2 measures it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FeatureSize {
    /// Long side of the enclosing rectangle with the least length + width.
    pub length: f64,
    /// Short side of that rectangle.
    pub breadth: f64,
    /// Width at the centre: the shortest section of the polygon through its centroid (searched in
    /// ¼ degree steps), i.e. how wide the feature is where it is narrowest across its middle.
    pub centre_width: f64,
}

/// Measure an outline for §3.2. The enclosing rectangle is searched over orientations in steps of
/// ¼ degree (exact for rectangles; well within a player's measuring for curves).
pub fn measure(poly: &Polygon) -> FeatureSize {
    // Pure speed, the same arithmetic in the same order as measuring directly (the plain version
    // is kept in the tests, which compare the two bit for bit): the 720 bearings are read from a
    // table of `from_bearing`'s bits instead of worked out, each vertex's offset from the
    // centroid is worked out once instead of once a bearing, and the sections through the
    // centroid reuse one table of the outline's edges and one buffer of crossings instead of
    // allocating for every bearing.
    let c = centroid(poly);
    let dirs = &bearings::BEARINGS;
    let rel: Vec<Point> = poly.points.iter().map(|&p| p - c).collect();
    let (length, breadth) = rectangle_of(&rel);
    let reach = (length + breadth) * 2.0 + 1.0;
    let mut sections = Sections::new(poly);
    sections.through(c, &rel, reach);
    let centre_width = dirs
        .iter()
        .enumerate()
        .map(|(i, &across)| sections.section(i, across))
        .fold(f64::INFINITY, f64::min);
    FeatureSize {
        length,
        breadth,
        centre_width,
    }
}

/// The length and breadth of [`measure`] alone, without the width at the centre: for callers
/// that need only the enclosing rectangle (a camp's size, §4.6), the same two numbers to the bit
/// at about half the work (#15).
pub(crate) fn measure_rectangle(poly: &Polygon) -> (f64, f64) {
    let c = centroid(poly);
    let rel: Vec<Point> = poly.points.iter().map(|&p| p - c).collect();
    rectangle_of(&rel)
}

/// `(length, breadth)` of the least enclosing rectangle of the offsets `rel` (from the
/// centroid), as [`measure`] gives them: the longer side first.
fn rectangle_of(rel: &[Point]) -> (f64, f64) {
    let (_, lu, lv) = least_rectangle(&bearings::BEARINGS, rel);
    if lu >= lv {
        (lu, lv)
    } else {
        (lv, lu)
    }
}

/// The enclosing-rectangle search of [`measure`]: for each bearing `u` of `dirs` (and `v`, its
/// [`Point::right`]), the spread of the offsets `rel` along `u` and along `v`; the first bearing
/// whose `lu + lv` is less than the best so far by more than 10⁻¹² wins. Gives
/// `(lu + lv, lu, lv)` of the winner, or `(∞, 0, 0)` when none wins.
///
/// Pure speed (#15): the vertices are the outer loop and the bearings the inner one, with the
/// four running extremes of every bearing kept in tables, so the inner loop is the same few
/// operations over arrays, which the compiler does two bearings at a time; four vertices go
/// through each pass (each bearing's extremes loaded and stored once for the four), still one
/// after the other. Each bearing still sees the same dot products (`r.dot(u)`, `r.dot(v)`, as
/// [`Point::dot`] works them out) in the same vertex order, so its extremes, and the winner,
/// are the bits of one bearing at a time (the tests compare it with the plain measure, which
/// folds with `f64::min` and `max`). The fold is a plain comparison: a running extreme starts
/// infinite and only takes a value that compares beyond it, so it is never NaN, and a NaN
/// offset, failing the comparison, is passed over, as `f64::min` passes it over; on a tie (`+0`
/// against `-0`) the running extreme stays, which is also what `f64::min` and `max` compile to
/// here (the minimum instruction with the new value first). Without `f64::min`'s NaN repair the
/// loop is about half the instructions.
fn least_rectangle(dirs: &[Point; 720], rel: &[Point]) -> (f64, f64, f64) {
    let ux: [f64; 720] = std::array::from_fn(|i| dirs[i].x);
    let uy: [f64; 720] = std::array::from_fn(|i| dirs[i].y);
    let vx: [f64; 720] = std::array::from_fn(|i| dirs[i].right().x);
    let vy: [f64; 720] = std::array::from_fn(|i| dirs[i].right().y);
    let mut ulo = [f64::INFINITY; 720];
    let mut uhi = [f64::NEG_INFINITY; 720];
    let mut vlo = [f64::INFINITY; 720];
    let mut vhi = [f64::NEG_INFINITY; 720];
    let mut fours = rel.chunks_exact(4);
    for q in &mut fours {
        let r = [q[0], q[1], q[2], q[3]];
        for i in 0..720 {
            let (mut lo, mut hi, mut wlo, mut whi) = (ulo[i], uhi[i], vlo[i], vhi[i]);
            for r in r {
                let du = r.x * ux[i] + r.y * uy[i];
                let dv = r.x * vx[i] + r.y * vy[i];
                lo = if du < lo { du } else { lo };
                hi = if du > hi { du } else { hi };
                wlo = if dv < wlo { dv } else { wlo };
                whi = if dv > whi { dv } else { whi };
            }
            (ulo[i], uhi[i], vlo[i], vhi[i]) = (lo, hi, wlo, whi);
        }
    }
    for &r in fours.remainder() {
        for i in 0..720 {
            let du = r.x * ux[i] + r.y * uy[i];
            let dv = r.x * vx[i] + r.y * vy[i];
            ulo[i] = if du < ulo[i] { du } else { ulo[i] };
            uhi[i] = if du > uhi[i] { du } else { uhi[i] };
            vlo[i] = if dv < vlo[i] { dv } else { vlo[i] };
            vhi[i] = if dv > vhi[i] { dv } else { vhi[i] };
        }
    }
    let mut best = (f64::INFINITY, 0.0, 0.0);
    for i in 0..720 {
        let (lu, lv) = (uhi[i] - ulo[i], vhi[i] - vlo[i]);
        if lu + lv < best.0 - 1e-12 {
            best = (lu + lv, lu, lv);
        }
    }
    best
}

/// [`length_inside`] for many segments and one polygon: its edges tabled once (start, end, and
/// end − start, each worked out as `length_inside` and [`Polygon::contains_strictly`] work them
/// out), and one buffer of crossings reused, so every section gives the very same bits.
struct Sections<'a> {
    poly: &'a Polygon,
    /// Every edge in the order of [`Polygon::edges`]: its start, its end, and end − start.
    edges: Vec<(Point, Point, Point)>,
    /// The crossings of the current segment (a parameter along it each).
    ts: Vec<f64>,
    /// Bounds beyond which no point is strictly inside (see [`Sections::contains_strictly`]):
    /// the least and greatest vertex `y`, and the greatest `x` an edge's crossing can be
    /// worked out at; `None` unless every vertex is finite.
    outside: Option<(f64, f64, f64)>,
    /// The edges again, by bands of `y` (see [`Bands`]); `None` unless every vertex is finite
    /// and the outline has some height.
    bands: Option<Bands>,
    /// The sections through one point (see [`Sections::through`]).
    line: Option<Line>,
}

/// The edges of an outline sorted into `n` bands of `y` of height `h` from `ylo`: band `k`
/// holds, in the order of [`Polygon::edges`], every edge whose lower end is in a band at most
/// `k` and whose upper end in one at least `k`. [`Bands::band`] is monotone in `y` (a
/// subtraction, a division and a saturating conversion, each monotone), so any `y` between an
/// edge's ends falls in a band that holds it.
struct Bands {
    ylo: f64,
    h: f64,
    n: usize,
    /// Where each band's edges start in `edges` (`n + 1` entries).
    start: Vec<usize>,
    edges: Vec<(Point, Point, Point)>,
}

impl Bands {
    fn new(edges: &[(Point, Point, Point)], ylo: f64, yhi: f64) -> Option<Bands> {
        let n = (edges.len() / 2).clamp(1, 64);
        let h = (yhi - ylo) / n as f64;
        if !(h > 0.0 && h.is_finite()) {
            return None;
        }
        let mut bands = Bands {
            ylo,
            h,
            n,
            start: vec![0; n + 1],
            edges: Vec::new(),
        };
        let span = |b: &Bands, &(a, e, _): &(Point, Point, Point)| {
            let (lo, hi) = if a.y <= e.y { (a.y, e.y) } else { (e.y, a.y) };
            (b.band(lo), b.band(hi))
        };
        for edge in edges {
            let (k0, k1) = span(&bands, edge);
            for k in k0..=k1 {
                bands.start[k + 1] += 1;
            }
        }
        for k in 0..n {
            bands.start[k + 1] += bands.start[k];
        }
        let mut fill = bands.start.clone();
        bands.edges = vec![edges[0]; bands.start[n]];
        for edge in edges {
            let (k0, k1) = span(&bands, edge);
            for slot in &mut fill[k0..=k1] {
                bands.edges[*slot] = *edge;
                *slot += 1;
            }
        }
        Some(bands)
    }

    fn band(&self, y: f64) -> usize {
        (((y - self.ylo) / self.h) as usize).min(self.n - 1)
    }

    /// The edges of the band that `y` falls in.
    fn at(&self, y: f64) -> &[(Point, Point, Point)] {
        let k = self.band(y);
        &self.edges[self.start[k]..self.start[k + 1]]
    }
}

/// The sections of [`measure`]: through `c`, `reach` either way along each bearing of the
/// table. `tried`, when the pre-test is sure to hold (see [`Sections::through`]), holds for
/// each bearing a mask of the edges that may cross its line (`words` words a bearing, edge
/// `j` at bit `j % 64` of word `j / 64`); every other edge has both ends clear of the line on
/// one side.
struct Line {
    c: Point,
    reach: f64,
    words: usize,
    tried: Option<Vec<u64>>,
}

impl<'a> Sections<'a> {
    fn new(poly: &'a Polygon) -> Sections<'a> {
        let edges: Vec<(Point, Point, Point)> =
            poly.edges().map(|e| (e.a, e.b, e.b - e.a)).collect();
        let ts = Vec::with_capacity(edges.len() + 2);
        let finite = poly
            .points
            .iter()
            .all(|p| p.x.is_finite() && p.y.is_finite());
        let outside = finite.then(|| {
            edges.iter().fold(
                (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
                |(ylo, yhi, xcap), &(a, _, f)| {
                    (ylo.min(a.y), yhi.max(a.y), xcap.max(a.x).max(a.x + f.x))
                },
            )
        });
        let bands = outside.and_then(|(ylo, yhi, _)| Bands::new(&edges, ylo, yhi));
        Sections {
            poly,
            edges,
            ts,
            outside,
            bands,
            line: None,
        }
    }

    /// Make ready for [`Sections::section`]: sections through `c`, `reach` either way, with
    /// `rel` each vertex's offset from `c` as [`measure`] works it out.
    ///
    /// The pre-test is taken only when every coordinate of `c` and of the vertices is finite,
    /// `reach >= 1`, and `S`, the greatest of `reach` and of every coordinate's size, is at
    /// most `100 reach` and `10¹⁰⁰` (so no product overflows, and the margin `K = 10⁻⁷ S`
    /// stays far above the rounding of a section's arithmetic: see [`Sections::section`]).
    ///
    /// Which bearings a vertex is clear at: with `r` its offset and `a` a bearing of the table
    /// (the sine and cosine of `θ`, each within 2⁻⁵³ of the exact one), the offset across the
    /// line, `r.x·a.y − r.y·a.x`, is `|r| cos(θ + φ)` (`φ` the angle of `r`) within
    /// `3·2⁻⁵³ |r|`. It is zero at one bearing `p` of the half turn (in table steps of ¼
    /// degree, worked out with `atan2` to far better than 10⁻¹⁰ of a step), below it of one
    /// sign and above it of the other, and at a bearing at least 2 steps (½ degree, round the
    /// half turn) from `p` its size is at least `|r| sin ½° − 3·2⁻⁵³|r| > 0.0087 |r|`, which is
    /// beyond `K` when `|r| >= 200 K`. A vertex nearer `c` than that is clear at no bearing.
    /// An edge is tried at every bearing within 2 steps of either end's `p` (taken wide, from
    /// the floor and the ceiling), and at every bearing where its ends' signs differ; at any
    /// other bearing both ends are clear on one side.
    fn through(&mut self, c: Point, rel: &[Point], reach: f64) {
        let mut big = reach;
        let mut finite = self.outside.is_some() && c.x.is_finite() && c.y.is_finite();
        for p in self.poly.points.iter().chain([&c]) {
            finite &= p.x.is_finite() && p.y.is_finite();
            big = big.max(p.x.abs()).max(p.y.abs());
        }
        let n = self.edges.len();
        let words = n.div_ceil(64).max(1);
        let sure = finite && reach >= 1.0 && big <= 100.0 * reach && big <= 1e100 && n >= 3;
        let tried = sure.then(|| {
            let near = 200.0 * 1e-7 * big;
            // Each vertex: the step `p` where its side changes and its side above `p`, or
            // `None` when it is too near `c` to be clear anywhere.
            let turns: Vec<Option<(f64, i8)>> = rel
                .iter()
                .map(|r| {
                    (r.x.hypot(r.y) >= near).then(|| {
                        let q = ((90.0 - r.y.atan2(r.x).to_degrees()) * 4.0).rem_euclid(1440.0);
                        if q < 720.0 {
                            (q, -1)
                        } else {
                            (q - 720.0, 1)
                        }
                    })
                })
                .collect();
            let mut tried = vec![0u64; 720 * words];
            let mut mark = |i: usize, j: usize| tried[i * words + j / 64] |= 1 << (j % 64);
            for j in 0..n {
                let (ta, tb) = (turns[j], turns[(j + 1) % n]);
                let (Some((pa, aa)), Some((pb, ab))) = (ta, tb) else {
                    (0..720).for_each(|i| mark(i, j));
                    continue;
                };
                for p in [pa, pb] {
                    let lo = p.floor() as i64 - 2;
                    let hi = p.ceil() as i64 + 2;
                    for i in lo..=hi {
                        mark(i.rem_euclid(720) as usize, j);
                    }
                }
                // Steps below `p` take the sign opposite the one above: the ends' signs differ
                // between the two `p`s when they agree above, and outside them otherwise.
                let (lo, hi) = (pa.min(pb).ceil() as usize, pa.max(pb).ceil() as usize);
                if aa == ab {
                    (lo..hi).for_each(|i| mark(i, j));
                } else {
                    (0..lo).chain(hi..720).for_each(|i| mark(i, j));
                }
            }
            tried
        });
        self.line = Some(Line {
            c,
            reach,
            words,
            tried,
        });
    }

    /// [`length_inside`] of the section through the point of [`Sections::through`] along
    /// bearing `i` of the table (`across`, `reach` either way), step for step, trying only the
    /// edges that may cross its line.
    ///
    /// An edge whose ends are both clear of the line on one side (the offset across it beyond
    /// `K = 10⁻⁷ S`) would be passed over by `length_inside` too: where along the edge it meets
    /// the line is `u = g(a) / (g(a) − g(b))` exactly, with `g(p) = (p − s.a) × d`, which is
    /// within some `100·2⁻⁵³ S²` of `2 reach` times the offset across (every coordinate worked
    /// with is at most `4 S`), so `g(a)` and `g(b)` share a sign and are at least
    /// `2 reach K − 100·2⁻⁵³ S² > 10⁻⁹ S²` each; `u` is then below 0 or above 1 by at least
    /// that over `|g(a) − g(b)| <= 24 S²`, and the rounding of `u` as worked out (errors of
    /// about `150·2⁻⁵³ S²` at most in its numerator and denominator) brings it nowhere near the
    /// `[−10⁻¹², 1 + 10⁻¹²]` an edge needs to give a crossing. Every other edge is tried in
    /// full, in the same order, so the crossings, and the length, are the same bits.
    fn section(&mut self, i: usize, across: Point) -> f64 {
        let line = self.line.as_ref().expect("through comes first");
        let s = Segment::new(line.c - across * line.reach, line.c + across * line.reach);
        let Some(tried) = &line.tried else {
            return self.length_inside(&s);
        };
        let len = s.length();
        if len == 0.0 || self.poly.points.len() < 3 {
            return 0.0;
        }
        let d = s.b - s.a;
        self.ts.clear();
        self.ts.extend([0.0, 1.0]);
        for (w, &word) in tried[i * line.words..(i + 1) * line.words]
            .iter()
            .enumerate()
        {
            let mut bits = word;
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (a, _, f) = self.edges[j];
                self.ts.extend(edge_crossing(s.a, d, a, f));
            }
        }
        self.inside_crossed(s.a, d, len)
    }

    /// [`length_inside`]`(s, poly)`, step for step.
    fn length_inside(&mut self, s: &Segment) -> f64 {
        let len = s.length();
        if len == 0.0 || self.poly.points.len() < 3 {
            return 0.0;
        }
        let d = s.b - s.a;
        self.ts.clear();
        self.ts.extend([0.0, 1.0]);
        for &(a, _, f) in &self.edges {
            self.ts.extend(edge_crossing(s.a, d, a, f));
        }
        self.inside_crossed(s.a, d, len)
    }

    /// [`inside_between`] over the crossings gathered in `self.ts`, whose buffer is kept for
    /// the next section.
    fn inside_crossed(&mut self, from: Point, d: Point, len: f64) -> f64 {
        let mut ts = std::mem::take(&mut self.ts);
        let inside = inside_between(&mut ts, from, d, len, |p| self.contains_strictly(p));
        self.ts = ts;
        inside
    }

    /// [`Polygon::contains_strictly`]`(p)`, step for step, after an exact pre-test, over the
    /// edges of `p.y`'s band only.
    ///
    /// The pre-test (every vertex finite): an edge flips the answer only when its ends straddle
    /// `p.y` (`a.y > p.y` differs from `b.y > p.y`), which no edge does when `p.y` is at least
    /// the greatest vertex `y` (every `a.y > p.y` is false) or below the least (every one is
    /// true). A straddling edge has `q = p.y - a.y` and `f.y = b.y - a.y` of one sign with
    /// `|q| <= |f.y|` before rounding, so after it (rounding is monotone) `0 <= q / f.y <= 1`,
    /// `q / f.y * f.x` lies between 0 and `f.x`, and the crossing `x = a.x + q / f.y * f.x`
    /// between `a.x` and `a.x + f.x` as computed: it is at most their greatest over all edges,
    /// and `p.x` at least that is never `< x`. A `p` with a NaN fails every comparison and is
    /// tested in full.
    ///
    /// The bands: the answer is the parity of the straddling edges that `p` is left of, in any
    /// order, and every edge that straddles `p.y` has its ends on either side of it, so it is
    /// in `p.y`'s band (see [`Bands`]); the band's other edges flip nothing.
    fn contains_strictly(&self, p: Point) -> bool {
        let mut edges = &self.edges[..];
        if let Some((ylo, yhi, xcap)) = self.outside {
            if p.y >= yhi || p.y < ylo || p.x >= xcap {
                return false;
            }
            if let (Some(bands), true) = (&self.bands, p.y >= ylo) {
                edges = bands.at(p.y);
            }
        }
        let mut inside = false;
        for &(a, b, f) in edges {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / f.y * f.x;
                if p.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

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
fn size_problems(
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
struct SizeBounds {
    /// At least the length + breadth: the sides of the upright enclosing rectangle (the
    /// measure's least rectangle is no larger than the one at its first bearing).
    sum_hi: f64,
    /// At least the length: the greatest distance between two vertices (a side of any
    /// enclosing rectangle is the outline's spread along one direction).
    length_hi: f64,
    /// At most the centre width: twice the centroid's distance from the outline, when the
    /// centroid is inside (every line through it then runs at least that far inside), else 0.
    width_lo: f64,
    /// At least the centre width: the least of the sections through the centroid at eight of
    /// the measure's own bearings (the centre width is the least over all of them).
    width_hi: f64,
}

/// The slack every [`SizeBounds`] bound keeps, in BW.
const SIZE_BOUND_MARGIN: f64 = 1e-9;

impl SizeBounds {
    /// The bounds of an outline, or `None` for outlines the bounds do not serve: fewer than
    /// three or more than 128 vertices, or a coordinate that is not finite or beyond 10⁶ BW.
    fn of(poly: &Polygon) -> Option<SizeBounds> {
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
    fn settled(&self, kind: AreaKind) -> Option<bool> {
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

// ---------------------------------------------------------------------------------------------
// Quarter placement (§3.8 items 3-5)
// ---------------------------------------------------------------------------------------------

/// The part of `poly` inside the convex polygon `clip` (Sutherland–Hodgman; `clip` anticlockwise).
pub fn clip_to_convex(poly: &Polygon, clip: &Polygon) -> Polygon {
    let mut pts = poly.points.clone();
    for e in clip.edges() {
        if pts.is_empty() {
            break;
        }
        let inside = |q: Point| (e.b - e.a).cross(q - e.a) >= 0.0;
        let cut = |p: Point, q: Point| {
            let d = q - p;
            let den = (e.b - e.a).cross(d);
            if den == 0.0 {
                return p;
            }
            let t = (e.b - e.a).cross(e.a - p) / den;
            p + d * t
        };
        let input = std::mem::take(&mut pts);
        for k in 0..input.len() {
            let cur = input[k];
            let prev = input[(k + input.len() - 1) % input.len()];
            match (inside(prev), inside(cur)) {
                (true, true) => pts.push(cur),
                (true, false) => pts.push(cut(prev, cur)),
                (false, true) => {
                    pts.push(cut(prev, cur));
                    pts.push(cur);
                }
                (false, false) => {}
            }
        }
    }
    Polygon::new(pts)
}

/// `clip_to_convex(poly, cell).area()`, the very same number, settled from the boxes when `cell`
/// is an upright rectangle (as the quarters of §3.8 are) and the outline's box lies within it or
/// clearly apart from it (#15: the placement search clipped every candidate against each
/// quarter, most of the pre-battle's time).
///
/// Within: every vertex passes each of the clip's half-plane tests (for an upright rectangle
/// whose corners run anticlockwise from the least, the test of each edge is the comparison of
/// one coordinate with its line), so the clip keeps the outline's vertices as they are, in
/// their order, and the area is the outline's own. Apart by more than a slack far above
/// rounding: every vertex, and every point the clip cuts between two of them, fails the test of
/// the edge whose line separates them, so nothing is left.
pub(crate) fn clipped_area(poly: &Polygon, cell: &Polygon) -> f64 {
    if let [lo, p1, hi, p3] = cell.points.as_slice() {
        if (p1.x, p1.y) == (hi.x, lo.y) && (p3.x, p3.y) == (lo.x, hi.y) {
            let settled =
                area_settled_by_boxes(finite_bounds(&poly.points), *lo, *hi, || poly.area());
            if let Some(area) = settled {
                return area;
            }
        }
    }
    clip_to_convex(poly, cell).area()
}

/// The shortcut of [`clipped_area`] for the upright rectangle from `lo` to `hi` and an outline
/// whose [`finite_bounds`] are `bounds`: `Some(area())` when the outline's box lies within the
/// rectangle, `Some(0.0)` when it is clearly apart, `None` when the boxes do not settle it (or
/// the rectangle is not upright, or a coordinate is not finite or is huge) and the clip must be
/// worked out. Callers that meet one outline with several rectangles (the four quarters) work
/// its box out once.
fn area_settled_by_boxes(
    bounds: Option<(f64, f64, f64, f64)>,
    lo: Point,
    hi: Point,
    area: impl FnOnce() -> f64,
) -> Option<f64> {
    let (x0, y0, x1, y1) = bounds?;
    let upright =
        lo.x < hi.x && lo.y < hi.y && [lo, hi].iter().all(|p| p.x.is_finite() && p.y.is_finite());
    let size = [x0, y0, x1, y1, lo.x, lo.y, hi.x, hi.y]
        .iter()
        .fold(1.0f64, |m, v| m.max(v.abs()));
    // (Below 10¹⁰⁰ no product of the half-plane tests overflows.)
    if !(upright && size <= 1e100) {
        return None;
    }
    if lo.x <= x0 && x1 <= hi.x && lo.y <= y0 && y1 <= hi.y {
        return Some(area());
    }
    let slack = 1e-9 * size;
    if x1 < lo.x - slack || x0 > hi.x + slack || y1 < lo.y - slack || y0 > hi.y + slack {
        return Some(0.0);
    }
    None
}

/// `clipped_area(outline, quarter's polygon)` for an outline whose [`finite_bounds`] are
/// `bounds`, with the quarter's polygon built only when the boxes do not settle it.
fn area_in_quarter(
    outline: &Polygon,
    bounds: Option<(f64, f64, f64, f64)>,
    board: &Board,
    q: Quarter,
    defender_base: BoardEdge,
) -> Option<f64> {
    let (lo, hi) = board.quarter_box(q, defender_base)?;
    // The polygon of `quarter_polygon` runs anticlockwise from `lo`, so `clipped_area` would
    // take this very shortcut with it.
    if let Some(area) = area_settled_by_boxes(bounds, lo, hi, || outline.area()) {
        return Some(area);
    }
    let cell = board.quarter_polygon(q, defender_base)?;
    Some(clip_to_convex(outline, &cell).area())
}

/// Why a feature may not be placed as diced (§3.8 items 3-5: such a feature is discarded).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum PlacementProblem {
    /// A quarter number outside 1 to 4 (§3.8).
    #[error("§3.8: quarter {0} does not exist (quarters are 1 to 4)")]
    NoSuchQuarter(Quarter),
    /// The feature must lie wholly in its quarter (§3.8).
    #[error("§3.8: the {kind} must lie wholly in quarter {quarter}")]
    NotWhollyInQuarter {
        /// The feature's kind.
        kind: AreaKind,
        /// Its quarter.
        quarter: Quarter,
    },
    /// A gentle hill must have its larger part in its quarter and the rest in at most one adjacent
    /// quarter (§3.8).
    #[error("§3.8: the gentle hill must have its larger part in quarter {quarter} and the rest in at most one adjacent quarter")]
    HillSpread {
        /// Its quarter.
        quarter: Quarter,
    },
    /// The feature must lie in its quarter and reach into exactly one adjacent quarter (§3.8).
    #[error("§3.8: the feature must lie in quarter {quarter} and extend into exactly one adjacent quarter (it touches quarters {})", listed(.touched))]
    NotIntoOneAdjacent {
        /// Its quarter.
        quarter: Quarter,
        /// The quarters it touches.
        touched: Vec<Quarter>,
    },
}

/// The quarters (1–4) a feature reaches into by more than [`TOLERANCE`] of area or length.
pub fn quarters_touched(
    feature: &TerrainFeature,
    board: &Board,
    defender_base: BoardEdge,
) -> Vec<Quarter> {
    // An area feature's box, worked out once for the four quarters (#15).
    let bounds = match feature {
        TerrainFeature::Area(a) => finite_bounds(&a.outline.points),
        _ => None,
    };
    (1..=4)
        .map(Quarter)
        .filter(|&q| {
            if let TerrainFeature::Area(a) = feature {
                return area_in_quarter(&a.outline, bounds, board, q, defender_base)
                    .is_some_and(|area| area > TOLERANCE * TOLERANCE);
            }
            let Some(cell) = board.quarter_polygon(q, defender_base) else {
                return false;
            };
            match feature {
                TerrainFeature::Waterway(w) => {
                    clipped_area(&w.water_polygon(board), &cell) > TOLERANCE * TOLERANCE
                }
                TerrainFeature::River(r) => {
                    polyline_segments(&r.course).any(|s| length_inside(&s, &cell) > TOLERANCE)
                }
                TerrainFeature::Road(r) => {
                    polyline_segments(&r.path).any(|s| length_inside(&s, &cell) > TOLERANCE)
                }
                // (Answered above.)
                TerrainFeature::Area(_) => false,
            }
        })
        .collect()
}

/// Check a feature's position against the quarter its die gave it (§3.8 items 3-4): area
/// features other than Plough and Gentle hill wholly in the quarter; a Gentle hill with its larger
/// part there and any smaller part in one adjacent quarter; Plough and every linear feature in the
/// quarter and extending into exactly one adjacent quarter.
pub fn check_quarter_placement(
    feature: &TerrainFeature,
    board: &Board,
    defender_base: BoardEdge,
    quarter: Quarter,
) -> Result<(), PlacementProblem> {
    if board.quarter_box(quarter, defender_base).is_none() {
        return Err(PlacementProblem::NoSuchQuarter(quarter));
    }
    let touched = quarters_touched(feature, board, defender_base);
    let others: Vec<Quarter> = touched.iter().copied().filter(|&q| q != quarter).collect();
    let into_one_adjacent = touched.contains(&quarter)
        && others.len() == 1
        && Board::quarters_adjacent(quarter, others[0]);
    match feature {
        TerrainFeature::Area(a) if a.kind == AreaKind::Plough => {
            if into_one_adjacent {
                Ok(())
            } else {
                Err(PlacementProblem::NotIntoOneAdjacent { quarter, touched })
            }
        }
        TerrainFeature::Area(a) if a.kind == AreaKind::GentleHill => {
            let total = a.outline.area();
            let bounds = finite_bounds(&a.outline.points);
            let here =
                area_in_quarter(&a.outline, bounds, board, quarter, defender_base).unwrap_or(0.0);
            let ok = here * 2.0 >= total
                && (others.is_empty()
                    || (others.len() == 1 && Board::quarters_adjacent(quarter, others[0])));
            if ok {
                Ok(())
            } else {
                Err(PlacementProblem::HillSpread { quarter })
            }
        }
        TerrainFeature::Area(a) => {
            if others.is_empty() && touched.contains(&quarter) {
                Ok(())
            } else {
                Err(PlacementProblem::NotWhollyInQuarter {
                    kind: a.kind,
                    quarter,
                })
            }
        }
        _ => {
            if into_one_adjacent {
                Ok(())
            } else {
                Err(PlacementProblem::NotIntoOneAdjacent { quarter, touched })
            }
        }
    }
}

#[cfg(test)]
mod measure_tests {
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
            AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 3.0), Point::new(5.0, 5.5))
                .outline,
            AreaFeature::rectangle(AreaKind::Wood, Point::new(0.0, 0.0), Point::new(1.0, 8.0))
                .outline,
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
        let strip =
            AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 2.0), Point::new(7.0, 4.0));
        assert_eq!(settle(strip), None);
        for poly in [
            AreaFeature::ellipse(AreaKind::Wood, Point::new(3.2, 7.5), 1.7, 1.55, 0.0, 20).outline,
            AreaFeature::ellipse(AreaKind::Gully, Point::new(8.0, 8.0), 3.5, 0.6, 30.0, 20).outline,
            AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 2.0), Point::new(7.0, 4.0))
                .outline,
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
            AreaFeature::rectangle(AreaKind::Wood, Point::new(2.0, 3.0), Point::new(5.0, 5.5))
                .outline,
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
}

#[cfg(test)]
pub(crate) mod intersect_agreement {
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
