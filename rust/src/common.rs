//! What every kernel shares: checked views of the numpy inputs, the pairs layout
//! (candidates, their segment, the references of each segment), panics turned into Python
//! exceptions, and the parallel loop over output rows.

use std::panic::{catch_unwind, AssertUnwindSafe};

use numpy::ndarray::ArrayView2;
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

/// A contiguous 1-d numpy array as a slice, or a ValueError naming the argument.
pub fn slice<'a, T: numpy::Element>(a: &'a PyReadonlyArray1<T>, name: &str) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: expected a contiguous 1-d array")))
}

/// Runs `f` (which releases nothing itself) with the GIL released; a panic becomes a
/// RuntimeError naming the kernel instead of aborting the interpreter.
pub fn run<T: Send, F: FnOnce() -> T + Send>(py: Python<'_>, kernel: &str, f: F) -> PyResult<T> {
    let result = py.detach(|| catch_unwind(AssertUnwindSafe(f)));
    result.map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".to_string());
        PyRuntimeError::new_err(format!("mtpalette._core.{kernel}: internal error: {msg}"))
    })
}

/// Checks that `offsets` are the non-decreasing row boundaries of `n_ids` ids.
pub fn check_offsets(offsets: &[i64], n_ids: usize, name: &str) -> PyResult<()> {
    if offsets.is_empty() || offsets[0] != 0 || *offsets.last().unwrap() as usize != n_ids {
        return Err(PyValueError::new_err(format!(
            "{name}: offsets must start at 0 and end at the number of ids ({n_ids})"
        )));
    }
    if offsets.windows(2).any(|w| w[1] < w[0]) {
        return Err(PyValueError::new_err(format!(
            "{name}: offsets must not decrease"
        )));
    }
    Ok(())
}

/// Checks that every id is non-negative (ids index tables).
pub fn check_ids(ids: &[i32], name: &str) -> PyResult<()> {
    if ids.iter().any(|&x| x < 0) {
        return Err(PyValueError::new_err(format!(
            "{name}: ids must be non-negative"
        )));
    }
    Ok(())
}

/// One more than the largest id (0 for none).
pub fn vocab_bound(ids: &[i32]) -> usize {
    ids.iter().map(|&x| x as usize + 1).max().unwrap_or(0)
}

/// Candidates and references as the kernels read them (see `Pairs` in
/// `mtpalette.metrics.base`): candidate `p` is `hyp[hyp_off[p]..hyp_off[p + 1]]`, of segment
/// `seg[p]`; reference `k` of segment `s` is row `k * S + s` of the references, present where
/// `mask[k, s]`.
pub struct Pairs<'a> {
    pub hyp: &'a [i32],
    pub hyp_off: &'a [i64],
    pub seg: &'a [i64],
    pub refs: &'a [i32],
    pub ref_off: &'a [i64],
    pub mask: ArrayView2<'a, bool>,
}

/// The numpy arguments of a pairs kernel, in the order of `Pairs.arrays()`.
pub type PairsArgs<'py> = (
    PyReadonlyArray1<'py, i32>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i32>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray2<'py, bool>,
);

impl<'a> Pairs<'a> {
    /// Views of the arrays, checked so that no kernel can index out of bounds.
    pub fn new(
        hyp: &'a PyReadonlyArray1<i32>,
        hyp_off: &'a PyReadonlyArray1<i64>,
        seg: &'a PyReadonlyArray1<i64>,
        refs: &'a PyReadonlyArray1<i32>,
        ref_off: &'a PyReadonlyArray1<i64>,
        mask: &'a PyReadonlyArray2<bool>,
    ) -> PyResult<Self> {
        let pairs = Pairs {
            hyp: slice(hyp, "hyp ids")?,
            hyp_off: slice(hyp_off, "hyp offsets")?,
            seg: slice(seg, "seg")?,
            refs: slice(refs, "ref ids")?,
            ref_off: slice(ref_off, "ref offsets")?,
            mask: mask.as_array(),
        };
        check_offsets(pairs.hyp_off, pairs.hyp.len(), "hyp")?;
        check_offsets(pairs.ref_off, pairs.refs.len(), "refs")?;
        check_ids(pairs.hyp, "hyp")?;
        check_ids(pairs.refs, "refs")?;
        let (n_refs, n_seg) = pairs.mask.dim();
        if pairs.seg.len() != pairs.len() {
            return Err(PyValueError::new_err(
                "seg: one segment per candidate expected",
            ));
        }
        if pairs.ref_off.len() != n_refs * n_seg + 1 {
            return Err(PyValueError::new_err(
                "refs: expected R * S rows for a (R, S) mask",
            ));
        }
        if pairs.seg.iter().any(|&s| s < 0 || s as usize >= n_seg) {
            return Err(PyValueError::new_err("seg: segment number out of range"));
        }
        Ok(pairs)
    }

    pub fn len(&self) -> usize {
        self.hyp_off.len() - 1
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

/// The length of the longest row of a ragged array given by its offsets (0 for none).
pub fn longest_row(offsets: &[i64]) -> usize {
    offsets
        .windows(2)
        .map(|w| (w[1] - w[0]) as usize)
        .max()
        .unwrap_or(0)
}

/// Calls `f(scratch, p, row)` for every row `p` of `out` (rows of `width` values), in
/// parallel over blocks of rows (about 8 per thread); each block makes its own scratch with
/// `init`, so scratch the size of the vocabulary is made a few times, not once per row.
pub fn par_rows<T, S, I, F>(out: &mut [T], width: usize, init: I, f: F)
where
    T: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &mut [T]) + Sync + Send,
{
    if width == 0 || out.is_empty() {
        return;
    }
    let n_rows = out.len() / width;
    let n_blocks = (8 * rayon::current_num_threads()).clamp(1, n_rows);
    let per_block = n_rows.div_ceil(n_blocks);
    let run_block = |(b, block): (usize, &mut [T])| {
        let mut scratch = init();
        for (q, row) in block.chunks_mut(width).enumerate() {
            f(&mut scratch, b * per_block + q, row);
        }
    };
    if n_blocks == 1 {
        run_block((0, out));
    } else {
        out.par_chunks_mut(width * per_block)
            .enumerate()
            .for_each(run_block);
    }
}
