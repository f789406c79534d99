//! The sizes of an action ([`crate::limits`]): the checks of the battle's own types, kept beside
//! them so that the limits below the battle need not import it. A set-up's are checked in
//! [`super::setup`], below the battle.

pub use super::setup::check_setup;
use super::{bound::Action, movement::GroupStep, movement::MoveOrder};
use crate::geometry::Pose;
use crate::sizes::{
    check_coordinate, check_len, check_pose, check_range, LimitError, MAX_COMMANDS, MAX_FACING,
    MAX_ORDER_LENGTH,
};

impl Action {
    /// [`check_action`] of this action: what the battle checks before any rule. A method, so
    /// that the battle's own file calls it without importing this one (#48).
    pub(crate) fn check_sizes(&self) -> Result<(), LimitError> {
        check_action(self)
    }
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
