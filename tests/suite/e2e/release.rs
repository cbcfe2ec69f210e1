//! The release as a user meets it: `club-admin --version` names the version and, built from
//! a git checkout, the commit; `packaging/release.sh` lays out the package, the tarball and
//! their checksums.

use std::path::{Path, PathBuf};
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

/// `cmd`'s standard output; a failure fails the test with its standard error.
fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `packaging/release.sh OUT_DIR` on the binary the tests already have (no release build):
/// the package, the tarball and the checksums, named by the version and the architecture;
/// `sha256sum -c SHA256SUMS` passes and fails once a file is changed; the tarball holds
/// the binary (that runs), the man pages, the completions, README, CHANGELOG and licences.
#[test]
fn the_release_command_lays_out_the_package_the_tarball_and_their_sums() {
    if !crate::common::have_dpkg("the release command's test") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("out");
    let printed = run(Command::new(repo().join("packaging/release.sh"))
        .arg(&out_dir)
        .env(
            "CLUB_ADMIN_RELEASE_BINARY",
            env!("CARGO_BIN_EXE_club-admin"),
        )
        .env("CLUB_ADMIN_DEB_COMPRESS", "none")
        .env("CLUB_ADMIN_RELEASE_GZIP", "1"));
    let version = env!("CARGO_PKG_VERSION");
    let arch = run(Command::new("dpkg").arg("--print-architecture"));
    let machine = run(Command::new("uname").arg("-m"));
    let name = format!("club-admin-{version}-{}-linux", machine.trim());
    let deb = out_dir.join(format!("club-admin_{version}_{}.deb", arch.trim()));
    let tarball = out_dir.join(format!("{name}.tar.gz"));
    let sums = out_dir.join("SHA256SUMS");
    let paths: Vec<PathBuf> = printed.lines().map(PathBuf::from).collect();
    assert_eq!(paths, [deb.clone(), tarball.clone(), sums.clone()]);

    // The sums are of both files, by name, and hold.
    let listed = std::fs::read_to_string(&sums).expect("SHA256SUMS");
    assert_eq!(listed.lines().count(), 2, "{listed}");
    let checked = run(Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out_dir));
    assert_eq!(checked.matches(": OK").count(), 2, "{checked}");
    let control = run(Command::new("dpkg-deb")
        .args(["-f"])
        .arg(&deb)
        .arg("Version"));
    assert_eq!(control.trim(), version);

    // The tarball's contents, and its binary runs.
    let listing = run(Command::new("tar").arg("-tzf").arg(&tarball));
    let files: Vec<&str> = listing.lines().filter(|l| !l.ends_with('/')).collect();
    for want in [
        "club-admin",
        "README.md",
        "CHANGELOG.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "completions/club-admin.bash",
        "completions/_club-admin",
        "completions/club-admin.fish",
        "man/club-admin.1",
        "man/club-admin-serve-ssh.1",
    ] {
        let path = format!("{name}/{want}");
        assert!(files.contains(&path.as_str()), "{path} not in {files:#?}");
    }
    // What the manual's "without the package" copies, and the manual itself.
    for want in [
        "packaging/deb/club-admin-ssh.service",
        "packaging/deb/tmpfiles.conf",
        "packaging/deb/serve-ssh.toml",
        "assets/config.example.toml",
        "docs/src/SUMMARY.md",
        "docs/src/operators/install.md",
    ] {
        let path = format!("{name}/{want}");
        assert!(files.contains(&path.as_str()), "{path} not in {files:#?}");
    }
    let pages = files.iter().filter(|f| f.ends_with(".1")).count();
    assert!(pages >= 5, "only {pages} man pages: {files:#?}");
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir(&unpacked).expect("mkdir");
    run(Command::new("tar")
        .arg("-xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&unpacked));
    let said = run(Command::new(unpacked.join(&name).join("club-admin")).arg("--version"));
    assert!(said.starts_with(&format!("club-admin {version}")), "{said}");
    let dead = dead_links(&unpacked.join(&name));
    assert!(
        dead.is_empty(),
        "links that resolve nowhere in the tarball: {dead:#?}"
    );

    // A changed file fails the check.
    std::fs::write(&tarball, b"not the tarball").expect("overwrite");
    let failed = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out_dir)
        .output()
        .expect("sha256sum");
    assert!(!failed.status.success(), "{failed:?}");
}

/// The relative links of the Markdown files under `root` (`[text](path)`, outside fenced
/// code) whose file is not there, as `FILE: TARGET`; links to a web address, a mail
/// address or an anchor of the same page are not looked at.
pub(crate) fn dead_links(root: &Path) -> Vec<String> {
    let mut dead = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                let text = std::fs::read_to_string(&p).expect("read");
                for target in links(&text) {
                    let file = target.split('#').next().unwrap_or_default();
                    if file.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                        continue;
                    }
                    let at = p.parent().expect("folder").join(file);
                    if !at.exists() {
                        dead.push(format!(
                            "{}: {target}",
                            p.strip_prefix(root).unwrap_or(&p).display()
                        ));
                    }
                }
            }
        }
    }
    dead.sort();
    dead
}

/// The targets of `[text](target)` in `text`, outside fenced code blocks.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split_whitespace().next().unwrap_or_default();
            out.push(target.trim_matches(['<', '>']).to_owned());
            rest = &rest[end..];
        }
    }
    out
}
