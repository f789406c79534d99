//! What the pre-battle refuses and records (DBA3.md §5): the problems of a deployment and of an
//! entering army, [`PrebattleError`], and the records of a pre-battle and of a whole game.

use super::*;

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
                .and_then(super::super::setup::set_up_section)
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
                super::super::setup::set_up_section(r).unwrap_or("§3.8")
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
        let (battle, events) = Battle::replay(&super::super::bound::BattleRecord {
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
