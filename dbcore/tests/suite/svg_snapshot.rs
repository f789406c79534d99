//! The picture of the table (DBA3.md §1.2, §3) is byte-stable: compared with a committed SVG.
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p dbcore --test suite svg_snapshot::`.

use crate::terrain_fixtures;

use dbcore::battlefield::{Battlefield, BoardEdge};
use dbcore::geometry::Polygon;
use dbcore::svg::{
    battlefield_svg, SvgArmy, SvgCommand, SvgElement, SvgKey, SvgOptions, SvgTroopKind,
};
use dbcore::terrain::{AreaKind, TerrainFeature, Waterway};
use terrain_fixtures::*;

fn key() -> SvgKey {
    SvgKey {
        armies: vec![
            SvgArmy {
                name: "Romans".into(),
                lost: vec!["#4 4Bd".into(), "#5 Ps (off table)".into()],
                losses: 2,
                commands: Vec::new(),
            },
            SvgArmy {
                name: "Britons & <Allies>".into(),
                lost: Vec::new(),
                losses: 0,
                commands: vec![SvgCommand {
                    id: 2,
                    text: "command 2, demoralised".into(),
                }],
            },
            SvgArmy {
                name: "Gauls".into(),
                ..SvgArmy::default()
            },
        ],
        status: Some("Bound 3 · the Romans to move · movement, 2 PIPs left".into()),
        troop_kinds: vec![SvgTroopKind {
            code: "4Bd".into(),
            name: "Blades (Solid)".into(),
        }],
        camps: Vec::new(),
    }
}

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
            id: Some(1 + i as u32),
        });
    }
    for (i, label) in ["3Wb", "2LH", "<Ps & Co>"].iter().enumerate() {
        elements.push(SvgElement {
            rect: el(5.5 + i as f64, 10.0, 180.0, 0.75),
            side: 1,
            label: label.to_string(),
            general: i == 0,
            command: if i == 1 { Some(2) } else { None },
            id: Some(101 + i as u32),
        });
    }
    elements.push(SvgElement {
        rect: el(12.0, 8.5, 45.0, 0.5),
        side: 2,
        label: "Ally".to_string(),
        general: false,
        command: None,
        id: None,
    });
    let tz = Polygon::new(vec![p(7.0, 4.5), p(8.0, 4.5), p(8.0, 5.5), p(7.0, 5.5)]);
    let opts = SvgOptions {
        defender_base: Some(BoardEdge::South),
        threat_zones: vec![tz],
        key: Some(key()),
        ..SvgOptions::default()
    };
    (bf, elements, opts)
}

#[test]
fn svg_matches_the_committed_snapshot() {
    // DBA3.md §1.2, §3: board, terrain by going, crests, river, road, waterway, BUA, elements.
    let (bf, elements, opts) = scene();
    let svg = battlefield_svg(&bf, &elements, &opts);
    matches_snapshot(
        &svg,
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/table.svg"),
    );
}

/// The picture is the committed one at `path`, or with `UPDATE_SNAPSHOTS=1` becomes it.
fn matches_snapshot(svg: &str, path: &str) {
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        std::fs::write(path, svg).expect("write snapshot");
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

/// A hand check that the text is well-formed XML as far as our pictures go: one root, every tag
/// closed in order, attribute values quoted, only the five named entities and numeric ones.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    let mut roots = 0;
    let check_text = |t: &str| {
        let mut s = t;
        while let Some(i) = s.find('&') {
            let end = s[i..].find(';').expect("an entity ends with ;") + i;
            let name = &s[i + 1..end];
            let known = ["amp", "lt", "gt", "quot", "apos"].contains(&name)
                || (name.starts_with('#') && name[1..].chars().all(|c| c.is_ascii_digit()));
            assert!(known, "unknown entity &{name};");
            s = &s[end + 1..];
        }
        assert!(
            !t.contains('<') && !t.contains('>'),
            "stray angle bracket in {t:?}"
        );
    };
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(
            !stack.is_empty() || text.trim().is_empty(),
            "text outside the root: {text:?}"
        );
        check_text(text);
        let close = rest[open..].find('>').expect("a tag ends with >") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name, "</{name}> closes <{top}>");
            continue;
        }
        let empty = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
        assert!(!name.is_empty(), "a tag without a name: <{tag}>");
        // Attributes: name="value" pairs, values free of < and with known entities.
        let mut attrs = body[name.len()..].trim();
        while !attrs.is_empty() {
            let eq = attrs
                .find("=\"")
                .unwrap_or_else(|| panic!("unquoted attribute in <{tag}>"));
            let attr = attrs[..eq].trim();
            assert!(
                attr.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-:_".contains(c)),
                "bad attribute name {attr:?} in <{name}>"
            );
            let value_end = attrs[eq + 2..].find('"').expect("attribute value ends") + eq + 2;
            check_text(&attrs[eq + 2..value_end]);
            attrs = attrs[value_end + 1..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        if !empty {
            stack.push(name);
        }
    }
    assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(roots, 1, "one root element");
}

#[test]
fn svg_is_well_formed_with_and_without_its_key() {
    // DBA3.md §1.2: the picture parses as XML whatever it shows.
    let (bf, elements, mut opts) = scene();
    assert_well_formed(&battlefield_svg(&bf, &elements, &opts));
    opts.key = None;
    assert_well_formed(&battlefield_svg(&bf, &elements, &opts));
    assert_well_formed(&battlefield_svg(
        &Battlefield::default(),
        &[],
        &SvgOptions::default(),
    ));
}

#[test]
fn the_key_names_the_armies_the_moment_the_losses_and_what_is_shown() {
    // DBA3.md §13.1: lost elements are listed beside the table; §14: command colours; §3: terrain.
    let (bf, elements, opts) = scene();
    let svg = battlefield_svg(&bf, &elements, &opts);
    // The title: each army in its side's colour, escaped.
    assert!(svg.contains(r##"<tspan fill="#b8322a">Romans</tspan>"##));
    assert!(svg.contains(r##"<tspan fill="#2c5aa0">Britons &amp; &lt;Allies&gt;</tspan>"##));
    assert!(svg.contains(r##"<tspan fill="#d89a12">Gauls</tspan>"##));
    assert!(svg.contains(">Bound 3 · the Romans to move · movement, 2 PIPs left</text>"));
    // The legend and the lost elements.
    assert!(svg.contains(">Romans: 2 elements lost</text>"));
    assert!(svg.contains(">Gauls: 0 elements lost</text>"));
    assert!(svg.contains(">Lost by Romans</text>"));
    assert!(svg.contains(">#4 4Bd, #5 Ps (off table)</text>"));
    assert!(svg.contains(">Britons &amp; &lt;Allies&gt;: command 2, demoralised</text>"));
    assert!(svg.contains(">4Bd: Blades (Solid)</text>"));
    for terrain in [
        "wood, bad going",
        "gentle hill, good going",
        "marsh, bad going",
        "river",
        "waterway",
    ] {
        assert!(svg.contains(&format!(">{terrain}</text>")), "{terrain}");
    }
    assert!(svg.contains(">red shading: threat zones</text>"));
    // The element ids on the bases; none for the element without one.
    for id in [1, 2, 3, 101, 102, 103] {
        assert!(
            svg.contains(&format!(r#"dominant-baseline="central">{id}</text>"#)),
            "{id}"
        );
    }
    assert_eq!(svg.matches("class=\"element-id\"").count(), 6);
    // The table moved down under the title, the picture widened for the key.
    assert!(svg.contains(r#"<g class="table" transform="translate(0,60.000)">"#));
    let (without, with) = {
        let mut o = opts.clone();
        o.key = None;
        (battlefield_svg(&bf, &elements, &o), svg)
    };
    assert!(!without.contains("class=\"title\"") && !without.contains("class=\"key-"));
    assert!(with.len() > without.len());
}

#[test]
fn a_battles_picture_has_its_title_its_moment_and_its_losses() {
    // DBA3.md §13.1: the elements lost so far are listed by army beside the table.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/golden/whole_battle_seed_1.json"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let record: dbcore::battle::BattleRecord = serde_json::from_value(v["record"].clone()).unwrap();
    let (battle, _) = dbcore::battle::Battle::replay(&record).unwrap();
    let svg = battle.svg(false);
    assert_well_formed(&svg);
    let key = battle.svg_key();
    assert_eq!(key.armies.len(), 2);
    for (i, a) in key.armies.iter().enumerate() {
        assert_eq!(a.name, battle.setup().armies[i].name);
        let lost: Vec<_> = battle
            .elements()
            .iter()
            .filter(|e| e.army == i && matches!(e.status, dbcore::battle::Status::Lost { .. }))
            .collect();
        assert_eq!(a.lost.len(), lost.len());
        for (text, e) in a.lost.iter().zip(&lost) {
            assert!(text.starts_with(&format!("{} {}", e.id, e.kind)), "{text}");
        }
        assert!(svg.contains(&format!(">Lost by {}</text>", a.name)));
    }
    let status = key.status.expect("a battle says its moment");
    assert!(
        status.starts_with(&format!("Bound {} · ", battle.bound())),
        "{status}"
    );
    assert!(svg.contains(&dbcore::svg::SIDE_COLOURS[0].to_string()));
    // Every element in play has its id on its base.
    assert_eq!(
        svg.matches("class=\"element-id\"").count(),
        battle.elements().iter().filter(|e| e.in_play()).count()
    );
}

#[test]
#[should_panic(expected = "closes")]
fn the_xml_check_catches_a_tag_closed_out_of_order() {
    // The check above is only worth having if it fails on a broken picture.
    assert_well_formed("<svg><g></svg></g>");
}

/// A DBAix game part played: the demonstration with seed 1, 120 actions at most.
fn dbaix_game() -> dbcore::dbaix::Battle {
    let p = dbcore::dbaix::driver::play(dbcore::dbaix::driver::demo_setup(), 1, 120).unwrap();
    dbcore::dbaix::Battle::replay(&p.record).unwrap().0
}

#[test]
fn the_dbaix_picture_matches_its_committed_snapshot() {
    // DBAIX.md §0, §1: the DBAix table, its figures, its title band and its key, byte-stable.
    matches_snapshot(
        &dbcore::dbaix::svg::table_svg(&dbaix_game()),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/snapshots/dbaix_table.svg"
        ),
    );
}

#[test]
fn the_dbaix_picture_has_ids_a_title_and_a_key_like_the_standard_one() {
    // DBAIX.md §1: three sides in three colours; §7, §8: figures out of play are listed by side.
    let b = dbaix_game();
    let svg = dbcore::dbaix::svg::table_svg(&b);
    assert_well_formed(&svg);
    // The title: the three sides in their colours, then the moment.
    for (name, colour) in [
        ("Romans", "#b22222"),
        ("Gauls", "#2e7d32"),
        ("Pirates", "#1f4e9c"),
    ] {
        assert!(
            svg.contains(&format!(r#"<tspan fill="{colour}">{name}</tspan>"#)),
            "{name}"
        );
    }
    let key = dbcore::dbaix::svg::svg_key(&b);
    let status = key.status.clone().expect("a game says its moment");
    assert!(
        status.starts_with(&format!("Bound {} · ", b.bound())),
        "{status}"
    );
    assert!(svg.contains(&format!(">{status}</text>")));
    // Every figure out of play is in its side's list, and counted.
    for (i, side) in dbcore::dbaix::Side::ALL.iter().enumerate() {
        let out: Vec<_> = b
            .figures()
            .iter()
            .filter(|f| f.side == *side && !f.on_table())
            .collect();
        assert_eq!(key.armies[i].lost.len(), out.len());
        assert_eq!(key.armies[i].losses as usize, out.len());
        for (text, f) in key.armies[i].lost.iter().zip(&out) {
            assert!(
                text.starts_with(&format!("{} {} (", f.id, f.name)),
                "{text}"
            );
        }
        assert!(svg.contains(&format!(">Lost by {}</text>", key.armies[i].name)));
    }
    // The classes, the road and the marks in the key.
    assert!(svg.contains(">Legionary: most Romans</text>"));
    assert!(svg.contains(">Obelix: a Gaul, who beats by half</text>"));
    assert!(svg.contains(">white edge: the front; small number: the id</text>"));
    assert!(svg.contains(" figures lost</text>") || svg.contains(">Romans: 1 figure lost</text>"));
    if !b.setup().road.is_empty() {
        assert!(svg.contains(">paved road</text>"));
    }
    // An id on every base drawn: the free figures and the captives behind a free guard.
    let drawn = b
        .figures()
        .iter()
        .filter(|f| match f.status {
            dbcore::dbaix::Status::OnTable => true,
            dbcore::dbaix::Status::Captured { guard } => {
                b.figure(guard).is_some_and(|g| g.on_table())
            }
            _ => false,
        })
        .count();
    assert!(drawn > 0);
    assert_eq!(svg.matches("class=\"element-id\"").count(), drawn);
    assert_eq!(svg.matches("<g class=\"figure side-").count(), drawn);
    // The table under the title band, the picture widened for the key.
    assert!(svg.contains(r#"<g class="table" transform="translate(0,60.000)">"#));
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="1040.000""#));
}
