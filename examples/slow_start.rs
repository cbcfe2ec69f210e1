//! Measuring harness: time from start to the first rows shown, over a slow
//! link, through the real `update`, worker and HTTP client ([`Headless`]) against the demo
//! server. Prints the figures; asserts nothing.
//!
//! Run: `cargo run --release --example slow_start -- [ROUND_TRIP_MS] [RUNS]` (defaults 300, 3).
//!
//! Three links are measured, each cold and warm:
//! - `latency`: the demo server's latency fault (every call sleeps ROUND_TRIP_MS in the
//!   server; connections are free);
//! - `proxy`: a [`DelayProxy`] in front of the demo (ROUND_TRIP_MS per round trip, half each
//!   way; connections free);
//! - `proxy+tcp`: the same, and every new connection waits one more round trip (the TCP
//!   handshake; https to the deployed service adds one more for TLS 1.3).
//!
//! Cold: a fresh model. Warm: a model that got, as the event loop's first message, the
//! `SavedQueue` a previous run left ([`Model::saved_queue`], restored with `Msg::Restore`, as
//! `runtime::dashboard` does with the queue file); whatever the start-up remembers per server
//! must travel that way (or the lead changes this harness with it).
//!
//! "rows" is the time until a visible queue row has its request loaded; "settled" until no
//! call is in flight; "calls" how many HTTP requests the demo had received when the rows
//! showed, and in all. Target: warm rows ≤ 1 round trip + 150 ms, cold ≤ 3 + 150.

#[path = "../tests/common/headless.rs"]
mod headless;

use headless::Headless;

use std::time::Duration;

use club_admin::api::{ApiClient, ClientOptions, Credentials};
use club_admin::app::model::SavedQueue;
use club_admin::app::{Model, ModelOptions, Msg};
use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};
use tokio::time::Instant;

#[path = "../tests/common/proxy.rs"]
mod proxy;

use proxy::{DelayProxy, ProxyOptions};

/// One start: when rows showed, when everything settled, calls by then.
struct Figures {
    rows: Option<Duration>,
    settled: Duration,
    calls_at_rows: u64,
    calls: u64,
}

#[derive(Clone, Copy)]
enum Link {
    Latency,
    Proxy { connect_round_trips: u32 },
}

impl Link {
    fn name(self) -> &'static str {
        match self {
            Link::Latency => "latency",
            Link::Proxy {
                connect_round_trips: 0,
            } => "proxy",
            Link::Proxy { .. } => "proxy+tcp",
        }
    }
}

fn shown(model: &Model) -> bool {
    let q = &model.queue();
    q.visible()
        .iter()
        .any(|&i| q.items().get(i).is_some_and(|item| item.request.is_some()))
}

/// Starts the app once against `base_url` (after `restore`, if any) and times it.
async fn start_once(
    d: &DemoHandle,
    base_url: &str,
    restore: Option<SavedQueue>,
) -> Result<(Figures, SavedQueue), String> {
    let m = d.moderator().clone();
    let client = ApiClient::new(
        base_url,
        Credentials::new(Some(m.api_key), Some(m.token)),
        ClientOptions::default(),
    )
    .map_err(|e| e.to_string())?;
    let model = Model::new(ModelOptions {
        token_expires: client.token_expiry(),
        // As the runtime keys the demo's saved state: by "demo", not by its changing port.
        server_key: Some("demo".into()),
        ..ModelOptions::new(base_url)
    });
    let calls_before = d.calls();
    let start = Instant::now();
    let mut h = Headless::new(model, client, 8);
    if let Some(saved) = restore {
        h.send(Msg::Restore(saved));
    }
    let mut rows = None;
    let mut calls_at_rows = 0;
    let deadline = start + Duration::from_secs(120);
    loop {
        // A short settle applies every answer that arrives within it; the model is looked
        // at between two, so the time is known to about a millisecond.
        let settled = h.run_until_idle(Duration::from_millis(1)).await.is_ok();
        if rows.is_none() && shown(&h.model) {
            rows = Some(start.elapsed());
            calls_at_rows = d.calls() - calls_before;
        }
        if settled {
            break;
        }
        if Instant::now() > deadline {
            return Err("not settled after 120 s".into());
        }
    }
    let figures = Figures {
        rows,
        settled: start.elapsed(),
        calls_at_rows,
        calls: d.calls() - calls_before,
    };
    Ok((figures, h.model.saved_queue()))
}

fn ms(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1000.0)
}

async fn measure(link: Link, rtt: Duration, runs: usize) -> Result<(), String> {
    let d = demo::start(DemoOptions::default()).await?;
    let proxy;
    let base_url = match link {
        Link::Latency => {
            d.set_faults(Faults {
                latency: rtt,
                ..Faults::default()
            });
            d.base_url.clone()
        }
        Link::Proxy {
            connect_round_trips,
        } => {
            proxy = DelayProxy::start(
                d.addr,
                ProxyOptions {
                    round_trip: rtt,
                    connect_round_trips,
                },
            )
            .await?;
            proxy.base_url.clone()
        }
    };
    let mut saved = None;
    for run in 1..=runs {
        for warm in [false, true] {
            let restore = if warm { saved.clone() } else { None };
            if warm && restore.is_none() {
                continue;
            }
            let (f, next) = start_once(&d, &base_url, restore).await?;
            saved = Some(next);
            let rows = f.rows.map(ms).unwrap_or_else(|| "never".into());
            let trips = f
                .rows
                .map(|r| format!("{:.2}", r.as_secs_f64() / rtt.as_secs_f64()))
                .unwrap_or_else(|| "-".into());
            println!(
                "{:<10} {:<5} run {run}  rows {rows:>6} ms ({trips:>4} round trips)  settled {:>6} ms  calls {} before rows, {} in all",
                link.name(),
                if warm { "warm" } else { "cold" },
                ms(f.settled),
                f.calls_at_rows,
                f.calls,
            );
        }
    }
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rtt_ms: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let runs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let rtt = Duration::from_millis(rtt_ms);
    println!(
        "slow start: round trip {rtt_ms} ms, {runs} run(s) per link; targets: warm rows <= {} ms, cold <= {} ms",
        rtt_ms + 150,
        3 * rtt_ms + 150
    );
    for link in [
        Link::Latency,
        Link::Proxy {
            connect_round_trips: 0,
        },
        Link::Proxy {
            connect_round_trips: 1,
        },
    ] {
        if let Err(e) = measure(link, rtt, runs).await {
            println!("{}: failed: {e}", link.name());
        }
    }
}
