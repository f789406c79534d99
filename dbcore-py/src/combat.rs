//! `Combatant`, `Situation`, `resolve`, `odds` and their results.
//!
//! Every class here wraps the dbcore value it shows; JSON, pickling and deep copies all go
//! through dbcore's serde form. Rules are applied by dbcore alone, inside `resolve` and `odds`.

use dbcore::combat::{Holding, Margins as CoreMargins, Shot, Supporter};
use dbcore::{DieScore, Going, Outcome, Stronghold};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors;
use crate::kinds::{default_config, kind_arg, ElementKind, RulesConfig};
use crate::names::{json_pymethods, name_of, parse, small_count, AnyInt, Text};

/// A side supporter given as a kind, or as a (kind, going) pair.
fn supporter_arg(obj: &Bound<'_, PyAny>) -> PyResult<Supporter> {
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() != 2 {
            return Err(errors::invalid_argument(format!(
                "a supporter is a kind or a (kind, going) pair, not a tuple of {}",
                t.len()
            )));
        }
        let kind = kind_arg(&t.get_item(0)?)?;
        let going: Text = t.get_item(1)?.extract()?;
        return Ok(Supporter {
            kind,
            going: parse("going", &going.0)?,
        });
    }
    Ok(Supporter::new(kind_arg(obj)?))
}

fn supporter_out(s: &Supporter) -> (ElementKind, String) {
    (ElementKind(s.kind), name_of(&s.going))
}

/// `None`, `("defending", place)`, `("defending", place, extra_assaulters)` or
/// `("assaulting", place)`, read through dbcore's serde names.
fn holding_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Holding> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Holding::Field);
    };
    let bad = || {
        errors::invalid_argument(
            "holding must be None, ('defending', place), ('defending', place, extra_assaulters) \
             or ('assaulting', place), with place 'city', 'fort' or 'camp'",
        )
    };
    let t = obj.cast::<PyTuple>().map_err(|_| bad())?;
    if !(2..=3).contains(&t.len()) {
        return Err(bad());
    }
    let Text(role) = t.get_item(0)?.extract()?;
    let Text(place) = t.get_item(1)?.extract()?;
    let place: Stronghold = parse("holding place", &place)?;
    let mut v = serde_json::json!({ "role": role, "place": place });
    if t.len() == 3 {
        let n: AnyInt = t.get_item(2)?.extract()?;
        v["extra_assaulters"] = small_count("extra_assaulters", n)?.into();
    }
    let h: Holding =
        serde_json::from_value(v).map_err(|e| errors::invalid_argument(format!("holding: {e}")))?;
    if t.len() == 3 && !matches!(h, Holding::Defending { .. }) {
        return Err(bad());
    }
    Ok(h)
}

fn holding_out<'py>(py: Python<'py>, h: &Holding) -> PyResult<Option<Bound<'py, PyTuple>>> {
    Ok(match h {
        Holding::Field => None,
        Holding::Defending {
            place,
            extra_assaulters,
        } => Some(PyTuple::new(
            py,
            [
                "defending".into_pyobject(py)?.into_any(),
                name_of(place).into_pyobject(py)?.into_any(),
                extra_assaulters.into_pyobject(py)?.into_any(),
            ],
        )?),
        Holding::Assaulting { place } => Some(PyTuple::new(py, ["assaulting", &name_of(place)])?),
    })
}

fn holding_repr(h: &Holding) -> String {
    match h {
        Holding::Field => "None".to_owned(),
        Holding::Defending {
            place,
            extra_assaulters,
        } => format!("('defending', '{}', {extra_assaulters})", name_of(place)),
        Holding::Assaulting { place } => format!("('assaulting', '{}')", name_of(place)),
    }
}

/// One element in a combat, as the table shows it (DBA3.md §10).
///
/// `kind` is an `ElementKind` or a code. Keyword arguments describe the table:
///
/// - `general`: the general's element (+1); `cinc_bonus`: the Big Battle C-in-C's once-a-game
///   +1 (needs `general`, §14.4).
/// - `going`: 'good', 'rough' or 'bad', the going *this element* counts as in (§3.1).
/// - `uphill` (§3.3) and `defending_bank` (§3.5).
/// - `holding`: `None` in the open; `('defending', place)` or
///   `('defending', place, extra_assaulters)` inside a 'city', 'fort' or 'camp', where
///   `extra_assaulters` (0-2) counts the enemy assaulting it besides the one fighting now (§4.7);
///   `('assaulting', place)` from outside.
/// - `side_supporters`: up to two friends in side-edge contact, each a kind or a
///   `(kind, going)` pair; `rear_supporter`: one friend directly behind, likewise (§10.3).
/// - `flank_rear_contacts`: flank and rear edges overlapped or contacted by other enemy, 0-3.
/// - `demoralised`: of a demoralised Big Battle command (§14.5).
///
/// Whether the combination is legal is checked by `resolve` and `odds`, which raise
/// `RuleError` naming the section that forbids it.
#[pyclass(module = "dbcore", name = "Combatant", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Combatant(pub dbcore::Combatant);

/// A combatant argument: a `Combatant`, or a kind standing in the open with nothing else.
fn combatant_arg(obj: &Bound<'_, PyAny>) -> PyResult<dbcore::Combatant> {
    if let Ok(c) = obj.cast::<Combatant>() {
        return Ok(c.get().0.clone());
    }
    Ok(dbcore::Combatant::new(kind_arg(obj)?))
}

json_pymethods! { Combatant, "Combatant";
    #[new]
    #[pyo3(signature = (
        kind, *, general=false, cinc_bonus=false, going=Text(String::from("good")), uphill=false,
        defending_bank=false, holding=None, side_supporters=Vec::new(), rear_supporter=None,
        flank_rear_contacts=AnyInt(0), demoralised=false
    ),
    text_signature = "(kind, *, general=False, cinc_bonus=False, going='good', uphill=False, defending_bank=False, holding=None, side_supporters=..., rear_supporter=None, flank_rear_contacts=0, demoralised=False)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: &Bound<'_, PyAny>,
        general: bool,
        cinc_bonus: bool,
        going: Text,
        uphill: bool,
        defending_bank: bool,
        holding: Option<&Bound<'_, PyAny>>,
        side_supporters: Vec<Bound<'_, PyAny>>,
        rear_supporter: Option<&Bound<'_, PyAny>>,
        flank_rear_contacts: AnyInt,
        demoralised: bool,
    ) -> PyResult<Self> {
        Ok(Combatant(dbcore::Combatant {
            kind: kind_arg(kind)?,
            general,
            cinc_bonus,
            going: parse::<Going>("going", &going.0)?,
            uphill,
            defending_bank,
            holding: holding_arg(holding)?,
            side_supporters: side_supporters
                .iter()
                .map(supporter_arg)
                .collect::<PyResult<_>>()?,
            rear_supporter: rear_supporter
                .filter(|r| !r.is_none())
                .map(supporter_arg)
                .transpose()?,
            flank_rear_contacts: small_count("flank_rear_contacts", flank_rear_contacts)?,
            demoralised,
        }))
    }

    #[getter]
    fn kind(&self) -> ElementKind {
        ElementKind(self.0.kind)
    }
    #[getter]
    fn general(&self) -> bool {
        self.0.general
    }
    #[getter]
    fn cinc_bonus(&self) -> bool {
        self.0.cinc_bonus
    }
    #[getter]
    fn going(&self) -> String {
        name_of(&self.0.going)
    }
    #[getter]
    fn uphill(&self) -> bool {
        self.0.uphill
    }
    #[getter]
    fn defending_bank(&self) -> bool {
        self.0.defending_bank
    }
    /// `None`, `('defending', place, extra_assaulters)` or `('assaulting', place)`.
    #[getter]
    fn holding<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        holding_out(py, &self.0.holding)
    }
    /// Side supporters as (kind, going) pairs.
    #[getter]
    fn side_supporters(&self) -> Vec<(ElementKind, String)> {
        self.0.side_supporters.iter().map(supporter_out).collect()
    }
    /// The rear supporter as a (kind, going) pair, or None.
    #[getter]
    fn rear_supporter(&self) -> Option<(ElementKind, String)> {
        self.0.rear_supporter.as_ref().map(supporter_out)
    }
    #[getter]
    fn flank_rear_contacts(&self) -> u8 {
        self.0.flank_rear_contacts
    }
    #[getter]
    fn demoralised(&self) -> bool {
        self.0.demoralised
    }

    /// A copy with some arguments changed, as `dataclasses.replace` does:
    /// `c.replace(going="rough", flank_rear_contacts=1)`. Takes the keywords of `Combatant()`,
    /// including `kind`.
    #[pyo3(signature = (**changes))]
    fn replace<'py>(
        slf: &Bound<'py, Self>,
        changes: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let c = slf.get();
        let kwargs = PyDict::new(py);
        kwargs.set_item("general", c.general())?;
        kwargs.set_item("cinc_bonus", c.cinc_bonus())?;
        kwargs.set_item("going", c.going())?;
        kwargs.set_item("uphill", c.uphill())?;
        kwargs.set_item("defending_bank", c.defending_bank())?;
        kwargs.set_item("holding", c.holding(py)?)?;
        kwargs.set_item("side_supporters", c.side_supporters())?;
        kwargs.set_item("rear_supporter", c.rear_supporter())?;
        kwargs.set_item("flank_rear_contacts", c.flank_rear_contacts())?;
        kwargs.set_item("demoralised", c.demoralised())?;
        let mut kind = c.kind().into_pyobject(py)?.into_any();
        if let Some(changes) = changes {
            for (k, v) in changes.iter() {
                if k.extract::<Text>()?.0 == "kind" {
                    kind = v;
                } else {
                    kwargs.set_item(k, v)?;
                }
            }
        }
        slf.get_type().call((kind,), Some(&kwargs))
    }
    /// `copy.replace(c, **changes)` (Python 3.13) does what `c.replace(**changes)` does.
    #[pyo3(signature = (**changes))]
    fn __replace__<'py>(
        slf: &Bound<'py, Self>,
        changes: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::replace(slf, changes)
    }

    fn __repr__(&self) -> String {
        let c = &self.0;
        let mut s = format!("Combatant('{}'", c.kind);
        let flag = |s: &mut String, on: bool, name: &str| {
            if on {
                s.push_str(&format!(", {name}=True"));
            }
        };
        flag(&mut s, c.general, "general");
        flag(&mut s, c.cinc_bonus, "cinc_bonus");
        if c.going != Going::Good {
            s.push_str(&format!(", going='{}'", name_of(&c.going)));
        }
        flag(&mut s, c.uphill, "uphill");
        flag(&mut s, c.defending_bank, "defending_bank");
        if c.holding != Holding::Field {
            s.push_str(&format!(", holding={}", holding_repr(&c.holding)));
        }
        let sup = |x: &Supporter| {
            if x.going == Going::Good {
                format!("'{}'", x.kind)
            } else {
                format!("('{}', '{}')", x.kind, name_of(&x.going))
            }
        };
        if !c.side_supporters.is_empty() {
            let v: Vec<String> = c.side_supporters.iter().map(sup).collect();
            s.push_str(&format!(", side_supporters=[{}]", v.join(", ")));
        }
        if let Some(r) = &c.rear_supporter {
            s.push_str(&format!(", rear_supporter={}", sup(r)));
        }
        if c.flank_rear_contacts != 0 {
            s.push_str(&format!(", flank_rear_contacts={}", c.flank_rear_contacts));
        }
        flag(&mut s, c.demoralised, "demoralised");
        s.push(')');
        s
    }
}

/// Two elements about to fight or shoot: build one with `Situation.close_combat(a, b)` or
/// `Situation.shooting(shooter, target, ...)`. Each combatant may be a `Combatant`, or an
/// `ElementKind` or code for an element in the open with no factors beyond its kind.
#[pyclass(module = "dbcore", name = "Situation", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Situation(pub dbcore::Situation);

json_pymethods! { Situation, "Situation";
    /// `a` and `b` in frontal close combat (§10, §11).
    #[staticmethod]
    fn close_combat(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Situation(dbcore::Situation::close_combat(
            combatant_arg(a)?,
            combatant_arg(b)?,
        )))
    }

    /// `shooter` (side a) shoots at `target` (side b) (§9). `support_shooters` further shooters
    /// at the same target count −1 each against it (at most 2, §9.4); `target_shoots_back` when
    /// the target is itself shooting at the shooter, which can then suffer too (§17.24);
    /// `from_behind` when the shooter is beyond the line of the target's rear edge.
    #[staticmethod]
    #[pyo3(
        signature = (shooter, target, support_shooters=AnyInt(0), target_shoots_back=false, from_behind=false),
        text_signature = "(shooter, target, support_shooters=0, target_shoots_back=False, from_behind=False)"
    )]
    fn shooting(
        shooter: &Bound<'_, PyAny>,
        target: &Bound<'_, PyAny>,
        support_shooters: AnyInt,
        target_shoots_back: bool,
        from_behind: bool,
    ) -> PyResult<Self> {
        Ok(Situation(dbcore::Situation::shooting(
            combatant_arg(shooter)?,
            combatant_arg(target)?,
            Shot {
                support_shooters: small_count("support_shooters", support_shooters)?,
                target_shoots_back,
                from_behind,
                ..Shot::default()
            },
        )))
    }

    #[getter]
    fn a(&self) -> Combatant {
        Combatant(self.0.a.clone())
    }
    #[getter]
    fn b(&self) -> Combatant {
        Combatant(self.0.b.clone())
    }
    /// 'close_combat' or 'shooting'.
    #[getter]
    fn engagement(&self) -> &'static str {
        match self.0.engagement {
            dbcore::Engagement::CloseCombat => "close_combat",
            dbcore::Engagement::Shooting(_) => "shooting",
        }
    }
    /// The shooting side, 'a' or 'b'; None in close combat.
    #[getter]
    fn shooter(&self) -> Option<String> {
        self.shot().map(|s| name_of(&dbcore::Side::from(s.shooter)))
    }
    /// Support shooters (0 in close combat).
    #[getter]
    fn support_shooters(&self) -> u8 {
        self.shot().map_or(0, |s| s.support_shooters)
    }
    #[getter]
    fn target_shoots_back(&self) -> bool {
        self.shot().is_some_and(|s| s.target_shoots_back)
    }
    #[getter(from_behind)]
    fn shot_from_behind(&self) -> bool {
        self.shot().is_some_and(|s| s.from_behind)
    }
    /// The same situation seen from the other side.
    fn swapped(&self) -> Self {
        Situation(self.0.swapped())
    }

    fn __repr__(&self) -> String {
        let a = Combatant(self.0.a.clone()).__repr__();
        let b = Combatant(self.0.b.clone()).__repr__();
        match self.shot() {
            None => format!("Situation.close_combat({a}, {b})"),
            Some(s) => {
                let (shooter, target) = match s.shooter {
                    dbcore::combat::ShooterSide::A => (a, b),
                    dbcore::combat::ShooterSide::B => (b, a),
                };
                let mut r = format!("Situation.shooting({shooter}, {target}");
                if s.support_shooters != 0 {
                    r.push_str(&format!(", support_shooters={}", s.support_shooters));
                }
                if s.target_shoots_back {
                    r.push_str(", target_shoots_back=True");
                }
                if s.from_behind {
                    r.push_str(", from_behind=True");
                }
                r.push(')');
                r
            }
        }
    }
}

impl Situation {
    fn shot(&self) -> Option<Shot> {
        match self.0.engagement {
            dbcore::Engagement::Shooting(s) => Some(s),
            dbcore::Engagement::CloseCombat => None,
        }
    }
}

/// One factor counted in a total: `name` (dbcore's name, e.g. 'vs_foot'), `label` (as a
/// player says it) and `value`. Unpacks as a `(name, value)` pair.
#[pyclass(module = "dbcore", name = "Factor", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Factor(pub dbcore::Factor);

json_pymethods! { Factor, "Factor";
    #[getter]
    fn name(&self) -> String {
        name_of(&self.0.name)
    }
    #[getter]
    fn label(&self) -> &'static str {
        self.0.name.label()
    }
    #[getter]
    fn value(&self) -> i32 {
        self.0.value
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        (self.name(), self.0.value)
            .into_pyobject(py)?
            .into_any()
            .try_iter()
            .map(Bound::into_any)
    }
    fn __repr__(&self) -> String {
        format!("Factor('{}', {:+})", self.name(), self.0.value)
    }
}

/// One side's part of a result: its `kind`, `die`, `factors`, `total` (die plus factors),
/// `band` against the other total, `outcome`, and the `rule` (section and row) that gave it.
#[pyclass(module = "dbcore", name = "SideResult", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct SideResult(pub dbcore::combat::SideResult);

json_pymethods! { SideResult, "SideResult";
    #[getter]
    fn kind(&self) -> ElementKind {
        ElementKind(self.0.kind)
    }
    #[getter]
    fn die(&self) -> u8 {
        self.0.die.get()
    }
    #[getter]
    fn factors(&self) -> Vec<Factor> {
        self.0.factors.iter().copied().map(Factor).collect()
    }
    /// The sum of the factors, without the die.
    #[getter]
    fn factor(&self) -> i32 {
        self.0.factors.iter().map(|f| f.value).sum()
    }
    #[getter]
    fn total(&self) -> i32 {
        self.0.total
    }
    /// 'higher', 'equal', 'beaten' or 'doubled' (§11).
    #[getter]
    fn band(&self) -> String {
        name_of(&self.0.band)
    }
    /// 'no_effect', 'recoil', 'flee' or 'destroyed'.
    #[getter]
    fn outcome(&self) -> String {
        name_of(&self.0.outcome)
    }
    #[getter]
    fn rule(&self) -> String {
        self.0.rule.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "SideResult('{}', die={}, total={}, band='{}', outcome='{}')",
            self.0.kind,
            self.die(),
            self.0.total,
            self.band(),
            self.outcome()
        )
    }
}

/// A winner following up (§12.5): `side` ('a' or 'b'), `distance` in BW straight ahead, and
/// `into` ('city', 'fort', 'camp') when it moves into a place whose defenders it destroyed.
#[pyclass(module = "dbcore", name = "Pursuit", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Pursuit(pub dbcore::Pursuit);

json_pymethods! { Pursuit, "Pursuit";
    #[getter]
    fn side(&self) -> String {
        name_of(&self.0.side)
    }
    #[getter]
    fn distance(&self) -> f64 {
        self.0.distance
    }
    #[getter]
    fn into(&self) -> Option<String> {
        self.0.into.map(|p| name_of(&p))
    }
    fn __repr__(&self) -> String {
        let into = self.into().map_or("None".to_owned(), |p| format!("'{p}'"));
        format!(
            "Pursuit(side='{}', distance={}, into={into})",
            self.side(),
            self.0.distance
        )
    }
}

/// The result of one close combat or shot: `a` and `b` (`SideResult`s) and `pursuit`.
#[pyclass(module = "dbcore", name = "CombatResult", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct CombatResult(pub dbcore::CombatResult);

json_pymethods! { CombatResult, "CombatResult";
    #[getter]
    fn a(&self) -> SideResult {
        SideResult(self.0.a.clone())
    }
    #[getter]
    fn b(&self) -> SideResult {
        SideResult(self.0.b.clone())
    }
    /// Who follows up and how far, or None (§12.5).
    #[getter]
    fn pursuit(&self) -> Option<Pursuit> {
        self.0.pursuit.map(Pursuit)
    }
    /// A few lines a player can read: each side's die, factors, total, outcome and rule.
    fn explain(&self) -> String {
        let mut s = String::new();
        for (side, r) in [("a", &self.0.a), ("b", &self.0.b)] {
            let factors: Vec<String> = r
                .factors
                .iter()
                .map(|f| format!("{} {:+}", f.name.label(), f.value))
                .collect();
            s.push_str(&format!(
                "{side} {}: die {} + [{}] = {} ({}): {} ({})\n",
                r.kind,
                r.die,
                factors.join(", "),
                r.total,
                name_of(&r.band),
                name_of(&r.outcome),
                r.rule
            ));
        }
        match &self.0.pursuit {
            Some(p) => s.push_str(&format!(
                "pursuit: {} follows up {} BW{}",
                name_of(&p.side),
                p.distance,
                p.into.map_or(String::new(), |i| format!(" into the {i}"))
            )),
            None => s.push_str("pursuit: none"),
        }
        s
    }
    fn __repr__(&self) -> String {
        let p = self.pursuit().map_or("None".to_owned(), |p| p.__repr__());
        format!(
            "CombatResult(a={}, b={}, pursuit={p})",
            self.a().__repr__(),
            self.b().__repr__()
        )
    }
}

/// The five margins of §11, each counted out of 36.
#[pyclass(module = "dbcore", name = "Margins", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Margins(pub CoreMargins);

json_pymethods! { Margins, "Margins";
    /// `a` doubled `b`.
    #[getter]
    fn a_doubled_b(&self) -> u8 {
        self.0.a_doubled_b
    }
    /// `a` won without doubling.
    #[getter]
    fn a_won(&self) -> u8 {
        self.0.a_won
    }
    #[getter]
    fn tied(&self) -> u8 {
        self.0.tied
    }
    /// `b` won without doubling.
    #[getter]
    fn b_won(&self) -> u8 {
        self.0.b_won
    }
    /// `b` doubled `a`.
    #[getter]
    fn b_doubled_a(&self) -> u8 {
        self.0.b_doubled_a
    }
    /// The five counts by name, in the order a_doubled_b, a_won, tied, b_won, b_doubled_a.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        ordered_dict(py, self.pairs())
    }
    fn __repr__(&self) -> String {
        let v: Vec<String> = self.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("Margins({})", v.join(", "))
    }
}

impl Margins {
    fn pairs(&self) -> [(&'static str, u8); 5] {
        let m = &self.0;
        [
            ("a_doubled_b", m.a_doubled_b),
            ("a_won", m.a_won),
            ("tied", m.tied),
            ("b_won", m.b_won),
            ("b_doubled_a", m.b_doubled_a),
        ]
    }
}

/// Exact odds over the 36 pairs of dice.
///
/// `outcomes` lists `(a_outcome, b_outcome, count)`, most frequent first; `a` and `b` map each
/// outcome to its count for that side; `margins` counts the five margins of §11; `a_factor`
/// and `b_factor` are the totals without dice. `count()` and `probability()` answer questions;
/// `table()` prints it all.
#[pyclass(module = "dbcore", name = "Odds", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Odds(pub dbcore::Odds);

json_pymethods! { Odds, "Odds";
    #[getter]
    fn outcomes(&self) -> Vec<(String, String, u8)> {
        self.0
            .outcomes
            .iter()
            .map(|e| (name_of(&e.a), name_of(&e.b), e.count))
            .collect()
    }
    #[getter]
    fn margins(&self) -> Margins {
        Margins(self.0.margins)
    }
    /// Count out of 36 of each outcome for `a`, as a dict in order of severity.
    #[getter]
    fn a<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        ordered_dict(py, by_outcome(&self.0.a))
    }
    /// Count out of 36 of each outcome for `b`, as a dict in order of severity.
    #[getter]
    fn b<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        ordered_dict(py, by_outcome(&self.0.b))
    }
    #[getter]
    fn a_factor(&self) -> i32 {
        self.0.a_factor
    }
    #[getter]
    fn b_factor(&self) -> i32 {
        self.0.b_factor
    }
    /// How many of the 36 dice pairs give `a` the outcome `a` (any if None) and `b` the
    /// outcome `b` (any if None).
    #[pyo3(signature = (a=None, b=None))]
    fn count(&self, a: Option<Text>, b: Option<Text>) -> PyResult<u32> {
        let a: Option<Outcome> = a.map(|s| parse("outcome", &s.0)).transpose()?;
        let b: Option<Outcome> = b.map(|s| parse("outcome", &s.0)).transpose()?;
        Ok(self
            .0
            .outcomes
            .iter()
            .filter(|e| a.is_none_or(|o| o == e.a) && b.is_none_or(|o| o == e.b))
            .map(|e| u32::from(e.count))
            .sum())
    }
    /// `count(a, b) / 36`.
    #[pyo3(signature = (a=None, b=None))]
    fn probability(&self, a: Option<Text>, b: Option<Text>) -> PyResult<f64> {
        Ok(f64::from(self.count(a, b)?) / 36.0)
    }
    /// The odds as a text table.
    fn table(&self) -> String {
        let o = &self.0;
        let mut s = format!(
            "a {:+} vs b {:+}, out of 36 dice pairs\n{:<10} {:<10} {:>5} {:>7}\n",
            o.a_factor, o.b_factor, "a", "b", "count", "percent"
        );
        for e in &o.outcomes {
            s.push_str(&format!(
                "{:<10} {:<10} {:>5} {:>6.1}%\n",
                name_of(&e.a),
                name_of(&e.b),
                e.count,
                f64::from(e.count) * 100.0 / 36.0
            ));
        }
        let m: Vec<String> = Margins(o.margins)
            .pairs()
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!("margins: {}", m.join(", ")));
        s
    }
    fn __repr__(&self) -> String {
        let v: Vec<String> = self
            .0
            .outcomes
            .iter()
            .map(|e| format!("{}/{}: {}", name_of(&e.a), name_of(&e.b), e.count))
            .collect();
        format!(
            "<Odds a {:+} vs b {:+}: {}>",
            self.0.a_factor,
            self.0.b_factor,
            v.join(", ")
        )
    }
}

/// A dict in the given order (Python dicts keep insertion order).
fn ordered_dict<'py, K: AsRef<str>>(
    py: Python<'py>,
    pairs: impl IntoIterator<Item = (K, u8)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in pairs {
        d.set_item(k.as_ref(), v)?;
    }
    Ok(d)
}

fn by_outcome(counts: &[u8; 4]) -> Vec<(String, u8)> {
    Outcome::ALL
        .iter()
        .zip(counts)
        .map(|(o, &n)| (name_of(o), n))
        .collect()
}

fn config_of<'a>(config: Option<&'a Bound<'_, RulesConfig>>) -> &'a dbcore::RulesConfig {
    match config {
        Some(c) => &c.get().0,
        None => default_config(),
    }
}

/// Read a pair of die scores; each must be 1 to 6 (DiceError otherwise).
fn dice_arg(dice: &Bound<'_, PyAny>) -> PyResult<[DieScore; 2]> {
    // Any Python integers: one out of every Rust range is a die score out of range too.
    let v: Vec<AnyInt> = dice.extract().map_err(|_| {
        errors::invalid_argument("dice must be a pair of integer scores (die_a, die_b)")
    })?;
    let [a, b] = v[..] else {
        return Err(errors::invalid_argument(format!(
            "dice must be a pair of scores (die_a, die_b), not {} values",
            v.len()
        )));
    };
    let die = |n: AnyInt| {
        let n = n.0.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        DieScore::from_i64(n).map_err(|e| errors::from_info(&e))
    };
    Ok([die(a)?, die(b)?])
}

/// Resolve one close combat or shot for the die scores `dice = (die_a, die_b)`, each 1 to 6.
/// Raises `RuleError` if the situation breaks the rules and `DiceError` for a bad score.
#[pyfunction]
#[pyo3(signature = (situation, dice, config=None))]
pub fn resolve(
    situation: &Bound<'_, Situation>,
    dice: &Bound<'_, PyAny>,
    config: Option<&Bound<'_, RulesConfig>>,
) -> PyResult<CombatResult> {
    let dice = dice_arg(dice)?;
    errors::guard(|| {
        dbcore::resolve(&situation.get().0, dice, config_of(config))
            .map(CombatResult)
            .map_err(|e| errors::from_info(&e))
    })
}

/// Exact odds of a situation over all 36 pairs of dice.
#[pyfunction]
#[pyo3(signature = (situation, config=None))]
pub fn odds(
    situation: &Bound<'_, Situation>,
    config: Option<&Bound<'_, RulesConfig>>,
) -> PyResult<Odds> {
    errors::guard(|| {
        dbcore::odds(&situation.get().0, config_of(config))
            .map(Odds)
            .map_err(|e| errors::from_info(&e))
    })
}

/// The distinct situation objects of a batch and, for each of its `n` items, which of them it
/// uses: `situations` is one `Situation` for every item or a sequence of them, one an item.
/// Objects are told apart by identity, so the same object given for many items is one entry.
fn situations_arg(
    situations: &Bound<'_, PyAny>,
    n: usize,
) -> PyResult<(Vec<dbcore::Situation>, Vec<usize>)> {
    if let Ok(one) = situations.cast::<Situation>() {
        return Ok((vec![one.get().0.clone()], vec![0; n]));
    }
    let many: Vec<Bound<'_, Situation>> = situations.extract().map_err(|_| {
        errors::invalid_argument(
            "situations must be a Situation or a sequence of Situation objects",
        )
    })?;
    if many.len() != n {
        return Err(errors::invalid_argument(format!(
            "{} situations for {n} pairs of dice: give one situation, or one a pair",
            many.len()
        )));
    }
    let mut slot_of: std::collections::HashMap<*mut pyo3::ffi::PyObject, usize> =
        std::collections::HashMap::new();
    let mut distinct = Vec::new();
    let slots = many
        .iter()
        .map(|s| {
            *slot_of.entry(s.as_ptr()).or_insert_with(|| {
                distinct.push(s.get().0.clone());
                distinct.len() - 1
            })
        })
        .collect();
    Ok((distinct, slots))
}

/// A refusal of item `i` of a batch, as its family's exception naming the item.
fn item_err<E: dbcore::ErrorInfo + std::fmt::Display>(i: usize, e: &E) -> PyErr {
    errors::raise(e.code(), e.rule(), format!("item {i}: {e}"))
}

/// The pairs of die scores of a batch, each as its number 0 to 35 (`6 * (a - 1) + (b - 1)`):
/// a sequence of pairs, or `bytes` holding the scores two by two.
fn dice_pairs_arg(dice: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let check = |i: usize, a: i64, b: i64| -> PyResult<u8> {
        let die = |n: i64| DieScore::from_i64(n).map_err(|e| item_err(i, &e));
        Ok(6 * (die(a)?.get() - 1) + (die(b)?.get() - 1))
    };
    if let Ok(bytes) = dice.cast::<pyo3::types::PyBytes>() {
        let raw = bytes.as_bytes();
        if raw.len() % 2 != 0 {
            return Err(errors::invalid_argument(
                "dice as bytes hold two scores a pair: an even number of bytes",
            ));
        }
        return raw
            .chunks_exact(2)
            .enumerate()
            .map(|(i, p)| check(i, i64::from(p[0]), i64::from(p[1])))
            .collect();
    }
    let pairs: Vec<(i64, i64)> = dice.extract().map_err(|_| {
        errors::invalid_argument(
            "dice must be a sequence of pairs of scores (die_a, die_b), or bytes",
        )
    })?;
    pairs
        .into_iter()
        .enumerate()
        .map(|(i, (a, b))| check(i, a, b))
        .collect()
}

/// Resolve many combats in one call, the loop in Rust with the GIL released: `dice` is a
/// sequence of pairs `(die_a, die_b)` (or `bytes`, two scores a pair), and `situations` one
/// `Situation` for them all or a sequence of them, one a pair. The same `CombatResult`s as
/// `resolve` one at a time, in order; the first refusal raises its exception (`RuleError`,
/// `DiceError`, ...), naming its item. Each distinct situation object is resolved once for each
/// pair of dice it meets, and items that repeat a situation object and its dice share one
/// (frozen, so unchangeable) result.
#[pyfunction]
#[pyo3(signature = (situations, dice, config=None))]
pub fn resolve_many<'py>(
    py: Python<'py>,
    situations: &Bound<'py, PyAny>,
    dice: &Bound<'py, PyAny>,
    config: Option<&Bound<'py, RulesConfig>>,
) -> PyResult<Bound<'py, pyo3::types::PyList>> {
    let pairs = dice_pairs_arg(dice)?;
    let (distinct, slots) = situations_arg(situations, pairs.len())?;
    let config = config_of(config);
    // One cell per distinct situation and pair of dice that some item uses, resolved once: a
    // situation met once directly, one met more often validated and counted once
    // (`dbcore::Prepared`).
    const NONE: u32 = u32::MAX;
    let mut cell_of = vec![NONE; distinct.len() * 36];
    let mut cells: Vec<(usize, usize)> = Vec::new();
    let mut uses = vec![0usize; distinct.len()];
    let item_cell: Vec<u32> = (0..pairs.len())
        .map(|i| {
            let c = slots[i] * 36 + usize::from(pairs[i]);
            if cell_of[c] == NONE {
                cell_of[c] = cells.len() as u32;
                cells.push((slots[i], c));
                uses[slots[i]] += 1;
            }
            cell_of[c]
        })
        .collect();
    let resolved = errors::guard(|| {
        Ok(py.detach(|| {
            let prepared: Vec<Option<Result<dbcore::Prepared, _>>> = distinct
                .iter()
                .zip(&uses)
                .map(|(s, &n)| (n > 1).then(|| dbcore::Prepared::new(s, config)))
                .collect();
            cells
                .iter()
                .map(|&(slot, c)| match &prepared[slot] {
                    Some(Ok(p)) => Ok(p.resolve(die_pair(c))),
                    Some(Err(e)) => Err(e.clone()),
                    None => dbcore::resolve(&distinct[slot], die_pair(c), config),
                })
                .collect::<Vec<_>>()
        }))
    })?;
    let mut objects: Vec<Result<Py<CombatResult>, dbcore::CombatError>> =
        Vec::with_capacity(resolved.len());
    for r in resolved {
        objects.push(match r {
            Ok(r) => Ok(Py::new(py, CombatResult(r))?),
            Err(e) => Err(e),
        });
    }
    let mut out = Vec::with_capacity(pairs.len());
    for (i, &c) in item_cell.iter().enumerate() {
        match &objects[c as usize] {
            Ok(o) => out.push(o.clone_ref(py)),
            Err(e) => return Err(item_err(i, e)),
        }
    }
    pyo3::types::PyList::new(py, out)
}

/// The pair of die scores numbered `c % 36` (`6 * (a - 1) + (b - 1)`).
fn die_pair(c: usize) -> [DieScore; 2] {
    let d = c % 36;
    [DieScore::ALL[d / 6], DieScore::ALL[d % 6]]
}

/// Exact odds of many situations in one call (a sequence of `Situation`), the loop in Rust
/// with the GIL released and shared among the cores for long batches: the same `Odds` as
/// `odds` one at a time, in order; the first refusal raises, naming its item.
#[pyfunction]
#[pyo3(signature = (situations, config=None))]
pub fn odds_many(
    py: Python<'_>,
    situations: &Bound<'_, PyAny>,
    config: Option<&Bound<'_, RulesConfig>>,
) -> PyResult<Vec<Odds>> {
    let many: Vec<Bound<'_, Situation>> = situations.extract().map_err(|_| {
        errors::invalid_argument("situations must be a sequence of Situation objects")
    })?;
    let situations: Vec<dbcore::Situation> = many.iter().map(|s| s.get().0.clone()).collect();
    let config = config_of(config);
    let one = |(i, s): (usize, &dbcore::Situation)| dbcore::odds(s, config).map_err(|e| (i, e));
    let results = errors::guard(|| {
        Ok(py.detach(|| {
            // Below a few hundred situations a thread costs more than it saves (and asking
            // how many cores there are reads the cgroup files, tens of microseconds).
            let threads = if situations.len() < 512 {
                1
            } else {
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get())
                    .min(situations.len() / 256)
                    .max(1)
            };
            if threads == 1 {
                return situations.iter().enumerate().map(one).collect();
            }
            let chunk = situations.len().div_ceil(threads);
            std::thread::scope(|s| {
                let parts: Vec<_> = situations
                    .chunks(chunk)
                    .enumerate()
                    .map(|(c, part)| {
                        s.spawn(move || {
                            part.iter()
                                .enumerate()
                                .map(|(i, sit)| one((c * chunk + i, sit)))
                                .collect::<Result<Vec<_>, _>>()
                        })
                    })
                    .collect();
                let mut out = Vec::with_capacity(situations.len());
                for p in parts {
                    match p.join() {
                        Ok(r) => out.extend(r?),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                Ok(out)
            })
        }))
    })?;
    match results {
        Ok(v) => Ok(v.into_iter().map(Odds).collect()),
        Err((i, e)) => Err(item_err(i, &e)),
    }
}
