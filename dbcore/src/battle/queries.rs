//! Engine queries (#15): answers a driver, an AI or a table tool would otherwise find by trial
//! and error, each worked out with [`Battle::check`] itself, so an answer is never one the
//! referee would refuse.
//!
//! * [`Battle::farthest_step`]: the farthest step on a bearing for an element or a group (§7.2,
//!   §7.3), with the step just beyond it that the referee refuses.
//! * [`Battle::legal_contacts`]: every way an element may close into contact with an enemy now
//!   (§8.2–§8.4), each checked.
//! * [`Battle::payable_moves`]: the elements whose move the PIPs left still pay for (§6.3).
//! * `Battle::may_move_alone` (for the driver and the opponent): whether any move of an element
//!   alone may be accepted at all, told without a path (#47: a driver asked about every path of
//!   an element in close combat or short of PIPs, and had each refused).
//!
//! Readings where the digest is silent:
//! * A step **on a bearing** is what a player means by "move 1.5 BW on bearing 90": one straight
//!   leg of the front-edge midpoint, the element ending faced along the bearing (the notation's
//!   `ID move D @ B`). A group keeps its formation, so it steps only straight ahead (its facing)
//!   or straight back (the reverse bearing, §7.4); any other bearing has no step.
//! * The farthest step is found by bisection over the exact check, to [`STEP_RESOLUTION`]. The
//!   check is monotone along a straight leg for most refusals (distance, going, blocking, the
//!   table edge: a longer leg sweeps everything a shorter one does), but not for all: §8.1 lets a
//!   mover end its move touching the front edge of the element whose threat zone it entered but
//!   not stop short inside it, a mover ending astride a wall or half over a river is refused where
//!   a longer step is not, and an element ending in contact out of line may be conformed where a
//!   shorter step only touches. Where the check is not monotone the answer is still a step the
//!   check accepts with a step [`STEP_RESOLUTION`] or less beyond it that the check refuses (a
//!   boundary of the legal steps), not necessarily the farthest of all.
//! * Contacts are tried only against enemies that could be reached at all: the mover's centre
//!   moves at most its good-going move plus its own depth (a turn swings the centre by at most
//!   the depth, §7.2 measures the front corners), and the end position touches the target, so an
//!   enemy whose bounding circle is farther off than that is refused by §7.3 without being tried.

use crate::geometry::{Point, Pose, TOLERANCE};

use crate::terrain::TerrainFeature;

use super::bound::{Action, Battle, Event, Phase};
use super::checked::CheckedAction;
use super::legal::LegalMove;
use super::movement::{in_close_combat, ContactWanted, Flank, GroupStep, MoveOrder, MovePlan};
use super::setup::ElementId;
use super::state::{ElementState, Status};

/// How finely [`Battle::farthest_step`] bisects, BW (1/100 BW, well under a millimetre on a
/// 40 mm base).
pub const STEP_RESOLUTION: f64 = 0.01;

/// The most PIPs a tactical move of one element alone costs (§6.3): one, and one for each of
/// the two extras (unwieldy or garrisoning; beyond command, sheltered or general lost).
const MOST_A_LONE_MOVE_COSTS: u8 = 3;

/// The least PIPs a tactical move of one element alone costs off a road (§6.3): its one.
const LEAST_A_LONE_MOVE_COSTS: u8 = 1;

/// Every contact a mover may ask for, in the order [`Battle::legal_contacts`] tries them.
pub const CONTACTS: [ContactWanted; 6] = [
    ContactWanted::Front,
    ContactWanted::Flank(Flank::Left),
    ContactWanted::Flank(Flank::Right),
    ContactWanted::Rear,
    ContactWanted::Overlap(Flank::Left),
    ContactWanted::Overlap(Flank::Right),
];

/// The answer of [`Battle::farthest_step`].
#[derive(Debug, Clone, PartialEq)]
pub struct FarthestStep {
    /// The length of the step, BW (along the bearing; for a group, straight ahead or back).
    pub distance: f64,
    /// A longer step on the same bearing that [`Battle::check`] refuses, at most
    /// [`STEP_RESOLUTION`] beyond `distance`: the proof that this is where the legal steps end.
    pub refused_beyond: f64,
    /// The step itself, checked against this state: [`Battle::apply_checked`] commits it.
    pub action: CheckedAction,
}

/// One way of closing into contact, as [`Battle::legal_contacts`] lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct LegalContact {
    /// The enemy element contacted.
    pub target: ElementId,
    /// How the mover ends against it (§8.2).
    pub contact: ContactWanted,
    /// Where the mover ends: its front-edge midpoint and facing.
    pub to: Pose,
    /// The distance counted against its move, BW (§7.2).
    pub distance: f64,
    /// The move, checked against this state: [`Battle::apply_checked`] commits it.
    pub action: CheckedAction,
}

/// A group's formation moves as one; a bearing is ahead, back or neither.
fn group_direction(facing: f64, bearing: f64) -> Option<f64> {
    let diff = (bearing - facing).rem_euclid(360.0);
    if !(1e-6..=360.0 - 1e-6).contains(&diff) {
        Some(1.0)
    } else if (diff - 180.0).abs() < 1e-6 {
        Some(-1.0)
    } else {
        None
    }
}

impl Battle {
    /// The move order of a step of `distance` BW on `bearing` (see the module documentation), or
    /// `None` when `ids` is empty, names an element not in the battle, or is a group and the
    /// bearing is neither its facing nor the reverse.
    fn step_order(&self, ids: &[ElementId], bearing: f64, distance: f64) -> Option<MoveOrder> {
        match ids {
            [] => None,
            [id] => {
                let here = self.element(*id)?.pose.front_mid();
                let to: Point = here + Point::from_bearing(bearing) * distance;
                Some(MoveOrder::Element {
                    id: *id,
                    path: vec![Pose::new(to.x, to.y, bearing)],
                })
            }
            [first, ..] => {
                let sign = group_direction(self.element(*first)?.pose.facing, bearing)?;
                Some(MoveOrder::Group {
                    ids: ids.to_vec(),
                    steps: vec![GroupStep::Advance {
                        distance: sign * distance,
                    }],
                })
            }
        }
    }

    /// The farthest step on `bearing` (degrees clockwise from north) the referee accepts now for
    /// one element (`ids` of one) or a group (several ids), with the step just beyond that it
    /// refuses; `None` when no step of at least [`STEP_RESOLUTION`] is accepted (not the movement
    /// phase, no PIPs, blocked, in close combat, a group asked for a bearing other than straight
    /// ahead or back). See the module documentation for what a step is and where the check is
    /// not monotone along it.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, ElementId};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// battle.apply(Action::RollPips { die: DieScore::new(3).unwrap() }).unwrap();
    /// // Blades facing north move at most 2 BW in good going (§7.3).
    /// let step = battle.farthest_step(&[ElementId(5)], 0.0).unwrap();
    /// assert!((step.distance - 2.0).abs() < 1e-9);
    /// assert!(battle.check(step.action.action()).is_ok());
    /// battle.apply_checked(step.action).unwrap();
    /// ```
    pub fn farthest_step(&self, ids: &[ElementId], bearing: f64) -> Option<FarthestStep> {
        let cfg = &self.setup.config;
        // No move is longer than the longest good-going move of its movers (§7.3).
        let mut reach: f64 = 0.0;
        for id in ids {
            reach = reach.max(cfg.move_distance(self.element(*id)?.kind, false));
        }
        let attempt = |d: f64| -> Option<CheckedAction> {
            let order = self.step_order(ids, bearing, d)?;
            self.legal_action(Action::Move { order })
        };
        if reach < STEP_RESOLUTION {
            return None;
        }
        // lo: the longest step known to be accepted (0: none yet), with its token; hi: a step
        // known to be refused. The reach is tried first, then (were it accepted) a step just
        // beyond it, which §7.3 refuses; should it not, the bound doubles a few times.
        let (mut lo, mut best) = (0.0, None);
        let mut hi = reach;
        let mut widenings = 0;
        while let Some(a) = attempt(hi) {
            lo = hi;
            best = Some(a);
            hi = if widenings == 0 {
                hi + STEP_RESOLUTION
            } else {
                2.0 * hi
            };
            widenings += 1;
            if widenings > 6 {
                return None;
            }
        }
        while hi - lo > STEP_RESOLUTION + 1e-12 {
            let mid = 0.5 * (lo + hi);
            match attempt(mid) {
                Some(a) => {
                    lo = mid;
                    best = Some(a);
                }
                None => hi = mid,
            }
        }
        best.map(|action| FarthestStep {
            distance: lo,
            refused_beyond: hi,
            action,
        })
    }

    /// Every way element `id` may close into contact with an enemy now (§8.2–§8.4), each move
    /// checked: enemies in battle order, each with the contacts of [`CONTACTS`] in that order.
    /// Empty when it may not move into contact with anyone (or is not in the battle, not of the
    /// moving army, or it is not the movement phase).
    pub fn legal_contacts(&self, id: ElementId) -> Vec<LegalContact> {
        let cfg = &self.setup.config;
        let Some(me) = self.element(id) else {
            return Vec::new();
        };
        let mine = me.rect(cfg);
        let reach = cfg.move_distance(me.kind, false) + mine.depth;
        let radius = |w: f64, d: f64| 0.5 * w.hypot(d);
        let mut out = Vec::new();
        for target in self.elements() {
            if target.army == me.army || !target.in_play() {
                continue;
            }
            let theirs = target.rect(cfg);
            let apart = mine.centre().distance(theirs.centre());
            let limit = reach
                + radius(mine.width, mine.depth)
                + radius(theirs.width, theirs.depth)
                + 2.0 * TOLERANCE;
            if apart > limit {
                continue;
            }
            for contact in CONTACTS {
                let order = MoveOrder::IntoContact {
                    ids: vec![id],
                    target: target.id,
                    contact,
                };
                let Some(action) = self.legal_action(Action::Move { order }) else {
                    continue;
                };
                let moved = action.events().iter().find_map(|e| match e {
                    Event::Moved {
                        moves, distance, ..
                    } => moves.iter().find(|m| m.id == id).map(|m| (m.to, *distance)),
                    _ => None,
                });
                if let Some((to, distance)) = moved {
                    out.push(LegalContact {
                        target: target.id,
                        contact,
                        to,
                        distance,
                        action,
                    });
                }
            }
        }
        out
    }

    /// The elements of the moving army whose ordinary move the PIPs left still pay for (§6.3;
    /// in Big Battle and Giant the PIPs of the element's own command, §14.4), with what it
    /// costs, in battle order: [`Battle::legal`]'s moves that are affordable. Whether a given
    /// path is legal is [`Battle::check`]'s (or [`Battle::farthest_step`]'s) to say; a first
    /// full move along a road may cost less than listed (§6.3).
    pub fn payable_moves(&self) -> Vec<LegalMove> {
        self.legal()
            .moves
            .into_iter()
            .filter(|m| m.affordable)
            .collect()
    }

    /// Whether [`Battle::check`] may accept some tactical move of element `id` alone (a path,
    /// `MoveOrder::Element`, or a move into contact, `MoveOrder::IntoContact` with `id` alone):
    /// `false` only when it refuses every one of them whatever the path or the contact, so that
    /// a caller trying such moves may pass over the element and find the same first move
    /// accepted (#47).
    ///
    /// Every such move is refused, before or after its path is planned, when it is not the
    /// movement phase or a flight is due (§14.5); when the element is unknown, of the other
    /// army, afloat, lost or sacking (§4.2); when it is in close combat (§7.1, refused by the
    /// planning of a path and of a contact alike); and when the PIPs its command has left do not
    /// pay for it (§6.3). What a lone move costs depends on the element and the state, not on
    /// the path, with two exceptions that only make it cheaper, both allowed for: a first full
    /// move along a road is free (so on a table with a road this answers `true` rather than
    /// price the path), and scythed chariots may be waived their extra PIP into contact (so the
    /// cost is taken as a move into contact, never more than any other).
    pub(crate) fn may_move_alone(&self, id: ElementId) -> bool {
        let Some(e) = self.lone_mover(id) else {
            return false;
        };
        let has_road = self
            .setup
            .battlefield
            .features
            .iter()
            .any(|f| matches!(f, TerrainFeature::Road(_)));
        let order = MoveOrder::Element {
            id,
            path: Vec::new(),
        };
        // The PIPs the paying command has left, off a road: a lone move there costs at least
        // its one PIP (§6.3), so with none left it is not paid for. Asked before the close
        // combat, since either refuses every move (#47: in Big Battle and Giant the driver asks
        // about every element of a command whose PIPs are spent).
        let available = if has_road {
            None
        } else {
            let Ok(command) = self.paying_command(&order) else {
                return false;
            };
            let available = command.map_or(self.pips, |c| c.pips);
            if available < LEAST_A_LONE_MOVE_COSTS {
                return false;
            }
            Some(available)
        };
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        let Some(idx) = self.elements.iter().position(|x| x.id == id) else {
            return false;
        };
        if in_close_combat(&ctx, idx) {
            return false;
        }
        // On a table with a road, a first full move along it is free (§6.3): paid for.
        let Some(available) = available else {
            return true;
        };
        // A lone move costs its one PIP and at most two extras (§6.3 (a) and one of (b)): with
        // three left it is paid for, without pricing it (the command distance is the costly part).
        if available >= MOST_A_LONE_MOVE_COSTS {
            return true;
        }
        // Beyond its one PIP a lone move pays at most one extra of §6.3 (a) and one of (b), and
        // none in the moving army's first bound. (a) is cheap to tell, (b) (the command
        // distance) is not: with two PIPs left and no (a), or one left and an (a), the answer
        // needs no (b) (#47: pricing was a tenth of a driven battle).
        if self.first_bound_of_active() {
            return true;
        }
        let without_command =
            LEAST_A_LONE_MOVE_COSTS + u8::from(self.costs_unwieldy_extra(&[e], true));
        if available != without_command {
            // Room for a (b) extra too, or not even for the move without one.
            return available > without_command;
        }
        let plan = MovePlan::lone_unpathed(id, true);
        let cost = self.pip_cost_boxed(&order, &plan, ctx.close_combat.map(|m| m.area_boxes(&ctx)));
        cost.total <= available
    }

    /// Element `id` when it is one whose lone move [`Battle::may_move_alone`] goes on to ask
    /// about: the movement phase with no flight due, and an element of the moving army in play,
    /// not afloat and not sacking a camp (§4.2).
    fn lone_mover(&self, id: ElementId) -> Option<&ElementState> {
        if self.phase != Phase::Movement || self.flight_due() {
            return None;
        }
        let e = self.element(id)?;
        let may = e.army == self.active
            && e.status != Status::Afloat
            && e.in_play()
            && self.sacking(id).is_none();
        may.then_some(e)
    }
}

#[cfg(test)]
mod may_move_alone_agreement {
    use super::*;
    use crate::battle::setup::ValidatedSetup;
    use crate::battlefield::Variant;
    use crate::driver::{big_battle_setup, demo_setup, play_validated};

    /// [`Battle::may_move_alone`] as it stood before the shortcuts of #47: the close combat
    /// asked first, then the move priced whatever the PIPs left.
    fn priced(b: &Battle, id: ElementId) -> bool {
        if b.lone_mover(id).is_none() {
            return false;
        }
        let strongholds = b.held_strongholds_kept();
        let ctx = b.move_context(&strongholds);
        let idx = b
            .elements
            .iter()
            .position(|x| x.id == id)
            .expect("in the battle");
        if in_close_combat(&ctx, idx) {
            return false;
        }
        let bf = &b.setup.battlefield;
        if bf
            .features
            .iter()
            .any(|f| matches!(f, TerrainFeature::Road(_)))
        {
            return true;
        }
        let order = MoveOrder::Element {
            id,
            path: Vec::new(),
        };
        let Ok(command) = b.paying_command(&order) else {
            return false;
        };
        let available = command.map_or(b.pips, |c| c.pips);
        let plan = MovePlan::lone_unpathed(id, true);
        b.pip_cost(&order, &plan).total <= available
    }

    // DBA3.md §6.3 (what a move costs) and §14.4 (each command's own PIPs): the shortcuts that
    // answer without pricing the move (no PIPs left, two left and no unwieldy extra, one left
    // and an unwieldy extra, the first bound) give the answer pricing gives, for every element
    // at every state of driven standard, Big Battle and Giant battles.
    #[test]
    fn may_move_alone_is_the_priced_answer() {
        let (mut yes, mut no) = (0, 0);
        for (setup, seeds, bounds) in [
            (demo_setup(), 1..5, 40),
            (big_battle_setup(Variant::BigBattle), 1..3, 12),
            (big_battle_setup(Variant::Giant), 1..3, 12),
        ] {
            let validated = ValidatedSetup::new(setup).unwrap();
            for seed in seeds {
                let played = play_validated(&validated, seed, bounds).unwrap();
                let mut b = Battle::start(&validated);
                for action in &played.record.actions {
                    for e in b.elements() {
                        let want = priced(&b, e.id);
                        assert_eq!(b.may_move_alone(e.id), want, "{:?} at {action:?}", e.id);
                        if want {
                            yes += 1;
                        } else {
                            no += 1;
                        }
                    }
                    b.apply(action.clone()).unwrap();
                }
            }
        }
        assert!(yes > 1_000 && no > 10_000, "{yes} may move, {no} may not");
    }
}
