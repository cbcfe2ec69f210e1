//! The grace period: an approve or decline is held for `decision_delay` before it is sent.
//! The cursor moves on at once; the row and the status line count down; `z` takes the
//! newest decision back (a bulk action as a whole), and it is never sent. Ticks send what
//! is due; quitting with decisions held asks; a hang-up sends them at once; back from a
//! suspend, decisions whose time ran out while stopped are not sent before the moderator
//! says so.

use uuid::Uuid;

use super::{audit_entry, decisions, keys, label_of, listing, say};
use crate::app::model::{
    HeldDecision, LogEntry, Model, Popup, RowAction, RowState, Severity, words,
};
use crate::app::msg::{Effect, Outcome};
use crate::i18n::{Lang, tr};

/// Holds a decision on `ids` for the grace period (or sends it at once when the delay is
/// zero). The rows show it as under way at once, so no other key acts on them meanwhile.
pub(super) fn hold(m: &mut Model, action: RowAction, ids: Vec<Uuid>) -> Vec<Effect> {
    let Ok(delay) = chrono::TimeDelta::from_std(m.decision_delay) else {
        return decisions::start(m, action, ids, false);
    };
    if delay.is_zero() || action == RowAction::Delete || ids.is_empty() {
        return decisions::start(m, action, ids, false);
    }
    for id in &ids {
        if let Some(item) = m.queue.get_mut(*id) {
            item.state = RowState::Acting(action);
            item.error = None;
        }
    }
    let seq = m.next_seq();
    let told = super::others::tell_held(m, action, &ids);
    m.held.push(HeldDecision {
        action,
        bulk: ids.len() > 1,
        ids,
        send_at: m.now + delay,
        seq,
    });
    vec![told]
}

/// On a tick: sends every decision whose grace period has ended (not while the quit
/// question is open: the moderator is deciding what happens to them; nor while the session
/// is over: they wait for the sign-in, [`after_sign_in`]).
pub(super) fn send_due(m: &mut Model) -> Vec<Effect> {
    if m.held.is_empty()
        || matches!(m.popup, Some(Popup::QuitHeld | Popup::ResumeHeld))
        || waits_for_sign_in(m)
    {
        return Vec::new();
    }
    let due = m.held.take_due(m.now);
    send(m, due)
}

/// Sends every held decision now (on a hang-up or SIGTERM, or "send now" on quitting).
/// With the session over they cannot be sent: they are audited as not sent (`undone`).
pub(super) fn flush(m: &mut Model) -> Vec<Effect> {
    if waits_for_sign_in(m) {
        return discard_all(m, Why::SessionExpired);
    }
    let all = m.held.take_all();
    send(m, all)
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

/// True while held decisions cannot be sent: no token, or the server said the session is
/// over. They wait for the sign-in.
pub(super) fn waits_for_sign_in(m: &Model) -> bool {
    !m.has_token || m.session_expired
}

/// A decision the server refused with a 401 because the session was over (it was not
/// applied): held again, due at once, so it is sent after the sign-in, as the moderator
/// meant it (or audited as not sent if they quit first). Left out of a bulk task's count.
pub(super) fn hold_for_sign_in(m: &mut Model, action: RowAction, id: Uuid) {
    if let Some(item) = m.queue.get_mut(id) {
        item.state = RowState::Acting(action);
        item.error = None;
    }
    if let Some(b) = m.activities.bulk.as_mut()
        && b.ids.remove(&id)
    {
        b.total = b.total.saturating_sub(1);
        if b.done >= b.total {
            m.activities.bulk = None;
        }
    }
    let seq = m.next_seq();
    m.held.push(HeldDecision {
        action,
        ids: vec![id],
        send_at: m.now,
        bulk: false,
        seq,
    });
}

/// A decision sent with a token that was replaced before the server refused it (401): it
/// was not applied, and is not sent again under the token in use (maybe another
/// account's). Audited as not sent (`undone`); its row is pending again.
pub(super) fn not_sent(m: &mut Model, action: RowAction, id: Uuid) -> Vec<Effect> {
    let d = HeldDecision {
        action,
        ids: vec![id],
        send_at: m.now,
        bulk: false,
        seq: 0,
    };
    take_back(m, &d, Why::SessionExpired)
}

/// A token was taken. The same account as before: the decisions held while the session was
/// over go on (due ones at the next tick; all at once when "send now" on quitting waits for
/// them). Another account: none of them is sent under it; each is audited as not sent and
/// its row is pending again.
pub(super) fn after_sign_in(m: &mut Model, same_account: bool) -> Vec<Effect> {
    if m.held.is_empty() {
        return Vec::new();
    }
    if !same_account {
        // Said once the new account is read (`tell_not_sent`), last on the status line.
        m.not_sent_on_switch = m.held.requests();
        return discard_all(m, Why::OtherAccount);
    }
    if m.quit_when_sent {
        let mut fx = flush(m);
        fx.extend(quit_if_sent(m));
        return fx;
    }
    Vec::new()
}

fn send(m: &mut Model, decisions: Vec<HeldDecision>) -> Vec<Effect> {
    let mut fx = Vec::new();
    for d in decisions {
        fx.extend(decisions::start(m, d.action, d.ids, true));
    }
    fx
}

/// `z`: takes back the newest held decision. Its rows are pending again (the cursor goes
/// back to a single row); it is audited `undone` and never sent.
pub(super) fn undo(m: &mut Model) -> Vec<Effect> {
    let Some(d) = m.held.take_latest() else {
        let text = tr(m.lang, "status-nothing-to-undo");
        say(m, Severity::Info, &text);
        return Vec::new();
    };
    let what = match d.ids.as_slice() {
        [id] => label_of(m, *id),
        ids => words::requests(m.lang, ids.len()),
    };
    let verb = words::verb(m.lang, d.action);
    let mut fx = take_back(m, &d, Why::Undone);
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
        };
        tr(lang, key)
    }
}

/// Discards every held decision (audited `undone` with `why`); none is sent.
pub(super) fn discard_all(m: &mut Model, why: Why) -> Vec<Effect> {
    let mut fx = Vec::new();
    for d in m.held.take_all() {
        fx.extend(take_back(m, &d, why));
    }
    fx
}

/// The rows of `d` go back to what they were before the key; one `undone` audit line and
/// log entry per request.
fn take_back(m: &mut Model, d: &HeldDecision, why: Why) -> Vec<Effect> {
    let mut fx = Vec::new();
    for &id in &d.ids {
        if let Some(item) = m.queue.get_mut(id)
            && item.state == RowState::Acting(d.action)
        {
            item.state = if item.request.is_some() {
                RowState::Ready
            } else {
                RowState::Unloaded
            };
        }
        let label = label_of(m, id);
        m.log.push(LogEntry {
            at: m.now,
            what: d.action.verb().to_owned(),
            target: Some(id),
            label,
            outcome: Outcome::Undone,
            detail: Some(why.text(m.lang)),
        });
        fx.push(audit_entry(
            m,
            d.action.verb(),
            id,
            Outcome::Undone,
            Some(why.text(Lang::English)),
        ));
    }
    fx
}

/// Back from a suspend at `now`: when a held decision's grace period ran out while the
/// dashboard was stopped (the moderator may have been away for an hour), it is not sent by
/// itself; the moderator is asked: send now, keep holding (a new grace period) or discard.
/// The quit question, when open, already asks.
pub(super) fn on_resume(m: &mut Model, now: crate::api::Timestamp) -> Vec<Effect> {
    m.now = now;
    if m.held.any_due(now) && !matches!(m.popup, Some(Popup::QuitHeld)) {
        m.popup = Some(Popup::ResumeHeld);
    }
    Vec::new()
}

/// Back from a suspend, "send now": the decisions whose time ran out are sent.
pub(super) fn resume_send(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    let due = m.held.take_due(m.now);
    send(m, due)
}

/// Back from a suspend, "keep holding": the decisions whose time ran out start a new grace
/// period (`z` can still take them back).
pub(super) fn resume_hold(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    if let Ok(delay) = chrono::TimeDelta::from_std(m.decision_delay) {
        m.held.hold_due_again(m.now, m.now + delay);
    }
    let text = tr(m.lang, "status-held-again");
    say(m, Severity::Info, &text);
    Vec::new()
}

/// Back from a suspend, "discard": the decisions whose time ran out are taken back (audited
/// `undone`), never sent.
pub(super) fn resume_discard(m: &mut Model) -> Vec<Effect> {
    m.popup = None;
    let mut fx = Vec::new();
    let due = m.held.take_due(m.now);
    for d in &due {
        fx.extend(take_back(m, d, Why::DiscardedOnResume));
    }
    let text = crate::tr!(m.lang, "status-held-discarded", n = due.len());
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
    if waits_for_sign_in(m) {
        // They cannot go before the sign-in: they wait for it, then go, then it quits.
        m.quit_when_sent = true;
        m.quit_since = Some(m.now);
        let text = crate::tr!(
            m.lang,
            "status-quit-waits-sign-in",
            key = super::sign_in_key(m),
            n = m.held.requests()
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
    fx.extend(keys::quit(m, false));
    fx
}

/// After an answer: quits when "send now" was chosen and nothing it sent is still waiting.
/// Waits too for every write whose answer was lost to be settled by its re-reads; and
/// when a decision sent since "send now" was not applied, it stays open and says so (`q`
/// then quits).
pub(super) fn quit_if_sent(m: &mut Model) -> Vec<Effect> {
    if !m.quit_when_sent || m.quitting || !m.held.is_empty() || m.writes_pending() > 0 {
        return Vec::new();
    }
    if !m.unsettled.is_empty() {
        let text = crate::tr!(m.lang, "status-quit-waits-unknown", n = m.unsettled.len());
        say(m, Severity::Info, &text);
        return Vec::new();
    }
    let since = m.quit_since.unwrap_or(m.now);
    let failed = m
        .log
        .entries()
        .iter()
        .filter(|e| e.at >= since && e.outcome == crate::app::Outcome::Failed)
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
    keys::quit(m, true)
}
