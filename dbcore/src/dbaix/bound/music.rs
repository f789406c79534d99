//! Cacofonix's music (DBAIX.md §4): the binders, the moves they must make towards him, and the
//! enemies who flee when he plays.

use super::*;

impl Battle {
    pub(super) fn binders(&self) -> Vec<FigureId> {
        let cfg = &self.setup.config;
        let Some(caco) = self
            .find_class(FigureClass::Cacofonix)
            .filter(|c| c.on_table())
        else {
            return Vec::new();
        };
        let cr = caco.rect(cfg);
        let mut gauls: Vec<(f64, FigureId)> = self
            .figures
            .iter()
            .filter(|f| f.side == Side::Gauls && f.on_table() && f.id != caco.id)
            .map(|f| (base_distance(&cr, &f.rect(cfg)), f.id))
            .collect();
        gauls.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        gauls.into_iter().take(3).map(|(_, id)| id).collect()
    }

    /// The gap in inches between a base at `r` and Cacofonix on the table.
    pub(super) fn cacofonix_gap(&self, r: &ElementRect) -> Option<f64> {
        let caco = self
            .find_class(FigureClass::Cacofonix)
            .filter(|c| c.on_table())?;
        Some(base_distance(&caco.rect(&self.setup.config), r))
    }

    /// The longest straight move (in half-inch steps, facing kept) that takes binder `id`
    /// nearer to Cacofonix, or `None` when it need not or cannot move: the music is not
    /// playing in the Gauls' movement, it is not a binder, it touches him already, has used its
    /// moves, is locked in combat, or every such move is blocked (DBAIX.md §4: the three nearest
    /// Gauls must go to bind and gag him). Our reading of "must go": a binder moves towards him
    /// as long as it can get nearer, and the Gauls' movement cannot end before; a binder that is
    /// blocked is released, so the game never waits on a move that does not exist.
    pub fn binder_step(&self, id: FigureId) -> Option<Action> {
        let cfg = &self.setup.config;
        let m = self.music.as_ref()?;
        if self.phase != Phase::Movement || self.active_side() != Side::Gauls {
            return None;
        }
        if !m.binders.contains(&id) {
            return None;
        }
        let f = self.figure(id).filter(|f| f.on_table())?;
        if f.moves >= cfg.moves_per_bound {
            return None;
        }
        let r = f.rect(cfg);
        let gap = self.cacofonix_gap(&r)?;
        if gap <= EPS {
            return None;
        }
        let locked = self
            .figures
            .iter()
            .any(|e| e.on_table() && e.side != f.side && front_to_front(&r, &e.rect(cfg)));
        if locked {
            return None;
        }
        let caco = self.find_class(FigureClass::Cacofonix)?;
        let bearing = bearing_of(caco.rect(cfg).centre() - r.centre());
        let dir = Point::from_bearing(bearing);
        let longest = cfg
            .move_distance
            .min(gap + cfg.base_width.max(cfg.base_depth));
        let steps = (longest * 2.0).floor() as i64;
        (1..=steps).rev().find_map(|k| {
            let d = k as f64 / 2.0;
            let p = r.pose.front_mid() + dir * d;
            let pose = pose_snapped(Pose::new(p.x, p.y, r.pose.facing));
            let nearer = self
                .cacofonix_gap(&self.rect_at(pose))
                .is_some_and(|g| g < gap - EPS);
            (nearer && self.free_at(id, pose, &[])).then_some(Action::Move {
                figures: vec![id],
                bearing,
                distance: d,
                face: None,
            })
        })
    }

    /// Binders who must still move before the Gauls' movement ends (DBAIX.md §4).
    pub fn obliged_binders(&self) -> Vec<FigureId> {
        self.music.as_ref().map_or_else(Vec::new, |m| {
            m.binders
                .iter()
                .copied()
                .filter(|id| self.binder_step(*id).is_some())
                .collect()
        })
    }

    /// Every enemy within 8 in of Cacofonix turns about and flees a full move (DBAIX.md §4).
    pub(super) fn music_flight(&mut self, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let Some(caco) = self
            .find_class(FigureClass::Cacofonix)
            .filter(|c| c.on_table())
            .cloned()
        else {
            return;
        };
        let cr = caco.rect(&cfg);
        for i in 0..self.figures.len() {
            let f = self.figures[i].clone();
            if f.side == Side::Gauls
                || !f.on_table()
                || base_distance(&cr, &f.rect(&cfg)) > 8.0 + EPS
            {
                continue;
            }
            let away = bearing_of(f.rect(&cfg).centre() - cr.centre());
            let turned = pivot(&f.rect(&cfg), away);
            let (pose, leaves) = self.slide(i, turned, false, cfg.move_distance);
            if leaves && f.side == Side::Pirates {
                self.lose(i, FigureResult::FledOff, events);
                events.push(Event::FledFromMusic {
                    figure: f.id,
                    pose: f.pose,
                    off_table: true,
                });
                continue;
            }
            if let Some(p) = pose {
                self.figures[i].pose = p;
                events.push(Event::FledFromMusic {
                    figure: f.id,
                    pose: p,
                    off_table: false,
                });
            }
        }
    }
}
