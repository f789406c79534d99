//! Concrete legal actions: a finite list of actions, each accepted by [`Battle::check`] as it
//! stands, for a player, a program or a web table to choose from instead of trying actions to see
//! which are refused ([`Battle::legal_actions`]).
//!
//! Moves are continuous, so the list is a **basis**, not every legal action: a player may always
//! ask [`Battle::check`] about any other path. What it holds, by phase:
//!
//! * **Awaiting PIPs**: the roll with the dice given (one die, or one a command in Big Battle and
//!   Giant, §6.2, §14.4).
//! * **Movement**: the river's die when it may be diced (§3.5); for each element whose move the
//!   PIPs left pay for (§6.3) and that is not in close combat ([`Battle::legal`]'s moves):
//!   - the farthest step the referee accepts ([`Battle::farthest_step`]) on each bearing of
//!     [`STEP_BEARINGS`], relative to the element's facing (straight ahead; turned to the left,
//!     the right and about, ending facing the way it went), and straight towards the front-edge
//!     midpoint of the nearest enemy in play, ending facing it;
//!   - the farthest step straight back, keeping its facing;
//!   - every legal contact ([`Battle::legal_contacts`]: front, flanks, rear and overlaps, with
//!     conforming);
//!   - dismounting (§7.9) and passing through a City gate to gate (§4.2), when accepted;
//!   - moves along a road (§7.5, §6.3): from the road's vertex nearest the element, onwards to
//!     as far as its move reaches, in the direction that closes on the nearest enemy, and the
//!     same for an element that has moved already and may move again only along a road;
//!   - for each **group** of two or more side-by-side elements facing the same way (§7.4), its
//!     farthest step straight ahead and straight back; for each **column** of elements lined up
//!     one behind the other, its leader's full and half move straight ahead;
//!   - Big Battle and Giant: holding each element of a demoralised command that it may hold,
//!     and the flight of the demoralised commands when it is due (§14.5; until it is made, no
//!     tactical move is accepted, so none is listed);
//!   - ending the movement.
//! * **Shooting**: every shot of every shooter at each target it may choose (§9.1, §9.3), alone;
//!   also with the target shooting back when that is accepted (§17.24). Supporting shooters
//!   (§9.4) and recoiling only one's own depth (§12.1) are options a player adds to a listed shot.
//! * **Close combat**: each combat still to fight, in the order the battle gives (§10.2).
//! * **Finished**: nothing.
//!
//! A sally from a City (§4.2) and a littoral landing (§5.5) are placed by the player and are not
//! listed; [`Battle::legal`] says when they may be made. Actions that need dice carry the scores
//! given to [`Battle::legal_actions`] (a shot or combat its first two, a PIP roll the first one or
//! the first one a command), so that every action listed is accepted as it stands.

use crate::dice::DieScore;
use crate::geometry::{Point, Pose};
use crate::terrain::{Road, TerrainFeature};

use super::bound::{Action, Battle, DiceRequest, Phase};
use super::checked::CheckedAction;
use super::legal::LegalMove;
use super::movement::{GroupStep, MoveOrder};
use super::setup::ElementId;
use super::state::ElementState;

/// The bearings of the steps listed for an element, in degrees clockwise from its facing:
/// straight ahead, turned right, turned about and turned left.
pub const STEP_BEARINGS: [f64; 4] = [0.0, 90.0, 180.0, 270.0];

/// Steps shorter than this, BW, are not listed: a step of a hundredth of a BW is no move.
const SHORTEST_STEP: f64 = 0.05;

impl Battle {
    /// The concrete legal actions now (see the module documentation for what the list covers),
    /// each accepted by [`Battle::check`] as it stands, in a stable order. `dice` are the scores
    /// thrown for this decision: actions that need dice take theirs from it in order, and those
    /// for which too few are given are left out.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle};
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let four = [DieScore::new(4).unwrap(), DieScore::new(2).unwrap()];
    /// let first = battle.legal_actions(&four);
    /// assert_eq!(first, vec![Action::RollPips { die: four[0] }]);
    /// battle.apply(first[0].clone()).unwrap();
    /// let moves = battle.legal_actions(&four);
    /// assert!(moves.len() > 12 && moves.contains(&Action::EndMovement));
    /// for a in &moves {
    ///     assert!(battle.check(a).is_ok());
    /// }
    /// ```
    pub fn legal_actions(&self, dice: &[DieScore]) -> Vec<Action> {
        self.legal_actions_checked(dice)
            .into_iter()
            .map(CheckedAction::into_action)
            .collect()
    }

    /// [`Battle::legal_actions`], each with its events, as tokens [`Battle::apply_checked`]
    /// commits without checking them again.
    pub fn legal_actions_checked(&self, dice: &[DieScore]) -> Vec<CheckedAction> {
        let candidates: Vec<Action> = match self.phase {
            Phase::Finished { .. } => Vec::new(),
            Phase::Movement => return self.movement_actions(dice),
            Phase::AwaitingPips => match self.awaiting() {
                Some(DiceRequest::CommandPips { commands, .. }) => {
                    if dice.len() >= commands.len() {
                        vec![Action::RollCommandPips {
                            dice: dice[..commands.len()].to_vec(),
                        }]
                    } else {
                        Vec::new()
                    }
                }
                _ => dice
                    .first()
                    .map(|&die| Action::RollPips { die })
                    .into_iter()
                    .collect(),
            },
            Phase::Shooting => match pair(dice) {
                None => Vec::new(),
                Some(roll) => {
                    let mut v = Vec::new();
                    for s in self.legal().shots {
                        for target in s.targets {
                            for shoots_back in [false, true] {
                                v.push(Action::Shoot {
                                    shooter: s.shooter,
                                    target,
                                    support: Vec::new(),
                                    dice: roll,
                                    recoil_own_depth: Vec::new(),
                                    shoots_back,
                                });
                            }
                        }
                    }
                    v
                }
            },
            Phase::CloseCombat => match pair(dice) {
                None => Vec::new(),
                Some(roll) => self
                    .pending_combats()
                    .into_iter()
                    .map(|p| Action::Fight {
                        a: p.a,
                        b: p.b,
                        dice: roll,
                        recoil_own_depth: Vec::new(),
                        c_in_c_bonus: Vec::new(),
                    })
                    .collect(),
            },
        };
        candidates
            .into_iter()
            .filter_map(|a| self.legal_action(a))
            .collect()
    }

    /// The concrete legal actions of one element (or, for a group or column it leads, of those
    /// too) in the movement phase: what a table draws when the player picks the element up.
    pub fn legal_actions_of(&self, id: ElementId) -> Vec<Action> {
        self.legal_actions_of_checked(id)
            .into_iter()
            .map(CheckedAction::into_action)
            .collect()
    }

    /// [`Battle::legal_actions_of`], each with its events (where the movers end), as tokens
    /// [`Battle::apply_checked`] commits without checking them again.
    pub fn legal_actions_of_checked(&self, id: ElementId) -> Vec<CheckedAction> {
        if self.phase != Phase::Movement {
            return Vec::new();
        }
        let legal = self.legal();
        let Some(lm) = legal.moves.iter().find(|m| m.id == id) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        self.element_actions(lm, &mut out);
        out
    }

    fn movement_actions(&self, dice: &[DieScore]) -> Vec<CheckedAction> {
        let legal = self.legal();
        let mut out = Vec::new();
        if legal.may_dice_river {
            if let Some(&die) = dice.first() {
                out.extend(self.legal_action(Action::DiceRiver { die }));
            }
        }
        for lm in &legal.moves {
            self.element_actions(lm, &mut out);
        }
        let movers: Vec<(ElementId, f64)> = legal
            .moves
            .iter()
            .filter(|m| m.affordable && !m.road_only && m.move_number == 1)
            .map(|m| (m.id, m.reach_good))
            .collect();
        for group in side_by_side(self, &movers) {
            let facing = self.element(group[0]).map_or(0.0, |e| e.pose.facing);
            for bearing in [facing, facing + 180.0] {
                if let Some(step) = self.farthest_step(&group, bearing.rem_euclid(360.0)) {
                    if step.distance >= SHORTEST_STEP {
                        out.push(step.action);
                    }
                }
            }
        }
        for column in column_moves(self, &movers) {
            out.extend(self.legal_action(column));
        }
        out.extend(
            road_moves(self, &legal.moves, false)
                .into_iter()
                .filter_map(|a| self.legal_action(a)),
        );
        out.extend(self.hold_actions());
        out.extend(self.legal_action(Action::Flee));
        out.extend(self.legal_action(Action::EndMovement));
        out
    }

    /// The listed actions of one element that may move (see the module documentation).
    fn element_actions(&self, lm: &LegalMove, out: &mut Vec<CheckedAction>) {
        let Some(e) = self.element(lm.id) else {
            return;
        };
        if lm.road_only {
            out.extend(
                road_moves(self, std::slice::from_ref(lm), true)
                    .into_iter()
                    .filter_map(|a| self.legal_action(a)),
            );
            return;
        }
        if !lm.affordable {
            return;
        }
        let mut bearings: Vec<f64> = STEP_BEARINGS
            .iter()
            .map(|b| (e.pose.facing + b).rem_euclid(360.0))
            .collect();
        if let Some(aim) = nearest_enemy(self, e) {
            let to = aim - e.pose.front_mid();
            if to.length() > 1e-9 {
                // Kept even when it is within a hair of a bearing above: a step that ends facing
                // the enemy exactly is another move from one that keeps the facing.
                let b = to.x.atan2(to.y).to_degrees().rem_euclid(360.0);
                if !bearings.contains(&b) {
                    bearings.push(b);
                }
            }
        }
        for b in bearings {
            if let Some(step) = self.farthest_step(&[lm.id], b) {
                if step.distance >= SHORTEST_STEP {
                    out.push(step.action);
                }
            }
        }
        if let Some(step) = self.farthest_step_back(lm.id) {
            out.push(step);
        }
        out.extend(self.legal_contacts(lm.id).into_iter().map(|c| c.action));
        if lm.may_dismount {
            out.extend(self.legal_action(Action::Move {
                order: MoveOrder::Dismount { id: lm.id },
            }));
        }
        for &city in &lm.through_cities {
            out.extend(self.legal_action(Action::Move {
                order: MoveOrder::ThroughCity {
                    ids: vec![lm.id],
                    city,
                },
            }));
        }
    }

    /// The farthest step straight back the referee accepts for one element, keeping its facing,
    /// found as [`Battle::farthest_step`] finds a step on a bearing.
    fn farthest_step_back(&self, id: ElementId) -> Option<CheckedAction> {
        let e = self.element(id)?;
        let reach = self.setup.config.move_distance(e.kind, false);
        let back = e.pose.forward() * -1.0;
        let from = e.pose.front_mid();
        let facing = e.pose.facing;
        let attempt = |d: f64| {
            let to = from + back * d;
            self.legal_action(Action::Move {
                order: MoveOrder::Element {
                    id,
                    path: vec![Pose::new(to.x, to.y, facing)],
                },
            })
        };
        let (distance, action) = farthest(reach, attempt)?;
        (distance >= SHORTEST_STEP).then_some(action)
    }

    /// Holding each element of a demoralised command that may be held (§14.5).
    fn hold_actions(&self) -> Vec<CheckedAction> {
        let mut out = Vec::new();
        for c in self.commands() {
            if c.army != self.active || !c.demoralised || c.removed || c.pips == 0 {
                continue;
            }
            for id in c.elements.iter().filter(|id| !c.held.contains(id)) {
                out.extend(self.legal_action(Action::Hold { ids: vec![*id] }));
            }
        }
        out
    }
}

/// The first two dice, as a shot or a combat takes them.
fn pair(dice: &[DieScore]) -> Option<[DieScore; 2]> {
    match dice {
        [a, b, ..] => Some([*a, *b]),
        _ => None,
    }
}

/// The farthest accepted step up to `reach` (bisection to [`super::queries::STEP_RESOLUTION`]
/// over `attempt`, as [`Battle::farthest_step`] does): its length and its checked action.
pub(super) fn farthest(
    reach: f64,
    attempt: impl Fn(f64) -> Option<CheckedAction>,
) -> Option<(f64, CheckedAction)> {
    use super::queries::STEP_RESOLUTION;
    if reach < STEP_RESOLUTION {
        return None;
    }
    if let Some(a) = attempt(reach) {
        return Some((reach, a));
    }
    let (mut lo, mut hi, mut best) = (0.0, reach, None);
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
    best.map(|a| (lo, a))
}

/// The front-edge midpoint of the enemy in play nearest `e`'s (ties to the lower id).
fn nearest_enemy(b: &Battle, e: &ElementState) -> Option<Point> {
    let here = e.pose.front_mid();
    b.elements
        .iter()
        .filter(|o| o.army != e.army && o.in_play())
        .map(|o| (o.pose.front_mid().distance(here), o.id, o.pose.front_mid()))
        .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
        .map(|(_, _, p)| p)
}

/// An element's single-leg move to a pose.
pub(crate) fn element_to(id: ElementId, dest: Point, facing: f64) -> Action {
    Action::Move {
        order: MoveOrder::Element {
            id,
            path: vec![Pose::new(dest.x, dest.y, facing)],
        },
    }
}

/// Whether `q` stands straight behind `p`, its front edge against `p`'s rear edge, facing the
/// same way (a file of a column, §7.4).
fn stands_behind(p: &ElementState, q: &ElementState) -> bool {
    let df = (q.pose.facing - p.pose.facing).rem_euclid(360.0);
    let d = p.pose.front_mid() - q.pose.front_mid();
    !(0.5..=359.5).contains(&df)
        && d.cross(p.pose.forward()).abs() < 0.05
        && d.dot(p.pose.forward()) > 0.1
        && d.dot(p.pose.forward()) < 1.05
}

/// Columns (§7.4): an element with friends lined up straight behind it leads them forward, the
/// whole file for one PIP, full and half its reach (`movers`: ids with their good-going reach).
pub(crate) fn column_moves(b: &Battle, movers: &[(ElementId, f64)]) -> Vec<Action> {
    let mut out = Vec::new();
    let els: Vec<&ElementState> = movers.iter().filter_map(|m| b.element(m.0)).collect();
    for lead in &els {
        let mut file = vec![lead.id];
        let mut tail = *lead;
        while let Some(next) = els
            .iter()
            .find(|q| !file.contains(&q.id) && stands_behind(tail, q))
        {
            file.push(next.id);
            tail = next;
        }
        if file.len() < 2 {
            continue;
        }
        // The file is led by the element nobody stands in front of.
        if els
            .iter()
            .any(|q| q.id != lead.id && stands_behind(q, lead))
        {
            continue;
        }
        let reach = file
            .iter()
            .filter_map(|id| movers.iter().find(|m| m.0 == *id).map(|m| m.1))
            .fold(f64::INFINITY, f64::min);
        for step in [reach, reach * 0.5] {
            if step < 0.25 {
                continue;
            }
            let dest = lead.pose.front_mid() + lead.pose.forward() * step;
            out.push(Action::Move {
                order: MoveOrder::Column {
                    ids: file.clone(),
                    path: vec![Pose::new(dest.x, dest.y, lead.pose.facing)],
                },
            });
        }
    }
    out
}

/// Runs of side-by-side elements facing the same way among `movers` (two or more each), in
/// battle order: the groups that may advance as one (§7.4).
pub(crate) fn side_by_side(b: &Battle, movers: &[(ElementId, f64)]) -> Vec<Vec<ElementId>> {
    let els: Vec<&ElementState> = movers.iter().filter_map(|m| b.element(m.0)).collect();
    let n = els.len();
    let adjacent = |p: &ElementState, q: &ElementState| {
        let df = (p.pose.facing - q.pose.facing).rem_euclid(360.0);
        if df > 0.5 && df < 359.5 {
            return false;
        }
        let d = q.pose.front_mid() - p.pose.front_mid();
        let along = d.dot(p.pose.forward()).abs();
        let across = d.cross(p.pose.forward()).abs();
        along < 0.05 && across < 1.05
    };
    let mut comp: Vec<usize> = (0..n).collect();
    fn root(c: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while c[r] != r {
            r = c[r];
        }
        c[i] = r;
        r
    }
    for i in 0..n {
        for j in i + 1..n {
            if adjacent(els[i], els[j]) {
                let (ri, rj) = (root(&mut comp, i), root(&mut comp, j));
                comp[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    let mut out: Vec<Vec<ElementId>> = Vec::new();
    for r in 0..n {
        let ids: Vec<ElementId> = (0..n)
            .filter(|&i| root(&mut comp, i) == r)
            .map(|i| els[i].id)
            .collect();
        if ids.len() >= 2 {
            out.push(ids);
        }
    }
    out
}

/// Moves along a road (§7.5, §6.3): for an element on a road, the road's next points towards
/// the nearest enemy, as far as a first move reaches (free of PIPs when wholly along it) or, for
/// an element that has moved already, the second move that only a road allows. With
/// `road_only_too`, elements that may move again only along a road are included.
pub(crate) fn road_moves(b: &Battle, moves: &[LegalMove], road_only_too: bool) -> Vec<Action> {
    let roads: Vec<&Road> = b
        .setup()
        .battlefield
        .features
        .iter()
        .filter_map(|f| match f {
            TerrainFeature::Road(r) => Some(r),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if roads.is_empty() {
        return out;
    }
    let me = b.active_army();
    let enemies: Vec<&ElementState> = b
        .elements()
        .iter()
        .filter(|e| e.army != me && e.in_play())
        .collect();
    for lm in moves
        .iter()
        .filter(|m| (m.affordable || m.cost.total == 0) && (road_only_too || !m.road_only))
    {
        let Some(e) = b.element(lm.id) else { continue };
        let here = e.pose.front_mid();
        let Some(aim) = enemies
            .iter()
            .map(|t| t.pose.front_mid())
            .min_by(|p, q| p.distance(here).total_cmp(&q.distance(here)))
        else {
            continue;
        };
        for road in &roads {
            out.extend(along_road(lm, here, aim, road));
        }
    }
    out
}

/// The moves of one element along one road (see [`road_moves`]).
fn along_road(lm: &LegalMove, here: Point, aim: Point, road: &Road) -> Vec<Action> {
    let mut out = Vec::new();
    // The road's vertex nearest the element, then onwards in the direction that closes on the
    // enemy.
    let Some((start, _)) = road
        .path
        .iter()
        .enumerate()
        .map(|(i, p)| (i, p.distance(here)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
    else {
        return out;
    };
    if road.path[start].distance(here) > 0.75 {
        return out;
    }
    let forward: Vec<Point> = road.path[start..].to_vec();
    let backward: Vec<Point> = road.path[..=start].iter().rev().copied().collect();
    let way = if forward.last().map_or(f64::INFINITY, |p| p.distance(aim))
        <= backward.last().map_or(f64::INFINITY, |p| p.distance(aim))
    {
        forward
    } else {
        backward
    };
    let mut path = Vec::new();
    let mut from = here;
    let mut left = lm.reach_good;
    for p in way.into_iter().skip(1) {
        let d = p.distance(from);
        if d < 1e-6 {
            continue;
        }
        let to = p - from;
        let facing = to.x.atan2(to.y).to_degrees().rem_euclid(360.0);
        let step = d.min(left);
        let dest = from + Point::from_bearing(facing) * step;
        path.push(Pose::new(dest.x, dest.y, facing));
        left -= step;
        from = dest;
        out.push(Action::Move {
            order: MoveOrder::Element {
                id: lm.id,
                path: path.clone(),
            },
        });
        if left <= 1e-6 {
            break;
        }
    }
    out
}

/// A group's single advance, as the notation's `group D` gives it.
pub(crate) fn group_advance(ids: Vec<ElementId>, distance: f64) -> Action {
    Action::Move {
        order: MoveOrder::Group {
            ids,
            steps: vec![GroupStep::Advance { distance }],
        },
    }
}
