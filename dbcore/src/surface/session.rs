//! [`Session`]: one game in progress, its history and its dice tray.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::ai::{Ai, AiConfig};
use crate::battle::{
    self, notation, Action, Battle, ElementId, Prebattle, PrebattleAction, PrebattleEvent,
    PrebattleSetup,
};
use crate::battlefield::Variant;
use crate::bugs;
use crate::dbaix;
use crate::dice::{DieScore, SeededDice};
use crate::driver::{Demonstration, Policy};
use crate::error::ErrorCode;
use crate::game::{AnyAction, AnyBattle, AnyEvent, AnySetup};
use crate::record::{GameFile, GameMoves, Replayed};

use super::{params, to_value, Answer, SurfaceError};

/// Where a session's game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The pre-battle of a game from two armies (§3–§5).
    Prebattle,
    /// The battle.
    Battle,
    /// The battle is over.
    Finished,
}

/// The game itself.
#[derive(Debug, Clone)]
enum Game {
    Prebattle(Box<Prebattle>),
    Battle {
        /// The finished pre-battle, when the game had one (its record is the game's start).
        prebattle: Option<Box<Prebattle>>,
        battle: AnyBattle,
    },
    /// A BUGS! encounter, the second game.
    Bugs(Box<bugs::Encounter>),
}

/// One thing that happened: a pre-battle event, a battle event or a BUGS! event.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
enum Logged {
    Prebattle(PrebattleEvent),
    Battle(AnyEvent),
    Bugs(bugs::Event),
}

/// What undoing an action restores besides the game.
#[derive(Debug, Clone)]
struct Mark {
    /// Events logged before the action.
    logged: usize,
    /// The dice tray before the action.
    tray: SeededDice,
}

/// Most dice a decision may want from the tray: a Big Battle's or Giant's PIP dice (one a
/// command, [`crate::limits::MAX_COMMANDS`] at most) or two for a shot or combat.
const TRAY_PEEK: usize = crate::limits::MAX_COMMANDS;

/// The seed of the dice tray when the caller gives none.
pub const DEFAULT_SEED: u64 = 1;

/// One game in progress of any kind the project plays, with every event so far, its history for
/// `undo`, and a seeded dice tray that supplies the dice of actions nobody rolled (a player at a
/// real table passes the scores thrown instead). See the module documentation of
/// [`crate::surface`] for the methods.
#[derive(Debug, Clone)]
pub struct Session {
    game: Game,
    tray: SeededDice,
    seed: u64,
    log: Vec<Logged>,
    marks: Vec<Mark>,
    tags: BTreeMap<String, String>,
}

/// How a session starts: exactly one of `setup`, `lists`, `game`, `state`, `demo` or `bugs`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct How {
    /// A set-up of either game: the battle starts from it.
    #[serde(default)]
    setup: Option<Value>,
    /// Two army lists by id or name: the game starts with its pre-battle.
    #[serde(default)]
    lists: Option<Vec<String>>,
    /// With `lists`: standard (the default), big_battle or giant.
    #[serde(default)]
    variant: Option<Variant>,
    /// With `lists`: who plays the pre-battle: "caller" (the default: step by step), "driver"
    /// (the demonstration plays it whole) or "ai" (the opponent makes every army's choices).
    #[serde(default)]
    prebattle: Option<String>,
    /// A game record in any spelling dbcore reads: it is replayed.
    #[serde(default)]
    game: Option<Value>,
    /// A saved battle state (JSON text or value).
    #[serde(default)]
    state: Option<Value>,
    /// A demonstration: "battle" (the demonstration set-up), "armies" (its two armies from
    /// their pre-battle) or "dbaix" (the DBAix demonstration).
    #[serde(default)]
    demo: Option<String>,
    /// A BUGS! encounter: its set-up (`{"format": "dbcore-bugs", ...}`), or one of the three
    /// demonstration encounters on the caller's tables file (`{"encounter": 1, "tables":
    /// {...}}`).
    #[serde(default)]
    bugs: Option<Value>,
    /// The dice tray's seed (and the pre-battle driver's), 1 when not given.
    #[serde(default)]
    seed: Option<u64>,
    /// Tags written into the game record (the armies, the event, ...).
    #[serde(default)]
    tags: Option<BTreeMap<String, String>>,
}

fn dice_of(given: &[u8]) -> Result<Vec<DieScore>, SurfaceError> {
    given
        .iter()
        .map(|&d| DieScore::new(d).map_err(|e| SurfaceError::of(&e)))
        .collect()
}

fn game_err(e: crate::game::GameError) -> SurfaceError {
    SurfaceError::of(&e)
}

fn record_err(e: crate::record::RecordError) -> SurfaceError {
    SurfaceError::of(&e)
}

/// The answer to a question the game does not offer.
fn not_offered(method: &str, what: &str) -> SurfaceError {
    SurfaceError::argument(format!("`{method}` is not offered {what}"))
}

impl Session {
    /// Start a session: `how` is one of `{"setup": ...}`, `{"lists": ["II/56", "II/53"],
    /// "variant": "standard", "prebattle": "caller"}`, `{"game": <a game record>}`,
    /// `{"state": <a saved state>}` or `{"demo": "battle"}`, with an optional `"seed"` for the
    /// dice tray and `"tags"` for the record.
    pub fn new(how: Value) -> Result<Session, SurfaceError> {
        let how: How = params(how)?;
        let given = [
            how.setup.is_some(),
            how.lists.is_some(),
            how.game.is_some(),
            how.state.is_some(),
            how.demo.is_some(),
            how.bugs.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(SurfaceError::argument(
                "a session starts from exactly one of `setup`, `lists`, `game`, `state`, `demo` \
                 or `bugs`",
            ));
        }
        let seed = how.seed.unwrap_or(DEFAULT_SEED);
        let mut s = Session {
            game: Game::Prebattle(Box::new(
                Prebattle::new(crate::driver::demo_armies()).map_err(|e| SurfaceError::of(&e))?,
            )),
            tray: SeededDice::new(seed),
            seed,
            log: Vec::new(),
            marks: Vec::new(),
            tags: how.tags.unwrap_or_default(),
        };
        if how.variant.is_some() && how.lists.is_none() {
            return Err(SurfaceError::argument("`variant` goes with `lists`"));
        }
        if how.prebattle.is_some() && how.lists.is_none() && how.demo.as_deref() != Some("armies") {
            return Err(SurfaceError::argument(
                "`prebattle` goes with `lists` or the `armies` demonstration",
            ));
        }
        if let Some(setup) = how.setup {
            let setup = any_setup(setup)?;
            s.game = Game::Battle {
                prebattle: None,
                battle: AnyBattle::new(setup).map_err(game_err)?,
            };
        } else if let Some(lists) = how.lists {
            let [first, second] = &lists[..] else {
                return Err(SurfaceError::argument(
                    "`lists` names two army lists, by id or name",
                ));
            };
            let variant = how.variant.unwrap_or(Variant::Standard);
            let setup =
                match variant {
                    Variant::Standard => PrebattleSetup::from_lists(first, second),
                    Variant::BigBattle | Variant::Giant => {
                        PrebattleSetup::from_big_lists(variant, first, second)
                    }
                    Variant::Dbaix => return Err(SurfaceError::argument(
                        "DBAix is played from a set-up (`demo: \"dbaix\"`), not from army lists",
                    )),
                }
                .map_err(|e| SurfaceError::of(&e))?;
            s.tags
                .entry("red".into())
                .or_insert_with(|| army_tag(&setup, 0));
            s.tags
                .entry("blue".into())
                .or_insert_with(|| army_tag(&setup, 1));
            s.start_prebattle(setup, how.prebattle.as_deref())?;
        } else if let Some(game) = how.game {
            let file = match game {
                Value::String(text) => GameFile::from_json(&text),
                v => GameFile::from_value(v),
            }
            .map_err(record_err)?;
            s.tags.extend(file.tags.clone());
            s.load(&file)?;
        } else if let Some(state) = how.state {
            let battle = match state {
                Value::String(text) => AnyBattle::from_state_json(&text),
                v => AnyBattle::from_state_value(v),
            }
            .map_err(game_err)?;
            s.game = Game::Battle {
                prebattle: None,
                battle,
            };
        } else if let Some(start) = how.bugs {
            s.start_bugs(bugs_setup(start)?)?;
        } else if let Some(demo) = how.demo {
            match demo.as_str() {
                "battle" => {
                    s.game = Game::Battle {
                        prebattle: None,
                        battle: AnyBattle::new(AnySetup::Dba(
                            Box::new(crate::driver::demo_setup()),
                        ))
                        .map_err(game_err)?,
                    }
                }
                "armies" => {
                    s.start_prebattle(crate::driver::demo_armies(), how.prebattle.as_deref())?
                }
                "dbaix" => {
                    s.game = Game::Battle {
                        prebattle: None,
                        battle: AnyBattle::new(AnySetup::Dbaix(crate::dbaix::driver::demo_setup()))
                            .map_err(game_err)?,
                    }
                }
                other => {
                    return Err(SurfaceError::argument(format!(
                        "`demo` is \"battle\", \"armies\" or \"dbaix\", not {:?}",
                        crate::limits::quote(other)
                    )))
                }
            }
        }
        Ok(s)
    }

    /// Start a BUGS! encounter: its opening's events are the first logged.
    fn start_bugs(&mut self, setup: bugs::BugsSetup) -> Result<(), SurfaceError> {
        let e = bugs::Encounter::new(setup).map_err(|e| SurfaceError::of(&e))?;
        self.log
            .extend(e.opening().iter().cloned().map(Logged::Bugs));
        self.game = Game::Bugs(Box::new(e));
        Ok(())
    }

    fn start_prebattle(
        &mut self,
        setup: PrebattleSetup,
        who: Option<&str>,
    ) -> Result<(), SurfaceError> {
        let pre = Prebattle::new(setup).map_err(|e| SurfaceError::of(&e))?;
        self.game = Game::Prebattle(Box::new(pre));
        match who.unwrap_or("caller") {
            "caller" => Ok(()),
            "driver" | "ai" => {
                let ai = who == Some("ai");
                // Each request is answered by one action; the cap guards a stalled chooser.
                for _ in 0..10_000 {
                    let Game::Prebattle(_) = &self.game else {
                        break;
                    };
                    let action = if ai {
                        self.ai_prebattle_choice(&AiConfig {
                            nodes: crate::ai::DEFAULT_NODES,
                            seed: self.seed,
                        })?
                    } else {
                        self.driver_prebattle_choice()?
                    };
                    self.apply_value(to_value(&action)?)?;
                }
                Ok(())
            }
            other => Err(SurfaceError::argument(format!(
                "`prebattle` is \"caller\", \"driver\" or \"ai\", not {:?}",
                crate::limits::quote(other)
            ))),
        }
    }

    /// Replace the game by `file` played again from its start, action by action, so that every
    /// event is logged and every action can be undone; the record's `result`, when it has one,
    /// is checked against where the game ends.
    fn load(&mut self, file: &GameFile) -> Result<(), SurfaceError> {
        self.log.clear();
        self.marks.clear();
        let actions: Vec<Value> = match &file.game {
            GameMoves::Dba {
                prebattle,
                setup,
                actions,
            } => {
                let mut all = Vec::new();
                match (prebattle, setup) {
                    (Some(p), None) => {
                        self.game = Game::Prebattle(Box::new(
                            Prebattle::new(p.setup.clone()).map_err(|e| SurfaceError::of(&e))?,
                        ));
                        for a in &p.actions {
                            all.push(to_value(a)?);
                        }
                    }
                    (None, Some(s)) => {
                        self.game = Game::Battle {
                            prebattle: None,
                            battle: AnyBattle::new(AnySetup::Dba(s.clone())).map_err(game_err)?,
                        };
                    }
                    _ => return Err(record_err(crate::record::RecordError::Start)),
                }
                for a in actions {
                    all.push(to_value(a)?);
                }
                all
            }
            GameMoves::Dbaix { setup, actions } => {
                self.game = Game::Battle {
                    prebattle: None,
                    battle: AnyBattle::new(AnySetup::Dbaix((**setup).clone())).map_err(game_err)?,
                };
                actions.iter().map(to_value).collect::<Result<_, _>>()?
            }
            GameMoves::Bugs { setup, actions } => {
                self.start_bugs((**setup).clone())?;
                actions.iter().map(to_value).collect::<Result<_, _>>()?
            }
        };
        for (index, a) in actions.into_iter().enumerate() {
            self.apply_value(a).map_err(|e| SurfaceError {
                message: format!("action {index} of the record was refused: {}", e.message),
                ..e
            })?;
        }
        if let Some(written) = &file.result {
            let now = self.record().result.unwrap_or(crate::record::GameResult {
                bounds: 0,
                winners: None,
            });
            if *written != now {
                return Err(record_err(crate::record::RecordError::Result {
                    written: written.clone(),
                    replayed: now,
                }));
            }
        }
        Ok(())
    }

    /// Actions applied since the game began: the pre-battle's and the battle's.
    pub fn revision(&self) -> usize {
        match &self.game {
            Game::Prebattle(p) => p.actions().len(),
            Game::Battle { prebattle, battle } => {
                prebattle.as_ref().map_or(0, |p| p.actions().len())
                    + match battle {
                        AnyBattle::Dba(b) => b.actions().len(),
                        AnyBattle::Dbaix(b) => b.actions().len(),
                    }
            }
            Game::Bugs(e) => e.actions().len(),
        }
    }

    /// Where the game stands.
    pub fn stage(&self) -> Stage {
        match &self.game {
            Game::Prebattle(_) => Stage::Prebattle,
            Game::Battle { battle, .. } if battle.finished() => Stage::Finished,
            Game::Battle { .. } => Stage::Battle,
            Game::Bugs(e) if e.is_over() => Stage::Finished,
            Game::Bugs(_) => Stage::Battle,
        }
    }

    /// The battle, once the pre-battle (if any) is over.
    pub fn battle(&self) -> Option<&AnyBattle> {
        match &self.game {
            Game::Battle { battle, .. } => Some(battle),
            Game::Prebattle(_) | Game::Bugs(_) => None,
        }
    }

    /// The BUGS! encounter, when the session plays one.
    pub fn encounter(&self) -> Option<&bugs::Encounter> {
        match &self.game {
            Game::Bugs(e) => Some(e),
            _ => None,
        }
    }

    /// The pre-battle while it is being played.
    pub fn prebattle(&self) -> Option<&Prebattle> {
        match &self.game {
            Game::Prebattle(p) => Some(p),
            Game::Battle { .. } | Game::Bugs(_) => None,
        }
    }

    /// The DBA battle, or an error naming `method` as not offered.
    fn dba(&self, method: &str) -> Result<&Battle, SurfaceError> {
        match &self.game {
            Game::Battle {
                battle: AnyBattle::Dba(b),
                ..
            } => Ok(b),
            Game::Battle { .. } => Err(not_offered(method, "for a DBAix game")),
            Game::Prebattle(_) => Err(not_offered(method, "before the battle begins")),
            Game::Bugs(_) => Err(not_offered(method, "for a BUGS! encounter")),
        }
    }

    /// The game record: its start, every action, the tags and how it stands.
    pub fn record(&self) -> GameFile {
        let mut file = match &self.game {
            Game::Prebattle(p) => GameFile::of_prebattle(p.record()),
            Game::Battle {
                prebattle: Some(p),
                battle: AnyBattle::Dba(b),
            } => GameFile::of_game(battle::GameRecord {
                prebattle: p.record(),
                battle: b.actions().to_vec(),
            }),
            Game::Battle { battle, .. } => GameFile::of_any(battle),
            Game::Bugs(e) => GameFile::of_bugs(e.record()),
        };
        file.tags = self.tags.clone();
        file.result = Some(match &self.game {
            Game::Prebattle(_) => crate::record::GameResult {
                bounds: 0,
                winners: None,
            },
            Game::Battle { battle, .. } => crate::record::result_of(battle),
            Game::Bugs(e) => crate::record::bugs_result(e),
        });
        file
    }

    /// The dice for this decision: those given, or the tray's next ones (not drawn yet): as
    /// many as a BUGS! roll awaits, else enough for any DBA decision.
    fn dice_for(&self, given: Option<&[u8]>) -> Result<Vec<DieScore>, SurfaceError> {
        match given {
            Some(d) => dice_of(d),
            None => {
                let count = match &self.game {
                    Game::Bugs(e) => e.awaiting().map_or(0, |r| usize::from(r.count)),
                    _ => TRAY_PEEK,
                };
                let mut t = self.tray.clone();
                Ok((0..count).map(|_| t.roll()).collect())
            }
        }
    }

    /// Read an action for the game as it stands.
    fn action_of(&self, v: Value) -> Result<StageAction, SurfaceError> {
        let read = |e: crate::Error| SurfaceError::of(&e);
        Ok(match &self.game {
            Game::Prebattle(_) => StageAction::Prebattle(crate::json::from_value(v).map_err(read)?),
            Game::Battle {
                battle: AnyBattle::Dba(_),
                ..
            } => StageAction::Battle(AnyAction::Dba(crate::json::from_value(v).map_err(read)?)),
            Game::Battle {
                battle: AnyBattle::Dbaix(_),
                ..
            } => StageAction::Battle(AnyAction::Dbaix(crate::json::from_value(v).map_err(read)?)),
            Game::Bugs(_) => StageAction::Bugs(crate::json::from_value(v).map_err(read)?),
        })
    }

    /// The events `action` would cause, changing nothing.
    fn check_action(&self, action: &StageAction) -> Result<Vec<Logged>, SurfaceError> {
        match (&self.game, action) {
            (Game::Prebattle(p), StageAction::Prebattle(a)) => p
                .check(a)
                .map(|e| e.into_iter().map(Logged::Prebattle).collect())
                .map_err(|e| SurfaceError::of(&e)),
            (Game::Battle { battle, .. }, StageAction::Battle(a)) => battle
                .check(a)
                .map(|e| e.into_iter().map(Logged::Battle).collect())
                .map_err(game_err),
            (Game::Bugs(e), StageAction::Bugs(a)) => e
                .check(a)
                .map(|e| e.into_iter().map(Logged::Bugs).collect())
                .map_err(|e| SurfaceError::of(&e)),
            _ => Err(SurfaceError::argument(
                "the action is not for this stage of the game",
            )),
        }
    }

    /// Apply `action`: its events, or a refusal that leaves everything as it was.
    fn apply_action(&mut self, action: StageAction) -> Result<Vec<Logged>, SurfaceError> {
        let mark = Mark {
            logged: self.log.len(),
            tray: self.tray.clone(),
        };
        let dice = action.dice();
        let events: Vec<Logged> = match (&mut self.game, action) {
            (Game::Prebattle(p), StageAction::Prebattle(a)) => p
                .apply(a)
                .map_err(|e| SurfaceError::of(&e))?
                .into_iter()
                .map(Logged::Prebattle)
                .collect(),
            (Game::Battle { battle, .. }, StageAction::Battle(a)) => battle
                .apply(a)
                .map_err(game_err)?
                .into_iter()
                .map(Logged::Battle)
                .collect(),
            (Game::Bugs(e), StageAction::Bugs(a)) => e
                .apply(a)
                .map_err(|e| SurfaceError::of(&e))?
                .into_iter()
                .map(Logged::Bugs)
                .collect(),
            _ => {
                return Err(SurfaceError::argument(
                    "the action is not for this stage of the game",
                ))
            }
        };
        // Dice used are drawn from the tray, whoever threw them, so that the tray's next dice
        // are new ones.
        for _ in 0..dice {
            self.tray.roll();
        }
        self.marks.push(mark);
        self.log.extend(events.iter().cloned());
        // The last deployment ends the pre-battle: the battle begins.
        if let Game::Prebattle(p) = &self.game {
            if let Some(setup) = p.battle_setup() {
                let battle = Battle::new(setup).map_err(|e| SurfaceError::of(&e))?;
                let Game::Prebattle(p) = std::mem::replace(
                    &mut self.game,
                    Game::Battle {
                        prebattle: None,
                        battle: AnyBattle::Dba(Box::new(battle)),
                    },
                ) else {
                    unreachable!("the game was in its pre-battle just above")
                };
                if let Game::Battle { prebattle, .. } = &mut self.game {
                    *prebattle = Some(p);
                }
            }
        }
        Ok(events)
    }

    fn apply_value(&mut self, v: Value) -> Result<Vec<Logged>, SurfaceError> {
        let a = self.action_of(v)?;
        self.apply_action(a)
    }

    /// Take back the last action: the game, the events and the dice tray return to where they
    /// were before it. Returns the action undone.
    fn undo(&mut self) -> Answer {
        let mut file = self.record();
        file.result = None;
        let undone = match &mut file.game {
            GameMoves::Dba {
                prebattle, actions, ..
            } => {
                if let Some(a) = actions.pop() {
                    to_value(&a)?
                } else if let Some(p) = prebattle {
                    match p.actions.pop() {
                        Some(a) => to_value(&a)?,
                        None => return Err(nothing_to_undo()),
                    }
                } else {
                    return Err(nothing_to_undo());
                }
            }
            GameMoves::Dbaix { actions, .. } => match actions.pop() {
                Some(a) => to_value(&a)?,
                None => return Err(nothing_to_undo()),
            },
            GameMoves::Bugs { actions, .. } => match actions.pop() {
                Some(a) => to_value(&a)?,
                None => return Err(nothing_to_undo()),
            },
        };
        let Some(mark) = self.marks.last().cloned() else {
            return Err(nothing_to_undo());
        };
        let replayed = file.replay().map_err(record_err)?;
        self.game = match replayed {
            Replayed::Prebattle { prebattle, .. } => Game::Prebattle(prebattle),
            Replayed::Battle {
                prebattle, battle, ..
            } => Game::Battle { prebattle, battle },
            Replayed::Bugs { encounter, .. } => Game::Bugs(encounter),
        };
        self.marks.pop();
        self.log.truncate(mark.logged);
        self.tray = mark.tray;
        Ok(json!({ "action": undone, "revision": self.revision() }))
    }

    /// The demonstration driver's answer to the pre-battle's request (dice from the tray).
    fn driver_prebattle_choice(&self) -> Result<PrebattleAction, SurfaceError> {
        let Game::Prebattle(p) = &self.game else {
            return Err(not_offered("driver", "here"));
        };
        let req = p
            .awaiting()
            .ok_or_else(|| SurfaceError::new(ErrorCode::WrongPhase, "the pre-battle is over"))?;
        let mut dice = self.tray.clone();
        crate::driver::prebattle_choice(p, &req, &mut dice).map_err(|e| SurfaceError::of(&e))
    }

    /// The opponent's answer to the pre-battle's request, the driver's where it has none.
    fn ai_prebattle_choice(&self, config: &AiConfig) -> Result<PrebattleAction, SurfaceError> {
        let Game::Prebattle(p) = &self.game else {
            return Err(not_offered("ai", "here"));
        };
        let req = p
            .awaiting()
            .ok_or_else(|| SurfaceError::new(ErrorCode::WrongPhase, "the pre-battle is over"))?;
        match crate::ai::prebattle::choose(p, &req, config) {
            Some(a) => Ok(a),
            None => self.driver_prebattle_choice(),
        }
    }

    /// The concrete legal actions of the pre-battle now: its dice from `dice`, every base edge
    /// allowed, every quarter, and for the choices placed on the table (features, camps,
    /// deployment) the demonstration driver's and the opponent's answers, each checked.
    fn prebattle_legal_actions(&self, p: &Prebattle, dice: &[DieScore]) -> Vec<PrebattleAction> {
        use crate::battle::PrebattleRequest as R;
        let Some(req) = p.awaiting() else {
            return Vec::new();
        };
        let mut v: Vec<PrebattleAction> = Vec::new();
        match &req {
            R::AggressionDice { armies } if dice.len() >= *armies => {
                v.push(PrebattleAction::RollAggression {
                    dice: dice[..*armies].to_vec(),
                });
            }
            R::PlacementDie { .. } => v.extend(
                dice.first()
                    .map(|&die| PrebattleAction::RollPlacement { die }),
            ),
            R::Quarter { .. } => v.extend((1..=4).map(|q| PrebattleAction::ChooseQuarter {
                quarter: crate::battlefield::Quarter(q),
            })),
            R::BaseEdge { allowed, .. } => v.extend(
                allowed
                    .iter()
                    .map(|&edge| PrebattleAction::ChooseBaseEdge { edge }),
            ),
            R::Placement { .. } => v.push(PrebattleAction::DiscardFeature),
            R::Camp { .. } => v.push(PrebattleAction::NoCamp),
            _ => {}
        }
        let mut tray = SeededDice::new(self.seed ^ p.actions().len() as u64);
        if let Ok(a) = crate::driver::prebattle_choice(p, &req, &mut tray) {
            v.push(a);
        }
        if let Some(a) = crate::ai::prebattle::choose(
            p,
            &req,
            &AiConfig {
                nodes: crate::ai::DEFAULT_NODES,
                seed: self.seed,
            },
        ) {
            v.push(a);
        }
        let mut out: Vec<PrebattleAction> = Vec::new();
        for a in v {
            if !out.contains(&a) && p.check(&a).is_ok() {
                out.push(a);
            }
        }
        out
    }

    /// Answer a method of the session by name (see [`super::SESSION_METHODS`]).
    pub fn call(&mut self, method: &str, params: Value) -> Answer {
        super::methods::session_call(self, method, params)
    }
}

/// An action for the game as it stands.
#[derive(Debug, Clone)]
enum StageAction {
    Prebattle(PrebattleAction),
    Battle(AnyAction),
    Bugs(bugs::Action),
}

impl StageAction {
    /// How many dice the action carries (drawn from the tray after it is applied).
    fn dice(&self) -> usize {
        use crate::battle::PrebattleAction as P;
        match self {
            StageAction::Battle(AnyAction::Dba(a)) => match a {
                Action::RollPips { .. } | Action::DiceRiver { .. } => 1,
                Action::RollCommandPips { dice } => dice.len(),
                Action::Shoot { .. } | Action::Fight { .. } => 2,
                _ => 0,
            },
            StageAction::Battle(AnyAction::Dbaix(a)) => match a {
                dbaix::Action::RollPips { .. } => 1,
                dbaix::Action::Fight { .. } => 2,
                _ => 0,
            },
            StageAction::Prebattle(a) => match a {
                P::RollAggression { dice } => dice.len(),
                P::RollPlacement { .. } => 1,
                _ => 0,
            },
            StageAction::Bugs(a) => match a {
                bugs::Action::Roll { dice } => dice.len(),
                _ => 0,
            },
        }
    }
}

fn nothing_to_undo() -> SurfaceError {
    SurfaceError::new(ErrorCode::WrongPhase, "there is no action to undo")
}

fn army_tag(setup: &PrebattleSetup, army: usize) -> String {
    setup
        .armies
        .get(army)
        .map_or_else(String::new, |a| a.name.clone())
}

/// What a BUGS! start names: a set-up, or a demonstration encounter on the caller's tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BugsDemo {
    /// 1 the escort, 2 the defence of a settlement, 3 the raid on a nest.
    encounter: u8,
    /// The user's tables file (BUGS §17): the values the transcription lost.
    tables: Value,
}

/// Read the `bugs` start of a session: a set-up (it has a `format`) or a demonstration.
fn bugs_setup(v: Value) -> Result<bugs::BugsSetup, SurfaceError> {
    let v = match v {
        Value::String(text) => crate::json::from_str(&text).map_err(|e| SurfaceError::of(&e))?,
        v => v,
    };
    if v.get("format").is_some() {
        return crate::json::from_value(v).map_err(|e| SurfaceError::of(&e));
    }
    let demo: BugsDemo = params(v)?;
    let tables: bugs::TablesFile = match demo.tables {
        Value::String(text) => crate::json::from_str(&text),
        v => crate::json::from_value(v),
    }
    .map_err(|e| SurfaceError::of(&e))?;
    bugs::demo_setup(demo.encounter, tables).map_err(SurfaceError::argument)
}

/// Read a set-up of either game (a value or JSON text).
fn any_setup(v: Value) -> Result<AnySetup, SurfaceError> {
    let text = match v {
        Value::String(s) => s,
        v => v.to_string(),
    };
    AnySetup::from_json(&text).map_err(game_err)
}

/// The session's methods, each a small function of the session and its parameters.
pub(super) mod answers {
    use super::*;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct None_ {}

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct WithAction {
        pub action: Value,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct LegalActions {
        #[serde(default)]
        pub dice: Option<Vec<u8>>,
        #[serde(default)]
        pub element: Option<u32>,
        #[serde(default)]
        pub notation: bool,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Play {
        pub text: String,
        #[serde(default)]
        pub dice: Option<Vec<u8>>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Describe {
        pub action: Value,
        #[serde(default)]
        pub decimals: Option<u8>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Since {
        /// The first event wanted, by its number among every event so far.
        #[serde(default)]
        pub since: usize,
        /// Or: the events from the action of this number on (0 for the first).
        #[serde(default)]
        pub from_action: Option<usize>,
    }

    impl Since {
        /// The first event wanted.
        fn first(&self, s: &Session) -> usize {
            match self.from_action {
                // From the first action: the events of the start (a BUGS! opening) too.
                Some(0) => 0,
                Some(n) => s.marks.get(n).map_or(s.log.len(), |m| m.logged),
                None => self.since,
            }
        }
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Svg {
        #[serde(default)]
        pub threat_zones: bool,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Opponent {
        #[serde(default)]
        pub nodes: Option<u32>,
        #[serde(default)]
        pub seed: Option<u64>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Pair {
        pub a: u32,
        pub b: u32,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ShotOdds {
        pub shooter: u32,
        pub target: u32,
        #[serde(default)]
        pub support: Vec<u32>,
        #[serde(default)]
        pub shoots_back: bool,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Reach {
        pub element: u32,
        #[serde(default)]
        pub bearings: Option<u32>,
    }

    pub fn info(s: &Session) -> Answer {
        if let Game::Bugs(e) = &s.game {
            let result = s.record().result;
            return Ok(json!({
                "game": "bugs",
                "variant": to_value(&e.setup().encounter)?,
                "stage": s.stage(),
                "phase": to_value(&e.need())?,
                "army": to_value(&e.active())?,
                "bound": e.turn(),
                "pips": 0,
                "revision": s.revision(),
                "events": s.log.len(),
                "armies": ["humans", "bugs"],
                "winners": result.and_then(|r| r.winners),
                "awaiting": awaiting(s)?,
                "seed": s.seed,
                "verdict": to_value(&e.verdict())?,
            }));
        }
        let (game, variant, phase, army, bound, pips, armies) = match &s.game {
            Game::Bugs(_) => unreachable!("answered above"),
            Game::Prebattle(p) => (
                "dba",
                p.setup().variant,
                json!("prebattle"),
                Value::Null,
                0,
                0,
                p.setup().armies.iter().map(|a| a.name.clone()).collect(),
            ),
            Game::Battle {
                battle: AnyBattle::Dba(b),
                ..
            } => (
                "dba",
                b.setup().variant,
                to_value(&b.phase())?,
                json!(b.active_army()),
                b.bound(),
                b.pips(),
                b.setup().armies.iter().map(|a| a.name.clone()).collect(),
            ),
            Game::Battle {
                battle: AnyBattle::Dbaix(b),
                ..
            } => (
                "dbaix",
                Variant::Dbaix,
                to_value(&b.phase())?,
                json!(b.active_side().index()),
                b.bound(),
                b.pips(),
                dbaix::Side::ALL
                    .iter()
                    .map(|s| format!("{s:?}"))
                    .collect::<Vec<String>>(),
            ),
        };
        let result = s.record().result;
        Ok(json!({
            "game": game,
            "variant": variant,
            "stage": s.stage(),
            "phase": phase,
            "army": army,
            "bound": bound,
            "pips": pips,
            "revision": s.revision(),
            "events": s.log.len(),
            "armies": armies,
            "winners": result.and_then(|r| r.winners),
            "awaiting": awaiting(s)?,
            "seed": s.seed,
        }))
    }

    pub fn awaiting(s: &Session) -> Answer {
        match &s.game {
            Game::Prebattle(p) => to_value(&p.awaiting()),
            Game::Battle { battle, .. } => to_value(&battle.awaiting()),
            Game::Bugs(e) => to_value(&e.need()),
        }
    }

    pub fn legal(s: &Session) -> Answer {
        to_value(&s.dba("legal")?.legal())
    }

    pub fn legal_actions(s: &Session, p: LegalActions) -> Answer {
        let dice = s.dice_for(p.dice.as_deref())?;
        let (actions, texts): (Value, Option<Vec<String>>) = match &s.game {
            Game::Prebattle(pre) => {
                if p.element.is_some() {
                    return Err(not_offered(
                        "legal_actions of an element",
                        "in the pre-battle",
                    ));
                }
                (to_value(&s.prebattle_legal_actions(pre, &dice))?, None)
            }
            Game::Battle {
                battle: AnyBattle::Dba(b),
                ..
            } => {
                let list = match p.element {
                    Some(id) => b.legal_actions_of(ElementId(id)),
                    None => b.legal_actions(&dice),
                };
                let texts = p
                    .notation
                    .then(|| list.iter().map(notation::describe).collect());
                (to_value(&list)?, texts)
            }
            Game::Battle {
                battle: AnyBattle::Dbaix(b),
                ..
            } => {
                if p.element.is_some() {
                    return Err(not_offered(
                        "legal_actions of an element",
                        "for a DBAix game",
                    ));
                }
                (to_value(&b.legal_actions(&dice))?, None)
            }
            Game::Bugs(e) => {
                // While dice are awaited the one action is the roll; else every choice.
                let list = if e.awaiting().is_some() {
                    vec![bugs::Action::Roll { dice: dice.clone() }]
                } else {
                    e.legal_actions()
                };
                let list: Vec<bugs::Action> = match p.element {
                    Some(id) => list
                        .into_iter()
                        .filter(|a| bugs_figure(a) == Some(id))
                        .collect(),
                    None => list,
                };
                if p.notation {
                    return Err(not_offered("the notation", "for a BUGS! encounter"));
                }
                (to_value(&list)?, None)
            }
        };
        let used: Vec<u8> = dice.iter().take(TRAY_PEEK).map(|d| d.get()).collect();
        let mut out = json!({ "actions": actions, "dice": used });
        if let Some(t) = texts {
            out["texts"] = to_value(&t)?;
        }
        Ok(out)
    }

    pub fn check(s: &Session, p: WithAction) -> Answer {
        let a = s.action_of(p.action)?;
        Ok(json!({ "events": to_value(&s.check_action(&a)?)? }))
    }

    pub fn apply(s: &mut Session, p: WithAction) -> Answer {
        let a = s.action_of(p.action)?;
        let events = s.apply_action(a)?;
        Ok(json!({ "events": to_value(&events)?, "revision": s.revision() }))
    }

    fn parsed(s: &Session, text: &str, dice: Option<&[u8]>) -> Result<Action, SurfaceError> {
        let b = s.dba("play")?;
        let order: notation::Order = text.parse().map_err(|e| SurfaceError::of(&e))?;
        let dice = s.dice_for(dice)?;
        order.action(b, &dice).map_err(|e| SurfaceError::of(&e))
    }

    pub fn parse(s: &Session, p: Play) -> Answer {
        let a = parsed(s, &p.text, p.dice.as_deref())?;
        Ok(json!({ "action": to_value(&a)?, "text": notation::describe(&a) }))
    }

    pub fn play(s: &mut Session, p: Play) -> Answer {
        let a = parsed(s, &p.text, p.dice.as_deref())?;
        let text = notation::describe(&a);
        let action = to_value(&a)?;
        let events = s.apply_action(StageAction::Battle(AnyAction::Dba(a)))?;
        Ok(json!({
            "action": action,
            "text": text,
            "events": to_value(&events)?,
            "revision": s.revision(),
        }))
    }

    pub fn describe(s: &Session, p: Describe) -> Answer {
        s.dba("describe")?;
        let a: Action = crate::json::from_value(p.action).map_err(|e| SurfaceError::of(&e))?;
        let text = match p.decimals {
            Some(d) => notation::describe_rounded(&a, usize::from(d.min(12))),
            None => notation::describe(&a),
        };
        Ok(json!({ "text": text }))
    }

    pub fn undo(s: &mut Session) -> Answer {
        s.undo()
    }

    pub fn record(s: &Session) -> Answer {
        to_value(&s.record())
    }

    pub fn state(s: &Session) -> Answer {
        if let Game::Bugs(e) = &s.game {
            return to_value(&**e);
        }
        let Some(b) = s.battle() else {
            return Err(not_offered(
                "state",
                "before the battle begins (save the record)",
            ));
        };
        serde_json::from_str(&b.state_json())
            .map_err(|e| SurfaceError::new(ErrorCode::Internal, e.to_string()))
    }

    pub fn events(s: &Session, p: Since) -> Answer {
        to_value(&s.log.get(p.first(s)..).unwrap_or(&[]))
    }

    pub fn narrate(s: &Session, p: Since) -> Answer {
        let mut lines: Vec<String> = Vec::new();
        let mut battle_events: Vec<AnyEvent> = Vec::new();
        // Pre-battle events are told one by one; the battle's are told together, as a
        // combat's line depends on the events before it.
        let setup_of_pre = match &s.game {
            Game::Prebattle(p) => Some(p.setup().clone()),
            Game::Battle {
                prebattle: Some(p), ..
            } => Some(p.setup().clone()),
            _ => None,
        };
        if let Game::Bugs(e) = &s.game {
            let events: Vec<bugs::Event> = s
                .log
                .iter()
                .filter_map(|l| match l {
                    Logged::Bugs(e) => Some(e.clone()),
                    _ => None,
                })
                .collect();
            let lines = bugs::narrate(e.setup(), &events);
            return to_value(&lines.get(p.first(s)..).unwrap_or(&[]));
        }
        for e in &s.log {
            match e {
                Logged::Prebattle(e) => lines.push(
                    setup_of_pre
                        .as_ref()
                        .map(|setup| crate::battle::prebattle::describe(setup, e))
                        .unwrap_or_default(),
                ),
                Logged::Battle(e) => battle_events.push(e.clone()),
                Logged::Bugs(_) => {}
            }
        }
        if let Some(b) = s.battle() {
            lines.extend(narrate_battle(b, &battle_events));
        }
        // One line an event, aligned with the log (empty for the events a player leaves
        // untold, a PIP payment's total or a bound's end).
        to_value(&lines.get(p.first(s)..).unwrap_or(&[]))
    }

    pub fn svg(s: &Session, p: Svg) -> Answer {
        match s.battle() {
            Some(AnyBattle::Dba(b)) => Ok(json!({ "svg": b.svg(p.threat_zones) })),
            Some(AnyBattle::Dbaix(b)) => Ok(json!({ "svg": dbaix::svg::table_svg(b) })),
            None => match s.encounter() {
                Some(e) => Ok(json!({ "svg": bugs::svg(e) })),
                None => Err(not_offered("svg", "before the battle begins")),
            },
        }
    }

    pub fn elements(s: &Session) -> Answer {
        match s.battle() {
            Some(AnyBattle::Dba(b)) => to_value(&b.elements()),
            Some(AnyBattle::Dbaix(b)) => to_value(&b.figures()),
            None => match s.encounter() {
                Some(e) => to_value(&e.figures()),
                None => Err(not_offered("elements", "before the battle begins")),
            },
        }
    }

    fn opponent(p: &Opponent, s: &Session) -> AiConfig {
        AiConfig {
            nodes: p.nodes.unwrap_or(crate::ai::DEFAULT_NODES),
            seed: p.seed.unwrap_or(s.seed),
        }
    }

    /// Two dice from the tray, for a shot or combat the chooser picks.
    fn pair(s: &Session) -> [DieScore; 2] {
        let mut t = s.tray.clone();
        t.roll_pair()
    }

    pub fn ai(s: &Session, p: Opponent) -> Answer {
        let config = opponent(&p, s);
        let action = match &s.game {
            Game::Prebattle(_) => to_value(&s.ai_prebattle_choice(&config)?)?,
            Game::Battle {
                battle: AnyBattle::Dba(b),
                ..
            } => {
                let dice = needs_pair(b).then(|| pair(s));
                let a = Ai::new(config)
                    .next_action(b, dice)
                    .ok_or_else(|| no_choice("the opponent"))?;
                to_value(&a)?
            }
            Game::Battle {
                battle: AnyBattle::Dbaix(b),
                ..
            } => {
                let dice = s.dice_for(None)?;
                let a = b
                    .legal_actions(&dice)
                    .into_iter()
                    .next()
                    .ok_or_else(|| no_choice("the DBAix game"))?;
                to_value(&a)?
            }
            Game::Bugs(e) => to_value(&bugs_choice(s, e)?)?,
        };
        Ok(json!({ "action": action }))
    }

    /// The demonstration player's choice in a BUGS! encounter (reading R47), or the tray's
    /// dice when a roll is awaited.
    fn bugs_choice(s: &Session, e: &bugs::Encounter) -> Result<bugs::Action, SurfaceError> {
        if e.awaiting().is_some() {
            return Ok(bugs::Action::Roll {
                dice: s.dice_for(None)?,
            });
        }
        e.suggest().ok_or_else(|| no_choice("the BUGS! encounter"))
    }

    /// The figure a BUGS! action is for, when it names one.
    fn bugs_figure(a: &bugs::Action) -> Option<u32> {
        use bugs::Action as B;
        match a {
            B::Move { figure, .. }
            | B::Stay { figure, .. }
            | B::Charge { figure, .. }
            | B::Attack { figure, .. }
            | B::Fire { figure, .. }
            | B::HoldFire { figure } => Some(figure.0),
            B::Join { leader, .. } => Some(leader.0),
            B::Roll { .. } => None,
        }
    }

    pub fn driver(s: &Session) -> Answer {
        let action = match &s.game {
            Game::Prebattle(_) => to_value(&s.driver_prebattle_choice()?)?,
            Game::Battle {
                battle: AnyBattle::Dba(b),
                ..
            } => {
                let dice = needs_pair(b).then(|| pair(s));
                let a = match b.awaiting() {
                    // The driver rolls the PIP dice it is asked for: the tray's.
                    Some(crate::battle::DiceRequest::Pips { .. })
                    | Some(crate::battle::DiceRequest::CommandPips { .. }) => {
                        b.legal_actions(&s.dice_for(None)?).into_iter().next()
                    }
                    // Nothing to move: the driver's game loop ends the movement (`Policy`).
                    _ => Demonstration::new().next_action(b, dice).or_else(|| {
                        (b.phase() == crate::battle::Phase::Movement).then_some(Action::EndMovement)
                    }),
                }
                .ok_or_else(|| no_choice("the demonstration driver"))?;
                to_value(&a)?
            }
            Game::Battle { .. } => return Err(not_offered("driver", "for a DBAix game")),
            Game::Bugs(e) => to_value(&bugs_choice(s, e)?)?,
        };
        Ok(json!({ "action": action }))
    }

    fn needs_pair(b: &Battle) -> bool {
        matches!(
            b.awaiting(),
            Some(
                crate::battle::DiceRequest::Shot { .. } | crate::battle::DiceRequest::Combat { .. }
            )
        )
    }

    fn no_choice(who: &str) -> SurfaceError {
        SurfaceError::new(
            ErrorCode::WrongPhase,
            format!("{who} has no action to choose now"),
        )
    }

    pub fn combat_odds(s: &Session, p: Pair) -> Answer {
        let b = s.dba("combat_odds")?;
        let sit = b
            .combat_situation(ElementId(p.a), ElementId(p.b))
            .map_err(|e| SurfaceError::of(&e))?;
        let odds =
            crate::combat::odds(&sit, &b.setup().config).map_err(|e| SurfaceError::of(&e))?;
        Ok(json!({ "situation": to_value(&sit)?, "odds": to_value(&odds)? }))
    }

    pub fn shot_odds(s: &Session, p: ShotOdds) -> Answer {
        let b = s.dba("shot_odds")?;
        let strongholds = b.held_strongholds_kept();
        let ctx = b.move_context(&strongholds);
        let support: Vec<ElementId> = p.support.iter().map(|i| ElementId(*i)).collect();
        let sit = crate::battle::shot_situation(
            &ctx,
            ElementId(p.shooter),
            ElementId(p.target),
            &support,
            p.shoots_back,
        )
        .map_err(|e| SurfaceError::of(&e))?;
        let odds =
            crate::combat::odds(&sit, &b.setup().config).map_err(|e| SurfaceError::of(&e))?;
        Ok(json!({ "situation": to_value(&sit)?, "odds": to_value(&odds)? }))
    }

    pub fn reach(s: &Session, p: Reach) -> Answer {
        let b = s.dba("reach")?;
        let n = p.bearings.unwrap_or(16).clamp(1, 72);
        let mut out = Vec::new();
        for k in 0..n {
            let bearing = f64::from(k) * 360.0 / f64::from(n);
            if let Some(step) = b.farthest_step(&[ElementId(p.element)], bearing) {
                out.push(json!({
                    "bearing": bearing,
                    "distance": step.distance,
                    "action": to_value(step.action.action())?,
                }));
            }
        }
        Ok(json!({ "steps": out }))
    }

    /// A battle's events in a player's words, one line an event.
    pub fn narrate_battle(b: &AnyBattle, events: &[AnyEvent]) -> Vec<String> {
        match b {
            AnyBattle::Dba(b) => {
                let evs: Vec<battle::Event> = events
                    .iter()
                    .filter_map(|e| match e {
                        AnyEvent::Dba(e) => Some(e.clone()),
                        AnyEvent::Dbaix(_) => None,
                    })
                    .collect();
                battle::narrate::narrate(b.setup(), &evs)
            }
            AnyBattle::Dbaix(b) => {
                let evs: Vec<dbaix::Event> = events
                    .iter()
                    .filter_map(|e| match e {
                        AnyEvent::Dbaix(e) => Some(e.clone()),
                        AnyEvent::Dba(_) => None,
                    })
                    .collect();
                dbaix::driver::narrate(b.setup(), &evs)
            }
        }
    }
}
