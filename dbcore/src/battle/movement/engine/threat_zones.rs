//! Threat zones (§8.1): the zones the enemy projects, where a mover first enters one, and the
//! moves still allowed once it is in one.

use super::*;

/// Every enemy threat zone against the moving army (§8.1): enemy elements not in close combat
/// (§17.15), all round for War Wagons; camps, cities and forts held by another army.
pub(super) fn enemy_zones(ctx: &MoveContext) -> Vec<(Projector, KeptZone)> {
    zones_of(ctx, |j| !silenced(ctx, j))
}

/// Whether enemy element `j` projects no zone because it is in close combat (§17.15, unless the
/// rules say otherwise).
fn silenced(ctx: &MoveContext, j: usize) -> bool {
    !ctx.config.moves.close_combat_threat_zones && in_close_combat(ctx, j)
}

/// [`enemy_zones`] with the zones of enemies in close combat too, in the same order: what the
/// memo keeps, so that whether an enemy is in close combat is asked only of the zones near a
/// path (#47: asking it of every enemy was a twentieth of a driven battle).
fn zones_in_or_out_of_combat(ctx: &MoveContext) -> Vec<(Projector, KeptZone)> {
    zones_of(ctx, |_| true)
}

/// The zones of the enemy elements in play for which `keep` holds, then of the enemy
/// strongholds, in that order.
fn zones_of(ctx: &MoveContext, keep: impl Fn(usize) -> bool) -> Vec<(Projector, KeptZone)> {
    // Room for every element and place at once (#15: growing it copied the zones three times).
    let mut v = Vec::with_capacity(ctx.elements.len() + ctx.strongholds.len());
    for (j, o) in ctx.elements.iter().enumerate() {
        if !o.in_play() || o.army == ctx.army || !keep(j) {
            continue;
        }
        let all_round = o.kind.troop_type() == TroopType::WWg;
        v.push((
            Projector::Element(j),
            KeptZone::of_element(&o.rect(ctx.config), all_round),
        ));
    }
    for (k, s) in ctx.strongholds.iter().enumerate() {
        if s.army != ctx.army {
            v.push((
                Projector::Stronghold(k),
                KeptZone::Perimeter(s.perimeter.clone()),
            ));
        }
    }
    v
}

/// Where a mover first is in, or reaches, an enemy zone: (leg, distance along it, pose there,
/// projectors).
pub(super) struct Entry {
    leg: usize,
    t: f64,
    pose: Pose,
    projectors: Vec<Projector>,
}

pub(super) fn zone_entry(mover: &MoverPath, zones: &[&(Projector, KeptZone)]) -> Option<Entry> {
    for (li, leg) in mover.legs.iter().enumerate() {
        let holding = |r: &ElementRect| -> Vec<Projector> {
            zones
                .iter()
                .filter(|(_, z)| z.view().relation(r) != ZoneRelation::Outside)
                .map(|(p, _)| *p)
                .collect()
        };
        let at_start = holding(&leg.from);
        if !at_start.is_empty() {
            return Some(Entry {
                leg: li,
                t: 0.0,
                pose: leg.from.pose,
                projectors: at_start,
            });
        }
        if leg.turns() || leg.wheel.is_some() {
            let at_end = holding(&leg.to);
            if !at_end.is_empty() {
                return Some(Entry {
                    leg: li,
                    t: 0.0,
                    pose: leg.from.pose,
                    projectors: at_end,
                });
            }
            continue;
        }
        let shift = leg.shift();
        let len = shift.length();
        if len <= 0.0 {
            continue;
        }
        let hits: Vec<(f64, Projector)> = zones
            .iter()
            .filter_map(|(p, z)| {
                z.view()
                    .entry_distance(&leg.from, shift, len)
                    .map(|t| (t, *p))
            })
            .collect();
        if let Some(t) = hits.iter().map(|h| h.0).reduce(f64::min) {
            let at = leg.from.pose.front_mid() + shift * (t / len);
            return Some(Entry {
                leg: li,
                t,
                pose: Pose::new(at.x, at.y, leg.from.pose.facing),
                projectors: hits
                    .iter()
                    .filter(|h| h.0 <= t + TOLERANCE)
                    .map(|h| h.1)
                    .collect(),
            });
        }
    }
    None
}

/// Whether the mover meets every enemy zone, if at all, only at the very end of its move (§8.1,
/// the module's reading): its legs before the last never reach one, the last is straight, and
/// for each zone it ends in it ends on the outer boundary (within [`TOLERANCE`] of the gap, not
/// of the distance along the path, so that the same tolerance holds whatever the angle of
/// approach) and was closing on it all the way: the gap to a convex zone along a straight move
/// is convex, so a gap still shrinking at the end was larger everywhere before.
pub(super) fn reaches_zones_only_at_end(m: &MoverPath, zones: &[&(Projector, KeptZone)]) -> bool {
    let Some((last, before)) = m.legs.split_last() else {
        return true;
    };
    let earlier = MoverPath {
        idx: m.idx,
        legs: before.iter().copied().collect(),
    };
    if !before.is_empty() && zone_entry(&earlier, zones).is_some() {
        return false;
    }
    let len = last.shift().length();
    if last.turns() || last.wheel.is_some() {
        return zones.iter().all(|(_, z)| {
            z.view().relation(&last.from) == ZoneRelation::Outside
                && z.view().relation(&last.to) == ZoneRelation::Outside
        });
    }
    let dir = last.shift();
    let at = |t: f64| {
        let c = last.from.pose.front_mid() + dir * (t / len.max(f64::MIN_POSITIVE));
        ElementRect::new(
            Pose::new(c.x, c.y, last.from.pose.facing),
            1.0,
            last.from.depth,
        )
    };
    zones.iter().all(|(_, z)| {
        let Some(t) = z.view().entry_distance(&last.from, dir, len) else {
            return true;
        };
        if t >= len - TOLERANCE && z.view().relation(&last.to) != ZoneRelation::Inside {
            return true;
        }
        if t <= 0.0 || z.view().relation(&last.to) != ZoneRelation::OnBoundary {
            return false;
        }
        let end = z.view().gap(&last.to);
        let step = (len - t).min(TOLERANCE);
        z.view().gap(&at(len - step)) >= end - 1e-12 && z.view().gap(&at(t)) > end + 1e-9
    })
}

/// §8.1 (b): every mover goes straight back, without turning, its full move distance.
pub(super) fn straight_back_full(p: &Proposal, full: f64) -> bool {
    p.movers.iter().all(|m| {
        m.legs.len() == 1 && {
            let l = &m.legs[0];
            let f = l.from.pose.forward();
            let s = l.shift();
            !l.turns() && s.dot(f) <= -(full - TOLERANCE) && s.dot(f.right()).abs() <= TOLERANCE
        }
    })
}

/// §8.1 (a): the move advances to touch, or to square up to, the front edge of the projector.
pub(super) fn advances_on(
    ctx: &MoveContext,
    p: &Proposal,
    m: &MoverPath,
    entry: &Pose,
    who: Projector,
) -> bool {
    match who {
        Projector::Element(j) => {
            let er = rect(ctx, j);
            let touches_front = p.movers.iter().any(|q| {
                classify_contact(&q.end(), &er).is_some_and(|c| {
                    matches!(
                        c.b,
                        Some(ContactPart::Edge(Edge::Front))
                            | Some(ContactPart::Corner(Corner::FrontLeft))
                            | Some(ContactPart::Corner(Corner::FrontRight))
                    ) && matches!(
                        c.a,
                        Some(ContactPart::Edge(Edge::Front))
                            | Some(ContactPart::Corner(Corner::FrontLeft))
                            | Some(ContactPart::Corner(Corner::FrontRight))
                    )
                })
            });
            if touches_front {
                return true;
            }
            // Advancing or squaring up: the front-edge midpoint gets nearer the line of the
            // enemy's front edge (moving along that line is not advancing) or the mover turns to
            // face it more squarely, without getting further from that line, further off to the
            // side of it, or less squarely faced.
            let end = m.end().pose;
            let dist = |q: &Pose| local(&er.pose, q.front_mid()).1.abs();
            let lat = |q: &Pose| local(&er.pose, q.front_mid()).0.abs();
            let ang = |q: &Pose| angle_diff(q.facing, er.pose.facing + 180.0).abs();
            let progress = dist(&end) < dist(entry) - TOLERANCE || ang(&end) < ang(entry) - 1e-6;
            progress
                && dist(&end) <= dist(entry) + TOLERANCE
                && lat(&end) <= lat(entry) + TOLERANCE
                && ang(&end) <= ang(entry) + 1e-6
        }
        Projector::Stronghold(k) => {
            let poly = &ctx.strongholds[k].perimeter;
            let d = |r: &ElementRect| {
                let rp = r.polygon();
                let mut best = f64::INFINITY;
                for e in poly.edges() {
                    for f in rp.edges() {
                        best = best.min(e.distance_to_segment(&f));
                    }
                }
                best
            };
            // §8.1 (a) reads "or contact that camp, city or fort": only ending in contact will do.
            p.movers.iter().any(|q| d(&q.end()) <= TOLERANCE)
        }
    }
}

/// The box (min x, min y, max x, max y) of every position the movers of `p` take: each leg's
/// start and end and the area it sweeps; `None` when a coordinate is not finite.
pub(super) fn path_bounds(p: &Proposal) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    let mut add = |q: Point| {
        b = Some(match b {
            None => (q.x, q.y, q.x, q.y),
            Some(a) => (a.0.min(q.x), a.1.min(q.y), a.2.max(q.x), a.3.max(q.y)),
        });
    };
    for m in &p.movers {
        for leg in &m.legs {
            leg.from.corners().into_iter().for_each(&mut add);
            leg.to.corners().into_iter().for_each(&mut add);
            leg.swept()
                .iter()
                .flat_map(|p| p.iter().copied())
                .for_each(&mut add);
        }
    }
    b.filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite() && b.3.is_finite())
}

pub(super) fn check_threat_zones(
    ctx: &MoveContext,
    p: &Proposal,
    full: f64,
) -> Result<(), MoveError> {
    // The zones of a battle state are worked out once for every move checked against it.
    // The enemies in close combat are among them, and passed over below.
    let fresh;
    let zones: &[(Projector, KeptZone)] = match ctx
        .close_combat
        .and_then(|memo| memo.enemy_zones(ctx, || zones_in_or_out_of_combat(ctx)))
    {
        Some(known) => known,
        None => {
            fresh = zones_in_or_out_of_combat(ctx);
            &fresh
        }
    };
    // Only the zones near the path can be met on it: the box of every position of every leg
    // (its start, its end and what it sweeps) against each zone's box, with a margin far above
    // the tolerance of a touch. The zones keep their order, so every answer is as before. They
    // are lent, not copied (#15: a copy of every zone near every move checked).
    let bounds = path_bounds(p);
    // Of those, an enemy in close combat projects none (§17.15): asked only of the zones near.
    let zones: Vec<&(Projector, KeptZone)> = zones
        .iter()
        .filter(|(w, z)| {
            let m = NEAR_CONTACT;
            let near = bounds.is_none_or(|b| {
                z.view().bounds().is_none_or(|z| {
                    !(z.2 + m < b.0 || b.2 + m < z.0 || z.3 + m < b.1 || b.3 + m < z.1)
                })
            });
            near && !matches!(w, Projector::Element(j) if silenced(ctx, *j))
        })
        .collect();
    let zones = zones.as_slice();
    let mut first: Option<(usize, Entry)> = None;
    for (k, m) in p.movers.iter().enumerate() {
        if let Some(e) = zone_entry(m, zones) {
            let better = first
                .as_ref()
                .is_none_or(|(_, f)| (e.leg, e.t) < (f.leg, f.t));
            if better {
                first = Some((k, e));
            }
        }
    }
    let Some((k, entry)) = first else {
        return Ok(());
    };
    if entry.leg == 0 && entry.t <= TOLERANCE && straight_back_full(p, full) {
        return Ok(());
    }
    let m = &p.movers[k];
    // Reaching a zone's boundary with the very end of the move leaves nothing to restrict.
    if p.movers.iter().all(|q| reaches_zones_only_at_end(q, zones)) {
        return Ok(());
    }
    if entry
        .projectors
        .iter()
        .any(|&who| advances_on(ctx, p, m, &entry.pose, who))
    {
        return Ok(());
    }
    let enemies = entry
        .projectors
        .iter()
        .filter_map(|w| match w {
            Projector::Element(j) => Some(ctx.elements[*j].id),
            Projector::Stronghold(_) => None,
        })
        .collect();
    Err(MoveError::ThreatZone {
        id: ctx.elements[m.idx].id,
        enemies,
        full,
    })
}
