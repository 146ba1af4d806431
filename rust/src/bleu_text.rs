//! BLEU's sufficient statistics straight from text, in one call: the strings are tokenized
//! and numbered (`encode_text::line_ids`, each distinct string once), the candidates and
//! the references laid out as pairs (`text_pairs`), and the rows `[hyp_len, ref_len,
//! correct_1..N, total_1..N]` counted by the kernels the encoded route uses
//! (`ngram::ngram_matches`, `scores::closest_ref_lengths`). The token numbers are local to the call (no vocabulary
//! is kept): the counts only ask whether two tokens are equal, so the rows are those of the
//! encoded route, value for value.

use crate::encode_text::line_ids;
use crate::error::{ensure, Checked};
use crate::ngram::{ngram_matches_on, Clipping};
use crate::scores::closest_ref_lengths;
use crate::text_pairs::TextPairs;

/// `[hyp_len, ref_len, correct_1..max_n, total_1..max_n]` per candidate, flat (`P` rows of
/// `2 + 2 * max_n`), with the tokenizer `mode` (`none`, `13a` or `intl`, as
/// `encode_text::encode_lines`) and its class table `flags`; `parallel` spreads the
/// tokenizing and the counting over the threads (else all on this one: no hand-off to the
/// pool, which a small call would pay more for than it gains).
pub fn bleu_text_stats(
    t: &TextPairs,
    mode: u8,
    flags: &[u16],
    max_n: usize,
    parallel: bool,
) -> Checked<Vec<f64>> {
    ensure(max_n >= 1, || "bleu_text_stats: orders start at 1".into())?;
    let layout = t.layout()?;
    let (counts, ids) = line_ids(&layout.texts, mode, flags, parallel)?;
    let encoded = layout.encode(&counts, &ids)?;
    crate::scratch::give(ids);
    let pairs = layout.pairs(&encoded, t.seg)?;
    let matches = ngram_matches_on(&pairs, max_n, Clipping::Best, parallel);
    let closest = closest_ref_lengths(&pairs);
    let width = 2 + 2 * max_n;
    let mut out = vec![0.0; pairs.len() * width];
    for (p, row) in out.chunks_mut(width).enumerate() {
        let len = pairs.hyp_row(p).len();
        row[0] = len as f64;
        row[1] = closest[p] as f64;
        for n in 0..max_n {
            row[2 + n] = matches[p * max_n + n] as f64;
            row[2 + max_n + n] = len.saturating_sub(n) as f64;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::tests::ascii_flags;
    use crate::tokenize::{MODE_13A, MODE_NONE};

    fn stats(hyps: &[&str], seg: &[i64], refs: Vec<Vec<Option<&str>>>, n: usize) -> Vec<f64> {
        let t = TextPairs {
            hyps: hyps.to_vec(),
            seg,
            refs,
        };
        bleu_text_stats(&t, MODE_NONE, &ascii_flags(), n, false).unwrap()
    }

    #[test]
    fn rows_of_lengths_clipped_matches_and_totals() {
        // "a b a" against "a b" and "a a": unigrams a twice (clipped by "a a"), b once;
        // bigram "a b" once; lengths 3 against 2 and 2: the closest is 2
        let row = stats(
            &["a b a"],
            &[0],
            vec![vec![Some("a b")], vec![Some("a a")]],
            2,
        );
        assert_eq!(row, vec![3.0, 2.0, 3.0, 1.0, 3.0, 2.0]);
    }

    #[test]
    fn missing_references_segments_and_shared_strings() {
        // two candidates of segment 1, one of segment 0; segment 0 has one reference
        let shared = String::from("x y z");
        let refs = vec![
            vec![Some("p q"), Some(shared.as_str())],
            vec![None, Some("x y")],
        ];
        let out = stats(&["p q", shared.as_str(), "x"], &[0, 1, 1], refs, 2);
        assert_eq!(
            out,
            vec![
                2.0, 2.0, 2.0, 1.0, 2.0, 1.0, // "p q" against itself
                3.0, 3.0, 3.0, 2.0, 3.0, 2.0, // "x y z" against "x y z" and "x y"
                1.0, 2.0, 1.0, 0.0, 1.0, 0.0, // "x": closest length 2
            ]
        );
    }

    #[test]
    fn tokenizes_as_13a_and_refuses_bad_shapes() {
        let t = TextPairs {
            hyps: vec!["Hi, you."],
            seg: &[0],
            refs: vec![vec![Some("Hi , you .")]],
        };
        let out = bleu_text_stats(&t, MODE_13A, &ascii_flags(), 4, true).unwrap();
        assert_eq!(out, vec![4.0, 4.0, 4.0, 3.0, 2.0, 1.0, 4.0, 3.0, 2.0, 1.0]);
        let bad = TextPairs {
            hyps: vec!["a"],
            seg: &[1],
            refs: vec![vec![Some("a")]],
        };
        assert!(bleu_text_stats(&bad, MODE_NONE, &ascii_flags(), 4, false).is_err());
        let ragged = TextPairs {
            hyps: vec!["a"],
            seg: &[0],
            refs: vec![vec![Some("a")], vec![]],
        };
        assert!(bleu_text_stats(&ragged, MODE_NONE, &ascii_flags(), 4, false).is_err());
        assert!(bleu_text_stats(&t, MODE_NONE, &ascii_flags(), 0, false).is_err());
    }
}
