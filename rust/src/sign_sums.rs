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
