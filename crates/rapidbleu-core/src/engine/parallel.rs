//! Running work over segments on a chosen number of threads.
//!
//! Every count, [`Threads::ALL`] (0, all cores or `RAYON_NUM_THREADS`) included, gets a pool
//! built once and kept, because building a pool costs far more than scoring a sentence. Small
//! inputs run on the calling thread: for a single sentence the hand-off to a pool would cost
//! more than the work.
//!
//! **Fork safety.** A child made by `fork()` inherits the parent's memory but only the thread
//! that forked: a pool built before the fork has no threads in the child, and work sent to it
//! waits forever. So pools belong to the process that built them ([`std::process::id`] is
//! checked on every call, one system call) and a child builds its own. rayon's global pool
//! is never used, since it cannot be rebuilt. Locks that a thread of the parent may have held
//! at the fork are never waited on without bound ([`lock_briefly`]).

use super::affinity;
use crate::error::{buffer_len, reserve, zeroed, CoreError, Zeroable};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::fmt::Display;
use std::mem::MaybeUninit;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};

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
pub(crate) const MIN_PARALLEL: usize = 64;

/// How often [`lock_briefly`] tries a lock before giving up on it.
const LOCK_TRIES: u32 = 10_000;

/// `mutex` locked, or `None` if it stays taken for [`LOCK_TRIES`] tries.
///
/// Why not `lock()`: in a child made by `fork()`, a mutex that another thread of the parent
/// held at the fork stays locked forever (its owner does not exist there). The locks taken
/// here guard caches (pools, spare workers, buffers) that are held for a few instructions, so
/// a lock still taken after thousands of yields is such a lock, and the caller does without
/// the cache instead of hanging.
pub fn lock_briefly<T>(mutex: &Mutex<T>) -> Option<MutexGuard<'_, T>> {
    for _ in 0..LOCK_TRIES {
        match mutex.try_lock() {
            Ok(guard) => return Some(guard),
            Err(TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => std::thread::yield_now(),
        }
    }
    None
}

/// The thread pools of one process, by thread count (a handful: a `Vec` is the map).
struct Pools {
    pid: u32,
    by_count: Vec<(usize, Arc<ThreadPool>)>,
}

static POOLS: Mutex<Pools> = Mutex::new(Pools {
    pid: 0,
    by_count: Vec::new(),
});

/// The number of threads of [`Threads::ALL`]: `RAYON_NUM_THREADS` when it is a positive
/// integer (rayon's own rule for its global pool), else every core the process may use.
///
/// Read once per process image, as rayon reads it once: every parallel call asks for it, and
/// reading the environment takes std's environment lock, which a forked child must not wait on
/// (another thread of the parent may have held it at the fork). A child inherits the value.
fn all_cores() -> usize {
    static ALL: OnceLock<usize> = OnceLock::new();
    *ALL.get_or_init(|| {
        std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(Threads::MAX)
    })
}

/// The pool of `threads` threads of this process, built on first use.
fn pool(threads: usize) -> Option<Arc<ThreadPool>> {
    let build = || {
        let mut builder = ThreadPoolBuilder::new().num_threads(threads);
        if let Some(cores) = affinity::cores_for(threads) {
            builder = builder.start_handler(move |i| affinity::pin_current(cores[i]));
        }
        builder.build().ok().map(Arc::new)
    };
    let Some(mut pools) = lock_briefly(&POOLS) else {
        return build();
    };
    let pid = std::process::id();
    if pools.pid != pid {
        // Pools inherited through fork(): their threads are in the parent. Dropping one would
        // signal those threads through locks the parent may have held at the fork, so they
        // are forgotten (a few hundred bytes per fork), never dropped.
        std::mem::forget(std::mem::take(&mut pools.by_count));
        pools.pid = pid;
    }
    if let Some((_, p)) = pools.by_count.iter().find(|(t, _)| *t == threads) {
        return Some(Arc::clone(p));
    }
    let p = build()?;
    pools.by_count.push((threads, Arc::clone(&p)));
    Some(p)
}

/// The number of threads `threads` stands for (0: [`all_cores`]).
fn count(threads: Threads) -> usize {
    match threads.0 {
        0 => all_cores(),
        t => t,
    }
}

/// Runs `f` on this process's pool of `threads` threads (0: all cores).
pub fn install<R: Send>(threads: Threads, f: impl FnOnce() -> R + Send) -> R {
    match pool(count(threads)) {
        Some(p) => p.install(f),
        None => f(),
    }
}

/// The fewest items (lines, cache entries) whose freeing is handed to [`spawn`]: below it,
/// freeing them where they are costs less than the job.
pub const FREE_APART_FROM: usize = 4096;

/// Runs `f` on this process's pool of `threads` threads without waiting for it (inline on one
/// thread, or where there is no pool): for work nobody waits on, such as freeing a large
/// structure. The pool is this process's own (see [`pool`]), so a forked child runs the job
/// too.
pub fn spawn(threads: Threads, f: impl FnOnce() + Send + 'static) {
    // Checked before `pool`, which would build a pool of one thread for this.
    if threads == Threads::ONE {
        return f();
    }
    match pool(count(threads)) {
        Some(p) => p.spawn(f),
        None => f(),
    }
}

pub(crate) fn chunk_len(n: usize, threads: Threads) -> usize {
    (n / (count(threads) * 16)).clamp(16, 4096)
}

/// A zeroed buffer of `rows * row_len` values (as [`zeroed`]), the zeros written on `threads`
/// threads when it is large.
///
/// Performance decision: a buffer of rows is zeroed before the workers fill it. `calloc` gets
/// fresh (already zero) pages only for a first large buffer; once one is freed, glibc serves
/// the next from its heap and writes the zeros itself, on the calling thread: 8 MB for 100k
/// segments of BLEU, the largest serial part of a repeated call after reading the strings.
pub fn zeroed_on<T: Zeroable + Send>(
    rows: usize,
    row_len: usize,
    threads: Threads,
) -> Result<Vec<T>, CoreError> {
    const PART: usize = 1 << 14;
    let n = buffer_len(rows, row_len)?;
    if n < 4 * PART || threads == Threads::ONE {
        return zeroed(rows, row_len);
    }
    let mut v = Vec::new();
    reserve(&mut v, n)?;
    install(threads, || {
        v.spare_capacity_mut()[..n]
            .par_chunks_mut(PART)
            .for_each(|part| part.fill(MaybeUninit::new(T::default())));
    });
    // SAFETY: the capacity is at least `n`, and all of the first `n` values were written above.
    unsafe { v.set_len(n) };
    Ok(v)
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
        let spare = lock_briefly(&self.free).and_then(|mut free| free.pop());
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
        if let (Some(w), Some(mut free)) = (self.worker.take(), lock_briefly(&self.pool.free)) {
            free.push(w);
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

/// [`for_each_row_in`] for a row function that may fail: the result is the error of the first
/// failing row (by index), as a serial pass would report it; the other rows are still filled.
///
/// Performance decision: a metric checks each segment (e.g. "too long to count") in the
/// parallel pass, not in a loop before it, where the checks were serial work (a few percent of
/// a call at 100k segments: Amdahl's share).
pub fn try_for_each_row_in<T, W, E, I, F>(
    pool: &WorkerPool<W>,
    out: &mut [T],
    row_len: usize,
    threads: Threads,
    init: I,
    f: F,
) -> Result<(), E>
where
    T: Send,
    W: Send,
    E: Send,
    I: Fn() -> W + Sync + Send,
    F: Fn(&mut W, usize, &mut [T]) -> Result<(), E> + Sync + Send,
{
    let first: Mutex<Option<(usize, E)>> = Mutex::new(None);
    for_each_row_in(pool, out, row_len, threads, init, |w, i, row| {
        if let Err(e) = f(w, i, row) {
            let mut first = first.lock().unwrap_or_else(|p| p.into_inner());
            if first.as_ref().is_none_or(|(j, _)| i < *j) {
                *first = Some((i, e));
            }
        }
    });
    match first.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
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
    fn a_lock_held_forever_is_given_up() {
        let m = Mutex::new(1);
        let held = m.lock();
        assert!(lock_briefly(&m).is_none());
        drop(held);
        assert_eq!(lock_briefly(&m).map(|g| *g), Some(1));
    }

    #[test]
    fn a_failing_row_function_fails_with_the_first_failing_row() {
        for threads in [Threads::ONE, Threads(2), Threads(4)] {
            let fill = |_: &mut (), i: usize, row: &mut [i64]| {
                if i % 300 == 299 {
                    return Err(i);
                }
                row[0] = i as i64 + 1;
                Ok(())
            };
            let mut out = vec![0i64; 1000];
            let r = try_for_each_row_in(&WorkerPool::new(), &mut out, 1, threads, || (), fill);
            assert_eq!(r, Err(299));
            let mut out = vec![0i64; 1000];
            let all = |w: &mut (), i: usize, row: &mut [i64]| fill(w, i % 299, row);
            let r = try_for_each_row_in(&WorkerPool::new(), &mut out, 1, threads, || (), all);
            assert_eq!(r, Ok(()));
            assert!(out
                .iter()
                .enumerate()
                .all(|(i, &v)| v == (i % 299) as i64 + 1));
        }
    }

    #[test]
    fn zeroed_on_many_threads_is_zeroed() {
        for threads in [Threads::ONE, Threads(2), Threads(3)] {
            for (rows, row_len) in [(0, 10), (7, 0), (10, 3), (100_003, 10)] {
                let mut v: Vec<i64> = zeroed_on(rows, row_len, threads).expect("fits");
                assert_eq!(v.len(), rows * row_len);
                assert!(v.iter().all(|&x| x == 0));
                // A freed buffer is reused dirty by the allocator: the zeros must be written.
                v.iter_mut().for_each(|x| *x = -1);
                drop(v);
                let v: Vec<f64> = zeroed_on(rows, row_len, threads).expect("fits");
                assert!(v.iter().all(|&x| x == 0.0));
            }
        }
        assert!(zeroed_on::<i64>(usize::MAX, 2, Threads(2)).is_err());
        assert!(zeroed_on::<i64>(usize::MAX / 4, 1, Threads(2)).is_err());
    }

    #[test]
    fn all_cores_is_a_pool_of_its_own() {
        let n = all_cores();
        assert!((1..=Threads::MAX).contains(&n));
        assert_eq!(install(Threads::ALL, rayon::current_num_threads), n);
        assert_eq!(install(Threads(3), rayon::current_num_threads), 3);
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
