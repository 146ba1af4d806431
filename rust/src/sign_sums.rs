//! SPA's permuted system totals in a fixed float32 order: ``signs[rows[n]] . values[cols[n]]``
//! summed item by item within blocks (each block's sum from +0.0, one float32 rounding per
//! addition), the block sums added to the total in order (OpenBLAS's AVX-512 sgemm order, see
//! ``mtpalette.stats.pairwise.sign_product_blocks``). Only a few products are asked for (the
//! near-ties of the BLAS screen). No fused multiply-add: each product is rounded to float32
//! before it is added, as numpy's multiply then add.

use crate::error::{ensure, Checked};
use crate::grid::Grid;

/// The sums of the products ``(rows[n], cols[n])``; ``bounds`` are the block boundaries
/// ``[0, b1, ..., items]``.
pub fn sign_products(
    signs: Grid<'_, f32>,
    values: Grid<'_, f32>,
    rows: &[i64],
    cols: &[i64],
    bounds: &[i64],
) -> Checked<Vec<f32>> {
    let (n_signs, items) = signs.dim();
    let (n_values, v_items) = values.dim();
    ensure(items == v_items, || {
        format!("signs have {items} items, values {v_items}")
    })?;
    ensure(rows.len() == cols.len(), || {
        "rows and cols differ in length".into()
    })?;
    ensure(
        rows.iter().all(|&r| r >= 0 && (r as usize) < n_signs),
        || "rows: an index outside signs".into(),
    )?;
    ensure(
        cols.iter().all(|&c| c >= 0 && (c as usize) < n_values),
        || "cols: an index outside values".into(),
    )?;
    ensure(
        bounds.first() == Some(&0)
            && bounds.last() == Some(&(items as i64))
            && bounds.windows(2).all(|w| w[0] <= w[1]),
        || "bounds: expected 0 = b0 <= b1 <= ... = items".into(),
    )?;
    // eight products at a time: eight independent running sums hide the addition's latency
    const LANES: usize = 8;
    let mut out = Vec::with_capacity(rows.len());
    for (rs, cs) in rows.chunks(LANES).zip(cols.chunks(LANES)) {
        let n = rs.len();
        let mut s = [signs.row(0); LANES];
        let mut v = [values.row(0); LANES];
        for j in 0..n {
            s[j] = signs.row(rs[j] as usize);
            v[j] = values.row(cs[j] as usize);
        }
        let mut total = [0.0f32; LANES];
        for w in bounds.windows(2) {
            let (lo, hi) = (w[0] as usize, w[1] as usize);
            let mut acc = [0.0f32; LANES];
            for l in lo..hi {
                for j in 0..LANES {
                    let term = s[j][l] * v[j][l];
                    acc[j] += term;
                }
            }
            for j in 0..LANES {
                total[j] += acc[j];
            }
        }
        out.extend_from_slice(&total[..n]);
    }
    Ok(out)
}

/// Sure hits ``(batches, pairs)`` and the near-ties' draws, batches and pairs.
pub type Screen = (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>);

/// The screen of SPA's permuted differences (``stats.pairwise.pairwise_p_values_batch``):
/// ``partial`` is the BLAS product ``(columns, draws)`` with column ``b * n_sys + s`` for
/// batch ``b`` and system ``s``; for every batch and system pair ``p = (i < j)`` (row-major
/// pair order) the float32 difference ``null = partial[i, t] - partial[j, t]`` of each draw
/// ``t`` is a sure hit when ``null > above[b, p]``, and a near-tie, to be decided in the
/// reference order, when ``below[b, p] <= null`` but not a sure hit, or always when
/// ``odd[b, p]``. Returns the sure hits ``(batches, pairs)`` and the near-ties ``(t, b, p)``.
pub fn spa_screen(
    partial: Grid<'_, f32>,
    n_sys: usize,
    above: Grid<'_, f32>,
    below: Grid<'_, f32>,
    odd: &[bool],
) -> Checked<Screen> {
    let (n_cols, _) = partial.dim();
    let (n_batch, n_pairs) = above.dim();
    ensure(n_sys >= 1 && n_cols == n_batch * n_sys, || {
        format!("{n_cols} columns are not {n_batch} batches x {n_sys} systems")
    })?;
    ensure(n_pairs == n_sys * (n_sys - 1) / 2, || {
        format!("{n_pairs} pairs for {n_sys} systems")
    })?;
    ensure(
        below.dim() == above.dim() && odd.len() == n_batch * n_pairs,
        || "above, below and odd differ in shape".into(),
    )?;
    let mut hits = vec![0i64; n_batch * n_pairs];
    let (mut nt, mut nb, mut np) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..n_batch {
        let mut p = 0;
        for i in 0..n_sys {
            let xi = partial.row(b * n_sys + i);
            for j in i + 1..n_sys {
                let xj = partial.row(b * n_sys + j);
                let (u, d, o) = (above[[b, p]], below[[b, p]], odd[b * n_pairs + p]);
                // one pass over the draws, vectorised: sure hits, and whether any is near
                let (mut count, mut near) = (0u32, 0u32);
                for (&a, &c) in xi.iter().zip(xj) {
                    let null = a - c;
                    let sure = null > u;
                    count += u32::from(sure);
                    near += u32::from(!sure & (null >= d));
                }
                hits[b * n_pairs + p] = i64::from(count);
                if o {
                    for t in 0..xi.len() {
                        nt.push(t as i64);
                        nb.push(b as i64);
                        np.push(p as i64);
                    }
                } else if near > 0 {
                    // the near draws: chunks of 16 screened at once, the few with one scanned
                    let mut left = near;
                    for (k, (ca, cb)) in xi.chunks(16).zip(xj.chunks(16)).enumerate() {
                        let is_near = |a: f32, c: f32| {
                            let null = a - c;
                            !(null > u) & (null >= d)
                        };
                        if !ca
                            .iter()
                            .zip(cb)
                            .fold(false, |acc, (&a, &c)| acc | is_near(a, c))
                        {
                            continue;
                        }
                        for (l, (&a, &c)) in ca.iter().zip(cb).enumerate() {
                            if is_near(a, c) {
                                nt.push((k * 16 + l) as i64);
                                nb.push(b as i64);
                                np.push(p as i64);
                                left -= 1;
                            }
                        }
                        if left == 0 {
                            break;
                        }
                    }
                }
                p += 1;
            }
        }
    }
    Ok((hits, nt, nb, np))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_of_additions_is_kept() {
        // 1e8 + 1 - 1e8 + 1 in float32, one block: 1 (the first 1 is lost), not 2
        let s = [1.0f32; 4];
        let v = [1e8f32, 1.0, -1e8, 1.0];
        let (sg, vg) = (
            Grid::new(&s, 1, 4, "s").unwrap(),
            Grid::new(&v, 1, 4, "v").unwrap(),
        );
        assert_eq!(
            sign_products(sg, vg, &[0], &[0], &[0, 4]).unwrap(),
            vec![1.0]
        );
        // two blocks [0, 2), [2, 4): (1e8 + 1) + (-1e8 + 1) = 0 + ... = 0 in float32
        let out = sign_products(sg, vg, &[0], &[0], &[0, 2, 4]).unwrap();
        assert_eq!(out, vec![(1e8f32 + 1.0) + (-1e8f32 + 1.0)]);
        assert!(sign_products(sg, vg, &[1], &[0], &[0, 4]).is_err());
    }
}
