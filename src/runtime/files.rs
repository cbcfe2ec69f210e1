//! The files the dashboard writes: the audit file (appended), the token and the saved
//! queue (replaced atomically, mode 0600).

use std::io::{self, Write};
use std::path::Path;

/// Appends one JSON line and flushes it (a crash loses at most the line being written).
/// A new file is created with mode 0600: audit lines name people.
///
/// Errors: the file or its directory cannot be written.
pub fn append_json_line<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
    line.push(b'\n');
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path)?;
    #[cfg(unix)]
    {
        // A file made by an older version (0644) is made private too.
        use std::os::unix::fs::PermissionsExt;
        if f.metadata()?.permissions().mode() & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    f.write_all(&line)?;
    f.flush()
}

/// Replaces a file atomically with mode 0600: a uniquely named temporary file beside it
/// (`tempfile`, so two running instances never share one), synced, then renamed over it.
///
/// Errors: the file or its directory cannot be written.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    // tempfile creates its files with mode 0600 on unix.
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
