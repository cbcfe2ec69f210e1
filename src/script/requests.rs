//! `club-admin requests list|show|approve|decline|delete`.

use std::collections::HashSet;

use uuid::Uuid;

use super::Host;
use super::args::{ListArgs, ShowArgs, StatusArg};
use super::output::{self, Column, Format};
use super::{Ctx, Exit, emit, emit_json, hint, read_ids, report, say};
use crate::api::{
    ApiError, ClubQuery, ClubRequest, Levels, MembershipStatus, MultiLangText, Page, RequestFilter,
    RequestSortKey, Sort,
};

/// Table columns of a club request.
pub const COLUMNS: [Column; 6] = [
    Column::new("ID", 36, 36),
    Column::new("STATUS", 8, 12),
    Column::new("YEAR", 4, 6),
    Column::new("CLUB", 10, 44),
    Column::new("STUDENT", 10, 44),
    Column::new("ASKED", 10, 10),
];

/// `en / th` when both are known and differ, else whichever is known.
pub fn both_languages(en: Option<&str>, th: Option<&str>) -> Option<String> {
    let en = en.filter(|s| !s.trim().is_empty());
    let th = th.filter(|s| !s.trim().is_empty());
    match (en, th) {
        (Some(a), Some(b)) if a != b => Some(format!("{a} / {b}")),
        (Some(a), _) => Some(a.to_owned()),
        (None, b) => b.map(str::to_owned),
    }
}

fn ml(t: &Option<MultiLangText>) -> (Option<&str>, Option<&str>) {
    match t {
        Some(t) => (t.en.as_deref(), t.th.as_deref()),
        None => (None, None),
    }
}

fn student_name(r: &ClubRequest) -> Option<String> {
    let p = r.student.as_ref()?.person.as_ref()?;
    both_languages(p.full_name(false).as_deref(), p.full_name(true).as_deref())
}

/// The table cells of a request: id, status, year, club (`en / th`, else its id), student
/// (`#school number` and name, else the student's id), the day it was asked.
pub fn table_cells(r: &ClubRequest) -> Vec<String> {
    let club = r.club.as_ref().map(|c| {
        let (en, th) = ml(&c.name);
        both_languages(en, th).unwrap_or_else(|| c.id.to_string())
    });
    let student = r.student.as_ref().map(|s| {
        let mut out = s
            .student_id
            .as_deref()
            .map(|n| format!("#{n}"))
            .unwrap_or_default();
        if let Some(n) = student_name(r) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&n);
        }
        if out.is_empty() {
            out = s.id.to_string();
        }
        out
    });
    vec![
        r.id.to_string(),
        r.membership().map(|s| s.to_string()).unwrap_or_default(),
        r.year.map(|y| y.to_string()).unwrap_or_default(),
        club.unwrap_or_default(),
        student.unwrap_or_default(),
        r.created_at
            .map(|t| t.format("%Y-%m-%d").to_string())
            .unwrap_or_default(),
    ]
}

/// The TSV fields of a request, in this order: id, status, year, club id, club name
/// (English), club name (Thai), school number, student name, created at (RFC 3339).
/// Unknown fields are empty.
pub fn tsv_fields(r: &ClubRequest) -> Vec<String> {
    let club = r.club.as_ref();
    let (en, th) = club.map(|c| ml(&c.name)).unwrap_or((None, None));
    vec![
        r.id.to_string(),
        r.membership().map(|s| s.to_string()).unwrap_or_default(),
        r.year.map(|y| y.to_string()).unwrap_or_default(),
        club.map(|c| c.id.to_string()).unwrap_or_default(),
        en.unwrap_or_default().to_owned(),
        th.unwrap_or_default().to_owned(),
        r.student
            .as_ref()
            .and_then(|s| s.student_id.clone())
            .unwrap_or_default(),
        student_name(r).unwrap_or_default(),
        r.created_at
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default(),
    ]
}

/// Prints requests in the chosen format (JSON: an array of the service's objects).
pub fn print_requests(format: Format, rows: &[ClubRequest], stderr_tty: bool) -> Result<(), Exit> {
    match format {
        Format::Json => emit_json(rows),
        Format::Ids => emit(&output::ids(rows.iter().map(|r| r.id))),
        Format::Tsv => emit(&output::tsv(
            &rows.iter().map(tsv_fields).collect::<Vec<_>>(),
        )),
        Format::Table { width } => {
            if rows.is_empty() {
                if stderr_tty {
                    say("no club requests");
                }
                return Ok(());
            }
            emit(&output::table(
                &COLUMNS,
                &rows.iter().map(table_cells).collect::<Vec<_>>(),
                width,
            ))
        }
    }
}

/// A listing route the server lacks answers 404 (api-notes.md, "Listing"): that is the
/// missing operation, whatever its `detail` says.
fn listing_error(e: ApiError) -> ApiError {
    match e {
        ApiError::NotFound(info) => ApiError::OperationUnavailable(info),
        e => e,
    }
}

/// Every page of `GET /v1/clubs/requests` for `filter`, sorted by id (ascending) so that
/// pages do not overlap or skip; page size from the configuration (`page_size`, default
/// 50). Stops at the last page (`meta.pagination.next_p` null), or, on a server without
/// pagination metadata, at a short page or a page with no new id. A page that fails is read
/// again ([`crate::ops::run::with_tries`]: 1, 2, 4, 8 s apart, five tries in all).
///
/// Errors: the first page that failed five times ([`ApiError::OperationUnavailable`] for a server without
/// the listing).
pub async fn all_requests(
    ctx: &Ctx,
    filter: &RequestFilter,
    levels: Levels,
) -> Result<Vec<ClubRequest>, ApiError> {
    let sort = Sort {
        by: vec![RequestSortKey::Id],
        ascending: true,
    };
    let size = ctx.settings.page_size;
    let mut rows = Vec::new();
    let mut seen = HashSet::new();
    let mut p = 1;
    let mut bar = None;
    let control = crate::ops::Control::default();
    let once = ctx.client.single_try();
    loop {
        // A page that failed (a 5xx, a dropped connection) is read again with the shared
        // read backoff: a read changes nothing.
        let reply = crate::ops::run::with_tries(&control, || {
            once.list_club_requests(filter, &sort, Page::new(p, size), levels)
        })
        .await
        .map_err(listing_error)?;
        let n = reply.data.len();
        let before = rows.len();
        for r in reply.data {
            if seen.insert(r.id) {
                rows.push(r);
            }
        }
        let pagination = reply.meta.and_then(|m| m.pagination);
        if let Some(last) = pagination.as_ref().and_then(|pg| pg.last_p) {
            let b = bar.get_or_insert_with(|| ctx.progress(last as usize, "listing pages"));
            b.set_position(p as u64);
        }
        let next = match pagination {
            Some(pg) => pg.next_p,
            None => (n as u32 >= size).then_some(p + 1),
        };
        match next {
            Some(nx) if nx > p && rows.len() > before => p = nx,
            _ => break,
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(rows)
}

/// The clubs the signed-in user is on the staff of, as the dashboard scopes its queue:
/// `Some(ids)` for a student account (clubs whose `staff_ids` hold `user.meta.student_id`),
/// `None` (no restriction) for teachers and administrators.
///
/// Errors: the user or the club listing could not be read.
pub async fn my_clubs(ctx: &Ctx) -> Result<Option<Vec<Uuid>>, ApiError> {
    // Read as the pages are: a 5xx or a dropped answer is tried again, five tries in all.
    let control = crate::ops::Control::default();
    let once = ctx.client.single_try();
    let user = crate::ops::run::with_tries(&control, || once.current_user())
        .await?
        .data;
    let student = user.meta.as_ref().and_then(|m| m.student_id);
    let Some(sid) = student.filter(|_| !user.is_admin.unwrap_or(false)) else {
        return Ok(None);
    };
    let mut ids = Vec::new();
    let mut p = 1;
    let query = ClubQuery::StaffIds(vec![sid]);
    loop {
        let reply = crate::ops::run::with_tries(&control, || {
            once.search_clubs(&query, Page::new(p, 100), Levels::ID_ONLY)
        })
        .await
        .map_err(listing_error)?;
        let before = ids.len();
        for c in reply.data {
            if !ids.contains(&c.id) {
                ids.push(c.id);
            }
        }
        match reply
            .meta
            .and_then(|m| m.pagination)
            .and_then(|pg| pg.next_p)
        {
            Some(nx) if nx > p && ids.len() > before => p = nx,
            _ => break,
        }
    }
    Ok(Some(ids))
}

/// `requests list`.
pub async fn list(args: &ListArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let ctx = Ctx::new(host, &args.common.out, true)?;
    let levels = Levels::new(args.levels.level, args.levels.descendant_level);
    let mut club_ids: Vec<Uuid> = Vec::new();
    for c in &args.clubs {
        let id = super::clubs::resolve_club(&ctx, c).await?;
        if !club_ids.contains(&id) {
            club_ids.push(id);
        }
    }
    let mut filter = RequestFilter {
        club_ids,
        membership_status: match args.status {
            StatusArg::Pending => Some(MembershipStatus::Pending),
            StatusArg::Approved => Some(MembershipStatus::Approved),
            StatusArg::Declined => Some(MembershipStatus::Declined),
            StatusArg::All => None,
        },
        year: args.year,
        ..RequestFilter::default()
    };
    if args.mine {
        match my_clubs(&ctx).await {
            Ok(Some(ids)) if ids.is_empty() => {
                say("you are not on the staff of any club: no requests are yours");
                return print_requests(ctx.format, &[], ctx.stderr_tty).map(|()| Exit::Ok);
            }
            Ok(Some(ids)) => filter.club_ids = ids,
            Ok(None) => {}
            Err(e) => {
                report(None, &e);
                hint(&ctx, &e);
                return Ok(Exit::of(&e));
            }
        }
    }
    match all_requests(&ctx, &filter, levels).await {
        Ok(rows) => print_requests(ctx.format, &rows, ctx.stderr_tty).map(|()| Exit::Ok),
        Err(e) => {
            report(None, &e);
            hint(&ctx, &e);
            if e.is_unavailable() {
                say(
                    "this server does not list club requests: give their ids to `club-admin requests show`",
                );
            }
            Ok(Exit::of(&e))
        }
    }
}

/// `requests show`: each request read with bounded concurrency; the ones read are printed,
/// each failure is one line on standard error.
pub async fn show(args: &ShowArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let (ids, _) = read_ids(&args.targets, host).await?;
    let ctx = Ctx::new(host, &args.common.out, true)?;
    let levels = Levels::new(args.levels.level, args.levels.descendant_level);
    let control = crate::ops::Control::default();
    let bar = ctx.progress(ids.len(), "reading");
    let results = crate::ops::run::bulk(
        &ids,
        ctx.settings.concurrency,
        &control,
        |id| {
            let client = ctx.client.clone();
            async move { client.club_request(id, levels).await.map(|r| r.data) }
        },
        |r| r.as_ref().is_err_and(crate::ops::decision::stops_run),
        |id, r| {
            bar.inc(1);
            if let Some(Err(e)) = r {
                bar.suspend(|| report(Some(&id), e));
            }
        },
    )
    .await;
    bar.finish_and_clear();
    if let Some(e) = results
        .iter()
        .filter_map(|(_, r)| r.as_ref()?.as_ref().err())
        .find(|e| e.needs_sign_in())
    {
        hint(&ctx, e);
    }
    let mut exit = Exit::Ok;
    let mut rows: Vec<ClubRequest> = Vec::new();
    for (id, r) in results {
        match r {
            Some(Ok(r)) => rows.push(r),
            Some(Err(e)) => exit = exit.and(Exit::of(&e)),
            None => {
                say(&format!("{id}: not read (the run stopped early)"));
                exit = exit.and(Exit::Failed);
            }
        }
    }
    let printed = print_requests(ctx.format, &rows, ctx.stderr_tty);
    Ok(exit.and(printed.err().unwrap_or(Exit::Ok)))
}
