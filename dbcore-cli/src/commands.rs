//! The subcommands that read and write files: `play`, `render`, `validate`, `replay`. Each
//! returns its output as text (or a failure to print on stderr), so tests call them directly.

use dbcore::battle::{narrate, Battle, BattleRecord, BattleSetup, Event};
use dbcore::driver;
use serde_json::Value;

use crate::rpc::setup_table;

/// What a file holds, told apart by its keys.
#[derive(Debug, Clone)]
pub enum Document {
    Setup(Box<BattleSetup>),
    /// A battle in progress (the state JSON of `Battle`).
    State(Box<Battle>),
    /// A replayable record (set-up and actions), also read from a golden trace's `record`.
    Record(Box<BattleRecord>),
}

/// A failure: its message lines, for stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub Vec<String>);

impl Failure {
    fn one(m: impl Into<String>) -> Self {
        Failure(vec![m.into()])
    }
}

fn read_as<T: serde::de::DeserializeOwned>(v: Value, what: &str) -> Result<T, Failure> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let at = e.path().to_string();
        Failure::one(format!(
            "not a valid {what}: {}",
            dbcore::json::path_message(&at, &e.inner().to_string())
        ))
    })
}

/// Read `text` (JSON) as a set-up, a battle state or a record.
pub fn document(text: &str) -> Result<Document, Failure> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| Failure::one(format!("not JSON: {e}")))?;
    let has = |k: &str| v.get(k).is_some();
    if has("record") && !has("setup") {
        return read_as(v["record"].clone(), "record").map(|r| Document::Record(Box::new(r)));
    }
    if has("setup") && has("elements") {
        return read_as(v, "battle state").map(|b| Document::State(Box::new(b)));
    }
    if has("setup") && has("actions") {
        return read_as(v, "record").map(|r| Document::Record(Box::new(r)));
    }
    read_as(v, "set-up").map(|s| Document::Setup(Box::new(s)))
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

/// `dbcore play`: the output text and the final battle (for the picture).
pub fn play(o: &PlayOptions) -> Result<(String, Battle), Failure> {
    let Some(setup) = &o.setup else {
        return play_game(o);
    };
    let driven = driver::play(setup.clone(), o.seed, o.max_bounds).map_err(problems)?;
    let (battle, _) = Battle::replay(&driven.record)
        .map_err(|e| Failure::one(format!("the driven battle does not replay: {e}")))?;
    if o.json {
        let text = serde_json::to_string_pretty(&driven.record)
            .map_err(|e| Failure::one(e.to_string()))?;
        return Ok((text + "\n", battle));
    }
    let names: Vec<&str> = setup.armies.iter().map(|a| a.name.as_str()).collect();
    let mut out = format!("DBA 3.0: {}, seed {}\n\n", names.join(" against "), o.seed);
    out += &narration(setup, &driven.events);
    out += &summary(&battle, driven.bounds, driven.verdict.as_ref());
    Ok((out, battle))
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
fn play_game(o: &PlayOptions) -> Result<(String, Battle), Failure> {
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
        let text =
            serde_json::to_string_pretty(&game.record).map_err(|e| Failure::one(e.to_string()))?;
        return Ok((text + "\n", battle));
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
    Ok((out, battle))
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

/// `dbcore render`: the SVG picture of a set-up (as deployed), a state or a record (its end).
pub fn render(doc: &Document, threat_zones: bool) -> Result<String, Failure> {
    match doc {
        Document::Setup(s) => {
            let table = setup_table(s).map_err(|e| Failure::one(e.to_string()))?;
            Ok(table.svg_with_key(&s.config, threat_zones, &|_| None, Some(s.svg_key())))
        }
        Document::State(b) => Ok(b.svg(threat_zones)),
        Document::Record(r) => {
            let (b, _) = Battle::replay(r).map_err(|e| Failure::one(e.to_string()))?;
            Ok(b.svg(threat_zones))
        }
    }
}

/// `dbcore validate`: every problem of a set-up, the first refused action of a record; what was
/// checked when all is well.
pub fn validate(doc: &Document) -> Result<String, Failure> {
    match doc {
        Document::Setup(s) => {
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
        Document::Record(r) => match Battle::replay(r) {
            Ok((b, events)) => Ok(format!(
                "record: valid ({} actions, {} events, bound {})\n",
                r.actions.len(),
                events.len(),
                b.bound()
            )),
            Err(dbcore::battle::ReplayError::Setup(e)) => Err(problems_of(e)),
            Err(e) => Err(Failure::one(format!("record: {e}"))),
        },
        Document::State(b) => {
            let problems: Vec<String> = dbcore::battle::validate(b.setup())
                .iter()
                .map(|p| format!("set-up: {p}"))
                .collect();
            if !problems.is_empty() {
                return Err(Failure(problems));
            }
            let (replayed, _) = Battle::replay(&b.record())
                .map_err(|e| Failure::one(format!("state: its actions do not replay: {e}")))?;
            if replayed != **b {
                return Err(Failure::one(
                    "state: it differs from the replay of its own set-up and actions",
                ));
            }
            Ok(format!("state: valid ({} actions)\n", b.actions().len()))
        }
    }
}

fn problems_of(e: dbcore::battle::SetupError) -> Failure {
    problems(e)
}

/// `dbcore replay`: the narration of a record, or its events as JSON lines.
pub fn replay(doc: &Document, json: bool) -> Result<String, Failure> {
    let record = match doc {
        Document::Record(r) => (**r).clone(),
        Document::State(b) => b.record(),
        Document::Setup(_) => return Err(Failure::one("replay takes a record, not a set-up")),
    };
    let (_, events) = Battle::replay(&record).map_err(|e| Failure::one(e.to_string()))?;
    if json {
        let mut out = String::new();
        for e in &events {
            out += &serde_json::to_string(e).map_err(|e| Failure::one(e.to_string()))?;
            out.push('\n');
        }
        return Ok(out);
    }
    Ok(narration(&record.setup, &events))
}
