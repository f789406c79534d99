//! Property: a legal move never leaves two elements overlapping (DBA3.md §7.2, §8.3).

use crate::battle_moves_support;
use battle_moves_support::*;

use dbcore::battle::MoveOrder;
use dbcore::geometry::{convex_gap, Pose, TOLERANCE};
use proptest::prelude::*;

const CODES: [&str; 6] = ["Cv", "LH", "4Bd", "Ps", "3Kn", "Sp"];

fn overlapping(t: &Table) -> Option<(u32, u32)> {
    let live: Vec<_> = t.els.iter().filter(|e| e.in_play()).collect();
    for (i, a) in live.iter().enumerate() {
        for b in &live[i + 1..] {
            if convex_gap(&a.rect(&t.cfg).corners(), &b.rect(&t.cfg).corners()) < -TOLERANCE {
                return Some((a.id.0, b.id.0));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn legal_single_moves_leave_no_overlap(
        placed in prop::collection::vec((0usize..6, 1.0f64..14.0, 1.0f64..14.0, 0usize..8, 0usize..2), 2..8),
        path in prop::collection::vec((-3.0f64..3.0, -3.0f64..3.0, 0usize..8), 1..3),
    ) {
        // DBA3.md §7.2: no legal move ends overlapping another element.
        let mut t = Table::new();
        for (n, &(code, x, y, f, army)) in placed.iter().enumerate() {
            let i = t.add(army, n as u32 + 1, CODES[code], x, y, f as f64 * 45.0);
            // Keep the table legal: drop any element that would overlap one already placed.
            if overlapping(&t).is_some() {
                t.els.remove(i);
            }
        }
        let mover = t.els.iter().find(|e| e.army == US).map(|e| (e.id, e.pose));
        prop_assume!(mover.is_some());
        let (id, start) = mover.unwrap();
        let poses: Vec<Pose> = path
            .iter()
            .map(|&(dx, dy, f)| Pose::new(start.x + dx, start.y + dy, f as f64 * 45.0))
            .collect();
        if let Ok(plan) = t.plan(&MoveOrder::Element { id, path: poses }) {
            for m in &plan.moves {
                let e = t.els.iter_mut().find(|e| e.id == m.id).unwrap();
                e.pose = m.to;
            }
            prop_assert_eq!(overlapping(&t), None, "after {:?}", plan);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// DBA3.md §7.4: a legal group move leaves no overlap either.
    #[test]
    fn legal_group_moves_leave_no_overlap(
        n in 2usize..4,
        others in prop::collection::vec((1.0f64..14.0, 1.0f64..14.0, 0usize..8, 0usize..2), 0..6),
        steps in prop::collection::vec((0usize..2, -2.0f64..2.0, -60.0f64..60.0), 1..3),
    ) {
        // DBA3.md §7.4: no legal group move ends overlapping another element.
        use dbcore::battle::{Flank, GroupStep};
        let mut t = Table::new();
        for k in 0..n {
            t.add(US, k as u32 + 1, "Cv", 5.0 + k as f64, 5.0, 0.0);
        }
        for (m, &(x, y, f, army)) in others.iter().enumerate() {
            let i = t.add(army, 100 + m as u32, "4Bd", x, y, f as f64 * 45.0);
            if overlapping(&t).is_some() {
                t.els.remove(i);
            }
        }
        let steps: Vec<GroupStep> = steps
            .iter()
            .map(|&(kind, d, a)| {
                if kind == 0 {
                    GroupStep::Advance { distance: d }
                } else if a < 0.0 {
                    GroupStep::Wheel { pivot: Flank::Left, degrees: a }
                } else {
                    GroupStep::Wheel { pivot: Flank::Right, degrees: a }
                }
            })
            .collect();
        let order = MoveOrder::Group { ids: ids(&(1..=n as u32).collect::<Vec<_>>()), steps };
        if let Ok(plan) = t.plan(&order) {
            for m in &plan.moves {
                let e = t.els.iter_mut().find(|e| e.id == m.id).unwrap();
                e.pose = m.to;
            }
            prop_assert_eq!(overlapping(&t), None, "after {:?}", plan);
        }
    }
}
