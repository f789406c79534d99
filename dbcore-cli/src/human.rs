//! `dbcore play --human red`: a person at a terminal against the opponent of `dbcore::ai`.
//!
//! The person types orders in the notation of [`dbcore::ai::notation`] (`help` lists it); the
//! program rolls every die, shows the table as text at the start of each of the person's bounds
//! (and on `table`), writes the SVG picture after every bound, and prints the referee's refusal,
//! with the rule that forbids it, when an order is illegal. `legal` says what may be done now.
//! `red` is the first army of the set-up, `blue` the second. The pre-battle of a game between two
//! lists is played by the demonstration driver; the person takes over at the first bound.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use dbcore::ai::notation::{describe, Order, HELP};
use dbcore::ai::{Ai, AiConfig};
use dbcore::battle::{Action, Battle, BattleSetup, DiceRequest, Event, Phase};
use dbcore::driver::Policy;
use dbcore::geometry::Point;
use dbcore::terrain::AreaKind;
use dbcore::SeededDice;

use crate::commands::{narration, Failure};

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
}

const NAMES: [&str; 2] = ["red", "blue"];

fn name(army: usize) -> &'static str {
    NAMES.get(army).copied().unwrap_or("other")
}

/// Play `setup` with the person at `input`/`out` against the opponent, until an army loses, the
/// bound limit, `quit` or the end of the input. Returns the final battle.
pub fn play(
    setup: BattleSetup,
    o: &HumanOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Battle, Failure> {
    let io = |e: std::io::Error| fail_one(format!("terminal: {e}"));
    let mut battle = Battle::new(setup.clone()).map_err(|e| fail_one(e.to_string()))?;
    let mut dice = SeededDice::new(o.seed);
    let mut ai = Ai::new(AiConfig {
        nodes: o.nodes,
        seed: o.seed,
    });
    let armies: Vec<String> = setup
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
    let mut line = String::new();
    // Each step applies an action or reads a line; the cap guards a stalled opponent.
    for _ in 0..o.max_bounds.saturating_mul(400).max(400) {
        if battle.bound() > o.max_bounds {
            writeln!(out, "The bound limit ({}) is reached.", o.max_bounds).map_err(io)?;
            break;
        }
        let phase = battle.phase();
        if let Phase::Finished { winner } = phase {
            match winner {
                Some(w) if w == o.human => writeln!(out, "You have won.").map_err(io)?,
                Some(w) => writeln!(out, "{} has won.", name(w)).map_err(io)?,
                None => writeln!(out, "The battle is over.").map_err(io)?,
            }
            break;
        }
        let action = if phase == Phase::AwaitingPips {
            Action::RollPips { die: dice.roll() }
        } else if battle.active_army() != o.human {
            let roll = matches!(
                battle.awaiting(),
                Some(DiceRequest::Shot { .. } | DiceRequest::Combat { .. })
            )
            .then(|| dice.roll_pair());
            let a = ai.next_action(&battle, roll).unwrap_or(Action::EndMovement);
            writeln!(out, "{}: {}", name(battle.active_army()), describe(&a)).map_err(io)?;
            a
        } else {
            if shown_bound != battle.bound() {
                shown_bound = battle.bound();
                write!(out, "{}", text_table(&battle, o.human)).map_err(io)?;
            }
            write!(out, "{}> ", name(o.human)).map_err(io)?;
            out.flush().map_err(io)?;
            line.clear();
            if input.read_line(&mut line).map_err(io)? == 0 {
                writeln!(out, "\n(input ended)").map_err(io)?;
                break;
            }
            let text = line.trim();
            match text {
                "" => continue,
                "help" => {
                    writeln!(out, "{HELP}").map_err(io)?;
                    continue;
                }
                "legal" => {
                    write!(out, "{}", legal_text(&battle)).map_err(io)?;
                    continue;
                }
                "table" => {
                    write!(out, "{}", text_table(&battle, o.human)).map_err(io)?;
                    continue;
                }
                "quit" => {
                    writeln!(out, "You leave the field.").map_err(io)?;
                    break;
                }
                _ => {}
            }
            let order = match text.parse::<Order>() {
                Ok(order) => order,
                Err(e) => {
                    writeln!(out, "{e}").map_err(io)?;
                    continue;
                }
            };
            // Check before rolling: a refused order costs no dice.
            let probe = order.action(&battle, [dbcore::DieScore::new(1).expect("1 is a die"); 2]);
            // Legality does not depend on the scores, so any dice probe it.
            if let Err(e) = battle.check(&probe) {
                writeln!(out, "refused: {e}").map_err(io)?;
                continue;
            }
            let roll = if order.dice_needed() > 0 {
                dice.roll_pair()
            } else {
                [dbcore::DieScore::new(1).expect("1 is a die"); 2]
            };
            order.action(&battle, roll)
        };
        match battle.apply(action) {
            Ok(events) => {
                write!(out, "{}", narration(&setup, &events)).map_err(io)?;
                if events.iter().any(|e| matches!(e, Event::BoundEnded { .. })) {
                    if let Some(p) = &o.svg {
                        std::fs::write(p, battle.svg(false))
                            .map_err(|e| fail_one(format!("{}: {e}", p.display())))?;
                    }
                }
            }
            Err(e) => {
                if battle.active_army() == o.human && phase != Phase::AwaitingPips {
                    writeln!(out, "refused: {e}").map_err(io)?;
                } else {
                    return Err(fail_one(format!("the referee refused its own move: {e}")));
                }
            }
        }
    }
    Ok(battle)
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

/// The table as text: 4 columns and 2 rows a BW, north up. Elements of the person's army are
/// `#`, the opponent's `o`, with the id written across each; woods `^`, hills `:`, other areas
/// `.`. Each element is listed below with its kind, pose and state.
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
    for (_, a) in b.setup().battlefield.areas() {
        let mark = match a.kind {
            AreaKind::Wood => '^',
            AreaKind::GentleHill | AreaKind::DifficultHill => ':',
            _ => '.',
        };
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, ch) in row.iter_mut().enumerate() {
                if a.outline.contains(cell(r, c)) {
                    *ch = mark;
                }
            }
        }
    }
    for e in b.elements().iter().filter(|e| e.in_play()) {
        let poly = e.rect(cfg).polygon();
        let mark = if e.army == human { '#' } else { 'o' };
        let mut filled: Vec<(usize, usize)> = Vec::new();
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, ch) in row.iter_mut().enumerate() {
                if poly.contains(cell(r, c)) {
                    *ch = mark;
                    filled.push((r, c));
                }
            }
        }
        if let Some(&(r, c0)) = filled.first() {
            for (k, d) in e.id.0.to_string().chars().enumerate() {
                if let Some(ch) = grid[r].get_mut(c0 + k) {
                    *ch = d;
                }
            }
        }
    }
    let mut s = format!("+{}+\n", "-".repeat(cols));
    for row in grid {
        s.push('|');
        s.extend(row);
        s += "|\n";
    }
    s += &format!("+{}+\n", "-".repeat(cols));
    for e in b.elements() {
        let state = if e.in_play() { "" } else { " (lost)" };
        s += &format!(
            "  {} {:>4} {:<5} at ({:.2}, {:.2}) facing {:.0}{}{}\n",
            name(e.army),
            e.id.0,
            e.kind.code(),
            e.pose.x,
            e.pose.y,
            e.pose.facing,
            if e.general { " general" } else { "" },
            state
        );
    }
    s
}

fn fail_one(m: impl Into<String>) -> Failure {
    Failure(vec![m.into()])
}
