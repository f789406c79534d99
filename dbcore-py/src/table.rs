//! `PlacedElement` and `Table`: a battlefield with elements standing on it, and the questions a
//! table tool asks most. Every answer is dbcore's (`dbcore::table::Table`); this file only
//! translates, and JSON, pickles and deep copies go through dbcore's serde form.

use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Pose};
use dbcore::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};

use crate::errors;
use crate::kinds::{default_config, kind_arg, ElementKind, RulesConfig};
use crate::names::{from_json, json_pymethods, name_of, to_json, to_py, AnyInt, Text};

fn config_of<'a>(config: Option<&'a Bound<'_, RulesConfig>>) -> &'a dbcore::RulesConfig {
    match config {
        Some(c) => &c.get().0,
        None => default_config(),
    }
}

/// A table error (an unknown element id, code 104) as its exception.
fn table_err(e: dbcore::table::TableError) -> PyErr {
    errors::from_info(&e)
}

/// Element `id`'s contacts as dicts shaped as the JSON of `dbcore::table::ElementContact` that C
/// and the referee server give: `other`, `friend` and `contact` (`kind`, the touching parts `a`
/// and `b` such as `{'edge': 'front'}` or `{'corner': 'front_left'}`, `shared_length`, `lined_up`).
pub(crate) fn contact_dicts<'py>(
    py: Python<'py>,
    table: &dbcore::table::Table,
    id: u32,
    config: &dbcore::RulesConfig,
) -> PyResult<Bound<'py, PyList>> {
    let contacts = errors::guard(|| table.contacts_of(id, config).map_err(table_err))?;
    let list = PyList::empty(py);
    for c in &contacts {
        list.append(to_py(py, c)?)?;
    }
    Ok(list)
}

/// A terrain going as Python spells it: dbcore's serde name in lower case ('good', 'rough',
/// 'bad', 'impassable'), like the combat going of `Combatant`.
fn going_name(g: dbcore::terrain::Going) -> String {
    name_of(&g).to_ascii_lowercase()
}

/// An element standing on a table (DBA3.md §1.3): `id` (unique on the table), `side` (0, 1, or
/// 2 in DBAix), `kind` (an `ElementKind` or code), the midpoint of its front edge (`x`, `y`, in
/// BW from the south-west corner of the board, y up the table), the compass bearing it `facing`
/// (0 = up the table, 90 = right, clockwise) and whether it is the `general`'s element.
#[pyclass(module = "dbcore", name = "PlacedElement", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PlacedElement(pub dbcore::table::PlacedElement);

/// Read a side number.
fn side_arg(side: AnyInt) -> PyResult<u8> {
    side.to("side", "0 to 255")
}

/// Read an element id.
fn id_arg(id: AnyInt) -> PyResult<u32> {
    id.to("an element id", "0 to 2**32-1")
}

/// A pose within `dbcore::limits` (finite, on or near the table, a facing within a turn).
fn pose_arg(x: f64, y: f64, facing: f64) -> PyResult<Pose> {
    let pose = Pose::new(x, y, facing);
    dbcore::limits::check_pose(&|| "the element's pose".into(), &pose)
        .map_err(|e| errors::from_info(&e))?;
    Ok(pose)
}

/// An element given as a `PlacedElement`, or a dict with the same keys as its constructor.
fn placed_arg(obj: &Bound<'_, PyAny>) -> PyResult<dbcore::table::PlacedElement> {
    if let Ok(p) = obj.cast::<PlacedElement>() {
        return Ok(p.get().0.clone());
    }
    let Ok(d) = obj.cast::<PyDict>() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "an element must be a PlacedElement or a dict with id, side, kind, x, y, facing \
             (and optionally general), not {}",
            obj.get_type().name()?
        )));
    };
    let need = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(key)?.ok_or_else(|| {
            errors::invalid_argument(format!("an element dict needs the key '{key}'"))
        })
    };
    for key in d.keys() {
        let Text(k) = key.extract()?;
        if !["id", "side", "kind", "x", "y", "facing", "general"].contains(&k.as_str()) {
            return Err(errors::invalid_argument(format!(
                "an element dict has no key '{k}' (id, side, kind, x, y, facing, general)"
            )));
        }
    }
    Ok(dbcore::table::PlacedElement {
        id: id_arg(need("id")?.extract()?)?,
        side: side_arg(need("side")?.extract()?)?,
        kind: kind_arg(&need("kind")?)?,
        pose: pose_arg(
            need("x")?.extract()?,
            need("y")?.extract()?,
            need("facing")?.extract()?,
        )?,
        general: match d.get_item("general")? {
            Some(g) => g.extract()?,
            None => false,
        },
    })
}

json_pymethods! { PlacedElement, "PlacedElement";
    #[new]
    #[pyo3(signature = (id, side, kind, x, y, facing, general=false))]
    fn new(
        id: AnyInt,
        side: AnyInt,
        kind: &Bound<'_, PyAny>,
        x: f64,
        y: f64,
        facing: f64,
        general: bool,
    ) -> PyResult<Self> {
        Ok(PlacedElement(dbcore::table::PlacedElement {
            id: id_arg(id)?,
            side: side_arg(side)?,
            kind: kind_arg(kind)?,
            pose: pose_arg(x, y, facing)?,
            general,
        }))
    }
    #[getter]
    fn id(&self) -> u32 {
        self.0.id
    }
    #[getter]
    fn side(&self) -> u8 {
        self.0.side
    }
    #[getter]
    fn kind(&self) -> ElementKind {
        ElementKind(self.0.kind)
    }
    #[getter]
    fn x(&self) -> f64 {
        self.0.pose.x
    }
    #[getter]
    fn y(&self) -> f64 {
        self.0.pose.y
    }
    #[getter]
    fn facing(&self) -> f64 {
        self.0.pose.facing
    }
    #[getter]
    fn general(&self) -> bool {
        self.0.general
    }
    fn __repr__(&self) -> String {
        let e = &self.0;
        format!(
            "PlacedElement({}, {}, '{}', {:?}, {:?}, {:?}{})",
            e.id,
            e.side,
            e.kind,
            e.pose.x,
            e.pose.y,
            e.pose.facing,
            if e.general { ", general=True" } else { "" }
        )
    }
}

/// Read a table, refusing element ids used twice.
fn checked(t: dbcore::table::Table) -> PyResult<dbcore::table::Table> {
    let mut c = dbcore::table::Table::new(t.battlefield, t.elements).map_err(table_err)?;
    c.plough_is_rough = t.plough_is_rough;
    Ok(c)
}

/// A table: a battlefield (board and terrain) with elements standing on it, and the questions a
/// table tool asks most (DBA3.md §3, §8, §9).
///
/// `Table(elements=[...], side=15.0, plough_is_rough=False)` puts elements (`PlacedElement`s or
/// dicts with the same keys) on an empty square board of `side` BW (15 to 20, §1.2). A table
/// with terrain comes from `Table.from_json` (dbcore's serde form, shared with the C layer).
/// Element ids must be unique. Every question takes an optional `config` (`RulesConfig`, the
/// default rules when None), and an id the table does not have raises `ArgumentError` (code 104).
/// In a notebook the table draws itself.
#[pyclass(module = "dbcore", name = "Table", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct Table(pub dbcore::table::Table);

#[pymethods]
impl Table {
    #[new]
    #[pyo3(signature = (elements=Vec::new(), side=15.0, plough_is_rough=false))]
    fn new(elements: Vec<Bound<'_, PyAny>>, side: f64, plough_is_rough: bool) -> PyResult<Self> {
        let board = Board::standard(side)
            .map_err(|e| errors::raise(ErrorCode::InvalidArgument, Some("§1.2"), e.to_string()))?;
        let elements = elements
            .iter()
            .map(placed_arg)
            .collect::<PyResult<Vec<_>>>()?;
        let mut t =
            dbcore::table::Table::new(Battlefield::new(board), elements).map_err(table_err)?;
        t.plough_is_rough = plough_is_rough;
        Ok(Table(t))
    }

    /// The elements in table order.
    #[getter]
    fn elements(&self) -> Vec<PlacedElement> {
        self.0.elements.iter().cloned().map(PlacedElement).collect()
    }
    /// The board's width in BW.
    #[getter]
    fn width(&self) -> f64 {
        self.0.battlefield.board.width
    }
    /// The board's depth in BW.
    #[getter]
    fn depth(&self) -> f64 {
        self.0.battlefield.board.depth
    }
    /// The number of terrain features.
    #[getter]
    fn feature_count(&self) -> usize {
        self.0.battlefield.features.len()
    }
    /// The first PIP score was 1, so Plough is rough for the whole game (§3.1).
    #[getter]
    fn plough_is_rough(&self) -> bool {
        self.0.plough_is_rough
    }
    /// The element with this id.
    fn element(&self, id: AnyInt) -> PyResult<PlacedElement> {
        self.0
            .element(id_arg(id)?)
            .cloned()
            .map(PlacedElement)
            .map_err(table_err)
    }

    /// Every element touching element `id`, as dicts seen from `id`, shaped exactly as the JSON
    /// of `dbcore::table::ElementContact` that C and the referee server give: `other` (its id),
    /// `friend`, and `contact` with `kind` (e.g. 'front_to_front'), the parts `a` and `b` that
    /// touch (`{'edge': 'front'}`), `shared_length` (BW of edge shared) and `lined_up` (squared
    /// up as §8.2 a–c asks).
    #[pyo3(signature = (id, config=None))]
    fn contacts<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
        config: Option<&Bound<'py, RulesConfig>>,
    ) -> PyResult<Bound<'py, PyList>> {
        contact_dicts(py, &self.0, id_arg(id)?, config_of(config))
    }

    /// Whether element `id` is in close combat: its front edge lined up against an enemy, or an
    /// enemy's front edge lined up against it (§8.2 a–c, §10.2).
    #[pyo3(signature = (id, config=None))]
    fn in_close_combat(
        &self,
        id: AnyInt,
        config: Option<&Bound<'_, RulesConfig>>,
    ) -> PyResult<bool> {
        errors::guard(|| {
            self.0
                .in_close_combat(id_arg(id)?, config_of(config))
                .map_err(table_err)
        })
    }

    /// The ids of the enemies whose threat zone element `id` is in or on the edge of, in table
    /// order (§8.1; elements in close combat project none, §17.15).
    #[pyo3(signature = (id, config=None))]
    fn threat_zones_on(
        &self,
        id: AnyInt,
        config: Option<&Bound<'_, RulesConfig>>,
    ) -> PyResult<Vec<u32>> {
        errors::guard(|| {
            self.0
                .enemy_threat_zones_on(id_arg(id)?, config_of(config))
                .map_err(table_err)
        })
    }

    /// Whether element `id` is in, or on the edge of, any enemy threat zone (§8.1).
    #[pyo3(signature = (id, config=None))]
    fn in_enemy_threat_zone(
        &self,
        id: AnyInt,
        config: Option<&Bound<'_, RulesConfig>>,
    ) -> PyResult<bool> {
        errors::guard(|| {
            self.0
                .in_enemy_threat_zone(id_arg(id)?, config_of(config))
                .map_err(table_err)
        })
    }

    /// `(targets, blocked)`: the enemies element `id` could shoot at now, nearest first, as
    /// dicts `{'target', 'distance', 'in_threat_zone'}` (§9.1–9.3), and the enemies in range
    /// whose shot is blocked, as dicts `{'target', 'by': 'element', 'id'}` or
    /// `{'target', 'by': 'terrain', 'block'}` (§9.5) — the same shape as the C layer's JSON.
    /// Kinds that do not shoot, and elements in close combat, have neither.
    #[pyo3(signature = (id, config=None))]
    fn shooting_targets<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
        config: Option<&Bound<'py, RulesConfig>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyList>)> {
        let (targets, blocked) = errors::guard(|| {
            self.0
                .shooting_targets(id_arg(id)?, config_of(config))
                .map_err(table_err)
        })?;
        let out = PyList::empty(py);
        for (target, why) in &blocked {
            let d = to_py(py, why)?;
            let d = d.cast_into::<PyDict>().map_err(|_| {
                errors::internal(format!("a blocked shot is not a JSON object: {why:?}"))
            })?;
            // The target first, as in the C layer's JSON.
            let with_target = PyDict::new(py);
            with_target.set_item("target", target)?;
            with_target.update(d.as_mapping())?;
            out.append(with_target)?;
        }
        Ok((to_py(py, &targets)?, out))
    }

    /// The going element `id` is in: the worst it touches (§3.1), with dunes and oasis good for
    /// camels: 'good', 'rough', 'bad' or 'impassable'.
    #[pyo3(signature = (id, config=None))]
    fn going_under(&self, id: AnyInt, config: Option<&Bound<'_, RulesConfig>>) -> PyResult<String> {
        errors::guard(|| {
            self.0
                .going_under(id_arg(id)?, config_of(config))
                .map(going_name)
                .map_err(table_err)
        })
    }

    /// The going at the point (`x`, `y`) of the table, BW from the south-west corner (§3.1).
    fn going_at(&self, x: f64, y: f64) -> PyResult<String> {
        if !x.is_finite() || !y.is_finite() {
            return Err(errors::invalid_argument(format!(
                "x and y must be finite numbers, not ({x}, {y})"
            )));
        }
        errors::guard(|| Ok(going_name(self.0.going_at(Point::new(x, y)))))
    }

    /// The least distance between elements `a` and `b`, in BW (0 when they touch).
    #[pyo3(signature = (a, b, config=None))]
    fn distance(
        &self,
        a: AnyInt,
        b: AnyInt,
        config: Option<&Bound<'_, RulesConfig>>,
    ) -> PyResult<f64> {
        errors::guard(|| {
            self.0
                .distance(id_arg(a)?, id_arg(b)?, config_of(config))
                .map_err(table_err)
        })
    }

    /// The picture of the table as an SVG document; with `threat_zones`, the threat zones of
    /// elements not in close combat are shaded.
    #[pyo3(signature = (threat_zones=false, config=None))]
    fn svg(&self, threat_zones: bool, config: Option<&Bound<'_, RulesConfig>>) -> PyResult<String> {
        errors::guard(|| Ok(self.0.svg(config_of(config), threat_zones)))
    }

    /// The picture a notebook shows.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(false, None)
    }

    /// The JSON form (dbcore's serde form, shared with the C layer).
    fn to_json(&self) -> PyResult<String> {
        to_json(&self.0)
    }
    /// Read the JSON form (ArgumentError: code 102 if it cannot be read, 103 for an id used
    /// twice).
    #[classmethod]
    fn from_json(_cls: &Bound<'_, PyType>, s: Text) -> PyResult<Self> {
        checked(from_json("Table", &s.0)?).map(Table)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (to_json(&slf.get().0)?,),
        ))
    }
    fn __len__(&self) -> usize {
        self.0.elements.len()
    }
    fn __repr__(&self) -> String {
        let t = &self.0;
        let mut sides: Vec<u8> = t.elements.iter().map(|e| e.side).collect();
        sides.sort_unstable();
        sides.dedup();
        let per_side: Vec<String> = sides
            .iter()
            .map(|s| {
                let n = t.elements.iter().filter(|e| e.side == *s).count();
                format!("side {s}: {n}")
            })
            .collect();
        let features = t.battlefield.features.len();
        format!(
            "<Table {}x{} BW, {} terrain feature{}, {} element{}{}>",
            t.battlefield.board.width,
            t.battlefield.board.depth,
            features,
            if features == 1 { "" } else { "s" },
            t.elements.len(),
            if t.elements.len() == 1 { "" } else { "s" },
            if per_side.is_empty() {
                String::new()
            } else {
                format!(" ({})", per_side.join(", "))
            }
        )
    }
}
