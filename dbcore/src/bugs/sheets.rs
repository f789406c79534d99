//! The character sheets and the weapons (BUGS §2–4): every number the transcription kept, and
//! the places where the user's tables file fills in what it lost (BUGS §17.3, BUGS §17.4; readings R3–R6).
//!
//! A figure's characteristics are read from its [`Sheet`] and, for the lost values, from the
//! validated [`Tables`]; nothing here guesses a lost number.

use serde::{Deserialize, Serialize};

use super::tables::{Tables, Targets, WeaponRanges};
use super::Side;

/// The pre-generated character sheets of the booklet (BUGS §3). Two sheets are printed for
/// citizens, one unarmed and one with a pistol; both have the citizen's lost WS and WILL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Sheet {
    /// A citizen with only his fists (WS and WILL lost: the tables file supplies them).
    Citizen,
    /// A citizen with a pistol (WS and WILL lost: the tables file supplies them).
    CitizenWithPistol,
    /// The colonist, an armed citizen (reading R41): WS 7, assault rifle, WILL 9.
    Colonist,
    /// A soldier with an assault rifle and two grenades.
    Soldier,
    /// A soldier with the heavy weapon and two grenades.
    HeavyWeaponSoldier,
    /// A big un: the bugs' leaders, the most dangerous.
    BigUn,
    /// A little un (WS and WILL lost: the tables file supplies them).
    LittleUn,
}

/// What a figure fights with (BUGS §4). Fists and claws are melee weapons; the others fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// A citizen's fists, 1D6, melee only.
    Fists,
    /// A bug's claws and teeth, melee only; the dice are on the bug's sheet.
    ClawsTeeth,
    /// The pistol: 1D6, Power 5.
    Pistol,
    /// The assault rifle: 3D6 (reading R5), Power 11.
    AssaultRifle,
    /// The heavy weapon: 2D6, Power 9, a burst of 3 in.
    HeavyWeapon,
    /// A grenade: 2D6, Power 11 (or 9, switch `grenade_pwr`, reading R5), a burst of 3 in.
    Grenade,
}

impl Weapon {
    /// Whether it fires (BUGS §8); fists and claws work only in contact.
    pub fn is_ranged(self) -> bool {
        !matches!(self, Weapon::Fists | Weapon::ClawsTeeth)
    }
    /// Its name as a player says it.
    pub fn name(self) -> &'static str {
        match self {
            Weapon::Fists => "fists",
            Weapon::ClawsTeeth => "claws and teeth",
            Weapon::Pistol => "pistol",
            Weapon::AssaultRifle => "assault rifle",
            Weapon::HeavyWeapon => "heavy weapon",
            Weapon::Grenade => "grenade",
        }
    }
    /// The Damage Value in D6 of a ranged weapon (BUGS §4); melee weapons take theirs from the
    /// sheet.
    pub fn damage_dice(self) -> Option<u8> {
        match self {
            Weapon::Pistol => Some(1),
            Weapon::AssaultRifle => Some(3),
            Weapon::HeavyWeapon | Weapon::Grenade => Some(2),
            Weapon::Fists | Weapon::ClawsTeeth => None,
        }
    }
    /// The Power Rating of a ranged weapon (BUGS §4, BUGS §10.2); `grenade_pwr` is the switch of R5.
    pub fn power(self, grenade_pwr: u8) -> Option<u8> {
        match self {
            Weapon::Pistol => Some(5),
            Weapon::AssaultRifle => Some(11),
            Weapon::HeavyWeapon => Some(9),
            Weapon::Grenade => Some(grenade_pwr),
            Weapon::Fists | Weapon::ClawsTeeth => None,
        }
    }
    /// Its ranges and target count from the tables file (BUGS §17.3, reading R6).
    pub fn ranges(self, tables: &Tables) -> Option<WeaponRanges> {
        match self {
            Weapon::Pistol => Some(tables.pistol),
            Weapon::AssaultRifle => Some(tables.assault_rifle),
            Weapon::HeavyWeapon => Some(tables.heavy_weapon),
            Weapon::Grenade => Some(tables.grenade),
            Weapon::Fists | Weapon::ClawsTeeth => None,
        }
    }
    /// Whether one fire hits everything in a 3 in circle (BUGS §8, reading R16).
    pub fn is_burst(self, tables: &Tables) -> bool {
        self.ranges(tables)
            .is_some_and(|r| matches!(r.targets, Targets::Burst))
    }
}

/// The armour written on a sheet's DAV line (BUGS §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Armour {
    /// No armour: DAV 0.
    None,
    /// A soldier's body armor: DAV 8.
    BodyArmor,
    /// A bug's body type: DAV 12 for big uns, 8 for little uns.
    BodyType,
}

/// One figure's characteristics, as its sheet gives them with the lost values filled in from
/// the tables file (BUGS §2, BUGS §3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Characteristics {
    /// Weapon Skill.
    pub ws: u8,
    /// Power: the Impact column of its melee hits (BUGS §10.2).
    pub pow: u8,
    /// Willpower at the start.
    pub will: u8,
    /// Stamina at the start.
    pub stam: i32,
    /// Defensive Armor Value, 0 to 12.
    pub dav: u8,
    /// The armour's name.
    pub armour: Armour,
    /// The sheet's weapon.
    pub weapon: Weapon,
    /// The sheet weapon's Damage Value in D6, used in melee too (reading R49).
    pub damage_dice: u8,
    /// Movement rate in inches (reading R3: the second number after POW).
    pub movement: f64,
    /// Grenades carried (reading R45).
    pub grenades: u8,
}

/// A sheet's values where the transcription kept them; `None` where the tables file must supply
/// one (BUGS §17.4).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Printed {
    ws: Option<u8>,
    pow: u8,
    movement: f64,
    will: Option<u8>,
    stam: i32,
    dav: u8,
    armour: Armour,
    weapon: Weapon,
    damage_dice: u8,
    grenades: u8,
}

impl Sheet {
    /// Every sheet, in the booklet's order.
    pub const ALL: [Sheet; 7] = [
        Sheet::Citizen,
        Sheet::CitizenWithPistol,
        Sheet::Colonist,
        Sheet::Soldier,
        Sheet::HeavyWeaponSoldier,
        Sheet::BigUn,
        Sheet::LittleUn,
    ];

    /// The side the sheet fights for.
    pub fn side(self) -> Side {
        match self {
            Sheet::BigUn | Sheet::LittleUn => Side::Bugs,
            _ => Side::Humans,
        }
    }
    /// A soldier for the bug-hole chance (reading R41): colonists and citizens are not.
    pub fn is_soldier(self) -> bool {
        matches!(self, Sheet::Soldier | Sheet::HeavyWeaponSoldier)
    }
    /// A citizen for the objectives (reading R41: colonists count as citizens).
    pub fn is_citizen(self) -> bool {
        matches!(
            self,
            Sheet::Citizen | Sheet::CitizenWithPistol | Sheet::Colonist
        )
    }
    /// The sheet's name as the booklet prints it.
    pub fn name(self) -> &'static str {
        match self {
            Sheet::Citizen => "Citizen",
            Sheet::CitizenWithPistol => "Citizen with pistol",
            Sheet::Colonist => "Colonist",
            Sheet::Soldier => "Soldier",
            Sheet::HeavyWeaponSoldier => "Soldier with heavy weapon",
            Sheet::BigUn => "Big un",
            Sheet::LittleUn => "Little un",
        }
    }

    fn printed(self) -> Printed {
        let citizen = Printed {
            ws: None,
            pow: 6,
            movement: 8.0,
            will: None,
            stam: 42,
            dav: 0,
            armour: Armour::None,
            weapon: Weapon::Fists,
            damage_dice: 1,
            grenades: 0,
        };
        let soldier = Printed {
            ws: Some(10),
            pow: 9,
            movement: 8.0,
            will: Some(9),
            stam: 81,
            dav: 8,
            armour: Armour::BodyArmor,
            weapon: Weapon::AssaultRifle,
            damage_dice: 3,
            grenades: 2,
        };
        match self {
            Sheet::Citizen => citizen,
            Sheet::CitizenWithPistol => Printed {
                weapon: Weapon::Pistol,
                ..citizen
            },
            Sheet::Colonist => Printed {
                ws: Some(7),
                pow: 7,
                will: Some(9),
                stam: 63,
                weapon: Weapon::AssaultRifle,
                damage_dice: 3,
                ..citizen
            },
            Sheet::Soldier => soldier,
            Sheet::HeavyWeaponSoldier => Printed {
                weapon: Weapon::HeavyWeapon,
                damage_dice: 2,
                ..soldier
            },
            Sheet::BigUn => Printed {
                ws: Some(12),
                pow: 12,
                movement: 6.0,
                will: Some(10),
                stam: 120,
                dav: 12,
                armour: Armour::BodyType,
                weapon: Weapon::ClawsTeeth,
                damage_dice: 3,
                grenades: 0,
            },
            Sheet::LittleUn => Printed {
                ws: None,
                pow: 7,
                movement: 12.0,
                will: None,
                stam: 49,
                dav: 8,
                armour: Armour::BodyType,
                weapon: Weapon::ClawsTeeth,
                damage_dice: 2,
                grenades: 0,
            },
        }
    }

    /// The printed POW (every sheet kept it).
    pub fn pow(self) -> u8 {
        self.printed().pow
    }

    /// The sheet's characteristics, the lost WS and WILL taken from the tables file.
    pub fn characteristics(self, tables: &Tables) -> Characteristics {
        let p = self.printed();
        let lost = match self {
            Sheet::LittleUn => tables.little_un,
            _ => tables.citizen,
        };
        Characteristics {
            ws: p.ws.unwrap_or(lost.ws),
            pow: p.pow,
            will: p.will.unwrap_or(lost.will),
            stam: p.stam,
            dav: p.dav,
            armour: p.armour,
            weapon: p.weapon,
            damage_dice: p.damage_dice,
            movement: p.movement,
            grenades: p.grenades,
        }
    }

    /// The Willpower printed on the sheet, `None` where it was lost.
    pub fn printed_will(self) -> Option<u8> {
        self.printed().will
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_sheets_show_stamina_as_power_times_willpower() {
        // BUGS §3: the observation STAM = POW × WILL holds on the three complete sheets.
        for s in [Sheet::Colonist, Sheet::Soldier, Sheet::BigUn] {
            let p = s.printed();
            assert_eq!(
                p.stam,
                i32::from(p.pow) * i32::from(p.will.unwrap()),
                "{s:?}"
            );
        }
    }
}
