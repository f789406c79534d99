//! Close combat and shooting through plain C structs: resolve one pair of dice, or count the
//! odds over all 36 pairs. The rules are dbcore's; this file only translates.

use std::ffi::c_char;

use dbcore::combat::{
    Band, BriefResult, BriefSide, CombatResult, Combatant, Engagement, Factor, FactorName, Factors,
    Going, Holding, Odds, Outcome, Prepared, Pursuit, ShooterSide, Shot, Side, SideResult,
    Situation, Stronghold, Supporter, Supporters,
};
use dbcore::troops::{BaseKind, ElementKind};
use dbcore::DieScore;

use crate::boundary::{arg, boundary, copy_out, flag, FfiError, Field, Out};
use crate::kind::DbcoreElementKind;
use crate::DbcoreStatus;

/// The most factors one side's total can list in a `DbcoreSideResult` or `DbcoreOdds`.
pub const DBCORE_MAX_FACTORS: usize = 16;
/// The size of the `rule` text of a `DbcoreSideResult`, NUL included.
pub const DBCORE_RULE_TEXT_SIZE: usize = 256;

/// The going an element counts as being in for combat (§3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreGoing {
    Good = 0,
    Rough = 1,
    Bad = 2,
}

/// An element's part in the fight for a city, fort or camp (§4.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreHolding {
    /// In the open; `place` must be `DBCORE_STRONGHOLD_NONE`.
    Field = 0,
    /// Inside `place` and defending it.
    Defending = 1,
    /// Assaulting `place` from outside.
    Assaulting = 2,
}

/// A city, fort or camp (§4), or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreStronghold {
    None = 0,
    City = 1,
    Fort = 2,
    Camp = 3,
}

/// Close combat or a distant shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreEngagement {
    CloseCombat = 0,
    Shooting = 1,
}

/// One of the two combatants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreSide {
    A = 0,
    B = 1,
}

/// What happens to an element after a combat (§11); also the index of the per-outcome arrays of
/// `DbcoreOdds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreOutcome {
    NoEffect = 0,
    Recoil = 1,
    Flee = 2,
    Destroyed = 3,
}

/// How a total compares with the opponent's (§11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreBand {
    /// Higher: it won.
    Higher = 0,
    /// Equal totals (§11.1).
    Equal = 1,
    /// Less, but more than half (§11.2).
    Beaten = 2,
    /// Half or less (§11.3).
    Doubled = 3,
}

/// The name of a factor counted in a total (§10.1, §10.3). `dbcore_factor_label` gives the words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreFactorName {
    VsFoot = 0,
    VsMounted = 1,
    ShotAt = 2,
    ArtilleryInCityOrFort = 3,
    Garrison = 4,
    CampOrCityDefenders = 5,
    General = 6,
    CinC = 7,
    Uphill = 8,
    RiverBank = 9,
    SideSupport = 10,
    RearSupport = 11,
    DoubleElement = 12,
    FlankOrRear = 13,
    ExtraAssaulters = 14,
    SupportShooters = 15,
    BadGoing = 16,
    Demoralised = 17,
}

/// Every factor name, in number order, for the label lookup and the tests.
const FACTOR_NAMES: [(DbcoreFactorName, FactorName); 18] = [
    (DbcoreFactorName::VsFoot, FactorName::VsFoot),
    (DbcoreFactorName::VsMounted, FactorName::VsMounted),
    (DbcoreFactorName::ShotAt, FactorName::ShotAt),
    (
        DbcoreFactorName::ArtilleryInCityOrFort,
        FactorName::ArtilleryInCityOrFort,
    ),
    (DbcoreFactorName::Garrison, FactorName::Garrison),
    (
        DbcoreFactorName::CampOrCityDefenders,
        FactorName::CampOrCityDefenders,
    ),
    (DbcoreFactorName::General, FactorName::General),
    (DbcoreFactorName::CinC, FactorName::CinC),
    (DbcoreFactorName::Uphill, FactorName::Uphill),
    (DbcoreFactorName::RiverBank, FactorName::RiverBank),
    (DbcoreFactorName::SideSupport, FactorName::SideSupport),
    (DbcoreFactorName::RearSupport, FactorName::RearSupport),
    (DbcoreFactorName::DoubleElement, FactorName::DoubleElement),
    (DbcoreFactorName::FlankOrRear, FactorName::FlankOrRear),
    (
        DbcoreFactorName::ExtraAssaulters,
        FactorName::ExtraAssaulters,
    ),
    (
        DbcoreFactorName::SupportShooters,
        FactorName::SupportShooters,
    ),
    (DbcoreFactorName::BadGoing, FactorName::BadGoing),
    (DbcoreFactorName::Demoralised, FactorName::Demoralised),
];

fn factor_name(n: FactorName) -> DbcoreFactorName {
    // Exhaustive, so a factor added to dbcore fails to compile here until it is given a number.
    match n {
        FactorName::VsFoot => DbcoreFactorName::VsFoot,
        FactorName::VsMounted => DbcoreFactorName::VsMounted,
        FactorName::ShotAt => DbcoreFactorName::ShotAt,
        FactorName::ArtilleryInCityOrFort => DbcoreFactorName::ArtilleryInCityOrFort,
        FactorName::Garrison => DbcoreFactorName::Garrison,
        FactorName::CampOrCityDefenders => DbcoreFactorName::CampOrCityDefenders,
        FactorName::General => DbcoreFactorName::General,
        FactorName::CinC => DbcoreFactorName::CinC,
        FactorName::Uphill => DbcoreFactorName::Uphill,
        FactorName::RiverBank => DbcoreFactorName::RiverBank,
        FactorName::SideSupport => DbcoreFactorName::SideSupport,
        FactorName::RearSupport => DbcoreFactorName::RearSupport,
        FactorName::DoubleElement => DbcoreFactorName::DoubleElement,
        FactorName::FlankOrRear => DbcoreFactorName::FlankOrRear,
        FactorName::ExtraAssaulters => DbcoreFactorName::ExtraAssaulters,
        FactorName::SupportShooters => DbcoreFactorName::SupportShooters,
        FactorName::BadGoing => DbcoreFactorName::BadGoing,
        FactorName::Demoralised => DbcoreFactorName::Demoralised,
    }
}

/// A friend giving side or rear support (§10.3). Ignored unless `present` is 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub struct DbcoreSupporter {
    /// 1 when there is such a friend, else 0.
    pub present: u32,
    pub kind: DbcoreElementKind,
    /// A `DbcoreGoing`.
    pub going: u32,
}

/// One element in a combat, as the table shows it. A zeroed struct is an ordinary element (of
/// base index 0, Elephants) in good going in the open; set `kind` from
/// `dbcore_element_kind_parse`. Flags are 0 or 1; anything else is `DBCORE_STATUS_INVALID_ARGUMENT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub struct DbcoreCombatant {
    pub kind: DbcoreElementKind,
    /// The general's element.
    pub general: u32,
    /// Big Battle: the C-in-C uses his once-a-game +1 (needs `general`, §14.4).
    pub cinc_bonus: u32,
    /// A `DbcoreGoing`: the going this element counts as being in.
    pub going: u32,
    /// Uphill of its opponent (§3.3).
    pub uphill: u32,
    /// Defending a river bank (§3.5).
    pub defending_bank: u32,
    /// A `DbcoreHolding`.
    pub holding: u32,
    /// A `DbcoreStronghold`: `NONE` in the field, else the place defended or assaulted.
    pub place: u32,
    /// Defending only: assaulters besides the one fighting now (§4.7); 0 otherwise.
    pub extra_assaulters: u32,
    /// Friends in side-edge contact (§10.3).
    pub side_supporters: [DbcoreSupporter; 2],
    /// A friend directly behind (§10.3).
    pub rear_supporter: DbcoreSupporter,
    /// Flank and rear edges overlapped or contacted by other enemy, 0 to 3 (§10.3).
    pub flank_rear_contacts: u32,
    /// Of a demoralised Big Battle command (§14.5).
    pub demoralised: u32,
}

/// Two elements about to fight or shoot. The shooting fields are read only when `engagement` is
/// `DBCORE_ENGAGEMENT_SHOOTING` (they must still be in range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub struct DbcoreSituation {
    pub a: DbcoreCombatant,
    pub b: DbcoreCombatant,
    /// A `DbcoreEngagement`.
    pub engagement: u32,
    /// A `DbcoreSide`: the main shooter; the other is its target.
    pub shooter: u32,
    /// Further shooters at the same target (§9.4).
    pub support_shooters: u32,
    /// The target shoots back at the shooter (§17.24).
    pub target_shoots_back: u32,
    /// The shooter is beyond the line of the target's rear edge (§11.2).
    pub from_behind: u32,
}

/// One factor counted in a total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct DbcoreFactor {
    pub name: DbcoreFactorName,
    pub value: i32,
}

/// One side's part of a result. Entries of `factors` past `factor_count` are zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct DbcoreSideResult {
    pub kind: DbcoreElementKind,
    /// The die score, 1 to 6.
    pub die: u32,
    /// Die plus factors.
    pub total: i32,
    pub band: DbcoreBand,
    pub outcome: DbcoreOutcome,
    pub factor_count: u32,
    pub factors: [DbcoreFactor; DBCORE_MAX_FACTORS],
    /// The full length in bytes of the rule text; `rule` was cut short if this is
    /// `>= DBCORE_RULE_TEXT_SIZE`.
    pub rule_len: u32,
    /// The rule (section and row) that gave the outcome, NUL-terminated UTF-8, e.g.
    /// `"§11.1: Knights or Camelry tied in close combat by Blades, ... are destroyed"`.
    pub rule: [c_char; DBCORE_RULE_TEXT_SIZE],
}

/// A winner following up (§12.5). All zero when `present` is 0.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct DbcorePursuit {
    pub present: u32,
    pub side: DbcoreSide,
    /// Straight ahead, in BW.
    pub distance: f64,
    /// The city, fort or camp it moves into, or `DBCORE_STRONGHOLD_NONE`.
    pub into: DbcoreStronghold,
}

/// The result of one close combat or shot.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct DbcoreCombatResult {
    pub a: DbcoreSideResult,
    pub b: DbcoreSideResult,
    pub pursuit: DbcorePursuit,
}

/// One side's part of a `DbcoreCompactResult`: what `DbcoreSideResult` says without the list of
/// factors, and with the rule text pointed to rather than copied.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct DbcoreCompactSide {
    /// Die plus factors.
    pub total: i32,
    /// The factors alone (the total without the die).
    pub factor: i32,
    pub band: DbcoreBand,
    pub outcome: DbcoreOutcome,
    /// The rule (section and row) that gave the outcome: `rule_len` bytes of UTF-8, static (they
    /// live as long as the library; never free them) and NOT NUL-terminated. Print with
    /// `printf("%.*s", (int)r.a.rule_len, r.a.rule)`; it is the text of `DbcoreSideResult.rule`.
    pub rule: *const c_char,
    pub rule_len: u32,
}

/// The result of one close combat or shot as `dbcore_resolve_compact` gives it: the outcomes,
/// totals, rules and pursuit of `DbcoreCombatResult`, without the factor lists and without
/// copying the rule texts, for callers that resolve many combats.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct DbcoreCompactResult {
    pub a: DbcoreCompactSide,
    pub b: DbcoreCompactSide,
    pub pursuit: DbcorePursuit,
}

/// The five margins of §11, counted out of 36.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct DbcoreMargins {
    pub a_doubled_b: u32,
    pub a_won: u32,
    pub tied: u32,
    pub b_won: u32,
    pub b_doubled_a: u32,
}

/// The outcomes over all 36 pairs of dice. Index the outcome arrays with `DbcoreOutcome`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct DbcoreOdds {
    /// `counts[a][b]`: how many of the 36 pairs give outcome `a` to side a and `b` to side b.
    pub counts: [[u32; 4]; 4],
    /// How many pairs give each outcome to side a.
    pub a: [u32; 4],
    /// How many pairs give each outcome to side b.
    pub b: [u32; 4],
    pub margins: DbcoreMargins,
    /// Side a's total without the die.
    pub a_factor: i32,
    /// Side b's total without the die.
    pub b_factor: i32,
    pub a_factor_count: u32,
    pub a_factors: [DbcoreFactor; DBCORE_MAX_FACTORS],
    pub b_factor_count: u32,
    pub b_factors: [DbcoreFactor; DBCORE_MAX_FACTORS],
}

// ---- C to Rust --------------------------------------------------------------------------------

// The refusals below are built out of line (`#[cold]`), so that the conversions of a valid
// struct, the path every call takes, stay small and inline.

#[inline]
fn going(v: u32, what: Field<'_>) -> Result<Going, FfiError> {
    match v {
        0 => Ok(Going::Good),
        1 => Ok(Going::Rough),
        2 => Ok(Going::Bad),
        _ => Err(out_of_range(v, what, "a DbcoreGoing (0 to 2)")),
    }
}

#[inline]
fn place(v: u32, what: Field<'_>) -> Result<Option<Stronghold>, FfiError> {
    match v {
        0 => Ok(None),
        1 => Ok(Some(Stronghold::City)),
        2 => Ok(Some(Stronghold::Fort)),
        3 => Ok(Some(Stronghold::Camp)),
        _ => Err(out_of_range(v, what, "a DbcoreStronghold (0 to 3)")),
    }
}

#[inline]
fn small(v: u32, what: Field<'_>) -> Result<u8, FfiError> {
    u8::try_from(v).map_err(|_| out_of_range(v, what, "at most 255"))
}

/// "`what` must be `range`, not `v`".
#[cold]
#[inline(never)]
fn out_of_range(v: u32, what: Field<'_>, range: &str) -> FfiError {
    FfiError::invalid(format!("{what} must be {range}, not {v}"))
}

fn supporter(s: &DbcoreSupporter, what: Field<'_>) -> Result<Option<Supporter>, FfiError> {
    if !flag(s.present, what.member("present"))? {
        return Ok(None);
    }
    Ok(Some(Supporter {
        kind: s.kind.to_kind(what.member("kind"))?,
        going: going(s.going, what.member("going"))?,
    }))
}

fn combatant(c: &DbcoreCombatant, what: Field<'_>) -> Result<Combatant, FfiError> {
    let field = |name| what.member(name);
    let where_ = place(c.place, field("place"))?;
    let holding = match (c.holding, where_) {
        (0, None) if c.extra_assaulters == 0 => Holding::Field,
        (0, _) => {
            return Err(FfiError::invalid(format!(
                "{} is FIELD, so place must be NONE and extra_assaulters 0",
                field("holding")
            )))
        }
        (1, Some(place)) => Holding::Defending {
            place,
            extra_assaulters: small(c.extra_assaulters, field("extra_assaulters"))?,
        },
        (2, Some(place)) if c.extra_assaulters == 0 => Holding::Assaulting { place },
        (2, Some(_)) => {
            return Err(FfiError::invalid(format!(
                "{} is only for a defender",
                field("extra_assaulters")
            )))
        }
        (1 | 2, None) => {
            return Err(FfiError::invalid(format!(
                "{} needs a place other than NONE",
                field("holding")
            )))
        }
        (v, _) => {
            return Err(FfiError::invalid(format!(
                "{} must be a DbcoreHolding (0 to 2), not {v}",
                field("holding")
            )))
        }
    };
    let mut side_supporters = Supporters::new();
    for (i, s) in c.side_supporters.iter().enumerate() {
        if let Some(s) = supporter(s, what.item("side_supporters", i))? {
            side_supporters.push(s);
        }
    }
    Ok(Combatant {
        kind: c.kind.to_kind(field("kind"))?,
        general: flag(c.general, field("general"))?,
        cinc_bonus: flag(c.cinc_bonus, field("cinc_bonus"))?,
        going: going(c.going, field("going"))?,
        uphill: flag(c.uphill, field("uphill"))?,
        defending_bank: flag(c.defending_bank, field("defending_bank"))?,
        holding,
        side_supporters,
        rear_supporter: supporter(&c.rear_supporter, field("rear_supporter"))?,
        flank_rear_contacts: small(c.flank_rear_contacts, field("flank_rear_contacts"))?,
        demoralised: flag(c.demoralised, field("demoralised"))?,
    })
}

// The conversions of a struct whose every value is in range, the path every call takes: each
// value is tested and taken without naming its field. Any value out of range gives `None`, and
// the caller then converts the struct again the long way, which names the field refused.

#[inline]
fn kind_in_range(k: DbcoreElementKind) -> Option<ElementKind> {
    let base = *BaseKind::ALL.get(k.base as usize)?;
    match k.mounted_infantry {
        0 => Some(ElementKind::new(base)),
        1 => ElementKind::mounted_infantry(base).ok(),
        _ => None,
    }
}

#[inline]
fn going_in_range(v: u32) -> Option<Going> {
    match v {
        0 => Some(Going::Good),
        1 => Some(Going::Rough),
        2 => Some(Going::Bad),
        _ => None,
    }
}

/// `Some(None)` for no supporter, `None` for a value out of range.
#[inline]
fn supporter_in_range(s: &DbcoreSupporter) -> Option<Option<Supporter>> {
    match s.present {
        0 => Some(None),
        1 => Some(Some(Supporter {
            kind: kind_in_range(s.kind)?,
            going: going_in_range(s.going)?,
        })),
        _ => None,
    }
}

#[inline]
fn combatant_in_range(c: &DbcoreCombatant) -> Option<Combatant> {
    if (c.general | c.cinc_bonus | c.uphill | c.defending_bank | c.demoralised) > 1 {
        return None;
    }
    let place = |p: u32| match p {
        1 => Some(Stronghold::City),
        2 => Some(Stronghold::Fort),
        3 => Some(Stronghold::Camp),
        _ => None,
    };
    let holding = match c.holding {
        0 if c.place == 0 && c.extra_assaulters == 0 => Holding::Field,
        1 => Holding::Defending {
            place: place(c.place)?,
            extra_assaulters: u8::try_from(c.extra_assaulters).ok()?,
        },
        2 if c.extra_assaulters == 0 => Holding::Assaulting {
            place: place(c.place)?,
        },
        _ => return None,
    };
    let mut side_supporters = Supporters::new();
    for s in &c.side_supporters {
        if let Some(s) = supporter_in_range(s)? {
            side_supporters.push(s);
        }
    }
    Some(Combatant {
        kind: kind_in_range(c.kind)?,
        general: c.general == 1,
        cinc_bonus: c.cinc_bonus == 1,
        going: going_in_range(c.going)?,
        uphill: c.uphill == 1,
        defending_bank: c.defending_bank == 1,
        holding,
        side_supporters,
        rear_supporter: supporter_in_range(&c.rear_supporter)?,
        flank_rear_contacts: u8::try_from(c.flank_rear_contacts).ok()?,
        demoralised: c.demoralised == 1,
    })
}

impl DbcoreSituation {
    /// The dbcore situation this describes, refusing values out of range.
    #[inline]
    pub fn to_situation(&self) -> Result<Situation, FfiError> {
        match self.in_range() {
            Some(s) => Ok(s),
            None => self.situation_named(),
        }
    }

    /// [`Self::to_situation`] of a struct whose every value is in range, else `None`.
    #[inline]
    fn in_range(&self) -> Option<Situation> {
        // The shooting fields must be in range even in close combat, as the header says.
        if (self.shooter | self.target_shoots_back | self.from_behind) > 1 {
            return None;
        }
        let support_shooters = u8::try_from(self.support_shooters).ok()?;
        let engagement = match self.engagement {
            0 => Engagement::CloseCombat,
            1 => Engagement::Shooting(Shot {
                shooter: if self.shooter == 0 {
                    ShooterSide::A
                } else {
                    ShooterSide::B
                },
                support_shooters,
                target_shoots_back: self.target_shoots_back == 1,
                from_behind: self.from_behind == 1,
            }),
            _ => return None,
        };
        Some(Situation {
            a: combatant_in_range(&self.a)?,
            b: combatant_in_range(&self.b)?,
            engagement,
        })
    }

    /// [`Self::to_situation`] field by field, naming the first value out of range.
    #[cold]
    #[inline(never)]
    fn situation_named(&self) -> Result<Situation, FfiError> {
        let sit = Field::root("situation");
        let shooter = match self.shooter {
            0 => ShooterSide::A,
            1 => ShooterSide::B,
            v => {
                return Err(FfiError::invalid(format!(
                    "situation.shooter must be a DbcoreSide (0 or 1), not {v}"
                )))
            }
        };
        let shot = Shot {
            shooter,
            support_shooters: small(self.support_shooters, sit.member("support_shooters"))?,
            target_shoots_back: flag(self.target_shoots_back, sit.member("target_shoots_back"))?,
            from_behind: flag(self.from_behind, sit.member("from_behind"))?,
        };
        let engagement = match self.engagement {
            0 => Engagement::CloseCombat,
            1 => Engagement::Shooting(shot),
            v => {
                return Err(FfiError::invalid(format!(
                    "situation.engagement must be a DbcoreEngagement (0 or 1), not {v}"
                )))
            }
        };
        Ok(Situation {
            a: combatant(&self.a, sit.member("a"))?,
            b: combatant(&self.b, sit.member("b"))?,
            engagement,
        })
    }
}

#[inline]
fn die(v: u8, what: &str) -> Result<DieScore, FfiError> {
    match DieScore::new(v) {
        Ok(d) => Ok(d),
        Err(e) => Err(not_a_die(e, what)),
    }
}

/// The refusal of a die score, out of the hot path.
#[cold]
#[inline(never)]
fn not_a_die(e: dbcore::dice::DiceError, what: &str) -> FfiError {
    let mut f = FfiError::from(e);
    f.message = format!("{what}: {}", f.message);
    f
}

// ---- Rust to C --------------------------------------------------------------------------------

fn outcome(o: Outcome) -> DbcoreOutcome {
    match o {
        Outcome::NoEffect => DbcoreOutcome::NoEffect,
        Outcome::Recoil => DbcoreOutcome::Recoil,
        Outcome::Flee => DbcoreOutcome::Flee,
        Outcome::Destroyed => DbcoreOutcome::Destroyed,
    }
}

fn band(b: Band) -> DbcoreBand {
    match b {
        Band::Higher => DbcoreBand::Higher,
        Band::Equal => DbcoreBand::Equal,
        Band::Beaten => DbcoreBand::Beaten,
        Band::Doubled => DbcoreBand::Doubled,
    }
}

fn stronghold(s: Option<Stronghold>) -> DbcoreStronghold {
    match s {
        None => DbcoreStronghold::None,
        Some(Stronghold::City) => DbcoreStronghold::City,
        Some(Stronghold::Fort) => DbcoreStronghold::Fort,
        Some(Stronghold::Camp) => DbcoreStronghold::Camp,
    }
}

fn side(s: Side) -> DbcoreSide {
    match s {
        Side::A => DbcoreSide::A,
        Side::B => DbcoreSide::B,
    }
}

const NO_FACTOR: DbcoreFactor = DbcoreFactor {
    name: DbcoreFactorName::VsFoot,
    value: 0,
};

fn factors(v: &[Factor]) -> Result<(u32, [DbcoreFactor; DBCORE_MAX_FACTORS]), FfiError> {
    if v.len() > DBCORE_MAX_FACTORS {
        return Err(FfiError::invalid(format!(
            "{} factors do not fit the {DBCORE_MAX_FACTORS} slots of the C struct; use the JSON functions",
            v.len()
        )));
    }
    let mut out = [NO_FACTOR; DBCORE_MAX_FACTORS];
    for (slot, f) in out.iter_mut().zip(v) {
        *slot = DbcoreFactor {
            name: factor_name(f.name),
            value: f.value,
        };
    }
    Ok((v.len() as u32, out))
}

// A side's factor list always fits the C struct's slots, so its conversion cannot fail.
const _: () = assert!(Factors::CAPACITY <= DBCORE_MAX_FACTORS);

/// The C form of one side's result: infallible, since its factors fit (see above), so that the
/// result is built where it is written rather than moved through a `Result`.
#[inline]
fn side_result(r: &SideResult) -> DbcoreSideResult {
    let mut factors = [NO_FACTOR; DBCORE_MAX_FACTORS];
    for (slot, f) in factors.iter_mut().zip(r.factors.as_slice()) {
        *slot = DbcoreFactor {
            name: factor_name(f.name),
            value: f.value,
        };
    }
    let mut rule = [0 as c_char; DBCORE_RULE_TEXT_SIZE];
    // SAFETY: `rule` is a local array of exactly `rule.len()` bytes.
    let full = unsafe { copy_out(r.rule.as_bytes(), rule.as_mut_ptr(), rule.len()) };
    DbcoreSideResult {
        kind: DbcoreElementKind::from_kind(r.kind),
        die: u32::from(r.die.get()),
        total: r.total,
        band: band(r.band),
        outcome: outcome(r.outcome),
        factor_count: r.factors.len() as u32,
        factors,
        rule_len: full as u32,
        rule,
    }
}

/// Write the C form of one side's result into `*out`, field by field where it stands (building
/// it first and then copying it, over 400 bytes, was most of the cost of `dbcore_resolve`).
///
/// # Safety
/// `out` must be valid for writes of a `DbcoreSideResult`.
#[inline]
unsafe fn write_side_result(out: *mut DbcoreSideResult, r: &SideResult) {
    use std::ptr::addr_of_mut;
    let text = r.rule.as_bytes();
    let part = crate::boundary::utf8_prefix(text, DBCORE_RULE_TEXT_SIZE - 1);
    // SAFETY: every place written is a field of `*out`, which the caller vouches for; the rule
    // text and its NUL fit the array (`part.len() < DBCORE_RULE_TEXT_SIZE`), and the bytes after
    // the NUL are zeroed, as the whole array was before.
    unsafe {
        addr_of_mut!((*out).kind).write(DbcoreElementKind::from_kind(r.kind));
        addr_of_mut!((*out).die).write(u32::from(r.die.get()));
        addr_of_mut!((*out).total).write(r.total);
        addr_of_mut!((*out).band).write(band(r.band));
        addr_of_mut!((*out).outcome).write(outcome(r.outcome));
        addr_of_mut!((*out).factor_count).write(r.factors.len() as u32);
        let slots = addr_of_mut!((*out).factors).cast::<DbcoreFactor>();
        let listed = r.factors.as_slice();
        for i in 0..DBCORE_MAX_FACTORS {
            let f = match listed.get(i) {
                Some(f) => DbcoreFactor {
                    name: factor_name(f.name),
                    value: f.value,
                },
                None => NO_FACTOR,
            };
            slots.add(i).write(f);
        }
        addr_of_mut!((*out).rule_len).write(text.len() as u32);
        let rule = addr_of_mut!((*out).rule).cast::<u8>();
        std::ptr::copy_nonoverlapping(part.as_ptr(), rule, part.len());
        std::ptr::write_bytes(rule.add(part.len()), 0, DBCORE_RULE_TEXT_SIZE - part.len());
    }
}

/// Write the C form of a result into `*out` where it stands ([`combat_result`] without the
/// copy).
///
/// # Safety
/// `out` must be valid for writes of a `DbcoreCombatResult`.
#[inline]
pub unsafe fn write_combat_result(out: *mut DbcoreCombatResult, r: &CombatResult) {
    use std::ptr::addr_of_mut;
    // SAFETY: fields of `*out`, which the caller vouches for.
    unsafe {
        write_side_result(addr_of_mut!((*out).a), &r.a);
        write_side_result(addr_of_mut!((*out).b), &r.b);
        addr_of_mut!((*out).pursuit).write(pursuit(r.pursuit));
    }
}

fn pursuit(p: Option<Pursuit>) -> DbcorePursuit {
    match p {
        None => DbcorePursuit {
            present: 0,
            side: DbcoreSide::A,
            distance: 0.0,
            into: DbcoreStronghold::None,
        },
        Some(p) => DbcorePursuit {
            present: 1,
            side: side(p.side),
            distance: p.distance,
            into: stronghold(p.into),
        },
    }
}

/// The C form of a result.
pub fn combat_result(r: &CombatResult) -> DbcoreCombatResult {
    DbcoreCombatResult {
        a: side_result(&r.a),
        b: side_result(&r.b),
        pursuit: pursuit(r.pursuit),
    }
}

/// The compact C form of one side's result, `None` if its rule text is not static (`resolve`
/// always gives static texts; an owned one cannot be pointed to once the result is gone).
#[inline]
fn compact_side(r: &SideResult) -> Option<DbcoreCompactSide> {
    let rule: &'static str = match r.rule {
        std::borrow::Cow::Borrowed(text) => text,
        std::borrow::Cow::Owned(_) => return None,
    };
    Some(DbcoreCompactSide {
        total: r.total,
        factor: r.total - i32::from(r.die.get()),
        band: band(r.band),
        outcome: outcome(r.outcome),
        rule: rule.as_ptr().cast::<c_char>(),
        rule_len: rule.len() as u32,
    })
}

/// The compact C form of a result.
pub fn compact_result(r: &CombatResult) -> Result<DbcoreCompactResult, FfiError> {
    match (compact_side(&r.a), compact_side(&r.b)) {
        (Some(a), Some(b)) => Ok(DbcoreCompactResult {
            a,
            b,
            pursuit: pursuit(r.pursuit),
        }),
        _ => Err(not_static()),
    }
}

/// The compact C form of one side of a brief result.
#[inline]
fn compact_brief_side(r: &BriefSide) -> DbcoreCompactSide {
    DbcoreCompactSide {
        total: r.total,
        factor: r.factor,
        band: band(r.band),
        outcome: outcome(r.outcome),
        rule: r.rule.as_ptr().cast::<c_char>(),
        rule_len: r.rule.len() as u32,
    }
}

/// The compact C form of a brief result: the same as [`compact_result`] of the full result of
/// the same call (its rule texts are static by type, so it cannot fail).
pub fn compact_brief(r: &BriefResult) -> DbcoreCompactResult {
    DbcoreCompactResult {
        a: compact_brief_side(&r.a),
        b: compact_brief_side(&r.b),
        pursuit: pursuit(r.pursuit),
    }
}

/// The refusal of a result whose rule text is not static, out of the hot path (never met).
#[cold]
#[inline(never)]
fn not_static() -> FfiError {
    FfiError::new(
        dbcore::ErrorCode::Internal,
        "a rule text of the result is not static, so it cannot be pointed to",
    )
}

/// The C form of the odds, with the factors of `prepared`.
pub fn odds_result(o: &Odds, prepared: &Prepared) -> Result<DbcoreOdds, FfiError> {
    let mut counts = [[0u32; 4]; 4];
    for e in &o.outcomes {
        counts[outcome(e.a) as usize][outcome(e.b) as usize] = u32::from(e.count);
    }
    let per_side = |v: &[u8; 4]| {
        let mut out = [0u32; 4];
        for (o, &n) in Outcome::ALL.iter().zip(v) {
            out[outcome(*o) as usize] = u32::from(n);
        }
        out
    };
    let (a_factor_count, a_factors) = factors(prepared.a_factors())?;
    let (b_factor_count, b_factors) = factors(prepared.b_factors())?;
    let m = o.margins;
    Ok(DbcoreOdds {
        counts,
        a: per_side(&o.a),
        b: per_side(&o.b),
        margins: DbcoreMargins {
            a_doubled_b: m.a_doubled_b.into(),
            a_won: m.a_won.into(),
            tied: m.tied.into(),
            b_won: m.b_won.into(),
            b_doubled_a: m.b_doubled_a.into(),
        },
        a_factor: o.a_factor,
        b_factor: o.b_factor,
        a_factor_count,
        a_factors,
        b_factor_count,
        b_factors,
    })
}

// ---- Exported functions -----------------------------------------------------------------------

/// Resolve one close combat or shot for two die scores, with the default rules (DBA 3.0).
///
/// # Safety
/// `situation` must point to a valid `DbcoreSituation` and `out` must be valid for writes; either
/// may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_DIE` (§0.3) for a die outside 1..=6, `DBCORE_STATUS_INVALID_ARGUMENT`
/// for an enum or flag out of range, `DBCORE_STATUS_ELEMENT_CODE` for `Mtd-` on a kind that never
/// rides, `DBCORE_STATUS_ILLEGAL_SITUATION` when the rules refuse the situation (the rule is in
/// `dbcore_last_error_rule`).
///
/// # Example
/// ```c
/// DbcoreSituation sit = {0};
/// DbcoreCombatResult res;
/// dbcore_element_kind_parse("3Kn", &sit.a.kind);
/// dbcore_element_kind_parse("4Bd", &sit.b.kind);
/// if (dbcore_resolve(&sit, 4, 4, &res) == DBCORE_STATUS_OK)
///     printf("%d-%d: %s\n", res.a.total, res.b.total, res.a.rule); // 7-7, Knights destroyed
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_resolve(
    situation: *const DbcoreSituation,
    die_a: u8,
    die_b: u8,
    out: *mut DbcoreCombatResult,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `situation`.
        let sit = unsafe { arg(situation, "situation") }?.to_situation()?;
        let dice = [die(die_a, "die_a")?, die(die_b, "die_b")?];
        // Read where `resolve` left it: `?` would move the result (320 bytes) out first.
        let r = dbcore::resolve(&sit, dice, crate::default_rules());
        let r = match &r {
            Ok(r) => r,
            Err(e) => return Err(e.clone().into()),
        };
        // SAFETY: the caller's contract on `out`, checked non-NULL and aligned.
        unsafe { write_combat_result(out.as_ptr(), r) };
        Ok(())
    })
}

/// Resolve one close combat or shot as `dbcore_resolve` does, giving the compact result:
/// outcomes, bands, totals, the factors' sum, the rules (pointed to, not copied) and pursuit,
/// without the factor lists. The same values as `dbcore_resolve`, for less work per call; use
/// `dbcore_resolve` (or `dbcore_odds`) for the factors one by one.
///
/// # Safety
/// `situation` must point to a valid `DbcoreSituation` and `out` must be valid for writes; either
/// may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// As `dbcore_resolve`.
///
/// # Example
/// ```c
/// DbcoreSituation sit = {0};
/// DbcoreCompactResult res;
/// dbcore_element_kind_parse("3Kn", &sit.a.kind);
/// dbcore_element_kind_parse("4Bd", &sit.b.kind);
/// if (dbcore_resolve_compact(&sit, 4, 4, &res) == DBCORE_STATUS_OK)
///     printf("%d-%d: %.*s\n", res.a.total, res.b.total, (int)res.a.rule_len, res.a.rule);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_resolve_compact(
    situation: *const DbcoreSituation,
    die_a: u8,
    die_b: u8,
    out: *mut DbcoreCompactResult,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `situation`.
        let sit = unsafe { arg(situation, "situation") }?.to_situation()?;
        let dice = [die(die_a, "die_a")?, die(die_b, "die_b")?];
        // The brief result: the same values as `resolve`'s, without the factor lists.
        let c = match dbcore::combat::resolve_brief(&sit, dice, crate::default_rules()) {
            Ok(r) => compact_brief(&r),
            Err(e) => return Err(e.into()),
        };
        // SAFETY: the caller's contract on `out`, checked non-NULL and aligned.
        unsafe { out.write(c) };
        Ok(())
    })
}

/// Count the outcomes of a situation over all 36 pairs of dice, with the default rules.
///
/// # Safety
/// `situation` must point to a valid `DbcoreSituation` and `out` must be valid for writes; either
/// may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// As `dbcore_resolve`, without the dice.
///
/// # Example
/// ```c
/// DbcoreOdds odds;
/// if (dbcore_odds(&sit, &odds) == DBCORE_STATUS_OK)
///     printf("a destroyed in %u of 36\n", odds.a[DBCORE_OUTCOME_DESTROYED]);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_odds(
    situation: *const DbcoreSituation,
    out: *mut DbcoreOdds,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `situation`.
        let sit = unsafe { arg(situation, "situation") }?.to_situation()?;
        let prepared = Prepared::new(&sit, crate::default_rules())?;
        let c = odds_result(&prepared.odds(), &prepared)?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(c) };
        Ok(())
    })
}

/// Copy the words for a factor name (`"combat factor vs foot"`) into `buf`, NUL-terminated and
/// truncated to fit `len` bytes, and set `*out_len` (if not NULL) to the full length without the
/// NUL.
///
/// # Safety
/// `buf` must be valid for writes of `len` bytes (NULL only with `len` 0); `out_len` may be NULL.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` for a number that is no `DbcoreFactorName`.
///
/// # Example
/// ```c
/// char label[64];
/// dbcore_factor_label(res.a.factors[0].name, label, sizeof label, NULL);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_factor_label(
    name: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> DbcoreStatus {
    boundary(|| {
        let (_, n) = FACTOR_NAMES.get(name as usize).ok_or_else(|| {
            FfiError::invalid(format!(
                "name must be a DbcoreFactorName (0 to {}), not {name}",
                FACTOR_NAMES.len() - 1
            ))
        })?;
        if buf.is_null() && len != 0 {
            return Err(FfiError::null("buf (with len > 0)"));
        }
        // SAFETY: the caller's contract on `buf` and `len`.
        let full = unsafe { copy_out(n.label().as_bytes(), buf, len) };
        if !out_len.is_null() {
            // SAFETY: non-NULL; validity is the caller's contract.
            unsafe { Out::new(out_len, "out_len")?.write(full) };
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_names_are_numbered_in_order() {
        for (i, (c, r)) in FACTOR_NAMES.iter().enumerate() {
            assert_eq!(*c as usize, i);
            assert_eq!(factor_name(*r), *c);
        }
    }

    #[test]
    fn the_factor_name_mirror_is_dbcores_list_both_ways() {
        // Every dbcore factor has a C number, and every C number names a dbcore factor, once.
        assert_eq!(FACTOR_NAMES.len(), FactorName::ALL.len());
        for n in FactorName::ALL {
            let hits = FACTOR_NAMES.iter().filter(|(_, r)| *r == n).count();
            assert_eq!(hits, 1, "{n:?} is mirrored {hits} times");
        }
        for (c, r) in FACTOR_NAMES {
            assert!(FactorName::ALL.contains(&r), "{c:?} names no dbcore factor");
        }
        // The C numbers follow dbcore's order, so the labels list in the same order too.
        let mirrored: Vec<FactorName> = FACTOR_NAMES.iter().map(|(_, r)| *r).collect();
        assert_eq!(mirrored, FactorName::ALL.to_vec());
    }

    #[test]
    fn outcomes_index_as_dbcore_orders_them() {
        for (i, o) in Outcome::ALL.iter().enumerate() {
            assert_eq!(outcome(*o) as usize, i);
        }
    }

    fn kind(code: &str) -> DbcoreElementKind {
        DbcoreElementKind::from_kind(code.parse().unwrap())
    }

    #[test]
    fn a_c_situation_means_what_dbcore_means() {
        let mut s = DbcoreSituation::default();
        s.a.kind = kind("4Bd");
        s.a.general = 1;
        s.a.going = DbcoreGoing::Rough as u32;
        s.a.holding = DbcoreHolding::Defending as u32;
        s.a.place = DbcoreStronghold::Camp as u32;
        s.a.extra_assaulters = 1;
        s.b.kind = kind("Mtd-4Bw");
        s.b.holding = DbcoreHolding::Assaulting as u32;
        s.b.place = DbcoreStronghold::Camp as u32;
        s.b.side_supporters[1] = DbcoreSupporter {
            present: 1,
            kind: kind("4Bd"),
            going: DbcoreGoing::Bad as u32,
        };
        let want = Situation::close_combat(
            Combatant::new("4Bd".parse().unwrap())
                .general()
                .in_going(Going::Rough)
                .defending(Stronghold::Camp, 1),
            Combatant {
                side_supporters: vec![Supporter {
                    kind: "4Bd".parse().unwrap(),
                    going: Going::Bad,
                }]
                .into(),
                ..Combatant::new("Mtd-4Bw".parse().unwrap()).assaulting(Stronghold::Camp)
            },
        );
        assert_eq!(s.to_situation().unwrap(), want);
    }

    #[test]
    fn a_refused_value_is_named_by_its_path() {
        let mut s = DbcoreSituation::default();
        s.a.side_supporters[1] = DbcoreSupporter {
            present: 1,
            kind: kind("Sp"),
            going: 9,
        };
        let e = s.to_situation().unwrap_err();
        assert_eq!(e.code, dbcore::ErrorCode::InvalidArgument);
        assert!(
            e.message
                .starts_with("situation.a.side_supporters[1].going must be a DbcoreGoing"),
            "{}",
            e.message
        );
    }

    #[test]
    fn inconsistent_holdings_are_refused() {
        let mut s = DbcoreSituation::default();
        s.a.place = DbcoreStronghold::City as u32; // in the field, with a place
        assert!(s.to_situation().is_err());
        let mut s = DbcoreSituation::default();
        s.a.holding = DbcoreHolding::Defending as u32; // defending nothing
        assert!(s.to_situation().is_err());
        let mut s = DbcoreSituation::default();
        s.b.going = 3;
        assert_eq!(
            s.to_situation().unwrap_err().code,
            dbcore::ErrorCode::InvalidArgument
        );
    }

    /// A spread of C situations: each field of a combatant (and of the situation) set in turn to
    /// values in range and just out of it, on top of a few bases.
    fn c_situations() -> Vec<DbcoreSituation> {
        let mut base = DbcoreSituation::default();
        base.a.kind = kind("4Bd");
        base.b.kind = kind("3Kn");
        let mut out = vec![base];
        let values = [0u32, 1, 2, 3, 4, 255, 256, u32::MAX];
        type Set = fn(&mut DbcoreSituation, u32);
        let fields: [Set; 24] = [
            |s, v| s.engagement = v,
            |s, v| s.shooter = v,
            |s, v| s.support_shooters = v,
            |s, v| s.target_shoots_back = v,
            |s, v| s.from_behind = v,
            |s, v| s.a.kind.base = v,
            |s, v| s.a.kind.mounted_infantry = v,
            |s, v| s.a.general = v,
            |s, v| s.a.cinc_bonus = v,
            |s, v| s.a.going = v,
            |s, v| s.a.uphill = v,
            |s, v| s.a.defending_bank = v,
            |s, v| s.a.holding = v,
            |s, v| s.a.place = v,
            |s, v| s.a.extra_assaulters = v,
            |s, v| s.a.side_supporters[0].present = v,
            |s, v| s.a.side_supporters[1].kind.base = v,
            |s, v| s.a.side_supporters[1].going = v,
            |s, v| s.a.rear_supporter.present = v,
            |s, v| s.a.rear_supporter.kind.mounted_infantry = v,
            |s, v| s.a.flank_rear_contacts = v,
            |s, v| s.a.demoralised = v,
            |s, v| s.b.holding = v,
            |s, v| s.b.place = v,
        ];
        let mut bases = vec![base];
        let mut held = base;
        held.a.holding = DbcoreHolding::Defending as u32;
        held.a.place = DbcoreStronghold::City as u32;
        held.b.holding = DbcoreHolding::Assaulting as u32;
        held.b.place = DbcoreStronghold::City as u32;
        bases.push(held);
        let mut supported = base;
        supported.engagement = DbcoreEngagement::Shooting as u32;
        supported.a.kind = kind("Mtd-4Bw");
        supported.a.side_supporters[1].present = 1;
        supported.a.rear_supporter.present = 1;
        supported.a.rear_supporter.kind = kind("3Bw");
        bases.push(supported);
        for b in bases {
            for set in fields {
                for v in values {
                    let mut s = b;
                    set(&mut s, v);
                    out.push(s);
                    // And with a second field changed, so that two refusals meet.
                    for set2 in [fields[1], fields[9], fields[14], fields[18]] {
                        let mut t = s;
                        set2(&mut t, v.wrapping_add(1));
                        out.push(t);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_quick_conversion_is_the_named_one() {
        // The conversion of an in-range struct gives exactly the situation the field-by-field
        // one gives, and a struct with any value out of range is left to it (same refusal).
        let mut quick = 0;
        for s in c_situations() {
            let named = s.situation_named();
            assert_eq!(s.to_situation(), named, "{s:?}");
            if let Some(q) = s.in_range() {
                assert_eq!(Ok(q), named, "{s:?}");
                quick += 1;
            }
        }
        assert!(quick > 100, "{quick}");
    }

    #[test]
    fn a_result_written_in_place_is_the_one_built_whole() {
        // DBA3.md §11: every outcome and rule text, written field by field into a struct full
        // of other bytes, reads back as the struct `combat_result` builds.
        let cfg = dbcore::RulesConfig::default();
        let mut seen = 0;
        for s in c_situations() {
            let Ok(sit) = s.to_situation() else { continue };
            for (da, db) in [(1, 6), (3, 3), (6, 1), (4, 2)] {
                let dice = [DieScore::new(da).unwrap(), DieScore::new(db).unwrap()];
                let Ok(r) = dbcore::resolve(&sit, dice, &cfg) else {
                    continue;
                };
                let want = combat_result(&r);
                let mut got = std::mem::MaybeUninit::<DbcoreCombatResult>::uninit();
                // SAFETY: fill every byte first, then write a result into the struct.
                let got = unsafe {
                    std::ptr::write_bytes(got.as_mut_ptr(), 0xA5, 1);
                    write_combat_result(got.as_mut_ptr(), &r);
                    got.assume_init()
                };
                assert_eq!(got, want, "{sit:?}");
                seen += 1;
            }
        }
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn the_compact_result_of_the_brief_path_is_that_of_the_full_result() {
        // DBA3.md §10, §11: what `dbcore_resolve_compact` writes (from `resolve_brief`) is what
        // the compact form of `resolve`'s full result was, every field and rule pointer alike,
        // for every C situation and pair of dice; a refused situation is refused the same way.
        let cfg = dbcore::RulesConfig::default();
        let mut seen = 0;
        for s in c_situations() {
            let Ok(sit) = s.to_situation() else { continue };
            for da in DieScore::ALL {
                for db in DieScore::ALL {
                    let dice = [da, db];
                    match (
                        dbcore::resolve(&sit, dice, &cfg),
                        dbcore::combat::resolve_brief(&sit, dice, &cfg),
                    ) {
                        (Ok(full), Ok(brief)) => {
                            let want = compact_result(&full).expect("static rule texts");
                            assert_eq!(compact_brief(&brief), want, "{sit:?}");
                            seen += 1;
                        }
                        (Err(e), Err(f)) => assert_eq!(e, f, "{sit:?}"),
                        (full, brief) => panic!("{sit:?}: {full:?} against {brief:?}"),
                    }
                }
            }
        }
        assert!(seen > 1000, "{seen}");
    }
}
