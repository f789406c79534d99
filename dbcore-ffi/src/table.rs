//! A table (`dbcore::table::Table`: a battlefield with elements on it) as an opaque handle, and
//! the questions a table tool asks most: contacts, close combat, threat zones, shooting targets,
//! going, distance and a picture. Every answer is dbcore's; this file only translates.

use std::ffi::{c_char, CString};

use dbcore::geometry::Point;
use dbcore::table::{ShootingTarget, ShotBlocked, Table};
use dbcore::terrain::Going;
use serde::Serialize;

use crate::boundary::{
    arg, arg_str, boundary, flag, free_handle, to_flag, FfiError, Field, Guarded, Out,
};
use crate::json::to_c_string;
use crate::kind::DbcoreElementKind;
use crate::DbcoreStatus;

/// A table: a battlefield (board and terrain) with elements standing on it (an opaque handle
/// over `dbcore::table::Table`). Every question takes it as `const DbcoreTable *`, so one table
/// may be asked from many threads at once.
#[derive(Debug)]
pub struct DbcoreTable {
    guard: Guarded<Table>,
}

impl DbcoreTable {
    pub(crate) fn boxed(table: Table) -> *mut DbcoreTable {
        Box::into_raw(Box::new(DbcoreTable {
            guard: Guarded::new(table),
        }))
    }
}

/// The going classes of terrain (§3.1), worst last. `IMPASSABLE` is a waterway (§3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreTerrainGoing {
    Good = 0,
    Rough = 1,
    Bad = 2,
    Impassable = 3,
}

impl DbcoreTerrainGoing {
    fn of(g: Going) -> DbcoreTerrainGoing {
        match g {
            Going::Good => DbcoreTerrainGoing::Good,
            Going::Rough => DbcoreTerrainGoing::Rough,
            Going::Bad => DbcoreTerrainGoing::Bad,
            Going::Impassable => DbcoreTerrainGoing::Impassable,
        }
    }
}

/// One enemy in range whose shot is blocked, and why (dbcore's `ShotBlocked`, flattened).
#[derive(Debug, Serialize)]
struct BlockedShot {
    target: u32,
    #[serde(flatten)]
    why: ShotBlocked,
}

/// The JSON answer of `dbcore_table_shooting_targets_json`.
#[derive(Debug, Serialize)]
struct ShootingTargets {
    targets: Vec<ShootingTarget>,
    blocked: Vec<BlockedShot>,
}

/// Read a table from JSON, refusing element ids used twice.
pub(crate) fn table_from_json(text: &str) -> Result<Table, FfiError> {
    let t: Table = crate::boundary::parse(text)?;
    let mut checked = Table::new(t.battlefield, t.elements)?;
    checked.plough_is_rough = t.plough_is_rough;
    Ok(checked)
}

/// Ask a question of a live table handle.
///
/// # Safety
/// If non-NULL, `table` must be a live handle from `dbcore_table_new_json` or
/// `dbcore_table_clone`.
unsafe fn ask<T>(
    table: *const DbcoreTable,
    f: impl FnOnce(&Table) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    // SAFETY: the caller's contract on `table`.
    let handle = unsafe { arg(table, "table") }?;
    handle.guard.read(f)
}

/// Write a string C owns into an out-parameter.
pub(crate) fn c_text(s: String) -> Result<*mut c_char, FfiError> {
    CString::new(s)
        .map(CString::into_raw)
        .map_err(|e| FfiError::new(dbcore::ErrorCode::Internal, format!("text with NUL: {e}")))
}

/// Create a table from a JSON `dbcore::table::Table`:
/// `{"battlefield":{"board":{"width":15,"depth":15},"features":[]},"elements":[{"id":1,"side":0,
/// "kind":"4Bd","pose":{"x":7.5,"y":7,"facing":0}}]}` (`pose` is the midpoint of the front edge
/// in BW from the south-west corner, and the compass bearing faced; optional `"general"` and
/// `"plough_is_rough"`). Free it with `dbcore_table_free`.
///
/// # Safety
/// `table_json` must be a NUL-terminated string and `out` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_ARGUMENT`
/// for an element id used twice.
///
/// # Example
/// ```c
/// DbcoreTable *table = NULL;
/// if (dbcore_table_new_json(text, &table) != DBCORE_STATUS_OK) return 1;
/// // ...
/// dbcore_table_free(table);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_new_json(
    table_json: *const c_char,
    out: *mut *mut DbcoreTable,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table_json`.
        let text = unsafe { arg_str(table_json, "table_json") }?;
        let table = table_from_json(text)?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreTable::boxed(table)) };
        Ok(())
    })
}

/// Free a table. NULL is ignored.
///
/// # Safety
/// `table` must be NULL or a handle from `dbcore_table_new_json` or `dbcore_table_clone` not
/// freed before, and no other thread may be using it.
///
/// # Example
/// ```c
/// dbcore_table_free(table);
/// table = NULL;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_free(table: *mut DbcoreTable) {
    boundary(|| {
        // SAFETY: `table` is NULL or came from `Box::into_raw` in this file (the caller's
        // contract).
        unsafe { free_handle(table, |h| &h.guard) }
    })
}

/// A new handle holding a copy of the table; free each with `dbcore_table_free`.
///
/// # Safety
/// `table` must be a live table handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED` after a panic inside this handle.
///
/// # Example
/// ```c
/// DbcoreTable *copy = NULL;
/// dbcore_table_clone(table, &copy);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_clone(
    table: *const DbcoreTable,
    out: *mut *mut DbcoreTable,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table`.
        let copy = unsafe { ask(table, |t| Ok(t.clone())) }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreTable::boxed(copy)) };
        Ok(())
    })
}

/// The table as JSON (the form `dbcore_table_new_json` reads). Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `table` must be a live table handle and `out_json` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// if (dbcore_table_to_json(table, &json) == DBCORE_STATUS_OK) puts(json);
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_to_json(
    table: *const DbcoreTable,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `table`.
        let json = unsafe { ask(table, to_c_string) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// One element standing on a table, as `dbcore_table_element_at` reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct DbcorePlacedElement {
    /// Unique on the table.
    pub id: u32,
    /// The army it belongs to (0, 1, and 2 in DBAix).
    pub side: u32,
    pub kind: DbcoreElementKind,
    /// The midpoint of its front edge, BW from the south-west corner of the board.
    pub x: f64,
    pub y: f64,
    /// The compass bearing it faces, degrees clockwise from north (up the table).
    pub facing: f64,
    /// 1 for the general's element, else 0.
    pub general: u32,
}

/// The number of elements on the table.
///
/// # Safety
/// `table` must be a live table handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t n = 0;
/// dbcore_table_element_count(table, &n);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_element_count(
    table: *const DbcoreTable,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table`.
        let n = unsafe {
            ask(table, |t| {
                u32::try_from(t.elements.len())
                    .map_err(|_| FfiError::invalid("more than 2^32 elements"))
            })
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(n) };
        Ok(())
    })
}

/// The `index`th element of the table, in the order of its JSON: walk `0 ..
/// dbcore_table_element_count()` to learn the ids the questions take.
///
/// # Safety
/// `table` must be a live table handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` when `index` is not below the element count;
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// DbcorePlacedElement e;
/// for (uint32_t i = 0; dbcore_table_element_at(table, i, &e) == DBCORE_STATUS_OK; i++)
///     printf("%u at (%.2f, %.2f)\n", e.id, e.x, e.y);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_element_at(
    table: *const DbcoreTable,
    index: u32,
    out: *mut DbcorePlacedElement,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table`.
        let e = unsafe {
            ask(table, |t| {
                let e = t.elements.get(index as usize).ok_or_else(|| {
                    FfiError::invalid(format!(
                        "index must be below {} elements, not {index}",
                        t.elements.len()
                    ))
                })?;
                Ok(DbcorePlacedElement {
                    id: e.id,
                    side: u32::from(e.side),
                    kind: DbcoreElementKind::from_kind(e.kind),
                    x: e.pose.x,
                    y: e.pose.y,
                    facing: e.pose.facing,
                    general: to_flag(e.general),
                })
            })
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(e) };
        Ok(())
    })
}

/// Every element touching element `id`, as a JSON array of `dbcore::table::ElementContact`
/// (`[{"other":2,"friend":false,"contact":{"kind":"front_to_front","a":{"edge":"front"},
/// "b":{"edge":"front"},"shared_length":1.0,"lined_up":true}}]`), seen from `id` (§8.2).
/// Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `table` must be a live table handle and `out_json` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT` when the table has no element `id`; `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// if (dbcore_table_contacts_json(table, 1, &json) == DBCORE_STATUS_OK) puts(json);
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_contacts_json(
    table: *const DbcoreTable,
    id: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `table`.
        let json = unsafe {
            ask(table, |t| {
                to_c_string(&t.contacts_of(id, crate::default_rules())?)
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Whether element `id` is in close combat: its front edge lined up against an enemy, or an
/// enemy's front edge lined up against it (§8.2 a–c, §10.2). `*out` becomes 1 or 0.
///
/// # Safety
/// `table` must be a live table handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t fighting = 0;
/// dbcore_table_in_close_combat(table, 1, &fighting);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_in_close_combat(
    table: *const DbcoreTable,
    id: u32,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table`.
        let yes = unsafe {
            ask(
                table,
                |t| Ok(t.in_close_combat(id, crate::default_rules())?),
            )
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(to_flag(yes)) };
        Ok(())
    })
}

/// Whether element `id` is in, or on the edge of, an enemy's threat zone (§8.1). `*out`
/// becomes 1 or 0.
///
/// # Safety
/// `table` must be a live table handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t in_zone = 0;
/// if (dbcore_table_in_enemy_threat_zone(table, 3, &in_zone) == DBCORE_STATUS_OK && in_zone)
///     puts("element 3 is in an enemy threat zone");
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_in_enemy_threat_zone(
    table: *const DbcoreTable,
    id: u32,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table`.
        let yes = unsafe {
            ask(table, |t| {
                Ok(t.in_enemy_threat_zone(id, crate::default_rules())?)
            })
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(to_flag(yes)) };
        Ok(())
    })
}

/// The ids of the enemy elements whose threat zone element `id` is in or on the edge of, as a
/// JSON array (`[4,6]`) in table order (§8.1; elements in close combat project none, §17.15).
/// Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `table` must be a live table handle and `out_json` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// dbcore_table_threat_zones_on_json(table, 3, &json); // "[4]"
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_threat_zones_on_json(
    table: *const DbcoreTable,
    id: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `table`.
        let json = unsafe {
            ask(table, |t| {
                to_c_string(&t.enemy_threat_zones_on(id, crate::default_rules())?)
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The enemies element `id` could shoot at now, nearest first, and those in range whose shot is
/// blocked, with why (§9.1–9.5), as JSON:
/// `{"targets":[{"target":2,"distance":2.0,"in_threat_zone":false}],
/// "blocked":[{"target":5,"by":"element","id":4},{"target":6,"by":"terrain","block":{...}}]}`.
/// Kinds that do not shoot, and elements in close combat, have neither. Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `table` must be a live table handle and `out_json` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// if (dbcore_table_shooting_targets_json(table, 1, &json) == DBCORE_STATUS_OK) puts(json);
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_shooting_targets_json(
    table: *const DbcoreTable,
    id: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `table`.
        let json = unsafe {
            ask(table, |t| {
                let (targets, blocked) = t.shooting_targets(id, crate::default_rules())?;
                to_c_string(&ShootingTargets {
                    targets,
                    blocked: blocked
                        .into_iter()
                        .map(|(target, why)| BlockedShot { target, why })
                        .collect(),
                })
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The going element `id` is in: the worst it touches (§3.1), with dunes and oasis good for
/// camels. `*out_going` becomes a `DbcoreTerrainGoing`.
///
/// # Safety
/// `table` must be a live table handle and `out_going` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t going;
/// if (dbcore_table_going_under(table, 1, &going) == DBCORE_STATUS_OK &&
///     going == DBCORE_TERRAIN_GOING_BAD)
///     puts("in bad going");
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_going_under(
    table: *const DbcoreTable,
    id: u32,
    out_going: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_going, "out_going")?;
        // SAFETY: the caller's contract on `table`.
        let going = unsafe { ask(table, |t| Ok(t.going_under(id, crate::default_rules())?)) }?;
        // SAFETY: the caller's contract on `out_going`.
        unsafe { out.write(DbcoreTerrainGoing::of(going) as u32) };
        Ok(())
    })
}

/// The going at the point (`x`, `y`) of the table, in BW from the south-west corner (§3.1).
/// `*out_going` becomes a `DbcoreTerrainGoing`.
///
/// # Safety
/// `table` must be a live table handle and `out_going` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` for a coordinate that is NaN or infinite;
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t going;
/// dbcore_table_going_at(table, 3.5, 10.0, &going);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_going_at(
    table: *const DbcoreTable,
    x: f64,
    y: f64,
    out_going: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_going, "out_going")?;
        if !x.is_finite() || !y.is_finite() {
            return Err(FfiError::invalid(format!(
                "x and y must be finite numbers, not ({x}, {y})"
            )));
        }
        // SAFETY: the caller's contract on `table`.
        let going = unsafe { ask(table, |t| Ok(t.going_at(Point::new(x, y)))) }?;
        // SAFETY: the caller's contract on `out_going`.
        unsafe { out.write(DbcoreTerrainGoing::of(going) as u32) };
        Ok(())
    })
}

/// The least distance between elements `a` and `b`, in BW (0 when they touch).
///
/// # Safety
/// `table` must be a live table handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// double d;
/// if (dbcore_table_distance(table, 1, 2, &d) == DBCORE_STATUS_OK) printf("%.2f BW\n", d);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_distance(
    table: *const DbcoreTable,
    a: u32,
    b: u32,
    out: *mut f64,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `table`.
        let d = unsafe { ask(table, |t| Ok(t.distance(a, b, crate::default_rules())?)) }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(d) };
        Ok(())
    })
}

/// The picture of the table as an SVG document, each element labelled with its code (a
/// general's element has a gold border); with `threat_zones` 1, the threat zones of elements not in close combat are shaded.
/// Free `*out_svg` with `dbcore_string_free`.
///
/// # Safety
/// `table` must be a live table handle and `out_svg` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` when `threat_zones` is not 0 or 1; `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *svg = NULL;
/// if (dbcore_table_svg(table, 1, &svg) == DBCORE_STATUS_OK) fputs(svg, file);
/// dbcore_string_free(svg);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_table_svg(
    table: *const DbcoreTable,
    threat_zones: u32,
    out_svg: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_svg, "out_svg")?;
        let zones = flag(threat_zones, Field::root("threat_zones"))?;
        // SAFETY: the caller's contract on `table`.
        let svg = unsafe { ask(table, |t| c_text(t.svg(crate::default_rules(), zones))) }?;
        // SAFETY: the caller's contract on `out_svg`.
        unsafe { out.write(svg) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrain_going_numbers_follow_dbcores_order() {
        // DBA3.md §3.1: Good < Rough < Bad < Impassable, the worst being the maximum.
        let all = [Going::Good, Going::Rough, Going::Bad, Going::Impassable];
        for (i, g) in all.iter().enumerate() {
            assert_eq!(DbcoreTerrainGoing::of(*g) as usize, i);
        }
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let json = r#"{"battlefield":{"board":{"width":15,"depth":15},"features":[]},
            "elements":[{"id":1,"side":0,"kind":"4Bd","pose":{"x":5,"y":5,"facing":0}},
                        {"id":1,"side":1,"kind":"4Bd","pose":{"x":9,"y":5,"facing":0}}]}"#;
        let e = table_from_json(json).unwrap_err();
        assert_eq!(e.code, dbcore::ErrorCode::InvalidArgument);
    }

    #[test]
    fn a_panic_inside_a_table_poisons_it() {
        let json = r#"{"battlefield":{"board":{"width":15,"depth":15},"features":[]},
            "elements":[],"plough_is_rough":true}"#;
        let h = DbcoreTable::boxed(table_from_json(json).unwrap());
        let status = boundary(|| {
            let handle = unsafe { arg(h.cast_const(), "table") }?;
            handle
                .guard
                .read(|_| -> Result<(), FfiError> { panic!("inside") })
        });
        assert_eq!(status, DbcoreStatus::Panic);
        let mut out = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_table_to_json(h, &mut out) },
            DbcoreStatus::Poisoned
        );
        assert!(out.is_null());
        unsafe { dbcore_table_free(h) };
    }
}
