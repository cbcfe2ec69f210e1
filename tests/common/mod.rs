//! Shared test helpers: models with rows, keys, fixed time.
#![allow(dead_code)]

use answers::ApiAnswer;
use chrono::{DateTime, TimeZone, Utc};
use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, Effect, Model, Msg, Popup, update};
use club_admin::app::{Key, KeyCode};
use serde_json::json;
use uuid::Uuid;

/// The options a test model starts with (see [`options`]).
pub use club_admin::app::ModelOptions;

pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0)
        .single()
        .expect("time")
}

/// The options every test model starts from: a token valid for 7 h 59 min at [`now`], a
/// token file to save to, decisions sent at once (the grace period has its own tests), the
/// server at `http://127.0.0.1:9`. A test that needs another start changes them with
/// struct update syntax: `ModelOptions { lang, ..options() }`.
pub fn options() -> ModelOptions {
    options_at("http://127.0.0.1:9")
}

/// [`options`] for the server at `base_url`.
pub fn options_at(base_url: &str) -> ModelOptions {
    ModelOptions {
        token_expires: Some(now() + chrono::Duration::hours(7) + chrono::Duration::minutes(59)),
        now: now(),
        save_token: true,
        can_save_token: true,
        decision_delay: std::time::Duration::ZERO,
        review_opens_term: false,
        ..ModelOptions::new(base_url)
    }
}

/// [`options_at`] on the wall clock, for a model driven against a real server whose ticks
/// carry the real time (`Headless`): the token expires 7 h 59 min from now, as a freshly
/// signed-in session's does (a token "expired" by the test's fixed clock would refuse every
/// write: `Model::has_session`).
pub fn live_options_at(base_url: &str) -> ModelOptions {
    let now = chrono::Utc::now();
    ModelOptions {
        token_expires: Some(now + chrono::Duration::hours(7) + chrono::Duration::minutes(59)),
        now,
        ..options_at(base_url)
    }
}

/// A fresh model started with `o`, its queue 20 rows high. Nothing is read yet.
pub fn model_from(o: ModelOptions) -> Model {
    let mut m = Model::new(o);
    let _ = update(&mut m, Msg::Layout { queue_rows: 20 });
    m
}

pub fn model() -> Model {
    model_from(options())
}

/// [`model_with`] whose approve/decline are held for `secs` seconds (the grace period).
pub fn held_model(rows: Vec<ClubRequest>, secs: u64) -> Model {
    loaded(
        ModelOptions {
            decision_delay: std::time::Duration::from_secs(secs),
            ..options()
        },
        rows,
    )
}

/// Moves the model's clock on by `d` with a tick (a decision held that long is sent) and
/// returns the tick's effects.
pub fn later(m: &mut Model, d: std::time::Duration) -> Vec<Effect> {
    let at = m.now() + chrono::Duration::from_std(d).expect("a short duration");
    update(m, Msg::Tick(at))
}

pub fn key(c: char) -> Msg {
    Msg::Key(Key::char(c))
}

pub fn code(c: KeyCode) -> Msg {
    Msg::Key(Key::new(c))
}

pub fn ctrl(c: char) -> Msg {
    Msg::Key(Key::ctrl(c))
}

pub fn typed(m: &mut Model, text: &str) -> Vec<Effect> {
    let mut fx = Vec::new();
    for c in text.chars() {
        fx.extend(update(m, key(c)));
    }
    fx
}

pub fn request(
    id: Uuid,
    status: &str,
    student: &str,
    first: Option<(&str, &str)>,
    club: (&str, &str),
    year: i32,
    days_ago: i64,
) -> ClubRequest {
    let person = first.map(|(en, th)| json!({"first_name": {"en-US": en, "th": th}, "last_name": {"en-US": "Jaidee", "th": "ใจดี"}}));
    serde_json::from_value(json!({
        "id": id,
        "created_at": (now() - chrono::Duration::days(days_ago)).to_rfc3339(),
        "club": {"id": Uuid::from_u128(club.0.len() as u128 + 7), "name": {"en-US": club.0, "th": club.1}},
        "student": {"id": Uuid::from_u128(99), "student_id": student, "person": person},
        "year": year,
        "membership_status": status,
    }))
    .expect("request json")
}

/// The deployed service's error envelope (0.8.4) with `code`, `error_type` and `detail`.
pub fn error_body(code: u16, error_type: &str, detail: &str) -> serde_json::Value {
    json!({"api_version":"0.8.4","data":null,"meta":null,
           "error":{"id":"3f1c1d5e-8a4b-4e57-9d1f-0a3c1b2d4e5f","code":code,"error_type":error_type,"detail":detail,"source":"x"}})
}

pub fn reply<T>(data: T) -> Reply<T> {
    Reply {
        data,
        api_version: Some("0.8.4".into()),
        meta: None,
    }
}

pub fn listing_reply(
    data: Vec<ClubRequest>,
    next: Option<u32>,
    total: u64,
) -> Reply<Vec<ClubRequest>> {
    Reply {
        data,
        api_version: Some("0.8.4".into()),
        meta: Some(Meta {
            timestamp: Some(now()),
            pagination: Some(Pagination {
                first_p: Some(1),
                last_p: Some(2),
                next_p: next,
                prev_p: None,
                size: Some(50),
                total: Some(total),
            }),
        }),
    }
}

/// The request id of the single API effect matching `pred`.
pub fn api_ids(fx: &[Effect], pred: impl Fn(&club_admin::app::ApiCall) -> bool) -> Vec<u64> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api {
                request_id, call, ..
            } if pred(call) => Some(*request_id),
            _ => None,
        })
        .collect()
}

pub fn sample_rows() -> Vec<ClubRequest> {
    vec![
        request(
            Uuid::from_u128(1),
            "pending",
            "51001",
            Some(("Somchai", "สมชาย")),
            ("Robotics Club", "ชุมนุมหุ่นยนต์"),
            2026,
            3,
        ),
        request(
            Uuid::from_u128(2),
            "pending",
            "51002",
            Some(("Pimchanok", "พิมพ์ชนก")),
            ("Chess Club", "ชุมนุมหมากรุก"),
            2026,
            2,
        ),
        request(
            Uuid::from_u128(3),
            "approved",
            "51003",
            None,
            ("Astronomy Club", "ชุมนุมดาราศาสตร์"),
            2025,
            40,
        ),
        request(
            Uuid::from_u128(4),
            "pending",
            "51004",
            Some(("Wang", "หวัง")),
            ("Robotics Club", "ชุมนุมหุ่นยนต์"),
            2026,
            1,
        ),
    ]
}

/// A model whose queue holds `rows` as if listed by the server, sorted oldest first (the
/// tests below were written against that order; the default is the server's order).
pub fn model_with(rows: Vec<ClubRequest>) -> Model {
    load(model(), rows)
}

/// [`model_with`] started with `o`.
pub fn loaded(o: ModelOptions, rows: Vec<ClubRequest>) -> Model {
    load(model_from(o), rows)
}

/// [`model_with`] whose listing has more pages: `rows` are its first page, `total` the
/// server's count of pending requests.
pub fn model_with_more(rows: Vec<ClubRequest>, total: u64) -> Model {
    load_page(
        model(),
        rows,
        UpdateRoute::Present,
        Some(2),
        total,
        sign_in_moderator,
    )
}

/// [`model_with_more`] started with `o`.
pub fn loaded_with_more(o: ModelOptions, rows: Vec<ClubRequest>, total: u64) -> Model {
    load_page(
        model_from(o),
        rows,
        UpdateRoute::Present,
        Some(2),
        total,
        sign_in_moderator,
    )
}

/// [`loaded`] on a server whose update route is `route` (0.9 has none: `Missing`; a teacher
/// on 0.8 is refused: `RoleRefused`).
pub fn loaded_on(o: ModelOptions, rows: Vec<ClubRequest>, route: UpdateRoute) -> Model {
    load_on(model_from(o), rows, route)
}

/// A model started with `o` on a server with approve and decline, signed in as `user`; the
/// calls that follow (the staffed clubs, the listing) are left unanswered.
pub fn signed_in(o: ModelOptions, user: User) -> Model {
    let mut m = model_from(o);
    let fx = club_admin::app::start(&mut m);
    for (id, call) in calls(&fx) {
        let payload = match call {
            ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
            ApiCall::CurrentUser => ApiAnswer::User(Ok(reply(user.clone()))),
            _ => continue,
        };
        answer(&mut m, id, payload);
    }
    m
}

/// The API calls among `fx`, with their request ids.
pub fn calls(fx: &[Effect]) -> Vec<(u64, ApiCall)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api {
                request_id, call, ..
            } => Some((*request_id, call.clone())),
            _ => None,
        })
        .collect()
}

/// Answers every call among `fx` with `e`; the effects of the answers.
pub fn fail_calls(m: &mut Model, fx: &[Effect], e: &ApiError) -> Vec<Effect> {
    let mut out = Vec::new();
    for (id, call) in calls(fx) {
        // The worker's own answer to a call that failed (`ApiCall::failed`).
        out.extend(update(
            m,
            Msg::Api {
                request_id: id,
                answer: call.failed(e.clone()),
            },
        ));
    }
    out
}

/// A 401 for a token the server no longer takes.
pub fn unauthorized() -> ApiError {
    ApiError::Unauthorized {
        kind: AuthErrorKind::InvalidToken,
        info: ErrorInfo {
            status: Some(401),
            error_type: Some("invalid_token".into()),
            detail: Some("Token expired".into()),
            error_id: None,
            excerpt: None,
        },
    }
}

/// The session ends as the server ends it: a refresh (`r`) answered 401. The sign-in pop-up
/// that opens is closed again (Esc); the session stays expired.
pub fn expire_session(m: &mut Model) {
    let fx = update(m, key('r'));
    fail_calls(m, &fx, &unauthorized());
    if matches!(m.popup(), Some(Popup::SignIn { .. })) {
        update(m, code(KeyCode::Esc));
    }
}

/// No connection could be made to the server.
pub fn no_connection() -> ApiError {
    ApiError::Connect {
        failure: ConnectFailure::NoConnection,
        host: "127.0.0.1:9".into(),
        cause: Some("connection refused".into()),
    }
}

/// The server cannot be reached: a refresh (`r`) whose reads find no connection.
pub fn lose_connection(m: &mut Model) {
    let fx = update(m, key('r'));
    fail_calls(m, &fx, &no_connection());
}

/// [`model_with`] read in `lang` from the start: the messages of signing in and loading
/// are in that language too.
pub fn model_with_lang(rows: Vec<ClubRequest>, lang: club_admin::i18n::Lang) -> Model {
    loaded(ModelOptions { lang, ..options() }, rows)
}

/// The options of a reader of `lang`: years as that reader writes them (the Buddhist Era
/// in Thai).
pub fn options_in(lang: club_admin::i18n::Lang) -> ModelOptions {
    ModelOptions {
        lang,
        year_style: club_admin::i18n::dates::YearStyle::default_for(lang),
        ..options()
    }
}

/// [`loaded`] signed in as an administrator ([`admin`]): the header names the account, the
/// listing is every pending request, and no write is offered (api-notes.md, "Who may do
/// what").
pub fn loaded_as_admin(o: ModelOptions, rows: Vec<ClubRequest>) -> Model {
    loaded_as_admin_on(o, rows, UpdateRoute::Present)
}

/// [`loaded_as_admin`] on a server whose update route the probe finds to be `route`.
pub fn loaded_as_admin_on(o: ModelOptions, rows: Vec<ClubRequest>, route: UpdateRoute) -> Model {
    let pending = pending_of(&rows);
    load_page(model_from(o), rows, route, None, pending, sign_in_admin)
}

/// Answers the signed-in user call `user` with [`admin`] (its listing, every pending
/// request, is asked at once); returns the answer's effects.
fn sign_in_admin(m: &mut Model, user: u64) -> Vec<Effect> {
    answer(m, user, ApiAnswer::User(Ok(reply(admin()))))
}

/// How many of `rows` are pending: a pending-only listing's total.
fn pending_of(rows: &[ClubRequest]) -> u64 {
    rows.iter()
        .filter(|r| r.membership() == Some(&MembershipStatus::Pending))
        .count() as u64
}

/// Signs `m` in as the moderator ([`moderator`]) and answers its first listing with `rows`,
/// on a server with approve and decline.
fn load(m: Model, rows: Vec<ClubRequest>) -> Model {
    load_on(m, rows, UpdateRoute::Present)
}

/// [`load`] on a server whose update route the probe finds to be `route`.
fn load_on(m: Model, rows: Vec<ClubRequest>, route: UpdateRoute) -> Model {
    // A pending-only listing: its total counts the pending rows.
    let pending = pending_of(&rows);
    load_page(m, rows, route, None, pending, sign_in_moderator)
}

/// [`load_on`] with the listing's first page answered with `rows`, `next` page and `total`,
/// the user's call answered by `sign_in` (it returns the effects that ask for the listing).
fn load_page(
    mut m: Model,
    rows: Vec<ClubRequest>,
    route: UpdateRoute,
    next: Option<u32>,
    total: u64,
    sign_in: fn(&mut Model, u64) -> Vec<Effect>,
) -> Model {
    // An answer to a call not in flight is dropped.
    let fx = answer(&mut m, 0, ApiAnswer::User(Ok(reply(moderator()))));
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Api { .. })),
        "request 0 is not in flight, so the answer is dropped"
    );
    let start = club_admin::app::start(&mut m);
    // Oldest first, as a saved queue from an earlier session restores it at start (silently: no
    // ids, no filter, no scope to list).
    let server = m.server_key().to_owned();
    let fx = update(
        &mut m,
        Msg::Restore(SavedQueue {
            server,
            sort: QueueSort::Age,
            ..SavedQueue::default()
        }),
    );
    assert!(
        fx.is_empty(),
        "restoring a sort alone calls nothing: {fx:?}"
    );
    assert_eq!(m.queue().sort(), QueueSort::Age);
    let user = api_ids(&start, |c| *c == club_admin::app::ApiCall::CurrentUser);
    // What the update-route probe finds.
    for probe in api_ids(&start, |c| *c == club_admin::app::ApiCall::ProbeUpdateRoute) {
        let _ = answer(&mut m, probe, ApiAnswer::UpdateRoute(Ok(route.clone())));
    }
    let fx = sign_in(&mut m, user[0]);
    let list = api_ids(&fx, |c| {
        matches!(c, club_admin::app::ApiCall::ListRequests { .. })
    });
    assert_eq!(
        list.len(),
        1,
        "one listing of the pending requests in scope"
    );
    let fx = answer(
        &mut m,
        list[0],
        ApiAnswer::Listing(Ok(listing_reply(rows.clone(), next, total))),
    );
    fail_known(&mut m, &fx);
    m
}

/// Answers the read of the ids a listing holds at its first load, among `fx`, with a
/// server's failure: the tests whose server is no more than the pages they give judge what
/// is new without those ids, as before them (their own tests: `fast::new_requests`).
pub fn fail_known(m: &mut Model, fx: &[Effect]) -> Vec<Effect> {
    let known = |c: &club_admin::app::ApiCall| {
        matches!(
            c,
            club_admin::app::ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Known { .. },
                ..
            }
        )
    };
    let mut out = Vec::new();
    for rid in api_ids(fx, known) {
        let e = ApiError::Server(ErrorInfo::default());
        out.extend(answer(m, rid, ApiAnswer::Listing(Err(e))));
    }
    out
}

/// An administrator as the deployed service shows one (`role` staff, `is_admin`): reads
/// every club, makes no write (api-notes.md, "Who may do what").
pub fn admin() -> User {
    serde_json::from_value(json!({"id": Uuid::from_u128(500), "email": "admin@school.example.ac.th", "role": "staff", "is_admin": true, "onboarded": true, "permissions": []})).expect("user")
}

/// The student id of [`moderator`]: also the student of every [`request`], so the moderator
/// may delete them too (a student may delete their own requests only).
pub const MODERATOR_STUDENT: u128 = 99;

/// A student moderator on the staff of every club [`request`] names ([`staffed_clubs`]),
/// the student of every request: may approve, decline and delete each.
pub fn moderator() -> User {
    serde_json::from_value(json!({"id": Uuid::from_u128(501), "email": "ton.j@mysk.ac.th", "role": "student", "meta": {"student_id": Uuid::from_u128(MODERATOR_STUDENT)}, "is_admin": false, "onboarded": true, "permissions": []})).expect("user")
}

/// Every club the tests name (ids 1 to 1100: [`request`]'s are the English name's length
/// plus 7, others are given by number), as the staffed-clubs lookup answers for
/// [`moderator`].
pub fn staffed_clubs() -> Vec<Club> {
    (1..=1100u128)
        .map(|n| serde_json::from_value(json!({"id": Uuid::from_u128(n)})).expect("club"))
        .collect()
}

/// Answers the signed-in user call `user` with [`moderator`], then the staffed-clubs lookup
/// it asks with [`staffed_clubs`]; returns the effects of both answers (the listing's first
/// page among them), as an administrator's sign-in returned the listing at once.
pub fn sign_in_moderator(m: &mut Model, user: u64) -> Vec<Effect> {
    let mut fx = answer(m, user, ApiAnswer::User(Ok(reply(moderator()))));
    let lookup = api_ids(&fx, |c| {
        matches!(
            c,
            club_admin::app::ApiCall::SearchClubs {
                purpose: club_admin::app::SearchPurpose::StaffedClubs,
                ..
            }
        )
    });
    for id in lookup {
        fx.extend(answer(m, id, ApiAnswer::Clubs(Ok(reply(staffed_clubs())))));
    }
    fx
}

pub fn forbidden(detail: &str) -> ApiError {
    ApiError::Forbidden(ErrorInfo {
        status: Some(403),
        error_type: Some("invalid_permission".into()),
        detail: Some(detail.into()),
        error_id: None,
        excerpt: None,
    })
}

/// The screen's text as drawn by the real view on a `w` x `h` `TestBackend`, one line per
/// row (wide characters once).
pub fn screen(m: &Model, w: u16, h: u16) -> String {
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| club_admin::ui::view(f, m, &club_admin::ui::Theme::new(false)))
        .expect("draw");
    buffer_text(t.backend().buffer())
}

/// The hint bar as drawn by the real view: the last line of a `w` x 24 screen.
pub fn hint_bar(m: &Model, w: u16) -> String {
    screen(m, w, 24)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned()
}

/// The open help pop-up as drawn by the real view, whole: on a screen tall enough for all of
/// it (120x200), its last line (the filter terms) on screen, so a row not drawn is left out
/// by the help, not scrolled out of sight.
pub fn help_drawn(m: &Model) -> String {
    assert!(
        matches!(m.popup(), Some(Popup::Help { .. })),
        "the help is open: {:?}",
        m.popup()
    );
    let s = screen(m, 120, 200);
    let end = club_admin::i18n::tr(m.lang(), "help-filter-terms");
    let end = club_admin::text::for_terminal(&end);
    assert!(s.contains(end.as_ref()), "the help ends on screen:\n{s}");
    s
}

/// A drawn buffer's text, one line per row, trailing spaces cut; the cells a wide character
/// covers are skipped (its symbol stands once).
pub fn buffer_text(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            skip = club_admin::text::width(sym).saturating_sub(1);
            line.push_str(sym);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Answers the single write (approve, decline or delete) among `fx` with `answer`.
pub fn answer_write(m: &mut Model, fx: &[Effect], payload: ApiAnswer) {
    let ids = api_ids(fx, |c| {
        matches!(
            c,
            club_admin::app::ApiCall::UpdateRequest { .. }
                | club_admin::app::ApiCall::DeleteRequest { .. }
        )
    });
    assert_eq!(ids.len(), 1, "one write: {fx:?}");
    answer(m, ids[0], payload);
}

#[cfg(unix)]
pub mod answers;
pub mod headless;
pub mod proxy;
pub mod pty;
pub mod ssh_sessions;

/// The binary under test, as cargo built it for the integration tests.
pub const CLUB_ADMIN: &str = env!("CARGO_BIN_EXE_club-admin");

/// The dashboard in a 40x120 pseudo-terminal with `args` and `envs`, its state and
/// configuration in a directory of its own (removed with the session).
#[cfg(unix)]
pub fn dashboard(args: &[&str], envs: &[(&str, &str)]) -> pty::Pty {
    let dir = tempfile::tempdir().expect("tempdir");
    dashboard_in(dir.path(), args, envs).owning(dir)
}

/// [`dashboard`] with its state and configuration under `dir` (kept across runs).
#[cfg(unix)]
pub fn dashboard_in(dir: &std::path::Path, args: &[&str], envs: &[(&str, &str)]) -> pty::Pty {
    let mut cmd = pty::command(CLUB_ADMIN, dir);
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    pty::Pty::spawn(cmd, 40, 120)
}

/// The writes a run sent to each request: `PUT`/`DELETE /v1/clubs/requests/<id>` received
/// by the demo server (answered, refused or dropped), the update-route probe (the nil UUID)
/// left out.
pub fn writes_per_request(
    d: &club_admin::demo::DemoHandle,
    from: usize,
) -> std::collections::HashMap<uuid::Uuid, usize> {
    let mut n = std::collections::HashMap::new();
    for w in d.writes_received().into_iter().skip(from) {
        if let Some(id) = w
            .rsplit('/')
            .next()
            .and_then(|s| uuid::Uuid::parse_str(s).ok())
            .filter(|id| !id.is_nil())
        {
            *n.entry(id).or_insert(0) += 1;
        }
    }
    n
}

/// Puts the cursor on request `id` as a moderator does: `g` to the top, then `j` until it is
/// selected. Returns the effects of the moves (reads of rows the cursor passes, the next
/// listing page near the end). Panics when `id` is not shown.
pub fn cursor_to(m: &mut Model, id: Uuid) -> Vec<Effect> {
    let mut fx = update(m, key('g'));
    while m.queue().selected().map(|i| i.id) != Some(id) {
        let before = m.queue().cursor();
        fx.extend(update(m, key('j')));
        assert_ne!(m.queue().cursor(), before, "request {id} is not shown");
    }
    fx
}

/// Shows `club` in the club pane as a moderator does: `:club <id>`, the server's answer,
/// then `Shift-Tab` back to the queue. The status line then says the club is shown.
pub fn show_club(m: &mut Model, club: Club) {
    update(m, key(':'));
    typed(m, &format!("club {}", club.id));
    let fx = update(m, code(KeyCode::Enter));
    let read = api_ids(&fx, |c| matches!(c, ApiCall::GetClub { .. }));
    assert_eq!(read.len(), 1, "one club read: {fx:?}");
    answer(m, read[0], ApiAnswer::Club(Ok(reply(club))));
    update(m, code(KeyCode::BackTab));
    assert_eq!(m.focus(), Pane::Queue, "back on the queue");
}

/// A clock for the command line's runner (`ops::run`) that moves instead of waiting: each
/// wait between re-reads of a lost answer moves that request's stopwatch on at once, and is
/// kept (`waits`). Give it to a run with `Control::with_clock`.
#[derive(Debug, Clone, Default)]
pub struct MovedClock {
    waits: std::sync::Arc<std::sync::Mutex<Vec<std::time::Duration>>>,
}

impl MovedClock {
    /// Every wait asked for so far, in order.
    pub fn waits(&self) -> Vec<std::time::Duration> {
        self.waits.lock().map(|w| w.clone()).unwrap_or_default()
    }
}

impl club_admin::ops::run::RunClock for MovedClock {
    fn start(&self) -> Box<dyn club_admin::ops::run::Stopwatch> {
        Box::new(MovedStopwatch {
            at: std::time::Duration::ZERO,
            waits: self.waits.clone(),
        })
    }
}

struct MovedStopwatch {
    at: std::time::Duration,
    waits: std::sync::Arc<std::sync::Mutex<Vec<std::time::Duration>>>,
}

impl club_admin::ops::run::Stopwatch for MovedStopwatch {
    fn elapsed(&self) -> std::time::Duration {
        self.at
    }

    fn sleep(
        &mut self,
        d: std::time::Duration,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        self.at += d;
        if let Ok(mut w) = self.waits.lock() {
            w.push(d);
        }
        // The other requests of the run go on meanwhile, as they would while it slept.
        Box::pin(tokio::task::yield_now())
    }
}

/// The request id numbered `n` in the sample rows and tests (`Uuid::from_u128`).
pub fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// Applies the server's `payload` to the call `request_id` (one `Msg::Api`, the call read
/// from the model's calls in flight: `ApiCall::answer_with`), returning its effects. A
/// payload of another operation than the call's panics (a test's mistake).
pub fn answer(m: &mut Model, request_id: u64, payload: ApiAnswer) -> Vec<Effect> {
    let msg = answers::answer_msg(m, request_id, payload);
    update(m, msg)
}

/// The status line's text, or "" when it says nothing.
pub fn status(m: &Model) -> String {
    m.status_text().unwrap_or_default()
}

/// Runs the real binary's `requests approve [extra] -` as the demo account `label`, `ids` on
/// its standard input, its state and config in `state`, the host budget's files in
/// `budget_dir`; returns the exit code (output dropped).
pub async fn approve_piped(
    d: &club_admin::demo::DemoHandle,
    label: &str,
    ids: &[Uuid],
    extra: &[&str],
    state: &std::path::Path,
    budget_dir: &std::path::Path,
) -> i32 {
    use tokio::io::AsyncWriteExt;
    let u = d.user(label).expect("demo account");
    let mut child = tokio::process::Command::new(CLUB_ADMIN)
        .args(["requests", "approve"])
        .args(extra)
        .arg("-")
        .env("CLUB_ADMIN_BASE_URL", &d.base_url)
        .env("CLUB_ADMIN_API_KEY", &u.api_key)
        .env("CLUB_ADMIN_TOKEN", &u.token)
        .env("CLUB_ADMIN_BUDGET_DIR", budget_dir)
        .env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state)
        .env_remove("CLUB_ADMIN_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn club-admin");
    let text: String = ids.iter().map(|id| format!("{id}\n")).collect();
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(text.as_bytes()).await.expect("write stdin");
    drop(pipe);
    child.wait().await.expect("wait").code().unwrap_or(-1)
}

/// The audit file's lines that tell an outcome (every line but the write-ahead `sending`
/// ones), after checking the write-ahead rule on the file: every write applied (`ok`) has
/// its `sending` line before it, of the same run, action and target.
pub fn outcomes_of(entries: Vec<club_admin::ops::AuditEntry>) -> Vec<club_admin::ops::AuditEntry> {
    use club_admin::ops::Outcome;
    let mut ahead = std::collections::HashSet::new();
    let mut out = Vec::new();
    for e in entries {
        let key = (e.run.clone(), e.action.clone(), e.target);
        if e.outcome == Outcome::Sending {
            ahead.insert(key);
            continue;
        }
        if e.outcome == Outcome::Ok && e.run.is_some() {
            assert!(
                ahead.contains(&key),
                "an applied write without its write-ahead line before it: {e:?}"
            );
        }
        out.push(e);
    }
    out
}

/// The audit file at `path`, read whole: its outcome lines ([`outcomes_of`]); empty when
/// there is no file.
pub fn audit_outcomes(path: &std::path::Path) -> Vec<club_admin::ops::AuditEntry> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    outcomes_of(
        text.lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
    )
}

/// A client of the demo `d` signed in as its account `u` (API key and token), with the
/// client's default options.
pub fn client_as(
    d: &club_admin::demo::DemoHandle,
    u: &club_admin::demo::DemoUser,
) -> club_admin::api::ApiClient {
    use club_admin::api::{ApiClient, ClientOptions, Credentials};
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions::default(),
    )
    .expect("client")
}

/// True when `dpkg-deb` runs here; otherwise says that `what` (a test) is skipped, and the
/// caller skips.
pub fn have_dpkg(what: &str) -> bool {
    let ok = std::process::Command::new("dpkg-deb")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("dpkg-deb is not installed: {what} is skipped");
    }
    ok
}
