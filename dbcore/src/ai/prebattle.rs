//! The opponent's pre-battle (§3.7, §5.4): the choices of its army that shape the battle, made
//! through [`Prebattle::check`] and [`Prebattle::apply`] like every player's; the dice and the
//! choices it leaves to chance (quarters, placement spots, base edge, camp) are the
//! demonstration's, with its dice.
//!
//! * **Terrain** (as the defender choosing from its home terrain, §3.7): of many legal sets of
//!   features it takes the one that suits its troops: more difficult going the more of its army
//!   fights well there (Psiloi, Auxilia, Warband, Hordes, Bows) and less of it the more of its
//!   army is mounted.
//! * **Deployment** (§5.4): each element, heavy troops first, goes to the legal place on its
//!   deployment line where it meets best the enemy already deployed opposite (the exact odds of
//!   a plain front-to-front fight between the two kinds, weighted by what each is worth), or,
//!   before the enemy has deployed, as near the centre of its line as it can.
//!
//! Readings where the rules say nothing (an opponent is not a rule): the score of a terrain set
//! counts features by type only (where they fall is the placement die's); the deployment looks
//! one element ahead and never moves an element it has placed.

use crate::battle::prebattle::{
    element_id, Prebattle, PrebattleAction, PrebattleError, PrebattleEvent, PrebattleRequest,
};
use crate::battle::ElementId;
use crate::combat::{odds, Combatant, Outcome, Situation};
use crate::dice::SeededDice;
use crate::geometry::{Point, Pose};
use crate::terrain::{check_home_terrain, FeatureType, TerrainLimits};
use crate::troops::{ElementKind, TroopType};

use super::{mix, AiConfig};

/// Play the whole pre-battle: army `a`'s choices by the opponent when `ai[a]` (an army beyond
/// `ai` is the demonstration's), every die and every other choice by the demonstration driver
/// with `dice`. The events, as [`crate::driver::play_prebattle`] gives them.
pub fn play_prebattle(
    pre: &mut Prebattle,
    dice: &mut SeededDice,
    ai: &[bool],
    config: &AiConfig,
) -> Result<Vec<PrebattleEvent>, PrebattleError> {
    let mut events = Vec::new();
    // Every request is answered by one action; the cap guards against a loop.
    for _ in 0..10_000 {
        let Some(req) = pre.awaiting() else {
            return Ok(events);
        };
        let mine = |army: usize| ai.get(army).copied().unwrap_or(false);
        let own = match &req {
            PrebattleRequest::Features { army, .. } if mine(*army) => features(pre, *army, config),
            // Big Battle and Giant deploy by command (§14.3): the driver's deployment does it.
            PrebattleRequest::Deployment { army, remaining }
                if mine(*army) && !pre.setup().is_by_command() =>
            {
                deploy(pre, *army, remaining)
            }
            _ => None,
        };
        let action = match own {
            Some(a) => a,
            None => crate::driver::prebattle_choice(pre, &req, dice)?,
        };
        events.extend(pre.apply(action)?);
    }
    Ok(events)
}

/// How much army `army` wants difficult going: its share of troops at home there less its
/// share of mounted troops, from -1 to 1.
fn taste_for_bad_going(pre: &Prebattle, army: usize) -> f64 {
    let els = &pre.setup().armies[army].elements;
    if els.is_empty() {
        return 0.0;
    }
    let n = els.len() as f64;
    let at_home = els
        .iter()
        .filter(|e| {
            matches!(
                e.kind.troop_type(),
                TroopType::Ps | TroopType::Ax | TroopType::Wb | TroopType::Hd | TroopType::Bw
            )
        })
        .count() as f64;
    let mounted = els.iter().filter(|e| e.kind.is_mounted()).count() as f64;
    (at_home - mounted) / n
}

/// Difficult (bad or rough going) features count for the taste; the rest are neutral.
fn difficult(t: FeatureType) -> bool {
    matches!(
        t,
        FeatureType::DifficultHill
            | FeatureType::Wood
            | FeatureType::Marsh
            | FeatureType::Gully
            | FeatureType::Dunes
            | FeatureType::Oasis
            | FeatureType::Rocky
            | FeatureType::Scrub
            | FeatureType::Boggy
            | FeatureType::Enclosures
    )
}

/// Candidate feature sets drawn from the home terrain's list (the seed's stream), the legal one
/// that best suits the army.
fn features(pre: &Prebattle, army: usize, config: &AiConfig) -> Option<PrebattleAction> {
    let home = pre.setup().armies[army].home_terrain;
    let variant = pre.setup().variant;
    let list = home.list();
    let limits = TerrainLimits::for_variant(variant);
    let taste = taste_for_bad_going(pre, army);
    let mut state = mix(config.seed, 0x7465_7272);
    let mut pick = |n: usize| -> usize {
        state = mix(state, 1);
        if n == 0 {
            0
        } else {
            (state % n as u64) as usize
        }
    };
    let mut best: Option<(f64, PrebattleAction)> = None;
    for _ in 0..CANDIDATE_TERRAINS {
        if list.compulsory.is_empty() {
            break;
        }
        let opt = &list.compulsory[pick(list.compulsory.len())];
        let max = opt.max.min(limits.compulsory.1).max(opt.min);
        let n = opt.min as usize + pick((max - opt.min) as usize + 1);
        let compulsory: Vec<FeatureType> =
            (0..n).map(|_| opt.types[pick(opt.types.len())]).collect();
        let (lo, hi) = limits.optional;
        let k = lo as usize + pick((hi.max(lo) - lo) as usize + 1);
        let optional: Vec<FeatureType> = (0..k)
            .filter(|_| !list.optional.is_empty())
            .map(|_| list.optional[pick(list.optional.len())])
            .collect();
        if !check_home_terrain(home, variant, &compulsory, &optional).is_empty() {
            continue;
        }
        let hard = compulsory
            .iter()
            .chain(&optional)
            .filter(|t| difficult(**t))
            .count() as f64;
        let score = taste * hard;
        let action = PrebattleAction::ChooseFeatures {
            compulsory,
            optional,
        };
        if best.as_ref().is_some_and(|(b, _)| score <= *b) || pre.check(&action).is_err() {
            continue;
        }
        best = Some((score, action));
    }
    best.map(|(_, a)| a)
}

/// Feature sets tried for one choice of terrain.
const CANDIDATE_TERRAINS: usize = 60;

/// Expected losses per unit of worth of `x` against `y` front to front in the open: (x's, y's).
fn plain(x: ElementKind, y: ElementKind, cfg: &crate::RulesConfig) -> (f64, f64) {
    let sit = Situation::close_combat(Combatant::new(x), Combatant::new(y));
    odds(&sit, cfg).map_or((0.0, 0.0), |o| {
        let f = |c: &[u8; 4]| {
            let p = |x: Outcome| f64::from(c[x as usize]) / 36.0;
            p(Outcome::Destroyed) + 0.45 * p(Outcome::Flee) + 0.1 * p(Outcome::Recoil)
        };
        (f(&o.a), f(&o.b))
    })
}

/// The next element's place: heavy troops first (Artillery and War Wagons, then the others, the
/// general last), each at the legal spot of its first rows where it meets the enemy opposite
/// best. `None` leaves the choice to the demonstration (nowhere found, or a garrison to place).
fn deploy(pre: &Prebattle, army: usize, remaining: &[ElementId]) -> Option<PrebattleAction> {
    let entry = &pre.setup().armies[army];
    let board = &pre.battlefield().board;
    let base = pre.base_edge(army)?;
    let cfg = &pre.setup().config;
    let index_of = |id: ElementId| (0..entry.elements.len()).find(|&i| element_id(army, i) == id);
    // Garrisons for the defender's Cities and Forts are the demonstration's to place.
    if Some(army) == pre.defender()
        && pre
            .battlefield()
            .areas()
            .any(|(_, a)| a.kind.is_fortified())
    {
        return None;
    }
    let mut order: Vec<(u8, usize, ElementId)> = remaining
        .iter()
        .filter_map(|&id| {
            let i = index_of(id)?;
            let e = &entry.elements[i];
            let t = e.kind.troop_type();
            let rank = if e.general {
                3
            } else if t == TroopType::Art || t == TroopType::WWg {
                0
            } else if e.kind.is_mounted() || t == TroopType::Ps {
                2
            } else {
                1
            };
            Some((rank, i, id))
        })
        .collect();
    order.sort();
    let &(rank, i, id) = order.first()?;
    let kind = entry.elements[i].kind;
    let depth = cfg.depth(kind);
    let n = board.inward(base);
    let facing = n.x.atan2(n.y).to_degrees().rem_euclid(360.0);
    let (a, b) = board.edge_segment(base);
    let len = board.edge_length(base);
    let u = (b - a) * (1.0 / len);
    let half = board.across(base) * 0.5;
    // The enemy already on the table, with where each stands along this army's line.
    let enemies: Vec<(f64, ElementKind, bool)> = pre
        .setup()
        .armies
        .iter()
        .enumerate()
        .filter(|(x, _)| *x != army)
        .flat_map(|(x, e)| e.elements.iter().enumerate().map(move |(j, el)| (x, j, el)))
        .filter_map(|(x, j, el)| {
            let p = pre.pose(x, j)?;
            Some(((Point::new(p.x, p.y) - a).dot(u), el.kind, el.general))
        })
        .collect();
    let rows = crate::driver::deployment_rows(half, depth, rank, 4);
    let worth = |k: ElementKind, general: bool| -> f64 {
        let base = if k.is_double() { 14.0 } else { 10.0 };
        base + if general { 10.0 } else { 0.0 }
    };
    let mine_general = entry.elements[i].general;
    for f in rows {
        let mut best: Option<(f64, PrebattleAction)> = None;
        let mut lat = 0.5;
        while lat < len - 0.5 {
            let p = a + u * lat + n * f;
            let action = PrebattleAction::Deploy {
                id,
                pose: Pose::new(p.x, p.y, facing),
            };
            // Meeting the enemy opposite (within 1.5 BW along the line), and a small pull to
            // the centre so that the line holds together.
            let mut score = -0.05 * (lat - len * 0.5).abs();
            for &(along, k, g) in &enemies {
                if (along - lat).abs() <= 1.5 {
                    let (mine, theirs) = plain(kind, k, cfg);
                    score += theirs * worth(k, g) - mine * worth(kind, mine_general);
                }
            }
            if best.as_ref().is_none_or(|(b, _)| score > *b) && pre.check(&action).is_ok() {
                best = Some((score, action));
            }
            lat += 0.5;
        }
        if let Some((_, action)) = best {
            return Some(action);
        }
    }
    None
}
