//! The scripting subcommands: `whoami`, `requests list|show|approve|decline|delete`,
//! `clubs show|contact add`, `history`, `stats`, `requests watch`.
//!
//! They share the dashboard's [`ApiClient`], configuration ([`config::resolve`]: defaults <
//! file < environment < flags, the saved token file), audit file
//! (`<state_dir>/audit.jsonl`, lines with `"via": "cli"`) and read-only switch. Output goes to
//! standard output in the [`output::Format`] chosen; errors go to standard error, one line
//! each (the id, the server's `detail`, the HTTP status); the exit code is an [`Exit`].

pub mod act;
mod args;
pub mod clubs;
pub mod exit;
pub mod history;
pub mod output;
pub mod requests;
pub mod stats;
pub mod stdio;
pub mod watch;

use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use uuid::Uuid;

pub use args::{HistoryArgs, HistoryFormat, ScriptCommand};
pub use exit::Exit;
use output::Format;

use crate::api::{ApiClient, ApiError, User};
use crate::config::{self, Flags, Settings};
use crate::ops::AuditLog;

/// Bulk runs of at least this many items show a progress bar (when standard error is a
/// terminal).
pub const LONG_RUN: usize = 10;

/// Runs one scripting subcommand for `host` (the command line's [`Flags`], or the SSH
/// server's run) with the standard streams `streams`. Never panics on server data; never
/// prints a secret.
pub async fn run(cmd: ScriptCommand, host: &dyn Host, streams: Arc<dyn stdio::Streams>) -> Exit {
    let done = stdio::scoped(streams, dispatch(cmd, host)).await;
    done.unwrap_or_else(|code| code)
}

/// The subcommand's exit code: `Ok` when it ran to its end, `Err` when it stopped early
/// (what stopped it already said).
async fn dispatch(cmd: ScriptCommand, host: &dyn Host) -> Result<Exit, Exit> {
    use args::{ClubsCommand, ContactCommand, RequestsCommand};
    match cmd {
        ScriptCommand::Whoami(a) => whoami(&a.common.out, host).await,
        ScriptCommand::Requests(r) => match r {
            RequestsCommand::List(a) => requests::list(&a, host).await,
            RequestsCommand::Show(a) => requests::show(&a, host).await,
            RequestsCommand::Approve(a) => {
                act::act(crate::ops::RowAction::Approve, &a, false, host).await
            }
            RequestsCommand::Decline(a) => {
                act::act(crate::ops::RowAction::Decline, &a, false, host).await
            }
            RequestsCommand::Delete(a) => {
                act::act(crate::ops::RowAction::Delete, &a.act, a.yes, host).await
            }
            RequestsCommand::Watch(a) => Ok(watch::run(&a, host).await),
        },
        ScriptCommand::Clubs(c) => match c {
            ClubsCommand::Show(a) => clubs::show(&a, host).await,
            ClubsCommand::Contact(ContactCommand::Add(a)) => clubs::add_contact(&a, host).await,
        },
        ScriptCommand::History(a) => history::run(&a, host).await,
        ScriptCommand::Stats(a) => stats::run(&a, host).await,
    }
}

/// What the program that starts a run gives it: the command line's [`Flags`] (resolved
/// here, as the dashboard resolves them), or the SSH server's run (`ssh/exec.rs`: the
/// server's settings, a client with the key's token).
pub trait Host: Send + Sync {
    /// The run's settings, client and audit identity. `need_key`: refuse to run without an
    /// API key (every call but a dry run needs one).
    ///
    /// Errors (already printed): a config problem, no server, no key, no token:
    /// [`Exit::Usage`].
    fn connect(&self, need_key: bool) -> Result<Connection, Exit>;

    /// The most ids the run reads ([`crate::ops::parse::IdStream`]): `max_input_ids` of
    /// the configuration.
    fn max_input_ids(&self) -> usize;

    /// The audit file `history` and `stats` read for `args`.
    fn history_audit(&self, args: &HistoryArgs) -> HistoryAudit;
}

/// What a run reaches the service and writes its audit with ([`Host::connect`]).
#[derive(Clone)]
pub struct Connection {
    /// The resolved settings (concurrency, page size, read-only, state directory).
    pub settings: Settings,
    /// The API client, with the token when there is one.
    pub client: ApiClient,
    /// Who the audit lines name besides the user: `via` (`cli`, `ssh-exec`), and over SSH
    /// the key, the run's id and who hears each line. [`Ctx::audit_log`] adds the file,
    /// the server and the user.
    pub audit: AuditLog,
    /// The audit's open writes as the SSH server last read them; empty: the file is read.
    pub open_writes: Arc<crate::ops::recover::OpenWrites>,
    /// How to sign in, said after a token is refused.
    pub sign_in: String,
    /// True when the host budget is this run's to report: what of it was refused, and
    /// that calls went one at a time. The SSH server's budget is reported in its own log.
    pub own_budget: bool,
}

/// The audit file `history` reads ([`Host::history_audit`]).
pub struct HistoryAudit {
    /// Where it is. Errors (in words): no state directory, a host config that cannot be
    /// read.
    pub path: Result<PathBuf, String>,
    /// How messages name it, when not by its path (an SSH client is not shown the
    /// server's paths).
    pub shown: Option<String>,
    /// True when only a user the service signs in may read it (the server's audit read
    /// over SSH): the token is checked first.
    pub needs_sign_in: bool,
    /// The flags `--club` reaches the service with, when they are not the run's
    /// (`--host`: the host's config).
    pub flags: Option<Flags>,
}

/// The command line: the settings resolved from the flags, the environment and the config
/// file, as the dashboard resolves them.
impl Host for Flags {
    fn connect(&self, need_key: bool) -> Result<Connection, Exit> {
        let env = |k: &str| std::env::var(k).ok();
        let settings = config::resolve(self, &env, None).map_err(|e| {
            say(&e);
            Exit::Usage
        })?;
        crate::ops::rotate::install(settings.audit_rotate_bytes);
        for w in &settings.warnings {
            say(&format!("warning: {w}"));
            tracing::warn!("{w}");
        }
        if need_key && settings.credentials.api_key.is_none() {
            say(
                "no API key: set CLUB_ADMIN_API_KEY, --api-key-file or api_key_file in the config file",
            );
            return Err(Exit::Usage);
        }
        let client = ApiClient::new(
            &settings.base_url,
            settings.credentials.clone(),
            settings.client.clone(),
        )
        .map_err(|e| {
            say(&e.to_string());
            Exit::Usage
        })?;
        let sign_in = format!(
            "sign in at {} and set CLUB_ADMIN_TOKEN (or --token-file, or paste it in the dashboard and save it)",
            client.sign_in_url()
        );
        Ok(Connection {
            settings,
            client,
            audit: AuditLog {
                via: "cli",
                ..AuditLog::default()
            },
            open_writes: Arc::default(),
            sign_in,
            own_budget: true,
        })
    }

    /// The config's `max_input_ids`, else the default (a configuration that does not
    /// resolve is said later, by the run itself).
    fn max_input_ids(&self) -> usize {
        let env = |k: &str| std::env::var(k).ok();
        crate::config::resolve(self, &env, None)
            .map(|s| s.max_input_ids)
            .unwrap_or(crate::ops::parse::MAX_INPUT_IDS)
    }

    fn history_audit(&self, args: &HistoryArgs) -> HistoryAudit {
        history::local_audit(args, self)
    }
}

/// The resolved configuration, the client and the output format of one run.
pub struct Ctx {
    /// The shared API client.
    pub client: ApiClient,
    /// The resolved settings (concurrency, page size, read-only, state directory).
    pub settings: Settings,
    /// Where the output goes and how.
    pub format: Format,
    /// True when standard error is a terminal (progress bar, summaries).
    pub stderr_tty: bool,
    /// The host budget's "busy" said once, above the progress bar drawn now, if any.
    busy: Arc<BusyNote>,
    // The rest of what the host gave ([`Connection`]).
    audit: AuditLog,
    open_writes: Arc<crate::ops::recover::OpenWrites>,
    sign_in: String,
    own_budget: bool,
}

impl Ctx {
    /// Connects for `host` ([`Host::connect`]); `out` chooses the output format.
    ///
    /// Errors (already printed): as [`Host::connect`].
    pub fn new(host: &dyn Host, out: &args::OutputArgs, need_key: bool) -> Result<Ctx, Exit> {
        let c = host.connect(need_key)?;
        let busy = Arc::new(BusyNote::default());
        say_budget(&c.client, &busy, c.own_budget);
        Ok(Ctx {
            client: c.client,
            settings: c.settings,
            format: Format::detect(out),
            stderr_tty: stdio::streams().terminals()[2],
            busy,
            audit: c.audit,
            open_writes: c.open_writes,
            sign_in: c.sign_in,
            own_budget: c.own_budget,
        })
    }

    /// Refuses a write in read-only mode (`--read-only` or `read_only = true`), before
    /// anything is sent: prints why and returns [`Exit::Usage`].
    pub fn check_writable(&self, what: &str) -> Result<(), Exit> {
        if self.settings.read_only {
            say(&format!(
                "read-only mode (--read-only or read_only in the config): {what} refused, nothing was sent"
            ));
            return Err(Exit::Usage);
        }
        Ok(())
    }

    /// Refuses, before anything is sent, a write the service never lets `user` make (the
    /// core's rule, [`crate::ops::permit::check`], api-notes.md "Who may do what": a
    /// teacher or an administrator makes none; a student off the club's staff, with
    /// `staffed` and `club` known, no decision or contact): one line on standard error,
    /// "this account cannot delete: only the student who made a request may delete it (the
    /// service answers 403 "User is not a student"); nothing was sent".
    ///
    /// Errors: [`Exit::Failed`] and the reason in English (a dry run prints it per id).
    pub fn refuse_unpermitted(
        user: &User,
        write: crate::ops::permit::Write,
        verb: &str,
        target: crate::ops::permit::Target<'_>,
    ) -> Result<(), (Exit, String)> {
        let Err(refusal) = crate::ops::permit::check(user, write, target) else {
            return Ok(());
        };
        let why = format!(
            "this account cannot {verb}: {} (the service answers 403 \"{}\")",
            refusal.english(write),
            refusal.detail(write)
        );
        say(&format!("{why}; nothing was sent"));
        Err((Exit::Failed, why))
    }

    /// The signed-in user, read before writes so that the audit lines name them and a
    /// refused key or token stops the run before any write is sent. A 500 is tried again
    /// with the re-read backoff, up to [`crate::ops::run::PRE_READ_TRIES`] tries (the client
    /// itself tries again only what may not have reached the service): the deployed
    /// service's stalled pool answers one (api-notes.md, "16 requests in flight stall the
    /// service"), and a run's first read should not end on it.
    ///
    /// Errors (already printed): the class of the failure as an [`Exit`].
    pub async fn user_for_writes(&self) -> Result<User, Exit> {
        let mut tries = 0;
        let read = loop {
            let read = self.client.current_user().await;
            tries += 1;
            let stalled = read
                .as_ref()
                .err()
                .and_then(ApiError::info)
                .is_some_and(|info| info.status == Some(500));
            if !stalled || tries >= crate::ops::run::PRE_READ_TRIES {
                break read;
            }
            tokio::time::sleep(crate::ops::decision::backoff(tries - 1)).await;
        };
        match read {
            Ok(r) => Ok(r.data),
            Err(e) => {
                say(&format!(
                    "could not read the signed-in user: {} (nothing was sent)",
                    error_text(&e)
                ));
                hint(self, &e);
                Err(Exit::of(&e))
            }
        }
    }

    /// Settles the writes a run of an earlier process left open when it ended (a crash, a
    /// `kill -9`; [`crate::ops::recover`]): each is read again and audited with what became
    /// of it, and one line on standard error says so ("3 writes of an interrupted run: 3
    /// approved"). Nothing when there is no audit file or nothing was left open; a read that
    /// fails leaves the write open for the next start. Called before a run's first write.
    pub async fn settle_interrupted(&self, control: &crate::ops::Control) {
        let Some(path) = AuditLog::in_state_dir(self.settings.state_dir.as_deref()) else {
            return;
        };
        let server = self.client.base_url().to_owned();
        let writes = &self.open_writes;
        match crate::ops::recover::settle_all_in(&self.client, &path, &server, control, writes)
            .await
        {
            Ok(settled) if settled.is_empty() => {}
            Ok(settled) => say(&crate::ops::recover::summary(&settled)),
            Err(e) => say(&e),
        }
    }

    /// The audit writer for writes by `user` on this server: `<state_dir>/audit.jsonl`,
    /// as the dashboard writes it ([`crate::ops::audit`]), with the identity the host gave
    /// ([`Connection::audit`]).
    pub fn audit_log(&self, user: Option<&User>) -> AuditLog {
        AuditLog {
            path: AuditLog::in_state_dir(self.settings.state_dir.as_deref()),
            server: self.client.base_url().to_owned(),
            user: user.and_then(|u| u.email.clone()),
            ..self.audit.clone()
        }
    }

    /// A progress bar on standard error for `len` items: drawn only when standard error
    /// is a terminal of this process's ([`stdio::Streams::draws_progress`]) and the run has at least
    /// [`LONG_RUN`] items; hidden otherwise.
    pub fn progress(&self, len: usize, what: &str) -> ProgressBar {
        if len < LONG_RUN || !stdio::streams().draws_progress() {
            return ProgressBar::hidden();
        }
        let style = ProgressStyle::with_template("{prefix} {wide_bar} {pos}/{len} {msg} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr())
            .with_style(style);
        bar.set_prefix(what.to_owned());
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        if let Ok(mut shown) = self.busy.bar.lock() {
            *shown = Some(bar.clone());
        }
        bar
    }

    /// Says on the progress bar when the server is slow: the limit of calls in flight was
    /// cut back after time-outs, 5xx answers or a jump in latency
    /// ([`crate::api::limit::Limiter`]).
    pub fn show_pace(&self, bar: &ProgressBar) {
        let pace = self.client.limiter().pace();
        let secs = bar.elapsed().as_secs_f64();
        let mut msg = if secs >= 0.2 {
            format!("{:.0}/s", bar.position() as f64 / secs)
        } else {
            String::new()
        };
        if pace.slowed {
            msg.push_str(&format!(" · server slow: {} in flight", pace.limit));
        }
        if let Some(budget) = self.client.watch_budget()
            && budget.borrow().busy
        {
            msg.push_str(" · host budget busy: 1 call at a time");
        }
        bar.set_message(msg);
    }
}

impl Drop for Ctx {
    /// Calls went one at a time and the watcher had not said so yet (the run ended before
    /// it was woken): said now, as the command ends.
    fn drop(&mut self) {
        if self.own_budget
            && let Some(budget) = self.client.watch_budget()
            && budget.borrow().unslotted > 0
        {
            self.busy.say_once();
        }
    }
}

/// "host budget busy" on standard error, once a run.
#[derive(Default)]
struct BusyNote {
    said: std::sync::atomic::AtomicBool,
    /// The wait for a slot said already.
    said_wait: std::sync::atomic::AtomicBool,
    /// The progress bar drawn now, if any: the line is said above it.
    bar: Mutex<Option<ProgressBar>>,
}

impl BusyNote {
    fn say_once(&self) {
        if self.said.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        self.say(
            "host budget busy: other club-admin processes hold every slot, so calls go 1 at a time",
        );
    }

    /// The first wait for a slot, as it begins (the run is not silent for the 3 s it may
    /// last).
    fn say_wait_once(&self) {
        if self
            .said_wait
            .swap(true, std::sync::atomic::Ordering::SeqCst)
            || self.said.load(std::sync::atomic::Ordering::SeqCst)
        {
            return;
        }
        self.say(
            "waiting for the host budget: other club-admin processes of this host hold its slots (at most 3 s, then 1 call at a time)",
        );
    }

    fn say(&self, text: &str) {
        match self.bar.lock().ok().and_then(|b| b.clone()) {
            Some(bar) => bar.suspend(|| say(text)),
            None => say(text),
        }
    }
}

/// The host budget on standard error, each once: what of it was refused (now), and the
/// first time calls go one at a time because other club-admin processes hold every slot (a
/// task that watches the client's budget, and [`Ctx`]'s drop if the run ends first).
fn say_budget(client: &ApiClient, busy: &Arc<BusyNote>, refusal: bool) {
    let Some(mut budget) = client.watch_budget() else {
        return;
    };
    if let Some(r) = &budget.borrow_and_update().refusal
        && refusal
    {
        say(&format!("warning: {r}"));
    }
    if tokio::runtime::Handle::try_current().is_err() {
        return;
    }
    let busy = busy.clone();
    // The task keeps the run's streams: what it says goes to the run's reader.
    stdio::spawn(async move {
        while budget.changed().await.is_ok() {
            let (now_busy, waiting) = {
                let b = budget.borrow_and_update();
                (b.busy, b.waiting)
            };
            if now_busy {
                busy.say_once();
                return;
            }
            if waiting {
                busy.say_wait_once();
            }
        }
    });
}

/// Prints `club-admin: <text>` on standard error (one line; never panics when standard
/// error is closed).
pub fn say(text: &str) {
    stdio::streams().write_err(format!("club-admin: {text}\n").as_bytes());
}

/// The one-line description of a failed call: the server's `detail` (sanitised) and the
/// HTTP status, e.g. `Club request has already been approved (HTTP 403)`; for failures
/// without an answer, the error in words.
pub fn error_text(e: &ApiError) -> String {
    if let Some(info) = e.info() {
        let msg = info.message();
        if let Some(status) = info.status
            && !msg.is_empty()
            && !msg.starts_with("HTTP ")
        {
            return match e {
                ApiError::Unauthorized { kind, .. } => {
                    format!("{msg} (HTTP {status}): {}", kind.describe())
                }
                _ => format!("{msg} (HTTP {status})"),
            };
        }
    }
    crate::text::sanitize(&e.to_string())
}

/// Prints one error line: `club-admin: <target>: <detail> (HTTP <status>)`.
pub fn report(target: Option<&dyn std::fmt::Display>, e: &ApiError) {
    match target {
        Some(t) => say(&format!("{t}: {}", error_text(e))),
        None => say(&error_text(e)),
    }
}

/// After a 401 that a new token can fix: where to sign in (never the token itself).
pub fn hint(ctx: &Ctx, e: &ApiError) {
    if e.needs_sign_in() {
        say(&ctx.sign_in);
    }
}

/// Writes `text` to standard output. A closed pipe (`| head`) is not an error.
///
/// Errors: any other write failure, printed; [`Exit::Failed`].
pub fn emit(text: &str) -> Result<(), Exit> {
    match stdio::streams().write_out(text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            say(&format!("could not write the output: {e}"));
            Err(Exit::Failed)
        }
    }
}

/// [`emit`] of a JSON document.
pub fn emit_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), Exit> {
    match output::json(value) {
        Ok(s) => emit(&s),
        Err(e) => {
            say(&format!("could not write JSON: {e}"));
            Err(Exit::Failed)
        }
    }
}

/// The ids named on the command line: each argument may hold several (any mix of spaces,
/// commas, new lines); `-` reads standard input. At most `max_input_ids` ids in all (the
/// configuration's, [`Host::max_input_ids`]), lines of at most
/// 16 KiB: past a bound reading stops at once and the run is refused. Returns the ids
/// (deduplicated, in order; the repeats counted in one line) and whether standard input was
/// read. Standard input with no id at all (an empty pipe) gives no ids and no error: the
/// caller has nothing to do.
///
/// Errors (already printed: the first five bad tokens or lines named, the rest counted): a
/// token that is not a UUID, a line of standard input that is not UTF-8 ("standard input,
/// line 3: not UTF-8"; the other lines are still read and checked), a bound passed, no id
/// in the arguments, or unreadable standard input: [`Exit::Usage`]. Nothing is sent in that
/// case.
pub async fn read_ids(targets: &[String], host: &dyn Host) -> Result<(Vec<Uuid>, bool), Exit> {
    let mut stream = crate::ops::parse::IdStream::new(host.max_input_ids());
    let mut from_stdin = false;
    let mut too_much = None;
    for t in targets {
        if t == "-" {
            if from_stdin {
                continue;
            }
            from_stdin = true;
            let read = stdio::streams()
                .read_chunks(&mut |chunk| match stream.feed(chunk) {
                    Ok(()) => true,
                    Err(e) => {
                        too_much = Some(e);
                        false
                    }
                })
                .await;
            if let Err(e) = read {
                say(&format!("could not read ids from standard input: {e}"));
                return Err(Exit::Usage);
            }
            // The end of standard input ends its last line.
            if too_much.is_none()
                && let Err(e) = stream.feed(b"\n")
            {
                too_much = Some(e);
            }
        } else if too_much.is_none()
            && let Err(e) = stream.feed(t.as_bytes()).and_then(|()| stream.feed(b"\n"))
        {
            too_much = Some(e);
        }
        if too_much.is_some() {
            break;
        }
    }
    if let Some(e) = too_much {
        say(&format!("standard input or the arguments: {e}"));
        return Err(Exit::Usage);
    }
    for n in &stream.not_utf8 {
        say(&format!("standard input, line {n}: not UTF-8"));
    }
    for b in &stream.invalid {
        say(&format!("{b}: not a club request id (a UUID)"));
    }
    let unnamed = stream.invalid_count - stream.invalid.len();
    if unnamed > 0 {
        say(&format!("and {unnamed} more that are not club request ids"));
    }
    match stream.duplicates {
        0 => {}
        1 => say("1 duplicate ignored (an id given twice is sent once)"),
        n => say(&format!(
            "{n} duplicates ignored (an id given twice is sent once)"
        )),
    }
    if stream.invalid_count > 0 || stream.not_utf8_count > 0 {
        let mut what = Vec::new();
        if stream.not_utf8_count > 0 {
            what.push(format!("{} line(s) not UTF-8", stream.not_utf8_count));
        }
        if stream.invalid_count > 0 {
            what.push(format!("{} invalid id(s)", stream.invalid_count));
        }
        say(&format!("{}: nothing was sent", what.join(", ")));
        return Err(Exit::Usage);
    }
    if stream.ids.is_empty() && !from_stdin {
        say("no ids given: nothing to do");
        return Err(Exit::Usage);
    }
    Ok((stream.ids, from_stdin))
}

/// `whoami --json`: the server's user object as it sent it, with the two facts the text
/// form shows beside it: `server` (the base URL asked) and `token_expires` (the token's
/// expiry, RFC 3339 in UTC, read from the token itself; `null` when it carries none).
pub fn whoami_json(
    user: &crate::api::User,
    server: &str,
    token_expires: Option<String>,
) -> serde_json::Value {
    let mut v = serde_json::to_value(user).unwrap_or(serde_json::Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("server".into(), server.into());
        o.insert("token_expires".into(), token_expires.into());
    }
    v
}

async fn whoami(out: &args::OutputArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let ctx = Ctx::new(host, out, true)?;
    let user = match ctx.client.current_user().await {
        Ok(r) => r.data,
        Err(e) => {
            report(None, &e);
            hint(&ctx, &e);
            return Ok(Exit::of(&e));
        }
    };
    let expiry = ctx
        .client
        .token_expiry()
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    let expires = expiry.clone().unwrap_or_default();
    let fields: Vec<(String, String)> = vec![
        ("id".into(), user.id.to_string()),
        ("email".into(), user.email.clone().unwrap_or_default()),
        ("role".into(), user.role.clone().unwrap_or_default()),
        (
            "is_admin".into(),
            user.is_admin.map(|b| b.to_string()).unwrap_or_default(),
        ),
        (
            "onboarded".into(),
            user.onboarded.map(|b| b.to_string()).unwrap_or_default(),
        ),
        (
            "permissions".into(),
            user.permissions.clone().unwrap_or_default().join(","),
        ),
        (
            "student_id".into(),
            user.meta
                .as_ref()
                .and_then(|m| m.student_id)
                .map(|i| i.to_string())
                .unwrap_or_default(),
        ),
        ("server".into(), ctx.client.base_url().to_owned()),
        ("token_expires".into(), expires),
    ];
    let done = match ctx.format {
        Format::Json => emit_json(&whoami_json(&user, ctx.client.base_url(), expiry)),
        Format::Ids => emit(&output::ids([user.id])),
        Format::Tsv => emit(&output::tsv(
            &fields
                .into_iter()
                .map(|(k, v)| vec![k, v])
                .collect::<Vec<_>>(),
        )),
        Format::Table { width } => emit(&output::pairs(&fields, width)),
    };
    done.map(|()| Exit::Ok)
}
