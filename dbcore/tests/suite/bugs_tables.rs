//! The BUGS! tables file: the values the transcription lost, supplied by the user and checked
//! with every problem named at once (BUGS.md §17; readings R4–R8, R29), and the sheets they
//! complete (BUGS.md §2–4).

use dbcore::bugs::{
    tables_template, validate_tables, BugsError, Encounter, Impact, Sheet, Targets, Weapon, Wound,
};
use dbcore::{ErrorCode, ErrorInfo};
use serde_json::{json, Value};

use crate::bugs_support::*;

fn problems(v: &Value) -> Vec<(String, String)> {
    validate_tables(v)
        .unwrap_err()
        .problems
        .into_iter()
        .map(|p| (p.at, p.problem))
        .collect()
}

fn synthetic_json() -> Value {
    serde_json::to_value(synthetic()).unwrap()
}

// BUGS.md §17 and readings R6–R8: the template has every lost value empty, and every one of them
// is named at once: 66 Impact cells, 22 Wound cells, the weapons' ranges and the rifle's and
// pistol's target counts, four sheet values and the Being Charged cell.
#[test]
fn the_template_names_every_missing_value_at_once() {
    let p = problems(&serde_json::to_value(tables_template()).unwrap());
    let count = |prefix: &str| p.iter().filter(|(at, _)| at.starts_with(prefix)).count();
    assert_eq!(count("impact."), 66);
    assert_eq!(count("wound."), 22);
    assert_eq!(count("weapons."), 2 * 4 + 2);
    assert_eq!(count("sheets."), 4);
    assert_eq!(count("being_charged_passed_none"), 1);
    assert_eq!(p.len(), 66 + 22 + 10 + 4 + 1);
    assert!(p.contains(&("impact.11.7".to_string(), "empty".to_string())));
    let will = p
        .iter()
        .find(|(at, _)| at == "sheets.citizen.will")
        .unwrap();
    // The STAM = POW × WILL pattern is offered as a hint, never filled in (reading R4).
    assert!(will.1.contains("would make it 7"), "{}", will.1);
    let grenade = p
        .iter()
        .find(|(at, _)| at == "weapons.grenade.effective_in")
        .unwrap();
    assert!(grenade.1.contains("Up to 4"));
}

// The template shipped in examples/ is the generated one.
#[test]
fn the_shipped_template_is_the_generated_one() {
    let path = bugs_dir().join("../../examples/bugs/tables-template.json");
    let text = std::fs::read_to_string(&path).expect("examples/bugs/tables-template.json");
    let want = serde_json::to_string_pretty(&tables_template()).unwrap() + "\n";
    assert!(
        text == want,
        "examples/bugs/tables-template.json is out of date: run `cargo run -p xtask -- golden`"
    );
}

// Readings R6–R8: the synthetic fixture is complete; its cells are read as numbers, W, 1 and K.
#[test]
fn the_synthetic_tables_are_complete() {
    let t = validate_tables(&synthetic_json()).unwrap();
    assert_eq!(t.impact(11, 10), Some(Impact::W));
    assert_eq!(t.impact(11, 9), Some(Impact::Loss(4)));
    assert_eq!(t.wound(10, 12).unwrap().1, Wound::K);
    assert_eq!(t.wound(10, 5).unwrap(), (10, Wound::Loss(1)));
    assert_eq!(t.assault_rifle.targets, Targets::UpTo(2));
    assert_eq!(t.heavy_weapon.targets, Targets::Burst);
    assert_eq!(t.grenade.max_in, Some(4.0), "\"na\": no long range");
    assert_eq!(t.assault_rifle.max_in, Some(36.0));
    // Not the booklet's 55 W: a warning, not an error (reading R7).
    assert!(t.warnings.iter().any(|w| w.contains("W cells")));
}

// Readings R6–R8, R29: wrong values are named with where they are, every one.
#[test]
fn wrong_values_are_named_where_they_are() {
    let mut v = synthetic_json();
    v["impact"]["9"]["7"] = json!("X");
    v["impact"]["9"]["8"] = json!(-3);
    v["impact"]["6"].as_object_mut().unwrap().remove("12");
    v["impact"]["6"]["13"] = json!(1);
    v["impact"].as_object_mut().unwrap().remove("12");
    v["wound"]["9"]["2"] = json!("dead");
    v["wound"].as_object_mut().unwrap().remove("7");
    v["weapons"]["pistol"]["max_in"] = json!(2);
    v["weapons"]["assault_rifle"]["targets"] = json!(0);
    v["weapons"]["heavy_weapon"]["targets"] = json!(3);
    v["sheets"]["little_un"]["ws"] = json!(13);
    v["being_charged_passed_none"] = json!("pursue");
    v["colour"] = json!("red");
    let p: Vec<String> = problems(&v).into_iter().map(|(at, _)| at).collect();
    for want in [
        "impact.9.7",
        "impact.9.8",
        "impact.6.12",
        "impact.6.13",
        "impact.12",
        "wound.9.2",
        "wound.7",
        "weapons.pistol.max_in",
        "weapons.assault_rifle.targets",
        "weapons.heavy_weapon.targets",
        "sheets.little_un.ws",
        "being_charged_passed_none",
        "tables.colour",
    ] {
        assert!(p.contains(&want.to_string()), "{want} not in {p:?}");
    }
    assert_eq!(p.len(), 13, "{p:?}");
    // Lower-case letters and the booklet's -1 are read as they print.
    let mut v = synthetic_json();
    v["impact"]["9"]["7"] = json!("w");
    v["wound"]["9"]["2"] = json!(-1);
    v["wound"]["9"]["12"] = json!("k");
    let t = validate_tables(&v).unwrap();
    assert_eq!(t.impact(9, 7), Some(Impact::W));
    assert_eq!(t.wound(9, 2).unwrap().1, Wound::Loss(1));
    assert!(validate_tables(&json!([1, 2])).is_err());
}

// BUGS.md §17: the engine refuses to start an encounter without the lost values, naming every
// one; set-up problems come with them.
#[test]
fn no_encounter_without_the_tables() {
    let mut s = demo(1);
    s.tables = tables_template();
    let err = Encounter::new(s.clone()).unwrap_err();
    assert_eq!(
        (err.code(), err.rule()),
        (ErrorCode::InvalidSetup, Some("BUGS §17"))
    );
    match &err {
        BugsError::Tables(t) => assert_eq!(t.problems.len(), 103),
        e => panic!("{e}"),
    }
    assert!(err.to_string().contains("impact.5.2: empty"));
    s.turn_limit = Some(0);
    s.figures[1].at = s.figures[0].at;
    match Encounter::new(s).unwrap_err() {
        BugsError::Setup { problems } => {
            assert!(problems.iter().any(|p| p.at == "turn_limit"));
            assert!(problems.iter().any(|p| p.at == "figures.1"));
            assert!(problems.iter().any(|p| p.at == "tables.impact.5.2"));
        }
        e => panic!("{e}"),
    }
}

// BUGS.md §2–4 and readings R3–R5, R41, R45, R49: the sheets' surviving values, the lost ones
// from the tables file, the weapons' dice and Power.
#[test]
fn the_sheets_and_weapons() {
    let t = validate_tables(&synthetic_json()).unwrap();
    let c = Sheet::Soldier.characteristics(&t);
    assert_eq!(
        (
            c.ws,
            c.pow,
            c.will,
            c.stam,
            c.dav,
            c.weapon,
            c.damage_dice,
            c.movement,
            c.grenades
        ),
        (10, 9, 9, 81, 8, Weapon::AssaultRifle, 3, 8.0, 2)
    );
    let b = Sheet::BigUn.characteristics(&t);
    assert_eq!(
        (
            b.ws,
            b.pow,
            b.will,
            b.stam,
            b.dav,
            b.damage_dice,
            b.movement
        ),
        (12, 12, 10, 120, 12, 3, 6.0)
    );
    let l = Sheet::LittleUn.characteristics(&t);
    assert_eq!(
        (l.ws, l.will, l.stam, l.dav, l.damage_dice, l.movement),
        (9, 7, 49, 8, 2, 12.0)
    );
    let p = Sheet::CitizenWithPistol.characteristics(&t);
    assert_eq!((p.ws, p.will, p.stam, p.weapon), (6, 7, 42, Weapon::Pistol));
    assert_eq!(
        Sheet::HeavyWeaponSoldier.characteristics(&t).weapon,
        Weapon::HeavyWeapon
    );
    assert_eq!(Sheet::Colonist.characteristics(&t).ws, 7);
    assert!(Sheet::Colonist.is_citizen() && !Sheet::Colonist.is_soldier());
    assert_eq!(Weapon::Grenade.power(11), Some(11));
    assert_eq!(Weapon::Grenade.power(9), Some(9));
    assert_eq!(Weapon::AssaultRifle.damage_dice(), Some(3));
    assert_eq!(Weapon::Pistol.power(11), Some(5));
    assert!(!Weapon::ClawsTeeth.is_ranged() && Weapon::HeavyWeapon.is_burst(&t));
}
