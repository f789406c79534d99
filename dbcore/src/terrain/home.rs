//! Feature types and home terrain (DBA3.md §3.7): which features an army's home topography
//! compels or allows, and the check of a chosen list against it.

use super::*;

/// A feature type as counted by §3.7 (every BUA kind counts as `Bua`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FeatureType {
    /// Any built-up area: hamlet, Edifice, City or Fort (§4.1).
    Bua,
    /// A gentle hill.
    GentleHill,
    /// A difficult hill.
    DifficultHill,
    /// A wood.
    Wood,
    /// A marsh.
    Marsh,
    /// A gully.
    Gully,
    /// Dunes.
    Dunes,
    /// An oasis.
    Oasis,
    /// Rocky ground.
    Rocky,
    /// Scrub.
    Scrub,
    /// Boggy ground.
    Boggy,
    /// Enclosures.
    Enclosures,
    /// Plough.
    Plough,
    /// A river.
    River,
    /// A road.
    Road,
    /// A waterway.
    Waterway,
}

/// The feature type as players name it: "BUA", "gentle hill", "rocky ground", "river".
impl std::fmt::Display for FeatureType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use FeatureType::*;
        f.write_str(match self {
            Bua => "BUA",
            GentleHill => AreaKind::GentleHill.game_name(),
            DifficultHill => AreaKind::DifficultHill.game_name(),
            Wood => AreaKind::Wood.game_name(),
            Marsh => AreaKind::Marsh.game_name(),
            Gully => AreaKind::Gully.game_name(),
            Dunes => AreaKind::Dunes.game_name(),
            Oasis => AreaKind::Oasis.game_name(),
            Rocky => AreaKind::Rocky.game_name(),
            Scrub => AreaKind::Scrub.game_name(),
            Boggy => AreaKind::Boggy.game_name(),
            Enclosures => AreaKind::Enclosures.game_name(),
            Plough => AreaKind::Plough.game_name(),
            River => "river",
            Road => "road",
            Waterway => "waterway",
        })
    }
}

/// Items of a list for a message, joined by commas: "wood, river".
pub(crate) fn listed<T: std::fmt::Display>(items: &[T]) -> String {
    if items.is_empty() {
        return "none".to_string();
    }
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Per-variant counts of §3.7, §14.2, §14.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TerrainLimits {
    /// Compulsory features the defender picks: (min, max).
    pub compulsory: (u8, u8),
    /// Optional features: (min, max).
    pub optional: (u8, u8),
    /// At most this many of Waterway, River, Oasis, Gully, BUA.
    pub max_single: u8,
    /// At most this many roads.
    pub max_roads: u8,
    /// At most this many of any other type.
    pub max_other: u8,
}

impl TerrainLimits {
    /// §3.7 (standard), §14.2 (BBDBA: same maxima), §14.6 (Giant: at most 4 of a type). For Giant
    /// we read "at most 4 of one type" as raising only the general limit of 3: the one-only types
    /// and the two roads keep their limits (they describe one coast, one river, one town).
    pub fn for_variant(v: Variant) -> TerrainLimits {
        match v {
            // DBAix keeps its own table (dbaix::DbaixSetup); DBA terrain limits as standard.
            Variant::Standard | Variant::Dbaix => TerrainLimits {
                compulsory: (1, 2),
                optional: (2, 3),
                max_single: 1,
                max_roads: 2,
                max_other: 3,
            },
            Variant::BigBattle => TerrainLimits {
                compulsory: (1, 3),
                optional: (2, 4),
                max_single: 1,
                max_roads: 2,
                max_other: 3,
            },
            Variant::Giant => TerrainLimits {
                compulsory: (1, 4),
                optional: (3, 6),
                max_single: 1,
                max_roads: 2,
                max_other: 4,
            },
        }
    }

    /// The maximum number of features of type `t`.
    pub fn max_of(&self, t: FeatureType) -> u8 {
        match t {
            FeatureType::Waterway
            | FeatureType::River
            | FeatureType::Oasis
            | FeatureType::Gully
            | FeatureType::Bua => self.max_single,
            FeatureType::Road => self.max_roads,
            _ => self.max_other,
        }
    }
}

/// An army's home terrain (§3.7, §16.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HomeTerrain {
    /// Arable: farmland, the commonest home terrain.
    Arable,
    /// Forest.
    Forest,
    /// Hilly.
    Hilly,
    /// Steppe.
    Steppe,
    /// Dry.
    Dry,
    /// Tropical.
    Tropical,
    /// Littoral: the army may come by sea, and the table has a waterway (§3.4, §5.5).
    Littoral,
}

/// The home terrain as players name it: "arable", "littoral".
impl std::fmt::Display for HomeTerrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HomeTerrain::Arable => "arable",
            HomeTerrain::Forest => "forest",
            HomeTerrain::Hilly => "hilly",
            HomeTerrain::Steppe => "steppe",
            HomeTerrain::Dry => "dry",
            HomeTerrain::Tropical => "tropical",
            HomeTerrain::Littoral => "littoral",
        })
    }
}

/// The feature kind by its game name ([`AreaKind::game_name`]).
impl std::fmt::Display for AreaKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.game_name())
    }
}

/// One way to satisfy the compulsory choice: between `min` and `max` features, each of one of
/// `types` (e.g. "1–2 Rocky or Scrub").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CompulsoryOption {
    /// The feature types any of which count towards the option.
    pub types: Vec<FeatureType>,
    /// The fewest features of those types.
    pub min: u8,
    /// The most features of those types.
    pub max: u8,
}

/// A home terrain's §3.7 row as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HomeTerrainList {
    /// The home terrain.
    pub terrain: HomeTerrain,
    /// The compulsory features must match one of these options.
    pub compulsory: Vec<CompulsoryOption>,
    /// Types allowed as optional features.
    pub optional: Vec<FeatureType>,
    /// Pairs of optional types of which at most one may be chosen ("Difficult hills **or** Marsh").
    pub exclusive_pairs: Vec<(FeatureType, FeatureType)>,
}

impl HomeTerrain {
    /// Every home terrain, in declaration order.
    pub const ALL: [HomeTerrain; 7] = [
        HomeTerrain::Arable,
        HomeTerrain::Forest,
        HomeTerrain::Hilly,
        HomeTerrain::Steppe,
        HomeTerrain::Dry,
        HomeTerrain::Tropical,
        HomeTerrain::Littoral,
    ];

    /// The §3.7 row. "Extra X" in the optional column is read as "X is allowed as optional".
    pub fn list(self) -> HomeTerrainList {
        use FeatureType as F;
        let opt = |types: &[F], min, max| CompulsoryOption {
            types: types.to_vec(),
            min,
            max,
        };
        let (compulsory, optional, exclusive_pairs) = match self {
            HomeTerrain::Arable => (
                vec![opt(&[F::Bua], 1, 1), opt(&[F::Plough], 2, 2)],
                vec![
                    F::River,
                    F::DifficultHill,
                    F::GentleHill,
                    F::Wood,
                    F::Plough,
                    F::Enclosures,
                    F::Road,
                    F::Waterway,
                    F::Scrub,
                    F::Boggy,
                ],
                vec![],
            ),
            HomeTerrain::Forest => (
                vec![opt(&[F::Wood], 1, 2)],
                vec![F::River, F::Marsh, F::GentleHill, F::Wood, F::Bua],
                vec![],
            ),
            HomeTerrain::Hilly => (
                vec![opt(&[F::DifficultHill], 1, 2)],
                vec![F::River, F::Wood, F::Bua, F::Road, F::DifficultHill],
                vec![],
            ),
            HomeTerrain::Steppe => (
                vec![opt(&[F::GentleHill], 1, 2)],
                vec![F::River, F::Rocky, F::Scrub, F::Gully, F::Bua],
                vec![],
            ),
            HomeTerrain::Dry => (
                vec![opt(&[F::Rocky, F::Scrub], 1, 2)],
                vec![F::Dunes, F::DifficultHill, F::Oasis, F::Bua],
                vec![],
            ),
            HomeTerrain::Tropical => (
                vec![opt(&[F::Wood], 1, 2)],
                vec![
                    F::River,
                    F::Marsh,
                    F::Gully,
                    F::Bua,
                    F::Enclosures,
                    F::Road,
                    F::Wood,
                ],
                vec![],
            ),
            HomeTerrain::Littoral => (
                vec![opt(&[F::Waterway], 1, 1)],
                vec![
                    F::DifficultHill,
                    F::Marsh,
                    F::Wood,
                    F::Dunes,
                    F::Bua,
                    F::Road,
                    F::River,
                ],
                vec![(F::DifficultHill, F::Marsh), (F::Wood, F::Dunes)],
            ),
        };
        HomeTerrainList {
            terrain: self,
            compulsory,
            optional,
            exclusive_pairs,
        }
    }
}

/// A problem with the defender's choice of features from its home terrain (§3.7).
#[derive(Debug, Clone, PartialEq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum HomeTerrainProblem {
    /// Too few or too many compulsory features for the variant (§3.7).
    #[error("§3.7: {count} compulsory features chosen, the variant allows {min} to {max}")]
    CompulsoryCount {
        /// Compulsory features chosen.
        count: usize,
        /// The fewest allowed.
        min: u8,
        /// The most allowed.
        max: u8,
    },
    /// The compulsory features chosen match none of the home terrain's options (§3.7).
    #[error("§3.7: the compulsory features chosen ({}) match no compulsory option of {terrain} home terrain", listed(.chosen))]
    CompulsoryMismatch {
        /// The defender's home terrain.
        terrain: HomeTerrain,
        /// The compulsory features chosen.
        chosen: Vec<FeatureType>,
    },
    /// Too few or too many optional features for the variant (§3.7).
    #[error("§3.7: {count} optional features chosen, the variant allows {min} to {max}")]
    OptionalCount {
        /// Optional features chosen.
        count: usize,
        /// The fewest allowed.
        min: u8,
        /// The most allowed.
        max: u8,
    },
    /// An optional feature the home terrain does not allow (§3.7).
    #[error("§3.7: {feature} is not an optional feature of {terrain} home terrain")]
    NotOptional {
        /// The defender's home terrain.
        terrain: HomeTerrain,
        /// The feature refused.
        feature: FeatureType,
    },
    /// Both features of a pair the home terrain allows only one of (§3.7).
    #[error("§3.7: {terrain} home terrain allows {a} or {b} as optional features, not both")]
    BothOfPair {
        /// The defender's home terrain.
        terrain: HomeTerrain,
        /// One of the pair.
        a: FeatureType,
        /// The other.
        b: FeatureType,
    },
    /// More features of one type than §3.7 allows.
    #[error("§3.7: {count} features of type {feature}, at most {max} allowed")]
    TooMany {
        /// The feature type.
        feature: FeatureType,
        /// Features of that type chosen.
        count: usize,
        /// The most allowed.
        max: u8,
    },
}

impl HomeTerrainProblem {
    /// The digest section the problem breaks.
    pub fn rule(&self) -> &'static str {
        "§3.7"
    }
}

/// Check the defender's chosen compulsory and optional features against its home terrain and the
/// variant's counts (§3.7, §14.2, §14.6). Every problem is reported.
///
/// For BBDBA and Giant, ranged compulsory options ("1–2 Woods") may stretch up to the variant's
/// compulsory maximum; fixed ones ("1 BUA", "2 Plough", "1 Waterway") stay as written.
pub fn check_home_terrain(
    terrain: HomeTerrain,
    variant: Variant,
    compulsory: &[FeatureType],
    optional: &[FeatureType],
) -> Vec<HomeTerrainProblem> {
    let limits = TerrainLimits::for_variant(variant);
    let list = terrain.list();
    let mut problems = Vec::new();
    let (cmin, cmax) = limits.compulsory;
    if compulsory.len() < cmin as usize || compulsory.len() > cmax as usize {
        problems.push(HomeTerrainProblem::CompulsoryCount {
            count: compulsory.len(),
            min: cmin,
            max: cmax,
        });
    }
    let matches = list.compulsory.iter().any(|o| {
        let max = if o.min == o.max {
            o.max
        } else {
            o.max.max(cmax)
        };
        compulsory.iter().all(|t| o.types.contains(t))
            && compulsory.len() >= o.min as usize
            && compulsory.len() <= max as usize
    });
    if !matches {
        problems.push(HomeTerrainProblem::CompulsoryMismatch {
            terrain,
            chosen: compulsory.to_vec(),
        });
    }
    let (omin, omax) = limits.optional;
    if optional.len() < omin as usize || optional.len() > omax as usize {
        problems.push(HomeTerrainProblem::OptionalCount {
            count: optional.len(),
            min: omin,
            max: omax,
        });
    }
    let mut seen = Vec::new();
    for &t in optional {
        if !list.optional.contains(&t) && !seen.contains(&t) {
            problems.push(HomeTerrainProblem::NotOptional {
                terrain,
                feature: t,
            });
        }
        seen.push(t);
    }
    for &(a, b) in &list.exclusive_pairs {
        if optional.contains(&a) && optional.contains(&b) {
            problems.push(HomeTerrainProblem::BothOfPair { terrain, a, b });
        }
    }
    let mut all: Vec<FeatureType> = compulsory.iter().chain(optional).copied().collect();
    all.sort();
    let mut i = 0;
    while i < all.len() {
        let t = all[i];
        let count = all[i..].iter().take_while(|&&u| u == t).count();
        if count > limits.max_of(t) as usize {
            problems.push(HomeTerrainProblem::TooMany {
                feature: t,
                count,
                max: limits.max_of(t),
            });
        }
        i += count;
    }
    problems
}
