//! Outcome moves (DBA3.md §12, §8.5, §13.1): recoil, push-back, flight, pursuit, turning to face,
//! built from element states directly, and a property test that no outcome move leaves two
//! elements overlapping.

use dbcore::battle::{
    apply_effects, flee, pursue, recoil, turn_to_face, Effect, ElementId, ElementSetup,
    ElementState, MoveContext,
};
use dbcore::battlefield::{Battlefield, Board, BoardEdge};
use dbcore::config::RulesConfig;
use dbcore::geometry::{convex_gap, ElementRect, Point, Polygon, Pose, TOLERANCE};
use dbcore::terrain::{AreaFeature, AreaKind, River, TerrainFeature};
use proptest::prelude::*;

/// Element `id` of `army` (0 or 1) at front-edge midpoint (x, y) facing `facing`.
fn el(army: usize, id: u32, code: &str, x: f64, y: f64, facing: f64) -> ElementState {
    ElementState::from_setup(
        army,
        &ElementSetup {
            id: ElementId(id),
            kind: code.parse().unwrap(),
            pose: Pose::new(x, y, facing),
            general: false,
            contingent: None,
            dismounts_as: None,
            mobile_tower: false,
        },
    )
}

struct Table {
    bf: Battlefield,
    cfg: RulesConfig,
}

impl Table {
    fn open() -> Table {
        Table {
            bf: Battlefield::new(Board::default()),
            cfg: RulesConfig::default(),
        }
    }
    fn with(features: Vec<TerrainFeature>) -> Table {
        let mut t = Table::open();
        t.bf.features = features;
        t
    }
    fn ctx<'a>(&'a self, elements: &'a [ElementState]) -> MoveContext<'a> {
        MoveContext {
            battlefield: &self.bf,
            config: &self.cfg,
            elements,
            army: 0,
            river: None,
            plough_rough: false,
            first_bound_of_army: false,
            strongholds: &[],
            close_combat: None,
            refusals: Default::default(),
        }
    }
}

fn after(elements: &[ElementState], fx: &[Effect]) -> Vec<ElementState> {
    let mut v = elements.to_vec();
    apply_effects(&mut v, fx);
    v
}

fn pose_of(v: &[ElementState], id: u32) -> Pose {
    v.iter().find(|e| e.id == ElementId(id)).unwrap().pose
}

fn in_play(v: &[ElementState], id: u32) -> bool {
    v.iter().find(|e| e.id == ElementId(id)).unwrap().in_play()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-3
}

fn destroyed(fx: &[Effect], id: u32) -> bool {
    fx.iter()
        .any(|f| matches!(f, Effect::Destroyed { id: i, .. } if *i == ElementId(id)))
}

fn lost_off(fx: &[Effect], id: u32) -> bool {
    fx.iter()
        .any(|f| matches!(f, Effect::LostOffTable { id: i, .. } if *i == ElementId(id)))
}

fn overlapping_pair(v: &[ElementState], cfg: &RulesConfig) -> Option<(ElementId, ElementId)> {
    let live: Vec<_> = v.iter().filter(|e| e.in_play()).collect();
    for (a, x) in live.iter().enumerate() {
        for y in &live[a + 1..] {
            if convex_gap(&x.rect(cfg).corners(), &y.rect(cfg).corners()) < -TOLERANCE {
                return Some((x.id, y.id));
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Recoil distance
// ---------------------------------------------------------------------------------------------

#[test]
fn foot_recoil_half_bw_or_its_depth_if_less() {
    // DBA3.md §12.1, §17.40: foot recoil the smaller of their depth and ½ BW.
    let t = Table::open();
    let v = vec![
        el(0, 1, "6Bd", 3.0, 5.0, 0.0), // depth 1: ½ BW
        el(0, 2, "Ps", 5.0, 5.0, 0.0),  // depth ½: its depth, ½ BW
        el(0, 3, "4Bd", 7.0, 5.0, 0.0), // depth 3/8: its depth
    ];
    for (id, want) in [(1, 0.5), (2, 0.5), (3, 0.375)] {
        let fx = recoil(&t.ctx(&v), ElementId(id), None, false, true);
        let p = pose_of(&after(&v, &fx), id);
        assert!(close(p.y, 5.0 - want), "{id}: {p:?}");
        assert!(close(p.facing, 0.0));
    }
}

#[test]
fn mounted_recoil_one_bw_or_its_depth_by_choice() {
    // DBA3.md §12.1, §17.40: mounted 1 BW, or at the owner's choice its depth if less than 1 BW.
    let t = Table::open();
    let v = vec![el(0, 1, "Cv", 5.0, 5.0, 0.0), el(0, 2, "El", 8.0, 5.0, 0.0)];
    let full = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(close(pose_of(&full, 1).y, 4.0));
    let short = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, false));
    assert!(close(pose_of(&short, 1).y, 4.25));
    // An Elephant's depth is 1 BW: the choice makes no difference.
    let el_short = after(&v, &recoil(&t.ctx(&v), ElementId(2), None, false, false));
    assert!(close(pose_of(&el_short, 2).y, 4.0));
}

#[test]
fn shot_from_behind_turns_to_face_its_rear_then_recoils() {
    // DBA3.md §9.6, §12.1: a target shot from behind turns to face its rear before recoiling.
    let t = Table::open();
    let v = vec![el(0, 1, "4Bw", 5.0, 5.0, 0.0)];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, true, true);
    assert!(matches!(fx[0], Effect::TurnedToFace { .. }));
    let p = pose_of(&after(&v, &fx), 1);
    // Turned: front edge where its rear edge was (y = 4.5), facing south; then ½ BW back, north.
    assert!(close(p.facing, 180.0));
    assert!(close(p.y, 5.0), "{p:?}");
}

#[test]
fn war_wagons_never_recoil() {
    // DBA3.md §12.1: War Wagons never recoil.
    let t = Table::open();
    let v = vec![el(0, 1, "WWg", 5.0, 5.0, 0.0)];
    assert!(recoil(&t.ctx(&v), ElementId(1), None, false, true).is_empty());
}

// ---------------------------------------------------------------------------------------------
// What stops or destroys a recoil
// ---------------------------------------------------------------------------------------------

#[test]
fn recoil_blocked_by_enemy_behind_is_destroyed() {
    // DBA3.md §12.1: already in contact behind with enemy, it cannot recoil and is destroyed.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        // Enemy facing away, its rear edge on the Spear's rear edge (y = 4.625).
        el(1, 101, "Sp", 5.0, 4.25, 180.0),
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(destroyed(&fx, 1), "{fx:?}");
    assert!(!destroyed(&fx, 101));
}

#[test]
fn recoil_stops_at_enemy_met_behind() {
    // DBA3.md §12.1: the recoil stops when the rear edge meets enemy.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "Sp", 5.0, 4.05, 180.0), // rear edge at 4.425: 0.2 behind
    ];
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(in_play(&out, 1));
    assert!(close(pose_of(&out, 1).y, 4.8));
}

#[test]
fn recoil_with_enemy_front_edge_on_its_flank_is_destroyed() {
    // DBA3.md §12.1: an enemy front edge touching its side means it is destroyed instead.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 102, "Sp", 5.0, 6.0, 180.0), // the frontal opponent
        el(1, 101, "Cv", 4.5, 4.8, 90.0),  // front edge along the Spear's left side
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), Some(ElementId(102)), false, true);
    assert!(destroyed(&fx, 1), "{fx:?}");
}

#[test]
fn recoil_into_waterway_stops_at_the_shore() {
    // DBA3.md §12.1, §3.4: terrain it may not enter stops the recoil.
    let t = Table::with(vec![TerrainFeature::Waterway(
        dbcore::terrain::Waterway::uniform(BoardEdge::South, 2.0, 0.0),
    )]);
    let v = vec![el(0, 1, "Cv", 5.0, 3.0, 0.0)]; // rear edge at 2.25
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(close(pose_of(&out, 1).y, 2.75), "{:?}", pose_of(&out, 1));
}

#[test]
fn recoil_reaching_the_board_edge_stops_there_in_play() {
    // DBA3.md §12.1, §17.66: a recoil that meets a battlefield edge stops there; the element
    // stays in play.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 0.5, 0.0), // rear edge 0.125 from the edge, recoils 0.375
        el(0, 3, "Sp", 11.0, 0.75, 0.0), // exactly enough room
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(!lost_off(&fx, 1) && !destroyed(&fx, 1), "{fx:?}");
    let out = after(&v, &fx);
    assert!(in_play(&out, 1));
    assert!(close(pose_of(&out, 1).y, 0.375), "{:?}", pose_of(&out, 1));
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(3), None, false, true));
    assert!(in_play(&out, 3));
    assert!(close(pose_of(&out, 3).y, 0.375));
}

#[test]
fn recoil_already_touching_the_board_edge_is_destroyed() {
    // DBA3.md §12.1, §17.66: one that must recoil while already touching the edge is destroyed,
    // not lost over the edge.
    let t = Table::open();
    let v = vec![el(0, 2, "Sp", 8.0, 0.375, 0.0)]; // rear edge on the edge
    let fx = recoil(&t.ctx(&v), ElementId(2), None, false, true);
    assert!(destroyed(&fx, 2), "{fx:?}");
    assert!(!lost_off(&fx, 2), "{fx:?}");
    // The same for mounted recoiling on the west edge.
    let v = vec![el(0, 4, "Cv", 0.75, 5.0, 90.0)]; // faces east, rear edge on x = 0
    let fx = recoil(&t.ctx(&v), ElementId(4), None, false, true);
    assert!(destroyed(&fx, 4) && !lost_off(&fx, 4), "{fx:?}");
}

// ---------------------------------------------------------------------------------------------
// Interpenetration and push-back
// ---------------------------------------------------------------------------------------------

#[test]
fn psiloi_recoil_through_spears_to_the_clear_space_behind() {
    // DBA3.md §12.1: Ps pass through anything but Ps, to the clear space behind the friend.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Ps", 5.0, 5.0, 0.0),
        el(0, 2, "Sp", 5.0, 4.5, 0.0), // touching its rear; rear edge at 4.125
    ];
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(close(pose_of(&out, 1).y, 4.125), "{:?}", pose_of(&out, 1));
    assert_eq!(pose_of(&out, 2), v[1].pose);
    assert_eq!(overlapping_pair(&out, &t.cfg), None);
}

#[test]
fn mounted_recoil_through_spears_but_not_pikes() {
    // DBA3.md §12.1: mounted pass through anything except Pk, Hd, El.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Cv", 5.0, 5.0, 0.0),
        el(0, 2, "Sp", 5.0, 4.25, 0.0), // touching the Cavalry's rear
    ];
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(close(pose_of(&out, 1).y, 3.875), "{:?}", pose_of(&out, 1));

    // Pikes facing another way: neither passed nor pushed (§17.41), so they block it.
    let v = vec![
        el(0, 1, "Cv", 5.0, 5.0, 0.0),
        el(0, 2, "4Pk", 4.8125, 3.45, 90.0), // its north side 0.3 behind the Cavalry
    ];
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(in_play(&out, 1));
    assert!(close(pose_of(&out, 1).y, 4.7), "{:?}", pose_of(&out, 1));
    assert_eq!(pose_of(&out, 2), v[1].pose);
}

#[test]
fn mounted_cannot_pass_pikes_and_pushes_them_until_blocked() {
    // DBA3.md §12.1, §12.2: Pikes facing the same way are pushed back; pikes that cannot move
    // (enemy behind) block the recoil, and a recoiler that cannot move at all is destroyed.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Cv", 5.0, 5.0, 0.0),
        el(0, 2, "4Pk", 5.0, 4.25, 0.0),    // rear edge at 3.875
        el(1, 101, "4Pk", 5.0, 3.5, 180.0), // enemy, rear edge on the Pikes' rear
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(destroyed(&fx, 1), "{fx:?}");
    assert!(!destroyed(&fx, 2));
}

#[test]
fn spear_recoil_pushes_blades_back() {
    // DBA3.md §12.1, §12.2: Sp may not pass through Bd, so the Blades are pushed back just enough.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(0, 2, "4Bd", 5.0, 4.625, 0.0),
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    // The pushed friend moves first, so no intermediate state overlaps.
    assert_eq!(fx[0].id(), ElementId(2));
    let out = after(&v, &fx);
    assert!(close(pose_of(&out, 1).y, 4.625));
    assert!(close(pose_of(&out, 2).y, 4.25));
}

#[test]
fn push_back_chain() {
    // DBA3.md §12.2, §17.41: a pushed friend pushes further friends in line.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(0, 2, "Sp", 5.0, 4.625, 0.0),
        el(0, 3, "Sp", 5.0, 4.25, 0.0),
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    let order: Vec<_> = fx.iter().map(|f| f.id().0).collect();
    assert_eq!(order, vec![3, 2, 1]);
    let out = after(&v, &fx);
    for (id, y) in [(1, 4.625), (2, 4.25), (3, 3.875)] {
        assert!(close(pose_of(&out, id).y, y), "{id}");
    }
}

#[test]
fn friend_pushed_to_the_board_edge_stops_there() {
    // DBA3.md §12.2, §17.66: a friend pushed back to a battlefield edge stops there in play, and
    // the recoiler stops against it.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 0.95, 0.0),
        el(0, 2, "Sp", 5.0, 0.575, 0.0), // rear edge 0.2 from the edge
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(!lost_off(&fx, 2) && !destroyed(&fx, 2), "{fx:?}");
    let out = after(&v, &fx);
    assert!(close(pose_of(&out, 2).y, 0.375), "{:?}", pose_of(&out, 2));
    assert!(close(pose_of(&out, 1).y, 0.75), "{:?}", pose_of(&out, 1));
    assert_eq!(overlapping_pair(&out, &t.cfg), None);
}

#[test]
fn friend_pushed_while_touching_the_board_edge_is_destroyed() {
    // DBA3.md §12.2, §17.66: a friend that must be pushed back while already touching the edge
    // is destroyed (not lost over the edge), and the recoil goes on.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 0.75, 0.0),
        el(0, 2, "Sp", 5.0, 0.375, 0.0), // rear edge on the edge
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(destroyed(&fx, 2) && !lost_off(&fx, 2), "{fx:?}");
    let out = after(&v, &fx);
    assert!(in_play(&out, 1));
    assert!(close(pose_of(&out, 1).y, 0.375), "{:?}", pose_of(&out, 1));
}

#[test]
fn pushed_psiloi_push_the_next_friend_and_never_jump_through_it() {
    // DBA3.md §12.1, §12.2, §17.41: Ps may not pass Ps, so the recoiling Ps pushes the Ps behind
    // it; that pushed Ps moves only the distance needed and pushes the Spear behind it in turn,
    // rather than interpenetrating it as a recoiler would.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Ps", 5.0, 5.0, 0.0),
        el(0, 2, "Ps", 5.0, 4.5, 0.0), // touching the recoiler's rear
        el(0, 3, "Sp", 5.0, 4.0, 0.0), // touching the pushed Ps's rear
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    let out = after(&v, &fx);
    for (id, y) in [(1, 4.5), (2, 4.0), (3, 3.5)] {
        assert!(
            close(pose_of(&out, id).y, y),
            "{id}: {:?}",
            pose_of(&out, id)
        );
    }
    assert_eq!(overlapping_pair(&out, &t.cfg), None);
    // A Blade recoiling into Ps (which it may not pass) with Blades behind: the Ps are pushed and
    // push the Blades, they do not jump through them.
    let v = vec![
        el(0, 1, "4Bd", 5.0, 5.0, 0.0),
        el(0, 2, "Ps", 5.0, 4.625, 0.0),
        el(0, 3, "4Bd", 5.0, 4.125, 0.0),
    ];
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    for (id, y) in [(1, 4.625), (2, 4.25), (3, 3.75)] {
        assert!(
            close(pose_of(&out, id).y, y),
            "{id}: {:?}",
            pose_of(&out, id)
        );
    }
}

#[test]
fn elephants_cannot_be_pushed_and_block() {
    // DBA3.md §12.1: Elephants and War Wagons cannot be pushed back.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(0, 2, "El", 5.0, 4.425, 0.0), // 0.2 behind
    ];
    let out = after(&v, &recoil(&t.ctx(&v), ElementId(1), None, false, true));
    assert!(close(pose_of(&out, 1).y, 4.8));
    assert_eq!(pose_of(&out, 2), v[1].pose);
}

#[test]
fn elephant_recoil_destroys_a_friend_met() {
    // DBA3.md §12.1: recoiling Elephants destroy friends or enemy met, then finish the recoil.
    let t = Table::open();
    let v = vec![
        el(0, 1, "El", 5.0, 5.0, 0.0), // rear edge at 4.0
        el(0, 2, "Sp", 5.0, 3.8, 0.0), // 0.2 behind
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(destroyed(&fx, 2));
    let out = after(&v, &fx);
    assert!(close(pose_of(&out, 1).y, 4.0));
    assert!(!in_play(&out, 2));
}

#[test]
fn two_elephants_meeting_destroy_each_other() {
    // DBA3.md §12.1: two Elephants meeting in a recoil are both destroyed.
    let t = Table::open();
    let v = vec![
        el(0, 1, "El", 5.0, 5.0, 0.0),
        el(1, 101, "El", 5.0, 3.5, 180.0), // its rear 0.5 behind
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(destroyed(&fx, 1) && destroyed(&fx, 101), "{fx:?}");
}

#[test]
fn pushed_friend_with_enemy_on_its_flank_is_destroyed() {
    // DBA3.md §12.1: a pushed-back element with an enemy front edge on its side is destroyed
    // instead of moving; the recoil then goes on.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(0, 2, "Sp", 5.0, 4.625, 0.0),
        el(1, 101, "Cv", 5.5, 4.0, 270.0), // front edge along the pushed Spear's right side
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), None, false, true);
    assert!(destroyed(&fx, 2), "{fx:?}");
    let out = after(&v, &fx);
    assert!(close(pose_of(&out, 1).y, 4.625));
}

#[test]
fn elephants_recoiling_from_a_city_are_destroyed() {
    // DBA3.md §12.1, §4.7: Elephants recoiling from the defenders of a city or fort are destroyed.
    let t = Table::with(vec![TerrainFeature::Area(AreaFeature::rectangle(
        AreaKind::City,
        Point::new(4.0, 6.0),
        Point::new(6.0, 8.0),
    ))]);
    let v = vec![
        el(0, 1, "El", 5.0, 6.0, 0.0),
        el(1, 101, "Sp", 5.0, 6.0, 180.0), // the garrison, inside the walls
    ];
    let fx = recoil(&t.ctx(&v), ElementId(1), Some(ElementId(101)), false, true);
    assert!(destroyed(&fx, 1), "{fx:?}");
}

// ---------------------------------------------------------------------------------------------
// Flight
// ---------------------------------------------------------------------------------------------

#[test]
fn flee_turns_about_and_makes_a_full_move() {
    // DBA3.md §12.4: turn 180° in place, then the full tactical move (Cv 4 BW in good going).
    let t = Table::open();
    let v = vec![el(0, 1, "Cv", 7.5, 7.5, 0.0)];
    let fx = flee(&t.ctx(&v), ElementId(1), BoardEdge::South);
    assert!(matches!(fx[0], Effect::TurnedToFace { .. }));
    let p = pose_of(&after(&v, &fx), 1);
    assert!(close(p.facing, 180.0));
    assert!(close(p.x, 7.5) && close(p.y, 6.75 - 4.0), "{p:?}");
}

#[test]
fn flee_from_rough_going_moves_its_rough_distance() {
    // DBA3.md §12.4, §7.3: the move for the going it starts in (Cv 1 BW in rough).
    let t = Table::with(vec![TerrainFeature::Area(AreaFeature::rectangle(
        AreaKind::Rocky,
        Point::new(6.0, 6.0),
        Point::new(9.0, 9.0),
    ))]);
    let v = vec![el(0, 1, "Cv", 7.5, 7.5, 0.0)];
    let p = pose_of(
        &after(&v, &flee(&t.ctx(&v), ElementId(1), BoardEdge::South)),
        1,
    );
    assert!(close(p.y, 5.75), "{p:?}");
}

#[test]
fn flee_pivots_along_a_side_edge_towards_its_base() {
    // DBA3.md §12.4: meeting a side edge it pivots and continues along it towards its own base.
    let t = Table::open();
    // Faces east; flees west, meets the west edge after 0.25 BW.
    let v = vec![el(0, 1, "Cv", 1.0, 7.5, 90.0)];
    let fx = flee(&t.ctx(&v), ElementId(1), BoardEdge::South);
    let out = after(&v, &fx);
    assert!(in_play(&out, 1));
    let p = pose_of(&out, 1);
    assert!(close(p.facing, 180.0), "{p:?}");
    assert!(close(p.x, 0.5));
    // 0.25 to the edge, 1 for the pivot (§7.2 furthest front corner), 2.75 along the edge.
    assert!(close(p.y, 7.0 - 2.75), "{p:?}");
}

#[test]
fn flee_over_the_base_edge_is_lost() {
    // DBA3.md §12.4, §13.1: any part crossing an edge other than a side edge loses it.
    let t = Table::open();
    let v = vec![el(0, 1, "Cv", 7.5, 3.0, 0.0)];
    let fx = flee(&t.ctx(&v), ElementId(1), BoardEdge::South);
    assert!(lost_off(&fx, 1), "{fx:?}");
    assert!(!in_play(&after(&v, &fx), 1));
}

#[test]
fn flee_stops_at_friends_it_may_not_pass_and_passes_psiloi() {
    // DBA3.md §12.4, §7.6: stopped by friends it may not pass through; mounted pass Psiloi.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Cv", 7.5, 7.5, 0.0), // after turning, front edge at 6.75 facing south
        el(0, 2, "Sp", 7.5, 4.75, 0.0), // front (north) edge at 4.75: 2 BW ahead
    ];
    let out = after(&v, &flee(&t.ctx(&v), ElementId(1), BoardEdge::South));
    assert!(close(pose_of(&out, 1).y, 4.75), "{:?}", pose_of(&out, 1));
    assert_eq!(overlapping_pair(&out, &t.cfg), None);

    let v = vec![
        el(0, 1, "Cv", 7.5, 7.5, 0.0),
        el(0, 2, "Ps", 7.5, 5.75, 0.0),
    ];
    let out = after(&v, &flee(&t.ctx(&v), ElementId(1), BoardEdge::South));
    assert!(close(pose_of(&out, 1).y, 2.75), "{:?}", pose_of(&out, 1));
    assert_eq!(overlapping_pair(&out, &t.cfg), None);
}

#[test]
fn flee_stops_at_enemy_and_fleeing_elephants_destroy_both() {
    // DBA3.md §12.4: stopped by enemy; fleeing El or SCh blocked by an element: both destroyed.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Cv", 7.5, 7.5, 0.0),
        el(1, 101, "Sp", 7.5, 5.0, 180.0), // rear edge at 5.375
    ];
    let out = after(&v, &flee(&t.ctx(&v), ElementId(1), BoardEdge::South));
    assert!(close(pose_of(&out, 1).y, 5.375));
    let v = vec![
        el(0, 1, "El", 7.5, 7.5, 0.0),
        el(1, 101, "Sp", 7.5, 5.0, 180.0),
    ];
    let fx = flee(&t.ctx(&v), ElementId(1), BoardEdge::South);
    assert!(destroyed(&fx, 1) && destroyed(&fx, 101), "{fx:?}");
}

#[test]
fn flee_stops_at_bad_going_except_light_horse() {
    // DBA3.md §12.4 (d): bad going it is not already in stops it, except Ps and LH.
    let t = Table::with(vec![TerrainFeature::Area(AreaFeature::rectangle(
        AreaKind::Wood,
        Point::new(6.0, 2.0),
        Point::new(9.0, 4.75),
    ))]);
    let v = vec![el(0, 1, "Cv", 7.5, 7.5, 0.0), el(0, 2, "LH", 3.0, 7.5, 0.0)];
    let out = after(&v, &flee(&t.ctx(&v), ElementId(1), BoardEdge::South));
    assert!(close(pose_of(&out, 1).y, 4.75), "{:?}", pose_of(&out, 1));
    // The same for Light Horse with the wood in its way: it goes on into the wood.
    let v = vec![
        el(0, 1, "Cv", 12.0, 7.5, 0.0),
        el(0, 2, "LH", 7.5, 7.5, 0.0),
    ];
    let out = after(&v, &flee(&t.ctx(&v), ElementId(2), BoardEdge::South));
    assert!(close(pose_of(&out, 2).y, 2.75), "{:?}", pose_of(&out, 2));
}

#[test]
fn flee_into_a_river_is_destroyed() {
    // DBA3.md §12.4, §17.39: a fleeing element entering any river is destroyed.
    let t = Table::with(vec![TerrainFeature::River(River {
        course: vec![Point::new(0.0, 4.0), Point::new(15.0, 4.0)],
        width: 0.5,
        state: None,
    })]);
    let v = vec![el(0, 1, "Cv", 7.5, 7.5, 0.0)];
    let fx = flee(&t.ctx(&v), ElementId(1), BoardEdge::South);
    assert!(destroyed(&fx, 1), "{fx:?}");
}

#[test]
fn flee_with_enemy_on_its_flank_is_destroyed() {
    // DBA3.md §12.4: destroyed if an enemy front edge touches its side or rear as flight begins.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "Cv", 4.5, 4.8, 90.0),
    ];
    assert!(destroyed(
        &flee(&t.ctx(&v), ElementId(1), BoardEdge::South),
        1
    ));
}

#[test]
fn flee_that_cannot_move_at_all_is_destroyed() {
    // DBA3.md §12.4: after turning, unable to move at all: destroyed.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),   // rear edge at 4.625
        el(0, 2, "Sp", 5.0, 4.625, 0.0), // a friend right behind it, not passable
    ];
    assert!(destroyed(
        &flee(&t.ctx(&v), ElementId(1), BoardEdge::South),
        1
    ));
}

// ---------------------------------------------------------------------------------------------
// Pursuit
// ---------------------------------------------------------------------------------------------

#[test]
fn pursuit_one_bw_straight_ahead() {
    // DBA3.md §12.5: Knights pursue 1 BW straight ahead.
    let t = Table::open();
    let v = vec![el(0, 1, "3Kn", 5.0, 5.0, 0.0)];
    let p = pose_of(&after(&v, &pursue(&t.ctx(&v), ElementId(1), 1.0)), 1);
    assert!(close(p.y, 6.0) && close(p.x, 5.0));
}

#[test]
fn pursuit_lines_up_with_an_enemy_met() {
    // DBA3.md §12.5, §8.3: a pursuer whose front edge meets enemy lines up with it at once.
    let t = Table::open();
    let v = vec![
        el(0, 1, "3Kn", 5.0, 5.0, 0.0),
        el(1, 101, "Sp", 5.3, 5.5, 180.0), // offset 0.3, 0.5 ahead
    ];
    let out = after(&v, &pursue(&t.ctx(&v), ElementId(1), 1.0));
    let p = pose_of(&out, 1);
    assert!(
        close(p.x, 5.3) && close(p.y, 5.5) && close(p.facing, 0.0),
        "{p:?}"
    );
    assert_eq!(overlapping_pair(&out, &t.cfg), None);
}

#[test]
fn no_pursuit_over_an_edge_or_into_bad_going() {
    // DBA3.md §12.5: no pursuit that would cross a battlefield edge or enter bad going other than
    // marsh or gully; marsh does not stop it.
    let t = Table::with(vec![
        TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::Wood,
            Point::new(2.0, 5.5),
            Point::new(4.0, 7.0),
        )),
        TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::Marsh,
            Point::new(6.0, 5.5),
            Point::new(8.0, 7.0),
        )),
    ]);
    let v = vec![
        el(0, 1, "3Kn", 5.0, 14.5, 0.0),
        el(0, 2, "3Kn", 3.0, 5.0, 0.0),
        el(0, 3, "3Kn", 7.0, 5.0, 0.0),
    ];
    assert!(pursue(&t.ctx(&v), ElementId(1), 1.0).is_empty());
    assert!(pursue(&t.ctx(&v), ElementId(2), 1.0).is_empty());
    let p = pose_of(&after(&v, &pursue(&t.ctx(&v), ElementId(3), 1.0)), 3);
    assert!(close(p.y, 6.0));
}

#[test]
fn winner_enters_a_captured_city() {
    // DBA3.md §4.7, §12.5: one winner moves into the city whose defenders it destroyed (foot ½ BW);
    // Elephants do not (§17.38).
    let city = AreaFeature::rectangle(AreaKind::City, Point::new(4.0, 6.0), Point::new(6.0, 8.0));
    let outline = city.outline.clone();
    let t = Table::with(vec![TerrainFeature::Area(city)]);
    let v = vec![
        el(0, 1, "4Bd", 5.0, 6.0, 0.0),
        el(0, 2, "El", 4.0, 5.0, 0.0),
    ];
    let out = after(
        &v,
        &dbcore::battle::enter_stronghold(&t.ctx(&v), ElementId(1), 0.5, &outline),
    );
    assert!(close(pose_of(&out, 1).y, 6.5));
    assert!(dbcore::battle::enter_stronghold(&t.ctx(&v), ElementId(2), 1.0, &outline).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Turning to face
// ---------------------------------------------------------------------------------------------

#[test]
fn turn_to_face_a_flank_contactor() {
    // DBA3.md §8.5: an element contacted on its side by an enemy front edge turns to face it.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "Cv", 4.5, 4.8, 90.0),
    ];
    let fx = turn_to_face(&t.ctx(&v), ElementId(1), ElementId(101)).expect("turns");
    let out = after(&v, &[fx]);
    let p = pose_of(&out, 1);
    assert!(
        close(p.x, 4.5) && close(p.y, 4.8) && close(p.facing, 270.0),
        "{p:?}"
    );
    let me = out[0].rect(&t.cfg);
    let them = out[1].rect(&t.cfg);
    let c = dbcore::contact::classify_contact(&me, &them).unwrap();
    assert!(c.kind == dbcore::contact::ContactKind::FrontToFront && c.lined_up);
}

#[test]
fn no_turn_when_already_in_front_contact() {
    // DBA3.md §8.5: no turn when already in full front-edge contact with enemy.
    let t = Table::open();
    let v = vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 102, "Sp", 5.0, 5.0, 180.0),
        el(1, 101, "Cv", 4.5, 4.8, 90.0),
    ];
    assert_eq!(turn_to_face(&t.ctx(&v), ElementId(1), ElementId(101)), None);
}

#[test]
fn effects_serialise_with_an_effect_tag() {
    // Effects are data for the battle's log: serde, snake_case, tagged "effect".
    let fx = Effect::Destroyed {
        id: ElementId(3),
        reason: "§12.1".into(),
    };
    let s = serde_json::to_string(&fx).unwrap();
    assert!(s.contains("\"effect\":\"destroyed\""), "{s}");
    assert_eq!(serde_json::from_str::<Effect>(&s).unwrap(), fx);
}

// ---------------------------------------------------------------------------------------------
// Property: no overlaps
// ---------------------------------------------------------------------------------------------

const CODES: [&str; 10] = [
    "Sp", "4Bd", "Ps", "Cv", "LH", "El", "4Pk", "3Kn", "6Bd", "WWg",
];

/// One random element: army, code, position, facing (in eighths of a turn), and whether it stands
/// in line behind the previous one (same facing, `gap` behind it, shifted `lateral` sideways) or
/// against its side, so that lines, columns and push-back chains are common.
type Spec = (usize, usize, f64, f64, u8, u8, f64, f64);

fn layout() -> impl Strategy<Value = Vec<Spec>> {
    prop::collection::vec(
        (
            0usize..2,
            0usize..CODES.len(),
            0.5f64..14.5,
            0.5f64..14.5,
            0u8..8,
            0u8..4,
            0.0f64..0.3,
            -0.7f64..0.7,
        ),
        2..16,
    )
}

/// Random elements, dropping any that would overlap one already placed or leave the board.
/// Facings are multiples of 45°; a free element is put on a 1/8 BW grid, so elements often touch.
fn place(spec: &[Spec], cfg: &RulesConfig) -> Vec<ElementState> {
    let board = Board::default();
    let mut v: Vec<ElementState> = Vec::new();
    for (n, &(army, code, x, y, f, link, gap, lateral)) in spec.iter().enumerate() {
        let kind = CODES[code];
        let e = match (link, v.last()) {
            // In line behind the previous element.
            (1 | 2, Some(prev)) => {
                let p = prev.pose;
                let back = prev.rect(cfg).depth + if link == 1 { 0.0 } else { gap };
                let m = p.front_mid() - p.forward() * back + p.forward().right() * lateral;
                el(prev.army, n as u32 + 1, kind, m.x, m.y, p.facing)
            }
            // Beside it, level with it.
            (3, Some(prev)) => {
                let p = prev.pose;
                let m = p.front_mid() + p.forward().right() * 1.0;
                el(army, n as u32 + 1, kind, m.x, m.y, p.facing)
            }
            _ => {
                let (x, y) = ((x * 8.0).round() / 8.0, (y * 8.0).round() / 8.0);
                el(army, n as u32 + 1, kind, x, y, f as f64 * 45.0)
            }
        };
        let r: ElementRect = e.rect(cfg);
        if !r.corners().iter().all(|&p| board.contains(p)) {
            continue;
        }
        let clash = v
            .iter()
            .any(|o| convex_gap(&r.corners(), &o.rect(cfg).corners()) < -TOLERANCE);
        if !clash {
            v.push(e);
        }
    }
    v
}

fn terrain_table() -> Table {
    Table::with(vec![
        TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::Wood,
            Point::new(9.0, 9.0),
            Point::new(11.0, 11.0),
        )),
        TerrainFeature::Area(AreaFeature::new(
            AreaKind::City,
            Polygon::new(vec![
                Point::new(2.0, 10.0),
                Point::new(4.0, 10.0),
                Point::new(4.0, 12.0),
                Point::new(2.0, 12.0),
            ]),
        )),
        TerrainFeature::River(River {
            course: vec![Point::new(0.0, 6.0), Point::new(15.0, 7.0)],
            width: 0.5,
            state: None,
        }),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn outcome_moves_never_leave_elements_overlapping(
        spec in layout(),
        pick in 0usize..14,
        what in 0u8..5,
        full in any::<bool>(),
        terrain in any::<bool>(),
    ) {
        // DBA3.md §12: every outcome move ends with no two elements overlapping.
        let t = if terrain { terrain_table() } else { Table::open() };
        let v = place(&spec, &t.cfg);
        prop_assume!(!v.is_empty());
        let e = &v[pick % v.len()];
        let ctx = t.ctx(&v);
        let fx = match what {
            0 => recoil(&ctx, e.id, None, false, full),
            1 => recoil(&ctx, e.id, None, true, full),
            2 => flee(&ctx, e.id, if e.army == 0 { BoardEdge::South } else { BoardEdge::North }),
            3 => pursue(&ctx, e.id, if full { 1.0 } else { 0.5 }),
            _ => v
                .iter()
                .filter_map(|c| turn_to_face(&ctx, e.id, c.id))
                .take(1)
                .collect(),
        };
        // Every intermediate state too: the effects are committed in order.
        let mut now = v.clone();
        for f in &fx {
            apply_effects(&mut now, std::slice::from_ref(f));
            prop_assert_eq!(overlapping_pair(&now, &t.cfg), None, "after {:?} of {:?}", f, fx);
        }
        for x in now.iter().filter(|x| x.in_play()) {
            let r = x.rect(&t.cfg);
            prop_assert!(r.corners().iter().all(|&p| t.bf.board.contains(p)), "{:?} off the table", x.id);
        }
    }
}
