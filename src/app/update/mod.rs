//! `update`: the only writer of the Model. Msg in, Model changed, Effects out.
//!
//! Rooms, by what a change is about: [`keys`] (keys and the actions they run),
//! [`decisions`] (a decision from its key to its answer), [`bulk`] (marked rows, a bulk task's
//! progress and summary), [`lost`] (a decision whose answer was lost, settled by re-reads),
//! [`listing`] (listing pages, refresh, `G` while pages load), [`rows`] (rows
//! read by id), [`answers`] (the user, a token's check, the staffed clubs), [`popups`] (pop-up keys and what they
//! submit), [`commands`] (the `:` line), [`club`] (club lookup and contacts), [`ids`] (ids
//! added by hand, paste, restore), [`held`] (held decisions: undo, quit, resume, sign-in),
//! [`errors`] (errors in words), [`marking`] (mark all). [`capability`] (whether approve and decline exist here),
//! [`scope`] (the listing's scope across starts), [`link`] (online, offline, retries),
//! [`sorting`] (a sort loads the whole scope first).

mod answers;
mod bulk;
mod capability;
mod club;
mod commands;
mod decisions;
mod errors;
mod held;
mod ids;
mod keys;
mod link;
mod listing;
mod lost;
mod marking;
mod others;
mod popups;
mod rows;
mod scope;
mod sorting;

use tui_input::Input;
use uuid::Uuid;

use super::call::{Answer, ApiCall};
use super::model::{Connection, LogEntry, Model, Notice, Popup, RowAction, Severity};
use super::msg::{Effect, LocalEffect, Msg, Outcome};
use crate::api::{ApiError, AuthErrorKind};
use crate::i18n::{Lang, tr};

use errors::{error_text, log_text, read_error_text};

pub use commands::{COMMANDS, command_help};
pub use listing::{PAGE_AHEAD, PREFETCH_AHEAD};
pub use rows::REREAD_CHUNK;
pub use sorting::SORT_ALL_CAP;

/// The effects to run at start: read the current user (which then scopes the listing) and,
/// with a token, probe whether approve and decline exist, at the same time. (A saved scope
/// restored next starts the listing too: see `Msg::Restore`.)
pub fn start(m: &mut Model) -> Vec<Effect> {
    m.user = super::model::Loadable::Loading;
    let mut fx = vec![call(m, ApiCall::CurrentUser)];
    fx.extend(capability::probe(m));
    if !m.has_token {
        // The sign-in pop-up opens when asked (the header and this line say which key): a
        // key typed at start never lands in a masked field.
        let text = crate::tr!(m.lang, "status-no-token-press", key = sign_in_key(m));
        say(m, Severity::Info, &text);
    }
    fx
}

/// Applies one message: dispatches it, settles the queue (counts and view follow the rows),
/// keeps the cursor in the drawn window, and hands out the saved part of the queue when it
/// changed.
pub fn update(m: &mut Model, msg: Msg) -> Vec<Effect> {
    m.began = (m.seq, m.log.entries().len());
    let tick = matches!(msg, Msg::Tick(_));
    let mut fx = dispatch(m, msg);
    note_busy(m, tick);
    bulk::prune_confirm(m);
    m.queue.apply_changes();
    m.queue.scroll_into_view(m.page_rows);
    // A new request is new until the cursor reaches it.
    if let Some(id) = m.queue.selected().filter(|i| i.fresh).map(|i| i.id)
        && let Some(item) = m.queue.get_mut(id)
    {
        item.fresh = false;
    }
    // Another row in the detail pane starts at its top.
    if m.detail_row.is_some() && m.queue.selected().map(|i| i.id) != m.detail_row {
        m.detail_row = None;
        m.detail_scroll = 0;
    }
    if let Some(saved) = persist_change(m) {
        fx.push(Effect::SaveQueue(saved));
    }
    if let Some(title) = title_change(m) {
        fx.push(Effect::Title(title));
    }
    if let Some(text) = m.notify_due.take() {
        fx.push(Effect::Notify {
            osc9: m.notify == crate::config::NewRequestNotice::Osc9,
            text: format!("club-admin: {text}"),
        });
    }
    fx
}

/// The terminal's title when it should change: "club-admin · 12 pending" once the server
/// counted the scope's pending requests (the listing's total, or the rows pending here),
/// so a moderator working in another window sees the queue grow.
fn title_change(m: &mut Model) -> Option<String> {
    m.listing.refreshed_at?;
    let pending = m
        .listing
        .total
        .unwrap_or_else(|| m.queue.stats().pending as u64);
    // Compared as a count: the title is formatted only when it changes (this runs after
    // every message, ticks included).
    if m.title == Some(pending) {
        return None;
    }
    m.title = Some(pending);
    Some(crate::tr!(m.lang, "title-pending", n = pending))
}

/// Keeps when calls began to be in flight without a break (on the first tick after, which
/// carries the time): the status line shows them only once they last (a quick read never
/// flickers on the screen, nor costs bytes on a slow link).
fn note_busy(m: &mut Model, tick: bool) {
    if !m.busy() {
        m.busy_since = None;
    } else if tick && m.busy_since.is_none() {
        m.busy_since = Some(m.now);
    }
}

/// The saved part of the queue, when it differs from the last one handed out. A filter
/// being typed is a preview: it is saved once kept (Enter), never if undone (Esc).
fn persist_change(m: &mut Model) -> Option<super::model::SavedQueue> {
    // Both counters only grow: their sum changes whenever either does.
    let v = m.queue.persist_version() + m.listing.remembered_version;
    if v == m.saved_version || matches!(m.popup, Some(Popup::Filter { .. })) {
        return None;
    }
    m.saved_version = v;
    let saved = m.saved_queue();
    if m.last_saved.as_ref() == Some(&saved) {
        return None;
    }
    m.last_saved = Some(saved.clone());
    Some(saved)
}

/// What the moderator's hands do: a key, a paste, the wheel, a tap. Nothing acts on what is
/// not drawn: below the smallest size only quit, redraw, suspend and undo do anything (a
/// key, paste, wheel or tap is told it was ignored).
fn on_input(m: &mut Model, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(k) if !m.shows_queue() => keys::on_key_unseen(m, k),
        Msg::Key(k) => keys::on_key(m, k),
        _ if !m.shows_queue() => keys::ignore_unseen(m),
        Msg::Paste(text) => ids::on_paste(m, &text),
        Msg::Wheel { down } => keys::run_action(
            m,
            if down {
                super::keymap::Action::Down
            } else {
                super::keymap::Action::Up
            },
        ),
        Msg::Click { pane, row } => keys::on_click(m, pane, row),
        _ => Vec::new(),
    }
}

/// What the screen says of itself: its size, the rows of the queue drawn, how far each part
/// can scroll.
fn on_screen(m: &mut Model, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Layout { queue_rows } => m.page_rows = queue_rows.max(1),
        Msg::Scrolled(limits) => {
            m.scroll_limits = Some(limits);
            clamp_scrolls(m);
        }
        Msg::Resize(w, h) => {
            m.size = (w, h);
            keys::resized(m);
            // A wider window shows the detail beside the queue: nothing stays opened over it.
            if !m.narrow() {
                m.detail_open = false;
            }
        }
        _ => {}
    }
    Vec::new()
}

fn dispatch(m: &mut Model, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Layout { .. } | Msg::Scrolled(_) | Msg::Resize(..) => on_screen(m, msg),
        Msg::Key(_) | Msg::Paste(_) | Msg::Wheel { .. } | Msg::Click { .. } => on_input(m, msg),
        Msg::Heard(t) => others::heard(m, t),
        Msg::Tick(now) => {
            m.now = now;
            decisions::send_due(m)
        }
        Msg::Resumed(now) => held::on_resume(m, now),
        Msg::Flush => held::flush(m),
        Msg::Stop => keys::quit(m, true),
        Msg::AutoRefresh => {
            if m.listing.loading || m.session_expired {
                Vec::new()
            } else {
                // Quiet: it speaks only where nothing more important stands on the status
                // line (`Model::refresh_speaks`).
                listing::refresh_as(m, true)
            }
        }
        Msg::WritesPaused(paused) => {
            m.writes_paused = paused;
            Vec::new()
        }
        Msg::Pace {
            slowed, in_flight, ..
        } => {
            m.server_slow = slowed;
            m.sent = Some(in_flight);
            Vec::new()
        }
        Msg::Budget(status) => errors::on_budget(m, status),
        Msg::Retry(now) => {
            let mut fx = link::retry(m, now);
            fx.extend(lost::reread_due(m, now));
            fx.extend(listing::retry_first_load(m, now));
            fx
        }
        Msg::AddIds { text, origin } => ids::add_ids(m, &text, &origin),
        Msg::Restore(saved) => ids::restore(m, saved),
        Msg::Interrupted(entries) => lost::on_interrupted(m, entries),
        Msg::History(entries) => {
            m.log.prepend_history(entries, m.lang);
            Vec::new()
        }
        Msg::Warning(w) => {
            errors::on_warning(m, &w);
            Vec::new()
        }
        Msg::Api { request_id, answer } => match m.calls.finish(request_id) {
            Some(call) => {
                m.answering = request_id;
                let fx = on_answer(m, call, answer);
                m.answering = 0;
                fx
            }
            None => Vec::new(),
        },
        Msg::EffectFailed { what, error } => {
            let text = crate::tr!(
                m.lang,
                "status-effect-failed",
                what = effect_words(m.lang, what),
                error = error
            );
            say(m, Severity::Error, &text);
            Vec::new()
        }
    }
}

/// Keeps every scroll within what was last drawn: nothing scrolls past its
/// last line, so the way back is as long as the way there.
pub(super) fn clamp_scrolls(m: &mut Model) {
    let Some(l) = m.scroll_limits else {
        return;
    };
    if let Some(Popup::Help { scroll, .. }) = m.popup.as_mut() {
        *scroll = (*scroll).min(l.help);
    }
    m.club.scroll = m.club.scroll.min(l.club);
    m.detail_scroll = m.detail_scroll.min(l.detail);
    m.log.scroll = m.log.scroll.min(l.log);
}

/// An awaited answer to `call`: applied by its own handler ([`route`]); then the header
/// follows it (offline when the server could not be reached, else online), a read that
/// could not reach the server is kept for a retry, and what waits on reads goes on: a write
/// whose answer was lost is settled by its row's re-read, mark-all loads its next page,
/// "send now and quit" quits once the server has answered, and when the server answers
/// again after being unreachable, every kept read is sent again.
fn on_answer(m: &mut Model, call: ApiCall, answer: Answer) -> Vec<Effect> {
    let read: Vec<Uuid> = if !m.decisions.any_lost() {
        Vec::new()
    } else {
        answer.rows_read().to_vec()
    };
    let page = match &answer {
        Answer::ListPage { result, .. } => Some(result.is_ok()),
        _ => None,
    };
    let down = answer.error().and_then(|e| unreachable(m.lang, e));
    let was_offline = matches!(m.connection, Connection::Offline(_));
    let lost = (down.is_some() && !call.is_mutation()).then_some(call);
    let mut fx = answers::route(answer, m);
    if m.activities.refreshing.is_some() {
        listing::end_refresh_when_read(m);
    }
    if let Some(read) = lost {
        m.link.lose(read);
    }
    match down {
        Some(why) => {
            m.connection = Connection::Offline(why);
            if m.link.retry_at.is_none() && !m.link.lost.is_empty() {
                m.link.schedule(m.now);
            }
        }
        None => {
            m.connection = Connection::Online;
            if was_offline || m.link.retry_at.is_some() {
                m.link.reset();
                m.link.back = true;
            }
        }
    }
    tell_expired(m);
    // What waits on answers goes on, each only when something waits.
    if !read.is_empty() {
        fx.extend(lost::settle_unknown(m, &read));
    }
    if let Some(ok) = page {
        fx.extend(marking::on_page(m, ok));
        fx.extend(sorting::on_page(m, ok));
    }
    if m.quit_when_sent {
        fx.extend(held::quit_if_sent(m));
    }
    if m.link.back {
        fx.extend(link::resend_lost(m));
    }
    fx
}

/// The error in words (in `lang`, for the header) when it says the server could not be
/// reached (no connection, no answer in time), or that what answered is not the club
/// service (a wrong base URL: never shown online); `None` for an answer, even a refusal.
fn unreachable(lang: Lang, e: &ApiError) -> Option<String> {
    matches!(
        e,
        ApiError::Connect { .. } | ApiError::Timeout { .. } | ApiError::NotTheService { .. }
    )
    .then(|| e.describe(lang))
}

// ---------------------------------------------------------------------------------------
// helpers shared by the rooms

/// Records a call in flight and returns its effect.
fn call(m: &mut Model, call: ApiCall) -> Effect {
    let request_id = m.calls.start(call.clone());
    Effect::Api { request_id, call }
}

/// Puts a notice on the status line.
fn say(m: &mut Model, severity: Severity, text: &str) {
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
        start_warning: false,
        too_small: false,
        reading: None,
        label: None,
        at: m.now,
    });
}

/// The status line's `text` names a request by `label`: a narrow screen cuts that first.
fn name_in_notice(m: &mut Model, text: &str, label: &str) {
    if let Some(n) = m.notice.as_mut().filter(|n| n.text == text) {
        n.label = Some(label.to_owned());
    }
}

/// A status-line message in the log: an error as failed, anything else as ok.
/// Says `text` unless a decision's undo countdown or a bulk action's progress stands on the
/// status line (a lower message never replaces them): then the activity log has it.
fn say_unless_busy(m: &mut Model, severity: Severity, text: &str) {
    if m.decisions.held().is_empty() && m.activities.bulk.is_none() {
        say(m, severity, text);
    } else {
        log_notice(m, text, severity);
    }
}

/// The server's count of pending requests shrinks by one when a request it listed pending
/// here is decided, by this dashboard or elsewhere. Called before the row takes its new
/// status.
fn count_decided(m: &mut Model, id: Uuid) {
    let listed_pending = m.queue.get(id).is_some_and(|i| {
        i.origin == super::model::Origin::Listing
            && i.status() == Some(&crate::api::MembershipStatus::Pending)
    });
    if listed_pending && let Some(t) = m.listing.total.as_mut() {
        *t = t.saturating_sub(1);
    }
}

fn log_notice(m: &mut Model, text: &str, severity: Severity) {
    let (what, result) = match severity {
        Severity::Error => ("error", Err(String::new())),
        _ => ("notice", Ok(())),
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
fn label_of(m: &Model, id: Uuid) -> String {
    m.queue
        .get(id)
        .map(|i| i.label_for(m.lang == crate::i18n::Lang::Thai))
        .unwrap_or_else(|| super::model::short_id(id))
}

/// Adds an activity-log entry: `Ok(())`, or `Err(why)` for a failure.
fn log(m: &mut Model, what: &str, target: Option<Uuid>, label: String, result: Result<(), String>) {
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
fn audit_entry(
    m: &Model,
    action: &str,
    target: Uuid,
    outcome: Outcome,
    detail: Option<String>,
) -> Effect {
    // The one builder of an audit line, both faces ([`crate::ops::audit::AuditLog::entry`]):
    // this dashboard's server, user and face; the runner hands the line to the one writer.
    let who = crate::ops::audit::AuditLog {
        path: None,
        server: m.server_key.clone(),
        user: m.user.get().and_then(|u| u.email.clone()),
        via: "dashboard",
    };
    Effect::Audit(who.entry(m.now, action, target, outcome, detail))
}

/// True when `e` is a 401 answering a call sent before the token in use was taken (with no
/// token, or an older one), or before a pasted token whose check is still in flight: it
/// says nothing about the session now (the check's answer will).
fn stale_unauthorised(m: &Model, e: &ApiError) -> bool {
    let checking = m.activities.signing_in.is_some() && m.answering < m.signing_from;
    matches!(e, ApiError::Unauthorized { .. })
        && m.answering != 0
        && (m.answering < m.token_from || checking)
}

/// Records what an error says about the connection and the session.
fn note_error(m: &mut Model, e: &ApiError) {
    match e {
        ApiError::Connect { .. } | ApiError::Timeout { .. } => {
            m.connection = Connection::Offline(e.describe(m.lang))
        }

        _ => m.connection = Connection::Online,
    }
    if stale_unauthorised(m, e) {
        return;
    }
    if let ApiError::Unauthorized { kind, .. } = e
        && kind.needs_sign_in()
        && !m.session_expired
    {
        // The sign-in pop-up does not open by itself: keys the moderator meant for the
        // queue (typed before the screen changed) must never land in its masked field. The
        // header and the status line say which key signs in; decisions wait for it.
        m.session_expired = true;
        m.expired_now = Some(*kind);
    }
}

/// Once an answer said the session is over: the status line says so last (after what the
/// answer itself said, which the log keeps), with the key that signs in and what waits.
fn tell_expired(m: &mut Model) {
    let Some(kind) = m.expired_now.take() else {
        return;
    };
    if !m.session_expired {
        return;
    }
    let key = sign_in_key(m);
    let text = match kind {
        AuthErrorKind::MissingToken => crate::tr!(m.lang, "status-needs-token-press", key = key),
        _ if m.decisions.held().is_empty() => {
            crate::tr!(m.lang, "status-session-expired-press", key = key)
        }
        _ => crate::tr!(
            m.lang,
            "status-session-expired-held",
            key = key,
            n = m.decisions.held().len()
        ),
    };
    say(m, Severity::Error, &text);
}

/// The key that opens the sign-in pop-up, for messages ("press S to sign in").
fn sign_in_key(m: &Model) -> String {
    m.keymap
        .key_for(super::keymap::Scope::Queue, super::keymap::Action::SignIn)
        .map(|k| k.to_string())
        .unwrap_or_else(|| "S".to_owned())
}

/// Records a successful answer: online, and the server's `api_version`.
fn note_ok(m: &mut Model, api_version: &Option<String>) {
    m.connection = Connection::Online;
    if let Some(v) = api_version {
        m.api_version = Some(crate::text::clean(v, 20));
    }
}

/// What the runtime says failed (`Msg::EffectFailed`'s `what`) in `lang`.
fn effect_words(lang: Lang, what: LocalEffect) -> String {
    let key = match what {
        LocalEffect::SavingToken => "status-effect-saving-token",
        LocalEffect::AuditFile => "status-effect-audit-file",
        LocalEffect::SavingQueue => "status-effect-saving-queue",
    };
    tr(lang, key)
}

fn sign_in_popup(m: &Model, error: Option<String>) -> Popup {
    Popup::SignIn {
        input: Input::default(),
        // Unticked unless the configuration or this session's last sign-in asked to save
        // (shared school computers: a saved token signs in the next person at the desk).
        save: m.save_token,
        can_save: m.can_save_token,
        error,
    }
}

/// The key bound to a decision in the queue, for messages ("press a to retry").
fn key_for(m: &Model, action: RowAction) -> String {
    let a = match action {
        RowAction::Approve => super::keymap::Action::Approve,
        RowAction::Decline => super::keymap::Action::Decline,
        RowAction::Delete => super::keymap::Action::Delete,
        RowAction::AddContact => super::keymap::Action::NewContact,
    };
    m.keymap
        .key_for(super::keymap::Scope::Queue, a)
        .map(|k| k.to_string())
        .unwrap_or_default()
}
