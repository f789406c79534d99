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

pub mod placement;

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
    super::commands::command_problems(&s, &mut v);
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

/// One problem of an element's deployment, naming its rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "problem")]
#[serde(deny_unknown_fields)]
pub enum DeploymentProblem {
    /// The element is not wholly on the battlefield (§1.2).
    #[error("§1.2: element {id} is not wholly on the battlefield")]
    OffTable {
        /// The element.
        id: ElementId,
    },
    /// The element stands in the waterway (§3.4).
    #[error("§3.4: element {id} stands in the waterway")]
    Impassable {
        /// The element.
        id: ElementId,
    },
    /// The element overlaps another.
    #[error("§5.4: element {id} overlaps element {other}")]
    Overlap {
        /// The element placed.
        id: ElementId,
        /// The element it overlaps.
        other: ElementId,
    },
    /// The element is less than 3 BW from the centre line on its own side (§5.4).
    #[error("§5.4: element {id} is {distance:.3} BW from the centre line; at least 3 BW on its own side are needed")]
    CentreLine {
        /// The element.
        id: ElementId,
        /// How far from the centre line it is, BW.
        distance: f64,
    },
    /// The element is too close to a side edge for its kind (§5.4).
    #[error(
        "§5.4: element {id} ({kind}) is {distance:.3} BW from a side edge; it needs {limit} BW"
    )]
    SideEdge {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
        /// How far from the side edge it is, BW.
        distance: f64,
        /// The least distance its kind needs, BW.
        limit: f64,
    },
    /// The element is less than 3 BW from an enemy City or Fort (§5.4).
    #[error("§5.4: element {id} is {distance:.3} BW from the enemy City or Fort {feature}; at least 3 BW are needed")]
    EnemyStronghold {
        /// The element.
        id: ElementId,
        /// The City's or Fort's index among the battlefield's features.
        feature: usize,
        /// How far from it the element is, BW.
        distance: f64,
    },
    /// An element of a kind that may not deploy in bad going stands in it off a road (§5.4).
    #[error("§5.4: {kind} element {id} may not deploy off-road in bad going")]
    BadGoing {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
    },
    /// The element is partly inside a City or Fort (§4.2, §5.4).
    #[error("§4.2, §5.4: element {id} is partly inside City or Fort {feature}; only its garrison deploys there, wholly inside")]
    InWalls {
        /// The element.
        id: ElementId,
        /// The City's or Fort's index among the battlefield's features.
        feature: usize,
    },
    /// The element may not garrison the City or Fort it stands in (§4.2, §5.4).
    #[error("§4.2, §5.4: element {id} ({kind}) cannot garrison {feature}: a garrison is one non-allied foot element of the army owning it")]
    NotAGarrison {
        /// The element.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
        /// The City's or Fort's index among the battlefield's features.
        feature: usize,
    },
    /// The City or Fort has its garrison already (§4.2).
    #[error("§4.2: City or Fort {feature} already has its garrison")]
    Garrisoned {
        /// Its index among the battlefield's features.
        feature: usize,
    },
    /// Big Battle and Giant: the element is more than 8 BW from its own command's general, and
    /// neither is in a City, Fort or camp (§14.3).
    #[error("§14.3: element {id} is {distance:.3} BW from element {other}; an element not in a City, Fort or camp deploys within 8 BW of its own command's general")]
    FarFromGeneral {
        /// The element placed.
        id: ElementId,
        /// The element of its command it is too far from: its general, or (when the general is
        /// the one placed) the element that stands too far from him.
        other: ElementId,
        /// How far apart they stand, BW.
        distance: f64,
    },
}

/// A problem of the armies the pre-battle starts from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "problem")]
#[serde(deny_unknown_fields)]
pub enum EntryProblem {
    /// The pre-battle is not between two armies (§5.1).
    #[error("§5.1: the pre-battle is played by two armies, not {count}")]
    ArmyCount {
        /// Armies given.
        count: usize,
    },
    /// An army's aggression is outside 0 to 4 (§5.1, §16.2).
    #[error("§5.1, §16.2: army `{army}` has aggression {aggression}; lists give 0 to 4")]
    Aggression {
        /// The army's name.
        army: String,
        /// The aggression given.
        aggression: u8,
    },
    /// An army of a scenario's own size ([`PrebattleSetup::free_army_size`]) has no elements,
    /// or more than [`MAX_ENTRY_ELEMENTS`]: even such an army has its general's element (§2.5).
    #[error("§2.5: army `{army}` has {count} elements; it needs 1 to {MAX_ENTRY_ELEMENTS}")]
    ElementCount {
        /// The army's name.
        army: String,
        /// Elements given.
        count: usize,
    },
    /// A standard army has not 12 troop elements (§2.5), and the pre-battle does not choose its
    /// own army sizes ([`PrebattleSetup::free_army_size`]). Big Battle and Giant armies are
    /// counted with their commands ([`EntryProblem::Commands`], §14.1).
    #[error("§2.5: army `{army}` has {count} troop elements; a DBA army has 12 (a scenario with other numbers sets `free_army_size`)")]
    ArmySize {
        /// The army's name.
        army: String,
        /// Troop elements given (camp followers are not troop elements, §2.6).
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
    /// The board's side is outside 15 to 20 BW (§1.2).
    #[error("§1.2: the board's side is {side} BW; it must be 15 to 20")]
    BoardSide {
        /// The side given, BW.
        side: f64,
    },
    /// The variant has no DBA pre-battle: DBAix has its own set-up (§14.3 names the variants
    /// that do: standard, Big Battle and Giant).
    #[error("§14.3: {variant} games have no DBA pre-battle; start them from their own set-up")]
    Variant {
        /// The variant asked for.
        variant: Variant,
    },
    /// The rules configuration is not usable (a value out of range): it holds the readings and
    /// open numbers of §17.
    #[error("§17: the rules configuration cannot be used: {message}")]
    Config {
        /// What is wrong.
        message: String,
    },
    /// A Giant board's depth factor outside 1 to 1.5, or any other variant's not 1 (§1.2,
    /// §14.6).
    #[error("§14.6: a depth factor of {factor} is refused: a Giant board may be 1 to 1.5 times as deep as its side, every other board exactly as deep")]
    DepthFactor {
        /// The factor given.
        factor: f64,
    },
    /// A command names an element position the army does not have (§14.1).
    #[error("§14.1: army `{army}`'s {command} names element position {index}; the army has {count} elements")]
    CommandElement {
        /// The army's name.
        army: String,
        /// The command.
        command: CommandId,
        /// The position named.
        index: usize,
        /// Elements the army has.
        count: usize,
    },
    /// The army's commands break §14.1 (or a standard army lists commands): every problem, as
    /// the battle's set-up check words it.
    #[error("{}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
    Commands {
        /// Every problem, at once.
        problems: Vec<SetupProblem>,
    },
}

impl EntryProblem {
    /// The section the problem names, as its message leads with it.
    pub fn section(&self) -> &'static str {
        use EntryProblem::*;
        match self {
            ArmyCount { .. } | Aggression { .. } => "§5.1",
            ElementCount { .. } | ArmySize { .. } | Generals { .. } => "§2.5",
            BoardSide { .. } => "§1.2",
            Variant { .. } => "§14.3",
            // The configuration holds the readings and open numbers of §17.
            Config { .. } => "§17",
            DepthFactor { .. } => "§14.6",
            CommandElement { .. } => "§14.1",
            Commands { problems } => problems
                .first()
                .and_then(|p| p.rule_ref())
                .and_then(super::setup::set_up_section)
                .unwrap_or("§14.1"),
        }
    }
}

/// A refused pre-battle action: the rule that forbids it. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum PrebattleError {
    /// The armies cannot start a pre-battle.
    #[error("the pre-battle cannot start: {}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
    Entries {
        /// Every problem, at once.
        problems: Vec<EntryProblem>,
    },
    /// The action is not the one the pre-battle waits for (§5.3).
    #[error("§5.3: {action} is not possible now: the pre-battle awaits {step}")]
    WrongStep {
        /// The action refused, as a player names it.
        action: String,
        /// What the pre-battle waits for.
        step: Step,
    },
    /// Not one aggression die per army (§5.1).
    #[error("§5.1: {given} aggression dice given; one per army ({armies}) is needed")]
    DiceCount {
        /// Dice given.
        given: usize,
        /// Armies in the pre-battle.
        armies: usize,
    },
    /// The features chosen do not suit the defender's home terrain (§3.7).
    #[error("§3.7: {}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
    HomeTerrain {
        /// Every problem, at once.
        problems: Vec<HomeTerrainProblem>,
    },
    /// No feature of bad or rough going, river or waterway is among those chosen (§3.7).
    #[error("§3.7: the table needs at least one bad-going, rough-going, river or waterway feature among those chosen ({})", crate::terrain::listed(.chosen))]
    NoDifficultTerrain {
        /// The features chosen.
        chosen: Vec<FeatureType>,
    },
    /// A quarter number outside 1 to 4 (§3.8).
    #[error("§3.8: quarter {quarter} does not exist (quarters are 1 to 4)")]
    NoSuchQuarter {
        /// The quarter given.
        quarter: Quarter,
    },
    /// The feature placed is not of the type the pre-battle waits for (§3.8).
    #[error("§3.8: the feature to place is the {expected}, not the {given}")]
    WrongFeature {
        /// The type expected.
        expected: FeatureType,
        /// The type given.
        given: FeatureType,
    },
    /// The feature may not be laid where it was put (§3.8, §3.1 to §3.6).
    #[error("{}", problems.iter().map(|p| p.message.clone()).collect::<Vec<_>>().join("; "))]
    Placement {
        /// Every problem, each with its rule.
        problems: Vec<FeatureProblem>,
    },
    /// A discard was asked for a feature that still fits its quarter (§3.8).
    #[error("§3.8: the {feature} can still be placed legally in quarter {quarter}, so it is not discarded")]
    CanBePlaced {
        /// The feature's type.
        feature: FeatureType,
        /// Its quarter.
        quarter: Quarter,
    },
    /// The invader asked for a base edge it may not take (§5.2).
    #[error("§5.2: the invader may not take the {edge} edge; it may take the {} edge", crate::terrain::listed(.allowed))]
    BaseEdge {
        /// The edge asked for.
        edge: BoardEdge,
        /// The edges it may take.
        allowed: Vec<BoardEdge>,
    },
    /// The camp's outline, size or place is refused (§4.6).
    #[error("§4.6: {}", reasons.join("; "))]
    Camp {
        /// Why, each in the player's words.
        reasons: Vec<String>,
    },
    /// An army whose camp is compulsory asked for none (§4.6).
    #[error("§4.6: army {army}'s camp is compulsory (it has no City and at most 2 War Wagons)")]
    CampCompulsory {
        /// The army.
        army: usize,
    },
    /// An element that is in neither army: each army deploys its own elements (§5.3), whose ids
    /// are given by army and position ([`element_id`]).
    #[error("§5.3: there is no element {id} in army {army}, the army deploying, nor in any other")]
    UnknownElement {
        /// The element named.
        id: ElementId,
        /// The army deploying.
        army: usize,
    },
    /// An element of the army that is not deploying now: the defender deploys all its elements
    /// before the invader deploys his (§5.3; in Big Battle and Giant, by commands in turns,
    /// §14.3).
    #[error("§5.3: element {id} is army {owner}'s, and army {army} is deploying now: the defender deploys all its elements, then the invader")]
    NotDeploying {
        /// The element named.
        id: ElementId,
        /// Its army.
        owner: usize,
        /// The army deploying.
        army: usize,
    },
    /// The element was placed already, or held back for a landing (§5.4, §5.5).
    #[error("§5.4: element {id} is already deployed (or held back for a landing, §5.5)")]
    AlreadyDeployed {
        /// The element.
        id: ElementId,
    },
    /// The element may not stand where it was placed (§5.4).
    #[error("{}", problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; "))]
    Deployment {
        /// Every problem, at once.
        problems: Vec<DeploymentProblem>,
    },
    /// The deployment was ended with elements still to place (§5.3).
    #[error("§5.3: elements {} are not yet deployed", crate::terrain::listed(.ids))]
    NotAllDeployed {
        /// The elements not placed.
        ids: Vec<ElementId>,
    },
    /// A Fort is left without its garrison (§4.3, §5.4).
    #[error("§4.3, §5.4: Fort {feature} must begin the battle garrisoned by a foot element")]
    FortUngarrisoned {
        /// The Fort's index among the battlefield's features.
        feature: usize,
    },
    /// Holding back for a littoral landing is refused (§5.5).
    #[error("§5.5: {reason}")]
    Landing {
        /// Why, in the player's words.
        reason: String,
    },
    /// The PIP declaration is refused (§14.4, §14.6).
    #[error("§14.4: {reason}")]
    PipAllocation {
        /// Why, in the player's words.
        reason: String,
    },
    /// A deployment turn breaks the order of §14.3 (whole commands; after the defender's first
    /// turn, if it left commands to place, one command a turn).
    #[error("§14.3: {reason}")]
    CommandTurn {
        /// Why, in the player's words.
        reason: String,
    },
}

impl PrebattleError {
    /// The section that refuses the action: every refusal names one (for the armies given, the
    /// first problem's).
    pub fn section(&self) -> &'static str {
        use PrebattleError::*;
        match self {
            Entries { problems } => match problems.first() {
                Some(p) => p.section(),
                None => "§5.1",
            },
            WrongStep { .. } | NotAllDeployed { .. } | UnknownElement { .. } => "§5.3",
            NotDeploying { .. } => "§5.3",
            DiceCount { .. } => "§5.1",
            HomeTerrain { .. } | NoDifficultTerrain { .. } => "§3.7",
            NoSuchQuarter { .. } | WrongFeature { .. } | CanBePlaced { .. } => "§3.8",
            Placement { problems } => {
                let r = problems.first().map(|p| p.rule.as_str()).unwrap_or("§3.8");
                super::setup::set_up_section(r).unwrap_or("§3.8")
            }
            BaseEdge { .. } => "§5.2",
            Camp { .. } | CampCompulsory { .. } => "§4.6",
            AlreadyDeployed { .. } => "§5.4",
            Landing { .. } => "§5.5",
            PipAllocation { .. } => "§14.4",
            CommandTurn { .. } => "§14.3",
            Deployment { problems } => match problems.first() {
                Some(DeploymentProblem::OffTable { .. }) => "§1.2",
                Some(DeploymentProblem::Impassable { .. }) => "§3.4",
                Some(DeploymentProblem::Garrisoned { .. }) => "§4.2",
                Some(DeploymentProblem::FarFromGeneral { .. }) => "§14.3",
                _ => "§5.4",
            },
            FortUngarrisoned { .. } => "§4.3",
        }
    }
}

impl ErrorInfo for PrebattleError {
    fn code(&self) -> ErrorCode {
        match self {
            PrebattleError::Entries { .. } => ErrorCode::InvalidSetup,
            PrebattleError::WrongStep { .. } => ErrorCode::WrongPhase,
            PrebattleError::DiceCount { .. } | PrebattleError::NoSuchQuarter { .. } => {
                ErrorCode::InvalidArgument
            }
            PrebattleError::UnknownElement { .. } => ErrorCode::UnknownElement,
            PrebattleError::NotDeploying { .. } => ErrorCode::WrongPhase,
            _ => ErrorCode::IllegalMove,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        Some(self.section())
    }
}

/// A saved pre-battle: set-up and every action. Replaying it gives the same events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct PrebattleRecord {
    /// The two armies and the rules the pre-battle started from.
    pub setup: PrebattleSetup,
    /// Every pre-battle action applied, in order, dice included.
    pub actions: Vec<PrebattleAction>,
}

/// A whole game: the pre-battle from two armies and its dice, then the battle's actions. Replays
/// identically from nothing else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The pre-battle: armies and actions.
    pub prebattle: PrebattleRecord,
    /// The battle's actions after it, in order, dice included.
    pub battle: Vec<Action>,
}

/// Replaying a record failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameReplayError {
    /// A pre-battle action of the record was refused.
    #[error("pre-battle action {index} was refused: {error}")]
    Prebattle {
        /// Its position among the pre-battle actions, from 0.
        index: usize,
        /// Why it was refused.
        error: PrebattleError,
    },
    /// The record's armies cannot start a pre-battle.
    #[error("the pre-battle cannot start: {0}")]
    Entries(PrebattleError),
    /// The pre-battle actions end before the battle is ready; it waits for this step.
    #[error("the pre-battle did not finish: it awaits {0}")]
    Unfinished(Step),
    /// The battle that follows was refused at one of its actions, or its set-up.
    #[error(transparent)]
    Battle(#[from] ReplayError),
}

impl ErrorInfo for GameReplayError {
    fn code(&self) -> ErrorCode {
        match self {
            GameReplayError::Prebattle { error, .. } | GameReplayError::Entries(error) => {
                error.code()
            }
            GameReplayError::Unfinished(_) => ErrorCode::WrongPhase,
            GameReplayError::Battle(e) => e.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            GameReplayError::Prebattle { error, .. } | GameReplayError::Entries(error) => {
                error.rule()
            }
            GameReplayError::Unfinished(_) => Some("§5.3"),
            GameReplayError::Battle(e) => e.rule(),
        }
    }
}

/// A replayed game: the finished pre-battle, the battle, and the events of each.
#[derive(Debug, Clone)]
pub struct ReplayedGame {
    /// The finished pre-battle.
    pub prebattle: Prebattle,
    /// The pre-battle's events, in order.
    pub prebattle_events: Vec<PrebattleEvent>,
    /// The battle, as its last action left it.
    pub battle: Battle,
    /// The battle's events, in order.
    pub events: Vec<Event>,
}

impl GameRecord {
    /// Replay the pre-battle, start the battle from its set-up and replay the battle's actions.
    pub fn replay(&self) -> Result<ReplayedGame, GameReplayError> {
        let (prebattle, prebattle_events) = Prebattle::replay(&self.prebattle)?;
        let setup = prebattle
            .battle_setup()
            .ok_or(GameReplayError::Unfinished(prebattle.step))?;
        let (battle, events) = Battle::replay(&super::bound::BattleRecord {
            setup,
            actions: self.battle.clone(),
        })?;
        Ok(ReplayedGame {
            prebattle,
            prebattle_events,
            battle,
            events,
        })
    }
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

impl Prebattle {
    /// Start the pre-battle: every problem of the entering armies is reported at once.
    pub fn new(setup: PrebattleSetup) -> Result<Prebattle, PrebattleError> {
        let mut problems = Vec::new();
        if setup.armies.len() != 2 {
            problems.push(EntryProblem::ArmyCount {
                count: setup.armies.len(),
            });
        }
        if setup.variant == Variant::Dbaix {
            problems.push(EntryProblem::Variant {
                variant: setup.variant,
            });
        }
        let multi = setup.is_by_command();
        if setup.depth_factor != 1.0
            && (setup.variant != Variant::Giant || !(1.0..=1.5).contains(&setup.depth_factor))
        {
            problems.push(EntryProblem::DepthFactor {
                factor: setup.depth_factor,
            });
        }
        if let Err(e) = setup.config.validate() {
            problems.push(EntryProblem::Config {
                message: e.to_string(),
            });
        }
        let side_ok = Board::standard(setup.board_side).is_ok();
        let board = setup.board();
        if !side_ok {
            problems.push(EntryProblem::BoardSide {
                side: setup.board_side,
            });
        }
        for a in &setup.armies {
            if a.aggression > 4 {
                problems.push(EntryProblem::Aggression {
                    army: a.name.clone(),
                    aggression: a.aggression,
                });
            }
            if a.elements.is_empty() || a.elements.len() > MAX_ENTRY_ELEMENTS {
                problems.push(EntryProblem::ElementCount {
                    army: a.name.clone(),
                    count: a.elements.len(),
                });
            } else if !multi && !setup.free_army_size {
                // §2.5: 12 troop elements; Big Battle and Giant are counted by their commands.
                let troops = a
                    .elements
                    .iter()
                    .filter(|e| !super::commands::is_civilian(e.kind.troop_type()))
                    .count();
                if troops != super::commands::ARMY_ELEMENTS {
                    problems.push(EntryProblem::ArmySize {
                        army: a.name.clone(),
                        count: troops,
                    });
                }
            }
            let generals = a
                .elements
                .iter()
                .filter(|e| e.general && e.contingent.is_none())
                .count();
            // Big Battle and Giant generals are checked with their commands (§14.1).
            if !multi && generals != 1 {
                problems.push(EntryProblem::Generals {
                    army: a.name.clone(),
                    count: generals,
                });
            }
            for c in &a.commands {
                for &index in c.elements.iter().chain([&c.general]) {
                    if index >= a.elements.len() {
                        problems.push(EntryProblem::CommandElement {
                            army: a.name.clone(),
                            command: c.id,
                            index,
                            count: a.elements.len(),
                        });
                    }
                }
            }
        }
        if problems.is_empty() && (multi || setup.armies.iter().any(|a| !a.commands.is_empty())) {
            let command_problems = entry_command_problems(&setup);
            if !command_problems.is_empty() {
                problems.push(EntryProblem::Commands {
                    problems: command_problems,
                });
            }
        }
        let Ok(board) = board else {
            return Err(PrebattleError::Entries { problems });
        };
        if !problems.is_empty() {
            return Err(PrebattleError::Entries { problems });
        }
        let n = setup.armies.len();
        Ok(Prebattle {
            step: Step::Aggression,
            actions: Vec::new(),
            defender: None,
            features: Vec::new(),
            discarded: Vec::new(),
            battlefield: Battlefield::new(board),
            base_edges: vec![None; n],
            camps: vec![None; n],
            camp_followers: vec![false; n],
            poses: setup
                .armies
                .iter()
                .map(|a| vec![None; a.elements.len()])
                .collect(),
            garrisons: Vec::new(),
            held_back: Vec::new(),
            pip_allocations: if multi { vec![None; n] } else { Vec::new() },
            command_camps: Vec::new(),
            deployed_commands: if multi {
                vec![Vec::new(); n]
            } else {
                Vec::new()
            },
            alternate: false,
            setup,
        })
    }

    /// Replay a saved pre-battle, returning it and every event.
    pub fn replay(
        record: &PrebattleRecord,
    ) -> Result<(Prebattle, Vec<PrebattleEvent>), GameReplayError> {
        let mut p = Prebattle::new(record.setup.clone()).map_err(GameReplayError::Entries)?;
        let mut events = Vec::new();
        for (index, a) in record.actions.iter().enumerate() {
            let e = p
                .apply(a.clone())
                .map_err(|error| GameReplayError::Prebattle { index, error })?;
            events.extend(e);
        }
        Ok((p, events))
    }

    /// The set-up and every action so far.
    pub fn record(&self) -> PrebattleRecord {
        PrebattleRecord {
            setup: self.setup.clone(),
            actions: self.actions.clone(),
        }
    }

    /// The armies and rules the pre-battle started from.
    pub fn setup(&self) -> &PrebattleSetup {
        &self.setup
    }
    /// The step the pre-battle is at.
    pub fn step(&self) -> Step {
        self.step
    }
    /// Every pre-battle action applied so far.
    pub fn actions(&self) -> &[PrebattleAction] {
        &self.actions
    }
    /// The defender, once the aggression dice have decided (§5.1).
    pub fn defender(&self) -> Option<usize> {
        self.defender
    }
    /// The invader, once decided.
    pub fn invader(&self) -> Option<usize> {
        self.defender.map(|d| 1 - d)
    }
    /// The chosen features in placing order (§3.8).
    pub fn features(&self) -> &[FeatureType] {
        &self.features
    }
    /// The table as laid out so far.
    pub fn battlefield(&self) -> &Battlefield {
        &self.battlefield
    }
    /// Army `army`'s base edge, once chosen.
    pub fn base_edge(&self, army: usize) -> Option<BoardEdge> {
        self.base_edges.get(army).copied().flatten()
    }
    /// Army `army`'s camp, once placed.
    pub fn camp(&self, army: usize) -> Option<&Polygon> {
        self.camps.get(army).and_then(|c| c.as_ref())
    }
    /// The pose of element `index` of army `army`, once deployed.
    pub fn pose(&self, army: usize, index: usize) -> Option<Pose> {
        self.poses.get(army)?.get(index).copied().flatten()
    }

    /// What the pre-battle waits for; `None` once it is done.
    pub fn awaiting(&self) -> Option<PrebattleRequest> {
        Some(match self.step {
            Step::Aggression => PrebattleRequest::AggressionDice {
                armies: self.setup.armies.len(),
            },
            Step::ChooseFeatures { defender } => PrebattleRequest::Features {
                army: defender,
                home_terrain: self.setup.armies[defender].home_terrain,
            },
            Step::PlacementDie { feature } => PrebattleRequest::PlacementDie {
                feature: self.features[feature],
            },
            Step::ChooseQuarter { feature, by } => PrebattleRequest::Quarter {
                army: by,
                feature: self.features[feature],
            },
            Step::PlaceFeature { feature, quarter } => PrebattleRequest::Placement {
                army: self.defender.unwrap_or(0),
                feature: self.features[feature],
                quarter,
            },
            Step::BaseEdge { invader } => PrebattleRequest::BaseEdge {
                army: invader,
                allowed: self.allowed_base_edges(),
            },
            Step::PipAllocation { army } => PrebattleRequest::PipAllocation {
                army,
                ranked: self.non_allied(army),
                each_rolls_allowed: self.setup.variant == Variant::Giant,
            },
            Step::Camp { army, command } => PrebattleRequest::Camp {
                army,
                command,
                compulsory: self.camp_compulsory_for(army, command),
            },
            Step::Deployment { army } => PrebattleRequest::Deployment {
                army,
                remaining: self.remaining(army),
            },
            Step::Done => return None,
        })
    }

    /// The edges the invader may take (§5.2): those a road reaches when there is one (§17.56),
    /// otherwise any but the one opposite a waterway (§17.53).
    pub fn allowed_base_edges(&self) -> Vec<BoardEdge> {
        let board = &self.battlefield.board;
        let mut by_road: Vec<BoardEdge> = self
            .battlefield
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Road(r) => Some(r),
                _ => None,
            })
            .flat_map(|r| [r.path.first().copied(), r.path.last().copied()])
            .flatten()
            .filter_map(|p| board.edge_at(p))
            .collect();
        by_road.sort();
        by_road.dedup();
        let possible = board.possible_base_edges(self.setup.variant);
        by_road.retain(|e| possible.contains(e));
        if !by_road.is_empty() {
            return by_road;
        }
        let facing_water: Vec<BoardEdge> = self
            .battlefield
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Waterway(w) => Some(w.edge.opposite()),
                _ => None,
            })
            .collect();
        possible
            .into_iter()
            .filter(|e| !facing_water.contains(e))
            .collect()
    }

    /// Whether army `army` must have a camp (§4.6): unless it has a City or more than 2 WWg.
    pub fn camp_compulsory(&self, army: usize) -> bool {
        self.camp_compulsory_for(army, None)
    }

    /// Whether army `army`'s camp (`command` `None`) or its allied command `command`'s own camp
    /// must be pitched (§4.6, §14.3). The army's camp is optional with a City or more than 2 WWg
    /// outside its allied commands; an allied command, a whole army of its own list, must have
    /// its own camp unless it has more than 2 WWg of its own (a reading: §14.3 says it "must be
    /// provided with" one, and §4.6's exception is about the army that owns the camp; the City
    /// is the defender's, not its ally's).
    pub fn camp_compulsory_for(&self, army: usize, command: Option<CommandId>) -> bool {
        let entry = &self.setup.armies[army];
        let in_camp_command = |i: usize| match (command, entry.command_of(i)) {
            (Some(id), Some(c)) => c.id == id,
            (Some(_), None) => false,
            (None, c) => !c.is_some_and(|c| c.allied),
        };
        let has_city = command.is_none()
            && Some(army) == self.defender
            && self
                .battlefield
                .areas()
                .any(|(_, a)| a.kind == AreaKind::City);
        let wwg = entry
            .elements
            .iter()
            .enumerate()
            .filter(|(i, e)| e.kind.troop_type() == TroopType::WWg && in_camp_command(*i))
            .count();
        !(has_city || wwg > 2)
    }

    /// Army `army`'s non-allied commands, in the order listed: those a PIP ranking names (§14.4).
    pub fn non_allied(&self, army: usize) -> Vec<CommandId> {
        self.setup.armies[army]
            .commands
            .iter()
            .filter(|c| !c.allied)
            .map(|c| c.id)
            .collect()
    }

    /// Army `army`'s declared PIP allocation (§14.4), once declared.
    pub fn pip_allocation(&self, army: usize) -> Option<&PipAllocation> {
        self.pip_allocations.get(army).and_then(|p| p.as_ref())
    }

    /// Army `army`'s allied command `command`'s own camp, once placed (§14.3).
    pub fn command_camp(&self, army: usize, command: CommandId) -> Option<&Polygon> {
        self.command_camps
            .iter()
            .find(|k| k.0 == army && k.1 == command)
            .map(|k| &k.2)
    }

    /// The commands army `army` has set out so far, in order (§14.3).
    pub fn deployed_commands(&self, army: usize) -> &[CommandId] {
        self.deployed_commands
            .get(army)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether the sides now alternate one command each (§14.3): the defender's first turn left
    /// commands to place.
    pub fn alternating(&self) -> bool {
        self.alternate
    }

    /// Element `index` of `army` is placed, or held back for a landing.
    fn settled(&self, army: usize, index: usize) -> bool {
        self.poses[army][index].is_some() || self.held_back.contains(&element_id(army, index))
    }

    /// The commands army `army` has begun this turn of deployment and not yet ended (§14.3).
    fn turn_commands(&self, army: usize) -> Vec<CommandId> {
        let done = self.deployed_commands(army);
        self.setup.armies[army]
            .commands
            .iter()
            .filter(|c| !done.contains(&c.id))
            .filter(|c| c.elements.iter().any(|&i| self.settled(army, i)))
            .map(|c| c.id)
            .collect()
    }

    /// §14.3: once the sides alternate, a turn sets out one command only.
    /// The position of element `id` in `army`, the army deploying: refused when it is another
    /// army's, which is not deploying now, or no army's (§5.3).
    fn index_deploying(&self, army: usize, id: ElementId) -> Result<usize, PrebattleError> {
        let index_in = |a: usize| (0..self.poses[a].len()).find(|&i| element_id(a, i) == id);
        if let Some(i) = index_in(army) {
            return Ok(i);
        }
        match (0..self.poses.len()).find(|&a| index_in(a).is_some()) {
            Some(owner) => Err(PrebattleError::NotDeploying { id, owner, army }),
            None => Err(PrebattleError::UnknownElement { id, army }),
        }
    }

    fn one_command_a_turn(&self, army: usize, index: usize) -> Result<(), PrebattleError> {
        if !self.alternate {
            return Ok(());
        }
        let Some(c) = self.setup.armies[army].command_of(index) else {
            return Ok(());
        };
        match self.turn_commands(army).into_iter().find(|t| *t != c.id) {
            Some(t) => Err(PrebattleError::CommandTurn {
                reason: format!(
                    "army {army} is setting out its {t} this turn; once the sides alternate, each turn sets out one command"
                ),
            }),
            None => Ok(()),
        }
    }

    /// The 8 BW of §14.3 for element `index` of `army` at `rect`: the element and its general
    /// (or, when it is the general, each placed element of his command) when neither is in a
    /// City, Fort or camp.
    fn far_from_general(
        &self,
        army: usize,
        index: usize,
        rect: &ElementRect,
        sheltered_here: bool,
        p: &mut Vec<DeploymentProblem>,
    ) {
        let entry = &self.setup.armies[army];
        let Some(c) = entry.command_of(index) else {
            return;
        };
        let id = element_id(army, index);
        let rect_at =
            |i: usize| self.poses[army][i].map(|q| self.rect_of(entry.elements[i].kind, q));
        let far = |a: &ElementRect, b: &ElementRect| {
            let d = crate::zones::nearest_distance(a, b);
            (d > super::commands::DEPLOY_FROM_GENERAL + TOLERANCE).then_some(d)
        };
        if c.general == index {
            for &i in c.elements.iter().filter(|&&i| i != index) {
                let Some(r) = rect_at(i) else { continue };
                if self.sheltered(army, c.id, &r) {
                    continue;
                }
                if let Some(distance) = far(rect, &r) {
                    p.push(DeploymentProblem::FarFromGeneral {
                        id,
                        other: element_id(army, i),
                        distance,
                    });
                }
            }
        } else if !sheltered_here {
            if let Some(g) = rect_at(c.general) {
                if let Some(distance) = far(rect, &g) {
                    p.push(DeploymentProblem::FarFromGeneral {
                        id,
                        other: element_id(army, c.general),
                        distance,
                    });
                }
            }
        }
    }

    /// `r` stands wholly inside a City or Fort, the army's camp or its command's own camp (the
    /// shelters of §14.3's 8 BW rule).
    fn sheltered(&self, army: usize, command: CommandId, r: &ElementRect) -> bool {
        let inside = |p: &Polygon| r.corners().iter().all(|c| p.contains(*c));
        self.camps[army].as_ref().is_some_and(inside)
            || self.command_camp(army, command).is_some_and(inside)
            || self
                .battlefield
                .areas()
                .any(|(_, f)| f.kind.is_fortified() && inside(&f.outline))
    }

    fn remaining(&self, army: usize) -> Vec<ElementId> {
        self.poses[army]
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_none())
            .map(|(i, _)| element_id(army, i))
            .filter(|id| !self.held_back.contains(id))
            .collect()
    }

    /// How many elements army `army` holds back for a littoral landing (§5.5).
    pub fn held_back_by(&self, army: usize) -> usize {
        (0..self.poses[army].len())
            .filter(|&i| self.held_back.contains(&element_id(army, i)))
            .count()
    }

    fn wrong(&self, a: &PrebattleAction) -> PrebattleError {
        PrebattleError::WrongStep {
            action: action_name(a),
            step: self.step,
        }
    }

    /// The events `action` would cause; changes nothing.
    pub fn check(&self, action: &PrebattleAction) -> Result<Vec<PrebattleEvent>, PrebattleError> {
        use PrebattleAction as A;
        use PrebattleEvent as E;
        let defender = self.defender.unwrap_or(0);
        let invader = 1 - defender;
        match (action, self.step) {
            (A::RollAggression { dice }, Step::Aggression) => {
                let n = self.setup.armies.len();
                if dice.len() != n {
                    return Err(PrebattleError::DiceCount {
                        given: dice.len(),
                        armies: n,
                    });
                }
                let totals: Vec<u8> = dice
                    .iter()
                    .zip(&self.setup.armies)
                    .map(|(d, a)| d.get() + a.aggression)
                    .collect();
                let mut ev = vec![E::AggressionRolled {
                    dice: dice.clone(),
                    totals: totals.clone(),
                }];
                if totals[0] == totals[1] {
                    ev.push(E::AggressionTied);
                } else {
                    let d = if totals[0] < totals[1] { 0 } else { 1 };
                    ev.push(E::RolesDecided {
                        defender: d,
                        invader: 1 - d,
                    });
                }
                Ok(ev)
            }
            (
                A::ChooseFeatures {
                    compulsory,
                    optional,
                },
                Step::ChooseFeatures { defender },
            ) => {
                let home = self.setup.armies[defender].home_terrain;
                let problems = check_home_terrain(home, self.setup.variant, compulsory, optional);
                if !problems.is_empty() {
                    return Err(PrebattleError::HomeTerrain { problems });
                }
                let chosen: Vec<FeatureType> = compulsory.iter().chain(optional).copied().collect();
                if !chosen.iter().any(|&t| difficult(t)) {
                    return Err(PrebattleError::NoDifficultTerrain { chosen });
                }
                let mut order: Vec<FeatureType> = chosen
                    .iter()
                    .copied()
                    .filter(|&t| t == FeatureType::Waterway)
                    .collect();
                order.extend(
                    chosen
                        .iter()
                        .copied()
                        .filter(|&t| t != FeatureType::Waterway),
                );
                Ok(vec![E::FeaturesChosen { order }])
            }
            (A::RollPlacement { die }, Step::PlacementDie { feature }) => {
                let (quarter, chooser) = match die.get() {
                    d @ 1..=4 => (Some(Quarter(d)), None),
                    5 => (None, Some(defender)),
                    _ => (None, Some(invader)),
                };
                Ok(vec![E::PlacementRolled {
                    feature: self.features[feature],
                    die: *die,
                    quarter,
                    chooser,
                }])
            }
            (A::ChooseQuarter { quarter }, Step::ChooseQuarter { by, .. }) => {
                if !(1..=4).contains(&quarter.0) {
                    return Err(PrebattleError::NoSuchQuarter { quarter: *quarter });
                }
                Ok(vec![E::QuarterChosen {
                    by,
                    quarter: *quarter,
                }])
            }
            (A::PlaceFeature { feature: f }, Step::PlaceFeature { feature, quarter }) => {
                let expected = self.features[feature];
                if f.feature_type() != expected {
                    return Err(PrebattleError::WrongFeature {
                        expected,
                        given: f.feature_type(),
                    });
                }
                let problems =
                    placement_problems(&self.battlefield, f, quarter, self.setup.variant);
                if !problems.is_empty() {
                    return Err(PrebattleError::Placement { problems });
                }
                let mut ev = vec![E::FeaturePlaced {
                    index: self.battlefield.features.len(),
                    quarter,
                    feature: f.clone(),
                }];
                self.repeat_if_needed(feature, Some(f), None, &mut ev);
                Ok(ev)
            }
            (A::DiscardFeature, Step::PlaceFeature { feature, quarter }) => {
                let t = self.features[feature];
                let kinds: &[AreaKind] = if t == FeatureType::Bua {
                    &BUA_KINDS
                } else {
                    &[AreaKind::Hamlet]
                };
                for &k in kinds {
                    if find_placement(&self.battlefield, t, k, quarter, self.setup.variant, 0)
                        .is_some()
                    {
                        return Err(PrebattleError::CanBePlaced {
                            feature: t,
                            quarter,
                        });
                    }
                }
                let mut ev = vec![E::FeatureDiscarded {
                    feature: t,
                    quarter,
                }];
                self.repeat_if_needed(feature, None, Some(t), &mut ev);
                Ok(ev)
            }
            (A::ChooseBaseEdge { edge }, Step::BaseEdge { .. }) => {
                let allowed = self.allowed_base_edges();
                if !allowed.contains(edge) {
                    return Err(PrebattleError::BaseEdge {
                        edge: *edge,
                        allowed,
                    });
                }
                Ok(vec![E::BaseEdgesChosen {
                    invader: *edge,
                    defender: edge.opposite(),
                }])
            }
            (A::DeclarePipAllocation { allocation }, Step::PipAllocation { army }) => {
                let refuse = |reason: String| Err(PrebattleError::PipAllocation { reason });
                match allocation {
                    PipAllocation::EachRolls if self.setup.variant != Variant::Giant => {
                        return refuse(
                            "only in Giant may every general roll his own die (§14.6); a Big Battle army ranks its non-allied commands".into(),
                        );
                    }
                    PipAllocation::EachRolls => {}
                    PipAllocation::Ranked { order } => {
                        let mut given = order.clone();
                        given.sort();
                        let mut wanted = self.non_allied(army);
                        wanted.sort();
                        if given != wanted {
                            return refuse(format!(
                                "the ranking must name each non-allied command of army {army} once ({}); allied commands keep their own die",
                                crate::terrain::listed(&wanted)
                            ));
                        }
                    }
                }
                Ok(vec![E::PipAllocationDeclared {
                    army,
                    allocation: allocation.clone(),
                }])
            }
            (
                A::PlaceCamp {
                    outline,
                    camp_followers,
                },
                Step::Camp { army, command },
            ) => {
                let reasons = self.camp_problems(army, outline);
                if !reasons.is_empty() {
                    return Err(PrebattleError::Camp { reasons });
                }
                Ok(vec![E::CampPlaced {
                    army,
                    command,
                    outline: outline.clone(),
                    camp_followers: *camp_followers,
                }])
            }
            (A::NoCamp, Step::Camp { army, command }) => {
                if self.camp_compulsory_for(army, command) {
                    return Err(PrebattleError::CampCompulsory { army });
                }
                Ok(vec![E::CampOmitted { army, command }])
            }
            (A::Deploy { id, pose }, Step::Deployment { army }) => {
                let index = self.index_deploying(army, *id)?;
                // Held back for a landing (§5.5) counts as deployed: it lands in the battle.
                if self.poses[army][index].is_some() || self.held_back.contains(id) {
                    return Err(PrebattleError::AlreadyDeployed { id: *id });
                }
                self.one_command_a_turn(army, index)?;
                let pose = pose.snapped();
                let garrison = self.deployment_check(army, index, pose)?;
                Ok(vec![E::ElementDeployed {
                    army,
                    id: *id,
                    pose,
                    garrison,
                }])
            }
            (A::HoldBack { id }, Step::Deployment { army }) => {
                let index = self.index_deploying(army, *id)?;
                if self.poses[army][index].is_some() || self.held_back.contains(id) {
                    return Err(PrebattleError::AlreadyDeployed { id: *id });
                }
                let landing = |reason: String| Err(PrebattleError::Landing { reason });
                let entry = &self.setup.armies[army];
                let command = entry.command_of(index);
                // §14.3: a landing command is of a Littoral army: an allied command's own list.
                let littoral = match command {
                    Some(c) if c.allied => c.littoral,
                    _ => entry.littoral,
                };
                if !littoral {
                    return landing(format!(
                        "army {army}'s list does not give Littoral home terrain"
                    ));
                }
                self.one_command_a_turn(army, index)?;
                let waterway = self
                    .battlefield
                    .features
                    .iter()
                    .any(|f| matches!(f, TerrainFeature::Waterway(_)));
                if !waterway {
                    return landing("there is no waterway on the table".into());
                }
                let kind = self.setup.armies[army].elements[index].kind;
                if matches!(
                    kind.troop_type(),
                    TroopType::El | TroopType::WWg | TroopType::Art
                ) {
                    return landing(format!(
                        "element {id} is {}: Elephants, War Wagons and Artillery never land",
                        kind.code()
                    ));
                }
                if let Some(c) = command {
                    // §14.3: the landing is one whole command.
                    let other = self.held_back.iter().find(|h| {
                        (0..entry.elements.len())
                            .any(|i| element_id(army, i) == **h && !c.elements.contains(&i))
                    });
                    if let Some(h) = other {
                        return landing(format!(
                            "element {h} of another command is held back already: in Big Battle and Giant a landing is one whole command (§14.3)"
                        ));
                    }
                } else if self.held_back_by(army) >= 3 {
                    return landing("a landing is at most 3 elements".into());
                }
                Ok(vec![E::ElementHeldBack { army, id: *id }])
            }
            (A::EndDeployment, Step::Deployment { army }) if self.setup.is_by_command() => {
                self.end_command_turn(army, defender)
            }
            (A::EndDeployment, Step::Deployment { army }) => {
                if self.held_back_by(army) == 1 {
                    return Err(PrebattleError::Landing {
                        reason: "a landing is at least 2 elements: hold back another or deploy it"
                            .into(),
                    });
                }
                let ids = self.remaining(army);
                if !ids.is_empty() {
                    return Err(PrebattleError::NotAllDeployed { ids });
                }
                if Some(army) == self.defender {
                    for (i, a) in self.battlefield.areas() {
                        if a.kind == AreaKind::Fort && !self.garrisons.iter().any(|g| g.1 == i) {
                            return Err(PrebattleError::FortUngarrisoned { feature: i });
                        }
                    }
                }
                let mut ev = vec![E::DeploymentEnded { army }];
                if army == invader {
                    ev.push(E::BattleReady { first: defender });
                }
                Ok(ev)
            }
            (a, _) => Err(self.wrong(a)),
        }
    }

    /// The end of a Big Battle or Giant army's turn of deployment (§14.3): every command begun is
    /// whole (placed, or wholly held back to land); once all of the army's commands are out, the
    /// end-of-deployment checks of the standard game (a Fort garrisoned).
    fn end_command_turn(
        &self,
        army: usize,
        defender: usize,
    ) -> Result<Vec<PrebattleEvent>, PrebattleError> {
        let entry = &self.setup.armies[army];
        let turn = self.turn_commands(army);
        if turn.is_empty() {
            return Err(PrebattleError::CommandTurn {
                reason: format!(
                    "army {army} has set out no command this turn: a turn sets out at least one whole command"
                ),
            });
        }
        let mut ids = Vec::new();
        for c in entry.commands.iter().filter(|c| turn.contains(&c.id)) {
            ids.extend(
                c.elements
                    .iter()
                    .filter(|&&i| !self.settled(army, i))
                    .map(|&i| element_id(army, i)),
            );
            let held = c
                .elements
                .iter()
                .filter(|&&i| self.held_back.contains(&element_id(army, i)))
                .count();
            if held > 0 && held < c.elements.len() {
                return Err(PrebattleError::Landing {
                    reason: format!(
                        "{held} of the {} elements of army {army}'s {} are held back: in Big Battle and Giant a landing is one whole command (§14.3)",
                        c.elements.len(),
                        c.id
                    ),
                });
            }
        }
        if !ids.is_empty() {
            return Err(PrebattleError::NotAllDeployed { ids });
        }
        let done = self.deployed_commands(army).len() + turn.len();
        let all_out = done == entry.commands.len();
        if all_out && army == defender {
            for (i, a) in self.battlefield.areas() {
                if a.kind == AreaKind::Fort && !self.garrisons.iter().any(|g| g.1 == i) {
                    return Err(PrebattleError::FortUngarrisoned { feature: i });
                }
            }
        }
        let mut ev = vec![PrebattleEvent::CommandsDeployed {
            army,
            commands: turn,
        }];
        if all_out {
            ev.push(PrebattleEvent::DeploymentEnded { army });
            let other = 1 - army;
            if self.deployed_commands(other).len() == self.setup.armies[other].commands.len() {
                ev.push(PrebattleEvent::BattleReady { first: defender });
            }
        }
        Ok(ev)
    }

    /// After the last feature: when the table (with `placed`) has no bad-going, rough-going,
    /// river or waterway feature, the last such feature discarded (with `discarding`) is rolled
    /// for again.
    fn repeat_if_needed(
        &self,
        feature: usize,
        placed: Option<&TerrainFeature>,
        discarding: Option<FeatureType>,
        ev: &mut Vec<PrebattleEvent>,
    ) {
        if feature + 1 < self.features.len() {
            return;
        }
        let hard = |f: &TerrainFeature| match f {
            TerrainFeature::Area(a) => matches!(
                a.kind.going(GoingContext::default()),
                Some(Going::Rough | Going::Bad)
            ),
            _ => !matches!(f, TerrainFeature::Road(_)),
        };
        if self.battlefield.features.iter().chain(placed).any(hard) {
            return;
        }
        // The most recently discarded such feature that still fits in some quarter.
        let table = match placed {
            Some(f) => {
                let mut t = self.battlefield.clone();
                t.features.push(f.clone());
                t
            }
            None => self.battlefield.clone(),
        };
        let mut tried = Vec::new();
        let again = self
            .discarded
            .iter()
            .copied()
            .chain(discarding)
            .rev()
            .filter(|&t| difficult(t))
            .find(|&t| {
                if tried.contains(&t) {
                    return false;
                }
                tried.push(t);
                (1..=4).any(|q| {
                    find_placement(
                        &table,
                        t,
                        AreaKind::Hamlet,
                        Quarter(q),
                        self.setup.variant,
                        0,
                    )
                    .is_some()
                })
            });
        if let Some(t) = again {
            ev.push(PrebattleEvent::PlacementRepeated { feature: t });
        }
    }

    /// Commit `action`: [`Prebattle::check`] and then its events.
    pub fn apply(
        &mut self,
        action: PrebattleAction,
    ) -> Result<Vec<PrebattleEvent>, PrebattleError> {
        let events = self.check(&action)?;
        for e in &events {
            self.commit(e);
        }
        self.actions.push(action);
        Ok(events)
    }

    fn next_feature_step(&self, done: usize) -> Step {
        if done + 1 < self.features.len() {
            Step::PlacementDie { feature: done + 1 }
        } else {
            Step::BaseEdge {
                invader: 1 - self.defender.unwrap_or(0),
            }
        }
    }

    fn commit(&mut self, e: &PrebattleEvent) {
        use PrebattleEvent as E;
        let defender = self.defender.unwrap_or(0);
        match e {
            E::AggressionRolled { .. } | E::AggressionTied => {}
            E::RolesDecided { defender, .. } => {
                self.defender = Some(*defender);
                self.step = Step::ChooseFeatures {
                    defender: *defender,
                };
            }
            E::FeaturesChosen { order } => {
                self.features = order.clone();
                self.step = Step::PlacementDie { feature: 0 };
            }
            E::PlacementRolled {
                quarter, chooser, ..
            } => {
                let Step::PlacementDie { feature } = self.step else {
                    return;
                };
                self.step = match (quarter, chooser) {
                    (Some(q), _) => Step::PlaceFeature {
                        feature,
                        quarter: *q,
                    },
                    (None, by) => Step::ChooseQuarter {
                        feature,
                        by: by.unwrap_or(defender),
                    },
                };
            }
            E::QuarterChosen { quarter, .. } => {
                if let Step::ChooseQuarter { feature, .. } = self.step {
                    self.step = Step::PlaceFeature {
                        feature,
                        quarter: *quarter,
                    };
                }
            }
            E::FeaturePlaced { feature, .. } => {
                self.battlefield.features.push(feature.clone());
                if let Step::PlaceFeature { feature, .. } = self.step {
                    self.step = self.next_feature_step(feature);
                }
            }
            E::FeatureDiscarded { feature: t, .. } => {
                self.discarded.push(*t);
                if let Step::PlaceFeature { feature, .. } = self.step {
                    self.step = self.next_feature_step(feature);
                }
            }
            E::PlacementRepeated { feature } => {
                self.features.push(*feature);
                self.step = Step::ChooseQuarter {
                    feature: self.features.len() - 1,
                    by: defender,
                };
            }
            E::BaseEdgesChosen {
                invader: i_edge,
                defender: d_edge,
            } => {
                self.base_edges[1 - defender] = Some(*i_edge);
                self.base_edges[defender] = Some(*d_edge);
                self.step = if self.setup.is_by_command() {
                    Step::PipAllocation { army: defender }
                } else {
                    Step::Camp {
                        army: defender,
                        command: None,
                    }
                };
            }
            E::PipAllocationDeclared { army, allocation } => {
                if let Some(p) = self.pip_allocations.get_mut(*army) {
                    *p = Some(allocation.clone());
                }
                self.step = if *army == defender {
                    Step::PipAllocation { army: 1 - defender }
                } else {
                    Step::Camp {
                        army: defender,
                        command: None,
                    }
                };
            }
            E::CampPlaced {
                army,
                command,
                outline,
                camp_followers,
            } => {
                match command {
                    None => {
                        self.camps[*army] = Some(outline.clone());
                        self.camp_followers[*army] = *camp_followers;
                    }
                    Some(c) => {
                        self.command_camps
                            .push((*army, *c, outline.clone(), *camp_followers))
                    }
                }
                self.step = self.after_camp(*army, *command);
            }
            E::CampOmitted { army, command } => {
                self.step = self.after_camp(*army, *command);
            }
            E::CommandsDeployed { army, commands } => {
                let first_turn = *army == defender && self.deployed_commands[*army].is_empty();
                self.deployed_commands[*army].extend(commands.iter().copied());
                let left = |p: &Prebattle, a: usize| {
                    p.deployed_commands[a].len() < p.setup.armies[a].commands.len()
                };
                if first_turn {
                    self.alternate = left(self, defender);
                }
                let other = 1 - *army;
                self.step = match (left(self, *army), left(self, other)) {
                    (false, false) => Step::Done,
                    (true, true) if self.alternate => Step::Deployment { army: other },
                    (true, _) => Step::Deployment { army: *army },
                    (false, true) => Step::Deployment { army: other },
                };
            }
            E::ElementDeployed {
                army,
                id,
                pose,
                garrison,
            } => {
                if let Some(i) = (0..self.poses[*army].len()).find(|&i| element_id(*army, i) == *id)
                {
                    self.poses[*army][i] = Some(*pose);
                }
                if let Some(g) = garrison {
                    self.garrisons.push((*id, *g));
                }
            }
            E::ElementHeldBack { id, .. } => self.held_back.push(*id),
            // Big Battle and Giant: the step was set by the turn's CommandsDeployed.
            E::DeploymentEnded { .. } if self.setup.is_by_command() => {}
            E::DeploymentEnded { army } => {
                self.step = if *army == defender {
                    Step::Deployment { army: 1 - defender }
                } else {
                    Step::Done
                };
            }
            E::BattleReady { .. } => self.step = Step::Done,
        }
    }

    /// The step after army `army`'s camp `command` (the army's own when `None`): its allied
    /// commands' own camps in command order (§14.3), then the other army's camps, defender first
    /// (§5.3), then the defender's deployment.
    fn after_camp(&self, army: usize, command: Option<CommandId>) -> Step {
        let defender = self.defender.unwrap_or(0);
        let allied: Vec<CommandId> = self.setup.armies[army]
            .commands
            .iter()
            .filter(|c| c.allied)
            .map(|c| c.id)
            .collect();
        let next = match command {
            None => allied.first().copied(),
            Some(c) => allied
                .iter()
                .position(|&a| a == c)
                .and_then(|k| allied.get(k + 1).copied()),
        };
        if let Some(c) = next {
            return Step::Camp {
                army,
                command: Some(c),
            };
        }
        if army == defender {
            Step::Camp {
                army: 1 - defender,
                command: None,
            }
        } else {
            Step::Deployment { army: defender }
        }
    }

    /// Every reason `outline` cannot be army `army`'s camp (§4.6).
    pub fn camp_problems(&self, army: usize, outline: &Polygon) -> Vec<String> {
        let mut v = Vec::new();
        let board = &self.battlefield.board;
        if outline.points.len() < 3 || outline.area() < 1e-9 {
            v.push("the camp's outline has no area".to_string());
            return v;
        }
        let (length, breadth) = measure_rectangle(outline);
        if length < 1.0 - TOLERANCE || breadth < 0.5 - TOLERANCE {
            v.push(format!(
                "the camp is {length:.3} × {breadth:.3} BW; it must be at least 1 × ½ BW"
            ));
        }
        if length + breadth > 4.0 + TOLERANCE {
            v.push(format!(
                "the camp needs a rectangle with length + width {:.3} BW; at most 4",
                length + breadth
            ));
        }
        let on_board = board.polygon();
        if !outline.points.iter().all(|&p| on_board.contains(p)) {
            v.push("the camp is not wholly on the battlefield".to_string());
        }
        let Some(base) = self.base_edges[army] else {
            return v;
        };
        let on_edge = outline
            .points
            .iter()
            .any(|&p| board.distance_to_edge(p, base).abs() <= TOLERANCE);
        let mut on_shore = false;
        let edifice =
            super::setup::edifice_camp(&self.battlefield, outline).and_then(|f| {
                match self.battlefield.features.get(f) {
                    Some(TerrainFeature::Area(a)) => Some(a),
                    _ => None,
                }
            });
        for f in &self.battlefield.features {
            match f {
                TerrainFeature::Waterway(w) => {
                    let water = w.water_polygon(board);
                    let wet = |p: crate::geometry::Point| {
                        water.contains_strictly(p)
                            && water.edges().all(|e| e.distance_to_point(p) > TOLERANCE)
                    };
                    if outline.points.iter().any(|&p| wet(p))
                        || wet(crate::terrain::centroid(outline))
                    {
                        v.push("the camp lies in the waterway".to_string());
                    }
                    if w.edge == base && outline.distance_to_polygon(&water) <= TOLERANCE {
                        on_shore = true;
                    }
                }
                TerrainFeature::Area(a) => {
                    // §4.6: an Edifice on the rear edge may be declared the camp (its outline given
                    // as the camp's): its own bad going is then no objection.
                    let declared = a.kind == AreaKind::Edifice && edifice == Some(a);
                    if a.kind != AreaKind::GentleHill
                        && !declared
                        && polygons_intersect(outline, &a.outline)
                    {
                        v.push(format!(
                            "the camp overlaps a {:?}; it must be in good going other than Plough",
                            a.kind
                        ));
                    }
                }
                TerrainFeature::River(r) => {
                    if polyline_distance_to_polygon(&r.course, outline) < r.width * 0.5 {
                        v.push("the camp lies in a river".to_string());
                    }
                }
                TerrainFeature::Road(_) => {}
            }
        }
        if !on_edge && !on_shore {
            v.push(format!(
                "the camp must stand on the army's rear edge ({base:?}) or the shore along it"
            ));
        }
        let placing_command = match self.step {
            Step::Camp { command, .. } => command,
            _ => None,
        };
        for (other, c) in self.camps.iter().enumerate() {
            if let Some(c) = c {
                let same = other == army && placing_command.is_none();
                if !same && polygons_intersect(outline, c) {
                    v.push("the camp overlaps another camp".to_string());
                }
            }
        }
        for (_, _, c, _) in &self.command_camps {
            if polygons_intersect(outline, c) {
                v.push("the camp overlaps an allied command's camp".to_string());
            }
        }
        v
    }

    /// The rectangle of an entering element at `pose`.
    fn rect_of(&self, kind: ElementKind, pose: Pose) -> ElementRect {
        ElementRect::new(pose, 1.0, self.setup.config.depth(kind))
    }

    /// The checks of §5.4 for element `index` of `army` at `pose`: every problem at once, or the
    /// City or Fort it would garrison.
    fn deployment_check(
        &self,
        army: usize,
        index: usize,
        pose: Pose,
    ) -> Result<Option<usize>, PrebattleError> {
        let entry = &self.setup.armies[army].elements[index];
        let id = element_id(army, index);
        let kind = entry.kind;
        let rect = self.rect_of(kind, pose);
        let corners = rect.corners();
        let board = &self.battlefield.board;
        let bf = &self.battlefield;
        let mut p = Vec::new();
        let table = board.polygon();
        if !corners.iter().all(|&c| table.contains(c)) {
            p.push(DeploymentProblem::OffTable { id });
        }
        let ctx = GoingContext {
            camel_mounted: kind.is_camel_mounted(),
            plough_is_rough: false,
        };
        let going = bf.going_under(&rect, ctx);
        if going == Going::Impassable {
            p.push(DeploymentProblem::Impassable { id });
        }
        for (a, poses) in self.poses.iter().enumerate() {
            for (i, q) in poses.iter().enumerate() {
                let Some(q) = q else { continue };
                let other = self.rect_of(self.setup.armies[a].elements[i].kind, *q);
                if overlapping(&rect, &other) {
                    p.push(DeploymentProblem::Overlap {
                        id,
                        other: element_id(a, i),
                    });
                }
            }
        }
        let owner = self.defender.unwrap_or(0);
        let mut garrison = None;
        let mut in_stronghold = false;
        for (f, area) in bf.areas() {
            if !area.kind.is_fortified() {
                continue;
            }
            let inside = corners.iter().all(|&c| area.outline.contains(c));
            if inside {
                in_stronghold = true;
                let allied = self.setup.armies[army]
                    .command_of(index)
                    .is_some_and(|c| c.allied);
                let eligible =
                    army == owner && kind.is_foot() && entry.contingent.is_none() && !allied;
                if !eligible {
                    p.push(DeploymentProblem::NotAGarrison {
                        id,
                        kind,
                        feature: f,
                    });
                } else if self.garrisons.iter().any(|g| g.1 == f) {
                    p.push(DeploymentProblem::Garrisoned { feature: f });
                } else {
                    garrison = Some(f);
                }
            } else if polygons_intersect(&Polygon::new(corners.to_vec()), &area.outline) {
                p.push(DeploymentProblem::InWalls { id, feature: f });
            } else if army != owner {
                // (The distance is measured only to report it: `closer_than` is its
                // comparison, #15.)
                let element = Polygon::new(corners.to_vec());
                if area.outline.closer_than(&element, 3.0 - TOLERANCE) {
                    p.push(DeploymentProblem::EnemyStronghold {
                        id,
                        feature: f,
                        distance: area.outline.distance_to_polygon(&element),
                    });
                }
            }
        }
        if !in_stronghold {
            if let Some(base) = self.base_edges[army] {
                let half = board.across(base) * 0.5;
                let far = corners
                    .iter()
                    .map(|&c| board.distance_to_edge(c, base))
                    .fold(f64::NEG_INFINITY, f64::max);
                if far > half - 3.0 + TOLERANCE {
                    p.push(DeploymentProblem::CentreLine {
                        id,
                        distance: half - far,
                    });
                }
                let limit = side_edge_limit(kind);
                for side in base.sides() {
                    let near = corners
                        .iter()
                        .map(|&c| board.distance_to_edge(c, side))
                        .fold(f64::INFINITY, f64::min);
                    if near < limit - TOLERANCE {
                        p.push(DeploymentProblem::SideEdge {
                            id,
                            kind,
                            distance: near,
                            limit,
                        });
                    }
                }
            }
            let t = kind.troop_type();
            if (t == TroopType::Art || t == TroopType::WWg)
                && going == Going::Bad
                && !bf.move_along_road(&[pose.front_mid()])
            {
                p.push(DeploymentProblem::BadGoing { id, kind });
            }
        }
        if self.setup.is_by_command() {
            let sheltered = in_stronghold
                || self.setup.armies[army]
                    .command_of(index)
                    .is_some_and(|c| self.sheltered(army, c.id, &rect));
            self.far_from_general(army, index, &rect, sheltered, &mut p);
        }
        if p.is_empty() {
            Ok(garrison)
        } else {
            Err(PrebattleError::Deployment { problems: p })
        }
    }

    /// The set-up the pre-battle produced, once it is done: the defender has the first bound
    /// (§5.3) and owns the Cities (see the module docs).
    pub fn battle_setup(&self) -> Option<BattleSetup> {
        if self.step != Step::Done {
            return None;
        }
        let defender = self.defender?;
        let armies = self
            .setup
            .armies
            .iter()
            .enumerate()
            .map(|(a, entry)| {
                Some(ArmySetup {
                    name: entry.name.clone(),
                    base_edge: self.base_edges[a]?,
                    elements: entry
                        .elements
                        .iter()
                        .enumerate()
                        .map(|(i, e)| {
                            Some(ElementSetup {
                                id: element_id(a, i),
                                kind: e.kind,
                                // Held back for a landing: the pose is not used (§5.5).
                                pose: match self.poses[a][i] {
                                    Some(p) => p,
                                    None if self.held_back.contains(&element_id(a, i)) => {
                                        Pose::new(0.0, 0.0, 0.0)
                                    }
                                    None => return None,
                                },
                                general: e.general,
                                contingent: e.contingent,
                                dismounts_as: e.dismounts_as,
                                mobile_tower: e.mobile_tower,
                            })
                        })
                        .collect::<Option<Vec<_>>>()?,
                    camp: self.camps[a].clone(),
                    camp_followers: self.camps[a].is_some() && self.camp_followers[a],
                    commands: entry_commands(a, entry, &self.command_camps),
                    pip_allocation: self.pip_allocations.get(a).cloned().flatten(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let mut s = BattleSetup::new(self.setup.variant, self.battlefield.clone(), armies);
        s.config = self.setup.config.clone();
        s.free_army_size = self.setup.free_army_size;
        s.first = defender;
        s.held_back = self.held_back.clone();
        if self
            .battlefield
            .areas()
            .any(|(_, a)| a.kind == AreaKind::City)
        {
            s.city_owner = Some(defender);
        }
        Some(s)
    }
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
