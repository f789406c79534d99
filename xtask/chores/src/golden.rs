//! Golden traces: scripted battles written as set-up + every action with its dice + the events
//! they produced. `cargo run -p xtask -- golden` rewrites `tests/golden/*.json`; the Rust, C and
//! Python tests replay them and must produce the same events. Review changes to them as a diff.

use std::fs;
use std::path::Path;

use dbcore::battle::{
    Action, ArmySetup, Battle, BattleRecord, BattleSetup, ContactWanted, DiceRequest, ElementId,
    ElementSetup, Event, GroupStep, MoveOrder,
};
use dbcore::battlefield::{Battlefield, Board, BoardEdge, Variant};
use dbcore::geometry::{Point, Pose};
use dbcore::record::GameFile;
use dbcore::terrain::{River, Road, RoadSurface, TerrainFeature};
use dbcore::{DieScore, SeededDice};
use serde::{Deserialize, Serialize};

/// One golden trace file.
#[derive(Debug, Serialize, Deserialize)]
pub struct Golden {
    pub name: String,
    pub description: String,
    /// The battle: its set-up and every action (for a whole game, the battle the pre-battle
    /// set up).
    pub record: BattleRecord,
    pub events: Vec<Event>,
    /// The game record (format `dbcore-game`): for a whole game the two armies, the pre-battle
    /// actions and the battle actions; else the battle's set-up and actions. With its result.
    pub game: GameFile,
    /// Whole games only: the pre-battle's events.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prebattle_events: Vec<dbcore::battle::PrebattleEvent>,
}

fn el(id: u32, code: &str, x: f64, y: f64, facing: f64, general: bool) -> ElementSetup {
    ElementSetup {
        id: ElementId(id),
        kind: code.parse().expect("a valid code"),
        pose: Pose::new(x, y, facing),
        general,
        contingent: None,
        dismounts_as: None,
        mobile_tower: false,
    }
}

fn setup(bf: Battlefield, south: Vec<ElementSetup>, north: Vec<ElementSetup>) -> BattleSetup {
    let armies = vec![
        ArmySetup {
            name: "South".into(),
            base_edge: BoardEdge::South,
            elements: south,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        },
        ArmySetup {
            name: "North".into(),
            base_edge: BoardEdge::North,
            elements: north,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        },
    ];
    let mut s = BattleSetup::new(Variant::Standard, bf, armies);
    s.sandbox = true;
    // Scripted traces show a few elements, not whole armies (§2.5).
    s.free_army_size = true;
    s
}

fn forward(b: &Battle, id: u32, distance: f64) -> Action {
    let e = b.element(ElementId(id)).expect("element exists");
    let f = e.pose.forward();
    Action::Move {
        order: MoveOrder::Element {
            id: ElementId(id),
            path: vec![Pose::new(
                e.pose.x + f.x * distance,
                e.pose.y + f.y * distance,
                e.pose.facing,
            )],
        },
    }
}

/// Plays `steps` (each built from the battle as it then stands), with PIP dice from a seed.
fn play(
    name: &str,
    description: &str,
    setup: BattleSetup,
    seed: u64,
    steps: &[&dyn Fn(&Battle) -> Action],
) -> Result<Golden, String> {
    let mut dice = SeededDice::new(seed);
    let mut b = Battle::new(setup.clone()).map_err(|e| format!("{name}: {e}"))?;
    let mut events = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let mut action = step(&b);
        // Placeholder dice in the script are replaced by seeded ones.
        match &mut action {
            Action::RollPips { die } => *die = dice.roll(),
            Action::Fight { dice: d, .. } | Action::Shoot { dice: d, .. } => *d = dice.roll_pair(),
            _ => {}
        }
        events.extend(
            b.apply(action)
                .map_err(|e| format!("{name}: step {i} refused: {e}"))?,
        );
    }
    Ok(Golden {
        name: name.to_string(),
        description: description.to_string(),
        game: with_result(GameFile::of_battle(b.record()))?,
        record: b.record(),
        events,
        prebattle_events: Vec::new(),
    })
}

fn roll(_: &Battle) -> Action {
    Action::RollPips {
        die: DieScore::new(1).expect("1 is a die score"),
    }
}

fn end(_: &Battle) -> Action {
    Action::EndMovement
}

/// The first close combat the battle awaits, with placeholder dice.
fn fight(b: &Battle) -> Action {
    let one = DieScore::new(1).expect("1 is a die score");
    match b.awaiting() {
        Some(DiceRequest::Combat { pairs }) => Action::Fight {
            a: pairs[0].0,
            b: pairs[0].1,
            dice: [one, one],
            recoil_own_depth: Vec::new(),
            c_in_c_bonus: Vec::new(),
        },
        other => panic!("expected a close combat to fight, the battle awaits {other:?}"),
    }
}

/// A whole battle played by the demonstration driver.
fn driven(name: &str, seed: u64) -> Result<Golden, String> {
    let d = dbcore::driver::play(dbcore::driver::demo_setup(), seed, 40)
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(Golden {
        name: name.to_string(),
        description: format!(
            "A whole battle of the demonstration driver with seed {seed}: {} bounds, {}.",
            d.bounds,
            match &d.verdict {
                Some(v) => format!("army {:?} wins", v.winner),
                None => "no decision".to_string(),
            }
        ),
        game: with_result(GameFile::of_battle(d.record.clone()))?,
        record: d.record,
        events: d.events,
        prebattle_events: Vec::new(),
    })
}

/// A whole game between the default armies of two bundled lists, pre-battle included, played by
/// the demonstration driver.
/// A whole Big Battle or Giant battle (§14) of the demonstration driver: three commands a side.
fn commands_battle(name: &str, variant: Variant, seed: u64) -> Result<Golden, String> {
    let d = dbcore::driver::play(dbcore::driver::big_battle_setup(variant), seed, 200)
        .map_err(|e| format!("{name}: {e}"))?;
    let b = dbcore::battle::Battle::replay(&d.record)
        .map_err(|e| format!("{name}: {e}"))?
        .0;
    let down = b
        .commands()
        .iter()
        .filter(|c| c.demoralised || c.removed)
        .count();
    Ok(Golden {
        name: name.to_string(),
        description: format!(
            "A whole {variant:?} battle of the demonstration driver with seed {seed}, three \
             commands a side, one PIP die per command: {} bounds, {} commands demoralised or \
             removed, {}.",
            d.bounds,
            down,
            match &d.verdict {
                Some(v) => format!("army {:?} wins", v.winner),
                None => "no decision".to_string(),
            }
        ),
        game: with_result(GameFile::of_battle(d.record.clone()))?,
        record: d.record,
        events: d.events,
        prebattle_events: Vec::new(),
    })
}

fn whole_game(name: &str, first: &str, second: &str, seed: u64) -> Result<Golden, String> {
    whole_game_of(name, Variant::Standard, first, second, seed)
}

/// A whole game of `variant` (standard, or Big Battle or Giant from the pre-battle, §14) between
/// the default armies of two bundled lists, played by the demonstration driver.
fn whole_game_of(
    name: &str,
    variant: Variant,
    first: &str,
    second: &str,
    seed: u64,
) -> Result<Golden, String> {
    let g = match variant {
        Variant::Standard => dbcore::driver::play_lists(first, second, seed, 40),
        v => dbcore::driver::play_big_lists(v, first, second, seed, 40),
    }
    .map_err(|e| format!("{name}: {e}"))?;
    let names: Vec<String> = g.setup.armies.iter().map(|a| a.name.clone()).collect();
    Ok(Golden {
        name: name.to_string(),
        description: format!(
            "A whole {}game from the list ids {first} and {second} with seed {seed}: aggression, \
             terrain, base edges, {}camps and deployment by the demonstration driver, then {} \
             bounds, {}.",
            match variant {
                Variant::Standard => String::new(),
                v => format!("{v} "),
            },
            match variant {
                Variant::Standard => "",
                _ => "PIP rankings, ",
            },
            g.bounds,
            match &g.verdict {
                Some(v) => v
                    .winner
                    .map_or("no winner".to_string(), |w| format!("{} win", names[w])),
                None => "no decision".to_string(),
            }
        ),
        record: BattleRecord {
            setup: g.setup,
            actions: g.record.battle.clone(),
        },
        events: g.events,
        game: with_result(GameFile::of_game(g.record))?,
        prebattle_events: g.prebattle_events,
    })
}

fn open_armies() -> (Vec<ElementSetup>, Vec<ElementSetup>) {
    (
        vec![
            el(1, "3Kn", 7.5, 3.0, 0.0, true),
            el(2, "4Bd", 6.5, 3.0, 0.0, false),
            el(3, "4Bd", 8.5, 3.0, 0.0, false),
            el(4, "LH", 3.0, 3.0, 0.0, false),
            el(5, "Ps", 11.0, 3.0, 0.0, false),
        ],
        vec![
            el(101, "Cv", 7.5, 12.0, 180.0, true),
            el(102, "Sp", 6.5, 12.0, 180.0, false),
            el(103, "Sp", 8.5, 12.0, 180.0, false),
            el(104, "4Bw", 10.5, 12.0, 180.0, false),
            el(105, "LH", 13.0, 12.0, 180.0, false),
        ],
    )
}

/// Every golden trace, built afresh.
pub fn all() -> Result<Vec<Golden>, String> {
    let (south, north) = open_armies();
    let opening = play(
        "opening_bounds",
        "Two bounds each on an open table: single moves, a group advance, a Light Horse second move.",
        setup(Battlefield::new(Board::default()), south.clone(), north.clone()),
        7,
        &[
            &roll,
            &|b| forward(b, 4, 3.0),
            &|_| Action::Move {
                order: MoveOrder::Group {
                    ids: vec![ElementId(2), ElementId(1), ElementId(3)],
                    steps: vec![GroupStep::Advance { distance: 2.0 }],
                },
            },
            &end,
            &roll,
            &|b| forward(b, 104, 1.0),
            &|b| forward(b, 105, 2.0),
            &end,
            &roll,
            &|b| forward(b, 4, 1.0),
            &|b| forward(b, 4, 1.0),
            &end,
        ],
    )?;

    let mut close_south = south.clone();
    close_south[1].pose = Pose::new(6.5, 10.5, 0.0);
    let contact = play(
        "into_contact",
        "A Blades element moves into frontal contact with Spears; the enemy replies with its own move.",
        setup(Battlefield::new(Board::default()), close_south, north.clone()),
        11,
        &[
            &roll,
            &|_| Action::Move {
                order: MoveOrder::IntoContact {
                    ids: vec![ElementId(2)],
                    target: ElementId(102),
                    contact: ContactWanted::Front,
                },
            },
            &end,
            &fight,
            &roll,
            &|b| forward(b, 105, 1.0),
            &end,
        ],
    )?;

    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Road(Road {
        surface: RoadSurface::Paved,
        path: vec![Point::new(3.0, 0.0), Point::new(3.0, 15.0)],
        width: 0.5,
    }));
    bf.features.push(TerrainFeature::River(River {
        course: vec![Point::new(0.0, 8.0), Point::new(15.0, 8.0)],
        width: 0.5,
        state: None,
    }));
    let mut road_south = south;
    road_south[3].pose = Pose::new(3.0, 3.0, 0.0);
    road_south[1].pose = Pose::new(6.5, 7.0, 0.0);
    let road = play(
        "road_and_river",
        "A full move along a road costs no PIP; the river is diced before the first off-road crossing.",
        setup(bf, road_south, north),
        3,
        &[
            &roll,
            &|b| forward(b, 4, 4.0),
            &|_| Action::DiceRiver {
                die: DieScore::new(4).expect("a die score"),
            },
            &|b| forward(b, 2, 1.0),
            &end,
        ],
    )?;
    let mut v = vec![opening, contact, road];
    for seed in [1, 2, 3] {
        v.push(driven(&format!("whole_battle_seed_{seed}"), seed)?);
    }
    v.push(whole_game("whole_game_II_56_v_II_53", "II/56", "II/53", 1)?);
    v.push(whole_game("whole_game_I_2a_v_I_6a", "I/2a", "I/6a", 5)?);
    v.push(commands_battle("big_battle_seed_1", Variant::BigBattle, 1)?);
    v.push(commands_battle("giant_seed_1", Variant::Giant, 1)?);
    v.push(whole_game_of(
        "big_battle_game_II_56_v_II_53",
        Variant::BigBattle,
        "II/56",
        "II/53",
        1,
    )?);
    v.push(whole_game_of(
        "giant_game_II_56_v_II_53",
        Variant::Giant,
        "II/56",
        "II/53",
        1,
    )?);
    Ok(v)
}

/// One DBAix golden trace (in `tests/golden/dbaix/`, beside the DBA ones, so readers of DBA
/// traces are not handed a three-sided game).
#[derive(Debug, Serialize, Deserialize)]
pub struct DbaixGolden {
    pub name: String,
    pub description: String,
    pub record: dbcore::dbaix::BattleRecord,
    pub events: Vec<dbcore::dbaix::Event>,
    /// The game record (format `dbcore-game`), with its result.
    pub game: GameFile,
}

/// A whole three-sided DBAix game of the demonstration driver (DBAIX.md §2).
pub fn dbaix_all() -> Result<Vec<DbaixGolden>, String> {
    let seed = 1;
    let p = dbcore::dbaix::driver::play(dbcore::dbaix::driver::demo_setup(), seed, 5000)
        .map_err(|e| format!("dbaix: {e}"))?;
    Ok(vec![DbaixGolden {
        name: format!("dbaix_whole_game_seed_{seed}"),
        description: format!(
            "A whole DBAix game (Romans, Gauls, Pirates) of the demonstration driver with seed {seed}: {} bounds, {}.",
            p.bounds,
            match p.winner {
                Some(s) => format!("the {s:?} win"),
                None => "a draw".to_string(),
            }
        ),
        game: with_result(GameFile::of_dbaix(p.record.clone()))?,
        record: p.record,
        events: p.events,
    }])
}

/// The record with its `result` written from its own replay.
fn with_result(file: GameFile) -> Result<GameFile, String> {
    let result = file.replay().map_err(|e| e.to_string())?.result();
    Ok(file.with_result(result))
}

fn write_one<T: Serialize>(path: &Path, g: &T, check: bool) -> Result<(), String> {
    let text = serde_json::to_string_pretty(g).map_err(|e| e.to_string())? + "\n";
    if check {
        let old = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if old != text {
            return Err(format!(
                "{} is out of date: run `cargo run -p xtask -- golden`",
                path.display()
            ));
        }
    } else {
        fs::write(path, text).map_err(|e| e.to_string())?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// The BUGS! golden encounter (in `tests/golden/bugs/`, beside the DBA traces, so that readers of
/// DBA traces are not handed another game): the escort of the demonstration player with seed 1,
/// on the synthetic tables of `tests/bugs/synthetic-tables.json` (made-up values, not the
/// booklet's).
#[derive(Debug, Serialize, Deserialize)]
pub struct BugsGolden {
    pub name: String,
    pub description: String,
    pub record: dbcore::bugs::BugsRecord,
    pub events: Vec<dbcore::bugs::Event>,
    pub verdict: dbcore::bugs::Verdict,
}

/// The synthetic tables file the BUGS! tests and golden use.
fn synthetic_tables(root: &Path) -> Result<dbcore::bugs::TablesFile, String> {
    let path = root
        .join("tests")
        .join("bugs")
        .join("synthetic-tables.json");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The BUGS! golden encounter (BUGS.md §15).
pub fn bugs_all(root: &Path) -> Result<Vec<BugsGolden>, String> {
    let seed = 1;
    let setup = dbcore::bugs::demo_setup(1, synthetic_tables(root)?)?;
    let p = dbcore::bugs::play(setup, seed).map_err(|e| format!("bugs: {e}"))?;
    Ok(vec![BugsGolden {
        name: "bugs-encounter-1".into(),
        description: format!(
            "BUGS! encounter 1 (the escort) played by the demonstration player with seed {seed} on the synthetic tables of tests/bugs/synthetic-tables.json (made-up values, not the booklet's): {} actions, {} events, {:?} after turn {}.",
            p.record.actions.len(),
            p.events.len(),
            p.verdict.outcome,
            p.verdict.turn
        ),
        record: p.record,
        events: p.events,
        verdict: p.verdict,
    }])
}

/// Write (or with `check`, compare) every golden trace under `dir`.
pub fn write(dir: &Path, check: bool) -> Result<(), String> {
    let root = dir
        .parent()
        .and_then(Path::parent)
        .ok_or("the golden directory is tests/golden")?;
    fs::create_dir_all(dir.join("bugs")).map_err(|e| e.to_string())?;
    for g in bugs_all(root)? {
        write_one(
            &dir.join("bugs").join(format!("{}.json", g.name)),
            &g,
            check,
        )?;
    }
    // The tables file a user fills in, with every lost value empty.
    let examples = root.join("examples").join("bugs");
    fs::create_dir_all(&examples).map_err(|e| e.to_string())?;
    write_one(
        &examples.join("tables-template.json"),
        &dbcore::bugs::tables_template(),
        check,
    )?;
    fs::create_dir_all(dir.join("dbaix")).map_err(|e| e.to_string())?;
    for g in dbaix_all()? {
        write_one(
            &dir.join("dbaix").join(format!("{}.json", g.name)),
            &g,
            check,
        )?;
    }
    for g in all()? {
        let path = dir.join(format!("{}.json", g.name));
        let text = serde_json::to_string_pretty(&g).map_err(|e| e.to_string())? + "\n";
        if check {
            let old = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if old != text {
                return Err(format!(
                    "{} is out of date: run `cargo run -p xtask -- golden`",
                    path.display()
                ));
            }
        } else {
            fs::write(&path, text).map_err(|e| e.to_string())?;
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}
