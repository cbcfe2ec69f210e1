//! Acting as a second user of the host, wherever the clone is: a test runs as root (as CI
//! does), makes the user it needs (`useradd`), and runs the binary as that user with
//! `runuser` — a copy of the binary the user can execute, since the clone may sit in a
//! folder only root may enter (`mktemp -d` is 0700, and so is root's home). A test that
//! cannot act as another user (not root, no `runuser`, no temporary folder every user can
//! enter) skips that part and says why on standard error.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary under test, where cargo built it (perhaps in a folder others cannot enter).
pub(super) const BIN: &str = env!("CARGO_BIN_EXE_club-admin");

/// True when this test runs as root (it can make a user and act as them); says why not.
pub(super) fn root_or_skip(what: &str) -> bool {
    let root = rustix::process::geteuid().is_root();
    if !root {
        eprintln!("skipped {what}: not root (useradd and runuser need it)");
    }
    root
}

/// Makes the system user `name` (no home, no shell) unless it exists.
pub(super) fn ensure_user(name: &str) {
    let known = Command::new("id").arg(name).output().expect("id");
    if !known.status.success() {
        let st = Command::new("useradd")
            .args(["-M", "-s", "/usr/sbin/nologin", name])
            .status()
            .expect("useradd");
        // Another test may have made it meanwhile.
        let now = Command::new("id").arg(name).output().expect("id");
        assert!(st.success() || now.status.success(), "useradd {name}");
    }
}

/// The uid of the user `name`.
pub(super) fn uid_of(name: &str) -> u32 {
    let out = Command::new("id")
        .args(["-u", name])
        .output()
        .expect("id -u");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("no uid for {name}: {out:?}"))
}

/// True when every user may enter `dir` and each folder above it (`o+x`).
fn enterable_by_all(dir: &Path) -> bool {
    dir.ancestors()
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
}

/// A copy of the binary every user can execute: in a folder of its own (0755) in the
/// system's temporary folder, removed when this is dropped.
pub(super) struct SharedBinary {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl SharedBinary {
    /// The copy, or `None` (said, with `what`) when no temporary folder every user can
    /// enter is found.
    pub(super) fn new(what: &str) -> Option<SharedBinary> {
        let tmp = std::env::temp_dir();
        if !enterable_by_all(&tmp) {
            eprintln!(
                "skipped {what}: the temporary folder {} cannot be entered by other users",
                tmp.display()
            );
            return None;
        }
        let dir = tempfile::Builder::new()
            .prefix("club-admin-bin.")
            .tempdir_in(&tmp)
            .expect("a folder for the binary");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod 755");
        let path = dir.path().join("club-admin");
        // A second name of the same file costs nothing; another file system needs a copy.
        if std::fs::hard_link(BIN, &path).is_err() {
            std::fs::copy(BIN, &path).expect("copy the binary");
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod 755");
        Some(SharedBinary { _dir: dir, path })
    }

    /// The copy's path, to give `runuser` (or to run as root alike).
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// `runuser -u USER -- <the copy>`, to add the arguments to.
    pub(super) fn as_user(&self, user: &str) -> Command {
        let mut c = Command::new("runuser");
        c.args(["-u", user, "--"]).arg(&self.path);
        c
    }
}

/// A temporary folder every user can enter (0755, in the system's temporary folder), for
/// the files a second user must reach.
pub(super) fn open_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
        .expect("chmod 755");
    dir
}
