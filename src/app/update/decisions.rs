//! Decisions: approve, decline and delete, on the selected row or on the marked rows after
//! one confirmation. The cursor moves on at once; an approve or decline is held for the
//! grace period first ([`super::held`]); the row shows the decision until the server
//! answers ([`super::decision_answers`]).

use std::collections::HashSet;

use uuid::Uuid;

use super::{call, held, label_of, listing, rows, say};
use crate::app::call::ApiCall;
use crate::app::model::words::{progress, status_word, verb};
use crate::app::model::{BulkTask, Model, Popup, RowAction, RowState, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;

/// Approve, decline or delete: marked rows after one confirmation; else the selected row
/// (delete always asks).
pub(super) fn on_key(m: &mut Model, action: RowAction) -> Vec<Effect> {
    if super::capability::refuse_decision(m, action) || refuse_signed_out(m, action) {
        return Vec::new();
    }
    let marked = m.queue.marked_ids();
    if action == RowAction::Delete && refuse_delete(m, &marked) {
        return Vec::new();
    }
    if !marked.is_empty() {
        let visible: HashSet<Uuid> = m
            .queue
            .visible()
            .iter()
            .map(|&i| m.queue.items()[i].id)
            .collect();
        let hidden = marked.iter().filter(|id| !visible.contains(id)).count();
        m.popup = Some(Popup::Confirm {
            action,
            ids: marked,
            hidden,
            on_confirm: false,
        });
        return Vec::new();
    }
    let Some(item) = m.queue.selected() else {
        let text = tr(m.lang, "status-queue-empty");
        say(m, Severity::Info, &text);
        return Vec::new();
    };
    let id = item.id;
    if let Some(earlier) = m.unsettled.get(id) {
        return reread_instead(m, id, earlier);
    }
    if !item.is_actionable() && action != RowAction::Delete {
        let lang = m.lang;
        let why = why_not_actionable(lang, item);
        let text = crate::tr!(
            lang,
            "status-cannot-act",
            action = verb(lang, action),
            label = label_of(m, id),
            why = why
        );
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    if !crate::ops::verdict::may_send(action, item.status()) {
        // Never read (added by id, its read failed or on its way): read it first, as the
        // command line does; the key works once the row shows pending.
        let label = label_of(m, id);
        let text = crate::tr!(
            m.lang,
            "status-cannot-act",
            action = verb(m.lang, action),
            label = label,
            why = tr(m.lang, "status-why-not-read")
        );
        say(m, Severity::Error, &text);
        return rows::fetch_rows(m, &[id]);
    }
    if action == RowAction::Delete {
        if matches!(item.state, RowState::Acting(_) | RowState::Deleted) {
            let text = tr(m.lang, "status-already-changing");
            say(m, Severity::Error, &text);
            return Vec::new();
        }
        return ask_first(m, action, id);
    }
    if item.held_elsewhere.is_some() {
        // Another session holds a decision on it in its grace period: ask first (the
        // confirmation says who, and what).
        return ask_first(m, action, id);
    }
    let mut fx = held::hold(m, action, vec![id]);
    advance(m);
    fx.extend(listing::prefetch(m));
    fx
}

/// Why a row cannot take a decision now, in `lang` ("approving already", "it was deleted",
/// "it is approved already", ...).
fn why_not_actionable(lang: crate::i18n::Lang, item: &crate::app::model::QueueItem) -> String {
    match (&item.state, item.status()) {
        (RowState::Acting(a), _) => {
            crate::tr!(
                lang,
                "status-why-already-acting",
                progress = progress(lang, *a)
            )
        }
        (RowState::Deleted, _) => tr(lang, "status-why-deleted"),
        (RowState::Gone, _) => tr(lang, "status-why-gone"),
        (_, Some(s)) => crate::tr!(lang, "status-why-already", status = status_word(lang, s)),
        _ => tr(lang, "status-why-cannot-change"),
    }
}

/// Opens the confirmation of `action` on the one request `id` (focus on Cancel).
fn ask_first(m: &mut Model, action: RowAction, id: Uuid) -> Vec<Effect> {
    m.popup = Some(Popup::Confirm {
        action,
        ids: vec![id],
        hidden: 0,
        on_confirm: false,
    });
    Vec::new()
}

/// Refuses a decision, without a call, while no session can send it (no token, or the
/// server said the session is over): the status line says which key signs in. Decisions
/// held already wait for the sign-in. True when refused.
fn refuse_signed_out(m: &mut Model, action: RowAction) -> bool {
    if m.has_token && !m.session_expired {
        return false;
    }
    let text = crate::tr!(
        m.lang,
        "status-sign-in-first",
        action = verb(m.lang, action),
        key = super::sign_in_key(m)
    );
    say(m, Severity::Error, &text);
    true
}

/// Refuses a delete, without a call, that the server never lets this account make (the
/// core's rule, [`crate::ops::permit::may_delete`]: a teacher never; a student only their
/// own request): on the selected row, or on every marked row. True when refused.
fn refuse_delete(m: &mut Model, marked: &[Uuid]) -> bool {
    let allowed = if marked.is_empty() {
        m.may_delete(m.queue.selected())
    } else {
        marked.iter().any(|id| m.may_delete(m.queue.get(*id)))
    };
    if allowed {
        return false;
    }
    let text = tr(m.lang, "status-delete-not-allowed");
    say(m, Severity::Error, &text);
    true
}

/// The confirmed decision on `ids` (from the confirmation pop-up): rows that can no longer
/// take it are left out; two or more make a bulk task with its own progress.
pub(super) fn run_confirmed(m: &mut Model, action: RowAction, ids: Vec<Uuid>) -> Vec<Effect> {
    if super::capability::refuse_decision(m, action) || refuse_signed_out(m, action) {
        return Vec::new();
    }
    // A delete goes only where the server may let this account make it.
    let ids: Vec<Uuid> = ids
        .into_iter()
        .filter(|id| action != RowAction::Delete || m.may_delete(m.queue.get(*id)))
        .collect();
    let (unsettled, ids): (Vec<Uuid>, Vec<Uuid>) = ids
        .into_iter()
        .partition(|id| m.unsettled.get(*id).is_some());
    let mut fx = rows::fetch_rows(m, &unsettled);
    // Rows whose status was never read are read, not decided (the core's rule).
    let (ids, unread): (Vec<Uuid>, Vec<Uuid>) = ids.into_iter().partition(|id| {
        m.queue
            .get(*id)
            .is_none_or(|i| crate::ops::verdict::may_send(action, i.status()) || !i.is_actionable())
    });
    fx.extend(rows::fetch_rows(m, &unread));
    let ids: Vec<Uuid> = ids
        .into_iter()
        .filter(|id| {
            m.queue.get(*id).is_some_and(|i| {
                !matches!(i.state, RowState::Acting(_) | RowState::Deleted)
                    && (action == RowAction::Delete || i.is_actionable())
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
    fx.extend(held::hold(m, action, ids));
    if single {
        advance(m);
    }
    fx.extend(listing::prefetch(m));
    fx
}

/// A decision asked on a row whose earlier write lost its answer: never written again
/// (the core's rule, [`crate::ops::verdict`]); the row is read now instead, and the read
/// settles the earlier decision.
fn reread_instead(m: &mut Model, id: Uuid, earlier: RowAction) -> Vec<Effect> {
    let lang = m.lang;
    let text = crate::tr!(
        lang,
        "status-unknown-reread",
        action = verb(lang, earlier),
        label = label_of(m, id)
    );
    say(m, Severity::Info, &text);
    rows::fetch_rows(m, &[id])
}

/// Moves the cursor to the next actionable row after it (the moderator never waits).
fn advance(m: &mut Model) {
    let n = m.queue.visible().len();
    for pos in m.queue.cursor() + 1..n {
        if m.queue.visible_item(pos).is_some_and(|i| i.is_actionable()) {
            m.queue.set_cursor(pos);
            return;
        }
    }
}

/// Sends a decision on `ids` now; two or more make a bulk task with its own progress.
/// `from_hold`: the rows were held for the grace period (they already show the decision),
/// and a request that left the queue meanwhile is still sent (the moderator meant it).
pub(super) fn start(
    m: &mut Model,
    action: RowAction,
    ids: Vec<Uuid>,
    from_hold: bool,
) -> Vec<Effect> {
    if ids.len() > 1 {
        let seq = m.next_seq();
        // Two bulk decisions of the same kind may go within one grace period: one task
        // counts them both, so the progress stays true.
        match m.activities.bulk.as_mut().filter(|b| b.action == action) {
            Some(b) => {
                b.total += ids.len();
                b.ids.extend(ids.iter().copied());
                b.seq = seq;
            }
            None => {
                m.activities.bulk = Some(BulkTask {
                    action,
                    ids: ids.iter().copied().collect(),
                    total: ids.len(),
                    done: 0,
                    failed: 0,
                    unknown: 0,
                    already: 0,
                    conflicts: 0,
                    seq,
                    started: m.now,
                });
            }
        }
    }
    let mut fx = Vec::new();
    for id in ids {
        fx.extend(act(m, id, action, from_hold));
    }
    fx
}

/// Sends one decision: the row shows it until the answer.
fn act(m: &mut Model, id: Uuid, action: RowAction, from_hold: bool) -> Vec<Effect> {
    match m.queue.get_mut(id) {
        Some(item)
            if from_hold || !matches!(item.state, RowState::Acting(_) | RowState::Deleted) =>
        {
            item.state = RowState::Acting(action);
            item.error = None;
        }
        None if from_hold => {}
        _ => return Vec::new(),
    }
    let levels = m.levels;
    let c = match action.status() {
        Some(status) => ApiCall::UpdateRequest { id, status, levels },
        None => ApiCall::DeleteRequest { id },
    };
    if m.activities.bulk.is_none() {
        let label = label_of(m, id);
        let text = format!("{} {label}", progress(m.lang, action));
        say(m, Severity::Info, &text);
    }
    vec![call(m, c)]
}
