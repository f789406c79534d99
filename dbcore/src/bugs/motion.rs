//! Moving figures (BUGS §6, BUGS §7; readings R2, R3, R13, R28, R30, R32–R35): voluntary moves paused
//! by What Now checks, the charge, and the moves the results force (duck down, runaway, move
//! back, follow up, pursuit).
//!
//! dbcore reading B2: every move the engine makes for a figure (duck down, runaway, move back,
//! follow up, pursuit) is a straight line that stops short of any base or impassable terrain in
//! its way; a voluntary move is the player's path of straight legs. Only voluntary moves and
//! charges set off What Now checks (dbcore reading B3): a forced move is no "target moving into
//! sight from a concealed position".

use super::field::{Edge, CONTACT, RADIUS};
use super::tasks::Task;
use super::FigureId;
use super::{Encounter, Event, FigureStatus, MoveKind};
use crate::geometry::{snap_bearing, Point};

/// How far a forced move went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Trip {
    pub to: Point,
    pub inches: f64,
    /// The edge it touched, for a move allowed off the table.
    pub exit: Option<Edge>,
}

/// Whom a straight move stops short of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Stops {
    /// Stop short of touching enemies (a voluntary move may not end in contact: reading R2).
    pub shy_of_enemies: bool,
    /// The one enemy it may come into contact with (pursuit, follow up).
    pub toward: Option<FigureId>,
    /// Touching a table edge takes it off the table (a runaway, reading R33).
    pub exits: bool,
    /// Half-speed terrain counts double (reading R3); moving back is measured in plain inches.
    pub terrain_costs: bool,
}

/// The bearing of a vector.
pub(super) fn bearing_of(v: Point) -> f64 {
    snap_bearing(v.x.atan2(v.y).to_degrees())
}

impl Encounter {
    /// Whether `a` sees `b` (reading R17): other figures' bases block.
    pub(super) fn sees(&self, a: FigureId, b: FigureId) -> bool {
        let (fa, fb) = (self.fig(a), self.fig(b));
        self.sees_from(fa.at, fb.at, &[a, b])
    }

    /// Sight between two points, the bases of all figures on the table but `except` blocking.
    pub(super) fn sees_from(&self, from: Point, to: Point, except: &[FigureId]) -> bool {
        let blockers = self
            .figures
            .iter()
            .filter(|f| f.on_table() && !except.contains(&f.id))
            .map(|f| f.at);
        self.field.sight(from, to, blockers)
    }

    /// The enemies who see the figure now: a move that begins here sets off What Now checks
    /// only in the others (reading R30).
    pub(super) fn seen_by(&self, id: FigureId) -> Vec<FigureId> {
        let side = self.fig(id).side;
        self.figures
            .iter()
            .filter(|g| g.on_table() && g.side != side && self.sees(g.id, id))
            .map(|g| g.id)
            .collect()
    }

    /// Enemies touching the figure, by id.
    pub(super) fn enemies_in_contact(&self, id: FigureId) -> Vec<FigureId> {
        let f = self.fig(id);
        self.figures
            .iter()
            .filter(|g| g.on_table() && g.side != f.side && g.at.distance(f.at) <= CONTACT)
            .map(|g| g.id)
            .collect()
    }

    /// The figure can carry on with what it is doing: on the table, not cut short, not running,
    /// not knocked down.
    pub(super) fn can_go_on(&self, id: FigureId) -> bool {
        self.figure(id)
            .is_some_and(|f| f.on_table() && !f.halted && !f.running && !f.knocked_down)
    }

    /// How far a straight move from the figure's place along `dir` (a unit vector) goes with a
    /// budget of `budget` inches of movement (reading B2).
    pub(super) fn trip(&self, id: FigureId, dir: Point, budget: f64, stops: Stops) -> Trip {
        let f = self.fig(id);
        let p = f.at;
        let mut limit = budget.max(0.0);
        let mut exit = None;
        for e in Edge::ALL {
            if let Some(t) = self.field.to_edge(p, dir, e, RADIUS) {
                if stops.exits {
                    if t <= limit && exit.is_none_or(|(_, u)| t < u) {
                        exit = Some((e, t));
                    }
                } else {
                    limit = limit.min(t);
                }
            }
        }
        if let Some(t) = self.field.first_impassable(p, p + dir * limit.max(1e-9)) {
            limit = limit.min((t - 0.002).max(0.0));
        }
        for g in self.figures.iter().filter(|g| g.on_table() && g.id != id) {
            let gap = if Some(g.id) == stops.toward {
                1.002
            } else if g.side != f.side && stops.shy_of_enemies {
                CONTACT + 0.02
            } else {
                1.002
            };
            let w = p - g.at;
            let b = w.dot(dir);
            let c = w.dot(w) - gap * gap;
            if c <= 0.0 {
                if b < -1e-9 {
                    limit = 0.0;
                }
                continue;
            }
            let disc = b * b - c;
            if disc < 0.0 {
                continue;
            }
            let t = -b - disc.sqrt();
            if t >= 0.0 {
                limit = limit.min(t);
            }
        }
        let go = if stops.terrain_costs {
            self.field.reach(p, dir, budget, limit)
        } else {
            limit.min(budget)
        };
        match exit {
            Some((e, t)) if t <= go + 1e-9 => Trip {
                to: (p + dir * t).snapped(),
                inches: t,
                exit: Some(e),
            },
            _ => Trip {
                to: (p + dir * go).snapped(),
                inches: go,
                exit: None,
            },
        }
    }

    /// Put a figure somewhere at the end of a straight move and say so.
    pub(super) fn place(
        &mut self,
        id: FigureId,
        to: Point,
        facing: Option<f64>,
        kind: MoveKind,
        ev: &mut Vec<Event>,
    ) {
        let inches = self.fig(id).at.distance(to);
        self.place_after(id, to, facing, kind, inches, ev);
    }

    /// Put a figure somewhere after moving `inches` along a path, and say so.
    pub(super) fn place_after(
        &mut self,
        id: FigureId,
        to: Point,
        facing: Option<f64>,
        kind: MoveKind,
        inches: f64,
        ev: &mut Vec<Event>,
    ) {
        let f = self.fig_mut(id);
        let from = f.at;
        f.at = to;
        f.moved_in += inches;
        if let Some(b) = facing {
            f.facing = snap_bearing(b);
        }
        let facing = f.facing;
        if inches > 1e-9 || kind != MoveKind::Move {
            ev.push(Event::Moved {
                figure: id,
                kind,
                from,
                to,
                inches,
                facing,
            });
        }
    }

    /// A voluntary move or a charge leg along `path`, paused where a non-active enemy first sees
    /// the mover for its What Now checks (BUGS §12.3, reading R30).
    pub(super) fn travel_task(
        &mut self,
        id: FigureId,
        path: Vec<Point>,
        facing: Option<f64>,
        charge: bool,
        ev: &mut Vec<Event>,
    ) {
        if !self.can_go_on(id) {
            return;
        }
        let kind = if charge {
            MoveKind::Charge
        } else {
            MoveKind::Move
        };
        let start = self.fig(id).at;
        let mut pts = vec![start];
        pts.extend(path.iter().copied());
        // A last point beyond an edge: the figure leaves where its centre crosses it.
        let mut exit = None;
        if let (Some(&last), Some(&before)) = (pts.last(), pts.iter().rev().nth(1)) {
            if !self.field.inside(last) {
                if let Some((e, t)) = self.field.edge_crossed(before, last) {
                    let d = last - before;
                    let cross = before + d * (t / d.length());
                    let n = pts.len();
                    pts[n - 1] = cross;
                    exit = Some(e);
                }
            }
        }
        let side = self.fig(id).side;
        let watchers: Vec<FigureId> = self
            .figures
            .iter()
            .filter(|g| {
                g.on_table()
                    && g.side != side
                    && !g.running
                    && Some(g.id) != self.active
                    && !self.watchers.contains(&g.id)
            })
            .map(|g| g.id)
            .collect();
        // Walk the path in quarter inches, looking for the first point of sight.
        let step = 0.25;
        let mut walked = 0.0;
        for (k, w) in pts.windows(2).enumerate() {
            let len = w[0].distance(w[1]);
            let n = (len / step).ceil().max(1.0) as usize;
            for i in 1..=n {
                let s = w[0] + (w[1] - w[0]) * (i as f64 / n as f64);
                let seen: Vec<FigureId> = watchers
                    .iter()
                    .copied()
                    .filter(|c| {
                        let cf = self.fig(*c);
                        self.field.sight(
                            cf.at,
                            s,
                            self.figures
                                .iter()
                                .filter(|g| g.on_table() && g.id != id && g.id != *c)
                                .map(|g| g.at),
                        )
                    })
                    .collect();
                if seen.is_empty() {
                    continue;
                }
                let at_end = k + 2 == pts.len() && i == n;
                if at_end && exit.is_some() {
                    // Leaving the table as it comes into sight: it is gone first.
                    break;
                }
                let s = s.snapped();
                self.place_after(id, s, None, kind, walked + len * (i as f64 / n as f64), ev);
                self.watchers.extend(seen.iter().copied());
                if !at_end {
                    let skip = if i < n { k } else { k + 1 };
                    let rest: Vec<Point> = path.iter().skip(skip).copied().collect();
                    self.stack.push(Task::Travel {
                        figure: id,
                        path: rest,
                        facing,
                        charge,
                    });
                } else if let Some(b) = facing {
                    self.fig_mut(id).facing = snap_bearing(b);
                }
                self.what_now_checks(seen, id);
                return;
            }
            walked += len;
        }
        let end = *pts.last().unwrap_or(&start);
        self.place_after(id, end.snapped(), facing, kind, walked, ev);
        if let Some(edge) = exit {
            self.fig_mut(id).status = FigureStatus::Exited { edge };
            ev.push(Event::Exited { figure: id, edge });
        }
    }

    /// Duck down (BUGS §7 #3, reading R32): up to charge speed to the nearest place in cover from
    /// the threat and farther from it, else straight away at full charge speed; it ends facing the
    /// threat. dbcore reading B4: the places tried lie on 16 bearings every half inch.
    pub(super) fn duck_down(&mut self, id: FigureId, threat: Point, ev: &mut Vec<Event>) {
        if !self.present(id) || self.fig(id).running {
            return;
        }
        self.fig_mut(id).halted = true;
        if self.fig(id).knocked_down {
            // Reading R23: a move forced on a figure that is down is void.
            return;
        }
        let f = self.fig(id);
        let start = f.at;
        let speed = f.charge_speed();
        let away = if start.distance(threat) > 1e-9 {
            bearing_of(start - threat)
        } else {
            f.facing + 180.0
        };
        let d0 = start.distance(threat);
        let stops = Stops {
            shy_of_enemies: true,
            toward: None,
            exits: false,
            terrain_costs: true,
        };
        let mut best: Option<(f64, Point)> = None;
        for k in 0..16 {
            let b = away + 22.5 * f64::from(k);
            let dir = Point::from_bearing(snap_bearing(b));
            let trip = self.trip(id, dir, speed, stops);
            let mut s = 0.5;
            while s <= trip.inches + 1e-9 {
                let p = (start + dir * s).snapped();
                if p.distance(threat) > d0 + 1e-9
                    && self.field.in_cover(p, threat)
                    && best.is_none_or(|(bs, _)| s < bs - 1e-9)
                {
                    best = Some((s, p));
                    break;
                }
                s += 0.5;
            }
        }
        let to = match best {
            Some((_, p)) => p,
            None => {
                self.trip(id, Point::from_bearing(snap_bearing(away)), speed, stops)
                    .to
            }
        };
        self.place(
            id,
            to,
            Some(bearing_of(threat - to)),
            MoveKind::DuckDown,
            ev,
        );
    }

    /// A runaway's move (BUGS §7 #5, reading R33): at charge speed for the nearest table edge,
    /// leaving the table when it touches one. dbcore reading B5: it runs straight for the
    /// nearest edge; if that way is blocked short of the edge it takes the first of the other
    /// edges, nearest first, that it can reach, or else the way that takes it farthest.
    pub(super) fn runaway_move(&mut self, id: FigureId, ev: &mut Vec<Event>) {
        if !self.present(id) || !self.fig(id).running || self.fig(id).knocked_down {
            return;
        }
        let f = self.fig(id);
        let speed = f.charge_speed();
        let p = f.at;
        let mut edges: Vec<(Edge, f64)> = Edge::ALL
            .iter()
            .map(|e| {
                let d = match e {
                    Edge::North => self.field.depth - p.y,
                    Edge::South => p.y,
                    Edge::East => self.field.width - p.x,
                    Edge::West => p.x,
                };
                (*e, d)
            })
            .collect();
        edges.sort_by(|a, b| a.1.total_cmp(&b.1));
        let stops = Stops {
            shy_of_enemies: false,
            toward: None,
            exits: true,
            terrain_costs: true,
        };
        let mut best: Option<(Trip, Edge)> = None;
        for (e, _) in &edges {
            let trip = self.trip(id, Point::from_bearing(e.bearing()), speed, stops);
            if trip.exit.is_some() {
                best = Some((trip, *e));
                break;
            }
            if best.is_none_or(|(b, _)| trip.inches > b.inches + 1e-9) {
                best = Some((trip, *e));
            }
        }
        self.fig_mut(id).activated = true;
        let Some((trip, e)) = best else { return };
        self.place(id, trip.to, Some(e.bearing()), MoveKind::Runaway, ev);
        if let Some(edge) = trip.exit {
            self.fig_mut(id).status = FigureStatus::RanOff;
            ev.push(Event::RanOff { figure: id, edge });
        }
    }

    /// Move back 2 in, losing 1 Willpower, and the attacker follows up (BUGS §7 #6, #7; reading
    /// R34).
    pub(super) fn move_back(&mut self, id: FigureId, attacker: FigureId, ev: &mut Vec<Event>) {
        if !self.present(id) {
            return;
        }
        let f = self.fig_mut(id);
        f.will = f.will.saturating_sub(1);
        let will = f.will;
        ev.push(Event::WillpowerLost { figure: id, will });
        if self.fig(id).knocked_down {
            return;
        }
        let f = self.fig(id);
        let back = -Point::from_bearing(f.facing);
        let facing = f.facing;
        let from = f.at;
        let trip = self.trip(
            id,
            back,
            2.0,
            Stops {
                shy_of_enemies: false,
                toward: None,
                exits: false,
                terrain_costs: false,
            },
        );
        self.place(id, trip.to, Some(facing), MoveKind::MoveBack, ev);
        let moved = trip.to - from;
        if moved.length() < 0.01 || !self.can_follow(attacker, id) {
            return;
        }
        let a = self.fig(attacker);
        let follow = self.trip(
            attacker,
            moved * (1.0 / moved.length()),
            moved.length(),
            Stops {
                shy_of_enemies: false,
                toward: Some(id),
                exits: false,
                terrain_costs: false,
            },
        );
        let af = a.facing;
        self.place(attacker, follow.to, Some(af), MoveKind::FollowUp, ev);
    }

    /// A figure that made an enemy move back follows up unless it is in melee with someone else
    /// (BUGS §7 #7).
    fn can_follow(&self, attacker: FigureId, quarry: FigureId) -> bool {
        self.present(attacker)
            && !self.fig(attacker).running
            && !self.fig(attacker).knocked_down
            && self
                .enemies_in_contact(attacker)
                .iter()
                .all(|e| *e == quarry)
    }

    /// Move a pursuer toward its quarry, and hack at its back if it ends in contact.
    fn chase(&mut self, pursuer: FigureId, quarry: FigureId, inches: f64, ev: &mut Vec<Event>) {
        let v = self.fig(quarry).at - self.fig(pursuer).at;
        if v.length() < 1e-9 {
            return;
        }
        let trip = self.trip(
            pursuer,
            v * (1.0 / v.length()),
            inches,
            Stops {
                shy_of_enemies: true,
                toward: Some(quarry),
                exits: false,
                terrain_costs: true,
            },
        );
        self.place(pursuer, trip.to, Some(bearing_of(v)), MoveKind::Pursuit, ev);
        if self.fig(pursuer).at.distance(self.fig(quarry).at) <= CONTACT {
            self.free_hack(pursuer, quarry);
        }
    }

    /// The first pursuit (BUGS §7 #8, reading R35): movement rate + ½D6.
    pub(super) fn pursue(
        &mut self,
        task: &Task,
        pursuer: FigureId,
        quarry: FigureId,
        ev: &mut Vec<Event>,
    ) {
        if !self.present(pursuer) || !self.present(quarry) {
            return;
        }
        let p = self.fig(pursuer);
        if p.running || p.knocked_down || p.side == self.fig(quarry).side {
            return;
        }
        if self
            .enemies_in_contact(pursuer)
            .iter()
            .any(|e| *e != quarry && !self.fig(*e).running)
        {
            return;
        }
        let roll = super::Roll::PursuitDistance { figure: pursuer };
        let Some(d) = self.dice(task, 1, super::DiceReading::Half, roll) else {
            return;
        };
        let inches = self.fig(pursuer).movement + f64::from(super::hits::half_d6(d[0].get()));
        self.fig_mut(pursuer).pursuing = Some(super::Pursuit { quarry, divisor: 2 });
        self.chase(pursuer, quarry, inches, ev);
    }

    /// A pursuer's activation (BUGS §7 #8, reading R35): 2D6 against its Willpower to stop, else
    /// on at its rate halved again.
    pub(super) fn pursuit_check(&mut self, task: &Task, id: FigureId, ev: &mut Vec<Event>) {
        let Some(p) = self.fig(id).pursuing else {
            self.stack.push(Task::Voluntary { figure: id });
            return;
        };
        if !self.present(p.quarry) || !self.fig(p.quarry).running {
            self.fig_mut(id).pursuing = None;
            ev.push(Event::PursuitEnded { figure: id });
            self.stack.push(Task::Voluntary { figure: id });
            return;
        }
        let roll = super::Roll::PursuitCheck { figure: id };
        let Some(d) = self.dice(task, 2, super::DiceReading::Total, roll) else {
            return;
        };
        let will = self.fig(id).will;
        let pursues = d[0].get() + d[1].get() > will;
        ev.push(Event::PursuitChecked {
            figure: id,
            dice: d,
            will,
            pursues,
        });
        let inches = self.fig(id).movement / f64::from(p.divisor);
        if !pursues || inches <= 1.0 + 1e-9 {
            self.fig_mut(id).pursuing = None;
            ev.push(Event::PursuitEnded { figure: id });
            self.stack.push(Task::Voluntary { figure: id });
            return;
        }
        self.fig_mut(id).pursuing = Some(super::Pursuit {
            quarry: p.quarry,
            divisor: p.divisor.saturating_mul(2),
        });
        self.chase(id, p.quarry, inches, ev);
    }

    /// The charger goes on from halfway to contact (reading R28). dbcore reading B6: if the
    /// target has moved (it ducked down or ran), the charger goes straight for it with what is
    /// left of its charge speed, and stops where it is if it cannot reach it.
    pub(super) fn charge_finish(
        &mut self,
        id: FigureId,
        target: FigureId,
        to: Point,
        target_at: Point,
        budget: f64,
    ) {
        if !self.can_go_on(id) || !self.present(target) {
            return;
        }
        let now = self.fig(target).at;
        let to = if now.distance(target_at) < 1e-6 {
            to
        } else {
            let v = self.fig(id).at - now;
            if v.length() < 1e-9 {
                return;
            }
            (now + v * (1.0 / v.length())).snapped()
        };
        if self.charge_path_ok(id, target, to, budget).is_err() {
            return;
        }
        let face = bearing_of(now - to);
        self.stack.push(Task::MeleeAttack {
            attacker: id,
            defender: target,
        });
        self.stack.push(Task::Travel {
            figure: id,
            path: vec![to],
            facing: Some(face),
            charge: true,
        });
    }
}
