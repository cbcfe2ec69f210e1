//! The files `serve-ssh` trusts or writes, on the real file system: an authorized keys
//! file another user could change is refused (`club_admin::ssh::key_files::refuse_loose`, as
//! OpenSSH's StrictModes, with the sticky-folder exception), and the log file is made 0600
//! and rotated by size (`club_admin::cli::logging::RotatingFile`).
#![cfg(unix)]

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use club_admin::cli::logging::RotatingFile;
use club_admin::ssh::AuthorizedKeys;
use club_admin::ssh::key_files::{loose_for, refuse_loose};

const KEY: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPI4JV2jvom6znt0ImnB+DWehI/O1WZi3hdlhCWWjHHn alice\n";

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).expect("meta").permissions().mode() & 0o7777
}

/// The uid that owns what this test makes (the uid it runs as).
fn me(dir: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(dir).expect("meta").uid()
}

#[test]
fn an_authorized_keys_file_others_can_write_is_refused_with_the_fix() {
    let dir = tempfile::tempdir().expect("dir");
    let keys = dir.path().join("etc").join("authorized_keys");
    std::fs::create_dir(dir.path().join("etc")).expect("mkdir");
    std::fs::write(&keys, KEY).expect("write");
    chmod(&keys, 0o600);
    chmod(&dir.path().join("etc"), 0o755);
    refuse_loose(&keys).expect("a file only its owner writes, in folders only theirs");
    assert!(AuthorizedKeys::from_file(&keys).is_ok());

    for loose in [0o666, 0o620, 0o602] {
        chmod(&keys, loose);
        let e = refuse_loose(&keys).expect_err("refused");
        assert!(
            e.contains(&format!("has mode {loose:o}")) && e.contains("chmod go-w"),
            "{e}"
        );
        let e = AuthorizedKeys::from_file(&keys).expect_err("the server does not start");
        assert!(e.contains("chmod go-w"), "{e}");
    }
    chmod(&keys, 0o644);
    refuse_loose(&keys).expect("readable by others is fine: it holds public keys");

    // Its folder, writable by others and not sticky: they could replace the file.
    chmod(&dir.path().join("etc"), 0o777);
    let e = refuse_loose(&keys).expect_err("refused");
    assert!(
        e.contains("the folder") && e.contains("has mode 777"),
        "{e}"
    );
    // Sticky (as /tmp): others may add names, not remove or rename ours.
    chmod(&dir.path().join("etc"), 0o1777);
    refuse_loose(&keys).expect("a sticky folder is accepted");
    chmod(&dir.path().join("etc"), 0o755);

    // A folder further up counts too.
    chmod(dir.path(), 0o757);
    let e = refuse_loose(&keys).expect_err("refused");
    assert!(e.contains(&dir.path().display().to_string()), "{e}");
    chmod(dir.path(), 0o700);
}

#[test]
fn a_file_or_folder_owned_by_another_user_is_refused_and_a_symlink_is_followed() {
    let dir = tempfile::tempdir().expect("dir");
    let keys = dir.path().join("authorized_keys");
    std::fs::write(&keys, KEY).expect("write");
    chmod(&keys, 0o600);
    let uid = me(dir.path());
    loose_for(&keys, uid).expect("ours");
    // Seen as another user (uid 4242, not root), the file is not theirs: refused.
    if uid != 0 {
        let e = loose_for(&keys, 4242).expect_err("refused");
        assert!(
            e.contains(&format!("owned by uid {uid}")) && e.contains("chown"),
            "{e}"
        );
    }
    // A file really owned by another uid (the test runs as root in CI: chown works).
    if uid == 0 {
        std::os::unix::fs::chown(&keys, Some(4242), None).expect("chown as root");
        let e = refuse_loose(&keys).expect_err("refused");
        assert!(
            e.contains("owned by uid 4242") && e.contains("chown"),
            "{e}"
        );
        std::os::unix::fs::chown(&keys, Some(0), None).expect("chown back");
    }
    // A symbolic link is followed: the target and its folders are what count.
    let elsewhere = tempfile::tempdir().expect("dir");
    let target = elsewhere.path().join("keys");
    std::fs::write(&target, KEY).expect("write");
    chmod(&target, 0o666);
    let link = dir.path().join("linked_keys");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let e = refuse_loose(&link).expect_err("the target is loose");
    assert!(e.contains("has mode 666"), "{e}");
    chmod(&target, 0o600);
    refuse_loose(&link).expect("the target is tight");
}

#[test]
fn a_keys_file_made_loose_while_running_allows_no_key_until_mended() {
    let dir = tempfile::tempdir().expect("dir");
    let keys = dir.path().join("authorized_keys");
    std::fs::write(&keys, KEY).expect("write");
    chmod(&keys, 0o600);
    let allowed = AuthorizedKeys::from_file(&keys).expect("starts");
    let key = russh::keys::PublicKey::from_openssh(KEY.trim()).expect("key");
    let admits = || {
        allowed
            .admit(
                &key,
                std::net::Ipv4Addr::LOCALHOST.into(),
                chrono::Utc::now(),
            )
            .is_ok()
    };
    assert!(admits());
    // A chmod changes neither the length nor the modification time: still seen.
    chmod(&keys, 0o666);
    assert!(!admits(), "no key, not even those read before");
    chmod(&keys, 0o600);
    assert!(admits(), "mended: read again");
}

#[test]
fn the_log_is_made_0600_an_existing_one_narrowed_and_it_rotates_by_size() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("state").join("club-admin.log");
    let mut log = RotatingFile::open(&path, 100, 2).expect("opens");
    assert_eq!(mode(&path), 0o600, "made 0600");
    assert_eq!(mode(&dir.path().join("state")), 0o700, "its folder 0700");
    let line = [b'x'; 39];
    for i in 0..10u8 {
        let mut l = line.to_vec();
        l[0] = b'0' + i;
        l.push(b'\n');
        log.write_all(&l).expect("write");
    }
    // 40 bytes a line, 100 at most: two lines a file, the live one and 2 kept.
    let live = std::fs::read_to_string(&path).expect("live");
    assert_eq!(live.lines().count(), 2, "{live}");
    assert!(live.starts_with('8'), "the newest lines: {live}");
    let one = dir.path().join("state").join("club-admin.log.1");
    let two = dir.path().join("state").join("club-admin.log.2");
    assert!(std::fs::read_to_string(&one).expect(".1").starts_with('6'));
    assert!(std::fs::read_to_string(&two).expect(".2").starts_with('4'));
    assert!(!dir.path().join("state").join("club-admin.log.3").exists());
    for p in [&path, &one, &two] {
        assert_eq!(mode(p), 0o600, "{}", p.display());
        for l in std::fs::read_to_string(p).expect("read").lines() {
            assert_eq!(l.len(), 39, "whole lines only: {l}");
        }
    }
    drop(log);

    // An existing log others could read is narrowed to 0600 when opened.
    chmod(&path, 0o644);
    let _log = RotatingFile::open(&path, 100, 2).expect("opens");
    assert_eq!(mode(&path), 0o600);

    // A log removed under a running writer is made again (0600) by name.
    let other = dir.path().join("b.log");
    let mut log = RotatingFile::open(&other, 1000, 1).expect("opens");
    log.write_all(b"before\n").expect("write");
    std::fs::remove_file(&other).expect("rm");
    log.write_all(b"after\n").expect("write");
    assert_eq!(std::fs::read_to_string(&other).expect("again"), "after\n");
    assert_eq!(mode(&other), 0o600);

    // A symbolic link in its place is refused, not followed.
    let link = dir.path().join("link.log");
    std::os::unix::fs::symlink(&other, &link).expect("symlink");
    assert!(RotatingFile::open(&link, 100, 1).is_err());
}
