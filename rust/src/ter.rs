//! Translation edit rate with shifts, decided as sacrebleu's `lib_ter` (a port of Tercom);
//! the rules are described in `mtpalette/kernels/ter.py`.

use crate::pairs::Pairs;
use crate::parallel::par_rows;

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INF: i64 = 10_000_000_000_000_000;
// operations on the table's (candidate row, reference column)
const NOP: u8 = 0;
const SUB: u8 = 1;
const INS: u8 = 2;
const DEL: u8 = 3;

fn beam(n_h: usize, n_r: usize) -> (f64, usize) {
    let ratio = if n_h > 0 {
        n_r as f64 / n_h as f64
    } else {
        1.0
    };
    let mut beam = BEAM_WIDTH;
    if (BEAM_WIDTH as f64) < ratio / 2.0 {
        beam = (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as usize;
    }
    (ratio, beam)
}

/// The columns of row `i` inside the beam.
fn bounds(i: usize, ratio: f64, beam: usize, n_h: usize, n_r: usize) -> (usize, usize) {
    let diag = (i as f64 * ratio).floor() as usize;
    let lo = diag.saturating_sub(beam);
    let hi = if i == n_h {
        n_r + 1
    } else {
        (n_r + 1).min(diag + beam)
    };
    (lo, hi)
}

struct Table {
    cost: Vec<i64>,
    ops: Vec<u8>,
    trace: Vec<u8>,
}

/// The full beam table of costs and its trace (operations rewriting r into h).
fn fill_table(h: &[i32], r: &[i32], t: &mut Table) {
    let (n_h, n_r) = (h.len(), r.len());
    let w = n_r + 1;
    let (ratio, bm) = beam(n_h, n_r);
    t.cost.clear();
    t.cost.resize((n_h + 1) * w, INF);
    t.ops.clear();
    t.ops.resize((n_h + 1) * w, 255);
    for j in 0..w {
        t.cost[j] = j as i64;
        t.ops[j] = INS;
    }
    for i in 1..=n_h {
        let x = h[i - 1];
        let (lo, hi) = bounds(i, ratio, bm, n_h, n_r);
        let (prev_rows, cur_rows) = t.cost.split_at_mut(i * w);
        let prev = &prev_rows[(i - 1) * w..];
        let cur = &mut cur_rows[..w];
        let ops = &mut t.ops[i * w..(i + 1) * w];
        for j in lo..hi {
            if j == 0 {
                cur[0] = prev[0] + 1;
                ops[0] = DEL;
                continue;
            }
            let (c, o) = if x == r[j - 1] {
                (prev[j - 1], NOP)
            } else {
                (prev[j - 1] + 1, SUB)
            };
            if cur[j] > c {
                cur[j] = c;
                ops[j] = o;
            }
            let c = prev[j] + 1;
            if cur[j] > c {
                cur[j] = c;
                ops[j] = DEL;
            }
            let c = cur[j - 1] + 1;
            if cur[j] > c {
                cur[j] = c;
                ops[j] = INS;
            }
        }
    }
    t.trace.clear();
    let (mut i, mut j) = (n_h, n_r);
    while i > 0 || j > 0 {
        let op = t.ops[i * w + j];
        t.trace.push(op);
        match op {
            NOP | SUB => {
                i -= 1;
                j -= 1;
            }
            INS => j -= 1,
            _ => i -= 1,
        }
    }
    t.trace.reverse();
}

/// Costs only of row `i`: the values of `fill_table`, without its bookkeeping. Cells
/// outside the beam are set to INF, as are computed values above it.
#[allow(clippy::too_many_arguments)]
fn cost_row(
    i: usize,
    x: i32,
    r: &[i32],
    prev: &[i64],
    cur: &mut [i64],
    ratio: f64,
    bm: usize,
    n_h: usize,
) {
    let n_r = r.len();
    let (mut lo, hi) = bounds(i, ratio, bm, n_h, n_r);
    cur[..lo].fill(INF);
    if hi <= n_r {
        cur[hi..=n_r].fill(INF);
    }
    if lo == 0 {
        cur[0] = (prev[0] + 1).min(INF);
        lo = 1;
    }
    for j in lo..hi {
        let mut v = if x == r[j - 1] {
            prev[j - 1]
        } else {
            prev[j - 1] + 1
        };
        v = v.min(prev[j] + 1).min(cur[j - 1] + 1);
        cur[j] = v.min(INF);
    }
}

/// Edit distance of `words`, equal to the table's words before position `first`.
fn cost_from(
    words: &[i32],
    r: &[i32],
    cost: &[i64],
    first: usize,
    prev: &mut Vec<i64>,
    cur: &mut Vec<i64>,
) -> i64 {
    let (n_h, n_r) = (words.len(), r.len());
    let w = n_r + 1;
    if first >= n_h {
        return cost[n_h * w + n_r];
    }
    let (ratio, bm) = beam(n_h, n_r);
    prev.copy_from_slice(&cost[first * w..(first + 1) * w]);
    for i in first + 1..=n_h {
        cost_row(i, words[i - 1], r, prev, cur, ratio, bm, n_h);
        std::mem::swap(prev, cur);
    }
    prev[n_r]
}

/// Where the block lands among the other `n - length` words, as Tercom's shift does.
fn insert_at(n: usize, start: usize, length: usize, target: usize) -> usize {
    if target <= start + length {
        target.min(n - length)
    } else {
        target - length
    }
}

/// `words` with the block `words[start..start + length]` moved to `target`, into `out`.
fn shifted(words: &[i32], start: usize, length: usize, target: usize, out: &mut [i32]) {
    let n = words.len();
    let at = insert_at(n, start, length, target);
    let block = &words[start..start + length];
    let mut q = 0;
    for (x, &w) in words.iter().enumerate() {
        if (start..start + length).contains(&x) {
            continue;
        }
        if q == at {
            out[q..q + length].copy_from_slice(block);
            q += length;
        }
        out[q] = w;
        q += 1;
    }
    if q == at {
        out[q..q + length].copy_from_slice(block);
    }
}

struct Work {
    table: Table,
    align: Vec<usize>,
    hyp_err: Vec<bool>,
    ref_err: Vec<bool>,
    trial: Vec<i32>,
    best_words: Vec<i32>,
    prev: Vec<i64>,
    cur: Vec<i64>,
}

/// One round of the shift search: (distance before, gain, candidates checked so far); the
/// winning words are left in `best_words` when the gain is positive.
fn best_shift(h: &[i32], r: &[i32], mut checked: usize, s: &mut Work) -> (i64, i64, usize) {
    fill_table(h, r, &mut s.table);
    let (n_h, n_r) = (h.len(), r.len());
    let before = s.table.cost[n_h * (n_r + 1) + n_r];
    s.align.clear();
    s.align.resize(n_r, 0);
    s.hyp_err.clear();
    s.hyp_err.resize(n_h, false);
    s.ref_err.clear();
    s.ref_err.resize(n_r, false);
    // alignment from the trace read the other way round (insertions become deletions);
    // positions are shifted by one so that "before the first word" is 0
    let (mut ph, mut pr) = (0usize, 0usize);
    for &op in &s.table.trace {
        match op {
            NOP | SUB => {
                ph += 1;
                pr += 1;
                s.align[pr - 1] = ph;
                if op == SUB {
                    s.hyp_err[ph - 1] = true;
                    s.ref_err[pr - 1] = true;
                }
            }
            DEL => {
                ph += 1;
                s.hyp_err[ph - 1] = true;
            }
            _ => {
                pr += 1;
                s.align[pr - 1] = ph;
                s.ref_err[pr - 1] = true;
            }
        }
    }
    // s.align[j] is the (1-based) candidate position aligned with reference word j, 0: none
    let mut found = false;
    let (mut best_gain, mut best_len, mut best_start, mut best_target) =
        (0i64, 0usize, 0usize, 0usize);
    s.trial.clear();
    s.trial.resize(n_h, 0);
    s.best_words.resize(n_h, 0);
    for start_h in 0..n_h {
        let r_lo = start_h.saturating_sub(MAX_SHIFT_DIST);
        let r_hi = n_r.min(start_h + MAX_SHIFT_DIST + 1);
        for start_r in r_lo..r_hi {
            let mut length = 0;
            while length < MAX_SHIFT_SIZE
                && start_h + length < n_h
                && start_r + length < n_r
                && h[start_h + length] == r[start_r + length]
            {
                length += 1;
                if !s.hyp_err[start_h..start_h + length].iter().any(|&e| e) {
                    continue;
                }
                if !s.ref_err[start_r..start_r + length].iter().any(|&e| e) {
                    continue;
                }
                // the aligned position (0-based) is align - 1; -1 (none) is never inside
                let a = s.align[start_r];
                if a >= 1 && start_h < a && a - 1 < start_h + length {
                    continue;
                }
                let mut last_target: Option<usize> = None;
                for offset in 0..=length {
                    // offset - 1 in -1..length: the reference word before the block, or one of it
                    let target = if start_r + offset == 0 {
                        0
                    } else {
                        s.align[start_r + offset - 1]
                    };
                    if last_target == Some(target) {
                        continue;
                    }
                    last_target = Some(target);
                    shifted(h, start_h, length, target, &mut s.trial);
                    let first = start_h.min(target);
                    let gain = before
                        - cost_from(&s.trial, r, &s.table.cost, first, &mut s.prev, &mut s.cur);
                    checked += 1;
                    let better = !found || {
                        if gain != best_gain {
                            gain > best_gain
                        } else if length != best_len {
                            length > best_len
                        } else if start_h != best_start {
                            start_h < best_start
                        } else {
                            target < best_target
                        }
                    };
                    if better {
                        found = true;
                        (best_gain, best_len, best_start, best_target) =
                            (gain, length, start_h, target);
                        s.best_words.copy_from_slice(&s.trial);
                    }
                }
                if checked >= MAX_SHIFT_CANDIDATES {
                    return (before, best_gain, checked);
                }
            }
        }
    }
    (before, best_gain, checked)
}

fn new_work() -> Work {
    Work {
        table: Table {
            cost: Vec::new(),
            ops: Vec::new(),
            trace: Vec::new(),
        },
        align: Vec::new(),
        hyp_err: Vec::new(),
        ref_err: Vec::new(),
        trial: Vec::new(),
        best_words: Vec::new(),
        prev: Vec::new(),
        cur: Vec::new(),
    }
}

/// Edits (shifts + edit distance) turning candidate ids `h` into reference ids `r`.
fn edits(h: &[i32], r: &[i32], s: &mut Work) -> i64 {
    if r.is_empty() {
        return h.len() as i64;
    }
    let mut words = h.to_vec();
    s.prev.clear();
    s.prev.resize(r.len() + 1, 0);
    s.cur.clear();
    s.cur.resize(r.len() + 1, 0);
    let mut shifts = 0;
    let mut checked = 0;
    loop {
        let (before, gain, c) = best_shift(&words, r, checked, s);
        checked = c;
        if checked >= MAX_SHIFT_CANDIDATES || gain <= 0 {
            return shifts + before;
        }
        shifts += 1;
        std::mem::swap(&mut words, &mut s.best_words);
    }
}

/// One pair's edits (for tests and the Python `ter_edits`).
pub fn ter_edits(h: &[i32], r: &[i32]) -> i64 {
    edits(h, r, &mut new_work())
}

/// TER edits `(P, R)` flat, NaN where the reference is missing.
pub fn per_ref(pairs: &Pairs) -> Vec<f64> {
    let n_refs = pairs.n_refs();
    let mut out = vec![f64::NAN; pairs.len() * n_refs];
    par_rows(&mut out, n_refs, new_work, |s, p, o| {
        let h = pairs.hyp_row(p);
        for (k, x) in o.iter_mut().enumerate() {
            if let Some(r) = pairs.ref_row(p, k) {
                *x = edits(h, r, s) as f64;
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    #[test]
    fn one_shift_fixes_a_moved_word() {
        assert_eq!(ter_edits(&[2, 3, 1], &[1, 2, 3]), 1);
        assert_eq!(ter_edits(&[1, 2, 3], &[1, 2, 3]), 0);
        // no reference: every candidate word is an edit; no candidate: every reference word
        assert_eq!(ter_edits(&[1, 2], &[]), 2);
        assert_eq!(ter_edits(&[], &[1, 2, 3]), 3);
        let o = Owned::parallel(&[&[2, 3, 1]], &[&[&[1, 2, 3], &[2, 3]]]);
        assert_eq!(per_ref(&o.pairs()), vec![1.0, 1.0]);
    }

    #[test]
    fn a_block_shift_costs_one_edit() {
        // "a b c d e f" -> "d e f a b c": one shift of three words
        assert_eq!(ter_edits(&[4, 5, 6, 1, 2, 3], &[1, 2, 3, 4, 5, 6]), 1);
    }

    #[test]
    fn shifted_blocks_land_as_tercom_puts_them() {
        // a block of 2 at 1 among 5 words: targets before it are kept, after it lose 2
        assert_eq!(insert_at(5, 1, 2, 0), 0);
        assert_eq!(insert_at(5, 1, 2, 3), 3);
        assert_eq!(insert_at(5, 1, 2, 4), 2);
        assert_eq!(insert_at(5, 3, 2, 5), 3);
    }
}
