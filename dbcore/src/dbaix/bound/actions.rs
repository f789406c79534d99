//! The action types of a DBAix game: what a player does ([`Action`]), one fighter's side of a
//! combat ([`FighterScore`]) and what happened ([`Event`]) (DBAIX.md §2–§8).

use super::*;

/// What a player does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixAction"))]
#[serde(rename_all = "snake_case", tag = "action")]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// The moving side's PIP die (the Romans' "dVI" is an ordinary d6, DBAIX.md §11.1).
    RollPips {
        /// The score of the die, 1 to 6.
        die: DieScore,
    },
    /// A move (DBAIX.md §3): every figure in `figures` (one, or a group in edge and corner
    /// contact) is carried `distance` inches (at most 4) along compass `bearing`, then each turns
    /// on the spot about its centre to face `face` if given.
    Move {
        /// The figure, or the group in edge and corner contact, that moves.
        figures: Vec<FigureId>,
        /// The compass bearing of the move, degrees clockwise from north (+y).
        bearing: f64,
        /// How far, inches (at most 4).
        distance: f64,
        /// The bearing each figure faces afterwards, degrees clockwise from north; `None` keeps its
        /// facing.
        #[serde(default)]
        face: Option<f64>,
    },
    /// Romans in camp come back as reinforcements led by an officer (DBAIX.md §8.2, DBAIX.md §11.12):
    /// they enter side by side facing north, the first figure's left edge at `x`, their front
    /// edges `distance` inches in from the Roman (south) edge.
    Reinforce {
        /// The Romans in camp who come back.
        figures: Vec<FigureId>,
        /// Where the first figure's left edge enters, inches from the west edge.
        x: f64,
        /// How far in from the south edge their front edges end, inches.
        distance: f64,
    },
    /// The moving side has finished moving; close combats follow if any, else the bound ends.
    EndMovement,
    /// One close combat: `dice[0]` is `a`'s die, `dice[1]` is `b`'s.
    Fight {
        /// The first figure of the combat.
        a: FigureId,
        /// The figure it fights.
        b: FigureId,
        /// `a`'s die and `b`'s die, in that order.
        dice: [DieScore; 2],
    },
}

/// One figure's side of a fought combat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FighterScore {
    /// The figure.
    pub id: FigureId,
    /// Its die.
    pub die: DieScore,
    /// Its combat factor by class (DBAIX.md §6).
    pub combat_factor: i32,
    /// Its tactical factors, each with its count.
    pub tactical: Vec<TacticalFactor>,
    /// Die plus combat factor plus tactical factors.
    pub total: i32,
    /// What the combat does to it (DBAIX.md §7).
    pub result: FigureResult,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixEvent"))]
#[serde(rename_all = "snake_case", tag = "event")]
#[serde(deny_unknown_fields)]
pub enum Event {
    /// A bound begins (DBAIX.md §2).
    BoundStarted {
        /// The moving side.
        side: Side,
        /// Bounds begun so far, all sides counted (1 for the first).
        bound: u32,
    },
    /// The moving side's PIP die (DBAIX.md §3.1).
    PipsRolled {
        /// The side that rolled.
        side: Side,
        /// The score of the die.
        die: DieScore,
    },
    /// Every Gaul has drunk the potion; it works until `until_gaul_bounds` Gaul bounds are over
    /// (DBAIX.md §5, DBAIX.md §11.7).
    PotionDrunk {
        /// The last Gaul bound in which the potion works.
        until_gaul_bounds: u32,
    },
    /// The potion has worn off (DBAIX.md §5).
    PotionWornOff,
    /// Cacofonix sings (DBAIX.md §4): `binders` must go to him; `again` when it goes on from an
    /// earlier bound (DBAIX.md §11.6).
    MusicPlayed {
        /// The figures that must go to Cacofonix.
        binders: Vec<FigureId>,
        /// The music goes on from an earlier bound.
        again: bool,
    },
    /// Cacofonix is bound and gagged (DBAIX.md §11.6).
    Silenced,
    /// A figure turned about and fled from the music (DBAIX.md §4).
    FledFromMusic {
        /// The figure that fled.
        figure: FigureId,
        /// Where it ends.
        pose: Pose,
        /// It fled off the table and is out of the game.
        off_table: bool,
    },
    /// A move was made (DBAIX.md §3).
    Moved {
        /// The figures that moved.
        figures: Vec<FigureId>,
        /// Where each ends, in the order of `figures`.
        poses: Vec<Pose>,
        /// What the move cost.
        cost: PipCost,
        /// PIPs left afterwards.
        pips_left: u8,
    },
    /// Romans came back from camp (DBAIX.md §8.2).
    Reinforced {
        /// The figures that came back.
        figures: Vec<FigureId>,
        /// Where each stands, in the order of `figures`.
        poses: Vec<Pose>,
        /// What it cost.
        cost: PipCost,
        /// PIPs left afterwards.
        pips_left: u8,
    },
    /// A figure touched on a side or the rear swung round to face its enemy (DBAIX.md §6.1).
    TurnedToFace {
        /// The figure that turned.
        figure: FigureId,
        /// The enemy it now faces.
        towards: FigureId,
        /// How it stands now.
        pose: Pose,
    },
    /// A close combat, with both scores (DBAIX.md §6).
    Fought {
        /// The first figure's score.
        a: FighterScore,
        /// The second figure's score.
        b: FighterScore,
    },
    /// A figure's result moved it (follow-up, recoil, flight) (DBAIX.md §7).
    ResultMoved {
        /// The figure.
        figure: FigureId,
        /// The result that moved it.
        result: FigureResult,
        /// Where it ends.
        pose: Pose,
    },
    /// A figure's result took it out of play (DBAIX.md §7).
    Lost {
        /// The figure.
        figure: FigureId,
        /// The result: captured, removed, sent to camp or fled off.
        result: FigureResult,
    },
    /// Captured and placed under guard (DBAIX.md §8.1).
    Captured {
        /// The captured figure.
        figure: FigureId,
        /// The enemy figure guarding it.
        guard: FigureId,
    },
    /// Freed from its guard (DBAIX.md §8.1, DBAIX.md §11.11).
    Freed {
        /// The figure freed.
        figure: FigureId,
        /// Where it stands.
        pose: Pose,
    },
    /// A new brew: the potion works again until `until_gaul_bounds` (DBAIX.md §11.7).
    PotionBrewed {
        /// The last Gaul bound in which the new brew works.
        until_gaul_bounds: u32,
    },
    /// The bound is over; unused PIPs are lost.
    BoundEnded {
        /// The side whose bound it was.
        side: Side,
        /// Bounds begun so far, all sides counted.
        bound: u32,
        /// PIPs not spent, now lost.
        unused_pips: u8,
    },
    /// The game is over (our reading of DBAix §10).
    GameOver {
        /// The side with most figures free on the table, or `None` for a draw.
        winner: Option<Side>,
        /// Figures free on the table, by side (Romans, Gauls, Pirates).
        on_table: [u32; 3],
    },
}
