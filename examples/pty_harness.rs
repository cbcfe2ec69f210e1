//! Measuring harness: the release binary in a pseudo-terminal at 120x40
//! against the demo server. Prints: bytes of the first frame, of a cursor move (median of
//! five) and of a page jump, and over 10 s of idleness; CPU time over those 10 s; time to the
//! first complete frame; peak RSS with 10,000 requests queued. `HARNESS_DUMP=1` prints the
//! bytes of each key. Byte counts do not depend on the build profile; times do.
//!
//! Run: `cargo build --release && cargo run --release --example pty_harness`
//!
//! `HARNESS_SIZE=45x30` measures the first frame, the cursor move and the idleness on a
//! terminal of that size instead (a phone held upright: the narrow layout), and stops there.

use std::path::PathBuf;
use std::time::Duration;

use club_admin::demo::{self, DemoOptions};

// The end-to-end tests' pseudo-terminal harness (an example cannot see `tests/common`).
#[path = "../tests/common/pty.rs"]
mod pty;

use pty::Pty;

fn binary() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = exe
        .parent()
        .and_then(|p| p.parent())
        .ok_or("no target dir")?;
    let bin = dir.join("club-admin");
    if !bin.exists() {
        return Err(format!(
            "{} not found: run cargo build --release first",
            bin.display()
        ));
    }
    Ok(bin)
}

fn start(
    args: &[String],
    envs: &[(String, String)],
    state: &std::path::Path,
) -> Result<Pty, String> {
    let mut cmd = pty::command(binary()?, state);
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let (cols, rows) = size();
    Ok(Pty::spawn(cmd, rows, cols))
}

/// The terminal's size (columns, rows): `HARNESS_SIZE` (`45x30`), else 120x40.
fn size() -> (u16, u16) {
    std::env::var("HARNESS_SIZE")
        .ok()
        .and_then(|v| {
            let (c, r) = v.split_once('x')?;
            Some((c.parse().ok()?, r.parse().ok()?))
        })
        .unwrap_or((120, 40))
}

/// Waits (at most `limit`) for the screen to satisfy `pred`; the time since the start.
fn wait_for(r: &Pty, pred: impl Fn(&str) -> bool, limit: Duration) -> Result<Duration, String> {
    match r.wait_within(limit, pred) {
        Some(_) => Ok(r.started().elapsed()),
        None => Err(format!("timed out; screen:\n{}", r.screen())),
    }
}

/// Waits until no byte arrives for `quiet` (at most 60 s; then the screen is printed to
/// standard error, for the reason).
fn quiesce(r: &Pty, quiet: Duration) {
    if !r.quiesce(quiet, Duration::from_secs(60)) {
        eprintln!("never quiet for {quiet:?} in 60 s; screen:\n{}", r.screen());
    }
}

/// Bytes written in answer to one key, once the screen is quiet again; with
/// `HARNESS_DUMP` set, they are printed to standard error.
fn key_bytes(r: &mut Pty, key: &[u8], what: &str) -> usize {
    let before = r.len();
    r.send(key);
    quiesce(r, Duration::from_millis(300));
    if std::env::var_os("HARNESS_DUMP").is_some() {
        let o = r.bytes();
        eprintln!("{what} bytes: {:?}", String::from_utf8_lossy(&o[before..]));
    }
    r.len() - before
}

/// CPU time of all threads in clock ticks (utime + stime from /proc/PID/task/*/stat) and
/// their context switches (from .../status). Ticks are coarse (10 ms); a thread that was
/// never switched in did not run at all, which is the finer proof of idleness.
fn cpu_and_switches(pid: u32) -> (u64, u64) {
    let mut ticks = 0;
    let mut switches = 0;
    if let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in dir.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("stat"))
                && let Some(rest) = s.rsplit(')').next()
            {
                let f: Vec<&str> = rest.split_whitespace().collect();
                // After the command: state is field 3; utime 14 and stime 15 (1-based).
                ticks += f.get(11).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
                ticks += f.get(12).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
            }
            if let Ok(s) = std::fs::read_to_string(t.path().join("status")) {
                for l in s.lines() {
                    if l.starts_with("voluntary_ctxt_switches")
                        || l.starts_with("nonvoluntary_ctxt_switches")
                    {
                        switches += l
                            .split_whitespace()
                            .nth(1)
                            .and_then(|x| x.parse::<u64>().ok())
                            .unwrap_or(0);
                    }
                }
            }
        }
    }
    (ticks, switches)
}

fn peak_rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// `q`, then the kill after 5 s.
fn quit(mut r: Pty) {
    r.send(b"q");
    if r.wait_exit_within(Duration::from_secs(5)).is_none() {
        r.kill();
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok { "meets target" } else { "MISSES target" }
}

fn main() -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let d = rt.block_on(demo::start(DemoOptions {
        extra_requests: 10_000,
        ..DemoOptions::default()
    }))?;
    let tmp = std::env::temp_dir().join(format!("club-admin-harness-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&tmp);
    let m = d.moderator().clone();
    let envs = vec![
        ("CLUB_ADMIN_API_KEY".to_owned(), m.api_key.clone()),
        ("CLUB_ADMIN_TOKEN".to_owned(), m.token.clone()),
    ];
    let args = vec!["--base-url".to_owned(), d.base_url.clone()];

    // 1. First frame, cursor move, idleness.
    let mut r = start(&args, &envs, &tmp)?;
    // The header: its title, or (narrow layout, no title) anything drawn.
    let first_any = wait_for(
        &r,
        |s| s.contains("club-admin") || (size().0 < 60 && !s.trim().is_empty()),
        Duration::from_secs(10),
    )?;
    // The queue listed: its server count, or (narrow layout, where that gives way) rows.
    let first_full = wait_for(
        &r,
        |s| s.contains("server: ") || (size().0 < 60 && s.matches(" #5").count() > 3),
        Duration::from_secs(10),
    )?;
    quiesce(&r, Duration::from_millis(500));
    let first_bytes = r.len();
    // Five cursor moves (`j`), one at a time, then one page jump (PageDown).
    let mut moves = Vec::new();
    for _ in 0..5 {
        moves.push(key_bytes(&mut r, b"j", "cursor move"));
    }
    let page_bytes = key_bytes(&mut r, b"\x1b[6~", "page jump");
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    let move_bytes = sorted[sorted.len() / 2];
    let idle_start_bytes = r.len();
    let (t0, s0) = cpu_and_switches(r.pid());
    std::thread::sleep(Duration::from_secs(10));
    let idle_bytes = r.len() - idle_start_bytes;
    let (t1, s1) = cpu_and_switches(r.pid());
    let tick_ms = 1000.0 / 100.0;
    let idle_cpu_ms = (t1 - t0) as f64 * tick_ms;
    let idle_switches = s1 - s0;
    quit(r);

    println!(
        "terminal {}x{}, release binary, demo server on loopback",
        size().0,
        size().1
    );
    println!(
        "time to first frame (header drawn):        {:>8.1} ms",
        first_any.as_secs_f64() * 1e3
    );
    println!(
        "time to first complete frame (queue shown): {:>8.1} ms   ({})",
        first_full.as_secs_f64() * 1e3,
        verdict(first_full < Duration::from_millis(100) + first_any)
    );
    println!("bytes written, first frame (settled):      {first_bytes:>8}");
    println!(
        "bytes written, one cursor move (median of 5): {move_bytes:>5}   target <= 300: {}   (each: {moves:?})",
        verdict(move_bytes <= 300)
    );
    println!(
        "bytes written, one page jump (PageDown):   {page_bytes:>8}   target <= 1500: {}",
        verdict(page_bytes <= 1500)
    );
    println!(
        "bytes written, 10 s idle:                  {idle_bytes:>8}   target 0: {}",
        verdict(idle_bytes == 0)
    );
    println!(
        "CPU time, 10 s idle:                       {idle_cpu_ms:>8.1} ms   ({} clock ticks, {idle_switches} context switches over all threads)   target < 5 ms: {}",
        t1 - t0,
        verdict(idle_cpu_ms < 5.0 && (idle_switches == 0 || t1 == t0))
    );

    if std::env::var_os("HARNESS_SIZE").is_some() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Ok(());
    }

    // 2. Peak RSS with 10,000 requests queued (ids from --queue-file, each read from the server).
    let ids: Vec<String> = d
        .pending_for("moderator")
        .iter()
        .take(10_000)
        .map(|i| i.to_string())
        .collect();
    let qf = tmp.join("ids.txt");
    std::fs::write(&qf, ids.join("\n")).map_err(|e| e.to_string())?;
    let mut args2 = args.clone();
    args2.push("--queue-file".into());
    args2.push(qf.display().to_string());
    let r = start(&args2, &envs, &tmp)?;
    wait_for(&r, |s| s.contains("Queue 10"), Duration::from_secs(30))?;
    // Wait until every row is read (no spinner for a while).
    quiesce(&r, Duration::from_millis(1500));
    let rss = peak_rss_kb(r.pid());
    let screen = r.screen();
    let title = screen.lines().nth(1).unwrap_or("").trim().to_owned();
    quit(r);
    println!(
        "peak RSS with {} requests queued:       {:>8.1} MB   target < 50 MB: {}   [{}]",
        ids.len(),
        rss as f64 / 1024.0,
        verdict(rss < 50 * 1024),
        title
    );
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}
