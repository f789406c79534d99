//! The action types of a bound: what a player asks of the battle ([`Action`]), what a move
//! costs in PIPs as reported ([`PipCost`], §6.3), and the [`Event`]s an action causes.

use super::*;

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
        command: Option<super::super::setup::CommandId>,
    },
    /// A camp's camp followers were destroyed by its assaulters (§4.6, §4.7).
    CampFollowersDestroyed {
        /// The army whose camp followers were destroyed.
        army: usize,
        /// The allied command whose own camp they defended; absent for the army's camp (§14.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<super::super::setup::CommandId>,
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
    pub(super) fn changes_elements(&self) -> bool {
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
