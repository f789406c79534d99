//! `dbcore`: the DBA 3.0 referee on the command line, and as a JSON-RPC server for table tools.

use std::io::{self, BufWriter, Write};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use dbcore_cli::commands::{self, Document, Failure, PlayOptions};
use dbcore_cli::http::{self, HttpConfig};
use dbcore_cli::human::{self, HumanOptions};
use dbcore_cli::rpc::{Limits, Referee};
use dbcore_cli::{odds, stdio};

#[derive(Parser)]
#[command(
    name = "dbcore",
    version,
    about = "A referee for DBA 3.0: play, odds, pictures, checks, and a JSON-RPC server for table tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log to stderr: `-v` battle starts and ends (debug), `-vv` everything (trace).
    #[arg(short = 'v', action = clap::ArgAction::Count, global = true)]
    verbosity: u8,
}

#[derive(Subcommand)]
enum Command {
    /// Play a whole game with the demonstration driver: two army lists (pre-battle, then the
    /// battle bound by bound), or a given set-up.
    Play {
        /// The first army list, by id.
        #[arg(default_value = "II/56")]
        first: String,
        /// The second army list, by id.
        #[arg(default_value = "II/53")]
        second: String,
        /// Seed of the dice (the default, 2, gives a decided game between the default lists).
        #[arg(long, default_value_t = 2)]
        seed: u64,
        /// A set-up file (dbcore's JSON) to play instead of a game between two lists.
        #[arg(long)]
        setup: Option<PathBuf>,
        /// Play a Big Battle between the two lists instead: three commands a side (each the
        /// list's default army, §14.1) on a 30 x 15 BW board, one PIP die per command (§14),
        /// from the pre-battle (terrain, base edges, PIP ranking, camps, deployment by command).
        #[arg(long, conflicts_with_all = ["setup", "giant"])]
        big_battle: bool,
        /// Play a Giant battle between the two lists instead: three generals a side on a
        /// 45 x 15 BW board, each rolling his own PIP die (§14.6), from the pre-battle.
        #[arg(long, conflicts_with = "setup")]
        giant: bool,
        /// Stop after this many bounds.
        #[arg(long, default_value_t = 60)]
        max_bounds: u32,
        /// Print the record (set-up and every action) as JSON instead of the narration.
        #[arg(long)]
        json: bool,
        /// Write a picture of the final table here.
        #[arg(long, default_value = "battle.svg")]
        svg: PathBuf,
        /// Write no picture.
        #[arg(long)]
        no_svg: bool,
        /// Leave the last bound's moves, shots, combats and losses unmarked on the picture.
        #[arg(long)]
        no_marks: bool,
        /// Play this side yourself against the opponent (red: the first army, blue: the
        /// second), typing orders at the terminal (`help` lists them); the picture is written
        /// after every bound.
        #[arg(long, value_name = "SIDE")]
        human: Option<String>,
        /// The opponent's budget per decision, in positions tried.
        #[arg(long, default_value_t = dbcore::ai::DEFAULT_NODES)]
        nodes: u32,
        /// With --human: go on with a saved game (a game record, as `save` and `quit` write).
        #[arg(long, requires = "human")]
        load: Option<PathBuf>,
        /// With --human: where `quit` (and `save` without a name) writes the game record.
        #[arg(long, default_value = "dbcore-game.json")]
        save: PathBuf,
    },
    /// The exact odds of a combat: `dbcore odds 3Kn:general 4Bd:uphill,side=Sp`.
    #[command(after_help = odds::FLAGS)]
    Odds {
        /// The first element: CODE[:flags].
        #[arg(default_value = "3Kn:general")]
        a: String,
        /// The second element: CODE[:flags].
        #[arg(default_value = "4Bd")]
        b: String,
        /// The first element shoots at the second; flags support=N,back,behind.
        #[arg(long, num_args = 0..=1, default_missing_value = "")]
        shoot: Option<String>,
        /// The situation and the odds as JSON.
        #[arg(long)]
        json: bool,
    },
    /// An SVG picture of a set-up, a battle state or a record (its final table).
    Render {
        /// The file (`-` for stdin).
        file: String,
        /// Write the picture here instead of stdout.
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Draw the threat zones.
        #[arg(long)]
        threat_zones: bool,
        /// For a record: mark the last bound's moves, shots, combats and losses.
        #[arg(long)]
        marks: bool,
        /// Write a PNG image (rasterised by resvg) instead of SVG; needs `--out`.
        #[arg(long, requires = "out")]
        png: bool,
    },
    /// Check a set-up, a battle state or a record: every problem, exit status 1 if any.
    Validate {
        /// The file (`-` for stdin).
        file: String,
    },
    /// Replay a record: the narration, or the events as JSON lines.
    Replay {
        /// The file (`-` for stdin).
        file: String,
        /// One event a line, as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play many seeded battles between two army lists (or from a set-up) and tell how often
    /// each side wins, with 95% Wilson intervals: `dbcore simulate II/56 II/5a -n 10000 --seed 1`.
    Simulate(SimulateArgs),
    /// Serve the JSON-RPC referee on stdio or loopback HTTP.
    Serve(ServeArgs),
    /// Play a BUGS! encounter (the second game) with the demonstration player, from a seed and
    /// the tables file of the values the booklet's transcription lost: `dbcore bugs --tables
    /// FILE --seed N`.
    #[command(after_help = dbcore_cli::bugs::TABLES_HELP)]
    Bugs(BugsArgs),
}

#[derive(Args)]
struct BugsArgs {
    /// The tables file (JSON, format dbcore-bugs-tables; `-` for stdin): required, see below.
    #[arg(long)]
    tables: Option<PathBuf>,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The encounter: 1 the escort, 2 the settlement, 3 the raid.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    encounter: u8,
    /// Write a picture of the table at the end here (SVG, inches).
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Print the record, the events and the verdict as JSON instead of the narration.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct SimulateArgs {
    /// The first army list, by id.
    #[arg(default_value = "II/56")]
    first: String,
    /// The second army list, by id.
    #[arg(default_value = "II/53")]
    second: String,
    /// Battles to play.
    #[arg(short = 'n', long, default_value_t = 1000)]
    battles: u64,
    /// The master seed: battle i's dice come from a seed derived from it and i alone.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The index of the first battle (to run one chunk of a larger batch).
    #[arg(long, default_value_t = 0)]
    first_index: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Stop each battle after this many bounds.
    #[arg(long, default_value_t = dbcore::simulate::DEFAULT_MAX_BOUNDS)]
    max_bounds: u32,
    /// A set-up file (dbcore's JSON): every battle starts from it, only the dice differ.
    #[arg(long)]
    setup: Option<PathBuf>,
    /// The records as JSON lines instead of the table, each written as its battle finishes.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// The records as CSV instead of the table, each line written as its battle finishes.
    #[arg(long)]
    csv: bool,
    /// With --json: each record carries its whole game (replayable).
    #[arg(long, requires = "json")]
    full_records: bool,
    /// Progress lines on stderr ("N of M battles") even when it is not a terminal.
    #[arg(long)]
    progress: bool,
}

#[derive(Args)]
#[group(required = true, multiple = false, id = "door")]
struct Door {
    /// JSON-RPC 2.0 as JSON Lines on stdin and stdout.
    #[arg(long)]
    stdio: bool,
    /// POST /rpc and GET /health over HTTP.
    #[arg(long)]
    http: bool,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    door: Door,
    /// HTTP port (0 picks a free one).
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// HTTP address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Allow binding an address that is not loopback (other machines could then drive it).
    #[arg(long)]
    allow_remote: bool,
    /// Battles open at once.
    #[arg(long, default_value_t = Limits::default().max_battles)]
    max_battles: usize,
    /// Bytes in one message (a line or a body).
    #[arg(long, default_value_t = Limits::default().max_message_bytes)]
    max_message_bytes: usize,
    /// HTTP connections served at once (when full, the one waiting longest on its client is
    /// closed to make room).
    #[arg(long, default_value_t = HttpConfig::default().max_connections)]
    max_connections: usize,
    /// HTTP connections served at once from one client address.
    #[arg(long, default_value_t = HttpConfig::default().max_per_address)]
    max_per_address: usize,
    /// HTTP read timeout, milliseconds: a request's head and body must arrive within it from its
    /// first byte, and an idle connection is closed after it.
    #[arg(long, default_value_t = 5000)]
    read_timeout_ms: u64,
    /// Milliseconds a request waits for another request on the same battle before it is
    /// answered "busy" (-32007).
    #[arg(long, default_value_t = Limits::default().busy_wait.as_millis() as u64)]
    busy_wait_ms: u64,
    /// Log every HTTP request to stderr.
    #[arg(long)]
    verbose: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.verbosity > 0 {
        let level = if cli.verbosity > 1 {
            tracing::Level::TRACE
        } else {
            tracing::Level::DEBUG
        };
        // stderr only: stdout carries the program's output (records, JSON-RPC answers).
        tracing_subscriber::fmt()
            .with_max_level(level)
            .with_writer(io::stderr)
            .init();
    }
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(lines)) => {
            for l in lines {
                eprintln!("dbcore: {l}");
            }
            ExitCode::FAILURE
        }
    }
}

fn load(file: &str) -> Result<Document, Failure> {
    commands::document(&commands::read_file(file)?)
        .map_err(|Failure(l)| Failure(l.into_iter().map(|m| format!("{file}: {m}")).collect()))
}

#[cfg(feature = "png")]
fn write_png(path: &std::path::Path, svg: &str) -> Result<(), Failure> {
    let bytes = commands::png(svg)?;
    std::fs::write(path, bytes).map_err(|e| Failure(vec![format!("{}: {e}", path.display())]))
}

#[cfg(not(feature = "png"))]
fn write_png(_: &std::path::Path, _: &str) -> Result<(), Failure> {
    Err(Failure(vec![
        "this dbcore was built without PNG output (the `png` feature)".into(),
    ]))
}

fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`dbcore replay x | head`) is no error of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure(vec![format!("stdout: {e}")])),
    }
}

fn write(path: &PathBuf, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| Failure(vec![format!("{}: {e}", path.display())]))
}

fn run(cmd: Command) -> Result<(), Failure> {
    match cmd {
        Command::Play {
            first,
            second,
            seed,
            setup,
            big_battle,
            giant,
            max_bounds,
            json,
            svg,
            no_svg,
            no_marks,
            human,
            nodes,
            load: saved,
            save,
        } => {
            let variant = match (big_battle, giant) {
                (true, _) => Some(dbcore::battlefield::Variant::BigBattle),
                (_, true) => Some(dbcore::battlefield::Variant::Giant),
                _ => None,
            };
            let variant = variant.unwrap_or(dbcore::battlefield::Variant::Standard);
            let setup = match setup {
                Some(p) => match load(&p.to_string_lossy())? {
                    Document::Setup(s) => match *s {
                        dbcore::game::AnySetup::Dba(s) => Some(*s),
                        dbcore::game::AnySetup::Dbaix(_) => {
                            return Err(Failure(vec![
                                "play --setup takes a DBA set-up (a DBAix game is played by `cargo run --example dbaix`)".into(),
                            ]))
                        }
                    },
                    _ => return Err(Failure(vec!["--setup takes a set-up file".into()])),
                },
                None => None,
            };
            if let Some(side) = human {
                let setup = match (setup, &saved) {
                    (Some(s), _) => Some(s),
                    (None, Some(_)) => None,
                    (None, None) => {
                        Some(commands::prebattle_setup(&first, &second, seed, variant)?)
                    }
                };
                let o = HumanOptions {
                    human: human::side(&side)?,
                    seed,
                    max_bounds,
                    nodes,
                    svg: (!no_svg).then_some(svg),
                    save,
                };
                let session = human::session(setup, saved.as_deref(), seed)?;
                let mut output = io::stdout().lock();
                match human::Edited::on_terminal() {
                    Some(mut lines) => human::play(session, &o, &mut lines, &mut output)?,
                    None => {
                        let stdin = io::stdin();
                        let mut input = stdin.lock();
                        human::play(session, &o, &mut human::Plain(&mut input), &mut output)?
                    }
                };
                return Ok(());
            }
            let played = commands::play(&PlayOptions {
                seed,
                max_bounds,
                setup,
                lists: (first, second),
                variant,
                json,
            })?;
            if !no_svg {
                write(&svg, &played.svg(!no_marks))?;
            }
            print(&played.text)
        }
        Command::Odds { a, b, shoot, json } => {
            let text = odds::run(&a, &b, shoot.as_deref(), json).map_err(|e| Failure(vec![e]))?;
            print(&text)
        }
        Command::Render {
            file,
            out,
            threat_zones,
            marks,
            png,
        } => {
            let svg = commands::render(&load(&file)?, threat_zones, marks)?;
            match (out, png) {
                (Some(p), true) => write_png(&p, &svg),
                (Some(p), false) => write(&p, &svg),
                (None, _) => print(&svg),
            }
        }
        Command::Validate { file } => print(&commands::validate(&load(&file)?)?),
        Command::Replay { file, json } => print(&commands::replay(&load(&file)?, json)?),
        Command::Simulate(a) => simulate(a),
        Command::Serve(s) => serve(s),
        Command::Bugs(b) => {
            let out = dbcore_cli::bugs::run(&dbcore_cli::bugs::BugsOptions {
                tables: b.tables.map(|p| p.to_string_lossy().into_owned()),
                seed: b.seed,
                encounter: b.encounter,
                json: b.json,
            })?;
            for w in &out.warnings {
                eprintln!("dbcore: note: {w}");
            }
            if let Some(p) = &b.svg {
                write(p, &out.svg)?;
            }
            print(&out.text)
        }
    }
}

fn simulate(a: SimulateArgs) -> Result<(), Failure> {
    use dbcore::simulate::{Request, Source};
    use dbcore_cli::simulate::{self as sim, Format};
    use std::io::IsTerminal;
    use std::ops::ControlFlow;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    let source = match a.setup {
        Some(p) => match load(&p.to_string_lossy())? {
            Document::Setup(s) => match *s {
                dbcore::game::AnySetup::Dba(s) => Source::Setup(*s),
                dbcore::game::AnySetup::Dbaix(_) => {
                    return Err(Failure(
                        vec!["simulate plays DBA set-ups, not DBAix".into()],
                    ))
                }
            },
            _ => return Err(Failure(vec!["--setup takes a set-up file".into()])),
        },
        None => Source::Lists([a.first, a.second]),
    };
    let mut request = Request::new(source, a.battles, a.seed);
    request.first = a.first_index;
    request.threads = a.threads;
    request.max_bounds = a.max_bounds;
    request.full_records = a.full_records;
    // Ctrl-C stops the batch: the battles that finished are printed, and the exit code says so.
    let cancel = sim::cancel_on_interrupt();
    let done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let format = if a.json {
        Format::JsonLines
    } else if a.csv {
        Format::Csv
    } else {
        Format::Table
    };
    // Each record is written, and flushed, as its battle finishes: nothing but the summary is
    // kept, and a reader of the pipe sees the battles arrive. A closed pipe stops the batch.
    let armies = sim::armies(&request)?.len();
    let mut out = io::stdout().lock();
    let mut write_failed = None;
    let mut put = |text: &str| match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            if e.kind() != io::ErrorKind::BrokenPipe {
                write_failed = Some(e);
            }
            ControlFlow::Break(())
        }
    };
    if format == Format::Csv {
        let _ = put(&sim::csv_header(armies));
    }
    let sink = |r: dbcore::simulate::BattleSummary| match sim::line(&r, format, armies) {
        Ok(text) if text.is_empty() => ControlFlow::Continue(()),
        Ok(text) => put(&text),
        Err(_) => ControlFlow::Break(()),
    };
    let started = std::time::Instant::now();
    let terminal = io::stderr().is_terminal();
    let result = std::thread::scope(|s| {
        // A progress line on stderr when it is a terminal (or asked); stdout stays the records.
        if terminal || a.progress {
            s.spawn(|| {
                let mut shown = u64::MAX;
                while !finished.load(Ordering::Relaxed) {
                    let n = done.load(Ordering::Relaxed);
                    if terminal {
                        eprint!("\r{n} of {} battles", a.battles);
                    } else if n != shown {
                        eprintln!("{n} of {} battles", a.battles);
                        shown = n;
                    }
                    std::thread::sleep(Duration::from_millis(if terminal { 200 } else { 50 }));
                }
                if terminal {
                    eprint!("\r\x1b[K");
                }
            });
        }
        let r = sim::run(&request, cancel, &done, sink);
        finished.store(true, Ordering::Relaxed);
        r
    })?;
    drop(out);
    let secs = started.elapsed().as_secs_f64();
    let played = result.summary.battles;
    tracing::debug!(
        battles = played,
        seconds = secs,
        per_second = played as f64 / secs.max(1e-9),
        "simulate finished"
    );
    if let Some(e) = write_failed {
        return Err(Failure(vec![format!("stdout: {e}")]));
    }
    if format == Format::Table {
        print(&sim::table(&result, &request))?;
    }
    if cancel.load(Ordering::SeqCst) {
        eprintln!(
            "dbcore: interrupted: {} of {} battles finished",
            played, a.battles
        );
        std::process::exit(i32::from(sim::INTERRUPTED_EXIT_CODE));
    }
    Ok(())
}

fn serve(s: ServeArgs) -> Result<(), Failure> {
    let fail = |m: String| Failure(vec![m]);
    let limits = Limits {
        max_battles: s.max_battles,
        max_message_bytes: s.max_message_bytes,
        busy_wait: Duration::from_millis(s.busy_wait_ms),
    };
    if s.door.stdio {
        let referee = Referee::new(limits);
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut output = BufWriter::new(io::stdout().lock());
        return stdio::serve(&referee, &mut input, &mut output)
            .map_err(|e| fail(format!("stdio: {e}")));
    }
    if !http::is_loopback(s.bind) && !s.allow_remote {
        return Err(fail(format!(
            "refusing to bind {}: it is not a loopback address (pass --allow-remote to insist)",
            s.bind
        )));
    }
    let listener = TcpListener::bind(SocketAddr::new(s.bind, s.port))
        .map_err(|e| fail(format!("cannot listen on {}:{}: {e}", s.bind, s.port)))?;
    let local = listener.local_addr().map_err(|e| fail(e.to_string()))?;
    let host = match local {
        SocketAddr::V4(a) => a.to_string(),
        SocketAddr::V6(a) => format!("[{}]:{}", a.ip(), a.port()),
    };
    print(&format!(
        "{}\n",
        serde_json::json!({ "listening": format!("http://{host}/rpc") })
    ))?;
    eprintln!("dbcore serve: listening on http://{host}/rpc");
    eprintln!("dbcore serve: the web table is at http://{host}/ (open it in a browser)");
    let cfg = HttpConfig {
        max_connections: s.max_connections.max(1),
        max_per_address: s.max_per_address.max(1),
        read_timeout: Duration::from_millis(s.read_timeout_ms.max(1)),
        verbose: s.verbose,
        ..HttpConfig::default()
    };
    http::serve(listener, Arc::new(Referee::new(limits)), cfg)
        .map_err(|e| fail(format!("http: {e}")))
}
