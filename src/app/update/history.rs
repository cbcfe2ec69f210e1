//! The team's history in the dashboard (issue 33): `H` opens it and reads the audit file
//! again (off the event loop: [`Effect::ReadHistory`]); the rows of this server, newest
//! first, are kept for the pop-up and for the detail's lines about its own request. The
//! reading, folding and filtering are the core's ([`crate::ops::history`], as
//! `club-admin history`'s); this room keeps what was read.

use tui_input::Input;

use super::tell::log_notice;
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

/// `H`: the history pop-up opens, and the audit file is read again (the rows read before
/// stay shown until the new ones come).
pub(super) fn open(m: &mut Model) -> Vec<Effect> {
    m.popup = Some(Popup::History {
        query: Input::default(),
        scroll: 0,
    });
    if !matches!(m.history, Loadable::Loaded(_)) {
        m.history = Loadable::Loading;
    }
    vec![Effect::ReadHistory {
        max_bytes: SHOWN_BYTES,
    }]
}

/// The audit file's rows, read ([`crate::app::Msg::HistoryRead`]): this server's, newest
/// first. A file that could not be read is said in the pop-up and the activity log.
pub(super) fn on_read(m: &mut Model, result: Result<Vec<Row>, String>) {
    match result {
        Ok(rows) => {
            let mut rows: Vec<Row> = rows
                .into_iter()
                .filter(|r| r.server == m.server_key)
                .collect();
            rows.sort_by_key(|r| std::cmp::Reverse(r.settled_at));
            rows.truncate(KEPT);
            m.history = Loadable::Loaded(rows);
        }
        Err(why) => {
            log_notice(m, &why, Severity::Error);
            if !matches!(m.history, Loadable::Loaded(_)) {
                m.history = Loadable::Failed(why);
            }
        }
    }
}
