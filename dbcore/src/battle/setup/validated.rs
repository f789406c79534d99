//! A set-up validated once ([`ValidatedSetup`]), shared by every battle started from it.

use std::sync::Arc;

use super::{validate, BattleSetup, SetupError, SetupProblem};
#[cfg(doc)]
use crate::battle::Battle;
use crate::battlefield::Variant;

/// A battle set-up that passed [`validate`], behind an [`Arc`]: start any number of battles from
/// it with [`Battle::start`], each sharing its terrain and armies, none validating them again
/// (a Monte Carlo study validates its set-up once, not once a battle).
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedSetup(Arc<BattleSetup>);

impl ValidatedSetup {
    /// Validate `setup` (every problem at once, as [`Battle::new`] reports them).
    pub fn new(setup: BattleSetup) -> Result<ValidatedSetup, SetupError> {
        ValidatedSetup::from_shared(Arc::new(setup))
    }

    /// Validate a set-up already behind an [`Arc`] (a battle's own, a state read from JSON),
    /// without copying it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use dbcore::battle::ValidatedSetup;
    ///
    /// let shared = Arc::new(dbcore::driver::demo_setup());
    /// let valid = ValidatedSetup::from_shared(Arc::clone(&shared)).unwrap();
    /// assert!(std::ptr::eq(valid.setup(), &*shared));
    /// ```
    pub fn from_shared(setup: Arc<BattleSetup>) -> Result<ValidatedSetup, SetupError> {
        let mut problems = validate(&setup);
        if setup.variant == Variant::Dbaix {
            problems.push(SetupProblem::VariantNotPlayed {
                variant: setup.variant,
            });
        }
        if problems.is_empty() {
            Ok(ValidatedSetup(setup))
        } else {
            Err(SetupError { problems })
        }
    }

    /// The set-up.
    pub fn setup(&self) -> &BattleSetup {
        &self.0
    }

    pub(in crate::battle) fn shared(&self) -> Arc<BattleSetup> {
        Arc::clone(&self.0)
    }
}
