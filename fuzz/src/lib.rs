//! What each fuzz target checks, as plain functions of the input bytes: the `cargo fuzz`
//! targets in `fuzz_targets/` call them on nightly, and `dbcore-ffi/tests/suite/fuzz_corpus.rs`
//! includes this file and calls them on every committed corpus input in the normal (stable)
//! `cargo test`. A check returns quietly for input it cannot use and panics on a broken promise:
//! a panic inside dbcore, a refusal that changed the battle, `check` disagreeing with `apply`, a
//! round trip that does not come back equal, or a C call reporting a caught panic.

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use dbcore::battle::{Action, Battle, BattleRecord, BattleSetup};
use dbcore::table::Table;
use dbcore::{ElementKind, RulesConfig};
use serde::Deserialize;

/// A target's check of one input.
pub type Check = fn(&[u8]);

/// Every target: its name (the directory of its corpus under `fuzz/corpus/`) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("element_code", element_code),
    ("setup_json", setup_json),
    ("action_stream", action_stream),
    ("round_trips", round_trips),
    ("table_queries", table_queries),
    ("c_entry_points", c_entry_points),
    ("action_bytes", action_bytes),
    ("simulate_json", simulate_json),
    ("ai_choose", ai_choose),
    ("forged_states", forged_states),
];

/// The body every target in `fuzz_targets/` shares: `fuzz_target!` over one check of this file.
/// Each target file is `dbcore_fuzz::target!(NAME);`.
#[macro_export]
macro_rules! target {
    ($check:ident) => {
        libfuzzer_sys::fuzz_target!(|data: &[u8]| $crate::$check(data));
    };
}

/// Most actions one input may feed a battle, so that one input stays quick.
const MAX_ACTIONS: usize = 400;
/// Most elements asked about in one table.
const MAX_ASKED: usize = 40;

/// Element codes: parsing never panics, and a parsed code prints and reads back as itself.
pub fn element_code(data: &[u8]) {
    let _ = serde_json::from_slice::<ElementKind>(data);
    let _ = serde_json::from_slice::<dbcore::BaseKind>(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<ElementKind>() {
        Ok(k) => {
            let again: ElementKind = k.to_string().parse().expect("a printed code parses");
            assert_eq!(again, k);
            let json = serde_json::to_string(&k).expect("a kind writes as JSON");
            assert_eq!(serde_json::from_str::<ElementKind>(&json).ok(), Some(k));
            let _ = k.info(&RulesConfig::default());
        }
        Err(e) => assert!(e.to_string().len() < 2048, "a long refusal: {e}"),
    }
}

/// A set-up read from JSON into a battle: refused with a bounded report, or a battle whose
/// state, record and picture all work.
pub fn setup_json(data: &[u8]) {
    let Ok(setup) = serde_json::from_slice::<BattleSetup>(data) else {
        return;
    };
    match Battle::new(setup) {
        Err(e) => {
            assert!(e.problems.len() <= dbcore::limits::MAX_PROBLEMS + 2);
            assert!(e.to_string().len() < 64 * 1024);
        }
        Ok(b) => {
            state_round_trip(&b);
            let (replayed, _) = Battle::replay(&b.record()).expect("a new battle replays");
            assert_eq!(replayed, b);
            let _ = b.table().svg(&b.setup().config, true);
            let _ = b.awaiting();
        }
    }
}

/// A set-up and a stream of actions as JSON values, as a table tool or server would send them.
#[derive(Debug, Deserialize)]
struct Stream {
    setup: BattleSetup,
    #[serde(default)]
    actions: Vec<serde_json::Value>,
}

/// A battle fed a stream of actions: every refusal leaves the battle exactly as it was, every
/// `check` equals the `apply` that follows, and the record of what was accepted replays to the
/// same battle.
pub fn action_stream(data: &[u8]) {
    let Ok(stream) = serde_json::from_slice::<Stream>(data) else {
        return;
    };
    let Ok(mut battle) = Battle::new(stream.setup) else {
        return;
    };
    let mut events = Vec::new();
    for v in stream.actions.into_iter().take(MAX_ACTIONS) {
        let Ok(action) = serde_json::from_value::<Action>(v) else {
            continue;
        };
        let checked = battle.check(&action);
        let before = battle.clone();
        match battle.apply(action) {
            Ok(ev) => {
                assert_eq!(checked.as_ref(), Ok(&ev), "check and apply disagree");
                events.extend(ev);
            }
            Err(e) => {
                assert!(battle == before, "a refusal ({e}) changed the battle");
                assert_eq!(checked, Err(e), "check and apply disagree on a refusal");
            }
        }
    }
    let (replayed, again) = Battle::replay(&battle.record()).expect("accepted actions replay");
    assert!(replayed == battle, "the replay differs from the battle");
    assert_eq!(again, events);
    state_round_trip(&battle);
}

/// The set-ups `action_bytes` plays on: the demonstration battle and an open sandbox.
fn byte_setups() -> Vec<BattleSetup> {
    let demo = dbcore::driver::demo_setup();
    let mut open = demo.clone();
    open.sandbox = true;
    open.battlefield.features.clear();
    vec![demo, open]
}

/// Reads small numbers off the input, then zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn pick<T: Clone>(&mut self, from: &[T]) -> Option<T> {
        if from.is_empty() {
            None
        } else {
            Some(from[usize::from(self.byte()) % from.len()].clone())
        }
    }
    /// A signed offset in BW, mostly small.
    fn offset(&mut self) -> f64 {
        f64::from(self.byte() as i8) / 16.0
    }
    fn die(&mut self) -> dbcore::DieScore {
        dbcore::DieScore::new(self.byte() % 6 + 1).expect("1 to 6")
    }
}

fn pick_id(b: &mut Bytes<'_>, ids: &[dbcore::battle::ElementId]) -> dbcore::battle::ElementId {
    b.pick(ids).unwrap_or(dbcore::battle::ElementId(0))
}

/// A battle fed actions built from bytes (ids of its own elements, poses near where they
/// stand, dice), which reach far deeper than mutated JSON: the same promises as
/// [`action_stream`].
pub fn action_bytes(data: &[u8]) {
    use dbcore::battle::{ContactWanted, ElementId, Flank, GroupStep, MoveOrder};
    use dbcore::geometry::Pose;
    let mut b = Bytes(data);
    let setups = byte_setups();
    let setup = b.pick(&setups).expect("two set-ups");
    let Ok(mut battle) = Battle::new(setup) else {
        return;
    };
    let mut events = Vec::new();
    let mut steps = 0;
    while !b.0.is_empty() && steps < MAX_ACTIONS {
        steps += 1;
        let ids: Vec<ElementId> = battle.elements().iter().map(|e| e.id).collect();
        let flank = |x: u8| {
            if x % 2 == 0 {
                Flank::Left
            } else {
                Flank::Right
            }
        };
        let action = match b.byte() % 10 {
            0 => Action::RollPips { die: b.die() },
            1 => Action::DiceRiver { die: b.die() },
            2 => Action::EndMovement,
            3 | 4 => {
                let who = pick_id(&mut b, &ids);
                let Some(e) = battle.element(who) else {
                    continue;
                };
                let mut pose = e.pose;
                let mut path = Vec::new();
                for _ in 0..(b.byte() % 3 + 1) {
                    pose = Pose::new(
                        pose.x + b.offset(),
                        pose.y + b.offset(),
                        pose.facing + f64::from(b.byte() as i8) * 3.0,
                    );
                    path.push(pose);
                }
                Action::Move {
                    order: MoveOrder::Element { id: who, path },
                }
            }
            5 => {
                let ids: Vec<ElementId> = (0..(b.byte() % 4 + 1))
                    .map(|_| pick_id(&mut b, &ids))
                    .collect();
                let step = if b.byte() % 2 == 0 {
                    GroupStep::Advance {
                        distance: b.offset(),
                    }
                } else {
                    GroupStep::Wheel {
                        pivot: flank(b.byte()),
                        degrees: f64::from(b.byte() as i8),
                    }
                };
                Action::Move {
                    order: MoveOrder::Group {
                        ids,
                        steps: vec![step],
                    },
                }
            }
            6 => {
                let movers: Vec<ElementId> = (0..(b.byte() % 3 + 1))
                    .map(|_| pick_id(&mut b, &ids))
                    .collect();
                let contact = match b.byte() % 4 {
                    0 => ContactWanted::Front,
                    1 => ContactWanted::Rear,
                    2 => ContactWanted::Flank(flank(b.byte())),
                    _ => ContactWanted::Overlap(flank(b.byte())),
                };
                Action::Move {
                    order: MoveOrder::IntoContact {
                        ids: movers,
                        target: pick_id(&mut b, &ids),
                        contact,
                    },
                }
            }
            7 => {
                let who = pick_id(&mut b, &ids);
                let Some(e) = battle.element(who) else {
                    continue;
                };
                let p = e.pose;
                let ahead = Pose::new(p.x + b.offset(), p.y + b.offset(), p.facing);
                let ids: Vec<ElementId> = std::iter::once(who)
                    .chain((0..(b.byte() % 3)).map(|_| pick_id(&mut b, &ids)))
                    .collect();
                Action::Move {
                    order: MoveOrder::Column {
                        ids,
                        path: vec![ahead],
                    },
                }
            }
            8 => Action::Shoot {
                shooter: pick_id(&mut b, &ids),
                target: pick_id(&mut b, &ids),
                support: (0..(b.byte() % 3)).map(|_| pick_id(&mut b, &ids)).collect(),
                dice: [b.die(), b.die()],
                shoots_back: b.byte() % 2 == 0,
                recoil_own_depth: (0..(b.byte() % 2)).map(|_| pick_id(&mut b, &ids)).collect(),
            },
            _ => Action::Fight {
                a: pick_id(&mut b, &ids),
                b: pick_id(&mut b, &ids),
                dice: [b.die(), b.die()],
                recoil_own_depth: (0..(b.byte() % 2)).map(|_| pick_id(&mut b, &ids)).collect(),
                c_in_c_bonus: Vec::new(),
            },
        };
        let checked = battle.check(&action);
        let before = battle.clone();
        match battle.apply(action) {
            Ok(ev) => {
                assert_eq!(checked.as_ref(), Ok(&ev), "check and apply disagree");
                events.extend(ev);
            }
            Err(e) => {
                assert!(battle == before, "a refusal ({e}) changed the battle");
                assert_eq!(checked, Err(e), "check and apply disagree on a refusal");
            }
        }
    }
    let (replayed, again) = Battle::replay(&battle.record()).expect("accepted actions replay");
    assert!(replayed == battle, "the replay differs from the battle");
    assert_eq!(again, events);
    state_round_trip(&battle);
}

/// The state written as JSON reads back as the same battle.
fn state_round_trip(b: &Battle) {
    let json = serde_json::to_string(b).expect("a battle writes as JSON");
    let back: Battle = serde_json::from_str(&json).expect("a written battle reads back");
    assert!(back == *b, "the state does not round-trip");
    let rec = serde_json::to_string(&b.record()).expect("a record writes as JSON");
    let back: BattleRecord = serde_json::from_str(&rec).expect("a written record reads back");
    assert_eq!(back, b.record());
}

/// Records and states: a record that replays replays again to the same battle and events, and
/// its state and record round-trip through JSON; a state read from JSON writes back the same.
pub fn round_trips(data: &[u8]) {
    if let Ok(record) = serde_json::from_slice::<BattleRecord>(data) {
        if let Ok((b, events)) = Battle::replay(&record) {
            let (again, again_events) = Battle::replay(&b.record()).expect("a replay replays");
            assert!(again == b);
            assert_eq!(again_events, events);
            state_round_trip(&b);
        }
    }
    if let Ok(state) = serde_json::from_slice::<Battle>(data) {
        let json = serde_json::to_value(&state).expect("a battle writes as JSON");
        let back: Battle = serde_json::from_value(json).expect("a written battle reads back");
        assert!(back == state);
        // A state is trusted only through its record, as the C and Python layers do.
        if let Ok((b, _)) = Battle::replay(&state.record()) {
            state_round_trip(&b);
        }
    }
}

/// A table read from JSON: every question about its elements answers without panicking, and
/// the table round-trips and draws.
pub fn table_queries(data: &[u8]) {
    let Ok(t) = serde_json::from_slice::<Table>(data) else {
        return;
    };
    let plough = t.plough_is_rough;
    let Ok(mut t) = Table::new(t.battlefield, t.elements) else {
        return;
    };
    t.plough_is_rough = plough;
    let cfg = RulesConfig::default();
    let ids: Vec<u32> = t.elements.iter().map(|e| e.id).take(MAX_ASKED).collect();
    for (i, &id) in ids.iter().enumerate() {
        let _ = t.contacts_of(id, &cfg).expect("an element on the table");
        let _ = t
            .in_close_combat(id, &cfg)
            .expect("an element on the table");
        let _ = t
            .enemy_threat_zones_on(id, &cfg)
            .expect("an element on the table");
        let _ = t
            .shooting_targets(id, &cfg)
            .expect("an element on the table");
        let _ = t.going_under(id, &cfg).expect("an element on the table");
        let other = ids[(i + 1) % ids.len()];
        let d = t.distance(id, other, &cfg).expect("elements on the table");
        assert!(d >= 0.0 || d.is_nan());
        let e = t.element(id).expect("an element on the table");
        let _ = t.going_at(dbcore::geometry::Point::new(e.pose.x, e.pose.y));
    }
    assert!(t.element(u32::MAX).is_err() || ids.contains(&u32::MAX));
    let json = serde_json::to_string(&t).expect("a table writes as JSON");
    let back: Table = serde_json::from_str(&json).expect("a written table reads back");
    assert_eq!(back, t);
    assert!(t.svg(&cfg, false).ends_with("</svg>\n") || t.svg(&cfg, false).contains("</svg>"));
    let _ = t.svg(&cfg, true);
}

fn ok_or_refused(s: dbcore_ffi::DbcoreStatus, what: &str) {
    assert!(
        !matches!(
            s,
            dbcore_ffi::DbcoreStatus::Panic | dbcore_ffi::DbcoreStatus::Internal
        ),
        "{what} gave {s:?}: {}",
        last_error()
    );
}

fn last_error() -> String {
    // SAFETY: NULL with 0 asks for the length; then a buffer of that length plus the NUL.
    let n = unsafe { dbcore_ffi::dbcore_last_error_message(ptr::null_mut(), 0) };
    let mut buf = vec![0u8; n + 1];
    // SAFETY: `buf` holds `buf.len()` bytes.
    unsafe { dbcore_ffi::dbcore_last_error_message(buf.as_mut_ptr().cast::<c_char>(), buf.len()) };
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

fn take(p: *mut c_char) {
    if !p.is_null() {
        // SAFETY: every string handed out by dbcore is valid until freed once, here.
        let _ = unsafe { CStr::from_ptr(p) };
        unsafe { dbcore_ffi::dbcore_string_free(p) };
    }
}

/// The C entry points: the first byte picks one, the rest (up to a NUL) is its text. No call
/// may report a caught panic or an internal fault, whatever it is given.
pub fn c_entry_points(data: &[u8]) {
    use dbcore_ffi::*;
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let text = CString::new(&rest[..end]).expect("no NUL before `end`");
    let p = text.as_ptr();
    // SAFETY: `p` is a NUL-terminated string and every out-parameter is a local.
    unsafe {
        match which % 8 {
            0 => {
                let mut k = DbcoreElementKind::default();
                ok_or_refused(dbcore_element_kind_parse(p, &mut k), "element_kind_parse");
                let mut out = ptr::null_mut();
                ok_or_refused(dbcore_element_kind_json(p, &mut out), "element_kind_json");
                take(out);
            }
            1 => {
                let mut t = ptr::null_mut();
                ok_or_refused(dbcore_table_new_json(p, &mut t), "table_new_json");
                if !t.is_null() {
                    ask_table(t);
                    dbcore_table_free(t);
                }
            }
            2 => {
                let mut b = ptr::null_mut();
                ok_or_refused(dbcore_battle_new_json(p, &mut b), "battle_new_json");
                if !b.is_null() {
                    ask_battle(b);
                    dbcore_battle_free(b);
                }
            }
            3 => {
                let (mut b, mut ev) = (ptr::null_mut(), ptr::null_mut());
                ok_or_refused(dbcore_battle_replay_json(p, &mut b, &mut ev), "replay_json");
                take(ev);
                if !b.is_null() {
                    ask_battle(b);
                    dbcore_battle_free(b);
                }
            }
            4 => {
                let mut b = ptr::null_mut();
                ok_or_refused(dbcore_battle_from_state_json(p, &mut b), "from_state_json");
                if !b.is_null() {
                    ask_battle(b);
                    dbcore_battle_free(b);
                }
            }
            5 => {
                let mut out = ptr::null_mut();
                ok_or_refused(dbcore_resolve_json(p, &mut out), "resolve_json");
                take(out);
                let mut out = ptr::null_mut();
                ok_or_refused(dbcore_odds_json(p, &mut out), "odds_json");
                take(out);
            }
            6 => {
                // The text as an action on the demonstration battle, before and after its PIPs.
                let mut setup = ptr::null_mut();
                ok_or_refused(dbcore_demo_setup_json(&mut setup), "demo_setup_json");
                let mut b = ptr::null_mut();
                ok_or_refused(dbcore_battle_new_json(setup, &mut b), "battle_new_json");
                take(setup);
                for _ in 0..2 {
                    act(b, p);
                    act(b, c"{\"action\":\"roll_pips\",\"die\":6}".as_ptr());
                }
                dbcore_battle_free(b);
            }
            _ => {
                let mut out = ptr::null_mut();
                ok_or_refused(dbcore_json_get(p, c"setup".as_ptr(), &mut out), "json_get");
                take(out);
                let mut n = 0u32;
                ok_or_refused(dbcore_json_array_len(p, &mut n), "json_array_len");
                let mut out = ptr::null_mut();
                ok_or_refused(dbcore_json_array_at(p, 0, &mut out), "json_array_at");
                take(out);
                let mut same = 0u32;
                ok_or_refused(dbcore_json_equal(p, p, &mut same), "json_equal");
            }
        }
    }
}

/// Check then apply one action through C: a refusal leaves the state JSON as it was, and the
/// check's events are the apply's.
///
/// # Safety
/// `b` is a live battle handle and `action` a NUL-terminated string.
unsafe fn act(b: *mut dbcore_ffi::DbcoreBattle, action: *const c_char) {
    use dbcore_ffi::*;
    let state = |b: *const DbcoreBattle| {
        let mut s = ptr::null_mut();
        // SAFETY: the caller's contract on `b`.
        ok_or_refused(unsafe { dbcore_battle_state_json(b, &mut s) }, "state_json");
        // SAFETY: a string from dbcore.
        let text = unsafe { CStr::from_ptr(s) }.to_owned();
        take(s);
        text
    };
    let before = state(b);
    let mut checked = ptr::null_mut();
    // SAFETY: the caller's contract.
    let cs = unsafe { dbcore_battle_check_json(b, action, &mut checked) };
    ok_or_refused(cs, "check_json");
    let mut applied = ptr::null_mut();
    // SAFETY: the caller's contract.
    let s = unsafe { dbcore_battle_apply_json(b, action, &mut applied) };
    ok_or_refused(s, "apply_json");
    assert_eq!(cs, s, "check and apply disagree");
    if s == DbcoreStatus::Ok {
        // SAFETY: strings from dbcore.
        let (c, a) = unsafe { (CStr::from_ptr(checked), CStr::from_ptr(applied)) };
        assert_eq!(c, a, "check and apply give different events");
    } else {
        assert_eq!(state(b), before, "a refusal changed the battle");
    }
    take(checked);
    take(applied);
}

/// Every question of a table handle, for each element.
///
/// # Safety
/// `t` is a live table handle.
unsafe fn ask_table(t: *mut dbcore_ffi::DbcoreTable) {
    use dbcore_ffi::*;
    let mut n = 0u32;
    // SAFETY (whole function): `t` is live by the caller's contract; out-parameters are locals.
    ok_or_refused(
        unsafe { dbcore_table_element_count(t, &mut n) },
        "element_count",
    );
    for i in 0..n.min(MAX_ASKED as u32) {
        let mut e = std::mem::MaybeUninit::<DbcorePlacedElement>::uninit();
        let s = unsafe { dbcore_table_element_at(t, i, e.as_mut_ptr()) };
        ok_or_refused(s, "element_at");
        if s != DbcoreStatus::Ok {
            continue;
        }
        // SAFETY: written on success.
        let e = unsafe { e.assume_init() };
        let id = e.id;
        let mut out = ptr::null_mut();
        ok_or_refused(
            unsafe { dbcore_table_contacts_json(t, id, &mut out) },
            "contacts",
        );
        take(out);
        let mut flag = 0u32;
        ok_or_refused(
            unsafe { dbcore_table_in_close_combat(t, id, &mut flag) },
            "in_cc",
        );
        ok_or_refused(
            unsafe { dbcore_table_in_enemy_threat_zone(t, id, &mut flag) },
            "in_tz",
        );
        let mut out = ptr::null_mut();
        ok_or_refused(
            unsafe { dbcore_table_threat_zones_on_json(t, id, &mut out) },
            "tz",
        );
        take(out);
        let mut out = ptr::null_mut();
        ok_or_refused(
            unsafe { dbcore_table_shooting_targets_json(t, id, &mut out) },
            "shots",
        );
        take(out);
        let mut going = 0u32;
        ok_or_refused(
            unsafe { dbcore_table_going_under(t, id, &mut going) },
            "going_under",
        );
        ok_or_refused(
            unsafe { dbcore_table_going_at(t, e.x, e.y, &mut going) },
            "going_at",
        );
        let mut d = 0.0;
        ok_or_refused(
            unsafe { dbcore_table_distance(t, id, id, &mut d) },
            "distance",
        );
    }
    for zones in [0, 1] {
        let mut svg = ptr::null_mut();
        ok_or_refused(unsafe { dbcore_table_svg(t, zones, &mut svg) }, "svg");
        take(svg);
    }
    let mut json = ptr::null_mut();
    ok_or_refused(unsafe { dbcore_table_to_json(t, &mut json) }, "to_json");
    take(json);
}

/// Every question of a battle handle.
///
/// # Safety
/// `b` is a live battle handle.
unsafe fn ask_battle(b: *mut dbcore_ffi::DbcoreBattle) {
    use dbcore_ffi::*;
    // SAFETY (whole function): `b` is live by the caller's contract; out-parameters are locals.
    for f in [
        dbcore_battle_state_json as unsafe extern "C" fn(_, _) -> _,
        dbcore_battle_record_json,
        dbcore_battle_awaiting_json,
        dbcore_battle_phase,
    ] {
        let mut out = ptr::null_mut();
        ok_or_refused(unsafe { f(b, &mut out) }, "battle question");
        take(out);
    }
    let mut n = 0u32;
    ok_or_refused(unsafe { dbcore_battle_pips(b, &mut n) }, "pips");
    ok_or_refused(unsafe { dbcore_battle_bound(b, &mut n) }, "bound");
    ok_or_refused(
        unsafe { dbcore_battle_active_army(b, &mut n) },
        "active_army",
    );
    let mut t = ptr::null_mut();
    ok_or_refused(unsafe { dbcore_battle_table(b, &mut t) }, "battle_table");
    if !t.is_null() {
        unsafe { ask_table(t) };
        unsafe { dbcore_table_free(t) };
    }
}

/// The first byte and the text after it up to a NUL: how the C targets read their input.
fn selector_and_text(data: &[u8]) -> Option<(u8, CString)> {
    let (&which, rest) = data.split_first()?;
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    Some((
        which,
        CString::new(&rest[..end]).expect("no NUL before `end`"),
    ))
}

/// Call a C function of one text argument and one JSON out-parameter: a refusal, or text that
/// is JSON, freed here. Gives the status and the text (if any).
///
/// # Safety
/// `f` is one of dbcore's `(const char *, char **) -> DbcoreStatus` functions.
unsafe fn json_call(
    f: unsafe extern "C" fn(*const c_char, *mut *mut c_char) -> dbcore_ffi::DbcoreStatus,
    input: &CStr,
    what: &str,
) -> (dbcore_ffi::DbcoreStatus, Option<String>) {
    let mut out = ptr::null_mut();
    // SAFETY: `input` is NUL-terminated and `out` a local.
    let s = unsafe { f(input.as_ptr(), &mut out) };
    ok_or_refused(s, what);
    let text = (!out.is_null()).then(|| {
        // SAFETY: a string from dbcore, valid until freed.
        let t = unsafe { CStr::from_ptr(out) }
            .to_string_lossy()
            .into_owned();
        assert!(
            serde_json::from_str::<serde_json::Value>(&t).is_ok(),
            "{what} wrote text that is not JSON"
        );
        t
    });
    take(out);
    (s, text)
}

/// Most battles, bounds and threads a fuzzed simulation request may ask for, so that one input
/// stays quick (the counts themselves are checked by dbcore's limits, fuzzed as given first).
const SIM_BATTLES: u64 = 2;
const SIM_BOUNDS: u64 = 3;

/// The batch simulation from C, `dbcore_simulate_json` and the `DbcoreSimulation` handle: any
/// request is refused or played; a playable request gives the same records both ways, cancelled
/// or not; no call panics. The first byte picks cancelling the handle at once.
pub fn simulate_json(data: &[u8]) {
    use dbcore_ffi::*;
    let Some((which, text)) = selector_and_text(data) else {
        return;
    };
    // A request with huge counts is refused by the limits without playing: try it as given
    // only when it would be refused or small.
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(text.as_bytes()) else {
        // Not JSON: both doors refuse it alike.
        // SAFETY: a dbcore function of the right shape.
        let (s, out) = unsafe { json_call(dbcore_simulate_json, &text, "simulate_json") };
        assert!(s != DbcoreStatus::Ok && out.is_none());
        let mut h = ptr::null_mut();
        // SAFETY: `text` is NUL-terminated and `h` a local.
        let s2 = unsafe { dbcore_simulation_start(text.as_ptr(), &mut h) };
        assert_eq!(s, s2, "the two doors refuse differently");
        assert!(h.is_null());
        return;
    };
    if let Some(o) = v.as_object_mut() {
        for (key, most) in [
            ("battles", SIM_BATTLES),
            ("max_bounds", SIM_BOUNDS),
            ("threads", 2),
        ] {
            if let Some(n) = o.get(key).and_then(serde_json::Value::as_u64) {
                o.insert(key.into(), (n % (most + 1)).into());
            }
        }
        if o.get("battles").is_some_and(|b| !b.is_u64()) {
            o.insert("battles".into(), 1.into());
        }
        o.entry("max_bounds").or_insert(SIM_BOUNDS.into());
        // A fuzzed set-up or army list plays its battles: keep each short.
        if o.get("max_bounds").is_some_and(|b| !b.is_u64()) {
            o.insert("max_bounds".into(), SIM_BOUNDS.into());
        }
    }
    let request = CString::new(v.to_string()).expect("JSON text has no NUL");
    // SAFETY: a dbcore function of the right shape.
    let (s, direct) = unsafe { json_call(dbcore_simulate_json, &request, "simulate_json") };
    let mut h = ptr::null_mut();
    // SAFETY: `request` is NUL-terminated and `h` a local.
    let s2 = unsafe { dbcore_simulation_start(request.as_ptr(), &mut h) };
    ok_or_refused(s2, "simulation_start");
    assert_eq!(s, s2, "the two doors refuse differently");
    if h.is_null() {
        assert!(direct.is_none());
        return;
    }
    let cancel = which % 2 == 1;
    // SAFETY: `h` is a live handle; out-parameters are locals.
    unsafe {
        if cancel {
            ok_or_refused(dbcore_simulation_cancel(h), "simulation_cancel");
        }
        let (mut done, mut total, mut finished) = (0u64, 0u64, 0u32);
        ok_or_refused(
            dbcore_simulation_progress(h, &mut done, &mut total, &mut finished),
            "simulation_progress",
        );
        assert!(done <= total && finished <= 1);
        let mut out = ptr::null_mut();
        let w = dbcore_simulation_wait(h, &mut out);
        ok_or_refused(w, "simulation_wait");
        if w == DbcoreStatus::Ok {
            let got = CStr::from_ptr(out).to_string_lossy().into_owned();
            let got: serde_json::Value = serde_json::from_str(&got).expect("wait gives JSON");
            let want: serde_json::Value =
                serde_json::from_str(direct.as_deref().expect("the direct call played")).unwrap();
            if cancel {
                // Cancelled before or while playing: a part of the same records.
                let (g, w) = (&got["records"], &want["records"]);
                let g = g.as_array().expect("records");
                assert!(g.iter().all(|r| w.as_array().unwrap().contains(r)));
            } else {
                assert_eq!(got, want, "the handle and the direct call differ");
            }
        }
        take(out);
        dbcore_simulation_free(h);
    }
}

/// Most decisions one input asks of the opponent.
const AI_STEPS: usize = 12;

/// The opponent from C: on the demonstration battle (first byte even) or on a set-up read from
/// the input, `dbcore_ai_choose_json` with a budget, seed and dice from the input's bytes. Every
/// action it gives is accepted by `dbcore_battle_apply_json` (it never submits a refused
/// action); bad dice are refused; nothing panics.
pub fn ai_choose(data: &[u8]) {
    use dbcore_ffi::*;
    let Some((which, text)) = selector_and_text(data) else {
        return;
    };
    let bytes = text.as_bytes();
    let byte = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let mut b = ptr::null_mut();
    // SAFETY: NUL-terminated strings and local out-parameters throughout.
    unsafe {
        if which % 2 == 0 {
            let mut setup = ptr::null_mut();
            ok_or_refused(dbcore_demo_setup_json(&mut setup), "demo_setup_json");
            ok_or_refused(dbcore_battle_new_json(setup, &mut b), "battle_new_json");
            take(setup);
        } else {
            ok_or_refused(
                dbcore_battle_new_json(text.as_ptr(), &mut b),
                "battle_new_json",
            );
        }
        if b.is_null() {
            return;
        }
        let nodes = u32::from(which >> 1) % 24;
        let seed = u64::from_le_bytes(std::array::from_fn(byte));
        for step in 0..AI_STEPS {
            // Dice from the input (scores above 6 are refused as dice), or 0 0: drawn.
            let (da, db) = (byte(8 + 2 * step) % 8, byte(9 + 2 * step) % 8);
            let mut action = ptr::null_mut();
            let s = dbcore_ai_choose_json(b, nodes, seed, da, db, &mut action);
            ok_or_refused(s, "ai_choose_json");
            let dice_ok = (da == 0 && db == 0) || ((1..=6).contains(&da) && (1..=6).contains(&db));
            if !dice_ok {
                assert!(s != DbcoreStatus::Ok, "bad dice accepted");
                continue;
            }
            if s != DbcoreStatus::Ok {
                assert!(action.is_null());
                break;
            }
            let mut events = ptr::null_mut();
            let applied = dbcore_battle_apply_json(b, action, &mut events);
            assert_eq!(
                applied,
                DbcoreStatus::Ok,
                "the opponent's action was refused: {}",
                last_error()
            );
            take(events);
            take(action);
        }
        dbcore_battle_free(b);
    }
}

/// The demonstration battle after the first `n` actions of the demonstration driver, as a
/// compact state value (a few positions of one game, built once per process).
fn driven_states() -> &'static [serde_json::Value] {
    static STATES: std::sync::OnceLock<Vec<serde_json::Value>> = std::sync::OnceLock::new();
    STATES.get_or_init(|| {
        let record = dbcore::driver::play(dbcore::driver::demo_setup(), 7, 40)
            .expect("the demonstration set-up is valid")
            .record;
        let mut b = Battle::new(record.setup).expect("valid");
        let mut out = vec![b.state_value()];
        for (i, a) in record.actions.into_iter().enumerate() {
            b.apply(a).expect("the driver's action applies");
            if i % 16 == 15 {
                out.push(b.state_value());
            }
        }
        out
    })
}

/// Every leaf of `v` (a number, string, bool or null), by its path of keys and indices.
fn leaves(
    v: &serde_json::Value,
    path: &mut Vec<serde_json::Value>,
    out: &mut Vec<Vec<serde_json::Value>>,
) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                path.push(serde_json::Value::from(k.as_str()));
                leaves(x, path, out);
                path.pop();
            }
        }
        serde_json::Value::Array(a) => {
            if a.is_empty() {
                out.push(path.clone());
            }
            for (i, x) in a.iter().enumerate() {
                path.push(serde_json::Value::from(i));
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

/// The value at `path` in `v`, to change in place.
fn at_path<'v>(
    v: &'v mut serde_json::Value,
    path: &[serde_json::Value],
) -> &'v mut serde_json::Value {
    path.iter().fold(v, |node, step| match step {
        serde_json::Value::String(k) => &mut node[k.as_str()],
        serde_json::Value::Number(i) => &mut node[i.as_u64().unwrap_or(0) as usize],
        _ => node,
    })
}

/// A compact state forged as an attacker forges one (issue #44): a position of a real game,
/// edited by the input (numbers changed to any value, ids to another element's, entries of a
/// list dropped or copied), then resealed with the public digest. Reading it is refused with
/// an argument error, or the battle plays on: its legal actions are asked and applied, each one
/// accepted. Never a panic, and never a hang (the fuzzer's timeout catches one).
pub fn forged_states(data: &[u8]) {
    let states = driven_states();
    let mut b = Bytes(data);
    let mut state = states[usize::from(b.byte()) % states.len()].clone();
    if let Some(obj) = state.as_object_mut() {
        obj.shift_remove("digest");
    }
    let edits = 1 + usize::from(b.byte() % 6);
    for _ in 0..edits {
        let mut paths = Vec::new();
        leaves(&state, &mut Vec::new(), &mut paths);
        if paths.is_empty() {
            break;
        }
        let pick = (usize::from(b.byte()) << 8 | usize::from(b.byte())) % paths.len();
        let path = paths.swap_remove(pick);
        match b.byte() % 8 {
            // Drop the list entry, or the key, holding the leaf.
            0 | 1 => {
                if let Some((last, parent)) = path.split_last() {
                    match (at_path(&mut state, parent), last) {
                        (serde_json::Value::Array(a), serde_json::Value::Number(i)) => {
                            let i = i.as_u64().unwrap_or(0) as usize;
                            if i < a.len() {
                                a.remove(i);
                            }
                        }
                        (serde_json::Value::Object(m), serde_json::Value::String(k)) => {
                            m.shift_remove(k.as_str());
                        }
                        _ => {}
                    }
                }
            }
            // Copy the list entry holding the leaf (a second element, combat, command...).
            2 => {
                if let Some((serde_json::Value::Number(i), parent)) = path.split_last() {
                    if let serde_json::Value::Array(a) = at_path(&mut state, parent) {
                        let i = i.as_u64().unwrap_or(0) as usize;
                        if i < a.len() && a.len() < 4096 {
                            let copy = a[i].clone();
                            a.insert(i, copy);
                        }
                    }
                }
            }
            // A number from the input: small, negative, huge or fractional.
            3..=5 => {
                let n = match b.byte() % 5 {
                    0 => serde_json::json!(b.byte()),
                    1 => serde_json::json!(-i64::from(b.byte())),
                    2 => serde_json::json!(u64::MAX - u64::from(b.byte())),
                    3 => serde_json::json!(f64::from(b.byte()) / 7.0 - 10.0),
                    _ => serde_json::json!(100 + u32::from(b.byte())),
                };
                *at_path(&mut state, &path) = n;
            }
            // Another leaf's value in this one's place (an id for another, a pose for a pose).
            _ => {
                let mut all = Vec::new();
                leaves(&state, &mut Vec::new(), &mut all);
                let from = all[usize::from(b.byte()) % all.len()].clone();
                let value = at_path(&mut state, &from).clone();
                *at_path(&mut state, &path) = value;
            }
        }
    }
    let body = serde_json::to_string(&state).expect("a value writes");
    let Some(open) = body.strip_suffix('}') else {
        return;
    };
    let mut h = dbcore::battle::saved::StateHasher::default();
    h.update(body.as_bytes());
    let text = format!("{open},\"digest\":\"{}\"}}", h.finish_hex());
    let Ok(mut battle) = Battle::from_state_json(&text) else {
        return;
    };
    for _ in 0..8 {
        let dice: Vec<dbcore::DieScore> = (0..6).map(|_| b.die()).collect();
        let legal = battle.legal_actions(&dice);
        let Some(action) = b.pick(&legal) else {
            break;
        };
        if let Err(e) = battle.apply(action.clone()) {
            panic!("a listed action of an accepted forged state is refused: {action:?}: {e}");
        }
    }
}
