//! The sizes of a set-up ([`crate::limits`]), checked before its rules: kept with the set-up's
//! types so that the battle's vocabulary imports nothing from above it.

use crate::sizes::{
    check_battlefield, check_len, check_polygon, check_pose, LimitError, MAX_ARMIES, MAX_COMMANDS,
    MAX_ELEMENTS, MAX_NAME_BYTES,
};

use super::{BattleSetup, PipAllocation};

/// A set-up's sizes and numbers: at most [`MAX_ARMIES`] armies and [`MAX_ELEMENTS`] elements in
/// all, names at most [`MAX_NAME_BYTES`], the battlefield, every pose and camp outline in range.
/// The rules of the set-up (overlaps, generals, terrain) are `battle::setup::validate`'s.
pub fn check_setup(s: &BattleSetup) -> Result<(), LimitError> {
    check_len(&|| "armies".into(), s.armies.len(), MAX_ARMIES)?;
    check_len(&|| "format".into(), s.format.len(), MAX_NAME_BYTES)?;
    check_battlefield(&s.battlefield)?;
    let total: usize = s.armies.iter().map(|a| a.elements.len()).sum();
    check_len(&|| "the elements of all armies".into(), total, MAX_ELEMENTS)?;
    for (i, a) in s.armies.iter().enumerate() {
        check_len(
            &|| format!("armies[{i}].name (bytes)"),
            a.name.len(),
            MAX_NAME_BYTES,
        )?;
        if let Some(camp) = &a.camp {
            let mut vertices = 0;
            check_polygon(&|| format!("armies[{i}].camp"), camp, &mut vertices)?;
        }
        for (j, e) in a.elements.iter().enumerate() {
            check_pose(&|| format!("armies[{i}].elements[{j}].pose"), &e.pose)?;
        }
        check_len(
            &|| format!("armies[{i}].commands"),
            a.commands.len(),
            MAX_COMMANDS,
        )?;
        let listed: usize = a.commands.iter().map(|c| c.elements.len()).sum();
        check_len(
            &|| format!("the elements of armies[{i}].commands"),
            listed,
            MAX_ELEMENTS,
        )?;
        if let Some(PipAllocation::Ranked { order }) = &a.pip_allocation {
            check_len(
                &|| format!("armies[{i}].pip_allocation.order"),
                order.len(),
                MAX_COMMANDS,
            )?;
        }
    }
    Ok(())
}
