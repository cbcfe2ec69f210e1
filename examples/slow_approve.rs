//! Measuring harness: twenty approvals with twenty key presses over a link
//! with 300 ms per call, through the real `update`, worker and HTTP client ([`Headless`])
//! against the demo server. Prints how long `update` took for each key (the model's time:
//! no key may wait for the network) and for each answer, and checks on the server that all
//! twenty landed. Asserts nothing about time.
//!
//! Run: `cargo run --release --example slow_approve -- [LATENCY_MS] [KEYS] [GAP_MS]`
//! (defaults 300, 20, 50: a key every 50 ms, faster than the server answers).

#[path = "../tests/common/headless.rs"]
mod headless;

use headless::Headless;

use std::time::Duration;

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::app::{Key, Model, ModelOptions, Msg};
use club_admin::demo::{self, DemoOptions, Faults};
use tokio::time::Instant;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(name: &str, mut v: Vec<Duration>) {
    if v.is_empty() {
        println!("{name:<28} none");
        return;
    }
    v.sort_unstable();
    println!(
        "{name:<28} n={:<3} min {:>7.3} ms  median {:>7.3} ms  max {:>7.3} ms",
        v.len(),
        ms(v[0]),
        ms(v[v.len() / 2]),
        ms(v[v.len() - 1])
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let latency: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let keys: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let gap: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(50);
    let d = demo::start(DemoOptions::default()).await?;
    let m = d.moderator().clone();
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(m.api_key), Some(m.token)),
        ClientOptions::default(),
    )
    .map_err(|e| e.to_string())?;
    let model = Model::new(ModelOptions {
        token_expires: client.token_expiry(),
        ..ModelOptions::new(&d.base_url)
    });
    let mut h = Headless::new(model, client, 8);
    h.run_until_idle(Duration::from_secs(30)).await?;
    let _ = h.send_timed(Msg::Layout { queue_rows: 33 });
    d.set_faults(Faults {
        latency: Duration::from_millis(latency),
        ..Faults::default()
    });
    println!(
        "{keys} approvals, one key every {gap} ms, {latency} ms per call, {} calls at once at most",
        8
    );
    let mut key_times = Vec::new();
    let mut targets = Vec::new();
    let started = Instant::now();
    for _ in 0..keys {
        let Some(row) = h.model.queue().selected() else {
            return Err("the queue ran out of rows".into());
        };
        targets.push(row.id);
        key_times.push(h.send_timed(Msg::Key(Key::char('a'))));
        // Answers that arrive before the next key are applied, as the event loop does.
        let _ = h.run_until_idle(Duration::from_millis(gap)).await;
    }
    let keys_done = started.elapsed();
    h.run_until_idle(Duration::from_secs(60)).await?;
    let landed = started.elapsed();
    summary("update per key press", key_times);
    let landed_ok = targets
        .iter()
        .filter(|id| d.request_status(**id) == Some(MembershipStatus::Approved))
        .count();
    let writes = d
        .mutations()
        .iter()
        .filter(|m| m.starts_with("update"))
        .count();
    println!(
        "keys pressed in {:.0} ms; all answers in {:.0} ms; approved on the server: {landed_ok} of {keys}; writes the server saw: {writes}",
        ms(keys_done),
        ms(landed)
    );
    Ok(())
}
