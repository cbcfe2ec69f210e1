//! Key exchanges paced to the runtime's own speed, so hundreds of connections at once
//! still get their first frames quickly.
//!
//! A connection's key exchange and sign-in are a few steps of real work each (the
//! post-quantum key agreement, the host key's signature, the client's signature checked),
//! and a session's first frame is one more. When 500 moderators connect in the same second,
//! every step of every connection waits in the runtime's one queue behind every other's: a
//! session that has signed in and asked for its shell waits as long as the queue is, and so
//! its first frame came 200 to 400 ms after the request on 2 cores. Here a new connection
//! starts its key exchange (its identification line is read) only when [`Pace`] gives it
//! its turn: a pacer task lets `per_turn` connections in, in the order they came, each
//! time the runtime gets round to it again. The pacer waits in the same queue as all the
//! work it lets in, so it lets connections in as fast as the cores take them and no faster:
//! on an idle server a connection waits one turn of the runtime (microseconds); in a storm
//! the queue stays short, and a session that has got this far is answered in a few
//! milliseconds, while the connections still waiting their turn cost nothing but a socket.
//! Unlike a fixed number of key exchanges at once (tried and not kept: it left the cores
//! idle while the connections in their turn waited for their clients), nothing here
//! depends on how fast the clients are.
//!
//! A connection waiting its turn is still at the door ([`super::door`]): silent, it goes
//! first when a new one needs its place; `--auth-timeout` counts from its accept, as
//! OpenSSH's `LoginGraceTime` does.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, oneshot};

/// Connections let in at each turn of the pacer.
pub(crate) const PER_TURN: usize = 2;

/// The queue of connections waiting for their turn, and the pacer that gives it.
#[derive(Debug, Default)]
pub(crate) struct Pace {
    waiting: Mutex<VecDeque<oneshot::Sender<()>>>,
    /// Someone came to a pacer with nobody waiting, or the pace is gone.
    came: Arc<Notify>,
}

impl Pace {
    /// A pace whose pacer runs in a task of the current runtime until the pace is dropped,
    /// letting `per_turn` connections in at each of its turns.
    pub(crate) fn start(per_turn: usize) -> Arc<Pace> {
        let pace = Arc::new(Pace::default());
        let (weak, came) = (Arc::downgrade(&pace), pace.came.clone());
        tokio::spawn(async move {
            loop {
                let let_in = match weak.upgrade() {
                    Some(pace) => pace.let_in(per_turn.max(1)),
                    None => break,
                };
                if let_in == 0 {
                    // Nobody waits: until someone comes (or the pace is dropped).
                    came.notified().await;
                } else {
                    // The next turn after everything now in the runtime's queue.
                    tokio::task::yield_now().await;
                }
            }
        });
        pace
    }

    /// Lets up to `n` waiting connections in, the oldest first (one that gave up is
    /// skipped). How many were let in.
    fn let_in(&self, n: usize) -> usize {
        let Ok(mut waiting) = self.waiting.lock() else {
            return 0;
        };
        let mut let_in = 0;
        while let_in < n {
            let Some(next) = waiting.pop_front() else {
                break;
            };
            if next.send(()).is_ok() {
                let_in += 1;
            }
        }
        let_in
    }

    /// Resolves when this connection's turn comes: after those that came before it, at the
    /// runtime's pace. A pace whose pacer is gone lets everyone in at once.
    pub(crate) async fn turn(&self) {
        let (tx, rx) = oneshot::channel();
        match self.waiting.lock() {
            Ok(mut waiting) => waiting.push_back(tx),
            Err(_) => return,
        }
        self.came.notify_one();
        let _ = rx.await;
    }

    /// Connections waiting for their turn now (for the operator's status).
    pub(crate) fn waiting(&self) -> usize {
        self.waiting.lock().map(|w| w.len()).unwrap_or(0)
    }
}

impl Drop for Pace {
    fn drop(&mut self) {
        // The pacer wakes, finds the pace gone and ends.
        self.came.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn connections_are_let_in_in_the_order_they_came_a_few_at_each_turn() {
        let pace = Pace::start(2);
        let order = Arc::new(Mutex::new(Vec::new()));
        let tasks: Vec<_> = (0..7)
            .map(|i| {
                let (pace, order) = (pace.clone(), order.clone());
                tokio::spawn(async move {
                    pace.turn().await;
                    order.lock().expect("order").push(i);
                })
            })
            .collect();
        for t in tasks {
            t.await.expect("let in");
        }
        assert_eq!(*order.lock().expect("order"), (0..7).collect::<Vec<_>>());
        assert_eq!(pace.waiting(), 0);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_turn_lets_no_more_than_its_share_in_before_the_work_it_let_in_runs() {
        let pace = Pace::start(2);
        let let_in = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        for _ in 0..6 {
            let (pace, let_in) = (pace.clone(), let_in.clone());
            tokio::spawn(async move {
                pace.turn().await;
                let_in.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            });
        }
        // Every connection queues, the pacer lets 2 in and yields: they run before its
        // next turn, so after each of this task's yields the count grows by 2 at most.
        let mut seen = Vec::new();
        for _ in 0..20 {
            tokio::task::yield_now().await;
            seen.push(let_in.load(std::sync::atomic::Ordering::SeqCst));
        }
        assert_eq!(seen.last(), Some(&6), "{seen:?}");
        assert!(
            seen.windows(2).all(|w| w[1] - w[0] <= 2),
            "at most two a turn: {seen:?}"
        );
        assert!(seen.windows(2).any(|w| w[1] > w[0] && w[0] > 0), "{seen:?}");
    }
}
