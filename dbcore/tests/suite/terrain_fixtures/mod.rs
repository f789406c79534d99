//! Tables and elements shared by the terrain, battlefield and SVG tests.
#![allow(dead_code)]

use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{ElementRect, Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, River, Road, RoadSurface, TerrainFeature};

pub fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// An element 1 BW wide with its front-edge midpoint at (x, y), facing `facing`.
pub fn el(x: f64, y: f64, facing: f64, depth: f64) -> ElementRect {
    ElementRect::new(Pose::new(x, y, facing), 1.0, depth)
}

pub fn area(kind: AreaKind, x: f64, y: f64, rx: f64, ry: f64, rot: f64) -> TerrainFeature {
    TerrainFeature::Area(AreaFeature::ellipse(kind, p(x, y), rx, ry, rot, 32))
}

pub fn rect(kind: AreaKind, x0: f64, y0: f64, x1: f64, y1: f64) -> TerrainFeature {
    TerrainFeature::Area(AreaFeature::rectangle(kind, p(x0, y0), p(x1, y1)))
}

/// A legal standard table (DBA3.md §3.2-§3.8): two hills, a wood, scrub, a City in the
/// south-east corner, a river from west to east and a road from south to north.
pub fn legal_table() -> Battlefield {
    let mut bf = Battlefield::new(Board::default());
    bf.features
        .push(area(AreaKind::GentleHill, 3.8, 11.6, 2.2, 1.6, 10.0));
    bf.features
        .push(area(AreaKind::DifficultHill, 11.5, 11.5, 1.8, 1.6, -25.0));
    bf.features
        .push(area(AreaKind::Wood, 10.5, 3.8, 1.8, 1.5, 0.0));
    bf.features
        .push(area(AreaKind::Scrub, 3.2, 3.4, 1.7, 1.6, 30.0));
    let mut city = AreaFeature::rectangle(AreaKind::City, p(13.0, 0.0), p(15.0, 1.8));
    city.gates = vec![p(13.0, 0.9), p(14.0, 1.8)];
    bf.features.push(TerrainFeature::Area(city));
    bf.features.push(TerrainFeature::River(River {
        course: vec![
            p(0.0, 6.8),
            p(3.0, 7.3),
            p(6.0, 6.9),
            p(9.0, 7.6),
            p(12.0, 7.2),
            p(15.0, 7.6),
        ],
        width: 0.6,
        state: None,
    }));
    bf.features.push(TerrainFeature::Road(Road {
        path: vec![p(7.5, 0.0), p(7.6, 4.0), p(7.4, 9.0), p(7.8, 15.0)],
        surface: RoadSurface::Paved,
        width: 0.4,
    }));
    bf
}

/// A table with one of each kind the queries care about, laid out on a large board area so
/// elements can stand round every feature (not a legal table: it is for queries only).
pub fn query_table() -> Battlefield {
    let mut bf = Battlefield::new(Board::default());
    // 0: gentle hill, crest along y = 10 from x = 8 to 12.
    let mut hill = AreaFeature::ellipse(AreaKind::GentleHill, p(10.0, 10.0), 3.0, 2.0, 0.0, 48);
    hill.crest = vec![p(8.0, 10.0), p(12.0, 10.0)];
    bf.features.push(TerrainFeature::Area(hill));
    // 1: wood, a square.
    bf.features.push(rect(AreaKind::Wood, 20.0, 0.0, 24.0, 4.0));
    // 2: rocky.
    bf.features
        .push(rect(AreaKind::Rocky, 24.0, 0.0, 28.0, 4.0));
    // 3: dunes.
    bf.features
        .push(rect(AreaKind::Dunes, 30.0, 0.0, 34.0, 4.0));
    // 4: plough.
    bf.features
        .push(rect(AreaKind::Plough, 36.0, 0.0, 40.0, 4.0));
    // 5: marsh.
    bf.features
        .push(rect(AreaKind::Marsh, 42.0, 0.0, 46.0, 4.0));
    // 6: gully.
    bf.features
        .push(rect(AreaKind::Gully, 48.0, 0.0, 54.0, 2.0));
    // 7: City.
    bf.features
        .push(rect(AreaKind::City, 20.0, 10.0, 22.0, 12.0));
    // 8: river along y = 20, 1 BW wide.
    bf.features.push(TerrainFeature::River(River {
        course: vec![p(0.0, 20.0), p(60.0, 20.0)],
        width: 1.0,
        state: None,
    }));
    // 9: road, bending.
    bf.features.push(TerrainFeature::Road(Road {
        path: vec![p(30.0, 10.0), p(30.0, 14.0), p(34.0, 18.0)],
        surface: RoadSurface::Track,
        width: 0.5,
    }));
    // 10: difficult hill carrying a Fort (11).
    let mut dh = AreaFeature::ellipse(AreaKind::DifficultHill, p(45.0, 12.0), 3.0, 2.5, 0.0, 48);
    dh.crest = vec![p(43.0, 12.0), p(47.0, 12.0)];
    bf.features.push(TerrainFeature::Area(dh));
    let mut fort = AreaFeature::rectangle(AreaKind::Fort, p(44.5, 11.5), p(45.5, 12.5));
    fort.gates = vec![p(45.0, 11.5)];
    bf.features.push(TerrainFeature::Area(fort));
    // 12: difficult hill without a fort.
    let mut dh2 = AreaFeature::ellipse(AreaKind::DifficultHill, p(55.0, 12.0), 3.0, 2.5, 0.0, 48);
    dh2.crest = vec![p(53.0, 12.0), p(57.0, 12.0)];
    bf.features.push(TerrainFeature::Area(dh2));
    bf
}
