//! rouge-score's `BootstrapAggregator._bootstrap_resample` means, with NumPy's draws.
//!
//! rouge-score draws `np.random.choice(np.arange(n), size=n)` once per resample from NumPy's
//! global legacy `RandomState`. That is `randint(0, n, size=n)`, which fills int64 values with
//! `random_bounded_uint64_fill` (masked rejection sampling: one MT19937 32-bit output per try,
//! `output & mask`, kept when `<= n - 1`; nothing is drawn when `n == 1`). [`Mt19937`] is
//! NumPy's generator (`mt19937.c`), started from the state NumPy's `get_state()` gives and
//! handing back the state to `set_state()`, so the caller's global stream moves on exactly as
//! rouge-score's calls would move it.
//!
//! Each resample's mean is `np.mean(matrix[idx], axis=0)`: for a C-ordered `(n, k)` matrix NumPy
//! adds each column in row order (no pairwise summation across rows), then divides by `n`.

use crate::error::{zeroed, CoreError};

const N: usize = 624;
const M: usize = 397;

/// NumPy's MT19937 state: 624 words and a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mt19937 {
    /// The key (`get_state()[1]`).
    pub key: Vec<u32>,
    /// The position (`get_state()[2]`).
    pub pos: usize,
}

impl Mt19937 {
    /// The generator at NumPy's state `(key, pos)`.
    pub fn new(key: &[u32], pos: i64) -> Result<Self, CoreError> {
        if key.len() != N || !(0..=N as i64).contains(&pos) {
            return Err(CoreError::InvalidInput(format!(
                "an MT19937 state has {N} key words and a position in 0..={N}; got {} words \
                 and position {pos}",
                key.len()
            )));
        }
        Ok(Mt19937 {
            key: key.to_vec(),
            pos: pos as usize,
        })
    }

    /// `mt19937_gen`: the next 624 words.
    fn generate(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let k = &mut self.key;
        for i in 0..N {
            let y = (k[i] & UPPER) | (k[(i + 1) % N] & LOWER);
            k[i] = k[(i + M) % N] ^ (y >> 1) ^ ((y & 1).wrapping_neg() & MATRIX_A);
        }
        self.pos = 0;
    }

    /// `mt19937_next32`.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.generate();
        }
        let mut y = self.key[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// One value of `randint(0, n)` (`n >= 2`, at most 2^32) with NumPy's masked rejection;
    /// `rng = n - 1`, `mask` its smallest covering all-ones mask.
    #[inline]
    fn bounded(&mut self, rng: u32, mask: u32) -> u32 {
        loop {
            let v = self.next_u32() & mask;
            if v <= rng {
                return v;
            }
        }
    }
}

/// `n_samples` resample means of `matrix` (`n x cols`, row-major), drawn from `gen`, as a
/// `n_samples x cols` row-major buffer (rouge-score's `sample_mean`).
pub fn resample_means(
    gen: &mut Mt19937,
    matrix: &[f64],
    cols: usize,
    n_samples: usize,
) -> Result<Vec<f64>, CoreError> {
    let n = matrix.len().checked_div(cols).unwrap_or(0);
    if n == 0 || matrix.len() != n * cols {
        return Err(CoreError::InvalidInput(
            "bootstrap resampling needs at least one score row".into(),
        ));
    }
    if n > u32::MAX as usize {
        return Err(CoreError::TooLarge(format!(
            "{n} score rows: NumPy's 32-bit draws allow at most {}",
            u32::MAX
        )));
    }
    let mut out = zeroed(n_samples, cols)?;
    let rng = (n - 1) as u32;
    let mask = u32::MAX >> rng.leading_zeros().min(31);
    let mut acc = vec![0.0f64; cols];
    for sample in out.chunks_mut(cols) {
        acc.iter_mut().for_each(|a| *a = 0.0);
        for _ in 0..n {
            let i = if rng == 0 {
                0
            } else {
                gen.bounded(rng, mask) as usize
            };
            for (a, &x) in acc.iter_mut().zip(&matrix[i * cols..(i + 1) * cols]) {
                *a += x;
            }
        }
        for (o, a) in sample.iter_mut().zip(&acc) {
            *o = a / n as f64;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `init_genrand(seed)` (NumPy's `mt19937_seed`).
    fn seeded(seed: u32) -> Mt19937 {
        let mut key = vec![0u32; N];
        key[0] = seed;
        for i in 1..N {
            key[i] = 1_812_433_253u32
                .wrapping_mul(key[i - 1] ^ (key[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { key, pos: N }
    }

    #[test]
    fn reference_outputs() {
        // The first outputs of MT19937 seeded with 5489 (the reference implementation's).
        let mut g = seeded(5489);
        assert_eq!(g.next_u32(), 3_499_211_612);
        assert_eq!(g.next_u32(), 581_869_302);
    }

    #[test]
    fn one_row_draws_nothing() {
        let mut g = seeded(1);
        let before = g.clone();
        let means = resample_means(&mut g, &[0.5, 1.0], 2, 3).unwrap();
        assert_eq!(means, [0.5, 1.0, 0.5, 1.0, 0.5, 1.0]);
        assert_eq!(g, before);
    }
}
