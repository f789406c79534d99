//! Camps in the battle: the army's camp and, in Big Battle and Giant, each allied command's own
//! (DBA3.md §4.6, §4.7, §14.3, §14.5).
//!
//! A camp is named by its army and, for an allied command's own camp, that command
//! ([`CampRef`]). The army camp's state (sacked, camp followers still defending) is kept per army
//! as it always was; an allied camp's is kept in its [`super::commands::CommandState`] (`camp_sacked`,
//! `camp_followers`), so a standard battle reads and writes the same JSON as before.
//!
//! Who may defend a camp (§4.6, §14.3, §17.52): never El or SCh; in a standard battle any other
//! element of the army that is not of an allied contingent; with commands, only an element of
//! the camp's own command, the army's camp being its non-allied commands'. Elements of the army
//! that may not defend a camp stand in it as they would in open ground: they neither defend nor
//! hold it (it projects no threat zone for them and gives them no camp factor).

use crate::geometry::Polygon;
use crate::troops::TroopType;

use super::bound::Battle;
use super::commands::CommandId;
use super::setup::ElementId;
use super::state::{camp_followers_id, command_camp_followers_id, ElementState};

/// One camp on the table (§4.6, §14.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CampRef<'a> {
    /// The army whose camp it is.
    pub army: usize,
    /// The allied command whose own camp it is; `None` for the army's camp.
    pub command: Option<CommandId>,
    /// Its outline.
    pub outline: &'a Polygon,
    /// The id under which its fixed camp followers fight.
    pub followers_id: ElementId,
}

impl Battle {
    /// Every camp on the table, in set-up order: each army's own camp, then its allied commands'
    /// camps in command order (§14.3).
    pub fn camp_refs(&self) -> Vec<CampRef<'_>> {
        self.each_camp().collect()
    }

    /// The camps of [`Battle::camp_refs`], in its order, without collecting them (#15: asked
    /// with every move checked).
    pub(super) fn each_camp(&self) -> impl Iterator<Item = CampRef<'_>> + '_ {
        self.setup.armies.iter().enumerate().flat_map(|(army, a)| {
            let own = a.camp.iter().map(move |outline| CampRef {
                army,
                command: None,
                outline,
                followers_id: camp_followers_id(army),
            });
            let allied = a.commands.iter().filter(|c| c.allied).filter_map(move |c| {
                c.camp.as_ref().map(|outline| CampRef {
                    army,
                    command: Some(c.id),
                    outline,
                    followers_id: command_camp_followers_id(army, c.id),
                })
            });
            own.chain(allied)
        })
    }

    /// Whether the camp of `army` (with `command`, that allied command's own camp) has been
    /// sacked (§4.7, §17.44). A camp that does not exist counts as sacked: nothing can be taken.
    pub fn camp_is_sacked(&self, army: usize, command: Option<CommandId>) -> bool {
        match command {
            None => self.camp_sacked.get(army).copied().unwrap_or(true),
            Some(id) => self
                .commands
                .iter()
                .find(|c| c.army == army && c.id == id)
                .is_none_or(|c| c.camp_sacked),
        }
    }

    /// Whether the camp followers of that camp still defend it (§4.6).
    pub fn camp_followers_hold(&self, army: usize, command: Option<CommandId>) -> bool {
        match command {
            None => self.camp_followers_defend(army),
            Some(id) => self
                .commands
                .iter()
                .any(|c| c.army == army && c.id == id && c.camp_followers),
        }
    }

    /// Whether element `e` may defend the camp of `army` (with `command`, that allied command's
    /// own camp): see the module documentation (§4.6, §14.3, §17.52).
    pub fn may_defend_camp_of(
        &self,
        e: &ElementState,
        army: usize,
        command: Option<CommandId>,
    ) -> bool {
        if e.army != army || matches!(e.kind.troop_type(), TroopType::El | TroopType::SCh) {
            return false;
        }
        if !self.has_commands() {
            return super::engagement::may_defend_camp(e);
        }
        match (self.command_of(e.id), command) {
            (Some(c), Some(id)) => c.id == id,
            (Some(c), None) => !c.allied,
            (None, _) => false,
        }
    }

    /// The outline of element `e`'s own camp: its allied command's, else its army's (§14.3).
    pub(super) fn own_camp(&self, e: &ElementState) -> Option<&Polygon> {
        let army = &self.setup.armies[e.army];
        match self.command_of(e.id).filter(|c| c.allied) {
            Some(c) => army
                .commands
                .iter()
                .find(|s| s.id == c.id)
                .and_then(|s| s.camp.as_ref()),
            None => army.camp.as_ref(),
        }
    }

    /// Commit a camp sacked (§4.7, §17.44).
    pub(super) fn commit_camp_sacked(&mut self, army: usize, command: Option<CommandId>) {
        match command {
            None => {
                if let Some(s) = self.camp_sacked.get_mut(army) {
                    *s = true;
                }
            }
            Some(id) => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == army && c.id == id)
                {
                    c.camp_sacked = true;
                }
            }
        }
    }

    /// Commit a camp's camp followers destroyed (§4.6, §4.7).
    pub(super) fn commit_camp_followers_destroyed(
        &mut self,
        army: usize,
        command: Option<CommandId>,
    ) {
        match command {
            None => {
                if let Some(c) = self.camp_followers.get_mut(army) {
                    *c = false;
                }
            }
            Some(id) => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == army && c.id == id)
                {
                    c.camp_followers = false;
                }
            }
        }
    }
}
