//! What a player may choose, checked (BUGS §5, BUGS §6, BUGS §8, BUGS §11; readings R2, R3, R11, R12, R14–R17,
//! R26–R28, R45), and the concrete list of legal choices ([`Encounter::legal_actions`]).
//!
//! Moves are continuous, so the list is a basis (dbcore reading B8): for the Active figure, stay
//! in place (as it faces, or facing the nearest enemy in sight); fire without moving; a full
//! move toward each enemy in sight (stopping short of contact), on each of the eight compass
//! bearings and on the party's front, and to the nearest place in cover from the nearest enemy
//! in sight; off the table by each edge within a move; and a charge at each enemy it can reach.
//! Any other path the player gives is checked the same way.

use super::field::{CONTACT, OVERLAP};
use super::fight::FirePlan;
use super::motion::{bearing_of, Stops};
use super::sheets::Weapon;
use super::tables::Targets;
use super::tasks::{Input, Task};
use super::FigureId;
use super::{Action, BugsError, Decision, Encounter, Event, Need};
use crate::geometry::{Point, Segment};

const TOL: f64 = 1e-3;

fn mv(rule: &'static str, reason: String) -> BugsError {
    BugsError::IllegalMove { rule, reason }
}
fn act(rule: &'static str, reason: String) -> BugsError {
    BugsError::IllegalAction { rule, reason }
}
fn fire(rule: &'static str, reason: String) -> BugsError {
    BugsError::IllegalFire { rule, reason }
}

fn action_name(a: &Action) -> String {
    match a {
        Action::Roll { dice } => format!("a roll of {} dice", dice.len()),
        Action::Move { figure, .. } => format!("a move of {figure}"),
        Action::Stay { figure, .. } => format!("{figure} staying in place"),
        Action::Charge { figure, .. } => format!("a charge by {figure}"),
        Action::Attack { figure, .. } => format!("an attack by {figure}"),
        Action::Join { leader, .. } => format!("friends joining {leader}"),
        Action::Fire { figure, .. } => format!("a fire by {figure}"),
        Action::HoldFire { figure } => format!("{figure} holding fire"),
    }
}

fn need_name(n: &Need) -> String {
    match n {
        Need::Dice(d) => format!("{} ({:?})", d.notation(), d.roll),
        Need::Decision(Decision::Activation { figure, .. }) => {
            format!("the voluntary action of {figure}, the Active figure")
        }
        Need::Decision(Decision::Join { leader, .. }) => {
            format!("the friends who activate with leader {leader}")
        }
        Need::Decision(Decision::Fire { figure, .. }) => {
            format!("whether {figure} fires")
        }
    }
}

impl Encounter {
    /// The answer an action gives to what is awaited, checked.
    pub(super) fn accept(&self, need: &Need, a: &Action) -> Result<Input, BugsError> {
        let wrong = || BugsError::WrongInput {
            expected: need_name(need),
            got: action_name(a),
        };
        match (need, a) {
            (Need::Dice(req), Action::Roll { dice }) => {
                if dice.len() != usize::from(req.count) {
                    return Err(BugsError::DiceCount {
                        roll: req.notation(),
                        wanted: req.count,
                        got: dice.len(),
                    });
                }
                Ok(Input::Dice(dice.clone()))
            }
            (Need::Decision(Decision::Activation { figure, .. }), _) => {
                let who = match a {
                    Action::Move { figure, .. }
                    | Action::Stay { figure, .. }
                    | Action::Charge { figure, .. }
                    | Action::Attack { figure, .. } => *figure,
                    _ => return Err(wrong()),
                };
                if who != *figure {
                    return Err(wrong());
                }
                self.check_voluntary(a)?;
                Ok(Input::Voluntary(a.clone()))
            }
            (
                Need::Decision(Decision::Join { leader, candidates }),
                Action::Join { leader: l, joiners },
            ) if l == leader => {
                for (i, j) in joiners.iter().enumerate() {
                    if !candidates.contains(j) || joiners[..i].contains(j) {
                        return Err(act(
                            "BUGS §5",
                            format!(
                                "{j} may not join: only friends within 3 in that have not activated, each once"
                            ),
                        ));
                    }
                }
                Ok(Input::Join(joiners.clone()))
            }
            (
                Need::Decision(Decision::Fire { figure, at, .. }),
                Action::Fire {
                    figure: f,
                    grenade,
                    targets,
                },
            ) if f == figure => Ok(Input::Fire(Some(
                self.fire_plan(*f, *grenade, targets, *at)?,
            ))),
            (Need::Decision(Decision::Fire { figure, .. }), Action::HoldFire { figure: f })
                if f == figure =>
            {
                Ok(Input::Fire(None))
            }
            _ => Err(wrong()),
        }
    }

    /// The Active figure's voluntary action, taken (BUGS §6).
    pub(super) fn voluntary(&mut self, task: &Task, id: FigureId, ev: &mut Vec<Event>) {
        if !self.can_go_on(id) {
            return;
        }
        let in_contact = !self.enemies_in_contact(id).is_empty();
        let d = Decision::Activation {
            figure: id,
            in_contact,
        };
        let Some(Input::Voluntary(a)) = self.decide(task, d) else {
            return;
        };
        match a {
            Action::Stay { facing, .. } => {
                let f = self.fig_mut(id);
                if let Some(b) = facing {
                    f.facing = crate::geometry::snap_bearing(b);
                }
                let facing = f.facing;
                ev.push(Event::Stayed { figure: id, facing });
            }
            Action::Move { path, facing, .. } => {
                self.watchers = self.seen_by(id);
                self.stack.push(Task::AfterMove { figure: id });
                self.stack.push(Task::Travel {
                    figure: id,
                    path,
                    facing,
                    charge: false,
                });
            }
            Action::Charge { target, to, .. } => {
                self.watchers = self.seen_by(id);
                ev.push(Event::ChargeDeclared { figure: id, target });
                self.stack.push(Task::Check {
                    figure: id,
                    kind: super::reaction::CheckKind::Charging,
                    threat: target,
                    to: Some(to),
                    may_counter: false,
                    first: None,
                });
            }
            Action::Attack { target, .. } => self.stack.push(Task::MeleeAttack {
                attacker: id,
                defender: target,
            }),
            _ => {}
        }
    }

    fn check_voluntary(&self, a: &Action) -> Result<(), BugsError> {
        match a {
            Action::Stay { facing, .. } => {
                if facing.is_some_and(|b| !b.is_finite()) {
                    return Err(mv("BUGS §6", "a facing must be a finite bearing".into()));
                }
                Ok(())
            }
            Action::Move {
                figure,
                path,
                facing,
            } => {
                if !self.enemies_in_contact(*figure).is_empty() {
                    return Err(mv(
                        "BUGS §11",
                        format!(
                            "{figure} is in melee: it may only attack an enemy in contact or stay (reading R27)"
                        ),
                    ));
                }
                if facing.is_some_and(|b| !b.is_finite()) {
                    return Err(mv("BUGS §6", "a facing must be a finite bearing".into()));
                }
                self.path_ok(*figure, path).map(|_| ())
            }
            Action::Charge { figure, target, to } => {
                if !self.enemies_in_contact(*figure).is_empty() {
                    return Err(act(
                        "BUGS §11",
                        format!("{figure} is already in melee (reading R27)"),
                    ));
                }
                let t = self
                    .figure(*target)
                    .filter(|t| t.on_table())
                    .ok_or(BugsError::UnknownFigure { figure: *target })?;
                if t.side == self.fig(*figure).side {
                    return Err(act("BUGS §6", format!("{target} is not an enemy")));
                }
                if !self.sees(*figure, *target) {
                    return Err(act(
                        "BUGS §8",
                        format!("{figure} cannot see {target}, so cannot charge it (reading R28)"),
                    ));
                }
                let speed = self.fig(*figure).charge_speed();
                self.charge_path_ok(*figure, *target, *to, speed)
            }
            Action::Attack { figure, target } => {
                if !self.enemies_in_contact(*figure).contains(target) {
                    return Err(act(
                        "BUGS §11",
                        format!("{target} is not an enemy in contact with {figure}"),
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A voluntary path: straight legs crossing no base and no impassable terrain, on the table
    /// (or leaving it by its last point), within the movement rate with half speed counted
    /// (BUGS §6, readings R2, R3, R43). Returns its cost.
    pub(super) fn path_ok(&self, id: FigureId, path: &[Point]) -> Result<f64, BugsError> {
        let f = self.fig(id);
        if path.len() > 16 {
            return Err(mv("BUGS §6", "a path has at most 16 points".into()));
        }
        if path.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) {
            return Err(mv("BUGS §6", "a path's points must be finite".into()));
        }
        let mut pts = vec![f.at];
        pts.extend(path.iter().copied());
        let mut exit = None;
        let n = pts.len();
        if n >= 2 && !self.field.inside(pts[n - 1]) {
            let (e, t) = self
                .field
                .edge_crossed(pts[n - 2], pts[n - 1])
                .ok_or_else(|| mv("BUGS §6", "the path leaves the table from off it".into()))?;
            let d = pts[n - 1] - pts[n - 2];
            pts[n - 1] = pts[n - 2] + d * (t / d.length());
            exit = Some(e);
        }
        for (i, p) in pts.iter().enumerate().skip(1) {
            let last = i == n - 1;
            let leaving = last && exit.is_some();
            if !leaving && !self.field.on_table(*p) {
                return Err(mv(
                    "BUGS §15",
                    "the path takes the base off the table (reading R43)".into(),
                ));
            }
        }
        let mut cost = 0.0;
        for w in pts.windows(2) {
            if self.field.crosses_impassable(w[0], w[1]) {
                return Err(mv(
                    "BUGS §14",
                    "the path enters impassable terrain (reading R42)".into(),
                ));
            }
            let seg = Segment::new(w[0], w[1]);
            if let Some(g) = self
                .figures
                .iter()
                .find(|g| g.on_table() && g.id != id && seg.distance_to_point(g.at) < OVERLAP)
            {
                return Err(mv(
                    "BUGS §0",
                    format!("the path crosses the base of {} (reading R2)", g.id),
                ));
            }
            cost += self.field.cost(w[0], w[1]);
        }
        if cost > f.movement + TOL {
            return Err(mv(
                "BUGS §6",
                format!(
                    "the move costs {cost:.2} in, more than the movement rate of {} in (half speed in jungle, swamp and rocky ground, reading R3)",
                    f.movement
                ),
            ));
        }
        let end = pts[n - 1];
        if exit.is_none() {
            if let Some(g) = self.figures.iter().find(|g| {
                g.on_table() && g.id != id && g.side != f.side && g.at.distance(end) <= CONTACT
            }) {
                return Err(mv(
                    "BUGS §6",
                    format!(
                        "a move may not end in contact with {}: only a charge may (reading R2)",
                        g.id
                    ),
                ));
            }
        }
        Ok(cost)
    }

    /// A charge from where the figure stands to `to`, touching `target`, within `budget` inches
    /// of movement, with room at the target (BUGS §6 #3, BUGS §11; readings R26, R28).
    pub(super) fn charge_path_ok(
        &self,
        id: FigureId,
        target: FigureId,
        to: Point,
        budget: f64,
    ) -> Result<(), BugsError> {
        let f = self.fig(id);
        let t = self.fig(target);
        if !to.x.is_finite() || !to.y.is_finite() {
            return Err(act("BUGS §6", "the end point must be finite".into()));
        }
        if (to.distance(t.at) - 1.0).abs() > 0.01 {
            return Err(act(
                "BUGS §6",
                format!("a charge ends in contact: its centre 1 in from {target}'s"),
            ));
        }
        if !self.field.on_table(to) || !self.field.passable(to) {
            return Err(act(
                "BUGS §15",
                "the charge would end off the table or in impassable terrain".into(),
            ));
        }
        if self.field.crosses_impassable(f.at, to) {
            return Err(act(
                "BUGS §14",
                "the charge crosses impassable terrain (reading R42)".into(),
            ));
        }
        let seg = Segment::new(f.at, to);
        if let Some(g) = self.figures.iter().find(|g| {
            g.on_table()
                && g.id != id
                && (seg.distance_to_point(g.at) < OVERLAP || g.at.distance(to) < OVERLAP)
        }) {
            return Err(act(
                "BUGS §0",
                format!(
                    "the charge crosses or ends on the base of {} (reading R2)",
                    g.id
                ),
            ));
        }
        let cost = self.field.cost(f.at, to);
        if cost > budget + TOL {
            return Err(act(
                "BUGS §6",
                format!(
                    "the charge costs {cost:.2} in, more than the {budget:.2} in it may go (1½ × movement, reading R28)"
                ),
            ));
        }
        let (front, rear) = self.contacts_front_rear(target, id);
        let from_behind = super::react::behind(t.at, t.facing, to);
        if (from_behind && rear >= 1) || (!from_behind && front >= 2) {
            return Err(act(
                "BUGS §11",
                format!(
                    "{target} already has as many attackers as it may ({front} in front, {rear} behind: at most 2 and 1, reading R26)"
                ),
            ));
        }
        Ok(())
    }

    /// A fire, checked: the weapon, each target in sight and range, the targets' spacing or the
    /// burst's circle (BUGS §8, readings R14–R17, R27, R45).
    pub(super) fn fire_plan(
        &self,
        id: FigureId,
        grenade: bool,
        targets: &[FigureId],
        at: Option<FigureId>,
    ) -> Result<FirePlan, BugsError> {
        let f = self.fig(id);
        let weapon = if grenade {
            if f.grenades == 0 {
                return Err(fire(
                    "BUGS §4",
                    format!("{id} has no grenades left (reading R45)"),
                ));
            }
            Weapon::Grenade
        } else {
            if !f.weapon.is_ranged() {
                return Err(fire(
                    "BUGS §8",
                    format!("{id}'s {} work only in contact", f.weapon.name()),
                ));
            }
            f.weapon
        };
        if !self.enemies_in_contact(id).is_empty() {
            return Err(fire(
                "BUGS §11",
                format!("{id} is in melee and cannot fire (readings R27, R45)"),
            ));
        }
        if targets.is_empty() {
            return Err(fire("BUGS §8", "a fire needs a target".into()));
        }
        if let Some(x) = at {
            if targets[0] != x {
                return Err(fire("BUGS §12", format!("this fire must be at {x} first")));
            }
        }
        let ranges = weapon
            .ranges(&self.tables)
            .ok_or_else(|| fire("BUGS §4", "not a ranged weapon".into()))?;
        let mut long = Vec::new();
        for (i, t) in targets.iter().enumerate() {
            if targets[..i].contains(t) {
                return Err(fire("BUGS §8", format!("{t} is named twice")));
            }
            let g = self
                .figure(*t)
                .filter(|g| g.on_table())
                .ok_or(BugsError::UnknownFigure { figure: *t })?;
            if g.side == f.side {
                return Err(fire("BUGS §8", format!("{t} is not an enemy")));
            }
            if !self.sees(id, *t) {
                return Err(fire(
                    "BUGS §8",
                    format!("{id} has no line of sight to {t} (reading R17)"),
                ));
            }
            let d = f.at.distance(g.at);
            if ranges.max_in.is_some_and(|m| d > m + 1e-9) {
                return Err(fire(
                    "BUGS §4",
                    format!(
                        "{t} is {d:.1} in away, beyond the {}'s range (reading R14)",
                        weapon.name()
                    ),
                ));
            }
            long.push(d > ranges.effective_in + 1e-9);
        }
        match ranges.targets {
            Targets::UpTo(n) => {
                if targets.len() > usize::from(n) {
                    return Err(fire(
                        "BUGS §8",
                        format!("the {} engages at most {n} targets", weapon.name()),
                    ));
                }
                for (i, a) in targets.iter().enumerate() {
                    for b in &targets[i + 1..] {
                        if self.fig(*a).at.distance(self.fig(*b).at) > 2.0 + 1e-9 {
                            return Err(fire(
                                "BUGS §8",
                                format!("{a} and {b} are more than 2 in apart (reading R15)"),
                            ));
                        }
                    }
                }
                Ok(FirePlan {
                    firer: id,
                    weapon,
                    targets: targets.to_vec(),
                    long,
                    burst_at: None,
                })
            }
            Targets::Burst => {
                if targets.len() != 1 {
                    return Err(fire(
                        "BUGS §8",
                        "a burst names one target; everything in its circle is hit (reading R16)"
                            .into(),
                    ));
                }
                let p = self.fig(targets[0]);
                let centre = p.at;
                let mut more: Vec<(f64, FigureId)> = self
                    .figures
                    .iter()
                    .filter(|g| {
                        g.on_table()
                            && g.side != f.side
                            && g.id != p.id
                            && g.at.distance(centre) <= 3.0 + 1e-9
                            && self.sees_from(centre, g.at, &[p.id, g.id])
                    })
                    .map(|g| (g.at.distance(centre), g.id))
                    .collect();
                // Nearest the centre first; dbcore reading B16: ties by figure number.
                more.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let band = long[0];
                let mut all = vec![p.id];
                all.extend(more.iter().map(|(_, g)| *g));
                Ok(FirePlan {
                    firer: id,
                    weapon,
                    long: vec![band; all.len()],
                    targets: all,
                    burst_at: Some(centre),
                })
            }
        }
    }

    /// The fires open to a figure now (each accepted by [`Encounter::fire_plan`]).
    pub(super) fn fire_options(&self, id: FigureId, at: Option<FigureId>) -> Vec<Action> {
        let f = self.fig(id);
        let mut out = Vec::new();
        let mut enemies: Vec<(f64, FigureId)> = self
            .figures
            .iter()
            .filter(|g| g.on_table() && g.side != f.side)
            .map(|g| (g.at.distance(f.at), g.id))
            .collect();
        enemies.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut weapons = Vec::new();
        if f.weapon.is_ranged() {
            weapons.push(false);
        }
        if f.grenades > 0 {
            weapons.push(true);
        }
        for grenade in weapons {
            for (_, p) in &enemies {
                if at.is_some_and(|x| x != *p) {
                    continue;
                }
                let single = vec![*p];
                if self.fire_plan(id, grenade, &single, at).is_err() {
                    continue;
                }
                out.push(Action::Fire {
                    figure: id,
                    grenade,
                    targets: single.clone(),
                });
                let w = if grenade { Weapon::Grenade } else { f.weapon };
                if let Some(Targets::UpTo(n)) = w.ranges(&self.tables).map(|r| r.targets) {
                    let mut group = single;
                    for (_, q) in &enemies {
                        if group.len() >= usize::from(n) {
                            break;
                        }
                        if group.contains(q) {
                            continue;
                        }
                        let mut g2 = group.clone();
                        g2.push(*q);
                        if self.fire_plan(id, grenade, &g2, at).is_ok() {
                            group = g2;
                        }
                    }
                    if group.len() > 1 {
                        out.push(Action::Fire {
                            figure: id,
                            grenade,
                            targets: group,
                        });
                    }
                }
            }
        }
        out
    }

    /// Every legal action now, each accepted by [`Encounter::check`] as it stands. While dice are
    /// awaited the list is empty: the one input is [`Action::Roll`] with the dice
    /// [`Encounter::awaiting`] names.
    pub fn legal_actions(&self) -> Vec<Action> {
        let Some(Need::Decision(d)) = &self.need else {
            return Vec::new();
        };
        let mut out = match d {
            Decision::Join { leader, candidates } => {
                let mut v = vec![
                    Action::Join {
                        leader: *leader,
                        joiners: candidates.clone(),
                    },
                    Action::Join {
                        leader: *leader,
                        joiners: Vec::new(),
                    },
                ];
                if candidates.len() > 1 {
                    v.extend(candidates.iter().map(|c| Action::Join {
                        leader: *leader,
                        joiners: vec![*c],
                    }));
                }
                v
            }
            Decision::Fire { figure, at, .. } => {
                let mut v = self.fire_options(*figure, *at);
                v.push(Action::HoldFire { figure: *figure });
                v
            }
            Decision::Activation { figure, in_contact } => {
                if *in_contact {
                    let mut v: Vec<Action> = self
                        .enemies_in_contact(*figure)
                        .into_iter()
                        .map(|t| Action::Attack {
                            figure: *figure,
                            target: t,
                        })
                        .collect();
                    v.push(Action::Stay {
                        figure: *figure,
                        facing: None,
                    });
                    v
                } else {
                    self.activation_basis(*figure)
                }
            }
        };
        let mut seen: Vec<Action> = Vec::new();
        out.retain(|a| {
            if seen.contains(a) {
                return false;
            }
            seen.push(a.clone());
            self.need
                .as_ref()
                .is_some_and(|n| self.accept(n, a).is_ok())
        });
        out
    }

    fn activation_basis(&self, id: FigureId) -> Vec<Action> {
        let f = self.fig(id);
        let mut v = vec![
            Action::Stay {
                figure: id,
                facing: None,
            },
            Action::Move {
                figure: id,
                path: Vec::new(),
                facing: None,
            },
        ];
        let mut seen: Vec<(f64, FigureId)> = self
            .figures
            .iter()
            .filter(|g| g.on_table() && g.side != f.side && self.sees(id, g.id))
            .map(|g| (g.at.distance(f.at), g.id))
            .collect();
        seen.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        if let Some((_, e)) = seen.first() {
            v.push(Action::Stay {
                figure: id,
                facing: Some(bearing_of(self.fig(*e).at - f.at)),
            });
        }
        let stops = Stops {
            shy_of_enemies: true,
            toward: None,
            exits: false,
            terrain_costs: true,
        };
        let full = |dir: Point, v: &mut Vec<Action>| {
            let trip = self.trip(id, dir, f.movement, stops);
            if trip.inches > 0.05 {
                v.push(Action::Move {
                    figure: id,
                    path: vec![trip.to],
                    facing: Some(bearing_of(dir)),
                });
            }
        };
        for (_, e) in &seen {
            let d = self.fig(*e).at - f.at;
            if d.length() > 1e-9 {
                full(d * (1.0 / d.length()), &mut v);
            }
        }
        let mut bearings: Vec<f64> = (0..8).map(|k| 45.0 * f64::from(k)).collect();
        bearings.push(self.setup.front.rem_euclid(360.0));
        for b in bearings {
            full(
                Point::from_bearing(crate::geometry::snap_bearing(b)),
                &mut v,
            );
        }
        // To the nearest place in cover from the nearest enemy in sight.
        if let Some((_, e)) = seen.first() {
            let threat = self.fig(*e).at;
            let mut best: Option<(f64, Point)> = None;
            for k in 0..16 {
                let dir = Point::from_bearing(22.5 * f64::from(k));
                let trip = self.trip(id, dir, f.movement, stops);
                let mut s = 0.5;
                while s <= trip.inches + 1e-9 {
                    let p = (f.at + dir * s).snapped();
                    if self.field.in_cover(p, threat) && best.is_none_or(|(b, _)| s < b - 1e-9) {
                        best = Some((s, p));
                        break;
                    }
                    s += 0.5;
                }
            }
            if let Some((_, p)) = best {
                v.push(Action::Move {
                    figure: id,
                    path: vec![p],
                    facing: Some(bearing_of(threat - p)),
                });
            }
        }
        // Off the table by each edge within a move.
        for e in super::field::Edge::ALL {
            let dir = Point::from_bearing(e.bearing());
            if let Some(t) = self.field.to_edge(f.at, dir, e, 0.0) {
                if t <= f.movement {
                    v.push(Action::Move {
                        figure: id,
                        path: vec![(f.at + dir * (t + 0.25)).snapped()],
                        facing: Some(e.bearing()),
                    });
                }
            }
        }
        // A charge at each enemy in sight: straight in, else from the side or behind.
        for (_, e) in &seen {
            let t = self.fig(*e).at;
            let base = bearing_of(f.at - t);
            for turn in [0.0, 45.0, -45.0, 90.0, -90.0, 135.0, -135.0, 180.0] {
                let to =
                    (t + Point::from_bearing(crate::geometry::snap_bearing(base + turn))).snapped();
                if self.charge_path_ok(id, *e, to, f.charge_speed()).is_ok() {
                    v.push(Action::Charge {
                        figure: id,
                        target: *e,
                        to,
                    });
                    break;
                }
            }
        }
        v
    }
}
