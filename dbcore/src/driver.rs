//! A small demonstration driver that plays every army of a battle through the public API only:
//! it advances on the nearest enemy, makes contact when it can, spends its PIPs greedily, shoots
//! and fights. It is an example of a program using the referee, not a good general.
//!
//! Dice come from a [`SeededDice`], so a seed and a set-up give the same battle everywhere.

use serde::{Deserialize, Serialize};

use crate::battle::movement::{front_to_front, lone_leg_beyond, SNAP_MARGIN};
use crate::battle::prebattle::{
    ArmyEntry, EntryElement, GameRecord, Prebattle, PrebattleError, PrebattleEvent, PrebattleSetup,
};
use crate::battle::{
    Action, Battle, BattleError, BattleRecord, BattleSetup, CheckedAction, ContactWanted,
    ElementId, ElementState, Event, MoveError, MoveOrder, Phase, SetupError, ValidatedSetup,
    Verdict,
};
use crate::dice::{DieScore, SeededDice};
use crate::geometry::{Point, Pose, TOLERANCE};
use crate::terrain::HomeTerrain;
use crate::terrain::RiverState;
use crate::troops::ElementKind;

pub(crate) mod big_battle;
mod prebattle;
pub use big_battle::{big_battle_lists_setup, big_battle_setup, default_big_army};
pub use prebattle::{choose as prebattle_choice, play_prebattle};
pub(crate) use prebattle::{deployment_order, deployment_rows};

/// How a driven battle ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DrivenBattle {
    /// Set-up and every action: replaying it gives `events` again.
    pub record: BattleRecord,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Bounds begun.
    pub bounds: u32,
    /// Set when an army lost (§13.2); `None` when the bound limit came first.
    pub verdict: Option<Verdict>,
}

/// Refuses a bound limit beyond [`crate::limits::MAX_DRIVEN_BOUNDS`]: a stalemate played for
/// 2^32 bounds would never return.
fn check_max_bounds(max_bounds: u32) -> Result<(), SetupError> {
    crate::limits::check_range(
        &|| "max_bounds".into(),
        f64::from(max_bounds),
        0.0,
        crate::limits::MAX_DRIVEN_BOUNDS as f64,
    )
    .map_err(|e| SetupError {
        problems: vec![crate::battle::SetupProblem::Limit {
            message: e.to_string(),
        }],
    })
}

/// Play `setup` with dice from `seed` until an army loses or `max_bounds` bounds have begun.
pub fn play(setup: BattleSetup, seed: u64, max_bounds: u32) -> Result<DrivenBattle, SetupError> {
    check_max_bounds(max_bounds)?;
    let battle = Battle::new(setup)?;
    let mut dice = SeededDice::new(seed);
    Ok(play_battle(battle, &mut dice, max_bounds))
}

/// [`play`] from a set-up validated once: many battles of the same set-up (a Monte Carlo study)
/// share it and none validates it again. The same battle as [`play`] of the same set-up and seed.
pub fn play_validated(
    setup: &ValidatedSetup,
    seed: u64,
    max_bounds: u32,
) -> Result<DrivenBattle, SetupError> {
    check_max_bounds(max_bounds)?;
    let mut dice = SeededDice::new(seed);
    Ok(play_battle(Battle::start(setup), &mut dice, max_bounds))
}

/// A whole game played by the driver: the pre-battle and the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrivenGame {
    /// The two armies, every pre-battle action and every battle action: replaying it gives the
    /// same events ([`GameRecord::replay`]). Written as a game record
    /// ([`crate::record::GameFile`], format `dbcore-game`).
    #[serde(
        serialize_with = "crate::record::serialize_game",
        deserialize_with = "crate::record::deserialize_game"
    )]
    pub record: GameRecord,
    /// The pre-battle's events, in order.
    pub prebattle_events: Vec<PrebattleEvent>,
    /// The set-up the pre-battle produced.
    pub setup: BattleSetup,
    /// The battle's events, in order.
    pub events: Vec<Event>,
    /// Bounds begun.
    pub bounds: u32,
    /// Set when an army lost (§13.2); `None` when the bound limit came first.
    pub verdict: Option<Verdict>,
}

/// Why a driven game could not be played.
///
/// Not [`crate::game::GameError`], which is what one action or input for a battle of either
/// game ([`crate::game::AnyBattle`]) is refused with: this one is the driver's, for a whole game
/// it plays from army lists, and fails only before the battle starts (the pre-battle, the set-up
/// it produced, the lists). The two stay apart because neither's variants mean anything to the
/// other; both give the same stable codes through [`crate::error::ErrorInfo`]. It was called
/// `GameError` too, a second type of that name (issue #48): [`GameError`] stays as its old name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DriveError {
    /// The pre-battle refused an action of the driver's.
    #[error(transparent)]
    Prebattle(#[from] PrebattleError),
    /// The set-up the pre-battle produced is not valid.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// An army list could not be used.
    #[error(transparent)]
    Lists(#[from] crate::battle::prebattle::ListsError),
    /// The driver could not finish the pre-battle.
    #[error("the driver's pre-battle did not finish")]
    Unfinished,
}

/// The old name of [`DriveError`], kept for the code that names it.
#[deprecated(note = "named `DriveError` now; `dbcore::game::GameError` is the game's error")]
pub type GameError = DriveError;

impl crate::error::ErrorInfo for DriveError {
    fn code(&self) -> crate::error::ErrorCode {
        match self {
            DriveError::Prebattle(e) => e.code(),
            DriveError::Setup(e) => e.code(),
            DriveError::Lists(e) => e.code(),
            DriveError::Unfinished => crate::error::ErrorCode::Internal,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            DriveError::Prebattle(e) => e.rule(),
            DriveError::Setup(e) => e.rule(),
            DriveError::Lists(e) => e.rule(),
            DriveError::Unfinished => None,
        }
    }
}

/// Play a whole game from two armies: the pre-battle (aggression, terrain, edges, camps,
/// deployment), then the battle until an army loses or `max_bounds` bounds have begun, all with
/// dice and choices from `seed`.
pub fn play_game(
    setup: PrebattleSetup,
    seed: u64,
    max_bounds: u32,
) -> Result<DrivenGame, DriveError> {
    play_game_to_end(setup, seed, max_bounds).map(|(game, _)| game)
}

/// [`play_game`], also handing back the battle as it ended (for [`crate::simulate`], which
/// reads each army's losses from it).
pub(crate) fn play_game_to_end(
    setup: PrebattleSetup,
    seed: u64,
    max_bounds: u32,
) -> Result<(DrivenGame, Battle), DriveError> {
    let mut a = Demonstration::new();
    let mut b = Demonstration::new();
    play_game_to_end_with(
        setup,
        seed,
        max_bounds,
        &mut play_prebattle,
        &mut [&mut a, &mut b],
    )
}

/// Who plays a whole pre-battle: [`play_prebattle`], or
/// [`crate::ai::prebattle::play_prebattle`] with the armies the opponent plays.
pub type PrebattlePlayer<'a> = dyn FnMut(
        &mut crate::battle::prebattle::Prebattle,
        &mut SeededDice,
    ) -> Result<
        Vec<crate::battle::prebattle::PrebattleEvent>,
        crate::battle::prebattle::PrebattleError,
    > + 'a;

/// A whole game with the pre-battle played by `prebattle` and army `i`'s battle by
/// `policies[i]` (as [`drive_with`]), every die from `seed`; the game and the battle as it ended.
/// [`play_game`] and [`crate::ai::play_game_with`] are this with their own players.
pub(crate) fn play_game_to_end_with(
    setup: PrebattleSetup,
    seed: u64,
    max_bounds: u32,
    prebattle: &mut PrebattlePlayer<'_>,
    policies: &mut [&mut dyn Policy],
) -> Result<(DrivenGame, Battle), DriveError> {
    check_max_bounds(max_bounds)?;
    tracing::debug!(seed, max_bounds, "driven game starts");
    let mut pre = Prebattle::new(setup)?;
    let mut dice = SeededDice::new(seed);
    let prebattle_events = prebattle(&mut pre, &mut dice)?;
    let battle_setup = pre.battle_setup().ok_or(DriveError::Unfinished)?;
    tracing::trace!(seed, first = battle_setup.first, "pre-battle done");
    let mut battle = Battle::new(battle_setup.clone())?;
    let (events, verdict) = drive_with(&mut battle, &mut dice, max_bounds, policies);
    let game = DrivenGame {
        record: GameRecord {
            prebattle: pre.record(),
            battle: battle.actions().to_vec(),
        },
        prebattle_events,
        setup: battle_setup,
        events,
        bounds: battle.bound(),
        verdict,
    };
    Ok((game, battle))
}

/// Play a whole game between the default armies of two bundled lists named by id (`"II/56"`),
/// as [`play_game`] does.
pub fn play_lists(
    first: &str,
    second: &str,
    seed: u64,
    max_bounds: u32,
) -> Result<DrivenGame, DriveError> {
    play_game(PrebattleSetup::from_lists(first, second)?, seed, max_bounds)
}

/// A whole Big Battle or Giant game between the default armies of two bundled lists named by
/// id ([`PrebattleSetup::from_big_lists`]: three commands each), pre-battle included (§14.2,
/// §14.3, §14.4), as [`play_game`] does.
pub fn play_big_lists(
    variant: crate::battlefield::Variant,
    first: &str,
    second: &str,
    seed: u64,
    max_bounds: u32,
) -> Result<DrivenGame, DriveError> {
    play_game(
        PrebattleSetup::from_big_lists(variant, first, second)?,
        seed,
        max_bounds,
    )
}

/// A player of the moving army's choices: the demonstration driver ([`Demonstration`]) is one,
/// the searching opponent ([`crate::ai::Ai`]) another, and a person at a terminal a third. The
/// game loop ([`play_battle_with`]) rolls every die and asks the policy of the moving army for
/// the rest.
pub trait Policy {
    /// The next action of the moving army of `battle`, in its movement, shooting or close combat
    /// phase. `dice` are the two scores the battle awaits for a shot or a close combat (given in
    /// those phases, `None` in movement); the action puts them in its `dice`. `None` means nothing
    /// to do: in movement the loop ends the movement; in shooting or close combat it stops the
    /// game (a policy that finds no legal shot or fight).
    fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action>;

    /// As [`Policy::next_action`], but a policy that has already checked its action against
    /// `battle` may hand over the checked token, so that the loop commits it without checking it
    /// twice. The default hands over the unchecked action.
    fn next_choice(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Choice> {
        self.next_action(battle, dice).map(Choice::Unchecked)
    }
}

/// What a [`Policy`] hands to the game loop: an action it has checked on the very state it is
/// given (committed as it is) or one the battle must still check.
#[derive(Debug, Clone)]
pub enum Choice {
    /// Checked on the battle the policy was given (see [`Battle::check_action`]).
    Checked(CheckedAction),
    /// To be checked by [`Battle::apply`].
    Unchecked(Action),
}

impl Choice {
    /// The action chosen.
    pub fn into_action(self) -> Action {
        match self {
            Choice::Checked(c) => c.action().clone(),
            Choice::Unchecked(a) => a,
        }
    }

    fn apply_to(self, battle: &mut Battle) -> Result<Vec<Event>, crate::battle::BattleError> {
        match self {
            Choice::Checked(c) => battle.apply_checked(c),
            Choice::Unchecked(a) => battle.apply(a),
        }
    }
}

/// The demonstration driver as a [`Policy`]: the nearest element first, contact when it can,
/// else straight at the nearest enemy; the first shot and the first combat the battle accepts.
/// In Big Battle and Giant it first buys holds for demoralised elements whose flight would
/// take them off the table (§14.5).
///
/// It remembers each mover's nearest enemy between its decisions, with the elements as they
/// stood when it worked it out, and works it out again for a mover only when that mover or any
/// enemy has changed since: the same choices as working everything out afresh at every
/// decision, for less work (#15). `Demonstration::new()` (or `default()`) starts with nothing
/// remembered; keep one for each army through a game.
///
/// ```
/// use dbcore::battle::Battle;
/// use dbcore::driver::{demo_setup, play_battle_with, Demonstration};
/// use dbcore::SeededDice;
///
/// let (mut red, mut blue) = (Demonstration::new(), Demonstration::new());
/// let battle = Battle::new(demo_setup()).unwrap();
/// let driven = play_battle_with(battle, &mut SeededDice::new(1), 40, &mut [&mut red, &mut blue]);
/// // The same battle as `play_battle` plays with its own two drivers.
/// let again = dbcore::driver::play_battle(Battle::new(demo_setup()).unwrap(), &mut SeededDice::new(1), 40);
/// assert_eq!(driven.events, again.events);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Demonstration {
    memo: DriverMemo,
}

impl Demonstration {
    /// A demonstration driver remembering nothing yet.
    pub const fn new() -> Demonstration {
        Demonstration {
            memo: DriverMemo::new(),
        }
    }
}

/// All the demonstration driver remembers between its decisions.
#[derive(Debug, Clone, Default)]
struct DriverMemo {
    nearest: NearestMemo,
    refused: RefusedMemo,
}

impl DriverMemo {
    const fn new() -> DriverMemo {
        DriverMemo {
            nearest: NearestMemo::new(),
            refused: RefusedMemo::new(),
        }
    }
}

/// The moves the battle refused the driver earlier in this movement phase, each with what its
/// refusal rests on, so that a move tried again is passed over while that still stands (#47:
/// in a driven battle, more than half the refused moves were the same moves refused again at a
/// later decision of the same bound, nothing they depended on having changed).
///
/// Two refusals are kept, and both are settled by a few elements alone:
/// - an element in the way (§7.2, §7.6): a piece the mover sweeps meets an element it may not
///   pass through. The pieces follow from the mover's pose and the move (for a contact, from
///   the target's pose too: `contact_pose`), and whether it may pass through from the two
///   elements alone. While the mover, the target and the element in the way stand as they did
///   (place, kind, in play), that check fails again, and a move is accepted only when every
///   check passes.
/// - too far (§7.3, §3.5): the distance the path asks against what its going allows. The path
///   is as above, the going is the table's (which never changes in a battle), the mover's kind
///   and the Plough and river states (both kept below), so it fails again likewise.
///
/// Everything is forgotten when the bound, the moving army, the river's or the Plough's state
/// changes. The tests ask the battle about every move passed over and find it refused.
#[derive(Debug, Clone, Default)]
struct RefusedMemo {
    /// The bound, the moving army, the river's state and whether Plough is rough, when the
    /// moves below were refused.
    when: Option<(u32, usize, Option<RiverState>, bool)>,
    kept: Vec<Refused>,
}

/// A move refused, with the elements its refusal rests on as they stood.
#[derive(Debug, Clone)]
struct Refused {
    action: Action,
    /// The mover, the target of a contact and the element in the way, as far as each applies.
    rests_on: [Option<Placed>; 3],
}

/// An element as a refusal saw it: where it is in the battle's list, its kind, and where it
/// stood (and whether in play), to the bit.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Placed {
    index: usize,
    kind: ElementKind,
    stood: Stood,
}

impl Placed {
    fn of(b: &Battle, id: ElementId) -> Option<Placed> {
        let index = b.elements().iter().position(|e| e.id == id)?;
        let e = &b.elements()[index];
        Some(Placed {
            index,
            kind: e.kind,
            stood: Stood::of(e),
        })
    }

    fn holds(&self, els: &[ElementState]) -> bool {
        els.get(self.index)
            .is_some_and(|e| e.kind == self.kind && Stood::of(e) == self.stood)
    }
}

/// The mover and (for a contact) the target of one of the driver's moves.
fn mover_and_target(action: &Action) -> Option<(ElementId, Option<ElementId>)> {
    match action {
        Action::Move {
            order: MoveOrder::Element { id, .. },
        } => Some((*id, None)),
        Action::Move {
            order: MoveOrder::IntoContact { ids, target, .. },
        } => match ids[..] {
            [id] => Some((id, Some(*target))),
            _ => None,
        },
        _ => None,
    }
}

impl RefusedMemo {
    const fn new() -> RefusedMemo {
        RefusedMemo {
            when: None,
            kept: Vec::new(),
        }
    }

    /// Forgets every refusal when the bound, the army or a state the refusals rest on changed.
    fn bring_up_to_date(&mut self, b: &Battle) {
        let now = (b.bound(), b.active_army(), b.river(), b.plough_rough());
        if self.when != Some(now) {
            self.when = Some(now);
            self.kept.clear();
        }
    }

    /// Whether `action` was refused and what refused it still stands.
    fn still_refused(&self, b: &Battle, action: &Action) -> bool {
        let els = b.elements();
        self.kept
            .iter()
            .any(|r| r.action == *action && r.rests_on.iter().flatten().all(|p| p.holds(els)))
    }

    /// Keeps `action`, refused with `refusal`, when the refusal is one of the two above.
    fn remember(&mut self, b: &Battle, action: Action, refusal: &BattleError) {
        let in_the_way = match refusal {
            BattleError::Move(MoveError::Blocked { blocker }) => Some(*blocker),
            BattleError::Move(MoveError::TooFar { .. }) => None,
            _ => return,
        };
        let Some((mover, target)) = mover_and_target(&action) else {
            return;
        };
        let place = |id: Option<ElementId>| id.map(|id| Placed::of(b, id));
        let rests_on = [place(Some(mover)), place(target), place(in_the_way)];
        // An element the battle does not know (it would not have said so) keeps nothing.
        if rests_on.iter().any(|p| matches!(p, Some(None))) {
            return;
        }
        let refused = Refused {
            action,
            rests_on: rests_on.map(Option::flatten),
        };
        match self.kept.iter_mut().find(|r| r.action == refused.action) {
            Some(r) => *r = refused,
            None => self.kept.push(refused),
        }
    }
}

/// What the demonstration driver keeps between decisions: the nearest enemy it found for each
/// mover, and the elements as they stood then. An answer is read back only while its mover
/// stands exactly as it did; when enemies have changed, each answer is brought up to date with
/// the changed enemies alone (or dropped, when its own nearest enemy changed). So a remembered
/// answer is always the one working it out again would give.
#[derive(Debug, Clone, Default)]
struct NearestMemo {
    /// The army whose movers the answers are for.
    active: usize,
    /// Every element as the answers know it, in element order.
    stood: Vec<Stood>,
    /// By element index: what was found for that mover, once worked out.
    found: Vec<Option<Found>>,
    /// The list [`movers_and_nearest_enemies`] gives, kept for its room.
    listed: Vec<(ElementId, ElementId, f64)>,
}

/// A mover's nearest enemy, as [`NearestMemo`] keeps it.
#[derive(Debug, Clone, Copy)]
struct Found {
    /// The mover as it stood.
    mover: Stood,
    /// Its front-edge midpoint, from which enemies are measured.
    at: Point,
    /// Its nearest enemy in play and the distance, if any.
    nearest: Nearest,
}

/// The nearest enemy in play and its distance, if any (what [`nearest`] finds).
type Nearest = Option<(ElementId, f64)>;

/// Whether enemy `x` (its id and distance) comes after `y` in [`nearest`]'s order: the
/// distance by `total_cmp`, then the lower id.
#[inline]
fn comes_after(x: (ElementId, f64), y: (ElementId, f64)) -> bool {
    x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)) == std::cmp::Ordering::Greater
}

/// The nearer of two answers of [`nearest`] by its order: the answer for the two lists of
/// candidates together.
fn nearer(a: Nearest, b: Nearest) -> Nearest {
    match (a, b) {
        (Some(x), Some(y)) if comes_after(x, y) => Some(y),
        (Some(x), _) => Some(x),
        (None, y) => y,
    }
}

/// What of an element the nearest enemy depends on: which element and army it is, whether it
/// is in play, and its pose to the bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stood {
    id: ElementId,
    army: usize,
    in_play: bool,
    pose: [u64; 3],
}

impl Stood {
    fn of(e: &ElementState) -> Stood {
        Stood {
            id: e.id,
            army: e.army,
            in_play: e.in_play(),
            pose: [
                e.pose.x.to_bits(),
                e.pose.y.to_bits(),
                e.pose.facing.to_bits(),
            ],
        }
    }
}

impl NearestMemo {
    const fn new() -> NearestMemo {
        NearestMemo {
            active: 0,
            stood: Vec::new(),
            found: Vec::new(),
            listed: Vec::new(),
        }
    }

    /// Bring the answers up to date for army `active`'s movers among `els`: kept when every
    /// enemy (every element not of that army) stands as it did; brought up to date with the
    /// enemies that changed otherwise; all forgotten when the army, or which elements there
    /// are, changed. Whether any answer was kept.
    ///
    /// An answer is the least of every enemy in play by [`nearest`]'s order. The enemies that
    /// did not change give the same distances as before and each came after the answer, so
    /// when the answer's own enemy did not change, the least of all is the nearer of the answer
    /// and the least of the changed enemies in play; when it changed but came no further away,
    /// the least of all is the least of the changed enemies. Otherwise (it went further away,
    /// or out of play) the answer is dropped and worked out afresh when asked.
    fn bring_up_to_date(&mut self, els: &[ElementState], active: usize) -> bool {
        // The enemies that changed, by index, in one pass that also finds whether the same
        // elements are there.
        let mut changed: Vec<usize> = Vec::new();
        let same_elements = self.active == active
            && self.stood.len() == els.len()
            && els.iter().zip(&self.stood).enumerate().all(|(k, (e, s))| {
                if e.army != active && Stood::of(e) != *s {
                    changed.push(k);
                }
                e.id == s.id && e.army == s.army
            });
        if !same_elements {
            self.active = active;
            self.stood.clear();
            self.stood.extend(els.iter().map(Stood::of));
            self.found.clear();
            self.found.resize(els.len(), None);
            return false;
        }
        if changed.is_empty() {
            return true;
        }
        // Their ids, with their front-edge midpoints when in play.
        let changed: Vec<(ElementId, Option<Point>)> = changed
            .into_iter()
            .map(|k| {
                let e = &els[k];
                self.stood[k] = Stood::of(e);
                (e.id, e.in_play().then(|| e.pose.front_mid()))
            })
            .collect();
        for slot in &mut self.found {
            let Some(f) = slot else {
                continue;
            };
            let at = f.at;
            let least = nearest(
                changed
                    .iter()
                    .filter_map(|&(id, mid)| mid.map(|mid| (id, mid, at))),
            );
            let Some((t, d)) = f.nearest else {
                f.nearest = least;
                continue;
            };
            match changed.iter().find(|&&(id, _)| id == t) {
                // Its enemy stands where it did: the nearer of it and the changed ones.
                None => f.nearest = nearer(f.nearest, least),
                // Its enemy came no further away (measured as `nearest` measures): every enemy
                // that did not change was further than it was, so the nearest is among the
                // changed ones, itself included.
                Some(&(_, Some(mid))) if mid.distance(at).total_cmp(&d).is_le() => {
                    f.nearest = least;
                }
                // It went further away or out of play: any enemy may be the nearest now.
                Some(_) => *slot = None,
            }
        }
        true
    }
}

impl Policy for Demonstration {
    fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action> {
        self.next_choice(battle, dice).map(Choice::into_action)
    }

    fn next_choice(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Choice> {
        match (battle.phase(), dice) {
            // §14.5: first the holds that keep demoralised elements from fleeing off the table.
            // Then the flight those holds spare, before any move.
            (Phase::Movement, _) => big_battle::hold_worth_buying(battle)
                .or_else(|| big_battle::flight_due(battle))
                .or_else(|| best_move(battle, &mut self.memo))
                .map(Choice::Checked),
            (Phase::Shooting | Phase::CloseCombat, Some(roll)) => next_fire_or_fight(battle, roll),
            _ => None,
        }
    }
}

/// Play `battle` with `dice` until an army loses or `max_bounds` bounds have begun, both armies
/// played by the demonstration driver. The driver stops when bound `max_bounds + 1` begins, so
/// `max_bounds` whole bounds are played.
///
/// ```
/// use dbcore::battle::Battle;
/// use dbcore::driver::{demo_setup, play_battle};
/// use dbcore::SeededDice;
///
/// let battle = Battle::new(demo_setup()).unwrap();
/// let driven = play_battle(battle, &mut SeededDice::new(1), 4);
/// // The armies start 7 BW apart: four whole bounds decide nothing, and the fifth has begun.
/// assert_eq!((driven.bounds, driven.verdict), (5, None));
/// // The record replays to the same events, without the dice generator.
/// let (_, events) = Battle::replay(&driven.record).unwrap();
/// assert_eq!(events, driven.events);
/// ```
pub fn play_battle(battle: Battle, dice: &mut SeededDice, max_bounds: u32) -> DrivenBattle {
    let mut a = Demonstration::new();
    let mut b = Demonstration::new();
    play_battle_with(battle, dice, max_bounds, &mut [&mut a, &mut b])
}

/// Play `battle` in place with `dice` until an army loses, `max_bounds` bounds have begun or the
/// driver finds nothing it may do, both armies played by the demonstration driver; the events
/// and the verdict, the battle left as it ended.
pub fn drive(
    battle: &mut Battle,
    dice: &mut SeededDice,
    max_bounds: u32,
) -> (Vec<Event>, Option<Verdict>) {
    let mut a = Demonstration::new();
    let mut b = Demonstration::new();
    drive_with(battle, dice, max_bounds, &mut [&mut a, &mut b])
}

/// Play `battle` with `dice` until an army loses or `max_bounds` bounds have begun, army `i`
/// choosing through `policies[i]` (the last policy plays any army beyond the list). The loop
/// rolls the PIP die and, when a shot or combat is awaited, the pair of dice before asking.
pub fn play_battle_with(
    mut battle: Battle,
    dice: &mut SeededDice,
    max_bounds: u32,
    policies: &mut [&mut dyn Policy],
) -> DrivenBattle {
    let (events, verdict) = drive_with(&mut battle, dice, max_bounds, policies);
    DrivenBattle {
        record: battle.record(),
        bounds: battle.bound(),
        events,
        verdict,
    }
}

/// As [`play_battle_with`], in place: the events and the verdict, the battle left as it ended.
pub fn drive_with(
    battle: &mut Battle,
    dice: &mut SeededDice,
    max_bounds: u32,
    policies: &mut [&mut dyn Policy],
) -> (Vec<Event>, Option<Verdict>) {
    tracing::debug!(
        armies = battle.setup().armies.len(),
        bound = battle.bound(),
        max_bounds,
        "driven battle starts"
    );
    let mut events = Vec::new();
    let mut verdict = None;
    // Every step either applies an action or ends a phase, so the loop ends; the cap is a guard.
    for _ in 0..max_bounds.saturating_mul(200) {
        if battle.bound() > max_bounds || policies.is_empty() {
            break;
        }
        let who = battle.active_army().min(policies.len() - 1);
        match battle.phase() {
            Phase::Finished { .. } => break,
            Phase::AwaitingPips => {
                // §14.4: one die per command still rolling in Big Battle and Giant.
                let action = if battle.has_commands() {
                    let n = battle.rolling_commands().len();
                    Action::RollCommandPips {
                        dice: (0..n).map(|_| dice.roll()).collect(),
                    }
                } else {
                    Action::RollPips { die: dice.roll() }
                };
                let ev = battle
                    .apply(action)
                    .expect("the PIP roll is always legal when awaited");
                events.extend(ev);
            }
            Phase::Movement => {
                let choice = policies[who]
                    .next_choice(battle, None)
                    .unwrap_or(Choice::Unchecked(Action::EndMovement));
                let ev = choice
                    .apply_to(battle)
                    .or_else(|_| battle.apply(Action::EndMovement))
                    .expect("ending the movement is always legal in the movement phase");
                events.extend(ev);
            }
            Phase::Shooting | Phase::CloseCombat => {
                // These phases always await a shot or a combat (`Battle::awaiting`), so the
                // pair of dice is rolled without asking which (#15: asking worked out every
                // pending shooter's targets).
                let roll = dice.roll_pair();
                let Some(choice) = policies[who].next_choice(battle, Some(roll)) else {
                    break;
                };
                match choice.apply_to(battle) {
                    Ok(ev) => events.extend(ev),
                    Err(_) => break,
                }
            }
        }
        if let Some(Event::BattleWon { verdict: v }) = events.last() {
            verdict = Some(v.clone());
        }
    }
    tracing::debug!(
        bounds = battle.bound(),
        winner = verdict.as_ref().and_then(|v| v.winner),
        actions = battle.actions().len(),
        "driven battle ends"
    );
    (events, verdict)
}

/// Every element of the moving army in play that has not moved this bound, with the nearest
/// enemy in play to it and the distance between their front-edge midpoints (the first enemy by
/// id among equally near ones), in the order of the elements.
///
/// A mover's nearest enemy depends only on the mover and the enemies, so it is read from `memo`
/// when the mover and every enemy stand exactly as they did when it was found there (#15: in a
/// movement phase only the movers move, one a decision, so all the others' answers still hold;
/// measuring every enemy from every mover again was half of each action at 96 elements a side).
///
/// The list is the memo's own, refilled at every call (#15: a new list was a heap block at every
/// decision).
fn movers_and_nearest_enemies<'m>(
    b: &Battle,
    memo: &'m mut NearestMemo,
) -> &'m mut [(ElementId, ElementId, f64)] {
    let els = b.elements();
    let active = b.active_army();
    memo.bring_up_to_date(els, active);
    // Each element's front-edge midpoint once, not once per pair (#15: the sines and cosines of
    // every enemy for every mover were a tenth of a driven battle), and only when some mover's
    // nearest enemy is worked out. The same numbers.
    let mut mids: Option<Vec<Point>> = None;
    let mut out = std::mem::take(&mut memo.listed);
    out.clear();
    for (k, me) in els.iter().enumerate() {
        if !(me.army == active && me.in_play() && me.moves_this_bound == 0) {
            continue;
        }
        let stood = Stood::of(me);
        let found = match memo.found[k] {
            Some(f) if f.mover == stood => f.nearest,
            _ => {
                let mids =
                    mids.get_or_insert_with(|| els.iter().map(|e| e.pose.front_mid()).collect());
                let at = mids[k];
                let enemies = els
                    .iter()
                    .zip(mids.iter())
                    .filter(|(e, _)| e.army != me.army && e.in_play());
                let found = nearest(enemies.map(|(e, &mid)| (e.id, mid, at)));
                memo.found[k] = Some(Found {
                    mover: stood,
                    at,
                    nearest: found,
                });
                found
            }
        };
        if let Some((t, d)) = found {
            out.push((me.id, t, d));
        }
    }
    memo.listed = out;
    &mut memo.listed
}

/// Of `(id, p, q)`, the id with the least `p.distance(q)` (by `total_cmp`, then the lower id),
/// with that distance: `min_by` of the distances, each comparison made without a `hypot` when
/// the squared distances settle it (#15: the driver measured every enemy from every mover).
///
/// A squared distance is worked out within a few units in the last place, and `hypot` within
/// one, so when one squared distance exceeds the other by more than a factor of `1 + 1e-9`
/// (far above both errors) the distances are in the same order, strictly: the comparison of
/// distances, and so of distances then ids, gives what the squares give. Otherwise (near ties,
/// squares that are not finite or too small for that bound) both distances are measured and
/// compared as `min_by` compares them. Each comparison being the one `min_by` makes, the least
/// is the one it finds; its distance is measured once at the end if it was not already.
fn nearest(candidates: impl Iterator<Item = (ElementId, Point, Point)>) -> Nearest {
    /// The squared distance when it is finite and large enough for the bound above.
    fn square(p: Point, q: Point) -> Option<f64> {
        let (dx, dy) = (p.x - q.x, p.y - q.y);
        let s = dx * dx + dy * dy;
        (s.is_finite() && s > 1e-200).then_some(s)
    }
    const SLACK: f64 = 1.0 + 1e-9;
    /// The best so far: its id, its ends, its squared distance and its distance once measured.
    struct Best {
        id: ElementId,
        p: Point,
        q: Point,
        square: Option<f64>,
        distance: Option<f64>,
    }
    let mut best: Option<Best> = None;
    for (id, p, q) in candidates {
        let s = square(p, q);
        let candidate = Best {
            id,
            p,
            q,
            square: s,
            distance: None,
        };
        let Some(b) = &mut best else {
            best = Some(candidate);
            continue;
        };
        match (s, b.square) {
            (Some(s), Some(least)) if s > least * SLACK => continue,
            (Some(s), Some(least)) if s * SLACK < least => {
                best = Some(candidate);
                continue;
            }
            _ => {}
        }
        let least = *b.distance.get_or_insert_with(|| b.p.distance(b.q));
        let d = p.distance(q);
        if comes_after((b.id, least), (id, d)) {
            best = Some(Best {
                distance: Some(d),
                ..candidate
            });
        }
    }
    best.map(|b| (b.id, b.distance.unwrap_or_else(|| b.p.distance(b.q))))
}

/// The first legal move, trying elements nearest the enemy first: contact if possible, else the
/// longest step straight towards the nearest enemy. Checked, so that it is committed without a
/// second check.
fn best_move(b: &Battle, memo: &mut DriverMemo) -> Option<CheckedAction> {
    best_move_with(b, true, memo)
}

/// [`best_move`], passing over the moves sure to be refused when `pass_over`: those too far,
/// every move of an element the battle says may not move alone, and the moves refused earlier
/// for what still stands ([`RefusedMemo`]); the tests compare it with asking the battle about
/// every move.
fn best_move_with(b: &Battle, pass_over: bool, memo: &mut DriverMemo) -> Option<CheckedAction> {
    if b.pips() == 0 {
        return None;
    }
    let DriverMemo { nearest, refused } = memo;
    refused.bring_up_to_date(b);
    let mut refused = pass_over.then_some(refused);
    let mine = movers_and_nearest_enemies(b, nearest);
    mine.sort_by(|x, y| x.2.total_cmp(&y.2).then(x.0.cmp(&y.0)));
    let cfg = &b.setup().config;
    for &mut (id, target, dist) in mine {
        // Every move tried below is this element's alone, a path or a contact: when the battle
        // says none of those may be accepted (in close combat, short of PIPs, #47), each would
        // be refused, and the first move accepted is the one asking each would find.
        if pass_over && !b.may_move_alone(id) {
            continue;
        }
        let me = b.element(id)?;
        // Moves the battle is sure to refuse as too far are not asked (#15: they were a third
        // of the candidates). A leg moves as far as its front corner moving furthest, which is
        // at least as far as the front edge's midpoint moves (the midpoint's shift is the mean
        // of the two corners'); poses are snapped by under 2e-4 BW; and no going allows more
        // than the larger of the element's two distances (§7.3). So a move whose midpoint goes
        // further than that, with the tolerance and a margin, is refused whatever else is true,
        // and the first move accepted is the one asking each would find.
        let reach_any = cfg
            .move_distance(me.kind, false)
            .max(cfg.move_distance(me.kind, true));
        let farthest = reach_any + TOLERANCE + SNAP_MARGIN;
        // A turn can take a front corner further than the midpoint, but by at most 1 BW (half
        // the width each way, §7.2): a move whose midpoint goes within 1 BW of the reach is
        // measured by its corners, and not asked either when its leg is sure to be too far for
        // any going (`lone_leg_beyond`, #47). The same first move accepted.
        let depth = cfg.depth(me.kind);
        let beyond = |d: f64, end: Pose| {
            d > reach_any - 1.0 && lone_leg_beyond(me.pose, end, depth, reach_any)
        };
        let aimed = b.element(target)?.pose;
        // Front contact puts the mover's front-edge midpoint on the target's, facing it
        // (§8.2 a).
        let facing_it = front_to_front(&aimed);
        let contact = Action::Move {
            order: MoveOrder::IntoContact {
                ids: vec![id],
                target,
                contact: ContactWanted::Front,
            },
        };
        if pass_over && (dist > farthest || beyond(dist, facing_it)) {
            #[cfg(test)]
            tests::sure_too_far(b, &contact);
        } else if let Some(checked) = trial(b, contact, refused.as_deref_mut()) {
            return Some(checked);
        }
        let aim = aimed.front_mid();
        let here = me.pose.front_mid();
        let to = aim - here;
        let facing = to.x.atan2(to.y).to_degrees();
        // Stop 1.2 BW short of the enemy's front edge: the contact move does the rest.
        let reach = (dist - 1.2).max(0.0);
        // The steps tried, to the bit: many products of a fraction and an allowance are the same
        // number (0.75 x 4 and 1 x 3, or every allowance above a short reach), hence the same
        // move of the same battle, refused again. Trying each step once gives the same first
        // legal move (#15: about half the candidates were repeats).
        let mut tried = [0u64; 16];
        let mut tries = 0;
        // The same direction for every step tried, worked out once.
        let dir = Point::from_bearing(facing);
        for fraction in [1.0, 0.75, 0.5, 0.25] {
            for allowance in [4.0, 3.0, 2.0, 1.0] {
                let d: f64 = reach.min(allowance) * fraction;
                if d < 0.2 || tried[..tries].contains(&d.to_bits()) {
                    continue;
                }
                // The midpoint moves `d` (see `farthest` and `beyond`).
                if pass_over && d > farthest {
                    continue;
                }
                let dest = here + dir * d;
                let end = Pose::new(dest.x, dest.y, facing);
                let action = Action::Move {
                    order: MoveOrder::Element {
                        id,
                        path: vec![end],
                    },
                };
                if pass_over && beyond(d, end) {
                    #[cfg(test)]
                    tests::sure_too_far(b, &action);
                    continue;
                }
                tried[tries] = d.to_bits();
                tries += 1;
                if let Some(checked) = trial(b, action, refused.as_deref_mut()) {
                    return Some(checked);
                }
            }
        }
    }
    None
}

/// `b.legal_action(action)`: one move the driver tries, passed over when `refused` (when given)
/// knows it refused still, and remembered there when refused now. Test builds also keep why
/// each refused trial was refused (the rule a player would be told), so that a test can show
/// which refusals are left, and ask the battle about each move passed over (#47).
fn trial(b: &Battle, action: Action, refused: Option<&mut RefusedMemo>) -> Option<CheckedAction> {
    let Some(memo) = refused else {
        return tried(b, action);
    };
    if memo.still_refused(b, &action) {
        #[cfg(test)]
        {
            assert!(b.check(&action).is_err(), "refused still: {action:?}");
            tests::PASSED_OVER.with(|n| n.set(n.get() + 1));
        }
        return None;
    }
    #[cfg(test)]
    let refusal = b.check(&action).err();
    let answer = b.legal_action_or_else(action, |action, why| memo.remember(b, action, &why));
    #[cfg(test)]
    tests::tried_as_checked(answer.is_some(), refusal);
    answer
}

/// `b.legal_action(action)`, without remembering a refusal.
fn tried(b: &Battle, action: Action) -> Option<CheckedAction> {
    #[cfg(test)]
    {
        let refusal = b.check(&action).err();
        let checked = b.legal_action(action);
        tests::tried_as_checked(checked.is_some(), refusal);
        checked
    }
    #[cfg(not(test))]
    b.legal_action(action)
}

/// The next shot or combat the moving army chooses: the first shot the battle accepts (checked),
/// or the first combat (unchecked: the battle asked for it).
fn next_fire_or_fight(b: &Battle, roll: [DieScore; 2]) -> Option<Choice> {
    match b.phase() {
        // The shooters `awaiting` names, in its order, each reached only if those before it have
        // no shot the battle accepts (#15: the list worked out every shooter's targets).
        Phase::Shooting => {
            for shooter in b.each_pending_shooter() {
                // The shooter looked up once, not once per element (#15).
                let from = b.element(shooter);
                let (army, at) = (from.map(|s| s.army), from.map(|s| s.pose.front_mid()));
                let mut targets: Vec<(ElementId, f64)> = b
                    .elements()
                    .iter()
                    .filter(|e| e.in_play() && Some(e.army) != army)
                    .map(|e| {
                        let d = at.map_or(f64::INFINITY, |m| m.distance(e.pose.front_mid()));
                        (e.id, d)
                    })
                    .collect();
                targets.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
                // Targets that are no element on the table (a City's denizens, §4.2) come last.
                let civilians = b
                    .shot_targets(shooter)
                    .into_iter()
                    .filter(|t| b.element(*t).is_none())
                    .map(|t| (t, f64::INFINITY));
                for (target, _) in targets.into_iter().chain(civilians) {
                    let action = Action::Shoot {
                        shooter,
                        target,
                        support: Vec::new(),
                        dice: roll,
                        recoil_own_depth: Vec::new(),
                        shoots_back: false,
                    };
                    if let Ok(checked) = b.check_action(action) {
                        return Some(Choice::Checked(checked));
                    }
                }
            }
            None
        }
        // The first of the combats `awaiting` names.
        Phase::CloseCombat => {
            let (a, b_id) = b.pending_combats().first().map(|p| (p.a, p.b))?;
            Some(Choice::Unchecked(Action::Fight {
                a,
                b: b_id,
                dice: roll,
                recoil_own_depth: Vec::new(),
                c_in_c_bonus: Vec::new(),
            }))
        }
        _ => None,
    }
}

/// The demonstration battle: a Roman army (south) against Ancient Britons (north), twelve
/// elements each, deployed on a 15 BW table with a wood and a gentle hill.
pub fn demo_setup() -> BattleSetup {
    use crate::battle::{ArmySetup, ElementSetup};
    use crate::battlefield::{Battlefield, Board, BoardEdge, Variant};
    use crate::terrain::{AreaFeature, AreaKind, TerrainFeature};

    let el = |id: u32, code: &str, x: f64, y: f64, facing: f64, general: bool| ElementSetup {
        id: ElementId(id),
        kind: code.parse().expect("demo codes are valid"),
        pose: Pose::new(x, y, facing),
        general,
        contingent: None,
        dismounts_as: None,
        mobile_tower: false,
    };
    let romans = vec![
        el(1, "Cv", 7.5, 2.5, 0.0, true),
        el(2, "4Bd", 4.5, 4.0, 0.0, false),
        el(3, "4Bd", 5.5, 4.0, 0.0, false),
        el(4, "4Bd", 6.5, 4.0, 0.0, false),
        el(5, "4Bd", 7.5, 4.0, 0.0, false),
        el(6, "4Bd", 8.5, 4.0, 0.0, false),
        el(7, "4Bd", 9.5, 4.0, 0.0, false),
        el(8, "4Bd", 10.5, 4.0, 0.0, false),
        el(9, "Art", 7.5, 1.0, 0.0, false),
        el(10, "Ps", 2.5, 4.0, 0.0, false),
        el(11, "4Ax", 12.5, 4.0, 0.0, false),
        el(12, "LH", 13.0, 2.0, 0.0, false),
    ];
    let britons = vec![
        el(101, "LCh", 7.5, 12.8, 180.0, true),
        el(102, "3Wb", 4.5, 11.0, 180.0, false),
        el(103, "3Wb", 5.5, 11.0, 180.0, false),
        el(104, "3Wb", 6.5, 11.0, 180.0, false),
        el(105, "3Wb", 7.5, 11.0, 180.0, false),
        el(106, "3Wb", 8.5, 11.0, 180.0, false),
        el(107, "3Wb", 9.5, 11.0, 180.0, false),
        el(108, "3Wb", 10.5, 11.0, 180.0, false),
        el(109, "LCh", 3.0, 12.8, 180.0, false),
        el(110, "LCh", 12.0, 12.8, 180.0, false),
        el(111, "Ps", 2.5, 11.0, 180.0, false),
        el(112, "Ps", 12.5, 11.0, 180.0, false),
    ];
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::Wood,
        crate::geometry::Point::new(3.2, 7.5),
        1.7,
        1.55,
        0.0,
        20,
    )));
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::GentleHill,
        crate::geometry::Point::new(11.5, 7.6),
        1.5,
        1.1,
        0.0,
        20,
    )));
    let armies = vec![
        ArmySetup {
            name: "Romans".into(),
            base_edge: BoardEdge::South,
            elements: romans,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        },
        ArmySetup {
            name: "Britons".into(),
            base_edge: BoardEdge::North,
            elements: britons,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        },
    ];
    BattleSetup::new(Variant::Standard, bf, armies)
}

/// The two armies of the demonstration game before the battle: a Roman army (aggression 3,
/// arable) and Ancient Britons (aggression 1, forest), twelve elements each, for
/// [`play_game`]. The elements are those of [`demo_setup`] without their positions.
pub fn demo_armies() -> PrebattleSetup {
    let entry =
        |name: &str, aggression, home_terrain, setup: &crate::battle::ArmySetup| ArmyEntry {
            name: name.to_string(),
            aggression,
            home_terrain,
            littoral: false,
            elements: setup
                .elements
                .iter()
                .map(|e| EntryElement {
                    general: e.general,
                    ..EntryElement::new(e.kind)
                })
                .collect(),
            commands: Vec::new(),
        };
    let s = demo_setup();
    PrebattleSetup::new(vec![
        entry("Romans", 3, HomeTerrain::Arable, &s.armies[0]),
        entry("Britons", 1, HomeTerrain::Forest, &s.armies[1]),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    /// The nearest enemy as the driver found it before #15 passed far ones over: `min_by` of
    /// every distance. The reference `nearest` must equal.
    fn nearest_reference(candidates: &[(ElementId, Point, Point)]) -> Option<(ElementId, f64)> {
        candidates
            .iter()
            .map(|&(id, p, q)| (id, p.distance(q)))
            .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)))
    }

    fn coordinate(rng: &mut rand_pcg::Pcg64) -> f64 {
        match rng.next_u32() % 50 {
            0 => f64::NAN,
            1 => -f64::NAN,
            2 => f64::INFINITY,
            3 => f64::NEG_INFINITY,
            4 => 1e160,
            5 => 1e-160,
            6 => 0.0,
            7 => 5.0,
            _ => f64::from(rng.next_u32() % 2_000) / 100.0,
        }
    }

    /// The demonstration driver of one army, first checking at every move that passing over
    /// the moves sure to be too far, with the nearest enemies it remembers from its earlier
    /// decisions, chooses as asking about every move with everything worked out afresh does;
    /// and that the movers and nearest enemies it remembers are, to the bit, those worked out
    /// afresh.
    #[derive(Default)]
    struct Comparing {
        compared: usize,
        moves: usize,
        /// Decisions that found every enemy as the memo had it.
        kept: usize,
        /// Decisions whose memo was brought up to date with enemies that had changed.
        updated: usize,
        /// Carried from decision to decision, as the driver carries its own.
        memo: DriverMemo,
        listed: NearestMemo,
        driver: Demonstration,
    }

    impl Policy for Comparing {
        fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action> {
            self.next_choice(battle, dice).map(Choice::into_action)
        }

        fn next_choice(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Choice> {
            if battle.phase() == Phase::Movement {
                let fast = best_move_with(battle, true, &mut self.memo);
                let every = best_move_with(battle, false, &mut DriverMemo::new());
                assert_eq!(fast, every, "bound {}", battle.bound());
                let bits =
                    |v: &mut [(ElementId, ElementId, f64)]| -> Vec<(ElementId, ElementId, u64)> {
                        v.iter().map(|&(m, t, d)| (m, t, d.to_bits())).collect()
                    };
                let mut probe = self.listed.clone();
                if probe.bring_up_to_date(battle.elements(), battle.active_army()) {
                    if probe.stood == self.listed.stood {
                        self.kept += 1;
                    } else {
                        self.updated += 1;
                    }
                }
                let remembered = bits(movers_and_nearest_enemies(battle, &mut self.listed));
                let afresh = bits(movers_and_nearest_enemies(battle, &mut NearestMemo::new()));
                assert_eq!(remembered, afresh, "bound {}", battle.bound());
                self.compared += 1;
                self.moves += usize::from(fast.is_some());
            }
            self.driver.next_choice(battle, dice)
        }
    }

    /// #15: passing over the moves sure to be too far (DBA3.md §7.2, §7.3: a move is measured by
    /// the front corner moving furthest, and no going allows more than the element's move in
    /// good going) chooses, at every move of whole battles, the move asking every one chooses;
    /// and the nearest enemies each army's driver remembers, kept or brought up to date from
    /// one decision to the next, are those worked out afresh.
    #[test]
    fn passing_over_too_far_moves_chooses_as_asking_every_move() {
        let (mut red, mut blue) = (Comparing::default(), Comparing::default());
        let big = big_battle_setup(crate::battlefield::Variant::BigBattle);
        for (setup, seeds, bounds) in [(demo_setup(), 1..7, 40), (big, 1..3, 12)] {
            let validated = ValidatedSetup::new(setup).unwrap();
            for seed in seeds {
                let mut battle = Battle::start(&validated);
                drive_with(
                    &mut battle,
                    &mut SeededDice::new(seed),
                    bounds,
                    &mut [&mut red, &mut blue],
                );
            }
        }
        // Many decisions compared, most of them a move made; many with every enemy standing
        // as remembered, and many with enemies that had moved since.
        let sum = |f: fn(&Comparing) -> usize| f(&red) + f(&blue);
        let (compared, moves) = (sum(|c| c.compared), sum(|c| c.moves));
        let (kept, updated) = (sum(|c| c.kept), sum(|c| c.updated));
        assert!(compared > 300 && moves > 150, "{compared} {moves}");
        assert!(
            kept > compared / 3 && updated > compared / 10,
            "{kept} kept, {updated} brought up to date, of {compared}"
        );
    }

    thread_local! {
        /// Why each move the driver tried on this thread was refused (see `trial`).
        pub(super) static REFUSED: std::cell::RefCell<Vec<crate::battle::BattleError>> =
            const { std::cell::RefCell::new(Vec::new()) };
        /// How many moves the driver passed over as too far for any going (`sure_too_far`).
        pub(super) static SURE_TOO_FAR: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// How many moves the driver passed over as refused still (see `trial`).
        pub(super) static PASSED_OVER: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// A move the driver passes over as too far for any going (DBA3.md §7.2: measured by the
    /// front corner moving furthest; §7.3): the battle refuses it (as too far, or first for
    /// another rule it breaks), counted in `SURE_TOO_FAR`.
    pub(super) fn sure_too_far(b: &Battle, action: &Action) {
        assert!(b.check(action).is_err(), "{action:?} is refused");
        SURE_TOO_FAR.with(|n| n.set(n.get() + 1));
    }

    /// A trial's answer against `check`'s: they agree, and a refusal is kept in `REFUSED`.
    pub(super) fn tried_as_checked(accepted: bool, refusal: Option<crate::battle::BattleError>) {
        assert_eq!(accepted, refusal.is_none(), "check and legal_action agree");
        if let Some(e) = refusal {
            REFUSED.with(|r| r.borrow_mut().push(e));
        }
    }

    /// #47: the driver tries no move of an element in close combat (DBA3.md §7.1) or of one
    /// whose move the PIPs left do not pay for (§6.3), the refusals `Battle::may_move_alone`
    /// tells without a path; the refusals left are those that depend on the path (an element
    /// in the way, too far for the going, a threat zone).
    #[test]
    fn driver_tries_no_move_of_an_element_that_may_not_move() {
        use crate::battle::movement::MoveError;
        use crate::battle::BattleError;
        REFUSED.with(|r| r.borrow_mut().clear());
        PASSED_OVER.with(|n| n.set(0));
        SURE_TOO_FAR.with(|n| n.set(0));
        let big = big_battle_setup(crate::battlefield::Variant::BigBattle);
        let mut moves = 0;
        for (setup, seeds, bounds) in [(demo_setup(), 1..9, 40), (big, 1..3, 12)] {
            let validated = ValidatedSetup::new(setup).unwrap();
            for seed in seeds {
                moves += play_validated(&validated, seed, bounds)
                    .unwrap()
                    .events
                    .iter()
                    .filter(|e| matches!(e, Event::Moved { .. }))
                    .count();
            }
        }
        let refused = REFUSED.with(|r| std::mem::take(&mut *r.borrow_mut()));
        let path_free = refused
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    BattleError::NotEnoughPips { .. }
                        | BattleError::Move(MoveError::InCloseCombat { .. })
                )
            })
            .count();
        assert!(moves > 300, "{moves} moves");
        assert_eq!(path_free, 0, "of {} refused trials", refused.len());
        // #47: many moves refused earlier in the bound were passed over for what still
        // refused them (an element in the way, §7.2; too far, §7.3), and `trial` asked the
        // battle about each: every one was refused.
        let passed_over = PASSED_OVER.with(|n| n.replace(0));
        assert!(
            passed_over > refused.len() / 2,
            "{passed_over} passed over, {} refused",
            refused.len()
        );
        // And moves too far for any going were not asked (§7.2, §7.3): the battle refused each
        // as too far (`sure_too_far`), and few too-far refusals are left among the trials.
        let sure = SURE_TOO_FAR.with(|n| n.replace(0));
        let too_far = refused
            .iter()
            .filter(|e| matches!(e, BattleError::Move(MoveError::TooFar { .. })))
            .count();
        assert!(
            sure > too_far,
            "{sure} passed over as too far, {too_far} asked"
        );
    }

    #[test]
    fn nearest_equals_the_least_of_every_distance() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        for case in 0..20_000 {
            let n = (rng.next_u32() % 14) as usize;
            let q = Point::new(coordinate(&mut rng), coordinate(&mut rng));
            let candidates: Vec<(ElementId, Point, Point)> = (0..n)
                .map(|k| {
                    // Ids out of order and repeated distances, so that ties are met.
                    let id = ElementId(rng.next_u32() % 8 + 10 * k as u32);
                    let p = if rng.next_u32() % 4 == 0 {
                        Point::new(q.x + 3.0, q.y - 4.0)
                    } else {
                        Point::new(coordinate(&mut rng), coordinate(&mut rng))
                    };
                    (id, p, q)
                })
                .collect();
            let got = nearest(candidates.iter().copied());
            let want = nearest_reference(&candidates);
            assert_eq!(
                got.map(|(id, d)| (id, d.to_bits())),
                want.map(|(id, d)| (id, d.to_bits())),
                "case {case}: {candidates:?}"
            );
        }
    }
}
