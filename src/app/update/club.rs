//! The club lookup pane: the id-or-name field, search results, the club at a chosen fetch
//! level, and new contacts.

use tui_input::Input;
use uuid::Uuid;

use super::{audit, call, error_text, keys, log, note_error, note_ok, say};
use crate::api::{ApiError, Club, ClubQuery, Contact, FetchLevel, Levels, NewContact, Page, Reply};
use crate::app::call::{ApiCall, SearchPurpose};
use crate::app::key::{Key, KeyCode, edit};
use crate::app::keymap::Action;
use crate::app::model::{ListingSupport, Loadable, Model, Popup, Severity};
use crate::app::msg::{Effect, Outcome};
use crate::i18n::tr;

/// Club search results asked for at once (`GET /v1/clubs?filter[q]=...`): a school has
/// a few dozen clubs; a query matching more is refined by typing more.
const SEARCH_PAGE: u32 = 50;

/// A key while the club field has focus.
pub(super) fn on_club_input_key(m: &mut Model, k: Key) -> Vec<Effect> {
    match k.code {
        KeyCode::Esc => {
            // Esc cancels the lookup being typed: the text goes with it.
            m.club.editing = false;
            m.club.input = tui_input::Input::default();
            Vec::new()
        }
        KeyCode::Tab | KeyCode::BackTab => {
            m.club.editing = false;
            let a = if k.code == KeyCode::Tab {
                Action::NextPane
            } else {
                Action::PrevPane
            };
            keys::run_action(m, a)
        }
        KeyCode::Enter => {
            m.club.editing = false;
            let text = m.club.input.value().trim().to_owned();
            lookup_club(m, &text)
        }
        _ => {
            edit(&mut m.club.input, &k);
            Vec::new()
        }
    }
}

/// Looks up a club by id, or searches by name where the server lists clubs. A malformed
/// id is refused before any request.
pub(super) fn lookup_club(m: &mut Model, text: &str) -> Vec<Effect> {
    if text.is_empty() {
        let text = tr(m.lang, "status-club-type-something");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    if let Ok(id) = Uuid::parse_str(text) {
        m.club.results = Loadable::NotAsked;
        return load_club(m, id);
    }
    if looks_like_uuid_attempt(text) {
        let text = crate::tr!(
            m.lang,
            "status-bad-club-id",
            text = format!("\"{}\"", crate::text::clean(text, 40))
        );
        // The pane no longer shows the club of the last query under this one.
        m.club.club_id = None;
        m.club.results = Loadable::NotAsked;
        m.club.club = Loadable::Failed(text.clone());
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    if m.listing.support == ListingSupport::Unavailable {
        let text = tr(m.lang, "status-no-club-search");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    m.club.results = Loadable::Loading;
    m.club.club_id = None;
    m.club.club = Loadable::NotAsked;
    m.club.result_cursor = 0;
    let c = ApiCall::SearchClubs {
        query: ClubQuery::Text(text.to_owned()),
        page: Page::new(1, SEARCH_PAGE),
        levels: Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
        purpose: SearchPurpose::Lookup,
    };
    vec![call(m, c)]
}

/// Hex and dashes only, long enough to be meant as an id: refused before any request.
fn looks_like_uuid_attempt(text: &str) -> bool {
    text.len() >= 8 && text.contains('-') && text.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// Reads the club at the pane's fetch level.
pub(super) fn load_club(m: &mut Model, id: Uuid) -> Vec<Effect> {
    m.club.club_id = Some(id);
    m.club.club = Loadable::Loading;
    m.club.scroll = 0;
    let levels = m.club.levels();
    vec![call(m, ApiCall::GetClub { id, levels })]
}

/// `Enter` in the club pane: open the selected result, reload the club, or edit the field.
pub(super) fn club_open(m: &mut Model) -> Vec<Effect> {
    if m.club.club_id.is_none()
        && let Loadable::Loaded(results) = &m.club.results
        && let Some(c) = results.get(m.club.result_cursor)
    {
        let id = c.id;
        return load_club(m, id);
    }
    match m.club.club_id {
        Some(id) => load_club(m, id),
        None => {
            m.club.editing = true;
            Vec::new()
        }
    }
}

/// Moves among search results, or scrolls the club's details.
pub(super) fn navigate(m: &mut Model, a: Action) {
    if let (Loadable::Loaded(results), true) = (&m.club.results, m.club.club_id.is_none()) {
        let n = results.len();
        if n > 0 {
            let c = m.club.result_cursor;
            m.club.result_cursor = match a {
                Action::Down => (c + 1).min(n - 1),
                Action::Up => c.saturating_sub(1),
                Action::Top => 0,
                Action::Bottom => n - 1,
                _ => c,
            };
        }
        return;
    }
    m.club.scroll = match a {
        Action::Down => m.club.scroll.saturating_add(1),
        Action::Up => m.club.scroll.saturating_sub(1),
        Action::PageDown => m.club.scroll.saturating_add(10),
        Action::PageUp => m.club.scroll.saturating_sub(10),
        Action::Top => 0,
        Action::Bottom => u16::MAX,
        _ => m.club.scroll,
    };
}

/// `n`: opens the new-contact form for the club shown.
pub(super) fn new_contact(m: &mut Model) -> Vec<Effect> {
    match m.club.club.get().map(|c| c.id) {
        Some(club_id) => {
            m.popup = Some(Popup::AddContact {
                club_id,
                kind: 0,
                value: Input::default(),
                on_value: false,
                error: None,
            });
        }
        None => {
            let key = m
                .keymap
                .key_for(crate::app::keymap::Scope::Queue, Action::ClubLookup)
                .map(|k| k.to_string())
                .unwrap_or_else(|| ":club".to_owned());
            let text = crate::tr!(m.lang, "status-club-first", key = key);
            say(m, Severity::Error, &text);
        }
    }
    Vec::new()
}

/// Sends the new contact of the form (the form stays open until the server answers).
pub(super) fn submit_contact(m: &mut Model) -> Vec<Effect> {
    let Some(Popup::AddContact {
        club_id,
        kind,
        value,
        error,
        ..
    }) = m.popup.as_mut()
    else {
        return Vec::new();
    };
    let contact = NewContact {
        kind: Popup::contact_types()[*kind].clone(),
        value: value.value().trim().to_owned(),
    };
    if let Some(why) = crate::app::model::popup::contact_refusal(m.lang, &contact) {
        // Refused here, before any request: the form keeps the value for correcting.
        *error = Some(why);
        return Vec::new();
    }
    *error = None;
    let club_id = *club_id;
    let text = tr(m.lang, "status-adding-contact");
    say(m, Severity::Info, &text);
    // The write-ahead line: in the audit file before the contact leaves (the runner holds
    // the call until it is written).
    let value = crate::ops::audit::contact_value(contact.kind.as_str(), &contact.value);
    let ahead = with_value(
        super::audit_entry(m, "add-contact", club_id, Outcome::Sending, None),
        value,
    );
    let c = ApiCall::CreateContact {
        club_id,
        contact,
        levels: Levels::new(FetchLevel::Default, FetchLevel::IdOnly),
    };
    vec![ahead, call(m, c)]
}

/// The club arrived (answers for a club no longer shown are dropped).
pub(in crate::app) fn on_club(
    m: &mut Model,
    id: Uuid,
    res: Result<Reply<Club>, ApiError>,
) -> Vec<Effect> {
    if m.club.club_id != Some(id) {
        return Vec::new();
    }
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let thai = m.lang == crate::i18n::Lang::Thai;
            let name = reply
                .data
                .name
                .as_ref()
                .and_then(|n| if thai { n.thai_first() } else { n.best() })
                .map(|n| crate::text::clean(n, 50))
                .unwrap_or_else(|| id.to_string());
            m.club.club = Loadable::Loaded(reply.data);
            let text = crate::tr!(m.lang, "status-club-shown", name = name);
            say(m, Severity::Info, &text);
        }
        Err(e) => {
            note_error(m, &e);
            let text = match &e {
                ApiError::NotFound(_) => crate::tr!(m.lang, "status-no-club", id = id.to_string()),
                _ => error_text(m.lang, &e),
            };
            m.club.club = Loadable::Failed(text);
        }
    }
    Vec::new()
}

/// Search results arrived; a single match opens at once.
pub(in crate::app) fn on_club_search(
    m: &mut Model,
    res: Result<Reply<Vec<Club>>, ApiError>,
) -> Vec<Effect> {
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let one = (reply.data.len() == 1).then(|| reply.data[0].id);
            let n = reply.data.len();
            m.club.results = Loadable::Loaded(reply.data);
            match one {
                Some(id) => return load_club(m, id),
                None => {
                    let text = crate::tr!(m.lang, "status-clubs-found", n = n);
                    say(m, Severity::Info, &text);
                }
            }
        }
        Err(e) => {
            note_error(m, &e);
            m.club.results = Loadable::Failed(
                if matches!(e, ApiError::OperationUnavailable(_) | ApiError::NotFound(_)) {
                    tr(m.lang, "status-no-club-search")
                } else {
                    error_text(m.lang, &e)
                },
            );
        }
    }
    Vec::new()
}

/// The new contact's answer: shown in the club, logged and audited.
pub(in crate::app) fn on_contact_created(
    m: &mut Model,
    club_id: Uuid,
    res: Result<Reply<Contact>, ApiError>,
) -> Vec<Effect> {
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let c = reply.data;
            // The audit file's value keeps the server's type name; the screen the reader's.
            let value = c.value.as_deref().unwrap_or("");
            let audited = crate::ops::audit::contact_value(
                c.kind.as_ref().map(|k| k.as_str()).unwrap_or(""),
                value,
            );
            let label = match c.kind.as_ref() {
                Some(k) => format!(
                    "{} {value}",
                    crate::app::model::popup::contact_type_name(m.lang, k)
                ),
                None => format!(" {value}"),
            };
            let label = crate::text::clean(&label, 60);
            if let Loadable::Loaded(club) = &mut m.club.club
                && club.id == club_id
            {
                club.contacts.get_or_insert_with(Vec::new).push(c);
            }
            if matches!(m.popup, Some(Popup::AddContact { .. })) {
                m.popup = None;
            }
            log(m, "add-contact", Some(club_id), label.clone(), Ok(()));
            let text = crate::tr!(m.lang, "status-contact-added", contact = label.as_str());
            say(m, Severity::Success, &text);
            vec![with_value(
                audit(m, "add-contact", club_id, Ok(())),
                audited,
            )]
        }
        Err(e) => {
            note_error(m, &e);
            let text = error_text(m.lang, &e);
            let mut tried = String::new();
            if let Some(Popup::AddContact {
                error, kind, value, ..
            }) = m.popup.as_mut()
            {
                *error = Some(text.clone());
                let kind = &Popup::contact_types()[*kind];
                tried = crate::ops::audit::contact_value(kind.as_str(), value.value().trim());
            }
            let detail = super::log_text(m.lang, &e);
            log(m, "add-contact", Some(club_id), String::new(), Err(detail));
            let said = crate::tr!(m.lang, "status-contact-not-added", error = text);
            say(m, Severity::Error, &said);
            // The core's rule: a lost answer is `unknown` (the contact may have been added).
            let line = if crate::ops::decision::answer_lost(&e) {
                let detail = crate::ops::decision::lost_detail(&e);
                super::audit_entry(
                    m,
                    "add-contact",
                    club_id,
                    crate::ops::Outcome::Unknown,
                    Some(detail),
                )
            } else {
                audit(
                    m,
                    "add-contact",
                    club_id,
                    Err(crate::ops::decision::error_detail(&e)),
                )
            };
            vec![if tried.is_empty() {
                line
            } else {
                with_value(line, tried)
            }]
        }
    }
}

/// The audit line of a contact, with the contact's type and value.
fn with_value(mut fx: Effect, value: String) -> Effect {
    if let Effect::Audit(a) = &mut fx {
        a.value = Some(value);
    }
    fx
}
