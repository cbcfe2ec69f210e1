//! Measuring harness: the term's figures for a demo seeded with N requests, as
//! `club-admin stats` and the dashboard's `T` read them, in service calls and time; and what
//! a refresh of the term view costs beside a refresh of the queue (nothing changed, after
//! an approval elsewhere, after a new request), through the real
//! `update`, effect runner, worker and HTTP client (`Headless`), as an administrator (every
//! club). Prints the figures.
//!
//! Run: `cargo run --release --example term_figures -- [N] [PAGE_SIZE] [DECIDED]` (defaults
//! 5000, 50, 0). The demo holds 240 requests; N - 240 more are added (pending, to the demo
//! moderator's clubs), and DECIDED of them are approved first (a term near its end).

#[path = "../tests/common/headless.rs"]
mod headless;

use headless::Headless;

use std::time::{Duration, Instant};

use club_admin::api::{ApiClient, ClientOptions, Credentials, RequestFilter};
use club_admin::app::model::Loadable;
use club_admin::app::{Key, Model, ModelOptions, Msg};
use club_admin::demo::{self, DemoOptions};

const SEEDED: usize = 240;

/// Approves `n` of the demo moderator's pending requests, 8 at a time.
async fn approve(d: &demo::DemoHandle, n: usize) -> Result<(), String> {
    let ids: Vec<uuid::Uuid> = d.pending_for("moderator").into_iter().take(n).collect();
    approve_ids(d, ids).await
}

/// Approves the requests `ids` as the demo moderator, 8 at a time.
async fn approve_ids(d: &demo::DemoHandle, ids: Vec<uuid::Uuid>) -> Result<(), String> {
    use futures::StreamExt;
    let m = d.moderator().clone();
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(m.api_key), Some(m.token)),
        ClientOptions::default(),
    )
    .map_err(|e| e.to_string())?;
    let approved = club_admin::api::MembershipStatus::Approved;
    let results: Vec<_> = futures::stream::iter(ids)
        .map(|id| {
            let (client, approved) = (client.clone(), approved.clone());
            async move {
                client
                    .update_club_request(id, &approved, club_admin::ops::stats::LEVELS)
                    .await
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let failed = results.iter().filter(|r| r.is_err()).count();
    if failed > 0 {
        return Err(format!("{failed} approvals failed"));
    }
    Ok(())
}

async fn run(n: usize, page_size: u32, decided: usize) -> Result<(), String> {
    let d = demo::start(DemoOptions {
        extra_requests: n.saturating_sub(SEEDED),
        ..DemoOptions::default()
    })
    .await?;
    approve(&d, decided).await?;
    let u = d.user("admin").ok_or("no admin")?.clone();
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key), Some(u.token)),
        ClientOptions::default(),
    )
    .map_err(|e| e.to_string())?;

    // The core's read and figures, as `stats` and the view make them.
    let before = d.calls();
    let t0 = Instant::now();
    let requests =
        club_admin::ops::stats::read_pages(&client, &RequestFilter::default(), page_size)
            .await
            .map_err(|e| e.to_string())?;
    let read = t0.elapsed();
    let t1 = Instant::now();
    let offset = chrono::FixedOffset::east_opt(7 * 3600).ok_or("offset")?;
    let f = club_admin::ops::stats::figures(&requests, Some(&[]), None, offset);
    let computed = t1.elapsed();
    println!(
        "figures of {} requests ({} pending, {} clubs, {} days): {} calls at page size {page_size}, read in {:.0} ms, computed in {:.1} ms",
        f.requests,
        f.pending,
        f.clubs.len(),
        f.arrivals.len(),
        d.calls() - before,
        read.as_secs_f64() * 1000.0,
        computed.as_secs_f64() * 1000.0
    );

    // The dashboard: the queue's refresh (`r`) against the view's (`T`).
    // The queue first (an administrator would see the term view first otherwise).
    let model = Model::new(ModelOptions {
        page_size,
        review_opens_term: false,
        ..ModelOptions::new(&d.base_url)
    });
    let mut h = Headless::new(model, client, 8);
    h.run_until_idle(Duration::from_secs(60)).await?;
    let before = d.calls();
    let t0 = Instant::now();
    h.send(Msg::Key(Key::char('r')));
    h.run_until_idle(Duration::from_secs(60)).await?;
    println!(
        "queue refresh (r): {} calls in {:.0} ms ({} rows loaded)",
        d.calls() - before,
        t0.elapsed().as_secs_f64() * 1000.0,
        h.model.queue().items().len()
    );
    let before = d.calls();
    let t0 = Instant::now();
    h.send(Msg::AutoRefresh);
    h.run_until_idle(Duration::from_secs(60)).await?;
    println!(
        "automatic refresh, the view closed (the queue's): {} calls in {:.0} ms",
        d.calls() - before,
        t0.elapsed().as_secs_f64() * 1000.0
    );
    let before = d.calls();
    let t0 = Instant::now();
    h.send(Msg::Key(Key::char('T')));
    let loaded = |m: &Model| {
        !m.term_reading() && matches!(m.term(), Loadable::Loaded(f) if f.requests as usize >= n)
    };
    h.run_until(Duration::from_secs(120), loaded).await?;
    println!(
        "term view opened (T): {} calls in {:.0} ms (every page, every status)",
        d.calls() - before,
        t0.elapsed().as_secs_f64() * 1000.0
    );
    let quiet = |m: &Model| !m.term_reading();
    let refresh = async |h: &mut Headless, what: &str| -> Result<(), String> {
        let before = d.calls();
        let t0 = Instant::now();
        h.send(Msg::AutoRefresh);
        h.run_until(Duration::from_secs(120), quiet).await?;
        println!(
            "automatic refresh, the view open, {what}: {} calls in {:.0} ms",
            d.calls() - before,
            t0.elapsed().as_secs_f64() * 1000.0
        );
        Ok(())
    };
    refresh(&mut h, "nothing changed").await?;
    // A request of the queue's first page approved elsewhere (the demo moderator).
    let listed: Vec<uuid::Uuid> = h.model.queue().items().iter().map(|i| i.id).collect();
    let first = d
        .pending_for("moderator")
        .into_iter()
        .find(|id| listed.contains(id));
    if let Some(id) = first {
        approve_ids(&d, vec![id]).await?;
        refresh(&mut h, "after an approval elsewhere on the queue's pages").await?;
    }
    let student = d.student_ids().first().copied().ok_or("no student")?;
    let club = d.club_ids().first().copied().ok_or("no club")?;
    d.join(student, club).ok_or("no new request")?;
    refresh(&mut h, "after a new request").await?;
    // The same with the view closed: what the queue's refresh costs alone.
    h.send(Msg::Key(Key::char('T')));
    d.join(student, club).ok_or("no new request")?;
    let before = d.calls();
    let t0 = Instant::now();
    h.send(Msg::AutoRefresh);
    h.run_until_idle(Duration::from_secs(60)).await?;
    println!(
        "automatic refresh, the view closed, after a new request: {} calls in {:.0} ms",
        d.calls() - before,
        t0.elapsed().as_secs_f64() * 1000.0
    );
    Ok(())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n = args.next().and_then(|a| a.parse().ok()).unwrap_or(5000);
    let size = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let decided = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("runtime: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = rt.block_on(run(n, size, decided)) {
        eprintln!("term_figures: {e}");
        std::process::exit(1);
    }
}
