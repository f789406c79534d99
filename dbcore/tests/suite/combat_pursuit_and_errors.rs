//! DBA3.md §12.5 pursuit and the refusals of impossible situations (§4, §9, §10).

use crate::common;

use common::*;
use dbcore::combat::{Band, CombatError, Outcome, Pursuit, Shot, Side, Situation, Stronghold};
use dbcore::{DieScore, ErrorCode, ErrorInfo, RulesConfig};

fn pursuit_when_a(s: &Situation, band: Band) -> Option<Pursuit> {
    results_where_a(s, band)[0].pursuit
}

#[test]
fn s12_5_knights_pursue_1_bw() {
    // DBA3.md §12.5: Knights other than 4Kn, SCh, El, Hd pursue 1 BW.
    for code in ["3Kn", "6Kn", "HCh", "SCh", "El", "7Hd", "5Hd"] {
        let s = cc(c(code), c("Ps"));
        let p = pursuit_when_a(&s, Band::Higher).expect(code);
        assert_eq!((p.side, p.distance, p.into), (Side::A, 1.0, None), "{code}");
    }
}

#[test]
fn s12_5_cataphracts_and_others_do_not_pursue() {
    // DBA3.md §12.5: 4Kn excepted; Cv, LH, Sp, Ax, Bw, Ps never pursue.
    for code in ["4Kn", "Cv", "LH", "Sp", "4Ax", "4Bw", "Ps", "CP"] {
        let s = cc(c(code), c("7Hd"));
        assert_eq!(pursuit_when_a(&s, Band::Higher), None, "{code}");
    }
}

#[test]
fn s12_5_pikes_blades_warband_pursue_half_bw_after_foot_not_psiloi() {
    // DBA3.md §12.5: Pk, Bd (not CP, Lit, CWg) or Wb that fought foot other than Ps.
    for code in ["4Pk", "3Bd", "6Bd", "4Wb"] {
        let p = pursuit_when_a(&cc(c(code), c("Sp")), Band::Higher).expect(code);
        assert_eq!(p.distance, 0.5);
        assert_eq!(pursuit_when_a(&cc(c(code), c("Ps")), Band::Higher), None);
        assert_eq!(pursuit_when_a(&cc(c(code), c("Cv")), Band::Higher), None);
    }
}

#[test]
fn s12_5_no_pursuit_when_the_opponent_is_unaffected() {
    // DBA3.md §12.5: only when the opponent recoils, flees or is destroyed. Solid foot tied.
    let s = cc(c("7Hd"), c("Sp"));
    let r = results_where_a(&s, Band::Equal);
    assert!(r.iter().all(|r| r.pursuit.is_none()));
}

#[test]
fn s12_5_tie_winner_that_is_unaffected_pursues_a_recoiling_opponent() {
    // DBA3.md §12.5: Blades tie Fast foot, which recoil (§11.1), and follow up ½ BW.
    let s = cc(c("4Bd"), c("3Ax"));
    let p = pursuit_when_a(&s, Band::Equal).unwrap();
    assert_eq!((p.side, p.distance), (Side::A, 0.5));
}

#[test]
fn s12_5_no_pursuit_after_shooting() {
    // DBA3.md §9.6, §17.48: pursuit follows close combat only.
    let s = shoot(c("4Bw"), c("Ps"));
    assert!(results_where_a(&s, Band::Higher)
        .iter()
        .all(|r| r.pursuit.is_none()));
}

#[test]
fn s12_5_destroying_defenders_moves_in() {
    // DBA3.md §4.7, §12.5, §17.47: the winner moves into the feature, its pursuit distance or
    // foot ½ BW, mounted 1 BW.
    let s = cc(
        c("3Kn").assaulting(Stronghold::Camp),
        c("CF").defending(Stronghold::Camp, 0),
    );
    let p = pursuit_when_a(&s, Band::Higher).unwrap();
    assert_eq!((p.distance, p.into), (1.0, Some(Stronghold::Camp)));
    let s = cc(
        c("Cv").assaulting(Stronghold::Camp),
        c("CF").defending(Stronghold::Camp, 0),
    );
    assert_eq!(pursuit_when_a(&s, Band::Higher).unwrap().distance, 1.0);
    let s = cc(
        c("4Ax").assaulting(Stronghold::City),
        c("Dz").defending(Stronghold::City, 0),
    );
    let p = pursuit_when_a(&s, Band::Higher).unwrap();
    assert_eq!((p.distance, p.into), (0.5, Some(Stronghold::City)));
}

#[test]
fn s17_38_elephants_do_not_enter_a_captured_stronghold() {
    // DBA3.md §17.38: Elephants and mobile towers do not move in.
    let s = cc(
        c("El").assaulting(Stronghold::Camp),
        c("CF").defending(Stronghold::Camp, 0),
    );
    assert_eq!(pursuit_when_a(&s, Band::Higher), None);
}

#[test]
fn s4_2_a_garrison_never_pursues() {
    // DBA3.md §4.2, §12.5: a winner in a city, fort or camp does not pursue.
    let s = cc(
        c("4Bd").defending(Stronghold::City, 0),
        c("3Wb").assaulting(Stronghold::City),
    );
    assert_eq!(pursuit_when_a(&s, Band::Higher), None);
}

fn err(s: &Situation) -> CombatError {
    dbcore::combat::odds(s, &RulesConfig::default()).unwrap_err()
}

#[test]
fn s9_1_only_shooters_shoot() {
    // DBA3.md §9.1: Bows, War Wagons and Artillery shoot; Psiloi never do.
    let e = err(&shoot(c("Ps"), c("Sp")));
    assert_eq!(e, CombatError::NotAShooter { kind: kind("Ps") });
    assert_eq!(e.rule(), Some("§9.1"));
    assert_eq!(e.code(), ErrorCode::IllegalSituation);
    let back = Situation::shooting(
        c("4Bw"),
        c("Sp"),
        Shot {
            target_shoots_back: true,
            ..Shot::default()
        },
    );
    assert_eq!(err(&back), CombatError::NotAShooter { kind: kind("Sp") });
    for code in ["4Bw", "Mtd-3Cb", "WWg", "Art", "8Lb"] {
        assert!(dbcore::combat::odds(&shoot(c(code), c("Sp")), &RulesConfig::default()).is_ok());
    }
}

#[test]
fn s9_4_at_most_two_support_shooters() {
    // DBA3.md §9.4.
    let s = Situation::shooting(
        c("4Bw"),
        c("Sp"),
        Shot {
            support_shooters: 3,
            ..Shot::default()
        },
    );
    assert_eq!(
        err(&s),
        CombatError::TooManySupportShooters { given: 3, max: 2 }
    );
}

#[test]
fn s10_3_at_most_three_flank_and_rear_edges() {
    // DBA3.md §10.3, §17.21.
    assert_eq!(
        err(&cc(c("Sp").flanked(4), c("4Bd"))),
        CombatError::TooManyFlankContacts { given: 4 }
    );
}

#[test]
fn s14_4_cinc_bonus_needs_a_general() {
    // DBA3.md §14.4.
    let mut x = c("3Kn");
    x.cinc_bonus = true;
    assert_eq!(err(&cc(x, c("Sp"))), CombatError::CinCWithoutGeneral);
}

#[test]
fn s4_7_assaulters_and_defenders_must_face_each_other() {
    // DBA3.md §4.7.
    let s = cc(c("Sp").defending(Stronghold::Camp, 0), c("4Bd"));
    assert_eq!(
        err(&s),
        CombatError::UnmatchedAssault {
            place: Stronghold::Camp
        }
    );
    let s = cc(
        c("Sp").assaulting(Stronghold::City),
        c("4Bd").defending(Stronghold::Fort, 0),
    );
    assert!(matches!(err(&s), CombatError::UnmatchedAssault { .. }));
}

#[test]
fn s4_7_too_many_assaulters() {
    // DBA3.md §4.7: up to 3 assaulters.
    let s = cc(
        c("Sp").defending(Stronghold::Camp, 3),
        c("4Bd").assaulting(Stronghold::Camp),
    );
    assert!(matches!(
        err(&s),
        CombatError::TooManyAssaulters { given: 3, .. }
    ));
}

#[test]
fn s4_6_s4_2_who_may_defend() {
    // DBA3.md §4.6: camps are not defended by El or SCh; §4.2: cities not held by El, SCh, WWg;
    // denizens only in cities, camp followers only in camps.
    let cases = [
        ("El", Stronghold::Camp, "§4.6"),
        ("SCh", Stronghold::Camp, "§4.6"),
        ("WWg", Stronghold::City, "§4.2"),
        ("CF", Stronghold::City, "§4.2"),
        ("Dz", Stronghold::Fort, "§4.3"),
        ("El", Stronghold::Fort, "§4.3"),
    ];
    for (code, place, rule) in cases {
        let s = cc(c(code).defending(place, 0), c("4Bd").assaulting(place));
        let e = err(&s);
        assert_eq!(e.rule(), Some(rule), "{code} in {place}");
    }
}

#[test]
fn s17_37_fort_exclusion_is_a_switch() {
    // DBA3.md §17.37: the City exclusion applied to forts can be switched off.
    let mut cfg = RulesConfig::default();
    cfg.combat.fort_occupier_exclusion = false;
    let s = cc(
        c("WWg").defending(Stronghold::Fort, 0),
        c("4Bd").assaulting(Stronghold::Fort),
    );
    assert!(dbcore::combat::odds(&s, &cfg).is_ok());
}

#[test]
fn s8_4_who_may_assault() {
    // DBA3.md §4.7, §8.4: SCh, CP, Lit, CWg and Art may not contact a stronghold.
    for code in ["SCh", "CP", "Lit", "CWg", "Art"] {
        let s = cc(
            c(code).assaulting(Stronghold::Camp),
            c("CF").defending(Stronghold::Camp, 0),
        );
        assert!(
            matches!(err(&s), CombatError::IllegalAssaulter { .. }),
            "{code}"
        );
    }
}

#[test]
fn s0_3_dice_are_one_to_six() {
    // DBA3.md §0.3: a die is a d6; 0 and 7 are refused with the dice family code.
    for bad in [0u8, 7] {
        let e = DieScore::new(bad).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidDie);
    }
}

#[test]
fn json_request_round_trip() {
    // The JSON shape other languages send.
    let json = r#"{
        "situation": {
            "a": {"kind": "3Kn", "general": true},
            "b": {"kind": "4Bd", "going": "rough", "flank_rear_contacts": 1},
            "engagement": {"type": "close_combat"}
        },
        "dice": [4, 3]
    }"#;
    let req: dbcore::combat::ResolveRequest = serde_json::from_str(json).unwrap();
    let r = dbcore::resolve(&req.situation, req.dice, &RulesConfig::default()).unwrap();
    assert_eq!(r.a.total, 4 + 3 + 1);
    assert_eq!(r.b.total, 3 + 3 - 1);
    assert_eq!(r.b.outcome, Outcome::Recoil);
    let back: dbcore::CombatResult =
        serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
    let bad = r#"{"situation": {"a": {"kind": "4Xx"}, "b": {"kind": "Sp"}}, "dice": [1, 2]}"#;
    assert!(serde_json::from_str::<dbcore::combat::ResolveRequest>(bad)
        .unwrap_err()
        .to_string()
        .contains("4Xx"));
    let bad_die = r#"{"situation": {"a": {"kind": "Sp"}, "b": {"kind": "Sp"}}, "dice": [0, 2]}"#;
    assert!(serde_json::from_str::<dbcore::combat::ResolveRequest>(bad_die).is_err());
}
