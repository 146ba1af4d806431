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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_to_the_key_or_the_first_empty_slot() {
        let mut keys = vec![-1i64; 8];
        let s = slot(&keys, 42);
        keys[s] = 42;
        assert_eq!(slot(&keys, 42), s);
        // a second key landing on a taken slot goes on to a free one
        let t = slot(&keys, 7);
        assert!(keys[t] == -1);
        keys[t] = 7;
        assert_ne!(s, t);
        assert_eq!(slot(&keys, 7), t);
    }
}
