//! Moves (DBAIX.md §3, DBAIX.md §4): a figure's or group's move with its cost, and
//! reinforcements entering the table (DBAIX.md §8.2, DBAIX.md §11.13).

use super::*;

impl Battle {
    pub(super) fn do_move(
        &mut self,
        ids: &[FigureId],
        bearing: f64,
        distance: f64,
        face: Option<f64>,
        events: &mut Vec<Event>,
    ) -> Result<(), DbaixError> {
        let cfg = self.setup.config.clone();
        let side = self.active_side();
        if ids.is_empty() || (1..ids.len()).any(|k| ids[..k].contains(&ids[k])) {
            return Err(DbaixError::BadFigureList);
        }
        if !bearing.is_finite() || !distance.is_finite() || face.is_some_and(|f| !f.is_finite()) {
            return Err(DbaixError::TooFar {
                distance,
                limit: cfg.move_distance,
            });
        }
        if !(0.0..=cfg.move_distance + EPS).contains(&distance) {
            return Err(DbaixError::TooFar {
                distance,
                limit: cfg.move_distance,
            });
        }
        let mut idx = Vec::new();
        for id in ids {
            let i = self.index(*id)?;
            let f = &self.figures[i];
            if f.side != side {
                return Err(DbaixError::NotYourFigure { id: *id });
            }
            if !f.on_table() {
                return Err(DbaixError::NotOnTable { id: *id });
            }
            if f.moves >= cfg.moves_per_bound {
                return Err(DbaixError::TooManyMoves { id: *id });
            }
            let r = f.rect(&cfg);
            if self
                .figures
                .iter()
                .any(|e| e.on_table() && e.side != f.side && front_to_front(&r, &e.rect(&cfg)))
            {
                return Err(DbaixError::InCombat { id: *id });
            }
            idx.push(i);
        }
        // DBAIX.md §4: while the music plays only the binders move, and for nothing.
        let binding = match (&self.music, side) {
            (Some(m), Side::Gauls) => {
                if ids.iter().any(|id| !m.binders.contains(id)) {
                    return Err(DbaixError::HandsOverEars {
                        binders: m.binders.clone(),
                    });
                }
                true
            }
            _ => false,
        };
        let before: Vec<ElementRect> = idx.iter().map(|i| self.figures[*i].rect(&cfg)).collect();
        if ids.len() > 1 && !self.connected(ids, &before) {
            return Err(DbaixError::NotAGroup);
        }
        let shift = Point::from_bearing(bearing) * distance;
        let poses: Vec<Pose> = before
            .iter()
            .map(|r| {
                let p = r.pose.front_mid() + shift;
                let moved = ElementRect::new(Pose::new(p.x, p.y, r.pose.facing), r.width, r.depth);
                match face {
                    Some(f) => pivot(&moved, snap_bearing(f)),
                    None => pose_snapped(moved.pose),
                }
            })
            .collect();
        let after: Vec<ElementRect> = poses.iter().map(|p| self.rect_at(*p)).collect();
        for (k, i) in idx.iter().enumerate() {
            let id = self.figures[*i].id;
            if !self.free_at(id, poses[k], ids)
                || after
                    .iter()
                    .enumerate()
                    .any(|(m, r)| m != k && overlaps(r, &after[k]))
            {
                return Err(DbaixError::Blocked { id });
            }
        }
        // DBAIX.md §4: a binder that can go nearer to Cacofonix must.
        if binding {
            for (k, i) in idx.iter().enumerate() {
                let id = self.figures[*i].id;
                if self.binder_step(id).is_some() {
                    let nearer = self
                        .cacofonix_gap(&after[k])
                        .zip(self.cacofonix_gap(&before[k]))
                        .is_some_and(|(now, was)| now < was - EPS || now <= EPS);
                    if !nearer {
                        return Err(DbaixError::BinderMustCloseIn { id });
                    }
                }
            }
        }
        // DBAIX.md §3.1: the cost.
        let group = ids.len() > 1;
        let movers: Vec<&FigureState> = idx.iter().map(|i| &self.figures[*i]).collect();
        let straight = movers.iter().all(|f| {
            angle_diff(f.pose.facing, bearing) < 0.01
                && face.is_none_or(|x| angle_diff(x, f.pose.facing) < 0.01)
        });
        let base = match (side, group) {
            (Side::Romans, true) => 1,
            (Side::Gauls, true) if straight => cfg.gaul_straight_group_cost,
            _ => 2,
        };
        let mut add_ons = Vec::new();
        if side == Side::Romans && group && !movers.iter().any(|f| f.class.is_officer()) {
            add_ons.push(PipAddOn::GroupWithoutOfficer);
        }
        for a in [
            PipAddOn::FarFromDubiusStatus,
            PipAddOn::FarFromVitalstatistix,
            PipAddOn::FarFromCaptain,
        ] {
            if movers.iter().any(|f| self.far_add_on(f) == Some(a)) {
                add_ons.push(a);
            }
        }
        let far_from_husband = movers.iter().any(|f| {
            f.husband.is_some_and(|h| {
                self.centre_of(h)
                    .is_some_and(|p| p.distance(f.rect(&cfg).centre()) > 4.0 + EPS)
            })
        });
        if far_from_husband {
            add_ons.push(PipAddOn::FarFromHusband);
        }
        let second = movers.iter().any(|f| f.moves >= 1);
        let road = side == Side::Romans
            && before
                .iter()
                .zip(&after)
                .all(|(b, a)| self.on_road(b.centre()) && self.on_road(a.centre()));
        if second && !road {
            add_ons.push(PipAddOn::SecondMove);
        }
        let was = self.flank_contacts(&idx, &before);
        let now = self.flank_contacts(&idx, &after);
        let new_flank: Vec<usize> = now.into_iter().filter(|i| !was.contains(i)).collect();
        if new_flank
            .iter()
            .any(|i| self.figures[*i].class != FigureClass::GallicWoman)
        {
            add_ons.push(PipAddOn::FlankContact);
        }
        let total = if binding {
            0
        } else {
            base + add_ons.iter().map(|a| a.value()).sum::<u8>()
        };
        let cost = PipCost {
            base: if binding { 0 } else { base },
            add_ons: if binding { Vec::new() } else { add_ons },
            total,
        };
        if total > self.pips {
            return Err(DbaixError::NotEnoughPips {
                cost: total,
                left: self.pips,
            });
        }
        self.pips -= total;
        for (k, i) in idx.iter().enumerate() {
            self.figures[*i].pose = poses[k];
            self.figures[*i].moves += 1;
        }
        events.push(Event::Moved {
            figures: ids.to_vec(),
            poses,
            cost,
            pips_left: self.pips,
        });
        Ok(())
    }

    pub(super) fn reinforce(
        &mut self,
        ids: &[FigureId],
        x: f64,
        distance: f64,
        events: &mut Vec<Event>,
    ) -> Result<(), DbaixError> {
        let cfg = self.setup.config.clone();
        if self.active_side() != Side::Romans {
            return Err(DbaixError::NoReinforcements);
        }
        if ids.is_empty() || (1..ids.len()).any(|k| ids[..k].contains(&ids[k])) {
            return Err(DbaixError::BadFigureList);
        }
        let mut idx = Vec::new();
        for id in ids {
            let i = self.index(*id)?;
            if self.figures[i].status != Status::InCamp {
                return Err(DbaixError::NoReinforcements);
            }
            idx.push(i);
        }
        if !idx.iter().any(|i| self.figures[*i].class.is_officer()) {
            return Err(DbaixError::NoReinforcements);
        }
        if !x.is_finite()
            || !distance.is_finite()
            || distance < cfg.base_depth - EPS
            || distance > cfg.move_distance + EPS
        {
            return Err(DbaixError::TooFar {
                distance,
                limit: cfg.move_distance,
            });
        }
        let poses: Vec<Pose> = (0..ids.len())
            .map(|k| {
                pose_snapped(Pose::new(
                    x + (k as f64 + 0.5) * cfg.base_width,
                    distance,
                    0.0,
                ))
            })
            .collect();
        for (k, id) in ids.iter().enumerate() {
            if !self.free_at(*id, poses[k], &[]) {
                return Err(DbaixError::Blocked { id: *id });
            }
        }
        let after: Vec<ElementRect> = poses.iter().map(|p| self.rect_at(*p)).collect();
        let mut add_ons = Vec::new();
        // DBAIX.md §11.13: measured from where they enter; a Dubius Status in camp is far.
        let dubius_far = |c: Point| match self.find_class(FigureClass::DubiusStatus) {
            Some(d) if ids.contains(&d.id) => false,
            Some(d) if d.on_table() => d.rect(&cfg).centre().distance(c) > 12.0 + EPS,
            _ => true,
        };
        if idx.iter().zip(&after).any(|(i, r)| {
            self.figures[*i].class != FigureClass::CaligulaMinus
                && self.figures[*i].class != FigureClass::DubiusStatus
                && dubius_far(r.centre())
        }) {
            add_ons.push(PipAddOn::FarFromDubiusStatus);
        }
        if !self.flank_contacts(&idx, &after).is_empty() {
            add_ons.push(PipAddOn::FlankContact);
        }
        add_ons.push(PipAddOn::Reinforcements);
        let base = if ids.len() > 1 { 1 } else { 2 };
        let total = base + add_ons.iter().map(|a| a.value()).sum::<u8>();
        if total > self.pips {
            return Err(DbaixError::NotEnoughPips {
                cost: total,
                left: self.pips,
            });
        }
        self.pips -= total;
        for (k, i) in idx.iter().enumerate() {
            self.figures[*i].pose = poses[k];
            self.figures[*i].status = Status::OnTable;
            self.figures[*i].moves = 1;
        }
        events.push(Event::Reinforced {
            figures: ids.to_vec(),
            poses,
            cost: PipCost {
                base,
                add_ons,
                total,
            },
            pips_left: self.pips,
        });
        Ok(())
    }
}
