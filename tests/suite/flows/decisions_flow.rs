//! Decisions held, sent and answered, against the demo server over HTTP: `update`, the real
//! worker, client and effect runner ([`Headless`]). Time is the model's clock, moved by
//! explicit ticks, so nothing here waits for a grace period to pass.

use crate::common;

use std::time::Duration;

use crate::common::headless::Headless;
use chrono::Duration as Span;
use club_admin::api::*;
use club_admin::app::{ModelOptions, Msg, Outcome, Popup};
use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};
use common::*;
use uuid::Uuid;

/// A signed-in demo account with the listing loaded, approve/decline held for `delay_secs`.
async fn driver(d: &DemoHandle, label: &str, delay_secs: u64) -> Headless {
    let u = d.user(label).expect("user");
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let m = model_from(ModelOptions {
        decision_delay: Duration::from_secs(delay_secs),
        ..options_at(&d.base_url)
    });
    let mut h = Headless::new(m, client, 8);
    settle(&mut h).await;
    h
}

async fn settle(h: &mut Headless) {
    h.run_until_idle(Duration::from_secs(20))
        .await
        .expect("settled in time");
}

async fn send(h: &mut Headless, msg: Msg) {
    h.send(msg);
    settle(h).await;
}

fn selected(h: &Headless) -> Uuid {
    h.model.queue().selected().expect("selected").id
}

fn outcomes(h: &Headless, id: Uuid) -> Vec<Outcome> {
    h.audit()
        .iter()
        .filter(|e| e.target == id)
        .map(|e| e.outcome)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_approve_reaches_the_server_only_when_due_and_z_keeps_it_pending() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = driver(&d, "moderator", 5).await;
    let first = selected(&h);
    send(&mut h, key('a')).await;
    assert_eq!(
        d.request_status(first),
        Some(MembershipStatus::Pending),
        "held: not sent yet"
    );
    assert!(d.mutations().is_empty());
    let second = selected(&h);
    assert_ne!(first, second, "the cursor moved on at once");
    send(&mut h, key('x')).await;
    send(&mut h, key('z')).await; // takes back the decline of `second`
    send(&mut h, Msg::Tick(now() + Span::seconds(6))).await;
    assert_eq!(d.request_status(first), Some(MembershipStatus::Approved));
    assert_eq!(
        d.request_status(second),
        Some(MembershipStatus::Pending),
        "taken back: never sent"
    );
    assert_eq!(d.mutations().len(), 1, "{:?}", d.mutations());
    assert_eq!(outcomes(&h, first), vec![Outcome::Ok]);
    assert_eq!(outcomes(&h, second), vec![Outcome::Undone]);
    assert_eq!(
        h.model.queue().get(first).and_then(|i| i.status().cloned()),
        Some(MembershipStatus::Approved)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_with_a_held_decision_sends_it_now_and_quits_once_answered() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = driver(&d, "moderator", 30).await;
    let first = selected(&h);
    send(&mut h, key('a')).await;
    send(&mut h, key('q')).await;
    assert!(matches!(h.model.popup(), Some(Popup::QuitHeld)));
    send(&mut h, key('s')).await;
    assert_eq!(d.request_status(first), Some(MembershipStatus::Approved));
    assert!(h.model.quitting(), "quit once the server answered");
    assert_eq!(outcomes(&h, first), vec![Outcome::Ok]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_up_flushes_held_decisions_and_audits_their_answers() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = driver(&d, "moderator", 30).await;
    let first = selected(&h);
    send(&mut h, key('a')).await;
    let second = selected(&h);
    send(&mut h, key('x')).await;
    // What the event loop does on SIGTERM: flush, drive the answers, stop.
    send(&mut h, Msg::Flush(club_admin::app::EndedBy::HangUp)).await;
    assert_eq!(h.model.writes_pending(), 0);
    send(&mut h, Msg::Stop).await;
    assert!(h.model.quitting());
    assert_eq!(d.request_status(first), Some(MembershipStatus::Approved));
    assert_eq!(d.request_status(second), Some(MembershipStatus::Declined));
    assert_eq!(outcomes(&h, first), vec![Outcome::Ok]);
    assert_eq!(outcomes(&h, second), vec![Outcome::Ok]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mark_all_marks_every_pending_request_of_the_moderator_across_pages() {
    let d = demo::start(DemoOptions {
        extra_requests: 120,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let mut h = driver(&d, "moderator", 0).await;
    let pending = d.pending_for("moderator");
    assert!(
        h.model.queue().items().len() < pending.len(),
        "not everything is loaded at start ({} of {})",
        h.model.queue().items().len(),
        pending.len()
    );
    send(&mut h, key('*')).await;
    let mut marked = h.model.queue().marked_ids();
    marked.sort();
    let mut expected = pending.clone();
    expected.sort();
    assert_eq!(marked, expected, "every pending request of the moderator");
    send(&mut h, key('a')).await;
    match &h.model.popup() {
        Some(Popup::Confirm { ids, .. }) => assert_eq!(ids.len(), pending.len()),
        other => panic!("{other:?}"),
    }
    let shown = screen(&h.model, 120, 40);
    assert!(
        shown.contains(&format!("Approve {} marked club requests", pending.len())),
        "{shown}"
    );
    send(&mut h, key('n')).await;

    // Filtered to one club: the confirmation names it.
    let club = h
        .model
        .queue()
        .items()
        .iter()
        .find_map(|i| i.club_name().map(str::to_owned))
        .expect("a club name");
    send(&mut h, key('u')).await;
    send(&mut h, key('/')).await;
    let term = format!("club:{}", club.to_lowercase().replace(' ', "_"));
    for c in term.chars() {
        send(&mut h, key(c)).await;
    }
    send(&mut h, code(club_admin::app::KeyCode::Enter)).await;
    send(&mut h, key('*')).await;
    let n = h.model.queue().marked_ids().len();
    assert!(n > 0 && n < pending.len(), "{n}");
    send(&mut h, key('a')).await;
    let shown = screen(&h.model, 120, 40);
    assert!(
        shown.contains(&format!("Approve {n} marked club requests of {club}?")),
        "{shown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_lost_after_the_write_committed_is_settled_by_the_re_read() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = driver(&d, "moderator", 0).await;
    let first = selected(&h);
    d.set_faults(Faults {
        drop_after_write_rate: 1.0,
        ..Faults::default()
    });
    send(&mut h, key('a')).await;
    assert_eq!(
        d.request_status(first),
        Some(MembershipStatus::Approved),
        "the server committed it"
    );
    assert_eq!(outcomes(&h, first), vec![Outcome::Unknown, Outcome::Ok]);
    let settled = h
        .audit()
        .iter()
        .rfind(|e| e.target == first)
        .and_then(|e| e.detail.clone())
        .unwrap_or_default();
    assert!(settled.contains("approved"), "{settled}");
    let row = h.model.queue().get(first).expect("row");
    assert_eq!(
        row.status(),
        Some(&MembershipStatus::Approved),
        "the server's truth"
    );
    assert!(row.error.is_none(), "{:?}", row.error);
    assert_eq!(d.mutations().len(), 1, "never resent");
}

/// Moves the cursor of `h` to request `id` (`g`, then `j` until it is selected).
async fn cursor_on(h: &mut Headless, id: Uuid) {
    send(h, key('g')).await;
    while h.model.queue().selected().map(|i| i.id) != Some(id) {
        let before = h.model.queue().cursor();
        send(h, key('j')).await;
        assert_ne!(
            h.model.queue().cursor(),
            before,
            "request {id} is not shown"
        );
    }
}

/// Two dashboards decide one request oppositely at once on a server that accepts both, as
/// the deployed 0.8.4 service does (it checks that the request is pending, then writes: both
/// answer 200, the last write stays). The dashboard whose decision was overwritten hears it
/// at its next read: the row shows the status read, the status line says so, the audit has
/// one `overwritten` line with that status (a second read adds none), and the history's row
/// of that write says `overwritten`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_the_server_overwrote_is_said_and_recorded_once() {
    let d = demo::start(DemoOptions {
        faults: Faults {
            race: Duration::from_millis(300),
            ..Faults::default()
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
    let mut a = driver(&d, "moderator", 0).await;
    let mut b = driver(&d, "moderator2", 0).await;
    cursor_on(&mut a, id).await;
    cursor_on(&mut b, id).await;
    a.send(key('a'));
    b.send(key('x'));
    tokio::join!(settle(&mut a), settle(&mut b));
    assert_eq!(
        outcomes(&a, id),
        vec![Outcome::Ok],
        "the server accepted both"
    );
    assert_eq!(
        outcomes(&b, id),
        vec![Outcome::Ok],
        "the server accepted both"
    );
    let stays = d.request_status(id).expect("the request");
    let (loser, read) = match stays {
        MembershipStatus::Declined => (&mut a, "declined"),
        _ => (&mut b, "approved"),
    };
    send(loser, key('r')).await;
    settle(loser).await;
    let lines: Vec<_> = loser
        .audit()
        .iter()
        .filter(|e| e.target == id)
        .cloned()
        .collect();
    assert_eq!(
        lines.iter().map(|e| e.outcome).collect::<Vec<_>>(),
        vec![Outcome::Ok, Outcome::Overwritten],
        "{lines:#?}"
    );
    assert_eq!(
        lines[1].detail.as_deref(),
        Some(format!("overwritten: {read} since").as_str())
    );
    let said = loser.model.status_text().unwrap_or_default();
    assert!(
        said.contains("was overwritten") && said.contains(read),
        "the status line says it: {said}"
    );
    let row = loser.model.queue().get(id).expect("the row");
    assert_eq!(row.status(), Some(&stays));
    assert_eq!(row.decided_elsewhere.as_ref(), Some(&stays));
    // Said once: another read adds no line.
    send(loser, key('r')).await;
    settle(loser).await;
    let again = loser.audit().iter().filter(|e| e.target == id).count();
    assert_eq!(again, 2, "one overwritten line, whatever reads follow");
    // The history folds the write's lines into one row that says it.
    let mut entries = Vec::new();
    let session = lines[0].session.clone();
    for (i, e) in lines.iter().enumerate() {
        let mut ahead = e.clone();
        if i == 0 {
            ahead.outcome = Outcome::Sending;
            entries.push(ahead);
        }
        entries.push(e.clone());
    }
    let rows = club_admin::ops::history::fold(entries);
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].outcome, Outcome::Overwritten);
    assert_eq!(rows[0].session, session);
}
