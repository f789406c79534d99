//! Plain set-up data in, validated battle out (DBA3.md §1.2, §2.5, §5).
//!
//! Armies come already deployed by the caller for now; every problem of the data is reported at
//! once. `sandbox: true` skips the terrain rules of §3 for tools that want any table.

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::battlefield::{Battlefield, BoardEdge, Variant};
use crate::config::RulesConfig;
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{ElementRect, Polygon, Pose, TOLERANCE};
use crate::terrain::{validate_terrain, Going, GoingContext};
use crate::troops::ElementKind;

pub(crate) mod command_setup;
mod sizes;
mod validated;

pub use command_setup::{CommandId, CommandSetup, PipAllocation};
pub use sizes::check_setup;
pub use validated::ValidatedSetup;

/// The tag every saved battle carries, so that other files are refused.
pub const FORMAT: &str = "dbcore-battle";
/// The version of the saved-battle format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Element ids from here up are reserved for the civilians that defend a place without being
/// elements on the table: a City's denizens and a camp's fixed camp followers (§4.2, §4.6). They
/// appear in [`crate::battle::Action::Fight`] as the assaulted side.
pub const RESERVED_IDS: u32 = 0xFFFF_0000;

/// An element's identity, unique in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct ElementId(pub u32);

impl fmt::Display for ElementId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One element as deployed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ElementSetup {
    /// Its id, unique among all the armies' elements; ids from
    /// [`crate::battle::state::RESERVED_IDS`] up are reserved for camp followers and denizens.
    pub id: ElementId,
    /// What troops it is (`4Bd`, `3Kn`, ...: §2).
    pub kind: ElementKind,
    /// Where it stands: the midpoint of its front edge in BW and the way it faces, degrees
    /// clockwise from +y (north).
    pub pose: Pose,
    /// The general's element (§2.5). An allied contingent's general is marked by `contingent`
    /// and does not act as a general (§16.4).
    #[serde(default)]
    pub general: bool,
    /// Allied contingent number, if the element belongs to one (§16.4, §7.4).
    #[serde(default)]
    pub contingent: Option<u8>,
    /// For `X//Y` elements, the foot kind it may dismount into (§2.3, §7.9).
    #[serde(default)]
    pub dismounts_as: Option<ElementKind>,
    /// A War Wagon that is a mobile tower: unlike other WWg it may move into contact with a city,
    /// fort or camp held by the enemy (§4.7, §8.4). Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mobile_tower: bool,
}

/// One army as deployed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ArmySetup {
    /// The army's name, as messages and the narration give it ("Romans").
    pub name: String,
    /// Its own base edge (§5.2).
    pub base_edge: BoardEdge,
    /// Its elements, each with its place on the table.
    pub elements: Vec<ElementSetup>,
    /// The camp's outline, if it has one (§4.6).
    #[serde(default)]
    pub camp: Option<Polygon>,
    /// The camp is defended by fixed camp-follower figures (§4.6): they fight its assaulters as
    /// camp followers (+2) and cannot leave. Without them, or an element of the army inside, the
    /// camp is undefended and an enemy entering it sacks it (§17.44).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub camp_followers: bool,
    /// Big Battle and Giant: its commands, each under its own general (§14.1). A standard army
    /// is one command and lists none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandSetup>,
    /// Big Battle and Giant: how its PIP dice go to its commands (§14.4, §14.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pip_allocation: Option<PipAllocation>,
}

impl ArmySetup {
    /// A standard army: `elements` on the table, with its name and base edge, no camp and no
    /// commands of its own (struct update syntax adds the rest: `ArmySetup { camp, ..new }`).
    pub fn new(name: impl Into<String>, base_edge: BoardEdge, elements: Vec<ElementSetup>) -> Self {
        ArmySetup {
            name: name.into(),
            base_edge,
            elements,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        }
    }
}

/// Everything needed to start a battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BattleSetup {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`].
    pub version: u32,
    /// Which game: standard DBA 3.0, Big Battle or Giant (DBAix set-ups have their own type).
    pub variant: Variant,
    /// The rules configuration: the house rules and readings in force (defaults to the digest's).
    #[serde(default)]
    pub config: RulesConfig,
    /// The board and its terrain.
    pub battlefield: Battlefield,
    /// The armies; an army's index here is how actions and events name it (0 is the first).
    pub armies: Vec<ArmySetup>,
    /// The army with the first bound: the defender (§5.3).
    #[serde(default)]
    pub first: usize,
    /// Skip the terrain rules of §3 (a sandbox table).
    #[serde(default)]
    pub sandbox: bool,
    /// The army owning the battlefield's Cities that no element garrisons at set-up: their
    /// denizens defend them for it (§4.2). A City an element garrisons at set-up belongs to that
    /// element's army. `None`: ungarrisoned Cities belong to nobody and have no denizens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city_owner: Option<usize>,
    /// Elements held back for a littoral landing (§5.5): they start afloat, their set-up pose is
    /// not used, and their army lands them with [`super::Action::Land`] in its own first bound.
    /// Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_back: Vec<ElementId>,
    /// A scenario's own army sizes, recorded as its choice (a refight's numbers, §15.1, or a
    /// table set up to show one rule): the armies' numbers of troop elements are not checked
    /// (12 in a standard game, §2.5; 36 in Big Battle and 12 a general in Giant, allied
    /// commands of 12, §14.1, §14.6). Every other rule is. Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_army_size: bool,
}

impl BattleSetup {
    /// A set-up with the current format tag and version.
    pub fn new(variant: Variant, battlefield: Battlefield, armies: Vec<ArmySetup>) -> Self {
        BattleSetup {
            format: FORMAT.to_string(),
            version: FORMAT_VERSION,
            variant,
            config: RulesConfig::default(),
            battlefield,
            armies,
            first: 0,
            sandbox: false,
            city_owner: None,
            held_back: Vec::new(),
            free_army_size: false,
        }
    }
}

/// One problem of a set-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "problem")]
#[serde(deny_unknown_fields)]
pub enum SetupProblem {
    /// The JSON is not a saved dbcore battle, or one of a version this build does not read.
    #[error(
        "not a saved dbcore battle: format `{found}`, expected `{FORMAT}` version {FORMAT_VERSION}"
    )]
    Format {
        /// The format named in the JSON.
        found: String,
        /// The version named in the JSON.
        version: u32,
    },
    /// Fewer than two armies.
    #[error("§1: a battle needs at least two armies, not {count}")]
    TooFewArmies {
        /// How many there are.
        count: usize,
    },
    /// The army named to take the first bound does not exist (§5.3).
    #[error("§5.3: army {first} cannot have the first bound: there are {count} armies")]
    NoSuchFirstArmy {
        /// The index given.
        first: usize,
        /// How many armies there are.
        count: usize,
    },
    /// Two elements share one id.
    #[error("element id {id} is used more than once")]
    DuplicateId {
        /// The id used twice.
        id: ElementId,
    },
    /// An element uses an id reserved for camp followers and denizens.
    #[error("element id {id} is reserved for camp followers and denizens (ids from {first})")]
    ReservedId {
        /// The id.
        id: ElementId,
        /// The first reserved id.
        first: u32,
    },
    /// The army named to own the Cities does not exist (§4.2).
    #[error("§4.2: army {owner} cannot own the Cities: there are {count} armies")]
    NoSuchCityOwner {
        /// The index given.
        owner: usize,
        /// How many armies there are.
        count: usize,
    },
    /// An army has no general's element, or more than one, outside its allied contingents (§2.5).
    #[error("§2.5: army `{army}` must have exactly one general's element outside its allied contingents, not {count}")]
    Generals {
        /// The army's name.
        army: String,
        /// General's elements found.
        count: usize,
    },
    /// An element is not wholly on the battlefield (§1.2).
    #[error("§1.2: element {id} is not wholly on the battlefield")]
    OffTable {
        /// The element.
        id: ElementId,
    },
    /// Two elements overlap.
    #[error("element {a} and element {b} overlap")]
    Overlap {
        /// One element.
        a: ElementId,
        /// The other.
        b: ElementId,
    },
    /// An element stands in impassable terrain (§3.4).
    #[error("§3.4: element {id} stands in impassable terrain")]
    Impassable {
        /// The element.
        id: ElementId,
    },
    /// An element of a kind that may not deploy in bad going stands in it off a road (§5.4).
    #[error("§5.4: {kind} element {id} may not deploy off-road in bad going")]
    BadGoingDeployment {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
    },
    /// An element may dismount only into foot (§2.3).
    #[error("§2.3: element {id} ({kind}) cannot dismount as {into}: mounted elements dismount into foot")]
    Dismount {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
        /// The kind it would dismount as.
        into: ElementKind,
    },
    /// An element not allowed to garrison a City or Fort starts inside one (§5.4, §17.36).
    #[error("§5.4, §17.36: element {id} ({kind}) may not start the battle inside a City or Fort: its initial garrison is one non-allied foot element")]
    GarrisonNotEligible {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
    },
    /// More than one element starts inside a City or Fort (§4.2, §5.4).
    #[error("§4.2, §5.4: {count} elements start inside the City or Fort that is battlefield feature {feature}: at most one may garrison it")]
    GarrisonTooLarge {
        /// The City's or Fort's index among the battlefield's features.
        feature: usize,
        /// Elements inside it.
        count: usize,
    },
    /// A Fort starts without its garrison (§4.3).
    #[error(
        "§4.3: the Fort that is battlefield feature {feature} must begin the battle garrisoned"
    )]
    FortUngarrisoned {
        /// The Fort's index among the battlefield's features.
        feature: usize,
    },
    /// An army without a City and with at most 2 War Wagons has no camp (§4.6).
    #[error("§4.6: army `{army}` must have a camp: it has no City and at most 2 War Wagons")]
    CampMissing {
        /// The army's name.
        army: String,
    },
    /// A camp is too small, or too large (§4.6).
    #[error("§4.6: army `{army}`'s camp is {length:.3} × {breadth:.3} BW: it must be at least 1 × ½ BW and fit a rectangle whose length plus width is at most 4 BW")]
    CampSize {
        /// The army's name.
        army: String,
        /// The camp's length, BW.
        length: f64,
        /// The camp's breadth, BW.
        breadth: f64,
    },
    /// A camp is not wholly on the battlefield (§4.6).
    #[error("§4.6: army `{army}`'s camp is not wholly on the battlefield")]
    CampOffTable {
        /// The army's name.
        army: String,
    },
    /// A camp has no defender, or more than one (§4.6).
    #[error("§4.6: army `{army}`'s camp has {count} defender(s) inside it: one troop element (not El, SCh or allied) or camp followers, never both")]
    CampDefenders {
        /// The army's name.
        army: String,
        /// Defenders inside it.
        count: usize,
    },
    /// The elements held back for a littoral landing are not allowed (§5.5).
    #[error("§5.5: the littoral landing cannot be held back: {reason}")]
    Landing {
        /// Why, in the player's words.
        reason: String,
    },
    /// A terrain problem of §3; the message starts with its section.
    #[error("{message}")]
    Terrain {
        /// The section of §3 that refuses the terrain.
        rule: String,
        /// What is wrong, beginning with that section.
        message: String,
    },
    /// The set-up is of a variant this battle engine does not play (DBAix).
    #[error("{variant:?} set-ups are not played by this battle engine (DBAix has its own, `dbcore::dbaix`)")]
    VariantNotPlayed {
        /// The variant asked for.
        variant: Variant,
    },
    /// A standard army lists commands (§14.1).
    #[error(
        "§14.1: army `{army}` lists commands, but a standard army is one command and lists none"
    )]
    CommandsInStandard {
        /// The army's name.
        army: String,
    },
    /// A Big Battle or Giant army does not list its commands (§14.1).
    #[error("§14.1: army `{army}` must list its commands, each under its general")]
    NoCommands {
        /// The army's name.
        army: String,
    },
    /// A Big Battle or Giant army has the wrong number of commands (§14.1).
    #[error("§14.1: army `{army}` has {count} commands; a Big Battle army has {expected}")]
    CommandCount {
        /// The army's name.
        army: String,
        /// Commands it lists.
        count: usize,
        /// Commands it must have.
        expected: usize,
    },
    /// A standard army has not 12 troop elements (§2.5), and the set-up does not choose its
    /// own army sizes ([`BattleSetup::free_army_size`]).
    #[error("§2.5: army `{army}` has {count} troop elements; a DBA army has 12 (a scenario with other numbers sets `free_army_size`)")]
    StandardArmySize {
        /// The army's name.
        army: String,
        /// Troop elements it has (camp followers are not troop elements, §2.6).
        count: usize,
    },
    /// A Big Battle or Giant army has the wrong number of troop elements (§14.1, §14.6), and
    /// the set-up does not choose its own army sizes ([`BattleSetup::free_army_size`]).
    #[error("§14.1: army `{army}` has {count} troop elements, not {expected} (a scenario with other numbers sets `free_army_size`)")]
    ArmySize {
        /// The army's name.
        army: String,
        /// Elements it has.
        count: usize,
        /// Elements it must have.
        expected: usize,
    },
    /// Two commands of one army share an id (§14.1).
    #[error("§14.1: army `{army}` has two commands with id {command}")]
    DuplicateCommand {
        /// The army's name.
        army: String,
        /// The id used twice.
        command: CommandId,
    },
    /// An element is in no command, or in more than one (§14.1).
    #[error("§14.1: element {id} of army `{army}` is in {count} commands, not exactly one")]
    ElementCommands {
        /// The army's name.
        army: String,
        /// The element.
        id: ElementId,
        /// Commands listing it.
        count: usize,
    },
    /// A command lists an element that is not of its army (§14.1).
    #[error("§14.1: {command} of army `{army}` lists element {id}, which is not of that army")]
    UnknownCommandElement {
        /// The army's name.
        army: String,
        /// The command.
        command: CommandId,
        /// The element listed.
        id: ElementId,
    },
    /// A command has fewer than 6 elements (§14.1).
    #[error("§14.1: {command} of army `{army}` has {count} elements; a command has at least 6")]
    CommandTooSmall {
        /// The army's name.
        army: String,
        /// The command.
        command: CommandId,
        /// Its elements.
        count: usize,
    },
    /// An allied command is not a whole 12-element army (§14.1).
    #[error("§14.1: allied {command} of army `{army}` has {count} elements; an allied command is a whole 12-element army")]
    AlliedCommandSize {
        /// The army's name.
        army: String,
        /// The allied command.
        command: CommandId,
        /// Its elements.
        count: usize,
    },
    /// A command's general is not one of its elements, or not a general's element (§14.1).
    #[error("§14.1: the general of {command} of army `{army}`, element {general}, must be one of its elements and a general's element")]
    CommandGeneral {
        /// The army's name.
        army: String,
        /// The command.
        command: CommandId,
        /// The element named as its general.
        general: ElementId,
    },
    /// A sub-general rides a kind no sub-general may (§14.1).
    #[error("§14.1: the general of {command} of army `{army}` may not be {kind} (not Lit, CWg, CP, Hd, SCh or Art; an Elephant only if the C-in-C rides one)")]
    SubGeneralKind {
        /// The army's name.
        army: String,
        /// The command.
        command: CommandId,
        /// The general's kind.
        kind: ElementKind,
    },
    /// A general's element commands no command (§14.1).
    #[error("§14.1: element {id} of army `{army}` is a general's element but commands nothing")]
    GeneralWithoutCommand {
        /// The army's name.
        army: String,
        /// The general's element.
        id: ElementId,
    },
    /// An army has no C-in-C commanding a non-allied command, or more than one (§14.1).
    #[error("§14.1: army `{army}` must have exactly one C-in-C, commanding a non-allied command, not {count}")]
    CInC {
        /// The army's name.
        army: String,
        /// C-in-Cs found.
        count: usize,
    },
    /// A Big Battle or Giant army does not rank its commands' PIP dice (§14.4, §14.6).
    #[error("§14.4: army `{army}` must declare the ranking of its non-allied commands' PIP dice, naming each once (Giant: or have every general roll, §14.6)")]
    PipRanking {
        /// The army's name.
        army: String,
    },
    /// An element deploys more than 8 BW from its command's general (§14.3).
    #[error("§14.3: element {id} of {command} deploys {distance} BW from its general; at most 8 BW outside a City, Fort or camp")]
    FarFromGeneral {
        /// The element.
        id: ElementId,
        /// Its command.
        command: CommandId,
        /// How far from the general it stands, BW.
        distance: f64,
    },
    /// A command that may not have a camp of its own has one (§14.3): only an allied command of
    /// a Big Battle or Giant army does (a standard army lists no commands at all).
    #[error("§14.3: {command} of army `{army}` has a camp of its own, but only an allied command of a Big Battle or Giant army has one")]
    CommandCampRefused {
        /// The army's name.
        army: String,
        /// The command.
        command: CommandId,
    },
    /// An allied command has no camp of its own in a set-up that has camps (§14.3).
    #[error("§14.3: allied {command} of army `{army}` must have its own camp")]
    AlliedCampMissing {
        /// The army's name.
        army: String,
        /// The allied command.
        command: CommandId,
    },
    /// An allied command's camp is too small or too large (§4.6, §14.3).
    #[error("§4.6: the camp of allied {command} of army `{army}` is {length:.3} × {breadth:.3} BW: it must be at least 1 × ½ BW and fit a rectangle whose length plus width is at most 4 BW")]
    AlliedCampSize {
        /// The army's name.
        army: String,
        /// The allied command.
        command: CommandId,
        /// The camp's length, BW.
        length: f64,
        /// The camp's breadth, BW.
        breadth: f64,
    },
    /// An allied command's camp is not wholly on the battlefield (§4.6, §14.3).
    #[error(
        "§4.6: the camp of allied {command} of army `{army}` is not wholly on the battlefield"
    )]
    AlliedCampOffTable {
        /// The army's name.
        army: String,
        /// The allied command.
        command: CommandId,
    },
    /// An allied command's camp has more than one defender (§4.6, §14.3).
    #[error("§4.6: the camp of allied {command} of army `{army}` has {count} defender(s) inside it: camp followers or one element of that command (not El or SCh), never both")]
    AlliedCampDefenders {
        /// The army's name.
        army: String,
        /// The allied command.
        command: CommandId,
        /// Defenders inside it.
        count: usize,
    },
    /// An element stands in a camp it may not defend (§14.3, §17.52): a camp's defender is an
    /// element of the camp's own command (the army's camp: of a non-allied command), never El
    /// or SCh.
    #[error("§14.3: element {id} stands in the camp of {}, which it may not defend: only an element of that camp's own command, not El or SCh, defends it", camp_owner(army, command.as_ref()))]
    CampDefenderNotEligible {
        /// The army's name.
        army: String,
        /// The allied command whose camp it is; `None` for the army's camp.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
        /// The element.
        id: ElementId,
    },
    /// The rules configuration is not usable (a value out of range).
    #[error("the rules configuration cannot be used: {message}")]
    Config {
        /// What is wrong.
        message: String,
    },
    /// A size or number outside `crate::limits`; nothing else is checked.
    #[error("{message}")]
    Limit {
        /// Which size or number, and its limit.
        message: String,
    },
    /// Problems past [`crate::limits::MAX_PROBLEMS`], counted rather than listed. With
    /// `uncounted`, elements piled so thickly that the overlap check stopped early have further
    /// overlaps that are not in `count`.
    #[error("and {count} more{}", more_suffix(*.uncounted))]
    More {
        /// Problems not listed.
        count: usize,
        /// The overlap check stopped early, so more overlaps may exist than `count` says.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        uncounted: bool,
    },
}

impl SetupProblem {
    pub(crate) fn rule_ref(&self) -> Option<&str> {
        match self {
            SetupProblem::TooFewArmies { .. } => Some("§1"),
            SetupProblem::NoSuchFirstArmy { .. } => Some("§5.3"),
            SetupProblem::Generals { .. } | SetupProblem::StandardArmySize { .. } => Some("§2.5"),
            SetupProblem::OffTable { .. } => Some("§1.2"),
            SetupProblem::Impassable { .. } => Some("§3.4"),
            SetupProblem::BadGoingDeployment { .. } => Some("§5.4"),
            SetupProblem::Dismount { .. } => Some("§2.3"),
            SetupProblem::PipRanking { .. } => Some("§14.4"),
            SetupProblem::FarFromGeneral { .. }
            | SetupProblem::CommandCampRefused { .. }
            | SetupProblem::AlliedCampMissing { .. }
            | SetupProblem::CampDefenderNotEligible { .. } => Some("§14.3"),
            SetupProblem::AlliedCampSize { .. }
            | SetupProblem::AlliedCampOffTable { .. }
            | SetupProblem::AlliedCampDefenders { .. } => Some("§4.6"),
            SetupProblem::CommandsInStandard { .. }
            | SetupProblem::NoCommands { .. }
            | SetupProblem::CommandCount { .. }
            | SetupProblem::ArmySize { .. }
            | SetupProblem::DuplicateCommand { .. }
            | SetupProblem::ElementCommands { .. }
            | SetupProblem::UnknownCommandElement { .. }
            | SetupProblem::CommandTooSmall { .. }
            | SetupProblem::AlliedCommandSize { .. }
            | SetupProblem::CommandGeneral { .. }
            | SetupProblem::SubGeneralKind { .. }
            | SetupProblem::GeneralWithoutCommand { .. }
            | SetupProblem::CInC { .. } => Some("§14.1"),
            SetupProblem::NoSuchCityOwner { .. } => Some("§4.2"),
            SetupProblem::GarrisonNotEligible { .. } => Some("§5.4"),
            SetupProblem::GarrisonTooLarge { .. } => Some("§4.2"),
            SetupProblem::FortUngarrisoned { .. } => Some("§4.3"),
            SetupProblem::Landing { .. } => Some("§5.5"),
            SetupProblem::CampMissing { .. }
            | SetupProblem::CampSize { .. }
            | SetupProblem::CampOffTable { .. }
            | SetupProblem::CampDefenders { .. } => Some("§4.6"),
            SetupProblem::Terrain { rule, .. } => Some(rule.as_str()),
            _ => None,
        }
    }
}

/// Every problem of a set-up, reported together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("the battle set-up has {} problem(s): {}", problems.len(), problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
#[serde(deny_unknown_fields)]
pub struct SetupError {
    /// Every problem found, in the order checked (at most [`crate::limits::MAX_PROBLEMS`], then one
    /// [`SetupProblem::More`]).
    pub problems: Vec<SetupProblem>,
}

impl ErrorInfo for SetupError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidSetup
    }
    fn rule(&self) -> Option<&'static str> {
        // The first problem's section, when it is one of the fixed ones.
        self.problems
            .first()
            .and_then(|p| p.rule_ref())
            .and_then(set_up_section)
    }
}

/// The sections a set-up or pre-battle refusal may name, as `'static` text for
/// [`ErrorInfo::rule`]: the set-up's own sections and the terrain sections its problems carry
/// as text (§1.2, §3, §4, §5, §14). One list for [`SetupError`] and the pre-battle's errors.
const SET_UP_SECTIONS: [&str; 25] = [
    "§1", "§1.2", "§2.3", "§2.5", "§3.2", "§3.3", "§3.4", "§3.5", "§3.6", "§3.7", "§3.8", "§4.2",
    "§4.3", "§4.6", "§5.1", "§5.2", "§5.3", "§5.4", "§5.5", "§14.1", "§14.2", "§14.3", "§14.4",
    "§14.6", "§17",
];

/// `rule` as one of [`SET_UP_SECTIONS`], or `None` when it is not among them.
pub(crate) fn set_up_section(rule: &str) -> Option<&'static str> {
    SET_UP_SECTIONS.into_iter().find(|s| *s == rule)
}

/// Check a set-up, returning every problem found.
pub fn validate(setup: &BattleSetup) -> Vec<SetupProblem> {
    let mut v = Vec::new();
    if setup.format != FORMAT || setup.version != FORMAT_VERSION {
        v.push(SetupProblem::Format {
            found: crate::sizes::quote(&setup.format),
            version: setup.version,
        });
    }
    if let Err(e) = check_setup(setup) {
        v.push(SetupProblem::Limit {
            message: e.to_string(),
        });
        return v;
    }
    if let Err(e) = setup.config.validate() {
        v.push(SetupProblem::Config {
            message: e.to_string(),
        });
        return v;
    }
    if setup.armies.len() < 2 {
        v.push(SetupProblem::TooFewArmies {
            count: setup.armies.len(),
        });
    }
    if setup.first >= setup.armies.len() {
        v.push(SetupProblem::NoSuchFirstArmy {
            first: setup.first,
            count: setup.armies.len(),
        });
    }
    if let Some(owner) = setup.city_owner {
        if owner >= setup.armies.len() {
            v.push(SetupProblem::NoSuchCityOwner {
                owner,
                count: setup.armies.len(),
            });
        }
    }
    let mut ids: Vec<ElementId> = setup
        .armies
        .iter()
        .flat_map(|a| a.elements.iter().map(|e| e.id))
        .collect();
    ids.sort();
    for id in &ids {
        if id.0 >= RESERVED_IDS {
            v.push(SetupProblem::ReservedId {
                id: *id,
                first: RESERVED_IDS,
            });
        }
    }
    ids.dedup_by(|a, b| {
        if a == b {
            v.push(SetupProblem::DuplicateId { id: *a });
            true
        } else {
            false
        }
    });
    let standard = setup.variant == Variant::Standard;
    for army in &setup.armies {
        // §2.5: 12 troop elements (Big Battle and Giant are counted with their commands, §14.1).
        let troops = troop_elements(army);
        if standard && !setup.free_army_size && troops != command_setup::ARMY_ELEMENTS {
            v.push(SetupProblem::StandardArmySize {
                army: army.name.clone(),
                count: troops,
            });
        }
        let generals = army
            .elements
            .iter()
            .filter(|e| e.general && e.contingent.is_none())
            .count();
        // Big Battle and Giant generals are checked with their commands (§14.1).
        if standard && generals != 1 {
            v.push(SetupProblem::Generals {
                army: army.name.clone(),
                count: generals,
            });
        }
    }
    let cfg = &setup.config;
    let board = setup.battlefield.board.polygon();
    let all: Vec<(ElementId, ElementKind, ElementRect)> = setup
        .armies
        .iter()
        .flat_map(|a| a.elements.iter())
        .filter(|e| !setup.held_back.contains(&e.id))
        .map(|e| {
            (
                e.id,
                e.kind,
                ElementRect::new(e.pose, 1.0, cfg.depth(e.kind)),
            )
        })
        .collect();
    for (id, kind, r) in &all {
        if !r.corners().iter().all(|p| board.contains(*p)) {
            v.push(SetupProblem::OffTable { id: *id });
        }
        let going = setup.battlefield.going_under(
            r,
            GoingContext {
                camel_mounted: kind.is_camel_mounted(),
                plough_is_rough: false,
            },
        );
        if going == Going::Impassable {
            v.push(SetupProblem::Impassable { id: *id });
        }
        let on_road = setup.battlefield.move_along_road(&[r.pose.front_mid()]);
        if going == Going::Bad && !cfg.kind(kind.base()).may_enter_bad_going && !on_road {
            v.push(SetupProblem::BadGoingDeployment {
                id: *id,
                kind: *kind,
            });
        }
    }
    // Only neighbours on a grid of cells are compared, so the check is near linear in the
    // number of elements; pairs are reported in set-up order as a double loop would.
    let mut uncounted = false;
    let near = crate::table::NearIndex::of_rects(all.iter().map(|(_, _, r)| *r).collect());
    for (i, (a, _, ra)) in all.iter().enumerate() {
        for j in near.around(i, 2.0 * TOLERANCE) {
            if j > i && overlapping(ra, &all[j].2) {
                v.push(SetupProblem::Overlap { a: *a, b: all[j].0 });
            }
        }
        // A pile of elements at one spot: every further pair is another problem that would only
        // be counted, so stop comparing once the report is well past full.
        if v.len() > 4 * crate::sizes::MAX_PROBLEMS {
            uncounted = i + 1 < all.len();
            break;
        }
    }
    for e in setup.armies.iter().flat_map(|a| a.elements.iter()) {
        if let Some(into) = e.dismounts_as {
            if !e.kind.is_mounted() || !into.is_foot() {
                v.push(SetupProblem::Dismount {
                    id: e.id,
                    kind: e.kind,
                    into,
                });
            }
        }
    }
    garrison_problems(setup, &mut v);
    command_setup::command_problems(setup, &mut v);
    landing_problems(setup, &mut v);
    if !setup.sandbox {
        camp_problems(setup, &mut v);
        for p in validate_terrain(&setup.battlefield, setup.variant) {
            v.push(SetupProblem::Terrain {
                rule: p.rule().to_string(),
                message: p.to_string(),
            });
        }
    }
    cap_problems(v, uncounted)
}

/// An army's troop elements: all its elements but camp followers (§2.6), the number §2.5 and
/// §14.1 count.
pub(crate) fn troop_elements(army: &ArmySetup) -> usize {
    army.elements
        .iter()
        .filter(|e| !command_setup::is_civilian(e.kind.troop_type()))
        .count()
}

/// Whose camp, for messages: "army `Romans`" or "allied command 2 of army `Romans`".
fn camp_owner(army: &str, command: Option<&CommandId>) -> String {
    match command {
        Some(c) => format!("allied {c} of army `{army}`"),
        None => format!("army `{army}`"),
    }
}

fn more_suffix(uncounted: bool) -> &'static str {
    if uncounted {
        " (and further overlaps, not counted)"
    } else {
        ""
    }
}

/// At most [`crate::limits::MAX_PROBLEMS`] problems, then one that counts the rest.
fn cap_problems(mut v: Vec<SetupProblem>, uncounted: bool) -> Vec<SetupProblem> {
    let max = crate::sizes::MAX_PROBLEMS;
    if v.len() > max || uncounted {
        let count = v.len().saturating_sub(max);
        v.truncate(max);
        v.push(SetupProblem::More { count, uncounted });
    }
    v
}

/// The initial garrisons of Cities and Forts (§4.2, §4.3, §5.4, §17.36): an element starting
/// wholly inside one garrisons it and must be a foot element not of an allied contingent; at
/// most one may; a Fort must have one. (Checked on sandbox tables too: they skip §3's terrain
/// rules only.)
fn garrison_problems(setup: &BattleSetup, v: &mut Vec<SetupProblem>) {
    let cfg = &setup.config;
    for (feature, area) in setup.battlefield.areas() {
        if !area.kind.is_fortified() {
            continue;
        }
        let inside: Vec<&ElementSetup> = setup
            .armies
            .iter()
            .flat_map(|a| a.elements.iter())
            .filter(|e| !setup.held_back.contains(&e.id))
            .filter(|e| wholly_inside(cfg, e, &area.outline))
            .collect();
        for e in &inside {
            if !e.kind.is_foot() || e.contingent.is_some() {
                v.push(SetupProblem::GarrisonNotEligible {
                    id: e.id,
                    kind: e.kind,
                });
            }
        }
        if inside.len() > 1 {
            v.push(SetupProblem::GarrisonTooLarge {
                feature,
                count: inside.len(),
            });
        }
        if inside.is_empty() && area.kind == crate::terrain::AreaKind::Fort {
            v.push(SetupProblem::FortUngarrisoned { feature });
        }
    }
}

/// The Edifice declared as the camp `camp`, if there is one (§4.5, §4.6): an army declares an
/// Edifice its camp by giving the Edifice's own outline as its camp. The camp rules then apply to
/// it (size, place, defence); the building stays bad going (see [`super::Battle::held_strongholds`]).
pub fn edifice_camp(battlefield: &Battlefield, camp: &Polygon) -> Option<usize> {
    battlefield
        .areas()
        .find(|(_, a)| {
            a.kind == crate::terrain::AreaKind::Edifice
                && a.outline.points.len() == camp.points.len()
                && a.outline
                    .points
                    .iter()
                    .zip(&camp.points)
                    .all(|(p, q)| p.near(*q))
        })
        .map(|(f, _)| f)
}

/// The camps of §4.6 on a table that is not a sandbox.
///
/// * Compulsory unless the army has a City (it owns one, [`BattleSetup::city_owner`], or garrisons
///   one at set-up) or more than 2 War Wagons. Reading: a set-up in which no army has a camp is a
///   scenario played without camps (the demonstration battle, positions from table tools), so
///   the missing camp is reported only when some army of the set-up has one; the pre-battle
///   ([`super::prebattle`]) always asks for the compulsory camp.
/// * Its size: at least 1 × ½ BW, fitting a rectangle whose length plus width is at most 4 BW,
///   wholly on the table. (Where it stands against the rear edge is the pre-battle's check: a
///   scenario may put it anywhere.)
/// * Its defence: one troop element wholly inside (a camp-follower element counts as the camp
///   followers) or fixed camp followers, never both and never two elements.
fn camp_problems(setup: &BattleSetup, v: &mut Vec<SetupProblem>) {
    match setup.variant {
        Variant::Standard => {}
        Variant::BigBattle | Variant::Giant => return command_camp_problems(setup, v),
        Variant::Dbaix => return,
    }
    for a in &setup.armies {
        for c in a.commands.iter().filter(|c| c.camp.is_some()) {
            v.push(SetupProblem::CommandCampRefused {
                army: a.name.clone(),
                command: c.id,
            });
        }
    }
    let cfg = &setup.config;
    let any_camp = setup.armies.iter().any(|a| a.camp.is_some());
    let cities = city_outlines(setup);
    let board = setup.battlefield.board.polygon();
    for (i, army) in setup.armies.iter().enumerate() {
        let wholly = |e: &ElementSetup, p: &Polygon| wholly_inside(cfg, e, p);
        let Some(camp) = &army.camp else {
            if any_camp && !may_do_without_camp(setup, i, &cities, &wholly) {
                v.push(SetupProblem::CampMissing {
                    army: army.name.clone(),
                });
            }
            continue;
        };
        if let Some((length, breadth)) = camp_misfit(camp) {
            v.push(SetupProblem::CampSize {
                army: army.name.clone(),
                length,
                breadth,
            });
            if degenerate(camp) {
                continue;
            }
        }
        if !camp.points.iter().all(|p| board.contains(*p)) {
            v.push(SetupProblem::CampOffTable {
                army: army.name.clone(),
            });
        }
        let inside = army
            .elements
            .iter()
            .filter(|e| !setup.held_back.contains(&e.id) && wholly(e, camp))
            .count();
        let count = inside + usize::from(army.camp_followers);
        if count > 1 {
            v.push(SetupProblem::CampDefenders {
                army: army.name.clone(),
                count,
            });
        }
    }
}

/// A camp outline with fewer than three corners or no area (§4.6 cannot measure it).
fn degenerate(camp: &Polygon) -> bool {
    camp.points.len() < 3 || camp.area() < 1e-9
}

/// The outlines of the Cities on the table (§4.6: an army with a City may do without a camp).
fn city_outlines(setup: &BattleSetup) -> Vec<&Polygon> {
    setup
        .battlefield
        .areas()
        .filter(|(_, a)| a.kind == crate::terrain::AreaKind::City)
        .map(|(_, a)| &a.outline)
        .collect()
}

/// Element `e` stands wholly inside `p`: a camp's defender, an element in a City (§4.6), the
/// garrison of a fortified area.
fn wholly_inside(cfg: &RulesConfig, e: &ElementSetup, p: &Polygon) -> bool {
    ElementRect::new(e.pose, 1.0, cfg.depth(e.kind))
        .corners()
        .iter()
        .all(|c| p.contains(*c))
}

/// A camp's size if it breaks §4.6 (at least 1 × ½ BW, fitting a rectangle whose length plus
/// width is at most 4 BW): `(length, breadth)`, zero for a degenerate outline.
fn camp_misfit(camp: &Polygon) -> Option<(f64, f64)> {
    if degenerate(camp) {
        return Some((0.0, 0.0));
    }
    let (length, breadth) = crate::terrain::measure_rectangle(camp);
    (length < 1.0 - TOLERANCE || breadth < 0.5 - TOLERANCE || length + breadth > 4.0 + TOLERANCE)
        .then_some((length, breadth))
}

/// Army `i` may do without its camp (§4.6): it has a City (as the City's owner, or with an
/// element in one), or more than 2 War Wagons outside its allied commands (which bring their own
/// camps, §14.3).
fn may_do_without_camp(
    setup: &BattleSetup,
    i: usize,
    cities: &[&Polygon],
    wholly: &dyn Fn(&ElementSetup, &Polygon) -> bool,
) -> bool {
    let army = &setup.armies[i];
    let has_city = (setup.city_owner == Some(i) && !cities.is_empty())
        || army
            .elements
            .iter()
            .any(|e| cities.iter().any(|c| wholly(e, c)));
    let allied = |e: &ElementSetup| {
        army.commands
            .iter()
            .any(|c| c.allied && c.elements.contains(&e.id))
    };
    let wagons = army
        .elements
        .iter()
        .filter(|e| e.kind.troop_type() == crate::troops::TroopType::WWg && !allied(e))
        .count();
    has_city || wagons > 2
}

/// The camps of a Big Battle or Giant set-up that is not a sandbox (§14.3, §4.6).
///
/// * Only an allied command has a camp of its own ([`CommandSetup::camp`]); the army's camp
///   ([`ArmySetup::camp`]) is its non-allied commands'.
/// * As in a standard set-up, one with no camp at all is a scenario played without camps. Once
///   any army or command has one, every allied command must have its own, and the army's camp is
///   compulsory unless the army has a City or more than 2 War Wagons (§4.6). Reading: the City
///   stands in only for the army's one normal camp ("otherwise one camp for the army, or a
///   City"), never for an allied command's, so an allied command of an army with a City still
///   brings its own camp.
/// * Each camp, the army's and every allied one: §4.6's size, wholly on the table, and at most
///   one defender, camp followers or one element wholly inside (none: undefended, as §4.6
///   allows). Every element standing wholly inside a camp must be one that may defend it
///   (§14.3, §17.52): of that camp's own command (the army's camp: of a non-allied command),
///   and not El or SCh.
fn command_camp_problems(setup: &BattleSetup, v: &mut Vec<SetupProblem>) {
    let cfg = &setup.config;
    let any_camp = setup
        .armies
        .iter()
        .any(|a| a.camp.is_some() || a.commands.iter().any(|c| c.camp.is_some()));
    let cities = city_outlines(setup);
    let board = setup.battlefield.board.polygon();
    for (i, army) in setup.armies.iter().enumerate() {
        let name = || army.name.clone();
        let placed = |e: &&ElementSetup| !setup.held_back.contains(&e.id);
        let wholly = |e: &ElementSetup, p: &Polygon| wholly_inside(cfg, e, p);
        let command_of = |id: ElementId| army.commands.iter().find(|c| c.elements.contains(&id));
        // §14.3, §17.52: the elements inside `camp` that may not defend it.
        let ineligible = |camp: &Polygon, owner: Option<CommandId>, v: &mut Vec<SetupProblem>| {
            for e in army
                .elements
                .iter()
                .filter(placed)
                .filter(|e| wholly(e, camp))
            {
                let Some(c) = command_of(e.id) else { continue };
                let own = match owner {
                    Some(id) => c.id == id,
                    None => !c.allied,
                };
                let kind_ok = !matches!(
                    e.kind.troop_type(),
                    crate::troops::TroopType::El | crate::troops::TroopType::SCh
                );
                if !own || !kind_ok {
                    v.push(SetupProblem::CampDefenderNotEligible {
                        army: name(),
                        command: owner,
                        id: e.id,
                    });
                }
            }
        };
        let defenders = |camp: &Polygon, followers: bool| {
            army.elements
                .iter()
                .filter(placed)
                .filter(|e| wholly(e, camp))
                .count()
                + usize::from(followers)
        };
        for c in &army.commands {
            let Some(camp) = &c.camp else {
                // Like an army (§4.6), an allied command with more than 2 War Wagons of its own
                // may do without a camp (the pre-battle's reading, docs/rules §14).
                let wagons = army
                    .elements
                    .iter()
                    .filter(|e| {
                        c.elements.contains(&e.id)
                            && e.kind.troop_type() == crate::troops::TroopType::WWg
                    })
                    .count();
                if c.allied && any_camp && wagons <= 2 {
                    v.push(SetupProblem::AlliedCampMissing {
                        army: name(),
                        command: c.id,
                    });
                }
                continue;
            };
            if !c.allied {
                v.push(SetupProblem::CommandCampRefused {
                    army: name(),
                    command: c.id,
                });
                continue;
            }
            if let Some((length, breadth)) = camp_misfit(camp) {
                v.push(SetupProblem::AlliedCampSize {
                    army: name(),
                    command: c.id,
                    length,
                    breadth,
                });
            }
            if !camp.points.iter().all(|p| board.contains(*p)) {
                v.push(SetupProblem::AlliedCampOffTable {
                    army: name(),
                    command: c.id,
                });
            }
            let count = defenders(camp, c.camp_followers);
            if count > 1 {
                v.push(SetupProblem::AlliedCampDefenders {
                    army: name(),
                    command: c.id,
                    count,
                });
            }
            ineligible(camp, Some(c.id), v);
        }
        let Some(camp) = &army.camp else {
            if any_camp && !may_do_without_camp(setup, i, &cities, &wholly) {
                v.push(SetupProblem::CampMissing { army: name() });
            }
            continue;
        };
        if let Some((length, breadth)) = camp_misfit(camp) {
            v.push(SetupProblem::CampSize {
                army: name(),
                length,
                breadth,
            });
        }
        if !camp.points.iter().all(|p| board.contains(*p)) {
            v.push(SetupProblem::CampOffTable { army: name() });
        }
        let count = defenders(camp, army.camp_followers);
        if count > 1 {
            v.push(SetupProblem::CampDefenders {
                army: name(),
                count,
            });
        }
        ineligible(camp, None, v);
    }
}

/// The elements held back for a littoral landing (§5.5): only with a waterway on the table, 2 or 3
/// elements of an army, none of them El, WWg or Art, each named once. (Whether the army's list
/// gives Littoral home terrain is the pre-battle's check: a set-up does not carry the lists.)
fn landing_problems(setup: &BattleSetup, v: &mut Vec<SetupProblem>) {
    if setup.held_back.is_empty() {
        return;
    }
    let mut problem = |reason: String| v.push(SetupProblem::Landing { reason });
    let has_waterway = setup
        .battlefield
        .features
        .iter()
        .any(|f| matches!(f, crate::terrain::TerrainFeature::Waterway(_)));
    if !has_waterway {
        problem("there is no waterway on the table".into());
    }
    let mut armies = Vec::new();
    for (k, id) in setup.held_back.iter().enumerate() {
        if setup.held_back[..k].contains(id) {
            problem(format!("element {id} is named twice"));
            continue;
        }
        let found = setup
            .armies
            .iter()
            .enumerate()
            .find_map(|(a, army)| army.elements.iter().find(|e| e.id == *id).map(|e| (a, e)));
        let Some((army, e)) = found else {
            problem(format!("there is no element {id}"));
            continue;
        };
        if matches!(
            e.kind.troop_type(),
            crate::troops::TroopType::El
                | crate::troops::TroopType::WWg
                | crate::troops::TroopType::Art
        ) {
            problem(format!(
                "element {id} is {}: Elephants, War Wagons and Artillery never land",
                e.kind.code()
            ));
        }
        armies.push(army);
    }
    armies.sort();
    let by_command = matches!(setup.variant, Variant::BigBattle | Variant::Giant);
    for a in 0..setup.armies.len() {
        let count = armies.iter().filter(|&&x| x == a).count();
        if count > 0 && by_command {
            // §14.3: in Big Battle and Giant the landing is one whole command.
            let mut held: Vec<ElementId> = setup
                .held_back
                .iter()
                .filter(|id| setup.armies[a].elements.iter().any(|e| e.id == **id))
                .copied()
                .collect();
            held.sort();
            held.dedup();
            let whole = setup.armies[a].commands.iter().any(|c| {
                let mut ids = c.elements.clone();
                ids.sort();
                ids == held
            });
            if !whole {
                problem(format!(
                    "army `{}` holds back {count} elements: in Big Battle and Giant a landing is one whole command (§14.3)",
                    setup.armies[a].name
                ));
            }
        } else if count > 0 && !(2..=3).contains(&count) {
            problem(format!(
                "army `{}` holds back {count} elements: a landing is 2 or 3",
                setup.armies[a].name
            ));
        }
    }
}

/// Two element rectangles overlap by more than the tolerance (touching is allowed).
pub fn overlapping(a: &ElementRect, b: &ElementRect) -> bool {
    // Pure speed (#15: a deployment checks its pose against every element already placed):
    // every point of a rectangle lies within sqrt(width² / 4 + depth²) of its front edge's
    // middle, so two whose middles are further apart than the sum of those reaches and the
    // tolerance (with a slack far above any rounding) are clear of each other. Anything not a
    // number goes on to the exact test.
    let reach = |r: &ElementRect| (r.width * r.width * 0.25 + r.depth * r.depth).sqrt();
    let limit = reach(a) + reach(b) + TOLERANCE;
    let d = a.pose.front_mid() - b.pose.front_mid();
    if (d.x * d.x + d.y * d.y).sqrt() > limit * (1.0 + 1e-9) + 1e-9 {
        debug_assert!(
            crate::geometry::convex_gap(&a.corners(), &b.corners()) >= -TOLERANCE,
            "rectangles passed over as apart"
        );
        return false;
    }
    // A separating-axis gap below −TOLERANCE is an overlap, and puts the nearest distance at 0
    // (`nearest_distance` answers 0 for any gap at or below 0), so this one test decides; it
    // stops at the first axis that shows the gap above the limit (the same decision).
    crate::geometry::convex_gap_up_to(&a.corners(), &b.corners(), -TOLERANCE) < -TOLERANCE
}
