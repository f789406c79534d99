//! DBA3.md §10.1 combat factors and §10.3 tactical factors: one test per factor.

use crate::common;

use common::*;
use dbcore::combat::{Shot, Situation, Stronghold, Supporter};
use dbcore::{ElementKind, FactorName as F, Going, RulesConfig};

#[test]
fn s10_1_every_kind_uses_the_column_of_its_enemy_class() {
    // DBA3.md §10.1: the factor used is the column for the enemy element's class.
    let cfg = RulesConfig::default();
    for k in ElementKind::all() {
        let r = cfg.kind(k.base());
        let vs_foot = cc(Combatant::new(k), c("Ps"));
        assert_eq!(
            a_factor(&vs_foot, F::VsFoot),
            r.factor_vs_foot,
            "{k} vs foot"
        );
        let vs_mounted = cc(Combatant::new(k), c("LH"));
        assert_eq!(
            a_factor(&vs_mounted, F::VsMounted),
            r.factor_vs_mounted,
            "{k} vs mounted"
        );
    }
}
use dbcore::Combatant;

#[test]
fn s10_1_table_values() {
    // DBA3.md §10.1 table, spot checks of every row.
    let rows = [
        ("El", 5, 4),
        ("3Kn", 3, 4),
        ("HCh", 3, 4),
        ("Cv", 3, 3),
        ("LCh", 3, 3),
        ("LH", 2, 2),
        ("SCh", 3, 4),
        ("Cm", 3, 3),
        ("Sp", 4, 4),
        ("4Pk", 3, 4),
        ("4Bd", 5, 3),
        ("6Bd", 5, 3),
        ("4Ax", 3, 3),
        ("4Bw", 2, 4),
        ("Ps", 2, 2),
        ("4Wb", 3, 2),
        ("7Hd", 3, 2),
        ("Art", 4, 4),
        ("WWg", 3, 4),
        ("CF", 2, 0),
        ("Dz", 2, 0),
        ("CP", 5, 3),
        ("Mtd-4Bw", 2, 4),
    ];
    for (code, foot, mounted) in rows {
        assert_eq!(a_factor(&cc(c(code), c("Sp")), F::VsFoot), foot, "{code}");
        assert_eq!(
            a_factor(&cc(c(code), c("Cv")), F::VsMounted),
            mounted,
            "{code}"
        );
    }
}

#[test]
fn s10_1_blades_and_general_only_elements_are_4_when_shot_at() {
    // DBA3.md §10.1: Bd +5 (+4 when shot at); CP, Lit, CWg likewise (§17.19).
    for code in ["4Bd", "3Bd", "6Bd", "CP", "Lit", "CWg"] {
        let s = shoot(c("4Bw"), c(code));
        assert_eq!(a_factor(&s.swapped(), F::ShotAt), 4, "{code}");
    }
    // Other targets use their factor against foot.
    let s = shoot(c("4Bw"), c("3Kn"));
    assert_eq!(a_factor(&s.swapped(), F::VsFoot), 3);
}

#[test]
fn s10_1_artillery_in_a_city_or_fort_is_2() {
    // DBA3.md §10.1: Art in a City or Fort +2 / +2.
    let s = cc(
        c("Art").defending(Stronghold::City, 0),
        c("4Bd").assaulting(Stronghold::City),
    );
    assert_eq!(a_factor(&s, F::ArtilleryInCityOrFort), 2);
    assert_eq!(a_factor(&s, F::Garrison), 4);
}

#[test]
fn s10_3_garrison_of_city_or_fort_plus_4() {
    // DBA3.md §10.3: foot garrison defending a City or Fort +4, close combat or shot at.
    let s = cc(
        c("4Bw").defending(Stronghold::Fort, 0),
        c("4Bd").assaulting(Stronghold::Fort),
    );
    assert_eq!(a_factor(&s, F::Garrison), 4);
    let shot = shoot(c("Art"), c("Sp").defending(Stronghold::City, 0));
    assert_eq!(a_factor(&shot.swapped(), F::Garrison), 4);
}

#[test]
fn s10_3_camp_followers_or_foot_in_own_camp_and_denizens_plus_2() {
    // DBA3.md §10.3: +2 for camp followers or other foot defending their camp, or denizens their City.
    for (code, place) in [
        ("CF", Stronghold::Camp),
        ("4Bd", Stronghold::Camp),
        ("Dz", Stronghold::City),
    ] {
        let s = cc(c(code).defending(place, 0), c("3Kn").assaulting(place));
        assert_eq!(a_factor(&s, F::CampOrCityDefenders), 2, "{code}");
        assert_eq!(a_factor(&s, F::Garrison), 0, "{code}");
    }
    // Mounted camp defenders get neither.
    let s = cc(
        c("Cv").defending(Stronghold::Camp, 0),
        c("3Kn").assaulting(Stronghold::Camp),
    );
    assert_eq!(a_factor(&s, F::CampOrCityDefenders), 0);
}

#[test]
fn s10_3_general_plus_1_in_close_combat_and_when_shot_at() {
    // DBA3.md §10.3, §17.25: general +1 in close combat or shot at.
    assert_eq!(a_factor(&cc(c("3Kn").general(), c("Sp")), F::General), 1);
    let s = shoot(c("4Bw"), c("Cv").general());
    assert_eq!(a_factor(&s.swapped(), F::General), 1);
    // A shooting general whose target does not shoot back is not "shot at".
    let s = shoot(c("4Bw").general(), c("Cv"));
    assert_eq!(a_factor(&s, F::General), 0);
}

#[test]
fn s14_4_cinc_bonus_plus_1_once() {
    // DBA3.md §14.4: the C-in-C's element may add +1 once per game.
    let mut k = c("3Kn").general();
    k.cinc_bonus = true;
    assert_eq!(a_factor(&cc(k, c("Sp")), F::CinC), 1);
}

#[test]
fn s10_3_uphill_plus_1_close_combat_only() {
    // DBA3.md §10.3: uphill +1 in close combat only.
    assert_eq!(a_factor(&cc(c("Sp").uphill(), c("4Bd")), F::Uphill), 1);
    let s = shoot(c("4Bw"), c("Sp").uphill());
    assert_eq!(a_factor(&s.swapped(), F::Uphill), 0);
}

#[test]
fn s17_34_city_occupiers_never_count_uphill() {
    // DBA3.md §4.7, §17.34: the hill under a City or Fort is part of its defences.
    let s = cc(
        c("Sp").defending(Stronghold::City, 0).uphill(),
        c("4Bd").assaulting(Stronghold::City),
    );
    assert_eq!(a_factor(&s, F::Uphill), 0);
}

#[test]
fn s10_3_river_bank_plus_1() {
    // DBA3.md §10.3, §3.5: defending the bank of a non-paltry river +1.
    assert_eq!(
        a_factor(&cc(c("Sp").defending_bank(), c("4Bd")), F::RiverBank),
        1
    );
}

#[test]
fn s10_3_spears_side_supported_by_spears_solid_blades_or_general_only() {
    // DBA3.md §10.3: Sp with a friendly Sp or Solid Bd in side contact, both in good going;
    // CP/Lit/CWg also give it.
    for f in ["Sp", "8Sp", "4Bd", "CP"] {
        let s = cc(c("Sp").side_supported_by(kind(f)), c("4Bd"));
        assert_eq!(a_factor(&s, F::SideSupport), 1, "Sp beside {f}");
    }
    for f in ["3Bd", "4Ax", "4Bw"] {
        let s = cc(c("Sp").side_supported_by(kind(f)), c("4Bd"));
        assert_eq!(a_factor(&s, F::SideSupport), 0, "Sp beside {f}");
    }
}

#[test]
fn s10_3_solid_bows_side_supported_by_solid_blades_fast_bows_not() {
    // DBA3.md §10.3: Solid Bw with a friendly Solid Bd; Fast Bw get none.
    let s = cc(c("4Lb").side_supported_by(kind("4Bd")), c("4Bd"));
    assert_eq!(a_factor(&s, F::SideSupport), 1);
    let s = cc(c("3Bw").side_supported_by(kind("4Bd")), c("4Bd"));
    assert_eq!(a_factor(&s, F::SideSupport), 0);
    let s = cc(c("4Bw").side_supported_by(kind("Sp")), c("4Bd"));
    assert_eq!(a_factor(&s, F::SideSupport), 0);
}

#[test]
fn s10_3_side_support_counts_once_vs_foot_in_good_going_only() {
    // DBA3.md §10.3, §17.21: once even with supporters on both flanks; against foot only;
    // both in good going.
    let s = cc(
        c("Sp")
            .side_supported_by(kind("Sp"))
            .side_supported_by(kind("Sp")),
        c("4Bd"),
    );
    assert_eq!(a_factor(&s, F::SideSupport), 1);
    let s = cc(c("Sp").side_supported_by(kind("Sp")), c("3Kn"));
    assert_eq!(a_factor(&s, F::SideSupport), 0);
    let mut x = c("Sp");
    x.side_supporters.push(Supporter {
        kind: kind("Sp"),
        going: Going::Rough,
    });
    assert_eq!(a_factor(&cc(x, c("4Bd")), F::SideSupport), 0);
    let s = cc(
        in_going(c("Sp").side_supported_by(kind("Sp")), Going::Rough),
        c("4Bd"),
    );
    assert_eq!(a_factor(&s, F::SideSupport), 0);
}

#[test]
fn s10_3_pike_rear_support_plus_3_vs_foot_plus_1_vs_kn_el_sch() {
    // DBA3.md §10.3: Pk with Pk behind: +3 vs foot other than Ps, +1 vs Kn, El or SCh.
    let pk = || c("4Pk").rear_supported_by(kind("4Pk"));
    assert_eq!(a_factor(&cc(pk(), c("4Bd")), F::RearSupport), 3);
    assert_eq!(a_factor(&cc(pk(), c("Ps")), F::RearSupport), 0);
    for w in ["3Kn", "El", "SCh"] {
        assert_eq!(a_factor(&cc(pk(), c(w)), F::RearSupport), 1, "vs {w}");
    }
    assert_eq!(a_factor(&cc(pk(), c("Cv")), F::RearSupport), 0);
    let s = cc(c("3Pk").rear_supported_by(kind("4Bd")), c("4Bd"));
    assert_eq!(a_factor(&s, F::RearSupport), 0);
}

#[test]
fn s10_3_warband_rear_support_plus_1_vs_foot_not_psiloi() {
    // DBA3.md §10.3: Wb with Wb behind +1 vs foot other than Ps.
    let wb = || c("3Wb").rear_supported_by(kind("4Wb"));
    assert_eq!(a_factor(&cc(wb(), c("Sp")), F::RearSupport), 1);
    assert_eq!(a_factor(&cc(wb(), c("Ps")), F::RearSupport), 0);
    assert_eq!(a_factor(&cc(wb(), c("Cv")), F::RearSupport), 0);
}

#[test]
fn s10_3_light_horse_rear_support_plus_1_vs_anything() {
    // DBA3.md §10.3: LH with LH behind +1 vs anything.
    let lh = || c("LH").rear_supported_by(kind("LCm"));
    assert_eq!(a_factor(&cc(lh(), c("Cv")), F::RearSupport), 1);
    assert_eq!(a_factor(&cc(lh(), c("Ps")), F::RearSupport), 1);
}

#[test]
fn s10_3_rear_support_needs_both_in_good_going() {
    // DBA3.md §10.3: both in good going.
    let s = cc(
        in_going(c("4Pk").rear_supported_by(kind("4Pk")), Going::Rough),
        c("4Bd"),
    );
    assert_eq!(a_factor(&s, F::RearSupport), 0);
    let mut x = c("4Pk");
    x.rear_supporter = Some(Supporter {
        kind: kind("4Pk"),
        going: Going::Bad,
    });
    assert_eq!(a_factor(&cc(x, c("4Bd")), F::RearSupport), 0);
}

#[test]
fn s10_3_double_element_plus_1_vs_foot_in_good_going() {
    // DBA3.md §10.3, §2.4: double elements +1 vs foot in good going, not in or assaulting a
    // city, fort or camp.
    for code in ["6Kn", "6Cv", "8Sp", "6Bd", "8Bw", "8Lb", "8Cb"] {
        assert_eq!(
            a_factor(&cc(c(code), c("Sp")), F::DoubleElement),
            1,
            "{code}"
        );
        assert_eq!(
            a_factor(&cc(c(code), c("Cv")), F::DoubleElement),
            0,
            "{code} vs mounted"
        );
    }
    let s = cc(in_going(c("6Bd"), Going::Rough), c("Sp"));
    assert_eq!(a_factor(&s, F::DoubleElement), 0);
    let s = cc(
        c("6Bd").assaulting(Stronghold::Camp),
        c("CF").defending(Stronghold::Camp, 0),
    );
    assert_eq!(a_factor(&s, F::DoubleElement), 0);
    assert_eq!(a_factor(&cc(c("3Kn"), c("Sp")), F::DoubleElement), 0);
}

#[test]
fn s10_3_each_flank_or_rear_edge_overlapped_minus_1() {
    // DBA3.md §10.3, §17.21: −1 per edge, at most 3.
    for n in 0..=3u8 {
        assert_eq!(
            a_factor(&cc(c("Sp").flanked(n), c("4Bd")), F::FlankOrRear),
            -i32::from(n)
        );
    }
}

#[test]
fn s4_7_each_extra_assaulter_minus_1_to_the_defender() {
    // DBA3.md §4.7, §10.3: −1 for each 2nd and 3rd assaulter (max −2).
    for n in 0..=2u8 {
        let s = cc(
            c("Sp").defending(Stronghold::Fort, n),
            c("4Bd").assaulting(Stronghold::Fort),
        );
        assert_eq!(a_factor(&s, F::ExtraAssaulters), -i32::from(n));
    }
}

#[test]
fn s4_7_assault_ignores_overlaps_and_supports() {
    // DBA3.md §4.7: no overlaps, side or rear support apply in a fight for a stronghold.
    let s = cc(
        c("4Pk")
            .rear_supported_by(kind("4Pk"))
            .flanked(1)
            .assaulting(Stronghold::City),
        c("Sp").defending(Stronghold::City, 0),
    );
    assert_eq!(a_factor(&s, F::RearSupport), 0);
    assert_eq!(a_factor(&s, F::FlankOrRear), 0);
}

#[test]
fn s4_7_assaulters_use_their_factor_against_foot() {
    // DBA3.md §4.7: each assaulter uses its combat factor against foot, even against a mounted
    // camp defender.
    let s = cc(
        c("3Kn").assaulting(Stronghold::Camp),
        c("Cv").defending(Stronghold::Camp, 0),
    );
    assert_eq!(a_factor(&s, F::VsFoot), 3);
    assert_eq!(a_factor(&s, F::VsMounted), 0);
}

#[test]
fn s9_4_each_support_shooter_minus_1_to_the_target() {
    // DBA3.md §9.4: up to two further shooters, −1 each to the target.
    for n in 0..=2u8 {
        let s = Situation::shooting(
            c("4Bw"),
            c("Sp"),
            Shot {
                support_shooters: n,
                ..Shot::default()
            },
        );
        assert_eq!(a_factor(&s.swapped(), F::SupportShooters), -i32::from(n));
        assert_eq!(a_factor(&s, F::SupportShooters), 0);
    }
}

#[test]
fn s10_3_bad_going_minus_2_except_ax_wb_bw_ps() {
    // DBA3.md §10.3: −2 in bad going (not rough), unless Ax, Wb, Bw or Ps; close combat only.
    for code in ["Sp", "4Bd", "3Kn", "Cv", "7Hd", "CF"] {
        let s = cc(in_going(c(code), Going::Bad), c("Ps"));
        assert_eq!(a_factor(&s, F::BadGoing), -2, "{code}");
    }
    for code in ["4Ax", "3Wb", "4Bw", "Ps", "Mtd-3Bw"] {
        let s = cc(in_going(c(code), Going::Bad), c("Ps"));
        assert_eq!(a_factor(&s, F::BadGoing), 0, "{code}");
    }
    assert_eq!(
        a_factor(&cc(in_going(c("Sp"), Going::Rough), c("Ps")), F::BadGoing),
        0
    );
    let s = shoot(c("4Bw"), in_going(c("Sp"), Going::Bad));
    assert_eq!(a_factor(&s.swapped(), F::BadGoing), 0);
}

#[test]
fn s14_5_demoralised_minus_2_unless_in_a_stronghold() {
    // DBA3.md §14.5: elements of a demoralised command not in a city, fort or camp −2.
    assert_eq!(
        a_factor(&cc(c("Sp").demoralised(), c("4Bd")), F::Demoralised),
        -2
    );
    let s = cc(
        c("Sp").demoralised().defending(Stronghold::Camp, 0),
        c("4Bd").assaulting(Stronghold::Camp),
    );
    assert_eq!(a_factor(&s, F::Demoralised), 0);
}

#[test]
fn s10_2_total_is_die_plus_factors() {
    // DBA3.md §10.2: total = d6 + combat factor + tactical factors.
    let s = cc(c("4Bd").general().uphill().flanked(1), c("3Kn"));
    let p = prepared(&s);
    assert_eq!(p.a_factor(), 3 + 1 + 1 - 1);
    let r = p.resolve([
        dbcore::DieScore::new(5).unwrap(),
        dbcore::DieScore::new(2).unwrap(),
    ]);
    assert_eq!(r.a.total, 9);
    assert_eq!(r.b.total, 5);
}
