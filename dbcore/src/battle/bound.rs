//! The battle state machine: bounds, PIPs and tactical moves as typed transitions (DBA3.md §6,
//! §7, §8).
//!
//! Every transition is computed purely by [`Battle::check`], which returns the [`Event`]s the
//! action would cause; [`Battle::apply`] commits exactly those events. A refusal therefore cannot
//! change anything, and replaying the saved actions ([`BattleRecord`]) reproduces the events.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::battlefield::{AreaBoxes, COMMAND_DISTANCE_SCREENED};
use crate::combat::{CombatError, CombatResult};
use crate::dice::{DiceError, DieScore};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{finite_bounds, ElementRect, Polygon, TOLERANCE};
use crate::terrain::{AreaKind, RiverState, TerrainFeature};
use crate::troops::{ElementKind, TroopType};

use super::commands::{CommandId, CommandRoll, CommandState};
use super::engagement::EngagementError;
use super::movement::{
    plan_move, ElementMove, HeldStronghold, MoveContext, MoveError, MoveOrder, MovePlan, Refusals,
};
use super::outcome::Effect;
use super::setup::{BattleSetup, ElementId, SetupError};
use super::state::{denizens_id, CityState, Denizens, ElementState, Status};
use super::victory::Verdict;

/// Where the battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// The active army must roll its PIP die (§6.2).
    AwaitingPips,
    /// Tactical moves (§6.1 step 2).
    Movement,
    /// Distant shooting by both armies, in the order the moving army chooses (§6.1 step 3, §9).
    Shooting,
    /// Close combats, in the order the moving army chooses (§6.1 step 4, §10).
    CloseCombat,
    /// The battle is over (§13.2).
    Finished {
        /// The army that won (its index in the set-up's armies), or `None` when the battle ended
        /// without a winner.
        winner: Option<usize>,
    },
}

impl Phase {
    /// The phase as players name it: "PIP roll", "movement", "shooting", "close combat",
    /// "end of the battle".
    pub const fn game_name(&self) -> &'static str {
        match self {
            Phase::AwaitingPips => "PIP roll",
            Phase::Movement => "movement",
            Phase::Shooting => "shooting",
            Phase::CloseCombat => "close combat",
            Phase::Finished { .. } => "end of the battle",
        }
    }
}

/// The phase by its game name, for messages: "the PIP roll", "the movement phase", ...
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::AwaitingPips => "the PIP roll (the moving army rolls its PIP die first, §6.2)",
            Phase::Movement => "the movement phase",
            Phase::Shooting => "the shooting phase",
            Phase::CloseCombat => "the close combat phase",
            Phase::Finished { .. } => "a finished battle",
        })
    }
}

/// What a player does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    /// The active army's PIP die (§6.2).
    RollPips {
        /// The score of the PIP die, 1 to 6: the PIPs this bound (§6.2).
        die: DieScore,
    },
    /// Big Battle and Giant: one PIP die per command still rolling (§14.4), in the order of
    /// [`DiceRequest::CommandPips`]. Allied commands, and every command when each general rolls
    /// (§14.6), take the die at their own place; the dice at the other places are given out by
    /// score to the declared ranking, highest first.
    RollCommandPips {
        /// One score per command still rolling, 1 to 6 each.
        dice: Vec<DieScore>,
    },
    /// The river's die, rolled at the first off-road crossing attempt (§3.5, §7.8). A move that
    /// would make that attempt is refused until the river has been diced.
    DiceRiver {
        /// The river's die, 1 to 6 (§3.5).
        die: DieScore,
    },
    /// A tactical move (§7).
    Move {
        /// What moves and where.
        order: MoveOrder,
    },
    /// The moving army ends its tactical moves. Shooting follows if anyone can shoot, then close
    /// combat if anyone is in contact, then the end of the bound.
    EndMovement,
    /// One shot (§9): `dice[0]` is the shooter's die, `dice[1]` the target's. `support` are up to
    /// two further shooters at the same target (§9.4).
    Shoot {
        /// The element shooting (an eligible shooter of either army, §9.1).
        shooter: ElementId,
        /// The element shot at: an enemy the shooter may choose (§9.3).
        target: ElementId,
        /// Up to two further shooters of the shooter's army at the same target (§9.4).
        #[serde(default)]
        support: Vec<ElementId>,
        /// The shooter's die and the target's die, in that order.
        dice: [DieScore; 2],
        /// Mounted elements whose owner chooses, should they recoil from this shot, to recoil
        /// their own base depth rather than the full 1 BW (§12.1, §17.40). Empty by default: the
        /// full 1 BW. Naming an element that is not mounted, or whose depth is 1 BW or more,
        /// changes nothing.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        recoil_own_depth: Vec<ElementId>,
        /// The target shoots back at the shooter in the same exchange (§17.24): it must be an
        /// eligible shooter that has not shot this bound and may choose the shooter as its
        /// target; both then suffer their outcomes, and the target has shot.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shoots_back: bool,
    },
    /// The denizens of the City that is battlefield feature `city` sally out as an element
    /// standing at `pose`, its rear edge against the wall at a gate (§4.2, §17.30; see
    /// [`super::sally`]). A tactical move of the moving army.
    Sally {
        /// The City's index among the battlefield's features.
        city: usize,
        /// Where the sallying element stands, BW and degrees, its rear edge against the wall at a
        /// gate.
        pose: crate::geometry::Pose,
    },
    /// The moving army lands every element it holds back, `ids[i]` at `poses[i]`, as one group
    /// touching the waterway, in its own first bound (§5.5, §17.55; see [`super::landing`]).
    Land {
        /// The held-back elements to land, each once.
        ids: Vec<ElementId>,
        /// Where each lands, in the order of `ids`: one pose per id.
        poses: Vec<crate::geometry::Pose>,
    },
    /// One close combat (§10): `dice[0]` is `a`'s die, `dice[1]` is `b`'s.
    Fight {
        /// The first element of the close combat (either army).
        a: ElementId,
        /// The element it fights.
        b: ElementId,
        /// `a`'s die and `b`'s die, in that order.
        dice: [DieScore; 2],
        /// As for [`Action::Shoot`]: mounted elements recoiling their own depth (§12.1).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        recoil_own_depth: Vec<ElementId>,
        /// Big Battle and Giant: the C-in-C's element (`a` or `b`) adds its once-a-game +1 to
        /// its total (§14.4).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        c_in_c_bonus: Vec<ElementId>,
    },
    /// Big Battle and Giant: a demoralised command that has still to flee this bound pays 1 PIP
    /// to hold an element, or a group, in place this bound, so that it does not flee (§14.5).
    Hold {
        /// The element, or the group of the command, held in place.
        ids: Vec<ElementId>,
    },
    /// Big Battle and Giant: the moving army's demoralised commands flee again, as a later bound
    /// of theirs begins (§14.5): every element not held this bound and not in close combat flees
    /// towards the army's base edge. Due once a bound, after the holds and before any tactical
    /// move ([`Legal::flight_due`](super::Legal::flight_due)); ending the movement with it still
    /// due makes it first.
    Flee,
}

/// Why a move costs an extra PIP (§6.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "extra")]
#[serde(deny_unknown_fields)]
pub enum PipExtra {
    /// §6.3 (a): the mover includes SCh, El, Hd, WWg, Art, denizens or camp followers, or is a
    /// single element garrisoning a city, fort or camp.
    Unwieldy,
    /// §6.3 (b): the general's element has been lost.
    GeneralLost,
    /// §6.3 (b): the general's element is wholly in a BUA, camp, wood, oasis, marsh or gully.
    GeneralSheltered,
    /// §6.3 (b): the mover starts beyond command distance (§6.4).
    BeyondCommand {
        /// The command distance the mover starts beyond, BW (§6.4).
        limit: f64,
    },
}

/// What a move costs (§6.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PipCost {
    /// 0 for an element's or column's first full move entirely along a road; 1 per element for a
    /// passage through a City gate to gate (§4.2, §17.10); otherwise 1.
    pub base: u8,
    /// The extra PIPs, one each (empty for an ordinary move).
    pub extras: Vec<PipExtra>,
    /// What the move costs in all: `base` plus one PIP per extra.
    pub total: u8,
}

/// What happened. Events carry everything needed to update the state, so a log of them is a
/// complete account of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "event")]
#[serde(deny_unknown_fields)]
pub enum Event {
    /// A bound begins: `army` is the moving army (§6.1).
    BoundStarted {
        /// The moving army (its index in the set-up's armies).
        army: usize,
        /// Bounds begun so far, counting both armies' (1 for the first).
        bound: u32,
    },
    /// The PIP die (§6.2).
    PipsRolled {
        /// The army that rolled.
        army: usize,
        /// The score of the die.
        die: DieScore,
        /// The PIPs it gives for this bound.
        pips: u8,
    },
    /// The game's first PIP score was 1: Plough is rough for the whole game (§3.1, §17.13).
    PloughTurnedRough,
    /// The river's state is fixed for the game (§3.5).
    RiverDiced {
        /// The score of the river's die.
        die: DieScore,
        /// What the river is for the rest of the game.
        state: RiverState,
    },
    /// A tactical move was made.
    Moved {
        /// The elements that made the tactical move.
        movers: Vec<ElementId>,
        /// Where every element that moved ends: movers, and enemies conforming to them (§8.3).
        moves: Vec<ElementMove>,
        /// The distance counted against the movers' allowance, BW (§7.2).
        distance: f64,
        /// The whole move was along a road (§3.6).
        along_road: bool,
        /// The move ended with a mover in contact with an enemy (§8.2).
        into_contact: bool,
    },
    /// PIPs paid for a move, and what is left (§6.3); in Big Battle and Giant, of the command
    /// that paid (§14.4).
    PipsSpent {
        /// What the move cost, and why.
        cost: PipCost,
        /// PIPs left afterwards (of the command that paid, in Big Battle and Giant).
        left: u8,
        /// The command that paid, in Big Battle and Giant; `None` in a one-command battle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
    },
    /// Big Battle and Giant: the commands' PIP dice, each with the command it went to (§14.4).
    CommandPipsRolled {
        /// The army whose commands rolled.
        army: usize,
        /// Each die with the command it went to, in the order of [`DiceRequest::CommandPips`].
        rolls: Vec<CommandRoll>,
    },
    /// The C-in-C used his once-a-game +1 in the combat that follows (§14.4).
    CInCBonusUsed {
        /// The C-in-C's army.
        army: usize,
        /// The C-in-C's element.
        id: ElementId,
    },
    /// A demoralised command's element or group held in place this bound (§14.5).
    Held {
        /// The army of the command.
        army: usize,
        /// The demoralised command.
        command: CommandId,
        /// The element, or the group, held in place.
        ids: Vec<ElementId>,
        /// PIPs the command has left afterwards.
        left: u8,
    },
    /// The moving army's demoralised commands flee again at the start of a later bound of theirs
    /// (§14.5); each element's flight follows as [`Event::Outcome`]s.
    DemoralisedFlight {
        /// The army whose commands flee.
        army: usize,
        /// The demoralised commands that flee.
        commands: Vec<CommandId>,
    },
    /// A command became permanently demoralised at the start of its bound (§14.5).
    CommandDemoralised {
        /// The army of the command.
        army: usize,
        /// The command now demoralised.
        command: CommandId,
        /// Its troop elements lost so far (§14.5).
        losses: u32,
        /// Its troop elements at the start of the battle.
        original: u32,
    },
    /// A command lost half its original troop elements and is taken off (§14.5): its elements
    /// still on the table are gone with it.
    CommandRemoved {
        /// The army of the command.
        army: usize,
        /// The command taken off.
        command: CommandId,
        /// Its troop elements lost so far (§14.5).
        losses: u32,
        /// Its troop elements at the start of the battle.
        original: u32,
        /// Its elements still on the table, taken off with it.
        ids: Vec<ElementId>,
    },
    /// Shooting or close combat begins (§6.1).
    PhaseStarted {
        /// The phase beginning: shooting or close combat.
        phase: Phase,
    },
    /// A shot, with every factor of both totals (§9.6).
    Shot {
        /// The element that shot.
        shooter: ElementId,
        /// The element shot at.
        target: ElementId,
        /// The further shooters supporting the shot (§9.4).
        support: Vec<ElementId>,
        /// Both totals with every factor, and each side's outcome.
        // Boxed: a result holds its factors inline, and most events are far smaller.
        result: Box<CombatResult>,
        /// The target shot back in the same exchange (§17.24): it has shot this bound too.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shot_back: bool,
    },
    /// A close combat, with every factor of both totals (§10). Its result's `pursuit` is the
    /// follow-up actually made: `None` when the table stopped it (§12.5).
    Fought {
        /// The first element of the combat, as the action named it.
        a: ElementId,
        /// The element it fought.
        b: ElementId,
        /// Both totals with every factor, each side's outcome and the pursuit made.
        // Boxed, as in `Shot`.
        result: Box<CombatResult>,
    },
    /// An outcome move, turn to face, destruction or loss over an edge (§8.5, §12).
    Outcome {
        /// What happened to the element.
        effect: Effect,
    },
    /// An army's camp was entered by the enemy: one more loss for it (§4.7, §13.2, §17.44); in
    /// Big Battle, for an allied command's own camp one more loss to that command, for the
    /// army's camp one more to each non-allied command (§14.5).
    CampSacked {
        /// The army whose camp was sacked.
        army: usize,
        /// The allied command whose own camp it was; absent for the army's camp (§14.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<super::CommandId>,
    },
    /// A camp's camp followers were destroyed by its assaulters (§4.6, §4.7).
    CampFollowersDestroyed {
        /// The army whose camp followers were destroyed.
        army: usize,
        /// The allied command whose own camp they defended; absent for the army's camp (§14.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<super::CommandId>,
    },
    /// An enemy element entered the City that is battlefield feature `city`: army `by` now
    /// controls it (§4.2, §17.31). `sacker` is the assaulter that moved in after destroying its
    /// defenders and now sacks it; an element entering an undefended or surrendered City does not.
    CityCaptured {
        /// The City's index among the battlefield's features.
        city: usize,
        /// The army that now controls it.
        by: usize,
        /// The assaulter now sacking it, if it was taken by destroying its defenders.
        sacker: Option<ElementId>,
    },
    /// The City's denizens were destroyed in close combat, or stop defending because its garrison
    /// was destroyed (§4.2).
    DenizensDestroyed {
        /// The City's index among the battlefield's features.
        city: usize,
    },
    /// The City's denizens were destroyed by Artillery shooting: it surrenders to army `to` and is
    /// not sacked (§4.2).
    CitySurrendered {
        /// The City's index among the battlefield's features.
        city: usize,
        /// The army it surrenders to, which now controls it.
        to: usize,
    },
    /// The denizens of the City that is battlefield feature `city` came out as `element` (§4.2,
    /// §17.30): the City is undefended while they are out.
    DenizensSallied {
        /// The City's index among the battlefield's features.
        city: usize,
        /// The denizens' element, as it now stands outside the gate.
        element: ElementState,
    },
    /// Army `army`'s held-back elements landed where `moves` say (§5.5).
    Landed {
        /// The army that landed.
        army: usize,
        /// Where each landed element now stands.
        moves: Vec<ElementMove>,
    },
    /// Army `army` ended its first bound's movement with `ids` still afloat: they never reach
    /// the battlefield and are lost (§5.5, our reading).
    NotLanded {
        /// The army that failed to land them.
        army: usize,
        /// The elements lost afloat.
        ids: Vec<ElementId>,
    },
    /// The sacker's side scored 5 or 6 on its PIP die: it stops sacking and may now garrison the
    /// City or leave it (§4.2, §17.32).
    SackingEnded {
        /// The City's index among the battlefield's features.
        city: usize,
        /// The element that was sacking it.
        id: ElementId,
    },
    /// The bound is over; unused PIPs are lost (§6.2).
    BoundEnded {
        /// The army whose bound it was.
        army: usize,
        /// Bounds begun so far, counting both armies' (1 for the first).
        bound: u32,
        /// PIPs that were not spent, now lost.
        unused_pips: u8,
    },
    /// An army has lost the battle (§13.2).
    BattleWon {
        /// Who lost, who won, and the losses that decided it.
        verdict: Verdict,
    },
}

impl Event {
    /// Whether committing the event changes an element (its pose, kind, status or moves this
    /// bound) or the list of elements; the battle's per-state memo is emptied then.
    fn changes_elements(&self) -> bool {
        match self {
            Event::BoundStarted { .. }
            | Event::Moved { .. }
            | Event::CommandRemoved { .. }
            | Event::Outcome { .. }
            | Event::DenizensSallied { .. }
            | Event::Landed { .. }
            | Event::NotLanded { .. } => true,
            Event::PipsRolled { .. }
            | Event::PloughTurnedRough
            | Event::RiverDiced { .. }
            | Event::PipsSpent { .. }
            | Event::CommandPipsRolled { .. }
            | Event::CInCBonusUsed { .. }
            | Event::Held { .. }
            | Event::DemoralisedFlight { .. }
            | Event::CommandDemoralised { .. }
            | Event::PhaseStarted { .. }
            | Event::Shot { .. }
            | Event::Fought { .. }
            | Event::CampSacked { .. }
            | Event::CampFollowersDestroyed { .. }
            | Event::CityCaptured { .. }
            | Event::DenizensDestroyed { .. }
            | Event::CitySurrendered { .. }
            | Event::SackingEnded { .. }
            | Event::BoundEnded { .. }
            | Event::BattleWon { .. } => false,
        }
    }
}

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
    #[error("§6.3: the move costs {} but only {left} {} left", super::narrate::pips_text(*.cost), if *.left == 1 { "is" } else { "are" })]
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
fn move_rule(m: &MoveError) -> Option<&'static str> {
    const SECTIONS: [&str; 26] = [
        "§3.4", "§3.5", "§3.6", "§5.4", "§6.3", "§7.1", "§7.2", "§7.3", "§7.4", "§7.5", "§7.6",
        "§7.7", "§7.8", "§7.9", "§8.1", "§8.2", "§8.3", "§8.4", "§8.5", "§1.2", "§12.1", "§4.7",
        "§4.2", "§4.3", "§4.6", "§17.10",
    ];
    let rule = m.rule();
    SECTIONS.into_iter().find(|s| *s == rule)
}

/// A saved battle: its set-up and every action applied, dice included. Replaying it gives the
/// same events ([`Battle::replay`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BattleRecord {
    /// The set-up the battle started from.
    pub setup: BattleSetup,
    /// Every action applied, in order, dice included.
    pub actions: Vec<Action>,
}

/// Replaying a record failed at one action.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The record's set-up is not valid (§3, §5).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// An action of the record was refused when replayed.
    #[error("action {index} of the record was refused: {error}")]
    Action {
        /// Its position in the record's actions, from 0.
        index: usize,
        /// Why it was refused.
        error: BattleError,
    },
}

impl ErrorInfo for ReplayError {
    fn code(&self) -> ErrorCode {
        match self {
            ReplayError::Setup(e) => e.code(),
            ReplayError::Action { error, .. } => error.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            ReplayError::Setup(e) => e.rule(),
            ReplayError::Action { error, .. } => error.rule(),
        }
    }
}

/// The dice the battle is waiting for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "for")]
#[serde(deny_unknown_fields)]
pub enum DiceRequest {
    /// The moving army's PIP die (§6.2): supply it with [`Action::RollPips`].
    Pips {
        /// The moving army, which rolls.
        army: usize,
    },
    /// Big Battle and Giant: one PIP die for each of these commands of the moving army, in this
    /// order (§14.4): supply them with [`Action::RollCommandPips`].
    CommandPips {
        /// The moving army, whose commands roll.
        army: usize,
        /// The commands still rolling, in the order their dice are given.
        commands: Vec<CommandId>,
    },
    /// Two dice for a shot chosen by the moving army ([`Action::Shoot`]); `shooters` may shoot.
    Shot {
        /// The elements that may still shoot: choose one and its target.
        shooters: Vec<ElementId>,
    },
    /// Two dice for a close combat chosen by the moving army ([`Action::Fight`]).
    Combat {
        /// The close combats still to fight, each as its two elements, in the order given.
        pairs: Vec<(ElementId, ElementId)>,
    },
}

/// A battle in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Battle {
    /// Shared, never changed after [`Battle::new`]: clones of a battle (search, Monte Carlo) share
    /// one set-up instead of copying its terrain and armies. Serialised as the set-up itself.
    pub(super) setup: Arc<BattleSetup>,
    pub(super) elements: Vec<ElementState>,
    /// Bounds begun so far, counting both armies' (1 for the first).
    pub(super) bound: u32,
    /// The moving army.
    pub(super) active: usize,
    pub(super) phase: Phase,
    pub(super) pips: u8,
    pub(super) river: Option<RiverState>,
    pub(super) plough_rough: bool,
    /// Bounds each army has begun (its own first bound is when this is 1).
    pub(super) bounds_begun: Vec<u32>,
    /// Every action so far. Behind an `Arc` so that a clone (search, snapshots) shares the
    /// history instead of copying it: the state a clone changes copies it once, on its first
    /// action. Serialised as the list itself, so the JSON is the same.
    pub(super) actions: Arc<Vec<Action>>,
    /// Elements that have shot this bound, as main or support shooters (§9.1).
    #[serde(default)]
    pub(super) shot: Vec<ElementId>,
    /// Shots this bound as (shooter, target), support shooters included: who shoots at whom
    /// decides §9.3's second priority and Artillery's answers (§9.1).
    #[serde(default)]
    pub(super) shots: Vec<(ElementId, ElementId)>,
    /// Elements that have fought a close combat this bound (§10.2).
    #[serde(default)]
    pub(super) fought: Vec<ElementId>,
    /// Elements that pursued this bound: their new contacts are fought next bound (§12.5).
    #[serde(default)]
    pub(super) pursued: Vec<ElementId>,
    /// Each army's own camp sacked (§13.2); an allied command's own camp is kept in its
    /// [`CommandState`] (§14.3).
    #[serde(default)]
    pub(super) camp_sacked: Vec<bool>,
    /// Each army's camp followers still defending its camp (§4.6).
    #[serde(default)]
    pub(super) camp_followers: Vec<bool>,
    /// Every City on the battlefield, in feature order (§4.2).
    #[serde(default)]
    pub(super) cities: Vec<CityState>,
    /// The verdict once an army has lost.
    #[serde(default)]
    pub(super) verdict: Option<Verdict>,
    /// This state's identity for [`super::CheckedAction`]; not part of the state.
    #[serde(skip)]
    pub(super) stamp: super::checked::Stamp,
    /// Answers worked out once for this state; not part of the state.
    #[serde(skip)]
    pub(super) cache: super::cache::StateCache,
    /// The set-up as the compact state writes it, written once and shared by the clones and
    /// later states made after that (the set-up never changes); not part of the state.
    #[serde(skip)]
    pub(super) setup_text: super::saved::SetupText,
    /// Big Battle and Giant: every command of every army, in set-up order (§14). Empty in a
    /// standard battle, where each army is its one command.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) commands: Vec<CommandState>,
}

impl Battle {
    /// Start a battle from its set-up: the first army's first bound, awaiting its PIP die.
    ///
    /// Every problem of the set-up is reported at once, in [`SetupError::problems`].
    ///
    /// ```
    /// use dbcore::battle::{Battle, DiceRequest, Phase};
    ///
    /// let battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// assert_eq!(battle.phase(), Phase::AwaitingPips);
    /// assert_eq!(battle.bound(), 1);
    /// assert_eq!(battle.awaiting(), Some(DiceRequest::Pips { army: 0 }));
    ///
    /// // Two elements with one id: refused, and the problem says which.
    /// let mut bad = dbcore::driver::demo_setup();
    /// bad.armies[1].elements[0].id = bad.armies[0].elements[0].id;
    /// let err = Battle::new(bad).unwrap_err();
    /// assert!(!err.problems.is_empty());
    /// ```
    pub fn new(setup: BattleSetup) -> Result<Battle, SetupError> {
        Ok(Battle::start(&super::ValidatedSetup::new(setup)?))
    }

    /// The battle of a set-up already validated.
    pub(super) fn from_valid(setup: Arc<BattleSetup>) -> Battle {
        let elements: Vec<ElementState> = setup
            .armies
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                a.elements
                    .iter()
                    .map(move |e| ElementState::from_setup(i, e))
            })
            .collect();
        let mut elements = elements;
        for e in &mut elements {
            if setup.held_back.contains(&e.id) {
                e.status = Status::Afloat;
            }
        }
        let cities = initial_cities(&setup, &elements);
        let mut bounds_begun = vec![0; setup.armies.len()];
        bounds_begun[setup.first] = 1;
        let river = setup.battlefield.features.iter().find_map(|f| match f {
            TerrainFeature::River(r) => r.state,
            _ => None,
        });
        Battle {
            active: setup.first,
            elements,
            bound: 1,
            phase: Phase::AwaitingPips,
            pips: 0,
            river,
            plough_rough: false,
            bounds_begun,
            actions: Arc::new(Vec::new()),
            shot: Vec::new(),
            shots: Vec::new(),
            fought: Vec::new(),
            pursued: Vec::new(),
            camp_sacked: vec![false; setup.armies.len()],
            camp_followers: setup
                .armies
                .iter()
                .map(|a| a.camp.is_some() && a.camp_followers)
                .collect(),
            cities,
            verdict: None,
            commands: CommandState::of_setup(&setup),
            setup,
            stamp: super::checked::Stamp::fresh(),
            cache: Default::default(),
            setup_text: Default::default(),
        }
    }

    /// Replay a saved battle, returning it and the events of every action in order.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let mut events = battle.apply(Action::RollPips { die: DieScore::new(5).unwrap() }).unwrap();
    /// events.extend(battle.apply(Action::EndMovement).unwrap());
    ///
    /// // The record is the set-up and the two actions; it replays to the same battle and events.
    /// let record = battle.record();
    /// assert_eq!(record.actions.len(), 2);
    /// let (again, replayed) = Battle::replay(&record).unwrap();
    /// assert_eq!(again, battle);
    /// assert_eq!(replayed, events);
    ///
    /// // A record survives JSON.
    /// let json = serde_json::to_string(&record).unwrap();
    /// assert_eq!(serde_json::from_str::<dbcore::battle::BattleRecord>(&json).unwrap(), record);
    /// ```
    pub fn replay(record: &BattleRecord) -> Result<(Battle, Vec<Event>), ReplayError> {
        let setup = super::ValidatedSetup::new(record.setup.clone())?;
        Battle::replay_validated(&setup, &record.actions)
    }

    /// The set-up and every action so far.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// battle.apply(Action::RollPips { die: DieScore::new(2).unwrap() }).unwrap();
    /// let record = battle.record();
    /// assert_eq!(record.actions, battle.actions());
    /// assert_eq!(&record.setup, battle.setup());
    /// ```
    pub fn record(&self) -> BattleRecord {
        BattleRecord {
            setup: BattleSetup::clone(&self.setup),
            actions: Vec::clone(&self.actions),
        }
    }

    /// The set-up the battle started from.
    pub fn setup(&self) -> &BattleSetup {
        &self.setup
    }
    /// Every element of every army, lost ones included, in set-up order.
    pub fn elements(&self) -> &[ElementState] {
        &self.elements
    }
    /// The element with this id, lost or not; `None` if there is none.
    pub fn element(&self, id: ElementId) -> Option<&ElementState> {
        self.elements.iter().find(|e| e.id == id)
    }
    /// Where the battle stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The moving army.
    pub fn active_army(&self) -> usize {
        self.active
    }
    /// Bounds begun so far (1 for the first).
    pub fn bound(&self) -> u32 {
        self.bound
    }
    /// PIPs left this bound.
    pub fn pips(&self) -> u8 {
        self.pips
    }
    /// The river's state once it has been diced (§3.5); `None` before, or with no river.
    pub fn river(&self) -> Option<RiverState> {
        self.river
    }
    /// Whether Plough is rough going for the rest of the game: the first PIP score was 1 (§3.1,
    /// §17.13).
    pub fn plough_rough(&self) -> bool {
        self.plough_rough
    }
    /// Every action applied so far.
    pub fn actions(&self) -> &[Action] {
        self.actions.as_slice()
    }

    /// The dice the battle waits for, if any.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, DiceRequest};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// assert_eq!(battle.awaiting(), Some(DiceRequest::Pips { army: 0 }));
    /// battle.apply(Action::RollPips { die: DieScore::new(4).unwrap() }).unwrap();
    /// assert_eq!(battle.awaiting(), None); // the movement phase waits for moves, not dice
    /// // The armies are too far apart to shoot or fight: the bound ends and the Britons roll.
    /// battle.apply(Action::EndMovement).unwrap();
    /// assert_eq!(battle.awaiting(), Some(DiceRequest::Pips { army: 1 }));
    /// ```
    pub fn awaiting(&self) -> Option<DiceRequest> {
        match self.phase {
            Phase::AwaitingPips if self.has_commands() => Some(DiceRequest::CommandPips {
                army: self.active,
                commands: self.rolling_commands().iter().map(|c| c.id).collect(),
            }),
            Phase::AwaitingPips => Some(DiceRequest::Pips { army: self.active }),
            Phase::Shooting => Some(DiceRequest::Shot {
                shooters: self.pending_shooters(),
            }),
            Phase::CloseCombat => Some(DiceRequest::Combat {
                pairs: self.pending_combats().iter().map(|p| (p.a, p.b)).collect(),
            }),
            _ => None,
        }
    }

    /// Whether it is the active army's own first bound (§6.3, §7.5).
    pub fn first_bound_of_active(&self) -> bool {
        self.bounds_begun[self.active] == 1
    }

    /// Camps, cities and forts with defenders in them, and whose they are (§8.1, §4.7).
    ///
    /// An army's camp counts as held by it while anyone is inside (its defender, or an enemy
    /// sacking it) or its camp followers still defend it; an empty camp without camp followers is
    /// undefended and held by nobody (§4.6). A sacked camp is left on the table as terrain (§4.7,
    /// FAQ19 reading): it is no longer a camp, so nobody holds it, it projects no threat zone and
    /// is neither assaulted nor sacked again; its going stays what it always was, good going for
    /// an ordinary camp and bad going for an Edifice declared as the camp (§4.5: an Edifice is bad
    /// going, and serving as a camp is the one other thing it may do). A City or Fort is held by the army with an element in
    /// play wholly inside it; an empty City whose denizens still defend it is held by the army
    /// controlling it (§4.2).
    pub fn held_strongholds(&self) -> Vec<HeldStronghold> {
        self.held_strongholds_kept().into_owned()
    }

    /// [`Battle::held_strongholds`] from the state's memo when it is this state's (worked out
    /// once per state, #15), else afresh; debug builds compare the memo with a fresh list.
    pub(crate) fn held_strongholds_kept(&self) -> std::borrow::Cow<'_, [HeldStronghold]> {
        // A table with no camp, City or Fort has nothing to hold, and nothing to keep.
        if self.each_camp().next().is_none()
            && !self
                .setup
                .battlefield
                .areas()
                .any(|(_, a)| a.kind.is_fortified())
        {
            return std::borrow::Cow::Borrowed(&[]);
        }
        match self.cache.held(self, || self.held_strongholds_afresh()) {
            Some(kept) => {
                debug_assert!(
                    kept == self.held_strongholds_afresh().as_slice(),
                    "the memo of the strongholds held is stale"
                );
                std::borrow::Cow::Borrowed(kept)
            }
            None => std::borrow::Cow::Owned(self.held_strongholds_afresh()),
        }
    }

    /// [`Battle::held_strongholds`] worked out.
    fn held_strongholds_afresh(&self) -> Vec<HeldStronghold> {
        let cfg = &self.setup.config;
        // Every corner of `e` in `outline` (`Polygon::contains`, which takes in a band of
        // TOLERANCE about the edges), `bx` the outline's box. Pure speed (#15: in games with
        // camps this was most of a battle's time): such corners lie within the box widened by the
        // tolerance, and the front corners within half a width of the front edge's middle, so an
        // element whose middle is further from the box than that (with a slack far above any
        // rounding) is answered no without its corners.
        let held_in = |e: &ElementState, outline: &Polygon, bx: Option<(f64, f64, f64, f64)>| {
            let r = e.rect(cfg);
            if r.front_clear_of_box(bx, TOLERANCE) {
                debug_assert!(
                    !wholly_in(&r, outline),
                    "an element passed over by the box test is wholly inside"
                );
                return false;
            }
            wholly_in(&r, outline)
        };
        let inside = |outline: &Polygon| {
            let bx = finite_bounds(&outline.points);
            self.elements
                .iter()
                .find(|e| e.in_play() && held_in(e, outline, bx))
        };
        let mut v: Vec<HeldStronghold> = Vec::new();
        for camp in self.each_camp() {
            let (army, command) = (camp.army, camp.command);
            if self.camp_is_sacked(army, command) {
                continue;
            }
            let bx = finite_bounds(&camp.outline.points);
            let in_camp = |e: &&ElementState| e.in_play() && held_in(e, camp.outline, bx);
            // §4.6, §14.3: only elements that may defend this camp (not allied contingents, El
            // or SCh; with commands, of the camp's own command) hold it for its army.
            let own: Vec<ElementId> = self
                .elements
                .iter()
                .filter(in_camp)
                .filter(|e| self.may_defend_camp_of(e, army, command))
                .map(|e| e.id)
                .collect();
            let own_inside = !own.is_empty();
            let enemy_inside = self.elements.iter().filter(in_camp).any(|e| e.army != army);
            let followers = self.camp_followers_hold(army, command);
            if own_inside || enemy_inside || followers {
                v.push(HeldStronghold {
                    army,
                    perimeter: camp.outline.clone(),
                    civilians: (followers && !own_inside).then_some(camp.followers_id),
                    sacker: None,
                    command,
                    defenders: self.has_commands().then_some(own),
                });
            }
        }
        for (feature, area) in self.setup.battlefield.areas() {
            if !area.kind.is_fortified() {
                continue;
            }
            let city = self.cities.iter().find(|c| c.feature == feature);
            if let Some(h) = inside(&area.outline) {
                v.push(HeldStronghold {
                    army: h.army,
                    perimeter: area.outline.clone(),
                    civilians: None,
                    sacker: city.and_then(|c| c.sacker),
                    command: None,
                    defenders: None,
                });
            } else if let Some(c) = city {
                let defending = matches!(c.denizens, Denizens::Loyal | Denizens::Surrendered);
                if let (Some(army), true) = (c.controller, defending) {
                    v.push(HeldStronghold {
                        army,
                        perimeter: area.outline.clone(),
                        civilians: Some(denizens_id(feature)),
                        sacker: None,
                        command: None,
                        defenders: None,
                    });
                }
            }
        }
        v
    }

    /// Every City on the battlefield: who owns and controls it, its denizens, its sacker (§4.2).
    pub fn cities(&self) -> &[CityState] {
        &self.cities
    }

    /// Whether `army`'s camp still has its camp followers (§4.6).
    pub fn camp_followers_defend(&self, army: usize) -> bool {
        self.camp_followers.get(army).copied().unwrap_or(false)
    }

    pub(super) fn city_mut(&mut self, feature: usize) -> Option<&mut CityState> {
        self.cities.iter_mut().find(|c| c.feature == feature)
    }

    /// The City element `id` is sacking, if it is (§4.2).
    pub fn sacking(&self, id: ElementId) -> Option<&CityState> {
        self.cities.iter().find(|c| c.sacker == Some(id))
    }

    /// Elephants, Scythed Chariots and War Wagons may not end a move inside a City, nor inside a
    /// Fort unless the rules configuration lifts §17.37's exclusion (§4.2, §4.3, §17.36).
    fn check_occupiers(&self, moves: &[ElementMove]) -> Result<(), BattleError> {
        let cfg = &self.setup.config;
        for m in moves {
            let Some(e) = self.element(m.id) else {
                continue;
            };
            let kind = m.becomes.unwrap_or(e.kind);
            if !matches!(
                kind.troop_type(),
                TroopType::El | TroopType::SCh | TroopType::WWg
            ) {
                continue;
            }
            let r = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(kind));
            let barred = self.setup.battlefield.areas().any(|(_, a)| {
                (a.kind == AreaKind::City
                    || (a.kind == AreaKind::Fort && cfg.combat.fort_occupier_exclusion))
                    && wholly_in(&r, &a.outline)
            });
            if barred {
                return Err(BattleError::MayNotOccupy { id: m.id, kind });
            }
        }
        Ok(())
    }

    /// A camp-follower element may leave its own camp but never come back (§4.6): a move of one
    /// that does not start wholly inside its army's camp may not end reaching into it. (Reading:
    /// "leaving" is any position not wholly inside, so camp followers deployed outside the camp
    /// never enter it either.)
    fn check_camp_followers(&self, moves: &[ElementMove]) -> Result<(), BattleError> {
        let cfg = &self.setup.config;
        for m in moves {
            let Some(e) = self.element(m.id) else {
                continue;
            };
            if e.kind.troop_type() != TroopType::CampFollowers {
                continue;
            }
            let Some(camp) = self.own_camp(e) else {
                continue;
            };
            if wholly_in(&e.rect(cfg), camp) {
                continue;
            }
            let end = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(e.kind));
            let deep = |p: crate::geometry::Point| {
                camp.contains_strictly(p)
                    && camp
                        .edges()
                        .all(|w| w.distance_to_point(p) > crate::geometry::TOLERANCE)
            };
            let reaches_in = end.corners().iter().any(|c| deep(*c)) || deep(end.centre());
            if reaches_in {
                return Err(BattleError::CampFollowersMayNotReturn { id: m.id });
            }
        }
        Ok(())
    }

    /// What a tactical move's end positions take (§4.2, §4.6, §17.44): an element ending wholly
    /// inside a City that its army does not control, and that no element and no denizens defend,
    /// occupies it; one ending wholly inside an enemy camp that nobody defends sacks it.
    fn entries(&self, moves: &[ElementMove]) -> Vec<Event> {
        let cfg = &self.setup.config;
        let mut v = Vec::new();
        for m in moves {
            let Some(e) = self.element(m.id) else {
                continue;
            };
            let r = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(m.becomes.unwrap_or(e.kind)));
            let wholly = |p: &Polygon| r.corners().iter().all(|c| p.contains(*c));
            let occupied = |p: &Polygon| {
                self.elements
                    .iter()
                    .any(|o| o.in_play() && o.id != e.id && wholly_in(&o.rect(cfg), p))
            };
            for c in &self.cities {
                let Some(TerrainFeature::Area(area)) =
                    self.setup.battlefield.features.get(c.feature)
                else {
                    continue;
                };
                let defended = c.controller.is_some()
                    && matches!(c.denizens, Denizens::Loyal | Denizens::Surrendered);
                if c.controller != Some(e.army)
                    && wholly(&area.outline)
                    && !occupied(&area.outline)
                    && !defended
                {
                    v.push(Event::CityCaptured {
                        city: c.feature,
                        by: e.army,
                        sacker: None,
                    });
                }
            }
            for camp in self.camp_refs() {
                let (army, command) = (camp.army, camp.command);
                let sacked = Event::CampSacked { army, command };
                if army != e.army
                    && wholly(camp.outline)
                    && !self.camp_is_sacked(army, command)
                    && !self.camp_followers_hold(army, command)
                    && !occupied(camp.outline)
                    && !v.contains(&sacked)
                {
                    v.push(sacked);
                }
            }
        }
        v
    }

    /// What moves may read, with the strongholds of [`Battle::held_strongholds`].
    pub fn move_context<'a>(&'a self, strongholds: &'a [HeldStronghold]) -> MoveContext<'a> {
        let mut ctx = MoveContext {
            strongholds,
            battlefield: &self.setup.battlefield,
            config: &self.setup.config,
            elements: &self.elements,
            army: self.active,
            river: self.river,
            plough_rough: self.plough_rough,
            first_bound_of_army: self.first_bound_of_active(),
            close_combat: None,
            refusals: Refusals::Named,
        };
        ctx.close_combat = self.cache.close_combat(&ctx);
        ctx
    }

    /// The events `action` would cause, or why it is refused. Changes nothing.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, BattleError, Event};
    /// use dbcore::error::ErrorInfo;
    /// use dbcore::DieScore;
    ///
    /// let battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let roll = Action::RollPips { die: DieScore::new(3).unwrap() };
    /// let events = battle.check(&roll).unwrap();
    /// assert!(events.iter().any(|e| matches!(e, Event::PipsRolled { pips: 3, .. })));
    /// assert!(battle.actions().is_empty()); // checking changed nothing
    ///
    /// // Ending the movement before the PIP die is rolled is refused, naming §6.1.
    /// let err = battle.check(&Action::EndMovement).unwrap_err();
    /// assert!(matches!(err, BattleError::WrongPhase { .. }));
    /// assert_eq!(err.rule(), Some("§6.1"));
    /// ```
    pub fn check(&self, action: &Action) -> Result<Vec<Event>, BattleError> {
        self.check_simulated(action, Refusals::Named)
            .map(|(events, _)| events)
    }

    /// [`Battle::check`], with the state the check simulated when it played the action out on a
    /// clone (the end of the tactical moves, a shot, a close combat): the state committing the
    /// events gives, which [`Battle::apply`] adopts instead of committing them a second time.
    /// `refusals` says whether a refused tactical move names the first rule it breaks or any
    /// (see [`Refusals`]); every action accepted gives the same events either way.
    pub(super) fn check_simulated(
        &self,
        action: &Action,
        refusals: Refusals,
    ) -> Result<(Vec<Event>, Option<Box<Battle>>), BattleError> {
        crate::battle::limits::check_action(action)?;
        if let Phase::Finished { .. } = self.phase {
            return Err(BattleError::Finished);
        }
        let wrong = |name: &str| BattleError::WrongPhase {
            action: name.to_string(),
            phase: self.phase,
        };
        let plain = match action {
            Action::RollPips { die } => {
                if self.phase != Phase::AwaitingPips {
                    return Err(wrong("rolling PIPs"));
                }
                if self.has_commands() {
                    return Err(BattleError::CommandDice {
                        needed: self.rolling_commands().len(),
                        given: 1,
                    });
                }
                let mut v = vec![Event::PipsRolled {
                    army: self.active,
                    die: *die,
                    pips: die.get(),
                }];
                // §3.1, §17.13: the game's very first PIP score decides Plough.
                if self.bound == 1 && die.get() == 1 {
                    v.push(Event::PloughTurnedRough);
                }
                // §4.2, §17.32: a score of 5 or 6 ends the moving side's sacking.
                if die.get() >= 5 {
                    for c in &self.cities {
                        let Some(id) = c.sacker else { continue };
                        if self.element(id).is_some_and(|e| e.army == self.active) {
                            v.push(Event::SackingEnded {
                                city: c.feature,
                                id,
                            });
                        }
                    }
                }
                Ok(v)
            }
            Action::RollCommandPips { dice } => {
                if self.phase != Phase::AwaitingPips {
                    return Err(wrong("rolling PIPs"));
                }
                self.check_command_pips(dice)
            }
            Action::Hold { ids } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("holding elements"));
                }
                self.check_hold(ids)
            }
            Action::Flee => {
                if self.phase != Phase::Movement {
                    return Err(wrong("the flight of the demoralised commands"));
                }
                if !self.flight_due() {
                    return Err(BattleError::NoFlightDue { army: self.active });
                }
                let mut sim = self.clone();
                let mut events = Vec::new();
                sim.demoralised_flight(&mut events);
                return Ok((events, Some(Box::new(sim))));
            }
            Action::DiceRiver { die } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("dicing for the river"));
                }
                let has_river = self
                    .setup
                    .battlefield
                    .features
                    .iter()
                    .any(|f| matches!(f, TerrainFeature::River(_)));
                if !has_river {
                    return Err(BattleError::NoRiver);
                }
                if self.river.is_some() {
                    return Err(BattleError::RiverKnown);
                }
                let state = RiverState::from_die(die.get())
                    .map_err(|_| BattleError::Dice(DiceError(die.get().into())))?;
                Ok(vec![Event::RiverDiced { die: *die, state }])
            }
            Action::Move { order } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a tactical move"));
                }
                if self.flight_due() {
                    return Err(BattleError::FlightDue { army: self.active });
                }
                for &id in order_id_slice(order) {
                    let e = self.element(id).ok_or(BattleError::UnknownElement { id })?;
                    if e.army != self.active {
                        return Err(BattleError::NotYourElement { id, army: e.army });
                    }
                    if e.status == Status::Afloat {
                        return Err(BattleError::Landing {
                            reason: format!(
                                "element {id} is afloat: it comes ashore only by the landing"
                            ),
                        });
                    }
                    if !e.in_play() {
                        return Err(BattleError::ElementLost { id });
                    }
                    if self.sacking(id).is_some() {
                        return Err(BattleError::Sacking { id });
                    }
                }
                let command = self.paying_command(order)?;
                let strongholds = self.held_strongholds_kept();
                let ctx = MoveContext {
                    refusals,
                    ..self.move_context(&strongholds)
                };
                let plan = plan_move(&ctx, order).map_err(BattleError::Move)?;
                if let Some(c) = command.filter(|c| c.demoralised) {
                    self.check_demoralised_move(c, &plan)?;
                }
                let cost =
                    self.pip_cost_boxed(order, &plan, ctx.close_combat.map(|m| m.area_boxes(&ctx)));
                let available = command.map_or(self.pips, |c| c.pips);
                if cost.total > available {
                    return Err(BattleError::NotEnoughPips {
                        cost: cost.total,
                        left: available,
                    });
                }
                self.check_occupiers(&plan.moves)?;
                self.check_camp_followers(&plan.moves)?;
                self.check_sallied(&plan.moves)?;
                let left = available - cost.total;
                let entered = self.entries(&plan.moves);
                let mut v = vec![
                    Event::Moved {
                        movers: plan.movers,
                        moves: plan.moves,
                        distance: plan.distance,
                        along_road: plan.along_road,
                        into_contact: plan.into_contact,
                    },
                    Event::PipsSpent {
                        cost,
                        left,
                        command: command.map(|c| c.id),
                    },
                ];
                v.extend(entered);
                Ok(v)
            }
            Action::Land { ids, poses } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a landing"));
                }
                if self.flight_due() {
                    return Err(BattleError::FlightDue { army: self.active });
                }
                self.check_land(ids, poses)
            }
            Action::Sally { city, pose } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a sally"));
                }
                if self.flight_due() {
                    return Err(BattleError::FlightDue { army: self.active });
                }
                self.check_sally(*city, *pose)
            }
            Action::EndMovement => {
                if self.phase != Phase::Movement {
                    return Err(wrong("ending the tactical moves"));
                }
                let mut sim = self.clone();
                let mut events = Vec::new();
                // §14.5: a flight still due is made first.
                if sim.flight_due() {
                    sim.demoralised_flight(&mut events);
                }
                if let Some(e) = self.not_landed() {
                    sim.commit(&e);
                    events.push(e);
                }
                sim.continue_bound(Phase::Shooting, &mut events);
                return Ok((events, Some(Box::new(sim))));
            }
            Action::Shoot {
                shooter,
                target,
                support,
                dice,
                recoil_own_depth,
                shoots_back,
            } => {
                if self.phase != Phase::Shooting {
                    return Err(wrong("shooting"));
                }
                return self
                    .check_shot(
                        *shooter,
                        *target,
                        support,
                        *dice,
                        recoil_own_depth,
                        *shoots_back,
                    )
                    .map(|(events, sim)| (events, Some(Box::new(sim))));
            }
            Action::Fight {
                a,
                b,
                dice,
                recoil_own_depth,
                c_in_c_bonus,
            } => {
                if self.phase != Phase::CloseCombat {
                    return Err(wrong("close combat"));
                }
                return self
                    .check_fight(*a, *b, *dice, recoil_own_depth, c_in_c_bonus)
                    .map(|(events, sim)| (events, Some(Box::new(sim))));
            }
        };
        plain.map(|events| (events, None))
    }

    /// Do `action`: the events of [`Battle::check`], committed. On a refusal nothing changes.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, ElementId, MoveOrder, Phase};
    /// use dbcore::geometry::Pose;
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// battle.apply(Action::RollPips { die: DieScore::new(2).unwrap() }).unwrap();
    /// assert_eq!((battle.phase(), battle.pips()), (Phase::Movement, 2));
    ///
    /// // Blades (element 5) move 1 BW north for 1 PIP.
    /// let order = MoveOrder::Element { id: ElementId(5), path: vec![Pose::new(7.5, 5.0, 0.0)] };
    /// battle.apply(Action::Move { order }).unwrap();
    /// assert_eq!(battle.pips(), 1);
    /// assert_eq!(battle.element(ElementId(5)).unwrap().pose.y, 5.0);
    ///
    /// // Blades move at most 2 BW (§7.3): 4 BW more is refused and nothing changes.
    /// let before = battle.clone();
    /// let order = MoveOrder::Element { id: ElementId(5), path: vec![Pose::new(7.5, 9.0, 0.0)] };
    /// assert!(battle.apply(Action::Move { order }).is_err());
    /// assert_eq!(battle, before);
    /// ```
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, BattleError> {
        let (events, sim) = self.check_simulated(&action, Refusals::Named)?;
        self.commit_checked(action, &events, sim);
        Ok(events)
    }

    /// Commit `action`, which [`Battle::check_simulated`] accepted with `events` (and `sim`, the
    /// state it simulated, if it did): the simulated state is adopted as it is, else the events
    /// are committed one by one. Either way the state is the one committing the events gives.
    pub(super) fn commit_checked(
        &mut self,
        action: Action,
        events: &[Event],
        sim: Option<Box<Battle>>,
    ) {
        match sim {
            Some(sim) => self.adopt(*sim, events),
            None => {
                // Each commit keeps the memo for the state it leaves (see `commit`).
                for e in events {
                    self.commit(e);
                }
            }
        }
        Arc::make_mut(&mut self.actions).push(action);
        self.stamp = super::checked::Stamp::fresh();
    }

    /// Become `sim`, the state a check simulated from this one by committing `events`.
    ///
    /// The one thing the simulation knows that no event carries is kept from it: the pursuers of
    /// this bound (§12.5), whose new contacts are fought next bound, not in this one. (Before the
    /// simulated state was adopted, committing the events lost that list, so a pursuer could be
    /// made to fight its new contact in the same bound.) The per-state memo (cache.rs) the simulation filled is kept when
    /// every answer in it is for the adopted state, so the next check (the next Fight of the
    /// same phase) does not work out the close combats again.
    fn adopt(&mut self, mut sim: Battle, events: &[Event]) {
        #[cfg(not(debug_assertions))]
        let _ = events;
        #[cfg(debug_assertions)]
        let committed = {
            let mut b = self.clone();
            for e in events {
                b.commit(e);
            }
            b
        };
        let strongholds = sim.held_strongholds_kept();
        if !sim.cache.all_for(&sim.move_context(&strongholds)) {
            sim.cache = sim.cache.emptied();
        }
        // The old state goes first, so that the history both share has one owner again and the
        // next push does not copy it.
        *self = sim;
        #[cfg(debug_assertions)]
        {
            let mut committed = committed;
            committed.pursued.clone_from(&self.pursued);
            debug_assert_eq!(
                *self, committed,
                "an adopted simulation differs from its events"
            );
        }
    }

    pub(super) fn commit(&mut self, e: &Event) {
        // The per-state memo (cache.rs) describes the elements as they are: an event that
        // changes one empties it, and the new state fills its own when first asked, but for
        // the close-combat flags of elements standing well clear of every element the event
        // moved, which no contact can have changed.
        if !e.changes_elements() {
            self.commit_event(e);
            return;
        }
        let cfg = &self.setup.config;
        let carry = std::mem::take(&mut self.cache).carry(e, &self.elements, cfg);
        self.commit_event(e);
        self.cache = carry.after(&self.elements, &self.setup.config);
    }

    fn commit_event(&mut self, e: &Event) {
        match e {
            Event::BoundStarted { army, bound } => {
                self.active = *army;
                self.bound = *bound;
                self.bounds_begun[*army] += 1;
                self.phase = Phase::AwaitingPips;
                self.pips = 0;
                for c in &mut self.commands {
                    c.pips = 0;
                    c.die = None;
                    c.held.clear();
                    // §14.5: a command already demoralised flees again as its bound begins.
                    c.flight_due = c.army == *army && c.demoralised && !c.removed;
                }
                for el in &mut self.elements {
                    el.moves_this_bound = 0;
                    el.moved_this_bound = 0.0;
                }
            }
            Event::PipsRolled { pips, .. } => {
                self.pips = *pips;
                self.phase = Phase::Movement;
            }
            Event::PloughTurnedRough => self.plough_rough = true,
            Event::RiverDiced { state, .. } => self.river = Some(*state),
            Event::Moved {
                movers,
                moves,
                distance,
                ..
            } => {
                for m in moves {
                    if let Some(el) = self.elements.iter_mut().find(|x| x.id == m.id) {
                        el.pose = m.to.snapped();
                        if let Some(k) = m.becomes {
                            el.kind = k;
                            el.dismounts_as = None;
                        }
                    }
                }
                for id in movers {
                    if let Some(el) = self.elements.iter_mut().find(|x| x.id == *id) {
                        el.moves_this_bound += 1;
                        el.moved_this_bound += distance;
                    }
                }
            }
            Event::PipsSpent {
                left,
                command: None,
                ..
            } => self.pips = *left,
            Event::PipsSpent {
                left,
                command: Some(id),
                ..
            } => self.set_command_pips(*id, *left),
            Event::CommandPipsRolled { army, rolls } => {
                for r in rolls {
                    if let Some(c) = self
                        .commands
                        .iter_mut()
                        .find(|c| c.army == *army && c.id == r.command)
                    {
                        c.die = Some(r.die);
                        c.pips = r.pips;
                    }
                }
                self.pips = self.army_pips(*army);
                self.phase = Phase::Movement;
            }
            Event::CInCBonusUsed { army, .. } => {
                for c in self
                    .commands
                    .iter_mut()
                    .filter(|c| c.army == *army && c.c_in_c)
                {
                    c.bonus_used = true;
                }
            }
            Event::Held {
                army,
                command,
                ids,
                left,
            } => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == *army && c.id == *command)
                {
                    c.held.extend(ids.iter().copied());
                }
                self.set_command_pips(*command, *left);
            }
            Event::DemoralisedFlight { army, commands } => {
                for c in self
                    .commands
                    .iter_mut()
                    .filter(|c| c.army == *army && commands.contains(&c.id))
                {
                    c.flight_due = false;
                }
            }
            Event::CommandDemoralised { army, command, .. } => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == *army && c.id == *command)
                {
                    c.demoralised = true;
                }
            }
            Event::CommandRemoved {
                army, command, ids, ..
            } => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == *army && c.id == *command)
                {
                    c.removed = true;
                }
                for id in ids {
                    for c in &mut self.cities {
                        if c.sacker == Some(*id) {
                            c.sacker = None;
                        }
                    }
                    if let Some(e) = self.elements.iter_mut().find(|e| e.id == *id) {
                        e.status = Status::Lost {
                            cause: super::state::LossCause::Removed,
                        };
                    }
                }
            }
            Event::PhaseStarted { phase } => self.phase = *phase,
            Event::Shot {
                shooter,
                target,
                support,
                shot_back,
                ..
            } => {
                self.shot.push(*shooter);
                self.shot.extend(support.iter().copied());
                self.shots.push((*shooter, *target));
                self.shots.extend(support.iter().map(|s| (*s, *target)));
                if *shot_back {
                    self.shot.push(*target);
                    self.shots.push((*target, *shooter));
                }
            }
            Event::Fought { a, b, .. } => {
                self.fought.push(*a);
                self.fought.push(*b);
            }
            Event::Outcome { effect } => self.commit_effect(effect),
            Event::CampSacked { army, command } => self.commit_camp_sacked(*army, *command),
            Event::CampFollowersDestroyed { army, command } => {
                self.commit_camp_followers_destroyed(*army, *command)
            }
            Event::CityCaptured { city, by, sacker } => {
                if let Some(c) = self.city_mut(*city) {
                    c.controller = Some(*by);
                    c.sacker = *sacker;
                    if sacker.is_some() {
                        c.denizens = Denizens::Destroyed;
                    }
                }
            }
            Event::DenizensDestroyed { city } => {
                if let Some(c) = self.city_mut(*city) {
                    c.denizens = Denizens::Destroyed;
                }
            }
            Event::CitySurrendered { city, to } => {
                if let Some(c) = self.city_mut(*city) {
                    c.denizens = Denizens::Surrendered;
                    c.controller = Some(*to);
                }
            }
            Event::Landed { moves, .. } => {
                for m in moves {
                    if let Some(el) = self.elements.iter_mut().find(|x| x.id == m.id) {
                        el.pose = m.to.snapped();
                        el.status = Status::InPlay;
                        el.moves_this_bound = 1;
                    }
                }
            }
            Event::NotLanded { ids, .. } => {
                for el in self.elements.iter_mut().filter(|x| ids.contains(&x.id)) {
                    el.status = Status::Lost {
                        cause: super::state::LossCause::OffTable,
                    };
                }
            }
            Event::DenizensSallied { city, element } => {
                if !self.elements.iter().any(|e| e.id == element.id) {
                    self.elements.push(element.clone());
                }
                if let Some(c) = self.city_mut(*city) {
                    c.denizens = Denizens::Sallied;
                }
            }
            Event::SackingEnded { city, .. } => {
                if let Some(c) = self.city_mut(*city) {
                    c.sacker = None;
                }
            }
            Event::BoundEnded { .. } => {
                self.pips = 0;
                for c in &mut self.commands {
                    c.pips = 0;
                }
                self.shot.clear();
                self.shots.clear();
                self.fought.clear();
                self.pursued.clear();
            }
            Event::BattleWon { verdict } => {
                self.verdict = Some(verdict.clone());
                self.phase = Phase::Finished {
                    winner: verdict.winner,
                };
            }
        }
    }

    /// What a planned move costs (§6.3).
    pub fn pip_cost(&self, order: &MoveOrder, plan: &MovePlan) -> PipCost {
        self.pip_cost_boxed(order, plan, None)
    }

    /// [`Battle::pip_cost`] with the terrain outlines' boxes kept in `boxes` (the per-state
    /// memo's, #15) when they are this table's: the same cost.
    pub(crate) fn pip_cost_boxed(
        &self,
        order: &MoveOrder,
        plan: &MovePlan,
        boxes: Option<&AreaBoxes>,
    ) -> PipCost {
        let cfg = &self.setup.config;
        // A lone mover, or two, without a heap block (#15: most moves are one element's).
        let movers: crate::few::Few<&ElementState> = plan
            .movers
            .iter()
            .filter_map(|id| self.element(*id))
            .collect();
        let single_or_column = movers.len() == 1 || matches!(order, MoveOrder::Column { .. });
        let first_move = movers.iter().all(|e| e.moves_this_bound == 0);
        if single_or_column && first_move && plan.along_road && plan.full_distance_forward {
            return PipCost {
                base: 0,
                extras: Vec::new(),
                total: 0,
            };
        }
        let mut extras = Vec::new();
        if !self.first_bound_of_active() {
            // (a) unwieldy troops, or a single element garrisoning a stronghold.
            let unwieldy = movers.iter().any(|e| {
                e.kind.costs_extra_pip()
                    && !(e.kind.troop_type() == TroopType::SCh
                        && plan.into_contact
                        && cfg.pips.sch_extra_pip_waived_into_contact)
            });
            let garrison = movers.len() == 1 && self.is_garrisoning(movers[0]);
            if unwieldy || garrison {
                extras.push(PipExtra::Unwieldy);
            }
            // (b) command: never for a move by the general's own element.
            // In Big Battle and Giant, the general is the paying command's (§14.4, §6.4).
            let own_general = movers
                .first()
                .and_then(|m| self.paying_command_of(m.id))
                .map(|c| c.general);
            let general_moves = match own_general {
                Some(g) => movers.iter().any(|e| e.id == g),
                None => movers.iter().any(|e| e.general),
            };
            if !general_moves {
                match self.elements.iter().find(|g| match own_general {
                    Some(id) => g.id == id,
                    None => g.general && g.army == self.active,
                }) {
                    Some(g) if g.in_play() => {
                        let grect = g.rect(cfg);
                        if self.is_sheltered(&grect, boxes) {
                            extras.push(PipExtra::GeneralSheltered);
                        } else {
                            let rects: crate::few::Few<ElementRect> =
                                movers.iter().map(|e| e.rect(cfg)).collect();
                            // §6.4 as `Battlefield::within_command` measures it: the nearest
                            // mover against the command distance. Every command distance is at
                            // least the screened one, so a mover that near is within command
                            // without asking whether it is screened (the costly part).
                            // The gap between two bases is at most the distance between
                            // their centres, so a mover whose centre is that near (with room
                            // for rounding) needs no exact measure either.
                            // The gap itself is measured only where bounds from the centres
                            // do not settle the question (`CommandGap`).
                            let gap = CommandGap::new(&grect, &rects);
                            let within = |limit: f64| gap.within(limit);
                            if !within(COMMAND_DISTANCE_SCREENED) {
                                let camps = self.camps();
                                let all_lh =
                                    movers.iter().all(|e| e.kind.troop_type() == TroopType::LH);
                                let bf = &self.setup.battlefield;
                                let limit = bf
                                    .command_distance_boxed(&grect, &rects, &camps, all_lh, boxes);
                                if !within(limit) {
                                    extras.push(PipExtra::BeyondCommand { limit });
                                }
                            }
                        }
                    }
                    _ => extras.push(PipExtra::GeneralLost),
                }
            }
        }
        // §4.2, §17.10: passing a City gate to gate costs 1 PIP per element; the extras of (a) and
        // (b) still apply once to the move as a whole (reading: §6.3 charges them per move).
        let base = match order {
            MoveOrder::ThroughCity { .. } => u8::try_from(movers.len()).unwrap_or(u8::MAX),
            _ => 1,
        };
        let total = base.saturating_add(extras.len() as u8);
        PipCost {
            base,
            extras,
            total,
        }
    }

    /// Every camp on the table, allied commands' own camps included (§14.3).
    fn camps(&self) -> Vec<Polygon> {
        self.camp_refs()
            .into_iter()
            .map(|c| c.outline.clone())
            .collect()
    }

    /// Wholly inside a BUA, camp, wood, oasis, marsh or gully (§6.3 (b), §17.46).
    ///
    /// `boxes` are the outlines' boxes by feature index when known (#15): a corner more than
    /// twice the tolerance clear of an outline's box is not in it, so neither is the element.
    fn is_sheltered(&self, r: &ElementRect, boxes: Option<&AreaBoxes>) -> bool {
        let corners = r.corners();
        let inside = |p: &Polygon| corners.iter().all(|c| p.contains(*c));
        let bf = &self.setup.battlefield;
        let boxes = boxes.and_then(|k| k.of_table(bf));
        let apart = |i: usize| {
            boxes.is_some_and(|k| {
                crate::battlefield::sight_clear_of_box(corners[0], corners[0], k[i])
            })
        };
        bf.areas().any(|(i, a)| {
            (a.kind.is_bua()
                || matches!(
                    a.kind,
                    AreaKind::Wood | AreaKind::Oasis | AreaKind::Marsh | AreaKind::Gully
                ))
                && !apart(i)
                && inside(&a.outline)
        }) || self.each_camp().any(|c| inside(c.outline))
    }

    /// A single element wholly inside its own camp, or a City or Fort (§6.3 (a)).
    fn is_garrisoning(&self, e: &ElementState) -> bool {
        let r = e.rect(&self.setup.config);
        let inside = |p: &Polygon| r.corners().iter().all(|c| p.contains(*c));
        self.own_camp(e).is_some_and(inside)
            || self
                .setup
                .battlefield
                .areas()
                .any(|(_, a)| a.kind.is_fortified() && inside(&a.outline))
    }

    /// Elements in play of each army, and those lost.
    pub fn counts(&self) -> Vec<(usize, usize)> {
        (0..self.setup.armies.len())
            .map(|a| {
                let mine = self.elements.iter().filter(|e| e.army == a);
                let lost = mine
                    .clone()
                    .filter(|e| matches!(e.status, Status::Lost { .. }))
                    .count();
                (mine.count() - lost, lost)
            })
            .collect()
    }
}

/// How much nearer than the screened command distance a mover's centre must be to its general's
/// for [`Battle::pip_cost`] to take it as within command without measuring the gap between the
/// bases: far more than the rounding of either measure, far less than any real distance.
const CENTRE_ROUNDING: f64 = 1e-6;

/// Largest coordinate of a centre (and side of a base) for which [`CommandGap`] trusts its bounds: far beyond any
/// table ([`crate::limits::MAX_COORDINATE`]), where the rounding of every measure involved is
/// still far below [`CENTRE_ROUNDING`]. Beyond it (or with anything not finite) the gap is
/// measured.
const CENTRE_BOUND_REACH: f64 = 1e4;

/// The gap §6.4 measures between a general's base and the nearest base of a move, as
/// [`Battle::pip_cost`] asks it: whether it is within a command distance. The polygon gap is
/// measured only when a cheaper estimate cannot settle the question (#15: it was a tenth of the
/// cost of a checked move).
///
/// The estimate of a mover's gap is the least distance from a corner of either base to the
/// other base (a rectangle: worked out in its own frame). It is never below the gap, since it is
/// a distance between points of the two bases, and it is the gap when the bases are apart: the
/// nearest points of two convex shapes apart can always be taken with one a corner. Bases
/// whose centres are further apart than their two half-diagonals are apart (every point of a
/// base lies within its half-diagonal of its centre); for others, that difference bounds the
/// gap from below. Each bound is used with a margin of [`CENTRE_ROUNDING`], far above the
/// rounding of every measure involved, so every answer is the one the measured gap gives.
struct CommandGap<'a> {
    general: &'a ElementRect,
    movers: &'a [ElementRect],
    /// Some mover's centre within the screened command distance of the general's (with
    /// room for rounding): within every command distance, without a measure.
    near: bool,
    /// Bounds on the least gap, the margin taken: (below, above); `None` when anything is
    /// not finite or lies beyond [`CENTRE_BOUND_REACH`].
    bounds: Option<(f64, f64)>,
    /// The measured gap, once measured.
    measured: std::cell::Cell<Option<f64>>,
}

/// A base in its own frame: its centre, its unit axes (right, forward) and its half sides.
struct Frame {
    centre: crate::geometry::Point,
    right: crate::geometry::Point,
    forward: crate::geometry::Point,
    half_width: f64,
    half_depth: f64,
}

impl Frame {
    fn of(r: &ElementRect) -> Frame {
        let forward = r.pose.forward();
        Frame {
            centre: r.centre(),
            right: forward.right(),
            forward,
            half_width: 0.5 * r.width,
            half_depth: 0.5 * r.depth,
        }
    }

    /// The distance from `p` to the base.
    fn distance_to(&self, p: crate::geometry::Point) -> f64 {
        let d = p - self.centre;
        let u = (d.dot(self.right).abs() - self.half_width).max(0.0);
        let v = (d.dot(self.forward).abs() - self.half_depth).max(0.0);
        (u * u + v * v).sqrt()
    }
}

impl<'a> CommandGap<'a> {
    fn new(general: &'a ElementRect, movers: &'a [ElementRect]) -> CommandGap<'a> {
        let gc = general.centre();
        let near = movers.iter().any(|m| {
            gc.distance(m.centre()) <= COMMAND_DISTANCE_SCREENED + TOLERANCE - CENTRE_ROUNDING
        });
        let trusted = |r: &ElementRect| {
            let c = r.centre();
            [c.x, c.y, r.width, r.depth]
                .iter()
                .all(|v| v.is_finite() && v.abs() <= CENTRE_BOUND_REACH)
        };
        let bounds = (!near && trusted(general) && movers.iter().all(trusted)).then(|| {
            let half_diagonal = |r: &ElementRect| 0.5 * r.width.hypot(r.depth);
            let g = Frame::of(general);
            let g_corners = general.corners();
            movers
                .iter()
                .fold((f64::INFINITY, f64::INFINITY), |(below, above), m| {
                    let f = Frame::of(m);
                    let estimate = g_corners
                        .iter()
                        .map(|&p| f.distance_to(p))
                        .chain(m.corners().iter().map(|&p| g.distance_to(p)))
                        .fold(f64::INFINITY, f64::min);
                    let apart_by =
                        g.centre.distance(f.centre) - half_diagonal(general) - half_diagonal(m);
                    let low = if apart_by > CENTRE_ROUNDING {
                        estimate
                    } else {
                        apart_by
                    };
                    (
                        below.min(low - CENTRE_ROUNDING),
                        above.min(estimate + CENTRE_ROUNDING),
                    )
                })
        });
        CommandGap {
            general,
            movers,
            near,
            bounds: bounds.filter(|&(below, above)| below.is_finite() && above.is_finite()),
            measured: std::cell::Cell::new(None),
        }
    }

    /// Whether the gap is at most `limit` (within a tolerance, §0.3).
    fn within(&self, limit: f64) -> bool {
        if self.near {
            // The measured gap would be taken as 0 here.
            return 0.0 <= limit + TOLERANCE;
        }
        if let Some((below, above)) = self.bounds {
            if above <= limit + TOLERANCE {
                return true;
            }
            if below > limit + TOLERANCE {
                return false;
            }
        }
        self.measured() <= limit + TOLERANCE
    }

    /// The least gap between the general's base and a mover's.
    fn measured(&self) -> f64 {
        if let Some(v) = self.measured.get() {
            return v;
        }
        let gp = self.general.polygon();
        let v = self
            .movers
            .iter()
            .map(|m| gp.distance_to_polygon(&m.polygon()))
            .fold(f64::INFINITY, f64::min);
        self.measured.set(Some(v));
        v
    }
}

/// Wholly inside `p`.
fn wholly_in(r: &ElementRect, p: &Polygon) -> bool {
    r.corners().iter().all(|c| p.contains(*c))
}

/// Each City's owner at set-up: the army of an element garrisoning it, else
/// [`BattleSetup::city_owner`] (§4.2, §5.4).
fn initial_cities(setup: &BattleSetup, elements: &[ElementState]) -> Vec<CityState> {
    setup
        .battlefield
        .areas()
        .filter(|(_, a)| a.kind == AreaKind::City)
        .map(|(feature, a)| {
            let owner = elements
                .iter()
                .find(|e| wholly_in(&e.rect(&setup.config), &a.outline))
                .map(|e| e.army)
                .or(setup.city_owner);
            CityState {
                feature,
                owner,
                controller: owner,
                denizens: Denizens::Loyal,
                sacker: None,
            }
        })
        .collect()
}

/// The elements an order names.
pub fn order_ids(order: &MoveOrder) -> Vec<ElementId> {
    order_id_slice(order).to_vec()
}

/// [`order_ids`] borrowed from the order, for the checks that only read them (#15).
pub(crate) fn order_id_slice(order: &MoveOrder) -> &[ElementId] {
    match order {
        MoveOrder::Element { id, .. } | MoveOrder::Dismount { id } => std::slice::from_ref(id),
        MoveOrder::Group { ids, .. }
        | MoveOrder::Column { ids, .. }
        | MoveOrder::IntoContact { ids, .. }
        | MoveOrder::ThroughCity { ids, .. } => ids,
    }
}

#[cfg(test)]
mod command_gap_tests {
    use super::*;
    use crate::battlefield::{COMMAND_DISTANCE, COMMAND_DISTANCE_LIGHT_HORSE};
    use crate::geometry::Pose;
    use rand_core::{RngCore, SeedableRng};

    /// `Battle::pip_cost`'s question before #15 measured only where needed: the reference.
    fn within_reference(grect: &ElementRect, rects: &[ElementRect], limit: f64) -> bool {
        let gc = grect.centre();
        let near = |m: &ElementRect| {
            gc.distance(m.centre()) <= COMMAND_DISTANCE_SCREENED + TOLERANCE - CENTRE_ROUNDING
        };
        let nearest = if rects.iter().any(near) {
            0.0
        } else {
            let gp = grect.polygon();
            rects
                .iter()
                .map(|m| gp.distance_to_polygon(&m.polygon()))
                .fold(f64::INFINITY, f64::min)
        };
        nearest <= limit + TOLERANCE
    }

    fn unit(rng: &mut rand_pcg::Pcg64) -> f64 {
        rng.next_u32() as f64 / u32::MAX as f64
    }

    /// A coordinate: mostly on the table, sometimes an edge case.
    fn coordinate(rng: &mut rand_pcg::Pcg64, base: f64) -> f64 {
        match rng.next_u32() % 60 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 0.0,
            4 => -0.0,
            5 => 1e300,
            6 => -1e6,
            7 => 9_999.0,
            8 => 10_001.0,
            9 => 1e-300,
            _ => base,
        }
    }

    /// A side of a base: mostly an element's, sometimes degenerate, tiny or huge.
    fn side(rng: &mut rand_pcg::Pcg64) -> f64 {
        match rng.next_u32() % 30 {
            0 => 0.0,
            1 => 1e-12,
            2 => 50.0,
            3 => f64::NAN,
            4 => f64::INFINITY,
            _ => [0.5, 1.0, 0.75, 0.25][(rng.next_u32() % 4) as usize],
        }
    }

    #[test]
    fn command_gap_answers_as_the_measured_gap() {
        // DBA3.md §6.4: within command distance (4 BW screened, 8 BW, 20 BW for Light Horse),
        // measured between the nearest points of the general's base and the nearest mover's.
        let mut rng = rand_pcg::Pcg64::seed_from_u64(64);
        let limits = [
            COMMAND_DISTANCE_SCREENED,
            COMMAND_DISTANCE,
            COMMAND_DISTANCE_LIGHT_HORSE,
        ];
        let mut answers = [[0usize; 2]; 3];
        let mut measured = 0;
        for n in 0..60_000 {
            let (x, y) = (20.0 * unit(&mut rng), 20.0 * unit(&mut rng));
            let g = ElementRect::new(
                Pose::new(
                    coordinate(&mut rng, x),
                    coordinate(&mut rng, y),
                    360.0 * unit(&mut rng),
                ),
                side(&mut rng),
                side(&mut rng),
            );
            let movers: Vec<ElementRect> = (0..1 + rng.next_u32() % 3)
                .map(|_| {
                    // Mostly at a distance near a limit, where the bounds cannot decide.
                    let limit = limits[(rng.next_u32() % 3) as usize];
                    let depth = side(&mut rng);
                    if rng.next_u32() % 4 == 0 {
                        // Straight ahead of the general, facing the same way, the gap at the
                        // limit or within a rounding of it: where only the measure decides.
                        let off = [0.0, TOLERANCE, -TOLERANCE, 1e-7, -1e-7, 1e-9, -1e-9][n % 7];
                        let ahead = g.pose.front_mid() + g.pose.forward() * (limit + depth + off);
                        return ElementRect::new(
                            Pose::new(ahead.x, ahead.y, g.pose.facing),
                            side(&mut rng),
                            depth,
                        );
                    }
                    let reach = match rng.next_u32() % 4 {
                        0 => 30.0 * unit(&mut rng),
                        1 => limit + 1.5 * (unit(&mut rng) - 0.5),
                        2 => limit + [0.0, TOLERANCE, -TOLERANCE, 1e-7, -1e-7][n % 5],
                        _ => limit + 1.2 + 0.1 * unit(&mut rng),
                    };
                    let bearing = 360.0 * unit(&mut rng);
                    let at = g.centre() + crate::geometry::Point::from_bearing(bearing) * reach;
                    ElementRect::new(
                        Pose::new(
                            coordinate(&mut rng, at.x),
                            coordinate(&mut rng, at.y),
                            360.0 * unit(&mut rng),
                        ),
                        side(&mut rng),
                        depth,
                    )
                })
                .collect();
            let gap = CommandGap::new(&g, &movers);
            // In the order `pip_cost` asks: the screened distance first, then the limit.
            for (k, &limit) in limits.iter().enumerate() {
                let want = within_reference(&g, &movers, limit);
                assert_eq!(
                    gap.within(limit),
                    want,
                    "case {n}, limit {limit}: {g:?} {movers:?}"
                );
                answers[k][usize::from(want)] += 1;
            }
            measured += usize::from(gap.measured.get().is_some());
        }
        // Both answers at every limit, and the gap both measured and not.
        for a in answers {
            assert!(a[0] > 1_000 && a[1] > 1_000, "{answers:?}");
        }
        assert!(measured > 500 && measured < 59_500, "{measured}");
    }
}
