//! The one effect runner, used by the terminal loop and by the tests' headless driver (`tests/common/headless.rs`):
//! API calls go to the [`Worker`] (`runtime/worker.rs`), which sends them on a bounded
//! `JoinSet` and posts each answer back as a `Msg` (a call whose task panics is answered
//! too, with `ApiError::Internal`, like any other failure: its row settles by the usual
//! rules and nothing waits for it for ever; a write waits for its write-ahead audit line); token, audit file and saved queue go to the process's
//! writer ([`Writer`]: their files are written off the loop, in order, and a failure comes
//! back as [`Msg::EffectFailed`]); clipboard, mouse and redraw to a [`Screen`].

use std::path::PathBuf;
use std::time::Duration;

use secrecy::ExposeSecret;
use tokio::sync::mpsc;
use tokio::time::Instant;

#[cfg(feature = "test-hooks")]
pub use super::worker::PanicWhen;
pub use super::worker::{Hooks, Worker, panic_is_caught, spawn, spawn_with};
use crate::api::ApiClient;
use crate::app::model::SavedQueue;
use crate::app::{AuditEntry, Effect, LocalEffect, Msg, Told};
use crate::ops::writer::Writer;

/// How long the saved queue waits for the next change before it is written: typing a
/// filter writes once, not once per key.
pub const SAVE_DEBOUNCE: Duration = Duration::from_millis(500);

/// Where the runner writes (each `None` when there is no state directory).
#[derive(Debug, Clone, Default)]
pub struct Files {
    /// The token file (mode 0600).
    pub token_path: Option<PathBuf>,
    /// The audit file (JSON Lines, appended, mode 0600).
    pub audit_path: Option<PathBuf>,
    /// This server's saved queue (mode 0600).
    pub queue_path: Option<PathBuf>,
    /// The audit's last read for the history, shared with the other dashboards of the
    /// process (`serve-ssh`'s sessions); `None`: each read is this dashboard's own.
    pub recent: Option<crate::ops::history::RecentRows>,
}

/// What the terminal does for the runner: the real terminal in the program; a recorder in
/// headless runs.
pub trait Screen {
    /// Clears and redraws everything on the next frame.
    fn redraw(&mut self);
    /// Turns mouse capture on or off.
    fn set_mouse(&mut self, on: bool);
    /// Puts text on the user's clipboard (OSC 52).
    fn copy(&mut self, text: &str);
    /// Sets the terminal's title (OSC 2). Nothing to do without a terminal.
    fn set_title(&mut self, _title: &str) {}
    /// Writes `bytes` as they are (the bell, an OSC 9 notice). Nothing to do without a
    /// terminal.
    fn raw(&mut self, _bytes: &[u8]) {}
    /// Gives the terminal back and stops the program until `fg` (SIGTSTP), then takes the
    /// terminal again and redraws it whole. Nothing to do without a terminal.
    fn suspend(&mut self) {}
}

/// Runs effects; see the module documentation.
pub struct Runner {
    client: ApiClient,
    worker: Worker,
    files: Files,
    writer: Writer,
    /// Where a file's failure is reported (the dashboard's message channel).
    msgs: mpsc::UnboundedSender<Msg>,
    pending_save: Option<(SavedQueue, Instant)>,
    journal: Option<Vec<AuditEntry>>,
    origin: Option<Origin>,
    /// This dashboard's session in the audit ([`AuditEntry::session`]): a random UUID made
    /// with the runner, so each of one `serve-ssh`'s sessions names its own writes.
    session: String,
    /// Where what this dashboard did is broadcast to the other sessions of its server
    /// (`serve-ssh`); `None` for a dashboard alone.
    tell: Option<Tell>,
    remote: Option<RemoteTerminal>,
    /// The write-ahead lines handed to the writer and not yet met by their write, by the
    /// write's target: the worker holds the write until its line is in the file.
    ahead: std::collections::HashMap<uuid::Uuid, crate::ops::writer::Written>,
    /// The runs of interrupted writes this dashboard settles, claimed while it runs
    /// ([`crate::ops::recover::Claim`]).
    claims: Vec<crate::ops::recover::Claim>,
}

/// A terminal reached by bytes rather than through the process's standard output (a
/// `serve-ssh` session: its SSH channel). With one, the runner writes what the local
/// dashboard's [`Screen`] would write to its own terminal: copied text as OSC 52, mouse
/// capture on and off. Clones share the target.
#[derive(Clone)]
pub struct RemoteTerminal(std::sync::Arc<dyn Fn(Vec<u8>) + Send + Sync>);

impl RemoteTerminal {
    /// A terminal that takes its bytes through `send`.
    pub fn new(send: impl Fn(Vec<u8>) + Send + Sync + 'static) -> RemoteTerminal {
        RemoteTerminal(std::sync::Arc::new(send))
    }

    /// Puts `text` on the terminal's clipboard (OSC 52).
    pub fn copy(&self, text: &str) {
        let mut bytes = Vec::new();
        let _ = crossterm::queue!(
            bytes,
            crossterm::clipboard::CopyToClipboard::to_clipboard_from(text.as_bytes())
        );
        (self.0)(bytes)
    }

    /// Writes `bytes` as they are (the bell, an OSC 9 notice).
    pub fn raw(&self, bytes: &[u8]) {
        (self.0)(bytes.to_vec())
    }

    /// Sets the terminal's title (OSC 2).
    pub fn set_title(&self, title: &str) {
        let mut bytes = Vec::new();
        let _ = crossterm::queue!(bytes, crossterm::terminal::SetTitle(title));
        (self.0)(bytes)
    }

    /// Turns mouse capture on or off.
    pub fn set_mouse(&self, on: bool) {
        let mut bytes = Vec::new();
        let _ = if on {
            crossterm::queue!(bytes, crossterm::event::EnableMouseCapture)
        } else {
            crossterm::queue!(bytes, crossterm::event::DisableMouseCapture)
        };
        (self.0)(bytes)
    }
}

/// The bytes of a new-requests notice: the bell, or an OSC 9 desktop notice whose text
/// holds no control character (it is the terminal's input).
fn notice_bytes(osc9: bool, text: &str) -> Vec<u8> {
    if osc9 {
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        format!("\x1b]9;{clean}\x07").into_bytes()
    } else {
        b"\x07".to_vec()
    }
}

/// A remote terminal takes what the screen of the local dashboard would write to its own
/// terminal; redrawing and suspending stay with the screen.
impl Screen for RemoteTerminal {
    fn redraw(&mut self) {}
    fn set_mouse(&mut self, on: bool) {
        RemoteTerminal::set_mouse(self, on)
    }
    fn copy(&mut self, text: &str) {
        RemoteTerminal::copy(self, text)
    }
    fn set_title(&mut self, title: &str) {
        RemoteTerminal::set_title(self, title)
    }
    fn raw(&mut self, bytes: &[u8]) {
        RemoteTerminal::raw(self, bytes)
    }
}

impl std::fmt::Debug for RemoteTerminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RemoteTerminal")
    }
}

/// Where a dashboard tells what it did ([`Runner::with_tell`]): a `serve-ssh` session's
/// line to the others.
pub type Tell = std::sync::Arc<dyn Fn(Told) + Send + Sync>;

/// Who acts through a runner when it is not the local dashboard: stamped on every audit
/// line it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The front end: `ssh` for a `serve-ssh` session.
    pub via: String,
    /// The SSH key's fingerprint (`SHA256:...`).
    pub key: Option<String>,
    /// That key's comment in the authorized keys file (`alice@laptop`), when it has one.
    pub key_comment: Option<String>,
}

impl Runner {
    /// A runner sending calls to `worker` and setting tokens on `client` (which shares its
    /// token with the worker's clones), writing `files` through the process's writer and
    /// telling their failures on `msgs` ([`Msg::EffectFailed`]).
    pub fn new(
        client: ApiClient,
        worker: Worker,
        files: Files,
        msgs: mpsc::UnboundedSender<Msg>,
    ) -> Runner {
        Runner {
            client,
            worker,
            files,
            writer: Writer::process(),
            msgs,
            pending_save: None,
            journal: None,
            origin: None,
            session: uuid::Uuid::new_v4().to_string(),
            remote: None,
            tell: None,
            ahead: std::collections::HashMap::new(),
            claims: Vec::new(),
        }
    }

    /// Stops a bulk in progress: every write queued in the worker and not yet started is
    /// answered not sent (`why`), as Ctrl-C stops the command line's run; the writes on the
    /// wire go on and are awaited.
    pub fn stop_writes(&self, why: &str) {
        self.worker.drop_queued_writes(why);
    }

    /// Keeps `claim` (the runs of interrupted writes this dashboard settles) for as long as
    /// the runner lives: no other process settles them meanwhile.
    pub fn keep_claim(&mut self, claim: crate::ops::recover::Claim) {
        if !claim.is_empty() {
            self.claims.push(claim);
        }
    }

    /// Tells `tell` what this dashboard did to requests: the decisions it holds
    /// ([`Effect::Tell`]) and every audit line's meaning ([`Told::from_audit`]).
    pub fn with_tell(mut self, tell: Tell) -> Runner {
        self.tell = Some(tell);
        self
    }

    /// Copied text and mouse capture go to `remote` instead of the screen.
    pub fn with_remote(mut self, remote: RemoteTerminal) -> Runner {
        self.remote = Some(remote);
        self
    }

    /// Stamps every audit line with `origin` (`via` and the key's fingerprint).
    pub fn with_origin(mut self, origin: Origin) -> Runner {
        self.origin = Some(origin);
        self
    }

    /// Also keeps every audit entry that tells an outcome in memory ([`Runner::journal`]),
    /// for tests and harnesses (the write-ahead `sending` lines are in the file only).
    pub fn keep_journal(mut self) -> Runner {
        self.journal = Some(Vec::new());
        self
    }

    /// Audit entries seen so far, when kept.
    pub fn journal(&self) -> &[AuditEntry] {
        self.journal.as_deref().unwrap_or_default()
    }

    /// The client (its token is what `SetToken` changes).
    pub fn client(&self) -> &ApiClient {
        &self.client
    }

    /// Runs `effects`. Returns true when one of them was [`Effect::Quit`], and pushes onto
    /// `feedback` a message for every local effect that failed.
    pub fn run(
        &mut self,
        effects: Vec<Effect>,
        screen: &mut dyn Screen,
        feedback: &mut Vec<Msg>,
    ) -> bool {
        let mut quit = false;
        for fx in effects {
            // Copied text, mouse capture, the title and notices go to the remote terminal
            // when there is one (a `serve-ssh` session), else to the screen.
            let term: &mut dyn Screen = match self.remote.as_mut() {
                Some(r) => r,
                None => &mut *screen,
            };
            match fx {
                Effect::Api {
                    request_id,
                    call,
                    tries,
                } => {
                    // A write leaves only once its write-ahead line is in the audit file.
                    let ahead = call
                        .audited_as()
                        .and_then(|(target, _)| self.ahead.remove(&target));
                    self.worker.send_after(request_id, call, tries, ahead)
                }
                Effect::SetToken(t) => self.client.set_token(Some(t)),
                Effect::SaveToken(t) => self.save_token(t, feedback),
                Effect::Audit(entry) => self.audit(entry),
                Effect::ReadHistory { max_bytes } => self.read_history(max_bytes),
                Effect::ReadTerm {
                    filter,
                    page_size,
                    ask,
                } => self.read_term(filter, page_size, ask),
                Effect::SaveQueue(q) => {
                    self.pending_save = Some((q, Instant::now() + SAVE_DEBOUNCE));
                }
                Effect::Copy(text) => term.copy(&text),
                Effect::SetMouse(on) => term.set_mouse(on),
                Effect::Title(t) => term.set_title(&t),
                Effect::Notify { osc9, text } => term.raw(&notice_bytes(osc9, &text)),
                Effect::Tell(told) => {
                    if let Some(tell) = &self.tell {
                        told.into_iter().for_each(|t| tell(t));
                    }
                }
                Effect::Redraw => screen.redraw(),
                Effect::Suspend => screen.suspend(),
                Effect::Quit => quit = true,
            }
        }
        quit
    }

    /// Hands the token to the writer for the token file; without one, a failure at once.
    fn save_token(&mut self, t: secrecy::SecretString, feedback: &mut Vec<Msg>) {
        match &self.files.token_path {
            Some(p) => {
                let report = self.report(LocalEffect::SavingToken);
                let bytes = t.expose_secret().as_bytes().to_vec();
                self.writer.replace_then(p, bytes, move |r| {
                    if r.is_ok() {
                        tracing::info!("token saved to the token file");
                    }
                    report(r)
                });
            }
            None => feedback.push(Msg::EffectFailed {
                what: LocalEffect::SavingToken,
                error: "no place to save it (no state directory)".into(),
            }),
        }
    }

    /// One audit line: stamped with the origin (not a line that settles another run's
    /// write: it keeps that write's sender), broadcast to the other sessions
    /// ([`Told::from_audit`]), handed to the writer, kept in the journal when asked.
    fn audit(&mut self, mut entry: AuditEntry) {
        let own = crate::ops::audit::run_id();
        if entry.run.as_deref().is_some_and(|r| r != own) {
            // A line of an interrupted run's write, settled by this process.
            entry.settled_by = Some(own.to_owned());
        } else {
            entry.run = Some(own.to_owned());
            entry.session = Some(self.session.clone());
            if let Some(o) = &self.origin {
                entry.via = Some(o.via.clone());
                entry.key = o.key.clone();
                entry.key_comment = o.key_comment.clone();
            }
        }
        if entry.outcome.is_ahead() {
            // The write waits for this line ([`Worker::send_after`]).
            if let Some(p) = &self.files.audit_path {
                let written = self.writer.append_line(p, &entry);
                self.ahead.insert(entry.target, written);
            }
            return;
        }
        tracing::info!(action = %entry.action, target = %entry.target, outcome = ?entry.outcome, "audit");
        // The line goes to the writer before the others hear of it: a session that hears it
        // and reads the audit back (its history) reads after the writer has it.
        if let Some(p) = &self.files.audit_path {
            let report = self.report(LocalEffect::AuditFile);
            self.writer.append_line_then(p, &entry, report);
        }
        if let Some(tell) = &self.tell
            && let Some(t) = Told::from_audit(&entry)
        {
            tell(t);
        }
        if let Some(j) = self.journal.as_mut() {
            j.push(entry);
        }
    }

    /// When the saved queue is due to be written, if a change waits.
    pub fn save_due(&self) -> Option<Instant> {
        self.pending_save.as_ref().map(|(_, at)| *at)
    }

    /// Hands the saved queue to the writer now if a change waits; a failure comes back as a
    /// message ([`Msg::EffectFailed`]), as every file's does.
    pub fn flush_save(&mut self) {
        let Some((q, _)) = self.pending_save.take() else {
            return;
        };
        let Some(p) = self.files.queue_path.as_ref() else {
            return;
        };
        let report = self.report(LocalEffect::SavingQueue);
        match serde_json::to_vec_pretty(&q) {
            Ok(bytes) => self.writer.replace_then(p, bytes, report),
            Err(e) => report(Err(std::io::Error::other(e))),
        }
    }

    /// Resolves when every file handed over so far is written (and every failure reported):
    /// awaited before a dashboard ends, so that nothing it wrote is lost on exit.
    pub async fn written(&self) {
        if let Err(e) = self.writer.written().await {
            tracing::error!("the file writer: {e}");
        }
    }

    /// Reads the audit file's last `max_bytes` back on a thread of its own (the file is not
    /// read on the event loop, which every `serve-ssh` session shares), after every line
    /// handed to the writer so far is in it; the rows come back as [`Msg::HistoryRead`].
    fn read_history(&self, max_bytes: u64) {
        let msgs = self.msgs.clone();
        let Some(path) = self.files.audit_path.clone() else {
            let _ = msgs.send(Msg::HistoryRead(Err(
                "no audit file here (no state folder)".to_owned(),
            )));
            return;
        };
        // Every line handed over before this is in the file first.
        let barrier = self.writer.written();
        let recent = self.files.recent.clone();
        std::thread::spawn(move || {
            let _ = barrier.wait_blocking();
            // A read that panicked still answers (else the history would say "reading"
            // for good, and no later read would be asked).
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match recent {
                Some(shared) => shared.read(&path, max_bytes),
                None => crate::ops::history::read_recent(&path, max_bytes).map(|h| h.rows.into()),
            }))
            .unwrap_or_else(|_| Err(std::io::Error::other("its reading failed")));
            let result =
                read.map_err(|e| format!("could not read the audit file {}: {e}", path.display()));
            let _ = msgs.send(Msg::HistoryRead(result));
        });
    }

    /// Reads the scope's requests for the term's figures on a task of their own, as `ask`
    /// says (every page, the pending pages, or some by id: `ops::stats`), on the dashboard's
    /// client, its listing reads shared with the other sessions of a `serve-ssh`; the
    /// answer comes back as [`Msg::TermRead`] with this host's UTC offset, for the figures'
    /// days.
    fn read_term(&self, filter: crate::api::RequestFilter, size: u32, ask: crate::app::TermAsk) {
        use crate::app::TermAsk;
        use crate::ops::stats;
        let msgs = self.msgs.clone();
        let client = self.client.clone();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            let _ = msgs.send(Msg::TermRead {
                read: Err("no runtime to read on".to_owned()),
                ask,
                offset_secs: 0,
            });
            return;
        };
        runtime.spawn(async move {
            let read = match &ask {
                TermAsk::Whole => stats::read_pages(&client, &filter, size).await,
                TermAsk::Pending(p) => stats::refresh_pages(&client, &filter, size, p).await,
                TermAsk::ById(ids) => stats::read_by_id(&client, ids, size)
                    .await
                    .map(|found| found.into_values().flatten().collect()),
            };
            let read = read.map_err(|e| e.to_string());
            let offset_secs = chrono::Local::now().offset().local_minus_utc();
            let _ = msgs.send(Msg::TermRead {
                read,
                ask,
                offset_secs,
            });
        });
    }

    /// What the writer calls when a file of `what` is written: a failure is logged and
    /// reported to the dashboard (its status line and activity log).
    fn report(&self, what: LocalEffect) -> impl FnOnce(std::io::Result<()>) + Send + 'static {
        let msgs = self.msgs.clone();
        move |result| {
            if let Err(e) = result {
                tracing::warn!("{what:?} failed: {e}");
                let _ = msgs.send(Msg::EffectFailed {
                    what,
                    error: e.to_string(),
                });
            }
        }
    }
}
