//! Where DBAix figures stand and may go: on the table and free of the others, slides, groups of
//! contacts, roads and the command distance (DBAIX.md §3.1, DBAIX.md §11.13).

use super::*;

impl Battle {
    pub(super) fn index(&self, id: FigureId) -> Result<usize, DbaixError> {
        self.figures
            .iter()
            .position(|f| f.id == id)
            .ok_or(DbaixError::UnknownFigure { id })
    }

    pub(super) fn rect_at(&self, pose: Pose) -> ElementRect {
        ElementRect::new(
            pose,
            self.setup.config.base_width,
            self.setup.config.base_depth,
        )
    }

    pub(super) fn on_board(&self, r: &ElementRect) -> bool {
        let cfg = &self.setup.config;
        r.corners().iter().all(|c| {
            c.x >= -EPS
                && c.y >= -EPS
                && c.x <= cfg.table_width + EPS
                && c.y <= cfg.table_depth + EPS
        })
    }

    /// Whether figure `id` could stand at `pose`: on the table and on no other figure on the
    /// table (those in `ignore` aside).
    pub(super) fn free_at(&self, id: FigureId, pose: Pose, ignore: &[FigureId]) -> bool {
        let r = self.rect_at(pose);
        self.on_board(&r)
            && self.figures.iter().all(|g| {
                g.id == id
                    || !g.on_table()
                    || ignore.contains(&g.id)
                    || !overlaps(&r, &g.rect(&self.setup.config))
            })
    }

    /// Slide figure `i` from `start` along its facing (or backwards) up to `dist` inches,
    /// stopping short where blocked (DBAIX.md §11.15). Returns the pose reached and whether
    /// the full distance would have left the table.
    pub(super) fn slide(
        &self,
        i: usize,
        start: Pose,
        backwards: bool,
        dist: f64,
    ) -> (Option<Pose>, bool) {
        let f = &self.figures[i];
        let dir = if backwards {
            -start.forward()
        } else {
            start.forward()
        };
        let at = |t: f64| {
            let p = start.front_mid() + dir * t;
            pose_snapped(Pose::new(p.x, p.y, start.facing))
        };
        let leaves = !self.on_board(&self.rect_at(at(dist)));
        let steps = (dist * 64.0).ceil() as i64;
        for k in (0..=steps).rev() {
            let t = (k as f64 / 64.0).min(dist);
            let p = at(t);
            if self.free_at(f.id, p, &[]) {
                return (Some(p), leaves);
            }
        }
        (None, leaves)
    }

    pub(super) fn centre_of(&self, id: FigureId) -> Option<Point> {
        let f = self.figure(id)?;
        let cfg = &self.setup.config;
        match f.status {
            Status::Captured { guard } => self.figure(guard).map(|g| g.rect(cfg).centre()),
            _ => Some(f.rect(cfg).centre()),
        }
    }

    pub(super) fn find_class(&self, class: FigureClass) -> Option<&FigureState> {
        self.figures.iter().find(|f| f.class == class)
    }

    /// Whether figure `f` is beyond its command distance (DBAIX.md §3.1, DBAIX.md §11.13).
    pub(super) fn far_add_on(&self, f: &FigureState) -> Option<PipAddOn> {
        use FigureClass::*;
        let cfg = &self.setup.config;
        let c = f.rect(cfg).centre();
        let far = |commander: Option<&FigureState>, limit: f64, absent_far: bool| match commander {
            Some(k) if k.id == f.id => false,
            Some(k) => match (k.status, self.centre_of(k.id)) {
                (Status::InCamp | Status::FledOff, _) => absent_far,
                (_, Some(p)) => p.distance(c) > limit + EPS,
                (_, None) => absent_far,
            },
            None => absent_far,
        };
        match f.class {
            CaligulaMinus | Asterix | Obelix | Getafix | Cacofonix => None,
            DubiusStatus | Vitalstatistix | Captain => None,
            Officer | Legionary => far(self.find_class(DubiusStatus), 12.0, true)
                .then_some(PipAddOn::FarFromDubiusStatus),
            Pegleg | Pirate => {
                far(self.find_class(Captain), 4.0, true).then_some(PipAddOn::FarFromCaptain)
            }
            Geriatrix | Gaul | GallicWoman => far(self.find_class(Vitalstatistix), 8.0, false)
                .then_some(PipAddOn::FarFromVitalstatistix),
        }
    }

    pub(super) fn on_road(&self, c: Point) -> bool {
        let r = &self.setup.road;
        r.windows(2).any(|w| {
            Segment::new(w[0], w[1]).distance_to_point(c) <= self.setup.road_width * 0.5 + EPS
        })
    }

    /// Whether every figure in `ids` is in one group of edge-and-corner contacts.
    pub(super) fn connected(&self, ids: &[FigureId], rects: &[ElementRect]) -> bool {
        let mut reached = vec![false; ids.len()];
        reached[0] = true;
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            for j in 0..ids.len() {
                if !reached[j] && grouped(&rects[i], &rects[j]) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        reached.iter().all(|r| *r)
    }

    /// Whether any figure in `idx` (at `rects`) has its front edge on an enemy's side or rear.
    pub(super) fn flank_contacts(&self, idx: &[usize], rects: &[ElementRect]) -> Vec<usize> {
        let cfg = &self.setup.config;
        idx.iter()
            .zip(rects)
            .filter(|(i, r)| {
                let me = &self.figures[**i];
                self.figures.iter().any(|e| {
                    e.on_table()
                        && e.side != me.side
                        && front_on_flank_or_rear(r, &e.rect(cfg)).is_some()
                })
            })
            .map(|(i, _)| *i)
            .collect()
    }
}
