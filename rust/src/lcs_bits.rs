//! The length of the longest common subsequence of two token sequences, bit-parallel: the
//! algorithm of Allison and Dix (1986) in Hyyro's (2004) form, one bit per token of the shorter
//! side, over as many 64-bit words as it needs (the carry of the addition passed on from word
//! to word). One engine for ROUGE-L from ids (`subsequence.rs`) and from text
//! (`rouge_text.rs`).

/// A token id, the index of its masks.
pub trait Token: Copy {
    fn at(self) -> usize;
}

impl Token for u32 {
    fn at(self) -> usize {
        self as usize
    }
}

impl Token for i32 {
    fn at(self) -> usize {
        self as usize
    }
}

/// Scratch of [`LcsBits::lcs`], for token ids below `vocab`; every table comes back to its
/// resting state after each call.
pub struct LcsBits {
    /// match masks of a shorter side of at most 64 tokens, by token id (all zero at rest)
    pm: Vec<u64>,
    /// the bit vector of a longer one
    row: Vec<u64>,
    /// local index of each token of the shorter side, by token id (all u32::MAX at rest)
    local: Vec<u32>,
    /// the long case's match masks, by local index
    masks: Vec<u64>,
}

impl LcsBits {
    pub fn new(vocab: usize) -> Self {
        LcsBits {
            pm: vec![0; vocab],
            row: Vec::new(),
            local: vec![u32::MAX; vocab],
            masks: Vec::new(),
        }
    }

    /// Whether the tables are at rest (for tests).
    pub fn at_rest(&self) -> bool {
        self.pm.iter().all(|&x| x == 0) && self.local.iter().all(|&l| l == u32::MAX)
    }

    /// LCS length of `a` and `b` (token ids below the `vocab` given to [`LcsBits::new`]).
    pub fn lcs<T: Token>(&mut self, a: &[T], b: &[T]) -> usize {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        let m = short.len();
        if m == 0 {
            return 0;
        }
        if m <= 64 {
            for (j, &w) in short.iter().enumerate() {
                self.pm[w.at()] |= 1u64 << j;
            }
            let mut x = !0u64;
            for &w in long {
                let u = x & self.pm[w.at()];
                x = x.wrapping_add(u) | (x - u);
            }
            for &w in short {
                self.pm[w.at()] = 0;
            }
            let mask = if m == 64 { !0u64 } else { (1u64 << m) - 1 };
            return (!x & mask).count_ones() as usize;
        }
        // the same over ceil(m / 64) words; the masks are kept per distinct token of the
        // shorter side (a token of the longer side that is not there leaves the state)
        let nw = m.div_ceil(64);
        self.masks.clear();
        let mut k = 0u32;
        for (j, &w) in short.iter().enumerate() {
            let l = &mut self.local[w.at()];
            if *l == u32::MAX {
                *l = k;
                k += 1;
                self.masks.resize(self.masks.len() + nw, 0);
            }
            self.masks[*l as usize * nw + j / 64] |= 1u64 << (j % 64);
        }
        let v = &mut self.row;
        v.clear();
        v.resize(nw, !0u64);
        for &w in long {
            let l = self.local[w.at()];
            if l == u32::MAX {
                continue;
            }
            let pm = &self.masks[l as usize * nw..(l as usize + 1) * nw];
            let mut carry = 0u64;
            for (x, &p) in v.iter_mut().zip(pm) {
                let u = *x & p;
                let (s1, c1) = x.overflowing_add(u);
                let (s2, c2) = s1.overflowing_add(carry);
                carry = u64::from(c1 | c2);
                *x = s2 | (*x & !u);
            }
        }
        for &w in short {
            self.local[w.at()] = u32::MAX;
        }
        let full = m / 64;
        let mut zeros: usize = v[..full].iter().map(|x| x.count_zeros() as usize).sum();
        if m % 64 != 0 {
            zeros += (!v[full] & ((1u64 << (m % 64)) - 1)).count_ones() as usize;
        }
        zeros
    }
}
