//! Measures `serve-ssh` under load: N concurrent SSH sessions (russh's client,
//! each with a key of its own) against the server in this process, on the embedded demo
//! server. Prints, for N sessions opened at once:
//! - the time from each session's shell request to its first whole frame (the dashboard
//!   without a session, its hint bar's last hint drawn): median, 90th percentile and worst;
//! - the process's resident memory per session (server and client sides together: an upper
//!   bound of the server's share);
//! - what idle sessions cost: bytes written to all of them and CPU time of the process over
//!   a quiet spell.
//!
//! `cargo run --release --example ssh_sessions -- 50` (default 50 sessions). Figures in
//! `docs/performance.md`. Exits 1 when a session drew no first frame or did not load its
//! queue after signing in (`S`, the token pasted), or when the whole run passes two minutes:
//! `.ci/run` runs it with 3 sessions so that it cannot rot again (issue 33: it hung once the
//! sign-in pop-up opened only on `S`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use club_admin::config::{Flags, resolve};
use club_admin::ssh::{Limits, ServeOptions};
use russh::ChannelMsg;
use russh::client;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKeyOrCertificate};

/// Trusts the server's host key (the server is this process's own).
struct Trust;

impl client::Handler for Trust {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

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

/// Opens one session with a key made from `seed` and waits for its first whole frame.
/// Returns the time from the shell request to that frame, and the open channel.
async fn open(
    addr: std::net::SocketAddr,
    seed: u8,
) -> Result<(Duration, client::Handle<Trust>, russh::Channel<client::Msg>), String> {
    let config = Arc::new(client::Config::default());
    let mut h = client::connect(config, addr, Trust)
        .await
        .map_err(|e| e.to_string())?;
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32]));
    let auth = h
        .authenticate_publickey("moderator", PrivateKeyWithHashAlg::new(Arc::new(key), None))
        .await
        .map_err(|e| e.to_string())?;
    if !auth.success() {
        return Err("refused".into());
    }
    let mut ch = h.channel_open_session().await.map_err(|e| e.to_string())?;
    ch.request_pty(false, "xterm-256color", 80, 24, 0, 0, &[])
        .await
        .map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    ch.request_shell(false).await.map_err(|e| e.to_string())?;
    let mut seen = Vec::new();
    loop {
        match ch.wait().await {
            Some(ChannelMsg::Data { data }) => {
                seen.extend_from_slice(&data);
                // The hint bar's last hint drawn (the bottom line comes last): the frame is
                // whole. The sign-in pop-up opens on `S` only.
                if String::from_utf8_lossy(&seen).contains("quit") {
                    return Ok((t0.elapsed(), h, ch));
                }
            }
            Some(_) => {}
            None => return Err("the channel closed before a frame".into()),
        }
    }
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let ok = rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), run(n))
            .await
            .unwrap_or_else(|_| {
                eprintln!("not done within two minutes");
                false
            })
    });
    if !ok {
        std::process::exit(1);
    }
}

/// The run; false when a session failed to draw or to load its queue.
async fn run(n: usize) -> bool {
    let demo = club_admin::demo::start(club_admin::demo::DemoOptions::default())
        .await
        .expect("demo");
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("config.toml"), "").expect("config");
    let flags = Flags {
        base_url: Some(demo.base_url.clone()),
        config: Some(dir.path().join("config.toml")),
        ..Flags::default()
    };
    let key = demo.moderator().api_key.clone();
    let env = move |k: &str| (k == "CLUB_ADMIN_API_KEY").then(|| key.clone());
    let mut settings = resolve(&flags, &env, None).expect("settings");
    settings.state_dir = Some(dir.path().to_path_buf());
    let keymap = club_admin::runtime::keymap(&settings).expect("keymap");
    let server = club_admin::ssh::start(
        ServeOptions {
            listen: "127.0.0.1:0".parse().expect("addr"),
            host_key: dir.path().join("host_key"),
            authorized_keys: None,
            allow_any_key: true,
            limits: Limits {
                max_sessions: n + 8,
                // n sessions open at once from one address: none of them is a flood.
                max_startups: club_admin::ssh::Startups {
                    start: n + 8,
                    rate: 100,
                    full: n + 8,
                },
                max_startups_per_address: n + 8,
                ..Limits::default()
            },
            reattach: Duration::from_secs(600),
            remember_tokens: None,
            mouse: false,
            status_socket: None,
        },
        settings,
        keymap,
    )
    .await
    .expect("serve-ssh");
    let addr = server.addr;
    // One session first, so that what every process pays once (TLS roots, the runtime's
    // threads, the first allocations) is not counted per session.
    let (warm, warm_h, warm_c) = open(addr, 255).await.expect("first session");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_before = rss_kb();

    let started = Instant::now();
    let tasks: Vec<_> = (0..n).map(|i| tokio::spawn(open(addr, i as u8))).collect();
    let mut times = Vec::new();
    let mut open_sessions = Vec::new();
    for t in tasks {
        match t.await {
            Ok(Ok((d, h, ch))) => {
                times.push(d);
                open_sessions.push((h, ch));
            }
            Ok(Err(e)) => eprintln!("a session failed: {e}"),
            Err(e) => eprintln!("a session's task failed: {e}"),
        }
    }
    let all = started.elapsed();
    times.sort();
    let pct = |p: f64| {
        times
            .get(((times.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_after = rss_kb();

    // Idle: count every byte any session gets, and the CPU the process spends.
    let bytes = Arc::new(AtomicU64::new(0));
    // Sessions that drew their queue's pending count after the sign-in.
    let pasted = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let loaded = Arc::new(AtomicU64::new(0));
    let mut readers = Vec::new();
    let mut writers = Vec::new();
    for (h, ch) in open_sessions {
        let (bytes, pasted, loaded) = (bytes.clone(), pasted.clone(), loaded.clone());
        let (mut read, write) = ch.split();
        writers.push(write);
        readers.push(tokio::spawn(async move {
            let _h = h;
            let mut counted = false;
            while let Some(msg) = read.wait().await {
                if let ChannelMsg::Data { data } = msg {
                    bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
                    if !counted
                        && pasted.load(Ordering::Relaxed)
                        && String::from_utf8_lossy(&data).contains("pending")
                    {
                        counted = true;
                        loaded.fetch_add(1, Ordering::Relaxed);
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
        "  shell request to first frame: median {:?}, p90 {:?}, worst {:?} (all drawn {:?} after the first connect)",
        pct(0.5),
        pct(0.9),
        pct(1.0),
        all
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
    for w in &writers {
        let _ = w.data_bytes(paste.clone().into_bytes()).await;
    }
    loop {
        let before = bytes.load(Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(2)).await;
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
    for r in readers {
        r.abort();
    }
    drop(writers);
    drop((warm_h, warm_c));
    server.stop().await;
    times.len() == n && loaded == n
}
