//! compare-mt's analyses (`mtpalette.analysis`): the clipped matches of every system's tokens
//! or n-grams in the reference, summed by id over the corpus in one pass; and NLTK's smoothed
//! sentence BLEU (method2, as compare-mt 0.2.10 calls it) in NLTK's own arithmetic.

use rayon::prelude::*;

use crate::error::{ensure, Checked};
use crate::grid::Grid;
use crate::pairs::check_offsets;

/// Per system and id, the matches summed over the sentences, for every layer of ids (the
/// n-grams of one order each, say) in one pass. `ids` is `(layers, T)`, every layer aligned
/// with the same rows `offsets`; the rows are stacked parts of `n_rows` rows each, the
/// reference first, then every system. Layer `k`'s ids are below `n_ids[k]`; a negative id
/// (a position where no n-gram starts) is skipped. `out[(j - 1) * W + base[k] + g]`, with `W`
/// the sum of `n_ids` and `base[k]` that of the layers before `k`, is the sum over sentences
/// `s` of `min(count of g in row j * n_rows + s, count of g in row s)`.
pub fn clipped_matches(
    ids: Grid<i64>,
    offsets: &[i64],
    n_rows: usize,
    n_ids: &[usize],
) -> Checked<Vec<i64>> {
    let (layers, t_len) = ids.dim();
    check_offsets(offsets, t_len, "offsets")?;
    let total = offsets.len() - 1;
    ensure(n_rows > 0 && total.is_multiple_of(n_rows) && total > 0, || {
        format!("clipped_matches: {total} rows are not parts of {n_rows} rows")
    })?;
    ensure(n_ids.len() == layers, || {
        format!(
            "clipped_matches: {} id bounds for {layers} layers",
            n_ids.len()
        )
    })?;
    for (k, (layer, &bound)) in ids.rows().zip(n_ids).enumerate() {
        let high = layer.iter().fold(-1i64, |m, &x| m.max(x));
        ensure(high < bound as i64, || {
            format!("clipped_matches: an id ({high}) of layer {k} not below its bound ({bound})")
        })?;
    }
    let mut base = vec![0usize; layers + 1];
    for k in 0..layers {
        base[k + 1] = base[k] + n_ids[k];
    }
    let width = base[layers];
    let n_systems = total / n_rows - 1;
    let sorted_row = |k: usize, r: usize| -> Vec<i64> {
        let (a, b) = (offsets[r] as usize, offsets[r + 1] as usize);
        let mut row: Vec<i64> = ids.row(k)[a..b]
            .iter()
            .copied()
            .filter(|&x| x >= 0)
            .collect();
        row.sort_unstable();
        row
    };
    let refs: Vec<Vec<Vec<i64>>> = (0..layers)
        .map(|k| (0..n_rows).map(|s| sorted_row(k, s)).collect())
        .collect();
    let mut out = vec![0i64; n_systems * width];
    if width == 0 {
        return Ok(out);
    }
    out.par_chunks_mut(width)
        .enumerate()
        .for_each(|(j, counts)| {
            for k in 0..layers {
                let layer = &mut counts[base[k]..base[k + 1]];
                for (s, r) in refs[k].iter().enumerate() {
                    add_clipped(&sorted_row(k, (j + 1) * n_rows + s), r, layer);
                }
            }
        });
    Ok(out)
}

/// Adds `min(count in h, count in r)` of every id of the sorted `h` and `r` to `counts`.
fn add_clipped(h: &[i64], r: &[i64], counts: &mut [i64]) {
    let (mut i, mut k) = (0, 0);
    while i < h.len() && k < r.len() {
        let (x, y) = (h[i], r[k]);
        if x < y {
            i += 1;
        } else if y < x {
            k += 1;
        } else {
            let (i0, k0) = (i, k);
            while i < h.len() && h[i] == x {
                i += 1;
            }
            while k < r.len() && r[k] == x {
                k += 1;
            }
            counts[x as usize] += (i - i0).min(k - k0) as i64;
        }
    }
}

/// NLTK's `sentence_bleu` with `SmoothingFunction().method2`, times 100, of every row
/// `[hyp_len, ref_len, correct_1..n, total_1..n]`: 0 without a unigram match; the unigram
/// precision as it is, every higher order `(c + 1) / (max(1, t) + 1)`; each `ln(p) * (1 / n)`
/// (the system's `log`, as Python's `math.log`), their exactly rounded sum (`math.fsum`),
/// `exp` of it times the brevity penalty (1 when the output is longer than the reference, 0
/// when it is empty, `exp(1 - r / c)` otherwise).
pub fn nltk_sentence_bleu(stats: Grid<f64>, n: usize) -> Checked<Vec<f64>> {
    ensure(n > 0 && stats.dim().1 == 2 + 2 * n, || {
        format!("nltk_sentence_bleu: rows of 2 + 2 * {n} values expected")
    })?;
    let weight = 1.0 / n as f64;
    let mut logs = vec![0.0f64; n];
    let mut partials = Vec::with_capacity(n);
    Ok(stats
        .rows()
        .map(|row| {
            let (hyp_len, ref_len) = (row[0], row[1]);
            if row[2] == 0.0 {
                return 0.0;
            }
            for i in 0..n {
                let (mut correct, mut total) = (row[2 + i], row[2 + n + i].max(1.0));
                if i > 0 {
                    correct += 1.0;
                    total += 1.0;
                }
                logs[i] = (correct / total).ln() * weight;
            }
            let bp = if hyp_len > ref_len {
                1.0
            } else if hyp_len == 0.0 {
                0.0
            } else {
                (1.0 - ref_len / hyp_len).exp()
            };
            100.0 * (bp * fsum(&logs, &mut partials).exp())
        })
        .collect())
}

/// The exactly rounded sum of finite `xs` (round half to even), as Python's `math.fsum`:
/// Shewchuk's non-overlapping partials, then summed from the largest with the correction for
/// a half-way case that spans partials.
pub fn fsum(xs: &[f64], partials: &mut Vec<f64>) -> f64 {
    partials.clear();
    for &value in xs {
        let mut x = value;
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        partials.truncate(i);
        partials.push(x);
    }
    let mut n = partials.len();
    if n == 0 {
        return 0.0;
    }
    n -= 1;
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        lo = y - (hi - x);
        if lo != 0.0 {
            break;
        }
    }
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        if y == x - hi {
            hi = x;
        }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_matches_per_system_and_id() {
        // reference rows [1 1 2] [3]; system A [1 2 2] [3 3]; system B [] [-1 3]
        let ids = [1, 1, 2, 3, 1, 2, 2, 3, 3, -1, 3];
        let offsets = [0, 3, 4, 7, 9, 9, 11];
        let grid = Grid::new(&ids, 1, 11, "ids").unwrap();
        let out = clipped_matches(grid, &offsets, 2, &[4]).unwrap();
        assert_eq!(out, vec![0, 1, 1, 1, 0, 0, 0, 1]);
        assert!(clipped_matches(grid, &offsets, 4, &[4]).is_err());
        assert!(clipped_matches(grid, &offsets, 2, &[3]).is_err());
        // two layers: the second one id space after the first
        let two = [ids, ids].concat();
        let grid = Grid::new(&two, 2, 11, "ids").unwrap();
        let out = clipped_matches(grid, &offsets, 2, &[4, 5]).unwrap();
        assert_eq!(
            out,
            vec![0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0]
        );
    }

    #[test]
    fn fsum_rounds_exactly() {
        let mut p = Vec::new();
        assert_eq!(fsum(&[1e100, 1.0, -1e100, 1e-100], &mut p), 1.0);
        assert_eq!(fsum(&[0.1; 10], &mut p), 1.0);
        assert_eq!(fsum(&[], &mut p), 0.0);
        // 1 + 2^-53 is half-way between 1 and its successor: even, 1; the third term tips it
        let half = 2f64.powi(-53);
        assert_eq!(fsum(&[1.0, half], &mut p), 1.0);
        assert_eq!(fsum(&[1.0, half, 1e-300], &mut p), 1.0 + 2f64.powi(-52));
    }

    #[test]
    fn sentence_bleu_of_a_row() {
        // 3 of 4 unigrams, 1 of 3 bigrams; output 4 words, reference 5
        let row = [4.0, 5.0, 3.0, 1.0, 4.0, 3.0];
        let out = nltk_sentence_bleu(Grid::new(&row, 1, 6, "stats").unwrap(), 2).unwrap();
        let want = 100.0 * (1.0f64 - 5.0 / 4.0).exp() * (0.75f64 * 0.5).sqrt();
        assert!((out[0] - want).abs() < 1e-9);
        let zero = [4.0, 5.0, 0.0, 1.0, 4.0, 3.0];
        let out = nltk_sentence_bleu(Grid::new(&zero, 1, 6, "stats").unwrap(), 2).unwrap();
        assert_eq!(out, vec![0.0]);
    }
}
