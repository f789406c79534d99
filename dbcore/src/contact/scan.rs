//! Every contact on a table at once: [`scan_contacts`] sweeps the elements' boxes along x and
//! classifies (§8.2) only the pairs whose boxes meet.

use super::*;

/// One contact found by [`scan_contacts`], between the elements with ids `a` and `b`, where `a`
/// comes earlier in the scanned slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ContactReport {
    /// The earlier element's id.
    pub a: u32,
    /// The later element's id.
    pub b: u32,
    /// Whether both belong to the same side (friends) or not (enemies).
    pub same_side: bool,
    /// The contact seen from `a`.
    pub contact: Contact,
}

/// Every contact among `elements` (id, side, rectangle), ordered by the slice positions of the pair.
///
/// Pairs are first filtered by bounding boxes on a sweep along x (sort by the boxes' left
/// ends), so a table of a few dozen elements costs little more than the touching pairs themselves.
pub fn scan_contacts<S: PartialEq>(elements: &[(u32, S, ElementRect)]) -> Vec<ContactReport> {
    scan(elements, false)
}

/// The contacts of [`scan_contacts`] between elements of different sides only, in the same
/// order: what close combat and conforming ask (§8.3, §10.2), without classifying the contacts
/// of every pair of friends standing side by side in a line.
pub fn scan_enemy_contacts<S: PartialEq>(elements: &[(u32, S, ElementRect)]) -> Vec<ContactReport> {
    scan(elements, true)
}

pub(super) fn scan<S: PartialEq>(
    elements: &[(u32, S, ElementRect)],
    enemies_only: bool,
) -> Vec<ContactReport> {
    // Each rectangle's outline once (one sine and cosine, four square roots), and its bounding
    // box from the outline's corners, widened by four tolerances: two rectangles within one
    // tolerance of each other (the most a contact allows) always have overlapping widened boxes,
    // so the sweep below only ever lets through pairs the exact test then refuses, never the
    // reverse (#15). A rectangle with a non-finite corner is paired with every other.
    let outlines: Vec<RectOutline> = elements.iter().map(|e| RectOutline::of(&e.2)).collect();
    let boxes: Vec<(f64, f64, f64, f64)> = outlines.iter().map(scan_box).collect();
    // Sweep along x: sorted by the boxes' left ends (then by position), each box meets only
    // those starting before its right end.
    let mut order: Vec<usize> = (0..elements.len()).collect();
    sort_by(&mut order, |&p, &q| {
        boxes[p].0.total_cmp(&boxes[q].0).then(p.cmp(&q))
    });
    // Room for a contact an element at once: a battle line's count, without regrowing.
    let mut found: Vec<(usize, usize, Contact)> = Vec::with_capacity(elements.len());
    for (k, &p) in order.iter().enumerate() {
        let bp = boxes[p];
        for &q in &order[k + 1..] {
            let bq = boxes[q];
            if bq.0 > bp.2 {
                break;
            }
            if bq.1 > bp.3 || bp.1 > bq.3 {
                continue;
            }
            if enemies_only && elements[p].1 == elements[q].1 {
                continue;
            }
            let (i, j) = if p < q { (p, q) } else { (q, p) };
            // The pose-distance refusal of `classify_with_outlines` never changes an answer, and
            // of pairs whose widened boxes meet it refuses few: the exact test decides them.
            if let Some(c) = classify_known_outlines(
                (&elements[i].2, &outlines[i]),
                (&elements[j].2, &outlines[j]),
            ) {
                found.push((i, j, c));
            }
        }
    }
    sort_by(&mut found, |x, y| (x.0, x.1).cmp(&(y.0, y.1)));
    found
        .into_iter()
        .map(|(i, j, contact)| ContactReport {
            a: elements[i].0,
            b: elements[j].0,
            same_side: elements[i].1 == elements[j].1,
            contact,
        })
        .collect()
}

/// The box the scan sweeps for a rectangle, widened by two tolerances each way (so two boxes of
/// rectangles within a tolerance of each other overlap): the least and greatest x and y of its
/// corners, or the whole plane when a corner is not finite (#15).
pub(super) fn scan_box(o: &RectOutline) -> (f64, f64, f64, f64) {
    let reach = 2.0 * TOLERANCE;
    if o.aligned != 0 {
        // Two opposite corners give the extremes (the others repeat their coordinates, up to
        // the sign of a zero, which adding the reach erases).
        let (x0, x1, y0, y1) = aligned_box(&o.c);
        return (x0 - reach, y0 - reach, x1 + reach, y1 + reach);
    }
    let c = &o.c;
    if c.iter().all(|p| p.x.is_finite() && p.y.is_finite()) {
        let (mut b0, mut b1, mut b2, mut b3) = (c[0].x, c[0].y, c[0].x, c[0].y);
        for p in &c[1..] {
            b0 = b0.min(p.x);
            b1 = b1.min(p.y);
            b2 = b2.max(p.x);
            b3 = b3.max(p.y);
        }
        (b0 - reach, b1 - reach, b2 + reach, b3 + reach)
    } else {
        (
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        )
    }
}

/// Sort `v` by `cmp`, a total order under which no two items are equal (so every sort gives the
/// same order): by insertion for the few dozen items of a table, which the sweep meets nearly in
/// order, and by the library's sort beyond (#15).
pub(super) fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() > 32 {
        v.sort_unstable_by(cmp);
        return;
    }
    for k in 1..v.len() {
        let mut m = k;
        while m > 0 && cmp(&v[m], &v[m - 1]) == Ordering::Less {
            v.swap(m, m - 1);
            m -= 1;
        }
    }
}
