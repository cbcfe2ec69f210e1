//! The API client against wiremock: every operation's request and response, every error class.

use std::time::Duration;

use club_admin::api::*;
use serde_json::json;
use uuid::Uuid;
use wiremock::matchers::{body_json, header, header_exists, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common::error_body;

const KEY: &str = "mysk_testkey_0123456789abcdef";
const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4IiwiZXhwIjoxODAwMDAwMDAwfQ.c2lnbmF0dXJl";

fn envelope(data: serde_json::Value) -> serde_json::Value {
    json!({"api_version":"0.8.4","data":data,"error":null,
           "meta":{"timestamp":"2026-11-22T08:20:31.565326358Z","pagination":null}})
}

fn options() -> ClientOptions {
    ClientOptions {
        connect_timeout: Duration::from_secs(2),
        request_timeout: Duration::from_secs(3),
        get_retries: 2,
        retry_base_delay: Duration::from_millis(10),
        allow_insecure_http: false,
        ..ClientOptions::default()
    }
}

fn client(server: &MockServer) -> ApiClient {
    ApiClient::new(
        &server.uri(),
        Credentials::new(Some(KEY.into()), Some(TOKEN.into())),
        options(),
    )
    .expect("client")
}

/// A client with the API key and no token (as `serve-ssh`'s operator client is).
fn keyed_client(server: &MockServer) -> ApiClient {
    ApiClient::new(
        &server.uri(),
        Credentials::new(Some(KEY.into()), None),
        options(),
    )
    .expect("client")
}

fn auth_headers(m: wiremock::MockBuilder) -> wiremock::MockBuilder {
    m.and(header("X-Api-Key", KEY))
        .and(header("Authorization", format!("Bearer {TOKEN}").as_str()))
}

#[tokio::test]
async fn current_user_sends_key_and_token_and_parses_user() {
    let server = MockServer::start().await;
    let id = Uuid::new_v4();
    auth_headers(Mock::given(method("GET")).and(path("/auth/user")))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({
            "id": id, "created_at": "2026-11-22T08:19:27.291094Z", "email": "a@b.th",
            "role": "student", "meta": {"student_id": id}, "is_admin": false,
            "onboarded": true, "permissions": ["x"], "brand_new_field": {"deep": [1,2]}
        }))))
        .expect(1)
        .mount(&server)
        .await;
    let reply = client(&server).current_user().await.expect("user");
    assert_eq!(reply.data.id, id);
    assert_eq!(reply.data.email.as_deref(), Some("a@b.th"));
    assert_eq!(reply.data.role.as_deref(), Some("student"));
    assert_eq!(reply.data.meta.and_then(|m| m.student_id), Some(id));
    assert_eq!(reply.api_version.as_deref(), Some("0.8.4"));
    let ts = reply.data.created_at.expect("timestamp parsed");
    assert_eq!(ts.timestamp_subsec_micros(), 291094);
    assert!(reply.meta.and_then(|m| m.timestamp).is_some());
}

#[tokio::test]
async fn club_sends_levels_as_query_and_parses_nested_records() {
    let server = MockServer::start().await;
    let id = Uuid::new_v4();
    let contact = Uuid::new_v4();
    auth_headers(Mock::given(method("GET")).and(path(format!("/v1/clubs/{id}"))))
        .and(query_param("fetch_level", "default"))
        .and(query_param("descendant_fetch_level", "compact"))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({
            "id": id, "name": {"en-US": null, "th": "ชุมนุมหุ่นยนต์"}, "description": null,
            "member_count": 12, "staff_count": 3, "accent_color": "#fff",
            "contacts": [{"id": contact, "name": null, "type": "line", "value": "@robot"},
                         {"id": Uuid::new_v4(), "type": "carrier-pigeon", "value": "roof"}]
        }))))
        .expect(1)
        .mount(&server)
        .await;
    let club = client(&server)
        .club(id, Levels::new(FetchLevel::Default, FetchLevel::Compact))
        .await
        .expect("club")
        .data;
    assert_eq!(club.name.as_ref().and_then(|n| n.best()), Some("ชุมนุมหุ่นยนต์"));
    assert_eq!(club.member_count, Some(12));
    let contacts = club.contacts.expect("contacts");
    assert_eq!(contacts[0].kind, Some(ContactType::Line));
    assert_eq!(
        contacts[1].kind,
        Some(ContactType::Other("carrier-pigeon".into()))
    );
}

#[tokio::test]
async fn create_contact_posts_one_object_with_levels_in_body() {
    let server = MockServer::start().await;
    let club = Uuid::new_v4();
    let cid = Uuid::new_v4();
    auth_headers(Mock::given(method("POST")).and(path(format!("/v1/clubs/{club}/contacts"))))
        .and(header("content-type", "application/json"))
        .and(body_json(
            json!({"data": {"type": "phone", "value": "0812345678"},
                              "fetch_level": "default", "descendant_fetch_level": "id_only"}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({
            "id": cid, "created_at": "2026-11-22T08:19:27Z", "name": {"en-US": null, "th": null},
            "type": "phone", "value": "0812345678", "include_students": null,
            "include_teachers": null, "include_parents": null
        }))))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server)
        .create_club_contact(
            club,
            &NewContact {
                kind: ContactType::Phone,
                value: "0812345678".into(),
            },
            Levels::new(FetchLevel::Default, FetchLevel::IdOnly),
        )
        .await
        .expect("contact")
        .data;
    assert_eq!(c.id, cid);
    assert_eq!(c.value.as_deref(), Some("0812345678"));
    assert!(
        c.created_at.is_some(),
        "timestamp without fraction digits parses"
    );
}

#[tokio::test]
async fn club_request_reads_both_status_spellings_and_unknown_status() {
    let server = MockServer::start().await;
    let a = Uuid::new_v4();
    let b = Uuid::new_v4();
    let c = Uuid::new_v4();
    auth_headers(Mock::given(method("GET")).and(path(format!("/v1/clubs/requests/{a}"))))
        .and(query_param("fetch_level", "default"))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({
            "id": a, "created_at": null, "year": 2026, "membership_status": "pending",
            "club": {"id": Uuid::new_v4()}, "student": {"id": Uuid::new_v4(), "student_id": "51234"}
        }))))
        .mount(&server)
        .await;
    auth_headers(Mock::given(method("GET")).and(path(format!("/v1/clubs/requests/{b}"))))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(envelope(json!({"id": b, "status": "approved"}))),
        )
        .mount(&server)
        .await;
    auth_headers(Mock::given(method("GET")).and(path(format!("/v1/clubs/requests/{c}"))))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(
            json!({"id": c, "membership_status": "waitlisted"}),
        )))
        .mount(&server)
        .await;
    let cl = client(&server);
    let ra = cl
        .club_request(a, Levels::REQUEST_ROW)
        .await
        .expect("a")
        .data;
    assert_eq!(ra.membership(), Some(&MembershipStatus::Pending));
    assert_eq!(
        ra.student.and_then(|s| s.student_id).as_deref(),
        Some("51234")
    );
    let rb = cl
        .club_request(b, Levels::REQUEST_ROW)
        .await
        .expect("b")
        .data;
    assert_eq!(rb.membership(), Some(&MembershipStatus::Approved));
    let rc = cl
        .club_request(c, Levels::REQUEST_ROW)
        .await
        .expect("c")
        .data;
    assert_eq!(
        rc.membership(),
        Some(&MembershipStatus::Other("waitlisted".into()))
    );
    assert_eq!(
        rc.membership().map(|m| m.to_string()).as_deref(),
        Some("waitlisted")
    );
}

#[tokio::test]
async fn update_sends_status_and_levels_in_body() {
    let server = MockServer::start().await;
    let id = Uuid::new_v4();
    auth_headers(Mock::given(method("PUT")).and(path(format!("/v1/clubs/requests/{id}"))))
        .and(body_json(json!({"data": {"status": "declined"},
                              "fetch_level": "default", "descendant_fetch_level": "compact"})))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(envelope(json!({"id": id, "membership_status": "declined"}))),
        )
        .expect(1)
        .mount(&server)
        .await;
    let r = client(&server)
        .update_club_request(id, &MembershipStatus::Declined, Levels::REQUEST_ROW)
        .await
        .expect("update")
        .data;
    assert_eq!(r.membership(), Some(&MembershipStatus::Declined));
}

#[tokio::test]
async fn delete_accepts_null_data() {
    let server = MockServer::start().await;
    let id = Uuid::new_v4();
    auth_headers(Mock::given(method("DELETE")).and(path(format!("/v1/clubs/requests/{id}"))))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!(null))))
        .expect(1)
        .mount(&server)
        .await;
    let reply = client(&server)
        .delete_club_request(id)
        .await
        .expect("delete");
    assert_eq!(reply.api_version.as_deref(), Some("0.8.4"));
}

#[tokio::test]
async fn listing_uses_bracket_syntax_and_reads_pagination() {
    let server = MockServer::start().await;
    let club = Uuid::new_v4();
    auth_headers(Mock::given(method("GET")).and(path("/v1/clubs/requests")))
        .and(query_param("filter[data][club_ids][0]", club.to_string().as_str()))
        .and(query_param("filter[data][membership_status]", "pending"))
        .and(query_param("filter[data][year]", "2026"))
        .and(query_param("sort[by][0]", "year"))
        .and(query_param("sort[by][1]", "id"))
        .and(query_param("sort[ascending]", "true"))
        .and(query_param("pagination[p]", "2"))
        .and(query_param("pagination[size]", "25"))
        .and(query_param("fetch_level", "default"))
        .and(query_param("descendant_fetch_level", "compact"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "api_version":"0.8.4","error":null,
            "data":[{"id": Uuid::new_v4(), "membership_status":"pending"}],
            "meta":{"timestamp":"2026-11-22T08:20:31Z",
                    "pagination":{"first_p":1,"last_p":3,"next_p":3,"prev_p":1,"size":25,"total":51}}})))
        .expect(1)
        .mount(&server)
        .await;
    let filter = RequestFilter {
        club_ids: vec![club],
        membership_status: Some(MembershipStatus::Pending),
        year: Some(2026),
        ..RequestFilter::default()
    };
    let reply = client(&server)
        .list_club_requests(
            &filter,
            &Sort::default(),
            Page::new(2, 25),
            Levels::REQUEST_ROW,
        )
        .await
        .expect("list");
    assert_eq!(reply.data.len(), 1);
    let p = reply.meta.and_then(|m| m.pagination).expect("pagination");
    assert_eq!((p.next_p, p.last_p, p.total), (Some(3), Some(3), Some(51)));
}

#[tokio::test]
async fn club_search_sends_filter_q_only() {
    let server = MockServer::start().await;
    auth_headers(Mock::given(method("GET")).and(path("/v1/clubs")))
        .and(query_param("filter[q]", "หุ่นยนต์"))
        .and(query_param("sort[by][0]", "id"))
        .and(query_param("pagination[p]", "1"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(envelope(json!([{"id": Uuid::new_v4()}]))),
        )
        .expect(1)
        .mount(&server)
        .await;
    let reply = client(&server)
        .search_clubs(
            &ClubQuery::Text("หุ่นยนต์".into()),
            Page::default(),
            Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
        )
        .await
        .expect("search");
    assert_eq!(reply.data.len(), 1);
    let q = club_admin::api::query::club_list_query(
        &ClubQuery::Text("x".into()),
        Page::default(),
        Levels::ID_ONLY,
    );
    assert!(
        !q.iter().any(|(k, _)| k.starts_with("filter[data]")),
        "never mixes filter[q] with filter[data]"
    );
}

#[tokio::test]
async fn no_token_means_no_authorization_header() {
    let server = MockServer::start().await;
    let id = Uuid::new_v4();
    Mock::given(method("GET"))
        .and(path(format!("/v1/clubs/{id}")))
        .and(header_exists("authorization"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/v1/clubs/{id}")))
        .and(header("X-Api-Key", KEY))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({"id": id}))))
        .mount(&server)
        .await;
    let cl = keyed_client(&server);
    assert!(!cl.has_token());
    cl.club(id, Levels::ID_ONLY)
        .await
        .expect("key-only read works");
}

async fn error_for(template: ResponseTemplate) -> ApiError {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(template)
        .mount(&server)
        .await;
    let mut o = options();
    o.get_retries = 0;
    let cl = ApiClient::new(
        &server.uri(),
        Credentials::new(Some(KEY.into()), Some(TOKEN.into())),
        o,
    )
    .expect("client");
    cl.club_request(Uuid::new_v4(), Levels::REQUEST_ROW)
        .await
        .expect_err("must fail")
}

/// A revoked key: the deployed service answers 401 `missing_api_key` "Missing API Key" to a
/// key it does not know. Sent with a key, that is the key refused, in both languages; sent
/// without one, the key is missing.
#[tokio::test]
async fn a_revoked_key_is_refused_not_missing() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(401).set_body_json(error_body(
            401,
            "missing_api_key",
            "Missing API Key",
        )))
        .mount(&server)
        .await;
    let mut o = options();
    o.get_retries = 0;
    for (key, kind) in [
        (Some(KEY.to_owned()), AuthErrorKind::InvalidKey),
        (None, AuthErrorKind::MissingKey),
    ] {
        let cl = ApiClient::new(
            &server.uri(),
            Credentials::new(key.clone(), Some(TOKEN.into())),
            o.clone(),
        )
        .expect("client");
        let e = cl.current_user().await.expect_err("refused");
        assert!(
            matches!(&e, ApiError::Unauthorized { kind: k, .. } if *k == kind),
            "{key:?}: {e:?}"
        );
        assert!(!e.needs_sign_in(), "a new token does not help: {e:?}");
        if key.is_some() {
            let en = e.describe(club_admin::i18n::Lang::English);
            assert!(
                en.contains("the API key was refused (unknown, revoked or expired)"),
                "{en}"
            );
            assert!(!en.contains("no API key was sent"), "{en}");
            let th = e.describe(club_admin::i18n::Lang::Thai);
            assert!(th.contains("คีย์ API ถูกปฏิเสธ"), "{th}");
        }
    }
}

#[tokio::test]
async fn error_classes_from_json_bodies() {
    let cases = [
        // The deployed service's answer to a key it does not know (revoked, expired): this
        // client sent one, so the key was refused, not missing.
        (401, "missing_api_key", AuthErrorKind::InvalidKey),
        (401, "invalid_api_key", AuthErrorKind::InvalidKey),
        (401, "missing_token", AuthErrorKind::MissingToken),
        (
            401,
            "invalid_authorization_scheme",
            AuthErrorKind::MissingToken,
        ),
        (401, "invalid_token", AuthErrorKind::InvalidToken),
    ];
    for (code, et, kind) in cases {
        let e = error_for(ResponseTemplate::new(code).set_body_json(error_body(code, et, "nope")))
            .await;
        match &e {
            ApiError::Unauthorized { kind: k, info } => {
                assert_eq!(*k, kind, "{et}");
                assert_eq!(info.status, Some(401));
                assert_eq!(info.detail.as_deref(), Some("nope"));
                assert_eq!(
                    info.error_id.as_deref(),
                    Some("3f1c1d5e-8a4b-4e57-9d1f-0a3c1b2d4e5f")
                );
            }
            other => panic!("{et}: got {other:?}"),
        }
    }
    let e = error_for(ResponseTemplate::new(403).set_body_json(error_body(
        403,
        "invalid_permission",
        "Club request has already been approved",
    )))
    .await;
    assert!(matches!(e, ApiError::Forbidden(_)), "{e:?}");
    assert!(
        e.to_string()
            .contains("Club request has already been approved"),
        "{e}"
    );
    let e = error_for(ResponseTemplate::new(404).set_body_json(error_body(
        404,
        "entity_not_found",
        "Club request not found",
    )))
    .await;
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
    let e = error_for(ResponseTemplate::new(404).set_body_json(error_body(
        404,
        "entity_not_found",
        "Route not found",
    )))
    .await;
    assert!(
        matches!(e, ApiError::OperationUnavailable(_)) && e.is_unavailable(),
        "{e:?}"
    );
    let e = error_for(ResponseTemplate::new(400).set_body_json(error_body(
        400,
        "invalid_request",
        "Json deserialize error: unknown variant `x`",
    )))
    .await;
    assert!(matches!(e, ApiError::Invalid(_)), "{e:?}");
    let e = error_for(ResponseTemplate::new(409).set_body_json(error_body(
        409,
        "conflicted",
        "conflict",
    )))
    .await;
    assert!(matches!(e, ApiError::Conflict(_)), "{e:?}");
    let e = error_for(ResponseTemplate::new(500).set_body_json(error_body(
        500,
        "internal_server_error",
        "boom",
    )))
    .await;
    assert!(
        matches!(e, ApiError::Server(ref i) if i.status == Some(500)),
        "{e:?}"
    );
    let e = error_for(ResponseTemplate::new(503).set_body_json(error_body(
        503,
        "service_unavailable",
        "later",
    )))
    .await;
    assert!(
        matches!(e, ApiError::Server(ref i) if i.status == Some(503)) && e.is_transient(),
        "{e:?}"
    );
}

#[tokio::test]
async fn text_plain_404_and_html_502_become_excerpts() {
    let e = error_for(
        ResponseTemplate::new(404).set_body_raw("Invalid URL: UUID parsing failed", "text/plain"),
    )
    .await;
    match &e {
        ApiError::NotFound(info) => {
            assert_eq!(
                info.excerpt.as_deref(),
                Some("Invalid URL: UUID parsing failed")
            );
            assert_eq!(info.detail, None);
        }
        other => panic!("got {other:?}"),
    }
    let html = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>\x1b[31m<hr>nginx</body></html>";
    let e = error_for(ResponseTemplate::new(502).set_body_raw(html, "text/html")).await;
    match &e {
        ApiError::Server(info) => {
            let ex = info.excerpt.as_deref().expect("excerpt");
            assert!(
                ex.contains("502 Bad Gateway") && ex.contains("nginx"),
                "{ex}"
            );
            assert!(!ex.contains('<') && !ex.contains('\x1b'), "{ex}");
        }
        other => panic!("got {other:?}"),
    }
    let e = error_for(ResponseTemplate::new(500)).await;
    assert!(
        matches!(e, ApiError::Server(ref i) if i.excerpt.is_none()),
        "empty 500: {e:?}"
    );
}

#[tokio::test]
async fn malformed_json_and_null_data_are_decode_errors() {
    let e = error_for(ResponseTemplate::new(200).set_body_raw(
        "{\"api_version\":\"0.8.4\",\"data\":{\"id\":",
        "application/json",
    ))
    .await;
    assert!(
        matches!(
            e,
            ApiError::Decode {
                status: Some(200),
                ..
            }
        ),
        "{e:?}"
    );
    let e = error_for(
        ResponseTemplate::new(200)
            .set_body_json(json!({"api_version": "0.8.4", "data": {"id": "not-a-uuid"}})),
    )
    .await;
    assert!(matches!(e, ApiError::Decode { .. }), "{e:?}");
    let e = error_for(ResponseTemplate::new(200).set_body_json(envelope(json!(null)))).await;
    assert!(
        matches!(e, ApiError::Decode { .. }),
        "null data on a read: {e:?}"
    );
}

#[tokio::test]
async fn slow_server_hits_the_timeout() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(envelope(json!({"id": Uuid::new_v4()})))
                .set_delay(Duration::from_secs(5)),
        )
        .mount(&server)
        .await;
    let mut o = options();
    o.request_timeout = Duration::from_millis(100);
    o.get_retries = 0;
    let cl = ApiClient::new(&server.uri(), Credentials::default(), o).expect("client");
    let e = cl
        .club(Uuid::new_v4(), Levels::ID_ONLY)
        .await
        .expect_err("timeout");
    assert!(
        matches!(
            e,
            ApiError::Timeout {
                millis: 100,
                tries: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("timed out"), "{e}");
}

/// A server that accepts connections, reads what is sent and never answers (the silent
/// server of issue 31); the connections stay open while the task runs.
async fn silent_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = listener.accept().await {
            held.push(sock);
        }
    });
    format!("http://{addr}")
}

/// `--timeout 5` (the client's `request_timeout`) against a silent server, on tokio's paused
/// clock: a read is tried three times (the client's own retries), so it ends after 15 s and
/// the waits between the tries, and its words say that, not "timed out after 5.0 s". A
/// single try ends at 5 s and says so.
#[tokio::test(start_paused = true)]
async fn a_silent_server_is_given_up_on_and_the_words_say_how_long_it_took() {
    let url = silent_server().await;
    let mut o = options();
    o.request_timeout = Duration::from_secs(5);
    // Longer than the try: a connection still being made is cut by the request's limit.
    o.connect_timeout = Duration::from_secs(60);
    let cl = ApiClient::new(&url, Credentials::default(), o).expect("client");
    let started = tokio::time::Instant::now();
    let e = cl.current_user().await.expect_err("silent");
    let took = started.elapsed();
    let ApiError::Timeout {
        millis,
        tries,
        spent_millis,
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!((millis, tries), (5000, 3), "{e}");
    assert!(
        took >= Duration::from_secs(15) && took < Duration::from_secs(16),
        "{took:?}"
    );
    assert!(
        spent_millis.abs_diff(took.as_millis() as u64) < 10,
        "{e}: {took:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "no answer in {:.1} s: 3 tries, the last timed out after 5.0 s",
            spent_millis as f64 / 1000.0
        )
    );

    let started = tokio::time::Instant::now();
    let e = cl.single_try().current_user().await.expect_err("silent");
    assert_eq!(started.elapsed(), Duration::from_secs(5));
    assert_eq!(e.to_string(), "timed out after 5.0 s");

    // The command line's reads (`requests list`'s pages, the reads before a run): five
    // single tries 1, 2, 4 and 8 s apart, 40 s in all, and the words say so.
    let once = cl.single_try();
    let control = club_admin::ops::Control::default();
    let started = tokio::time::Instant::now();
    let e = club_admin::ops::run::with_tries(&control, || {
        once.club_request(Uuid::new_v4(), Levels::REQUEST_ROW)
    })
    .await
    .expect_err("silent");
    assert_eq!(
        started.elapsed(),
        Duration::from_secs(5 * 5 + 1 + 2 + 4 + 8)
    );
    assert_eq!(
        e.to_string(),
        "no answer in 40.0 s: 5 tries, the last timed out after 5.0 s"
    );
}

/// A server that accepts connections and closes them without answering.
async fn closing_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let c = count.clone();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            c.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            use tokio::io::AsyncReadExt;
            let mut buf = [0u8; 4096];
            let _ = sock.read(&mut buf).await;
            drop(sock);
        }
    });
    (format!("http://{addr}"), count)
}

#[tokio::test]
async fn closed_connection_is_connect_error_and_reads_retry_but_writes_do_not() {
    let (url, count) = closing_server().await;
    let cl = ApiClient::new(
        &url,
        Credentials::new(Some(KEY.into()), Some(TOKEN.into())),
        options(),
    )
    .expect("client");
    let e = cl
        .club_request(Uuid::new_v4(), Levels::REQUEST_ROW)
        .await
        .expect_err("closed");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    let reads = count.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(reads, 3, "a GET is tried 1 + 2 times");
    let e = cl
        .update_club_request(
            Uuid::new_v4(),
            &MembershipStatus::Approved,
            Levels::REQUEST_ROW,
        )
        .await
        .expect_err("closed");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    let e = cl
        .delete_club_request(Uuid::new_v4())
        .await
        .expect_err("closed");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    assert_eq!(
        count.load(std::sync::atomic::Ordering::SeqCst),
        reads + 2,
        "PUT and DELETE are sent once each"
    );
}

#[tokio::test]
async fn connection_refused_is_connect_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let mut o = options();
    o.get_retries = 0;
    let cl = ApiClient::new(&format!("http://{addr}"), Credentials::default(), o).expect("client");
    let e = cl.current_user().await.expect_err("refused");
    assert!(
        matches!(&e, ApiError::Connect { .. }) && e.to_string().contains("could not connect"),
        "{e:?}"
    );
}

#[tokio::test]
async fn get_retries_on_503_then_succeeds() {
    let server = MockServer::start().await;
    let id = Uuid::new_v4();
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503).set_body_json(error_body(
            503,
            "service_unavailable",
            "later",
        )))
        .up_to_n_times(1)
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(envelope(json!({"id": id}))))
        .expect(1)
        .mount(&server)
        .await;
    let r = client(&server)
        .club(id, Levels::ID_ONLY)
        .await
        .expect("second try");
    assert_eq!(r.data.id, id);
}

#[tokio::test]
async fn put_is_not_retried_on_503() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(503).set_body_json(error_body(
            503,
            "service_unavailable",
            "later",
        )))
        .expect(1)
        .mount(&server)
        .await;
    let e = client(&server)
        .update_club_request(
            Uuid::new_v4(),
            &MembershipStatus::Approved,
            Levels::REQUEST_ROW,
        )
        .await
        .expect_err("503");
    assert!(matches!(e, ApiError::Server(_)));
}

#[tokio::test]
async fn oversized_body_is_refused() {
    let big = format!(
        "{{\"data\":{{\"id\":\"{}\",\"pad\":\"{}\"}}}}",
        Uuid::new_v4(),
        "x".repeat(10 * 1024 * 1024)
    );
    let e = error_for(ResponseTemplate::new(200).set_body_raw(big, "application/json")).await;
    assert!(
        matches!(&e, ApiError::Decode { message, .. } if message.contains("larger")),
        "{e:?}"
    );
}

#[tokio::test]
async fn secrets_never_appear_in_debug_or_errors() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(401).set_body_json(error_body(
            401,
            "invalid_token",
            "Invalid access token",
        )))
        .mount(&server)
        .await;
    let creds = Credentials::new(Some(KEY.into()), Some(TOKEN.into()));
    let cl = ApiClient::new(&server.uri(), creds.clone(), options()).expect("client");
    let e = cl.current_user().await.expect_err("401");
    assert!(e.needs_sign_in());
    let texts = [
        format!("{creds:?}"),
        format!("{cl:?}"),
        format!("{e}"),
        format!("{e:?}"),
    ];
    for t in texts {
        assert!(!t.contains(KEY), "key leaked: {t}");
        assert!(!t.contains(TOKEN), "token leaked: {t}");
        assert!(!t.contains("0123456789abcdef"), "key part leaked: {t}");
    }
}

#[test]
fn base_url_rules() {
    assert!(validate_base_url("http://127.0.0.1:8080", false).is_ok());
    assert!(validate_base_url("http://localhost:8080/", false).is_ok());
    assert!(validate_base_url("http://[::1]:8080", false).is_ok());
    assert!(validate_base_url("https://api.example.ac.th/", false).is_ok());
    let e = validate_base_url("http://api.example.ac.th", false).expect_err("insecure");
    assert!(e.to_string().contains("unencrypted"), "{e}");
    assert!(validate_base_url("http://api.example.ac.th", true).is_ok());
    assert!(validate_base_url("ftp://x", false).is_err());
    assert!(validate_base_url("not a url", false).is_err());
    let u = validate_base_url("https://h.example/api/", false).expect("ok");
    assert_eq!(u.path(), "/api");
}

#[test]
fn jwt_expiry_and_pasted_tokens() {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let tok = format!(
        "{}.{}.{}",
        b64.encode("{\"alg\":\"HS256\"}"),
        b64.encode("{\"sub\":\"u\",\"iat\":1,\"exp\":1795366541}"),
        b64.encode("sig")
    );
    assert_eq!(jwt_expiry(&tok).map(|t| t.timestamp()), Some(1795366541));
    assert_eq!(jwt_expiry("abc"), None);
    assert_eq!(jwt_expiry("a.b.c"), None);
    use secrecy::ExposeSecret;
    assert_eq!(
        parse_pasted_token(&format!("  {tok}\n"))
            .expect("raw")
            .expose_secret(),
        tok
    );
    assert_eq!(
        parse_pasted_token(&format!("Bearer {tok}"))
            .expect("bearer")
            .expose_secret(),
        tok
    );
    let page = format!(
        "{{\"api_version\":\"0.8.4\",\"data\":{{\"access_token\":\"{tok}\",\"token_type\":\"Bearer\"}},\"error\":null}}"
    );
    assert_eq!(
        parse_pasted_token(&page)
            .expect("json page")
            .expose_secret(),
        tok
    );
    assert_eq!(parse_pasted_token("").unwrap_err(), TokenError::Empty);
    assert_eq!(
        parse_pasted_token("{\"data\":{}}").unwrap_err(),
        TokenError::NoAccessToken
    );
    assert_eq!(
        parse_pasted_token("two words").unwrap_err(),
        TokenError::Malformed
    );
}

#[test]
fn timestamps_parse_with_zero_to_nine_fraction_digits() {
    for t in [
        "2026-11-22T08:20:31Z",
        "2026-11-22T08:20:31.5Z",
        "2026-11-22T08:20:31.565Z",
        "2026-11-22T08:20:31.291094Z",
        "2026-11-22T08:20:31.565326358Z",
        "2026-11-22T08:20:31.565326358+07:00",
    ] {
        assert!(parse_timestamp(t).is_some(), "{t}");
    }
    assert!(parse_timestamp("yesterday").is_none());
    let r: ClubRequest =
        serde_json::from_value(json!({"id": Uuid::new_v4(), "created_at": "garbage"}))
            .expect("tolerant");
    assert!(r.created_at.is_none());
}

#[test]
fn fetch_levels_round_trip() {
    for l in FetchLevel::ALL {
        assert_eq!(FetchLevel::parse(l.as_str()), Some(l));
        assert_eq!(serde_json::to_value(l).expect("ser"), json!(l.as_str()));
    }
    assert_eq!(FetchLevel::IdOnly.raise(), FetchLevel::Compact);
    assert_eq!(FetchLevel::Detailed.raise(), FetchLevel::Detailed);
    assert_eq!(FetchLevel::IdOnly.lower(), FetchLevel::IdOnly);
    let m: MultiLangText = serde_json::from_value(json!("ชื่อ")).expect("plain string");
    assert_eq!(m.best(), Some("ชื่อ"));
    let m: MultiLangText =
        serde_json::from_value(json!({"en-US": null, "th": null})).expect("both null");
    assert_eq!(m.best(), None);
}

#[test]
fn secrets_that_cannot_be_headers_are_refused_at_once() {
    let e = ApiClient::new(
        "https://x.example",
        Credentials::new(Some("mysk_a\u{7}b".into()), None),
        ClientOptions::default(),
    )
    .expect_err("control character");
    assert!(e.to_string().contains("API key has characters"), "{e}");
    assert!(
        !e.to_string().contains("mysk_a"),
        "the secret is not echoed"
    );
}

/// Issue 34, item 5: the worker tries a read as its effect says, by one policy. A row's
/// re-read (`Tries::Once`) reaches a failing service once; a first read (`Tries::Client`)
/// is tried again by the client (`get_retries` 2: three in all).
#[tokio::test]
async fn the_worker_tries_a_read_once_or_by_the_client_as_its_effect_says() {
    use club_admin::app::{ApiCall, Msg, Tries};
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(
            "/v1/clubs/requests/00000000-0000-0000-0000-000000000001",
        ))
        .respond_with(ResponseTemplate::new(503).set_body_json(error_body(
            503,
            "service_unavailable",
            "down for a moment",
        )))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(
            "/v1/clubs/requests/00000000-0000-0000-0000-000000000002",
        ))
        .respond_with(ResponseTemplate::new(503).set_body_json(error_body(
            503,
            "service_unavailable",
            "down for a moment",
        )))
        .expect(3)
        .mount(&server)
        .await;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let worker = club_admin::runtime::worker::spawn(client(&server), 4, tx);
    let read = |n: u128| ApiCall::GetRequest {
        id: Uuid::from_u128(n),
        levels: Levels::default(),
    };
    worker.send_after(1, read(1), Tries::Once, None);
    worker.send_after(2, read(2), Tries::Client, None);
    let mut answered = Vec::new();
    while answered.len() < 2 {
        let msg = tokio::time::timeout(Duration::from_secs(20), rx.recv())
            .await
            .expect("an answer, not a hang")
            .expect("the worker is alive");
        if let Msg::Api { request_id, answer } = msg {
            assert!(answer.error().is_some(), "{answer:?}");
            answered.push(request_id);
        }
    }
    answered.sort();
    assert_eq!(answered, vec![1, 2]);
    // The mocks' `expect` counts are checked when the server drops.
}

/// Two sessions' clients of one `serve-ssh` (`for_session` of a client sharing the listing's
/// store) list the same page at once at `levels`, each with its own token: how many calls
/// reach the server.
async fn listed_together(levels: Levels) -> usize {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/clubs/requests"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_delay(Duration::from_millis(200))
                .set_body_json(envelope(
                    json!([{"id": Uuid::new_v4(), "membership_status":"pending"}]),
                )),
        )
        .mount(&server)
        .await;
    let operator =
        keyed_client(&server).sharing_listing(club_admin::api::client::SharedListing::new());
    let sessions = [operator.for_session(), operator.for_session()];
    for s in &sessions {
        s.set_token(Some(secrecy::SecretString::from(TOKEN.to_owned())));
    }
    let filter = RequestFilter {
        membership_status: Some(MembershipStatus::Pending),
        ..RequestFilter::default()
    };
    let page = |c: &ApiClient| {
        let (c, filter) = (c.clone(), filter.clone());
        async move {
            c.list_club_requests(&filter, &Sort::default(), Page::new(1, 50), levels)
                .await
        }
    };
    let (a, b) = tokio::join!(page(&sessions[0]), page(&sessions[1]));
    assert!(a.is_ok() && b.is_ok(), "{a:?} {b:?}");
    server.received_requests().await.map_or(0, |r| r.len())
}

#[tokio::test]
async fn sessions_share_a_listing_read_only_at_compact_students() {
    // The queue's level (students and clubs at `compact`): one read for both sessions.
    assert_eq!(listed_together(Levels::REQUEST_ROW).await, 1);
    // `default` students depend on who asks (a student is refused those outside its
    // classroom): each session reads on its own.
    let default = Levels::new(FetchLevel::Default, FetchLevel::Default);
    assert_eq!(listed_together(default).await, 2);
}

/// A client whose calls run on a thread of their own (`serve-ssh`'s): a caller that gives
/// up (a session closed mid-call) gives its place back, and a write given up while it
/// waited for room holds no read back.
#[tokio::test]
async fn calls_on_their_own_thread_give_their_place_back_when_the_caller_gives_up() {
    let base = silent_server().await;
    let client = ApiClient::new(
        &base,
        Credentials::new(Some(KEY.into()), Some(TOKEN.into())),
        ClientOptions {
            allow_insecure_http: true,
            get_retries: 0,
            concurrency: 1,
            fixed_concurrency: true,
            ..options()
        },
    )
    .expect("client")
    .calls_on_own_thread()
    .expect("thread");
    let mut in_flight = client.limiter().watch_in_flight();
    let reading = client.clone();
    let read = tokio::spawn(async move { reading.health().await });
    in_flight.wait_for(|n| *n == 1).await.expect("sent");
    let writing = client.clone();
    let write = tokio::spawn(async move { writing.delete_club_request(Uuid::nil()).await });
    tokio::task::yield_now().await;
    write.abort();
    read.abort();
    in_flight.wait_for(|n| *n == 0).await.expect("given back");
    let again = client.clone();
    let read = tokio::spawn(async move { again.health().await });
    in_flight
        .wait_for(|n| *n == 1)
        .await
        .expect("the next read has the room: the write given up holds it back no more");
    read.abort();
    in_flight.wait_for(|n| *n == 0).await.expect("given back");
    assert_eq!(client.limiter().pace().in_flight, 0);
}
