//! The combat two elements in contact would fight, read from the battle state: the engine query a
//! table tool or an AI asks instead of checking a Fight (§10).

use crate::combat::Situation;

use super::bound::{Battle, BattleError, Event};
use super::engagement::{
    close_combat_situation, close_combat_situation_of_known_pair, with_close_combats,
};
use super::outcome::turn_to_face;
use super::setup::ElementId;

impl Battle {
    /// The close combat `a` and `b` would fight now, as [`crate::combat::resolve`] takes it: the
    /// situation a [`super::bound::Action::Fight`] of the pair resolves, with `a` as side A.
    ///
    /// The pair must be one of [`Battle::pending_combats`] (either way round), else
    /// [`BattleError::NotInCombat`] (§10.2). An element contacted on its side or rear turns to face
    /// first (§8.5), so the situation of such a pair is read from the table after that turn, as
    /// the Fight reads it. The demoralised −2 of Big Battle (§14.5) is counted; the C-in-C's
    /// once-a-game +1 (§14.4) is the player's choice at the Fight and is left out (set
    /// `cinc_bonus` to ask about it). Nothing in the battle changes; the close combats of the
    /// state are worked out once per state (the per-state memo of `cache.rs`) and reused by every
    /// later question about the same state.
    ///
    /// ```
    /// use dbcore::battle::{Battle, BattleError, ElementId};
    ///
    /// let battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// // Nobody is in contact before the first move.
    /// assert!(matches!(
    ///     battle.combat_situation(ElementId(1), ElementId(101)),
    ///     Err(BattleError::NotInCombat { .. })
    /// ));
    /// ```
    pub fn combat_situation(&self, a: ElementId, b: ElementId) -> Result<Situation, BattleError> {
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        // The pair read from the state's list where it is kept, not from a copy of it (#15).
        let pair = with_close_combats(&ctx, |pairs| {
            pairs
                .iter()
                .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
                .filter(|p| self.still_to_fight(p))
                .cloned()
        })
        .ok_or(BattleError::NotInCombat { a, b })?;
        let turned = pair.turn_to_face.and_then(|turner| {
            let contactor = if turner == a { b } else { a };
            let effect = turn_to_face(&ctx, turner, contactor)?;
            let mut sim = self.clone();
            sim.emit(Event::Outcome { effect }, &mut Vec::new());
            Some(sim)
        });
        let at = turned.as_ref().unwrap_or(self);
        let mut situation = if turned.is_some() {
            let strongholds = at.held_strongholds_kept();
            close_combat_situation(&at.move_context(&strongholds), a, b)
        } else {
            // The pair was found among the close combats of this very context, just above.
            close_combat_situation_of_known_pair(&ctx, a, b)
        }
        .map_err(BattleError::Engagement)?;
        situation.a.demoralised = at.element(a).is_some() && at.demoralised(a);
        situation.b.demoralised = at.element(b).is_some() && at.demoralised(b);
        Ok(situation)
    }
}
