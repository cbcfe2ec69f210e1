//! Measuring harness (issue 31, item 2): one bulk approval of N requests in the dashboard
//! (mark, `a`, `y`) through the real `update`, worker and HTTP client against the demo
//! server, with or without an audit file, so that the cost of the audit lines (the
//! write-ahead `sending` line before each write, and the batched syncs) can be told apart.
//! Built on the public API that `c5db095` (before the write-ahead line) has too, so the same
//! file measures both builds.
//!
//! Run: `cargo run --release --example bulk_approve_audited -- [N] [LATENCY_MS] [CONCURRENCY]
//! [DIR|none]` (defaults 251, 0, 8, none). With DIR, the audit file is `DIR/audit.jsonl`
//! (DIR must not hold one yet: the lines are counted after the run). Prints the time from `y`
//! until every answer is in, the time until the file writer has written (and, where it
//! syncs, synced) every line handed to it, and the audit file's lines by outcome.

#[path = "../tests/common/headless.rs"]
mod headless;

use headless::Headless;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::app::{Key, KeyCode};
use club_admin::app::{Model, ModelOptions, Msg, Popup};
use club_admin::demo::{self, DemoOptions, Faults};
use club_admin::ops::writer::Writer;
use club_admin::runtime::effects::Files;

fn key(c: char) -> Msg {
    Msg::Key(Key::char(c))
}

struct Measured {
    answered: Duration,
    written: Duration,
}

async fn run(
    n: usize,
    latency: Duration,
    concurrency: usize,
    audit: Option<PathBuf>,
) -> Result<Measured, String> {
    let d = demo::start(DemoOptions {
        extra_requests: n,
        ..DemoOptions::default()
    })
    .await?;
    let u = d.moderator().clone();
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key), Some(u.token)),
        ClientOptions {
            concurrency,
            ..ClientOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    // No grace period: the harness measures sending.
    let model = Model::new(ModelOptions {
        decision_delay: Duration::ZERO,
        ..ModelOptions::new(&d.base_url)
    });
    let files = Files {
        audit_path: audit,
        ..Files::default()
    };
    let mut h = Headless::with_files(model, client, concurrency, files);
    h.run_until_idle(Duration::from_secs(60)).await?;
    let ids: Vec<String> = d
        .pending_for("moderator")
        .iter()
        .take(n)
        .map(|i| i.to_string())
        .collect();
    if ids.len() != n {
        return Err(format!(
            "{} pending for the moderator, expected {n}",
            ids.len()
        ));
    }
    h.send(Msg::AddIds {
        text: ids.join("\n"),
        origin: club_admin::app::IdsFrom::Dialog,
    });
    h.run_until_idle(Duration::from_secs(120)).await?;
    // Only the N chosen rows are marked.
    h.send(Msg::Key(Key::new(KeyCode::Char('/'))));
    h.send(Msg::Key(Key::new(KeyCode::Enter)));
    h.send(key('g'));
    for _ in 0..h.model.queue().visible().len() {
        let chosen = h
            .model
            .queue()
            .selected()
            .is_some_and(|i| ids.contains(&i.id.to_string()));
        h.send(key(if chosen { ' ' } else { 'j' }));
    }
    h.run_until_idle(Duration::from_secs(120)).await?;
    let marked = h.model.queue().stats().marked;
    if marked != n {
        return Err(format!("marked {marked}, expected {n}"));
    }
    // Whatever the start wrote is out of the way before the clock starts.
    Writer::process()
        .written()
        .await
        .map_err(|e| e.to_string())?;
    d.set_faults(Faults {
        latency,
        ..Faults::default()
    });
    let start = Instant::now();
    h.send(key('a'));
    if !matches!(h.model.popup(), Some(Popup::Confirm { .. })) {
        return Err("no confirmation".into());
    }
    h.send(key('y'));
    h.run_until_idle(Duration::from_secs(600)).await?;
    let answered = start.elapsed();
    Writer::process()
        .written()
        .await
        .map_err(|e| e.to_string())?;
    let written = start.elapsed();
    let approved = ids
        .iter()
        .filter_map(|i| i.parse().ok())
        .filter(|i| d.request_status(*i) == Some(MembershipStatus::Approved))
        .count();
    if approved != n {
        return Err(format!("{approved} of {n} approved on the server"));
    }
    let muts = d.mutations();
    if muts.len() != n {
        return Err(format!("{} mutations for {n} requests", muts.len()));
    }
    Ok(Measured { answered, written })
}

/// The audit file's lines counted by their `outcome`.
fn count_outcomes(path: &std::path::Path) -> Result<Vec<(String, usize)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let outcome = v["outcome"].as_str().unwrap_or("?").to_owned();
        match counts.iter_mut().find(|(o, _)| *o == outcome) {
            Some((_, c)) => *c += 1,
            None => counts.push((outcome, 1)),
        }
    }
    Ok(counts)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(251);
    let latency_ms: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let conc: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(8);
    let audit = match args.get(3).map(String::as_str) {
        None | Some("none") => None,
        Some(dir) => Some(PathBuf::from(dir).join("audit.jsonl")),
    };
    if let Some(path) = &audit
        && path.exists()
    {
        return Err(format!("{} exists already", path.display()));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let m = rt.block_on(run(
        n,
        Duration::from_millis(latency_ms),
        conc,
        audit.clone(),
    ))?;
    let lines = match &audit {
        Some(path) => count_outcomes(path)?
            .iter()
            .map(|(o, c)| format!("{c} {o}"))
            .collect::<Vec<_>>()
            .join(", "),
        None => "no audit file".to_owned(),
    };
    println!(
        "bulk approve (dashboard): {n} requests, {latency_ms} ms latency, concurrency {conc}: \
         answered {:.3} s, written {:.3} s; {lines}",
        m.answered.as_secs_f64(),
        m.written.as_secs_f64(),
    );
    Ok(())
}
