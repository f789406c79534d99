//! Lost elements and victory (DBA3.md §13).

use serde::{Deserialize, Serialize};

use crate::troops::TroopType;

use super::state::{ElementState, Status};

/// How an army's losses count toward defeat (§13.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LossCount {
    /// Elements lost that count (not SCh, Hd, camp followers or denizens).
    pub elements: u32,
    /// The first double element lost counts one more.
    pub double_bonus: u32,
    /// The general's element lost counts one more.
    pub general_bonus: u32,
    /// Its camp sacked by the enemy.
    pub camp_sacked: u32,
    /// Its City occupied and still held by the enemy: 2 if used instead of a camp, else 1.
    pub city_held: u32,
}

impl LossCount {
    /// The total that decides defeat.
    pub fn total(&self) -> u32 {
        self.elements + self.double_bonus + self.general_bonus + self.camp_sacked + self.city_held
    }
}

/// Whether a lost element of this kind counts toward defeat (§13.2): Scythed Chariots, Hordes,
/// camp followers and denizens do not.
pub fn counts_as_loss(e: &ElementState) -> bool {
    !matches!(
        e.kind.troop_type(),
        TroopType::SCh | TroopType::Hd | TroopType::CampFollowers | TroopType::Denizens
    )
}

/// The losses of `army` (§13.2). `camp_sacked` and `city_held` (0, 1 or 2) come from the fight
/// for strongholds (§4.7).
pub fn losses(
    elements: &[ElementState],
    army: usize,
    camp_sacked: bool,
    city_held: u32,
) -> LossCount {
    let lost: Vec<&ElementState> = elements
        .iter()
        .filter(|e| e.army == army && matches!(e.status, Status::Lost { .. }))
        .collect();
    let counted: Vec<&&ElementState> = lost.iter().filter(|e| counts_as_loss(e)).collect();
    LossCount {
        elements: counted.len() as u32,
        // §2.4, §17.43: only the first double element lost counts 2.
        double_bonus: u32::from(counted.iter().any(|e| e.kind.is_double())),
        // §13.2: the general's element lost counts one more, whatever its kind.
        general_bonus: u32::from(lost.iter().any(|e| e.general)),
        camp_sacked: u32::from(camp_sacked),
        city_held,
    }
}

/// The verdict at the end of a bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    /// Each army's loss total.
    pub totals: Vec<u32>,
    /// The army that has lost, if one has (§13.2).
    pub loser: Option<usize>,
    /// The winner: in a two-army battle, the other army.
    pub winner: Option<usize>,
}

/// Losses needed before an army can lose (§13.2).
pub const DEFEAT_THRESHOLD: u32 = 4;

/// Apply §13.2 to the armies' loss totals: an army loses when it has lost at least 4 and more
/// than every other army. At most one army qualifies (§17.42).
pub fn verdict(totals: Vec<u32>) -> Verdict {
    let loser = (0..totals.len()).find(|&i| {
        totals[i] >= DEFEAT_THRESHOLD
            && totals
                .iter()
                .enumerate()
                .all(|(j, &t)| j == i || totals[i] > t)
    });
    let winner = match (loser, totals.len()) {
        (Some(l), 2) => Some(1 - l),
        _ => None,
    };
    Verdict {
        totals,
        loser,
        winner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::setup::{ElementId, ElementSetup};
    use crate::battle::state::LossCause;
    use crate::geometry::Pose;

    fn lost(id: u32, army: usize, code: &str, general: bool) -> ElementState {
        let mut e = ElementState::from_setup(
            army,
            &ElementSetup {
                id: ElementId(id),
                kind: code.parse().unwrap(),
                pose: Pose::new(1.0, 1.0, 0.0),
                general,
                contingent: None,
                dismounts_as: None,
                mobile_tower: false,
            },
        );
        e.status = Status::Lost {
            cause: LossCause::Destroyed,
        };
        e
    }

    #[test]
    fn s13_2_sch_hordes_and_civilians_do_not_count() {
        // DBA3.md §13.2.
        let v = vec![
            lost(1, 0, "SCh", false),
            lost(2, 0, "7Hd", false),
            lost(3, 0, "CF", false),
            lost(4, 0, "Dz", false),
            lost(5, 0, "4Bd", false),
        ];
        assert_eq!(losses(&v, 0, false, 0).total(), 1);
    }

    #[test]
    fn s13_2_first_double_counts_two_and_general_one_more() {
        // DBA3.md §13.2, §2.4, §17.43.
        let v = vec![
            lost(1, 0, "6Kn", true),
            lost(2, 0, "8Bw", false),
            lost(3, 0, "Sp", false),
        ];
        let l = losses(&v, 0, false, 0);
        assert_eq!((l.elements, l.double_bonus, l.general_bonus), (3, 1, 1));
        assert_eq!(l.total(), 5);
    }

    #[test]
    fn s13_2_camp_and_city_add() {
        // DBA3.md §13.2: camp sacked +1, City held +2 or +1.
        assert_eq!(losses(&[], 0, true, 2).total(), 3);
    }

    #[test]
    fn s13_2_four_losses_and_more_than_the_enemy() {
        // DBA3.md §13.2: at least 4, and more than the enemy.
        assert_eq!(verdict(vec![4, 3]).winner, Some(1));
        assert_eq!(verdict(vec![4, 4]).loser, None);
        assert_eq!(verdict(vec![3, 1]).loser, None);
        assert_eq!(verdict(vec![2, 6]).winner, Some(0));
    }
}
