//! Playing a DBAix action out: the dispatch of each action, the PIP roll that starts a side's
//! moves (DBAIX.md §2), the end of a bound with the music and the potion (DBAIX.md §11.6,
//! DBAIX.md §11.7) and the end of the game (DBAIX.md §10).

use super::*;

impl Battle {
    pub(super) fn step(&self, action: &Action) -> Result<(Battle, Vec<Event>), DbaixError> {
        if let Phase::Finished { .. } = self.phase {
            return Err(DbaixError::Finished);
        }
        let wrong = |name: &str| DbaixError::WrongPhase {
            action: name.into(),
            phase: self.phase,
        };
        let mut n = self.clone();
        let mut events = Vec::new();
        match action {
            Action::RollPips { die } => {
                if self.phase != Phase::AwaitingPips {
                    return Err(wrong("rolling PIPs"));
                }
                n.roll(*die, &mut events);
            }
            Action::Move {
                figures,
                bearing,
                distance,
                face,
            } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a move"));
                }
                n.do_move(figures, *bearing, *distance, *face, &mut events)?;
            }
            Action::Reinforce {
                figures,
                x,
                distance,
            } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("bringing back reinforcements"));
                }
                n.reinforce(figures, *x, *distance, &mut events)?;
            }
            Action::EndMovement => {
                if self.phase != Phase::Movement {
                    return Err(wrong("ending the movement"));
                }
                let obliged = self.obliged_binders();
                if !obliged.is_empty() {
                    return Err(DbaixError::BindersMustMove { binders: obliged });
                }
                n.turn_to_face(&mut events);
                if n.pending_combats().is_empty() {
                    n.end_bound(&mut events);
                } else {
                    n.phase = Phase::CloseCombat;
                }
            }
            Action::Fight { a, b, dice } => {
                if self.phase != Phase::CloseCombat {
                    return Err(wrong("a close combat"));
                }
                let pending = self.pending_combats();
                if !pending.contains(&(*a, *b)) && !pending.contains(&(*b, *a)) {
                    return Err(DbaixError::NotInCombat { a: *a, b: *b });
                }
                n.fight(*a, *b, *dice, &mut events)?;
                if n.pending_combats().is_empty() {
                    n.end_bound(&mut events);
                }
            }
        }
        Ok((n, events))
    }

    pub(super) fn roll(&mut self, die: DieScore, events: &mut Vec<Event>) {
        let side = self.active_side();
        self.pips = die.get();
        self.phase = Phase::Movement;
        events.push(Event::PipsRolled { side, die });
        if side != Side::Gauls {
            return;
        }
        self.gaul_bounds_begun += 1;
        // DBAIX.md §11.7: every Gaul drinks at the start of the Gauls' first bound.
        if self.gaul_bounds_begun == 1 {
            let until = self.gaul_bounds_done + 5;
            self.potion_until = Some(until);
            events.push(Event::PotionDrunk {
                until_gaul_bounds: until,
            });
        }
        let continuing = self.music.is_some();
        if die.get() == 6 {
            self.gaul_sixes += 1;
        }
        let fires = self.gaul_sixes >= 3
            && (self.setup.config.music_repeats || self.music_played == 0)
            && self
                .find_class(FigureClass::Cacofonix)
                .is_some_and(|c| c.on_table());
        if fires {
            self.gaul_sixes = 0;
            self.music_played += 1;
        }
        if fires || continuing {
            let binders = self.binders();
            events.push(Event::MusicPlayed {
                binders: binders.clone(),
                again: continuing && !fires,
            });
            self.music = Some(Music { binders });
            self.music_flight(events);
        }
    }

    pub(super) fn end_bound(&mut self, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let side = self.active_side();
        if side == Side::Gauls {
            self.gaul_bounds_done += 1;
            // DBAIX.md §11.6: silenced when all binders (or all Gauls left) touch him.
            if let Some(m) = &self.music {
                let caco = self
                    .find_class(FigureClass::Cacofonix)
                    .filter(|c| c.on_table());
                let silenced = match caco {
                    None => true,
                    Some(c) => {
                        let cr = c.rect(&cfg);
                        let binders: Vec<&FigureState> =
                            m.binders.iter().filter_map(|id| self.figure(*id)).collect();
                        !binders.is_empty()
                            && binders
                                .iter()
                                .all(|b| b.on_table() && base_distance(&cr, &b.rect(&cfg)) < EPS)
                    }
                };
                if silenced {
                    self.music = None;
                    events.push(Event::Silenced);
                }
            }
            if self.potion_until == Some(self.gaul_bounds_done) {
                events.push(Event::PotionWornOff);
            }
            // DBAIX.md §11.7: a new brew when the village stands in one group with Getafix.
            if let Some(g) = self
                .find_class(FigureClass::Getafix)
                .filter(|g| g.on_table())
            {
                let mut ids = vec![g.id];
                let mut rects = vec![g.rect(&cfg)];
                for f in &self.figures {
                    if f.side == Side::Gauls
                        && f.on_table()
                        && f.id != g.id
                        && !matches!(f.class, FigureClass::Obelix | FigureClass::Asterix)
                    {
                        ids.push(f.id);
                        rects.push(f.rect(&cfg));
                    }
                }
                if ids.len() > 1 && self.connected(&ids, &rects) {
                    let until = self.gaul_bounds_done + 5;
                    self.potion_until = Some(until);
                    events.push(Event::PotionBrewed {
                        until_gaul_bounds: until,
                    });
                }
            }
        }
        events.push(Event::BoundEnded {
            side,
            bound: self.bound,
            unused_pips: self.pips,
        });
        self.pips = 0;
        self.fought.clear();
        for f in &mut self.figures {
            f.moves = 0;
        }
        let able: Vec<Side> = Side::ALL
            .into_iter()
            .filter(|s| self.can_fight(*s))
            .collect();
        let counts = self.on_table_counts();
        if able.len() <= 1 || self.bound >= cfg.max_rounds * 3 {
            let best = *counts.iter().max().unwrap_or(&0);
            let leaders: Vec<Side> = Side::ALL
                .into_iter()
                .filter(|s| counts[s.index()] == best)
                .collect();
            let winner = if able.len() == 1 {
                Some(able[0])
            } else if leaders.len() == 1 && best > 0 {
                Some(leaders[0])
            } else {
                None
            };
            self.phase = Phase::Finished { winner };
            events.push(Event::GameOver {
                winner,
                on_table: counts,
            });
            return;
        }
        // Next side in the rotation that can still fight.
        loop {
            self.turn = (self.turn + 1) % 3;
            if self.can_fight(self.active_side()) {
                break;
            }
        }
        self.bound += 1;
        self.phase = Phase::AwaitingPips;
        events.push(Event::BoundStarted {
            side: self.active_side(),
            bound: self.bound,
        });
    }

    /// Whether a side can still fight: figures on the table, or Romans in camp with an officer.
    pub(super) fn can_fight(&self, side: Side) -> bool {
        self.figures.iter().any(|f| f.side == side && f.on_table())
            || (side == Side::Romans
                && self
                    .figures
                    .iter()
                    .any(|f| f.status == Status::InCamp && f.class.is_officer()))
    }

    pub(super) fn on_table_counts(&self) -> [u32; 3] {
        let mut c = [0u32; 3];
        for f in self.figures.iter().filter(|f| f.on_table()) {
            c[f.side.index()] += 1;
        }
        c
    }
}
