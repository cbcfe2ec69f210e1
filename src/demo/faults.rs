//! Fault injection for tests and demonstrations: added latency, failures, dropped connections.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use super::routes::{AppState, error};

/// Faults applied to every request; all off by default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    /// Fixed delay before answering.
    pub latency: Duration,
    /// Extra random delay, uniform in `0..=jitter`.
    pub jitter: Duration,
    /// Share of requests (0.0 to 1.0) answered with 500 or 503.
    pub failure_rate: f64,
    /// Share of requests (0.0 to 1.0) whose connection is closed with no response at all,
    /// before the handler runs: the request changed nothing.
    pub drop_rate: f64,
    /// Share of successful writes (PUT, POST, DELETE, PATCH answered 2xx) whose answer is lost
    /// *after* the write committed: the handler runs, then the connection is closed with no
    /// response. The client sees a connection error while the server holds
    /// the new state; only a re-read tells the truth. Refused writes changed nothing and are
    /// answered as usual.
    pub drop_after_write_rate: f64,
    /// The time between an approval's or decline's check that the request is pending and
    /// its write, as the deployed 0.8.4 service reads, then writes: two decisions on one
    /// request within it are both accepted (200 and 200) and the last one stays. Zero: the
    /// check and the write are one step (the second is refused).
    pub race: Duration,
}

/// True for the methods that change data on the server.
fn is_write(method: &Method) -> bool {
    matches!(
        *method,
        Method::PUT | Method::POST | Method::DELETE | Method::PATCH
    )
}

/// Closes the connection without writing a response. Unwinding out of the connection task
/// makes hyper drop the socket, as a crashed upstream does; `resume_unwind` skips the panic
/// hook, so nothing is printed over a terminal user interface sharing the process.
fn drop_connection(what: &'static str) -> ! {
    std::panic::resume_unwind(Box::new(what))
}

/// The middleware: sleeps, then maybe fails or drops, else passes the request on; a write's
/// answer may then be dropped after the handler ran.
pub async fn inject(State(state): State<AppState>, req: Request, next: Next) -> Response {
    state
        .calls
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if is_write(req.method())
        && let Ok(mut w) = state.writes.lock()
    {
        w.push(format!("{} {}", req.method(), req.uri().path()));
    }
    let faults = state.faults.lock().map(|f| f.clone()).unwrap_or_default();
    let mut delay = faults.latency;
    if !faults.jitter.is_zero() {
        delay += faults.jitter.mul_f64(fastrand::f64());
    }
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    if faults.drop_rate > 0.0 && fastrand::f64() < faults.drop_rate {
        drop_connection("demo fault: connection dropped");
    }
    if faults.failure_rate > 0.0 && fastrand::f64() < faults.failure_rate {
        return if fastrand::bool() {
            error(
                500,
                "internal_server_error",
                "Internal server error (injected)",
            )
        } else {
            error(503, "service_unavailable", "Service unavailable (injected)")
        };
    }
    let write = is_write(req.method());
    let response = next.run(req).await;
    if write
        && response.status().is_success()
        && faults.drop_after_write_rate > 0.0
        && fastrand::f64() < faults.drop_after_write_rate
    {
        drop_connection("demo fault: answer dropped after the write");
    }
    response
}
