//! A picture of a BUGS! table as SVG (BUGS §1, BUGS §14, BUGS §13): the table in inches, the terrain in
//! play, the bug holes, every figure on the table on its 1 in base with its front edge marked,
//! and beside the table a legend of colours and the roster with each figure's Stamina and
//! Willpower. North (+y) is up. Numbers are written with three decimals, so the same encounter
//! always gives the same text.

use std::fmt::Write;

use super::field::AreaKind;
use super::sheets::Sheet;
use super::{Encounter, FigureStatus, HoleState, Outcome};
use crate::svg::{escape, num};

/// Pixels per inch.
const SCALE: f64 = 16.0;
/// Room above the table for the title, pixels.
const TOP: f64 = 56.0;
/// Margin round the table, pixels.
const PAD: f64 = 16.0;
/// Width of the legend, pixels.
const LEGEND: f64 = 330.0;

fn sheet_colour(s: Sheet) -> &'static str {
    match s {
        Sheet::Soldier | Sheet::HeavyWeaponSoldier => "#1f4e9c",
        Sheet::Colonist => "#2e8b8b",
        Sheet::Citizen | Sheet::CitizenWithPistol => "#5fa8e0",
        Sheet::BigUn => "#8b1a1a",
        Sheet::LittleUn => "#d2691e",
    }
}

fn area_colour(k: AreaKind) -> &'static str {
    match k {
        AreaKind::Jungle => "#4f8a35",
        AreaKind::Swamp => "#6e9583",
        AreaKind::Rocky => "#9b9184",
        AreaKind::Mountain => "#6d5a45",
        AreaKind::Building => "#857a70",
        AreaKind::Hill => "#cdbb86",
        AreaKind::Cover => "#a88b4f",
    }
}

/// The picture of the encounter as it stands.
pub fn svg(e: &Encounter) -> String {
    let w = e.field().width;
    let d = e.field().depth;
    let x = |v: f64| PAD + v * SCALE;
    let y = |v: f64| TOP + (d - v) * SCALE;
    let width = PAD * 3.0 + w * SCALE + LEGEND;
    let roster_h = 22.0 + 15.0 * e.figures().len() as f64 + 260.0;
    let height = (TOP + d * SCALE + PAD).max(TOP + roster_h);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif">"##,
        num(width),
        num(height),
        num(width),
        num(height)
    );
    let _ = write!(s, r##"<rect width="100%" height="100%" fill="#fbfaf5"/>"##);
    let v = e.verdict();
    let status = match (v.over, v.outcome) {
        (true, Some(Outcome::Success)) => {
            format!("over after turn {}: success ({})", v.turn, v.why)
        }
        (true, _) => format!("over after turn {}: failure ({})", v.turn, v.why),
        _ => format!("turn {}", e.turn()),
    };
    let board = e.board().map(|b| b.name()).unwrap_or("not yet rolled");
    let _ = write!(
        s,
        r##"<text x="{}" y="24" font-size="18" font-weight="bold">BUGS! — {}</text><text x="{}" y="44" font-size="13">{} · board: {} · table {} × {} in</text>"##,
        num(PAD),
        escape(e.setup().encounter.name()),
        num(PAD),
        escape(&status),
        escape(board),
        w,
        d
    );
    // The table.
    let _ = write!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#e9e2c6" stroke="#444" stroke-width="2"/>"##,
        num(x(0.0)),
        num(y(d)),
        num(w * SCALE),
        num(d * SCALE)
    );
    // A 6 in grid, to measure by eye.
    let mut g = 6.0;
    while g < w {
        let _ = write!(
            s,
            r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#d8cfae" stroke-width="1"/>"##,
            num(x(g)),
            num(y(d)),
            num(y(0.0))
        );
        g += 6.0;
    }
    let mut g = 6.0;
    while g < d {
        let _ = write!(
            s,
            r##"<line x1="{1}" y1="{0}" x2="{2}" y2="{0}" stroke="#d8cfae" stroke-width="1"/>"##,
            num(y(g)),
            num(x(0.0)),
            num(x(w))
        );
        g += 6.0;
    }
    // Terrain in play.
    let board = e.board();
    let mut kinds: Vec<AreaKind> = Vec::new();
    for a in e
        .setup()
        .areas
        .iter()
        .filter(|a| a.only_on.is_none() || a.only_on == board)
    {
        if !kinds.contains(&a.kind) {
            kinds.push(a.kind);
        }
        let pts: Vec<String> = a
            .outline
            .iter()
            .map(|p| format!("{},{}", num(x(p.x)), num(y(p.y))))
            .collect();
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="{}" fill-opacity="0.75" stroke="#3b3b3b" stroke-width="1"/>"##,
            pts.join(" "),
            area_colour(a.kind)
        );
        if let Some(p) = a.outline.first() {
            let _ = write!(
                s,
                r##"<text x="{}" y="{}" font-size="10" fill="#222">{}</text>"##,
                num(x(p.x) + 3.0),
                num(y(p.y) - 3.0),
                escape(&a.name)
            );
        }
    }
    // Bug holes.
    for h in e.holes() {
        let (Some(p), HoleState::Open { .. }) = (h.at, h.state) else {
            continue;
        };
        let _ = write!(
            s,
            r##"<circle cx="{}" cy="{}" r="{}" fill="#2a1a0b" stroke="#7a4a12" stroke-width="3"/><text x="{}" y="{}" font-size="11" fill="#2a1a0b" font-weight="bold">hole {} · owes {}</text>"##,
            num(x(p.x)),
            num(y(p.y)),
            num(0.65 * SCALE),
            num(x(p.x) + 16.0),
            num(y(p.y) + 4.0),
            h.id,
            h.owes
        );
    }
    // Figures on the table.
    for f in e.figures().iter().filter(|f| f.on_table()) {
        let half = 0.5 * SCALE;
        let stroke = if f.leader { "#e0b000" } else { "#111" };
        let dash = if f.running {
            r##" stroke-dasharray="3,2""##
        } else {
            ""
        };
        let _ = write!(
            s,
            r##"<g transform="translate({},{}) rotate({})"><rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="{}" stroke-width="{}"{}/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#ffffff" stroke-width="3"/></g>"##,
            num(x(f.at.x)),
            num(y(f.at.y)),
            num(f.facing),
            num(-half),
            num(-half),
            num(SCALE),
            num(SCALE),
            sheet_colour(f.sheet),
            stroke,
            if f.leader { "2.5" } else { "1" },
            dash,
            num(-half + 2.0),
            num(-half + 1.5),
            num(half - 2.0),
            num(-half + 1.5)
        );
        if f.knocked_down {
            let _ = write!(
                s,
                r##"<path d="M{} {} l{} {} M{} {} l{} {}" stroke="#ffdd00" stroke-width="2"/>"##,
                num(x(f.at.x) - half),
                num(y(f.at.y) - half),
                num(SCALE),
                num(SCALE),
                num(x(f.at.x) + half),
                num(y(f.at.y) - half),
                num(-SCALE),
                num(SCALE)
            );
        }
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="9" fill="#fff" text-anchor="middle" font-weight="bold">{}</text>"##,
            num(x(f.at.x)),
            num(y(f.at.y) + 3.0),
            f.id.0
        );
    }
    // The legend: colours, then the roster.
    let lx = PAD * 2.0 + w * SCALE;
    let mut ly = TOP + 4.0;
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="14" font-weight="bold">Legend</text>"##,
        num(lx),
        num(ly + 10.0)
    );
    ly += 24.0;
    let swatch = |s: &mut String, colour: &str, label: &str, ly: &mut f64| {
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="14" height="14" fill="{}" stroke="#111"/><text x="{}" y="{}" font-size="12">{}</text>"##,
            num(lx),
            num(*ly),
            colour,
            num(lx + 20.0),
            num(*ly + 11.0),
            escape(label)
        );
        *ly += 18.0;
    };
    for (sheet, label) in [
        (Sheet::Soldier, "soldier (1 in base; white edge = front)"),
        (Sheet::Colonist, "colonist"),
        (Sheet::Citizen, "citizen"),
        (Sheet::BigUn, "big un"),
        (Sheet::LittleUn, "little un"),
    ] {
        swatch(&mut s, sheet_colour(sheet), label, &mut ly);
    }
    let _ = write!(
        s,
        r##"<rect x="{}" y="{}" width="14" height="14" fill="#fff" stroke="#e0b000" stroke-width="2.5"/><text x="{}" y="{}" font-size="12">gold border: leader; dashed: running away</text>"##,
        num(lx),
        num(ly),
        num(lx + 20.0),
        num(ly + 11.0)
    );
    ly += 18.0;
    let _ = write!(
        s,
        r##"<circle cx="{}" cy="{}" r="7" fill="#2a1a0b" stroke="#7a4a12" stroke-width="2"/><text x="{}" y="{}" font-size="12">bug hole</text>"##,
        num(lx + 7.0),
        num(ly + 7.0),
        num(lx + 20.0),
        num(ly + 11.0)
    );
    ly += 18.0;
    for k in kinds {
        swatch(&mut s, area_colour(k), k.name(), &mut ly);
    }
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="12" fill="#555">grid: 6 in squares</text>"##,
        num(lx),
        num(ly + 11.0)
    );
    ly += 28.0;
    let _ = write!(
        s,
        r##"<text x="{}" y="{}" font-size="14" font-weight="bold">Figures (Stamina / Willpower)</text>"##,
        num(lx),
        num(ly)
    );
    ly += 16.0;
    for f in e.figures() {
        let state = match f.status {
            FigureStatus::OnTable if f.running => "running".to_string(),
            FigureStatus::OnTable if f.knocked_down => "knocked down".to_string(),
            FigureStatus::OnTable => String::new(),
            FigureStatus::Dead => "dead".to_string(),
            FigureStatus::RanOff => "ran off".to_string(),
            FigureStatus::Exited { edge } => format!("left by the {} edge", edge.name()),
        };
        let colour = if f.on_table() { "#111" } else { "#888" };
        // Below 0 Stamina is still counted (BUGS.md §10.4, R22): a figure dies when it reaches
        // minus its starting Stamina, so the legend says how far it has to go.
        // Printed with a true minus sign, as the limit beside it is.
        let now = if f.stam < 0 {
            format!("−{}", f.stam.unsigned_abs())
        } else {
            f.stam.to_string()
        };
        let stamina = if f.stam < 0 && f.status != FigureStatus::Dead {
            format!("{now}/{} (dies at −{})", f.stam_start, f.stam_start)
        } else {
            format!("{now}/{}", f.stam_start)
        };
        let _ = write!(
            s,
            r##"<text x="{}" y="{}" font-size="11" fill="{}"><tspan fill="{}" font-weight="bold">#{}</tspan> {} — {} · {}/{} {}</text>"##,
            num(lx),
            num(ly),
            colour,
            sheet_colour(f.sheet),
            f.id.0,
            escape(&f.name),
            stamina,
            f.will,
            f.will_start,
            escape(&state)
        );
        ly += 15.0;
    }
    s.push_str("</svg>\n");
    s
}
