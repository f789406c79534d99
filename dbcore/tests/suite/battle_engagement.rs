//! DBA3.md §3.3, §3.5, §4.7, §8.2, §8.5, §9, §10: reading close combats and shots off the table.

use dbcore::battle::{
    close_combat_situation, close_combats, shooters, shooting_targets, shot_situation,
    CloseCombatPair, CombatContact, ElementId, ElementSetup, ElementState, EngagementError,
    HeldStronghold, MoveContext, Obstruction, TargetPriority,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::combat::{resolve, Combatant, Holding, Outcome, Stronghold, Supporter};
use dbcore::geometry::{Point, Polygon, Pose};
use dbcore::terrain::{
    AreaFeature, AreaKind, River, RiverState, Road, RoadSurface, TerrainFeature,
};
use dbcore::{DieScore, ErrorCode, ErrorInfo, Going, RulesConfig};

/// An element of `army` (army 0 faces north, army 1 south in most tests).
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

fn id(n: u32) -> ElementId {
    ElementId(n)
}

fn die(n: u8) -> DieScore {
    DieScore::new(n).unwrap()
}

struct World {
    bf: Battlefield,
    cfg: RulesConfig,
    elements: Vec<ElementState>,
    river: Option<RiverState>,
    strongholds: Vec<HeldStronghold>,
}

impl World {
    fn new(elements: Vec<ElementState>) -> World {
        World {
            bf: Battlefield::new(Board::default()),
            cfg: RulesConfig::default(),
            elements,
            river: None,
            strongholds: Vec::new(),
        }
    }
    fn ctx(&self) -> MoveContext<'_> {
        MoveContext {
            battlefield: &self.bf,
            config: &self.cfg,
            elements: &self.elements,
            army: 0,
            river: self.river,
            plough_rough: false,
            first_bound_of_army: false,
            strongholds: &self.strongholds,
            close_combat: None,
            refusals: Default::default(),
        }
    }
    fn area(&mut self, a: AreaFeature) {
        self.bf.features.push(TerrainFeature::Area(a));
    }
}

/// Spear 1 (south, facing north) and Warband 101 (north, facing south) front to front at (5, 5).
fn spear_v_warband() -> Vec<ElementState> {
    vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "4Wb", 5.0, 5.0, 180.0),
    ]
}

#[test]
fn front_to_front_pair_is_one_combat() {
    // DBA3.md §10.2, §8.2 (a): a mutual front-to-front pair fights once, lower id first.
    let w = World::new(spear_v_warband());
    assert_eq!(
        close_combats(&w.ctx()),
        vec![CloseCombatPair {
            a: id(1),
            b: id(101),
            contact: CombatContact::FrontToFront,
            turn_to_face: None,
        }]
    );
    let sit = close_combat_situation(&w.ctx(), id(101), id(1)).unwrap();
    assert_eq!(sit.a.kind.to_string(), "4Wb");
    assert_eq!(sit.a.flank_rear_contacts, 0);
    assert_eq!(sit.b.flank_rear_contacts, 0);
}

/// Blades 2 facing west with its front edge against Warband 101's east (left) side, front corners
/// together (§8.2 (c)).
fn flank_attacker() -> ElementState {
    el(0, 2, "4Bd", 5.5, 5.5, 270.0)
}

#[test]
fn flank_attacker_on_engaged_enemy_gives_minus_one_not_a_combat() {
    // DBA3.md §10.2, §8.5, §10.3: the enemy already has a frontal opponent, so the flank attacker
    // fights no separate combat; it counts −1 against that enemy.
    let mut e = spear_v_warband();
    e.push(flank_attacker());
    let w = World::new(e);
    let pairs = close_combats(&w.ctx());
    assert_eq!(pairs.len(), 1);
    assert_eq!((pairs[0].a, pairs[0].b), (id(1), id(101)));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.b.flank_rear_contacts, 1);
    assert_eq!(sit.a.flank_rear_contacts, 0);
    let e = close_combat_situation(&w.ctx(), id(2), id(101)).unwrap_err();
    assert!(matches!(e, EngagementError::NotInContact { .. }));
}

#[test]
fn rear_supporter_contacted_in_rear_does_not_turn_and_stops_supporting() {
    // DBA3.md §8.5: an element giving rear support does not turn to face; §10.3 (reading): a
    // supporter in close combat gives no rear support.
    let d = RulesConfig::default().depth("4Pk".parse().unwrap());
    let w = World::new(vec![
        el(0, 1, "4Pk", 5.0, 5.0, 0.0),
        el(0, 2, "4Pk", 5.0, 5.0 - d, 0.0),
        el(1, 101, "4Bd", 5.0, 5.0, 180.0),
        el(1, 102, "4Wb", 5.0, 5.0 - 2.0 * d, 0.0),
    ]);
    let pairs = close_combats(&w.ctx());
    assert_eq!(pairs.len(), 1);
    assert_eq!((pairs[0].a, pairs[0].b), (id(1), id(101)));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.a.rear_supporter, None);
}

#[test]
fn combats_come_in_order_of_ids() {
    // DBA3.md §10.2: every combat once, in a fixed order whatever the order of the elements.
    let w = World::new(vec![
        el(1, 104, "4Wb", 9.0, 5.0, 180.0),
        el(0, 1, "Sp", 2.0, 5.0, 0.0),
        el(0, 3, "Sp", 9.0, 5.0, 0.0),
        el(1, 102, "4Wb", 2.0, 5.0, 180.0),
    ]);
    let got: Vec<(ElementId, ElementId)> =
        close_combats(&w.ctx()).iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(got, vec![(id(1), id(102)), (id(3), id(104))]);
    // The combats travel as JSON.
    let pairs = close_combats(&w.ctx());
    let json = serde_json::to_string(&pairs).unwrap();
    assert_eq!(
        serde_json::from_str::<Vec<CloseCombatPair>>(&json).unwrap(),
        pairs
    );
}

#[test]
fn flank_attacker_on_unengaged_enemy_makes_it_turn_to_face() {
    // DBA3.md §8.5, §10.2: with no frontal opponent the contacted element turns to face.
    let w = World::new(vec![el(1, 101, "4Wb", 5.0, 5.0, 180.0), flank_attacker()]);
    assert_eq!(
        close_combats(&w.ctx()),
        vec![CloseCombatPair {
            a: id(2),
            b: id(101),
            contact: CombatContact::FrontToSide,
            turn_to_face: Some(id(101)),
        }]
    );
    // Before turning, the pair can still be read: the contactor is its frontal opponent.
    let sit = close_combat_situation(&w.ctx(), id(2), id(101)).unwrap();
    assert_eq!(sit.b.flank_rear_contacts, 0);
}

#[test]
fn rear_contact_on_unengaged_enemy_makes_it_turn_to_face() {
    // DBA3.md §8.2 (b), §8.5: front edge to rear edge, the contacted element turns.
    let wb_depth = RulesConfig::default().depth("4Wb".parse().unwrap());
    let w = World::new(vec![
        el(1, 101, "4Wb", 5.0, 5.0, 180.0),
        el(0, 3, "Sp", 5.0, 5.0 + wb_depth, 180.0),
    ]);
    let pairs = close_combats(&w.ctx());
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].contact, CombatContact::FrontToRear);
    assert_eq!(pairs[0].turn_to_face, Some(id(101)));
}

#[test]
fn overlap_by_friend_beside_gives_minus_one_but_not_to_psiloi() {
    // DBA3.md §10.4: a Spear beside the fighting Spear, front edges level, touches the Warband's
    // front corner: −1 to the Warband. Psiloi are not overlapped by corners alone.
    let mut e = spear_v_warband();
    e.push(el(0, 3, "Sp", 6.0, 5.0, 0.0));
    let w = World::new(e);
    assert_eq!(close_combats(&w.ctx()).len(), 1);
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.b.flank_rear_contacts, 1);

    let w = World::new(vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(0, 3, "Sp", 6.0, 5.0, 0.0),
        el(1, 101, "Ps", 5.0, 5.0, 180.0),
    ]);
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.b.flank_rear_contacts, 0);
}

#[test]
fn mutual_side_contact_overlaps_even_psiloi() {
    // DBA3.md §10.4: enemies in mutual side-edge contact overlap each other, Psiloi included.
    let w = World::new(vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "Ps", 5.0, 5.0, 180.0),
        // An enemy of 101 standing beside it, facing the same way as the Psiloi.
        el(0, 4, "4Ax", 6.0, 5.0, 180.0),
    ]);
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.b.flank_rear_contacts, 1);
}

#[test]
fn side_support_spear_beside_spear_is_found() {
    // DBA3.md §10.3: a friend in mutual side contact, same facing, front edges level.
    let mut e = spear_v_warband();
    e.push(el(0, 3, "Sp", 6.0, 5.0, 0.0));
    // Not level: a Spear beside but 0.1 BW back gives nothing.
    e.push(el(0, 4, "Sp", 4.0, 4.9, 0.0));
    let w = World::new(e);
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(
        sit.a.side_supporters,
        vec![Supporter::new("Sp".parse().unwrap())]
    );
    assert!(sit.b.side_supporters.is_empty());
}

#[test]
fn rear_support_pike_behind_pike_is_found() {
    // DBA3.md §10.3: a friend directly behind, same facing, front edge on the rear edge.
    let d = RulesConfig::default().depth("4Pk".parse().unwrap());
    let w = World::new(vec![
        el(0, 1, "4Pk", 5.0, 5.0, 0.0),
        el(0, 2, "4Pk", 5.0, 5.0 - d, 0.0),
        el(1, 101, "4Bd", 5.0, 5.0, 180.0),
    ]);
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(
        sit.a.rear_supporter,
        Some(Supporter::new("4Pk".parse().unwrap()))
    );
    // The element behind is not in combat and not a separate combat.
    assert_eq!(close_combats(&w.ctx()).len(), 1);
    // §10.3: Pk +3, rear support +3 against foot; Bd +5.
    let r = resolve(&sit, [die(2), die(3)], &w.cfg).unwrap();
    assert_eq!(r.a.total, 8);
    assert_eq!(r.b.total, 8);
}

#[test]
fn uphill_on_a_gentle_hill() {
    // DBA3.md §3.3: the Spear stands between the crest and the Warband, so any part of its front
    // edge is higher than all of the Warband.
    let mut w = World::new(spear_v_warband());
    w.area(AreaFeature::ellipse(
        AreaKind::GentleHill,
        Point::new(5.0, 3.0),
        3.0,
        2.5,
        0.0,
        32,
    ));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert!(sit.a.uphill);
    assert!(!sit.b.uphill);
    assert_eq!(sit.a.going, Going::Good);
}

/// A river along y = 5.5, 0.6 BW wide: the Blades at (5, 5) facing south reach into it.
fn river_world(state: Option<RiverState>) -> World {
    let mut w = World::new(vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "4Bd", 5.0, 5.0, 180.0),
    ]);
    w.bf.features.push(TerrainFeature::River(River {
        course: vec![Point::new(0.0, 5.5), Point::new(15.0, 5.5)],
        width: 0.6,
        state,
    }));
    w.river = state;
    w
}

#[test]
fn bank_defence_against_a_slowing_river_not_a_paltry_one() {
    // DBA3.md §3.5, §10.3: entirely on land against an opponent partly in a non-paltry river.
    let w = river_world(Some(RiverState::Slows));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert!(sit.a.defending_bank);
    assert!(!sit.b.defending_bank);
    let w = river_world(Some(RiverState::SlowsNarrow));
    assert!(
        close_combat_situation(&w.ctx(), id(1), id(101))
            .unwrap()
            .a
            .defending_bank
    );
    let w = river_world(Some(RiverState::Paltry));
    assert!(
        !close_combat_situation(&w.ctx(), id(1), id(101))
            .unwrap()
            .a
            .defending_bank
    );
    // An undiced river gives no bank defence.
    let w = river_world(None);
    assert!(
        !close_combat_situation(&w.ctx(), id(1), id(101))
            .unwrap()
            .a
            .defending_bank
    );
}

#[test]
fn no_bank_defence_against_an_enemy_on_the_road_ford() {
    // DBA3.md §17.22: off-road only.
    let mut w = river_world(Some(RiverState::Slows));
    w.bf.features.push(TerrainFeature::Road(Road {
        path: vec![Point::new(5.0, 0.0), Point::new(5.0, 15.0)],
        surface: RoadSurface::Track,
        width: 0.5,
    }));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert!(!sit.a.defending_bank);
}

/// Army 0's camp (x 4..6, y 0.5..2) with Blades 1 inside, and three Warbands of army 1 with their
/// front edges against its north, west and east sides.
fn camp_world() -> World {
    let mut w = World::new(vec![
        el(0, 1, "4Bd", 5.0, 1.9, 0.0),
        el(1, 101, "4Wb", 5.0, 2.0, 180.0),
        el(1, 102, "4Wb", 4.0, 1.25, 90.0),
        el(1, 103, "4Wb", 6.0, 1.25, 270.0),
    ]);
    w.strongholds.push(HeldStronghold {
        army: 0,
        perimeter: Polygon::new(vec![
            Point::new(4.0, 0.5),
            Point::new(6.0, 0.5),
            Point::new(6.0, 2.0),
            Point::new(4.0, 2.0),
        ]),
        civilians: None,
        sacker: None,
        command: None,
        defenders: None,
    });
    w
}

#[test]
fn camp_defender_and_assaulters_with_extra_assaulters() {
    // DBA3.md §4.7: each element in front-edge contact with the camp fights its defender; the
    // defender counts the 2nd and 3rd assaulters.
    let w = camp_world();
    let pairs = close_combats(&w.ctx());
    let got: Vec<(ElementId, ElementId, CombatContact)> =
        pairs.iter().map(|p| (p.a, p.b, p.contact)).collect();
    let assault = CombatContact::Assault {
        place: Stronghold::Camp,
    };
    assert_eq!(
        got,
        vec![
            (id(101), id(1), assault),
            (id(102), id(1), assault),
            (id(103), id(1), assault),
        ]
    );
    let sit = close_combat_situation(&w.ctx(), id(101), id(1)).unwrap();
    assert_eq!(
        sit.a.holding,
        Holding::Assaulting {
            place: Stronghold::Camp
        }
    );
    assert_eq!(
        sit.b.holding,
        Holding::Defending {
            place: Stronghold::Camp,
            extra_assaulters: 2
        }
    );
    // §4.7, §10.3, §11.2: Bd +5, camp +2, two extra assaulters −2 = +5; Wb +3 against foot.
    // Warband 4 + 3 = 7 beats Blades 1 + 5 = 6: a beaten camp defender is destroyed.
    let r = resolve(&sit, [die(4), die(1)], &w.cfg).unwrap();
    assert_eq!((r.a.total, r.b.total), (7, 6));
    assert_eq!(r.b.outcome, Outcome::Destroyed);
}

#[test]
fn city_defender_is_a_garrison_and_unmatched_defence_is_refused() {
    // DBA3.md §4.2, §4.7: a stronghold with the outline of a City on the battlefield is a City.
    let mut w = camp_world();
    let outline = w.strongholds[0].perimeter.clone();
    let mut city = AreaFeature::new(AreaKind::City, outline);
    city.straight_edged = true;
    w.area(city);
    let sit = close_combat_situation(&w.ctx(), id(102), id(1)).unwrap();
    assert_eq!(
        sit.b.holding,
        Holding::Defending {
            place: Stronghold::City,
            extra_assaulters: 2
        }
    );
    // Shot at, the garrison still defends (§10.3: +4 when shot at).
    let w = World {
        strongholds: camp_world().strongholds,
        ..World::new(vec![
            el(0, 1, "4Bd", 5.0, 1.9, 0.0),
            el(1, 110, "4Bw", 5.0, 4.0, 180.0),
        ])
    };
    let sit = shot_situation(&w.ctx(), id(110), id(1), &[], false).unwrap();
    assert!(matches!(sit.b.holding, Holding::Defending { .. }));
    // An element in its camp met by an enemy already inside it, not in front-edge contact with
    // the perimeter, is not a §4.7 fight: a camp has no walls, so they fight as in the open
    // (our reading; refusing it left the bound waiting for a combat it could never fight).
    let w = World {
        strongholds: camp_world().strongholds,
        ..World::new(vec![
            el(0, 1, "4Bd", 5.0, 1.5, 0.0),
            el(1, 105, "4Wb", 5.0, 1.5, 180.0),
        ])
    };
    let sit = close_combat_situation(&w.ctx(), id(1), id(105)).unwrap();
    assert_eq!(
        (sit.a.holding, sit.b.holding),
        (Holding::Field, Holding::Field)
    );
}

#[test]
fn going_bad_in_a_wood_and_good_for_camels_in_dunes() {
    // DBA3.md §3.1, §10.3: partly in a wood is bad going; dunes are good going for camels.
    let mut w = river_world(None);
    w.bf.features.clear();
    w.area(AreaFeature::ellipse(
        AreaKind::Wood,
        Point::new(5.0, 6.2),
        1.5,
        1.0,
        0.0,
        32,
    ));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.a.going, Going::Good);
    assert_eq!(sit.b.going, Going::Bad);
    let r = resolve(&sit, [die(3), die(3)], &w.cfg).unwrap();
    // Blades +5 vs foot, −2 in bad going.
    assert_eq!(r.b.total, 6);

    let mut w = World::new(vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(1, 101, "Cm", 5.0, 5.0, 180.0),
        el(0, 2, "Sp", 8.0, 5.0, 0.0),
        el(1, 102, "4Bd", 8.0, 5.0, 180.0),
    ]);
    for x in [5.0, 8.0] {
        w.area(AreaFeature::ellipse(
            AreaKind::Dunes,
            Point::new(x, 6.2),
            1.2,
            1.0,
            0.0,
            32,
        ));
    }
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.b.going, Going::Good);
    let sit = close_combat_situation(&w.ctx(), id(2), id(102)).unwrap();
    assert_eq!(sit.b.going, Going::Bad);
}

#[test]
fn situation_errors_name_their_rules() {
    // DBA3.md §10.2: only elements in contact, and only enemies, fight.
    let w = World::new(vec![
        el(0, 1, "Sp", 5.0, 5.0, 0.0),
        el(0, 2, "Sp", 6.0, 5.0, 0.0),
        el(1, 101, "4Wb", 5.0, 8.0, 180.0),
    ]);
    let e = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::IllegalSituation);
    assert_eq!(e.rule(), Some("§10.2"));
    let e = close_combat_situation(&w.ctx(), id(1), id(2)).unwrap_err();
    assert!(matches!(e, EngagementError::NotEnemies { .. }));
    let e = close_combat_situation(&w.ctx(), id(1), id(999)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnknownElement);
    // Errors travel as JSON.
    let json = serde_json::to_string(&e).unwrap();
    assert_eq!(serde_json::from_str::<EngagementError>(&json).unwrap(), e);
    assert!(close_combats(&w.ctx()).is_empty());
}

#[test]
fn shooting_eligibility() {
    // DBA3.md §9.1: Bows and War Wagons that moved at most 1 BW; Artillery that did not move and
    // only in its own bound unless answering enemy Artillery; nobody in close combat.
    let w = World::new(vec![
        el(0, 1, "4Bw", 2.0, 2.0, 0.0),
        el(0, 2, "4Bw", 4.0, 2.0, 0.0),
        el(0, 3, "Art", 6.0, 2.0, 0.0),
        el(0, 4, "Art", 8.0, 2.0, 0.0),
        el(0, 5, "WWg", 10.0, 2.0, 0.0),
        el(0, 6, "4Bd", 12.0, 8.0, 0.0),
        el(0, 7, "Ps", 14.0, 2.0, 0.0),
        el(1, 101, "4Bw", 2.0, 12.0, 180.0),
        el(1, 102, "Art", 6.0, 12.0, 180.0),
        el(1, 103, "3Bw", 12.0, 8.0, 180.0),
    ]);
    let moved = |e: ElementId| match e.0 {
        1 => 1.5,
        2 => 1.0,
        4 => 0.5,
        5 => 0.9,
        _ => 0.0,
    };
    let none = |_: ElementId| false;
    assert_eq!(
        shooters(&w.ctx(), &moved, 0, &none),
        vec![id(2), id(3), id(5), id(101)]
    );
    let answering = |e: ElementId| e == id(102);
    assert_eq!(
        shooters(&w.ctx(), &moved, 0, &answering),
        vec![id(2), id(3), id(5), id(101), id(102)]
    );
    // In army 1's bound, army 0's Artillery may not shoot.
    assert_eq!(
        shooters(&w.ctx(), &moved, 1, &none),
        vec![id(2), id(5), id(101), id(102)]
    );
}

#[test]
fn target_priority_threat_zone_first_then_shooting_at_it_then_nearest() {
    // DBA3.md §9.3.
    let w = World::new(vec![
        el(0, 1, "4Bw", 5.0, 5.0, 0.0),
        // In the Bows' threat zone, 0.9 BW away.
        el(1, 101, "Sp", 4.6, 5.9, 180.0),
        // Nearer (0.5 BW) but off to the left, outside the threat zone.
        el(1, 102, "Sp", 3.6, 5.3, 180.0),
        // Bows off to the right, about 2.1 BW away, shooting at element 1.
        el(1, 103, "4Bw", 6.4, 7.0, 180.0),
    ]);
    let t = shooting_targets(&w.ctx(), id(1), &[]).unwrap();
    let order: Vec<(ElementId, TargetPriority)> =
        t.iter().map(|s| (s.target, s.priority)).collect();
    assert_eq!(
        order,
        vec![
            (id(101), TargetPriority::InThreatZone),
            (id(102), TargetPriority::Free),
            (id(103), TargetPriority::Free),
        ]
    );
    // Poses are snapped to the 2^-12 BW grid.
    assert!((t[0].distance - 0.9).abs() < 1e-3);
    let t = shooting_targets(&w.ctx(), id(1), &[id(103)]).unwrap();
    let order: Vec<ElementId> = t.iter().map(|s| s.target).collect();
    assert_eq!(order, vec![id(101), id(103), id(102)]);
    assert_eq!(t[1].priority, TargetPriority::ShootingAtShooter);
}

#[test]
fn artillery_may_pick_any_target_and_shoots_over_enemy_psiloi() {
    // DBA3.md §9.3, §9.5.
    let w = World::new(vec![
        el(0, 1, "Art", 5.0, 5.0, 0.0),
        el(1, 101, "Ps", 5.0, 5.8, 180.0),
        el(1, 102, "4Bd", 5.0, 8.5, 180.0),
    ]);
    let t = shooting_targets(&w.ctx(), id(1), &[]).unwrap();
    let got: Vec<(ElementId, TargetPriority)> = t.iter().map(|s| (s.target, s.priority)).collect();
    assert_eq!(
        got,
        vec![
            (id(101), TargetPriority::Free),
            (id(102), TargetPriority::Free)
        ]
    );
    assert!(t[0].in_threat_zone);
}

#[test]
fn line_of_sight_blocked_by_an_element_and_by_a_wood() {
    // DBA3.md §9.5: a friend in the way blocks; so does ½ BW or more of wood.
    let w = World::new(vec![
        el(0, 1, "4Bw", 5.0, 5.0, 0.0),
        el(0, 2, "Sp", 5.0, 6.5, 0.0),
        el(1, 101, "4Bd", 5.0, 7.5, 180.0),
    ]);
    assert!(shooting_targets(&w.ctx(), id(1), &[]).unwrap().is_empty());
    let e = shot_situation(&w.ctx(), id(1), id(101), &[], false).unwrap_err();
    assert_eq!(
        e,
        EngagementError::LineOfSight {
            shooter: id(1),
            target: id(101),
            by: Obstruction::Element { id: id(2) },
        }
    );
    assert_eq!(e.rule(), Some("§9.5"));

    let mut w = World::new(vec![
        el(0, 1, "4Bw", 5.0, 5.0, 0.0),
        el(1, 101, "4Bd", 5.0, 7.5, 180.0),
    ]);
    w.area(AreaFeature::ellipse(
        AreaKind::Wood,
        Point::new(5.0, 6.2),
        2.5,
        0.6,
        0.0,
        32,
    ));
    let e = shot_situation(&w.ctx(), id(1), id(101), &[], false).unwrap_err();
    assert!(matches!(
        e,
        EngagementError::LineOfSight {
            by: Obstruction::Terrain { .. },
            ..
        }
    ));
}

/// Bows 1, 2, 3 in a line facing north, Bows 4 far off, Blades 101 2 BW in front of 1.
fn support_world() -> World {
    World::new(vec![
        el(0, 1, "4Bw", 5.0, 5.0, 0.0),
        el(0, 2, "4Bw", 6.0, 5.0, 0.0),
        el(0, 3, "4Bw", 4.0, 5.0, 0.0),
        el(0, 4, "4Bw", 12.0, 5.0, 0.0),
        el(1, 101, "4Bd", 5.0, 7.0, 180.0),
    ])
}

#[test]
fn support_shooters_are_validated() {
    // DBA3.md §9.4: at most two, each able to shoot at the same target.
    let w = support_world();
    let sit = shot_situation(&w.ctx(), id(1), id(101), &[id(2), id(3)], false).unwrap();
    let dbcore::Engagement::Shooting(shot) = sit.engagement else {
        panic!("a shot")
    };
    assert_eq!(shot.support_shooters, 2);
    assert!(!shot.from_behind);
    let e = shot_situation(&w.ctx(), id(1), id(101), &[id(2), id(3), id(4)], false).unwrap_err();
    assert!(matches!(
        e,
        EngagementError::TooManySupportShooters { given: 3, max: 2 }
    ));
    let e = shot_situation(&w.ctx(), id(1), id(101), &[id(4)], false).unwrap_err();
    match e {
        EngagementError::SupportShooter { id: who, cause, .. } => {
            assert_eq!(who, id(4));
            assert!(matches!(*cause, EngagementError::OutOfReach { .. }));
        }
        other => panic!("{other}"),
    }
    let e = shot_situation(&w.ctx(), id(1), id(101), &[id(2), id(2)], false).unwrap_err();
    assert!(matches!(e, EngagementError::SupportRepeated { .. }));
    let e = shot_situation(&w.ctx(), id(1), id(101), &[id(1)], false).unwrap_err();
    assert!(matches!(e, EngagementError::SupportRepeated { .. }));
    let e = shot_situation(&w.ctx(), id(1), id(101), &[id(101)], false).unwrap_err();
    assert!(matches!(e, EngagementError::SupportNotFriendly { .. }));
    // Blades do not shoot back (§17.24).
    let e = shot_situation(&w.ctx(), id(1), id(101), &[], true).unwrap_err();
    assert!(matches!(e, EngagementError::CannotShootBack { .. }));
}

#[test]
fn shot_from_behind_the_targets_rear_edge() {
    // DBA3.md §9.6, §11.2: the shooter stands beyond the line of the target's rear edge.
    let w = World::new(vec![
        el(0, 1, "4Bw", 5.0, 9.0, 180.0),
        el(1, 101, "4Bd", 5.0, 7.0, 180.0),
    ]);
    let sit = shot_situation(&w.ctx(), id(1), id(101), &[], false).unwrap();
    let dbcore::Engagement::Shooting(shot) = sit.engagement else {
        panic!("a shot")
    };
    assert!(shot.from_behind);
}

#[test]
fn shot_end_to_end_with_two_supporters() {
    // DBA3.md §9.4, §9.6, §11.3: Bows +2 against foot; Blades +4 when shot at, −1 per support
    // shooter. 5 + 2 = 7 against 1 + 4 − 2 = 3: doubled, the Blades are destroyed.
    let w = support_world();
    let sit = shot_situation(&w.ctx(), id(1), id(101), &[id(2), id(3)], false).unwrap();
    let r = resolve(&sit, [die(5), die(1)], &w.cfg).unwrap();
    assert_eq!((r.a.total, r.b.total), (7, 3));
    assert_eq!(r.b.outcome, Outcome::Destroyed);
    assert_eq!(r.a.outcome, Outcome::NoEffect);
}

#[test]
fn shooters_that_shoot_back_at_each_other() {
    // DBA3.md §17.24: two Bows facing each other, each may shoot back.
    let w = World::new(vec![
        el(0, 1, "4Bw", 5.0, 5.0, 0.0),
        el(1, 101, "4Bw", 5.0, 7.0, 180.0),
    ]);
    let sit = shot_situation(&w.ctx(), id(1), id(101), &[], true).unwrap();
    let dbcore::Engagement::Shooting(shot) = sit.engagement else {
        panic!("a shot")
    };
    assert!(shot.target_shoots_back);
}

#[test]
fn close_combat_end_to_end_overlap_and_side_support() {
    // DBA3.md §10.3, §10.4, §11.2: Spear +4, side support +1 against a Warband +3 overlapped −1.
    // 3 + 5 = 8 against 3 + 2 = 5: beaten, not doubled, the Warband recoils.
    let mut e = spear_v_warband();
    e.push(el(0, 3, "Sp", 6.0, 5.0, 0.0));
    let mut w = World::new(e);
    w.elements[0].general = true;
    let pairs = close_combats(&w.ctx());
    let sit = close_combat_situation(&w.ctx(), pairs[0].a, pairs[0].b).unwrap();
    let expected_a = Combatant {
        general: true,
        side_supporters: vec![Supporter::new("Sp".parse().unwrap())].into(),
        ..Combatant::new("Sp".parse().unwrap())
    };
    assert_eq!(sit.a, expected_a);
    // General +1 as well: 3 + 4 + 1 + 1 = 9.
    let r = resolve(&sit, [die(3), die(3)], &w.cfg).unwrap();
    assert_eq!((r.a.total, r.b.total), (9, 5));
    assert_eq!(r.b.outcome, Outcome::Recoil);
    assert_eq!(r.a.outcome, Outcome::NoEffect);
}

#[test]
fn s17_21_switch_battlefield_edge_overlaps() {
    // DBA3.md §10.3, §17.21: by default a battlefield edge never overlaps; with the switch
    // `combat.battlefield_edge_overlaps` a side edge along a battlefield edge counts −1, except
    // for Cavalry and Light Horse (TTS's note).
    let left = |code: &str| {
        vec![
            el(0, 1, code, 0.5, 5.0, 0.0), // its left side edge on the west edge, x = 0
            el(1, 101, "4Wb", 0.5, 5.0, 180.0),
        ]
    };
    let mut w = World::new(left("Sp"));
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.a.flank_rear_contacts, 0, "default: edges never overlap");
    w.cfg.combat.battlefield_edge_overlaps = true;
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(
        sit.a.flank_rear_contacts, 1,
        "switched: the edge overlaps the Spear"
    );
    // The Warband's right side lies on the same edge (it faces south): it is overlapped too.
    assert_eq!(sit.b.flank_rear_contacts, 1);
    let mut w = World::new(left("Cv"));
    w.cfg.combat.battlefield_edge_overlaps = true;
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.a.flank_rear_contacts, 0, "not for Cavalry");
    // Away from the edge nothing changes.
    let mut w = World::new(spear_v_warband());
    w.cfg.combat.battlefield_edge_overlaps = true;
    let sit = close_combat_situation(&w.ctx(), id(1), id(101)).unwrap();
    assert_eq!(sit.a.flank_rear_contacts, 0);
}

#[test]
fn s4_6_allied_elements_never_defend_a_camp() {
    // DBA3.md §4.6, §16.4: an element of an allied contingent inside its army's camp does not
    // defend it: no assault is fought against it (nor against Elephants there).
    let mut w = camp_world();
    w.elements[0].contingent = Some(1);
    assert!(close_combats(&w.ctx())
        .iter()
        .all(|p| p.a != id(1) && p.b != id(1)));
    let mut w = camp_world();
    w.elements[0] = el(0, 1, "El", 5.0, 1.9, 0.0);
    assert!(close_combats(&w.ctx())
        .iter()
        .all(|p| p.a != id(1) && p.b != id(1)));
}
