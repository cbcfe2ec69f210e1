//! The server's answer to a decision: the row takes the server's word (or keeps its error),
//! the audit file gets a line, a bulk task counts it.

use uuid::Uuid;

use super::{audit, error_text, fetch, key_for, label_of, log, note_error, note_ok, say};
use crate::api::{ApiError, ClubRequest, MembershipStatus, UpdateRoute};
use crate::app::effect::Effect;
use crate::app::model::{Model, Origin, RowAction, RowState, Severity};
use crate::app::msg::ApiAnswer;

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
    let ok = result.is_ok();
    let mut fx = match result {
        Ok(answer) => confirmed(m, id, action, answer, &label),
        Err(e) => refused(m, id, action, e, &label),
    };
    fx.extend(count_in_bulk(m, id, ok));
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
        let shown = m
            .queue
            .get(id)
            .and_then(|i| i.status().map(|s| s.to_string()))
            .unwrap_or_else(|| {
                if action == RowAction::Delete {
                    "deleted".into()
                } else {
                    "done".into()
                }
            });
        say(m, Severity::Success, &format!("{label}: {shown}"));
    }
    fx
}

fn refused(m: &mut Model, id: Uuid, action: RowAction, e: ApiError, label: &str) -> Vec<Effect> {
    note_error(m, &e);
    let text = error_text(&e);
    let uncertain = matches!(
        e,
        ApiError::Connect { .. }
            | ApiError::Timeout { .. }
            | ApiError::Server(_)
            | ApiError::Decode { .. }
    );
    if let Some(item) = m.queue.get_mut(id) {
        item.state = match e {
            ApiError::NotFound(_) => RowState::Gone,
            _ if item.request.is_some() => RowState::Ready,
            _ => RowState::Failed,
        };
        item.error = Some(if uncertain {
            format!("{text} — outcome unknown, re-reading")
        } else {
            text.clone()
        });
    }
    log(
        m,
        action.verb(),
        Some(id),
        label.to_owned(),
        Err(text.clone()),
    );
    let mut fx = vec![audit(m, action.verb(), id, Err(text.clone()))];
    if m.activities.bulk.is_none() {
        say(
            m,
            Severity::Error,
            &format!("{} {label} failed: {text}", action.verb()),
        );
    }
    // Learn the request's true state: approved or deleted elsewhere, or a write whose
    // answer was lost. Never resend the write.
    if !matches!(e, ApiError::NotFound(_) | ApiError::Unauthorized { .. }) {
        fx.extend(fetch::fetch_rows(m, &[id]));
    }
    fx
}

/// Counts an answer in the bulk task it belongs to; the last one ends the task with a
/// summary.
fn count_in_bulk(m: &mut Model, id: Uuid, ok: bool) -> Vec<Effect> {
    let seq = m.next_seq();
    let Some(b) = m.activities.bulk.as_mut().filter(|b| b.ids.contains(&id)) else {
        return Vec::new();
    };
    b.done += 1;
    if !ok {
        b.failed += 1;
    }
    b.seq = seq;
    if b.done < b.total {
        return Vec::new();
    }
    let (done, total, failed, act) = (b.done, b.total, b.failed, b.action);
    m.activities.bulk = None;
    let (severity, tail) = if failed == 0 {
        (Severity::Success, String::new())
    } else {
        (
            Severity::Error,
            format!(
                ", {failed} failed (still marked: press {} to retry)",
                key_for(m, act)
            ),
        )
    };
    say(
        m,
        severity,
        &format!("{}: {} of {total} done{tail}", act.verb(), done - failed),
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
    fx.extend(count_in_bulk(m, id, false));
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
