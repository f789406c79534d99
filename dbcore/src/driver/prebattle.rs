//! The demonstration driver's pre-battle (DBA3.md §3.7, §3.8, §4.6, §5): it chooses features from
//! the defender's home terrain, places them where the referee's search finds room, picks a base
//! edge, pitches camps on the base edges and deploys each army as a line facing the enemy (heavy
//! troops in the centre, light troops on the wings, the general behind the centre, a garrison in
//! a friendly City or Fort). Every choice goes through [`Prebattle::check`]/[`Prebattle::apply`].

use rand_core::RngCore;

use crate::battle::prebattle::placement::{camp_outline, find_placement, BUA_KINDS};
use crate::battle::prebattle::{
    element_id, side_edge_limit, Prebattle, PrebattleAction, PrebattleError, PrebattleEvent,
    PrebattleRequest,
};
use crate::battlefield::{BoardEdge, Quarter};
use crate::dice::SeededDice;
use crate::geometry::{ElementRect, Point, Polygon, Pose};
use crate::terrain::{
    centroid, check_home_terrain, polygons_intersect, FeatureType, TerrainFeature, TerrainLimits,
};

fn pick(dice: &mut SeededDice, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (dice.next_u64() % n as u64) as usize
    }
}

/// Play the whole pre-battle with dice and choices from `dice`, returning its events.
pub fn play_prebattle(
    pre: &mut Prebattle,
    dice: &mut SeededDice,
) -> Result<Vec<PrebattleEvent>, PrebattleError> {
    let mut events = Vec::new();
    // Every request is answered by one action; the cap guards against a driver bug.
    for _ in 0..10_000 {
        let Some(req) = pre.awaiting() else {
            return Ok(events);
        };
        let action = choose(pre, &req, dice)?;
        events.extend(pre.apply(action)?);
    }
    Ok(events)
}

/// The demonstration's answer to one request of the pre-battle, with dice and chance choices
/// from `dice` (the opponent, [`crate::ai`], leaves it the requests it does not decide itself).
pub fn choose(
    pre: &Prebattle,
    req: &PrebattleRequest,
    dice: &mut SeededDice,
) -> Result<PrebattleAction, PrebattleError> {
    Ok(match req {
        PrebattleRequest::AggressionDice { armies } => PrebattleAction::RollAggression {
            dice: (0..*armies).map(|_| dice.roll()).collect(),
        },
        PrebattleRequest::Features { .. } => choose_features(pre, dice),
        PrebattleRequest::PlacementDie { .. } => {
            PrebattleAction::RollPlacement { die: dice.roll() }
        }
        PrebattleRequest::Quarter { army, feature } => {
            let placeable: Vec<Quarter> = (1..=4)
                .map(Quarter)
                .filter(|&q| {
                    find_placement(
                        pre.battlefield(),
                        *feature,
                        BUA_KINDS[0],
                        q,
                        pre.setup().variant,
                        0,
                    )
                    .is_some()
                })
                .collect();
            let defender = Some(*army) == pre.defender();
            let quarter = if defender && !placeable.is_empty() {
                placeable[pick(dice, placeable.len())]
            } else if !defender && placeable.len() < 4 {
                // The invader prefers a quarter where the feature cannot go.
                let v: Vec<Quarter> = (1..=4)
                    .map(Quarter)
                    .filter(|q| !placeable.contains(q))
                    .collect();
                v[pick(dice, v.len())]
            } else {
                Quarter(1 + pick(dice, 4) as u8)
            };
            PrebattleAction::ChooseQuarter { quarter }
        }
        PrebattleRequest::Placement {
            feature, quarter, ..
        } => {
            let bua = BUA_KINDS[pick(dice, BUA_KINDS.len())];
            let start = pick(dice, 1000);
            match find_placement(
                pre.battlefield(),
                *feature,
                bua,
                *quarter,
                pre.setup().variant,
                start,
            ) {
                Some(f) => PrebattleAction::PlaceFeature { feature: f },
                None => PrebattleAction::DiscardFeature,
            }
        }
        PrebattleRequest::BaseEdge { allowed, .. } => PrebattleAction::ChooseBaseEdge {
            edge: allowed[pick(dice, allowed.len())],
        },
        // §14.4, §14.6: the C-in-C's command (listed first by the army choice) gets the highest
        // score, and so on down the list; a Giant C-in-C lets every general roll.
        PrebattleRequest::PipAllocation {
            ranked,
            each_rolls_allowed,
            ..
        } => PrebattleAction::DeclarePipAllocation {
            allocation: if *each_rolls_allowed {
                crate::battle::PipAllocation::EachRolls
            } else {
                crate::battle::PipAllocation::Ranked {
                    order: ranked.clone(),
                }
            },
        },
        PrebattleRequest::Camp {
            army,
            compulsory,
            command,
        } => {
            match find_camp(pre, *army, *command) {
                Some(outline) => PrebattleAction::PlaceCamp {
                    outline,
                    camp_followers: true,
                },
                None if !compulsory => PrebattleAction::NoCamp,
                // Nowhere legal: offer the plain one and let the referee say why.
                None => PrebattleAction::PlaceCamp {
                    outline: camp_outline(
                        &pre.battlefield().board,
                        pre.base_edge(*army).unwrap_or(BoardEdge::South),
                        6.5,
                        2.0,
                        1.0,
                        0.0,
                    ),
                    camp_followers: true,
                },
            }
        }
        PrebattleRequest::Deployment { army, remaining } if pre.setup().is_by_command() => {
            deploy_by_command(pre, *army, remaining)
        }
        PrebattleRequest::Deployment { army, remaining } => match remaining.first() {
            None => PrebattleAction::EndDeployment,
            Some(_) => {
                let len = pre
                    .base_edge(*army)
                    .map_or(0.0, |b| pre.battlefield().board.edge_length(b));
                deploy_next(pre, *army, remaining, len * 0.5, false)
            }
        },
    })
}

/// Compulsory features from one of the home terrain's options and two or three optional ones,
/// within every limit of §3.7 and with at least one difficult feature.
fn choose_features(pre: &Prebattle, dice: &mut SeededDice) -> PrebattleAction {
    let defender = pre.defender().unwrap_or(0);
    let home = pre.setup().armies[defender].home_terrain;
    let variant = pre.setup().variant;
    let list = home.list();
    let limits = TerrainLimits::for_variant(variant);
    let mut last = None;
    for _ in 0..200 {
        let opt = &list.compulsory[pick(dice, list.compulsory.len())];
        let max = opt.max.min(limits.compulsory.1);
        let n = opt.min as usize + pick(dice, (max - opt.min) as usize + 1);
        let compulsory: Vec<FeatureType> = (0..n)
            .map(|_| opt.types[pick(dice, opt.types.len())])
            .collect();
        let k = limits.optional.0 as usize
            + pick(dice, (limits.optional.1 - limits.optional.0) as usize + 1);
        let optional: Vec<FeatureType> = (0..k)
            .map(|_| list.optional[pick(dice, list.optional.len())])
            .collect();
        let ok = check_home_terrain(home, variant, &compulsory, &optional).is_empty();
        let action = PrebattleAction::ChooseFeatures {
            compulsory,
            optional,
        };
        if ok && pre.check(&action).is_ok() {
            return action;
        }
        last = Some(action);
    }
    last.unwrap_or(PrebattleAction::ChooseFeatures {
        compulsory: Vec::new(),
        optional: Vec::new(),
    })
}

/// Big Battle and Giant (§14.3): the defender sets out every command and then the invader his
/// (the quickest of the two orders, the one the driver plays), each command in its own stretch
/// of the base edge (command `k` of `n` centred at `(2k + 1) / 2n` of its length), its general
/// first, then the rest as [`deploy_next`] lines them up, every one within 8 BW of him.
fn deploy_by_command(
    pre: &Prebattle,
    army: usize,
    remaining: &[crate::battle::ElementId],
) -> PrebattleAction {
    let entry = &pre.setup().armies[army];
    let done = pre.deployed_commands(army);
    // Once the sides alternate, a command set out ends the turn.
    let set_out = entry.commands.iter().any(|c| {
        !done.contains(&c.id)
            && c.elements
                .iter()
                .all(|&i| !remaining.contains(&element_id(army, i)))
    });
    if pre.alternating() && set_out {
        return PrebattleAction::EndDeployment;
    }
    let Some((k, c)) = entry.commands.iter().enumerate().find(|(_, c)| {
        !done.contains(&c.id)
            && c.elements
                .iter()
                .any(|&i| remaining.contains(&element_id(army, i)))
    }) else {
        return PrebattleAction::EndDeployment;
    };
    let own: Vec<crate::battle::ElementId> = remaining
        .iter()
        .copied()
        .filter(|id| c.elements.iter().any(|&i| element_id(army, i) == *id))
        .collect();
    let len = pre
        .base_edge(army)
        .map_or(0.0, |b| pre.battlefield().board.edge_length(b));
    let n = entry.commands.len().max(1);
    let centre = len * (2 * k + 1) as f64 / (2 * n) as f64;
    deploy_next(pre, army, &own, centre, true)
}

/// Where along the base edge a camp is wanted: the middle for the army's camp, the middle of
/// its own command's stretch (as [`deploy_by_command`] gives it) for an allied command's.
fn camp_centre(pre: &Prebattle, army: usize, command: Option<crate::battle::CommandId>) -> f64 {
    let len = pre
        .base_edge(army)
        .map_or(0.0, |b| pre.battlefield().board.edge_length(b));
    let commands = &pre.setup().armies[army].commands;
    match command.and_then(|c| commands.iter().position(|x| x.id == c)) {
        Some(k) => len * (2 * k + 1) as f64 / (2 * commands.len()) as f64,
        None => len * 0.5,
    }
}

/// A 2 × 1 BW camp on the army's base edge (or the shore along it), as near the middle of its
/// stretch ([`camp_centre`]) as it can be.
fn find_camp(
    pre: &Prebattle,
    army: usize,
    command: Option<crate::battle::CommandId>,
) -> Option<Polygon> {
    let board = &pre.battlefield().board;
    let base = pre.base_edge(army)?;
    let middle = camp_centre(pre, army, command);
    let shore = pre
        .battlefield()
        .features
        .iter()
        .filter_map(|f| match f {
            TerrainFeature::Waterway(w) if w.edge == base => {
                Some(w.depths.iter().copied().fold(0.0, f64::max))
            }
            _ => None,
        })
        .next();
    let len = board.edge_length(base);
    let mut along: Vec<f64> = Vec::new();
    let mut d = 0.0;
    while d <= len {
        along.push(middle - 1.0 - d);
        along.push(middle - 1.0 + d);
        d += 0.5;
    }
    for (l, w) in [(2.0, 1.0), (1.5, 0.75), (1.0, 0.5)] {
        for &a in &along {
            if a < 0.0 || a + l > len {
                continue;
            }
            let offsets: Vec<f64> = match shore {
                Some(s) => (0..=8).map(|i| s + i as f64 * 0.25).collect(),
                None => vec![0.0],
            };
            for off in offsets {
                let outline = camp_outline(board, base, a, l, w, off);
                if pre.camp_problems(army, &outline).is_empty() {
                    return Some(outline);
                }
            }
        }
    }
    None
}

/// The bearing of a direction (0 = +y, clockwise).
fn bearing(v: Point) -> f64 {
    v.x.atan2(v.y).to_degrees().rem_euclid(360.0)
}

/// The next element's place: a garrison for an empty friendly City or Fort first, then the
/// line (Artillery and War Wagons first, then 4 BW kinds from the centre outwards, then 2 BW kinds
/// on the wings, the general behind the centre), row after row back from 3 BW short of the centre line.
/// The distances from the table's centre line at which an element of `depth` may be deployed, in
/// the order tried: up to `count` rows 1.5 BW apart from just behind the 3 BW no-man's land
/// (`half` is half the table's depth), those the element fits in; an element of rank 3 (the
/// rearmost kind) tries the second row first, then the rest, then the front row.
pub(crate) fn deployment_rows(half: f64, depth: f64, rank: u8, count: usize) -> Vec<f64> {
    let rows: Vec<f64> = (0..count)
        .map(|r| half - 3.05 - 1.5 * r as f64)
        .filter(|&f| f - depth > 0.01)
        .collect();
    if rank == 3 && rows.len() > 1 {
        rows[1..].iter().chain(&rows[..1]).copied().collect()
    } else {
        rows
    }
}

/// The deployment rank of an element (the lower, the sooner it is placed): 0 for Artillery and
/// War Wagons (the hardest to place, they avoid bad going), 2 for the kinds `wing` names (those
/// that go on the wings), 3 for the general (behind the centre), 1 for the rest.
pub(crate) fn deployment_rank(
    e: &crate::battle::prebattle::EntryElement,
    wing: impl Fn(crate::troops::ElementKind) -> bool,
) -> u8 {
    let t = e.kind.troop_type();
    if e.general {
        3
    } else if t == crate::troops::TroopType::Art || t == crate::troops::TroopType::WWg {
        0
    } else if wing(e.kind) {
        2
    } else {
        1
    }
}

/// The elements of `remaining` (army `army`'s, listed in `entry`) in the order they are
/// deployed: by [`deployment_rank`], then by their place in the list; each with its rank and
/// its index in `entry`.
pub(crate) fn deployment_order(
    entry: &crate::battle::prebattle::ArmyEntry,
    army: usize,
    remaining: &[crate::battle::ElementId],
    wing: impl Fn(crate::troops::ElementKind) -> bool,
) -> Vec<(u8, usize, crate::battle::ElementId)> {
    let mut order: Vec<(u8, usize, crate::battle::ElementId)> = remaining
        .iter()
        .filter_map(|&id| {
            let i = (0..entry.elements.len()).find(|&i| element_id(army, i) == id)?;
            Some((deployment_rank(&entry.elements[i], &wing), i, id))
        })
        .collect();
    order.sort();
    order
}

/// `centre` is where along the base edge the line is centred; with `general_first` the general
/// is placed before the others (Big Battle and Giant, whose elements stand within 8 BW of him).
fn deploy_next(
    pre: &Prebattle,
    army: usize,
    remaining: &[crate::battle::ElementId],
    centre: f64,
    general_first: bool,
) -> PrebattleAction {
    let entry = &pre.setup().armies[army];
    let board = &pre.battlefield().board;
    let Some(base) = pre.base_edge(army) else {
        return PrebattleAction::EndDeployment;
    };
    let index_of = |id: crate::battle::ElementId| {
        (0..entry.elements.len()).find(|&i| element_id(army, i) == id)
    };
    let n = board.inward(base);
    let facing = bearing(n);
    // Garrisons: the defender's empty Cities and Forts.
    if Some(army) == pre.defender() {
        for (_, area) in pre.battlefield().areas() {
            if !area.kind.is_fortified() {
                continue;
            }
            let c = centroid(&area.outline);
            for &id in remaining {
                let Some(i) = index_of(id) else { continue };
                let e = &entry.elements[i];
                if !e.kind.is_foot() || e.general || e.contingent.is_some() {
                    continue;
                }
                let depth = pre.setup().config.depth(e.kind);
                let p = c + n * (depth * 0.5);
                let action = PrebattleAction::Deploy {
                    id,
                    pose: Pose::new(p.x, p.y, facing),
                };
                if pre.check(&action).is_ok() {
                    return action;
                }
            }
        }
    }
    // Heavy kinds first, then light kinds, then the general.
    let mut order = deployment_order(entry, army, remaining, |k| side_edge_limit(k) < 4.0);
    if general_first {
        // Big Battle and Giant: the general first, so his elements can keep within 8 BW of him.
        for o in &mut order {
            if entry.elements[o.1].general {
                o.0 = 0;
            }
        }
        order.sort();
    }
    let (rank, i, id) = order[0];
    let kind = entry.elements[i].kind;
    let depth = pre.setup().config.depth(kind);
    let (a, b) = board.edge_segment(base);
    let len = board.edge_length(base);
    let u = (b - a) * (1.0 / len);
    let half = board.across(base) * 0.5;
    let mut camps: Vec<Polygon> = pre.camp(army).cloned().into_iter().collect();
    camps.extend(
        entry
            .commands
            .iter()
            .filter_map(|c| pre.command_camp(army, c.id).cloned()),
    );
    let mut lats = vec![0.0];
    let mut k = 1.0;
    while k < len {
        lats.push(-k);
        lats.push(k);
        k += 1.0;
    }
    let rows = deployment_rows(half, depth, rank, 6);
    for f in rows {
        for &lat in &lats {
            if !(0.0..=len).contains(&(centre + lat)) {
                continue;
            }
            let p = a + u * (centre + lat) + n * f;
            let pose = Pose::new(p.x, p.y, facing);
            let r = ElementRect::new(pose, 1.0, depth);
            let outline = Polygon::new(r.corners().to_vec());
            if camps.iter().any(|c| polygons_intersect(&outline, c)) {
                continue;
            }
            let action = PrebattleAction::Deploy { id, pose };
            if pre.check(&action).is_ok() {
                return action;
            }
        }
    }
    // Anywhere legal on the army's side, on a ½ BW grid, nearest the centre of its line first.
    let mut spots = Vec::new();
    let mut f = half - 3.0;
    while f > depth {
        let mut l = 0.0;
        while l < len {
            spots.push((f, l));
            l += 0.5;
        }
        f -= 0.5;
    }
    for (f, l) in spots {
        let p = a + u * l + n * f;
        let action = PrebattleAction::Deploy {
            id,
            pose: Pose::new(p.x, p.y, facing),
        };
        if pre.check(&action).is_ok() {
            return action;
        }
    }
    PrebattleAction::Deploy {
        id,
        pose: Pose::new(0.0, 0.0, facing),
    }
}
