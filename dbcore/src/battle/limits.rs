//! The sizes of a set-up and of an action ([`crate::limits`]): the checks of the battle's own
//! types, kept beside them so that the limits below the battle need not import it.

use super::{
    bound::Action, commands::PipAllocation, movement::GroupStep, movement::MoveOrder,
    setup::BattleSetup,
};
use crate::geometry::Pose;
use crate::sizes::{
    check_battlefield, check_coordinate, check_len, check_polygon, check_pose, check_range,
    LimitError, MAX_ARMIES, MAX_COMMANDS, MAX_ELEMENTS, MAX_FACING, MAX_NAME_BYTES,
    MAX_ORDER_LENGTH,
};

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

/// An action's sizes and numbers: paths, id lists and group steps at most
/// [`MAX_ORDER_LENGTH`] long, every pose in range, every advance within ±[`MAX_COORDINATE`](crate::limits::MAX_COORDINATE) and
/// every wheel within ±[`MAX_FACING`].
pub fn check_action(a: &Action) -> Result<(), LimitError> {
    let Action::Move { order } = a else {
        match a {
            Action::Shoot { support, .. } => {
                check_len(&|| "support".into(), support.len(), MAX_ORDER_LENGTH)?
            }
            Action::RollCommandPips { dice } => {
                check_len(&|| "dice".into(), dice.len(), MAX_COMMANDS)?
            }
            Action::Hold { ids } => check_len(&|| "ids".into(), ids.len(), MAX_ORDER_LENGTH)?,
            Action::Fight { c_in_c_bonus, .. } => {
                check_len(&|| "c_in_c_bonus".into(), c_in_c_bonus.len(), 2)?
            }
            _ => {}
        }
        if let Action::Sally { pose, .. } = a {
            check_pose(&|| "pose".into(), pose)?;
        }
        if let Action::Land { ids, poses } = a {
            check_len(&|| "ids".into(), ids.len(), MAX_ORDER_LENGTH)?;
            check_len(&|| "poses".into(), poses.len(), MAX_ORDER_LENGTH)?;
            for (i, pose) in poses.iter().enumerate() {
                check_pose(&|| format!("poses[{i}]"), pose)?;
            }
        }
        return Ok(());
    };
    let path = |p: &[Pose]| -> Result<(), LimitError> {
        check_len(&|| "order.path".into(), p.len(), MAX_ORDER_LENGTH)?;
        for (i, pose) in p.iter().enumerate() {
            check_pose(&|| format!("order.path[{i}]"), pose)?;
        }
        Ok(())
    };
    let ids = |n: usize| check_len(&|| "order.ids".into(), n, MAX_ORDER_LENGTH);
    match order {
        MoveOrder::Element { path: p, .. } => path(p),
        MoveOrder::Column { ids: i, path: p } => {
            ids(i.len())?;
            path(p)
        }
        MoveOrder::Group { ids: i, steps } => {
            ids(i.len())?;
            check_len(&|| "order.steps".into(), steps.len(), MAX_ORDER_LENGTH)?;
            for (k, s) in steps.iter().enumerate() {
                match s {
                    GroupStep::Advance { distance } => {
                        check_coordinate(&|| format!("order.steps[{k}].distance"), *distance)?
                    }
                    GroupStep::Wheel { degrees, .. } => check_range(
                        &|| format!("order.steps[{k}].degrees"),
                        *degrees,
                        -MAX_FACING,
                        MAX_FACING,
                    )?,
                }
            }
            Ok(())
        }
        MoveOrder::IntoContact { ids: i, .. } => ids(i.len()),
        MoveOrder::Dismount { .. } => Ok(()),
        MoveOrder::ThroughCity { ids: i, .. } => ids(i.len()),
    }
}
