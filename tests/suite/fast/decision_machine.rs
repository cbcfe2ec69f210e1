//! The one state machine of a decision (`ops::decision`), which both faces run: every pair
//! of stage and event is tried, the legal ones give the next stage and the audit line the
//! table below says, and every other one fails loudly (an `Illegal` naming the stage and the
//! event, the decision unchanged). The rules it follows (what an answer means, how a re-read
//! settles a lost answer, the backoff) are tried here too.

use club_admin::api::{ApiError, ConnectFailure, ErrorClass, ErrorInfo, MembershipStatus};
use club_admin::ops::Outcome;
use club_admin::ops::RowAction;
use club_admin::ops::book::Book;
use club_admin::ops::decision::{
    Answer, Decision, Ending, Event, Found, Reread, Stage, StillUnknown, backoff, classify, settle,
    stops_run,
};
use uuid::Uuid;

fn at(secs: i64) -> club_admin::api::Timestamp {
    chrono::DateTime::from_timestamp(1_800_000_000 + secs, 0).expect("time")
}

fn no_connection() -> ApiError {
    ApiError::Connect {
        failure: ConnectFailure::NoConnection,
        host: "127.0.0.1:9".into(),
        cause: Some("connection refused".into()),
    }
}

fn server_error() -> ApiError {
    ApiError::Server(ErrorInfo::default())
}

/// One decision in each stage there is (a settled one for each way of ending).
fn every_stage() -> Vec<Stage> {
    let lost = |why| Stage::Lost {
        cause: server_error(),
        attempts: 1,
        next_read: Some(at(1)),
        why,
    };
    vec![
        Stage::Held { send_at: at(5) },
        Stage::Queued,
        Stage::Sending,
        lost(None),
        lost(Some(StillUnknown::LevelHidesStatus)),
        Stage::Settled(Ending::Done),
        Stage::Settled(Ending::Already(MembershipStatus::Approved)),
        Stage::Settled(Ending::Refused(ApiError::Forbidden(ErrorInfo::default()))),
        Stage::Settled(Ending::Found {
            found: Found::StillPending,
            cause: server_error(),
        }),
        Stage::Settled(Ending::Undone),
        Stage::Settled(Ending::Unknown),
        Stage::Settled(Ending::Overwritten(MembershipStatus::Declined)),
        Stage::Settled(Ending::NotSent),
    ]
}

/// Every event there is, with each kind of answer and of re-read.
fn every_event() -> Vec<Event> {
    let reread = |read| Event::Reread {
        read,
        now: at(2),
        told_applied: false,
    };
    vec![
        Event::Send,
        Event::Queue,
        Event::Hold(at(9)),
        Event::TakeBack("taken back".into()),
        Event::Answered(Answer::Done(())),
        Event::Answered(Answer::Already(MembershipStatus::Declined)),
        Event::Answered(Answer::Refused(ApiError::Forbidden(ErrorInfo::default()))),
        Event::Answered(Answer::Lost(server_error())),
        reread(Reread::Found(Some(MembershipStatus::Approved))),
        reread(Reread::Failed("timed out".into())),
        Event::ReadNow { fresh: true },
        Event::Abandon,
        Event::Overwritten(MembershipStatus::Declined),
        Event::Stopped("the server stopped".into()),
    ]
}

/// A decision in `stage`, reached through legal transitions only (as a face reaches it).
fn decision_in(stage: &Stage) -> Decision {
    let id = Uuid::from_u128(7);
    let sending = || Decision::new(id, RowAction::Approve, 1, Stage::Sending).expect("born");
    let mut d = match stage {
        Stage::Held { .. } => {
            Decision::new(id, RowAction::Approve, 1, stage.clone()).expect("born held")
        }
        _ => sending(),
    };
    let answer = |d: &mut Decision, e| d.apply(e).expect("legal on the way");
    match stage {
        Stage::Held { .. } | Stage::Sending => {}
        // A write that could not connect waits, queued.
        Stage::Queued => {
            answer(&mut d, Event::Answered(Answer::Refused(no_connection())));
        }
        Stage::Lost { why, .. } => {
            answer(&mut d, Event::Answered(Answer::Lost(server_error())));
            if why.is_some() {
                answer(
                    &mut d,
                    Event::Reread {
                        read: Reread::Found(None),
                        now: at(0),
                        told_applied: false,
                    },
                );
            }
        }
        Stage::Settled(ending) => {
            let event = match ending {
                Ending::Done => Event::Answered(Answer::Done(())),
                Ending::Already(s) => Event::Answered(Answer::Already(s.clone())),
                Ending::Refused(e) => Event::Answered(Answer::Refused(e.clone())),
                Ending::Undone => Event::TakeBack("undone".into()),
                Ending::Unknown => Event::Abandon,
                Ending::Overwritten(s) => {
                    answer(&mut d, Event::Answered(Answer::Done(())));
                    Event::Overwritten(s.clone())
                }
                Ending::NotSent => Event::Answered(Answer::Refused(ApiError::NotSent(
                    "the server stopped".into(),
                ))),
                Ending::Found { .. } => {
                    answer(&mut d, Event::Answered(Answer::Lost(server_error())));
                    Event::Reread {
                        read: Reread::Found(Some(MembershipStatus::Pending)),
                        now: at(0),
                        told_applied: false,
                    }
                }
            };
            answer(&mut d, event);
        }
    }
    assert_eq!(d.stage().name(), stage.name(), "reached {stage:?}");
    d
}

/// The transition table, written out apart from the code: which events each stage takes.
fn legal(stage: &Stage, event: &Event) -> bool {
    match stage {
        Stage::Held { .. } => matches!(
            event,
            Event::Send | Event::Queue | Event::Hold(_) | Event::TakeBack(_) | Event::Stopped(_)
        ),
        Stage::Queued => matches!(
            event,
            Event::Send | Event::Hold(_) | Event::TakeBack(_) | Event::Stopped(_)
        ),
        Stage::Sending => matches!(
            event,
            Event::Answered(_) | Event::Hold(_) | Event::TakeBack(_) | Event::Abandon
        ),
        Stage::Lost { .. } => matches!(
            event,
            Event::Reread { .. } | Event::ReadNow { .. } | Event::Abandon
        ),
        // An applied approval, read since in the other status: said once.
        Stage::Settled(Ending::Done) => matches!(event, Event::Overwritten(_)),
        Stage::Settled(_) => false,
    }
}

#[test]
fn every_illegal_transition_fails_loudly_and_changes_nothing() {
    let mut tried = 0;
    let mut refused = 0;
    for stage in every_stage() {
        for event in every_event() {
            let mut d = decision_in(&stage);
            let before = d.clone();
            let name = event.name();
            let result = d.apply(event.clone());
            tried += 1;
            if legal(&stage, &event) {
                assert!(
                    result.is_ok(),
                    "{event:?} while {stage:?} is legal: {result:?}"
                );
            } else {
                refused += 1;
                let e = result.expect_err("illegal");
                assert_eq!((e.stage, e.event), (stage.name(), name));
                assert!(
                    e.to_string().contains("illegal transition"),
                    "says what went wrong: {e}"
                );
                assert_eq!(
                    d,
                    before,
                    "an illegal {name} while {} changes nothing",
                    stage.name()
                );
            }
        }
    }
    assert_eq!(tried, 13 * 14);
    assert_eq!(
        refused,
        182 - (5 + 4 + 7 + 2 * 4 + 1),
        "held takes 5 events, queued 4, sending 7, lost 4; settled applied 1 (overwritten), the others none"
    );
}

#[test]
fn the_legal_transitions_write_the_audit_lines_of_the_rule() {
    let outcome = |stage: Stage, event: Event| {
        let mut d = decision_in(&stage);
        let line = d.apply(event).expect("legal");
        (line.map(|l| l.outcome), d.stage().name())
    };
    let sending = || Stage::Sending;
    assert_eq!(
        outcome(sending(), Event::Answered(Answer::Done(()))),
        (Some(Outcome::Ok), "settled")
    );
    assert_eq!(
        outcome(
            sending(),
            Event::Answered(Answer::Already(MembershipStatus::Approved))
        ),
        (Some(Outcome::Already), "settled")
    );
    assert_eq!(
        outcome(
            sending(),
            Event::Answered(Answer::Already(MembershipStatus::Declined))
        ),
        (Some(Outcome::Conflict), "settled")
    );
    assert_eq!(
        outcome(sending(), Event::Answered(Answer::Lost(server_error()))),
        (Some(Outcome::Unknown), "lost")
    );
    assert_eq!(
        outcome(sending(), Event::Abandon),
        (Some(Outcome::Unknown), "settled")
    );
    assert_eq!(outcome(sending(), Event::Hold(at(1))), (None, "held"));
    let held = || Stage::Held { send_at: at(3) };
    // The write-ahead line: in the audit file before the write leaves.
    assert_eq!(
        outcome(held(), Event::Send),
        (Some(Outcome::Sending), "sending")
    );
    assert_eq!(
        outcome(held(), Event::TakeBack("z".into())),
        (Some(Outcome::Undone), "settled")
    );
    let lost = || Stage::Lost {
        cause: server_error(),
        attempts: 0,
        next_read: None,
        why: None,
    };
    let reread = |status, told_applied| Event::Reread {
        read: Reread::Found(Some(status)),
        now: at(0),
        told_applied,
    };
    assert_eq!(
        outcome(lost(), reread(MembershipStatus::Approved, false)),
        (Some(Outcome::Ok), "settled")
    );
    assert_eq!(
        outcome(lost(), reread(MembershipStatus::Approved, true)),
        (Some(Outcome::Already), "settled"),
        "another session applied it first: not claimed"
    );
    assert_eq!(
        outcome(lost(), reread(MembershipStatus::Pending, false)),
        (Some(Outcome::Failed), "settled")
    );
    assert_eq!(
        outcome(lost(), Event::Abandon),
        (None, "settled"),
        "unknown was written"
    );
}

#[test]
fn a_reread_that_cannot_tell_plans_the_next_by_the_backoff() {
    let mut d = decision_in(&Stage::Sending);
    d.apply(Event::Answered(Answer::Lost(server_error())))
        .expect("lost");
    for (n, wait) in [(1, 1), (2, 2), (3, 4)] {
        d.apply(Event::Reread {
            read: Reread::Failed("no answer".into()),
            now: at(100),
            told_applied: false,
        })
        .expect("still lost");
        match d.stage() {
            Stage::Lost {
                attempts,
                next_read,
                why,
                ..
            } => {
                assert_eq!(*attempts, n);
                assert_eq!(*next_read, Some(at(100 + wait)));
                assert!(matches!(why, Some(StillUnknown::ReadFailed(_))));
            }
            other => panic!("still lost, not {other:?}"),
        }
    }
    d.apply(Event::ReadNow { fresh: true }).expect("read now");
    assert!(matches!(
        d.stage(),
        Stage::Lost {
            attempts: 0,
            next_read: None,
            ..
        }
    ));
}

#[test]
fn a_book_never_starts_a_second_decision_on_a_request_still_deciding() {
    let id = Uuid::from_u128(1);
    let mut book = Book::default();
    book.start(id, RowAction::Approve, 1, Stage::Sending)
        .expect("first");
    let again = book.start(id, RowAction::Decline, 2, Stage::Sending);
    assert!(again.is_err(), "a request has one decision alive at a time");
    book.apply(id, Event::Answered(Answer::Lost(server_error())))
        .expect("lost");
    assert!(
        book.start(id, RowAction::Approve, 3, Stage::Sending)
            .is_err(),
        "a write whose answer was lost is never sent again"
    );
    assert_eq!(book.lost_action(id), Some(RowAction::Approve));
    book.apply(
        id,
        Event::Reread {
            read: Reread::Found(Some(MembershipStatus::Pending)),
            now: at(0),
            told_applied: false,
        },
    )
    .expect("settled: not applied");
    book.start(id, RowAction::Approve, 4, Stage::Held { send_at: at(5) })
        .expect("settled: a new decision may start");
    assert_eq!(book.deciding(id), Some(RowAction::Approve));
    assert!(
        book.apply(Uuid::from_u128(2), Event::Send).is_err(),
        "no decision on that request"
    );
    for born in [
        Stage::Lost {
            cause: server_error(),
            attempts: 0,
            next_read: None,
            why: None,
        },
        Stage::Settled(Ending::Done),
    ] {
        assert!(Decision::new(id, RowAction::Approve, 1, born).is_err());
    }
}

#[test]
fn held_decisions_come_due_by_batch_in_the_order_they_were_made() {
    let mut book = Book::default();
    let ids: Vec<Uuid> = (1..=4).map(Uuid::from_u128).collect();
    for id in [ids[3], ids[1]] {
        book.start(id, RowAction::Approve, 2, Stage::Held { send_at: at(5) })
            .expect("held");
    }
    book.start(
        ids[2],
        RowAction::Decline,
        1,
        Stage::Held { send_at: at(1) },
    )
    .expect("held");
    book.start(
        ids[0],
        RowAction::Decline,
        3,
        Stage::Held { send_at: at(9) },
    )
    .expect("held");
    assert_eq!(book.held_due(at(5)), vec![ids[2], ids[3], ids[1]]);
    assert_eq!(book.held_due(at(0)), Vec::<Uuid>::new());
    assert_eq!(book.batch_size(2), 2);
}

#[test]
fn a_refusal_is_refused_and_a_fault_is_lost() {
    let forbidden = ApiError::Forbidden(ErrorInfo::default());
    assert!(matches!(classify::<()>(Err(forbidden)), Answer::Refused(_)));
    assert!(matches!(
        classify::<()>(Err(server_error())),
        Answer::Lost(_)
    ));
    let connect = |failure| ApiError::Connect {
        failure,
        host: "h".into(),
        cause: None,
    };
    let refused = connect(ConnectFailure::NoConnection);
    assert!(stops_run(&refused), "an unreachable server stops the run");
    assert!(matches!(classify::<()>(Err(refused)), Answer::Refused(_)));
    let closed = connect(ConnectFailure::ClosedWithoutAnswer);
    assert!(matches!(classify::<()>(Err(closed)), Answer::Lost(_)));
    assert!(matches!(classify(Ok(1)), Answer::Done(1)));
}

/// Each variant of `ApiError` is sorted once (`ApiError::class`), and what it means for a
/// write (lost or refused), the connection (offline) and the client's own retries follows.
#[test]
fn every_api_error_has_one_class_and_its_meanings_follow() {
    use ErrorClass::*;
    let info = ErrorInfo::default;
    let status = |s| ErrorInfo {
        status: Some(s),
        ..ErrorInfo::default()
    };
    let connect = |failure| ApiError::Connect {
        failure,
        host: "h".into(),
        cause: None,
    };
    let unauthorized = ApiError::Unauthorized {
        kind: club_admin::api::AuthErrorKind::InvalidToken,
        info: info(),
    };
    let decode = ApiError::Decode {
        status: Some(200),
        message: "x".into(),
        excerpt: None,
    };
    let not_service = ApiError::NotTheService {
        status: Some(200),
        excerpt: None,
    };
    // (error, class, write lost, offline, transient)
    let table = [
        (unauthorized, Refused, false, false, false),
        (ApiError::Forbidden(info()), Refused, false, false, false),
        (ApiError::NotFound(info()), Refused, false, false, false),
        (
            ApiError::OperationUnavailable(info()),
            Refused,
            false,
            false,
            false,
        ),
        (ApiError::Invalid(info()), Refused, false, false, false),
        (ApiError::Conflict(info()), Refused, false, false, false),
        (ApiError::Config("x".into()), Refused, false, false, false),
        (
            connect(ConnectFailure::NoConnection),
            NotConnected,
            false,
            true,
            true,
        ),
        (
            connect(ConnectFailure::ClosedMidAnswer),
            Unanswered,
            true,
            true,
            true,
        ),
        (ApiError::timeout(5000), Unanswered, true, true, true),
        (
            ApiError::Server(status(500)),
            ServerFault,
            true,
            false,
            false,
        ),
        (
            ApiError::Server(status(503)),
            ServerFault,
            true,
            false,
            true,
        ),
        (decode, ServerFault, true, false, false),
        (not_service, NotTheService, true, false, false),
        (ApiError::NotSent("x".into()), NotSent, false, false, false),
        (ApiError::Internal, Unknown, true, false, false),
        (ApiError::NoAnswer("x".into()), Unknown, true, false, false),
    ];
    for (e, class, lost, offline, transient) in table {
        assert_eq!(e.class(), class, "{e:?}");
        assert_eq!(e.class().write_lost(), lost, "{e:?}");
        assert_eq!(
            matches!(classify::<()>(Err(e.clone())), Answer::Lost(_)),
            lost,
            "{e:?}"
        );
        assert_eq!(e.class().offline(), offline, "{e:?}");
        assert_eq!(e.is_transient(), transient, "{e:?}");
    }
}

#[test]
fn a_reread_settles_by_the_servers_status() {
    use MembershipStatus::*;
    let a = RowAction::Approve;
    assert_eq!(
        settle(a, &Reread::Found(Some(Approved))),
        Ok(Found::Decided(Approved))
    );
    assert_eq!(
        settle(a, &Reread::Found(Some(Pending))),
        Ok(Found::StillPending)
    );
    assert_eq!(
        settle(a, &Reread::Found(Some(Declined))),
        Ok(Found::Now(Declined))
    );
    assert_eq!(settle(a, &Reread::Missing), Ok(Found::Gone));
    assert_eq!(
        settle(a, &Reread::Found(None)),
        Err(StillUnknown::LevelHidesStatus)
    );
    assert!(settle(a, &Reread::Failed("x".into())).is_err());
    let d = RowAction::Delete;
    assert_eq!(settle(d, &Reread::Missing), Ok(Found::Deleted));
    assert_eq!(
        settle(d, &Reread::Found(Some(Pending))),
        Ok(Found::NotDeleted)
    );
    assert!(Found::Deleted.applied() && !Found::StillPending.applied());
}

#[test]
fn rereads_back_off_from_one_second_to_thirty() {
    let waits: Vec<u64> = (0..8).map(|a| backoff(a).as_secs()).collect();
    assert_eq!(waits, vec![1, 2, 4, 8, 16, 30, 30, 30]);
}

#[test]
fn a_write_that_could_not_connect_waits_queued_and_one_dropped_unsent_is_not_sent() {
    let id = Uuid::from_u128(9);
    let mut d = Decision::new(id, RowAction::Approve, 1, Stage::Held { send_at: at(0) })
        .expect("born held");
    // A bulk's row waits for its turn: nothing written until it goes.
    assert_eq!(d.apply(Event::Queue).expect("legal"), None);
    assert_eq!(d.stage(), &Stage::Queued);
    let line = d.apply(Event::Send).expect("legal").expect("a line");
    assert_eq!(line.outcome, Outcome::Sending, "written as it leaves");
    // No connection could be made: the server never received it. Not a failure.
    let line = d
        .apply(Event::Answered(Answer::Refused(no_connection())))
        .expect("legal")
        .expect("a line");
    assert_eq!(line.outcome, Outcome::Queued);
    let detail = line.detail.unwrap_or_default();
    assert!(
        detail.starts_with("not sent: ") && detail.contains("waits"),
        "{detail}"
    );
    assert_eq!(d.stage(), &Stage::Queued);
    // It goes again when the service answers, and is answered as any write.
    let line = d.apply(Event::Send).expect("legal").expect("a line");
    assert_eq!(line.outcome, Outcome::Sending);
    let line = d.apply(Event::Answered(Answer::Done(()))).expect("legal");
    assert_eq!(line.map(|l| l.outcome), Some(Outcome::Ok));

    // A write dropped before it left (a bulk stopped by a hang-up or a server's stop) is not
    // sent: `not_sent`, never `undone` (nobody took it back).
    let mut d = Decision::new(id, RowAction::Approve, 2, Stage::Sending).expect("born");
    let dropped = ApiError::NotSent("the dashboard was ending".into());
    let line = d
        .apply(Event::Answered(Answer::Refused(dropped)))
        .expect("legal")
        .expect("a line");
    assert_eq!(line.outcome, Outcome::NotSent);
    assert_eq!(d.stage(), &Stage::Settled(Ending::NotSent));
}
