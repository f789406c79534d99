//! A small demonstration driver that plays every army of a battle through the public API only:
//! it advances on the nearest enemy, makes contact when it can, spends its PIPs greedily, shoots
//! and fights. It is an example of a program using the referee, not a good general.
//!
//! Dice come from a [`SeededDice`], so a seed and a set-up give the same battle everywhere.

use serde::{Deserialize, Serialize};

use crate::battle::prebattle::{
    ArmyEntry, EntryElement, GameRecord, Prebattle, PrebattleError, PrebattleEvent, PrebattleSetup,
};
use crate::battle::{
    Action, Battle, BattleRecord, BattleSetup, ContactWanted, DiceRequest, ElementId, Event,
    MoveOrder, Phase, SetupError, Verdict,
};
use crate::dice::SeededDice;
use crate::geometry::{Point, Pose};
use crate::terrain::HomeTerrain;

mod prebattle;
pub use prebattle::play_prebattle;

/// How a driven battle ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DrivenBattle {
    /// Set-up and every action: replaying it gives `events` again.
    pub record: BattleRecord,
    pub events: Vec<Event>,
    /// Bounds begun.
    pub bounds: u32,
    /// Set when an army lost (§13.2); `None` when the bound limit came first.
    pub verdict: Option<Verdict>,
}

/// Refuses a bound limit beyond [`crate::limits::MAX_DRIVEN_BOUNDS`]: a stalemate played for
/// 2^32 bounds would never return.
fn check_max_bounds(max_bounds: u32) -> Result<(), SetupError> {
    crate::limits::check_range(
        &|| "max_bounds".into(),
        f64::from(max_bounds),
        0.0,
        crate::limits::MAX_DRIVEN_BOUNDS as f64,
    )
    .map_err(|e| SetupError {
        problems: vec![crate::battle::SetupProblem::Limit {
            message: e.to_string(),
        }],
    })
}

/// Play `setup` with dice from `seed` until an army loses or `max_bounds` bounds have begun.
pub fn play(setup: BattleSetup, seed: u64, max_bounds: u32) -> Result<DrivenBattle, SetupError> {
    check_max_bounds(max_bounds)?;
    let battle = Battle::new(setup)?;
    let mut dice = SeededDice::new(seed);
    Ok(play_battle(battle, &mut dice, max_bounds))
}

/// A whole game played by the driver: the pre-battle and the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrivenGame {
    /// The two armies, every pre-battle action and every battle action: replaying it gives the
    /// same events ([`GameRecord::replay`]).
    pub record: GameRecord,
    pub prebattle_events: Vec<PrebattleEvent>,
    /// The set-up the pre-battle produced.
    pub setup: BattleSetup,
    pub events: Vec<Event>,
    /// Bounds begun.
    pub bounds: u32,
    /// Set when an army lost (§13.2); `None` when the bound limit came first.
    pub verdict: Option<Verdict>,
}

/// Why a driven game could not be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Prebattle(#[from] PrebattleError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Lists(#[from] crate::battle::prebattle::ListsError),
    #[error("the driver's pre-battle did not finish")]
    Unfinished,
}

impl crate::error::ErrorInfo for GameError {
    fn code(&self) -> crate::error::ErrorCode {
        match self {
            GameError::Prebattle(e) => e.code(),
            GameError::Setup(e) => e.code(),
            GameError::Lists(e) => e.code(),
            GameError::Unfinished => crate::error::ErrorCode::Internal,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            GameError::Prebattle(e) => e.rule(),
            GameError::Setup(e) => e.rule(),
            GameError::Lists(e) => e.rule(),
            GameError::Unfinished => None,
        }
    }
}

/// Play a whole game from two armies: the pre-battle (aggression, terrain, edges, camps,
/// deployment), then the battle until an army loses or `max_bounds` bounds have begun, all with
/// dice and choices from `seed`.
pub fn play_game(
    setup: PrebattleSetup,
    seed: u64,
    max_bounds: u32,
) -> Result<DrivenGame, GameError> {
    play_game_to_end(setup, seed, max_bounds).map(|(game, _)| game)
}

/// [`play_game`], also handing back the battle as it ended (for [`crate::simulate`], which
/// reads each army's losses from it).
pub(crate) fn play_game_to_end(
    setup: PrebattleSetup,
    seed: u64,
    max_bounds: u32,
) -> Result<(DrivenGame, Battle), GameError> {
    check_max_bounds(max_bounds)?;
    tracing::debug!(seed, max_bounds, "driven game starts");
    let mut pre = Prebattle::new(setup)?;
    let mut dice = SeededDice::new(seed);
    let prebattle_events = play_prebattle(&mut pre, &mut dice)?;
    let battle_setup = pre.battle_setup().ok_or(GameError::Unfinished)?;
    tracing::trace!(seed, first = battle_setup.first, "pre-battle done");
    let mut battle = Battle::new(battle_setup.clone())?;
    let (events, verdict) = drive(&mut battle, &mut dice, max_bounds);
    let game = DrivenGame {
        record: GameRecord {
            prebattle: pre.record(),
            battle: battle.actions().to_vec(),
        },
        prebattle_events,
        setup: battle_setup,
        events,
        bounds: battle.bound(),
        verdict,
    };
    Ok((game, battle))
}

/// Play a whole game between the default armies of two bundled lists named by id (`"II/56"`),
/// as [`play_game`] does.
pub fn play_lists(
    first: &str,
    second: &str,
    seed: u64,
    max_bounds: u32,
) -> Result<DrivenGame, GameError> {
    play_game(PrebattleSetup::from_lists(first, second)?, seed, max_bounds)
}

/// Play `battle` with `dice` until an army loses or `max_bounds` bounds have begun.
pub fn play_battle(mut battle: Battle, dice: &mut SeededDice, max_bounds: u32) -> DrivenBattle {
    let (events, verdict) = drive(&mut battle, dice, max_bounds);
    DrivenBattle {
        record: battle.record(),
        bounds: battle.bound(),
        events,
        verdict,
    }
}

/// Play `battle` in place with `dice` until an army loses, `max_bounds` bounds have begun or the
/// driver finds nothing it may do; the events and the verdict, the battle left as it ended.
pub fn drive(
    battle: &mut Battle,
    dice: &mut SeededDice,
    max_bounds: u32,
) -> (Vec<Event>, Option<Verdict>) {
    tracing::debug!(
        armies = battle.setup().armies.len(),
        bound = battle.bound(),
        max_bounds,
        "driven battle starts"
    );
    let mut events = Vec::new();
    let mut verdict = None;
    // Every step either applies an action or ends a phase, so the loop ends; the cap is a guard.
    for _ in 0..max_bounds.saturating_mul(200) {
        if battle.bound() > max_bounds {
            break;
        }
        match battle.phase() {
            Phase::Finished { .. } => break,
            Phase::AwaitingPips => {
                let ev = battle
                    .apply(Action::RollPips { die: dice.roll() })
                    .expect("the PIP roll is always legal when awaited");
                events.extend(ev);
            }
            Phase::Movement => {
                let action = best_move(battle).unwrap_or(Action::EndMovement);
                let ev = battle
                    .apply(action)
                    .or_else(|_| battle.apply(Action::EndMovement))
                    .expect("ending the movement is always legal in the movement phase");
                events.extend(ev);
            }
            Phase::Shooting | Phase::CloseCombat => {
                let Some(action) = next_fire_or_fight(battle, dice) else {
                    break;
                };
                match battle.apply(action) {
                    Ok(ev) => events.extend(ev),
                    Err(_) => break,
                }
            }
        }
        if let Some(Event::BattleWon { verdict: v }) = events.last() {
            verdict = Some(v.clone());
        }
    }
    tracing::debug!(
        bounds = battle.bound(),
        winner = verdict.as_ref().and_then(|v| v.winner),
        actions = battle.actions().len(),
        "driven battle ends"
    );
    (events, verdict)
}

/// The nearest enemy in play to `id`, with the distance between front-edge midpoints.
fn nearest_enemy(b: &Battle, id: ElementId) -> Option<(ElementId, f64)> {
    let me = b.element(id)?;
    b.elements()
        .iter()
        .filter(|e| e.army != me.army && e.in_play())
        .map(|e| (e.id, e.pose.front_mid().distance(me.pose.front_mid())))
        .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)))
}

/// The first legal move, trying elements nearest the enemy first: contact if possible, else the
/// longest step straight towards the nearest enemy.
fn best_move(b: &Battle) -> Option<Action> {
    if b.pips() == 0 {
        return None;
    }
    let mut mine: Vec<(ElementId, ElementId, f64)> = b
        .elements()
        .iter()
        .filter(|e| e.army == b.active_army() && e.in_play() && e.moves_this_bound == 0)
        .filter_map(|e| nearest_enemy(b, e.id).map(|(t, d)| (e.id, t, d)))
        .collect();
    mine.sort_by(|x, y| x.2.total_cmp(&y.2).then(x.0.cmp(&y.0)));
    for (id, target, dist) in mine {
        let contact = Action::Move {
            order: MoveOrder::IntoContact {
                ids: vec![id],
                target,
                contact: ContactWanted::Front,
            },
        };
        if b.check(&contact).is_ok() {
            return Some(contact);
        }
        let me = b.element(id)?;
        let aim = b.element(target)?.pose.front_mid();
        let here = me.pose.front_mid();
        let to = aim - here;
        let facing = to.x.atan2(to.y).to_degrees();
        // Stop 1.2 BW short of the enemy's front edge: the contact move does the rest.
        let reach = (dist - 1.2).max(0.0);
        for fraction in [1.0, 0.75, 0.5, 0.25] {
            for allowance in [4.0, 3.0, 2.0, 1.0] {
                let d = reach.min(allowance) * fraction;
                if d < 0.2 {
                    continue;
                }
                let dir = Point::from_bearing(facing);
                let dest = here + dir * d;
                let action = Action::Move {
                    order: MoveOrder::Element {
                        id,
                        path: vec![Pose::new(dest.x, dest.y, facing)],
                    },
                };
                if b.check(&action).is_ok() {
                    return Some(action);
                }
            }
        }
    }
    None
}

/// The next shot or combat the moving army chooses: the first one the battle accepts.
fn next_fire_or_fight(b: &Battle, dice: &mut SeededDice) -> Option<Action> {
    match b.awaiting()? {
        DiceRequest::Shot { shooters } => {
            let roll = dice.roll_pair();
            for shooter in shooters {
                let mut targets: Vec<(ElementId, f64)> = b
                    .elements()
                    .iter()
                    .filter(|e| e.in_play() && Some(e.army) != b.element(shooter).map(|s| s.army))
                    .map(|e| {
                        let d = b.element(shooter).map_or(f64::INFINITY, |s| {
                            s.pose.front_mid().distance(e.pose.front_mid())
                        });
                        (e.id, d)
                    })
                    .collect();
                targets.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
                // Targets that are no element on the table (a City's denizens, §4.2) come last.
                let civilians = b
                    .shot_targets(shooter)
                    .into_iter()
                    .filter(|t| b.element(*t).is_none())
                    .map(|t| (t, f64::INFINITY));
                for (target, _) in targets.into_iter().chain(civilians) {
                    let action = Action::Shoot {
                        shooter,
                        target,
                        support: Vec::new(),
                        dice: roll,
                        recoil_own_depth: Vec::new(),
                        shoots_back: false,
                    };
                    if b.check(&action).is_ok() {
                        return Some(action);
                    }
                }
            }
            None
        }
        DiceRequest::Combat { pairs } => {
            let (a, b_id) = *pairs.first()?;
            Some(Action::Fight {
                a,
                b: b_id,
                dice: dice.roll_pair(),
                recoil_own_depth: Vec::new(),
            })
        }
        DiceRequest::Pips { .. } => None,
    }
}

/// The demonstration battle: a Roman army (south) against Ancient Britons (north), twelve
/// elements each, deployed on a 15 BW table with a wood and a gentle hill.
pub fn demo_setup() -> BattleSetup {
    use crate::battle::{ArmySetup, ElementSetup};
    use crate::battlefield::{Battlefield, Board, BoardEdge, Variant};
    use crate::terrain::{AreaFeature, AreaKind, TerrainFeature};

    let el = |id: u32, code: &str, x: f64, y: f64, facing: f64, general: bool| ElementSetup {
        id: ElementId(id),
        kind: code.parse().expect("demo codes are valid"),
        pose: Pose::new(x, y, facing),
        general,
        contingent: None,
        dismounts_as: None,
        mobile_tower: false,
    };
    let romans = vec![
        el(1, "Cv", 7.5, 2.5, 0.0, true),
        el(2, "4Bd", 4.5, 4.0, 0.0, false),
        el(3, "4Bd", 5.5, 4.0, 0.0, false),
        el(4, "4Bd", 6.5, 4.0, 0.0, false),
        el(5, "4Bd", 7.5, 4.0, 0.0, false),
        el(6, "4Bd", 8.5, 4.0, 0.0, false),
        el(7, "4Bd", 9.5, 4.0, 0.0, false),
        el(8, "4Bd", 10.5, 4.0, 0.0, false),
        el(9, "Art", 7.5, 1.0, 0.0, false),
        el(10, "Ps", 2.5, 4.0, 0.0, false),
        el(11, "4Ax", 12.5, 4.0, 0.0, false),
        el(12, "LH", 13.0, 2.0, 0.0, false),
    ];
    let britons = vec![
        el(101, "LCh", 7.5, 12.8, 180.0, true),
        el(102, "3Wb", 4.5, 11.0, 180.0, false),
        el(103, "3Wb", 5.5, 11.0, 180.0, false),
        el(104, "3Wb", 6.5, 11.0, 180.0, false),
        el(105, "3Wb", 7.5, 11.0, 180.0, false),
        el(106, "3Wb", 8.5, 11.0, 180.0, false),
        el(107, "3Wb", 9.5, 11.0, 180.0, false),
        el(108, "3Wb", 10.5, 11.0, 180.0, false),
        el(109, "LCh", 3.0, 12.8, 180.0, false),
        el(110, "LCh", 12.0, 12.8, 180.0, false),
        el(111, "Ps", 2.5, 11.0, 180.0, false),
        el(112, "Ps", 12.5, 11.0, 180.0, false),
    ];
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::Wood,
        crate::geometry::Point::new(3.2, 7.5),
        1.7,
        1.55,
        0.0,
        20,
    )));
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::GentleHill,
        crate::geometry::Point::new(11.5, 7.6),
        1.5,
        1.1,
        0.0,
        20,
    )));
    let armies = vec![
        ArmySetup {
            name: "Romans".into(),
            base_edge: BoardEdge::South,
            elements: romans,
            camp: None,
            camp_followers: false,
        },
        ArmySetup {
            name: "Britons".into(),
            base_edge: BoardEdge::North,
            elements: britons,
            camp: None,
            camp_followers: false,
        },
    ];
    BattleSetup::new(Variant::Standard, bf, armies)
}

/// The two armies of the demonstration game before the battle: a Roman army (aggression 3,
/// arable) and Ancient Britons (aggression 1, forest), twelve elements each, for
/// [`play_game`]. The elements are those of [`demo_setup`] without their positions.
pub fn demo_armies() -> PrebattleSetup {
    let entry =
        |name: &str, aggression, home_terrain, setup: &crate::battle::ArmySetup| ArmyEntry {
            name: name.to_string(),
            aggression,
            home_terrain,
            littoral: false,
            elements: setup
                .elements
                .iter()
                .map(|e| EntryElement {
                    general: e.general,
                    ..EntryElement::new(e.kind)
                })
                .collect(),
        };
    let s = demo_setup();
    PrebattleSetup::new(vec![
        entry("Romans", 3, HomeTerrain::Arable, &s.armies[0]),
        entry("Britons", 1, HomeTerrain::Forest, &s.armies[1]),
    ])
}
