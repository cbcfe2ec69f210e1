//! Measuring harness: approve N requests in one bulk action against the demo server
//! with added latency, at the configured concurrency and sequentially, through the real
//! `update`, worker and HTTP client. Prints the figures.
//!
//! Run: `cargo run --release --example bulk_approve -- [N] [LATENCY_MS] [CONCURRENCY]`
//! (defaults 1000, 50, 8). Target: at most 1.3 x N x latency / concurrency.

#[path = "../tests/common/headless.rs"]
mod headless;

use headless::Headless;

use std::time::{Duration, Instant};

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::app::{Key, KeyCode};
use club_admin::app::{Model, ModelOptions, Msg, Popup};
use club_admin::demo::{self, DemoOptions, Faults};

fn key(c: char) -> Msg {
    Msg::Key(Key::char(c))
}

async fn run(n: usize, latency: Duration, concurrency: usize) -> Result<Duration, String> {
    let d = demo::start(DemoOptions {
        extra_requests: n,
        ..DemoOptions::default()
    })
    .await?;
    let u = d.moderator().clone();
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key), Some(u.token)),
        ClientOptions {
            concurrency,
            ..ClientOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    // No grace period: the harness measures sending.
    let model = Model::new(ModelOptions {
        decision_delay: Duration::ZERO,
        ..ModelOptions::new(&d.base_url)
    });
    let limiter = client.limiter().clone();
    let mut h = Headless::new(model, client, concurrency);
    h.run_until_idle(Duration::from_secs(60)).await?;
    let ids: Vec<String> = d
        .pending_for("moderator")
        .iter()
        .take(n)
        .map(|i| i.to_string())
        .collect();
    h.send(Msg::AddIds {
        text: ids.join("\n"),
        origin: club_admin::app::IdsFrom::Dialog,
    });
    h.run_until_idle(Duration::from_secs(120)).await?;
    // Only the N chosen rows are marked.
    h.send(Msg::Key(Key::new(KeyCode::Char('/'))));
    h.send(Msg::Key(Key::new(KeyCode::Enter)));
    // Down the queue from the top: Space marks a chosen row (and moves down), j passes by.
    h.send(key('g'));
    for _ in 0..h.model.queue().visible().len() {
        let chosen = h
            .model
            .queue()
            .selected()
            .is_some_and(|i| ids.contains(&i.id.to_string()));
        h.send(key(if chosen { ' ' } else { 'j' }));
    }
    h.run_until_idle(Duration::from_secs(120)).await?;
    let marked = h.model.queue().stats().marked;
    if marked != n {
        return Err(format!("marked {marked}, expected {n}"));
    }
    d.set_faults(Faults {
        latency,
        ..Faults::default()
    });
    let start = Instant::now();
    h.send(key('a'));
    if !matches!(h.model.popup(), Some(Popup::Confirm { .. })) {
        return Err("no confirmation".into());
    }
    h.send(key('y'));
    h.run_until_idle(Duration::from_secs(600)).await?;
    let took = start.elapsed();
    // How the limit of calls in flight went (the client adapts it to the server's speed).
    let changes = limiter.history();
    let top = changes.iter().map(|(_, l)| *l).max().unwrap_or(0);
    println!(
        "  limit of calls in flight: {} changes, at most {top}, last {:?}",
        changes.len(),
        changes.last().map(|(_, l)| *l)
    );
    let approved = ids
        .iter()
        .filter_map(|i| i.parse().ok())
        .filter(|i| d.request_status(*i) == Some(MembershipStatus::Approved))
        .count();
    if approved != n {
        return Err(format!("{approved} of {n} approved on the server"));
    }
    let muts = d.mutations();
    if muts.len() != n {
        return Err(format!("{} mutations for {n} requests", muts.len()));
    }
    Ok(took)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let latency_ms: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let conc: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(8);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let latency = Duration::from_millis(latency_ms);
    let ideal = latency.as_secs_f64() * n as f64 / conc as f64;
    let t = rt.block_on(run(n, latency, conc))?;
    println!(
        "bulk approve: {n} requests, {latency_ms} ms latency, concurrency {conc}: {:.2} s (ideal {:.2} s, ratio {:.2}, target <= 1.30)",
        t.as_secs_f64(),
        ideal,
        t.as_secs_f64() / ideal
    );
    let seq = rt.block_on(run(n, latency, 1))?;
    println!(
        "bulk approve: {n} requests, {latency_ms} ms latency, sequential: {:.2} s ({:.1}x slower)",
        seq.as_secs_f64(),
        seq.as_secs_f64() / t.as_secs_f64()
    );
    Ok(())
}
