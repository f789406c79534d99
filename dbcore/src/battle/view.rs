//! The battle seen as a table: where its elements stand now, for the table questions
//! (contacts, threat zones, shooting targets, going) and the picture.

use crate::svg::{SvgArmy, SvgCamp, SvgCommand, SvgKey};
use crate::table::{PlacedElement, Table};

use super::bound::{Battle, Phase};
use super::narrate;
use super::setup::BattleSetup;
use super::state::{LossCause, Status};

impl Battle {
    /// The battlefield with the elements still in play at their present poses, in the battle's
    /// element order. Lost elements are left off the table (§13.1). The table's questions take a
    /// rules configuration of their own: pass [`Battle::setup`]'s `config` to ask with this
    /// battle's.
    pub fn table(&self) -> Table {
        let elements = self
            .elements()
            .iter()
            .filter(|e| e.in_play())
            .map(|e| PlacedElement {
                id: e.id.0,
                // A battle has at most three armies (DBAix), so the index always fits.
                side: u8::try_from(e.army).unwrap_or(u8::MAX),
                kind: e.kind,
                pose: e.pose,
                general: e.general,
            })
            .collect();
        Table {
            battlefield: self.setup().battlefield.clone(),
            elements,
            plough_is_rough: self.plough_rough(),
        }
    }

    /// The picture of the battle now ([`Table::svg`] with this battle's rules configuration),
    /// each element of a Big Battle or Giant army marked with its command's colour and number
    /// (§14).
    /// The picture comes with a title naming the armies in their colours and saying the bound,
    /// the side to move and the phase, and a key beside the table ([`Battle::svg_key`]).
    pub fn svg(&self, threat_zones: bool) -> String {
        let command_of = |id: u32| self.command_of(super::setup::ElementId(id)).map(|c| c.id.0);
        self.table().svg_with_key(
            &self.setup().config,
            threat_zones,
            &command_of,
            Some(self.svg_key()),
        )
    }

    /// [`Battle::svg`] with marks of the latest bound among `events` (the events after the last
    /// `bound_started` of them, or all of them): each tactical move as an arrow, each outcome
    /// move as a dashed arrow, shots, combats and losses (§7, §9, §10, §12, §13.1), so that the
    /// picture tells what just happened.
    pub fn svg_marked(&self, threat_zones: bool, events: &[super::bound::Event]) -> String {
        let command_of = |id: u32| self.command_of(super::setup::ElementId(id)).map(|c| c.id.0);
        self.table().svg_with_marks(
            &self.setup().config,
            threat_zones,
            &command_of,
            Some(self.svg_key()),
            self.marks_of(events),
        )
    }

    /// The marks of the latest bound among `events` that has any (see [`Battle::svg_marked`]):
    /// a bound only just begun, its PIPs rolled and nothing yet done, shows the bound before it.
    pub fn marks_of(&self, events: &[super::bound::Event]) -> Vec<crate::svg::SvgMark> {
        use super::bound::Event;
        let mut end = events.len();
        loop {
            let start = events[..end]
                .iter()
                .rposition(|e| matches!(e, Event::BoundStarted { .. }))
                .unwrap_or(0);
            let marks = self.marks_in(&events[start..end]);
            if !marks.is_empty() || start == 0 {
                return marks;
            }
            end = start;
        }
    }

    /// The marks of `events`, one bound's.
    fn marks_in(&self, events: &[super::bound::Event]) -> Vec<crate::svg::SvgMark> {
        use super::bound::Event;
        use super::outcome::Effect;
        use crate::svg::SvgMark;
        let side = |id: super::setup::ElementId| {
            self.element(id)
                .map_or(0, |e| u8::try_from(e.army).unwrap_or(u8::MAX))
        };
        // Where an element's front stood when event `i` happened: the start of its first
        // outcome move after it, else where it stands now.
        let front_at = |id: super::setup::ElementId, i: usize| {
            events[i..]
                .iter()
                .find_map(|e| match e {
                    Event::Outcome {
                        effect:
                            Effect::Moved { id: x, from, .. }
                            | Effect::TurnedToFace { id: x, from, .. }
                            | Effect::LostOffTable { id: x, from },
                    } if *x == id => Some(from.front_mid()),
                    _ => None,
                })
                .or_else(|| self.element(id).map(|e| e.pose.front_mid()))
        };
        let mut marks = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match e {
                Event::Moved { moves, .. } => marks.extend(moves.iter().map(|m| SvgMark::Move {
                    from: m.from.front_mid(),
                    to: m.to.front_mid(),
                    side: side(m.id),
                })),
                Event::Outcome { effect } => match effect {
                    Effect::Moved { id, from, to } => marks.push(SvgMark::Outcome {
                        from: from.front_mid(),
                        to: to.front_mid(),
                        side: side(*id),
                    }),
                    Effect::Destroyed { id, .. } => {
                        if let Some(at) = self
                            .element(*id)
                            .map(|e| e.rect(&self.setup().config).centre())
                        {
                            marks.push(SvgMark::Lost { at });
                        }
                    }
                    Effect::LostOffTable { from, .. } => marks.push(SvgMark::Lost {
                        at: from.front_mid(),
                    }),
                    Effect::TurnedToFace { .. } => {}
                },
                Event::Shot {
                    shooter, target, ..
                } => {
                    if let (Some(from), Some(to)) = (front_at(*shooter, i), front_at(*target, i)) {
                        marks.push(SvgMark::Shot {
                            from,
                            to,
                            side: side(*shooter),
                        });
                    }
                }
                Event::Fought { a, b, .. } => {
                    if let (Some(p), Some(q)) = (front_at(*a, i), front_at(*b, i)) {
                        marks.push(SvgMark::Combat { at: (p + q) * 0.5 });
                    }
                }
                _ => {}
            }
        }
        marks
    }

    /// What the picture's key says: each army's name, its lost elements ("#3 4Bd", marked when
    /// gone off the table or removed with its command, §13.1, §14.5) and its commands, and the
    /// moment ("Bound 7 · the Romans to move · movement, 3 PIPs left").
    pub fn svg_key(&self) -> SvgKey {
        let setup = self.setup();
        let mut armies = setup.svg_key().armies;
        for e in self.elements() {
            let Status::Lost { cause } = e.status else {
                continue;
            };
            let how = match cause {
                LossCause::Destroyed => "",
                LossCause::OffTable => " (off table)",
                LossCause::Removed => " (removed)",
            };
            if let Some(a) = armies.get_mut(e.army) {
                a.lost.push(format!("{} {}{how}", e.id, e.kind));
                if cause != LossCause::Removed {
                    a.losses += 1;
                }
            }
        }
        for c in self.commands() {
            let mut text = c.id.to_string();
            if c.c_in_c {
                text.push_str(" (C-in-C)");
            }
            if c.allied {
                text.push_str(" (allied)");
            }
            if c.removed {
                text.push_str(", removed");
            } else if c.demoralised {
                text.push_str(", demoralised");
            }
            if let Some(a) = armies.get_mut(c.army) {
                a.commands.push(SvgCommand { id: c.id.0, text });
            }
        }
        let mover = narrate::army_subject(setup, self.active_army());
        let moment = match self.phase() {
            Phase::Finished { winner } => match winner {
                Some(w) => format!(
                    "the battle is over: {}",
                    narrate::army_does(setup, w, "wins", "win")
                ),
                None => "the battle is over, with no winner".to_string(),
            },
            Phase::Movement if self.has_commands() => {
                let left: Vec<String> = self
                    .commands()
                    .iter()
                    .filter(|c| c.army == self.active_army() && !c.removed)
                    .map(|c| format!("{} {}", c.id, narrate::pips_text(c.pips)))
                    .collect();
                format!("{mover} to move · movement, left: {}", left.join(", "))
            }
            Phase::Movement => format!(
                "{mover} to move · movement, {} left",
                narrate::pips_text(self.pips())
            ),
            p => format!("{mover} to move · {}", p.game_name()),
        };
        // §4.6, §14.3: every camp, the army's and each allied command's own, saying whose.
        let camps = self
            .camp_refs()
            .into_iter()
            .map(|c| {
                let mut label = match c.command {
                    Some(id) => format!("camp of {id}"),
                    None => "camp".to_string(),
                };
                if self.camp_is_sacked(c.army, c.command) {
                    label.push_str(" (sacked)");
                }
                SvgCamp {
                    outline: c.outline.clone(),
                    side: u8::try_from(c.army).unwrap_or(u8::MAX),
                    command: c.command.map(|id| id.0),
                    label,
                }
            })
            .collect();
        SvgKey {
            armies,
            status: Some(format!("Bound {} · {moment}", self.bound())),
            troop_kinds: Vec::new(),
            camps,
        }
    }
}

impl BattleSetup {
    /// The table as the set-up deploys it (positions as given, nothing checked but the
    /// table's own limits), for a picture of a set-up before its battle starts.
    pub fn table(&self) -> Result<Table, crate::table::TableError> {
        let elements = self
            .armies
            .iter()
            .enumerate()
            .flat_map(|(i, a)| {
                a.elements.iter().map(move |e| crate::table::PlacedElement {
                    id: e.id.0,
                    side: u8::try_from(i).unwrap_or(u8::MAX),
                    kind: e.kind,
                    pose: e.pose,
                    general: e.general,
                })
            })
            .collect();
        Table::new(self.battlefield.clone(), elements)
    }

    /// The picture of the set-up as deployed, with each army's name.
    pub fn svg(&self, threat_zones: bool) -> Result<String, crate::table::TableError> {
        let table = self.table()?;
        Ok(table.svg_with_key(&self.config, threat_zones, &|_| None, Some(self.svg_key())))
    }

    /// The key of the picture of a set-up before the battle: each army's name, no losses and no
    /// moment.
    pub fn svg_key(&self) -> SvgKey {
        SvgKey {
            armies: self
                .armies
                .iter()
                .map(|a| SvgArmy {
                    name: a.name.clone(),
                    lost: Vec::new(),
                    losses: 0,
                    commands: Vec::new(),
                })
                .collect(),
            status: None,
            troop_kinds: Vec::new(),
            camps: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::battle::{bound::Action, bound::Battle, bound::BattleRecord};

    fn golden(name: &str) -> BattleRecord {
        let path = format!("{}/../tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        serde_json::from_value(v["record"].clone()).unwrap()
    }

    #[test]
    fn the_table_shows_every_element_where_the_battle_has_it() {
        let record = golden("opening_bounds");
        let (battle, _) = Battle::replay(&record).unwrap();
        let table = battle.table();
        assert_eq!(table.elements.len(), battle.elements().len());
        for (placed, e) in table.elements.iter().zip(battle.elements()) {
            assert_eq!(placed.id, e.id.0);
            assert_eq!(usize::from(placed.side), e.army);
            assert_eq!(placed.kind, e.kind);
            assert_eq!(placed.pose, e.pose);
            assert_eq!(placed.general, e.general);
        }
        assert_eq!(table.battlefield, battle.setup().battlefield);
    }

    #[test]
    fn a_first_pip_score_of_one_makes_the_tables_plough_rough() {
        // DBA3.md §3.1, §17.13: the game's first PIP score of 1 turns Plough rough.
        let record = golden("opening_bounds");
        let mut battle = Battle::new(record.setup).unwrap();
        assert!(!battle.table().plough_is_rough);
        battle
            .apply(Action::RollPips {
                die: crate::dice::DieScore::new(1).unwrap(),
            })
            .unwrap();
        assert!(battle.table().plough_is_rough);
    }
}
