//! `update`: the only writer of the Model. Msg in, Model changed, Effects out.
//!
//! This file only dispatches a message to the file of its concern, and does what follows
//! every message. The files import one way, never back (a test holds it:
//! `no_file_in_app_update_imports_one_that_imports_it_back`):
//! [`keypress`] (keys and the actions they run), [`decisions`] (a decision from its key to
//! its answer), [`bulk`] (marked rows, a bulk task's progress and summary), [`lost`] (a
//! decision whose answer was lost, settled by re-reads), [`refresh`] (a refresh),
//! [`listing`] (listing pages, `G` while pages load), [`count`] (the server's count of
//! pending requests), [`new_requests`] (the `+` of a new request), [`rows`] (rows read by
//! id), [`answers`] (each answer to its handler), [`popups`] (pop-up keys and what they
//! submit), [`commands`] (the `:` line), [`club`] (club lookup and contacts), [`ids`] (ids
//! added by hand, paste, restore), [`held`] (held decisions: undo, quit, resume, sign-in),
//! [`signin`] (a pasted token checked and taken or refused, who is signed in), [`errors`]
//! (errors in words), [`marking`] (mark all), [`capability`] (whether approve and decline
//! exist here), [`scope`] (the listing's scope across starts), [`link`] (online, offline,
//! retries), [`sorting`] (a sort loads the whole scope first), [`tell`] (the status line,
//! the activity log, the audit line), [`connection`] (calls in flight and what an answer
//! says of the connection).

mod actions;
mod answers;
mod bulk;
mod capability;
mod club;
mod commands;
mod connection;
mod count;
mod decisions;
mod errors;
mod focus;
mod held;
mod history;
mod ids;
mod keypress;
mod link;
mod listing;
mod lost;
mod marking;
mod new_requests;
mod others;
mod popups;
mod refresh;
mod rows;
mod scope;
mod signin;
mod sorting;
mod tell;
mod term;

use uuid::Uuid;

use super::call::{Answer, ApiCall};
use super::model::{Connection, Model, Popup, Severity};
use super::msg::{Effect, LocalEffect, Msg};
use crate::api::{ApiError, ErrorClass};
use crate::i18n::{Lang, tr};

use connection::call;
use tell::{say, sign_in_key};

pub use commands::{COMMANDS, command_help};
pub use history::{SHOWN_BYTES, START_BYTES};
pub use listing::PAGE_AHEAD;
pub use rows::{PREFETCH_AHEAD, REREAD_CHUNK};
pub use sorting::SORT_ALL_CAP;

/// The effects to run at start: read the current user (which then scopes the listing) and,
/// with a token, probe whether approve and decline exist, at the same time; read the
/// audit's recent lines for the detail's history (a saved scope restored next starts the
/// listing too: see `Msg::Restore`).
pub fn start(m: &mut Model) -> Vec<Effect> {
    m.user = super::model::Loadable::Loading;
    let mut fx = vec![call(m, ApiCall::CurrentUser)];
    fx.extend(capability::probe(m));
    fx.extend(history::start(m));
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
    // What another session did that wrote an audit line (a decision held writes none).
    let heard = matches!(
        &msg,
        Msg::Heard(t) if !matches!(t.heard, super::msg::Heard::Held(_))
    );
    let mut fx = dispatch(m, msg);
    if !m.overwritten_due.is_empty() {
        fx.extend(decisions::overwritten(m));
    }
    let reads = history::follow(m, heard, &fx);
    fx.extend(reads);
    note_busy(m, tick);
    bulk::prune_confirm(m);
    m.queue.apply_changes();
    tell::filter_notice_follows(m);
    m.queue.scroll_into_view(m.page_rows);
    new_requests::seen(m);
    // Another row in the detail pane starts at its top.
    if m.detail_row.is_some() && m.queue.selected().map(|i| i.id) != m.detail_row {
        m.detail_row = None;
        m.detail_scroll = 0;
    }
    if let Some(saved) = persist_change(m) {
        fx.push(Effect::SaveQueue(saved));
    }
    fx.extend(count::recount_when_settled(m));
    fx.extend(term::follow_through(m));
    fx.extend(term::first_view(m));
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

/// A message of the moderator's hands, taken out of [`Msg`] so that [`on_input`] names every
/// kind: a new kind of input does not compile until it says what it does.
enum Input {
    Key(super::key::Key),
    Paste(String),
    Wheel {
        down: bool,
    },
    Click {
        pane: super::model::Pane,
        row: Option<usize>,
    },
}

/// A message of the screen about itself, taken out of [`Msg`] for [`on_screen`], as
/// [`Input`] is.
enum Screen {
    Layout { queue_rows: usize },
    Scrolled(super::model::ScrollLimits),
    Resize(u16, u16),
}

/// What the moderator's hands do: a key, a paste, the wheel, a tap. Nothing acts on what is
/// not drawn: below the smallest size only quit, redraw, suspend and undo do anything (a
/// key, paste, wheel or tap is shown it was ignored).
fn on_input(m: &mut Model, input: Input) -> Vec<Effect> {
    if !m.shows_queue() {
        return match input {
            Input::Key(k) => keypress::on_key_unseen(m, k),
            Input::Paste(_) | Input::Wheel { .. } | Input::Click { .. } => {
                keypress::ignore_unseen(m)
            }
        };
    }
    match input {
        Input::Key(k) => keypress::on_key(m, k),
        Input::Paste(text) => ids::on_paste(m, &text),
        Input::Wheel { down } => actions::run_action(
            m,
            if down {
                super::keymap::Action::Down
            } else {
                super::keymap::Action::Up
            },
        ),
        Input::Click { pane, row } => keypress::on_click(m, pane, row),
    }
}

/// What the screen says of itself: its size, the rows of the queue drawn, how far each part
/// can scroll.
fn on_screen(m: &mut Model, screen: Screen) -> Vec<Effect> {
    match screen {
        Screen::Layout { queue_rows } => m.page_rows = queue_rows.max(1),
        Screen::Scrolled(limits) => {
            m.scroll_limits = Some(limits);
            m.clamp_scrolls();
        }
        Screen::Resize(w, h) => {
            m.size = (w, h);
            keypress::resized(m);
            // A wider window shows the detail beside the queue: nothing stays opened over it.
            if !m.narrow() {
                m.detail_open = false;
            }
        }
    }
    Vec::new()
}

/// The automatic refresh's tick: a reload of the listing, quiet (it speaks only where
/// nothing more important stands on the status line, `Model::refresh_speaks`). Without a
/// token (a `serve-ssh` session not signed in yet) a refresh would only be refused: 200
/// such sessions on one refresh clock would ask 200 times a tick.
fn auto_refresh(m: &mut Model) -> Vec<Effect> {
    if m.listing.loading || m.session_expired || !m.has_token {
        Vec::new()
    } else {
        refresh::refresh_as(m, true)
    }
}

fn dispatch(m: &mut Model, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Layout { queue_rows } => on_screen(m, Screen::Layout { queue_rows }),
        Msg::Scrolled(limits) => on_screen(m, Screen::Scrolled(limits)),
        Msg::Resize(w, h) => on_screen(m, Screen::Resize(w, h)),
        Msg::Key(k) => on_input(m, Input::Key(k)),
        Msg::Paste(text) => on_input(m, Input::Paste(text)),
        Msg::Wheel { down } => on_input(m, Input::Wheel { down }),
        Msg::Click { pane, row } => on_input(m, Input::Click { pane, row }),
        Msg::Heard(t) => others::heard(m, t),
        Msg::Tick(now) => {
            m.now = now;
            signin::expire_at_token_exp(m);
            decisions::send_due(m)
        }
        Msg::Resumed(now) => held::on_resume(m, now),
        Msg::Flush(ending) => held::hang_up(m, ending),
        Msg::Stop => held::quit(m, true),
        Msg::AutoRefresh => auto_refresh(m),
        Msg::Pace {
            limit,
            slowed,
            in_flight,
        } => {
            m.window = Some(limit.max(1));
            m.server_slow = slowed;
            m.sent = Some(in_flight);
            Vec::new()
        }
        Msg::Budget(status) => errors::on_budget(m, status),
        Msg::Retry(now) => {
            let mut fx = link::retry(m, now);
            fx.extend(lost::reread_due(m, now));
            fx.extend(refresh::retry_first_load(m, now));
            fx
        }
        Msg::AddIds { text, origin } => ids::add_ids(m, &text, &origin),
        Msg::Restore(saved) => ids::restore(m, saved),
        Msg::Interrupted(entries) => lost::on_interrupted(m, entries),
        Msg::HistoryRead(result) => {
            let fx = history::on_read(m, result);
            term::follow_history(m);
            fx
        }
        Msg::TermRead {
            read,
            ask,
            offset_secs,
        } => term::on_read(m, read, ask, offset_secs),
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
    // Writes wait after a write found the link down (a read's failure alone, such as the
    // update-route probe's at start, holds nothing back); any answer that gets through lets
    // them go again.
    match answer.error() {
        None => m.link.writes_wait = false,
        Some(e) if call.is_mutation() && e.is_transient() => m.link.writes_wait = true,
        Some(_) => {}
    }
    let was_offline = matches!(m.connection, Connection::Offline(_));
    let lost = (down.is_some() && !call.is_mutation()).then_some(call);
    let mut fx = answers::route(answer, m);
    if m.activities.refreshing.is_some() {
        tell::end_refresh_when_read(m);
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
    signin::tell_expired(m);
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
    // An answer frees a place in the window of writes on their way: the next queued goes.
    fx.extend(decisions::pump(m));
    fx
}

/// The error in words (in `lang`, for the header) when it says the server could not be
/// reached (no connection, no answer in time), or that what answered is not the club
/// service (a wrong base URL: never shown online); `None` for an answer, even a refusal.
fn unreachable(lang: Lang, e: &ApiError) -> Option<String> {
    (e.class().offline() || e.class() == ErrorClass::NotTheService).then(|| e.describe(lang))
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
