//! The dashboard's side of a decision whose answer was lost: never guessed, never sent
//! again. The shared state machine audits it `unknown` when it enters stage `Lost`; the row
//! is read again at once, and each read of the row is the machine's [`Event::Reread`], as in
//! the command line's loop ([`crate::ops::settle::follow`]): it settles the decision with a
//! second audit line, or plans the next read after the one backoff (`Msg::Retry` sends it,
//! no key needed). This file shows what the machine decided, in the reader's language.

use uuid::Uuid;

use super::connection::note_error;
use super::decisions::{push_log, step, step_line};
use super::errors::{error_text, log_text};
use super::rows;
use super::tell::{label_of, say, say_about};
use crate::api::ApiError;
use crate::app::model::words::{past, status_word, verb};
use crate::app::model::{Model, Origin, RowAction, RowState, Severity};
use crate::app::msg::{Effect, Outcome};
use crate::i18n::{Lang, tr};
use crate::ops::decision::{Ending, Event, Found, Reread, Stage, StillUnknown};
use crate::tr;

/// The answer to the decision on `id` was lost (its decision is in stage `Lost`, the
/// audit line `unknown` is on its way): the row says so, and re-reads itself now.
pub(super) fn lost(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    e: ApiError,
    label: &str,
) -> Vec<Effect> {
    note_error(m, &e);
    let lang = m.lang;
    // Only a read sent from now on can tell what the write did: one on its way already may
    // have been read before it ([`settle_unknown`] passes over its answer).
    rows::note_written(m, id);
    if let Some(item) = m.queue.get_mut(id) {
        if item.state == RowState::Loading {
            item.state = RowState::Ready;
        }
        if item.request.is_none() {
            item.state = RowState::Failed;
        }
        item.error = Some(tr!(lang, "error-answer-lost", action = verb(lang, action)));
    }
    let detail = tr!(lang, "log-answer-lost", error = log_text(lang, &e));
    push_log(m, action, id, label, Outcome::Unknown, &detail);
    if m.activities.bulk.is_none() {
        let text = tr!(
            lang,
            "status-answer-lost",
            action = verb(lang, action),
            label = label,
            error = error_text(lang, &e)
        );
        say_about(m, Severity::Error, &text, label);
    }
    rows::reread_rows(m, &[id])
}

/// A decision asked on a row whose earlier write lost its answer: never written again
/// (the shared rule); the row is read now instead, and the read settles the earlier
/// decision.
pub(super) fn reread_instead(m: &mut Model, id: Uuid, earlier: RowAction) -> Vec<Effect> {
    let lang = m.lang;
    let label = label_of(m, id);
    let text = tr!(
        lang,
        "status-unknown-reread",
        action = verb(lang, earlier),
        label = label.as_str()
    );
    say_about(m, Severity::Info, &text, &label);
    rows::reread_rows(m, &[id])
}

/// After reads of `ids` were applied: every one of them whose decision lost its answer, and
/// whose row is read now, takes the re-read as its next transition ([`Event::Reread`]):
/// settled (`ok` when the request has the decided status or, for a delete, is gone;
/// `failed` when it has not), or still unknown with the next re-read planned.
pub(super) fn settle_unknown(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    let mut fx = Vec::new();
    for &id in ids {
        let Some(action) = m.decisions.lost_action(id) else {
            continue;
        };
        let Some(item) = m.queue.get(id) else {
            continue;
        };
        if item.written_after(m.answering) {
            // A read sent before the write's answer was lost: the fresh one settles it.
            continue;
        }
        let read = match (&item.state, &item.read_error) {
            (RowState::Loading, _) => continue,
            (RowState::Gone, _) => Reread::Missing,
            (_, Some(why)) => Reread::Failed(why.clone()),
            (RowState::Unloaded | RowState::Ready | RowState::Failed | RowState::Deleted, None) => {
                Reread::Found(item.status().cloned())
            }
        };
        let told_applied = item.decided_by.is_some();
        let now = m.now;
        let line = step_line(
            m,
            id,
            Event::Reread {
                read,
                now,
                told_applied,
            },
        );
        match (m.decisions.get(id).map(|d| d.stage().clone()), line) {
            (Some(Stage::Settled(Ending::Found { found, cause })), Some((audit, outcome))) => {
                settled(m, id, action, &found, &cause, outcome);
                fx.push(audit);
            }
            (Some(Stage::Lost { why: Some(why), .. }), _) => still_unknown(m, id, action, &why),
            (_, line) => fx.extend(line.map(|(audit, _)| audit)),
        }
    }
    said_when_recovered(m);
    fx
}

/// The writes interrupted runs left open ([`crate::ops::recover`]), claimed for this
/// dashboard at start: each decision is added to `m.decisions` as lost
/// ([`crate::ops::decision::Decision::recovered`]), its row added to the queue if it is not
/// there, and read now; its settlement is audited with that run's id, and the summary is
/// said once every one is settled. A contact left open is settled by the command line's next
/// `clubs add-contact` (the dashboard has no row for it).
pub(super) fn on_interrupted(m: &mut Model, entries: Vec<crate::ops::AuditEntry>) -> Vec<Effect> {
    use crate::app::model::QueueItem;
    use crate::ops::recover::OpenWrite;
    let batch = m.next_seq();
    let mut ids = Vec::new();
    for e in entries {
        let (OpenWrite::Decision(action), true) = (OpenWrite::of(&e), e.run.is_some()) else {
            continue;
        };
        let target = e.target;
        let d = crate::ops::decision::Decision::recovered(target, action, batch, e);
        if m.decisions.recover(d).is_ok() {
            m.queue.push(QueueItem::new(target, Origin::Manual));
            ids.push(target);
        }
    }
    if ids.is_empty() {
        return Vec::new();
    }
    m.queue.refresh_view();
    m.recovering = Some(batch);
    let text = tr!(m.lang, "status-interrupted-reading", n = ids.len());
    say(m, Severity::Info, &text);
    rows::reread_rows(m, &ids)
}

/// Once every decision an interrupted run left open is settled: the summary ("3 writes of
/// an interrupted run: 3 approved") on the status line and in the log.
fn said_when_recovered(m: &mut Model) {
    let Some(batch) = m.recovering else { return };
    let of_batch: Vec<&crate::ops::decision::Decision> =
        m.decisions.iter().filter(|d| d.batch == batch).collect();
    if of_batch.iter().any(|d| d.alive()) {
        return;
    }
    let outcomes = batch_outcomes(&of_batch, m.lang);
    let english = batch_outcomes(&of_batch, Lang::English);
    let n = of_batch.len();
    m.recovering = None;
    let text = tr!(
        m.lang,
        "status-interrupted-settled",
        n = n,
        outcomes = outcomes
    );
    // The process's log (the journal under systemd) says it too, as a settlement at start
    // does.
    let line = tr!(
        Lang::English,
        "status-interrupted-settled",
        n = n,
        outcomes = english
    );
    tracing::info!("{line}");
    say(m, Severity::Info, &text);
    m.log.push(crate::app::model::LogEntry {
        at: m.now,
        what: "settle".to_owned(),
        target: None,
        label: String::new(),
        outcome: Outcome::Ok,
        detail: Some(text),
    });
}

/// How the decisions of an interrupted run's batch ended, counted, in `lang` ("2 approved,
/// 1 not applied: still pending").
fn batch_outcomes(of_batch: &[&crate::ops::decision::Decision], lang: Lang) -> String {
    crate::ops::recover::tally(of_batch.iter().map(|d| {
        if let Stage::Settled(Ending::Found { found, .. }) = d.stage() {
            found_text(lang, found)
        } else {
            tr(lang, "log-no-answer-seen")
        }
    }))
}

/// Re-reads the rows whose decision lost its answer and whose next re-read is due at `now`
/// (`Msg::Retry`).
pub(super) fn reread_due(m: &mut Model, now: crate::api::Timestamp) -> Vec<Effect> {
    let due = m.decisions.reads_due(now);
    for id in &due {
        step(m, *id, Event::ReadNow { fresh: false });
    }
    let mut fx = rows::reread_rows(m, &due);
    fx.extend(super::club::reread_contacts(m, now, false));
    fx
}

/// Re-reads every row whose decision lost its answer, at once: the link came back, or a new
/// sign-in (the backoff starts again).
pub(super) fn reread_all(m: &mut Model) -> Vec<Effect> {
    let all: Vec<Uuid> = m.decisions.lost().iter().map(|d| d.id).collect();
    for id in &all {
        step(m, *id, Event::ReadNow { fresh: true });
    }
    let mut fx = rows::reread_rows(m, &all);
    let now = m.now;
    fx.extend(super::club::reread_contacts(m, now, true));
    fx
}

/// A re-read could not settle the decision on `id`: the row says why (the detail pane counts
/// down to the next re-read the machine planned).
fn still_unknown(m: &mut Model, id: Uuid, action: RowAction, why: &StillUnknown) {
    let lang = m.lang;
    let why = match why {
        StillUnknown::ReadFailed(e) => tr!(lang, "error-reread-failed-too", error = e.as_str()),
        StillUnknown::LevelHidesStatus => tr(lang, "error-level-hides-status"),
        StillUnknown::Refused(e) => tr!(
            lang,
            "error-reread-failed-too",
            error = error_text(lang, e).as_str()
        ),
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

/// What a re-read showed, in words in `lang` ("approved", "not applied: still pending").
fn found_text(lang: Lang, found: &Found) -> String {
    match found {
        Found::Deleted => past(lang, RowAction::Delete),
        Found::Decided(s) => status_word(lang, s),
        Found::Gone => tr(lang, "error-verdict-gone"),
        Found::NotDeleted => tr(lang, "error-verdict-not-deleted"),
        Found::StillPending => tr(lang, "error-verdict-still-pending"),
        Found::Now(s) => tr!(lang, "error-verdict-now", status = status_word(lang, s)),
        Found::Added => past(lang, RowAction::AddContact),
        Found::NotAdded => tr(lang, "error-verdict-not-added"),
    }
}

/// Shows how a decision whose answer was lost (`cause`) ended, as a re-read showed it, with
/// the `outcome` its audit line has (`ok`, `failed`, or `already` when another session had
/// applied it first): the row, the log and the status line in the reader's language.
fn settled(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    found: &Found,
    cause: &ApiError,
    outcome: Outcome,
) {
    let (label, lang) = (label_of(m, id), m.lang);
    let lost = |l: Lang| tr!(l, "log-answer-had-been-lost", error = error_text(l, cause));
    let detail = tr!(
        lang,
        "log-settled",
        lost = lost(lang),
        outcome = found_text(lang, found)
    );
    let (what, why) = (verb(lang, action), found_text(lang, found));
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
    // The machine's outcome: `already` (another session applied it first), `ok` when the
    // read shows it applied, else `failed`.
    let (severity, text) = if outcome == Outcome::Already {
        let text = tr!(
            lang,
            "status-already-same",
            label = label.as_str(),
            status = why.as_str(),
            action = what.as_str()
        );
        (Severity::Success, text)
    } else if found.applied() {
        let text = tr!(
            lang,
            "status-settled-ok",
            label = label.as_str(),
            outcome = why
        );
        (Severity::Success, text)
    } else {
        let text = tr!(
            lang,
            "status-settled-failed",
            action = what,
            label = label.as_str(),
            why = why,
            lost = lost(lang)
        );
        (Severity::Error, text)
    };
    push_log(m, action, id, &label, outcome, &detail);
    let settling = m
        .activities
        .bulk_settling
        .as_ref()
        .is_some_and(|b| b.ids.contains(&id));
    if settling {
        // One row of a bulk action that ended: the log has this row's line; once the last
        // one is settled, the bulk's summary is said again with the server's truth.
        super::bulk::after_settled(m);
    } else if m.activities.bulk.is_none() {
        say_about(m, severity, &text, &label);
    }
}

/// The row of a write settled by its re-read: applied (`failed` is `None`: the server's
/// count shrinks, the mark goes, a deleted row says so), or not, with why.
fn settle_row(m: &mut Model, id: Uuid, action: RowAction, failed: Option<String>) {
    rows::note_written(m, id);
    let Some(item) = m.queue.get_mut(id) else {
        return;
    };
    match failed {
        None => {
            let listed = item.origin == Origin::Listing;
            item.error = None;
            item.marked = false;
            if action == RowAction::Delete {
                item.state = RowState::Deleted;
            }
            if listed {
                super::count::uncount(m, id, super::count::Applied::Seen { recount: true });
            }
        }
        Some(text) => item.error = Some(text),
    }
}
