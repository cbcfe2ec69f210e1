//! Measuring harness: 250 approvals through the core's runner (`ops::run`, what
//! `club-admin requests approve` runs) against the demo server imitating the deployed
//! service's database pool (`--pool 16`: each request holds one connection and waits for a
//! second, 5 s acquire timeout, 2 ms of queries). Each setting on a fresh server.
//!
//! Prints, per `--concurrency`: the time for all 250 with the adaptive limit, how many
//! landed, and the limit's path; then the same with a fixed limit (no adaptation), to find
//! the best fixed setting. Asserts nothing. Target: every adaptive run lands all 250,
//! within 1.5x of the best fixed setting's time.
//!
//! Run: `cargo run --release --example concurrency -- [POOL] [N]` (defaults 16, 250).

use std::time::{Duration, Instant};

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::demo::{self, DemoOptions, Pool};
use club_admin::ops::run::{self, Control};
use club_admin::ops::{AuditLog, RowAction};

struct Figure {
    took: Duration,
    landed: usize,
    path: Vec<(f64, usize)>,
}

async fn once(pool: usize, n: usize, ceiling: usize, fixed: bool) -> Result<Figure, String> {
    let d = demo::start(DemoOptions {
        extra_requests: n,
        pool: Some(Pool::deployed(pool)),
        ..DemoOptions::default()
    })
    .await?;
    let u = d.user("moderator").ok_or("no moderator")?;
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            concurrency: ceiling,
            fixed_concurrency: fixed,
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let ids: Vec<_> = d.pending_for("moderator").into_iter().take(n).collect();
    let log = AuditLog::default();
    let control = Control::default();
    let started = Instant::now();
    run::bulk(
        &ids,
        ceiling,
        &control,
        |id| {
            let (client, log, control) = (&client, &log, &control);
            async move {
                run::decide(
                    client,
                    log,
                    id,
                    RowAction::Approve,
                    Duration::from_secs(30),
                    control,
                    &|_| {},
                )
                .await
            }
        },
        |_| false,
        |_, _| {},
    )
    .await;
    let took = started.elapsed();
    let landed = ids
        .iter()
        .filter(|id| d.request_status(**id) == Some(MembershipStatus::Approved))
        .count();
    Ok(Figure {
        took,
        landed,
        path: client.limiter().history(),
    })
}

fn path_text(path: &[(f64, usize)]) -> String {
    let mut out: Vec<String> = path
        .iter()
        .take(12)
        .map(|(t, l)| format!("{l}@{:.2}s", t))
        .collect();
    if path.len() > 12 {
        out.push(format!("... ({} changes)", path.len()));
    }
    out.join(" ")
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let pool: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(250);
    println!(
        "{n} approvals against the demo with --pool {pool} (5 s acquire timeout, 2 ms per request)\n"
    );
    println!(
        "| --concurrency | fixed: time | fixed: landed | adaptive: time | adaptive: landed | the limit's path (limit@time) |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | --- |");
    let mut best: Option<Duration> = None;
    let mut adaptive = Vec::new();
    for ceiling in [1, 2, 4, 8, 12, 16, 32, 64] {
        let f = once(pool, n, ceiling, true).await?;
        let a = once(pool, n, ceiling, false).await?;
        if f.landed == n {
            best = Some(best.map_or(f.took, |b| b.min(f.took)));
        }
        println!(
            "| {ceiling} | {:.2} s | {} | {:.2} s | {} | {} |",
            f.took.as_secs_f64(),
            f.landed,
            a.took.as_secs_f64(),
            a.landed,
            path_text(&a.path)
        );
        adaptive.push((ceiling, a));
    }
    if let Some(best) = best {
        println!("\nbest fixed setting: {:.2} s", best.as_secs_f64());
        for (ceiling, a) in adaptive.iter().filter(|(c, _)| *c >= 8) {
            println!(
                "adaptive at --concurrency {ceiling}: {:.2}x the best fixed time, {} of {n} landed",
                a.took.as_secs_f64() / best.as_secs_f64(),
                a.landed
            );
        }
    }
    Ok(())
}
