//! The deployed service's database pool, imitated (`serve-demo --pool N`): each
//! authenticated request holds one of N connections in its sign-in step while its handler
//! waits for a second, each wait bounded by the pool's acquire timeout (deployed
//! behaviour, api-notes.md "Other": `PgPoolOptions::max_connections(16)`). With N or more
//! authenticated requests in flight they wait on each other until the timeout, then fail
//! with 500, and nothing they asked is done.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use tokio::sync::Semaphore;

use super::routes::{AppState, error};

/// How the imitated pool behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct Pool {
    /// Connections in the pool (the deployed service: 16).
    pub size: usize,
    /// How long a request waits for a connection before it fails with 500.
    pub acquire_timeout: Duration,
    /// How long a handler holds its two connections (its queries' time).
    pub hold: Duration,
}

impl Pool {
    /// The deployed service's pool of `size` connections: a 5 s acquire timeout (shorter
    /// than the service's tens of seconds, so tests and demos do not wait as long) and 2 ms
    /// of queries per request (the measured 2.2 ms per approval, api-notes.md).
    pub fn deployed(size: usize) -> Pool {
        Pool {
            size,
            acquire_timeout: Duration::from_secs(5),
            hold: Duration::from_millis(2),
        }
    }
}

/// The pool's connections, shared by the requests.
#[derive(Debug, Clone)]
pub struct Connections {
    pool: Pool,
    slots: Arc<Semaphore>,
}

impl Connections {
    /// A pool of `pool.size` free connections.
    pub fn new(pool: Pool) -> Connections {
        Connections {
            slots: Arc::new(Semaphore::new(pool.size.max(1))),
            pool,
        }
    }

    async fn one(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        tokio::time::timeout(
            self.pool.acquire_timeout,
            self.slots.clone().acquire_owned(),
        )
        .await
        .ok()?
        .ok()
    }
}

/// Authenticated requests in flight: now, and the most at once so far.
#[derive(Debug, Default)]
pub struct InFlight {
    now: std::sync::atomic::AtomicUsize,
    peak: std::sync::atomic::AtomicUsize,
}

impl InFlight {
    /// The most requests in flight at once so far.
    pub fn peak(&self) -> usize {
        self.peak.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Counts one request in flight while it lives.
struct Counted<'a>(&'a InFlight);

impl<'a> Counted<'a> {
    fn new(f: &'a InFlight) -> Counted<'a> {
        use std::sync::atomic::Ordering::Relaxed;
        let n = f.now.fetch_add(1, Relaxed) + 1;
        f.peak.fetch_max(n, Relaxed);
        Counted(f)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0
            .now
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// True for the routes that sign the caller in (the ones that take a connection).
fn authenticated(path: &str) -> bool {
    path.starts_with("/v1/") || path == "/auth/user"
}

fn timed_out() -> Response {
    error(
        500,
        "internal_server_error",
        "pool timed out while waiting for an open connection",
    )
}

/// The middleware: one connection for the sign-in, a second for the handler, both held
/// while it runs.
pub async fn hold(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let in_flight = state.in_flight.clone();
    let _counted = authenticated(req.uri().path()).then(|| Counted::new(&in_flight));
    let Some(conns) = state.pool.clone() else {
        return next.run(req).await;
    };
    if !authenticated(req.uri().path()) {
        return next.run(req).await;
    }
    let Some(sign_in) = conns.one().await else {
        return timed_out();
    };
    let Some(handler) = conns.one().await else {
        drop(sign_in);
        return timed_out();
    };
    tokio::time::sleep(conns.pool.hold).await;
    let response = next.run(req).await;
    drop((sign_in, handler));
    response
}
