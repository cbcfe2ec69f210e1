//! A runtime on a thread of its own where a client's calls run (`serve-ssh`'s operator's
//! client and every session's made from it): the limiter of calls in flight
//! ([`super::limit`]) then times the network and the service, not the wait of the calling
//! sessions' tasks in a runtime busy drawing hundreds of dashboards, and a place freed is
//! taken at once instead of when a session's task is next run.
//!
//! The thread ends, its runtime dropped with whatever still runs there, when the last clone
//! of its [`CallThread`] is dropped (the server's clients, once the server has stopped): a
//! process that starts many servers (the tests) keeps no thread per server.

use std::future::Future;
use std::sync::Arc;

/// A current-thread tokio runtime on a thread of its own. Clones share it.
#[derive(Debug, Clone)]
pub struct CallThread {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    handle: tokio::runtime::Handle,
    /// Dropped with the last clone: the thread's runtime then ends.
    _end: tokio::sync::oneshot::Sender<()>,
}

/// Why a future run on the thread gave no output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// It panicked (a bug).
    Panicked,
    /// It was dropped before it ended: the thread's runtime ended first.
    Cancelled,
}

/// The task of a caller that awaits it: aborted when the caller gives up (drops the
/// future of [`CallThread::run`]), so what the task holds (a limiter's permit, its place
/// among the calls waiting, a host budget's slot) is given back as it was when the call
/// ran in the caller's own task.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl CallThread {
    /// Starts the thread, named `name` (at most 15 bytes are shown by the system).
    ///
    /// Errors: the runtime or the thread could not be made.
    pub fn start(name: &str) -> std::io::Result<CallThread> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let handle = runtime.handle().clone();
        let (end, ended) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                runtime.block_on(async {
                    let _ = ended.await;
                });
                // The runtime is dropped here: a task still on it is cancelled.
            })?;
        Ok(CallThread {
            inner: Arc::new(Inner { handle, _end: end }),
        })
    }

    /// Runs `call` on the thread and awaits its output. A panic there, or the thread's end
    /// before it finished, is a [`Lost`], never a panic of the caller; a caller that gives
    /// up (drops this future) cancels `call` where it waits.
    pub async fn run<F>(&self, call: F) -> Result<F::Output, Lost>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let mut task = AbortOnDrop(self.inner.handle.spawn(call));
        (&mut task.0).await.map_err(|e| {
            if e.is_panic() {
                Lost::Panicked
            } else {
                Lost::Cancelled
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Threads of this process named `name`.
    fn threads_named(name: &str) -> usize {
        std::fs::read_dir("/proc/self/task")
            .map(|dir| {
                dir.filter_map(Result::ok)
                    .filter(|t| {
                        std::fs::read_to_string(t.path().join("comm"))
                            .is_ok_and(|c| c.trim_end() == name)
                    })
                    .count()
            })
            .unwrap_or(0)
    }

    #[tokio::test]
    async fn runs_elsewhere_and_a_panic_is_an_error_not_the_caller_s_panic() {
        let t = CallThread::start("calls-test-run").expect("thread");
        let here = std::thread::current().id();
        let there = t.run(async { std::thread::current().id() }).await;
        assert!(there.is_ok_and(|id| id != here), "run on the thread");
        let panicked = t.run(async { panic!("a bug") }).await;
        assert_eq!(panicked.err(), Some(Lost::Panicked));
        assert_eq!(t.run(async { 7 }).await, Ok(7), "the thread lives on");
    }

    /// A caller that gives up cancels its call there: what the call held is dropped.
    #[tokio::test]
    async fn a_caller_that_gives_up_cancels_its_call() {
        let t = CallThread::start("calls-test-drop").expect("thread");
        let (held, mut released) = tokio::sync::mpsc::channel::<()>(1);
        let call = t.run(async move {
            let _held = held;
            std::future::pending::<()>().await;
        });
        let gave_up = tokio::time::timeout(Duration::from_millis(20), call).await;
        assert!(gave_up.is_err(), "the call never ends by itself");
        assert!(
            released.recv().await.is_none(),
            "what the call held was dropped"
        );
    }

    /// The thread ends with the last clone, not before.
    #[tokio::test]
    async fn the_thread_ends_with_the_last_clone() {
        let name = "calls-test-end";
        let t = CallThread::start(name).expect("thread");
        let other = t.clone();
        // Once it has run something, the thread has named itself.
        assert_eq!(t.run(async { 0 }).await, Ok(0));
        assert_eq!(threads_named(name), 1);
        drop(t);
        assert_eq!(other.run(async { 1 }).await, Ok(1), "a clone keeps it");
        drop(other);
        // Bounded only so that a defect fails instead of hanging the suite.
        for _ in 0..1000 {
            if threads_named(name) == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the thread did not end");
    }
}
