//! A refused action: [`BattleError`], the rule each refusal names (§6–§13) and its error code.

use super::*;

/// A refused action: the rule that forbids it and what a user interface needs to show. It
/// serialises for logs and user interfaces.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum BattleError {
    /// The action is not one of the current phase: a move after the movement phase, a shot in close
    /// combat.
    #[error("§6.1: {action} is not possible in {phase}")]
    WrongPhase {
        /// The kind of action refused, as a player names it.
        action: String,
        /// The phase the battle is in.
        phase: Phase,
    },
    /// The battle has ended (§13.2): no action is accepted any more.
    #[error("§13.2: the battle is over")]
    Finished,
    /// The action names an element that is not in the battle.
    #[error("there is no element {id}")]
    UnknownElement {
        /// The unknown id.
        id: ElementId,
    },
    /// A tactical move names an element of the army not moving (§6.1).
    #[error(
        "§6.1: element {id} belongs to army {army}; only the moving army makes tactical moves"
    )]
    NotYourElement {
        /// The element named.
        id: ElementId,
        /// The army it belongs to.
        army: usize,
    },
    /// The action names an element that has been lost (§13.1).
    #[error("§13.1: element {id} has been lost")]
    ElementLost {
        /// The lost element.
        id: ElementId,
    },
    /// An Elephant, Scythed Chariot or War Wagon element was ordered into a City or Fort (§4.2,
    /// §17.36).
    #[error("§4.2, §17.36: element {id} ({kind}) may not enter a City or Fort: Elephants, Scythed Chariots and War Wagons never occupy one")]
    MayNotOccupy {
        /// The element ordered in.
        id: ElementId,
        /// Its kind.
        kind: ElementKind,
    },
    /// The element is sacking a City and may not move yet (§4.2, §17.32).
    #[error("§4.2: element {id} is sacking a City and cannot move until its side's PIP die scores 5 or 6 (§17.32)")]
    Sacking {
        /// The sacking element.
        id: ElementId,
    },
    /// Camp followers that have left their camp were ordered back into it (§4.6).
    #[error("§4.6: camp followers {id} have left their camp and may never return to it")]
    CampFollowersMayNotReturn {
        /// The camp followers' element.
        id: ElementId,
    },
    /// A City's denizens may not sally now (§4.2, §17.30).
    #[error(
        "§4.2, §17.30: the denizens of the City that is feature {city} may not sally: {reason}"
    )]
    NoSally {
        /// The City's index among the battlefield's features.
        city: usize,
        /// Why not, in the player's words.
        reason: String,
    },
    /// Sallied denizens were ordered more than 3 BW from their City, or back into it (§4.2).
    #[error("§4.2: sallied denizens {id} may go no more than 3 BW from the City that is feature {city}, nor back into it")]
    SallyLimit {
        /// The denizens' element.
        id: ElementId,
        /// The City's index among the battlefield's features.
        city: usize,
    },
    /// A littoral landing was refused (§5.5).
    #[error("§5.5: the landing is refused: {reason}")]
    Landing {
        /// Why, in the player's words.
        reason: String,
    },
    /// The move costs more PIPs than are left this bound (§6.3).
    #[error("§6.3: the move costs {} but only {left} {} left", super::pips::pips_text(*.cost), if *.left == 1 { "is" } else { "are" })]
    NotEnoughPips {
        /// What the move costs.
        cost: u8,
        /// PIPs left.
        left: u8,
    },
    /// The river has been diced already (§3.5).
    #[error("§3.5: the river's state is already known")]
    RiverKnown,
    /// There is no river to dice (§3.5).
    #[error("§3.5: there is no river on this battlefield")]
    NoRiver,
    /// The tactical move is refused by a movement rule (§7, §8).
    #[error("{0}")]
    Move(MoveError),
    /// The shot or combat asked for is not possible as it stands (§9, §10).
    #[error("{0}")]
    Engagement(EngagementError),
    /// The combat could not be resolved (§9.6, §10).
    #[error("{0}")]
    Combat(CombatError),
    /// The element is not an eligible shooter, or has shot already this bound (§9.1).
    #[error(
        "§9.1: element {id} cannot shoot now: it is not an eligible shooter that has yet to shoot"
    )]
    CannotShoot {
        /// The element that may not shoot.
        id: ElementId,
    },
    /// The target could be shot at, but another of higher priority must be chosen first (§9.3).
    /// A target out of range, outside the zone or out of sight is refused with the
    /// [`EngagementError`] naming that reason instead.
    #[error("§9.3: element {shooter} must shoot at a target of higher priority than {target} (an enemy in its threat zone, then one that shot at it)")]
    NotATarget {
        /// The element that would shoot.
        shooter: ElementId,
        /// The target refused.
        target: ElementId,
    },
    /// Artillery shooting in the enemy's bound answers only enemy Artillery that shot at it (§9.1).
    #[error("§9.1: in the enemy's bound Artillery {shooter} may shoot only at enemy Artillery that shot at it, not at {target}")]
    ArtilleryAnswersOnly {
        /// The Artillery element that would shoot.
        shooter: ElementId,
        /// The target refused.
        target: ElementId,
    },
    /// The two elements are not a close combat still to be fought this bound (§10.2).
    #[error("§10.2: {a} and {b} are not in a close combat still to be fought this bound")]
    NotInCombat {
        /// The first element named.
        a: ElementId,
        /// The second element named.
        b: ElementId,
    },
    /// The number of command PIP dice is not one per command still rolling (§14.4).
    #[error(
        "§14.4: this battle needs {needed} PIP dice (one per command still rolling), not {given}"
    )]
    CommandDice {
        /// Dice the battle needs.
        needed: usize,
        /// Dice given.
        given: usize,
    },
    /// A group move names elements of more than one command (§14.4, §7.4).
    #[error("§14.4, §7.4: a move is made by the elements of one command only; {a} and {b} are of different commands")]
    MixedCommands {
        /// An element of one command.
        a: ElementId,
        /// An element of another.
        b: ElementId,
    },
    /// An element of a demoralised command was ordered to do more than turn in place or be held
    /// (§14.5).
    #[error(
        "§14.5: element {id} is of a demoralised command: it may only turn in place or be held"
    )]
    Demoralised {
        /// The element.
        id: ElementId,
    },
    /// A hold names an element that is not of a demoralised command still to flee this bound, or
    /// is held already (§14.5).
    #[error(
        "§14.5: only elements of a demoralised command still to flee this bound are held, and each once: not {id}"
    )]
    NotHeld {
        /// The element.
        id: ElementId,
    },
    /// A tactical move was ordered while the moving army's demoralised commands have still to
    /// flee this bound (§14.5): holds, then the flight ([`Action::Flee`]), come first.
    #[error("§14.5: the demoralised commands of army {army} flee as its bound begins: hold elements, then order the flight, before any tactical move")]
    FlightDue {
        /// The moving army.
        army: usize,
    },
    /// The flight was ordered when no demoralised command of the moving army has still to flee
    /// this bound (§14.5): a command flees at once when it becomes demoralised, then once at
    /// the start of each later bound of its own.
    #[error("§14.5: no demoralised command of army {army} has still to flee this bound")]
    NoFlightDue {
        /// The moving army.
        army: usize,
    },
    /// The C-in-C's once-a-game +1 was asked for an element that may not add it (§14.4).
    #[error("§14.4: element {id} cannot add the C-in-C's +1: it is not a C-in-C in this combat, or the bonus has been used")]
    CInCBonus {
        /// The element named.
        id: ElementId,
    },
    /// A die score out of range in the action (1 to 6).
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// A path, list or number outside `crate::limits` (checked before any rule).
    #[error(transparent)]
    Limit(#[from] crate::sizes::LimitError),
}

impl ErrorInfo for BattleError {
    fn code(&self) -> ErrorCode {
        match self {
            BattleError::WrongPhase { .. } | BattleError::RiverKnown | BattleError::NoRiver => {
                ErrorCode::WrongPhase
            }
            BattleError::Finished => ErrorCode::BattleOver,
            BattleError::UnknownElement { .. } => ErrorCode::UnknownElement,
            BattleError::NotYourElement { .. }
            | BattleError::ElementLost { .. }
            | BattleError::Sacking { .. }
            | BattleError::MayNotOccupy { .. }
            | BattleError::CampFollowersMayNotReturn { .. }
            | BattleError::NoSally { .. }
            | BattleError::SallyLimit { .. }
            | BattleError::Landing { .. } => ErrorCode::IllegalMove,
            BattleError::NotEnoughPips { .. } => ErrorCode::NotEnoughPips,
            BattleError::Move(_) => ErrorCode::IllegalMove,
            BattleError::Engagement(e) => e.code(),
            BattleError::Combat(e) => e.code(),
            BattleError::CannotShoot { .. }
            | BattleError::NotATarget { .. }
            | BattleError::ArtilleryAnswersOnly { .. }
            | BattleError::NotInCombat { .. }
            | BattleError::CInCBonus { .. } => ErrorCode::IllegalSituation,
            BattleError::CommandDice { .. } => ErrorCode::WrongPhase,
            BattleError::MixedCommands { .. }
            | BattleError::Demoralised { .. }
            | BattleError::NotHeld { .. } => ErrorCode::IllegalMove,
            BattleError::FlightDue { .. } | BattleError::NoFlightDue { .. } => {
                ErrorCode::WrongPhase
            }
            BattleError::Dice(_) => ErrorCode::InvalidDie,
            BattleError::Limit(_) => ErrorCode::InvalidArgument,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            BattleError::WrongPhase { .. } | BattleError::NotYourElement { .. } => Some("§6.1"),
            BattleError::Finished => Some("§13.2"),
            BattleError::ElementLost { .. } => Some("§13.1"),
            BattleError::Sacking { .. } | BattleError::MayNotOccupy { .. } => Some("§4.2"),
            BattleError::CampFollowersMayNotReturn { .. } => Some("§4.6"),
            BattleError::NoSally { .. } | BattleError::SallyLimit { .. } => Some("§4.2"),
            BattleError::Landing { .. } => Some("§5.5"),
            BattleError::NotEnoughPips { .. } => Some("§6.3"),
            BattleError::RiverKnown | BattleError::NoRiver => Some("§3.5"),
            BattleError::Move(m) => move_rule(m),
            BattleError::Engagement(e) => e.rule(),
            BattleError::Combat(e) => e.rule(),
            BattleError::CannotShoot { .. } | BattleError::ArtilleryAnswersOnly { .. } => {
                Some("§9.1")
            }
            BattleError::NotATarget { .. } => Some("§9.3"),
            BattleError::NotInCombat { .. } => Some("§10.2"),
            BattleError::CommandDice { .. }
            | BattleError::MixedCommands { .. }
            | BattleError::CInCBonus { .. } => Some("§14.4"),
            BattleError::Demoralised { .. }
            | BattleError::NotHeld { .. }
            | BattleError::FlightDue { .. }
            | BattleError::NoFlightDue { .. } => Some("§14.5"),
            BattleError::Dice(_) => Some("§0.3"),
            BattleError::UnknownElement { .. } | BattleError::Limit(_) => None,
        }
    }
}

/// The section a move refusal names ([`MoveError::rule`], which its message also leads with).
pub(super) fn move_rule(m: &MoveError) -> Option<&'static str> {
    const SECTIONS: [&str; 26] = [
        "§3.4", "§3.5", "§3.6", "§5.4", "§6.3", "§7.1", "§7.2", "§7.3", "§7.4", "§7.5", "§7.6",
        "§7.7", "§7.8", "§7.9", "§8.1", "§8.2", "§8.3", "§8.4", "§8.5", "§1.2", "§12.1", "§4.7",
        "§4.2", "§4.3", "§4.6", "§17.10",
    ];
    let rule = m.rule();
    SECTIONS.into_iter().find(|s| *s == rule)
}
