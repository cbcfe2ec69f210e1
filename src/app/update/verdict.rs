//! The server's answer to a decision: the row takes the server's word (or keeps its error),
//! the audit file gets a line, a bulk task counts it. A write whose answer was lost is never
//! guessed: it is audited `unknown`, the row re-reads itself, and the re-read settles it
//! with a second audit line ([`settle_unknown`]).

use uuid::Uuid;

use super::{
    audit, audit_entry, error_text, fetch, key_for, label_of, log, log_text, note_error, note_ok,
    say,
};
use crate::api::{ApiError, ClubRequest, MembershipStatus, UpdateRoute};
use crate::app::effect::{Effect, Outcome};
use crate::app::model::{LogEntry, Model, Origin, RowAction, RowState, Severity};
use crate::app::msg::ApiAnswer;

/// How an answer counts in a bulk task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    Done,
    Failed,
    Unknown,
}

/// Applies the answer to a decision on `id`.
pub(super) fn on_action_answer(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    answer: ApiAnswer,
) -> Vec<Effect> {
    if let ApiAnswer::Updated(r) = &answer
        && let Some(route) = UpdateRoute::learned_from(r)
        && let Err(e) = r
    {
        return refused_by_route(m, id, action, route, e);
    }
    let result: Result<Option<ClubRequest>, ApiError> = match answer {
        ApiAnswer::Updated(r) => r.map(|reply| {
            note_ok(m, &reply.api_version);
            Some(reply.data)
        }),
        ApiAnswer::Deleted(r) => r.map(|reply| {
            note_ok(m, &reply.api_version);
            None
        }),
        other => {
            tracing::warn!("unexpected answer to an action: {other:?}");
            return Vec::new();
        }
    };
    let label = label_of(m, id);
    let (mut fx, counted) = match result {
        Ok(answer) => (confirmed(m, id, action, answer, &label), Counted::Done),
        Err(e) if answer_lost(&e) => (lost(m, id, action, e, &label), Counted::Unknown),
        Err(e) => (refused(m, id, action, e, &label), Counted::Failed),
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
    let was_listed_pending = m.queue.get(id).is_some_and(|i| {
        i.origin == Origin::Listing && i.status() == Some(&MembershipStatus::Pending)
    });
    if was_listed_pending && let Some(t) = m.listing.total.as_mut() {
        // The server's pending count shrinks with each confirmed decision.
        *t = t.saturating_sub(1);
    }
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
            RowAction::Delete => "deleted".to_owned(),
            _ => m
                .queue
                .get(id)
                .and_then(|i| i.status().map(|s| s.to_string()))
                .unwrap_or_else(|| action.past().to_owned()),
        };
        say(m, Severity::Success, &format!("{label}: {shown}"));
    }
    fx
}

/// True when the write may have reached the server although no answer says so: the
/// connection dropped or timed out, the answer could not be read, or a 5xx came back.
fn answer_lost(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Connect { .. }
            | ApiError::Timeout { .. }
            | ApiError::Server(_)
            | ApiError::Decode { .. }
    )
}

fn refused(m: &mut Model, id: Uuid, action: RowAction, e: ApiError, label: &str) -> Vec<Effect> {
    note_error(m, &e);
    let text = error_text(&e);
    if let Some(item) = m.queue.get_mut(id) {
        item.state = match e {
            ApiError::NotFound(_) => RowState::Gone,
            _ if item.request.is_some() => RowState::Ready,
            _ => RowState::Failed,
        };
        item.error = Some(text.clone());
    }
    if let Some(eid) = e.error_id() {
        tracing::warn!(action = action.verb(), target = %id, error_id = %eid, "refused: {text}");
    }
    log(
        m,
        action.verb(),
        Some(id),
        label.to_owned(),
        Err(log_text(&e)),
    );
    let mut fx = vec![audit(m, action.verb(), id, Err(log_text(&e)))];
    if m.activities.bulk.is_none() {
        say(
            m,
            Severity::Error,
            &format!("{} {label} failed: {text}", action.verb()),
        );
    }
    // Learn the request's true state: approved or deleted elsewhere. Never resend the write.
    if !matches!(e, ApiError::NotFound(_) | ApiError::Unauthorized { .. }) {
        fx.extend(fetch::fetch_rows(m, &[id]));
    }
    fx
}

/// The answer to a write was lost: audited `unknown`, the row re-reads itself, and the
/// re-read settles the outcome ([`settle_unknown`]). Never resent.
fn lost(m: &mut Model, id: Uuid, action: RowAction, e: ApiError, label: &str) -> Vec<Effect> {
    note_error(m, &e);
    let text = error_text(&e);
    let detail = format!(
        "the answer was lost ({}): re-reading the request",
        log_text(&e)
    );
    if let Some(item) = m.queue.get_mut(id) {
        item.state = if item.request.is_some() {
            RowState::Ready
        } else {
            RowState::Failed
        };
        item.error = Some(format!(
            "{} sent, answer lost: outcome unknown, re-reading",
            action.verb()
        ));
    }
    m.unsettled.insert(id, action, text.clone());
    push_log(m, action, id, label, Outcome::Unknown, &detail);
    let mut fx = vec![audit_entry(
        m,
        action.verb(),
        id,
        Outcome::Unknown,
        Some(detail),
    )];
    if m.activities.bulk.is_none() {
        say(
            m,
            Severity::Error,
            &format!(
                "{} {label}: the answer was lost ({text}); re-reading to learn the outcome",
                action.verb()
            ),
        );
    }
    fx.extend(fetch::fetch_rows(m, &[id]));
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

/// After reads of `ids` were applied: every one of them whose write lost its answer, and
/// whose row is read now, is settled by what the server says: `ok` when the request has the
/// decided status (or, for a delete, is gone), `failed` when it has not. A re-read that
/// failed too leaves it unknown (Enter reads again).
pub(super) fn settle_unknown(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    let mut fx = Vec::new();
    for &id in ids {
        let Some(action) = m.unsettled.get(id) else {
            continue;
        };
        let Some(item) = m.queue.get(id) else {
            continue;
        };
        let verdict: Result<String, String> = match (&item.state, item.status()) {
            (RowState::Loading, _) => continue,
            (RowState::Gone, _) if action == RowAction::Delete => Ok("deleted".into()),
            (RowState::Gone, _) => Err("the request is not on the server any more".into()),
            _ if item.read_error.is_some() => {
                let why = item.read_error.clone().unwrap_or_default();
                still_unknown(m, id, action, &format!("the re-read failed too: {why}"));
                continue;
            }
            (_, _) if action == RowAction::Delete => Err("still on the server: not deleted".into()),
            (_, Some(s)) if Some(s) == action.status().as_ref() => Ok(s.to_string()),
            (_, Some(MembershipStatus::Pending)) => Err("not applied: still pending".into()),
            (_, Some(s)) => Err(format!("not applied: the request is {s} now")),
            (_, None) => {
                still_unknown(m, id, action, "this fetch level does not show the status");
                continue;
            }
        };
        let cause = m.unsettled.remove(id).map(|u| u.1).unwrap_or_default();
        fx.extend(settled(m, id, action, verdict, &cause));
    }
    fx
}

/// A re-read could not settle the write on `id`: the row says why; Enter reads again.
fn still_unknown(m: &mut Model, id: Uuid, action: RowAction, why: &str) {
    if let Some(item) = m.queue.get_mut(id) {
        item.error = Some(format!(
            "{} sent, answer lost: outcome still unknown ({why}); Enter reads again",
            action.verb()
        ));
    }
}

/// Records how a write whose answer was lost (`cause`) ended, as a re-read showed it.
fn settled(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    verdict: Result<String, String>,
    cause: &str,
) -> Vec<Effect> {
    let label = label_of(m, id);
    let verb = action.verb();
    let lost = format!("its answer had been lost: {cause}");
    if let Some(item) = m.queue.get_mut(id) {
        match &verdict {
            Ok(_) => {
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
            Err(why) => item.error = Some(format!("{verb} {why} ({lost})")),
        }
    }
    let (outcome, detail, severity, text) = match &verdict {
        Ok(s) => (
            Outcome::Ok,
            format!("settled by a re-read ({lost}): {s}"),
            Severity::Success,
            format!("{label}: {s} (re-read after the answer was lost)"),
        ),
        Err(why) => (
            Outcome::Failed,
            format!("settled by a re-read ({lost}): {why}"),
            Severity::Error,
            format!("{verb} {label}: {why} ({lost})"),
        ),
    };
    push_log(m, action, id, &label, outcome, &detail);
    say(m, severity, &text);
    vec![audit_entry(m, action.verb(), id, outcome, Some(detail))]
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
    }
    b.seq = seq;
    if b.done < b.total {
        return Vec::new();
    }
    let (done, total, failed, unknown, act) = (b.done, b.total, b.failed, b.unknown, b.action);
    m.activities.bulk = None;
    let mut tail = String::new();
    if failed > 0 {
        tail.push_str(&format!(
            ", {failed} failed (still marked: press {} to retry)",
            key_for(m, act)
        ));
    }
    if unknown > 0 {
        tail.push_str(&format!(", {unknown} unknown (answer lost: re-reading)"));
    }
    let severity = if failed + unknown == 0 {
        Severity::Success
    } else {
        Severity::Error
    };
    say(
        m,
        severity,
        &format!(
            "{}: {} of {total} done{tail}",
            act.verb(),
            done - failed - unknown
        ),
    );
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
    let text = error_text(e);
    if let Some(item) = m.queue.get_mut(id) {
        item.state = if item.request.is_some() {
            RowState::Ready
        } else {
            RowState::Failed
        };
        item.error = Some(text.clone());
    }
    let mut fx = vec![audit(m, action.verb(), id, Err(text))];
    let in_bulk = m.activities.bulk.is_some();
    fx.extend(count_in_bulk(m, id, Counted::Failed));
    if in_bulk
        && m.activities.bulk.is_none()
        && let Some(text) = m
            .capabilities
            .update_route
            .as_ref()
            .and_then(UpdateRoute::notice)
    {
        // The bulk summary would offer a retry that cannot work: the notice stays instead.
        say(m, Severity::Error, &crate::text::clean(&text, 300));
    }
    fx
}
