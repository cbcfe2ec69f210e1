//! Reading a club so that its contacts arrive whole, for both front ends (the dashboard's club
//! pane and `clubs show`).
//!
//! The deployed service answers a Contact at `id_only` and at `compact` as a bare `{id}`
//! (api-notes.md, "Fetch levels"): a club read with `descendant_fetch_level=compact` has its
//! contacts without type or value. Contacts need the descendant level `default`. A club at
//! `detailed` also carries its staff and members (students at the descendant level), which a
//! student account may not read at `default` outside its classroom (403 for the whole
//! request), so there the contacts come from a second read.

use uuid::Uuid;

use crate::api::{ApiClient, ApiError, Club, FetchLevel, Levels, Reply};

/// Levels of a club read at `level`: `id_only` and `compact` have no contacts (descendants
/// `id_only`); `default` reads its contacts whole (descendants `default`); `detailed` keeps
/// students at `compact` (descendants `compact`), and [`read_club`] reads the contacts again
/// at `default`.
pub fn club_levels(level: FetchLevel) -> Levels {
    match level {
        FetchLevel::IdOnly | FetchLevel::Compact => Levels::new(level, FetchLevel::IdOnly),
        FetchLevel::Default => Levels::new(FetchLevel::Default, FetchLevel::Default),
        FetchLevel::Detailed => Levels::new(FetchLevel::Detailed, FetchLevel::Compact),
    }
}

/// The levels whose answer carries every contact whole: the club at `default`, descendants
/// at `default` (contacts only: a club at `default` nests no students).
pub const CONTACT_LEVELS: Levels = Levels::new(FetchLevel::Default, FetchLevel::Default);

/// True when the club carries contacts of which one lacks its type or value: read at a
/// descendant level below `default` (a bare `{id}`, deployed behaviour).
pub fn contacts_bare(club: &Club) -> bool {
    club.contacts
        .iter()
        .flatten()
        .any(|c| c.kind.is_none() || c.value.is_none())
}

/// Reads club `id` at `levels` (operation 4); when its contacts came as bare ids (the
/// descendant level was below `default`, as [`club_levels`] asks for `detailed`), reads the
/// club again at [`CONTACT_LEVELS`] and takes its contacts from that answer.
///
/// Errors: the first read's error; or the second read's, when the contacts could not be
/// read whole (the club is not shown with blank contacts).
pub async fn read_club(
    client: &ApiClient,
    id: Uuid,
    levels: Levels,
) -> Result<Reply<Club>, ApiError> {
    let mut reply = client.club(id, levels).await?;
    if contacts_bare(&reply.data) {
        let whole = client.club(id, CONTACT_LEVELS).await?;
        reply.data.contacts = whole.data.contacts;
    }
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_are_read_at_the_default_descendant_level_but_next_to_students() {
        assert_eq!(
            club_levels(FetchLevel::Default).descendant_fetch_level,
            FetchLevel::Default
        );
        assert_eq!(
            club_levels(FetchLevel::Detailed).descendant_fetch_level,
            FetchLevel::Compact
        );
        assert_eq!(
            club_levels(FetchLevel::Compact),
            Levels::new(FetchLevel::Compact, FetchLevel::IdOnly)
        );
    }
}
