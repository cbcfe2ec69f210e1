//! Decisions asked of many rows, and what ends a decision on a refusal of the whole server:
//! the confirmation of marked rows (or of a delete, or of a request another session holds),
//! the bulk task's progress and its summary (counted from the rows' decisions in the table of decisions),
//! why a row cannot take a decision, and an answer that says the server lacks the update
//! route or refuses it to this account's role.

use std::collections::HashSet;

use uuid::Uuid;

use super::errors::error_text;
use super::tell::{key_for, say, say_about};
use super::{decisions, listing, rows};
use crate::api::{ApiError, UpdateRoute};
use crate::app::model::capability::route_notice;
use crate::app::model::words::{progress, status_word, verb};
use crate::app::model::{Model, Popup, QueueItem, RowAction, RowState, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;
use crate::ops::decision::{Answer, Event};

/// Opens the confirmation of `action` on `ids` (focus on Cancel), saying how many of them
/// the filter hides.
pub(super) fn ask(m: &mut Model, action: RowAction, ids: Vec<Uuid>) -> Vec<Effect> {
    let hidden = hidden_of(m, &ids);
    m.popup = Some(Popup::Confirm {
        action,
        ids,
        hidden,
        on_confirm: false,
    });
    Vec::new()
}

/// How many of `ids` the queue's filter hides (the confirmation says so).
fn hidden_of(m: &Model, ids: &[Uuid]) -> usize {
    let visible: HashSet<Uuid> = m
        .queue
        .visible()
        .iter()
        .map(|&i| m.queue.items()[i].id)
        .collect();
    ids.iter().filter(|id| !visible.contains(id)).count()
}

/// Why a row cannot take a decision now, in the reader's language ("approving already", "it
/// was deleted", "it is approved already", ...).
pub(super) fn why_not_actionable(m: &Model, item: &QueueItem) -> String {
    let lang = m.lang;
    if let Some(a) = m.deciding(item.id) {
        return crate::tr!(
            lang,
            "status-why-already-acting",
            progress = progress(lang, a)
        );
    }
    match (&item.state, item.status()) {
        (RowState::Deleted, _) => tr(lang, "status-why-deleted"),
        (RowState::Gone, _) => tr(lang, "status-why-gone"),
        (_, Some(s)) => crate::tr!(lang, "status-why-already", status = status_word(lang, s)),
        (RowState::Unloaded | RowState::Loading | RowState::Ready | RowState::Failed, None) => {
            tr(lang, "status-why-cannot-change")
        }
    }
}

/// The confirmed decision on `ids` (from the confirmation pop-up): rows that can no longer
/// take it are left out (a row whose last answer was lost is read instead, one never read is
/// read first); two or more make a bulk task with its own progress.
pub(super) fn run_confirmed(m: &mut Model, action: RowAction, ids: Vec<Uuid>) -> Vec<Effect> {
    if decisions::refuse_before_call(m, action) {
        return Vec::new();
    }
    // A write goes only where the server may let this account make it (ops::permit).
    let write = crate::ops::permit::Write::of(action);
    let ids: Vec<Uuid> = ids
        .into_iter()
        .filter(|id| m.permit(write, m.queue.get(*id)).is_ok())
        .collect();
    let (unsettled, ids): (Vec<Uuid>, Vec<Uuid>) = ids
        .into_iter()
        .partition(|id| m.decisions.lost_action(*id).is_some());
    let mut fx = rows::fetch_rows(m, &unsettled);
    // Rows whose status was never read are read, not decided (the shared rule).
    let (ids, unread): (Vec<Uuid>, Vec<Uuid>) = ids.into_iter().partition(|id| {
        m.queue
            .get(*id)
            .is_none_or(|i| crate::ops::decision::may_send(action, i.status()) || !m.actionable(i))
    });
    fx.extend(rows::fetch_rows(m, &unread));
    let ids: Vec<Uuid> = ids
        .into_iter()
        .filter(|id| {
            m.queue.get(*id).is_some_and(|i| {
                m.deciding(i.id).is_none()
                    && i.state != RowState::Deleted
                    && (action == RowAction::Delete || m.actionable(i))
            })
        })
        .collect();
    if ids.is_empty() {
        let text = if !unread.is_empty() {
            crate::tr!(m.lang, "status-unread-left-out", n = unread.len())
        } else if unsettled.is_empty() {
            tr(m.lang, "status-nothing-to-do")
        } else {
            crate::tr!(m.lang, "status-rereading-unknown", n = unsettled.len())
        };
        say(m, Severity::Error, &text);
        return fx;
    }
    let single = ids.len() == 1 && m.queue.selected().map(|i| i.id) == ids.first().copied();
    fx.extend(decisions::hold(m, action, ids));
    if single {
        decisions::advance(m);
    }
    fx.extend(listing::prefetch(m));
    fx
}

/// After the decision on `id` was answered: when it belongs to the bulk task and was its
/// last, the task ends with a summary (how many applied, already, in conflict, failed,
/// unknown); rows whose answer was lost settle quietly afterwards, leaving the summary.
pub(super) fn after_answer(m: &mut Model, id: Uuid) -> Vec<Effect> {
    let seq = m.next_seq();
    let Some(b) = m.activities.bulk.as_mut().filter(|b| b.ids.contains(&id)) else {
        return Vec::new();
    };
    b.seq = seq;
    let p = b.progress(&m.decisions);
    if p.done < p.total {
        return Vec::new();
    }
    let task = m.activities.bulk.take();
    let unsettled = |t: &crate::app::model::BulkTask| {
        t.ids
            .iter()
            .any(|id| m.decisions.lost_action(*id).is_some())
    };
    // Lost answers its re-reads settled while the bulk ran count as what the server showed:
    // the summary says "re-reading" only of those still unknown.
    let p = match &task {
        Some(t) if !unsettled(t) => t.outcome(&m.decisions),
        _ => p,
    };
    m.activities.bulk_settling = task.filter(unsettled);
    let (severity, text) = summary(m, &p);
    say(m, severity, &text);
    let short = super::tell::bulk_summary_short(m.lang, &p);
    super::tell::short_in_notice(m, &text, short);
    Vec::new()
}

/// A row of the bulk action whose answers were lost was settled by its re-read: once the
/// last of them is, the summary is said again, now with what the server showed (so the
/// status line never keeps "unknown" for decisions that are known).
pub(super) fn after_settled(m: &mut Model) {
    let Some(task) = m.activities.bulk_settling.as_ref() else {
        return;
    };
    if task
        .ids
        .iter()
        .any(|id| m.decisions.lost_action(*id).is_some())
    {
        return;
    }
    let p = task.outcome(&m.decisions);
    m.activities.bulk_settling = None;
    let (severity, text) = summary(m, &p);
    if m.activities.bulk.is_some() {
        // Another bulk action's progress stands on the status line: the log has it.
        super::tell::log_notice(m, &text, severity);
    } else {
        say(m, severity, &text);
        let short = super::tell::bulk_summary_short(m.lang, &p);
        super::tell::short_in_notice(m, &text, short);
    }
}

/// "approve: 8 of 10 done, 1 already approved by someone else, 1 failed (...)", and how
/// it stands (an error when any failed, is unknown or in conflict).
fn summary(m: &Model, p: &crate::app::model::BulkProgress) -> (Severity, String) {
    let lang = m.lang;
    let act = p.action;
    let ok = p.done - p.failed - p.unknown - p.already - p.conflicts;
    let mut text = crate::tr!(
        lang,
        "status-bulk-summary",
        action = verb(lang, act),
        ok = ok,
        total = p.total
    );
    let mut more = |t: String| text.push_str(&format!(", {t}"));
    if p.already > 0 {
        let status = act
            .status()
            .map(|s| status_word(lang, &s))
            .unwrap_or_default();
        more(crate::tr!(
            lang,
            "status-bulk-summary-already",
            n = p.already,
            status = status
        ));
    }
    if p.conflicts > 0 {
        more(crate::tr!(
            lang,
            "status-bulk-summary-conflicts",
            n = p.conflicts
        ));
    }
    if p.failed > 0 {
        let key = key_for(m, act);
        more(crate::tr!(
            lang,
            "status-bulk-summary-failed",
            n = p.failed,
            key = key
        ));
    }
    if p.unknown > 0 {
        more(crate::tr!(
            lang,
            "status-bulk-summary-unknown",
            n = p.unknown
        ));
    }
    let severity = if p.failed + p.unknown + p.conflicts == 0 {
        Severity::Success
    } else {
        Severity::Error
    };
    (severity, text)
}

/// A decision refused because the server lacks the update route or refuses it to this
/// account's role: the server is learnt to refuse every decision, which the status line and
/// the log say once ([`super::capability::learn`]), not once per answer; the row keeps its
/// state with the reason; the audit file records the refusal; nothing is re-read (nothing
/// changed).
pub(super) fn refused_by_route(
    m: &mut Model,
    id: Uuid,
    route: UpdateRoute,
    e: ApiError,
) -> Vec<Effect> {
    super::connection::note_error(m, &e);
    super::capability::learn(m, route);
    let text = error_text(m.lang, &e);
    if let Some(item) = m.queue.get_mut(id) {
        item.state = if item.request.is_some() {
            RowState::Ready
        } else {
            RowState::Failed
        };
        item.error = Some(text);
    }
    let mut fx: Vec<Effect> = decisions::step(m, id, Event::Answered(Answer::Refused(e)))
        .into_iter()
        .collect();
    let in_bulk = m.activities.bulk.is_some();
    fx.extend(after_answer(m, id));
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

/// Keeps an open confirmation true to the rows (after every message): a request that can no
/// longer take its decision (decided or deleted in another session, read decided by a
/// refresh, gone) leaves it; a confirmation left with none closes, nothing sent, and the
/// status line says why.
pub(super) fn prune_confirm(m: &mut Model) {
    let Some(Popup::Confirm { action, ids, .. }) = m.popup.as_ref() else {
        return;
    };
    let action = *action;
    let stale = |i: &QueueItem| match i.state {
        RowState::Deleted | RowState::Gone => true,
        RowState::Unloaded | RowState::Loading | RowState::Ready | RowState::Failed => {
            i.status().is_some() && !crate::ops::decision::may_send(action, i.status())
        }
    };
    let (gone, kept): (Vec<Uuid>, Vec<Uuid>) = ids
        .iter()
        .partition(|id| m.queue.get(**id).is_none_or(&stale));
    if gone.is_empty() {
        return;
    }
    if kept.is_empty() {
        m.popup = None;
        let text = match gone.as_slice() {
            [id] => {
                let why = m
                    .queue
                    .get(*id)
                    .map(|i| why_not_actionable(m, i))
                    .unwrap_or_else(|| tr(m.lang, "status-why-gone"));
                let label = super::tell::label_of(m, *id);
                let text = crate::tr!(
                    m.lang,
                    "status-confirm-closed",
                    label = label.as_str(),
                    why = why
                );
                say_about(m, Severity::Info, &text, &label);
                return;
            }
            _ => tr(m.lang, "status-nothing-to-do"),
        };
        say(m, Severity::Info, &text);
        return;
    }
    let hidden = hidden_of(m, &kept);
    if let Some(Popup::Confirm { ids, hidden: h, .. }) = m.popup.as_mut() {
        *ids = kept;
        *h = hidden;
    }
}
