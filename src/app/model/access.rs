//! The Model's read accessors: what the view, the runtime and tests read. Nothing here
//! writes; only `update` does (the fields are private to the crate).

use super::*;

impl Model {
    /// The queue: its rows, the view (filter, sort), the cursor, marks and counts. Read
    /// only: keys and answers change it through `update`.
    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    /// The pop-up open, if any (`None`: none is).
    pub fn popup(&self) -> Option<&Popup> {
        self.popup.as_ref()
    }

    /// The club pane: the search, its results and the club shown, as far as read.
    pub fn club(&self) -> &ClubPane {
        &self.club
    }

    /// Base URL of the service.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Key of this server in the saved queue and the audit file.
    pub fn server_key(&self) -> &str {
        &self.server_key
    }

    /// True while queued writes wait because a write found the link down (no connection, no
    /// answer in time, a gateway's 502-504), until an answer gets through.
    pub fn writes_paused(&self) -> bool {
        self.link.writes_wait
    }

    /// `--read-only`.
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// Token expiry from `exp`.
    pub fn token_expires(&self) -> Option<Timestamp> {
        self.token_expires
    }

    /// The wall clock as the last tick set it.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Terminal size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// Whether the terminal is large enough to show the queue ([`super::shows_queue`]); while
    /// it is not, no key acts but quit, redraw and suspend.
    pub fn shows_queue(&self) -> bool {
        super::shows_queue(self.size.0, self.size.1)
    }

    /// Mouse capture on.
    pub fn mouse(&self) -> bool {
        self.mouse
    }

    /// Save pasted tokens by default.
    pub fn save_token(&self) -> bool {
        self.save_token
    }

    /// A pasted token can be saved.
    pub fn can_save_token(&self) -> bool {
        self.can_save_token
    }

    /// The UI language.
    pub fn lang(&self) -> crate::i18n::Lang {
        self.lang
    }

    /// How years are written.
    pub fn year_style(&self) -> crate::i18n::dates::YearStyle {
        self.year_style
    }

    /// `api_version` of the last answer (sanitised).
    pub fn api_version(&self) -> Option<&str> {
        self.api_version.as_deref()
    }

    /// True when the terminal gets the narrow layout ([`super::is_narrow`]).
    pub fn narrow(&self) -> bool {
        super::is_narrow(self.size.0)
    }

    /// True while the narrow layout shows the selected request's detail over the queue.
    pub fn detail_open(&self) -> bool {
        self.detail_open && self.narrow()
    }

    /// The focused pane.
    pub fn focus(&self) -> Pane {
        self.focus
    }

    /// The user asked to quit (and nothing holds the quit back).
    pub fn quitting(&self) -> bool {
        self.quitting
    }

    /// The signed-in user, as far as read.
    pub fn user(&self) -> &Loadable<User> {
        &self.user
    }

    /// A token is set.
    pub fn has_token(&self) -> bool {
        self.has_token
    }

    /// A 401 said the session is over; cleared by signing in.
    pub fn session_expired(&self) -> bool {
        self.session_expired
    }

    /// What the last call said about the link (the header's online/offline).
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// Fetch levels for reading requests.
    pub fn levels(&self) -> Levels {
        self.levels
    }

    /// What the server lets this account do.
    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    /// The server's listing: support, scope, paging.
    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    /// The activity log.
    pub fn log(&self) -> &ActivityLog {
        &self.log
    }

    /// Grace period before an approve or decline is sent.
    pub fn decision_delay(&self) -> std::time::Duration {
        self.decision_delay
    }

    /// True when the queue is sorted (other than in the server's order) while the listing
    /// has pages not loaded, and no load of them is under way (past the sort's cap,
    /// `update::SORT_ALL_CAP`, or a page failed): the order covers the loaded rows only,
    /// and the queue's bottom line says so.
    pub fn sorts_loaded_only(&self) -> bool {
        self.queue.sort() != QueueSort::Server
            && self.listing.has_more
            && self.activities.sorting_all.is_none()
    }
}
