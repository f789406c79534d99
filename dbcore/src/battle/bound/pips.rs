//! What a move costs in PIPs (§6.3): the extra PIPs, the cheaper moves of sheltered and
//! garrisoning elements, and the command distance to the general (§6.4) that [`CommandGap`]
//! settles without measuring where it can.

use super::*;

impl Battle {
    /// What a planned move costs (§6.3).
    pub fn pip_cost(&self, order: &MoveOrder, plan: &MovePlan) -> PipCost {
        self.pip_cost_boxed(order, plan, None)
    }

    /// [`Battle::pip_cost`] with the terrain outlines' boxes kept in `boxes` (the per-state
    /// memo's, #15) when they are this table's: the same cost.
    pub(crate) fn pip_cost_boxed(
        &self,
        order: &MoveOrder,
        plan: &MovePlan,
        boxes: Option<&AreaBoxes>,
    ) -> PipCost {
        let cfg = &self.setup.config;
        // A lone mover, or two, without a heap block (#15: most moves are one element's).
        let movers: crate::few::Few<&ElementState> = plan
            .movers
            .iter()
            .filter_map(|id| self.element(*id))
            .collect();
        let single_or_column = movers.len() == 1 || matches!(order, MoveOrder::Column { .. });
        let first_move = movers.iter().all(|e| e.moves_this_bound == 0);
        if single_or_column && first_move && plan.along_road && plan.full_distance_forward {
            return PipCost {
                base: 0,
                extras: Vec::new(),
                total: 0,
            };
        }
        let mut extras = Vec::new();
        if !self.first_bound_of_active() {
            // (a) unwieldy troops, or a single element garrisoning a stronghold.
            if self.costs_unwieldy_extra(&movers, plan.into_contact) {
                extras.push(PipExtra::Unwieldy);
            }
            // (b) command: never for a move by the general's own element.
            // In Big Battle and Giant, the general is the paying command's (§14.4, §6.4).
            let own_general = movers
                .first()
                .and_then(|m| self.paying_command_of(m.id))
                .map(|c| c.general);
            let general_moves = match own_general {
                Some(g) => movers.iter().any(|e| e.id == g),
                None => movers.iter().any(|e| e.general),
            };
            if !general_moves {
                match self.elements.iter().find(|g| match own_general {
                    Some(id) => g.id == id,
                    None => g.general && g.army == self.active,
                }) {
                    Some(g) if g.in_play() => {
                        let grect = g.rect(cfg);
                        if self.is_sheltered(&grect, boxes) {
                            extras.push(PipExtra::GeneralSheltered);
                        } else {
                            let rects: crate::few::Few<ElementRect> =
                                movers.iter().map(|e| e.rect(cfg)).collect();
                            // §6.4 as `Battlefield::within_command` measures it: the nearest
                            // mover against the command distance. Every command distance is at
                            // least the screened one, so a mover that near is within command
                            // without asking whether it is screened (the costly part).
                            // The gap between two bases is at most the distance between
                            // their centres, so a mover whose centre is that near (with room
                            // for rounding) needs no exact measure either.
                            // The gap itself is measured only where bounds from the centres
                            // do not settle the question (`CommandGap`).
                            let gap = CommandGap::new(&grect, &rects);
                            let within = |limit: f64| gap.within(limit);
                            if !within(COMMAND_DISTANCE_SCREENED) {
                                let camps = self.camps();
                                let all_lh =
                                    movers.iter().all(|e| e.kind.troop_type() == TroopType::LH);
                                let bf = &self.setup.battlefield;
                                let limit = bf
                                    .command_distance_boxed(&grect, &rects, &camps, all_lh, boxes);
                                if !within(limit) {
                                    extras.push(PipExtra::BeyondCommand { limit });
                                }
                            }
                        }
                    }
                    _ => extras.push(PipExtra::GeneralLost),
                }
            }
        }
        // §4.2, §17.10: passing a City gate to gate costs 1 PIP per element; the extras of (a) and
        // (b) still apply once to the move as a whole (reading: §6.3 charges them per move).
        let base = match order {
            MoveOrder::ThroughCity { .. } => u8::try_from(movers.len()).unwrap_or(u8::MAX),
            _ => 1,
        };
        let total = base.saturating_add(extras.len() as u8);
        PipCost {
            base,
            extras,
            total,
        }
    }

    /// Whether a move of `movers` pays the extra PIP of §6.3 (a), outside the first bound of
    /// the moving army (which pays no extra): unwieldy troops (scythed chariots spared it into
    /// contact when the rules say so), or a single element garrisoning a stronghold.
    pub(crate) fn costs_unwieldy_extra(
        &self,
        movers: &[&ElementState],
        into_contact: bool,
    ) -> bool {
        let cfg = &self.setup.config;
        let unwieldy = movers.iter().any(|e| {
            e.kind.costs_extra_pip()
                && !(e.kind.troop_type() == TroopType::SCh
                    && into_contact
                    && cfg.pips.sch_extra_pip_waived_into_contact)
        });
        unwieldy || (movers.len() == 1 && self.is_garrisoning(movers[0]))
    }

    /// Every camp on the table, allied commands' own camps included (§14.3).
    pub(super) fn camps(&self) -> Vec<Polygon> {
        self.camp_refs()
            .into_iter()
            .map(|c| c.outline.clone())
            .collect()
    }

    /// Wholly inside a BUA, camp, wood, oasis, marsh or gully (§6.3 (b), §17.46).
    ///
    /// `boxes` are the outlines' boxes by feature index when known (#15): a corner more than
    /// twice the tolerance clear of an outline's box is not in it, so neither is the element.
    pub(super) fn is_sheltered(&self, r: &ElementRect, boxes: Option<&AreaBoxes>) -> bool {
        let corners = r.corners();
        let inside = |p: &Polygon| corners.iter().all(|c| p.contains(*c));
        let bf = &self.setup.battlefield;
        let boxes = boxes.and_then(|k| k.of_table(bf));
        let apart = |i: usize| {
            boxes.is_some_and(|k| {
                crate::battlefield::sight_clear_of_box(corners[0], corners[0], k[i])
            })
        };
        bf.areas().any(|(i, a)| {
            (a.kind.is_bua()
                || matches!(
                    a.kind,
                    AreaKind::Wood | AreaKind::Oasis | AreaKind::Marsh | AreaKind::Gully
                ))
                && !apart(i)
                && inside(&a.outline)
        }) || self.each_camp().any(|c| inside(c.outline))
    }

    /// A single element wholly inside its own camp, or a City or Fort (§6.3 (a)).
    pub(super) fn is_garrisoning(&self, e: &ElementState) -> bool {
        let r = e.rect(&self.setup.config);
        let inside = |p: &Polygon| r.corners().iter().all(|c| p.contains(*c));
        self.own_camp(e).is_some_and(inside)
            || self
                .setup
                .battlefield
                .areas()
                .any(|(_, a)| a.kind.is_fortified() && inside(&a.outline))
    }
}

/// How much nearer than the screened command distance a mover's centre must be to its general's
/// for [`Battle::pip_cost`] to take it as within command without measuring the gap between the
/// bases: far more than the rounding of either measure, far less than any real distance.
pub(super) const CENTRE_ROUNDING: f64 = 1e-6;

/// Largest coordinate of a centre (and side of a base) for which [`CommandGap`] trusts its bounds: far beyond any
/// table ([`crate::limits::MAX_COORDINATE`]), where the rounding of every measure involved is
/// still far below [`CENTRE_ROUNDING`]. Beyond it (or with anything not finite) the gap is
/// measured.
pub(super) const CENTRE_BOUND_REACH: f64 = 1e4;

/// The gap §6.4 measures between a general's base and the nearest base of a move, as
/// [`Battle::pip_cost`] asks it: whether it is within a command distance. The polygon gap is
/// measured only when a cheaper estimate cannot settle the question (#15: it was a tenth of the
/// cost of a checked move).
///
/// The estimate of a mover's gap is the least distance from a corner of either base to the
/// other base (a rectangle: worked out in its own frame). It is never below the gap, since it is
/// a distance between points of the two bases, and it is the gap when the bases are apart: the
/// nearest points of two convex shapes apart can always be taken with one a corner. Bases
/// whose centres are further apart than their two half-diagonals are apart (every point of a
/// base lies within its half-diagonal of its centre); for others, that difference bounds the
/// gap from below. Each bound is used with a margin of [`CENTRE_ROUNDING`], far above the
/// rounding of every measure involved, so every answer is the one the measured gap gives.
pub(super) struct CommandGap<'a> {
    general: &'a ElementRect,
    movers: &'a [ElementRect],
    /// Some mover's centre within the screened command distance of the general's (with
    /// room for rounding): within every command distance, without a measure.
    near: bool,
    /// Bounds on the least gap, the margin taken: (below, above); `None` when anything is
    /// not finite or lies beyond [`CENTRE_BOUND_REACH`].
    bounds: Option<(f64, f64)>,
    /// The measured gap, once measured.
    measured: std::cell::Cell<Option<f64>>,
}

/// A base in its own frame: its centre, its unit axes (right, forward) and its half sides.
pub(super) struct Frame {
    centre: crate::geometry::Point,
    right: crate::geometry::Point,
    forward: crate::geometry::Point,
    half_width: f64,
    half_depth: f64,
}

impl Frame {
    pub(super) fn of(r: &ElementRect) -> Frame {
        let forward = r.pose.forward();
        Frame {
            centre: r.centre(),
            right: forward.right(),
            forward,
            half_width: 0.5 * r.width,
            half_depth: 0.5 * r.depth,
        }
    }

    /// The distance from `p` to the base.
    pub(super) fn distance_to(&self, p: crate::geometry::Point) -> f64 {
        let d = p - self.centre;
        let u = (d.dot(self.right).abs() - self.half_width).max(0.0);
        let v = (d.dot(self.forward).abs() - self.half_depth).max(0.0);
        (u * u + v * v).sqrt()
    }
}

impl<'a> CommandGap<'a> {
    pub(super) fn new(general: &'a ElementRect, movers: &'a [ElementRect]) -> CommandGap<'a> {
        let gc = general.centre();
        let near = movers.iter().any(|m| {
            gc.distance(m.centre()) <= COMMAND_DISTANCE_SCREENED + TOLERANCE - CENTRE_ROUNDING
        });
        let trusted = |r: &ElementRect| {
            let c = r.centre();
            [c.x, c.y, r.width, r.depth]
                .iter()
                .all(|v| v.is_finite() && v.abs() <= CENTRE_BOUND_REACH)
        };
        let bounds = (!near && trusted(general) && movers.iter().all(trusted)).then(|| {
            let half_diagonal = |r: &ElementRect| 0.5 * r.width.hypot(r.depth);
            let g = Frame::of(general);
            let g_corners = general.corners();
            movers
                .iter()
                .fold((f64::INFINITY, f64::INFINITY), |(below, above), m| {
                    let f = Frame::of(m);
                    let estimate = g_corners
                        .iter()
                        .map(|&p| f.distance_to(p))
                        .chain(m.corners().iter().map(|&p| g.distance_to(p)))
                        .fold(f64::INFINITY, f64::min);
                    let apart_by =
                        g.centre.distance(f.centre) - half_diagonal(general) - half_diagonal(m);
                    let low = if apart_by > CENTRE_ROUNDING {
                        estimate
                    } else {
                        apart_by
                    };
                    (
                        below.min(low - CENTRE_ROUNDING),
                        above.min(estimate + CENTRE_ROUNDING),
                    )
                })
        });
        CommandGap {
            general,
            movers,
            near,
            bounds: bounds.filter(|&(below, above)| below.is_finite() && above.is_finite()),
            measured: std::cell::Cell::new(None),
        }
    }

    /// Whether the gap is at most `limit` (within a tolerance, §0.3).
    pub(super) fn within(&self, limit: f64) -> bool {
        if self.near {
            // The measured gap would be taken as 0 here.
            return 0.0 <= limit + TOLERANCE;
        }
        if let Some((below, above)) = self.bounds {
            if above <= limit + TOLERANCE {
                return true;
            }
            if below > limit + TOLERANCE {
                return false;
            }
        }
        self.measured() <= limit + TOLERANCE
    }

    /// The least gap between the general's base and a mover's.
    pub(super) fn measured(&self) -> f64 {
        if let Some(v) = self.measured.get() {
            return v;
        }
        let gp = self.general.polygon();
        let v = self
            .movers
            .iter()
            .map(|m| gp.distance_to_polygon(&m.polygon()))
            .fold(f64::INFINITY, f64::min);
        self.measured.set(Some(v));
        v
    }
}

/// "1 PIP", "3 PIPs".
pub(crate) fn pips_text(n: impl Into<u32>) -> String {
    let n = n.into();
    if n == 1 {
        "1 PIP".to_string()
    } else {
        format!("{n} PIPs")
    }
}

#[cfg(test)]
mod command_gap_tests {
    use super::*;
    use crate::battlefield::{COMMAND_DISTANCE, COMMAND_DISTANCE_LIGHT_HORSE};
    use crate::geometry::Pose;
    use rand_core::{RngCore, SeedableRng};

    /// `Battle::pip_cost`'s question before #15 measured only where needed: the reference.
    fn within_reference(grect: &ElementRect, rects: &[ElementRect], limit: f64) -> bool {
        let gc = grect.centre();
        let near = |m: &ElementRect| {
            gc.distance(m.centre()) <= COMMAND_DISTANCE_SCREENED + TOLERANCE - CENTRE_ROUNDING
        };
        let nearest = if rects.iter().any(near) {
            0.0
        } else {
            let gp = grect.polygon();
            rects
                .iter()
                .map(|m| gp.distance_to_polygon(&m.polygon()))
                .fold(f64::INFINITY, f64::min)
        };
        nearest <= limit + TOLERANCE
    }

    fn unit(rng: &mut rand_pcg::Pcg64) -> f64 {
        rng.next_u32() as f64 / u32::MAX as f64
    }

    /// A coordinate: mostly on the table, sometimes an edge case.
    fn coordinate(rng: &mut rand_pcg::Pcg64, base: f64) -> f64 {
        match rng.next_u32() % 60 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 0.0,
            4 => -0.0,
            5 => 1e300,
            6 => -1e6,
            7 => 9_999.0,
            8 => 10_001.0,
            9 => 1e-300,
            _ => base,
        }
    }

    /// A side of a base: mostly an element's, sometimes degenerate, tiny or huge.
    fn side(rng: &mut rand_pcg::Pcg64) -> f64 {
        match rng.next_u32() % 30 {
            0 => 0.0,
            1 => 1e-12,
            2 => 50.0,
            3 => f64::NAN,
            4 => f64::INFINITY,
            _ => [0.5, 1.0, 0.75, 0.25][(rng.next_u32() % 4) as usize],
        }
    }

    #[test]
    fn command_gap_answers_as_the_measured_gap() {
        // DBA3.md §6.4: within command distance (4 BW screened, 8 BW, 20 BW for Light Horse),
        // measured between the nearest points of the general's base and the nearest mover's.
        let mut rng = rand_pcg::Pcg64::seed_from_u64(64);
        let limits = [
            COMMAND_DISTANCE_SCREENED,
            COMMAND_DISTANCE,
            COMMAND_DISTANCE_LIGHT_HORSE,
        ];
        let mut answers = [[0usize; 2]; 3];
        let mut measured = 0;
        for n in 0..60_000 {
            let (x, y) = (20.0 * unit(&mut rng), 20.0 * unit(&mut rng));
            let g = ElementRect::new(
                Pose::new(
                    coordinate(&mut rng, x),
                    coordinate(&mut rng, y),
                    360.0 * unit(&mut rng),
                ),
                side(&mut rng),
                side(&mut rng),
            );
            let movers: Vec<ElementRect> = (0..1 + rng.next_u32() % 3)
                .map(|_| {
                    // Mostly at a distance near a limit, where the bounds cannot decide.
                    let limit = limits[(rng.next_u32() % 3) as usize];
                    let depth = side(&mut rng);
                    if rng.next_u32() % 4 == 0 {
                        // Straight ahead of the general, facing the same way, the gap at the
                        // limit or within a rounding of it: where only the measure decides.
                        let off = [0.0, TOLERANCE, -TOLERANCE, 1e-7, -1e-7, 1e-9, -1e-9][n % 7];
                        let ahead = g.pose.front_mid() + g.pose.forward() * (limit + depth + off);
                        return ElementRect::new(
                            Pose::new(ahead.x, ahead.y, g.pose.facing),
                            side(&mut rng),
                            depth,
                        );
                    }
                    let reach = match rng.next_u32() % 4 {
                        0 => 30.0 * unit(&mut rng),
                        1 => limit + 1.5 * (unit(&mut rng) - 0.5),
                        2 => limit + [0.0, TOLERANCE, -TOLERANCE, 1e-7, -1e-7][n % 5],
                        _ => limit + 1.2 + 0.1 * unit(&mut rng),
                    };
                    let bearing = 360.0 * unit(&mut rng);
                    let at = g.centre() + crate::geometry::Point::from_bearing(bearing) * reach;
                    ElementRect::new(
                        Pose::new(
                            coordinate(&mut rng, at.x),
                            coordinate(&mut rng, at.y),
                            360.0 * unit(&mut rng),
                        ),
                        side(&mut rng),
                        depth,
                    )
                })
                .collect();
            let gap = CommandGap::new(&g, &movers);
            // In the order `pip_cost` asks: the screened distance first, then the limit.
            for (k, &limit) in limits.iter().enumerate() {
                let want = within_reference(&g, &movers, limit);
                assert_eq!(
                    gap.within(limit),
                    want,
                    "case {n}, limit {limit}: {g:?} {movers:?}"
                );
                answers[k][usize::from(want)] += 1;
            }
            measured += usize::from(gap.measured.get().is_some());
        }
        // Both answers at every limit, and the gap both measured and not.
        for a in answers {
            assert!(a[0] > 1_000 && a[1] > 1_000, "{answers:?}");
        }
        assert!(measured > 500 && measured < 59_500, "{measured}");
    }
}
