//! Close combat (DBAIX.md §6, DBAIX.md §7): turning to face, the tactical factors, the fights
//! and their results, losses and freed captives (DBAIX.md §11.11, DBAIX.md §11.16).

use super::*;

impl Battle {
    /// Take figure `i` out of play with `result`, freeing anyone it guards (DBAIX.md §11.11).
    pub(super) fn lose(&mut self, i: usize, result: FigureResult, events: &mut Vec<Event>) {
        let status = match result {
            FigureResult::SentToCamp => Status::InCamp,
            FigureResult::FledOff => Status::FledOff,
            _ => Status::Removed,
        };
        let id = self.figures[i].id;
        self.figures[i].status = status;
        events.push(Event::Lost { figure: id, result });
        self.free_captives_of(id, events);
    }

    /// Free the captives of `guard` where they stand behind it, or where they were taken
    /// (DBAIX.md §8.1). A captive with no free room at either stays under guard.
    pub(super) fn free_captives_of(&mut self, guard: FigureId, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let Some(g) = self.figure(guard).cloned() else {
            return;
        };
        for i in 0..self.figures.len() {
            if self.figures[i].status != (Status::Captured { guard }) {
                continue;
            }
            let id = self.figures[i].id;
            let gr = g.rect(&cfg);
            let back = gr.pose.front_mid() - gr.pose.forward() * cfg.base_depth;
            let behind = pose_snapped(Pose::new(back.x, back.y, g.pose.facing));
            let own = self.figures[i].pose;
            let spot = [behind, own]
                .into_iter()
                .find(|p| self.free_at(id, *p, &[]));
            if let Some(p) = spot {
                self.figures[i].pose = p;
                self.figures[i].status = Status::OnTable;
                self.figures[i].moves = cfg.moves_per_bound;
                events.push(Event::Freed {
                    figure: id,
                    pose: p,
                });
            }
        }
    }

    /// Tactical factors of figure `i` fighting `opp` (DBAIX.md §6.3).
    pub(super) fn tactical(&self, i: usize, opp: usize) -> Vec<TacticalFactor> {
        let cfg = &self.setup.config;
        let me = &self.figures[i];
        let r = me.rect(cfg);
        let mut flank = 0u8;
        let mut overlap = 0u8;
        let mut support = 0u8;
        for (j, e) in self.figures.iter().enumerate() {
            if j == i || !e.on_table() {
                continue;
            }
            let er = e.rect(cfg);
            if e.side != me.side {
                if front_on_flank_or_rear(&er, &r).is_some() {
                    flank += 1;
                } else if j != opp && overlapping(&r, &er) {
                    overlap += 1;
                }
            } else if me.side == Side::Romans && side_by_side(&r, &er) {
                support += 1;
            }
        }
        let mut v = Vec::new();
        if flank > 0 {
            v.push(TacticalFactor::FlankOrRear { count: flank });
        }
        if overlap > 0 {
            v.push(TacticalFactor::Overlapped { count: overlap });
        }
        if support > 0 {
            v.push(TacticalFactor::RomanSideSupport {
                count: support.min(2),
            });
        }
        if me.side == Side::Gauls && me.class != FigureClass::Obelix && self.potion_active() {
            v.push(TacticalFactor::MagicPotion);
        }
        v
    }

    /// DBAIX.md §6.1: a figure touched on a side or the rear by an enemy's front edge, with no
    /// enemy on its front edge, turns to face that enemy: it swings to stand front to front with
    /// it. Only figures in contacts involving the moving side turn; one with no room to turn
    /// stays as it is (our reading).
    pub(super) fn turn_to_face(&mut self, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let side = self.active_side();
        for i in 0..self.figures.len() {
            let me = self.figures[i].clone();
            if !me.on_table() {
                continue;
            }
            let r = me.rect(&cfg);
            let enemies: Vec<&FigureState> = self
                .figures
                .iter()
                .filter(|e| e.on_table() && e.side != me.side)
                .collect();
            if enemies.iter().any(|e| front_to_front(&r, &e.rect(&cfg))) {
                continue;
            }
            let Some(att) = enemies
                .iter()
                .find(|e| {
                    (e.side == side || me.side == side)
                        && front_on_flank_or_rear(&e.rect(&cfg), &r).is_some()
                })
                .map(|e| (*e).clone())
            else {
                continue;
            };
            let ar = att.rect(&cfg);
            let m = ar.pose.front_mid();
            let pose = pose_snapped(Pose::new(m.x, m.y, att.pose.facing + 180.0));
            if self.free_at(me.id, pose, &[]) {
                self.figures[i].pose = pose;
                events.push(Event::TurnedToFace {
                    figure: me.id,
                    towards: att.id,
                    pose,
                });
            }
        }
    }

    pub(super) fn fight(
        &mut self,
        a: FigureId,
        b: FigureId,
        dice: [DieScore; 2],
        events: &mut Vec<Event>,
    ) -> Result<(), DbaixError> {
        let cfg = self.setup.config.clone();
        let ia = self.index(a)?;
        let ib = self.index(b)?;
        let score = |me: usize, opp: usize, die: DieScore| {
            let tactical = self.tactical(me, opp);
            let cf = combat_factor(self.figures[me].class);
            let total = i32::from(die.get()) + cf + tactical.iter().map(|t| t.value()).sum::<i32>();
            (cf, tactical, total)
        };
        let (cfa, ta, tota) = score(ia, ib, dice[0]);
        let (cfb, tb, totb) = score(ib, ia, dice[1]);
        let (ra, rb) = results(self.figures[ia].class, tota, self.figures[ib].class, totb);
        events.push(Event::Fought {
            a: FighterScore {
                id: a,
                die: dice[0],
                combat_factor: cfa,
                tactical: ta,
                total: tota,
                result: ra,
            },
            b: FighterScore {
                id: b,
                die: dice[1],
                combat_factor: cfb,
                tactical: tb,
                total: totb,
                result: rb,
            },
        });
        self.fought.push(a);
        self.fought.push(b);
        // DBAIX.md §11.11: a guard scoring lower than a Gaul frees its captives.
        for (me, mine, opp, theirs) in [(ia, tota, ib, totb), (ib, totb, ia, tota)] {
            if mine < theirs && self.figures[opp].side == Side::Gauls {
                let id = self.figures[me].id;
                self.free_captives_of(id, events);
            }
        }
        // The beaten figure's result first, then the winner's follow-up.
        let mut order = [(ia, ra, ib), (ib, rb, ia)];
        order.sort_by_key(|(_, r, _)| *r == FigureResult::FollowUp);
        for (i, r, opp) in order {
            let f = self.figures[i].clone();
            match r {
                FigureResult::Stays => {}
                FigureResult::Captured => {
                    let guard = self.figures[opp].id;
                    self.figures[i].status = Status::Captured { guard };
                    events.push(Event::Captured {
                        figure: f.id,
                        guard,
                    });
                    // Its own captives (a Gaul guards nobody, but keep the rule whole).
                    self.free_captives_of(f.id, events);
                }
                FigureResult::Removed | FigureResult::SentToCamp | FigureResult::FledOff => {
                    self.lose(i, r, events);
                }
                FigureResult::FollowUp | FigureResult::Recoils => {
                    let (pose, _) =
                        self.slide(i, f.pose, r == FigureResult::Recoils, cfg.base_depth);
                    if let Some(p) = pose {
                        if p != f.pose {
                            self.figures[i].pose = p;
                            events.push(Event::ResultMoved {
                                figure: f.id,
                                result: r,
                                pose: p,
                            });
                        }
                    }
                }
                FigureResult::Flees => {
                    // DBAIX.md §11.16: turn about, a full move straight away; off at an edge.
                    let turned = pivot(&f.rect(&cfg), f.pose.facing + 180.0);
                    let (pose, leaves) = self.slide(i, turned, false, cfg.move_distance);
                    if leaves {
                        self.lose(i, FigureResult::FledOff, events);
                    } else if let Some(p) = pose {
                        self.figures[i].pose = p;
                        events.push(Event::ResultMoved {
                            figure: f.id,
                            result: r,
                            pose: p,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}
