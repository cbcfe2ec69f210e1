//! The status line, derived from the Model's state: the newest notice or activity, in the
//! reader's language.

use super::*;

impl Model {
    /// The status line, derived from state: the newest of the last notice and the
    /// activities under way (checking a token, refreshing, a bulk action's progress), in the
    /// reader's language (keys `status-*`).
    pub fn status_line(&self) -> Option<(Severity, String)> {
        self.status_line_labelled()
            .map(|(sev, text, _)| (sev, text))
    }

    /// [`Model::status_line`] with the request's label inside its text, where it names one
    /// ("Somchai → Robotics"): the view shortens that label first on a narrow screen, so
    /// what happened to it ("failed", "conflict", "z undo") stays in sight.
    pub fn status_line_labelled(&self) -> Option<(Severity, String, Option<String>)> {
        let mut best: Option<(u64, Severity, String, Option<String>)> = self
            .notice
            .as_ref()
            .filter(|n| n.shown_for().is_none_or(|d| self.now - n.at < d))
            .map(|n| (n.seq, n.severity, n.text.clone(), n.label.clone()));
        let mut offer_labelled = |seq: u64, text: String, label: Option<String>| {
            if best.as_ref().is_none_or(|b| seq >= b.0) {
                best = Some((seq, Severity::Info, text, label));
            }
        };
        let mut offer = |seq: u64, text: String| offer_labelled(seq, text, None);
        if let Some(s) = self.activities.signing_in {
            offer(s, crate::i18n::tr(self.lang, "status-checking-token"));
        }
        if let Some(s) = self.activities.refreshing
            && self.refresh_speaks()
        {
            offer(s, crate::i18n::tr(self.lang, "status-refreshing"));
        }
        if let Some(b) = self.bulk() {
            offer(b.seq, self.bulk_text(&b));
        }
        if let Some(task) = &self.activities.marking_all {
            let n = self.queue.stats().pending;
            let text = match self.listing.total {
                Some(t) => crate::tr!(self.lang, "status-mark-all-loading-of", n = n, total = t),
                None => crate::tr!(self.lang, "status-mark-all-loading", n = n),
            };
            offer(task.seq, text);
        }
        if let Some(task) = &self.activities.sorting_all {
            let n = self.queue.stats().pending;
            let order = self.queue.sort().label_in(self.lang);
            let text = match self.listing.total {
                Some(t) => crate::tr!(
                    self.lang,
                    "status-sort-all-loading-of",
                    order = order,
                    n = n,
                    total = t
                ),
                None => crate::tr!(self.lang, "status-sort-all-loading", order = order, n = n),
            };
            offer(task.seq, text);
        }
        if let Some(d) = self.held().latest() {
            let thai = self.lang == crate::i18n::Lang::Thai;
            let label = match d.ids.as_slice() {
                [id] => self.queue.get(*id).map(|i| i.label_for(thai)),
                _ => None,
            };
            offer_labelled(d.seq, self.held_text(d), label);
        }
        best.map(|(_, sev, text, label)| (sev, text, label))
    }

    /// When the notice on the status line gives way ([`Notice::shown_for`]), while it is
    /// still shown by the model's clock: the event loop wakes then (a `Msg::Tick`), so the
    /// line clears on a dashboard left alone.
    pub fn notice_ends_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        let n = self.notice.as_ref()?;
        let end = n.at + n.shown_for()?;
        (end > self.now).then_some(end)
    }

    /// True when a refresh may say how it goes ("refreshing…", "refreshed", "N loaded"): a
    /// lower message never replaces a higher one. Never over a decision's undo countdown;
    /// the automatic refresh never at all (it runs every 30 s by default: it says only what
    /// it found, new requests or requests decided elsewhere, so a refusal, a bulk action's
    /// progress or the moderator's own message stays readable).
    pub(crate) fn refresh_speaks(&self) -> bool {
        self.decisions.held().is_empty() && !self.activities.refresh_auto
    }

    /// "approving… 16/99 (3 failed, 1 unknown, re-reading)".
    fn bulk_text(&self, b: &BulkProgress) -> String {
        let mut tail = Vec::new();
        if b.failed > 0 {
            tail.push(crate::tr!(self.lang, "status-bulk-failed", n = b.failed));
        }
        if b.unknown > 0 {
            tail.push(crate::tr!(self.lang, "status-bulk-unknown", n = b.unknown));
        }
        let secs = (self.now - b.started).num_milliseconds() as f64 / 1000.0;
        if self.link.writes_wait && b.waiting > 0 {
            tail.push(crate::tr!(self.lang, "status-bulk-paused", n = b.waiting));
        } else if b.done >= 5 && secs >= 0.5 {
            let rate = (b.done as f64 / secs).round() as u64;
            tail.push(crate::tr!(self.lang, "status-bulk-rate", n = rate));
        }
        if self.server_slow {
            tail.push(crate::i18n::tr(self.lang, "status-bulk-server-slow"));
        }
        if self.budget.busy {
            tail.push(crate::i18n::tr(self.lang, "status-bulk-budget-busy"));
        }
        let tail = if tail.is_empty() {
            String::new()
        } else {
            format!(" ({})", tail.join(", "))
        };
        let progress = words::progress(self.lang, b.action);
        format!("{progress} {}/{}{tail}", b.done, b.total)
    }

    /// "approving Somchai → Robotics in 4 s · z undo" (or "approving 51 requests …"), the
    /// names in the reader's language.
    fn held_text(&self, d: &HeldDecision) -> String {
        let thai = self.lang == crate::i18n::Lang::Thai;
        let what = match d.ids.as_slice() {
            [id] => self
                .queue
                .get(*id)
                .map(|i| i.label_for(thai))
                .unwrap_or_else(|| short_id(*id)),
            ids => words::requests(self.lang, ids.len()),
        };
        if !self.has_token || self.session_expired {
            // Held until the sign-in: no countdown, the key that signs in.
            let key = self
                .keymap
                .key_for(Scope::Queue, crate::app::keymap::Action::SignIn)
                .map(|k| k.to_string())
                .unwrap_or_default();
            return crate::tr!(
                self.lang,
                "status-held-sign-in",
                action = d.action.verb(),
                what = what,
                n = self.decisions.held().len(),
                key = key
            );
        }
        // While a pop-up asks what happens to the held decisions, no countdown: nothing is
        // sent until the moderator answers it.
        let asking = matches!(self.popup, Some(Popup::QuitHeld | Popup::ResumeHeld));
        // "approving …, waiting for your answer" while asked.
        let seconds = if asking { 0 } else { d.seconds_left(self.now) };
        let mut text = crate::tr!(
            self.lang,
            "status-held",
            action = d.action.verb(),
            what = what,
            seconds = seconds
        );
        if let Some(k) = self
            .keymap
            .key_for(Scope::Queue, crate::app::keymap::Action::Undo)
            .filter(|_| !asking)
        {
            let undo = crate::tr!(self.lang, "status-held-undo", key = k.to_string());
            text.push_str(&format!(" · {undo}"));
        }
        if let n @ 2.. = self.held().len() {
            let more = crate::tr!(self.lang, "status-held-more", n = n);
            text.push_str(&format!(" {more}"));
        }
        text
    }

    /// The status line's text (see [`Model::status_line`]).
    pub fn status_text(&self) -> Option<String> {
        self.status_line().map(|(_, t)| t)
    }
}
