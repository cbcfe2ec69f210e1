//! `club-admin requests list|show|approve|decline|delete`.

use std::collections::HashSet;
use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;

use serde_json::json;
use uuid::Uuid;

use super::args::{ActArgs, ListArgs, ShowArgs, StatusArg};
use super::output::{self, Column, Format};
use super::{Ctx, Exit, Outcome, bulk, emit, emit_json, exit_of, hint, read_ids, report, say};
use crate::api::{
    ApiError, ClubQuery, ClubRequest, FetchLevel, Levels, MembershipStatus, MultiLangText, Page,
    RequestFilter, RequestSortKey, Sort,
};
use crate::cli::DashboardArgs;

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
/// pagination metadata, at a short page or a page with no new id.
///
/// Errors: the first failed page ([`ApiError::OperationUnavailable`] for a server without
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
    loop {
        let reply = ctx
            .client
            .list_club_requests(filter, &sort, Page::new(p, size), levels)
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
    let user = ctx.client.current_user().await?.data;
    let student = user.meta.as_ref().and_then(|m| m.student_id);
    let Some(sid) = student.filter(|_| !user.is_admin.unwrap_or(false)) else {
        return Ok(None);
    };
    let mut ids = Vec::new();
    let mut p = 1;
    loop {
        let reply = ctx
            .client
            .search_clubs(
                &ClubQuery::StaffIds(vec![sid]),
                Page::new(p, 100),
                Levels::ID_ONLY,
            )
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
pub async fn list(args: &ListArgs, top: &DashboardArgs) -> Exit {
    let ctx = match Ctx::new(&args.common, top, true) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let levels = Levels::new(args.levels.level, args.levels.descendant_level);
    let mut club_ids: Vec<Uuid> = Vec::new();
    for c in &args.clubs {
        if !club_ids.contains(c) {
            club_ids.push(*c);
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
                return print_requests(ctx.format, &[], ctx.stderr_tty)
                    .err()
                    .unwrap_or(Exit::Ok);
            }
            Ok(Some(ids)) => filter.club_ids = ids,
            Ok(None) => {}
            Err(e) => {
                report(None, &e);
                hint(&ctx.client, &e);
                return Exit::of(&e);
            }
        }
    }
    match all_requests(&ctx, &filter, levels).await {
        Ok(rows) => print_requests(ctx.format, &rows, ctx.stderr_tty)
            .err()
            .unwrap_or(Exit::Ok),
        Err(e) => {
            report(None, &e);
            hint(&ctx.client, &e);
            if e.is_unavailable() {
                say(
                    "this server does not list club requests: give their ids to `club-admin requests show`",
                );
            }
            Exit::of(&e)
        }
    }
}

/// `requests show`: each request read with bounded concurrency; the ones read are printed,
/// each failure is one line on standard error.
pub async fn show(args: &ShowArgs, top: &DashboardArgs) -> Exit {
    let (ids, _) = match read_ids(&args.targets) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let ctx = match Ctx::new(&args.common, top, true) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let levels = Levels::new(args.levels.level, args.levels.descendant_level);
    let results = bulk(
        &ctx,
        &ids,
        "reading",
        |id| {
            let client = ctx.client.clone();
            async move { client.club_request(id, levels).await.map(|r| r.data) }
        },
        |_| {},
    )
    .await;
    if let Some((_, Outcome::Failed(e))) = results
        .iter()
        .find(|(_, o)| matches!(o, Outcome::Failed(e) if e.needs_sign_in()))
    {
        hint(&ctx.client, e);
    }
    let exit = exit_of(&results);
    let rows: Vec<ClubRequest> = results
        .into_iter()
        .filter_map(|(_, o)| match o {
            Outcome::Done(r) => Some(r),
            _ => None,
        })
        .collect();
    let printed = print_requests(ctx.format, &rows, ctx.stderr_tty);
    exit.and(printed.err().unwrap_or(Exit::Ok))
}

/// The three writes on club requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// PUT status `approved`.
    Approve,
    /// PUT status `declined`.
    Decline,
    /// DELETE.
    Delete,
}

impl Action {
    /// The audit file's action name (as the dashboard writes it).
    pub fn name(self) -> &'static str {
        match self {
            Action::Approve => "approve",
            Action::Decline => "decline",
            Action::Delete => "delete",
        }
    }

    fn past(self) -> &'static str {
        match self {
            Action::Approve => "approved",
            Action::Decline => "declined",
            Action::Delete => "deleted",
        }
    }

    fn status(self) -> Option<MembershipStatus> {
        match self {
            Action::Approve => Some(MembershipStatus::Approved),
            Action::Decline => Some(MembershipStatus::Declined),
            Action::Delete => None,
        }
    }
}

/// Levels of the request returned by approve and decline (the row the output shows).
const ACT_LEVELS: Levels = Levels::new(FetchLevel::Default, FetchLevel::Compact);

/// What a dry run would send for `id`: method, URL, JSON body (the body of operation 3 in
/// interface-spec.md; none for DELETE).
pub fn planned(
    base_url: &str,
    action: Action,
    id: Uuid,
) -> (&'static str, String, Option<serde_json::Value>) {
    let url = format!("{base_url}/v1/clubs/requests/{id}");
    match action.status() {
        Some(s) => (
            "PUT",
            url,
            Some(json!({
                "data": {"status": s.as_str()},
                "fetch_level": ACT_LEVELS.fetch_level.as_str(),
                "descendant_fetch_level": ACT_LEVELS.descendant_fetch_level.as_str(),
            })),
        ),
        None => ("DELETE", url, None),
    }
}

/// Prints a dry-run plan (method, URL, body per line; JSON: an array of
/// `{"method","url","body"}`); nothing is sent.
pub fn print_plan(
    format: Format,
    plan: &[(Uuid, &'static str, String, Option<serde_json::Value>)],
) -> Result<(), Exit> {
    let body_text =
        |b: &Option<serde_json::Value>| b.as_ref().map(|b| b.to_string()).unwrap_or_default();
    match format {
        Format::Json => emit_json(
            &plan
                .iter()
                .map(|(_, m, u, b)| json!({"method": m, "url": u, "body": b}))
                .collect::<Vec<_>>(),
        ),
        Format::Ids => emit(&output::ids(plan.iter().map(|p| p.0))),
        Format::Tsv => emit(&output::tsv(
            &plan
                .iter()
                .map(|(_, m, u, b)| vec![(*m).to_owned(), u.clone(), body_text(b)])
                .collect::<Vec<_>>(),
        )),
        Format::Table { .. } => {
            let mut out = String::new();
            for (_, m, u, b) in plan {
                out.push_str(format!("{m} {u} {}", body_text(b)).trim_end());
                out.push('\n');
            }
            emit(&out)
        }
    }
}

/// Asks on the terminal before a delete. Standard input must be a terminal that did not
/// carry the ids; otherwise `--yes` is required.
fn confirm_delete(ids: &[Uuid], from_stdin: bool) -> Result<(), Exit> {
    if from_stdin || !io::stdin().is_terminal() {
        say(
            "delete needs --yes when standard input is not a terminal (or carries the ids): nothing was deleted",
        );
        return Err(Exit::Usage);
    }
    let mut err = io::stderr().lock();
    for id in ids.iter().take(10) {
        let _ = writeln!(err, "  {id}");
    }
    if ids.len() > 10 {
        let _ = writeln!(err, "  ... and {} more", ids.len() - 10);
    }
    let _ = write!(
        err,
        "Delete {} club request{}? This cannot be undone. [y/N] ",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" }
    );
    let _ = err.flush();
    drop(err);
    let mut answer = String::new();
    let _ = io::stdin().lock().read_line(&mut answer);
    if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        Ok(())
    } else {
        say("nothing was deleted");
        Err(Exit::Failed)
    }
}

/// `requests approve|decline|delete`: ids checked, read-only refused and (for delete) the
/// user asked before anything is sent; then every id with bounded concurrency, each answer
/// audited with `"via": "cli"`. Prints what succeeded (approve/decline: the updated
/// requests; delete: the deleted ids); each failure is one line on standard error.
pub async fn act(action: Action, args: &ActArgs, yes: bool, top: &DashboardArgs) -> Exit {
    let (ids, from_stdin) = match read_ids(&args.targets) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let ctx = match Ctx::new(&args.common, top, !args.dry_run) {
        Ok(c) => c,
        Err(e) => return e,
    };
    if args.dry_run {
        let plan: Vec<_> = ids
            .iter()
            .map(|id| {
                let (m, u, b) = planned(ctx.client.base_url(), action, *id);
                (*id, m, u, b)
            })
            .collect();
        say(&format!(
            "dry run: nothing was sent ({} request{} would be {})",
            ids.len(),
            if ids.len() == 1 { "" } else { "s" },
            action.past()
        ));
        return print_plan(ctx.format, &plan).err().unwrap_or(Exit::Ok);
    }
    if let Err(e) = ctx.check_writable(action.name()) {
        return e;
    }
    if action == Action::Delete
        && !yes
        && let Err(e) = confirm_delete(&ids, from_stdin)
    {
        return e;
    }
    let user = match ctx.user_for_writes().await {
        Ok(u) => u,
        Err(e) => return e,
    };
    let auditor = ctx.auditor(Some(&user));
    let warned = AtomicBool::new(false);
    let abandon = {
        let a = auditor.clone();
        move |id: Uuid| {
            let _ = a.write(
                action.name(),
                id,
                crate::app::Outcome::Unknown,
                Some("interrupted before the server answered".into()),
            );
        }
    };
    let (exit, printed) = match action.status() {
        Some(status) => {
            let results = bulk(
                &ctx,
                &ids,
                action.past(),
                |id| {
                    let client = ctx.client.clone();
                    let status = status.clone();
                    let (auditor, warned) = (&auditor, &warned);
                    async move {
                        let r = client
                            .update_club_request(id, &status, ACT_LEVELS)
                            .await
                            .map(|r| r.data);
                        let res = r.as_ref().map(|_| ()).map_err(super::error_text);
                        auditor.record(action.name(), id, res, warned);
                        r
                    }
                },
                abandon,
            )
            .await;
            let exit = exit_of(&results);
            summary(&ctx, action, &results);
            let rows: Vec<ClubRequest> = results
                .into_iter()
                .filter_map(|(_, o)| match o {
                    Outcome::Done(r) => Some(r),
                    _ => None,
                })
                .collect();
            (exit, print_requests(ctx.format, &rows, false))
        }
        None => {
            let results = bulk(
                &ctx,
                &ids,
                action.past(),
                |id| {
                    let client = ctx.client.clone();
                    let (auditor, warned) = (&auditor, &warned);
                    async move {
                        let r = client.delete_club_request(id).await.map(|_| ());
                        let res = r.clone().map_err(|e| super::error_text(&e));
                        auditor.record(action.name(), id, res, warned);
                        r
                    }
                },
                abandon,
            )
            .await;
            let exit = exit_of(&results);
            summary(&ctx, action, &results);
            let done: Vec<Uuid> = results
                .iter()
                .filter(|(_, o)| matches!(o, Outcome::Done(())))
                .map(|(id, _)| *id)
                .collect();
            (exit, print_deleted(ctx.format, &done))
        }
    };
    let audit_exit = if warned.load(std::sync::atomic::Ordering::SeqCst) {
        Exit::Failed
    } else {
        Exit::Ok
    };
    exit.and(audit_exit).and(printed.err().unwrap_or(Exit::Ok))
}

fn print_deleted(format: Format, ids: &[Uuid]) -> Result<(), Exit> {
    match format {
        Format::Json => emit_json(
            &ids.iter()
                .map(|id| json!({"id": id, "deleted": true}))
                .collect::<Vec<_>>(),
        ),
        Format::Ids => emit(&output::ids(ids)),
        Format::Tsv => emit(&output::tsv(
            &ids.iter()
                .map(|id| vec![id.to_string(), "deleted".into()])
                .collect::<Vec<_>>(),
        )),
        Format::Table { width } if !ids.is_empty() => emit(&output::table(
            &[Column::new("ID", 36, 36), Column::new("RESULT", 7, 7)],
            &ids.iter()
                .map(|id| vec![id.to_string(), "deleted".into()])
                .collect::<Vec<_>>(),
            width,
        )),
        Format::Table { .. } => Ok(()),
    }
}

/// One line on a terminal's standard error: how many of how many, and what went wrong.
fn summary<T>(ctx: &Ctx, action: Action, results: &[(Uuid, Outcome<T>)]) {
    if !ctx.stderr_tty {
        return;
    }
    let done = results
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Done(_)))
        .count();
    let failed = results
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Failed(_)))
        .count();
    let not_sent = results.len() - done - failed;
    let mut line = format!("{} {done} of {}", action.past(), results.len());
    if failed > 0 {
        line.push_str(&format!(", {failed} failed"));
    }
    if not_sent > 0 {
        line.push_str(&format!(", {not_sent} not sent"));
    }
    say(&line);
}
