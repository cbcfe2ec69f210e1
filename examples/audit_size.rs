//! Measures one approval over SSH (`ssh HOST requests approve ID`: russh's client, the demo
//! moderator's token as `CLUB_ADMIN_TOKEN`) on `serve-ssh` in this process, with the host's
//! audit empty and with a big one (a term's settled writes, MB megabytes): the median of 30
//! runs, connect to exit status, each checked (exit 0, the request approved). A write
//! command reads only what the audit gained since the server's last read (the open writes
//! are kept between reads, `ops::recover::OpenWrites`), never the whole file.
//!
//! `cargo run --release --example audit_size -- [MB]` (default 100). Figures in
//! `docs/src/performance/measurements.md`. Exits 1 when a run did not approve its request.

use std::time::{Duration, Instant};

#[path = "../tests/common/ssh_sessions.rs"]
mod ssh_sessions;

/// The median of 30 approvals over SSH on a server whose state folder is `dir` (its audit as
/// found there), each of another pending request; `None` when one failed.
async fn approvals(demo: &club_admin::demo::DemoHandle, dir: &std::path::Path) -> Option<Duration> {
    let server = ssh_sessions::serve(demo, dir, 4, 0, 0).await;
    let token = demo.moderator().token.clone();
    let mut times = Vec::new();
    // The first is the warm-up, not counted.
    for (i, id) in demo
        .pending_for("moderator")
        .into_iter()
        .take(31)
        .enumerate()
    {
        let t0 = Instant::now();
        let out = ssh_sessions::exec(server.addr, 1, &token, &format!("requests approve {id}"))
            .await
            .ok()?;
        let took = t0.elapsed();
        if out.code != Some(0)
            || demo.request_status(id) != Some(club_admin::api::MembershipStatus::Approved)
        {
            eprintln!("{}", String::from_utf8_lossy(&out.stderr));
            return None;
        }
        if i > 0 {
            times.push(took);
        }
    }
    server.stop().await;
    times.sort();
    Some(ssh_sessions::percentile(&times, 0.5))
}

fn main() {
    let mb: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let ok = rt.block_on(async {
        let demo = club_admin::demo::start(club_admin::demo::DemoOptions {
            extra_requests: 120,
            ..Default::default()
        })
        .await
        .expect("demo");
        let empty = tempfile::tempdir().expect("dir");
        let Some(alone) = approvals(&demo, empty.path()).await else {
            return false;
        };
        let big = tempfile::tempdir().expect("dir");
        // About 340 bytes a line.
        let lines = (mb * 1_000_000 / 340) as usize;
        let bytes = ssh_sessions::fill_audit(&big.path().join("state"), &demo.base_url, lines);
        let Some(full) = approvals(&demo, big.path()).await else {
            return false;
        };
        println!("1-id approve over SSH, median of 30: empty audit {alone:?}");
        println!(
            "1-id approve over SSH, median of 30: audit of {:.1} MB ({lines} lines) {full:?} ({:.2}x)",
            bytes as f64 / 1e6,
            full.as_secs_f64() / alone.as_secs_f64()
        );
        true
    });
    std::process::exit(if ok { 0 } else { 1 });
}
