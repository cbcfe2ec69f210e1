//! The dashboard's work off its loop, through `update`, the real worker and the real
//! writer against the demo server ([`Headless`] built by the one builder): a call whose
//! task panics is answered like any other failure (a write's answer counts as lost: its
//! row settles by a re-read, never by sending again), and a file that cannot be written is
//! told on the status line and in the activity log, in English and in Thai.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use crate::common::headless::Headless;
use club_admin::api::*;
use club_admin::app::{ApiCall, KeyCode, ModelOptions, Msg, Outcome};
use club_admin::demo::{self, DemoHandle, DemoOptions};
use club_admin::i18n::{Lang, tr};
use club_admin::runtime::build::Builder;
use club_admin::runtime::effects::Files;
use club_admin::runtime::effects::Hooks;
use common::*;

const LIMIT: Duration = Duration::from_secs(20);

fn client(d: &DemoHandle) -> ApiClient {
    let u = d.moderator();
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client")
}

/// The moderator's dashboard on `d`, decisions sent at once, in `lang`, built with `hooks`
/// and `files`, its listing loaded.
async fn dashboard(d: &DemoHandle, lang: Lang, hooks: Hooks, files: Files) -> Headless {
    let m = model_from(ModelOptions {
        decision_delay: Duration::ZERO,
        lang,
        ..live_options_at(&d.base_url)
    });
    let mut h = Headless::built(Builder::new(m, client(d), 8).hooks(hooks).files(files));
    h.run_until_idle(LIMIT).await.expect("loaded");
    h
}

fn panics_on(pred: impl Fn(&ApiCall) -> bool + Send + Sync + 'static) -> Hooks {
    Hooks {
        panic_when: Some(Arc::new(pred)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approve_whose_task_panics_settles_by_a_re_read_and_is_never_sent() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let hooks = panics_on(|c| matches!(c, ApiCall::UpdateRequest { .. }));
    let mut h = dashboard(&d, Lang::English, hooks, Files::default()).await;
    let id = h.model.queue().selected().expect("a row").id;
    h.send(key('a'));
    h.send(Msg::Tick(now()));
    // No key after this: the row settles by itself (the lost answer's re-read).
    h.run_until(LIMIT, |m| {
        m.writes_pending() == 0 && m.decisions().lost().is_empty()
    })
    .await
    .expect("the row settles");
    assert_eq!(h.model.writes_pending(), 0);
    assert_eq!(h.model.in_flight(), 0);
    let row = h.model.queue().get(id).expect("row");
    assert!(
        h.model.deciding(id).is_none(),
        "not approving for ever: {:?}",
        row.state
    );
    let lines: Vec<(Outcome, String)> = h
        .audit()
        .iter()
        .filter(|e| e.target == id)
        .map(|e| (e.outcome, e.detail.clone().unwrap_or_default()))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0].0, Outcome::Unknown, "{lines:?}");
    assert!(
        lines[0].1.contains("the client failed internally"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1].0,
        Outcome::Failed,
        "the re-read found it pending: {lines:?}"
    );
    assert!(lines[1].1.contains("still pending"), "{lines:?}");
    // The write never reached the server, and was never sent again.
    assert!(d.mutations().is_empty(), "{:?}", d.mutations());
    assert_eq!(d.request_status(id), Some(MembershipStatus::Pending));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_whose_task_panics_is_answered_as_failed_in_english_and_thai() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    for lang in [Lang::English, Lang::Thai] {
        let words = tr(lang, "error-internal");
        let hooks = panics_on(|c| matches!(c, ApiCall::GetClub { .. }));
        let mut h = dashboard(&d, lang, hooks, Files::default()).await;
        let club = d.club_ids().into_iter().next().expect("a club");
        h.send(key(':'));
        for c in format!("club {club}").chars() {
            h.send(key(c));
        }
        h.send(code(KeyCode::Enter));
        h.run_until_idle(LIMIT)
            .await
            .expect("answered, not waiting for ever");
        assert_eq!(h.model.in_flight(), 0);
        // The club pane says why it is empty.
        let drawn = screen(&h.model, 120, 40);
        assert!(drawn.contains(&words), "{lang:?}:\n{drawn}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_audit_file_that_cannot_be_written_is_told_in_english_and_thai_and_nothing_is_sent() {
    for lang in [Lang::English, Lang::Thai] {
        let words = tr(lang, "status-effect-audit-file");
        let d = demo::start(DemoOptions::default()).await.expect("demo");
        let dir = tempfile::tempdir().expect("tempdir");
        // The state directory is a plain file: nothing can be written below it.
        let state = dir.path().join("state");
        std::fs::write(&state, b"not a directory").expect("write");
        let files = Files {
            audit_path: Some(state.join("audit.jsonl")),
            ..Files::default()
        };
        let mut h = dashboard(&d, lang, Hooks::default(), files).await;
        h.send(key('a'));
        h.send(Msg::Tick(now()));
        h.run_until_idle(LIMIT).await.expect("settled");
        let (_, status) = h.model.status_line().expect("a status line");
        assert!(status.contains(&words), "{lang:?}: {status}");
        assert!(
            h.model
                .log()
                .entries()
                .iter()
                .any(|e| e.label.contains(&words)
                    || e.detail.as_deref().is_some_and(|t| t.contains(&words))),
            "{lang:?}: in the log too: {:?}",
            h.model.log().entries()
        );
        // Every write, on disk before it leaves: its write-ahead line could not be written,
        // so nothing was sent, and the log says so.
        assert_eq!(d.mutations().len(), 0, "{:?}", d.mutations());
        let not_sent = match lang {
            Lang::Thai => "ไม่ได้ส่ง",
            _ => "not sent",
        };
        assert!(
            h.model
                .log()
                .entries()
                .iter()
                .any(|e| e.detail.as_deref().is_some_and(|t| t.contains(not_sent))),
            "{lang:?}: not sent, in the log: {:?}",
            h.model.log().entries()
        );
    }
}

/// The host budget's folder is a FIFO another user planted (the attack, at the
/// folder's name): the dashboard starts and loads its queue through the real worker, and
/// says once, on the status line and in the activity log, that it goes on without the
/// shared budget; in English and in Thai.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_budget_that_cannot_be_used_is_said_once_and_the_queue_loads() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("budget");
    nix::unistd::mkfifo(&dir, nix::sys::stat::Mode::from_bits_truncate(0o666)).expect("mkfifo");
    for (lang, words) in [
        (
            Lang::English,
            "is not a real directory (a FIFO): going on without",
        ),
        (Lang::Thai, "ไม่ใช่โฟลเดอร์จริง (เป็น FIFO): ทำงานต่อโดยไม่ใช้งบร่วม"),
    ] {
        let u = d.moderator();
        let client = ApiClient::new(
            &d.base_url,
            Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
            ClientOptions {
                host_budget: Some(budget::BudgetOptions {
                    slots: 4,
                    dir: dir.clone(),
                    service: false,
                }),
                ..ClientOptions::default()
            },
        )
        .expect("client");
        let m = model_from(ModelOptions {
            lang,
            ..live_options_at(&d.base_url)
        });
        let mut h = Headless::new(m, client, 8);
        h.run_until_idle(LIMIT).await.expect("settled");
        assert!(!h.model.queue().is_empty(), "{lang:?}: the queue loaded");
        let status = h.model.status_text().unwrap_or_default();
        // The status line as the terminal gets it (Thai's ำ drawn as two cells).
        let drawn = club_admin::text::for_terminal(words);
        assert!(status.contains(drawn.as_ref()), "{lang:?}: {status}");
        let logged = h
            .model
            .log()
            .entries()
            .iter()
            .filter(|e| {
                e.detail
                    .as_deref()
                    .is_some_and(|t| t.contains(words) || t.contains(drawn.as_ref()))
            })
            .count();
        assert_eq!(logged, 1, "{lang:?}: said once in the log");
    }
}

/// Issue 33, item 5: the team's history in the dashboard. An approval is audited; `H` reads
/// the audit file again (off the loop, after the writer) and the pop-up lists it, newest
/// first, with who and from where; its search keeps the rows that match; the request's
/// detail shows its own line. In English and in Thai, at 120x40 and at 45x30.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_team_history_lists_an_approval_with_who_and_where_in_english_and_thai() {
    for lang in [Lang::English, Lang::Thai] {
        let d = demo::start(DemoOptions::default()).await.expect("demo");
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = dir.path().join("audit.jsonl");
        // A line of another server in the same file: not this dashboard's history.
        let mut other = club_admin::ops::audit::AuditLog {
            path: None,
            server: "https://elsewhere.example".into(),
            user: Some("someone@elsewhere.example".into()),
            via: "cli",
            ..Default::default()
        }
        .entry(now(), "approve", uuid::Uuid::nil(), Outcome::Ok, None);
        other.run = Some("elsewhere".into());
        let line = serde_json::to_string(&other).expect("json");
        std::fs::write(&audit, format!("{line}\n")).expect("write");
        let files = Files {
            audit_path: Some(audit.clone()),
            ..Files::default()
        };
        let mut h = dashboard(&d, lang, Hooks::default(), files).await;
        let id = h.model.queue().selected().expect("a row").id;
        h.send(key('a'));
        h.send(Msg::Tick(now()));
        h.run_until_idle(LIMIT).await.expect("settled");
        assert_eq!(d.request_status(id), Some(MembershipStatus::Approved));
        h.send(key('H'));
        h.run_until(LIMIT, |m| {
            m.history()
                .get()
                .is_some_and(|rows| rows.iter().any(|r| r.target == id && !r.is_open()))
        })
        .await
        .expect("the history is read, the approval's outcome in it");
        let rows = h.model.history().get().expect("rows");
        assert!(
            rows.iter().all(|r| r.server != "https://elsewhere.example"),
            "{lang:?}: only this server's rows: {rows:?}"
        );
        let row = rows.iter().find(|r| r.target == id).expect("the approval");
        assert_eq!(row.outcome, Outcome::Ok, "{row:?}");
        assert_eq!(row.action, "approve");
        let who = d.moderator().email.clone();
        assert_eq!(row.user.as_deref(), Some(who.as_str()));
        let approved =
            club_admin::i18n::tr_args(lang, "status-past", &[("action", "approve".into())]);
        for (w, hgt) in [(120, 40), (45, 30)] {
            let drawn = screen(&h.model, w, hgt);
            assert!(drawn.contains(&approved), "{lang:?} {w}x{hgt}:\n{drawn}");
            assert!(
                drawn.contains(&who[..who.len().min(12)]),
                "{lang:?} {w}x{hgt}: who decided:\n{drawn}"
            );
        }
        // The search keeps what matches: nothing matches this.
        for c in "zzzz".chars() {
            h.send(key(c));
        }
        h.run_until_idle(LIMIT).await.expect("idle");
        let drawn = screen(&h.model, 120, 40);
        let none =
            club_admin::i18n::tr_args(lang, "popup-history-no-match", &[("query", "zzzz".into())]);
        assert!(drawn.contains(&none), "{lang:?}: filtered out:\n{drawn}");
        // Closed, the request's detail shows its own history.
        h.send(Msg::Key(club_admin::app::Key::new(KeyCode::Esc)));
        h.run_until_idle(LIMIT).await.expect("idle");
        assert!(h.model.popup().is_none());
        // The cursor went on after the approval: back to the approved request.
        for _ in 0..5 {
            if h.model.queue().selected().is_none_or(|i| i.id == id) {
                break;
            }
            h.send(key('k'));
        }
        let drawn = screen(&h.model, 120, 40);
        assert!(
            drawn.contains(&tr(lang, "detail-history")),
            "{lang:?}: the detail's history:\n{drawn}"
        );
    }
}
