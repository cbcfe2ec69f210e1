//! The keys of `serve-ssh`: the server's host key (ed25519, made on first start with mode
//! 0600, then reused), the authorized keys (an OpenSSH `authorized_keys` file, read again
//! when it changes, refused when another user could change it: [`refuse_loose`]) and key
//! fingerprints.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::ssh_key::{HashAlg, LineEnding};
use russh::keys::{Algorithm, PrivateKey, PublicKey};

use super::key_options::KeyRules;
use crate::ops::writer::write_private;

/// The fingerprint of `key` as `ssh-keygen -l` prints it: `SHA256:` and 43 base64
/// characters.
pub fn fingerprint(key: &PublicKey) -> String {
    key.fingerprint(HashAlg::Sha256).to_string()
}

/// The host key at `path`: read when the file exists, else made (ed25519, from the
/// system's random source), written with mode 0600 (its directory made if missing) and
/// returned. The flag is true when it was made now.
///
/// Errors: the file cannot be read or written, is not an OpenSSH private key, is not
/// ed25519, is protected by a passphrase, or other users can read it (mode wider than
/// 0600): each with a message naming the file.
pub fn host_key(path: &Path) -> Result<(PrivateKey, bool), String> {
    if let Some(key) = read_host_key(path)? {
        return Ok((key, false));
    }
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)
        .map_err(|e| format!("could not make a host key (no random source): {e}"))?;
    let pair = Ed25519Keypair::from_seed(&seed);
    let key = PrivateKey::from(pair);
    let text = key
        .to_openssh(LineEnding::LF)
        .map_err(|e| format!("could not encode the new host key: {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        make_private_dir(dir)?;
    }
    write_private(path, text.as_bytes())
        .map_err(|e| format!("could not write the host key {}: {e}", path.display()))?;
    Ok((key, true))
}

/// The host key at `path` as [`host_key`] reads it, without making one: `None` when the
/// file does not exist.
///
/// Errors: as [`host_key`]'s for a file that exists.
pub fn read_host_key(path: &Path) -> Result<Option<PrivateKey>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "could not read the host key {}: {e}",
                path.display()
            ));
        }
    };
    refuse_open_mode(path)?;
    let key = PrivateKey::from_openssh(text.as_bytes()).map_err(|e| {
        format!(
            "the host key {} is not an OpenSSH private key: {e}",
            path.display()
        )
    })?;
    if key.is_encrypted() {
        return Err(format!(
            "the host key {} has a passphrase: serve-ssh needs one without",
            path.display()
        ));
    }
    if key.algorithm() != Algorithm::Ed25519 {
        return Err(format!(
            "the host key {} is {}, not ed25519",
            path.display(),
            key.algorithm()
        ));
    }
    Ok(Some(key))
}

/// Makes `dir` (and its parents) with mode 0700 when it does not exist.
pub(crate) fn make_private_dir(dir: &Path) -> Result<(), String> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| format!("could not make the directory {}: {e}", dir.display()))
}

/// Refuses a private key file other users can read or write.
fn refuse_open_mode(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map_err(|e| format!("could not read the host key {}: {e}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(format!(
                "the host key {} has mode {:o}: other users can read it; chmod 600 it",
                path.display(),
                mode & 0o777
            ));
        }
    }
    Ok(())
}

/// Refuses an authorized keys file another user could change, as OpenSSH's `StrictModes`
/// does (`safe_path` in OpenSSH's `misc.c`): the file (its real path, symbolic links
/// followed) must be a regular file owned by root or by the user serving (the effective
/// uid), not writable by its group or others; and each folder above it, up to `/` (those
/// of the path as given and of its real path), owned by root or by that user and not
/// writable by its group or others, **unless that folder has the sticky bit** (as `/tmp`,
/// 1777): there others may add names but not remove or rename ours, so the file and the
/// folders below stay ours. (OpenSSH refuses a sticky world-writable folder too; this
/// exception keeps a keys file under `/tmp/...` usable, e.g. in tests.)
///
/// Errors: the first loose part, with a message naming it, its mode or owner, and the command
/// that fixes it (`chmod go-w PATH`, `chown USER PATH`); or a file that cannot be read.
pub fn refuse_loose(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        // SAFETY: geteuid takes nothing, cannot fail and touches no memory of ours.
        let me = unsafe { libc::geteuid() };
        loose_for(path, me)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

/// [`refuse_loose`] for the user `me` (a uid).
///
/// Errors: as [`refuse_loose`].
#[cfg(unix)]
pub fn loose_for(path: &Path, me: u32) -> Result<(), String> {
    match loose_parts(path, me)?.into_iter().next() {
        Some(first) => Err(first),
        None => Ok(()),
    }
}

/// Every loose part of `path` for the user `me` by [`refuse_loose`]'s rules, the file
/// first, then its folders from the nearest up: each with a message naming it, its mode or
/// owner and the command that fixes it. Empty when the file may be trusted.
///
/// Errors: the file or a folder above it cannot be read (a message naming it).
#[cfg(unix)]
pub fn loose_parts(path: &Path, me: u32) -> Result<Vec<String>, String> {
    use std::os::unix::fs::MetadataExt;
    let what = "the authorized keys file";
    let unreadable = |p: &Path, e: std::io::Error| format!("could not read {}: {e}", p.display());
    let real = std::fs::canonicalize(path).map_err(|e| unreadable(path, e))?;
    let meta = std::fs::metadata(&real).map_err(|e| unreadable(&real, e))?;
    if !meta.is_file() {
        return Err(format!("{what} {} is not a regular file", real.display()));
    }
    let mut out = Vec::new();
    let owner_ok = |uid: u32| uid == 0 || uid == me;
    if !owner_ok(meta.uid()) {
        out.push(format!(
            "{what} {} is owned by uid {}, not by root or by the user serving (uid {me}): another user could change who signs in; run chown {me} {} (or chown root)",
            real.display(),
            meta.uid(),
            real.display()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        out.push(format!(
            "{what} {} has mode {:o}: other users can write it and let anyone in; run chmod go-w {}",
            real.display(),
            meta.mode() & 0o7777,
            real.display()
        ));
    }
    let mut folders: Vec<PathBuf> = real.ancestors().skip(1).map(Path::to_path_buf).collect();
    if let Some(given) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && let Ok(given) = std::fs::canonicalize(given)
    {
        folders.extend(given.ancestors().map(Path::to_path_buf));
    }
    let mut seen = std::collections::HashSet::new();
    folders.retain(|d| seen.insert(d.clone()));
    for dir in &folders {
        let m = std::fs::metadata(dir).map_err(|e| unreadable(dir, e))?;
        let mode = m.mode();
        if !owner_ok(m.uid()) {
            out.push(format!(
                "the folder {} (above {what} {}) is owned by uid {}, not by root or by the user serving (uid {me}): its owner could replace the file; run chown {me} {} (or chown root), or move the file",
                dir.display(),
                real.display(),
                m.uid(),
                dir.display()
            ));
        }
        let sticky = mode & 0o1000 != 0;
        if mode & 0o022 != 0 && !sticky {
            out.push(format!(
                "the folder {} (above {what} {}) has mode {:o}: other users can replace the file in it; run chmod go-w {}",
                dir.display(),
                real.display(),
                mode & 0o7777,
                dir.display()
            ));
        }
    }
    Ok(out)
}

/// Which public keys may sign in: those of an `authorized_keys` file (OpenSSH format, its
/// options honoured: [`super::key_options`]; the file is read again whenever its
/// modification time or length changes), or any key (`--allow-any-key`).
#[derive(Debug)]
pub struct AuthorizedKeys {
    /// The file; `None` allows any key.
    path: Option<PathBuf>,
    /// The keys as last read, and the file's stamp then.
    loaded: Mutex<Loaded>,
}

#[derive(Debug, Default)]
struct Loaded {
    stamp: Option<(SystemTime, u64)>,
    keys: Vec<KeyEntry>,
    /// Why the file allows no key now (said once in the log, again when it changes).
    refused: Option<String>,
}

/// Why a key may not sign in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAllowed {
    /// No line of the file holds it (or the file allows no key now: said in the log).
    NotListed,
    /// Its line's options refuse it here, or refuse the line itself ([`super::key_options`]):
    /// why, in English for the log.
    Options(String),
}

impl AuthorizedKeys {
    /// Any key may sign in (`--allow-any-key`).
    pub fn any() -> AuthorizedKeys {
        AuthorizedKeys {
            path: None,
            loaded: Mutex::new(Loaded::default()),
        }
    }

    /// The keys of the file at `path`, read now; the keys it lets in are logged (one line
    /// each: fingerprint, comment, options).
    ///
    /// Errors: the file cannot be read, another user could change it ([`refuse_loose`]) or
    /// a line is not an OpenSSH public key (the message names the file and, for a loose
    /// file, the command that fixes it): the server does not start.
    pub fn from_file(path: &Path) -> Result<AuthorizedKeys, String> {
        let (stamp, keys) = read_keys(path)?;
        log_keys(path, &keys, "authorized keys read");
        Ok(AuthorizedKeys {
            path: Some(path.to_path_buf()),
            loaded: Mutex::new(Loaded {
                stamp: Some(stamp),
                keys,
                refused: None,
            }),
        })
    }

    /// How many keys the file held when last read that may sign in (0 for any key).
    pub fn count(&self) -> usize {
        self.loaded
            .lock()
            .map(|l| l.keys.iter().filter(|k| k.rules.is_ok()).count())
            .unwrap_or(0)
    }

    /// The comment of `key` in the file as last read (`alice@laptop`), when it has one.
    pub fn comment_of(&self, key: &PublicKey) -> Option<String> {
        let loaded = self.loaded.lock().ok()?;
        let found = loaded
            .keys
            .iter()
            .find(|k| k.key.key_data() == key.key_data())?;
        comment(&found.key)
    }

    /// The rules `key` signs in under from `addr` at `now`: those of the first line that
    /// holds the key and whose options admit it (as sshd tries each line in turn); open
    /// rules for any key (`--allow-any-key`). Each time, the file and its folders are
    /// checked first ([`refuse_loose`]: a chmod or chown changes no modification time),
    /// then the file is read again when it changed (its keys logged). A file that became
    /// loose, unreadable or broken allows no key, not even those read before, until it is
    /// fixed (logged once, with the fix).
    ///
    /// Errors: [`NotAllowed`].
    pub fn admit(
        &self,
        key: &PublicKey,
        addr: std::net::IpAddr,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<KeyRules, NotAllowed> {
        let Some(path) = &self.path else {
            return Ok(KeyRules::open());
        };
        let Ok(mut loaded) = self.loaded.lock() else {
            return Err(NotAllowed::NotListed);
        };
        let stamp = stamp_of(path).ok();
        let unchanged = stamp.is_some() && stamp == loaded.stamp && loaded.refused.is_none();
        let fresh = if unchanged {
            refuse_loose(path).map(|()| None)
        } else {
            read_keys(path).map(Some)
        };
        match fresh {
            Ok(None) => {}
            Ok(Some((stamp, keys))) => {
                log_keys(path, &keys, "authorized keys read again: the file changed");
                *loaded = Loaded {
                    stamp: Some(stamp),
                    keys,
                    refused: None,
                };
            }
            Err(e) => {
                if loaded.refused.as_deref() != Some(e.as_str()) {
                    tracing::error!("{e}; no key is allowed until it is mended");
                }
                *loaded = Loaded {
                    refused: Some(e),
                    ..Loaded::default()
                };
                return Err(NotAllowed::NotListed);
            }
        }
        let mut why = None;
        for entry in loaded
            .keys
            .iter()
            .filter(|k| k.key.key_data() == key.key_data())
        {
            let admitted = match &entry.rules {
                Ok(r) => r.admit(addr, now).map(|()| r),
                Err(e) => Err(e.clone()),
            };
            match admitted {
                Ok(rules) => return Ok(rules.clone()),
                Err(e) => {
                    why.get_or_insert_with(|| format!("line {}: {e}", entry.line));
                }
            }
        }
        Err(why.map_or(NotAllowed::NotListed, NotAllowed::Options))
    }
}

/// The comment of `key` (`alice@laptop`), cleaned for a log or a screen, when it has one.
fn comment(key: &PublicKey) -> Option<String> {
    let c = key.comment().to_string();
    (!c.trim().is_empty()).then(|| crate::text::clean(c.trim(), 100))
}

/// Logs the keys of the file at `path` as just read: how many may sign in, then one line
/// per key (fingerprint, comment, its options, or why its line is refused): a key added
/// to the file is visible in the log the moment it is read.
fn log_keys(path: &Path, keys: &[KeyEntry], what: &str) {
    let allowed = keys.iter().filter(|k| k.rules.is_ok()).count();
    tracing::info!(file = %path.display(), keys = allowed, refused = keys.len() - allowed, "{what}");
    for k in keys {
        let fp = fingerprint(&k.key);
        let comment = comment(&k.key).unwrap_or_default();
        match &k.rules {
            Ok(r) => {
                tracing::info!(line = k.line, key = %fp, comment = %comment, options = %r.summary(), "authorized key")
            }
            Err(e) => {
                tracing::warn!(line = k.line, key = %fp, comment = %comment, "authorized key line refused: {e}")
            }
        }
    }
}

/// The keys the file at `path` holds as the server would read it, one line each for the
/// operator: `line N: SHA256:... comment (options)` (a line whose options refuse it says
/// why). For the check's fix of a file another user could have changed.
///
/// Errors: the file cannot be read.
pub fn describe_keys(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    Ok(parse_keys(&text)
        .into_iter()
        .map(|(n, entry)| match entry {
            Ok(k) => {
                let comment = comment(&k.key).unwrap_or_else(|| "(no comment)".into());
                let how = match &k.rules {
                    Ok(r) if r.summary().is_empty() => String::new(),
                    Ok(r) => format!(" ({})", r.summary()),
                    Err(e) => format!(" (refused: {e})"),
                };
                format!("line {n}: {} {comment}{how}", fingerprint(&k.key))
            }
            Err(e) => format!("line {n}: not a key: {e}"),
        })
        .collect())
}

/// The file's modification time and length.
fn stamp_of(path: &Path) -> std::io::Result<(SystemTime, u64)> {
    let meta = std::fs::metadata(path)?;
    Ok((meta.modified()?, meta.len()))
}

/// A key of an authorized keys file: its line (from 1), the key with its comment, and the
/// rules its options make, or why the options refuse the line ([`super::key_options`]).
#[derive(Debug, Clone)]
pub struct KeyEntry {
    /// The line's number, from 1.
    pub line: usize,
    /// The public key, with its comment.
    pub key: PublicKey,
    /// What its options allow, or why they refuse the line.
    pub rules: Result<KeyRules, String>,
}

/// One line of an authorized keys file that holds a key: its number (from 1) and the key
/// with its options, or why it is not a key (the parser's words).
pub type KeyLine = (usize, Result<KeyEntry, String>);

/// The keys of an authorized keys file's `text`, line by line as OpenSSH reads them (blank
/// lines and `#` comments skipped; options before the key read by
/// [`super::key_options::split_line`]), each with its line number: [`AuthorizedKeys`] and
/// `serve-ssh --check` read the file through this one parser.
pub fn parse_keys(text: &str) -> Vec<KeyLine> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })
        .map(|(i, l)| {
            let line = i + 1;
            let entry = super::key_options::split_line(l).and_then(|(opts, key)| {
                let key = PublicKey::from_openssh(key).map_err(|e| e.to_string())?;
                Ok(KeyEntry {
                    line,
                    key,
                    rules: super::key_options::rules(&opts),
                })
            });
            (line, entry)
        })
        .collect()
}

/// The file's stamp and keys, after [`refuse_loose`].
fn read_keys(path: &Path) -> Result<((SystemTime, u64), Vec<KeyEntry>), String> {
    refuse_loose(path)?;
    let stamp = stamp_of(path).map_err(|e| {
        format!(
            "could not read the authorized keys file {}: {e}",
            path.display()
        )
    })?;
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "could not read the authorized keys file {}: {e}",
            path.display()
        )
    })?;
    let mut keys = Vec::new();
    for (line, key) in parse_keys(&text) {
        match key {
            Ok(k) => keys.push(k),
            Err(e) => {
                return Err(format!(
                    "the authorized keys file {} is not in OpenSSH format: line {line}: {e}",
                    path.display()
                ));
            }
        }
    }
    Ok((stamp, keys))
}
