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

mod factors;
mod outcomes;
mod resolve;

pub use factors::*;
pub use outcomes::*;
pub use resolve::*;

/// The going an element counts as being in for combat (§3.1). Give the going *for that element*:
/// a camel-mounted element in dunes or oasis is in good going (§3.1, §17.28); an element partly in
/// several goings is in the worst (§3.1).
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

// The going of `terrain::Going` as a combatant stands in it: the same classes without the
// impassable waterway, where no element fights (§3.4). They stay two types because each is in the
// public JSON as it is (a combatant's going cannot be `impassable`); `from_terrain` is the one way
// from the table's going to this one. (Said here, not in the enum's doc, which is also the JSON
// Schema's description.)
impl Going {
    /// The going of the table ([`crate::terrain::Going`]) as a combatant counts it; `None` on
    /// impassable ground (§3.4).
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
