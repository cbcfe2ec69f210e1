//! `club-admin clubs show ID|NAME` and `club-admin clubs contact add`.

use std::sync::atomic::AtomicBool;

use serde_json::json;
use uuid::Uuid;

use super::args::{ClubShowArgs, ContactAddArgs};
use super::output::{self, Format};
use super::requests::both_languages;
use super::{Ctx, Exit, emit, emit_json, hint, report, say};
use crate::api::{
    ApiError, Club, ClubQuery, Contact, ContactType, FetchLevel, Levels, NewContact, Page,
};
use crate::config::Flags;

/// Levels for reading a club at `level`, as the dashboard's club pane asks: descendants
/// (contacts, students) at `compact` from `default` up, `id_only` below.
pub fn club_levels(level: FetchLevel) -> Levels {
    Levels::new(
        level,
        if level >= FetchLevel::Default {
            FetchLevel::Compact
        } else {
            FetchLevel::IdOnly
        },
    )
}

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

/// Finds the one club a name means: `GET /v1/clubs?filter[q]=NAME`; with several matches,
/// the one whose English or Thai name equals NAME (ignoring case) if exactly one does.
///
/// Errors: `Ok(Err(exit))` (printed) when no club or several match; `Err` when the search
/// failed (a server without club listing: [`ApiError::OperationUnavailable`]).
async fn find_by_name(ctx: &Ctx, name: &str) -> Result<Result<Uuid, Exit>, ApiError> {
    let reply = ctx
        .client
        .search_clubs(
            &ClubQuery::Text(name.to_owned()),
            Page::new(1, 100),
            Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
        )
        .await
        .map_err(|e| match e {
            ApiError::NotFound(info) => ApiError::OperationUnavailable(info),
            e => e,
        })?;
    let clubs = reply.data;
    let wanted = name.trim().to_lowercase();
    let exact: Vec<&Club> = clubs
        .iter()
        .filter(|c| {
            c.name.as_ref().is_some_and(|n| {
                [&n.en, &n.th]
                    .into_iter()
                    .flatten()
                    .any(|s| s.trim().to_lowercase() == wanted)
            })
        })
        .collect();
    match (clubs.len(), exact.len()) {
        (0, _) => {
            say(&format!(
                "no club matches {:?}",
                crate::text::clean(name, 60)
            ));
            Ok(Err(Exit::Failed))
        }
        (1, _) => Ok(Ok(clubs[0].id)),
        (_, 1) => Ok(Ok(exact[0].id)),
        (n, _) => {
            say(&format!(
                "{n} clubs match {:?}; give one of these ids:",
                crate::text::clean(name, 60)
            ));
            for c in clubs.iter().take(20) {
                let label = c
                    .name
                    .as_ref()
                    .and_then(|n| both_languages(n.en.as_deref(), n.th.as_deref()))
                    .unwrap_or_default();
                say(&format!("  {}  {}", c.id, crate::text::clean(&label, 60)));
            }
            Ok(Err(Exit::Usage))
        }
    }
}

/// `clubs show ID|NAME`: one club (JSON: the service's Club object).
pub async fn show(args: &ClubShowArgs, flags: &Flags) -> Exit {
    let ctx = match Ctx::new(flags, &args.common.out, true) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let id = match Uuid::parse_str(args.club.trim()) {
        Ok(id) => id,
        Err(_) => match find_by_name(&ctx, &args.club).await {
            Ok(Ok(id)) => id,
            Ok(Err(exit)) => return exit,
            Err(e) => {
                report(None, &e);
                hint(&ctx.client, &e);
                if e.is_unavailable() {
                    say("this server cannot search clubs by name: give the club's id");
                }
                return Exit::of(&e);
            }
        },
    };
    let club = match ctx.client.club(id, club_levels(args.level)).await {
        Ok(r) => r.data,
        Err(e) => {
            report(Some(&id), &e);
            hint(&ctx.client, &e);
            return Exit::of(&e);
        }
    };
    let done = match ctx.format {
        Format::Json => emit_json(&club),
        Format::Ids => emit(&output::ids([club.id])),
        Format::Tsv => emit(&output::tsv(&club_tsv(&club))),
        Format::Table { width } => emit(&output::pairs(&club_pairs(&club), width)),
    };
    done.err().unwrap_or(Exit::Ok)
}

/// `clubs contact add CLUB_ID --type T --value V`: refused in read-only mode before
/// anything is sent; audited (`add-contact`, target the club) with `"via": "cli"`.
pub async fn add_contact(args: &ContactAddArgs, flags: &Flags) -> Exit {
    let value = args.value.trim().to_owned();
    if value.is_empty() {
        say("--value is empty: nothing was sent");
        return Exit::Usage;
    }
    let ctx = match Ctx::new(flags, &args.common.out, !args.dry_run) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let new = NewContact {
        kind: ContactType::parse(&args.kind),
        value,
    };
    let levels = Levels::new(FetchLevel::Default, FetchLevel::IdOnly);
    if args.dry_run {
        return dry_run(&ctx, args.club, &new, &levels);
    }
    if let Err(e) = ctx.check_writable("add-contact") {
        return e;
    }
    let user = match ctx.user_for_writes().await {
        Ok(u) => u,
        Err(e) => return e,
    };
    let result = ctx
        .client
        .create_club_contact(args.club, &new, levels)
        .await
        .map(|r| r.data);
    let warned = AtomicBool::new(false);
    let audited = ctx.auditor(Some(&user)).record(
        "add-contact",
        args.club,
        result.as_ref().map(|_| ()).map_err(super::error_text),
        &warned,
    );
    let contact = match result {
        Ok(c) => c,
        Err(e) => {
            report(Some(&args.club), &e);
            hint(&ctx.client, &e);
            return Exit::of(&e);
        }
    };
    let done = print_contact(&ctx, args.club, &contact);
    let audit_exit = if audited { Exit::Ok } else { Exit::Failed };
    done.err().unwrap_or(Exit::Ok).and(audit_exit)
}

/// `--dry-run`: says nothing was sent and prints the request that would be: method, URL
/// and body, in the chosen format (`ids` gives the club's id).
fn dry_run(ctx: &Ctx, club: Uuid, new: &NewContact, levels: &Levels) -> Exit {
    let url = format!("{}/v1/clubs/{}/contacts", ctx.client.base_url(), club);
    let body = json!({
        "data": new,
        "fetch_level": levels.fetch_level.as_str(),
        "descendant_fetch_level": levels.descendant_fetch_level.as_str(),
    });
    say("dry run: nothing was sent");
    let done = match ctx.format {
        Format::Json => emit_json(&json!([{"method": "POST", "url": url, "body": body}])),
        Format::Ids => emit(&output::ids([club])),
        Format::Tsv => emit(&output::tsv(&[vec!["POST".into(), url, body.to_string()]])),
        Format::Table { .. } => emit(&format!("POST {url} {body}\n")),
    };
    done.err().unwrap_or(Exit::Ok)
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
