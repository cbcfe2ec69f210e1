//! What the account may do, for the hint bar, the help and the keys: the shared rules
//! ([`crate::ops::permit`], api-notes.md "Who may do what") asked with what the Model knows
//! (the signed-in account, the clubs it staffs, the selected request, the club shown).

use super::*;
use crate::ops::permit::{self, Refusal, Target, Write};

impl Model {
    /// What the hint bar and the help offer: changes only where allowed (not in
    /// `--read-only`), each write only where the server and the account allow it
    /// ([`Model::permit`]).
    pub fn offered(&self) -> Offered {
        // Signed out (no token, or the session is over), nothing can be decided until the
        // sign-in: `S` is offered instead.
        let session = self.has_session();
        let selected = self.queue.selected();
        // Until the server said who is signed in, no write is offered: the keys would
        // offer what the account may not make (a key pressed then is still answered).
        let known = self.user.get().is_some();
        Offered {
            read_only: self.read_only,
            decisions: session
                && known
                && self.capabilities.decisions_allowed()
                && self.permit(Write::Decide, selected).is_ok(),
            club_shown: matches!(self.club.club, Loadable::Loaded(_)),
            contact: known && self.permit_contact(self.shown_club()).is_ok(),
            delete: session
                && known
                && selected.is_some()
                && self.permit(Write::Delete, selected).is_ok(),
            signed_out: !session,
            suspend: self.can_suspend,
        }
    }

    /// True while a session can send a write: a token is set, the server has not said the
    /// session is over, and the token's `exp` (when it carries one) is not past: after it,
    /// every write would be refused 401 (api-notes.md, "Authentication": no refresh).
    pub fn has_session(&self) -> bool {
        self.has_token
            && !self.session_expired
            && self.token_expires.is_none_or(|exp| exp > self.now)
    }

    /// The clubs the signed-in account staffs, as the server's staffed-clubs lookup
    /// answered (empty: none); `None` until it answered, and for accounts that are not
    /// students (they staff none that the rules count).
    pub fn staffed(&self) -> Option<&[Uuid]> {
        self.listing.staffed.as_deref()
    }

    /// Whether the service lets the signed-in account make `write` (approve and decline:
    /// [`Write::Decide`]; [`Write::Delete`]) on `item`, by the shared rule
    /// ([`permit::check`]): `Err` with the reason where it never does. With no row, whether
    /// it may on some row of the queue. While the account is not known: allowed (the
    /// server's answer tells).
    pub fn permit(&self, write: Write, item: Option<&QueueItem>) -> Result<(), Refusal> {
        let Some(user) = self.user.get() else {
            return Ok(());
        };
        let staffed = self.staffed();
        match item {
            Some(i) => permit::check(user, write, Target::request(i.request.as_ref(), staffed)),
            None if write == Write::Delete => permit::check(user, write, Target::default()),
            None => permit::check(
                user,
                write,
                Target {
                    staffed,
                    ..Target::default()
                },
            ),
        }
    }

    /// Whether the service lets the signed-in account add a contact to `club` (the club
    /// pane's), by [`permit::check`]; allowed while the account is not known.
    pub fn permit_contact(&self, club: Option<Uuid>) -> Result<(), Refusal> {
        let Some(user) = self.user.get() else {
            return Ok(());
        };
        let target = Target {
            club,
            owner: None,
            staffed: self.staffed(),
        };
        permit::check(user, Write::AddContact, target)
    }

    /// The id of the club the club pane shows, if one is loaded.
    pub fn shown_club(&self) -> Option<Uuid> {
        match &self.club.club {
            Loadable::Loaded(c) => Some(c.id),
            Loadable::NotAsked | Loadable::Loading | Loadable::Failed(_) => None,
        }
    }

    /// True when the server may let the signed-in account delete `item`
    /// ([`Model::permit`] with [`Write::Delete`]).
    pub fn may_delete(&self, item: Option<&QueueItem>) -> bool {
        self.permit(Write::Delete, item).is_ok()
    }
}
