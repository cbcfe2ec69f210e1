//! `requests approve|decline|delete`: checked before anything is sent (ids, read-only,
//! a delete asked on a terminal), then sent with bounded concurrency, each answer audited.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;

use serde_json::json;
use uuid::Uuid;

use super::args::ActArgs;
use super::output::{self, Column, Format};
use super::requests::print_requests;
use super::{Ctx, Exit, Outcome, bulk, emit, emit_json, exit_of, read_ids, say};
use crate::api::{ClubRequest, FetchLevel, Levels};
use crate::app::RowAction;
use crate::config::Flags;

/// Levels of the request returned by approve and decline (the row the output shows).
const ACT_LEVELS: Levels = Levels::new(FetchLevel::Default, FetchLevel::Compact);

/// What a dry run would send for `id`: method, URL, JSON body (the body of operation 3 in
/// interface-spec.md; none for DELETE).
pub fn planned(
    base_url: &str,
    action: RowAction,
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
pub async fn act(action: RowAction, args: &ActArgs, yes: bool, flags: &Flags) -> Exit {
    let (ids, from_stdin) = match read_ids(&args.targets) {
        Ok(x) => x,
        Err(e) => return e,
    };
    let ctx = match Ctx::new(flags, &args.common.out, !args.dry_run) {
        Ok(c) => c,
        Err(e) => return e,
    };
    if args.dry_run {
        return dry_run(&ctx, action, &ids);
    }
    if let Err(e) = ctx.check_writable(action.verb()) {
        return e;
    }
    if action == RowAction::Delete
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
                action.verb(),
                id,
                crate::app::Outcome::Unknown,
                Some("interrupted before the server answered".into()),
            );
        }
    };
    let (exit, printed) = match action.status() {
        Some(status) => send_updates(&ctx, action, status, &ids, &auditor, &warned, abandon).await,
        None => send_deletes(&ctx, action, &ids, &auditor, &warned, abandon).await,
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
fn summary<T>(ctx: &Ctx, action: RowAction, results: &[(Uuid, Outcome<T>)]) {
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

/// `--dry-run`: says what would be sent, sends nothing.
fn dry_run(ctx: &Ctx, action: RowAction, ids: &[Uuid]) -> Exit {
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
    print_plan(ctx.format, &plan).err().unwrap_or(Exit::Ok)
}

/// Sends approve or decline for every id; returns the exit and what printing the updated
/// requests gave.
async fn send_updates(
    ctx: &Ctx,
    action: RowAction,
    status: crate::api::MembershipStatus,
    ids: &[Uuid],
    auditor: &super::Auditor,
    warned: &AtomicBool,
    abandon: impl Fn(Uuid) + Send + Sync + 'static,
) -> (Exit, Result<(), Exit>) {
    let results = bulk(
        ctx,
        ids,
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
                auditor.record(action.verb(), id, res, warned);
                r
            }
        },
        abandon,
    )
    .await;
    let exit = exit_of(&results);
    summary(ctx, action, &results);
    let rows: Vec<ClubRequest> = results
        .into_iter()
        .filter_map(|(_, o)| match o {
            Outcome::Done(r) => Some(r),
            _ => None,
        })
        .collect();
    (exit, print_requests(ctx.format, &rows, false))
}

/// Sends delete for every id; returns the exit and what printing the deleted ids gave.
async fn send_deletes(
    ctx: &Ctx,
    action: RowAction,
    ids: &[Uuid],
    auditor: &super::Auditor,
    warned: &AtomicBool,
    abandon: impl Fn(Uuid) + Send + Sync + 'static,
) -> (Exit, Result<(), Exit>) {
    let results = bulk(
        ctx,
        ids,
        action.past(),
        |id| {
            let client = ctx.client.clone();
            let (auditor, warned) = (&auditor, &warned);
            async move {
                let r = client.delete_club_request(id).await.map(|_| ());
                let res = r.clone().map_err(|e| super::error_text(&e));
                auditor.record(action.verb(), id, res, warned);
                r
            }
        },
        abandon,
    )
    .await;
    let exit = exit_of(&results);
    summary(ctx, action, &results);
    let done: Vec<Uuid> = results
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Done(())))
        .map(|(id, _)| *id)
        .collect();
    (exit, print_deleted(ctx.format, &done))
}
