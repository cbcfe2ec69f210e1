//! What other sessions of the same server did ([`Told`], `serve-ssh`): a decision applied
//! there shows here at once (the row's status, its count, who and when), a decision held in
//! another session's grace period is shown on its row (and `a`/`x` on it asks first), and a
//! mark on a request decided elsewhere is dropped with a message, also where this
//! dashboard's own decision on it is still held or on its way (a bulk); a decision there
//! opposite to one of this dashboard's that was applied overwrote it.

use crate::app::model::words::status_word;
use crate::app::model::{Model, RowAction, RowState, Severity};
use crate::app::msg::Effect;
use crate::app::msg::{Heard, Told};

/// Applies what another session reported.
pub(super) fn heard(m: &mut Model, t: Told) -> Vec<Effect> {
    let Some(item) = m.queue.get_mut(t.id) else {
        return Vec::new();
    };
    match t.heard {
        Heard::Held(action) => item.held_elsewhere = Some((t.by, action)),
        Heard::Released => item.held_elsewhere = None,
        Heard::Decided(action) => {
            item.held_elsewhere = None;
            // This dashboard's own decision on it, held or on its way, goes on: the server
            // answers it (`already` or a conflict), as it would without this word; who
            // decided first is kept, so a lost answer re-read as decided is not claimed.
            // Its mark goes all the same: the request is decided, nothing is left to
            // choose it for (a bulk under way counts it by its decision, not by its mark).
            if m.decisions.alive(t.id).is_some() {
                let had_mark = item.marked;
                item.marked = false;
                item.decided_by = Some((t.by.clone(), t.at));
                if had_mark {
                    let (text, _) = heard_text(m, &t, action, true);
                    super::tell::log_notice(m, &text, Severity::Info);
                }
                return Vec::new();
            }
            // The other status, where this dashboard's approval or decline was applied: the
            // overwrite a later read would show, said and audited once, as a read's is.
            let status = action.status();
            if let Some(s) = m
                .decisions
                .get(t.id)
                .and_then(|d| d.overwritten_by(status.as_ref()))
            {
                m.overwritten_due.push((t.id, s));
            }
            decided(m, t, action);
        }
    }
    Vec::new()
}

/// A decision another session's write applied: the row takes its status (its mark goes),
/// the server's pending count shrinks, and the status line says by whom when it is the
/// moderator's row ([`super::say_unless_busy`]).
fn decided(m: &mut Model, t: Told, action: RowAction) {
    super::count::count_decided(m, t.id, super::count::Applied::Seen { recount: false });
    super::rows::note_written(m, t.id);
    let Some(item) = m.queue.get_mut(t.id) else {
        return;
    };
    let had_mark = item.marked;
    item.marked = false;
    super::new_requests::clear(item);
    item.decided_by = Some((t.by.clone(), t.at));
    match action.status() {
        Some(status) => {
            if let Some(r) = item.request.as_mut() {
                r.membership_status = Some(status.clone());
            }
            item.decided_elsewhere = Some(status);
        }
        None => item.state = RowState::Deleted,
    }
    item.reindex();
    let (text, label) = heard_text(m, &t, action, had_mark);
    let selected = m.queue.selected().is_some_and(|i| i.id == t.id);
    if had_mark || selected {
        super::tell::say_unless_busy(m, Severity::Info, &text);
        super::tell::name_in_notice(m, &text, &label);
    } else {
        // Not the row the moderator is on: the log has it.
        super::tell::log_notice(m, &text, Severity::Info);
    }
}

/// "Somchai → Robotics: approved by ton@school (another session)", and "; no longer
/// marked" when `unmarked`; with the request's label.
fn heard_text(m: &Model, t: &Told, action: RowAction, unmarked: bool) -> (String, String) {
    let label = super::tell::label_of(m, t.id);
    let lang = m.lang;
    let done = match action.status() {
        Some(s) => status_word(lang, &s),
        None => crate::app::model::words::past(lang, RowAction::Delete),
    };
    let by =
        t.by.clone()
            .unwrap_or_else(|| crate::i18n::tr(lang, "others-someone"));
    let key = if unmarked {
        "status-heard-decided-unmarked"
    } else {
        "status-heard-decided"
    };
    let text = crate::tr!(lang, key, label = label.as_str(), status = done, by = by);
    (text, label)
}
