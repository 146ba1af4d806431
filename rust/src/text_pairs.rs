//! Candidates and references as text, laid out for the pairs kernels: the kernels that go
//! straight from text (`bleu_text`, `chrf_text`) find the distinct strings once
//! ([`Layout`]), tokenize and number only those, and lay the token numbers out as the
//! [`Pairs`] every counting kernel reads ([`Encoded`]).

use crate::distinct::SameStrings;
use crate::error::{ensure, Checked};
use crate::grid::Grid;
use crate::pairs::Pairs;
use crate::scores::gather;

/// Candidates as text, each of a segment, and the references of every segment:
/// `refs[k][s]` is the `k`-th reference of segment `s` (None: that segment has fewer).
pub struct TextPairs<'a> {
    pub hyps: Vec<&'a str>,
    pub seg: &'a [i64],
    pub refs: Vec<Vec<Option<&'a str>>>,
}

/// The distinct strings of [`TextPairs`] (one Python string passed several times is one;
/// the empty text stands for a missing reference) and the one of every candidate and of
/// every reference row (`k * S + s`).
pub struct Layout<'a> {
    pub texts: Vec<&'a str>,
    hyp_rows: Vec<i64>,
    ref_rows: Vec<i64>,
    /// `(R, S)`: whether segment `s` has its `k`-th reference
    mask: Vec<bool>,
    n_refs: usize,
    n_seg: usize,
}

/// The token numbers of every candidate and reference row, as [`Pairs`] hold them.
pub struct Encoded {
    hyp: Vec<i32>,
    hyp_off: Vec<i64>,
    refs: Vec<i32>,
    ref_off: Vec<i64>,
}

impl<'a> TextPairs<'a> {
    /// The distinct strings and where each candidate and reference is among them.
    pub fn layout(&self) -> Checked<Layout<'a>> {
        let n_refs = self.refs.len();
        let n_seg = self.refs.first().map_or(0, Vec::len);
        ensure(self.refs.iter().all(|r| r.len() == n_seg), || {
            "every reference stream needs one entry per segment".into()
        })?;
        let mut same = SameStrings::default();
        let empty = same.add("") as i64;
        let hyp_rows = self.hyps.iter().map(|h| same.add(h) as i64).collect();
        let mut mask = Vec::with_capacity(n_refs * n_seg);
        let ref_rows = self
            .refs
            .iter()
            .flatten()
            .map(|r| {
                mask.push(r.is_some());
                r.map_or(empty, |r| same.add(r) as i64)
            })
            .collect();
        Ok(Layout {
            texts: same.texts,
            hyp_rows,
            ref_rows,
            mask,
            n_refs,
            n_seg,
        })
    }
}

impl Layout<'_> {
    /// The candidates and reference rows as token numbers, from `counts[i]` tokens of
    /// distinct text `i`, whose numbers follow one another in `ids`.
    pub fn encode(&self, counts: &[i64], ids: &[i32]) -> Checked<Encoded> {
        ensure(counts.len() == self.texts.len(), || {
            "one token count per distinct text expected".into()
        })?;
        let mut off = Vec::with_capacity(counts.len() + 1);
        off.push(0i64);
        for &c in counts {
            off.push(off.last().unwrap() + c);
        }
        let (hyp, hyp_off) = gather(ids, &off, &self.hyp_rows)?;
        let (refs, ref_off) = gather(ids, &off, &self.ref_rows)?;
        Ok(Encoded {
            hyp,
            hyp_off,
            refs,
            ref_off,
        })
    }

    /// The checked [`Pairs`] of `encoded` (made by [`Layout::encode`]), candidate `p` of
    /// segment `seg[p]`.
    pub fn pairs<'b>(&'b self, encoded: &'b Encoded, seg: &'b [i64]) -> Checked<Pairs<'b>> {
        Pairs {
            hyp: &encoded.hyp,
            hyp_off: &encoded.hyp_off,
            seg,
            refs: &encoded.refs,
            ref_off: &encoded.ref_off,
            mask: Grid::new(&self.mask, self.n_refs, self.n_seg, "refs")?,
        }
        .check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_strings_rows_and_missing_references() {
        let shared = String::from("x y");
        let t = TextPairs {
            hyps: vec![shared.as_str(), "a"],
            seg: &[1, 0],
            refs: vec![
                vec![Some("b c"), Some(shared.as_str())],
                vec![None, Some("d")],
            ],
        };
        let layout = t.layout().unwrap();
        assert_eq!(layout.texts, vec!["", "x y", "a", "b c", "d"]);
        // tokens per distinct text, numbered: "x y" -> 1 2, "a" -> 3, "b c" -> 4 5, "d" -> 6
        let encoded = layout
            .encode(&[0, 2, 1, 2, 1], &[1, 2, 3, 4, 5, 6])
            .unwrap();
        let pairs = layout.pairs(&encoded, t.seg).unwrap();
        assert_eq!(
            (pairs.hyp_row(0), pairs.hyp_row(1)),
            (&[1, 2][..], &[3][..])
        );
        assert_eq!(pairs.ref_row(0, 0), Some(&[1, 2][..]));
        assert_eq!(pairs.ref_row(1, 0), Some(&[4, 5][..]));
        assert_eq!(
            (pairs.ref_row(1, 1), pairs.ref_row(0, 1)),
            (None, Some(&[6][..]))
        );
        assert!(layout.encode(&[0, 2], &[1, 2]).is_err());
        assert!(layout.pairs(&encoded, &[2, 0]).is_err());
        let ragged = TextPairs {
            hyps: vec!["a"],
            seg: &[0],
            refs: vec![vec![Some("a")], vec![]],
        };
        assert!(ragged.layout().is_err());
    }
}
