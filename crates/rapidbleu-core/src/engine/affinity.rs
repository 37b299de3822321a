//! Pinning the threads of an all-cores pool, one to each core the process may run on.
//!
//! Performance decision: on a machine whose every core the pool uses, Linux sometimes wakes two
//! workers on one core and leaves another idle for several milliseconds (an idle core does not
//! pull a waiting thread until its next balancing tick). A fifth of the calls of COCO BLEU on
//! 5,000 images with two cores took one core's time, 20 ms instead of 11; `perf sched timehist`
//! of such a call showed both workers sharing core 1 in 4 ms slices while core 0 stayed idle
//! for 10.8 ms. A worker pinned to its own core cannot be put beside another.
//!
//! Only a pool with exactly one thread per allowed core is pinned: a smaller pool pinned to the
//! first cores would crowd them when several processes run such pools, and a pool larger than
//! the set (or a CPU quota smaller than it) has no one core per thread to give.
//! `RAPIDBLEU_PIN_THREADS=0` turns it off (read once per process, as rayon reads its own
//! variable). Linux only; elsewhere nothing is pinned.

/// The cores this process's threads may run on, when pinning is on and they number
/// `threads`; else `None` (nothing is pinned).
pub(crate) fn cores_for(threads: usize) -> Option<Vec<usize>> {
    if !enabled() {
        return None;
    }
    let cores = allowed_cores()?;
    (cores.len() == threads && threads > 1).then_some(cores)
}

/// Pins the calling thread to `core` (a failure leaves it unpinned: pinning only helps).
pub(crate) fn pin_current(core: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: `set` is a plain bit mask, zeroed and then set with libc's own macros, and its
    // size is passed with it; `0` is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = core;
}

/// Whether `RAPIDBLEU_PIN_THREADS` leaves pinning on (anything but `0`, or unset).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("RAPIDBLEU_PIN_THREADS").map_or(true, |v| v.trim() != "0"))
}

/// The cores the calling thread may run on (its affinity mask).
#[cfg(target_os = "linux")]
fn allowed_cores() -> Option<Vec<usize>> {
    // SAFETY: as in `pin_current`; the mask is only read after the call succeeded.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        Some(
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect(),
        )
    }
}

#[cfg(not(target_os = "linux"))]
fn allowed_cores() -> Option<Vec<usize>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_pool_of_every_core_is_pinned() {
        assert_eq!(cores_for(1), None);
        if let Some(cores) = allowed_cores() {
            assert_eq!(cores_for(cores.len() + 1), None);
            if cores.len() > 1 && enabled() {
                assert_eq!(cores_for(cores.len()), Some(cores));
            }
        }
    }
}
