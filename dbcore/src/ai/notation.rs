//! A short notation for typing a bound at a terminal (`dbcore play --human`), parsed into
//! [`Order`]s and printed back, and turned into battle [`Action`]s once the dice are known.
//!
//! ```text
//! 3 move 1.5            element 3 straight ahead 1.5 BW
//! 3 move 1.5 @ 90       element 3 1.5 BW on bearing 90 (degrees clockwise from north), ending facing it
//! 3 to 7.5 6 @ 180      element 3 to the pose (front-edge midpoint 7.5, 6), facing 180
//! 3 contact 104 front   element 3 into contact with 104: front, left, right, rear,
//!                       overlap-left or overlap-right (§8.2)
//! 2,3,4 group 2         elements 2, 3 and 4 advance 2 BW as a group (§7.4)
//! 3 dismount            §7.9
//! shoot 7 -> 112        element 7 shoots at 112 (§9)
//! fight 3 104           the close combat of 3 and 104 (§10)
//! river                 dice the river (§3.5)
//! end                   end the tactical moves
//! ```
//!
//! Dice are never typed: the program rolls them for the action that needs them.

use std::fmt;

use crate::battle::{Action, Battle, ContactWanted, ElementId, Flank, GroupStep, MoveOrder};
use crate::dice::DieScore;
use crate::geometry::{Point, Pose};

/// One typed order.
#[derive(Debug, Clone, PartialEq)]
pub enum Order {
    /// Straight ahead, or on a bearing (ending facing it), `distance` BW.
    Move {
        /// The element.
        id: ElementId,
        /// How far, BW.
        distance: f64,
        /// The bearing, degrees clockwise from north; `None` for straight ahead.
        bearing: Option<f64>,
    },
    /// To a pose: front-edge midpoint and facing.
    To {
        /// The element.
        id: ElementId,
        /// Where it ends: front-edge midpoint in BW, and facing in degrees.
        pose: Pose,
    },
    /// An element into contact with an enemy (§8.2): `3 contact 104 front`.
    Contact {
        /// The element moving.
        id: ElementId,
        /// The enemy element.
        target: ElementId,
        /// How it is to end up against the enemy.
        contact: ContactWanted,
    },
    /// Elements advancing straight ahead together as a group (§7.4): `2,3,4 group 2`.
    Group {
        /// The elements of the group.
        ids: Vec<ElementId>,
        /// How far, BW.
        distance: f64,
    },
    /// An element dismounts (§7.9): `3 dismount`.
    Dismount {
        /// The element.
        id: ElementId,
    },
    /// One shot (§9): `shoot 7 -> 112`; the dice are rolled by the program.
    Shoot {
        /// The shooter.
        shooter: ElementId,
        /// The target.
        target: ElementId,
    },
    /// One close combat (§10): `fight 3 104`; the dice are rolled by the program.
    Fight {
        /// One element of the combat.
        a: ElementId,
        /// The other.
        b: ElementId,
    },
    /// Dice the river (§3.5): `river`.
    River,
    /// End the tactical moves: `end`.
    End,
}

/// Text that is not an order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {text:?}: {why} (type `help` for the notation)")]
pub struct NotationError {
    /// The text as typed.
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

fn err(text: &str, why: impl Into<String>) -> NotationError {
    NotationError {
        text: text.to_string(),
        why: why.into(),
    }
}

fn id(text: &str, word: &str) -> Result<ElementId, NotationError> {
    word.parse::<u32>()
        .map(ElementId)
        .map_err(|_| err(text, format!("{word:?} is not an element id")))
}

fn num(text: &str, word: &str) -> Result<f64, NotationError> {
    word.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| err(text, format!("{word:?} is not a number")))
}

fn contact_word(c: ContactWanted) -> &'static str {
    match c {
        ContactWanted::Front => "front",
        ContactWanted::Flank(Flank::Left) => "left",
        ContactWanted::Flank(Flank::Right) => "right",
        ContactWanted::Rear => "rear",
        ContactWanted::Overlap(Flank::Left) => "overlap-left",
        ContactWanted::Overlap(Flank::Right) => "overlap-right",
    }
}

impl std::str::FromStr for Order {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Order, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words[..] {
            ["end"] => Ok(Order::End),
            ["river"] => Ok(Order::River),
            ["shoot", s, "->", t] => Ok(Order::Shoot {
                shooter: id(text, s)?,
                target: id(text, t)?,
            }),
            ["fight", a, b] => Ok(Order::Fight {
                a: id(text, a)?,
                b: id(text, b)?,
            }),
            [e, "dismount"] => Ok(Order::Dismount { id: id(text, e)? }),
            [e, "move", d] => Ok(Order::Move {
                id: id(text, e)?,
                distance: num(text, d)?,
                bearing: None,
            }),
            [e, "move", d, "@", b] => Ok(Order::Move {
                id: id(text, e)?,
                distance: num(text, d)?,
                bearing: Some(num(text, b)?),
            }),
            [e, "to", x, y, "@", f] => Ok(Order::To {
                id: id(text, e)?,
                pose: Pose::new(num(text, x)?, num(text, y)?, num(text, f)?),
            }),
            [e, "contact", t, how] => {
                let contact = crate::battle::queries::CONTACTS
                    .into_iter()
                .find(|c| contact_word(*c) == how)
                .ok_or_else(|| {
                    err(
                        text,
                        format!("{how:?} is not front, left, right, rear, overlap-left or overlap-right"),
                    )
                })?;
                Ok(Order::Contact {
                    id: id(text, e)?,
                    target: id(text, t)?,
                    contact,
                })
            }
            [ids, "group", d] => Ok(Order::Group {
                ids: ids
                    .split(',')
                    .map(|w| id(text, w))
                    .collect::<Result<_, _>>()?,
                distance: num(text, d)?,
            }),
            [] => Err(err(text, "nothing typed")),
            _ => Err(err(text, "not an order")),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Move {
                id,
                distance,
                bearing: None,
            } => write!(f, "{} move {distance}", id.0),
            Order::Move {
                id,
                distance,
                bearing: Some(b),
            } => write!(f, "{} move {distance} @ {b}", id.0),
            Order::To { id, pose } => {
                write!(f, "{} to {} {} @ {}", id.0, pose.x, pose.y, pose.facing)
            }
            Order::Contact {
                id,
                target,
                contact,
            } => write!(
                f,
                "{} contact {} {}",
                id.0,
                target.0,
                contact_word(*contact)
            ),
            Order::Group { ids, distance } => {
                let ids: Vec<String> = ids.iter().map(|i| i.0.to_string()).collect();
                write!(f, "{} group {distance}", ids.join(","))
            }
            Order::Dismount { id } => write!(f, "{} dismount", id.0),
            Order::Shoot { shooter, target } => write!(f, "shoot {} -> {}", shooter.0, target.0),
            Order::Fight { a, b } => write!(f, "fight {} {}", a.0, b.0),
            Order::River => write!(f, "river"),
            Order::End => write!(f, "end"),
        }
    }
}

impl Order {
    /// Whether the order needs two dice (a shot or a close combat) or one (the river).
    pub fn dice_needed(&self) -> usize {
        match self {
            Order::Shoot { .. } | Order::Fight { .. } => 2,
            Order::River => 1,
            _ => 0,
        }
    }

    /// The battle action, `dice` used by shots, fights and the river. A move on a bearing starts
    /// from the element's present pose; an unknown element is left to the battle to refuse.
    pub fn action(&self, battle: &Battle, dice: [DieScore; 2]) -> Action {
        match self {
            Order::Move {
                id,
                distance,
                bearing,
            } => {
                let pose = battle
                    .element(*id)
                    .map_or(Pose::new(0.0, 0.0, 0.0), |e| e.pose);
                let facing = bearing.unwrap_or(pose.facing);
                let dest: Point = pose.front_mid() + Point::from_bearing(facing) * *distance;
                Action::Move {
                    order: MoveOrder::Element {
                        id: *id,
                        path: vec![Pose::new(dest.x, dest.y, facing)],
                    },
                }
            }
            Order::To { id, pose } => Action::Move {
                order: MoveOrder::Element {
                    id: *id,
                    path: vec![*pose],
                },
            },
            Order::Contact {
                id,
                target,
                contact,
            } => Action::Move {
                order: MoveOrder::IntoContact {
                    ids: vec![*id],
                    target: *target,
                    contact: *contact,
                },
            },
            Order::Group { ids, distance } => Action::Move {
                order: MoveOrder::Group {
                    ids: ids.clone(),
                    steps: vec![GroupStep::Advance {
                        distance: *distance,
                    }],
                },
            },
            Order::Dismount { id } => Action::Move {
                order: MoveOrder::Dismount { id: *id },
            },
            Order::Shoot { shooter, target } => Action::Shoot {
                shooter: *shooter,
                target: *target,
                support: Vec::new(),
                dice,
                recoil_own_depth: Vec::new(),
                shoots_back: false,
            },
            Order::Fight { a, b } => Action::Fight {
                a: *a,
                b: *b,
                dice,
                recoil_own_depth: Vec::new(),
                c_in_c_bonus: Vec::new(),
            },
            Order::River => Action::DiceRiver { die: dice[0] },
            Order::End => Action::EndMovement,
        }
    }

    /// The order an action is, when the notation can say it (dice and recoil choices are not
    /// part of the notation; a multi-leg path or a column is not either).
    pub fn of_action(action: &Action) -> Option<Order> {
        Some(match action {
            Action::EndMovement => Order::End,
            Action::DiceRiver { .. } => Order::River,
            Action::Shoot {
                shooter, target, ..
            } => Order::Shoot {
                shooter: *shooter,
                target: *target,
            },
            Action::Fight { a, b, .. } => Order::Fight { a: *a, b: *b },
            Action::Move { order } => match order {
                MoveOrder::Element { id, path } if path.len() == 1 => Order::To {
                    id: *id,
                    pose: path[0],
                },
                MoveOrder::IntoContact {
                    ids,
                    target,
                    contact,
                } if ids.len() == 1 => Order::Contact {
                    id: ids[0],
                    target: *target,
                    contact: *contact,
                },
                MoveOrder::Group { ids, steps } => match steps[..] {
                    [GroupStep::Advance { distance }] => Order::Group {
                        ids: ids.clone(),
                        distance,
                    },
                    _ => return None,
                },
                MoveOrder::Dismount { id } => Order::Dismount { id: *id },
                _ => return None,
            },
            // Dice, holds and the other actions have no notation: their JSON says them.
            _ => return None,
        })
    }
}

/// Text of an action for a person: its notation when it has one, else its JSON.
pub fn describe(action: &Action) -> String {
    match Order::of_action(action) {
        Some(o) => o.to_string(),
        None => serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}")),
    }
}

/// The help text of the notation.
pub const HELP: &str = "\
orders (distances in BW, bearings in degrees clockwise from north):
  ID move D            straight ahead D
  ID move D @ B        D on bearing B, ending facing B
  ID to X Y @ F        to front-edge midpoint (X, Y) facing F
  ID contact T HOW     into contact with T: front, left, right, rear, overlap-left, overlap-right
  ID,ID,.. group D     advance D as a group
  ID dismount
  shoot ID -> T        a shot (dice are rolled for you)
  fight ID ID          a close combat (dice are rolled for you)
  river                dice the river
  end                  end the tactical moves
other commands: help, legal (what may be done now), table (draw the table), quit";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_prints_as_it_parses() {
        for text in [
            "3 move 1.5",
            "3 move 1.5 @ 90",
            "3 to 7.5 6 @ 180",
            "3 contact 104 front",
            "3 contact 104 overlap-left",
            "3 contact 104 right",
            "2,3,4 group 2",
            "3 dismount",
            "shoot 7 -> 112",
            "fight 3 104",
            "river",
            "end",
        ] {
            let o: Order = text.parse().expect(text);
            assert_eq!(o.to_string(), text);
        }
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        let e = "3 contact 104 sideways".parse::<Order>().unwrap_err();
        assert!(e.why.contains("sideways"), "{e}");
        assert!("x move 2"
            .parse::<Order>()
            .unwrap_err()
            .why
            .contains("element id"));
        assert!("3 move far"
            .parse::<Order>()
            .unwrap_err()
            .why
            .contains("number"));
        assert!("".parse::<Order>().is_err());
        assert!("3 move NaN".parse::<Order>().is_err());
    }

    #[test]
    fn an_action_in_the_notation_reads_back_as_the_same_action() {
        let b = Battle::new(crate::driver::demo_setup()).expect("demo set-up");
        let dice = [
            DieScore::new(3).expect("die"),
            DieScore::new(4).expect("die"),
        ];
        for text in [
            "3 contact 104 front",
            "fight 3 104",
            "shoot 9 -> 104",
            "end",
        ] {
            let o: Order = text.parse().expect(text);
            let a = o.action(&b, dice);
            assert_eq!(Order::of_action(&a), Some(o));
            assert_eq!(describe(&a), text);
        }
        // A move ahead starts from the element's pose: Bd 3 stands at (5.5, 4) facing north.
        let a = "3 move 2".parse::<Order>().expect("move").action(&b, dice);
        assert_eq!(describe(&a), "3 to 5.5 6 @ 0");
    }
}
