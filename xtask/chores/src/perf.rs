//! `cargo run --release -p xtask -- perf [--callgrind]`: the speed table of issue #15.
//!
//! Every row is one operation of the referee. Times are the minimum over interleaved rounds (each
//! round runs every row once, so a slow moment of the machine hurts all rows alike and the minimum
//! is the run least disturbed). With `--callgrind` each row is also counted in instructions by
//! running this program under `valgrind --tool=callgrind` twice (a few repetitions and many) and
//! dividing the difference, so the set-up of the row cancels out. Instruction counts are
//! noise-free; times depend on the machine and its load.
//!
//! Speed lives here and in the criterion benches, never in test assertions.

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use dbcore::battle::ValidatedSetup;
use dbcore::battle::{Action, Battle, BattleRecord, DiceRequest, Phase};
use dbcore::battlefield::Variant;
use dbcore::combat::{resolve, resolve_brief, Combatant, Situation};
use dbcore::contact::scan_contacts;
use dbcore::driver::{big_battle_setup, demo_setup, play, play_validated};
use dbcore::geometry::{ElementRect, Pose};
use dbcore::{DieScore, RulesConfig};

/// The seed of the recorded battle the rows replay, clone and serialise.
const SEED: u64 = 1;
/// Bound limit of every driven battle.
const MAX_BOUNDS: u32 = 40;
/// The two army lists of the `game_from_lists` row: `dbcore simulate`'s example in the README.
const LISTS: (&str, &str) = ("II/56", "II/5a");
/// The two army lists of the `game_from_lists_shooting` row: Early Egyptian against Early Bedouin,
/// bowmen on both sides, where shooting is most of a battle.
const SHOOTING_LISTS: (&str, &str) = ("I/2a", "I/6a");
/// Bound limit of the driven Big Battle and Giant rows (three commands a side, §14).
const MAX_COMMAND_BOUNDS: u32 = 200;
/// Battles (consecutive seeds) of one `driven_battle_many` operation.
const MANY_SEEDS: u64 = 40;
/// Most actions of one `rollout` operation (a random battle may wander long before it ends).
const ROLLOUT_ACTIONS: usize = 3_000;
/// First seed of the `driven_battle_many` row, clear of the seeds `driven_battle` plays.
const MANY_FIRST_SEED: u64 = 1_000;

/// What a row measures, with the target.
struct Row {
    name: &'static str,
    /// Target time per operation, in nanoseconds, when the issue gives one.
    target_ns: Option<f64>,
    /// Target instructions per operation, when the issue gives one.
    target_instr: Option<f64>,
}

const ROWS: [Row; 26] = [
    Row {
        name: "driven_battle",
        target_ns: Some(1_000_000.0),
        target_instr: None,
    },
    // The average over many seeds (#15): one operation is `MANY_SEEDS` consecutive battles,
    // so a few lucky seeds cannot make the row look faster than a Monte Carlo study is.
    Row {
        name: "driven_battle_many",
        target_ns: Some(MANY_SEEDS as f64 * 1_000_000.0),
        target_instr: None,
    },
    // A rollout (#47): the demonstration battle played by random choices from the engine's
    // own list (`Battle::legal_actions_checked`, committed by `apply_checked`), the dice and the
    // choices from one seeded generator, to its end or `ROLLOUT_ACTIONS`.
    Row {
        name: "rollout",
        target_ns: None,
        target_instr: Some(2_500_000.0),
    },
    Row {
        name: "replay",
        target_ns: Some(500_000.0),
        target_instr: None,
    },
    Row {
        name: "replay_validated",
        target_ns: Some(500_000.0),
        target_instr: None,
    },
    Row {
        name: "resolve",
        target_ns: None,
        target_instr: Some(250.0),
    },
    // The same combat without the itemised factors (`resolve_brief`): the Rust call under
    // `dbcore_resolve_compact`.
    Row {
        name: "resolve_brief",
        target_ns: None,
        target_instr: None,
    },
    // The same combat through the C ABI (struct in, struct out); the ratio to `resolve` is
    // printed after the table (target: at most 1.2).
    Row {
        name: "ffi_resolve",
        target_ns: None,
        target_instr: None,
    },
    // The same combat through the compact C entry point (no factor lists, rule texts pointed to).
    Row {
        name: "ffi_resolve_compact",
        target_ns: None,
        target_instr: None,
    },
    // What the issue means by a combat derived from the table: the engine's situation of a
    // pair in contact, read from the state (its per-state memo reused), and its resolution.
    Row {
        name: "table_combat",
        target_ns: Some(250.0),
        target_instr: None,
    },
    // The whole checked transition of a Fight (turn to face, resolve, outcome moves, events).
    Row {
        name: "fight_check",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "contact_scan_24",
        target_ns: Some(3_000.0),
        target_instr: None,
    },
    Row {
        name: "clone_end",
        target_ns: Some(500.0),
        target_instr: None,
    },
    // The state JSON target (<= 25 us for the round trip and for `from_state_json`) is
    // the compact state's: the spelling #15 asked for ("a compact state JSON, and a digest check
    // instead of a replay"), and the one every layer writes (`Battle::state_json`, the C ABI,
    // Python's `to_json` and pickles, the protocol's export). The full spelling below is the
    // serde form of a `Battle` that earlier versions saved; it is still read, and checked by
    // replaying its record, so its rows are kept to watch, without that target.
    Row {
        name: "state_json_round_trip",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "compact_state_round_trip",
        target_ns: Some(25_000.0),
        target_instr: None,
    },
    Row {
        name: "from_state_json_compact",
        target_ns: Some(25_000.0),
        target_instr: None,
    },
    Row {
        name: "from_state_json_full",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "clone_largest",
        target_ns: Some(500.0),
        target_instr: None,
    },
    // What `dbcore simulate` plays (#15): a whole game from two army lists, the pre-battle
    // (terrain placed, camps, deployment) and the battle, as a Monte Carlo study plays it.
    Row {
        name: "game_from_lists",
        target_ns: None,
        target_instr: None,
    },
    // The same with shooting armies: every shot the driver tries asks for each shooter's
    // targets.
    Row {
        name: "game_from_lists_shooting",
        target_ns: None,
        target_instr: None,
    },
    // The cost of size (#13): 36 elements a side against the standard game's 12.
    Row {
        name: "driven_big_battle",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "driven_giant",
        target_ns: None,
        target_instr: None,
    },
    // The cost of size per action (#15): the same battle shape with 12, 24, 48 and 96 elements
    // a side, a few bounds each; the table after the rows gives the ratio per doubling.
    Row {
        name: "per_action_12",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "per_action_24",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "per_action_48",
        target_ns: None,
        target_instr: None,
    },
    Row {
        name: "per_action_96",
        target_ns: None,
        target_instr: None,
    },
];

/// Elements a side of the `per_action_*` rows, in row order.
const SIZES: [usize; 4] = [12, 24, 48, 96];
/// Bounds of each `per_action_*` battle: enough to move, shoot and fight, few enough that the
/// largest table stays quick.
const SIZE_BOUNDS: u32 = 8;

/// What a row is, in words, for the printed table.
fn describe(name: &str) -> &'static str {
    match name {
        "driven_battle" => "whole battle by the driver (set-up validated once)",
        "driven_battle_many" => "40 driven battles, consecutive seeds (one op = 40)",
        "rollout" => "random legal actions rollout (legal_actions_checked)",
        "replay" => "replay of a recorded battle (Battle::replay)",
        "replay_validated" => "the same from its validated set-up (replay_validated)",
        "resolve" => "resolve of one combat, inputs given",
        "resolve_brief" => "the same without factor lists (resolve_brief)",
        "ffi_resolve" => "the same resolve through the C ABI (dbcore_resolve)",
        "ffi_resolve_compact" => "the same resolve through dbcore_resolve_compact",
        "table_combat" => "combat derived from the table (situation + resolve)",
        "fight_check" => "check of a Fight action (the whole transition)",
        "contact_scan_24" => "contact scan of 24 elements",
        "clone_end" => "clone of a battle (its final state)",
        "state_json_round_trip" => "old full spelling JSON round trip (serde only)",
        "compact_state_round_trip" => "compact state JSON round trip (digest checked)",
        "from_state_json_compact" => "from_state_json of the compact state",
        "from_state_json_full" => "from_state_json of the old full spelling (replays)",
        "clone_largest" => "clone of the largest state of the battle",
        "game_from_lists" => "whole game from lists II/56 v II/5a, with pre-battle",
        "game_from_lists_shooting" => "whole game from lists I/2a v I/6a (bowmen), the same",
        "driven_big_battle" => "whole Big Battle (3 commands, 36 elements a side)",
        "driven_giant" => "whole Giant battle (3 generals, 36 a side, 45 BW)",
        "per_action_12" => "8 bounds, 12 a side (one battle; per action below)",
        "per_action_24" => "8 bounds, 24 a side (one battle; per action below)",
        "per_action_48" => "8 bounds, 48 a side (one battle; per action below)",
        "per_action_96" => "8 bounds, 96 a side (one battle; per action below)",
        _ => "?",
    }
}

/// Everything the rows work on, built once.
struct Fixture {
    /// The demonstration set-up, validated once as a Monte Carlo study would.
    setup: ValidatedSetup,
    big_battle: dbcore::battle::BattleSetup,
    giant: dbcore::battle::BattleSetup,
    record: BattleRecord,
    end: Battle,
    /// The compact and the full state JSON of `end`.
    compact: String,
    full: String,
    /// The state of the recorded battle whose clone allocates the most bytes, with those bytes
    /// and blocks.
    largest: (Battle, usize, usize),
    /// A battle waiting for the dice of a close combat, and the Fight that would resolve it.
    fight: (Battle, Action),
    situation: Situation,
    /// `situation` as a C caller fills it in.
    c_situation: dbcore_ffi::DbcoreSituation,
    cfg: RulesConfig,
    table: Vec<(u32, u8, ElementRect)>,
    /// The `per_action_*` set-ups, validated, and the actions each battle of them takes.
    sized: Vec<(ValidatedSetup, usize)>,
}

/// A standard battle with `n` elements a side on a board wide enough for them: each army in
/// ranks of at most 24 elements side by side, 6 BW between the two front ranks, and one small
/// wood in the south-west corner (§3.7 wants a feature), clear of both armies.
fn sized_setup(n: usize) -> dbcore::battle::BattleSetup {
    use dbcore::battle::{ArmySetup, BattleSetup, ElementId, ElementSetup};
    use dbcore::battlefield::{Battlefield, Board, BoardEdge};
    let per_rank = n.min(24);
    let ranks = n.div_ceil(per_rank);
    let width = per_rank as f64 + 7.0;
    let depth = 2.0 * (2.0 + ranks as f64) + 6.0;
    let army = |south: bool| {
        let kinds: [&str; 5] = if south {
            ["4Bd", "4Bd", "4Ax", "Ps", "Cv"]
        } else {
            ["3Wb", "3Wb", "3Wb", "Ps", "LCh"]
        };
        let elements = (0..n)
            .map(|i| {
                let (rank, file) = (i / per_rank, i % per_rank);
                let x = 4.0 + file as f64;
                let back = 2.0 + ranks as f64 - rank as f64;
                let (y, facing) = if south {
                    (back, 0.0)
                } else {
                    (depth - back, 180.0)
                };
                ElementSetup {
                    id: ElementId(if south { 1 } else { 1001 } + i as u32),
                    kind: kinds[i % kinds.len()].parse().expect("valid codes"),
                    pose: Pose::new(x, y, facing),
                    general: i == per_rank / 2,
                    contingent: None,
                    dismounts_as: None,
                    mobile_tower: false,
                }
            })
            .collect();
        let edge = if south {
            BoardEdge::South
        } else {
            BoardEdge::North
        };
        ArmySetup::new(if south { "South" } else { "North" }, edge, elements)
    };
    let mut battlefield = Battlefield::new(Board { width, depth });
    battlefield
        .features
        .push(dbcore::terrain::TerrainFeature::Area(
            dbcore::terrain::AreaFeature::ellipse(
                dbcore::terrain::AreaKind::Wood,
                dbcore::geometry::Point::new(1.9, 1.9),
                0.8,
                0.8,
                0.0,
                20,
            ),
        ));
    // Armies of n elements, whatever n (§2.5's 12 is a scenario's choice here).
    BattleSetup {
        free_army_size: true,
        ..BattleSetup::new(
            Variant::Standard,
            battlefield,
            vec![army(true), army(false)],
        )
    }
}

impl Fixture {
    fn new() -> Result<Fixture, String> {
        let setup = demo_setup();
        let driven = play(setup.clone(), SEED, MAX_BOUNDS).map_err(|e| format!("{e:?}"))?;
        let (end, _) = Battle::replay(&driven.record).map_err(|e| format!("{e:?}"))?;
        let fight = first_fight(&driven.record)?;
        let largest = largest_clone(&driven.record)?;
        Ok(Fixture {
            compact: end.state_json(),
            full: serde_json::to_string(&end).map_err(|e| e.to_string())?,
            largest,
            setup: ValidatedSetup::new(setup).map_err(|e| format!("{e:?}"))?,
            big_battle: big_battle_setup(Variant::BigBattle),
            giant: big_battle_setup(Variant::Giant),
            record: driven.record,
            end,
            fight,
            situation: Situation::close_combat(
                Combatant::new("4Bd".parse().map_err(|e| format!("{e:?}"))?)
                    .general()
                    .uphill(),
                Combatant::new("3Kn".parse().map_err(|e| format!("{e:?}"))?).flanked(1),
            ),
            c_situation: c_situation()?,
            cfg: RulesConfig::default(),
            table: battle_table(),
            sized: SIZES
                .iter()
                .map(|&n| {
                    let setup =
                        ValidatedSetup::new(sized_setup(n)).map_err(|e| format!("{e:?}"))?;
                    let actions = play_validated(&setup, SEED, SIZE_BOUNDS)
                        .map_err(|e| format!("{e:?}"))?
                        .record
                        .actions
                        .len();
                    Ok((setup, actions.max(1)))
                })
                .collect::<Result<_, String>>()?,
        })
    }

    /// Run row `name` `n` times.
    fn run(&self, name: &str, n: u64) {
        let dice = [DieScore::new(4).expect("4"), DieScore::new(3).expect("3")];
        // The row is chosen once, and its operation repeated `n` times: matching the name for
        // every operation counted a string compare or two with each (#15, about 30
        // instructions, a twentieth of a `resolve`).
        macro_rules! each {
            (|$i:ident| $body:block) => {
                for $i in 0..n {
                    let _ = $i;
                    $body
                }
            };
        }
        match name {
            "driven_battle" => each!(|i| {
                black_box(play_validated(black_box(&self.setup), SEED + i, MAX_BOUNDS).ok());
            }),
            "driven_battle_many" => each!(|i| {
                // The same seeds every time, so that instruction counts compare.
                for seed in MANY_FIRST_SEED..MANY_FIRST_SEED + MANY_SEEDS {
                    black_box(play_validated(black_box(&self.setup), seed, MAX_BOUNDS).ok());
                }
            }),
            "rollout" => each!(|i| {
                // The same seed every time, so that instruction counts compare.
                black_box(rollout(black_box(&self.setup), SEED));
            }),
            "replay" => each!(|i| {
                black_box(Battle::replay(black_box(&self.record)).ok());
            }),
            "replay_validated" => each!(|i| {
                let actions = black_box(&self.record.actions);
                black_box(Battle::replay_validated(black_box(&self.setup), actions).ok());
            }),
            "game_from_lists" => each!(|i| {
                let game = dbcore::driver::play_lists(LISTS.0, LISTS.1, SEED + i, MAX_BOUNDS);
                black_box(game.ok());
            }),
            "game_from_lists_shooting" => each!(|i| {
                let game = dbcore::driver::play_lists(
                    SHOOTING_LISTS.0,
                    SHOOTING_LISTS.1,
                    SEED + i,
                    MAX_BOUNDS,
                );
                black_box(game.ok());
            }),
            "driven_big_battle" => each!(|i| {
                let s = black_box(self.big_battle.clone());
                black_box(play(s, SEED + i, MAX_COMMAND_BOUNDS).ok());
            }),
            "driven_giant" => each!(|i| {
                let s = black_box(self.giant.clone());
                black_box(play(s, SEED + i, MAX_COMMAND_BOUNDS).ok());
            }),
            "resolve" => each!(|i| {
                let r = resolve(black_box(&self.situation), black_box(dice), &self.cfg);
                black_box(&r);
            }),
            "resolve_brief" => each!(|i| {
                let r = resolve_brief(black_box(&self.situation), black_box(dice), &self.cfg);
                black_box(&r);
            }),
            "ffi_resolve" => each!(|i| {
                let mut out = std::mem::MaybeUninit::<dbcore_ffi::DbcoreCombatResult>::uninit();
                // SAFETY: the situation is a valid struct and `out` is writable.
                let status = unsafe {
                    dbcore_ffi::dbcore_resolve(
                        black_box(&self.c_situation),
                        black_box(4),
                        black_box(3),
                        out.as_mut_ptr(),
                    )
                };
                black_box((status, &out));
            }),
            "ffi_resolve_compact" => each!(|i| {
                let mut out = std::mem::MaybeUninit::<dbcore_ffi::DbcoreCompactResult>::uninit();
                // SAFETY: the situation is a valid struct and `out` is writable.
                let status = unsafe {
                    dbcore_ffi::dbcore_resolve_compact(
                        black_box(&self.c_situation),
                        black_box(4),
                        black_box(3),
                        out.as_mut_ptr(),
                    )
                };
                black_box((status, &out));
            }),
            "table_combat" => each!(|i| {
                if let Action::Fight { a, b, dice, .. } = &self.fight.1 {
                    let battle = black_box(&self.fight.0);
                    let s = battle.combat_situation(*a, *b).ok();
                    let r = s.map(|s| resolve(&s, *dice, &battle.setup().config));
                    black_box(&r);
                }
            }),
            "fight_check" => each!(|i| {
                black_box(self.fight.0.check(black_box(&self.fight.1)).ok());
            }),
            "per_action_12" | "per_action_24" | "per_action_48" | "per_action_96" => each!(|i| {
                let k = SIZES
                    .iter()
                    .position(|&n| name.ends_with(&format!("_{n}")))
                    .unwrap_or(0);
                // The same seed every time, so that every run takes the counted actions.
                black_box(play_validated(black_box(&self.sized[k].0), SEED, SIZE_BOUNDS).ok());
            }),
            "contact_scan_24" => each!(|i| {
                black_box(scan_contacts(black_box(&self.table)));
            }),
            "clone_end" => each!(|i| {
                black_box(black_box(&self.end).clone());
            }),
            "state_json_round_trip" => each!(|i| {
                let text = serde_json::to_string(black_box(&self.end)).expect("serialises");
                black_box(serde_json::from_str::<Battle>(&text).ok());
            }),
            "compact_state_round_trip" => each!(|i| {
                let text = black_box(&self.end).state_json();
                black_box(Battle::from_state_json(&text).ok());
            }),
            "from_state_json_compact" => each!(|i| {
                black_box(Battle::from_state_json(black_box(&self.compact)).ok());
            }),
            "from_state_json_full" => each!(|i| {
                black_box(Battle::from_state_json(black_box(&self.full)).ok());
            }),
            "clone_largest" => each!(|i| {
                black_box(black_box(&self.largest.0).clone());
            }),
            _ => {}
        }
    }
}

/// The `rollout` row's generator: a 64-bit LCG, a number below `n` from its high bits.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// One random battle from `setup`: each decision throws two dice (and one a command, for the
/// variants that roll per command) and takes one of `legal_actions_checked` at random. The
/// actions played.
fn rollout(setup: &ValidatedSetup, seed: u64) -> usize {
    let Ok((mut b, _)) = Battle::replay_validated(setup, &[]) else {
        return 0;
    };
    let mut lcg = Lcg(seed);
    let mut played = 0;
    while played < ROLLOUT_ACTIONS && !matches!(b.phase(), Phase::Finished { .. }) {
        let dice: Vec<DieScore> = (0..4)
            .filter_map(|_| DieScore::new(1 + lcg.below(6) as u8).ok())
            .collect();
        let mut listed = b.legal_actions_checked(&dice);
        if listed.is_empty() {
            break;
        }
        let pick = listed.swap_remove(lcg.below(listed.len()));
        if b.apply_checked(pick).is_err() {
            break;
        }
        played += 1;
    }
    played
}

/// The `resolve` row's situation (4Bd general uphill against 3Kn flanked once) as a C caller
/// fills in a `DbcoreSituation`.
fn c_situation() -> Result<dbcore_ffi::DbcoreSituation, String> {
    let kind = |code: &std::ffi::CStr| {
        let mut k = dbcore_ffi::DbcoreElementKind::default();
        // SAFETY: a NUL-terminated code and a writable kind.
        let status = unsafe { dbcore_ffi::dbcore_element_kind_parse(code.as_ptr(), &mut k) };
        if status == dbcore_ffi::DbcoreStatus::Ok {
            Ok(k)
        } else {
            Err(format!("dbcore_element_kind_parse({code:?}): {status:?}"))
        }
    };
    let mut s = dbcore_ffi::DbcoreSituation::default();
    s.a.kind = kind(c"4Bd")?;
    s.a.general = 1;
    s.a.uphill = 1;
    s.b.kind = kind(c"3Kn")?;
    s.b.flank_rear_contacts = 1;
    Ok(s)
}

/// Counts the heap bytes and blocks allocated on this thread's behalf, for the clone row.
struct Counting;

static ALLOCATED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static BLOCKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counters are added.
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        BLOCKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new, std::sync::atomic::Ordering::Relaxed);
        BLOCKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { std::alloc::System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Heap bytes and blocks one clone of `b` allocates, plus the battle itself.
fn clone_size(b: &Battle) -> (usize, usize) {
    use std::sync::atomic::Ordering::Relaxed;
    let (bytes, blocks) = (ALLOCATED.load(Relaxed), BLOCKS.load(Relaxed));
    let c = black_box(b.clone());
    let size = (
        ALLOCATED.load(Relaxed) - bytes + std::mem::size_of::<Battle>(),
        BLOCKS.load(Relaxed) - blocks,
    );
    drop(c);
    size
}

/// Of every state of the recorded battle (after each action), the one whose clone allocates
/// the most, with its bytes and blocks.
fn largest_clone(record: &BattleRecord) -> Result<(Battle, usize, usize), String> {
    let mut b = Battle::new(record.setup.clone()).map_err(|e| format!("{e:?}"))?;
    let (bytes, blocks) = clone_size(&b);
    let mut best = (b.clone(), bytes, blocks);
    for a in &record.actions {
        b.apply(a.clone()).map_err(|e| format!("{e:?}"))?;
        let (bytes, blocks) = clone_size(&b);
        if bytes > best.1 {
            best = (b.clone(), bytes, blocks);
        }
    }
    Ok(best)
}

/// The recorded battle replayed up to its first close combat awaiting dice, and a Fight of it.
fn first_fight(record: &BattleRecord) -> Result<(Battle, Action), String> {
    let mut b = Battle::new(record.setup.clone()).map_err(|e| format!("{e:?}"))?;
    for a in &record.actions {
        if b.phase() == Phase::CloseCombat {
            if let Some(DiceRequest::Combat { pairs }) = b.awaiting() {
                if let Some(&(x, y)) = pairs.first() {
                    let action = Action::Fight {
                        a: x,
                        b: y,
                        dice: [DieScore::new(4).expect("4"), DieScore::new(3).expect("3")],
                        recoil_own_depth: Vec::new(),
                        c_in_c_bonus: Vec::new(),
                    };
                    if b.check(&action).is_ok() {
                        return Ok((b, action));
                    }
                }
            }
        }
        b.apply(a.clone()).map_err(|e| format!("{e:?}"))?;
    }
    Err("the recorded battle has no close combat".to_string())
}

/// Two armies of 12 on a 15 BW table (the geometry bench's table): lines facing each other, some
/// in full contact, some offset, some a little apart, a few on the flanks at angles.
fn battle_table() -> Vec<(u32, u8, ElementRect)> {
    let mut v = Vec::with_capacity(24);
    for i in 0..10u32 {
        let x = 2.5 + f64::from(i);
        v.push((i, 0u8, ElementRect::new(Pose::new(x, 7.0, 0.0), 1.0, 0.5)));
        let (dx, dy) = match i % 3 {
            0 => (0.0, 0.0),
            1 => (0.25, 0.0),
            _ => (0.0, 0.5),
        };
        let pose = Pose::new(x + dx, 7.0 + dy, 180.0);
        v.push((100 + i, 1u8, ElementRect::new(pose, 1.0, 0.75)));
    }
    let extra = [
        (20, 0, Pose::new(1.0, 5.0, 30.0), 0.75),
        (21, 0, Pose::new(13.5, 4.0, 330.0), 0.75),
        (120, 1, Pose::new(1.5, 10.0, 200.0), 0.5),
        (121, 1, Pose::new(13.0, 11.0, 160.0), 1.0),
    ];
    for (id, side, pose, depth) in extra {
        v.push((id, side, ElementRect::new(pose, 1.0, depth)));
    }
    v
}

/// Repetitions per timed sample so that a sample lasts about 5 ms.
fn calibrate(f: &Fixture, name: &str) -> u64 {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        f.run(name, n);
        let e = t.elapsed();
        if e >= Duration::from_millis(5) || n >= 1 << 24 {
            return n;
        }
        n = if e.is_zero() {
            n * 16
        } else {
            let want = (n as f64 * 5.0e6 / e.as_nanos() as f64).ceil() as u64;
            want.clamp(n + 1, n * 16)
        };
    }
}

/// Big Battle and Giant per action against the standard game's (#47: at most x2), in
/// instructions: the callgrind count of each row is one battle of seed `SEED + 1` (see
/// [`instructions`]), and the standard game's is `driven_battle_many`'s 40 battles, each divided
/// by the actions its battles took.
fn big_battle_per_action(
    fixture: &Fixture,
    counted: &[Option<f64>],
    at: impl Fn(&str) -> Option<usize>,
) {
    let actions =
        |r: Result<dbcore::driver::DrivenBattle, _>| r.map_or(0, |d| d.record.actions.len());
    let Some(standard) = at("driven_battle_many").and_then(|i| counted[i]) else {
        println!("Big Battle and Giant per action: in instructions only (run with --callgrind)");
        return;
    };
    let standard_actions: usize = (MANY_FIRST_SEED..MANY_FIRST_SEED + MANY_SEEDS)
        .map(|seed| actions(play_validated(&fixture.setup, seed, MAX_BOUNDS)))
        .sum();
    let standard = standard / standard_actions.max(1) as f64;
    println!(
        "per action, standard game ({standard_actions} actions in {MANY_SEEDS} battles): {} instructions",
        human_count(standard)
    );
    for (row, setup, what) in [
        ("driven_big_battle", &fixture.big_battle, "Big Battle"),
        ("driven_giant", &fixture.giant, "Giant"),
    ] {
        let Some(c) = at(row).and_then(|i| counted[i]) else {
            continue;
        };
        let n = actions(play(setup.clone(), SEED + 1, MAX_COMMAND_BOUNDS)).max(1);
        let per = c / n as f64;
        println!(
            "per action, {what} ({n} actions): {} instructions, x{:.2} the standard game's (target <= 2)",
            human_count(per),
            per / standard
        );
    }
}

/// Instructions per operation of `name` under callgrind, or why not.
fn instructions(name: &str) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let count = |n: u64| -> Result<u64, String> {
        let out = Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(&exe)
            .args(["perf", "--row", name, "--iters", &n.to_string()])
            .output()
            .map_err(|e| format!("valgrind: {e}"))?;
        let err = String::from_utf8_lossy(&out.stderr);
        err.lines()
            .find_map(|l| l.split("Collected :").nth(1))
            .and_then(|s| s.trim().parse::<u64>().ok())
            .ok_or_else(|| format!("no instruction count from valgrind for {name}"))
    };
    let many: u64 = match name {
        "driven_battle" | "replay" | "replay_validated" | "rollout" => 3,
        "driven_big_battle" | "driven_giant" | "driven_battle_many" => 1,
        "game_from_lists" | "game_from_lists_shooting" => 1,
        "per_action_12" | "per_action_24" | "per_action_48" | "per_action_96" => 1,
        "state_json_round_trip" | "fight_check" | "clone_end" | "contact_scan_24" => 200,
        "table_combat" => 200,
        "compact_state_round_trip" | "from_state_json_compact" | "clone_largest" => 200,
        "from_state_json_full" => 3,
        _ => 2000,
    };
    let base = count(1)?;
    let total = count(1 + many)?;
    Ok(total.saturating_sub(base) as f64 / many as f64)
}

fn human_ns(ns: f64) -> String {
    if ns >= 1.0e6 {
        format!("{:.2} ms", ns / 1.0e6)
    } else if ns >= 1.0e3 {
        format!("{:.2} us", ns / 1.0e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn human_count(n: f64) -> String {
    if n >= 1.0e6 {
        format!("{:.1} M", n / 1.0e6)
    } else if n >= 1.0e3 {
        format!("{:.1} k", n / 1.0e3)
    } else {
        format!("{n:.0}")
    }
}

/// `perf [--callgrind] [--rounds N]`, or the inner `perf --row NAME --iters N` callgrind runs.
pub fn run(args: &[&str]) -> Result<(), String> {
    let mut callgrind = false;
    let mut rounds = 15u32;
    let mut row: Option<&str> = None;
    let mut iters = 1u64;
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        match a {
            "--callgrind" => callgrind = true,
            "--rounds" => {
                rounds = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .filter(|&r| r > 0)
                    .ok_or("--rounds takes a positive number")?
            }
            "--row" => row = Some(it.next().ok_or("--row takes a row name")?),
            "--iters" => {
                iters = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--iters takes a number")?
            }
            _ => return Err(format!("perf: unknown argument {a:?}")),
        }
    }
    let fixture = Fixture::new()?;
    if let Some(name) = row {
        if !ROWS.iter().any(|r| r.name == name) {
            return Err(format!("perf: no row {name:?}"));
        }
        fixture.run(name, iters);
        return Ok(());
    }
    let reps: Vec<u64> = ROWS.iter().map(|r| calibrate(&fixture, r.name)).collect();
    let mut best = vec![f64::INFINITY; ROWS.len()];
    for _ in 0..rounds {
        for (i, r) in ROWS.iter().enumerate() {
            let t = Instant::now();
            fixture.run(r.name, reps[i]);
            let per = t.elapsed().as_nanos() as f64 / reps[i] as f64;
            best[i] = best[i].min(per);
        }
    }
    let has_valgrind = callgrind
        && Command::new("valgrind")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if callgrind && !has_valgrind {
        eprintln!("perf: valgrind not found, instruction counts skipped");
    }
    println!("minimum of {rounds} interleaved rounds; ratio = measured / target (<= 1 meets it)");
    println!(
        "{:<50} {:>11} {:>11} {:>7}   {:>9} {:>9} {:>7}",
        "what", "time", "target", "ratio", "instr", "target", "ratio"
    );
    let mut counted = vec![None; ROWS.len()];
    for (i, r) in ROWS.iter().enumerate() {
        let (tt, tr) = match r.target_ns {
            Some(t) => (human_ns(t), format!("{:.2}", best[i] / t)),
            None => ("-".to_string(), "-".to_string()),
        };
        let (ic, it, ir) = if has_valgrind {
            match instructions(r.name) {
                Ok(n) => (
                    {
                        counted[i] = Some(n);
                        human_count(n)
                    },
                    r.target_instr.map_or("-".to_string(), human_count),
                    r.target_instr
                        .map_or("-".to_string(), |t| format!("{:.2}", n / t)),
                ),
                Err(e) => (e, "-".to_string(), "-".to_string()),
            }
        } else {
            (
                "-".to_string(),
                r.target_instr.map_or("-".to_string(), human_count),
                "-".to_string(),
            )
        };
        println!(
            "{:<50} {:>11} {:>11} {:>7}   {:>9} {:>9} {:>7}",
            describe(r.name),
            human_ns(best[i]),
            tt,
            tr,
            ic,
            it,
            ir
        );
    }
    if best[0].is_finite() && best[0] > 0.0 {
        println!("driven battles per second: {:.0}", 1.0e9 / best[0]);
    }
    if let Some(i) = ROWS.iter().position(|r| r.name == "driven_battle_many") {
        let per = best[i] / MANY_SEEDS as f64;
        let instr = counted[i].map_or(String::new(), |c| {
            format!(", {} instructions", human_count(c / MANY_SEEDS as f64))
        });
        println!(
            "driven battles per second over {MANY_SEEDS} seeds: {:.0} ({} a battle{instr})",
            1.0e9 / per,
            human_ns(per)
        );
    }
    println!(
        "state JSON of the final state: compact {} bytes, full {} bytes",
        fixture.compact.len(),
        fixture.full.len()
    );
    let (end_bytes, end_blocks) = clone_size(&fixture.end);
    println!(
        "largest clone over every state: {} bytes in {} blocks (target <= 8192 bytes); final state: {end_bytes} bytes in {end_blocks} blocks",
        fixture.largest.1, fixture.largest.2
    );
    // Cost per action as the armies grow, and its ratio per doubling (target: at most 2.2).
    let mut previous: Option<(f64, Option<f64>)> = None;
    for (k, &n) in SIZES.iter().enumerate() {
        let Some(i) = ROWS
            .iter()
            .position(|r| r.name == format!("per_action_{n}"))
        else {
            continue;
        };
        let actions = fixture.sized[k].1 as f64;
        let ns = best[i] / actions;
        let instr = counted[i].map(|c| c / actions);
        let ratio = previous.map_or(String::new(), |(pns, pinstr)| match (instr, pinstr) {
            (Some(a), Some(b)) => format!(", x{:.2} per doubling (instructions)", a / b),
            _ => format!(", x{:.2} per doubling (time)", ns / pns),
        });
        println!(
            "per action, {n} a side ({actions} actions): {}{}{ratio}",
            human_ns(ns),
            instr.map_or(String::new(), |c| format!(
                ", {} instructions",
                human_count(c)
            ))
        );
        previous = Some((ns, instr));
    }
    // The C ABI against the same Rust call (target: at most 1.2).
    let at = |name: &str| ROWS.iter().position(|r| r.name == name);
    big_battle_per_action(&fixture, &counted, at);
    // Each C entry point against the Rust call it wraps.
    for (row, rust) in [
        ("ffi_resolve", "resolve"),
        ("ffi_resolve_compact", "resolve_brief"),
    ] {
        let (Some(f), Some(r)) = (at(row), at(rust)) else {
            continue;
        };
        let instr = match (counted[f], counted[r]) {
            (Some(cf), Some(cr)) if cr > 0.0 => format!(", x{:.2} in instructions", cf / cr),
            _ => String::new(),
        };
        println!(
            "C ABI ({row}) against the Rust call {rust}: x{:.2} in time{instr} (target <= 1.2)",
            best[f] / best[r]
        );
    }
    for (i, r) in ROWS.iter().enumerate() {
        if (r.name.starts_with("driven_") || r.name.starts_with("game_from_lists"))
            && r.name != "driven_battle"
            && r.name != "driven_battle_many"
            && best[i] > 0.0
        {
            println!(
                "{} per second: {:.1} ({:.1} x the standard game's time)",
                describe(r.name),
                1.0e9 / best[i],
                best[i] / best[0]
            );
        }
    }
    Ok(())
}
