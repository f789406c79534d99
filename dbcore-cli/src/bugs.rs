//! `dbcore bugs`: a BUGS! encounter played whole by the demonstration player from a seed and the
//! user's tables file, narrated, and drawn. No rule is decided here: the game is
//! `dbcore::bugs`.

use dbcore::bugs::{self, Encounter, Outcome, TablesFile};

use crate::commands::{read_file, Failure};

/// What `dbcore bugs --help` says of the tables file.
pub const TABLES_HELP: &str = "\
THE TABLES FILE
  The transcription of BUGS! that dbcore is written from lost every number of the Impact and
  Wound Tables, the weapons' ranges and target counts, two sheets' Weapon Skill and Willpower,
  and one cell of the Being Charged check (BUGS §17). The booklet is free: copy them from yours
  into a JSON file and pass it with --tables. dbcore never makes them up.

  {
    \"format\": \"dbcore-bugs-tables\", \"version\": 1, \"note\": \"where the values come from\",
    \"impact\": { \"5\": {\"2\": 0, ..., \"12\": \"W\"}, \"6\": {...}, \"7\": {...}, \"9\": {...},
                \"11\": {...}, \"12\": {...} },
        one column per Power Rating (weapon Pwr 5, 9, 11; POW 6, 7, 9, 12), one row per 2D6
        total 2 to 12; a cell is more Stamina lost (a number) or \"W\"
    \"wound\": { \"9\": {\"2\": 1, ..., \"12\": \"K\"}, \"10\": {...}, ... },
        one column per Willpower Rating, at least every starting Willpower (9, 10 and the two
        below); a cell is 1 (a Willpower lost; the booklet's -1 reads the same) or \"K\"
    \"weapons\": { \"pistol\": {\"effective_in\": 0, \"max_in\": 0, \"targets\": 1},
                 \"assault_rifle\": {...}, \"heavy_weapon\": {...}, \"grenade\": {...} },
        inches; max_in may be \"unlimited\" or \"na\" (no long range); targets is a count, or
        \"burst\" (the heavy weapon and grenade are bursts and may leave it out)
    \"sheets\": { \"citizen\": {\"ws\": 0, \"will\": 0}, \"little_un\": {\"ws\": 0, \"will\": 0} },
    \"being_charged_passed_none\": \"stand\" | \"carry_on\" | \"duck_down\" | \"runaway\"
  }

  A template with every value empty is examples/bugs/tables-template.json; its JSON Schema is
  schema/bugs-tables.schema.json; docs/bugs.md explains each field. A file with a value missing
  or wrong is refused with every problem named.

ENCOUNTERS (BUGS §15)
  1  soldiers escort citizens to the north edge (the board's terrain is rolled)
  2  soldiers defend a settlement
  3  soldiers raid a bug nest (the board's terrain is rolled)";

/// What to play.
#[derive(Debug, Clone)]
pub struct BugsOptions {
    /// The tables file (`-` for stdin); `None` is refused, naming what is missing.
    pub tables: Option<String>,
    /// Seed of the dice.
    pub seed: u64,
    /// Which encounter: 1, 2 or 3.
    pub encounter: u8,
    /// The record, events and verdict as JSON instead of the narration.
    pub json: bool,
}

/// What the program prints and draws.
#[derive(Debug, Clone)]
pub struct BugsOutput {
    /// For stdout: the narration, or the JSON.
    pub text: String,
    /// The picture of the table at the end.
    pub svg: String,
    /// For stderr: what the tables file has that deserves a second look.
    pub warnings: Vec<String>,
}

/// Why there is no game without the tables file.
fn no_tables() -> Failure {
    Failure(vec![
        "BUGS! needs the values its transcription lost (BUGS §17); give them with --tables FILE:".into(),
        "  the Impact Table: 2D6 rows 2-12, a column per Power Rating (5, 6, 7, 9, 11, 12), cells a number or W".into(),
        "  the Wound Table: 2D6 rows 2-12, a column per Willpower Rating, cells 1 or K".into(),
        "  the pistol's, assault rifle's, heavy weapon's and grenade's ranges, and the pistol's and rifle's target counts".into(),
        "  the citizen's and little un's WS and WILL, and the Being Charged check's passed-none result".into(),
        "the file is JSON of format dbcore-bugs-tables: see `dbcore bugs --help`, docs/bugs.md, examples/bugs/tables-template.json and schema/bugs-tables.schema.json".into(),
    ])
}

/// Play the encounter.
pub fn run(o: &BugsOptions) -> Result<BugsOutput, Failure> {
    let path = o.tables.as_deref().ok_or_else(no_tables)?;
    let text = read_file(path)?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Failure(vec![format!("{path}: not JSON: {e}")]))?;
    let tables = bugs::validate_tables(&v).map_err(|e| {
        let mut lines = vec![format!(
            "{path}: BUGS §17: the tables file has {} problem{}:",
            e.problems.len(),
            if e.problems.len() == 1 { "" } else { "s" }
        )];
        lines.extend(e.problems.iter().map(|p| format!("  {p}")));
        lines.push("see `dbcore bugs --help` and docs/bugs.md for the file's format".into());
        Failure(lines)
    })?;
    let file: TablesFile = serde_json::from_value(v)
        .map_err(|e| Failure(vec![format!("{path}: not a tables file: {e}")]))?;
    let setup = bugs::demo_setup(o.encounter, file).map_err(|e| Failure(vec![e]))?;
    let played = bugs::play(setup.clone(), o.seed).map_err(|e| Failure(vec![e.to_string()]))?;
    let (encounter, _) = Encounter::replay(&played.record)
        .map_err(|e| Failure(vec![format!("the encounter did not replay: {e}")]))?;
    let text = if o.json {
        let doc = serde_json::json!({
            "record": played.record,
            "events": played.events,
            "verdict": played.verdict,
        });
        serde_json::to_string_pretty(&doc).map_err(|e| Failure(vec![e.to_string()]))? + "\n"
    } else {
        let mut lines = bugs::narrate(&setup, &played.events);
        lines.push(match played.verdict.outcome {
            Some(Outcome::Success) => "Result: success.".into(),
            Some(Outcome::Failure) => "Result: failure.".into(),
            None => "Result: undecided.".into(),
        });
        lines.join("\n") + "\n"
    };
    Ok(BugsOutput {
        text,
        svg: bugs::svg(&encounter),
        warnings: tables.warnings,
    })
}
