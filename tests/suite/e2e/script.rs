//! The scripting subcommands: the real binary against the embedded demo server (or wiremock
//! for a server without the update route), with the secrets in the environment and an
//! isolated state and config directory. Every run checks that no secret reaches its output.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Stdio;

use club_admin::api::MembershipStatus;
use club_admin::app::AuditEntry;
use club_admin::demo::{self, DemoHandle, DemoOptions};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use uuid::Uuid;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// One finished run of the binary.
#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    fn ids(&self) -> Vec<Uuid> {
        self.stdout
            .lines()
            .map(|l| Uuid::parse_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
            .collect()
    }
}

/// A binary wired to a server, an account and a private state/config directory.
struct Bin {
    dir: tempfile::TempDir,
    base_url: String,
    key: Option<String>,
    token: Option<String>,
}

impl Bin {
    fn new(base_url: &str, key: Option<&str>, token: Option<&str>) -> Bin {
        Bin {
            dir: tempfile::tempdir().expect("tempdir"),
            base_url: base_url.to_owned(),
            key: key.map(str::to_owned),
            token: token.map(str::to_owned),
        }
    }

    fn as_user(d: &DemoHandle, label: &str) -> Bin {
        let u = d.user(label).expect("demo account");
        Bin::new(&d.base_url, Some(&u.api_key), Some(&u.token))
    }

    fn state_dir(&self) -> PathBuf {
        self.dir.path().join("state").join("club-admin")
    }

    fn config_dir(&self) -> PathBuf {
        self.dir.path().join("config").join("club-admin")
    }

    fn audit(&self) -> Vec<AuditEntry> {
        match std::fs::read_to_string(self.state_dir().join("audit.jsonl")) {
            Ok(text) => crate::common::outcomes_of(
                text.lines()
                    .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
                    .collect(),
            ),
            Err(_) => Vec::new(),
        }
    }

    async fn run(&self, args: &[&str], stdin: Option<&str>) -> Run {
        self.run_bytes(args, stdin.map(str::as_bytes)).await
    }

    /// [`Bin::run`] with standard input given as bytes (which need not be UTF-8).
    async fn run_bytes(&self, args: &[&str], stdin: Option<&[u8]>) -> Run {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_club-admin"));
        cmd.args(args)
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"))
            .env("CLUB_ADMIN_BASE_URL", &self.base_url)
            .env_remove("CLUB_ADMIN_API_KEY")
            .env_remove("CLUB_ADMIN_TOKEN")
            .env_remove("CLUB_ADMIN_LOG")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(k) = &self.key {
            cmd.env("CLUB_ADMIN_API_KEY", k);
        }
        if let Some(t) = &self.token {
            cmd.env("CLUB_ADMIN_TOKEN", t);
        }
        let mut child = cmd.spawn().expect("spawn club-admin");
        if let Some(text) = stdin {
            let mut pipe = child.stdin.take().expect("stdin");
            pipe.write_all(text).await.expect("write stdin");
            drop(pipe);
        }
        let out = child.wait_with_output().await.expect("wait");
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        };
        for secret in self.key.iter().chain(&self.token) {
            assert!(
                !run.stdout.contains(secret.as_str()) && !run.stderr.contains(secret.as_str()),
                "a secret reached the output of {args:?}"
            );
        }
        run
    }
}

async fn start(extra_requests: usize) -> DemoHandle {
    demo::start(DemoOptions {
        extra_requests,
        ..DemoOptions::default()
    })
    .await
    .expect("demo server")
}

fn status_of(d: &DemoHandle, id: Uuid) -> Option<MembershipStatus> {
    d.request_status(id)
}

fn id_args(ids: &[Uuid]) -> Vec<String> {
    ids.iter().map(Uuid::to_string).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whoami_in_every_format() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let email = d.moderator().email.clone();

    let tsv = bin.run(&["whoami"], None).await;
    assert_eq!(tsv.code, 0, "{tsv:?}");
    assert!(
        tsv.lines().contains(&format!("email\t{email}").as_str()),
        "{tsv:?}"
    );
    assert!(tsv.lines().iter().all(|l| l.split('\t').count() == 2));

    let json = bin.run(&["whoami", "--json"], None).await;
    assert_eq!(json.code, 0);
    let v = json.json();
    assert_eq!(v["email"], email.as_str());
    assert_eq!(v["role"], "student");
    // The server and the token's expiry, as the text form shows them.
    let field = |k: &str| {
        tsv.lines()
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{k}\t")))
            .map(str::to_owned)
            .unwrap_or_default()
    };
    assert_eq!(v["server"], d.base_url.as_str());
    assert_eq!(v["server"], field("server").as_str());
    assert!(!field("token_expires").is_empty(), "{tsv:?}");
    assert_eq!(v["token_expires"], field("token_expires").as_str());

    let ids = bin.run(&["whoami", "--ids"], None).await;
    assert_eq!(
        ids.ids(),
        vec![Uuid::parse_str(v["id"].as_str().unwrap_or("")).expect("id")]
    );

    // Flags before the subcommand are the dashboard's and count too.
    let table = bin
        .run(&["--timeout", "5", "whoami", "--table"], None)
        .await;
    assert_eq!(table.code, 0);
    assert!(table.stdout.contains(&email), "{table:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_reads_every_page_in_id_order() {
    let d = start(70).await;
    let admin = Bin::as_user(&d, "admin");
    let pending: HashSet<Uuid> = d.pending().into_iter().collect();
    assert!(
        pending.len() > 100,
        "the demo has more than two pages of 50"
    );

    let run = admin.run(&["requests", "list", "--json"], None).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows = run.json();
    let rows = rows.as_array().expect("an array");
    let ids: Vec<Uuid> = rows
        .iter()
        .map(|r| Uuid::parse_str(r["id"].as_str().expect("id")).expect("uuid"))
        .collect();
    assert_eq!(ids.len(), pending.len(), "every page, no duplicates");
    assert_eq!(ids.iter().copied().collect::<HashSet<_>>(), pending);
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "sorted by id, so paging is stable");
    assert!(
        rows.iter()
            .all(|r| r["membership_status"] == "pending" && r["club"]["name"]["th"].is_string()),
        "the service's objects at default/compact"
    );

    let all = admin
        .run(&["requests", "list", "--status", "all", "--ids"], None)
        .await;
    assert_eq!(all.code, 0);
    assert_eq!(all.ids().len(), 240 + 70, "every request of the demo");

    // --mine: the moderator's clubs only, as in the dashboard.
    let moderator = Bin::as_user(&d, "moderator");
    let mine = moderator
        .run(&["requests", "list", "--mine", "--ids"], None)
        .await;
    assert_eq!(mine.code, 0, "{}", mine.stderr);
    let expected: HashSet<Uuid> = d.pending_for("moderator").into_iter().collect();
    assert_eq!(mine.ids().into_iter().collect::<HashSet<_>>(), expected);

    // --club and --year narrow the listing; piped output is TSV with the documented columns.
    let club = d.club_ids()[0].to_string();
    let tsv = admin
        .run(
            &[
                "requests", "list", "--club", &club, "--status", "all", "--year", "2026",
            ],
            None,
        )
        .await;
    assert_eq!(tsv.code, 0);
    assert!(!tsv.stdout.is_empty());
    for l in tsv.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!(f.len(), 9, "{l:?}");
        assert_eq!(f[2], "2026");
        assert_eq!(f[3], club);
    }
}

/// The README's pipe example, run as written by a shell: it approves the pending requests of
/// the clubs the moderator staffs and no other (the server would refuse the others: not a
/// staff member).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readmes_pipe_example_approves_only_the_users_clubs() {
    let d = start(0).await;
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    // A `$ ` command of a console block, as the manual's examples are written.
    let line = readme
        .lines()
        .map(|l| l.strip_prefix("$ ").unwrap_or(l))
        .find(|l| {
            l.starts_with("club-admin requests list")
                && l.contains("| club-admin requests approve -")
        })
        .expect("the pipe example");
    let line = line.split(" #").next().unwrap_or(line).trim();
    let mine: HashSet<Uuid> = d.pending_for("moderator").into_iter().collect();
    let bin = Bin::as_user(&d, "moderator");
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_club-admin"));
    let path = format!(
        "{}:{}",
        exe.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let u = d.user("moderator").expect("moderator");
    let out = tokio::process::Command::new("sh")
        .args(["-c", line])
        .env("PATH", path)
        .env("XDG_STATE_HOME", bin.dir.path().join("state"))
        .env("XDG_CONFIG_HOME", bin.dir.path().join("config"))
        .env("CLUB_ADMIN_BASE_URL", &d.base_url)
        .env("CLUB_ADMIN_API_KEY", &u.api_key)
        .env("CLUB_ADMIN_TOKEN", &u.token)
        .stdin(Stdio::null())
        .output()
        .await
        .expect("sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{line}: {stderr}");
    let approved: HashSet<Uuid> = bin
        .audit()
        .iter()
        .filter(|e| e.action == "approve" && e.outcome.as_str() == "ok")
        .map(|e| e.target)
        .collect();
    assert_eq!(approved, mine, "{line}");
    assert!(!stderr.contains("HTTP 403"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_chain_from_list_into_approve_on_standard_input() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let club = d.club_ids()[0];
    let listed = bin
        .run(
            &[
                "requests",
                "list",
                "--mine",
                "--club",
                &club.to_string(),
                "--ids",
            ],
            None,
        )
        .await;
    // --mine and --club do not go together.
    assert_eq!(listed.code, 2, "{listed:?}");

    let listed = bin
        .run(&["requests", "list", "--mine", "--ids"], None)
        .await;
    assert_eq!(listed.code, 0);
    let ids: Vec<Uuid> = listed.ids().into_iter().take(12).collect();
    let input: String = ids.iter().map(|i| format!("{i}\n")).collect();

    let run = bin
        .run(
            &["requests", "approve", "-", "--concurrency", "3"],
            Some(&input),
        )
        .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "", "nothing to report");
    assert_eq!(run.lines().len(), ids.len());
    assert!(
        run.lines()
            .iter()
            .all(|l| l.split('\t').nth(1) == Some("approved"))
    );
    for id in &ids {
        assert_eq!(status_of(&d, *id), Some(MembershipStatus::Approved));
    }

    let audit = bin.audit();
    assert_eq!(audit.len(), ids.len());
    for e in &audit {
        assert_eq!(e.via.as_deref(), Some("cli"));
        assert_eq!(e.action, "approve");
        assert_eq!(e.outcome.as_str(), "ok");
        assert_eq!(e.user.as_deref(), Some(d.moderator().email.as_str()));
        assert_eq!(e.server, d.base_url);
    }
    let targets: HashSet<Uuid> = audit.iter().map(|e| e.target).collect();
    assert_eq!(targets, ids.iter().copied().collect());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_failure_exits_1_and_the_others_still_run() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let p = d.pending_for("moderator");
    let (a, b, c) = (p[0], p[1], p[2]);
    // b declined first: approving it now is the other way (a request already approved would
    // be as asked, and no failure).
    let first = bin
        .run(&["requests", "decline", &b.to_string()], None)
        .await;
    assert_eq!(first.code, 0, "{first:?}");

    // Any mix of commas, spaces and new lines, on standard input and as arguments.
    let input = format!("{a}, {b}\n");
    let run = bin
        .run(
            &["requests", "approve", "-", &c.to_string(), "--json"],
            Some(&input),
        )
        .await;
    assert_eq!(run.code, 1, "{run:?}");
    let err_lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(err_lines.len(), 1, "one line per failure: {err_lines:?}");
    // The server already shows it declined: not sent at all (the server would refuse it).
    assert!(
        err_lines[0].contains(&b.to_string())
            && err_lines[0].contains("already declined: not sent"),
        "{err_lines:?}"
    );
    let sent_to_b = d
        .writes_received()
        .iter()
        .filter(|w| w.ends_with(&b.to_string()))
        .count();
    assert_eq!(sent_to_b, 1, "only the first run wrote to it");
    let rows = run.json();
    let rows = rows.as_array().expect("array");
    let done: Vec<&str> = rows.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(done, vec![a.to_string(), c.to_string()], "input order");
    assert!(rows.iter().all(|r| r["membership_status"] == "approved"));
    assert_eq!(status_of(&d, a), Some(MembershipStatus::Approved));
    assert_eq!(status_of(&d, c), Some(MembershipStatus::Approved));

    let audit = bin.audit();
    let failed: Vec<&AuditEntry> = audit
        .iter()
        .filter(|e| e.outcome.as_str() == "failed")
        .collect();
    assert!(
        failed.is_empty(),
        "nothing was written to b the second time: {failed:?}"
    );
    let about_b: Vec<&AuditEntry> = audit.iter().filter(|e| e.target == b).collect();
    assert_eq!(about_b.len(), 1, "the first run's decline only");
    assert_eq!(about_b[0].outcome.as_str(), "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_and_configuration_errors_exit_2_with_nothing_sent() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let p = d.pending_for("moderator");
    let good = p[0].to_string();

    let bad = bin
        .run(&["requests", "approve", &good, "not-a-uuid,12345"], None)
        .await;
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("not-a-uuid") && bad.stderr.contains("12345"));
    let bad_stdin = bin
        .run(
            &["requests", "decline", "-"],
            Some(&format!("{good}\nnope\n")),
        )
        .await;
    assert_eq!(bad_stdin.code, 2);
    assert!(bad_stdin.stderr.contains("nope"));

    // An empty pipe is a quiet night, not an error: exit 0, nothing sent.
    let none = bin.run(&["requests", "approve", "-"], Some("\n ,\n")).await;
    assert_eq!(none.code, 0, "{none:?}");
    assert!(none.stderr.contains("nothing to do"), "{none:?}");
    let clap_error = bin.run(&["requests", "approve"], None).await;
    assert_eq!(clap_error.code, 2);
    let bad_club = bin
        .run(
            &[
                "clubs", "contact", "add", "nope", "--type", "phone", "--value", "1",
            ],
            None,
        )
        .await;
    assert_eq!(bad_club.code, 2);

    // Delete asks on a terminal; with standard input piped, --yes is required.
    let delete = bin
        .run(&["requests", "delete", "-"], Some(&format!("{good}\n")))
        .await;
    assert_eq!(delete.code, 2);
    assert!(delete.stderr.contains("--yes"), "{delete:?}");

    let no_key = Bin::new(&d.base_url, None, None);
    let run = no_key.run(&["requests", "approve", &good], None).await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no API key"), "{run:?}");
    let no_server = Bin::new("", Some("mysk_nowhere_0123456789"), None);
    let run = no_server.run(&["whoami"], None).await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no server"), "{run:?}");

    // A token the server refuses (expired): 2, with where to sign in; no write sent.
    let expired = d
        .issue_token("moderator", chrono::Utc::now() - chrono::Duration::hours(1))
        .expect("token");
    let stale = Bin::new(&d.base_url, Some(&d.moderator().api_key), Some(&expired));
    let run = stale.run(&["requests", "approve", &good], None).await;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("HTTP 401") && run.stderr.contains("/auth/oauth/init"));

    assert!(d.mutations().is_empty(), "{:?}", d.mutations());
    assert_eq!(status_of(&d, p[0]), Some(MembershipStatus::Pending));
    assert!(bin.audit().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_refuses_writes_before_anything_is_sent() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let id = d.pending_for("moderator")[0].to_string();
    let club = d.club_ids()[0].to_string();

    let flag = bin
        .run(&["requests", "approve", "--read-only", &id], None)
        .await;
    assert_eq!(flag.code, 2);
    assert!(flag.stderr.contains("read-only"), "{flag:?}");
    let before = bin
        .run(&["--read-only", "requests", "delete", "--yes", &id], None)
        .await;
    assert_eq!(
        before.code, 2,
        "the dashboard flag before the subcommand counts too"
    );

    std::fs::create_dir_all(bin.config_dir()).expect("config dir");
    std::fs::write(bin.config_dir().join("config.toml"), "read_only = true\n").expect("config");
    let config = bin.run(&["requests", "decline", &id], None).await;
    assert_eq!(config.code, 2);
    let contact = bin
        .run(
            &[
                "clubs",
                "contact",
                "add",
                &club,
                "--type",
                "phone",
                "--value",
                "021234567",
            ],
            None,
        )
        .await;
    assert_eq!(contact.code, 2);
    assert!(contact.stderr.contains("read-only"));
    // Reads still work in read-only mode.
    let show = bin.run(&["requests", "show", &id], None).await;
    assert_eq!(show.code, 0, "{show:?}");

    assert!(d.mutations().is_empty(), "{:?}", d.mutations());
    assert!(bin.audit().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_says_what_would_be_sent_and_sends_nothing() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let p = d.pending_for("moderator");
    let ids = id_args(&p[..3]);
    let mut args = vec!["requests", "approve", "--dry-run", "--json"];
    args.extend(ids.iter().map(String::as_str));
    let run = bin.run(&args, None).await;
    assert_eq!(run.code, 0, "{run:?}");
    let plan = run.json();
    let plan = plan.as_array().expect("array");
    assert_eq!(plan.len(), 3);
    for (step, id) in plan.iter().zip(&ids) {
        assert_eq!(step["method"], "PUT");
        assert_eq!(
            step["url"],
            format!("{}/v1/clubs/requests/{id}", d.base_url).as_str()
        );
        assert_eq!(step["body"]["data"]["status"], "approved");
    }
    // A delete by the student who made the request (the only account the service lets).
    let own = d.requests_of("requester")[0].to_string();
    let del = Bin::as_user(&d, "requester")
        .run(&["requests", "delete", "--dry-run", &own], None)
        .await;
    assert_eq!(del.code, 0, "a dry run needs no --yes: {del:?}");
    assert!(
        del.stdout
            .starts_with(&format!("{own}\twould send\tDELETE\t")),
        "{del:?}"
    );
    let club = d.club_ids()[0].to_string();
    let contact = bin
        .run(
            &[
                "clubs",
                "contact",
                "add",
                &club,
                "--type",
                "line",
                "--value",
                "@robot_club",
                "--dry-run",
            ],
            None,
        )
        .await;
    assert_eq!(contact.code, 0);
    assert!(contact.stdout.starts_with("POST\t"));

    assert!(d.mutations().is_empty());
    assert!(
        p[..3]
            .iter()
            .all(|i| status_of(&d, *i) == Some(MembershipStatus::Pending))
    );
    assert!(bin.audit().is_empty());
}

/// A dry run and a run of the same ids: the dry run's exit code, and per id `would send` or
/// the reason the run gives (`already approved: not sent`), with nothing sent.
async fn dry_then_real(bin: &Bin, verb: &str, ids: &[String]) -> (Run, Run, Run) {
    let mut args = vec!["requests", verb, "--dry-run", "--json"];
    args.extend(ids.iter().map(String::as_str));
    let json = bin.run(&args, None).await;
    args[3] = "--table";
    let table = bin.run(&args, None).await;
    let mut args = vec!["requests", verb];
    args.extend(ids.iter().map(String::as_str));
    let real = bin.run(&args, None).await;
    (json, table, real)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_makes_the_runs_reads_and_tells_per_id_what_the_run_would_do() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let p = d.pending_for("moderator");
    let done = bin
        .run(&["requests", "approve", &p[0].to_string()], None)
        .await;
    assert_eq!(done.code, 0, "{done:?}");
    let ids = id_args(&[p[1], p[0]]);
    let (json, table, real) = dry_then_real(&bin, "approve", &ids).await;
    // p[0] is approved already, as asked: left out, and no failure (exit 0, as the run).
    assert_eq!(json.code, 0, "the run's exit code: {json:?}");
    assert_eq!(json.code, real.code, "{real:?}");
    let plan = json.json();
    assert_eq!(plan[0]["id"], ids[0].as_str());
    assert_eq!(plan[0]["would_send"], true);
    assert_eq!(plan[0]["method"], "PUT");
    assert_eq!(plan[0]["body"]["data"]["status"], "approved");
    assert_eq!(plan[1]["id"], ids[1].as_str());
    assert_eq!(plan[1]["would_send"], false);
    assert_eq!(plan[1]["reason"], "already approved");
    assert!(
        real.stderr
            .contains(&format!("{}: already approved: not sent", ids[1])),
        "{real:?}"
    );
    let lines = table.lines();
    assert!(
        lines[0].starts_with(&format!("{}  would send  PUT ", ids[0])),
        "{table:?}"
    );
    assert_eq!(lines[1], format!("{}  not sent  already approved", ids[1]));
    assert!(
        table
            .stderr
            .contains("dry run: nothing was sent (1 of 2 requests would be approved, 1 not sent)"),
        "{table:?}"
    );
    // Only the real run wrote: p[0] before, p[1] by the run.
    assert_eq!(d.mutations().len(), 2, "{:?}", d.mutations());
    assert_eq!(bin.audit().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_on_a_server_that_cannot_approve_exits_as_the_run_does() {
    let d = demo::start(DemoOptions {
        api_version: demo::ServiceVersion::V0_9,
        ..DemoOptions::default()
    })
    .await
    .expect("demo 0.9");
    let bin = Bin::as_user(&d, "moderator");
    let ids = id_args(&d.pending_for("moderator")[..2]);
    let (json, table, real) = dry_then_real(&bin, "approve", &ids).await;
    assert_eq!(
        (json.code, table.code, real.code),
        (3, 3, 3),
        "{json:?} {real:?}"
    );
    for step in json.json().as_array().expect("array") {
        assert_eq!(step["would_send"], false);
        assert_eq!(
            step["reason"],
            "this server cannot approve or decline: it has no update route"
        );
    }
    assert!(
        table
            .lines()
            .iter()
            .all(|l| l.contains("  not sent  this server cannot approve"))
    );
    assert!(d.mutations().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_of_a_teacher_says_the_account_cannot_approve() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "teacher");
    let ids = id_args(&d.pending_for("moderator")[..1]);
    let (json, _, real) = dry_then_real(&bin, "decline", &ids).await;
    assert_eq!((json.code, real.code), (1, 1), "{json:?} {real:?}");
    let reason = json.json()[0]["reason"].as_str().unwrap_or("").to_owned();
    assert!(reason.contains("User is not a student"), "{json:?}");
    assert!(real.stderr.contains("User is not a student"), "{real:?}");
    assert!(d.mutations().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_says_a_status_it_could_not_read() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/auth/user"))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({
            "id": Uuid::from_u128(7), "email": "s@school.example.ac.th", "role": "student",
            "is_admin": false, "onboarded": true, "permissions": []
        }))))
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path_regex(r"^/v1/clubs/requests/[0-9a-f-]+$"))
        .respond_with(ResponseTemplate::new(404).set_body_json(json!({
            "api_version": "0.8.4", "data": null, "meta": null,
            "error": {"id": "1", "code": 404, "error_type": "entity_not_found", "detail": "Club request not found", "source": ""}
        })))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(ResponseTemplate::new(403).set_body_json(json!({
            "api_version": "0.8.4", "data": null, "meta": null,
            "error": {"id": "2", "code": 403, "error_type": "invalid_permission", "detail": "Insufficient permissions to perform this action", "source": ""}
        })))
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let ids = id_args(&[Uuid::from_u128(1)]);
    let (json, table, real) = dry_then_real(&bin, "approve", &ids).await;
    assert_eq!((json.code, real.code), (1, 1), "{json:?} {real:?}");
    assert!(
        json.json()[0]["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("its status could not be read first (")),
        "{json:?}"
    );
    assert!(
        table
            .stdout
            .contains("  not sent  its status could not be read first")
    );
    let puts = server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| {
            r.method.as_str() == "PUT"
                && r.url.path() != format!("/v1/clubs/requests/{}", Uuid::nil())
        })
        .count();
    assert_eq!(puts, 0, "only the probes were sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_with_yes_and_show_of_a_missing_request() {
    let d = start(0).await;
    // The student who made the requests: the service lets no one else delete them
    // (api-notes.md, "Who may do what").
    let bin = Bin::as_user(&d, "requester");
    let p = d.requests_of("requester");
    let (gone, kept) = (p[0], p[1]);
    let run = bin
        .run(&["requests", "delete", "--yes", &gone.to_string()], None)
        .await;
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, format!("{gone}\tdeleted\n"));
    assert_eq!(status_of(&d, gone), None);
    let audit = bin.audit();
    assert_eq!(audit.len(), 1);
    assert_eq!(
        (audit[0].action.as_str(), audit[0].outcome.as_str()),
        ("delete", "ok")
    );

    let show = bin
        .run(
            &[
                "requests",
                "show",
                &gone.to_string(),
                &kept.to_string(),
                "--json",
            ],
            None,
        )
        .await;
    assert_eq!(show.code, 1, "{show:?}");
    assert!(
        show.stderr.contains(&gone.to_string()) && show.stderr.contains("HTTP 404"),
        "{show:?}"
    );
    let rows = show.json();
    assert_eq!(rows.as_array().map(Vec::len), Some(1));
    assert_eq!(rows[0]["id"], kept.to_string().as_str());
}

/// `clubs show` prints each contact's type and value at `default` and `detailed` from a
/// server that nests contacts as the deployed service does (bare `{id}` below the descendant
/// level `default`, api-notes.md; the demo answers so): JSON, TSV and the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clubs_show_prints_contact_types_and_values_at_every_level() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let club = d
        .club_ids()
        .into_iter()
        .find(|c| !d.contact_values(*c).is_empty())
        .expect("a club with contacts")
        .to_string();
    for level in ["default", "detailed"] {
        let show = bin
            .run(&["clubs", "show", &club, "--level", level, "--json"], None)
            .await;
        assert_eq!(show.code, 0, "{show:?}");
        let contacts = show.json()["contacts"]
            .as_array()
            .cloned()
            .expect("contacts");
        assert!(!contacts.is_empty());
        for c in &contacts {
            assert!(
                c["type"].is_string() && c["value"].is_string(),
                "{level}: {c}"
            );
        }
        let tsv = bin
            .run(&["clubs", "show", &club, "--level", level], None)
            .await;
        for v in d.contact_values(club.parse().expect("uuid")) {
            assert!(
                tsv.lines().iter().any(|l| l.starts_with("contact\t")
                    && l.ends_with(&format!("\t{v}"))
                    && l.split('\t').nth(2).is_some_and(|t| !t.is_empty())),
                "{level}: {v}: {tsv:?}"
            );
        }
        let table = bin
            .run(&["clubs", "show", &club, "--level", level, "--table"], None)
            .await;
        assert!(
            table
                .lines()
                .iter()
                .filter(|l| l.starts_with("contact "))
                .all(|l| !l.contains(" ? ")),
            "{level}: {table:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clubs_show_by_name_and_add_a_contact() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let show = bin.run(&["clubs", "show", "robot", "--json"], None).await;
    assert_eq!(show.code, 0, "{show:?}");
    let club = show.json();
    assert_eq!(club["name"]["en-US"], "Robotics Club");
    assert!(club["contacts"].is_array());
    let id = club["id"].as_str().expect("id").to_owned();
    let by_thai = bin
        .run(&["clubs", "show", "ชุมนุมหุ่นยนต์", "--ids"], None)
        .await;
    assert_eq!(by_thai.stdout.trim(), id);
    let by_id = bin.run(&["clubs", "show", &id], None).await;
    assert_eq!(by_id.code, 0);
    assert!(by_id.lines().contains(&"name_th\tชุมนุมหุ่นยนต์"), "{by_id:?}");
    let missing = bin
        .run(&["clubs", "show", "no such club anywhere"], None)
        .await;
    assert_eq!(
        missing.code, 2,
        "a name that names no club is bad input: {missing:?}"
    );
    assert!(
        missing
            .stderr
            .contains("no club matches \"no such club anywhere\"")
    );

    let add = bin
        .run(
            &[
                "clubs",
                "contact",
                "add",
                &id,
                "--type",
                "line",
                "--value",
                "@robots-cli",
                "--json",
            ],
            None,
        )
        .await;
    assert_eq!(add.code, 0, "{add:?}");
    assert_eq!(add.json()["value"], "@robots-cli");
    let club_id = Uuid::parse_str(&id).expect("uuid");
    assert!(
        d.contact_values(club_id)
            .contains(&"@robots-cli".to_owned())
    );
    let again = bin
        .run(
            &[
                "clubs",
                "contact",
                "add",
                &id,
                "--type",
                "line",
                "--value",
                "@robots-cli",
            ],
            None,
        )
        .await;
    assert_eq!(again.code, 1);
    assert!(again.stderr.contains("HTTP 400"), "{again:?}");
    let audit = bin.audit();
    let outcomes: Vec<(&str, &str)> = audit
        .iter()
        .map(|e| (e.action.as_str(), e.outcome.as_str()))
        .collect();
    assert_eq!(
        outcomes,
        vec![("add-contact", "ok"), ("add-contact", "failed")]
    );
    assert!(
        audit
            .iter()
            .all(|e| e.target == club_id && e.via.as_deref() == Some("cli"))
    );
}

fn envelope(data: Value) -> Value {
    json!({"api_version": "0.8.4", "data": data, "error": null, "meta": {"timestamp": "2026-11-22T08:20:31.565Z", "pagination": null}})
}

/// `/auth/user` for a student on a club's staff (the deployed service's shape).
fn staff_student() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(envelope(json!({
        "id": Uuid::from_u128(7), "email": "s@student.example.ac.th", "role": "student",
        "meta": {"student_id": Uuid::from_u128(8)},
        "is_admin": false, "onboarded": true, "permissions": []
    })))
}

/// A 500 as the deployed service answers one (a stalled pool, api-notes.md).
fn internal_server_error() -> ResponseTemplate {
    ResponseTemplate::new(500).set_body_json(json!({
        "api_version": "0.8.4", "data": null, "meta": null,
        "error": {"id": "3", "code": 500, "error_type": "internal_server_error", "detail": "Internal server error", "source": ""}
    }))
}

fn route_not_found() -> ResponseTemplate {
    ResponseTemplate::new(404).set_body_json(json!({
        "api_version": "0.8.4", "data": null, "meta": null,
        "error": {"id": "5f0c", "code": 404, "error_type": "entity_not_found", "detail": "Route not found", "source": ""}
    }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_operation_exits_3_and_stops_sending() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/auth/user"))
        .respond_with(staff_student())
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path_regex(r"^/v1/clubs/requests/[0-9a-f-]+$"))
        .respond_with(route_not_found())
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(route_not_found())
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let ids = id_args(&[Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3)]);
    let mut args = vec!["requests", "approve", "--concurrency", "1"];
    args.extend(ids.iter().map(String::as_str));
    let run = bin.run(&args, None).await;
    assert_eq!(run.code, 3, "{run:?}");
    // One sentence before anything is sent, not one "Route not found" per id.
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert!(
        run.stderr
            .contains("this server cannot approve or decline: it has no update route"),
        "{run:?}"
    );
    let puts: Vec<String> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.method.as_str() == "PUT")
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(
        puts,
        vec![format!("/v1/clubs/requests/{}", Uuid::nil())],
        "only the probe (the nil UUID, which changes nothing) is sent"
    );
    assert!(
        bin.audit().is_empty(),
        "nothing was written, nothing audited"
    );

    let list = bin.run(&["requests", "list"], None).await;
    assert_eq!(list.code, 3, "{list:?}");
    assert!(list.stderr.contains("does not list"));
}

/// A 500 to the read of the signed-in user before writes (the deployed service's stalled
/// pool answers one, api-notes.md) is tried again, and the run goes on: here to the update
/// route's probe, which this server lacks (exit 3, as without the 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_500_to_the_user_read_before_writes_is_tried_again() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/auth/user"))
        .respond_with(internal_server_error())
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/auth/user"))
        .respond_with(staff_student())
        .mount(&server)
        .await;
    Mock::given(method("PUT"))
        .and(path_regex(r"^/v1/clubs/requests/[0-9a-f-]+$"))
        .respond_with(route_not_found())
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let id = Uuid::from_u128(1).to_string();
    let run = bin.run(&["requests", "approve", &id], None).await;
    assert_eq!(run.code, 3, "{run:?}");
    assert!(run.stderr.contains("no update route"), "{run:?}");
    let user_reads = server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path() == "/auth/user")
        .count();
    assert_eq!(user_reads, 2, "the 500, then again");
}

/// A listing page that answered 5xx is read again (the core's read backoff) instead of
/// ending the listing: the deployed service answers 500 or 503 under load (api-notes.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_list_reads_a_page_again_after_a_5xx() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(internal_server_error())
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    let row = Uuid::from_u128(42);
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "api_version": "0.8.4", "error": null,
            "data": [{"id": row, "membership_status": "pending", "year": 2026}],
            "meta": {"timestamp": "2026-11-22T08:20:31Z",
                     "pagination": {"first_p": 1, "last_p": 1, "next_p": null, "prev_p": null, "size": 50, "total": 1}}
        })))
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let run = bin.run(&["requests", "list", "--ids"], None).await;
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.ids(), vec![row]);
    let pages = server.received_requests().await.unwrap_or_default().len();
    assert_eq!(pages, 2, "the failed page once, then again");
}

/// The reads that scope a listing before its pages (the signed-in user for `--mine`, a club
/// by name for `--club`) are tried again after a 500 as the pages are: a flaky service does
/// not end `requests list --mine` on its first read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reads_before_a_listing_s_pages_are_tried_again_after_a_5xx() {
    let server = MockServer::start().await;
    for route in ["/auth/user", "/v1/clubs"] {
        Mock::given(method("GET"))
            .and(path(route))
            .respond_with(internal_server_error())
            .up_to_n_times(1)
            .with_priority(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/auth/user"))
        .respond_with(staff_student())
        .mount(&server)
        .await;
    let club = Uuid::from_u128(7);
    Mock::given(method("GET"))
        .and(path("/v1/clubs"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "api_version": "0.8.4", "error": null,
            "data": [{"id": club, "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"}}],
            "meta": {"timestamp": "2026-11-22T08:20:31Z",
                     "pagination": {"first_p": 1, "last_p": 1, "next_p": null, "prev_p": null, "size": 100, "total": 1}}
        })))
        .mount(&server)
        .await;
    let row = Uuid::from_u128(42);
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "api_version": "0.8.4", "error": null,
            "data": [{"id": row, "membership_status": "pending", "year": 2026}],
            "meta": {"timestamp": "2026-11-22T08:20:31Z",
                     "pagination": {"first_p": 1, "last_p": 1, "next_p": null, "prev_p": null, "size": 50, "total": 1}}
        })))
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    // The club's search meets the first 500 of /v1/clubs, the user's read that of /auth/user.
    let by_name = bin
        .run(&["requests", "list", "--club", "Robotics", "--ids"], None)
        .await;
    assert_eq!(by_name.code, 0, "{by_name:?}");
    assert_eq!(by_name.ids(), vec![row]);
    let mine = bin
        .run(&["requests", "list", "--mine", "--ids"], None)
        .await;
    assert_eq!(mine.code, 0, "{mine:?}");
    assert_eq!(mine.ids(), vec![row]);
}

/// A revoked API key (the deployed service answers 401 `missing_api_key` to a key it does
/// not know): `whoami` says the key was refused, not that none was sent; exit 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_key_is_said_to_be_refused() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({
            "api_version": "0.8.4", "data": null, "meta": null,
            "error": {"id": "4", "code": 401, "error_type": "missing_api_key", "detail": "Missing API Key", "source": "/auth/user"}
        })))
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_revoked_key"), Some("tok.en.x"));
    let run = bin.run(&["whoami"], None).await;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("the API key was refused (unknown, revoked or expired)"),
        "{run:?}"
    );
    assert!(!run.stderr.contains("no API key was sent"), "{run:?}");
}

/// A base URL that names another server: `whoami` and `requests approve` say it is not the
/// club service (exit 2) and send no decision.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_the_club_service_is_said_so() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string("<html><body>Welcome to nginx!</body></html>"),
        )
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let run = bin.run(&["whoami"], None).await;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("this server is not the club service")
            && run.stderr.contains("check the base URL")
            && run.stderr.contains("Welcome to nginx!"),
        "{run:?}"
    );
    let run = bin
        .run(
            &["requests", "approve", &Uuid::from_u128(1).to_string()],
            None,
        )
        .await;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("this server is not the club service"),
        "{run:?}"
    );
    let puts = server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.method.as_str() == "PUT")
        .count();
    assert_eq!(puts, 0, "not even the probe: the user read told first");

    // A web server's 404 page for /auth/user (a path without an id): not the service either.
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(404).set_body_string("<html><body>404 Not Found</body></html>"),
        )
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let run = bin.run(&["whoami"], None).await;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("this server is not the club service: its answer (HTTP 404)"),
        "{run:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completions_and_man_page() {
    let bin = Bin::new("", None, None);
    for shell in ["bash", "zsh", "fish"] {
        let run = bin.run(&["completions", shell], None).await;
        assert_eq!(run.code, 0, "{shell}: {run:?}");
        assert!(
            run.stdout.contains("requests") && run.stdout.contains("approve"),
            "{shell}"
        );
    }
    let man = bin.run(&["man"], None).await;
    assert_eq!(man.code, 0);
    assert!(
        man.stdout.contains(".TH club-admin 1"),
        "{}",
        &man.stdout[..200.min(man.stdout.len())]
    );
    let dir = bin.dir.path().join("man");
    let out = bin
        .run(
            &["man", "--out-dir", dir.to_str().expect("utf-8 path")],
            None,
        )
        .await;
    assert_eq!(out.code, 0, "{out:?}");
    for page in [
        "club-admin.1",
        "club-admin-requests.1",
        "club-admin-requests-approve.1",
        "club-admin-serve-ssh.1",
    ] {
        let text = std::fs::read_to_string(dir.join(page)).expect(page);
        // Every page: the sections clap_mangen does not write, the exit codes from the
        // program's own table, each once.
        for section in [
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH \"SEE ALSO\"",
        ] {
            assert_eq!(text.matches(section).count(), 1, "{page}: {section}");
        }
        for (code, _) in club_admin::script::exit::EXIT_CODES {
            assert!(
                text.contains(&format!(".TP\n\\fB{code}\\fR\n")),
                "{page}: exit code {code}:\n{text}"
            );
        }
        assert!(
            !text.contains(".SH EXTRA"),
            "{page}: the help's exit codes twice"
        );
    }
    assert!(man.stdout.contains(".SH \"EXIT STATUS\""), "{}", man.stdout);
    // `--help` ends with the same table.
    let help = bin.run(&["--help"], None).await;
    assert_eq!(help.code, 0, "{help:?}");
    assert!(
        help.stdout
            .contains(&club_admin::script::exit::exit_codes_text()),
        "{}",
        help.stdout
    );
    assert!(
        help.stdout.contains("  130  interrupted (Ctrl-C)"),
        "{}",
        help.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_flags_go_before_or_after_the_subcommand() {
    let d = start(0).await;
    let m = d.moderator();
    // No server in the environment: only the flag names it.
    let bin = Bin::new("", Some(&m.api_key), Some(&m.token));
    let url = d.base_url.as_str();

    let before = bin.run(&["--base-url", url, "whoami", "--ids"], None).await;
    assert_eq!(before.code, 0, "{before:?}");
    let after = bin.run(&["whoami", "--ids", "--base-url", url], None).await;
    assert_eq!(after.code, 0, "{after:?}");
    assert_eq!(before.ids(), after.ids());
    assert_eq!(before.ids().len(), 1);
    // Given twice, the later wins.
    let twice = bin
        .run(
            &[
                "--base-url",
                "https://nowhere.invalid",
                "whoami",
                "--ids",
                "--base-url",
                url,
            ],
            None,
        )
        .await;
    assert_eq!(twice.code, 0, "{twice:?}");
    assert_eq!(twice.ids(), before.ids());

    // Every connection flag is read where it is given, e.g. --read-only before the name.
    let p = d.pending_for("moderator");
    let id = p[0].to_string();
    let ro = bin
        .run(
            &["--read-only", "--base-url", url, "requests", "approve", &id],
            None,
        )
        .await;
    assert_eq!(ro.code, 2, "{ro:?}");
    assert!(ro.stderr.contains("read-only"), "{ro:?}");
    let bounds = bin
        .run(
            &[
                "requests",
                "approve",
                &id,
                "--base-url",
                url,
                "--concurrency",
                "0",
            ],
            None,
        )
        .await;
    assert_eq!(bounds.code, 2, "{bounds:?}");
    assert_eq!(
        bounds.stderr,
        "club-admin: concurrency must be between 1 and 64, not 0\n"
    );
    assert!(d.mutations().is_empty(), "{:?}", d.mutations());

    // The dashboard's own options belong to the dashboard (and `demo`), not to a subcommand.
    let mouse = bin
        .run(&["--mouse", "--base-url", url, "requests", "list"], None)
        .await;
    assert_eq!(mouse.code, 2, "{mouse:?}");
    assert!(
        mouse
            .stderr
            .contains("--mouse is an option of the dashboard"),
        "{mouse:?}"
    );
}

/// The words of the "Connection and configuration" section of `club-admin <path> --help`.
fn connection_help(path: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(path)
        .arg("--help")
        .output()
        .expect("run club-admin");
    assert!(out.status.success(), "{path:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text
        .lines()
        .skip_while(|l| *l != "Connection and configuration:");
    let heading = lines
        .next()
        .unwrap_or_else(|| panic!("{path:?} --help has no connection flags:\n{text}"));
    // The section ends at the next heading (a line that does not start with a space). Its
    // words only: clap lays a flag and its help on one line or two, by the command.
    let flags: Vec<&str> = lines
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .flat_map(str::split_whitespace)
        .collect();
    format!("{heading} {}", flags.join(" "))
}

#[test]
fn every_subcommand_shows_the_same_connection_flags() {
    let top = connection_help(&[]);
    for flag in [
        "--base-url <URL>",
        "--api-key-file <PATH>",
        "--token-file <PATH>",
        "--config <PATH>",
        "--log-file <PATH>",
        "--read-only",
        "--allow-insecure-http",
        "--concurrency <N>",
        "--timeout <SECONDS>",
    ] {
        assert!(top.contains(flag), "{flag} in:\n{top}");
    }
    for path in [
        &["demo"][..],
        &["serve-demo"],
        &["whoami"],
        &["requests", "list"],
        &["requests", "show"],
        &["requests", "approve"],
        &["requests", "decline"],
        &["requests", "delete"],
        &["clubs", "show"],
        &["clubs", "contact", "add"],
    ] {
        assert_eq!(connection_help(path), top, "{path:?}");
    }

    use clap::Parser;
    use club_admin::cli::Cli;
    for args in [
        &[
            "club-admin",
            "--base-url",
            "https://x.example",
            "requests",
            "list",
        ][..],
        &[
            "club-admin",
            "requests",
            "list",
            "--base-url",
            "https://x.example",
        ],
        &[
            "club-admin",
            "requests",
            "--base-url",
            "https://x.example",
            "list",
        ],
    ] {
        let cli = Cli::try_parse_from(args).expect("parses");
        assert_eq!(
            cli.conn.base_url.as_deref(),
            Some("https://x.example"),
            "{args:?}"
        );
    }
}

#[test]
fn audit_lines_written_before_the_via_field_still_parse() {
    let old = r#"{"at":"2026-11-22T08:20:31.565Z","server":"https://api.example.ac.th","user":null,"action":"approve","target":"00000000-0000-0000-0000-000000000001","outcome":"ok","detail":null}"#;
    let e: AuditEntry = serde_json::from_str(old).expect("old line");
    assert_eq!(e.via, None);
    let back = serde_json::to_string(&e).expect("json");
    assert!(!back.contains("via"), "absent stays absent: {back}");
}

/// The binary in a pseudo-terminal: standard input, output and error are a terminal.
#[cfg(unix)]
mod on_a_terminal {
    use std::time::Duration;

    use club_admin::api::MembershipStatus;
    use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};

    use crate::common::pty::{self, Pty};

    const ROWS: u16 = 500;
    const COLS: u16 = 120;

    /// The binary with `args` in a `ROWS` x `COLS` pseudo-terminal, as the demo's moderator.
    fn tty(d: &DemoHandle, args: &[&str]) -> Pty {
        tty_as(d, d.moderator(), args)
    }

    fn tty_as(d: &DemoHandle, m: &club_admin::demo::DemoUser, args: &[&str]) -> Pty {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut cmd = pty::command(crate::common::CLUB_ADMIN, dir.path());
        cmd.args(args);
        cmd.env("CLUB_ADMIN_BASE_URL", &d.base_url);
        cmd.env("CLUB_ADMIN_API_KEY", &m.api_key);
        cmd.env("CLUB_ADMIN_TOKEN", &m.token);
        Pty::spawn(cmd, ROWS, COLS).owning(dir)
    }

    fn demo_with(rt: &tokio::runtime::Runtime, faults: Faults) -> DemoHandle {
        rt.block_on(demo::start(DemoOptions {
            faults,
            ..DemoOptions::default()
        }))
        .expect("demo")
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime")
    }

    /// The column (cell index) where `needle` starts on screen row `row`, as the terminal
    /// emulator placed it.
    fn column_of(screen: &vt100::Screen, row: u16, needle: char) -> Option<u16> {
        (0..COLS).find(|&c| {
            screen
                .cell(row, c)
                .is_some_and(|cell| cell.contents().starts_with(needle))
        })
    }

    #[test]
    fn the_table_lines_up_thai_names_on_a_real_terminal() {
        let rt = runtime();
        let d = demo_with(&rt, Faults::default());
        let t = tty(&d, &["requests", "list", "--mine", "--status", "all"]);
        assert_eq!(t.wait_exit().exit_code(), 0);
        let p = t.parser();
        let screen = p.screen();
        let text = screen.contents();
        assert!(text.contains("STATUS") && text.contains("ชุมนุม"), "{text}");
        let header = (0..ROWS)
            .find(|&r| screen.contents_between(r, 0, r, COLS).starts_with("ID "))
            .expect("header row");
        let student_col = screen
            .contents_between(header, 0, header, COLS)
            .find("STUDENT")
            .expect("STUDENT header") as u16;
        let mut rows = 0;
        for r in header + 1..ROWS {
            let line = screen.contents_between(r, 0, r, COLS);
            if !line.contains("ชุมนุม") {
                continue;
            }
            rows += 1;
            assert_eq!(
                column_of(screen, r, '#'),
                Some(student_col),
                "row {r} {line:?} is not aligned under STUDENT"
            );
        }
        assert!(rows > 5, "rows with Thai names were drawn:\n{text}");
    }

    /// Ctrl-C before anything is sent (at the delete question; during the reads before an
    /// approve) leaves with code 130 and one line saying nothing was sent, in English and
    /// Thai; the request is untouched and nothing is audited.
    #[test]
    fn ctrl_c_before_anything_is_sent_says_nothing_was_sent() {
        let rt = runtime();
        let d = demo_with(&rt, Faults::default());
        let p = d.pending_for("moderator");
        for (locale, words) in [
            ("en_US.UTF-8", "interrupted: nothing was sent"),
            ("th_TH.UTF-8", "หยุดแล้ว: ยังไม่ได้ส่งอะไรออกไป"),
        ] {
            let dir = tempfile::tempdir().expect("tempdir");
            let mut cmd = pty::command(crate::common::CLUB_ADMIN, dir.path());
            cmd.args(["requests", "delete", &p[0].to_string()]);
            cmd.env("CLUB_ADMIN_BASE_URL", &d.base_url);
            cmd.env("CLUB_ADMIN_API_KEY", &d.moderator().api_key);
            cmd.env("CLUB_ADMIN_TOKEN", &d.moderator().token);
            cmd.env("LC_ALL", locale);
            let mut t = Pty::spawn(cmd, ROWS, COLS).owning(dir);
            t.wait_for_text("[y/N]");
            t.send(b"\x03");
            let st = t.wait_exit();
            assert_eq!((st.exit_code(), st.signal()), (130, None), "{}", t.screen());
            assert!(t.screen().contains(words), "{locale}: {}", t.screen());
            assert_eq!(d.request_status(p[0]), Some(MembershipStatus::Pending));
        }
        // During the reads before an approve: the server is slow to answer the user read.
        d.set_faults(Faults {
            latency: Duration::from_secs(20),
            ..Faults::default()
        });
        let before = d.calls();
        let mut t = tty(&d, &["requests", "approve", &p[1].to_string()]);
        while d.calls() == before && t.exited().is_none() {
            std::thread::sleep(Duration::from_millis(20));
        }
        t.send(b"\x03");
        let st = t.wait_exit();
        assert_eq!((st.exit_code(), st.signal()), (130, None), "{}", t.screen());
        assert!(
            t.screen().contains("interrupted: nothing was sent"),
            "{}",
            t.screen()
        );
        // A new contact, while the club is searched by name.
        let before = d.calls();
        let mut t = tty(
            &d,
            &[
                "clubs",
                "contact",
                "add",
                "robot",
                "--type",
                "line",
                "--value",
                "@robots_cc",
            ],
        );
        while d.calls() == before && t.exited().is_none() {
            std::thread::sleep(Duration::from_millis(20));
        }
        t.send(b"\x03");
        let st = t.wait_exit();
        assert_eq!((st.exit_code(), st.signal()), (130, None), "{}", t.screen());
        assert!(
            t.screen()
                .contains("interrupted: nothing was sent, nothing changed"),
            "{}",
            t.screen()
        );
        assert!(d.writes_received().is_empty(), "{:?}", d.writes_received());
    }

    /// `--table` on a 45-column terminal (a phone): every request is one screen line, the
    /// table cut to the width (cells end in `…`, Thai names cut between letters, never
    /// within one), nothing wrapped.
    #[test]
    fn the_table_fits_a_45_column_terminal() {
        let rt = runtime();
        let d = demo_with(&rt, Faults::default());
        let n = d.pending_for("moderator").len();
        let dir = tempfile::tempdir().expect("tempdir");
        let mut cmd = pty::command(crate::common::CLUB_ADMIN, dir.path());
        cmd.args(["requests", "list", "--mine", "--table"]);
        cmd.env("CLUB_ADMIN_BASE_URL", &d.base_url);
        cmd.env("CLUB_ADMIN_API_KEY", &d.moderator().api_key);
        cmd.env("CLUB_ADMIN_TOKEN", &d.moderator().token);
        let t = Pty::spawn(cmd, ROWS, 45).owning(dir);
        assert_eq!(t.wait_exit().exit_code(), 0, "{}", t.screen());
        let p = t.parser();
        let screen = p.screen();
        let lines: Vec<String> = (0..ROWS)
            .map(|r| screen.contents_between(r, 0, r, 45))
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert_eq!(
            lines.len(),
            n + 1,
            "one line per request and the header:\n{}",
            lines.join("\n")
        );
        assert!(lines[0].starts_with("ID"), "{}", lines[0]);
        assert!(
            lines[1..].iter().all(|l| l.contains('…')),
            "{}",
            lines.join("\n")
        );
    }

    /// `--table` into a pipe (`| cat`, as `| head` would) in a 45-column terminal: the table
    /// still fits the terminal the moderator sees (the controlling terminal's width).
    #[test]
    fn a_table_into_a_pipe_fits_the_terminal_too() {
        let rt = runtime();
        let d = demo_with(&rt, Faults::default());
        let dir = tempfile::tempdir().expect("tempdir");
        let mut cmd = pty::command("sh", dir.path());
        cmd.args([
            "-c",
            &format!(
                "{} requests list --mine --table | cat",
                crate::common::CLUB_ADMIN
            ),
        ]);
        cmd.env("CLUB_ADMIN_BASE_URL", &d.base_url);
        cmd.env("CLUB_ADMIN_API_KEY", &d.moderator().api_key);
        cmd.env("CLUB_ADMIN_TOKEN", &d.moderator().token);
        let t = Pty::spawn(cmd, ROWS, 45).owning(dir);
        assert_eq!(t.wait_exit().exit_code(), 0, "{}", t.screen());
        let raw = String::from_utf8_lossy(&t.bytes()).to_string();
        let widest = raw
            .lines()
            .map(|l| unicode_width::UnicodeWidthStr::width(l.trim_end_matches('\r')))
            .max()
            .unwrap_or(0);
        assert!(widest <= 45, "a line {widest} wide:\n{raw}");
        assert!(
            raw.lines().next().is_some_and(|l| l.starts_with("ID")),
            "{raw}"
        );
    }

    #[test]
    fn delete_asks_on_a_terminal() {
        let rt = runtime();
        let d = demo_with(&rt, Faults::default());
        let p = d.pending_for("moderator");
        // The requester's own request: the only account the service lets delete it.
        let mine = d.requests_of("requester")[0];

        let mut no = tty(&d, &["requests", "delete", &p[0].to_string()]);
        no.wait_for_text("[y/N]");
        no.send(b"n\r");
        assert_eq!(no.wait_exit().exit_code(), 1);
        assert_eq!(d.request_status(p[0]), Some(MembershipStatus::Pending));

        // The question names the student and the club, read first, as the dashboard does.
        let shown = std::process::Command::new(crate::common::CLUB_ADMIN)
            .args(["requests", "show", "--json", &mine.to_string()])
            .env("CLUB_ADMIN_BASE_URL", &d.base_url)
            .env("CLUB_ADMIN_API_KEY", &d.moderator().api_key)
            .env("CLUB_ADMIN_TOKEN", &d.moderator().token)
            .output()
            .expect("requests show");
        let r: serde_json::Value = serde_json::from_slice(&shown.stdout).expect("json");
        let number = r[0]["student"]["student_id"]
            .as_str()
            .expect("school number");
        let club = r[0]["club"]["name"]["en-US"].as_str().expect("club name");
        // (the requester: the service refuses a student moderator another's request)
        let requester = d.user("requester").expect("requester");
        let mut yes = tty_as(&d, requester, &["requests", "delete", &mine.to_string()]);
        yes.wait_for_text("Delete 1 club request?");
        // (a long line wraps on the terminal: read it joined)
        let text = yes.parser().screen().contents().replace('\n', "");
        let named = format!("{mine}  #{number}");
        assert!(text.contains(&named), "{text}");
        let line = &text[text.find(&named).unwrap_or(0)..];
        assert!(line.contains(club) && line.contains("(pending)"), "{text}");
        yes.send(b"y\r");
        assert_eq!(yes.wait_exit().exit_code(), 0);
        assert_eq!(d.request_status(mine), None);

        // A teacher may not delete (api-notes.md, "Who may do what"): refused before any
        // question or call, saying why.
        let writes = d.writes_received().len();
        let teacher = d.user("teacher").expect("teacher");
        let refused = tty_as(&d, teacher, &["requests", "delete", &p[1].to_string()]);
        assert_ne!(refused.wait_exit().exit_code(), 0);
        let text = refused.parser().screen().contents().replace('\n', "");
        assert!(
            text.contains("only the student who made a request may delete it"),
            "{text}"
        );
        assert!(!text.contains("[y/N]"), "no question: {text}");
        assert_eq!(d.writes_received().len(), writes, "nothing sent");
        assert_eq!(d.request_status(p[1]), Some(MembershipStatus::Pending));

        // A request that cannot be read is named by its id and why; the question is asked.
        let mut gone = tty(&d, &["requests", "delete", &mine.to_string()]);
        gone.wait_for_text("[y/N]");
        let text = gone.parser().screen().contents();
        assert!(text.contains(&format!("{mine}  (not read:")), "{text}");
        gone.send(b"n\r");
        assert_eq!(gone.wait_exit().exit_code(), 1);
    }

    #[test]
    fn a_long_bulk_run_shows_progress_on_standard_error() {
        let rt = runtime();
        let d = demo_with(
            &rt,
            Faults {
                latency: Duration::from_millis(60),
                ..Faults::default()
            },
        );
        let ids: Vec<String> = d
            .pending_for("moderator")
            .iter()
            .take(24)
            .map(|i| i.to_string())
            .collect();
        let mut args = vec!["requests", "approve", "--concurrency", "2"];
        args.extend(ids.iter().map(String::as_str));
        let t = tty(&d, &args);
        assert_eq!(t.wait_exit().exit_code(), 0);
        let raw = String::from_utf8_lossy(&t.bytes()).into_owned();
        assert!(raw.contains("/24"), "a progress bar counted to 24: {raw:?}");
        let text = t.parser().screen().contents();
        assert!(text.contains("approved 24 of 24"), "{text}");
    }
}

/// The fault matrix for the command line, through the real binary: `requests
/// approve` against the demo server losing half the answers after the write. After the run,
/// what it says (standard output, the audit file, the exit code) equals the server's state,
/// and each request got at most one write from it. Its lost answers settle at the first
/// re-read, so no backoff is waited for. The whole matrix (every fault at once, a script
/// retrying what was not applied, the backoff of failed re-reads on a clock the test moves)
/// runs in-process on the same core: `flows::script_faults`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_matrix_the_command_line_tells_the_servers_truth() {
    use club_admin::demo::Faults;
    let mixes = [
        // The worst case for the rule: every write lands, half the answers are lost after it.
        Faults {
            drop_after_write_rate: 0.5,
            ..Faults::default()
        },
    ];
    for (mix, faults) in mixes.iter().enumerate() {
        let d = start(20).await;
        let bin = Bin::as_user(&d, "moderator");
        let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(20).collect();
        assert_eq!(ids.len(), 20);
        let mut to_send = ids.clone();
        let mut runs = 0;
        // A script retries what was not applied until nothing is left (here every approval
        // lands in the first run; the in-process matrix needs 3 to 11 runs for every fault
        // at once); 40 only bounds the loop.
        while !to_send.is_empty() && runs < 40 {
            runs += 1;
            let audit_before = bin.audit().len();
            let writes_before = d.writes_received().len();
            d.set_faults(faults.clone());
            let mut args = vec!["requests", "approve", "--ids", "--concurrency", "4"];
            let texts = id_args(&to_send);
            args.extend(texts.iter().map(String::as_str));
            let run = bin.run(&args, None).await;
            d.set_faults(Faults::default());
            let what = format!("mix {mix}, run {runs}: {run:?}");
            // At most one write per request in a run, and only to requests it audited.
            let audit: Vec<AuditEntry> = bin.audit().into_iter().skip(audit_before).collect();
            let sent = crate::common::writes_per_request(&d, writes_before);
            for (id, n) in &sent {
                assert_eq!(*n, 1, "{id} got {n} writes; {what}");
                assert!(
                    audit.iter().any(|a| a.target == *id),
                    "{id} sent, not audited; {what}"
                );
            }
            // The last audit line of each request equals the server's state.
            let mut last: std::collections::HashMap<Uuid, &AuditEntry> = Default::default();
            for a in &audit {
                assert_eq!(a.via.as_deref(), Some("cli"));
                last.insert(a.target, a);
            }
            let printed: HashSet<Uuid> = run.ids().into_iter().collect();
            let mut unknown = 0;
            for &id in &to_send {
                let status = status_of(&d, id);
                match last.get(&id).map(|a| a.outcome.as_str()) {
                    Some("ok") => {
                        assert_eq!(status, Some(MembershipStatus::Approved), "{id}; {what}");
                        assert!(printed.contains(&id), "{id} approved, not printed; {what}");
                    }
                    Some("failed") | None => {
                        assert_eq!(status, Some(MembershipStatus::Pending), "{id}; {what}");
                        assert!(!printed.contains(&id), "{id}; {what}");
                    }
                    Some("unknown") => unknown += 1,
                    Some(other) => panic!("{id}: outcome {other}; {what}"),
                }
            }
            // The exit code follows the settled outcomes: 0 only when every one was applied.
            let all_applied = to_send
                .iter()
                .all(|id| last.get(id).is_some_and(|a| a.outcome.as_str() == "ok"));
            if all_applied {
                assert_eq!(run.code, 0, "{what}");
            } else if unknown > 0 {
                assert_eq!(run.code, 4, "{what}");
            } else {
                assert_ne!(run.code, 0, "{what}");
            }
            // Retry only what the run reported as not applied (as a script would).
            to_send.retain(|id| {
                !last
                    .get(id)
                    .is_some_and(|a| matches!(a.outcome.as_str(), "ok" | "unknown"))
            });
            if mix == 0 {
                assert_eq!(run.code, 0, "every approval landed: {what}");
                // Lost answers happened (20 writes at 0.5: all answered is one in a million)
                // and each was settled by a re-read: `unknown`, then `ok`.
                let lost = audit
                    .iter()
                    .filter(|a| a.outcome.as_str() == "unknown")
                    .count();
                assert!(lost > 0, "{what}");
                assert_eq!(audit.len(), 20 + lost, "{what}");
                // Applied after all: nothing to warn about on standard error.
                assert!(run.stderr.is_empty(), "{what}");
            }
        }
        assert!(
            to_send.is_empty(),
            "mix {mix}: still not applied after {runs} runs"
        );
        // Over all runs: no request the server approved was ever written twice.
        let all = crate::common::writes_per_request(&d, 0);
        let audit = bin.audit();
        for id in &ids {
            let failed_before = audit
                .iter()
                .filter(|a| a.target == *id && a.outcome.as_str() == "failed")
                .count();
            assert!(
                all.get(id).copied().unwrap_or(0) <= 1 + failed_before,
                "{id}: {:?} writes, {failed_before} failed runs",
                all.get(id)
            );
        }
    }
}

/// The deployed pool's stall: against the demo imitating the deployed service's pool (`--pool 16`:
/// 16 requests in flight stall it), `requests approve` lands every write exactly once at every
/// `--concurrency` from 1 to 64 (the limit adapts below it, never to 16), with and without answers
/// lost after the write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_never_stalls_every_approval_lands_once_at_every_ceiling() {
    use club_admin::demo::{Faults, Pool};
    for (ceiling, lost) in [(1, 0.0), (8, 0.0), (16, 0.3), (32, 0.0), (64, 0.3)] {
        let d = demo::start(DemoOptions {
            extra_requests: 60,
            pool: Some(Pool {
                acquire_timeout: std::time::Duration::from_secs(2),
                ..Pool::deployed(16)
            }),
            faults: Faults {
                drop_after_write_rate: lost,
                ..Faults::default()
            },
            ..DemoOptions::default()
        })
        .await
        .expect("demo");
        let bin = Bin::as_user(&d, "moderator");
        let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(60).collect();
        let texts = id_args(&ids);
        let c = ceiling.to_string();
        let mut args = vec!["requests", "approve", "--ids", "--concurrency", c.as_str()];
        args.extend(texts.iter().map(String::as_str));
        let run = bin.run(&args, None).await;
        let what = format!("--concurrency {ceiling}, lost {lost}: {run:?}");
        assert_eq!(run.code, 0, "{what}");
        assert_eq!(run.ids().len(), 60, "{what}");
        for id in &ids {
            assert_eq!(
                status_of(&d, *id),
                Some(MembershipStatus::Approved),
                "{what}"
            );
        }
        let writes = crate::common::writes_per_request(&d, 0);
        assert_eq!(writes.len(), 60, "{what}");
        assert!(writes.values().all(|n| *n == 1), "{what}: {writes:?}");
    }
}

/// A name holding U+2028, U+2029, NEL, VT or FF (line breaks to Python's `splitlines` and
/// JavaScript's line readers) never splits a record of `requests list`: the binary's TSV and
/// table give one line per request, and `--json` writes them escaped (issue 31).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_separator_in_a_name_never_splits_a_listed_record() {
    let server = MockServer::start().await;
    let row = Uuid::from_u128(42);
    let name = "Som\u{2028}chai\u{2029}x\u{85}y\u{b}z\u{c}w";
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "api_version": "0.8.4", "error": null,
            "data": [{"id": row, "membership_status": "pending", "year": 2026,
                      "club": {"id": Uuid::from_u128(43), "name": {"en-US": "Robotics\u{2028}Club", "th": null}},
                      "student": {"id": Uuid::from_u128(44), "student_id": "51234",
                                  "person": {"first_name": {"en-US": name, "th": null}}}}],
            "meta": {"timestamp": "2026-11-22T08:20:31Z",
                     "pagination": {"first_p": 1, "last_p": 1, "next_p": null, "prev_p": null, "size": 50, "total": 1}}
        })))
        .mount(&server)
        .await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let breaks = |s: &str| {
        s.matches([
            '\n', '\r', '\u{b}', '\u{c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}', '\u{2028}',
            '\u{2029}',
        ])
        .count()
    };
    let tsv = bin.run(&["requests", "list"], None).await;
    assert_eq!(tsv.code, 0, "{tsv:?}");
    assert_eq!(
        breaks(&tsv.stdout),
        1,
        "one record, one line: {:?}",
        tsv.stdout
    );
    assert!(
        tsv.stdout.contains("Robotics Club") && tsv.stdout.contains("Som chai x y z w"),
        "{:?}",
        tsv.stdout
    );
    let table = bin.run(&["requests", "list", "--table"], None).await;
    assert_eq!(table.code, 0, "{table:?}");
    assert_eq!(
        breaks(&table.stdout),
        2,
        "a header and one row: {:?}",
        table.stdout
    );
    let doc = bin.run(&["requests", "list", "--json"], None).await;
    assert!(
        !doc.stdout.contains(['\u{2028}', '\u{2029}', '\u{85}']),
        "{:?}",
        doc.stdout
    );
    assert_eq!(
        doc.json()[0]["student"]["person"]["first_name"]["en-US"],
        name
    );
}

/// A line of ids on standard input that is not UTF-8 is named ("standard input, line 2: not
/// UTF-8") instead of failing the whole input unnamed; the other lines are still read and
/// checked, and, as for any bad id, nothing is sent (exit 2, issue 31).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_of_ids_that_is_not_utf8_is_named_and_nothing_is_sent() {
    let server = MockServer::start().await;
    let bin = Bin::new(&server.uri(), Some("mysk_test_key"), Some("tok.en.x"));
    let ids = [Uuid::from_u128(1), Uuid::from_u128(2)];
    let input = [
        ids[0].to_string().as_bytes(),
        b"\ncaf\xe9 \xff\xfe\n",
        ids[1].to_string().as_bytes(),
        b"\nnope\n",
    ]
    .concat();
    let run = bin
        .run_bytes(&["requests", "approve", "-"], Some(&input))
        .await;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("standard input, line 2: not UTF-8"),
        "{run:?}"
    );
    assert!(
        run.stderr.contains("nope: not a club request id (a UUID)"),
        "the later lines are still read: {run:?}"
    );
    assert!(
        run.stderr
            .contains("1 line(s) not UTF-8, 3 invalid id(s): nothing was sent"),
        "{run:?}"
    );
    let sent = server.received_requests().await.unwrap_or_default();
    assert!(sent.is_empty(), "nothing reaches the server: {sent:?}");
    assert!(bin.audit().is_empty());
}

/// Issue 32: the command line asks the service's rules row by row for a student, as the
/// dashboard does: a decision on a request of a club it does not staff, a delete of another
/// student's request, is left out before anything is sent, said on standard error with the
/// service's own words, the same in its dry run, and the run fails (exit 1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_student_s_writes_the_rules_refuse_are_never_sent() {
    let d = start(0).await;
    let requester = Bin::as_user(&d, "requester");
    let moderator = Bin::as_user(&d, "moderator");
    let own = d.requests_of("requester")[0];
    let others = d.pending_for("moderator")[0];
    let cases = [
        // A student on no club's staff approves (even their own request).
        (
            &requester,
            vec!["requests", "approve", "--json"],
            own,
            "only the club's staff students decide",
        ),
        // A student deletes another student's request.
        (
            &requester,
            vec!["requests", "delete", "--yes", "--json"],
            others,
            "a student may delete only their own requests",
        ),
        // A staff student deletes a request not theirs.
        (
            &moderator,
            vec!["requests", "delete", "--yes", "--json"],
            own,
            "a student may delete only their own requests",
        ),
    ];
    for (bin, args, id, why) in cases {
        let id = id.to_string();
        let mut dry = args.clone();
        dry.push("--dry-run");
        dry.push(&id);
        let planned = bin.run(&dry, None).await;
        assert_eq!(planned.code, 1, "{planned:?}");
        assert!(
            planned.stdout.contains(why) || planned.stderr.contains(why),
            "{planned:?}"
        );
        let mut real = args.clone();
        real.push(&id);
        let run = bin.run(&real, None).await;
        assert_eq!(run.code, 1, "{run:?}");
        assert!(
            run.stderr.contains(&format!("{id}: not permitted: {why}")),
            "{run:?}"
        );
        assert!(run.stderr.contains("not sent"), "{run:?}");
    }
    assert!(
        d.mutations().is_empty(),
        "nothing was sent: {:?}",
        d.mutations()
    );
    assert_eq!(status_of(&d, own), Some(MembershipStatus::Pending));
    assert_eq!(status_of(&d, others), Some(MembershipStatus::Pending));
}

/// 1,000 ids the server does not know (random UUIDs) on standard input: the dry run and the
/// run find them in the reads they make anyway (the listing's ids filter), send nothing,
/// say "no such request" for each and count them apart (exit 1); nothing is audited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_the_server_does_not_know_are_no_such_request_and_never_sent() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let ids: Vec<String> = (0..1000).map(|_| Uuid::new_v4().to_string()).collect();
    let input = ids.join("\n");
    let dry = bin
        .run(
            &["requests", "approve", "--dry-run", "--json", "-"],
            Some(&input),
        )
        .await;
    assert_eq!(dry.code, 1, "{}", dry.stderr);
    let plan = dry.json();
    let plan = plan.as_array().expect("an array");
    assert_eq!(plan.len(), 1000);
    assert!(
        plan.iter()
            .all(|p| p["would_send"] == false && p["reason"] == "no such request"),
        "{plan:?}"
    );
    assert!(
        dry.stderr
            .contains("(0 of 1000 requests would be approved, 1000 not sent)")
            && dry.stderr.contains("1000 not sent: no such request"),
        "{}",
        dry.stderr
    );
    let real = bin.run(&["requests", "approve", "-"], Some(&input)).await;
    assert_eq!(real.code, 1, "{}", real.stderr);
    assert_eq!(
        real.stderr.matches(": not sent: no such request").count(),
        1000,
        "one line each"
    );
    assert!(
        real.stderr.contains("1000 not sent: no such request"),
        "{}",
        real.stderr
    );
    // Only the update-route probes (the nil id, which changes nothing) reached the server.
    let writes = crate::common::writes_per_request(&d, 0);
    assert!(writes.is_empty(), "{writes:?}");
    assert!(bin.audit().is_empty());
}

/// A spreadsheet's column of ids (quoted, CRLF, one request twice) applied twice: each run
/// says the duplicate was ignored; the first approves every request, the second finds them
/// approved as asked: both exit 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spreadsheet_applied_twice_exits_0_both_times_its_duplicates_counted() {
    let d = start(0).await;
    let bin = Bin::as_user(&d, "moderator");
    let p = d.pending_for("moderator");
    let mut column: Vec<String> = p[..5].iter().map(|i| format!("\"{i}\"")).collect();
    column.push(format!("\"{}\"", p[2]));
    let sheet = format!("{}\r\n", column.join("\r\n"));
    for round in ["first", "second"] {
        let run = bin.run(&["requests", "approve", "-"], Some(&sheet)).await;
        assert_eq!(run.code, 0, "{round}: {run:?}");
        assert!(
            run.stderr.contains("1 duplicate ignored"),
            "{round}: {}",
            run.stderr
        );
    }
    for id in &p[..5] {
        assert_eq!(status_of(&d, *id), Some(MembershipStatus::Approved));
    }
    assert_eq!(d.mutations().len(), 5, "{:?}", d.mutations());
}

/// `requests approve` while another moderator declines the same request at the same moment,
/// on a server that accepts both (the deployed 0.8.4 service checks, then writes; the last
/// write stays): the run is answered 200, then re-reads what it applied at its end (one
/// listing) and finds it declined since: it says so, audits `overwritten` and exits 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_approval_the_server_overwrote_says_so_at_its_end() {
    let d = demo::start(DemoOptions {
        faults: club_admin::demo::Faults {
            latency: std::time::Duration::from_millis(200),
            race: std::time::Duration::from_millis(300),
            ..Default::default()
        },
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let theirs = d.pending_for("moderator2");
    let id = d
        .pending_for("moderator")
        .into_iter()
        .find(|i| theirs.contains(i))
        .expect("a request both moderate");
    let bin = Bin::as_user(&d, "moderator");
    let other = crate::common::client_as(&d, d.user("moderator2").expect("moderator2"));
    let put = format!("PUT /v1/clubs/requests/{id}");
    let text_id = id.to_string();
    let args = ["requests", "approve", text_id.as_str()];
    let (run, declined) = tokio::join!(bin.run(&args, None), async {
        while !d.writes_received().contains(&put) {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        other
            .update_club_request(
                id,
                &MembershipStatus::Declined,
                club_admin::ops::run::DECISION_LEVELS,
            )
            .await
    });
    assert!(
        declined.is_ok(),
        "the server accepted the decline too: {declined:?}"
    );
    assert_eq!(
        status_of(&d, id),
        Some(MembershipStatus::Declined),
        "the last write stays"
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .contains(&format!("{id}: approved, then overwritten: declined since"))
            && run.stderr.contains("1 overwritten since"),
        "{}",
        run.stderr
    );
    let text = std::fs::read_to_string(bin.state_dir().join("audit.jsonl")).expect("audit");
    let rows = club_admin::ops::history::fold(
        text.lines()
            .filter_map(|l| serde_json::from_str::<AuditEntry>(l).ok()),
    );
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].outcome, club_admin::ops::Outcome::Overwritten);
}
