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

use crate::engine::parallel::{for_each_row, install, Threads};
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

    /// `mt19937_gen`: the next 624 words (its three loops, without a modulo per word).
    fn generate(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let k = &mut self.key[..N];
        let mix = |a: u32, b: u32, c: u32| {
            let y = (a & UPPER) | (b & LOWER);
            c ^ (y >> 1) ^ ((y & 1).wrapping_neg() & MATRIX_A)
        };
        for i in 0..N - M {
            k[i] = mix(k[i], k[i + 1], k[i + M]);
        }
        for i in N - M..N - 1 {
            k[i] = mix(k[i], k[i + 1], k[i + M - N]);
        }
        k[N - 1] = mix(k[N - 1], k[0], k[M - 1]);
        self.pos = 0;
    }

    /// `mt19937_next32`.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.pos == N {
            self.generate();
        }
        let y = self.key[self.pos];
        self.pos += 1;
        temper(y)
    }

    /// Fills `out` with values of `randint(0, n)` (`n >= 2`, at most 2^32) drawn as NumPy's
    /// masked rejection draws them: `rng = n - 1`, `mask` its smallest covering all-ones mask,
    /// one 32-bit output per try, kept when `output & mask <= rng`.
    ///
    /// Performance decision: about 40% of tries are rejected at random, so the loop writes
    /// every try and advances only on a kept one (no branch to mispredict).
    pub fn fill_bounded(&mut self, rng: u32, mask: u32, out: &mut [u32]) {
        let want = out.len();
        let mut k = 0;
        while k < want {
            if self.pos == N {
                self.generate();
            }
            // Tempered in a pass of its own, which the compiler vectorises.
            let mut block = [0u32; N];
            let start = self.pos;
            for (b, &y) in block[start..].iter_mut().zip(&self.key[start..N]) {
                *b = temper(y) & mask;
            }
            let mut p = start;
            while p < N && k < want {
                let v = block[p];
                out[k] = v;
                k += usize::from(v <= rng);
                p += 1;
            }
            self.pos = p;
        }
    }
}

/// MT19937's tempering of one word.
#[inline]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

/// Resamples whose indices are drawn before they are summed, in parallel (a batch of
/// `BATCH` samples' indices is at most `BATCH x n` values).
const BATCH: usize = 64;

/// `n_samples` resample means of `matrix` (`n x cols`, row-major), drawn from `gen`, as a
/// `n_samples x cols` row-major buffer (rouge-score's `sample_mean`).
///
/// Performance decision: the draws are sequential (one generator), but each resample's sums
/// are independent, so a batch of resamples' indices is drawn on this thread and their sums
/// are made in parallel, each in index order as NumPy adds them.
pub fn resample_means(
    gen: &mut Mt19937,
    matrix: &[f64],
    cols: usize,
    n_samples: usize,
    threads: Threads,
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
    let batch = BATCH.min(n_samples.max(1));
    let mut cur = zeroed::<u32>(batch, n)?;
    let mut next = zeroed::<u32>(batch, n)?;
    // n == 1: NumPy draws nothing, every index is 0.
    let draw = |gen: &mut Mt19937, idx: &mut [u32]| {
        if rng > 0 {
            gen.fill_bounded(rng, mask, idx);
        }
    };
    let chunks: Vec<&mut [f64]> = out.chunks_mut(batch * cols).collect();
    let count = chunks.len();
    let samples = |c: &[f64]| c.len() / cols;
    if let Some(first) = chunks.first() {
        draw(gen, &mut cur[..samples(first) * n]);
    }
    let sizes: Vec<usize> = chunks.iter().map(|c| samples(c)).collect();
    install(threads, || {
        for (k, chunk) in chunks.into_iter().enumerate() {
            let idx = &cur[..sizes[k] * n];
            let sum = move || {
                let chunk = chunk; // moved in: the closure runs once
                for_each_row(
                    chunk,
                    cols,
                    threads,
                    || (),
                    |_, s, mean| sample_mean(matrix, cols, &idx[s * n..(s + 1) * n], mean),
                )
            };
            if k + 1 < count {
                // The next batch is drawn while this one is summed.
                let upcoming = &mut next[..sizes[k + 1] * n];
                if threads == Threads::ONE {
                    sum();
                    draw(gen, upcoming);
                } else {
                    rayon::join(|| draw(gen, upcoming), sum);
                }
            } else {
                sum();
            }
            std::mem::swap(&mut cur, &mut next);
        }
    });
    Ok(out)
}

/// `np.mean(matrix[idx], axis=0)`: each column summed in `idx` order, then divided by `n`.
fn sample_mean(matrix: &[f64], cols: usize, idx: &[u32], mean: &mut [f64]) {
    let n = idx.len() as f64;
    if cols == 3 {
        // rouge-score's (precision, recall, fmeasure): three sums in registers.
        let (mut a, mut b, mut c) = (0.0f64, 0.0f64, 0.0f64);
        for &i in idx {
            let r = &matrix[3 * i as usize..3 * i as usize + 3];
            a += r[0];
            b += r[1];
            c += r[2];
        }
        mean.copy_from_slice(&[a / n, b / n, c / n]);
        return;
    }
    mean.iter_mut().for_each(|m| *m = 0.0);
    for &i in idx {
        let r = &matrix[i as usize * cols..(i as usize + 1) * cols];
        for (m, &x) in mean.iter_mut().zip(r) {
            *m += x;
        }
    }
    mean.iter_mut().for_each(|m| *m /= n);
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
    fn fill_equals_one_at_a_time() {
        let (mut a, mut b) = (seeded(7), seeded(7));
        let mut out = vec![0u32; 3000];
        a.fill_bounded(999, 1023, &mut out);
        for &v in &out {
            let w = loop {
                let w = b.next_u32() & 1023;
                if w <= 999 {
                    break w;
                }
            };
            assert_eq!(v, w);
        }
        assert_eq!(a, b);
    }

    #[test]
    fn one_row_draws_nothing() {
        let mut g = seeded(1);
        let before = g.clone();
        let means = resample_means(&mut g, &[0.5, 1.0], 2, 3, Threads::ONE).unwrap();
        assert_eq!(means, [0.5, 1.0, 0.5, 1.0, 0.5, 1.0]);
        assert_eq!(g, before);
    }
}
