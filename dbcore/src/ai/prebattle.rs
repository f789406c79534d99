//! The opponent's pre-battle (§3.7, §3.8, §4.6, §5.2, §5.4): every choice of its army, made
//! through [`Prebattle::check`] and [`Prebattle::apply`] like every player's; only the dice (the
//! aggression and placement dice) are the demonstration's, drawn from its seeded dice, with the
//! other army's choices when the opponent does not play it.
//!
//! Each choice follows from one measure, the army's taste for difficult going (its share of
//! troops at home in bad or rough going less its share of mounted troops):
//! * **Terrain** (as the defender choosing from its home terrain, §3.7): of many legal sets of
//!   features it takes the one that suits its troops: more difficult going the more of its army
//!   fights well there (Psiloi, Auxilia, Warband, Hordes, Bows) and less of it the more of its
//!   army is mounted.
//! * **Quarters** (§3.8, a placement die of 5 or 6): a feature the army wants (a difficult one
//!   when it likes difficult going) goes to a quarter that can hold it, the one with the fewest
//!   features yet, spreading them over the table; one it does not want goes to a quarter that
//!   cannot hold it (the feature is then discarded), or else to the most crowded quarter,
//!   leaving open ground elsewhere.
//! * **Placement spots** (§3.8, as the defender): of the referee's legal spots in the quarter,
//!   a wanted feature takes the one nearest the table's centre, where the battle is fought, an
//!   unwanted one the one farthest from it; a feature it neither wants nor minds takes the
//!   referee's first spot.
//! * **Base edge** (§5.2, as the invader): the allowed edge whose deployment zone (6 BW deep)
//!   holds the going that suits it best: the most difficult going for an army that likes it,
//!   the least for one that does not.
//! * **Camp** (§4.6): the legal 2 × 1 BW spot on its base edge with the most difficult going in
//!   the 3 BW in front of it, the hardest for an enemy to reach and sack, nearer the centre of
//!   the edge on a tie; with camp followers.
//! * **Deployment** (§5.4): each element, heavy troops first, goes to the legal place on its
//!   deployment line where it meets best the enemy already deployed opposite (the exact odds of
//!   a plain front-to-front fight between the two kinds, weighted by what each is worth), or,
//!   before the enemy has deployed, as near the centre of its line as it can.
//!
//! Readings where the rules say nothing (an opponent is not a rule): the score of a terrain set
//! counts features by type only (where they fall is the placement die's and then the quarter's
//! and spot's choices above); the deployment looks one element ahead and never moves an element
//! it has placed; a choice it finds no legal answer for (no camp spot where one is compulsory)
//! is left to the demonstration, which lets the referee say why.

use crate::battle::prebattle::placement::{camp_outline, candidates, find_placement, BUA_KINDS};
use crate::battle::prebattle::{
    Prebattle, PrebattleAction, PrebattleError, PrebattleEvent, PrebattleRequest,
};
use crate::battle::ElementId;
use crate::battlefield::{BoardEdge, Quarter};
use crate::combat::{odds, Combatant, Outcome, Situation};
use crate::dice::SeededDice;
use crate::geometry::{Point, Pose};
use crate::terrain::{
    centroid, check_home_terrain, FeatureType, Going, GoingContext, TerrainFeature, TerrainLimits,
};
use crate::troops::{ElementKind, TroopType};

use super::{mix, AiConfig};

/// Play the whole pre-battle: army `a`'s choices by the opponent when `ai[a]` (an army beyond
/// `ai` is the demonstration's), every die, the other army's choices and any choice the
/// opponent finds no legal answer for by the demonstration driver with `dice`. The events, as
/// [`crate::driver::play_prebattle`] gives them.
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
        let own = if req_army(&req).is_some_and(mine) {
            choose(pre, &req, config)
        } else {
            None
        };
        let action = match own {
            Some(a) => a,
            None => crate::driver::prebattle_choice(pre, &req, dice)?,
        };
        events.extend(pre.apply(action)?);
    }
    Ok(events)
}

/// The army whose choice `req` asks for, if it asks for a choice (not dice).
fn req_army(req: &PrebattleRequest) -> Option<usize> {
    match req {
        PrebattleRequest::Features { army, .. }
        | PrebattleRequest::Quarter { army, .. }
        | PrebattleRequest::Placement { army, .. }
        | PrebattleRequest::BaseEdge { army, .. }
        | PrebattleRequest::Camp { army, .. }
        | PrebattleRequest::Deployment { army, .. } => Some(*army),
        _ => None,
    }
}

/// The opponent's own answer to `req` for the army it asks, or `None` for what the opponent
/// leaves to the demonstration driver (dice, the PIP allocation, the camps and deployment of a
/// Big Battle or Giant army, which go by command, §14.3, and any choice it finds no legal answer
/// for).
pub fn choose(
    pre: &Prebattle,
    req: &PrebattleRequest,
    config: &AiConfig,
) -> Option<PrebattleAction> {
    match req {
        PrebattleRequest::Features { army, .. } => features(pre, *army, config),
        PrebattleRequest::Quarter { army, feature } => Some(quarter(pre, *army, *feature)),
        PrebattleRequest::Placement {
            army,
            feature,
            quarter,
        } => Some(placement(pre, *army, *feature, *quarter)),
        PrebattleRequest::BaseEdge { army, allowed } => base_edge(pre, *army, allowed),
        PrebattleRequest::Camp {
            army, compulsory, ..
        } if !pre.setup().is_by_command() => camp(pre, *army, *compulsory),
        PrebattleRequest::Deployment { army, remaining } if !pre.setup().is_by_command() => {
            deploy(pre, *army, remaining)
        }
        _ => None,
    }
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

/// How much army `army` wants a feature of type `t` on the table: its taste for difficult going
/// for a difficult feature, nothing for the others.
fn want(pre: &Prebattle, army: usize, t: FeatureType) -> f64 {
    if difficult(t) {
        taste_for_bad_going(pre, army)
    } else {
        0.0
    }
}

/// Whether a feature of type `t` has a legal spot in quarter `q` now.
fn placeable(pre: &Prebattle, t: FeatureType, q: Quarter) -> bool {
    let variant = pre.setup().variant;
    find_placement(pre.battlefield(), t, BUA_KINDS[0], q, variant, 0).is_some()
}

/// The quarter army `army` gives a feature of type `t` (§3.8): see the module's description.
fn quarter(pre: &Prebattle, army: usize, t: FeatureType) -> PrebattleAction {
    let bf = pre.battlefield();
    let seat = crate::battle::prebattle::placement::PLACEMENT_SEAT;
    // Features already in each quarter, by the quarter of their centre.
    let crowd = |q: Quarter| {
        bf.areas()
            .filter(|(_, a)| bf.board.quarter(centroid(&a.outline), seat) == q)
            .count()
    };
    let quarters: Vec<Quarter> = (1..=4).map(Quarter).collect();
    let (open, closed): (Vec<Quarter>, Vec<Quarter>) =
        quarters.iter().partition(|&&q| placeable(pre, t, q));
    let wanted = want(pre, army, t);
    let quarter = if wanted < 0.0 && !closed.is_empty() {
        closed[0]
    } else if wanted < 0.0 {
        // The most crowded quarter, the first of those on a tie.
        *open
            .iter()
            .rev()
            .max_by_key(|&&q| crowd(q))
            .unwrap_or(&quarters[0])
    } else {
        *open
            .iter()
            .min_by_key(|&&q| crowd(q))
            .unwrap_or(&quarters[0])
    };
    PrebattleAction::ChooseQuarter { quarter }
}

/// Spots tried for one feature: the referee's search started at this many places of its list.
const CANDIDATE_SPOTS: usize = 24;

/// Where the defender puts a feature of type `t` in quarter `q` (§3.8), or its discard when the
/// referee finds no legal spot: see the module's description.
fn placement(pre: &Prebattle, army: usize, t: FeatureType, q: Quarter) -> PrebattleAction {
    let bf = pre.battlefield();
    let variant = pre.setup().variant;
    let bua = BUA_KINDS[0];
    let wanted = want(pre, army, t);
    let first = find_placement(bf, t, bua, q, variant, 0);
    let Some(first) = first else {
        return PrebattleAction::DiscardFeature;
    };
    if wanted == 0.0 {
        return PrebattleAction::PlaceFeature { feature: first };
    }
    let centre = crate::geometry::Point::new(bf.board.width * 0.5, bf.board.depth * 0.5);
    let spread = |f: &TerrainFeature| match f {
        TerrainFeature::Area(a) => (centroid(&a.outline) - centre).length(),
        _ => 0.0,
    };
    let n = candidates(&bf.board, t, bua, q).len().max(1);
    let mut best = (wanted * -spread(&first), first);
    for k in 1..CANDIDATE_SPOTS {
        let Some(f) = find_placement(bf, t, bua, q, variant, k * n / CANDIDATE_SPOTS) else {
            continue;
        };
        let score = wanted * -spread(&f);
        if score > best.0 {
            best = (score, f);
        }
    }
    PrebattleAction::PlaceFeature { feature: best.1 }
}

/// How hard the going is at `p` for troops that mind it: 2 in bad going, 1 in rough, else 0.
fn difficulty_at(pre: &Prebattle, p: Point) -> f64 {
    pre.battlefield()
        .areas()
        .filter(|(_, a)| a.outline.contains(p))
        .filter_map(|(_, a)| a.going(GoingContext::default()))
        .map(|g| match g {
            Going::Bad | Going::Impassable => 2.0,
            Going::Rough => 1.0,
            Going::Good => 0.0,
        })
        .fold(0.0, f64::max)
}

/// The mean difficulty of the going in the strip `depth` BW deep in front of `edge` from `from`
/// to `to` BW along it, sampled every ½ BW.
fn strip_difficulty(pre: &Prebattle, edge: BoardEdge, from: f64, to: f64, depth: f64) -> f64 {
    let board = &pre.battlefield().board;
    let (a, b) = board.edge_segment(edge);
    let u = (b - a) * (1.0 / board.edge_length(edge));
    let n = board.inward(edge);
    let (mut sum, mut count) = (0.0, 0.0);
    let mut along = from + 0.25;
    while along < to {
        let mut d = 0.25;
        while d < depth {
            sum += difficulty_at(pre, a + u * along + n * d);
            count += 1.0;
            d += 0.5;
        }
        along += 0.5;
    }
    if count > 0.0 {
        sum / count
    } else {
        0.0
    }
}

/// The invader's base edge (§5.2): see the module's description. `None` when none is allowed.
fn base_edge(pre: &Prebattle, army: usize, allowed: &[BoardEdge]) -> Option<PrebattleAction> {
    let taste = taste_for_bad_going(pre, army);
    let board = &pre.battlefield().board;
    let mut best: Option<(f64, BoardEdge)> = None;
    for &edge in allowed {
        let score = taste * strip_difficulty(pre, edge, 0.0, board.edge_length(edge), 6.0);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, edge));
        }
    }
    best.map(|(_, edge)| PrebattleAction::ChooseBaseEdge { edge })
}

/// Army `army`'s camp (§4.6): see the module's description. `None` leaves a compulsory camp
/// with no legal spot to the demonstration.
fn camp(pre: &Prebattle, army: usize, compulsory: bool) -> Option<PrebattleAction> {
    let board = &pre.battlefield().board;
    let base = pre.base_edge(army)?;
    let len = board.edge_length(base);
    // The shore of a waterway along the base edge, which the camp stands behind.
    let shore = pre.battlefield().features.iter().find_map(|f| match f {
        TerrainFeature::Waterway(w) if w.edge == base => {
            Some(w.depths.iter().copied().fold(0.0, f64::max))
        }
        _ => None,
    });
    let offsets: Vec<f64> = match shore {
        Some(s) => (0..=8).map(|i| s + f64::from(i) * 0.25).collect(),
        None => vec![0.0],
    };
    let (length, depth) = (2.0, 1.0);
    let mut best: Option<(f64, crate::geometry::Polygon)> = None;
    let mut along = 0.0;
    while along + length <= len + 1e-9 {
        for &off in &offsets {
            let outline = camp_outline(board, base, along, length, depth, off);
            if !pre.camp_problems(army, &outline).is_empty() {
                continue;
            }
            let ahead = strip_difficulty(pre, base, along, along + length, off + depth + 3.0);
            let score = ahead - 0.05 * (along + length * 0.5 - len * 0.5).abs();
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, outline));
            }
            break;
        }
        along += 0.5;
    }
    match best {
        Some((_, outline)) => Some(PrebattleAction::PlaceCamp {
            outline,
            camp_followers: true,
        }),
        None if !compulsory => Some(PrebattleAction::NoCamp),
        None => None,
    }
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
    // Garrisons for the defender's Cities and Forts are the demonstration's to place.
    if Some(army) == pre.defender()
        && pre
            .battlefield()
            .areas()
            .any(|(_, a)| a.kind.is_fortified())
    {
        return None;
    }
    // Heavy troops first, mounted troops and Psiloi after them, the general last.
    let order = crate::driver::deployment_order(entry, army, remaining, |k| {
        k.is_mounted() || k.troop_type() == TroopType::Ps
    });
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
    let camp = pre.camp(army).cloned();
    for f in rows {
        let mut best: Option<(f64, PrebattleAction)> = None;
        let mut lat = 0.5;
        while lat < len - 0.5 {
            let p = a + u * lat + n * f;
            let pose = Pose::new(p.x, p.y, facing);
            lat += 0.5;
            // §4.6: a camp holds camp followers or one element, never both; the line stands
            // clear of its own camp.
            if camp.as_ref().is_some_and(|c| {
                let r = crate::geometry::ElementRect::new(pose, 1.0, depth);
                crate::terrain::polygons_intersect(
                    &crate::geometry::Polygon::new(r.corners().to_vec()),
                    c,
                )
            }) {
                continue;
            }
            let lat = lat - 0.5;
            let action = PrebattleAction::Deploy { id, pose };
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
        }
        if let Some((_, action)) = best {
            return Some(action);
        }
    }
    None
}
