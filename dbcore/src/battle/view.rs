//! The battle seen as a table: where its elements stand now, for the table questions
//! (contacts, threat zones, shooting targets, going) and the picture.

use crate::table::{PlacedElement, Table};

use super::bound::Battle;

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
    pub fn svg(&self, threat_zones: bool) -> String {
        let command_of = |id: u32| self.command_of(super::setup::ElementId(id)).map(|c| c.id.0);
        self.table()
            .svg_with_commands(&self.setup().config, threat_zones, &command_of)
    }
}

#[cfg(test)]
mod tests {
    use crate::battle::{Action, Battle, BattleRecord};

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
