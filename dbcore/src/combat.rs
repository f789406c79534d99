//! Resolving one close combat or one shot, and its exact odds (DBA3.md §9.6, §10, §11, §12.5).
//!
//! A [`Situation`] describes two elements as the table shows them: kind, general, going, hill,
//! river bank, city/fort/camp, supports, flank and rear contacts, demoralisation, and whether this
//! is close combat or a shot. [`resolve`] adds two [`DieScore`]s and returns each side's total with
//! every factor named, each side's outcome with the row of §11 that gave it, and who pursues.
//! [`odds`] enumerates all 36 pairs of scores.
//!
//! The situation is what the table shows *after* the geometry has been read: which edges are
//! overlapped, who supports whom, which going each element counts as being in. The battle layer
//! derives it from positions; a caller with a real table can fill it in by hand.
//!
//! ```
//! use dbcore::combat::{resolve, Combatant, Situation};
//! use dbcore::{DieScore, RulesConfig};
//!
//! let knights = Combatant::new("3Kn".parse().unwrap());
//! let blades = Combatant::new("4Bd".parse().unwrap());
//! let sit = Situation::close_combat(knights, blades);
//! let cfg = RulesConfig::default();
//! // 3Kn +3 vs foot, 4Bd +3 vs mounted: a tie on equal dice destroys the Knights (§11.1).
//! let r = resolve(&sit, [DieScore::new(4).unwrap(), DieScore::new(4).unwrap()], &cfg).unwrap();
//! assert_eq!(r.a.total, 7);
//! assert_eq!(r.a.outcome, dbcore::combat::Outcome::Destroyed);
//! ```

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

use crate::codes::{ErrorCode, ErrorInfo};
use crate::config::RulesConfig;
use crate::dice::DieScore;
use crate::troops::{BaseKind, Class, ElementKind, PursuitRule, TroopType};

/// The going an element counts as being in for combat (§3.1). Give the going *for that element*:
/// a camel-mounted element in dunes or oasis is in good going (§3.1, §17.28); an element partly in
/// several goings is in the worst (§3.1).
///
/// The going of [`crate::terrain::Going`] as a combatant stands in it: the same classes without
/// the impassable waterway, where no element fights (§3.4). [`Going::from_terrain`] is the one
/// way from the table's going to this one. They stay two types because each is in the public
/// JSON as it is (a combatant's going cannot be `impassable`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Going {
    /// Good going.
    #[default]
    Good,
    /// Rough going.
    Rough,
    /// Bad going.
    Bad,
}

impl Going {
    /// The going of the table as a combatant counts it; `None` on impassable ground (§3.4).
    pub const fn from_terrain(going: crate::terrain::Going) -> Option<Going> {
        match going {
            crate::terrain::Going::Good => Some(Going::Good),
            crate::terrain::Going::Rough => Some(Going::Rough),
            crate::terrain::Going::Bad => Some(Going::Bad),
            crate::terrain::Going::Impassable => None,
        }
    }
}

/// A city, fort or camp (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Stronghold {
    /// A City (§4.2).
    City,
    /// A Fort (§4.3).
    Fort,
    /// A camp (§4.6).
    Camp,
}

impl fmt::Display for Stronghold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stronghold::City => "city",
            Stronghold::Fort => "fort",
            Stronghold::Camp => "camp",
        })
    }
}

/// An element's part in the fight for a city, fort or camp (§4.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "role")]
#[serde(deny_unknown_fields)]
pub enum Holding {
    /// In the open (sallied camp followers and denizens are in the open too).
    #[default]
    Field,
    /// Inside and defending it: a garrison, camp defenders, camp followers or denizens.
    Defending {
        /// The kind of place defended.
        place: Stronghold,
        /// Enemy elements assaulting it besides the one fighting now, each −1 (§4.7; at most 2).
        #[serde(default)]
        extra_assaulters: u8,
    },
    /// Assaulting it from outside, front edge in contact (§4.7).
    Assaulting {
        /// The kind of place assaulted.
        place: Stronghold,
    },
}

impl Holding {
    fn defending(self) -> Option<Stronghold> {
        match self {
            Holding::Defending { place, .. } => Some(place),
            _ => None,
        }
    }
    fn assaulting(self) -> Option<Stronghold> {
        match self {
            Holding::Assaulting { place } => Some(place),
            _ => None,
        }
    }
    fn is_field(self) -> bool {
        matches!(self, Holding::Field)
    }
}

/// A friend giving side or rear support (§10.3): its kind and the going it is in. The caller
/// vouches for the geometry (mutual side-edge contact with front corners level, or directly behind
/// in full contact, facing the same way, not itself in combat); the rules of *who* supports whom
/// are applied here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Supporter {
    /// The supporter's kind: whether it supports depends on it and on the supported element
    /// (§10.3).
    pub kind: ElementKind,
    /// The going the supporter is in, which some supports depend on (§10.3).
    #[serde(default)]
    pub going: Going,
}

impl Supporter {
    /// A supporter of this kind in good going.
    pub fn new(kind: ElementKind) -> Self {
        Supporter {
            kind,
            going: Going::Good,
        }
    }
}

/// The friends in side-edge contact of a [`Combatant`], kept inline (no heap).
///
/// It reads as a slice of [`Supporter`] and is written in JSON as the array it holds, as a
/// `Vec<Supporter>` was. At most two friends give side support (§10.3); a list of more is kept
/// so that [`resolve`] can refuse it by the rule ([`CombatError::TooManySideSupporters`] names
/// how many were given): the first [`Supporters::CAPACITY`] are stored and the rest only
/// counted, so such a list, refused anyway, writes back only the stored ones.
#[derive(Clone, Copy)]
pub struct Supporters {
    /// How many were given (saturating), stored or not.
    given: u8,
    items: [Supporter; Supporters::CAPACITY],
}

/// An unused slot of [`Supporters`].
const NO_SUPPORTER: Supporter = Supporter {
    kind: ElementKind::new(crate::troops::BaseKind::El),
    going: Going::Good,
};

impl Supporters {
    /// How many supporters are stored; more are counted only.
    pub const CAPACITY: usize = 3;

    /// No supporters.
    pub const fn new() -> Self {
        Supporters {
            given: 0,
            items: [NO_SUPPORTER; Supporters::CAPACITY],
        }
    }

    /// Add `s` at the end (beyond [`Supporters::CAPACITY`] it is only counted).
    pub fn push(&mut self, s: Supporter) {
        if let Some(slot) = self.items.get_mut(usize::from(self.given)) {
            *slot = s;
        }
        self.given = self.given.saturating_add(1);
    }

    /// How many were given, stored or not.
    pub fn given(&self) -> usize {
        usize::from(self.given)
    }

    /// The stored supporters, in order.
    pub fn as_slice(&self) -> &[Supporter] {
        &self.items[..usize::from(self.given).min(Supporters::CAPACITY)]
    }
}

impl Default for Supporters {
    fn default() -> Self {
        Supporters::new()
    }
}

impl std::ops::Deref for Supporters {
    type Target = [Supporter];
    fn deref(&self) -> &[Supporter] {
        self.as_slice()
    }
}

impl PartialEq for Supporters {
    fn eq(&self, other: &Supporters) -> bool {
        self.given == other.given && self.as_slice() == other.as_slice()
    }
}

impl Eq for Supporters {}

impl PartialEq<Vec<Supporter>> for Supporters {
    fn eq(&self, other: &Vec<Supporter>) -> bool {
        self.given() == other.len() && self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Supporters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a Supporters {
    type Item = &'a Supporter;
    type IntoIter = std::slice::Iter<'a, Supporter>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl FromIterator<Supporter> for Supporters {
    fn from_iter<I: IntoIterator<Item = Supporter>>(iter: I) -> Supporters {
        let mut out = Supporters::new();
        for s in iter {
            out.push(s);
        }
        out
    }
}

impl From<Vec<Supporter>> for Supporters {
    fn from(v: Vec<Supporter>) -> Supporters {
        v.into_iter().collect()
    }
}

impl Serialize for Supporters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Supporters {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Supporters, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Supporters;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of supporters")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Supporters, A::Error> {
                let mut out = Supporters::new();
                while let Some(s) = seq.next_element::<Supporter>()? {
                    out.push(s);
                }
                Ok(out)
            }
        }
        d.deserialize_seq(Visit)
    }
}

/// One element in a combat, as the table shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Combatant {
    /// What troops it is (§2).
    pub kind: ElementKind,
    /// The general's element (+1, §10.3).
    #[serde(default)]
    pub general: bool,
    /// Big Battle: the C-in-C uses his once-a-game +1 in this combat (§14.4). Needs `general`.
    #[serde(default)]
    pub cinc_bonus: bool,
    /// The going it counts as being in (see [`Going`]).
    #[serde(default)]
    pub going: Going,
    /// Any part of its front edge is higher up a slope than every part of its opponent (§3.3).
    #[serde(default)]
    pub uphill: bool,
    /// Entirely on land against an opponent at least partly in a non-paltry river, off-road
    /// (§3.5, §17.22).
    #[serde(default)]
    pub defending_bank: bool,
    /// Its part in the fight for a City, Fort or camp, if any (§4.7).
    #[serde(default)]
    pub holding: Holding,
    /// Friends in mutual side-edge contact (at most 2; support counts once, §17.21).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Supporter>"))]
    pub side_supporters: Supporters,
    /// A friend directly behind (§10.3).
    #[serde(default)]
    pub rear_supporter: Option<Supporter>,
    /// Side and rear edges overlapped by, or in front-edge contact with, enemy other than its
    /// frontal opponent: 0 to 3, −1 each (§10.3, §10.4, §17.21).
    #[serde(default)]
    pub flank_rear_contacts: u8,
    /// Belongs to a demoralised Big Battle command (§14.5).
    #[serde(default)]
    pub demoralised: bool,
}

impl Combatant {
    /// An ordinary element in good going in the open, with no factors beyond its kind.
    pub fn new(kind: ElementKind) -> Self {
        Combatant {
            kind,
            general: false,
            cinc_bonus: false,
            going: Going::Good,
            uphill: false,
            defending_bank: false,
            holding: Holding::Field,
            side_supporters: Supporters::new(),
            rear_supporter: None,
            flank_rear_contacts: 0,
            demoralised: false,
        }
    }
    /// The general's element.
    pub fn general(mut self) -> Self {
        self.general = true;
        self
    }
    /// In the given going.
    pub fn in_going(mut self, going: Going) -> Self {
        self.going = going;
        self
    }
    /// Uphill of its opponent.
    pub fn uphill(mut self) -> Self {
        self.uphill = true;
        self
    }
    /// Defending a river bank.
    pub fn defending_bank(mut self) -> Self {
        self.defending_bank = true;
        self
    }
    /// Inside and defending a stronghold.
    pub fn defending(mut self, place: Stronghold, extra_assaulters: u8) -> Self {
        self.holding = Holding::Defending {
            place,
            extra_assaulters,
        };
        self
    }
    /// Assaulting a stronghold.
    pub fn assaulting(mut self, place: Stronghold) -> Self {
        self.holding = Holding::Assaulting { place };
        self
    }
    /// With a friend in side-edge contact.
    pub fn side_supported_by(mut self, kind: ElementKind) -> Self {
        self.side_supporters.push(Supporter::new(kind));
        self
    }
    /// With a friend directly behind.
    pub fn rear_supported_by(mut self, kind: ElementKind) -> Self {
        self.rear_supporter = Some(Supporter::new(kind));
        self
    }
    /// With `n` flank or rear edges overlapped or contacted.
    pub fn flanked(mut self, n: u8) -> Self {
        self.flank_rear_contacts = n;
        self
    }
    /// Of a demoralised command.
    pub fn demoralised(mut self) -> Self {
        self.demoralised = true;
        self
    }
}

/// One of the two combatants of a [`Situation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The first combatant, `a` of the situation, whose die is `dice[0]`.
    A,
    /// The second combatant, `b` of the situation, whose die is `dice[1]`.
    B,
}

impl Side {
    /// The opponent's side.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// A distant shot (§9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Shot {
    /// Which combatant is the main shooter; the other is its target.
    pub shooter: ShooterSide,
    /// Further shooters at the same target, −1 each to it (§9.4; at most 2).
    #[serde(default)]
    pub support_shooters: u8,
    /// The target is itself shooting at the shooter, so the shooter can suffer an outcome too
    /// (§17.24); otherwise only the target can.
    #[serde(default)]
    pub target_shoots_back: bool,
    /// The shooter is at least partly beyond the line of the target's rear edge (§11.2 SCh row,
    /// §9.6 turning to face before a recoil).
    #[serde(default)]
    pub from_behind: bool,
}

/// [`Side`] with a default, for [`Shot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ShooterSide {
    /// `a` shoots.
    #[default]
    A,
    /// `b` shoots.
    B,
}

impl From<ShooterSide> for Side {
    fn from(s: ShooterSide) -> Side {
        match s {
            ShooterSide::A => Side::A,
            ShooterSide::B => Side::B,
        }
    }
}

/// Close combat or a shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Engagement {
    /// A close combat between the two front edges (§10).
    #[default]
    CloseCombat,
    /// A shot (§9), with what the shooter and target need.
    Shooting(Shot),
}

/// Two elements about to fight or shoot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The first combatant, whose die is `dice[0]`: in a shot, usually the shooter.
    pub a: Combatant,
    /// The second combatant, whose die is `dice[1]`.
    pub b: Combatant,
    /// Close combat or a shot.
    #[serde(default)]
    pub engagement: Engagement,
}

impl Situation {
    /// `a` and `b` in frontal close combat.
    pub fn close_combat(a: Combatant, b: Combatant) -> Self {
        Situation {
            a,
            b,
            engagement: Engagement::CloseCombat,
        }
    }
    /// `a` shoots at `b`.
    pub fn shooting(a: Combatant, b: Combatant, shot: Shot) -> Self {
        Situation {
            a,
            b,
            engagement: Engagement::Shooting(Shot {
                shooter: ShooterSide::A,
                ..shot
            }),
        }
    }
    /// The combatant on `side`.
    pub fn get(&self, side: Side) -> &Combatant {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }
    /// The same situation with the two combatants swapped.
    pub fn swapped(&self) -> Situation {
        let engagement = match self.engagement {
            Engagement::CloseCombat => Engagement::CloseCombat,
            Engagement::Shooting(s) => Engagement::Shooting(Shot {
                shooter: match s.shooter {
                    ShooterSide::A => ShooterSide::B,
                    ShooterSide::B => ShooterSide::A,
                },
                ..s
            }),
        };
        Situation {
            a: self.b.clone(),
            b: self.a.clone(),
            engagement,
        }
    }
}

/// Why a situation cannot be fought as described.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "refusal")]
pub enum CombatError {
    /// The element's kind does not shoot (§9.1).
    #[error("§9.1: {kind} does not shoot; only Bows, War Wagons and Artillery do")]
    NotAShooter {
        /// Its kind.
        kind: ElementKind,
    },
    /// More support shooters than §9.4 allows.
    #[error("§9.4: at most {max} support shooters, not {given}")]
    TooManySupportShooters {
        /// Support shooters given.
        given: u8,
        /// The most allowed.
        max: u8,
    },
    /// More than 3 flank and rear contacts (§10.3).
    #[error("§10.3: an element has only two flank edges and a rear edge, so at most 3 are overlapped or contacted, not {given}")]
    TooManyFlankContacts {
        /// Contacts given.
        given: u8,
    },
    /// More than 2 side supporters (§10.3).
    #[error("§10.3: support from both flanks counts once; at most 2 side supporters, not {given}")]
    TooManySideSupporters {
        /// Side supporters given.
        given: usize,
    },
    /// More extra assaulters than §4.7 counts.
    #[error(
        "§4.7: at most {max} assaulters beyond the first count against a {place}, not {given}"
    )]
    TooManyAssaulters {
        /// The kind of place.
        place: Stronghold,
        /// Extra assaulters given.
        given: u8,
        /// The most that count.
        max: u8,
    },
    /// The C-in-C's +1 was asked for an element that is not a general's (§14.4).
    #[error("§14.4: the C-in-C's +1 is for a general's element only")]
    CinCWithoutGeneral,
    /// The element's kind may not defend the kind of place it holds.
    #[error("{rule}: {kind} may not defend a {place}")]
    IllegalDefender {
        /// The section that forbids it.
        rule: &'static str,
        /// The defender's kind.
        kind: ElementKind,
        /// The kind of place.
        place: Stronghold,
    },
    /// The element's kind may not assault the kind of place (§4.7, §8.4).
    #[error("§4.7, §8.4: {kind} may not assault a {place}")]
    IllegalAssaulter {
        /// The assaulter's kind.
        kind: ElementKind,
        /// The kind of place.
        place: Stronghold,
    },
    /// A defender and an assaulter do not face each other as §4.7 requires.
    #[error("§4.7: in close combat a defender of a {place} fights an element assaulting that {place}, and an assaulter fights its defender")]
    UnmatchedAssault {
        /// The kind of place.
        place: Stronghold,
    },
    /// A shot between a stronghold's defender and an assaulter in front-edge contact with it, which
    /// the rules do not allow as described (§4.7).
    #[error("§4.7: an assaulter is in front-edge contact with the stronghold, so it cannot be shot at from inside it here as described")]
    BothHolding,
}

impl CombatError {
    fn rule_ref(&self) -> &'static str {
        match self {
            CombatError::NotAShooter { .. } => "§9.1",
            CombatError::TooManySupportShooters { .. } => "§9.4",
            CombatError::TooManyFlankContacts { .. }
            | CombatError::TooManySideSupporters { .. } => "§10.3",
            CombatError::TooManyAssaulters { .. }
            | CombatError::UnmatchedAssault { .. }
            | CombatError::BothHolding => "§4.7",
            CombatError::CinCWithoutGeneral => "§14.4",
            CombatError::IllegalDefender { rule, .. } => rule,
            CombatError::IllegalAssaulter { .. } => "§8.4",
        }
    }
}

impl ErrorInfo for CombatError {
    fn code(&self) -> ErrorCode {
        ErrorCode::IllegalSituation
    }
    fn rule(&self) -> Option<&'static str> {
        Some(self.rule_ref())
    }
}

/// The name of a combat factor or tactical factor (§10.1, §10.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
// Four bytes, as wide as a factor's value, so that a `Factor` has no padding and an empty
// `Factors` list is plain zero bytes (a few wide stores rather than two stores a slot), which is
// most of what `resolve` writes. The JSON spells the names, never the numbers.
#[repr(u32)]
pub enum FactorName {
    /// Combat factor against foot (§10.1).
    VsFoot,
    /// Combat factor against mounted (§10.1).
    VsMounted,
    /// Combat factor when shot at (§10.1: Blades +4).
    ShotAt,
    /// Artillery in a City or Fort (§10.1).
    ArtilleryInCityOrFort,
    /// Foot garrison defending a City or Fort, +4 (§10.3).
    Garrison,
    /// Camp followers or other foot defending their camp, or denizens their City, +2 (§10.3).
    CampOrCityDefenders,
    /// General's element, +1.
    General,
    /// Big Battle C-in-C's once-a-game +1 (§14.4).
    CinC,
    /// Uphill, +1.
    Uphill,
    /// Defending a river bank, +1.
    RiverBank,
    /// Side support, +1.
    SideSupport,
    /// Rear support (Pikes +3 or +1, Warband +1, Light Horse +1).
    RearSupport,
    /// Double element against foot in good going, +1 (§2.4).
    DoubleElement,
    /// Each flank or rear edge overlapped or contacted, −1.
    FlankOrRear,
    /// Each 2nd and 3rd assaulter, −1 to the defender (§4.7).
    ExtraAssaulters,
    /// Each support shooter, −1 to the target (§9.4).
    SupportShooters,
    /// In bad going, −2.
    BadGoing,
    /// Demoralised command, −2 (§14.5).
    Demoralised,
}

impl FactorName {
    /// Every factor name, in the order factors are listed in a total.
    pub const ALL: [FactorName; 18] = [
        FactorName::VsFoot,
        FactorName::VsMounted,
        FactorName::ShotAt,
        FactorName::ArtilleryInCityOrFort,
        FactorName::Garrison,
        FactorName::CampOrCityDefenders,
        FactorName::General,
        FactorName::CinC,
        FactorName::Uphill,
        FactorName::RiverBank,
        FactorName::SideSupport,
        FactorName::RearSupport,
        FactorName::DoubleElement,
        FactorName::FlankOrRear,
        FactorName::ExtraAssaulters,
        FactorName::SupportShooters,
        FactorName::BadGoing,
        FactorName::Demoralised,
    ];

    /// How a player says it.
    pub fn label(self) -> &'static str {
        match self {
            FactorName::VsFoot => "combat factor vs foot",
            FactorName::VsMounted => "combat factor vs mounted",
            FactorName::ShotAt => "combat factor when shot at",
            FactorName::ArtilleryInCityOrFort => "artillery in a city or fort",
            FactorName::Garrison => "garrison of a city or fort",
            FactorName::CampOrCityDefenders => "defending own camp or city",
            FactorName::General => "general",
            FactorName::CinC => "C-in-C's once-a-game bonus",
            FactorName::Uphill => "uphill",
            FactorName::RiverBank => "defending a river bank",
            FactorName::SideSupport => "side support",
            FactorName::RearSupport => "rear support",
            FactorName::DoubleElement => "double element",
            FactorName::FlankOrRear => "flank or rear overlapped or contacted",
            FactorName::ExtraAssaulters => "further assaulters",
            FactorName::SupportShooters => "support shooters",
            FactorName::BadGoing => "in bad going",
            FactorName::Demoralised => "demoralised command",
        }
    }
}

impl fmt::Display for FactorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One factor counted in a total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Factor {
    /// Which factor it is.
    pub name: FactorName,
    /// What it adds to the total (negative to subtract).
    pub value: i32,
}

/// The factors of one side's total, kept inline (no heap), in the order they are counted.
///
/// It reads as a slice of [`Factor`] (`factors.iter()`, `factors.len()`, `&factors[0]`) and is
/// written in JSON as the array of factors it holds, as a `Vec<Factor>` was. At most
/// [`Factors::CAPACITY`] fit: a side counts at most 14 (one combat factor, one stronghold bonus
/// and each other factor of §9.4, §10.3 and §14 once), so a total never runs out of room.
#[derive(Clone, Copy)]
pub struct Factors {
    len: u8,
    items: [Factor; Factors::CAPACITY],
}

/// An unused slot of [`Factors`].
const NO_FACTOR: Factor = Factor {
    name: FactorName::VsFoot,
    value: 0,
};

impl Factors {
    /// How many factors fit.
    pub const CAPACITY: usize = 16;

    /// No factors.
    pub const fn new() -> Self {
        Factors {
            len: 0,
            items: [NO_FACTOR; Factors::CAPACITY],
        }
    }

    /// Add `f` at the end; gives it back if the list is full.
    pub fn try_push(&mut self, f: Factor) -> Result<(), Factor> {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = f;
                self.len += 1;
                Ok(())
            }
            None => Err(f),
        }
    }

    /// The factors, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Factor] {
        &self.items[..usize::from(self.len)]
    }

    /// What they add up to.
    pub fn sum(&self) -> i32 {
        // Every slot past `len` holds `NO_FACTOR` (value 0): a list only grows by `try_push`,
        // from `Factors::new`. So all the slots are added, a fixed-length loop the compiler
        // unrolls, rather than a loop over `len` with its set-up (measured in #15).
        self.items.iter().map(|f| f.value).sum()
    }

    /// Add a factor of `value` unless it is zero (a factor that counts nothing is not listed).
    fn push_nonzero(&mut self, name: FactorName, value: i32) {
        if value != 0 {
            self.push(Factor { name, value });
        }
    }

    /// Add a factor; a side counts at most 14 (see the type's doc), fewer than the capacity.
    fn push(&mut self, f: Factor) {
        let pushed = self.try_push(f);
        debug_assert!(pushed.is_ok(), "more factors than Factors::CAPACITY");
    }
}

impl Default for Factors {
    fn default() -> Self {
        Factors::new()
    }
}

impl std::ops::Deref for Factors {
    type Target = [Factor];
    #[inline]
    fn deref(&self) -> &[Factor] {
        self.as_slice()
    }
}

impl PartialEq for Factors {
    fn eq(&self, other: &Factors) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Factors {}

impl PartialEq<[Factor]> for Factors {
    fn eq(&self, other: &[Factor]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<Factor>> for Factors {
    fn eq(&self, other: &Vec<Factor>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Factors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a Factors {
    type Item = &'a Factor;
    type IntoIter = std::slice::Iter<'a, Factor>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl TryFrom<&[Factor]> for Factors {
    type Error = usize;
    /// The factors of `v`, or its length when more than [`Factors::CAPACITY`].
    fn try_from(v: &[Factor]) -> Result<Factors, usize> {
        let mut out = Factors::new();
        for &f in v {
            out.try_push(f).map_err(|_| v.len())?;
        }
        Ok(out)
    }
}

impl Serialize for Factors {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Factors {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Factors, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Factors;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of at most {} factors", Factors::CAPACITY)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Factors, A::Error> {
                let mut out = Factors::new();
                while let Some(f) = seq.next_element::<Factor>()? {
                    if out.try_push(f).is_err() {
                        return Err(serde::de::Error::invalid_length(
                            Factors::CAPACITY + 1,
                            &self,
                        ));
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_seq(Visit)
    }
}

/// What happens to an element after a combat (§11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Nothing happens to it.
    NoEffect,
    /// It recoils (§12.1).
    Recoil,
    /// It flees (§12.4).
    Flee,
    /// It is destroyed (§12.3).
    Destroyed,
}

impl Outcome {
    /// Every outcome, from least to most severe: the index of the counts in [`Odds::a`] and
    /// [`Odds::b`].
    pub const ALL: [Outcome; 4] = [
        Outcome::NoEffect,
        Outcome::Recoil,
        Outcome::Flee,
        Outcome::Destroyed,
    ];
    /// How bad it is, 0 (no effect) to 3 (destroyed).
    pub fn severity(self) -> u8 {
        self as u8
    }
    /// The outcome as the narration says it: "no effect", "recoils", "flees", "destroyed".
    pub fn label(self) -> &'static str {
        match self {
            Outcome::NoEffect => "no effect",
            Outcome::Recoil => "recoils",
            Outcome::Flee => "flees",
            Outcome::Destroyed => "destroyed",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How an element's total compares with its opponent's (§11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// Its total is higher: it won.
    Higher,
    /// Equal totals (§11.1).
    Equal,
    /// Less, but more than half (§11.2).
    Beaten,
    /// Half or less (§11.3).
    Doubled,
}

impl Band {
    /// The band of total `x` against total `w`. "Doubled" is arithmetic (`2x ≤ w`), so it works
    /// for zero and negative totals (§11).
    pub fn of(x: i32, w: i32) -> Band {
        if x > w {
            Band::Higher
        } else if x == w {
            Band::Equal
        } else if 2 * x <= w {
            Band::Doubled
        } else {
            Band::Beaten
        }
    }
}

/// A winner following up (§12.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Pursuit {
    /// The side that follows up.
    pub side: Side,
    /// Distance straight ahead in BW.
    pub distance: f64,
    /// Set when it moves into a city, fort or camp whose defenders it destroyed (§4.7, §12.5).
    pub into: Option<Stronghold>,
}

/// One side's part of a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SideResult {
    /// The element's kind.
    pub kind: ElementKind,
    /// Its die score.
    pub die: DieScore,
    /// Every factor counted, by name, in a fixed order.
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Factor>"))]
    pub factors: Factors,
    /// Die plus factors.
    pub total: i32,
    /// How its total compares with its opponent's (§11).
    pub band: Band,
    /// What happens to it.
    pub outcome: Outcome,
    /// The rule (section and row) that gave the outcome.
    pub rule: Cow<'static, str>,
}

/// The result of one close combat or shot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CombatResult {
    /// The first combatant's part (`a` of the situation).
    pub a: SideResult,
    /// The second combatant's part.
    pub b: SideResult,
    /// Who follows up and how far, if anyone. Table conditions (an edge or bad going ahead, §12.5)
    /// are for the battle to apply.
    pub pursuit: Option<Pursuit>,
}

/// The outcome distribution over all 36 pairs of dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Odds {
    /// Pairs of outcomes with their counts out of 36, most frequent first, ties in
    /// (a, b) outcome order. Counts sum to 36.
    pub outcomes: Vec<OddsEntry>,
    /// The five margins of §11 counted out of 36.
    pub margins: Margins,
    /// Count of each outcome for `a`, indexed as [`Outcome::ALL`].
    pub a: [u8; 4],
    /// Count of each outcome for `b`, indexed as [`Outcome::ALL`].
    pub b: [u8; 4],
    /// Each side's total without the die.
    pub a_factor: i32,
    /// `b`'s total without its die.
    pub b_factor: i32,
}

/// One pair of outcomes and how many of the 36 dice pairs give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OddsEntry {
    /// `a`'s outcome.
    pub a: Outcome,
    /// `b`'s outcome.
    pub b: Outcome,
    /// How many of the 36 dice pairs give this pair of outcomes.
    pub count: u8,
}

/// The five margins, counted out of 36.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Margins {
    /// `a` doubled `b`.
    pub a_doubled_b: u8,
    /// `a` won without doubling.
    pub a_won: u8,
    /// The totals were equal.
    pub tied: u8,
    /// `b` won without doubling.
    pub b_won: u8,
    /// `b` doubled `a`.
    pub b_doubled_a: u8,
}

impl Odds {
    /// Count out of 36 of `a` suffering `o`.
    pub fn a_count(&self, o: Outcome) -> u8 {
        self.a[o as usize]
    }
    /// Count out of 36 of `b` suffering `o`.
    pub fn b_count(&self, o: Outcome) -> u8 {
        self.b[o as usize]
    }
    /// Count out of 36 of the outcome pair.
    pub fn count(&self, a: Outcome, b: Outcome) -> u8 {
        self.outcomes
            .iter()
            .find(|e| e.a == a && e.b == b)
            .map_or(0, |e| e.count)
    }
}

/// What one side is doing in the engagement.
#[derive(Clone, Copy)]
struct Role {
    close: bool,
    /// Shot at by its opponent (the target, or a shooter whose target shoots back).
    shot_at: bool,
    /// A shooter whose target does not shoot back: it cannot suffer an outcome (§17.24).
    immune_shooter: bool,
    /// The target of a shot (support shooters count against it, §9.4).
    target: bool,
    from_behind: bool,
}

/// The part each side plays in close combat: the same for both.
const CLOSE_ROLE: Role = Role {
    close: true,
    shot_at: false,
    immune_shooter: false,
    target: false,
    from_behind: false,
};

fn roles(e: &Engagement) -> (Role, Role) {
    match e {
        Engagement::CloseCombat => (CLOSE_ROLE, CLOSE_ROLE),
        Engagement::Shooting(s) => {
            let target = Role {
                close: false,
                shot_at: true,
                immune_shooter: false,
                target: true,
                from_behind: s.from_behind,
            };
            let shooter = Role {
                close: false,
                shot_at: s.target_shoots_back,
                immune_shooter: !s.target_shoots_back,
                target: false,
                from_behind: false,
            };
            match s.shooter {
                ShooterSide::A => (shooter, target),
                ShooterSide::B => (target, shooter),
            }
        }
    }
}

/// A situation checked and its factors counted: everything but the dice. Resolving it or
/// enumerating its odds cannot fail.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    situation: Situation,
    counted: Counted,
}

/// The factors and the outcome of each band for both sides: everything of a combat but the dice
/// and the situation itself.
#[derive(Debug, Clone, PartialEq)]
struct Counted {
    a_factors: Factors,
    b_factors: Factors,
    a_sum: i32,
    b_sum: i32,
    /// Outcome and rule for each band, per side (indexed by `Band as usize`).
    a_by_band: [(Outcome, &'static str); 4],
    b_by_band: [(Outcome, &'static str); 4],
}

impl Counted {
    fn new(situation: &Situation, cfg: &RulesConfig) -> Result<Counted, CombatError> {
        validate(situation, cfg)?;
        let (ra, rb) = roles(&situation.engagement);
        let a_factors = factors(&situation.a, &situation.b, ra, &situation.engagement, cfg);
        let b_factors = factors(&situation.b, &situation.a, rb, &situation.engagement, cfg);
        let a_sum = a_factors.sum();
        let b_sum = b_factors.sum();
        let bands = [Band::Higher, Band::Equal, Band::Beaten, Band::Doubled];
        let a_by_band = bands.map(|band| outcome_for(&situation.a, &situation.b, ra, band));
        let b_by_band = bands.map(|band| outcome_for(&situation.b, &situation.a, rb, band));
        Ok(Counted {
            a_factors,
            b_factors,
            a_sum,
            b_sum,
            a_by_band,
            b_by_band,
        })
    }

    /// The result for two scores, with the factor lists given (moved or copied by the caller).
    fn result(
        &self,
        situation: &Situation,
        dice: [DieScore; 2],
        a_factors: Factors,
        b_factors: Factors,
    ) -> CombatResult {
        let ta = self.a_sum + i32::from(dice[0].get());
        let tb = self.b_sum + i32::from(dice[1].get());
        let band_a = Band::of(ta, tb);
        let band_b = Band::of(tb, ta);
        let outcomes = [
            self.a_by_band[band_a as usize],
            self.b_by_band[band_b as usize],
        ];
        assemble(situation, dice, [ta, tb], outcomes, a_factors, b_factors)
    }
}

/// A combat result from its parts: totals with the dice, each side's outcome and rule (`a` first),
/// and the factor lists.
fn assemble(
    situation: &Situation,
    dice: [DieScore; 2],
    [ta, tb]: [i32; 2],
    [(oa, rule_a), (ob, rule_b)]: [(Outcome, &'static str); 2],
    a_factors: Factors,
    b_factors: Factors,
) -> CombatResult {
    let band_a = Band::of(ta, tb);
    let band_b = Band::of(tb, ta);
    CombatResult {
        a: SideResult {
            kind: situation.a.kind,
            die: dice[0],
            factors: a_factors,
            total: ta,
            band: band_a,
            outcome: oa,
            rule: Cow::Borrowed(rule_a),
        },
        b: SideResult {
            kind: situation.b.kind,
            die: dice[1],
            factors: b_factors,
            total: tb,
            band: band_b,
            outcome: ob,
            rule: Cow::Borrowed(rule_b),
        },
        pursuit: pursuit(situation, oa, ob),
    }
}

impl Prepared {
    /// Check `situation` against the rules and count every factor.
    pub fn new(situation: &Situation, cfg: &RulesConfig) -> Result<Prepared, CombatError> {
        Ok(Prepared {
            counted: Counted::new(situation, cfg)?,
            situation: situation.clone(),
        })
    }

    /// The situation the factors were counted for.
    pub fn situation(&self) -> &Situation {
        &self.situation
    }
    /// `a`'s total without its die.
    pub fn a_factor(&self) -> i32 {
        self.counted.a_sum
    }
    /// `b`'s total without its die.
    pub fn b_factor(&self) -> i32 {
        self.counted.b_sum
    }
    /// Every factor counted for `a`, by name, in a fixed order.
    pub fn a_factors(&self) -> &[Factor] {
        &self.counted.a_factors
    }
    /// Every factor counted for `b`, by name, in a fixed order.
    pub fn b_factors(&self) -> &[Factor] {
        &self.counted.b_factors
    }

    /// Both totals for the two scores (`dice[0]` is `a`'s die): each side's factors plus its die.
    #[inline]
    pub fn totals(&self, dice: [DieScore; 2]) -> (i32, i32) {
        (
            self.counted.a_sum + i32::from(dice[0].get()),
            self.counted.b_sum + i32::from(dice[1].get()),
        )
    }

    /// Outcomes only, for the two scores: the fast path used by [`Prepared::odds`].
    pub fn outcomes(&self, dice: [DieScore; 2]) -> (Outcome, Outcome) {
        let (ta, tb) = self.totals(dice);
        (
            self.counted.a_by_band[Band::of(ta, tb) as usize].0,
            self.counted.b_by_band[Band::of(tb, ta) as usize].0,
        )
    }

    /// The full result for the two scores (`dice[0]` is `a`'s die).
    pub fn resolve(&self, dice: [DieScore; 2]) -> CombatResult {
        let c = &self.counted;
        c.result(&self.situation, dice, c.a_factors, c.b_factors)
    }

    /// Exact odds: every one of the 36 pairs of scores, counted.
    pub fn odds(&self) -> Odds {
        let mut table = [[0u8; 4]; 4];
        let mut margins = Margins::default();
        let mut a = [0u8; 4];
        let mut b = [0u8; 4];
        for da in DieScore::ALL {
            for db in DieScore::ALL {
                let ta = self.counted.a_sum + i32::from(da.get());
                let tb = self.counted.b_sum + i32::from(db.get());
                match (Band::of(ta, tb), Band::of(tb, ta)) {
                    (Band::Higher, Band::Doubled) => margins.a_doubled_b += 1,
                    (Band::Higher, _) => margins.a_won += 1,
                    (Band::Equal, _) => margins.tied += 1,
                    (Band::Doubled, _) => margins.b_doubled_a += 1,
                    _ => margins.b_won += 1,
                }
                let (oa, ob) = self.outcomes([da, db]);
                table[oa as usize][ob as usize] += 1;
                a[oa as usize] += 1;
                b[ob as usize] += 1;
            }
        }
        let mut outcomes: Vec<OddsEntry> = Vec::new();
        for (i, row) in table.iter().enumerate() {
            for (j, &count) in row.iter().enumerate() {
                if count > 0 {
                    outcomes.push(OddsEntry {
                        a: Outcome::ALL[i],
                        b: Outcome::ALL[j],
                        count,
                    });
                }
            }
        }
        outcomes.sort_by(|x, y| y.count.cmp(&x.count).then((x.a, x.b).cmp(&(y.a, y.b))));
        Odds {
            outcomes,
            margins,
            a,
            b,
            a_factor: self.counted.a_sum,
            b_factor: self.counted.b_sum,
        }
    }
}

/// Resolve one combat or shot for two die scores (`dice[0]` is `a`'s).
///
/// Returns the totals with every factor, each side's band and outcome with the rule that gave it,
/// and any pursuit; a situation the rules do not allow is refused with a [`CombatError`].
///
/// ```
/// use dbcore::{resolve, Band, Combatant, DieScore, Outcome, RulesConfig, Situation};
///
/// // Blades (+5 against foot) against Warband (+3 against foot), dice 4 and 3.
/// let sit = Situation::close_combat(
///     Combatant::new("4Bd".parse().unwrap()),
///     Combatant::new("4Wb".parse().unwrap()),
/// );
/// let dice = [DieScore::new(4).unwrap(), DieScore::new(3).unwrap()];
/// let r = resolve(&sit, dice, &RulesConfig::default()).unwrap();
/// assert_eq!((r.a.total, r.b.total), (9, 6));
/// assert_eq!((r.a.band, r.b.band), (Band::Higher, Band::Beaten));
/// assert_eq!(r.a.outcome, Outcome::NoEffect);
/// assert!(r.b.rule.starts_with('§'));
/// ```
pub fn resolve(
    situation: &Situation,
    dice: [DieScore; 2],
    cfg: &RulesConfig,
) -> Result<CombatResult, CombatError> {
    // The same steps as `Counted::new` then `Counted::result`, but only the two outcome rows the
    // dice select are worked out (not all four bands for each side). The situation is checked
    // first, so that the result is built once, in one expression, from parts already known:
    // building it in place and then filling it in made the compiler copy all of it (about 350
    // bytes) into the caller's slot, and check each placeholder rule before replacing it (#15).
    validate(situation, cfg)?;
    // (Writing this body out twice, once with close combat's roles as constants as
    // `resolve_brief` does, cost 16 instructions more here: measured in #15.)
    let (ra, rb) = roles(&situation.engagement);
    let (a, b) = (&situation.a, &situation.b);
    let (mut fa, mut fb) = (Tally::default(), Tally::default());
    count_both(&mut fa, &mut fb, situation, ra, rb, cfg);
    let ta = fa.sum + i32::from(dice[0].get());
    let tb = fb.sum + i32::from(dice[1].get());
    let [(band_a, oa, rule_a), (band_b, ob, rule_b)] = bands_and_outcomes(a, b, ra, rb, ta, tb);
    Ok(CombatResult {
        a: SideResult {
            kind: a.kind,
            die: dice[0],
            factors: fa.list,
            total: ta,
            band: band_a,
            outcome: oa,
            rule: Cow::Borrowed(rule_a),
        },
        b: SideResult {
            kind: b.kind,
            die: dice[1],
            factors: fb.list,
            total: tb,
            band: band_b,
            outcome: ob,
            rule: Cow::Borrowed(rule_b),
        },
        pursuit: pursuit(situation, oa, ob),
    })
}

/// Each side's band, outcome and rule for the totals `ta` of `a` and `tb` of `b`: the last step
/// of [`resolve`] and [`resolve_brief`], one body for both.
#[inline(always)]
fn bands_and_outcomes(
    a: &Combatant,
    b: &Combatant,
    ra: Role,
    rb: Role,
    ta: i32,
    tb: i32,
) -> [(Band, Outcome, &'static str); 2] {
    // Close combat in the open, the common case, reads its outcomes from a table. (Each side is
    // written out: a loop over the two sides first built an array of their parts.)
    let open = ra.close && a.holding.is_field() && b.holding.is_field();
    let (band_a, band_b) = (Band::of(ta, tb), Band::of(tb, ta));
    let (oa, rule_a) = match open {
        true => open_outcome(a, b, band_a),
        false => outcome_for(a, b, ra, band_a),
    };
    let (ob, rule_b) = match open {
        true => open_outcome(b, a, band_b),
        false => outcome_for(b, a, rb, band_b),
    };
    [(band_a, oa, rule_a), (band_b, ob, rule_b)]
}

/// One side's part of a [`BriefResult`]: a [`SideResult`] without the kind, the die and the
/// factor list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BriefSide {
    /// Die plus factors, as [`SideResult::total`].
    pub total: i32,
    /// The sum of the factors, without the die.
    pub factor: i32,
    /// How its total compares with its opponent's (§11), as [`SideResult::band`].
    pub band: Band,
    /// What happens to it, as [`SideResult::outcome`].
    pub outcome: Outcome,
    /// The rule (section and row) that gave the outcome, as [`SideResult::rule`].
    pub rule: &'static str,
}

/// The result of [`resolve_brief`]: what [`resolve`] gives but the factor lists (and the kinds
/// and dice the caller passed in).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BriefResult {
    /// The first combatant's part (`a` of the situation).
    pub a: BriefSide,
    /// The second combatant's part.
    pub b: BriefSide,
    /// Who follows up and how far, if anyone, as [`CombatResult::pursuit`].
    pub pursuit: Option<Pursuit>,
}

/// [`resolve`] without the itemised factors: the same totals, bands, outcomes, rules and pursuit,
/// and the same refusal of a situation the rules do not allow, for callers that need only those
/// (it counts each side's factors into a sum rather than a list).
///
/// ```
/// use dbcore::combat::{resolve, resolve_brief, Combatant, Situation};
/// use dbcore::{DieScore, RulesConfig};
///
/// let sit = Situation::close_combat(
///     Combatant::new("3Kn".parse().unwrap()),
///     Combatant::new("4Bd".parse().unwrap()),
/// );
/// let dice = [DieScore::new(4).unwrap(), DieScore::new(4).unwrap()];
/// let cfg = RulesConfig::default();
/// let brief = resolve_brief(&sit, dice, &cfg).unwrap();
/// let full = resolve(&sit, dice, &cfg).unwrap();
/// assert_eq!((brief.a.total, brief.a.factor), (full.a.total, 3));
/// assert_eq!((brief.a.outcome, brief.a.rule), (full.a.outcome, &*full.a.rule));
/// ```
pub fn resolve_brief(
    situation: &Situation,
    dice: [DieScore; 2],
    cfg: &RulesConfig,
) -> Result<BriefResult, CombatError> {
    // The steps of `resolve`, one by one, with a sum for each factor list: `FactorSum` is exactly
    // the list's `Factors::sum` (see its doc), so every total, and so every band, outcome, rule
    // and pursuit, is the one `resolve` gives. The same `validate` refuses the same situations.
    validate(situation, cfg)?;
    // Close combat is worked out with both roles known at compile time, so the role tests
    // and the roles passed on fold away (the body is written out once for each arm).
    Ok(match situation.engagement {
        Engagement::CloseCombat => brief_in(situation, dice, cfg, CLOSE_ROLE, CLOSE_ROLE),
        Engagement::Shooting(_) => {
            let (ra, rb) = roles(&situation.engagement);
            brief_in(situation, dice, cfg, ra, rb)
        }
    })
}

/// The body of [`resolve_brief`] once the situation is checked, for the roles `ra` and `rb` the
/// engagement gives `a` and `b`.
#[inline(always)]
fn brief_in(
    situation: &Situation,
    dice: [DieScore; 2],
    cfg: &RulesConfig,
    ra: Role,
    rb: Role,
) -> BriefResult {
    let (a, b) = (&situation.a, &situation.b);
    let (mut fa, mut fb) = (FactorSum::default(), FactorSum::default());
    count_both(&mut fa, &mut fb, situation, ra, rb, cfg);
    let ta = fa.0 + i32::from(dice[0].get());
    let tb = fb.0 + i32::from(dice[1].get());
    let [(band_a, oa, rule_a), (band_b, ob, rule_b)] = bands_and_outcomes(a, b, ra, rb, ta, tb);
    BriefResult {
        a: BriefSide {
            total: ta,
            factor: fa.0,
            band: band_a,
            outcome: oa,
            rule: rule_a,
        },
        b: BriefSide {
            total: tb,
            factor: fb.0,
            band: band_b,
            outcome: ob,
            rule: rule_b,
        },
        pursuit: pursuit(situation, oa, ob),
    }
}

/// Exact odds over all 36 pairs of scores.
///
/// ```
/// use dbcore::{odds, Combatant, Outcome, RulesConfig, Situation};
///
/// let sit = Situation::close_combat(
///     Combatant::new("4Bd".parse().unwrap()),
///     Combatant::new("4Bd".parse().unwrap()),
/// );
/// let o = odds(&sit, &RulesConfig::default()).unwrap();
/// // A mirror match: each side's counts are the same, and sum to 36.
/// assert_eq!(o.a, o.b);
/// assert_eq!(o.a.iter().map(|&n| u32::from(n)).sum::<u32>(), 36);
/// assert_eq!(o.margins.tied, 6);
/// assert_eq!(o.a_count(Outcome::NoEffect), o.b_count(Outcome::NoEffect));
/// ```
pub fn odds(situation: &Situation, cfg: &RulesConfig) -> Result<Odds, CombatError> {
    Ok(Prepared::new(situation, cfg)?.odds())
}

/// A combat request as JSON callers send it: the situation, the two scores and optionally a
/// rules configuration (the default when absent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    /// The combat or shot.
    pub situation: Situation,
    /// `a`'s die and `b`'s die, in that order.
    pub dice: [DieScore; 2],
    /// The rules configuration; the default when absent.
    #[serde(default)]
    pub config: Option<RulesConfig>,
}

/// An odds request as JSON callers send it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OddsRequest {
    /// The combat or shot.
    pub situation: Situation,
    /// The rules configuration; the default when absent.
    #[serde(default)]
    pub config: Option<RulesConfig>,
}

/// Check a situation against the rules: [`validate_fully`], after a quick test that passes the
/// common case (close combat in the open, within every count), which has nothing more to check.
#[inline]
fn validate(s: &Situation, cfg: &RulesConfig) -> Result<(), CombatError> {
    let plain = |c: &Combatant| {
        c.flank_rear_contacts <= 3
            && c.side_supporters.given() <= 2
            && (c.general || !c.cinc_bonus)
            && c.holding.is_field()
    };
    if matches!(s.engagement, Engagement::CloseCombat) && plain(&s.a) && plain(&s.b) {
        return Ok(());
    }
    validate_fully(s, cfg)
}

/// Every check of [`validate`], one by one.
#[inline(never)]
fn validate_fully(s: &Situation, cfg: &RulesConfig) -> Result<(), CombatError> {
    for c in [&s.a, &s.b] {
        if c.flank_rear_contacts > 3 {
            return Err(CombatError::TooManyFlankContacts {
                given: c.flank_rear_contacts,
            });
        }
        if c.side_supporters.given() > 2 {
            return Err(CombatError::TooManySideSupporters {
                given: c.side_supporters.given(),
            });
        }
        if c.cinc_bonus && !c.general {
            return Err(CombatError::CinCWithoutGeneral);
        }
        match c.holding {
            Holding::Defending {
                place,
                extra_assaulters,
            } => {
                if extra_assaulters > cfg.combat.max_extra_assaulters {
                    return Err(CombatError::TooManyAssaulters {
                        place,
                        given: extra_assaulters,
                        max: cfg.combat.max_extra_assaulters,
                    });
                }
                check_defender(c.kind, place, cfg)?;
            }
            Holding::Assaulting { place } => {
                // §4.7: SCh, CP, Lit, CWg and Artillery may not contact a city, fort or camp. War
                // Wagons may only as mobile towers, which we take a War Wagon assaulting to be.
                let t = c.kind.troop_type();
                if matches!(t, TroopType::SCh | TroopType::Art)
                    || c.kind.is_general_only()
                    || c.kind.is_civilian()
                {
                    return Err(CombatError::IllegalAssaulter {
                        kind: c.kind,
                        place,
                    });
                }
            }
            Holding::Field => {}
        }
    }
    match s.engagement {
        Engagement::CloseCombat => {
            for (x, y) in [(&s.a, &s.b), (&s.b, &s.a)] {
                if let Some(p) = x.holding.defending() {
                    if y.holding.assaulting() != Some(p) {
                        return Err(CombatError::UnmatchedAssault { place: p });
                    }
                }
                if let Some(p) = x.holding.assaulting() {
                    if y.holding.defending() != Some(p) {
                        return Err(CombatError::UnmatchedAssault { place: p });
                    }
                }
            }
        }
        Engagement::Shooting(shot) => {
            let (shooter, target) = match shot.shooter {
                ShooterSide::A => (&s.a, &s.b),
                ShooterSide::B => (&s.b, &s.a),
            };
            if !shooter.kind.shoots() {
                return Err(CombatError::NotAShooter { kind: shooter.kind });
            }
            if shot.target_shoots_back && !target.kind.shoots() {
                return Err(CombatError::NotAShooter { kind: target.kind });
            }
            if shot.support_shooters > cfg.combat.max_support_shooters {
                return Err(CombatError::TooManySupportShooters {
                    given: shot.support_shooters,
                    max: cfg.combat.max_support_shooters,
                });
            }
            if !s.a.holding.is_field() && !s.b.holding.is_field() {
                return Err(CombatError::BothHolding);
            }
        }
    }
    Ok(())
}

fn check_defender(
    kind: ElementKind,
    place: Stronghold,
    cfg: &RulesConfig,
) -> Result<(), CombatError> {
    let t = kind.troop_type();
    let bad = |rule| Err(CombatError::IllegalDefender { rule, kind, place });
    match place {
        Stronghold::Camp => {
            // §4.6: one non-allied troop element other than El or SCh, or camp followers.
            if matches!(t, TroopType::El | TroopType::SCh | TroopType::Denizens) {
                return bad("§4.6");
            }
        }
        Stronghold::City => {
            // §4.2: a garrison (not El, SCh, WWg as later occupiers) or the denizens.
            if matches!(
                t,
                TroopType::El | TroopType::SCh | TroopType::WWg | TroopType::CampFollowers
            ) {
                return bad("§4.2");
            }
        }
        Stronghold::Fort => {
            // §4.3: a garrison; no denizens. §17.37: the City exclusion applies by default.
            if matches!(t, TroopType::Denizens | TroopType::CampFollowers)
                || (cfg.combat.fort_occupier_exclusion
                    && matches!(t, TroopType::El | TroopType::SCh | TroopType::WWg))
            {
                return bad("§4.3");
            }
        }
    }
    Ok(())
}

/// Every factor of `x` fighting or shooting `w` (§9.6, §10.1, §10.3).
fn factors(x: &Combatant, w: &Combatant, role: Role, e: &Engagement, cfg: &RulesConfig) -> Factors {
    let mut v = Factors::new();
    count_factors(&mut v, x, w, role, e, cfg);
    v
}

/// Where [`count_factors`] puts what it counts: a list of every factor ([`Factors`]), or only
/// their sum ([`FactorSum`]), for callers that need the total alone.
trait FactorSink {
    /// Count a factor.
    fn push(&mut self, f: Factor);
    /// Count a factor of `value` unless it is zero.
    fn push_nonzero(&mut self, name: FactorName, value: i32);
}

impl FactorSink for Factors {
    #[inline(always)]
    fn push(&mut self, f: Factor) {
        Factors::push(self, f)
    }
    #[inline(always)]
    fn push_nonzero(&mut self, name: FactorName, value: i32) {
        Factors::push_nonzero(self, name, value)
    }
}

/// The sum of the factors counted, without the list. It is exactly [`Factors::sum`] of the list
/// the same calls build: a list adds each pushed value once (a `push_nonzero` of zero adds
/// nothing to either), and its unused slots hold 0 (see [`Factors::sum`]).
#[derive(Default)]
struct FactorSum(i32);

impl FactorSink for FactorSum {
    #[inline(always)]
    fn push(&mut self, f: Factor) {
        self.0 += f.value;
    }
    #[inline(always)]
    fn push_nonzero(&mut self, _name: FactorName, value: i32) {
        self.0 += value;
    }
}

/// The list of the factors counted and their sum, kept as they are pushed: the sum is exactly
/// [`Factors::sum`] of the list (each pushed value is added once, a `push_nonzero` of zero adds
/// nothing to either), without adding up all the list's slots afterwards.
#[derive(Default)]
struct Tally {
    list: Factors,
    sum: i32,
}

impl FactorSink for Tally {
    #[inline(always)]
    fn push(&mut self, f: Factor) {
        self.sum += f.value;
        self.list.push(f);
    }
    #[inline(always)]
    fn push_nonzero(&mut self, name: FactorName, value: i32) {
        if value != 0 {
            self.push(Factor { name, value });
        }
    }
}

/// Both sides' factors, counted into `fa` for `a` and `fb` for `b` (each empty on entry):
/// [`count_factors`] for each side in the roles `ra` and `rb` the engagement gives them.
///
/// Close combat, the common case, has its counting written out here with the close-combat role
/// and engagement known, so that the compiler drops the tests of shooting and passes nothing
/// it need not (a call for each side took about a third of `resolve`, #15). Shooting goes
/// through the one shared [`count_factors`]: the same body either way, so the same factors.
#[inline(always)]
fn count_both<S: FactorSink>(
    fa: &mut S,
    fb: &mut S,
    s: &Situation,
    ra: Role,
    rb: Role,
    cfg: &RulesConfig,
) {
    // (The sinks are the caller's: handing them back by value copied each list twice more.)
    match s.engagement {
        Engagement::CloseCombat => {
            let e = &Engagement::CloseCombat;
            count_factors_inline(fa, &s.a, &s.b, CLOSE_ROLE, e, cfg);
            count_factors_inline(fb, &s.b, &s.a, CLOSE_ROLE, e, cfg);
        }
        Engagement::Shooting(_) => {
            count_factors(fa, &s.a, &s.b, ra, &s.engagement, cfg);
            count_factors(fb, &s.b, &s.a, rb, &s.engagement, cfg);
        }
    }
}

/// Every factor of `x` fighting or shooting `w`, added to `v` (empty on entry).
fn count_factors(
    v: &mut impl FactorSink,
    x: &Combatant,
    w: &Combatant,
    role: Role,
    e: &Engagement,
    cfg: &RulesConfig,
) {
    count_factors_inline(v, x, w, role, e, cfg);
}

/// The body of [`count_factors`], for callers that want it inlined.
#[inline(always)]
fn count_factors_inline(
    v: &mut impl FactorSink,
    x: &Combatant,
    w: &Combatant,
    role: Role,
    e: &Engagement,
    cfg: &RulesConfig,
) {
    let rules = cfg.kind(x.kind.base());
    let assault = !x.holding.is_field() || !w.holding.is_field();
    let defending = x.holding.defending();

    // Combat factor (§10.1). Targets of shooting use their factor against foot, since every
    // shooter is foot (§9.6), or their "when shot at" factor where it differs.
    if x.kind.troop_type() == TroopType::Art
        && matches!(defending, Some(Stronghold::City | Stronghold::Fort))
    {
        v.push(Factor {
            name: FactorName::ArtilleryInCityOrFort,
            value: cfg.combat.artillery_in_city_or_fort,
        });
    } else if role.shot_at {
        match rules.factor_shot_at {
            Some(f) => v.push(Factor {
                name: FactorName::ShotAt,
                value: f,
            }),
            None => v.push(Factor {
                name: FactorName::VsFoot,
                value: rules.factor_vs_foot,
            }),
        }
    } else {
        let vs_foot = w.kind.is_foot()
            || (role.close
                && x.holding.assaulting().is_some()
                && cfg.combat.assaulters_use_factor_vs_foot);
        if vs_foot {
            v.push(Factor {
                name: FactorName::VsFoot,
                value: rules.factor_vs_foot,
            });
        } else {
            v.push(Factor {
                name: FactorName::VsMounted,
                value: rules.factor_vs_mounted,
            });
        }
    }

    // Factors that count "in close combat or shot at".
    if role.close || role.shot_at {
        if let Some(place) = defending {
            match (place, x.kind.troop_type()) {
                (_, _) if x.kind.is_mounted() => {}
                (Stronghold::City, TroopType::Denizens) => {
                    v.push_nonzero(FactorName::CampOrCityDefenders, 2)
                }
                (Stronghold::City | Stronghold::Fort, _) => v.push_nonzero(FactorName::Garrison, 4),
                (Stronghold::Camp, _) => v.push_nonzero(FactorName::CampOrCityDefenders, 2),
            }
        }
        if x.general {
            v.push_nonzero(FactorName::General, 1);
        }
        if x.cinc_bonus {
            v.push_nonzero(FactorName::CinC, 1);
        }
    }

    if role.close {
        // §17.34: occupiers of a city or fort never count as uphill.
        let in_city_or_fort = matches!(defending, Some(Stronghold::City | Stronghold::Fort));
        if x.uphill && !in_city_or_fort {
            v.push_nonzero(FactorName::Uphill, 1);
        }
        if x.defending_bank {
            v.push_nonzero(FactorName::RiverBank, 1);
        }
        let good = x.going == Going::Good;
        let w_t = w.kind.troop_type();
        if !assault {
            // Side support: Spears beside Spears, Solid Blades or a CP/Lit/CWg; Solid Bows beside
            // Solid Blades; both in good going; against foot only; once.
            if good && w.kind.is_foot() {
                let supported = x
                    .side_supporters
                    .iter()
                    .any(|s| s.going == Going::Good && gives_side_support(x.kind, s.kind));
                if supported {
                    v.push_nonzero(FactorName::SideSupport, 1);
                }
            }
            // Rear support: same basic type directly behind, both in good going.
            if let Some(r) = x.rear_supporter {
                if good && r.going == Going::Good && r.kind.troop_type() == x.kind.troop_type() {
                    let vs_foot_not_ps = w.kind.is_foot() && w_t != TroopType::Ps;
                    let value = match x.kind.troop_type() {
                        TroopType::Pk if vs_foot_not_ps => 3,
                        TroopType::Pk
                            if matches!(w_t, TroopType::Kn | TroopType::El | TroopType::SCh) =>
                        {
                            1
                        }
                        TroopType::Wb if vs_foot_not_ps => 1,
                        TroopType::LH => 1,
                        _ => 0,
                    };
                    v.push_nonzero(FactorName::RearSupport, value);
                }
            }
            // Double elements against foot in good going, not in or assaulting a stronghold.
            if x.kind.is_double() && good && w.kind.is_foot() {
                v.push_nonzero(FactorName::DoubleElement, 1);
            }
            v.push_nonzero(FactorName::FlankOrRear, -i32::from(x.flank_rear_contacts));
        }
        if let Holding::Defending {
            extra_assaulters, ..
        } = x.holding
        {
            v.push_nonzero(FactorName::ExtraAssaulters, -i32::from(extra_assaulters));
        }
        if x.going == Going::Bad
            && !matches!(
                x.kind.troop_type(),
                TroopType::Ax | TroopType::Wb | TroopType::Bw | TroopType::Ps
            )
        {
            v.push_nonzero(FactorName::BadGoing, -2);
        }
        if x.demoralised && defending.is_none() {
            v.push_nonzero(FactorName::Demoralised, -2);
        }
    }

    // Support shooters count against the target (§9.4).
    if let Engagement::Shooting(s) = e {
        if role.target {
            v.push_nonzero(
                FactorName::SupportShooters,
                -i32::from(s.support_shooters) * cfg.combat.support_shooter_penalty,
            );
        }
    }
}

/// Who gives side support to whom (§10.3).
fn gives_side_support(x: ElementKind, friend: ElementKind) -> bool {
    let solid_bd = friend.troop_type() == TroopType::Bd && friend.is_solid_foot();
    match x.troop_type() {
        TroopType::Sp => {
            friend.troop_type() == TroopType::Sp || solid_bd || friend.is_general_only()
        }
        TroopType::Bw => x.is_solid_foot() && solid_bd,
        _ => false,
    }
}

fn is(t: TroopType, set: &[TroopType]) -> bool {
    set.contains(&t)
}

/// How many outcomes [`OpenOutcomes`] keeps for one ordered pair of base kinds: one for a higher
/// total, one for a tie, and for beaten and for doubled one for each going of the element
/// suffering it (good, rough, bad) and whether its opponent is in good going.
const OPEN_SLOTS: usize = 2 + 2 * 3 * 2;

/// The outcomes of close combat between two elements in the open (§11), for every ordered pair
/// of base kinds, worked out once from [`outcome_for`] so that [`resolve`] looks them up.
///
/// In close combat with neither element holding or assaulting a city, fort or camp, the outcome
/// of `x` against `w` depends only on the two base kinds, the band, the going of `x` and whether
/// `w` is in good going; and on mounted infantry in bad going, which is why an `x` of mounted
/// infantry is left to [`outcome_for`] ([`open_outcome`]). A test checks every pair, going and
/// band against [`outcome_for`].
///
/// It is held inline (about 50 KB in the static), so that working it out allocates nothing:
/// `resolve` allocates nothing even the first time.
struct OpenOutcomes {
    /// Every rule text of the table, each once: an entry names its rule by index. (The rows of
    /// §11 in the open have about fifty texts.)
    rules: [&'static str; OPEN_RULES],
    /// By `x` base index × the number of base kinds + `w` base index, then by
    /// [`open_slot`].
    entries: [[(Outcome, u8); OPEN_SLOTS]; OPEN_PAIRS],
}

/// Room for the rule texts of [`OpenOutcomes`].
const OPEN_RULES: usize = 128;
/// The ordered pairs of base kinds.
const OPEN_PAIRS: usize = BaseKind::ALL.len() * BaseKind::ALL.len();

/// Where the outcome of a band is kept among the [`OPEN_SLOTS`] of a pair.
#[inline]
fn open_slot(band: Band, x_going: Going, w_good: bool) -> usize {
    let goings = 2 * x_going as usize + usize::from(w_good);
    match band {
        // The same outcome in any going (§11, §11.1).
        Band::Higher => 0,
        Band::Equal => 1,
        Band::Beaten => 2 + goings,
        Band::Doubled => 8 + goings,
    }
}

impl OpenOutcomes {
    fn new() -> OpenOutcomes {
        let close = CLOSE_ROLE;
        let mut rules = [""; OPEN_RULES];
        let mut known = 0usize;
        let mut entries = [[(Outcome::NoEffect, 0u8); OPEN_SLOTS]; OPEN_PAIRS];
        // The index of a rule text, added if new: looked for by address first (the same text
        // is one literal), so that working out the table once stays cheap.
        let mut index_of = |rule: &'static str| {
            let same = |r: &&str| std::ptr::eq(*r, rule);
            let i = match rules[..known].iter().rposition(same) {
                Some(i) => i,
                None => match rules[..known].iter().position(|r| *r == rule) {
                    Some(i) => i,
                    None => {
                        // More texts than room is a programming error the exhaustive test of
                        // the table would catch.
                        rules[known] = rule;
                        known += 1;
                        known - 1
                    }
                },
            };
            i as u8
        };
        let goings = [Going::Good, Going::Rough, Going::Bad];
        for (xi, xb) in BaseKind::ALL.into_iter().enumerate() {
            for (wi, wb) in BaseKind::ALL.into_iter().enumerate() {
                let slots = &mut entries[xi * BaseKind::ALL.len() + wi];
                let x = |g| Combatant::new(ElementKind::new(xb)).in_going(g);
                let w = |good| {
                    Combatant::new(ElementKind::new(wb)).in_going(if good {
                        Going::Good
                    } else {
                        Going::Rough
                    })
                };
                // A higher total and a tie do not depend on the going (§11, §11.1).
                for band in [Band::Higher, Band::Equal] {
                    let (outcome, rule) = outcome_for(&x(Going::Good), &w(true), close, band);
                    slots[open_slot(band, Going::Good, true)] = (outcome, index_of(rule));
                }
                for band in [Band::Beaten, Band::Doubled] {
                    for x_going in goings {
                        for w_good in [false, true] {
                            let (outcome, rule) = outcome_for(&x(x_going), &w(w_good), close, band);
                            slots[open_slot(band, x_going, w_good)] = (outcome, index_of(rule));
                        }
                    }
                }
            }
        }
        OpenOutcomes { rules, entries }
    }
}

/// The table of [`OpenOutcomes`], worked out on first use and never changed.
static OPEN_OUTCOMES: std::sync::LazyLock<OpenOutcomes> =
    std::sync::LazyLock::new(OpenOutcomes::new);

/// [`outcome_for`] of `x` in close combat against `w`, neither holding nor assaulting a city,
/// fort or camp: read from [`OpenOutcomes`], or worked out for mounted infantry.
#[inline]
fn open_outcome(x: &Combatant, w: &Combatant, band: Band) -> (Outcome, &'static str) {
    if x.kind.is_mounted_infantry() {
        return outcome_for(x, w, CLOSE_ROLE, band);
    }
    let t = &*OPEN_OUTCOMES;
    let pair = x.kind.base().index() * BaseKind::ALL.len() + w.kind.base().index();
    let (outcome, rule) = t.entries[pair][open_slot(band, x.going, w.going == Going::Good)];
    (outcome, t.rules[usize::from(rule)])
}

/// The outcome for `x` whose total stands in `band` against `w` (§11).
fn outcome_for(x: &Combatant, w: &Combatant, role: Role, band: Band) -> (Outcome, &'static str) {
    use Outcome::*;
    use TroopType as T;
    if role.immune_shooter && band != Band::Higher {
        return (
            NoEffect,
            "§17.24: a shooter suffers nothing from a target that is not shooting at it",
        );
    }
    let xt = x.kind.troop_type();
    let wt = w.kind.troop_type();
    let cc = role.close;
    let shot = role.shot_at;
    let w_shooting = shot; // W shot at X.
    let x_good = x.going == Going::Good;
    let w_good = w.going == Going::Good;
    let x_defender = x.holding.defending().is_some();
    let w_defends = w.holding.defending();
    let sallied = x.kind.is_civilian() && x.holding.is_field();

    match band {
        Band::Higher => (NoEffect, "§11: the higher total has no effect"),
        Band::Equal => {
            if !x.holding.is_field() || !w.holding.is_field() {
                return (
                    NoEffect,
                    "§11.1, §17.49: a tie has no effect when attacking or defending a city, fort or camp",
                );
            }
            if xt == T::SCh {
                return (Destroyed, "§11.1: Scythed Chariots tied are destroyed");
            }
            if is(xt, &[T::Kn, T::Cm]) {
                if cc && (w.kind.is_longbow_or_crossbow() || w.kind.counts_as_blades()) {
                    return (
                        Destroyed,
                        "§11.1: Knights or Camelry tied in close combat by Blades, longbows or crossbows are destroyed",
                    );
                }
                if cc && w.kind.is_solid_foot() {
                    return (
                        Recoil,
                        "§11.1: Knights or Camelry tied in close combat by Solid foot recoil",
                    );
                }
                if cc && x.kind.base() == BaseKind::Kn4 && w.kind.base() == BaseKind::Kn3 {
                    return (Recoil, "§11.1: 4Kn tied in close combat by 3Kn recoil");
                }
                return (NoEffect, "§11.1: Knights or Camelry tied: no effect");
            }
            if x.kind.is_mounted() {
                if cc && w.kind.is_solid_foot() {
                    return (
                        Recoil,
                        "§11.1: other mounted tied in close combat by Solid foot recoil",
                    );
                }
                return (NoEffect, "§11.1: other mounted tied: no effect");
            }
            if x.kind.is_fast_foot() {
                if w.kind.is_solid_foot() && (cc || w_shooting) {
                    return (
                        Recoil,
                        "§11.1: Fast foot tied by Solid foot in close combat or shooting recoil",
                    );
                }
                return (NoEffect, "§11.1: Fast foot tied: no effect");
            }
            (NoEffect, "§11.1: Solid foot tied: nothing happens")
        }
        Band::Beaten => {
            if x_defender {
                return (
                    Destroyed,
                    "§11.2 general row 1: beaten defenders of a city, fort or camp are destroyed",
                );
            }
            if sallied {
                return (
                    Destroyed,
                    "§11.2 general row 1: beaten sallied denizens or camp followers are destroyed",
                );
            }
            if x.kind.is_mounted_infantry() && x.going == Going::Bad {
                return (
                    Destroyed,
                    "§11.2 general row 1: beaten mounted infantry in bad going are destroyed",
                );
            }
            if cc && w_defends.is_some() {
                if xt == T::El && matches!(w_defends, Some(Stronghold::City | Stronghold::Fort)) {
                    return (
                        Destroyed,
                        "§4.7, §12.1: Elephants recoiling from defenders of a city or fort are destroyed",
                    );
                }
                if xt == T::WWg {
                    return (NoEffect, "§12.1: War Wagons never recoil");
                }
                return (
                    Recoil,
                    "§11.2 general row 2: beaten by defenders of a city, fort or camp: recoil",
                );
            }
            if x.kind.is_general_only() {
                return (
                    NoEffect,
                    "§11.2 general row 3: CP, Lit or CWg beaten: no effect",
                );
            }
            match xt {
                T::El => {
                    if (cc && is(wt, &[T::Ps, T::Ax, T::LH])) || (w_shooting && wt == T::Art) {
                        (
                            Destroyed,
                            "§11.2 El: destroyed by Psiloi, Auxilia or Light Horse in close combat, or Artillery shooting",
                        )
                    } else {
                        (Recoil, "§11.2 El: otherwise recoil")
                    }
                }
                T::SCh => {
                    if shot && !role.from_behind {
                        (
                            Flee,
                            "§11.2 SCh: shot at, flee (the shooter is not beyond their rear edge)",
                        )
                    } else if shot {
                        (
                            Destroyed,
                            "§11.2 SCh, §17.6: shot at from beyond their rear edge, destroyed",
                        )
                    } else {
                        (Destroyed, "§11.2 SCh: beaten in close combat, destroyed")
                    }
                }
                T::Kn => {
                    if is(wt, &[T::El, T::SCh, T::Cm, T::LH]) {
                        (
                            Destroyed,
                            "§11.2 Kn: destroyed by Elephants, Scythed Chariots, Camelry or Light Horse",
                        )
                    } else {
                        (Recoil, "§11.2 Kn: otherwise recoil")
                    }
                }
                T::Cm => {
                    if wt == T::SCh || x.going == Going::Bad {
                        (
                            Destroyed,
                            "§11.2 Cm: destroyed by Scythed Chariots or when in bad going",
                        )
                    } else if wt == T::El {
                        (Flee, "§11.2 Cm: flee from Elephants")
                    } else {
                        (Recoil, "§11.2 Cm: otherwise recoil")
                    }
                }
                T::Cv => {
                    if wt == T::SCh || x.going == Going::Bad {
                        (
                            Flee,
                            "§11.2 Cv: flee from Scythed Chariots or when in bad going",
                        )
                    } else {
                        (Recoil, "§11.2 Cv: otherwise recoil")
                    }
                }
                T::LH => {
                    if wt == T::SCh || (w_shooting && wt == T::Art) || x.going == Going::Bad {
                        (
                            Flee,
                            "§11.2 LH: flee from Scythed Chariots, Artillery shooting, or when in bad going",
                        )
                    } else {
                        (Recoil, "§11.2 LH: otherwise recoil")
                    }
                }
                T::Sp | T::Pk | T::Bd => {
                    if (is(wt, &[T::Kn, T::SCh]) && x_good) || wt == T::Wb {
                        (
                            Destroyed,
                            "§11.2 Sp, Pk, Bd: destroyed by Knights or Scythed Chariots in good going, or by Warband",
                        )
                    } else {
                        (Recoil, "§11.2 Sp, Pk, Bd: otherwise recoil")
                    }
                }
                T::Ax => {
                    if wt == T::Kn && x_good {
                        (Destroyed, "§11.2 Ax: destroyed by Knights in good going")
                    } else {
                        (Recoil, "§11.2 Ax: otherwise recoil")
                    }
                }
                T::Bw => {
                    if w.kind.is_mounted() {
                        (Destroyed, "§11.2 Bw: destroyed by any mounted")
                    } else {
                        (Recoil, "§11.2 Bw: otherwise recoil")
                    }
                }
                T::Ps => {
                    if is(wt, &[T::Kn, T::Cv, T::Cm]) && w_good {
                        (
                            Destroyed,
                            "§11.2 Ps: destroyed by Knights, Cavalry or Camelry in going good for them",
                        )
                    } else {
                        (Recoil, "§11.2 Ps: otherwise recoil")
                    }
                }
                T::Wb => {
                    if is(wt, &[T::Kn, T::SCh]) && x_good {
                        (
                            Destroyed,
                            "§11.2 Wb: destroyed by Knights or Scythed Chariots in good going",
                        )
                    } else {
                        (Recoil, "§11.2 Wb: otherwise recoil")
                    }
                }
                T::Hd => {
                    if (is(wt, &[T::Kn, T::El]) && x_good) || wt == T::Wb {
                        (
                            Destroyed,
                            "§11.2 Hd: destroyed by Knights or Elephants in good going, or by Warband",
                        )
                    } else if shot {
                        (Recoil, "§11.2 Hd: recoil if shot at")
                    } else {
                        (NoEffect, "§11.2 Hd: otherwise no effect")
                    }
                }
                T::WWg => {
                    if (w_shooting && wt == T::Art) || wt == T::El {
                        (
                            Destroyed,
                            "§11.2 WWg: destroyed by Artillery shooting or by Elephants",
                        )
                    } else {
                        (NoEffect, "§11.2 WWg: otherwise no effect")
                    }
                }
                T::Art => (Destroyed, "§11.2 Art: always destroyed when beaten"),
                // Civilians are defenders or sallied (row 1) and CP/Lit/CWg fall under row 3.
                T::CP | T::Lit | T::CWg | T::CampFollowers | T::Denizens => (
                    NoEffect,
                    "§11.2 general row 3: CP, Lit or CWg beaten: no effect",
                ),
            }
        }
        Band::Doubled => {
            if x_defender {
                return (
                    Destroyed,
                    "§11.3 row 1: doubled defenders of a city, fort or camp are destroyed",
                );
            }
            // Our reading: mounted infantry in bad going, destroyed when merely beaten (§11.2
            // row 1), are destroyed when doubled too; the doubled Psiloi row would otherwise let
            // mounted Psiloi flee from a worse result.
            if x.kind.is_mounted_infantry() && x.going == Going::Bad {
                return (
                    Destroyed,
                    "§11.2 general row 1, §11.3: doubled mounted infantry in bad going are destroyed",
                );
            }
            match xt {
                T::Cv => {
                    if (is(wt, &[T::Pk, T::Sp, T::Hd]) && x_good) || (cc && wt == T::Art) {
                        (
                            Flee,
                            "§11.3 Cv: flee from Pikes, Spears or Hordes in good going, or Artillery in close combat",
                        )
                    } else {
                        (Destroyed, "§11.3 Cv: otherwise destroyed")
                    }
                }
                T::LH => {
                    if w.kind.is_mounted()
                        || (w_shooting && wt == T::Art)
                        || is(wt, &[T::Bw, T::Ps])
                        || x.going == Going::Bad
                    {
                        (
                            Destroyed,
                            "§11.3 LH: destroyed by mounted, Artillery shooting, Bows or Psiloi, or in bad going",
                        )
                    } else {
                        (Flee, "§11.3 LH: otherwise flee")
                    }
                }
                T::Ps => {
                    if (is(wt, &[T::Kn, T::Cv, T::Cm, T::LH]) && w_good)
                        || (cc && is(wt, &[T::Ax, T::Bw, T::Ps]))
                    {
                        (
                            Destroyed,
                            "§11.3 Ps: destroyed by Kn, Cv, Cm or LH in going good for them, or by Ax, Bw or Ps in close combat",
                        )
                    } else if is(wt, &[T::El, T::SCh]) {
                        (
                            Recoil,
                            "§11.3 Ps: recoil from Elephants or Scythed Chariots",
                        )
                    } else {
                        (Flee, "§11.3 Ps: otherwise flee")
                    }
                }
                _ => (Destroyed, "§11.3: doubled, destroyed"),
            }
        }
    }
}

/// Who follows up (§12.5): an element whose close-combat opponent recoiled, fled or was destroyed
/// while it itself was unaffected.
fn pursuit(s: &Situation, oa: Outcome, ob: Outcome) -> Option<Pursuit> {
    if s.engagement != Engagement::CloseCombat {
        return None; // §9.6, §17.48: nobody pursues after shooting.
    }
    let (side, p, o, o_out) = if oa == Outcome::NoEffect && ob != Outcome::NoEffect {
        (Side::A, &s.a, &s.b, ob)
    } else if ob == Outcome::NoEffect && oa != Outcome::NoEffect {
        (Side::B, &s.b, &s.a, oa)
    } else {
        return None;
    };
    let normal = match p.kind.pursuit() {
        PursuitRule::OneBw => Some(1.0),
        PursuitRule::HalfBwAfterFoot
            if o.kind.is_foot() && o.kind.troop_type() != TroopType::Ps =>
        {
            Some(0.5)
        }
        _ => None,
    };
    // Destroyed defenders: one winning assaulter moves in (§4.7, §12.5), not Elephants or War
    // Wagon mobile towers (§17.38); its normal pursuit distance, else foot ½ BW, mounted 1 BW
    // (§17.47).
    if let (Some(place), Outcome::Destroyed) = (o.holding.defending(), o_out) {
        if p.holding.assaulting() == Some(place)
            && !matches!(p.kind.troop_type(), TroopType::El | TroopType::WWg)
        {
            let d = normal.unwrap_or(match p.kind.class() {
                Class::Mounted => 1.0,
                Class::Foot => 0.5,
            });
            return Some(Pursuit {
                side,
                distance: d,
                into: Some(place),
            });
        }
        return None;
    }
    // §12.5: a winner standing in a city, fort or camp does not pursue.
    if p.holding.defending().is_some() {
        return None;
    }
    normal.map(|distance| Pursuit {
        side,
        distance,
        into: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind an element can be: each base kind, and mounted infantry of those that ride.
    fn every_kind() -> Vec<ElementKind> {
        let mut v: Vec<ElementKind> = BaseKind::ALL.into_iter().map(ElementKind::new).collect();
        v.extend(
            BaseKind::ALL
                .into_iter()
                .filter_map(|b| ElementKind::mounted_infantry(b).ok()),
        );
        v
    }

    // DBA3.md §11: the table of outcomes in the open gives, for every ordered pair of kinds,
    // every going of each side and every band, exactly the outcome and rule that the rows of
    // §11.1-§11.3 (`outcome_for`) give.
    #[test]
    fn the_open_outcome_table_is_outcome_for_everywhere() {
        let close = roles(&Engagement::CloseCombat).0;
        let goings = [Going::Good, Going::Rough, Going::Bad];
        let bands = [Band::Higher, Band::Equal, Band::Beaten, Band::Doubled];
        let kinds = every_kind();
        let mut checked = 0u32;
        for &xk in &kinds {
            for &wk in &kinds {
                for xg in goings {
                    for wg in goings {
                        let x = Combatant::new(xk).in_going(xg);
                        let w = Combatant::new(wk).in_going(wg);
                        for band in bands {
                            assert_eq!(
                                open_outcome(&x, &w, band),
                                outcome_for(&x, &w, close, band),
                                "{xk} in {xg:?} against {wk} in {wg:?}, {band:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 42 * 42 * 36);
    }

    // The fixed-length sum of a factor list is the sum of the factors it lists.
    #[test]
    fn a_factor_sum_counts_only_the_listed_factors() {
        let mut f = Factors::new();
        assert_eq!(f.sum(), 0);
        f.push(Factor {
            name: FactorName::VsFoot,
            value: 4,
        });
        f.push(Factor {
            name: FactorName::FlankOrRear,
            value: -2,
        });
        assert_eq!(f.sum(), 2);
        assert_eq!(f.sum(), f.iter().map(|x| x.value).sum::<i32>());
    }
}
