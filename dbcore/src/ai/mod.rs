//! A computer opponent (issue #16): a player that chooses the moving army's whole bound — its
//! moves while PIPs last, the order and targets of its shots, the order of its close combats and
//! its recoil choices — through the public API only: [`Battle::legal`], [`Battle::check`] and
//! [`Battle::apply`] on clones, and the exact odds of [`crate::odds`].
//!
//! It is a greedy one-ply search over a bound: each decision tries candidate actions on clones of
//! the battle, scores each resulting position with [`evaluate`], and takes the best, ending the
//! movement when no move improves on standing still. The score is the loss totals of §13.2, the
//! expected result of every contact on the table (the probability of each outcome out of the 36
//! dice pairs, weighted by the element's worth, for both sides), the threat of enemies that can
//! reach an element next bound, and a small pull towards the enemy so that a battle is fought.
//!
//! There is no clock inside: the budget is a number of **nodes** (one node is one clone checked
//! and scored), and a caller that wants a time limit passes a "should stop" closure
//! ([`choose_until`]). The seed only orders the candidates (which matters when the budget runs
//! out before they are all tried), so a decision is a function of the battle, the budget in
//! nodes and the seed.
//!
//! Its candidate moves are contacts of every kind, steps towards the enemy, groups advancing
//! as one, columns of elements lined up behind one another (§7.4), moves along roads (§7.5,
//! free of PIPs when wholly along one) and dismounting (§7.9); the river is diced when a move it
//! considers needs to know the river's state (§3.5, §7.8). Its shots weigh supporting shooters
//! (§9.4) and the target shooting back (§17.24). Its pre-battle choices are in [`prebattle`];
//! [`play_game_with`] plays a whole game between two armies with any players.
//!
//! Readings where the rules say nothing (an opponent is not a rule):
//! * In the shooting phase the moving player orders every shot, its enemy's too (the battle asks
//!   it); the opponent scores each shot, its support and shooting back from its own side, so it
//!   picks the enemy's shots that hurt it least, as a player ordering them would.
//! * It chooses which shot or combat comes next without looking at the dice already drawn for it
//!   (a player at the table picks before rolling); the dice are used only for the recoil choice
//!   (§12.1), which a player makes after seeing the result.
//! * When no dice are given it draws them itself from its seed, like the demonstration driver.
//!
//! # Above the driver
//!
//! The opponent stands on [`crate::driver`]: it plays through the driver's pre-battle helpers,
//! its [`Policy`] trait and its whole-game loop, and the driver imports nothing from here (the
//! module graph test, `dbcore/tests/suite/module_graph.rs`, keeps it so; issue #48).

use serde::{Deserialize, Serialize};

use crate::battle::{
    close_combat_situation, close_combats, losses, shot_situation, Action, Battle, BattleError,
    DiceRequest, ElementId, ElementState, MoveError, MoveOrder, Phase,
};
use crate::combat::{odds, Combatant, Outcome, Situation};
use crate::dice::{DieScore, SeededDice};
use crate::driver::Policy;
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{Point, Pose};
use crate::troops::{ElementKind, TroopType};

pub mod notation;
pub mod prebattle;

use crate::battle::legal_actions::{
    column_moves, element_to, group_advance, road_moves, side_by_side,
};

/// How hard the opponent thinks and which of its equal choices it makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct AiConfig {
    /// Positions it may try for one decision (one clone checked and scored each).
    pub nodes: u32,
    /// Orders the candidates and draws the dice it is not given.
    pub seed: u64,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            nodes: DEFAULT_NODES,
            seed: 0,
        }
    }
}

/// The node budget of [`AiConfig::default`]: enough for every candidate of a usual decision.
pub const DEFAULT_NODES: u32 = 400;

/// Why the opponent has no action to give.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AiError {
    /// The battle has ended: there is nothing to choose.
    #[error("§13.2: the battle is over")]
    Finished,
    /// No candidate the battle accepts was found within the budget (the battle awaits a shot or
    /// combat none of whose choices is legal).
    #[error("no legal action found for army {army} in phase {phase:?}")]
    NoAction {
        /// The army to move.
        army: usize,
        /// The phase the battle is in.
        phase: Phase,
    },
}

impl ErrorInfo for AiError {
    fn code(&self) -> ErrorCode {
        match self {
            AiError::Finished => ErrorCode::BattleOver,
            AiError::NoAction { .. } => ErrorCode::Internal,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            AiError::Finished => Some("§13.2"),
            AiError::NoAction { .. } => None,
        }
    }
}

/// The opponent as a [`Policy`] for [`crate::driver::play_battle_with`].
#[derive(Debug, Clone)]
pub struct Ai {
    /// Its budget and seed.
    pub config: AiConfig,
    /// Nodes spent on every decision so far.
    pub nodes_spent: u64,
    /// Decisions made so far.
    pub decisions: u64,
}

impl Ai {
    /// An opponent with this configuration, nothing spent yet.
    pub fn new(config: AiConfig) -> Self {
        Ai {
            config,
            nodes_spent: 0,
            decisions: 0,
        }
    }
}

impl Policy for Ai {
    fn next_action(&mut self, battle: &Battle, dice: Option<[DieScore; 2]>) -> Option<Action> {
        let mut budget = Budget::new(self.config.nodes, None);
        let action = decide(battle, dice, &self.config, &mut budget).ok();
        self.nodes_spent += u64::from(self.config.nodes - budget.left);
        self.decisions += 1;
        action
    }
}

/// The next action of the moving army, within `config.nodes` nodes. Every action it returns has
/// been accepted by the battle on a clone, so applying it to `battle` succeeds.
pub fn choose(
    battle: &Battle,
    dice: Option<[DieScore; 2]>,
    config: &AiConfig,
) -> Result<Action, AiError> {
    decide(battle, dice, config, &mut Budget::new(config.nodes, None))
}

/// As [`choose`], also stopping as soon as `should_stop` answers true (asked before every node):
/// a caller's clock gives a time budget. The best action found so far is returned.
pub fn choose_until(
    battle: &Battle,
    dice: Option<[DieScore; 2]>,
    config: &AiConfig,
    should_stop: &mut dyn FnMut() -> bool,
) -> Result<Action, AiError> {
    decide(
        battle,
        dice,
        config,
        &mut Budget::new(config.nodes, Some(should_stop)),
    )
}

/// The rest of the moving army's bound as the opponent would play it from here, on a clone of
/// `battle`, with dice drawn from `config.seed`: every action up to the end of the bound (or of
/// the battle), the PIP roll included when it is awaited.
pub fn plan_bound(battle: &Battle, config: &AiConfig) -> Result<Vec<Action>, AiError> {
    let mut b = battle.clone();
    let army = b.active_army();
    let bound = b.bound();
    let mut out = Vec::new();
    let mut ai = Ai::new(*config);
    // Each step applies an action; a bound has at most a few dozen.
    for _ in 0..1000 {
        if b.active_army() != army
            || b.bound() != bound
            || matches!(b.phase(), Phase::Finished { .. })
        {
            break;
        }
        let action = match b.phase() {
            Phase::AwaitingPips | Phase::Movement => {
                decide(&b, None, &ai.config, &mut Budget::new(config.nodes, None))?
            }
            _ => ai
                .next_action(&b, Some(dice_for(&b, config.seed)))
                .ok_or(AiError::NoAction {
                    army,
                    phase: b.phase(),
                })?,
        };
        b.apply(action.clone()).map_err(|_| AiError::NoAction {
            army,
            phase: b.phase(),
        })?;
        out.push(action);
    }
    Ok(out)
}

/// Nodes left and the caller's stop.
struct Budget<'a> {
    left: u32,
    stop: Option<&'a mut dyn FnMut() -> bool>,
}

impl<'a> Budget<'a> {
    fn new(nodes: u32, stop: Option<&'a mut dyn FnMut() -> bool>) -> Self {
        Budget { left: nodes, stop }
    }
    /// Take one node: false when the budget is spent or the caller says stop.
    fn take(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        if let Some(stop) = self.stop.as_mut() {
            if stop() {
                self.left = 0;
                return false;
            }
        }
        self.left -= 1;
        true
    }
}

/// Dice of the seed for this point of the battle: the same battle and seed give the same dice.
fn dice_for(b: &Battle, seed: u64) -> [DieScore; 2] {
    let mut d = SeededDice::new(mix(seed, b.actions().len() as u64));
    d.roll_pair()
}

/// A SplitMix64 step: the seed's stream for one decision.
fn mix(seed: u64, salt: u64) -> u64 {
    let mut z = seed
        .wrapping_add(salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Shuffle `v` with the stream of `state` (Fisher–Yates).
fn shuffle<T>(v: &mut [T], mut state: u64) {
    for i in (1..v.len()).rev() {
        state = mix(state, i as u64);
        let j = (state % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

fn decide(
    battle: &Battle,
    dice: Option<[DieScore; 2]>,
    config: &AiConfig,
    budget: &mut Budget,
) -> Result<Action, AiError> {
    let army = battle.active_army();
    let phase = battle.phase();
    let none = AiError::NoAction { army, phase };
    match phase {
        Phase::Finished { .. } => Err(AiError::Finished),
        // Big Battle and Giant: one die a command still rolling, in the order asked (§14.4).
        Phase::AwaitingPips => Ok(match battle.awaiting() {
            Some(DiceRequest::CommandPips { commands, .. }) => {
                let mut d = SeededDice::new(mix(
                    seed_of_pips(config.seed),
                    battle.actions().len() as u64,
                ));
                Action::RollCommandPips {
                    dice: commands.iter().map(|_| d.roll()).collect(),
                }
            }
            _ => Action::RollPips {
                die: dice_for(battle, config.seed)[0],
            },
        }),
        // §14.5: a demoralised command's flight comes first in its bound, after the holds that
        // keep its elements on the table (the demonstration driver's, which look no further).
        Phase::Movement if battle.flight_due() => {
            Ok(crate::driver::big_battle::hold_worth_buying(battle)
                .map_or(Action::Flee, |c| c.into_action()))
        }
        Phase::Movement => Ok(movement(battle, config, budget)),
        Phase::Shooting => {
            let roll = dice.unwrap_or_else(|| dice_for(battle, config.seed));
            shoot(battle, roll, budget).ok_or(none)
        }
        Phase::CloseCombat => {
            let roll = dice.unwrap_or_else(|| dice_for(battle, config.seed));
            fight(battle, roll, budget).ok_or(none)
        }
    }
}

/// The best move of the moving army, or [`Action::EndMovement`] when none improves its position.
fn movement(battle: &Battle, config: &AiConfig, budget: &mut Budget) -> Action {
    let me = battle.active_army();
    let mut ev = Evaluator::default();
    let standing = ev.evaluate(battle, me);
    let mut cands = candidates(battle);
    shuffle(&mut cands, mix(config.seed, battle.actions().len() as u64));
    let mut best: Option<(f64, Action)> = None;
    let mut river_wanted = false;
    for c in cands {
        if !budget.take() {
            break;
        }
        let mut trial = battle.clone();
        match trial.apply(c.clone()) {
            Ok(_) => {}
            Err(BattleError::Move(MoveError::RiverNotDiced { .. })) => {
                river_wanted = true;
                continue;
            }
            Err(_) => continue,
        }
        let v = ev.evaluate(&trial, me);
        if best.as_ref().is_none_or(|(bv, _)| v > *bv) {
            best = Some((v, c));
        }
    }
    match best {
        Some((v, c)) if v > standing + MIN_GAIN => c,
        // §3.5, §7.8: a move it considered must first know the river's state. A player dices
        // the river when about to cross it, so the opponent rolls it now (once a game) and
        // chooses its move again with the river known, at its next decision.
        _ if river_wanted && battle.legal().may_dice_river => Action::DiceRiver {
            die: dice_for(battle, config.seed ^ RIVER_SALT)[0],
        },
        _ => Action::EndMovement,
    }
}

/// The seed of the command PIP dice (Big Battle and Giant), apart from the other dice drawn at
/// the same point of the battle.
fn seed_of_pips(seed: u64) -> u64 {
    seed ^ 0x5049_5053_0000
}

/// Keeps the river's die apart from the PIP die drawn at the same point of the battle.
const RIVER_SALT: u64 = 0x5249_5645_5200;

/// A move must improve the score by this much to be worth its PIPs.
const MIN_GAIN: f64 = 0.05;

/// Candidate moves: contacts of every kind on the enemies an element may reach, steps towards the
/// nearest enemy and straight ahead, and groups of side-by-side elements advancing together.
fn candidates(b: &Battle) -> Vec<Action> {
    let legal = b.legal();
    let me = b.active_army();
    let mut out = Vec::new();
    let contacts = crate::battle::queries::CONTACTS;
    let enemies: Vec<&ElementState> = b
        .elements()
        .iter()
        .filter(|e| e.army != me && e.in_play())
        .collect();
    let mut movers: Vec<(ElementId, f64)> = Vec::new();
    for lm in legal.moves.iter().filter(|m| m.affordable && !m.road_only) {
        let Some(e) = b.element(lm.id) else { continue };
        let here = e.pose.front_mid();
        if lm.move_number == 1 {
            movers.push((lm.id, lm.reach_good));
        }
        let mut near: Vec<(f64, ElementId, Point)> = enemies
            .iter()
            .map(|t| (t.pose.front_mid().distance(here), t.id, t.pose.front_mid()))
            .collect();
        near.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        for &(d, target, _) in near.iter().take(4) {
            if d > lm.reach_good + 2.0 {
                break;
            }
            for contact in contacts {
                out.push(Action::Move {
                    order: MoveOrder::IntoContact {
                        ids: vec![lm.id],
                        target,
                        contact,
                    },
                });
            }
        }
        if let Some(&(d, _, aim)) = near.first() {
            let to = aim - here;
            let bearing = to.x.atan2(to.y).to_degrees();
            let reach = (d - 1.2).max(0.0).min(lm.reach_good);
            for f in [1.0, 0.5] {
                let step = reach * f;
                if step >= 0.25 {
                    let dest = here + Point::from_bearing(bearing) * step;
                    out.push(element_to(lm.id, dest, bearing));
                }
            }
            for step in [lm.reach_good, lm.reach_good * 0.5, 1.0] {
                let step = step.min((d - 1.2).max(0.0));
                if step >= 0.25 {
                    let dest = here + e.pose.forward() * step;
                    out.push(element_to(lm.id, dest, e.pose.facing));
                }
            }
            // Back off from an enemy that may reach it (a turn in place costs no distance).
            let back = here - e.pose.forward() * 1.0;
            out.push(element_to(lm.id, back, e.pose.facing));
        }
    }
    // §7.9: dismounting is the element's whole move; the score says whether foot serve better.
    for lm in legal
        .moves
        .iter()
        .filter(|m| m.affordable && m.may_dismount)
    {
        out.push(Action::Move {
            order: MoveOrder::Dismount { id: lm.id },
        });
    }
    out.extend(road_moves(b, &legal.moves, true));
    out.extend(column_moves(b, &movers));
    for group in side_by_side(b, &movers) {
        let reach = group
            .iter()
            .filter_map(|id| movers.iter().find(|m| m.0 == *id).map(|m| m.1))
            .fold(f64::INFINITY, f64::min);
        for step in [reach, reach * 0.5, 1.0] {
            out.push(group_advance(group.clone(), step));
        }
    }
    out
}

/// The shot with the best expected result for the moving army, among those the battle accepts.
fn shoot(b: &Battle, roll: [DieScore; 2], budget: &mut Budget) -> Option<Action> {
    let me = b.active_army();
    let legal = b.legal();
    let cfg = &b.setup().config;
    let strongholds = b.held_strongholds_kept();
    let ctx = b.move_context(&strongholds);
    let mut scored: Vec<(f64, Action)> = Vec::new();
    let army_of = |id: ElementId| b.element(id).map(|e| e.army);
    for s in &legal.shots {
        for &t in &s.targets {
            // §9.4: up to two more shooters of the same army that may shoot at the same target
            // support the shot (each then has shot); §17.24: a target that may shoot back.
            let helpers: Vec<ElementId> = legal
                .shots
                .iter()
                .filter(|o| {
                    o.shooter != s.shooter
                        && army_of(o.shooter) == army_of(s.shooter)
                        && o.targets.contains(&t)
                })
                .map(|o| o.shooter)
                .take(2)
                .collect();
            let mut supports = vec![Vec::new()];
            for k in 1..=helpers.len() {
                supports.push(helpers[..k].to_vec());
            }
            let target_may_shoot_back = legal
                .shots
                .iter()
                .any(|o| o.shooter == t && o.targets.contains(&s.shooter));
            for support in supports {
                for back in [false, true] {
                    if back && !target_may_shoot_back {
                        continue;
                    }
                    let Some(o) = shot_situation(&ctx, s.shooter, t, &support, back)
                        .ok()
                        .and_then(|sit| odds(&sit, cfg).ok())
                    else {
                        continue;
                    };
                    let (mine, theirs, my_el, their_el) = if army_of(s.shooter) == Some(me) {
                        (&o.a, &o.b, s.shooter, t)
                    } else {
                        (&o.b, &o.a, t, s.shooter)
                    };
                    let mut value = expected_loss(theirs, b.element(their_el))
                        - expected_loss(mine, b.element(my_el));
                    // A supporter's shot is spent: worth it only for a clearly better shot.
                    let spent = SUPPORT_SHOT_COST * support.len() as f64;
                    value += if army_of(s.shooter) == Some(me) {
                        -spent
                    } else {
                        spent
                    };
                    scored.push((
                        value,
                        Action::Shoot {
                            shooter: s.shooter,
                            target: t,
                            support: support.clone(),
                            dice: roll,
                            recoil_own_depth: Vec::new(),
                            shoots_back: back,
                        },
                    ));
                }
            }
        }
    }
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut first_legal = None;
    for (_, a) in scored {
        if b.check(&a).is_ok() {
            first_legal = Some(a);
            break;
        }
        if !budget.take() {
            break;
        }
    }
    first_legal
        .or_else(|| {
            // The budget ran out or no listed target was accepted: the demonstration's choice.
            crate::driver::Demonstration::new().next_action(b, Some(roll))
        })
        .filter(|a| b.check(a).is_ok())
}

/// What a supporting shooter gives up by supporting (its own shot), in the units of
/// [`expected_loss`].
const SUPPORT_SHOT_COST: f64 = 0.5;

/// The close combat with the best expected result for the moving army first, with the recoil
/// choice (§12.1) that leaves it the better position once the dice are known.
fn fight(b: &Battle, roll: [DieScore; 2], budget: &mut Budget) -> Option<Action> {
    let me = b.active_army();
    let Some(DiceRequest::Combat { pairs }) = b.awaiting() else {
        return None;
    };
    let cfg = &b.setup().config;
    let strongholds = b.held_strongholds_kept();
    let ctx = b.move_context(&strongholds);
    let mut scored: Vec<(f64, ElementId, ElementId)> = pairs
        .iter()
        .map(|&(a, c)| {
            let v = close_combat_situation(&ctx, a, c)
                .ok()
                .and_then(|sit| odds(&sit, cfg).ok())
                .map_or(0.0, |o| {
                    let a_mine = b.element(a).map(|e| e.army) == Some(me);
                    let (ea, ec) = (b.element(a), b.element(c));
                    let v = expected_loss(&o.b, ec) - expected_loss(&o.a, ea);
                    if a_mine {
                        v
                    } else {
                        -v
                    }
                });
            (v, a, c)
        })
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut ev = Evaluator::default();
    for (_, a, c) in scored {
        let mine: Vec<ElementId> = [a, c]
            .into_iter()
            .filter(|id| {
                b.element(*id)
                    .is_some_and(|e| e.army == me && e.kind.is_mounted())
            })
            .collect();
        let mut options = vec![Vec::new()];
        if !mine.is_empty() {
            options.push(mine);
        }
        let mut best: Option<(f64, Action)> = None;
        for own in options {
            let action = Action::Fight {
                a,
                b: c,
                dice: roll,
                recoil_own_depth: own,
                c_in_c_bonus: Vec::new(),
            };
            let mut trial = b.clone();
            if trial.apply(action.clone()).is_err() {
                continue;
            }
            let v = if budget.take() {
                ev.evaluate(&trial, me)
            } else {
                f64::NEG_INFINITY
            };
            if best.as_ref().is_none_or(|(bv, _)| v > *bv) {
                best = Some((v, action));
            }
        }
        if let Some((_, action)) = best {
            return Some(action);
        }
    }
    None
}

/// What an element is worth, in tenths of a loss (§13.2): 10 for an element that counts, one more
/// loss for the general, less for those whose loss does not count.
pub fn worth(e: &ElementState) -> f64 {
    let base = match e.kind.troop_type() {
        TroopType::SCh | TroopType::Hd => 3.0,
        TroopType::CampFollowers | TroopType::Denizens => 1.0,
        _ if e.kind.is_double() => 14.0,
        _ => 10.0,
    };
    base + if e.general { 10.0 } else { 0.0 }
}

/// The expected cost of the outcome counts `o` (out of 36, indexed as [`Outcome::ALL`]) to `e`:
/// destruction costs its worth, a flight most of it (fleeing elements are often lost), a recoil a
/// little (it may be blocked, and it gives up ground).
fn expected_loss(o: &[u8; 4], e: Option<&ElementState>) -> f64 {
    let Some(e) = e else { return 0.0 };
    let p = |x: Outcome| f64::from(o[x as usize]) / 36.0;
    worth(e) * (p(Outcome::Destroyed) + 0.45 * p(Outcome::Flee) + 0.1 * p(Outcome::Recoil))
}

/// The score of a position for army `me` (higher is better), with the odds of a plain
/// front-to-front fight between two kinds remembered across calls.
#[derive(Debug, Default, Clone)]
struct Evaluator {
    plain: Vec<((ElementKind, ElementKind), (f64, f64))>,
}

/// Weight of the threat of enemies that could reach an element in their next bound.
const THREAT: f64 = 0.45;
/// Points for each BW nearer the enemy (summed over elements).
const ADVANCE: f64 = 0.12;
/// Points for each pair of friends side by side (flanks covered).
const SUPPORT: f64 = 0.4;

impl Evaluator {
    /// Expected losses (per unit of worth) of `x` and `y` if `x` met `y` front to front in the
    /// open: (x's, y's).
    fn plain(&mut self, x: ElementKind, y: ElementKind, cfg: &crate::RulesConfig) -> (f64, f64) {
        if let Some((_, v)) = self.plain.iter().find(|(k, _)| *k == (x, y)) {
            return *v;
        }
        let sit = Situation::close_combat(Combatant::new(x), Combatant::new(y));
        let v = odds(&sit, cfg).map_or((0.0, 0.0), |o| {
            let f = |c: &[u8; 4]| {
                let p = |x: Outcome| f64::from(c[x as usize]) / 36.0;
                p(Outcome::Destroyed) + 0.45 * p(Outcome::Flee) + 0.1 * p(Outcome::Recoil)
            };
            (f(&o.a), f(&o.b))
        });
        self.plain.push(((x, y), v));
        v
    }

    fn evaluate(&mut self, b: &Battle, me: usize) -> f64 {
        if let Phase::Finished { winner } = b.phase() {
            return match winner {
                Some(w) if w == me => 10_000.0,
                Some(_) => -10_000.0,
                None => 0.0,
            };
        }
        let cfg = &b.setup().config;
        let els = b.elements();
        let armies = b.setup().armies.len();
        let mut score = 0.0;
        // §13.2: losses decide; each one nearer the threshold of 4 weighs more.
        for army in 0..armies {
            let t = f64::from(losses(els, army, false, 0).total());
            let weight = 10.0 * t + 4.0 * (t - 2.0).max(0.0);
            score += if army == me {
                -weight
            } else {
                weight / (armies - 1).max(1) as f64
            };
        }
        let strongholds = b.held_strongholds_kept();
        let ctx = b.move_context(&strongholds);
        let mut engaged: Vec<ElementId> = Vec::new();
        // Contacts on the table: the moving army fights them this bound.
        for pair in close_combats(&ctx) {
            engaged.push(pair.a);
            engaged.push(pair.b);
            // A pair of `close_combats(&ctx)`: its situation without looking for it again.
            let Ok(sit) = crate::battle::engagement::close_combat_situation_of_known_pair(
                &ctx, pair.a, pair.b,
            ) else {
                continue;
            };
            let Ok(o) = odds(&sit, cfg) else { continue };
            let (ea, eb) = (b.element(pair.a), b.element(pair.b));
            let v = expected_loss(&o.b, eb) - expected_loss(&o.a, ea);
            score += if ea.map(|e| e.army) == Some(me) {
                v
            } else {
                -v
            };
        }
        let mine: Vec<&ElementState> = els.iter().filter(|e| e.army == me && e.in_play()).collect();
        let theirs: Vec<&ElementState> =
            els.iter().filter(|e| e.army != me && e.in_play()).collect();
        for m in &mine {
            let here = m.pose.front_mid();
            let nearest = theirs
                .iter()
                .map(|t| t.pose.front_mid().distance(here))
                .fold(f64::INFINITY, f64::min);
            if nearest.is_finite() {
                score -= ADVANCE * nearest;
            }
            if engaged.contains(&m.id) {
                continue;
            }
            // The worst enemy that could reach it next bound and is not already fighting.
            let mut worst: f64 = 0.0;
            for t in &theirs {
                if engaged.contains(&t.id) || t.kind.never_contacts_enemy() {
                    continue;
                }
                let reach = cfg.move_distance(t.kind, false) + 0.5;
                if t.pose.front_mid().distance(here) > reach {
                    continue;
                }
                let (lt, lm) = self.plain(t.kind, m.kind, cfg);
                let v = lm * worth(m) - lt * worth(t);
                worst = worst.max(v);
            }
            score -= THREAT * worst;
            let friends = mine
                .iter()
                .filter(|f| f.id != m.id)
                .filter(|f| {
                    let d = f.pose.front_mid() - here;
                    d.dot(m.pose.forward()).abs() < 0.1 && d.cross(m.pose.forward()).abs() < 1.05
                })
                .count();
            score += SUPPORT * friends.min(2) as f64 * 0.5;
        }
        score
    }
}

/// Score a position for army `me` as the opponent does (higher is better for `me`): loss totals,
/// the expected result of every contact, threats and the pull towards the enemy.
pub fn evaluate(battle: &Battle, me: usize) -> f64 {
    Evaluator::default().evaluate(battle, me)
}

/// A mirrored set-up for measuring a player against another: both armies are army `army` of
/// `setup` (its elements, general and camp rule), the second turned half round about the board's
/// centre, with ids offset by 100 (ids must stay unique). The terrain is `setup`'s. Swapping which
/// side each player takes, battle by battle, cancels what the terrain and the first bound favour.
pub fn mirrored(setup: &crate::battle::BattleSetup, army: usize) -> crate::battle::BattleSetup {
    use crate::battlefield::BoardEdge;
    let board = setup.battlefield.board;
    let src = &setup.armies[army.min(setup.armies.len().saturating_sub(1))];
    let mut south = src.clone();
    south.base_edge = BoardEdge::South;
    south.camp = None;
    let mut north = south.clone();
    north.base_edge = BoardEdge::North;
    north.name = format!("{} (mirror)", src.name);
    let flip = |p: Pose| {
        Pose::new(
            board.width - p.x,
            board.depth - p.y,
            (p.facing + 180.0) % 360.0,
        )
    };
    // The source army may stand on either edge: put its copy on the south edge first.
    if src.base_edge == BoardEdge::North {
        for e in &mut south.elements {
            e.pose = flip(e.pose);
        }
    }
    north.elements = south
        .elements
        .iter()
        .map(|e| crate::battle::ElementSetup {
            id: ElementId(e.id.0 + 100),
            pose: flip(e.pose),
            ..e.clone()
        })
        .collect();
    let mut out = crate::battle::BattleSetup::new(
        setup.variant,
        setup.battlefield.clone(),
        vec![south, north],
    );
    out.config = setup.config.clone();
    out.free_army_size = setup.free_army_size;
    out
}

pub use crate::driver::PrebattlePlayer;

/// A whole game between two armies with the battle played by `policies` (army `i` by
/// `policies[i]`, as [`crate::driver::drive_with`]): the pre-battle (aggression, terrain,
/// edges, camps, deployment) through [`crate::battle::prebattle`] by `prebattle`, then the
/// battle until an army loses or `max_bounds` bounds have begun, every die from `seed`. With the
/// demonstration's pre-battle ([`crate::driver::play_prebattle`]) both colours of a mirrored
/// pair of games (the same seed, the players swapped) fight on the same field.
pub fn play_game_with(
    setup: crate::battle::prebattle::PrebattleSetup,
    seed: u64,
    max_bounds: u32,
    prebattle: &mut PrebattlePlayer<'_>,
    policies: &mut [&mut dyn Policy],
) -> Result<crate::driver::DrivenGame, crate::driver::DriveError> {
    crate::driver::play_game_to_end_with(setup, seed, max_bounds, prebattle, policies)
        .map(|(game, _)| game)
}
