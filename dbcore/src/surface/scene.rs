//! What a table draws and asks while a player handles the models: the whole scene at any stage
//! (`scene`), where an element or group may go now (`destinations`), where a dropped base would
//! legally go (`snap`) and the zones round an element (`outlines`). Each answer only reads the
//! game or asks the battle's own queries (`Battle::legal_actions_of`, `Battle::farthest_step`,
//! `Battle::snap`, `Battle::outlines`): a page that draws them decides nothing.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::battle::{Battle, CheckedAction, ElementId, Prebattle};
use crate::battlefield::{Battlefield, BoardEdge};
use crate::config::RulesConfig;
use crate::game::AnyBattle;
use crate::geometry::{ElementRect, Point, Pose};
use crate::svg::SIDE_COLOURS;
use crate::table::Table;
use crate::troops::ElementKind;

use super::session::Session;
use super::{to_value, Answer, SurfaceError};

/// Pixels per BW and the margin round the board (BW) of the terrain picture `scene` gives; a
/// page draws its own marks in the same frame: `x_px = (x + margin) * scale`,
/// `y_px = (depth - y + margin) * scale`.
const SCALE: f64 = 40.0;
const MARGIN: f64 = 1.0;

/// Bearings `destinations` tries for a group when none are asked for.
const GROUP_BEARINGS: u32 = 8;

fn argument(message: impl Into<String>) -> SurfaceError {
    SurfaceError::argument(message)
}

fn point(p: Point) -> Value {
    json!({"x": p.x, "y": p.y})
}

fn corners(pose: Pose, depth: f64) -> Value {
    Value::Array(
        ElementRect::new(pose, 1.0, depth)
            .corners()
            .iter()
            .map(|&p| point(p))
            .collect(),
    )
}

/// The facing of an element that looks away from its base edge across the table.
fn facing_from(board: &crate::battlefield::Board, edge: BoardEdge) -> f64 {
    let v = board.inward(edge);
    v.x.atan2(v.y).to_degrees().rem_euclid(360.0)
}

/// The terrain as dbcore draws it (board, grid, features), without elements or key.
fn terrain_svg(bf: &Battlefield, cfg: &RulesConfig, plough_is_rough: bool) -> String {
    Table {
        battlefield: bf.clone(),
        elements: Vec::new(),
        plough_is_rough,
    }
    .svg(cfg, false)
}

/// Where the game stands, drawn: the board and its terrain (as SVG in the frame given), each
/// army with its colour and base edge, the camps, every element (placed or not yet deployed)
/// with its four corners, and in the pre-battle the quarters features are placed in.
pub fn scene(s: &Session) -> Answer {
    if let Some(p) = s.prebattle() {
        return prebattle_scene(p);
    }
    match s.battle() {
        Some(AnyBattle::Dba(b)) => battle_scene(b),
        Some(AnyBattle::Dbaix(b)) => {
            let cfg = &b.setup().config;
            Ok(json!({
                "game": "dbaix",
                "board": {"width": cfg.table_width, "depth": cfg.table_depth},
                "frame": {"scale": crate::dbaix::svg::SCALE, "margin": 0.0},
                "terrain_svg": crate::dbaix::svg::table_svg(b),
                "armies": crate::dbaix::Side::ALL.iter().enumerate().map(|(i, side)| json!({
                    "name": format!("{side:?}"),
                    "colour": SIDE_COLOURS[i % SIDE_COLOURS.len()],
                    "base_edge": null,
                    "facing": null,
                })).collect::<Vec<_>>(),
                "camps": [],
                "elements": [],
                "quarters": [],
            }))
        }
        None => Err(argument("there is no table yet")),
    }
}

fn army_value(
    name: &str,
    index: usize,
    board: &crate::battlefield::Board,
    edge: Option<BoardEdge>,
) -> Value {
    json!({
        "name": name,
        "colour": SIDE_COLOURS[index % SIDE_COLOURS.len()],
        "base_edge": edge,
        "facing": edge.map(|e| facing_from(board, e)),
    })
}

fn battle_scene(b: &Battle) -> Answer {
    let setup = b.setup();
    let cfg = &setup.config;
    let bf = &setup.battlefield;
    let armies: Vec<Value> = setup
        .armies
        .iter()
        .enumerate()
        .map(|(i, a)| army_value(&a.name, i, &bf.board, Some(a.base_edge)))
        .collect();
    let camps: Vec<Value> = b
        .camp_refs()
        .into_iter()
        .map(|c| {
            json!({
                "army": c.army,
                "command": c.command.map(|id| id.0),
                "outline": c.outline.points.iter().map(|&p| point(p)).collect::<Vec<_>>(),
                "sacked": b.camp_is_sacked(c.army, c.command),
            })
        })
        .collect();
    let mut elements = Vec::with_capacity(b.elements().len());
    for e in b.elements() {
        let depth = cfg.depth(e.kind);
        elements.push(json!({
            "id": e.id.0,
            "army": e.army,
            "kind": e.kind,
            "general": e.general,
            "command": b.command_of(e.id).map(|c| c.id.0),
            "pose": e.pose,
            "depth": depth,
            "corners": corners(e.pose, depth),
            "status": to_value(&e.status)?,
        }));
    }
    Ok(json!({
        "game": "dba",
        "board": {"width": bf.board.width, "depth": bf.board.depth},
        "frame": {"scale": SCALE, "margin": MARGIN},
        "terrain_svg": terrain_svg(bf, cfg, b.plough_rough()),
        "armies": armies,
        "camps": camps,
        "elements": elements,
        "quarters": [],
    }))
}

fn prebattle_scene(p: &Prebattle) -> Answer {
    let setup = p.setup();
    let cfg = &setup.config;
    let bf = p.battlefield();
    let board = &bf.board;
    let armies: Vec<Value> = setup
        .armies
        .iter()
        .enumerate()
        .map(|(i, a)| army_value(&a.name, i, board, p.base_edge(i)))
        .collect();
    let mut camps = Vec::new();
    for (army, entry) in setup.armies.iter().enumerate() {
        let outline = |poly: &crate::geometry::Polygon| -> Vec<Value> {
            poly.points.iter().map(|&q| point(q)).collect()
        };
        if let Some(c) = p.camp(army) {
            camps.push(
                json!({"army": army, "command": null, "outline": outline(c), "sacked": false}),
            );
        }
        for c in &entry.commands {
            if let Some(k) = p.command_camp(army, c.id) {
                camps.push(json!({"army": army, "command": c.id.0, "outline": outline(k), "sacked": false}));
            }
        }
    }
    let mut elements = Vec::new();
    for (army, entry) in setup.armies.iter().enumerate() {
        for (index, e) in entry.elements.iter().enumerate() {
            let kind: ElementKind = e.kind;
            let depth = cfg.depth(kind);
            let pose = p.pose(army, index);
            elements.push(json!({
                "id": crate::battle::prebattle::element_id(army, index).0,
                "army": army,
                "kind": kind,
                "general": e.general,
                "command": entry.command_of(index).map(|c| c.id.0),
                "pose": pose,
                "depth": depth,
                "corners": pose.map(|q| corners(q, depth)),
                "status": if pose.is_some() { json!({"status": "in_play"}) } else { json!({"status": "undeployed"}) },
            }));
        }
    }
    // Features are laid with the quarters numbered from the placement seat (§1.2, §3.8).
    let quarters: Vec<Value> = (1..=4u8)
        .filter_map(|q| {
            let poly = board.quarter_polygon(
                crate::battlefield::Quarter(q),
                crate::battle::prebattle::placement::PLACEMENT_SEAT,
            )?;
            Some(json!({"quarter": q, "outline": poly.points.iter().map(|&x| point(x)).collect::<Vec<_>>()}))
        })
        .collect();
    Ok(json!({
        "game": "dba",
        "board": {"width": board.width, "depth": board.depth},
        "frame": {"scale": SCALE, "margin": MARGIN},
        "terrain_svg": terrain_svg(bf, cfg, false),
        "armies": armies,
        "camps": camps,
        "elements": elements,
        "quarters": quarters,
    }))
}

/// Parameters of `destinations`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Destinations {
    /// One element: its concrete legal moves.
    #[serde(default)]
    element: Option<u32>,
    /// A group (two or more side by side): its farthest steps on `bearings` bearings.
    #[serde(default)]
    ids: Option<Vec<u32>>,
    /// Extra bearings to try (evenly round the compass), as `reach` does.
    #[serde(default)]
    bearings: Option<u32>,
}

/// One checked move as a page draws it: the action, its notation, what it costs and where every
/// mover ends (pose and corners).
fn destination(b: &Battle, c: &CheckedAction) -> Answer {
    let action = to_value(c.action())?;
    let events = to_value(&c.events())?;
    let mut movers: Vec<Value> = Vec::new();
    let mut pips = 0u64;
    let mut into_contact = false;
    let cfg = &b.setup().config;
    for ev in events.as_array().into_iter().flatten() {
        match ev.get("event").and_then(Value::as_str) {
            Some("moved") => {
                into_contact |= ev
                    .get("into_contact")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                for m in ev
                    .get("moves")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let Some(id) = m.get("id").and_then(Value::as_u64) else {
                        continue;
                    };
                    let Ok(to) = serde_json::from_value::<Pose>(m["to"].clone()) else {
                        continue;
                    };
                    let kind = match m.get("becomes") {
                        Some(k) if !k.is_null() => {
                            serde_json::from_value::<ElementKind>(k.clone()).ok()
                        }
                        _ => None,
                    }
                    .or_else(|| b.element(ElementId(id as u32)).map(|e| e.kind));
                    let depth = kind.map_or(0.5, |k| cfg.depth(k));
                    movers.push(json!({"id": id, "to": to, "corners": corners(to, depth)}));
                }
            }
            Some("pips_spent") => {
                pips += ev
                    .pointer("/cost/total")
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
            }
            _ => {}
        }
    }
    let order_type = action
        .pointer("/order/type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    Ok(json!({
        "action": action,
        "text": crate::battle::notation::describe(c.action()),
        "order": order_type,
        "into_contact": into_contact,
        "target": action.pointer("/order/target").cloned().unwrap_or(Value::Null),
        "pips": pips,
        "movers": movers,
    }))
}

/// Where an element or a group may go now: each concrete legal move with the poses it ends in.
pub(super) fn destinations(s: &Session, p: Destinations) -> Answer {
    let Some(AnyBattle::Dba(b)) = s.battle() else {
        return Err(argument("`destinations` is offered in a DBA battle"));
    };
    let b: &Battle = b;
    let mut checked: Vec<CheckedAction> = Vec::new();
    let ids: Vec<ElementId> = match (p.element, p.ids) {
        (Some(id), None) => vec![ElementId(id)],
        (None, Some(ids)) if !ids.is_empty() => ids.into_iter().map(ElementId).collect(),
        _ => {
            return Err(argument(
                "`destinations` takes `element` (one) or `ids` (a group), not both",
            ))
        }
    };
    if ids.len() > crate::limits::MAX_ORDER_LENGTH {
        return Err(argument(format!(
            "a group moves at most {} elements",
            crate::limits::MAX_ORDER_LENGTH
        )));
    }
    for id in &ids {
        if b.element(*id).is_none() {
            return Err(SurfaceError::new(
                crate::ErrorCode::UnknownElement,
                format!("there is no element {}", id.0),
            ));
        }
    }
    if ids.len() == 1 {
        checked.extend(b.legal_actions_of_checked(ids[0]));
    }
    let extra = match (ids.len(), p.bearings) {
        (1, None) => 0,
        (_, Some(n)) => n.clamp(1, 72),
        (_, None) => GROUP_BEARINGS,
    };
    if extra > 0 && b.phase() == crate::battle::Phase::Movement {
        let facing = b.element(ids[0]).map_or(0.0, |e| e.pose.facing);
        for k in 0..extra {
            let bearing = (facing + f64::from(k) * 360.0 / f64::from(extra)).rem_euclid(360.0);
            if let Some(step) = b.farthest_step(&ids, bearing) {
                if !checked.iter().any(|c| c.action() == step.action.action()) {
                    checked.push(step.action);
                }
            }
        }
    }
    let out: Vec<Value> = checked
        .iter()
        .map(|c| destination(b, c))
        .collect::<Result<_, _>>()?;
    Ok(json!({ "destinations": out }))
}

/// Parameters of `snap`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SnapParams {
    element: u32,
    pose: Pose,
    #[serde(default)]
    within: Option<f64>,
}

/// Where element `element`, dropped at `pose`, would legally go (`Battle::snap`), with its
/// corners there and the action that takes it there.
pub(super) fn snap(s: &Session, p: SnapParams) -> Answer {
    let Some(AnyBattle::Dba(b)) = s.battle() else {
        return Err(argument("`snap` is offered in a DBA battle"));
    };
    let within = p.within.unwrap_or(1.0);
    if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
        return Err(argument("`within` is 0 to 4 BW"));
    }
    if ![p.pose.x, p.pose.y, p.pose.facing]
        .iter()
        .all(|v| v.is_finite())
    {
        return Err(argument("the dropped pose must be finite numbers"));
    }
    let snap = b
        .snap(ElementId(p.element), p.pose, within)
        .map_err(|e| SurfaceError::of(&e))?;
    let depth = b
        .element(ElementId(p.element))
        .map_or(0.5, |e| b.setup().config.depth(e.kind));
    let action = crate::battle::Action::Move {
        order: snap.order.clone(),
    };
    Ok(json!({
        "pose": snap.pose,
        "corners": corners(snap.pose, depth),
        "action": to_value(&action)?,
        "text": crate::battle::notation::describe(&action),
        "with": to_value(&snap.with)?,
        "events": to_value(&snap.events)?,
    }))
}

/// Parameters of `outlines`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OutlinesParams {
    element: u32,
}

/// The zones round one element (`Battle::outlines`): threat zone, shooting zone, command
/// distance and reach, as polygons in BW.
pub(super) fn outlines(s: &Session, p: OutlinesParams) -> Answer {
    let Some(AnyBattle::Dba(b)) = s.battle() else {
        return Err(argument("`outlines` is offered in a DBA battle"));
    };
    to_value(
        &b.outlines(ElementId(p.element))
            .map_err(|e| SurfaceError::of(&e))?,
    )
}
