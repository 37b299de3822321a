//! Items made on a background thread one step ahead of their consumer: the next chunk of lines
//! is read, decompressed and checked while the engine scores the current one, so reading costs
//! (almost) no wall time.
//!
//! At most three items are alive at once: the one being consumed, one waiting in the channel
//! and one being made. Dropping the [`Prefetch`] stops the thread after the item it is making
//! (it is not joined: a thread blocked reading a pipe must not block its consumer).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;
use std::thread;

/// See the module documentation.
pub struct Prefetch<T> {
    rx: Receiver<Result<T, String>>,
    stop: Arc<AtomicBool>,
    finished: bool,
}

impl<T: Send + 'static> Prefetch<T> {
    /// Starts a thread named `name` that calls `next` until it returns `None` (or the consumer
    /// is gone).
    ///
    /// # Errors
    /// The system could not start a thread.
    pub fn spawn<F>(name: &str, mut next: F) -> std::io::Result<Self>
    where
        F: FnMut() -> Option<T> + Send + 'static,
    {
        // One item waits in the channel while the thread makes the next.
        let (tx, rx) = sync_channel(1);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        thread::Builder::new().name(name.into()).spawn(move || {
            let run = catch_unwind(AssertUnwindSafe(|| {
                while !stopped.load(Ordering::Relaxed) {
                    match next() {
                        Some(item) => {
                            if tx.send(Ok(item)).is_err() {
                                return; // the consumer is gone
                            }
                        }
                        None => return,
                    }
                }
            }));
            if let Err(panic) = run {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                let _ = tx.send(Err(what));
            }
        })?;
        Ok(Prefetch {
            rx,
            stop,
            finished: false,
        })
    }

    /// The next item (waiting for it), or `None` after the last.
    ///
    /// # Errors
    /// The thread panicked (the panic's message).
    pub fn next_item(&mut self) -> Result<Option<T>, String> {
        if self.finished {
            return Ok(None);
        }
        match self.rx.recv() {
            Ok(Ok(item)) => Ok(Some(item)),
            Ok(Err(panic)) => {
                self.finished = true;
                Err(panic)
            }
            Err(_) => {
                self.finished = true;
                Ok(None)
            }
        }
    }
}

impl<T> Drop for Prefetch<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_in_order_then_none() {
        let mut i = 0;
        let mut p = Prefetch::spawn("test", move || {
            i += 1;
            (i <= 5).then_some(i)
        })
        .unwrap();
        let got: Vec<i32> = std::iter::from_fn(|| p.next_item().unwrap()).collect();
        assert_eq!(got, [1, 2, 3, 4, 5]);
        assert_eq!(p.next_item(), Ok(None));
    }

    #[test]
    fn a_panic_is_an_error() {
        let mut p = Prefetch::<i32>::spawn("test", || panic!("boom")).unwrap();
        assert_eq!(p.next_item(), Err("boom".to_string()));
        assert_eq!(p.next_item(), Ok(None));
    }

    #[test]
    fn dropping_stops_the_thread() {
        let made = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = Arc::clone(&made);
        let mut p =
            Prefetch::spawn("test", move || Some(counter.fetch_add(1, Ordering::SeqCst))).unwrap();
        assert_eq!(p.next_item(), Ok(Some(0)));
        drop(p);
        std::thread::sleep(std::time::Duration::from_millis(50));
        let after = made.load(Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(50));
        // At most the item in the channel and the one being made.
        assert!(after <= 3 && made.load(Ordering::SeqCst) == after);
    }
}
