//! The files the dashboard writes: the audit file (appended), the token and the saved
//! queue (replaced atomically, mode 0600).

use std::io::{self, Write};
use std::path::Path;

pub use crate::ops::audit::append_json_line;

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
