//! Adaptive concurrency: how many calls one process keeps in flight to one server. Every
//! call of an [`super::ApiClient`] (and of its clones) passes here, so bulk
//! writes, prefetch reads and re-reads share one limit; writes go before reads that wait.
//!
//! The deployed service stalls at 16 authenticated requests in flight from all clients
//! together (its pool of 16 database connections, each request holding one while it waits
//! for a second; deployed behaviour, api-notes.md "Other"). So the limit:
//! - starts low ([`START`]) and never passes the ceiling (`--concurrency`) nor
//!   [`SAFE_MAX`], "well below 16";
//! - grows by one call per round of answers while the server answers at its own speed
//!   (additive increase, as TCP and Vector's adaptive request concurrency do), and holds
//!   once the answers' moving average rises past 1.5 times the fastest plus 2 ms (the rise
//!   that comes before the pool stall: requests queueing for connections);
//! - is halved on a sign of overload (a time-out, a 5xx) and cut by a fifth when the
//!   answers' latency jumps (their moving average past twice the fastest seen, plus 5 ms):
//!   multiplicative decrease, once per round (answers to calls sent before a cut do not
//!   cut again);
//! - grows back above the level where it was cut only slowly (a quarter of the pace).
//!
//! Reads and writes are timed apart, each against its own fastest answer (a write may take
//! longer than a read on a server at ease), and only answers the server did the work for
//! count: a refusal (4xx) comes before the work, often at once, and says nothing of load
//! (the update-route probe's 404, or a bulk approval's "already approved" answers, would
//! otherwise set a baseline the real approvals could never meet, holding the limit at one).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use tokio::sync::Notify;

/// The first limit: two calls, so several processes starting together on other hosts (six
/// moderators at a term's start) are 12 calls, still below the deployed service's stall at
/// 16; it grows only while answers keep their time.
pub const START: usize = 2;
/// The start's calls: the first this many calls of a limiter's life go at once, past
/// [`START`] (a dashboard's start sends the signed-in user, the update-route probe, a `PUT`
/// that changes nothing, and the listing's first page: all three in one round trip, so the
/// first rows come after one). The limit of calls in flight is for bulk work; a
/// bulk's first calls are its reads, so at most one call more than [`START`] at its start.
/// Never past the ceiling.
pub const START_READS: usize = 3;
/// The highest limit whatever the ceiling: the deployed service stalls at 16 requests in
/// flight from all clients together (api-notes.md, "Other").
pub const SAFE_MAX: usize = 12;
/// A latency jump: the moving average of answer times past this many times the fastest.
const JUMP_FACTOR: f64 = 2.0;
/// ... plus this much (so jitter of a fast local server is not a jump).
const JUMP_SLACK: Duration = Duration::from_millis(5);
/// Growth only while answers keep their time: their moving average within this many times
/// the fastest ...
const GROW_FACTOR: f64 = 1.5;
/// ... plus this much. Between this and a jump the limit holds: the rise that comes before
/// the pool stall (requests queueing for connections) stops growth before it cuts.
const GROW_SLACK: Duration = Duration::from_millis(2);
/// Answers before a latency jump counts (the first ones open connections).
const WARM_UP: u32 = 10;
/// The answer time past which a cut is news to a moderator ("server slow: fewer at once"):
/// a jump between fast answers (5 ms to 40 ms) cuts the limit too, but every answer still
/// comes at once to a person; only a cut for overload (a time-out, a 5xx) or answers this
/// slow on average is shown as [`Pace::slowed`] (else "server slow" was shown while all
/// 20 writes answered within 60 ms).
pub const SLOW_SHOWN: Duration = Duration::from_millis(250);

/// What an answer says about the server's load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// An answer the server did the work for (a success, or a 2xx it could not read): its
    /// time counts.
    Answered,
    /// A sign of overload: a time-out or a 5xx.
    Overloaded,
    /// Says nothing about load (the connection could not be made, the call was dropped, or
    /// the server refused it: a 4xx comes before the work).
    Neutral,
}

/// The limiter's state as a front end shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    /// Calls allowed in flight now.
    pub limit: usize,
    /// Calls in flight now.
    pub in_flight: usize,
    /// True while the limit is below a level it was cut from, for an overload or with
    /// answers slower than [`SLOW_SHOWN`] on average: the server is slow as a moderator
    /// feels it.
    pub slowed: bool,
}

#[derive(Debug)]
struct State {
    ceiling: usize,
    limit: f64,
    in_flight: usize,
    writes_waiting: usize,
    reads_waiting: usize,
    epoch: u64,
    /// The answers' times, reads and writes apart ([`Timing::of`]): a write may take
    /// longer than a read on a server at ease (it writes to its database), so each is
    /// compared with its own fastest.
    timing: [Timing; 2],
    /// The limit before the last cut; growth above it is slow.
    cut_from: Option<f64>,
    /// The last cut was for an overload (a time-out, a 5xx), not a latency jump.
    overloaded: bool,
    /// `(when, limit)` at every change, for the harness's figures.
    history: Vec<(Instant, usize)>,
    started: Instant,
    /// The pace last handed out by [`Limiter::pace_changed`].
    reported: Option<(usize, bool)>,
    /// Calls of the start still let through up to [`START_READS`] in flight, past the
    /// limit; 0 once that many were sent.
    opening: usize,
}

/// The answer times of one kind of call (reads, or writes).
#[derive(Debug, Default, Clone)]
struct Timing {
    /// The fastest answer seen: the server's speed at ease. (It never rises: a baseline that
    /// followed the answers up would follow a saturating pool up to its stall. The lowest
    /// moving average after a warm-up was tried for answers that scatter, a phone's 0 to 40
    /// ms, which hold the limit low: six processes without the host budget then stalled the
    /// imitated pool, 30 in flight, 5 s waits; it was dropped.)
    fastest: Option<Duration>,
    average: Option<Duration>,
    /// The same moving average, never set back by a cut: how fast answers come as a
    /// moderator feels them ([`SLOW_SHOWN`]).
    felt: Option<Duration>,
    /// Answers timed so far: the first [`WARM_UP`] (new connections, cold caches) set the
    /// fastest time but do not count as a jump.
    answers: u32,
}

impl Timing {
    /// Index of the timing of a write (`true`) or a read in [`State::timing`].
    fn of(write: bool) -> usize {
        usize::from(write)
    }

    /// Counts an answer's time; returns the fastest answer so far and the moving average.
    fn add(&mut self, took: Duration) -> (Duration, Duration) {
        let fastest = self.fastest.map_or(took, |f| f.min(took));
        self.fastest = Some(fastest);
        let average = match self.average {
            Some(a) => a.mul_f64(0.8) + took.mul_f64(0.2),
            None => took,
        };
        self.average = Some(average);
        self.felt = Some(match self.felt {
            Some(a) => a.mul_f64(0.8) + took.mul_f64(0.2),
            None => took,
        });
        self.answers = self.answers.saturating_add(1);
        (fastest, average)
    }
}

impl State {
    fn allowed(&self) -> usize {
        (self.limit.floor() as usize).clamp(1, self.ceiling)
    }

    /// Calls allowed in flight now: the limit, or the start's [`START_READS`] while
    /// [`State::opening`] lasts.
    fn room(&self) -> usize {
        if self.opening > 0 {
            self.allowed().max(START_READS.min(self.ceiling))
        } else {
            self.allowed()
        }
    }

    fn set(&mut self, limit: f64) {
        let before = self.allowed();
        self.limit = limit.clamp(1.0, self.ceiling as f64);
        if self.allowed() != before && self.history.len() < 10_000 {
            self.history.push((Instant::now(), self.allowed()));
        }
    }

    fn cut(&mut self, factor: f64) {
        self.cut_from = Some(self.cut_from.unwrap_or(0.0).max(self.limit));
        self.epoch += 1;
        self.set((self.limit * factor).floor().max(1.0));
    }
}

/// The shared limit of one process's calls to one server. Clones share it.
#[derive(Debug, Clone)]
pub struct Limiter {
    state: Arc<Mutex<State>>,
    notify: Arc<Notify>,
    /// Calls on the wire, for a front end that shows them ([`Limiter::watch_in_flight`]).
    sent: Arc<tokio::sync::watch::Sender<usize>>,
}

impl Limiter {
    /// A limiter whose limit never passes `ceiling` (`--concurrency`, at least 1) nor
    /// [`SAFE_MAX`]; it starts at [`START`] (or the ceiling, if lower).
    pub fn new(ceiling: usize) -> Limiter {
        let ceiling = ceiling.clamp(1, SAFE_MAX);
        let start = START.min(ceiling);
        Limiter {
            state: Arc::new(Mutex::new(State {
                ceiling,
                limit: start as f64,
                in_flight: 0,
                writes_waiting: 0,
                reads_waiting: 0,
                epoch: 0,
                timing: [Timing::default(), Timing::default()],
                cut_from: None,
                overloaded: false,
                history: vec![(Instant::now(), start)],
                started: Instant::now(),
                reported: None,
                opening: START_READS.min(ceiling),
            })),
            notify: Arc::new(Notify::new()),
            sent: Arc::new(tokio::sync::watch::Sender::new(0)),
        }
    }

    /// A limiter that always allows `n` calls (no adaptation): for measuring fixed settings.
    pub fn fixed(n: usize) -> Limiter {
        let l = Limiter::new(n);
        if let Ok(mut s) = l.state.lock() {
            s.ceiling = n.max(1);
            s.limit = n.max(1) as f64;
            s.epoch = u64::MAX;
            s.opening = 0;
        }
        l
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for room under the limit; a write goes before every read that waits. The
    /// first [`START_READS`] calls go at once ([`State::opening`]). A call given up while it
    /// waits is no longer counted ([`Waiting`]).
    pub async fn acquire(&self, write: bool) -> Permit {
        let mut waiting: Option<Waiting<'_>> = None;
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut s = self.lock();
                if s.in_flight < s.room() && (write || s.writes_waiting == 0) {
                    if let Some(w) = waiting.take() {
                        w.leave(&mut s);
                    }
                    s.opening = s.opening.saturating_sub(1);
                    s.in_flight += 1;
                    self.sent.send_replace(s.in_flight);
                    return Permit {
                        limiter: self.clone(),
                        started: Instant::now(),
                        epoch: s.epoch,
                        write,
                        done: false,
                    };
                }
                if waiting.is_none() {
                    waiting = Some(Waiting::join(self, &mut s, write));
                }
            }
            notified.await;
        }
    }

    /// The limit, calls in flight, and whether the server is slow (the limit was cut).
    pub fn pace(&self) -> Pace {
        let s = self.lock();
        let felt = s.overloaded
            || s.timing
                .iter()
                .any(|t| t.felt.is_some_and(|a| a >= SLOW_SHOWN));
        Pace {
            limit: s.allowed(),
            in_flight: s.in_flight,
            slowed: felt && s.cut_from.is_some_and(|c| s.limit + 0.5 < c),
        }
    }

    /// Calls on the wire (sent past the limit, not yet answered), sent at every change: what
    /// a front end shows as "N in flight" (calls waiting for room are not on the wire).
    pub fn watch_in_flight(&self) -> tokio::sync::watch::Receiver<usize> {
        self.sent.subscribe()
    }

    /// The pace when it differs from the last one this returned (a front end hears only of
    /// changes); `None` otherwise.
    pub fn pace_changed(&self) -> Option<Pace> {
        let pace = self.pace();
        let mut s = self.lock();
        let now = (pace.limit, pace.slowed);
        (s.reported != Some(now)).then(|| {
            s.reported = Some(now);
            pace
        })
    }

    /// Every change of the limit: `(seconds since the start, limit)`.
    pub fn history(&self) -> Vec<(f64, usize)> {
        let s = self.lock();
        s.history
            .iter()
            .map(|(t, l)| (t.duration_since(s.started).as_secs_f64(), *l))
            .collect()
    }

    fn finish(&self, epoch: u64, write: bool, took: Duration, signal: Signal) {
        let mut s = self.lock();
        let saturated = s.in_flight >= s.allowed();
        s.in_flight = s.in_flight.saturating_sub(1);
        self.sent.send_replace(s.in_flight);
        let adapts = s.epoch != u64::MAX;
        match signal {
            Signal::Neutral => {}
            Signal::Overloaded => {
                if adapts && epoch == s.epoch {
                    s.overloaded = true;
                    s.cut(0.5);
                }
            }
            Signal::Answered if adapts => {
                let t = &mut s.timing[Timing::of(write)];
                let (fastest, average) = t.add(took);
                let warm = t.answers > WARM_UP;
                if warm && average > fastest.mul_f64(JUMP_FACTOR) + JUMP_SLACK {
                    if epoch == s.epoch {
                        s.overloaded = false;
                        s.cut(0.8);
                        // The jump is measured again from the new level.
                        s.timing[Timing::of(write)].average = Some(fastest);
                    }
                } else if saturated && average <= fastest.mul_f64(GROW_FACTOR) + GROW_SLACK {
                    let step = if s.cut_from.is_some_and(|c| s.limit >= c - 1.0) {
                        0.25
                    } else {
                        1.0
                    };
                    let limit = s.limit + step / s.limit.max(1.0);
                    s.set(limit);
                }
            }
            Signal::Answered => {}
        }
        drop(s);
        self.notify.notify_waiters();
    }
}

/// A call counted as waiting for room ([`State::writes_waiting`], [`State::reads_waiting`])
/// until it gets room, or until its caller gives up (the count must not outlive it: a
/// write counted forever would hold every read back).
struct Waiting<'a> {
    limiter: &'a Limiter,
    write: bool,
    counted: bool,
}

impl<'a> Waiting<'a> {
    fn join(limiter: &'a Limiter, s: &mut State, write: bool) -> Waiting<'a> {
        *Waiting::count(s, write) += 1;
        Waiting {
            limiter,
            write,
            counted: true,
        }
    }

    fn count(s: &mut State, write: bool) -> &mut usize {
        if write {
            &mut s.writes_waiting
        } else {
            &mut s.reads_waiting
        }
    }

    /// The call got room: no longer waiting.
    fn leave(mut self, s: &mut State) {
        let c = Waiting::count(s, self.write);
        *c = c.saturating_sub(1);
        self.counted = false;
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.counted {
            let mut s = self.limiter.lock();
            let c = Waiting::count(&mut s, self.write);
            *c = c.saturating_sub(1);
            drop(s);
            // A read held back by this write may go now.
            self.limiter.notify.notify_waiters();
        }
    }
}

/// Room for one call; give it back with [`Permit::done`] (dropped without it, the call
/// counts as saying nothing about load).
#[derive(Debug)]
pub struct Permit {
    limiter: Limiter,
    started: Instant,
    epoch: u64,
    /// A write (timed apart from reads).
    write: bool,
    done: bool,
}

impl Permit {
    /// The call ended: what its answer says about load.
    pub fn done(mut self, signal: Signal) {
        self.done = true;
        self.limiter
            .finish(self.epoch, self.write, self.started.elapsed(), signal);
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if !self.done {
            self.limiter.finish(
                self.epoch,
                self.write,
                self.started.elapsed(),
                Signal::Neutral,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` calls (writes, or reads) answered together after `took`, each with `signal`.
    async fn answer_as(l: &Limiter, write: bool, n: usize, took: Duration, signal: Signal) {
        let mut permits = Vec::new();
        for _ in 0..n {
            permits.push(l.acquire(write).await);
        }
        tokio::time::sleep(took).await;
        for p in permits {
            p.done(signal);
        }
    }

    async fn answer(l: &Limiter, n: usize, took: Duration, signal: Signal) {
        answer_as(l, true, n, took, signal).await;
    }

    #[tokio::test(start_paused = true)]
    async fn starts_low_grows_while_answers_keep_their_pace_and_stops_at_the_ceiling() {
        let l = Limiter::new(64);
        assert_eq!(l.pace().limit, START);
        for _ in 0..200 {
            let n = l.pace().limit;
            answer(&l, n, Duration::from_millis(1), Signal::Answered).await;
        }
        assert_eq!(l.pace().limit, SAFE_MAX, "never past the safe maximum");
        assert_eq!(Limiter::new(3).pace().limit, 2, "two calls at first");
        assert_eq!(Limiter::new(1).pace().limit, 1, "never past the ceiling");
    }

    /// The start's first calls go at once, past the limit (the probe is a `PUT`); the
    /// fourth waits for room, and once they are answered the limit holds.
    #[tokio::test(start_paused = true)]
    async fn the_start_s_calls_go_at_once_and_then_the_limit_holds() {
        let l = Limiter::new(8);
        let first = vec![
            l.acquire(false).await,
            l.acquire(true).await,
            l.acquire(false).await,
        ];
        assert_eq!(START_READS, 3);
        assert_eq!(
            l.pace().in_flight,
            START_READS,
            "{START_READS} calls at once"
        );
        let fourth = tokio::time::timeout(Duration::from_millis(10), l.acquire(false)).await;
        assert!(
            fourth.is_err(),
            "the fourth call waits: the limit is {START}"
        );
        drop(first);
        let _a = l.acquire(false).await;
        let _b = l.acquire(false).await;
        let third = tokio::time::timeout(Duration::from_millis(10), l.acquire(false)).await;
        assert!(third.is_err(), "after the start, the limit holds");
        let one = Limiter::new(1);
        let p = one.acquire(false).await;
        let more = tokio::time::timeout(Duration::from_millis(10), one.acquire(false)).await;
        assert!(more.is_err(), "never past the ceiling");
        drop(p);
    }

    #[tokio::test(start_paused = true)]
    async fn an_overload_halves_once_per_round_and_says_the_server_is_slow() {
        let l = Limiter::new(12);
        for _ in 0..100 {
            let n = l.pace().limit;
            answer(&l, n, Duration::from_millis(1), Signal::Answered).await;
        }
        assert_eq!(l.pace().limit, 12);
        // Twelve time-outs of one round cut once, not twelve times.
        answer(&l, 12, Duration::from_millis(1), Signal::Overloaded).await;
        let p = l.pace();
        assert_eq!(p.limit, 6);
        assert!(p.slowed);
    }

    #[tokio::test(start_paused = true)]
    async fn a_latency_jump_cuts_back() {
        let l = Limiter::new(12);
        for _ in 0..30 {
            let n = l.pace().limit;
            answer(&l, n, Duration::from_millis(2), Signal::Answered).await;
        }
        let before = l.pace().limit;
        for _ in 0..5 {
            let n = l.pace().limit;
            answer(&l, n, Duration::from_millis(60), Signal::Answered).await;
        }
        assert!(l.pace().limit < before, "{:?} from {before}", l.pace());
        assert!(
            !l.pace().slowed,
            "answers of 60 ms are no slow server to a moderator: {:?}",
            l.pace()
        );
        // Answers of a second: that is slow, and reported.
        for _ in 0..5 {
            let n = l.pace().limit;
            answer(&l, n, Duration::from_secs(1), Signal::Answered).await;
        }
        assert!(l.pace().slowed, "{:?}", l.pace());
    }

    #[tokio::test(start_paused = true)]
    async fn writes_slower_than_reads_are_no_jump() {
        // Reads of a server at ease come in 1 ms; its approvals take 50 ms (they write).
        let l = Limiter::new(8);
        for _ in 0..20 {
            answer_as(
                &l,
                false,
                l.pace().limit,
                Duration::from_millis(1),
                Signal::Answered,
            )
            .await;
        }
        let before = l.pace().limit;
        for _ in 0..40 {
            answer_as(
                &l,
                true,
                l.pace().limit,
                Duration::from_millis(50),
                Signal::Answered,
            )
            .await;
        }
        let p = l.pace();
        assert!(!p.slowed && p.limit >= before, "{p:?} from {before}");
        assert_eq!(p.limit, 8, "the writes grow it to the ceiling: {p:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn writes_go_before_waiting_reads() {
        let l = Limiter::fixed(1);
        let first = l.acquire(false).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let (a, b) = (l.clone(), l.clone());
        let (o1, o2) = (order.clone(), order.clone());
        let read = tokio::spawn(async move {
            let p = a.acquire(false).await;
            o1.lock().map(|mut v| v.push("read")).ok();
            p.done(Signal::Answered);
        });
        tokio::task::yield_now().await;
        let write = tokio::spawn(async move {
            let p = b.acquire(true).await;
            o2.lock().map(|mut v| v.push("write")).ok();
            p.done(Signal::Answered);
        });
        tokio::task::yield_now().await;
        first.done(Signal::Answered);
        let _ = tokio::join!(read, write);
        let order = order.lock().map(|v| v.clone()).unwrap_or_default();
        assert_eq!(order, vec!["write", "read"]);
    }

    /// A write that waits and is given up (its caller dropped) no longer holds reads back.
    #[tokio::test(start_paused = true)]
    async fn a_waiting_write_given_up_holds_no_read_back() {
        let l = Limiter::fixed(1);
        let first = l.acquire(false).await;
        let gave_up = tokio::time::timeout(Duration::from_millis(10), l.acquire(true)).await;
        assert!(gave_up.is_err(), "the write waited, then was given up");
        first.done(Signal::Answered);
        let read = tokio::time::timeout(Duration::from_millis(10), l.acquire(false)).await;
        assert!(read.is_ok(), "the read has the room");
    }
}
