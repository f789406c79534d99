//! The tables file: the values the transcription of BUGS! lost, supplied by the user from the
//! booklet (BUGS §17; readings R4–R8, R29). Nothing in dbcore invents them.
//!
//! The file is JSON ([`TablesFile`], format `dbcore-bugs-tables`, version 1):
//!
//! - `impact`: the Impact Table (BUGS §10.2), one column per Power Rating (the key), each column
//!   a row for every 2D6 total from 2 to 12; a cell is a number (more Stamina lost) or `"W"`;
//! - `wound`: the Wound Table (BUGS §10.3), one column per Willpower Rating, rows 2 to 12; a cell
//!   is a Willpower loss (`1`; the booklet's `-1` is read as a loss of 1) or `"K"`;
//! - `weapons`: for the pistol, assault rifle, heavy weapon and grenade, `effective_in` (inches),
//!   `max_in` (inches, `"unlimited"` or `"na"`), and for the pistol and rifle `targets` (a count,
//!   or `"burst"`); the heavy weapon and grenade are bursts (BUGS §4 kept their UNLIMIT);
//! - `sheets`: the citizen's and the little un's lost `ws` and `will`;
//! - `being_charged_passed_none`: the lost cell of the Being Charged check (reading R29), one of
//!   `"stand"`, `"carry_on"`, `"duck_down"`, `"runaway"`.
//!
//! [`validate_tables`] reads the file and names every problem at once: each empty cell, each
//! missing column or value, each value of the wrong kind. [`tables_template`] is the file with
//! every lost value empty, as `examples/bugs/tables-template.json` ships it.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::sheets::Sheet;
use crate::error::{ErrorCode, ErrorInfo};

/// The `format` of a tables file.
pub const TABLES_FORMAT: &str = "dbcore-bugs-tables";

/// The Power Ratings in play with the bundled sheets: weapon Pwr 5, 9 and 11 (the grenade's 11
/// or 9, reading R5) and figure POW 6, 7, 9 and 12 (BUGS §17.1). Each needs an Impact column.
pub const POWER_RATINGS_IN_PLAY: [u32; 6] = [5, 6, 7, 9, 11, 12];

/// The 2D6 totals that are the rows of both tables.
pub const ROWS: std::ops::RangeInclusive<u8> = 2..=12;

/// A cell of the Impact Table as the file spells it: a number or `"W"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum ImpactCell {
    /// That many more points off the target's Stamina (0 to 999).
    Loss(u32),
    /// `"W"`: 10 points, knocked down, and a roll on the Wound Table.
    Letter(ImpactLetter),
}

/// The letter of the Impact Table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ImpactLetter {
    /// Wounded: 10 points, knocked down, roll on the Wound Table (BUGS §10.2).
    #[serde(alias = "w")]
    W,
}

/// A cell of the Wound Table as the file spells it: a Willpower loss or `"K"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum WoundCell {
    /// That much Willpower lost (the booklet's "1"; `-1` is read as 1).
    Loss(i32),
    /// `"K"`: killed.
    Letter(WoundLetter),
}

/// The letter of the Wound Table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum WoundLetter {
    /// Killed (BUGS §10.3).
    #[serde(alias = "k")]
    K,
}

/// A weapon's maximum range as the file spells it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum MaxRangeCell {
    /// Inches, at least the effective range.
    Inches(f64),
    /// `"unlimited"` or `"na"`.
    Word(RangeWord),
}

/// The words a maximum range may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RangeWord {
    /// No maximum: anything in sight.
    Unlimited,
    /// No long-range band: the maximum is the effective range (the grenade's "NA").
    Na,
}

/// A weapon's target count as the file spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum TargetsCell {
    /// Up to this many targets within 2 in of each other.
    Count(u32),
    /// `"burst"`: everything in a 3 in circle (the booklet's UNLIMIT).
    Word(BurstWord),
}

/// The word for a burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BurstWord {
    /// A burst of 3 in radius (BUGS §8).
    Burst,
}

/// One weapon's lost values.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WeaponFile {
    /// Effective range in inches; beyond it is long range (BUGS §4).
    pub effective_in: Option<f64>,
    /// Maximum range: inches, `"unlimited"`, or `"na"` (no long range).
    pub max_in: Option<MaxRangeCell>,
    /// Targets of one fire: a count, or `"burst"`. The heavy weapon and grenade are bursts and
    /// may leave it empty.
    #[serde(default)]
    pub targets: Option<TargetsCell>,
}

/// The four ranged weapons' lost values (BUGS §17.3).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WeaponsFile {
    /// The pistol.
    pub pistol: WeaponFile,
    /// The assault rifle.
    pub assault_rifle: WeaponFile,
    /// The heavy weapon.
    pub heavy_weapon: WeaponFile,
    /// The grenade.
    pub grenade: WeaponFile,
}

/// A sheet's lost Weapon Skill and Willpower (BUGS §17.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LostValues {
    /// Weapon Skill, 0 to 12.
    pub ws: Option<u8>,
    /// Willpower, 0 to 12.
    pub will: Option<u8>,
}

/// The sheets with lost values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetsFile {
    /// Both citizen sheets (fists and pistol).
    pub citizen: LostValues,
    /// The little un.
    pub little_un: LostValues,
}

/// What a figure that passes no roll of its Being Charged check does (reading R29): one of the
/// involuntary results of BUGS §7 that can answer a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BeingChargedNone {
    /// Stands for combat and cannot fire.
    Stand,
    /// Carries on: nothing forced, no fire.
    CarryOn,
    /// Ducks down away from the charger.
    DuckDown,
    /// Runs away.
    Runaway,
}

/// The tables file: the values the transcription lost, supplied by the user (BUGS §17).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    /// Always `dbcore-bugs-tables`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// Free text: where the values come from. Test fixtures say here that they are synthetic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The Impact Table: Power Rating → 2D6 total (2–12) → a number or `"W"` (BUGS §10.2).
    pub impact: BTreeMap<u32, BTreeMap<u8, Option<ImpactCell>>>,
    /// The Wound Table: Willpower Rating → 2D6 total (2–12) → a loss or `"K"` (BUGS §10.3).
    pub wound: BTreeMap<u32, BTreeMap<u8, Option<WoundCell>>>,
    /// The ranged weapons' ranges and target counts (BUGS §4).
    pub weapons: WeaponsFile,
    /// The lost sheet values (BUGS §3).
    pub sheets: SheetsFile,
    /// The lost cell of the Being Charged check (BUGS §12.6, reading R29).
    pub being_charged_passed_none: Option<BeingChargedNone>,
}

/// One problem with a tables file or a set-up: where (a JSON path) and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Problem {
    /// Where, as a dotted JSON path (`tables.impact.9.7`).
    pub at: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.problem)
    }
}

/// A tables file that cannot be played, with every problem found (BUGS §17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub struct TablesError {
    /// Every problem, in the file's order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BUGS §17: the tables file has {} problem{} (the lost values must come from your booklet):",
            self.problems.len(),
            if self.problems.len() == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl ErrorInfo for TablesError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidSetup
    }
    fn rule(&self) -> Option<&'static str> {
        Some("BUGS §17")
    }
}

/// A cell of the Impact Table, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Impact {
    /// More Stamina lost, and the attack is finished.
    Loss(u32),
    /// 10 Stamina, knocked down, and a roll on the Wound Table.
    W,
}

/// A cell of the Wound Table, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Wound {
    /// Willpower lost.
    Loss(u8),
    /// Killed.
    K,
}

/// How many targets one fire may engage (BUGS §4, reading R6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Targets {
    /// Up to this many, each within 2 in of the others.
    UpTo(u8),
    /// Everything in a 3 in circle about the target (reading R16).
    Burst,
}

/// A weapon's ranges and target count, read (reading R6).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WeaponRanges {
    /// Effective range, inches.
    pub effective_in: f64,
    /// Maximum range, inches; `None` for unlimited.
    pub max_in: Option<f64>,
    /// Targets of one fire.
    pub targets: Targets,
}

/// A sheet's lost values, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SheetValues {
    /// Weapon Skill.
    pub ws: u8,
    /// Willpower.
    pub will: u8,
}

/// A validated tables file, as the game reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsTables"))]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// Impact columns by Power Rating, each the rows 2 to 12 in order.
    pub impact: BTreeMap<u32, Vec<Impact>>,
    /// Wound columns by Willpower Rating, each the rows 2 to 12 in order.
    pub wound: BTreeMap<u32, Vec<Wound>>,
    /// The pistol.
    pub pistol: WeaponRanges,
    /// The assault rifle.
    pub assault_rifle: WeaponRanges,
    /// The heavy weapon.
    pub heavy_weapon: WeaponRanges,
    /// The grenade.
    pub grenade: WeaponRanges,
    /// The citizen's lost values.
    pub citizen: SheetValues,
    /// The little un's lost values.
    pub little_un: SheetValues,
    /// The Being Charged check's lost cell.
    pub being_charged_passed_none: BeingChargedNone,
    /// Things worth a second look that do not stop play (a W or K count other than the 55 the
    /// transcription kept).
    pub warnings: Vec<String>,
}

impl Tables {
    /// The Impact cell for a 2D6 total in a Power Rating's column (validated to exist for every
    /// rating in play).
    pub fn impact(&self, power: u32, total: u8) -> Option<Impact> {
        let col = self.impact.get(&power)?;
        col.get(usize::from(total.checked_sub(2)?)).copied()
    }
    /// The Wound column a Willpower reads (reading R8): its own, else the highest below, else the
    /// lowest.
    pub fn wound_column(&self, will: u32) -> u32 {
        if self.wound.contains_key(&will) {
            return will;
        }
        self.wound
            .range(..will)
            .next_back()
            .or_else(|| self.wound.iter().next())
            .map(|(k, _)| *k)
            .unwrap_or(will)
    }
    /// The Wound cell for a 2D6 total in the column a Willpower reads.
    pub fn wound(&self, will: u32, total: u8) -> Option<(u32, Wound)> {
        let c = self.wound_column(will);
        let col = self.wound.get(&c)?;
        col.get(usize::from(total.checked_sub(2)?)).map(|w| (c, *w))
    }
}

/// The tables file with every lost value empty: the template a user fills in from the booklet
/// (`examples/bugs/tables-template.json`). It names the Impact columns in play and the Wound
/// columns of the printed Willpowers; the columns of the citizen's and little un's Willpower are
/// added once those values are known.
pub fn tables_template() -> TablesFile {
    let empty_col = || ROWS.map(|r| (r, None)).collect::<BTreeMap<u8, _>>();
    let empty_wcol = || ROWS.map(|r| (r, None)).collect::<BTreeMap<u8, _>>();
    TablesFile {
        format: TABLES_FORMAT.into(),
        version: 1,
        note: Some(
            "Fill every null from your copy of BUGS! (Two Hour Wargames, 2HW 1011): the Impact \
             Table (one column per Power Rating, cells a number or \"W\"), the Wound Table (one \
             column per Willpower Rating; add the columns of the citizen's and little un's \
             Willpower and any others the booklet prints; cells 1 or \"K\"), the weapons' ranges \
             in inches (max_in may be \"unlimited\" or \"na\") and the pistol's and rifle's \
             target counts, the citizen's and little un's WS and WILL, and the Being Charged \
             check's passed-none result (stand, carry_on, duck_down or runaway). See docs/bugs.md."
                .into(),
        ),
        impact: POWER_RATINGS_IN_PLAY
            .iter()
            .map(|p| (*p, empty_col()))
            .collect(),
        wound: [9u32, 10].iter().map(|w| (*w, empty_wcol())).collect(),
        weapons: WeaponsFile::default(),
        sheets: SheetsFile::default(),
        being_charged_passed_none: None,
    }
}

struct Walker {
    problems: Vec<Problem>,
}

impl Walker {
    fn add(&mut self, at: impl Into<String>, problem: impl Into<String>) {
        self.problems.push(Problem {
            at: at.into(),
            problem: problem.into(),
        });
    }

    fn object<'v>(&mut self, v: Option<&'v Value>, at: &str) -> Option<&'v Map<String, Value>> {
        match v {
            None => {
                self.add(at, "missing");
                None
            }
            Some(Value::Object(m)) => Some(m),
            Some(_) => {
                self.add(at, "must be an object");
                None
            }
        }
    }

    fn unknown_keys(&mut self, m: &Map<String, Value>, at: &str, known: &[&str]) {
        for k in m.keys() {
            if !known.contains(&k.as_str()) {
                self.add(
                    format!("{at}.{k}"),
                    format!("unknown field (expected one of {})", known.join(", ")),
                );
            }
        }
    }

    /// A table: columns keyed by rating, each with rows 2–12.
    fn table<T>(
        &mut self,
        m: &Map<String, Value>,
        at: &str,
        max_key: u32,
        cell: impl Fn(&Value) -> Result<T, String>,
    ) -> BTreeMap<u32, Vec<Option<T>>> {
        let mut out = BTreeMap::new();
        for (k, col) in m {
            let here = format!("{at}.{k}");
            let Some(rating) = k.parse::<u32>().ok().filter(|r| *r <= max_key) else {
                self.add(
                    here,
                    format!("a column's key must be a rating from 0 to {max_key}"),
                );
                continue;
            };
            let Some(rows) = self.object(Some(col), &here) else {
                continue;
            };
            let mut cells = Vec::new();
            for r in ROWS {
                let at_row = format!("{here}.{r}");
                match rows.get(&r.to_string()) {
                    None => {
                        self.add(at_row, "missing row");
                        cells.push(None);
                    }
                    Some(Value::Null) => {
                        self.add(at_row, "empty");
                        cells.push(None);
                    }
                    Some(v) => match cell(v) {
                        Ok(c) => cells.push(Some(c)),
                        Err(e) => {
                            self.add(at_row, e);
                            cells.push(None);
                        }
                    },
                }
            }
            for key in rows.keys() {
                if !key.parse::<u8>().is_ok_and(|r| ROWS.contains(&r)) {
                    self.add(format!("{here}.{key}"), "rows are the 2D6 totals 2 to 12");
                }
            }
            out.insert(rating, cells);
        }
        out
    }

    fn small(&mut self, v: Option<&Value>, at: &str, hint: &str) -> Option<u8> {
        match v {
            None => self.add(at, format!("missing{hint}")),
            Some(Value::Null) => self.add(at, format!("empty{hint}")),
            Some(v) => match v.as_u64().filter(|n| *n <= 12) {
                Some(n) => return Some(n as u8),
                None => self.add(at, "must be a whole number from 0 to 12"),
            },
        }
        None
    }

    fn weapon(
        &mut self,
        m: Option<&Map<String, Value>>,
        name: &str,
        burst: bool,
        hint: &str,
    ) -> Option<WeaponRanges> {
        let at = format!("weapons.{name}");
        let m = self.object(m.and_then(|w| w.get(name)), &at)?;
        self.unknown_keys(m, &at, &["effective_in", "max_in", "targets"]);
        let eff = match m.get("effective_in") {
            None | Some(Value::Null) => {
                self.add(
                    format!("{at}.effective_in"),
                    format!("empty: the effective range in inches{hint}"),
                );
                None
            }
            Some(v) => match v.as_f64().filter(|x| x.is_finite() && *x > 0.0) {
                Some(x) => Some(x),
                None => {
                    self.add(
                        format!("{at}.effective_in"),
                        "must be a number of inches above 0",
                    );
                    None
                }
            },
        };
        let max = match m.get("max_in") {
            None | Some(Value::Null) => {
                self.add(
                    format!("{at}.max_in"),
                    format!("empty: the maximum range in inches, \"unlimited\" or \"na\"{hint}"),
                );
                None
            }
            Some(Value::String(s))
                if s.eq_ignore_ascii_case("unlimited") || s.eq_ignore_ascii_case("unlimit") =>
            {
                Some(None)
            }
            Some(Value::String(s)) if s.eq_ignore_ascii_case("na") => Some(eff),
            Some(v) => match v.as_f64().filter(|x| x.is_finite()) {
                Some(x) if eff.is_none_or(|e| x >= e) => Some(Some(x)),
                _ => {
                    self.add(
                        format!("{at}.max_in"),
                        "must be inches at least the effective range, \"unlimited\" or \"na\"",
                    );
                    None
                }
            },
        };
        let targets = match m.get("targets") {
            None | Some(Value::Null) if burst => Some(Targets::Burst),
            None | Some(Value::Null) => {
                self.add(
                    format!("{at}.targets"),
                    "empty: how many targets one fire may engage (a count, or \"burst\")",
                );
                None
            }
            Some(Value::String(s))
                if ["burst", "unlimit", "unlimited"]
                    .iter()
                    .any(|w| s.eq_ignore_ascii_case(w)) =>
            {
                Some(Targets::Burst)
            }
            Some(v) if !burst => match v.as_u64().filter(|n| (1..=12).contains(n)) {
                Some(n) => Some(Targets::UpTo(n as u8)),
                None => {
                    self.add(
                        format!("{at}.targets"),
                        "must be a count from 1 to 12, or \"burst\"",
                    );
                    None
                }
            },
            Some(_) => {
                self.add(
                    format!("{at}.targets"),
                    "the booklet kept UNLIMIT for this weapon: leave it empty or write \"burst\"",
                );
                None
            }
        };
        Some(WeaponRanges {
            effective_in: eff?,
            max_in: max?,
            targets: targets?,
        })
    }
}

fn impact_cell(v: &Value) -> Result<Impact, String> {
    match v {
        Value::String(s) if s.eq_ignore_ascii_case("w") => Ok(Impact::W),
        _ => v
            .as_u64()
            .filter(|n| *n <= 999)
            .map(|n| Impact::Loss(n as u32))
            .ok_or_else(|| format!("{v} is not a Stamina loss (0 to 999) or \"W\"")),
    }
}

fn wound_cell(v: &Value) -> Result<Wound, String> {
    match v {
        Value::String(s) if s.eq_ignore_ascii_case("k") => Ok(Wound::K),
        _ => v
            .as_i64()
            .filter(|n| (-12..=12).contains(n))
            .map(|n| Wound::Loss(n.unsigned_abs() as u8))
            .ok_or_else(|| {
                format!("{v} is not a Willpower loss (1, or the booklet's -1) or \"K\"")
            }),
    }
}

/// Read and check a tables file, naming every problem at once (BUGS §17, readings R6–R8, R29).
///
/// ```
/// use dbcore::bugs::{tables_template, validate_tables};
///
/// // The template has every lost value empty: each one is named.
/// let template = serde_json::to_value(tables_template()).unwrap();
/// let err = validate_tables(&template).unwrap_err();
/// assert!(err.problems.iter().any(|p| p.at == "impact.9.7" && p.problem == "empty"));
/// assert!(err.problems.iter().any(|p| p.at == "sheets.little_un.will"));
/// assert!(err.problems.len() > 90);
/// ```
pub fn validate_tables(v: &Value) -> Result<Tables, TablesError> {
    let mut w = Walker {
        problems: Vec::new(),
    };
    let Some(top) = w.object(Some(v), "tables") else {
        return Err(TablesError {
            problems: w.problems,
        });
    };
    w.unknown_keys(
        top,
        "tables",
        &[
            "format",
            "version",
            "note",
            "impact",
            "wound",
            "weapons",
            "sheets",
            "being_charged_passed_none",
        ],
    );
    if top.get("format").and_then(Value::as_str) != Some(TABLES_FORMAT) {
        w.add("format", format!("must be \"{TABLES_FORMAT}\""));
    }
    if top.get("version").and_then(Value::as_u64) != Some(1) {
        w.add("version", "must be 1");
    }
    if top
        .get("note")
        .is_some_and(|n| !n.is_string() && !n.is_null())
    {
        w.add("note", "must be text");
    }
    let impact = match w.object(top.get("impact"), "impact") {
        Some(m) => w.table(m, "impact", 999, impact_cell),
        None => BTreeMap::new(),
    };
    let wound = match w.object(top.get("wound"), "wound") {
        Some(m) => w.table(m, "wound", 12, wound_cell),
        None => BTreeMap::new(),
    };
    for p in POWER_RATINGS_IN_PLAY {
        if !impact.contains_key(&p) {
            w.add(
                format!("impact.{p}"),
                format!("no column for Power Rating {p}, which is in play (weapon Pwr 5, 9, 11; POW 6, 7, 9, 12)"),
            );
        }
    }
    let sheets = w.object(top.get("sheets"), "sheets");
    if let Some(s) = sheets {
        w.unknown_keys(s, "sheets", &["citizen", "little_un"]);
    }
    let mut lost = |name: &str, pow: u32, stam: u32| -> Option<SheetValues> {
        let at = format!("sheets.{name}");
        let m = w.object(sheets.and_then(|s| s.get(name)), &at)?;
        w.unknown_keys(m, &at, &["ws", "will"]);
        let ws = w.small(
            m.get("ws"),
            &format!("{at}.ws"),
            ": the booklet's value was lost",
        );
        let hint = if stam % pow == 0 {
            format!(
                ": the booklet's value was lost (on the complete sheets STAM = POW × WILL, which \
                 would make it {}; check it against your booklet)",
                stam / pow
            )
        } else {
            String::new()
        };
        let will = w.small(m.get("will"), &format!("{at}.will"), &hint);
        Some(SheetValues {
            ws: ws?,
            will: will?,
        })
    };
    let citizen = lost("citizen", 6, 42);
    let little_un = lost("little_un", 7, 49);
    let weapons = w.object(top.get("weapons"), "weapons");
    if let Some(m) = weapons {
        w.unknown_keys(
            m,
            "weapons",
            &["pistol", "assault_rifle", "heavy_weapon", "grenade"],
        );
    }
    let pistol = w.weapon(weapons, "pistol", false, "");
    let assault_rifle = w.weapon(weapons, "assault_rifle", false, "");
    let heavy_weapon = w.weapon(weapons, "heavy_weapon", true, "");
    let grenade = w.weapon(
        weapons,
        "grenade",
        true,
        " (the transcription kept \"Up to 4\" and \"NA\" in its range cells; check them against your booklet)",
    );
    let mut starting: Vec<(String, u32)> = Sheet::ALL
        .iter()
        .filter_map(|s| {
            s.printed_will()
                .map(|v| (s.name().to_string(), u32::from(v)))
        })
        .collect();
    if let Some(c) = citizen {
        starting.push(("Citizen".into(), c.will.into()));
    }
    if let Some(l) = little_un {
        starting.push(("Little un".into(), l.will.into()));
    }
    starting.sort_by_key(|(_, v)| *v);
    starting.dedup_by_key(|(_, v)| *v);
    for (who, will) in starting {
        if !wound.contains_key(&will) {
            w.add(
                format!("wound.{will}"),
                format!("no column for Willpower {will}, the {who}'s at the start (reading R8)"),
            );
        }
    }
    let bc = match top.get("being_charged_passed_none") {
        None | Some(Value::Null) => {
            w.add(
                "being_charged_passed_none",
                "empty: the lost cell of the Being Charged check (stand, carry_on, duck_down or runaway)",
            );
            None
        }
        Some(v) => match serde_json::from_value::<BeingChargedNone>(v.clone()) {
            Ok(r) => Some(r),
            Err(_) => {
                w.add(
                    "being_charged_passed_none",
                    "must be one of stand, carry_on, duck_down, runaway",
                );
                None
            }
        },
    };
    if !w.problems.is_empty() {
        return Err(TablesError {
            problems: w.problems,
        });
    }
    let impact: BTreeMap<u32, Vec<Impact>> = full(impact);
    let wound: BTreeMap<u32, Vec<Wound>> = full(wound);
    let mut warnings = Vec::new();
    let ws = impact
        .values()
        .flatten()
        .filter(|c| **c == Impact::W)
        .count();
    if ws != 55 {
        warnings.push(format!(
            "the Impact Table has {ws} W cells; the transcription kept 55 (reading R7)"
        ));
    }
    let ks = wound.values().flatten().filter(|c| **c == Wound::K).count();
    if ks != 55 {
        warnings.push(format!(
            "the Wound Table has {ks} K cells; the transcription kept 55 (reading R8)"
        ));
    }
    match (
        pistol,
        assault_rifle,
        heavy_weapon,
        grenade,
        citizen,
        little_un,
        bc,
    ) {
        (Some(p), Some(r), Some(h), Some(g), Some(c), Some(l), Some(b)) => Ok(Tables {
            impact,
            wound,
            pistol: p,
            assault_rifle: r,
            heavy_weapon: h,
            grenade: g,
            citizen: c,
            little_un: l,
            being_charged_passed_none: b,
            warnings,
        }),
        _ => Err(TablesError {
            problems: vec![Problem {
                at: "tables".into(),
                problem: "incomplete".into(),
            }],
        }),
    }
}

fn full<T>(t: BTreeMap<u32, Vec<Option<T>>>) -> BTreeMap<u32, Vec<T>> {
    t.into_iter()
        .map(|(k, v)| (k, v.into_iter().flatten().collect()))
        .collect()
}

impl TablesFile {
    /// Check the file (see [`validate_tables`]).
    pub fn validate(&self) -> Result<Tables, TablesError> {
        let v = serde_json::to_value(self).map_err(|e| TablesError {
            problems: vec![Problem {
                at: "tables".into(),
                problem: e.to_string(),
            }],
        })?;
        validate_tables(&v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_round_trips_and_lists_rows_in_order() {
        let t = tables_template();
        let text = serde_json::to_string(&t).unwrap();
        assert!(text.contains("\"2\":null,\"3\":null"));
        let back: TablesFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn wound_columns_fall_back_below_then_to_the_lowest() {
        // Reading R8.
        let mut t = Tables {
            impact: BTreeMap::new(),
            wound: BTreeMap::new(),
            pistol: WeaponRanges {
                effective_in: 1.0,
                max_in: None,
                targets: Targets::UpTo(1),
            },
            assault_rifle: WeaponRanges {
                effective_in: 1.0,
                max_in: None,
                targets: Targets::UpTo(1),
            },
            heavy_weapon: WeaponRanges {
                effective_in: 1.0,
                max_in: None,
                targets: Targets::Burst,
            },
            grenade: WeaponRanges {
                effective_in: 1.0,
                max_in: None,
                targets: Targets::Burst,
            },
            citizen: SheetValues { ws: 1, will: 1 },
            little_un: SheetValues { ws: 1, will: 1 },
            being_charged_passed_none: BeingChargedNone::Stand,
            warnings: Vec::new(),
        };
        t.wound.insert(5, vec![Wound::K; 11]);
        t.wound.insert(9, vec![Wound::Loss(1); 11]);
        assert_eq!(t.wound_column(9), 9);
        assert_eq!(t.wound_column(8), 5);
        assert_eq!(t.wound_column(12), 9);
        assert_eq!(t.wound_column(2), 5);
    }
}
