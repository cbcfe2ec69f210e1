//! The one way a dashboard is put together, for the local terminal ([`super::dashboard`]),
//! each `serve-ssh` session and the tests' headless driver (`tests/common/headless.rs`): its
//! [`Model`], the worker that sends its calls, the effect [`Runner`] (files through the
//! process's writer), its message channel and the event loop's options.

use std::time::Duration;

use tokio::sync::mpsc;

use super::effects::{self, Hooks};
use super::effects::{Files, Origin, RemoteTerminal, Runner};
use super::event_loop::{Channels, Clock, LoopOptions};
use crate::api::ApiClient;
use crate::app::{Keymap, Model, ModelOptions, Msg};
use crate::config::Settings;

/// On a hang-up or a stop, held decisions are sent and their answers awaited for the
/// client's timeout and this much more (a call that times out answers just after its
/// timeout).
pub const FINAL_WAIT_MARGIN: Duration = Duration::from_secs(1);

/// A dashboard, put together: what the event loop runs.
pub struct Dashboard {
    /// The state.
    pub model: Model,
    /// Its effects' runner (the worker and the files are behind it).
    pub runner: Runner,
    /// Where messages are sent: the worker's answers, the files' failures.
    pub tx: mpsc::UnboundedSender<Msg>,
    /// Where they arrive.
    pub rx: mpsc::UnboundedReceiver<Msg>,
    /// The event loop's options.
    pub opts: LoopOptions,
}

impl Dashboard {
    /// Claims the writes interrupted runs left open for `server` in `audit`
    /// ([`crate::ops::recover::interrupted_in`]; the claim is kept by the runner) and posts
    /// them to the dashboard ([`Msg::Interrupted`]), which re-reads and settles them. Nothing
    /// without an audit file or when nothing was left open; a file that cannot be read is
    /// logged and passed over. `writes`: what earlier reads of the file found
    /// (`serve-ssh`'s sessions share one, [`crate::ops::recover::OpenWrites`]), else the
    /// file is read whole.
    pub fn settle_interrupted(
        &mut self,
        audit: Option<&std::path::Path>,
        server: &str,
        writes: Option<&crate::ops::recover::OpenWrites>,
    ) {
        let Some(audit) = audit else { return };
        let whole = crate::ops::recover::OpenWrites::default();
        match crate::ops::recover::interrupted_in(audit, server, writes.unwrap_or(&whole)) {
            Ok((open, claim)) => {
                self.runner.keep_claim(claim);
                if !open.is_empty() {
                    tracing::info!(
                        writes = open.len(),
                        "writes of an interrupted run to settle"
                    );
                    let _ = self.tx.send(Msg::Interrupted(open));
                }
            }
            Err(e) => {
                tracing::warn!(path = %audit.display(), "could not read the audit file for interrupted writes: {e}")
            }
        }
    }

    /// The message channel, lent to one run of the loop.
    pub fn channels(&mut self) -> Channels<'_> {
        Channels {
            tx: &self.tx,
            rx: &mut self.rx,
        }
    }
}

/// Puts a [`Dashboard`] together; see the module documentation.
pub struct Builder {
    model: Model,
    client: ApiClient,
    concurrency: usize,
    files: Files,
    origin: Option<Origin>,
    remote: Option<RemoteTerminal>,
    journal: bool,
    opts: LoopOptions,
    hooks: Hooks,
    tell: Option<super::effects::Tell>,
}

impl Builder {
    /// A dashboard of `model` whose calls go through `client`, at most `concurrency` in
    /// flight; no files, the loop's options of a screen that is not the process's terminal
    /// (no auto-refresh, the system clock, 21 s of final wait) until set otherwise.
    pub fn new(model: Model, client: ApiClient, concurrency: usize) -> Builder {
        Builder {
            model,
            client,
            concurrency,
            files: Files::default(),
            origin: None,
            remote: None,
            journal: false,
            opts: LoopOptions {
                auto_refresh: None,
                refresh_clock: None,
                spinners: None,
                theme: crate::ui::Theme::from_env(),
                real_terminal: false,
                final_wait: crate::api::ClientOptions::default().request_timeout
                    + FINAL_WAIT_MARGIN,
                clock: Clock::system(),
            },
            hooks: Hooks::default(),
            tell: None,
        }
    }

    /// Tells the other sessions of the server what this dashboard did
    /// ([`Runner::with_tell`]).
    pub fn tell(mut self, tell: super::effects::Tell) -> Builder {
        self.tell = Some(tell);
        self
    }

    /// Writes the token, the audit file and the saved queue to `files`.
    pub fn files(mut self, files: Files) -> Builder {
        self.files = files;
        self
    }

    /// Stamps every audit line with `origin` ([`Runner::with_origin`]).
    pub fn origin(mut self, origin: Origin) -> Builder {
        self.origin = Some(origin);
        self
    }

    /// Copied text and mouse capture go to `remote` ([`Runner::with_remote`]).
    pub fn remote(mut self, remote: RemoteTerminal) -> Builder {
        self.remote = Some(remote);
        self
    }

    /// Keeps every audit entry in memory too ([`Runner::keep_journal`]).
    pub fn keep_journal(mut self) -> Builder {
        self.journal = true;
        self
    }

    /// The event loop's options.
    pub fn loop_options(mut self, opts: LoopOptions) -> Builder {
        self.opts = opts;
        self
    }

    /// The worker's hooks (nothing in the program; see [`Hooks`]).
    pub fn hooks(mut self, hooks: Hooks) -> Builder {
        self.hooks = hooks;
        self
    }

    /// The dashboard, its worker started (on the current Tokio runtime).
    pub fn build(self) -> Dashboard {
        let (tx, rx) = mpsc::unbounded_channel();
        let worker = effects::spawn_with(
            self.client.clone(),
            self.concurrency,
            tx.clone(),
            self.hooks,
        );
        // The window of writes on their way starts at the limiter's limit (the worker tells
        // each change after).
        let pace = self.client.limiter().pace();
        let _ = tx.send(Msg::Pace {
            limit: pace.limit.min(self.concurrency),
            slowed: pace.slowed,
            in_flight: 0,
        });
        let mut runner = Runner::new(self.client, worker, self.files, tx.clone());
        if let Some(o) = self.origin {
            runner = runner.with_origin(o);
        }
        if let Some(r) = self.remote {
            runner = runner.with_remote(r);
        }
        if self.journal {
            runner = runner.keep_journal();
        }
        if let Some(t) = self.tell {
            runner = runner.with_tell(t);
        }
        Dashboard {
            model: self.model,
            runner,
            tx,
            rx,
            opts: self.opts,
        }
    }
}

/// The event loop's options from the settings: `--auto-refresh`, the colours of the
/// environment, the system clock and the client's timeout (and [`FINAL_WAIT_MARGIN`]) as
/// the final wait. `real_terminal`: drawn to the process's own terminal.
pub fn loop_options(settings: &Settings, real_terminal: bool) -> LoopOptions {
    LoopOptions {
        auto_refresh: settings.auto_refresh,
        refresh_clock: None,
        spinners: None,
        theme: crate::ui::Theme::from_env(),
        real_terminal,
        final_wait: settings.client.request_timeout + FINAL_WAIT_MARGIN,
        clock: Clock::system(),
    }
}

/// What a dashboard's model starts with, from the settings and the client (which knows the
/// token); `server_key` names the server in the saved queue and the history. A `serve-ssh`
/// session changes what differs for it (its language, no mouse, where its token goes).
pub fn model_options(
    settings: &Settings,
    keymap: Keymap,
    client: &ApiClient,
    server_key: String,
) -> ModelOptions {
    ModelOptions {
        base_url: client.base_url().to_owned(),
        read_only: settings.read_only,
        keymap,
        has_token: client.has_token(),
        token_expires: client.token_expiry(),
        sign_in_url: client.sign_in_url(),
        page_size: settings.page_size,
        now: chrono::Utc::now(),
        mouse: settings.mouse,
        notify: settings.notify,
        save_token: settings.save_token,
        can_save_token: settings.token_path.is_some(),
        can_suspend: true,
        server_key: Some(server_key),
        lang: settings.lang,
        year_style: settings.year_style,
        thai_keys: settings.thai_keys,
        decision_delay: settings.decision_delay,
        command: "club-admin".to_owned(),
        review_opens_term: true,
    }
}
