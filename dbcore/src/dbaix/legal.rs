//! Concrete legal actions of a DBAix game ([`Battle::legal_actions`]): a finite list, each
//! accepted by [`Battle::check`] as it stands. Moves are continuous, so the list is a basis:
//!
//! * the PIP roll, with the die given (DBAIX.md §2);
//! * in the movement phase: the compulsory step of each figure the music binds (DBAIX.md §4);
//!   reinforcements from the Roman camp entering at five places along the south edge
//!   (DBAIX.md §8.2); for each figure of the moving side on the table, the charge into the front of
//!   the nearest enemy when it is within a move, and the farthest move the referee accepts
//!   straight ahead, to its left, its right and back (keeping its facing) and towards the
//!   nearest enemy (ending facing it), up to a move of 4 inches (DBAIX.md §3); ending the moves;
//! * in the close combat phase: each combat still to fight, with the two dice given (DBAIX.md §6).

use crate::dice::DieScore;
use crate::geometry::{snap, snap_bearing, Point};

use super::{Action, Battle, FigureId, Phase, Side, Status};

/// Moves shorter than this, inches, are not listed.
const SHORTEST: f64 = 0.1;

/// How finely the farthest move is found, inches.
const RESOLUTION: f64 = 0.05;

/// Where reinforcements enter, inches from the west edge.
const ENTRIES: [f64; 5] = [2.0, 8.0, 14.0, 20.0, 28.0];

fn bearing_of(v: Point) -> f64 {
    snap_bearing(v.x.atan2(v.y).to_degrees())
}

impl Battle {
    /// The concrete legal actions now (see the module documentation); `dice` supplies the scores
    /// of the PIP roll (the first) and of a combat (the first two).
    pub fn legal_actions(&self, dice: &[DieScore]) -> Vec<Action> {
        let ok = |a: &Action| self.check(a).is_ok();
        let mut out: Vec<Action> = Vec::new();
        match self.phase() {
            Phase::Finished { .. } => {}
            Phase::AwaitingPips => {
                if let Some(&die) = dice.first() {
                    out.push(Action::RollPips { die });
                }
            }
            Phase::CloseCombat => {
                if let [d0, d1, ..] = dice {
                    for (a, b) in self.pending_combats() {
                        out.push(Action::Fight {
                            a,
                            b,
                            dice: [*d0, *d1],
                        });
                    }
                }
            }
            Phase::Movement => {
                for id in self.obliged_binders() {
                    out.extend(self.binder_step(id));
                }
                if self.active_side() == Side::Romans {
                    let camp: Vec<FigureId> = self
                        .figures()
                        .iter()
                        .filter(|f| f.status == Status::InCamp)
                        .map(|f| f.id)
                        .take(4)
                        .collect();
                    if !camp.is_empty() {
                        for x in ENTRIES {
                            out.push(Action::Reinforce {
                                figures: camp.clone(),
                                x,
                                distance: self.setup().config.base_depth,
                            });
                        }
                    }
                }
                let side = self.active_side();
                for f in self
                    .figures()
                    .iter()
                    .filter(|f| f.side == side && f.on_table())
                {
                    self.figure_moves(f.id, &mut out);
                }
                out.push(Action::EndMovement);
            }
        }
        out.retain(ok);
        let mut unique: Vec<Action> = Vec::with_capacity(out.len());
        for a in out {
            if !unique.contains(&a) {
                unique.push(a);
            }
        }
        unique
    }

    /// The listed moves of one figure (not yet checked, but each bisected against the check).
    fn figure_moves(&self, id: FigureId, out: &mut Vec<Action>) {
        let cfg = &self.setup().config;
        let Some(me) = self.figure(id) else {
            return;
        };
        let centre = me.rect(cfg).centre();
        let nearest = self
            .figures()
            .iter()
            .filter(|e| e.side != me.side && e.on_table())
            .map(|e| (e.rect(cfg).centre().distance(centre), e))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        // The charge: centre to where it stands against the enemy's front, facing it.
        if let Some((_, enemy)) = nearest {
            let target = enemy.pose.front_mid() + enemy.pose.forward() * (cfg.base_depth * 0.5);
            let v = target - centre;
            if v.length() > 1e-6 && v.length() <= cfg.move_distance {
                out.push(Action::Move {
                    figures: vec![id],
                    bearing: bearing_of(v),
                    distance: snap(v.length()),
                    face: Some(snap_bearing(enemy.pose.facing + 180.0)),
                });
            }
        }
        let mut ways: Vec<(f64, Option<f64>)> = [0.0, 90.0, 180.0, 270.0]
            .iter()
            .map(|d| (snap_bearing(me.pose.facing + d), None))
            .collect();
        if let Some((_, enemy)) = nearest {
            let v = enemy.rect(cfg).centre() - centre;
            if v.length() > 1e-6 {
                let b = bearing_of(v);
                ways.push((b, Some(b)));
            }
        }
        for (bearing, face) in ways {
            let attempt = |d: f64| {
                let a = Action::Move {
                    figures: vec![id],
                    bearing,
                    distance: snap(d),
                    face,
                };
                self.check(&a).is_ok().then_some(a)
            };
            let reach = cfg.move_distance;
            let best = match attempt(reach) {
                Some(a) => Some((reach, a)),
                None => {
                    let (mut lo, mut hi, mut best) = (0.0, reach, None);
                    while hi - lo > RESOLUTION {
                        let mid = 0.5 * (lo + hi);
                        match attempt(mid) {
                            Some(a) => {
                                lo = mid;
                                best = Some((mid, a));
                            }
                            None => hi = mid,
                        }
                    }
                    best
                }
            };
            if let Some((d, a)) = best {
                if d >= SHORTEST {
                    out.push(a);
                }
            }
        }
    }
}
