//! The one effect runner, used by the terminal loop and by [`super::headless::Headless`],
//! and its worker: API calls go to the [`Worker`], which sends them on a bounded `JoinSet`
//! and posts each answer back as a `Msg` (a call whose task panics is answered too, with
//! [`ApiError::Internal`], like any other failure: its row settles by the usual rules and
//! nothing waits for it for ever); token, audit file and saved queue go to the process's
//! writer ([`Writer`]: their files are written off the loop, in order, and a failure comes
//! back as [`Msg::EffectFailed`]); clipboard, mouse and redraw to a [`Screen`].

use std::cell::Cell;
use std::collections::VecDeque;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::time::Duration;

use futures::FutureExt;
use secrecy::ExposeSecret;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::files::Writer;
use crate::api::{ApiClient, ApiError};
use crate::app::model::SavedQueue;
use crate::app::{Answer, ApiCall, AuditEntry, Effect, LocalEffect, Msg, Told};

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
    /// Where a file's failure is told (the dashboard's message channel).
    msgs: mpsc::UnboundedSender<Msg>,
    pending_save: Option<(SavedQueue, Instant)>,
    journal: Option<Vec<AuditEntry>>,
    origin: Option<Origin>,
    /// Where what this dashboard did is told to the other sessions of its server
    /// (`serve-ssh`); `None` for a dashboard alone.
    tell: Option<Tell>,
    remote: Option<RemoteTerminal>,
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
    /// The face: `ssh` for a `serve-ssh` session.
    pub via: String,
    /// The SSH key's fingerprint (`SHA256:...`).
    pub key: Option<String>,
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
            remote: None,
            tell: None,
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

    /// Also keeps every audit entry in memory ([`Runner::journal`]), for tests and
    /// harnesses.
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
                Effect::Api { request_id, call } => self.worker.send(request_id, call),
                Effect::SetToken(t) => self.client.set_token(Some(t)),
                Effect::SaveToken(t) => self.save_token(t, feedback),
                Effect::Audit(entry) => self.audit(entry),
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

    /// One audit line: stamped with the origin, told to the other sessions
    /// ([`Told::from_audit`]), handed to the writer, kept in the journal when asked.
    fn audit(&mut self, mut entry: AuditEntry) {
        if let Some(o) = &self.origin {
            entry.via = Some(o.via.clone());
            entry.key = o.key.clone();
        }
        tracing::info!(action = %entry.action, target = %entry.target, outcome = ?entry.outcome, "audit");
        if let Some(tell) = &self.tell
            && let Some(t) = Told::from_audit(&entry)
        {
            tell(t);
        }
        if let Some(p) = &self.files.audit_path {
            let report = self.report(LocalEffect::AuditFile);
            self.writer.append_line_then(p, &entry, report);
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

    /// Resolves when every file handed over so far is written (and every failure told):
    /// awaited before a dashboard ends, so that nothing it wrote is lost on exit.
    pub async fn written(&self) {
        if let Err(e) = self.writer.written().await {
            tracing::error!("the file writer: {e}");
        }
    }

    /// What the writer calls when a file of `what` is written: a failure is logged and told
    /// to the dashboard (its status line and activity log).
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

// ---------------------------------------------------------------------------------------
// the worker

/// What a worker does besides sending calls: nothing in the program. In test builds (the
/// cargo feature `test-hooks`, which only the tests turn on) a call can be made to panic in
/// its task, to prove that a panicked call is answered.
#[derive(Clone, Default)]
pub struct Hooks {
    /// Calls for which this holds panic in their task instead of being sent.
    #[cfg(feature = "test-hooks")]
    pub panic_when: Option<PanicWhen>,
}

/// Which calls panic ([`Hooks::panic_when`]).
#[cfg(feature = "test-hooks")]
pub type PanicWhen = std::sync::Arc<dyn Fn(&ApiCall) -> bool + Send + Sync>;

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hooks")
    }
}

thread_local! {
    /// True while this thread runs a call whose panic the worker catches.
    static CAUGHT: Cell<bool> = const { Cell::new(false) };
}

/// True when a panic now would be caught by the worker (this thread is running one of its
/// calls): the terminal's panic hook then leaves the terminal as it is, since the dashboard
/// goes on.
pub fn panic_is_caught() -> bool {
    CAUGHT.with(Cell::get)
}

/// Sets [`CAUGHT`] for as long as it lives (unset again while a panic unwinds past it).
struct CaughtGuard(bool);

impl CaughtGuard {
    fn new() -> CaughtGuard {
        CaughtGuard(CAUGHT.with(|c| c.replace(true)))
    }
}

impl Drop for CaughtGuard {
    fn drop(&mut self) {
        let before = self.0;
        CAUGHT.with(|c| c.set(before));
    }
}

/// Runs `fut` to its end; a panic in it becomes `Err(())` (logged by the panic hook).
async fn caught<T>(fut: impl Future<Output = T>) -> Result<T, ()> {
    let mut fut = Box::pin(fut);
    let guarded = futures::future::poll_fn(move |cx| {
        let _flag = CaughtGuard::new();
        fut.as_mut().poll(cx)
    });
    AssertUnwindSafe(guarded)
        .catch_unwind()
        .await
        .map_err(|_| ())
}

/// Handle to send calls to the worker.
#[derive(Debug, Clone)]
pub struct Worker {
    tx: mpsc::UnboundedSender<(u64, ApiCall)>,
}

impl Worker {
    /// Queues a call; its answer arrives as `Msg::Api { request_id, .. }`.
    pub fn send(&self, request_id: u64, call: ApiCall) {
        let _ = self.tx.send((request_id, call));
    }
}

/// [`ApiCall::perform`], or the panic the test hooks ask for.
async fn run_call(client: &ApiClient, call: ApiCall, hooks: &Hooks) -> Answer {
    #[cfg(feature = "test-hooks")]
    if hooks.panic_when.as_ref().is_some_and(|p| p(&call)) {
        panic!("test panic of an API call (effects::Hooks::panic_when)");
    }
    #[cfg(not(feature = "test-hooks"))]
    let _ = hooks;
    call.perform(client).await
}

/// Queues a call: a write behind earlier writes and ahead of every read, a read last.
fn enqueue(waiting: &mut VecDeque<(u64, ApiCall)>, queued: (u64, ApiCall)) {
    if queued.1.is_mutation() {
        let pos = waiting
            .iter()
            .position(|(_, c)| !c.is_mutation())
            .unwrap_or(waiting.len());
        waiting.insert(pos, queued);
    } else {
        waiting.push_back(queued);
    }
}

/// One call's task: runs it (a panic in it answers the call as failed, with
/// [`ApiError::Internal`]), posts its answer as [`Msg::Api`], and the limiter's pace when it
/// changed.
async fn answer_call(
    client: ApiClient,
    msgs: mpsc::UnboundedSender<Msg>,
    hooks: Hooks,
    request_id: u64,
    call: ApiCall,
) {
    let mutation = call.is_mutation();
    let what = format!("{call:?}");
    let on_panic = call.clone().failed(ApiError::Internal);
    let answer = match caught(run_call(&client, call, &hooks)).await {
        Ok(answer) => answer,
        Err(()) => {
            tracing::error!(request_id, call = %what, "an API call panicked: answered as failed");
            on_panic
        }
    };
    if mutation {
        tracing::info!(request_id, call = %what, ok = answer.is_ok(), "mutation answered");
    } else {
        tracing::debug!(request_id, call = %what, ok = answer.is_ok(), "read answered");
    }
    let _ = msgs.send(Msg::Api { request_id, answer });
    if let Some(pace) = client.limiter().pace_changed() {
        let _ = msgs.send(Msg::Pace {
            limit: pace.limit,
            slowed: pace.slowed,
            in_flight: pace.in_flight,
        });
    }
}

/// Starts the worker: a task with at most `concurrency` calls in flight, results to `msgs`.
///
/// Calls wait in a queue, not as spawned tasks, so ten thousand queued reads cost a few
/// hundred kilobytes. Writes (approve, decline, delete, new contact) go to the front of the
/// queue: a decision never waits behind prefetching.
pub fn spawn(client: ApiClient, concurrency: usize, msgs: mpsc::UnboundedSender<Msg>) -> Worker {
    spawn_with(client, concurrency, msgs, Hooks::default())
}

/// As [`spawn`], with `hooks` (nothing in the program; see [`Hooks`]).
pub fn spawn_with(
    client: ApiClient,
    concurrency: usize,
    msgs: mpsc::UnboundedSender<Msg>,
    hooks: Hooks,
) -> Worker {
    let (tx, mut rx) = mpsc::unbounded_channel::<(u64, ApiCall)>();
    let limit = concurrency.max(1);
    tokio::spawn(async move {
        let mut set: JoinSet<()> = JoinSet::new();
        let mut waiting: VecDeque<(u64, ApiCall)> = VecDeque::new();
        let mut open = true;
        let mut sent = client.limiter().watch_in_flight();
        // The host budget's status: what was refused at start is told at once (a start-up
        // warning), then every change (calls one at a time while others hold every slot).
        let mut budget = client.watch_budget();
        if let Some(rx) = budget.as_mut()
            && rx.borrow().refusal.is_some()
        {
            rx.mark_changed();
        }
        loop {
            while set.len() < limit
                && let Some((request_id, call)) = waiting.pop_front()
            {
                let task = answer_call(
                    client.clone(),
                    msgs.clone(),
                    hooks.clone(),
                    request_id,
                    call,
                );
                set.spawn(task);
            }
            if !open && set.is_empty() && waiting.is_empty() {
                break;
            }
            tokio::select! {
                next = rx.recv(), if open => match next {
                    Some(queued) => enqueue(&mut waiting, queued),
                    None => open = false,
                },
                // The calls on the wire changed (the limiter let one out, or one was
                // answered): the status line counts those, not the calls queued.
                Ok(()) = sent.changed() => {
                    let pace = client.limiter().pace();
                    let in_flight = *sent.borrow_and_update();
                    let _ = msgs.send(Msg::Pace {
                        limit: pace.limit,
                        slowed: pace.slowed,
                        in_flight,
                    });
                }
                Some(status) = budget_changed(&mut budget) => {
                    let _ = msgs.send(Msg::Budget(status));
                }
                Some(res) = set.join_next(), if !set.is_empty() => {
                    // A task's panic is caught inside it (and its call answered); what
                    // is left is a task cancelled as the runtime shuts down.
                    if let Err(e) = res {
                        tracing::error!("an API task ended without its answer: {e}");
                    }
                }
            }
        }
    });
    Worker { tx }
}

/// The host budget's next status (`None` when the budget is off, or its sender is gone: the
/// branch then waits for ever, and the others go on).
async fn budget_changed(
    rx: &mut Option<tokio::sync::watch::Receiver<crate::api::budget::BudgetStatus>>,
) -> Option<crate::api::budget::BudgetStatus> {
    if let Some(r) = rx.as_mut()
        && r.changed().await.is_ok()
    {
        return Some(r.borrow_and_update().clone());
    }
    *rx = None;
    std::future::pending().await
}
