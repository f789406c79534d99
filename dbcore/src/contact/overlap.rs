//! Overlaps (§10.4, §8.2 (d)): whether an element in contact with an enemy overlaps it, by the
//! front corners or by mutual side contact.

use super::*;

/// Why an element overlaps an enemy (DBA3.md §10.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OverlapKind {
    /// Front corners touching right-to-right or left-to-left.
    FrontCorners,
    /// Mutual side-edge contact, which always counts as overlap.
    SideEdges,
}

/// Whether `element` overlaps `enemy` (DBA3.md §10.4, §8.2 (d)).
///
/// * `element_in_frontal_combat`: the element has an enemy in front-edge contact; such an element
///   does not overlap by corners (it is fighting to its front).
/// * `enemy_is_psiloi_or_scythed_chariot`: Psiloi and Scythed Chariots are never overlapped by
///   corner-to-corner contact, though mutual side contact still overlaps them.
///
/// Front-edge contact against an enemy's side is a flank contact, not an overlap, and is reported by
/// [`classify_contact`] as [`ContactKind::FrontToSide`]. A battlefield edge never overlaps (§17.21);
/// only elements are looked at here.
pub fn overlap(
    element: &ElementRect,
    element_in_frontal_combat: bool,
    enemy: &ElementRect,
    enemy_is_psiloi_or_scythed_chariot: bool,
) -> Option<OverlapKind> {
    let c = classify_contact(element, enemy)?;
    overlap_of_contact(
        c,
        || element_in_frontal_combat,
        enemy_is_psiloi_or_scythed_chariot,
    )
}

/// [`overlap`] of an element whose contact with the enemy (seen from the element) is known;
/// whether it is in frontal combat is asked only when the answer depends on it.
pub(crate) fn overlap_of_contact(
    c: Contact,
    element_in_frontal_combat: impl Fn() -> bool,
    enemy_is_psiloi_or_scythed_chariot: bool,
) -> Option<OverlapKind> {
    match (c.kind, c.a, c.b) {
        (ContactKind::SideToSide, _, _) => Some(OverlapKind::SideEdges),
        (
            ContactKind::CornerToCorner,
            Some(ContactPart::Corner(p)),
            Some(ContactPart::Corner(q)),
        ) if !enemy_is_psiloi_or_scythed_chariot
            && p == q
            && matches!(p, Corner::FrontLeft | Corner::FrontRight)
            && !element_in_frontal_combat() =>
        {
            Some(OverlapKind::FrontCorners)
        }
        _ => None,
    }
}
