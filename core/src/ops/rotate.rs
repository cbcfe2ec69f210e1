//! The audit file rotated by size, so that it stays bounded and quick to read: past the
//! size the config sets (`audit_rotate_mb`, [`super::audit::DEFAULT_ROTATE_BYTES`]), the
//! process's writer, between two lines ([`super::writer::on_audit_append`]), keeps the file
//! under a name of its own beside it ([`super::audit::rotated_name`]) and starts a new one.
//! Nothing is lost:
//! - the lines stay in the rotated file, which `history` reads before the current one
//!   ([`super::history::read`]);
//! - the writes open in it (a `sending` or `unknown` line with nothing after it) have their
//!   last line copied into the new file first, marked [`AuditEntry::carried`], so the next
//!   start still finds and settles them ([`super::recover`], which reads the current file
//!   only); the history passes the copies over;
//! - a crash at any step leaves a whole file: the rotated name is a hard link made first
//!   (until the new file replaces the old name, both names are one file, and the history
//!   reads one file once), and the new file replaces the old name atomically
//!   ([`super::writer::write_private`]);
//! - another process appending to the same file sees the name point to another file before
//!   its next line and opens it.

use std::io;
use std::path::Path;

use super::audit::{AuditEntry, rotate_at, rotated_name, set_rotate_at};

/// Rotates this process's audit files once past `bytes` (0: never): the front end's settings,
/// set once at its start.
pub fn install(bytes: u64) {
    set_rotate_at(bytes);
    super::writer::on_audit_append(before_append);
}

/// The writer's question before a line: rotates `path` when the line would take it past
/// the size set ([`install`]); true when it did.
fn before_append(path: &Path, with_line: u64) -> io::Result<bool> {
    let limit = rotate_at();
    if limit == 0 || with_line <= limit {
        return Ok(false);
    }
    rotate(path)?;
    Ok(true)
}

/// Rotates the audit file `path` now (see the module): its open writes' last lines carried
/// into the new file.
///
/// Errors: the file cannot be read, linked or replaced (it is left as it was, or whole
/// under both names).
pub fn rotate(path: &Path) -> io::Result<()> {
    let open = super::recover::scan(path)?;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let at = open
        .iter()
        .map(|e| e.at)
        .max()
        .unwrap_or_else(chrono::Utc::now)
        .max(chrono::Utc::now());
    let base = rotated_name(at);
    let mut kept = dir.join(&base);
    let mut n = 1;
    while let Err(e) = std::fs::hard_link(path, &kept) {
        if e.kind() != io::ErrorKind::AlreadyExists || n > 100 {
            return Err(e);
        }
        n += 1;
        kept = dir.join(base.replace(".jsonl", &format!("-{n}.jsonl")));
    }
    let mut bytes = Vec::new();
    for e in open {
        let carried = AuditEntry {
            carried: Some(true),
            ..e
        };
        serde_json::to_writer(&mut bytes, &carried).map_err(io::Error::other)?;
        bytes.push(b'\n');
    }
    super::writer::write_private(path, &bytes)?;
    tracing::info!(rotated = %kept.display(), "the audit file was rotated");
    Ok(())
}
