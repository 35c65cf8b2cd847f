//! Moves of already written bytes, applied once at the end.
//!
//! When a Dictionary key repeats, the engine keeps the first key where it stands and gives it
//! the later value. The transcoder has written both values by then; rather than moving bytes at
//! each repetition (which, repeated at every level of nested Dictionaries, would cost more than
//! the input), it records the move here, and [`Splices::assemble`] copies each written byte at
//! most once into the final output.

use std::ops::Range;

/// At `at`, the bytes up to `skip_to` are replaced by (the assembled form of) `insert`.
#[derive(Debug, Clone)]
struct Splice {
    at: usize,
    skip_to: usize,
    insert: Range<usize>,
}

/// The moves recorded for one transcoded value.
#[derive(Debug, Default)]
pub(super) struct Splices {
    list: Vec<Splice>,
}

impl Splices {
    pub(super) fn clear(&mut self) {
        self.list.clear();
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The bytes of `range` leave the output (a later value that took an earlier one's place).
    pub(super) fn remove(&mut self, range: Range<usize>) {
        self.list.push(Splice {
            at: range.start,
            skip_to: range.end,
            insert: range.end..range.end,
        });
    }

    /// The bytes of `old` are replaced by those of `new`; returns a handle for
    /// [`Splices::retarget`].
    pub(super) fn replace(&mut self, old: Range<usize>, new: Range<usize>) -> usize {
        self.list.push(Splice {
            at: old.start,
            skip_to: old.end,
            insert: new,
        });
        self.list.len() - 1
    }

    /// A replacement made earlier now takes `new` instead (the key repeated once more).
    pub(super) fn retarget(&mut self, handle: usize, new: Range<usize>) {
        if let Some(s) = self.list.get_mut(handle) {
            s.insert = new;
        }
    }

    /// Appends `written[from..]` with every recorded move applied to `out`. Each byte is copied
    /// at most once: a replaced range is skipped with the moves inside it, a moved range is
    /// copied at its new place only.
    ///
    /// Splices nest as the values they cut out. Two may start at the same offset only when a
    /// value that wrote nothing (it failed, and was then replaced) is followed by the value
    /// that replaces it; sorted by end, the replacement comes first.
    pub(super) fn assemble(&mut self, written: &[u8], from: usize, out: &mut Vec<u8>) {
        self.list.sort_unstable_by_key(|s| (s.at, s.skip_to));
        // Ranges still to copy, the next one last, each with the first splice it may apply.
        let mut pending = vec![(from..written.len(), 0)];
        while let Some((range, first)) = pending.pop() {
            let next = first.max(self.list.partition_point(|s| s.at < range.start));
            match self.list.get(next) {
                Some(s) if s.at < range.end => {
                    out.extend_from_slice(written.get(range.start..s.at).unwrap_or_default());
                    // After the inserted bytes, the rest of this range past the cut, with the
                    // splices after this one.
                    pending.push((s.skip_to.min(range.end)..range.end, next + 1));
                    // A moved range begins where the splice that removes it from its old place
                    // begins: only splices after its start apply inside it.
                    let inside = self.list.partition_point(|t| t.at <= s.insert.start);
                    pending.push((s.insert.clone(), inside));
                }
                _ => out.extend_from_slice(written.get(range).unwrap_or_default()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Splices;

    #[test]
    fn moves_apply_once_and_nest() {
        //            0123456789
        let written = b"aXXbYYcZZd";
        let mut s = Splices::default();
        // "XX" is replaced by "ZZ", which leaves its own place.
        s.replace(1..3, 7..9);
        s.remove(7..9);
        let mut out = Vec::new();
        s.assemble(written, 0, &mut out);
        assert_eq!(out, b"aZZbYYcd");

        // Nested: inside the moved range, one more removal.
        let written = b"aXXbYZZc";
        let mut s = Splices::default();
        let h = s.replace(1..3, 4..7);
        s.remove(5..6); // inside the range that moves
        s.remove(4..7);
        let _ = h;
        let mut out = Vec::new();
        s.assemble(written, 0, &mut out);
        assert_eq!(out, b"aYZbc");

        // A value that wrote nothing, replaced by the one right after it; from an offset.
        let written = b"__kVVz";
        let mut s = Splices::default();
        s.remove(3..5);
        s.replace(3..3, 3..5);
        let mut out = Vec::new();
        s.assemble(written, 2, &mut out);
        assert_eq!(out, b"kVVz");
    }
}
