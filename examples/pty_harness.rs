//! Measuring harness (issues 6 and 13): the release binary in a pseudo-terminal at 120x40
//! against the demo server. Prints: bytes of the first frame, of a cursor move (median of
//! five) and of a page jump, and over 10 s of idleness; CPU time over those 10 s; time to the
//! first complete frame; peak RSS with 10,000 requests queued. `HARNESS_DUMP=1` prints the
//! bytes of each key. Byte counts do not depend on the build profile; times do.
//!
//! Run: `cargo build --release && cargo run --release --example pty_harness`

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use club_admin::demo::{self, DemoOptions};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

struct Run {
    out: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    pid: u32,
    started: Instant,
}

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
) -> Result<Run, String> {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(|e| e.to_string())?;
    let mut cmd = CommandBuilder::new(binary()?);
    cmd.args(args);
    cmd.env("TERM", "xterm-256color");
    cmd.env("XDG_STATE_HOME", state.join("state"));
    cmd.env("XDG_CONFIG_HOME", state.join("config"));
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let child = pair.slave.spawn_command(cmd).map_err(|e| e.to_string())?;
    let pid = child.process_id().ok_or("no pid")?;
    let mut reader = pair.master.try_clone_reader().map_err(|e| e.to_string())?;
    let out = Arc::new(Mutex::new(Vec::new()));
    let sink = out.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut o) = sink.lock() {
                o.extend_from_slice(&buf[..n]);
            }
        }
    });
    let writer = pair.master.take_writer().map_err(|e| e.to_string())?;
    std::mem::forget(pair.master);
    Ok(Run {
        out,
        writer,
        child,
        pid,
        started,
    })
}

impl Run {
    fn bytes(&self) -> usize {
        self.out.lock().map(|o| o.len()).unwrap_or(0)
    }
    fn screen(&self) -> String {
        let bytes = self.out.lock().map(|o| o.clone()).unwrap_or_default();
        let (Some(r), Some(c)) = (std::num::NonZero::new(40), std::num::NonZero::new(120)) else {
            return String::new();
        };
        let mut p = vt100::Parser::new(r, c, 0);
        p.process(&bytes);
        p.screen().contents()
    }
    fn wait_for(&self, pred: impl Fn(&str) -> bool, limit: Duration) -> Result<Duration, String> {
        let deadline = Instant::now() + limit;
        loop {
            if pred(&self.screen()) {
                return Ok(self.started.elapsed());
            }
            if Instant::now() > deadline {
                return Err(format!("timed out; screen:\n{}", self.screen()));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    /// Waits until no byte arrives for `quiet` (at most 60 s; then the screen is printed to
    /// standard error, for the reason).
    fn quiesce(&self, quiet: Duration) {
        let mut last = self.bytes();
        let mut since = Instant::now();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            std::thread::sleep(Duration::from_millis(20));
            let now = self.bytes();
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed() >= quiet {
                return;
            }
            if Instant::now() > deadline {
                eprintln!(
                    "never quiet for {quiet:?} in 60 s; screen:\n{}",
                    self.screen()
                );
                return;
            }
        }
    }
    /// Bytes written in answer to one key, once the screen is quiet again; with
    /// `HARNESS_DUMP` set, they are printed to standard error.
    fn key_bytes(&mut self, key: &[u8], what: &str) -> usize {
        let before = self.bytes();
        self.send(key);
        self.quiesce(Duration::from_millis(300));
        if std::env::var_os("HARNESS_DUMP").is_some() {
            let o = self
                .out
                .lock()
                .map(|o| o[before..].to_vec())
                .unwrap_or_default();
            eprintln!("{what} bytes: {:?}", String::from_utf8_lossy(&o));
        }
        self.bytes() - before
    }
    fn send(&mut self, b: &[u8]) {
        let _ = self.writer.write_all(b);
        let _ = self.writer.flush();
    }
    /// CPU time of all threads in clock ticks (utime + stime from /proc/PID/task/*/stat) and
    /// their context switches (from .../status). Ticks are coarse (10 ms); a thread that
    /// was never switched in did not run at all, which is the finer proof of idleness.
    fn cpu_and_switches(&self) -> (u64, u64) {
        let mut ticks = 0;
        let mut switches = 0;
        if let Ok(dir) = std::fs::read_dir(format!("/proc/{}/task", self.pid)) {
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
    fn peak_rss_kb(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse().ok())
            })
            .unwrap_or(0)
    }
    fn quit(mut self) {
        self.send(b"q");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
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
    let first_any = r.wait_for(|s| s.contains("club-admin"), Duration::from_secs(10))?;
    let first_full = r.wait_for(|s| s.contains("server: "), Duration::from_secs(10))?;
    r.quiesce(Duration::from_millis(500));
    let first_bytes = r.bytes();
    // Five cursor moves (`j`), one at a time, then one page jump (PageDown).
    let mut moves = Vec::new();
    for _ in 0..5 {
        moves.push(r.key_bytes(b"j", "cursor move"));
    }
    let page_bytes = r.key_bytes(b"\x1b[6~", "page jump");
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    let move_bytes = sorted[sorted.len() / 2];
    let idle_start_bytes = r.bytes();
    let (t0, s0) = r.cpu_and_switches();
    std::thread::sleep(Duration::from_secs(10));
    let idle_bytes = r.bytes() - idle_start_bytes;
    let (t1, s1) = r.cpu_and_switches();
    let tick_ms = 1000.0 / 100.0;
    let idle_cpu_ms = (t1 - t0) as f64 * tick_ms;
    let idle_switches = s1 - s0;
    r.quit();

    println!("terminal 120x40, release binary, demo server on loopback");
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
    r.wait_for(|s| s.contains("Queue 10"), Duration::from_secs(30))?;
    // Wait until every row is read (no spinner for a while).
    r.quiesce(Duration::from_millis(1500));
    let rss = r.peak_rss_kb();
    let screen = r.screen();
    let title = screen.lines().nth(1).unwrap_or("").trim().to_owned();
    r.quit();
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
