//! The table as a table tool sees it: a battlefield with elements standing on it, and the
//! questions such a tool asks most (DBA3.md §3, §8, §9, §17.15).
//!
//! A [`Table`] is plain serde data; every question is a pure function of it. The battle state
//! builds on the same questions.

use serde::{Deserialize, Serialize};

use crate::battlefield::{Battlefield, SightBlock};
use crate::config::RulesConfig;
use crate::contact::{classify_contact, Contact, ContactKind};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{ElementRect, Point, Pose, TOLERANCE};
use crate::svg::{battlefield_svg, SvgElement, SvgKey, SvgOptions, SvgTroopKind};
use crate::terrain::{Going, GoingContext};
use crate::troops::{ElementKind, TroopType};
use crate::zones::{
    nearest_distance, scan_shots, Shooter, ShotAt, ShotBlocker, ThreatZone, ZoneRelation,
};

/// An element standing on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PlacedElement {
    /// Unique on the table.
    pub id: u32,
    /// The army it belongs to (0, 1, and 2 in DBAix).
    pub side: u8,
    /// What troops it is.
    pub kind: ElementKind,
    /// Where it stands: front-edge midpoint in BW, and facing in degrees clockwise from +y.
    pub pose: Pose,
    /// The general's element.
    #[serde(default)]
    pub general: bool,
}

/// A battlefield with elements on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The board and its terrain.
    pub battlefield: Battlefield,
    /// The elements on it, each id once.
    pub elements: Vec<PlacedElement>,
    /// The first PIP score was 1, so Plough is rough for the whole game (§3.1).
    #[serde(default)]
    pub plough_is_rough: bool,
}

/// A question about an element the table does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// No element has this id.
    #[error("there is no element {0} on the table")]
    UnknownElement(u32),
    /// Two elements share this id.
    #[error("element id {0} is used twice")]
    DuplicateId(u32),
    /// A size or number outside `crate::limits`.
    #[error(transparent)]
    Limit(#[from] crate::sizes::LimitError),
}

impl ErrorInfo for TableError {
    fn code(&self) -> ErrorCode {
        match self {
            TableError::UnknownElement(_) => ErrorCode::UnknownElement,
            TableError::DuplicateId(_) | TableError::Limit(_) => ErrorCode::InvalidArgument,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        None
    }
}

/// One contact of an element with another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ElementContact {
    /// The other element.
    pub other: u32,
    /// The other element is a friend.
    pub friend: bool,
    /// The contact as seen from the asking element (`a` is the asking element).
    pub contact: Contact,
}

/// An enemy an element can shoot at (§9.1–9.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ShootingTarget {
    /// The enemy's id.
    pub target: u32,
    /// From the nearest point of the shooting edge to the nearest point of the target, BW.
    pub distance: f64,
    /// The target is in the shooter's own threat zone: it must be shot first (§9.3).
    pub in_threat_zone: bool,
}

/// Why an enemy in range cannot be shot at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "by")]
#[serde(deny_unknown_fields)]
pub enum ShotBlocked {
    /// An element is in the way (§9.5).
    Element {
        /// The element in the way.
        id: u32,
    },
    /// Terrain blocks sight (§9.5).
    Terrain {
        /// The terrain that blocks it.
        block: SightBlock,
    },
}

impl Table {
    /// A table, refusing duplicate element ids and sizes or numbers outside
    /// [`crate::limits::check_table`] (a NaN coordinate, a board 10¹⁶ BW wide).
    ///
    /// ```
    /// use dbcore::battlefield::{Battlefield, Board};
    /// use dbcore::contact::ContactKind;
    /// use dbcore::geometry::Pose;
    /// use dbcore::table::{PlacedElement, Table};
    /// use dbcore::RulesConfig;
    ///
    /// let el = |id, side, code: &str, x, y, facing| PlacedElement {
    ///     id,
    ///     side,
    ///     kind: code.parse().unwrap(),
    ///     pose: Pose::new(x, y, facing),
    ///     general: false,
    /// };
    /// // Blades facing north, Warband facing south against them, Bows 3 BW further north.
    /// let table = Table::new(
    ///     Battlefield::new(Board::default()),
    ///     vec![
    ///         el(1, 0, "4Bd", 7.5, 5.0, 0.0),
    ///         el(2, 1, "4Wb", 7.5, 5.0, 180.0),
    ///         el(3, 1, "4Bw", 7.5, 8.0, 180.0),
    ///     ],
    /// )
    /// .unwrap();
    /// let cfg = RulesConfig::default();
    /// let contacts = table.contacts_of(1, &cfg).unwrap();
    /// assert_eq!(contacts.len(), 1);
    /// assert_eq!((contacts[0].other, contacts[0].contact.kind), (2, ContactKind::FrontToFront));
    /// assert!(table.in_close_combat(1, &cfg).unwrap());
    /// assert!((table.distance(1, 3, &cfg).unwrap() - 3.0).abs() < 1e-9);
    /// assert!(table.element(4).is_err());
    /// ```
    pub fn new(
        battlefield: Battlefield,
        elements: Vec<PlacedElement>,
    ) -> Result<Table, TableError> {
        crate::sizes::check_battlefield(&battlefield)?;
        crate::sizes::check_len(
            &|| "elements".into(),
            elements.len(),
            crate::sizes::MAX_ELEMENTS,
        )?;
        for (i, e) in elements.iter().enumerate() {
            crate::sizes::check_pose(&|| format!("elements[{i}].pose"), &e.pose)?;
        }
        let mut ids: Vec<u32> = elements.iter().map(|e| e.id).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(TableError::DuplicateId(w[0]));
        }
        Ok(Table {
            battlefield,
            elements,
            plough_is_rough: false,
        })
    }

    /// The element with this id.
    pub fn element(&self, id: u32) -> Result<&PlacedElement, TableError> {
        self.elements
            .iter()
            .find(|e| e.id == id)
            .ok_or(TableError::UnknownElement(id))
    }

    /// The element's rectangle, with its kind's depth from `cfg` (§1.3).
    pub fn rect(&self, id: u32, cfg: &RulesConfig) -> Result<ElementRect, TableError> {
        let e = self.element(id)?;
        Ok(rect_of(e, cfg))
    }

    /// Every element touching this one, nearest first by id.
    pub fn contacts_of(
        &self,
        id: u32,
        cfg: &RulesConfig,
    ) -> Result<Vec<ElementContact>, TableError> {
        let near = NearIndex::new(self, cfg);
        let i = self.index_of(id)?;
        Ok(self.contacts_at(i, &near))
    }

    fn index_of(&self, id: u32) -> Result<usize, TableError> {
        self.elements
            .iter()
            .position(|e| e.id == id)
            .ok_or(TableError::UnknownElement(id))
    }

    /// The contacts of the element at index `i`, looking only at its neighbours in `near`.
    fn contacts_at(&self, i: usize, near: &NearIndex) -> Vec<ElementContact> {
        let me = &self.elements[i];
        let r = &near.rects[i];
        near.around(i, CONTACT_REACH)
            .into_iter()
            .filter(|&j| self.elements[j].id != me.id)
            .filter_map(|j| {
                let o = &self.elements[j];
                classify_contact(r, &near.rects[j]).map(|contact| ElementContact {
                    other: o.id,
                    friend: o.side == me.side,
                    contact,
                })
            })
            .collect()
    }

    /// Whether the element at index `i` is in close combat (see [`Table::in_close_combat`]).
    fn in_close_combat_at(&self, i: usize, near: &NearIndex) -> bool {
        self.contacts_at(i, near)
            .iter()
            .any(|c| !c.friend && c.contact.lined_up && is_combat_contact(c.contact.kind))
    }

    /// Whether the element is in close combat: its front edge in a lined-up contact with an enemy
    /// (§8.2 a–c, §10.2), or an enemy's front edge lined up against it.
    pub fn in_close_combat(&self, id: u32, cfg: &RulesConfig) -> Result<bool, TableError> {
        let near = NearIndex::new(self, cfg);
        let i = self.index_of(id)?;
        Ok(self.in_close_combat_at(i, &near))
    }

    /// Enemy elements whose threat zone the element is in or on the boundary of (§8.1). Elements
    /// in close combat project none (§17.15); War Wagons project one from every edge.
    pub fn enemy_threat_zones_on(
        &self,
        id: u32,
        cfg: &RulesConfig,
    ) -> Result<Vec<u32>, TableError> {
        let near = NearIndex::new(self, cfg);
        let i = self.index_of(id)?;
        let me = &self.elements[i];
        let r = &near.rects[i];
        let mut v = Vec::new();
        // Only enemies within a threat zone's depth of the element can hold it in one.
        for j in near.around(i, ZONE_REACH) {
            let o = &self.elements[j];
            if o.side == me.side || self.in_close_combat_at(j, &near) {
                continue;
            }
            let tz = ThreatZone::of_element(&near.rects[j], o.kind.troop_type() == TroopType::WWg);
            if tz.relation(r) != ZoneRelation::Outside {
                v.push(o.id);
            }
        }
        Ok(v)
    }

    /// Whether the element is in (or at the edge of) any enemy threat zone (§8.1).
    pub fn in_enemy_threat_zone(&self, id: u32, cfg: &RulesConfig) -> Result<bool, TableError> {
        Ok(!self.enemy_threat_zones_on(id, cfg)?.is_empty())
    }

    /// The enemies this element could shoot at now, nearest first (§9.1–9.5), and those in range
    /// whose shot is blocked, with why. Kinds that do not shoot have none. Whether it moved too far
    /// this bound is for the battle to judge (§9.1).
    #[allow(clippy::type_complexity)]
    pub fn shooting_targets(
        &self,
        id: u32,
        cfg: &RulesConfig,
    ) -> Result<(Vec<ShootingTarget>, Vec<(u32, ShotBlocked)>), TableError> {
        let me = self.element(id)?;
        let mut ok = Vec::new();
        let mut blocked = Vec::new();
        let Some(range) = cfg.shooting_range(me.kind) else {
            return Ok((ok, blocked));
        };
        let near = NearIndex::new(self, cfg);
        let i = self.index_of(id)?;
        if self.in_close_combat_at(i, &near) {
            return Ok((ok, blocked));
        }
        let r = near.rects[i];
        let all_round = me.kind.troop_type() == TroopType::WWg;
        let artillery = me.kind.troop_type() == TroopType::Art;
        let own_tz = ThreatZone::of_element(&r, all_round);
        let shooter = Shooter {
            rect: &r,
            all_round,
            artillery,
            range,
            zone: &own_tz,
        };
        // Only enemies within range can be targets, and only elements inside the box of the
        // shooter and its target can stand in the way.
        let candidates = near
            .around(i, range + CONTACT_REACH)
            .into_iter()
            .filter(|&ti| self.elements[ti].side != me.side)
            .map(|ti| (ti, near.rects[ti]));
        let blockers = |ti: usize| {
            let t = &self.elements[ti];
            let (lo, hi) = union_box(near.boxes[i], near.boxes[ti]);
            near.in_box(lo, hi, CONTACT_REACH)
                .into_iter()
                .map(|j| &self.elements[j])
                .filter(|o| o.id != me.id && o.id != t.id)
                .map(|o| {
                    (
                        o.id,
                        ShotBlocker {
                            rect: rect_of(o, cfg),
                            is_enemy_psiloi: o.side != me.side
                                && o.kind.troop_type() == TroopType::Ps,
                        },
                    )
                })
                .unzip()
        };
        scan_shots(
            &shooter,
            &self.battlefield,
            candidates,
            blockers,
            |ti, at| {
                let target = self.elements[ti].id;
                match at {
                    ShotAt::Clear {
                        distance,
                        in_threat_zone,
                    } => ok.push(ShootingTarget {
                        target,
                        distance,
                        in_threat_zone,
                    }),
                    ShotAt::Element(id) => blocked.push((target, ShotBlocked::Element { id })),
                    ShotAt::Terrain(block) => {
                        blocked.push((target, ShotBlocked::Terrain { block }))
                    }
                }
            },
        );
        ok.sort_by(|a, b| {
            a.distance
                .total_cmp(&b.distance)
                .then(a.target.cmp(&b.target))
        });
        Ok((ok, blocked))
    }

    /// The going the element is in: the worst it touches (§3.1), good in dunes and oasis for
    /// camels.
    pub fn going_under(&self, id: u32, cfg: &RulesConfig) -> Result<Going, TableError> {
        let e = self.element(id)?;
        Ok(self
            .battlefield
            .going_under(&rect_of(e, cfg), self.going_context(e.kind)))
    }

    /// The going at a point of the table (for an element without camels).
    pub fn going_at(&self, p: Point) -> Going {
        // A square of 4 tolerances a side, so that the inset used for "partly in" leaves a point.
        let probe = ElementRect::new(
            Pose::new(p.x, p.y + 2.0 * TOLERANCE, 0.0),
            4.0 * TOLERANCE,
            4.0 * TOLERANCE,
        );
        self.battlefield
            .going_under(&probe, self.going_context_plain())
    }

    /// The least distance between two elements, BW.
    pub fn distance(&self, a: u32, b: u32, cfg: &RulesConfig) -> Result<f64, TableError> {
        Ok(nearest_distance(&self.rect(a, cfg)?, &self.rect(b, cfg)?))
    }

    /// The picture of the table, each element labelled with its code (a general's with a gold
    /// border).
    /// With `threat_zones`, the threat zones of elements not in close combat are shaded.
    pub fn svg(&self, cfg: &RulesConfig, threat_zones: bool) -> String {
        self.svg_with_commands(cfg, threat_zones, &|_| None)
    }

    /// As [`Table::svg`], each element whose id `command_of` knows marked with its command
    /// (Big Battle and Giant, §14).
    pub fn svg_with_commands(
        &self,
        cfg: &RulesConfig,
        threat_zones: bool,
        command_of: &dyn Fn(u32) -> Option<u8>,
    ) -> String {
        self.svg_with_key(cfg, threat_zones, command_of, None)
    }

    /// As [`Table::svg_with_commands`], with a title and a key round the table when `key` is
    /// given ([`SvgKey`]); the troop kinds on the table are added to a key that lists none.
    pub fn svg_with_key(
        &self,
        cfg: &RulesConfig,
        threat_zones: bool,
        command_of: &dyn Fn(u32) -> Option<u8>,
        key: Option<SvgKey>,
    ) -> String {
        self.svg_with_marks(cfg, threat_zones, command_of, key, Vec::new())
    }

    /// As [`Table::svg_with_key`], with marks of what happened lately drawn over the table
    /// ([`crate::svg::SvgMark`]).
    pub fn svg_with_marks(
        &self,
        cfg: &RulesConfig,
        threat_zones: bool,
        command_of: &dyn Fn(u32) -> Option<u8>,
        key: Option<SvgKey>,
        marks: Vec<crate::svg::SvgMark>,
    ) -> String {
        let elements: Vec<SvgElement> = self
            .elements
            .iter()
            .map(|e| SvgElement {
                rect: rect_of(e, cfg),
                side: e.side,
                label: e.kind.to_string(),
                general: e.general,
                command: command_of(e.id),
                id: Some(e.id),
            })
            .collect();
        let key = key.map(|mut k| {
            if k.troop_kinds.is_empty() {
                k.troop_kinds = self.troop_kinds();
            }
            k
        });
        let mut opts = SvgOptions {
            going: self.going_context_plain(),
            key,
            marks,
            ..SvgOptions::default()
        };
        if threat_zones {
            let near = NearIndex::new(self, cfg);
            for (i, e) in self.elements.iter().enumerate() {
                if self.in_close_combat_at(i, &near) {
                    continue;
                }
                let r = near.rects[i];
                let all_round = e.kind.troop_type() == TroopType::WWg;
                if let ThreatZone::Edges(edges) = ThreatZone::of_element(&r, all_round) {
                    for s in edges {
                        opts.threat_zones.push(zone_box(&r, s));
                    }
                }
            }
        }
        battlefield_svg(&self.battlefield, &elements, &opts)
    }

    /// The troop kinds on the table, by code, each once.
    fn troop_kinds(&self) -> Vec<SvgTroopKind> {
        let kinds: std::collections::BTreeMap<String, String> = self
            .elements
            .iter()
            .map(|e| {
                let name = if e.kind.is_mounted_infantry() {
                    format!("{}, mounted infantry", e.kind.base().name())
                } else {
                    e.kind.base().name().to_string()
                };
                (e.kind.to_string(), name)
            })
            .collect();
        kinds
            .into_iter()
            .map(|(code, name)| SvgTroopKind { code, name })
            .collect()
    }

    fn going_context(&self, kind: ElementKind) -> GoingContext {
        GoingContext {
            camel_mounted: kind.is_camel_mounted(),
            plough_is_rough: self.plough_is_rough,
        }
    }

    fn going_context_plain(&self) -> GoingContext {
        GoingContext {
            camel_mounted: false,
            plough_is_rough: self.plough_is_rough,
        }
    }
}

/// The 1 BW box standing outward from one edge segment of an element.
fn zone_box(r: &ElementRect, s: crate::geometry::Segment) -> crate::geometry::Polygon {
    let centre = r.centre();
    let mid = s.midpoint();
    let d = s.b - s.a;
    let mut n = Point::new(-d.y, d.x);
    let len = n.length();
    if len > 0.0 {
        n = n * (1.0 / len);
    }
    if n.dot(mid - centre) < 0.0 {
        n = -n;
    }
    crate::geometry::Polygon::new(vec![
        s.a,
        s.b,
        s.b + n * crate::zones::THREAT_ZONE_DEPTH,
        s.a + n * crate::zones::THREAT_ZONE_DEPTH,
    ])
}

/// The rectangle of a placed element.
pub fn rect_of(e: &PlacedElement, cfg: &RulesConfig) -> ElementRect {
    ElementRect::new(e.pose, 1.0, cfg.depth(e.kind))
}

/// Contacts in which a front edge meets an enemy (§8.2 a–c).
fn is_combat_contact(k: ContactKind) -> bool {
    matches!(
        k,
        ContactKind::FrontToFront
            | ContactKind::FrontToRear
            | ContactKind::RearToFront
            | ContactKind::FrontToSide
            | ContactKind::SideToFront
    )
}

/// Bounding boxes further apart than this cannot be in contact (§8.2 uses [`TOLERANCE`]).
const CONTACT_REACH: f64 = 4.0 * TOLERANCE;
/// Bounding boxes further apart than this cannot be in one another's threat zone (§8.1).
const ZONE_REACH: f64 = crate::zones::THREAT_ZONE_DEPTH + 4.0 * TOLERANCE;

/// The box covering two boxes.
fn union_box(a: (Point, Point), b: (Point, Point)) -> (Point, Point) {
    (
        Point::new(a.0.x.min(b.0.x), a.0.y.min(b.0.y)),
        Point::new(a.1.x.max(b.1.x), a.1.y.max(b.1.y)),
    )
}

/// The elements' rectangles with their bounding boxes bucketed on a square grid by centre, so
/// that "who is within `d` of this" looks at a few cells rather than the whole table: each query
/// is near linear in the table however many elements it holds. Results come back in table
/// order, so answers do not depend on the bucketing.
#[derive(Debug)]
pub(crate) struct NearIndex {
    pub(crate) rects: Vec<ElementRect>,
    pub(crate) boxes: Vec<(Point, Point)>,
    /// Side of a cell: at least the largest box's extent, so a box's centre is never more
    /// than one cell from any point of it.
    cell: f64,
    /// Largest half-extent of any box.
    half: f64,
    /// (cell column, cell row, index), sorted.
    order: Vec<(i64, i64, usize)>,
}

impl NearIndex {
    pub(crate) fn new(table: &Table, cfg: &RulesConfig) -> NearIndex {
        NearIndex::of_rects(table.elements.iter().map(|e| rect_of(e, cfg)).collect())
    }

    pub(crate) fn of_rects(rects: Vec<ElementRect>) -> NearIndex {
        let boxes: Vec<(Point, Point)> = rects
            .iter()
            .map(|r| crate::geometry::Polygon::new(r.corners().to_vec()).bounds())
            .collect();
        let half = boxes
            .iter()
            .map(|(lo, hi)| (hi.x - lo.x).max(hi.y - lo.y) * 0.5)
            .filter(|h| h.is_finite())
            .fold(0.0, f64::max);
        let cell = (2.0 * half).max(1.0);
        let mut order: Vec<(i64, i64, usize)> = boxes
            .iter()
            .enumerate()
            .map(|(i, (lo, hi))| {
                let (cx, cy) = Self::cell_of(cell, (lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5);
                (cx, cy, i)
            })
            .collect();
        order.sort_unstable();
        NearIndex {
            rects,
            boxes,
            cell,
            half,
            order,
        }
    }

    fn cell_of(cell: f64, x: f64, y: f64) -> (i64, i64) {
        // Coordinates are within `limits::MAX_COORDINATE`, so the casts cannot saturate in
        // practice; `as` saturates (NaN gives 0) rather than failing if they somehow did.
        ((x / cell).floor() as i64, (y / cell).floor() as i64)
    }

    /// Indices of the boxes within `reach` of box `i` (itself included), in table order.
    pub(crate) fn around(&self, i: usize, reach: f64) -> Vec<usize> {
        let (lo, hi) = self.boxes[i];
        self.in_box(lo, hi, reach)
    }

    /// Indices of the boxes within `reach` of the box `lo..hi`, in table order.
    pub(crate) fn in_box(&self, lo: Point, hi: Point, reach: f64) -> Vec<usize> {
        let grow = reach + self.half;
        let (x0, y0) = Self::cell_of(self.cell, lo.x - grow, lo.y - grow);
        let (x1, y1) = Self::cell_of(self.cell, hi.x + grow, hi.y + grow);
        let mut out = Vec::new();
        let within = |j: usize| {
            let (blo, bhi) = self.boxes[j];
            let gap_x = (blo.x - hi.x).max(lo.x - bhi.x);
            let gap_y = (blo.y - hi.y).max(lo.y - bhi.y);
            gap_x <= reach && gap_y <= reach
        };
        // A reach wider than the table has elements (a huge range from a configuration that was
        // never validated): one pass over every box is cheaper than walking the columns.
        if x1.saturating_sub(x0) >= self.order.len() as i64 {
            return (0..self.boxes.len()).filter(|&j| within(j)).collect();
        }
        for cx in x0..=x1 {
            let start = self.order.partition_point(|&(x, y, _)| (x, y) < (cx, y0));
            for &(x, y, j) in &self.order[start..] {
                if x != cx || y > y1 {
                    break;
                }
                if within(j) {
                    out.push(j);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// A table: its battlefield, at most [`MAX_ELEMENTS`](crate::sizes::MAX_ELEMENTS) elements, every pose in range.
pub fn check_table(t: &Table) -> Result<(), crate::sizes::LimitError> {
    crate::sizes::check_battlefield(&t.battlefield)?;
    crate::sizes::check_len(
        &|| "elements".into(),
        t.elements.len(),
        crate::sizes::MAX_ELEMENTS,
    )?;
    for (i, e) in t.elements.iter().enumerate() {
        crate::sizes::check_pose(&|| format!("elements[{i}].pose"), &e.pose)?;
    }
    Ok(())
}
