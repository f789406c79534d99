//! Results (DBA3.md §11, §12.5): the outcome of each side, the bands of a total against the
//! other's, the result and odds types, and the outcome tables with pursuit.

use super::*;

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

/// How many outcomes [`OpenOutcomes`] keeps for one ordered pair of base kinds: one for a higher
/// total, one for a tie, and for beaten and for doubled one for each going of the element
/// suffering it (good, rough, bad) and whether its opponent is in good going.
pub(super) const OPEN_SLOTS: usize = 2 + 2 * 3 * 2;

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
pub(super) struct OpenOutcomes {
    /// Every rule text of the table, each once: an entry names its rule by index. (The rows of
    /// §11 in the open have about fifty texts.)
    pub(super) rules: [&'static str; OPEN_RULES],
    /// By `x` base index × the number of base kinds + `w` base index, then by
    /// [`open_slot`].
    pub(super) entries: [[(Outcome, u8); OPEN_SLOTS]; OPEN_PAIRS],
}

/// Room for the rule texts of [`OpenOutcomes`].
pub(super) const OPEN_RULES: usize = 128;
/// The ordered pairs of base kinds.
pub(super) const OPEN_PAIRS: usize = BaseKind::ALL.len() * BaseKind::ALL.len();

/// Where the outcome of a band is kept among the [`OPEN_SLOTS`] of a pair.
#[inline]
pub(super) fn open_slot(band: Band, x_going: Going, w_good: bool) -> usize {
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
    pub(super) fn new() -> OpenOutcomes {
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
pub(super) static OPEN_OUTCOMES: std::sync::LazyLock<OpenOutcomes> =
    std::sync::LazyLock::new(OpenOutcomes::new);

/// [`outcome_for`] of `x` in close combat against `w`, neither holding nor assaulting a city,
/// fort or camp: read from [`OpenOutcomes`], or worked out for mounted infantry.
#[inline]
pub(super) fn open_outcome(x: &Combatant, w: &Combatant, band: Band) -> (Outcome, &'static str) {
    if x.kind.is_mounted_infantry() {
        return outcome_for(x, w, CLOSE_ROLE, band);
    }
    let t = &*OPEN_OUTCOMES;
    let pair = x.kind.base().index() * BaseKind::ALL.len() + w.kind.base().index();
    let (outcome, rule) = t.entries[pair][open_slot(band, x.going, w.going == Going::Good)];
    (outcome, t.rules[usize::from(rule)])
}

/// The outcome for `x` whose total stands in `band` against `w` (§11).
pub(super) fn outcome_for(
    x: &Combatant,
    w: &Combatant,
    role: Role,
    band: Band,
) -> (Outcome, &'static str) {
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
pub(super) fn pursuit(s: &Situation, oa: Outcome, ob: Outcome) -> Option<Pursuit> {
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
