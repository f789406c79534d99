//! What the side to move may do now (DBA3.md §6–§10): the dice awaited, the elements that may
//! still make a tactical move and what a move costs, the shots with their eligible targets, the
//! close combats still to fight in their order, and whether the phase may be ended.
//!
//! Continuous moves are not enumerated: a [`LegalMove`] says what bounds the move (its reach in
//! each going, whether only a road move is left), and [`Battle::check`] refereeing the exact path
//! a player asks for. [`Battle::legal`] plans no move and clones nothing, so a table tool may ask
//! it after every action.
//!
//! Readings where the digest is silent:
//! * An element's **cost** is that of an ordinary move off the road (§6.3 base PIP plus its
//!   extras). A first full move wholly along a road may be cheaper (0 PIPs), and Scythed Chariots
//!   moving into contact may be spared the unwieldy PIP (§17 config); [`Battle::check`] gives the
//!   exact cost of a given move.
//! * An element that has moved already is listed when some further move may still be legal:
//!   Light Horse and mounted infantry for their 2nd and 3rd moves, Psiloi for their 2nd (§7.5),
//!   and any element along a road when the battlefield has one ([`LegalMove::road_only`]). The
//!   §7.5 going and "within 1 BW of enemy" conditions depend on the path and are left to
//!   [`Battle::check`].
//! * Passages through a City gate to gate (§4.2, §17.10) are listed per element standing at a
//!   gate ([`LegalMove::through_cities`]): they are discrete, so they are planned.

use serde::{Deserialize, Serialize};

use crate::terrain::TerrainFeature;
use crate::troops::TroopType;

use super::bound::{Battle, DiceRequest, Phase, PipCost};
use super::engagement::CloseCombatPair;
use super::movement::{in_close_combat, MovePlan};
use super::setup::ElementId;

/// Everything the players may do now. Built by [`Battle::legal`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct Legal {
    /// Where the battle stands.
    pub phase: Phase,
    /// The moving army.
    pub army: usize,
    /// Bounds begun so far.
    pub bound: u32,
    /// PIPs left this bound.
    pub pips: u8,
    /// The dice the battle waits for (PIPs, or the dice of a shot or combat the moving army picks).
    pub dice: Option<DiceRequest>,
    /// The river may be diced now (§3.5): in the movement phase, when there is a river whose state
    /// is not yet known. A move that would cross it off a road is refused until it is.
    pub may_dice_river: bool,
    /// Elements of the moving army that may still make a tactical move, in battle order (§7).
    pub moves: Vec<LegalMove>,
    /// Cities whose denizens may sally now ([`super::Action::Sally`], §4.2, §17.30); whether a
    /// given spot outside a gate is free, [`Battle::check`] says. Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sally_cities: Vec<usize>,
    /// The moving army's elements held back for a littoral landing, to be landed together this
    /// bound with [`super::Action::Land`] (§5.5). Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub landing: Vec<ElementId>,
    /// [`super::Action::EndMovement`] is legal: the movement phase is on.
    pub may_end_movement: bool,
    /// Big Battle and Giant: the moving army's demoralised commands have still to flee this
    /// bound (§14.5). Until they do ([`super::Action::Flee`]) no tactical move is listed or
    /// accepted; their elements may first be held ([`super::Action::Hold`]). Omitted from JSON
    /// when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flight_due: bool,
    /// Shots still to be made, by shooter, in battle order (§9).
    pub shots: Vec<LegalShot>,
    /// Close combats still to fight this bound, in the order [`Battle::awaiting`] gives (§10.2).
    pub combats: Vec<CloseCombatPair>,
}

/// One element that may still make a tactical move (§7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct LegalMove {
    /// The element.
    pub id: ElementId,
    /// Which move of this bound it would be (1 for its first, §7.5).
    pub move_number: u8,
    /// What an ordinary move off the road costs it (§6.3).
    pub cost: PipCost,
    /// The PIPs left pay for that cost.
    pub affordable: bool,
    /// The furthest it may move in good going, BW (§7.3).
    pub reach_good: f64,
    /// The furthest it may move when any part of the move is in rough or bad going, BW (§7.3).
    pub reach_rough: f64,
    /// It has moved already and may move again only along a road (§7.5).
    pub road_only: bool,
    /// It may dismount instead of moving (§7.9).
    pub may_dismount: bool,
    /// The Cities (battlefield feature indices) it may pass through now, alone, from the gate it
    /// stands at to the other ([`super::MoveOrder::ThroughCity`], §4.2, §17.10). A column led by
    /// it may also pass; [`Battle::check`] says. Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub through_cities: Vec<usize>,
}

/// One shooter that may still shoot, with the targets it may choose (§9.1, §9.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct LegalShot {
    /// The element that may shoot.
    pub shooter: ElementId,
    /// The targets of the first priority present; a City's denizens under their reserved id.
    pub targets: Vec<ElementId>,
}

impl Battle {
    /// What the players may do now. Cheap: no move is planned and the battle is not cloned.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, ElementId, Phase};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let legal = battle.legal();
    /// assert_eq!(legal.phase, Phase::AwaitingPips);
    /// assert!(legal.moves.is_empty() && legal.dice.is_some());
    ///
    /// battle.apply(Action::RollPips { die: DieScore::new(1).unwrap() }).unwrap();
    /// let legal = battle.legal();
    /// assert!(legal.may_end_movement);
    /// // Every Roman element may move; Blades reach 2 BW in good going (§7.3) for 1 PIP.
    /// assert_eq!(legal.moves.len(), 12);
    /// let blades = legal.moves.iter().find(|m| m.id == ElementId(5)).unwrap();
    /// assert_eq!((blades.reach_good, blades.cost.total, blades.affordable), (2.0, 1, true));
    /// ```
    pub fn legal(&self) -> Legal {
        let movement = self.phase == Phase::Movement;
        let flight_due = movement && self.flight_due();
        let has_river = self
            .setup
            .battlefield
            .features
            .iter()
            .any(|f| matches!(f, TerrainFeature::River(_)));
        let shots = if self.phase == Phase::Shooting {
            self.pending_shooters()
                .into_iter()
                .map(|shooter| LegalShot {
                    shooter,
                    targets: self.shot_targets(shooter),
                })
                .collect()
        } else {
            Vec::new()
        };
        let combats = if self.phase == Phase::CloseCombat {
            self.pending_combats()
        } else {
            Vec::new()
        };
        Legal {
            phase: self.phase,
            army: self.active,
            bound: self.bound,
            pips: self.pips,
            dice: self.awaiting(),
            may_dice_river: movement && has_river && self.river.is_none(),
            moves: if movement && !flight_due {
                self.legal_moves()
            } else {
                Vec::new()
            },
            sally_cities: if flight_due {
                Vec::new()
            } else {
                self.sally_cities()
            },
            landing: if movement && !flight_due && self.first_bound_of_active() {
                self.afloat()
            } else {
                Vec::new()
            },
            may_end_movement: movement,
            flight_due,
            shots,
            combats,
        }
    }

    fn legal_moves(&self) -> Vec<LegalMove> {
        let cfg = &self.setup.config;
        let has_road = self
            .setup
            .battlefield
            .features
            .iter()
            .any(|f| matches!(f, TerrainFeature::Road(_)));
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        let mut v = Vec::new();
        for (idx, e) in self.elements.iter().enumerate() {
            if e.army != self.active || !e.in_play() || self.sacking(e.id).is_some() {
                continue;
            }
            let n = e.moves_this_bound;
            let tt = e.kind.troop_type();
            let again_off_road = if tt == TroopType::LH || e.kind.is_mounted_infantry() {
                n < 3
            } else if tt == TroopType::Ps {
                n < 2
            } else {
                n == 0
            };
            if !again_off_road && !has_road {
                continue;
            }
            if in_close_combat(&ctx, idx) {
                continue;
            }
            let plan = MovePlan::lone_unpathed(e.id, false);
            let cost = self.pip_cost_boxed(
                &super::movement::MoveOrder::Element {
                    id: e.id,
                    path: Vec::new(),
                },
                &plan,
                ctx.close_combat.map(|m| m.area_boxes(&ctx)),
            );
            v.push(LegalMove {
                id: e.id,
                move_number: n.saturating_add(1),
                // Big Battle and Giant: the element's own command pays (§14.4).
                affordable: cost.total <= self.command_of(e.id).map_or(self.pips, |c| c.pips),
                cost,
                reach_good: cfg.move_distance(e.kind, false),
                reach_rough: cfg.move_distance(e.kind, true),
                road_only: !again_off_road,
                may_dismount: e.dismounts_as.is_some() && n == 0,
                through_cities: self.passable_cities(&ctx, e),
            });
        }
        v
    }

    /// Cities with two gates, one of them just in front of `e`, that it may pass through alone now
    /// (§4.2, §17.10). Only elements near a gate are planned, so this stays cheap.
    fn passable_cities(
        &self,
        ctx: &super::movement::MoveContext,
        e: &super::state::ElementState,
    ) -> Vec<usize> {
        let front = e.pose.front_mid();
        self.setup
            .battlefield
            .areas()
            .filter(|(_, a)| {
                a.kind == crate::terrain::AreaKind::City
                    && a.gates.len() == 2
                    && a.gates.iter().any(|g| {
                        g.distance(front)
                            <= super::movement::GATE_REACH + crate::geometry::TOLERANCE
                    })
            })
            .map(|(f, _)| f)
            .filter(|&city| {
                let order = super::movement::MoveOrder::ThroughCity {
                    ids: vec![e.id],
                    city,
                };
                super::movement::plan_move(ctx, &order).is_ok()
            })
            .collect()
    }
}
