//! A list that keeps up to two items in place and moves to the heap only for a third (#15).
//!
//! A mover's path has one leg or two, and a leg sweeps one piece or two: each list was a heap
//! block of its own, made and freed for every move a driver tries. [`Few`] reads as a slice, as
//! the `Vec` it replaces did, and keeps the order of the items pushed or collected, so whatever
//! is worked out from it is what the `Vec` gave. (The list of movers stays a `Vec`: a mover
//! kept in place made every proposal larger to move about than the block it saved.)

use std::ops::{Deref, DerefMut};

/// Up to two items in place, more on the heap; it reads as the slice of its items, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Few<T> {
    /// No item.
    #[default]
    Zero,
    /// One item.
    One(T),
    /// Two items.
    Two([T; 2]),
    /// Any number of items, on the heap.
    Many(Vec<T>),
}

impl<T> Few<T> {
    /// The list of one item.
    pub(crate) fn one(item: T) -> Self {
        Few::One(item)
    }

    /// Add `item` at the end.
    pub(crate) fn push(&mut self, item: T) {
        *self = match std::mem::take(self) {
            Few::Zero => Few::One(item),
            Few::One(a) => Few::Two([a, item]),
            Few::Two([a, b]) => Few::Many(vec![a, b, item]),
            Few::Many(mut v) => {
                v.push(item);
                Few::Many(v)
            }
        };
    }

    /// Keep only the items `keep` is true of, in their order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        if let Few::Many(v) = self {
            v.retain(keep);
            return;
        }
        let mut kept = Few::Zero;
        for item in std::mem::take(self) {
            if keep(&item) {
                kept.push(item);
            }
        }
        *self = kept;
    }
}

impl<T> Deref for Few<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Few::Zero => &[],
            Few::One(a) => std::slice::from_ref(a),
            Few::Two(ab) => ab,
            Few::Many(v) => v,
        }
    }
}

impl<T> DerefMut for Few<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Few::Zero => &mut [],
            Few::One(a) => std::slice::from_mut(a),
            Few::Two(ab) => ab,
            Few::Many(v) => v,
        }
    }
}

impl<T> From<Vec<T>> for Few<T> {
    fn from(v: Vec<T>) -> Self {
        Few::Many(v)
    }
}

impl<T> FromIterator<T> for Few<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut items = items.into_iter();
        let mut few = Few::Zero;
        while let Some(item) = items.next() {
            if let Few::Two(_) = few {
                // A third item: the rest go straight into the heap block.
                few.push(item);
                if let Few::Many(v) = &mut few {
                    v.extend(items);
                }
                break;
            }
            few.push(item);
        }
        few
    }
}

impl<'a, T> IntoIterator for &'a Few<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Few<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T> IntoIterator for Few<T> {
    type Item = T;
    type IntoIter = IntoIter<T>;
    fn into_iter(self) -> IntoIter<T> {
        match self {
            Few::Zero => IntoIter::InPlace([None, None].into_iter()),
            Few::One(a) => IntoIter::InPlace([Some(a), None].into_iter()),
            Few::Two([a, b]) => IntoIter::InPlace([Some(a), Some(b)].into_iter()),
            Few::Many(v) => IntoIter::Heap(v.into_iter()),
        }
    }
}

/// The items of a [`Few`], by value, in order.
pub(crate) enum IntoIter<T> {
    InPlace(std::array::IntoIter<Option<T>, 2>),
    Heap(std::vec::IntoIter<T>),
}

impl<T> Iterator for IntoIter<T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        match self {
            IntoIter::InPlace(it) => it.next().flatten(),
            IntoIter::Heap(it) => it.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // DBA3.md §7.2 (a move's legs and pieces, #15): a `Few` built by pushing, collecting or
    // retaining holds what a `Vec` built the same way holds, in the same order, by reference
    // and by value, for every length up to past the two kept in place.
    #[test]
    fn a_few_is_the_vec_it_replaces() {
        for n in 0..6u32 {
            let want: Vec<u32> = (0..n).map(|i| i * 7 + 1).collect();
            let mut pushed = Few::default();
            for &x in &want {
                pushed.push(x);
            }
            let collected: Few<u32> = want.iter().copied().collect();
            let from_vec = Few::from(want.clone());
            for few in [&pushed, &collected, &from_vec] {
                assert_eq!(&few[..], &want[..], "{n} items");
                assert_eq!(few.iter().copied().collect::<Vec<_>>(), want);
                assert_eq!(few.clone().into_iter().collect::<Vec<_>>(), want);
            }
            // Inline while it can be (a collected list spills only past two).
            assert_eq!(matches!(collected, Few::Many(_)), n > 2, "{n} items");
            for modulus in [1, 2, 3] {
                let mut kept = collected.clone();
                kept.retain(|x| x % modulus == 1);
                let mut v = want.clone();
                v.retain(|x| x % modulus == 1);
                assert_eq!(&kept[..], &v[..], "{n} items, kept mod {modulus}");
            }
            let mut doubled = collected.clone();
            for x in &mut doubled {
                *x *= 2;
            }
            let twice: Vec<u32> = want.iter().map(|x| x * 2).collect();
            assert_eq!(&doubled[..], &twice[..]);
            assert_eq!(Few::one(5u32).len(), 1);
        }
    }
}
