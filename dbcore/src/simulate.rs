//! Many battles: a batch of seeded games played by the demonstration driver ([`crate::driver`]),
//! from one battle set-up, from two armies, or from two bundled list ids, on as many threads as
//! asked, with one compact [`BattleSummary`] per battle and a [`Summary`] of the batch whose rates
//! carry Wilson score intervals.
//!
//! # Streaming
//! [`simulate_each`] hands each battle's record to a sink the caller gives, in index order as
//! the battles finish, and keeps only a [`Tally`] of fixed size: its memory is the same for ten
//! battles and for the 10^8 of [`limits::MAX_SIMULATED_BATTLES`] (a test with a counting
//! allocator checks it). [`simulate`] is the same batch collected into a [`Simulation`], for
//! batches whose records fit in memory (about half a KiB each).
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

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::battle::prebattle::{GameRecord, ListsError, PrebattleError, PrebattleSetup};
use crate::battle::{losses, Battle, BattleRecord, BattleSetup, Event, SetupError, Status};
use crate::dice::SeededDice;
use crate::driver::{self, DriveError};
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
    /// Refuses, naming it, a record no battle could have ended with ([`Tally::add`]).
    pub fn of(armies: Vec<String>, records: &[BattleSummary]) -> Result<Summary, LimitError> {
        let mut tally = Tally::new(armies.len());
        for (i, r) in records.iter().enumerate() {
            tally.add(r).map_err(|mut e| {
                e.what = format!("records[{i}].{}", e.what);
                e
            })?;
        }
        Ok(tally.summary(armies))
    }
}

/// The most §13.2 losses one army can have in a battle: every element of the largest set-up
/// ([`limits::MAX_ELEMENTS`]) lost, each counted at most twice (§13.2 counts some double).
pub const MAX_LOSSES: u32 = 2 * limits::MAX_ELEMENTS as u32;

/// The running counts a [`Summary`] is made from: a fixed size however many battles are added
/// (but for the histogram's length, which grows with the largest loss count seen), so a batch
/// streamed to a sink keeps this and not its records. Adding the records of a batch in any
/// order, or tallies of its chunks with [`Tally::merge`], gives the same summary as
/// [`Summary::of`] over all of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    battles: u64,
    fought: u64,
    wins: Vec<u64>,
    draws: u64,
    bound_limit: u64,
    stalled: u64,
    total_bounds: u64,
    total_losses: Vec<u64>,
    losses_histogram: Vec<Vec<u64>>,
    camp_sacked: Vec<u64>,
    general_lost: Vec<u64>,
}

impl Tally {
    /// Nothing counted yet, for a batch between `armies` armies.
    pub fn new(armies: usize) -> Tally {
        Tally {
            wins: vec![0; armies],
            total_losses: vec![0; armies],
            losses_histogram: vec![Vec::new(); armies],
            camp_sacked: vec![0; armies],
            general_lost: vec![0; armies],
            ..Tally::default()
        }
    }

    /// Records counted so far (failed ones included).
    pub fn battles(&self) -> u64 {
        self.battles
    }

    /// Count one battle's record, or refuse it, counting nothing, if no battle could have ended
    /// with it: an army losing more than [`MAX_LOSSES`] (a record read from outside, such as a
    /// chunk's from another machine, would otherwise size the losses histogram).
    pub fn add(&mut self, r: &BattleSummary) -> Result<(), LimitError> {
        for (a, &k) in r.losses.iter().enumerate() {
            limits::check_range(
                &|| format!("losses[{a}]"),
                f64::from(k),
                0.0,
                f64::from(MAX_LOSSES),
            )?;
        }
        // Saturating, and each per-army count fitted to the armies: a tally read back from
        // outside (Python merges chunks through one) is counted on without a panic.
        let inc = |n: &mut u64, by: u64| *n = n.saturating_add(by);
        inc(&mut self.battles, 1);
        if r.ended == Ending::Failed {
            return Ok(());
        }
        inc(&mut self.fought, 1);
        if r.winner.is_none() {
            inc(&mut self.draws, 1);
        }
        match r.ended {
            Ending::BoundLimit => inc(&mut self.bound_limit, 1),
            Ending::Stalled => inc(&mut self.stalled, 1),
            Ending::Decided | Ending::Failed => {}
        }
        inc(&mut self.total_bounds, u64::from(r.bounds));
        let n = self.wins.len();
        for v in [
            &mut self.total_losses,
            &mut self.camp_sacked,
            &mut self.general_lost,
        ] {
            v.resize(n.max(v.len()), 0);
        }
        self.losses_histogram
            .resize(n.max(self.losses_histogram.len()), Vec::new());
        for a in 0..n {
            if r.winner == Some(a) {
                inc(&mut self.wins[a], 1);
            }
            let k = r.losses.get(a).copied().unwrap_or(0);
            inc(&mut self.total_losses[a], u64::from(k));
            let h = &mut self.losses_histogram[a];
            let k = k as usize;
            if h.len() <= k {
                h.resize(k + 1, 0);
            }
            inc(&mut h[k], 1);
            if r.camp_sacked.get(a).copied().unwrap_or(false) {
                inc(&mut self.camp_sacked[a], 1);
            }
            if r.general_lost.get(a).copied().unwrap_or(false) {
                inc(&mut self.general_lost[a], 1);
            }
        }
        Ok(())
    }

    /// Add the counts of `other`, a tally of other battles of the same batch (a chunk run
    /// elsewhere).
    pub fn merge(&mut self, other: &Tally) {
        let add = |mine: &mut Vec<u64>, theirs: &[u64]| {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m = m.saturating_add(*t);
            }
        };
        let inc = |n: &mut u64, by: u64| *n = n.saturating_add(by);
        inc(&mut self.battles, other.battles);
        inc(&mut self.fought, other.fought);
        inc(&mut self.draws, other.draws);
        inc(&mut self.bound_limit, other.bound_limit);
        inc(&mut self.stalled, other.stalled);
        inc(&mut self.total_bounds, other.total_bounds);
        add(&mut self.wins, &other.wins);
        add(&mut self.total_losses, &other.total_losses);
        add(&mut self.camp_sacked, &other.camp_sacked);
        add(&mut self.general_lost, &other.general_lost);
        if self.losses_histogram.len() < other.losses_histogram.len() {
            self.losses_histogram
                .resize(other.losses_histogram.len(), Vec::new());
        }
        for (m, t) in self
            .losses_histogram
            .iter_mut()
            .zip(&other.losses_histogram)
        {
            add(m, t);
        }
    }

    /// The summary of what was counted, for a batch between `armies` (their names, in army
    /// order).
    pub fn summary(&self, armies: Vec<String>) -> Summary {
        let n = armies.len();
        let f = self.fought;
        let at = |v: &[u64], a: usize| v.get(a).copied().unwrap_or(0);
        let mean = |total: u64| if f == 0 { 0.0 } else { total as f64 / f as f64 };
        let rates = |v: &[u64]| (0..n).map(|a| Rate::new(at(v, a), f)).collect();
        Summary {
            battles: self.battles,
            fought: f,
            failed: self.battles.saturating_sub(f),
            wins: rates(&self.wins),
            draws: Rate::new(self.draws, f),
            bound_limit: self.bound_limit,
            stalled: self.stalled,
            mean_bounds: mean(self.total_bounds),
            mean_losses: (0..n).map(|a| mean(at(&self.total_losses, a))).collect(),
            losses_histogram: (0..n)
                .map(|a| self.losses_histogram.get(a).cloned().unwrap_or_default())
                .collect(),
            camp_sacked: rates(&self.camp_sacked),
            general_lost: rates(&self.general_lost),
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

fn failed(index: u64, seed: u64, armies: usize, e: &DriveError) -> BattleSummary {
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

/// Play a batch and keep every record: every problem of the start is refused before any
/// battle; then battles `first..first + battles` are played on `threads` threads and come back
/// in index order. The records take memory in proportion to the batch (about half a KiB a
/// battle, far more with `full_records`): for a large batch, [`simulate_each`] hands each record
/// to a sink and keeps only the summary.
pub fn simulate(request: &Request, control: Control<'_>) -> Result<Simulation, SimulateError> {
    let mut records = Vec::new();
    let streamed = simulate_each(request, control, |r| {
        records.push(r);
        ControlFlow::Continue(())
    })?;
    Ok(Simulation {
        records,
        summary: streamed.summary,
        cancelled: streamed.cancelled,
    })
}

/// What a batch streamed by [`simulate_each`] came to: the summary of the records handed to the
/// sink, and whether the batch stopped before its end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Streamed {
    /// What the records handed to the sink came to.
    pub summary: Summary,
    /// Stopped before every battle was played (cancelled through [`Control`], or the sink said
    /// [`ControlFlow::Break`]): the summary counts the records the sink was given.
    pub cancelled: bool,
}

/// Play a batch as [`simulate`] does, but hand each battle's record to `sink` as soon as it and
/// every battle of a lower index have finished, and keep only the running [`Tally`]: the
/// memory a batch takes does not grow with its number of battles.
///
/// The sink is called on the calling thread, in index order, once a record. It returns
/// [`ControlFlow::Break`] to stop the batch (a closed output, say): battles under way finish and
/// are dropped, none starts after, and the result says `cancelled`. On several threads a worker
/// runs at most a few battles (4 a thread) ahead of the lowest battle not yet handed over, so
/// that a slow battle holds back only that many records. When the batch is cancelled through
/// [`Control`], the battles that finished are all handed over, in index order (a set of
/// indices, not always a prefix, when several threads ran).
pub fn simulate_each(
    request: &Request,
    control: Control<'_>,
    mut sink: impl FnMut(BattleSummary) -> ControlFlow<()>,
) -> Result<Streamed, SimulateError> {
    check_limits(request)?;
    let start = Start::new(&request.source)?;
    let armies = start.armies();
    let mut tally = Tally::new(armies.len());
    let mut give = |r: BattleSummary| {
        // A record this engine played ends within the limits; were it refused it would not be
        // counted, and the summary would show it as missing from `battles`.
        let _ = tally.add(&r);
        sink(r)
    };
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
    let cancelled = || control.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let play = |offset: u64| {
        let index = request.first + offset;
        let seed = battle_seed(request.seed, index);
        let r = start.play(index, seed, request.max_bounds, request.full_records);
        if let Some(d) = control.done {
            d.fetch_add(1, Ordering::Relaxed);
        }
        r
    };
    if threads == 1 {
        for offset in 0..request.battles {
            if cancelled() || give(play(offset)).is_break() {
                break;
            }
        }
    } else {
        let gate = Gate::new(4 * threads as u64);
        let next = AtomicU64::new(0);
        let (tx, rx) = mpsc::channel::<BattleSummary>();
        std::thread::scope(|s| {
            for _ in 0..threads {
                let tx = tx.clone();
                let (gate, next, play, cancelled) = (&gate, &next, &play, &cancelled);
                s.spawn(move || {
                    // A panic here stops the other workers rather than leave them waiting for
                    // a battle that will never be handed over; the scope then re-raises it.
                    let _stop = gate.stop_on_drop(true);
                    loop {
                        if cancelled() {
                            break;
                        }
                        let offset = next.fetch_add(1, Ordering::Relaxed);
                        if offset >= request.battles || !gate.room_for(offset, cancelled) {
                            break;
                        }
                        if tx.send(play(offset)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // The workers stop whenever this thread leaves, a panicking sink included.
            let _stop = gate.stop_on_drop(false);
            let mut waiting = BTreeMap::new();
            let mut handed = 0u64;
            let mut open = true;
            for r in rx {
                if !open {
                    continue;
                }
                waiting.insert(r.index - request.first, r);
                while let Some(r) = waiting.remove(&handed) {
                    handed += 1;
                    if give(r).is_break() {
                        open = false;
                        gate.stop();
                        break;
                    }
                }
                gate.handed(handed);
            }
            // Cancelled: what finished beyond a battle that never will, in index order.
            if open {
                for r in waiting.into_values() {
                    if give(r).is_break() {
                        break;
                    }
                }
            }
        });
    }
    let was_cancelled = tally.battles() < request.battles;
    tracing::debug!(
        played = tally.battles(),
        cancelled = was_cancelled,
        "simulation ends"
    );
    Ok(Streamed {
        summary: tally.summary(armies),
        cancelled: was_cancelled,
    })
}

/// How far ahead of the records handed over the workers of [`simulate_each`] may run, and the
/// word to stop.
struct Gate {
    window: u64,
    state: Mutex<(u64, bool)>,
    moved: Condvar,
}

impl Gate {
    fn new(window: u64) -> Gate {
        Gate {
            window,
            state: Mutex::new((0, false)),
            moved: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (u64, bool)> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wait until battle `offset` is within the window of those handed over; false when the
    /// batch is stopped or cancelled meanwhile. The battle at the window's start is always
    /// being played by a worker that does not wait, so the window always moves on.
    fn room_for(&self, offset: u64, cancelled: &dyn Fn() -> bool) -> bool {
        let mut state = self.lock();
        while !state.1 && offset >= state.0 + self.window {
            if cancelled() {
                return false;
            }
            state = self
                .moved
                .wait_timeout(state, Duration::from_millis(20))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        !state.1
    }

    fn handed(&self, handed: u64) {
        self.lock().0 = handed;
        self.moved.notify_all();
    }

    fn stop(&self) {
        self.lock().1 = true;
        self.moved.notify_all();
    }

    /// Stops the batch when dropped: always, or only while panicking.
    fn stop_on_drop(&self, only_on_panic: bool) -> StopOnDrop<'_> {
        StopOnDrop {
            gate: self,
            only_on_panic,
        }
    }
}

struct StopOnDrop<'a> {
    gate: &'a Gate,
    only_on_panic: bool,
}

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        if !self.only_on_panic || std::thread::panicking() {
            self.gate.stop();
        }
    }
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

/// The armies' names of a batch from `source`, as its summary names them (for merging chunks
/// run elsewhere: [`Summary::of`]).
pub fn army_names(source: &Source) -> Result<Vec<String>, SimulateError> {
    Ok(Start::new(source)?.armies())
}
