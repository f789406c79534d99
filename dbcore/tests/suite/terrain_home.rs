//! Home-terrain feature lists (DBA3.md §3.7) with BBDBA (§14.2) and Giant (§14.6) counts.

use dbcore::battlefield::Variant;
use dbcore::terrain::{
    check_home_terrain, FeatureType as F, HomeTerrain, HomeTerrainProblem, TerrainLimits,
};

#[test]
fn every_home_terrain_has_a_row() {
    // DBA3.md §3.7: each row has at least one compulsory option and some optional features.
    for t in HomeTerrain::ALL {
        let l = t.list();
        assert_eq!(l.terrain, t);
        assert!(!l.compulsory.is_empty() && !l.optional.is_empty(), "{t:?}");
    }
}

#[test]
fn arable_takes_one_bua_or_two_plough() {
    // DBA3.md §3.7 Arable.
    let opt = [F::River, F::Road];
    assert_eq!(
        check_home_terrain(HomeTerrain::Arable, Variant::Standard, &[F::Bua], &opt),
        vec![]
    );
    assert_eq!(
        check_home_terrain(
            HomeTerrain::Arable,
            Variant::Standard,
            &[F::Plough, F::Plough],
            &opt
        ),
        vec![]
    );
    let mixed = check_home_terrain(
        HomeTerrain::Arable,
        Variant::Standard,
        &[F::Bua, F::Plough],
        &opt,
    );
    assert!(matches!(
        mixed.as_slice(),
        [HomeTerrainProblem::CompulsoryMismatch { .. }]
    ));
}

#[test]
fn dry_accepts_rocky_or_scrub_or_one_of_each() {
    // DBA3.md §3.7 Dry: 1-2 Rocky or Scrub.
    let opt = [F::Dunes, F::Oasis];
    for c in [
        vec![F::Rocky],
        vec![F::Scrub, F::Scrub],
        vec![F::Rocky, F::Scrub],
    ] {
        assert_eq!(
            check_home_terrain(HomeTerrain::Dry, Variant::Standard, &c, &opt),
            vec![],
            "{c:?}"
        );
    }
}

#[test]
fn optional_feature_must_be_on_the_list() {
    // DBA3.md §3.7 Forest: River, Marsh, Gentle hills, extra Woods, BUA.
    let probs = check_home_terrain(
        HomeTerrain::Forest,
        Variant::Standard,
        &[F::Wood],
        &[F::Dunes, F::Marsh],
    );
    assert_eq!(
        probs,
        vec![HomeTerrainProblem::NotOptional {
            terrain: HomeTerrain::Forest,
            feature: F::Dunes
        }]
    );
}

#[test]
fn littoral_either_or_pairs() {
    // DBA3.md §3.7 Littoral: Difficult hills or Marsh; Woods or Dunes.
    let probs = check_home_terrain(
        HomeTerrain::Littoral,
        Variant::Standard,
        &[F::Waterway],
        &[F::DifficultHill, F::Marsh, F::Road],
    );
    assert_eq!(
        probs,
        vec![HomeTerrainProblem::BothOfPair {
            terrain: HomeTerrain::Littoral,
            a: F::DifficultHill,
            b: F::Marsh
        }]
    );
}

#[test]
fn counts_per_variant() {
    // DBA3.md §3.7: 1-2 compulsory and 2-3 optional; §14.2 BBDBA 1-3 / 2-4; §14.6 Giant 1-4 / 3-6.
    let three_woods = [F::Wood, F::Wood, F::Wood];
    let opt = [F::River, F::Marsh];
    assert!(matches!(
        check_home_terrain(HomeTerrain::Forest, Variant::Standard, &three_woods, &opt).as_slice(),
        [
            HomeTerrainProblem::CompulsoryCount {
                count: 3,
                min: 1,
                max: 2
            },
            ..
        ]
    ));
    assert_eq!(
        check_home_terrain(HomeTerrain::Forest, Variant::BigBattle, &three_woods, &opt),
        vec![]
    );
    let probs = check_home_terrain(
        HomeTerrain::Forest,
        Variant::Standard,
        &[F::Wood],
        &[F::River],
    );
    assert_eq!(
        probs,
        vec![HomeTerrainProblem::OptionalCount {
            count: 1,
            min: 2,
            max: 3
        }]
    );
    let giant = check_home_terrain(
        HomeTerrain::Tropical,
        Variant::Giant,
        &[F::Wood, F::Wood],
        &[F::River, F::Marsh, F::Gully, F::Bua, F::Enclosures, F::Road],
    );
    assert_eq!(giant, vec![]);
    assert_eq!(
        TerrainLimits::for_variant(Variant::Giant).max_of(F::Wood),
        4
    );
    assert_eq!(
        TerrainLimits::for_variant(Variant::Giant).max_of(F::Gully),
        1
    );
}

#[test]
fn maxima_apply_across_compulsory_and_optional() {
    // DBA3.md §3.7 "at most 3 of any other type", §17.27 (the gully "1 only" is the global max).
    let probs = check_home_terrain(
        HomeTerrain::Forest,
        Variant::Standard,
        &[F::Wood, F::Wood],
        &[F::Wood, F::Wood],
    );
    assert!(probs.contains(&HomeTerrainProblem::TooMany {
        feature: F::Wood,
        count: 4,
        max: 3
    }));
    let gullies = check_home_terrain(
        HomeTerrain::Steppe,
        Variant::Standard,
        &[F::GentleHill],
        &[F::Gully, F::Gully],
    );
    assert!(gullies.contains(&HomeTerrainProblem::TooMany {
        feature: F::Gully,
        count: 2,
        max: 1
    }));
    assert_eq!(gullies[0].rule(), "§3.7");
}
