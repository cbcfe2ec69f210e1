//! Fault injection for tests and demonstrations: added latency, failures, dropped connections.

use std::time::Duration;

use axum::extract::{Request, State};
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
    /// Share of requests (0.0 to 1.0) whose connection is closed with no response at all.
    pub drop_rate: f64,
}

/// The middleware: sleeps, then maybe fails or drops, else passes the request on.
pub async fn inject(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let faults = state.faults.lock().map(|f| f.clone()).unwrap_or_default();
    let mut delay = faults.latency;
    if !faults.jitter.is_zero() {
        delay += faults.jitter.mul_f64(fastrand::f64());
    }
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    if faults.drop_rate > 0.0 && fastrand::f64() < faults.drop_rate {
        // Unwinding out of the connection task makes hyper close the socket without writing
        // a response, as a crashed upstream does. `resume_unwind` skips the panic hook, so
        // nothing is printed over a terminal user interface sharing the process.
        std::panic::resume_unwind(Box::new("demo fault: connection dropped"));
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
    next.run(req).await
}
