//! The table and its terrain (BUGS §0, BUGS §8, BUGS §14; readings R2, R17, R18, R42, R43): areas, line of
//! sight, cover, the cost of moving, and the measures every other part uses.
//!
//! Distances are inches from the table's south-west corner; bearings are degrees clockwise from
//! north (+y), as everywhere in dbcore. A figure is known by the centre of its base.
//!
//! dbcore reading B1: a base is a 1 in square, drawn so, but the referee measures overlap and
//! contact on the 1 in circle inside it: two figures touch when their centres are 1 in apart
//! and overlap when closer. Figures turn freely (reading R2) and do not turn when contacted
//! (R26), so a square's corners would make contact depend on facings nobody chose.

use serde::{Deserialize, Serialize};

use crate::geometry::{Point, Polygon, Segment};

/// Half a base: the radius of the circle the referee measures (reading B1).
pub const RADIUS: f64 = 0.5;
/// Centre distance below which two bases overlap (1 in less a thousandth, for rounding).
pub const OVERLAP: f64 = 1.0 - 1e-3;
/// Centre distance up to which two bases touch (1 in and a hundredth).
pub const CONTACT: f64 = 1.0 + 1e-2;

/// The board's terrain type (BUGS §14, reading R42), which sets the bug-hole chance (BUGS §13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardType {
    /// Flat, with clumps of vegetation that have no effect (2D6 5–8).
    Clear,
    /// Flat, half covered by jungle or swamp (2D6 4 or 9).
    JungleSwamp,
    /// Flat, half rocky ground (2D6 3 or 10).
    Rocky,
    /// Three quarters impassable mountain (2D6 2, 11 or 12).
    Mountainous,
    /// A city or settlement (a bug-hole modifier and the settlement encounter, BUGS §14).
    CitySettlement,
}

impl BoardType {
    /// The board a 2D6 total gives (BUGS §14; the text says 1D6 and lists 2–12: reading R42).
    pub fn from_roll(total: u8) -> BoardType {
        match total {
            5..=8 => BoardType::Clear,
            4 | 9 => BoardType::JungleSwamp,
            3 | 10 => BoardType::Rocky,
            _ => BoardType::Mountainous,
        }
    }
    /// The board's modifier to the bug-hole chance (BUGS §13.1).
    pub fn hole_modifier(self) -> i32 {
        match self {
            BoardType::JungleSwamp => 2,
            BoardType::Clear => 1,
            BoardType::Rocky => -1,
            BoardType::Mountainous | BoardType::CitySettlement => -2,
        }
    }
    /// Its name as a player says it.
    pub fn name(self) -> &'static str {
        match self {
            BoardType::Clear => "clear",
            BoardType::JungleSwamp => "jungle and swamp",
            BoardType::Rocky => "rocky",
            BoardType::Mountainous => "mountainous",
            BoardType::CitySettlement => "a city or settlement",
        }
    }
}

/// What an area of terrain is (reading R42).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    /// Jungle: sight cut to 12 in, half speed, cover.
    Jungle,
    /// Swamp: as jungle.
    Swamp,
    /// Rocky ground: blocks sight, half speed, cover.
    Rocky,
    /// Mountain: impassable, blocks sight, cover.
    Mountain,
    /// A building: blocks sight, cover, impassable unless `enterable`.
    Building,
    /// A hill: only its `height` matters (the "uphill" modifier, BUGS §12.2).
    Hill,
    /// Scenario cover (a wall, wreckage): cover only.
    Cover,
}

impl AreaKind {
    /// Its name as a player says it.
    pub fn name(self) -> &'static str {
        match self {
            AreaKind::Jungle => "jungle",
            AreaKind::Swamp => "swamp",
            AreaKind::Rocky => "rocky ground",
            AreaKind::Mountain => "mountain",
            AreaKind::Building => "building",
            AreaKind::Hill => "hill",
            AreaKind::Cover => "cover",
        }
    }
}

/// An area of terrain as the set-up lays it (reading R42: the layout is set-up data).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// A name for the narration and the picture.
    pub name: String,
    /// What it is.
    pub kind: AreaKind,
    /// Its outline, inches, vertices in order.
    pub outline: Vec<Point>,
    /// Present only when the rolled board is of this type (so that one set-up can lay out every
    /// board BUGS §14 may roll); `None`: always present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_on: Option<BoardType>,
    /// Height in inches above the table, for "uphill" (reading R37).
    #[serde(default)]
    pub height: f64,
    /// A building figures may enter (reading R42).
    #[serde(default)]
    pub enterable: bool,
}

/// A table edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// The far edge, +y.
    North,
    /// The right edge, +x.
    East,
    /// The near edge, y = 0.
    South,
    /// The left edge, x = 0.
    West,
}

impl Edge {
    /// The four edges.
    pub const ALL: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];
    /// The bearing that leads straight to it.
    pub fn bearing(self) -> f64 {
        match self {
            Edge::North => 0.0,
            Edge::East => 90.0,
            Edge::South => 180.0,
            Edge::West => 270.0,
        }
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::East => "east",
            Edge::South => "south",
            Edge::West => "west",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Flags {
    blocks_sight: bool,
    limits_sight: bool,
    half_speed: bool,
    impassable: bool,
    cover: bool,
}

fn flags(kind: AreaKind, enterable: bool) -> Flags {
    let f = Flags {
        blocks_sight: false,
        limits_sight: false,
        half_speed: false,
        impassable: false,
        cover: false,
    };
    match kind {
        AreaKind::Jungle | AreaKind::Swamp => Flags {
            limits_sight: true,
            half_speed: true,
            cover: true,
            ..f
        },
        AreaKind::Rocky => Flags {
            blocks_sight: true,
            half_speed: true,
            cover: true,
            ..f
        },
        AreaKind::Mountain => Flags {
            blocks_sight: true,
            impassable: true,
            cover: true,
            ..f
        },
        AreaKind::Building => Flags {
            blocks_sight: true,
            impassable: !enterable,
            cover: true,
            ..f
        },
        AreaKind::Hill => f,
        AreaKind::Cover => Flags { cover: true, ..f },
    }
}

/// One area in play, with its rules flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Placed {
    polygon: Polygon,
    flags: Flags,
    height: f64,
}

/// The table and the terrain in play: the areas of the set-up present on the board rolled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// West–east, inches.
    pub width: f64,
    /// South–north, inches.
    pub depth: f64,
    areas: Vec<Placed>,
}

/// The parameter intervals `[t0, t1]` of the segment `a`→`b` that lie inside `poly` (any simple
/// polygon), in order.
pub fn clip(a: Point, b: Point, poly: &Polygon) -> Vec<(f64, f64)> {
    let d = b - a;
    let mut ts = vec![0.0, 1.0];
    for e in poly.edges() {
        let s = e.b - e.a;
        let denom = d.cross(s);
        if denom.abs() < 1e-12 {
            continue;
        }
        let q = e.a - a;
        let t = q.cross(s) / denom;
        let u = q.cross(d) / denom;
        if (0.0..=1.0).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&u) {
            ts.push(t);
        }
    }
    ts.sort_by(f64::total_cmp);
    let mut out: Vec<(f64, f64)> = Vec::new();
    for w in ts.windows(2) {
        if w[1] - w[0] < 1e-12 {
            continue;
        }
        let mid = a + d * ((w[0] + w[1]) * 0.5);
        if poly.contains_strictly(mid) {
            match out.last_mut() {
                Some(last) if (last.1 - w[0]).abs() < 1e-12 => last.1 = w[1],
                _ => out.push((w[0], w[1])),
            }
        }
    }
    out
}

impl Field {
    /// The field of a table with these areas, on a board of type `board` (areas marked for
    /// another board type are left out; with no board yet, only the unmarked areas are in play).
    pub fn new(width: f64, depth: f64, areas: &[Area], board: Option<BoardType>) -> Field {
        Field {
            width,
            depth,
            areas: areas
                .iter()
                .filter(|a| a.only_on.is_none() || a.only_on == board)
                .map(|a| Placed {
                    polygon: Polygon::new(a.outline.clone()),
                    flags: flags(a.kind, a.enterable),
                    height: a.height,
                })
                .collect(),
        }
    }

    /// Whether a base centred here is wholly on the table.
    pub fn on_table(&self, p: Point) -> bool {
        p.x >= RADIUS - 1e-9
            && p.y >= RADIUS - 1e-9
            && p.x <= self.width - RADIUS + 1e-9
            && p.y <= self.depth - RADIUS + 1e-9
    }

    /// Whether the point is inside the table's outline (the centre of an exiting base is not).
    pub fn inside(&self, p: Point) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.depth
    }

    /// The nearest edge to a point, and how far it is.
    pub fn nearest_edge(&self, p: Point) -> (Edge, f64) {
        let mut best = (Edge::North, self.depth - p.y);
        for (e, d) in [
            (Edge::East, self.width - p.x),
            (Edge::South, p.y),
            (Edge::West, p.x),
        ] {
            if d < best.1 {
                best = (e, d);
            }
        }
        best
    }

    /// How far along the ray from `p` on bearing `dir` (a unit vector) the centre meets the line
    /// `margin` inches inside edge `e`, if it is ahead.
    pub fn to_edge(&self, p: Point, dir: Point, e: Edge, margin: f64) -> Option<f64> {
        let (pos, v, line) = match e {
            Edge::North => (p.y, dir.y, self.depth - margin),
            Edge::South => (-p.y, -dir.y, -margin),
            Edge::East => (p.x, dir.x, self.width - margin),
            Edge::West => (-p.x, -dir.x, -margin),
        };
        if v <= 1e-12 {
            return None;
        }
        Some(((line - pos) / v).max(0.0))
    }

    /// The edge a point outside the table lies beyond (the first crossed along `a`→`b`).
    pub fn edge_crossed(&self, a: Point, b: Point) -> Option<(Edge, f64)> {
        let d = b - a;
        let len = d.length();
        if len < 1e-12 {
            return None;
        }
        let dir = d * (1.0 / len);
        Edge::ALL
            .iter()
            .filter_map(|e| self.to_edge(a, dir, *e, 0.0).map(|t| (*e, t)))
            .filter(|(_, t)| *t <= len + 1e-9)
            .min_by(|x, y| x.1.total_cmp(&y.1))
    }

    /// Whether the straight path enters impassable terrain (touching its outline is allowed).
    pub fn crosses_impassable(&self, a: Point, b: Point) -> bool {
        self.areas.iter().filter(|r| r.flags.impassable).any(|r| {
            r.polygon.contains_strictly(a)
                || r.polygon.contains_strictly(b)
                || clip(a, b, &r.polygon).iter().any(|(t0, t1)| t1 - t0 > 1e-9)
        })
    }

    /// Whether a base centre may stand here (not in impassable terrain).
    pub fn passable(&self, p: Point) -> bool {
        !self
            .areas
            .iter()
            .any(|r| r.flags.impassable && r.polygon.contains_strictly(p))
    }

    /// The first distance along `a`→`b` at which impassable terrain is entered.
    pub fn first_impassable(&self, a: Point, b: Point) -> Option<f64> {
        let len = a.distance(b);
        self.areas
            .iter()
            .filter(|r| r.flags.impassable)
            .filter_map(|r| clip(a, b, &r.polygon).first().map(|(t0, _)| *t0 * len))
            .min_by(f64::total_cmp)
    }

    /// The movement cost of the straight path: inches, each inch inside half-speed terrain
    /// counting double (reading R3).
    pub fn cost(&self, a: Point, b: Point) -> f64 {
        let len = a.distance(b);
        let mut slow = Vec::new();
        for r in self.areas.iter().filter(|r| r.flags.half_speed) {
            slow.extend(clip(a, b, &r.polygon));
        }
        len + union_length(slow) * len
    }

    /// How far along the ray from `p` (unit `dir`) a budget of movement goes, up to `limit`.
    pub fn reach(&self, p: Point, dir: Point, budget: f64, limit: f64) -> f64 {
        if limit <= 0.0 || budget <= 0.0 {
            return 0.0;
        }
        let end = p + dir * limit;
        let mut slow = Vec::new();
        for r in self.areas.iter().filter(|r| r.flags.half_speed) {
            slow.extend(clip(p, end, &r.polygon));
        }
        let slow = merge(slow);
        // Walk the ray: fast stretches cost 1 an inch, slow ones 2.
        let mut t = 0.0;
        let mut left = budget;
        for (s0, s1) in slow.iter().copied() {
            let fast = (s0 - t) * limit;
            if fast >= left {
                return t * limit + left;
            }
            left -= fast;
            let slow_len = (s1 - s0) * limit;
            if slow_len * 2.0 >= left {
                return s0 * limit + left / 2.0;
            }
            left -= slow_len * 2.0;
            t = s1;
        }
        (t * limit + left).min(limit)
    }

    /// Height of the ground at a point (the highest area containing it; 0 off the hills).
    pub fn height(&self, p: Point) -> f64 {
        self.areas
            .iter()
            .filter(|r| r.polygon.contains(p))
            .map(|r| r.height)
            .fold(0.0, f64::max)
    }

    /// Line of sight between two base centres (reading R17), with `blockers` the centres of the
    /// other figures on the table.
    pub fn sight(&self, from: Point, to: Point, blockers: impl IntoIterator<Item = Point>) -> bool {
        let len = from.distance(to);
        if len < 1e-9 {
            return true;
        }
        let near = 1.0 / len;
        for r in &self.areas {
            if !(r.flags.blocks_sight || r.flags.limits_sight) {
                continue;
            }
            for (t0, t1) in clip(from, to, &r.polygon) {
                if r.flags.blocks_sight && t0.max(near) < t1.min(1.0 - near) {
                    return false;
                }
                if r.flags.limits_sight && len > 12.0 && t1 - t0 > 1e-9 {
                    return false;
                }
            }
        }
        let seg = Segment::new(from, to);
        !blockers
            .into_iter()
            .any(|c| seg.distance_to_point(c) < RADIUS - 1e-6)
    }

    /// Whether a figure at `target` is in cover from an observer at `from` (reading R18): its
    /// centre is inside a cover area, or the line between them passes through one within 1 in of
    /// the target's centre.
    pub fn in_cover(&self, target: Point, from: Point) -> bool {
        let len = from.distance(target);
        self.areas.iter().filter(|r| r.flags.cover).any(|r| {
            if r.polygon.contains_strictly(target) {
                return true;
            }
            if len < 1e-9 {
                return false;
            }
            let near = 1.0 - (1.0 / len).min(1.0);
            clip(from, target, &r.polygon)
                .iter()
                .any(|(t0, t1)| *t1 > near + 1e-9 && t1 - t0 > 1e-9)
        })
    }
}

fn merge(mut v: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

fn union_length(v: Vec<(f64, f64)>) -> f64 {
    merge(v).iter().map(|(a, b)| b - a).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Point> {
        vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ]
    }

    fn area(kind: AreaKind, pts: Vec<Point>) -> Area {
        Area {
            name: "a".into(),
            kind,
            outline: pts,
            only_on: None,
            height: 0.0,
            enterable: false,
        }
    }

    #[test]
    fn clipping_finds_the_inside_stretch() {
        let p = Polygon::new(square(2.0, -1.0, 4.0, 1.0));
        let v = clip(Point::new(0.0, 0.0), Point::new(10.0, 0.0), &p);
        assert_eq!(v.len(), 1);
        assert!((v[0].0 - 0.2).abs() < 1e-9 && (v[0].1 - 0.4).abs() < 1e-9);
    }

    #[test]
    fn half_speed_doubles_the_cost_inside() {
        // Reading R3.
        let f = Field::new(
            36.0,
            36.0,
            &[area(AreaKind::Jungle, square(2.0, -1.0, 4.0, 1.0))],
            None,
        );
        let c = f.cost(Point::new(0.0, 0.0), Point::new(10.0, 0.0));
        assert!((c - 12.0).abs() < 1e-9);
        let r = f.reach(Point::new(0.0, 0.0), Point::new(1.0, 0.0), 6.0, 20.0);
        assert!((r - 4.0).abs() < 1e-9, "{r}");
        let r = f.reach(Point::new(0.0, 0.0), Point::new(1.0, 0.0), 3.0, 20.0);
        assert!((r - 2.5).abs() < 1e-9, "{r}");
    }

    #[test]
    fn rocks_block_sight_except_within_an_inch_of_either_end() {
        // Reading R17.
        let f = Field::new(
            36.0,
            36.0,
            &[area(AreaKind::Rocky, square(4.0, -1.0, 6.0, 1.0))],
            None,
        );
        assert!(!f.sight(Point::new(0.0, 0.0), Point::new(10.0, 0.0), []));
        assert!(f.sight(Point::new(0.0, 0.0), Point::new(4.5, 0.0), []));
        assert!(f.in_cover(Point::new(6.5, 0.0), Point::new(0.0, 0.0)));
        assert!(!f.in_cover(Point::new(8.0, 0.0), Point::new(0.0, 0.0)));
    }

    #[test]
    fn jungle_limits_sight_to_twelve_inches() {
        // BUGS §14, reading R17.
        let f = Field::new(
            36.0,
            36.0,
            &[area(AreaKind::Jungle, square(4.0, -1.0, 6.0, 1.0))],
            None,
        );
        assert!(f.sight(Point::new(0.0, 0.0), Point::new(12.0, 0.0), []));
        assert!(!f.sight(Point::new(0.0, 0.0), Point::new(12.5, 0.0), []));
        // Another figure's base on the line blocks it.
        assert!(!f.sight(
            Point::new(0.0, 0.0),
            Point::new(3.0, 0.0),
            [Point::new(1.5, 0.2)]
        ));
    }

    #[test]
    fn terrain_from_two_dice() {
        // BUGS §14.
        let b: Vec<BoardType> = (2..=12).map(BoardType::from_roll).collect();
        use BoardType::*;
        assert_eq!(
            b,
            [
                Mountainous,
                Rocky,
                JungleSwamp,
                Clear,
                Clear,
                Clear,
                Clear,
                JungleSwamp,
                Rocky,
                Mountainous,
                Mountainous
            ]
        );
    }
}
