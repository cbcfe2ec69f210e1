//! The club lookup pane: the id-or-name field, search results, the club at a chosen fetch
//! level, and new contacts.

use tui_input::Input;
use uuid::Uuid;

use super::connection::{call, note_error, note_ok};
use super::errors::error_text;
use super::tell::{log, say};
use crate::api::{ApiError, Club, ClubQuery, Contact, FetchLevel, Levels, NewContact, Page, Reply};
use crate::app::call::{ApiCall, SearchPurpose};
use crate::app::key::{Key, KeyCode, edit};
use crate::app::keymap::Action;
use crate::app::model::RowAction;
use crate::app::model::{ListingSupport, Loadable, Model, Popup, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;
use crate::ops::decision::{Answer, Ending, Event, Reread, Stage};

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
            super::focus::pane_action(m, a);
            Vec::new()
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
    if let Err(why) = m.permit_contact(m.shown_club()) {
        let what = tr(m.lang, "hint-new-contact");
        super::decisions::say_refused(m, &what, crate::ops::permit::Write::AddContact, why);
        return Vec::new();
    }
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
            let key = super::tell::queue_key(m, Action::ClubLookup, ":club");
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
    if m.club.writes.alive(club_id).is_some() {
        // One new contact per club at a time: the last one's answer was lost and is being
        // settled by re-reads of the club.
        let text = tr(m.lang, "status-contact-settling");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    let text = tr(m.lang, "status-adding-contact");
    say(m, Severity::Info, &text);
    // Born held and sent at once: the machine's Send writes the write-ahead line (the
    // runner holds the call until it is in the audit file).
    let batch = m.next_seq();
    let send_at = m.now;
    let stage = crate::ops::decision::Stage::Held { send_at };
    if let Err(e) = m
        .club
        .writes
        .start(club_id, RowAction::AddContact, batch, stage)
    {
        tracing::error!("{e}");
        return Vec::new();
    }
    m.club.new_contacts.insert(club_id, contact.clone());
    let mut fx: Vec<Effect> = contact_step(m, club_id, Event::Send).into_iter().collect();
    let c = ApiCall::CreateContact {
        club_id,
        contact,
        levels: Levels::new(FetchLevel::Default, FetchLevel::IdOnly),
    };
    fx.push(call(m, c));
    fx
}

/// Applies `event` to the new contact's decision on `club_id` (the pane's book) and gives
/// the audit line the transition writes, with the contact's type and value.
pub(super) fn contact_step(m: &mut Model, club_id: Uuid, event: Event) -> Option<Effect> {
    match m.club.writes.apply(club_id, event) {
        Ok(line) => {
            let line = line?;
            let value = m
                .club
                .new_contacts
                .get(&club_id)
                .map(|c| crate::ops::audit::contact_value(c.kind.as_str(), &c.value))
                .unwrap_or_default();
            let entry =
                super::tell::audit_entry(m, "add-contact", club_id, line.outcome, line.detail);
            Some(with_value(entry, value))
        }
        Err(e) => {
            tracing::error!("{e}");
            debug_assert!(false, "{e}");
            None
        }
    }
}

/// The new contact on `club_id` whose answer was lost: the club is read again (its
/// contacts whole), and the read settles it ([`settle_contact`]).
pub(super) fn reread_contact(m: &mut Model, club_id: Uuid) -> Effect {
    let levels = crate::ops::club_read::CONTACT_LEVELS;
    call(
        m,
        ApiCall::GetClub {
            id: club_id,
            levels,
        },
    )
}

/// Re-reads the clubs whose new contact lost its answer and whose next re-read is due at
/// `now` (`fresh`: the link came back or a sign-in, every one at once with the backoff
/// started again).
pub(super) fn reread_contacts(
    m: &mut Model,
    now: crate::api::Timestamp,
    fresh: bool,
) -> Vec<Effect> {
    let due: Vec<Uuid> = if fresh {
        m.club.writes.lost().iter().map(|d| d.id).collect()
    } else {
        m.club.writes.reads_due(now)
    };
    due.into_iter()
        .map(|id| {
            contact_step(m, id, Event::ReadNow { fresh });
            reread_contact(m, id)
        })
        .collect()
}

/// A read of club `id` while its new contact's answer is lost: the club tells whether the
/// contact is there ([`Reread::of_club`]): settled (`ok` added, `failed`
/// not added, said), or still unknown with the next re-read planned.
fn settle_contact(m: &mut Model, id: Uuid, res: &Result<Reply<Club>, ApiError>) -> Vec<Effect> {
    let Some(new) = m.club.new_contacts.get(&id).cloned() else {
        return Vec::new();
    };
    let read = Reread::of(res.as_ref(), Reread::of_club(&new));
    let now = m.now;
    let event = Event::Reread {
        read,
        now,
        told_applied: false,
    };
    let fx: Vec<Effect> = contact_step(m, id, event).into_iter().collect();
    if let Some(Stage::Settled(Ending::Found { found, .. })) =
        m.club.writes.get(id).map(|d| d.stage().clone())
    {
        m.club.new_contacts.remove(&id);
        let label = crate::text::clean(&format!("{} {}", new.kind.as_str(), new.value), 60);
        let (severity, key) = if found.applied() {
            (Severity::Success, "status-contact-added")
        } else {
            (Severity::Error, "status-contact-lost-not-added")
        };
        let text = crate::tr!(m.lang, key, contact = label.as_str());
        let outcome = if found.applied() {
            Ok(())
        } else {
            Err(text.clone())
        };
        log(m, "add-contact", Some(id), label, outcome);
        say(m, severity, &text);
    }
    fx
}

/// The club arrived (answers for a club no longer shown are dropped).
pub(super) fn on_club(m: &mut Model, id: Uuid, res: Result<Reply<Club>, ApiError>) -> Vec<Effect> {
    let settled = if m.club.writes.lost_action(id).is_some() {
        settle_contact(m, id, &res)
    } else {
        Vec::new()
    };
    if m.club.club_id != Some(id) {
        return settled;
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
            if settled.is_empty() {
                // (A contact settled by this read said so already.)
                let text = crate::tr!(m.lang, "status-club-shown", name = name);
                say(m, Severity::Info, &text);
            }
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
    settled
}

/// Search results arrived; a single match opens at once.
pub(super) fn on_club_search(
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
pub(super) fn on_contact_created(
    m: &mut Model,
    club_id: Uuid,
    res: Result<Reply<Contact>, ApiError>,
) -> Vec<Effect> {
    if let Ok(reply) = &res {
        note_ok(m, &reply.api_version);
    }
    let (answer, contact) = crate::ops::decision::classify(res.map(|r| r.data)).split();
    let mut fx: Vec<Effect> = contact_step(m, club_id, Event::Answered(answer.clone()))
        .into_iter()
        .collect();
    match answer {
        Answer::Done(()) => {
            m.club.new_contacts.remove(&club_id);
            if let Some(c) = contact {
                contact_added(m, club_id, c);
            }
        }
        Answer::Lost(e) => {
            contact_not_added(m, club_id, &e);
            // The shared rule: the contact may have been added; the club is read again
            // until it tells (never sent again).
            fx.push(reread_contact(m, club_id));
        }
        Answer::Refused(e) => {
            // A contact that could not connect never reached the server (queued by the
            // machine): not a failure; the form keeps it to send again, so it is not sent
            // by itself (`undone`, saying why).
            if crate::ops::decision::not_sent(&e) {
                let why = format!(
                    "{}; the form keeps it to send again",
                    crate::ops::decision::error_detail(&e)
                );
                fx.extend(contact_step(m, club_id, Event::TakeBack(why)));
            }
            m.club.new_contacts.remove(&club_id);
            contact_not_added(m, club_id, &e);
        }
        Answer::Already(_) => {
            m.club.new_contacts.remove(&club_id);
        }
    }
    fx
}

/// The server added the contact: the club pane shows it, the form closes.
fn contact_added(m: &mut Model, club_id: Uuid, c: Contact) {
    let value = c.value.as_deref().unwrap_or("");
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
}

/// The contact was refused, or its answer lost: the form (still open) says why and keeps the
/// value; the log and the status line too.
fn contact_not_added(m: &mut Model, club_id: Uuid, e: &ApiError) {
    note_error(m, e);
    let text = error_text(m.lang, e);
    if let Some(Popup::AddContact { error, .. }) = m.popup.as_mut() {
        *error = Some(text.clone());
    }
    let detail = super::errors::log_text(m.lang, e);
    log(m, "add-contact", Some(club_id), String::new(), Err(detail));
    let said = crate::tr!(m.lang, "status-contact-not-added", error = text);
    say(m, Severity::Error, &said);
}

/// The audit line of a contact, with the contact's type and value.
fn with_value(mut fx: Effect, value: String) -> Effect {
    if let Effect::Audit(a) = &mut fx {
        a.value = Some(value);
    }
    fx
}
