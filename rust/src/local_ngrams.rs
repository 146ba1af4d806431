//! The n-grams of one candidate and its references numbered order by order, exactly: the
//! shared first step of the chrF and BLEU counting kernels (`chrf.rs`, `ngram.rs`).
//!
//! The candidate's distinct tokens get local ids `1..=a` (0 means "not in the candidate").
//! The id of an order-k n-gram is looked up by the exact integer key `(id of its (k-1)-gram
//! prefix) * (a + 1) + (local id of its last token)`, below `(|hyp| + 1) * (a + 1)`: in a
//! table indexed directly by the key when that is small (the usual case), else in an
//! open-addressing table of the keys compared exactly. Only candidate n-grams get ids; a
//! reference n-gram gets the id of the equal candidate n-gram, or 0 when the candidate has
//! none (then no longer n-gram starting there can match either). No hashing of text, so no
//! collisions; no allocation per pair or per order: all arrays are scratch reused by every
//! pair of a block.

use crate::scratch;
use crate::table::slot;

pub struct LocalNgrams {
    /// global token id -> local id (0: not in the current candidate); as long as the
    /// vocabulary of the candidates
    loc: Vec<u32>,
    /// the candidate's local ids (order 1)
    tl: Vec<u32>,
    /// the id of the candidate n-gram of the current order at each position (1-based)
    pub hid: Vec<u32>,
    /// the references' local ids (order 1), one reference after the other
    rl: Vec<u32>,
    /// the id of the reference n-gram of the current order at each position, 0 when the
    /// candidate has no such n-gram
    pub rid: Vec<u32>,
    /// where each reference starts in `rl`/`rid`, and its length
    pub refs: Vec<(usize, usize)>,
    /// the live positions (see [`LocalNgrams::live`]) are `live[..n_live]`; the buffer holds
    /// every reference position
    live: Vec<u32>,
    n_live: usize,
    /// the end of the reference of each position
    ref_end: Vec<u32>,
    keys: Vec<i64>,
    vals: Vec<u32>,
    used: Vec<usize>,
    /// the candidate's length, its number of distinct tokens, the current order (1-based)
    /// and the number of distinct candidate n-grams of that order
    pub h: usize,
    a: usize,
    pub order: usize,
    pub n_ids: usize,
    direct: bool,
}

/// The large arrays go back to this thread's kept buffers (`scratch`).
impl Drop for LocalNgrams {
    fn drop(&mut self) {
        scratch::give(std::mem::take(&mut self.loc));
        scratch::give(std::mem::take(&mut self.vals));
    }
}

impl LocalNgrams {
    /// Scratch for candidates of up to `max_h` tokens with ids below `vocab`, references of
    /// up to `max_r` tokens in all per candidate; keys below `direct_max` are looked up in a
    /// direct table.
    pub fn new(vocab: usize, max_h: usize, max_r: usize, direct_max: usize) -> Self {
        let w = max_h + 1;
        let size = (2 * w).next_power_of_two();
        let n_vals = size.max((w * w).min(direct_max));
        // the two large arrays in kept buffers (`scratch`): no fresh pages per call
        let zeros = |n: usize| {
            let mut v = scratch::take(n);
            v.resize(n, 0u32);
            v
        };
        LocalNgrams {
            loc: zeros(vocab),
            tl: vec![0; w],
            hid: vec![0; w],
            rl: vec![0; max_r + 1],
            rid: vec![0; max_r + 1],
            refs: Vec::new(),
            live: vec![0; max_r + 1],
            n_live: 0,
            ref_end: vec![0; max_r + 1],
            keys: vec![-1; size],
            vals: zeros(n_vals),
            used: vec![0; w],
            h: 0,
            a: 0,
            order: 0,
            n_ids: 0,
            direct: true,
        }
    }

    /// Starts a candidate and its references at order 1 (the ids are the local token ids).
    /// Call [`LocalNgrams::finish`] before the next candidate.
    pub fn start<'r>(&mut self, hyp: &[i32], refs: impl Iterator<Item = &'r [i32]>) {
        // fields as local slices: the stores below cannot alias them, so no reloads
        let loc = &mut self.loc[..];
        let mut a = 0u32;
        let (tl, hid) = (&mut self.tl[..hyp.len()], &mut self.hid[..hyp.len()]);
        for ((&t, tl), hid) in hyp.iter().zip(tl).zip(hid) {
            let l = &mut loc[t as usize];
            if *l == 0 {
                a += 1;
                *l = a;
            }
            *tl = *l;
            *hid = *l;
        }
        self.h = hyp.len();
        self.a = a as usize;
        self.order = 1;
        self.n_ids = self.a;
        self.direct = (self.h + 1) * (self.a + 1) <= self.vals.len();
        self.refs.clear();
        // every position is written to `live`, and the count moves past the live ones only
        // (no branch on whether the candidate has the token)
        let live = &mut self.live[..];
        let mut n_live = 0;
        let vocab = loc.len();
        let mut b = 0;
        for r in refs {
            let end = b + r.len();
            let (rl, rid) = (&mut self.rl[b..end], &mut self.rid[b..end]);
            self.ref_end[b..end].fill(end as u32);
            for (j, ((&t, rl), rid)) in r.iter().zip(rl).zip(rid).enumerate() {
                let t = t as usize;
                let l = if t < vocab { loc[t] } else { 0 };
                *rl = l;
                *rid = l;
                live[n_live] = (b + j) as u32;
                n_live += (l != 0) as usize;
            }
            self.refs.push((b, r.len()));
            b = end;
        }
        self.n_live = n_live;
    }

    /// The id of `key` in the hash table, a new one when it has none.
    #[inline(always)]
    fn lookup(&mut self, key: usize) -> u32 {
        let q = slot(&self.keys, key as i64);
        if self.keys[q] == -1 {
            self.keys[q] = key as i64;
            self.n_ids += 1;
            self.vals[q] = self.n_ids as u32;
            self.used[self.n_ids - 1] = q;
            return self.n_ids as u32;
        }
        self.vals[q]
    }

    /// Empties the key table (the slots used by the current order).
    fn clear_table(&mut self) {
        if self.order == 1 {
            return;
        }
        for q in 0..self.n_ids {
            let s = self.used[q];
            self.vals[s] = 0;
            if !self.direct {
                self.keys[s] = -1;
            }
        }
    }

    /// Moves on to the next order: `hid` and `rid` become the ids of the longer n-grams.
    pub fn advance(&mut self) {
        self.clear_table();
        let n = self.order; // the new n-grams end n tokens after their start
        self.n_ids = 0;
        if self.direct {
            self.advance_direct(n);
        } else {
            self.advance_hashed(n);
        }
        // the references: each live position's longer n-gram looked up among the candidate's
        let base = self.a + 1;
        let mut refs = RefsOfOrder {
            live: &mut self.live[..],
            n_live: &mut self.n_live,
            rid: &mut self.rid[..],
            rl: &self.rl[..],
            ref_end: &self.ref_end[..],
        };
        let (keys, vals) = (&self.keys[..], &self.vals[..]);
        if self.direct {
            advance_refs(&mut refs, n, base, |key| vals[key]);
        } else {
            // a key with last local id 0 (below `base`) is never a candidate n-gram
            advance_refs(&mut refs, n, base, |key| {
                let q = slot(keys, key as i64);
                if key % base == 0 || keys[q] == -1 {
                    0
                } else {
                    vals[q]
                }
            });
        }
        self.order += 1;
    }

    /// The candidate's side of [`LocalNgrams::advance`] with the direct table, without
    /// branches: a key with prefix id 0 or last local id 0 is never set (candidate ids and
    /// local ids start at 1), so looking it up gives 0, as it should.
    fn advance_direct(&mut self, n: usize) {
        let base = self.a + 1;
        let h = self.h.saturating_sub(n);
        let (vals, used) = (&mut self.vals[..], &mut self.used[..]);
        // (no n-gram of this order when the candidate is shorter: h = 0, n may pass the end)
        let (hid, tl) = (&mut self.hid[..h], self.tl.get(n..n + h).unwrap_or(&[]));
        let mut n_ids = 0u32;
        for (hid, &last) in hid.iter_mut().zip(tl) {
            let key = *hid as usize * base + last as usize;
            let v = vals[key];
            let new = (v == 0) as u32;
            let id = v + new * (n_ids + 1);
            vals[key] = id;
            used[n_ids as usize] = key;
            n_ids += new;
            *hid = id;
        }
        self.n_ids = n_ids as usize;
    }

    /// The candidate's side of [`LocalNgrams::advance`] with the hash table.
    fn advance_hashed(&mut self, n: usize) {
        let base = self.a + 1;
        for i in 0..self.h.saturating_sub(n) {
            let key = self.hid[i] as usize * base + self.tl[i + n] as usize;
            self.hid[i] = self.lookup(key);
        }
    }

    /// The positions of the references whose n-gram of the current order the candidate has
    /// (`rid` not 0), in order; the other positions stay 0 (or lie past their reference's
    /// last n-gram) and are not visited again.
    #[inline(always)]
    pub fn live(&self) -> &[u32] {
        &self.live[..self.n_live]
    }

    /// The number of n-grams of the current order in a sentence of `len` tokens.
    #[inline(always)]
    pub fn count(&self, len: usize) -> usize {
        len.saturating_sub(self.order - 1)
    }

    /// Clears the scratch for the next candidate.
    pub fn finish(&mut self, hyp: &[i32]) {
        self.clear_table();
        for &t in hyp {
            self.loc[t as usize] = 0;
        }
    }
}

/// The references' positions and ids while an order moves on (see [`advance_refs`]).
struct RefsOfOrder<'s> {
    live: &'s mut [u32],
    n_live: &'s mut usize,
    rid: &'s mut [u32],
    rl: &'s [u32],
    ref_end: &'s [u32],
}

/// The references' n-gram ids of the new order (the new n-grams end `n` tokens after their
/// start; `base` is the candidate's number of distinct tokens + 1), `id(key)` giving the
/// candidate id of a key (0: none). Only the live positions: a position whose shorter
/// n-gram the candidate lacks stays 0; one whose n-gram would run past its reference is
/// dropped.
#[inline(always)]
fn advance_refs(r: &mut RefsOfOrder, n: usize, base: usize, id: impl Fn(usize) -> u32) {
    let mut kept = 0;
    for q in 0..*r.n_live {
        let j = r.live[q] as usize;
        if j + n >= r.ref_end[j] as usize {
            continue;
        }
        let g = id(r.rid[j] as usize * base + r.rl[j + n] as usize);
        r.rid[j] = g;
        r.live[kept] = j as u32;
        kept += (g != 0) as usize;
    }
    *r.n_live = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_longer_than_the_candidate_have_no_ngrams() {
        // scratch sized for one-token candidates: order 4 starts past the end of `tl`
        let r: &[i32] = &[5, 5, 5];
        for direct_max in [1 << 18, 0] {
            let mut s = LocalNgrams::new(8, 1, 3, direct_max);
            s.start(&[5], std::iter::once(r));
            assert_eq!(s.live(), [0, 1, 2]);
            for _ in 0..3 {
                s.advance(); // orders 2 to 4
            }
            assert_eq!((s.n_ids, s.count(s.h), s.live().len()), (0, 0, 0));
            s.finish(&[5]);
        }
    }

    #[test]
    fn equal_ngrams_get_equal_ids_and_absent_ones_zero() {
        // candidate 5 6 5 6, reference 6 5 6 7
        let hyp = [5, 6, 5, 6];
        let r: &[i32] = &[6, 5, 6, 7];
        for direct_max in [1 << 18, 0] {
            let mut s = LocalNgrams::new(8, 4, 4, direct_max);
            s.start(&hyp, std::iter::once(r));
            assert_eq!(&s.hid[..4], &[1, 2, 1, 2]);
            assert_eq!(&s.rid[..4], &[2, 1, 2, 0]);
            s.advance(); // bigrams 56 65 56 / 65 56 67
            assert_eq!(&s.hid[..3], &[1, 2, 1]);
            assert_eq!(&s.rid[..3], &[2, 1, 0]);
            assert_eq!(s.live(), [0, 1]);
            s.advance(); // trigrams 565 656 / 656 567
            assert_eq!(&s.hid[..2], &[1, 2]);
            assert_eq!(&s.rid[..2], &[2, 0]);
            assert_eq!(s.live(), [0]);
            assert_eq!((s.count(4), s.n_ids), (2, 2));
            s.finish(&hyp);
            assert!(s.loc.iter().all(|&x| x == 0) && s.vals.iter().all(|&x| x == 0));
            assert!(s.keys.iter().all(|&x| x == -1));
        }
    }
}
