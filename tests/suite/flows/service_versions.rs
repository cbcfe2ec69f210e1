//! The demo server imitating both deployed services: 0.8.4 with the update route,
//! 0.9.0 without it; the 0.8.x role rule for teachers; joins per version. Real HTTP.

use std::time::Duration;

use club_admin::api::*;
use club_admin::demo::{self, DemoHandle, DemoOptions, ServiceVersion};
use serde_json::Value;
use uuid::Uuid;

async fn server(version: ServiceVersion) -> DemoHandle {
    demo::start(DemoOptions {
        api_version: version,
        ..DemoOptions::default()
    })
    .await
    .expect("demo starts")
}

fn as_user(d: &DemoHandle, label: &str) -> ApiClient {
    let u = d.user(label).expect("user");
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            request_timeout: Duration::from_secs(5),
            ..ClientOptions::default()
        },
    )
    .expect("client")
}

/// A raw call as `label`: status and JSON body (`Value::Null` when the body is not JSON).
async fn raw(
    d: &DemoHandle,
    label: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<&str>,
) -> (u16, Value) {
    let u = d.user(label).expect("user");
    let mut rb = reqwest::Client::new()
        .request(method, format!("{}{}", d.base_url, path))
        .header("X-Api-Key", &u.api_key)
        .header("Authorization", format!("Bearer {}", u.token));
    if let Some(b) = body {
        rb = rb
            .header("content-type", "application/json")
            .body(b.to_owned());
    }
    let r = rb.send().await.expect("send");
    let status = r.status().as_u16();
    let text = r.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The parts of an error answer that do not change per call (not `error.id`).
fn error_shape(body: &Value) -> Value {
    serde_json::json!({
        "api_version": body["api_version"],
        "code": body["error"]["code"],
        "error_type": body["error"]["error_type"],
        "detail": body["error"]["detail"],
        "data": body["data"],
        "meta": body["meta"],
    })
}

const APPROVE: &str =
    r#"{"data":{"status":"approved"},"fetch_level":"id_only","descendant_fetch_level":"id_only"}"#;

#[tokio::test]
async fn version_0_9_has_no_update_route_and_answers_as_for_an_unknown_route() {
    let d = server(ServiceVersion::V0_9).await;
    let id = d.pending_for("moderator")[0];
    let (status, unknown) = raw(
        &d,
        "moderator",
        reqwest::Method::GET,
        "/v1/nothing/here",
        None,
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(unknown["error"]["detail"], "Route not found");
    for path in [
        format!("/v1/clubs/requests/{id}"),
        format!("/v1/clubs/requests/{}", Uuid::nil()),
        // No route means no path parsing either: no text/plain "UUID parsing failed".
        "/v1/clubs/requests/not-a-uuid".to_owned(),
    ] {
        let (status, body) = raw(&d, "moderator", reqwest::Method::PUT, &path, Some(APPROVE)).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(error_shape(&body), error_shape(&unknown), "{path}");
        assert_eq!(body["api_version"], "0.9.0");
        assert_eq!(body["error"]["error_type"], "entity_not_found");
    }
    // Through the client: the class that says "this server lacks the operation".
    let e = as_user(&d, "moderator")
        .update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect_err("no route");
    assert!(
        matches!(&e, ApiError::OperationUnavailable(i) if i.detail.as_deref() == Some("Route not found")),
        "{e:?}"
    );
    assert!(e.is_unavailable());
    assert_eq!(d.request_status(id), Some(MembershipStatus::Pending));
    assert!(d.mutations().is_empty(), "nothing changed");
    // Reads, listing and delete work as before, in 0.9.0 envelopes.
    let cl = as_user(&d, "moderator");
    let user = cl.current_user().await.expect("user");
    assert_eq!(user.api_version.as_deref(), Some("0.9.0"));
    let read = cl
        .club_request(id, Levels::REQUEST_ROW)
        .await
        .expect("read");
    assert_eq!(read.api_version.as_deref(), Some("0.9.0"));
    assert_eq!(read.data.membership(), Some(&MembershipStatus::Pending));
    let page = cl
        .list_club_requests(
            &RequestFilter {
                membership_status: Some(MembershipStatus::Pending),
                ..RequestFilter::default()
            },
            &Sort::default(),
            Page::new(1, 5),
            Levels::ID_ONLY,
        )
        .await
        .expect("listing");
    assert_eq!(page.data.len(), 5);
    // Delete, by the rule of api-notes.md ("Who may do what"): an administrator is refused
    // as not a student, the request's own student deletes it.
    let e = as_user(&d, "admin")
        .delete_club_request(id)
        .await
        .expect_err("admin");
    assert!(
        matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("User is not a student")),
        "{e:?}"
    );
    assert_eq!(d.request_status(id), Some(MembershipStatus::Pending));
    let requester = as_user(&d, "requester");
    let me = requester.current_user().await.expect("requester").data;
    let sid = me.meta.and_then(|m| m.student_id).expect("a student");
    let own = d.join(sid, d.club_ids()[0]).expect("joined");
    requester.delete_club_request(own).await.expect("delete");
    assert_eq!(d.request_status(own), None);
    // An error built by another layer (injected faults) carries the version too.
    d.set_faults(demo::Faults {
        failure_rate: 1.0,
        ..demo::Faults::default()
    });
    let (status, body) = raw(&d, "moderator", reqwest::Method::GET, "/auth/user", None).await;
    assert!(status == 500 || status == 503, "{status}");
    assert_eq!(body["api_version"], "0.9.0");
}

#[tokio::test]
async fn joining_inserts_approved_on_0_9_and_pending_on_0_8() {
    for (version, expected) in [
        (ServiceVersion::V0_9, MembershipStatus::Approved),
        (ServiceVersion::V0_8, MembershipStatus::Pending),
    ] {
        let d = server(version).await;
        let club = d.club_ids()[0];
        let student = d.student_ids()[0];
        let id = d.join(student, club).expect("joined");
        assert_eq!(d.request_status(id), Some(expected.clone()), "{version:?}");
        let read = as_user(&d, "admin")
            .club_request(id, Levels::REQUEST_ROW)
            .await
            .expect("read");
        assert_eq!(read.data.membership(), Some(&expected), "{version:?}");
        assert_eq!(read.api_version.as_deref(), Some(version.label()));
        assert_eq!(d.join(student, Uuid::new_v4()), None, "unknown club");
    }
    // Requests joined at start (scale tests) follow the same rule.
    let d = demo::start(DemoOptions {
        api_version: ServiceVersion::V0_9,
        extra_requests: 5,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let fresh = demo::start(DemoOptions::default()).await.expect("demo");
    assert_eq!(
        d.pending_for("moderator").len(),
        fresh.pending_for("moderator").len(),
        "the five joined on 0.9 are not pending"
    );
}

#[tokio::test]
async fn version_0_8_keeps_the_route_and_refuses_teachers_as_not_students() {
    let d = server(ServiceVersion::V0_8).await;
    let id = d.pending_for("moderator")[0];
    let teacher = as_user(&d, "teacher");
    for status in [MembershipStatus::Approved, MembershipStatus::Declined] {
        for target in [id, Uuid::nil()] {
            let e = teacher
                .update_club_request(target, &status, Levels::ID_ONLY)
                .await
                .expect_err("teacher");
            assert!(
                matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("User is not a student")),
                "{status:?} {target}: {e:?}"
            );
        }
    }
    assert_eq!(d.request_status(id), Some(MembershipStatus::Pending));
    // Delete too: a teacher is not a student.
    let e = teacher.delete_club_request(id).await.expect_err("teacher");
    assert!(
        matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("User is not a student")),
        "{e:?}"
    );
    // The moderator still approves, in 0.8.4 envelopes.
    let r = as_user(&d, "moderator")
        .update_club_request(id, &MembershipStatus::Approved, Levels::REQUEST_ROW)
        .await
        .expect("approve");
    assert_eq!(r.api_version.as_deref(), Some("0.8.4"));
    assert_eq!(d.request_status(id), Some(MembershipStatus::Approved));
    // A method a path does not serve answers as an unknown route, on both versions.
    let (status, body) = raw(
        &d,
        "moderator",
        reqwest::Method::POST,
        &format!("/v1/clubs/requests/{id}"),
        Some(APPROVE),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["detail"], "Route not found");
    assert_eq!(body["api_version"], "0.8.4");
}

#[test]
fn version_names_parse() {
    for (text, v) in [
        ("0.8", ServiceVersion::V0_8),
        ("0.8.4", ServiceVersion::V0_8),
        ("0.9", ServiceVersion::V0_9),
        (" 0.9.0 ", ServiceVersion::V0_9),
    ] {
        assert_eq!(ServiceVersion::parse(text), Ok(v), "{text}");
    }
    let e = ServiceVersion::parse("1.0").expect_err("unknown");
    assert!(e.contains("0.8") && e.contains("0.9"), "{e}");
    assert_eq!(ServiceVersion::default(), ServiceVersion::V0_8);
}

#[test]
fn both_demo_commands_take_api_version_and_the_lost_answer_fault() {
    use clap::Parser;
    use club_admin::cli::{Cli, Command};
    let cli = Cli::try_parse_from(["club-admin", "demo", "--api-version", "0.9"]).expect("demo");
    assert!(
        matches!(cli.command, Some(Command::Demo(ref a)) if a.server.api_version == ServiceVersion::V0_9)
    );
    let cli = Cli::try_parse_from(["club-admin", "serve-demo", "--api-version", "0.9.0"])
        .expect("serve-demo");
    assert!(
        matches!(cli.command, Some(Command::ServeDemo(ref a)) if a.server.api_version == ServiceVersion::V0_9)
    );
    let cli = Cli::try_parse_from(["club-admin", "serve-demo"]).expect("default");
    assert!(
        matches!(cli.command, Some(Command::ServeDemo(ref a)) if a.server.api_version == ServiceVersion::V0_8)
    );
    let e = Cli::try_parse_from(["club-admin", "demo", "--api-version", "2"]).expect_err("bad");
    assert!(e.to_string().contains("0.9"), "{e}");
    // The fault that loses a write's answer after it committed, bounded to a share.
    let cli = Cli::try_parse_from(["club-admin", "serve-demo", "--drop-after-write-rate", "0.5"])
        .expect("rate");
    assert!(
        matches!(cli.command, Some(Command::ServeDemo(ref a)) if a.faults.to_faults().drop_after_write_rate == 0.5)
    );
    for bad in ["2", "1.5", "x"] {
        let e = Cli::try_parse_from(["club-admin", "demo", "--drop-after-write-rate", bad])
            .expect_err(bad);
        assert!(e.to_string().contains("0.0 to 1.0"), "{e}");
    }
}
