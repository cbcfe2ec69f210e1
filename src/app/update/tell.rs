//! What the moderator is shown, for every file of `update`: the status line ([`say`],
//! [`say_unless_busy`], [`name_in_notice`], [`short_in_notice`]), the activity log ([`log`],
//! [`log_notice`]), the audit line ([`audit_entry`], built by the one builder the dashboard
//! and the command line share), the words such messages name a request or a key by
//! ([`label_of`], [`key_for`], [`sign_in_key`]), and how a refresh's end is said
//! ([`end_refresh_when_read`], [`say_refresh_failed`]).
//!
//! It imports no other file of `update`, so every one may use it.

use uuid::Uuid;

use crate::app::call::ApiCall;
use crate::app::keymap::{Action, Scope};
use crate::app::model::{BulkProgress, LogEntry, Model, Notice, RowAction, Severity};
use crate::app::msg::{Effect, Outcome};
use crate::i18n::{Lang, tr};

/// Puts a notice on the status line.
pub(super) fn say(m: &mut Model, severity: Severity, text: &str) {
    let (began, log_len) = m.began;
    // Two messages said while applying one message: the first is kept in the log, not lost
    // under the second (unless it is the same, or logged already).
    if let Some(prev) = m.notice.take()
        && prev.seq > began
        && prev.text != text
        && !prev.logged
    {
        log_notice(m, &prev.text, prev.severity);
    }
    // Every error goes to the log with its full text and time, unless what it is about was
    // logged while applying this message (a refused decision has its own line).
    let logged_here = m.log.entries()[log_len.min(m.log.entries().len())..]
        .iter()
        .any(|e| e.outcome != Outcome::Ok);
    let logged = severity == Severity::Error && !logged_here;
    if logged {
        log_notice(m, text, severity);
    }
    let seq = m.next_seq();
    m.notice = Some(Notice {
        logged: logged || logged_here,
        text: text.to_owned(),
        severity,
        seq,
        about_listing: false,
        about_filter: None,
        start_warning: false,
        too_small: false,
        reading: None,
        label: None,
        short: None,
        at: m.now,
    });
}

/// "filter robot: 15 of 50 shown": the queue's filter and how many of its rows it shows.
pub(super) fn filter_applied(m: &Model) -> String {
    crate::tr!(
        m.lang,
        "status-filter-applied",
        filter = crate::text::clean(m.queue.filter().trim(), 30),
        shown = m.queue.visible().len(),
        total = m.queue.items().len()
    )
}

/// The filter's notice follows the queue while it stands on the status line under the same
/// filter: rows loaded, added or gone since update its numbers in place (its time and place
/// among the messages stay), so it never contradicts the queue's header.
pub(super) fn filter_notice_follows(m: &mut Model) {
    let standing = m
        .notice
        .as_ref()
        .and_then(|n| n.about_filter.as_deref())
        .is_some_and(|f| f == m.queue.filter());
    if !standing {
        return;
    }
    let text = filter_applied(m);
    if let Some(n) = m.notice.as_mut()
        && n.text != text
    {
        n.text = text;
    }
}

/// Says `text`, which names a request by `label` ([`say`], then [`name_in_notice`]).
pub(super) fn say_about(m: &mut Model, severity: Severity, text: &str, label: &str) {
    say(m, severity, text);
    name_in_notice(m, text, label);
}

/// The status line's `text` names a request by `label`: a narrow screen cuts that first.
pub(super) fn name_in_notice(m: &mut Model, text: &str, label: &str) {
    if let Some(n) = m.notice.as_mut().filter(|n| n.text == text) {
        n.label = Some(label.to_owned());
    }
}

/// The status line's `text` has a shorter form with the same numbers, `short`: a narrow
/// screen shows that where `text` does not fit.
pub(super) fn short_in_notice(m: &mut Model, text: &str, short: String) {
    if let Some(n) = m.notice.as_mut().filter(|n| n.text == text) {
        n.short = Some(short);
    }
}

/// A status-line message in the log: an error as failed, anything else as ok.
/// Says `text` unless a decision's undo countdown or a bulk action's progress stands on the
/// status line (a lower message never replaces them): then the activity log has it.
pub(super) fn say_unless_busy(m: &mut Model, severity: Severity, text: &str) {
    if m.decisions.held().is_empty() && m.activities.bulk.is_none() {
        say(m, severity, text);
    } else {
        log_notice(m, text, severity);
    }
}

pub(super) fn log_notice(m: &mut Model, text: &str, severity: Severity) {
    let (what, result) = match severity {
        Severity::Error => ("error", Err(String::new())),
        Severity::Info | Severity::Success => ("notice", Ok(())),
    };
    // The same words at the same moment (two reads of one refresh failing alike) are one
    // line in the log.
    if m.log
        .entries()
        .last()
        .is_some_and(|e| e.at == m.now && e.what == what && e.label == text)
    {
        return;
    }
    m.log.push(LogEntry {
        at: m.now,
        what: what.to_owned(),
        target: None,
        label: text.to_owned(),
        outcome: if result.is_ok() {
            Outcome::Ok
        } else {
            Outcome::Failed
        },
        detail: None,
    });
}

/// "student → club" of a row, or the short id of a request not in the queue.
pub(super) fn label_of(m: &Model, id: Uuid) -> String {
    m.queue
        .get(id)
        .map(|i| i.label_for(m.lang == crate::i18n::Lang::Thai))
        .unwrap_or_else(|| crate::app::model::short_id(id))
}

/// Adds an activity-log entry: `Ok(())`, or `Err(why)` for a failure.
pub(super) fn log(
    m: &mut Model,
    what: &str,
    target: Option<Uuid>,
    label: String,
    result: Result<(), String>,
) {
    let (outcome, detail) = match result {
        Ok(()) => (Outcome::Ok, None),
        Err(why) => (Outcome::Failed, Some(why)),
    };
    m.log.push(LogEntry {
        at: m.now,
        what: what.to_owned(),
        target,
        label,
        outcome,
        detail,
    });
}

/// An audit line.
pub(super) fn audit_entry(
    m: &Model,
    action: &str,
    target: Uuid,
    outcome: Outcome,
    detail: Option<String>,
) -> Effect {
    // The one builder of an audit line, for every front end ([`crate::ops::audit::AuditLog::entry`]):
    // this dashboard's server, user and front end; the runner hands the line to the one writer.
    let who = crate::ops::audit::AuditLog {
        path: None,
        server: m.server_key.clone(),
        user: m.user.get().and_then(|u| u.email.clone()),
        via: "dashboard",
        ..Default::default()
    };
    let mut entry = who.entry(m.now, action, target, outcome, detail);
    // What the row showed, so the history names the request as this dashboard did.
    entry.label = m
        .queue
        .get(target)
        .and_then(|i| i.request.as_ref())
        .and_then(crate::ops::audit::request_label);
    Effect::Audit(entry)
}

/// The key that opens the sign-in pop-up, for messages ("press S to sign in").
pub(super) fn sign_in_key(m: &Model) -> String {
    queue_key(m, Action::SignIn, "S")
}

/// The key bound to a decision in the queue, for messages ("press a to retry").
pub(super) fn key_for(m: &Model, action: RowAction) -> String {
    let a = match action {
        RowAction::Approve => Action::Approve,
        RowAction::Decline => Action::Decline,
        RowAction::Delete => Action::Delete,
        RowAction::AddContact => Action::NewContact,
    };
    queue_key(m, a, "")
}

/// The key bound to `action` in the queue, for messages ("Backspace clears it"), else
/// `fallback` (the `:` command that does the same).
pub(super) fn queue_key(m: &Model, action: Action, fallback: &str) -> String {
    let key = m.keymap.key_for(Scope::Queue, action);
    key.map_or_else(|| fallback.to_owned(), |k| k.to_string())
}

/// A bulk's summary in few words, its counts whole, for a status line too narrow for the
/// summary itself ("approve 9/10 done, 1 failed"): what was applied of how many, then each
/// count that is not zero (already decided by others, in conflict, failed, unknown).
pub(super) fn bulk_summary_short(lang: Lang, p: &BulkProgress) -> String {
    let ok = p
        .done
        .saturating_sub(p.failed + p.unknown + p.already + p.conflicts);
    let mut text = crate::tr!(
        lang,
        "status-bulk-summary-short",
        action = crate::app::model::words::verb(lang, p.action),
        ok = ok,
        total = p.total
    );
    for (n, key) in [
        (p.already, "status-bulk-summary-already-short"),
        (p.conflicts, "status-bulk-summary-conflicts-short"),
        (p.failed, "status-bulk-summary-failed-short"),
        (p.unknown, "status-bulk-summary-unknown-short"),
    ] {
        if n > 0 {
            text.push_str(", ");
            text.push_str(&crate::tr!(lang, key, n = n));
        }
    }
    text
}

/// A refresh ends when none of its reads is in flight any more (where no listing answer
/// said so first). "refreshed" is said only when no error was said since it began: an error
/// of one of its reads stays on the status line.
pub(super) fn end_refresh_when_read(m: &mut Model) {
    if let Some(started) = m.activities.refreshing
        && !m.calls.iter().any(ApiCall::is_refresh_read)
    {
        let failed = m
            .notice
            .as_ref()
            .is_some_and(|n| n.severity == Severity::Error && n.seq > started);
        let speaks = m.refresh_speaks();
        m.activities.refreshing = None;
        m.activities.refresh_auto = false;
        if !failed && speaks {
            let text = tr(m.lang, "status-refreshed");
            say(m, Severity::Success, &text);
        }
    }
}

/// One read of the automatic refresh answered: the refresh stays automatic (it says its
/// failures only in the activity log, and never "refreshing…") until its last read has
/// answered, whatever order they answer in; a failure after a success must not reach the
/// status line over a bulk's summary.
pub(super) fn auto_refresh_answered(m: &mut Model) {
    if !m.calls.iter().any(ApiCall::is_refresh_read) {
        m.activities.refresh_auto = false;
    }
}

/// True when a refresh's failure is said in the activity log only: the automatic refresh's,
/// and any while a bulk runs (its progress says what the link does: "paused: the service
/// cannot be reached; N waiting", which a failed read must not hide).
pub(super) fn refresh_quiet(m: &Model) -> bool {
    m.activities.refresh_auto || m.activities.bulk.is_some()
}

/// A refresh's failure said: after `r`, on the status line; after the automatic refresh,
/// only in the activity log (the moderator's own message stays; the queue's bottom line
/// says when it was last updated).
pub(super) fn say_refresh_failed(m: &mut Model, text: &str) {
    if refresh_quiet(m) {
        super::tell::log_notice(m, text, Severity::Error);
    } else {
        say(m, Severity::Error, text);
    }
}
