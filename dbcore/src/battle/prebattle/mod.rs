//! Before the battle: aggression, terrain, base edges, camps and deployment as typed transitions
//! (DBA3.md §3.7, §3.8, §4.6, §5).
//!
//! A [`Prebattle`] starts from two [`ArmyEntry`]s (name, aggression, home terrain, elements
//! without positions) and ends with a [`BattleSetup`] that passes [`super::validate`] and starts a
//! [`super::Battle`] with the defender's bound. It follows the conventions of the battle:
//! [`Prebattle::check`] is pure and returns the [`PrebattleEvent`]s an action would cause,
//! [`Prebattle::apply`] commits exactly those, a refusal names its rule and changes nothing,
//! [`Prebattle::awaiting`] says which die or choice is wanted, and a [`PrebattleRecord`] (set-up +
//! actions) replays identically. [`GameRecord`] joins the pre-battle and the battle that follows.
//!
//! The steps, one action each:
//! 1. [`PrebattleAction::RollAggression`]: a die per army plus its aggression; the lower total
//!    defends, a tie rolls again (§5.1).
//! 2. [`PrebattleAction::ChooseFeatures`]: the defender's compulsory and optional features from its
//!    home terrain (§3.7, checked by [`crate::terrain::check_home_terrain`]).
//! 3. For each feature, waterway first, then compulsory, then optional (§3.8):
//!    [`PrebattleAction::RollPlacement`] (1–4 that quarter; 5 the defender chooses, 6 the invader
//!    chooses with [`PrebattleAction::ChooseQuarter`]), then [`PrebattleAction::PlaceFeature`]
//!    (checked by [`crate::terrain::check_quarter_placement`] and
//!    [`crate::terrain::validate_terrain`]) or [`PrebattleAction::DiscardFeature`], accepted only
//!    when the referee's own search ([`placement::find_placement`]) finds no legal spot.
//! 4. [`PrebattleAction::ChooseBaseEdge`] by the invader (§5.2, §17.53, §17.56).
//! 5. Camps, defender first (§4.6, §5.3): [`PrebattleAction::PlaceCamp`] or, where a camp is
//!    optional, [`PrebattleAction::NoCamp`].
//! 6. Deployment, defender then invader (§5.3, §5.4): [`PrebattleAction::Deploy`] per element (a
//!    foot element wholly inside a friendly City or Fort is its garrison), then
//!    [`PrebattleAction::EndDeployment`].
//!
//! Big Battle and Giant (§14) take the same steps, with commands ([`ArmyEntry::commands`],
//! checked by the battle's own §14.1 rules): the board is the variant's ([`PrebattleSetup::board`],
//! Giant's depth by [`PrebattleSetup::depth_factor`]); the features are counted as §14.2 and
//! §14.6 say; the invader takes a long side; after the base edges each army declares its PIP
//! allocation ([`PrebattleAction::DeclarePipAllocation`], §14.4, §14.6); after the army's camp
//! each allied command pitches its own ([`Step::Camp`] with a `command`, §14.3); and deployment
//! goes by whole commands in turns ([`PrebattleAction::EndDeployment`] ends a turn): the
//! defender's first turn sets out one or more commands, and if it left any the sides then
//! alternate one command a turn, otherwise the invader sets out all of his (§14.3). Every
//! element not in a City, Fort or camp stands within 8 BW of its command's general. The quarters
//! of §3.8 on the wider boards are the four equal quarters of the whole board (a reading; see
//! `docs/rules/14-big-battle-and-giant.md`).
//!
//! The river's state and whether Plough turns rough are diced in the battle, when the rules say
//! (§3.5 at the first off-road crossing, §17.13 at the first PIP die), by the existing battle
//! actions.
//!
//! Readings where the digest is silent:
//! * quarters are numbered from [`placement::PLACEMENT_SEAT`] (the south edge): the defender lays
//!   out the table before anyone's base edge is known;
//! * every City and Fort belongs to the defender, who chose it from its home terrain: its camp is
//!   then optional (§4.6), it may garrison the City and must garrison the Fort (§4.3, §5.4), and the
//!   invader keeps 3 BW from them;
//! * the §3.7 need for a bad-going, rough-going, river or waterway feature is checked on the
//!   chosen types; a BUA counts only once placed (its kind, hence its going, is chosen then);
//! * a camp is in good going when it overlaps no area feature other than a gentle hill and no
//!   river (roads are allowed); it stands on its rear edge when it touches its base edge or the
//!   shore of a waterway lying along it;
//! * element ids are given by the army and its list position: army `a`'s element `i` is
//!   `a × 100 + i + 1`; deploying (or holding back) an element of the army not deploying now is
//!   refused citing §5.3 ([`PrebattleError::NotDeploying`]);
//! * an army is of 12 troop elements (§2.5; Big Battle and Giant armies are counted by their
//!   commands, §14.1), camp followers not among them (§2.6), unless the set-up records a
//!   scenario's own sizes ([`PrebattleSetup::free_army_size`]);
//! * if, after the last feature, the table has no bad-going, rough-going, river or waterway
//!   feature (every such feature chosen was discarded), the last one discarded that still fits in
//!   some quarter is placed again, in a quarter of the defender's choice (no die): §3.7 demands
//!   one, and §3.8 item 5 alone would leave the table illegal. If none fits anywhere the table
//!   stays without one and the battle's validation refuses it (not seen in the driver's sweeps);
//! * littoral landings (§5.5): during its deployment a Littoral army may hold back 2 or 3 elements
//!   ([`PrebattleAction::HoldBack`]) when a waterway is on the table; the battle's set-up names
//!   them in [`BattleSetup::held_back`] and they land in its first bound
//!   ([`super::Action::Land`]). The demonstration driver never holds elements back.

mod check;
mod commit;
mod deployment;
pub mod placement;
mod problems;
mod queries;

pub use problems::*;

use serde::{Deserialize, Serialize};

use crate::battlefield::{Battlefield, Board, BoardEdge, Quarter, Variant};
use crate::config::RulesConfig;
use crate::dice::DieScore;
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{ElementRect, Polygon, Pose, TOLERANCE};
use crate::terrain::{
    check_home_terrain, measure_rectangle, polygons_intersect, polyline_distance_to_polygon,
    AreaKind, FeatureType, Going, GoingContext, HomeTerrain, HomeTerrainProblem, TerrainFeature,
};
use crate::troops::{ElementKind, TroopType};

use super::bound::{Action, Battle, Event, ReplayError};
use super::commands::{CommandId, CommandSetup, PipAllocation};
use super::setup::{overlapping, ArmySetup, BattleSetup, ElementId, ElementSetup, SetupProblem};
use placement::{find_placement, placement_problems, FeatureProblem, BUA_KINDS};

/// An army entering the pre-battle: what its list gives (§16.2), with its chosen elements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ArmyEntry {
    /// The army's name, as messages and the narration give it.
    pub name: String,
    /// The list's aggression, 0 to 4 (§5.1, §16.2).
    pub aggression: u8,
    /// The list's home terrain, which decides the features the defender may choose (§3.7).
    pub home_terrain: HomeTerrain,
    /// The list allows a littoral landing (§5.5).
    #[serde(default)]
    pub littoral: bool,
    /// The army's elements (12 in a standard game), without positions: they are placed at
    /// deployment.
    pub elements: Vec<EntryElement>,
    /// Big Battle and Giant: the army's commands, each naming its elements by their positions
    /// in `elements` (§14.1). A standard army lists none. Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<EntryCommand>,
}

/// A command of an entering Big Battle or Giant army (§14.1): its general and its elements, by
/// their positions (from 0) in [`ArmyEntry::elements`]. The battle's set-up gives it the same
/// id, general and elements ([`CommandSetup`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct EntryCommand {
    /// The command's id, unique in its army.
    pub id: CommandId,
    /// The position of its general's element, which is one of `elements` and marked `general`.
    pub general: usize,
    /// The positions of its elements, the general's included.
    pub elements: Vec<usize>,
    /// An allied command: a whole army of its own list, with its own die and camp (§14.1,
    /// §14.3, §14.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allied: bool,
    /// The army's Commander-in-Chief commands it (exactly one non-allied command, §14.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub c_in_c: bool,
    /// An allied command whose own list gives Littoral home terrain, so that it may land from
    /// the sea (§14.3); a non-allied command goes by [`ArmyEntry::littoral`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub littoral: bool,
}

/// An element of an entering army: everything of [`ElementSetup`] but its id and pose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct EntryElement {
    /// What troops it is (§2).
    pub kind: ElementKind,
    /// The general's element (§2.5).
    #[serde(default)]
    pub general: bool,
    /// Allied contingent number, if the element belongs to one (§16.4).
    #[serde(default)]
    pub contingent: Option<u8>,
    /// For `X//Y` elements, the foot kind it may dismount into (§2.3, §7.9).
    #[serde(default)]
    pub dismounts_as: Option<ElementKind>,
    /// A War Wagon that is a mobile tower (§4.7, §8.4). Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mobile_tower: bool,
}

impl EntryElement {
    /// A plain element of `kind`.
    pub fn new(kind: ElementKind) -> Self {
        EntryElement {
            kind,
            general: false,
            contingent: None,
            dismounts_as: None,
            mobile_tower: false,
        }
    }
}

impl ArmyEntry {
    /// An army chosen from a bundled list (§16.2): its list's name and id, aggression, home
    /// terrain (the list's own, not its alternatives) and whether it may land from the sea.
    pub fn from_army(army: &crate::armies::Army) -> ArmyEntry {
        ArmyEntry {
            name: format!("{} ({})", army.name, army.list),
            aggression: army.aggression,
            home_terrain: army.home.terrain,
            littoral: army.home.littoral,
            elements: army
                .elements
                .iter()
                .map(|e| EntryElement {
                    kind: e.kind,
                    general: e.general,
                    contingent: e.contingent,
                    dismounts_as: e.dismounts_as,
                    mobile_tower: e.mobile_tower,
                })
                .collect(),
            commands: Vec::new(),
        }
    }

    /// A Big Battle or Giant army chosen from the lists ([`crate::armies::choose_big`]): its
    /// elements command by command, each command naming its own; an allied command is Littoral
    /// when its own list is.
    pub fn from_big_army(army: &crate::armies::BigArmy) -> ArmyEntry {
        let mut elements = Vec::new();
        let mut commands = Vec::new();
        for c in &army.commands {
            let start = elements.len();
            let mut general = start;
            for (i, e) in c.elements.iter().enumerate() {
                if e.general {
                    general = start + i;
                }
                elements.push(EntryElement {
                    kind: e.kind,
                    general: e.general,
                    contingent: e.contingent,
                    dismounts_as: e.dismounts_as,
                    mobile_tower: e.mobile_tower,
                });
            }
            let littoral = c
                .ally
                .as_ref()
                .and_then(crate::armies::list)
                .is_some_and(|l| l.home.littoral);
            commands.push(EntryCommand {
                id: c.id,
                general,
                elements: (start..elements.len()).collect(),
                allied: c.ally.is_some(),
                c_in_c: c.c_in_c,
                littoral,
            });
        }
        ArmyEntry {
            name: format!("{} ({})", army.name, army.list),
            aggression: army.aggression,
            home_terrain: army.home.terrain,
            littoral: army.home.littoral,
            elements,
            commands,
        }
    }

    /// The command that element `index` belongs to, if the army lists commands.
    pub fn command_of(&self, index: usize) -> Option<&EntryCommand> {
        self.commands.iter().find(|c| c.elements.contains(&index))
    }
}

/// Why a pre-battle could not be set up from list ids.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ListsError {
    /// The list id is not written as `II/56` or `II/56a`.
    #[error(transparent)]
    ListId(#[from] crate::armies::ParseListIdError),
    /// The list is not bundled, or no army of 12 could be chosen from it.
    #[error(transparent)]
    Army(#[from] crate::armies::ArmyError),
    /// A Big Battle or Giant army that breaks §14.1.
    #[error(transparent)]
    BigArmy(#[from] crate::armies::BigArmyError),
    /// Text that names no one army list.
    #[error(transparent)]
    Lookup(#[from] crate::armies::ListLookupError),
}

impl ErrorInfo for ListsError {
    fn code(&self) -> ErrorCode {
        match self {
            ListsError::ListId(e) => e.code(),
            ListsError::Army(e) => e.code(),
            ListsError::BigArmy(e) => e.code(),
            ListsError::Lookup(e) => e.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            ListsError::ListId(e) => e.rule(),
            ListsError::Army(e) => e.rule(),
            ListsError::BigArmy(e) => e.rule(),
            ListsError::Lookup(e) => e.rule(),
        }
    }
}

fn default_side() -> f64 {
    Board::DEFAULT_SIDE
}

/// Everything the pre-battle starts from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct PrebattleSetup {
    /// Which game: standard DBA 3.0, Big Battle or Giant (whose armies list their commands);
    /// DBAix is refused ([`EntryProblem::Variant`]): it has its own set-up.
    pub variant: Variant,
    /// The rules configuration: the house rules and readings in force.
    #[serde(default)]
    pub config: RulesConfig,
    /// The board's side in BW (15 to 20, §1.2): the depth of a Big Battle board, a third of a
    /// Giant board's width.
    #[serde(default = "default_side")]
    pub board_side: f64,
    /// Giant only: the board's depth as a multiple of `board_side`, 1 to 1.5 (§1.2, §14.6: "the
    /// depth can optionally be increased by up to half"), agreed before the pre-battle like the
    /// side; 1 (omitted from JSON) for every other game. 45 × 22.5 BW is `board_side` 15 with
    /// `depth_factor` 1.5.
    #[serde(default = "default_depth_factor", skip_serializing_if = "is_one")]
    pub depth_factor: f64,
    /// The two armies, in the order their aggression dice are given.
    pub armies: Vec<ArmyEntry>,
    /// A scenario's own army sizes ([`BattleSetup::free_army_size`]): the armies' numbers of
    /// troop elements are not checked (12, §2.5; 36 or 12 a general, §14.1, §14.6), only that
    /// each has 1 to [`MAX_ENTRY_ELEMENTS`]. Recorded in the battle's set-up. Omitted from JSON
    /// when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_army_size: bool,
}

fn default_depth_factor() -> f64 {
    1.0
}

fn is_one(x: &f64) -> bool {
    *x == 1.0
}

impl PrebattleSetup {
    /// A standard game on the default board.
    pub fn new(armies: Vec<ArmyEntry>) -> Self {
        PrebattleSetup {
            variant: Variant::Standard,
            config: RulesConfig::default(),
            board_side: Board::DEFAULT_SIDE,
            depth_factor: 1.0,
            armies,
            free_army_size: false,
        }
    }

    /// The board this set-up asks for: the variant's shape from `board_side` (and, in Giant,
    /// `depth_factor`), §1.2, §14.2, §14.6.
    pub fn board(&self) -> Result<Board, crate::battlefield::BoardError> {
        match self.variant {
            Variant::Giant => Board::giant(self.board_side, self.depth_factor),
            v => Board::for_variant(v, self.board_side),
        }
    }

    /// A Big Battle or Giant game between the default armies of two bundled lists named by id
    /// (`"II/56"`): three commands each, every command its list's default army, the first the
    /// C-in-C's ([`crate::armies::default_big_choice`], checked by [`crate::armies::choose_big`]).
    pub fn from_big_lists(
        variant: Variant,
        first: &str,
        second: &str,
    ) -> Result<PrebattleSetup, ListsError> {
        let entry = |id: &str| -> Result<ArmyEntry, ListsError> {
            let id = crate::armies::lookup(id)?;
            let list = crate::armies::list(&id).ok_or(crate::armies::ArmyError::UnknownList(id))?;
            let army = crate::armies::choose_big(&crate::armies::default_big_choice(
                list,
                variant,
                super::commands::BIG_BATTLE_COMMANDS,
            ))?;
            Ok(ArmyEntry::from_big_army(&army))
        };
        let mut s = PrebattleSetup::new(vec![entry(first)?, entry(second)?]);
        s.variant = variant;
        Ok(s)
    }
}

impl PrebattleSetup {
    /// A standard game between the default armies ([`crate::armies::default_army`]) of two
    /// bundled lists, named by id (`"II/56"`) or by name ([`crate::armies::lookup`]).
    pub fn from_lists(first: &str, second: &str) -> Result<PrebattleSetup, ListsError> {
        let entry = |id: &str| -> Result<ArmyEntry, ListsError> {
            let id = crate::armies::lookup(id)?;
            Ok(ArmyEntry::from_army(&crate::armies::default_army(&id)?))
        };
        Ok(PrebattleSetup::new(vec![entry(first)?, entry(second)?]))
    }
}

impl PrebattleSetup {
    /// A Big Battle or Giant game, whose armies are in commands (§14).
    pub fn is_by_command(&self) -> bool {
        matches!(self.variant, Variant::BigBattle | Variant::Giant)
    }
}

/// The command problems of §14.1 of the entering armies, as the battle's set-up check finds
/// them: the armies with their ids, no poses (the set-up check's deployment tests are skipped)
/// and a provisional ranking in command order (declared only later, §14.4).
fn entry_command_problems(setup: &PrebattleSetup) -> Vec<SetupProblem> {
    let multi = setup.is_by_command();
    let armies = setup
        .armies
        .iter()
        .enumerate()
        .map(|(a, entry)| ArmySetup {
            name: entry.name.clone(),
            base_edge: BoardEdge::South,
            elements: entry
                .elements
                .iter()
                .enumerate()
                .map(|(i, e)| ElementSetup {
                    id: element_id(a, i),
                    kind: e.kind,
                    pose: Pose::new(0.0, 0.0, 0.0),
                    general: e.general,
                    contingent: e.contingent,
                    dismounts_as: e.dismounts_as,
                    mobile_tower: e.mobile_tower,
                })
                .collect(),
            camp: None,
            camp_followers: false,
            commands: entry_commands(a, entry, &[]),
            pip_allocation: multi.then(|| PipAllocation::Ranked {
                order: entry
                    .commands
                    .iter()
                    .filter(|c| !c.allied)
                    .map(|c| c.id)
                    .collect(),
            }),
        })
        .collect();
    let mut s = BattleSetup::new(setup.variant, Battlefield::default(), armies);
    s.sandbox = true;
    s.free_army_size = setup.free_army_size;
    let mut v = Vec::new();
    super::setup::command_setup::command_problems(&s, &mut v);
    v
}

/// Army `a`'s commands as the battle's set-up lists them, with the allied commands' own camps
/// from `camps` (army, command, outline, camp followers).
fn entry_commands(
    a: usize,
    entry: &ArmyEntry,
    camps: &[(usize, CommandId, Polygon, bool)],
) -> Vec<CommandSetup> {
    entry
        .commands
        .iter()
        .map(|c| {
            let camp = camps.iter().find(|k| k.0 == a && k.1 == c.id);
            CommandSetup {
                id: c.id,
                general: element_id(a, c.general),
                elements: c.elements.iter().map(|&i| element_id(a, i)).collect(),
                allied: c.allied,
                c_in_c: c.c_in_c,
                camp: camp.map(|k| k.2.clone()),
                camp_followers: camp.is_some_and(|k| k.3),
            }
        })
        .collect()
}

/// The id army `army`'s element at list position `index` gets.
pub fn element_id(army: usize, index: usize) -> ElementId {
    ElementId(army as u32 * 100 + index as u32 + 1)
}

/// Most elements an entering army may have (ids are `army × 100 + position`).
pub const MAX_ENTRY_ELEMENTS: usize = 99;

/// Where the pre-battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "step")]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// Both aggression dice are wanted (§5.1).
    Aggression,
    /// The defender chooses its features (§3.7).
    ChooseFeatures {
        /// The defending army.
        defender: usize,
    },
    /// The placement die of feature `feature` (index into [`Prebattle::features`], §3.8).
    PlacementDie {
        /// The feature's index into [`Prebattle::features`].
        feature: usize,
    },
    /// Army `by` chooses the quarter (die 5: defender, 6: invader, §3.8).
    ChooseQuarter {
        /// The feature's index into [`Prebattle::features`].
        feature: usize,
        /// The army that chooses.
        by: usize,
    },
    /// The defender places the feature in `quarter` or discards it (§3.8).
    PlaceFeature {
        /// The feature's index into [`Prebattle::features`].
        feature: usize,
        /// The quarter it goes in, 1 to 4.
        quarter: Quarter,
    },
    /// The invader chooses its base edge (§5.2).
    BaseEdge {
        /// The invading army.
        invader: usize,
    },
    /// Big Battle and Giant: army `army` declares how its PIP dice go to its commands, after
    /// terrain and base edges (§14.4, §14.6).
    PipAllocation {
        /// The army declaring.
        army: usize,
    },
    /// Army `army` places its camp (§4.6), or in Big Battle and Giant the own camp of its
    /// allied command `command` (§14.3).
    Camp {
        /// The army placing its camp.
        army: usize,
        /// The allied command whose own camp it is; `None` for the army's camp.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
    },
    /// Army `army` deploys (§5.3, §5.4).
    Deployment {
        /// The army deploying.
        army: usize,
    },
    /// The battle may begin.
    Done,
}

/// The step in a player's words: "the aggression dice (§5.1)", "army 1's deployment (§5.3)".
impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Aggression => f.write_str("the aggression dice (§5.1)"),
            Step::ChooseFeatures { defender } => {
                write!(f, "army {defender}'s choice of features as defender (§3.7)")
            }
            Step::PlacementDie { feature } => {
                write!(f, "the placement die of feature {feature} (§3.8)")
            }
            Step::ChooseQuarter { feature, by } => {
                write!(f, "army {by}'s choice of quarter for feature {feature} (§3.8)")
            }
            Step::PlaceFeature { feature, quarter } => write!(
                f,
                "the defender placing feature {feature} in quarter {quarter}, or discarding it (§3.8)"
            ),
            Step::BaseEdge { invader } => {
                write!(f, "army {invader}'s choice of base edge as invader (§5.2)")
            }
            Step::PipAllocation { army } => {
                write!(f, "army {army}'s declaration of its PIP dice (§14.4)")
            }
            Step::Camp {
                army,
                command: None,
            } => write!(f, "army {army}'s camp (§4.6)"),
            Step::Camp {
                army,
                command: Some(c),
            } => write!(f, "army {army}'s camp of its allied {c} (§14.3)"),
            Step::Deployment { army } => write!(f, "army {army}'s deployment (§5.3, §5.4)"),
            Step::Done => f.write_str("nothing more: the battle may begin"),
        }
    }
}

/// What a player does before the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "action")]
#[serde(deny_unknown_fields)]
pub enum PrebattleAction {
    /// One die per army, in army order (§5.1).
    RollAggression {
        /// One aggression die per army, in army order.
        dice: Vec<DieScore>,
    },
    /// The defender's features (§3.7).
    ChooseFeatures {
        /// The features the defender must lay (for example a waterway its home terrain requires).
        compulsory: Vec<FeatureType>,
        /// The optional features it also lays.
        optional: Vec<FeatureType>,
    },
    /// The placement die of the next feature (§3.8).
    RollPlacement {
        /// The score of the placement die.
        die: DieScore,
    },
    /// The quarter chosen after a 5 or a 6 (§3.8).
    ChooseQuarter {
        /// The quarter, 1 to 4.
        quarter: Quarter,
    },
    /// The feature as laid on the table (§3.8).
    PlaceFeature {
        /// The feature's shape and position, BW.
        feature: TerrainFeature,
    },
    /// The feature cannot legally be placed in its quarter and is discarded (§3.8 item 5).
    DiscardFeature,
    /// The invader's base edge; the defender's is the opposite one (§5.2).
    ChooseBaseEdge {
        /// The invader's base edge.
        edge: BoardEdge,
    },
    /// Big Battle and Giant: how the army's PIP dice go to its commands (§14.4, §14.6): the
    /// ranking of its non-allied commands, or in Giant every general rolling his own.
    DeclarePipAllocation {
        /// The declaration.
        allocation: PipAllocation,
    },
    /// The moving army's camp (§4.6), or its allied command's own camp (§14.3), defended by
    /// camp followers or not.
    PlaceCamp {
        /// The camp's outline, BW.
        outline: Polygon,
        /// The camp is defended by camp followers (§4.6).
        #[serde(default)]
        camp_followers: bool,
    },
    /// No camp: allowed only where it is optional (§4.6).
    NoCamp,
    /// One element placed (§5.4).
    Deploy {
        /// The element placed.
        id: ElementId,
        /// Where it stands: front-edge midpoint in BW, and facing in degrees clockwise from +y.
        pose: Pose,
    },
    /// Hold one element back for a littoral landing in the army's first bound (§5.5): only for
    /// an army whose list gives Littoral home terrain, with a waterway on the table; 2 or 3
    /// elements, none El, WWg or Art.
    HoldBack {
        /// The element held back.
        id: ElementId,
    },
    /// The army has deployed every element (§5.3). In Big Battle and Giant it ends the army's
    /// turn of deployment: every command it began is then whole (§14.3).
    EndDeployment,
}

/// What happened before the battle. Events carry everything needed to update the state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
#[serde(deny_unknown_fields)]
pub enum PrebattleEvent {
    /// The aggression dice and each army's total (§5.1).
    AggressionRolled {
        /// The dice, in army order.
        dice: Vec<DieScore>,
        /// Each army's aggression plus its die.
        totals: Vec<u8>,
    },
    /// Equal totals: roll again (§5.1).
    AggressionTied,
    /// Who defends and who invades (§5.1).
    RolesDecided {
        /// The defending army: the lower total.
        defender: usize,
        /// The invading army.
        invader: usize,
    },
    /// The features, in the order they will be placed (§3.8: waterway first).
    FeaturesChosen {
        /// The feature types in placing order.
        order: Vec<FeatureType>,
    },
    /// A placement die: the quarter, or who chooses it (§3.8).
    PlacementRolled {
        /// The feature this die is for.
        feature: FeatureType,
        /// The placement die.
        die: DieScore,
        /// The quarter the die gives, or `None` when an army must choose (5 or 6).
        quarter: Option<Quarter>,
        /// The army that chooses the quarter, on a 5 or 6.
        chooser: Option<usize>,
    },
    /// The quarter chosen after a 5 or 6 (§3.8).
    QuarterChosen {
        /// The army that chose.
        by: usize,
        /// The quarter chosen, 1 to 4.
        quarter: Quarter,
    },
    /// A feature is on the table as battlefield feature `index` (§3.8).
    FeaturePlaced {
        /// Its index among the battlefield's features.
        index: usize,
        /// The quarter it was placed in.
        quarter: Quarter,
        /// Its shape and position, BW.
        feature: TerrainFeature,
    },
    /// A feature could not legally go in its quarter and is discarded (§3.8).
    FeatureDiscarded {
        /// The feature's type.
        feature: FeatureType,
        /// The quarter it could not go in.
        quarter: Quarter,
    },
    /// The placing left the table without a bad-going, rough-going, river or waterway feature
    /// (§3.7), so the last such feature discarded that still fits somewhere is placed again, in
    /// a quarter the defender chooses (see the module docs).
    PlacementRepeated {
        /// The feature placed again.
        feature: FeatureType,
    },
    /// The base edges (§5.2).
    BaseEdgesChosen {
        /// The invader's base edge.
        invader: BoardEdge,
        /// The defender's base edge, the opposite one.
        defender: BoardEdge,
    },
    /// How an army's PIP dice go to its commands (§14.4, §14.6).
    PipAllocationDeclared {
        /// The army declaring.
        army: usize,
        /// Its declaration.
        allocation: PipAllocation,
    },
    /// A camp (§4.6).
    CampPlaced {
        /// The army whose camp it is.
        army: usize,
        /// The allied command whose own camp it is (§14.3); `None` for the army's camp.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
        /// The camp's outline, BW.
        outline: Polygon,
        /// The camp is defended by camp followers.
        camp_followers: bool,
    },
    /// An army goes without its optional camp (§4.6).
    CampOmitted {
        /// The army without a camp.
        army: usize,
        /// The allied command going without its own camp (§14.3); `None` for the army's camp.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
    },
    /// An element is deployed; `garrison` names the City or Fort it garrisons (§4.2, §5.4).
    ElementDeployed {
        /// The army deploying.
        army: usize,
        /// The element deployed.
        id: ElementId,
        /// Where it stands: front-edge midpoint in BW, and facing in degrees clockwise from +y.
        pose: Pose,
        /// The City or Fort it garrisons, as an index among the battlefield's features.
        garrison: Option<usize>,
    },
    /// An element is held back for a littoral landing (§5.5).
    ElementHeldBack {
        /// The army holding it back.
        army: usize,
        /// The element held back.
        id: ElementId,
    },
    /// Big Battle and Giant: an army's turn of deployment set out these whole commands (§14.3).
    CommandsDeployed {
        /// The army deploying.
        army: usize,
        /// The commands it set out this turn.
        commands: Vec<CommandId>,
    },
    /// An army has deployed (§5.3).
    DeploymentEnded {
        /// The army that has deployed.
        army: usize,
    },
    /// Everything is ready: the first bound is army `first`'s, the defender's (§5.3).
    BattleReady {
        /// The army that takes the first bound.
        first: usize,
    },
}

/// The dice or choice the pre-battle waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "for")]
#[serde(deny_unknown_fields)]
pub enum PrebattleRequest {
    /// One aggression die per army ([`PrebattleAction::RollAggression`]).
    AggressionDice {
        /// How many dice: one per army.
        armies: usize,
    },
    /// The defender's features from its home terrain ([`PrebattleAction::ChooseFeatures`]).
    Features {
        /// The defending army.
        army: usize,
        /// Its home terrain, which decides the features it may choose (§3.7).
        home_terrain: HomeTerrain,
    },
    /// The placement die of the next feature ([`PrebattleAction::RollPlacement`]).
    PlacementDie {
        /// The feature's type.
        feature: FeatureType,
    },
    /// Army `army` chooses the feature's quarter ([`PrebattleAction::ChooseQuarter`]).
    Quarter {
        /// The army that chooses.
        army: usize,
        /// The feature's type.
        feature: FeatureType,
    },
    /// The defender places the feature or discards it.
    Placement {
        /// The defending army, which places it.
        army: usize,
        /// The feature's type.
        feature: FeatureType,
        /// The quarter it must go in, 1 to 4.
        quarter: Quarter,
    },
    /// The invader's base edge, one of `allowed`.
    BaseEdge {
        /// The invading army.
        army: usize,
        /// The edges it may take.
        allowed: Vec<BoardEdge>,
    },
    /// Army `army` declares how its PIP dice go to its commands
    /// ([`PrebattleAction::DeclarePipAllocation`], §14.4, §14.6).
    PipAllocation {
        /// The army declaring.
        army: usize,
        /// Its non-allied commands, which the ranking must name once each.
        ranked: Vec<CommandId>,
        /// Every general may instead roll his own die (Giant, §14.6).
        each_rolls_allowed: bool,
    },
    /// Army `army`'s camp; `compulsory` says whether [`PrebattleAction::NoCamp`] is refused.
    Camp {
        /// The army placing its camp.
        army: usize,
        /// The allied command whose own camp it is (§14.3); `None` for the army's camp.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
        /// The army must have a camp (no City and at most 2 War Wagons).
        compulsory: bool,
    },
    /// Army `army` deploys `remaining`, then ends its deployment.
    Deployment {
        /// The army deploying.
        army: usize,
        /// Its elements still to place.
        remaining: Vec<ElementId>,
    },
}

/// The pre-battle in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prebattle {
    setup: PrebattleSetup,
    step: Step,
    actions: Vec<PrebattleAction>,
    defender: Option<usize>,
    features: Vec<FeatureType>,
    /// Features discarded so far, in order (§3.8).
    #[serde(default)]
    discarded: Vec<FeatureType>,
    battlefield: Battlefield,
    base_edges: Vec<Option<BoardEdge>>,
    camps: Vec<Option<Polygon>>,
    camp_followers: Vec<bool>,
    /// Each army's elements' poses once deployed, in list order.
    poses: Vec<Vec<Option<Pose>>>,
    /// Battlefield feature garrisoned by each element, if any.
    garrisons: Vec<(ElementId, usize)>,
    /// Elements held back for a littoral landing (§5.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    held_back: Vec<ElementId>,
    /// Big Battle and Giant: each army's declared PIP allocation (§14.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pip_allocations: Vec<Option<PipAllocation>>,
    /// Big Battle and Giant: the allied commands' own camps (army, command, outline, camp
    /// followers), in the order placed (§14.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    command_camps: Vec<(usize, CommandId, Polygon, bool)>,
    /// Big Battle and Giant: each army's commands set out so far, in order (§14.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    deployed_commands: Vec<Vec<CommandId>>,
    /// Big Battle and Giant: the defender's first turn left commands to place, so the sides
    /// alternate one command each (§14.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    alternate: bool,
}

fn difficult(t: FeatureType) -> bool {
    !matches!(
        t,
        FeatureType::GentleHill | FeatureType::Plough | FeatureType::Road | FeatureType::Bua
    )
}

fn action_name(a: &PrebattleAction) -> String {
    let s = serde_json::to_value(a).ok();
    s.and_then(|v| v.get("action").and_then(|n| n.as_str()).map(str::to_string))
        .unwrap_or_else(|| "action".into())
}

/// The least distance from a side edge at which `kind` deploys (§5.4, §17.45): 2 BW for Cv, LH,
/// Ax and Ps (LCh and LCm by their types), 4 BW for every other kind, mounted infantry included.
pub fn side_edge_limit(kind: ElementKind) -> f64 {
    let light = matches!(
        kind.troop_type(),
        TroopType::Cv | TroopType::LH | TroopType::Ax | TroopType::Ps
    );
    if light && !kind.is_mounted_infantry() {
        2.0
    } else {
        4.0
    }
}

/// One line of plain English for a pre-battle event, naming armies by their names in `setup`,
/// each verb agreeing with its army ("the Romans defend", "Ancient British Army (II/53)
/// defends") and features by their game names.
pub fn describe(setup: &PrebattleSetup, e: &PrebattleEvent) -> String {
    use crate::battle::narrate::{name_does, name_of_whom};
    let name = |a: usize| {
        setup
            .armies
            .get(a)
            .map_or_else(|| format!("army {a}"), |x| x.name.clone())
    };
    let does = |a: usize, singular: &str, plural: &str| name_does(&name(a), singular, plural);
    let sentence = |s: String| {
        let mut c = s.chars();
        match c.next() {
            Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
            None => s,
        }
    };
    let line = match e {
        PrebattleEvent::AggressionRolled { dice, totals } => {
            let parts: Vec<String> = dice
                .iter()
                .zip(totals)
                .enumerate()
                .map(|(a, (d, t))| format!("{} {d} (total {t})", does(a, "rolls", "roll")))
                .collect();
            format!("Aggression: {}", parts.join(", "))
        }
        PrebattleEvent::AggressionTied => "Equal totals: both roll again".to_string(),
        PrebattleEvent::RolesDecided { defender, invader } => format!(
            "{}, {}",
            does(*defender, "defends", "defend"),
            does(*invader, "invades", "invade")
        ),
        PrebattleEvent::FeaturesChosen { order } => format!(
            "The defender chooses, in placing order: {}",
            crate::terrain::listed(order)
        ),
        PrebattleEvent::PlacementRolled {
            feature,
            die,
            quarter,
            chooser,
        } => match (quarter, chooser) {
            (Some(q), _) => format!("the {feature}: placement die {die}, quarter {q}"),
            (None, Some(c)) => format!(
                "the {feature}: placement die {die}, {} the quarter",
                does(*c, "chooses", "choose")
            ),
            (None, None) => format!("the {feature}: placement die {die}"),
        },
        PrebattleEvent::QuarterChosen { by, quarter } => {
            format!("{} quarter {quarter}", does(*by, "chooses", "choose"))
        }
        PrebattleEvent::FeaturePlaced {
            feature, quarter, ..
        } => format!(
            "the {} is placed in quarter {quarter}",
            feature.feature_type()
        ),
        PrebattleEvent::FeatureDiscarded { feature, quarter } => {
            format!("the {feature} cannot go in quarter {quarter}: discarded")
        }
        PrebattleEvent::PlacementRepeated { feature } => {
            format!("The table still needs difficult terrain: the {feature} is placed again, in a quarter the defender chooses")
        }
        PrebattleEvent::BaseEdgesChosen { invader, defender } => {
            format!("The invader takes the {invader} edge, the defender the {defender} edge")
        }
        PrebattleEvent::PipAllocationDeclared { army, .. } => format!(
            "{} down how its PIP dice go to its commands",
            does(*army, "writes", "write")
        ),
        PrebattleEvent::CampPlaced {
            army,
            command,
            camp_followers,
            ..
        } => format!(
            "{} {}camp{}",
            does(*army, "pitches", "pitch"),
            match command {
                Some(c) => format!("the own camp of its allied {c}: a "),
                None => String::new(),
            },
            if *camp_followers {
                ", defended by camp followers"
            } else {
                ""
            }
        ),
        PrebattleEvent::CampOmitted {
            army,
            command: None,
        } => {
            format!("{} without a camp", does(*army, "goes", "go"))
        }
        PrebattleEvent::CampOmitted {
            army,
            command: Some(c),
        } => format!(
            "{} allied {c} without a camp of its own",
            does(*army, "leaves its", "leave their")
        ),
        PrebattleEvent::CommandsDeployed { army, commands } => format!(
            "{} out {}",
            does(*army, "sets", "set"),
            crate::terrain::listed(commands)
        ),
        PrebattleEvent::ElementDeployed {
            army,
            id,
            garrison: Some(f),
            ..
        } => format!(
            "{} feature {f} with element {id}",
            does(*army, "garrisons", "garrison")
        ),
        PrebattleEvent::ElementDeployed { .. } => String::new(),
        PrebattleEvent::DeploymentEnded { army } => {
            format!("{} deployed", does(*army, "has", "have"))
        }
        PrebattleEvent::ElementHeldBack { army, id } => format!(
            "{} element {id} back to land from the sea",
            does(*army, "holds", "hold")
        ),
        PrebattleEvent::BattleReady { first } => {
            format!(
                "The battle begins with {} bound",
                name_of_whom(&name(*first))
            )
        }
    };
    sentence(line)
}
