//! Where the log goes: a file only its owner can read (mode 0600), kept to a bounded size by
//! rotation ([`RotatingFile`]), or standard error when standard error is systemd's journal
//! (`JOURNAL_STREAM`, and no `--log-file`): the journal keeps, rotates and guards it.
//!
//! Why not a crate: file-rotate 0.8.0 opens an existing file without narrowing its mode and
//! panics (`expect`, `assert!`) when its folder cannot be made or a file moves under it
//! during a rotation (another process of the same user rotating it), which in a log writer
//! would end the server; logroller 0.1.12 brings flate2, regex and a second
//! thiserror for what is here a hundred lines; tracing-appender rolls by time only.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The largest a log file grows before it is rotated, in bytes: 10 MiB.
pub const MAX_BYTES: u64 = 10 * 1024 * 1024;
/// Rotated files kept beside it (`club-admin.log.1`, the newest, to `.3`): with the live
/// one, at most 40 MiB of log.
pub const KEEP: usize = 3;

/// A log file that rotates by size: before a line would take it past `max_bytes`, the file
/// becomes `NAME.1` (`NAME.1` becomes `NAME.2`..., `NAME.<keep>` is removed) and a new one
/// is made. Every file it makes has mode 0600; an existing one with a wider mode is
/// narrowed to 0600. Several processes of one user may share it: the size is the file's
/// own (not what this process wrote), and a file rotated or removed by another is opened
/// again by name before the next line.
#[derive(Debug)]
pub struct RotatingFile {
    path: PathBuf,
    max_bytes: u64,
    keep: usize,
    file: File,
}

impl RotatingFile {
    /// Opens (or makes, with its folder, mode 0700) the log at `path`, rotating at
    /// `max_bytes` (at least 1) and keeping `keep` old files (at least 1).
    ///
    /// Errors: the folder or file cannot be made or opened; the path is a symbolic link or
    /// not a regular file; its mode is wider than 0600 and cannot be narrowed (another
    /// user's file): a message naming the file.
    pub fn open(path: &Path, max_bytes: u64, keep: usize) -> Result<RotatingFile, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let mut b = std::fs::DirBuilder::new();
            b.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            b.create(dir)
                .map_err(|e| format!("could not make the log folder {}: {e}", dir.display()))?;
        }
        Ok(RotatingFile {
            path: path.to_path_buf(),
            max_bytes: max_bytes.max(1),
            keep: keep.max(1),
            file: open_private(path)?,
        })
    }

    /// The file `NAME.n`.
    fn numbered(&self, n: usize) -> PathBuf {
        let mut name = self.path.as_os_str().to_os_string();
        name.push(format!(".{n}"));
        PathBuf::from(name)
    }

    /// Opens the file again by name when another process rotated or removed it.
    fn follow(&mut self) -> io::Result<()> {
        let by_name = std::fs::symlink_metadata(&self.path).ok();
        let ours = self.file.metadata()?;
        if by_name.is_some_and(|m| same_file(&m, &ours)) {
            return Ok(());
        }
        self.file = open_private(&self.path).map_err(io::Error::other)?;
        Ok(())
    }

    /// Rotates: `NAME.<keep-1>` → `NAME.<keep>` ... `NAME` → `NAME.1`, then a new `NAME`.
    fn rotate(&mut self) -> io::Result<()> {
        for n in (1..self.keep).rev() {
            match std::fs::rename(self.numbered(n), self.numbered(n + 1)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        std::fs::rename(&self.path, self.numbered(1))?;
        self.file = open_private(&self.path).map_err(io::Error::other)?;
        Ok(())
    }
}

impl Write for RotatingFile {
    /// Writes `buf` whole (one log line: the formatter hands each event over at once),
    /// rotating first when it would take a non-empty file past the limit.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.follow()?;
        let len = self.file.metadata()?.len();
        if len > 0 && len.saturating_add(buf.len() as u64) > self.max_bytes {
            self.rotate()?;
        }
        self.file.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// True when `a` and `b` are the same file (device and inode).
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len()
    }
}

/// Opens `path` to append, made with mode 0600 when missing, never through a symbolic link;
/// an existing file with a wider mode is narrowed to 0600.
///
/// Errors: as [`RotatingFile::open`].
fn open_private(path: &Path) -> Result<File, String> {
    let mut o = OpenOptions::new();
    o.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    let file = o.open(path).map_err(|e| {
        let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        match link {
            // O_NOFOLLOW's ELOOP says "too many levels of symbolic links": say what it is.
            true => format!(
                "the log file {} is a symbolic link, which is never followed (another user could point it at a file of yours): give the file itself",
                path.display()
            ),
            false => format!("could not open the log file {}: {e}", path.display()),
        }
    })?;
    let meta = file
        .metadata()
        .map_err(|e| format!("could not read the log file {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!(
            "the log file {} is not a regular file",
            path.display()
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o7777;
        if mode & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| {
                    format!(
                        "the log file {} has mode {mode:o} (other users can read it) and could not be made 0600: {e}; run chmod 600 {}",
                        path.display(),
                        path.display()
                    )
                })?;
        }
    }
    Ok(file)
}

/// True when standard error is systemd's journal: `JOURNAL_STREAM` (`DEVICE:INODE`, set by
/// systemd for a service whose output goes to the journal) names standard error's own
/// device and inode (systemd.exec(5): a child whose standard error was redirected
/// inherits the variable, so the variable alone is not enough).
pub fn stderr_is_journal() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Some(value) = std::env::var_os("JOURNAL_STREAM") else {
            return false;
        };
        let value = value.to_string_lossy();
        let Some((dev, ino)) = value.split_once(':') else {
            return false;
        };
        let (Ok(dev), Ok(ino)) = (dev.parse::<u64>(), ino.parse::<u64>()) else {
            return false;
        };
        let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() else {
            return false;
        };
        File::from(fd)
            .metadata()
            .is_ok_and(|m| m.dev() == dev && m.ino() == ino)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Starts the log of the process (`what` runs: `serve-ssh`, `dashboard`...): to `path`
/// (`--log-file`), else to standard error when it is the journal ([`stderr_is_journal`]),
/// else to `$XDG_STATE_HOME/club-admin/club-admin.log`; files through [`RotatingFile`]
/// ([`MAX_BYTES`], [`KEEP`]). `CLUB_ADMIN_LOG` sets the filter (default `club_admin=info`).
/// Never a secret in a line: the code logs key fingerprints, addresses and counts, never a
/// token, an API key or a key's body.
///
/// Errors: the log file cannot be used ([`RotatingFile::open`]): nothing is logged, and the
/// caller may say so.
pub fn init(path: Option<PathBuf>, what: &str) -> Result<(), String> {
    start(path, what, None, false)
}

/// Starts the log of a server (`serve-ssh`), as [`init`] does, but a log file that cannot
/// be opened (a read-only file system, a folder of another user) leaves the log on
/// standard error, which systemd's journal keeps (the error is returned for the caller to
/// say once). The filter is `CLUB_ADMIN_LOG`, else `level` (the config file's
/// `[serve_ssh] log_level`, a filter such as `debug` or `club_admin=debug`), else
/// `club_admin=info`; [`set_level`] changes it while the server runs.
///
/// Errors: the log file cannot be used: the log went to standard error instead.
pub fn init_server(path: Option<PathBuf>, what: &str, level: Option<&str>) -> Result<(), String> {
    start(path, what, level, true)
}

/// The running log's filter, changed by [`set_level`] (set once by [`init`]).
type Reload = Box<dyn Fn(tracing_subscriber::EnvFilter) -> Result<(), String> + Send + Sync>;
static RELOAD: std::sync::OnceLock<Reload> = std::sync::OnceLock::new();

/// The filter of `level`: a bare level (`debug`) is club-admin's own (`club_admin=debug`),
/// anything else is read as `CLUB_ADMIN_LOG` is (tracing's `EnvFilter` directives).
///
/// Errors: the directive does not parse, with a message naming it.
pub fn filter_of(level: &str) -> Result<tracing_subscriber::EnvFilter, String> {
    let level = level.trim();
    let directive = match level.to_ascii_lowercase().as_str() {
        l @ ("trace" | "debug" | "info" | "warn" | "error" | "off") => format!("club_admin={l}"),
        _ => level.to_owned(),
    };
    tracing_subscriber::EnvFilter::try_new(&directive)
        .map_err(|e| format!("the log level {level:?} is not a level (trace, debug, info, warn, error) nor a filter: {e}"))
}

/// The log's level now becomes `level` ([`filter_of`]); `CLUB_ADMIN_LOG`, when set, wins
/// (`Ok(false)`: left as it is).
///
/// Errors: `level` does not parse, or no log was started: the level is left as it was.
pub fn set_level(level: Option<&str>) -> Result<bool, String> {
    if std::env::var_os("CLUB_ADMIN_LOG").is_some() {
        return Ok(false);
    }
    let filter = filter_of(level.unwrap_or("info"))?;
    let reload = RELOAD.get().ok_or("no log was started")?;
    reload(filter)?;
    Ok(true)
}

fn start(
    path: Option<PathBuf>,
    what: &str,
    level: Option<&str>,
    fall_back: bool,
) -> Result<(), String> {
    let filter = match tracing_subscriber::EnvFilter::try_from_env("CLUB_ADMIN_LOG") {
        Ok(f) => f,
        Err(_) => level
            .and_then(|l| filter_of(l).ok())
            .unwrap_or_else(|| tracing_subscriber::EnvFilter::new("club_admin=info")),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false);
    // The filter made reloadable once the writer is set (the handle's type names it).
    macro_rules! install {
        ($b:expr) => {{
            let b = $b.with_filter_reloading();
            keep(b.reload_handle());
            let _ = b.try_init();
        }};
    }
    let mut failed = None;
    if path.is_none() && stderr_is_journal() {
        install!(builder.with_writer(std::io::stderr));
    } else {
        let path =
            path.or_else(|| crate::config::default_state_dir().map(|d| d.join("club-admin.log")));
        let Some(path) = path else { return Ok(()) };
        match RotatingFile::open(&path, MAX_BYTES, KEEP) {
            Ok(file) => install!(builder.with_writer(std::sync::Mutex::new(file))),
            Err(e) if fall_back => {
                install!(builder.with_writer(std::io::stderr));
                failed = Some(e);
            }
            Err(e) => return Err(e),
        }
    }
    tracing::info!("club-admin {} starting ({what})", env!("CARGO_PKG_VERSION"));
    match failed {
        Some(e) => {
            tracing::warn!("no log file ({e}): the log goes to standard error");
            Err(e)
        }
        None => Ok(()),
    }
}

/// Keeps the running log's reload handle for [`set_level`].
fn keep<L, S>(handle: tracing_subscriber::reload::Handle<L, S>)
where
    L: From<tracing_subscriber::EnvFilter> + Send + Sync + 'static,
    S: 'static,
{
    let _ = RELOAD.set(Box::new(move |f| {
        handle
            .reload(f)
            .map_err(|e| format!("the log level could not be changed: {e}"))
    }));
}
