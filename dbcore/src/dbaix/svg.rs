//! A picture of a DBAix table (DBAIX.md §0): the table in inches, the paved road, and every
//! figure on the table drawn as its base with a front-edge mark, in its side's colour, labelled
//! by name and numbered by its id. Captives are drawn faded behind their guard. Above the table
//! a title band names the three sides in their colours and says the moment; beside it a key
//! lists each side's figures out of play, the figures' classes, the terrain and the marks. The
//! band and the key are drawn by the standard picture's own code ([`crate::svg`]).
//!
//! Readings of our own: a side's losses in the key are its figures not free on the table
//! (captured, removed, sent to camp or fled off), the figures the game's end counts against it.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::svg::{escape, id_corner, id_mark, num, with_key, KeyFrame, KeyMark, SvgArmy, SvgKey};

use super::{Battle, FigureClass, Phase, Side, Status};

/// Pixels per inch of the table.
pub(crate) const SCALE: f64 = 20.0;

/// Pixels per unit of the title band and the key (the standard picture's default per BW), so
/// that their text reads at the size it does there.
const KEY_SCALE: f64 = 40.0;

/// The sides' colours, by [`Side::index`].
const COLOURS: [&str; 3] = ["#b22222", "#2e7d32", "#1f4e9c"];

/// The paved road's colour.
const ROAD_COLOUR: &str = "#a89a80";

fn colour(side: Side) -> &'static str {
    COLOURS[side.index()]
}

/// A side's name as the key and the title give it.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::Romans => "Romans",
        Side::Gauls => "Gauls",
        Side::Pirates => "Pirates",
    }
}

/// A figure class as the key lists it: its name and what it is (DBAIX.md §1).
fn class_words(c: FigureClass) -> (&'static str, &'static str) {
    use FigureClass::*;
    match c {
        DubiusStatus => ("Dubius Status", "the Roman commander, an officer"),
        CaligulaMinus => ("Caligula Minus", "the Roman spy"),
        Officer => ("Officer", "a Roman officer"),
        Legionary => ("Legionary", "most Romans"),
        Vitalstatistix => ("Vitalstatistix", "the Gauls' chief"),
        Asterix => ("Asterix", "a Gaul"),
        Obelix => ("Obelix", "a Gaul, who beats by half"),
        Getafix => ("Getafix", "the druid, who brews the potion"),
        Cacofonix => ("Cacofonix", "the bard, whose music binds"),
        Geriatrix => ("Geriatrix", "an old Gaul"),
        GallicWoman => ("Gallic woman", "a Gaul"),
        Gaul => ("Gaul", "most Gauls"),
        Captain => ("Captain", "the Pirates' captain"),
        Pegleg => ("Pegleg", "the old pirate"),
        Pirate => ("Pirate", "most Pirates"),
    }
}

/// What the key says of the game now: the sides, each with its figures out of play ("#12
/// Obelix (removed)"), the classes of the figures, and the moment ("Bound 4 · the Gauls to move
/// · movement, 3 PIPs left").
pub fn svg_key(b: &Battle) -> SvgKey {
    let mut armies: Vec<SvgArmy> = Side::ALL
        .iter()
        .map(|&s| SvgArmy {
            name: side_name(s).to_string(),
            ..SvgArmy::default()
        })
        .collect();
    for f in b.figures() {
        let how = match f.status {
            Status::OnTable => continue,
            Status::Captured { guard } => format!("captured by {guard}"),
            Status::Removed => "removed".to_string(),
            Status::InCamp => "in camp".to_string(),
            Status::FledOff => "fled off".to_string(),
        };
        let a = &mut armies[f.side.index()];
        a.lost.push(format!("{} {} ({how})", f.id, f.name));
        a.losses += 1;
    }
    let classes: BTreeSet<FigureClass> = b.figures().iter().map(|f| f.class).collect();
    let troop_kinds = classes
        .into_iter()
        .map(|c| {
            let (code, name) = class_words(c);
            crate::svg::SvgTroopKind {
                code: code.into(),
                name: name.into(),
            }
        })
        .collect();
    let mover = format!("the {}", side_name(b.active_side()));
    let pips = |n: u8| match n {
        1 => "1 PIP".to_string(),
        n => format!("{n} PIPs"),
    };
    let moment = match b.phase() {
        Phase::Finished { winner: Some(w) } => {
            format!("the game is over: the {} win", side_name(w))
        }
        Phase::Finished { winner: None } => "the game is over, with no winner".to_string(),
        Phase::AwaitingPips => format!("{mover} to move · the PIP roll"),
        Phase::Movement => format!("{mover} to move · movement, {} left", pips(b.pips())),
        Phase::CloseCombat => format!("{mover} to move · close combat"),
    };
    SvgKey {
        armies,
        status: Some(format!("Bound {} · {moment}", b.bound())),
        troop_kinds,
        camps: Vec::new(),
    }
}

/// The SVG text of the game's table as it stands, with its title band and key.
pub fn table_svg(b: &Battle) -> String {
    let cfg = &b.setup().config;
    let (w, d) = (cfg.table_width, cfg.table_depth);
    // Board y grows north; SVG y grows down.
    let px = |x: f64| num(x * SCALE);
    let py = |y: f64| num((d - y) * SCALE);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<rect class="board" x="0" y="0" width="{}" height="{}" fill="#e8e2c8" stroke="#555"/>"##,
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
            r##"<polyline class="road" points="{}" fill="none" stroke="{ROAD_COLOUR}" stroke-width="{}"><title>paved road</title></polyline>"##,
            pts.join(" "),
            num(b.setup().road_width * SCALE)
        );
    }
    let mut captives = false;
    for f in b.figures() {
        let (opacity, pose) = match f.status {
            Status::OnTable => ("1", f.pose),
            Status::Captured { guard } => match b.figure(guard) {
                Some(g) if g.on_table() => {
                    captives = true;
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
        let _ = write!(
            out,
            r##"<g class="figure side-{}" opacity="{opacity}"><polygon points="{}" fill="{}" stroke="#222"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#fff" stroke-width="2"/><text x="{}" y="{}" font-size="7" text-anchor="middle" fill="#000">{}</text>"##,
            f.side.index(),
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
        let corner = id_corner(&r);
        let mut id = String::new();
        id_mark(
            &mut id,
            (corner.x * SCALE, (d - corner.y) * SCALE),
            (cfg.base_depth * 0.3 * SCALE).clamp(5.0, 8.0),
            f.id.0,
        );
        out.push_str(id.trim_end());
        out.push_str("</g>\n");
    }
    let mut marks = vec![KeyMark {
        text: "white edge: the front; small number: the id".into(),
        swatch: None,
    }];
    if captives {
        marks.push(KeyMark {
            text: "faded: a captive, behind its guard".into(),
            swatch: Some((
                "key-captive",
                r##"fill="#777777" fill-opacity="0.45" stroke="#222""##.into(),
            )),
        });
    }
    let frame = KeyFrame {
        scale: KEY_SCALE,
        side_colours: &COLOURS,
        terrain: if road.len() >= 2 {
            vec![("paved road".to_string(), ROAD_COLOUR, None)]
        } else {
            Vec::new()
        },
        marks,
        lost_noun: ("figure", "figures"),
    };
    with_key(&frame, &svg_key(b), &out, w * SCALE, d * SCALE)
}
