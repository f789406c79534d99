//! A small table for the movement tests: elements made directly as `ElementState`s.
#![allow(dead_code)]

use dbcore::battle::movement::{plan_move, HeldStronghold};
use dbcore::battle::{
    ElementId, ElementSetup, ElementState, MoveContext, MoveError, MoveOrder, MovePlan,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{
    AreaFeature, AreaKind, River, RiverState, Road, RoadSurface, TerrainFeature,
};
use dbcore::{ElementKind, RulesConfig};

pub const US: usize = 0;
pub const THEM: usize = 1;

pub struct Table {
    pub bf: Battlefield,
    pub cfg: RulesConfig,
    pub els: Vec<ElementState>,
    pub river: Option<RiverState>,
    pub first_bound: bool,
    pub plough_rough: bool,
    pub strongholds: Vec<HeldStronghold>,
}

pub fn kind(code: &str) -> ElementKind {
    code.parse().unwrap()
}

impl Table {
    /// An empty 15 BW table; army 0 is moving.
    pub fn new() -> Table {
        Table {
            bf: Battlefield::new(Board::default()),
            cfg: RulesConfig::default(),
            els: Vec::new(),
            river: None,
            first_bound: false,
            plough_rough: false,
            strongholds: Vec::new(),
        }
    }

    /// Add an element whose front-edge midpoint is at (x, y), facing `facing`.
    pub fn add(&mut self, army: usize, id: u32, code: &str, x: f64, y: f64, facing: f64) -> usize {
        let setup = ElementSetup {
            id: ElementId(id),
            kind: kind(code),
            pose: Pose::new(x, y, facing),
            general: false,
            contingent: None,
            dismounts_as: None,
            mobile_tower: false,
        };
        self.els.push(ElementState::from_setup(army, &setup));
        self.els.len() - 1
    }

    pub fn el(&mut self, id: u32) -> &mut ElementState {
        self.els.iter_mut().find(|e| e.id == ElementId(id)).unwrap()
    }

    pub fn area(&mut self, k: AreaKind, lo: (f64, f64), hi: (f64, f64)) {
        self.bf
            .features
            .push(TerrainFeature::Area(AreaFeature::rectangle(
                k,
                Point::new(lo.0, lo.1),
                Point::new(hi.0, hi.1),
            )));
    }

    pub fn road(&mut self, pts: &[(f64, f64)]) {
        self.bf.features.push(TerrainFeature::Road(Road {
            path: pts.iter().map(|p| Point::new(p.0, p.1)).collect(),
            surface: RoadSurface::Track,
            width: 0.5,
        }));
    }

    pub fn river(&mut self, pts: &[(f64, f64)], width: f64) {
        self.bf.features.push(TerrainFeature::River(River {
            course: pts.iter().map(|p| Point::new(p.0, p.1)).collect(),
            width,
            state: None,
        }));
    }

    pub fn ctx(&self) -> MoveContext<'_> {
        MoveContext {
            battlefield: &self.bf,
            config: &self.cfg,
            elements: &self.els,
            army: US,
            river: self.river,
            plough_rough: self.plough_rough,
            first_bound_of_army: self.first_bound,
            strongholds: &self.strongholds,
            close_combat: None,
            refusals: Default::default(),
        }
    }

    pub fn plan(&self, order: &MoveOrder) -> Result<MovePlan, MoveError> {
        plan_move(&self.ctx(), order)
    }

    /// A single-element move through the given poses.
    pub fn go(&self, id: u32, path: &[(f64, f64, f64)]) -> Result<MovePlan, MoveError> {
        self.plan(&MoveOrder::Element {
            id: ElementId(id),
            path: path.iter().map(|p| Pose::new(p.0, p.1, p.2)).collect(),
        })
    }

    pub fn depth(&self, code: &str) -> f64 {
        self.cfg.depth(kind(code))
    }
}

pub fn ids(v: &[u32]) -> Vec<ElementId> {
    v.iter().map(|&i| ElementId(i)).collect()
}

/// The rule a refusal names.
pub fn rule(r: Result<MovePlan, MoveError>) -> String {
    match r {
        Ok(p) => panic!("expected a refusal, got {p:?}"),
        Err(e) => e.rule(),
    }
}

pub fn end_of(p: &MovePlan, id: u32) -> Pose {
    p.moves.iter().find(|m| m.id == ElementId(id)).unwrap().to
}

pub fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-3
}
