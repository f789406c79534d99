//! Contact (§8.2–§8.4): the contacts a move ends in, whether they are lined up, and the plan
//! of a move into contact with a chosen enemy.

use super::*;

pub(super) fn is_front(part: Option<ContactPart>) -> bool {
    matches!(
        part,
        Some(ContactPart::Edge(Edge::Front))
            | Some(ContactPart::Corner(Corner::FrontLeft))
            | Some(ContactPart::Corner(Corner::FrontRight))
    )
}

/// What the end of a move does with an enemy it touches.
pub(super) enum Touch {
    /// Lined up (§8.2 a–c) or in an overlap position (§8.2 d).
    Legal,
    /// Front edges meet but are not lined up: someone must conform (§8.3).
    Conform {
        mover: usize,
        enemy: usize,
        /// Length of front edge they share (0 when only a corner touches).
        shared: f64,
    },
}

pub(super) fn end_contacts(
    ctx: &MoveContext,
    p: &Proposal,
) -> Result<(Vec<Touch>, bool), MoveError> {
    let mut touches = Vec::new();
    let mut any = false;
    for m in &p.movers {
        let me = &ctx.elements[m.idx];
        let end = m.end();
        for j in near_indices(ctx, &end.corners(), NEAR_CONTACT) {
            let o = &ctx.elements[j];
            if !o.in_play() || o.army == ctx.army {
                continue;
            }
            let er = rect(ctx, j);
            let Some(c) = classify_contact(&end, &er) else {
                continue;
            };
            any = true;
            if me.kind.never_contacts_enemy() {
                return Err(MoveError::refused(
                    "§8.4",
                    format!(
                        "element {} ({}) may never move into contact with enemy",
                        me.id,
                        me.kind.code()
                    ),
                ));
            }
            let eligibility = |edge: Edge| -> Result<(), MoveError> {
                if may_contact_edge(&m.start(), &er, edge) {
                    Ok(())
                } else {
                    Err(MoveError::refused(
                        "§8.4",
                        format!(
                            "element {} did not start beyond the line of the {:?} edge of element {}",
                            me.id, edge, o.id
                        ),
                    ))
                }
            };
            match c.kind {
                ContactKind::FrontToFront if c.lined_up => touches.push(Touch::Legal),
                ContactKind::FrontToRear if c.lined_up => {
                    eligibility(Edge::Rear)?;
                    touches.push(Touch::Legal);
                }
                ContactKind::FrontToSide if c.lined_up => {
                    if let Some(ContactPart::Edge(side)) = c.b {
                        eligibility(side)?;
                    }
                    touches.push(Touch::Legal);
                }
                ContactKind::SideToSide => touches.push(Touch::Legal),
                ContactKind::CornerToCorner
                    if c.a == c.b
                        && matches!(
                            c.a,
                            Some(ContactPart::Corner(Corner::FrontLeft))
                                | Some(ContactPart::Corner(Corner::FrontRight))
                        ) =>
                {
                    touches.push(Touch::Legal)
                }
                _ if is_front(c.a) && is_front(c.b) => touches.push(Touch::Conform {
                    mover: m.idx,
                    enemy: j,
                    shared: c.shared_length,
                }),
                _ if is_front(c.a) || is_front(c.b) => {
                    return Err(MoveError::refused(
                        "§8.2",
                        format!(
                            "element {} would end touching element {} without lining up (front to front, front to rear, front to flank with front corners together, or overlapping)",
                            me.id, o.id
                        ),
                    ))
                }
                _ => {}
            }
        }
    }
    Ok((touches, any))
}

/// The pose that puts a mover's front edge squarely on the target's front edge (§8.2 a).
pub(crate) fn front_to_front(target: &Pose) -> Pose {
    Pose::new(
        target.x,
        target.y,
        (target.facing + 180.0).rem_euclid(360.0),
    )
}

/// An enemy element in a group of its own army (touching a friend side to side or front to rear,
/// lined up), as §8.3 distinguishes lone elements from groups.
pub(super) fn in_a_group(ctx: &MoveContext, j: usize) -> bool {
    let r = rect(ctx, j);
    let me = &ctx.elements[j];
    ctx.elements.iter().enumerate().any(|(k, o)| {
        k != j
            && o.in_play()
            && o.army == me.army
            && same_facing(o.pose.facing, me.pose.facing)
            && classify_contact(&r, &rect(ctx, k)).is_some_and(|c| {
                c.kind == ContactKind::SideToSide
                    || (matches!(c.kind, ContactKind::FrontToRear | ContactKind::RearToFront)
                        && c.lined_up)
            })
    })
}

/// Where a mover's front edge must end for the wanted contact with `target` (§8.2), or `None`
/// when no friend is in front contact for an overlap.
pub(super) fn contact_pose(
    ctx: &MoveContext,
    target: usize,
    wanted: ContactWanted,
) -> Option<Pose> {
    let t = rect(ctx, target);
    let tp = t.pose;
    Some(match wanted {
        ContactWanted::Front => front_to_front(&tp),
        ContactWanted::Rear => {
            let m = tp.front_mid() - tp.forward() * t.depth;
            Pose::new(m.x, m.y, tp.facing)
        }
        ContactWanted::Flank(Flank::Left) => {
            let c = t.corner(Corner::FrontLeft) - tp.forward() * 0.5;
            Pose::new(c.x, c.y, (tp.facing + 90.0).rem_euclid(360.0))
        }
        ContactWanted::Flank(Flank::Right) => {
            let c = t.corner(Corner::FrontRight) - tp.forward() * 0.5;
            Pose::new(c.x, c.y, (tp.facing + 270.0).rem_euclid(360.0))
        }
        ContactWanted::Overlap(side) => {
            let friend_in_front = ctx.elements.iter().enumerate().any(|(k, o)| {
                o.in_play()
                    && o.army == ctx.army
                    && classify_contact(&rect(ctx, k), &t)
                        .is_some_and(|c| c.kind == ContactKind::FrontToFront && c.lined_up)
            });
            if !friend_in_front {
                return None;
            }
            let x = match side {
                Flank::Left => -1.0,
                Flank::Right => 1.0,
            };
            front_to_front(&pose_at(&tp, x, 0.0, 0.0))
        }
    })
}

pub(super) fn plan_into_contact(
    ctx: &MoveContext,
    ids: &[ElementId],
    target: ElementId,
    wanted: ContactWanted,
) -> Result<MovePlan, MoveError> {
    let v = group_indices(ctx, ids)?;
    if v.len() > 1 {
        check_is_group(ctx, &v)?;
    }
    let t = index_of(ctx, target)?;
    let te = &ctx.elements[t];
    if !te.in_play() || te.army == ctx.army {
        return Err(MoveError::refused(
            "§8.2",
            format!("element {target} is not an enemy in play"),
        ));
    }
    for &i in &v {
        let e = &ctx.elements[i];
        if e.kind.never_contacts_enemy() {
            return Err(MoveError::refused(
                "§8.4",
                format!(
                    "element {} ({}) may never move into contact with enemy",
                    e.id,
                    e.kind.code()
                ),
            ));
        }
    }
    let Some(dest) = contact_pose(ctx, t, wanted) else {
        return Err(MoveError::refused(
            "§8.2 (d)",
            "an overlap needs a friend in front-edge contact with the target",
        ));
    };
    let dest = dest.snapped();
    let tr = rect(ctx, t);
    let edge = match wanted {
        ContactWanted::Flank(Flank::Left) => Some(Edge::Left),
        ContactWanted::Flank(Flank::Right) => Some(Edge::Right),
        ContactWanted::Rear => Some(Edge::Rear),
        _ => None,
    };
    // Try each element of the group as the one making the contact, nearest first; the others keep
    // their places relative to it.
    let mut options: Vec<(f64, Proposal)> = Vec::new();
    for &c in &v {
        if let Some(edge) = edge {
            if !may_contact_edge(&rect(ctx, c), &tr, edge) {
                continue;
            }
        }
        let from = ctx.elements[c].pose;
        let turn = angle_diff(from.facing, dest.facing);
        let shape = if v.len() == 1 {
            Shape::Single
        } else if is_column(ctx, &v) {
            Shape::Column
        } else {
            Shape::Group
        };
        // Straight to the contact, or, for a flank or rear (§8.4), first to a place standing off
        // that edge and then straight in: the way round the enemy's corner that a player takes
        // from a start partly beyond both of its lines.
        let standoffs: &[f64] = if edge.is_some() {
            &[0.0, 0.25, 0.5, 1.0, 1.5, 2.0]
        } else {
            &[0.0]
        };
        for &off in standoffs {
            let via = dest.front_mid() - dest.forward() * off;
            let shift = via - from.front_mid();
            let back = dest.forward() * off;
            let movers: Vec<MoverPath> = v
                .iter()
                .map(|&i| {
                    let e = &ctx.elements[i];
                    let depth = ctx.config.depth(e.kind);
                    let r = super::super::geom::rotate_pose(&e.pose, from.front_mid(), turn);
                    let mid = Pose::new(r.x + shift.x, r.y + shift.y, r.facing).snapped();
                    let mut legs = Few::one(Leg::new(e.pose, mid, 1.0, depth));
                    if off > 0.0 {
                        let to = Pose::new(mid.x + back.x, mid.y + back.y, mid.facing).snapped();
                        legs.push(Leg::new(mid, to, 1.0, depth));
                    }
                    MoverPath { idx: i, legs }
                })
                .collect();
            let mut p = Proposal::new(shape, movers);
            p.lining_up = true;
            options.push((p.distance(), p));
        }
    }
    if options.is_empty() {
        return Err(MoveError::refused(
            "§8.4",
            format!(
                "no element of the mover starts beyond the line of the {} of element {target}",
                match edge {
                    Some(Edge::Rear) => "rear edge",
                    _ => "side edge",
                }
            ),
        ));
    }
    options.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut first_err = None;
    for (_, p) in options {
        match validate(ctx, p) {
            Ok(plan) => return Ok(plan),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.expect("at least one option was tried"))
}
