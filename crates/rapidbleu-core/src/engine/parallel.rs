//! Running work over segments on a chosen number of threads.
//!
//! `threads == 0` means rayon's global pool (all cores, or `RAYON_NUM_THREADS`). Other counts
//! get a pool built once and kept, because building a pool costs far more than scoring a
//! sentence. Small inputs run on the calling thread: for a single sentence the hand-off to a
//! pool would cost more than the work.

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

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
pub fn install<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    match threads {
        0 => f(),
        t => match pool(t) {
            Some(p) => p.install(f),
            None => f(),
        },
    }
}

fn chunk_len(n: usize, threads: usize) -> usize {
    let t = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
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
pub fn for_each_row<T, W, I, F>(out: &mut [T], row_len: usize, threads: usize, init: I, f: F)
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
    threads: usize,
    init: I,
    f: F,
) where
    T: Send,
    W: Send,
    I: Fn() -> W + Sync + Send,
    F: Fn(&mut W, usize, &mut [T]) + Sync + Send,
{
    let n = out.len() / row_len.max(1);
    if n < MIN_PARALLEL || threads == 1 {
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
pub fn map_collect<T, W, I, F>(n: usize, threads: usize, init: I, f: F) -> Vec<T>
where
    T: Send,
    W: Send,
    I: Fn() -> W + Sync + Send,
    F: Fn(&mut W, usize) -> T + Sync + Send,
{
    if n < MIN_PARALLEL || threads == 1 {
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
