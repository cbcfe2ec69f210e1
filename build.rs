//! The version `club-admin --version` prints: Cargo.toml's, followed by the commit it was
//! built from when built from a git checkout of this project (`1.0.0 (4c4f95d)`), so a
//! report from a moderator names the exact code. Without git, or outside a checkout (a
//! crate from crates.io, a source tarball), the version alone, silently.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let full = match commit(&dir) {
        Some(hash) => format!("{version} ({hash})"),
        None => version,
    };
    println!("cargo:rustc-env=CLUB_ADMIN_VERSION={full}");
    println!("cargo:rerun-if-changed=build.rs");
}

/// `git` run in `dir`, its standard output trimmed; `None` when it fails or is absent.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}

/// The short hash of HEAD when `dir` is the top of a git work tree (not a folder inside
/// another project's checkout, as a vendored crate would be), and the files to watch so a
/// new commit or a switched branch runs this script again.
fn commit(dir: &Path) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    let hash = git(dir, &["rev-parse", "--short", "HEAD"])?;
    // HEAD (a worktree's own), the branch it points to, and the packed refs: a file that
    // does not exist is not named, or cargo would run this script on every build.
    let mut watch = vec![git(dir, &["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watch.push(git(dir, &["rev-parse", "--git-path", &branch]));
    }
    watch.push(git(dir, &["rev-parse", "--git-path", "packed-refs"]));
    for path in watch.into_iter().flatten() {
        let path = dir.join(path);
        if path.is_file() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    Some(hash)
}
