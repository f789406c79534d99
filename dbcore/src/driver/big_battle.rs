//! Demonstration set-ups for Big Battle and Giant DBA (§14): three commands a side, 36
//! elements each, deployed on the wider board of the variant.

use crate::armies::{choose_big, default_big_choice, BigArmy, ListId};
use crate::battle::prebattle::ListsError;
use crate::battle::{Action, Battle, CheckedAction, PipAllocation};
use crate::battle::{ArmySetup, BattleSetup, CommandId, CommandSetup, ElementId, ElementSetup};
use crate::battlefield::{Battlefield, Board, BoardEdge, Variant};
use crate::geometry::{Point, Pose};
use crate::terrain::{AreaFeature, AreaKind, TerrainFeature};

/// The kinds of each command's twelve elements: the general first.
const ROMANS: [[&str; 12]; 3] = [
    [
        "Cv", "4Bd", "4Bd", "4Bd", "4Bd", "4Bd", "4Bd", "4Ax", "4Ax", "Ps", "LH", "Art",
    ],
    [
        "Cv", "4Bd", "4Bd", "4Bd", "4Bd", "4Bd", "4Ax", "4Ax", "4Bw", "Ps", "LH", "Cv",
    ],
    [
        "Cv", "4Bd", "4Bd", "4Bd", "4Bd", "4Ax", "4Ax", "4Ax", "Ps", "Ps", "LH", "LH",
    ],
];
const BRITONS: [[&str; 12]; 3] = [
    [
        "LCh", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "Ps", "Ps", "LCh", "LCh",
    ],
    [
        "LCh", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "7Hd", "Ps", "LH", "LCh", "LCh",
    ],
    [
        "LCh", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "3Wb", "Ps", "Ps", "LCh", "LH",
    ],
];

/// One army of three commands, `south` facing north from the south edge or the other way.
/// Each command stands as a line of nine with its general and two more behind, centred on its
/// third of the board, every element well within 8 BW of its general (§14.3).
fn army(name: &str, south: bool, kinds: &[[&str; 12]; 3], width: f64, depth: f64) -> ArmySetup {
    let first_id = if south { 1 } else { 1001 };
    let (front_y, rear_y, facing) = if south {
        (4.0, 2.5, 0.0)
    } else {
        (depth - 4.0, depth - 2.5, 180.0)
    };
    let mut elements = Vec::new();
    let mut commands = Vec::new();
    for (c, kinds) in kinds.iter().enumerate() {
        let centre = width * (2 * c + 1) as f64 / 6.0;
        let ids: Vec<ElementId> = (0..12)
            .map(|i| ElementId(first_id + 100 * c as u32 + i))
            .collect();
        for (i, code) in kinds.iter().enumerate() {
            let (x, y) = match i {
                0 => (centre, rear_y),
                1..=9 => (centre + (i as f64 - 5.0), front_y),
                10 => (centre - 2.0, rear_y),
                _ => (centre + 2.0, rear_y),
            };
            elements.push(ElementSetup {
                id: ids[i],
                kind: code.parse().expect("demonstration codes are valid"),
                pose: Pose::new(x, y, facing),
                general: i == 0,
                contingent: None,
                dismounts_as: None,
                mobile_tower: false,
            });
        }
        commands.push(CommandSetup {
            id: CommandId(c as u8),
            general: ids[0],
            elements: ids,
            allied: false,
            c_in_c: c == 1,
            camp: None,
            camp_followers: false,
        });
    }
    let edge = if south {
        BoardEdge::South
    } else {
        BoardEdge::North
    };
    ArmySetup {
        commands,
        // The centre command always has the highest score, then the left, then the right.
        pip_allocation: Some(PipAllocation::Ranked {
            order: vec![CommandId(1), CommandId(0), CommandId(2)],
        }),
        ..ArmySetup::new(name, edge, elements)
    }
}

/// A Big Battle (30 x 15 BW, §1.2, §14) or a Giant battle (45 x 15 BW, every general rolling his
/// own die, §14.6) between Romans (south) and Ancient Britons (north), three commands a side,
/// with a wood and two gentle hills.
pub fn big_battle_setup(variant: Variant) -> BattleSetup {
    let giant = variant == Variant::Giant;
    let board = if giant {
        Board::giant(15.0, 1.0)
    } else {
        Board::big_battle(15.0)
    }
    .expect("a 15 BW side is a legal board");
    let (width, depth) = (board.width, board.depth);
    let mut bf = Battlefield::new(board);
    for (kind, x, y) in [
        (AreaKind::Wood, width * 0.18, 7.5),
        (AreaKind::GentleHill, width * 0.5, 7.6),
        (AreaKind::GentleHill, width * 0.82, 7.4),
    ] {
        bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
            kind,
            Point::new(x, y),
            2.0,
            1.6,
            0.0,
            20,
        )));
    }
    let mut romans = army("Romans", true, &ROMANS, width, depth);
    let mut britons = army("Britons", false, &BRITONS, width, depth);
    if giant {
        romans.pip_allocation = Some(PipAllocation::EachRolls);
        britons.pip_allocation = Some(PipAllocation::EachRolls);
    }
    BattleSetup::new(
        if giant {
            Variant::Giant
        } else {
            Variant::BigBattle
        },
        bf,
        vec![romans, britons],
    )
}

/// The default Big Battle or Giant army of a bundled list ([`default_big_choice`]: three
/// commands, each the list's default army, the first the C-in-C's).
pub fn default_big_army(variant: Variant, id: &str) -> Result<BigArmy, ListsError> {
    let id: ListId = id.trim().parse()?;
    let list = crate::armies::list(&id).ok_or(crate::armies::ArmyError::UnknownList(id))?;
    Ok(choose_big(&default_big_choice(
        list,
        variant,
        crate::battle::commands::BIG_BATTLE_COMMANDS,
    ))?)
}

/// A Big Battle or Giant battle between the default armies of two bundled lists named by id
/// (`"II/56"`), on the demonstration table of [`big_battle_setup`]: the first army on the south
/// edge, the second on the north, each command in its own third of the board as a line of
/// nine with its general and two more behind (every element within 8 BW of its general,
/// §14.3). The first army has the first bound. The pre-battle of §14 (aggression, terrain,
/// camps) is not played: the table is fixed.
pub fn big_battle_lists_setup(
    variant: Variant,
    first: &str,
    second: &str,
) -> Result<BattleSetup, ListsError> {
    let mut setup = big_battle_setup(variant);
    let (width, depth) = (setup.battlefield.board.width, setup.battlefield.board.depth);
    let armies = [
        default_big_army(variant, first)?,
        default_big_army(variant, second)?,
    ];
    setup.armies = armies
        .iter()
        .enumerate()
        .map(|(a, army)| {
            let south = a == 0;
            let (front_y, rear_y, facing) = if south {
                (4.0, 2.0, 0.0)
            } else {
                (depth - 4.0, depth - 2.0, 180.0)
            };
            let n = army.commands.len();
            let generals: Vec<usize> = army
                .commands
                .iter()
                .map(|c| c.elements.iter().position(|e| e.general).unwrap_or(0))
                .collect();
            army.army_setup(
                if south {
                    BoardEdge::South
                } else {
                    BoardEdge::North
                },
                if south { 1 } else { 1001 },
                |c, i| {
                    let centre = width * (2 * c + 1) as f64 / (2 * n) as f64;
                    // Rank the others in order around the general: nine in front, the rest
                    // behind beside him.
                    let g = generals[c];
                    if i == g {
                        return Pose::new(centre, rear_y, facing);
                    }
                    let k = if i < g { i } else { i - 1 };
                    let (x, y) = match k {
                        0..=8 => (centre + (k as f64 - 4.0), front_y),
                        9 => (centre - 2.0, rear_y),
                        10 => (centre + 2.0, rear_y),
                        _ => (centre + 2.0 * (k as f64 - 9.0), rear_y),
                    };
                    Pose::new(x, y, facing)
                },
            )
        })
        .collect();
    Ok(setup)
}

/// A hold worth buying for the moving army (§14.5): an element of one of its demoralised
/// commands still to flee this bound, touching no enemy (an element in close combat does not
/// flee), whose flight (its full move, turned towards the base edge) would take it over its
/// army's base edge, where it would be lost (§13.1). The nearest to the edge first, while its
/// command has a PIP; each held on its own (1 PIP). Checked, so that it is committed as it is.
pub(crate) fn hold_worth_buying(b: &Battle) -> Option<CheckedAction> {
    let cfg = &b.setup().config;
    let army = b.active_army();
    let board = &b.setup().battlefield.board;
    let base = b.setup().armies.get(army)?.base_edge;
    let mut best: Option<(f64, ElementId)> = None;
    for c in b
        .commands()
        .iter()
        .filter(|c| c.army == army && c.flight_due && c.pips >= 1)
    {
        for id in c.elements.iter().filter(|id| !c.held.contains(id)) {
            let Some(e) = b.element(*id).filter(|e| e.in_play()) else {
                continue;
            };
            let r = e.rect(cfg);
            let engaged = b.elements().iter().any(|o| {
                o.army != army
                    && o.in_play()
                    && crate::zones::nearest_distance(&r, &o.rect(cfg)) <= 0.01
            });
            if engaged {
                continue;
            }
            // Turned to face the edge about its centre, its front edge stands half its depth
            // nearer the edge than its centre.
            let gap = board.distance_to_edge(r.centre(), base) - r.depth * 0.5;
            if gap < cfg.move_distance(e.kind, false) && best.is_none_or(|(g, _)| gap < g) {
                best = Some((gap, *id));
            }
        }
    }
    let (_, id) = best?;
    b.check_action(Action::Hold { ids: vec![id] }).ok()
}

/// The flight of the moving army's demoralised commands, when it is due this bound (§14.5).
/// Checked, so that it is committed as it is.
pub(crate) fn flight_due(b: &Battle) -> Option<CheckedAction> {
    if !b.flight_due() {
        return None;
    }
    b.check_action(Action::Flee).ok()
}
