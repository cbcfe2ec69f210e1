//! The team's history in the dashboard: `H` opens it and reads the audit file
//! again (off the event loop: [`Effect::ReadHistory`]); the rows of this server, newest
//! first, are kept for the pop-up and for the detail's lines about its own request. The
//! reading, folding and filtering are `ops::history`'s ([`crate::ops::history`], as
//! `club-admin history`'s); this file keeps what was read.

use std::sync::Arc;

use tui_input::Input;

use super::tell::{log_notice, say, sign_in_key};
use crate::app::model::{Loadable, Model, Popup, Severity};
use crate::app::msg::Effect;
use crate::ops::history::Row;

/// How much of the audit file's end the history pop-up reads (8 MiB: some 30,000 lines, a
/// busy term's decisions); older lines are `club-admin history`'s.
pub const SHOWN_BYTES: u64 = 8 * 1024 * 1024;

/// How much of it a dashboard reads at its start, for the detail's lines about a request
/// (1 MiB: the last days of a busy school), so that many sessions starting at once read
/// little.
pub const START_BYTES: u64 = 1024 * 1024;

/// The rows kept, newest first.
const KEPT: usize = 20_000;

/// True when the team's history may be shown: the service knows who is signed in (the
/// user read with the session's token). Before that (a dashboard of `serve-ssh` opened by
/// any authorized key, a token refused) no row is read or kept: the audit names moderators
/// and requests, which only a signed-in account may read (api-notes.md, "Who may do what":
/// every signed-in account reads every request; nobody reads without a token).
fn may_read(m: &Model) -> bool {
    matches!(m.user, Loadable::Loaded(_))
}

/// Once signed in (and at start, when the user is already known): the audit file's last
/// [`START_BYTES`] for the detail's lines. Nothing before a sign-in.
pub(super) fn start(m: &mut Model) -> Vec<Effect> {
    if !may_read(m) {
        return Vec::new();
    }
    m.history = Loadable::Loading;
    read(m)
}

/// The user just became known: the history is read if it was not yet.
pub(super) fn signed_in(m: &mut Model) -> Vec<Effect> {
    match m.history {
        Loadable::NotAsked | Loadable::Failed(_) => start(m),
        Loadable::Loading | Loadable::Loaded(_) => Vec::new(),
    }
}

/// `H`: the history pop-up opens, and the audit file is read again (the rows read before
/// stay shown until the new ones come). Before a sign-in it does not open: the status line
/// says to sign in first.
pub(super) fn open(m: &mut Model) -> Vec<Effect> {
    if !may_read(m) {
        let text = crate::tr!(m.lang, "history-sign-in-first", key = sign_in_key(m));
        say(m, Severity::Info, &text);
        return Vec::new();
    }
    m.popup = Some(Popup::History {
        query: Input::default(),
        scroll: 0,
    });
    if !matches!(m.history, Loadable::Loaded(_)) {
        m.history = Loadable::Loading;
    }
    read(m)
}

fn is_open(m: &Model) -> bool {
    matches!(m.popup, Some(Popup::History { .. }))
}

/// One read of the audit file at a time: a read asked while one is on its way is made once
/// that one is back ([`on_read`]), so a bulk of 60 decisions reads it a few times, not 60.
/// The pop-up open reads [`SHOWN_BYTES`], else [`START_BYTES`] (the detail's lines).
fn read(m: &mut Model) -> Vec<Effect> {
    if m.history_reading {
        m.history_again = true;
        return Vec::new();
    }
    m.history_reading = true;
    let max_bytes = if is_open(m) { SHOWN_BYTES } else { START_BYTES };
    vec![Effect::ReadHistory { max_bytes }]
}

/// After any message: the history follows what was written. Any audit line of this
/// dashboard's own (`sending`, then its outcome) reads the file again, after the writer has
/// it ([`Effect::ReadHistory`] waits for the writer), so the detail's History and the open
/// pop-up show it; what another session did (`heard`, `serve-ssh`) too: the sessions share
/// the last read of the host's audit (`ops::history::RecentRows`), so the file is read once
/// for all of them. Nothing before the history was first read, nor after a read failed (no
/// audit file here: `H` tries again).
pub(super) fn follow(m: &mut Model, heard: bool, fx: &[Effect]) -> Vec<Effect> {
    if !matches!(m.history, Loadable::Loaded(_) | Loadable::Loading) {
        return Vec::new();
    }
    let written = fx.iter().any(|e| matches!(e, Effect::Audit(_)));
    if written || heard {
        read(m)
    } else {
        Vec::new()
    }
}

/// The audit file's rows, read ([`crate::app::Msg::HistoryRead`]): this server's, newest
/// first. A file that could not be read is said in the pop-up and the activity log. A read
/// asked meanwhile is made now.
pub(super) fn on_read(m: &mut Model, result: Result<Arc<[Row]>, String>) -> Vec<Effect> {
    m.history_reading = false;
    take(m, result);
    if std::mem::take(&mut m.history_again) {
        read(m)
    } else {
        Vec::new()
    }
}

fn take(m: &mut Model, result: Result<Arc<[Row]>, String>) {
    if !may_read(m) {
        // Read before a sign-out or a refused token: kept by no one.
        m.history = Loadable::NotAsked;
        return;
    }
    match result {
        Ok(rows) => {
            let newest_first = rows.windows(2).all(|w| w[0].settled_at >= w[1].settled_at);
            let kept = if newest_first
                && rows.len() <= KEPT
                && rows.iter().all(|r| r.server == m.server_key)
            {
                // As read (`serve-ssh`'s shared read is sorted so): the rows are shared.
                rows
            } else {
                let mut own: Vec<Row> = rows
                    .iter()
                    .filter(|r| r.server == m.server_key)
                    .cloned()
                    .collect();
                own.sort_by_key(|r| std::cmp::Reverse(r.settled_at));
                own.truncate(KEPT);
                own.into()
            };
            m.history = Loadable::Loaded(kept);
        }
        Err(why) => {
            log_notice(m, &why, Severity::Error);
            if !matches!(m.history, Loadable::Loaded(_)) {
                m.history = Loadable::Failed(why);
            }
        }
    }
}
