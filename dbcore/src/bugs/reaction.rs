//! The reaction checks (BUGS §12; readings R24, R29–R31, R36, R37): the procedure, the modifiers
//! and each check's table of results, as pure functions. The encounter decides when a check is
//! taken and carries its result out.

use serde::{Deserialize, Serialize};

use super::tables::BeingChargedNone;

/// Which check (BUGS §12.3–12.6, and reading R24 for the check after a melee attack).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// An enemy came into sight from concealment (BUGS §12.3).
    WhatNow,
    /// Fired on (BUGS §12.4).
    ShotAt,
    /// Trying to move into melee (BUGS §12.5).
    Charging,
    /// A charger halted halfway (BUGS §12.6).
    BeingCharged,
    /// Attacked in melee: the Shot At table read for melee (BUGS §11, reading R24).
    AttackedInMelee,
}

impl CheckKind {
    /// The check's name as the booklet prints it.
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::WhatNow => "What Now",
            CheckKind::ShotAt => "Shot At",
            CheckKind::Charging => "Charging",
            CheckKind::BeingCharged => "Being Charged",
            CheckKind::AttackedInMelee => "melee reaction",
        }
    }
    /// The section of its table.
    pub fn section(self) -> &'static str {
        match self {
            CheckKind::WhatNow => "BUGS §12.3",
            CheckKind::ShotAt => "BUGS §12.4",
            CheckKind::Charging => "BUGS §12.5",
            CheckKind::BeingCharged => "BUGS §12.6",
            CheckKind::AttackedInMelee => "BUGS §11",
        }
    }
}

/// How many of its rolls a figure passed (BUGS §12.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Passed {
    /// Passed its 1st roll.
    First,
    /// Failed the 1st and passed its 2nd.
    Second,
    /// Passed no rolls.
    None,
}

/// A reaction-check modifier (BUGS §12.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Modifier {
    /// The checker is a leader: +2.
    Leader,
    /// A friendly leader within 3 in and in sight: +1.
    LeaderNear,
    /// Friends within 3 in and in sight: +1 each, up to 3.
    Friends,
    /// Uphill of all enemies in sight: +1.
    Uphill,
    /// In cover from the figure that caused the check: +1.
    InCover,
    /// Attacking someone from behind: +2.
    AttackingFromBehind,
    /// Attacked from behind: −2.
    AttackedFromBehind,
}

/// A modifier and what it adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Modified {
    /// Which.
    pub modifier: Modifier,
    /// What it adds (negative for −2).
    pub value: i32,
}

/// The result a check's table gives (BUGS §7, BUGS §12.3–12.6, readings R24, R29).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReactionResult {
    /// What Now, 1st: fire at once, or carry on as it wishes.
    FireOrCarryOn,
    /// What Now, 2nd: checker and mover each roll 1D6 + Willpower.
    OpposedRoll,
    /// What Now, none: the checker freezes.
    Freeze,
    /// Shot At, 1st: finish its movement.
    FinishMovement,
    /// Duck down.
    DuckDown,
    /// Runaway.
    Runaway,
    /// Charging, 1st: charge into hand-to-hand combat.
    ChargeIn,
    /// Charging, 2nd: halt in place and fire instead.
    HaltAndFire,
    /// Being Charged, 1st: stand for combat and fire if able.
    StandAndFire,
    /// Being Charged, 2nd: stand for combat, cannot fire.
    Stand,
    /// Carry on (after a melee attack: a counter-attack is allowed, BUGS §11).
    CarryOn,
    /// Move back 2 in and lose 1 Willpower (reading R24).
    MoveBack,
}

impl ReactionResult {
    /// The result as a player says it.
    pub fn words(self) -> &'static str {
        match self {
            ReactionResult::FireOrCarryOn => "may fire at once or carry on",
            ReactionResult::OpposedRoll => "rolls off to see who acts first",
            ReactionResult::Freeze => "freezes",
            ReactionResult::FinishMovement => "finishes its movement",
            ReactionResult::DuckDown => "ducks down",
            ReactionResult::Runaway => "runs away",
            ReactionResult::ChargeIn => "charges in",
            ReactionResult::HaltAndFire => "halts and may fire instead",
            ReactionResult::StandAndFire => "stands and may fire",
            ReactionResult::Stand => "stands, unable to fire",
            ReactionResult::CarryOn => "carries on",
            ReactionResult::MoveBack => "moves back",
        }
    }
}

/// How the check after a melee attack is read (reading R24).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MeleeReaction {
    /// Carry on, Move back, Runaway: the reading's mapping, the only source of Move back.
    #[default]
    MoveBack,
    /// The Shot At table's own results: Finish movement (read as Carry on), Duck down, Runaway.
    ShotAtTable,
}

/// Which roll the figure passed: a roll passes when it is equal to or lower than the modified
/// Willpower (BUGS §12.1; reading R37: no cap).
pub fn passed(modified_will: i32, first: u8, second: Option<u8>) -> Option<Passed> {
    if i32::from(first) <= modified_will {
        return Some(Passed::First);
    }
    let second = second?;
    Some(if i32::from(second) <= modified_will {
        Passed::Second
    } else {
        Passed::None
    })
}

/// The cell of a check's table (BUGS §12.3–12.6, readings R24 and R29).
///
/// ```
/// use dbcore::bugs::{reaction_result, BeingChargedNone, CheckKind, MeleeReaction, Passed, ReactionResult};
///
/// // BUGS §12.4: Shot At, passed none: runaway.
/// let r = reaction_result(CheckKind::ShotAt, Passed::None, MeleeReaction::MoveBack, BeingChargedNone::Stand);
/// assert_eq!(r, ReactionResult::Runaway);
/// ```
pub fn reaction_result(
    kind: CheckKind,
    passed: Passed,
    melee: MeleeReaction,
    being_charged_none: BeingChargedNone,
) -> ReactionResult {
    use ReactionResult::*;
    match (kind, passed) {
        (CheckKind::WhatNow, Passed::First) => FireOrCarryOn,
        (CheckKind::WhatNow, Passed::Second) => OpposedRoll,
        (CheckKind::WhatNow, Passed::None) => Freeze,
        (CheckKind::ShotAt, Passed::First) => FinishMovement,
        (CheckKind::ShotAt, Passed::Second) => DuckDown,
        (CheckKind::ShotAt, Passed::None) => Runaway,
        (CheckKind::Charging, Passed::First) => ChargeIn,
        (CheckKind::Charging, Passed::Second) => HaltAndFire,
        (CheckKind::Charging, Passed::None) => DuckDown,
        (CheckKind::BeingCharged, Passed::First) => StandAndFire,
        (CheckKind::BeingCharged, Passed::Second) => Stand,
        (CheckKind::BeingCharged, Passed::None) => match being_charged_none {
            BeingChargedNone::Stand => Stand,
            BeingChargedNone::CarryOn => CarryOn,
            BeingChargedNone::DuckDown => DuckDown,
            BeingChargedNone::Runaway => Runaway,
        },
        (CheckKind::AttackedInMelee, Passed::First) => CarryOn,
        (CheckKind::AttackedInMelee, Passed::Second) => match melee {
            MeleeReaction::MoveBack => MoveBack,
            MeleeReaction::ShotAtTable => DuckDown,
        },
        (CheckKind::AttackedInMelee, Passed::None) => Runaway,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_passes_at_or_below_the_modified_willpower() {
        // BUGS §12.1, reading R37.
        assert_eq!(passed(7, 7, None), Some(Passed::First));
        assert_eq!(passed(7, 8, None), None);
        assert_eq!(passed(7, 8, Some(7)), Some(Passed::Second));
        assert_eq!(passed(7, 8, Some(12)), Some(Passed::None));
        assert_eq!(passed(13, 12, None), Some(Passed::First));
        assert_eq!(passed(1, 2, Some(2)), Some(Passed::None));
    }
}
