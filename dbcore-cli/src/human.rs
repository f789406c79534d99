//! `dbcore play --human red`: a person at a terminal against the opponent of `dbcore::ai`.
//!
//! The person types orders in the notation of [`dbcore::battle::notation`] (`help` lists it);
//! dice left out of an order are thrown from the game's seeded tray. The table is drawn as text at
//! the start of each of the person's bounds (and on `table`), the SVG picture is written after
//! every bound, and an illegal order is answered with the rule that forbids it. `legal` lists
//! what may be done, `undo` takes back the person's last order (and the opponent's answers since),
//! `save FILE` writes the game record, and `quit` saves it before leaving. `red` is the first army
//! of the set-up, `blue` the second. The game is played through [`dbcore::surface::Session`],
//! the same surface every binding uses; the pre-battle of a game between two lists is played by
//! the demonstration driver and the person takes over at the first bound. On a terminal, lines
//! are read with editing and history (rustyline); from a pipe, line by line.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use dbcore::battle::notation::HELP;
use dbcore::battle::{Battle, BattleSetup, DiceRequest, Phase};
use dbcore::game::AnyBattle;
use dbcore::geometry::Point;
use dbcore::surface::Session;
use dbcore::terrain::{AreaKind, Going, TerrainFeature};
use serde_json::{json, Value};

use crate::commands::Failure;

/// What `--human` names: the army the person plays.
pub fn side(name: &str) -> Result<usize, Failure> {
    match name {
        "red" | "first" | "0" => Ok(0),
        "blue" | "second" | "1" => Ok(1),
        other => Err(fail_one(format!(
            "--human takes red (the first army) or blue (the second), not {other:?}"
        ))),
    }
}

/// How a human game is set.
#[derive(Debug, Clone)]
pub struct HumanOptions {
    /// The army the person plays.
    pub human: usize,
    pub seed: u64,
    pub max_bounds: u32,
    /// The opponent's budget per decision.
    pub nodes: u32,
    /// Where the picture is written after every bound.
    pub svg: Option<PathBuf>,
    /// Where `quit` saves the game.
    pub save: PathBuf,
}

const NAMES: [&str; 2] = ["red", "blue"];

fn name(army: usize) -> &'static str {
    NAMES.get(army).copied().unwrap_or("other")
}

/// Where the person's lines come from.
pub trait Lines {
    /// The next line after showing `prompt`, or `None` when the input has ended.
    fn line(&mut self, prompt: &str, out: &mut dyn Write) -> std::io::Result<Option<String>>;
}

/// Lines from any reader (a pipe, a file, a test's script), the prompt written to `out`.
pub struct Plain<'a>(pub &'a mut dyn BufRead);

impl Lines for Plain<'_> {
    fn line(&mut self, prompt: &str, out: &mut dyn Write) -> std::io::Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut s = String::new();
        if self.0.read_line(&mut s)? == 0 {
            return Ok(None);
        }
        Ok(Some(s))
    }
}

/// Lines from a terminal, with editing and history.
pub struct Edited(rustyline::DefaultEditor);

impl Edited {
    /// An editor on the terminal, or `None` when standard input is not one.
    pub fn on_terminal() -> Option<Edited> {
        if !std::io::stdin().is_terminal() {
            return None;
        }
        rustyline::DefaultEditor::new().ok().map(Edited)
    }
}

impl Lines for Edited {
    fn line(&mut self, prompt: &str, out: &mut dyn Write) -> std::io::Result<Option<String>> {
        out.flush()?;
        match self.0.readline(prompt) {
            Ok(l) => {
                if !l.trim().is_empty() {
                    let _ = self.0.add_history_entry(l.as_str());
                }
                Ok(Some(l))
            }
            Err(rustyline::error::ReadlineError::Interrupted)
            | Err(rustyline::error::ReadlineError::Eof) => Ok(None),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    }
}

/// A line as typed, without the escape sequences of keys a plain reader passes through (the End
/// key's `ESC [ F`) and other control characters.
fn cleaned(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ ... final byte, or ESC O x.
            match chars.next() {
                Some('[') => {
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            break;
                        }
                    }
                }
                Some(_) | None => {
                    chars.next();
                }
            }
        } else if !c.is_control() {
            out.push(c);
        }
    }
    out.trim().to_string()
}

fn call(s: &mut Session, method: &str, params: Value) -> Result<Value, String> {
    s.call(method, params).map_err(|e| e.message)
}

fn battle(s: &Session) -> Result<&Battle, Failure> {
    match s.battle() {
        Some(AnyBattle::Dba(b)) => Ok(b),
        _ => Err(fail_one("the terminal game plays DBA battles")),
    }
}

/// Start a session from a set-up or a saved game.
pub fn session(
    setup: Option<BattleSetup>,
    load: Option<&Path>,
    seed: u64,
) -> Result<Session, Failure> {
    let how = match (setup, load) {
        (_, Some(path)) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| fail_one(format!("{}: {e}", path.display())))?;
            json!({ "game": text, "seed": seed })
        }
        (Some(setup), None) => json!({ "setup": setup, "seed": seed }),
        (None, None) => return Err(fail_one("a set-up or a saved game is needed")),
    };
    Session::new(how).map_err(|e| fail_one(e.message))
}

/// Play the session's battle with the person at `input`/`out` against the opponent, until an
/// army loses, the bound limit, `quit` or the end of the input. Returns the session.
pub fn play(
    mut s: Session,
    o: &HumanOptions,
    input: &mut dyn Lines,
    out: &mut dyn Write,
) -> Result<Session, Failure> {
    let io = |e: std::io::Error| fail_one(format!("terminal: {e}"));
    let armies: Vec<String> = battle(&s)?
        .setup()
        .armies
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{} ({})", a.name, name(i)))
        .collect();
    writeln!(
        out,
        "DBA 3.0: {}; you play {}. Type `help` for the orders.",
        armies.join(" against "),
        name(o.human)
    )
    .map_err(io)?;
    let mut shown_bound = 0;
    let mut told = call(&mut s, "info", Value::Null).map_err(fail_one)?["events"]
        .as_u64()
        .unwrap_or(0) as usize;
    // Each step applies an action or reads a line; the cap guards a stalled opponent.
    for _ in 0..o.max_bounds.saturating_mul(400).max(400) {
        let b = battle(&s)?;
        if b.bound() > o.max_bounds {
            writeln!(out, "The bound limit ({}) is reached.", o.max_bounds).map_err(io)?;
            break;
        }
        if let Phase::Finished { winner } = b.phase() {
            match winner {
                Some(w) if w == o.human => writeln!(out, "You have won.").map_err(io)?,
                Some(w) => writeln!(out, "{} has won.", name(w)).map_err(io)?,
                None => writeln!(out, "The battle is over.").map_err(io)?,
            }
            break;
        }
        let bound_before = b.bound();
        let active = b.active_army();
        let outcome = if b.phase() == Phase::AwaitingPips {
            call(&mut s, "play", json!({ "text": "pips" }))
        } else if active != o.human {
            let chosen = call(&mut s, "ai", json!({ "nodes": o.nodes, "seed": o.seed }))
                .map_err(|e| fail_one(format!("the opponent has no move: {e}")))?;
            let action = chosen["action"].clone();
            let shown = call(
                &mut s,
                "describe",
                json!({ "action": action, "decimals": 2 }),
            )
            .map_err(fail_one)?;
            writeln!(
                out,
                "{}: {}",
                name(active),
                shown["text"].as_str().unwrap_or_default()
            )
            .map_err(io)?;
            call(&mut s, "apply", json!({ "action": action }))
                .map_err(|e| fail_one(format!("the referee refused its own move: {e}")))?;
            Ok(Value::Null)
        } else {
            if shown_bound != b.bound() {
                shown_bound = b.bound();
                write!(out, "{}", text_table(b, o.human)).map_err(io)?;
            }
            writeln!(out, "{}", hint(b)).map_err(io)?;
            let Some(line) = input
                .line(&format!("{}> ", name(o.human)), out)
                .map_err(io)?
            else {
                writeln!(out, "\n(input ended)").map_err(io)?;
                save(&s, &o.save, out)?;
                break;
            };
            let text = cleaned(&line);
            match text.as_str() {
                "" => continue,
                "help" => {
                    writeln!(
                        out,
                        "{HELP}\nother commands: help, legal, table, undo, save FILE, quit"
                    )
                    .map_err(io)?;
                    continue;
                }
                "legal" => {
                    write!(out, "{}", legal_text(b)).map_err(io)?;
                    continue;
                }
                "table" => {
                    write!(out, "{}", text_table(b, o.human)).map_err(io)?;
                    continue;
                }
                "undo" => {
                    writeln!(out, "{}", undo(&mut s, o.human)).map_err(io)?;
                    told = call(&mut s, "info", Value::Null).map_err(fail_one)?["events"]
                        .as_u64()
                        .unwrap_or(0) as usize;
                    continue;
                }
                "quit" => {
                    writeln!(out, "You leave the field.").map_err(io)?;
                    save(&s, &o.save, out)?;
                    break;
                }
                t if t.starts_with("save") => {
                    let path = t.trim_start_matches("save").trim();
                    let path = if path.is_empty() {
                        o.save.clone()
                    } else {
                        PathBuf::from(path)
                    };
                    save(&s, &path, out)?;
                    continue;
                }
                _ => {}
            }
            match call(&mut s, "play", json!({ "text": text })) {
                Ok(v) => Ok(v),
                Err(e) => {
                    writeln!(out, "refused: {e}").map_err(io)?;
                    continue;
                }
            }
        };
        outcome.map_err(|e| fail_one(format!("the referee refused a roll: {e}")))?;
        // Tell what happened since the last telling.
        let lines = call(&mut s, "narrate", json!({ "since": told })).map_err(fail_one)?;
        for l in lines.as_array().into_iter().flatten() {
            let l = l.as_str().unwrap_or_default();
            if !l.is_empty() {
                writeln!(out, "{l}").map_err(io)?;
            }
        }
        told = call(&mut s, "info", Value::Null).map_err(fail_one)?["events"]
            .as_u64()
            .unwrap_or(0) as usize;
        if battle(&s)?.bound() != bound_before {
            if let Some(p) = &o.svg {
                std::fs::write(p, battle(&s)?.svg(false))
                    .map_err(|e| fail_one(format!("{}: {e}", p.display())))?;
            }
        }
    }
    Ok(s)
}

/// Take back the person's last order, and every action of the opponent since.
fn undo(s: &mut Session, human: usize) -> String {
    let mut taken = Vec::new();
    // A bound has at most a few dozen actions: the cap guards a game without a human order.
    for _ in 0..500 {
        let Some(AnyBattle::Dba(b)) = s.battle() else {
            break;
        };
        let mover = b.active_army();
        let rolled = b.phase() == Phase::AwaitingPips;
        match call(s, "undo", Value::Null) {
            Ok(v) => {
                let last_was_human = match s.battle() {
                    Some(AnyBattle::Dba(b)) => {
                        b.active_army() == human && b.phase() != Phase::AwaitingPips
                    }
                    _ => false,
                };
                taken.push(v["action"]["action"].as_str().unwrap_or("?").to_string());
                if last_was_human && !(rolled && mover != human) {
                    break;
                }
            }
            Err(e) => {
                if taken.is_empty() {
                    return format!("nothing to undo: {e}");
                }
                break;
            }
        }
    }
    format!("taken back: {}", taken.join(", "))
}

fn save(s: &Session, path: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    std::fs::write(path, s.record().to_json_pretty() + "\n")
        .map_err(|e| fail_one(format!("{}: {e}", path.display())))?;
    writeln!(
        out,
        "The game is saved to {} (`dbcore replay {0}` tells it, `dbcore play --human ... --load {0}` goes on with it).",
        path.display()
    )
    .map_err(|e| fail_one(format!("terminal: {e}")))
}

/// What to type next, for the phase the person is in.
fn hint(b: &Battle) -> String {
    match b.awaiting() {
        Some(DiceRequest::Shot { .. }) => {
            "Shooting: choose a shot, `shoot ID -> TARGET` (`legal` lists them).".into()
        }
        Some(DiceRequest::Combat { pairs }) => {
            let first = pairs
                .first()
                .map(|(a, t)| format!(" (next: `fight {} {}`)", a.0, t.0))
                .unwrap_or_default();
            format!("Close combat: fight each combat in the order you choose{first}.")
        }
        _ => format!(
            "Your move, {} PIP{} left: move elements (`3 move 1.5`, `3 contact 104 front`), then `end`. `legal`, `table`, `undo`, `help`.",
            b.pips(),
            if b.pips() == 1 { "" } else { "s" }
        ),
    }
}

/// What may be done now, for a person.
pub fn legal_text(b: &Battle) -> String {
    let l = b.legal();
    let mut s = format!(
        "bound {}, {}'s {:?}, {} PIPs left\n",
        l.bound,
        name(l.army),
        l.phase,
        l.pips
    );
    for m in &l.moves {
        s += &format!(
            "  {} may move (move {}, {} PIP{}{}), up to {} BW in good going\n",
            m.id.0,
            m.move_number,
            m.cost.total,
            if m.cost.total == 1 { "" } else { "s" },
            if m.affordable { "" } else { ", not affordable" },
            m.reach_good
        );
    }
    for sh in &l.shots {
        let t: Vec<String> = sh.targets.iter().map(|t| t.0.to_string()).collect();
        s += &format!("  shoot {} -> one of {}\n", sh.shooter.0, t.join(", "));
    }
    for c in &l.combats {
        s += &format!("  fight {} {}\n", c.a.0, c.b.0);
    }
    if l.may_dice_river {
        s += "  river\n";
    }
    if l.may_end_movement {
        s += "  end\n";
    }
    s
}

/// The arrow for a facing: north up.
fn arrow(facing: f64) -> char {
    match (((facing.rem_euclid(360.0) + 45.0) / 90.0) as u32) % 4 {
        0 => '^',
        1 => '>',
        2 => 'v',
        _ => '<',
    }
}

/// The table as text: 4 columns and 2 rows a BW, north up. Elements of the person's army are
/// `#`, the opponent's `o`, each labelled with an arrow for its facing and its id; the terrain
/// under them as the legend says. Each element is listed below with its kind, pose and state.
pub fn text_table(b: &Battle, human: usize) -> String {
    let board = b.setup().battlefield.board;
    let cfg = &b.setup().config;
    let (cols, rows) = (
        (board.width * 4.0).ceil() as usize,
        (board.depth * 2.0).ceil() as usize,
    );
    let mut grid = vec![vec![' '; cols]; rows];
    let cell = |r: usize, c: usize| {
        Point::new((c as f64 + 0.5) / 4.0, board.depth - (r as f64 + 0.5) / 2.0)
    };
    let table = b.table();
    let mut used: Vec<(char, &str)> = Vec::new();
    let mut mark = |grid: &mut Vec<Vec<char>>,
                    ch: char,
                    what: &'static str,
                    inside: &dyn Fn(Point) -> bool| {
        let mut any = false;
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, x) in row.iter_mut().enumerate() {
                if inside(cell(r, c)) {
                    *x = ch;
                    any = true;
                }
            }
        }
        if any && !used.iter().any(|(c, _)| *c == ch) {
            used.push((ch, what));
        }
    };
    // The waterway first, then areas, rivers and roads over it.
    mark(&mut grid, '~', "waterway", &|p| {
        table.going_at(p) == Going::Impassable
    });
    for f in &b.setup().battlefield.features {
        match f {
            TerrainFeature::Area(a) => {
                let (ch, what) = match a.kind {
                    AreaKind::Wood => ('^', "wood"),
                    AreaKind::GentleHill => (':', "gentle hill"),
                    AreaKind::DifficultHill => (';', "difficult hill"),
                    AreaKind::Marsh | AreaKind::Boggy => (',', "marsh, boggy ground"),
                    AreaKind::City | AreaKind::Fort | AreaKind::Hamlet | AreaKind::Edifice => {
                        ('H', "built-up area")
                    }
                    _ => ('.', "other rough or bad going"),
                };
                mark(&mut grid, ch, what, &|p| a.outline.contains(p));
            }
            TerrainFeature::River(river) => {
                let half = (river.width * 0.5).max(0.2);
                mark(&mut grid, '=', "river", &|p| {
                    river.course.windows(2).any(|w| {
                        dbcore::geometry::Segment::new(w[0], w[1]).distance_to_point(p) <= half
                    })
                });
            }
            TerrainFeature::Road(road) => {
                mark(&mut grid, '%', "road", &|p| {
                    road.path.windows(2).any(|w| {
                        dbcore::geometry::Segment::new(w[0], w[1]).distance_to_point(p) <= 0.2
                    })
                });
            }
            TerrainFeature::Waterway(_) => {}
        }
    }
    for e in b.elements().iter().filter(|e| e.in_play()) {
        let poly = e.rect(cfg).polygon();
        let ch = if e.army == human { '#' } else { 'o' };
        let mut filled: Vec<(usize, usize)> = Vec::new();
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, x) in row.iter_mut().enumerate() {
                if poly.contains(cell(r, c)) {
                    *x = ch;
                    filled.push((r, c));
                }
            }
        }
        // The label, an arrow and the id, written only over the element's own cells so that
        // neighbours' labels never run together.
        let label: Vec<char> = std::iter::once(arrow(e.pose.facing))
            .chain(e.id.0.to_string().chars())
            .collect();
        let rows_of: std::collections::BTreeSet<usize> = filled.iter().map(|(r, _)| *r).collect();
        for r in rows_of {
            let cs: Vec<usize> = filled
                .iter()
                .filter(|(x, _)| *x == r)
                .map(|(_, c)| *c)
                .collect();
            if cs.len() >= label.len() {
                let start = cs[(cs.len() - label.len()) / 2];
                if (0..label.len()).all(|k| cs.contains(&(start + k))) {
                    for (k, l) in label.iter().enumerate() {
                        grid[r][start + k] = *l;
                    }
                    break;
                }
            }
        }
        if !used.iter().any(|(c, _)| *c == ch) {
            used.push((
                ch,
                if e.army == human {
                    "your elements"
                } else {
                    "the enemy's elements"
                },
            ));
        }
    }
    let mut s = format!(
        "+{}+  north is up; 4 columns and 2 rows a BW\n",
        "-".repeat(cols)
    );
    for row in grid {
        s.push('|');
        s.extend(row);
        s += "|\n";
    }
    s += &format!("+{}+\n", "-".repeat(cols));
    let legend: Vec<String> = used.iter().map(|(c, w)| format!("{c} {w}")).collect();
    s += &format!(
        "  legend: {}; ^ > v < facing, then the id\n",
        legend.join(", ")
    );
    for e in b.elements() {
        let state = if e.in_play() { "" } else { " (lost)" };
        s += &format!(
            "  {:<4} {:>4} {:<5} at ({:.2}, {:.2}) facing {:>3.0} {}{}{}\n",
            name(e.army),
            e.id.0,
            e.kind.code(),
            e.pose.x,
            e.pose.y,
            e.pose.facing,
            arrow(e.pose.facing),
            if e.general { " general" } else { "" },
            state
        );
    }
    s
}

fn fail_one(m: impl Into<String>) -> Failure {
    Failure(vec![m.into()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_key_and_other_escapes_are_not_read_as_an_order() {
        assert_eq!(cleaned("\u{1b}[F"), "");
        assert_eq!(cleaned("end\u{1b}[F\r\n"), "end");
        assert_eq!(cleaned("3 move 1\u{1b}OH"), "3 move 1");
    }

    #[test]
    fn the_text_table_draws_rivers_roads_facing_and_separate_ids() {
        let record: dbcore::battle::BattleRecord = {
            let path = format!(
                "{}/../tests/golden/road_and_river.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            serde_json::from_value(v["record"].clone()).unwrap()
        };
        let b = Battle::new(record.setup).unwrap();
        let t = text_table(&b, 0);
        assert!(t.contains('='), "no river drawn:\n{t}");
        assert!(t.contains('%'), "no road drawn:\n{t}");
        assert!(t.contains("legend:"), "{t}");
        assert!(t.contains("river") && t.contains("road"), "{t}");
        // Every element's id stands alone, after its arrow.
        for e in b.elements() {
            let label = format!("{}{}", arrow(e.pose.facing), e.id.0);
            assert!(t.contains(&label), "{label} missing:\n{t}");
        }
    }
}
