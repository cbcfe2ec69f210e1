//! Measuring harness: many moderators at once against one server. Six processes of the real
//! binary, each `requests approve --concurrency 64` on its own 500 pending requests, started
//! together against the demo imitating the deployed service's database pool (`--pool 16`:
//! each signed-in request holds one connection and waits for a second; it stalls at 16 in
//! flight), while a seventh client reads `/auth/user` every 100 ms. Run with the host budget
//! on (`--host-budget 12`, one budget for every process of this host) and off (each process
//! alone, as on six hosts), and one process doing all 3,000 as the yardstick.
//!
//! Prints per run: the time, how many requests were approved, how many were written more
//! than once, the seventh client's worst wait, the most authenticated requests in flight at
//! the server at once (the pool stalls at 16), and the processes' exit codes. Asserts
//! nothing. Targets: all 3,000 land exactly once, the seventh client never waits more than
//! 1 s, and six at once take at most 1.5x one process doing all 3,000.
//!
//! Run: `cargo build --release && cargo run --release --example many_moderators -- [PROCS]
//! [EACH]` (defaults 6 and 500). `CLUB_ADMIN_BIN` names another binary to measure (for
//! example one built from an earlier commit); the default is `target/release/club-admin`.
//! `--host-budget` is passed only to a binary that has it (`HARNESS_NO_BUDGET_FLAG=1` for
//! one that does not).

#[path = "shared/reader.rs"]
mod reader;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::demo::{self, DemoOptions, Pool};

struct Figure {
    took: Duration,
    approved: usize,
    twice: usize,
    worst_read: Duration,
    peak: usize,
    exits: Vec<i32>,
}

fn binary() -> String {
    std::env::var("CLUB_ADMIN_BIN").unwrap_or_else(|_| "target/release/club-admin".to_owned())
}

async fn once(procs: usize, each: usize, budget: Option<usize>) -> Result<Figure, String> {
    let n = procs * each;
    let d = demo::start(DemoOptions {
        extra_requests: n,
        pool: Some(Pool::deployed(16)),
        ..DemoOptions::default()
    })
    .await?;
    let u = d.user("moderator").ok_or("no moderator")?.clone();
    let ids: Vec<_> = d.pending_for("moderator").into_iter().take(n).collect();
    if ids.len() < n {
        return Err(format!("only {} pending requests", ids.len()));
    }
    let state = tempfile::tempdir().map_err(|e| e.to_string())?;
    let budget_dir = state.path().join("budget");

    // The seventh client: another user of the service reading every 100 ms.
    let reader = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            request_timeout: Duration::from_secs(60),
            ..ClientOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let reader = reader::Reader::start(reader);

    let started = Instant::now();
    let mut children = Vec::new();
    for chunk in ids.chunks(each) {
        let mut cmd = Command::new(binary());
        cmd.args([
            "requests",
            "approve",
            "--base-url",
            &d.base_url,
            "--concurrency",
            "64",
            "-",
        ]);
        if std::env::var_os("HARNESS_NO_BUDGET_FLAG").is_none() {
            cmd.args(["--host-budget", &budget.unwrap_or(0).to_string()]);
        }
        cmd.env("CLUB_ADMIN_API_KEY", &u.api_key)
            .env("CLUB_ADMIN_TOKEN", &u.token)
            .env("CLUB_ADMIN_BUDGET_DIR", &budget_dir)
            .env("XDG_STATE_HOME", state.path())
            .env("XDG_CONFIG_HOME", state.path())
            .env("HOME", state.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().map_err(|e| format!("{}: {e}", binary()))?;
        let text: String = chunk.iter().map(|id| format!("{id}\n")).collect();
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(text.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        children.push(child);
    }
    let exits = tokio::task::spawn_blocking(move || {
        children
            .into_iter()
            .map(|mut c| c.wait().ok().and_then(|s| s.code()).unwrap_or(-1))
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| e.to_string())?;
    let took = started.elapsed();
    let worst_read = reader.stop().await;
    let approved = ids
        .iter()
        .filter(|id| d.request_status(**id) == Some(MembershipStatus::Approved))
        .count();
    let mut writes = std::collections::HashMap::new();
    for w in d.mutations() {
        if let Some(id) = w.split_whitespace().nth(1) {
            *writes.entry(id.to_owned()).or_insert(0usize) += 1;
        }
    }
    let twice = writes.values().filter(|n| **n > 1).count();
    Ok(Figure {
        took,
        approved,
        twice,
        worst_read,
        peak: d.peak_in_flight(),
        exits,
    })
}

fn row(what: &str, n: usize, f: &Figure) {
    println!(
        "| {what} | {:.2} s | {} of {n} | {} | {} ms | {} | {:?} |",
        f.took.as_secs_f64(),
        f.approved,
        f.twice,
        f.worst_read.as_millis(),
        f.peak,
        f.exits
    );
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let procs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let each: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    let n = procs * each;
    println!(
        "{procs} processes x {each} approvals (`requests approve --concurrency 64`) against the demo with --pool 16, a seventh client reading /auth/user every 100 ms; binary {}\n",
        binary()
    );
    println!(
        "| run | time | approved | written twice | worst read | most in flight at the server | exit codes |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    let one = once(1, n, Some(12)).await?;
    row(&format!("1 process, all {n}"), n, &one);
    let on = once(procs, each, Some(12)).await?;
    row(&format!("{procs} at once, host budget 12"), n, &on);
    let off = once(procs, each, None).await?;
    row(&format!("{procs} at once, host budget off"), n, &off);
    println!(
        "\n{procs} at once against one doing all: {:.2}x with the host budget, {:.2}x without",
        on.took.as_secs_f64() / one.took.as_secs_f64(),
        off.took.as_secs_f64() / one.took.as_secs_f64()
    );
    Ok(())
}
