//! Measures the scripting subcommands run over SSH (`ssh HOST requests list --json`) beside
//! dashboards, on `serve-ssh` in this process and the embedded demo server:
//! - D dashboards opened at once alone: the time from each one's shell request to its first
//!   whole frame (median, 90th percentile, worst);
//! - D dashboards and R runs of `requests list --json` started at once (russh's client,
//!   each its own key, the demo moderator's token sent as `CLUB_ADMIN_TOKEN`): the
//!   dashboards' first frames again, and each run's time from its connect to its exit
//!   status, every run's output checked (exit 0, a JSON array of the moderator's requests);
//! - one `ssh HOST whoami` with the OpenSSH client, connect to exit (median of 10), against
//!   `club-admin whoami` run locally with the same service, key and token (median of 10).
//!
//! `cargo run --release --example ssh_exec -- [D] [R] [--latency-ms MS]` (defaults 50 and
//! 50; MS: the demo answers each call after that long, as a service across a network).
//! Figures in `docs/src/performance/measurements.md`. Exits 1 when a dashboard drew no
//! first frame or a run did not answer with the moderator's requests.

use std::time::{Duration, Instant};

#[path = "../tests/common/ssh_sessions.rs"]
mod ssh_sessions;

use ssh_sessions::percentile;

fn figures(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{what}: {} · median {:?} · p90 {:?} · worst {:?}",
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 1.0)
    );
}

/// One run of `requests list --json`: its time from the connect to its exit status, and
/// whether it answered as it must (exit 0 and a JSON array with rows).
async fn list_run(addr: std::net::SocketAddr, seed: u32, token: String) -> (Duration, bool) {
    let t0 = Instant::now();
    let out = ssh_sessions::exec(addr, seed, &token, "requests list --mine --json").await;
    let took = t0.elapsed();
    let good = match out {
        Ok(o) => {
            o.code == Some(0)
                && serde_json::from_slice::<Vec<serde_json::Value>>(&o.stdout)
                    .is_ok_and(|rows| !rows.is_empty())
        }
        Err(_) => false,
    };
    (took, good)
}

/// D dashboards (seeds from `first`) and R runs at once; their times, and the failures.
async fn storm(
    addr: std::net::SocketAddr,
    d: usize,
    r: usize,
    first: u32,
    token: &str,
) -> (Vec<Duration>, Vec<Duration>, usize) {
    let mut dashes = Vec::new();
    let mut runs = Vec::new();
    for i in 0..d.max(r) {
        if i < d {
            dashes.push(tokio::spawn(ssh_sessions::first_frame(
                addr,
                first + i as u32,
            )));
        }
        if i < r {
            runs.push(tokio::spawn(list_run(
                addr,
                first + 100_000 + i as u32,
                token.to_owned(),
            )));
        }
    }
    let mut frames = Vec::new();
    let mut failed = 0;
    let mut keep = Vec::new();
    for t in dashes {
        match t.await {
            Ok(Ok((took, h, ch))) => {
                frames.push(took);
                keep.push((h, ch));
            }
            _ => failed += 1,
        }
    }
    let mut times = Vec::new();
    for t in runs {
        match t.await {
            Ok((took, true)) => times.push(took),
            _ => failed += 1,
        }
    }
    (frames, times, failed)
}

/// The median of 10 runs of `cmd` (made anew by `make` each time), each to its exit.
fn median_of_ten(mut make: impl FnMut() -> std::process::Command) -> Option<Duration> {
    let mut times = Vec::new();
    for _ in 0..10 {
        let t0 = Instant::now();
        let out = make().output().ok()?;
        if !out.status.success() {
            eprintln!("{}", String::from_utf8_lossy(&out.stderr));
            return None;
        }
        times.push(t0.elapsed());
    }
    times.sort();
    Some(percentile(&times, 0.5))
}

/// `ssh HOST whoami` with the OpenSSH client against `club-admin whoami` locally.
fn whoami_times(
    addr: std::net::SocketAddr,
    demo: &club_admin::demo::DemoHandle,
    dir: &std::path::Path,
) {
    let key = dir.join("id_ed25519");
    let made = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&key)
        .status();
    if !made.is_ok_and(|s| s.success()) {
        println!("ssh whoami: not measured (no ssh-keygen)");
        return;
    }
    let m = demo.moderator().clone();
    let port = addr.port().to_string();
    let env = format!("SetEnv=CLUB_ADMIN_TOKEN={}", m.token);
    let over_ssh = median_of_ten(|| {
        let mut c = std::process::Command::new("ssh");
        c.args(["-F", "/dev/null", "-T", "-p", &port, "-i"])
            .arg(&key)
            .args([
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
            ])
            .args(["-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "-o", &env])
            .args(["127.0.0.1", "whoami"]);
        c
    });
    let exe = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent()?.parent().map(|d| d.join("club-admin")))
        .filter(|p| p.is_file());
    let local = exe.and_then(|exe| {
        median_of_ten(|| {
            let mut c = std::process::Command::new(&exe);
            c.arg("whoami")
                .env("CLUB_ADMIN_BASE_URL", &demo.base_url)
                .env("CLUB_ADMIN_API_KEY", &m.api_key)
                .env("CLUB_ADMIN_TOKEN", &m.token)
                .env("CLUB_ADMIN_HOST_BUDGET", "0")
                .env("XDG_STATE_HOME", dir.join("local-state"))
                .env("XDG_CONFIG_HOME", dir.join("local-config"));
            c
        })
    });
    println!(
        "one whoami, connect to exit, median of 10: over ssh {:?} · the command line locally {:?}",
        over_ssh, local
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let latency = args
        .iter()
        .position(|a| a == "--latency-ms")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<u64>().ok())
        .map(Duration::from_millis)
        .unwrap_or_default();
    let numbers: Vec<usize> = args
        .iter()
        .take_while(|a| *a != "--latency-ms")
        .filter_map(|a| a.parse().ok())
        .collect();
    let d = numbers.first().copied().unwrap_or(50);
    let r = numbers.get(1).copied().unwrap_or(50);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let ok = rt.block_on(async {
        let demo = club_admin::demo::start(club_admin::demo::DemoOptions {
            faults: club_admin::demo::Faults {
                latency,
                ..Default::default()
            },
            ..Default::default()
        })
        .await
        .expect("demo");
        let dir = tempfile::tempdir().expect("dir");
        let server = ssh_sessions::serve(&demo, dir.path(), 2 * d + r + 2, 0, 0).await;
        let addr = server.addr;
        let token = demo.moderator().token.clone();
        // Warm: one dashboard and one run, so the first figures are not the start's.
        let _warm = ssh_sessions::first_frame(addr, 900_000)
            .await
            .expect("a first dashboard");
        let (_, good) = list_run(addr, 900_001, token.clone()).await;
        assert!(good, "a first run answers");
        println!(
            "{d} dashboards and {r} runs of `requests list --mine --json`, demo latency {latency:?}"
        );
        let (alone, _, failed_alone) = storm(addr, d, 0, 1, &token).await;
        figures("dashboards alone, shell request to first frame", alone);
        let (frames, runs, failed) = storm(addr, d, r, 10_000, &token).await;
        figures(
            "dashboards beside the runs, shell request to first frame",
            frames,
        );
        figures("runs beside the dashboards, connect to exit status", runs);
        println!("failed: {}", failed_alone + failed);
        let calls = demo.calls();
        println!("calls the demo received: {calls}");
        tokio::task::spawn_blocking({
            let dir = dir.path().to_path_buf();
            move || whoami_times(addr, &demo, &dir)
        })
        .await
        .ok();
        server.stop().await;
        failed_alone + failed == 0
    });
    std::process::exit(if ok { 0 } else { 1 });
}
