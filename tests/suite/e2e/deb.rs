//! The Debian package: `packaging/deb/build.sh`, the manual's one way to
//! build it, run on the test binary, then the package read back with `dpkg-deb`: every file
//! with its owner and mode, the control fields and the conffile, the unit's lines, the
//! config file parsed by the real loader, and the postinst run under a root of its own (the
//! files it makes, their modes, kept on a second run), and as on a host in a mount namespace
//! whose `/run` says systemd runs it (an upgrade restarts the service, a first install does
//! not; systemctl and the rest are recorders). Skipped with a note where `dpkg-deb` is
//! missing, or `unshare` cannot make a namespace. `cargo test --test suite e2e::deb::`.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use clap::Parser;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The package built once for every test of this file (in a temporary folder kept for the
/// run), and that folder.
struct Built {
    _dir: tempfile::TempDir,
    deb: PathBuf,
    /// The package's files, unpacked (`dpkg-deb -x`).
    files: PathBuf,
    /// Its control files (`dpkg-deb -e`).
    control: PathBuf,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = Command::new(repo().join("packaging/deb/build.sh"))
            .arg(env!("CARGO_BIN_EXE_club-admin"))
            .arg(dir.path().join("deb"))
            // The test binary is large and unstripped: no compression, no time lost.
            .env("CLUB_ADMIN_DEB_COMPRESS", "none")
            .output()
            .expect("run packaging/deb/build.sh");
        assert!(
            out.status.success(),
            "build.sh failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let deb = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        assert!(deb.is_file(), "build.sh printed {deb:?}, not a file");
        let files = dir.path().join("files");
        let control = dir.path().join("control");
        dpkg_deb(&["-x", &deb.to_string_lossy(), &files.to_string_lossy()]);
        dpkg_deb(&["-e", &deb.to_string_lossy(), &control.to_string_lossy()]);
        Built {
            _dir: dir,
            deb,
            files,
            control,
        }
    })
}

/// `dpkg-deb ARGS`' standard output; a failure fails the test.
fn dpkg_deb(args: &[&str]) -> String {
    let out = Command::new("dpkg-deb")
        .args(args)
        .output()
        .expect("run dpkg-deb");
    assert!(
        out.status.success(),
        "dpkg-deb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One entry of `dpkg-deb -c` (or `tar -tv`): its mode as `ls` writes it and its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    mode: String,
    owner: String,
}

/// Path (without the leading `.`) to its entry, from `tar -tv`'s lines.
fn listing(text: &str) -> BTreeMap<String, Entry> {
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let path = f.get(5)?.trim_start_matches('.').to_owned();
            Some((
                path,
                Entry {
                    mode: f.first()?.to_string(),
                    owner: f.get(1)?.to_string(),
                },
            ))
        })
        .collect()
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_package_brings_every_file_roots_with_its_mode() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let list = listing(&dpkg_deb(&["-c", &b.deb.to_string_lossy()]));
    let want = [
        ("/usr/bin/club-admin", "-rwxr-xr-x"),
        ("/usr/share/man/man1/club-admin.1.gz", "-rw-r--r--"),
        (
            "/usr/share/man/man1/club-admin-serve-ssh.1.gz",
            "-rw-r--r--",
        ),
        (
            "/usr/share/bash-completion/completions/club-admin",
            "-rw-r--r--",
        ),
        (
            "/usr/share/zsh/vendor-completions/_club-admin",
            "-rw-r--r--",
        ),
        (
            "/usr/share/fish/vendor_completions.d/club-admin.fish",
            "-rw-r--r--",
        ),
        ("/etc/club-admin/serve-ssh.toml", "-rw-r--r--"),
        ("/etc/club-admin/", "drwxr-xr-x"),
        ("/lib/systemd/system/club-admin-ssh.service", "-rw-r--r--"),
        ("/usr/lib/tmpfiles.d/club-admin.conf", "-rw-r--r--"),
        ("/usr/share/doc/club-admin/README.md", "-rw-r--r--"),
        (
            "/usr/share/doc/club-admin/docs/src/operators/install.md",
            "-rw-r--r--",
        ),
        (
            "/usr/share/doc/club-admin/packaging/deb/serve-ssh.toml",
            "-rw-r--r--",
        ),
        (
            "/usr/share/doc/club-admin/assets/config.example.toml",
            "-rw-r--r--",
        ),
        ("/usr/share/doc/club-admin/changelog.gz", "-rw-r--r--"),
        ("/usr/share/doc/club-admin/copyright", "-rw-r--r--"),
    ];
    for (path, mode) in want {
        let e = list
            .get(path)
            .unwrap_or_else(|| panic!("{path} is not in the package: {list:#?}"));
        assert_eq!(e.mode, mode, "{path}");
    }
    for (path, e) in &list {
        assert_eq!(e.owner, "root/root", "{path}: every file is root's");
        let w = e.mode.as_bytes();
        assert!(
            w[5] != b'w' && w[8] != b'w',
            "{path} is writable by group or others: {}",
            e.mode
        );
    }
    // The secrets are the operator's, made by postinst: never in the package, so an
    // upgrade cannot replace them.
    for secret in ["/etc/club-admin/authorized_keys", "/etc/club-admin/api_key"] {
        assert!(!list.contains_key(secret), "{secret} is shipped");
    }
    // Every page `club-admin man --out-dir` writes is there.
    let pages = list
        .keys()
        .filter(|p| p.starts_with("/usr/share/man/man1/") && p.ends_with(".1.gz"))
        .count();
    assert!(pages >= 5, "only {pages} man pages");
    // The completions are the binary's own.
    let bash = text(
        &b.files
            .join("usr/share/bash-completion/completions/club-admin"),
    );
    assert!(bash.contains("serve-ssh"), "bash completion: {bash:.200}");
    // The README's and the manual's links resolve where the package puts them.
    let dead = super::release::dead_links(&b.files.join("usr/share/doc/club-admin"));
    assert!(
        dead.is_empty(),
        "links that resolve nowhere in /usr/share/doc: {dead:#?}"
    );
}

#[test]
fn two_builds_of_the_package_are_the_same_bytes() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let first = &built().deb;
    // A second later at least: a file dated by the clock would differ.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let dir = tempfile::tempdir().expect("tempdir");
    let out = Command::new(repo().join("packaging/deb/build.sh"))
        .arg(env!("CARGO_BIN_EXE_club-admin"))
        .arg(dir.path())
        .env("CLUB_ADMIN_DEB_COMPRESS", "none")
        .output()
        .expect("run packaging/deb/build.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let same = Command::new("cmp")
        .arg(first)
        .arg(&second)
        .output()
        .expect("cmp");
    assert!(
        same.status.success(),
        "two builds differ: {}",
        String::from_utf8_lossy(&same.stdout)
    );
}

#[test]
fn the_control_names_the_version_the_arch_the_dependencies_and_the_conffile() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let info = dpkg_deb(&["-I", &b.deb.to_string_lossy()]);
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no {name} in\n{info}"))
            .to_owned()
    };
    assert_eq!(field("Package"), "club-admin");
    assert_eq!(field("Version"), env!("CARGO_PKG_VERSION"));
    let arch = Command::new("dpkg")
        .arg("--print-architecture")
        .output()
        .expect("dpkg --print-architecture");
    assert_eq!(
        field("Architecture"),
        String::from_utf8_lossy(&arch.stdout).trim()
    );
    let depends = field("Depends");
    assert!(depends.contains("adduser"), "{depends}");
    // No certificate authorities, no https client (seen on a minimal Debian).
    assert!(depends.contains("ca-certificates"), "{depends}");
    assert!(depends.contains("libc6 (>= 2."), "{depends}");
    assert_eq!(
        text(&b.control.join("conffiles")).trim(),
        "/etc/club-admin/serve-ssh.toml"
    );
    // The maintainer scripts, root's and executable.
    let tar = Command::new("sh")
        .arg("-c")
        .arg("dpkg-deb --ctrl-tarfile \"$1\" | tar -tv")
        .arg("sh")
        .arg(&b.deb)
        .output()
        .expect("ctrl tarfile");
    let ctrl = listing(&String::from_utf8_lossy(&tar.stdout));
    for script in ["/postinst", "/prerm", "/postrm"] {
        let e = ctrl
            .get(script)
            .unwrap_or_else(|| panic!("no {script}: {ctrl:#?}"));
        assert_eq!(
            (e.mode.as_str(), e.owner.as_str()),
            ("-rwxr-xr-x", "root/root"),
            "{script}"
        );
    }
}

#[test]
fn the_unit_checks_first_runs_from_the_config_in_the_budget_hardened_and_stops_gently() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let unit = text(&b.files.join("lib/systemd/system/club-admin-ssh.service"));
    let config = "--config /etc/club-admin/serve-ssh.toml";
    for line in [
        format!("ExecStartPre=/usr/bin/club-admin serve-ssh --check {config}"),
        format!("ExecStart=/usr/bin/club-admin serve-ssh {config}"),
        "User=club-admin".into(),
        "SupplementaryGroups=club-admin-budget".into(),
        "Environment=CLUB_ADMIN_BUDGET_DIR=/run/club-admin-budget".into(),
        "ReadWritePaths=-/run/club-admin-budget".into(),
        "StateDirectory=club-admin".into(),
        "KillSignal=SIGTERM".into(),
        "NoNewPrivileges=yes".into(),
        "ProtectSystem=strict".into(),
        "ProtectHome=yes".into(),
        "PrivateTmp=yes".into(),
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6".into(),
        "CapabilityBoundingSet=".into(),
        "WantedBy=multi-user.target".into(),
    ] {
        assert!(
            unit.lines().any(|l| l.trim() == line),
            "the unit has no line {line:?}:\n{unit}"
        );
    }
    // SIGTERM sends held decisions and waits for their answers: the default timeout (20 s)
    // and 1 s more must fit before systemd kills.
    let stop: u64 = unit
        .lines()
        .find_map(|l| l.strip_prefix("TimeoutStopSec="))
        .and_then(|v| v.trim().parse().ok())
        .expect("TimeoutStopSec= in seconds");
    assert!(stop >= 20 + 1 + 10, "TimeoutStopSec={stop}");
    // The host budget's folder at every boot, as the manual's check-and-status page says.
    let tmpfiles = text(&b.files.join("usr/lib/tmpfiles.d/club-admin.conf"));
    let entry: Vec<&str> = tmpfiles
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .expect("a tmpfiles line");
    assert_eq!(
        entry,
        [
            "d",
            "/run/club-admin-budget",
            "1770",
            "root",
            "club-admin-budget",
            "-"
        ]
    );
}

#[test]
fn the_packaged_config_file_is_read_by_the_real_loader_and_names_the_hosts_paths() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let path = b.files.join("etc/club-admin/serve-ssh.toml");
    let (file, _) = club_admin::config::load_file(Some(&path), true).expect("serve-ssh.toml");
    assert_eq!(
        file.api_key_file.as_deref(),
        Some(Path::new("/etc/club-admin/api_key"))
    );
    assert_eq!(
        file.host_budget_dir.as_deref(),
        Some(Path::new("/run/club-admin-budget"))
    );
    let s = &file.serve_ssh;
    assert_eq!(
        s.authorized_keys.as_deref(),
        Some(Path::new("/etc/club-admin/authorized_keys"))
    );
    let state = Path::new(club_admin::config::HOST_STATE_DIR);
    assert_eq!(s.state_dir.as_deref(), Some(state));
    // serve-ssh's options from that file alone: the unit's command line names nothing else.
    let cli = club_admin::cli::Cli::try_parse_from([
        "club-admin",
        "serve-ssh",
        "--config",
        path.to_str().expect("a UTF-8 temporary path"),
    ])
    .expect("parse");
    let Some(club_admin::cli::Command::ServeSsh(a)) = cli.command else {
        panic!("not serve-ssh")
    };
    let o = a.options(s).expect("options");
    assert_eq!(o.listen.to_string(), "127.0.0.1:2222");
    assert_eq!(o.host_key, state.join("ssh_host_ed25519_key"));
    assert_eq!(
        o.authorized_keys.as_deref(),
        Some(Path::new("/etc/club-admin/authorized_keys"))
    );
    // `club-admin serve-ssh status` finds the socket where it looks on a host.
    assert_eq!(o.status_socket, Some(state.join("serve-ssh.sock")));
    // Every commented `# key = value` line, uncommented, is a valid setting too.
    let mut lines = Vec::new();
    for line in text(&path).lines() {
        let body = line.strip_prefix("# ").unwrap_or(line);
        let setting = body
            .split_once(" = ")
            .is_some_and(|(k, _)| !k.is_empty() && !k.contains(' '));
        if line.starts_with('[') || (setting && !line.starts_with("#   ")) {
            lines.push(body.split(" #").next().unwrap_or(body).to_owned());
        }
    }
    let all: Result<club_admin::config::FileConfig, _> = toml::from_str(&lines.join("\n"));
    let all = all.unwrap_or_else(|e| panic!("{e}\n{}", lines.join("\n")));
    assert_eq!(all.base_url.as_deref(), Some("https://api.example.ac.th"));
    assert_eq!(all.serve_ssh.max_sessions, Some(64));
    assert_eq!(all.serve_ssh.remember_tokens, Some(false));
}

/// A folder of stand-ins for the postinst run as an unprivileged test: `install` without
/// `-o`/`-g` (the user club-admin is the package's, not this machine's) and `getent`
/// saying the user exists.
fn stand_ins(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let install = "#!/bin/sh\n\
        echo \"install $*\" >>\"$POSTINST_LOG\"\n\
        skip=\n\
        for a; do shift; if [ -n \"$skip\" ]; then skip=; elif [ \"$a\" = -o ] || [ \"$a\" = -g ]; then skip=1; else set -- \"$@\" \"$a\"; fi; done\n\
        exec /usr/bin/install \"$@\"\n";
    for (name, body) in [("install", install), ("getent", "#!/bin/sh\nexit 0\n")] {
        std::fs::write(bin.join(name), body).expect("stand-in");
        std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    bin
}

/// Runs the package's postinst `configure` under `root` (dpkg's `DPKG_ROOT`); the
/// `install` lines it ran.
fn postinst(control: &Path, root: &Path, bin: &Path, upgrade_from: Option<&str>) -> String {
    let log = root.with_extension("log");
    let _ = std::fs::remove_file(&log);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg(control.join("postinst"))
        .arg("configure")
        .args(upgrade_from)
        .env("DPKG_ROOT", root)
        .env("PATH", path)
        .env("POSTINST_LOG", &log)
        .output()
        .expect("run postinst");
    assert!(
        out.status.success(),
        "postinst: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&log).unwrap_or_default()
}

#[test]
fn the_postinst_makes_the_user_and_the_operators_files_once_with_their_modes() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let script = text(&b.control.join("postinst"));
    assert!(script.contains("addgroup --system club-admin"), "{script}");
    // The host budget's group is its own: its members read no key and list no state.
    assert!(
        script.contains("addgroup --system club-admin-budget")
            && script.contains("adduser --quiet club-admin club-admin-budget"),
        "{script}"
    );
    assert!(
        script.contains("adduser --system --ingroup club-admin --home /var/lib/club-admin"),
        "{script}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).expect("root");
    let bin = stand_ins(dir.path());
    let ran = postinst(&b.control, &root, &bin, None);
    let r = root.display();
    for (path, mode, owner) in [
        (
            "/etc/club-admin/authorized_keys",
            "0640",
            "-o root -g club-admin",
        ),
        (
            "/etc/club-admin/api_key",
            "0600",
            "-o club-admin -g club-admin",
        ),
        ("/var/lib/club-admin", "0750", "-o club-admin -g club-admin"),
        (
            "/var/lib/club-admin/club-admin",
            "0700",
            "-o club-admin -g club-admin",
        ),
        (
            "/run/club-admin-budget",
            "1770",
            "-o root -g club-admin-budget",
        ),
    ] {
        assert!(
            ran.lines()
                .any(|l| l.contains(&format!("-m {mode} {owner}"))
                    && l.ends_with(&format!("{r}{path}"))),
            "postinst made no {path} with mode {mode} {owner}:\n{ran}"
        );
        let made = std::fs::metadata(root.join(path.trim_start_matches('/'))).expect(path);
        let want = u32::from_str_radix(mode, 8).expect("mode");
        assert_eq!(made.permissions().mode() & 0o7777, want, "{path}");
    }
    assert_eq!(text(&root.join("etc/club-admin/api_key")), "");
    // The operator puts the keys in; an upgrade's postinst leaves them as they are.
    let key = root.join("etc/club-admin/api_key");
    std::fs::write(&key, "mysk_operator\n").expect("key");
    std::fs::write(
        root.join("etc/club-admin/authorized_keys"),
        "ssh-ed25519 AAAA x\n",
    )
    .expect("keys");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let again = postinst(&b.control, &root, &bin, Some("0.0.9"));
    assert!(
        !again.contains("/etc/club-admin/"),
        "an upgrade made the operator's files again:\n{again}"
    );
    assert_eq!(text(&key), "mysk_operator\n");
    assert_eq!(
        text(&root.join("etc/club-admin/authorized_keys")),
        "ssh-ed25519 AAAA x\n"
    );
}

/// Runs the package's maintainer script `script` with `args` under `root` (dpkg's
/// `DPKG_ROOT`); a failure fails the test.
fn maintainer(control: &Path, script: &str, root: &Path, args: &[&str]) {
    let out = Command::new("sh")
        .arg(control.join(script))
        .args(args)
        .env("DPKG_ROOT", root)
        .output()
        .expect("run the maintainer script");
    assert!(
        out.status.success(),
        "{script} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn mode_of(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o7777
}

/// adduser makes the service's home, /var/lib/club-admin, before postinst's own line, with
/// its SYS_DIR_MODE (0755 on Debian): postinst narrows it to 0750 (the audit's folder is
/// below it), on a first install and on an upgrade from a version that left it 0755.
#[test]
fn the_postinst_leaves_the_services_home_0750_even_when_adduser_made_it_0755() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("root");
    let home = root.join("var/lib/club-admin");
    std::fs::create_dir_all(&home).expect("home as adduser makes it");
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let bin = stand_ins(dir.path());
    postinst(&b.control, &root, &bin, None);
    assert_eq!(mode_of(&home), 0o750, "a first install");
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    postinst(&b.control, &root, &bin, Some("0.0.9"));
    assert_eq!(mode_of(&home), 0o750, "an upgrade");
    assert_eq!(mode_of(&home.join("club-admin")), 0o700);
}

/// `apt purge` takes the host budget's folder with what it holds (what another user planted
/// there included: a FIFO, a link to a file elsewhere, which stays), the state folder and
/// the operator's files; `apt remove` keeps them all.
#[test]
fn a_purge_removes_the_budget_folder_and_the_state_a_removal_keeps_them() {
    if !crate::common::have_dpkg("the Debian package's test") {
        return;
    }
    let b = built();
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("root");
    std::fs::create_dir_all(&root).expect("root");
    let bin = stand_ins(dir.path());
    postinst(&b.control, &root, &bin, None);
    let budget = root.join("run/club-admin-budget");
    std::fs::write(budget.join("api.example.ac.th_443.0.lock"), "").expect("slot");
    nix::unistd::mkfifo(
        &budget.join("api.example.ac.th_443.1.lock"),
        nix::sys::stat::Mode::from_bits_truncate(0o666),
    )
    .expect("mkfifo");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::write(&elsewhere, "keep").expect("elsewhere");
    std::os::unix::fs::symlink(&elsewhere, budget.join("api.example.ac.th_443.2.lock"))
        .expect("symlink");
    std::fs::write(
        root.join("var/lib/club-admin/club-admin/audit.jsonl"),
        "{}\n",
    )
    .expect("audit");
    let made = [
        "run/club-admin-budget",
        "var/lib/club-admin",
        "etc/club-admin/api_key",
        "etc/club-admin/authorized_keys",
    ];
    maintainer(&b.control, "postrm", &root, &["remove"]);
    for path in made {
        assert!(root.join(path).exists(), "a removal keeps {path}");
    }
    maintainer(&b.control, "postrm", &root, &["purge"]);
    for path in made {
        assert!(
            std::fs::symlink_metadata(root.join(path)).is_err(),
            "a purge leaves {path}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&elsewhere).ok().as_deref(),
        Some("keep")
    );
    let script = text(&b.control.join("postrm"));
    assert!(
        script.contains("rm -rf \"$ROOT/run/club-admin-budget\""),
        "{script}"
    );
}

/// A folder of stand-ins that record their arguments in `$POSTINST_LOG` and change
/// nothing, for every command of the postinst that acts on the host: the user's (`getent`
/// says it exists), the files' (`install`, `chmod`, `systemd-tmpfiles`) and systemd's.
fn recorders(dir: &Path) -> PathBuf {
    let bin = dir.join("recorders");
    std::fs::create_dir_all(&bin).expect("bin");
    for name in [
        "getent",
        "addgroup",
        "adduser",
        "install",
        "chmod",
        "systemd-tmpfiles",
        "deb-systemd-helper",
        "systemctl",
    ] {
        let body = format!("#!/bin/sh\necho \"{name} $*\" >>\"$POSTINST_LOG\"\nexit 0\n");
        std::fs::write(bin.join(name), body).expect("stand-in");
        std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    bin
}

/// Runs the package's postinst `configure` as on a host (no `DPKG_ROOT`), in a mount
/// namespace of its own whose `/run` is an empty tmpfs, with `/run/systemd/system` in it
/// when `systemd` (how the script tells that systemd runs the host); every command that
/// acts on the host is a recorder. The commands it ran, or `None` where no mount namespace
/// can be made here (`unshare`).
fn postinst_on_host(control: &Path, upgrade_from: Option<&str>, systemd: bool) -> Option<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("ran.log");
    let path = format!(
        "{}:{}",
        recorders(dir.path()).display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let boot = format!(
        "mount -t tmpfs tmpfs /run && {}exec sh \"$0\" \"$@\"",
        if systemd {
            "mkdir -p /run/systemd/system && "
        } else {
            ""
        }
    );
    let out = Command::new("unshare")
        .args(["--map-root-user", "--mount", "sh", "-c", &boot])
        .arg(control.join("postinst"))
        .arg("configure")
        .args(upgrade_from)
        .env_remove("DPKG_ROOT")
        .env("PATH", path)
        .env("POSTINST_LOG", &log)
        .output()
        .expect("run unshare");
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    if !out.status.success() && ran.is_empty() {
        println!(
            "no mount namespace here ({}): the postinst's restart on upgrade is not tried",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return None;
    }
    assert!(
        out.status.success(),
        "postinst: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(ran)
}

#[test]
fn an_upgrade_restarts_a_running_service_and_a_first_install_does_not() {
    if !crate::common::have_dpkg("the postinst's restart test") {
        return;
    }
    let control = &built().control;
    let Some(upgrade) = postinst_on_host(control, Some("0.9.0"), true) else {
        return;
    };
    assert!(
        upgrade
            .lines()
            .any(|l| l == "systemctl try-restart club-admin-ssh.service"),
        "an upgrade did not restart the service:\n{upgrade}"
    );
    assert!(
        upgrade
            .lines()
            .any(|l| l == "systemctl --system daemon-reload"),
        "{upgrade}"
    );
    // The user exists (getent): the host's users are left alone.
    assert!(
        !upgrade.contains("addgroup") && !upgrade.contains("adduser"),
        "{upgrade}"
    );
    let first = postinst_on_host(control, None, true).expect("a namespace, as before");
    assert!(
        first
            .lines()
            .any(|l| l == "systemctl --system daemon-reload"),
        "{first}"
    );
    assert!(
        !first.contains("try-restart"),
        "a first install started the service before its keys are there:\n{first}"
    );
    assert!(
        first.contains("deb-systemd-helper update-state club-admin-ssh.service"),
        "{first}"
    );
    // A host that systemd does not run: no systemctl at all.
    let bare = postinst_on_host(control, Some("0.9.0"), false).expect("a namespace");
    assert!(!bare.contains("systemctl"), "{bare}");
}
