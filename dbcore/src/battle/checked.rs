//! Work done once and not again: a set-up validated once and shared by every battle started from
//! it ([`ValidatedSetup`]), and an action checked once and committed without a second check
//! ([`CheckedAction`]).
//!
//! Both are typed proofs. A [`ValidatedSetup`] can only be made by validating; a
//! [`CheckedAction`] can only be made by [`Battle::check_action`], and it is bound to the exact
//! state it was checked against: committing it to any other state (a clone, a later state, a
//! battle restored from JSON) checks the action again, so nothing unchecked is ever committed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::bound::{Action, Battle, BattleError, Event};
use super::setup::{validate, BattleSetup, SetupError, SetupProblem};
use crate::battlefield::Variant;

/// A battle set-up that passed [`validate`], behind an [`Arc`]: start any number of battles from
/// it with [`Battle::start`], each sharing its terrain and armies, none validating them again
/// (a Monte Carlo study validates its set-up once, not once a battle).
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedSetup(Arc<BattleSetup>);

impl ValidatedSetup {
    /// Validate `setup` (every problem at once, as [`Battle::new`] reports them).
    pub fn new(setup: BattleSetup) -> Result<ValidatedSetup, SetupError> {
        let mut problems = validate(&setup);
        if setup.variant == Variant::Dbaix {
            problems.push(SetupProblem::VariantNotPlayed {
                variant: setup.variant,
            });
        }
        if problems.is_empty() {
            Ok(ValidatedSetup(Arc::new(setup)))
        } else {
            Err(SetupError { problems })
        }
    }

    /// The set-up.
    pub fn setup(&self) -> &BattleSetup {
        &self.0
    }

    pub(super) fn shared(&self) -> Arc<BattleSetup> {
        Arc::clone(&self.0)
    }
}

/// The identity of one battle state, for [`CheckedAction`]: every battle, every clone and every
/// state after an action draws a new one, so two different states never share it. It is not
/// part of the state: not serialised, not compared, not shown.
#[derive(Eq)]
pub(super) struct Stamp(u64);

/// Stamps handed out so far in this process (only their uniqueness matters).
static STAMPS: AtomicU64 = AtomicU64::new(1);

impl Stamp {
    pub(super) fn fresh() -> Stamp {
        Stamp(STAMPS.fetch_add(1, Ordering::Relaxed))
    }
}

impl Default for Stamp {
    fn default() -> Stamp {
        Stamp::fresh()
    }
}

/// A clone is another state: it gets its own stamp.
impl Clone for Stamp {
    fn clone(&self) -> Stamp {
        Stamp::fresh()
    }
}

/// Invisible to equality: two battles are equal by what they hold, not by their history.
impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl std::fmt::Debug for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stamp")
    }
}

/// An action [`Battle::check_action`] accepted, with the events it causes, bound to the state it
/// was checked against. [`Battle::apply_checked`] commits it without checking it again.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedAction {
    action: Action,
    events: Vec<Event>,
    stamp: u64,
}

impl CheckedAction {
    /// The action.
    pub fn action(&self) -> &Action {
        &self.action
    }

    /// The events committing it causes.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The action, giving up the proof.
    pub fn into_action(self) -> Action {
        self.action
    }
}

impl Battle {
    /// Start a battle from a validated set-up, sharing it: the first army's first bound, awaiting
    /// its PIP die. The same battle as [`Battle::new`] of the same set-up.
    ///
    /// ```
    /// use dbcore::battle::{Battle, ValidatedSetup};
    ///
    /// // Validate once, then start as many battles as wanted (a simulation, a search).
    /// let setup = ValidatedSetup::new(dbcore::driver::demo_setup()).unwrap();
    /// let a = Battle::start(&setup);
    /// let b = Battle::start(&setup);
    /// assert_eq!(a, b);
    /// assert_eq!(a, Battle::new(dbcore::driver::demo_setup()).unwrap());
    /// ```
    pub fn start(setup: &ValidatedSetup) -> Battle {
        Battle::from_valid(setup.shared())
    }

    /// [`Battle::check`], keeping the proof: the events `action` would cause, as a token that
    /// [`Battle::apply_checked`] commits without a second check. Changes nothing.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let roll = Action::RollPips { die: DieScore::new(6).unwrap() };
    /// let checked = battle.check_action(roll).unwrap();
    /// let expected = checked.events().to_vec();
    /// assert_eq!(battle.apply_checked(checked).unwrap(), expected);
    /// assert_eq!(battle.pips(), 6);
    /// ```
    pub fn check_action(&self, action: Action) -> Result<CheckedAction, BattleError> {
        let events = self.check(&action)?;
        Ok(CheckedAction {
            action,
            events,
            stamp: self.stamp.0,
        })
    }

    /// Commit an action checked against this very state and return its events, as
    /// [`Battle::apply`] does. A token checked against any other state (a clone, an earlier state)
    /// is checked again first, and refused as `apply` would refuse it.
    pub fn apply_checked(&mut self, checked: CheckedAction) -> Result<Vec<Event>, BattleError> {
        if checked.stamp != self.stamp.0 {
            return self.apply(checked.action);
        }
        for e in &checked.events {
            self.commit(e);
        }
        std::sync::Arc::make_mut(&mut self.actions).push(checked.action);
        self.stamp = Stamp::fresh();
        self.cache = Default::default();
        Ok(checked.events)
    }
}
