//! A picture of the table as SVG text: board, terrain shaded by going, elements in their sides'
//! colours with their ids, optional threat zones, and an optional key ([`SvgKey`]): a title
//! naming the armies in their colours, the bound, the side to move and the phase above the
//! table, and beside it a legend (sides, commands, troop kinds, terrain present) and the lost
//! elements of each side.
//!
//! [`battlefield_svg`] is a pure function of its inputs; numbers are written with exactly three
//! decimals, so the same table always gives byte-identical output (a snapshot test relies on it).
//! North (+y in the board frame) is at the top of the picture.

use crate::battlefield::{Battlefield, Board, BoardEdge};
use crate::geometry::{Edge, ElementRect, Point, Polygon};
use crate::terrain::{centroid, AreaFeature, AreaKind, Going, GoingContext, TerrainFeature};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// One element to draw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SvgElement {
    /// Where it stands and its size, BW.
    pub rect: ElementRect,
    /// Index of the element's side; picks its colour from [`SIDE_COLOURS`] (cycling).
    pub side: u8,
    /// Text written on the element (e.g. "4Bd").
    pub label: String,
    /// A general's element gets a gold inner border.
    pub general: bool,
    /// Big Battle and Giant: the element's command (§14), drawn as an outline in the command's
    /// colour and its number in a corner. Omitted from JSON when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<u8>,
    /// The element's id, written small by its rear left corner so that a player can name it in
    /// an action. Omitted from JSON (and from the picture) when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
}

/// What the key of the picture says: drawn as a title band above the table and a panel beside
/// it. The terrain kinds present are read from the battlefield itself.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct SvgKey {
    /// The armies by side index (each in its colour from [`SIDE_COLOURS`]).
    pub armies: Vec<SvgArmy>,
    /// The moment, e.g. "Bound 7 · Romans to move · movement, 3 PIPs left"; `None` for a
    /// picture that is not of a battle in progress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The troop kinds shown, by code ("4Bd") and name ("Blades (Solid)"), in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub troop_kinds: Vec<SvgTroopKind>,
    /// The camps on the table (§4.6, §14.3), drawn under the elements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub camps: Vec<SvgCamp>,
}

/// One camp in the picture (§4.6, §14.3): an army's camp outlined in its side's colour, an
/// allied command's own camp in its command's colour, each labelled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct SvgCamp {
    /// Its outline, BW.
    pub outline: Polygon,
    /// Index of its army's side ([`SIDE_COLOURS`]).
    pub side: u8,
    /// The allied command whose own camp it is ([`COMMAND_COLOURS`]); `None` for the army's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<u8>,
    /// Written inside it, e.g. "camp", "camp of command 0 (sacked)".
    pub label: String,
}

/// One army in the key.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct SvgArmy {
    /// The army's name as its set-up gives it.
    pub name: String,
    /// Its elements off the table, each as a short text ("#3 4Bd"), listed beside the table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<String>,
    /// How many of them count as lost (§13.1; elements removed with their command do not,
    /// §14.5).
    #[serde(default)]
    pub losses: u32,
    /// Big Battle and Giant: its commands (§14), each with its outline colour.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<SvgCommand>,
}

/// One command in the key.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct SvgCommand {
    /// The command's number, which picks its colour from [`COMMAND_COLOURS`].
    pub id: u8,
    /// What is said of it, e.g. "command 1 (C-in-C)", "command 2, demoralised".
    pub text: String,
}

/// One troop kind in the key.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct SvgTroopKind {
    /// The code written on the bases, e.g. "4Bd".
    pub code: String,
    /// Its name, e.g. "Blades (Solid)".
    pub name: String,
}

/// Drawing options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SvgOptions {
    /// Pixels per BW.
    pub scale: f64,
    /// Margin round the board, in BW.
    pub margin: f64,
    /// Draw a faint 1 BW grid.
    pub grid: bool,
    /// When given, mark the defender's and invader's base edges and number the quarters (§1.2).
    pub defender_base: Option<BoardEdge>,
    /// Name each area feature in small italics.
    pub feature_labels: bool,
    /// Threat zones (or any areas) to shade, drawn under the elements.
    pub threat_zones: Vec<Polygon>,
    /// Going context for shading (plough drawn rough when `plough_is_rough`).
    pub going: GoingContext,
    /// When given, a title band above the table and a key beside it ([`SvgKey`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<SvgKey>,
    /// What happened lately, drawn over the table: moves, outcome moves, shots, combats and
    /// losses ([`SvgMark`]). Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<SvgMark>,
}

/// A mark of something that happened, drawn over the table so that a picture tells its story.
/// Points are front-edge midpoints (or, for a combat, where the two fronts meet), BW.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "mark", rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum SvgMark {
    /// A tactical move: an arrow in the side's colour.
    Move {
        /// Where the element was.
        from: Point,
        /// Where it ended.
        to: Point,
        /// Its side.
        side: u8,
    },
    /// An outcome move (a recoil, flight or pursuit, §12): a dashed arrow.
    Outcome {
        /// Where the element was.
        from: Point,
        /// Where it ended.
        to: Point,
        /// Its side.
        side: u8,
    },
    /// A shot: a dotted line from shooter to target (§9).
    Shot {
        /// The shooter's front.
        from: Point,
        /// The target's front.
        to: Point,
        /// The shooter's side.
        side: u8,
    },
    /// A close combat fought (§10): a starburst where the two met.
    Combat {
        /// Where.
        at: Point,
    },
    /// An element lost (§13.1): a cross where it stood.
    Lost {
        /// Where.
        at: Point,
    },
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            scale: 40.0,
            margin: 1.0,
            grid: true,
            defender_base: None,
            feature_labels: true,
            threat_zones: Vec::new(),
            going: GoingContext::default(),
            key: None,
            marks: Vec::new(),
        }
    }
}

/// Side colours: red, blue, gold, purple (at least three sides, for DBAix).
pub const SIDE_COLOURS: [&str; 4] = ["#b8322a", "#2c5aa0", "#d89a12", "#6b3fa0"];

/// Outline colours of a side's commands (§14), cycling: distinct from the side colours and
/// from each other.
pub const COMMAND_COLOURS: [&str; 6] = [
    "#f2f2f2", "#2bd1c4", "#f58fd0", "#9be35a", "#ffa24d", "#8fa8ff",
];

const BOARD_FILL: &str = "#dfe8c4";
const GOOD_FILL: &str = "#c2d88e";
const ROUGH_FILL: &str = "#d8b26a";
const BAD_FILL: &str = "#7d6b3a";
const FORT_FILL: &str = "#a7a39a";
const WATER_FILL: &str = "#4f86c6";
const BEACH_FILL: &str = "#efe0ae";
const RIVER_BANK: &str = "#2f5f9a";
const ROAD_COLOUR: &str = "#8a5a2b";

/// Three decimals, never "-0.000".
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.3}");
    if s == "-0.000" {
        "0.000".to_string()
    } else {
        s
    }
}

pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

struct Canvas<'a> {
    board: &'a Board,
    scale: f64,
    margin: f64,
}

impl Canvas<'_> {
    fn x(&self, p: Point) -> f64 {
        (p.x + self.margin) * self.scale
    }
    fn y(&self, p: Point) -> f64 {
        (self.board.depth - p.y + self.margin) * self.scale
    }
    fn xy(&self, p: Point) -> String {
        format!("{},{}", num(self.x(p)), num(self.y(p)))
    }
    fn points(&self, pts: &[Point]) -> String {
        pts.iter()
            .map(|&p| self.xy(p))
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn px(&self, bw: f64) -> String {
        num(bw * self.scale)
    }
}

fn going_fill(g: Option<Going>) -> &'static str {
    match g {
        Some(Going::Good) => GOOD_FILL,
        Some(Going::Rough) => ROUGH_FILL,
        Some(Going::Bad) => BAD_FILL,
        Some(Going::Impassable) => WATER_FILL,
        None => FORT_FILL,
    }
}

fn kind_name(k: AreaKind) -> &'static str {
    match k {
        AreaKind::GentleHill => "gentle hill",
        AreaKind::DifficultHill => "difficult hill",
        AreaKind::Wood => "wood",
        AreaKind::Marsh => "marsh",
        AreaKind::Gully => "gully",
        AreaKind::Dunes => "dunes",
        AreaKind::Oasis => "oasis",
        AreaKind::Rocky => "rocky",
        AreaKind::Scrub => "scrub",
        AreaKind::Boggy => "boggy",
        AreaKind::Enclosures => "enclosures",
        AreaKind::Plough => "plough",
        AreaKind::Hamlet => "hamlet",
        AreaKind::Edifice => "edifice",
        AreaKind::City => "city",
        AreaKind::Fort => "fort",
    }
}

fn draw_area(out: &mut String, c: &Canvas, a: &AreaFeature, opts: &SvgOptions) {
    let fill = going_fill(a.going(opts.going));
    let (stroke, width) = if a.kind.is_bua() {
        ("#3a3a3a", 2.0)
    } else {
        ("#5a5a3a", 1.0)
    };
    let _ = writeln!(
        out,
        r#"<polygon class="terrain {}" points="{}" fill="{}" stroke="{}" stroke-width="{}"/>"#,
        kind_name(a.kind).replace(' ', "-"),
        c.points(&a.outline.points),
        fill,
        stroke,
        num(width)
    );
}

/// The texture laid over a feature so that a player recognises its kind at a glance (the fill
/// colour gives its going).
fn texture(k: AreaKind) -> Option<&'static str> {
    match k {
        AreaKind::Wood | AreaKind::Oasis => Some("trees"),
        AreaKind::Marsh | AreaKind::Boggy => Some("reeds"),
        AreaKind::Rocky | AreaKind::Scrub | AreaKind::Dunes | AreaKind::Gully => Some("dots"),
        AreaKind::Plough | AreaKind::Enclosures => Some("furrows"),
        _ => None,
    }
}

const PATTERNS: &str = r##"<defs>
<pattern id="trees" width="14" height="14" patternUnits="userSpaceOnUse"><circle cx="4" cy="4" r="3" fill="#3f5a22" fill-opacity="0.8"/><circle cx="11" cy="11" r="2.5" fill="#3f5a22" fill-opacity="0.8"/></pattern>
<pattern id="reeds" width="12" height="10" patternUnits="userSpaceOnUse"><path d="M1 5H7M6 9H11" stroke="#2f5f7a" stroke-width="1.2"/></pattern>
<pattern id="dots" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="1.2" fill="#5a4a2a"/><circle cx="8" cy="7" r="0.9" fill="#5a4a2a"/></pattern>
<pattern id="furrows" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 4H8" stroke="#7a6a3a" stroke-width="0.8"/></pattern>
</defs>
"##;

fn draw_area_marks(out: &mut String, c: &Canvas, a: &AreaFeature, opts: &SvgOptions) {
    if let Some(t) = texture(a.kind) {
        let _ = writeln!(
            out,
            r#"<polygon class="texture" points="{}" fill="url(#{})" stroke="none"/>"#,
            c.points(&a.outline.points),
            t
        );
    }
    if a.kind.is_hill() && a.crest.len() >= 2 {
        let colour = if a.going(opts.going) == Some(Going::Bad) {
            "#f0e2b0"
        } else {
            "#4a3a1a"
        };
        let _ = writeln!(
            out,
            r#"<polyline class="crest" points="{}" fill="none" stroke="{}" stroke-width="2.000" stroke-dasharray="8,5"/>"#,
            c.points(&a.crest),
            colour
        );
    }
    for &g in &a.gates {
        let h = 0.15;
        let _ = writeln!(
            out,
            r##"<rect class="gate" x="{}" y="{}" width="{}" height="{}" fill="#1e1e1e"/>"##,
            num(c.x(g) - h * c.scale),
            num(c.y(g) - h * c.scale),
            c.px(2.0 * h),
            c.px(2.0 * h)
        );
    }
    if opts.feature_labels {
        let at = centroid(&a.outline);
        let colour = if a.going(opts.going) == Some(Going::Bad) {
            "#f4eed8"
        } else {
            "#3a3320"
        };
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-family="sans-serif" font-size="{}" font-style="italic" fill="{}" text-anchor="middle">{}</text>"#,
            num(c.x(at)),
            num(c.y(at) + 0.75 * c.scale),
            c.px(0.3),
            colour,
            kind_name(a.kind)
        );
    }
}

/// Draw the table (§1.2, §3) and the given elements as an SVG document.
pub fn battlefield_svg(bf: &Battlefield, elements: &[SvgElement], opts: &SvgOptions) -> String {
    let b = &bf.board;
    let c = Canvas {
        board: b,
        scale: opts.scale,
        margin: opts.margin,
    };
    let total_w = (b.width + 2.0 * opts.margin) * opts.scale;
    let total_h = (b.depth + 2.0 * opts.margin) * opts.scale;
    // The table itself; the key, when asked for, is laid round it at the end.
    let mut out = String::new();
    // Board.
    let _ = writeln!(
        out,
        r##"<polygon class="board" points="{}" fill="{}" stroke="#333333" stroke-width="2.000"/>"##,
        c.points(&b.polygon().points),
        BOARD_FILL
    );
    if opts.grid {
        let mut d = String::new();
        let mut x = 1.0;
        while x < b.width - 1e-9 {
            let _ = write!(
                d,
                "M{} {}V{}",
                num(c.x(Point::new(x, 0.0))),
                num(c.y(Point::new(x, 0.0))),
                num(c.y(Point::new(x, b.depth)))
            );
            x += 1.0;
        }
        let mut y = 1.0;
        while y < b.depth - 1e-9 {
            let _ = write!(
                d,
                "M{} {}H{}",
                num(c.x(Point::new(0.0, y))),
                num(c.y(Point::new(0.0, y))),
                num(c.x(Point::new(b.width, y)))
            );
            y += 1.0;
        }
        let _ = writeln!(
            out,
            r##"<path class="grid" d="{d}" stroke="#b8c29c" stroke-width="0.500" fill="none"/>"##
        );
    }
    // Beaches under everything else; their water is drawn after the rivers.
    for f in &bf.features {
        if let TerrainFeature::Waterway(w) = f {
            if w.beach > 0.0 {
                let _ = writeln!(
                    out,
                    r#"<polygon class="beach" points="{}" fill="{}"/>"#,
                    c.points(&w.with_beach_polygon(b).points),
                    BEACH_FILL
                );
            }
        }
    }
    // Natural area features.
    for f in &bf.features {
        if let TerrainFeature::Area(a) = f {
            if !a.kind.is_bua() {
                draw_area(&mut out, &c, a, opts);
            }
        }
    }
    // Rivers: a darker bank under the water.
    for f in &bf.features {
        if let TerrainFeature::River(r) = f {
            let pts = c.points(&r.course);
            let _ = writeln!(
                out,
                r#"<polyline class="river-bank" points="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round" stroke-linecap="butt"/>"#,
                pts,
                RIVER_BANK,
                num(r.width * c.scale + 3.0)
            );
            let _ = writeln!(
                out,
                r##"<polyline class="river" points="{}" fill="none" stroke="#6fa3dc" stroke-width="{}" stroke-linejoin="round" stroke-linecap="butt"/>"##,
                pts,
                num(r.width * c.scale)
            );
        }
    }
    // Waterways over the mouths of rivers that flow into them.
    for f in &bf.features {
        if let TerrainFeature::Waterway(w) = f {
            let _ = writeln!(
                out,
                r##"<polygon class="waterway" points="{}" fill="{}" stroke="{}" stroke-width="1.500"/>"##,
                c.points(&w.water_polygon(b).points),
                WATER_FILL,
                RIVER_BANK
            );
        }
    }
    // Roads.
    for f in &bf.features {
        if let TerrainFeature::Road(r) = f {
            let dash = match r.surface {
                crate::terrain::RoadSurface::Paved => "",
                crate::terrain::RoadSurface::Track => r#" stroke-dasharray="10,4""#,
            };
            let _ = writeln!(
                out,
                r#"<polyline class="road" points="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round"{}/>"#,
                c.points(&r.path),
                ROAD_COLOUR,
                num(r.width * c.scale),
                dash
            );
        }
    }
    // BUAs over roads (roads run gate to gate).
    for f in &bf.features {
        if let TerrainFeature::Area(a) = f {
            if a.kind.is_bua() {
                draw_area(&mut out, &c, a, opts);
            }
        }
    }
    for f in &bf.features {
        if let TerrainFeature::Area(a) = f {
            draw_area_marks(&mut out, &c, a, opts);
        }
    }
    if let Some(def) = opts.defender_base {
        // Quarter numbers near the board's corners, out of the way of the terrain.
        for p in [
            Point::new(0.5, 0.5),
            Point::new(0.5, b.depth - 0.5),
            Point::new(b.width - 0.5, b.depth - 0.5),
            Point::new(b.width - 0.5, 0.5),
        ] {
            let q = b.quarter(p, def);
            let _ = writeln!(
                out,
                r##"<text class="quarter" x="{}" y="{}" font-family="sans-serif" font-size="{}" font-weight="bold" fill="#6d7a4f" text-anchor="middle" dominant-baseline="central">{}</text>"##,
                num(c.x(p)),
                num(c.y(p)),
                c.px(0.5),
                q.0
            );
        }
        let (a0, a1) = b.edge_segment(BoardEdge::South);
        let (b0, _) = b.edge_segment(BoardEdge::North);
        let mid = (a0 + a1) * 0.5;
        let mid_top = Point::new(mid.x, b0.y);
        let (w0, _) = b.edge_segment(BoardEdge::West);
        let west_mid = Point::new(w0.x, b.depth * 0.5);
        let east_mid = Point::new(b.width, b.depth * 0.5);
        let _ = writeln!(
            out,
            r##"<path class="quarter-lines" d="M{} {}L{} {}M{} {}L{} {}" stroke="#6d7a4f" stroke-width="0.800" stroke-dasharray="2,6" fill="none"/>"##,
            num(c.x(mid)),
            num(c.y(mid)),
            num(c.x(mid_top)),
            num(c.y(mid_top)),
            num(c.x(west_mid)),
            num(c.y(west_mid)),
            num(c.x(east_mid)),
            num(c.y(east_mid))
        );
        let cl = b.centre_line(def);
        let _ = writeln!(
            out,
            r##"<line class="centre-line" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#6d7a4f" stroke-width="1.000" stroke-dasharray="3,6"/>"##,
            num(c.x(cl.a)),
            num(c.y(cl.a)),
            num(c.x(cl.b)),
            num(c.y(cl.b))
        );
        for (edge, text) in [
            (def, "defender's base edge"),
            (def.opposite(), "invader's base edge"),
        ] {
            let (a, e) = b.edge_segment(edge);
            let mid = (a + e) * 0.5 - b.inward(edge) * (opts.margin * 0.5);
            let rot = match edge {
                BoardEdge::South | BoardEdge::North => 0.0,
                BoardEdge::West => -90.0,
                BoardEdge::East => 90.0,
            };
            let _ = writeln!(
                out,
                r##"<text class="edge-label" x="{x}" y="{y}" font-family="sans-serif" font-size="{}" fill="#333333" text-anchor="middle" dominant-baseline="middle" transform="rotate({} {x} {y})">{}</text>"##,
                c.px(0.35),
                num(rot),
                text,
                x = num(c.x(mid)),
                y = num(c.y(mid)),
            );
        }
    }
    for z in &opts.threat_zones {
        let _ = writeln!(
            out,
            r##"<polygon class="threat-zone" points="{}" fill="#e0402a" fill-opacity="0.18" stroke="#e0402a" stroke-width="1.000" stroke-dasharray="4,3"/>"##,
            c.points(&z.points)
        );
    }
    for camp in opts.key.iter().flat_map(|k| &k.camps) {
        let (stroke, dash) = match camp.command {
            Some(cmd) => (COMMAND_COLOURS[cmd as usize % COMMAND_COLOURS.len()], "6,3"),
            None => (
                SIDE_COLOURS[camp.side as usize % SIDE_COLOURS.len()],
                "none",
            ),
        };
        let class = match camp.command {
            Some(cmd) => format!("camp side-{} command-{cmd}", camp.side),
            None => format!("camp side-{}", camp.side),
        };
        let _ = writeln!(
            out,
            r##"<polygon class="{class}" points="{}" fill="#f1e6c8" fill-opacity="0.85" stroke="{stroke}" stroke-width="2.000" stroke-dasharray="{dash}"/>"##,
            c.points(&camp.outline.points)
        );
        let mid = crate::terrain::centroid(&camp.outline);
        let _ = writeln!(
            out,
            r##"<text class="camp-label" x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="#333333" text-anchor="middle" dominant-baseline="central">{}</text>"##,
            num(c.x(mid)),
            num(c.y(mid)),
            c.px(0.25),
            escape(&camp.label)
        );
    }
    for el in elements {
        let colour = SIDE_COLOURS[el.side as usize % SIDE_COLOURS.len()];
        let r = &el.rect;
        let _ = writeln!(
            out,
            r##"<polygon class="element side-{}" points="{}" fill="{}" stroke="#111111" stroke-width="1.000"/>"##,
            el.side,
            c.points(&r.corners()),
            colour
        );
        if el.general {
            let inset = 0.08_f64.min(r.depth * 0.2);
            let f = r.pose.forward();
            let front = r.pose.front_mid() - f * inset;
            let inner = ElementRect::new(
                crate::geometry::Pose::new(front.x, front.y, r.pose.facing),
                r.width - 2.0 * inset,
                r.depth - 2.0 * inset,
            );
            let _ = writeln!(
                out,
                r##"<polygon class="general" points="{}" fill="none" stroke="#ffd34d" stroke-width="2.000"/>"##,
                c.points(&inner.corners())
            );
        }
        if let Some(cmd) = el.command {
            let inset = 0.03_f64.min(r.depth * 0.1);
            let front = r.pose.front_mid() - r.pose.forward() * inset;
            let outline = ElementRect::new(
                crate::geometry::Pose::new(front.x, front.y, r.pose.facing),
                r.width - 2.0 * inset,
                r.depth - 2.0 * inset,
            );
            let _ = writeln!(
                out,
                r##"<polygon class="command command-{cmd}" points="{}" fill="none" stroke="{}" stroke-width="1.500" stroke-dasharray="3,2"/>"##,
                c.points(&outline.corners()),
                COMMAND_COLOURS[cmd as usize % COMMAND_COLOURS.len()]
            );
            // Its number by the rear right corner, where the label does not reach.
            let corner = r.corners()[2] * 0.8 + r.centre() * 0.2;
            let _ = writeln!(
                out,
                r##"<text class="command-number" x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="{}" text-anchor="middle" dominant-baseline="central">{cmd}</text>"##,
                num(c.x(corner)),
                num(c.y(corner)),
                c.px((r.depth * 0.3).clamp(0.12, 0.2)),
                COMMAND_COLOURS[cmd as usize % COMMAND_COLOURS.len()]
            );
        }
        let front = r.edge(Edge::Front);
        let _ = writeln!(
            out,
            r##"<line class="front" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#111111" stroke-width="4.000" stroke-linecap="butt"/>"##,
            num(c.x(front.a)),
            num(c.y(front.a)),
            num(c.x(front.b)),
            num(c.y(front.b))
        );
        if let Some(id) = el.id {
            let corner = id_corner(r);
            id_mark(
                &mut out,
                (c.x(corner), c.y(corner)),
                (r.depth * 0.3).clamp(0.14, 0.2) * c.scale,
                id,
            );
        }
        let at = r.centre();
        // Shrink long labels to fit the element's width (sans-serif glyphs are about 0.6 em).
        let chars = el.label.chars().count().max(1) as f64;
        let size = (r.depth * 0.45)
            .clamp(0.18, 0.3)
            .min(r.width * 0.9 / (0.6 * chars));
        let _ = writeln!(
            out,
            r##"<text class="label" x="{}" y="{}" font-family="sans-serif" font-size="{}" font-weight="bold" fill="#ffffff" text-anchor="middle" dominant-baseline="central">{}</text>"##,
            num(c.x(at)),
            num(c.y(at)),
            c.px(size),
            escape(&el.label)
        );
    }
    draw_marks(&mut out, &c, &opts.marks);
    draw_compass_and_scale(&mut out, &c, opts);
    match &opts.key {
        None => {
            let mut doc = svg_open(total_w, total_h);
            doc.push_str(&out);
            doc.push_str("</svg>\n");
            doc
        }
        Some(key) => {
            let frame = KeyFrame {
                scale: opts.scale,
                side_colours: &SIDE_COLOURS,
                terrain: terrain_present(bf, opts.going),
                marks: marks(elements, opts),
                lost_noun: ("element", "elements"),
            };
            with_key(&frame, key, &out, total_w, total_h)
        }
    }
}

/// The marks of what happened lately ([`SvgMark`]), over the elements.
fn draw_marks(out: &mut String, c: &Canvas, marks: &[SvgMark]) {
    if marks.is_empty() {
        return;
    }
    let colour = |side: u8| SIDE_COLOURS[side as usize % SIDE_COLOURS.len()];
    for m in marks {
        match m {
            SvgMark::Move { from, to, side } | SvgMark::Outcome { from, to, side } => {
                if from.distance(*to) < 1e-6 {
                    continue;
                }
                let dashed = matches!(m, SvgMark::Outcome { .. });
                let class = if dashed { "mark-outcome" } else { "mark-move" };
                // The head: two short strokes back from the tip.
                let dir = (*to - *from) * (1.0 / from.distance(*to));
                let back = *to - dir * 0.25;
                let side_v = Point::new(-dir.y, dir.x) * 0.12;
                let _ = writeln!(
                    out,
                    r##"<path class="{class}" d="M{} L{} M{} L{} L{}" fill="none" stroke="{}" stroke-width="2.500" stroke-opacity="0.85" stroke-linecap="round"{}/>"##,
                    c.xy(*from).replace(',', " "),
                    c.xy(*to).replace(',', " "),
                    c.xy(back + side_v).replace(',', " "),
                    c.xy(*to).replace(',', " "),
                    c.xy(back - side_v).replace(',', " "),
                    colour(*side),
                    if dashed {
                        r#" stroke-dasharray="6,4""#
                    } else {
                        ""
                    }
                );
            }
            SvgMark::Shot { from, to, side } => {
                let _ = writeln!(
                    out,
                    r##"<line class="mark-shot" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.500" stroke-dasharray="2,3" stroke-opacity="0.9"/>"##,
                    num(c.x(*from)),
                    num(c.y(*from)),
                    num(c.x(*to)),
                    num(c.y(*to)),
                    colour(*side)
                );
            }
            SvgMark::Combat { at } => {
                let r = 0.22 * c.scale;
                let (x, y) = (c.x(*at), c.y(*at));
                let mut d = String::new();
                for k in 0..8 {
                    let a = f64::from(k) * std::f64::consts::PI / 4.0;
                    let len = if k % 2 == 0 { r } else { r * 0.55 };
                    let _ = write!(
                        d,
                        "M{} {}L{} {}",
                        num(x),
                        num(y),
                        num(x + len * a.cos()),
                        num(y + len * a.sin())
                    );
                }
                let _ = writeln!(
                    out,
                    r##"<path class="mark-combat" d="{d}" stroke="#ff8c1a" stroke-width="2.500" stroke-linecap="round"/>"##
                );
            }
            SvgMark::Lost { at } => {
                let r = 0.2 * c.scale;
                let (x, y) = (c.x(*at), c.y(*at));
                let _ = writeln!(
                    out,
                    r##"<path class="mark-lost" d="M{} {}L{} {}M{} {}L{} {}" stroke="#111111" stroke-width="3.000" stroke-linecap="round"/>"##,
                    num(x - r),
                    num(y - r),
                    num(x + r),
                    num(y + r),
                    num(x - r),
                    num(y + r),
                    num(x + r),
                    num(y - r)
                );
            }
        }
    }
}

/// The compass name of each edge (the narration's "north edge") in the margin, and a scale bar
/// of one base width in the bottom margin.
fn draw_compass_and_scale(out: &mut String, c: &Canvas, opts: &SvgOptions) {
    let b = c.board;
    if opts.margin < 0.3 {
        return;
    }
    let size = c.px(0.3);
    for (edge, name) in [
        (BoardEdge::North, "north"),
        (BoardEdge::South, "south"),
        (BoardEdge::West, "west"),
        (BoardEdge::East, "east"),
    ] {
        // Near the edge's left end as seen from outside, clear of the base-edge labels in its
        // middle.
        let (a, e) = b.edge_segment(edge);
        let along = a * 0.85 + e * 0.15;
        let at = along - b.inward(edge) * (opts.margin * 0.5);
        let rot = match edge {
            BoardEdge::South | BoardEdge::North => 0.0,
            BoardEdge::West => -90.0,
            BoardEdge::East => 90.0,
        };
        let _ = writeln!(
            out,
            r##"<text class="compass" x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" font-style="italic" fill="#555555" text-anchor="middle" dominant-baseline="middle" transform="rotate({} {x} {y})">{name}</text>"##,
            num(rot),
            x = num(c.x(at)),
            y = num(c.y(at)),
        );
    }
    // One base width, bottom right, under the south edge.
    let y = c.y(Point::new(0.0, 0.0)) + opts.margin * 0.55 * c.scale;
    let x1 = c.x(Point::new(b.width, 0.0));
    let x0 = x1 - c.scale;
    let tick = 0.08 * c.scale;
    let _ = writeln!(
        out,
        r##"<path class="scale-bar" d="M{} {}V{}H{}V{}" fill="none" stroke="#333333" stroke-width="1.500"/>"##,
        num(x0),
        num(y - tick),
        num(y),
        num(x1),
        num(y - tick)
    );
    let _ = writeln!(
        out,
        r##"<text class="scale-label" x="{}" y="{}" font-family="sans-serif" font-size="{size}" fill="#333333" text-anchor="end" dominant-baseline="middle">1 BW</text>"##,
        num(x0 - 0.1 * c.scale),
        num(y - tick * 0.5),
    );
}

/// `textLength` for a text whose width at the assumed 0.6 em a glyph comes near `room` px, so
/// that a wider font is squeezed to fit instead of running off the canvas; nothing for a text
/// short enough that a font 40 % wider still fits.
fn fitted(text: &str, size_px: f64, room_px: f64) -> String {
    let estimate = text.chars().count() as f64 * 0.6 * size_px;
    if estimate > room_px / 1.4 {
        format!(
            r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
            num(estimate.min(room_px))
        )
    } else {
        String::new()
    }
}

/// The opening of the document: the root element, the texture patterns and the paper.
fn svg_open(w: f64, h: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#,
        w = num(w),
        h = num(h)
    );
    out.push_str(PATTERNS);
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{}" height="{}" fill="#f7f4ec"/>"##,
        num(w),
        num(h)
    );
    out
}

/// Where an element's id is written: by its rear left corner, clear of the centred label and of
/// the command number.
pub(crate) fn id_corner(r: &ElementRect) -> Point {
    r.centre() + (r.corners()[3] - r.centre()) * 0.7
}

/// An element's id, written small in white centred on `at` (px), `size` px high, so that a
/// player can name it in an action.
pub(crate) fn id_mark(out: &mut String, at: (f64, f64), size: f64, id: u32) {
    let _ = writeln!(
        out,
        r##"<text class="element-id" x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="#ffffff" text-anchor="middle" dominant-baseline="central">{id}</text>"##,
        num(at.0),
        num(at.1),
        num(size),
    );
}

/// Height of the title band, BW.
const TITLE_BW: f64 = 1.5;
/// Width of the key panel beside the table, BW.
const PANEL_BW: f64 = 8.0;
/// Text size in the key, BW.
const KEY_TEXT_BW: f64 = 0.3;
/// Line spacing in the key, BW.
const KEY_LINE_BW: f64 = 0.45;

fn going_words(g: Option<Going>) -> &'static str {
    match g {
        Some(Going::Good) => "good going",
        Some(Going::Rough) => "rough going",
        Some(Going::Bad) => "bad going",
        Some(Going::Impassable) => "impassable",
        None => "walled",
    }
}

/// Draws a swatch into the picture given its top left corner and its height, px.
type Swatch<'a> = dyn Fn(&mut String, f64, f64, f64) + 'a;

/// The key panel, written line by line from the top.
struct Panel {
    out: String,
    /// Left edge, px.
    x: f64,
    /// Baseline of the next line, px.
    y: f64,
    scale: f64,
}

impl Panel {
    fn text(&self, size: f64) -> String {
        num(size * self.scale)
    }
    fn heading(&mut self, text: &str) {
        self.y += 0.25 * self.scale;
        let _ = writeln!(
            self.out,
            r##"<text class="key-heading" x="{}" y="{}" font-family="sans-serif" font-size="{}" font-weight="bold" fill="#333333"{}>{}</text>"##,
            num(self.x),
            num(self.y),
            self.text(KEY_TEXT_BW * 1.1),
            fitted(
                text,
                KEY_TEXT_BW * 1.1 * self.scale,
                (PANEL_BW - 0.4) * self.scale
            ),
            escape(text)
        );
        self.y += KEY_LINE_BW * self.scale;
    }
    /// A line of text, indented past a swatch when `swatch` draws one (given its box).
    fn line(&mut self, text: &str, fill: &str, swatch: Option<&Swatch<'_>>) {
        let s = 0.3 * self.scale;
        let mut x = self.x;
        if let Some(draw) = swatch {
            draw(&mut self.out, self.x, self.y - 0.8 * s, s);
            x += s * 1.6;
        }
        let room = self.x + (PANEL_BW - 0.4) * self.scale - x;
        let _ = writeln!(
            self.out,
            r#"<text class="key-text" x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="{}"{}>{}</text>"#,
            num(x),
            num(self.y),
            self.text(KEY_TEXT_BW),
            fill,
            fitted(text, KEY_TEXT_BW * self.scale, room),
            escape(text)
        );
        self.y += KEY_LINE_BW * self.scale;
    }
}

/// Entries joined by ", " into lines of at most `width` characters.
fn packed(entries: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (i, e) in entries.iter().enumerate() {
        let sep = if i + 1 < entries.len() { "," } else { "" };
        let piece = format!("{e}{sep}");
        if !line.is_empty() && line.chars().count() + 1 + piece.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The terrain kinds on the table, in the order they first appear, each with its going and the
/// fill and texture it is drawn with.
fn terrain_present(
    bf: &Battlefield,
    ctx: GoingContext,
) -> Vec<(String, &'static str, Option<&'static str>)> {
    let mut v: Vec<(String, &'static str, Option<&'static str>)> = Vec::new();
    for f in &bf.features {
        let entry = match f {
            TerrainFeature::Area(a) => {
                let g = a.going(ctx);
                (
                    format!("{}, {}", kind_name(a.kind), going_words(g)),
                    going_fill(g),
                    texture(a.kind),
                )
            }
            TerrainFeature::River(_) => ("river".to_string(), "#6fa3dc", None),
            TerrainFeature::Road(r) => (
                match r.surface {
                    crate::terrain::RoadSurface::Paved => "paved road".to_string(),
                    crate::terrain::RoadSurface::Track => "track".to_string(),
                },
                ROAD_COLOUR,
                None,
            ),
            TerrainFeature::Waterway(_) => ("waterway".to_string(), WATER_FILL, None),
        };
        if !v.iter().any(|(name, _, _)| *name == entry.0) {
            v.push(entry);
        }
    }
    v
}

/// A mark of the picture explained in the key: its words and, when it has one, the swatch drawn
/// before them, as the class and the drawing attributes of a small rectangle.
pub(crate) struct KeyMark {
    /// What the mark means, e.g. "gold border: a general".
    pub text: String,
    /// The swatch's class ("key-general") and attributes (`fill="#777777" stroke="#ffd34d"`).
    pub swatch: Option<(&'static str, String)>,
}

/// What the key of a picture needs besides its [`SvgKey`]: the size it is drawn at, the sides'
/// colours, the terrain kinds present and the marks to explain. The standard picture and the
/// DBAix one each fill it from their own table.
pub(crate) struct KeyFrame<'a> {
    /// Pixels per unit of the key's layout (the title band is 1.5 units high, the panel 8 wide).
    pub scale: f64,
    /// The sides' colours by side index (cycling).
    pub side_colours: &'a [&'a str],
    /// The terrain kinds present: the words, the fill and the texture pattern of each.
    pub terrain: Vec<(String, &'static str, Option<&'static str>)>,
    /// The marks, in the order listed.
    pub marks: Vec<KeyMark>,
    /// What a side loses, one and many: ("element", "elements"), or DBAix's figures.
    pub lost_noun: (&'static str, &'static str),
}

/// The marks of the standard picture: the general's border when one is drawn, the front edge
/// and the id, the threat zones when they are shaded.
fn marks(elements: &[SvgElement], opts: &SvgOptions) -> Vec<KeyMark> {
    let mut v = Vec::new();
    if elements.iter().any(|e| e.general) {
        v.push(KeyMark {
            text: "gold border: a general".into(),
            swatch: Some((
                "key-general",
                r##"fill="#777777" stroke="#ffd34d" stroke-width="2.000""##.into(),
            )),
        });
    }
    v.push(KeyMark {
        text: "thick edge: the front; small number: the id".into(),
        swatch: None,
    });
    // The marks of the bound drawn, each kind explained once, in the order of the enum.
    type Kind = (fn(&SvgMark) -> bool, &'static str);
    let kinds: [Kind; 5] = [
        (
            |m| matches!(m, SvgMark::Move { .. }),
            "arrow: a move this bound",
        ),
        (
            |m| matches!(m, SvgMark::Outcome { .. }),
            "dashed: a recoil, flight or pursuit",
        ),
        (|m| matches!(m, SvgMark::Shot { .. }), "dotted line: a shot"),
        (
            |m| matches!(m, SvgMark::Combat { .. }),
            "orange star: a close combat",
        ),
        (
            |m| matches!(m, SvgMark::Lost { .. }),
            "black cross: an element lost",
        ),
    ];
    for (is, text) in kinds {
        if opts.marks.iter().any(is) {
            v.push(KeyMark {
                text: text.into(),
                swatch: None,
            });
        }
    }
    if !opts.threat_zones.is_empty() {
        v.push(KeyMark {
            text: "red shading: threat zones".into(),
            swatch: Some((
                "key-threat-zone",
                r##"fill="#e0402a" fill-opacity="0.18" stroke="#e0402a" stroke-dasharray="4,3""##
                    .into(),
            )),
        });
    }
    v
}

/// The whole document with the title band above the table (`table`, the table's own drawing,
/// `table_w` by `table_h` px) and the key beside it.
pub(crate) fn with_key(
    frame: &KeyFrame<'_>,
    key: &SvgKey,
    table: &str,
    table_w: f64,
    table_h: f64,
) -> String {
    let scale = frame.scale;
    let title_h = TITLE_BW * scale;
    let side_colour = |i: usize| frame.side_colours[i % frame.side_colours.len()];
    let mut panel = Panel {
        out: String::new(),
        x: table_w + 0.2 * scale,
        y: title_h + 0.2 * scale,
        scale,
    };
    // About 0.6 em a glyph.
    let chars = ((PANEL_BW - 0.6) / (0.6 * KEY_TEXT_BW)) as usize;

    panel.heading("Sides");
    for (i, a) in key.armies.iter().enumerate() {
        let colour = side_colour(i);
        let (one, many) = frame.lost_noun;
        let lost = match a.losses {
            1 => format!("1 {one} lost"),
            n => format!("{n} {many} lost"),
        };
        panel.line(
            &format!("{}: {lost}", a.name),
            "#222222",
            Some(&|out: &mut String, x: f64, y: f64, s: f64| {
                let _ = writeln!(
                    out,
                    r##"<rect class="key-side" x="{}" y="{}" width="{}" height="{}" fill="{colour}" stroke="#111111" stroke-width="0.500"/>"##,
                    num(x),
                    num(y),
                    num(s * 1.2),
                    num(s)
                );
            }),
        );
    }
    for (i, a) in key.armies.iter().enumerate() {
        panel.heading(&format!("Lost by {}", a.name));
        if a.lost.is_empty() {
            panel.line("none", "#555555", None);
        }
        for l in packed(&a.lost, chars) {
            panel.line(&l, side_colour(i), None);
        }
    }
    if key.armies.iter().any(|a| !a.commands.is_empty()) {
        panel.heading("Commands");
        for (i, a) in key.armies.iter().enumerate() {
            for cmd in &a.commands {
                let fill = side_colour(i);
                let stroke = COMMAND_COLOURS[cmd.id as usize % COMMAND_COLOURS.len()];
                panel.line(
                    &format!("{}: {}", a.name, cmd.text),
                    "#222222",
                    Some(&|out: &mut String, x: f64, y: f64, s: f64| {
                        let _ = writeln!(
                            out,
                            r##"<rect class="key-command" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.500" stroke-dasharray="3,2"/>"##,
                            num(x),
                            num(y),
                            num(s * 1.2),
                            num(s)
                        );
                    }),
                );
            }
        }
    }
    if !key.troop_kinds.is_empty() {
        panel.heading("Troops");
        for k in &key.troop_kinds {
            panel.line(&format!("{}: {}", k.code, k.name), "#222222", None);
        }
    }
    if !frame.terrain.is_empty() {
        panel.heading("Terrain");
        for (name, fill, tex) in &frame.terrain {
            panel.line(
                name,
                "#222222",
                Some(&|out: &mut String, x: f64, y: f64, s: f64| {
                    let _ = writeln!(
                        out,
                        r##"<rect class="key-terrain" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="#5a5a3a" stroke-width="0.500"/>"##,
                        num(x),
                        num(y),
                        num(s * 1.2),
                        num(s)
                    );
                    if let Some(t) = tex {
                        let _ = writeln!(
                            out,
                            r##"<rect class="key-texture" x="{}" y="{}" width="{}" height="{}" fill="url(#{t})"/>"##,
                            num(x),
                            num(y),
                            num(s * 1.2),
                            num(s)
                        );
                    }
                }),
            );
        }
    }
    panel.heading("Marks");
    for mark in &frame.marks {
        match &mark.swatch {
            None => panel.line(&mark.text, "#222222", None),
            Some((class, attrs)) => panel.line(
                &mark.text,
                "#222222",
                Some(&|out: &mut String, x: f64, y: f64, s: f64| {
                    let _ = writeln!(
                        out,
                        r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
                        num(x),
                        num(y),
                        num(s * 1.2),
                        num(s)
                    );
                }),
            ),
        }
    }

    let total_w = table_w + PANEL_BW * scale;
    let total_h = (title_h + table_h).max(panel.y + 0.3 * scale);
    let mut doc = svg_open(total_w, total_h);
    // The title: the armies in their colours, then the moment.
    let title: Vec<&str> = key.armies.iter().map(|a| a.name.as_str()).collect();
    let _ = write!(
        doc,
        r##"<text class="title" xml:space="preserve" x="{}" y="{}" font-family="sans-serif" font-size="{}" font-weight="bold" fill="#222222"{}>"##,
        num(0.5 * scale),
        num(0.65 * scale),
        num(0.5 * scale),
        fitted(&title.join(" v "), 0.5 * scale, total_w - scale)
    );
    for (i, a) in key.armies.iter().enumerate() {
        if i > 0 {
            doc.push_str("<tspan fill=\"#222222\"> v </tspan>");
        }
        let _ = write!(
            doc,
            r#"<tspan fill="{}">{}</tspan>"#,
            side_colour(i),
            escape(&a.name)
        );
    }
    doc.push_str("</text>\n");
    if let Some(status) = &key.status {
        let _ = writeln!(
            doc,
            r##"<text class="status" x="{}" y="{}" font-family="sans-serif" font-size="{}" fill="#333333"{}>{}</text>"##,
            num(0.5 * scale),
            num(1.2 * scale),
            num(0.35 * scale),
            fitted(status, 0.35 * scale, total_w - scale),
            escape(status)
        );
    }
    let _ = writeln!(
        doc,
        r#"<g class="table" transform="translate(0,{})">"#,
        num(title_h)
    );
    doc.push_str(table);
    doc.push_str("</g>\n");
    doc.push_str(&panel.out);
    doc.push_str("</svg>\n");
    doc
}
