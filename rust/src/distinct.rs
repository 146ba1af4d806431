//! The distinct items of a list, numbered in order of first occurrence, from their hashes
//! and an equality test (the binding passes Python's own `hash` and `==` of each line, so
//! two lines share a number exactly when a Python dict would give them one key), and the
//! distinct strings of a batch by identity ([`SameStrings`]).

use rustc_hash::FxHashMap;

/// `(rows, firsts)`: `rows[i]` numbers item `i` among the distinct items (0, 1, ... in order
/// of first occurrence), `firsts[r]` is the first item numbered `r`. `same(a, b)` says
/// whether items `a` and `b` are equal; it is asked only of items with equal hashes, and its
/// error stops the pass.
pub fn first_occurrences<E>(
    hashes: &[u64],
    mut same: impl FnMut(usize, usize) -> Result<bool, E>,
) -> Result<(Vec<i64>, Vec<i64>), E> {
    let size = (2 * hashes.len()).next_power_of_two().max(16);
    let mask = size - 1;
    // slot -> first item of a distinct value, usize::MAX when free
    let mut table = vec![usize::MAX; size];
    let mut rows = Vec::with_capacity(hashes.len());
    let mut firsts: Vec<i64> = Vec::new();
    for (i, &h) in hashes.iter().enumerate() {
        // spread the bits: Python's hashes of small ints are the ints themselves
        let mut s = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        let row = loop {
            let f = table[s];
            if f == usize::MAX {
                table[s] = i;
                let r = firsts.len() as i64;
                firsts.push(i as i64);
                break r;
            }
            if hashes[f] == h && same(f, i)? {
                break rows[f];
            }
            s = (s + 1) & mask;
        };
        rows.push(row);
    }
    Ok((rows, firsts))
}

/// The distinct strings of a batch by identity: one string (the same address and length, as
/// Python passes one string object used several times, e.g. a reference shared by the
/// outputs of several systems) is one text, numbered in order of first occurrence. Equal
/// strings at different addresses stay apart: it saves work, never changes a result.
#[derive(Default)]
pub struct SameStrings<'a> {
    index: FxHashMap<(usize, usize), u32>,
    /// the distinct strings, by number
    pub texts: Vec<&'a str>,
}

impl<'a> SameStrings<'a> {
    /// The number of `t`, numbered when new.
    pub fn add(&mut self, t: &'a str) -> u32 {
        let texts = &mut self.texts;
        *self
            .index
            .entry((t.as_ptr() as usize, t.len()))
            .or_insert_with(|| {
                texts.push(t);
                (texts.len() - 1) as u32
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_by_first_occurrence_and_asks_only_equal_hashes() {
        let items = ["b", "a", "b", "c", "a", "b"];
        // "a" and "c" share a hash: equality decides
        let hashes: Vec<u64> = items
            .iter()
            .map(|s| if *s == "b" { 7 } else { 3 })
            .collect();
        let mut asked = 0;
        let (rows, firsts) = first_occurrences::<()>(&hashes, |a, b| {
            asked += 1;
            assert_eq!(hashes[a], hashes[b]);
            Ok(items[a] == items[b])
        })
        .unwrap();
        assert_eq!(rows, vec![0, 1, 0, 2, 1, 0]);
        assert_eq!(firsts, vec![0, 1, 3]);
        assert!(asked <= 6);
        let (rows, firsts) = first_occurrences::<()>(&[], |_, _| Ok(true)).unwrap();
        assert!(rows.is_empty() && firsts.is_empty());
        assert_eq!(first_occurrences(&[1, 1], |_, _| Err("no")), Err("no"));
    }

    #[test]
    fn one_string_passed_twice_is_one_text() {
        let text = String::from("a b");
        let copy = text.clone();
        let mut same = SameStrings::default();
        let numbers = [&text, &copy, &text].map(|t| same.add(t.as_str()));
        assert_eq!(numbers, [0, 1, 0]);
        assert_eq!(same.texts, vec!["a b", "a b"]);
    }
}
