//! The scripting subcommands run for an SSH exec request (`ssh -p 2222 HOST requests list
//! --json`): the command read ([`super::exec_line::parse`]), the key's moderator signed
//! in with the token the key signed in with last (`--remember-tokens`) or the one the
//! client sent (`SetEnv CLUB_ADMIN_TOKEN`), the run counted against the key's sessions and
//! shown by the status, its standard output, standard error and exit code carried by the
//! channel ([`super::streams::Channel`]). The run is the command line's own code, given
//! the server's settings ([`HostRun`]): its audit lines go to the host's audit (`via:
//! ssh-exec`, the key beside them) and reach the live dashboards as another session's.
//!
//! A client that hangs up, the operator's time limit and the server's stop each interrupt
//! the run as a first Ctrl-C does: nothing more is sent, the answers in flight are awaited
//! and audited. Past the limit and [`GRACE`], it stops waiting (a second Ctrl-C: each
//! write still without an answer is audited `unknown`); 5 s on, it is ended.

use std::sync::Arc;
use std::time::Duration;

use russh::ChannelId;
use russh::server::Handle;
use secrecy::SecretString;
use tokio::sync::watch;

use super::Shared;
use super::exec_line::{self as line, Parsed};
use super::session::Full;
use super::streams::{Channel, ChannelEnds, Chunk, INPUT_LIMIT};
use crate::ops::audit::{AfterWrite, AuditLog};
use crate::script::{Connection, Exit, HistoryArgs, HistoryAudit, Host};

/// After the time limit interrupted a run, how long its answers in flight are awaited
/// before it stops waiting for them.
pub(crate) const GRACE: Duration = Duration::from_secs(30);

/// The connection's end of a running command: the client's bytes for it, and its
/// interruption when the connection goes (this is dropped with the connection).
pub(super) struct ExecLink {
    input: Option<tokio::sync::mpsc::UnboundedSender<Vec<u8>>>,
    /// Bytes of standard input passed on so far: past [`INPUT_LIMIT`]
    /// the rest is dropped here (the run reads no more of it).
    fed: usize,
    interrupt: watch::Sender<u8>,
    terminal: bool,
}

impl ExecLink {
    /// The client's bytes: its standard input; with a terminal (`ssh -t`) a Ctrl-C (0x03)
    /// interrupts the run instead, as on a terminal of its own.
    pub(super) fn feed(&mut self, data: &[u8]) {
        let Some(input) = &self.input else {
            return;
        };
        if data.is_empty() || self.fed > INPUT_LIMIT {
            return;
        }
        self.fed += data.len();
        if self.terminal && data.contains(&0x03) {
            self.raise(self.level() + 1);
            let rest: Vec<u8> = data.iter().copied().filter(|b| *b != 0x03).collect();
            if !rest.is_empty() {
                let _ = input.send(rest);
            }
            return;
        }
        let _ = input.send(data.to_vec());
    }

    /// The client's standard input ended (an empty chunk says so: the run reads its end).
    pub(super) fn end_of_input(&mut self) {
        if let Some(input) = self.input.take() {
            let _ = input.send(Vec::new());
        }
    }

    fn level(&self) -> u8 {
        *self.interrupt.borrow()
    }

    fn raise(&self, to: u8) {
        self.interrupt.send_if_modified(|n| {
            let up = *n < to;
            if up {
                *n = to;
            }
            up
        });
    }
}

impl Drop for ExecLink {
    /// The connection is gone (the client hung up): the run is interrupted as by a Ctrl-C.
    fn drop(&mut self) {
        // The run's streams hold a receiver while it lives.
        if self.level() == 0 && self.interrupt.receiver_count() > 0 {
            tracing::info!("an exec run's client hung up: nothing more is sent");
        }
        self.raise(1);
    }
}

/// Who asks, and how: what the connection knows when the exec request comes.
pub(super) struct Asker {
    /// The key's fingerprint.
    pub(super) key: String,
    /// The key's comment in the authorized keys file.
    pub(super) comment: Option<String>,
    /// The token the run uses: the one the client sent (`CLUB_ADMIN_TOKEN`), else the one
    /// remembered for its key (`--remember-tokens`), if any.
    pub(super) token: Option<SecretString>,
    /// The client's terminal width when it asked for one.
    pub(super) terminal: Option<u16>,
    /// The client's `COLUMNS` (`SetEnv`), when it sent one.
    pub(super) columns: Option<u16>,
    /// The client's language (its `LANG`, else the server's): the few words of the command
    /// line that have a Thai form (an interruption before any write) are said in it.
    pub(super) lang: crate::i18n::Lang,
}

/// Starts the command `command` for `asker` on `channel`; the link the connection feeds
/// the client's bytes through.
pub(super) fn start(
    shared: &Arc<Shared>,
    handle: Handle,
    channel: ChannelId,
    asker: Asker,
    command: &[u8],
) -> ExecLink {
    let (interrupt, _) = watch::channel(0);
    let mut link = ExecLink {
        input: None,
        fed: 0,
        interrupt,
        terminal: asker.terminal.is_some(),
    };
    let parsed = line::parse(command);
    let shown = line::for_log(command);
    let line = match parsed {
        Parsed::Said {
            text,
            to_stdout,
            code,
        } => {
            tracing::info!(key = %asker.key, command = %shown, code, "exec not run");
            tokio::spawn(say_and_close(handle, channel, text, to_stdout, code));
            return link;
        }
        Parsed::Run(line) => line,
    };
    let Some((run, lock)) = claim(shared, &asker, &handle, channel, &shown) else {
        return link;
    };
    let number = shared
        .next_dash
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let host = host_run(shared, &asker, &line, number, run);
    shared.board.run_started(
        number,
        &asker.key,
        asker.comment.clone(),
        shown.clone(),
        host.conn.client.clone(),
    );
    tracing::info!(key = %asker.key, command = %shown, "exec runs");
    let limit = time_limit(shared.limits.exec_time_limit, &line.command);
    let (streams, mut ends) = Channel::new(asker.terminal, asker.columns);
    link.input = ends.input.take();
    link.interrupt = ends.interrupt.clone();
    let run = tokio::spawn(async move { crate::script::run(line.command, &host, streams).await });
    let shared = shared.clone();
    tokio::spawn(async move {
        let code = drive(&shared, &handle, channel, &asker.key, run, ends, limit).await;
        // Its place is freed before the client hears the end: a next command may run.
        shared.board.leave(number);
        if let Ok(mut r) = shared.registry.lock() {
            r.release_run(&asker.key);
        }
        super::session::close(&handle, channel, u32::from(code)).await;
        // The run is over: its writes still open are an ended run's, settled by the next.
        drop(lock);
    });
    link
}

/// A place for the command among the key's sessions, and its run: a new run id and its
/// lock, held while it lives (`None` without an audit). `None` when it cannot run: the
/// client is sent why (the limits, the lock) and the channel closed.
fn claim(
    shared: &Arc<Shared>,
    asker: &Asker,
    handle: &Handle,
    channel: ChannelId,
    shown: &str,
) -> Option<(String, Option<std::fs::File>)> {
    let claimed = match shared.registry.lock() {
        Ok(mut r) => r.claim_run(
            &asker.key,
            shared.limits.max_sessions,
            shared.limits.max_sessions_per_key,
        ),
        Err(_) => Err(Full::Total(0)),
    };
    let refused = |text: String, code: u8| {
        tokio::spawn(say_and_close(
            handle.clone(),
            channel,
            format!("club-admin: {text}\n"),
            false,
            code,
        ));
    };
    if let Err(full) = claimed {
        let say = |lang| match full {
            Full::Total(n) => crate::tr!(lang, "ssh-full-total-runs", n = n),
            Full::PerKey(n) => crate::tr!(lang, "ssh-full-key-runs", n = n),
        };
        shared.refusals.say(
            &asker.key,
            &format!("{} ({shown})", say(crate::i18n::Lang::English)),
            "command refused",
        );
        // Busy, not failed: the same command a moment later runs.
        refused(say(asker.lang), crate::script::Exit::Busy.code());
        return None;
    }
    let run = uuid::Uuid::new_v4().to_string();
    // The run is alive while its lock is held: its open writes are not an ended run's.
    let Some(audit) = shared.audit_path.as_deref() else {
        return Some((run, None));
    };
    match crate::ops::runs::hold_run(audit, &run) {
        Ok(f) => Some((run, Some(f))),
        Err(e) => {
            tracing::error!(key = %asker.key, "an exec run's lock could not be taken: {e}");
            if let Ok(mut r) = shared.registry.lock() {
                r.release_run(&asker.key);
            }
            refused(
                "the server could not start the command (its audit's run lock): nothing was run"
                    .into(),
                1,
            );
            None
        }
    }
}

/// What the server gives a command it runs for a client, in place of the command line's
/// configuration ([`host_run`]).
struct HostRun {
    /// The server's settings, a client of the server's (its limiter, host budget and API
    /// key) with the key's token, the key and the run's id on its audit lines.
    conn: Connection,
    /// True when the client carries a token (remembered for the key, or sent by the SSH
    /// client as `CLUB_ADMIN_TOKEN`).
    has_token: bool,
}

impl Host for HostRun {
    /// Errors (already printed): no token, with how to get one: [`Exit::Usage`], as the
    /// command line's refused sign-in.
    fn connect(&self, _need_key: bool) -> Result<Connection, Exit> {
        if !self.has_token {
            let sign_in = &self.conn.sign_in;
            crate::script::say(&format!("not signed in: {sign_in} (nothing was sent)"));
            return Err(Exit::Usage);
        }
        Ok(self.conn.clone())
    }

    /// The server's `max_input_ids`.
    fn max_input_ids(&self) -> usize {
        self.conn.settings.max_input_ids
    }

    /// The server's own audit, whatever the client names (`--audit` and `--host` are
    /// refused over SSH), read for a client the service signs in, its path not shown.
    fn history_audit(&self, _args: &HistoryArgs) -> HistoryAudit {
        HistoryAudit {
            path: AuditLog::in_state_dir(self.conn.settings.state_dir.as_deref())
                .ok_or_else(|| "this server keeps no audit (no state folder)".to_owned()),
            shown: Some("the host's audit".to_owned()),
            needs_sign_in: true,
            flags: None,
        }
    }
}

/// What the server gives the run: its settings (`--read-only` and a lower `--concurrency`
/// from the client applied), a client of the server's with the key's token, the key and
/// the run's id `run` on its audit lines (`via: ssh-exec`), each line passed on to the
/// live dashboards, the host audit's open writes as the server last read them, and how to
/// sign in.
/// The host budget is the server's to report, in its log.
fn host_run(
    shared: &Arc<Shared>,
    asker: &Asker,
    line: &line::ExecLine,
    number: u64,
    run: String,
) -> HostRun {
    let mut settings = shared.settings.clone();
    settings.lang = asker.lang;
    settings.read_only |= line.read_only;
    if let Some(n) = line.concurrency {
        settings.concurrency = settings.concurrency.min(usize::from(n));
    }
    let client = shared.client.for_session();
    client.set_token(asker.token.clone());
    let told = shared.told.clone();
    let after_write = AfterWrite(Arc::new(move |entry| {
        if let Some(t) = crate::app::Told::from_audit(entry) {
            let _ = told.send((number, t));
        }
    }));
    let audit = AuditLog {
        via: "ssh-exec",
        key: Some((asker.key.clone(), asker.comment.clone())),
        after_write: Some(after_write),
        run: Some(run),
        ..AuditLog::default()
    };
    let conn = Connection {
        settings,
        client,
        audit,
        open_writes: shared.open_writes.clone(),
        sign_in: sign_in_advice(shared, asker.token.is_some()),
        own_budget: false,
    };
    HostRun {
        conn,
        has_token: asker.token.is_some(),
    }
}

/// How a key without a token signs in: its dashboard once, when the server remembers
/// tokens; else a token sent with the command.
pub(crate) fn sign_in_advice(shared: &Shared, sent: bool) -> String {
    let port = shared.listen.port();
    if sent {
        return format!(
            "the token sent with the command (CLUB_ADMIN_TOKEN) is not taken: sign in again for a fresh one and send it, ssh -o SetEnv=CLUB_ADMIN_TOKEN=TOKEN -p {port} HOST COMMAND"
        );
    }
    match shared.token_dir {
        Some(_) => format!(
            "open the dashboard once (ssh -p {port} HOST, then S to sign in): later commands of this key use that sign-in"
        ),
        None => format!(
            "this server keeps no sign-in between sessions: send a token with the command, ssh -o SetEnv=CLUB_ADMIN_TOKEN=TOKEN -p {port} HOST COMMAND"
        ),
    }
}

/// Carries the streams of the run `run` to the client's `channel` until the run ends, and
/// returns its exit code; the time limit `limit` and the server's stop interrupt it.
async fn drive(
    shared: &Shared,
    handle: &Handle,
    channel: ChannelId,
    key: &str,
    mut run: tokio::task::JoinHandle<Exit>,
    mut ends: ChannelEnds,
    limit: Duration,
) -> u8 {
    let started = tokio::time::Instant::now();
    let abort = run.abort_handle();
    let mut stop = shared.stop.clone();
    let mut stopping = false;
    let mut deadline = started + limit;
    let mut limited = 0u8;
    let code = loop {
        tokio::select! {
            done = &mut run => {
                break match done {
                    Ok(exit) => exit as u8,
                    Err(e) if e.is_cancelled() => ends.left.borrow().unwrap_or(130),
                    Err(e) => {
                        tracing::error!(key = %key, "an exec run's task failed: {e}");
                        1
                    }
                };
            }
            Some(chunk) = ends.output.recv() => send(handle, channel, chunk).await,
            Ok(()) = ends.left.changed() => {
                if ends.left.borrow().is_some() {
                    abort.abort();
                }
            }
            () = tokio::time::sleep_until(deadline) => {
                limited += 1;
                tracing::info!(key = %key, limited, "exec run past its time limit");
                ends.past_limit.store(true, std::sync::atomic::Ordering::SeqCst);
                ends.interrupt.send_modify(|n| *n = (*n).max(limited));
                match limited {
                    1 => {
                        let text = format!(
                            "club-admin: the run passed this server's time limit ({} min): nothing more is sent; the answers in flight are awaited\n",
                            limit.as_secs().div_ceil(60)
                        );
                        send(handle, channel, Chunk::Err(text.into_bytes())).await;
                        deadline += GRACE;
                    }
                    // It stops waiting: each write still unanswered writes its `unknown`
                    // line (a second Ctrl-C's way), then the run leaves by itself.
                    2 => deadline += Duration::from_secs(5),
                    _ => {
                        abort.abort();
                        deadline += Duration::from_secs(3600);
                    }
                }
            }
            () = super::stopping(&mut stop), if !stopping => {
                stopping = true;
                ends.interrupt.send_modify(|n| *n = (*n).max(1));
            }
        }
    };
    while let Ok(chunk) = ends.output.try_recv() {
        send(handle, channel, chunk).await;
    }
    let code = match limited {
        0 => code,
        _ => past_limit(handle, channel, code, limit).await,
    };
    tracing::info!(key = %key, code, secs = started.elapsed().as_secs(), "exec ended");
    code
}

/// The code of a run the time limit `limit` interrupted, which ended with `code`: not done
/// by then (requests not sent, or left without answers), the time limit's own, said to the
/// client, not a failure's or an interruption's; else `code`.
async fn past_limit(handle: &Handle, channel: ChannelId, code: u8, limit: Duration) -> u8 {
    use crate::script::exit::{INTERRUPTED, TIME_LIMIT};
    if !matches!(code, 1 | INTERRUPTED) {
        return code;
    }
    let text = format!(
        "club-admin: stopped at this server's time limit ({} min): exit {TIME_LIMIT}\n",
        limit.as_secs().div_ceil(60),
    );
    send(handle, channel, Chunk::Err(text.into_bytes())).await;
    TIME_LIMIT
}

/// How long `command` may run: the operator's `limit`, but no limit for `requests watch`
/// (it reads and never writes; it ends when its client leaves or the server stops).
fn time_limit(limit: Duration, command: &crate::script::ScriptCommand) -> Duration {
    if crate::script::watch::runs_until_stopped(command) {
        Duration::from_secs(10 * 365 * 86_400)
    } else {
        limit
    }
}

/// One chunk of the run's output to the client (standard error as extended data 1).
async fn send(handle: &Handle, channel: ChannelId, chunk: Chunk) {
    let _ = match chunk {
        Chunk::Out(bytes) => handle.data(channel, bytes).await,
        Chunk::Err(bytes) => handle.extended_data(channel, 1, bytes).await,
    };
}

/// Prints `text` (standard output or error) and ends the channel with `code`.
async fn say_and_close(
    handle: Handle,
    channel: ChannelId,
    text: String,
    to_stdout: bool,
    code: u8,
) {
    let chunk = match to_stdout {
        true => Chunk::Out(text.into_bytes()),
        false => Chunk::Err(text.into_bytes()),
    };
    send(&handle, channel, chunk).await;
    super::session::close(&handle, channel, u32::from(code)).await;
}
