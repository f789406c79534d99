//! Many battles: a batch of seeded games played by the demonstration driver ([`crate::driver`]),
//! from one battle set-up, from two armies, or from two bundled list ids, on as many threads as
//! asked, with one compact [`BattleSummary`] per battle and a [`Summary`] of the batch whose rates
//! carry Wilson score intervals.
//!
//! # Seeds
//! Battle `i` of a batch with master seed `m` is played with dice seeded by
//! [`battle_seed`]`(m, i)`: the `i + 1`-th output of a SplitMix64 generator started at `m`, that
//! is `mix(m + (i + 1) * 0x9E37_79B9_7F4A_7C15)` (wrapping arithmetic, `mix` SplitMix64's
//! finaliser). It depends on nothing but `(m, i)`, so
//!
//! - every battle is reproducible alone: `driver::play_lists(a, b, record.seed, max_bounds)` (or
//!   `dbcore play A B --seed SEED`) plays it again;
//! - a batch split into index ranges (`first`, `battles`), run on any number of threads or
//!   machines, gives the same records as one run, merged in index order.
//!
//! # Readings
//! - A draw is a battle without a winner: the bound limit came first, or the driver found nothing
//!   it may do (both counted in [`Summary::draws`]). A battle whose pre-battle the driver could
//!   not finish is `failed`: it is kept as a record but left out of every rate.
//! - Rates are out of the battles that were played (all but the failed), each with its 95% Wilson
//!   score interval, which stays inside 0..1 and is honest at rates near 0 or 1 where the normal
//!   approximation is not.
//!
//! No I/O: threads come from [`std::thread::scope`]; cancellation and progress are an
//! [`AtomicBool`] and an [`AtomicU64`] the caller owns.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::battle::prebattle::{GameRecord, ListsError, PrebattleError, PrebattleSetup};
use crate::battle::{losses, Battle, BattleRecord, BattleSetup, Event, SetupError, Status};
use crate::dice::SeededDice;
use crate::driver::{self, GameError};
use crate::error::{ErrorCode, ErrorInfo};
use crate::limits::{self, LimitError};

/// Where each battle of a batch starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A deployed battle: only the dice differ from one battle to the next.
    Setup(BattleSetup),
    /// Two armies: each battle plays its own pre-battle (aggression, terrain, deployment).
    Armies(PrebattleSetup),
    /// The default armies of two bundled lists (`["II/56", "II/5"]`), as [`Source::Armies`].
    Lists([String; 2]),
}

fn default_max_bounds() -> u32 {
    DEFAULT_MAX_BOUNDS
}

fn default_threads() -> usize {
    1
}

/// Bounds a simulated battle may last unless told otherwise: a DBA game seldom passes 30.
pub const DEFAULT_MAX_BOUNDS: u32 = 60;

/// A batch of battles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Where each battle's set-up comes from: two army lists, or a given set-up.
    pub source: Source,
    /// How many battles.
    pub battles: u64,
    /// The master seed every battle's seed is derived from ([`battle_seed`]).
    #[serde(default)]
    pub seed: u64,
    /// The index of the first battle: a batch split into chunks runs `first..first + battles`
    /// of the same master seed in each.
    #[serde(default)]
    pub first: u64,
    /// Bounds each battle may last (at most [`limits::MAX_DRIVEN_BOUNDS`]).
    #[serde(default = "default_max_bounds")]
    pub max_bounds: u32,
    /// Worker threads: 1 plays in the calling thread, 0 one per core.
    #[serde(default = "default_threads")]
    pub threads: usize,
    /// Keep each battle's full record (set-up or armies plus every action), replayable.
    #[serde(default)]
    pub full_records: bool,
}

impl Request {
    /// `battles` battles between the default armies of two bundled lists, master seed `seed`,
    /// on one thread.
    pub fn lists(first: &str, second: &str, battles: u64, seed: u64) -> Request {
        Request::new(
            Source::Lists([first.to_string(), second.to_string()]),
            battles,
            seed,
        )
    }

    /// `battles` battles from `source`, master seed `seed`, on one thread.
    pub fn new(source: Source, battles: u64, seed: u64) -> Request {
        Request {
            source,
            battles,
            seed,
            first: 0,
            max_bounds: DEFAULT_MAX_BOUNDS,
            threads: 1,
            full_records: false,
        }
    }
}

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// An army lost (§13.2).
    Decided,
    /// The bound limit came first.
    BoundLimit,
    /// The driver found nothing it may do before either.
    Stalled,
    /// The driver could not finish the pre-battle: no battle was fought.
    Failed,
}

/// A battle's full record, replayable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FullRecord {
    /// From two armies: the pre-battle and the battle ([`GameRecord::replay`]).
    Game(GameRecord),
    /// From a set-up ([`Battle::replay`]).
    Battle(BattleRecord),
}

/// One battle of a batch, compactly. Per-army vectors are in army order (for lists, the order
/// they were named in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSummary {
    /// Its index in the batch.
    pub index: u64,
    /// The seed its dice were drawn from ([`battle_seed`]): replays it alone.
    pub seed: u64,
    /// The army that won, if one did.
    pub winner: Option<usize>,
    /// Bounds begun.
    pub bounds: u32,
    /// Each army's losses as §13.2 counts them (elements, the first double, the general, the
    /// camp, Cities held by the enemy).
    pub losses: Vec<u32>,
    /// Each army's camp sacked (§4.7).
    pub camp_sacked: Vec<bool>,
    /// Each army's general's element lost (§13.2).
    pub general_lost: Vec<bool>,
    /// How the battle ended: decided, the bound limit, stalled, or failed.
    pub ended: Ending,
    /// Why a failed battle failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The full record, when asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<FullRecord>,
}

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rate {
    /// How many times it happened.
    pub count: u64,
    /// Out of how many battles.
    pub out_of: u64,
    /// `count / out_of` (0 when `out_of` is 0).
    pub rate: f64,
    /// The lower end of the 95% Wilson score interval.
    pub low: f64,
    /// The upper end of the 95% Wilson score interval.
    pub high: f64,
}

/// z for a two-sided 95% interval: the 0.975 quantile of the standard normal.
pub const Z_95: f64 = 1.959_963_984_540_054;

impl Rate {
    /// `count` out of `out_of` with its 95% Wilson interval.
    pub fn new(count: u64, out_of: u64) -> Rate {
        let (low, high) = wilson(count, out_of, Z_95);
        Rate {
            count,
            out_of,
            rate: if out_of == 0 {
                0.0
            } else {
                count as f64 / out_of as f64
            },
            low,
            high,
        }
    }

    /// Half the interval's width: the "± 3%" a reader quotes.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The Wilson score interval of `k` successes in `n` trials for the normal quantile `z`:
/// `(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)` with `p = k/n`. With no trials it
/// says nothing: `(0, 1)`.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// What a batch came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// The armies' names, in army order.
    pub armies: Vec<String>,
    /// Records summarised (failed ones included).
    pub battles: u64,
    /// Battles fought: all but the failed. Every rate is out of these.
    pub fought: u64,
    /// Battles that failed before any fighting (the pre-battle could not be finished): in no rate.
    pub failed: u64,
    /// Each army's wins.
    pub wins: Vec<Rate>,
    /// Battles no army won (bound limit or stalled).
    pub draws: Rate,
    /// Battles that ended by the bound limit, and stalled, out of the fought.
    pub bound_limit: u64,
    /// Battles that stalled: the driver found nothing it might do.
    pub stalled: u64,
    /// Mean bounds of the fought battles.
    pub mean_bounds: f64,
    /// Each army's mean §13.2 losses over the fought battles.
    pub mean_losses: Vec<f64>,
    /// `losses_histogram[a][k]`: fought battles in which army `a` ended with `k` losses.
    pub losses_histogram: Vec<Vec<u64>>,
    /// Each army's camp sacked, and general lost, out of the fought.
    pub camp_sacked: Vec<Rate>,
    /// Each army's general lost, out of the fought.
    pub general_lost: Vec<Rate>,
}

impl Summary {
    /// Summarise `records` of a batch between `armies` (any order; each counted once as given).
    pub fn of(armies: Vec<String>, records: &[BattleSummary]) -> Summary {
        let n_armies = armies.len();
        let fought: Vec<&BattleSummary> = records
            .iter()
            .filter(|r| r.ended != Ending::Failed)
            .collect();
        let f = fought.len() as u64;
        let count = |pred: &dyn Fn(&BattleSummary) -> bool| -> u64 {
            fought.iter().filter(|r| pred(r)).count() as u64
        };
        let per_army = |pred: &dyn Fn(&BattleSummary, usize) -> bool| -> Vec<Rate> {
            (0..n_armies)
                .map(|a| Rate::new(count(&|r| pred(r, a)), f))
                .collect()
        };
        let mean = |total: u64| if f == 0 { 0.0 } else { total as f64 / f as f64 };
        let mut histogram = vec![Vec::<u64>::new(); n_armies];
        for r in &fought {
            for (a, h) in histogram.iter_mut().enumerate() {
                let k = r.losses.get(a).copied().unwrap_or(0) as usize;
                if h.len() <= k {
                    h.resize(k + 1, 0);
                }
                h[k] += 1;
            }
        }
        Summary {
            battles: records.len() as u64,
            fought: f,
            failed: records.len() as u64 - f,
            wins: per_army(&|r, a| r.winner == Some(a)),
            draws: Rate::new(count(&|r| r.winner.is_none()), f),
            bound_limit: count(&|r| r.ended == Ending::BoundLimit),
            stalled: count(&|r| r.ended == Ending::Stalled),
            mean_bounds: mean(fought.iter().map(|r| u64::from(r.bounds)).sum()),
            mean_losses: (0..n_armies)
                .map(|a| {
                    mean(
                        fought
                            .iter()
                            .map(|r| u64::from(r.losses.get(a).copied().unwrap_or(0)))
                            .sum(),
                    )
                })
                .collect(),
            losses_histogram: histogram,
            camp_sacked: per_army(&|r, a| r.camp_sacked.get(a).copied().unwrap_or(false)),
            general_lost: per_army(&|r, a| r.general_lost.get(a).copied().unwrap_or(false)),
            armies,
        }
    }
}

/// A batch's records, in index order, and their summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Simulation {
    /// One record per battle, in index order.
    pub records: Vec<BattleSummary>,
    /// What they came to.
    pub summary: Summary,
    /// Cancelled before every battle was played: `records` holds those that finished (a set of
    /// indices, not always a prefix, when several threads ran).
    pub cancelled: bool,
}

/// Why a batch could not start. Each battle's own troubles are in its record instead.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimulateError {
    /// An army list id or list could not be used.
    #[error(transparent)]
    Lists(#[from] ListsError),
    /// The set-up is not valid.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The pre-battle could not be played.
    #[error(transparent)]
    Prebattle(#[from] PrebattleError),
    /// A size or number is outside the limits of [`crate::limits`].
    #[error(transparent)]
    Limit(#[from] LimitError),
}

impl ErrorInfo for SimulateError {
    fn code(&self) -> ErrorCode {
        match self {
            SimulateError::Lists(e) => e.code(),
            SimulateError::Setup(e) => e.code(),
            SimulateError::Prebattle(e) => e.code(),
            SimulateError::Limit(e) => e.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            SimulateError::Lists(e) => e.rule(),
            SimulateError::Setup(e) => e.rule(),
            SimulateError::Prebattle(e) => e.rule(),
            SimulateError::Limit(e) => e.rule(),
        }
    }
}

/// What the caller watches a batch through: a flag it may set to stop it (battles under way
/// finish; none starts after) and a counter of battles finished. Both optional.
#[derive(Debug, Clone, Copy, Default)]
pub struct Control<'a> {
    /// Set it to stop the batch: battles under way finish, none starts after.
    pub cancel: Option<&'a AtomicBool>,
    /// Counts battles finished, for a progress bar.
    pub done: Option<&'a AtomicU64>,
}

/// The seed of battle `index` of a batch with master seed `master` (see the module docs).
pub fn battle_seed(master: u64, index: u64) -> u64 {
    let mut z = master.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A batch's start, checked once.
enum Start {
    Battle(Box<Battle>),
    Armies(PrebattleSetup),
}

impl Start {
    fn new(source: &Source) -> Result<Start, SimulateError> {
        Ok(match source {
            Source::Setup(s) => Start::Battle(Box::new(Battle::new(s.clone())?)),
            Source::Armies(a) => {
                crate::battle::prebattle::Prebattle::new(a.clone())?;
                Start::Armies(a.clone())
            }
            Source::Lists([a, b]) => {
                let setup = PrebattleSetup::from_lists(a, b)?;
                crate::battle::prebattle::Prebattle::new(setup.clone())?;
                Start::Armies(setup)
            }
        })
    }

    fn armies(&self) -> Vec<String> {
        match self {
            Start::Battle(b) => b.setup().armies.iter().map(|a| a.name.clone()).collect(),
            Start::Armies(s) => s.armies.iter().map(|a| a.name.clone()).collect(),
        }
    }

    fn play(&self, index: u64, seed: u64, max_bounds: u32, full: bool) -> BattleSummary {
        let armies = match self {
            Start::Battle(b) => b.setup().armies.len(),
            Start::Armies(s) => s.armies.len(),
        };
        tracing::debug!(index, seed, "simulated battle starts");
        let played = match self {
            Start::Battle(b) => {
                let mut battle = Battle::clone(b);
                let mut dice = SeededDice::new(seed);
                let (events, verdict) = driver::drive(&mut battle, &mut dice, max_bounds);
                let record = full.then(|| FullRecord::Battle(battle.record()));
                Ok((battle, events, verdict, record))
            }
            Start::Armies(s) => {
                driver::play_game_to_end(s.clone(), seed, max_bounds).map(|(game, battle)| {
                    let record = full.then_some(FullRecord::Game(game.record));
                    (battle, game.events, game.verdict, record)
                })
            }
        };
        let summary = match played {
            Ok((battle, events, verdict, record)) => {
                let sacked: Vec<bool> = (0..armies)
                    .map(|a| {
                        events.contains(&Event::CampSacked {
                            army: a,
                            command: None,
                        })
                    })
                    .collect();
                let ended = if verdict.is_some() {
                    Ending::Decided
                } else if battle.bound() > max_bounds {
                    Ending::BoundLimit
                } else {
                    Ending::Stalled
                };
                BattleSummary {
                    index,
                    seed,
                    winner: verdict.and_then(|v| v.winner),
                    bounds: battle.bound().min(max_bounds),
                    losses: (0..armies)
                        .map(|a| {
                            losses(battle.elements(), a, sacked[a], battle.city_held(a)).total()
                        })
                        .collect(),
                    general_lost: (0..armies)
                        .map(|a| {
                            battle.elements().iter().any(|e| {
                                e.army == a && e.general && matches!(e.status, Status::Lost { .. })
                            })
                        })
                        .collect(),
                    camp_sacked: sacked,
                    ended,
                    error: None,
                    record,
                }
            }
            Err(e) => failed(index, seed, armies, &e),
        };
        tracing::debug!(
            index,
            seed,
            winner = summary.winner,
            bounds = summary.bounds,
            ended = ?summary.ended,
            "simulated battle ends"
        );
        summary
    }
}

fn failed(index: u64, seed: u64, armies: usize, e: &GameError) -> BattleSummary {
    BattleSummary {
        index,
        seed,
        winner: None,
        bounds: 0,
        losses: vec![0; armies],
        camp_sacked: vec![false; armies],
        general_lost: vec![false; armies],
        ended: Ending::Failed,
        error: Some(e.to_string()),
        record: None,
    }
}

/// Play a batch: every problem of the start is refused before any battle; then battles
/// `first..first + battles` are played on `threads` threads and come back in index order.
pub fn simulate(request: &Request, control: Control<'_>) -> Result<Simulation, SimulateError> {
    check_limits(request)?;
    simulate_checked(request, control)
}

/// Every problem [`simulate`] would refuse `request` for, found without playing a battle: a
/// caller that runs the batch elsewhere (a thread of its own) reports them first.
pub fn check(request: &Request) -> Result<(), SimulateError> {
    check_limits(request)?;
    Start::new(&request.source).map(|_| ())
}

fn check_limits(request: &Request) -> Result<(), SimulateError> {
    limits::check_range(
        &|| "battles".into(),
        request.battles as f64,
        0.0,
        limits::MAX_SIMULATED_BATTLES as f64,
    )?;
    limits::check_range(
        &|| "first".into(),
        request.first as f64,
        0.0,
        (limits::MAX_BATTLE_INDEX - request.battles) as f64,
    )?;
    limits::check_range(
        &|| "max_bounds".into(),
        f64::from(request.max_bounds),
        0.0,
        limits::MAX_DRIVEN_BOUNDS as f64,
    )?;
    limits::check_range(
        &|| "threads".into(),
        request.threads as f64,
        0.0,
        limits::MAX_SIMULATION_THREADS as f64,
    )?;
    Ok(())
}

fn simulate_checked(request: &Request, control: Control<'_>) -> Result<Simulation, SimulateError> {
    let start = Start::new(&request.source)?;
    let threads = match request.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .min(usize::try_from(request.battles).unwrap_or(usize::MAX))
    .max(1);
    tracing::debug!(
        battles = request.battles,
        first = request.first,
        seed = request.seed,
        threads,
        "simulation starts"
    );
    let next = AtomicU64::new(0);
    let cancelled = || control.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    // Each worker takes the next unplayed offset until none is left or the caller cancels.
    let work = || {
        let mut out = Vec::new();
        loop {
            if cancelled() {
                break;
            }
            let offset = next.fetch_add(1, Ordering::Relaxed);
            if offset >= request.battles {
                break;
            }
            let index = request.first + offset;
            let seed = battle_seed(request.seed, index);
            out.push(start.play(index, seed, request.max_bounds, request.full_records));
            if let Some(d) = control.done {
                d.fetch_add(1, Ordering::Relaxed);
            }
        }
        out
    };
    let mut records: Vec<BattleSummary> = if threads == 1 {
        work()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
            handles
                .into_iter()
                .flat_map(|h| match h.join() {
                    Ok(v) => v,
                    Err(panic) => std::panic::resume_unwind(panic),
                })
                .collect()
        })
    };
    records.sort_by_key(|r| r.index);
    let was_cancelled = (records.len() as u64) < request.battles;
    tracing::debug!(
        played = records.len(),
        cancelled = was_cancelled,
        "simulation ends"
    );
    Ok(Simulation {
        summary: Summary::of(start.armies(), &records),
        records,
        cancelled: was_cancelled,
    })
}

/// The armies' names of a batch from `source`, as its summary names them (for merging chunks
/// run elsewhere: [`Summary::of`]).
pub fn army_names(source: &Source) -> Result<Vec<String>, SimulateError> {
    Ok(Start::new(source)?.armies())
}
