//! Resolving a situation (DBA3.md §10, §11): checking it, counting both sides once
//! ([`Prepared`]), and [`resolve`], [`resolve_brief`] and [`odds`] over the dice.

use super::*;

/// What one side is doing in the engagement.
#[derive(Clone, Copy)]
pub(super) struct Role {
    pub(super) close: bool,
    /// Shot at by its opponent (the target, or a shooter whose target shoots back).
    pub(super) shot_at: bool,
    /// A shooter whose target does not shoot back: it cannot suffer an outcome (§17.24).
    pub(super) immune_shooter: bool,
    /// The target of a shot (support shooters count against it, §9.4).
    pub(super) target: bool,
    pub(super) from_behind: bool,
}

/// The part each side plays in close combat: the same for both.
pub(super) const CLOSE_ROLE: Role = Role {
    close: true,
    shot_at: false,
    immune_shooter: false,
    target: false,
    from_behind: false,
};

pub(super) fn roles(e: &Engagement) -> (Role, Role) {
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
pub(super) struct Counted {
    pub(super) a_factors: Factors,
    pub(super) b_factors: Factors,
    pub(super) a_sum: i32,
    pub(super) b_sum: i32,
    /// Outcome and rule for each band, per side (indexed by `Band as usize`).
    pub(super) a_by_band: [(Outcome, &'static str); 4],
    pub(super) b_by_band: [(Outcome, &'static str); 4],
}

impl Counted {
    pub(super) fn new(situation: &Situation, cfg: &RulesConfig) -> Result<Counted, CombatError> {
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
    pub(super) fn result(
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
pub(super) fn assemble(
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
pub(super) fn bands_and_outcomes(
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
pub(super) fn brief_in(
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
pub(super) fn validate(s: &Situation, cfg: &RulesConfig) -> Result<(), CombatError> {
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
pub(super) fn validate_fully(s: &Situation, cfg: &RulesConfig) -> Result<(), CombatError> {
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

pub(super) fn check_defender(
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
