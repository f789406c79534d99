//! The game record: one named, versioned file for a game of any kind the project plays, like a
//! chess game's PGN. What `dbcore play --json` writes, what `replay`, `render`, `validate` and
//! `narrate` read, what every binding saves and loads, and how the golden games are kept.
//!
//! ```json
//! {"format": "dbcore-game", "version": 1, "game": "dba",
//!  "tags": {"red": "II/56 Early Imperial Roman", "blue": "II/53 Ancient British", "seed": "2"},
//!  "prebattle": {"setup": {...}, "actions": [...]},
//!  "actions": [{"action": "roll_pips", "die": 4}, ...],
//!  "result": {"bounds": 14, "verdict": {...}}}
//! ```
//!
//! * `game` is `"dba"` (DBA 3.0, Big Battle and Giant: the set-up's `variant` says which),
//!   `"dbaix"`, or `"bugs"` (a BUGS! encounter: its `setup`, the tables file included, and its
//!   `actions`).
//! * A DBA game starts either from a `prebattle` (the armies and every pre-battle action, dice
//!   included, §3–§5) or from a `setup` (a battle set up by hand); `actions` are the battle's.
//!   A record may stop anywhere, the pre-battle included.
//! * `tags` are free text for people and programs (the armies, the seed, the date, the event);
//!   the referee never reads them.
//! * `result` is written for a reader's convenience; when a record carries one, reading it
//!   replays the game and refuses the file if the replay ends otherwise.
//!
//! [`GameFile::from_json`] also reads the spellings written before this format existed: a
//! battle record (`{"setup", "actions"}`), a whole game (`{"prebattle", "battle"}`), a DBAix
//! record, a BUGS! record (`{"format": "dbcore-bugs-record", ...}`) and a golden trace
//! (`{"record", "game", "events"}`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::battle::{
    self, Action, Battle, BattleRecord, BattleSetup, GameRecord, Prebattle, PrebattleRecord,
};
use crate::bugs;
use crate::dbaix;
use crate::error::{ErrorCode, ErrorInfo};
use crate::game::{AnyBattle, AnyEvent, GameError};

/// The `format` of a game record.
pub const FORMAT: &str = "dbcore-game";
/// The version of the game-record format this build reads and writes.
pub const VERSION: u32 = 1;

/// The keys a game record may have.
const KEYS: [&str; 8] = [
    "format",
    "version",
    "tags",
    "game",
    "prebattle",
    "setup",
    "actions",
    "result",
];

/// A game record of any kind (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// Free text for people: armies, seed, date, event. Never read by the referee.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
    /// The game and its moves.
    #[serde(flatten)]
    pub game: GameMoves,
    /// How the game ended, as written (checked against the replay when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

/// The game played and every action of it, dice included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "game", rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum GameMoves {
    /// DBA 3.0, Big Battle or Giant: from a pre-battle or from a set-up, then the battle.
    Dba {
        /// The pre-battle: the armies and every pre-battle action (absent for a set-up).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prebattle: Option<PrebattleRecord>,
        /// The battle's set-up, when the game did not start from a pre-battle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<Box<BattleSetup>>,
        /// The battle's actions.
        #[serde(default)]
        actions: Vec<Action>,
    },
    /// The three-sided DBAix variant.
    Dbaix {
        /// The set-up.
        setup: Box<dbaix::DbaixSetup>,
        /// Every action.
        #[serde(default)]
        actions: Vec<dbaix::Action>,
    },
    /// A BUGS! encounter, the second game.
    Bugs {
        /// The set-up, the user's tables file included.
        setup: Box<bugs::BugsSetup>,
        /// Every action.
        #[serde(default)]
        actions: Vec<bugs::Action>,
    },
}

/// How a game ended (or stands), as a record carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// Bounds begun in the battle (0 while in the pre-battle).
    pub bounds: u32,
    /// The armies that won, when the battle is over (none for a draw); `None` while it goes on.
    /// In BUGS! the sides are the humans (0) and the bugs (1): the humans win when the
    /// encounter's objective is met, else the bugs.
    #[serde(default)]
    pub winners: Option<Vec<usize>>,
}

/// A game record that cannot be read or replayed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// Not a game record in any spelling this build reads; the message names the field at fault.
    #[error("not a game record: {0}")]
    NotARecord(String),
    /// A game record of another format version.
    #[error("game record version {found} is not read by this build (it reads version {VERSION})")]
    Version {
        /// The version found.
        found: u32,
    },
    /// A DBA record with both a pre-battle and a set-up, or neither.
    #[error("a DBA game record starts from a `prebattle` or from a `setup`, exactly one of them")]
    Start,
    /// The record does not replay: its set-up, pre-battle or one of its actions is refused.
    #[error("the record does not replay: {0}")]
    Replay(GameError),
    /// The pre-battle of the record was refused at an action.
    #[error("pre-battle action {index} of the record was refused: {error}")]
    Prebattle {
        /// Its position among the pre-battle actions.
        index: usize,
        /// Why.
        error: battle::PrebattleError,
    },
    /// A BUGS! record does not replay.
    #[error("the BUGS! record does not replay: {0}")]
    Bugs(bugs::ReplayError),
    /// The record's `result` is not how its replay ends.
    #[error("the record says the game ended {written:?} but it replays to {replayed:?}")]
    Result {
        /// What the record says.
        written: GameResult,
        /// What the replay gives.
        replayed: GameResult,
    },
}

impl ErrorInfo for RecordError {
    fn code(&self) -> ErrorCode {
        match self {
            RecordError::NotARecord(_) => ErrorCode::InvalidJson,
            RecordError::Version { .. } | RecordError::Start => ErrorCode::InvalidSetup,
            RecordError::Replay(e) => e.code(),
            RecordError::Prebattle { error, .. } => error.code(),
            RecordError::Bugs(e) => e.code(),
            RecordError::Result { .. } => ErrorCode::InvalidSetup,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            RecordError::Replay(e) => e.rule(),
            RecordError::Prebattle { error, .. } => error.rule(),
            RecordError::Bugs(e) => e.rule(),
            _ => None,
        }
    }
}

/// A game record replayed: where it stands and everything that happened.
#[derive(Debug, Clone)]
pub enum Replayed {
    /// The record stops in the pre-battle.
    Prebattle {
        /// The pre-battle as the record leaves it.
        prebattle: Box<Prebattle>,
        /// Its events.
        prebattle_events: Vec<battle::PrebattleEvent>,
    },
    /// The battle has begun.
    Battle {
        /// The finished pre-battle, when the game had one.
        prebattle: Option<Box<Prebattle>>,
        /// The pre-battle's events.
        prebattle_events: Vec<battle::PrebattleEvent>,
        /// The battle as the record leaves it.
        battle: AnyBattle,
        /// The battle's events.
        events: Vec<AnyEvent>,
    },
    /// A BUGS! encounter.
    Bugs {
        /// The encounter as the record leaves it.
        encounter: Box<bugs::Encounter>,
        /// Every event, the opening's included.
        events: Vec<bugs::Event>,
    },
}

impl Replayed {
    /// How the replayed game stands.
    pub fn result(&self) -> GameResult {
        match self {
            Replayed::Prebattle { .. } => GameResult {
                bounds: 0,
                winners: None,
            },
            Replayed::Battle { battle, .. } => result_of(battle),
            Replayed::Bugs { encounter, .. } => bugs_result(encounter),
        }
    }
}

/// How a BUGS! encounter stands, as a record's `result` says it: the turns begun, and the
/// humans (0) or the bugs (1) winning once it is over.
pub fn bugs_result(e: &bugs::Encounter) -> GameResult {
    let v = e.verdict();
    GameResult {
        bounds: v.turn,
        winners: match (v.over, v.outcome) {
            (true, Some(bugs::Outcome::Success)) => Some(vec![0]),
            (true, Some(bugs::Outcome::Failure)) => Some(vec![1]),
            (true, None) => Some(Vec::new()),
            (false, _) => None,
        },
    }
}

/// How a battle stands, as a record's `result` says it.
pub fn result_of(battle: &AnyBattle) -> GameResult {
    match battle {
        AnyBattle::Dba(b) => GameResult {
            bounds: b.bound(),
            winners: match b.phase() {
                battle::Phase::Finished { winner } => Some(winner.into_iter().collect()),
                _ => None,
            },
        },
        AnyBattle::Dbaix(b) => GameResult {
            bounds: b.bound(),
            winners: match b.phase() {
                dbaix::Phase::Finished { winner } => {
                    Some(winner.map(|w| w.index()).into_iter().collect())
                }
                _ => None,
            },
        },
    }
}

impl GameFile {
    /// A record of a DBA battle played from a set-up.
    pub fn of_battle(record: BattleRecord) -> GameFile {
        GameFile::new(GameMoves::Dba {
            prebattle: None,
            setup: Some(Box::new(record.setup)),
            actions: record.actions,
        })
    }

    /// A record of a whole DBA game: its pre-battle and its battle.
    pub fn of_game(record: GameRecord) -> GameFile {
        GameFile::new(GameMoves::Dba {
            prebattle: Some(record.prebattle),
            setup: None,
            actions: record.battle,
        })
    }

    /// A record of a DBA game still in its pre-battle.
    pub fn of_prebattle(record: PrebattleRecord) -> GameFile {
        GameFile::new(GameMoves::Dba {
            prebattle: Some(record),
            setup: None,
            actions: Vec::new(),
        })
    }

    /// A record of a DBAix game.
    pub fn of_dbaix(record: dbaix::BattleRecord) -> GameFile {
        GameFile::new(GameMoves::Dbaix {
            setup: Box::new(record.setup),
            actions: record.actions,
        })
    }

    /// A record of a BUGS! encounter.
    pub fn of_bugs(record: bugs::BugsRecord) -> GameFile {
        GameFile::new(GameMoves::Bugs {
            setup: Box::new(record.setup),
            actions: record.actions,
        })
    }

    /// A record of a battle of either game played from its set-up.
    pub fn of_any(battle: &AnyBattle) -> GameFile {
        match battle {
            AnyBattle::Dba(b) => GameFile::of_battle(b.record()),
            AnyBattle::Dbaix(b) => GameFile::of_dbaix(b.record()),
        }
    }

    fn new(game: GameMoves) -> GameFile {
        GameFile {
            format: FORMAT.to_string(),
            version: VERSION,
            tags: BTreeMap::new(),
            game,
            result: None,
        }
    }

    /// The same record with a tag set.
    pub fn tag(mut self, key: &str, value: impl Into<String>) -> GameFile {
        self.tags.insert(key.to_string(), value.into());
        self
    }

    /// The same record with its `result` written from `replayed`.
    pub fn with_result(mut self, result: GameResult) -> GameFile {
        self.result = Some(result);
        self
    }

    /// The record as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a game record always serialises")
    }

    /// The record as indented JSON text, for files people read.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a game record always serialises")
    }

    /// Read a game record in this format or any earlier spelling (see the module
    /// documentation). Nothing is replayed: see [`GameFile::replay`].
    pub fn from_json(text: &str) -> Result<GameFile, RecordError> {
        let v: Value =
            crate::json::from_str(text).map_err(|e| RecordError::NotARecord(e.to_string()))?;
        GameFile::from_value(v)
    }

    /// [`GameFile::from_json`] of parsed JSON.
    pub fn from_value(v: Value) -> Result<GameFile, RecordError> {
        let Some(obj) = v.as_object() else {
            return Err(RecordError::NotARecord(
                "a game record is a JSON object".into(),
            ));
        };
        if let Some(f) = obj.get("format").and_then(Value::as_str) {
            if f == FORMAT {
                if let Some(found) = obj.get("version").and_then(Value::as_u64) {
                    if found != u64::from(VERSION) {
                        return Err(RecordError::Version {
                            found: u32::try_from(found).unwrap_or(u32::MAX),
                        });
                    }
                }
                // Unknown keys are refused (serde cannot deny them beside a flattened enum).
                if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
                    return Err(RecordError::NotARecord(format!(
                        "unknown field `{}`, expected one of {}",
                        crate::limits::quote(k),
                        KEYS.join(", ")
                    )));
                }
                let file: GameFile = if obj.get("game").and_then(Value::as_str) == Some("bugs") {
                    read_bugs(obj)?
                } else {
                    read(v)?
                };
                if let GameMoves::Dba {
                    prebattle, setup, ..
                } = &file.game
                {
                    if prebattle.is_some() == setup.is_some() {
                        return Err(RecordError::Start);
                    }
                }
                return Ok(file);
            }
        }
        if obj.get("format").and_then(Value::as_str) == Some(bugs::RECORD_FORMAT) {
            return read::<bugs::BugsRecord>(v).map(GameFile::of_bugs);
        }
        // A golden trace: its whole game when it has one, else its battle record.
        if obj.contains_key("record") && obj.contains_key("events") {
            let inner = obj
                .get("game")
                .filter(|g| g.get("prebattle").is_some())
                .or_else(|| obj.get("record"))
                .cloned()
                .unwrap_or(Value::Null);
            return GameFile::from_value(inner);
        }
        if obj.contains_key("prebattle") && obj.contains_key("battle") {
            return read::<GameRecord>(v).map(GameFile::of_game);
        }
        if let Some(setup) = obj.get("setup") {
            let dbaix = setup.get("variant").and_then(Value::as_str) == Some("dbaix")
                || setup.get("format").and_then(Value::as_str) == Some(dbaix::FORMAT);
            return if dbaix {
                read::<dbaix::BattleRecord>(v).map(GameFile::of_dbaix)
            } else {
                read::<BattleRecord>(v).map(GameFile::of_battle)
            };
        }
        Err(RecordError::NotARecord(format!(
            "no `format: \"{FORMAT}\"` and none of the earlier spellings (`setup` and `actions`, \
             `prebattle` and `battle`, a golden trace's `record`)"
        )))
    }

    /// Replay the record from its start, every event included, and check its `result` when it
    /// has one.
    pub fn replay(&self) -> Result<Replayed, RecordError> {
        let replayed = self.replay_moves()?;
        if let Some(written) = &self.result {
            let replayed_result = replayed.result();
            if *written != replayed_result {
                return Err(RecordError::Result {
                    written: written.clone(),
                    replayed: replayed_result,
                });
            }
        }
        Ok(replayed)
    }

    fn replay_moves(&self) -> Result<Replayed, RecordError> {
        match &self.game {
            GameMoves::Bugs { setup, actions } => {
                let record = bugs::BugsRecord {
                    format: bugs::RECORD_FORMAT.into(),
                    version: 1,
                    setup: (**setup).clone(),
                    actions: actions.clone(),
                };
                let (encounter, events) =
                    bugs::Encounter::replay(&record).map_err(RecordError::Bugs)?;
                Ok(Replayed::Bugs {
                    encounter: Box::new(encounter),
                    events,
                })
            }
            GameMoves::Dbaix { setup, actions } => {
                let record = dbaix::BattleRecord {
                    setup: (**setup).clone(),
                    actions: actions.clone(),
                };
                let (b, events) = dbaix::Battle::replay(&record)
                    .map_err(|e| RecordError::Replay(GameError::DbaixReplay(e)))?;
                Ok(Replayed::Battle {
                    prebattle: None,
                    prebattle_events: Vec::new(),
                    battle: AnyBattle::Dbaix(Box::new(b)),
                    events: events.into_iter().map(AnyEvent::Dbaix).collect(),
                })
            }
            GameMoves::Dba {
                prebattle,
                setup,
                actions,
            } => {
                let (pre, pre_events, setup) = match (prebattle, setup) {
                    (Some(p), None) => {
                        let (pre, pre_events) = replay_prebattle(p)?;
                        match pre.battle_setup() {
                            Some(s) => (Some(Box::new(pre)), pre_events, s),
                            None if actions.is_empty() => {
                                return Ok(Replayed::Prebattle {
                                    prebattle: Box::new(pre),
                                    prebattle_events: pre_events,
                                })
                            }
                            None => {
                                return Err(RecordError::Replay(GameError::Json(format!(
                                    "the record has battle actions but its pre-battle stops \
                                     before the battle (it awaits {:?})",
                                    pre.step()
                                ))))
                            }
                        }
                    }
                    (None, Some(s)) => (None, Vec::new(), (**s).clone()),
                    _ => return Err(RecordError::Start),
                };
                let (b, events) = Battle::replay(&BattleRecord {
                    setup,
                    actions: actions.clone(),
                })
                .map_err(|e| RecordError::Replay(GameError::DbaReplay(e)))?;
                Ok(Replayed::Battle {
                    prebattle: pre,
                    prebattle_events: pre_events,
                    battle: AnyBattle::Dba(Box::new(b)),
                    events: events.into_iter().map(AnyEvent::Dba).collect(),
                })
            }
        }
    }
}

/// Read `v` as `T`, the message naming the field at fault.
/// A BUGS! game record read field by field: its tables are maps keyed by numbers, which serde
/// cannot read through the flattened `game` (it buffers them with string keys).
fn read_bugs(obj: &serde_json::Map<String, Value>) -> Result<GameFile, RecordError> {
    let field = |k: &str| obj.get(k).cloned().unwrap_or(Value::Null);
    let setup: bugs::BugsSetup = read(field("setup"))?;
    let actions: Vec<bugs::Action> = match obj.get("actions") {
        Some(a) => read(a.clone())?,
        None => Vec::new(),
    };
    let mut file = GameFile::of_bugs(bugs::BugsRecord {
        format: bugs::RECORD_FORMAT.into(),
        version: 1,
        setup,
        actions,
    });
    if let Some(t) = obj.get("tags") {
        file.tags = read(t.clone())?;
    }
    if let Some(r) = obj.get("result") {
        file.result = read(r.clone())?;
    }
    if obj.contains_key("prebattle") {
        return Err(RecordError::NotARecord(
            "a BUGS! record has no `prebattle`".into(),
        ));
    }
    Ok(file)
}

fn read<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, RecordError> {
    crate::json::from_value(v).map_err(|e| RecordError::NotARecord(e.to_string()))
}

/// Replay a pre-battle record action by action (a record may stop before the pre-battle ends).
fn replay_prebattle(
    p: &PrebattleRecord,
) -> Result<(Prebattle, Vec<battle::PrebattleEvent>), RecordError> {
    let mut pre = Prebattle::new(p.setup.clone())
        .map_err(|error| RecordError::Prebattle { index: 0, error })?;
    let mut events = Vec::new();
    for (index, a) in p.actions.iter().enumerate() {
        events.extend(
            pre.apply(a.clone())
                .map_err(|error| RecordError::Prebattle { index, error })?,
        );
    }
    Ok((pre, events))
}

/// Write a whole game's record as a game record ([`GameFile`]): what the driver's
/// [`crate::driver::DrivenGame`] and the bindings' whole games write.
pub fn serialize_game<S: serde::Serializer>(r: &GameRecord, s: S) -> Result<S::Ok, S::Error> {
    GameFile::of_game(r.clone()).serialize(s)
}

/// Read a whole game's record written as a game record, or in the spelling before it
/// (`{"prebattle", "battle"}`).
pub fn deserialize_game<'de, D: serde::Deserializer<'de>>(d: D) -> Result<GameRecord, D::Error> {
    let v = Value::deserialize(d)?;
    let file = GameFile::from_value(v).map_err(serde::de::Error::custom)?;
    file.whole_game().ok_or_else(|| {
        serde::de::Error::custom("a whole game starts from its pre-battle, not a set-up")
    })
}

impl GameFile {
    /// The record as a whole DBA game (its pre-battle and battle), when it starts from a
    /// pre-battle.
    pub fn whole_game(&self) -> Option<GameRecord> {
        match &self.game {
            GameMoves::Dba {
                prebattle: Some(p),
                actions,
                ..
            } => Some(GameRecord {
                prebattle: p.clone(),
                battle: actions.clone(),
            }),
            _ => None,
        }
    }
}
