//! numpy's legacy ``RandomState`` stream (MT19937), for permutation tests that must draw what
//! mt-metrics-eval draws: ``random_sample`` gives one double per draw from two 32-bit words
//! ``a``, ``b`` as ``((a >> 5) * 2^26 + (b >> 6)) / 2^53``, and a swap is ``double > 0.5``.
//! The pairs test draws an ``n x n`` matrix per group and uses only its upper triangle; here
//! the words of the unused draws are generated (the state must advance) but neither tempered
//! nor converted, and a used draw is decided from its words' bits:
//! ``double > 0.5`` iff ``a >> 5 > 2^26``, or ``a >> 5 == 2^26`` and ``b >> 6 > 0``.
//!
//! The state is numpy's: the 624-word key and the position in it (``RandomState.get_state``).

use crate::error::{ensure, Checked};

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// MT19937's state, as numpy keeps it.
pub struct Mt<'a> {
    pub key: &'a mut [u32],
    pub pos: usize,
}

#[inline]
fn mix(x: u32, y: u32, z: u32) -> u32 {
    let v = (y & UPPER) | (z & LOWER);
    x ^ (v >> 1) ^ (0u32.wrapping_sub(v & 1) & MATRIX_A)
}

#[inline]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

/// numpy's ``mt19937_gen``: the next 624 words.
fn twist(k: &mut [u32; N]) {
    for i in 0..N - M {
        k[i] = mix(k[i + M], k[i], k[i + 1]);
    }
    for i in N - M..N - 1 {
        k[i] = mix(k[i + M - N], k[i], k[i + 1]);
    }
    k[N - 1] = mix(k[M - 1], k[N - 1], k[0]);
}

/// ``(n_perm, upper.len())`` swap indicators (0 or 1): for each permutation, ``n_draws``
/// doubles are drawn (``2 n_draws`` words) and the draws at the sorted positions ``upper``
/// tested for ``> 0.5``, as ``random_sample((n_perm, n_draws))[:, upper] > 0.5``.
pub fn pair_swaps(
    mt: &mut Mt<'_>,
    n_perm: usize,
    n_draws: usize,
    upper: &[i64],
) -> Checked<Vec<u8>> {
    let len = mt.key.len();
    let key: &mut [u32; N] = match (&mut *mt.key).try_into() {
        Ok(k) => k,
        Err(_) => {
            return Err(crate::error::InputError::new(format!(
                "key: expected {N} words, got {len}"
            )))
        }
    };
    ensure(mt.pos <= N, || format!("pos {} is beyond the key", mt.pos))?;
    ensure(upper.windows(2).all(|w| w[0] < w[1]), || {
        "upper: not strictly increasing".into()
    })?;
    ensure(
        upper.iter().all(|&u| u >= 0 && (u as usize) < n_draws),
        || "upper: a position outside the draws".into(),
    )?;
    // ``pos``: the next word's index in ``key``; at N or beyond, the key is twisted first
    // (numpy twists when a word is read at position N, so a final N is left as is)
    let mut pos = mt.pos;
    let mut out = Vec::with_capacity(n_perm * upper.len());
    for _ in 0..n_perm {
        let mut next = 0usize; // the first draw not consumed yet
        for &u in upper {
            let u = u as usize;
            pos += 2 * (u - next);
            while pos >= N {
                twist(key);
                pos -= N;
            }
            let a = temper(key[pos]) >> 5;
            pos += 1;
            if pos >= N {
                twist(key);
                pos -= N;
            }
            let swap = if a == 1 << 26 {
                temper(key[pos]) >> 6 > 0
            } else {
                a > 1 << 26
            };
            pos += 1;
            out.push(u8::from(swap));
            next = u + 1;
        }
        pos += 2 * (n_draws - next);
        while pos > N {
            twist(key);
            pos -= N;
        }
    }
    mt.pos = pos;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// numpy's ``init_genrand`` (``RandomState(seed)``).
    fn seeded(seed: u32) -> Vec<u32> {
        let mut key = vec![0u32; N];
        key[0] = seed;
        for i in 1..N {
            key[i] = 1_812_433_253u32
                .wrapping_mul(key[i - 1] ^ (key[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        key
    }

    /// The next tempered word, numpy's ``mt19937_next``.
    fn next(mt: &mut Mt<'_>) -> u32 {
        let key: &mut [u32; N] = (&mut *mt.key).try_into().unwrap();
        if mt.pos == N {
            twist(key);
            mt.pos = 0;
        }
        mt.pos += 1;
        temper(key[mt.pos - 1])
    }

    #[test]
    fn first_words_of_seed_5489() {
        // the reference MT19937 output for seed 5489: 3499211612, 581869302
        let mut key = seeded(5489);
        let mut mt = Mt {
            key: &mut key,
            pos: N,
        };
        assert_eq!(next(&mut mt), 3_499_211_612);
        assert_eq!(next(&mut mt), 581_869_302);
    }

    #[test]
    fn used_draws_match_full_doubles() {
        let mut k1 = seeded(7);
        let mut k2 = k1.clone();
        let upper = [1i64, 2, 5, 699];
        let mut mt = Mt {
            key: &mut k1,
            pos: N,
        };
        let got = pair_swaps(&mut mt, 3, 700, &upper).unwrap();
        let mut full = Mt {
            key: &mut k2,
            pos: N,
        };
        let mut want = vec![];
        for _ in 0..3 {
            let d: Vec<f64> = (0..700)
                .map(|_| {
                    let a = (next(&mut full) >> 5) as f64;
                    let b = (next(&mut full) >> 6) as f64;
                    (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
                })
                .collect();
            want.extend(upper.iter().map(|&u| u8::from(d[u as usize] > 0.5)));
        }
        assert_eq!(got, want);
        assert_eq!(mt.pos, full.pos);
        assert!(pair_swaps(&mut mt, 1, 3, &[2, 1]).is_err());
    }
}
