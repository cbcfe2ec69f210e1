//! Shell completion below the top level: the scripts of `club-admin completions` loaded in
//! the real shells. bash is driven through its completion function (COMP_WORDS,
//! COMP_CWORD); fish through `complete -C`; zsh is only checked to parse. A shell that is
//! not installed is skipped with a note (CI needs none of them).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The script `club-admin completions <shell>` prints, written to a file in `dir`.
fn script(dir: &Path, shell: &str) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["completions", shell])
        .output()
        .expect("run club-admin");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = dir.join(format!("club-admin.{shell}"));
    std::fs::write(&path, &out.stdout).expect("write the script");
    path
}

/// True when `shell` runs here; otherwise says so and the caller skips.
fn installed(shell: &str) -> bool {
    let ok = Command::new(shell)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("{shell} is not installed: its completion check is skipped");
    }
    ok
}

/// What bash offers for `words` (the last one is the word being completed): the script is
/// sourced in a bare `bash --norc --noprofile`, and the function it registers for
/// `club-admin` is called as bash would call it.
fn bash_offers(script: &Path, words: &[&str]) -> Vec<String> {
    let program = r#"
source "$1"
shift
spec=$(complete -p club-admin) || exit 3
fn=${spec##*-F }
fn=${fn%% *}
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
cur=${COMP_WORDS[COMP_CWORD]}
prev=${COMP_WORDS[COMP_CWORD-1]}
"$fn" club-admin "$cur" "$prev"
printf '%s\n' "${COMPREPLY[@]}"
"#;
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", program, "bash"])
        .arg(script)
        .args(words)
        .output()
        .expect("run bash");
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_subcommands_and_their_flags() {
    if !installed("bash") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let script = script(dir.path(), "bash");

    let top = bash_offers(&script, &["club-admin", "req"]);
    assert_eq!(top, ["requests"]);
    let below = bash_offers(&script, &["club-admin", "requests", ""]);
    for sub in ["list", "show", "approve", "decline", "delete"] {
        assert!(below.contains(&sub.to_owned()), "{sub} in {below:?}");
    }
    assert_eq!(
        bash_offers(&script, &["club-admin", "requests", "list", "--st"]),
        ["--status"]
    );
    assert_eq!(
        bash_offers(
            &script,
            &["club-admin", "requests", "list", "--status", "app"]
        ),
        ["approved"]
    );
    // A connection flag before the subcommand does not lose the way; they are offered in
    // every subcommand, as they are accepted there.
    assert_eq!(
        bash_offers(
            &script,
            &[
                "club-admin",
                "--base-url",
                "https://x",
                "requests",
                "list",
                "--st"
            ]
        ),
        ["--status"]
    );
    assert_eq!(
        bash_offers(
            &script,
            &["club-admin", "clubs", "contact", "add", "--base"]
        ),
        ["--base-url"]
    );
    assert_eq!(
        bash_offers(&script, &["club-admin", "serve-demo", "--drop-after"]),
        ["--drop-after-write-rate"]
    );
}

#[test]
fn fish_completes_below_the_top_level() {
    if !installed("fish") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let script = script(dir.path(), "fish");
    let check = Command::new("fish")
        .arg("--no-execute")
        .arg(&script)
        .output()
        .expect("run fish");
    assert!(
        check.status.success(),
        "fish: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    let offers = |line: &str| -> Vec<String> {
        let out = Command::new("fish")
            .args(["--no-config", "-c", "source $argv[1]; complete -C $argv[2]"])
            .arg(&script)
            .arg(line)
            .output()
            .expect("run fish");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split('\t').next().unwrap_or(l).to_owned())
            .collect()
    };
    let below = offers("club-admin requests ");
    for sub in ["list", "show", "approve", "decline", "delete"] {
        assert!(below.contains(&sub.to_owned()), "{sub} in {below:?}");
    }
    assert_eq!(offers("club-admin requests list --st"), ["--status"]);
}

#[test]
fn zsh_accepts_its_script() {
    if !installed("zsh") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let script = script(dir.path(), "zsh");
    let out = Command::new("zsh")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("run zsh");
    assert!(
        out.status.success(),
        "zsh -n: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
