//! The troop vocabulary: element codes and what each kind of element is (DBA3.md §1.3, §2).
//!
//! An [`ElementKind`] is one of the codes an army list writes (`4Bd`, `3Kn`, `Mtd-4Bw`, `CF`…).
//! Fixed facts of the rules (mounted or foot, Fast or Solid, double element, who pursues) are
//! methods here; numbers that a house rule might change (depths, move distances, combat factors,
//! ranges) live in [`crate::config::RulesConfig`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

use crate::codes::{ErrorCode, ErrorInfo};

/// The basic troop types of DBA3.md §2.1, to which the outcome and factor tables are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum TroopType {
    /// Elephants.
    El,
    /// Knights (3Kn, 4Kn, 6Kn, and heavy chariots HCh which count as Knights).
    Kn,
    /// Cavalry (Cv, 6Cv, and light chariots LCh which count as Cavalry).
    Cv,
    /// Light Horse (LH, and light camelry LCm which count as Light Horse).
    LH,
    /// Scythed chariots.
    SCh,
    /// Camelry.
    Cm,
    /// Spears.
    Sp,
    /// Pikes.
    Pk,
    /// Blades.
    Bd,
    /// Auxilia.
    Ax,
    /// Bows, including longbows (Lb) and crossbows (Cb).
    Bw,
    /// Psiloi.
    Ps,
    /// Warband.
    Wb,
    /// Hordes.
    Hd,
    /// Artillery.
    Art,
    /// War wagons.
    WWg,
    /// Command post (general's element only).
    CP,
    /// Litter (general's element only).
    Lit,
    /// Command wagon (general's element only).
    CWg,
    /// Camp followers (civilians, §2.6).
    #[serde(rename = "CF")]
    CampFollowers,
    /// City denizens (civilians, §2.6).
    #[serde(rename = "Dz")]
    Denizens,
}

impl TroopType {
    /// Every basic type, in the order of §2.1.
    pub const ALL: [TroopType; 21] = [
        TroopType::El,
        TroopType::Kn,
        TroopType::Cv,
        TroopType::LH,
        TroopType::SCh,
        TroopType::Cm,
        TroopType::Sp,
        TroopType::Pk,
        TroopType::Bd,
        TroopType::Ax,
        TroopType::Bw,
        TroopType::Ps,
        TroopType::Wb,
        TroopType::Hd,
        TroopType::Art,
        TroopType::WWg,
        TroopType::CP,
        TroopType::Lit,
        TroopType::CWg,
        TroopType::CampFollowers,
        TroopType::Denizens,
    ];
}

/// Foot are either Fast or Solid (DBA3.md §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FootClass {
    /// Fast foot: further in rough and bad going, and some outcomes differ (§2.2, §7.3, §11).
    Fast,
    /// Solid foot (§2.2).
    Solid,
}

/// Mounted or foot (DBA3.md §0.3). Mounted infantry are foot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Mounted troops: elephants, knights, cavalry, light horse, chariots and camelry.
    Mounted,
    /// Foot troops, mounted infantry included.
    Foot,
}

/// A concrete element code as written in army lists, without the mounted-infantry prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BaseKind {
    /// `El`: Elephants.
    El,
    /// `3Kn`: Knights, three figures a base.
    Kn3,
    /// `4Kn`: Knights, four figures a base.
    Kn4,
    /// `6Kn`: double Knights (§2.4).
    Kn6,
    /// `HCh`: heavy chariots, which count as Knights.
    HCh,
    /// `Cv`: Cavalry.
    Cv,
    /// `6Cv`: double Cavalry (§2.4).
    Cv6,
    /// `LCh`: light chariots, which count as Cavalry.
    LCh,
    /// `LH`: Light Horse.
    LH,
    /// `LCm`: light camelry, which count as Light Horse.
    LCm,
    /// `SCh`: Scythed Chariots.
    SCh,
    /// `Cm`: Camelry.
    Cm,
    /// `Sp`: Spears (Solid).
    Sp,
    /// `8Sp`: double Spears (§2.4).
    Sp8,
    /// `4Pk`: Solid Pikes.
    Pk4,
    /// `3Pk`: Fast Pikes.
    Pk3,
    /// `4Bd`: Solid Blades.
    Bd4,
    /// `3Bd`: Fast Blades.
    Bd3,
    /// `6Bd`: double Blades (§2.4).
    Bd6,
    /// `4Ax`: Solid Auxilia.
    Ax4,
    /// `3Ax`: Fast Auxilia.
    Ax3,
    /// `4Bw`: Solid Bows.
    Bw4,
    /// `3Bw`: Fast Bows.
    Bw3,
    /// `8Bw`: double Bows (§2.4).
    Bw8,
    /// `4Lb`: Solid longbows, which count as Bows.
    Lb4,
    /// `3Lb`: Fast longbows, which count as Bows.
    Lb3,
    /// `8Lb`: double longbows (§2.4).
    Lb8,
    /// `4Cb`: Solid crossbows, which count as Bows.
    Cb4,
    /// `3Cb`: Fast crossbows, which count as Bows.
    Cb3,
    /// `8Cb`: double crossbows (§2.4).
    Cb8,
    /// `Ps`: Psiloi.
    Ps,
    /// `4Wb`: Solid Warband.
    Wb4,
    /// `3Wb`: Fast Warband.
    Wb3,
    /// `7Hd`: Solid Hordes.
    Hd7,
    /// `5Hd`: Fast Hordes.
    Hd5,
    /// `Art`: Artillery.
    Art,
    /// `WWg`: War Wagons.
    WWg,
    /// `CP`: a command post (a general's element only).
    CP,
    /// `Lit`: a litter (a general's element only).
    Lit,
    /// `CWg`: a command wagon (a general's element only).
    CWg,
    /// `CF`: camp followers, civilians defending a camp (§2.6, §4.6).
    CampFollowers,
    /// `Dz`: a City's denizens, civilians defending it (§2.6, §4.2).
    Denizens,
}

impl BaseKind {
    /// Every base kind, in table order.
    pub const ALL: [BaseKind; 42] = [
        BaseKind::El,
        BaseKind::Kn3,
        BaseKind::Kn4,
        BaseKind::Kn6,
        BaseKind::HCh,
        BaseKind::Cv,
        BaseKind::Cv6,
        BaseKind::LCh,
        BaseKind::LH,
        BaseKind::LCm,
        BaseKind::SCh,
        BaseKind::Cm,
        BaseKind::Sp,
        BaseKind::Sp8,
        BaseKind::Pk4,
        BaseKind::Pk3,
        BaseKind::Bd4,
        BaseKind::Bd3,
        BaseKind::Bd6,
        BaseKind::Ax4,
        BaseKind::Ax3,
        BaseKind::Bw4,
        BaseKind::Bw3,
        BaseKind::Bw8,
        BaseKind::Lb4,
        BaseKind::Lb3,
        BaseKind::Lb8,
        BaseKind::Cb4,
        BaseKind::Cb3,
        BaseKind::Cb8,
        BaseKind::Ps,
        BaseKind::Wb4,
        BaseKind::Wb3,
        BaseKind::Hd7,
        BaseKind::Hd5,
        BaseKind::Art,
        BaseKind::WWg,
        BaseKind::CP,
        BaseKind::Lit,
        BaseKind::CWg,
        BaseKind::CampFollowers,
        BaseKind::Denizens,
    ];

    /// Its place in [`BaseKind::ALL`] (the order the enum declares).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The code as army lists print it.
    pub const fn code(self) -> &'static str {
        use BaseKind::*;
        match self {
            El => "El",
            Kn3 => "3Kn",
            Kn4 => "4Kn",
            Kn6 => "6Kn",
            HCh => "HCh",
            Cv => "Cv",
            Cv6 => "6Cv",
            LCh => "LCh",
            LH => "LH",
            LCm => "LCm",
            SCh => "SCh",
            Cm => "Cm",
            Sp => "Sp",
            Sp8 => "8Sp",
            Pk4 => "4Pk",
            Pk3 => "3Pk",
            Bd4 => "4Bd",
            Bd3 => "3Bd",
            Bd6 => "6Bd",
            Ax4 => "4Ax",
            Ax3 => "3Ax",
            Bw4 => "4Bw",
            Bw3 => "3Bw",
            Bw8 => "8Bw",
            Lb4 => "4Lb",
            Lb3 => "3Lb",
            Lb8 => "8Lb",
            Cb4 => "4Cb",
            Cb3 => "3Cb",
            Cb8 => "8Cb",
            Ps => "Ps",
            Wb4 => "4Wb",
            Wb3 => "3Wb",
            Hd7 => "7Hd",
            Hd5 => "5Hd",
            Art => "Art",
            WWg => "WWg",
            CP => "CP",
            Lit => "Lit",
            CWg => "CWg",
            CampFollowers => "CF",
            Denizens => "Dz",
        }
    }

    /// A short English name.
    pub const fn name(self) -> &'static str {
        use BaseKind::*;
        match self {
            El => "Elephants",
            Kn3 => "Knights",
            Kn4 => "Knights (cataphracts)",
            Kn6 => "Knights (double element)",
            HCh => "Heavy chariots",
            Cv => "Cavalry",
            Cv6 => "Cavalry (double element)",
            LCh => "Light chariots",
            LH => "Light Horse",
            LCm => "Light camelry",
            SCh => "Scythed chariots",
            Cm => "Camelry",
            Sp => "Spears",
            Sp8 => "Spears (double element)",
            Pk4 => "Pikes (Solid)",
            Pk3 => "Pikes (Fast)",
            Bd4 => "Blades (Solid)",
            Bd3 => "Blades (Fast)",
            Bd6 => "Blades (Fast, double element)",
            Ax4 => "Auxilia (Solid)",
            Ax3 => "Auxilia (Fast)",
            Bw4 => "Bows (Solid)",
            Bw3 => "Bows (Fast)",
            Bw8 => "Bows (Solid, double element)",
            Lb4 => "Longbows (Solid)",
            Lb3 => "Longbows (Fast)",
            Lb8 => "Longbows (Solid, double element)",
            Cb4 => "Crossbows (Solid)",
            Cb3 => "Crossbows (Fast)",
            Cb8 => "Crossbows (Solid, double element)",
            Ps => "Psiloi",
            Wb4 => "Warband (Solid)",
            Wb3 => "Warband (Fast)",
            Hd7 => "Hordes (Solid)",
            Hd5 => "Hordes (Fast)",
            Art => "Artillery",
            WWg => "War wagons",
            CP => "Command post",
            Lit => "Litter",
            CWg => "Command wagon",
            CampFollowers => "Camp followers",
            Denizens => "City denizens",
        }
    }

    /// The basic type whose rows of the rules tables this kind reads.
    pub const fn troop_type(self) -> TroopType {
        use BaseKind::*;
        match self {
            El => TroopType::El,
            Kn3 | Kn4 | Kn6 | HCh => TroopType::Kn,
            Cv | Cv6 | LCh => TroopType::Cv,
            LH | LCm => TroopType::LH,
            SCh => TroopType::SCh,
            Cm => TroopType::Cm,
            Sp | Sp8 => TroopType::Sp,
            Pk4 | Pk3 => TroopType::Pk,
            Bd4 | Bd3 | Bd6 => TroopType::Bd,
            Ax4 | Ax3 => TroopType::Ax,
            Bw4 | Bw3 | Bw8 | Lb4 | Lb3 | Lb8 | Cb4 | Cb3 | Cb8 => TroopType::Bw,
            Ps => TroopType::Ps,
            Wb4 | Wb3 => TroopType::Wb,
            Hd7 | Hd5 => TroopType::Hd,
            Art => TroopType::Art,
            WWg => TroopType::WWg,
            CP => TroopType::CP,
            Lit => TroopType::Lit,
            CWg => TroopType::CWg,
            CampFollowers => TroopType::CampFollowers,
            Denizens => TroopType::Denizens,
        }
    }

    /// Mounted or foot (§2.1).
    pub const fn class(self) -> Class {
        match self.troop_type() {
            TroopType::El
            | TroopType::Kn
            | TroopType::Cv
            | TroopType::LH
            | TroopType::SCh
            | TroopType::Cm => Class::Mounted,
            _ => Class::Foot,
        }
    }

    /// Fast or Solid as it **moves** (§2.2): 3, 5 or 6 figures and all Psiloi are Fast; camp
    /// followers and denizens move as Solid. `None` for mounted.
    pub const fn moves_as(self) -> Option<FootClass> {
        use BaseKind::*;
        match self {
            Pk3 | Bd3 | Bd6 | Ax3 | Bw3 | Lb3 | Cb3 | Ps | Wb3 | Hd5 => Some(FootClass::Fast),
            _ => match self.class() {
                Class::Mounted => None,
                Class::Foot => Some(FootClass::Solid),
            },
        }
    }

    /// Fast or Solid as it **fights** (§2.2, §11): as it moves, except that camp followers and
    /// denizens fight as Fast foot. `None` for mounted.
    pub const fn fights_as(self) -> Option<FootClass> {
        match self {
            BaseKind::CampFollowers | BaseKind::Denizens => Some(FootClass::Fast),
            _ => self.moves_as(),
        }
    }

    /// Double elements (§2.4).
    pub const fn is_double(self) -> bool {
        use BaseKind::*;
        matches!(self, Kn6 | Cv6 | Sp8 | Bd6 | Bw8 | Lb8 | Cb8)
    }

    /// Whether this kind may take the `Mtd-` prefix. Mounted infantry ride to battle and fight as
    /// their foot type (§2.1); army lists field them as single Bows, Blades, Auxilia, Spears,
    /// Pikes, Warband or Psiloi. Doubles, Hordes, Artillery, War Wagons, general-only elements
    /// and civilians never appear mounted (our reading: no list gives them).
    pub const fn may_be_mounted_infantry(self) -> bool {
        use BaseKind::*;
        matches!(
            self,
            Sp | Pk4
                | Pk3
                | Bd4
                | Bd3
                | Ax4
                | Ax3
                | Bw4
                | Bw3
                | Lb4
                | Lb3
                | Cb4
                | Cb3
                | Ps
                | Wb4
                | Wb3
        )
    }

    fn parse(text: &str) -> Option<BaseKind> {
        // A code as dbcore writes it (every saved set-up and configuration) is looked up exactly
        // first, in the codes sorted once: the same kind the other spellings find
        // (`codes_are_found_exactly` in the tests).
        static BY_CODE: std::sync::OnceLock<Vec<(&'static str, BaseKind)>> =
            std::sync::OnceLock::new();
        let by_code = BY_CODE.get_or_init(|| {
            let mut v: Vec<_> = BaseKind::ALL.iter().map(|&k| (k.code(), k)).collect();
            v.sort_unstable();
            v
        });
        match by_code.binary_search_by(|(code, _)| (*code).cmp(text)) {
            Ok(i) => Some(by_code[i].1),
            Err(_) => BaseKind::parse_spelling(text),
        }
    }

    /// A kind by any spelling the parser takes: its code in any case, and a few others.
    fn parse_spelling(text: &str) -> Option<BaseKind> {
        // "4Sp" is a common spelling of Spears.
        if text.eq_ignore_ascii_case("4Sp") {
            return Some(BaseKind::Sp);
        }
        if text.eq_ignore_ascii_case("Camp-followers") || text.eq_ignore_ascii_case("CampFollowers")
        {
            return Some(BaseKind::CampFollowers);
        }
        if text.eq_ignore_ascii_case("Denizens") {
            return Some(BaseKind::Denizens);
        }
        BaseKind::ALL
            .iter()
            .copied()
            .find(|k| k.code().eq_ignore_ascii_case(text))
    }
}

/// How an element follows up a beaten close-combat opponent (§12.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PursuitRule {
    /// Never pursues.
    Never,
    /// 1 BW straight ahead (Knights other than 4Kn, Scythed Chariots, Elephants, Hordes).
    OneBw,
    /// ½ BW straight ahead, only after fighting foot other than Psiloi (Pikes, Blades, Warband).
    HalfBwAfterFoot,
}

impl PursuitRule {
    /// The distance it pursues when it pursues at all, BW (0 for `Never`).
    pub const fn distance(self) -> f64 {
        match self {
            PursuitRule::Never => 0.0,
            PursuitRule::OneBw => 1.0,
            PursuitRule::HalfBwAfterFoot => 0.5,
        }
    }
}

/// Everything about a kind in one serde value: its fixed facts and its numbers under a rules
/// configuration. Bindings show this to users.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct KindInfo {
    /// The code as army lists write it (`4Bd`, `Mtd-3Bw`).
    pub code: String,
    /// A short English name ("Blades").
    pub name: String,
    /// The basic troop type the outcome and factor tables use (§2.1).
    pub troop_type: TroopType,
    /// Mounted or foot (§0.3).
    pub class: Class,
    /// Mounted infantry (`Mtd-`): foot that move as mounted (§2.3).
    pub mounted_infantry: bool,
    /// Fast or Solid as it moves (§2.2); `None` for mounted.
    pub moves_as: Option<FootClass>,
    /// Fast or Solid as it fights (§2.2, §11); `None` for mounted.
    pub fights_as: Option<FootClass>,
    /// A double element (§2.4).
    pub double: bool,
    /// Camel-mounted: dunes and oases are good going for it (§3.1).
    pub camel_mounted: bool,
    /// Only a general's element may be of this kind (CP, Lit, CWg).
    pub general_only: bool,
    /// Civilians (camp followers, denizens): never counted for victory (§2.6, §13.2).
    pub civilian: bool,
    /// Shoots at a distance (§9.1).
    pub shoots: bool,
    /// A move by it costs an extra PIP (§6.3).
    pub extra_pip: bool,
    /// May never move into contact with enemy (§8.4).
    pub never_contacts_enemy: bool,
    /// How it follows up a beaten enemy (§12.5).
    pub pursuit: PursuitRule,
    /// Base depth, BW, under the rules configuration (§1.3).
    pub depth: f64,
    /// Tactical move in good going, BW (§7.3).
    pub move_good: f64,
    /// Tactical move when any of it is in rough or bad going, BW (§7.3).
    pub move_rough: f64,
    /// Combat factor against foot (§10.1).
    pub factor_vs_foot: i32,
    /// Combat factor against mounted (§10.1).
    pub factor_vs_mounted: i32,
    /// Combat factor when shot at, for kinds with one (§9.6).
    pub factor_shot_at: Option<i32>,
    /// Shooting range, BW, for kinds that shoot (§9.1).
    pub shooting_range: Option<f64>,
}

/// An element kind: a base code, possibly as mounted infantry (`Mtd-4Bw`).
///
/// Serialises as its code string, e.g. `"4Bd"` or `"Mtd-3Bw"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ElementKind {
    base: BaseKind,
    mounted_infantry: bool,
}

impl ElementKind {
    /// A plain (not mounted-infantry) kind.
    pub const fn new(base: BaseKind) -> Self {
        ElementKind {
            base,
            mounted_infantry: false,
        }
    }

    /// Mounted infantry riding as `base` foot; refused for kinds that never ride (see
    /// [`BaseKind::may_be_mounted_infantry`]).
    pub fn mounted_infantry(base: BaseKind) -> Result<Self, ParseKindError> {
        if base.may_be_mounted_infantry() {
            Ok(ElementKind {
                base,
                mounted_infantry: true,
            })
        } else {
            Err(ParseKindError {
                text: format!("Mtd-{}", base.code()),
                expected: "Mtd- followed by a single foot code of Sp, Pk, Bd, Ax, Bw, Lb, Cb, Ps or Wb (e.g. Mtd-4Bw)",
            })
        }
    }

    /// The foot (or mounted) code behind any `Mtd-` prefix.
    pub const fn base(self) -> BaseKind {
        self.base
    }
    /// Mounted infantry (`Mtd-` code): foot that move as mounted (§2.3).
    pub const fn is_mounted_infantry(self) -> bool {
        self.mounted_infantry
    }
    /// The basic troop type the outcome and factor tables use (§2.1).
    pub const fn troop_type(self) -> TroopType {
        self.base.troop_type()
    }
    /// Mounted or foot; mounted infantry are foot (§0.3).
    pub const fn class(self) -> Class {
        self.base.class()
    }
    /// Mounted (not mounted infantry, which are foot).
    pub const fn is_mounted(self) -> bool {
        matches!(self.class(), Class::Mounted)
    }
    /// Foot, mounted infantry included.
    pub const fn is_foot(self) -> bool {
        matches!(self.class(), Class::Foot)
    }
    /// Fast/Solid for movement (§2.2); `None` for mounted.
    pub const fn moves_as(self) -> Option<FootClass> {
        self.base.moves_as()
    }
    /// Fast/Solid for combat outcomes (§2.2, §11); `None` for mounted.
    pub const fn fights_as(self) -> Option<FootClass> {
        self.base.fights_as()
    }
    /// Solid foot in combat (the "Solid foot" of the §11 tables).
    pub const fn is_solid_foot(self) -> bool {
        matches!(self.fights_as(), Some(FootClass::Solid))
    }
    /// Fast foot in combat.
    pub const fn is_fast_foot(self) -> bool {
        matches!(self.fights_as(), Some(FootClass::Fast))
    }
    /// Double element (§2.4).
    pub const fn is_double(self) -> bool {
        self.base.is_double()
    }
    /// Camel-mounted: dunes and oasis are good going for it (§3.1, §17.28).
    pub const fn is_camel_mounted(self) -> bool {
        matches!(self.base, BaseKind::Cm | BaseKind::LCm)
    }
    /// Longbows or crossbows: Knights and Camelry tied by them are destroyed (§11.1).
    pub const fn is_longbow_or_crossbow(self) -> bool {
        use BaseKind::*;
        matches!(self.base, Lb4 | Lb3 | Lb8 | Cb4 | Cb3 | Cb8)
    }
    /// Blades in the wide sense of §11.1 and §12.1: any Blades, and the general-only CP, Lit and
    /// CWg which the rules treat as a kind of Blades (§17.4, §17.19).
    pub const fn counts_as_blades(self) -> bool {
        matches!(
            self.troop_type(),
            TroopType::Bd | TroopType::CP | TroopType::Lit | TroopType::CWg
        )
    }
    /// A general-only element: CP, Lit or CWg (§2.1).
    pub const fn is_general_only(self) -> bool {
        matches!(
            self.troop_type(),
            TroopType::CP | TroopType::Lit | TroopType::CWg
        )
    }
    /// Camp followers or denizens: not troops, never counted for victory (§2.6, §13.2).
    pub const fn is_civilian(self) -> bool {
        matches!(
            self.troop_type(),
            TroopType::CampFollowers | TroopType::Denizens
        )
    }
    /// Shoots at a distance (§9.1): Bows (with longbows, crossbows and mounted infantry Bows),
    /// War Wagons and Artillery.
    pub const fn shoots(self) -> bool {
        matches!(
            self.troop_type(),
            TroopType::Bw | TroopType::WWg | TroopType::Art
        )
    }
    /// Its move attracts the +1 PIP of §6.3 (a): SCh, El, Hd, WWg, Art, denizens, camp followers.
    pub const fn costs_extra_pip(self) -> bool {
        matches!(
            self.troop_type(),
            TroopType::SCh
                | TroopType::El
                | TroopType::Hd
                | TroopType::WWg
                | TroopType::Art
                | TroopType::CampFollowers
                | TroopType::Denizens
        )
    }
    /// May never move into contact with enemy (§8.4; the War Wagon mobile-tower exception is a
    /// matter for the battle, not the kind).
    pub const fn never_contacts_enemy(self) -> bool {
        matches!(
            self.troop_type(),
            TroopType::CP | TroopType::Lit | TroopType::CWg | TroopType::Art | TroopType::WWg
        )
    }
    /// How it pursues (§12.5).
    pub const fn pursuit(self) -> PursuitRule {
        use BaseKind::*;
        match self.base {
            Kn3 | Kn6 | HCh | SCh | El | Hd7 | Hd5 => PursuitRule::OneBw,
            Pk4 | Pk3 | Bd4 | Bd3 | Bd6 | Wb4 | Wb3 => PursuitRule::HalfBwAfterFoot,
            _ => PursuitRule::Never,
        }
    }
    /// The code as printed (`Mtd-4Bw`, `3Kn`, `CF`).
    pub fn code(self) -> String {
        self.to_string()
    }
    /// Every kind the parser accepts, plain kinds first, then mounted infantry.
    pub fn all() -> Vec<ElementKind> {
        let mut v: Vec<ElementKind> = BaseKind::ALL.iter().map(|&b| ElementKind::new(b)).collect();
        v.extend(
            BaseKind::ALL
                .iter()
                .filter(|b| b.may_be_mounted_infantry())
                .map(|&b| ElementKind {
                    base: b,
                    mounted_infantry: true,
                }),
        );
        v
    }
}

impl From<BaseKind> for ElementKind {
    fn from(b: BaseKind) -> Self {
        ElementKind::new(b)
    }
}

impl fmt::Display for ElementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mounted_infantry {
            write!(f, "Mtd-{}", self.base.code())
        } else {
            f.write_str(self.base.code())
        }
    }
}

impl fmt::Display for BaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// An element code that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("§2.1: `{text}` is not an element code: expected {expected}")]
pub struct ParseKindError {
    /// The text that was given (cut to `crate::limits::MAX_QUOTED_CHARS` characters).
    pub text: String,
    /// What was expected instead.
    pub expected: &'static str,
}

impl ErrorInfo for ParseKindError {
    fn code(&self) -> ErrorCode {
        ErrorCode::ElementCode
    }
    fn rule(&self) -> Option<&'static str> {
        Some("§2.1")
    }
}

const EXPECTED_CODES: &str =
    "one of El, 3Kn, 4Kn, 6Kn, HCh, Cv, 6Cv, LCh, LH, LCm, SCh, Cm, Sp, 8Sp, \
4Pk, 3Pk, 4Bd, 3Bd, 6Bd, 4Ax, 3Ax, 4Bw, 3Bw, 8Bw, 4Lb, 3Lb, 8Lb, 4Cb, 3Cb, 8Cb, Ps, 4Wb, 3Wb, 7Hd, \
5Hd, Art, WWg, CP, Lit, CWg, CF (camp followers), Dz (denizens), or Mtd- and a foot code (Mtd-4Bw)";

impl FromStr for ElementKind {
    type Err = ParseKindError;

    /// Parse a code, ignoring ASCII case and surrounding white space.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        // `get`: the fifth byte may fall inside a character of a non-ASCII text.
        if let Some(rest) = text
            .get(..4)
            .filter(|p| p.eq_ignore_ascii_case("Mtd-"))
            .and_then(|_| text.get(4..))
            .filter(|r| !r.is_empty())
        {
            return match BaseKind::parse(rest) {
                Some(b) => ElementKind::mounted_infantry(b).map_err(|mut e| {
                    e.text = crate::sizes::quote(text);
                    e
                }),
                None => Err(ParseKindError {
                    text: crate::sizes::quote(text),
                    expected: "Mtd- followed by a single foot code of Sp, Pk, Bd, Ax, Bw, Lb, Cb, Ps or Wb (e.g. Mtd-4Bw)",
                }),
            };
        }
        BaseKind::parse(text)
            .map(ElementKind::new)
            .ok_or_else(|| ParseKindError {
                text: crate::sizes::quote(text),
                expected: EXPECTED_CODES,
            })
    }
}

impl Serialize for ElementKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ElementKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Read from the text in place, not through a `String` of its own: a saved battle has
        // a kind for every element. The messages are those of reading a `String` first.
        struct Code;
        impl serde::de::Visitor<'_> for Code {
            type Value = ElementKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ElementKind, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(Code)
    }
}

impl Serialize for BaseKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for BaseKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // In place, as for `ElementKind`.
        struct Code;
        impl serde::de::Visitor<'_> for Code {
            type Value = BaseKind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<BaseKind, E> {
                BaseKind::parse(s.trim()).ok_or_else(|| {
                    E::custom(ParseKindError {
                        text: crate::sizes::quote(s),
                        expected: EXPECTED_CODES,
                    })
                })
            }
        }
        d.deserialize_str(Code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_found_exactly() {
        // The exact compare of `BaseKind::parse` finds the kind its other spellings find.
        for k in BaseKind::ALL {
            assert_eq!(BaseKind::parse_spelling(k.code()), Some(k), "{}", k.code());
            assert_eq!(BaseKind::parse(k.code()), Some(k), "{}", k.code());
        }
    }
}
