//! The packed batch path (#15): situations, results and odds as fixed-size byte records, so a
//! batch of many different combats crosses into Rust and back as three `bytes` objects and no
//! Python object is made per item.
//!
//! The layouts are the contract written in `dbcore-py/README.md` ("Packed batches") and in
//! `dbcore/packed.py` (the numpy field lists); every byte is an unsigned number except the
//! totals and factors, which are signed. An encoding is canonical: unused bytes must be 0, so
//! two records are equal exactly when the situations are, and `pack_situations` of
//! `unpack_situations(data)` gives `data` back.
//!
//! The rules are dbcore's alone: a record is decoded into a `dbcore::Situation` and resolved by
//! `dbcore::combat::resolve_brief` (`resolve` without the factor lists, which a result record
//! does not hold), or counted once by `dbcore::Prepared` when the batch repeats it (each of its
//! pairs of dice then resolved once), exactly as `resolve_many` resolves it; `odds_packed`
//! counts each distinct record once. The tests hold these paths to single calls value for value.

use std::sync::OnceLock;

use dbcore::combat::{resolve_brief, BriefResult, ShooterSide, Supporter};
use dbcore::{
    Band, CombatError, Combatant, DieScore, ElementKind, Engagement, Going, Holding, Odds, Outcome,
    Prepared, Pursuit, Shot, Side, Situation, Stronghold,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::combat::Situation as PySituation;
use crate::errors;
use crate::kinds::{default_config, RulesConfig};
use crate::names::name_of;

/// Bytes of one combatant inside a situation record.
const COMBATANT_SIZE: usize = 16;
/// Bytes of one situation record: `a`, `b`, then four bytes of engagement.
pub const SITUATION_SIZE: usize = 2 * COMBATANT_SIZE + 4;
/// Bytes of one result record.
pub const RESULT_SIZE: usize = 9;
/// Bytes of one odds record.
pub const ODDS_SIZE: usize = 31;
/// The kind byte of an absent rear supporter.
const NO_KIND: u8 = 255;

/// Every element kind in its packed number's order: `ElementKind::all()` (plain kinds in
/// `BaseKind::ALL` order, then mounted infantry), which `dbcore.ElementKind.all()` also lists.
fn kinds() -> &'static [ElementKind] {
    static KINDS: OnceLock<Vec<ElementKind>> = OnceLock::new();
    KINDS.get_or_init(ElementKind::all)
}

/// The packed number of a kind.
fn kind_number(k: ElementKind) -> u8 {
    // Every kind is in `kinds()` (fewer than 255 of them), so the fallback is never taken; it
    // would decode as an error rather than as another kind.
    kinds()
        .iter()
        .position(|&x| x == k)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(NO_KIND)
}

/// Where a record is wrong: the byte (of the situation record) and what it should hold.
type Bad = (usize, &'static str);

fn kind_of(n: u8, at: usize) -> Result<ElementKind, Bad> {
    kinds().get(usize::from(n)).copied().ok_or((
        at,
        "not a kind number (an index of dbcore.ElementKind.all())",
    ))
}

fn going_of(n: u8, at: usize) -> Result<Going, Bad> {
    match n {
        0 => Ok(Going::Good),
        1 => Ok(Going::Rough),
        2 => Ok(Going::Bad),
        _ => Err((at, "going is 0 good, 1 rough or 2 bad")),
    }
}

fn going_number(g: Going) -> u8 {
    match g {
        Going::Good => 0,
        Going::Rough => 1,
        Going::Bad => 2,
    }
}

fn place_of(n: u8, at: usize) -> Result<Stronghold, Bad> {
    match n {
        0 => Ok(Stronghold::City),
        1 => Ok(Stronghold::Fort),
        2 => Ok(Stronghold::Camp),
        _ => Err((at, "place is 0 city, 1 fort or 2 camp")),
    }
}

fn place_number(p: Stronghold) -> u8 {
    match p {
        Stronghold::City => 0,
        Stronghold::Fort => 1,
        Stronghold::Camp => 2,
    }
}

/// Flag bits of a combatant's byte 1.
const GENERAL: u8 = 1;
const CINC_BONUS: u8 = 2;
const UPHILL: u8 = 4;
const DEFENDING_BANK: u8 = 8;
const DEMORALISED: u8 = 16;
/// Flag bits of the engagement's byte 3.
const SHOOTS_BACK: u8 = 1;
const FROM_BEHIND: u8 = 2;

/// Write a combatant's 16 bytes.
fn pack_combatant(c: &Combatant, out: &mut [u8]) {
    out[0] = kind_number(c.kind);
    out[1] = [
        (c.general, GENERAL),
        (c.cinc_bonus, CINC_BONUS),
        (c.uphill, UPHILL),
        (c.defending_bank, DEFENDING_BANK),
        (c.demoralised, DEMORALISED),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |f, (_, bit)| f | bit);
    out[2] = going_number(c.going);
    (out[3], out[4], out[5]) = match c.holding {
        Holding::Field => (0, 0, 0),
        Holding::Defending {
            place,
            extra_assaulters,
        } => (1, place_number(place), extra_assaulters),
        Holding::Assaulting { place } => (2, place_number(place), 0),
    };
    out[6] = c.flank_rear_contacts;
    out[7] = u8::try_from(c.side_supporters.given()).unwrap_or(u8::MAX);
    out[8..14].fill(0);
    for (i, s) in c.side_supporters.iter().enumerate() {
        out[8 + i] = kind_number(s.kind);
        out[11 + i] = going_number(s.going);
    }
    (out[14], out[15]) = match c.rear_supporter {
        Some(s) => (kind_number(s.kind), going_number(s.going)),
        None => (NO_KIND, 0),
    };
}

/// Read a combatant's 16 bytes; `base` is their offset in the situation record (for errors).
fn unpack_combatant(r: &[u8], base: usize) -> Result<Combatant, Bad> {
    let mut c = Combatant::new(kind_of(r[0], base)?);
    // The common case first: in the open, no contacts, no supporters.
    const PLAIN: [u8; 13] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NO_KIND, 0];
    if r[3..] == PLAIN && r[1] & !(GENERAL | UPHILL | DEMORALISED) == 0 && r[2] <= 2 {
        c.general = r[1] & GENERAL != 0;
        c.uphill = r[1] & UPHILL != 0;
        c.demoralised = r[1] & DEMORALISED != 0;
        c.going = going_of(r[2], base + 2)?;
        return Ok(c);
    }
    if r[1] & !(GENERAL | CINC_BONUS | UPHILL | DEFENDING_BANK | DEMORALISED) != 0 {
        return Err((
            base + 1,
            "flags are 1 general, 2 cinc_bonus, 4 uphill, 8 defending_bank and 16 demoralised",
        ));
    }
    c.general = r[1] & GENERAL != 0;
    c.cinc_bonus = r[1] & CINC_BONUS != 0;
    c.uphill = r[1] & UPHILL != 0;
    c.defending_bank = r[1] & DEFENDING_BANK != 0;
    c.demoralised = r[1] & DEMORALISED != 0;
    c.going = going_of(r[2], base + 2)?;
    c.holding = match (r[3], r[4], r[5]) {
        (0, 0, 0) => Holding::Field,
        (0, ..) => {
            return Err((base + 4, "in the open, place and extra assaulters are 0"));
        }
        (1, p, x) => Holding::Defending {
            place: place_of(p, base + 4)?,
            extra_assaulters: x,
        },
        (2, p, 0) => Holding::Assaulting {
            place: place_of(p, base + 4)?,
        },
        (2, ..) => {
            return Err((base + 5, "extra assaulters are 0 for an assaulter"));
        }
        _ => {
            return Err((
                base + 3,
                "holding is 0 in the open, 1 defending or 2 assaulting",
            ));
        }
    };
    c.flank_rear_contacts = r[6];
    let given = usize::from(r[7]);
    let stored = given.min(3);
    for i in 0..3 {
        if i < stored {
            c.side_supporters.push(Supporter {
                kind: kind_of(r[8 + i], base + 8 + i)?,
                going: going_of(r[11 + i], base + 11 + i)?,
            });
        } else if r[8 + i] != 0 || r[11 + i] != 0 {
            return Err((base + 8 + i, "an unused side supporter slot is 0"));
        }
    }
    // Beyond three, supporters are only counted (as `Supporters` keeps them), and refused by
    // the rules at resolution (§10.3).
    for _ in stored..given {
        if let Some(&last) = c.side_supporters.last() {
            c.side_supporters.push(last);
        }
    }
    c.rear_supporter = match (r[14], r[15]) {
        (NO_KIND, 0) => None,
        (NO_KIND, _) => return Err((base + 15, "with no rear supporter its going is 0")),
        (k, g) => Some(Supporter {
            kind: kind_of(k, base + 14)?,
            going: going_of(g, base + 15)?,
        }),
    };
    Ok(c)
}

/// Write a situation's record.
fn pack_situation(s: &Situation, out: &mut [u8]) {
    pack_combatant(&s.a, &mut out[..COMBATANT_SIZE]);
    pack_combatant(&s.b, &mut out[COMBATANT_SIZE..2 * COMBATANT_SIZE]);
    let e = &mut out[2 * COMBATANT_SIZE..];
    match s.engagement {
        Engagement::CloseCombat => e.fill(0),
        Engagement::Shooting(shot) => {
            e[0] = 1;
            e[1] = match shot.shooter {
                ShooterSide::A => 0,
                ShooterSide::B => 1,
            };
            e[2] = shot.support_shooters;
            e[3] = (u8::from(shot.target_shoots_back) * SHOOTS_BACK)
                | (u8::from(shot.from_behind) * FROM_BEHIND);
        }
    }
}

/// Read a situation's record.
fn unpack_situation(r: &[u8]) -> Result<Situation, Bad> {
    let a = unpack_combatant(&r[..COMBATANT_SIZE], 0)?;
    let b = unpack_combatant(&r[COMBATANT_SIZE..2 * COMBATANT_SIZE], COMBATANT_SIZE)?;
    let at = 2 * COMBATANT_SIZE;
    let e = &r[at..];
    let engagement = match e[0] {
        0 if e[1..] == [0, 0, 0] => Engagement::CloseCombat,
        0 => return Err((at + 1, "a close combat's shot bytes are 0")),
        1 => {
            if e[3] & !(SHOOTS_BACK | FROM_BEHIND) != 0 {
                return Err((
                    at + 3,
                    "shot flags are 1 target_shoots_back and 2 from_behind",
                ));
            }
            Engagement::Shooting(Shot {
                shooter: match e[1] {
                    0 => ShooterSide::A,
                    1 => ShooterSide::B,
                    _ => return Err((at + 1, "the shooter is 0 a or 1 b")),
                },
                support_shooters: e[2],
                target_shoots_back: e[3] & SHOOTS_BACK != 0,
                from_behind: e[3] & FROM_BEHIND != 0,
            })
        }
        _ => return Err((at, "engagement is 0 close combat or 1 shooting")),
    };
    Ok(Situation { a, b, engagement })
}

/// Why an item of a packed batch failed.
enum ItemError {
    /// A die score outside 1 to 6.
    Dice(dbcore::DiceError),
    /// A record that is not a situation.
    Record(Bad),
    /// A situation the rules refuse.
    Rule(CombatError),
    /// A value the record cannot hold (never expected: dbcore's totals are small).
    Range(&'static str),
}

fn item_error(i: usize, e: ItemError) -> PyErr {
    use dbcore::ErrorInfo;
    match e {
        ItemError::Dice(e) => errors::raise(e.code(), e.rule(), format!("item {i}: {e}")),
        ItemError::Rule(e) => errors::raise(e.code(), e.rule(), format!("item {i}: {e}")),
        ItemError::Record((byte, what)) => {
            errors::invalid_argument(format!("item {i}: byte {byte} of its situation: {what}"))
        }
        ItemError::Range(what) => errors::internal(format!("item {i}: {what}")),
    }
}

/// The bytes of a `bytes` or `bytearray` argument; `what` names it in the error.
fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(std::borrow::Cow::Borrowed(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        // A bytearray may change under us once the GIL is released: work on a copy.
        return Ok(std::borrow::Cow::Owned(b.to_vec()));
    }
    Err(errors::invalid_argument(format!(
        "{what} must be bytes or a bytearray (numpy: array.tobytes())"
    )))
}

/// A situation record read as five words (the last one its four engagement bytes), to hash and
/// compare it in a few instructions rather than byte by byte.
#[inline(always)]
fn words(r: &[u8]) -> [u64; 5] {
    // One length check, then loads the compiler merges (bytes at constant offsets).
    let r = &r[..SITUATION_SIZE];
    let w = |i: usize| {
        u64::from_le_bytes([
            r[i],
            r[i + 1],
            r[i + 2],
            r[i + 3],
            r[i + 4],
            r[i + 5],
            r[i + 6],
            r[i + 7],
        ])
    };
    let tail = u32::from_le_bytes([r[32], r[33], r[34], r[35]]);
    [w(0), w(8), w(16), w(24), u64::from(tail)]
}

/// The hash of a record's words: the multiply-rotate of rustc's FxHasher, then the high bits
/// folded down, since the table is indexed by the low bits.
#[inline(always)]
fn hash(w: &[u64; 5]) -> u64 {
    let h = w.iter().fold(0u64, |h, &x| {
        (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    });
    h ^ (h >> 32)
}

/// The distinct records of a batch, numbered in the order of their first use, and which one
/// each item uses: equal records are equal situations (the encoding is canonical), so a batch
/// can resolve each distinct record once. Only looked up, never iterated, so no hash order
/// reaches a result.
struct Distinct {
    /// For each item, the number of its record.
    item_slot: Vec<u32>,
    /// For each distinct record, the first item that uses it.
    first: Vec<u32>,
    /// For each distinct record, how many items use it.
    uses: Vec<u32>,
}

impl Distinct {
    /// Number the records of `situations` (`n` items; one record for them all when
    /// `broadcast`). An open-addressing table of record numbers, sized once to stay at most half
    /// full (4 bytes for each of 2n places at most, against the 36 of a record), with each
    /// candidate compared word by word with the distinct record it may be.
    fn of(situations: &[u8], n: usize, broadcast: bool) -> Distinct {
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        if broadcast || n == 0 {
            return Distinct {
                item_slot: vec![0; n],
                first: if n == 0 { Vec::new() } else { vec![0] },
                uses: if n == 0 { Vec::new() } else { vec![count(n)] },
            };
        }
        const EMPTY: u32 = u32::MAX;
        let mut table = vec![EMPTY; (2 * n).next_power_of_two().max(64)];
        let mask = table.len() - 1;
        let mut item_slot = Vec::with_capacity(n);
        let mut first: Vec<u32> = Vec::new();
        let mut uses: Vec<u32> = Vec::new();
        // Each distinct record's words, to compare a candidate with in place.
        let mut keys: Vec<[u64; 5]> = Vec::new();
        for (i, r) in situations.chunks_exact(SITUATION_SIZE).take(n).enumerate() {
            let w = words(r);
            let mut probe = hash(&w) as usize & mask;
            let slot = loop {
                let slot = table[probe];
                if slot == EMPTY {
                    let slot = count(first.len());
                    table[probe] = slot;
                    first.push(count(i));
                    uses.push(0);
                    keys.push(w);
                    break slot;
                }
                if keys[slot as usize] == w {
                    break slot;
                }
                probe = (probe + 1) & mask;
            };
            uses[slot as usize] += 1;
            item_slot.push(slot);
        }
        Distinct {
            item_slot,
            first,
            uses,
        }
    }
}

/// The situation record of item `i`: one for every item, or one an item.
fn record(situations: &[u8], i: usize, broadcast: bool) -> &[u8] {
    let at = if broadcast { 0 } else { i * SITUATION_SIZE };
    &situations[at..at + SITUATION_SIZE]
}

/// A situation the batch meets more than once, counted once, with the result record of each
/// pair of dice once an item has met it (a situation and its dice make the whole result), and
/// the pursuit each pair of outcomes gives once found (dbcore's pursuit depends on the
/// situation and the two outcomes alone, §12.5).
struct Repeated {
    prepared: Prepared,
    /// Indexed by `6 * (die_a - 1) + (die_b - 1)`.
    results: [Option<[u8; RESULT_SIZE]>; 36],
    pursuit: [Option<[u8; 3]>; 16],
}

fn pursuit_bytes(p: Option<&Pursuit>) -> Result<[u8; 3], ItemError> {
    let Some(p) = p else {
        return Ok([0; 3]);
    };
    let side = match p.side {
        Side::A => 1,
        Side::B => 2,
    };
    let halves = p.distance * 2.0;
    if halves.fract() != 0.0 || !(0.0..=255.0).contains(&halves) {
        return Err(ItemError::Range(
            "a pursuit distance not in half base widths",
        ));
    }
    let into = p.into.map_or(0, |s| 1 + place_number(s));
    Ok([side, halves as u8, into])
}

fn total_byte(t: i32) -> Result<u8, ItemError> {
    i8::try_from(t)
        .map(|t| t as u8)
        .map_err(|_| ItemError::Range("a total beyond -128..127"))
}

/// Write a result's record from a full result.
fn pack_result(r: &BriefResult, out: &mut [u8]) -> Result<(), ItemError> {
    out[0] = total_byte(r.a.total)?;
    out[1] = total_byte(r.b.total)?;
    out[2] = r.a.outcome as u8;
    out[3] = r.b.outcome as u8;
    out[4] = r.a.band as u8;
    out[5] = r.b.band as u8;
    out[6..9].copy_from_slice(&pursuit_bytes(r.pursuit.as_ref())?);
    Ok(())
}

/// How many items must share a record before it is counted once through `dbcore::Prepared`
/// rather than resolved item by item: preparing (every band of both sides) and the lookups
/// after it cost about what four plain resolutions do (callgrind, #15).
const PREPARE_FROM: u32 = 4;

/// Resolve every item into `out` (`RESULT_SIZE` bytes an item), in item order; the first item
/// that fails stops the batch.
fn resolve_all(
    situations: &[u8],
    dice: &[u8],
    cfg: &dbcore::RulesConfig,
    out: &mut [u8],
) -> Result<(), (usize, ItemError)> {
    let n = dice.len() / 2;
    let broadcast = situations.len() == SITUATION_SIZE;
    // Which distinct record each item uses, and how many items use it: one met fewer than
    // PREPARE_FROM times is resolved item by item, one met more often counted once and each of
    // its pairs of dice resolved once.
    let Distinct {
        item_slot, uses, ..
    } = Distinct::of(situations, n, broadcast);
    const NONE: u32 = u32::MAX;
    let mut repeated_of = vec![NONE; uses.len()];
    let mut repeated: Vec<Repeated> = Vec::new();
    for (i, (pair, out)) in dice
        .chunks_exact(2)
        .zip(out.chunks_exact_mut(RESULT_SIZE))
        .enumerate()
    {
        let fail = |e| (i, e);
        let slot = item_slot[i] as usize;
        let rep = repeated_of[slot];
        if rep != NONE {
            // A pair of dice of a counted record already resolved: its result copied (the
            // scores checked first, as DieScore::new checks them).
            let (da, db) = (pair[0].wrapping_sub(1), pair[1].wrapping_sub(1));
            if da < 6 && db < 6 {
                if let Some(done) = &repeated[rep as usize].results[usize::from(da * 6 + db)] {
                    out.copy_from_slice(done);
                    continue;
                }
            }
        }
        let die = |d: u8| DieScore::new(d).map_err(|e| fail(ItemError::Dice(e)));
        let dice = [die(pair[0])?, die(pair[1])?];
        if uses[slot] < PREPARE_FROM {
            let s = unpack_situation(record(situations, i, broadcast))
                .map_err(|b| fail(ItemError::Record(b)))?;
            // Read where it stands: mapping the error first would move the whole result.
            // `resolve_brief`: `resolve`'s totals, bands, outcomes and pursuit, without the
            // itemised factors a record has no room for.
            match &resolve_brief(&s, dice, cfg) {
                Ok(r) => pack_result(r, out).map_err(fail)?,
                Err(e) => return Err(fail(ItemError::Rule(e.clone()))),
            }
            continue;
        }
        if repeated_of[slot] == NONE {
            let s = unpack_situation(record(situations, i, broadcast))
                .map_err(|b| fail(ItemError::Record(b)))?;
            let prepared = Prepared::new(&s, cfg).map_err(|e| fail(ItemError::Rule(e)))?;
            repeated_of[slot] = repeated.len() as u32;
            repeated.push(Repeated {
                prepared,
                results: [None; 36],
                pursuit: [None; 16],
            });
        }
        let rep = &mut repeated[repeated_of[slot] as usize];
        let cell = usize::from(dice[0].get() - 1) * 6 + usize::from(dice[1].get() - 1);
        let p = &rep.prepared;
        let (oa, ob) = p.outcomes(dice);
        let (ta, tb) = p.totals(dice);
        out[0] = total_byte(ta).map_err(fail)?;
        out[1] = total_byte(tb).map_err(fail)?;
        out[2] = oa as u8;
        out[3] = ob as u8;
        out[4] = Band::of(ta, tb) as u8;
        out[5] = Band::of(tb, ta) as u8;
        let known = &mut rep.pursuit[oa as usize * 4 + ob as usize];
        let bytes = match known {
            Some(b) => *b,
            None => {
                let b = pursuit_bytes(p.resolve(dice).pursuit.as_ref()).map_err(fail)?;
                *known = Some(b);
                b
            }
        };
        out[6..9].copy_from_slice(&bytes);
        let mut done = [0u8; RESULT_SIZE];
        done.copy_from_slice(out);
        rep.results[cell] = Some(done);
    }
    Ok(())
}

fn config_of<'a>(config: Option<&'a Bound<'_, RulesConfig>>) -> &'a dbcore::RulesConfig {
    match config {
        Some(c) => &c.get().0,
        None => default_config(),
    }
}

/// Resolve many combats given as packed records, the loop in Rust with the GIL released:
/// `situations` holds one 36-byte situation record for every item or one for them all, `dice`
/// two scores an item. Returns 9 bytes an item (totals, outcomes, bands and pursuit), the values
/// `resolve_many` gives; the first item that fails raises its exception, naming it.
#[pyfunction]
#[pyo3(signature = (situations, dice, config=None))]
pub fn resolve_packed<'py>(
    py: Python<'py>,
    situations: &Bound<'py, PyAny>,
    dice: &Bound<'py, PyAny>,
    config: Option<&Bound<'py, RulesConfig>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let situations = bytes_arg(situations, "situations")?;
    let dice = bytes_arg(dice, "dice")?;
    if dice.len() % 2 != 0 {
        return Err(errors::invalid_argument(
            "dice hold two scores an item: an even number of bytes",
        ));
    }
    let n = dice.len() / 2;
    if situations.len() % SITUATION_SIZE != 0 {
        return Err(errors::invalid_argument(format!(
            "situations hold {SITUATION_SIZE} bytes a record, not {} bytes",
            situations.len()
        )));
    }
    let records = situations.len() / SITUATION_SIZE;
    if records != n && records != 1 {
        return Err(errors::invalid_argument(format!(
            "{records} situation records for {n} pairs of dice: give one, or one a pair"
        )));
    }
    let cfg = config_of(config);
    let (situations, dice) = (&*situations, &*dice);
    let mut out = vec![0u8; n * RESULT_SIZE];
    let broadcast = records == 1;
    let done = errors::guard(|| {
        Ok(py.detach(|| {
            let threads = threads_for(n, 4096);
            if threads == 1 {
                return resolve_all(situations, dice, cfg, &mut out);
            }
            // Contiguous chunks, one a thread, each with its own record counts; the earliest
            // failing item is the one reported, as one thread would.
            let chunk = n.div_ceil(threads);
            std::thread::scope(|s| {
                let parts: Vec<_> = dice
                    .chunks(2 * chunk)
                    .zip(out.chunks_mut(RESULT_SIZE * chunk))
                    .enumerate()
                    .map(|(c, (dice, out))| {
                        let sits = match broadcast {
                            true => situations,
                            false => {
                                let at = c * chunk * SITUATION_SIZE;
                                &situations[at..at + dice.len() / 2 * SITUATION_SIZE]
                            }
                        };
                        s.spawn(move || {
                            resolve_all(sits, dice, cfg, out).map_err(|(i, e)| (c * chunk + i, e))
                        })
                    })
                    .collect();
                earliest(parts)
            })
        }))
    })?;
    done.map_err(|(i, e)| item_error(i, e))?;
    Ok(PyBytes::new(py, &out))
}

/// How many threads a batch of `n` items is shared among: one below twice `per_thread` items
/// (a thread costs tens of microseconds, and asking how many cores there are reads the cgroup
/// files), else as many as there are cores with at least `per_thread` items each.
fn threads_for(n: usize, per_thread: usize) -> usize {
    if n < 2 * per_thread {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(n / per_thread)
        .max(1)
}

/// Wait for every part of a batch; the earliest failing item of any is the batch's failure
/// (each part stops at its own first failure, and the parts are in item order).
fn earliest(
    parts: Vec<std::thread::ScopedJoinHandle<'_, Result<(), (usize, ItemError)>>>,
) -> Result<(), (usize, ItemError)> {
    let mut first: Option<(usize, ItemError)> = None;
    for p in parts {
        match p.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                if first.as_ref().is_none_or(|f| e.0 < f.0) {
                    first = Some(e);
                }
            }
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
    first.map_or(Ok(()), Err)
}

/// Write an odds record.
fn pack_odds(o: &Odds, out: &mut [u8]) -> Result<(), ItemError> {
    out[..16].fill(0);
    for e in &o.outcomes {
        out[e.a as usize * 4 + e.b as usize] = e.count;
    }
    out[16..20].copy_from_slice(&o.a);
    out[20..24].copy_from_slice(&o.b);
    let m = &o.margins;
    out[24..29].copy_from_slice(&[m.a_doubled_b, m.a_won, m.tied, m.b_won, m.b_doubled_a]);
    out[29] = total_byte(o.a_factor)?;
    out[30] = total_byte(o.b_factor)?;
    Ok(())
}

/// Count the odds of the records numbered `slots` (indexes of `first`, the first item of each)
/// into `out`, one odds record each in order; a failure names the record's first item.
fn odds_of(
    situations: &[u8],
    first: &[u32],
    cfg: &dbcore::RulesConfig,
    out: &mut [u8],
) -> Result<(), (usize, ItemError)> {
    for (&i, out) in first.iter().zip(out.chunks_exact_mut(ODDS_SIZE)) {
        let i = i as usize;
        let fail = |e| (i, e);
        let s = unpack_situation(record(situations, i, false))
            .map_err(|b| fail(ItemError::Record(b)))?;
        let o = dbcore::odds(&s, cfg).map_err(|e| fail(ItemError::Rule(e)))?;
        pack_odds(&o, out).map_err(fail)?;
    }
    Ok(())
}

/// Count the odds of every distinct record of `situations` once, shared among threads when
/// there are many, into `out`: one odds record a distinct record, in `first`'s order.
fn odds_distinct(
    situations: &[u8],
    first: &[u32],
    cfg: &dbcore::RulesConfig,
    out: &mut [u8],
) -> Result<(), (usize, ItemError)> {
    // As odds_many: below a few hundred situations a thread costs more than it saves.
    let threads = threads_for(first.len(), 256);
    if threads == 1 {
        return odds_of(situations, first, cfg, out);
    }
    // Records are numbered in the order of their first items, so the earliest failing record
    // of the earliest failing chunk is the batch's earliest failing item.
    let chunk = first.len().div_ceil(threads);
    std::thread::scope(|s| {
        let parts: Vec<_> = first
            .chunks(chunk)
            .zip(out.chunks_mut(chunk * ODDS_SIZE))
            .map(|(first, out)| s.spawn(move || odds_of(situations, first, cfg, out)))
            .collect();
        earliest(parts)
    })
}

/// The odds of every item of `situations` into `out`, each distinct record counted once and
/// its odds record written for every item that repeats it.
fn odds_all(
    situations: &[u8],
    cfg: &dbcore::RulesConfig,
    out: &mut [u8],
) -> Result<(), (usize, ItemError)> {
    let n = situations.len() / SITUATION_SIZE;
    let Distinct {
        item_slot, first, ..
    } = Distinct::of(situations, n, false);
    if first.len() == n {
        // All distinct: record number i is item i, so the odds go straight into place.
        return odds_distinct(situations, &first, cfg, out);
    }
    let mut once = vec![0u8; first.len() * ODDS_SIZE];
    odds_distinct(situations, &first, cfg, &mut once)?;
    for (&slot, out) in item_slot.iter().zip(out.chunks_exact_mut(ODDS_SIZE)) {
        let at = slot as usize * ODDS_SIZE;
        out.copy_from_slice(&once[at..at + ODDS_SIZE]);
    }
    Ok(())
}

/// Exact odds of many situations given as packed records (36 bytes each), the loop in Rust
/// with the GIL released and shared among the cores for long batches: 31 bytes a situation
/// (the 4×4 table of outcome pairs, each side's counts, the five margins and the two factors),
/// the values `odds_many` gives; the first that fails raises, naming its item.
#[pyfunction]
#[pyo3(signature = (situations, config=None))]
pub fn odds_packed<'py>(
    py: Python<'py>,
    situations: &Bound<'py, PyAny>,
    config: Option<&Bound<'py, RulesConfig>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let situations = bytes_arg(situations, "situations")?;
    if situations.len() % SITUATION_SIZE != 0 {
        return Err(errors::invalid_argument(format!(
            "situations hold {SITUATION_SIZE} bytes a record, not {} bytes",
            situations.len()
        )));
    }
    let n = situations.len() / SITUATION_SIZE;
    let cfg = config_of(config);
    let situations = &*situations;
    let mut out = vec![0u8; n * ODDS_SIZE];
    let done = errors::guard(|| Ok(py.detach(|| odds_all(situations, cfg, &mut out))))?;
    done.map_err(|(i, e)| item_error(i, e))?;
    Ok(PyBytes::new(py, &out))
}

/// Pack situations into records (36 bytes each, in order), for `resolve_packed` and
/// `odds_packed`.
#[pyfunction]
pub fn pack_situations<'py>(
    py: Python<'py>,
    situations: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let many: Vec<Bound<'_, PySituation>> = situations.extract().map_err(|_| {
        errors::invalid_argument("situations must be a sequence of Situation objects")
    })?;
    let mut out = vec![0u8; many.len() * SITUATION_SIZE];
    for (s, out) in many.iter().zip(out.chunks_exact_mut(SITUATION_SIZE)) {
        pack_situation(&s.get().0, out);
    }
    Ok(PyBytes::new(py, &out))
}

/// The situations packed in `data` (36 bytes a record); a record that is not one raises
/// `ArgumentError`, naming its item and byte.
#[pyfunction]
pub fn unpack_situations(data: &Bound<'_, PyAny>) -> PyResult<Vec<PySituation>> {
    let data = bytes_arg(data, "data")?;
    if data.len() % SITUATION_SIZE != 0 {
        return Err(errors::invalid_argument(format!(
            "situations hold {SITUATION_SIZE} bytes a record, not {} bytes",
            data.len()
        )));
    }
    data.chunks_exact(SITUATION_SIZE)
        .enumerate()
        .map(|(i, r)| {
            unpack_situation(r)
                .map(PySituation)
                .map_err(|b| item_error(i, ItemError::Record(b)))
        })
        .collect()
}

/// Add the packed path's functions and sizes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(resolve_packed, m)?)?;
    m.add_function(wrap_pyfunction!(odds_packed, m)?)?;
    m.add_function(wrap_pyfunction!(pack_situations, m)?)?;
    m.add_function(wrap_pyfunction!(unpack_situations, m)?)?;
    m.add("SITUATION_SIZE", SITUATION_SIZE)?;
    m.add("RESULT_SIZE", RESULT_SIZE)?;
    m.add("ODDS_SIZE", ODDS_SIZE)?;
    // The numbering of the packed outcome and band bytes (`as u8`, the order dbcore declares
    // them; `Outcome::ALL` is that order too).
    debug_assert!(Outcome::ALL
        .iter()
        .enumerate()
        .all(|(i, &o)| o as usize == i));
    let bands = [Band::Higher, Band::Equal, Band::Beaten, Band::Doubled];
    m.add("BANDS", bands.iter().map(name_of).collect::<Vec<_>>())?;
    Ok(())
}
