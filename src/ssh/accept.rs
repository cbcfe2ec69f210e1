//! Accepting connections: each TCP connection passes the door ([`super::door`]) before
//! russh sees it (`russh::server::run_stream`, one call per connection, so that a
//! connection can be counted, refused or cut before it is handed over), then has
//! `--banner-timeout` to send its SSH identification line and `--auth-timeout` from the
//! moment it was accepted to sign in (OpenSSH's `LoginGraceTime`: one deadline, banner,
//! key exchange and sign-in together). A connection the door cuts, or that runs out of
//! time, is ended by `shutdown` of its socket whatever russh's task is doing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use russh::server::run_stream;
use tokio::net::TcpListener;
use tokio::time::Instant;

use super::Shared;
use super::conn::Conn;
use super::door::Ticket;

/// Accepts connections until the server stops; each one the door lets in runs in a task of
/// its own. A refused connection is closed at once (the client reads the end of the
/// stream before any SSH identification line).
pub(super) async fn accept_loop(
    listener: TcpListener,
    config: Arc<russh::server::Config>,
    shared: Arc<Shared>,
) {
    let mut stop = shared.stop.clone();
    loop {
        let accepted = tokio::select! {
            _ = super::stopping(&mut stop) => break,
            a = listener.accept() => a,
        };
        let (socket, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors, most likely: wait a little rather than spin.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let ticket = match shared.door.knock(peer.ip()) {
            Ok(t) => t,
            Err(why) => {
                tracing::debug!(%peer, ?why, "connection refused at the door");
                drop(socket);
                continue;
            }
        };
        let _ = socket.set_nodelay(true);
        let shared = shared.clone();
        let config = config.clone();
        tokio::spawn(connection(socket, peer, config, shared, ticket));
    }
}

/// A second handle on `socket` (the same socket, another descriptor) to end it with
/// `shutdown` whatever russh's task is doing: russh reads no message of the connection's
/// `Handle` (a disconnect) while a key exchange is under way, so a client that stalls in
/// the key exchange would outlive every deadline otherwise.
///
/// Errors: the descriptor cannot be duplicated (out of descriptors) or registered again.
fn with_cutter(
    socket: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, std::net::TcpStream)> {
    let socket = socket.into_std()?;
    let cutter = socket.try_clone()?;
    Ok((tokio::net::TcpStream::from_std(socket)?, cutter))
}

/// One connection, from the SSH identification line to its end (or the server's stop). It
/// holds its `ticket` throughout: the door counts it until it signs in.
async fn connection(
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    config: Arc<russh::server::Config>,
    shared: Arc<Shared>,
    mut ticket: Ticket,
) {
    let opened = Instant::now();
    let limits = &shared.limits;
    let sign_in_by = opened + limits.auth_timeout;
    let mut stop = shared.stop.clone();
    // Its turn to start the key exchange, at the runtime's pace ([`super::pace`]); silent
    // until then, as far as the door knows.
    tokio::select! {
        () = shared.pace.turn() => {}
        () = ticket.cut() => {
            tracing::debug!(%peer, "connection waiting its turn cut: a new one needed its place");
            return;
        }
        () = tokio::time::sleep_until(sign_in_by) => {
            ticket.sign_in_late();
            tracing::debug!(%peer, "no turn before the sign-in deadline: closed");
            return;
        }
        _ = super::stopping(&mut stop) => return,
    }
    // Its identification line is awaited from its turn on.
    let banner_by = (Instant::now() + limits.banner_timeout).min(sign_in_by);
    let (socket, cutter) = match with_cutter(socket) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(%peer, "connection dropped: {e}");
            return;
        }
    };
    let authed = Arc::new(AtomicBool::new(false));
    let handler = Conn::new(shared.clone(), peer, authed.clone(), ticket.pass());
    // `run_stream` sends the server's identification line and returns once the client's
    // has been read; the key exchange and sign-in then run in russh's own task.
    let started = tokio::select! {
        r = tokio::time::timeout_at(banner_by, run_stream(config, socket, handler)) => r,
        () = ticket.cut() => {
            tracing::debug!(%peer, "silent connection cut: a new one needed its place");
            return;
        }
        _ = super::stopping(&mut stop) => return,
    };
    let session = match started {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            tracing::debug!(%peer, "SSH identification failed: {e}");
            return;
        }
        Err(_) => {
            ticket.banner_late();
            tracing::debug!(%peer, "no SSH identification line in time: closed");
            return;
        }
    };
    ticket.spoke();
    run(session, peer, &shared, &authed, sign_in_by, &mut ticket).await;
    // Whatever russh's task is doing now, the connection ends here.
    let _ = cutter.shutdown(std::net::Shutdown::Both);
    drop(ticket);
}

/// A connection after its identification line: until it ends, until the door cuts it
/// (still in the key exchange, to make room), until `sign_in_by` passes without `authed`
/// (told "authentication timed out", given 1 s to take it, then cut), or until the server
/// stops.
async fn run(
    mut session: russh::server::RunningSession<Conn>,
    peer: SocketAddr,
    shared: &Shared,
    authed: &AtomicBool,
    sign_in_by: Instant,
    ticket: &mut Ticket,
) {
    let handle = session.handle();
    let late = async {
        tokio::time::sleep_until(sign_in_by).await;
        if authed.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
    };
    let mut stop = shared.stop.clone();
    let reason = tokio::select! {
        r = &mut session => {
            if let Err(e) = r {
                // One line per connection only for those that signed in: a flood of
                // others is counted by the door and said in one line ([`super::door`]).
                if authed.load(Ordering::SeqCst) {
                    tracing::info!(%peer, "connection ended: {e}");
                } else {
                    tracing::debug!(%peer, "connection ended before signing in: {e}");
                }
            }
            return;
        }
        () = ticket.cut() => {
            tracing::debug!(%peer, "connection in the key exchange cut: a new one needed its place");
            return;
        }
        () = late => {
            ticket.sign_in_late();
            tracing::debug!(%peer, "not signed in in time: closed");
            "authentication timed out"
        }
        _ = super::stopping(&mut stop) => {
            // The dashboard ends (held decisions, the terminal given back) and closes its
            // channel; the client then leaves. Wait for that, within the final wait (a
            // connection not signed in has no dashboard: no wait). A session that ended
            // is not polled again.
            let wait = shared.settings.client.request_timeout + std::time::Duration::from_secs(3);
            if authed.load(Ordering::SeqCst)
                && tokio::time::timeout(wait, &mut session).await.is_ok()
            {
                return;
            }
            "the server is stopping"
        }
    };
    let _ = handle
        .disconnect(
            russh::Disconnect::ByApplication,
            reason.into(),
            String::new(),
        )
        .await;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), &mut session).await;
}
