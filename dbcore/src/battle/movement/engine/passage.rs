//! Passing through one's own City from gate to gate along its road (DBA3.md §4.2, §6.3, §17.10).
//!
//! Readings where the digest leaves the geometry open:
//! * **Before**: the mover is one element or a column (the first id leads, each other element's
//!   front edge against the rear edge of the one before it, all facing the same way). The leader
//!   stands wholly outside the City, its front edge against the wall with its midpoint within
//!   ½ BW of a gate, facing into the City; the City has two gates and a road reaching both.
//! * **After**: the column stands outside the other gate facing straight out from that wall, the
//!   last element's rear edge at the gate ("the last just outside the far gate"), the leader
//!   furthest out. The referee computes these poses; the mover chooses only which City.
//! * **Whose City**: one that no enemy holds (its own, garrisoned or defended by its denizens, or
//!   one that nobody holds any more). A City held by the enemy is only assaulted (§4.7).
//! * **What stops it**: the far side must be clear: on the table, not in a waterway, clear of
//!   every other element, touching no enemy and in no enemy threat zone (§8.1: the passage is
//!   none of the moves allowed there; the column may close with the enemy by its next move).
//! * **Distance and repeats**: the passage is a road move, so it is not limited by §7.3's
//!   distances and may be a second or later move (§7.5); its length (the leader's front edge
//!   from where it stood, through both gates, to where it ends) counts as distance moved (§9.1).
//!   It costs 1 PIP per element ([`crate::battle::bound::Battle::pip_cost`]), never 0.

use super::*;

/// Where the leader's front edge may stand from a gate and still be "just outside" it, BW.
pub const GATE_REACH: f64 = 0.5;

/// Plan the passage of `ids` (leader first) through the City that is battlefield feature `city`.
pub(super) fn plan_through_city(
    ctx: &MoveContext,
    ids: &[ElementId],
    city: usize,
) -> Result<MovePlan, MoveError> {
    if ids.is_empty() {
        return Err(MoveError::refused(
            "§4.2",
            "a passage through a City needs an element or a column",
        ));
    }
    let mut idxs = Vec::with_capacity(ids.len());
    for id in ids {
        let idx = index_of(ctx, *id)?;
        if idxs.contains(&idx) {
            return Err(MoveError::refused(
                "§7.4",
                format!("element {id} is named twice"),
            ));
        }
        check_may_move(ctx, idx)?;
        idxs.push(idx);
    }
    let area = match ctx.battlefield.features.get(city) {
        Some(TerrainFeature::Area(a)) if a.kind == crate::terrain::AreaKind::City => a,
        _ => {
            return Err(MoveError::refused(
                "§4.2",
                format!("battlefield feature {city} is not a City"),
            ))
        }
    };
    let outline = &area.outline;
    if area.gates.len() != 2 {
        return Err(MoveError::refused(
            "§4.2",
            format!(
                "the City that is feature {city} has {} gate(s): only a City with two gates can be passed through from gate to gate",
                area.gates.len()
            ),
        ));
    }
    if !area
        .gates
        .iter()
        .all(|g| ctx.battlefield.move_along_road(&[*g]))
    {
        return Err(MoveError::refused(
            "§4.2",
            format!(
                "no road runs through both gates of the City that is feature {city} (§3.6, §17.10)"
            ),
        ));
    }
    if holder(ctx, outline).is_some_and(|h| h != ctx.army) {
        return Err(MoveError::refused(
            "§4.2",
            format!(
                "the City that is feature {city} is held by the enemy: it is only assaulted (§4.7), not passed through"
            ),
        ));
    }
    // Before: the leader at a gate facing in, the others lined up behind it.
    let leader = rect(ctx, idxs[0]);
    let lead_id = ctx.elements[idxs[0]].id;
    let front = leader.pose.front_mid();
    let at_wall = gap_to_outline(&leader.edge(Edge::Front), outline) <= TOLERANCE;
    let Some(entry) =
        (0..2).find(|&k| at_wall && front.distance(area.gates[k]) <= GATE_REACH + TOLERANCE)
    else {
        return Err(MoveError::refused(
            "§4.2",
            format!(
                "element {lead_id} is not just outside a gate of the City: its front edge must be against the wall with its midpoint within {GATE_REACH} BW of a gate"
            ),
        ));
    };
    for &idx in &idxs {
        if pieces_inside(&[Piece::of(&rect(ctx, idx).corners())], outline) {
            return Err(MoveError::refused(
                "§4.2",
                format!(
                    "element {} is inside the City: a passage starts outside the first gate (an element inside leaves by a tactical move)",
                    ctx.elements[idx].id
                ),
            ));
        }
    }
    if !outline.contains(front + leader.pose.forward() * GATE_REACH) {
        return Err(MoveError::refused(
            "§4.2",
            format!("element {lead_id} must face into the City through the gate"),
        ));
    }
    for w in idxs.windows(2) {
        let (a, b) = (rect(ctx, w[0]), rect(ctx, w[1]));
        let lined = same_facing(a.pose.facing, b.pose.facing)
            && a.edge(Edge::Rear).midpoint().distance(b.pose.front_mid()) <= TOLERANCE;
        if !lined {
            return Err(MoveError::refused(
                "§7.4",
                format!(
                    "element {} is not lined up behind element {}: a passage is made by one element or a column",
                    ctx.elements[w[1]].id, ctx.elements[w[0]].id
                ),
            ));
        }
    }
    // After: out of the far gate, facing straight out of that wall.
    let exit = area.gates[1 - entry];
    let out = outward_normal(outline, exit);
    let facing = out.x.atan2(out.y).to_degrees().rem_euclid(360.0);
    let mut behind = 0.0;
    let mut ends = vec![leader; idxs.len()];
    for (k, &idx) in idxs.iter().enumerate().rev() {
        behind += ctx.config.depth(ctx.elements[idx].kind);
        let at = exit + out * behind;
        ends[k] = ElementRect::new(
            Pose::new(at.x, at.y, facing).snapped(),
            1.0,
            ctx.config.depth(ctx.elements[idx].kind),
        );
    }
    check_far_side(ctx, &idxs, &ends)?;
    let distance = front.distance(area.gates[entry])
        + area.gates[entry].distance(exit)
        + exit.distance(ends[0].pose.front_mid());
    let moves = idxs
        .iter()
        .zip(&ends)
        .map(|(&idx, r)| ElementMove {
            id: ctx.elements[idx].id,
            from: ctx.elements[idx].pose,
            to: r.pose,
            becomes: None,
        })
        .collect();
    Ok(MovePlan {
        movers: ids.to_vec(),
        moves,
        distance,
        along_road: true,
        full_distance_forward: false,
        into_contact: false,
    })
}

/// The unit vector leaving `outline` straight out through the wall nearest `p`.
fn outward_normal(outline: &Polygon, p: Point) -> Point {
    let wall = outline
        .edges()
        .min_by(|a, b| a.distance_to_point(p).total_cmp(&b.distance_to_point(p)))
        .expect("an area has walls");
    let along = wall.b - wall.a;
    let n = along.right() * (1.0 / along.length().max(f64::MIN_POSITIVE));
    if outline.contains(p + n * 0.1) {
        -n
    } else {
        n
    }
}

/// The column's poses beyond the far gate must be free (see the module's readings).
fn check_far_side(
    ctx: &MoveContext,
    idxs: &[usize],
    ends: &[ElementRect],
) -> Result<(), MoveError> {
    let zones = enemy_zones(ctx);
    for (&idx, r) in idxs.iter().zip(ends) {
        let e = &ctx.elements[idx];
        if !on_board(ctx, r) {
            return Err(MoveError::OffTable { id: e.id });
        }
        let going = rect_going(ctx, idx, r);
        if going == Going::Impassable {
            return Err(MoveError::Terrain {
                id: e.id,
                rule: "§3.4".into(),
                terrain: "a waterway beyond the far gate".into(),
            });
        }
        let on_road = ctx.battlefield.move_along_road(&[r.pose.front_mid()]);
        if going == Going::Bad && !on_road && !ctx.config.kind(e.kind.base()).may_enter_bad_going {
            return Err(MoveError::Terrain {
                id: e.id,
                rule: "§7.3".into(),
                terrain: "bad going off-road beyond the far gate".into(),
            });
        }
        for (j, o) in ctx.elements.iter().enumerate() {
            if !o.in_play() || idxs.contains(&j) {
                continue;
            }
            let or = o.rect(ctx.config);
            if overlaps(&r.corners(), &or.corners()) {
                return Err(MoveError::Blocked { blocker: o.id });
            }
            if o.army != ctx.army && crate::zones::nearest_distance(r, &or) <= TOLERANCE {
                return Err(MoveError::refused(
                    "§4.2",
                    format!(
                        "element {} would come out of the gate into contact with enemy element {}",
                        e.id, o.id
                    ),
                ));
            }
        }
        let threatened: Vec<ElementId> = zones
            .iter()
            .filter(|(_, z)| z.view().relation(r) == crate::zones::ZoneRelation::Inside)
            .filter_map(|(p, _)| match p {
                Projector::Element(j) => Some(ctx.elements[*j].id),
                Projector::Stronghold(_) => None,
            })
            .collect();
        let in_stronghold_zone = zones.iter().any(|(p, z)| {
            matches!(p, Projector::Stronghold(_))
                && z.view().relation(r) == crate::zones::ZoneRelation::Inside
        });
        if !threatened.is_empty() || in_stronghold_zone {
            return Err(MoveError::refused(
                "§8.1",
                format!(
                    "element {} would come out of the gate into an enemy threat zone{}: a passage through a City may not end in one",
                    e.id,
                    if threatened.is_empty() {
                        String::new()
                    } else {
                        format!(" (of {threatened:?})")
                    }
                ),
            ));
        }
    }
    Ok(())
}
