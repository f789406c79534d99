//! DBA3.md §1.3, §2, §7.3, §12.5: the troop vocabulary.

use dbcore::{ElementKind, FootClass, PursuitRule, RulesConfig, TroopType};

fn k(code: &str) -> ElementKind {
    code.parse().unwrap()
}

#[test]
fn s2_1_every_code_parses_and_prints_back() {
    // DBA3.md §2.1: every element code of the type table.
    let codes = [
        "El", "3Kn", "4Kn", "6Kn", "HCh", "Cv", "6Cv", "LCh", "LH", "LCm", "SCh", "Cm", "Sp",
        "8Sp", "4Pk", "3Pk", "4Bd", "3Bd", "6Bd", "4Ax", "3Ax", "4Bw", "3Bw", "8Bw", "4Lb", "3Lb",
        "8Lb", "4Cb", "3Cb", "8Cb", "Ps", "4Wb", "3Wb", "7Hd", "5Hd", "Art", "WWg", "CP", "Lit",
        "CWg", "CF", "Dz", "Mtd-4Bw", "Mtd-3Bw", "Mtd-4Cb", "Mtd-3Lb",
    ];
    for code in codes {
        assert_eq!(k(code).to_string(), code);
    }
    for kind in ElementKind::all() {
        assert_eq!(kind.to_string().parse::<ElementKind>().unwrap(), kind);
        let json = serde_json::to_string(&kind).unwrap();
        assert_eq!(serde_json::from_str::<ElementKind>(&json).unwrap(), kind);
    }
}

#[test]
fn s2_1_parsing_forgives_case_and_common_spellings() {
    assert_eq!(k("4sp"), k("Sp"));
    assert_eq!(k(" 4bd "), k("4Bd"));
    assert_eq!(k("mtd-4bw"), k("Mtd-4Bw"));
    assert_eq!(k("Camp-followers"), k("CF"));
    assert_eq!(k("Denizens"), k("Dz"));
}

#[test]
fn s2_1_unknown_or_malformed_codes_name_the_text_and_what_was_expected() {
    for bad in [
        "4Xx", "", "Kn", "9Bd", "Mtd-", "Mtd-7Hd", "Mtd-Art", "Mtd-8Bw",
    ] {
        let e = bad.parse::<ElementKind>().unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains(&format!("`{}`", bad.trim())), "{msg}");
        assert!(msg.contains("expected"), "{msg}");
    }
}

#[test]
fn s2_2_fast_and_solid() {
    // DBA3.md §2.2: 3, 5 or 6 figures and all Psiloi are Fast; other foot Solid.
    for code in [
        "3Pk", "3Bd", "6Bd", "3Ax", "3Bw", "3Lb", "3Cb", "Ps", "3Wb", "5Hd", "Mtd-3Bw",
    ] {
        assert_eq!(k(code).moves_as(), Some(FootClass::Fast), "{code}");
    }
    for code in [
        "Sp", "8Sp", "4Pk", "4Bd", "4Ax", "4Bw", "8Bw", "4Wb", "7Hd", "Art", "WWg", "CP",
    ] {
        assert_eq!(k(code).moves_as(), Some(FootClass::Solid), "{code}");
    }
    assert_eq!(k("Cv").moves_as(), None);
}

#[test]
fn s2_2_civilians_move_solid_fight_fast() {
    // DBA3.md §2.2: camp followers and denizens move as Solid foot and fight as Fast foot.
    for code in ["CF", "Dz"] {
        assert_eq!(k(code).moves_as(), Some(FootClass::Solid));
        assert_eq!(k(code).fights_as(), Some(FootClass::Fast));
        assert!(k(code).is_civilian());
    }
}

#[test]
fn s2_1_mounted_and_foot() {
    // DBA3.md §2.1, §0.3: mounted infantry are foot.
    for code in ["El", "3Kn", "HCh", "Cv", "LCh", "LH", "LCm", "SCh", "Cm"] {
        assert!(k(code).is_mounted(), "{code}");
    }
    for code in ["Mtd-4Bw", "Sp", "Ps", "Art", "CP"] {
        assert!(k(code).is_foot(), "{code}");
    }
    assert_eq!(k("HCh").troop_type(), TroopType::Kn);
    assert_eq!(k("LCh").troop_type(), TroopType::Cv);
    assert_eq!(k("LCm").troop_type(), TroopType::LH);
    assert_eq!(k("Mtd-3Cb").troop_type(), TroopType::Bw);
}

#[test]
fn s2_4_double_elements() {
    // DBA3.md §2.4: 6Kn, 6Cv, 8Sp, 6Bd, 8Bw (incl. 8Lb, 8Cb).
    let doubles: Vec<String> = ElementKind::all()
        .into_iter()
        .filter(|x| x.is_double())
        .map(|x| x.to_string())
        .collect();
    assert_eq!(doubles, ["6Kn", "6Cv", "8Sp", "6Bd", "8Bw", "8Lb", "8Cb"]);
}

#[test]
fn s3_1_camel_mounted() {
    // DBA3.md §3.1, §17.28.
    assert!(k("Cm").is_camel_mounted() && k("LCm").is_camel_mounted());
    assert!(!k("LH").is_camel_mounted());
}

#[test]
fn s7_3_move_distances() {
    // DBA3.md §7.3 table: good going / rough or bad.
    let cfg = RulesConfig::default();
    let rows = [
        ("LH", 4.0, 1.0),
        ("LCm", 4.0, 1.0),
        ("Cv", 4.0, 1.0),
        ("LCh", 4.0, 1.0),
        ("6Cv", 4.0, 1.0),
        ("SCh", 4.0, 1.0),
        ("3Kn", 3.0, 1.0),
        ("El", 3.0, 1.0),
        ("Cm", 3.0, 1.0),
        ("Mtd-4Bw", 3.0, 1.0),
        ("Mtd-3Bw", 3.0, 3.0),
        ("Ps", 3.0, 3.0),
        ("3Ax", 3.0, 3.0),
        ("6Bd", 3.0, 3.0),
        ("5Hd", 3.0, 3.0),
        ("4Ax", 2.0, 2.0),
        ("4Wb", 2.0, 2.0),
        ("Sp", 2.0, 1.0),
        ("4Bw", 2.0, 1.0),
        ("7Hd", 2.0, 1.0),
        ("CP", 2.0, 1.0),
        ("CF", 2.0, 1.0),
        ("Art", 2.0, 1.0),
        ("WWg", 2.0, 1.0),
    ];
    for (code, good, rough) in rows {
        assert_eq!(cfg.move_distance(k(code), false), good, "{code}");
        assert_eq!(cfg.move_distance(k(code), true), rough, "{code}");
    }
    assert!(!cfg.kind(k("Art").base()).may_enter_bad_going);
    assert!(!cfg.kind(k("WWg").base()).may_enter_bad_going);
}

#[test]
fn s1_3_depths() {
    // DBA3.md §1.3: depths in BW.
    let cfg = RulesConfig::default();
    let rows = [
        ("El", 1.0),
        ("3Kn", 0.75),
        ("6Kn", 1.5),
        ("HCh", 1.0),
        ("Cv", 0.75),
        ("LH", 0.75),
        ("Sp", 0.375),
        ("8Sp", 0.75),
        ("4Bd", 0.375),
        ("3Bd", 0.5),
        ("6Bd", 1.0),
        ("Ps", 0.5),
        ("7Hd", 1.0),
        ("5Hd", 0.75),
        ("Mtd-4Bw", 0.75),
        ("CF", 0.5),
    ];
    for (code, depth) in rows {
        assert_eq!(cfg.depth(k(code)), depth, "{code}");
    }
}

#[test]
fn s9_1_shooters_and_ranges() {
    // DBA3.md §9.1: Bows and War Wagons 3 BW, Artillery 5 BW.
    let cfg = RulesConfig::default();
    assert_eq!(cfg.shooting_range(k("4Bw")), Some(3.0));
    assert_eq!(cfg.shooting_range(k("Mtd-3Lb")), Some(3.0));
    assert_eq!(cfg.shooting_range(k("WWg")), Some(3.0));
    assert_eq!(cfg.shooting_range(k("Art")), Some(5.0));
    assert_eq!(cfg.shooting_range(k("Ps")), None);
    assert!(!k("Ps").shoots());
}

#[test]
fn s12_5_pursuit_rules_by_kind() {
    // DBA3.md §12.5.
    assert_eq!(k("3Kn").pursuit(), PursuitRule::OneBw);
    assert_eq!(k("4Kn").pursuit(), PursuitRule::Never);
    assert_eq!(k("5Hd").pursuit(), PursuitRule::OneBw);
    assert_eq!(k("4Pk").pursuit(), PursuitRule::HalfBwAfterFoot);
    assert_eq!(k("CP").pursuit(), PursuitRule::Never);
    assert_eq!(k("Mtd-4Bd").pursuit(), PursuitRule::HalfBwAfterFoot);
}

#[test]
fn s6_3_kinds_costing_an_extra_pip() {
    // DBA3.md §6.3 (a): SCh, El, Hd, WWg, Art, denizens, camp followers.
    let extra: Vec<String> = ElementKind::all()
        .into_iter()
        .filter(|x| x.costs_extra_pip())
        .map(|x| x.to_string())
        .collect();
    assert_eq!(extra, ["El", "SCh", "7Hd", "5Hd", "Art", "WWg", "CF", "Dz"]);
}

#[test]
fn config_round_trips_through_json_and_validates() {
    // A house rule is a config value: serde in and out, checked on use.
    let cfg = RulesConfig::default();
    cfg.validate().unwrap();
    let json = serde_json::to_string(&cfg).unwrap();
    assert!(json.contains("\"4Bd\""));
    let back: RulesConfig = serde_json::from_str(&json).unwrap();
    assert_eq!(back, cfg);
    let mut bad = cfg.clone();
    bad.kinds.get_mut(&k("Sp").base()).unwrap().depth = -1.0;
    assert!(bad.validate().is_err());
}
