//! The exact vocabulary's hash table (`mtpalette/text/vocab.py`): tokens are UTF-32 code
//! points; a 64-bit hash only chooses the slot of an open-addressing table, and two tokens
//! share an id only when their code points are equal.

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

/// The hash of every token `cp[start[t]..start[t] + length[t]]`.
pub fn hash_spans(cp: &[u32], start: &[i64], length: &[i64]) -> Vec<u64> {
    start
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
        .collect()
}

/// A table of `size` slots (a power of two) holding the ids `0..n_vocab`.
pub fn rehash(size: usize, v_hash: &[u64], n_vocab: usize) -> Vec<i32> {
    let mut table = vec![-1i32; size];
    let mask = (size - 1) as u64;
    for (v, &h) in v_hash.iter().enumerate().take(n_vocab) {
        let mut s = h & mask;
        while table[s as usize] >= 0 {
            s = (s + 1) & mask;
        }
        table[s as usize] = v as i32;
    }
    table
}

/// The vocabulary's arrays, borrowed from Python.
pub struct VocabArrays<'a> {
    pub table: &'a mut [i32],
    pub v_hash: &'a mut [u64],
    pub v_start: &'a mut [i64],
    pub v_len: &'a mut [i64],
    pub v_cp: &'a mut [u32],
}

/// Sets `ids[t]` for the tokens from `t0` on, adding new tokens, until the end or until a
/// new token does not fit. Returns `(t, n_vocab, n_cp)`: where it stopped and the new sizes.
#[allow(clippy::too_many_arguments)]
pub fn intern(
    cp: &[u32],
    start: &[i64],
    length: &[i64],
    hashes: &[u64],
    t0: usize,
    ids: &mut [i32],
    v: VocabArrays,
    mut n_vocab: usize,
    mut n_cp: usize,
) -> (usize, usize, usize) {
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
                return (t, n_vocab, n_cp);
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
    (start.len(), n_vocab, n_cp)
}
