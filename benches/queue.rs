//! Criterion benches: the cost of `view` and `update` as the queue grows.
//!
//! Targets: a frame of the queue at 120x40 costs the same for 100, 10,000 and
//! 100,000 requests (within 1.5x: only visible rows are built); filtering 100,000 requests by
//! text under 20 ms. Run: `cargo bench --bench queue`.

#[path = "../tests/common/answers.rs"]
mod answers;

use answers::{AnswerWith, ApiAnswer};
use std::hint::black_box;

use chrono::{TimeZone, Utc};
use club_admin::api::{ClubRequest, MembershipStatus, Meta, Pagination, Reply, UpdateRoute, User};
use club_admin::app::{ApiCall, Effect, Model, ModelOptions, Msg, update};
use club_admin::app::{Key, KeyCode};
use club_admin::ui::{Theme, view};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use uuid::Uuid;

const FIRST: [(&str, &str); 6] = [
    ("Somchai", "สมชาย"),
    ("Pimchanok", "พิมพ์ชนก"),
    ("Nattawut", "ณัฐวุฒิ"),
    ("Kanyanat", "กัญญาณัฐ"),
    ("Thanakrit", "ธนกฤต"),
    ("Yanisa", "ญาณิศา"),
];
const CLUBS: [(&str, &str); 5] = [
    ("Robotics Club", "ชุมนุมหุ่นยนต์"),
    ("Chess Club", "ชุมนุมหมากรุก"),
    ("Astronomy Club", "ชุมนุมดาราศาสตร์"),
    ("Debate Society", "ชุมนุมโต้วาที"),
    ("Football", "ชุมนุมฟุตบอล"),
];

fn request(i: usize) -> ClubRequest {
    let (en, th) = FIRST[i % FIRST.len()];
    let (cen, cth) = CLUBS[i % CLUBS.len()];
    serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(i as u128 + 1),
        "created_at": (Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).single().expect("t") + chrono::Duration::minutes(i as i64)).to_rfc3339(),
        "club": {"id": Uuid::from_u128(1_000_000 + (i % CLUBS.len()) as u128), "name": {"en-US": cen, "th": cth}},
        "student": {"id": Uuid::from_u128(2_000_000 + i as u128), "student_id": format!("{}", 50000 + i),
                    "person": {"first_name": {"en-US": en, "th": th}, "last_name": {"en-US": "Jaidee", "th": "ใจดี"}}},
        "year": 2026,
        "membership_status": "pending",
    }))
    .expect("request")
}

/// Feeds `answer` to the single call among `fx` that `pick` accepts.
fn answer_one(
    m: &mut Model,
    fx: &[Effect],
    pick: impl Fn(&ApiCall) -> bool,
    answer: ApiAnswer,
) -> Vec<Effect> {
    let mut calls: Vec<(u64, ApiCall)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Api {
                request_id, call, ..
            } if pick(call) => Some((*request_id, call.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(calls.len(), 1, "one such call: {fx:?}");
    let (request_id, call) = calls.remove(0);
    update(
        m,
        Msg::Api {
            request_id,
            answer: call.answer_with(answer),
        },
    )
}

fn reply<T>(data: T) -> Reply<T> {
    Reply {
        data,
        api_version: None,
        meta: None,
    }
}

/// A model whose queue holds `n` loaded pending requests, reached as a session reaches it:
/// an admin signs in and the server's listing answers with the `n` requests.
pub fn model(n: usize) -> Model {
    let mut m = Model::new(ModelOptions {
        now: Utc
            .with_ymd_and_hms(2026, 11, 22, 9, 0, 0)
            .single()
            .expect("t"),
        // Decisions go at once: the bench measures an approve and its answer.
        decision_delay: std::time::Duration::ZERO,
        ..ModelOptions::new("http://127.0.0.1:9")
    });
    let _ = update(&mut m, Msg::Layout { queue_rows: 35 });
    let start = club_admin::app::start(&mut m);
    let admin: User = serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(500), "email": "admin@school.example.ac.th",
        "role": "management", "is_admin": true, "onboarded": true, "permissions": []
    }))
    .expect("user");
    // The update route is there (approve and decline allowed).
    let _ = answer_one(
        &mut m,
        &start,
        |c| *c == ApiCall::ProbeUpdateRoute,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
    );
    let fx = answer_one(
        &mut m,
        &start,
        |c| *c == ApiCall::CurrentUser,
        ApiAnswer::User(Ok(reply(admin))),
    );
    let mut listing = reply((0..n).map(request).collect::<Vec<_>>());
    listing.meta = Some(Meta {
        timestamp: None,
        pagination: Some(Pagination {
            first_p: Some(1),
            last_p: Some(1),
            next_p: None,
            prev_p: None,
            size: Some(n as u32),
            total: Some(n as u64),
        }),
    });
    let _ = answer_one(
        &mut m,
        &fx,
        |c| matches!(c, ApiCall::ListRequests { .. }),
        ApiAnswer::Listing(Ok(listing)),
    );
    assert_eq!(m.queue().stats().pending, n, "all {n} listed");
    // Put the cursor in the middle, as during a review: pages down, then rows.
    while m.queue().cursor() + 35 <= n / 2 {
        let _ = update(&mut m, Msg::Key(Key::new(KeyCode::PageDown)));
    }
    while m.queue().cursor() < n / 2 {
        let _ = update(&mut m, key('j'));
    }
    let now = m.now();
    let _ = update(&mut m, Msg::Tick(now));
    m
}

fn key(c: char) -> Msg {
    Msg::Key(Key::char(c))
}

fn benches(c: &mut Criterion) {
    let theme = Theme::new(true);
    let mut g = c.benchmark_group("view_120x40");
    for n in [100usize, 1_000, 3_000, 10_000, 100_000] {
        let m = model(n);
        let mut term = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        g.bench_with_input(BenchmarkId::from_parameter(n), &m, |b, m| {
            b.iter(|| {
                term.draw(|f| view(f, black_box(m), &theme)).expect("draw");
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("update_cursor_move");
    for n in [10_000usize, 100_000] {
        let mut m = model(n);
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                let _ = update(&mut m, key('j'));
                let _ = update(&mut m, key('k'));
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("update_approve_and_answer");
    for n in [10_000usize, 100_000] {
        let base = model(n);
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter_batched(
                || base.clone(),
                |mut m| {
                    let fx = update(&mut m, key('a'));
                    for e in fx {
                        if let club_admin::app::Effect::Api {
                            request_id,
                            call: call @ club_admin::app::ApiCall::UpdateRequest { .. },
                            ..
                        } = e
                            && let club_admin::app::ApiCall::UpdateRequest { id, .. } = &call
                        {
                            let mut r = request(id.as_u128() as usize - 1);
                            r.membership_status = Some(MembershipStatus::Approved);
                            let reply = club_admin::api::Reply {
                                data: r,
                                api_version: None,
                                meta: None,
                            };
                            let _ = update(
                                &mut m,
                                Msg::Api {
                                    request_id,
                                    answer: call.answer_with(ApiAnswer::Updated(Ok(reply))),
                                },
                            );
                        }
                    }
                    m
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    g.finish();

    let mut g = c.benchmark_group("filter_text");
    g.sample_size(20);
    for n in [10_000usize, 100_000] {
        let mut m = model(n);
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            // One filter change per iteration, alternating between two texts, as the
            // command `:filter TEXT` sets it (typing into the command line filters nothing).
            let mut flip = false;
            b.iter(|| {
                flip = !flip;
                let text = black_box(if flip {
                    "หมากรุก 5001"
                } else {
                    "robotics"
                });
                let _ = update(&mut m, key(':'));
                for c in format!("filter {text}").chars() {
                    let _ = update(&mut m, key(c));
                }
                let _ = update(&mut m, Msg::Key(Key::new(KeyCode::Enter)));
            })
        });
    }
    g.finish();
}

criterion_group!(queue, benches);
criterion_main!(queue);
