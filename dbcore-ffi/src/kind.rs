//! Element kinds: parse a code, print it back, enumerate them, and read their properties.

use std::ffi::{c_char, CString};

use dbcore::troops::{BaseKind, Class, ElementKind, FootClass, KindInfo, PursuitRule};

use crate::boundary::{arg, arg_str, boundary, copy_out, to_flag, FfiError, Field, Out, Quiet};

/// An element kind as C holds it: which base code, and whether it rides as mounted infantry
/// (`Mtd-4Bw`). A zeroed value is Elephants (`El`). Get one from `dbcore_element_kind_parse` or
/// `dbcore_element_kind_at` rather than typing the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub struct DbcoreElementKind {
    /// Position of the base code in dbcore's table order (`El`, `3Kn`, `4Kn`, `6Kn`, `HCh`, …,
    /// `CF`, `Dz`): 0 to 41.
    pub base: u32,
    /// 1 for mounted infantry (`Mtd-`), else 0. Only single foot codes may ride (§2.1).
    pub mounted_infantry: u32,
}

/// Fast or Solid foot (§2.2), or neither for mounted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcoreFootClass {
    /// Mounted: neither Fast nor Solid.
    None = 0,
    Fast = 1,
    Solid = 2,
}

/// How an element follows up a beaten close-combat opponent (§12.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum DbcorePursuitRule {
    /// Never pursues.
    Never = 0,
    /// 1 BW straight ahead.
    OneBw = 1,
    /// ½ BW straight ahead, only after fighting foot other than Psiloi.
    HalfBwAfterFoot = 2,
}

/// What an element kind is, with the numbers of the default rules configuration (DBA 3.0).
/// Flags are 0 or 1; distances are in base widths (BW).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct DbcoreElementKindInfo {
    /// Mounted (§2.1); mounted infantry are foot.
    pub mounted: u32,
    /// Fast or Solid as it moves (§2.2).
    pub moves_as: DbcoreFootClass,
    /// Fast or Solid as it fights (§2.2, §11): camp followers and denizens fight as Fast.
    pub fights_as: DbcoreFootClass,
    /// A double element (§2.4).
    pub double_element: u32,
    /// Camel-mounted (§3.1).
    pub camel: u32,
    /// A general-only element: CP, Lit or CWg (§2.1).
    pub general_only: u32,
    /// Camp followers or denizens (§2.6).
    pub civilian: u32,
    /// Shoots at a distance (§9.1).
    pub shoots: u32,
    /// Its move costs an extra PIP (§6.3).
    pub extra_pip: u32,
    /// How it pursues (§12.5).
    pub pursuit: DbcorePursuitRule,
    /// How far it pursues when it does, in BW (0 when it never does).
    pub pursuit_distance: f64,
    /// Base depth (§1.3).
    pub depth: f64,
    /// Tactical move in good going (§7.3).
    pub move_good: f64,
    /// Tactical move with any part in rough or bad going (§7.3).
    pub move_rough: f64,
    /// Shooting range (§9.1), 0 when it does not shoot.
    pub shooting_range: f64,
    /// Combat factor against foot (§10.1).
    pub factor_vs_foot: i32,
    /// Combat factor against mounted (§10.1).
    pub factor_vs_mounted: i32,
}

/// The C form of dbcore's `KindInfo`.
fn info_to_c(info: &KindInfo) -> DbcoreElementKindInfo {
    let foot = |c: Option<FootClass>| match c {
        None => DbcoreFootClass::None,
        Some(FootClass::Fast) => DbcoreFootClass::Fast,
        Some(FootClass::Solid) => DbcoreFootClass::Solid,
    };
    DbcoreElementKindInfo {
        mounted: to_flag(info.class == Class::Mounted),
        moves_as: foot(info.moves_as),
        fights_as: foot(info.fights_as),
        double_element: to_flag(info.double),
        camel: to_flag(info.camel_mounted),
        general_only: to_flag(info.general_only),
        civilian: to_flag(info.civilian),
        shoots: to_flag(info.shoots),
        extra_pip: to_flag(info.extra_pip),
        pursuit: match info.pursuit {
            PursuitRule::Never => DbcorePursuitRule::Never,
            PursuitRule::OneBw => DbcorePursuitRule::OneBw,
            PursuitRule::HalfBwAfterFoot => DbcorePursuitRule::HalfBwAfterFoot,
        },
        pursuit_distance: info.pursuit.distance(),
        depth: info.depth,
        move_good: info.move_good,
        move_rough: info.move_rough,
        shooting_range: info.shooting_range.unwrap_or(0.0),
        factor_vs_foot: info.factor_vs_foot,
        factor_vs_mounted: info.factor_vs_mounted,
    }
}

impl DbcoreElementKind {
    /// The C form of a kind.
    pub fn from_kind(kind: ElementKind) -> DbcoreElementKind {
        // The index of the base in `BaseKind::ALL`, which is the enum's order.
        DbcoreElementKind {
            base: kind.base().index() as u32,
            mounted_infantry: to_flag(kind.is_mounted_infantry()),
        }
    }

    /// The kind this C value names, refusing an index out of range, a flag other than 0/1, and a
    /// `Mtd-` prefix on a kind that never rides (§2.1).
    pub fn to_kind(self, what: Field<'_>) -> Result<ElementKind, FfiError> {
        let base = *BaseKind::ALL.get(self.base as usize).ok_or_else(|| {
            FfiError::invalid(format!(
                "{what}.base must be below {}, not {}",
                BaseKind::ALL.len(),
                self.base
            ))
        })?;
        match self.mounted_infantry {
            0 => Ok(ElementKind::new(base)),
            1 => Ok(ElementKind::mounted_infantry(base)?),
            v => Err(FfiError::invalid(format!(
                "{what}.mounted_infantry must be 0 or 1, not {v}"
            ))),
        }
    }
}

const fn count_kinds() -> u32 {
    let mut n = BaseKind::ALL.len() as u32;
    let mut i = 0;
    while i < BaseKind::ALL.len() {
        if BaseKind::ALL[i].may_be_mounted_infantry() {
            n += 1;
        }
        i += 1;
    }
    n
}

/// How many element kinds the parser knows (plain codes, then mounted infantry).
const KIND_COUNT: u32 = count_kinds();

/// Parse an element code (`"4Bd"`, `"3Kn"`, `"Mtd-4Bw"`, `"CF"`; ASCII case and surrounding
/// white space are ignored).
///
/// # Safety
/// `code` must be a NUL-terminated string; `out` must be valid for writes. Either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_ELEMENT_CODE` (§2.1) for an unknown code, `DBCORE_STATUS_INVALID_UTF8`.
///
/// # Example
/// ```c
/// DbcoreElementKind kind;
/// if (dbcore_element_kind_parse("4Bd", &kind) == DBCORE_STATUS_OK) {
///     // ...
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_element_kind_parse(
    code: *const c_char,
    out: *mut DbcoreElementKind,
) -> crate::DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `code`.
        let code = unsafe { arg_str(code, "code") }?;
        let kind: ElementKind = code.parse()?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreElementKind::from_kind(kind)) };
        Ok(())
    })
}

/// Print a kind's code (`"Mtd-4Bw"`) into `buf` as a NUL-terminated string truncated to fit
/// `len` bytes, and set `*out_len` (if not NULL) to the code's full length without its NUL, as
/// `snprintf` counts it. Codes are at most 8 bytes, so a `char[16]` always fits.
///
/// # Safety
/// `kind` must point to a valid `DbcoreElementKind`; `buf` must be valid for writes of `len`
/// bytes (it may be NULL when `len` is 0, to ask for the length only); `out_len` may be NULL.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` for an index or flag out of range,
/// `DBCORE_STATUS_ELEMENT_CODE` for `Mtd-` on a kind that never rides.
///
/// # Example
/// ```c
/// char code[16];
/// dbcore_element_kind_print(&kind, code, sizeof code, NULL); // "4Bd"
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_element_kind_print(
    kind: *const DbcoreElementKind,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> crate::DbcoreStatus {
    boundary(|| {
        // SAFETY: the caller's contract on `kind`.
        let kind = unsafe { arg(kind, "kind") }?.to_kind(Field::root("kind"))?;
        if buf.is_null() && len != 0 {
            return Err(FfiError::null("buf (with len > 0)"));
        }
        let code = kind.code();
        // SAFETY: the caller's contract on `buf` and `len`.
        let n = unsafe { copy_out(code.as_bytes(), buf, len) };
        if !out_len.is_null() {
            // SAFETY: non-NULL; validity is the caller's contract.
            unsafe { Out::new(out_len, "out_len")?.write(n) };
        }
        Ok(())
    })
}

/// The number of element kinds `dbcore_element_kind_at` enumerates.
///
/// # Safety
/// Always safe to call.
///
/// # Example
/// ```c
/// for (uint32_t i = 0; i < dbcore_element_kind_count(); i++) {
///     // ...
/// }
/// ```
#[no_mangle]
pub extern "C" fn dbcore_element_kind_count() -> u32 {
    // Allowlisted: returns a constant computed at compile time; cannot panic.
    KIND_COUNT
}

/// The `index`th element kind the parser knows: every plain code in table order, then every
/// mounted-infantry code.
///
/// # Safety
/// `out` must be valid for writes.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` when `index >= dbcore_element_kind_count()`.
///
/// # Example
/// ```c
/// DbcoreElementKind k;
/// for (uint32_t i = 0; dbcore_element_kind_at(i, &k) == DBCORE_STATUS_OK; i++) {
///     // ...
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_element_kind_at(
    index: u32,
    out: *mut DbcoreElementKind,
) -> crate::DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        let all = ElementKind::all();
        let kind = all.get(index as usize).ok_or_else(|| {
            FfiError::invalid(format!(
                "index must be below {} element kinds, not {index}",
                all.len()
            ))
        })?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreElementKind::from_kind(*kind)) };
        Ok(())
    })
}

/// What a kind is: mounted or foot, Fast or Solid, double, camel, general-only, shooter, extra
/// PIP, pursuit, and the numbers of the default rules configuration (depth, moves, factors).
///
/// # Safety
/// `kind` must point to a valid `DbcoreElementKind`; `out` must be valid for writes.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` for an index or flag out of range.
///
/// # Example
/// ```c
/// DbcoreElementKindInfo info;
/// dbcore_element_kind_info(&kind, &info);
/// printf("+%d vs foot, +%d vs mounted\n", info.factor_vs_foot, info.factor_vs_mounted);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_element_kind_info(
    kind: *const DbcoreElementKind,
    out: *mut DbcoreElementKindInfo,
) -> crate::DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `kind`.
        let kind = unsafe { arg(kind, "kind") }?.to_kind(Field::root("kind"))?;
        let info = kind.info(crate::default_rules());
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(info_to_c(&info)) };
        Ok(())
    })
}

/// Everything about a kind as dbcore's `KindInfo` JSON object: the facts of
/// `dbcore_element_kind_info` with the code, an English name, the troop type and class, and the
/// numbers of the default rules (`{"code":"4Bd","name":"Blades (Solid)","troop_type":"Bd",
/// "class":"foot",...,"factor_shot_at":4,"shooting_range":null}`; an absent number is `null`).
/// Free the string with `dbcore_string_free`.
///
/// # Safety
/// `code` must be a NUL-terminated string; `out_json` must be valid for writes.
///
/// # Errors
/// `DBCORE_STATUS_ELEMENT_CODE`, `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// if (dbcore_element_kind_json("3Kn", &json) == DBCORE_STATUS_OK) puts(json);
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_element_kind_json(
    code: *const c_char,
    out_json: *mut *mut c_char,
) -> crate::DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `code`.
        let kind: ElementKind = unsafe { arg_str(code, "code") }?.parse()?;
        let json = crate::json::to_c_string(&kind.info(crate::default_rules()))?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Free a string dbcore returned (`*out_json`). NULL is ignored, so freeing a pointer you set to
/// NULL after freeing it is harmless.
///
/// # Safety
/// `s` must be NULL or a string from a dbcore function, not freed before.
///
/// # Example
/// ```c
/// dbcore_string_free(json);
/// json = NULL;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_string_free(s: *mut c_char) {
    boundary(|| {
        if !s.is_null() {
            // SAFETY: `s` came from `CString::into_raw` in this library (the caller's contract).
            drop(unsafe { CString::from_raw(s) });
        }
        Ok(Quiet(()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_survives_the_c_form() {
        let all = ElementKind::all();
        assert_eq!(all.len() as u32, KIND_COUNT);
        for k in all {
            assert_eq!(
                DbcoreElementKind::from_kind(k).to_kind(Field::root("k")),
                Ok(k)
            );
        }
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let bad = DbcoreElementKind {
            base: 42,
            mounted_infantry: 0,
        };
        assert_eq!(
            bad.to_kind(Field::root("k")).unwrap_err().code,
            dbcore::ErrorCode::InvalidArgument
        );
        // §2.1: Elephants never ride as mounted infantry.
        let el = DbcoreElementKind {
            base: 0,
            mounted_infantry: 1,
        };
        assert_eq!(
            el.to_kind(Field::root("k")).unwrap_err().code,
            dbcore::ErrorCode::ElementCode
        );
    }
}
