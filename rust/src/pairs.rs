//! The pairs layout every pairs kernel reads (candidates, their segment, the references of
//! each segment) and the checks that keep the kernels from indexing out of bounds.

use crate::error::{ensure, Checked};
use crate::grid::Grid;

/// Checks that `offsets` are the non-decreasing row boundaries of `n_ids` ids.
pub fn check_offsets(offsets: &[i64], n_ids: usize, name: &str) -> Checked<()> {
    ensure(
        !offsets.is_empty() && offsets[0] == 0 && *offsets.last().unwrap() as usize == n_ids,
        || format!("{name}: offsets must start at 0 and end at the number of ids ({n_ids})"),
    )?;
    // folds without an early exit, which LLVM vectorises (these checks run on every call)
    let decrease = offsets.windows(2).fold(false, |acc, w| acc | (w[1] < w[0]));
    ensure(!decrease, || format!("{name}: offsets must not decrease"))
}

/// Checks that every id is non-negative (ids index tables).
pub fn check_ids(ids: &[i32], name: &str) -> Checked<()> {
    ensure(ids.iter().fold(0, |m, &x| m.min(x)) >= 0, || {
        format!("{name}: ids must be non-negative")
    })
}

/// Checks that every row number is in `0..n_rows`.
pub fn check_rows(rows: &[i64], n_rows: usize, name: &str) -> Checked<()> {
    check_below(rows, n_rows, name, "row number")
}

/// Checks that every value (a `what`: row, segment or token number) is in `0..n`, in a fold
/// without an early exit, which LLVM vectorises (these checks run on every call); a negative
/// value, cast to u64, is above any `n`.
pub fn check_below<T: Copy + Into<i64>>(
    values: &[T],
    n: usize,
    name: &str,
    what: &str,
) -> Checked<()> {
    let outside = values
        .iter()
        .fold(false, |acc, &v| acc | ((v.into() as u64) >= n as u64));
    ensure(!outside, || format!("{name}: {what} out of range (0..{n})"))
}

/// One more than the largest id (0 for none).
pub fn vocab_bound(ids: &[i32]) -> usize {
    ids.iter().map(|&x| x as usize + 1).max().unwrap_or(0)
}

/// The length of the longest row of a ragged array given by its offsets (0 for none).
pub fn longest_row(offsets: &[i64]) -> usize {
    offsets
        .windows(2)
        .map(|w| (w[1] - w[0]) as usize)
        .max()
        .unwrap_or(0)
}

/// Candidates and references as the kernels read them (see `Pairs` in
/// `mtpalette.metrics.base`): candidate `p` is `hyp[hyp_off[p]..hyp_off[p + 1]]`, of segment
/// `seg[p]`; reference `k` of segment `s` is row `k * S + s` of the references, present where
/// `mask[k, s]`.
#[derive(Clone, Copy)]
pub struct Pairs<'a> {
    pub hyp: &'a [i32],
    pub hyp_off: &'a [i64],
    pub seg: &'a [i64],
    pub refs: &'a [i32],
    pub ref_off: &'a [i64],
    pub mask: Grid<'a, bool>,
}

impl<'a> Pairs<'a> {
    /// The pairs, checked so that no kernel can index out of bounds (every kernel takes
    /// checked pairs; the binding checks with the GIL released).
    pub fn check(self) -> Checked<Self> {
        check_offsets(self.hyp_off, self.hyp.len(), "hyp")?;
        check_offsets(self.ref_off, self.refs.len(), "refs")?;
        check_ids(self.hyp, "hyp")?;
        check_ids(self.refs, "refs")?;
        let (n_refs, n_seg) = self.mask.dim();
        ensure(self.seg.len() == self.len(), || {
            "seg: one segment per candidate expected".into()
        })?;
        ensure(self.ref_off.len() == n_refs * n_seg + 1, || {
            "refs: expected R * S rows for a (R, S) mask".into()
        })?;
        check_below(self.seg, n_seg, "seg", "segment number")?;
        Ok(self)
    }

    /// The number of candidates (0 for offsets not yet checked that have no row).
    pub fn len(&self) -> usize {
        self.hyp_off.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn n_refs(&self) -> usize {
        self.mask.dim().0
    }

    pub fn n_seg(&self) -> usize {
        self.mask.dim().1
    }

    pub fn hyp_row(&self, p: usize) -> &'a [i32] {
        &self.hyp[self.hyp_off[p] as usize..self.hyp_off[p + 1] as usize]
    }

    /// Reference `k` of candidate `p`'s segment, or None where it is missing.
    pub fn ref_row(&self, p: usize, k: usize) -> Option<&'a [i32]> {
        let s = self.seg[p] as usize;
        if !self.mask[[k, s]] {
            return None;
        }
        let r = k * self.n_seg() + s;
        Some(&self.refs[self.ref_off[r] as usize..self.ref_off[r + 1] as usize])
    }

    /// The longest candidate.
    pub fn max_hyp(&self) -> usize {
        longest_row(self.hyp_off)
    }

    /// The longest reference row.
    pub fn max_ref(&self) -> usize {
        longest_row(self.ref_off)
    }
}

/// Owned arrays of pairs built from rows of ids, for the unit tests of every kernel.
#[cfg(test)]
pub mod testing {
    use super::*;

    pub struct Owned {
        hyp: Vec<i32>,
        hyp_off: Vec<i64>,
        seg: Vec<i64>,
        refs: Vec<i32>,
        ref_off: Vec<i64>,
        mask: Vec<bool>,
        n_refs: usize,
        n_seg: usize,
    }

    fn flat(rows: &[&[i32]]) -> (Vec<i32>, Vec<i64>) {
        let mut off = vec![0i64];
        let mut ids = Vec::new();
        for r in rows {
            ids.extend_from_slice(r);
            off.push(ids.len() as i64);
        }
        (ids, off)
    }

    impl Owned {
        /// Candidates `hyps` of segments `seg`; `refs[k][s]` is reference k of segment s
        /// (None: missing).
        pub fn new(hyps: &[&[i32]], seg: &[i64], refs: &[Vec<Option<&[i32]>>]) -> Self {
            let (hyp, hyp_off) = flat(hyps);
            let n_refs = refs.len();
            let n_seg = refs.first().map_or(0, |r| r.len());
            let rows: Vec<&[i32]> = refs
                .iter()
                .flat_map(|r| r.iter().map(|x| x.unwrap_or(&[])))
                .collect();
            let (refs_ids, ref_off) = flat(&rows);
            let mask = refs
                .iter()
                .flat_map(|r| r.iter().map(|x| x.is_some()))
                .collect();
            Owned {
                hyp,
                hyp_off,
                seg: seg.to_vec(),
                refs: refs_ids,
                ref_off,
                mask,
                n_refs,
                n_seg,
            }
        }

        /// One candidate per segment, each with the same number of references.
        pub fn parallel(hyps: &[&[i32]], refs: &[&[&[i32]]]) -> Self {
            let n_refs = refs.first().map_or(0, |r| r.len());
            let by_ref: Vec<Vec<Option<&[i32]>>> = (0..n_refs)
                .map(|k| refs.iter().map(|r| Some(r[k])).collect())
                .collect();
            let seg: Vec<i64> = (0..hyps.len() as i64).collect();
            Owned::new(hyps, &seg, &by_ref)
        }

        pub fn pairs(&self) -> Pairs<'_> {
            Pairs {
                hyp: &self.hyp,
                hyp_off: &self.hyp_off,
                seg: &self.seg,
                refs: &self.refs,
                ref_off: &self.ref_off,
                mask: Grid::new(&self.mask, self.n_refs, self.n_seg, "mask").unwrap(),
            }
            .check()
            .unwrap()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::Owned;
    use super::*;

    #[test]
    fn rows_and_missing_references() {
        let a: &[i32] = &[1, 2];
        let b: &[i32] = &[3];
        let o = Owned::new(
            &[a, b, a],
            &[0, 1, 1],
            &[vec![Some(b), None], vec![Some(a), Some(a)]],
        );
        let p = o.pairs();
        assert_eq!((p.len(), p.n_refs(), p.n_seg()), (3, 2, 2));
        assert_eq!(p.hyp_row(1), b);
        assert_eq!(p.ref_row(0, 0), Some(b));
        assert_eq!(p.ref_row(1, 0), None);
        assert_eq!(p.ref_row(2, 1), Some(a));
        assert_eq!((p.max_hyp(), p.max_ref()), (2, 2));
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(check_offsets(&[0, 2, 1], 1, "x").is_err());
        assert!(check_offsets(&[1, 2], 2, "x").is_err());
        assert!(check_offsets(&[], 0, "x").is_err());
        assert!(check_offsets(&[0, 0, 3], 3, "x").is_ok());
        assert!(check_ids(&[0, -1], "x").is_err());
        assert!(check_rows(&[0, 2], 2, "x").is_err());
        assert!(check_rows(&[-1], 2, "x").is_err());
        assert!(check_below(&[0i32, 1], 2, "x", "token number").is_ok());
        assert!(check_below(&[-1i32], 2, "x", "token number").is_err());
        assert_eq!(vocab_bound(&[3, 0]), 4);
        assert_eq!(vocab_bound(&[]), 0);
        let mask = [true];
        let good = Pairs {
            hyp: &[1],
            hyp_off: &[0, 1],
            seg: &[0],
            refs: &[1],
            ref_off: &[0, 1],
            mask: Grid::new(&mask, 1, 1, "mask").unwrap(),
        };
        assert!(good.check().is_ok());
        // a segment number past the mask; a reference row too many; a negative id
        let err = Pairs { seg: &[1], ..good }.check().err().unwrap();
        assert!(err.0.contains("seg"), "{err}");
        let err = Pairs {
            ref_off: &[0, 1, 1],
            ..good
        }
        .check()
        .err()
        .unwrap();
        assert!(err.0.contains("R * S"), "{err}");
        let err = Pairs { hyp: &[-1], ..good }.check().err().unwrap();
        assert!(err.0.contains("non-negative"), "{err}");
    }
}
