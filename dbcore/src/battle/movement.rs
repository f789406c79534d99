//! Tactical moves (DBA3.md §7, §8): what a move order asks, and the plan of what it would do.
//!
//! [`plan_move`] is pure: it reads the battle through a [`MoveContext`] and either returns the
//! [`MovePlan`] (every element's final pose, the distance, what the move touched) or the
//! [`MoveError`] naming the rule that forbids it. The battle turns a plan into events and charges
//! its PIPs (§6.3); the plan never changes anything itself.
//!
//! # How moves are measured and checked (readings where DBA3.md is silent)
//!
//! * **Legs.** A path is a list of legs, each from one pose to the next. A leg that keeps the
//!   facing is a straight move: the whole rectangle sweeps the hull of its start and end, and
//!   nothing may lie in it (so a gap is passed exactly when the element fits through). A leg
//!   that turns is read as the front edge going straight from where it was to where it ends:
//!   only the area that edge sweeps and the end position are checked, since a rear corner may
//!   pass through things while the front edge pivots or wheels (§7.2). Group wheels sweep the
//!   true arc.
//! * **Distance** (§7.2): for each leg, the straight-line displacement of the front corner that
//!   moves furthest, summed over the legs (a detour is the extra legs). A wheel costs the chord
//!   of its swinging corner. A group's or column's distance is that of its furthest-moving
//!   element.
//! * **Going** (§7.3): the worst going any swept area reaches into by more than the tolerance;
//!   a move wholly along a road (every front-edge midpoint of the path astride it) is good
//!   going; a front edge reaching into a river that is not paltry limits the move to 1 BW.
//! * **Threat zones** (§8.1): a mover first in or reaching a zone may then only (a) end touching
//!   the front edge of one element projecting it, or get nearer to the line of that front edge
//!   while getting no further off to its side and no less squarely faced; or, for a camp, city
//!   or fort, end touching it; or (b) go straight back, without turning, its full distance.
//!   Reaching a zone's boundary with the very end of the move is allowed. Elements in close
//!   combat project no zone (§17.15; the switch
//!   [`crate::config::MoveRules::close_combat_threat_zones`] gives them one).
//! * **Interpenetration** (§7.6): "squarely behind/in front" means wholly beyond the friend's
//!   rear/front edge line and within the lines of its sides.
//! * **Contact** (§8.2–8.3): an end position touching an enemy must be lined up (front to front,
//!   front to rear, front to flank with front corners together) or an overlap (side to side, or
//!   the same front corners touching); touches involving neither front edge are allowed. Front
//!   edges touching out of line are conformed: a lone enemy element conforms to a group unless it
//!   stands wholly in rough or bad going; otherwise the movers turn and slide (less than 1 BW
//!   sideways, the rest counted against the move) onto the enemy's front edge.
//! * **Into contact** for a group: every element keeps its place relative to the one that makes
//!   the contact (tried nearest first), i.e. the group wheels and advances as one body.
//! * **Second moves** (§7.5): Psiloi need to end partly in *bad* going (§17.50, seed reading;
//!   the switch [`crate::config::MoveRules::psiloi_second_move_into_rough`] accepts rough too).
//! * **Places held by the enemy** (§4.7, §8.4): CP, Lit, CWg, Art and WWg (save a mobile tower)
//!   may not move into any contact with a city, fort or camp held by the enemy, nor SCh into
//!   front-edge contact; at most 3 elements may be in front-edge contact with one.
//! * **Walls** (§4.2, §4.3): a mover's front-edge midpoint crosses the outline of a City or Fort
//!   only within ½ BW of one of its gates (when it has any). No move ends astride a City's or Fort's
//!   walls or reaches inside one held by the enemy (that is only assaulted); one held by the
//!   mover's army is only entered or left (the move starts or ends with the mover wholly inside);
//!   one nobody holds may be moved into or through.
//! * **Gate to gate** (§4.2, §17.10): [`MoveOrder::ThroughCity`]; its readings are in the
//!   passage planner's documentation.
//! * **Crossing a river** (§3.5, §7.8): an element whose front edge starts the move in any river
//!   keeps its facing through the move, unless the move is into contact or a conforming.

use serde::{Deserialize, Serialize};

use crate::battlefield::Battlefield;
use crate::config::RulesConfig;
use crate::geometry::{Polygon, Pose};
use crate::terrain::RiverState;
use crate::troops::ElementKind;

use super::setup::ElementId;
use super::state::ElementState;

mod engine;
pub(crate) mod geom;

pub(crate) use engine::front_to_front;
pub use engine::{in_close_combat, must_conform, plan_move, GATE_REACH};

/// How far a pose asked for may lie from the pose the engine moves to once both are snapped,
/// with room to spare: snapping a pose moves a front corner by under 2e-4 BW. A caller that
/// passes over moves as sure to be too far measures them with this margin (#15, #47).
pub(crate) const SNAP_MARGIN: f64 = 1e-3;

/// Whether a lone element's move in one leg, from `from` to `to` (as asked, before the pose is
/// snapped), is sure to be refused as too far when no going lets it move more than `reach` BW:
/// the leg's distance, the front corner moving furthest (§7.2), is beyond `reach` by more than
/// the tolerance (§7.3) and [`SNAP_MARGIN`], above the snapping of the two poses (each coordinate
/// by at most half of [`crate::geometry::GRID`], a facing by half a grid step of angle). Such a
/// move is
/// one leg from where it stands whether it is a path of one pose or a front contact, whose end
/// is the target's front-edge midpoint facing it. For a caller that tries many moves (#47).
pub(crate) fn lone_leg_beyond(from: Pose, to: Pose, depth: f64, reach: f64) -> bool {
    // A contact's end is snapped twice: a front corner moves by under 4e-4 BW.
    geom::Leg::new(from, to, 1.0, depth).distance()
        > reach + crate::geometry::TOLERANCE + SNAP_MARGIN
}

/// Everything a move may look at.
#[derive(Debug, Clone, Copy)]
pub struct MoveContext<'a> {
    /// The board and its terrain.
    pub battlefield: &'a Battlefield,
    /// The rules configuration in force.
    pub config: &'a RulesConfig,
    /// Every element of the battle, in play or lost (look at `status`).
    pub elements: &'a [ElementState],
    /// The army whose bound it is; only its elements make tactical moves.
    pub army: usize,
    /// The river's state, once diced (§3.5).
    pub river: Option<RiverState>,
    /// Plough is rough this game (§3.1).
    pub plough_rough: bool,
    /// This is the moving army's own first bound (§7.5 Psiloi second moves).
    pub first_bound_of_army: bool,
    /// Every camp, city or fort that holds elements, with the army holding it: its perimeter
    /// projects a threat zone against the other armies (§8.1). Empty when there are none.
    pub strongholds: &'a [HeldStronghold],
    /// Who is in close combat, by index of `elements`, when already known for exactly this state
    /// ([`super::bound::Battle::move_context`] fills it from the battle's per-state cache); `None`
    /// works it out on each question. Either way the answers are those of [`in_close_combat`].
    pub close_combat: Option<&'a super::cache::CloseCombatFlags>,
    /// Whether a refused move must name the first rule it breaks, in the order the rules are
    /// checked ([`Refusals::Named`]), or may be refused by whichever check is cheapest
    /// ([`Refusals::Any`]). A move accepted is the same move with the same plan either way.
    pub refusals: Refusals,
}

/// How a move check that refuses a move says why (see [`MoveContext::refusals`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Refusals {
    /// The error is that of the first check the move fails, in the engine's documented order:
    /// what a player or a table tool is told.
    #[default]
    Named,
    /// The error is that of some check the move fails, the cheapest first: for a caller that asks
    /// only whether a move is legal (a driver, an AI or a list of legal moves trying many).
    Any,
}

impl<'a> MoveContext<'a> {
    /// The per-state grid of the elements ([`super::grid`]), when the context carries the
    /// battle's per-state memo.
    pub(crate) fn grid(&self) -> Option<&'a super::grid::ElementGrid> {
        self.close_combat.and_then(|f| f.grid(self))
    }
}

/// A camp, city or fort containing elements of `army` (§8.1: everything within 1 BW of its
/// perimeter is a threat zone to that army's enemies).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HeldStronghold {
    /// The army whose elements hold it.
    pub army: usize,
    /// Its outline.
    pub perimeter: Polygon,
    /// When no element of `army` is inside: the id of the civilians defending it, a City's
    /// denizens or a camp's camp followers (§4.2, §4.6; see [`super::state::denizens_id`]).
    #[serde(default)]
    pub civilians: Option<ElementId>,
    /// The element inside that is sacking it (§4.2): it neither shoots nor is shot at, and
    /// fights an attacker without the walls.
    #[serde(default)]
    pub sacker: Option<ElementId>,
    /// The allied command whose own camp this is (Big Battle, Giant, §14.3); `None` for an
    /// army's camp and for a City or Fort.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<super::setup::CommandId>,
    /// A camp of a battle with commands: its elements inside that may defend it, those of the
    /// camp's own command (§14.3, §17.52). `None`: any element of `army` that may defend a camp
    /// (§4.6), or a City or Fort.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defenders: Option<Vec<ElementId>>,
}

/// A move order, as a player (or a program) gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum MoveOrder {
    /// One element moving through the given poses in turn (straight legs, each leg may also turn
    /// it); the last pose is where it ends and which way it faces (§7.2).
    Element {
        /// The element.
        id: ElementId,
        /// The poses it passes through in turn, BW and degrees; the last is where it ends.
        path: Vec<Pose>,
    },
    /// A group moving as one (§7.4): every element makes the same steps.
    Group {
        /// The elements of the group, each once.
        ids: Vec<ElementId>,
        /// The steps every element makes, in order.
        steps: Vec<GroupStep>,
    },
    /// A column (§7.4): the first id leads along `path`; the others follow it through the same
    /// wheels at the same places. The leader moves straight ahead to each pose's front-edge
    /// midpoint and turns there to the pose's facing. If the others are not yet lined up behind
    /// the leader, they form the column: each in turn moves to line up behind the one before it;
    /// one that cannot reach the tail this bound drops out of the group and stays put.
    Column {
        /// The elements of the column, leader first.
        ids: Vec<ElementId>,
        /// The poses the leader's front-edge midpoint passes through in turn; the last is where it
        /// ends.
        path: Vec<Pose>,
    },
    /// Move an element or group into contact with an enemy element, ending lined up as asked
    /// (§8.2–8.4): the referee computes the destination.
    IntoContact {
        /// The element or the group moving, each once.
        ids: Vec<ElementId>,
        /// The enemy element to contact.
        target: ElementId,
        /// How the movers are to end up against it.
        contact: ContactWanted,
    },
    /// Dismount (§7.9): the element's whole move, replaced by its foot kind in place.
    Dismount {
        /// The element dismounting.
        id: ElementId,
    },
    /// Pass through a City that no enemy holds from one gate to the other along its road (§4.2,
    /// §17.10): one element, or a column led by the first id, standing just outside a gate and
    /// facing in. The referee places the column outside the far gate; it costs 1 PIP per element
    /// (§6.3).
    ThroughCity {
        /// One element, or a column led by the first id.
        ids: Vec<ElementId>,
        /// The City's index among the battlefield's features.
        city: usize,
    },
}

/// One step of a group move (§7.4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "step")]
pub enum GroupStep {
    /// Straight ahead (negative: straight back), BW.
    Advance {
        /// BW: positive ahead, negative straight back.
        distance: f64,
    },
    /// Wheel the whole front about the front corner on `pivot` by `degrees` (positive turns
    /// clockwise). The front must pivot forward: about the left corner the group turns
    /// anticlockwise (negative degrees), about the right corner clockwise (positive).
    Wheel {
        /// The front corner the group wheels about.
        pivot: Flank,
        /// Degrees, positive clockwise.
        degrees: f64,
    },
}

/// Left or right, seen from behind the element looking the way it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Flank {
    /// The left, seen from behind the element looking the way it faces.
    Left,
    /// The right, seen from behind the element looking the way it faces.
    Right,
}

/// The contact a mover wants with its target (§8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ContactWanted {
    /// Full mutual front-edge contact (§8.2 a).
    Front,
    /// Front edge against the target's left or right side edge, front corners together (§8.2 c).
    Flank(Flank),
    /// Front edge against its rear edge (§8.2 b).
    Rear,
    /// Beside a friend in front contact with the target, overlapping it on that side of the
    /// target (its own left or right): front edge in line with the target's, front corner against
    /// the target's front corner on that side (§8.2 d, §10.4).
    Overlap(Flank),
}

/// Where one element ends up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ElementMove {
    /// The element.
    pub id: ElementId,
    /// Where it was: front-edge midpoint in BW and facing in degrees.
    pub from: Pose,
    /// Where it ends.
    pub to: Pose,
    /// The kind it becomes (dismounting, §7.9).
    #[serde(default)]
    pub becomes: Option<ElementKind>,
}

/// What a legal move would do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MovePlan {
    /// The elements making the tactical move.
    pub movers: Vec<ElementId>,
    /// Every element that ends somewhere else: movers, and enemies conforming to them (§8.3).
    pub moves: Vec<ElementMove>,
    /// Distance counted against the allowance, BW (§7.2: furthest-moving front corner plus
    /// detours).
    pub distance: f64,
    /// The whole move was along a road (§3.6, §6.3).
    pub along_road: bool,
    /// It was the mover's full possible distance and did not reverse direction (§6.3 0-PIP road
    /// move).
    pub full_distance_forward: bool,
    /// It ends with a mover in contact with enemy (§8.2).
    pub into_contact: bool,
}

impl MovePlan {
    /// The plan by which a move of element `id` alone is priced before its path is known
    /// (§6.3): no distance and not along a road, into contact as asked. A path costs what this
    /// costs, save a first full move along a road, which is free.
    pub(crate) fn lone_unpathed(id: ElementId, into_contact: bool) -> MovePlan {
        MovePlan {
            movers: vec![id],
            moves: Vec::new(),
            distance: 0.0,
            along_road: false,
            full_distance_forward: false,
            into_contact,
        }
    }
}

/// A distance as a player says it (moved below the battle, to the board's own module, #48).
pub(crate) use crate::battlefield::bw_text;

/// Why a move cannot be made. Each names its rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "refusal")]
#[serde(deny_unknown_fields)]
pub enum MoveError {
    /// A movement rule refuses the move.
    #[error("{rule}: {message}")]
    Refused {
        /// The section that refuses it.
        rule: String,
        /// Why, in the player's words.
        message: String,
    },
    /// `cause` says in a player's words what limits the move (the feature its path enters, its
    /// going and the troop type, or the river), e.g. "the path enters the wood (feature 2), bad
    /// going for Knights: at most 1 BW (§7.3)".
    #[error("§7.3: a move of {} (measured as §7.2 says) is too far: {cause}", bw_text(*.asked))]
    TooFar {
        /// The distance the move asked for, measured as §7.2 says, BW.
        asked: f64,
        /// The most the element may move on that path, BW (§7.3).
        allowed: f64,
        /// What limits it, in the player's words: "the path enters the wood, bad going for
        /// Knights".
        #[serde(default)]
        cause: String,
    },
    /// Another element is in the way (§7.2).
    #[error("§7.2: element {blocker} is in the way")]
    Blocked {
        /// The element in the way.
        blocker: ElementId,
    },
    /// The river's state must be diced before the first off-road crossing (§7.8, §3.5).
    #[error(
        "§7.8, §3.5: the river (feature {feature}) must be diced for before the first off-road \
         crossing"
    )]
    RiverNotDiced {
        /// The river the move would cross: its index in the battlefield's features. A saved
        /// refusal written before the feature was named reads as feature 0.
        #[serde(default)]
        feature: usize,
    },
    /// The element named is not in the battle.
    #[error("element {id} is not in this battle")]
    UnknownElement {
        /// The id.
        id: ElementId,
    },
    /// The element may not make a tactical move now (§7.1).
    #[error("§7.1: element {id} may not make a tactical move: {reason}")]
    NotMovable {
        /// The element.
        id: ElementId,
        /// Why not, in the player's words.
        reason: String,
    },
    /// The element is in close combat and leaves it only by an outcome move (§7.1).
    #[error("§7.1: element {id} is in close combat and may leave it only by an outcome move")]
    InCloseCombat {
        /// The element.
        id: ElementId,
    },
    /// The move would take the element off the battlefield (§1.2, §7.2).
    #[error("§1.2, §7.2: element {id} would leave the battlefield")]
    OffTable {
        /// The element.
        id: ElementId,
    },
    /// The element may not enter the terrain on its path (§3, §7).
    #[error("{rule}: element {id} may not enter {terrain}")]
    Terrain {
        /// The element.
        id: ElementId,
        /// The section that forbids it.
        rule: String,
        /// The terrain entered, in the player's words.
        terrain: String,
    },
    /// An element in an enemy threat zone made a move §8.1 does not allow.
    #[error("§8.1: element {id} is in the threat zone of enemy {}: it may only advance to contact or square up to one of them, or move straight back its full move ({})", crate::terrain::listed(.enemies), bw_text(*.full))]
    ThreatZone {
        /// The element.
        id: ElementId,
        /// The enemy elements whose threat zones it is in.
        enemies: Vec<ElementId>,
        /// Its full move straight back, BW.
        full: f64,
    },
}

impl MoveError {
    /// The rule that refuses the move, as a section reference.
    pub fn rule(&self) -> String {
        match self {
            MoveError::Refused { rule, .. } | MoveError::Terrain { rule, .. } => rule.clone(),
            MoveError::TooFar { .. } => "§7.3".into(),
            MoveError::Blocked { .. } => "§7.2".into(),
            MoveError::RiverNotDiced { .. } => "§7.8".into(),
            MoveError::UnknownElement { .. } => "§7.1".into(),
            MoveError::NotMovable { .. } | MoveError::InCloseCombat { .. } => "§7.1".into(),
            MoveError::OffTable { .. } => "§1.2".into(),
            MoveError::ThreatZone { .. } => "§8.1".into(),
        }
    }

    pub(crate) fn refused(rule: &str, message: impl Into<String>) -> MoveError {
        MoveError::Refused {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}
