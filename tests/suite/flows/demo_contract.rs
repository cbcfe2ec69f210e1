//! Contract tests: the API client against the embedded demo server over real HTTP.
//! If the demo and the client disagree, one of them is wrong.

use std::time::Duration;

use club_admin::api::*;
use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};
use uuid::Uuid;

async fn server() -> DemoHandle {
    demo::start(DemoOptions::default())
        .await
        .expect("demo starts")
}

fn opts() -> ClientOptions {
    ClientOptions {
        get_retries: 0,
        request_timeout: Duration::from_secs(5),
        ..ClientOptions::default()
    }
}

fn as_user(d: &DemoHandle, label: &str) -> ApiClient {
    let u = d.user(label).expect("user");
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        opts(),
    )
    .expect("client")
}

/// The clubs the demo account `label` (a student) staffs, as the service's lookup answers.
async fn staffed_by(d: &DemoHandle, label: &str) -> Vec<Uuid> {
    let cl = as_user(d, label);
    let me = cl.current_user().await.expect("user").data;
    let sid = me.meta.and_then(|m| m.student_id).expect("a student");
    cl.search_clubs(
        &ClubQuery::StaffIds(vec![sid]),
        Page::default(),
        Levels::ID_ONLY,
    )
    .await
    .expect("staffed clubs")
    .data
    .into_iter()
    .map(|c| c.id)
    .collect()
}

/// The demo's `requester` account and a request of its own it just made (joined the first
/// club): the one kind of request it may delete.
async fn requesters_own(d: &DemoHandle) -> (ApiClient, Uuid) {
    let requester = as_user(d, "requester");
    let me = requester.current_user().await.expect("requester").data;
    let sid = me.meta.and_then(|m| m.student_id).expect("a student");
    let own = d.join(sid, d.club_ids()[0]).expect("joined");
    (requester, own)
}

fn key_only(d: &DemoHandle) -> ApiClient {
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(d.moderator().api_key.clone()), None),
        opts(),
    )
    .expect("client")
}

#[tokio::test]
async fn current_user_for_each_account() {
    let d = server().await;
    let m = as_user(&d, "moderator")
        .current_user()
        .await
        .expect("moderator");
    assert_eq!(m.api_version.as_deref(), Some("0.8.4"));
    assert_eq!(m.data.role.as_deref(), Some("student"));
    assert!(m.data.meta.and_then(|x| x.student_id).is_some());
    let a = as_user(&d, "admin")
        .current_user()
        .await
        .expect("admin")
        .data;
    assert_eq!(a.is_admin, Some(true));
    let t = as_user(&d, "teacher")
        .current_user()
        .await
        .expect("teacher")
        .data;
    assert_eq!(t.role.as_deref(), Some("teacher"));
    assert!(
        jwt_expiry(&d.moderator().token).is_some(),
        "demo tokens carry exp"
    );
}

#[tokio::test]
async fn unauthorised_classes() {
    let d = server().await;
    // The key is judged by a key-only read (a club); a read that needs a token and has none
    // is answered `missing_token` before the key is looked at, as the deployed service does.
    let levels = club_admin::api::Levels::new(
        club_admin::api::FetchLevel::IdOnly,
        club_admin::api::FetchLevel::IdOnly,
    );
    let none = ApiClient::new(&d.base_url, Credentials::default(), opts()).expect("client");
    let e = none
        .club(uuid::Uuid::nil(), levels)
        .await
        .expect_err("no key");
    assert!(
        matches!(
            e,
            ApiError::Unauthorized {
                kind: AuthErrorKind::MissingKey,
                ..
            }
        ),
        "{e:?}"
    );
    let bad = ApiClient::new(
        &d.base_url,
        Credentials::new(Some("mysk_nope_x".into()), None),
        opts(),
    )
    .expect("client");
    let e = bad
        .club(uuid::Uuid::nil(), levels)
        .await
        .expect_err("bad key");
    assert!(
        matches!(
            e,
            ApiError::Unauthorized {
                kind: AuthErrorKind::InvalidKey,
                ..
            }
        ),
        "{e:?}"
    );
    let e = bad.current_user().await.expect_err("bad key, no token");
    assert!(
        matches!(
            e,
            ApiError::Unauthorized {
                kind: AuthErrorKind::MissingToken,
                ..
            }
        ),
        "the token is asked for first: {e:?}"
    );
    let e = key_only(&d).current_user().await.expect_err("no token");
    assert!(
        matches!(
            e,
            ApiError::Unauthorized {
                kind: AuthErrorKind::MissingToken,
                ..
            }
        ),
        "{e:?}"
    );
    let wrong = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(d.moderator().api_key.clone()), Some("a.b.c".into())),
        opts(),
    )
    .expect("client");
    let e = wrong.current_user().await.expect_err("bad token");
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
    let expired = d
        .issue_token(
            "moderator",
            chrono::Utc::now() - chrono::Duration::minutes(1),
        )
        .expect("token");
    let old = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(d.moderator().api_key.clone()), Some(expired)),
        opts(),
    )
    .expect("client");
    let e = old.current_user().await.expect_err("expired");
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
    assert!(e.to_string().contains("expired"), "{e}");
}

#[tokio::test]
async fn key_only_reads_and_the_deployed_token_demand() {
    let d = server().await;
    let club = d.club_ids()[0];
    let c = key_only(&d)
        .club(club, Levels::new(FetchLevel::Compact, FetchLevel::IdOnly))
        .await
        .expect("club with key only");
    assert!(c.data.name.is_some());
    let req = d.pending_for("moderator")[0];
    let e = key_only(&d)
        .club_request(req, Levels::REQUEST_ROW)
        .await
        .expect_err("deployed: token demanded");
    assert!(
        matches!(
            e,
            ApiError::Unauthorized {
                kind: AuthErrorKind::MissingToken,
                ..
            }
        ),
        "{e:?}"
    );
}

#[tokio::test]
async fn fetch_levels_shape_records() {
    let d = server().await;
    let cl = as_user(&d, "admin");
    let club = d.club_ids()[0];
    let id_only = cl.club(club, Levels::ID_ONLY).await.expect("id_only").data;
    assert!(id_only.name.is_none() && id_only.contacts.is_none());
    let compact = cl
        .club(club, Levels::new(FetchLevel::Compact, FetchLevel::IdOnly))
        .await
        .expect("compact")
        .data;
    assert!(compact.name.is_some() && compact.member_count.is_some() && compact.contacts.is_none());
    let default = cl
        .club(club, Levels::new(FetchLevel::Default, FetchLevel::Default))
        .await
        .expect("default")
        .data;
    let contacts = default.contacts.expect("contacts at default");
    assert!(!contacts.is_empty() && contacts.iter().all(|c| c.value.is_some()));
    assert!(default.staffs.is_none());
    let detailed = cl
        .club(club, Levels::new(FetchLevel::Detailed, FetchLevel::Compact))
        .await
        .expect("detailed")
        .data;
    let staffs = detailed.staffs.expect("staffs at detailed");
    assert!(
        staffs
            .iter()
            .all(|s| s.student_id.is_some() && s.person.is_none())
    );
    let req = d.pending_for("moderator")[0];
    let r = cl
        .club_request(req, Levels::new(FetchLevel::Compact, FetchLevel::Compact))
        .await
        .expect("compact request")
        .data;
    assert!(
        r.membership().is_none() && r.club.is_none(),
        "compact request is {{id}}"
    );
    let r = cl
        .club_request(req, Levels::new(FetchLevel::Default, FetchLevel::Default))
        .await
        .expect("default")
        .data;
    assert_eq!(r.membership(), Some(&MembershipStatus::Pending));
    assert!(r.student.and_then(|s| s.person).is_some());
    let e = cl
        .club(Uuid::new_v4(), Levels::ID_ONLY)
        .await
        .expect_err("unknown club");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
}

/// The keys of each nested contact of a club read raw at `fetch_level` and
/// `descendant_fetch_level`, sorted; `None` when the club has no `contacts`.
async fn contact_keys(
    d: &DemoHandle,
    club: Uuid,
    level: &str,
    desc: &str,
) -> Option<Vec<Vec<String>>> {
    let a = d.user("admin").expect("admin");
    let body: serde_json::Value = reqwest::Client::new()
        .get(format!(
            "{}/v1/clubs/{club}?fetch_level={level}&descendant_fetch_level={desc}",
            d.base_url
        ))
        .header("X-Api-Key", &a.api_key)
        .header("Authorization", format!("Bearer {}", a.token))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("json");
    let contacts = body["data"].get("contacts")?.as_array()?.clone();
    Some(
        contacts
            .iter()
            .map(|c| {
                let mut k: Vec<String> = c.as_object().expect("object").keys().cloned().collect();
                k.sort();
                k
            })
            .collect(),
    )
}

/// Nested contacts have the deployed service's signature at every level (api-notes.md,
/// "Fetch levels": Contact `{id}` at id_only and compact, `{id, name, type, value}` at
/// default), so the demo hides no blank contact; and the core's club read gets them whole
/// at every level either face asks for.
#[tokio::test]
async fn nested_contacts_have_the_deployed_signature_at_every_level() {
    let d = server().await;
    let club = d
        .club_ids()
        .into_iter()
        .find(|c| !d.contact_values(*c).is_empty())
        .expect("a club with contacts");
    let bare = vec!["id".to_owned()];
    for level in ["id_only", "compact"] {
        for desc in ["id_only", "compact", "default", "detailed"] {
            assert_eq!(
                contact_keys(&d, club, level, desc).await,
                None,
                "{level}/{desc}"
            );
        }
    }
    for level in ["default", "detailed"] {
        for desc in ["id_only", "compact"] {
            let keys = contact_keys(&d, club, level, desc).await.expect("contacts");
            assert!(
                !keys.is_empty() && keys.iter().all(|k| *k == bare),
                "{level}/{desc}: {keys:?}"
            );
        }
        for desc in ["default", "detailed"] {
            let keys = contact_keys(&d, club, level, desc).await.expect("contacts");
            assert!(
                !keys.is_empty()
                    && keys.iter().all(|k| ["id", "name", "type", "value"]
                        .iter()
                        .all(|want| k.iter().any(|x| x == want))),
                "{level}/{desc}: {keys:?}"
            );
        }
    }
    // Both faces read the club through the core: contacts whole at default and detailed.
    let cl = as_user(&d, "moderator");
    for level in [FetchLevel::Default, FetchLevel::Detailed] {
        let levels = club_admin::ops::club_read::club_levels(level);
        let read = club_admin::ops::club_read::read_club(&cl, club, levels)
            .await
            .expect("club")
            .data;
        let mut values: Vec<String> = read
            .contacts
            .expect("contacts")
            .iter()
            .map(|c| {
                assert!(c.kind.is_some(), "{level:?}: {c:?}");
                c.value.clone().expect("value")
            })
            .collect();
        let mut want = d.contact_values(club);
        values.sort();
        want.sort();
        assert_eq!(values, want, "{level:?}");
    }
}

#[tokio::test]
async fn student_moderator_cannot_read_default_students_outside_classroom() {
    let d = server().await;
    let cl = as_user(&d, "moderator");
    let ids = d.pending_for("moderator");
    let mut refused = 0;
    for id in ids.iter().take(20) {
        cl.club_request(*id, Levels::REQUEST_ROW)
            .await
            .expect("compact students are fine");
        if let Err(ApiError::Forbidden(_)) = cl
            .club_request(*id, Levels::new(FetchLevel::Default, FetchLevel::Default))
            .await
        {
            refused += 1;
        }
    }
    assert!(
        refused > 0,
        "some students are outside the moderator's classroom"
    );
}

#[tokio::test]
async fn approve_then_read_and_delete_then_read() {
    let d = server().await;
    let cl = as_user(&d, "moderator");
    let ids = d.pending_for("moderator");
    let r = cl
        .update_club_request(ids[0], &MembershipStatus::Approved, Levels::REQUEST_ROW)
        .await
        .expect("approve")
        .data;
    assert_eq!(r.membership(), Some(&MembershipStatus::Approved));
    let read = cl
        .club_request(ids[0], Levels::REQUEST_ROW)
        .await
        .expect("read")
        .data;
    assert_eq!(read.membership(), Some(&MembershipStatus::Approved));
    assert_eq!(d.request_status(ids[0]), Some(MembershipStatus::Approved));
    let e = cl
        .update_club_request(ids[0], &MembershipStatus::Declined, Levels::REQUEST_ROW)
        .await
        .expect_err("no longer pending");
    assert!(
        matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("Club request has already been approved")),
        "{e:?}"
    );
    let e = cl
        .update_club_request(ids[1], &MembershipStatus::Pending, Levels::REQUEST_ROW)
        .await
        .expect_err("pending is 400");
    assert!(matches!(e, ApiError::Invalid(_)), "{e:?}");
    let r = cl
        .update_club_request(ids[1], &MembershipStatus::Declined, Levels::ID_ONLY)
        .await
        .expect("decline")
        .data;
    assert!(r.membership().is_none(), "id_only answer is {{id}}");
    assert_eq!(d.request_status(ids[1]), Some(MembershipStatus::Declined));
    // A student moderator may not delete another student's request (as deployed), nor an
    // administrator any; the student who made a request deletes it.
    let e = cl
        .delete_club_request(ids[2])
        .await
        .expect_err("staff: refused");
    assert!(
        matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("Student is not allowed to interact with this club request")),
        "{e:?}"
    );
    let e = as_user(&d, "admin")
        .delete_club_request(ids[2])
        .await
        .expect_err("admin: refused");
    assert!(
        matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("User is not a student")),
        "{e:?}"
    );
    assert_eq!(d.request_status(ids[2]), Some(MembershipStatus::Pending));
    let (requester, own) = requesters_own(&d).await;
    requester.delete_club_request(own).await.expect("delete");
    let e = cl
        .club_request(own, Levels::REQUEST_ROW)
        .await
        .expect_err("gone");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
    assert_eq!(d.request_status(own), None);
    let e = cl.delete_club_request(own).await.expect_err("twice");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
    let e = cl
        .update_club_request(Uuid::new_v4(), &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect_err("unknown");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
}

#[tokio::test]
async fn non_staff_are_refused() {
    let d = server().await;
    let id = d.pending_for("moderator")[0];
    let e = as_user(&d, "teacher")
        .update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect_err("teacher");
    assert!(matches!(e, ApiError::Forbidden(_)), "{e:?}");
    let e = as_user(&d, "teacher")
        .delete_club_request(id)
        .await
        .expect_err("teacher");
    assert!(matches!(e, ApiError::Forbidden(_)), "{e:?}");
    let all: Vec<Uuid> = d.club_ids();
    let mine: Vec<Uuid> = as_user(&d, "moderator")
        .search_clubs(
            &ClubQuery::StaffIds(vec![
                as_user(&d, "moderator")
                    .current_user()
                    .await
                    .expect("u")
                    .data
                    .meta
                    .and_then(|m| m.student_id)
                    .expect("sid"),
            ]),
            Page::default(),
            Levels::ID_ONLY,
        )
        .await
        .expect("my clubs")
        .data
        .into_iter()
        .map(|c| c.id)
        .collect();
    let other = all
        .iter()
        .find(|c| !mine.contains(c))
        .expect("a club the moderator does not staff");
    let e = as_user(&d, "moderator")
        .create_club_contact(
            *other,
            &NewContact {
                kind: ContactType::Phone,
                value: "020000000".into(),
            },
            Levels::new(FetchLevel::Default, FetchLevel::IdOnly),
        )
        .await
        .expect_err("not staff");
    assert!(
        matches!(&e, ApiError::Forbidden(i) if i.detail.as_deref() == Some("Insufficient permissions to perform this action")),
        "{e:?}"
    );
}

#[tokio::test]
async fn contacts_are_created_and_duplicates_refused() {
    let d = server().await;
    // A student on the club's staff creates contacts (api-notes.md, "Who may do what").
    let cl = as_user(&d, "moderator");
    let club = staffed_by(&d, "moderator").await[0];
    let nc = NewContact {
        kind: ContactType::Discord,
        value: "discord.gg/astro".into(),
    };
    let c = cl
        .create_club_contact(
            club,
            &nc,
            Levels::new(FetchLevel::IdOnly, FetchLevel::IdOnly),
        )
        .await
        .expect("created")
        .data;
    assert_eq!(c.kind, Some(ContactType::Discord));
    assert_eq!(
        c.value.as_deref(),
        Some("discord.gg/astro"),
        "id_only still returns the full contact"
    );
    assert!(
        d.contact_values(club)
            .contains(&"discord.gg/astro".to_owned())
    );
    let e = cl
        .create_club_contact(club, &nc, Levels::ID_ONLY)
        .await
        .expect_err("duplicate");
    assert!(
        matches!(&e, ApiError::Invalid(i) if i.detail.as_deref() == Some("Contact with the same value already exists")),
        "{e:?}"
    );
    let read = cl
        .club(club, Levels::new(FetchLevel::Default, FetchLevel::Default))
        .await
        .expect("club")
        .data;
    assert!(
        read.contacts
            .expect("contacts")
            .iter()
            .any(|x| x.id == c.id)
    );
}

#[tokio::test]
async fn listing_filters_sorts_and_pages() {
    let d = server().await;
    let cl = as_user(&d, "admin");
    let club = d.club_ids()[0];
    let filter = RequestFilter {
        club_ids: vec![club],
        membership_status: Some(MembershipStatus::Pending),
        ..RequestFilter::default()
    };
    let first = cl
        .list_club_requests(
            &filter,
            &Sort {
                by: vec![RequestSortKey::Id],
                ascending: true,
            },
            Page::new(1, 5),
            Levels::REQUEST_ROW,
        )
        .await
        .expect("page 1");
    let p = first
        .meta
        .clone()
        .and_then(|m| m.pagination)
        .expect("pagination");
    assert_eq!(p.size, Some(5));
    let total = p.total.expect("total");
    assert!(total > 5);
    assert_eq!(p.next_p, Some(2));
    assert!(
        first
            .data
            .iter()
            .all(|r| r.membership() == Some(&MembershipStatus::Pending)
                && r.club.as_ref().map(|c| c.id) == Some(club))
    );
    let mut seen: Vec<Uuid> = Vec::new();
    let mut page = 1;
    loop {
        let r = cl
            .list_club_requests(
                &filter,
                &Sort {
                    by: vec![RequestSortKey::Id],
                    ascending: true,
                },
                Page::new(page, 5),
                Levels::ID_ONLY,
            )
            .await
            .expect("page");
        seen.extend(r.data.iter().map(|x| x.id));
        match r.meta.and_then(|m| m.pagination).and_then(|p| p.next_p) {
            Some(n) => page = n,
            None => break,
        }
    }
    assert_eq!(seen.len() as u64, total);
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted, "sorted by id across pages");
    let none = cl
        .list_club_requests(
            &RequestFilter {
                ids: vec![Uuid::new_v4()],
                ..RequestFilter::default()
            },
            &Sort::default(),
            Page::default(),
            Levels::ID_ONLY,
        )
        .await
        .expect("empty");
    assert!(none.data.is_empty());
    assert_eq!(
        none.meta.and_then(|m| m.pagination).and_then(|p| p.last_p),
        Some(0)
    );
    let clubs = cl
        .search_clubs(
            &ClubQuery::Text("หุ่นยนต์".into()),
            Page::default(),
            Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
        )
        .await
        .expect("thai search")
        .data;
    assert_eq!(clubs.len(), 1);
    let clubs = cl
        .search_clubs(
            &ClubQuery::Text("CHESS".into()),
            Page::default(),
            Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
        )
        .await
        .expect("search")
        .data;
    assert_eq!(
        clubs[0].name.as_ref().and_then(|n| n.en.as_deref()),
        Some("Chess Club")
    );
}

#[tokio::test]
async fn raw_wire_traps_match_api_notes() {
    let d = server().await;
    let a = d.user("admin").expect("admin");
    let http = reqwest::Client::new();
    let get = |path: &str| {
        http.get(format!("{}{}", d.base_url, path))
            .header("X-Api-Key", &a.api_key)
            .header("Authorization", format!("Bearer {}", a.token))
    };
    let r = get("/v1/clubs/requests/not-a-uuid")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 404);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap_or("")
            .starts_with("text/plain")
    );
    let r = get("/v1/nothing/here").send().await.expect("send");
    assert_eq!(r.status(), 404);
    let body: serde_json::Value = r.json().await.expect("json");
    assert_eq!(body["error"]["detail"], "Route not found");
    assert_eq!(body["meta"], serde_json::Value::Null);
    let r = get("/v1/clubs/requests?filter%5Bdata%5D=")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 400, "empty filter[data]");
    let r = get("/v1/clubs/requests?pagination%5Bsize%5D=5")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 400, "pagination without p");
    let r = get("/v1/clubs?filter%5Bq%5D=x&filter%5Bdata%5D%5Bname%5D=y")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 400, "filter[q] with filter[data]");
    let r = get("/v1/clubs/requests?fetch_level=everything")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 400);
    let dot = get("/v1/clubs/requests?filter.data.membership_status=approved&pagination%5Bp%5D=1&pagination%5Bsize%5D=1").send().await.expect("send");
    let dot: serde_json::Value = dot.json().await.expect("json");
    assert_eq!(
        dot["meta"]["pagination"]["total"].as_u64(),
        Some(240),
        "dot syntax is ignored"
    );
    // Writes as a student on the club's staff (the one account the service lets decide).
    let m = d.user("moderator").expect("moderator");
    let id = d.pending_for("moderator")[0];
    let r = http
        .put(format!("{}/v1/clubs/requests/{id}", d.base_url))
        .header("X-Api-Key", &m.api_key)
        .header("Authorization", format!("Bearer {}", m.token))
        .header("content-type", "application/json")
        .body("{\"data\":{\"status\":\"maybe\"}}")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 400);
    let body: serde_json::Value = r.json().await.expect("json");
    assert!(
        body["error"]["detail"]
            .as_str()
            .unwrap_or("")
            .contains("unknown variant")
    );
    let r = http
        .put(format!("{}/v1/clubs/requests/{id}", d.base_url))
        .header("X-Api-Key", &m.api_key)
        .header("Authorization", format!("Bearer {}", m.token))
        .body("{not json")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 400);
    let r = http
        .get(format!("{}/auth/user", d.base_url))
        .header("X-Api-Key", &a.api_key)
        .header("Authorization", format!("bearer {}", a.token))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 401, "scheme is case-sensitive");
    let r = http
        .get(format!("{}/health-check", d.base_url))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
    let r = get("/auth/user/").send().await.expect("send");
    assert_eq!(r.status(), 200, "a trailing slash is tolerated");
    let r = get("/v1/clubs/requests/?pagination%5Bp%5D=1&pagination%5Bsize%5D=1")
        .send()
        .await
        .expect("send");
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.expect("json");
    assert_eq!(body["meta"]["pagination"]["size"], 1, "the query survives");
}

#[tokio::test]
async fn injected_faults() {
    let d = server().await;
    let cl = as_user(&d, "moderator");
    d.set_faults(Faults {
        failure_rate: 1.0,
        ..Faults::default()
    });
    let e = cl.current_user().await.expect_err("injected failure");
    assert!(
        matches!(&e, ApiError::Server(i) if matches!(i.status, Some(500) | Some(503))),
        "{e:?}"
    );
    d.set_faults(Faults {
        drop_rate: 1.0,
        ..Faults::default()
    });
    let e = cl.current_user().await.expect_err("dropped");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    let id = d.pending_for("moderator")[0];
    let e = cl
        .update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect_err("dropped write");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    assert_eq!(
        d.request_status(id),
        Some(MembershipStatus::Pending),
        "a dropped request changed nothing"
    );
    d.set_faults(Faults {
        latency: Duration::from_millis(300),
        ..Faults::default()
    });
    let slow = ApiClient::new(
        &d.base_url,
        Credentials::new(
            Some(d.moderator().api_key.clone()),
            Some(d.moderator().token.clone()),
        ),
        ClientOptions {
            request_timeout: Duration::from_millis(100),
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let e = slow.current_user().await.expect_err("timeout");
    assert!(matches!(e, ApiError::Timeout { .. }), "{e:?}");
    d.set_faults(Faults::default());
    cl.current_user().await.expect("healthy again");
}

#[tokio::test]
async fn listing_reads_brackets_plain_and_percent_encoded_alike() {
    let d = server().await;
    let a = d.user("admin").expect("admin");
    let club = d.club_ids()[0];
    let http = reqwest::Client::new();
    let plain = format!(
        "filter[data][club_ids][0]={club}&filter[data][membership_status]=pending&sort[by][0]=id&pagination[p]=1&pagination[size]=100&fetch_level=default"
    );
    let mut totals = Vec::new();
    for q in [
        plain.clone(),
        plain.replace('[', "%5B").replace(']', "%5D"),
        plain.replace('[', "%5b").replace(']', "%5d"),
    ] {
        let r = http
            .get(format!("{}/v1/clubs/requests?{q}", d.base_url))
            .header("X-Api-Key", &a.api_key)
            .header("Authorization", format!("Bearer {}", a.token))
            .send()
            .await
            .expect("send");
        assert_eq!(r.status(), 200, "{q}");
        let body: serde_json::Value = r.json().await.expect("json");
        let total = body["meta"]["pagination"]["total"].as_u64().expect("total");
        totals.push(total);
        let rows = body["data"].as_array().expect("rows");
        assert_eq!(rows.len() as u64, total, "one page holds them all");
        assert!(
            rows.iter().all(|r| r["club"]["id"] == club.to_string()
                && r["membership_status"] == "pending"),
            "every row is a pending request of the club"
        );
    }
    assert!(
        totals[0] > 0 && totals[0] < 240,
        "the filter applied: {totals:?}"
    );
    assert!(totals.iter().all(|t| *t == totals[0]), "{totals:?}");
}

#[tokio::test]
async fn answer_lost_after_the_write_committed() {
    let d = server().await;
    let cl = as_user(&d, "moderator");
    let ids = d.pending_for("moderator");
    d.set_faults(Faults {
        drop_after_write_rate: 1.0,
        ..Faults::default()
    });
    // Reads are answered.
    cl.current_user().await.expect("reads are not dropped");
    // The approval lands, its answer does not.
    let e = cl
        .update_club_request(ids[0], &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect_err("answer lost");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    let read = cl
        .club_request(ids[0], Levels::REQUEST_ROW)
        .await
        .expect("re-read");
    assert_eq!(read.data.membership(), Some(&MembershipStatus::Approved));
    assert_eq!(d.mutations(), vec![format!("update {} approved", ids[0])]);
    // A refused write changed nothing and is answered as usual.
    let e = cl
        .update_club_request(ids[0], &MembershipStatus::Declined, Levels::ID_ONLY)
        .await
        .expect_err("refused");
    assert!(matches!(e, ApiError::Forbidden(_)), "{e:?}");
    // Delete (by the request's own student: staff may not delete others') and a new contact
    // (by the club's staff): committed, answers lost.
    let (requester, own) = requesters_own(&d).await;
    let e = requester
        .delete_club_request(own)
        .await
        .expect_err("answer lost");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    let e = cl
        .club_request(own, Levels::REQUEST_ROW)
        .await
        .expect_err("deleted");
    assert!(matches!(e, ApiError::NotFound(_)), "{e:?}");
    let club = staffed_by(&d, "moderator").await[0];
    let e = cl
        .create_club_contact(
            club,
            &NewContact {
                kind: ContactType::Website,
                value: "https://lost.example".into(),
            },
            Levels::new(FetchLevel::Default, FetchLevel::IdOnly),
        )
        .await
        .expect_err("answer lost");
    assert!(matches!(e, ApiError::Connect { .. }), "{e:?}");
    assert!(
        d.contact_values(club)
            .contains(&"https://lost.example".to_owned())
    );
    // With the rate back at 0 the next write is answered.
    d.set_faults(Faults::default());
    cl.update_club_request(ids[2], &MembershipStatus::Declined, Levels::ID_ONLY)
        .await
        .expect("answered");
}

#[tokio::test]
async fn the_client_works_through_the_delay_proxy() {
    use crate::common::proxy::{DelayProxy, ProxyOptions};
    let d = server().await;
    let proxy = DelayProxy::start(
        d.addr,
        ProxyOptions {
            round_trip: Duration::from_millis(20),
            connect_round_trips: 1,
        },
    )
    .await
    .expect("proxy");
    let m = d.moderator();
    let cl = ApiClient::new(
        &proxy.base_url,
        Credentials::new(Some(m.api_key.clone()), Some(m.token.clone())),
        opts(),
    )
    .expect("client");
    let before = d.calls();
    let user = cl.current_user().await.expect("user through the proxy");
    assert_eq!(user.data.role.as_deref(), Some("student"));
    let id = d.pending_for("moderator")[0];
    cl.update_club_request(id, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect("write through the proxy");
    assert_eq!(d.request_status(id), Some(MembershipStatus::Approved));
    assert_eq!(d.calls() - before, 2, "the demo counts each call once");
    assert_eq!(
        proxy.connections(),
        1,
        "the second call reused the connection"
    );
    let (up, down) = proxy.bytes();
    assert!(up > 0 && down > 0, "{up} {down}");
}

#[tokio::test]
async fn the_sign_in_page_ends_on_the_token_json_that_the_dashboard_takes() {
    let d = server().await;
    let http = reqwest::Client::new();
    let page = http
        .get(format!("{}/auth/oauth/init", d.base_url))
        .send()
        .await
        .expect("init page");
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.expect("html");
    assert!(
        html.contains("/auth/oauth/callback?account=moderator"),
        "{html}"
    );
    let last = http
        .get(format!(
            "{}/auth/oauth/callback?account=teacher",
            d.base_url
        ))
        .send()
        .await
        .expect("callback")
        .text()
        .await
        .expect("json page");
    // What a moderator pastes: the whole JSON page.
    let token = parse_pasted_token(&last).expect("a token in the page");
    let c = ApiClient::new(
        &d.base_url,
        Credentials {
            api_key: Some(d.user("teacher").expect("teacher").api_key.clone().into()),
            token: Some(token),
        },
        opts(),
    )
    .expect("client");
    let me = c.current_user().await.expect("the new token works");
    assert_eq!(me.data.role.as_deref(), Some("teacher"));
    let bad = http
        .get(format!("{}/auth/oauth/callback?account=nobody", d.base_url))
        .send()
        .await
        .expect("bad callback");
    assert_eq!(bad.status().as_u16(), 400);
}
