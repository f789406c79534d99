//! The subcommands that read and write files: `play`, `render`, `validate`, `replay`. Each
//! returns its output as text (or a failure to print on stderr), so tests call them directly.
//! Games are written and read as dbcore's one game record (`dbcore::record`, format
//! `dbcore-game`); earlier spellings (a battle record, a whole game, a golden trace) are read too.

use dbcore::battle::{narrate, Battle, BattleSetup, Event, PrebattleSetup};
use dbcore::driver;
use dbcore::game::{AnyBattle, AnyEvent, AnySetup};
use dbcore::record::{GameFile, GameMoves, Replayed};
use serde_json::Value;

/// What a file holds, told apart by its keys.
#[derive(Debug, Clone)]
pub enum Document {
    /// A set-up of either game.
    Setup(Box<AnySetup>),
    /// A battle in progress (a saved state of either game).
    State(Box<AnyBattle>),
    /// A game record in any spelling dbcore reads.
    Game(Box<GameFile>),
}

/// A failure: its message lines, for stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub Vec<String>);

impl Failure {
    fn one(m: impl Into<String>) -> Self {
        Failure(vec![m.into()])
    }
}

/// Read `text` (JSON) as a set-up, a battle state or a game record.
pub fn document(text: &str) -> Result<Document, Failure> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| Failure::one(format!("not JSON: {e}")))?;
    let has = |k: &str| v.get(k).is_some();
    let format = v.get("format").and_then(Value::as_str).unwrap_or("");
    if format == "dbcore-state" || (has("setup") && has("elements")) || has("figures") {
        return AnyBattle::from_state_value(v)
            .map(|b| Document::State(Box::new(b)))
            .map_err(|e| Failure::one(format!("not a valid battle state: {e}")));
    }
    if format == dbcore::record::FORMAT
        || has("actions")
        || has("record")
        || (has("prebattle") && has("battle"))
    {
        return GameFile::from_value(v)
            .map(|g| Document::Game(Box::new(g)))
            .map_err(|e| Failure::one(e.to_string()));
    }
    AnySetup::from_json(text)
        .map(|s| Document::Setup(Box::new(s)))
        .map_err(|e| Failure::one(format!("not a valid set-up: {e}")))
}

/// Read a file given on the command line (`-` for stdin).
pub fn read_file(path: &str) -> Result<String, Failure> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Failure::one(format!("stdin: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| Failure::one(format!("{path}: {e}")))
}

/// The narration of `events`, one line each (PIP payments left out, as at the table).
pub fn narration(setup: &BattleSetup, events: &[Event]) -> String {
    let mut out = String::new();
    for (e, line) in events.iter().zip(narrate::narrate(setup, events)) {
        if matches!(e, Event::PipsSpent { .. }) || line.is_empty() {
            continue;
        }
        out += &line;
        out.push('\n');
    }
    out
}

/// Options of `dbcore play`.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    pub seed: u64,
    pub max_bounds: u32,
    /// The set-up to play; when `None`, a whole game (pre-battle and battle) between `lists`.
    pub setup: Option<BattleSetup>,
    /// The two army lists of a whole game, by id (`"II/56"`).
    pub lists: (String, String),
    /// The game between the lists: standard, or Big Battle or Giant (three commands a side).
    pub variant: dbcore::battlefield::Variant,
    /// Print the record as JSON instead of the narration: a battle record for a set-up, a game
    /// record (armies, pre-battle and battle actions) for a whole game.
    pub json: bool,
}

/// What `dbcore play` gives: its text, the final battle and the battle's events (for the
/// picture and its marks).
#[derive(Debug, Clone)]
pub struct Played {
    pub text: String,
    pub battle: Battle,
    pub events: Vec<Event>,
}

impl Played {
    /// The final picture, with the last bound marked when `marks`.
    pub fn svg(&self, marks: bool) -> String {
        if marks {
            self.battle.svg_marked(false, &self.events)
        } else {
            self.battle.svg(false)
        }
    }
}

/// `dbcore play`: the output text, the final battle and its events.
pub fn play(o: &PlayOptions) -> Result<Played, Failure> {
    let Some(setup) = &o.setup else {
        return play_game(o);
    };
    let driven = driver::play(setup.clone(), o.seed, o.max_bounds).map_err(problems)?;
    let (battle, _) = Battle::replay(&driven.record)
        .map_err(|e| Failure::one(format!("the driven battle does not replay: {e}")))?;
    if o.json {
        let file = GameFile::of_battle(driven.record.clone())
            .tag("seed", o.seed.to_string())
            .with_result(dbcore::record::result_of(&AnyBattle::Dba(Box::new(
                battle.clone(),
            ))));
        return Ok(Played {
            text: file.to_json_pretty() + "\n",
            battle,
            events: driven.events,
        });
    }
    let names: Vec<&str> = setup.armies.iter().map(|a| a.name.as_str()).collect();
    let mut out = format!("DBA 3.0: {}, seed {}\n\n", names.join(" against "), o.seed);
    out += &narration(setup, &driven.events);
    out += &summary(&battle, driven.bounds, driven.verdict.as_ref());
    Ok(Played {
        text: out,
        battle,
        events: driven.events,
    })
}

/// The battle set-up the demonstration driver's pre-battle gives for two bundled lists and a seed
/// (aggression, terrain, edges, camps, deployment), for a game played by someone else.
pub fn prebattle_setup(
    first: &str,
    second: &str,
    seed: u64,
    variant: dbcore::battlefield::Variant,
) -> Result<BattleSetup, Failure> {
    use dbcore::battle::prebattle::Prebattle;
    let fail = |e: String| Failure::one(e);
    let lists = game_lists(first, second, variant).map_err(|e| fail(e.to_string()))?;
    let mut pre = Prebattle::new(lists).map_err(|e| fail(e.to_string()))?;
    let mut dice = dbcore::SeededDice::new(seed);
    driver::play_prebattle(&mut pre, &mut dice).map_err(|e| fail(e.to_string()))?;
    pre.battle_setup()
        .ok_or_else(|| fail("the driver's pre-battle did not finish".into()))
}

/// The pre-battle's armies from two list ids: a standard game, or Big Battle or Giant armies of
/// three commands each.
fn game_lists(
    first: &str,
    second: &str,
    variant: dbcore::battlefield::Variant,
) -> Result<dbcore::battle::prebattle::PrebattleSetup, dbcore::battle::prebattle::ListsError> {
    use dbcore::battle::prebattle::PrebattleSetup;
    match variant {
        dbcore::battlefield::Variant::Standard => PrebattleSetup::from_lists(first, second),
        v => PrebattleSetup::from_big_lists(v, first, second),
    }
}

/// A whole game between two bundled lists: the pre-battle told step by step, then the battle.
fn play_game(o: &PlayOptions) -> Result<Played, Failure> {
    let lists =
        game_lists(&o.lists.0, &o.lists.1, o.variant).map_err(|e| Failure::one(e.to_string()))?;
    let game =
        driver::play_game(lists, o.seed, o.max_bounds).map_err(|e| Failure::one(e.to_string()))?;
    let replayed = game
        .record
        .replay()
        .map_err(|e| Failure::one(format!("the driven game does not replay: {e}")))?;
    let battle = replayed.battle;
    if o.json {
        let entries = &game.record.prebattle.setup;
        let file = GameFile::of_game(game.record.clone())
            .tag("red", entries.armies[0].name.clone())
            .tag("blue", entries.armies[1].name.clone())
            .tag("seed", o.seed.to_string())
            .with_result(dbcore::record::result_of(&AnyBattle::Dba(Box::new(
                battle.clone(),
            ))));
        return Ok(Played {
            text: file.to_json_pretty() + "\n",
            battle,
            events: game.events,
        });
    }
    let entries = &game.record.prebattle.setup;
    let mut out = format!(
        "{}: {} against {}, seed {}\n\n",
        match entries.variant {
            dbcore::battlefield::Variant::Standard => "DBA 3.0".to_string(),
            v => format!("{v} DBA 3.0"),
        },
        entries.armies[0].name,
        entries.armies[1].name,
        o.seed
    );
    for e in &game.prebattle_events {
        let line = dbcore::battle::prebattle::describe(entries, e);
        if !line.is_empty() {
            out += &line;
            out.push('\n');
        }
    }
    out.push('\n');
    out += &narration(&game.setup, &game.events);
    out += &summary(&battle, game.bounds, game.verdict.as_ref());
    Ok(Played {
        text: out,
        battle,
        events: game.events,
    })
}

/// Elements in play and lost per army, and the verdict.
fn summary(battle: &Battle, bounds: u32, verdict: Option<&dbcore::battle::Verdict>) -> String {
    let setup = battle.setup();
    let mut out = String::from("\n");
    for (i, (alive, lost)) in battle.counts().iter().enumerate() {
        out += &format!("{}: {alive} in play, {lost} lost\n", setup.armies[i].name);
    }
    out += &match verdict {
        Some(v) => format!(
            "after {bounds} bounds: {}\n",
            v.winner.map_or("no winner".to_string(), |w| format!(
                "won by {}",
                setup.armies[w].name
            ))
        ),
        None => format!("no decision after {bounds} bounds\n"),
    };
    out
}

fn problems(e: dbcore::battle::SetupError) -> Failure {
    Failure(e.problems.iter().map(|p| format!("set-up: {p}")).collect())
}

fn problems_of(e: dbcore::battle::SetupError) -> Failure {
    problems(e)
}

/// The picture as a PNG image, rasterised by resvg at the picture's own size (40 pixels a BW),
/// its text in the system's fonts (a machine without fonts gives the picture without its text).
#[cfg(feature = "png")]
pub fn png(svg: &str) -> Result<Vec<u8>, Failure> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    let fonts = opt.fontdb_mut();
    fonts.load_system_fonts();
    // The picture asks for "sans-serif", which fontdb takes to be Arial: name a sans-serif
    // face this machine has instead, or any face at all.
    let families: Vec<String> = fonts
        .faces()
        .flat_map(|f| f.families.iter().map(|(name, _)| name.clone()))
        .collect();
    let chosen = [
        "DejaVu Sans",
        "Liberation Sans",
        "Noto Sans",
        "Arial",
        "Helvetica",
        "FreeSans",
    ]
    .iter()
    .find(|want| families.iter().any(|f| f == *want))
    .map(|f| f.to_string())
    .or_else(|| families.first().cloned());
    if let Some(family) = chosen {
        fonts.set_sans_serif_family(family);
    }
    let tree = usvg::Tree::from_str(svg, &opt)
        .map_err(|e| Failure::one(format!("the picture does not read as SVG: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| Failure::one("the picture has no size"))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| Failure::one(format!("cannot write the PNG: {e}")))
}

/// A game record replayed, or its refusal.
fn replayed(g: &GameFile) -> Result<Replayed, Failure> {
    g.replay().map_err(|e| Failure::one(format!("record: {e}")))
}

/// The picture of a battle of either game.
fn picture(b: &AnyBattle, threat_zones: bool) -> String {
    match b {
        AnyBattle::Dba(b) => b.svg(threat_zones),
        AnyBattle::Dbaix(b) => dbcore::dbaix::svg::table_svg(b),
    }
}

/// `dbcore render`: the SVG picture of a set-up (as deployed), a state or a game record (where it
/// ends; with `marks`, the last bound's moves, shots, combats and losses marked on it).
pub fn render(doc: &Document, threat_zones: bool, marks: bool) -> Result<String, Failure> {
    match doc {
        Document::Setup(s) => match &**s {
            AnySetup::Dba(s) => s.svg(threat_zones).map_err(|e| Failure::one(e.to_string())),
            AnySetup::Dbaix(s) => {
                let b = dbcore::dbaix::Battle::new(s.clone())
                    .map_err(|e| Failure::one(e.to_string()))?;
                Ok(dbcore::dbaix::svg::table_svg(&b))
            }
        },
        Document::State(b) => Ok(picture(b, threat_zones)),
        Document::Game(g) => match replayed(g)? {
            Replayed::Battle {
                battle: AnyBattle::Dba(b),
                events,
                ..
            } if marks => {
                let events: Vec<Event> = events
                    .into_iter()
                    .filter_map(|e| match e {
                        AnyEvent::Dba(e) => Some(e),
                        AnyEvent::Dbaix(_) => None,
                    })
                    .collect();
                Ok(b.svg_marked(threat_zones, &events))
            }
            Replayed::Battle { battle, .. } => Ok(picture(&battle, threat_zones)),
            Replayed::Bugs { encounter, .. } => Ok(dbcore::bugs::svg(&encounter)),
            Replayed::Prebattle { .. } => Err(Failure::one(
                "the record stops in its pre-battle: there is no battle to draw yet",
            )),
        },
    }
}

/// `dbcore validate`: every problem of a set-up, the first refused action of a record; what was
/// checked when all is well.
pub fn validate(doc: &Document) -> Result<String, Failure> {
    match doc {
        Document::Setup(s) => match &**s {
            AnySetup::Dba(s) => {
                let problems: Vec<String> = dbcore::battle::validate(s)
                    .iter()
                    .map(|p| format!("set-up: {p}"))
                    .collect();
                if !problems.is_empty() {
                    return Err(Failure(problems));
                }
                Battle::new((**s).clone()).map_err(problems_of)?;
                Ok(format!(
                    "set-up: valid ({} armies, {} elements)\n",
                    s.armies.len(),
                    s.armies.iter().map(|a| a.elements.len()).sum::<usize>()
                ))
            }
            AnySetup::Dbaix(s) => {
                dbcore::dbaix::Battle::new(s.clone())
                    .map_err(|e| Failure::one(format!("set-up: {e}")))?;
                Ok(format!(
                    "set-up: valid (DBAix, {} figures)\n",
                    s.figures.len()
                ))
            }
        },
        Document::Game(g) => {
            if let GameMoves::Dba { setup: Some(s), .. } = &g.game {
                let problems: Vec<String> = dbcore::battle::validate(s)
                    .iter()
                    .map(|p| format!("set-up: {p}"))
                    .collect();
                if !problems.is_empty() {
                    return Err(Failure(problems));
                }
            }
            let r = replayed(g)?;
            let actions = match &g.game {
                GameMoves::Dba {
                    prebattle, actions, ..
                } => prebattle.as_ref().map_or(0, |p| p.actions.len()) + actions.len(),
                GameMoves::Dbaix { actions, .. } => actions.len(),
                GameMoves::Bugs { actions, .. } => actions.len(),
            };
            let (events, bound) = match &r {
                Replayed::Prebattle {
                    prebattle_events, ..
                } => (prebattle_events.len(), 0),
                Replayed::Battle {
                    prebattle_events,
                    events,
                    battle,
                    ..
                } => (
                    prebattle_events.len() + events.len(),
                    dbcore::record::result_of(battle).bounds,
                ),
                Replayed::Bugs { encounter, events } => (events.len(), encounter.turn()),
            };
            Ok(format!(
                "record: valid ({} v{}, {actions} actions, {events} events, bound {bound})\n",
                dbcore::record::FORMAT,
                dbcore::record::VERSION
            ))
        }
        Document::State(b) => {
            let record = b.record();
            let (replayed, _) = AnyBattle::replay(&record)
                .map_err(|e| Failure::one(format!("state: its actions do not replay: {e}")))?;
            if replayed != **b {
                return Err(Failure::one(
                    "state: it differs from the replay of its own set-up and actions",
                ));
            }
            let n = match &**b {
                AnyBattle::Dba(b) => b.actions().len(),
                AnyBattle::Dbaix(b) => b.actions().len(),
            };
            Ok(format!("state: valid ({n} actions)\n"))
        }
    }
}

/// `dbcore replay`: the narration of a game record (or a state's own record), or its events as
/// JSON lines.
pub fn replay(doc: &Document, json: bool) -> Result<String, Failure> {
    let file = match doc {
        Document::Game(g) => (**g).clone(),
        Document::State(b) => GameFile::of_any(b),
        Document::Setup(_) => return Err(Failure::one("replay takes a record, not a set-up")),
    };
    let r = replayed(&file)?;
    let (pre_setup, pre_events): (Option<PrebattleSetup>, Vec<dbcore::battle::PrebattleEvent>) =
        match (&file.game, &r) {
            (
                GameMoves::Dba {
                    prebattle: Some(p), ..
                },
                Replayed::Prebattle {
                    prebattle_events, ..
                }
                | Replayed::Battle {
                    prebattle_events, ..
                },
            ) => (Some(p.setup.clone()), prebattle_events.clone()),
            _ => (None, Vec::new()),
        };
    let (battle, events) = match &r {
        Replayed::Battle { battle, events, .. } => (Some(battle), events.as_slice()),
        Replayed::Prebattle { .. } => (None, &[][..]),
        Replayed::Bugs { encounter, events } => {
            // A BUGS! encounter: its events, or one line each in a player's words.
            let lines: Vec<String> = if json {
                events
                    .iter()
                    .map(|e| serde_json::to_string(e).map_err(|e| Failure::one(e.to_string())))
                    .collect::<Result<_, _>>()?
            } else {
                dbcore::bugs::narrate(encounter.setup(), events)
            };
            let mut out = lines.join("\n");
            out.push('\n');
            return Ok(out);
        }
    };
    let mut out = String::new();
    if json {
        for e in &pre_events {
            out += &serde_json::to_string(e).map_err(|e| Failure::one(e.to_string()))?;
            out.push('\n');
        }
        for e in events {
            out += &serde_json::to_string(e).map_err(|e| Failure::one(e.to_string()))?;
            out.push('\n');
        }
        return Ok(out);
    }
    if let Some(setup) = &pre_setup {
        for e in &pre_events {
            let line = dbcore::battle::prebattle::describe(setup, e);
            if !line.is_empty() {
                out += &line;
                out.push('\n');
            }
        }
        out.push('\n');
    }
    match battle {
        Some(AnyBattle::Dba(b)) => {
            let evs: Vec<Event> = events
                .iter()
                .filter_map(|e| match e {
                    AnyEvent::Dba(e) => Some(e.clone()),
                    AnyEvent::Dbaix(_) => None,
                })
                .collect();
            out += &narration(b.setup(), &evs);
        }
        Some(AnyBattle::Dbaix(b)) => {
            let evs: Vec<dbcore::dbaix::Event> = events
                .iter()
                .filter_map(|e| match e {
                    AnyEvent::Dbaix(e) => Some(e.clone()),
                    AnyEvent::Dba(_) => None,
                })
                .collect();
            for line in dbcore::dbaix::driver::narrate(b.setup(), &evs) {
                if !line.is_empty() {
                    out += &line;
                    out.push('\n');
                }
            }
        }
        None => out += "(the record stops in its pre-battle)\n",
    }
    Ok(out)
}
