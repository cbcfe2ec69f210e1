//! A request another moderator decided first is not a failure: the server's 403 "already
//! been approved|declined" settles the row at the server's status, leaves no mark to retry,
//! is audited `already` (the same decision) or `conflict` (the opposite), and a bulk
//! summary counts them apart from failures. English and Thai, drawn at 80x24 and 120x40.

use crate::common::answers::ApiAnswer;
use crate::common::*;
use club_admin::api::{ApiError, ClubRequest, MembershipStatus};
use club_admin::app::{ApiCall, Effect, Model, Outcome, update};
use club_admin::i18n::Lang;
use uuid::Uuid;

fn rows() -> Vec<ClubRequest> {
    (1..=3)
        .map(|n| {
            request(
                id(n),
                "pending",
                &format!("5{n:04}"),
                Some(("Somchai", "สมชาย")),
                ("Robotics Club", "ชุมนุมหุ่นยนต์"),
                2026,
                n as i64,
            )
        })
        .collect()
}

fn puts(fx: &[Effect]) -> Vec<(u64, Uuid)> {
    calls(fx)
        .into_iter()
        .filter_map(|(rid, c)| match c {
            ApiCall::UpdateRequest { id, .. } => Some((rid, id)),
            _ => None,
        })
        .collect()
}

fn audits(fx: &[Effect]) -> Vec<(Uuid, Outcome)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some((a.target, a.outcome)),
            _ => None,
        })
        .collect()
}

fn already(status: &str) -> ApiError {
    forbidden(&format!("Club request has already been {status}"))
}

/// The three rows marked and approved at once: request 1 confirmed, 2 already approved by
/// someone else, 3 declined by someone else. Returns the model and the audit lines.
fn three_answers(lang: Lang) -> (Model, Vec<(Uuid, Outcome)>) {
    let mut m = model_with_lang(rows(), lang);
    for _ in 0..3 {
        update(&mut m, key(' '));
    }
    update(&mut m, key('a'));
    let fx = update(&mut m, key('y'));
    let sent = puts(&fx);
    assert_eq!(sent.len(), 3, "three approvals sent");
    let mut lines = Vec::new();
    for (rid, target) in sent {
        let a = if target == id(1) {
            let mut r = rows()[0].clone();
            r.membership_status = Some(MembershipStatus::Approved);
            ApiAnswer::Updated(Ok(reply(r)))
        } else if target == id(2) {
            ApiAnswer::Updated(Err(already("approved")))
        } else {
            ApiAnswer::Updated(Err(already("declined")))
        };
        lines.extend(audits(&answer(&mut m, rid, a)));
    }
    (m, lines)
}

#[test]
fn a_bulk_approval_counts_what_others_decided_apart_from_failures() {
    for lang in [Lang::English, Lang::Thai] {
        let (mut m, lines) = three_answers(lang);
        assert_eq!(
            lines,
            vec![
                (id(1), Outcome::Ok),
                (id(2), Outcome::Already),
                (id(3), Outcome::Conflict)
            ]
        );
        assert!(m.queue().marked_ids().is_empty(), "nothing left to retry");
        let q = m.queue();
        let status_of = |n| q.get(id(n)).and_then(|i| i.status().cloned());
        assert_eq!(status_of(2), Some(MembershipStatus::Approved));
        assert_eq!(status_of(3), Some(MembershipStatus::Declined));
        assert_eq!(q.get(id(2)).and_then(|i| i.error.clone()), None);
        let conflict = q
            .get(id(3))
            .and_then(|i| i.error.clone())
            .unwrap_or_default();
        let approve = club_admin::tr!(lang, "status-verb", action = "approve");
        let declined = club_admin::tr!(lang, "status-state", status = "declined");
        assert_eq!(
            conflict,
            club_admin::tr!(
                lang,
                "error-already-conflict",
                status = declined.as_str(),
                action = approve.as_str()
            )
        );
        let approved = club_admin::tr!(lang, "status-state", status = "approved");
        let summary = format!(
            "{}, {}, {}",
            club_admin::tr!(
                lang,
                "status-bulk-summary",
                action = approve.as_str(),
                ok = 1usize,
                total = 3usize
            ),
            club_admin::tr!(
                lang,
                "status-bulk-summary-already",
                n = 1usize,
                status = approved.as_str()
            ),
            club_admin::tr!(lang, "status-bulk-summary-conflicts", n = 1usize)
        );
        assert_eq!(status(&m), summary);
        let failed = club_admin::tr!(lang, "status-bulk-summary-failed", n = 1usize, key = "a");
        assert!(!status(&m).contains(&failed), "no failure to retry");
        // Where the summary does not fit, its short form keeps every count.
        let short = format!(
            "{}, {}, {}",
            club_admin::tr!(
                lang,
                "status-bulk-summary-short",
                action = approve.as_str(),
                ok = 1usize,
                total = 3usize
            ),
            club_admin::tr!(lang, "status-bulk-summary-already-short", n = 1usize),
            club_admin::tr!(lang, "status-bulk-summary-conflicts-short", n = 1usize)
        );
        for (w, h) in [(80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(s.contains(&summary) || s.contains(&short), "{w}x{h}:\n{s}");
        }
        crate::fast::edges::same_after_redraw(&mut m);
        // `a` again: nothing is marked, and the row under the cursor is decided already:
        // nothing is asked or sent.
        let fx = update(&mut m, key('a'));
        assert!(puts(&fx).is_empty());
    }
}

#[test]
fn one_approval_already_made_elsewhere_says_so_and_a_decline_over_it_is_a_conflict() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = model_with_lang(rows(), lang);
        let fx = update(&mut m, key('a'));
        let (rid, target) = puts(&fx)[0];
        let fx = answer(&mut m, rid, ApiAnswer::Updated(Err(already("approved"))));
        assert_eq!(audits(&fx), vec![(target, Outcome::Already)]);
        assert!(
            calls(&fx).is_empty(),
            "the server said its status: nothing to re-read or resend"
        );
        let label = status(&m);
        let approved = club_admin::tr!(lang, "status-state", status = "approved");
        assert!(label.contains(approved.as_str()), "{label}");

        let fx = update(&mut m, key('x'));
        let (rid, target) = calls(&fx)
            .into_iter()
            .find_map(|(r, c)| match c {
                ApiCall::UpdateRequest { id, .. } => Some((r, id)),
                _ => None,
            })
            .expect("a decline sent");
        let fx = answer(&mut m, rid, ApiAnswer::Updated(Err(already("approved"))));
        assert_eq!(audits(&fx), vec![(target, Outcome::Conflict)]);
        let row = m.queue().get(target).expect("row");
        assert_eq!(row.status(), Some(&MembershipStatus::Approved));
        assert!(row.error.is_some(), "the conflict is on the row");
        crate::fast::edges::same_after_redraw(&mut m);
    }
}

/// What another `serve-ssh` session tells ([`club_admin::app::Told`]): a decision held there
/// shows on the row and `a` here asks first (naming who); released, it is gone; applied,
/// the row takes the status, says by whom, and a mark on it is dropped with a message.
#[test]
fn what_another_session_tells_shows_on_the_row_at_once() {
    use club_admin::app::{Heard, Msg, Popup, RowAction, Told};
    for lang in [Lang::English, Lang::Thai] {
        let mut m = model_with_lang(rows(), lang);
        let target = m.queue().selected().map(|i| i.id).expect("a row");
        let told = |heard| {
            Msg::Heard(Told {
                id: target,
                heard,
                by: Some("s1@school.example.ac.th".into()),
                at: now(),
            })
        };
        let _ = update(&mut m, told(Heard::Held(RowAction::Approve)));
        let row = m.queue().get(target).expect("row");
        assert!(row.held_elsewhere.is_some());
        let drawn = screen(&m, 120, 40);
        assert!(
            drawn.lines().any(|l| l.starts_with("│~")),
            "the row is marked held elsewhere:\n{drawn}"
        );
        // `a` asks first, naming who holds the other decision; Esc sends nothing.
        let fx = update(&mut m, key('a'));
        assert!(puts(&fx).is_empty());
        assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
        let drawn = screen(&m, 120, 40);
        assert!(drawn.contains("s1@school.example.ac.th"), "{drawn}");
        let _ = update(&mut m, code(club_admin::app::KeyCode::Esc));
        let _ = update(&mut m, told(Heard::Released));
        assert!(
            m.queue()
                .get(target)
                .is_some_and(|i| i.held_elsewhere.is_none())
        );
        // Marked here, then applied there.
        let _ = update(&mut m, key(' '));
        assert_eq!(m.queue().marked_ids(), vec![target]);
        let fx = update(&mut m, told(Heard::Decided(RowAction::Approve)));
        assert!(fx.is_empty() || !fx.iter().any(|e| matches!(e, Effect::Api { .. })));
        let row = m.queue().get(target).expect("row");
        assert_eq!(row.status(), Some(&MembershipStatus::Approved));
        assert!(m.queue().marked_ids().is_empty(), "the mark is dropped");
        let approved = club_admin::tr!(lang, "status-state", status = "approved");
        let label = status(&m);
        assert!(
            label.contains(approved.as_str()) && label.contains("s1@school.example.ac.th"),
            "{label}"
        );
        crate::fast::edges::same_after_redraw(&mut m);
    }
}

/// A bulk action whose answers were partly lost keeps its summary on the status line while
/// the re-reads settle those rows (each settled row has its line in the log, not the status
/// line); once the last is settled, the summary is said again with the server's truth, so
/// "unknown" never stays over a request that is known.
#[test]
fn a_bulk_summary_stays_while_its_lost_answers_are_settled() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = model_with_lang(rows(), lang);
        for _ in 0..3 {
            update(&mut m, key(' '));
        }
        update(&mut m, key('a'));
        let fx = update(&mut m, key('y'));
        let mut rereads = Vec::new();
        for (rid, target) in puts(&fx) {
            let a = if target == id(2) {
                ApiAnswer::Updated(Err(ApiError::timeout(20_000)))
            } else {
                let mut r = rows().into_iter().find(|r| r.id == target).expect("row");
                r.membership_status = Some(MembershipStatus::Approved);
                ApiAnswer::Updated(Ok(reply(r)))
            };
            rereads.extend(calls(&answer(&mut m, rid, a)));
        }
        let summary = status(&m);
        let unknown = club_admin::tr!(lang, "status-bulk-summary-unknown", n = 1usize);
        assert!(summary.contains(&unknown), "{summary}");
        // The lost one is re-read: approved after all.
        let mut r = rows().into_iter().find(|r| r.id == id(2)).expect("row");
        r.membership_status = Some(MembershipStatus::Approved);
        let logged = m.log().entries().len();
        for (rid, c) in rereads {
            let a = match c {
                ApiCall::GetRequest { .. } => ApiAnswer::Request(Ok(reply(r.clone()))),
                ApiCall::ListRequests { .. } => {
                    ApiAnswer::Listing(Ok(listing_reply(vec![r.clone()], None, 1)))
                }
                _ => continue,
            };
            let _ = answer(&mut m, rid, a);
        }
        assert_eq!(
            m.queue().get(id(2)).and_then(|i| i.status().cloned()),
            Some(MembershipStatus::Approved)
        );
        assert!(
            m.log().entries().len() > logged,
            "the settled row is logged"
        );
        let now = status(&m);
        let action = summary
            .split(':')
            .next()
            .expect("the summary names its action");
        let done = club_admin::tr!(
            lang,
            "status-bulk-summary",
            action = action,
            ok = 3usize,
            total = 3usize
        );
        assert_eq!(
            now, done,
            "the summary, said again: all three applied ({summary})"
        );
        assert!(!now.contains(&unknown), "{now}");
    }
}

/// A write whose answer was lost, while another session told it made the same decision: the
/// re-read shows the request decided but cannot tell whose write that was, so it is
/// audited `already`, never claimed `ok` by both.
#[test]
fn a_lost_answer_is_not_claimed_when_another_session_decided_it_first() {
    use club_admin::app::{Heard, Msg, RowAction, Told};
    let mut m = model_with(rows());
    let fx = update(&mut m, key('a'));
    let (rid, target) = puts(&fx)[0];
    let _ = update(
        &mut m,
        Msg::Heard(Told {
            id: target,
            heard: Heard::Decided(RowAction::Approve),
            by: Some("s1@school.example.ac.th".into()),
            at: now(),
        }),
    );
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Updated(Err(ApiError::timeout(20_000))),
    );
    assert_eq!(audits(&fx), vec![(target, Outcome::Unknown)]);
    let mut r = rows().into_iter().find(|r| r.id == target).expect("row");
    r.membership_status = Some(MembershipStatus::Approved);
    let mut lines = Vec::new();
    for (rid, c) in calls(&fx) {
        let a = match c {
            ApiCall::GetRequest { .. } => ApiAnswer::Request(Ok(reply(r.clone()))),
            ApiCall::ListRequests { .. } => {
                ApiAnswer::Listing(Ok(listing_reply(vec![r.clone()], None, 1)))
            }
            _ => continue,
        };
        lines.extend(audits(&answer(&mut m, rid, a)));
    }
    assert_eq!(lines, vec![(target, Outcome::Already)]);
}

/// Refused as already approved, where another session had told who approved it: the
/// status line names that moderator.
#[test]
fn already_approved_names_the_other_session_s_moderator() {
    use club_admin::app::{Heard, Msg, RowAction, Told};
    for lang in [Lang::English, Lang::Thai] {
        let mut m = model_with_lang(rows(), lang);
        let fx = update(&mut m, key('a'));
        let (rid, target) = puts(&fx)[0];
        let _ = update(
            &mut m,
            Msg::Heard(Told {
                id: target,
                heard: Heard::Decided(RowAction::Approve),
                by: Some("s1@school.example.ac.th".into()),
                at: now(),
            }),
        );
        let fx = answer(&mut m, rid, ApiAnswer::Updated(Err(already("approved"))));
        assert_eq!(audits(&fx), vec![(target, Outcome::Already)]);
        assert!(
            status(&m).contains("s1@school.example.ac.th"),
            "{}",
            status(&m)
        );
    }
}

/// A confirmation stays true to the rows while it is open: a bulk one names the marked
/// requests another session holds (their `~` hides under the mark), and drops a request
/// decided there meanwhile; a single one whose request was decided there closes, sends
/// nothing, and says why. English and Thai, drawn at 45x30 and 80x24.
#[test]
fn an_open_confirmation_follows_what_another_session_did() {
    use club_admin::app::{Heard, KeyCode, Msg, Popup, RowAction, Told};
    for lang in [Lang::English, Lang::Thai] {
        let told = |id: Uuid, heard| {
            Msg::Heard(Told {
                id,
                heard,
                by: Some("s1@school.example.ac.th".into()),
                at: now(),
            })
        };
        let mut m = model_with_lang(rows(), lang);
        let _ = update(&mut m, told(id(2), Heard::Held(RowAction::Approve)));
        for _ in 0..3 {
            update(&mut m, key(' '));
        }
        let fx = update(&mut m, key('a'));
        assert!(puts(&fx).is_empty());
        let which = m
            .queue()
            .get(id(2))
            .map(|i| i.label_for(lang == Lang::Thai))
            .expect("row 2");
        let held = club_admin::tr!(
            lang,
            "confirm-held-elsewhere",
            n = 1usize,
            by = "s1@school.example.ac.th",
            which = which.as_str()
        );
        for (w, h) in [(45, 30), (80, 24)] {
            // The box's text, its borders and line breaks left out.
            let drawn: String = screen(&m, w, h)
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '│')
                .collect();
            let want = held.split_whitespace().collect::<String>();
            assert!(
                drawn.contains(&want),
                "{w}x{h}: {held}\n{}",
                screen(&m, w, h)
            );
        }
        // Decided there while the confirmation is open: it leaves the confirmation.
        let _ = update(&mut m, told(id(2), Heard::Decided(RowAction::Approve)));
        match m.popup() {
            Some(Popup::Confirm { ids, .. }) => assert_eq!(ids, &vec![id(1), id(3)]),
            other => panic!("the confirmation stays open for the other two: {other:?}"),
        }
        let fx = update(&mut m, key('y'));
        let mut sent: Vec<Uuid> = puts(&fx).into_iter().map(|(_, i)| i).collect();
        sent.sort();
        assert_eq!(sent, vec![id(1), id(3)], "nothing sent for the decided one");

        // One row: its confirmation (asked since another session holds it) closes when
        // that session's decision lands, and nothing is sent.
        let mut m = model_with_lang(rows(), lang);
        let first = m.queue().selected().map(|i| i.id).expect("a row");
        let _ = update(&mut m, told(first, Heard::Held(RowAction::Decline)));
        let _ = update(&mut m, key('a'));
        assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
        let fx = update(&mut m, told(first, Heard::Decided(RowAction::Decline)));
        assert!(puts(&fx).is_empty());
        assert!(m.popup().is_none(), "the confirmation closed");
        let declined = club_admin::tr!(lang, "status-state", status = "declined");
        let why = club_admin::tr!(lang, "status-why-already", status = declined.as_str());
        let said = status(&m);
        assert!(said.contains(&why), "{said}");
        let fx = update(&mut m, code(KeyCode::Enter));
        assert!(puts(&fx).is_empty(), "Enter after the close sends nothing");
        crate::fast::edges::same_after_redraw(&mut m);
    }
}

/// Another `serve-ssh` session says it declined a request this dashboard's approval was
/// applied to (the 0.8.4 service accepts both): that is the overwrite, as a later read would
/// show it. The row says declined, the status line "your approval of … was overwritten:
/// declined since", the audit one `overwritten` line; a read that shows the same status after
/// it adds none.
#[test]
fn another_session_s_opposite_decision_overwrites_an_applied_approval_once() {
    use club_admin::app::{Heard, Msg, RowAction, Told};
    for lang in Lang::ALL {
        let mut m = model_with_lang(rows(), lang);
        cursor_to(&mut m, id(2));
        let fx = update(&mut m, key('a'));
        let sent = puts(&fx);
        assert_eq!(sent.len(), 1, "{fx:?}");
        let mut approved = rows().remove(1);
        approved.membership_status = Some(MembershipStatus::Approved);
        let fx = answer(&mut m, sent[0].0, ApiAnswer::Updated(Ok(reply(approved))));
        assert_eq!(audits(&fx), vec![(id(2), Outcome::Ok)]);
        let told = || {
            Msg::Heard(Told {
                id: id(2),
                heard: Heard::Decided(RowAction::Decline),
                by: Some("s3@school.example.ac.th".into()),
                at: now(),
            })
        };
        let fx = update(&mut m, told());
        let lines: Vec<_> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Audit(a) => Some((a.target, a.outcome, a.detail.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            lines,
            vec![(
                id(2),
                Outcome::Overwritten,
                Some("overwritten: declined since".into())
            )]
        );
        let row = m.queue().get(id(2)).expect("the row");
        assert_eq!(row.status(), Some(&MembershipStatus::Declined));
        assert_eq!(
            row.decided_elsewhere.as_ref(),
            Some(&MembershipStatus::Declined)
        );
        let said = status(&m);
        let declined =
            club_admin::app::model::words::status_word(lang, &MembershipStatus::Declined);
        let whole = club_admin::tr!(
            lang,
            "status-overwritten",
            action = "approve",
            label = "@",
            status = declined.as_str()
        );
        let (start, end) = whole.split_once('@').expect("the label's place");
        assert!(
            said.starts_with(start)
                && said.ends_with(end)
                && (said.contains("Somchai") || said.contains("สมชาย")),
            "the status line says it: {said}"
        );
        // Once: the same word again, or a read showing declined, adds nothing.
        let fx = update(&mut m, told());
        assert!(audits(&fx).is_empty(), "{fx:?}");
    }
}
