//! Running work over segments on a chosen number of threads.
//!
//! [`Threads::ALL`] (0) means rayon's global pool (all cores, or `RAYON_NUM_THREADS`). Other
//! counts get a pool built once and kept, because building a pool costs far more than scoring
//! a sentence. Small inputs run on the calling thread: for a single sentence the hand-off to a
//! pool would cost more than the work.

use crate::error::CoreError;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::collections::HashMap;
use std::fmt::Display;
use std::sync::{Arc, Mutex, OnceLock};

/// A number of threads: 0 for all cores, else at most [`Threads::MAX`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Threads(usize);

impl Threads {
    /// All cores (rayon's global pool).
    pub const ALL: Threads = Threads(0);

    /// One thread: the calling one.
    pub const ONE: Threads = Threads(1);

    /// The most threads a pool may have.
    ///
    /// Every count gets its own pool, built on first use and kept for the life of the process
    /// (building one costs far more than a call), so an absurd count (`10**9`) would try to
    /// start that many threads. 1,024 is beyond any machine this runs on as a per-call
    /// setting, the same bound everywhere (a configuration valid on one machine stays valid
    /// on another), and `0` always means every core however many there are.
    pub const MAX: usize = 1024;

    /// Checks a count given by a caller (`num_threads`).
    pub fn new(n: i64) -> Result<Self, CoreError> {
        match usize::try_from(n) {
            Ok(n) if n <= Self::MAX => Ok(Threads(n)),
            _ => Err(invalid_threads(n)),
        }
    }

    /// The count (0: all cores).
    pub fn get(self) -> usize {
        self.0
    }
}

/// The message for a thread count that is not allowed, `shown` as the caller wrote it.
pub fn invalid_threads(shown: impl Display) -> CoreError {
    CoreError::InvalidOption(format!(
        "num_threads must be a non-negative integer (0: all cores) of at most {}, got {shown}",
        Threads::MAX
    ))
}

/// Below this many segments, work runs on the calling thread.
const MIN_PARALLEL: usize = 64;

fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut guard = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = guard.get(&threads) {
        return Some(Arc::clone(p));
    }
    let p = Arc::new(ThreadPoolBuilder::new().num_threads(threads).build().ok()?);
    guard.insert(threads, Arc::clone(&p));
    Some(p)
}

/// Runs `f` on a pool of `threads` threads (0: the global pool).
pub fn install<R: Send>(threads: Threads, f: impl FnOnce() -> R + Send) -> R {
    match threads.0 {
        0 => f(),
        t => match pool(t) {
            Some(p) => p.install(f),
            None => f(),
        },
    }
}

fn chunk_len(n: usize, threads: Threads) -> usize {
    let t = if threads == Threads::ALL {
        rayon::current_num_threads()
    } else {
        threads.0
    };
    (n / (t * 16)).clamp(16, 4096)
}

/// Spare workers, kept between calls when the pool is a `static`.
///
/// Performance decision: rayon's `*_init` adaptors call `init` for every task they split off,
/// and a fresh worker's tables grow (and fault in their pages) again up to the longest segment:
/// on 256 segments of 1,024 token IDs that cost more than the second thread gained. Workers are
/// therefore lent to tasks and given back when a task ends (about one worker per thread per
/// call), and a `static` pool keeps them for the next call, so that repeated calls (batches in a
/// training loop) do not allocate again. A pool holds at most one worker per thread that ran
/// at once, each as large as the longest segment it counted.
pub struct WorkerPool<W> {
    free: Mutex<Vec<W>>,
}

impl<W> WorkerPool<W> {
    /// An empty pool (usable in a `static`).
    pub const fn new() -> Self {
        WorkerPool {
            free: Mutex::new(Vec::new()),
        }
    }

    fn lend<'a, I: Fn() -> W>(&'a self, init: &'a I) -> Loan<'a, W> {
        let spare = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        Loan {
            worker: Some(spare.unwrap_or_else(init)),
            pool: self,
        }
    }
}

impl<W> Default for WorkerPool<W> {
    fn default() -> Self {
        Self::new()
    }
}

/// A worker on loan from a [`WorkerPool`], given back when dropped.
struct Loan<'a, W> {
    worker: Option<W>,
    pool: &'a WorkerPool<W>,
}

impl<W> Loan<'_, W> {
    fn get(&mut self) -> &mut W {
        self.worker
            .as_mut()
            .expect("a loan holds its worker until dropped")
    }
}

impl<W> Drop for Loan<'_, W> {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            self.pool
                .free
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(w);
        }
    }
}

/// Calls `f(worker, i, row_i)` for each row of `out` (rows of `row_len` values), with workers
/// made by `init()` (about one per thread).
pub fn for_each_row<T, W, I, F>(out: &mut [T], row_len: usize, threads: Threads, init: I, f: F)
where
    T: Send,
    W: Send,
    I: Fn() -> W + Sync + Send,
    F: Fn(&mut W, usize, &mut [T]) + Sync + Send,
{
    for_each_row_in(&WorkerPool::new(), out, row_len, threads, init, f);
}

/// [`for_each_row`] with workers taken from (and given back to) `pool`.
pub fn for_each_row_in<T, W, I, F>(
    pool: &WorkerPool<W>,
    out: &mut [T],
    row_len: usize,
    threads: Threads,
    init: I,
    f: F,
) where
    T: Send,
    W: Send,
    I: Fn() -> W + Sync + Send,
    F: Fn(&mut W, usize, &mut [T]) + Sync + Send,
{
    let n = out.len() / row_len.max(1);
    if n < MIN_PARALLEL || threads == Threads::ONE {
        let mut w = pool.lend(&init);
        for (i, row) in out.chunks_mut(row_len).enumerate() {
            f(w.get(), i, row);
        }
        return;
    }
    let chunk = chunk_len(n, threads);
    install(threads, || {
        out.par_chunks_mut(row_len * chunk)
            .enumerate()
            .for_each_init(
                || pool.lend(&init),
                |w, (c, rows)| {
                    for (j, row) in rows.chunks_mut(row_len).enumerate() {
                        f(w.get(), c * chunk + j, row);
                    }
                },
            )
    });
}

/// `(0..n).map(|i| f(worker, i)).collect()`, in parallel.
pub fn map_collect<T, W, I, F>(n: usize, threads: Threads, init: I, f: F) -> Vec<T>
where
    T: Send,
    W: Send,
    I: Fn() -> W + Sync + Send,
    F: Fn(&mut W, usize) -> T + Sync + Send,
{
    if n < MIN_PARALLEL || threads == Threads::ONE {
        let mut w = init();
        return (0..n).map(|i| f(&mut w, i)).collect();
    }
    let chunk = chunk_len(n, threads);
    let workers = WorkerPool::new();
    install(threads, || {
        (0..n)
            .into_par_iter()
            .with_min_len(chunk)
            .map_init(|| workers.lend(&init), |w, i| f(w.get(), i))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts() {
        assert_eq!(Threads::new(0), Ok(Threads::ALL));
        assert_eq!(Threads::new(1024).map(Threads::get), Ok(1024));
        for bad in [-1, 1025, 1_000_000_000, i64::MIN] {
            let err = Threads::new(bad).unwrap_err();
            assert!(err
                .to_string()
                .contains(&format!("at most 1024, got {bad}")));
        }
    }

    #[test]
    fn rows_in_parallel_equal_serial() {
        let run = |threads| {
            let mut out = vec![0usize; 3 * 1000];
            for_each_row(&mut out, 3, threads, || (), |_, i, row| row.fill(i));
            out
        };
        assert_eq!(run(Threads::ONE), run(Threads(2)));
        assert_eq!(run(Threads::ALL), run(Threads::ONE));
        let got = map_collect(500, Threads(2), || 1, |w, i| i * *w);
        assert_eq!(got, (0..500).collect::<Vec<_>>());
    }
}
