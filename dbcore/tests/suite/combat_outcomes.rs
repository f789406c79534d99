//! DBA3.md §11: one test per row of the outcome tables.

use crate::common;

use common::*;
use dbcore::combat::{Band, Outcome, Shot, Situation, Stronghold};
use dbcore::Going;
use Band::{Beaten, Doubled, Equal};
use Outcome::{Destroyed, Flee, NoEffect, Recoil};

// ---------------------------------------------------------------- §11.1 equal totals

#[test]
fn s11_1_tie_attacking_or_defending_a_stronghold_has_no_effect() {
    // DBA3.md §11.1, §17.49: no effect for either side of a fight for a city, fort or camp.
    let s = cc(
        c("3Kn").assaulting(Stronghold::Camp),
        c("Sp").defending(Stronghold::Camp, 0),
    );
    assert_eq!(a_outcome(&s, Equal), NoEffect);
    assert_eq!(b_outcome(&s, Equal), NoEffect);
}

#[test]
fn s11_1_scythed_chariots_tied_are_destroyed() {
    // DBA3.md §11.1: Scythed Chariots. Destroyed.
    assert_eq!(a_outcome(&cc(c("SCh"), c("Ps")), Equal), Destroyed);
    assert_eq!(a_outcome(&cc(c("SCh"), c("LH")), Equal), Destroyed);
}

#[test]
fn s11_1_knights_tied_by_any_blades_are_destroyed() {
    // DBA3.md §11.1, §17.4: any Blades, including 3Bd, 6Bd and CP/Lit/CWg.
    for b in ["4Bd", "3Bd", "6Bd", "CP", "Lit", "CWg", "Mtd-4Bd"] {
        assert_eq!(
            a_outcome(&cc(c("3Kn"), c(b)), Equal),
            Destroyed,
            "3Kn vs {b}"
        );
    }
}

#[test]
fn s11_1_knights_tied_by_longbows_or_crossbows_are_destroyed() {
    // DBA3.md §11.1: destroyed in close combat by Bows if these are Lb or Cb.
    for b in ["4Lb", "3Lb", "8Lb", "4Cb", "3Cb", "8Cb", "Mtd-3Cb"] {
        assert_eq!(
            a_outcome(&cc(c("HCh"), c(b)), Equal),
            Destroyed,
            "HCh vs {b}"
        );
    }
}

#[test]
fn s11_1_camelry_tied_by_blades_are_destroyed() {
    // DBA3.md §11.1: "Knights or Camelry".
    assert_eq!(a_outcome(&cc(c("Cm"), c("4Bd")), Equal), Destroyed);
}

#[test]
fn s11_1_knights_tied_by_other_solid_foot_recoil() {
    // DBA3.md §11.1: recoiled in close combat by other "Solid" foot.
    for b in ["Sp", "4Pk", "4Bw", "4Ax", "7Hd", "WWg"] {
        assert_eq!(a_outcome(&cc(c("6Kn"), c(b)), Equal), Recoil, "6Kn vs {b}");
    }
}

#[test]
fn s11_1_knights_tied_by_fast_foot_or_mounted_no_effect() {
    // DBA3.md §11.1: otherwise no effect.
    for b in ["3Ax", "Ps", "3Bw", "Cv", "El"] {
        assert_eq!(
            a_outcome(&cc(c("3Kn"), c(b)), Equal),
            NoEffect,
            "3Kn vs {b}"
        );
    }
}

#[test]
fn s11_1_cataphracts_tied_by_3kn_recoil_but_not_by_other_knights() {
    // DBA3.md §11.1, §17.5: 4Kn recoiled in close combat by 3Kn, exactly 3Kn.
    assert_eq!(a_outcome(&cc(c("4Kn"), c("3Kn")), Equal), Recoil);
    assert_eq!(a_outcome(&cc(c("4Kn"), c("6Kn")), Equal), NoEffect);
    assert_eq!(a_outcome(&cc(c("3Kn"), c("4Kn")), Equal), NoEffect);
}

#[test]
fn s11_1_knights_tied_when_shot_at_by_crossbows_no_effect() {
    // DBA3.md §11.1: the Knights' quick kills are "in close combat" only.
    let s = shoot(c("4Cb"), c("3Kn"));
    assert_eq!(b_outcome(&s, Equal), NoEffect);
}

#[test]
fn s11_1_other_mounted_tied_by_solid_foot_in_close_combat_recoil() {
    // DBA3.md §11.1: Other mounted. Recoiled by "Solid" foot in close combat.
    for a in ["El", "Cv", "6Cv", "LCh", "LH", "LCm"] {
        assert_eq!(a_outcome(&cc(c(a), c("Sp")), Equal), Recoil, "{a} vs Sp");
    }
}

#[test]
fn s11_1_other_mounted_tied_otherwise_no_effect() {
    // DBA3.md §11.1: otherwise no effect.
    assert_eq!(a_outcome(&cc(c("Cv"), c("3Ax")), Equal), NoEffect);
    assert_eq!(a_outcome(&cc(c("LH"), c("Cv")), Equal), NoEffect);
    // Shot at by Solid Bows: close combat only for mounted.
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("Cv")), Equal), NoEffect);
}

#[test]
fn s11_1_fast_foot_tied_by_solid_foot_in_close_combat_recoil() {
    // DBA3.md §11.1: Fast foot. Recoiled by "Solid" foot in close combat with it.
    for a in ["3Ax", "3Bd", "Ps", "5Hd", "3Wb", "3Pk"] {
        assert_eq!(a_outcome(&cc(c(a), c("Sp")), Equal), Recoil, "{a} vs Sp");
    }
}

#[test]
fn s11_1_fast_foot_tied_by_solid_foot_shooting_recoil() {
    // DBA3.md §11.1: ... or shooting at it.
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("Ps")), Equal), Recoil);
    assert_eq!(b_outcome(&shoot(c("3Bw"), c("Ps")), Equal), NoEffect);
}

#[test]
fn s11_1_fast_foot_tied_otherwise_no_effect() {
    // DBA3.md §11.1: otherwise no effect.
    assert_eq!(a_outcome(&cc(c("3Ax"), c("3Bd")), Equal), NoEffect);
    assert_eq!(a_outcome(&cc(c("Ps"), c("Cv")), Equal), NoEffect);
}

#[test]
fn s11_1_sallied_camp_followers_fight_as_fast_foot() {
    // DBA3.md §2.2, §17.3: camp followers fight as Fast foot, so Solid foot recoil them on a tie.
    assert_eq!(a_outcome(&cc(c("CF"), c("Sp")), Equal), Recoil);
}

#[test]
fn s11_1_solid_foot_tied_nothing_happens() {
    // DBA3.md §11.1: Solid foot. No effect.
    assert_eq!(a_outcome(&cc(c("Sp"), c("4Bd")), Equal), NoEffect);
    assert_eq!(a_outcome(&cc(c("4Bw"), c("4Kn")), Equal), NoEffect);
}

// ---------------------------------------------------------------- §11.2 beaten

#[test]
fn s11_2_row1_beaten_defenders_of_a_stronghold_are_destroyed() {
    // DBA3.md §11.2 general row 1.
    for place in [Stronghold::City, Stronghold::Fort, Stronghold::Camp] {
        let s = cc(c("Sp").defending(place, 0), c("4Bd").assaulting(place));
        assert_eq!(a_outcome(&s, Beaten), Destroyed, "{place}");
    }
    let s = cc(
        c("CF").defending(Stronghold::Camp, 0),
        c("4Wb").assaulting(Stronghold::Camp),
    );
    assert_eq!(a_outcome(&s, Beaten), Destroyed);
    let s = cc(
        c("Dz").defending(Stronghold::City, 0),
        c("4Wb").assaulting(Stronghold::City),
    );
    assert_eq!(a_outcome(&s, Beaten), Destroyed);
}

#[test]
fn s11_2_row1_beaten_sallied_civilians_are_destroyed() {
    // DBA3.md §11.2 general row 1: denizens or camp followers that have sallied.
    assert_eq!(a_outcome(&cc(c("Dz"), c("Ps")), Beaten), Destroyed);
    assert_eq!(a_outcome(&cc(c("CF"), c("LH")), Beaten), Destroyed);
}

#[test]
fn s11_2_row1_beaten_mounted_infantry_in_bad_going_are_destroyed() {
    // DBA3.md §11.2 general row 1: mounted infantry in bad going.
    let s = cc(in_going(c("Mtd-4Bw"), Going::Bad), c("3Ax"));
    assert_eq!(a_outcome(&s, Beaten), Destroyed);
    // In good going they use their foot type's row: Bows recoil from foot.
    assert_eq!(a_outcome(&cc(c("Mtd-4Bw"), c("3Ax")), Beaten), Recoil);
}

#[test]
fn s11_2_row2_beaten_assaulters_recoil() {
    // DBA3.md §11.2 general row 2: recoil if in close combat against defenders.
    let s = cc(
        c("4Bd").assaulting(Stronghold::Fort),
        c("Sp").defending(Stronghold::Fort, 0),
    );
    assert_eq!(a_outcome(&s, Beaten), Recoil);
    // Knights would otherwise die to Light Horse; against a camp's defenders they recoil.
    let s = cc(
        c("3Kn").assaulting(Stronghold::Camp),
        c("LH").defending(Stronghold::Camp, 0),
    );
    assert_eq!(a_outcome(&s, Beaten), Recoil);
}

#[test]
fn s11_2_row2_elephants_recoiling_from_city_or_fort_defenders_are_destroyed() {
    // DBA3.md §4.7, §12.1: Elephants recoiling from defenders of a city or fort are destroyed.
    let s = cc(
        c("El").assaulting(Stronghold::City),
        c("Sp").defending(Stronghold::City, 0),
    );
    assert_eq!(a_outcome(&s, Beaten), Destroyed);
    // A camp is not a city or fort: they recoil.
    let s = cc(
        c("El").assaulting(Stronghold::Camp),
        c("Sp").defending(Stronghold::Camp, 0),
    );
    assert_eq!(a_outcome(&s, Beaten), Recoil);
}

#[test]
fn s11_2_row3_beaten_general_only_elements_no_effect() {
    // DBA3.md §11.2 general row 3: no effect if CP, Lit or CWg.
    for a in ["CP", "Lit", "CWg"] {
        assert_eq!(a_outcome(&cc(c(a), c("3Kn")), Beaten), NoEffect, "{a}");
    }
}

#[test]
fn s11_2_elephants_destroyed_by_psiloi_auxilia_light_horse() {
    // DBA3.md §11.2 El: destroyed by Psiloi, Auxilia and Light Horse (close combat).
    for w in ["Ps", "4Ax", "3Ax", "LH", "LCm"] {
        assert_eq!(
            a_outcome(&cc(c("El"), c(w)), Beaten),
            Destroyed,
            "El vs {w}"
        );
    }
}

#[test]
fn s11_2_elephants_destroyed_by_artillery_shooting() {
    // DBA3.md §11.2 El: or by Artillery shooting.
    assert_eq!(b_outcome(&shoot(c("Art"), c("El")), Beaten), Destroyed);
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("El")), Beaten), Recoil);
}

#[test]
fn s11_2_elephants_otherwise_recoil() {
    // DBA3.md §11.2 El: if not, recoil.
    assert_eq!(a_outcome(&cc(c("El"), c("4Bd")), Beaten), Recoil);
}

#[test]
fn s11_2_scythed_chariots_shot_at_flee() {
    // DBA3.md §11.2 SCh: flee if shot at ...
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("SCh")), Beaten), Flee);
}

#[test]
fn s11_2_scythed_chariots_shot_from_behind_are_destroyed() {
    // DBA3.md §11.2 SCh, §17.6: ... unless the shooter is at least partly beyond their rear edge.
    let s = Situation::shooting(
        c("4Bw"),
        c("SCh"),
        Shot {
            from_behind: true,
            ..Shot::default()
        },
    );
    assert_eq!(b_outcome(&s, Beaten), Destroyed);
}

#[test]
fn s11_2_scythed_chariots_beaten_in_close_combat_are_destroyed() {
    // DBA3.md §11.2 SCh: if not, destroyed.
    assert_eq!(a_outcome(&cc(c("SCh"), c("Sp")), Beaten), Destroyed);
}

#[test]
fn s11_2_knights_destroyed_by_el_sch_cm_lh() {
    // DBA3.md §11.2 Kn.
    for w in ["El", "SCh", "Cm", "LH", "LCm"] {
        assert_eq!(
            a_outcome(&cc(c("3Kn"), c(w)), Beaten),
            Destroyed,
            "3Kn vs {w}"
        );
    }
}

#[test]
fn s11_2_knights_otherwise_recoil() {
    // DBA3.md §11.2 Kn: if not, recoil.
    assert_eq!(a_outcome(&cc(c("4Kn"), c("Sp")), Beaten), Recoil);
    assert_eq!(a_outcome(&cc(c("HCh"), c("Cv")), Beaten), Recoil);
}

#[test]
fn s11_2_camelry_destroyed_by_scythed_chariots_or_in_bad_going() {
    // DBA3.md §11.2 Cm.
    assert_eq!(a_outcome(&cc(c("Cm"), c("SCh")), Beaten), Destroyed);
    assert_eq!(
        a_outcome(&cc(in_going(c("Cm"), Going::Bad), c("3Ax")), Beaten),
        Destroyed
    );
}

#[test]
fn s11_2_camelry_flee_from_elephants() {
    // DBA3.md §11.2 Cm: flee from Elephants.
    assert_eq!(a_outcome(&cc(c("Cm"), c("El")), Beaten), Flee);
}

#[test]
fn s11_2_camelry_otherwise_recoil() {
    // DBA3.md §11.2 Cm: if not, recoil.
    assert_eq!(a_outcome(&cc(c("Cm"), c("Sp")), Beaten), Recoil);
}

#[test]
fn s11_2_cavalry_flee_from_scythed_chariots_or_in_bad_going() {
    // DBA3.md §11.2 Cv.
    assert_eq!(a_outcome(&cc(c("Cv"), c("SCh")), Beaten), Flee);
    assert_eq!(
        a_outcome(&cc(in_going(c("LCh"), Going::Bad), c("3Ax")), Beaten),
        Flee
    );
}

#[test]
fn s11_2_cavalry_otherwise_recoil() {
    // DBA3.md §11.2 Cv: if not, recoil. Rough going is not bad going.
    assert_eq!(a_outcome(&cc(c("6Cv"), c("Sp")), Beaten), Recoil);
    assert_eq!(
        a_outcome(&cc(in_going(c("Cv"), Going::Rough), c("3Ax")), Beaten),
        Recoil
    );
}

#[test]
fn s11_2_light_horse_flee_from_sch_artillery_shooting_or_bad_going() {
    // DBA3.md §11.2 LH.
    assert_eq!(a_outcome(&cc(c("LH"), c("SCh")), Beaten), Flee);
    assert_eq!(b_outcome(&shoot(c("Art"), c("LH")), Beaten), Flee);
    assert_eq!(
        a_outcome(&cc(in_going(c("LCm"), Going::Bad), c("Ps")), Beaten),
        Flee
    );
}

#[test]
fn s11_2_light_horse_otherwise_recoil() {
    // DBA3.md §11.2 LH: if not, recoil; Artillery in close combat is not shooting.
    assert_eq!(a_outcome(&cc(c("LH"), c("Cv")), Beaten), Recoil);
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("LH")), Beaten), Recoil);
}

#[test]
fn s11_2_spears_pikes_blades_destroyed_by_knights_or_sch_in_good_going() {
    // DBA3.md §11.2 Sp, Pk, Bd.
    for x in ["Sp", "4Pk", "3Pk", "4Bd", "3Bd", "6Bd", "8Sp"] {
        assert_eq!(
            a_outcome(&cc(c(x), c("3Kn")), Beaten),
            Destroyed,
            "{x} vs 3Kn"
        );
        assert_eq!(
            a_outcome(&cc(c(x), c("SCh")), Beaten),
            Destroyed,
            "{x} vs SCh"
        );
    }
}

#[test]
fn s11_2_spears_pikes_blades_recoil_from_knights_when_not_in_good_going() {
    // DBA3.md §11.2 Sp, Pk, Bd: "if in good going" qualifies Knights and SCh.
    let s = cc(in_going(c("4Bd"), Going::Rough), c("3Kn"));
    assert_eq!(a_outcome(&s, Beaten), Recoil);
}

#[test]
fn s11_2_blades_beaten_by_warband_are_destroyed_in_any_going() {
    // DBA3.md §11.2 Sp, Pk, Bd: or by Warband (any going).
    assert_eq!(a_outcome(&cc(c("4Bd"), c("4Wb")), Beaten), Destroyed);
    let s = cc(in_going(c("Sp"), Going::Bad), c("3Wb"));
    assert_eq!(a_outcome(&s, Beaten), Destroyed);
}

#[test]
fn s11_2_spears_pikes_blades_otherwise_recoil() {
    // DBA3.md §11.2 Sp, Pk, Bd: if not, recoil.
    assert_eq!(a_outcome(&cc(c("Sp"), c("4Bd")), Beaten), Recoil);
    assert_eq!(a_outcome(&cc(c("4Pk"), c("Cv")), Beaten), Recoil);
}

#[test]
fn s11_2_auxilia_destroyed_by_knights_in_good_going() {
    // DBA3.md §11.2 Ax.
    assert_eq!(a_outcome(&cc(c("4Ax"), c("3Kn")), Beaten), Destroyed);
    assert_eq!(
        a_outcome(&cc(in_going(c("3Ax"), Going::Bad), c("3Kn")), Beaten),
        Recoil
    );
    assert_eq!(a_outcome(&cc(c("3Ax"), c("4Wb")), Beaten), Recoil);
}

#[test]
fn s11_2_bows_destroyed_by_any_mounted() {
    // DBA3.md §11.2 Bw.
    for w in ["LH", "Cv", "El", "3Kn"] {
        assert_eq!(
            a_outcome(&cc(c("4Bw"), c(w)), Beaten),
            Destroyed,
            "4Bw vs {w}"
        );
    }
    assert_eq!(a_outcome(&cc(c("3Lb"), c("4Bd")), Beaten), Recoil);
}

#[test]
fn s11_2_psiloi_destroyed_by_kn_cv_cm_in_going_good_for_them() {
    // DBA3.md §11.2 Ps: in going which to the opponent is good.
    for w in ["3Kn", "Cv", "Cm"] {
        assert_eq!(
            a_outcome(&cc(c("Ps"), c(w)), Beaten),
            Destroyed,
            "Ps vs {w}"
        );
    }
    // Cavalry in rough going: not good for them, so the Psiloi recoil.
    let s = cc(c("Ps"), in_going(c("Cv"), Going::Rough));
    assert_eq!(a_outcome(&s, Beaten), Recoil);
    // Light Horse are not in the beaten row.
    assert_eq!(a_outcome(&cc(c("Ps"), c("LH")), Beaten), Recoil);
}

#[test]
fn s11_2_warband_destroyed_by_knights_or_sch_in_good_going() {
    // DBA3.md §11.2 Wb.
    assert_eq!(a_outcome(&cc(c("4Wb"), c("3Kn")), Beaten), Destroyed);
    assert_eq!(a_outcome(&cc(c("3Wb"), c("SCh")), Beaten), Destroyed);
    assert_eq!(
        a_outcome(&cc(in_going(c("4Wb"), Going::Rough), c("3Kn")), Beaten),
        Recoil
    );
    assert_eq!(a_outcome(&cc(c("4Wb"), c("4Bd")), Beaten), Recoil);
}

#[test]
fn s11_2_hordes_destroyed_by_knights_or_elephants_in_good_going_or_by_warband() {
    // DBA3.md §11.2 Hd.
    assert_eq!(a_outcome(&cc(c("7Hd"), c("3Kn")), Beaten), Destroyed);
    assert_eq!(a_outcome(&cc(c("5Hd"), c("El")), Beaten), Destroyed);
    assert_eq!(
        a_outcome(&cc(in_going(c("7Hd"), Going::Bad), c("4Wb")), Beaten),
        Destroyed
    );
}

#[test]
fn s11_2_hordes_recoil_if_shot_at_otherwise_no_effect() {
    // DBA3.md §11.2 Hd: recoil if shot at; if neither, no effect.
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("7Hd")), Beaten), Recoil);
    assert_eq!(a_outcome(&cc(c("7Hd"), c("4Bd")), Beaten), NoEffect);
    assert_eq!(
        a_outcome(&cc(in_going(c("7Hd"), Going::Rough), c("3Kn")), Beaten),
        NoEffect
    );
}

#[test]
fn s11_2_war_wagons_destroyed_by_artillery_shooting_or_elephants() {
    // DBA3.md §11.2 WWg.
    assert_eq!(b_outcome(&shoot(c("Art"), c("WWg")), Beaten), Destroyed);
    assert_eq!(a_outcome(&cc(c("WWg"), c("El")), Beaten), Destroyed);
    assert_eq!(a_outcome(&cc(c("WWg"), c("4Bd")), Beaten), NoEffect);
}

#[test]
fn s11_2_artillery_beaten_are_destroyed() {
    // DBA3.md §11.2 Art: destroyed.
    assert_eq!(a_outcome(&cc(c("Art"), c("Ps")), Beaten), Destroyed);
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("Art")), Beaten), Destroyed);
}

// ---------------------------------------------------------------- §11.3 doubled

#[test]
fn s11_3_row1_doubled_defenders_are_destroyed() {
    // DBA3.md §11.3 row 1, even Light Horse that would otherwise flee.
    let s = cc(
        c("LH").defending(Stronghold::Camp, 0),
        c("4Bd").assaulting(Stronghold::Camp),
    );
    assert_eq!(a_outcome(&s, Doubled), Destroyed);
}

#[test]
fn s11_3_cavalry_flee_from_pikes_spears_hordes_in_good_going() {
    // DBA3.md §11.3 Cv.
    for w in ["Sp", "4Pk", "7Hd"] {
        assert_eq!(a_outcome(&cc(c("Cv"), c(w)), Doubled), Flee, "Cv vs {w}");
    }
    // Not in good going: destroyed.
    let s = cc(in_going(c("Cv"), Going::Rough), c("Sp"));
    assert_eq!(a_outcome(&s, Doubled), Destroyed);
}

#[test]
fn s11_3_cavalry_flee_from_artillery_in_close_combat() {
    // DBA3.md §11.3 Cv: or Artillery in close combat.
    assert_eq!(a_outcome(&cc(c("Cv"), c("Art")), Doubled), Flee);
    assert_eq!(b_outcome(&shoot(c("Art"), c("Cv")), Doubled), Destroyed);
}

#[test]
fn s11_3_cavalry_otherwise_destroyed() {
    // DBA3.md §11.3 Cv: if not, destroyed.
    assert_eq!(a_outcome(&cc(c("Cv"), c("4Bd")), Doubled), Destroyed);
    assert_eq!(a_outcome(&cc(c("LCh"), c("El")), Doubled), Destroyed);
}

#[test]
fn s11_3_light_horse_destroyed_by_mounted_artillery_shooting_bows_psiloi_or_bad_going() {
    // DBA3.md §11.3 LH.
    assert_eq!(a_outcome(&cc(c("LH"), c("Cv")), Doubled), Destroyed);
    assert_eq!(b_outcome(&shoot(c("Art"), c("LH")), Doubled), Destroyed);
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("LH")), Doubled), Destroyed);
    assert_eq!(a_outcome(&cc(c("LH"), c("3Bw")), Doubled), Destroyed);
    assert_eq!(a_outcome(&cc(c("LH"), c("Ps")), Doubled), Destroyed);
    assert_eq!(
        a_outcome(&cc(in_going(c("LH"), Going::Bad), c("4Bd")), Doubled),
        Destroyed
    );
}

#[test]
fn s11_3_light_horse_otherwise_flee() {
    // DBA3.md §11.3 LH: if not, flee.
    assert_eq!(a_outcome(&cc(c("LH"), c("4Bd")), Doubled), Flee);
    assert_eq!(a_outcome(&cc(c("LCm"), c("Sp")), Doubled), Flee);
}

#[test]
fn s11_3_psiloi_destroyed_by_mounted_in_going_good_for_them() {
    // DBA3.md §11.3 Ps: Knights, Cavalry, Camelry or Light Horse in going they count as good.
    for w in ["3Kn", "Cv", "Cm", "LH"] {
        assert_eq!(
            a_outcome(&cc(c("Ps"), c(w)), Doubled),
            Destroyed,
            "Ps vs {w}"
        );
    }
    let s = cc(c("Ps"), in_going(c("LH"), Going::Bad));
    assert_eq!(a_outcome(&s, Doubled), Flee);
}

#[test]
fn s11_3_psiloi_destroyed_in_close_combat_by_auxilia_bows_psiloi() {
    // DBA3.md §11.3 Ps: or in close combat against Auxilia, Bows or Psiloi.
    for w in ["4Ax", "3Bw", "Ps"] {
        assert_eq!(
            a_outcome(&cc(c("Ps"), c(w)), Doubled),
            Destroyed,
            "Ps vs {w}"
        );
    }
    // Shot at by Bows is not close combat: they flee.
    assert_eq!(b_outcome(&shoot(c("4Bw"), c("Ps")), Doubled), Flee);
}

#[test]
fn s11_3_psiloi_recoil_from_elephants_or_scythed_chariots() {
    // DBA3.md §11.3 Ps: recoil from Elephants or Scythed Chariots.
    assert_eq!(a_outcome(&cc(c("Ps"), c("El")), Doubled), Recoil);
    assert_eq!(a_outcome(&cc(c("Ps"), c("SCh")), Doubled), Recoil);
}

#[test]
fn s11_3_psiloi_otherwise_flee() {
    // DBA3.md §11.3 Ps: if not, flee.
    assert_eq!(a_outcome(&cc(c("Ps"), c("4Bd")), Doubled), Flee);
}

#[test]
fn s11_3_all_others_doubled_are_destroyed() {
    // DBA3.md §11.3: all others destroyed.
    // Flanked on three edges so that even strong kinds can be doubled.
    for x in ["Sp", "3Kn", "El", "4Bw", "7Hd", "WWg", "CP", "Cm", "SCh"] {
        let s = cc(c(x).flanked(3), c("4Bd"));
        assert_eq!(a_outcome(&s, Doubled), Destroyed, "{x} vs 4Bd");
    }
}

// ---------------------------------------------------------------- shooting specifics

#[test]
fn s17_24_a_shooter_suffers_nothing_unless_its_target_shoots_back() {
    // DBA3.md §9.6, §17.24.
    let s = shoot(c("4Bw"), c("Sp"));
    assert_eq!(a_outcome(&s, Doubled), NoEffect);
    let back = Situation::shooting(
        c("4Bw"),
        c("3Bw"),
        Shot {
            target_shoots_back: true,
            ..Shot::default()
        },
    );
    assert_eq!(a_outcome(&back, Beaten), Recoil);
}

#[test]
fn s11_rule_text_names_the_row() {
    // Every outcome carries the row of §11 that gave it.
    let s = cc(c("4Bd"), c("4Wb"));
    assert!(a_rule(&s, Beaten).starts_with("§11.2 Sp, Pk, Bd"));
    let s = cc(c("3Kn"), c("4Bd"));
    assert!(a_rule(&s, Equal).starts_with("§11.1"));
}

#[test]
fn s11_3_doubled_mounted_infantry_in_bad_going_are_destroyed() {
    // DBA3.md §11.2 general row 1 and §11.3 (our reading): what destroys them when beaten
    // destroys them when doubled, even as mounted Psiloi who would otherwise flee.
    let s = cc(in_going(c("Mtd-Ps").flanked(3), Going::Bad), c("4Bd"));
    assert_eq!(a_outcome(&s, Doubled), Destroyed);
    assert_eq!(
        a_outcome(&cc(c("Mtd-Ps").flanked(3), c("4Bd")), Doubled),
        Flee
    );
}
