//! Answers about a battle state worked out once per state instead of once per question: who is
//! in close combat (asked about the mover and about every enemy, to know whether it projects a
//! threat zone, for every candidate move a driver, an AI or a table tool tries).
//!
//! The cache is invisible: it is not serialised, not compared, not shown, and a clone starts
//! without it. It is also self-checking: it keeps a copy of what its answers depend on (every
//! element's army, kind, pose and status, and which rules configuration measured them) and is
//! used only while the battle still matches that copy, so a state changed by any path gets fresh
//! answers, never stale ones. [`super::Battle::apply`] starts every new state with an empty cache.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use super::movement::MoveContext;
use super::state::ElementState;
use crate::config::RulesConfig;

/// The per-state answers of one battle state (see the module documentation).
#[derive(Default)]
pub(super) struct StateCache {
    close_combat: OnceLock<CloseCombat>,
}

/// Who is in close combat, each element worked out when first asked, by index of the elements
/// of one battle state. Reached through [`MoveContext::close_combat`].
pub struct CloseCombatFlags {
    /// 0 not yet asked, 1 not in close combat, 2 in close combat.
    flags: Vec<AtomicU8>,
}

impl CloseCombatFlags {
    /// The answer for element `idx`, if already worked out.
    pub(crate) fn get(&self, idx: usize) -> Option<bool> {
        match self.flags.get(idx)?.load(Ordering::Relaxed) {
            1 => Some(false),
            2 => Some(true),
            _ => None,
        }
    }

    /// Keep the answer for element `idx`.
    pub(crate) fn set(&self, idx: usize, v: bool) {
        if let Some(f) = self.flags.get(idx) {
            f.store(if v { 2 } else { 1 }, Ordering::Relaxed);
        }
    }
}

impl std::fmt::Debug for CloseCombatFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries((0..self.flags.len()).map(|i| self.get(i)))
            .finish()
    }
}

/// The flags, and the state they are for.
struct CloseCombat {
    /// The address of the rules configuration that measured the elements (compared only).
    config: usize,
    elements: Vec<ElementState>,
    flags: CloseCombatFlags,
}

fn address(cfg: &RulesConfig) -> usize {
    cfg as *const RulesConfig as usize
}

/// Whether two elements agree in everything close combat depends on.
fn same_for_contact(a: &ElementState, b: &ElementState) -> bool {
    a.id == b.id && a.army == b.army && a.kind == b.kind && a.pose == b.pose && a.status == b.status
}

impl CloseCombat {
    fn describes(&self, ctx: &MoveContext) -> bool {
        self.config == address(ctx.config)
            && self.elements.len() == ctx.elements.len()
            && self
                .elements
                .iter()
                .zip(ctx.elements)
                .all(|(a, b)| same_for_contact(a, b))
    }
}

impl StateCache {
    /// The close-combat flags of the state `ctx` describes: the cache's when it is empty or
    /// describes that state, `None` when it holds another state's answers (the caller then asks
    /// [`super::in_close_combat`] afresh).
    pub(super) fn close_combat<'a>(&'a self, ctx: &MoveContext) -> Option<&'a CloseCombatFlags> {
        let memo = self.close_combat.get_or_init(|| CloseCombat {
            config: address(ctx.config),
            elements: ctx.elements.to_vec(),
            flags: CloseCombatFlags {
                flags: ctx.elements.iter().map(|_| AtomicU8::new(0)).collect(),
            },
        });
        memo.describes(ctx).then_some(&memo.flags)
    }
}

/// A clone is another state (it will usually change at once): it starts empty.
impl Clone for StateCache {
    fn clone(&self) -> StateCache {
        StateCache::default()
    }
}

/// Invisible to equality.
impl PartialEq for StateCache {
    fn eq(&self, _: &StateCache) -> bool {
        true
    }
}

impl std::fmt::Debug for StateCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateCache")
    }
}
