//! `dbcore simulate`: many seeded battles ([`dbcore::simulate`]) told as a table of results with
//! Wilson intervals and a text histogram of losses, or as JSON lines or CSV of the records, each
//! line written as its battle finishes (the batch is streamed: only its summary is kept, so a
//! batch of any size takes the same memory). Formatting only: every battle and every number is
//! dbcore's.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64};

use dbcore::simulate::{self, BattleSummary, Control, Rate, Request, Source, Streamed};

use crate::commands::Failure;

/// Set by the SIGINT handler of [`cancel_on_interrupt`]: the cancel flag of `dbcore simulate`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit code of a batch stopped by Ctrl-C: 128 + SIGINT, as shells report it.
pub const INTERRUPTED_EXIT_CODE: u8 = 130;

extern "C" fn on_sigint(_: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Make Ctrl-C (SIGINT) cancel the batch instead of killing the program, and hand back the flag
/// it sets, for [`run`]'s `cancel`: the battles under way finish, none starts, and the caller
/// prints what finished. The handler is installed once with `SA_RESETHAND`, so a second Ctrl-C
/// kills the program as usual (for a person who will not wait for the battles under way).
pub fn cancel_on_interrupt() -> &'static AtomicBool {
    // SAFETY: `sigaction` with a zeroed struct, an empty mask and a handler that only stores to
    // a static atomic (async-signal-safe); the old action is not needed.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
    }
    &INTERRUPTED
}

/// How the records are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The table of results and the histogram.
    Table,
    /// One record a line, as JSON.
    JsonLines,
    /// One record a line, comma-separated, with a header line.
    Csv,
}

/// Run `request`, watched through `cancel` and `done` (the caller may draw progress from it),
/// handing each record to `sink` in index order as it finishes ([`simulate::simulate_each`]).
pub fn run(
    request: &Request,
    cancel: &AtomicBool,
    done: &AtomicU64,
    sink: impl FnMut(BattleSummary) -> ControlFlow<()>,
) -> Result<Streamed, Failure> {
    simulate::simulate_each(
        request,
        Control {
            cancel: Some(cancel),
            done: Some(done),
        },
        sink,
    )
    .map_err(|e| refused(request, &e))
}

/// The armies' names of `request`'s batch, found before any battle (for the CSV header).
pub fn armies(request: &Request) -> Result<Vec<String>, Failure> {
    simulate::army_names(&request.source).map_err(|e| refused(request, &e))
}

fn refused(request: &Request, e: &simulate::SimulateError) -> Failure {
    let mut lines = vec![e.to_string()];
    if let Source::Lists(ids) = &request.source {
        lines.extend(ids.iter().filter_map(|id| variants_hint(id)));
    }
    Failure(lines)
}

/// For a list named without its variant letter (`II/5`), the variants to choose from.
fn variants_hint(id: &str) -> Option<String> {
    let parsed: dbcore::armies::ListId = id.trim().parse().ok()?;
    if parsed.variant.is_some() || dbcore::armies::list(&parsed).is_some() {
        return None;
    }
    let variants = dbcore::armies::resolve(parsed);
    if variants.is_empty() {
        return None;
    }
    let names: Vec<String> = variants
        .iter()
        .map(|l| format!("{} ({})", l.id, l.name))
        .collect();
    Some(format!(
        "{id} is a list of variants; name one: {}",
        names.join(", ")
    ))
}

/// The line of one record in `format` (its newline included), or nothing for the table, which
/// is written at the end from the summary. `armies` is the number of armies (CSV columns).
pub fn line(r: &BattleSummary, format: Format, armies: usize) -> Result<String, Failure> {
    match format {
        Format::Table => Ok(String::new()),
        Format::JsonLines => {
            let mut out = serde_json::to_string(r).map_err(|e| Failure(vec![e.to_string()]))?;
            out.push('\n');
            Ok(out)
        }
        Format::Csv => Ok(csv_line(r, armies)),
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn rate_cells(r: &Rate) -> String {
    format!(
        "{:>7} {:>7}  {:>6} to {:>6}  (± {})",
        r.count,
        pct(r.rate),
        pct(r.low),
        pct(r.high),
        pct(r.margin())
    )
}

/// The table of results, the means and the histogram of losses.
pub fn table(sim: &Streamed, request: &Request) -> String {
    let s = &sim.summary;
    // The bundled lists' army names already end in their id: "... Army (II/56)".
    let names = &s.armies;
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    let mut out = String::new();
    let _ = writeln!(out, "DBA 3.0: {}", names.join(" against "));
    let _ = writeln!(
        out,
        "{} battles (indices {} to {}), master seed {}, at most {} bounds each{}",
        s.battles,
        request.first,
        (request.first + request.battles).saturating_sub(1),
        request.seed,
        request.max_bounds,
        if sim.cancelled {
            format!(", cancelled after {} of {}", s.battles, request.battles)
        } else {
            String::new()
        }
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:width$}  {:>7} {:>7}  95% Wilson interval",
        "", "battles", "rate"
    );
    for (n, w) in names.iter().zip(&s.wins) {
        let _ = writeln!(out, "{:width$}  {}", format!("{n} wins"), rate_cells(w));
    }
    let _ = writeln!(out, "{:width$}  {}", "no winner", rate_cells(&s.draws));
    let _ = writeln!(
        out,
        "{:width$}  (bound limit {}, driver stalled {})",
        "", s.bound_limit, s.stalled
    );
    if s.failed > 0 {
        let _ = writeln!(
            out,
            "{} battles failed in the pre-battle and are left out of the rates",
            s.failed
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "mean bounds played: {:.1}", s.mean_bounds);
    let _ = writeln!(
        out,
        "{:width$}  {:>11}  {:>11}  {:>12}",
        "", "mean losses", "camp sacked", "general lost"
    );
    for (a, n) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:width$}  {:>11.2}  {:>11}  {:>12}",
            n,
            s.mean_losses[a],
            pct(s.camp_sacked[a].rate),
            pct(s.general_lost[a].rate)
        );
    }
    for (a, n) in names.iter().enumerate() {
        let _ = writeln!(out);
        let _ = writeln!(out, "losses of {n} at the end (§13.2 count):");
        out += &histogram(&s.losses_histogram[a], s.fought);
    }
    out
}

/// One bar a loss count, the longest 40 characters.
fn histogram(counts: &[u64], total: u64) -> String {
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut out = String::new();
    for (k, &c) in counts.iter().enumerate() {
        let bar = (c * 40).div_ceil(top) as usize;
        let share = if total == 0 {
            0.0
        } else {
            c as f64 / total as f64
        };
        let _ = writeln!(
            out,
            "{k:>3} | {:<40} {:>6} {:>7}",
            "#".repeat(bar),
            c,
            pct(share)
        );
    }
    out
}

/// The CSV header line: one column per field, per-army fields as `losses_0`, `losses_1`, ...
pub fn csv_header(armies: usize) -> String {
    let mut out = String::from("index,seed,winner,bounds,ended");
    for field in ["losses", "camp_sacked", "general_lost"] {
        for a in 0..armies {
            let _ = write!(out, ",{field}_{a}");
        }
    }
    out += ",error\n";
    out
}

/// One record as a CSV line, in the columns of [`csv_header`].
pub fn csv_line(r: &BattleSummary, armies: usize) -> String {
    let ended = serde_json::to_value(r.ended)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut line = format!(
        "{},{},{},{},{}",
        r.index,
        r.seed,
        r.winner.map(|w| w.to_string()).unwrap_or_default(),
        r.bounds,
        ended
    );
    for a in 0..armies {
        let _ = write!(line, ",{}", r.losses.get(a).copied().unwrap_or(0));
    }
    for v in [&r.camp_sacked, &r.general_lost] {
        for a in 0..armies {
            let _ = write!(line, ",{}", v.get(a).copied().unwrap_or(false));
        }
    }
    // Quoted, with quotes doubled (RFC 4180), as an error message may hold commas.
    let error = r
        .error
        .as_ref()
        .map(|e| format!("\"{}\"", e.replace('"', "\"\"")))
        .unwrap_or_default();
    let _ = writeln!(line, ",{error}");
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim(battles: u64, format: Format) -> (Streamed, Request, String) {
        let mut r = Request::lists("II/56", "II/5a", battles, 1);
        r.max_bounds = 8;
        let mut out = String::new();
        let s = run(&r, &AtomicBool::new(false), &AtomicU64::new(0), |rec| {
            out += &line(&rec, format, 2).unwrap();
            ControlFlow::Continue(())
        })
        .unwrap();
        (s, r, out)
    }

    #[test]
    fn the_table_names_both_armies_with_their_intervals_and_a_histogram() {
        let (s, r, lines) = sim(2, Format::Table);
        assert_eq!(lines, "");
        let t = table(&s, &r);
        assert!(t.contains("(II/56)") && t.contains("(II/5a)"), "{t}");
        assert!(t.contains("wins") && t.contains('%'), "{t}");
        assert!(
            t.contains("95% Wilson interval") && t.contains("no winner"),
            "{t}"
        );
        assert!(t.contains("losses of") && t.contains(" | "), "{t}");
    }

    #[test]
    fn json_lines_and_csv_have_one_line_a_record() {
        let (_, r, j) = sim(2, Format::JsonLines);
        let back: Vec<BattleSummary> = j
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let whole = simulate::simulate(&r, Control::default()).unwrap();
        assert_eq!(back, whole.records);
        let (_, _, c) = sim(2, Format::Csv);
        let c = csv_header(2) + &c;
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[0],
            "index,seed,winner,bounds,ended,losses_0,losses_1,camp_sacked_0,camp_sacked_1,general_lost_0,general_lost_1,error"
        );
        assert!(lines[1].starts_with(&format!("0,{},", whole.records[0].seed)));
        assert_eq!(lines[1].split(',').count(), 12);
    }

    #[test]
    fn a_list_without_its_variant_letter_is_refused_with_the_variants() {
        let r = Request::lists("II/56", "II/5", 1, 1);
        let Failure(lines) = run(&r, &AtomicBool::new(false), &AtomicU64::new(0), |_| {
            ControlFlow::Continue(())
        })
        .unwrap_err();
        assert!(lines.iter().any(|l| l.contains("II/5a")), "{lines:?}");
    }

    #[test]
    fn histogram_bars_scale_to_the_largest_count() {
        let h = histogram(&[1, 4, 2], 7);
        let bars: Vec<usize> = h
            .lines()
            .map(|l| l.chars().filter(|&c| c == '#').count())
            .collect();
        assert_eq!(bars, vec![10, 40, 20]);
    }
}
