//! The club lookup pane, and [`Loadable`], the state of anything fetched for it.

use tui_input::Input;
use uuid::Uuid;

use crate::api::{Club, FetchLevel, Levels};

/// Something fetched from the server.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Loadable<T> {
    /// Not asked for.
    #[default]
    NotAsked,
    /// In flight.
    Loading,
    /// Arrived.
    Loaded(T),
    /// Failed, with the error message.
    Failed(String),
}

impl<T> Loadable<T> {
    /// The value, when loaded.
    pub fn get(&self) -> Option<&T> {
        match self {
            Loadable::Loaded(v) => Some(v),
            Loadable::NotAsked | Loadable::Loading | Loadable::Failed(_) => None,
        }
    }
}

/// The club lookup pane.
#[derive(Debug, Clone, Default)]
pub struct ClubPane {
    /// The id or name field.
    pub input: Input,
    /// The field has focus (printable keys go to it).
    pub editing: bool,
    /// Level of the club.
    pub level: Option<FetchLevel>,
    /// The club shown.
    pub club: Loadable<Club>,
    /// Search results (when a name was looked up).
    pub results: Loadable<Vec<Club>>,
    /// Selected search result.
    pub result_cursor: usize,
    /// Scroll of the club details.
    pub scroll: u16,
    /// Id of the club shown or being loaded.
    pub club_id: Option<Uuid>,
    /// The new contacts sent from this pane, one decision per club in the one machine
    /// ([`crate::ops::decision`]: sending, then answered, or lost and the club re-read until
    /// it shows whether the contact is there).
    pub writes: crate::ops::book::Book,
    /// What each club's new contact is (type and value), while its decision lives.
    pub new_contacts: std::collections::HashMap<Uuid, crate::api::NewContact>,
}

impl ClubPane {
    /// The level in use (`default` unless changed).
    pub fn level(&self) -> FetchLevel {
        self.level.unwrap_or(FetchLevel::Default)
    }

    /// Levels for reading the club, by the shared rule ([`crate::ops::club_read::club_levels`]):
    /// contacts whole (descendants at `default`) at `default`; students kept at `compact` at
    /// `detailed`, where the contacts are read again ([`crate::ops::club_read::read_club`]).
    pub fn levels(&self) -> Levels {
        crate::ops::club_read::club_levels(self.level())
    }
}
