//! Combat factors (DBA3.md §9.6, §10.1–§10.3): their names, the short list a side's total is made
//! of, and the count of every factor of one side against the other.

use super::*;

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
pub(super) const NO_FACTOR: Factor = Factor {
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
    pub(super) fn push_nonzero(&mut self, name: FactorName, value: i32) {
        if value != 0 {
            self.push(Factor { name, value });
        }
    }

    /// Add a factor; a side counts at most 14 (see the type's doc), fewer than the capacity.
    pub(super) fn push(&mut self, f: Factor) {
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

/// Every factor of `x` fighting or shooting `w` (§9.6, §10.1, §10.3).
pub(super) fn factors(
    x: &Combatant,
    w: &Combatant,
    role: Role,
    e: &Engagement,
    cfg: &RulesConfig,
) -> Factors {
    let mut v = Factors::new();
    count_factors(&mut v, x, w, role, e, cfg);
    v
}

/// Where [`count_factors`] puts what it counts: a list of every factor ([`Factors`]), or only
/// their sum ([`FactorSum`]), for callers that need the total alone.
pub(super) trait FactorSink {
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
pub(super) struct FactorSum(pub(super) i32);

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
pub(super) struct Tally {
    pub(super) list: Factors,
    pub(super) sum: i32,
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
pub(super) fn count_both<S: FactorSink>(
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
pub(super) fn count_factors(
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
pub(super) fn count_factors_inline(
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
pub(super) fn gives_side_support(x: ElementKind, friend: ElementKind) -> bool {
    let solid_bd = friend.troop_type() == TroopType::Bd && friend.is_solid_foot();
    match x.troop_type() {
        TroopType::Sp => {
            friend.troop_type() == TroopType::Sp || solid_bd || friend.is_general_only()
        }
        TroopType::Bw => x.is_solid_foot() && solid_bd,
        _ => false,
    }
}

pub(super) fn is(t: TroopType, set: &[TroopType]) -> bool {
    set.contains(&t)
}
