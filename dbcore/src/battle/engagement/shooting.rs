//! Shooting (§9): who may shoot, at which targets in what priority (§9.1–§9.3), and the
//! situation of a shot with its range, sight and supporting shooters (§9.4–§9.6).

use super::*;

/// Every element of either army eligible to shoot this bound (§9.1), by id.
///
/// * Bows (and mounted infantry with bows) and War Wagons that have moved at most 1 BW this
///   bound (`moved` gives the distance moved this bound, BW).
/// * Artillery that has not moved, in its own army's bound (`active_army`), or in the enemy's
///   bound when `artillery_shot_at_by_artillery` says enemy Artillery shot at it in that enemy's
///   previous bound (the battle keeps that history).
/// * Never an element in close combat (§9.1, reading) or one sacking a camp (§4.2).
///
/// An eligible shooter may still have no target ([`shooting_targets`]). Artillery answering in the
/// enemy's bound may shoot only at the Artillery that shot at it; [`shooting_targets`] lists every
/// target it could see, and the battle narrows the choice.
pub fn shooters(
    ctx: &MoveContext,
    moved: &dyn Fn(ElementId) -> f64,
    active_army: usize,
    artillery_shot_at_by_artillery: &dyn Fn(ElementId) -> bool,
) -> Vec<ElementId> {
    let v = View::new(ctx);
    let mut out: Vec<ElementId> = (0..ctx.elements.len())
        .filter(|&i| {
            let e = &ctx.elements[i];
            if !e.in_play()
                || !e.kind.shoots()
                || ctx.config.shooting_range(e.kind).is_none()
                || in_close_combat(ctx, i)
                || v.sacking(i)
            {
                return false;
            }
            let m = moved(e.id);
            match e.kind.troop_type() {
                TroopType::Art => {
                    m <= TOLERANCE
                        && (e.army == active_army || artillery_shot_at_by_artillery(e.id))
                }
                _ => m <= 1.0 + TOLERANCE,
            }
        })
        .map(|i| ctx.elements[i].id)
        .collect();
    out.sort();
    out
}

/// The enemies `shooter` can shoot at now (§9.2–9.5), best priority first (§9.3), then nearest,
/// then by id. The shooter must pick among those of the best priority present.
///
/// `shooting_at_it` names the enemies that are shooting at `shooter` this bound (the battle knows
/// whom each has chosen); they rank after enemies in its threat zone. Artillery may pick any
/// target (§9.3), so all its targets are [`TargetPriority::Free`]. An element that does not shoot,
/// is in close combat or is sacking a camp has no targets. Whether it moved too far is
/// [`shooters`]' question.
pub fn shooting_targets(
    ctx: &MoveContext,
    shooter: ElementId,
    shooting_at_it: &[ElementId],
) -> Result<Vec<ShotTarget>, EngagementError> {
    let v = View::new(ctx);
    let i = v.index(shooter)?;
    v.in_play(i)?;
    // Every target the shooter can see and reach, ranked as if nobody were shooting at it: the
    // per-state memo's when `ctx` carries it (#15: a driver, a table tool or an AI asks again
    // for every shot it tries and every time it asks what dice are awaited).
    let scan = || shots_of(&v, i);
    let mut out = match ctx.close_combat.and_then(|m| m.shots(ctx, i, scan)) {
        Some(known) => known.to_vec(),
        None => scan(),
    };
    // §9.3: an enemy shooting at the shooter ranks after those in its threat zone (Artillery
    // picks freely among all its targets).
    let artillery = ctx.elements[i].kind.troop_type() == TroopType::Art;
    if !artillery && !shooting_at_it.is_empty() {
        for t in &mut out {
            if t.priority == TargetPriority::Free && shooting_at_it.contains(&t.target) {
                t.priority = TargetPriority::ShootingAtShooter;
            }
        }
    }
    out.sort_by(|p, q| {
        p.priority
            .cmp(&q.priority)
            .then(p.distance.total_cmp(&q.distance))
            .then(p.target.cmp(&q.target))
    });
    Ok(out)
}

/// The targets of element `i` (in play) in the view `v`, unsorted, each ranked in the shooter's
/// threat zone or free (§9.3 without the enemies shooting at it, which depend on the shots of
/// the bound, not on the table): what [`shooting_targets`] keeps per state.
pub(super) fn shots_of(v: &View, i: usize) -> Vec<ShotTarget> {
    let ctx = v.ctx;
    let me = &ctx.elements[i];
    if !me.kind.shoots() || in_close_combat(ctx, i) || v.sacking(i) {
        return Vec::new();
    }
    let all_round = me.kind.troop_type() == TroopType::WWg;
    let artillery = me.kind.troop_type() == TroopType::Art;
    let tz = ThreatZone::of_element(&v.rects[i], all_round);
    let mut out = Vec::new();
    // Only enemies within range of the shooter can be shot at (a shot's distance is at most its
    // range plus a tolerance, and never below the gap of the two boxes).
    let reach = ctx
        .config
        .shooting_range(me.kind)
        .unwrap_or(UNLIMITED_RANGE)
        + NEAR_CONTACT;
    // Every shot needs a range (a shooter without one has no targets but the denizens below).
    if let Some(range) = ctx.config.shooting_range(me.kind) {
        let shooter = Shooter {
            rect: &v.rects[i],
            all_round,
            artillery,
            range,
            zone: &tz,
        };
        let candidates = v.within(i, reach).into_iter().filter_map(|t| {
            let e = &ctx.elements[t];
            (e.in_play() && e.army != me.army && !v.sacking(t)).then(|| (t, v.rects[t]))
        });
        let blockers = |t: usize| {
            let others: Vec<usize> = v
                .between(i, t)
                .into_iter()
                .filter(|&k| k != i && k != t && ctx.elements[k].in_play())
                .collect();
            let blockers = others
                .iter()
                .map(|&k| {
                    let o = &ctx.elements[k];
                    ShotBlocker {
                        rect: v.rects[k],
                        is_enemy_psiloi: o.army != me.army && o.kind.troop_type() == TroopType::Ps,
                    }
                })
                .collect();
            (others, blockers)
        };
        scan_shots(&shooter, ctx.battlefield, candidates, blockers, |t, at| {
            let ShotAt::Clear {
                distance,
                in_threat_zone,
            } = at
            else {
                return;
            };
            let priority = if in_threat_zone && !artillery {
                TargetPriority::InThreatZone
            } else {
                TargetPriority::Free
            };
            out.push(ShotTarget {
                target: ctx.elements[t].id,
                distance,
                in_threat_zone,
                priority,
            });
        });
    }
    // §4.2: Artillery may shoot at the denizens defending an enemy City (our reading: only
    // Artillery, whose destroying them makes the City surrender; see `denizens_target`).
    if artillery {
        for si in 0..ctx.strongholds.len() {
            if let Some((id, distance)) = v.denizens_target(i, si) {
                out.push(ShotTarget {
                    target: id,
                    distance,
                    in_threat_zone: false,
                    priority: TargetPriority::Free,
                });
            }
        }
    }
    out
}

/// The shot of `shooter` at `target` as the table shows it (§9.4–9.6): `shooter` becomes side A.
///
/// Checks that the shooter shoots and is not in close combat, that the target is within its zone,
/// range and sight (§9.2, §9.5); that there are at most `config.combat.max_support_shooters`
/// `support` shooters, each a different element of the shooter's army that could itself shoot at
/// `target` (§9.4); and, with `target_shoots_back`, that the target could shoot at the shooter
/// (§17.24). Whether each moved too far this bound is [`shooters`]' question: pass shooters from
/// its list. `from_behind` is set when the shooter is at least partly beyond the line of the
/// target's rear edge (§9.6, §11.2). A target wholly inside its own camp, city or fort defends it
/// (its factor applies when shot at, §10.3); a shooter inside its own counts as defending too
/// (Artillery in a City or Fort, §10.1).
pub fn shot_situation(
    ctx: &MoveContext,
    shooter: ElementId,
    target: ElementId,
    support: &[ElementId],
    target_shoots_back: bool,
) -> Result<Situation, EngagementError> {
    let v = View::new(ctx);
    let s = v.index(shooter)?;
    if let Some(si) = civilians_of(ctx, target) {
        return denizens_shot(&v, s, si, support);
    }
    let t = v.index(target)?;
    v.check_may_shoot(s)?;
    v.in_play(t)?;
    if ctx.elements[s].army == ctx.elements[t].army {
        return Err(EngagementError::NotEnemies {
            a: shooter,
            b: target,
        });
    }
    v.assess_shot(s, t)?;
    let max = ctx.config.combat.max_support_shooters;
    if support.len() > usize::from(max) {
        return Err(EngagementError::TooManySupportShooters {
            given: support.len(),
            max,
        });
    }
    let mut seen: BTreeSet<ElementId> = BTreeSet::new();
    seen.insert(shooter);
    for &id in support {
        if !seen.insert(id) {
            return Err(EngagementError::SupportRepeated { id });
        }
        let k = v.index(id)?;
        if ctx.elements[k].army != ctx.elements[s].army {
            return Err(EngagementError::SupportNotFriendly { id, shooter });
        }
        v.check_may_shoot(k)
            .and_then(|_| v.assess_shot(k, t).map(|_| ()))
            .map_err(|cause| EngagementError::SupportShooter {
                id,
                target,
                cause: Box::new(cause),
            })?;
    }
    if target_shoots_back {
        v.check_may_shoot(t)
            .and_then(|_| v.assess_shot(t, s).map(|_| ()))
            .map_err(|cause| EngagementError::CannotShootBack {
                target,
                shooter,
                cause: Box::new(cause),
            })?;
    }
    let from_behind = partly_beyond_rear(&v.rects[s], &v.rects[t]);
    let shooter_c = v.shot_combatant(s)?;
    let target_c = v.shot_combatant(t)?;
    Ok(Situation::shooting(
        shooter_c,
        target_c,
        Shot {
            shooter: ShooterSide::A,
            support_shooters: u8::try_from(support.len()).unwrap_or(u8::MAX),
            target_shoots_back,
            from_behind,
        },
    ))
}

/// Artillery's shot at a City's denizens (§4.2, §9.6): they defend the City (+2); no support
/// shooters (our reading: the walls are one target for one battery).
pub(super) fn denizens_shot(
    v: &View,
    s: usize,
    si: usize,
    support: &[ElementId],
) -> Result<Situation, EngagementError> {
    v.check_may_shoot(s)?;
    let me = &v.ctx.elements[s];
    let target = v.ctx.strongholds[si].civilians.unwrap_or(me.id);
    if v.denizens_target(s, si).is_none() {
        return Err(EngagementError::OutOfReach {
            shooter: me.id,
            target,
        });
    }
    if !support.is_empty() {
        return Err(EngagementError::TooManySupportShooters {
            given: support.len(),
            max: 0,
        });
    }
    let shooter_c = v.shot_combatant(s)?;
    let target_c =
        Combatant::new(ElementKind::new(BaseKind::Denizens)).defending(Stronghold::City, 0);
    Ok(Situation::shooting(
        shooter_c,
        target_c,
        Shot {
            shooter: ShooterSide::A,
            support_shooters: 0,
            target_shoots_back: false,
            from_behind: false,
        },
    ))
}

impl<'c, 'a> View<'c, 'a> {
    pub(super) fn shot_combatant(&self, i: usize) -> Result<Combatant, EngagementError> {
        let e = &self.ctx.elements[i];
        let holding = match self.held_place(i) {
            Some(si) => Holding::Defending {
                place: self.place(&self.ctx.strongholds[si]),
                extra_assaulters: 0,
            },
            None => Holding::Field,
        };
        let mut c = Combatant::new(e.kind);
        c.general = e.general;
        c.going = self.going(i)?;
        c.holding = holding;
        Ok(c)
    }

    /// Element `i` may shoot at all: it shoots, is in play, not in close combat, not sacking.
    pub(super) fn check_may_shoot(&self, i: usize) -> Result<(), EngagementError> {
        self.in_play(i)?;
        let e = &self.ctx.elements[i];
        if !e.kind.shoots() || self.ctx.config.shooting_range(e.kind).is_none() {
            return Err(EngagementError::NotAShooter {
                id: e.id,
                kind: e.kind,
            });
        }
        if in_close_combat(self.ctx, i) {
            return Err(EngagementError::InCloseCombat { id: e.id });
        }
        if self.sacking(i) {
            return Err(EngagementError::Sacking { id: e.id });
        }
        Ok(())
    }

    /// Whether `s` can shoot at `t` (zone, range, sight, target not sacking), and at what distance
    /// (§9.2, §9.5, §4.2).
    pub(super) fn assess_shot(&self, s: usize, t: usize) -> Result<f64, EngagementError> {
        let me = &self.ctx.elements[s];
        let them = &self.ctx.elements[t];
        let Some(range) = self.ctx.config.shooting_range(me.kind) else {
            return Err(EngagementError::NotAShooter {
                id: me.id,
                kind: me.kind,
            });
        };
        if self.sacking(t) {
            return Err(EngagementError::Sacking { id: them.id });
        }
        let (rs, rt) = (&self.rects[s], &self.rects[t]);
        let all_round = me.kind.troop_type() == TroopType::WWg;
        let artillery = me.kind.troop_type() == TroopType::Art;
        let Some(shot) = shot_geometry(rs, all_round, range, rt) else {
            // Inside the zone's side lines but too far, or outside them (§9.2)?
            return Err(match shot_geometry(rs, all_round, UNLIMITED_RANGE, rt) {
                Some(g) => EngagementError::OutOfRange {
                    shooter: me.id,
                    target: them.id,
                    distance: g.distance,
                    range,
                },
                None => EngagementError::OutOfReach {
                    shooter: me.id,
                    target: them.id,
                },
            });
        };
        // Only an element reaching into the box of shooter and target can overlap the field of
        // fire; the grid lists them in the same ascending order, so the first blocker is the same.
        let others: Vec<usize> = self
            .between(s, t)
            .into_iter()
            .filter(|&k| k != s && k != t && self.ctx.elements[k].in_play())
            .collect();
        let blockers: Vec<ShotBlocker> = others
            .iter()
            .map(|&k| {
                let o = &self.ctx.elements[k];
                ShotBlocker {
                    rect: self.rects[k],
                    is_enemy_psiloi: o.army != me.army && o.kind.troop_type() == TroopType::Ps,
                }
            })
            .collect();
        if let Some(b) = line_of_sight_blocker(rs, &shot, &blockers, artillery) {
            return Err(EngagementError::LineOfSight {
                shooter: me.id,
                target: them.id,
                by: Obstruction::Element {
                    id: self.ctx.elements[others[b]].id,
                },
            });
        }
        if let Err(block) = self.ctx.battlefield.element_line_of_sight(rs, rt) {
            return Err(EngagementError::LineOfSight {
                shooter: me.id,
                target: them.id,
                by: Obstruction::Terrain { block },
            });
        }
        Ok(shot.distance)
    }
}

/// A range longer than any table, to tell "out of range" from "outside the target zone" (§9.2).
pub(super) const UNLIMITED_RANGE: f64 = 1.0e4;

/// Some corner of `shooter` lies beyond the line of `target`'s rear edge by more than
/// [`TOLERANCE`] (§9.6, §11.2).
pub(super) fn partly_beyond_rear(shooter: &ElementRect, target: &ElementRect) -> bool {
    let f = target.pose.forward();
    let rear_mid = target.pose.front_mid() - f * target.depth;
    shooter
        .corners()
        .iter()
        .any(|&p| (rear_mid - p).dot(f) > TOLERANCE)
}
