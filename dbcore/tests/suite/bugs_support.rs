//! Shared fixtures of the BUGS! tests: the synthetic tables file (its own text says its values
//! are made up, not the booklet's), small set-ups built from it, and helpers that answer what an
//! encounter waits for.

use std::path::PathBuf;

use dbcore::bugs::{
    demo_setup, Action, Area, AreaKind, BoardType, BugsConfig, BugsSetup, Decision, Encounter,
    EncounterKind, Event, FigureId, FigureSetup, Need, Roll, Sheet, TableSize, TablesFile,
};
use dbcore::geometry::Point;
use dbcore::DieScore;

/// The repository's `tests/bugs/` directory.
pub fn bugs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/bugs")
}

/// The synthetic tables file, `tests/bugs/synthetic-tables.json`.
pub fn synthetic() -> TablesFile {
    let text = std::fs::read_to_string(bugs_dir().join("synthetic-tables.json")).unwrap();
    let t: TablesFile = serde_json::from_str(&text).unwrap();
    assert!(t.note.as_deref().unwrap().contains("synthetic"));
    t
}

/// A demonstration encounter (1 escort, 2 settlement, 3 raid) with the synthetic tables.
pub fn demo(k: u8) -> BugsSetup {
    demo_setup(k, synthetic()).unwrap()
}

/// A figure.
pub fn fig(id: u32, sheet: Sheet, x: f64, y: f64, facing: f64) -> FigureSetup {
    FigureSetup {
        id: FigureId(id),
        name: None,
        sheet,
        at: Point::new(x, y),
        facing,
        leader: false,
    }
}

/// A leader.
pub fn leader(id: u32, sheet: Sheet, x: f64, y: f64, facing: f64) -> FigureSetup {
    FigureSetup {
        leader: true,
        ..fig(id, sheet, x, y, facing)
    }
}

/// An area from its corners.
pub fn rect(kind: AreaKind, x0: f64, y0: f64, x1: f64, y1: f64) -> Area {
    Area {
        name: format!("{kind:?}"),
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

/// An open 36 × 36 in clear table with these figures: a raid of 3 turns (it ends at the turn
/// limit or when no human is left).
pub fn open_table(figures: Vec<FigureSetup>) -> BugsSetup {
    BugsSetup {
        format: "dbcore-bugs".into(),
        version: 1,
        encounter: EncounterKind::Raid,
        turn_limit: Some(3),
        table: TableSize {
            width: 36.0,
            depth: 36.0,
        },
        board: Some(BoardType::Clear),
        areas: Vec::new(),
        front: 0.0,
        figures,
        holes: Vec::new(),
        config: BugsConfig::default(),
        tables: synthetic(),
    }
}

/// Dice scores.
pub fn dice(v: &[u8]) -> Vec<DieScore> {
    v.iter().map(|d| DieScore::new(*d).unwrap()).collect()
}

/// A roll action.
pub fn roll(v: &[u8]) -> Action {
    Action::Roll { dice: dice(v) }
}

/// Stay in place.
pub fn stay(id: u32) -> Action {
    Action::Stay {
        figure: FigureId(id),
        facing: None,
    }
}

/// Move along a path.
pub fn move_to(id: u32, path: &[(f64, f64)]) -> Action {
    Action::Move {
        figure: FigureId(id),
        path: path.iter().map(|(x, y)| Point::new(*x, *y)).collect(),
        facing: None,
    }
}

/// Fire without moving: a move of 0 in (reading R12).
pub fn still(id: u32) -> Action {
    move_to(id, &[])
}

/// Fire the sheet weapon.
pub fn fire(id: u32, targets: &[u32]) -> Action {
    Action::Fire {
        figure: FigureId(id),
        grenade: false,
        targets: targets.iter().map(|t| FigureId(*t)).collect(),
    }
}

/// Hold fire.
pub fn hold(id: u32) -> Action {
    Action::HoldFire {
        figure: FigureId(id),
    }
}

/// Apply, panicking with the error.
pub fn go(e: &mut Encounter, a: Action) -> Vec<Event> {
    match e.apply(a.clone()) {
        Ok(ev) => ev,
        Err(err) => panic!("{a:?} refused: {err}\nwaiting for {:?}", e.need()),
    }
}

/// The roll awaited.
pub fn awaited(e: &Encounter) -> Roll {
    e.awaiting()
        .unwrap_or_else(|| panic!("no dice awaited: {:?}", e.need()))
        .roll
}

/// Answer everything the quiet way (stay, hold fire, no joiners, roll-offs in falling order)
/// until `stop` says what is awaited is the test's; the events on the way.
pub fn until(e: &mut Encounter, stop: impl Fn(&Need) -> bool) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..10_000 {
        let Some(need) = e.need().cloned() else {
            assert!(e.is_over(), "the encounter waits for nothing");
            return events;
        };
        if stop(&need) {
            return events;
        }
        let a = match need {
            Need::Dice(d) => match d.roll {
                Roll::ActivationOrder { .. } | Roll::CheckOrder { .. } => {
                    let n = d.count as usize;
                    roll(&(0..n).map(|i| (6 - i.min(5)) as u8).collect::<Vec<_>>())
                }
                Roll::Reaction { .. } | Roll::PursuitCheck { .. } => roll(&[1, 1]),
                _ => roll(&vec![3; d.count as usize]),
            },
            Need::Decision(Decision::Activation { figure, .. }) => stay(figure.0),
            Need::Decision(Decision::Join { leader, .. }) => Action::Join {
                leader,
                joiners: Vec::new(),
            },
            Need::Decision(Decision::Fire { figure, .. }) => hold(figure.0),
        };
        events.extend(go(e, a));
    }
    panic!("nothing the test waits for came");
}

/// Until figure `id` must choose its voluntary action.
pub fn until_active(e: &mut Encounter, id: u32) -> Vec<Event> {
    until(
        e,
        |n| matches!(n, Need::Decision(Decision::Activation { figure, .. }) if figure.0 == id),
    )
}

/// Change the state as JSON (state is data): for tests that start from a moment of play.
pub fn edit(e: &Encounter, f: impl FnOnce(&mut serde_json::Value)) -> Encounter {
    let mut v = serde_json::to_value(e).unwrap();
    f(&mut v);
    serde_json::from_value(v).unwrap()
}

/// The index of a figure in the state's `figures`.
pub fn at_index(e: &Encounter, id: u32) -> usize {
    e.figures().iter().position(|f| f.id.0 == id).unwrap()
}

/// Answer everything the quiet way until the encounter ends.
pub fn to_the_end(e: &mut Encounter) -> Vec<Event> {
    let mut events = Vec::new();
    while e.need().is_some() {
        events.extend(until(e, |_| false_once()));
    }
    events
}

fn false_once() -> bool {
    false
}
