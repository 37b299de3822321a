//! The profiling examples' random numbers (included with `#[path]`; not an example itself).

/// A small xorshift generator: the workloads must not depend on a crate's RNG version.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A Zipf-like index below `n`: floor(n^u) for uniform u, so small indices are frequent.
    pub fn zipf(&mut self, n: usize) -> usize {
        let u = self.below(1 << 20) as f64 / f64::from(1 << 20);
        ((n as f64).powf(u) as usize).min(n - 1)
    }
}
