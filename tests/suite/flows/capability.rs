//! The capability probe: does this server approve and decline, for this
//! account? Against the demo server in both versions and against wiremock with the deployed
//! bodies of api-notes.md.

use std::time::Duration;

use club_admin::api::*;
use club_admin::demo::{self, DemoHandle, DemoOptions, ServiceVersion};
use serde_json::json;
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "mysk_testkey_0123456789abcdef";
const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4IiwiZXhwIjoxODAwMDAwMDAwfQ.c2lnbmF0dXJl";
const NIL_PATH: &str = "/v1/clubs/requests/00000000-0000-0000-0000-000000000000";

fn options() -> ClientOptions {
    ClientOptions {
        connect_timeout: Duration::from_secs(2),
        request_timeout: Duration::from_secs(3),
        get_retries: 0,
        ..ClientOptions::default()
    }
}

fn demo_client(d: &DemoHandle, label: &str) -> ApiClient {
    let u = d.user(label).expect("user");
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        options(),
    )
    .expect("client")
}

async fn demo_server(version: ServiceVersion) -> DemoHandle {
    demo::start(DemoOptions {
        api_version: version,
        ..DemoOptions::default()
    })
    .await
    .expect("demo")
}

#[tokio::test]
async fn probe_against_the_demo_in_both_versions() {
    let old = demo_server(ServiceVersion::V0_8).await;
    let new = demo_server(ServiceVersion::V0_9).await;
    assert_eq!(
        demo_client(&old, "moderator").probe_update_route().await,
        Ok(UpdateRoute::Present),
        "moderator on 0.8"
    );
    // A teacher and an administrator are not students: refused (api-notes.md, "Who may do
    // what").
    for label in ["teacher", "admin"] {
        assert_eq!(
            demo_client(&old, label).probe_update_route().await,
            Ok(UpdateRoute::RoleRefused {
                detail: ROLE_REFUSAL_DETAIL.into()
            }),
            "{label} on 0.8"
        );
    }
    for label in ["moderator", "teacher", "admin"] {
        assert_eq!(
            demo_client(&new, label).probe_update_route().await,
            Ok(UpdateRoute::Missing),
            "{label} on 0.9"
        );
    }
    assert!(
        old.mutations().is_empty() && new.mutations().is_empty(),
        "the probe changed nothing"
    );
    // Without a token the probe cannot tell: the 401 comes back as the error.
    let key_only = ApiClient::new(
        &old.base_url,
        Credentials::new(Some(old.moderator().api_key.clone()), None),
        options(),
    )
    .expect("client");
    let e = key_only.probe_update_route().await.expect_err("401");
    assert!(e.needs_sign_in(), "{e:?}");
}

#[tokio::test]
async fn real_answers_teach_the_same_as_the_probe() {
    let old = demo_server(ServiceVersion::V0_8).await;
    let new = demo_server(ServiceVersion::V0_9).await;
    let id = new.pending_for("moderator")[0];
    let r = demo_client(&new, "moderator")
        .update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await;
    assert_eq!(UpdateRoute::learned_from(&r), Some(UpdateRoute::Missing));
    let id = old.pending_for("moderator")[0];
    let r = demo_client(&old, "teacher")
        .update_club_request(id, &MembershipStatus::Declined, Levels::ID_ONLY)
        .await;
    let err = r.as_ref().expect_err("teacher");
    assert!(err.is_role_refusal(), "{err:?}");
    assert_eq!(
        UpdateRoute::learned_from(&r)
            .and_then(|u| u.notice())
            .as_deref(),
        Some("this account cannot approve or decline: User is not a student")
    );
    // Refusals about one request teach nothing about the route.
    let r = demo_client(&old, "moderator")
        .update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await;
    assert!(r.is_ok());
    assert_eq!(UpdateRoute::learned_from(&r), None);
    let r = demo_client(&old, "moderator")
        .update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await;
    let err = r.as_ref().expect_err("already approved");
    assert!(!err.is_role_refusal() && !err.is_unavailable(), "{err:?}");
    assert_eq!(UpdateRoute::learned_from(&r), None);
}

fn error_body(code: u16, error_type: &str, detail: &str) -> serde_json::Value {
    json!({"api_version":"0.9.0","data":null,"meta":null,
           "error":{"id":"3f1c1d5e-8a4b-4e57-9d1f-0a3c1b2d4e5f","code":code,"error_type":error_type,"detail":detail,"source":"x"}})
}

async fn probe_with(answer: ResponseTemplate) -> Result<UpdateRoute, ApiError> {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path(NIL_PATH))
        .and(header("X-Api-Key", KEY))
        .and(header("Authorization", format!("Bearer {TOKEN}").as_str()))
        .and(body_json(json!({
            "data": {"status": "approved"},
            "fetch_level": "id_only",
            "descendant_fetch_level": "id_only"
        })))
        .respond_with(answer)
        .expect(1)
        .mount(&server)
        .await;
    let client = ApiClient::new(
        &server.uri(),
        Credentials::new(Some(KEY.into()), Some(TOKEN.into())),
        options(),
    )
    .expect("client");
    client.probe_update_route().await
}

#[tokio::test]
async fn probe_classifies_the_deployed_answers() {
    let json = |code: u16, t: &str, d: &str| {
        ResponseTemplate::new(code).set_body_json(error_body(code, t, d))
    };
    assert_eq!(
        probe_with(json(404, "entity_not_found", "Route not found")).await,
        Ok(UpdateRoute::Missing)
    );
    assert_eq!(
        probe_with(json(404, "entity_not_found", "route not found")).await,
        Ok(UpdateRoute::Missing),
        "case does not matter"
    );
    assert_eq!(
        probe_with(json(
            404,
            "entity_not_found",
            "Club request 00000000-0000-0000-0000-000000000000 not found"
        ))
        .await,
        Ok(UpdateRoute::Present)
    );
    assert_eq!(
        probe_with(json(404, "entity_not_found", "Not found")).await,
        Ok(UpdateRoute::Present)
    );
    assert_eq!(
        probe_with(json(403, "invalid_permission", "User is not a student")).await,
        Ok(UpdateRoute::RoleRefused {
            detail: "User is not a student".into()
        })
    );
    assert_eq!(
        probe_with(json(
            403,
            "invalid_permission",
            "Student must be a staff member of the club to update club requests"
        ))
        .await,
        Ok(UpdateRoute::Present)
    );
    assert_eq!(
        probe_with(json(400, "invalid_request", "Json deserialize error: x")).await,
        Ok(UpdateRoute::Present)
    );
    assert_eq!(
        probe_with(ResponseTemplate::new(405)).await,
        Ok(UpdateRoute::Missing),
        "a bare 405 means no such operation"
    );
    let e = probe_with(json(401, "invalid_token", "Access token has expired"))
        .await
        .expect_err("401");
    assert!(
        matches!(
            e,
            ApiError::Unauthorized {
                kind: AuthErrorKind::InvalidToken,
                ..
            }
        ),
        "{e:?}"
    );
    let e = probe_with(json(503, "service_unavailable", "Service unavailable"))
        .await
        .expect_err("503");
    assert!(e.is_transient(), "{e:?}");
    let e = probe_with(
        ResponseTemplate::new(404)
            .insert_header("content-type", "text/html")
            .set_body_string("<html><body><h1>404 Not Found</h1>nginx</body></html>"),
    )
    .await
    .expect_err("a proxy's 404 says nothing about the service");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
}

#[tokio::test]
async fn probe_over_a_dead_connection_is_an_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    let client = ApiClient::new(
        &format!("http://{addr}"),
        Credentials::new(Some(KEY.into()), Some(TOKEN.into())),
        options(),
    )
    .expect("client");
    let e = client.probe_update_route().await.expect_err("refused");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
}

#[test]
fn role_refusal_is_only_the_role_text() {
    let refusal = |detail: &str| {
        ApiError::from_response(
            403,
            error_body(403, "invalid_permission", detail)
                .to_string()
                .as_bytes(),
        )
    };
    assert!(refusal(ROLE_REFUSAL_DETAIL).is_role_refusal());
    for other in [
        "Insufficient permissions to perform this action",
        "Club request has already been approved",
        "Student must be a staff member of the club to update club requests",
    ] {
        assert!(!refusal(other).is_role_refusal(), "{other}");
    }
    let not_found = ApiError::from_response(
        404,
        error_body(404, "entity_not_found", "User is not a student")
            .to_string()
            .as_bytes(),
    );
    assert!(!not_found.is_role_refusal(), "only a 403 refuses");
    assert_eq!(UpdateRoute::Present.notice(), None);
    assert!(UpdateRoute::Present.allows_decisions());
    assert!(!UpdateRoute::Missing.allows_decisions());
    assert_eq!(
        UpdateRoute::Missing.notice().as_deref(),
        Some("this server cannot approve or decline")
    );
}
