//! The rules configuration: every number a house rule might change, as one serde value.
//!
//! [`RulesConfig::default`] is DBA 3.0 as `shared/rules/DBA3.md` reads it, including the values it
//! marks (1) single-source or (R) our reading (base depths §1.3, CP/Lit/CWg factors §17.19,
//! assaulters using their factor against foot §4.7, the −1 per support shooter §9.4…). A house rule
//! is a changed config, not a fork of the code.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

use crate::codes::{ErrorCode, ErrorInfo};
use crate::sizes::{LimitError, MAX_CONFIG_COUNT, MAX_CONFIG_DISTANCE, MAX_CONFIG_FACTOR};
use crate::troops::{BaseKind, ElementKind, FootClass, KindInfo};

/// The numbers of one base kind.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct KindRules {
    /// Base depth in BW, the one every rule uses (§1.3).
    pub depth: f64,
    /// Tactical move in good going, BW (§7.3).
    pub move_good: f64,
    /// Tactical move when any part of it is in rough or bad going, BW (§7.3).
    pub move_rough: f64,
    /// May move or deploy off-road in bad going (§7.3: not Artillery or War Wagons).
    pub may_enter_bad_going: bool,
    /// Combat factor against foot (§10.1).
    pub factor_vs_foot: i32,
    /// Combat factor against mounted (§10.1).
    pub factor_vs_mounted: i32,
    /// Combat factor when shot at, where it differs from the factor against foot (Blades +4, §10.1).
    pub factor_shot_at: Option<i32>,
    /// Distant shooting range in BW, for kinds that shoot (§9.1).
    pub shooting_range: Option<f64>,
}

/// The numbers of mounted infantry (`Mtd-X`): they fight and shoot as X, but move and are based
/// as mounted (§7.3, §1.3, §17.16).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MountedInfantryRules {
    /// Base depth, BW (§1.3).
    pub depth: f64,
    /// Move in good going, BW (§7.3).
    pub move_good: f64,
    /// Move in rough or bad going when X is Solid foot.
    pub move_rough_solid: f64,
    /// Move in rough or bad going when X is Fast foot.
    pub move_rough_fast: f64,
}

/// Switches and numbers for close combat and shooting that the digest marks as readings or as
/// single-source.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    /// Artillery garrisoning a City or Fort fights and shoots at this factor (§4.2, §10.1).
    pub artillery_in_city_or_fort: i32,
    /// Penalty to the target for each supporting shooter beyond the main one (§9.4).
    pub support_shooter_penalty: i32,
    /// At most this many supporting shooters (§9.4).
    pub max_support_shooters: u8,
    /// At most this many assaulters beyond the first count −1 each against a stronghold (§4.7).
    pub max_extra_assaulters: u8,
    /// Assaulters of a city, fort or camp use their factor against foot, with no overlaps,
    /// supports or double-element +1 (§4.7, single source).
    pub assaulters_use_factor_vs_foot: bool,
    /// Elephants, Scythed Chariots and War Wagons may not occupy a Fort, as for a City (§17.37).
    pub fort_occupier_exclusion: bool,
    /// A battlefield edge along an element's side edge counts as an overlap of that flank (−1,
    /// §10.3), except for Cv, LCh, LH and LCm, which TTS says it does not affect (§17.21). The
    /// digest's reading is `false`: battlefield edges never overlap.
    #[serde(default)]
    pub battlefield_edge_overlaps: bool,
}

/// Movement readings the digest asks to keep switchable.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MoveRules {
    /// Elements in close combat still project a threat zone (§8.1). The digest's reading is
    /// `false`: they project none (§17.15, after a playtest answer).
    #[serde(default)]
    pub close_combat_threat_zones: bool,
    /// A Psiloi second move (§7.5) may end partly in rough as well as bad going, as the quick
    /// reference sheets word it. The digest's reading is `false`: bad going only, as the seed
    /// says (§17.50).
    #[serde(default)]
    pub psiloi_second_move_into_rough: bool,
}

/// PIP readings (§6.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PipRules {
    /// Scythed Chariots moving into contact do not pay the +1 of §6.3 (a): all four quick
    /// reference sheets say so, the seed does not (§17.11).
    pub sch_extra_pip_waived_into_contact: bool,
    /// Big Battle and Giant: Plough is rough for the game if the first bound's PIP dice total
    /// less than this (§14.4; the seed's sentence is cut off, TTS gives 8, §17.7b). Omitted from
    /// JSON at its default.
    #[serde(
        default = "default_plough_below",
        skip_serializing_if = "is_default_plough_below"
    )]
    pub big_battle_plough_below: u8,
    /// Big Battle and Giant: lost Hordes count toward the army's defeat. The seed's defeat
    /// sentence leaves them out of its exclusions, most likely a dropped word: our reading
    /// excludes them as demoralisation and the standard game do (§17.9), so the default is
    /// false. Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub big_battle_defeat_counts_hordes: bool,
}

fn default_plough_below() -> u8 {
    8
}

fn is_default_plough_below(v: &u8) -> bool {
    *v == default_plough_below()
}

impl Default for PipRules {
    fn default() -> Self {
        PipRules {
            sch_extra_pip_waived_into_contact: true,
            big_battle_plough_below: default_plough_below(),
            big_battle_defeat_counts_hordes: false,
        }
    }
}

/// The whole rules configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// Per base kind, keyed by code (`"4Bd"`).
    pub kinds: KindTable,
    /// The numbers of mounted infantry.
    pub mounted_infantry: MountedInfantryRules,
    /// Combat numbers a house rule may change (those the digest marks as single-source or our
    /// reading).
    pub combat: CombatRules,
    /// PIP readings (§6.3).
    #[serde(default)]
    pub pips: PipRules,
    /// Movement readings kept switchable (§7, §8, §17).
    #[serde(default)]
    pub moves: MoveRules,
}

/// A configuration that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// The table has no numbers for this base kind.
    #[error("rules configuration has no entry for element kind {0}")]
    MissingKind(BaseKind),
    /// A number out of its range.
    #[error("rules configuration: {what} of {kind} must be {expected}, not {value}")]
    BadValue {
        /// The kind, or section of the configuration, it belongs to.
        kind: String,
        /// Which number.
        what: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What it is.
        value: f64,
    },
    /// A number outside the ranges of [`crate::limits::check_config`].
    #[error("rules configuration: {0}")]
    Limit(crate::sizes::LimitError),
}

impl ErrorInfo for ConfigError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }
    fn rule(&self) -> Option<&'static str> {
        None
    }
}

#[allow(clippy::too_many_arguments)]
const fn k(
    depth: f64,
    move_good: f64,
    move_rough: f64,
    vs_foot: i32,
    vs_mounted: i32,
    shot_at: Option<i32>,
    range: Option<f64>,
    bad_going: bool,
) -> KindRules {
    KindRules {
        depth,
        move_good,
        move_rough,
        may_enter_bad_going: bad_going,
        factor_vs_foot: vs_foot,
        factor_vs_mounted: vs_mounted,
        factor_shot_at: shot_at,
        shooting_range: range,
    }
}

/// The default numbers of a base kind: depths §1.3, moves §7.3, factors §10.1, ranges §9.1.
pub const fn default_kind_rules(b: BaseKind) -> KindRules {
    use BaseKind::*;
    match b {
        El => k(1.0, 3.0, 1.0, 5, 4, None, None, true),
        Kn3 | Kn4 => k(0.75, 3.0, 1.0, 3, 4, None, None, true),
        Kn6 => k(1.5, 3.0, 1.0, 3, 4, None, None, true),
        HCh => k(1.0, 3.0, 1.0, 3, 4, None, None, true),
        Cv => k(0.75, 4.0, 1.0, 3, 3, None, None, true),
        Cv6 => k(1.5, 4.0, 1.0, 3, 3, None, None, true),
        LCh => k(1.0, 4.0, 1.0, 3, 3, None, None, true),
        LH | LCm => k(0.75, 4.0, 1.0, 2, 2, None, None, true),
        SCh => k(1.0, 4.0, 1.0, 3, 4, None, None, true),
        Cm => k(0.75, 3.0, 1.0, 3, 3, None, None, true),
        Sp => k(0.375, 2.0, 1.0, 4, 4, None, None, true),
        Sp8 => k(0.75, 2.0, 1.0, 4, 4, None, None, true),
        Pk4 => k(0.375, 2.0, 1.0, 3, 4, None, None, true),
        Pk3 => k(0.5, 3.0, 3.0, 3, 4, None, None, true),
        Bd4 => k(0.375, 2.0, 1.0, 5, 3, Some(4), None, true),
        Bd3 => k(0.5, 3.0, 3.0, 5, 3, Some(4), None, true),
        Bd6 => k(1.0, 3.0, 3.0, 5, 3, Some(4), None, true),
        Ax4 => k(0.5, 2.0, 2.0, 3, 3, None, None, true),
        Ax3 => k(0.5, 3.0, 3.0, 3, 3, None, None, true),
        Bw4 | Lb4 | Cb4 => k(0.5, 2.0, 1.0, 2, 4, None, Some(3.0), true),
        Bw3 | Lb3 | Cb3 => k(0.5, 3.0, 3.0, 2, 4, None, Some(3.0), true),
        Bw8 | Lb8 | Cb8 => k(1.0, 2.0, 1.0, 2, 4, None, Some(3.0), true),
        Ps => k(0.5, 3.0, 3.0, 2, 2, None, None, true),
        Wb4 => k(0.375, 2.0, 2.0, 3, 2, None, None, true),
        Wb3 => k(0.5, 3.0, 3.0, 3, 2, None, None, true),
        Hd7 => k(1.0, 2.0, 1.0, 3, 2, None, None, true),
        Hd5 => k(0.75, 3.0, 3.0, 3, 2, None, None, true),
        Art => k(1.0, 2.0, 1.0, 4, 4, None, Some(5.0), false),
        WWg => k(1.0, 2.0, 1.0, 3, 4, None, Some(3.0), false),
        CP | Lit | CWg => k(1.0, 2.0, 1.0, 5, 3, Some(4), None, true),
        CampFollowers | Denizens => k(0.5, 2.0, 1.0, 2, 0, None, None, true),
    }
}

impl Default for RulesConfig {
    fn default() -> Self {
        RulesConfig {
            kinds: BaseKind::ALL
                .iter()
                .map(|&b| (b, default_kind_rules(b)))
                .collect(),
            mounted_infantry: MountedInfantryRules {
                depth: 0.75,
                move_good: 3.0,
                move_rough_solid: 1.0,
                move_rough_fast: 3.0,
            },
            combat: CombatRules {
                artillery_in_city_or_fort: 2,
                support_shooter_penalty: 1,
                max_support_shooters: 2,
                max_extra_assaulters: 2,
                assaulters_use_factor_vs_foot: true,
                fort_occupier_exclusion: true,
                battlefield_edge_overlaps: false,
            },
            pips: PipRules::default(),
            moves: MoveRules::default(),
        }
    }
}

impl RulesConfig {
    /// Check that every kind has an entry, every distance is positive and every number is within
    /// the ranges of [`crate::limits::check_config`], reporting the first problem.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for b in BaseKind::ALL {
            let r = self.kinds.get(&b).ok_or(ConfigError::MissingKind(b))?;
            for (what, v) in [
                ("depth", r.depth),
                ("move_good", r.move_good),
                ("move_rough", r.move_rough),
            ] {
                if !(v.is_finite() && v > 0.0) {
                    return Err(ConfigError::BadValue {
                        kind: b.code().to_string(),
                        what,
                        expected: "a positive number of BW",
                        value: v,
                    });
                }
            }
        }
        let m = &self.mounted_infantry;
        for (what, v) in [
            ("depth", m.depth),
            ("move_good", m.move_good),
            ("move_rough_solid", m.move_rough_solid),
            ("move_rough_fast", m.move_rough_fast),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(ConfigError::BadValue {
                    kind: "Mtd-X".to_string(),
                    what,
                    expected: "a positive number of BW",
                    value: v,
                });
            }
        }
        check_config(self).map_err(ConfigError::Limit)
    }

    /// The numbers of a base kind, falling back to the default table if the entry is missing.
    #[inline]
    pub fn kind(&self, b: BaseKind) -> KindRules {
        self.kinds
            .get(&b)
            .copied()
            .unwrap_or_else(|| default_kind_rules(b))
    }

    /// Base depth in BW used by every rule (§1.3).
    pub fn depth(&self, kind: ElementKind) -> f64 {
        if kind.is_mounted_infantry() {
            self.mounted_infantry.depth
        } else {
            self.kind(kind.base()).depth
        }
    }

    /// Maximum tactical move (§7.3) in good going, or with any part in rough or bad going.
    pub fn move_distance(&self, kind: ElementKind, rough_or_bad: bool) -> f64 {
        if kind.is_mounted_infantry() {
            let m = &self.mounted_infantry;
            return match (rough_or_bad, kind.moves_as()) {
                (false, _) => m.move_good,
                (true, Some(FootClass::Fast)) => m.move_rough_fast,
                (true, _) => m.move_rough_solid,
            };
        }
        let r = self.kind(kind.base());
        if rough_or_bad {
            r.move_rough
        } else {
            r.move_good
        }
    }

    /// Shooting range in BW, for kinds that shoot (§9.1).
    pub fn shooting_range(&self, kind: ElementKind) -> Option<f64> {
        self.kind(kind.base()).shooting_range
    }
}

/// Every base kind in index order, as a `static` so that the table can lend `&BaseKind` keys.
static KINDS: [BaseKind; BaseKind::ALL.len()] = BaseKind::ALL;

/// The per-kind numbers of a [`RulesConfig`]: a map from base kind to [`KindRules`], stored as one
/// slot per kind so that a look-up (behind every element's rectangle) is an index, not a search.
/// It reads and writes as the map it is (keyed by code, in kind order, the order a `BTreeMap` of
/// kinds had), compares as that map, and offers the map's methods (`get`, `get_mut`, `insert`,
/// `remove`, `contains_key`, `len`, `iter`).
#[derive(Clone, PartialEq)]
pub struct KindTable {
    /// One heap block, so that a configuration (and every set-up holding one) stays small.
    slots: Box<[Option<KindRules>; BaseKind::ALL.len()]>,
}

impl Default for KindTable {
    fn default() -> KindTable {
        KindTable {
            slots: Box::new([None; BaseKind::ALL.len()]),
        }
    }
}

impl KindTable {
    /// An empty table.
    pub fn new() -> KindTable {
        KindTable::default()
    }

    /// The numbers of `kind`, if the table has them.
    #[inline]
    pub fn get(&self, kind: &BaseKind) -> Option<&KindRules> {
        self.slots[kind.index()].as_ref()
    }

    /// The numbers of `kind` to change, if the table has them.
    pub fn get_mut(&mut self, kind: &BaseKind) -> Option<&mut KindRules> {
        self.slots[kind.index()].as_mut()
    }

    /// Set the numbers of `kind`, returning those it replaces.
    pub fn insert(&mut self, kind: BaseKind, rules: KindRules) -> Option<KindRules> {
        self.slots[kind.index()].replace(rules)
    }

    /// Take the numbers of `kind` out of the table.
    pub fn remove(&mut self, kind: &BaseKind) -> Option<KindRules> {
        self.slots[kind.index()].take()
    }

    /// Whether the table has numbers for `kind`.
    pub fn contains_key(&self, kind: &BaseKind) -> bool {
        self.get(kind).is_some()
    }

    /// How many kinds have numbers.
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Whether the table has no numbers at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kinds with numbers, in kind order.
    pub fn iter(&self) -> impl Iterator<Item = (&BaseKind, &KindRules)> + '_ {
        KINDS
            .iter()
            .zip(self.slots.iter())
            .filter_map(|(k, s)| s.as_ref().map(|r| (k, r)))
    }
}

impl<'a> IntoIterator for &'a KindTable {
    type Item = (&'a BaseKind, &'a KindRules);
    type IntoIter = Box<dyn Iterator<Item = (&'a BaseKind, &'a KindRules)> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl FromIterator<(BaseKind, KindRules)> for KindTable {
    fn from_iter<I: IntoIterator<Item = (BaseKind, KindRules)>>(iter: I) -> KindTable {
        let mut t = KindTable::new();
        for (k, r) in iter {
            t.insert(k, r);
        }
        t
    }
}

impl From<BTreeMap<BaseKind, KindRules>> for KindTable {
    fn from(map: BTreeMap<BaseKind, KindRules>) -> KindTable {
        map.into_iter().collect()
    }
}

impl From<KindTable> for BTreeMap<BaseKind, KindRules> {
    fn from(t: KindTable) -> BTreeMap<BaseKind, KindRules> {
        t.iter().map(|(k, r)| (*k, *r)).collect()
    }
}

impl std::fmt::Debug for KindTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for KindTable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for KindTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KindTable, D::Error> {
        // Straight into the slots, as a map of kinds would read (a later entry for a kind
        // replaces an earlier one), without building the map first.
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = KindTable;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KindTable, A::Error> {
                let mut t = KindTable::new();
                while let Some((k, r)) = map.next_entry::<BaseKind, KindRules>()? {
                    t.insert(k, r);
                }
                Ok(t)
            }
        }
        d.deserialize_map(Entries)
    }
}

/// The schema of the map it reads and writes.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for KindTable {
    fn inline_schema() -> bool {
        <BTreeMap<BaseKind, KindRules> as schemars::JsonSchema>::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <BTreeMap<BaseKind, KindRules> as schemars::JsonSchema>::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        <BTreeMap<BaseKind, KindRules> as schemars::JsonSchema>::schema_id()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <BTreeMap<BaseKind, KindRules> as schemars::JsonSchema>::json_schema(g)
    }
}

// Kept here rather than in `troops` (the kinds themselves), so that the troops need not import
// the configuration that is built from them (#48).
impl ElementKind {
    /// Its facts and numbers under `cfg`.
    pub fn info(self, cfg: &RulesConfig) -> KindInfo {
        let r = cfg.kind(self.base());
        let name = if self.is_mounted_infantry() {
            format!("Mounted {}", self.base().name())
        } else {
            self.base().name().to_string()
        };
        KindInfo {
            code: self.to_string(),
            name,
            troop_type: self.troop_type(),
            class: self.class(),
            mounted_infantry: self.is_mounted_infantry(),
            moves_as: self.moves_as(),
            fights_as: self.fights_as(),
            double: self.is_double(),
            camel_mounted: self.is_camel_mounted(),
            general_only: self.is_general_only(),
            civilian: self.is_civilian(),
            shoots: self.shoots(),
            extra_pip: self.costs_extra_pip(),
            never_contacts_enemy: self.never_contacts_enemy(),
            pursuit: self.pursuit(),
            depth: cfg.depth(self),
            move_good: cfg.move_distance(self, false),
            move_rough: cfg.move_distance(self, true),
            factor_vs_foot: r.factor_vs_foot,
            factor_vs_mounted: r.factor_vs_mounted,
            factor_shot_at: r.factor_shot_at,
            shooting_range: cfg.shooting_range(self),
        }
    }
}

/// The numeric ranges of a rules configuration (called by [`RulesConfig::validate`]): distances
/// positive and at most [`MAX_CONFIG_DISTANCE`], factors within ±[`MAX_CONFIG_FACTOR`], counts at
/// most [`MAX_CONFIG_COUNT`]. Within these no combat total can overflow.
pub fn check_config(cfg: &RulesConfig) -> Result<(), LimitError> {
    let distance = |what: &dyn Fn() -> String, v: f64| -> Result<(), LimitError> {
        if v.is_finite() && v > 0.0 && v <= MAX_CONFIG_DISTANCE {
            Ok(())
        } else {
            Err(LimitError::new(
                what(),
                v,
                format!("a positive number of BW up to {MAX_CONFIG_DISTANCE}"),
            ))
        }
    };
    let factor = |what: &dyn Fn() -> String, v: i32| -> Result<(), LimitError> {
        if (-MAX_CONFIG_FACTOR..=MAX_CONFIG_FACTOR).contains(&v) {
            Ok(())
        } else {
            Err(LimitError::new(
                what(),
                v,
                format!("a whole number from -{MAX_CONFIG_FACTOR} to {MAX_CONFIG_FACTOR}"),
            ))
        }
    };
    let count = |what: &dyn Fn() -> String, v: u8| -> Result<(), LimitError> {
        if v <= MAX_CONFIG_COUNT {
            Ok(())
        } else {
            Err(LimitError::new(
                what(),
                v,
                format!("at most {MAX_CONFIG_COUNT}"),
            ))
        }
    };
    for (b, r) in &cfg.kinds {
        let at = |field: &str| format!("kinds.{b}.{field}");
        distance(&|| at("depth"), r.depth)?;
        distance(&|| at("move_good"), r.move_good)?;
        distance(&|| at("move_rough"), r.move_rough)?;
        if let Some(range) = r.shooting_range {
            distance(&|| at("shooting_range"), range)?;
        }
        factor(&|| at("factor_vs_foot"), r.factor_vs_foot)?;
        factor(&|| at("factor_vs_mounted"), r.factor_vs_mounted)?;
        if let Some(f) = r.factor_shot_at {
            factor(&|| at("factor_shot_at"), f)?;
        }
    }
    let m = &cfg.mounted_infantry;
    distance(&|| "mounted_infantry.depth".into(), m.depth)?;
    distance(&|| "mounted_infantry.move_good".into(), m.move_good)?;
    distance(
        &|| "mounted_infantry.move_rough_solid".into(),
        m.move_rough_solid,
    )?;
    distance(
        &|| "mounted_infantry.move_rough_fast".into(),
        m.move_rough_fast,
    )?;
    let c = &cfg.combat;
    factor(
        &|| "combat.artillery_in_city_or_fort".into(),
        c.artillery_in_city_or_fort,
    )?;
    factor(
        &|| "combat.support_shooter_penalty".into(),
        c.support_shooter_penalty,
    )?;
    count(
        &|| "combat.max_support_shooters".into(),
        c.max_support_shooters,
    )?;
    count(
        &|| "combat.max_extra_assaulters".into(),
        c.max_extra_assaulters,
    )?;
    Ok(())
}

#[cfg(test)]
mod kind_table_tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_slot_in_kind_order() {
        for (i, k) in BaseKind::ALL.iter().enumerate() {
            assert_eq!(k.index(), i, "{k}");
        }
        let mut sorted = BaseKind::ALL;
        sorted.sort();
        assert_eq!(
            sorted,
            BaseKind::ALL,
            "kind order is the order of a BTreeMap of kinds"
        );
    }

    #[test]
    fn the_table_reads_and_writes_as_the_map_did() {
        let cfg = RulesConfig::default();
        let map: BTreeMap<BaseKind, KindRules> = cfg.kinds.clone().into();
        assert_eq!(map.len(), BaseKind::ALL.len());
        assert_eq!(
            serde_json::to_string(&cfg.kinds).expect("json"),
            serde_json::to_string(&map).expect("json")
        );
        let mut partial = map.clone();
        partial.remove(&BaseKind::Ps);
        let text = serde_json::to_string(&partial).expect("json");
        let back: KindTable = serde_json::from_str(&text).expect("reads");
        assert_eq!(back.len(), partial.len());
        assert!(!back.contains_key(&BaseKind::Ps));
        assert_eq!(serde_json::to_string(&back).expect("json"), text);
        assert_eq!(format!("{back:?}"), format!("{partial:?}"));
    }
}
