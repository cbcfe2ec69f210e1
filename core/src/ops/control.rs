//! The switches and the clock of a run that awaits its writes ([`super::run`]): Ctrl-C's
//! stop and give-up, the writes sent whose answer has not arrived, and the clock the
//! re-reads of a lost answer wait on (the real one, or a test's that it moves).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use uuid::Uuid;

/// The clock a run waits on between re-reads of a lost answer ([`super::decision::backoff`]:
/// 1 s, 2 s, 4 s, ... 30 s, for at most the run's patience): [`RealClock`] (tokio's timer)
/// on the command line, the default of [`Control`]; a test gives one it moves, so the
/// backoff passes without being waited for ([`Control::with_clock`]).
pub trait RunClock: Send + Sync {
    /// A stopwatch started now, for the re-reads of one request.
    fn start(&self) -> Box<dyn Stopwatch>;
}

/// The time of one request's re-reads: how long since they began, and a wait.
pub trait Stopwatch: Send {
    /// Time since [`RunClock::start`] on this clock.
    fn elapsed(&self) -> Duration;
    /// Waits `d` on this clock (the real one sleeps; a test's moves its time on at once).
    fn sleep(&mut self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// The real clock: [`tokio::time::Instant`] and [`tokio::time::sleep`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RealClock;

impl RunClock for RealClock {
    fn start(&self) -> Box<dyn Stopwatch> {
        Box::new(RealStopwatch(tokio::time::Instant::now()))
    }
}

struct RealStopwatch(tokio::time::Instant);

impl Stopwatch for RealStopwatch {
    fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }

    fn sleep(&mut self, d: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(d))
    }
}

/// Shared switches of one run: `stop` sends nothing more (a first Ctrl-C, or an answer that
/// no further call can beat); `give_up` stops waiting for lost answers to settle (a second
/// Ctrl-C). Also the writes sent whose answer has not arrived (for an `unknown` line when
/// the run is abandoned), and the clock the re-reads of lost answers wait on
/// ([`RealClock`] by default). Clones share the state.
#[derive(Clone)]
pub struct Control {
    stop: Arc<AtomicBool>,
    give_up: Arc<tokio::sync::watch::Sender<bool>>,
    in_flight: Arc<Mutex<Vec<(Uuid, &'static str)>>>,
    pub(super) clock: Arc<dyn RunClock>,
}

impl Default for Control {
    fn default() -> Control {
        Control {
            stop: Arc::default(),
            give_up: Arc::new(tokio::sync::watch::Sender::new(false)),
            in_flight: Arc::default(),
            clock: Arc::new(RealClock),
        }
    }
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("stop", &self.stopped())
            .field("give_up", &self.given_up())
            .field("in_flight", &self.in_flight())
            .finish_non_exhaustive()
    }
}

impl Control {
    /// Switches whose re-reads wait on `clock` instead of the real one (tests).
    pub fn with_clock(clock: Arc<dyn RunClock>) -> Control {
        Control {
            clock,
            ..Control::default()
        }
    }

    /// Sends nothing more.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// True once [`Control::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Stops waiting for lost answers (and sends nothing more).
    pub fn give_up(&self) {
        self.stop();
        self.give_up.send_replace(true);
    }

    /// True once [`Control::give_up`] was called.
    pub fn given_up(&self) -> bool {
        *self.give_up.borrow()
    }

    /// Resolves once [`Control::give_up`] is called (at once if it was): a write still
    /// waiting for its answer then stops waiting and is audited `unknown` by its decision.
    pub async fn gave_up(&self) {
        let mut rx = self.give_up.subscribe();
        let _ = rx.wait_for(|g| *g).await;
    }

    /// The writes sent whose answer has not arrived: `(target, audit verb)`.
    pub fn in_flight(&self) -> Vec<(Uuid, &'static str)> {
        self.in_flight.lock().map(|v| v.clone()).unwrap_or_default()
    }

    pub(super) fn sent(&self, id: Uuid, verb: &'static str) {
        if let Ok(mut v) = self.in_flight.lock() {
            v.push((id, verb));
        }
    }

    pub(super) fn answered(&self, id: Uuid) {
        if let Ok(mut v) = self.in_flight.lock() {
            v.retain(|(x, _)| *x != id);
        }
    }
}
