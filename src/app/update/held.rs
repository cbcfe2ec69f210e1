//! Decisions held in their grace period, around their edges: `z` takes the newest back (a
//! bulk action as a whole; it is never sent); quitting with decisions held asks; a
//! hang-up sends them at once; back from a suspend, decisions whose time ran out while
//! stopped are not sent before the moderator says so; a new sign-in keeps or drops the
//! held decisions of the account before. The grace period itself (a decision held for
//! `decision_delay`, sent when due on a tick) is run by `app/update/decisions.rs` (`hold`,
//! `send_due`).

use uuid::Uuid;

use super::decisions::{send_held, step};
use super::listing;
use super::tell::{label_of, say};
use crate::api::ApiError;
use crate::app::model::{LogEntry, Model, Popup, RowAction, Severity, words};
use crate::app::msg::{Effect, EndedBy, Outcome};
use crate::i18n::{Lang, tr};
use crate::ops::decision::Event;

/// Sends every held decision now (on a hang-up or SIGTERM, or "send now" on quitting).
/// With the session over they cannot be sent: they are audited as not sent (`undone`).
pub(super) fn flush(m: &mut Model) -> Vec<Effect> {
    if super::decisions::waits_for_sign_in(m) {
        return discard_all(m, Why::SessionExpired);
    }
    let all = held_ids(m, None);
    send_held(m, all)
}

/// A hang-up, SIGTERM or the server's stop: a bulk in progress ends as Ctrl-C ends the
/// command line's run: its writes not yet on their way are not sent (audited `not_sent`,
/// with why: the dashboard ended, or the server stopped); then the held decisions go
/// ([`flush`]: the moderator meant them).
pub(super) fn hang_up(m: &mut Model, ending: EndedBy) -> Vec<Effect> {
    let why = match ending {
        EndedBy::HangUp => Why::EndedQueued,
        EndedBy::ServerStopped => Why::ServerStopped,
    };
    let mut fx = stop_queued(m, why);
    fx.extend(flush(m));
    fx
}

/// The dashboard ends (`why`): its writes queued for their turn never leave, by nobody's
/// choice (audited `not_sent`, never `undone`: nobody took them back).
fn stop_queued(m: &mut Model, why: Why) -> Vec<Effect> {
    let mut fx = Vec::new();
    for id in m.decisions.queued() {
        let Some(action) = m.decisions.get(id).map(|d| d.action) else {
            continue;
        };
        fx.extend(step(m, id, Event::Stopped(why.text(Lang::English))));
        log_not_sent(m, action, id, why);
    }
    fx
}

/// The ids of the held decisions, oldest batch first: all of them, or those due at `now`.
fn held_ids(m: &Model, due: Option<crate::api::Timestamp>) -> Vec<Uuid> {
    match due {
        Some(now) => m.decisions.held_due(now),
        None => m.decisions.held().iter().map(|d| d.id).collect(),
    }
}

/// After another account signed in: says how many decisions held by the last one were not
/// sent (after "signed in", so it stands on the status line; the log keeps both).
pub(super) fn tell_not_sent(m: &mut Model) {
    let n = std::mem::take(&mut m.not_sent_on_switch);
    if n > 0 {
        let text = crate::tr!(m.lang, "status-held-other-account", n = n);
        say(m, Severity::Error, &text);
        // The new account's first listing does not replace it on the status line.
        if let Some(notice) = m.notice.as_mut() {
            notice.start_warning = true;
        }
    }
}

/// The server refused the decision on `id` with a 401 before anything changed: the session
/// was over. Sent with the token in use, it is held again, due at once, so it goes after the
/// sign-in, as the moderator meant it (or is audited as not sent if they quit first), and it
/// leaves its bulk task's count. Sent with a token replaced since (maybe another account's),
/// it is not sent again: audited as not sent (`undone`), its row pending again.
pub(super) fn session_over(m: &mut Model, id: Uuid, e: ApiError) -> Vec<Effect> {
    if super::connection::stale_unauthorised(m, &e) {
        let why = Why::SessionExpired;
        let mut fx: Vec<Effect> = step(m, id, Event::TakeBack(why.text(Lang::English)))
            .into_iter()
            .collect();
        if let Some(d) = m.decisions.get(id).cloned() {
            log_undone(m, d.action, id, why);
        }
        fx.extend(super::bulk::after_answer(m, id));
        return fx;
    }
    super::connection::note_error(m, &e);
    if let Some(item) = m.queue.get_mut(id) {
        item.error = None;
    }
    if let Some(b) = m.activities.bulk.as_mut() {
        b.ids.retain(|x| *x != id);
        if b.progress(&m.decisions).done >= b.ids.len() {
            m.activities.bulk = None;
        }
    }
    let now = m.now;
    step(m, id, Event::Hold(now));
    // Held again on its own: `z` takes it back alone, newest first.
    let batch = m.next_seq();
    m.decisions.regroup(id, batch);
    Vec::new()
}

/// A token was taken. The same account as before: the decisions held while the session was
/// over go on (due ones at the next tick; all at once when "send now" on quitting waits for
/// them). Another account: none of them is sent under it; each is audited as not sent and
/// its row is pending again.
pub(super) fn after_sign_in(m: &mut Model, same_account: bool) -> Vec<Effect> {
    if m.decisions.held().is_empty() {
        return Vec::new();
    }
    if !same_account {
        // Said once the new account is read (`tell_not_sent`), last on the status line.
        m.not_sent_on_switch = m.decisions.held().len();
        return discard_all(m, Why::OtherAccount);
    }
    if m.quit_when_sent {
        let mut fx = flush(m);
        fx.extend(quit_if_sent(m));
        return fx;
    }
    Vec::new()
}

/// `z`: takes back the newest held decision. Its rows are pending again (the cursor goes
/// back to a single row); it is audited `undone` and never sent.
pub(super) fn undo(m: &mut Model) -> Vec<Effect> {
    let Some(d) = m.held().latest().cloned() else {
        let text = tr(m.lang, "status-nothing-to-undo");
        say(m, Severity::Info, &text);
        return Vec::new();
    };
    let what = match d.ids.as_slice() {
        [id] => label_of(m, *id),
        ids => words::requests(m.lang, ids.len()),
    };
    let verb = words::verb(m.lang, d.action);
    let mut fx = take_back(m, &d.ids, Why::Undone);
    if let [id] = d.ids.as_slice()
        && let Some(pos) = m
            .queue
            .visible()
            .iter()
            .position(|&i| m.queue.items()[i].id == *id)
    {
        m.queue.set_cursor(pos);
    }
    let text = crate::tr!(m.lang, "status-taken-back", action = verb, what = what);
    say(m, Severity::Info, &text);
    fx.extend(listing::prefetch(m));
    fx
}

/// Why a held decision was not sent: the log says it in the reader's language, the audit
/// file in English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Why {
    /// `z`.
    Undone,
    /// A force quit (Ctrl-C) while it was held.
    ForceQuit,
    /// "Discard" on quitting.
    Discarded,
    /// "Discard" back from a suspend.
    DiscardedOnResume,
    /// The session was over (a hang-up while it waited for the sign-in).
    SessionExpired,
    /// Another account signed in while it was held.
    OtherAccount,
    /// The dashboard ended while it waited for its turn on the connection.
    EndedQueued,
    /// The `serve-ssh` server stopped while it waited for its turn.
    ServerStopped,
}

impl Why {
    fn text(self, lang: Lang) -> String {
        let key = match self {
            Why::Undone => "log-why-undone",
            Why::ForceQuit => "log-why-force-quit",
            Why::Discarded => "log-why-discarded",
            Why::DiscardedOnResume => "log-why-discarded-resume",
            Why::SessionExpired => "log-why-session-expired",
            Why::OtherAccount => "log-why-other-account",
            Why::EndedQueued => "log-why-ended-queued",
            Why::ServerStopped => "log-why-server-stopped",
        };
        tr(lang, key)
    }
}

/// Discards every held decision (audited `undone` with `why`); none is sent.
pub(super) fn discard_all(m: &mut Model, why: Why) -> Vec<Effect> {
    let all = held_ids(m, None);
    take_back(m, &all, why)
}

/// The held decisions on `ids` are taken back, never sent: their rows are as before the
/// key; one `undone` audit line (the transition's) and log entry per request.
fn take_back(m: &mut Model, ids: &[Uuid], why: Why) -> Vec<Effect> {
    let mut fx = Vec::new();
    for &id in ids {
        let Some(action) = m.decisions.get(id).map(|d| d.action) else {
            continue;
        };
        fx.extend(step(m, id, Event::TakeBack(why.text(Lang::English))));
        log_undone(m, action, id, why);
    }
    fx
}

/// The log's line of a decision on `id` taken back, with why in the reader's language.
fn log_undone(m: &mut Model, action: RowAction, id: Uuid, why: Why) {
    log_unsent(m, action, id, why, Outcome::Undone);
}

/// The log's line of a decision on `id` the dashboard's end kept from leaving.
fn log_not_sent(m: &mut Model, action: RowAction, id: Uuid, why: Why) {
    log_unsent(m, action, id, why, Outcome::NotSent);
}

/// The log's line of a decision on `id` never sent (`outcome`), with why in the reader's
/// language.
fn log_unsent(m: &mut Model, action: RowAction, id: Uuid, why: Why, outcome: Outcome) {
    let label = label_of(m, id);
    m.log.push(LogEntry {
        at: m.now,
        what: action.verb().to_owned(),
        target: Some(id),
        label,
        outcome,
        detail: Some(why.text(m.lang)),
    });
}

/// Back from a suspend at `now`: when a held decision's grace period ran out while the
/// dashboard was stopped (the moderator may have been away for an hour), it is not sent by
/// itself; the moderator is asked: send now, keep holding (a new grace period) or discard.
/// The quit question, when open, already asks.
pub(super) fn on_resume(m: &mut Model, now: crate::api::Timestamp) -> Vec<Effect> {
    m.now = now;
    if !m.decisions.held_due(now).is_empty() && !matches!(m.popup, Some(Popup::QuitHeld)) {
        m.popup = Some(Popup::ResumeHeld);
    }
    Vec::new()
}

/// Back from a suspend, "send now": the decisions whose time ran out are sent.
pub(super) fn resume_send(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    let due = held_ids(m, Some(m.now));
    send_held(m, due)
}

/// Back from a suspend, "keep holding": the decisions whose time ran out start a new grace
/// period (`z` can still take them back).
pub(super) fn resume_hold(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    if let Ok(delay) = chrono::TimeDelta::from_std(m.decision_delay) {
        let again = m.now + delay;
        for id in held_ids(m, Some(m.now)) {
            step(m, id, Event::Hold(again));
        }
    }
    let text = tr(m.lang, "status-held-again");
    say(m, Severity::Info, &text);
    Vec::new()
}

/// Back from a suspend, "discard": the decisions whose time ran out are taken back (audited
/// `undone`), never sent.
pub(super) fn resume_discard(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    let batches = m.held().iter().filter(|d| d.send_at <= m.now).count();
    let due = held_ids(m, Some(m.now));
    let fx = take_back(m, &due, Why::DiscardedOnResume);
    let text = crate::tr!(m.lang, "status-held-discarded", n = batches);
    say(m, Severity::Info, &text);
    fx
}

/// `q` with decisions held: ask whether to send them now, discard them, or stay.
pub(super) fn ask_on_quit(m: &mut Model) -> Vec<Effect> {
    m.quit_armed = false;
    m.popup = Some(Popup::QuitHeld);
    Vec::new()
}

/// "Send now" on quitting: every held decision goes now; the program quits once no write
/// waits for the server (`q` twice quits before that).
pub(super) fn send_now_and_quit(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    if super::decisions::waits_for_sign_in(m) {
        // They cannot go before the sign-in: they wait for it, then go, then it quits.
        m.quit_when_sent = true;
        m.quit_since = Some(m.now);
        let text = crate::tr!(
            m.lang,
            "status-quit-waits-sign-in",
            key = super::tell::sign_in_key(m),
            n = m.decisions.held().len()
        );
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    let mut fx = flush(m);
    m.quit_when_sent = true;
    m.quit_since = Some(m.now);
    fx.extend(quit_if_sent(m));
    if !m.quitting {
        let text = tr(m.lang, "status-sending-held");
        say(m, Severity::Info, &text);
    }
    fx
}

/// "Discard" on quitting: every held decision is taken back (audited `undone`), then quit.
pub(super) fn discard_and_quit(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    let mut fx = discard_all(m, Why::Discarded);
    fx.extend(quit(m, false));
    fx
}

/// After an answer: quits when "send now" was chosen and nothing it sent is still waiting.
/// Waits too for every write whose answer was lost to be settled by its re-reads; and
/// when a decision sent since "send now" was not applied, it stays open and says so (`q`
/// then quits).
pub(super) fn quit_if_sent(m: &mut Model) -> Vec<Effect> {
    if !m.quit_when_sent
        || m.quitting
        || !m.decisions.held().is_empty()
        || m.decisions.any_queued()
        || m.writes_pending() > 0
    {
        return Vec::new();
    }
    let unsettled = m.decisions.lost().len();
    if unsettled > 0 {
        let text = crate::tr!(m.lang, "status-quit-waits-unknown", n = unsettled);
        say(m, Severity::Info, &text);
        return Vec::new();
    }
    let since = m.quit_since.unwrap_or(m.now);
    let failed = m
        .log
        .entries()
        .iter()
        .filter(|e| e.at >= since && e.outcome == crate::app::msg::Outcome::Failed)
        .filter(|e| matches!(e.what.as_str(), "approve" | "decline" | "delete"))
        .filter_map(|e| e.target)
        .collect::<std::collections::HashSet<_>>()
        .len();
    if failed > 0 {
        m.quit_when_sent = false;
        m.quit_since = None;
        let text = crate::tr!(m.lang, "status-quit-not-applied", n = failed);
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    quit(m, true)
}

/// Quits: with decisions still waiting for the server, the first `q` only warns (`force`
/// skips that). Writes still unanswered are audited with outcome `unknown`, never as done.
pub(super) fn quit(m: &mut Model, force: bool) -> Vec<Effect> {
    // Decisions still in their grace period: `q` asks; a force quit discards them.
    let mut fx = Vec::new();
    if !m.held().is_empty() {
        if !force {
            return ask_on_quit(m);
        }
        fx = discard_all(m, Why::ForceQuit);
    }
    let running = m.calls.iter().filter(|c| c.is_mutation()).count() + m.decisions.queued().len();
    if running > 0 && !force && !m.quit_armed {
        m.quit_armed = true;
        let text = crate::tr!(m.lang, "status-quit-armed", n = running);
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    // Writes queued for their turn never left: not sent (`not_sent`, nobody took them back).
    fx.extend(stop_queued(m, Why::EndedQueued));
    m.quitting = true;
    // Every write still waiting for its answer ends through the machine (`Abandon`:
    // audited `unknown`; the next start re-reads and settles it): decisions and contacts.
    let sending = |b: &crate::ops::book::Book| -> Vec<Uuid> {
        b.iter()
            .filter(|d| matches!(d.stage(), crate::ops::decision::Stage::Sending))
            .map(|d| d.id)
            .collect()
    };
    for id in sending(&m.decisions) {
        fx.extend(super::decisions::step(
            m,
            id,
            crate::ops::decision::Event::Abandon,
        ));
    }
    for club in sending(&m.club.writes) {
        fx.extend(super::club::contact_step(
            m,
            club,
            crate::ops::decision::Event::Abandon,
        ));
    }
    fx.push(Effect::Quit);
    fx
}
