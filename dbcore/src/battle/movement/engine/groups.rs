//! Groups and columns (§7.4): which elements form a group, and the plans of a group's move,
//! a column's and one forming a column.

use super::*;

/// The indices of a group's elements, in the order named: in place for one or two (#15: an
/// into-contact move of one element, which a driver tries for every mover, made a heap block
/// for its one index).
pub(super) fn group_indices(ctx: &MoveContext, ids: &[ElementId]) -> Result<Few<usize>, MoveError> {
    if ids.is_empty() {
        return Err(MoveError::refused(
            "§7.4",
            "a group needs at least one element",
        ));
    }
    let mut v = Few::default();
    for id in ids {
        let i = index_of(ctx, *id)?;
        if v.contains(&i) {
            return Err(MoveError::refused(
                "§7.4",
                format!("element {id} is named twice"),
            ));
        }
        check_may_move(ctx, i)?;
        v.push(i);
    }
    let c0 = ctx.elements[v[0]].contingent;
    if v.iter().any(|&i| ctx.elements[i].contingent != c0) {
        return Err(MoveError::refused(
            "§7.4",
            "allied elements form groups only with elements of their own contingent",
        ));
    }
    Ok(v)
}

/// Two elements are linked in a group: side by side with front corners lined up, or one
/// directly behind the other in column.
pub(super) fn linked(ctx: &MoveContext, a: usize, b: usize) -> bool {
    let (ra, rb) = (rect(ctx, a), rect(ctx, b));
    if !same_facing(ra.pose.facing, rb.pose.facing) {
        return false;
    }
    classify_contact(&ra, &rb).is_some_and(|c| match c.kind {
        ContactKind::SideToSide => {
            ra.corner(Corner::FrontLeft)
                .near(rb.corner(Corner::FrontRight))
                || ra
                    .corner(Corner::FrontRight)
                    .near(rb.corner(Corner::FrontLeft))
        }
        ContactKind::FrontToRear | ContactKind::RearToFront => c.lined_up,
        _ => false,
    })
}

pub(super) fn check_is_group(ctx: &MoveContext, v: &[usize]) -> Result<(), MoveError> {
    let f0 = ctx.elements[v[0]].pose.facing;
    if v.iter()
        .any(|&i| !same_facing(ctx.elements[i].pose.facing, f0))
    {
        return Err(MoveError::refused(
            "§7.4",
            "the elements of a group all face the same way",
        ));
    }
    let mut reached = vec![false; v.len()];
    reached[0] = true;
    let mut stack = vec![0];
    while let Some(k) = stack.pop() {
        for n in 0..v.len() {
            if !reached[n] && linked(ctx, v[k], v[n]) {
                reached[n] = true;
                stack.push(n);
            }
        }
    }
    if let Some(n) = reached.iter().position(|r| !r) {
        return Err(MoveError::refused(
            "§7.4",
            format!(
                "element {} is not in edge and corner contact with the rest of the group",
                ctx.elements[v[n]].id
            ),
        ));
    }
    Ok(())
}

/// A group one element wide (§7.4): every front-edge midpoint on the line through the first,
/// along the facing.
pub(super) fn is_column(ctx: &MoveContext, v: &[usize]) -> bool {
    let p0 = ctx.elements[v[0]].pose;
    v.iter()
        .all(|&i| local(&p0, ctx.elements[i].pose.front_mid()).0.abs() <= TOLERANCE)
}

pub(super) fn plan_group(
    ctx: &MoveContext,
    ids: &[ElementId],
    steps: &[GroupStep],
) -> Result<MovePlan, MoveError> {
    let v = group_indices(ctx, ids)?;
    check_is_group(ctx, &v)?;
    if steps.is_empty() {
        return Err(MoveError::refused(
            "§7.4",
            "a group move needs at least one step",
        ));
    }
    let mut poses: Vec<Pose> = v.iter().map(|&i| ctx.elements[i].pose).collect();
    let depths: Vec<f64> = v
        .iter()
        .map(|&i| ctx.config.depth(ctx.elements[i].kind))
        .collect();
    let mut legs_by_mover: Vec<Few<Leg>> = vec![Few::Zero; v.len()];
    for step in steps {
        match *step {
            GroupStep::Advance { distance } => {
                for (k, pose) in poses.iter_mut().enumerate() {
                    let to = pose_at(pose, 0.0, distance, 0.0);
                    legs_by_mover[k].push(Leg::new(*pose, to, 1.0, depths[k]));
                    *pose = to;
                }
            }
            GroupStep::Wheel { pivot, degrees } => {
                // The front corner of the group on the pivot side: among the most forward front
                // corners, the one furthest to that side.
                let facing = poses[0];
                let corners: Vec<Point> = poses
                    .iter()
                    .zip(&depths)
                    .flat_map(|(p, &d)| {
                        let r = ElementRect::new(*p, 1.0, d);
                        [r.corner(Corner::FrontLeft), r.corner(Corner::FrontRight)]
                    })
                    .collect();
                let front = corners
                    .iter()
                    .map(|&c| local(&facing, c).1)
                    .fold(f64::NEG_INFINITY, f64::max);
                let side = |c: &Point| local(&facing, *c).0;
                let candidates = corners
                    .iter()
                    .filter(|&&c| local(&facing, c).1 >= front - TOLERANCE);
                let pivot_point = match pivot {
                    Flank::Left => candidates.min_by(|a, b| side(a).total_cmp(&side(b))),
                    Flank::Right => candidates.max_by(|a, b| side(a).total_cmp(&side(b))),
                }
                .copied()
                .expect("a group has front corners");
                // Pivoting about the left corner, the right end swings forward and the group
                // turns left (anticlockwise); about the right corner it turns right.
                let forward = match pivot {
                    Flank::Left => degrees <= 0.0,
                    Flank::Right => degrees >= 0.0,
                };
                if !forward {
                    return Err(MoveError::refused(
                        "§7.4",
                        "a group wheels with its front edge pivoting forward (about the left front corner it turns anticlockwise, about the right clockwise)",
                    ));
                }
                for (k, pose) in poses.iter_mut().enumerate() {
                    let leg = Leg::wheel(*pose, pivot_point, degrees, 1.0, depths[k]);
                    *pose = leg.to.pose;
                    legs_by_mover[k].push(leg);
                }
            }
        }
    }
    let shape = if v.len() > 1 && !is_column(ctx, &v) {
        Shape::Group
    } else if v.len() > 1 {
        Shape::Column
    } else {
        Shape::Single
    };
    let movers: Vec<MoverPath> = v
        .iter()
        .zip(legs_by_mover)
        .map(|(&idx, legs)| MoverPath { idx, legs })
        .collect();
    validate(ctx, Proposal::new(shape, movers))
}

/// A column's leader moves straight ahead to each pose of its path, turning only there (§7.4).
pub(super) fn check_column_path(lead: &Pose, path: &[Pose]) -> Result<(), MoveError> {
    let mut at = *lead;
    for p in path {
        let d = p.front_mid() - at.front_mid();
        if d.length() > TOLERANCE {
            let (x, _) = local(&at, p.front_mid());
            if x.abs() > TOLERANCE || d.dot(at.forward()) < 0.0 {
                return Err(MoveError::refused(
                    "§7.4",
                    "a column moves straight ahead between the points where it wheels",
                ));
            }
        }
        at = *p;
    }
    Ok(())
}

/// Forming a column (§7.4): the leader moves along `path` as a column's leader would; then each
/// other element in turn moves, as if by a single-element move, to line up directly behind the
/// one before it. None may end with its front edge further back than where it began. An element
/// that cannot reach the tail this bound (it would end further back, or the tail is beyond its
/// good-going move distance) is no longer part of the group (§7.4): it stays where it is, and
/// the next element lines up behind the last one that did join. The plan's movers are those that
/// joined.
pub(super) fn plan_forming_column(
    ctx: &MoveContext,
    v: &[usize],
    path: &[Pose],
) -> Result<MovePlan, MoveError> {
    let f0 = ctx.elements[v[0]].pose.facing;
    if v.iter()
        .any(|&i| !same_facing(ctx.elements[i].pose.facing, f0))
    {
        return Err(MoveError::refused(
            "§7.4",
            "the elements forming a column all face the same way",
        ));
    }
    check_is_group(ctx, v)?;
    let path: Vec<Pose> = path.iter().map(|p| p.snapped()).collect();
    let lead = ctx.elements[v[0]].pose;
    check_column_path(&lead, &path)?;
    let mut movers = vec![MoverPath {
        idx: v[0],
        legs: legs(lead, &path, 1.0, ctx.config.depth(ctx.elements[v[0]].kind)),
    }];
    let mut tail = *path.last().expect("path");
    let mut tail_depth = ctx.config.depth(ctx.elements[v[0]].kind);
    for &i in &v[1..] {
        let e = &ctx.elements[i];
        let depth = ctx.config.depth(e.kind);
        let to = pose_at(&tail, 0.0, -tail_depth, 0.0).snapped();
        let end = ElementRect::new(to, 1.0, depth);
        let back = [Corner::FrontLeft, Corner::FrontRight]
            .iter()
            .any(|&c| local(&e.pose, end.corner(c)).1 < -TOLERANCE);
        let leg = Leg::new(e.pose, to, 1.0, depth);
        let too_far = leg.distance() > ctx.config.move_distance(e.kind, false) + TOLERANCE;
        if back || too_far {
            continue;
        }
        movers.push(MoverPath {
            idx: i,
            legs: Few::one(leg),
        });
        tail = to;
        tail_depth = depth;
    }
    let shape = if movers.len() == 1 {
        Shape::Single
    } else {
        Shape::Column
    };
    let mut p = Proposal::new(shape, movers);
    p.sequential = true;
    validate(ctx, p)
}

/// A column follows its leader (§7.4). Each pose of `path` is reached by the leader moving
/// straight ahead and then turning to the pose's facing; the others follow along the same line
/// and turn at the same points. If the others are not yet lined up behind the leader, the order
/// forms the column instead (see [`plan_forming_column`]).
pub(super) fn plan_column(
    ctx: &MoveContext,
    ids: &[ElementId],
    path: &[Pose],
) -> Result<MovePlan, MoveError> {
    let v = group_indices(ctx, ids)?;
    if path.is_empty() {
        return Err(MoveError::refused(
            "§7.4",
            "a column move needs at least one pose",
        ));
    }
    // Each follower stands lined up behind the one before it, or the column is being formed.
    let in_column = v.windows(2).all(|w| {
        let (a, b) = (rect(ctx, w[0]), rect(ctx, w[1]));
        same_facing(a.pose.facing, b.pose.facing)
            && classify_contact(&b, &a)
                .is_some_and(|c| c.kind == ContactKind::FrontToRear && c.lined_up)
    });
    if !in_column {
        return plan_forming_column(ctx, &v, path);
    }
    let path: Vec<Pose> = path.iter().map(|p| p.snapped()).collect();
    let lead = ctx.elements[v[0]].pose;
    check_column_path(&lead, &path)?;
    // The trace: points of the front-edge midpoint with the facing of the segment leaving each.
    let depths: Vec<f64> = v
        .iter()
        .map(|&i| ctx.config.depth(ctx.elements[i].kind))
        .collect();
    let behind: f64 = depths.iter().sum();
    let mut trace: Vec<(Point, f64)> = vec![
        (lead.front_mid() - lead.forward() * behind, lead.facing),
        (lead.front_mid(), lead.facing),
    ];
    for p in &path {
        trace.push((p.front_mid(), p.facing));
    }
    // Arc positions of the trace points.
    let mut s = vec![0.0];
    for w in trace.windows(2) {
        s.push(s[s.len() - 1] + w[0].0.distance(w[1].0));
    }
    // The leader's path length, which every element of the column follows.
    let lead_len = s[s.len() - 1] - s[1];
    let pose_at_arc = |a: f64| -> Pose {
        let mut k = 0;
        while k + 2 < trace.len() && s[k + 1] < a - 1e-12 {
            k += 1;
        }
        let (p0, f0) = trace[k];
        let seg = trace[k + 1].0 - p0;
        let len = seg.length();
        let pt = if len > 0.0 {
            p0 + seg * ((a - s[k]) / len)
        } else {
            p0
        };
        Pose::new(pt.x, pt.y, f0)
    };
    let mut movers = Vec::with_capacity(v.len());
    let mut offset = 0.0;
    for (k, &idx) in v.iter().enumerate() {
        let start_arc = s[1] - offset;
        let end_arc = start_arc + lead_len;
        let mut poses: Vec<Pose> = Vec::new();
        for (t, &(pt, facing)) in trace.iter().enumerate().skip(1) {
            if s[t] > start_arc + TOLERANCE && s[t] < end_arc - TOLERANCE {
                let incoming = trace[t - 1].1;
                poses.push(Pose::new(pt.x, pt.y, incoming));
                poses.push(Pose::new(pt.x, pt.y, facing));
            }
        }
        let end = if k == 0 {
            *path.last().expect("path")
        } else {
            pose_at_arc(end_arc)
        };
        poses.push(end);
        let start = ctx.elements[idx].pose;
        let mut legs = legs(start, &poses, 1.0, depths[k]);
        legs.retain(|l| l.distance() > 0.0 || l.turns());
        if legs.is_empty() {
            legs.push(Leg::new(start, start, 1.0, depths[k]));
        }
        movers.push(MoverPath { idx, legs });
        offset += depths[k];
    }
    let shape = if v.len() == 1 {
        Shape::Single
    } else {
        Shape::Column
    };
    validate(ctx, Proposal::new(shape, movers))
}
