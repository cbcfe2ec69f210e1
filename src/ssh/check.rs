//! `club-admin serve-ssh --check`: what is right and wrong before a moderator is let in,
//! one line each (`✓`, `✗`, or `·` for information only): the owners and modes of every
//! file and folder `serve-ssh` uses, the authorized keys file parsed line by line, the host
//! key and its fingerprint, the service reached with the API key (its version, whether the
//! account can approve), the host budget's folder, and the listen address bound and let go
//! (a port another program holds fails the check, as it would fail the start). The rules
//! are those the server itself
//! applies: [`super::key_files::loose_parts`] and [`super::key_files::parse_keys`] for the keys file,
//! [`super::key_files::read_host_key`] for the host key, the host budget's own check
//! ([`crate::api::budget::HostBudget::open`]).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::api::{ApiClient, ApiError, AuthErrorKind};
use crate::config::Settings;

/// What `--check` looks at besides the settings.
#[derive(Debug, Clone)]
pub struct CheckInputs {
    /// The host key file (`--host-key`).
    pub host_key: PathBuf,
    /// The authorized keys file (`None` with `--allow-any-key`).
    pub authorized_keys: Option<PathBuf>,
    /// The log file; `None` when the log goes to the journal.
    pub log_file: Option<PathBuf>,
    /// The status socket's path ([`super::status::default_socket`] or `--status-socket`).
    pub status_socket: Option<PathBuf>,
    /// The address `serve-ssh` would listen on (`--listen`, `listen` in the config's
    /// `[serve_ssh]`, else 127.0.0.1:2222); `None` checks none.
    pub listen: Option<std::net::SocketAddr>,
    /// Commands over SSH: their time limit when they are on (`None`: `--no-exec`), and
    /// whether each key's sign-in is remembered for them (`--remember-tokens`).
    pub exec: Option<(std::time::Duration, bool)>,
}

/// One line of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// `Some(true)` right, `Some(false)` wrong, `None` information only.
    pub ok: Option<bool>,
    /// What, in English (paths, modes, the fix; never a secret).
    pub text: String,
}

impl Line {
    /// A fact that is right (`✓`).
    pub fn good(text: impl Into<String>) -> Line {
        Line {
            ok: Some(true),
            text: text.into(),
        }
    }
    /// A fact that is wrong (`✗`): the check fails.
    pub fn bad(text: impl Into<String>) -> Line {
        Line {
            ok: Some(false),
            text: text.into(),
        }
    }
    /// A fact only said (`·`).
    pub fn said(text: impl Into<String>) -> Line {
        Line {
            ok: None,
            text: text.into(),
        }
    }

    /// The line as printed: `✓ `, `✗ ` or `· ` and the text.
    pub fn render(&self) -> String {
        let mark = match self.ok {
            Some(true) => "✓",
            Some(false) => "✗",
            None => "·",
        };
        format!("{mark} {}", self.text)
    }
}

/// True when no line is wrong (the exit code 0).
pub fn all_right(lines: &[Line]) -> bool {
    lines.iter().all(|l| l.ok != Some(false))
}

/// Runs every check, files first, then the service (one call or two: the API key, and with
/// a token the account).
pub async fn check(inputs: &CheckInputs, settings: &Settings) -> Vec<Line> {
    let me = crate::api::budget::effective_uid();
    let mut out = Report::default();
    state(settings.state_dir.as_deref(), me, &mut out);
    host_key(&inputs.host_key, me, &mut out);
    authorized_keys(inputs.authorized_keys.as_deref(), me, &mut out);
    if let Some(p) = &settings.api_key_file {
        secret_file(p, me, &mut out);
    }
    match &inputs.log_file {
        Some(p) => {
            // The folder first: a file "made at start" in a folder that cannot be used
            // would contradict it.
            let before = out.len();
            folder(p.parent(), "the log's folder", me, &mut out);
            if all_right(&out.lines[before..]) {
                private_file(p, "the log file", me, false, &mut out);
            } else {
                out.push(Line::said(format!(
                    "the log file {} is made in its folder once that is mended",
                    p.display()
                )));
            }
        }
        None => out.push(Line::said("the log goes to the journal")),
    }
    if let Some(sock) = &inputs.status_socket {
        folder(sock.parent(), "the status socket's folder", me, &mut out);
    }
    out.push(Line::said(match inputs.exec {
        Some((limit, remembered)) => format!(
            "commands over SSH are on (whoami, requests, clubs, history, stats as the key's moderator; time limit {} min; the token: {}); exec = false turns them off",
            limit.as_secs().div_ceil(60),
            match remembered {
                true => "the one the key's dashboard signed in with last, or one the client sends",
                false => "one the client sends (SetEnv CLUB_ADMIN_TOKEN): no sign-in is remembered",
            }
        ),
        None => "commands over SSH are off (exec = false): only the dashboard is served".into(),
    }));
    budget(settings, &mut out);
    if let Some(addr) = inputs.listen {
        listen(addr, inputs.status_socket.as_deref(), &mut out).await;
    }
    service(settings, &mut out).await;
    out.lines
}

/// The listen address, bound as the server binds it (`SO_REUSEADDR`, as tokio's and std's
/// listeners on Unix) and let go at once: what keeps the start from binding fails here,
/// each cause with what fixes it.
async fn listen(addr: std::net::SocketAddr, socket: Option<&Path>, out: &mut Report) {
    let e = match std::net::TcpListener::bind(addr) {
        Ok(listener) => {
            drop(listener);
            out.push(Line::good(format!(
                "the listen address {addr} can be bound (bound and let go)"
            )));
            return;
        }
        Err(e) => e,
    };
    let port = addr.port();
    let why = match e.kind() {
        std::io::ErrorKind::AddrInUse => {
            let running = match socket {
                Some(p) => super::status::query(p).await.is_ok(),
                None => false,
            };
            // The service itself, checked before its restart (as the config file advises):
            // its restart frees the address; not a fault of the configuration.
            if running {
                out.push(Line::said(format!(
                    "the listen address {addr} is held by the serve-ssh running now (its status socket answers: club-admin serve-ssh status): its restart lets the new one bind it; to run a second server beside it, give that one another address (--listen, or listen in the config's [serve_ssh])"
                )));
                return;
            }
            format!(
                "another program listens there (ss -ltnp 'sport = :{port}' names it); stop it, or give serve-ssh another address (--listen, or listen in the config's [serve_ssh])"
            )
        }
        std::io::ErrorKind::PermissionDenied => format!(
            "port {port} is below 1024, which only a privileged user may bind (the package's unit gives serve-ssh no privilege); listen on a port of 1024 or above (2222 is the default) and forward port {port} to it if you must"
        ),
        std::io::ErrorKind::AddrNotAvailable => {
            "that address is not one of this host's; give one of its addresses (0.0.0.0 or [::] for all of them) with --listen, or listen in the config's [serve_ssh]".to_owned()
        }
        _ => "serve-ssh could not start there either".to_owned(),
    };
    out.push(Line::bad(format!(
        "the listen address {addr} cannot be bound: {e}: {why}"
    )));
}

/// The lines printed so far, and the folders already checked (the state folder holds the
/// host key, the log and the socket: printed once).
#[derive(Default)]
struct Report {
    lines: Vec<Line>,
    folders: std::collections::HashSet<PathBuf>,
}

impl Report {
    fn push(&mut self, line: Line) {
        self.lines.push(line);
    }

    fn extend(&mut self, lines: impl IntoIterator<Item = Line>) {
        self.lines.extend(lines);
    }

    fn len(&self) -> usize {
        self.lines.len()
    }
}

/// The state folder, the audit file and its `runs/` folder.
fn state(dir: Option<&Path>, me: u32, out: &mut Report) {
    let Some(dir) = dir else {
        out.push(Line::bad(
            "no state folder (no home, no XDG_STATE_HOME): the audit file has no place",
        ));
        return;
    };
    folder(Some(dir), "the state folder", me, out);
    let audit = dir.join(crate::ops::audit::FILE_NAME);
    private_file(&audit, "the audit file", me, false, out);
    let runs = dir.join(crate::ops::runs::RUNS_DIR);
    if runs.exists() {
        folder(Some(&runs), "the audit's run locks folder", me, out);
    }
}

/// A file only the service's user may read: owned by it (`me`), mode 0600. A missing file
/// is right (made 0600 at start) unless `needed`.
fn private_file(path: &Path, what: &str, me: u32, needed: bool, out: &mut Report) {
    let shown = path.display();
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !needed => {
            out.push(Line::good(format!(
                "{what} {shown} does not exist yet: made with mode 0600 at start"
            )));
            return;
        }
        Err(e) => {
            out.push(Line::bad(format!("{what} {shown} cannot be read: {e}")));
            return;
        }
    };
    if !meta.file_type().is_file() {
        out.push(Line::bad(format!(
            "{what} {shown} is not a plain file; remove it"
        )));
        return;
    }
    let before = out.len();
    owner(path, what, meta.uid(), me, out);
    let mode = meta.mode() & 0o7777;
    if mode & 0o077 != 0 {
        out.push(Line::bad(format!(
            "{what} {shown} has mode {mode:o}, should be 600 (other users can read it); run chmod 600 {shown}"
        )));
    }
    if out.len() == before {
        out.push(Line::good(format!(
            "{what} {shown}: owner uid {me}, mode {mode:o}"
        )));
    }
}

/// A folder of the service's user: owned by it, not writable by its group or others. A
/// folder already checked (the state folder holds the host key, the log, the socket) is
/// printed once. A missing one is right when this user may make it (`serve-ssh` makes it, mode
/// 0700, at start: a fresh host has none yet).
fn folder(path: Option<&Path>, what: &str, me: u32, out: &mut Report) {
    let Some(path) = path.filter(|p| !p.as_os_str().is_empty()) else {
        return;
    };
    if !out.folders.insert(path.to_path_buf()) {
        return;
    }
    let shown = path.display();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            let maker = path.ancestors().skip(1).find(|a| a.is_dir());
            let may_make = maker.is_some_and(|a| {
                rustix::fs::access(
                    a,
                    rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK,
                )
                .is_ok()
            });
            if e.kind() == std::io::ErrorKind::NotFound && may_make {
                out.push(Line::good(format!(
                    "{what} {shown} does not exist yet: made with mode 700 at start"
                )));
            } else {
                out.push(Line::bad(format!(
                    "{what} {shown} cannot be used: {e}; run install -d -m 700 -o {me} {shown}"
                )));
            }
            return;
        }
    };
    let before = out.len();
    owner(path, what, meta.uid(), me, out);
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        out.push(Line::bad(format!(
            "{what} {shown} has mode {mode:o}, should be 700 or 755 (other users can replace what is in it); run chmod go-w {shown}"
        )));
    }
    if out.len() == before {
        out.push(Line::good(format!(
            "{what} {shown}: owner uid {me}, mode {mode:o}"
        )));
    }
}

/// A wrong owner: named with the fix.
fn owner(path: &Path, what: &str, uid: u32, me: u32, out: &mut Report) {
    if uid != me {
        out.push(Line::bad(format!(
            "{what} {} is owned by uid {uid}, should be uid {me} (the user serving); run chown {me} {}",
            path.display(),
            path.display()
        )));
    }
}

/// The API key file: owned by the service's user (mode 600) or by root (mode 640, the
/// service's group reading it); no one else may read it.
fn secret_file(path: &Path, me: u32, out: &mut Report) {
    let shown = path.display();
    let what = "the API key file";
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            out.push(Line::bad(format!("{what} {shown} cannot be read: {e}")));
            return;
        }
    };
    let (uid, mode) = (meta.uid(), meta.mode() & 0o7777);
    let before = out.len();
    if uid != me && uid != 0 {
        out.push(Line::bad(format!(
            "{what} {shown} is owned by uid {uid}, should be uid {me} (the user serving) or root; run chown {me} {shown}"
        )));
    }
    let (allowed, fix) = if uid == 0 {
        (0o640, "640")
    } else {
        (0o600, "600")
    };
    // Root's file is read by the service through its group: a group not the service's, or
    // no read for the group, and the service cannot read its key at all.
    let unread = uid == 0 && me != 0 && (mode & 0o040 == 0 || !in_my_groups(meta.gid()));
    if unread {
        let fix = root_key_fix(path);
        out.push(Line::bad(format!(
            "{what} {shown} belongs to root and is not readable by the group of the user serving (uid {me}): the service cannot read its key; run {fix}"
        )));
    } else if mode & !allowed & 0o777 != 0 {
        out.push(Line::bad(format!(
            "{what} {shown} has mode {mode:o}, should be {fix} (other users can read the key); run chmod {fix} {shown}"
        )));
    }
    if out.len() == before {
        out.push(Line::good(format!(
            "{what} {shown}: owner uid {uid}, mode {mode:o}"
        )));
    }
}

/// When the API key file at `path` cannot give the service its key (the settings then do
/// not resolve and nothing else is checked): a ✗ line with the fix. Missing: made, mode
/// 600, and the key put in; empty (as the package makes it): the key put in; unreadable by
/// this user: as [`secret_file`] fixes it (root's file: its group the service's, mode 640;
/// another user's: `chown` to the user serving, mode 600). `None` when it gives a key.
pub fn unreadable_key_file(path: &Path) -> Option<Line> {
    let me = crate::api::budget::effective_uid();
    let shown = path.display();
    let put = "put the key MySK issued for this host in it (one line, mysk_...): serve-ssh reads it again when it changes";
    let Ok(meta) = std::fs::metadata(path) else {
        return Some(Line::bad(format!(
            "the API key file {shown} does not exist: the service cannot start; run install -m 600 -o {me} /dev/null {shown}, then {put}"
        )));
    };
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {}
        Ok(text) if text.trim().is_empty() => {
            return Some(Line::bad(format!(
                "the API key file {shown} is empty: the service cannot start; {put}"
            )));
        }
        _ => return None,
    }
    let fix = match meta.uid() {
        0 => root_key_fix(path),
        _ => format!("chown {me} {shown} && chmod 600 {shown}"),
    };
    Some(Line::bad(format!(
        "the API key file {shown} cannot be read by the user serving (uid {me}): the service cannot start; run {fix}"
    )))
}

/// True when `gid` is this process's group or one of its supplementary groups.
fn in_my_groups(gid: u32) -> bool {
    let gid = nix::unistd::Gid::from_raw(gid);
    nix::unistd::getegid() == gid || nix::unistd::getgroups().is_ok_and(|g| g.contains(&gid))
}

/// What lets the service's user read root's API key file at `path`: its group the
/// service's, mode 640.
fn root_key_fix(path: &Path) -> String {
    let shown = path.display();
    format!("chgrp {} {shown} && chmod 640 {shown}", my_group_name())
}

/// The name of this process's group (its number when it has no name), for a `chgrp`.
fn my_group_name() -> String {
    let gid = nix::unistd::getegid();
    match nix::unistd::Group::from_gid(gid) {
        Ok(Some(g)) => g.name,
        _ => gid.to_string(),
    }
}

/// The host key: its file private, its folder the service's, the key read and its
/// fingerprint; a missing one is made at start.
fn host_key(path: &Path, me: u32, out: &mut Report) {
    let before = out.len();
    private_file(path, "the host key", me, false, out);
    let wrong = !all_right(&out.lines[before..]);
    folder(path.parent(), "the host key's folder", me, out);
    if wrong {
        // Printed above with its fix; the key is read once that is fixed.
        return;
    }
    match super::key_files::read_host_key(path) {
        Ok(Some(key)) => out.push(Line::good(format!(
            "host key {} {}",
            key.fingerprint(russh::keys::HashAlg::Sha256),
            path.display()
        ))),
        Ok(None) => out.push(Line::said(
            "no host key yet: an ed25519 key is made at the first start (its fingerprint printed then)",
        )),
        Err(e) => {
            let shown = path.display();
            out.push(Line::bad(format!(
                "{e}; run chown {me} {shown} && chmod 600 {shown} (or move it away: a new key is made at the next start, and every moderator's ssh then warns of a changed host key)"
            )))
        }
    }
}

/// The authorized keys file: every loose part ([`super::key_files::loose_parts`]; while
/// any is left the server lets no key in, and since another user could have written the
/// file, every key it holds is listed to review before it is trusted again), then each line
/// ([`key_lines`]).
fn authorized_keys(path: Option<&Path>, me: u32, out: &mut Report) {
    let Some(path) = path else {
        out.push(Line::said(
            "any key may sign in (--allow-any-key): each session still signs in to the service",
        ));
        return;
    };
    let shown = path.display();
    match super::key_files::loose_parts(path, me) {
        Ok(parts) if parts.is_empty() => out.push(Line::good(format!(
            "the authorized keys file {shown} and the folders above it: only root or uid {me} can change them"
        ))),
        Ok(parts) => {
            out.extend(parts.into_iter().map(Line::bad));
            // Another user could have added a key while it was open: the fix is not only
            // the chmod, but a look at every key before the file is trusted again.
            let review = match super::key_files::describe_keys(path) {
                Ok(keys) if keys.is_empty() => "it holds no key".to_owned(),
                Ok(keys) => keys.join("; "),
                Err(e) => e,
            };
            out.push(Line::said(format!(
                "the authorized keys file {shown} may have been changed by another user while it was open to them: once mended, review every key it holds and remove any you did not put there (the server logs the keys it accepts each time the file changes): {review}"
            )));
        }
        Err(e) => {
            out.push(Line::bad(format!(
                "{e}; run install -m 600 -o {me} /dev/null {shown}, then add each moderator's public key, one per line"
            )));
            return;
        }
    }
    match std::fs::read_to_string(path) {
        Ok(text) => key_lines(path, &text, out),
        Err(e) => out.push(Line::bad(format!(
            "could not read {shown}: {e}; run chown {me} {shown}"
        ))),
    }
}

/// Each line of the authorized keys file at `path` ([`super::key_files::parse_keys`]): a
/// line that is not a key (no one signs in until it is fixed), a line whose options refuse
/// it (that key does not sign in), the options that limit a key or have no effect here.
fn key_lines(path: &Path, text: &str, out: &mut Report) {
    let shown = path.display();
    let mut good = 0;
    let mut broken = Vec::new();
    for (n, entry) in &super::key_files::parse_keys(text) {
        let k = match entry {
            Err(e) => {
                broken.push(format!("line {n}: {e}"));
                continue;
            }
            Ok(k) => k,
        };
        let fp = super::key_files::fingerprint(&k.key);
        match &k.rules {
            Ok(r) => {
                good += 1;
                out.extend(
                    r.said
                        .iter()
                        .map(|said| Line::said(format!("{shown} line {n}: {said}"))),
                );
                if !r.summary().is_empty() {
                    out.push(Line::said(format!(
                        "{shown} line {n} ({fp}): {}",
                        r.summary()
                    )));
                }
            }
            Err(e) => out.push(Line::bad(format!(
                "{shown} line {n} ({fp}): refused, this key does not sign in: {e}; mend: remove the option, or the line"
            ))),
        }
    }
    out.push(match (good, broken.is_empty()) {
        (0, true) => Line::bad(format!(
            "the authorized keys file {shown} holds no key: no one can sign in; mend: add each moderator's public key (their .pub file), one per line"
        )),
        (n, true) => Line::good(format!(
            "the authorized keys file {shown}: {n} {}",
            if n == 1 { "key" } else { "keys" }
        )),
        (n, false) => Line::bad(format!(
            "the authorized keys file {shown}: {n} good, {} bad (no one can sign in until it is mended): {}; mend: each line is one key as ssh-keygen writes it (ssh-ed25519 AAAA... comment), options before it: fix or remove those lines",
            broken.len(),
            broken.join("; ")
        )),
    });
}

/// The host budget's folder and slots, checked as a call would open them.
fn budget(settings: &Settings, out: &mut Report) {
    let Some(options) = &settings.client.host_budget else {
        out.push(Line::said("the host budget is off (--host-budget 0)"));
        return;
    };
    // As the service opens it: every slot.
    let options = &crate::api::budget::BudgetOptions {
        service: true,
        ..options.clone()
    };
    let budget = crate::api::budget::HostBudget::open(&settings.base_url, options);
    match budget.status().refusal {
        None => out.push(Line::good(format!(
            "the host budget {}: {} slots usable",
            options.dir.display(),
            options.slots
        ))),
        // A refused slot costs that slot only: the server starts and uses the others (a
        // file another user planted must not keep the service from starting).
        Some(r) if r.usable() > 0 => {
            out.push(Line::good(format!(
                "the host budget {}: {} of {} slots usable",
                options.dir.display(),
                r.usable(),
                r.slots
            )));
            out.push(Line::said(format!("the host budget: {r}")));
        }
        Some(r) => out.push(Line::bad(format!("the host budget: {r}"))),
    }
}

/// The service reached with the API key: its version (`/health-check`), the API key
/// accepted by a read that needs the key and no token (`GET /v1/clubs/{nil UUID}`: the
/// service answers 404 for a key it accepts, 401 `invalid_api_key` or `missing_api_key`
/// for one it refuses; `/auth/user` cannot tell, since the deployed service asks for the
/// token first), and with a token (`CLUB_ADMIN_TOKEN`) the account and whether it may
/// approve (api-notes.md, "Who may do what": only a student on a club's staff).
async fn service(settings: &Settings, out: &mut Report) {
    let url = &settings.base_url;
    let client = match ApiClient::new(url, settings.credentials.clone(), settings.client.clone()) {
        Ok(c) => c.single_try(),
        Err(e) => {
            out.push(Line::bad(format!(
                "the service {url}: {e}; mend: set base_url in the config file (or --base-url) to the service's root, e.g. https://mysk.school.ac.th"
            )));
            return;
        }
    };
    match client.health().await {
        Ok(r) => out.push(Line::good(format!(
            "the service {url} answers, version {}",
            r.api_version.as_deref().unwrap_or("not told")
        ))),
        Err(e @ (ApiError::Connect { .. } | ApiError::Timeout { .. })) => {
            // Not a fault of the host's: the server starts and serves through an outage.
            out.push(Line::said(format!(
                "warning: the service {url} cannot be reached now: {e}; serve-ssh starts anyway (dashboards show it offline, writes wait until it answers); the API key is checked once it answers: run the check again then; if it never answers, check base_url in the config file and the host's network (curl {url}/health-check answers with JSON)"
            )));
            return;
        }
        Err(e) => {
            out.push(Line::bad(format!(
                "something answers at {url}, but not as the MySK service does: {e}; mend: set base_url to the service's root (the address whose /health-check answers with JSON), not a page or a path under it"
            )));
            return;
        }
    }
    if !api_key(&client, settings, out).await {
        return;
    }
    if settings.credentials.token.is_some() {
        account(&client, out).await;
    } else {
        out.push(Line::said(
            "who may approve is each moderator's own account (a student on a club's staff); CLUB_ADMIN_TOKEN=... serve-ssh --check checks one",
        ));
    }
}

/// The operator's API key, by a read that needs the key and no token: true when the service
/// accepted it (a ✓ printed), false after a ✗ with its fix.
async fn api_key(client: &ApiClient, settings: &Settings, out: &mut Report) -> bool {
    let keyed = client.for_session();
    let levels = crate::api::Levels::new(
        crate::api::FetchLevel::IdOnly,
        crate::api::FetchLevel::IdOnly,
    );
    let source = match &settings.api_key_file {
        Some(p) => format!("the API key file {}", p.display()),
        None => "CLUB_ADMIN_API_KEY (or api_key in the config file)".to_owned(),
    };
    match keyed.club(uuid::Uuid::nil(), levels).await {
        // No such club: the service read the key and looked.
        Err(ApiError::NotFound(_)) | Ok(_) => {
            out.push(Line::good("the API key is accepted by the service"));
            true
        }
        Err(ApiError::Unauthorized {
            kind: AuthErrorKind::InvalidKey | AuthErrorKind::MissingKey,
            info,
        }) => {
            let said = info
                .detail
                .as_deref()
                .map(|d| format!(" (\"{}\")", crate::text::clean(d, 80)))
                .unwrap_or_default();
            out.push(Line::bad(format!(
                "the service refuses the operator's API key{said}: every moderator would be refused; mend: put the key MySK issued for this host in {source} (one line, mysk_...), serve-ssh reads it again when it changes"
            )));
            false
        }
        Err(e) => {
            out.push(Line::bad(format!(
                "whether the service accepts the API key is unknown: {e}; mend: run the check again when the service answers (curl {}/health-check)",
                client.base_url()
            )));
            false
        }
    }
}

/// The account of the token given (`CLUB_ADMIN_TOKEN`), and whether it may approve.
async fn account(client: &ApiClient, out: &mut Report) {
    match client.current_user().await {
        Err(e @ ApiError::Unauthorized { .. }) => out.push(Line::bad(format!(
            "the service refused the token: {e}; mend: sign in again for a new token ({}/auth/oauth/init in a browser) and give it as CLUB_ADMIN_TOKEN",
            client.base_url()
        ))),
        Err(e) => out.push(Line::bad(format!(
            "the signed-in user could not be read: {e}; mend: run the check again when the service answers"
        ))),
        Ok(r) => {
            let u = r.data;
            let email = u.email.as_deref().unwrap_or("?");
            let role = u.role.as_deref().unwrap_or("?");
            out.push(Line::good(format!("the token is {email}'s ({role})")));
            if role != "student" {
                out.push(Line::bad(format!(
                    "{email} ({role}) cannot approve or decline: only a student on a club's staff may (the service answers 403 \"User is not a student\"); mend: check with a staff student's token"
                )));
                return;
            }
            match client.probe_update_route().await {
                Ok(route) if !route.allows_decisions() => out.push(Line::bad(
                    route
                        .notice()
                        .unwrap_or_else(|| "cannot approve".to_owned()),
                )),
                Ok(_) => out.push(Line::good(format!(
                    "{email} can approve and decline the requests of the clubs it staffs"
                ))),
                Err(e) => out.push(Line::bad(format!(
                    "whether it can approve is unknown: {e}; mend: run the check again when the service answers"
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_marked_and_one_wrong_line_fails_the_check() {
        let lines = vec![Line::good("a"), Line::said("b")];
        assert!(all_right(&lines));
        assert_eq!(lines[0].render(), "✓ a");
        assert_eq!(lines[1].render(), "· b");
        let lines = vec![Line::good("a"), Line::bad("c")];
        assert!(!all_right(&lines));
        assert_eq!(lines[1].render(), "✗ c");
    }
}
