//! The To Hit table and the damage arithmetic (BUGS §9, BUGS §10; readings R19–R21).
//!
//! The table has no modifiers: its rows carry their conditions. Each row is data
//! ([`hit_table`]), with row 6's lost condition held as a switchable Weapon Skill threshold
//! (reading R19). In melee only the Weapon Skill conditions apply (reading R20).

use serde::{Deserialize, Serialize};

/// What a To Hit roll scores (BUGS §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HitResult {
    /// Damage, and a roll on the Impact Table (BUGS §10.1).
    CriticalWound,
    /// Damage only.
    FleshWound,
    /// Nothing (a shot target still checks, BUGS §12.4).
    Miss,
}

/// A row's condition (BUGS §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "condition", content = "value")]
pub enum HitCondition {
    /// The target is at long range (rows 3 and 12).
    LongRange,
    /// The firer moved 12 in or more, or this is the 2nd or 3rd target (row 5).
    FirerMovedFastOrLaterTarget,
    /// The attacker's Weapon Skill is this or less (row 6, reading R19).
    AttackerWsAtMost(u8),
    /// The target is in cover or is the 3rd target (row 8).
    TargetInCoverOrThirdTarget,
    /// The target moved 12 in or more, or is at long range (row 9).
    TargetMovedFastOrLongRange,
    /// The attacker's Weapon Skill is this or more (row 11).
    AttackerWsAtLeast(u8),
}

/// One row of the To Hit table: the result when its condition holds, and otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HitRow {
    /// The 2D6 total.
    pub total: u8,
    /// The row's condition, if it has one.
    pub condition: Option<HitCondition>,
    /// The result when the condition holds (or always, with no condition).
    pub when: HitResult,
    /// The result otherwise.
    pub otherwise: HitResult,
}

/// The To Hit table, rows 2 to 12; `row6_ws_at_most` is the threshold of reading R19 (6).
pub fn hit_table(row6_ws_at_most: u8) -> [HitRow; 11] {
    use HitCondition::*;
    use HitResult::*;
    let row = |total, condition, when, otherwise| HitRow {
        total,
        condition,
        when,
        otherwise,
    };
    [
        row(2, None, CriticalWound, CriticalWound),
        row(3, Some(LongRange), Miss, FleshWound),
        row(4, None, Miss, Miss),
        row(5, Some(FirerMovedFastOrLaterTarget), Miss, CriticalWound),
        row(6, Some(AttackerWsAtMost(row6_ws_at_most)), Miss, FleshWound),
        row(7, None, Miss, Miss),
        row(8, Some(TargetInCoverOrThirdTarget), Miss, CriticalWound),
        row(9, Some(TargetMovedFastOrLongRange), Miss, FleshWound),
        row(10, None, Miss, Miss),
        row(11, Some(AttackerWsAtLeast(9)), CriticalWound, FleshWound),
        row(12, Some(LongRange), Miss, CriticalWound),
    ]
}

/// What the rows' conditions look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HitContext {
    /// A melee attack (counter-attacks and free hacks too): only the WS conditions apply
    /// (reading R20).
    pub melee: bool,
    /// The target is beyond the weapon's effective range (reading R14).
    pub long_range: bool,
    /// The firer has moved 12 in or more since its activation began (reading R13).
    pub firer_moved_fast: bool,
    /// The target's place in the fire's order: 1 for the first (reading R15).
    pub target_order: u8,
    /// The target is in cover from the firer (reading R18).
    pub target_in_cover: bool,
    /// The target has moved 12 in or more (reading R13).
    pub target_moved_fast: bool,
    /// The attacker's Weapon Skill.
    pub attacker_ws: u8,
}

impl HitCondition {
    /// Whether the condition holds.
    pub fn holds(self, c: &HitContext) -> bool {
        let shot = !c.melee;
        match self {
            HitCondition::LongRange => shot && c.long_range,
            HitCondition::FirerMovedFastOrLaterTarget => {
                shot && (c.firer_moved_fast || c.target_order >= 2)
            }
            HitCondition::AttackerWsAtMost(n) => c.attacker_ws <= n,
            HitCondition::TargetInCoverOrThirdTarget => {
                shot && (c.target_in_cover || c.target_order >= 3)
            }
            HitCondition::TargetMovedFastOrLongRange => {
                shot && (c.target_moved_fast || c.long_range)
            }
            HitCondition::AttackerWsAtLeast(n) => c.attacker_ws >= n,
        }
    }
}

/// Read the table for a 2D6 total: the row, and whether its condition held.
///
/// ```
/// use dbcore::bugs::{to_hit, HitContext, HitResult};
///
/// // BUGS §9, the worked row: a 9 misses a target at long range and flesh-wounds any other.
/// let far = HitContext { long_range: true, target_order: 1, attacker_ws: 10, ..Default::default() };
/// assert_eq!(to_hit(9, &far, 6).0, HitResult::Miss);
/// let near = HitContext { long_range: false, ..far };
/// assert_eq!(to_hit(9, &near, 6).0, HitResult::FleshWound);
/// ```
pub fn to_hit(total: u8, c: &HitContext, row6_ws_at_most: u8) -> (HitResult, HitRow, bool) {
    let table = hit_table(row6_ws_at_most);
    let row = table[usize::from(total.clamp(2, 12) - 2)];
    let held = row.condition.is_some_and(|k| k.holds(c));
    let result = if row.condition.is_none() || held {
        row.when
    } else {
        row.otherwise
    };
    (result, row, held)
}

/// The damage of a Critical or Flesh wound (BUGS §10.1): the attacker's Weapon Skill plus the
/// weapon's dice less the target's armour, never below 0 (reading R21).
pub fn wound_damage(ws: u8, dice_total: u32, dav: u8) -> u32 {
    (u32::from(ws) + dice_total).saturating_sub(u32::from(dav))
}

/// ½D6 (reading R48): one die halved, rounded up.
pub fn half_d6(die: u8) -> u8 {
    die.div_ceil(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn melee_ignores_the_shooting_conditions() {
        // Reading R20: in melee rows 3, 5, 8, 9 and 12 read their "otherwise".
        let c = HitContext {
            melee: true,
            long_range: true,
            firer_moved_fast: true,
            target_order: 3,
            target_in_cover: true,
            target_moved_fast: true,
            attacker_ws: 7,
        };
        let r: Vec<HitResult> = (2..=12).map(|t| to_hit(t, &c, 6).0).collect();
        use HitResult::*;
        assert_eq!(
            r,
            [
                CriticalWound,
                FleshWound,
                Miss,
                CriticalWound,
                FleshWound,
                Miss,
                CriticalWound,
                FleshWound,
                Miss,
                FleshWound,
                CriticalWound
            ]
        );
    }

    #[test]
    fn damage_never_goes_below_zero() {
        assert_eq!(wound_damage(10, 9, 12), 7);
        assert_eq!(wound_damage(0, 1, 12), 0);
        assert_eq!((1..=6).map(half_d6).collect::<Vec<_>>(), [1, 1, 2, 2, 3, 3]);
    }
}
