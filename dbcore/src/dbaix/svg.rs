//! A picture of a DBAix table (DBAIX.md §0): the table in inches, the paved road, and every
//! figure on the table drawn as its base with a front-edge mark, in its side's colour and
//! labelled by name. Captives are drawn faded behind their guard.

use std::fmt::Write;

use crate::svg::{escape, num};

use super::{Battle, Side, Status};

/// Pixels per inch of the picture.
const SCALE: f64 = 20.0;

fn colour(side: Side) -> &'static str {
    match side {
        Side::Romans => "#b22222",
        Side::Gauls => "#2e7d32",
        Side::Pirates => "#1f4e9c",
    }
}

/// The SVG text of the game's table as it stands.
pub fn table_svg(b: &Battle) -> String {
    let cfg = &b.setup().config;
    let (w, d) = (cfg.table_width, cfg.table_depth);
    // Board y grows north; SVG y grows down.
    let px = |x: f64| num(x * SCALE);
    let py = |y: f64| num((d - y) * SCALE);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        num(w * SCALE),
        num(d * SCALE),
        num(w * SCALE),
        num(d * SCALE)
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{}" height="{}" fill="#e8e2c8" stroke="#555"/>"##,
        num(w * SCALE),
        num(d * SCALE)
    );
    let road = &b.setup().road;
    if road.len() >= 2 {
        let pts: Vec<String> = road
            .iter()
            .map(|p| format!("{},{}", px(p.x), py(p.y)))
            .collect();
        let _ = writeln!(
            out,
            r##"<polyline points="{}" fill="none" stroke="#a89a80" stroke-width="{}"><title>paved road</title></polyline>"##,
            pts.join(" "),
            num(b.setup().road_width * SCALE)
        );
    }
    for f in b.figures() {
        let (opacity, pose) = match f.status {
            Status::OnTable => ("1", f.pose),
            Status::Captured { guard } => match b.figure(guard) {
                Some(g) if g.on_table() => {
                    let back = g.pose.front_mid() - g.pose.forward() * cfg.base_depth;
                    (
                        "0.45",
                        crate::geometry::Pose::new(back.x, back.y, g.pose.facing),
                    )
                }
                _ => continue,
            },
            _ => continue,
        };
        let r = crate::geometry::ElementRect::new(pose, cfg.base_width, cfg.base_depth);
        let pts: Vec<String> = r
            .corners()
            .iter()
            .map(|p| format!("{},{}", px(p.x), py(p.y)))
            .collect();
        let front = r.edge(crate::geometry::Edge::Front);
        let c = r.centre();
        let _ = writeln!(
            out,
            r##"<g opacity="{opacity}"><polygon points="{}" fill="{}" stroke="#222"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#fff" stroke-width="2"/><text x="{}" y="{}" font-size="7" text-anchor="middle" fill="#000">{}</text></g>"##,
            pts.join(" "),
            colour(f.side),
            px(front.a.x),
            py(front.a.y),
            px(front.b.x),
            py(front.b.y),
            px(c.x),
            num((d - c.y) * SCALE - cfg.base_depth * SCALE * 0.7),
            escape(&f.name)
        );
    }
    out.push_str("</svg>\n");
    out
}
