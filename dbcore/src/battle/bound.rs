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

use super::cache::{HeldSource, StateCache};
use super::engagement::EngagementError;
use super::movement::{
    plan_move, ElementMove, HeldStronghold, MoveContext, MoveError, MoveOrder, MovePlan, Refusals,
};
use super::setup::{BattleSetup, CommandId, ElementId, SetupError};
use super::state::{
    denizens_id, CityState, CommandRoll, CommandState, Denizens, Effect, ElementState, Status,
};
use super::victory::Verdict;
// For doc links only: the sally, the landing and `Battle::legal` are methods their own files add.
#[cfg(doc)]
use super::{landing, legal::Legal, sally};

mod actions;
mod check;
mod commit;
mod errors;
mod pips;
pub(crate) use pips::pips_text;

pub use actions::*;
pub use errors::*;

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
    pub(super) stamp: super::state::Stamp,
    /// Answers worked out once for this state; not part of the state.
    #[serde(skip)]
    pub(super) cache: StateCache,
    /// The set-up as the compact state writes it, written once and shared by the clones and
    /// later states made after that (the set-up never changes); not part of the state.
    #[serde(skip)]
    pub(super) setup_text: super::state::SetupText,
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
        Ok(Battle::start(&super::setup::ValidatedSetup::new(setup)?))
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
            stamp: super::state::Stamp::fresh(),
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
        let setup = super::setup::ValidatedSetup::new(record.setup.clone())?;
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
        let source = HeldSource {
            elements: &self.elements,
            camp_sacked: &self.camp_sacked,
            camp_followers: &self.camp_followers,
            commands: &self.commands,
            cities: &self.cities,
        };
        match self.cache.held(&source, || self.held_strongholds_afresh()) {
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
