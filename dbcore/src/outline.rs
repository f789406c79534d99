//! Outlines for a table tool to draw (DBA3.md §6.4, §7.3, §8.1, §9.2): an element's threat zone,
//! its shooting zone within range, a general's command distances and the reach of a move, as
//! polygons in BW. Pure functions of the battle; they decide nothing the referee does not.
//!
//! Readings where the digest is silent:
//! * Curved boundaries (range, command distance, reach) are polygons of [`ARC_STEPS`] points a
//!   quarter circle.
//! * The shooting zone is drawn from the front edge, and from all four edges for War Wagons, as
//!   `zones::ShootingZone` measures it (§9.2, §17.23).
//! * The **reach** of a move is the area within its allowance of where the element stands (its
//!   front corners move at most that far, §7.2): an upper bound that ignores what may stop or
//!   turn it (other elements, threat zones, terrain on the way); [`crate::battle::Battle::check`]
//!   referees a real path.

use serde::{Deserialize, Serialize};

use crate::battle::{Battle, BattleError, ElementId};
use crate::battlefield::{
    COMMAND_DISTANCE, COMMAND_DISTANCE_LIGHT_HORSE, COMMAND_DISTANCE_SCREENED,
};
use crate::combat::Going;
use crate::geometry::{convex_hull, Edge, ElementRect, Point, Polygon, Segment};
use crate::troops::TroopType;

/// Points a quarter circle on curved boundaries.
pub const ARC_STEPS: usize = 8;

/// One command distance of a general (§6.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct CommandOutline {
    /// BW from the general's element.
    pub limit: f64,
    /// To whom it applies: `in_sight`, `screened` (hidden by terrain, §6.4) or `light_horse`
    /// (a mover that is all Light Horse).
    pub applies_to: String,
    /// The area within that distance, BW.
    pub outline: Polygon,
}

/// Where a move could end in one going (§7.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ReachOutline {
    /// Good going, or rough or bad (any part of the move in it).
    pub going: Going,
    /// The move allowance, BW.
    pub distance: f64,
    /// The area the move could end in, BW.
    pub outline: Polygon,
}

/// Everything a tool may draw around one element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ElementOutlines {
    /// The element.
    pub id: ElementId,
    /// Its rectangle.
    pub element: Polygon,
    /// Its threat zone (§8.1): one box a projecting edge; none while it is in close combat
    /// (§17.15).
    pub threat_zone: Vec<Polygon>,
    /// Its shooting zone within range (§9.2), one polygon a shooting edge; empty for elements
    /// that do not shoot.
    pub shooting_zone: Vec<Polygon>,
    /// Its shooting range, BW, for those that shoot.
    pub range: Option<f64>,
    /// The command distances, for a general's element (§6.4).
    pub command: Vec<CommandOutline>,
    /// The reach of one tactical move in each going (§7.3).
    pub reach: Vec<ReachOutline>,
}

/// The convex region within `r` of the convex polygon `corners`.
fn offset(corners: &[Point], r: f64) -> Polygon {
    let steps = ARC_STEPS * 4;
    let pts: Vec<Point> = corners
        .iter()
        .flat_map(|c| {
            (0..steps).map(move |k| *c + Point::from_bearing(360.0 * k as f64 / steps as f64) * r)
        })
        .collect();
    convex_hull(&pts)
}

/// The outward unit normal of `edge` of `rect`.
fn outward(rect: &ElementRect, s: &Segment) -> Point {
    let c = rect.corners();
    let centre = (c[0] + c[1] + c[2] + c[3]) * 0.25;
    let d = s.b - s.a;
    let len = d.x.hypot(d.y).max(1e-12);
    let n = Point::new(d.y / len, -d.x / len);
    let mid = (s.a + s.b) * 0.5;
    if (mid - centre).dot(n) >= 0.0 {
        n
    } else {
        n * -1.0
    }
}

/// The 1 BW box straight out from one edge (§8.1).
fn zone_box(rect: &ElementRect, s: &Segment) -> Polygon {
    let n = outward(rect, s);
    Polygon::new(vec![s.a, s.b, s.b + n, s.a + n])
}

/// The shooting zone of one edge within `range` (§9.2): in front of the edge, at most 1 BW beyond
/// either end sideways, within range of the edge's nearest point.
fn shooting_box(rect: &ElementRect, s: &Segment, range: f64) -> Polygon {
    let n = outward(rect, s);
    let d = s.b - s.a;
    let w = d.x.hypot(d.y).max(1e-12);
    let u = d * (1.0 / w);
    let at = |x: f64, y: f64| s.a + u * x + n * y;
    let height = |x: f64| -> f64 {
        let beyond = if x < 0.0 {
            -x
        } else if x > w {
            x - w
        } else {
            0.0
        };
        (range * range - beyond * beyond).max(0.0).sqrt()
    };
    let lo = -(1.0f64.min(range));
    let hi = w + 1.0f64.min(range);
    let n_pts = ARC_STEPS * 2;
    let mut pts = vec![at(hi, 0.0), at(lo, 0.0)];
    for k in 0..=n_pts {
        let x = lo + (hi - lo) * k as f64 / n_pts as f64;
        pts.push(at(x, height(x)));
    }
    // The flat top between the edge's ends, then the hull keeps it convex.
    pts.push(at(0.0, range));
    pts.push(at(w, range));
    convex_hull(&pts)
}

impl Battle {
    /// The outlines of element `id` where it stands now.
    pub fn outlines(&self, id: ElementId) -> Result<ElementOutlines, BattleError> {
        let e = self.element(id).ok_or(BattleError::UnknownElement { id })?;
        if !e.in_play() {
            return Err(BattleError::ElementLost { id });
        }
        let cfg = &self.setup().config;
        let rect = e.rect(cfg);
        let all_round = e.kind.troop_type() == TroopType::WWg;
        let edges: Vec<Segment> = if all_round {
            [Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
                .iter()
                .map(|&x| rect.edge(x))
                .collect()
        } else {
            vec![rect.edge(Edge::Front)]
        };
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        let idx = self.elements().iter().position(|x| x.id == id).unwrap_or(0);
        let fighting = crate::battle::in_close_combat(&ctx, idx);
        let threat_zone = if fighting {
            Vec::new()
        } else {
            edges.iter().map(|s| zone_box(&rect, s)).collect()
        };
        let range = cfg.shooting_range(e.kind);
        let shooting_zone = range
            .map(|r| edges.iter().map(|s| shooting_box(&rect, s, r)).collect())
            .unwrap_or_default();
        let corners = rect.corners();
        let command = if e.general {
            [
                (COMMAND_DISTANCE, "in_sight"),
                (COMMAND_DISTANCE_SCREENED, "screened"),
                (COMMAND_DISTANCE_LIGHT_HORSE, "light_horse"),
            ]
            .iter()
            .map(|&(limit, who)| CommandOutline {
                limit,
                applies_to: who.to_string(),
                outline: offset(&corners, limit),
            })
            .collect()
        } else {
            Vec::new()
        };
        let reach = [(Going::Good, false), (Going::Rough, true)]
            .iter()
            .map(|&(going, rough)| {
                let distance = cfg.move_distance(e.kind, rough);
                ReachOutline {
                    going,
                    distance,
                    outline: offset(&corners, distance),
                }
            })
            .collect();
        Ok(ElementOutlines {
            id,
            element: rect.polygon(),
            threat_zone,
            shooting_zone,
            range,
            command,
            reach,
        })
    }
}
