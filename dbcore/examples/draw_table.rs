//! Draw a sample DBA table as SVG.
//!
//! ```text
//! cargo run -p dbcore --example draw_table -- [OUTPUT.svg]
//! ```
//!
//! Writes `table.svg` unless another path is given. The table is a legal 15 BW board (it passes
//! `validate_terrain`) with two small armies deployed, one threat zone shaded.

use dbcore::battlefield::{Battlefield, Board, BoardEdge, Variant};
use dbcore::geometry::{ElementRect, Point, Polygon, Pose};
use dbcore::svg::{battlefield_svg, SvgElement, SvgOptions};
use dbcore::terrain::{
    validate_terrain, AreaFeature, AreaKind, River, Road, RoadSurface, TerrainFeature,
};

fn table() -> Battlefield {
    let mut bf = Battlefield::new(Board::default());
    let area = |kind, x, y, rx, ry, rot| {
        TerrainFeature::Area(AreaFeature::ellipse(
            kind,
            Point::new(x, y),
            rx,
            ry,
            rot,
            32,
        ))
    };
    bf.features
        .push(area(AreaKind::GentleHill, 3.8, 11.6, 2.2, 1.6, 10.0));
    bf.features
        .push(area(AreaKind::DifficultHill, 11.5, 11.5, 1.8, 1.6, -25.0));
    bf.features
        .push(area(AreaKind::Wood, 10.5, 3.8, 1.8, 1.5, 0.0));
    bf.features
        .push(area(AreaKind::Scrub, 3.2, 3.4, 1.7, 1.6, 30.0));
    let mut city =
        AreaFeature::rectangle(AreaKind::City, Point::new(13.0, 0.0), Point::new(15.0, 1.8));
    city.gates = vec![Point::new(13.0, 0.9), Point::new(14.0, 1.8)];
    bf.features.push(TerrainFeature::Area(city));
    bf.features.push(TerrainFeature::River(River {
        course: vec![
            Point::new(0.0, 6.8),
            Point::new(3.0, 7.3),
            Point::new(6.0, 6.9),
            Point::new(9.0, 7.6),
            Point::new(12.0, 7.2),
            Point::new(15.0, 7.6),
        ],
        width: 0.6,
        state: None,
    }));
    bf.features.push(TerrainFeature::Road(Road {
        path: vec![
            Point::new(7.5, 0.0),
            Point::new(7.6, 4.0),
            Point::new(7.4, 9.0),
            Point::new(7.8, 15.0),
        ],
        surface: RoadSurface::Paved,
        width: 0.4,
    }));
    bf
}

fn army(
    side: u8,
    y: f64,
    facing: f64,
    labels: &[(&str, f64)],
    general_at: usize,
) -> Vec<SvgElement> {
    let x0 = 6.0 - labels.len() as f64 * 0.5 + 0.5;
    labels
        .iter()
        .enumerate()
        .map(|(i, &(label, depth))| SvgElement {
            rect: ElementRect::new(Pose::new(x0 + i as f64, y, facing), 1.0, depth),
            side,
            label: label.to_string(),
            general: i == general_at,
            command: None,
            id: None,
        })
        .collect()
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "table.svg".to_string());
    let bf = table();
    for p in validate_terrain(&bf, Variant::Standard) {
        eprintln!("terrain problem: {p}");
    }
    let mut elements = army(
        0,
        4.5,
        0.0,
        &[
            ("Ps", 0.5),
            ("4Sp", 0.5),
            ("4Sp", 0.5),
            ("4Bd", 0.5),
            ("3Kn", 0.75),
            ("2LH", 0.75),
        ],
        4,
    );
    elements.extend(army(
        1,
        9.8,
        180.0,
        &[
            ("3Wb", 0.5),
            ("3Wb", 0.5),
            ("3Wb", 0.5),
            ("3Cv", 0.75),
            ("4Ax", 0.5),
            ("2Ps", 0.5),
        ],
        3,
    ));
    // The threat zone of the defender's general, 1 BW in front of it (§8.1), for illustration.
    let g = elements[4].rect;
    let tz = ElementRect::new(Pose::new(g.pose.x, g.pose.y + 1.0, 0.0), 1.0, 1.0);
    let opts = SvgOptions {
        defender_base: Some(BoardEdge::South),
        threat_zones: vec![Polygon::new(tz.corners().to_vec())],
        ..SvgOptions::default()
    };
    let svg = battlefield_svg(&bf, &elements, &opts);
    if let Err(e) = std::fs::write(&path, svg) {
        eprintln!("cannot write {path}: {e}");
        std::process::exit(1);
    }
    println!("wrote {path}");
}
