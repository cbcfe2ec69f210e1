//! Fault injection: the program keeps running, the status line and the log say what happened
//! in words, each row shows its true state (nothing shown approved that the server did not
//! confirm), and no action is sent twice. Against wiremock and raw sockets.

use crate::common;

use std::time::Duration;

use crate::common::headless::Headless;
use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{Msg, Outcome, Popup};
use common::*;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use uuid::Uuid;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

const A: u128 = 0xa;
const B: u128 = 0xb;

fn env(data: serde_json::Value) -> serde_json::Value {
    json!({"api_version": "0.8.4", "data": data, "error": null, "meta": {"timestamp": "2026-11-22T08:20:31.565326358Z", "pagination": {"first_p": 1, "last_p": 1, "next_p": null, "prev_p": null, "size": 50, "total": 2}}})
}

fn err(code: u16, t: &str, detail: &str) -> serde_json::Value {
    json!({"api_version": "0.8.4", "data": null, "meta": null, "error": {"id": "e1", "code": code, "error_type": t, "detail": detail, "source": ""}})
}

fn row(n: u128, status: &str) -> serde_json::Value {
    serde_json::to_value(request(
        Uuid::from_u128(n),
        status,
        &format!("5{n:04}"),
        Some(("Somchai", "สมชาย")),
        ("Robotics Club", "ชุมนุมหุ่นยนต์"),
        2026,
        n as i64,
    ))
    .expect("json")
}

/// The clubs of the rows ([`row`]: Robotics Club), as the staffed-clubs lookup answers for
/// [`moderator`], a student on their staff.
fn staffed() -> serde_json::Value {
    let r: club_admin::api::ClubRequest = serde_json::from_value(row(A, "pending")).expect("row");
    let club = r.club.expect("club").id;
    json!([{ "id": club }])
}

/// A server with the (student staff) user and a listing of requests A and B (both pending).
async fn server() -> MockServer {
    let s = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/auth/user"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(env(serde_json::to_value(moderator()).expect("user"))),
        )
        .mount(&s)
        .await;
    // The clubs the moderator staffs (`GET /v1/clubs?filter[data][staff_ids][0]=...`): the
    // rows' club.
    Mock::given(method("GET"))
        .and(path("/v1/clubs"))
        .respond_with(ResponseTemplate::new(200).set_body_json(env(staffed())))
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(env(json!([row(A, "pending"), row(B, "pending")]))),
        )
        .mount(&s)
        .await;
    s
}

/// The time the client allows a request.
const TIMEOUT: Duration = Duration::from_millis(500);
/// The same where a test makes the server slower than the client allows: the update-route
/// probe at start and the write both time out, so 3 s delays cost 3 x 150 ms.
const SHORT_TIMEOUT: Duration = Duration::from_millis(150);

async fn driver(url: &str) -> Headless {
    driver_with(url, TIMEOUT).await
}

async fn driver_with(url: &str, request_timeout: Duration) -> Headless {
    let client = ApiClient::new(
        url,
        Credentials::new(Some("mysk_k_x".into()), Some("tok".into())),
        ClientOptions {
            request_timeout,
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let m = model_from(live_options_at(url));
    let mut h = Headless::new(m, client, 8);
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("settle");
    assert_eq!(h.model.queue().items().len(), 2, "listing loaded");
    h
}

/// Puts the cursor on request `n` with keys: `g` to the top, `j` down to it.
fn sel(h: &mut Headless, n: u128) {
    h.send(key('g'));
    while h.model.queue().selected().map(|i| i.id) != Some(Uuid::from_u128(n)) {
        let before = h.model.queue().cursor();
        h.send(key('j'));
        assert_ne!(h.model.queue().cursor(), before, "request {n} is not shown");
    }
}

async fn approve(h: &mut Headless, n: u128) {
    sel(h, n);
    h.send(key('a'));
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("settle");
}

fn puts(received: &[wiremock::Request], n: u128) -> usize {
    let p = format!("/v1/clubs/requests/{}", Uuid::from_u128(n));
    received
        .iter()
        .filter(|r| r.method.as_str() == "PUT" && r.url.path() == p)
        .count()
}

fn status_text(h: &Headless) -> String {
    h.model.status_text().unwrap_or_default()
}

/// The reason of the last failed action in the log.
fn last_failed_action(h: &Headless) -> String {
    h.model
        .log()
        .entries()
        .iter()
        .rev()
        .find_map(|e| match (&e.outcome, &e.detail) {
            (Outcome::Failed, Some(why)) if e.what == "approve" => Some(why.to_lowercase()),
            _ => None,
        })
        .unwrap_or_default()
}

fn last_log_failed(h: &Headless) -> String {
    match h
        .model
        .log()
        .entries()
        .last()
        .map(|e| (&e.outcome, &e.detail))
    {
        Some((Outcome::Failed, Some(why))) => why.clone(),
        other => panic!("last log entry is not a failure: {other:?}"),
    }
}

/// The outcomes audited for request `n`, in order.
fn audited(h: &Headless, n: u128) -> Vec<Outcome> {
    h.audit()
        .iter()
        .filter(|e| e.target == Uuid::from_u128(n))
        .map(|e| e.outcome)
        .collect()
}

/// Mounts `template` for PUT of A and checks the aftermath: the answer is lost (or
/// unusable), the row re-reads itself and shows the server's truth (still pending), the
/// audit file says `unknown` and then `failed`.
async fn put_fault(template: ResponseTemplate, expect_words: &str) {
    put_fault_within(template, expect_words, TIMEOUT).await;
}

/// [`put_fault`] with the client allowing `request_timeout` per request.
async fn put_fault_within(
    template: ResponseTemplate,
    expect_words: &str,
    request_timeout: Duration,
) {
    let s = server().await;
    Mock::given(method("PUT"))
        .and(path_regex("^/v1/clubs/requests/.*$"))
        .respond_with(template)
        .mount(&s)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/v1/clubs/requests/{}", Uuid::from_u128(A))))
        .respond_with(ResponseTemplate::new(200).set_body_json(env(row(A, "pending"))))
        .mount(&s)
        .await;
    let mut h = driver_with(&s.uri(), request_timeout).await;
    approve(&mut h, A).await;
    let item = h.model.queue().get(Uuid::from_u128(A)).expect("row kept");
    assert_eq!(
        item.status(),
        Some(&MembershipStatus::Pending),
        "never shown approved without the server's word"
    );
    assert_eq!(
        audited(&h, A),
        vec![Outcome::Unknown, Outcome::Failed],
        "unknown first, then what the re-read settled"
    );
    assert!(
        item.shown_error().unwrap_or("").contains("still pending"),
        "{:?}",
        item.shown_error()
    );
    let shown = item.shown_error().unwrap_or("").to_lowercase();
    assert!(
        shown.contains(expect_words),
        "row error {shown:?} lacks {expect_words:?}"
    );
    assert!(
        status_text(&h).to_lowercase().contains(expect_words),
        "status {:?}",
        status_text(&h)
    );
    assert!(last_log_failed(&h).to_lowercase().contains(expect_words));
    let received = s.received_requests().await.expect("recorded");
    assert_eq!(puts(&received, A), 1, "sent once");
    // Still running: the next decision works.
    assert!(!h.model.quitting());
    assert!(h.model.popup().is_none() || matches!(h.model.popup(), Some(Popup::SignIn { .. })));
}

#[tokio::test]
async fn timeout_on_a_write() {
    put_fault_within(
        ResponseTemplate::new(200)
            .set_body_json(env(row(A, "approved")))
            .set_delay(Duration::from_secs(3)),
        "timed out",
        SHORT_TIMEOUT,
    )
    .await;
}

#[tokio::test]
async fn a_write_that_timed_out_but_was_applied_is_settled_ok_by_the_re_read() {
    let s = server().await;
    Mock::given(method("PUT"))
        .and(path_regex("^/v1/clubs/requests/.*$"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(env(row(A, "approved")))
                .set_delay(Duration::from_secs(3)),
        )
        .mount(&s)
        .await;
    // The server applied it: its re-read says approved.
    Mock::given(method("GET"))
        .and(path(format!("/v1/clubs/requests/{}", Uuid::from_u128(A))))
        .respond_with(ResponseTemplate::new(200).set_body_json(env(row(A, "approved"))))
        .mount(&s)
        .await;
    let mut h = driver_with(&s.uri(), SHORT_TIMEOUT).await;
    approve(&mut h, A).await;
    assert_eq!(audited(&h, A), vec![Outcome::Unknown, Outcome::Ok]);
    let item = h.model.queue().get(Uuid::from_u128(A)).expect("row");
    assert_eq!(item.status(), Some(&MembershipStatus::Approved));
    assert!(item.error.is_none(), "{:?}", item.error);
    assert!(status_text(&h).contains("approved"), "{}", status_text(&h));
    assert_eq!(puts(&s.received_requests().await.expect("rec"), A), 1);
}

#[tokio::test]
async fn html_502_from_a_proxy() {
    put_fault(
        ResponseTemplate::new(502).set_body_raw(
            "<html><body><h1>502 Bad Gateway</h1>nginx</body></html>",
            "text/html",
        ),
        "502 bad gateway",
    )
    .await;
}

#[tokio::test]
async fn empty_500_and_503() {
    put_fault(ResponseTemplate::new(500), "server error").await;
    put_fault(
        ResponseTemplate::new(503).set_body_json(err(
            503,
            "service_unavailable",
            "Service unavailable",
        )),
        "service unavailable",
    )
    .await;
}

#[tokio::test]
async fn malformed_and_truncated_json() {
    put_fault(
        ResponseTemplate::new(200).set_body_raw(
            "{\"api_version\":\"0.8.4\",\"data\":{\"id\":",
            "application/json",
        ),
        "unreadable answer",
    )
    .await;
    put_fault(
        ResponseTemplate::new(200).set_body_raw("not json at all", "application/json"),
        "unreadable answer",
    )
    .await;
}

#[tokio::test]
async fn deleted_elsewhere_404() {
    let s = server().await;
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(404).set_body_json(err(
            404,
            "entity_not_found",
            "Club request not found",
        )))
        .mount(&s)
        .await;
    let mut h = driver(&s.uri()).await;
    approve(&mut h, A).await;
    let item = h.model.queue().get(Uuid::from_u128(A)).expect("row");
    assert_eq!(item.state, RowState::Gone);
    assert!(
        item.shown_error()
            .unwrap_or("")
            .contains("Club request not found")
    );
    assert_eq!(puts(&s.received_requests().await.expect("rec"), A), 1);
}

#[tokio::test]
async fn unauthorised_in_the_middle_of_a_bulk_action() {
    let s = server().await;
    let a = Uuid::from_u128(A);
    let b = Uuid::from_u128(B);
    Mock::given(method("PUT"))
        .and(path(format!("/v1/clubs/requests/{a}")))
        .respond_with(ResponseTemplate::new(200).set_body_json(env(row(A, "approved"))))
        .mount(&s)
        .await;
    Mock::given(method("PUT"))
        .and(path(format!("/v1/clubs/requests/{b}")))
        .respond_with(ResponseTemplate::new(401).set_body_json(err(
            401,
            "invalid_token",
            "Token has expired",
        )))
        .mount(&s)
        .await;
    let mut h = driver(&s.uri()).await;
    h.send(key('*'));
    h.send(key('a'));
    h.send(key('y'));
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("settle");
    assert_eq!(
        h.model.queue().get(a).and_then(|i| i.status().cloned()),
        Some(MembershipStatus::Approved)
    );
    let ib = h.model.queue().get(b).expect("b");
    assert_eq!(ib.status(), Some(&MembershipStatus::Pending));
    assert!(ib.marked, "the failed row stays marked for a retry");
    assert!(h.model.session_expired());
    // No pop-up by itself; the refused write (401: not applied) waits for the sign-in.
    assert!(h.model.popup().is_none());
    assert!(
        status_text(&h).contains("the held decision waits"),
        "{}",
        status_text(&h)
    );
    assert_eq!(h.model.held().requests(), 1);
    let rec = s.received_requests().await.expect("rec");
    assert_eq!((puts(&rec, A), puts(&rec, B)), (1, 1));
    assert_eq!(
        h.audit()
            .iter()
            .filter(|e| e.outcome == Outcome::Ok)
            .count(),
        1
    );
    assert_eq!(
        h.audit()
            .iter()
            .filter(|e| e.outcome == Outcome::Failed)
            .count(),
        0,
        "a 401 is not a failure: the decision waits"
    );
}

#[tokio::test]
async fn a_ten_megabyte_answer_is_refused_not_swallowed() {
    let s = server().await;
    let big = format!(
        "{{\"data\":{{\"id\":\"{}\",\"pad\":\"{}\"}}}}",
        Uuid::from_u128(0xc),
        "x".repeat(10 * 1024 * 1024)
    );
    Mock::given(method("GET"))
        .and(path_regex("^/v1/clubs/requests/.+$"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(big, "application/json"))
        .mount(&s)
        .await;
    let mut h = driver(&s.uri()).await;
    h.send(Msg::AddIds {
        text: Uuid::from_u128(0xc).to_string(),
        origin: club_admin::app::IdsFrom::Dialog,
    });
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("settle");
    let item = h.model.queue().get(Uuid::from_u128(0xc)).expect("row");
    assert_eq!(item.state, RowState::Failed);
    assert!(
        item.shown_error()
            .unwrap_or("")
            .contains("larger than 8 MiB"),
        "{:?}",
        item.shown_error()
    );
}

/// A raw server: answers GETs of the user and listing properly, and PUTs with `fault`.
async fn raw_server(
    fault: &'static [u8],
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let puts = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let p = puts.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let p = p.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 65536];
                let n = sock.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]).to_string();
                if head.starts_with("PUT") {
                    // The start-up probe of the update route (PUT of the nil UUID) is not
                    // a write: only real approvals are counted.
                    if !head.contains(&Uuid::nil().to_string()) {
                        p.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                    let _ = sock.write_all(fault).await;
                    return;
                }
                let one = format!("GET /v1/clubs/requests/{}", Uuid::from_u128(A));
                let body = if head.starts_with("GET /auth/user") {
                    env(serde_json::to_value(moderator()).expect("user"))
                } else if head.starts_with("GET /v1/clubs?") || head.starts_with("GET /v1/clubs ") {
                    env(staffed())
                } else if head.starts_with(&one) {
                    env(row(A, "pending"))
                } else {
                    env(json!([row(A, "pending"), row(B, "pending")]))
                }
                .to_string();
                let resp = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(resp.as_bytes()).await;
            });
        }
    });
    (format!("http://{addr}"), puts)
}

#[tokio::test]
async fn connection_dropped_mid_response_and_without_response() {
    for fault in [
        &b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{\"api_version\":\"0.8"[..],
        &b""[..],
    ] {
        let (url, count) = raw_server(fault).await;
        let mut h = driver(&url).await;
        approve(&mut h, A).await;
        let item = h.model.queue().get(Uuid::from_u128(A)).expect("row");
        assert_eq!(item.status(), Some(&MembershipStatus::Pending));
        let e = item.shown_error().unwrap_or("").to_lowercase();
        assert!(e.contains("connection") && e.contains("still pending"), "{e}");
        assert!(last_failed_action(&h).contains("connection"), "the log says what happened");
        assert_eq!(audited(&h, A), vec![Outcome::Unknown, Outcome::Failed]);
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1, "the write is never resent");
    }
}

#[tokio::test]
async fn connection_refused_at_start() {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", l.local_addr().expect("addr"));
    drop(l);
    let client = ApiClient::new(
        &url,
        Credentials::new(Some("k".into()), Some("t".into())),
        ClientOptions {
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let mut h = Headless::new(model(), client, 8);
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("settle");
    assert!(matches!(h.model.connection(), Connection::Offline(_)));
    assert!(
        matches!(h.model.user(), Loadable::Failed(e) if e.contains("could not connect")),
        "{:?}",
        h.model.user()
    );
    assert!(status_text(&h).contains("could not connect"));
    // Still usable: ids can be added and are reported as failing to load, not lost.
    h.send(Msg::AddIds {
        text: Uuid::from_u128(A).to_string(),
        origin: club_admin::app::IdsFrom::Dialog,
    });
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("settle");
    let item = h.model.queue().get(Uuid::from_u128(A)).expect("kept");
    assert_eq!(item.state, RowState::Failed);
}
