//! The server's answer to a decision: the row takes the server's word (or keeps its error),
//! the audit file gets a line, a bulk task counts it. A write whose answer was lost is never
//! guessed: it is audited `unknown`, the row re-reads itself, and the re-read settles it
//! with a second audit line ([`settle_unknown`]).

use uuid::Uuid;

use super::{
    audit, audit_entry, error_text, key_for, label_of, log, log_text, note_error, note_ok, rows,
    say,
};
use crate::api::{ApiError, ClubRequest, MembershipStatus, UpdateRoute};
use crate::app::call::Decided;
use crate::app::model::capability::route_notice;
use crate::app::model::words::{past, status_word, verb};
use crate::app::model::{LogEntry, Model, Origin, RowAction, RowState, Severity};
use crate::app::msg::{Effect, Outcome};
use crate::i18n::{Lang, tr};
use crate::ops::verdict::{Found, Reread, StillUnknown, answer_lost, settle};
use crate::tr;

/// How an answer counts in a bulk task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    Done,
    Failed,
    Unknown,
    /// Someone else had made the same decision.
    Already,
    /// Someone else had made the opposite decision.
    Conflict,
}

/// Applies the answer to a decision on `id`.
pub(super) fn on_action_answer(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    result: Decided,
) -> Vec<Effect> {
    if action.needs_update_route()
        && let Some(route) = UpdateRoute::learned_from(&result)
        && let Err(e) = &result
    {
        return refused_by_route(m, id, action, route, e);
    }
    if let Err(e) = &result
        && matches!(e, ApiError::Unauthorized { kind, .. } if kind.needs_sign_in())
    {
        // The session was over: the server refused it before anything else, so it was not
        // applied. It waits for the sign-in and then goes, as the moderator meant it; sent
        // with a token replaced since (maybe another account's), it is not sent again.
        let e = e.clone();
        if super::stale_unauthorised(m, &e) {
            count_in_bulk(m, id, Counted::Failed);
            return super::held::not_sent(m, action, id);
        }
        note_error(m, &e);
        super::held::hold_for_sign_in(m, action, id);
        return Vec::new();
    }
    let result: Result<Option<ClubRequest>, ApiError> = result.map(|reply| {
        note_ok(m, &reply.api_version);
        reply.data
    });
    let label = label_of(m, id);
    let (mut fx, counted) = match result {
        Ok(answer) => (confirmed(m, id, action, answer, &label), Counted::Done),
        Err(e) => match e.already_decided() {
            Some(status) => already(m, id, action, status, &label),
            None if answer_lost(&e) => (lost(m, id, action, e, &label), Counted::Unknown),
            None => (refused(m, id, action, e, &label), Counted::Failed),
        },
    };
    fx.extend(count_in_bulk(m, id, counted));
    fx
}

fn confirmed(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    answer: Option<ClubRequest>,
    label: &str,
) -> Vec<Effect> {
    super::count_decided(m, id);
    if let Some(item) = m.queue.get_mut(id) {
        item.error = None;
        item.read_error = None;
        item.marked = false;
        match answer {
            Some(r) => {
                item.state = RowState::Ready;
                match &mut item.request {
                    Some(old) => old.merge_from(r),
                    None => item.request = Some(r),
                }
            }
            None => item.state = RowState::Deleted,
        }
    }
    log(m, action.verb(), Some(id), label.to_owned(), Ok(()));
    let fx = vec![audit(m, action.verb(), id, Ok(()))];
    if m.activities.bulk.is_none() {
        let shown = match action {
            RowAction::Delete => past(m.lang, action),
            _ => m
                .queue
                .get(id)
                .and_then(|i| i.status().map(|s| status_word(m.lang, s)))
                .unwrap_or_else(|| past(m.lang, action)),
        };
        say(m, Severity::Success, &format!("{label}: {shown}"));
    }
    fx
}

/// The server refused the decision because someone else had decided the request first
/// (403 "already been approved|declined", [`ApiError::already_decided`]): the row takes the
/// server's status, keeps no mark (nothing to retry), and the audit says `already` (the same
/// decision: the request is as the moderator wanted) or `conflict` (the opposite, shown as
/// such on the row and the status line). Not a failure.
fn already(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    status: MembershipStatus,
    label: &str,
) -> (Vec<Effect>, Counted) {
    let lang = m.lang;
    let (outcome, english) = crate::ops::audit::already_line(action, &status);
    super::count_decided(m, id);
    let word = status_word(lang, &status);
    let conflict = outcome == Outcome::Conflict;
    if let Some(item) = m.queue.get_mut(id) {
        item.state = RowState::Ready;
        item.marked = false;
        item.read_error = None;
        if let Some(r) = item.request.as_mut() {
            r.membership_status = Some(status.clone());
        }
        item.error = conflict.then(|| {
            tr!(
                lang,
                "error-already-conflict",
                status = word.as_str(),
                action = verb(lang, action)
            )
        });
    }
    // Who, where another session of this server told it (serve-ssh).
    let by = m
        .queue
        .get(id)
        .and_then(|i| i.decided_by.as_ref())
        .and_then(|(by, _)| by.clone());
    let (key, severity) = match (conflict, by.is_some()) {
        (true, false) => ("status-already-conflict", Severity::Error),
        (true, true) => ("status-already-conflict-by", Severity::Error),
        (false, false) => ("status-already-same", Severity::Success),
        (false, true) => ("status-already-same-by", Severity::Success),
    };
    let text = tr!(
        lang,
        key,
        label = label,
        status = word.as_str(),
        action = verb(lang, action),
        by = by.unwrap_or_default()
    );
    push_log(m, action, id, label, outcome, &text);
    if m.activities.bulk.is_none() {
        say(m, severity, &text);
    }
    let fx = vec![audit_entry(m, action.verb(), id, outcome, Some(english))];
    let counted = if conflict {
        Counted::Conflict
    } else {
        Counted::Already
    };
    (fx, counted)
}

fn refused(m: &mut Model, id: Uuid, action: RowAction, e: ApiError, label: &str) -> Vec<Effect> {
    note_error(m, &e);
    let text = error_text(m.lang, &e);
    if let Some(item) = m.queue.get_mut(id) {
        item.state = match e {
            ApiError::NotFound(_) => RowState::Gone,
            _ if item.request.is_some() => RowState::Ready,
            _ => RowState::Failed,
        };
        item.error = Some(text.clone());
    }
    if let Some(eid) = e.error_id() {
        tracing::warn!(action = action.verb(), target = %id, error_id = %eid, "refused: {e}");
    }
    log(
        m,
        action.verb(),
        Some(id),
        label.to_owned(),
        Err(log_text(m.lang, &e)),
    );
    let mut fx = vec![audit(
        m,
        action.verb(),
        id,
        Err(crate::ops::audit::error_detail(&e)),
    )];
    if m.activities.bulk.is_none() {
        let text = crate::tr!(
            m.lang,
            "status-action-failed",
            action = verb(m.lang, action),
            label = label,
            error = text
        );
        say(m, Severity::Error, &text);
    }
    // Learn the request's true state: approved or deleted elsewhere. Never resend the write.
    if !matches!(e, ApiError::NotFound(_) | ApiError::Unauthorized { .. }) {
        fx.extend(rows::fetch_rows(m, &[id]));
    }
    fx
}

/// The answer to a write was lost: audited `unknown`, the row re-reads itself, and the
/// re-read settles the outcome ([`settle_unknown`]). Never resent.
fn lost(m: &mut Model, id: Uuid, action: RowAction, e: ApiError, label: &str) -> Vec<Effect> {
    note_error(m, &e);
    let lang = m.lang;
    let detail = |l: Lang| tr!(l, "log-answer-lost", error = log_text(l, &e));
    if let Some(item) = m.queue.get_mut(id) {
        item.state = if item.request.is_some() {
            RowState::Ready
        } else {
            RowState::Failed
        };
        item.error = Some(tr!(lang, "error-answer-lost", action = verb(lang, action)));
    }
    push_log(m, action, id, label, Outcome::Unknown, &detail(lang));
    let mut fx = vec![audit_entry(
        m,
        action.verb(),
        id,
        Outcome::Unknown,
        Some(crate::ops::audit::lost_detail(&e)),
    )];
    if m.activities.bulk.is_none() {
        let text = tr!(
            lang,
            "status-answer-lost",
            action = verb(lang, action),
            label = label,
            error = error_text(lang, &e)
        );
        say(m, Severity::Error, &text);
    }
    m.unsettled.insert(id, action, e);
    fx.extend(rows::fetch_rows(m, &[id]));
    fx
}

fn push_log(
    m: &mut Model,
    action: RowAction,
    id: Uuid,
    label: &str,
    outcome: Outcome,
    detail: &str,
) {
    m.log.push(LogEntry {
        at: m.now,
        what: action.verb().to_owned(),
        target: Some(id),
        label: label.to_owned(),
        outcome,
        detail: Some(crate::text::clean(detail, 300)),
    });
}

/// What a re-read showed, in words in `lang` ("approved", "not applied: still pending").
fn found_text(lang: Lang, found: &Found) -> String {
    match found {
        Found::Deleted => past(lang, RowAction::Delete),
        Found::Decided(s) => status_word(lang, s),
        Found::Gone => tr(lang, "error-verdict-gone"),
        Found::NotDeleted => tr(lang, "error-verdict-not-deleted"),
        Found::StillPending => tr(lang, "error-verdict-still-pending"),
        Found::Now(s) => tr!(lang, "error-verdict-now", status = status_word(lang, s)),
    }
}

/// After reads of `ids` were applied: every one of them whose write lost its answer, and
/// whose row is read now, is settled by the core's rule ([`settle`]): `ok` when the request
/// has the decided status (or, for a delete, is gone), `failed` when it has not. A re-read
/// that could not tell leaves it unknown, and the next re-read is planned with the core's
/// backoff (`Msg::Retry` sends it, no key needed).
pub(super) fn settle_unknown(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    let mut fx = Vec::new();
    for &id in ids {
        let Some(action) = m.unsettled.get(id) else {
            continue;
        };
        let Some(item) = m.queue.get(id) else {
            continue;
        };
        let reread = match (&item.state, &item.read_error) {
            (RowState::Loading, _) => continue,
            (RowState::Gone, _) => Reread::Missing,
            (_, Some(why)) => Reread::Failed(why.clone()),
            _ => Reread::Found(item.status().cloned()),
        };
        match settle(action, &reread) {
            Ok(found) => {
                if let Some((_, cause)) = m.unsettled.remove(id) {
                    fx.extend(settled(m, id, action, found, &cause));
                }
            }
            Err(why) => {
                m.unsettled.retry_later(id, m.now);
                still_unknown(m, id, action, &why);
            }
        }
    }
    fx
}

/// Re-reads the rows whose write lost its answer and whose next re-read is due at `now`
/// (`Msg::Retry`).
pub(super) fn reread_due(m: &mut Model, now: crate::api::Timestamp) -> Vec<Effect> {
    let due = m.unsettled.take_due(now);
    rows::fetch_rows(m, &due)
}

/// Re-reads every row whose write lost its answer, at once: the link came back, or a new
/// sign-in (the backoff starts again).
pub(super) fn reread_all(m: &mut Model) -> Vec<Effect> {
    if m.unsettled.is_empty() {
        return Vec::new();
    }
    let all = m.unsettled.take_all();
    rows::fetch_rows(m, &all)
}

/// A re-read could not settle the write on `id`: the row says why (the detail pane counts
/// down to the next re-read, from [`crate::app::model::Unsettled::due_at`]).
fn still_unknown(m: &mut Model, id: Uuid, action: RowAction, why: &StillUnknown) {
    let lang = m.lang;
    let why = match why {
        StillUnknown::ReadFailed(e) => tr!(lang, "error-reread-failed-too", error = e.as_str()),
        StillUnknown::LevelHidesStatus => tr(lang, "error-level-hides-status"),
    };
    let text = tr!(
        lang,
        "error-still-unknown",
        action = verb(lang, action),
        why = why
    );
    if let Some(item) = m.queue.get_mut(id) {
        item.error = Some(text);
    }
}

/// Records how a write whose answer was lost (`cause`) ended, as a re-read showed it: the
/// row, the log and the status line in the reader's language, the audit line in English.
fn settled(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    found: Found,
    cause: &ApiError,
) -> Vec<Effect> {
    let label = label_of(m, id);
    let lang = m.lang;
    let lost = |l: Lang| tr!(l, "log-answer-had-been-lost", error = error_text(l, cause));
    let detail = |l: Lang| {
        tr!(
            l,
            "log-settled",
            lost = lost(l),
            outcome = found_text(l, &found)
        )
    };
    let (what, why) = (verb(lang, action), found_text(lang, &found));
    let failed = (!found.applied()).then(|| {
        tr!(
            lang,
            "error-settled-failed",
            action = what.as_str(),
            why = why.as_str(),
            lost = lost(lang)
        )
    });
    settle_row(m, id, action, failed);
    // Another session told it applied this decision while this write's answer was lost:
    // the re-read cannot tell whose write it shows, so it is not claimed (`already`).
    let theirs = found.applied()
        && action != RowAction::Delete
        && m.queue.get(id).is_some_and(|i| i.decided_by.is_some());
    let (outcome, severity, text) = if theirs {
        let text = tr!(
            lang,
            "status-already-same",
            label = label.as_str(),
            status = why.as_str(),
            action = what.as_str()
        );
        (Outcome::Already, Severity::Success, text)
    } else if found.applied() {
        let text = tr!(
            lang,
            "status-settled-ok",
            label = label.as_str(),
            outcome = why
        );
        (Outcome::Ok, Severity::Success, text)
    } else {
        let text = tr!(
            lang,
            "status-settled-failed",
            action = what,
            label = label.as_str(),
            why = why,
            lost = lost(lang)
        );
        (Outcome::Failed, Severity::Error, text)
    };
    push_log(m, action, id, &label, outcome, &detail(lang));
    if m.activities.bulk_unsettled.remove(&id) || m.activities.bulk.is_some() {
        // One row of a bulk action: its summary stays on the status line (the log has
        // this row's line).
    } else {
        say(m, severity, &text);
    }
    let (_, mut english) = crate::ops::audit::settled_line(cause, &found);
    if theirs {
        english = format!("{english}; another session had {} it first", action.past());
    }
    vec![audit_entry(m, action.verb(), id, outcome, Some(english))]
}

/// The row of a write settled by its re-read: applied (`failed` is `None`: the server's
/// count shrinks, the mark goes, a deleted row says so), or not, with why.
fn settle_row(m: &mut Model, id: Uuid, action: RowAction, failed: Option<String>) {
    let Some(item) = m.queue.get_mut(id) else {
        return;
    };
    match failed {
        None => {
            if item.origin == Origin::Listing
                && let Some(t) = m.listing.total.as_mut()
            {
                *t = t.saturating_sub(1);
            }
            item.error = None;
            item.marked = false;
            if action == RowAction::Delete {
                item.state = RowState::Deleted;
            }
        }
        Some(text) => item.error = Some(text),
    }
}

/// Counts an answer in the bulk task it belongs to; the last one ends the task with a
/// summary.
fn count_in_bulk(m: &mut Model, id: Uuid, counted: Counted) -> Vec<Effect> {
    let seq = m.next_seq();
    let Some(b) = m.activities.bulk.as_mut().filter(|b| b.ids.contains(&id)) else {
        return Vec::new();
    };
    b.done += 1;
    match counted {
        Counted::Done => {}
        Counted::Failed => b.failed += 1,
        Counted::Unknown => b.unknown += 1,
        Counted::Already => b.already += 1,
        Counted::Conflict => b.conflicts += 1,
    }
    b.seq = seq;
    if b.done < b.total {
        return Vec::new();
    }
    let (done, total, failed, unknown, act) = (b.done, b.total, b.failed, b.unknown, b.action);
    let (already, conflicts) = (b.already, b.conflicts);
    let ids = b.ids.clone();
    m.activities.bulk = None;
    // Rows whose answer was lost are still to be settled by their re-reads: quietly.
    m.activities.bulk_unsettled = ids
        .into_iter()
        .filter(|id| m.unsettled.get(*id).is_some())
        .collect();
    let lang = m.lang;
    let mut text = tr!(
        lang,
        "status-bulk-summary",
        action = verb(lang, act),
        ok = done - failed - unknown - already - conflicts,
        total = total
    );
    if already > 0 {
        let status = act
            .status()
            .map(|s| status_word(lang, &s))
            .unwrap_or_default();
        let more = tr!(
            lang,
            "status-bulk-summary-already",
            n = already,
            status = status
        );
        text.push_str(&format!(", {more}"));
    }
    if conflicts > 0 {
        let more = tr!(lang, "status-bulk-summary-conflicts", n = conflicts);
        text.push_str(&format!(", {more}"));
    }
    if failed > 0 {
        let more = tr!(
            lang,
            "status-bulk-summary-failed",
            n = failed,
            key = key_for(m, act)
        );
        text.push_str(&format!(", {more}"));
    }
    if unknown > 0 {
        let more = tr!(lang, "status-bulk-summary-unknown", n = unknown);
        text.push_str(&format!(", {more}"));
    }
    let severity = if failed + unknown + conflicts == 0 {
        Severity::Success
    } else {
        Severity::Error
    };
    say(m, severity, &text);
    Vec::new()
}

/// A decision refused because the server lacks the update route or refuses it to this
/// account's role (issue 13 item 2): the server is learnt to refuse every decision, which the
/// status line and the log say once ([`super::capability::learn`]), not once per answer; the
/// row keeps its state with the reason; the audit file records the refusal; nothing is
/// re-read (nothing changed).
fn refused_by_route(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    route: UpdateRoute,
    e: &ApiError,
) -> Vec<Effect> {
    note_error(m, e);
    super::capability::learn(m, route);
    let text = error_text(m.lang, e);
    if let Some(item) = m.queue.get_mut(id) {
        item.state = if item.request.is_some() {
            RowState::Ready
        } else {
            RowState::Failed
        };
        item.error = Some(text);
    }
    let english = error_text(Lang::English, e);
    let mut fx = vec![audit(m, action.verb(), id, Err(english))];
    let in_bulk = m.activities.bulk.is_some();
    fx.extend(count_in_bulk(m, id, Counted::Failed));
    if in_bulk
        && m.activities.bulk.is_none()
        && let Some(text) = m
            .capabilities
            .update_route
            .as_ref()
            .and_then(|r| route_notice(m.lang, r))
    {
        // The bulk summary would offer a retry that cannot work: the notice stays instead.
        say(m, Severity::Error, &crate::text::clean(&text, 300));
    }
    fx
}
