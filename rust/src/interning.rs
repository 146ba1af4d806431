//! Exact n-gram ids: every distinct n-gram of a corpus gets one id, order by order, in the
//! order of first occurrence. The id of an order-k n-gram is looked up by the exact pair
//! (id of its (k-1)-gram prefix, last token) in a hash map: the hash only places the key, so
//! there are no collisions. (`mtpalette.kernels.interning` holds the numpy twin, which
//! numbers the n-grams in sorted order instead; the tests compare the two partitions.)

use rustc_hash::FxHashMap;

use crate::error::{ensure, Checked};
use crate::pairs::{check_ids, check_offsets};

/// `(ids, prefixes)`: `ids[(k - 1) * T + t]` is the id of the order-k n-gram starting at
/// token `t` (-1 where it runs past its row); `prefixes[k - 1][g]` the id of the (k-1)-gram
/// prefix of order-k id `g` (order 1: -1 for every token id below the vocabulary bound).
pub fn intern_ngrams(
    tokens: &[i32],
    offsets: &[i64],
    max_n: usize,
) -> Checked<(Vec<i64>, Vec<Vec<i64>>)> {
    check_offsets(offsets, tokens.len(), "offsets")?;
    check_ids(tokens, "tokens")?;
    ensure(max_n >= 1, || "max_n must be at least 1".into())?;
    let t_len = tokens.len();
    let vocab = tokens.iter().map(|&x| x as usize + 1).max().unwrap_or(1);
    let mut ids = vec![-1i64; max_n * t_len];
    let mut prefixes = vec![vec![-1i64; vocab]];
    for (t, &x) in tokens.iter().enumerate() {
        ids[t] = x as i64;
    }
    // the end of each token's row
    let mut end = vec![0usize; t_len];
    for w in offsets.windows(2) {
        end[w[0] as usize..w[1] as usize].fill(w[1] as usize);
    }
    for k in 2..=max_n {
        let (done, rest) = ids.split_at_mut((k - 1) * t_len);
        let prev = &done[(k - 2) * t_len..];
        let cur = &mut rest[..t_len];
        let mut map: FxHashMap<(i64, i32), i64> = FxHashMap::default();
        let mut prefix = Vec::new();
        for t in 0..t_len {
            if t + k > end[t] {
                continue;
            }
            let key = (prev[t], tokens[t + k - 1]);
            let next = prefix.len() as i64;
            let id = *map.entry(key).or_insert_with(|| {
                prefix.push(key.0);
                next
            });
            cur[t] = id;
        }
        prefixes.push(prefix);
    }
    Ok((ids, prefixes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_order_of_first_occurrence() {
        // rows 5 6 5 6 and 6 5: bigrams (5,6) (6,5) (5,6) - (6,5) -
        let (ids, prefixes) = intern_ngrams(&[5, 6, 5, 6, 6, 5], &[0, 4, 6], 3).unwrap();
        assert_eq!(&ids[..6], &[5, 6, 5, 6, 6, 5]);
        assert_eq!(&ids[6..12], &[0, 1, 0, -1, 1, -1]);
        // trigrams (5,6,5) (6,5,6) in the first row only
        assert_eq!(&ids[12..], &[0, 1, -1, -1, -1, -1]);
        assert_eq!(prefixes[0], vec![-1; 7]);
        assert_eq!(prefixes[1], vec![5, 6]);
        assert_eq!(prefixes[2], vec![0, 1]);
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(intern_ngrams(&[1, 2], &[0, 2], 0).is_err());
        assert!(intern_ngrams(&[1, -2], &[0, 2], 2).is_err());
        assert!(intern_ngrams(&[1, 2], &[0, 3], 2).is_err());
        let (ids, prefixes) = intern_ngrams(&[], &[0], 2).unwrap();
        assert!(ids.is_empty() && prefixes[1].is_empty());
    }
}
