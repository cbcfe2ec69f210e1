//! Model-based test: random keys, ticks and server answers drive `update`;
//! a fake server keeps the truth, and after every step the model is checked against a
//! reference of what the moderator meant:
//!
//! - nothing panics;
//! - the cursor is on a shown row (or 0 when nothing is shown);
//! - every write (PUT or DELETE) targets a request that was selected, or marked, when a key
//!   of the same decision was handled, once per key, and never one taken back with `z`;
//! - `z` audits `undone` exactly the requests of the decision it takes back;
//! - the header's counts equal a recount of the rows, and a `status:pending` filter shows
//!   as many rows as the header counts pending.
//!
//! Marked rows hidden by the filter count as meant: the confirmation names them ("N of them
//! are hidden by the current filter") before anything is sent.

use crate::common;
use crate::common::answers::{AnswerWith, ApiAnswer};

use std::collections::{BTreeMap, HashSet};

use chrono::Duration as Span;
use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, Effect, Key, KeyCode, Msg, Outcome, update};
use common::{forbidden, now, request};
use proptest::prelude::*;
use uuid::Uuid;

// ---------------------------------------------------------------------------------------
// the fake server

/// How the server answers one call.
#[derive(Debug, Clone, Copy)]
enum Answer {
    Success,
    Forbidden,
    NotFound,
    /// Nothing changed; the call timed out.
    Timeout,
    /// A write is applied, then its answer is lost (the connection drops); a read just fails.
    Lost,
}

struct Server {
    /// Status of every request that exists; deleted ones are gone.
    rows: BTreeMap<Uuid, MembershipStatus>,
}

const CLUBS: [(&str, &str); 2] = [("Robotics Club", "ชุมนุมหุ่นยนต์"), ("Chess Club", "ชุมนุมหมากรุก")];

fn id(n: usize) -> Uuid {
    Uuid::from_u128(n as u128 + 1)
}

impl Server {
    fn new(statuses: &[u8]) -> Server {
        let rows = statuses
            .iter()
            .enumerate()
            .map(|(n, s)| {
                let st = match s {
                    0 => MembershipStatus::Approved,
                    1 => MembershipStatus::Declined,
                    _ => MembershipStatus::Pending,
                };
                (id(n), st)
            })
            .collect();
        Server { rows }
    }

    fn record(&self, r: Uuid) -> Option<ClubRequest> {
        let st = self.rows.get(&r)?;
        let n = r.as_u128() as usize;
        Some(request(
            r,
            &st.to_string(),
            &format!("5{n:04}"),
            None,
            CLUBS[n % 2],
            2026,
            n as i64,
        ))
    }

    fn not_found() -> ApiError {
        ApiError::NotFound(ErrorInfo {
            status: Some(404),
            error_type: Some("entity_not_found".into()),
            detail: Some("Club request not found".into()),
            ..ErrorInfo::default()
        })
    }

    fn failure(how: Answer) -> ApiError {
        match how {
            Answer::Forbidden => forbidden("Insufficient permissions to perform this action"),
            Answer::NotFound => Server::not_found(),
            Answer::Timeout => ApiError::timeout(20_000),
            _ => ApiError::Connect {
                failure: ConnectFailure::ClosedMidAnswer,
                host: "127.0.0.1:9".into(),
                cause: Some("connection closed before message completed".into()),
            },
        }
    }

    /// Applies a write when it succeeds or its answer is lost; the answer's error, if any.
    fn write(
        &mut self,
        r: Uuid,
        to: Option<MembershipStatus>,
        how: Answer,
    ) -> Result<(), ApiError> {
        if matches!(how, Answer::Success | Answer::Lost) {
            match (self.rows.get(&r), &to) {
                (None, _) => return Err(Server::not_found()),
                (Some(MembershipStatus::Pending), Some(s)) => {
                    self.rows.insert(r, s.clone());
                }
                (Some(s), Some(_)) => {
                    return Err(forbidden(&format!("Club request has already been {s}")));
                }
                (Some(_), None) => {
                    self.rows.remove(&r);
                }
            }
        }
        match how {
            Answer::Success => Ok(()),
            other => Err(Server::failure(other)),
        }
    }

    fn listing(&self, filter: &RequestFilter, page: Page) -> Reply<Vec<ClubRequest>> {
        let all: Vec<ClubRequest> = if filter.ids.is_empty() {
            self.rows
                .iter()
                .filter(|(_, s)| **s == MembershipStatus::Pending)
                .filter_map(|(r, _)| self.record(*r))
                .collect()
        } else {
            filter.ids.iter().filter_map(|r| self.record(*r)).collect()
        };
        let size = page.size.max(1) as usize;
        let total = all.len();
        let last = total.div_ceil(size) as u32;
        let p = page.p.max(1);
        let data = all
            .into_iter()
            .skip((p as usize - 1) * size)
            .take(size)
            .collect();
        Reply {
            data,
            api_version: Some("0.8.4".into()),
            meta: Some(Meta {
                timestamp: Some(now()),
                pagination: Some(Pagination {
                    first_p: Some(1),
                    last_p: Some(last),
                    next_p: (p < last).then_some(p + 1),
                    prev_p: (p > 1).then_some(p - 1),
                    size: Some(size as u32),
                    total: Some(total as u64),
                }),
            }),
        }
    }

    fn answer(&mut self, call: &ApiCall, how: Answer) -> ApiAnswer {
        let read_err = || match how {
            Answer::Success => None,
            other => Some(Server::failure(other)),
        };
        match call {
            ApiCall::CurrentUser => ApiAnswer::User(match read_err() {
                Some(e) => Err(e),
                // A student on the staff of every club, the student of every row: may
                // approve, decline and delete each (api-notes.md, "Who may do what").
                None => Ok(common::reply(common::moderator())),
            }),
            ApiCall::GetRequest { id: r, .. } => ApiAnswer::Request(match read_err() {
                Some(e) => Err(e),
                None => self
                    .record(*r)
                    .map(common::reply)
                    .ok_or_else(Server::not_found),
            }),
            ApiCall::ListRequests { filter, page, .. } => ApiAnswer::Listing(match read_err() {
                Some(e) => Err(e),
                None => Ok(self.listing(filter, *page)),
            }),
            ApiCall::UpdateRequest { id: r, status, .. } => {
                let res = self.write(*r, Some(status.clone()), how);
                ApiAnswer::Updated(res.and_then(|()| {
                    self.record(*r)
                        .map(common::reply)
                        .ok_or_else(Server::not_found)
                }))
            }
            ApiCall::DeleteRequest { id: r } => {
                ApiAnswer::Deleted(self.write(*r, None, how).map(|()| common::reply(())))
            }
            // This server has approve and decline; a pasted token (`S`) is refused.
            ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
            ApiCall::CheckToken { .. } => ApiAnswer::User(Err(ApiError::Unauthorized {
                kind: AuthErrorKind::InvalidToken,
                info: ErrorInfo::default(),
            })),
            // The clubs the moderator staffs: those of every row.
            ApiCall::SearchClubs {
                purpose: club_admin::app::SearchPurpose::StaffedClubs,
                ..
            } => ApiAnswer::Clubs(match read_err() {
                Some(e) => Err(e),
                None => Ok(common::reply(common::staffed_clubs())),
            }),
            // Typed letters may open the club lookup (`c`): this server knows no club.
            ApiCall::SearchClubs { .. } => ApiAnswer::Clubs(Err(Server::not_found())),
            ApiCall::GetClub { .. } => ApiAnswer::Club(Err(Server::not_found())),
            other => panic!("the keys of this test never ask for {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// steps

#[derive(Debug, Clone)]
enum Step {
    /// A key of the queue (or of the pop-up that is open).
    Key(Key),
    /// `/`, the text, then Enter (keep) or Esc (undo).
    Filter(&'static str, bool),
    /// `:` and a command, then Enter.
    Command(&'static str),
    /// The server answers the call at this position (modulo those in flight).
    Answer(usize, Answer),
    /// Time passes (seconds).
    Tick(u8),
}

fn keys() -> impl Strategy<Value = Key> {
    // Decisions, their confirmation and undo most; quitting rarely (it ends the run).
    let c = |ch| Just(Key::char(ch));
    prop_oneof![
        6 => c('a'),
        6 => c('x'),
        2 => c('D'),
        4 => c('y'),
        2 => c('n'),
        4 => c('z'),
        2 => c('*'),
        5 => c(' '),
        6 => c('j'),
        3 => c('k'),
        1 => c('g'),
        2 => c('G'),
        1 => c('u'),
        1 => c('s'),
        1 => c('r'),
        1 => c('d'),
        1 => c('q'),
        2 => Just(Key::new(KeyCode::Enter)),
        2 => Just(Key::new(KeyCode::Esc)),
    ]
}

fn reply() -> impl Strategy<Value = Answer> {
    prop_oneof![
        6 => Just(Answer::Success),
        1 => Just(Answer::Forbidden),
        1 => Just(Answer::NotFound),
        1 => Just(Answer::Timeout),
        1 => Just(Answer::Lost),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        10 => keys().prop_map(Step::Key),
        2 => (
            proptest::sample::select(vec!["status:pending", "club:chess", "robot", "-chess", "", "5000"]),
            any::<bool>()
        )
            .prop_map(|(t, keep)| Step::Filter(t, keep)),
        1 => proptest::sample::select(vec!["clear-done", "refresh", "sort club", "sort server"])
            .prop_map(Step::Command),
        12 => (any::<usize>(), reply()).prop_map(|(n, r)| Step::Answer(n, r)),
        3 => (0u8..5).prop_map(Step::Tick),
    ]
}

// ---------------------------------------------------------------------------------------
// the reference: what the moderator meant

/// One decision key (a, x, D) and the requests it may write, each once.
struct Intent {
    action: RowAction,
    remaining: HashSet<Uuid>,
}

struct Run {
    m: Model,
    server: Server,
    inflight: Vec<(u64, ApiCall)>,
    intents: Vec<Intent>,
    now: chrono::DateTime<chrono::Utc>,
    quit: bool,
}

impl Run {
    fn new(statuses: &[u8], delay: u64, page_size: u32, warm: bool) -> Run {
        let mut m = Model::new(ModelOptions {
            now: now(),
            page_size,
            decision_delay: std::time::Duration::from_secs(delay),
            ..ModelOptions::new("http://127.0.0.1:9")
        });
        let _ = update(&mut m, Msg::Layout { queue_rows: 6 });
        let mut run = Run {
            m,
            server: Server::new(statuses),
            inflight: Vec::new(),
            intents: Vec::new(),
            now: now(),
            quit: false,
        };
        let fx = club_admin::app::start(&mut run.m);
        run.effects(fx);
        if warm {
            // The user and the first listing page answer: the run starts on a loaded queue.
            for _ in 0..2 {
                run.step(&Step::Answer(0, Answer::Success));
            }
        }
        run
    }

    /// Takes the effects of one update: calls go in flight, writes are checked against what
    /// was meant.
    fn effects(&mut self, fx: Vec<Effect>) {
        for e in fx {
            match e {
                Effect::Api {
                    request_id, call, ..
                } => {
                    let write = match &call {
                        ApiCall::UpdateRequest { id, status, .. } => Some((
                            *id,
                            if *status == MembershipStatus::Approved {
                                RowAction::Approve
                            } else {
                                RowAction::Decline
                            },
                        )),
                        ApiCall::DeleteRequest { id } => Some((*id, RowAction::Delete)),
                        _ => None,
                    };
                    if let Some((target, action)) = write {
                        let meant = self
                            .intents
                            .iter_mut()
                            .find(|i| i.action == action && i.remaining.contains(&target));
                        match meant {
                            Some(i) => {
                                i.remaining.remove(&target);
                            }
                            None => panic!(
                                "{action:?} of {target} was never meant (or was taken back, or sent twice)"
                            ),
                        }
                    }
                    self.inflight.push((request_id, call));
                }
                Effect::Quit => self.quit = true,
                _ => {}
            }
        }
    }

    fn send(&mut self, msg: Msg) {
        let fx = update(&mut self.m, msg);
        self.effects(fx);
    }

    /// True when a key goes to the queue's keymap (no pop-up, no text field).
    fn in_queue(&self) -> bool {
        self.m.popup().is_none() && self.m.focus() == Pane::Queue && !self.m.club().editing
    }

    fn key(&mut self, k: Key) {
        if !self.in_queue() {
            return self.send(Msg::Key(k));
        }
        let action = match k.code {
            KeyCode::Char('a') => Some(RowAction::Approve),
            KeyCode::Char('x') => Some(RowAction::Decline),
            KeyCode::Char('D') => Some(RowAction::Delete),
            _ => None,
        };
        if let Some(action) = action {
            let marked = self.m.queue().marked_ids();
            let meant: HashSet<Uuid> = if marked.is_empty() {
                self.m
                    .queue()
                    .selected()
                    .map(|i| i.id)
                    .into_iter()
                    .collect()
            } else {
                marked.into_iter().collect()
            };
            self.intents.push(Intent {
                action,
                remaining: meant,
            });
        }
        if k.code == KeyCode::Char('z') {
            let taken = self.m.held().latest().map(|d| (d.action, d.ids.clone()));
            let fx = update(&mut self.m, Msg::Key(k));
            let undone: Vec<Uuid> = fx
                .iter()
                .filter_map(|e| match e {
                    Effect::Audit(a) if a.outcome == Outcome::Undone => Some(a.target),
                    _ => None,
                })
                .collect();
            match &taken {
                Some((action, ids)) => {
                    assert_eq!(&undone, ids, "z audits undone the decision it takes back");
                    for r in ids {
                        if let Some(i) = self
                            .intents
                            .iter_mut()
                            .rev()
                            .find(|i| i.action == *action && i.remaining.contains(r))
                        {
                            i.remaining.remove(r);
                        }
                    }
                }
                None => assert!(undone.is_empty(), "nothing held, nothing undone"),
            }
            return self.effects(fx);
        }
        self.send(Msg::Key(k));
    }

    fn step(&mut self, s: &Step) {
        match s {
            Step::Key(k) => self.key(*k),
            // Every key goes through `key`: when `/` or `:` did not open its line (a pop-up
            // was open), the letters typed after it are commands of the queue.
            Step::Filter(text, keep) => {
                self.key(Key::char('/'));
                for c in text.chars() {
                    self.key(Key::char(c));
                }
                let end = if *keep { KeyCode::Enter } else { KeyCode::Esc };
                self.key(Key::new(end));
            }
            Step::Command(cmd) => {
                self.key(Key::char(':'));
                for c in cmd.chars() {
                    self.key(Key::char(c));
                }
                self.key(Key::new(KeyCode::Enter));
            }
            Step::Answer(n, how) => {
                if self.inflight.is_empty() {
                    return;
                }
                let (request_id, call) = self.inflight.remove(n % self.inflight.len());
                let answer = self.server.answer(&call, *how);
                let answer = call.answer_with(answer);
                self.send(Msg::Api { request_id, answer });
            }
            Step::Tick(secs) => {
                self.now += Span::seconds(i64::from(*secs));
                let t = self.now;
                self.send(Msg::Tick(t));
            }
        }
    }

    /// The invariants that hold after every step.
    fn check(&self, after: &Step) {
        let q = &self.m.queue();
        if q.visible().is_empty() {
            assert_eq!(q.cursor(), 0, "after {after:?}");
        } else {
            assert!(
                q.cursor() < q.visible().len() && q.selected().is_some(),
                "cursor {} of {} shown, after {after:?}",
                q.cursor(),
                q.visible().len()
            );
        }
        let mut recount = (0, 0, 0, 0);
        for i in q.items() {
            match (&i.state, i.status()) {
                (RowState::Deleted | RowState::Gone, _) => recount.3 += 1,
                (_, Some(MembershipStatus::Pending)) => recount.0 += 1,
                (_, Some(MembershipStatus::Approved)) => recount.1 += 1,
                (_, Some(MembershipStatus::Declined)) => recount.2 += 1,
                _ => recount.3 += 1,
            }
        }
        assert_eq!(q.counts(), recount, "header counts, after {after:?}");
        let marked = q.items().iter().filter(|i| i.marked).count();
        assert_eq!(q.stats().marked, marked, "marked count, after {after:?}");
        let mut pending = self.m.queue().clone();
        pending.set_filter("status:pending");
        assert_eq!(
            pending.visible().len(),
            recount.0,
            "status:pending shows the header's pending count, after {after:?}"
        );
    }
}

fn statuses() -> impl Strategy<Value = Vec<u8>> {
    // Mostly pending (2..=4), some approved (0) and declined (1).
    proptest::collection::vec(0u8..5, 1..14)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        max_shrink_iters: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_key_acts_on_what_the_moderator_meant(
        rows in statuses(),
        delay in prop_oneof![Just(0u64), Just(3u64)],
        page_size in 2u32..6,
        warm in proptest::bool::weighted(0.8),
        steps in proptest::collection::vec(step(), 1..150),
    ) {
        let mut run = Run::new(&rows, delay, page_size, warm);
        for s in &steps {
            run.step(s);
            run.check(s);
            if run.quit {
                break;
            }
        }
        if !run.quit {
            // A hang-up at the end: whatever is still held goes, and only what was meant.
            run.send(Msg::Flush(club_admin::app::EndedBy::HangUp));
            run.check(&Step::Tick(0));
        }
    }
}

/// A case the random search found: a refresh while a row's write is lost, a filter, two
/// approvals, then `*` (mark all): the header's marked count must equal the marked rows.
#[test]
fn mark_all_after_a_refresh_and_a_lost_write_counts_its_marks() {
    use Answer::*;
    let k = |c| Step::Key(Key::char(c));
    let steps = [
        Step::Answer(0, Success),
        Step::Answer(0, Success),
        k('D'),
        Step::Answer(0, Timeout),
        Step::Command("refresh"),
        k('k'),
        Step::Answer(1467827329926725748, Lost),
        Step::Answer(2646647442089606246, Success),
        Step::Answer(11233311193900061708, Success),
        Step::Filter("status:pending", false),
        Step::Command("refresh"),
        Step::Answer(6186383065656360535, Success),
        k('j'),
        k('a'),
        k('a'),
        k('*'),
    ];
    let mut run = Run::new(&[2, 2, 0, 2, 0, 0, 2, 0, 0, 2], 0, 4, true);
    for s in &steps {
        run.step(s);
        run.check(s);
    }
}
