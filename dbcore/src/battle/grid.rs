//! A uniform grid of the elements of one battle state (#15), so that a question about one place
//! (what a swept path runs into, what touches an element) looks only at the elements near it
//! instead of at every element of the battle.
//!
//! Built once per state, when first asked, and kept in the per-state memo ([`super::cache`]):
//! invisible like it (not serialised, not compared, not cloned) and given only to a question about
//! the very state it was built from. It keeps every element's rectangle and corners too, so the
//! questions it answers do no trigonometry for the elements they look at.
//!
//! A state's grid starts from the grid of the state it came from (a clone's source, the state
//! before an event) when there is one: [`ElementGrid::refreshed`] compares every element's
//! rectangle and status, bit for bit, with those the grid holds and works out again only the
//! elements that differ, so what it answers is what a fresh grid of the state answers whatever
//! happened in between (tests compare the two after random moves).
//!
//! Its answers are a pre-test and never change a result: [`ElementGrid::near`] lists, in
//! ascending index order, every element in play whose bounding box comes within the margin asked
//! of the query's box; the exact tests the callers then run refuse every element further off
//! anyway (an axis-aligned box gap never exceeds the true gap). Elements with a non-finite
//! position are listed for every query, and a non-finite query lists every element, so such
//! values reach the exact tests as before.

use std::sync::Arc;

use crate::config::RulesConfig;
use crate::contact::RectOutline;
use crate::geometry::{ElementRect, Point, Pose};
use crate::terrain::OutlineBox;

use super::state::ElementState;
use crate::troops::ElementKind;

/// A pose to the bit.
fn pose_bits(p: &Pose) -> [u64; 3] {
    [p.x.to_bits(), p.y.to_bits(), p.facing.to_bits()]
}

/// The address of a rules configuration (compared only): what the grid and the per-state memo
/// tell configurations apart by.
pub(super) fn address(cfg: &RulesConfig) -> usize {
    cfg as *const RulesConfig as usize
}

/// Side of a cell, BW: about an element's width, so that a base or a move's swept piece covers a
/// handful of cells.
const CELL: f64 = 2.0;
/// Most cells along either axis: a table of any size (or a stray element far off it) makes
/// larger cells, not more of them.
const MAX_CELLS: usize = 64;

/// An axis-aligned box: min x, min y, max x, max y.
pub(crate) type Bounds = (f64, f64, f64, f64);

/// A block of cells, inclusive: first x, first y, last x, last y.
type Cells = (usize, usize, usize, usize);

/// Whether two rectangles are the same to the bit (so that everything worked out from them is).
pub(crate) fn same_rect(a: &ElementRect, b: &ElementRect) -> bool {
    let bits = |r: &ElementRect| {
        [
            r.pose.x.to_bits(),
            r.pose.y.to_bits(),
            r.pose.facing.to_bits(),
            r.width.to_bits(),
            r.depth.to_bits(),
        ]
    };
    bits(a) == bits(b)
}

/// The elements by cell: cell `k` holds `items[start[k]..start[k + 1]]`, ascending. Shared by a
/// grid and the grids refreshed from it, which change only the elements' own entries.
#[derive(Debug)]
struct CellIndex {
    start: Vec<u32>,
    items: Vec<u32>,
}

/// The bounding box of a non-empty set of finite points (`None` for an empty set or one with a
/// coordinate that is not finite): the geometry's own [`finite_bounds`].
pub(crate) use crate::geometry::finite_bounds as bounds_of;

/// [`bounds_of`] read from a kept [`OutlineBox`] (the per-state memo's box of a feature's
/// outline): `None` for an outline with a point not finite or with no point, as `bounds_of`
/// answers. The bounds may differ from `bounds_of`'s only in the sign of a zero, which
/// [`bounds_apart`] cannot see (it only adds to and compares them).
pub(crate) fn bounds_of_box(((lo, hi), finite): OutlineBox) -> Option<Bounds> {
    (finite && lo.x <= hi.x && lo.y <= hi.y).then_some((lo.x, lo.y, hi.x, hi.y))
}

/// [`crate::geometry::boxes_apart`] of two point sets, from their [`bounds_of`]: whether the boxes
/// are apart by more than `margin` on x or y (false when either set has no box), without
/// working out again a box already known (#15: a feature's outline met by every piece of every
/// candidate move).
pub(crate) fn bounds_apart(a: Option<Bounds>, b: Option<Bounds>, margin: f64) -> bool {
    match (a, b) {
        (Some((ax0, ay0, ax1, ay1)), Some((bx0, by0, bx1, by1))) => {
            ax1 + margin < bx0 || bx1 + margin < ax0 || ay1 + margin < by0 || by1 + margin < ay0
        }
        _ => false,
    }
}

/// What the grid keeps of one element beside its rectangle and box.
#[derive(Debug, Clone, Copy)]
struct Shape {
    outline: RectOutline,
    /// The rectangle's forward vector (`pose.forward()`, worked out with the corners).
    forward: Point,
    /// The kind the rectangle was measured for.
    kind: ElementKind,
    /// The cells the element is listed in (`None`: in none).
    listed: Option<Cells>,
}

impl Shape {
    /// The shape of rectangle `r` of an element of `kind`, listed in no cell yet. The corners
    /// are those of `ElementRect::corners` by the same arithmetic, one sine and cosine each, kept
    /// in the outline.
    fn of(r: &ElementRect, kind: ElementKind) -> Shape {
        let (corners, forward) = r.corners_and_forward();
        Shape {
            outline: RectOutline::of_corners(corners),
            forward,
            kind,
            listed: None,
        }
    }
}

/// The elements of one state by cell (see the module documentation).
#[derive(Debug)]
pub(crate) struct ElementGrid {
    /// Every element's rectangle, by index of the elements (lost ones too).
    rects: Vec<ElementRect>,
    /// Every element's contact outline (its corners, as [`ElementRect::corners`] gives them, edge
    /// lengths and axes), kind, and the cells it is listed in, by index: the contact questions
    /// of a state meet each element many times. Worked out with the grid, not when first asked,
    /// so that a refreshed grid copies them as plain values, all in one block (#15: a refresh
    /// copied five lists, and copying the kept-when-asked outlines was a third of its cost).
    shapes: Vec<Shape>,
    /// The address of the rules configuration that measured the rectangles (compared only, as
    /// the per-state memo compares it): a refresh by the same configuration knows an element's
    /// depth from its kind.
    config: usize,
    /// Bounding box of each element in play with a finite position, by index.
    boxes: Vec<Option<Bounds>>,
    /// Elements in play whose position is not finite: near everything.
    everywhere: Vec<usize>,
    /// Lower left corner of the grid, cell side, cells along x and y.
    origin: Point,
    cell: f64,
    nx: usize,
    ny: usize,
    /// The elements whose box reaches into each cell, ascending, cell after cell (row by row):
    /// two allocations for the whole grid, not one per cell. An entry whose element has moved
    /// since is harmless: every candidate is tested against its box as it is now.
    cells: Arc<CellIndex>,
    /// Elements in play whose box has left the cells they are listed in (moved since the cell
    /// index was built): tested against every query.
    moved: Vec<usize>,
}

impl ElementGrid {
    /// The grid of `elements`, measured by `cfg`.
    pub(crate) fn new(elements: &[ElementState], cfg: &RulesConfig) -> ElementGrid {
        let rects: Vec<ElementRect> = elements.iter().map(|e| e.rect(cfg)).collect();
        let shapes: Vec<Shape> = rects
            .iter()
            .zip(elements)
            .map(|(r, e)| Shape::of(r, e.kind))
            .collect();
        ElementGrid::indexed(rects, shapes, elements, cfg)
    }

    /// The grid of `elements`, measured by `cfg`, from every element's rectangle and shape
    /// (`listed` is filled in here): the boxes, the cells and the index of the elements by cell.
    fn indexed(
        rects: Vec<ElementRect>,
        mut shapes: Vec<Shape>,
        elements: &[ElementState],
        cfg: &RulesConfig,
    ) -> ElementGrid {
        let mut everywhere = Vec::new();
        let boxes: Vec<Option<Bounds>> = elements
            .iter()
            .enumerate()
            .map(|(i, e)| {
                if !e.in_play() {
                    return None;
                }
                let b = bounds_of(shapes[i].outline.corners());
                if b.is_none() {
                    everywhere.push(i);
                }
                b
            })
            .collect();
        let all = boxes.iter().flatten().fold(None, |acc: Option<Bounds>, b| {
            Some(acc.map_or(*b, |a| {
                (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
            }))
        });
        let (x0, y0, x1, y1) = all.unwrap_or((0.0, 0.0, 0.0, 0.0));
        let span = (x1 - x0).max(y1 - y0);
        let cell = CELL.max(span / MAX_CELLS as f64);
        let count = |extent: f64| ((extent / cell).floor() as usize + 1).min(MAX_CELLS);
        let (nx, ny) = (count(x1 - x0), count(y1 - y0));
        let mut grid = ElementGrid {
            rects,
            shapes: Vec::new(),
            config: address(cfg),
            boxes,
            everywhere,
            origin: Point::new(x0, y0),
            cell,
            nx,
            ny,
            cells: Arc::new(CellIndex {
                start: Vec::new(),
                items: Vec::new(),
            }),
            moved: Vec::new(),
        };
        // Count each cell's elements, then fill the cells in ascending element order.
        for (s, b) in shapes.iter_mut().zip(&grid.boxes) {
            s.listed = b.map(|b| grid.cell_range(b));
        }
        let mut start = vec![0u32; nx * ny + 1];
        for &(cx0, cy0, cx1, cy1) in shapes.iter().filter_map(|s| s.listed.as_ref()) {
            for cy in cy0..=cy1 {
                for cx in cx0..=cx1 {
                    start[cy * nx + cx + 1] += 1;
                }
            }
        }
        for k in 0..nx * ny {
            start[k + 1] += start[k];
        }
        let mut fill: Vec<u32> = start[..nx * ny].to_vec();
        let mut items = vec![0u32; start[nx * ny] as usize];
        for (i, s) in shapes.iter().enumerate() {
            if let Some((cx0, cy0, cx1, cy1)) = s.listed {
                for cy in cy0..=cy1 {
                    for cx in cx0..=cx1 {
                        let at = &mut fill[cy * nx + cx];
                        items[*at as usize] = i as u32;
                        *at += 1;
                    }
                }
            }
        }
        grid.cells = Arc::new(CellIndex { start, items });
        grid.shapes = shapes;
        grid
    }

    /// The grid of `elements`, from this grid of (perhaps) other elements: this very grid when
    /// every element's rectangle (to the bit) and whether it is in play are those it holds; else
    /// a grid sharing this one's cell index with the elements that differ worked out again (their
    /// rectangle, corners, outline and box), an element whose box left
    /// the cells it is listed in being tested against every query; a grid indexed afresh when
    /// more than a quarter of the elements would be so tested, and a fresh grid when the number
    /// of elements differs or when `cfg` is not the configuration this grid was measured by.
    ///
    /// An element's rectangle is its pose with the width 1 and the depth `cfg` gives its kind,
    /// so by the same configuration it is the same to the bit exactly when its pose is and its
    /// kind is the same: that is what is compared (#15: working every rectangle out again to
    /// compare it was half the cost of a refresh). For the same reason a grid indexed afresh
    /// keeps the rectangles and outlines of the elements that are the same (#15: working them
    /// all out again was most of a re-index).
    ///
    /// Its answers are those of `ElementGrid::new(elements, cfg)`: the rectangles, corners and
    /// outlines are those of the elements' rectangles, by the same functions; and [`Self::near`]
    /// lists exactly the elements the module documentation says, since every element in play
    /// with a box is either listed in every cell its box reaches into or tested directly (the
    /// proof is at [`Self::near`]).
    pub(crate) fn refreshed(
        self: &Arc<Self>,
        elements: &[ElementState],
        cfg: &RulesConfig,
    ) -> Arc<ElementGrid> {
        if elements.len() != self.len() || self.config != address(cfg) {
            return Arc::new(ElementGrid::new(elements, cfg));
        }
        let changed = self.differing(elements);
        if changed.is_empty() {
            return Arc::clone(self);
        }
        let mut g = ElementGrid {
            rects: self.rects.clone(),
            shapes: self.shapes.clone(),
            config: self.config,
            boxes: Vec::new(),
            everywhere: Vec::new(),
            origin: self.origin,
            cell: self.cell,
            nx: self.nx,
            ny: self.ny,
            cells: Arc::clone(&self.cells),
            moved: Vec::new(),
        };
        // The lists re-indexing builds anew are copied only when kept.
        let reindex = self.reindexes(&changed);
        if !reindex {
            g.boxes.clone_from(&self.boxes);
            g.everywhere.clone_from(&self.everywhere);
            g.moved.clone_from(&self.moved);
        }
        g.update(elements, cfg, &changed, reindex);
        Arc::new(g)
    }

    /// [`Self::refreshed`] of the grid `this` when nothing else holds it: the same grid, brought
    /// up to date in place, without copying its lists (#15: the copies and their allocations
    /// were a third of a refresh). `Err` gives `this` back untouched when it is shared.
    pub(crate) fn refreshed_owned(
        mut this: Arc<Self>,
        elements: &[ElementState],
        cfg: &RulesConfig,
    ) -> Result<Arc<Self>, Arc<Self>> {
        let Some(g) = Arc::get_mut(&mut this) else {
            return Err(this);
        };
        if elements.len() != g.len() || g.config != address(cfg) {
            *g = ElementGrid::new(elements, cfg);
        } else {
            let changed = g.differing(elements);
            if !changed.is_empty() {
                let reindex = g.reindexes(&changed);
                g.update(elements, cfg, &changed, reindex);
            }
        }
        Ok(this)
    }

    /// The elements that differ from what the grid holds (their pose to the bit, their kind or
    /// whether they are in play), by index: no allocation when none does.
    fn differing(&self, elements: &[ElementState]) -> Vec<usize> {
        let mut changed: Vec<usize> = Vec::new();
        // The lists side by side, without an index check per element (#15: this runs at every
        // commit and every refresh); an element without a box was in play only if listed
        // `everywhere`, which is asked only then.
        let held = self.rects.iter().zip(&self.shapes).zip(&self.boxes);
        for (i, (e, ((r, shape), b))) in elements.iter().zip(held).enumerate() {
            let same = pose_bits(&e.pose) == pose_bits(&r.pose)
                && e.kind == shape.kind
                && e.in_play() == (b.is_some() || self.everywhere.contains(&i));
            if !same {
                changed.push(i);
            }
        }
        changed
    }

    /// Whether bringing the grid up to date for `changed` indexes it afresh: more than a quarter
    /// of the elements would be tested against every query.
    fn reindexes(&self, changed: &[usize]) -> bool {
        4 * (self.moved.len() + changed.len()) > self.len()
    }

    /// Bring this grid of as many elements, measured by `cfg`, up to date for `elements`, of
    /// which `changed` (ascending, not empty) are those that differ from what it holds: their
    /// rectangles and shapes worked out again, then either each one's box and cells, or, when
    /// `reindex` (what [`Self::reindexes`] said of the grid as it was), the boxes and cell index
    /// of all (`boxes`, `everywhere` and `moved` may then hold anything: they are built anew).
    fn update(
        &mut self,
        elements: &[ElementState],
        cfg: &RulesConfig,
        changed: &[usize],
        reindex: bool,
    ) {
        for &i in changed {
            let r = elements[i].rect(cfg);
            self.rects[i] = r;
            let listed = self.shapes[i].listed;
            self.shapes[i] = Shape {
                listed,
                ..Shape::of(&r, elements[i].kind)
            };
        }
        if reindex {
            let rects = std::mem::take(&mut self.rects);
            let shapes = std::mem::take(&mut self.shapes);
            *self = ElementGrid::indexed(rects, shapes, elements, cfg);
            return;
        }
        for &i in changed {
            self.everywhere.retain(|&k| k != i);
            self.moved.retain(|&k| k != i);
            self.boxes[i] = if elements[i].in_play() {
                let b = bounds_of(self.shapes[i].outline.corners());
                if b.is_none() {
                    self.everywhere.push(i);
                }
                b
            } else {
                None
            };
            if let Some(b) = self.boxes[i] {
                let (cx0, cy0, cx1, cy1) = self.cell_range(b);
                let listed = self.shapes[i].listed.is_some_and(|(lx0, ly0, lx1, ly1)| {
                    lx0 <= cx0 && ly0 <= cy0 && cx1 <= lx1 && cy1 <= ly1
                });
                if !listed {
                    self.moved.push(i);
                }
            }
        }
    }

    /// Debug builds and tests: assert that this grid answers as `fresh` does (a grid built afresh from
    /// the same elements): the same rectangles, corners and boxes, to the bit, and the same
    /// neighbours of every element and of a query that is not a number.
    #[cfg(any(debug_assertions, test))]
    pub(crate) fn assert_answers_as(&self, fresh: &ElementGrid) {
        assert_eq!(
            self.len(),
            fresh.len(),
            "a refreshed grid has other elements"
        );
        let bits = |p: &Point| (p.x.to_bits(), p.y.to_bits());
        for i in 0..self.len() {
            assert!(same_rect(&self.rects[i], &fresh.rects[i]), "rectangle {i}");
            assert!(self
                .corners(i)
                .iter()
                .map(bits)
                .eq(fresh.corners(i).iter().map(bits)));
            assert_eq!(self.boxes[i], fresh.boxes[i], "box {i}");
            assert_eq!(
                self.everywhere.contains(&i),
                fresh.everywhere.contains(&i),
                "element {i} everywhere"
            );
            for margin in [0.0, 0.5] {
                assert_eq!(
                    self.near(self.corners(i), margin),
                    fresh.near(fresh.corners(i), margin),
                    "neighbours of element {i}"
                );
            }
        }
        let nan = [Point::new(f64::NAN, 0.0); 4];
        assert_eq!(self.near(&nan, 0.0), fresh.near(&nan, 0.0));
    }

    /// The cells a box reaches into, clamped to the grid: (x0, y0, x1, y1), inclusive.
    fn cell_range(&self, (x0, y0, x1, y1): Bounds) -> (usize, usize, usize, usize) {
        // The floor of the cell number, clamped: below 1 (or not a number) is cell 0, the last
        // cell or beyond is the last, and between the two the conversion's truncation is the
        // floor. The same cells as `floor` then clamping gives, without the call to `floor`
        // (#15: four calls per query). Only numbers below the last cell are converted, and the
        // last cell's number is a `u32` (there are at most `MAX_CELLS`): the narrow conversions
        // take fewer checks.
        let at = |v: f64, o: f64, n: usize| -> usize {
            let k = (v - o) / self.cell;
            let last = (n - 1) as u32;
            let top = f64::from(last);
            if k < 1.0 {
                0
            } else if k < top {
                k as u32 as usize
            } else if k >= top {
                last as usize
            } else {
                0
            }
        };
        (
            at(x0, self.origin.x, self.nx),
            at(y0, self.origin.y, self.ny),
            at(x1, self.origin.x, self.nx),
            at(y1, self.origin.y, self.ny),
        )
    }

    /// How many elements it was built from (in play or not).
    pub(crate) fn len(&self) -> usize {
        self.rects.len()
    }

    /// Every element's rectangle, by index (as [`ElementState::rect`] gives them).
    pub(crate) fn rects(&self) -> &[ElementRect] {
        &self.rects
    }

    /// Element `i`'s rectangle.
    pub(crate) fn rect(&self, i: usize) -> &ElementRect {
        &self.rects[i]
    }

    /// Element `i`'s contact outline, as [`RectOutline::of`] its rectangle.
    pub(crate) fn outline(&self, i: usize) -> &RectOutline {
        // The corners kept are those `RectOutline::of` works out (`ElementRect::corners`).
        &self.shapes[i].outline
    }

    /// The corners this grid keeps for element `i` when they are those of `e` measured by `cfg`
    /// (the same configuration, and `e`'s pose to the bit and kind: see [`Self::refreshed`]),
    /// whatever the state the grid is of; `None` otherwise.
    pub(crate) fn corners_if_same(
        &self,
        i: usize,
        e: &ElementState,
        cfg: &RulesConfig,
    ) -> Option<&[Point; 4]> {
        let (r, s) = (self.rects.get(i)?, self.shapes.get(i)?);
        let same = self.config == address(cfg)
            && pose_bits(&e.pose) == pose_bits(&r.pose)
            && e.kind == s.kind;
        same.then_some(s.outline.corners())
    }

    /// Element `i`'s corners.
    pub(crate) fn corners(&self, i: usize) -> &[Point; 4] {
        self.shapes[i].outline.corners()
    }

    /// Element `i`'s forward vector, `pose.forward()` of its rectangle.
    pub(crate) fn forward(&self, i: usize) -> Point {
        self.shapes[i].forward
    }

    /// Every element in play whose bounding box comes within `margin` of the box of `pts`, in
    /// ascending index order (see the module documentation).
    ///
    /// Why the cells find every such element: an element in play with a box `b` is either in
    /// `moved` (tested directly) or listed in every cell of `cell_range(b)`. If `b` meets the
    /// query's box `q`, take a point `v` in both: `cell_range` maps each coordinate by a floor
    /// clamped to the grid, which never decreases as the coordinate grows, so `v`'s cell lies
    /// in `cell_range(b)` and in `cell_range(q)`, the cells scanned. Every candidate is then
    /// tested against its box as it is now, so an entry left by an element that has moved
    /// lists it only when its present box meets the query.
    pub(crate) fn near(&self, pts: &[Point], margin: f64) -> Vec<usize> {
        self.marked(pts, margin, |bits| {
            let found: u32 = bits.iter().map(|w| w.count_ones()).sum();
            let mut out = Vec::with_capacity(found as usize);
            for_each_marked(bits, |i| {
                out.push(i);
                None::<()>
            });
            out
        })
    }

    /// The first `Some` that `f` gives for the elements [`Self::near`] lists, taken in its
    /// order, stopping there: `near(pts, margin).into_iter().find_map(f)` without the list
    /// (#15: the contact questions ask this of every element of a state, and the list was an
    /// allocation each).
    pub(crate) fn find_near<T>(
        &self,
        pts: &[Point],
        margin: f64,
        f: impl FnMut(usize) -> Option<T>,
    ) -> Option<T> {
        self.marked(pts, margin, |bits| for_each_marked(bits, f))
    }

    /// `read` of a bit set by index marking the elements [`Self::near`] lists. The elements are
    /// marked by index (on the stack for up to 512 elements), then read out in ascending order:
    /// no sorting, and the same list as sorting and removing repeats would give.
    #[inline]
    fn marked<R>(&self, pts: &[Point], margin: f64, read: impl FnOnce(&[u64]) -> R) -> R {
        let words = self.boxes.len().div_ceil(64);
        let mut stack = [0u64; 8];
        let mut heap = Vec::new();
        let bits: &mut [u64] = if words <= stack.len() {
            &mut stack[..words]
        } else {
            heap.resize(words, 0);
            &mut heap
        };
        let mark = |bits: &mut [u64], i: usize| bits[i / 64] |= 1 << (i % 64);
        let Some((x0, y0, x1, y1)) = bounds_of(pts) else {
            for i in 0..self.boxes.len() {
                if self.boxes[i].is_some() || self.everywhere.contains(&i) {
                    mark(bits, i);
                }
            }
            return read(bits);
        };
        let q = (x0 - margin, y0 - margin, x1 + margin, y1 + margin);
        let (cx0, cy0, cx1, cy1) = self.cell_range(q);
        for &i in &self.everywhere {
            mark(bits, i);
        }
        let meets = |i: usize| {
            self.boxes[i].is_some_and(|b| !(b.2 < q.0 || q.2 < b.0 || b.3 < q.1 || q.3 < b.1))
        };
        let (start, items) = (&self.cells.start, &self.cells.items);
        for cy in cy0..=cy1 {
            for cx in cx0..=cx1 {
                let k = cy * self.nx + cx;
                for &i in &items[start[k] as usize..start[k + 1] as usize] {
                    let i = i as usize;
                    if meets(i) {
                        mark(bits, i);
                    }
                }
            }
        }
        for &i in &self.moved {
            if meets(i) {
                mark(bits, i);
            }
        }
        read(bits)
    }
}

/// The first `Some` of `f` over the indices marked in `bits`, ascending.
fn for_each_marked<T>(bits: &[u64], mut f: impl FnMut(usize) -> Option<T>) -> Option<T> {
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if let Some(t) = f(w * 64 + word.trailing_zeros() as usize) {
                return Some(t);
            }
            word &= word - 1;
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::battle::setup::ElementId;
    use crate::battle::state::Status;
    use crate::geometry::Pose;
    use rand_core::{RngCore, SeedableRng};

    pub(crate) fn element(i: u32, x: f64, y: f64, facing: f64) -> ElementState {
        let setup = crate::battle::setup::ElementSetup {
            id: ElementId(i),
            kind: "4Bd".parse().expect("a troop code"),
            pose: Pose::new(x, y, facing),
            general: false,
            contingent: None,
            dismounts_as: None,
            mobile_tower: false,
        };
        ElementState::from_setup((i % 2) as usize, &setup)
    }

    /// Every element whose box comes within the margin is listed, in ascending order, whatever
    /// the query; lost elements never are.
    #[test]
    fn near_lists_every_element_the_brute_force_finds() {
        let cfg = RulesConfig::default();
        let mut els = scattered(200, 40.0, 30.0);
        els[5].status = Status::Afloat;
        els.push(element(200, f64::NAN, 1.0, 0.0));
        let g = ElementGrid::new(&els, &cfg);
        // The corners kept are `ElementRect::corners`, to the bit.
        for (i, e) in els.iter().enumerate() {
            let want = e.rect(&cfg).corners();
            for (got, want) in g.corners(i).iter().zip(want) {
                assert_eq!(got.x.to_bits(), want.x.to_bits());
                assert_eq!(got.y.to_bits(), want.y.to_bits());
            }
        }
        for q in 0..300u32 {
            let f = f64::from(q);
            let r = ElementRect::new(
                Pose::new((f * 1.7) % 45.0 - 2.0, (f * 2.3) % 35.0 - 2.0, f),
                1.5,
                0.7,
            );
            let pts = r.corners();
            let margin = [0.0, 0.01, 1.0][q as usize % 3];
            let got = g.near(&pts, margin);
            let want: Vec<usize> = (0..els.len())
                .filter(|&i| {
                    els[i].in_play()
                        && match bounds_of(&els[i].rect(&cfg).corners()) {
                            None => true,
                            Some(b) => {
                                let a = bounds_of(&pts).unwrap();
                                !(b.2 < a.0 - margin
                                    || a.2 + margin < b.0
                                    || b.3 < a.1 - margin
                                    || a.3 + margin < b.1)
                            }
                        }
                })
                .collect();
            assert_eq!(got, want, "query {q}");
            // `find_near` visits the same elements in the same order, and stops at the first
            // `Some`.
            let mut seen = Vec::new();
            assert_eq!(
                g.find_near(&pts, margin, |i| {
                    seen.push(i);
                    None::<()>
                }),
                None
            );
            assert_eq!(seen, want, "query {q} visited");
            if let Some(&k) = want.get(want.len() / 2) {
                let mut visited = 0;
                let first = g.find_near(&pts, margin, |i| {
                    visited += 1;
                    (i >= k).then_some(i)
                });
                assert_eq!(first, Some(k));
                assert_eq!(visited, want.len() / 2 + 1);
            }
        }
        let mut seen = Vec::new();
        g.find_near(&pts_nan(), 0.0, |i| {
            seen.push(i);
            None::<()>
        });
        assert_eq!(seen, g.near(&pts_nan(), 0.0));
        assert!(!g.near(&pts_nan(), 0.0).contains(&5));
        assert_eq!(g.near(&pts_nan(), 0.0).len(), els.len() - 1);
    }

    /// `n` elements strewn over a `w` by `h` table at many facings.
    fn scattered(n: u32, w: f64, h: f64) -> Vec<ElementState> {
        (0..n)
            .map(|i| {
                let f = f64::from(i);
                element(i, (f * 7.31) % w, (f * 3.77) % h, (f * 37.0) % 360.0)
            })
            .collect()
    }

    /// `cell_range` as it was before #15 dropped the call to `floor`: the reference.
    fn cell_range_reference(g: &ElementGrid, (x0, y0, x1, y1): Bounds) -> Cells {
        let at = |v: f64, o: f64, n: usize| -> usize {
            let k = ((v - o) / g.cell).floor();
            if k <= 0.0 {
                0
            } else {
                (k as usize).min(n - 1)
            }
        };
        (
            at(x0, g.origin.x, g.nx),
            at(y0, g.origin.y, g.ny),
            at(x1, g.origin.x, g.nx),
            at(y1, g.origin.y, g.ny),
        )
    }

    #[test]
    fn cell_range_equals_the_floor_of_the_cell_number() {
        use rand_core::{RngCore, SeedableRng};
        let cfg = RulesConfig::default();
        let els = scattered(50, 40.0, 30.0);
        let g = ElementGrid::new(&els, &cfg);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        // Cell boundaries exactly, a bit either side, far off both ends, and odd values.
        let mut values = vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, 1e300];
        for k in -3..70 {
            for o in [g.origin.x, g.origin.y] {
                let v = o + f64::from(k) * g.cell;
                let bits = v.to_bits();
                values.extend([
                    v,
                    f64::from_bits(bits.wrapping_add(1)),
                    f64::from_bits(bits.wrapping_sub(1)),
                ]);
            }
        }
        for _ in 0..2_000 {
            values.push((rng.next_u32() as f64 / u32::MAX as f64) * 200.0 - 50.0);
        }
        for (n, &a) in values.iter().enumerate() {
            let b = values[(n * 7 + 3) % values.len()];
            let q = (a, b, b, a);
            assert_eq!(g.cell_range(q), cell_range_reference(&g, q), "{q:?}");
        }
    }

    /// More elements than the bit set on the stack holds (512): the same answers as the brute
    /// force, in ascending order.
    #[test]
    fn near_with_many_elements_lists_every_element_the_brute_force_finds() {
        let cfg = RulesConfig::default();
        let els = scattered(700, 60.0, 45.0);
        let g = ElementGrid::new(&els, &cfg);
        for q in 0..100u32 {
            let f = f64::from(q);
            let pts = ElementRect::new(
                Pose::new((f * 1.7) % 62.0 - 1.0, (f * 2.3) % 47.0 - 1.0, f),
                3.0,
                1.0,
            )
            .corners();
            let a = bounds_of(&pts).unwrap();
            let margin = [0.0, 0.5][q as usize % 2];
            let want: Vec<usize> = (0..els.len())
                .filter(|&i| {
                    let b = bounds_of(&els[i].rect(&cfg).corners()).unwrap();
                    !(b.2 < a.0 - margin
                        || a.2 + margin < b.0
                        || b.3 < a.1 - margin
                        || a.3 + margin < b.1)
                })
                .collect();
            assert_eq!(g.near(&pts, margin), want, "query {q}");
            let mut seen = Vec::new();
            g.find_near(&pts, margin, |i| {
                seen.push(i);
                None::<()>
            });
            assert_eq!(seen, want, "query {q} visited");
        }
    }

    /// A grid refreshed after random moves (small and large, a loss, a return to play, a
    /// position that is not a number), step after step, answers as a fresh grid of the same
    /// elements does: rectangles, corners, outlines and neighbours of many queries.
    #[test]
    fn refreshed_grid_answers_as_a_fresh_one_after_random_moves() {
        let cfg = RulesConfig::default();
        let mut next = crate::geometry::unit_stream(0x2545_f491_4f6c_dd1du64);
        for n in [3usize, 24, 96] {
            let mut els: Vec<ElementState> = (0..n as u32)
                .map(|i| element(i, next() * 30.0, next() * 24.0, next() * 360.0))
                .collect();
            let mut g = Arc::new(ElementGrid::new(&els, &cfg));
            // The same grid brought up to date in place (nothing else holds it).
            let mut owned = Arc::new(ElementGrid::new(&els, &cfg));
            for step in 0..60 {
                let moves = 1 + (next() * 3.0) as usize;
                for _ in 0..moves {
                    let i = (next() * n as f64) as usize % n;
                    let e = &mut els[i];
                    match (next() * 10.0) as u32 {
                        0 => e.status = Status::Afloat,
                        1 => e.status = Status::InPlay,
                        2 => e.pose.x = f64::NAN,
                        3 => e.pose = Pose::new(next() * 50.0 - 10.0, next() * 40.0 - 8.0, 90.0),
                        _ => {
                            let x = if e.pose.x.is_finite() { e.pose.x } else { 5.0 };
                            e.pose = Pose::new(
                                x + next() * 0.6 - 0.3,
                                e.pose.y + next() * 0.6 - 0.3,
                                e.pose.facing + next() * 20.0 - 10.0,
                            );
                        }
                    }
                }
                g = g.refreshed(&els, &cfg);
                let at = Arc::as_ptr(&owned);
                owned = match ElementGrid::refreshed_owned(owned, &els, &cfg) {
                    Ok(o) => o,
                    Err(_) => panic!("nothing else holds the grid"),
                };
                assert_eq!(Arc::as_ptr(&owned), at, "brought up to date in place");
                let fresh = ElementGrid::new(&els, &cfg);
                g.assert_answers_as(&fresh);
                owned.assert_answers_as(&fresh);
                for i in 0..n {
                    let (a, b) = (g.outline(i), fresh.outline(i));
                    assert_eq!(format!("{a:?}"), format!("{b:?}"), "outline {i}");
                    let a = owned.outline(i);
                    assert_eq!(format!("{a:?}"), format!("{b:?}"), "outline {i} in place");
                }
                for q in 0..40 {
                    let pts = ElementRect::new(
                        Pose::new(next() * 44.0 - 4.0, next() * 34.0 - 4.0, next() * 360.0),
                        0.5 + next() * 3.0,
                        0.5 + next(),
                    )
                    .corners();
                    let margin = [0.0, 0.01, 1.0][q % 3];
                    assert_eq!(
                        g.near(&pts, margin),
                        fresh.near(&pts, margin),
                        "{n} elements, step {step}, query {q}"
                    );
                    assert_eq!(
                        owned.near(&pts, margin),
                        fresh.near(&pts, margin),
                        "{n} elements, step {step}, query {q}, in place"
                    );
                }
            }
        }
        // Many elements changed (70 of 300, fewer than a quarter): the cell index is still
        // shared, and the answers are a fresh grid's.
        let mut els: Vec<ElementState> = (0..300u32)
            .map(|i| element(i, next() * 30.0, next() * 24.0, next() * 360.0))
            .collect();
        let g = Arc::new(ElementGrid::new(&els, &cfg));
        for e in els.iter_mut().step_by(4).take(70) {
            e.pose.x += 0.125;
        }
        let again = g.refreshed(&els, &cfg);
        assert!(
            Arc::ptr_eq(&g.cells, &again.cells),
            "refreshed, not built afresh"
        );
        again.assert_answers_as(&ElementGrid::new(&els, &cfg));
        // Another configuration (the same numbers at another address): a fresh grid.
        let other = RulesConfig::default();
        let fresh = again.refreshed(&els, &other);
        assert!(!Arc::ptr_eq(&again.cells, &fresh.cells));
        fresh.assert_answers_as(&ElementGrid::new(&els, &other));
        // Another number of elements: a fresh grid.
        let els: Vec<ElementState> = (0..5).map(|i| element(i, 2.0, 2.0, 0.0)).collect();
        let g = Arc::new(ElementGrid::new(&els[..4], &cfg)).refreshed(&els, &cfg);
        assert_eq!(g.len(), 5);
        g.assert_answers_as(&ElementGrid::new(&els, &cfg));
        // Nothing changed: the very same grid.
        let again = g.refreshed(&els, &cfg);
        assert!(Arc::ptr_eq(&g, &again));
        // Held elsewhere too (`again`): given back untouched, not brought up to date.
        let moved: Vec<ElementState> = (0..5).map(|i| element(i, 4.0, 2.0, 0.0)).collect();
        match ElementGrid::refreshed_owned(g, &moved, &cfg) {
            Ok(_) => panic!("a shared grid was changed in place"),
            Err(back) => {
                assert!(Arc::ptr_eq(&back, &again));
                back.assert_answers_as(&ElementGrid::new(&els, &cfg));
            }
        }
        // Alone again, another configuration or number of elements: a fresh grid in its place.
        let other = RulesConfig::default();
        let owned = ElementGrid::refreshed_owned(again, &moved, &other).expect("alone");
        owned.assert_answers_as(&ElementGrid::new(&moved, &other));
        let owned = ElementGrid::refreshed_owned(owned, &moved[..3], &other).expect("alone");
        owned.assert_answers_as(&ElementGrid::new(&moved[..3], &other));
    }

    /// The corners a grid hands out for an element are its own, to the bit, only while its pose,
    /// kind and configuration are those the grid measured.
    #[test]
    fn corners_if_same_only_for_the_element_measured() {
        let cfg = RulesConfig::default();
        let els: Vec<ElementState> = (0..4)
            .map(|i| element(i, 3.0 * f64::from(i), 2.0, 17.0))
            .collect();
        let g = ElementGrid::new(&els, &cfg);
        let bits = |c: &[Point; 4]| c.map(|p| (p.x.to_bits(), p.y.to_bits()));
        for (i, e) in els.iter().enumerate() {
            let got = g.corners_if_same(i, e, &cfg).expect("the element measured");
            assert_eq!(bits(got), bits(&e.rect(&cfg).corners()));
        }
        let mut moved = els[1].clone();
        moved.pose.facing = f64::from_bits(moved.pose.facing.to_bits() + 1);
        assert!(g.corners_if_same(1, &moved, &cfg).is_none());
        let mut other = els[1].clone();
        other.kind = "4Ax".parse().expect("a troop code");
        assert!(g.corners_if_same(1, &other, &cfg).is_none());
        assert!(g
            .corners_if_same(1, &els[1], &RulesConfig::default())
            .is_none());
        assert!(g.corners_if_same(9, &els[1], &cfg).is_none());
    }

    #[test]
    fn bounds_apart_equals_boxes_apart() {
        // DBA3.md §3.1: the going's pre-test of a swept piece against a feature's outline, from
        // boxes known beforehand, answers as the test of the two point sets.
        let mut rng = rand_pcg::Pcg64::seed_from_u64(96);
        let mut coordinate = |base: f64| -> f64 {
            match rng.next_u32() % 40 {
                0 => f64::NAN,
                1 => f64::INFINITY,
                2 => f64::NEG_INFINITY,
                3 => 0.0,
                4 => -0.0,
                5 => 1e300,
                6 => base + 1e-6,
                7 => base - 1e-6,
                _ => base + (rng.next_u32() as f64 / u32::MAX as f64 - 0.5) * 6.0,
            }
        };
        let mut answers = [0usize; 2];
        for n in 0..40_000 {
            let a: Vec<Point> = (0..n % 9)
                .map(|_| Point::new(coordinate(5.0), coordinate(5.0)))
                .collect();
            let b: Vec<Point> = (0..1 + n % 21)
                .map(|_| Point::new(coordinate(8.0), coordinate(5.0)))
                .collect();
            for margin in [0.0, 1e-6, -1e-6, 2.0] {
                let want = crate::geometry::boxes_apart(&a, &b, margin);
                assert_eq!(
                    bounds_apart(bounds_of(&a), bounds_of(&b), margin),
                    want,
                    "case {n}: {a:?} {b:?} by {margin}"
                );
                answers[usize::from(want)] += 1;
            }
        }
        assert!(answers[0] > 1_000 && answers[1] > 1_000, "{answers:?}");
    }

    #[test]
    fn kept_outline_boxes_give_the_point_sets_bounds() {
        // DBA3.md §3.1: the going's pre-test reads a feature's box from the memo's kept outline
        // boxes; it must be the box of the outline's points (zeros compared without their sign).
        let mut rng = rand_pcg::Pcg64::seed_from_u64(97);
        let specials = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            1e300,
            -1e-300,
        ];
        let unsigned =
            |b: Option<Bounds>| b.map(|(a, b, c, d)| [a + 0.0, b + 0.0, c + 0.0, d + 0.0]);
        let mut kinds = [0usize; 2];
        for n in 0..40_000 {
            let mut coordinate = || match rng.next_u32() % 30 {
                k @ 0..=6 => specials[k as usize],
                _ => (rng.next_u32() as f64 / u32::MAX as f64 - 0.5) * 40.0,
            };
            let pts: Vec<Point> = (0..n % 23)
                .map(|_| Point::new(coordinate(), coordinate()))
                .collect();
            let outline = crate::geometry::Polygon::new(pts.clone());
            let want = bounds_of(&pts);
            let got = bounds_of_box(crate::terrain::outline_box(&outline));
            let bits = |b: Option<[f64; 4]>| b.map(|v| v.map(f64::to_bits));
            assert_eq!(
                bits(unsigned(got)),
                bits(unsigned(want)),
                "case {n}: {pts:?}"
            );
            kinds[usize::from(want.is_some())] += 1;
        }
        assert!(kinds[0] > 1_000 && kinds[1] > 1_000, "{kinds:?}");
    }

    fn pts_nan() -> [Point; 4] {
        [Point::new(f64::NAN, 0.0); 4]
    }
}
