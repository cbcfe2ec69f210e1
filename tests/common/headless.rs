//! The app without a terminal: `update`, the real worker and API client, and the same
//! effect [`Runner`] as the terminal loop, driven by scripted messages. For flow tests and
//! the measuring harnesses; [`Headless::run_until_idle`] waits until no call is in flight.
//! Shared by the tests and the examples (`#[path]`).
#![allow(dead_code)]

use std::time::Duration;

use tokio::sync::mpsc;

use club_admin::api::ApiClient;
use club_admin::app::{AuditEntry, Model, Msg, update};
use club_admin::runtime::build::{Builder, Dashboard};
use club_admin::runtime::effects::{Files, Runner, Screen};

/// Records what the app asked of the terminal.
#[derive(Debug, Default)]
struct Recorder {
    copied: Vec<String>,
    titles: Vec<String>,
}

impl Screen for Recorder {
    fn redraw(&mut self) {}
    fn set_mouse(&mut self, _on: bool) {}
    fn copy(&mut self, text: &str) {
        self.copied.push(text.to_owned());
    }
    fn set_title(&mut self, title: &str) {
        self.titles.push(title.to_owned());
    }
}

/// A model driven by scripted messages against a real server.
pub struct Headless {
    /// The model.
    pub model: Model,
    runner: Runner,
    screen: Recorder,
    tx: mpsc::UnboundedSender<Msg>,
    rx: mpsc::UnboundedReceiver<Msg>,
    /// How far [`Headless::run_until`] moved its clock ahead of the wall clock, over waits
    /// for a retry.
    skipped: chrono::Duration,
}

impl Headless {
    /// Starts the worker with `concurrency` and runs [`club_admin::app::start`]; call
    /// [`Headless::run_until_idle`] to wait for the first answers. Writes no files.
    pub fn new(model: Model, client: ApiClient, concurrency: usize) -> Headless {
        Headless::with_files(model, client, concurrency, Files::default())
    }

    /// As [`Headless::new`], writing the audit file, token and saved queue to `files`.
    pub fn with_files(
        model: Model,
        client: ApiClient,
        concurrency: usize,
        files: Files,
    ) -> Headless {
        Headless::built(Builder::new(model, client, concurrency).files(files))
    }

    /// The dashboard `builder` puts together (its loop options unused), its audit entries
    /// kept ([`Headless::audit`]); runs [`club_admin::app::start`].
    pub fn built(builder: Builder) -> Headless {
        let Dashboard {
            model,
            runner,
            tx,
            rx,
            opts: _,
        } = builder.keep_journal().build();
        let mut h = Headless {
            model,
            runner,
            screen: Recorder::default(),
            tx,
            rx,
            skipped: chrono::Duration::zero(),
        };
        let fx = club_admin::app::start(&mut h.model);
        h.run(fx);
        h
    }

    fn run(&mut self, fx: Vec<club_admin::app::Effect>) {
        let mut feedback = Vec::new();
        self.runner.run(fx, &mut self.screen, &mut feedback);
        for f in feedback {
            let _ = self.tx.send(f);
        }
    }

    /// The client (its token is what `SetToken` changes).
    pub fn client(&self) -> &ApiClient {
        self.runner.client()
    }

    /// Audit entries the app emitted, in order.
    pub fn audit(&self) -> &[AuditEntry] {
        self.runner.journal()
    }

    /// Text the app asked to copy.
    pub fn titles(&self) -> &[String] {
        &self.screen.titles
    }

    /// What was put on the clipboard (OSC 52), oldest first.
    pub fn copied(&self) -> &[String] {
        &self.screen.copied
    }

    /// Applies a message and runs its effects (without waiting for answers).
    pub fn send(&mut self, msg: Msg) {
        let fx = update(&mut self.model, msg);
        self.run(fx);
    }

    /// As [`Headless::send`], and returns how long `update` took (the model's time for the
    /// message, without handing its effects out): for the measuring harnesses.
    pub fn send_timed(&mut self, msg: Msg) -> Duration {
        let started = std::time::Instant::now();
        let fx = update(&mut self.model, msg);
        let took = started.elapsed();
        self.run(fx);
        took
    }

    /// Runs as the event loop does: applies answers as they arrive, sends `Msg::Tick` every
    /// 120 ms and `Msg::Retry` when the model asks for it ([`Model::retry_at`]: the link's
    /// probe, re-reads of writes whose answer was lost), until `done` holds for the model
    /// with nothing in flight. No key is pressed. A retry is not waited for: when nothing is
    /// in flight and nothing to apply, the clock this stamps on `Tick` and `Retry` moves to
    /// the retry's time (the backoff's 1, 2, 4 s pass at once).
    ///
    /// Errors: `limit` passed first (a guard against a hang; the message says what waited).
    pub async fn run_until(
        &mut self,
        limit: Duration,
        done: impl Fn(&Model) -> bool,
    ) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + limit;
        let tick = Duration::from_millis(120);
        loop {
            let now = chrono::Utc::now() + self.skipped;
            self.send(Msg::Tick(now));
            if let Some(at) = self.model.retry_at()
                && at <= now
            {
                self.send(Msg::Retry(now));
            }
            let idle = !self.model.busy() && self.rx.is_empty();
            if idle && done(&self.model) {
                // The files' failures are reported before it ends.
                self.runner.written().await;
                if self.rx.is_empty() {
                    return Ok(());
                }
                continue;
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(format!(
                    "not done after {limit:?}: {} call(s) in flight, {} write(s) unsettled",
                    self.model.in_flight(),
                    self.model.decisions().lost().len()
                ));
            }
            if idle
                && let Some(at) = self.model.retry_at()
                && at > now
            {
                self.skipped += at - now;
                continue;
            }
            let wake = (tokio::time::Instant::now() + tick).min(deadline);
            while let Ok(Some(msg)) = tokio::time::timeout_at(wake, self.rx.recv()).await {
                self.send(msg);
            }
        }
    }

    /// Applies answers until nothing is in flight, then writes a saved queue that waits
    /// and applies what the files' writer reported (a failure).
    ///
    /// Errors: `limit` passed first (the message says how many calls were still waiting).
    pub async fn run_until_idle(&mut self, limit: Duration) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            while self.model.busy() || !self.rx.is_empty() {
                match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                    Ok(Some(msg)) => self.send(msg),
                    Ok(None) => return Err("the worker stopped".into()),
                    Err(_) => {
                        return Err(format!(
                            "{} call(s) still in flight after {limit:?}",
                            self.model.in_flight()
                        ));
                    }
                }
            }
            self.runner.flush_save();
            self.runner.written().await;
            if self.rx.is_empty() {
                return Ok(());
            }
        }
    }
}
