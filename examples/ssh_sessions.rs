//! Measures `serve-ssh` under load: N concurrent SSH sessions (russh's client,
//! each with a key of its own) against the server in this process, on the embedded demo
//! server. Prints, for N sessions opened at once:
//! - the time from each session's shell request to its first whole frame (the dashboard
//!   without a session, its hint bar's last hint drawn): median, 90th percentile and worst,
//!   first with the N clients in a process of their own (`--clients`, as phones are: the
//!   server's process and its cores to itself, but for the demo), then in this one;
//! - the process's resident memory per session (server and client sides together: an upper
//!   bound of the server's share);
//! - what idle sessions cost: bytes written to all of them and CPU time of the process over
//!   a quiet spell.
//!
//! Then every session signs in at once (`S`, the token pasted): the time from each one's
//! paste to its queue drawn (median, 90th percentile, worst) and the calls the demo server
//! received meanwhile; then the queues refresh idle, as the server's refresh clock makes them
//! every 30 s: the calls the demo received per refresh of all N sessions
//! ([`club_admin::ssh::ServerHandle::refresh_now`], three of them), and how the sessions'
//! listing reads were answered (sent, joined to one in flight, reused). With `--minute`, the
//! clock runs for real (30 s) and the calls of one idle minute are counted instead. With
//! `--latency-ms N` the demo answers every call after N ms, and runs on a runtime of its own
//! thread, as a service across a network does its work apart from the server's (without it
//! the demo answers at once, in the server's own runtime: "the in-process demo"). With
//! `--exec N`, N runs of `requests list --mine --json` over SSH start at the moment of the
//! paste, beside the sign-ins: each one's time from its connect to its exit, and whether each
//! answered exit 0 with a JSON array (exit 1 otherwise); the sign-ins' figures are then
//! those with the runs beside them.
//! The host's audit file holds a busy term's decisions before the server starts (30,000
//! settled lines, some 8 MiB; `--audit-lines N`, 0 for none): every session's start reads
//! it (its interrupted writes, the detail's history), as on a school's host.
//!
//! `cargo run --release --example ssh_sessions -- 50` (default 50 sessions). Figures in
//! `docs/src/performance/measurements.md`. Exits 1 when a session drew no first frame or did not load its
//! queue after signing in (`S`, the token pasted), or when the whole run passes four minutes:
//! `.ci/run` runs it with 3 sessions so that it cannot rot again (issue 33: it hung once the
//! sign-in pop-up opened only on `S`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use russh::ChannelMsg;

// The sessions' client and server, shared with the end-to-end tests (an example cannot see
// `tests/common`).
#[path = "../tests/common/ssh_sessions.rs"]
mod ssh_sessions;

use ssh_sessions::{percentile, queue_drawn};

/// The process's resident memory, in kilobytes (Linux `/proc/self/status`).
fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// CPU time of the process so far (user + system), in clock ticks (Linux `/proc/self/stat`).
fn cpu_ticks() -> u64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the command name, which is in parentheses.
    let rest = s.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of the line; 12 and 13 after the name and state.
    n(11) + n(12)
}

/// `--clients ADDR N`: the clients alone, in a process of their own (the server's first
/// frames then have the server's process to themselves, as with moderators' phones): N
/// sessions opened at once to ADDR; prints `frames` and each one's time from its shell
/// request to its first whole frame, in microseconds, then ends (the dashboards wait for
/// their keys on the server).
fn clients(addr: &str, n: u32) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let addr: std::net::SocketAddr = addr.parse().expect("an address");
    let times = rt.block_on(async {
        // Keys of their own: the server's dashboards of the in-process sessions are others.
        // Started four at each turn of this runtime, as the server lets connections in:
        // phones do not wait for each other's key exchanges, and this process's 500 would
        // otherwise queue behind each other on the 2 cores before their first frame.
        let tasks = tokio::spawn(async move {
            let mut tasks = Vec::new();
            for i in 0..n {
                tasks.push(tokio::spawn(ssh_sessions::first_frame(addr, 500_000 + i)));
                if i % 4 == 3 {
                    tokio::task::yield_now().await;
                }
            }
            tasks
        })
        .await
        .unwrap_or_default();
        let mut times = Vec::new();
        let mut keep = Vec::new();
        for t in tasks {
            if let Ok(Ok((d, h, ch))) = t.await {
                times.push(d.as_micros().to_string());
                keep.push((h, ch));
            }
        }
        times
    });
    println!("frames {}", times.join(" "));
}

/// N sessions at once from a process of their own (`--clients`): their first frames,
/// sorted.
fn first_frames_apart(addr: std::net::SocketAddr, n: usize) -> Vec<Duration> {
    let out = std::env::current_exe()
        .and_then(|exe| {
            std::process::Command::new(exe)
                .args(["--clients", &addr.to_string(), &n.to_string()])
                .output()
        })
        .expect("the clients' process");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut times: Vec<Duration> = text
        .lines()
        .find_map(|l| l.strip_prefix("frames"))
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .map(Duration::from_micros)
        .collect();
    times.sort();
    times
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--clients") {
        let n = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
        clients(args.get(2).map(String::as_str).unwrap_or(""), n);
        return;
    }
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let minute = std::env::args().any(|a| a == "--minute");
    // `--latency-ms N`: the demo answers after N ms, as a service across a network does.
    let latency = std::env::args()
        .skip_while(|a| a != "--latency-ms")
        .nth(1)
        .and_then(|a| a.parse().ok())
        .map_or(Duration::ZERO, Duration::from_millis);
    // `--audit-lines N`: the host's audit holds N lines before the server starts (a term's
    // decisions: 30,000 lines, some 8 MiB, by default; 0 for an empty one).
    let audit_lines = std::env::args()
        .skip_while(|a| a != "--audit-lines")
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30_000);
    // `--exec N`: N runs of `requests list --mine --json` over SSH beside the sign-ins.
    let exec = std::env::args()
        .skip_while(|a| a != "--exec")
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let ok = rt.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(if minute { 300 } else { 240 }),
            run(n, minute, latency, audit_lines, exec),
        )
        .await
        .unwrap_or_else(|_| {
            eprintln!("not done in time");
            false
        })
    });
    if !ok {
        std::process::exit(1);
    }
}

/// Waits until the demo server received no call for 1 s (at most `max`); the calls so far.
async fn until_quiet(demo: &club_admin::demo::DemoHandle, max: Duration) -> u64 {
    let from = Instant::now();
    let mut last = demo.calls();
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = demo.calls();
        if now == last || from.elapsed() > max {
            return now;
        }
        last = now;
    }
}

/// The demo server answering every call after `latency`: on a runtime of its own thread
/// when `latency` is not zero (a service across a network, whose work is not the server's
/// runtime's), else in this runtime (the in-process demo, which the sessions' work slows).
async fn start_demo(latency: Duration) -> club_admin::demo::DemoHandle {
    let options = club_admin::demo::DemoOptions {
        faults: club_admin::demo::Faults {
            latency,
            ..Default::default()
        },
        ..Default::default()
    };
    if latency.is_zero() {
        println!("the demo: in this process's runtime, answering at once (the in-process demo)");
        return club_admin::demo::start(options).await.expect("demo");
    }
    println!(
        "the demo: on a runtime of its own thread, answering after {latency:?} (a service across a network)"
    );
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("demo".into())
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("the demo's runtime");
            rt.block_on(async move {
                let _ = tx.send(club_admin::demo::start(options).await);
                // Until the process ends.
                std::future::pending::<()>().await
            });
        })
        .expect("the demo's thread");
    rx.await.expect("the demo's thread").expect("demo")
}

/// One run of `requests list --mine --json` over SSH (a key from `seed`): its time from the
/// connect to its exit, and the rows of its JSON array, or what was wrong with its answer.
async fn list_run(
    addr: std::net::SocketAddr,
    seed: u32,
    token: String,
) -> (Duration, Result<usize, String>) {
    let t0 = Instant::now();
    let out = ssh_sessions::exec(addr, seed, &token, "requests list --mine --json").await;
    let took = t0.elapsed();
    let answer = out.and_then(|o| {
        if o.code != Some(0) {
            return Err(format!(
                "exit {:?}: {}",
                o.code,
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        serde_json::from_slice::<Vec<serde_json::Value>>(&o.stdout)
            .map(|rows| rows.len())
            .map_err(|e| format!("not a JSON array: {e}"))
    });
    (took, answer)
}

/// Awaits the runs started beside the sign-ins and prints their figures; false when one
/// did not answer exit 0 with a JSON array.
async fn runs_report(
    runs: Vec<tokio::task::JoinHandle<(Duration, Result<usize, String>)>>,
) -> bool {
    if runs.is_empty() {
        return true;
    }
    let total = runs.len();
    let mut times = Vec::new();
    let mut rows = Vec::new();
    for r in runs {
        match r.await {
            Ok((took, Ok(n))) => {
                times.push(took);
                rows.push(n);
            }
            Ok((_, Err(e))) => eprintln!("a run failed: {e}"),
            Err(e) => eprintln!("a run's task failed: {e}"),
        }
    }
    times.sort();
    println!(
        "  {total} runs of `requests list --mine --json` beside the sign-ins: connect to exit median {:?}, p90 {:?}, worst {:?}; {} of {total} answered exit 0 with a JSON array ({}-{} rows)",
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 1.0),
        times.len(),
        rows.iter().min().unwrap_or(&0),
        rows.iter().max().unwrap_or(&0),
    );
    times.len() == total
}

/// The run; false when a session failed to draw or to load its queue, or a run beside the
/// sign-ins failed (`exec` of them).
async fn run(n: usize, minute: bool, latency: Duration, audit_lines: usize, exec: usize) -> bool {
    let demo = start_demo(latency).await;
    let dir = tempfile::tempdir().expect("dir");
    let audit_bytes =
        ssh_sessions::fill_audit(&dir.path().join("state"), &demo.base_url, audit_lines);
    println!(
        "the host's audit: {audit_lines} lines, {} kB",
        audit_bytes / 1024
    );
    // The refresh clock: by hand (`refresh_now`), or every 30 s for `--minute`; decisions
    // held 5 s, as by default; room for the clients' process's sessions too.
    let server = ssh_sessions::serve(
        &demo,
        dir.path(),
        2 * n + exec,
        if minute { 30 } else { 0 },
        5,
    )
    .await;
    let addr = server.addr;
    // One session first, so that what every process pays once (TLS roots, the runtime's
    // threads, the first allocations) is not counted per session.
    let (warm, warm_h, warm_c) = ssh_sessions::first_frame(addr, 1_000_000)
        .await
        .expect("first session");
    tokio::time::sleep(Duration::from_millis(500)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_before = rss_kb();

    let cpu_before = cpu_ticks();
    let started = Instant::now();
    // Each one's first frame also from the connect (all at `started`): the time a moderator
    // waits from Enter, the connection's turn in the key exchange included.
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            tokio::spawn(async move {
                let opened = ssh_sessions::first_frame(addr, i as u32).await;
                opened.map(|(d, h, ch)| (d, started.elapsed(), h, ch))
            })
        })
        .collect();
    let mut times = Vec::new();
    let mut from_connect = Vec::new();
    let mut open_sessions = Vec::new();
    for t in tasks {
        match t.await {
            Ok(Ok((d, c, h, ch))) => {
                times.push(d);
                from_connect.push(c);
                open_sessions.push((h, ch));
            }
            Ok(Err(e)) => eprintln!("a session failed: {e}"),
            Err(e) => eprintln!("a session's task failed: {e}"),
        }
    }
    let all = started.elapsed();
    let opening_cpu = cpu_ticks().saturating_sub(cpu_before);
    times.sort();
    from_connect.sort();
    let pct = |p: f64| percentile(&times, p);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_after = rss_kb();

    // Idle: count every byte any session gets, and the CPU the process spends.
    let bytes = Arc::new(AtomicU64::new(0));
    // Sessions that drew their queue's pending count after the sign-in.
    let pasted = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let loaded = Arc::new(AtomicU64::new(0));
    // When each session drew its queue (the harness's clock), for the time from its paste.
    let loaded_at = Arc::new(std::sync::Mutex::new(vec![
        None::<Instant>;
        open_sessions.len()
    ]));
    let mut readers = Vec::new();
    let mut writers = Vec::new();
    for (i, (h, ch)) in open_sessions.into_iter().enumerate() {
        let (bytes, pasted, loaded) = (bytes.clone(), pasted.clone(), loaded.clone());
        let loaded_at = loaded_at.clone();
        let (mut read, write) = ch.split();
        writers.push(write);
        readers.push(tokio::spawn(async move {
            let _h = h;
            let mut counted = false;
            // The session's screen as its terminal shows it, until its queue is drawn.
            let mut screen = ssh_sessions::screen();
            while let Some(msg) = read.wait().await {
                if let ChannelMsg::Data { data } = msg {
                    bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
                    if counted {
                        continue;
                    }
                    screen.process(&data);
                    // The screen is read only when this chunk drew a pending row or the
                    // e-mail (reading it at every chunk of 200 sessions took the cores the
                    // server needed).
                    let telling = |w: &[u8]| w == b"pending" || w == b"ton.jai";
                    if pasted.load(Ordering::Relaxed)
                        && data.windows(7).any(telling)
                        && queue_drawn(&screen.screen().contents())
                    {
                        counted = true;
                        loaded.fetch_add(1, Ordering::Relaxed);
                        if let Ok(mut at) = loaded_at.lock()
                            && let Some(slot) = at.get_mut(i)
                        {
                            *slot = Some(Instant::now());
                        }
                    }
                }
            }
        }));
    }
    // The answers to each session's first calls (the user, the capabilities) come in and
    // are drawn: wait until no byte came for 2 s (at most 30 s).
    let settle_start = Instant::now();
    loop {
        let before = bytes.load(Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(2)).await;
        if bytes.load(Ordering::Relaxed) == before
            || settle_start.elapsed() > Duration::from_secs(30)
        {
            break;
        }
    }
    let settled_after = settle_start.elapsed();
    let bytes0 = bytes.load(Ordering::Relaxed);
    let cpu0 = cpu_ticks();
    let quiet = Duration::from_secs(5);
    tokio::time::sleep(quiet).await;
    let cpu = cpu_ticks().saturating_sub(cpu0);
    let idle_bytes = bytes.load(Ordering::Relaxed) - bytes0;

    println!(
        "serve-ssh, {} sessions opened at once ({} drawn)",
        n,
        times.len()
    );
    println!("  first session alone: {:?} to its first frame", warm);
    println!(
        "  connect to first frame: median {:?}, p90 {:?}, worst {:?}",
        percentile(&from_connect, 0.5),
        percentile(&from_connect, 0.9),
        percentile(&from_connect, 1.0),
    );
    println!(
        "  shell request to first frame: median {:?}, p90 {:?}, worst {:?} (all drawn {:?} after the first connect)",
        pct(0.5),
        pct(0.9),
        pct(1.0),
        all
    );
    println!(
        "  CPU of the process meanwhile (server, clients and demo): {:.2} s over {:.2} s on 2 cores",
        opening_cpu as f64 / 100.0,
        all.as_secs_f64()
    );
    let per = (rss_after.saturating_sub(rss_before)) as f64 / times.len().max(1) as f64;
    println!(
        "  resident memory: {} kB before, {} kB with them: {:.0} kB per session (server and client sides)",
        rss_before, rss_after, per
    );
    println!(
        "  settled (no byte for 2 s) {:?} after the last first frame; {} bytes meanwhile",
        settled_after, bytes0
    );
    println!(
        "  then idle for {:?}: {} bytes written to all sessions, {} CPU ticks (1/100 s) for the process",
        quiet, idle_bytes, cpu
    );

    // Every session signs in (the token pasted, bracketed, and Enter) and loads its queue
    // (a page of 50 rows and their details): memory per dashboard in use.
    let token = demo.moderator().token.clone();
    let paste = format!("\x1b[200~{token}\x1b[201~\r");
    let signed_from = Instant::now();
    let bytes_before_sign_in = bytes.load(Ordering::Relaxed);
    for w in &writers {
        let _ = w.data_bytes(b"S".to_vec()).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    pasted.store(true, Ordering::Relaxed);
    let calls_before_paste = demo.calls();
    // The runs beside the sign-ins start at the moment of the paste.
    let runs: Vec<_> = (0..exec)
        .map(|i| tokio::spawn(list_run(addr, 300_000 + i as u32, token.clone())))
        .collect();
    let mut pasted_at = Vec::new();
    for w in &writers {
        pasted_at.push(Instant::now());
        let _ = w.data_bytes(paste.clone().into_bytes()).await;
    }
    let trace = std::env::var_os("SSH_SESSIONS_TRACE").is_some();
    loop {
        let before = bytes.load(Ordering::Relaxed);
        for _ in 0..if trace { 4 } else { 1 } {
            tokio::time::sleep(Duration::from_millis(if trace { 500 } else { 2000 })).await;
            if trace {
                let c = server.calls();
                eprintln!(
                    "  {:?} after the paste: {} calls, {} bytes, {} loaded; {} in flight, limit {}{}",
                    signed_from.elapsed(),
                    demo.calls() - calls_before_paste,
                    bytes.load(Ordering::Relaxed) - bytes_before_sign_in,
                    loaded.load(Ordering::Relaxed),
                    c.in_flight,
                    c.limit,
                    if c.slowed { " (slowed)" } else { "" }
                );
            }
        }
        if bytes.load(Ordering::Relaxed) == before
            || signed_from.elapsed() > Duration::from_secs(60)
        {
            break;
        }
    }
    let rss_signed = rss_kb();
    println!(
        "  all signed in, queues loaded (quiet {:?} after the paste; {} bytes drawn per session): {} kB: {:.0} kB per session",
        signed_from.elapsed(),
        (bytes.load(Ordering::Relaxed) - bytes_before_sign_in) / times.len().max(1) as u64,
        rss_signed,
        rss_signed.saturating_sub(rss_before) as f64 / times.len().max(1) as f64
    );
    let loaded = loaded.load(Ordering::Relaxed) as usize;
    println!("  {loaded} of {} sessions loaded their queue", times.len());
    let mut waits: Vec<Duration> = loaded_at
        .lock()
        .map(|at| {
            at.iter()
                .zip(&pasted_at)
                .filter_map(|(l, p)| l.map(|l| l.saturating_duration_since(*p)))
                .collect()
        })
        .unwrap_or_default();
    waits.sort();
    let wpct = |p: f64| percentile(&waits, p);
    let calls_signed = until_quiet(&demo, Duration::from_secs(30)).await;
    println!(
        "  paste to queue drawn: median {:?}, p90 {:?}, worst {:?}; {} calls to the service for the {} sign-ins; listing reads {:?}",
        wpct(0.5),
        wpct(0.9),
        wpct(1.0),
        calls_signed - calls_before_paste,
        times.len(),
        server.calls().listing_reads
    );
    let runs_ok = runs_report(runs).await;
    // Idle refreshes: every queue refreshed as the refresh clock makes them.
    let shared_before = server.calls().listing_reads;
    if minute {
        let c0 = demo.calls();
        tokio::time::sleep(Duration::from_secs(60)).await;
        let c1 = until_quiet(&demo, Duration::from_secs(30)).await;
        println!(
            "  one idle minute (the refresh clock every 30 s): {} calls to the service",
            c1 - c0
        );
    } else {
        let c0 = demo.calls();
        for _ in 0..3 {
            server.refresh_now();
            until_quiet(&demo, Duration::from_secs(30)).await;
        }
        let c1 = demo.calls();
        println!(
            "  idle refresh of all sessions: {:.1} calls to the service each ({} for 3), so {:.0} a minute at 30 s",
            (c1 - c0) as f64 / 3.0,
            c1 - c0,
            (c1 - c0) as f64 / 3.0 * 2.0
        );
    }
    let shared_after = server.calls().listing_reads;
    println!(
        "  listing reads while idle: {} sent, {} joined one in flight, {} reused",
        shared_after.sent - shared_before.sent,
        shared_after.joined - shared_before.joined,
        shared_after.reused - shared_before.reused
    );
    // Last (its dashboards are left waiting for their keys): the first frames with the
    // clients in a process of their own.
    let apart = tokio::task::spawn_blocking(move || first_frames_apart(addr, n))
        .await
        .unwrap_or_default();
    let at = |p: f64| percentile(&apart, p);
    println!(
        "  clients in a process of their own: shell request to first frame: median {:?}, p90 {:?}, worst {:?} ({} of {n} drawn)",
        at(0.5),
        at(0.9),
        at(1.0),
        apart.len()
    );
    for r in readers {
        r.abort();
    }
    drop(writers);
    drop((warm_h, warm_c));
    server.stop().await;
    times.len() == n && loaded == n && runs_ok
}
