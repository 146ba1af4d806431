//! Tokens as integer keys, and their numbering in order of first occurrence.
//!
//! A token of up to 8 bytes is its own u64 key (its bytes, little-endian, zero-padded; an
//! 8-byte one whose last byte is above 0x7f, which would set the flag bit, is taken as a
//! longer one), one of 9 to 16 bytes its own u128 (kept beside the keys), a longer one its
//! bytes. A token with a zero byte is kept by its bytes whatever its length, so zero padding
//! never makes two tokens one key. Tokenizers fill [`Keys`] per block of texts, in
//! parallel; an [`Interner`] then numbers the keys of all blocks in one pass, so that
//! numbers are equal exactly when the tokens are, and follow the order of first occurrence.

use rustc_hash::FxHashMap;

use crate::scratch;

/// The flag of a key that is not the token itself: the token has more than 8 bytes, or 8
/// with the last above 0x7f, or a zero byte. With [`MID`] it has 8 to 16 bytes and no zero
/// and is `mid[key & !(LONG | MID)]` of its [`Keys`]; without, it is their
/// `key & !LONG`-th long token.
pub const LONG: u64 = 1 << 63;
/// See [`LONG`].
pub const MID: u64 = 1 << 62;

/// The tokens of a block of texts, as keys (see [`LONG`]); the bytes of long token `k` are
/// `long[long_off[k]..long_off[k + 1]]`.
#[derive(Debug)]
pub struct Keys {
    pub keys: Vec<u64>,
    pub mid: Vec<u128>,
    pub long: Vec<u8>,
    pub long_off: Vec<u32>,
}

impl Default for Keys {
    fn default() -> Self {
        Keys {
            keys: Vec::new(),
            mid: Vec::new(),
            long: Vec::new(),
            long_off: vec![0],
        }
    }
}

/// Where [`Keys`] stood (see [`Keys::mark`]).
#[derive(Clone, Copy)]
pub struct Mark([usize; 4]);

/// The `N` bytes of `src` from `start` on, zeros past its end (one load when they are there).
#[inline(always)]
pub fn bytes_at<const N: usize>(src: &[u8], start: usize) -> [u8; N] {
    if start + N <= src.len() {
        src[start..start + N].try_into().expect("N bytes")
    } else {
        let mut b = [0u8; N];
        b[..src.len() - start].copy_from_slice(&src[start..]);
        b
    }
}

impl Keys {
    /// Where the keys stand now, to go back to with [`Keys::truncate`].
    pub fn mark(&self) -> Mark {
        Mark([
            self.keys.len(),
            self.mid.len(),
            self.long.len(),
            self.long_off.len(),
        ])
    }

    /// Drop every token pushed after `mark`.
    pub fn truncate(&mut self, mark: Mark) {
        let [keys, mid, long, long_off] = mark.0;
        self.keys.truncate(keys);
        self.mid.truncate(mid);
        self.long.truncate(long);
        self.long_off.truncate(long_off);
    }

    /// The bytes of long token `k`.
    pub fn long_token(&self, k: usize) -> &[u8] {
        &self.long[self.long_off[k] as usize..self.long_off[k + 1] as usize]
    }

    /// The bytes of the token of `key`.
    pub fn token(&self, key: u64) -> Vec<u8> {
        self.token_in(key, &mut [0; 16]).to_vec()
    }

    /// The bytes of the token of `key`, in `buf` when they fit (no allocation).
    #[inline]
    pub fn token_in<'s>(&'s self, key: u64, buf: &'s mut [u8; 16]) -> &'s [u8] {
        if key & LONG == 0 {
            buf[..8].copy_from_slice(&key.to_le_bytes());
            &buf[..8 - (key.leading_zeros() / 8) as usize]
        } else if key & MID != 0 {
            let m = self.mid[(key & !(LONG | MID)) as usize];
            *buf = m.to_le_bytes();
            &buf[..16 - (m.leading_zeros() / 8) as usize]
        } else {
            self.long_token((key & !LONG) as usize)
        }
    }

    /// The token `src[start..end]`, each byte OR-ed with `or` (0x20 lower-cases ASCII
    /// letters and keeps digits); neither the bytes nor the OR-ed ones may be 0 (for any
    /// bytes, [`Keys::push_bytes`]). Tokens of up to 8 bytes take one load.
    #[inline(always)]
    pub fn push_run(&mut self, src: &[u8], start: usize, end: usize, or: u8) {
        let len = end - start;
        // the flag bit is the top bit of an 8th byte: an 8-byte token whose last byte has
        // it (UTF-8) is kept as a mid one. No branches on the length in this test and the
        // mask: lengths are as unpredictable as the tokens.
        if (len < 8) | ((len == 8) & ((src[end - 1] | or) < 0x80)) {
            let word = u64::from_le_bytes(bytes_at(src, start));
            let mask = !0u64 >> (64 - 8 * len); // len >= 1
            self.keys.push((word | u64::from_le_bytes([or; 8])) & mask);
        } else if len <= 16 {
            let word = u128::from_le_bytes(bytes_at(src, start));
            let mask = if len == 16 {
                !0u128
            } else {
                (1u128 << (8 * len)) - 1
            };
            self.keys.push(LONG | MID | self.mid.len() as u64);
            self.mid.push((word | u128::from_le_bytes([or; 16])) & mask);
        } else {
            self.push_long(&src[start..end], or);
        }
    }

    /// The token `token`, any bytes (with a zero byte, it is kept by its bytes).
    pub fn push_bytes(&mut self, token: &[u8]) {
        if token.len() <= 16 && !token.contains(&0) {
            self.push_run(token, 0, token.len(), 0);
        } else {
            self.push_long(token, 0);
        }
    }

    /// The token `token` by its bytes, each OR-ed with `or`.
    fn push_long(&mut self, token: &[u8], or: u8) {
        self.keys.push(LONG | (self.long_off.len() - 1) as u64);
        let at = self.long.len();
        self.long.extend_from_slice(token);
        for b in &mut self.long[at..] {
            *b |= or;
        }
        self.long_off.push(self.long.len() as u32);
    }
}

/// A key of a [`KeyTable`]: 0 is never a key (tokens are not empty).
trait TableKey: Copy + Eq + Default {
    fn hash(self) -> u64;
}

impl TableKey for u64 {
    #[inline(always)]
    fn hash(self) -> u64 {
        self
    }
}

impl TableKey for u128 {
    #[inline(always)]
    fn hash(self) -> u64 {
        (self as u64) ^ ((self >> 64) as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD)
    }
}

/// Short (or mid) keys to numbers: open addressing with linear probes, a multiplicative
/// hash (the top bits of `hash * K`), 0 for a free slot. Written here rather than taken
/// from hashbrown: for one integer key the probe is a few instructions, where the general
/// map hashes and matches control bytes first, and this lookup runs once per token of every
/// text.
struct KeyTable<K> {
    /// the key in each slot (0: free) beside its number: one cache line for both
    slots: Vec<(K, u32)>,
    shift: u32,
    len: usize,
}

impl<K: TableKey> KeyTable<K> {
    fn with_capacity(n: usize) -> Self {
        let size = (2 * n).next_power_of_two().max(256);
        KeyTable {
            // zeroed allocations (calloc): no loop writing empty slots
            slots: vec![(K::default(), 0); size],
            shift: 64 - size.trailing_zeros(),
            len: 0,
        }
    }

    /// The number of `key`, or `next` (then stored) when it has none.
    #[inline(always)]
    fn get_or_insert(&mut self, key: K, next: u32) -> u32 {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut s = (key.hash().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let (k, id) = self.slots[s];
            if k == key {
                return id;
            }
            if k == K::default() {
                self.slots[s] = (key, next);
                self.len += 1;
                return next;
            }
            s = (s + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        *self = KeyTable::with_capacity(slots.len());
        for (key, id) in slots {
            if key != K::default() {
                self.get_or_insert(key, id);
            }
        }
    }
}

impl KeyTable<u64> {
    /// [`KeyTable::with_capacity`] in a kept buffer (`scratch`), cleared: no fresh pages.
    fn pooled(n: usize) -> Self {
        let size = (2 * n).next_power_of_two().max(256);
        let mut slots = scratch::take(size);
        slots.resize(size, (0, 0));
        KeyTable {
            slots,
            shift: 64 - size.trailing_zeros(),
            len: 0,
        }
    }
}

/// Numbers the keys of several [`Keys`] in one pass, in order of first occurrence: short keys
/// in a table of u64 and mid ones of u128 ([`KeyTable`]), long tokens by their bytes.
pub struct Interner<'a> {
    short: KeyTable<u64>,
    mid: KeyTable<u128>,
    long: FxHashMap<&'a [u8], u32>,
    /// the first key of each number, and the index of its [`Keys`]
    pub firsts: Vec<(u64, u32)>,
}

/// The short keys' table goes back to this thread's kept buffers (`scratch`).
impl Drop for Interner<'_> {
    fn drop(&mut self) {
        scratch::give(std::mem::take(&mut self.short.slots));
    }
}

impl<'a> Interner<'a> {
    /// An interner with room for about `n` distinct short tokens.
    pub fn with_capacity(n: usize) -> Self {
        Interner {
            short: KeyTable::pooled(n),
            mid: KeyTable::with_capacity(n / 4),
            long: FxHashMap::default(),
            firsts: Vec::new(),
        }
    }

    /// The number of `key`, a key of `block`, the `bi`-th [`Keys`] (numbered when new).
    #[inline(always)]
    pub fn id(&mut self, block: &'a Keys, bi: u32, key: u64) -> u32 {
        let next = self.firsts.len() as u32;
        let id = if key & LONG == 0 {
            self.short.get_or_insert(key, next)
        } else {
            self.longer_id(block, key, next)
        };
        if id == next {
            self.firsts.push((key, bi));
        }
        id
    }

    /// [`Interner::id`] of a mid or long key (out of line: the short keys are most tokens).
    #[inline(never)]
    fn longer_id(&mut self, block: &'a Keys, key: u64, next: u32) -> u32 {
        if key & MID != 0 {
            let mid = block.mid[(key & !(LONG | MID)) as usize];
            self.mid.get_or_insert(mid, next)
        } else {
            *self
                .long
                .entry(block.long_token((key & !LONG) as usize))
                .or_insert(next)
        }
    }

    /// How many distinct tokens so far.
    pub fn len(&self) -> usize {
        self.firsts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.firsts.is_empty()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// 64 bytes that look random, for the tests of the byte-mask kernels.
    pub(crate) fn scrambled_bytes(seed: u32) -> [u8; 64] {
        std::array::from_fn(|j| ((j as u32 * 37 + seed * 101) ^ (seed << 3)) as u8)
    }

    #[test]
    fn keys_round_trip_and_number_equal_tokens_alike() {
        let tokens: [&[u8]; 10] = [
            b"a",
            b"abcdefgh",
            b"abcdefghi",
            b"abcdefghijklmnop",
            b"abcdefghijklmnopq",
            b"a\0",
            b"a",
            b"\0",
            "naïve".as_bytes(),
            "abcdefé".as_bytes(),
        ];
        let (mut one, mut two) = (Keys::default(), Keys::default());
        for t in &tokens {
            one.push_bytes(t);
        }
        let mark = two.mark();
        two.push_bytes(b"dropped");
        two.truncate(mark);
        for t in tokens.iter().rev() {
            two.push_bytes(t);
        }
        for (k, t) in tokens.iter().enumerate() {
            assert_eq!(one.token(one.keys[k]), *t);
        }
        let mut interner = Interner::with_capacity(4);
        let a: Vec<u32> = one.keys.iter().map(|&k| interner.id(&one, 0, k)).collect();
        let b: Vec<u32> = two.keys.iter().map(|&k| interner.id(&two, 1, k)).collect();
        // "a" twice, and "a\0" and "\0" distinct from "a" and from the empty padding
        assert_eq!(a, [0, 1, 2, 3, 4, 5, 0, 6, 7, 8]);
        assert_eq!(b, [8, 7, 6, 0, 5, 4, 3, 2, 1, 0]);
        assert_eq!(interner.len(), 9);
        // many short tokens: the table grows and keeps every number
        let mut many = Keys::default();
        for i in 0..5000u32 {
            many.push_bytes(format!("t{i}").as_bytes());
        }
        let mut interner = Interner::with_capacity(1);
        for round in 0..2 {
            for (i, &k) in many.keys.iter().enumerate() {
                assert_eq!(interner.id(&many, 0, k), i as u32, "{round}");
            }
        }
        // OR-ed bytes: lower-cased ASCII letters
        let mut low = Keys::default();
        low.push_run(b"ABCdefGHIJ", 0, 10, 0x20);
        assert_eq!(low.token(low.keys[0]), b"abcdefghij");
    }
}
