//! The engines' sort (Godot's `SortArray`, as an editor or debug build runs it), step for step, so
//! that an order that is not total gives the engine's result.
//!
//! `var_to_str` sorts a Dictionary's keys by an order that is not total (Godot 4: Strings and
//! StringNames by their text, other keys by type id, so `"s" < Vector2 < &"d" < "s"`). With such
//! an order the result of any sort depends on its steps, so only the same steps give the
//! engine's text. They are an introsort: partitions around a median of three while a range holds
//! more than 16 items (a heap sort past a depth of twice the length's log2), then an insertion
//! sort. A debug build checks the bounds of its inner loops (where an order that is not total
//! could carry an index out of the range) and stops such a loop there; so does this sort.

/// Ranges up to this length are left to the final insertion sort.
const INTROSORT_THRESHOLD: usize = 16;

/// Where a partition's scans stop: the two engines' `SortArray` differ there. Both compare with
/// the pivot item (Godot 4 follows it through the swaps, Godot 3 copies it).
#[derive(Clone, Copy)]
pub(crate) enum Partition {
    /// Godot 4: also at the index the pivot started at.
    StopsAtPivot,
    /// Godot 3: only at the range's bounds.
    StopsAtBounds,
}

/// Sorts `items` by `less` as the engine does.
pub(crate) fn engine_sort<T: Copy>(
    items: &mut [T],
    partition: Partition,
    less: impl Fn(&T, &T) -> bool,
) {
    let mut sort = Sort {
        items,
        partition,
        less,
    };
    let len = sort.items.len();
    if len == 0 {
        return;
    }
    sort.introsort(0, len, 2 * len.ilog2() as usize);
    sort.final_insertion_sort(len);
}

struct Sort<'a, T, F> {
    items: &'a mut [T],
    partition: Partition,
    less: F,
}

// Every index stays in the range sorted, whatever `less` answers: the scans stop at the range's
// bounds (the debug build's checks) and the heap's children are below its length; the tests
// sort with arbitrary orders of every length up to 300.
#[allow(clippy::indexing_slicing)]
impl<T: Copy, F: Fn(&T, &T) -> bool> Sort<'_, T, F> {
    fn less_at(&self, a: usize, b: usize) -> bool {
        (self.less)(&self.items[a], &self.items[b])
    }

    fn introsort(&mut self, first: usize, mut last: usize, mut depth: usize) {
        while last - first > INTROSORT_THRESHOLD {
            if depth == 0 {
                self.heap_sort(first, last);
                return;
            }
            depth -= 1;
            let pivot = self.median_of_three(first, first + (last - first) / 2, last - 1);
            let cut = self.partition(first, last, pivot);
            self.introsort(cut, last, depth);
            last = cut;
        }
    }

    /// The index of the median of three items, as the engine picks it.
    fn median_of_three(&self, a: usize, b: usize, c: usize) -> usize {
        if self.less_at(a, b) {
            if self.less_at(b, c) {
                b
            } else if self.less_at(a, c) {
                c
            } else {
                a
            }
        } else if self.less_at(a, c) {
            a
        } else if self.less_at(b, c) {
            c
        } else {
            b
        }
    }

    /// Moves the items less than the pivot item before those greater; returns where the second
    /// part starts.
    fn partition(&mut self, mut first: usize, mut last: usize, pivot_at: usize) -> usize {
        let (range_first, range_last) = (first, last);
        let pivot = self.items[pivot_at];
        let stop = match self.partition {
            Partition::StopsAtPivot => Some(pivot_at),
            Partition::StopsAtBounds => None,
        };
        loop {
            while Some(first) != stop && (self.less)(&self.items[first], &pivot) {
                if first == range_last - 1 {
                    break; // the debug build's bound
                }
                first += 1;
            }
            last -= 1;
            while Some(last) != stop && (self.less)(&pivot, &self.items[last]) {
                if last == range_first {
                    break; // the debug build's bound
                }
                last -= 1;
            }
            if first >= last {
                return first;
            }
            self.items.swap(first, last);
            first += 1;
        }
    }

    fn final_insertion_sort(&mut self, len: usize) {
        if len > INTROSORT_THRESHOLD {
            self.insertion_sort(INTROSORT_THRESHOLD);
            for i in INTROSORT_THRESHOLD..len {
                let value = self.items[i];
                self.unguarded_linear_insert(i, value);
            }
        } else {
            self.insertion_sort(len);
        }
    }

    /// Inserts each item of `items[1..end]` into the sorted items before it.
    fn insertion_sort(&mut self, end: usize) {
        for i in 1..end {
            let value = self.items[i];
            if (self.less)(&value, &self.items[0]) {
                self.items.copy_within(0..i, 1);
                self.items[0] = value;
            } else {
                self.unguarded_linear_insert(i, value);
            }
        }
    }

    /// Moves `value`, taken from `at`, left past the items greater than it, never to index 0.
    fn unguarded_linear_insert(&mut self, mut at: usize, value: T) {
        let mut next = at - 1;
        while (self.less)(&value, &self.items[next]) {
            if next == 0 {
                break; // the debug build's bound
            }
            self.items[at] = self.items[next];
            at = next;
            next -= 1;
        }
        self.items[at] = value;
    }

    /// The engine's `partial_sort` over the whole range: a heap of it, then sorted from it.
    fn heap_sort(&mut self, first: usize, last: usize) {
        let len = last - first;
        if len >= 2 {
            let mut parent = (len - 2) / 2;
            loop {
                let value = self.items[first + parent];
                self.adjust_heap(first, parent, len, value);
                if parent == 0 {
                    break;
                }
                parent -= 1;
            }
        }
        let mut end = last;
        while end - first > 1 {
            end -= 1;
            let value = self.items[end];
            self.items[end] = self.items[first];
            self.adjust_heap(first, 0, end - first, value);
        }
    }

    fn adjust_heap(&mut self, first: usize, mut hole: usize, len: usize, value: T) {
        let top = hole;
        let mut child = 2 * hole + 2;
        while child < len {
            if self.less_at(first + child, first + child - 1) {
                child -= 1;
            }
            self.items[first + hole] = self.items[first + child];
            hole = child;
            child = 2 * (child + 1);
        }
        if child == len {
            self.items[first + hole] = self.items[first + child - 1];
            hole = child - 1;
        }
        // push_heap: `value` moved up from the hole while its parent is less than it.
        while hole > top {
            let parent = (hole - 1) / 2;
            if !(self.less)(&self.items[first + parent], &value) {
                break;
            }
            self.items[first + hole] = self.items[first + parent];
            hole = parent;
        }
        self.items[first + hole] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::{engine_sort, Partition};

    #[test]
    fn sorts_a_total_order_as_any_sort_does() {
        for len in [0, 1, 2, 16, 17, 40, 300] {
            let v: Vec<u32> = (0..len).map(|i| (i * 7919 + 13) % 101).collect();
            let mut expected = v.clone();
            expected.sort();
            for partition in [Partition::StopsAtPivot, Partition::StopsAtBounds] {
                let mut v = v.clone();
                engine_sort(&mut v, partition, |a, b| a < b);
                assert_eq!(v, expected, "{len} items");
            }
        }
    }

    /// Any answers of `less` (a function of the two items here, drawn from a seed) leave every
    /// item in place once: no index leaves the range.
    #[test]
    fn any_order_keeps_every_item() {
        for seed in 0..40u64 {
            for len in (0..=300).step_by(7) {
                let less = |a: &u32, b: &u32| {
                    let x = (u64::from(*a) << 32 | u64::from(*b)) ^ seed.wrapping_mul(0x9E37);
                    x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1
                };
                for partition in [Partition::StopsAtPivot, Partition::StopsAtBounds] {
                    let mut v: Vec<u32> = (0..len).collect();
                    engine_sort(&mut v, partition, less);
                    v.sort();
                    assert_eq!(v, (0..len).collect::<Vec<_>>(), "seed {seed}, {len} items");
                }
            }
        }
    }

    #[test]
    fn an_order_that_is_not_total_stays_in_bounds() {
        // Every item "less" than every other: each scan runs to its bound.
        for len in [2, 17, 33, 100, 1000] {
            for partition in [Partition::StopsAtPivot, Partition::StopsAtBounds] {
                let mut v: Vec<u32> = (0..len).collect();
                engine_sort(&mut v, partition, |_, _| true);
                v.sort();
                assert_eq!(v, (0..len).collect::<Vec<_>>(), "{len} items kept");
            }
        }
    }
}
