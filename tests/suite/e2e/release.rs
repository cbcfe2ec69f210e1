//! The release as a user meets it: `club-admin --version` names the version and, built from
//! a git checkout, the commit.

use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// HEAD's full hash when the repository is a git checkout with git installed.
fn head() -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo())
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

#[test]
fn version_names_the_release_and_the_commit() {
    let out = Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .arg("--version")
        .output()
        .expect("run club-admin --version");
    assert!(out.status.success(), "{out:?}");
    let line = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let version = env!("CARGO_PKG_VERSION");
    let rest = line
        .strip_prefix(&format!("club-admin {version}"))
        .unwrap_or_else(|| panic!("{line:?} does not start with club-admin {version}"));
    match head() {
        Some(full) => {
            // " (4c4f95d)": a prefix of HEAD's hash, at least 7 digits.
            let hash = rest
                .strip_prefix(" (")
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or_else(|| panic!("no commit in {line:?}"));
            assert!(hash.len() >= 7, "{line:?}");
            assert!(
                full.starts_with(hash),
                "{line:?} names {hash}, HEAD is {full}"
            );
        }
        None => assert_eq!(rest, "", "no git here: the version alone"),
    }
}

#[test]
fn the_version_is_semantic_and_one_or_later() {
    let version = env!("CARGO_PKG_VERSION");
    let parts: Vec<u64> = version
        .split('.')
        .map(|p| p.parse().expect("a number"))
        .collect();
    assert_eq!(parts.len(), 3, "MAJOR.MINOR.PATCH: {version}");
    assert!(parts[0] >= 1, "1.0.0 or later: {version}");
}
