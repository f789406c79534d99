//! The table handle called from Rust: its answers are dbcore's own, and the example table the C
//! and Python examples load (`examples/data/table.json`) is the one built here.
//!
//! Regenerate the example file with `DBCORE_UPDATE_EXAMPLES=1 cargo test -p dbcore-ffi --test suite table::`.

use std::ffi::{c_char, CStr, CString};
use std::path::PathBuf;
use std::ptr;

use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Polygon, Pose};
use dbcore::table::{ElementContact, PlacedElement, Table};
use dbcore::terrain::{AreaFeature, AreaKind, TerrainFeature};
use dbcore::RulesConfig;
use dbcore_ffi::*;

/// An outline rounded to 1/64 BW, so that the JSON stays short and exact.
fn rounded(f: AreaFeature) -> AreaFeature {
    let r = |v: f64| (v * 64.0).round() / 64.0;
    let round_points = |ps: &[Point]| ps.iter().map(|p| Point::new(r(p.x), r(p.y))).collect();
    AreaFeature {
        outline: Polygon::new(round_points(&f.outline.points)),
        crest: round_points(&f.crest),
        ..f
    }
}

fn placed(id: u32, side: u8, code: &str, x: f64, y: f64, facing: f64) -> PlacedElement {
    PlacedElement {
        id,
        side,
        kind: code.parse().unwrap(),
        pose: Pose::new(x, y, facing),
        general: false,
    }
}

/// The example table: a wood and a gentle hill, and seven elements. Side 0 faces north (0),
/// side 1 south (180).
fn example_table() -> Table {
    let mut field = Battlefield::new(Board::standard(15.0).unwrap());
    field
        .features
        .push(TerrainFeature::Area(rounded(AreaFeature::ellipse(
            AreaKind::Wood,
            Point::new(3.5, 10.0),
            1.5,
            1.2,
            0.0,
            16,
        ))));
    field
        .features
        .push(TerrainFeature::Area(rounded(AreaFeature::ellipse(
            AreaKind::GentleHill,
            Point::new(12.0, 11.5),
            2.0,
            1.3,
            0.0,
            16,
        ))));
    let mut elements = vec![
        // Blades (the general) and Warband front to front: in close combat (§8.2 a).
        placed(1, 0, "4Bd", 7.5, 7.0, 0.0),
        placed(2, 1, "4Wb", 7.5, 7.0, 180.0),
        // Bows 2 BW in front of Cavalry: in range (§9.1).
        placed(3, 0, "4Bw", 10.5, 5.0, 0.0),
        placed(4, 1, "Cv", 10.5, 7.0, 180.0),
        // Knights ½ BW in front of Spears: each in the other's threat zone (§8.1).
        placed(5, 0, "3Kn", 4.5, 6.5, 0.0),
        placed(6, 1, "4Sp", 4.5, 7.0, 180.0),
        // Psiloi in the wood: bad going (§3.1).
        placed(7, 1, "Ps", 3.5, 10.0, 180.0),
    ];
    elements[0].general = true;
    Table::new(field, elements).unwrap()
}

fn example_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/data/table.json")
}

#[test]
fn the_example_table_file_is_current() {
    let want = serde_json::to_string_pretty(&example_table()).unwrap() + "\n";
    let path = example_path();
    if std::env::var_os("DBCORE_UPDATE_EXAMPLES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &want).unwrap();
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "{} is stale: run DBCORE_UPDATE_EXAMPLES=1 cargo test -p dbcore-ffi --test suite table::",
        path.display()
    );
}

struct Handle(*mut DbcoreTable);

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { dbcore_table_free(self.0) };
    }
}

fn load(table: &Table) -> Handle {
    let json = CString::new(serde_json::to_string(table).unwrap()).unwrap();
    let mut h = ptr::null_mut();
    assert_eq!(
        unsafe { dbcore_table_new_json(json.as_ptr(), &mut h) },
        DbcoreStatus::Ok
    );
    Handle(h)
}

fn take(p: *mut c_char) -> String {
    let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned();
    unsafe { dbcore_string_free(p) };
    s
}

#[test]
fn the_handle_answers_as_dbcore_does() {
    let table = example_table();
    let cfg = RulesConfig::default();
    let h = load(&table);
    for e in &table.elements {
        let mut out = ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_table_contacts_json(h.0, e.id, &mut out) },
            DbcoreStatus::Ok
        );
        let got: Vec<ElementContact> = serde_json::from_str(&take(out)).unwrap();
        assert_eq!(got, table.contacts_of(e.id, &cfg).unwrap());

        let mut out = ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_table_threat_zones_on_json(h.0, e.id, &mut out) },
            DbcoreStatus::Ok
        );
        let got: Vec<u32> = serde_json::from_str(&take(out)).unwrap();
        assert_eq!(got, table.enemy_threat_zones_on(e.id, &cfg).unwrap());

        let mut flag = 9u32;
        assert_eq!(
            unsafe { dbcore_table_in_close_combat(h.0, e.id, &mut flag) },
            DbcoreStatus::Ok
        );
        assert_eq!(flag == 1, table.in_close_combat(e.id, &cfg).unwrap());
    }
    // The table survives JSON unchanged.
    let mut out = ptr::null_mut();
    assert_eq!(
        unsafe { dbcore_table_to_json(h.0, &mut out) },
        DbcoreStatus::Ok
    );
    let back: Table = serde_json::from_str(&take(out)).unwrap();
    assert_eq!(back, table);
}

#[test]
fn the_example_table_says_what_its_comments_claim() {
    let table = example_table();
    let cfg = RulesConfig::default();
    // §8.2 a, §10.2: front to front, lined up: in close combat.
    assert!(table.in_close_combat(1, &cfg).unwrap());
    // §8.1: ½ BW in front of an enemy is inside its threat zone.
    assert_eq!(table.enemy_threat_zones_on(5, &cfg).unwrap(), vec![6]);
    // §9.1: Bows shoot 3 BW; the Cavalry 2 BW ahead is a target.
    let (targets, _) = table.shooting_targets(3, &cfg).unwrap();
    assert_eq!(targets.first().map(|t| t.target), Some(4));
    // §3.1: a wood is bad going.
    assert_eq!(
        table.going_under(7, &cfg).unwrap(),
        dbcore::terrain::Going::Bad
    );
}
