//! The battle state as JSON, for saving a position and reading it back.
//!
//! Two spellings are read:
//!
//! - the **compact state** ([`Battle::state_json`], `"format": "dbcore-state"`), which leaves out
//!   what the set-up already says (each element's id, army, general and contingent, the rules
//!   configuration when it is the default one) and ends with a `"digest"`: a stable 64-bit hash
//!   of the canonical compact text, written by dbcore. Reading it back checks the digest and
//!   what the engine relies on (below), not a replay of the battle. A compact state whose
//!   digest does not match (a hand-edited position) is refused with [`StateError::Digest`].
//! - the **full state** (the serde form of [`Battle`]: the set-up, every element in full, the
//!   actions so far), as earlier versions wrote it. It has no digest, so it is accepted only when
//!   replaying its own record (set-up and actions) gives exactly that state.
//!
//! Both keep the actions, so a battle read back has the same [`Battle::record`] and compares
//! equal to the one written.
//!
//! The compact state is written straight into bytes, its hot parts (actions, elements, poses,
//! outlines) by hand and the rest through serde, to the very bytes serde's writer gives; and a
//! text in that one spelling is read back the same way. Any other spelling of the same JSON
//! (spaces, another order of fields, escapes) is read by serde, which also names the field of
//! any fault, so what is accepted and every error message are as serde's.
//!
//! The digest guards against edits and damage, not against a forger: it is no signature, and
//! anyone can compute it (docs/json.md gives the algorithm). So a compact state is never
//! trusted for having a matching digest (issue #44): its sizes and numbers are checked
//! (`crate::limits`), its set-up's rules as [`Battle::new`] checks them, and then everything the
//! engine relies on and a battle played by dbcore always keeps (`check`): the commands, Cities
//! and camps of the set-up, armies and ids that exist, PIPs and counts in range, elements in
//! play on the board and none overlapping another beyond contact. Every problem is reported at
//! once ([`StateError::Invalid`]). A keyed digest was the other way (a fast path for states an
//! embedder's own key vouches for), but it would put a secret in every embedder's hands for a
//! saving of a few microseconds, so there is none.
//!
//! ```
//! use dbcore::battle::{Action, Battle, StateError};
//! use dbcore::DieScore;
//!
//! let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
//! battle.apply(Action::RollPips { die: DieScore::new(4).unwrap() }).unwrap();
//! let text = battle.state_json();
//! assert_eq!(Battle::from_state_json(&text).unwrap(), battle);
//!
//! // The old full spelling is still read, checked by replaying its record.
//! let full = serde_json::to_string(&battle).unwrap();
//! assert_eq!(Battle::from_state_json(&full).unwrap(), battle);
//!
//! // A hand-edited compact state is refused.
//! let forged = text.replacen("\"pips\":4", "\"pips\":6", 1);
//! assert!(matches!(Battle::from_state_json(&forged), Err(StateError::Digest { .. })));
//! ```

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::battlefield::{Battlefield, Variant};
use crate::config::RulesConfig;
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::Pose;
use crate::terrain::RiverState;
use crate::troops::ElementKind;

use super::bound::{Action, Battle, Phase, ReplayError};
use super::commands::CommandState;
use super::setup::{ArmySetup, BattleSetup, ElementId, ElementSetup};
use super::state::{CityState, ElementState, Status};
use super::victory::Verdict;

mod check;
mod read;
mod write;

pub use check::StateProblem;

/// The `"format"` of a compact state.
pub const STATE_FORMAT: &str = "dbcore-state";
/// The `"version"` of the compact state this dbcore writes.
pub const STATE_VERSION: u32 = 1;

/// A battle state that could not be read back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StateError {
    /// The text is not JSON of either state spelling; the message names the field at fault.
    #[error("{0}")]
    Json(String),
    /// A die score outside 1 to 6 in the state's actions (§0.3).
    #[error(transparent)]
    Dice(crate::DiceError),
    /// A compact state of a version this dbcore does not read.
    #[error(
        "a compact battle state of version {found}; this dbcore reads version {STATE_VERSION}"
    )]
    Version {
        /// The version the state gives.
        found: u32,
    },
    /// A compact state whose digest is not the one of its contents: it was changed after dbcore
    /// wrote it.
    #[error("the battle state was changed after dbcore wrote it: its digest is {given}, its contents give {computed}")]
    Digest {
        /// The digest the state carries.
        given: String,
        /// The digest of what it holds.
        computed: String,
    },
    /// A number or size out of range (`crate::limits`), or a rules configuration that cannot be
    /// used: checked in a compact state too, which is not replayed.
    #[error(transparent)]
    Limit(#[from] crate::sizes::LimitError),
    /// The rules configuration of a compact state's set-up cannot be used.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// A full state whose record (set-up and actions) does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A full state whose record replays to a different state: a hand-edited position.
    #[error("the battle state is not the one its own record (set-up and actions) replays to")]
    NotItsRecord,
    /// A compact state whose set-up is not a valid one (the set-up's rules, §1 to §5 and §14.1,
    /// as [`Battle::new`] checks them).
    #[error(transparent)]
    Setup(#[from] super::setup::SetupError),
    /// A compact state that no battle played by dbcore could be in (a command of an army that
    /// does not exist, elements on top of one another, an id that names nobody, ...): every
    /// problem found, at most [`crate::limits::MAX_PROBLEMS`] and then one counting the rest.
    #[error("the battle state cannot be played on, {} problem(s): {}", problems.len(), problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid {
        /// Every problem found.
        problems: Vec<StateProblem>,
    },
}

impl ErrorInfo for StateError {
    fn code(&self) -> ErrorCode {
        match self {
            StateError::Json(_) => ErrorCode::InvalidJson,
            StateError::Version { .. }
            | StateError::Digest { .. }
            | StateError::NotItsRecord
            | StateError::Invalid { .. } => ErrorCode::InvalidArgument,
            StateError::Setup(e) => e.code(),
            StateError::Dice(e) => e.code(),
            StateError::Limit(e) => e.code(),
            StateError::Config(e) => e.code(),
            StateError::Replay(e) => e.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            StateError::Dice(e) => e.rule(),
            StateError::Replay(e) => e.rule(),
            StateError::Setup(e) => e.rule(),
            StateError::Invalid { problems } => problems.first().and_then(|p| p.rule),
            _ => None,
        }
    }
}

impl From<crate::error::Error> for StateError {
    fn from(e: crate::error::Error) -> StateError {
        match e {
            crate::error::Error::Dice(d) => StateError::Dice(d),
            other => StateError::Json(other.to_string()),
        }
    }
}

/// One element of the set-up as the compact state gives it: only what may change in a battle.
/// Its id, army, general and contingent are those of the set-up element at the same place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SavedElement {
    /// Where it stands now.
    pub pose: Pose,
    /// Its kind, when it is no longer its set-up kind (it dismounted, §7.9): it may then not
    /// dismount again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ElementKind>,
    /// Lost or afloat; omitted while it is in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Tactical moves made this bound (§7.5); omitted when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub moves_this_bound: u8,
    /// Distance moved this bound by tactical moves, BW; omitted when none.
    #[serde(default, skip_serializing_if = "is_nought")]
    pub moved_this_bound: f64,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_nought(x: &f64) -> bool {
    *x == 0.0
}

/// The set-up as the compact state writes it: the rules configuration only when it is not the
/// default one. Read back as a [`BattleSetup`], whose configuration defaults.
#[derive(Serialize)]
struct SetupOut<'a> {
    format: &'a str,
    version: u32,
    variant: Variant,
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<&'a RulesConfig>,
    battlefield: &'a Battlefield,
    armies: &'a [ArmySetup],
    first: usize,
    sandbox: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    city_owner: Option<usize>,
    #[serde(skip_serializing_if = "<[ElementId]>::is_empty")]
    held_back: &'a [ElementId],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    free_army_size: bool,
}

/// The compact state as written, without its digest: the canonical text the digest is of.
#[derive(Serialize)]
struct StateOut<'a> {
    format: &'static str,
    version: u32,
    setup: SetupOut<'a>,
    /// `setup` as written ([`SetupText`](super::state::SetupText)): what the hand writer copies
    /// in its place.
    #[serde(skip)]
    setup_text: &'a [u8],
    actions: &'a [Action],
    bound: u32,
    active: usize,
    phase: Phase,
    pips: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    river: Option<RiverState>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    plough_rough: bool,
    bounds_begun: &'a [u32],
    elements: Vec<SavedElement>,
    #[serde(skip_serializing_if = "<[ElementState]>::is_empty")]
    sallied: &'a [ElementState],
    #[serde(skip_serializing_if = "<[ElementId]>::is_empty")]
    shot: &'a [ElementId],
    #[serde(skip_serializing_if = "<[(ElementId, ElementId)]>::is_empty")]
    shots: &'a [(ElementId, ElementId)],
    #[serde(skip_serializing_if = "<[ElementId]>::is_empty")]
    fought: &'a [ElementId],
    #[serde(skip_serializing_if = "<[ElementId]>::is_empty")]
    pursued: &'a [ElementId],
    camp_sacked: &'a [bool],
    camp_followers: &'a [bool],
    #[serde(skip_serializing_if = "<[CityState]>::is_empty")]
    cities: &'a [CityState],
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a Verdict>,
    #[serde(skip_serializing_if = "<[CommandState]>::is_empty")]
    commands: &'a [CommandState],
}

/// The compact state as read, digest included.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateIn {
    #[allow(dead_code)]
    format: String,
    version: u32,
    setup: BattleSetup,
    actions: Vec<Action>,
    bound: u32,
    active: usize,
    phase: Phase,
    pips: u8,
    #[serde(default)]
    river: Option<RiverState>,
    #[serde(default)]
    plough_rough: bool,
    bounds_begun: Vec<u32>,
    elements: Vec<SavedElement>,
    #[serde(default)]
    sallied: Vec<ElementState>,
    #[serde(default)]
    shot: Vec<ElementId>,
    #[serde(default)]
    shots: Vec<(ElementId, ElementId)>,
    #[serde(default)]
    fought: Vec<ElementId>,
    #[serde(default)]
    pursued: Vec<ElementId>,
    camp_sacked: Vec<bool>,
    camp_followers: Vec<bool>,
    #[serde(default)]
    cities: Vec<CityState>,
    #[serde(default)]
    verdict: Option<Verdict>,
    #[serde(default)]
    commands: Vec<CommandState>,
    digest: String,
}

/// What [`Battle::from_full_text`] made of a full state's text.
enum FullText {
    /// The text is exactly the battle its record replays to: this battle.
    Accepted(Box<Battle>),
    /// The text reads as a battle whose record replays, but it is spelt otherwise than that
    /// replay: the claimed battle and its replay, for the value check.
    Replayed(Box<(Battle, Battle)>),
    /// Not read, or its record does not replay: left to the value check alone.
    Unread,
}

/// The default rules configuration, built once: the compact state leaves it out.
fn default_config() -> &'static RulesConfig {
    static DEFAULT: std::sync::OnceLock<RulesConfig> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(RulesConfig::default)
}

/// The state an element of the set-up starts with, before anything has happened to it.
fn initial(army: usize, e: &ElementSetup) -> ElementState {
    ElementState::from_setup(army, e)
}

/// Every set-up element with its army, in the order of the battle's elements.
fn setup_elements(setup: &BattleSetup) -> impl Iterator<Item = (usize, &ElementSetup)> {
    setup
        .armies
        .iter()
        .enumerate()
        .flat_map(|(i, a)| a.elements.iter().map(move |e| (i, e)))
}

/// The element that `saved` describes, the set-up element `e` of `army` as it is now.
fn restore(army: usize, e: &ElementSetup, saved: &SavedElement) -> ElementState {
    let mut s = initial(army, e);
    s.pose = saved.pose;
    if let Some(k) = saved.kind {
        s.kind = k;
        s.dismounts_as = None;
    }
    s.status = saved.status.unwrap_or(Status::InPlay);
    s.moves_this_bound = saved.moves_this_bound;
    s.moved_this_bound = saved.moved_this_bound;
    s
}

/// The compact form of `s`, the set-up element `e` of `army`, if reading it back gives `s`.
fn save(army: usize, e: &ElementSetup, s: &ElementState) -> Option<SavedElement> {
    let start = initial(army, e);
    let saved = SavedElement {
        pose: s.pose,
        kind: (s.kind != start.kind).then_some(s.kind),
        status: (s.status != Status::InPlay).then_some(s.status),
        moves_this_bound: s.moves_this_bound,
        moved_this_bound: s.moved_this_bound,
    };
    // Ids, armies, generals and contingents never change in a battle; a state in which one did
    // (or a dismounted element kept its dismount) is not written compactly.
    (restore(army, e, &saved) == *s).then_some(saved)
}

/// A 64-bit hash of bytes, stable across platforms, versions and runs: eight bytes at a time as
/// a little-endian word, each mixed in by multiplication and a shift, the tail padded with
/// zeros after its length, then a final avalanche (the finaliser of SplitMix64). docs/json.md
/// states it for other writers.
#[derive(Debug, Clone)]
pub struct StateHasher {
    h: u64,
    tail: [u8; 8],
    filled: usize,
    len: u64,
}

const SEED: u64 = 0x6462_636f_7265_2d31; // "dbcore-1"
const MUL: u64 = 0x9e37_79b9_7f4a_7c15;

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher {
            h: SEED,
            tail: [0; 8],
            filled: 0,
            len: 0,
        }
    }
}

impl StateHasher {
    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w).wrapping_mul(MUL);
        self.h ^= self.h >> 29;
    }

    /// Hash more bytes.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.filled > 0 {
            let n = (8 - self.filled).min(bytes.len());
            self.tail[self.filled..self.filled + n].copy_from_slice(&bytes[..n]);
            self.filled += n;
            bytes = &bytes[n..];
            if self.filled < 8 {
                return;
            }
            let w = u64::from_le_bytes(self.tail);
            self.word(w);
            self.filled = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// The hash of everything given.
    pub fn finish(mut self) -> u64 {
        let mut last = [0u8; 8];
        last[..self.filled].copy_from_slice(&self.tail[..self.filled]);
        self.word(u64::from_le_bytes(last));
        self.word(self.len);
        let mut z = self.h;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The hash of everything given, as 16 lowercase hexadecimal digits.
    pub fn finish_hex(self) -> String {
        format!("{:016x}", self.finish())
    }
}

/// The hash of a compact state's own text as given: of the bytes before its closing
/// `,"digest":"…"}` followed by `}`, in one pass over the text and without copying it; `None`
/// when the text does not end with a digest field. When dbcore wrote the text, this is the hash
/// of its canonical compact text, which is what the digest is of.
fn text_digest(text: &str) -> Option<u64> {
    const FIELD: &str = ",\"digest\":\"";
    let body = text.trim_end().strip_suffix("\"}")?;
    let at = body.len().checked_sub(FIELD.len() + 16)?;
    let (before, field) = body.split_at_checked(at)?;
    let hex = field.strip_prefix(FIELD)?;
    if !hex
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let mut h = StateHasher::default();
    h.update(before.as_bytes());
    h.update(b"}");
    Some(h.finish())
}

impl std::io::Write for StateHasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Battle {
    /// The compact view of this state, or `None` when some element cannot be told by what
    /// changed since the set-up (which a battle played by dbcore never gives).
    fn state_out(&self) -> Option<StateOut<'_>> {
        let s = &*self.setup;
        let n = setup_elements(s).count();
        let mut elements = Vec::with_capacity(n);
        for ((army, e), st) in setup_elements(s).zip(&self.elements) {
            elements.push(save(army, e, st)?);
        }
        if self.elements.len() < n {
            return None;
        }
        let config = (s.config != *default_config()).then_some(&s.config);
        let setup = SetupOut {
            format: &s.format,
            version: s.version,
            variant: s.variant,
            config,
            battlefield: &s.battlefield,
            armies: &s.armies,
            first: s.first,
            sandbox: s.sandbox,
            city_owner: s.city_owner,
            held_back: &s.held_back,
            free_army_size: s.free_army_size,
        };
        let setup_text = self.setup_text.get_or_write(|| write::setup_bytes(&setup));
        Some(StateOut {
            format: STATE_FORMAT,
            version: STATE_VERSION,
            setup,
            setup_text,
            actions: &self.actions,
            bound: self.bound,
            active: self.active,
            phase: self.phase,
            pips: self.pips,
            river: self.river,
            plough_rough: self.plough_rough,
            bounds_begun: &self.bounds_begun,
            elements,
            sallied: &self.elements[n..],
            shot: &self.shot,
            shots: &self.shots,
            fought: &self.fought,
            pursued: &self.pursued,
            camp_sacked: &self.camp_sacked,
            camp_followers: &self.camp_followers,
            cities: &self.cities,
            verdict: self.verdict.as_ref(),
            commands: &self.commands,
        })
    }

    /// The digest of this state's compact text ([`Battle::state_json`]).
    pub fn state_digest(&self) -> String {
        let mut h = StateHasher::default();
        match self.state_out() {
            Some(out) => h.update(&write::state_bytes(&out)),
            None => serde_json::to_writer(&mut h, self).expect("a battle state always serialises"),
        }
        h.finish_hex()
    }

    /// The battle state as compact JSON with its digest (see [the module](self)), the form
    /// [`Battle::from_state_json`] reads back without replaying. A state that cannot be told
    /// compactly (none that dbcore plays) is written in the full spelling instead.
    pub fn state_json(&self) -> String {
        let Some(out) = self.state_out() else {
            return serde_json::to_string(self).expect("a battle state always serialises");
        };
        // Written by hand, the same bytes as serde's writer of `StateOut` (see `write`).
        let mut text = write::state_bytes(&out);
        let mut h = StateHasher::default();
        h.update(&text);
        let digest = h.finish_hex();
        // The digest goes last, so the text before it is exactly the hashed text.
        text.pop();
        text.extend_from_slice(b",\"digest\":\"");
        text.extend_from_slice(digest.as_bytes());
        text.extend_from_slice(b"\"}");
        String::from_utf8(text).expect("serde_json writes UTF-8")
    }

    /// The battle state as a JSON value: [`Battle::state_json`] parsed.
    pub fn state_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.state_json()).expect("dbcore's own JSON parses")
    }

    /// A battle from its state JSON in either spelling (see [the module](self)): a compact state
    /// is checked by its digest and against every invariant the engine relies on, a full one by
    /// replaying its record.
    pub fn from_state_json(text: &str) -> Result<Battle, StateError> {
        let head = text.trim_start();
        if head.starts_with("{\"format\":\"dbcore-state\"") {
            // The text as dbcore writes it is read straight from its bytes (see `read`); any
            // other spelling by serde's plain parser; and only a fault by the parser that
            // tracks the path of every field, which costs more than the parse, to name it.
            let saved: StateIn = match read::state(text) {
                Some(s) => s,
                None => match crate::json::plain_from_str(text) {
                    Some(s) => s,
                    None => crate::json::from_str(text)?,
                },
            };
            return Battle::from_saved(saved, text_digest(text));
        }
        let known = match Battle::from_full_text(text) {
            FullText::Accepted(battle) => return Ok(*battle),
            FullText::Replayed(pair) => Some(pair),
            FullText::Unread => None,
        };
        // A JSON value has no field to name, so the path-tracking parser (which costs more than
        // the parse) is needed only for the message of a fault: the plain one first.
        let value: serde_json::Value = match crate::json::plain_from_str(text) {
            Some(v) => v,
            None => crate::json::from_str(text)?,
        };
        Battle::from_full_value(value, Some(text), known)
    }

    /// A full state read straight from its text, without a JSON value in between (#15: building
    /// and dropping the value cost about a third of reading a full state). It accepts only a
    /// text that is exactly what serde writes for the battle its record replays to: serde reads
    /// the very battle it wrote, so the record replayed is the one the value would have given,
    /// and [`Battle::from_full_value`] would have accepted the text by the same comparison.
    /// A text read and replayed but spelt otherwise hands on what it read and its replay, which
    /// the value check reuses only when the value gives that same claimed battle; anything
    /// else goes through the value as before, so what is accepted and every error are as ever.
    fn from_full_text(text: &str) -> FullText {
        let Some(claimed) = crate::json::plain_from_str::<Battle>(text) else {
            return FullText::Unread;
        };
        let Ok(setup) = super::setup::ValidatedSetup::from_shared(Arc::clone(&claimed.setup))
        else {
            return FullText::Unread;
        };
        let Ok((replayed, _)) = Battle::replay_validated(&setup, &claimed.actions) else {
            return FullText::Unread;
        };
        if serde_json::to_string(&replayed).is_ok_and(|again| again == text) {
            return FullText::Accepted(Box::new(replayed));
        }
        FullText::Replayed(Box::new((claimed, replayed)))
    }

    /// [`Battle::from_state_json`] of JSON already parsed (a Python dict, a request's field).
    pub fn from_state_value(value: serde_json::Value) -> Result<Battle, StateError> {
        Battle::from_full_value(value, None, None)
    }

    /// [`Battle::from_state_value`] of `value`, read from `text` when there was one.
    ///
    /// `known` is a claimed battle already read from `text` and its replay
    /// ([`Battle::from_full_text`]): the replay is reused when the value claims that battle.
    fn from_full_value(
        value: serde_json::Value,
        text: Option<&str>,
        known: Option<Box<(Battle, Battle)>>,
    ) -> Result<Battle, StateError> {
        if value.get("format").and_then(|f| f.as_str()) == Some(STATE_FORMAT) {
            let saved: StateIn = crate::json::from_value(value)?;
            return Battle::from_saved(saved, None);
        }
        // Read from the value in place (the path-tracking reader, which needs its own copy, only
        // to name the field of a fault).
        let claimed = match crate::json::plain_from_ref::<Battle>(&value) {
            Some(b) => b,
            None => crate::json::from_value::<Battle>(value.clone())?,
        };
        // A replay reused was of a text already found spelt otherwise: not compared again.
        let (replayed, text) = match known {
            Some(pair) if pair.0 == claimed => (pair.1, None),
            _ => {
                // The claimed state's own set-up, validated once and shared by the replay, not
                // copied.
                let setup = super::setup::ValidatedSetup::from_shared(Arc::clone(&claimed.setup))
                    .map_err(ReplayError::from)?;
                (Battle::replay_validated(&setup, &claimed.actions)?.0, text)
            }
        };
        // Pure speed: serde_json writes every value so that it reads back as the very value
        // written (strings escaped, every float its shortest exact spelling, read back exactly
        // with `float_roundtrip`; a map's keys as strings either way), so when the replayed
        // battle's text is byte for byte the text `value` was read from, `value` is the value
        // `to_value` would give and the comparison below would find them equal. Any other text
        // (spaced, ordered or spelt otherwise, or not the record's) is compared as before.
        if let Some(text) = text {
            if serde_json::to_string(&replayed).is_ok_and(|again| again == text) {
                return Ok(replayed);
            }
        }
        let again = serde_json::to_value(&replayed).map_err(|e| StateError::Json(e.to_string()))?;
        // Compared as JSON values, as the state was given.
        if again != value {
            return Err(StateError::NotItsRecord);
        }
        Ok(replayed)
    }

    /// The battle a compact state describes. `text_hash` is the hash of the text it was read
    /// from ([`text_digest`]), when there was one: if it is the digest the state carries, the
    /// text is exactly what dbcore wrote and writing the battle again to hash it would give the
    /// same bytes, so that is skipped. Otherwise (a text spaced or ordered differently, or
    /// edited) the battle is written again and its digest compared, as ever.
    fn from_saved(s: StateIn, text_hash: Option<u64>) -> Result<Battle, StateError> {
        if s.version != STATE_VERSION {
            return Err(StateError::Version { found: s.version });
        }
        // What replaying would have checked on the way, cheaply: sizes and numbers in range
        // (a digest anyone can compute is no proof against a hostile state), and one entry per
        // army and per set-up element where the state has them.
        super::setup::check_setup(&s.setup)?;
        if s.setup.config != *default_config() {
            s.setup.config.validate()?;
        }
        let n = setup_elements(&s.setup).count();
        if s.elements.len() != n {
            return Err(StateError::Json(format!(
                "elements: {} given, the set-up has {n}",
                s.elements.len()
            )));
        }
        for (i, e) in s.elements.iter().enumerate() {
            crate::sizes::check_pose(&|| format!("elements[{i}].pose"), &e.pose)?;
        }
        crate::sizes::check_len(
            &|| "sallied".into(),
            s.sallied.len(),
            crate::sizes::MAX_ELEMENTS,
        )?;
        for (i, e) in s.sallied.iter().enumerate() {
            crate::sizes::check_pose(&|| format!("sallied[{i}].pose"), &e.pose)?;
        }
        let armies = s.setup.armies.len();
        let per_army = [
            ("bounds_begun", s.bounds_begun.len()),
            ("camp_sacked", s.camp_sacked.len()),
            ("camp_followers", s.camp_followers.len()),
        ];
        for (what, len) in per_army {
            if len != armies {
                return Err(StateError::Json(format!(
                    "{what}: {len} entries given, one per army ({armies}) needed"
                )));
            }
        }
        if s.active >= armies {
            return Err(StateError::Json(format!(
                "active: army {} of {armies}",
                s.active
            )));
        }
        // The set-up's own rules, as for a new battle: the commands, Cities and camps the
        // state is measured against come from it.
        let setup = super::setup::ValidatedSetup::from_shared(Arc::new(s.setup))?.shared();
        let mut elements: Vec<ElementState> = setup_elements(&setup)
            .zip(&s.elements)
            .map(|((army, e), saved)| restore(army, e, saved))
            .collect();
        elements.extend(s.sallied);
        let battle = Battle {
            setup,
            elements,
            bound: s.bound,
            active: s.active,
            phase: s.phase,
            pips: s.pips,
            river: s.river,
            plough_rough: s.plough_rough,
            bounds_begun: s.bounds_begun,
            actions: Arc::new(s.actions),
            shot: s.shot,
            shots: s.shots,
            fought: s.fought,
            pursued: s.pursued,
            camp_sacked: s.camp_sacked,
            camp_followers: s.camp_followers,
            cities: s.cities,
            verdict: s.verdict,
            stamp: super::state::Stamp::fresh(),
            cache: Default::default(),
            setup_text: Default::default(),
            commands: s.commands,
        };
        if text_hash.is_none_or(|h| format!("{h:016x}") != s.digest) {
            let computed = battle.state_digest();
            if computed != s.digest {
                return Err(StateError::Digest {
                    given: s.digest,
                    computed,
                });
            }
        }
        // The digest is public, so a matching one proves nothing about who wrote the state:
        // every state is checked against what the engine relies on (issue #44).
        let start = Battle::from_valid(Arc::clone(&battle.setup));
        let problems = check::problems(&battle, &start);
        if !problems.is_empty() {
            return Err(StateError::Invalid { problems });
        }
        Ok(battle)
    }

    /// The battle a compact state's text describes, nothing checked: a forged state as the engine met it before issue #44, for the
    /// tests that show the engine's loops end even there.
    #[cfg(test)]
    pub(crate) fn from_state_json_unchecked(text: &str) -> Battle {
        let s: StateIn = serde_json::from_str(text).expect("a compact state");
        let setup = Arc::new(s.setup);
        let mut elements: Vec<ElementState> = setup_elements(&setup)
            .zip(&s.elements)
            .map(|((army, e), saved)| restore(army, e, saved))
            .collect();
        elements.extend(s.sallied);
        let mut b = Battle::from_valid(setup);
        b.elements = elements;
        b.bound = s.bound;
        b.active = s.active;
        b.phase = s.phase;
        b.pips = s.pips;
        b.bounds_begun = s.bounds_begun;
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::bound::BattleRecord;

    /// States along every golden battle: every seventh action's, and the last.
    fn golden_states() -> Vec<(String, Battle)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("tests/golden exists")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        let mut states = Vec::new();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("a golden trace");
            let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            let record: BattleRecord =
                serde_json::from_value(value["record"].clone()).expect("a battle record");
            let mut b = Battle::new(record.setup.clone()).expect("a valid set-up");
            let name = p.display().to_string();
            for (i, a) in record.actions.iter().enumerate() {
                if i % 7 == 0 {
                    states.push((format!("{name} before action {i}"), b.clone()));
                }
                b.apply(a.clone()).expect("the golden action applies");
            }
            states.push((format!("{name} at its end"), b));
        }
        assert!(states.len() > 50, "{} states", states.len());
        states
    }

    /// `from_state_json` as it read a compact state before the hand reader: serde alone.
    fn by_serde(text: &str) -> Result<Battle, StateError> {
        let saved: StateIn = match serde_json::from_str(text) {
            Ok(s) => s,
            Err(_) => crate::json::from_str(text)?,
        };
        Battle::from_saved(saved, text_digest(text))
    }

    #[test]
    fn the_hand_reader_reads_what_serde_reads_on_every_golden_state() {
        for (name, battle) in golden_states() {
            let text = battle.state_json();
            let fast = read::state(&text).unwrap_or_else(|| panic!("{name}: not read by hand"));
            let fast = Battle::from_saved(fast, text_digest(&text)).expect("reads back");
            assert_eq!(fast, battle, "{name}");
            assert_eq!(Ok(fast), by_serde(&text), "{name}");
        }
    }

    #[test]
    fn other_spellings_and_faults_are_left_to_serde() {
        let (_, battle) = golden_states().pop().expect("a golden state");
        let text = battle.state_json();
        let digest_at = text.rfind(",\"digest\"").expect("a digest");
        let mut variants = vec![
            format!(" \n{text}\n "),
            serde_json::to_string_pretty(&battle.state_value()).expect("serialises"),
            text.replacen(
                "{\"action\":\"roll_pips\",\"die\":",
                "{\"action\":\"roll_pips\",\"die\":1",
                1,
            ),
            text.replacen("\"die\":", "\"die\": ", 1),
            text.replacen("\"die\":", "\"x\":1,\"die\":", 1),
            text.replacen("\"pips\":", "\"pips\":-", 1),
            text.replacen("\"pips\":", "\"pips\":9", 1),
            text.replacen("\"bound\":", "\"bound\":1e", 1),
            text.replacen("\"bound\":", "\"bound\":0", 1),
            text.replacen("\"facing\":", "\"facing\":-0", 1),
            text.replacen("\"facing\":", "\"facing\":1e999", 1),
            text.replacen("\"facing\":", "\"facing\":.", 1),
            text.replacen("\"kind\":\"", "\"kind\":\"X", 1),
            text.replacen("\"name\":\"", "\"name\":\"\\u0041", 1),
            text.replacen("\"phase\":{", "\"phase\":{\"x\":[1,{}],", 1),
            text.replacen("\"type\":\"element\"", "\"type\":\"elephant\"", 1),
            format!("{}}}", &text[..digest_at]),
            text[..text.len() - 1].to_string(),
            format!("{text}x"),
        ];
        // Every prefix of the start, cut anywhere.
        variants.extend((0..400).step_by(7).map(|n| text[..n].to_string()));
        for v in variants {
            let fast = Battle::from_state_json(&v);
            assert_eq!(fast, by_serde(&v), "{v:.300}");
        }
    }

    #[test]
    fn numbers_statuses_and_kinds_spelt_or_changed_otherwise_are_read_or_refused_as_by_serde() {
        // A state with a lost element, whose text has statuses, kinds and 17-digit numbers.
        let (name, battle) = golden_states()
            .into_iter()
            .rev()
            .find(|(_, b)| b.state_json().contains("\"cause\":\"destroyed\""))
            .expect("a golden state with a destroyed element");
        let text = battle.state_json();
        let lost = "{\"status\":\"lost\",\"cause\":\"destroyed\"}";
        // The first number of 17 significant digits, and where it starts.
        let long = text
            .split([':', ',', '[', '{'])
            .find(|t| t.len() >= 18 && t.bytes().all(|c| c.is_ascii_digit() || c == b'.'))
            .expect("a long number");
        let at = text.find(long).expect("there");
        // A digit changed where it changes the number (the last of 17 may not: it can spell
        // the same float).
        let mut changed_digit = text.clone().into_bytes();
        let digit = at + long.find('.').expect("a fraction") + 1;
        changed_digit[digit] = if changed_digit[digit] == b'9' {
            b'8'
        } else {
            b'9'
        };
        // The same state spelt otherwise: read by serde, and accepted, its digest being that
        // of the canonical text written again.
        let spellings = vec![
            text.replacen(lost, "{\"cause\":\"destroyed\",\"status\":\"lost\"}", 1),
            text.replacen(long, &format!("{long}0000"), 1),
            text.replacen(long, &format!("{long}e0"), 1),
            text.replacen("\"kind\":\"4Bd\"", "\"kind\":\"\\u0034Bd\"", 1),
        ];
        for v in spellings {
            assert_ne!(v, text, "{name}: a variant that changes nothing");
            assert_eq!(
                Battle::from_state_json(&v),
                Ok(battle.clone()),
                "{name}: {v:.300}"
            );
            assert_eq!(by_serde(&v), Ok(battle.clone()), "{name}: {v:.300}");
        }
        // Changed or broken states: refused, with serde's error.
        let mut changes = vec![
            text.replacen(lost, "{\"status\":\"lost\",\"cause\":\"drowned\"}", 1),
            text.replacen(lost, "{\"status\":\"lost\"}", 1),
            text.replacen(lost, "{\"status\":\"in_play\"}", 1),
            text.replacen(lost, "{\"status\":\"afloat\"}", 1),
            // A field the status does not have (issue #44: unknown keys are refused).
            text.replacen(
                lost,
                "{\"status\":\"lost\",\"cause\":\"destroyed\",\"x\":1}",
                1,
            ),
            text.replacen(lost, "{\"status\":\"lost\",\"cause\":\"off_table\"}", 1),
            String::from_utf8(changed_digit).expect("ASCII"),
            text.replacen(long, "\"NaN\"", 1),
            text.replacen(long, "NaN", 1),
            text.replacen(long, &format!("-{long}"), 1),
            text.replacen(long, &format!("0{long}"), 1),
            text.replacen("\"kind\":\"4Bd\"", "\"kind\":\"3Bd\"", 1),
            text.replacen("\"kind\":\"4Bd\"", "\"kind\":\"4Bx\"", 1),
        ];
        // Cut anywhere in and around the long number.
        changes.extend((at.saturating_sub(3)..at + long.len() + 3).map(|n| text[..n].to_string()));
        for v in changes {
            assert_ne!(v, text, "{name}: a variant that changes nothing");
            let fast = Battle::from_state_json(&v);
            assert_eq!(fast, by_serde(&v), "{name}: {v:.300}");
            assert!(fast.is_err(), "{name}: a changed state accepted: {v:.300}");
        }
    }

    /// `from_state_json` of a full state as it was before its text was compared: the value
    /// read by the path-tracking parser, and compared with the replayed battle as values.
    fn full_by_value(text: &str) -> Result<Battle, StateError> {
        Battle::from_full_value(crate::json::from_str(text)?, None, None)
    }

    #[test]
    fn a_written_battle_reads_back_as_its_value_on_every_golden_state() {
        for (name, battle) in golden_states() {
            let text = serde_json::to_string(&battle).expect("serialises");
            let read: serde_json::Value = serde_json::from_str(&text).expect("reads back");
            assert_eq!(
                read,
                serde_json::to_value(&battle).expect("a value"),
                "{name}"
            );
        }
    }

    #[test]
    fn the_full_state_text_check_agrees_with_the_value_check() {
        let states = golden_states();
        for (name, battle) in states.iter().step_by(5) {
            let text = serde_json::to_string(battle).expect("serialises");
            assert_eq!(
                Battle::from_state_json(&text),
                full_by_value(&text),
                "{name}"
            );
        }
        let (_, battle) = states.last().expect("a golden state");
        let text = serde_json::to_string(battle).expect("serialises");
        let mut variants = vec![
            format!(" \n{text}\n "),
            serde_json::to_string_pretty(battle).expect("serialises"),
            text.replacen("\"x\":", "\"x\":1", 1),
            text.replacen("\"x\":", "\"x\": ", 1),
            text.replacen("\"facing\":", "\"facing\":-", 1),
            text.replacen("\"facing\":", "\"facing\":1e999", 1),
            text.replacen("\"bound\":", "\"bound\":9", 1),
            text.replacen("\"bound\":", "\"x\":1,\"bound\":", 1),
            text.replacen("\"name\":\"", "\"name\":\"\\u0041", 1),
            text.replacen("\"name\":\"", "\"name\":\"X", 1),
            text[..text.len() - 1].to_string(),
            format!("{text}x"),
            format!("{text} "),
        ];
        variants.extend((0..400).step_by(9).map(|n| text[..n].to_string()));
        for v in variants {
            assert_eq!(Battle::from_state_json(&v), full_by_value(&v), "{v:.300}");
        }
    }

    #[test]
    fn the_set_up_text_is_written_once_and_kept_by_clones_and_later_states() {
        let (_, end) = golden_states().pop().expect("a golden state");
        let mut battle = Battle::new(end.setup().clone()).expect("a valid set-up");
        let first = battle.state_json();
        let memo = battle
            .setup_text
            .written()
            .expect("written with the first state")
            .as_ptr();
        let clone = battle.clone();
        for a in end.actions.iter() {
            battle.apply(a.clone()).expect("the golden action applies");
        }
        // The later state and the clone use the text written first, and every text they write
        // is the one a battle that never wrote its set-up before writes.
        assert_eq!(battle.setup_text.written().map(|t| t.as_ptr()), Some(memo));
        assert_eq!(clone.setup_text.written().map(|t| t.as_ptr()), Some(memo));
        assert_eq!(battle.state_json(), end.state_json());
        assert_eq!(battle.state_digest(), end.state_digest());
        assert_eq!(clone.state_json(), first);
        assert_eq!(Battle::from_state_json(&battle.state_json()), Ok(end));
    }

    fn fight_dice() -> [crate::DieScore; 2] {
        [
            crate::DieScore::new(1).expect("a score"),
            crate::DieScore::new(3).expect("a score"),
        ]
    }

    /// Issue #44: 11 Roman and 5 British elements on one spot, element 8 in contact with 5
    /// enemies; `fight 8 101` and the opponent's choice never returned. The state is refused
    /// when read now; the engine's loops end even on it.
    #[test]
    fn a_pile_of_elements_does_not_hang_the_engine() {
        let mut battle = Battle::new(crate::driver::demo_setup()).expect("valid");
        battle
            .apply(Action::RollPips {
                die: crate::DieScore::new(3).expect("a score"),
            })
            .expect("rolls");
        let mut v = battle.state_value();
        let elements = v["elements"].as_array_mut().expect("elements");
        for e in elements.iter_mut().take(11) {
            e["pose"] = serde_json::json!({"x": 10.5, "y": 8.0, "facing": 0.0});
        }
        for e in elements.iter_mut().skip(12).take(5) {
            e["pose"] = serde_json::json!({"x": 10.5, "y": 8.0, "facing": 180.0});
        }
        v["phase"] = serde_json::json!({"phase": "close_combat"});
        let text = serde_json::to_string(&v).expect("serialises");
        let pile = Battle::from_state_json_unchecked(&text);
        let (tx, rx) = std::sync::mpsc::channel();
        let started = std::time::Instant::now();
        std::thread::spawn(move || {
            let fight: Action = serde_json::from_value(serde_json::json!(
                {"action": "fight", "a": 8, "b": 101, "dice": [1, 3]}
            ))
            .expect("an action");
            let _ = pile.check(&fight);
            let _ = pile.legal_actions(&[]);
            let nodes = crate::ai::AiConfig {
                nodes: 0,
                ..Default::default()
            };
            let _ = crate::ai::choose(&pile, Some(fight_dice()), &nodes);
            let _ = tx.send(());
        });
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("the pile's fight, legal actions and opponent answer within 20 s");
        eprintln!("a pile of elements answered in {:?}", started.elapsed());
    }

    #[test]
    fn the_hand_writer_writes_what_serde_writes_on_every_golden_state() {
        for (name, battle) in golden_states() {
            let out = battle.state_out().expect("a compact state");
            let serde = serde_json::to_vec(&out).expect("serialises");
            assert_eq!(
                String::from_utf8(write::state_bytes(&out)).expect("UTF-8"),
                String::from_utf8(serde).expect("UTF-8"),
                "{name}"
            );
        }
    }
}
