//! The picture of the table (DBA3.md §1.2, §3) is byte-stable: compared with a committed SVG.
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p dbcore --test svg_snapshot`.

mod terrain_fixtures;

use dbcore::battlefield::{Battlefield, BoardEdge};
use dbcore::geometry::Polygon;
use dbcore::svg::{battlefield_svg, SvgElement, SvgOptions};
use dbcore::terrain::{AreaKind, TerrainFeature, Waterway};
use terrain_fixtures::*;

fn scene() -> (Battlefield, Vec<SvgElement>, SvgOptions) {
    let mut bf = legal_table();
    bf.features.push(TerrainFeature::Waterway(Waterway {
        edge: BoardEdge::West,
        depths: vec![1.0, 1.0],
        beach: 0.5,
    }));
    bf.features
        .push(area(AreaKind::Marsh, 7.0, 13.5, 1.0, 0.6, 0.0));
    let mut elements = Vec::new();
    for (i, label) in ["4Bd", "4Sp", "3Kn"].iter().enumerate() {
        elements.push(SvgElement {
            rect: el(5.5 + i as f64, 4.5, 0.0, 0.5),
            side: 0,
            label: label.to_string(),
            general: i == 2,
            command: None,
        });
    }
    for (i, label) in ["3Wb", "2LH", "<Ps & Co>"].iter().enumerate() {
        elements.push(SvgElement {
            rect: el(5.5 + i as f64, 10.0, 180.0, 0.75),
            side: 1,
            label: label.to_string(),
            general: i == 0,
            command: None,
        });
    }
    elements.push(SvgElement {
        rect: el(12.0, 8.5, 45.0, 0.5),
        side: 2,
        label: "Ally".to_string(),
        general: false,
        command: None,
    });
    let tz = Polygon::new(vec![p(7.0, 4.5), p(8.0, 4.5), p(8.0, 5.5), p(7.0, 5.5)]);
    let opts = SvgOptions {
        defender_base: Some(BoardEdge::South),
        threat_zones: vec![tz],
        ..SvgOptions::default()
    };
    (bf, elements, opts)
}

#[test]
fn svg_matches_the_committed_snapshot() {
    // DBA3.md §1.2, §3: board, terrain by going, crests, river, road, waterway, BUA, elements.
    let (bf, elements, opts) = scene();
    let svg = battlefield_svg(&bf, &elements, &opts);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/table.svg");
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        std::fs::write(path, &svg).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(path)
        .expect("snapshot missing: run with UPDATE_SNAPSHOTS=1 to create it");
    assert!(
        svg == want,
        "SVG differs from {path}; run with UPDATE_SNAPSHOTS=1 to accept the new picture"
    );
}

#[test]
fn svg_is_deterministic_and_escapes_labels() {
    // The picture is a pure function of its inputs.
    let (bf, elements, opts) = scene();
    let a = battlefield_svg(&bf, &elements, &opts);
    assert_eq!(a, battlefield_svg(&bf, &elements, &opts));
    assert!(a.contains("&lt;Ps &amp; Co&gt;"));
    assert!(!a.contains("-0.000"));
    assert!(a.starts_with("<svg ") && a.ends_with("</svg>\n"));
}

#[test]
fn svg_shows_each_kind_of_thing() {
    // DBA3.md §3.1: good, rough and bad going are shaded differently; crests dashed; river,
    // road, waterway, BUA gates; elements with front edges; general marked; threat zone shaded.
    let (bf, elements, opts) = scene();
    let svg = battlefield_svg(&bf, &elements, &opts);
    for class in [
        "class=\"crest\"",
        "class=\"river\"",
        "class=\"road\"",
        "class=\"waterway\"",
        "class=\"beach\"",
        "class=\"gate\"",
        "class=\"front\"",
        "class=\"general\"",
        "class=\"threat-zone\"",
        "class=\"element side-2\"",
        "class=\"quarter\"",
    ] {
        assert!(svg.contains(class), "{class}");
    }
    let fill_of = |class: &str| -> String {
        let line = svg
            .lines()
            .find(|l| l.contains(class))
            .unwrap_or_else(|| panic!("{class}"));
        let i = line.find("fill=\"").unwrap() + 6;
        line[i..i + 7].to_string()
    };
    let good = fill_of("terrain gentle-hill");
    let rough = fill_of("terrain scrub");
    let bad = fill_of("terrain wood");
    assert!(good != rough && rough != bad && good != bad);
    assert_eq!(bad, fill_of("terrain difficult-hill"));
}

#[test]
fn svg_of_an_empty_table_is_just_the_board() {
    // DBA3.md §1.2.
    let svg = battlefield_svg(&Battlefield::default(), &[], &SvgOptions::default());
    assert!(svg.contains("class=\"board\""));
    assert!(!svg.contains("class=\"terrain"));
    assert!(!svg.contains("class=\"element"));
}
