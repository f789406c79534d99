//! Work done once and not again: a set-up validated once and shared by every battle started from
//! it ([`ValidatedSetup`]), and an action checked once and committed without a second check
//! ([`CheckedAction`]).
//!
//! Both are typed proofs. A [`ValidatedSetup`] can only be made by validating; a
//! [`CheckedAction`] can only be made by [`Battle::check_action`], and it is bound to the exact
//! state it was checked against: committing it to any other state (a clone, a later state, a
//! battle restored from JSON) checks the action again, so nothing unchecked is ever committed.

use super::bound::{Action, Battle, BattleError, Event, ReplayError};
use super::movement::Refusals;
use std::sync::Arc;

pub use super::setup::ValidatedSetup;

/// An action [`Battle::check_action`] accepted, with the events it causes, bound to the state it
/// was checked against. [`Battle::apply_checked`] commits it without checking it again.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedAction {
    action: Action,
    events: Vec<Event>,
    /// The state the check simulated, when it played the action out on a clone (the end of the
    /// tactical moves, a shot, a close combat): committing adopts it.
    sim: Option<Box<Battle>>,
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

    /// Replay `actions` from a set-up validated once ([`ValidatedSetup`]), returning the battle
    /// and the events of every action in order: [`Battle::replay`] without validating the set-up
    /// again, for many records of one set-up. Every action is checked as [`Battle::apply`]
    /// checks it, so a record that does not replay (an action tampered with) is refused, naming
    /// the first action refused.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, ReplayError, ValidatedSetup};
    /// use dbcore::DieScore;
    ///
    /// let setup = ValidatedSetup::new(dbcore::driver::demo_setup()).unwrap();
    /// let mut battle = Battle::start(&setup);
    /// battle.apply(Action::RollPips { die: DieScore::new(5).unwrap() }).unwrap();
    /// battle.apply(Action::EndMovement).unwrap();
    /// let (again, _) = Battle::replay_validated(&setup, battle.actions()).unwrap();
    /// assert_eq!(again, battle);
    ///
    /// // The same actions in another order do not replay.
    /// let swapped = [Action::EndMovement, battle.actions()[0].clone()];
    /// let err = Battle::replay_validated(&setup, &swapped).unwrap_err();
    /// assert!(matches!(err, ReplayError::Action { index: 0, .. }));
    /// ```
    pub fn replay_validated(
        setup: &ValidatedSetup,
        actions: &[Action],
    ) -> Result<(Battle, Vec<Event>), ReplayError> {
        let mut b = Battle::start(setup);
        Arc::make_mut(&mut b.actions).reserve_exact(actions.len());
        let mut events = Vec::new();
        for (index, a) in actions.iter().enumerate() {
            let e = b
                .apply(a.clone())
                .map_err(|error| ReplayError::Action { index, error })?;
            events.extend(e);
        }
        Ok((b, events))
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
        self.checked(action, Refusals::Named)
    }

    /// [`Battle::check_action`] for a caller that asks only whether `action` is legal: the same
    /// checked action when it is, `None` when it is not, without saying which rule refuses it.
    /// That lets the move checks look first for what is cheapest to find (elements in the way,
    /// before the going and the distance), so a refusal costs less: what a driver, an AI or a
    /// search over candidate moves wants (#15).
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle};
    /// use dbcore::DieScore;
    ///
    /// let battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let roll = Action::RollPips { die: DieScore::new(5).unwrap() };
    /// assert_eq!(battle.legal_action(roll.clone()), battle.check_action(roll).ok());
    /// assert!(battle.legal_action(Action::EndMovement).is_none());
    /// ```
    pub fn legal_action(&self, action: Action) -> Option<CheckedAction> {
        self.checked(action, Refusals::Any).ok()
    }

    /// [`Battle::legal_action`], handing a refused action to `refused` with the refusal its
    /// checks met first (any rule that refuses it, found in [`Battle::legal_action`]'s cheap
    /// order): for a driver that remembers what refused a move and asks again only once that
    /// has changed (#47).
    pub(crate) fn legal_action_or_else(
        &self,
        action: Action,
        refused: impl FnOnce(Action, BattleError),
    ) -> Option<CheckedAction> {
        self.checked_or_else(action, Refusals::Any, refused).ok()
    }

    fn checked(&self, action: Action, refusals: Refusals) -> Result<CheckedAction, BattleError> {
        self.checked_or_else(action, refusals, |_, e| e)
    }

    /// The checked action, or what `refused` makes of the refused action and its refusal.
    fn checked_or_else<E>(
        &self,
        action: Action,
        refusals: Refusals,
        refused: impl FnOnce(Action, BattleError) -> E,
    ) -> Result<CheckedAction, E> {
        match self.check_simulated(&action, refusals) {
            Ok((events, sim)) => Ok(CheckedAction {
                action,
                events,
                sim,
                stamp: self.stamp.0,
            }),
            Err(e) => Err(refused(action, e)),
        }
    }

    /// Commit an action checked against this very state and return its events, as
    /// [`Battle::apply`] does, without checking or simulating it again: what the check worked
    /// out (the events, and the state it simulated for the end of the tactical moves, a shot or
    /// a close combat) is what is committed. A token checked against any other state (a clone,
    /// an earlier state) is checked again first, and refused as `apply` would refuse it.
    pub fn apply_checked(&mut self, checked: CheckedAction) -> Result<Vec<Event>, BattleError> {
        if checked.stamp != self.stamp.0 {
            return self.apply(checked.action);
        }
        self.commit_checked(checked.action, &checked.events, checked.sim);
        Ok(checked.events)
    }
}
