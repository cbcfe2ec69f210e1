//! A decision from its key to its answer: approve, decline or delete on the selected row
//! (marked rows go through one confirmation first, [`super::bulk`]), refused before any
//! call where it cannot work ([`refuse_before_call`]). The cursor moves on at
//! once; an approve or decline is held for the grace period ([`hold`]; `z`, quitting and
//! suspending in [`super::held`]), sent on the tick it is due ([`send_due`]), and the server's
//! answer settles it ([`on_answer`]; a lost answer is followed by [`super::lost`]).
//!
//! Each request's decision lives in one place, `m.decisions` ([`crate::ops::book::Book`]),
//! and changes only through [`step`]: the shared state machine checks the transition and
//! says which audit line it writes. The row shows the decision's stage.

use uuid::Uuid;

use super::connection::{call, note_error};
use super::errors::{error_text, log_text};
use super::rows;
use super::tell::{audit_entry, label_of, log, say, say_about};
use crate::api::{ApiError, ClubRequest, MembershipStatus};
use crate::app::call::ApiCall;
use crate::app::model::capability::route_notice;
use crate::app::model::words::{past, progress, status_word, verb};
use crate::app::model::{LogEntry, Model, Popup, RowAction, RowState, Severity};
use crate::app::msg::{Effect, Heard, Outcome, Told};
use crate::i18n::tr;
use crate::ops::decision::{self, Event, Stage};
use crate::ops::permit::Write;

/// Refuses `action`, without a call, where it cannot work now (the server or the account
/// does not allow it, or no session can send it); the status line says why. True when
/// refused.
pub(super) fn refuse_before_call(m: &mut Model, action: RowAction) -> bool {
    refuse_decision(m, action) || refuse_signed_out(m, action)
}

/// Refuses approve or decline here, without a call, where the server or the account does
/// not allow them: the account by the service's rules ([`Model::permit`]: a teacher or an
/// administrator, a student off the club's staff), the server by the update route. True
/// when refused. Delete is refused by [`refuse_delete`].
fn refuse_decision(m: &mut Model, action: RowAction) -> bool {
    if action == RowAction::Delete {
        return false;
    }
    let marked = m.queue.marked_ids();
    let refusal = if marked.is_empty() {
        m.permit(Write::Decide, m.queue.selected()).err()
    } else if marked
        .iter()
        .any(|id| m.permit(Write::Decide, m.queue.get(*id)).is_ok())
    {
        None
    } else {
        m.permit(Write::Decide, m.queue.get(marked[0])).err()
    };
    if let Some(why) = refusal {
        let what = verb(m.lang, action);
        say_refused(m, &what, Write::Decide, why);
        return true;
    }
    if m.capabilities.decisions_allowed() {
        return false;
    }
    let why = m
        .capabilities
        .update_route
        .as_ref()
        .and_then(|r| route_notice(m.lang, r))
        .unwrap_or_default();
    let text = crate::tr!(
        m.lang,
        "status-decision-refused-here",
        action = crate::app::model::words::verb(m.lang, action),
        why = why
    );
    say(m, Severity::Error, &crate::text::clean(&text, 300));
    true
}

/// Refuses a decision, without a call, while no session can send it (no token, the
/// server said the session is over, or the token's expiry is past: [`Model::has_session`]):
/// the status line says which key signs in. Decisions held already wait for the sign-in.
/// True when refused.
fn refuse_signed_out(m: &mut Model, action: RowAction) -> bool {
    if m.has_session() {
        return false;
    }
    let text = crate::tr!(
        m.lang,
        "status-sign-in-first",
        action = verb(m.lang, action),
        key = super::tell::sign_in_key(m)
    );
    say(m, Severity::Error, &text);
    true
}

/// Refuses a delete, without a call, that the server never lets this account make (the
/// core's rule, [`Model::permit`]: a student only their own request, no other account): on
/// the selected row, or on every marked row. True when refused; the status line says why.
pub(super) fn refuse_delete(m: &mut Model, marked: &[Uuid]) -> bool {
    let refusal = if marked.is_empty() {
        m.permit(Write::Delete, m.queue.selected()).err()
    } else if marked.iter().any(|id| m.may_delete(m.queue.get(*id))) {
        None
    } else {
        m.permit(Write::Delete, m.queue.get(marked[0])).err()
    };
    let Some(why) = refusal else {
        return false;
    };
    let what = verb(m.lang, RowAction::Delete);
    say_refused(m, &what, Write::Delete, why);
    true
}

/// Moves the cursor to the next actionable row after it (the moderator never waits).
pub(super) fn advance(m: &mut Model) {
    let n = m.queue.visible().len();
    for pos in m.queue.cursor() + 1..n {
        if m.queue.visible_item(pos).is_some_and(|i| m.actionable(i)) {
            m.queue.set_cursor(pos);
            return;
        }
    }
}

/// Applies `event` to the decision on `id`: the one place a dashboard decision changes. The
/// core's state machine checks the transition ([`decision::Decision::apply`]); the audit
/// line it writes comes back as an effect. An illegal transition is a bug: an error in the
/// log, and a panic in debug builds (so every test that meets one fails).
pub(super) fn step(m: &mut Model, id: Uuid, event: Event) -> Option<Effect> {
    step_line(m, id, event).map(|(effect, _)| effect)
}

/// As [`step`], with the outcome of the audit line written (for a caller that shows it).
pub(super) fn step_line(m: &mut Model, id: Uuid, event: Event) -> Option<(Effect, Outcome)> {
    match m.decisions.apply(id, event) {
        Ok(line) => {
            let (line, d) = (line?, m.decisions.get(id)?);
            let outcome = line.outcome;
            // An interrupted run's write is closed with a copy of its open line.
            let fx = match d.closing(m.now, &line) {
                Some(entry) => Effect::Audit(entry),
                None => audit_entry(m, d.action.verb(), id, outcome, line.detail),
            };
            Some((fx, outcome))
        }
        Err(e) => {
            tracing::error!("{e}");
            debug_assert!(false, "{e}");
            None
        }
    }
}

/// Starts a decision on `id` in `stage` (held or sending) in batch `batch`; false (with the
/// bug logged, as [`step`] does) when one is alive on it already.
fn begin(m: &mut Model, id: Uuid, action: RowAction, batch: u64, stage: Stage) -> bool {
    match m.decisions.start(id, action, batch, stage) {
        Ok(()) => true,
        Err(e) => {
            tracing::error!("{e}");
            debug_assert!(false, "{e}");
            false
        }
    }
}

/// Holds a decision on `ids` for the grace period, as one batch (or sends it at once when
/// the delay is zero, and a delete always). The rows show it at once, so no other key acts on
/// them meanwhile; the other sessions of this server are notified.
pub(super) fn hold(m: &mut Model, action: RowAction, ids: Vec<Uuid>) -> Vec<Effect> {
    let delay = chrono::TimeDelta::from_std(m.decision_delay).unwrap_or_default();
    if delay.is_zero() || action == RowAction::Delete || ids.is_empty() {
        return start(m, action, ids, None);
    }
    let batch = m.next_seq();
    let send_at = m.now + delay;
    for id in &ids {
        if begin(m, *id, action, batch, Stage::Held { send_at })
            && let Some(item) = m.queue.get_mut(*id)
        {
            item.error = None;
        }
    }
    // The other sessions of this server show it held on its row.
    let by = m.user.get().and_then(|u| u.email.clone());
    let told = ids.iter().map(|&id| Told {
        id,
        heard: Heard::Held(action),
        by: by.clone(),
        at: m.now,
    });
    vec![Effect::Tell(told.collect())]
}

/// On a tick: sends every held decision whose grace period has ended (not while the quit
/// question is open: the moderator is deciding what happens to them; nor while the session
/// is over: they wait for the sign-in).
pub(super) fn send_due(m: &mut Model) -> Vec<Effect> {
    if matches!(m.popup, Some(Popup::QuitHeld | Popup::ResumeHeld)) || waits_for_sign_in(m) {
        return Vec::new();
    }
    let mut fx = send_held(m, m.decisions.held_due(m.now));
    fx.extend(pump(m));
    fx
}

/// True while held decisions cannot be sent: no session, by the one rule the header
/// shows ([`Model::has_session`]: no token, the server said the session is over, or the
/// token's expiry has passed). They wait for the sign-in.
pub(super) fn waits_for_sign_in(m: &Model) -> bool {
    !m.has_session()
}

/// Sends the held decisions on `ids` now, batch by batch (a batch of two or more is a bulk
/// task with its progress). A request that left the queue meanwhile is still sent: the
/// moderator meant it. Each is queued, and goes as its turn comes ([`pump`]).
pub(super) fn send_held(m: &mut Model, ids: Vec<Uuid>) -> Vec<Effect> {
    let mut fx = Vec::new();
    let mut batches: Vec<(RowAction, Vec<Uuid>)> = Vec::new();
    let mut last = None;
    for id in ids {
        let Some(d) = m.decisions.get(id) else {
            continue;
        };
        if last != Some(d.batch) {
            batches.push((d.action, Vec::new()));
            last = Some(d.batch);
        }
        if let Some((_, b)) = batches.last_mut() {
            b.push(id);
        }
        fx.extend(step(m, id, Event::Queue));
    }
    for (action, ids) in batches {
        fx.extend(start(m, action, ids, Some(())));
    }
    fx
}

/// Sends a decision on `ids` now; two or more make a bulk task with its own progress.
/// `queued`: their decisions are queued in `m.decisions` already (they were held); else each
/// is started here, where the row can still take it. Each goes as its turn comes ([`pump`]).
fn start(m: &mut Model, action: RowAction, ids: Vec<Uuid>, queued: Option<()>) -> Vec<Effect> {
    let mut fx = Vec::new();
    let ids: Vec<Uuid> = match queued {
        Some(()) => ids,
        None => {
            // Born held and queued at once; the write-ahead line is written as it leaves.
            let batch = m.next_seq();
            let send_at = m.now;
            let ids: Vec<Uuid> = ids
                .into_iter()
                .filter(|id| {
                    m.queue
                        .get(*id)
                        .is_some_and(|i| i.state != RowState::Deleted)
                        && begin(m, *id, action, batch, Stage::Held { send_at })
                })
                .collect();
            for id in &ids {
                fx.extend(step(m, *id, Event::Queue));
            }
            ids
        }
    };
    if ids.len() > 1 {
        begin_bulk(m, action, &ids);
    }
    for id in ids {
        if let Some(item) = m.queue.get_mut(id) {
            item.error = None;
        }
    }
    fx.extend(pump(m));
    fx
}

/// Hands queued decisions to the connection, oldest first, while fewer than the window
/// ([`Model::write_window`]: the limit of calls in flight) are on their way: each one's
/// `sending` line is written as it goes, so the audit never says a write left that did not.
/// Nothing goes while held decisions wait for a sign-in, or while the service cannot be
/// reached (a write could not connect: they go when it answers again, [`super::link`]).
pub(super) fn pump(m: &mut Model) -> Vec<Effect> {
    if waits_for_sign_in(m) || m.link.writes_wait || m.quitting || !m.decisions.any_queued() {
        return Vec::new();
    }
    let free = m.write_window().saturating_sub(m.decisions.sending());
    if free == 0 {
        return Vec::new();
    }
    let mut fx = Vec::new();
    for id in m.decisions.queued().into_iter().take(free) {
        let Some(action) = m.decisions.get(id).map(|d| d.action) else {
            continue;
        };
        fx.extend(step(m, id, Event::Send));
        fx.push(send(m, id, action));
    }
    fx
}

/// A write that could not leave (no connection could be made: the server never received
/// it): queued again by the machine, it waits with the rest of the bulk until the service
/// answers again (a read of its row is kept as the link's probe, [`super::link`]); nothing
/// failed. The row keeps its place and its decision.
pub(super) fn not_left(m: &mut Model, id: Uuid, e: &ApiError) {
    note_error(m, e);
    let levels = m.levels;
    m.link.lose(ApiCall::GetRequest { id, levels });
    if m.link.retry_at.is_none() {
        m.link.schedule(m.now);
    }
    if let Some(item) = m.queue.get_mut(id) {
        item.error = None;
    }
}

/// The call of one decision on its way: the row shows it until the answer.
fn send(m: &mut Model, id: Uuid, action: RowAction) -> Effect {
    if let Some(item) = m.queue.get_mut(id) {
        item.error = None;
    }
    let levels = m.levels;
    let c = match action.status() {
        Some(status) => ApiCall::UpdateRequest { id, status, levels },
        None => ApiCall::DeleteRequest { id },
    };
    if m.activities.bulk.is_none() {
        let label = label_of(m, id);
        let text = format!("{} {}", progress(m.lang, action), label);
        say_about(m, Severity::Info, &text, &label);
    }
    call(m, c)
}

/// A decision sent on `ids` (two or more): its bulk task, or, when one of the same kind runs
/// already (two bulk decisions within one grace period), that one grows, so the progress
/// stays true.
fn begin_bulk(m: &mut Model, action: RowAction, ids: &[Uuid]) {
    let seq = m.next_seq();
    match m.activities.bulk.as_mut().filter(|b| b.action == action) {
        Some(b) => {
            // A request decided again (its earlier decision refused) counts once.
            for id in ids {
                if !b.ids.contains(id) {
                    b.ids.push(*id);
                }
            }
            b.seq = seq;
        }
        None => {
            m.activities.bulk = Some(crate::app::model::BulkTask {
                action,
                ids: ids.to_vec(),
                seq,
                started: m.now,
            });
        }
    }
}

pub(super) fn confirmed(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    answer: Option<ClubRequest>,
    label: &str,
) {
    super::count::count_decided(m, id, super::count::Applied::ThisWrite);
    super::rows::note_written(m, id);
    if let Some(r) = &answer {
        super::term::follow_row(m, r);
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
    if m.activities.bulk.is_none() {
        let shown = match action {
            RowAction::Delete => past(m.lang, action),
            RowAction::Approve | RowAction::Decline | RowAction::AddContact => m
                .queue
                .get(id)
                .and_then(|i| i.status().map(|s| status_word(m.lang, s)))
                .unwrap_or_else(|| past(m.lang, action)),
        };
        say(m, Severity::Success, &format!("{label}: {shown}"));
    }
}

/// The server refused the decision because someone else had decided the request first
/// (403 "already been approved|declined", [`ApiError::already_decided`]): the row takes the
/// server's status, keeps no mark (nothing to retry), and the audit says `already` (the same
/// decision: the request is as the moderator wanted) or `conflict` (the opposite, shown as
/// such on the row and the status line). Not a failure.
pub(super) fn already(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    status: MembershipStatus,
    label: &str,
) {
    let lang = m.lang;
    let (outcome, _) = decision::already_line(action, &status);
    super::count::count_decided(m, id, super::count::Applied::Seen { recount: true });
    let word = status_word(lang, &status);
    let conflict = outcome == Outcome::Conflict;
    super::rows::note_written(m, id);
    if let Some(item) = m.queue.get_mut(id) {
        item.state = RowState::Ready;
        item.marked = false;
        item.read_error = None;
        if let Some(r) = item.request.as_mut() {
            r.membership_status = Some(status.clone());
        }
        item.error = conflict.then(|| {
            crate::tr!(
                lang,
                "error-already-conflict",
                status = word.as_str(),
                action = verb(lang, action)
            )
        });
    }
    // Who, where another session of this server reported it (serve-ssh).
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
    let text = crate::tr!(
        lang,
        key,
        label = label,
        status = word.as_str(),
        action = verb(lang, action),
        by = by.unwrap_or_default()
    );
    push_log(m, action, id, label, outcome, &text);
    if m.activities.bulk.is_none() {
        say_about(m, severity, &text, label);
    }
}

/// The server refused the decision: the row keeps its error, and is read again to learn the
/// request's true state (approved or deleted elsewhere). The write is never sent again.
pub(super) fn refused(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    e: ApiError,
    label: &str,
) -> Vec<Effect> {
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
    if m.activities.bulk.is_none() {
        let text = crate::tr!(
            m.lang,
            "status-action-failed",
            action = verb(m.lang, action),
            label = label,
            error = text
        );
        say_about(m, Severity::Error, &text, label);
    }
    if matches!(e, ApiError::NotFound(_) | ApiError::Unauthorized { .. }) {
        Vec::new()
    } else {
        rows::fetch_rows(m, &[id])
    }
}

/// An activity-log line about a decision on `id`, with its outcome and detail (in the
/// reader's language).
pub(super) fn push_log(
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

/// The decisions a read showed overwritten ([`super::rows::merge_row`]): each settled so
/// once (its `overwritten` audit line), its row showing the status read, the status line and
/// the log saying it ("your approval of #60017 was overwritten: declined since").
pub(super) fn overwritten(m: &mut Model) -> Vec<Effect> {
    let mut fx = Vec::new();
    for (id, status) in std::mem::take(&mut m.overwritten_due) {
        let Some(action) = m
            .decisions
            .get(id)
            .filter(|d| d.overwritten_by(Some(&status)).is_some())
            .map(|d| d.action)
        else {
            continue;
        };
        let Some(effect) = step(m, id, Event::Overwritten(status.clone())) else {
            continue;
        };
        fx.push(effect);
        if let Some(item) = m.queue.get_mut(id) {
            item.decided_elsewhere = Some(status.clone());
        }
        let label = super::tell::label_of(m, id);
        let text = crate::tr!(
            m.lang,
            "status-overwritten",
            action = action.verb(),
            label = label.as_str(),
            status = crate::app::model::words::status_word(m.lang, &status)
        );
        push_log(
            m,
            action,
            id,
            &label,
            Outcome::Overwritten,
            &crate::ops::decision::overwritten_detail(&status),
        );
        super::tell::say_about(m, Severity::Error, &text, &label);
    }
    fx
}

/// Says why the account may not make `write` (`what`: the action in the reader's words),
/// by the shared rule ([`crate::ops::permit`]): "delete: a student may delete only their own
/// requests; nothing was sent".
pub(super) fn say_refused(
    m: &mut Model,
    what: &str,
    write: Write,
    why: crate::ops::permit::Refusal,
) {
    let why = tr(m.lang, why.key(write));
    let text = crate::tr!(m.lang, "permit-refused", action = what, why = why);
    say(m, Severity::Error, &text);
}
