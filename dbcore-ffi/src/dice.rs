//! A seeded dice handle: the same seed gives the same scores in Rust, C and Python.

use dbcore::SeededDice;

use crate::boundary::{arg, boundary, free_handle, Guarded, Out};
use crate::DbcoreStatus;

/// A seeded source of die scores (an opaque handle over `dbcore::SeededDice`). The rules never
/// roll: a program rolls with this and passes the scores to `dbcore_resolve`. Two rolls at once
/// on one handle: the second gets `DBCORE_STATUS_HANDLE_BUSY`.
#[derive(Debug)]
pub struct DbcoreDice {
    guard: Guarded<SeededDice>,
}

impl DbcoreDice {
    pub(crate) fn guard(&self) -> &Guarded<SeededDice> {
        &self.guard
    }
}

/// Create a dice handle from a 64-bit seed. Free it with `dbcore_dice_free`.
///
/// # Safety
/// `out` must be valid for writes; NULL gives `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Example
/// ```c
/// DbcoreDice *dice = NULL;
/// if (dbcore_dice_new(42, &dice) != DBCORE_STATUS_OK) return 1;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_dice_new(seed: u64, out: *mut *mut DbcoreDice) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        let handle = Box::new(DbcoreDice {
            guard: Guarded::new(SeededDice::new(seed)),
        });
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(Box::into_raw(handle)) };
        Ok(())
    })
}

/// Roll one die: `*out` becomes a score from 1 to 6.
///
/// # Safety
/// `dice` must be a live handle from `dbcore_dice_new`, used by no other thread meanwhile; `out`
/// must be valid for writes. NULL gives `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_POISONED` after a panic inside this handle.
///
/// # Example
/// ```c
/// uint8_t a, b;
/// dbcore_dice_roll(dice, &a);
/// dbcore_dice_roll(dice, &b);
/// dbcore_resolve(&sit, a, b, &res);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_dice_roll(dice: *mut DbcoreDice, out: *mut u8) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `dice`.
        let handle = unsafe { arg(dice.cast_const(), "dice") }?;
        let score = handle.guard.write(|d| Ok(d.roll()))?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(score.get()) };
        Ok(())
    })
}

/// Free a dice handle. NULL is ignored.
///
/// # Safety
/// `dice` must be NULL or a handle from `dbcore_dice_new` not freed before.
///
/// # Example
/// ```c
/// dbcore_dice_free(dice);
/// dice = NULL;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_dice_free(dice: *mut DbcoreDice) {
    boundary(|| {
        // SAFETY: `dice` is NULL or came from `Box::into_raw` in `dbcore_dice_new` (the
        // caller's contract).
        unsafe { free_handle(dice, |h| &h.guard) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::FfiError;

    #[test]
    fn the_same_seed_rolls_the_same_scores_as_dbcore() {
        let mut h = std::ptr::null_mut();
        assert_eq!(unsafe { dbcore_dice_new(7, &mut h) }, DbcoreStatus::Ok);
        let mut rust = SeededDice::new(7);
        for _ in 0..50 {
            let mut v = 0u8;
            assert_eq!(unsafe { dbcore_dice_roll(h, &mut v) }, DbcoreStatus::Ok);
            assert_eq!(v, rust.roll().get());
        }
        unsafe { dbcore_dice_free(h) };
    }

    #[test]
    fn a_handle_rolled_during_another_roll_is_busy_and_unchanged() {
        let mut h = std::ptr::null_mut();
        assert_eq!(unsafe { dbcore_dice_new(3, &mut h) }, DbcoreStatus::Ok);
        let mut inner = DbcoreStatus::Ok;
        let outer = boundary(|| {
            let handle = unsafe { arg(h.cast_const(), "dice") }?;
            handle.guard.write(|_| {
                let mut v = 0u8;
                inner = unsafe { dbcore_dice_roll(h, &mut v) };
                Ok(())
            })
        });
        assert_eq!(outer, DbcoreStatus::Ok);
        assert_eq!(inner, DbcoreStatus::HandleBusy);
        // The refused roll drew nothing: the next score is the seed's first.
        let mut v = 0u8;
        assert_eq!(unsafe { dbcore_dice_roll(h, &mut v) }, DbcoreStatus::Ok);
        assert_eq!(v, SeededDice::new(3).roll().get());
        unsafe { dbcore_dice_free(h) };
    }

    #[test]
    fn a_panic_inside_a_handle_poisons_it() {
        let mut h = std::ptr::null_mut();
        assert_eq!(unsafe { dbcore_dice_new(1, &mut h) }, DbcoreStatus::Ok);
        let status = boundary(|| {
            let handle = unsafe { arg(h.cast_const(), "dice") }?;
            handle
                .guard
                .write(|_| -> Result<(), FfiError> { panic!("inside the handle") })
        });
        assert_eq!(status, DbcoreStatus::Panic);
        let mut v = 0u8;
        assert_eq!(
            unsafe { dbcore_dice_roll(h, &mut v) },
            DbcoreStatus::Poisoned
        );
        assert_eq!(crate::error::dbcore_last_error_code(), 901);
        unsafe { dbcore_dice_free(h) };
    }
}
