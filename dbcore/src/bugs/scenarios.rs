//! The demonstration set-ups of the three encounters of the booklet (BUGS §15; readings R42–R44).
//! The booklet gives no deployment, table or turn limit; these are ours, chosen to make a short,
//! readable game: 36 in wide tables, the humans at the south edge, the party's front north.

use super::field::{Area, AreaKind, BoardType, Edge};
use super::sheets::Sheet;
use super::tables::TablesFile;
use super::FigureId;
use super::{BugsConfig, BugsSetup, EncounterKind, FigureSetup, HoleSetup, TableSize};
use crate::geometry::Point;

fn rect(name: &str, kind: AreaKind, x0: f64, y0: f64, x1: f64, y1: f64) -> Area {
    Area {
        name: name.into(),
        kind,
        outline: vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ],
        only_on: None,
        height: 0.0,
        enterable: false,
    }
}

fn on(board: BoardType, mut a: Area) -> Area {
    a.only_on = Some(board);
    a
}

/// A layout for each board BUGS §14 may roll, on a 36 × 48 in table, leaving the south and north
/// ends and a way up the middle open.
fn rolled_layout() -> Vec<Area> {
    use AreaKind::{Hill, Jungle, Mountain, Swamp};
    use BoardType::{Clear, JungleSwamp, Mountainous};
    vec![
        on(
            JungleSwamp,
            rect("the western jungle", Jungle, 3.0, 13.0, 14.0, 23.0),
        ),
        on(
            JungleSwamp,
            rect("the swamp", Swamp, 22.0, 24.0, 33.0, 33.0),
        ),
        on(
            JungleSwamp,
            rect("the northern jungle", Jungle, 6.0, 33.0, 15.0, 41.0),
        ),
        on(
            BoardType::Rocky,
            rect("the western rocks", AreaKind::Rocky, 4.0, 12.0, 14.0, 20.0),
        ),
        on(
            BoardType::Rocky,
            rect("the eastern rocks", AreaKind::Rocky, 22.0, 23.0, 32.0, 31.0),
        ),
        on(
            BoardType::Rocky,
            rect("the northern rocks", AreaKind::Rocky, 6.0, 32.0, 14.0, 40.0),
        ),
        on(
            Mountainous,
            rect("the western range", Mountain, 0.0, 9.0, 13.0, 41.0),
        ),
        on(
            Mountainous,
            rect("the eastern range", Mountain, 23.0, 9.0, 36.0, 41.0),
        ),
        on(Clear, rect("the low ridge", Hill, 24.0, 16.0, 32.0, 22.0)),
    ]
    .into_iter()
    .map(|mut a| {
        if a.kind == Hill {
            a.height = 1.0;
        }
        a
    })
    .collect()
}

fn fig(
    id: u32,
    name: &str,
    sheet: Sheet,
    x: f64,
    y: f64,
    facing: f64,
    leader: bool,
) -> FigureSetup {
    FigureSetup {
        id: FigureId(id),
        name: Some(name.into()),
        sheet,
        at: Point::new(x, y),
        facing,
        leader,
    }
}

/// The set-up of encounter 1 (the escort), 2 (the defence of the settlement) or 3 (the raid on
/// the nest), with the user's tables file. The escort and the raid roll their board (BUGS §14)
/// and lay out whichever is rolled; the settlement is a city.
pub fn demo_setup(encounter: u8, tables: TablesFile) -> Result<BugsSetup, String> {
    use Sheet::*;
    let base = |kind, turn_limit, table, board, areas, figures, holes| BugsSetup {
        format: super::SETUP_FORMAT.into(),
        version: 1,
        encounter: kind,
        turn_limit: Some(turn_limit),
        table,
        board,
        areas,
        front: 0.0,
        figures,
        holes,
        config: BugsConfig::default(),
        tables: tables.clone(),
    };
    let long = TableSize {
        width: 36.0,
        depth: 48.0,
    };
    match encounter {
        1 => Ok(base(
            EncounterKind::Escort { goal: Edge::North },
            12,
            long,
            None,
            rolled_layout(),
            vec![
                fig(1, "Sergeant Kell", Soldier, 15.0, 4.0, 0.0, true),
                fig(2, "Private Ames", Soldier, 18.0, 5.0, 0.0, false),
                fig(3, "Gunner Rusk", HeavyWeaponSoldier, 21.0, 4.0, 0.0, false),
                fig(4, "Mara the colonist", Colonist, 16.5, 2.0, 0.0, false),
                fig(5, "Old Tobin", Citizen, 18.0, 2.5, 0.0, false),
                fig(6, "Jory", CitizenWithPistol, 19.5, 2.0, 0.0, false),
            ],
            Vec::new(),
        )),
        2 => {
            use AreaKind::*;
            let areas = vec![
                rect("the store", Building, 9.0, 9.0, 14.0, 13.0),
                rect("the pump house", Building, 22.0, 9.0, 27.0, 13.0),
                rect("the chapel", Building, 9.0, 23.0, 14.0, 27.0),
                rect("the barracks", Building, 22.0, 23.0, 27.0, 27.0),
                rect("the south wall", Cover, 15.5, 12.0, 20.5, 12.6),
                rect("the north wall", Cover, 15.5, 23.4, 20.5, 24.0),
            ];
            Ok(base(
                EncounterKind::Defend,
                8,
                TableSize {
                    width: 36.0,
                    depth: 36.0,
                },
                Some(BoardType::CitySettlement),
                areas,
                vec![
                    fig(1, "Sergeant Kell", Soldier, 18.0, 21.5, 0.0, true),
                    fig(2, "Private Ames", Soldier, 18.0, 14.5, 180.0, false),
                    fig(3, "Gunner Rusk", HeavyWeaponSoldier, 21.0, 18.0, 90.0, false),
                    fig(4, "Mara the colonist", Colonist, 15.0, 18.0, 270.0, false),
                    fig(5, "Old Tobin", Citizen, 17.0, 18.0, 0.0, false),
                    fig(6, "Jory", CitizenWithPistol, 19.0, 18.0, 0.0, false),
                ],
                Vec::new(),
            ))
        }
        3 => Ok(base(
            EncounterKind::Raid,
            10,
            long,
            None,
            rolled_layout(),
            vec![
                fig(1, "Sergeant Kell", Soldier, 15.0, 4.0, 0.0, true),
                fig(2, "Private Ames", Soldier, 17.0, 4.0, 0.0, false),
                fig(3, "Gunner Rusk", HeavyWeaponSoldier, 19.0, 4.0, 0.0, false),
                fig(4, "Private Vole", Soldier, 21.0, 4.0, 0.0, false),
                fig(11, "Big un 1", BigUn, 18.0, 36.0, 180.0, false),
                fig(12, "Little un 1", LittleUn, 16.0, 37.0, 180.0, false),
                fig(13, "Little un 2", LittleUn, 20.0, 37.0, 180.0, false),
            ],
            vec![HoleSetup {
                at: Point::new(18.0, 39.0),
                owes: 4,
            }],
        )),
        _ => Err(format!(
            "there are three encounters (BUGS §15): 1 the escort, 2 the settlement, 3 the raid; not {encounter}"
        )),
    }
}
