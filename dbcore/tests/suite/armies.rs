//! Army lists: the entry syntax (§16.1), the bundled lists and their look-ups (§16), choosing
//! an army (§2.3, §2.5, §15.3, §16.4).

use dbcore::armies::{
    self, choose, default_army, ArmyChoice, ArmyError, ArmyProblem, ContingentChoice, EntryChoice,
    Fielded, ListId, Troop, TroopEntry,
};
use dbcore::terrain::HomeTerrain;
use dbcore::ElementKind;

fn k(code: &str) -> ElementKind {
    code.parse().unwrap()
}

fn entry(text: &str) -> TroopEntry {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` should parse: {e}"))
}

fn id(text: &str) -> ListId {
    text.parse().unwrap()
}

fn fielded(codes: &[&str]) -> Vec<Fielded> {
    codes.iter().map(|c| c.parse().unwrap()).collect()
}

#[test]
fn dismountable_general_entry() {
    // DBA3.md §2.3: `A//B` is a mounted element that may dismount as B; §2.5 (Gen) marks the general's entry.
    let e = entry("1x3Kn//4Pk (Gen)");
    assert!(e.general);
    assert_eq!(e.elements(), 1);
    let part = &e.packages[0].parts[0];
    assert_eq!(
        part.choices[0].troop,
        Troop::Dismounts {
            mounted: k("3Kn"),
            foot: k("4Pk")
        }
    );
    assert_eq!(e.to_string(), "1x3Kn//4Pk (Gen)");
}

#[test]
fn per_element_or() {
    // DBA3.md §16.1: "A or B" inside one entry lets each element be chosen separately.
    let e = entry("2xLCh or HCh");
    assert_eq!(e.packages.len(), 1);
    assert_eq!(e.packages[0].parts[0].count, 2);
    assert_eq!(e.packages[0].parts[0].choices.len(), 2);
    let e = entry("1x4Bd or Lit (Gen)");
    assert!(e.general);
    assert_eq!(e.kinds(), vec![k("4Bd"), k("Lit")]);
    let e = entry("2x7Hd or Ps");
    assert_eq!(e.kinds(), vec![k("7Hd"), k("Ps")]);
    let e = entry("1xMtd-4Lb or 4Lb");
    assert_eq!(e.kinds(), vec![k("Mtd-4Lb"), k("4Lb")]);
}

#[test]
fn figure_count_shorthand() {
    // DBA3.md §16.1: `3/4Bd` is all 3Bd or all 4Bd, never mixed.
    let e = entry("3x3/4Bd");
    assert_eq!(
        e.packages[0].parts[0].choices[0].troop,
        Troop::Either(k("3Bd"), k("4Bd"))
    );
    assert_eq!(e.to_string(), "3x3/4Bd");
    assert_eq!(entry("2x3Kn/4Bd").to_string(), "2x3Kn/4Bd");
}

#[test]
fn whole_packages() {
    // DBA3.md §16.1: "N×A or N×B" means all one or all the other.
    let e = entry("4x4Bd or 4xSp");
    assert_eq!(e.packages.len(), 2);
    assert!(e.sizes_agree());
    let e = entry("(1x7Hd + 1xSp) or 2xSp");
    assert_eq!(e.packages.len(), 2);
    assert_eq!(e.packages[0].parts.len(), 2);
    assert_eq!(e.to_string(), "(1x7Hd + 1xSp) or 2xSp");
    let e = entry("2x3Wb or WWg or (1xLH + 1xCv or Ps)");
    assert_eq!(e.packages.len(), 2);
    assert_eq!(e.packages[0].parts[0].choices.len(), 2);
}

#[test]
fn notes_are_kept() {
    // DBA3.md §16.1: a condition the list attaches to one choice stays with it.
    let e = entry("1xLit (if Olympias) or 4Pk (Gen)");
    assert_eq!(
        e.packages[0].parts[0].choices[0].note.as_deref(),
        Some("if Olympias")
    );
    assert_eq!(e.to_string(), "1xLit (if Olympias) or 4Pk (Gen)");
}

#[test]
fn malformed_entries_say_where_and_what() {
    // DBA3.md §16.1: a malformed entry quotes the text, the character and what was expected.
    let err = "2x4Zz or Ps".parse::<TroopEntry>().unwrap_err();
    assert_eq!(err.text, "2x4Zz or Ps");
    assert_eq!(err.column, 3);
    assert!(err.to_string().contains("at character 3"), "{err}");
    let err = "x4Bd".parse::<TroopEntry>().unwrap_err();
    assert_eq!(err.column, 1);
    assert!(err.expected.contains("count"));
    let err = "2 4Bd".parse::<TroopEntry>().unwrap_err();
    assert_eq!(err.column, 2);
    let err = "13x4Bd".parse::<TroopEntry>().unwrap_err();
    assert!(err.expected.contains("1 to 12"));
    let err = "1x4Bd//Cv".parse::<TroopEntry>().unwrap_err();
    assert!(err.expected.contains("mounted"), "{err}");
    let err = "(1x4Bd + 1xPs or 2xSp".parse::<TroopEntry>().unwrap_err();
    assert!(err.expected.contains(")"), "{err}");
    let err = "1x4Bd (Gen) or Ps".parse::<TroopEntry>().unwrap_err();
    assert!(err.expected.contains("end"), "{err}");
    // Columns count characters, not bytes.
    let err = "1×4Bd or Zz".parse::<TroopEntry>().unwrap_err();
    assert_eq!(err.column, 10);
}

#[test]
fn list_ids_read_and_print() {
    // DBA3.md §16: lists are numbered by book, number and variant letter.
    let i = id("II/56b");
    assert_eq!(i.to_string(), "II/56b");
    assert_eq!(i.number, 56);
    assert_eq!(i.variant, Some('b'));
    assert!(id("II/56").covers(i));
    assert!(!i.covers(id("II/56")));
    for bad in ["V/1", "II/", "II/0", "II/5bc", "56b", "II/5-"] {
        assert!(bad.parse::<ListId>().is_err(), "{bad}");
    }
}

#[test]
fn dates_are_numbers_bc_negative() {
    // DBA3.md §16: a list's dates; BC years are negative.
    let d = armies::Dates::parse("3000-2800BC").unwrap();
    assert_eq!((d.from, d.to), (-3000, -2800));
    let d = armies::Dates::parse("100BC-50AD").unwrap();
    assert_eq!((d.from, d.to), (-100, 50));
    let d = armies::Dates::parse("1071AD").unwrap();
    assert_eq!((d.from, d.to), (1071, 1071));
    assert!(armies::Dates::parse("800-900").is_none());
    assert!(armies::Dates::parse("900-800AD").is_none());
}

#[test]
fn every_bundled_list_is_whole() {
    // DBA3.md §2.5, §16.1: every list gives 12 elements and marks one general's entry.
    let all = armies::lists();
    assert!(all.len() >= 600, "{} lists", all.len());
    for l in all {
        assert_eq!(
            l.troops.iter().filter(|e| e.general).count(),
            1,
            "{}: one (Gen) entry",
            l.id
        );
        let total: u32 = l.troops.iter().map(TroopEntry::elements).sum();
        assert_eq!(total, 12, "{} totals {total}", l.id);
        assert!(l.troops.iter().all(TroopEntry::sizes_agree), "{}", l.id);
        assert!(l.aggression <= 4, "{}", l.id);
        assert!(l.dates.from <= l.dates.to, "{}", l.id);
        for e in &l.troops {
            assert_eq!(entry(&e.to_string()), *e, "{}: `{e}` round trip", l.id);
        }
    }
    // Sorted and unique, so that look-up by id is a binary search.
    assert!(all.windows(2).all(|w| w[0].id < w[1].id));
}

#[test]
fn no_source_record_silently_dropped() {
    // DBA3.md §16: the counts recorded by the generator add up to the bundled lists.
    let v: serde_json::Value = serde_json::from_str(armies::BUNDLED_JSON).unwrap();
    let c = &v["counts"];
    let n = |f: &str| c[f].as_u64().unwrap() as usize;
    assert_eq!(n("lists"), armies::lists().len());
    assert_eq!(
        n("in_both") + n("json_only") + n("csv_only"),
        n("lists") + n("dropped")
    );
    // Every JSON record is a list of its own or a listed merge or renaming.
    let corrections = include_str!("../../src/armies/corrections.csv");
    let merged = corrections
        .lines()
        .filter(|l| l.contains(",record,"))
        .count();
    assert_eq!(n("in_both") + n("json_only") + merged, n("json_records"));
}

#[test]
fn references_resolve() {
    // DBA3.md §16.3, §16.4: enemies and allies name bundled lists.
    for l in armies::lists() {
        for r in l
            .enemies
            .iter()
            .chain(l.allies.iter().flat_map(|o| &o.lists))
        {
            assert!(!armies::resolve(*r).is_empty(), "{}: {r}", l.id);
        }
    }
    let sumer = armies::list(&id("I/1a")).unwrap();
    assert!(sumer.enemy_lists().iter().any(|l| l.id == id("I/4a")));
    assert!(sumer.allows_ally(id("I/4a")));
}

#[test]
fn look_ups() {
    // DBA3.md §16: by id, name fragment, date and topography.
    let l = armies::list(&id("I/1a")).unwrap();
    assert_eq!(l.name, "Early Sumerian");
    assert_eq!(l.home.terrain, HomeTerrain::Arable);
    assert_eq!(l.aggression, 2);
    assert!(armies::list(&id("IV/999")).is_none());
    let romans = armies::by_name("roMAN");
    assert!(romans.len() > 5);
    assert!(romans
        .iter()
        .all(|l| l.name.to_lowercase().contains("roman")));
    let y = armies::in_year(-2900);
    assert!(y.iter().any(|l| l.id == id("I/1a")));
    assert!(y.iter().all(|l| l.dates.contains(-2900)));
    assert!(!armies::in_year(1000).iter().any(|l| l.id == id("I/1a")));
    let lit = armies::by_topography(HomeTerrain::Littoral);
    assert!(lit.iter().all(|l| l.home.littoral));
    assert!(lit.iter().any(|l| l.id == id("I/2a")));
    assert_eq!(armies::resolve(id("I/1")).len(), 3);
}

#[test]
fn every_list_yields_a_legal_default_army() {
    // DBA3.md §2.5, §16.1: the first choice of every entry is a legal army of 12 with one general.
    for l in armies::lists() {
        let a = default_army(&l.id).unwrap_or_else(|e| panic!("{}: {e}", l.id));
        assert_eq!(a.elements.len(), 12, "{}", l.id);
        assert_eq!(
            a.elements.iter().filter(|e| e.general).count(),
            1,
            "{}",
            l.id
        );
        assert_eq!(a.aggression, l.aggression);
    }
}

fn sumerian(entries: Vec<Vec<&str>>) -> ArmyChoice {
    // I/1b: 1x4Pk or 3Bd or HCh or LCh or 4Bw (Gen), 1xHCh or 4Bw, 6x4Pk, 1x4Pk or 4Bw, 2xPs, 1x3Ax or Ps
    ArmyChoice {
        list: id("I/1b"),
        entries: entries
            .into_iter()
            .map(|e| EntryChoice {
                package: 0,
                elements: fielded(&e),
            })
            .collect(),
        allies: vec![],
    }
}

#[test]
fn a_chosen_army_marks_its_general() {
    // DBA3.md §2.5: one element is the general's, from the entry marked (Gen).
    let l = armies::list(&id("I/1b")).unwrap();
    assert!(l.troops[0].general, "{:?}", l.troops);
    let c = sumerian(vec![
        vec!["HCh"],
        vec!["4Bw"],
        vec!["4Pk"; 6],
        vec!["4Bw"],
        vec!["Ps", "Ps"],
        vec!["3Ax"],
    ]);
    let a = choose(&c).unwrap();
    assert_eq!(a.elements.len(), 12);
    assert!(a.elements[0].general);
    assert_eq!(a.elements[0].kind, k("HCh"));
    assert_eq!(a.elements.iter().filter(|e| e.general).count(), 1);
}

#[test]
fn every_problem_is_reported_at_once() {
    // DBA3.md §16.1, §2.5: too many, a kind the entry does not offer and a missing general,
    // all reported, each naming its entry.
    let c = sumerian(vec![
        vec![],
        vec!["Cv"],
        vec!["4Pk"; 7],
        vec!["4Bw"],
        vec!["Ps", "Ps"],
        vec!["3Ax"],
    ]);
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!("expected problems")
    };
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::NotAllowed { entry, .. } if entry.index == 1)),
        "{p:?}"
    );
    assert!(p.iter().any(|p| matches!(p, ArmyProblem::TooManyElements { entry, allowed: 6, given: 7 } if entry.index == 2)), "{p:?}");
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::GeneralMissing { entry } if entry.index == 0)),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::WrongTotal { .. })),
        "{p:?}"
    );
    assert!(p.iter().all(|p| p.rule().starts_with('§')));
}

#[test]
fn unknown_list_is_refused() {
    // DBA3.md §16: a choice must name a bundled list.
    let c = ArmyChoice {
        list: id("IV/999"),
        entries: vec![],
        allies: vec![],
    };
    assert_eq!(choose(&c), Err(ArmyError::UnknownList(id("IV/999"))));
    assert!(default_army(&id("IV/999")).is_err());
}

/// A bundled list with an `A/B` part, and that part's index.
fn list_with_either() -> (&'static armies::ArmyList, usize) {
    armies::lists()
        .iter()
        .find_map(|l| {
            l.troops
                .iter()
                .position(|e| {
                    !e.general
                        && e.elements() >= 2
                        && e.packages.len() == 1
                        && e.packages[0].parts.len() == 1
                        && e.packages[0].parts[0].choices.len() == 1
                        && matches!(e.packages[0].parts[0].choices[0].troop, Troop::Either(..))
                })
                .map(|i| (l, i))
        })
        .expect("some list has an N x A/B entry")
}

#[test]
fn slash_elements_are_all_alike() {
    // DBA3.md §2.3, §15.3: `A/B` is set per game, every element of the entry alike.
    let (l, i) = list_with_either();
    let Troop::Either(a, b) = l.troops[i].packages[0].parts[0].choices[0].troop else {
        unreachable!()
    };
    let mut c = armies::choose::default_choice(l);
    let n = c.entries[i].elements.len();
    c.entries[i].elements = vec![Fielded::new(b); n];
    assert!(choose(&c).is_ok(), "all B is legal");
    c.entries[i].elements[0] = Fielded::new(a);
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        matches!(&p[..], [ArmyProblem::MixedEither { entry, .. }] if entry.index == i),
        "{p:?}"
    );
}

#[test]
fn dismountable_elements_are_set_per_game() {
    // DBA3.md §2.3, §15.3: `A//B` may be fielded mounted (able to dismount) or dismounted.
    let l = armies::lists()
        .iter()
        .find(|l| {
            l.troops.iter().any(|e| {
                !e.general
                    && e.packages.len() == 1
                    && e.packages[0].parts[0]
                        .choices
                        .iter()
                        .all(|c| matches!(c.troop, Troop::Dismounts { .. }))
            })
        })
        .expect("some list has an A//B entry");
    let i = l
        .troops
        .iter()
        .position(|e| {
            !e.general
                && e.packages.len() == 1
                && e.packages[0].parts[0]
                    .choices
                    .iter()
                    .all(|c| matches!(c.troop, Troop::Dismounts { .. }))
        })
        .unwrap();
    let Troop::Dismounts { mounted, foot } = l.troops[i].packages[0].parts[0].choices[0].troop
    else {
        unreachable!()
    };
    let army = default_army(&l.id).unwrap();
    let before: usize = (0..i).map(|j| l.troops[j].elements() as usize).sum();
    assert_eq!(army.elements[before].kind, mounted);
    assert_eq!(army.elements[before].dismounts_as, Some(foot));
    let mut c = armies::choose::default_choice(l);
    c.entries[i].elements[0] = Fielded::new(foot);
    let a = choose(&c).unwrap();
    assert_eq!(a.elements[before].kind, foot);
    assert_eq!(a.elements[before].dismounts_as, None);
    // Fielding the foot as if it could remount is not a choice the list offers.
    c.entries[i].elements[0] = Fielded {
        kind: foot,
        dismounts_as: Some(mounted),
    };
    assert!(choose(&c).is_err());
}

#[test]
fn whole_package_choice() {
    // DBA3.md §16.1: "N×A or N×B": the elements come from the package chosen.
    let (l, i) = armies::lists()
        .iter()
        .find_map(|l| {
            l.troops
                .iter()
                .position(|e| !e.general && e.packages.len() == 2)
                .map(|i| (l, i))
        })
        .expect("a list with an N×A or N×B entry");
    let mut c = armies::choose::default_choice(l);
    let second = &l.troops[i].packages[1];
    let picks: Vec<Fielded> = second
        .parts
        .iter()
        .flat_map(|p| std::iter::repeat_n(p.choices[0].troop.fieldings()[0], p.count as usize))
        .collect();
    c.entries[i] = EntryChoice {
        package: 1,
        elements: picks.clone(),
    };
    assert!(choose(&c).is_ok(), "{}: {}", l.id, l.troops[i]);
    c.entries[i].package = 2;
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter().any(|p| matches!(
            p,
            ArmyProblem::NoSuchPackage {
                package: 2,
                packages: 2,
                ..
            }
        )),
        "{p:?}"
    );
}

/// I/1a (Early Sumerian) with I/4a allies: the main army gives up three 4Bw.
fn with_ally(ally_elements: Vec<Vec<&str>>, main_bows: usize) -> ArmyChoice {
    // I/1a: 1x3Bd (Gen), 8x4Bw, 3xPs. I/4a: 1x3Bd or 3/4Bw (Gen), 6x3Ax or 3Wb, 5xPs.
    ArmyChoice {
        list: id("I/1a"),
        entries: vec![
            EntryChoice {
                package: 0,
                elements: fielded(&["3Bd"]),
            },
            EntryChoice {
                package: 0,
                elements: fielded(&vec!["4Bw"; main_bows]),
            },
            EntryChoice {
                package: 0,
                elements: fielded(&["Ps", "Ps", "Ps"]),
            },
        ],
        allies: vec![ContingentChoice {
            list: id("I/4a"),
            entries: ally_elements
                .into_iter()
                .map(|e| EntryChoice {
                    package: 0,
                    elements: fielded(&e),
                })
                .collect(),
        }],
    }
}

#[test]
fn an_allied_contingent_of_three() {
    // DBA3.md §16.4: 3 elements of its own list, with its general and one from its largest
    // entry, replacing 3 of the main army's; its general does not act as one.
    let ally = armies::list(&id("I/4a")).unwrap();
    assert_eq!(ally.troops.len(), 3, "{:?}", ally.troops);
    let a = choose(&with_ally(vec![vec!["3Bd"], vec!["3Ax"], vec!["Ps"]], 5)).unwrap();
    assert_eq!(a.elements.len(), 12);
    let allied: Vec<_> = a
        .elements
        .iter()
        .filter(|e| e.contingent == Some(1))
        .collect();
    assert_eq!(allied.len(), 3);
    assert!(allied[0].general);
    assert_eq!(
        a.elements
            .iter()
            .filter(|e| e.general && e.contingent.is_none())
            .count(),
        1
    );
}

#[test]
fn contingent_rules_are_checked() {
    // DBA3.md §16.4: without its general, without its largest entry, of the wrong size.
    let ArmyError::Invalid(p) =
        choose(&with_ally(vec![vec![], vec![], vec!["Ps", "Ps", "Ps"]], 5)).unwrap_err()
    else {
        panic!()
    };
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::ContingentWithoutGeneral { contingent: 1 })),
        "{p:?}"
    );
    assert!(
        p.iter().any(|p| matches!(
            p,
            ArmyProblem::ContingentWithoutLargestEntry { contingent: 1, .. }
        )),
        "{p:?}"
    );
    let ArmyError::Invalid(p) = choose(&with_ally(
        vec![vec!["3Bd"], vec!["3Ax", "3Ax"], vec!["Ps"]],
        4,
    ))
    .unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter().any(|p| matches!(
            p,
            ArmyProblem::ContingentSize {
                given: 4,
                required: 3,
                ..
            }
        )),
        "{p:?}"
    );
}

#[test]
fn allies_must_be_named_by_the_list() {
    // DBA3.md §16.4: contingents only from the armies named at the foot of the list.
    let mut c = with_ally(vec![vec!["3Bd"], vec!["3Ax"], vec!["Ps"]], 5);
    let other = armies::lists()
        .iter()
        .find(|l| !armies::list(&id("I/1a")).unwrap().allows_ally(l.id))
        .unwrap();
    c.allies[0].list = other.id;
    c.allies[0].entries = armies::choose::default_choice(other).entries;
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::AllyNotAllowed { .. })),
        "{p:?}"
    );
}

#[test]
fn chosen_elements_become_setups() {
    // DBA3.md §5.3: a chosen army is what deployment places.
    let a = default_army(&id("I/1a")).unwrap();
    let pose = dbcore::geometry::Pose::new(1.0, 1.0, 0.0);
    let s = a.elements[0].to_setup(dbcore::battle::ElementId(7), pose);
    assert_eq!(s.kind, a.elements[0].kind);
    assert!(s.general);
    assert_eq!(s.id, dbcore::battle::ElementId(7));
}

#[test]
fn choices_and_armies_are_json() {
    // Serde round trip of a choice and of the army it makes.
    let c = armies::choose::default_choice(armies::list(&id("II/56")).unwrap());
    let text = serde_json::to_string(&c).unwrap();
    assert_eq!(serde_json::from_str::<ArmyChoice>(&text).unwrap(), c);
    let a = choose(&c).unwrap();
    let text = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<armies::Army>(&text).unwrap(), a);
    let l = armies::list(&id("II/56")).unwrap();
    let text = serde_json::to_string(l).unwrap();
    assert_eq!(&serde_json::from_str::<armies::ArmyList>(&text).unwrap(), l);
}

mod props {
    use super::*;
    use dbcore::armies::{Choice, Package, Part};
    use proptest::prelude::*;

    fn kind() -> impl Strategy<Value = ElementKind> {
        let all = ElementKind::all();
        (0..all.len()).prop_map(move |i| all[i])
    }

    fn troop() -> impl Strategy<Value = Troop> {
        prop_oneof![
            kind().prop_map(Troop::One),
            (kind(), kind())
                .prop_filter("two kinds", |(a, b)| a != b)
                .prop_map(|(a, b)| Troop::Either(a, b)),
            (kind(), kind())
                .prop_filter("mounted then foot", |(a, b)| a.is_mounted() && b.is_foot())
                .prop_map(|(mounted, foot)| Troop::Dismounts { mounted, foot }),
        ]
    }

    fn part() -> impl Strategy<Value = Part> {
        (
            1u8..=12,
            prop::collection::vec(
                (
                    troop(),
                    // `(Gen)` is the general's mark, not a note.
                    prop::option::of("[a-z]{1,6}( [a-z0-9]{1,6})?")
                        .prop_filter("not gen", |n| n.as_deref() != Some("gen")),
                ),
                1..4,
            ),
        )
            .prop_map(|(count, cs)| Part {
                count,
                choices: cs
                    .into_iter()
                    .map(|(troop, note)| Choice { troop, note })
                    .collect(),
            })
    }

    fn entry() -> impl Strategy<Value = TroopEntry> {
        (
            prop::collection::vec(prop::collection::vec(part(), 1..3), 1..3),
            any::<bool>(),
        )
            .prop_map(|(ps, general)| TroopEntry {
                packages: ps.into_iter().map(|parts| Package { parts }).collect(),
                general,
            })
    }

    proptest! {
        // DBA3.md §16.1: printing an entry in the lists' syntax and reading it back gives it again.
        #[test]
        fn entries_round_trip(e in entry()) {
            let text = e.to_string();
            let back: TroopEntry = text.parse().map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
            prop_assert_eq!(back, e);
        }

        // DBA3.md §16.1, §2.3: any choice the list offers (a package per entry, a fielding per
        // element, A/B alike) is a legal army.
        #[test]
        fn random_legal_choices_are_accepted(li in 0usize..600, picks in prop::collection::vec(0usize..8, 40)) {
            let all = armies::lists();
            let l = &all[li % all.len()];
            let mut n = 0;
            let mut next = || { n += 1; picks[n % picks.len()] };
            let entries = l.troops.iter().map(|e| {
                let package = next() % e.packages.len();
                let side = next() % 2;
                let mut elements = Vec::new();
                for part in &e.packages[package].parts {
                    for _ in 0..part.count {
                        let c = &part.choices[next() % part.choices.len()];
                        let f = c.troop.fieldings();
                        let pick = match c.troop {
                            Troop::Either(..) => f[side],
                            _ => f[next() % f.len()],
                        };
                        elements.push(pick);
                    }
                }
                EntryChoice { package, elements }
            }).collect();
            let c = ArmyChoice { list: l.id, entries, allies: vec![] };
            let a = choose(&c).map_err(|e| TestCaseError::fail(format!("{}: {e}", l.id)))?;
            prop_assert_eq!(a.elements.len(), 12);
        }
    }
}

#[test]
fn a_query_combines_look_ups() {
    // DBA3.md §16, §16.3: name, year, topography and enemies together.
    let q = armies::ListQuery {
        name: Some("sumerian".into()),
        year: Some(-2900),
        ..Default::default()
    };
    let found: Vec<_> = armies::find(&q).iter().map(|l| l.id).collect();
    assert_eq!(found, vec![id("I/1a")]);
    let q = armies::ListQuery {
        enemy_of: Some(id("I/1a")),
        ..Default::default()
    };
    let enemies: Vec<_> = armies::find(&q).iter().map(|l| l.id).collect();
    let direct: Vec<_> = armies::list(&id("I/1a"))
        .unwrap()
        .enemy_lists()
        .iter()
        .map(|l| l.id)
        .collect();
    let mut sorted = direct.clone();
    sorted.sort();
    assert_eq!(enemies, sorted);
    assert_eq!(
        armies::find(&armies::ListQuery::default()).len(),
        armies::lists().len()
    );
    let q: armies::ListQuery =
        serde_json::from_str(r#"{"topography": "dry", "year": 100}"#).unwrap();
    assert!(armies::find(&q)
        .iter()
        .all(|l| l.home.all().contains(&HomeTerrain::Dry)));
    assert!(serde_json::from_str::<armies::ListQuery>(r#"{"nmae": "x"}"#).is_err());
}

/// A contingent of `n` elements from `ally`: its general and then elements of its largest
/// entry (the first such entry), each the first way the entry offers.
fn contingent(ally: &armies::ArmyList, n: usize) -> ContingentChoice {
    let mut entries = vec![
        EntryChoice {
            package: 0,
            elements: vec![]
        };
        ally.troops.len()
    ];
    let (gi, g) = ally.general_entry().unwrap();
    entries[gi].elements = vec![g.packages[0].parts[0].choices[0].troop.fieldings()[0]];
    let largest = (0..ally.troops.len())
        .filter(|&i| i != gi)
        .max_by_key(|&i| (ally.troops[i].elements(), std::cmp::Reverse(i)))
        .unwrap();
    let f = ally.troops[largest].packages[0].parts[0].choices[0]
        .troop
        .fieldings()[0];
    entries[largest].elements = vec![f; n - 1];
    ContingentChoice {
        list: ally.id,
        entries,
    }
}

/// The default choice of `l` with `n` elements given up from its last entries (never its
/// general's).
fn main_without(l: &armies::ArmyList, mut n: usize) -> ArmyChoice {
    let mut c = armies::choose::default_choice(l);
    for (i, e) in c.entries.iter_mut().enumerate().rev() {
        if l.troops[i].general || l.troops[i].packages.len() > 1 {
            continue;
        }
        while n > 0 && !e.elements.is_empty() {
            e.elements.pop();
            n -= 1;
        }
    }
    c
}

#[test]
fn two_contingents_of_two() {
    // DBA3.md §16.4: two contingents from different armies named together, each exactly 2.
    let (l, a, b) = armies::lists()
        .iter()
        .find_map(|l| {
            l.allies.iter().find_map(|o| {
                let lists: Vec<_> = o.lists.iter().flat_map(|r| armies::resolve(*r)).collect();
                let a = *lists.first()?;
                let b = *lists.iter().find(|x| x.id.list() != a.id.list())?;
                (a.troops.iter().any(|e| !e.general) && b.troops.iter().any(|e| !e.general))
                    .then_some((l, a, b))
            })
        })
        .expect("a list with two allies named together");
    let mut c = main_without(l, 4);
    c.allies = vec![contingent(a, 2), contingent(b, 2)];
    let army = choose(&c).unwrap_or_else(|e| panic!("{}: {e}", l.id));
    assert_eq!(
        army.elements
            .iter()
            .filter(|e| e.contingent == Some(1))
            .count(),
        2
    );
    assert_eq!(
        army.elements
            .iter()
            .filter(|e| e.contingent == Some(2))
            .count(),
        2
    );
    // Three each is one too many when there are two (§16.4).
    c = main_without(l, 6);
    c.allies = vec![contingent(a, 3), contingent(b, 3)];
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter().any(|p| matches!(
            p,
            ArmyProblem::ContingentSize {
                given: 3,
                required: 2,
                ..
            }
        )),
        "{p:?}"
    );
    // The same army twice is refused (§16.4: "from different armies").
    c = main_without(l, 4);
    c.allies = vec![contingent(a, 2), contingent(a, 2)];
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::SameAllyTwice { .. })),
        "{p:?}"
    );
}

#[test]
fn the_main_general_is_never_replaced() {
    // DBA3.md §16.4: contingent elements replace main-army elements, never its general.
    let l = armies::list(&id("I/1a")).unwrap();
    let ally = armies::list(&id("I/4a")).unwrap();
    let mut c = main_without(l, 2);
    c.entries[0].elements.clear();
    c.allies = vec![contingent(ally, 3)];
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::GeneralMissing { .. })),
        "{p:?}"
    );
    // More than two contingents is refused.
    c = main_without(l, 3);
    c.allies = vec![
        contingent(ally, 1),
        contingent(ally, 1),
        contingent(ally, 1),
    ];
    let ArmyError::Invalid(p) = choose(&c).unwrap_err() else {
        panic!()
    };
    assert!(
        p.iter()
            .any(|p| matches!(p, ArmyProblem::TooManyContingents { count: 3 })),
        "{p:?}"
    );
}

// Issue #44: the entry parser copied the whole text once a package, so an entry of many
// packages took seconds, and a fault quoted the whole entry back.
#[test]
fn a_long_entry_is_read_in_linear_time_and_a_fault_quoted_in_a_window() {
    use dbcore::armies::TroopEntry;
    // 32,000 packages, 320 KB: read whole (quadratic, it took 1.1 to 6.3 s in a release build).
    let long = "(1xEl) or ".repeat(32_000) + "1xEl";
    let started = std::time::Instant::now();
    let entry: TroopEntry = long.parse().expect("a long but valid entry");
    assert_eq!(entry.packages.len(), 32_001);
    // 800 KB with a fault in the middle.
    let half = "(1xEl) or ".repeat(40_000);
    let bad = format!("{half}(1xZz) or {half}1xEl");
    let err = bad.parse::<TroopEntry>().expect_err("an unknown code");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let message = err.to_string();
    // The window and the list of codes expected: a few hundred bytes, not 800 KB.
    assert!(
        message.len() < 600,
        "{} bytes: {message:.500}",
        message.len()
    );
    assert!(message.contains("Zz"), "{message}");
    assert!((400_001..400_010).contains(&err.column), "{message}");
}
