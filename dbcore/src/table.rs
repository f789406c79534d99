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
use crate::svg::{battlefield_svg, SvgElement, SvgOptions};
use crate::terrain::{Going, GoingContext};
use crate::troops::{ElementKind, TroopType};
use crate::zones::{
    line_of_sight_blocker, nearest_distance, shot_geometry, ShotBlocker, ThreatZone, ZoneRelation,
};

/// An element standing on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlacedElement {
    /// Unique on the table.
    pub id: u32,
    /// The army it belongs to (0, 1, and 2 in DBAix).
    pub side: u8,
    pub kind: ElementKind,
    pub pose: Pose,
    /// The general's element.
    #[serde(default)]
    pub general: bool,
}

/// A battlefield with elements on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Table {
    pub battlefield: Battlefield,
    pub elements: Vec<PlacedElement>,
    /// The first PIP score was 1, so Plough is rough for the whole game (§3.1).
    #[serde(default)]
    pub plough_is_rough: bool,
}

/// A question about an element the table does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("there is no element {0} on the table")]
    UnknownElement(u32),
    #[error("element id {0} is used twice")]
    DuplicateId(u32),
}

impl ErrorInfo for TableError {
    fn code(&self) -> ErrorCode {
        match self {
            TableError::UnknownElement(_) => ErrorCode::UnknownElement,
            TableError::DuplicateId(_) => ErrorCode::InvalidArgument,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        None
    }
}

/// One contact of an element with another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
pub struct ShootingTarget {
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
pub enum ShotBlocked {
    /// An element is in the way (§9.5).
    Element { id: u32 },
    /// Terrain blocks sight (§9.5).
    Terrain { block: SightBlock },
}

impl Table {
    /// A table, refusing duplicate element ids.
    pub fn new(
        battlefield: Battlefield,
        elements: Vec<PlacedElement>,
    ) -> Result<Table, TableError> {
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
        let me = self.element(id)?;
        let r = rect_of(me, cfg);
        Ok(self
            .elements
            .iter()
            .filter(|o| o.id != id)
            .filter_map(|o| {
                classify_contact(&r, &rect_of(o, cfg)).map(|contact| ElementContact {
                    other: o.id,
                    friend: o.side == me.side,
                    contact,
                })
            })
            .collect())
    }

    /// Whether the element is in close combat: its front edge in a lined-up contact with an enemy
    /// (§8.2 a–c, §10.2), or an enemy's front edge lined up against it.
    pub fn in_close_combat(&self, id: u32, cfg: &RulesConfig) -> Result<bool, TableError> {
        Ok(self
            .contacts_of(id, cfg)?
            .iter()
            .any(|c| !c.friend && c.contact.lined_up && is_combat_contact(c.contact.kind)))
    }

    /// Enemy elements whose threat zone the element is in or on the boundary of (§8.1). Elements
    /// in close combat project none (§17.15); War Wagons project one from every edge.
    pub fn enemy_threat_zones_on(
        &self,
        id: u32,
        cfg: &RulesConfig,
    ) -> Result<Vec<u32>, TableError> {
        let me = self.element(id)?;
        let r = rect_of(me, cfg);
        let mut v = Vec::new();
        for o in self.elements.iter().filter(|o| o.side != me.side) {
            if self.in_close_combat(o.id, cfg)? {
                continue;
            }
            let tz =
                ThreatZone::of_element(&rect_of(o, cfg), o.kind.troop_type() == TroopType::WWg);
            if tz.relation(&r) != ZoneRelation::Outside {
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
        if self.in_close_combat(id, cfg)? {
            return Ok((ok, blocked));
        }
        let r = rect_of(me, cfg);
        let all_round = me.kind.troop_type() == TroopType::WWg;
        let artillery = me.kind.troop_type() == TroopType::Art;
        let own_tz = ThreatZone::of_element(&r, all_round);
        for t in self.elements.iter().filter(|t| t.side != me.side) {
            let tr = rect_of(t, cfg);
            let Some(shot) = shot_geometry(&r, all_round, range, &tr) else {
                continue;
            };
            let others: Vec<(u32, ShotBlocker)> = self
                .elements
                .iter()
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
                .collect();
            let blockers: Vec<ShotBlocker> = others.iter().map(|(_, b)| *b).collect();
            if let Some(i) = line_of_sight_blocker(&r, &shot, &blockers, artillery) {
                blocked.push((t.id, ShotBlocked::Element { id: others[i].0 }));
                continue;
            }
            if let Err(block) = self.battlefield.element_line_of_sight(&r, &tr) {
                blocked.push((t.id, ShotBlocked::Terrain { block }));
                continue;
            }
            ok.push(ShootingTarget {
                target: t.id,
                distance: shot.distance,
                in_threat_zone: own_tz.relation(&tr) != ZoneRelation::Outside,
            });
        }
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
        let elements: Vec<SvgElement> = self
            .elements
            .iter()
            .map(|e| SvgElement {
                rect: rect_of(e, cfg),
                side: e.side,
                label: e.kind.to_string(),
                general: e.general,
            })
            .collect();
        let mut opts = SvgOptions {
            going: self.going_context_plain(),
            ..SvgOptions::default()
        };
        if threat_zones {
            for e in &self.elements {
                if self.in_close_combat(e.id, cfg).unwrap_or(false) {
                    continue;
                }
                let r = rect_of(e, cfg);
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
