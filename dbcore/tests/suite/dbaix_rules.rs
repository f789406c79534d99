//! Rules tests of the DBAix variant (`dbcore::dbaix`), each naming the DBAIX.md section it checks.

use dbcore::dbaix::{
    combat_factor, odds, Action, Battle, DbaixError, DbaixSetup, Event, FigureClass, FigureId,
    FigureResult, FigureSetup, Phase, PipAddOn, PipCost, Side, Status, TacticalFactor,
};
use dbcore::geometry::{Point, Pose};
use dbcore::DieScore;

use FigureClass::*;

fn f(id: u32, class: FigureClass, x: f64, y: f64, facing: f64) -> FigureSetup {
    FigureSetup {
        id: FigureId(id),
        name: format!("{class:?} {id}"),
        class,
        pose: Pose::new(x, y, facing),
        husband: None,
    }
}

fn die(n: u8) -> DieScore {
    DieScore::new(n).unwrap()
}

fn game(figures: Vec<FigureSetup>) -> Battle {
    Battle::new(DbaixSetup::new(figures)).unwrap()
}

/// Roll `n` for the moving side.
fn roll(b: &mut Battle, n: u8) -> Vec<Event> {
    b.apply(Action::RollPips { die: die(n) }).unwrap()
}

/// Pass bounds until `side` is to roll.
fn until(b: &mut Battle, side: Side) {
    while b.active_side() != side || b.phase() != Phase::AwaitingPips {
        if b.phase() == Phase::AwaitingPips {
            roll(b, 1);
        }
        b.apply(Action::EndMovement).unwrap();
    }
}

fn mv(ids: &[u32], bearing: f64, distance: f64) -> Action {
    Action::Move {
        figures: ids.iter().map(|i| FigureId(*i)).collect(),
        bearing,
        distance,
        face: None,
    }
}

fn cost(b: &Battle, a: &Action) -> PipCost {
    match b.check(a).unwrap().into_iter().find_map(|e| match e {
        Event::Moved { cost, .. } | Event::Reinforced { cost, .. } => Some(cost),
        _ => None,
    }) {
        Some(c) => c,
        None => panic!("no move"),
    }
}

fn pirates_far() -> Vec<FigureSetup> {
    vec![f(90, Captain, 2.0, 34.0, 90.0)]
}

fn romans() -> Battle {
    let mut v = vec![
        f(1, DubiusStatus, 10.5, 5.0, 0.0),
        f(2, Legionary, 11.5, 5.0, 0.0),
        f(3, Legionary, 12.5, 5.0, 0.0),
        f(4, Legionary, 30.5, 5.0, 0.0),
        f(5, CaligulaMinus, 33.5, 5.0, 0.0),
        f(6, Officer, 20.5, 5.0, 0.0),
        f(7, Legionary, 21.5, 5.0, 0.0),
        f(50, Gaul, 10.5, 33.0, 180.0),
    ];
    v.extend(pirates_far());
    let mut b = game(v);
    roll(&mut b, 6);
    b
}

// DBAIX.md §3.1: Romans moving as a group cost 1 PIP, a single Roman 2.
#[test]
fn roman_group_costs_one_and_a_single_roman_two() {
    let b = romans();
    assert_eq!(cost(&b, &mv(&[1, 2, 3], 0.0, 4.0)).total, 1);
    assert_eq!(cost(&b, &mv(&[2], 0.0, 4.0)).total, 2);
}

// DBAIX.md §3.1: +1 for Romans moving as a group without an officer.
#[test]
fn roman_group_without_an_officer_pays_one_more() {
    let b = romans();
    let c = cost(&b, &mv(&[2, 3], 0.0, 4.0));
    assert_eq!(c.add_ons, vec![PipAddOn::GroupWithoutOfficer]);
    assert_eq!(c.total, 2);
    assert_eq!(
        cost(&b, &mv(&[6, 7], 0.0, 4.0)).total,
        1,
        "an officer leads"
    );
}

// DBAIX.md §3.1: +1 for a Roman more than 12 in from Dubius Status, but not Caligula Minus.
#[test]
fn roman_far_from_dubius_pays_one_more_but_not_caligula() {
    let b = romans();
    let c = cost(&b, &mv(&[4], 0.0, 4.0));
    assert_eq!(c.add_ons, vec![PipAddOn::FarFromDubiusStatus]);
    assert_eq!(c.total, 3);
    assert_eq!(cost(&b, &mv(&[5], 0.0, 4.0)).total, 2);
}

// DBAIX.md §3.1: +2 for a second move, waived for Romans moving along a paved road.
#[test]
fn second_move_pays_two_unless_romans_on_the_road() {
    let mut setup = DbaixSetup::new(vec![
        f(1, DubiusStatus, 10.5, 5.0, 0.0),
        f(2, Legionary, 11.5, 5.0, 0.0),
        f(50, Gaul, 30.5, 33.0, 180.0),
        f(90, Captain, 2.0, 34.0, 90.0),
    ]);
    setup.road = vec![Point::new(12.0, 0.0), Point::new(12.0, 36.0)];
    let mut b = Battle::new(setup).unwrap();
    roll(&mut b, 6);
    b.apply(mv(&[1], 0.0, 4.0)).unwrap();
    let c = cost(&b, &mv(&[1], 0.0, 4.0));
    assert_eq!(c.add_ons, vec![PipAddOn::SecondMove]);
    assert_eq!(c.total, 4);
    b.apply(mv(&[2], 0.0, 1.0)).unwrap(); // 2 PIPs, now on the road all along
    let c = cost(&b, &mv(&[2], 0.0, 3.0));
    assert!(!c.add_ons.contains(&PipAddOn::SecondMove), "{c:?}");
    assert_eq!(c.total, 2);
}

// DBAIX.md §3: a figure takes part in at most 2 moves a bound; a move is at most 4 in.
#[test]
fn third_move_and_long_move_refused_leaving_the_state_equal() {
    let mut b = romans();
    b.apply(mv(&[1, 2, 3], 0.0, 1.0)).unwrap();
    b.apply(mv(&[1, 2, 3], 0.0, 1.0)).unwrap();
    let before = b.clone();
    let e = b.apply(mv(&[1, 2, 3], 0.0, 1.0)).unwrap_err();
    assert!(matches!(e, DbaixError::TooManyMoves { .. }), "{e}");
    assert_eq!(b, before);
    let e = b.apply(mv(&[6], 0.0, 4.5)).unwrap_err();
    assert!(matches!(e, DbaixError::TooFar { .. }), "{e}");
    assert_eq!(b, before);
}

// DBAIX.md §3: a group is figures in edge and corner contact.
#[test]
fn figures_apart_are_not_a_group() {
    let b = romans();
    assert_eq!(
        b.check(&mv(&[1, 6], 0.0, 1.0)).unwrap_err(),
        DbaixError::NotAGroup
    );
}

fn gauls(extra: Vec<FigureSetup>) -> Battle {
    let mut v = vec![
        f(10, Vitalstatistix, 10.5, 30.0, 180.0),
        f(11, Gaul, 11.5, 30.0, 180.0),
        f(12, Gaul, 12.5, 30.0, 180.0),
        f(13, Gaul, 30.5, 30.0, 180.0),
        f(14, Asterix, 32.5, 30.0, 180.0),
        f(1, DubiusStatus, 2.5, 2.0, 0.0),
    ];
    v.extend(extra);
    v.extend(pirates_far());
    let mut b = game(v);
    until(&mut b, Side::Gauls);
    roll(&mut b, 6);
    b
}

// DBAIX.md §3.1, DBAIX.md §11.3: a Gaul group straight ahead costs 1 (our reading), otherwise 2; a
// single Gaul 2.
#[test]
fn gaul_group_straight_ahead_costs_one_by_our_reading() {
    let b = gauls(vec![]);
    assert_eq!(cost(&b, &mv(&[10, 11, 12], 180.0, 4.0)).total, 1);
    assert_eq!(cost(&b, &mv(&[10, 11, 12], 90.0, 2.0)).total, 2);
    assert_eq!(cost(&b, &mv(&[11], 180.0, 4.0)).total, 2);
}

// DBAIX.md §11.3: the switch gives the seed's literal 2.
#[test]
fn gaul_straight_group_cost_switch_gives_two() {
    let mut s = DbaixSetup::new(vec![
        f(10, Vitalstatistix, 10.5, 30.0, 180.0),
        f(11, Gaul, 11.5, 30.0, 180.0),
        f(1, DubiusStatus, 2.5, 2.0, 0.0),
        f(90, Captain, 2.0, 34.0, 90.0),
    ]);
    s.config.gaul_straight_group_cost = 2;
    let mut b = Battle::new(s).unwrap();
    until(&mut b, Side::Gauls);
    roll(&mut b, 6);
    assert_eq!(cost(&b, &mv(&[10, 11], 180.0, 4.0)).total, 2);
}

// DBAIX.md §3.1: +1 for a Gaul more than 8 in from Vitalstatistix, not for Asterix.
#[test]
fn gaul_far_from_the_chief_pays_one_more_but_not_asterix() {
    let b = gauls(vec![]);
    let c = cost(&b, &mv(&[13], 180.0, 4.0));
    assert_eq!(c.add_ons, vec![PipAddOn::FarFromVitalstatistix]);
    assert_eq!(cost(&b, &mv(&[14], 180.0, 4.0)).total, 2);
}

// DBAIX.md §3.1, DBAIX.md §11.4: a Gallic woman far from her husband and from the chief pays +1 +1.
#[test]
fn gallic_woman_far_from_husband_and_chief_pays_both() {
    let mut w = f(15, GallicWoman, 25.5, 30.0, 180.0);
    w.husband = Some(FigureId(11));
    let b = gauls(vec![w]);
    let c = cost(&b, &mv(&[15], 180.0, 4.0));
    assert_eq!(
        c.add_ons,
        vec![PipAddOn::FarFromVitalstatistix, PipAddOn::FarFromHusband]
    );
    assert_eq!(c.total, 4);
}

// DBAIX.md §3.1: +1 for a Pirate more than 4 in from the Captain; Pirates pay 2 singly or as a
// group.
#[test]
fn pirate_costs() {
    let mut b = game(vec![
        f(1, DubiusStatus, 2.5, 2.0, 0.0),
        f(10, Vitalstatistix, 30.5, 30.0, 180.0),
        f(20, Captain, 4.0, 18.0, 90.0),
        f(21, Pirate, 4.0, 17.0, 90.0),
        f(22, Pirate, 4.0, 10.0, 90.0),
    ]);
    until(&mut b, Side::Pirates);
    roll(&mut b, 6);
    assert_eq!(cost(&b, &mv(&[20, 21], 90.0, 4.0)).total, 2);
    assert_eq!(cost(&b, &mv(&[21], 90.0, 4.0)).total, 2);
    let c = cost(&b, &mv(&[22], 90.0, 4.0));
    assert_eq!(c.add_ons, vec![PipAddOn::FarFromCaptain]);
}

// DBAIX.md §3.1: +2 for contacting an enemy's side or rear, waived for Gallic women.
#[test]
fn flank_contact_pays_two_but_not_for_gallic_women() {
    let mut w = f(15, GallicWoman, 14.5, 20.0, 90.0);
    w.husband = Some(FigureId(16));
    let b = gauls(vec![
        // A Roman facing north at (18.5, 20): its left edge runs x = 18, y 19..20.
        f(2, Legionary, 18.5, 20.0, 0.0),
        f(16, Gaul, 15.0, 21.5, 90.0),
        w,
    ]);
    // The Gaul at (15, 21.5) facing east: front edge at x = 15, y 21..22. Moving it 3 in east
    // and 2 in south puts its front edge at x = 18, y 19..20: the Roman's left edge.
    let a = Action::Move {
        figures: vec![FigureId(16)],
        bearing: 180.0 - (3.0f64).atan2(2.0).to_degrees(),
        distance: 13f64.sqrt(),
        face: None,
    };
    let c = cost(&b, &a);
    assert!(c.add_ons.contains(&PipAddOn::FlankContact), "{c:?}");
    let c = cost(&b, &mv(&[15], 90.0, 3.5));
    assert!(!c.add_ons.contains(&PipAddOn::FlankContact), "{c:?}");
}

// DBAIX.md §6.2: the combat factors 0 to 5, Vitalstatistix as most Gauls (DBAIX.md §11.8).
#[test]
fn combat_factors() {
    for (c, v) in [
        (Getafix, 0),
        (Cacofonix, 0),
        (DubiusStatus, 1),
        (CaligulaMinus, 1),
        (Geriatrix, 1),
        (GallicWoman, 1),
        (Pegleg, 1),
        (Legionary, 2),
        (Officer, 2),
        (Gaul, 3),
        (Vitalstatistix, 3),
        (Pirate, 3),
        (Asterix, 4),
        (Captain, 4),
        (Obelix, 5),
    ] {
        assert_eq!(combat_factor(c), v, "{c:?}");
    }
}

// DBAIX.md §7: every result by side, and the Obelix rule; odds are counts out of 36.
#[test]
fn results_by_side_and_the_obelix_rule() {
    use dbcore::dbaix::FigureResult::*;
    // Lower but more than half: a Roman recoils, a Gaul stands, a Pirate flees.
    assert_eq!(
        dbcore::dbaix::results(Legionary, 5, Pirate, 6),
        (Recoils, Stays)
    );
    assert_eq!(dbcore::dbaix::results(Gaul, 5, Legionary, 6).0, Stays);
    assert_eq!(dbcore::dbaix::results(Pirate, 5, Legionary, 6).0, Flees);
    // Higher: a Gaul follows up, others stay.
    assert_eq!(dbcore::dbaix::results(Gaul, 7, Legionary, 6).0, FollowUp);
    assert_eq!(dbcore::dbaix::results(Legionary, 7, Gaul, 6).0, Stays);
    // Equal: nothing (DBAIX.md §11.10).
    assert_eq!(
        dbcore::dbaix::results(Legionary, 6, Gaul, 6),
        (Stays, Stays)
    );
    // Half or less.
    assert_eq!(dbcore::dbaix::results(Asterix, 3, Legionary, 6).0, Captured);
    assert_eq!(dbcore::dbaix::results(Getafix, 3, Legionary, 6).0, Captured);
    assert_eq!(
        dbcore::dbaix::results(GallicWoman, 3, Legionary, 6).0,
        Captured
    );
    assert_eq!(
        dbcore::dbaix::results(Vitalstatistix, 3, Legionary, 6).0,
        Captured
    );
    assert_eq!(dbcore::dbaix::results(Gaul, 3, Legionary, 6).0, Removed);
    assert_eq!(dbcore::dbaix::results(Legionary, 3, Gaul, 6).0, SentToCamp);
    assert_eq!(dbcore::dbaix::results(Pirate, 3, Gaul, 6).0, FledOff);
    // Beaten by Obelix is always "half or less".
    assert_eq!(
        dbcore::dbaix::results(Legionary, 8, Obelix, 9).0,
        SentToCamp
    );
    let o = odds(Legionary, 0, Obelix, 0);
    assert_eq!(
        o.outcomes.iter().map(|e| u32::from(e.count)).sum::<u32>(),
        36
    );
    // Legionary 2 + d vs Obelix 5 + d: it never recoils, only stays or goes to camp.
    assert_eq!(o.a_count(Recoils), 0);
    assert_eq!(o.a_count(Stays) + o.a_count(SentToCamp), 36);
    // The Roman ties Obelix when its die is 3 more (4-1, 5-2, 6-3) and beats him when 4 more
    // (5-1, 6-1, 6-2): 6 throws.
    assert_eq!(o.a_count(Stays), 6);
}

/// A Roman line facing a Gaul, front to front at y = 20, in the Romans' first bound (before the
/// Gauls' first drink).
fn fight_setup(extra: Vec<FigureSetup>) -> Battle {
    let mut v = vec![
        f(1, DubiusStatus, 2.5, 2.0, 0.0),
        f(2, Legionary, 10.5, 20.0, 0.0),
        f(3, Legionary, 11.5, 20.0, 0.0),
        f(10, Vitalstatistix, 30.5, 33.0, 180.0),
        f(11, Gaul, 10.5, 20.0, 180.0),
    ];
    v.extend(extra);
    v.extend(pirates_far());
    let mut b = game(v);
    roll(&mut b, 1);
    b.apply(Action::EndMovement).unwrap();
    b
}

fn fight(b: &mut Battle, a: u32, c: u32, da: u8, dc: u8) -> Vec<Event> {
    b.apply(Action::Fight {
        a: FigureId(a),
        b: FigureId(c),
        dice: [die(da), die(dc)],
    })
    .unwrap()
}

fn scores(events: &[Event]) -> (dbcore::dbaix::FighterScore, dbcore::dbaix::FighterScore) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Fought { a, b } => Some((a.clone(), b.clone())),
            _ => None,
        })
        .expect("a combat")
}

// DBAIX.md §6.1, DBAIX.md §6.3: front-to-front figures fight; Roman side support +1, overlap -1.
#[test]
fn tactical_factors_side_support_and_overlap() {
    let mut b = fight_setup(vec![]);
    assert_eq!(b.phase(), Phase::CloseCombat);
    let e = fight(&mut b, 2, 11, 3, 3);
    let (r, g) = scores(&e);
    assert_eq!(
        r.tactical,
        vec![TacticalFactor::RomanSideSupport { count: 1 }]
    );
    assert_eq!(g.tactical, vec![TacticalFactor::Overlapped { count: 1 }]);
    assert_eq!((r.total, g.total), (6, 5));
    assert_eq!(
        (r.result, g.result),
        (FigureResult::Stays, FigureResult::Stays)
    );
}

// DBAIX.md §6.3: -1 for each enemy front edge against a side or the rear.
#[test]
fn flank_attacker_costs_one() {
    // A second Gaul facing east with its front edge against Legionary 2's left edge (x = 10,
    // y 19..20).
    let mut b = fight_setup(vec![f(12, Gaul, 10.0, 19.5, 90.0)]);
    let e = fight(&mut b, 2, 11, 3, 3);
    let (r, _) = scores(&e);
    assert!(
        r.tactical
            .contains(&TacticalFactor::FlankOrRear { count: 1 }),
        "{:?}",
        r.tactical
    );
}

// DBAIX.md §7, DBAIX.md §11.15: a Roman beaten but not by half recoils one base depth; the Gaul that beat
// it follows up one base depth.
#[test]
fn roman_recoils_and_gaul_follows_up() {
    let mut b = fight_setup(vec![]);
    fight(&mut b, 2, 11, 2, 5);
    assert_eq!(b.figure(FigureId(2)).unwrap().pose.y, 19.0);
    assert_eq!(b.figure(FigureId(11)).unwrap().pose.y, 19.0);
}

// DBAIX.md §7, DBAIX.md §8.2: a Roman beaten by half or more goes back to camp; a Gaul is removed.
#[test]
fn roman_to_camp_and_gaul_removed() {
    let mut b = fight_setup(vec![]);
    fight(&mut b, 2, 11, 1, 6);
    assert_eq!(b.figure(FigureId(2)).unwrap().status, Status::InCamp);
    let mut b = fight_setup(vec![]);
    fight(&mut b, 2, 11, 6, 1);
    assert_eq!(b.figure(FigureId(11)).unwrap().status, Status::Removed);
}

// DBAIX.md §8.1, DBAIX.md §11.11: Getafix beaten by half is captured, the winner guards him and he may
// not move; Obelix beating the guard frees him.
#[test]
fn capture_and_rescue() {
    let mut b = game(vec![
        f(1, DubiusStatus, 2.5, 2.0, 0.0),
        f(2, Legionary, 10.5, 20.0, 0.0),
        f(10, Vitalstatistix, 30.5, 33.0, 180.0),
        f(11, Getafix, 10.5, 20.0, 180.0),
        f(12, Obelix, 11.5, 23.0, 180.0),
        f(90, Captain, 2.0, 34.0, 90.0),
    ]);
    roll(&mut b, 1);
    b.apply(Action::EndMovement).unwrap();
    // Before the Gauls' first drink: 6 + 2 = 8 against 1 + 0 = 1.
    let e = fight(&mut b, 2, 11, 6, 1);
    assert!(e.contains(&Event::Captured {
        figure: FigureId(11),
        guard: FigureId(2)
    }));
    assert_eq!(
        b.figure(FigureId(11)).unwrap().status,
        Status::Captured { guard: FigureId(2) }
    );
    until(&mut b, Side::Gauls);
    roll(&mut b, 6);
    assert_eq!(
        b.check(&mv(&[11], 0.0, 1.0)).unwrap_err(),
        DbaixError::NotOnTable { id: FigureId(11) }
    );
    // Obelix charges the guard's front: Legionary 2 at (10.5, 20) facing north; Obelix from
    // (11.5, 23) to (10.5, 20) facing south.
    b.apply(Action::Move {
        figures: vec![FigureId(12)],
        bearing: (-1.0f64).atan2(-3.0).to_degrees(),
        distance: 10f64.sqrt(),
        face: None,
    })
    .unwrap();
    b.apply(Action::EndMovement).unwrap();
    let e = fight(&mut b, 12, 2, 6, 1);
    assert!(
        e.iter()
            .any(|e| matches!(e, Event::Freed { figure, .. } if *figure == FigureId(11))),
        "{e:?}"
    );
    assert!(b.figure(FigureId(11)).unwrap().on_table());
    assert_eq!(b.figure(FigureId(2)).unwrap().status, Status::InCamp);
}

// DBAIX.md §8.2, DBAIX.md §11.12: reinforcements need an officer in camp and cost 1 + 3 PIPs.
#[test]
fn reinforcements_need_an_officer_and_cost_three_more() {
    let mut b = fight_setup(vec![
        f(4, Officer, 20.5, 20.0, 0.0),
        f(13, Gaul, 20.5, 20.0, 180.0),
    ]);
    // Send the officer and a legionary to camp.
    fight(&mut b, 2, 11, 1, 6);
    fight(&mut b, 4, 13, 1, 6);
    assert_eq!(b.figure(FigureId(4)).unwrap().status, Status::InCamp);
    until(&mut b, Side::Romans);
    roll(&mut b, 6);
    let lone = Action::Reinforce {
        figures: vec![FigureId(2)],
        x: 14.0,
        distance: 1.0,
    };
    assert_eq!(b.check(&lone).unwrap_err(), DbaixError::NoReinforcements);
    let both = Action::Reinforce {
        figures: vec![FigureId(2), FigureId(4)],
        x: 4.0,
        distance: 1.0,
    };
    let c = cost(&b, &both);
    assert_eq!(c.base, 1);
    assert!(c.add_ons.contains(&PipAddOn::Reinforcements));
    assert_eq!(c.total, 4);
    b.apply(both).unwrap();
    assert!(b.figure(FigureId(4)).unwrap().on_table());
}

// DBAIX.md §5, DBAIX.md §11.7: the Gauls drink in their first bound; +2 for all but Obelix; it wears
// off after four more Gaul bounds.
#[test]
fn potion_lasts_five_gaul_bounds_and_not_for_obelix() {
    let mut b = gauls(vec![]);
    assert!(b.potion_active());
    for _ in 0..4 {
        b.apply(Action::EndMovement).unwrap();
        until(&mut b, Side::Gauls);
        roll(&mut b, 1);
        assert!(b.potion_active());
    }
    let e = b.apply(Action::EndMovement).unwrap();
    assert!(e.contains(&Event::PotionWornOff), "{e:?}");
    assert!(!b.potion_active());
}

// DBAIX.md §4, DBAIX.md §11.5, DBAIX.md §11.6: the Gauls' third six sets Cacofonix singing: enemies within 8 in
// flee a full move, the three nearest Gauls must bind him, the others may not move; binding
// costs nothing, and three binders touching him silence him.
#[test]
fn music_on_the_third_six() {
    let mut b = game(vec![
        f(1, DubiusStatus, 18.5, 10.0, 0.0),
        f(2, Legionary, 18.5, 25.0, 0.0),
        f(20, Cacofonix, 18.5, 30.0, 180.0),
        f(21, Gaul, 19.5, 31.0, 180.0),
        f(22, Gaul, 21.5, 30.0, 180.0),
        f(23, Gaul, 15.5, 30.0, 180.0),
        f(24, Obelix, 30.5, 30.0, 180.0),
        f(10, Vitalstatistix, 24.5, 30.0, 180.0),
        f(90, Captain, 2.0, 34.0, 90.0),
    ]);
    for _ in 0..2 {
        until(&mut b, Side::Gauls);
        let e = roll(&mut b, 6);
        assert!(!e.iter().any(|e| matches!(e, Event::MusicPlayed { .. })));
    }
    until(&mut b, Side::Gauls);
    let e = roll(&mut b, 6);
    // Gaul 21 touches him; 22 and 23 are both 2 in away (the lower number first).
    let binders = vec![FigureId(21), FigureId(22), FigureId(23)];
    assert!(
        e.contains(&Event::MusicPlayed {
            binders: binders.clone(),
            again: false
        }),
        "{e:?}"
    );
    // The legionary 4 in from him fled north-ish... it stood south of him: it flees south.
    let l = b.figure(FigureId(2)).unwrap();
    assert!(l.pose.y < 25.0 - 3.9, "{:?}", l.pose);
    assert!((l.pose.facing - 180.0).abs() < 1e-6);
    // Dubius Status 19 in away stays.
    assert_eq!(b.figure(FigureId(1)).unwrap().pose.y, 10.0);
    // Obelix may not move.
    assert!(matches!(
        b.check(&mv(&[24], 180.0, 1.0)).unwrap_err(),
        DbaixError::HandsOverEars { .. }
    ));
    // Binders move for nothing: Gaul 21 (its base x 19..20, y 31..32) steps behind him.
    let e = b.apply(mv(&[21], 270.0, 1.0)).unwrap();
    assert!(
        matches!(&e[0], Event::Moved { cost, .. } if cost.total == 0),
        "{e:?}"
    );
    b.apply(mv(&[22], 270.0, 2.0)).unwrap();
    b.apply(mv(&[23], 90.0, 2.0)).unwrap();
    let e = b.apply(Action::EndMovement).unwrap();
    assert!(e.contains(&Event::Silenced), "{e:?}");
    assert!(b.music().is_none());
}

// DBAIX.md §6.1: a figure touched on the side turns to face the enemy when nobody is on its front.
#[test]
fn touched_on_the_side_turns_to_face() {
    let mut b = game(vec![
        f(1, DubiusStatus, 2.5, 2.0, 0.0),
        f(2, Legionary, 14.0, 20.5, 270.0),
        f(11, Gaul, 10.5, 20.0, 180.0),
        f(10, Vitalstatistix, 30.5, 33.0, 180.0),
        f(90, Captain, 2.0, 34.0, 90.0),
    ]);
    roll(&mut b, 6);
    // Legionary facing west, front edge x = 14, y 20..21 → 3 in west: its front edge at x = 11,
    // against the Gaul's side (the Gaul faces south, its base is x 10..11, y 20..21).
    let e = b.apply(mv(&[2], 270.0, 3.0)).unwrap();
    assert!(
        matches!(&e[0], Event::Moved { cost, .. } if cost.add_ons.contains(&PipAddOn::FlankContact))
    );
    let e = b.apply(Action::EndMovement).unwrap();
    assert!(
        e.iter()
            .any(|e| matches!(e, Event::TurnedToFace { figure, .. } if *figure == FigureId(11))),
        "{e:?}"
    );
    assert_eq!(b.phase(), Phase::CloseCombat);
}

// DBAIX.md §4: the binders' moves are compulsory. While one of them can still go nearer to
// Cacofonix the Gauls' movement cannot end, and a binder's move must take it nearer; both
// refusals name the rule and change nothing. Our reading: a binder that is blocked is released.
#[test]
fn the_binders_must_go_to_cacofonix() {
    let mut b = game(vec![
        f(1, DubiusStatus, 18.5, 10.0, 0.0),
        f(20, Cacofonix, 18.5, 30.0, 180.0),
        f(21, Gaul, 19.5, 31.0, 180.0),
        f(22, Gaul, 21.5, 30.0, 180.0),
        f(23, Gaul, 15.5, 30.0, 180.0),
        f(24, Obelix, 30.5, 30.0, 180.0),
        f(10, Vitalstatistix, 24.5, 30.0, 180.0),
        f(90, Captain, 2.0, 34.0, 90.0),
    ]);
    for _ in 0..2 {
        until(&mut b, Side::Gauls);
        roll(&mut b, 6);
    }
    until(&mut b, Side::Gauls);
    roll(&mut b, 6);
    assert!(b.music().is_some());
    // 21 touches him already; 22 and 23 are 2 in away and must come.
    assert_eq!(b.obliged_binders(), vec![FigureId(22), FigureId(23)]);
    let before = b.clone();
    let e = b.apply(Action::EndMovement).unwrap_err();
    assert_eq!(
        e,
        DbaixError::BindersMustMove {
            binders: vec![FigureId(22), FigureId(23)]
        }
    );
    assert_eq!(dbcore::ErrorInfo::rule(&e), Some("DBAIX.md §4"));
    assert_eq!(b, before);
    // 22 stands east of him: going further east is refused.
    let e = b.apply(mv(&[22], 90.0, 1.0)).unwrap_err();
    assert_eq!(e, DbaixError::BinderMustCloseIn { id: FigureId(22) });
    assert_eq!(b, before);
    // Each binder's own step towards him is legal, and once taken the movement may end.
    for id in [22, 23] {
        let step = b.binder_step(FigureId(id)).expect("a way towards him");
        b.apply(step).unwrap();
    }
    assert!(b.obliged_binders().is_empty(), "{:?}", b.obliged_binders());
    b.apply(Action::EndMovement).unwrap();
}
