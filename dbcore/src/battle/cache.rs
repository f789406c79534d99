//! Answers about a battle state worked out once per state instead of once per question: who is
//! in close combat (asked about the mover and about every enemy, to know whether it projects a
//! threat zone, for every candidate move a driver, an AI or a table tool tries).
//!
//! The cache is invisible: it is not serialised, not compared, not shown, and a clone starts
//! without it. It belongs to one battle and describes that battle's elements as they are: the
//! battle empties it whenever it commits an event that changes an element (keeping, across a
//! tactical move or an outcome, only the close-combat flags of the elements standing well clear
//! of every element that moved), so a memo that exists is for the elements the battle has now. What a question could still bring
//! from elsewhere is checked cheaply before a memo answers it: the address and length of the
//! element list (a context built over another list, or over this battle's list after it
//! changed, is told apart), the address of the rules configuration and of the battlefield, and
//! the context's other parts by value (army, river, Plough, first bound, held strongholds).
//! Debug builds also keep a full copy of the elements a memo was worked out from and assert,
//! whenever a memo answers, that the elements are still those (and that its close combats are
//! those a fresh computation gives), so a mutation path that forgot to empty the cache fails
//! the tests instead of answering from a stale memo.
//!
//! With each element's flag the memo keeps the going it counts as in for combat (a table
//! look-up behind every combatant and supporter), carried across a move or an outcome for the
//! elements it did not move.
//!
//! Beside the flags, the same per-state memo keeps the list of close combats
//! ([`super::engagement::close_combats`], asked when dice are awaited, when a Fight is checked
//! and when the bound continues) and the enemy threat zones a move is checked against (built
//! for every candidate move otherwise), and each shooter's targets
//! ([`super::engagement::shooting_targets`], asked for every shot a driver tries, every
//! `awaiting` and every continuation of the bound; kept before the enemies shooting at the
//! shooter are ranked, since those depend on the shots of the bound, not on the table).
//!
//! # Import circle
//!
//! This file, [`super::movement`] and [`super::engagement`] import each other, the one circle
//! allowed inside the battle (`dbcore/tests/suite/module_graph.rs`). The context the movement
//! and engagement rules read ([`MoveContext`]) carries this memo, so that every rule asked about
//! a state answers from it; and the memo keeps the answers of both (close combats and shooting
//! targets are the engagement's types, threat zones and the strongholds held the movement's),
//! filling them by calling those rules on the same context. Breaking it would mean a memo that
//! knows none of the types it keeps, behind a trait object on the hottest path of every check.
//!
//! The uniform grid of the elements (`battle/grid.rs`) is kept with the flags, for the state
//! they are for; a state's grid starts from the grid of the
//! state it came from (its clone's source, the state before an event), which
//! `ElementGrid::refreshed` brings up to date by comparing every element, so it is never
//! stale whatever that state was. When an event is committed to a battle whose grid nothing
//! else holds (a tactical move, committed to the battle itself), the grid is brought up to date
//! in place for the state after it, by the same comparison (`ElementGrid::refreshed_owned`),
//! instead of being copied when that state is first asked. Every intermediate state a Fight's check
//! simulates (after each outcome move) gets a memo of its own, filled when first asked. Its
//! contacts between enemies start, like its grid, from those of the state it came from
//! (`KnownContacts::derived`): only the pairs with an element whose rectangle, army or status
//! differs are classified again, and debug builds compare the list with a fresh scan whenever
//! it answers.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use super::engagement::{CloseCombatPair, ShotTarget};
use super::grid::{address, ElementGrid};
use super::movement::{HeldStronghold, MoveContext};
use super::setup::ElementId;
use super::state::{CityState, CommandState, ElementState};
use crate::config::RulesConfig;
use crate::contact::ContactReport;
use crate::few::Few;
use crate::terrain::{Going, RiverState};
use crate::zones::KeptZone;

/// Who projects an enemy threat zone against a mover (§8.1): an element, by index of the
/// elements, or a held camp, city or fort, by index of the strongholds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Projector {
    Element(usize),
    Stronghold(usize),
}

/// The element list a context reads, told apart by address and length: the battle empties its
/// memo whenever an element changes, so while a memo exists the list at that address with that
/// length is the one it was worked out from (debug builds check it against a full copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ElementsAt {
    addr: usize,
    len: usize,
}

impl ElementsAt {
    fn of(elements: &[ElementState]) -> ElementsAt {
        ElementsAt {
            addr: elements.as_ptr() as usize,
            len: elements.len(),
        }
    }
}

/// Everything a move context says, kept so that an answer worked out from one context is given
/// only to a context equal to it in every part (the elements by address and length, see
/// [`ElementsAt`]; the strongholds by value).
struct Inputs {
    /// The addresses of the rules configuration and of the battlefield (compared only).
    config: usize,
    battlefield: usize,
    elements: ElementsAt,
    army: usize,
    river: Option<RiverState>,
    plough_rough: bool,
    first_bound_of_army: bool,
    strongholds: Vec<HeldStronghold>,
    /// Debug builds: the elements themselves, to assert that the memo is still theirs.
    #[cfg(debug_assertions)]
    copy: Vec<ElementState>,
}

impl Inputs {
    fn of(ctx: &MoveContext) -> Inputs {
        Inputs {
            config: address(ctx.config),
            battlefield: ctx.battlefield as *const crate::battlefield::Battlefield as usize,
            elements: ElementsAt::of(ctx.elements),
            army: ctx.army,
            river: ctx.river,
            plough_rough: ctx.plough_rough,
            first_bound_of_army: ctx.first_bound_of_army,
            strongholds: ctx.strongholds.to_vec(),
            #[cfg(debug_assertions)]
            copy: ctx.elements.to_vec(),
        }
    }

    fn describe(&self, ctx: &MoveContext) -> bool {
        let same = self.config == address(ctx.config)
            && self.battlefield
                == ctx.battlefield as *const crate::battlefield::Battlefield as usize
            && self.army == ctx.army
            && self.river == ctx.river
            && self.plough_rough == ctx.plough_rough
            && self.first_bound_of_army == ctx.first_bound_of_army
            && self.elements == ElementsAt::of(ctx.elements)
            && self.strongholds.as_slice() == ctx.strongholds;
        #[cfg(debug_assertions)]
        debug_assert!(
            !same || self.copy.as_slice() == ctx.elements,
            "a memo claimed valid was worked out from other elements"
        );
        same
    }
}

/// The per-state answers of one battle state (see the module documentation).
#[derive(Default)]
pub(super) struct StateCache {
    close_combat: OnceLock<CloseCombat>,
    /// The grid of the state this one came from, if it had one: where this state's grid starts
    /// ([`ElementGrid::refreshed`]).
    seed: Option<Arc<ElementGrid>>,
    /// The contacts between enemies of the state this one came from (or of one before it), if
    /// they were asked: where this state's start ([`KnownContacts::derived`]).
    contacts_seed: Option<Arc<KnownContacts>>,
    /// The strongholds held in this state ([`super::bound::Battle::held_strongholds`]), worked out
    /// when first asked (#15: every move checked asked again, most of a battle's time in games
    /// with camps).
    held: OnceLock<HeldMemo>,
}

/// [`super::bound::Battle::held_strongholds`] of one state, with everything it was worked out from
/// but the elements: the camps' and Cities' states, compared by value whenever it answers. The
/// elements are the state's while the memo lives (the battle empties its cache whenever an
/// element changes), told apart by address and length as the other memos tell them; debug
/// builds also compare the list with a fresh one whenever it answers.
pub(super) struct HeldMemo {
    inputs: HeldInputs,
    list: Vec<HeldStronghold>,
}

/// What the strongholds held are worked out from, read from one battle state: its elements,
/// each army's camp sacked and camp followers defending it, its commands (their own camps) and
/// its Cities.
pub(super) struct HeldSource<'a> {
    pub(super) elements: &'a [ElementState],
    pub(super) camp_sacked: &'a [bool],
    pub(super) camp_followers: &'a [bool],
    pub(super) commands: &'a [CommandState],
    pub(super) cities: &'a [CityState],
}

/// What [`HeldMemo`] was worked out from, besides the elements.
#[derive(PartialEq)]
pub(super) struct HeldInputs {
    elements: ElementsAt,
    /// Each army's camp sacked, and its camp followers still defending it.
    camps: Vec<(bool, bool)>,
    /// Each command's own camp sacked, and its camp followers still defending it.
    command_camps: Vec<(bool, bool)>,
    /// Every City's state.
    cities: Vec<CityState>,
}

impl HeldInputs {
    /// The inputs of battle state `b`.
    pub(super) fn of(b: &HeldSource<'_>) -> HeldInputs {
        HeldInputs {
            elements: ElementsAt::of(b.elements),
            camps: (0..b.camp_sacked.len().max(b.camp_followers.len()))
                .map(|a| HeldInputs::camp(b, a))
                .collect(),
            command_camps: b
                .commands
                .iter()
                .map(|c| (c.camp_sacked, c.camp_followers))
                .collect(),
            cities: b.cities.to_vec(),
        }
    }

    /// Whether these are the inputs of battle state `b` (without allocating).
    pub(super) fn describe(&self, b: &HeldSource<'_>) -> bool {
        self.elements == ElementsAt::of(b.elements)
            && self.camps.len() == b.camp_sacked.len().max(b.camp_followers.len())
            && self
                .camps
                .iter()
                .enumerate()
                .all(|(a, &c)| c == HeldInputs::camp(b, a))
            && self.command_camps.len() == b.commands.len()
            && self
                .command_camps
                .iter()
                .zip(b.commands)
                .all(|(&k, c)| k == (c.camp_sacked, c.camp_followers))
            && self.cities.as_slice() == b.cities
    }

    /// Army `a`'s camp sacked and its camp followers defending, as kept (`None` as absent).
    fn camp(b: &HeldSource<'_>, a: usize) -> (bool, bool) {
        (
            b.camp_sacked.get(a).copied().unwrap_or(true),
            b.camp_followers.get(a).copied().unwrap_or(false),
        )
    }
}

/// How far off the grid looks for elements that may touch one: the margin the fresh scan of the
/// contacts between enemies uses (`engagement.rs`), so that the elements looked at again are
/// those it would look at.
const NEAR_CONTACT: f64 = 4.0 * crate::geometry::TOLERANCE;

/// The contacts between enemies in play of one set of elements, with what they were worked out
/// from: the grid (every rectangle, to the bit) and every element's army and whether it is in
/// play. A state made from another (a clone, the state after an outcome move) starts from its
/// source's contacts: it compares the rectangles, armies and statuses with those kept and
/// classifies again only the pairs with an element that differs (#15: a Fight's simulation
/// scanned every contact of every intermediate state afresh).
pub(crate) struct KnownContacts {
    /// The grid the contacts were classified from (`None`: scanned without one; never derived).
    grid: Option<Arc<ElementGrid>>,
    /// Every element's army and whether it is in play, by index.
    who: Arc<[(usize, bool)]>,
    contacts: Vec<ContactReport>,
}

impl KnownContacts {
    /// The contacts `work` scans for the elements of `ctx`, classified with `grid` (the state's).
    fn scanned(
        ctx: &MoveContext,
        grid: Option<&Arc<ElementGrid>>,
        work: impl Fn() -> Vec<ContactReport>,
    ) -> KnownContacts {
        KnownContacts {
            grid: grid.cloned(),
            who: ctx.elements.iter().map(|e| (e.army, e.in_play())).collect(),
            contacts: work(),
        }
    }

    /// The contacts of the elements of `ctx`, whose grid is `grid`, from these (another state's):
    /// the pairs of elements unchanged kept as they are, every pair with an element whose
    /// rectangle (to the bit), army or status differs classified again over the grid's
    /// neighbours, as the fresh scan classifies them, and the list put in the fresh scan's
    /// order (by the pair's indices). `None` when they cannot be derived (another number of
    /// elements, no grid) or when so many elements differ that a fresh scan costs less.
    fn derived(
        self: &Arc<Self>,
        ctx: &MoveContext,
        grid: &Arc<ElementGrid>,
    ) -> Option<Arc<KnownContacts>> {
        let els = ctx.elements;
        let n = els.len();
        let before = self.grid.as_ref()?;
        if before.len() != n || grid.len() != n || self.who.len() != n {
            return None;
        }
        let same_grid = Arc::ptr_eq(before, grid);
        let mut changed = vec![false; n];
        let mut count = 0;
        for (i, e) in els.iter().enumerate() {
            let differs = self.who[i] != (e.army, e.in_play())
                || (!same_grid && !super::grid::same_rect(before.rect(i), grid.rect(i)));
            if differs {
                changed[i] = true;
                count += 1;
            }
        }
        if count == 0 {
            return Some(Arc::clone(self));
        }
        if 2 * count > n {
            return None;
        }
        let mut contacts: Vec<ContactReport> = self
            .contacts
            .iter()
            .filter(|r| !changed[r.a as usize] && !changed[r.b as usize])
            .cloned()
            .collect();
        for i in (0..n).filter(|&i| changed[i] && els[i].in_play()) {
            grid.find_near(grid.corners(i), NEAR_CONTACT, |j| {
                // A pair of two changed elements is classified once, from the lower index.
                if j == i
                    || (changed[j] && j < i)
                    || !els[j].in_play()
                    || els[j].army == els[i].army
                {
                    return None::<()>;
                }
                let (a, b) = (i.min(j), i.max(j));
                if let Some(contact) = crate::contact::classify_with_outlines(
                    (grid.rect(a), grid.outline(a)),
                    (grid.rect(b), grid.outline(b)),
                ) {
                    contacts.push(ContactReport {
                        a: a as u32,
                        b: b as u32,
                        same_side: false,
                        contact,
                    });
                }
                None
            });
        }
        contacts.sort_unstable_by_key(|r| (r.a, r.b));
        let who = if els
            .iter()
            .zip(self.who.iter())
            .all(|(e, w)| *w == (e.army, e.in_play()))
        {
            Arc::clone(&self.who)
        } else {
            els.iter().map(|e| (e.army, e.in_play())).collect()
        };
        Some(Arc::new(KnownContacts {
            grid: Some(Arc::clone(grid)),
            who,
            contacts,
        }))
    }
}

/// Who is in close combat, each element worked out when first asked, by index of the elements
/// of one battle state. Reached through [`MoveContext::close_combat`].
pub struct CloseCombatFlags {
    /// By element index, one byte of answers ([`IN_CLOSE_COMBAT`], [`going_shift`]): whether
    /// it is in close combat (0 not yet asked, 1 no, 2 yes) and the going it counts as in for
    /// combat with the Plough not rough and rough (each 0 not yet asked, else 1 + the going).
    flags: Vec<AtomicU8>,
    /// The close combats of the state, and what they were worked out from.
    pairs: OnceLock<(Inputs, Vec<CloseCombatPair>)>,
    /// The enemy threat zones against the moving army, and what they were worked out from.
    zones: OnceLock<(Inputs, Vec<(Projector, KeptZone)>)>,
    /// The uniform grid of the elements ([`super::grid`]), built when first asked (from `seed`
    /// when there is one).
    grid: OnceLock<Arc<ElementGrid>>,
    /// The grid of the state this one came from ([`StateCache::seed`]).
    seed: Option<Arc<ElementGrid>>,
    /// Every contact between enemies in play ([`crate::contact::scan_enemy_contacts`]), shared
    /// by the close combats and the conforming of §8.3/§12.6, and the elements it is for.
    enemy_contacts: OnceLock<(ElementsAt, Arc<KnownContacts>)>,
    /// The contacts of the state this one came from ([`StateCache::contacts_seed`]).
    contacts_seed: Option<Arc<KnownContacts>>,
    /// The boxes of the table's area outlines (#15), worked out when first asked.
    area_boxes: OnceLock<crate::battlefield::AreaBoxes>,
    /// Each element's targets as a shooter ([`super::engagement::shooting_targets`] before the
    /// enemies shooting at it are ranked), by index, each worked out when first asked, and what
    /// they were worked out from.
    shots: OnceLock<(Inputs, Box<[ShotsOf]>)>,
}

/// One element's targets as a shooter, worked out when first asked ([`CloseCombatFlags::shots`]).
type ShotsOf = OnceLock<Vec<ShotTarget>>;

/// The bits of an element's answer byte that say whether it is in close combat.
const IN_CLOSE_COMBAT: u8 = 0b11;

/// Where in an element's answer byte its combat going is kept (three bits), with the Plough
/// rough or not.
fn going_shift(plough_rough: bool) -> u32 {
    if plough_rough {
        5
    } else {
        2
    }
}

impl CloseCombatFlags {
    /// The answer for element `idx`, if already worked out.
    pub(crate) fn get(&self, idx: usize) -> Option<bool> {
        match self.flags.get(idx)?.load(Ordering::Relaxed) & IN_CLOSE_COMBAT {
            1 => Some(false),
            2 => Some(true),
            _ => None,
        }
    }

    /// Keep the answer for element `idx`. (Every answer kept is the one a fresh question gives,
    /// so setting bits that are already set changes nothing.)
    pub(crate) fn set(&self, idx: usize, v: bool) {
        if let Some(f) = self.flags.get(idx) {
            f.fetch_or(if v { 2 } else { 1 }, Ordering::Relaxed);
        }
    }

    /// The going element `idx` counts as in for combat (§3.1), with the Plough rough or not, if
    /// already worked out. It depends on the element's rectangle and kind and on the table,
    /// which the caller makes sure is the one these answers are for.
    pub(crate) fn going(&self, idx: usize, plough_rough: bool) -> Option<Going> {
        let f = self.flags.get(idx)?.load(Ordering::Relaxed);
        match (f >> going_shift(plough_rough)) & 0b111 {
            1 => Some(Going::Good),
            2 => Some(Going::Rough),
            3 => Some(Going::Bad),
            4 => Some(Going::Impassable),
            _ => None,
        }
    }

    /// Keep the combat going of element `idx` ([`Self::going`]).
    pub(crate) fn set_going(&self, idx: usize, plough_rough: bool, going: Going) {
        let code: u8 = match going {
            Going::Good => 1,
            Going::Rough => 2,
            Going::Bad => 3,
            Going::Impassable => 4,
        };
        if let Some(f) = self.flags.get(idx) {
            f.fetch_or(code << going_shift(plough_rough), Ordering::Relaxed);
        }
    }

    /// The grid of the elements of the state `ctx` describes (the state these flags are for,
    /// which [`StateCache::close_combat`] made sure of); `None` if `ctx` has another number of
    /// elements.
    pub(crate) fn grid(&self, ctx: &MoveContext) -> Option<&ElementGrid> {
        self.shared_grid(ctx).map(|g| g.as_ref())
    }

    /// [`Self::grid`], shared.
    fn shared_grid(&self, ctx: &MoveContext) -> Option<&Arc<ElementGrid>> {
        let g = self.grid.get_or_init(|| match &self.seed {
            Some(seed) => {
                let g = seed.refreshed(ctx.elements, ctx.config);
                #[cfg(debug_assertions)]
                g.assert_answers_as(&ElementGrid::new(ctx.elements, ctx.config));
                g
            }
            None => Arc::new(ElementGrid::new(ctx.elements, ctx.config)),
        });
        (g.len() == ctx.elements.len()).then_some(g)
    }

    /// The close combats of the state `ctx` describes: kept from the first question, worked out
    /// by `work` then; `None` when the memo holds another context's answer.
    pub(crate) fn close_combats(
        &self,
        ctx: &MoveContext,
        work: impl Fn() -> Vec<CloseCombatPair>,
    ) -> Option<&[CloseCombatPair]> {
        let (inputs, pairs) = self.pairs.get_or_init(|| (Inputs::of(ctx), work()));
        let valid = inputs.describe(ctx);
        debug_assert!(
            !valid || *pairs == work(),
            "memoised close combats differ from a fresh computation"
        );
        valid.then_some(pairs.as_slice())
    }

    /// The contacts between enemies in play of the state `ctx` describes, kept from the first
    /// question, worked out then from those of the state this one came from when there are
    /// some ([`KnownContacts::derived`]), else by `work` (a fresh scan); `None` when `ctx`
    /// reads another element list.
    pub(crate) fn enemy_contacts(
        &self,
        ctx: &MoveContext,
        work: impl Fn() -> Vec<ContactReport>,
    ) -> Option<&[ContactReport]> {
        let (at, known) = self.enemy_contacts.get_or_init(|| {
            let grid = self.shared_grid(ctx);
            let derived = match (&self.contacts_seed, grid) {
                (Some(seed), Some(grid)) => seed.derived(ctx, grid),
                _ => None,
            };
            let known =
                derived.unwrap_or_else(|| Arc::new(KnownContacts::scanned(ctx, grid, &work)));
            (ElementsAt::of(ctx.elements), known)
        });
        let valid = *at == ElementsAt::of(ctx.elements);
        debug_assert!(
            !valid || known.contacts == work(),
            "memoised enemy contacts differ from a fresh scan"
        );
        valid.then_some(known.contacts.as_slice())
    }

    /// The boxes of the area outlines of `ctx`'s table, kept from the first question (the
    /// battlefield's methods use them only for the table they were worked out from).
    pub(crate) fn area_boxes(&self, ctx: &MoveContext) -> &crate::battlefield::AreaBoxes {
        self.area_boxes
            .get_or_init(|| crate::battlefield::AreaBoxes::of(ctx.battlefield))
    }

    /// The targets of element `idx` as a shooter in the state `ctx` describes, kept from the
    /// first question, worked out by `work` then; `None` when the memo holds another context's
    /// answers (as [`Self::close_combats`]).
    pub(crate) fn shots(
        &self,
        ctx: &MoveContext,
        idx: usize,
        work: impl Fn() -> Vec<ShotTarget>,
    ) -> Option<&[ShotTarget]> {
        let (inputs, each) = self.shots.get_or_init(|| {
            let each = ctx.elements.iter().map(|_| OnceLock::new()).collect();
            (Inputs::of(ctx), each)
        });
        if !inputs.describe(ctx) {
            return None;
        }
        let known = each.get(idx)?.get_or_init(&work);
        debug_assert!(
            *known == work(),
            "memoised shooting targets differ from a fresh scan"
        );
        Some(known.as_slice())
    }

    /// The enemy threat zones of the state `ctx` describes, as [`Self::close_combats`] keeps
    /// the close combats: those of enemies in close combat too, which the one caller passes
    /// over among the zones near a path (#47).
    pub(crate) fn enemy_zones(
        &self,
        ctx: &MoveContext,
        work: impl Fn() -> Vec<(Projector, KeptZone)>,
    ) -> Option<&[(Projector, KeptZone)]> {
        let (inputs, zones) = self.zones.get_or_init(|| (Inputs::of(ctx), work()));
        inputs.describe(ctx).then_some(zones.as_slice())
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
    elements: ElementsAt,
    /// Debug builds: the elements themselves, to assert that the memo is still theirs.
    #[cfg(debug_assertions)]
    copy: Vec<ElementState>,
    flags: CloseCombatFlags,
}

impl CloseCombat {
    fn describes(&self, ctx: &MoveContext) -> bool {
        let same =
            self.config == address(ctx.config) && self.elements == ElementsAt::of(ctx.elements);
        #[cfg(debug_assertions)]
        debug_assert!(
            !same || self.copy.as_slice() == ctx.elements,
            "a close-combat memo claimed valid was worked out from other elements"
        );
        same
    }
}

impl StateCache {
    /// The grid this memo holds or starts from, if any: where the grid of a state made from
    /// this one starts.
    fn grid_now(&self) -> Option<Arc<ElementGrid>> {
        self.close_combat
            .get()
            .and_then(|m| m.flags.grid.get().cloned())
            .or_else(|| self.seed.clone())
    }

    /// The contacts between enemies this memo holds or starts from, if any: where those of a
    /// state made from this one start.
    fn contacts_now(&self) -> Option<Arc<KnownContacts>> {
        self.close_combat
            .get()
            .and_then(|m| m.flags.enemy_contacts.get().map(|(_, k)| Arc::clone(k)))
            .or_else(|| self.contacts_seed.clone())
    }

    /// An empty memo but for where its grid and its contacts start (this memo's).
    pub(super) fn emptied(&self) -> StateCache {
        StateCache {
            close_combat: OnceLock::new(),
            seed: self.grid_now(),
            contacts_seed: self.contacts_now(),
            held: OnceLock::new(),
        }
    }

    /// The strongholds held, from the memo when it was worked out from `inputs` (or is
    /// empty, then filled by `work`); `None` when it holds another state's, and the caller
    /// works them out afresh.
    pub(super) fn held(
        &self,
        b: &HeldSource<'_>,
        work: impl FnOnce() -> Vec<HeldStronghold>,
    ) -> Option<&[HeldStronghold]> {
        let m = match self.held.get() {
            Some(m) => m,
            None => self.held.get_or_init(|| HeldMemo {
                inputs: HeldInputs::of(b),
                list: work(),
            }),
        };
        m.inputs.describe(b).then_some(m.list.as_slice())
    }

    /// Whether every answer kept is for the state `ctx` describes (an empty cache's none are):
    /// a state adopting another's memo ([`super::bound::Battle::apply`] of a simulated action) keeps
    /// it only then, since a memo kept for another state would never be filled for this one.
    pub(super) fn all_for(&self, ctx: &MoveContext) -> bool {
        self.close_combat.get().is_none_or(|m| {
            m.describes(ctx)
                && m.flags.pairs.get().is_none_or(|(i, _)| i.describe(ctx))
                && m.flags.zones.get().is_none_or(|(i, _)| i.describe(ctx))
                && m.flags.shots.get().is_none_or(|(i, _)| i.describe(ctx))
        })
    }

    /// The close-combat flags of the state `ctx` describes: the cache's when it is empty or
    /// describes that state, `None` when it holds another state's answers (the caller then asks
    /// [`super::movement::in_close_combat`] afresh).
    pub(super) fn close_combat<'a>(&'a self, ctx: &MoveContext) -> Option<&'a CloseCombatFlags> {
        let memo = self.close_combat.get_or_init(|| CloseCombat {
            config: address(ctx.config),
            elements: ElementsAt::of(ctx.elements),
            #[cfg(debug_assertions)]
            copy: ctx.elements.to_vec(),
            flags: CloseCombatFlags {
                flags: ctx.elements.iter().map(|_| AtomicU8::new(0)).collect(),
                pairs: OnceLock::new(),
                zones: OnceLock::new(),
                grid: OnceLock::new(),
                seed: self.seed.clone(),
                enemy_contacts: OnceLock::new(),
                contacts_seed: self.contacts_seed.clone(),
                area_boxes: OnceLock::new(),
                shots: OnceLock::new(),
            },
        });
        memo.describes(ctx).then_some(&memo.flags)
    }
}

/// How far apart (BW, between axis-aligned bounding boxes) an element must stand from every
/// element an event moved, before and after the move, for its close-combat flag to be carried to
/// the next state: far beyond any contact's reach (one tolerance, looked for within four).
const CARRY_MARGIN: f64 = 0.25;

/// The axis-aligned bounding box of an element's corners: min x, min y, max x, max y.
type BoxOf = (f64, f64, f64, f64);

fn box_of(e: &ElementState, cfg: &RulesConfig) -> BoxOf {
    box_of_corners(&e.rect(cfg).corners())
}

/// [`box_of`] element `i`, `e`, read from the corners `grid` keeps when they are `e`'s (#15: a
/// sine and cosine for every element at every move otherwise). The corners kept are those of
/// [`crate::geometry::ElementRect::corners`] to the bit, so the box is the same.
fn box_of_known(
    grid: Option<&ElementGrid>,
    i: usize,
    e: &ElementState,
    cfg: &RulesConfig,
) -> BoxOf {
    match grid.and_then(|g| g.corners_if_same(i, e, cfg)) {
        Some(c) => box_of_corners(c),
        None => box_of(e, cfg),
    }
}

fn box_of_corners(c: &[crate::geometry::Point; 4]) -> BoxOf {
    c.iter().fold(
        (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ),
        |b, p| (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y)),
    )
}

/// Whether two boxes are more than [`CARRY_MARGIN`] apart along x or y (never for a box with a
/// coordinate that is not a number: the comparisons are false).
fn clear_of(a: &BoxOf, b: &BoxOf) -> bool {
    b.0 - a.2 > CARRY_MARGIN
        || a.0 - b.2 > CARRY_MARGIN
        || b.1 - a.3 > CARRY_MARGIN
        || a.1 - b.3 > CARRY_MARGIN
}

/// What a memo passes on across one event that changes elements ([`StateCache::carry`]).
pub(super) struct Carry {
    /// The answer bytes known before the event ([`CloseCombatFlags::flags`]), by index.
    flags: Vec<u8>,
    /// The elements the event moves, by index, with their boxes before it.
    changed: Few<(usize, BoxOf)>,
    /// The grid before the event, where the next state's starts ([`Carry::after`] brings it up
    /// to date in place when nothing else holds it).
    grid: Option<Arc<ElementGrid>>,
    /// The contacts between enemies before the event, where the next state's start.
    contacts: Option<Arc<KnownContacts>>,
}

impl StateCache {
    /// Before an event is committed to `elements` (the elements this memo is for): the
    /// close-combat flags it knows, when the event only moves elements already on the table (a
    /// tactical move or an outcome: `moved` holds their ids); nothing for any other event
    /// (`moved` is `None`).
    pub(super) fn carry(
        self,
        moved: Option<Few<ElementId>>,
        elements: &[ElementState],
        cfg: &RulesConfig,
    ) -> Carry {
        let grid = self.grid_now();
        let contacts = self.contacts_now();
        let nothing = Carry {
            flags: Vec::new(),
            changed: Few::Zero,
            grid,
            contacts,
        };
        let Some(memo) = self.close_combat.into_inner() else {
            return nothing;
        };
        if memo.config != address(cfg) || memo.elements != ElementsAt::of(elements) {
            return nothing;
        }
        // One or two elements for most events, kept in place (#15).
        let Some(mut ids) = moved else {
            return nothing;
        };
        ids.sort_unstable();
        let mut last = None;
        ids.retain(|&id| last.replace(id) != Some(id));
        let mut changed = Few::Zero;
        for id in ids {
            match elements.iter().position(|e| e.id == id) {
                Some(i) => {
                    let b = box_of_known(nothing.grid.as_deref(), i, &elements[i], cfg);
                    changed.push((i, b));
                }
                None => return nothing,
            }
        }
        let flags = memo
            .flags
            .flags
            .iter()
            .map(|f| f.load(Ordering::Relaxed))
            .collect();
        Carry {
            flags,
            changed,
            ..nothing
        }
    }
}

impl Carry {
    /// The memo of the state after the event, `elements` being its elements: empty but for the
    /// close-combat flags of the elements that did not move and stand more than
    /// [`CARRY_MARGIN`] clear of every moved element, before and after its move (nothing that
    /// could touch them has changed, so their answers are those a fresh question gives; debug
    /// builds check each one when it answers).
    pub(super) fn after(mut self, elements: &[ElementState], cfg: &RulesConfig) -> StateCache {
        // The grid before the event, brought up to date for the elements after it in place when
        // nothing else holds it (#15: a tactical move commits to the battle itself, whose grid is
        // then its own); shared, it stays where the new state's grid starts, copied when asked.
        let mut current = false;
        if let Some(g) = self.grid.take() {
            self.grid = Some(match ElementGrid::refreshed_owned(g, elements, cfg) {
                Ok(g) => {
                    #[cfg(debug_assertions)]
                    g.assert_answers_as(&ElementGrid::new(elements, cfg));
                    current = true;
                    g
                }
                Err(g) => g,
            });
        }
        let cache = StateCache {
            close_combat: OnceLock::new(),
            seed: self.grid.clone(),
            contacts_seed: self.contacts.clone(),
            held: OnceLock::new(),
        };
        if self.flags.len() != elements.len() || self.flags.iter().all(|&f| f == 0) {
            return cache;
        }
        let mut moved: Few<BoxOf> = Few::Zero;
        for &(i, before) in &self.changed {
            moved.push(before);
            moved.push(box_of(&elements[i], cfg));
        }
        let memo = CloseCombat {
            config: address(cfg),
            elements: ElementsAt::of(elements),
            #[cfg(debug_assertions)]
            copy: elements.to_vec(),
            flags: CloseCombatFlags {
                flags: self
                    .flags
                    .iter()
                    .enumerate()
                    .map(|(i, &f)| {
                        // An element that did not move keeps its going (its rectangle, kind
                        // and table are the same); its close-combat answer only when it
                        // stands clear of every moved box, its own box worked out once (#15).
                        let unmoved = !self.changed.iter().any(|&(c, _)| c == i);
                        let in_cc = f & IN_CLOSE_COMBAT;
                        let keep = in_cc != 0 && unmoved && {
                            let b = box_of_known(self.grid.as_deref(), i, &elements[i], cfg);
                            moved.iter().all(|m| clear_of(&b, m))
                        };
                        let going = if unmoved { f & !IN_CLOSE_COMBAT } else { 0 };
                        AtomicU8::new(if keep { in_cc } else { 0 } | going)
                    })
                    .collect(),
                pairs: OnceLock::new(),
                zones: OnceLock::new(),
                // Already this state's when brought up to date above.
                grid: match (&self.grid, current) {
                    (Some(g), true) => OnceLock::from(Arc::clone(g)),
                    _ => OnceLock::new(),
                },
                seed: self.grid,
                enemy_contacts: OnceLock::new(),
                contacts_seed: self.contacts,
                area_boxes: OnceLock::new(),
                shots: OnceLock::new(),
            },
        };
        let _ = cache.close_combat.set(memo);
        cache
    }
}

/// A clone is another state (it will usually change at once): it starts empty, but for where its
/// grid starts (this state's grid, shared, not copied).
impl Clone for StateCache {
    fn clone(&self) -> StateCache {
        self.emptied()
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

#[cfg(test)]
mod known_contacts_tests {
    use super::*;
    use crate::battle::engagement::with_enemy_contacts;
    // Army i % 2, facing as given: the grid tests' element.
    use crate::battle::grid::tests::element;
    use crate::battle::state::Status;
    use crate::battlefield::Battlefield;
    use crate::geometry::Pose;

    fn ctx<'a>(
        bf: &'a Battlefield,
        cfg: &'a RulesConfig,
        els: &'a [ElementState],
    ) -> MoveContext<'a> {
        MoveContext {
            battlefield: bf,
            config: cfg,
            elements: els,
            army: 0,
            river: None,
            plough_rough: false,
            first_bound_of_army: false,
            strongholds: &[],
            close_combat: None,
            refusals: Default::default(),
        }
    }

    /// DBA3.md §9.3 (#15): the targets a state keeps for each shooter are those a fresh scan
    /// gives, and the enemies shooting at the shooter are ranked (after those in its threat zone,
    /// before the free ones) on every question, whatever the memo holds; a context that differs
    /// from the one the memo was worked out for (another army moving) is answered afresh.
    #[test]
    fn kept_shooting_targets_are_a_fresh_scans() {
        use crate::battle::engagement::{shooting_targets, TargetPriority};
        use crate::battle::setup::{ElementId, ElementSetup};
        let el = |army: usize, id: u32, code: &str, x: f64, y: f64, facing: f64| {
            let setup = ElementSetup {
                id: ElementId(id),
                kind: code.parse().expect("a troop code"),
                pose: Pose::new(x, y, facing),
                general: false,
                contingent: None,
                dismounts_as: None,
                mobile_tower: false,
            };
            ElementState::from_setup(army, &setup)
        };
        let (cfg, bf) = (RulesConfig::default(), Battlefield::default());
        let els = vec![
            el(0, 1, "4Bw", 5.0, 5.0, 0.0),
            el(1, 101, "Sp", 4.6, 5.9, 180.0),
            el(1, 102, "Sp", 3.6, 5.3, 180.0),
            el(1, 103, "4Bw", 6.4, 7.0, 180.0),
        ];
        let cache = StateCache::default();
        let mut kept = ctx(&bf, &cfg, &els);
        kept.close_combat = cache.close_combat(&kept);
        let flags = kept.close_combat.expect("an empty memo is this state's");
        let fresh = ctx(&bf, &cfg, &els);
        let other_army = MoveContext { army: 1, ..kept };
        let id = ElementId;
        for at_it in [&[][..], &[id(103)], &[id(102), id(103)], &[id(1)]] {
            for shooter in [id(1), id(103)] {
                let want = shooting_targets(&fresh, shooter, at_it).expect("in play");
                assert_eq!(shooting_targets(&kept, shooter, at_it), Ok(want.clone()));
                assert_eq!(shooting_targets(&other_army, shooter, at_it), Ok(want));
            }
        }
        // The Bows' own list, worked out once, with 103 shooting at them: 101 in their threat
        // zone, then 103, then the nearer 102.
        let order: Vec<(ElementId, TargetPriority)> = shooting_targets(&kept, id(1), &[id(103)])
            .expect("in play")
            .iter()
            .map(|t| (t.target, t.priority))
            .collect();
        assert_eq!(
            order,
            vec![
                (id(101), TargetPriority::InThreatZone),
                (id(103), TargetPriority::ShootingAtShooter),
                (id(102), TargetPriority::Free),
            ]
        );
        let (_, each) = flags.shots.get().expect("the memo was filled");
        let filled: Vec<bool> = each.iter().map(|s| s.get().is_some()).collect();
        assert_eq!(filled, vec![true, false, false, true]);
    }

    /// DBA3.md §8.2 (#15): the contacts between enemies carried from one state to the next
    /// (`KnownContacts::derived`: the unchanged pairs kept, the pairs of a moved, lost or
    /// returned element classified again) are, state after state, the contacts a fresh scan
    /// without any grid finds; the list is shared when nothing changed, and a fresh scan is
    /// asked for when most elements changed. Each of these paths, and contacts that appear
    /// and go, must occur.
    #[test]
    fn derived_contacts_are_a_fresh_scans() {
        let cfg = RulesConfig::default();
        let bf = Battlefield::default();
        let mut next = crate::geometry::unit_stream(0x9e37_79b9_7f4a_7c15u64);
        let (mut shared, mut derived, mut rescanned, mut with_contacts, mut changes) =
            (0, 0, 0, 0, 0);
        for n in [4usize, 12, 40] {
            // Pairs face to face along a line, some a little apart: contacts made and broken.
            let mut els: Vec<ElementState> = (0..n as u32)
                .map(|i| {
                    let x = 2.0 + f64::from(i / 2) * 1.5;
                    if i % 2 == 0 {
                        element(i, x, 10.0, 0.0)
                    } else {
                        element(i, x, 10.5 + [0.0, 0.0, 0.3][i as usize % 3], 180.0)
                    }
                })
                .collect();
            let grid = Arc::new(ElementGrid::new(&els, &cfg));
            let c = ctx(&bf, &cfg, &els);
            let mut known = Arc::new(KnownContacts::scanned(&c, Some(&grid), || {
                with_enemy_contacts(&c, <[ContactReport]>::to_vec)
            }));
            for step in 0..80 {
                let before: Vec<ContactReport> = known.contacts.clone();
                let moves = match step % 10 {
                    0 => 0,
                    1 => n,
                    _ => 1 + (next() * 2.0) as usize,
                };
                for _ in 0..moves {
                    let i = (next() * n as f64) as usize % n;
                    let e = &mut els[i];
                    match (next() * 8.0) as u32 {
                        0 => e.status = Status::Afloat,
                        1 => e.status = Status::InPlay,
                        2 => e.pose.y += if i % 2 == 0 { 0.5 } else { -0.5 },
                        _ => {
                            e.pose = Pose::new(
                                e.pose.x + next() * 0.4 - 0.2,
                                e.pose.y + next() * 0.4 - 0.2,
                                e.pose.facing + [0.0, 0.0, 5.0, -5.0][(next() * 4.0) as usize % 4],
                            );
                        }
                    }
                }
                let grid = grid_of(&known).refreshed(&els, &cfg);
                let c = ctx(&bf, &cfg, &els);
                let fresh = with_enemy_contacts(&c, <[ContactReport]>::to_vec);
                known = match known.derived(&c, &grid) {
                    Some(d) => {
                        if Arc::ptr_eq(&d, &known) {
                            shared += 1;
                        } else {
                            derived += 1;
                        }
                        assert_eq!(d.contacts, fresh, "{n} elements, step {step}");
                        d
                    }
                    None => {
                        rescanned += 1;
                        Arc::new(KnownContacts::scanned(&c, Some(&grid), || fresh.clone()))
                    }
                };
                if !fresh.is_empty() {
                    with_contacts += 1;
                }
                if fresh != before {
                    changes += 1;
                }
            }
        }
        assert!(
            shared > 10 && derived > 100 && rescanned > 10,
            "{shared} {derived} {rescanned}"
        );
        assert!(
            with_contacts > 100 && changes > 20,
            "{with_contacts} {changes}"
        );
    }

    fn grid_of(k: &KnownContacts) -> Arc<ElementGrid> {
        Arc::clone(k.grid.as_ref().expect("scanned with a grid"))
    }
}
