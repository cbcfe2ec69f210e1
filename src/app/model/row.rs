//! One row of the review queue: a club request, its state in this dashboard and where it
//! came from.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::{ClubRequest, MembershipStatus};

pub use crate::ops::RowAction;

/// The state of one row of the queue.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RowState {
    /// Known by id only; not read yet.
    #[default]
    Unloaded,
    /// Being read.
    Loading,
    /// Read.
    Ready,
    /// The last read failed (the row's `error` says why); `Enter` tries again.
    Failed,
    /// Deleted on the server (confirmed by the server's answer).
    Deleted,
    /// The server does not know this id (404): deleted elsewhere, or never existed.
    Gone,
}

/// Where a row came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// The server's listing.
    Listing,
    /// Ids given by the user (arguments, file, stdin, pasted).
    Manual,
}

/// One club request in the queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueItem {
    /// Request id.
    pub id: Uuid,
    /// What the server last said (merged across levels).
    pub request: Option<ClubRequest>,
    /// Row state.
    pub state: RowState,
    /// The last failed action on this row (the server's `detail`), shown until the next
    /// action; a later successful read does not clear it.
    pub error: Option<String>,
    /// The last failed read of this row, cleared by the next successful read.
    pub read_error: Option<String>,
    /// Marked for a bulk action.
    pub marked: bool,
    /// Where it came from.
    pub origin: Origin,
    /// Lower-case text the filter matches against (status, club, student, year, id).
    pub search: String,
    /// Lower-case club names, both languages, also with `_` for spaces (`club:` terms).
    pub club_search: String,
    /// A request that arrived since the queue was last loaded (a refresh found it, created
    /// after that load): shown as new until the cursor reaches it.
    pub is_new: bool,
    /// Pending here, then decided by someone else (a read showed it approved or declined,
    /// not by this dashboard's decision): the status that read showed.
    pub decided_elsewhere: Option<crate::api::MembershipStatus>,
    /// Who decided it elsewhere and when, as another session reported ([`crate::app::Told`]).
    pub decided_by: Option<(Option<String>, crate::api::Timestamp)>,
    /// A decision on it held in another session's grace period: who and which; `a`/`x`
    /// here asks first.
    pub held_elsewhere: Option<(Option<String>, RowAction)>,
    /// The request id the next call got when a write's outcome last reached this row (this
    /// dashboard's answer, its settling re-read, another session's report); 0 before any. A
    /// read sent before it (a smaller request id) may predate that write: its answer does
    /// not take the row back ([`crate::app::Model`]'s request ids only grow).
    pub written_from: u64,
}

impl QueueItem {
    /// True when this row satisfies every filter term ([`crate::app::filter::matches`]).
    pub fn matches(&self, terms: &[crate::app::filter::Term]) -> bool {
        crate::app::filter::matches(
            terms,
            crate::app::filter::Haystack {
                all: &self.search,
                club: &self.club_search,
                year: self.request.as_ref().and_then(|r| r.year),
            },
        )
    }

    /// A row known by id only.
    pub fn new(id: Uuid, origin: Origin) -> Self {
        let mut item = QueueItem {
            id,
            request: None,
            state: RowState::Unloaded,
            error: None,
            read_error: None,
            marked: false,
            origin,
            search: String::new(),
            club_search: String::new(),
            is_new: false,
            decided_elsewhere: None,
            decided_by: None,
            held_elsewhere: None,
            written_from: 0,
        };
        item.reindex();
        item
    }

    /// True when the call `request_id` (the answer being applied; 0 for none) was sent
    /// before a write's outcome last reached this row ([`QueueItem::written_from`]): what
    /// it read may predate that write.
    pub fn written_after(&self, request_id: u64) -> bool {
        request_id != 0 && request_id < self.written_from
    }

    /// The error to show: the failed action's, else the failed read's.
    pub fn shown_error(&self) -> Option<&str> {
        self.error.as_deref().or(self.read_error.as_deref())
    }

    /// The membership status, when known.
    pub fn status(&self) -> Option<&MembershipStatus> {
        self.request.as_ref().and_then(|r| r.membership())
    }

    /// True when an approve/decline can still apply by what the server said of the row
    /// (pending, or not yet known; not deleted or gone). A decision of this dashboard on its
    /// way is the other half of the rule: [`super::Model::actionable`].
    pub fn is_actionable(&self) -> bool {
        !matches!(self.state, RowState::Deleted | RowState::Gone)
            && self
                .status()
                .is_none_or(|s| *s == MembershipStatus::Pending)
    }

    /// Club name (English, else Thai), when known: the sort key.
    pub fn club_name(&self) -> Option<&str> {
        self.club_name_for(false)
    }

    /// Club name in the reader's language (`thai`), else the other, when known.
    pub fn club_name_for(&self, thai: bool) -> Option<&str> {
        let n = self
            .request
            .as_ref()
            .and_then(|r| r.club.as_ref())
            .and_then(|c| c.name.as_ref())?;
        if thai { n.thai_first() } else { n.best() }
    }

    /// Student name (English, else Thai), when the level carried it.
    pub fn student_name(&self) -> Option<String> {
        self.student_name_for(false)
    }

    /// Student name in the reader's language (`thai`), else the other.
    pub fn student_name_for(&self, thai: bool) -> Option<String> {
        self.request
            .as_ref()
            .and_then(|r| r.student.as_ref())
            .and_then(|s| s.person.as_ref())
            .and_then(|p| p.full_name(thai))
    }

    /// School number, when known.
    pub fn school_number(&self) -> Option<&str> {
        self.request
            .as_ref()
            .and_then(|r| r.student.as_ref())
            .and_then(|s| s.student_id.as_deref())
    }

    /// "student → club" for messages and the confirmation (sanitised, at most 60 columns):
    /// the student's name, else `#` and the school number, else the first 8 characters of
    /// the request id; the club's name, else `?`.
    pub fn label(&self) -> String {
        self.label_for(false)
    }

    /// [`QueueItem::label`] with the names in the reader's language (`thai`).
    pub fn label_for(&self, thai: bool) -> String {
        let who = self
            .student_name_for(thai)
            .or_else(|| self.school_number().map(|n| format!("#{n}")))
            .unwrap_or_else(|| short_id(self.id));
        let club = self.club_name_for(thai).unwrap_or("?");
        crate::text::clean(&format!("{who} → {club}"), 60)
    }

    /// Rebuilds the filter text after the request changed: the id, `status:` with the
    /// status in English and in Thai as the queue shows it (`status:pending
    /// status:รอพิจารณา`, `status:deleted status:ลบแล้ว`), `year:` with the academic year in
    /// CE and in BE (`year:2026 year:2569`, whatever the reader's year style), `club:` and
    /// the club's names in both languages, the school number (`#51001`, as the row prints
    /// it), the student's names, the
    /// errors. Everything [`crate::app::filter::fold`]ed.
    pub fn reindex(&mut self) {
        let mut s = format!("{} ", self.id);
        for word in self.status_words() {
            s.push_str(&format!("status:{word} "));
        }
        let mut club = String::new();
        if let Some(r) = &self.request {
            if let Some(y) = r.year {
                let be = crate::i18n::dates::year(crate::i18n::dates::YearStyle::Be, y);
                s.push_str(&format!("year:{y} year:{be} "));
            }
            if let Some(n) = r.club.as_ref().and_then(|c| c.name.as_ref()) {
                for t in [&n.en, &n.th].into_iter().flatten() {
                    club.push_str(&format!("{t}\n{}\n", t.replace(' ', "_")));
                    s.push_str(&format!("club:{} {t} ", t.replace(' ', "_")));
                }
            }
            if let Some(st) = &r.student {
                if let Some(n) = &st.student_id {
                    // As the row prints it (`#71001`): found with its `#` or without.
                    s.push('#');
                    s.push_str(n);
                    s.push(' ');
                }
                if let Some(p) = &st.person {
                    for part in [&p.first_name, &p.last_name, &p.nickname]
                        .into_iter()
                        .flatten()
                    {
                        for t in [&part.en, &part.th].into_iter().flatten() {
                            s.push_str(t);
                            s.push(' ');
                        }
                    }
                }
            }
        }
        for e in [&self.error, &self.read_error].into_iter().flatten() {
            s.push_str(" error ");
            s.push_str(e);
        }
        self.search = crate::app::filter::fold(&s);
        self.club_search = crate::app::filter::fold(&club);
    }

    /// The row's status for `status:` terms: the English code, then the Thai word the queue
    /// shows for it (status.ftl `status-state`, panes.ftl `row-deleted`, `row-gone`,
    /// `row-not-found`). A deleted row is no longer pending, whatever the server last said of
    /// it. Empty while the status is unknown.
    fn status_words(&self) -> Vec<String> {
        use crate::i18n::{Lang, tr};
        match (&self.state, self.status()) {
            (RowState::Deleted, _) => vec!["deleted".into(), tr(Lang::Thai, "row-deleted")],
            (RowState::Gone, _) => {
                let shown = if self.request.is_none() {
                    "row-not-found"
                } else {
                    "row-gone"
                };
                vec!["gone".into(), tr(Lang::Thai, shown)]
            }
            (_, Some(MembershipStatus::Other(st))) => vec![st.clone()],
            (_, Some(st)) => vec![st.to_string(), super::words::status_word(Lang::Thai, st)],
            (_, None) => Vec::new(),
        }
    }
}

pub use crate::text::short_id;
