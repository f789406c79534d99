//! Queries on the table: going (DBA3.md §3.1, §17.34), rivers (§3.5), roads (§3.6), uphill
//! (§3.3, §10.3), line of sight (§9.5) and command distance (§6.4).

use crate::terrain_fixtures;

use dbcore::battlefield::{
    Battlefield, Board, SightBlock, COMMAND_DISTANCE, COMMAND_DISTANCE_LIGHT_HORSE,
    COMMAND_DISTANCE_SCREENED,
};
use dbcore::geometry::{Polygon, Segment};
use dbcore::terrain::{AreaFeature, AreaKind, Going, GoingContext, TerrainFeature, Waterway};
use terrain_fixtures::*;

const PLAIN: GoingContext = GoingContext {
    camel_mounted: false,
    plough_is_rough: false,
};
const CAMEL: GoingContext = GoingContext {
    camel_mounted: true,
    plough_is_rough: false,
};
const WET: GoingContext = GoingContext {
    camel_mounted: false,
    plough_is_rough: true,
};

// ------------------------------------------------------------------------------------------
// Going, §3.1
// ------------------------------------------------------------------------------------------

#[test]
fn going_table_by_kind() {
    // DBA3.md §3.1.
    use AreaKind::*;
    let cases = [
        (GentleHill, Some(Going::Good)),
        (Plough, Some(Going::Good)),
        (DifficultHill, Some(Going::Bad)),
        (Wood, Some(Going::Bad)),
        (Marsh, Some(Going::Bad)),
        (Gully, Some(Going::Bad)),
        (Dunes, Some(Going::Bad)),
        (Oasis, Some(Going::Bad)),
        (Rocky, Some(Going::Rough)),
        (Scrub, Some(Going::Rough)),
        (Boggy, Some(Going::Rough)),
        (Enclosures, Some(Going::Rough)),
        (Hamlet, Some(Going::Rough)),
        (Edifice, Some(Going::Bad)),
        (City, None),
        (Fort, None),
    ];
    for (k, g) in cases {
        assert_eq!(k.going(PLAIN), g, "{k:?}");
    }
}

#[test]
fn dunes_and_oasis_are_good_going_for_camels() {
    // DBA3.md §3.1, §17.28.
    assert_eq!(AreaKind::Dunes.going(CAMEL), Some(Going::Good));
    assert_eq!(AreaKind::Oasis.going(CAMEL), Some(Going::Good));
    assert_eq!(AreaKind::Wood.going(CAMEL), Some(Going::Bad));
    let bf = query_table();
    let e = el(32.0, 3.0, 0.0, 0.5);
    assert_eq!(bf.going_under(&e, PLAIN), Going::Bad);
    assert_eq!(bf.going_under(&e, CAMEL), Going::Good);
}

#[test]
fn plough_is_rough_when_the_game_says_so() {
    // DBA3.md §3.1, §17.7b: rough for the whole game after a first PIP score of 1.
    let bf = query_table();
    let e = el(38.0, 3.0, 0.0, 0.5);
    assert_eq!(bf.going_under(&e, PLAIN), Going::Good);
    assert_eq!(bf.going_under(&e, WET), Going::Rough);
}

#[test]
fn partly_in_several_goings_counts_as_the_worst() {
    // DBA3.md §3.1: an element partly in more than one going counts as wholly in the worst.
    let bf = query_table();
    assert_eq!(
        bf.going_under(&el(26.0, 3.0, 0.0, 0.5), PLAIN),
        Going::Rough
    );
    assert_eq!(bf.going_under(&el(24.0, 3.0, 0.0, 0.5), PLAIN), Going::Bad);
    // A corner just reaching into the wood is enough.
    assert_eq!(bf.going_under(&el(20.1, 2.0, 90.0, 0.5), PLAIN), Going::Bad);
    assert_eq!(bf.going_under(&el(5.0, 3.0, 0.0, 0.5), PLAIN), Going::Good);
}

#[test]
fn touching_a_feature_is_not_being_in_it() {
    // DBA3.md §3.1 "partly in", §0.3 tolerance: front edge lying on the wood's edge.
    let bf = query_table();
    assert_eq!(
        bf.going_under(&el(20.0, 2.0, 90.0, 0.5), PLAIN),
        Going::Good
    );
}

#[test]
fn rivers_are_neither_good_nor_bad_and_cities_have_no_going_class() {
    // DBA3.md §0.3, §3.5: a river has its own effects; §4.2: City is special.
    let bf = query_table();
    let in_river = el(5.0, 19.8, 0.0, 0.5);
    assert_eq!(bf.going_under(&in_river, PLAIN), Going::Good);
    assert_eq!(bf.river_under(&in_river), Some(8));
    assert_eq!(
        bf.going_under(&el(21.0, 11.5, 0.0, 0.5), PLAIN),
        Going::Good
    );
}

#[test]
fn waterway_is_impassable_and_its_beach_good_going() {
    // DBA3.md §3.4.
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Waterway(Waterway::uniform(
        dbcore::battlefield::BoardEdge::South,
        2.0,
        1.5,
    )));
    assert_eq!(
        bf.going_under(&el(5.0, 2.5, 0.0, 0.75), PLAIN),
        Going::Impassable
    );
    assert_eq!(bf.going_under(&el(5.0, 3.0, 0.0, 0.5), PLAIN), Going::Good);
}

#[test]
fn hill_under_a_fort_gives_no_bad_going_penalty_in_combat() {
    // DBA3.md §17.34: attackers get no bad-going −2 from the hill under a City/Fort.
    let bf = query_table();
    let attacker = el(42.5, 12.5, 0.0, 0.5);
    assert_eq!(bf.going_under(&attacker, PLAIN), Going::Bad);
    assert_eq!(bf.combat_going_under(&attacker, PLAIN), Going::Good);
    let other = el(52.5, 12.5, 0.0, 0.5);
    assert_eq!(bf.combat_going_under(&other, PLAIN), Going::Bad);
}

// ------------------------------------------------------------------------------------------
// River, §3.5; road, §3.6
// ------------------------------------------------------------------------------------------

#[test]
fn front_edge_in_river() {
    // DBA3.md §3.5, §7.8: the river along y = 20 is 1 BW wide (19.5 to 20.5).
    let bf = query_table();
    assert!(bf.front_edge_in_river(&el(5.0, 19.6, 0.0, 0.5)));
    // Front edge on the bank: not in.
    assert!(!bf.front_edge_in_river(&el(5.0, 19.5, 0.0, 0.5)));
    // Rear in the water, front out.
    let backing = el(5.0, 19.0, 180.0, 0.75);
    assert!(!bf.front_edge_in_river(&backing));
    assert_eq!(bf.river_under(&backing), Some(8));
    assert_eq!(bf.river_under(&el(5.0, 17.0, 0.0, 0.5)), None);
}

#[test]
fn a_move_wholly_along_the_road() {
    // DBA3.md §3.6: a move wholly on the road counts as good going, however the road curves.
    let bf = query_table();
    assert!(bf.move_along_road(&[p(30.0, 10.5), p(30.0, 13.9)]));
    assert!(bf.move_along_road(&[p(30.0, 11.0), p(30.0, 14.0), p(33.0, 17.0)]));
    // Astride within ¼ BW of the centre line.
    assert!(bf.move_along_road(&[p(30.2, 11.0), p(30.2, 13.0)]));
    assert!(!bf.move_along_road(&[p(30.4, 11.0), p(30.4, 13.0)]));
    // Leaving the road part way.
    assert!(!bf.move_along_road(&[p(30.0, 11.0), p(32.0, 12.0)]));
    assert!(!bf.move_along_road(&[]));
    assert!(!Battlefield::default().move_along_road(&[p(1.0, 1.0), p(1.0, 2.0)]));
}

// ------------------------------------------------------------------------------------------
// Uphill, §3.3 and §10.3
// ------------------------------------------------------------------------------------------

#[test]
fn heights_rise_from_the_edge_to_the_crest() {
    // DBA3.md §3.3: every hill rises to its crest line.
    let bf = query_table();
    assert_eq!(bf.height_at(p(10.0, 10.0)), 1.0);
    assert_eq!(bf.height_at(p(0.0, 0.0)), 0.0);
    let low = bf.height_at(p(10.0, 8.5));
    let mid = bf.height_at(p(10.0, 9.0));
    let high = bf.height_at(p(10.0, 9.5));
    assert!(0.0 < low && low < mid && mid < high && high < 1.0);
}

#[test]
fn uphill_element_in_frontal_contact() {
    // DBA3.md §3.3, §10.3: any part of the front edge higher up the slope than every part of the
    // opponent.
    let bf = query_table();
    let up = el(10.0, 9.0, 180.0, 0.5);
    let down = el(10.0, 9.0, 0.0, 0.5);
    assert!(bf.is_uphill_of(&up, &down));
    assert!(!bf.is_uphill_of(&down, &up));
}

#[test]
fn no_uphill_on_the_flat_or_from_below() {
    // DBA3.md §3.3.
    let bf = query_table();
    let a = el(3.0, 3.0, 0.0, 0.5);
    let b = el(3.0, 3.0, 180.0, 0.5);
    assert!(!bf.is_uphill_of(&a, &b) && !bf.is_uphill_of(&b, &a));
    let lower = el(10.0, 8.6, 0.0, 0.5);
    let higher = el(10.0, 9.4, 180.0, 0.5);
    assert!(!bf.is_uphill_of(&lower, &higher));
    assert!(bf.is_uphill_of(&higher, &lower));
}

#[test]
fn an_element_at_the_foot_of_a_hill_is_uphill_of_one_on_the_flat() {
    // DBA3.md §3.3: a front edge just on the slope is higher than the flat.
    let bf = query_table();
    let on_slope = el(10.0, 8.1, 180.0, 0.5);
    let flat = el(10.0, 8.1, 0.0, 0.5);
    assert!(bf.height_at(p(10.0, 8.1)) > 0.0);
    assert_eq!(bf.height_at(p(10.0, 7.9)), 0.0);
    assert!(bf.is_uphill_of(&on_slope, &flat));
}

#[test]
fn hill_under_a_fort_gives_no_uphill() {
    // DBA3.md §17.34: occupiers get no uphill +1 from the hill under a City/Fort.
    let bf = query_table();
    let up = el(45.0, 10.5, 180.0, 0.5);
    let down = el(45.0, 10.5, 0.0, 0.5);
    assert!(!bf.is_uphill_of(&up, &down));
    let up2 = el(55.0, 10.5, 180.0, 0.5);
    let down2 = el(55.0, 10.5, 0.0, 0.5);
    assert!(bf.is_uphill_of(&up2, &down2));
}

// ------------------------------------------------------------------------------------------
// Line of sight, §9.5
// ------------------------------------------------------------------------------------------

#[test]
fn hill_crest_blocks_a_target_wholly_beyond_it() {
    // DBA3.md §9.5.
    let bf = query_table();
    assert_eq!(
        bf.line_of_sight(p(10.0, 6.0), p(10.0, 11.5)),
        Err(SightBlock::HillCrest { feature: 0 })
    );
    assert_eq!(bf.line_of_sight(p(10.0, 6.0), p(10.0, 9.5)), Ok(()));
    // A point on the crest sees both slopes.
    assert_eq!(bf.line_of_sight(p(10.0, 10.0), p(10.0, 11.5)), Ok(()));
    // Wholly beyond vs partly beyond.
    let front = Segment::new(p(9.5, 6.0), p(10.5, 6.0));
    let beyond = Segment::new(p(9.5, 11.0), p(10.5, 11.0));
    let partly = Segment::new(p(11.5, 11.0), p(13.5, 11.0));
    assert_eq!(
        bf.sight_between(&front, &beyond),
        Err(SightBlock::HillCrest { feature: 0 })
    );
    assert_eq!(bf.sight_between(&front, &partly), Ok(()));
    // Element to element.
    assert_eq!(
        bf.element_line_of_sight(&el(10.0, 6.0, 0.0, 0.5), &el(10.0, 11.5, 0.0, 0.5)),
        Err(SightBlock::HillCrest { feature: 0 })
    );
}

#[test]
fn city_blocks_sight_except_for_its_own_garrison() {
    // DBA3.md §9.5: a City or Fort blocks.
    let bf = query_table();
    assert_eq!(
        bf.line_of_sight(p(17.0, 11.0), p(25.0, 11.0)),
        Err(SightBlock::Fortification {
            feature: 7,
            kind: AreaKind::City
        })
    );
    assert_eq!(bf.line_of_sight(p(21.0, 11.0), p(25.0, 11.0)), Ok(()));
}

#[test]
fn half_a_base_width_of_wood_blocks() {
    // DBA3.md §9.5: ½ BW or more depth of wood (and the other listed features) blocks.
    let bf = query_table();
    assert!(matches!(
        bf.line_of_sight(p(18.0, 2.0), p(26.0, 2.0)),
        Err(SightBlock::DeepFeature {
            feature: 1,
            kind: AreaKind::Wood,
            ..
        })
    ));
    // Clipping the wood's corner (about 0.42 BW inside) does not block.
    assert_eq!(bf.line_of_sight(p(19.8, 3.5), p(20.6, 4.3)), Ok(()));
    for (width, blocked) in [(0.5, true), (0.4, false)] {
        let mut t = Battlefield::new(Board::default());
        t.features
            .push(rect(AreaKind::Wood, 5.0, 0.0, 5.0 + width, 10.0));
        assert_eq!(
            t.line_of_sight(p(3.0, 5.0), p(8.0, 5.0)).is_err(),
            blocked,
            "{width}"
        );
    }
}

#[test]
fn every_listed_feature_blocks_and_others_do_not() {
    // DBA3.md §9.5: difficult hill, wood, oasis, dunes, hamlet, edifice block; rough going and
    // marsh do not affect shooting.
    use AreaKind::*;
    for (kind, blocks) in [
        (DifficultHill, true),
        (Wood, true),
        (Oasis, true),
        (Dunes, true),
        (Hamlet, true),
        (Edifice, true),
        (Marsh, false),
        (Rocky, false),
        (Scrub, false),
        (Boggy, false),
        (Enclosures, false),
        (Plough, false),
        (GentleHill, false),
    ] {
        let mut t = Battlefield::new(Board::default());
        t.features.push(rect(kind, 5.0, 4.0, 8.0, 6.0));
        assert_eq!(
            t.line_of_sight(p(2.0, 4.5), p(11.0, 4.5)).is_err(),
            blocks,
            "{kind:?}"
        );
    }
}

#[test]
fn no_shooting_into_or_out_of_a_gully() {
    // DBA3.md §9.5.
    let bf = query_table();
    assert_eq!(
        bf.line_of_sight(p(50.0, 1.0), p(50.0, 5.0)),
        Err(SightBlock::ShooterInGully { feature: 6 })
    );
    assert_eq!(
        bf.line_of_sight(p(50.0, 5.0), p(50.0, 1.0)),
        Err(SightBlock::TargetInGully { feature: 6 })
    );
    assert_eq!(
        bf.element_line_of_sight(&el(50.0, 2.4, 0.0, 0.5), &el(50.0, 6.0, 180.0, 0.5)),
        Err(SightBlock::ShooterInGully { feature: 6 })
    );
    assert_eq!(
        bf.element_line_of_sight(&el(50.0, 6.0, 180.0, 0.5), &el(50.0, 2.4, 0.0, 0.5)),
        Err(SightBlock::TargetInGully { feature: 6 })
    );
}

#[test]
fn no_shooting_by_an_element_partly_in_marsh_or_river() {
    // DBA3.md §9.5 (TTS).
    let bf = query_table();
    assert_eq!(
        bf.element_line_of_sight(&el(44.0, 4.3, 0.0, 0.5), &el(44.0, 7.0, 180.0, 0.5)),
        Err(SightBlock::ShooterInMarsh { feature: 5 })
    );
    assert_eq!(
        bf.element_line_of_sight(&el(5.0, 19.8, 0.0, 0.5), &el(5.0, 22.0, 180.0, 0.5)),
        Err(SightBlock::ShooterInRiver { feature: 8 })
    );
    // A target in a marsh may be shot at.
    assert_eq!(
        bf.element_line_of_sight(&el(44.0, 6.0, 180.0, 0.5), &el(44.0, 3.0, 0.0, 0.5)),
        Ok(())
    );
}

#[test]
fn sight_block_names_its_rule() {
    // DBA3.md §9.5.
    let b = SightBlock::HillCrest { feature: 0 };
    assert_eq!(b.rule(), "§9.5");
    assert!(b.to_string().contains("§9.5"));
}

// ------------------------------------------------------------------------------------------
// Command distance, §6.4
// ------------------------------------------------------------------------------------------

fn table_with(features: Vec<TerrainFeature>) -> Battlefield {
    Battlefield {
        board: Board::default(),
        features,
    }
}

#[test]
fn command_distance_in_the_open_is_8_bw_and_within_means_at_or_closer() {
    // DBA3.md §6.4, §0.3.
    let bf = Battlefield::default();
    let g = el(5.0, 5.0, 0.0, 0.5);
    let at_8 = [el(5.0, 13.5, 0.0, 0.5)];
    let past_8 = [el(5.0, 13.6, 0.0, 0.5)];
    assert_eq!(bf.command_distance(&g, &at_8, &[], false), COMMAND_DISTANCE);
    assert!(bf.within_command(&g, &at_8, &[], false));
    assert!(!bf.within_command(&g, &past_8, &[], false));
}

#[test]
fn light_horse_movers_have_20_bw() {
    // DBA3.md §6.4: entirely Light Horse, 20 BW, whatever the terrain.
    let bf = table_with(vec![rect(AreaKind::Wood, 3.0, 8.0, 7.0, 10.0)]);
    let g = el(5.0, 5.0, 0.0, 0.5);
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 11.5, 0.0, 0.5)], &[], true),
        COMMAND_DISTANCE_LIGHT_HORSE
    );
    assert!(bf.within_command(&g, &[el(5.0, 25.5, 0.0, 0.5)], &[], true));
    assert!(!bf.within_command(&g, &[el(5.0, 25.6, 0.0, 0.5)], &[], true));
}

#[test]
fn wood_screens_a_mover_wholly_beyond_or_inside_it() {
    // DBA3.md §6.4: inside or beyond a wood as seen from the general, 4 BW.
    let bf = table_with(vec![rect(AreaKind::Wood, 3.0, 8.0, 7.0, 10.0)]);
    let g = el(5.0, 5.0, 0.0, 0.5);
    let beyond = [el(5.0, 11.5, 0.0, 0.5)];
    assert_eq!(
        bf.command_distance(&g, &beyond, &[], false),
        COMMAND_DISTANCE_SCREENED
    );
    assert!(!bf.within_command(&g, &beyond, &[], false));
    let inside = [el(5.0, 9.5, 0.0, 0.5)];
    assert_eq!(
        bf.command_distance(&g, &inside, &[], false),
        COMMAND_DISTANCE_SCREENED
    );
    assert!(bf.within_command(&g, &inside, &[], false));
    // Partly seen past the wood's end: not the whole mover, so 8 BW.
    let partly = [el(9.0, 11.5, 0.0, 0.5)];
    assert_eq!(
        bf.command_distance(&g, &partly, &[], false),
        COMMAND_DISTANCE
    );
    // A group is screened only when all of it is.
    assert_eq!(
        bf.command_distance(&g, &[beyond[0], partly[0]], &[], false),
        COMMAND_DISTANCE
    );
    // A general standing in the wood is not screened by it.
    let g_in = el(5.0, 9.5, 0.0, 0.5);
    assert_eq!(
        bf.command_distance(&g_in, &[el(5.0, 14.0, 0.0, 0.5)], &[], false),
        COMMAND_DISTANCE
    );
}

#[test]
fn crest_difficult_hill_bua_and_camp_screen() {
    // DBA3.md §6.4: past a hill crest, on or past a difficult hill, past a BUA or camp.
    let g = el(5.0, 5.0, 0.0, 0.5);
    let mut gentle = AreaFeature::ellipse(AreaKind::GentleHill, p(5.0, 10.0), 3.0, 2.0, 0.0, 48);
    gentle.crest = vec![p(3.0, 10.0), p(7.0, 10.0)];
    let bf = table_with(vec![TerrainFeature::Area(gentle.clone())]);
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 11.5, 0.0, 0.5)], &[], false),
        COMMAND_DISTANCE_SCREENED
    );
    // On the near slope of a gentle hill: seen.
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 9.5, 0.0, 0.5)], &[], false),
        COMMAND_DISTANCE
    );
    let mut difficult = gentle;
    difficult.kind = AreaKind::DifficultHill;
    let bf = table_with(vec![TerrainFeature::Area(difficult)]);
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 9.0, 0.0, 0.5)], &[], false),
        COMMAND_DISTANCE_SCREENED
    );
    let bf = table_with(vec![rect(AreaKind::City, 4.0, 8.0, 6.0, 9.0)]);
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 10.5, 0.0, 0.5)], &[], false),
        COMMAND_DISTANCE_SCREENED
    );
    let camp = Polygon::new(vec![p(4.0, 8.0), p(6.0, 8.0), p(6.0, 9.0), p(4.0, 9.0)]);
    let bf = Battlefield::default();
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 10.5, 0.0, 0.5)], &[camp], false),
        COMMAND_DISTANCE_SCREENED
    );
    assert_eq!(
        bf.command_distance(&g, &[el(5.0, 10.5, 0.0, 0.5)], &[], false),
        COMMAND_DISTANCE
    );
}

#[test]
fn a_group_is_within_command_when_its_nearest_element_is() {
    // DBA3.md §6.4: measured to the element or group.
    let bf = Battlefield::default();
    let g = el(5.0, 5.0, 0.0, 0.5);
    let group = [el(5.0, 14.5, 0.0, 0.5), el(5.0, 13.0, 0.0, 0.5)];
    assert!(bf.within_command(&g, &group, &[], false));
}

#[test]
fn battlefield_round_trips_through_json() {
    // Serde data (design rule): a table, snapped to the storage grid, saves and loads unchanged.
    let bf = query_table().map_points(&|q| q.snapped());
    let s = serde_json::to_string(&bf).unwrap();
    let back: Battlefield = serde_json::from_str(&s).unwrap();
    assert_eq!(back, bf);
}
