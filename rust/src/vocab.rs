//! The exact vocabulary's hash table (`mtpalette/text/vocab.py`): tokens are UTF-32 code
//! points; a 64-bit hash only chooses the slot of an open-addressing table, and two tokens
//! share an id only when their code points are equal.

use crate::error::{ensure, Checked};
use crate::pairs::check_below;

const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;
const MIX: u64 = 0xFF51_AFD7_ED55_8CCD;

#[inline(always)]
pub fn hash_start() -> u64 {
    FNV_OFFSET
}

#[inline(always)]
pub fn hash_step(h: u64, c: u32) -> u64 {
    (h ^ c as u64).wrapping_mul(FNV_PRIME)
}

/// FNV-1a finished with a murmur-style mix so that the low bits are well spread.
#[inline(always)]
pub fn hash_end(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(MIX);
    h ^= h >> 33;
    h
}

/// Checks that every token span `cp[start[t]..start[t] + length[t]]` is inside `cp`.
fn check_spans(cp: &[u32], start: &[i64], length: &[i64]) -> Checked<()> {
    ensure(
        start.len() == length.len()
            && start
                .iter()
                .zip(length)
                .all(|(&s, &n)| s >= 0 && n >= 0 && (s + n) as usize <= cp.len()),
        || "token spans out of range".into(),
    )
}

/// The hash of every token `cp[start[t]..start[t] + length[t]]`.
pub fn hash_spans(cp: &[u32], start: &[i64], length: &[i64]) -> Checked<Vec<u64>> {
    check_spans(cp, start, length)?;
    Ok(start
        .iter()
        .zip(length)
        .map(|(&s, &n)| {
            let s = s as usize;
            hash_end(
                cp[s..s + n as usize]
                    .iter()
                    .fold(hash_start(), |h, &c| hash_step(h, c)),
            )
        })
        .collect())
}

/// `ids[t] = vocab_ids[ids[t]]` for every token, in place: the numbers of a call's
/// distinct tokens (`encode_text`) turned into their vocabulary ids, with no new array.
pub fn to_vocab_ids(ids: &mut [i32], vocab_ids: &[i32]) -> Checked<()> {
    check_below(ids, vocab_ids.len(), "to_vocab_ids: ids", "token number")?;
    for x in ids {
        *x = vocab_ids[*x as usize];
    }
    Ok(())
}

/// A table of `size` slots (a power of two) holding the ids `0..n_vocab`.
pub fn rehash(size: usize, v_hash: &[u64], n_vocab: usize) -> Checked<Vec<i32>> {
    ensure(
        size.is_power_of_two() && n_vocab <= v_hash.len() && n_vocab < size,
        || "vocab_rehash: bad table size".into(),
    )?;
    let mut table = vec![-1i32; size];
    let mask = (size - 1) as u64;
    for (v, &h) in v_hash.iter().enumerate().take(n_vocab) {
        let mut s = h & mask;
        while table[s as usize] >= 0 {
            s = (s + 1) & mask;
        }
        table[s as usize] = v as i32;
    }
    Ok(table)
}

/// The vocabulary's arrays, borrowed from Python.
pub struct VocabArrays<'a> {
    pub table: &'a mut [i32],
    pub v_hash: &'a mut [u64],
    pub v_start: &'a mut [i64],
    pub v_len: &'a mut [i64],
    pub v_cp: &'a mut [u32],
}

/// Token spans of `cp` with their hashes.
pub struct Spans<'a> {
    pub cp: &'a [u32],
    pub start: &'a [i64],
    pub length: &'a [i64],
    pub hashes: &'a [u64],
}

/// Sets `ids[t]` for the tokens from `t0` on, adding new tokens, until the end or until a
/// new token does not fit. Returns `(t, n_vocab, n_cp)`: where it stopped and the new sizes.
pub fn intern(
    spans: &Spans,
    t0: usize,
    ids: &mut [i32],
    v: VocabArrays,
    mut n_vocab: usize,
    mut n_cp: usize,
) -> Checked<(usize, usize, usize)> {
    let Spans {
        cp,
        start,
        length,
        hashes,
    } = *spans;
    check_spans(cp, start, length)?;
    ensure(
        hashes.len() == start.len()
            && ids.len() == start.len()
            && v.table.len().is_power_of_two()
            && v.v_start.len() >= v.v_hash.len()
            && v.v_len.len() >= v.v_hash.len()
            && n_vocab <= v.v_hash.len()
            && n_cp <= v.v_cp.len(),
        || "vocab_intern: inconsistent array sizes".into(),
    )?;
    let mask = (v.table.len() - 1) as u64;
    let cap = v.v_hash.len().min(v.table.len() / 2);
    for t in t0..start.len() {
        let h = hashes[t];
        let s = start[t] as usize;
        let n = length[t] as usize;
        let token = &cp[s..s + n];
        let mut slot = h & mask;
        let mut found = -1i32;
        loop {
            let id = v.table[slot as usize];
            if id < 0 {
                break;
            }
            let iu = id as usize;
            if v.v_hash[iu] == h && v.v_len[iu] as usize == n {
                let vs = v.v_start[iu] as usize;
                if v.v_cp[vs..vs + n] == *token {
                    found = id;
                    break;
                }
            }
            slot = (slot + 1) & mask;
        }
        if found < 0 {
            if n_vocab + 1 > cap || n_cp + n > v.v_cp.len() {
                return Ok((t, n_vocab, n_cp));
            }
            found = n_vocab as i32;
            v.v_hash[n_vocab] = h;
            v.v_start[n_vocab] = n_cp as i64;
            v.v_len[n_vocab] = n as i64;
            v.v_cp[n_cp..n_cp + n].copy_from_slice(token);
            n_cp += n;
            n_vocab += 1;
            v.table[slot as usize] = found;
        }
        ids[t] = found;
    }
    Ok((start.len(), n_vocab, n_cp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_with_a_final_mix() {
        // FNV-1a of the empty string is the offset basis; of "a" the published value
        assert_eq!(
            hash_spans(&[], &[0], &[0]).unwrap(),
            vec![hash_end(FNV_OFFSET)]
        );
        assert_eq!(
            hash_spans(&[97], &[0], &[1]).unwrap(),
            vec![hash_end(0xAF63_DC4C_8601_EC8C)]
        );
        let h = hash_spans(&[97, 98, 97], &[0, 2, 1], &[1, 1, 1]).unwrap();
        assert!(h[0] == h[1] && h[0] != h[2]);
        assert!(hash_spans(&[97], &[0], &[2]).is_err());
    }

    #[test]
    fn rehash_probes_linearly() {
        assert_eq!(rehash(4, &[5, 1], 2).unwrap(), vec![-1, 0, 1, -1]);
        assert!(rehash(6, &[5, 1], 2).is_err());
        assert!(rehash(2, &[5, 1], 2).is_err());
    }

    struct Owned {
        v_hash: Vec<u64>,
        v_start: Vec<i64>,
        v_len: Vec<i64>,
        v_cp: Vec<u32>,
    }

    impl Owned {
        fn arrays<'a>(&'a mut self, table: &'a mut [i32]) -> VocabArrays<'a> {
            VocabArrays {
                table,
                v_hash: &mut self.v_hash,
                v_start: &mut self.v_start,
                v_len: &mut self.v_len,
                v_cp: &mut self.v_cp,
            }
        }
    }

    #[test]
    fn intern_numbers_new_tokens_and_stops_when_full() {
        // tokens "a", "bc", "a", "d" of the code points "abcad"
        let cp = [97, 98, 99, 97, 100];
        let (start, length) = ([0i64, 1, 3, 4], [1i64, 2, 1, 1]);
        let hashes = hash_spans(&cp, &start, &length).unwrap();
        let spans = Spans {
            cp: &cp,
            start: &start,
            length: &length,
            hashes: &hashes,
        };
        let mut ids = [0i32; 4];
        let mut v = Owned {
            v_hash: vec![0; 4],
            v_start: vec![0; 4],
            v_len: vec![0; 4],
            v_cp: vec![0; 8],
        };
        // a table of 4 slots holds 2 tokens: "d" does not fit, interning stops there
        let mut table = vec![-1i32; 4];
        let (t, n_vocab, n_cp) = intern(&spans, 0, &mut ids, v.arrays(&mut table), 0, 0).unwrap();
        assert_eq!((t, n_vocab, n_cp), (3, 2, 3));
        assert_eq!(&ids[..3], &[0, 1, 0]);
        assert_eq!(&v.v_cp[..3], &[97, 98, 99]);
        assert_eq!(
            (&v.v_start[..2], &v.v_len[..2]),
            (&[0i64, 1][..], &[1i64, 2][..])
        );
        // after growing the table, it goes on from token 3
        let mut table = rehash(8, &v.v_hash, 2).unwrap();
        let (t, n_vocab, n_cp) = intern(&spans, 3, &mut ids, v.arrays(&mut table), 2, 3).unwrap();
        assert_eq!((t, n_vocab, n_cp), (4, 3, 4));
        assert_eq!(ids, [0, 1, 0, 2]);
    }

    #[test]
    fn to_vocab_ids_maps_in_place_and_refuses_bad_numbers() {
        let mut ids = vec![1, 0, 1, 2];
        to_vocab_ids(&mut ids, &[7, 5, 9]).unwrap();
        assert_eq!(ids, vec![5, 7, 5, 9]);
        assert!(to_vocab_ids(&mut [3], &[7, 5, 9]).is_err());
        assert!(to_vocab_ids(&mut [-1], &[7]).is_err());
    }
}
