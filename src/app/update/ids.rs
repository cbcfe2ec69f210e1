//! Ids added by hand: arguments, `--queue-file`, standard input, `i`, a paste anywhere;
//! and the saved queue restored at start.

use tui_input::InputRequest;

use super::{fetch, log, say, scope};
use crate::app::effect::Effect;
use crate::app::filter::parse_ids;
use crate::app::model::{Model, Origin, Pane, Popup, QueueItem, SavedQueue, Severity};

/// Invalid tokens quoted in the status line (the rest are counted).
const BAD_IDS_SHOWN: usize = 3;

/// Bracketed paste: into the focused text field, or, with none, as ids for the queue.
pub(super) fn on_paste(m: &mut Model, text: &str) -> Vec<Effect> {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let field = match m.popup.as_mut() {
        Some(p) => p.input_mut(),
        None if m.focus == Pane::Club && m.club.editing => Some(&mut m.club.input),
        // Pasting ids anywhere adds them: the quickest way to build a queue.
        None => return add_ids(m, text, "a paste"),
    };
    if let Some(input) = field {
        for c in flat.chars() {
            input.handle(InputRequest::InsertChar(c));
        }
    }
    if let Some(Popup::Filter { input, .. }) = m.popup.as_ref() {
        let text = input.value().to_owned();
        m.queue.set_filter(&text);
    }
    Vec::new()
}

/// Adds the valid ids of `text` to the queue (a row already listed becomes one added by
/// hand) and reads them; the rest are reported, never sent.
pub(super) fn add_ids(m: &mut Model, text: &str, origin: &str) -> Vec<Effect> {
    let (ids, bad) = parse_ids(text);
    let mut added = Vec::new();
    for id in ids {
        if m.queue.push(QueueItem::new(id, Origin::Manual)) {
            added.push(id);
        } else if let Some(item) = m.queue.get_mut(id) {
            item.origin = Origin::Manual;
        }
    }
    m.queue.refresh_view();
    let mut msg = format!("added {} request id(s) from {origin}", added.len());
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(BAD_IDS_SHOWN).cloned().collect();
        msg.push_str(&format!(
            "; skipped {} that are not UUIDs ({})",
            bad.len(),
            shown.join(", ")
        ));
        // Kept in the activity log too: the status line moves on, the log does not.
        let detail = format!("not club request ids, never sent: {}", bad.join(", "));
        tracing::warn!("{origin}: {} invalid id(s) skipped", bad.len());
        log(m, "add ids", None, origin.to_owned(), Err(detail));
    }
    let severity = if bad.is_empty() {
        Severity::Info
    } else {
        Severity::Error
    };
    say(m, severity, &msg);
    fetch::fetch_rows(m, &added)
}

/// Restores the saved queue of this server: ids added by hand, the filter and the sort; and
/// lists the remembered scope at once ([`scope::list_remembered`]).
pub(super) fn restore(m: &mut Model, saved: SavedQueue) -> Vec<Effect> {
    if saved.server != m.server_key {
        return Vec::new();
    }
    m.queue.set_filter(&saved.filter);
    m.queue.set_sort(saved.sort);
    let mut added = Vec::new();
    for id in &saved.manual_ids {
        if m.queue.push(QueueItem::new(*id, Origin::Manual)) {
            added.push(*id);
        }
    }
    m.queue.refresh_view();
    let filter = saved.filter.clone();
    let mut fx = scope::list_remembered(m, saved.scope.as_ref());
    // What was just read need not be written back.
    m.last_saved = Some(saved);
    let mut restored = Vec::new();
    if !added.is_empty() {
        restored.push(format!("{} request id(s)", added.len()));
    }
    if !filter.trim().is_empty() {
        // A filter nobody remembers setting would hide most of the queue without a word.
        restored.push(format!(
            "the filter /{} (/ to change it)",
            crate::text::clean(&filter, 40)
        ));
    }
    if !restored.is_empty() {
        let text = format!("restored from the last session: {}", restored.join(" and "));
        say(m, Severity::Info, &text);
    }
    fx.extend(fetch::fetch_rows(m, &added));
    fx
}
