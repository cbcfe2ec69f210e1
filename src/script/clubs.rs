//! `club-admin clubs show ID|NAME` and `club-admin clubs contact add`.

use uuid::Uuid;

use super::Host;
use super::args::{ClubShowArgs, ContactAddArgs};
use super::output::{self, Format};
use super::requests::both_languages;
use super::{Ctx, Exit, emit, emit_json, hint, report, say};
use crate::api::{
    ApiError, Club, ClubQuery, Contact, ContactType, FetchLevel, Levels, NewContact, Page,
};
use crate::ops::RowAction;
use crate::ops::decision::{self, Answer, Decision, Event, Reread, Stage};
use crate::ops::parse::{ClubPick, ClubRef, pick_club};
use crate::ops::{Outcome, audit};

fn contact_text(c: &Contact) -> String {
    let mut s = format!(
        "{} {}",
        c.kind.as_ref().map(|k| k.as_str()).unwrap_or("?"),
        c.value.as_deref().unwrap_or("")
    );
    if let Some(n) = c
        .name
        .as_ref()
        .and_then(|n| both_languages(n.en.as_deref(), n.th.as_deref()))
    {
        s.push_str(&format!(" ({n})"));
    }
    s
}

/// A club as `(key, value)` lines: id, names, description, counts, colours, logo, then one
/// `contact` line per contact (type, value, label). Unknown fields are left out.
pub fn club_pairs(c: &Club) -> Vec<(String, String)> {
    let mut v = vec![("id".to_owned(), c.id.to_string())];
    let mut put = |k: &str, val: Option<String>| {
        if let Some(val) = val.filter(|s| !s.is_empty()) {
            v.push((k.to_owned(), val));
        }
    };
    put(
        "name",
        c.name
            .as_ref()
            .and_then(|n| both_languages(n.en.as_deref(), n.th.as_deref())),
    );
    put(
        "description",
        c.description
            .as_ref()
            .and_then(|n| both_languages(n.en.as_deref(), n.th.as_deref())),
    );
    put("members", c.member_count.map(|n| n.to_string()));
    put("staff", c.staff_count.map(|n| n.to_string()));
    put(
        "colours",
        Some(
            [&c.background_color, &c.accent_color]
                .into_iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
        ),
    );
    put("logo", c.logo_url.clone());
    for contact in c.contacts.iter().flatten() {
        v.push(("contact".to_owned(), contact_text(contact)));
    }
    v
}

/// A club as TSV lines: `key<TAB>value` (`name_en`, `name_th`, `description_en`,
/// `description_th`, `member_count`, `staff_count`, `background_color`, `accent_color`,
/// `logo_url`), then `contact<TAB>id<TAB>type<TAB>value` per contact.
pub fn club_tsv(c: &Club) -> Vec<Vec<String>> {
    let mut rows = vec![vec!["id".to_owned(), c.id.to_string()]];
    let mut put = |k: &str, val: Option<String>| {
        if let Some(val) = val {
            rows.push(vec![k.to_owned(), val]);
        }
    };
    put("name_en", c.name.as_ref().and_then(|n| n.en.clone()));
    put("name_th", c.name.as_ref().and_then(|n| n.th.clone()));
    put(
        "description_en",
        c.description.as_ref().and_then(|n| n.en.clone()),
    );
    put(
        "description_th",
        c.description.as_ref().and_then(|n| n.th.clone()),
    );
    put("member_count", c.member_count.map(|n| n.to_string()));
    put("staff_count", c.staff_count.map(|n| n.to_string()));
    put("background_color", c.background_color.clone());
    put("accent_color", c.accent_color.clone());
    put("logo_url", c.logo_url.clone());
    for k in c.contacts.iter().flatten() {
        rows.push(vec![
            "contact".to_owned(),
            k.id.to_string(),
            k.kind.as_ref().map(|t| t.to_string()).unwrap_or_default(),
            k.value.clone().unwrap_or_default(),
        ]);
    }
    rows
}

/// The club `text` means, by the shared rules ([`ClubRef::parse`], [`pick_club`]): an id as
/// it is; a name searched with `GET /v1/clubs?filter[q]=NAME` (deployed listing,
/// api-notes.md), the only match, or the only one whose English or Thai name is the name.
///
/// Errors (already printed): a mistyped id ([`Exit::Usage`]); no club matches (1); several
/// match (2, with their ids listed); the search failed (its class, with a hint for a server
/// that cannot search).
pub async fn resolve_club(ctx: &Ctx, text: &str) -> Result<Uuid, Exit> {
    let name = match ClubRef::parse(text) {
        Ok(ClubRef::Id(id)) => return Ok(id),
        Ok(ClubRef::Name(n)) => n,
        Err(why) => {
            say(&why);
            return Err(Exit::Usage);
        }
    };
    // A read before a run: a 5xx or a dropped answer is tried again, five tries in all.
    let once = ctx.client.single_try();
    let query = ClubQuery::Text(name.clone());
    let levels = Levels::new(FetchLevel::Compact, FetchLevel::IdOnly);
    let reply = crate::ops::run::with_tries(&crate::ops::Control::default(), || {
        once.search_clubs(&query, Page::new(1, 100), levels)
    })
    .await
    .map_err(|e| match e {
        ApiError::NotFound(info) => ApiError::OperationUnavailable(info),
        e => e,
    });
    let clubs = match reply {
        Ok(r) => r.data,
        Err(e) => {
            report(None, &e);
            hint(ctx, &e);
            if e.is_unavailable() {
                say("this server cannot search clubs by name: give the club's id");
            }
            return Err(Exit::of(&e));
        }
    };
    match pick_club(&name, &clubs) {
        ClubPick::One(id) => Ok(id),
        ClubPick::None => {
            say(&format!(
                "no club matches \"{}\"",
                crate::text::clean(&name, 60)
            ));
            Err(Exit::Usage)
        }
        ClubPick::Many(n) => {
            say(&format!(
                "{n} clubs match \"{}\"; give one of these ids:",
                crate::text::clean(&name, 60)
            ));
            for c in clubs.iter().take(20) {
                let label = c
                    .name
                    .as_ref()
                    .and_then(|n| both_languages(n.en.as_deref(), n.th.as_deref()))
                    .unwrap_or_default();
                say(&format!("  {}  {}", c.id, crate::text::clean(&label, 60)));
            }
            Err(Exit::Usage)
        }
    }
}

/// `clubs show ID|NAME`: one club (JSON: the service's Club object).
pub async fn show(args: &ClubShowArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let ctx = Ctx::new(host, &args.common.out, true)?;
    let id = resolve_club(&ctx, &args.club).await?;
    // As the dashboard's club pane reads it: contacts whole on the deployed service too.
    let levels = crate::ops::club_read::club_levels(args.level);
    let club = match crate::ops::club_read::read_club(&ctx.client, id, levels).await {
        Ok(r) => r.data,
        Err(e) => {
            report(Some(&id), &e);
            hint(&ctx, &e);
            return Ok(Exit::of(&e));
        }
    };
    let done = match ctx.format {
        Format::Json => emit_json(&club),
        Format::Ids => emit(&output::ids([club.id])),
        Format::Tsv => emit(&output::tsv(&club_tsv(&club))),
        Format::Table { width } => emit(&output::pairs(&club_pairs(&club), width)),
    };
    done.map(|()| Exit::Ok)
}

/// `clubs contact add ID|NAME --type T --value V`: the value checked for its type by the
/// dashboard form's rule ([`crate::ops::parse::contact`]) and read-only refused before
/// anything is sent; audited (`add-contact`, target the club, `value` the type and value)
/// with `"via": "cli"`. A lost answer is audited `unknown` (a contact cannot be re-read by
/// itself: `clubs show` tells whether it was added).
pub async fn add_contact(args: &ContactAddArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let new = match crate::ops::parse::contact(&args.kind, &args.value) {
        Ok(n) => n,
        Err(problem) => {
            say(&format!(
                "--value: {problem}; {} contact is {} (nothing was sent)",
                crate::ops::parse::with_article(&args.kind),
                crate::ops::parse::contact_format(&ContactType::parse(&args.kind))
            ));
            return Ok(Exit::Usage);
        }
    };
    let ctx = Ctx::new(host, &args.common.out, !args.dry_run)?;
    let levels = Levels::new(FetchLevel::Default, FetchLevel::IdOnly);
    // Until the contact is sent, Ctrl-C leaves at once, saying nothing was sent.
    let quiet = super::act::nothing_sent_on_ctrl_c(ctx.settings.lang);
    let club = match ClubRef::parse(&args.club) {
        Ok(ClubRef::Id(id)) => id,
        Ok(ClubRef::Name(_)) if args.dry_run => {
            say("a dry run needs the club's id (a name would be searched on the server)");
            return Ok(Exit::Usage);
        }
        Ok(ClubRef::Name(_)) => resolve_club(&ctx, &args.club).await?,
        Err(why) => {
            say(&why);
            return Ok(Exit::Usage);
        }
    };
    if args.dry_run {
        return Ok(dry_run(&ctx, club, &new, levels));
    }
    ctx.check_writable("add-contact")?;
    let user = permitted_user(&ctx, club).await?;
    ctx.settle_interrupted(&crate::ops::Control::default())
        .await;
    quiet.abort();
    let log = ctx.audit_log(Some(&user));
    // The one decision machine, as for a decision: born held and sent at once (its
    // write-ahead line first: without it nothing is sent), then answered, or lost and the
    // club re-read until it tells.
    let mut w = ContactWrite::new(&log, club, &new);
    if w.step(Event::Send).await != Exit::Ok {
        say("not sent: its audit line could not be written first");
        return Ok(Exit::Failed);
    }
    let result = ctx
        .client
        .create_club_contact(club, &new, levels)
        .await
        .map(|r| r.data);
    let (answer, contact) = decision::classify(result).split();
    let audit_exit = w.step(Event::Answered(answer.clone())).await;
    Ok(match (answer, contact) {
        (Answer::Done(()), Some(contact)) => {
            let done = print_contact(&ctx, club, &contact);
            done.err().unwrap_or(Exit::Ok).and(audit_exit)
        }
        (Answer::Lost(e), _) => settle_lost_contact(&ctx, &mut w, &e).await.and(audit_exit),
        (Answer::Refused(e), _) => refused_contact(&ctx, &mut w, club, &e).await,
        (Answer::Done(()) | Answer::Already(_), _) => audit_exit,
    })
}

/// A new contact the server refused, or that never reached it (no connection: queued by
/// the machine, then taken back, `undone`, since the run ends: never a failure): said with
/// its hint; the exit of the refusal.
async fn refused_contact(ctx: &Ctx, w: &mut ContactWrite<'_>, club: Uuid, e: &ApiError) -> Exit {
    if decision::not_sent(e) {
        let why = format!("{}; run the command again", decision::error_detail(e));
        let _ = w.step(Event::TakeBack(why)).await;
    }
    report(Some(&club), e);
    hint(ctx, e);
    Exit::of(e)
}

/// The signed-in account, when the service lets it add a contact to `club` (api-notes.md,
/// "Who may do what"); else the exit of its refusal, said before any write. A student off
/// the club's staff is refused too: the clubs it staffs are looked up (a lookup that fails
/// leaves it to the server's answer).
async fn permitted_user(ctx: &Ctx, club: Uuid) -> Result<crate::api::User, Exit> {
    let user = ctx.user_for_writes().await?;
    let staffed = match crate::ops::permit::is_student(&user) {
        true => super::requests::my_clubs(ctx).await.ok().flatten(),
        false => None,
    };
    let target = crate::ops::permit::Target {
        club: Some(club),
        owner: None,
        staffed: staffed.as_deref(),
    };
    let write = crate::ops::permit::Write::AddContact;
    Ctx::refuse_unpermitted(&user, write, "add a contact", target).map_err(|(e, _)| e)?;
    Ok(user)
}

/// A new contact's decision in the one machine ([`decision::Decision`], action
/// [`RowAction::AddContact`]): each line its transitions write goes to the audit file with
/// the contact's type and value.
struct ContactWrite<'a> {
    d: Decision,
    log: &'a audit::AuditLog,
    club: Uuid,
    new: &'a NewContact,
}

impl<'a> ContactWrite<'a> {
    fn new(log: &'a audit::AuditLog, club: Uuid, new: &'a NewContact) -> ContactWrite<'a> {
        let held = Stage::Held {
            send_at: chrono::Utc::now(),
        };
        let Ok(d) = Decision::new(club, RowAction::AddContact, 0, held) else {
            unreachable!("a decision may be born held");
        };
        ContactWrite { d, log, club, new }
    }

    /// Applies `event` and writes the line it gives; `Exit::Failed` when the line could not
    /// be written (said on standard error).
    async fn step(&mut self, event: Event) -> Exit {
        match self.d.apply(event) {
            Ok(Some(line)) => {
                write_contact_line(self.log, self.club, self.new, line.outcome, line.detail).await
            }
            Ok(None) => Exit::Ok,
            Err(e) => panic!("{e}"),
        }
    }
}

/// Writes one `add-contact` audit line for `club` (its `value`: the new contact's type and
/// value). `Exit::Failed` when the line could not be written (said on standard error).
async fn write_contact_line(
    log: &audit::AuditLog,
    club: Uuid,
    new: &NewContact,
    outcome: Outcome,
    detail: Option<String>,
) -> Exit {
    let mut entry = log.entry(chrono::Utc::now(), "add-contact", club, outcome, detail);
    entry.value = Some(audit::contact_value(new.kind.as_str(), &new.value));
    match log.write(&entry).await {
        Ok(()) => Exit::Ok,
        Err(e) => {
            say(&e);
            Exit::Failed
        }
    }
}

/// The answer to the new contact of `w` was lost (`lost`): the shared rule reads the club
/// until it tells whether the contact is there ([`crate::ops::run::settle_contact`]), and
/// the machine's re-read transition writes the line that settles it. Exit: 0 added, 1 not
/// added, 4 the club could not be read again (outcome unknown, settled by the next start);
/// 1 also when the audit line could not be written.
async fn settle_lost_contact(ctx: &Ctx, w: &mut ContactWrite<'_>, lost: &ApiError) -> Exit {
    let club = w.club;
    let settled = crate::ops::run::settle_contact(
        &ctx.client,
        club,
        w.new,
        crate::ops::run::SETTLE_PATIENCE,
        &crate::ops::Control::default(),
    )
    .await;
    let lost = decision::error_detail(lost);
    let (read, exit, words) = match settled {
        Ok(true) => (Reread::Contact(true), Exit::Ok, "added"),
        Ok(false) => (Reread::Contact(false), Exit::Failed, "not added"),
        Err(_) => {
            let _ = w.step(Event::Abandon).await;
            say(&format!(
                "{club}: the answer was lost ({lost}) and the club could not be read again: the contact may or may not have been added (see `club-admin clubs show {club}`)"
            ));
            return Exit::Unknown;
        }
    };
    let event = Event::Reread {
        read,
        now: chrono::Utc::now(),
        told_applied: false,
    };
    let audit_exit = w.step(event).await;
    say(&format!(
        "{club}: the answer was lost; a re-read of the club shows the contact {words}"
    ));
    exit.and(audit_exit)
}

/// `--dry-run`: says nothing was sent and prints the request that would be: method, URL
/// and body, in the chosen format (`ids` gives the club's id).
fn dry_run(ctx: &Ctx, club: Uuid, new: &NewContact, levels: Levels) -> Exit {
    let plan = ctx.client.plan_new_contact(club, new, levels);
    say("dry run: nothing was sent");
    super::act::print_plan(ctx.format, &[(club, plan)])
        .err()
        .unwrap_or(Exit::Ok)
}

/// Prints the contact the server created for `club`: its id, type, value and club, in the
/// chosen format. Errors: standard output could not be written.
fn print_contact(ctx: &Ctx, club: Uuid, contact: &Contact) -> Result<(), Exit> {
    let fields = vec![
        ("id".to_owned(), contact.id.to_string()),
        (
            "type".to_owned(),
            contact
                .kind
                .as_ref()
                .map(|k| k.to_string())
                .unwrap_or_default(),
        ),
        (
            "value".to_owned(),
            contact.value.clone().unwrap_or_default(),
        ),
        ("club".to_owned(), club.to_string()),
    ];
    match ctx.format {
        Format::Json => emit_json(contact),
        Format::Ids => emit(&output::ids([contact.id])),
        Format::Tsv => emit(&output::tsv(&[vec![
            contact.id.to_string(),
            fields[1].1.clone(),
            fields[2].1.clone(),
            club.to_string(),
        ]])),
        Format::Table { width } => emit(&output::pairs(&fields, width)),
    }
}
