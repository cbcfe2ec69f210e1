//! Accepting connections: each TCP connection passes the door ([`super::door`]) before
//! russh sees it (`russh::server::run_stream`, one call per connection, so that a
//! connection can be counted, refused or cut before it is handed over), then has
//! `--banner-timeout` to send its SSH identification line and `--auth-timeout` from the
//! moment it was accepted to sign in (OpenSSH's `LoginGraceTime`: one deadline, banner,
//! key exchange and sign-in together). A connection the door cuts, or that runs out of
//! time, is ended by `shutdown` of its socket whatever russh's task is doing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use russh::server::run_stream;
use tokio::net::TcpListener;
use tokio::time::Instant;

use super::Shared;
use super::conn::Conn;
use super::conns::Life;
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
        let _ = socket.set_nodelay(true);
        // One deadline from the accept (OpenSSH's LoginGraceTime), a wait at the door in it.
        let sign_in_by = Instant::now() + shared.limits.auth_timeout;
        let shared = shared.clone();
        let config = config.clone();
        tokio::spawn(async move {
            if let Some(ticket) = enter(&shared, &socket, peer, sign_in_by).await {
                connection(socket, peer, config, shared, ticket, sign_in_by).await;
            }
        });
    }
}

/// How often a connection the door refused knocks again.
const KNOCK_AGAIN: std::time::Duration = std::time::Duration::from_millis(25);

/// A place among the connections waiting to knock again (at most `--max-startups`' FULL;
/// the oldest waiting one makes room for a new one): its number, and what resolves when it
/// must go.
fn hold(shared: &Shared) -> (u64, tokio::sync::oneshot::Receiver<()>) {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let number = NEXT.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = tokio::sync::oneshot::channel();
    if let Ok(mut held) = shared.held.lock() {
        while held.len() >= shared.limits.max_startups.full.max(1) {
            if let Some((_, oldest)) = held.pop_front() {
                let _ = oldest.send(());
            }
        }
        held.push_back((number, tx));
    }
    (number, rx)
}

/// How long a connection the door refused has to show it speaks (its identification line
/// waiting to be read) to be let knock again; a silent one is closed.
const SPEAK_WITHIN: std::time::Duration = std::time::Duration::from_millis(500);

/// The connection from `peer` on `socket` let in by the door: at once, or, when it speaks
/// (a client sends its identification line at once; a silent flood does not), after
/// knocking again every [`KNOCK_AGAIN`] while the door has no room and no connection it
/// may cut (those of a flood that are getting on are not cut: [`super::door::Graces`]),
/// until `sign_in_by` (`--auth-timeout` from its accept). So a moderator who connects in the middle of another
/// key's reconnect loops waits a moment instead of being reset. At most `--max-startups`'
/// FULL wait so; past them, a silent one or at the deadline, `None`: the socket is closed
/// (the client reads the end of the stream before any SSH identification line).
async fn enter(
    shared: &Shared,
    socket: &tokio::net::TcpStream,
    peer: SocketAddr,
    sign_in_by: Instant,
) -> Option<Ticket> {
    let why = match shared.door.knock(peer.ip()) {
        Ok(t) => return Some(t),
        Err(why) => why,
    };
    let speaks = tokio::time::timeout(SPEAK_WITHIN, socket.readable()).await;
    if !matches!(speaks, Ok(Ok(()))) {
        tracing::debug!(%peer, ?why, "silent connection refused at the door");
        return None;
    }
    let (number, mut evicted) = hold(shared);
    let mut stop = shared.stop.clone();
    let ticket = loop {
        tokio::select! {
            () = tokio::time::sleep(KNOCK_AGAIN) => {}
            _ = &mut evicted => {
                tracing::debug!(%peer, "connection waiting at the door closed: a newer one needed its place");
                break None;
            }
            _ = super::stopping(&mut stop) => break None,
        }
        if let Ok(t) = shared.door.knock_again(peer.ip()) {
            break Some(t);
        }
        if Instant::now() >= sign_in_by {
            tracing::debug!(%peer, "connection refused at the door until its deadline");
            break None;
        }
    };
    if let Ok(mut held) = shared.held.lock() {
        held.retain(|(n, _)| *n != number);
    }
    ticket
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

/// One connection, from the SSH identification line to its end (or the server's stop), to
/// sign in by `sign_in_by`. It holds its `ticket` throughout: the door counts it until it
/// signs in.
async fn connection(
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    config: Arc<russh::server::Config>,
    shared: Arc<Shared>,
    mut ticket: Ticket,
    sign_in_by: Instant,
) {
    let limits = &shared.limits;
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
    let life = Arc::new(Life::default());
    let handler = Conn::new(shared.clone(), peer, ticket.pass(), life.clone());
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
    run(session, peer, &shared, &life, sign_in_by, &mut ticket).await;
    // Whatever russh's task is doing now, the connection ends here.
    let _ = cutter.shutdown(std::net::Shutdown::Both);
    drop(ticket);
}

/// On a kick, a dashboard gives the client's terminal back and says why, then closes its
/// channel: true when that ended the connection within a second (a command or a bare
/// connection has nothing to hand back, and is closed by the caller).
async fn handed_back(life: &Life, session: &mut russh::server::RunningSession<Conn>) -> bool {
    life.hand_back.notify_one();
    let handed = tokio::time::timeout(std::time::Duration::from_secs(1), session);
    life.session.load(Ordering::SeqCst) && handed.await.is_ok()
}

/// A connection after its identification line: until it ends, until the door cuts it
/// (still in the key exchange, to make room), until `sign_in_by` passes without `authed`
/// (sent "authentication timed out", given 1 s to read it, then cut), until it asks for no
/// session within `--session-timeout` of its sign-in (`ssh -N`), until the operator ends it
/// (`serve-ssh kick`), or until the server stops.
async fn run(
    mut session: russh::server::RunningSession<Conn>,
    peer: SocketAddr,
    shared: &Shared,
    life: &Life,
    sign_in_by: Instant,
    ticket: &mut Ticket,
) {
    let handle = session.handle();
    let no_session = async {
        life.signed.notified().await;
        tokio::time::sleep(shared.limits.session_timeout).await;
        if life.session.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
    };
    let late = async {
        tokio::time::sleep_until(sign_in_by).await;
        if life.authed.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
    };
    let mut stop = shared.stop.clone();
    let reason = tokio::select! {
        r = &mut session => {
            if let Err(e) = r {
                // One line per connection only for those that signed in: a flood of
                // others is counted by the door and said in one line ([`super::door`]).
                if life.authed.load(Ordering::SeqCst) {
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
        () = no_session => {
            tracing::info!(%peer, "no dashboard or command asked for in time (--session-timeout): closed");
            "no dashboard or command was asked for in time: closed"
        }
        () = life.end.notified() => {
            tracing::info!(%peer, "connection ended by the operator (serve-ssh kick)");
            if handed_back(life, &mut session).await {
                return;
            }
            "ended by the server's operator"
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
            if life.authed.load(Ordering::SeqCst)
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
