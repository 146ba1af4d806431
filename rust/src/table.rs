//! The open-addressing hash-table probe the n-gram kernels share.

/// The slot of `key` in the table `keys` (a power-of-two length; -1 marks an empty slot):
/// where the key is, or the empty slot where it would go.
#[inline(always)]
pub fn slot(keys: &[i64], key: i64) -> usize {
    let mask = keys.len() - 1;
    let mut s = (key.wrapping_mul(0x9E37_79B1) as usize) & mask;
    while keys[s] != -1 && keys[s] != key {
        s = (s + 1) & mask;
    }
    s
}
