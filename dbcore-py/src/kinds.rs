//! `ElementKind` and `RulesConfig`.

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::errors;
use crate::names::{from_json, name_of, to_json, to_py};

/// The default rules, built once: element numbers read from it, and `config=None` means it.
pub fn default_config() -> &'static dbcore::RulesConfig {
    static DEFAULT: OnceLock<dbcore::RulesConfig> = OnceLock::new();
    DEFAULT.get_or_init(dbcore::RulesConfig::default)
}

/// Read an element kind given as an `ElementKind` or as its code.
pub fn kind_arg(obj: &Bound<'_, PyAny>) -> PyResult<dbcore::ElementKind> {
    if let Ok(k) = obj.cast::<ElementKind>() {
        return Ok(k.get().0);
    }
    if let Ok(s) = obj.cast::<pyo3::types::PyString>() {
        return crate::names::utf8(s)?
            .0
            .parse()
            .map_err(|e| errors::from_info(&e));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "an element kind must be an ElementKind or a code such as '4Bd', not {}",
        obj.get_type().name()?
    )))
}

/// An element kind as army lists write it: '4Bd', '3Kn', 'Mtd-4Bw', 'CF' (DBA3.md §2.1).
///
/// `ElementKind(code)` parses the code, ignoring case and surrounding spaces, and raises
/// `ElementCodeError` (code 110) for anything else. Fixed facts of the rules are properties;
/// the numbers (depth, moves, factors, range) are those of the default `RulesConfig`.
#[pyclass(module = "dbcore", name = "ElementKind", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ElementKind(pub dbcore::ElementKind);

#[pymethods]
impl ElementKind {
    #[new]
    fn new(code: crate::names::Text) -> PyResult<Self> {
        code.0
            .parse()
            .map(ElementKind)
            .map_err(|e: dbcore::ParseKindError| errors::from_info(&e))
    }

    /// Every kind the parser accepts: plain kinds in table order, then mounted infantry.
    #[staticmethod]
    fn all() -> Vec<ElementKind> {
        dbcore::ElementKind::all()
            .into_iter()
            .map(ElementKind)
            .collect()
    }

    /// The code as printed ('4Bd', 'Mtd-4Bw').
    #[getter]
    fn code(&self) -> String {
        self.0.code()
    }
    /// A short English name ('Blades (Solid)'); mounted infantry read 'Mounted ' and their
    /// foot name.
    #[getter]
    fn name(&self) -> String {
        self.0.info(default_config()).name
    }
    /// The basic troop type whose rows of the rules tables it reads ('Kn', 'Bd', 'CampFollowers').
    #[getter]
    fn troop_type(&self) -> String {
        name_of(&self.0.troop_type())
    }
    /// Mounted infantry ('Mtd-' prefix): they fight as foot (§2.1).
    #[getter]
    fn mounted_infantry(&self) -> bool {
        self.0.is_mounted_infantry()
    }
    /// Mounted (El, Kn, Cv, LH, SCh, Cm and their variants).
    #[getter]
    fn mounted(&self) -> bool {
        self.0.is_mounted()
    }
    /// Foot, including mounted infantry (§0.3).
    #[getter]
    fn foot(&self) -> bool {
        self.0.is_foot()
    }
    /// Fast foot in combat (§2.2).
    #[getter]
    fn fast(&self) -> bool {
        self.0.is_fast_foot()
    }
    /// Solid foot in combat (§2.2).
    #[getter]
    fn solid(&self) -> bool {
        self.0.is_solid_foot()
    }
    /// 'Fast' or 'Solid' as it moves, None for mounted (§2.2).
    #[getter]
    fn moves_as(&self) -> Option<String> {
        self.0.moves_as().map(|c| name_of(&c))
    }
    /// 'Fast' or 'Solid' as it fights, None for mounted (§2.2, §11).
    #[getter]
    fn fights_as(&self) -> Option<String> {
        self.0.fights_as().map(|c| name_of(&c))
    }
    /// A double element (§2.4).
    #[getter]
    fn double(&self) -> bool {
        self.0.is_double()
    }
    /// Camel-mounted: dunes and oasis are good going for it (§3.1).
    #[getter]
    fn camel_mounted(&self) -> bool {
        self.0.is_camel_mounted()
    }
    /// Shoots at a distance: Bows, War Wagons, Artillery (§9.1).
    #[getter]
    fn shoots(&self) -> bool {
        self.0.shoots()
    }
    /// A general-only element: CP, Lit or CWg (§2.1).
    #[getter]
    fn general_only(&self) -> bool {
        self.0.is_general_only()
    }
    /// Camp followers or denizens (§2.6).
    #[getter]
    fn civilian(&self) -> bool {
        self.0.is_civilian()
    }
    /// How it follows up a beaten opponent (§12.5): 'Never', 'OneBw' or 'HalfBwAfterFoot'.
    #[getter]
    fn pursuit(&self) -> String {
        name_of(&self.0.pursuit())
    }
    /// Base depth in BW (§1.3), default rules.
    #[getter]
    fn depth(&self) -> f64 {
        default_config().depth(self.0)
    }
    /// Tactical move in good going, BW (§7.3), default rules.
    #[getter]
    fn move_good(&self) -> f64 {
        default_config().move_distance(self.0, false)
    }
    /// Tactical move with any part in rough or bad going, BW (§7.3), default rules.
    #[getter]
    fn move_rough(&self) -> f64 {
        default_config().move_distance(self.0, true)
    }
    /// Combat factor against foot (§10.1), default rules.
    #[getter]
    fn factor_vs_foot(&self) -> i32 {
        default_config().kind(self.0.base()).factor_vs_foot
    }
    /// Combat factor against mounted (§10.1), default rules.
    #[getter]
    fn factor_vs_mounted(&self) -> i32 {
        default_config().kind(self.0.base()).factor_vs_mounted
    }
    /// Combat factor when shot at where it differs from the one against foot (§10.1), else None.
    #[getter]
    fn factor_shot_at(&self) -> Option<i32> {
        default_config().kind(self.0.base()).factor_shot_at
    }
    /// Distant shooting range in BW for kinds that shoot (§9.1), else None.
    #[getter]
    fn shooting_range(&self) -> Option<f64> {
        default_config().shooting_range(self.0)
    }

    /// Everything about the kind as one dict, dbcore's `KindInfo`: its code, name, troop type,
    /// class ('Mounted' or 'Foot'), the fixed facts and the numbers of `config` (the default
    /// rules when None); a number that does not apply is None.
    #[pyo3(signature = (config=None))]
    fn info<'py>(
        &self,
        py: Python<'py>,
        config: Option<&Bound<'py, RulesConfig>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cfg = match config {
            Some(c) => &c.get().0,
            None => default_config(),
        };
        to_py(py, &self.0.info(cfg))
    }

    /// The JSON form: the code as a JSON string, '"4Bd"'.
    fn to_json(&self) -> PyResult<String> {
        to_json(&self.0)
    }
    /// Read the JSON form.
    #[classmethod]
    fn from_json(_cls: &Bound<'_, PyType>, s: crate::names::Text) -> PyResult<Self> {
        from_json("ElementKind", &s.0).map(ElementKind)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (to_json(&slf.get().0)?,),
        ))
    }
    fn __repr__(&self) -> String {
        format!("ElementKind('{}')", self.0)
    }
    fn __str__(&self) -> String {
        self.0.code()
    }
}

/// Every number a house rule might change, as one JSON-backed value.
///
/// `RulesConfig()` and `RulesConfig.default()` are DBA 3.0 as the rules digest reads it. Change
/// numbers by editing the JSON from `to_json()` and reading it back with `from_json()`, which
/// checks it (ArgumentError on a missing kind or a non-positive distance).
#[pyclass(module = "dbcore", name = "RulesConfig", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct RulesConfig(pub dbcore::RulesConfig);

#[pymethods]
impl RulesConfig {
    #[new]
    fn new() -> Self {
        RulesConfig(default_config().clone())
    }
    /// The default rules (DBA 3.0).
    #[staticmethod]
    fn default() -> Self {
        RulesConfig(default_config().clone())
    }
    /// Whether these are exactly the default rules.
    #[getter]
    fn is_default(&self) -> bool {
        &self.0 == default_config()
    }
    fn to_json(&self) -> PyResult<String> {
        to_json(&self.0)
    }
    /// Read and check a configuration.
    #[classmethod]
    fn from_json(_cls: &Bound<'_, PyType>, s: crate::names::Text) -> PyResult<Self> {
        let cfg: dbcore::RulesConfig = from_json("RulesConfig", &s.0)?;
        cfg.validate().map_err(|e| errors::from_info(&e))?;
        Ok(RulesConfig(cfg))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (to_json(&slf.get().0)?,),
        ))
    }
    fn __repr__(&self) -> String {
        if self.is_default() {
            "RulesConfig.default()".to_owned()
        } else {
            format!(
                "<RulesConfig: house rules, {} element kinds>",
                self.0.kinds.len()
            )
        }
    }
}
