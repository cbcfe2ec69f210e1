//! Measuring harness: three dashboards bulk-approving at once against one server. Each is a
//! whole dashboard (the real `update`, worker, limiter and HTTP client, driven headless), its
//! own client as a process would have it, marks its own 500 pending requests and approves
//! them (`a`, `y`) at the same moment, against the demo imitating the deployed service's
//! database pool (`--pool 16`: it stalls at 16 requests in flight), while a fourth client
//! reads `/auth/user` every 100 ms. With the host budget (one budget of 12 for the three, as
//! for three processes of one host) and without it (as on three hosts); and one dashboard
//! approving all 1,500 as the yardstick.
//!
//! Prints per run: the time, how many were approved, how many were written more than once,
//! the reader's worst wait and the most requests in flight at the server. Asserts nothing.
//! Targets: all land exactly once, the reader never waits more than 1 s, three at once take
//! at most 1.5x one doing all.
//!
//! Run: `cargo run --release --example many_dashboards -- [DASHBOARDS] [EACH]` (defaults 3,
//! 500).

#[path = "shared/reader.rs"]
mod reader;

#[path = "../tests/common/headless.rs"]
mod headless;

use headless::Headless;

use std::time::{Duration, Instant};

use club_admin::api::budget::BudgetOptions;
use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::app::{IdsFrom, Key, KeyCode, Model, ModelOptions, Msg, Popup};
use club_admin::demo::{self, DemoOptions, Pool};
use uuid::Uuid;

fn key(c: char) -> Msg {
    Msg::Key(Key::char(c))
}

/// A dashboard signed in as the moderator with `ids` (and its first listing page) in its
/// queue, exactly `ids` marked.
async fn ready(
    base_url: &str,
    creds: &Credentials,
    ids: &[Uuid],
    budget: Option<BudgetOptions>,
) -> Result<Headless, String> {
    let client = ApiClient::new(
        base_url,
        creds.clone(),
        ClientOptions {
            concurrency: 64,
            host_budget: budget,
            ..ClientOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let model = Model::new(ModelOptions {
        decision_delay: Duration::ZERO,
        ..ModelOptions::new(base_url)
    });
    let mut h = Headless::new(model, client, 64);
    h.run_until_idle(Duration::from_secs(60)).await?;
    let text: Vec<String> = ids.iter().map(Uuid::to_string).collect();
    h.send(Msg::AddIds {
        text: text.join("\n"),
        origin: IdsFrom::Dialog,
    });
    h.run_until_idle(Duration::from_secs(120)).await?;
    h.send(Msg::Key(Key::new(KeyCode::Char('/'))));
    h.send(Msg::Key(Key::new(KeyCode::Enter)));
    h.send(key('g'));
    for _ in 0..h.model.queue().visible().len() {
        let chosen = h
            .model
            .queue()
            .selected()
            .is_some_and(|i| ids.contains(&i.id));
        h.send(key(if chosen { ' ' } else { 'j' }));
    }
    h.run_until_idle(Duration::from_secs(120)).await?;
    let marked = h.model.queue().stats().marked;
    if marked != ids.len() {
        return Err(format!("marked {marked}, expected {}", ids.len()));
    }
    Ok(h)
}

struct Figure {
    took: Duration,
    approved: usize,
    twice: usize,
    worst_read: Duration,
    peak: usize,
}

async fn once(dashboards: usize, each: usize, budget: bool) -> Result<Figure, String> {
    let n = dashboards * each;
    let d = demo::start(DemoOptions {
        extra_requests: n,
        pool: Some(Pool::deployed(16)),
        ..DemoOptions::default()
    })
    .await?;
    let u = d.moderator().clone();
    let creds = Credentials::new(Some(u.api_key.clone()), Some(u.token.clone()));
    let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(n).collect();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let options = budget.then(|| BudgetOptions {
        slots: 12,
        dir: dir.path().join("budget"),
        service: false,
    });
    let mut hs = Vec::new();
    for chunk in ids.chunks(each) {
        hs.push(ready(&d.base_url, &creds, chunk, options.clone()).await?);
    }
    let reader = ApiClient::new(&d.base_url, creds.clone(), ClientOptions::default())
        .map_err(|e| e.to_string())?;
    let reader = reader::Reader::start(reader);
    let before = d.mutations().len();
    let started = Instant::now();
    for h in hs.iter_mut() {
        h.send(key('a'));
        if !matches!(h.model.popup(), Some(Popup::Confirm { .. })) {
            return Err("no confirmation".into());
        }
    }
    for h in hs.iter_mut() {
        h.send(key('y'));
    }
    let runs = hs
        .iter_mut()
        .map(|h| h.run_until_idle(Duration::from_secs(300)));
    for r in futures::future::join_all(runs).await {
        r?;
    }
    let took = started.elapsed();
    let worst_read = reader.stop().await;
    let approved = ids
        .iter()
        .filter(|id| d.request_status(**id) == Some(MembershipStatus::Approved))
        .count();
    let mut writes = std::collections::HashMap::new();
    for w in d.mutations().into_iter().skip(before) {
        *writes.entry(w).or_insert(0usize) += 1;
    }
    Ok(Figure {
        took,
        approved,
        twice: writes.values().filter(|n| **n > 1).count(),
        worst_read,
        peak: d.peak_in_flight(),
    })
}

fn row(what: &str, n: usize, f: &Figure) {
    println!(
        "| {what} | {:.2} s | {} of {n} | {} | {} ms | {} |",
        f.took.as_secs_f64(),
        f.approved,
        f.twice,
        f.worst_read.as_millis(),
        f.peak
    );
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dashboards: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let each: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let n = dashboards * each;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    println!(
        "{dashboards} dashboards x {each} approvals (a, y on marked rows, --concurrency 64) against the demo with --pool 16, a fourth client reading /auth/user every 100 ms\n"
    );
    println!(
        "| run | time | approved | written twice | worst read | most in flight at the server |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let one = rt.block_on(once(1, n, true))?;
    row(&format!("1 dashboard, all {n}"), n, &one);
    let on = rt.block_on(once(dashboards, each, true))?;
    row(&format!("{dashboards} at once, host budget 12"), n, &on);
    let off = rt.block_on(once(dashboards, each, false))?;
    row(&format!("{dashboards} at once, host budget off"), n, &off);
    println!(
        "\n{dashboards} at once against one doing all: {:.2}x with the host budget, {:.2}x without",
        on.took.as_secs_f64() / one.took.as_secs_f64(),
        off.took.as_secs_f64() / one.took.as_secs_f64()
    );
    Ok(())
}
