//! The JSON Schema of the protocol and of dbcore's JSON (set-ups, records, actions, events, legal
//! actions, combat situations and results), generated from the Rust types with `schemars` and
//! committed under `schema/` by `cargo run -p xtask -- schema` (`--check` fails on drift).
//!
//! The messages are described in the `bw` frame; in the `tts` and `vassal` frames the points and
//! poses are spelled as [`crate::frame`] says. Every method has a `$defs` entry for its params
//! (`<Method>Params`) and its result (`<Method>Result`), named in [`METHOD_SCHEMAS`].

use std::collections::BTreeMap;

use dbcore::battle::{
    Action, BattleRecord, BattleSetup, DiceRequest, ElementState, Event, Legal, Phase,
};
use dbcore::combat::{CombatResult, Odds, Situation};
use dbcore::dbaix::{self, DbaixSetup};
use dbcore::terrain::RiverState;
use dbcore::{DieScore, RulesConfig};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::frame::{Frame, Preset};

/// Params of `hello`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HelloParams {
    /// Protocol versions the client speaks; the server answers with one of them.
    #[serde(default)]
    pub protocol: Option<Vec<u64>>,
    /// This client's frame: over stdio, of the battles the stream creates from now on; over
    /// HTTP, of the requests that carry the `client` token answered.
    #[serde(default)]
    pub frame: Option<Frame>,
}

/// The frame in force, with its scale.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrameInForce {
    pub preset: Preset,
    pub units_per_bw: f64,
}

/// The server's limits.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitsInForce {
    pub max_battles: usize,
    pub max_message_bytes: usize,
    /// Bytes of one client element name.
    pub max_name_bytes: usize,
    /// Elements (or DBAix figures) of one set-up.
    pub max_elements: usize,
    /// How long a request waits for another on the same battle before it is answered busy.
    pub busy_wait_ms: u64,
}

/// Result of `hello`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HelloResult {
    pub protocol: u64,
    pub server: String,
    /// The server's version.
    pub version: String,
    /// The rules library's version.
    pub dbcore: String,
    pub variants: Vec<String>,
    pub frames: Vec<Preset>,
    pub frame: FrameInForce,
    /// This client's token: give it as `client` with `battle.create`, `battle.import` and
    /// `render.svg` to be in the frame declared here.
    pub client: String,
    /// Every method: the protocol's own, then the surface's (`battle.<method>` for a battle's).
    pub methods: Vec<String>,
    pub limits: LimitsInForce,
}

/// A set-up of either game: DBA (by its `variant`) or DBAix (`format` `dbcore-dbaix`).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnySetup {
    Dba(Box<BattleSetup>),
    Dbaix(DbaixSetup),
}

/// A saved battle of either game.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnyRecord {
    Dba(BattleRecord),
    Dbaix(dbaix::BattleRecord),
}

/// An army of `battle.create`'s `lists`: a bundled list id (`"II/56"`, its default army) or an
/// army choice as `armies.validate` takes it.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ArmyParam {
    ListId(String),
    /// An army choice (`list`, `entries`, `allies`), as dbcore's `ArmyChoice` serialises.
    Choice(Map<String, Value>),
}

/// Params of `battle.create`: a `setup` (DBA or DBAix), or army `lists` / a `prebattle` set-up
/// for a game whose pre-battle is played by the driver (`seed`) or by actions (no `seed`).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateParams {
    /// Element (DBA) or figure (DBAix) ids may be the client's strings.
    #[serde(default)]
    pub setup: Option<AnySetup>,
    /// Two armies.
    #[serde(default)]
    pub lists: Option<Vec<ArmyParam>>,
    /// A pre-battle set-up as dbcore's `PrebattleSetup` serialises (armies as entries).
    #[serde(default)]
    pub prebattle: Option<Map<String, Value>>,
    /// With `lists` or `prebattle`: the driver plays the pre-battle with this seed.
    #[serde(default)]
    pub seed: Option<u64>,
    /// With `lists` or `prebattle`: the client's names of each army's elements, in list order.
    #[serde(default)]
    pub names: Option<Vec<Vec<String>>>,
    /// With `lists`: the board's side in BW.
    #[serde(default)]
    pub board_side: Option<f64>,
    /// With `lists` (two list ids): `big_battle` or `giant` for armies of three commands each
    /// (§14); `standard` when omitted.
    #[serde(default)]
    pub variant: Option<dbcore::battlefield::Variant>,
    /// A demonstration instead of a set-up: `battle` (the demonstration set-up), `armies` (its
    /// two armies at the start of their pre-battle) or `dbaix`.
    #[serde(default)]
    pub demo: Option<String>,
    /// A BUGS! encounter instead (docs/bugs.md): a BUGS! set-up, or `{"encounter": 1, 2 or 3,
    /// "tables": <the user's tables file>}`. Positions are inches whatever the frame.
    #[serde(default)]
    pub bugs: Option<Value>,
    /// This battle's frame (else the `client` token's, else over stdio the one declared at
    /// `hello`, else `bw`).
    #[serde(default)]
    pub frame: Option<Frame>,
    /// A `hello` token: its frame, when no `frame` is given.
    #[serde(default)]
    pub client: Option<String>,
}

/// A game record as `battle.import` reads it: the `dbcore-game` record, or any earlier
/// spelling dbcore reads (a battle record, a whole game `{prebattle, battle}`, a golden trace),
/// or any of them as JSON text.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnyGameRecord {
    Game(Box<dbcore::record::GameFile>),
    Battle(AnyRecord),
    /// JSON text of a record.
    Text(String),
    /// Another spelling dbcore reads (it says what is wrong otherwise).
    Other(Map<String, Value>),
}

/// Params of `battle.import`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportParams {
    /// A record to replay; or give `state` instead.
    #[serde(default)]
    pub record: Option<AnyGameRecord>,
    /// A saved state (`battle.export` with `"state": true`): dbcore's compact state with its
    /// digest, or a full state (checked by replaying it), in BW whatever the frame.
    #[serde(default)]
    pub state: Option<Map<String, Value>>,
    #[serde(default)]
    pub frame: Option<Frame>,
    /// A `hello` token: its frame, when no `frame` is given.
    #[serde(default)]
    pub client: Option<String>,
}

/// Params of `battle.export`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportParams {
    pub battle: String,
    /// Also give the battle's compact state (`state`), which `battle.import` reads back.
    #[serde(default)]
    pub state: Option<bool>,
}

/// Result of `battle.create` and `battle.import`; also one entry of `battles.list`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenBattle {
    /// The server-issued battle id.
    pub battle: String,
    /// Actions applied so far.
    pub revision: u64,
}

/// Params naming a battle: `battle.legal`, `battle.state`, `battle.export`, `battle.close`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BattleParams {
    pub battle: String,
}

/// Params of `battle.check`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckParams {
    pub battle: String,
    pub action: AnyAction,
    /// When given, a stale revision is an error.
    #[serde(default)]
    pub revision: Option<u64>,
}

/// A refusal by dbcore: its stable code, the section that refuses, the message and the typed
/// detail (the error as dbcore serialises it, or null).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    pub code: u32,
    pub rule: Option<String>,
    pub message: String,
    pub detail: Value,
}

/// Result of `battle.check`: the events the action would cause, or its refusal.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckResult {
    pub legal: bool,
    pub revision: u64,
    #[serde(default)]
    pub events: Option<Vec<AnyEvent>>,
    #[serde(default)]
    pub refusal: Option<Refusal>,
}

/// Params of `battle.apply`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyParams {
    pub battle: String,
    /// The revision the action applies to: the battle's revision now.
    pub revision: u64,
    pub action: AnyAction,
}

/// Result of `battle.apply`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyResult {
    pub revision: u64,
    pub events: Vec<AnyEvent>,
}

/// An action of a DBA battle, a DBAix game or a pre-battle.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnyAction {
    Dba(Action),
    Dbaix(dbaix::Action),
    /// A pre-battle action, as dbcore's `PrebattleAction` serialises (`{"action": ...}`).
    Prebattle(Map<String, Value>),
}

/// An event of a DBA battle, a DBAix game or a pre-battle.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnyEvent {
    Dba(Event),
    Dbaix(dbaix::Event),
    /// A pre-battle event, as dbcore's `PrebattleEvent` serialises (`{"event": ...}`).
    Prebattle(Map<String, Value>),
}

/// Result of `battle.legal`: a battle's legal actions, or during the pre-battle what it awaits.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalResult {
    pub revision: u64,
    #[serde(default)]
    pub legal: Option<Legal>,
    /// During the pre-battle: dbcore's `PrebattleRequest` (`{"for": ...}`), null once done.
    #[serde(default)]
    pub prebattle: Option<Map<String, Value>>,
}

/// One army of `battle.state`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyCount {
    pub name: String,
    pub in_play: usize,
    pub lost: usize,
}

/// Result of `battle.state`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateResult {
    pub revision: u64,
    pub phase: Phase,
    /// The moving army.
    pub army: usize,
    pub bound: u32,
    pub pips: u8,
    pub river: Option<RiverState>,
    pub plough_rough: bool,
    pub awaiting: Option<DiceRequest>,
    pub elements: Vec<ElementState>,
    pub cities: Vec<dbcore::battle::state::CityState>,
    pub armies: Vec<ArmyCount>,
}

/// Result of `battle.state` for a DBAix game.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DbaixStateResult {
    pub revision: u64,
    /// Always `dbaix`.
    pub game: String,
    pub phase: dbaix::Phase,
    /// The moving side.
    pub side: dbaix::Side,
    pub bound: u32,
    pub pips: u8,
    pub awaiting: Option<dbaix::DiceRequest>,
    /// Cacofonix singing and the binders who must go to him (DBAIX.md §4).
    pub music: Option<dbaix::Music>,
    pub potion_active: bool,
    pub figures: Vec<dbaix::FigureState>,
}

/// Result of `battle.state` during a pre-battle played by actions (dbcore's pre-battle types as
/// they serialise).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrebattleStateResult {
    pub revision: u64,
    /// Always `prebattle`.
    pub stage: String,
    pub step: Map<String, Value>,
    pub awaiting: Option<Map<String, Value>>,
    pub defender: Option<usize>,
    pub features: Vec<Value>,
    pub battlefield: dbcore::battlefield::Battlefield,
    pub base_edges: Vec<Option<dbcore::battlefield::BoardEdge>>,
    pub armies: Vec<String>,
}

/// Result of `battle.state`, by game and stage.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AnyStateResult {
    Dba(Box<StateResult>),
    Dbaix(DbaixStateResult),
    Prebattle(PrebattleStateResult),
}

/// Result of `battle.export`: the game record (format `dbcore-game`, its pre-battle included),
/// in the battle's frame and names.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportResult {
    pub revision: u64,
    pub record: dbcore::record::GameFile,
    /// The battle's compact state with its digest (docs/json.md), when asked for: dbcore's own
    /// save, in BW and dbcore's element numbers whatever the frame and names.
    #[serde(default)]
    pub state: Option<Map<String, Value>>,
}

/// Result of `battle.close`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseResult {
    pub closed: String,
}

/// Params of `battles.list` (none).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// Result of `battles.list`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListResult {
    pub battles: Vec<OpenBattle>,
}

/// Params of `combat.resolve`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveParams {
    pub situation: Situation,
    /// `a`'s die, then `b`'s.
    pub dice: [DieScore; 2],
    #[serde(default)]
    pub config: Option<RulesConfig>,
}

/// Params of `combat.odds`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OddsParams {
    pub situation: Situation,
    #[serde(default)]
    pub config: Option<RulesConfig>,
}

/// Params of `render.svg`: an open battle, or a set-up as deployed.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderParams {
    #[serde(default)]
    pub battle: Option<String>,
    /// A DBA set-up (a DBAix game is drawn from its open battle).
    #[serde(default)]
    pub setup: Option<BattleSetup>,
    #[serde(default)]
    pub threat_zones: Option<bool>,
    #[serde(default)]
    pub frame: Option<Frame>,
    /// A `hello` token: its frame, when no `frame` is given.
    #[serde(default)]
    pub client: Option<String>,
}

/// Result of `render.svg`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SvgResult {
    pub svg: String,
}

/// Params of `table.snap`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapParams {
    pub battle: String,
    pub id: dbcore::battle::ElementId,
    /// Where the player dropped the base.
    pub pose: dbcore::geometry::Pose,
    /// How near (in frame units) an element must be to be lined up with; half a BW by default.
    #[serde(default)]
    pub within: Option<f64>,
}

/// Result of `table.snap`: the pose and the order, or why no legal pose exists.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapResult {
    pub snapped: bool,
    #[serde(default)]
    pub snap: Option<dbcore::snap::Snap>,
    #[serde(default)]
    pub refusal: Option<Refusal>,
}

/// Params naming an element of a battle: `table.outlines`, `table.contacts`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElementParams {
    pub battle: String,
    pub id: dbcore::battle::ElementId,
}

/// Result of `table.outlines`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutlinesResult {
    pub outlines: dbcore::outline::ElementOutlines,
}

/// Params of `table.outcome`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeParams {
    pub battle: String,
    pub id: dbcore::battle::ElementId,
    pub outcome: dbcore::snap::OutcomeMove,
}

/// Result of `table.outcome`: what the outcome move would do, in order.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeResult {
    pub effects: Vec<dbcore::battle::Effect>,
}

/// Result of `table.contacts`: every contact of the element, with the edges and corners named.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactsResult {
    pub contacts: Vec<dbcore::table::ElementContact>,
}

/// Params of `armies.find`: every condition given must hold; none finds every list.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmiesFindParams {
    /// A list id, or a list written without its variant letter (every variant).
    #[serde(default)]
    pub id: Option<String>,
    /// A fragment of the name, ignoring case.
    #[serde(default)]
    pub name: Option<String>,
    /// In existence in this year (BC negative).
    #[serde(default)]
    pub year: Option<i32>,
    /// May use this home topography (dbcore's `HomeTerrain`).
    #[serde(default)]
    pub topography: Option<dbcore::terrain::HomeTerrain>,
    /// Among the historical enemies of this list (DBA3.md §16.3).
    #[serde(default)]
    pub enemy_of: Option<String>,
    /// Among the allowed allies of this list (DBA3.md §16.4).
    #[serde(default)]
    pub ally_of: Option<String>,
}

/// One list found by `armies.find`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListSummary {
    pub id: String,
    pub name: String,
    /// `from` and `to` (BC negative) and the list's own `text`.
    pub dates: Map<String, Value>,
    /// Home topography (`terrain`, `alternatives`, `littoral`, `note`).
    pub home: Map<String, Value>,
    pub aggression: u8,
}

/// Result of `armies.find`, in id order.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmiesFindResult {
    pub lists: Vec<ListSummary>,
}

/// Params of `armies.get`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmiesGetParams {
    pub id: String,
}

/// Result of `armies.get`: the list as dbcore's `ArmyList` serialises, and the choice of its
/// default army (the first package of each entry), a starting point for `armies.validate`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmiesGetResult {
    pub list: Map<String, Value>,
    pub default_choice: Map<String, Value>,
}

/// Params of `armies.validate`: an army choice as dbcore's `ArmyChoice` serialises.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmiesValidateParams {
    pub choice: Map<String, Value>,
}

/// Result of `armies.validate`: the army, or every problem (each with its `rule` and
/// `message`). A broken choice is a normal result, as a refusal is for `battle.check`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmiesValidateResult {
    pub valid: bool,
    #[serde(default)]
    pub army: Option<Map<String, Value>>,
    #[serde(default)]
    pub problems: Option<Vec<Map<String, Value>>>,
}

// The surface's methods, forwarded by name (`battle.<method>` of a battle, or their own name).
// Every `battle.<method>` also takes an optional `revision` (stale is an error), required for
// the methods that change the game.

/// Params of a `battle.<method>` that takes nothing but the battle.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
}

/// Result of `battle.info`: where the game stands.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InfoResult {
    /// `dba`, `dbaix` or `bugs`.
    pub game: String,
    pub variant: InfoVariant,
    /// `prebattle`, `battle` or `finished`.
    pub stage: String,
    /// The battle's phase (DBA or DBAix), or `prebattle`.
    pub phase: Value,
    /// The moving army (DBA) or side (DBAix); null in the pre-battle.
    pub army: Option<usize>,
    pub bound: u32,
    pub pips: u8,
    pub revision: u64,
    /// Events so far.
    pub events: usize,
    pub armies: Vec<String>,
    pub winners: Option<Vec<usize>>,
    /// What the game waits for (as `battle.awaiting`).
    pub awaiting: Value,
    /// The dice tray's seed.
    pub seed: u64,
    /// A BUGS! encounter's tally and result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<dbcore::bugs::Verdict>,
}

/// The variant of `battle.info`: DBA's (or DBAix), or a BUGS! encounter's kind.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum InfoVariant {
    Dba(dbcore::battlefield::Variant),
    Bugs(dbcore::bugs::EncounterKind),
}

/// Params of `battle.legal_actions`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalActionsParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    /// The dice of the decision (else the session tray's next ones).
    #[serde(default)]
    pub dice: Option<Vec<DieScore>>,
    /// Only this element's actions (DBA).
    #[serde(default)]
    pub element: Option<dbcore::battle::ElementId>,
    /// Also each action in the notation (`texts`, DBA).
    #[serde(default)]
    pub notation: Option<bool>,
}

/// Result of `battle.legal_actions`: every action listed is accepted by `battle.apply` as it
/// stands (moves are a basis of directions, not every point: `docs/protocol.md`).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalActionsResult {
    pub actions: Vec<AnyAction>,
    /// The dice the list was made with.
    pub dice: Vec<DieScore>,
    #[serde(default)]
    pub texts: Option<Vec<String>>,
}

/// Params of `battle.play`: an action in the notation (numbers and BW, as dbcore writes it).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayParams {
    pub battle: String,
    pub revision: u64,
    pub text: String,
    #[serde(default)]
    pub dice: Option<Vec<DieScore>>,
}

/// Params of `battle.parse`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParseParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    pub text: String,
    #[serde(default)]
    pub dice: Option<Vec<DieScore>>,
}

/// Result of `battle.play`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayResult {
    pub action: AnyAction,
    /// The action in the notation, as dbcore prints it.
    pub text: String,
    pub events: Vec<AnyEvent>,
    pub revision: u64,
}

/// Result of `battle.parse`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParseResult {
    pub action: AnyAction,
    pub text: String,
}

/// Params of `battle.describe`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    pub action: AnyAction,
    /// Decimals of lengths and angles (else as many as needed).
    #[serde(default)]
    pub decimals: Option<u8>,
}

/// Result of `battle.describe`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextResult {
    pub text: String,
}

/// Params of `battle.undo`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoParams {
    pub battle: String,
    /// The battle's revision now.
    pub revision: u64,
}

/// Result of `battle.undo`: the action taken back and the new revision (one more: a revision
/// is never reused).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UndoResult {
    pub action: AnyAction,
    pub revision: u64,
}

/// Params of `battle.events` and `battle.narrate`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SinceParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    /// The first event wanted, by its number among every event so far.
    #[serde(default)]
    pub since: Option<usize>,
    /// Or the events from this action on (0 for the first).
    #[serde(default)]
    pub from_action: Option<usize>,
}

/// Params of `battle.svg`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BattleSvgParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    #[serde(default)]
    pub threat_zones: Option<bool>,
}

/// Params of `battle.ai`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AiParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    /// The opponent's search budget.
    #[serde(default)]
    pub nodes: Option<u32>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// Result of `battle.ai` and `battle.driver`: the action chosen (not applied).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionResult {
    pub action: AnyAction,
}

/// Params of `battle.combat_odds`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PairParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    pub a: dbcore::battle::ElementId,
    pub b: dbcore::battle::ElementId,
}

/// Params of `battle.shot_odds`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShotOddsParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    pub shooter: dbcore::battle::ElementId,
    pub target: dbcore::battle::ElementId,
    #[serde(default)]
    pub support: Option<Vec<dbcore::battle::ElementId>>,
    #[serde(default)]
    pub shoots_back: Option<bool>,
}

/// Result of `battle.combat_odds` and `battle.shot_odds`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationOdds {
    pub situation: Situation,
    pub odds: Odds,
}

/// Params of `battle.reach`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReachParams {
    pub battle: String,
    #[serde(default)]
    pub revision: Option<u64>,
    pub element: dbcore::battle::ElementId,
    /// How many bearings, evenly spaced from 0 (16 by default, 1 to 72).
    #[serde(default)]
    pub bearings: Option<u32>,
}

/// One bearing of `battle.reach`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReachStep {
    pub bearing: f64,
    pub distance: f64,
    pub action: AnyAction,
}

/// Result of `battle.reach`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReachResult {
    pub steps: Vec<ReachStep>,
}

/// Result of `battle.verdict`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerdictResult {
    pub finished: bool,
    /// The armies that won (none for a draw); null while the battle goes on.
    pub winners: Option<Vec<usize>>,
}

/// Result of `version`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionResult {
    pub version: String,
    pub record_format: String,
    pub record_version: u32,
}

/// One method as the surface describes it.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MethodDoc {
    pub name: String,
    pub params: String,
    pub result: String,
    pub doc: String,
}

/// Result of `methods`: the surface's methods (a session's ones are `battle.<name>` here).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MethodsResult {
    pub session: Vec<MethodDoc>,
    #[serde(rename = "static")]
    pub static_: Vec<MethodDoc>,
}

/// Params of `armies.lookup`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookupParams {
    /// A list id or a name (any case; "did you mean" when nothing matches).
    pub text: String,
}

/// Result of `armies.lookup`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookupResult {
    pub id: String,
    pub name: Option<String>,
}

/// Params of `record.read` and `record.replay`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameParams {
    /// A game record in any spelling (as `battle.import` reads), in BW.
    pub game: AnyGameRecord,
}

/// Result of `record.replay`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayResult {
    pub result: dbcore::record::GameResult,
    pub events: Vec<AnyEvent>,
    /// The battle's events in a player's words.
    pub lines: Vec<String>,
}

/// Params of `render`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentRenderParams {
    /// A set-up, a saved state or a game record, in BW (or as JSON text).
    pub document: Value,
    #[serde(default)]
    pub threat_zones: Option<bool>,
}

/// Params of `validate`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentParams {
    /// A set-up, a saved state or a game record, in BW (or as JSON text).
    pub document: Value,
}

/// Result of `validate`: what the document is and every problem of it.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateResult {
    /// `setup`, `state`, `record` or `unreadable`.
    pub kind: String,
    pub problems: Vec<Map<String, Value>>,
}

/// An army as dbcore serialises it (`armies.default`).
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct ArmyObject(pub Map<String, Value>);

/// The events of `battle.events`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct EventList(pub Vec<AnyEvent>);

/// One line an event (empty for an untold one), `battle.narrate`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Lines(pub Vec<String>);

/// Every element (DBA) or figure (DBAix) as it stands, `battle.elements`.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ElementList {
    Dba(Vec<ElementState>),
    Dbaix(Vec<dbaix::FigureState>),
}

/// What a game awaits (`battle.awaiting`): the dice or choice, or null.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Awaiting {
    Dba(DiceRequest),
    Dbaix(dbaix::DiceRequest),
    /// dbcore's `PrebattleRequest` (`{"for": ...}`).
    Prebattle(Map<String, Value>),
    Nothing(()),
}

/// A JSON-RPC error object.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorObject {
    pub code: i64,
    pub message: String,
    #[serde(default)]
    pub data: Option<Value>,
}

/// Each method with the `$defs` names of its params and result.
pub const METHOD_SCHEMAS: [(&str, &str, &str); 49] = [
    ("hello", "HelloParams", "HelloResult"),
    ("battle.create", "CreateParams", "OpenBattle"),
    ("battle.import", "ImportParams", "OpenBattle"),
    ("battle.check", "CheckParams", "CheckResult"),
    ("battle.apply", "ApplyParams", "ApplyResult"),
    ("battle.legal", "BattleParams", "LegalResult"),
    ("battle.state", "BattleParams", "AnyStateResult"),
    ("battle.export", "ExportParams", "ExportResult"),
    ("battle.close", "BattleParams", "CloseResult"),
    ("combat.resolve", "ResolveParams", "CombatResult"),
    ("combat.odds", "OddsParams", "Odds"),
    ("render.svg", "RenderParams", "SvgResult"),
    ("battles.list", "NoParams", "ListResult"),
    ("table.snap", "SnapParams", "SnapResult"),
    ("table.outlines", "ElementParams", "OutlinesResult"),
    ("table.outcome", "OutcomeParams", "OutcomeResult"),
    ("table.contacts", "ElementParams", "ContactsResult"),
    ("armies.find", "ArmiesFindParams", "ArmiesFindResult"),
    ("armies.get", "ArmiesGetParams", "ArmiesGetResult"),
    (
        "armies.validate",
        "ArmiesValidateParams",
        "ArmiesValidateResult",
    ),
    ("battle.info", "SessionParams", "InfoResult"),
    ("battle.awaiting", "SessionParams", "Awaiting"),
    (
        "battle.legal_actions",
        "LegalActionsParams",
        "LegalActionsResult",
    ),
    ("battle.play", "PlayParams", "PlayResult"),
    ("battle.parse", "ParseParams", "ParseResult"),
    ("battle.describe", "DescribeParams", "TextResult"),
    ("battle.undo", "UndoParams", "UndoResult"),
    ("battle.record", "SessionParams", "GameFile"),
    ("battle.events", "SinceParams", "EventList"),
    ("battle.narrate", "SinceParams", "Lines"),
    ("battle.svg", "BattleSvgParams", "SvgResult"),
    ("battle.elements", "SessionParams", "ElementList"),
    ("battle.ai", "AiParams", "ActionResult"),
    ("battle.driver", "SessionParams", "ActionResult"),
    ("battle.combat_odds", "PairParams", "SituationOdds"),
    ("battle.shot_odds", "ShotOddsParams", "SituationOdds"),
    ("battle.reach", "ReachParams", "ReachResult"),
    ("battle.verdict", "SessionParams", "VerdictResult"),
    ("version", "NoParams", "VersionResult"),
    ("methods", "NoParams", "MethodsResult"),
    ("armies.lookup", "LookupParams", "LookupResult"),
    ("armies.default", "ArmiesGetParams", "ArmyObject"),
    ("record.read", "GameParams", "GameFile"),
    ("record.replay", "GameParams", "ReplayResult"),
    ("render", "DocumentRenderParams", "SvgResult"),
    ("validate", "DocumentParams", "ValidateResult"),
    ("odds", "OddsParams", "Odds"),
    ("resolve", "ResolveParams", "CombatResult"),
    ("setup.demo", "NoParams", "BattleSetup"),
];

fn generator() -> SchemaGenerator {
    SchemaGenerator::new(SchemaSettings::draft2020_12())
}

/// Every `$defs` entry after generating `f`'s types, sorted by name.
fn definitions(f: impl FnOnce(&mut SchemaGenerator)) -> BTreeMap<String, Value> {
    let mut g = generator();
    f(&mut g);
    g.take_definitions(true)
        .into_iter()
        .collect::<BTreeMap<String, Value>>()
}

fn refs(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({ "$ref": format!("#/$defs/{n}") }))
        .collect()
}

/// `schema/dbcore.schema.json`: the set-up, record, action, event and the other documents
/// dbcore reads and writes as JSON.
pub fn dbcore_schema() -> Value {
    let defs = definitions(|g| {
        g.subschema_for::<BattleSetup>();
        g.subschema_for::<BattleRecord>();
        g.subschema_for::<Action>();
        g.subschema_for::<Event>();
        g.subschema_for::<Legal>();
        g.subschema_for::<Situation>();
        g.subschema_for::<CombatResult>();
        g.subschema_for::<Odds>();
        g.subschema_for::<RulesConfig>();
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "dbcore.schema.json",
        "title": "dbcore's JSON: set-ups, records, actions, events and combat (positions in BW)",
        "anyOf": refs(&["BattleSetup", "BattleRecord", "Action", "Event", "Legal", "Situation", "CombatResult", "Odds"]),
        "$defs": defs,
    })
}

/// `schema/bugs-tables.schema.json`: the BUGS! tables file, the values the transcription of the
/// booklet lost that the user supplies (BUGS §17).
pub fn bugs_tables_schema() -> Value {
    let defs = definitions(|g| {
        g.subschema_for::<dbcore::bugs::TablesFile>();
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "bugs-tables.schema.json",
        "title": "The BUGS! tables file (format dbcore-bugs-tables): the Impact and Wound Tables, the weapons' ranges and target counts, the lost sheet values and the lost Being Charged cell, supplied from the booklet",
        "$ref": "#/$defs/TablesFile",
        "$defs": defs,
    })
}

/// `schema/bugs.schema.json`: the BUGS! set-up, record, actions, events, what an encounter waits
/// for and its verdict (distances in inches).
pub fn bugs_schema() -> Value {
    let defs = definitions(|g| {
        g.subschema_for::<dbcore::bugs::BugsSetup>();
        g.subschema_for::<dbcore::bugs::BugsRecord>();
        g.subschema_for::<dbcore::bugs::Action>();
        g.subschema_for::<dbcore::bugs::Event>();
        g.subschema_for::<dbcore::bugs::Need>();
        g.subschema_for::<dbcore::bugs::Verdict>();
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "bugs.schema.json",
        "title": "BUGS! JSON: set-ups, records, actions, events, what an encounter waits for, verdicts (positions in inches)",
        "anyOf": refs(&["BugsSetup", "BugsRecord", "BugsAction", "BugsEvent", "Need", "Verdict"]),
        "$defs": defs,
    })
}

/// `schema/protocol.schema.json`: every request and response of the JSON-RPC protocol.
pub fn protocol_schema() -> Value {
    let mut defs = definitions(|g| {
        g.subschema_for::<HelloParams>();
        g.subschema_for::<HelloResult>();
        g.subschema_for::<CreateParams>();
        g.subschema_for::<ImportParams>();
        g.subschema_for::<OpenBattle>();
        g.subschema_for::<BattleParams>();
        g.subschema_for::<CheckParams>();
        g.subschema_for::<CheckResult>();
        g.subschema_for::<ApplyParams>();
        g.subschema_for::<ApplyResult>();
        g.subschema_for::<LegalResult>();
        g.subschema_for::<AnyStateResult>();
        g.subschema_for::<ExportParams>();
        g.subschema_for::<ExportResult>();
        g.subschema_for::<CloseResult>();
        g.subschema_for::<NoParams>();
        g.subschema_for::<ListResult>();
        g.subschema_for::<ResolveParams>();
        g.subschema_for::<CombatResult>();
        g.subschema_for::<OddsParams>();
        g.subschema_for::<Odds>();
        g.subschema_for::<RenderParams>();
        g.subschema_for::<SvgResult>();
        g.subschema_for::<SnapParams>();
        g.subschema_for::<SnapResult>();
        g.subschema_for::<ElementParams>();
        g.subschema_for::<OutlinesResult>();
        g.subschema_for::<OutcomeParams>();
        g.subschema_for::<OutcomeResult>();
        g.subschema_for::<ContactsResult>();
        g.subschema_for::<ArmiesFindParams>();
        g.subschema_for::<ArmiesFindResult>();
        g.subschema_for::<ArmiesGetParams>();
        g.subschema_for::<ArmiesGetResult>();
        g.subschema_for::<ArmiesValidateParams>();
        g.subschema_for::<ArmiesValidateResult>();
        g.subschema_for::<ErrorObject>();
        g.subschema_for::<SessionParams>();
        g.subschema_for::<InfoResult>();
        g.subschema_for::<Awaiting>();
        g.subschema_for::<LegalActionsParams>();
        g.subschema_for::<LegalActionsResult>();
        g.subschema_for::<PlayParams>();
        g.subschema_for::<PlayResult>();
        g.subschema_for::<ParseParams>();
        g.subschema_for::<ParseResult>();
        g.subschema_for::<DescribeParams>();
        g.subschema_for::<TextResult>();
        g.subschema_for::<UndoParams>();
        g.subschema_for::<UndoResult>();
        g.subschema_for::<dbcore::record::GameFile>();
        g.subschema_for::<SinceParams>();
        g.subschema_for::<EventList>();
        g.subschema_for::<Lines>();
        g.subschema_for::<BattleSvgParams>();
        g.subschema_for::<ElementList>();
        g.subschema_for::<AiParams>();
        g.subschema_for::<ActionResult>();
        g.subschema_for::<PairParams>();
        g.subschema_for::<ShotOddsParams>();
        g.subschema_for::<SituationOdds>();
        g.subschema_for::<ReachParams>();
        g.subschema_for::<ReachResult>();
        g.subschema_for::<VerdictResult>();
        g.subschema_for::<VersionResult>();
        g.subschema_for::<MethodsResult>();
        g.subschema_for::<LookupParams>();
        g.subschema_for::<LookupResult>();
        g.subschema_for::<ArmyObject>();
        g.subschema_for::<GameParams>();
        g.subschema_for::<ReplayResult>();
        g.subschema_for::<DocumentRenderParams>();
        g.subschema_for::<DocumentParams>();
        g.subschema_for::<ValidateResult>();
        g.subschema_for::<BattleSetup>();
    });
    // The table's answers number elements with plain integers (a table is not only a battle's);
    // over the protocol they are element ids like the others.
    for (def, key) in [("ElementContact", "other"), ("ShootingTarget", "target")] {
        if let Some(p) = defs
            .get_mut(def)
            .and_then(|d| d.get_mut("properties"))
            .and_then(|p| p.get_mut(key))
        {
            let description = p.get("description").cloned();
            *p = json!({ "$ref": "#/$defs/ElementId" });
            if let Some(d) = description {
                p["description"] = d;
            }
        }
    }
    // Over the protocol an element or figure id may be the client's own string.
    for def in ["ElementId", "FigureId"] {
        defs.insert(
            def.into(),
            json!({
                "description": "An element's (DBA) or figure's (DBAix) number, or the name the client gave it when it created the battle",
                "anyOf": [{ "type": "integer", "format": "uint32", "minimum": 0 }, { "type": "string", "minLength": 1 }],
            }),
        );
    }
    let id = json!({ "type": ["string", "number", "null"] });
    let requests: Vec<Value> = METHOD_SCHEMAS
        .iter()
        .map(|(m, p, _)| {
            json!({
                "type": "object",
                "properties": {
                    "jsonrpc": { "const": "2.0" },
                    "id": id,
                    "method": { "const": m },
                    "params": { "$ref": format!("#/$defs/{p}") },
                },
                "required": ["jsonrpc", "method"],
                "additionalProperties": false,
            })
        })
        .collect();
    defs.insert("Request".into(), json!({ "oneOf": requests }));
    let results: Vec<&str> = METHOD_SCHEMAS.iter().map(|(_, _, r)| *r).collect();
    defs.insert(
        "Response".into(),
        json!({
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "jsonrpc": { "const": "2.0" },
                        "id": id,
                        "result": { "anyOf": refs(&results) },
                    },
                    "required": ["jsonrpc", "id", "result"],
                    "additionalProperties": false,
                },
                {
                    "type": "object",
                    "properties": {
                        "jsonrpc": { "const": "2.0" },
                        "id": id,
                        "error": { "$ref": "#/$defs/ErrorObject" },
                    },
                    "required": ["jsonrpc", "id", "error"],
                    "additionalProperties": false,
                },
            ]
        }),
    );
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "protocol.schema.json",
        "title": "The dbcore referee's JSON-RPC 2.0 protocol (positions in the bw frame)",
        "anyOf": refs(&["Request", "Response"]),
        "$defs": defs,
    })
}

/// `v` with every object's keys in order, so that the committed files do not depend on whether
/// serde_json keeps insertion order (its `preserve_order` feature) in this build.
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The schema files, by path under the repository root, as committed (pretty JSON, keys in
/// order, newline).
pub fn files() -> Vec<(&'static str, String)> {
    let text = |v: Value| serde_json::to_string_pretty(&sorted(v)).unwrap_or_default() + "\n";
    vec![
        ("schema/dbcore.schema.json", text(dbcore_schema())),
        ("schema/protocol.schema.json", text(protocol_schema())),
        ("schema/bugs-tables.schema.json", text(bugs_tables_schema())),
        ("schema/bugs.schema.json", text(bugs_schema())),
    ]
}
