//! The C ABI called from Rust: the struct functions and the JSON functions agree with dbcore,
//! and JSON output reads back as dbcore's serde types.

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use dbcore::combat::{CombatResult, Odds, OddsRequest, ResolveRequest};
use dbcore::{Combatant, DieScore, RulesConfig, Situation};
use dbcore_ffi::*;

fn kind(code: &str) -> DbcoreElementKind {
    let c = CString::new(code).unwrap();
    let mut k = DbcoreElementKind::default();
    assert_eq!(
        unsafe { dbcore_element_kind_parse(c.as_ptr(), &mut k) },
        DbcoreStatus::Ok
    );
    k
}

fn take_json(p: *mut c_char) -> String {
    let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
    unsafe { dbcore_string_free(p) };
    s
}

type JsonFn = unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> DbcoreStatus;

fn call_json(f: JsonFn, request: &str) -> Result<String, DbcoreStatus> {
    let c = CString::new(request).unwrap();
    let mut out = ptr::null_mut();
    match unsafe { f(c.as_ptr(), &mut out) } {
        DbcoreStatus::Ok => Ok(take_json(out)),
        s => {
            assert!(out.is_null());
            Err(s)
        }
    }
}

fn pairs() -> Vec<(&'static str, &'static str)> {
    vec![
        ("3Kn", "4Bd"),
        ("4Bd", "4Wb"),
        ("Sp", "Ps"),
        ("El", "4Ax"),
        ("LH", "8Bw"),
        ("Mtd-4Bw", "Cv"),
    ]
}

#[test]
fn resolve_json_round_trips_and_matches_dbcore() {
    // DBA3.md §11: every pair of dice, through JSON, equals dbcore's own answer.
    let cfg = RulesConfig::default();
    for (a, b) in pairs() {
        let sit = Situation::close_combat(
            Combatant::new(a.parse().unwrap()),
            Combatant::new(b.parse().unwrap()),
        );
        for da in DieScore::ALL {
            for db in DieScore::ALL {
                let req = ResolveRequest {
                    situation: sit.clone(),
                    dice: [da, db],
                    config: None,
                };
                let json =
                    call_json(dbcore_resolve_json, &serde_json::to_string(&req).unwrap()).unwrap();
                let got: CombatResult = serde_json::from_str(&json).unwrap();
                assert_eq!(got, dbcore::resolve(&sit, [da, db], &cfg).unwrap());
            }
        }
    }
}

#[test]
fn odds_json_round_trips_and_matches_dbcore() {
    let cfg = RulesConfig::default();
    for (a, b) in pairs() {
        let sit = Situation::close_combat(
            Combatant::new(a.parse().unwrap()),
            Combatant::new(b.parse().unwrap()),
        );
        let req = OddsRequest {
            situation: sit.clone(),
            config: Some(cfg.clone()),
        };
        let json = call_json(dbcore_odds_json, &serde_json::to_string(&req).unwrap()).unwrap();
        let got: Odds = serde_json::from_str(&json).unwrap();
        assert_eq!(got, dbcore::odds(&sit, &cfg).unwrap());
    }
}

#[test]
fn struct_api_matches_json_api() {
    for (a, b) in pairs() {
        let mut sit = DbcoreSituation::default();
        sit.a.kind = kind(a);
        sit.b.kind = kind(b);
        let mut res = std::mem::MaybeUninit::<DbcoreCombatResult>::uninit();
        assert_eq!(
            unsafe { dbcore_resolve(&sit, 2, 5, res.as_mut_ptr()) },
            DbcoreStatus::Ok
        );
        let res = unsafe { res.assume_init() };
        let req = format!(
            r#"{{"situation":{{"a":{{"kind":"{a}"}},"b":{{"kind":"{b}"}}}},"dice":[2,5]}}"#
        );
        let json: CombatResult =
            serde_json::from_str(&call_json(dbcore_resolve_json, &req).unwrap()).unwrap();
        assert_eq!(res.a.total, json.a.total);
        assert_eq!(res.b.total, json.b.total);
        assert_eq!(res.a.outcome as u32, json.a.outcome as u32);
        assert_eq!(res.b.outcome as u32, json.b.outcome as u32);
        let rule = unsafe { CStr::from_ptr(res.a.rule.as_ptr()) }
            .to_str()
            .unwrap();
        assert_eq!(rule, json.a.rule);
        assert_eq!(res.a.rule_len as usize, rule.len());
        assert_eq!(res.pursuit.present == 1, json.pursuit.is_some());
    }
}

#[test]
fn a_config_in_json_is_used_and_checked() {
    // A house rule is a changed config: Blades at +6 vs foot.
    let mut cfg = RulesConfig::default();
    cfg.kinds
        .get_mut(&dbcore::BaseKind::Bd4)
        .unwrap()
        .factor_vs_foot = 6;
    let req = OddsRequest {
        situation: Situation::close_combat(
            Combatant::new("4Bd".parse().unwrap()),
            Combatant::new("4Wb".parse().unwrap()),
        ),
        config: Some(cfg.clone()),
    };
    let got: Odds = serde_json::from_str(
        &call_json(dbcore_odds_json, &serde_json::to_string(&req).unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(got.a_factor, 6);
    // A config that cannot be used is an invalid argument.
    cfg.kinds.get_mut(&dbcore::BaseKind::Bd4).unwrap().depth = -1.0;
    let req = OddsRequest {
        config: Some(cfg),
        ..req
    };
    assert_eq!(
        call_json(dbcore_odds_json, &serde_json::to_string(&req).unwrap()),
        Err(DbcoreStatus::InvalidArgument)
    );
}

#[test]
fn kind_json_is_dbcores_kind_info() {
    let text = call_json(dbcore_element_kind_json, "8Bw").unwrap();
    let info: dbcore::KindInfo = serde_json::from_str(&text).unwrap();
    let kind: dbcore::ElementKind = "8Bw".parse().unwrap();
    assert_eq!(info, kind.info(&RulesConfig::default()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["code"], "8Bw");
    assert_eq!(v["double"], true);
    assert_eq!(v["shoots"], true);
    assert_eq!(v["shooting_range"], 3.0);
    assert_eq!(v["pursuit"], "never");
}

#[test]
fn kind_info_struct_agrees_with_kind_info_json() {
    // Every kind: the C struct is the same facts as dbcore's KindInfo, pursuit distance included.
    let cfg = RulesConfig::default();
    for k in dbcore::ElementKind::all() {
        let info = k.info(&cfg);
        let mut c = std::mem::MaybeUninit::<DbcoreElementKindInfo>::uninit();
        let ck = DbcoreElementKind::from_kind(k);
        assert_eq!(
            unsafe { dbcore_element_kind_info(&ck, c.as_mut_ptr()) },
            DbcoreStatus::Ok
        );
        let c = unsafe { c.assume_init() };
        assert_eq!(c.mounted == 1, info.class == dbcore::Class::Mounted, "{k}");
        assert_eq!(c.double_element == 1, info.double, "{k}");
        assert_eq!(c.pursuit_distance, info.pursuit.distance(), "{k}");
        assert_eq!(c.depth, info.depth, "{k}");
        assert_eq!(c.shooting_range, info.shooting_range.unwrap_or(0.0), "{k}");
        assert_eq!(c.factor_vs_foot, info.factor_vs_foot, "{k}");
    }
}

#[test]
fn status_names_are_static_and_complete() {
    for code in dbcore::ErrorCode::ALL {
        let name = unsafe { CStr::from_ptr(dbcore_status_name(code.number())) };
        assert!(name.to_str().unwrap().starts_with("DBCORE_STATUS_"));
        assert_ne!(name.to_str().unwrap(), "DBCORE_STATUS_UNKNOWN");
    }
    let v = unsafe { CStr::from_ptr(dbcore_version()) };
    assert_eq!(v.to_str().unwrap(), dbcore_ffi::VERSION);
}

#[test]
fn the_last_error_is_per_thread() {
    let mut k = DbcoreElementKind::default();
    assert_eq!(
        unsafe { dbcore_element_kind_parse(c"9Zz".as_ptr(), &mut k) },
        DbcoreStatus::ElementCode
    );
    // Another thread sees no failure of its own.
    let other = std::thread::spawn(|| dbcore_last_error_code())
        .join()
        .unwrap();
    assert_eq!(other, 0);
    assert_eq!(dbcore_last_error_code(), DbcoreStatus::ElementCode as u32);
}

#[test]
fn s14_4_roll_pips_draws_one_die_per_command_and_the_state_has_the_commands() {
    // DBA3.md §14.4: a Big Battle through the C handle asks for, and gets, a die per command;
    // its commands are in the state JSON.
    let setup = dbcore::driver::big_battle_setup(dbcore::battlefield::Variant::BigBattle);
    let setup = CString::new(serde_json::to_string(&setup).unwrap()).unwrap();
    let (mut battle, mut dice, mut events) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(
            dbcore_battle_new_json(setup.as_ptr(), &mut battle),
            DbcoreStatus::Ok
        );
        assert_eq!(dbcore_dice_new(7, &mut dice), DbcoreStatus::Ok);
        assert_eq!(
            dbcore_battle_roll_pips(battle, dice, &mut events),
            DbcoreStatus::Ok
        );
    }
    let ev: serde_json::Value = serde_json::from_str(&take_json(events)).unwrap();
    assert_eq!(ev[0]["rolls"].as_array().unwrap().len(), 3);
    let mut state = ptr::null_mut();
    unsafe {
        assert_eq!(
            dbcore_battle_state_json(battle, &mut state),
            DbcoreStatus::Ok
        );
    }
    let state: serde_json::Value = serde_json::from_str(&take_json(state)).unwrap();
    assert_eq!(state["commands"].as_array().unwrap().len(), 6);
    unsafe {
        dbcore_dice_free(dice);
        dbcore_battle_free(battle);
    }
}

/// The situations the compact entry point is held to: each pair of kinds plain, with factors,
/// in bad going, in and at a city (refused for some kinds), and shooting (refused for kinds that
/// do not shoot).
fn compact_variants() -> Vec<DbcoreSituation> {
    let mut out = Vec::new();
    for (a, b) in pairs() {
        let mut s = DbcoreSituation::default();
        s.a.kind = kind(a);
        s.b.kind = kind(b);
        out.push(s);
        let mut f = s;
        f.a.general = 1;
        f.a.uphill = 1;
        f.b.flank_rear_contacts = 1;
        out.push(f);
        let mut g = s;
        g.a.going = DbcoreGoing::Bad as u32;
        g.b.going = DbcoreGoing::Rough as u32;
        out.push(g);
        let mut c = s;
        c.a.holding = DbcoreHolding::Defending as u32;
        c.a.place = DbcoreStronghold::City as u32;
        c.b.holding = DbcoreHolding::Assaulting as u32;
        c.b.place = DbcoreStronghold::City as u32;
        out.push(c);
        let mut t = s;
        t.engagement = DbcoreEngagement::Shooting as u32;
        t.target_shoots_back = 1;
        out.push(t);
    }
    out
}

// DBA3.md §11: `dbcore_resolve_compact` gives what `dbcore_resolve` gives (outcomes, bands,
// totals, factor sums, the same rule text, pursuit) for every pair of dice, or the same refusal
// with the output untouched.
#[test]
fn compact_resolve_matches_the_full_struct() {
    let mut refused = 0;
    for sit in compact_variants() {
        for da in 1..=6u8 {
            for db in 1..=6u8 {
                let mut full = std::mem::MaybeUninit::<DbcoreCombatResult>::uninit();
                let status = unsafe { dbcore_resolve(&sit, da, db, full.as_mut_ptr()) };
                let mut compact = std::mem::MaybeUninit::<DbcoreCompactResult>::zeroed();
                let got = unsafe { dbcore_resolve_compact(&sit, da, db, compact.as_mut_ptr()) };
                assert_eq!(got, status, "{sit:?} {da} {db}");
                let compact = unsafe { compact.assume_init() };
                if status != DbcoreStatus::Ok {
                    refused += 1;
                    assert!(compact.a.rule.is_null(), "a refusal wrote the output");
                    continue;
                }
                let full = unsafe { full.assume_init() };
                for (c, f) in [(&compact.a, &full.a), (&compact.b, &full.b)] {
                    assert_eq!(c.total, f.total);
                    let sum: i32 = f.factors[..f.factor_count as usize]
                        .iter()
                        .map(|x| x.value)
                        .sum();
                    assert_eq!(c.factor, sum);
                    assert_eq!(c.total, sum + f.die as i32);
                    assert_eq!(c.band, f.band);
                    assert_eq!(c.outcome, f.outcome);
                    let text = unsafe {
                        std::slice::from_raw_parts(c.rule.cast::<u8>(), c.rule_len as usize)
                    };
                    let rule = unsafe { CStr::from_ptr(f.rule.as_ptr()) }.to_bytes();
                    assert_eq!(text, rule);
                    assert_eq!(c.rule_len, f.rule_len);
                }
                assert_eq!(compact.pursuit, full.pursuit);
            }
        }
    }
    // Some of the variants are refusals (a city defended by Elephants, Knights shooting).
    assert!(refused > 0);
}

#[test]
fn compact_resolve_refuses_null_and_bad_dice() {
    let mut sit = DbcoreSituation::default();
    sit.a.kind = kind("4Bd");
    sit.b.kind = kind("4Wb");
    let mut out = std::mem::MaybeUninit::<DbcoreCompactResult>::uninit();
    assert_eq!(
        unsafe { dbcore_resolve_compact(ptr::null(), 1, 1, out.as_mut_ptr()) },
        DbcoreStatus::NullArgument
    );
    assert_eq!(
        unsafe { dbcore_resolve_compact(&sit, 1, 1, ptr::null_mut()) },
        DbcoreStatus::NullArgument
    );
    assert_eq!(
        unsafe { dbcore_resolve_compact(&sit, 0, 1, out.as_mut_ptr()) },
        DbcoreStatus::InvalidDie
    );
    assert_eq!(
        unsafe { dbcore_resolve_compact(&sit, 1, 7, out.as_mut_ptr()) },
        DbcoreStatus::InvalidDie
    );
}
