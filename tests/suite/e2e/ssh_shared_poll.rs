//! One poll per scope (issue 33, item 4): `serve-ssh` sessions on one scope share the
//! listing's reads. N sessions (russh's client, in-process, a key each) sign in with the
//! moderator's token and draw their queue; the first approves its first request (a
//! write's answer starts a new epoch of the shared store: nothing read before it answers a
//! read after it, so the refresh below reads anew, as after the 30 s between two ticks);
//! then the server's refresh clock ticks ([`ServerHandle::refresh_now`], as every
//! `--auto-refresh` period does) and the calls the demo server receives for that refresh
//! of every queue are counted, for 1 session and for 50, and for 50 with the term view open.
#![cfg(unix)]

use std::time::{Duration, Instant};

use crate::common::pty::GUARD;
use crate::common::ssh_sessions::{Session, queue_drawn, serve, until};
use club_admin::api::shared_listing::SharedCounts;
use club_admin::demo::{self, DemoHandle, DemoOptions};
use club_admin::ssh::ServerHandle;

/// Waits until no call is in flight and the demo server received none for a moment: every
/// answer is in.
async fn until_quiet(server: &ServerHandle, demo: &DemoHandle) -> u64 {
    let deadline = Instant::now() + GUARD;
    loop {
        let before = demo.calls();
        tokio::time::sleep(Duration::from_millis(250)).await;
        if server.calls().in_flight == 0 && demo.calls() == before {
            return before;
        }
        assert!(Instant::now() < deadline, "the calls never ended");
    }
}

/// `n` sessions sign in and draw their queue (then, with `term`, open the term view, `T`,
/// once the approval is in); the server's refresh clock ticks once, and every session asks
/// its listing reads (`reads_each` of them, as one session alone asks: at least one). The
/// calls the demo server received for that refresh, and how the listing reads were
/// answered meanwhile.
fn one_refresh(n: usize, reads_each: u64, term: bool) -> (u64, SharedCounts) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let demo = demo::start(DemoOptions::default()).await.expect("demo");
        let dir = tempfile::tempdir().expect("dir");
        // The refresh clock ticks by hand only; an approval leaves at once.
        let server = serve(&demo, dir.path(), n, 0, 0).await;
        let sessions =
            futures::future::join_all((0..n).map(|i| Session::open(server.addr, i as u32))).await;
        let token = demo.moderator().token.clone();
        for s in &sessions {
            until("the dashboard", || s.shows(|t| t.contains("S to sign in"))).await;
            s.send(b"S").await;
        }
        for s in &sessions {
            until("the sign-in pop-up", || {
                s.shows(|t| t.contains("┌ Sign in"))
            })
            .await;
            s.send(format!("\x1b[200~{token}\x1b[201~\r").as_bytes())
                .await;
        }
        for s in &sessions {
            until("the queue", || s.shows(queue_drawn)).await;
        }
        until_quiet(&server, &demo).await;
        sessions[0].send(b"a").await;
        until("the approval", || demo.mutations().len() == 1).await;
        if term {
            for s in &sessions {
                s.send(b"T").await;
            }
            for s in &sessions {
                until("the term view", || {
                    s.shows(|t| t.contains("Pending requests by club"))
                })
                .await;
            }
        }
        let before = until_quiet(&server, &demo).await;
        let reads = server.calls().listing_reads;
        server.refresh_now();
        // Every session asked for its listing again (the first page at least).
        until("every session's refresh", || {
            let r = server.calls().listing_reads;
            (r.sent + r.joined + r.reused) - (reads.sent + reads.joined + reads.reused)
                >= n as u64 * reads_each.max(1)
        })
        .await;
        let after = until_quiet(&server, &demo).await;
        let now = server.calls().listing_reads;
        // The clients go first: a server stops once its connections have ended.
        drop(sessions);
        server.stop().await;
        (
            after - before,
            SharedCounts {
                sent: now.sent - reads.sent,
                joined: now.joined - reads.joined,
                reused: now.reused - reads.reused,
            },
        )
    })
}

#[test]
fn fifty_sessions_on_one_scope_refresh_with_the_calls_of_one() {
    let (one, one_reads) = one_refresh(1, 1, false);
    assert!(one >= 1, "a refresh reads the listing: {one} calls");
    assert_eq!(
        one_reads.joined + one_reads.reused,
        0,
        "alone, and after a write: nothing to share"
    );
    // As many listing reads as one session asks, for each of the 50 (the last to take the
    // tick included).
    let each = one_reads.sent + one_reads.joined + one_reads.reused;
    let (fifty, reads) = one_refresh(50, each, false);
    eprintln!(
        "one refresh: 1 session {one} calls ({one_reads:?}), 50 sessions {fifty} calls ({reads:?})"
    );
    // Without the shared poll every session would read on its own: 50 times one's calls.
    // One read for every session, or two where a session took the tick late.
    assert!(
        fifty <= 2 * one,
        "50 sessions' refresh made {fifty} calls; one session's makes {one}"
    );
    assert!(
        reads.joined + reads.reused >= 49 * one_reads.sent,
        "the other sessions were answered by the shared reads: {reads:?} (one session: {one_reads:?})"
    );
    // The term view open in every session costs the refresh nothing more: it follows the
    // queue's own reads, shared as they are. (Run after the above, not beside it: 100
    // sessions at once on a small machine take the tick late.)
    let (viewing, reads) = one_refresh(50, each, true);
    eprintln!("one refresh: 50 sessions with the term view open {viewing} calls ({reads:?})");
    assert!(
        viewing <= 2 * one,
        "50 sessions' refresh with the view open made {viewing} calls; one session's queue makes {one}"
    );
}
