//! The action notation: every [`Action`] of a DBA 3.0 battle as one short line a player can type
//! and read, parsed into an [`Order`] and printed back (the equivalent of a chess program's move
//! notation). [`describe`] prints any action; [`parse`] reads a line back into the same action,
//! so `parse(battle, &describe(a)) == a` for every action `a` (numbers are printed exactly, in
//! their shortest form that reads back to the same value; [`describe_rounded`] prints them with
//! fewer decimals, for people).
//!
//! ```text
//! pips 4                    the moving army's PIP die (§6.2); in Big Battle one die a command,
//! pips 4 2 6                in the order the battle asks for them (§14.4)
//! river 3                   dice the river (§3.5)
//! 3 move 1.5                element 3 straight ahead 1.5 BW
//! 3 move 1.5 @ 90           1.5 BW on bearing 90 (degrees clockwise from north), ending facing it
//! 3 back 1                  1 BW straight back, keeping its facing
//! 3 to 7.5 6 @ 180          to the pose (front-edge midpoint 7.5, 6) facing 180;
//!                           several legs joined by `then`: 3 to 7 6 @ 90 then 8 6 @ 90
//! 3,4 column to 7 9 @ 0     a column led by 3 along the path (§7.4)
//! 2,3,4 group 2             a group advances 2 BW (negative: straight back, §7.4); steps
//!                           joined by `then`: 2,3,4 group wheel left 30 then 1.5
//! 3 contact 104 front       into contact with 104: front, left, right, rear, overlap-left,
//!                           overlap-right (§8.2); several movers: 3,4 contact 104 front
//! 3 dismount                §7.9
//! 3,4 through 2             through City 2 (battlefield feature index), gate to gate (§4.2)
//! shoot 7 -> 112 dice 3 5   a shot (§9); options before the dice: `support 8,9` (§9.4),
//!                           `back` (the target shoots back, §17.24), `own-depth 7` (§12.1)
//! fight 3 104 dice 4 2      a close combat (§10); options: `own-depth 3`, `bonus 3` (§14.4)
//! sally 2 to 7 9 @ 0        a City's denizens sally out (§4.2)
//! land 5,6 to 1 4 @ 90 and 1 5 @ 90   a littoral landing, one pose an element (§5.5)
//! hold 3,4                  a demoralised command holds elements (§14.5)
//! flee                      the demoralised commands flee this bound (§14.5)
//! end                       end the tactical moves
//! ```
//!
//! The dice of `pips`, `river`, `shoot` and `fight` may be left out: [`Order::dice_wanted`] says
//! how many are missing and [`Order::action`] takes them from the caller (a program rolls them,
//! a player at a real table types them).

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use super::bound::{Action, Battle, DiceRequest};
use super::movement::{ContactWanted, Flank, GroupStep, MoveOrder};
use super::setup::ElementId;
use crate::dice::DieScore;
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{Point, Pose};

/// One order in the notation. Unlike an [`Action`], it may leave its dice out, and a move on a
/// bearing is relative to where the element stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Order {
    /// The PIP dice (§6.2, §14.4); empty when they are to be rolled.
    Pips {
        /// The scores, in the order the battle asks for them.
        dice: Vec<DieScore>,
    },
    /// Dice the river (§3.5).
    River {
        /// The score, or `None` when it is to be rolled.
        die: Option<DieScore>,
    },
    /// Straight ahead, or on a bearing (ending facing it), `distance` BW.
    Move {
        /// The element.
        id: ElementId,
        /// How far, BW.
        distance: f64,
        /// The bearing, degrees clockwise from north; `None` for straight ahead.
        bearing: Option<f64>,
    },
    /// Straight back, keeping its facing, `distance` BW.
    Back {
        /// The element.
        id: ElementId,
        /// How far, BW.
        distance: f64,
    },
    /// Along a path of poses (front-edge midpoint and facing).
    To {
        /// The element.
        id: ElementId,
        /// The poses it passes through, the last where it ends.
        path: Vec<Pose>,
    },
    /// A column along a path, led by the first element (§7.4).
    Column {
        /// The column, its leader first.
        ids: Vec<ElementId>,
        /// The leader's path.
        path: Vec<Pose>,
    },
    /// A group keeping its formation (§7.4).
    Group {
        /// The elements of the group.
        ids: Vec<ElementId>,
        /// Its steps, in order.
        steps: Vec<GroupStep>,
    },
    /// Into contact with an enemy (§8.2).
    Contact {
        /// The element or elements moving.
        ids: Vec<ElementId>,
        /// The enemy element.
        target: ElementId,
        /// How the mover ends against it.
        contact: ContactWanted,
    },
    /// An element dismounts (§7.9).
    Dismount {
        /// The element.
        id: ElementId,
    },
    /// Through a City, gate to gate (§4.2, §17.10).
    Through {
        /// The element or column.
        ids: Vec<ElementId>,
        /// The City (battlefield feature index).
        city: usize,
    },
    /// One shot (§9).
    Shoot {
        /// The shooter.
        shooter: ElementId,
        /// The target.
        target: ElementId,
        /// Supporting shooters (§9.4).
        support: Vec<ElementId>,
        /// The target shoots back in the same exchange (§17.24).
        shoots_back: bool,
        /// Mounted elements recoiling only their own depth (§12.1).
        own_depth: Vec<ElementId>,
        /// The two dice, or `None` when they are to be rolled.
        dice: Option<[DieScore; 2]>,
    },
    /// One close combat (§10).
    Fight {
        /// One element of the combat.
        a: ElementId,
        /// The other.
        b: ElementId,
        /// Mounted elements recoiling only their own depth (§12.1).
        own_depth: Vec<ElementId>,
        /// The C-in-C adding his once-a-game +1 (§14.4).
        bonus: Vec<ElementId>,
        /// The two dice, or `None` when they are to be rolled.
        dice: Option<[DieScore; 2]>,
    },
    /// A City's denizens sally out (§4.2, §17.30).
    Sally {
        /// The City (battlefield feature index).
        city: usize,
        /// Where the sallying element stands.
        pose: Pose,
    },
    /// A littoral landing (§5.5).
    Land {
        /// The elements landing.
        ids: Vec<ElementId>,
        /// One pose for each.
        poses: Vec<Pose>,
    },
    /// A demoralised command holds elements in place (§14.5).
    Hold {
        /// The elements held.
        ids: Vec<ElementId>,
    },
    /// The demoralised commands' flight of this bound (§14.5).
    Flee,
    /// End the tactical moves.
    End,
}

/// Text that is not an order, or an order that cannot become an action (dice missing).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("cannot read {text:?}: {why} (see the notation: `help`)")]
#[serde(deny_unknown_fields)]
pub struct NotationError {
    /// The text as typed (at most [`crate::limits::MAX_QUOTED_CHARS`] characters of it).
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

impl ErrorInfo for NotationError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }
    fn rule(&self) -> Option<&'static str> {
        None
    }
}

fn err(text: &str, why: impl Into<String>) -> NotationError {
    NotationError {
        text: crate::sizes::quote(text),
        why: why.into(),
    }
}

/// The word of a contact.
pub fn contact_word(c: ContactWanted) -> &'static str {
    match c {
        ContactWanted::Front => "front",
        ContactWanted::Flank(Flank::Left) => "left",
        ContactWanted::Flank(Flank::Right) => "right",
        ContactWanted::Rear => "rear",
        ContactWanted::Overlap(Flank::Left) => "overlap-left",
        ContactWanted::Overlap(Flank::Right) => "overlap-right",
    }
}

fn flank_word(f: Flank) -> &'static str {
    match f {
        Flank::Left => "left",
        Flank::Right => "right",
    }
}

/// Reads the words of one line, with the line for the messages.
struct Words<'a> {
    text: &'a str,
    words: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        Words {
            text,
            words: text.split_whitespace().collect(),
            at: 0,
        }
    }
    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).copied()
    }
    fn next(&mut self, what: &str) -> Result<&'a str, NotationError> {
        let w = self
            .peek()
            .ok_or_else(|| err(self.text, format!("{what} is missing at the end")))?;
        self.at += 1;
        Ok(w)
    }
    fn eat(&mut self, word: &str) -> bool {
        if self.peek() == Some(word) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, word: &str) -> Result<(), NotationError> {
        match self.peek() {
            Some(w) if w == word => {
                self.at += 1;
                Ok(())
            }
            Some(w) => Err(err(self.text, format!("expected `{word}`, found {w:?}"))),
            None => Err(err(self.text, format!("expected `{word}` at the end"))),
        }
    }
    fn done(&self) -> Result<(), NotationError> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(err(self.text, format!("{w:?} is not expected here"))),
        }
    }
    fn id(&mut self) -> Result<ElementId, NotationError> {
        let w = self.next("an element id")?;
        id_of(self.text, w)
    }
    fn ids(&mut self) -> Result<Vec<ElementId>, NotationError> {
        let w = self.next("element ids")?;
        ids_of(self.text, w)
    }
    fn index(&mut self, what: &str) -> Result<usize, NotationError> {
        let w = self.next(what)?;
        w.parse::<usize>()
            .map_err(|_| err(self.text, format!("{w:?} is not {what}")))
    }
    fn num(&mut self, what: &str) -> Result<f64, NotationError> {
        let w = self.next(what)?;
        num_of(self.text, w)
    }
    fn die(&mut self) -> Result<DieScore, NotationError> {
        let w = self.next("a die score")?;
        die_of(self.text, w)
    }
    fn pose(&mut self) -> Result<Pose, NotationError> {
        let x = self.num("x")?;
        let y = self.num("y")?;
        self.expect("@")?;
        let f = self.num("a facing")?;
        Ok(Pose::new(x, y, f))
    }
    /// Poses joined by `joiner` (`then` for a path, `and` for a landing).
    fn poses(&mut self, joiner: &str) -> Result<Vec<Pose>, NotationError> {
        let mut v = vec![self.pose()?];
        while self.eat(joiner) {
            v.push(self.pose()?);
        }
        Ok(v)
    }
    fn pair(&mut self) -> Result<Option<[DieScore; 2]>, NotationError> {
        if self.eat("dice") {
            Ok(Some([self.die()?, self.die()?]))
        } else {
            Ok(None)
        }
    }
}

fn id_of(text: &str, word: &str) -> Result<ElementId, NotationError> {
    word.parse::<u32>()
        .map(ElementId)
        .map_err(|_| err(text, format!("{word:?} is not an element id")))
}

fn ids_of(text: &str, word: &str) -> Result<Vec<ElementId>, NotationError> {
    word.split(',').map(|w| id_of(text, w)).collect()
}

fn num_of(text: &str, word: &str) -> Result<f64, NotationError> {
    word.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| err(text, format!("{word:?} is not a number")))
}

fn die_of(text: &str, word: &str) -> Result<DieScore, NotationError> {
    word.parse::<u8>()
        .ok()
        .and_then(|d| DieScore::new(d).ok())
        .ok_or_else(|| err(text, format!("{word:?} is not a die score (1 to 6)")))
}

fn contact_of(text: &str, word: &str) -> Result<ContactWanted, NotationError> {
    super::queries::CONTACTS
        .into_iter()
        .find(|c| contact_word(*c) == word)
        .ok_or_else(|| {
            err(
                text,
                format!("{word:?} is not front, left, right, rear, overlap-left or overlap-right"),
            )
        })
}

fn group_step(w: &mut Words<'_>) -> Result<GroupStep, NotationError> {
    if w.eat("wheel") {
        let pivot = match w.next("left or right")? {
            "left" => Flank::Left,
            "right" => Flank::Right,
            other => return Err(err(w.text, format!("{other:?} is not left or right"))),
        };
        let degrees = w.num("degrees")?;
        Ok(GroupStep::Wheel { pivot, degrees })
    } else {
        Ok(GroupStep::Advance {
            distance: w.num("a distance")?,
        })
    }
}

/// The options of a shot or a combat: `support IDS`, `back`, `own-depth IDS`, `bonus IDS`, in
/// any order, before the dice.
#[derive(Default)]
struct Options {
    support: Vec<ElementId>,
    back: bool,
    own_depth: Vec<ElementId>,
    bonus: Vec<ElementId>,
}

fn options(w: &mut Words<'_>, allowed: &[&str]) -> Result<Options, NotationError> {
    let mut o = Options::default();
    while let Some(word) = w.peek() {
        if !allowed.contains(&word) {
            break;
        }
        w.at += 1;
        match word {
            "support" => o.support = w.ids()?,
            "back" => o.back = true,
            "own-depth" => o.own_depth = w.ids()?,
            _ => o.bonus = w.ids()?,
        }
    }
    Ok(o)
}

impl std::str::FromStr for Order {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Order, NotationError> {
        let mut w = Words::new(text);
        let first = w.next("an order").map_err(|_| err(text, "nothing typed"))?;
        let order = match first {
            "end" => Order::End,
            "pips" => {
                let mut dice = Vec::new();
                while w.peek().is_some() {
                    dice.push(w.die()?);
                }
                Order::Pips { dice }
            }
            "river" => Order::River {
                die: if w.peek().is_some() {
                    Some(w.die()?)
                } else {
                    None
                },
            },
            "shoot" => {
                let shooter = w.id()?;
                w.expect("->")?;
                let target = w.id()?;
                let o = options(&mut w, &["support", "back", "own-depth"])?;
                Order::Shoot {
                    shooter,
                    target,
                    support: o.support,
                    shoots_back: o.back,
                    own_depth: o.own_depth,
                    dice: w.pair()?,
                }
            }
            "fight" => {
                let a = w.id()?;
                let b = w.id()?;
                let o = options(&mut w, &["own-depth", "bonus"])?;
                Order::Fight {
                    a,
                    b,
                    own_depth: o.own_depth,
                    bonus: o.bonus,
                    dice: w.pair()?,
                }
            }
            "sally" => {
                let city = w.index("a City's feature index")?;
                w.expect("to")?;
                Order::Sally {
                    city,
                    pose: w.pose()?,
                }
            }
            "land" => {
                let ids = w.ids()?;
                w.expect("to")?;
                Order::Land {
                    ids,
                    poses: w.poses("and")?,
                }
            }
            "hold" => Order::Hold { ids: w.ids()? },
            "flee" => Order::Flee,
            lead => {
                let ids = ids_of(text, lead).map_err(|_| {
                    err(
                        text,
                        format!("{lead:?} is not an order or an element id (see `help`)"),
                    )
                })?;
                let verb = w.next("an order after the element ids")?;
                let single = |what: &str| -> Result<ElementId, NotationError> {
                    match ids[..] {
                        [one] => Ok(one),
                        _ => Err(err(text, format!("`{what}` takes one element"))),
                    }
                };
                match verb {
                    "move" => {
                        let id = single("move")?;
                        let distance = w.num("a distance")?;
                        let bearing = if w.eat("@") {
                            Some(w.num("a bearing")?)
                        } else {
                            None
                        };
                        Order::Move {
                            id,
                            distance,
                            bearing,
                        }
                    }
                    "back" => Order::Back {
                        id: single("back")?,
                        distance: w.num("a distance")?,
                    },
                    "to" => Order::To {
                        id: single("to")?,
                        path: w.poses("then")?,
                    },
                    "column" => {
                        w.expect("to")?;
                        Order::Column {
                            ids,
                            path: w.poses("then")?,
                        }
                    }
                    "group" => {
                        let mut steps = vec![group_step(&mut w)?];
                        while w.eat("then") {
                            steps.push(group_step(&mut w)?);
                        }
                        Order::Group { ids, steps }
                    }
                    "contact" => {
                        let target = w.id()?;
                        let how = w.next(
                            "how (front, left, right, rear, overlap-left or overlap-right)",
                        )?;
                        Order::Contact {
                            ids,
                            target,
                            contact: contact_of(text, how)?,
                        }
                    }
                    "dismount" => Order::Dismount {
                        id: single("dismount")?,
                    },
                    "through" => Order::Through {
                        ids,
                        city: w.index("a City's feature index")?,
                    },
                    other => {
                        return Err(err(
                            text,
                            format!(
                                "{other:?} is not an order (move, back, to, column, group, \
                                 contact, dismount, through)"
                            ),
                        ))
                    }
                }
            }
        };
        w.done()?;
        Ok(order)
    }
}

/// How numbers are printed: exactly (shortest form that reads back) or rounded for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Digits {
    Exact,
    Rounded(usize),
}

struct Printer<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    digits: Digits,
}

impl Printer<'_, '_> {
    fn num(&mut self, v: f64) -> fmt::Result {
        // -0 prints as 0: the same value for every rule.
        let v = if v == 0.0 { 0.0 } else { v };
        match self.digits {
            Digits::Exact => write!(self.f, "{v}"),
            Digits::Rounded(n) => {
                let s = format!("{v:.n$}");
                // Trailing zeros say nothing: 1.50 is 1.5, 2.00 is 2.
                let s = if s.contains('.') {
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    s
                };
                write!(self.f, "{}", if s == "-0" { "0" } else { &s })
            }
        }
    }
    fn ids(&mut self, ids: &[ElementId]) -> fmt::Result {
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                self.f.write_char(',')?;
            }
            write!(self.f, "{}", id.0)?;
        }
        Ok(())
    }
    fn pose(&mut self, p: &Pose) -> fmt::Result {
        self.num(p.x)?;
        self.f.write_char(' ')?;
        self.num(p.y)?;
        self.f.write_str(" @ ")?;
        self.num(p.facing)
    }
    fn poses(&mut self, path: &[Pose], joiner: &str) -> fmt::Result {
        for (i, p) in path.iter().enumerate() {
            if i > 0 {
                write!(self.f, " {joiner} ")?;
            }
            self.pose(p)?;
        }
        Ok(())
    }
    fn dice(&mut self, dice: &[DieScore]) -> fmt::Result {
        for d in dice {
            write!(self.f, " {d}")?;
        }
        Ok(())
    }
    fn list(&mut self, word: &str, ids: &[ElementId]) -> fmt::Result {
        if !ids.is_empty() {
            write!(self.f, " {word} ")?;
            self.ids(ids)?;
        }
        Ok(())
    }

    fn order(&mut self, o: &Order) -> fmt::Result {
        match o {
            Order::Pips { dice } => {
                self.f.write_str("pips")?;
                self.dice(dice)
            }
            Order::River { die } => {
                self.f.write_str("river")?;
                self.dice(die.as_slice())
            }
            Order::Move {
                id,
                distance,
                bearing,
            } => {
                write!(self.f, "{} move ", id.0)?;
                self.num(*distance)?;
                if let Some(b) = bearing {
                    self.f.write_str(" @ ")?;
                    self.num(*b)?;
                }
                Ok(())
            }
            Order::Back { id, distance } => {
                write!(self.f, "{} back ", id.0)?;
                self.num(*distance)
            }
            Order::To { id, path } => {
                write!(self.f, "{} to ", id.0)?;
                self.poses(path, "then")
            }
            Order::Column { ids, path } => {
                self.ids(ids)?;
                self.f.write_str(" column to ")?;
                self.poses(path, "then")
            }
            Order::Group { ids, steps } => {
                self.ids(ids)?;
                self.f.write_str(" group ")?;
                for (i, s) in steps.iter().enumerate() {
                    if i > 0 {
                        self.f.write_str(" then ")?;
                    }
                    match s {
                        GroupStep::Advance { distance } => self.num(*distance)?,
                        GroupStep::Wheel { pivot, degrees } => {
                            write!(self.f, "wheel {} ", flank_word(*pivot))?;
                            self.num(*degrees)?;
                        }
                    }
                }
                Ok(())
            }
            Order::Contact {
                ids,
                target,
                contact,
            } => {
                self.ids(ids)?;
                write!(self.f, " contact {} {}", target.0, contact_word(*contact))
            }
            Order::Dismount { id } => write!(self.f, "{} dismount", id.0),
            Order::Through { ids, city } => {
                self.ids(ids)?;
                write!(self.f, " through {city}")
            }
            Order::Shoot {
                shooter,
                target,
                support,
                shoots_back,
                own_depth,
                dice,
            } => {
                write!(self.f, "shoot {} -> {}", shooter.0, target.0)?;
                self.list("support", support)?;
                if *shoots_back {
                    self.f.write_str(" back")?;
                }
                self.list("own-depth", own_depth)?;
                if let Some(d) = dice {
                    self.f.write_str(" dice")?;
                    self.dice(d)?;
                }
                Ok(())
            }
            Order::Fight {
                a,
                b,
                own_depth,
                bonus,
                dice,
            } => {
                write!(self.f, "fight {} {}", a.0, b.0)?;
                self.list("own-depth", own_depth)?;
                self.list("bonus", bonus)?;
                if let Some(d) = dice {
                    self.f.write_str(" dice")?;
                    self.dice(d)?;
                }
                Ok(())
            }
            Order::Sally { city, pose } => {
                write!(self.f, "sally {city} to ")?;
                self.pose(pose)
            }
            Order::Land { ids, poses } => {
                self.f.write_str("land ")?;
                self.ids(ids)?;
                self.f.write_str(" to ")?;
                self.poses(poses, "and")
            }
            Order::Hold { ids } => {
                self.f.write_str("hold ")?;
                self.ids(ids)
            }
            Order::Flee => self.f.write_str("flee"),
            Order::End => self.f.write_str("end"),
        }
    }
}

impl fmt::Display for Order {
    /// The order exactly; with a precision (`{:.2}`), its numbers rounded to that many decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().map_or(Digits::Exact, Digits::Rounded);
        Printer { f, digits }.order(self)
    }
}

impl Order {
    /// How many dice the order leaves to be rolled in `battle`: a shot or combat without its
    /// dice wants 2, the river 1, the PIP dice as many as the battle awaits; any other 0.
    pub fn dice_wanted(&self, battle: &Battle) -> usize {
        match self {
            Order::Shoot { dice: None, .. } | Order::Fight { dice: None, .. } => 2,
            Order::River { die: None } => 1,
            Order::Pips { dice } if dice.is_empty() => match battle.awaiting() {
                Some(DiceRequest::CommandPips { commands, .. }) => commands.len().max(1),
                _ => 1,
            },
            _ => 0,
        }
    }

    /// The battle action. Dice the order leaves out are taken, in order, from `dice` (at least
    /// [`Order::dice_wanted`] of them; extra ones are not used). A move on a bearing starts from
    /// the element's present pose; an element not in the battle is left to the battle to refuse.
    pub fn action(&self, battle: &Battle, dice: &[DieScore]) -> Result<Action, NotationError> {
        let wanted = self.dice_wanted(battle);
        if dice.len() < wanted {
            return Err(err(
                &format!("{self}"),
                format!(
                    "{wanted} dice are wanted and {} given (type them after the order)",
                    dice.len()
                ),
            ));
        }
        let pair = |given: &Option<[DieScore; 2]>| given.unwrap_or_else(|| [dice[0], dice[1]]);
        let pose_of = |id: ElementId| {
            battle
                .element(id)
                .map_or(Pose::new(0.0, 0.0, 0.0), |e| e.pose)
        };
        let mv = |order: MoveOrder| Action::Move { order };
        Ok(match self {
            Order::Pips { dice: given } => {
                let scores: Vec<DieScore> = if given.is_empty() {
                    dice[..wanted].to_vec()
                } else {
                    given.clone()
                };
                match battle.awaiting() {
                    Some(DiceRequest::CommandPips { .. }) => {
                        Action::RollCommandPips { dice: scores }
                    }
                    _ if scores.len() == 1 => Action::RollPips { die: scores[0] },
                    _ => Action::RollCommandPips { dice: scores },
                }
            }
            Order::River { die } => Action::DiceRiver {
                die: die.unwrap_or_else(|| dice[0]),
            },
            Order::Move {
                id,
                distance,
                bearing,
            } => {
                let pose = pose_of(*id);
                let facing = bearing.unwrap_or(pose.facing);
                let dest: Point = pose.front_mid() + Point::from_bearing(facing) * *distance;
                mv(MoveOrder::Element {
                    id: *id,
                    path: vec![Pose::new(dest.x, dest.y, facing)],
                })
            }
            Order::Back { id, distance } => {
                let pose = pose_of(*id);
                let dest: Point = pose.front_mid() - pose.forward() * *distance;
                mv(MoveOrder::Element {
                    id: *id,
                    path: vec![Pose::new(dest.x, dest.y, pose.facing)],
                })
            }
            Order::To { id, path } => mv(MoveOrder::Element {
                id: *id,
                path: path.clone(),
            }),
            Order::Column { ids, path } => mv(MoveOrder::Column {
                ids: ids.clone(),
                path: path.clone(),
            }),
            Order::Group { ids, steps } => mv(MoveOrder::Group {
                ids: ids.clone(),
                steps: steps.clone(),
            }),
            Order::Contact {
                ids,
                target,
                contact,
            } => mv(MoveOrder::IntoContact {
                ids: ids.clone(),
                target: *target,
                contact: *contact,
            }),
            Order::Dismount { id } => mv(MoveOrder::Dismount { id: *id }),
            Order::Through { ids, city } => mv(MoveOrder::ThroughCity {
                ids: ids.clone(),
                city: *city,
            }),
            Order::Shoot {
                shooter,
                target,
                support,
                shoots_back,
                own_depth,
                dice: given,
            } => Action::Shoot {
                shooter: *shooter,
                target: *target,
                support: support.clone(),
                dice: pair(given),
                recoil_own_depth: own_depth.clone(),
                shoots_back: *shoots_back,
            },
            Order::Fight {
                a,
                b,
                own_depth,
                bonus,
                dice: given,
            } => Action::Fight {
                a: *a,
                b: *b,
                dice: pair(given),
                recoil_own_depth: own_depth.clone(),
                c_in_c_bonus: bonus.clone(),
            },
            Order::Sally { city, pose } => Action::Sally {
                city: *city,
                pose: *pose,
            },
            Order::Land { ids, poses } => Action::Land {
                ids: ids.clone(),
                poses: poses.clone(),
            },
            Order::Hold { ids } => Action::Hold { ids: ids.clone() },
            Order::Flee => Action::Flee,
            Order::End => Action::EndMovement,
        })
    }

    /// The order an action is, dice included: every action has one, and it reads back as the
    /// same action ([`Order::action`]).
    pub fn of_action(action: &Action) -> Order {
        match action {
            Action::RollPips { die } => Order::Pips { dice: vec![*die] },
            Action::RollCommandPips { dice } => Order::Pips { dice: dice.clone() },
            Action::DiceRiver { die } => Order::River { die: Some(*die) },
            Action::EndMovement => Order::End,
            Action::Shoot {
                shooter,
                target,
                support,
                dice,
                recoil_own_depth,
                shoots_back,
            } => Order::Shoot {
                shooter: *shooter,
                target: *target,
                support: support.clone(),
                shoots_back: *shoots_back,
                own_depth: recoil_own_depth.clone(),
                dice: Some(*dice),
            },
            Action::Fight {
                a,
                b,
                dice,
                recoil_own_depth,
                c_in_c_bonus,
            } => Order::Fight {
                a: *a,
                b: *b,
                own_depth: recoil_own_depth.clone(),
                bonus: c_in_c_bonus.clone(),
                dice: Some(*dice),
            },
            Action::Sally { city, pose } => Order::Sally {
                city: *city,
                pose: *pose,
            },
            Action::Land { ids, poses } => Order::Land {
                ids: ids.clone(),
                poses: poses.clone(),
            },
            Action::Hold { ids } => Order::Hold { ids: ids.clone() },
            Action::Flee => Order::Flee,
            Action::Move { order } => match order {
                MoveOrder::Element { id, path } => Order::To {
                    id: *id,
                    path: path.clone(),
                },
                MoveOrder::Column { ids, path } => Order::Column {
                    ids: ids.clone(),
                    path: path.clone(),
                },
                MoveOrder::Group { ids, steps } => Order::Group {
                    ids: ids.clone(),
                    steps: steps.clone(),
                },
                MoveOrder::IntoContact {
                    ids,
                    target,
                    contact,
                } => Order::Contact {
                    ids: ids.clone(),
                    target: *target,
                    contact: *contact,
                },
                MoveOrder::Dismount { id } => Order::Dismount { id: *id },
                MoveOrder::ThroughCity { ids, city } => Order::Through {
                    ids: ids.clone(),
                    city: *city,
                },
            },
        }
    }
}

/// An action in the notation, exactly: [`parse`] reads it back as the same action.
///
/// ```
/// use dbcore::battle::notation::{describe, parse};
/// use dbcore::battle::Battle;
///
/// let battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
/// let action = parse(&battle, "3 move 2", &[]).unwrap();
/// assert_eq!(describe(&action), "3 to 5.5 6 @ 0"); // Blades 3 stand at (5.5, 4) facing north
/// assert_eq!(parse(&battle, &describe(&action), &[]).unwrap(), action);
/// ```
pub fn describe(action: &Action) -> String {
    Order::of_action(action).to_string()
}

/// An action in the notation with its numbers rounded to `decimals` places, for people (it may
/// not read back as exactly the same action).
pub fn describe_rounded(action: &Action, decimals: usize) -> String {
    format!("{:.*}", decimals, Order::of_action(action))
}

/// Read a line of the notation as an action of `battle`, the dice the line leaves out taken from
/// `dice` in order.
pub fn parse(battle: &Battle, text: &str, dice: &[DieScore]) -> Result<Action, NotationError> {
    text.parse::<Order>()?.action(battle, dice)
}

/// The help text of the notation.
pub const HELP: &str = "\
orders (distances in BW, bearings in degrees clockwise from north; IDS is 3 or 3,4,5):
  ID move D [@ B]         D straight ahead, or on bearing B ending facing B
  ID back D               D straight back, keeping the facing
  ID to X Y @ F           to front-edge midpoint (X, Y) facing F (more legs: then X Y @ F)
  IDS column to X Y @ F   a column led by the first element
  IDS group D             a group advances D (negative: back); wheel: group wheel left 30
  IDS contact T HOW       into contact with T: front, left, right, rear, overlap-left, overlap-right
  ID dismount             IDS through CITY       sally CITY to X Y @ F
  land IDS to X Y @ F and X Y @ F                hold IDS    flee
  shoot ID -> T [support IDS] [back] [own-depth IDS] [dice A B]
  fight ID ID [own-depth IDS] [bonus IDS] [dice A B]
  pips [D ...]            river [D]              end
dice left out are rolled for you";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_prints_as_it_parses() {
        for text in [
            "pips",
            "pips 4",
            "pips 4 2 6",
            "river",
            "river 3",
            "3 move 1.5",
            "3 move 1.5 @ 90",
            "3 back 1",
            "3 to 7.5 6 @ 180",
            "3 to 7 6 @ 90 then 8 6 @ 90",
            "3,4 column to 7 9 @ 0",
            "2,3,4 group 2",
            "2,3,4 group wheel left 30 then -1.5",
            "3 contact 104 front",
            "3,4 contact 104 overlap-left",
            "3 contact 104 right",
            "3 dismount",
            "3,4 through 2",
            "shoot 7 -> 112",
            "shoot 7 -> 112 support 8,9 back own-depth 7 dice 3 5",
            "fight 3 104",
            "fight 3 104 own-depth 3 bonus 3 dice 4 2",
            "sally 2 to 7 9 @ 0",
            "land 5,6 to 1 4 @ 90 and 1 5 @ 90",
            "hold 3,4",
            "flee",
            "end",
        ] {
            let o: Order = text.parse().expect(text);
            assert_eq!(o.to_string(), text);
        }
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        let why = |t: &str| t.parse::<Order>().unwrap_err().why;
        assert!(why("3 contact 104 sideways").contains("sideways"));
        assert!(why("x move 2").contains("element id"));
        assert!(why("3 move far").contains("number"));
        assert!(why("").contains("nothing"));
        assert!(why("3 move NaN").contains("number"));
        assert!(why("fight 3 104 dice 7 1").contains("die score"));
        assert!(why("3,4 move 2").contains("one element"));
        assert!(why("end now").contains("not expected"));
        assert!(why("3 undo").contains("not an order"));
    }

    #[test]
    fn rounded_numbers_drop_trailing_zeros() {
        let o = Order::To {
            id: ElementId(101),
            path: vec![Pose::new(11.050048828125, 7.5, 270.0)],
        };
        assert_eq!(format!("{o:.2}"), "101 to 11.05 7.5 @ 270");
        assert_eq!(o.to_string(), "101 to 11.050048828125 7.5 @ 270");
    }

    #[test]
    fn an_action_reads_back_as_itself_and_dice_come_from_the_caller() {
        let b = Battle::new(crate::driver::demo_setup()).expect("demo set-up");
        let d = |n| DieScore::new(n).expect("die");
        for text in [
            "3 contact 104 front",
            "fight 3 104 dice 3 4",
            "shoot 9 -> 104 dice 1 6",
            "pips 5",
            "end",
        ] {
            let a = parse(&b, text, &[]).expect(text);
            assert_eq!(describe(&a), text);
        }
        let a = parse(&b, "fight 3 104", &[d(6), d(2)]).expect("dice given");
        assert_eq!(describe(&a), "fight 3 104 dice 6 2");
        let e = parse(&b, "fight 3 104", &[d(6)]).unwrap_err();
        assert!(e.why.contains("2 dice are wanted"), "{e}");
        let a = parse(&b, "3 move 2", &[]).expect("move");
        assert_eq!(describe(&a), "3 to 5.5 6 @ 0");
        let a = parse(&b, "3 back 1", &[]).expect("back");
        assert_eq!(describe(&a), "3 to 5.5 3 @ 0");
    }
}
