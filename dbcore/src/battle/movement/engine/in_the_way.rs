//! Elements in the way of a move and interpenetration (§7.2, §7.6): which friends a mover may
//! pass through and what else blocks its path.

use super::*;

/// `r` lies wholly beyond `friend`'s rear edge and squarely within the lines of its sides.
pub(super) fn squarely_behind(friend: &ElementRect, r: &ElementRect) -> bool {
    r.corners().iter().all(|&c| {
        let (x, y) = local(&friend.pose, c);
        y <= -friend.depth + TOLERANCE && x.abs() <= friend.width * 0.5 + TOLERANCE
    })
}

/// `r` lies wholly beyond `friend`'s front edge and squarely within the lines of its sides.
pub(super) fn squarely_in_front(friend: &ElementRect, r: &ElementRect) -> bool {
    r.corners().iter().all(|&c| {
        let (x, y) = local(&friend.pose, c);
        y >= -TOLERANCE && x.abs() <= friend.width * 0.5 + TOLERANCE
    })
}

/// Some part of `r` lies straight in front of `friend` (between the lines of its sides, beyond
/// its front edge).
pub(super) fn partly_in_front(friend: &ElementRect, r: &ElementRect) -> bool {
    let far = 1000.0;
    let strip = [
        pose_at(&friend.pose, -friend.width * 0.5, 0.0, 0.0).front_mid(),
        pose_at(&friend.pose, friend.width * 0.5, 0.0, 0.0).front_mid(),
        pose_at(&friend.pose, friend.width * 0.5, far, 0.0).front_mid(),
        pose_at(&friend.pose, -friend.width * 0.5, far, 0.0).front_mid(),
    ];
    overlaps(&r.corners(), &strip)
}

/// §7.6: mounted through friendly Psiloi, Psiloi through any friends, from partly in front to
/// squarely behind, or from squarely behind to squarely in front.
pub(super) fn may_interpenetrate(ctx: &MoveContext, m: &MoverPath, j: usize) -> bool {
    let me = &ctx.elements[m.idx];
    let friend = &ctx.elements[j];
    if friend.army != me.army {
        return false;
    }
    let kinds_ok = me.kind.troop_type() == TroopType::Ps
        || (me.kind.is_mounted() && friend.kind.troop_type() == TroopType::Ps);
    if !kinds_ok {
        return false;
    }
    let fr = rect(ctx, j);
    let (start, end) = (m.start(), m.end());
    if overlaps(&end.corners(), &fr.corners()) {
        return false;
    }
    (partly_in_front(&fr, &start) && squarely_behind(&fr, &end))
        || (squarely_behind(&fr, &start) && squarely_in_front(&fr, &end))
}

/// `swept` holds, by mover, the pieces its legs sweep ([`Leg::swept`], leg after leg), worked
/// out once by [`check_paths`] for all its checks.
pub(super) fn check_in_the_way(
    ctx: &MoveContext,
    p: &Proposal,
    swept: &[Few<Piece>],
) -> Result<(), MoveError> {
    for (m, pieces) in p.movers.iter().zip(swept) {
        for piece in pieces {
            let blocker = find_near(ctx, piece, 0.0, |j| {
                let o = &ctx.elements[j];
                (!p.is_mover(j)
                    && o.in_play()
                    && overlaps(piece, &corners_of(ctx, j))
                    && !may_interpenetrate(ctx, m, j))
                .then_some(o.id)
            });
            if let Some(blocker) = blocker {
                return Err(MoveError::Blocked { blocker });
            }
        }
    }
    // Moving one after another, each meets the earlier movers where they ended and the later
    // ones where they still stand.
    if p.sequential {
        for (k, pieces) in swept.iter().enumerate() {
            let others: Vec<(usize, ElementRect)> = p
                .movers
                .iter()
                .enumerate()
                .filter(|&(n, _)| n != k)
                .map(|(n, q)| (q.idx, if n < k { q.end() } else { q.start() }))
                .collect();
            for piece in pieces {
                for (j, r) in &others {
                    if overlaps(piece, &r.corners()) {
                        return Err(MoveError::Blocked {
                            blocker: ctx.elements[*j].id,
                        });
                    }
                }
            }
        }
    }
    // Movers may not end on top of one another.
    for (a, m) in p.movers.iter().enumerate() {
        for n in &p.movers[a + 1..] {
            if overlaps(&m.end().corners(), &n.end().corners()) {
                return Err(MoveError::Blocked {
                    blocker: ctx.elements[n.idx].id,
                });
            }
        }
    }
    Ok(())
}
