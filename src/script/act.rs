//! `requests approve|decline|delete`: checked before anything is sent (ids, read-only, the
//! server's update route, a delete asked on a terminal), then sent through the core's
//! runner ([`crate::ops::run`]): bounded concurrency, each answer audited, a lost answer
//! re-read until the server's status is known. What is printed, the audit file and the
//! exit code follow the server's truth, never a guess.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;
use uuid::Uuid;

use super::args::ActArgs;
use super::output::{self, Column, Format};
use super::requests::print_requests;
use super::{Ctx, Exit, emit, emit_json, read_ids, say};
use crate::api::{ApiClient, ApiError, ClubRequest, FetchLevel, Levels, Planned, UpdateRoute};
use crate::config::Flags;
use crate::ops::run::{self, Control, DECISION_LEVELS, Verdict};
use crate::ops::{Outcome, RowAction, audit, verdict};

/// What a dry run would send for `id`: the very request a real run sends
/// ([`ApiClient::plan_update`], [`ApiClient::plan_delete`]).
pub fn planned(client: &ApiClient, action: RowAction, id: Uuid) -> Planned {
    match action.status() {
        Some(s) => client.plan_update(id, &s, DECISION_LEVELS),
        None => client.plan_delete(id),
    }
}

/// Prints a dry-run plan (method, URL, body per line; JSON: an array of
/// `{"method","url","body"}`; `--ids`: the targets); nothing is sent.
pub fn print_plan(format: Format, plan: &[(Uuid, Planned)]) -> Result<(), Exit> {
    let body_text = |p: &Planned| p.body.as_ref().map(|b| b.to_string()).unwrap_or_default();
    match format {
        Format::Json => emit_json(&plan.iter().map(|(_, p)| p).collect::<Vec<_>>()),
        Format::Ids => emit(&output::ids(plan.iter().map(|p| p.0))),
        Format::Tsv => emit(&output::tsv(
            &plan
                .iter()
                .map(|(_, p)| vec![p.method.to_owned(), p.url.clone(), body_text(p)])
                .collect::<Vec<_>>(),
        )),
        Format::Table { .. } => {
            let mut out = String::new();
            for (_, p) in plan {
                out.push_str(format!("{} {} {}", p.method, p.url, body_text(p)).trim_end());
                out.push('\n');
            }
            emit(&out)
        }
    }
}

/// Requests named in the delete question before it is asked (the rest are counted).
const DELETE_NAMED: usize = 10;

/// Asks on the terminal before a delete, naming each request as the dashboard's
/// confirmation does: its student and club, read from the server first ([`delete_names`];
/// a request that could not be read is named by its id and why, and the question is still
/// asked). Standard input must be a terminal that did not carry the ids; otherwise `--yes`
/// is required.
async fn confirm_delete(ctx: &Ctx, ids: &[Uuid], from_stdin: bool) -> Result<(), Exit> {
    if from_stdin || !io::stdin().is_terminal() {
        say(
            "delete needs --yes when standard input is not a terminal (or carries the ids): nothing was deleted",
        );
        return Err(Exit::Usage);
    }
    let shown = &ids[..ids.len().min(DELETE_NAMED)];
    // Students' names need the `default` descendant level; a student account asking for
    // students outside its classroom gets 403 for it (api-notes.md), then compact (the
    // school number) names them.
    let named = Levels::new(FetchLevel::Default, FetchLevel::Default);
    let reads = futures::future::join_all(shown.iter().map(|id| async move {
        match ctx.client.club_request(*id, named).await {
            Err(ApiError::Forbidden(_)) => ctx.client.club_request(*id, DECISION_LEVELS).await,
            read => read,
        }
    }))
    .await;
    let mut err = io::stderr().lock();
    for (id, read) in shown.iter().zip(reads) {
        let _ = writeln!(err, "  {}", delete_names(*id, read.map(|r| r.data)));
    }
    if ids.len() > DELETE_NAMED {
        let _ = writeln!(err, "  ... and {} more", ids.len() - DELETE_NAMED);
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

/// One request in the delete question: `ID  STUDENT → CLUB (STATUS)`, the student as
/// `#school number` and name and the club's name in English and Thai as `requests show`
/// prints them (sanitised); a request that could not be read: `ID  (not read: WHY)`.
pub fn delete_names(id: Uuid, read: Result<ClubRequest, ApiError>) -> String {
    match read {
        Ok(r) => {
            let cells = super::requests::table_cells(&r);
            let cell = |i: usize| {
                cells
                    .get(i)
                    .map(|c| crate::text::clean(c, 60))
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(|| "?".to_owned())
            };
            format!("{id}  {} → {} ({})", cell(4), cell(3), cell(1))
        }
        Err(e) => format!("{id}  (not read: {})", super::error_text(&e)),
    }
}

/// Approve and decline need the update route (0.8.x; 0.9.0 has none, api-notes.md): asked
/// once before anything is sent ([`ApiClient::probe_update_route`], which changes nothing).
/// A server without it, or one that refuses it to this account's role, is one sentence and
/// no write. A probe that could not be answered lets the run go on: each answer tells.
async fn check_update_route(ctx: &Ctx) -> Result<(), Exit> {
    // The probe changes nothing, so a fault on the way is tried again (1 s, 2 s).
    let mut answer = ctx.client.probe_update_route().await;
    for attempt in 0..2 {
        match &answer {
            Err(e) if e.is_transient() || verdict::answer_lost(e) => {
                tokio::time::sleep(verdict::settle_backoff(attempt)).await;
                answer = ctx.client.probe_update_route().await;
            }
            _ => break,
        }
    }
    match answer {
        Ok(UpdateRoute::Missing) => {
            say("this server cannot approve or decline: it has no update route (nothing was sent)");
            Err(Exit::Unavailable)
        }
        Ok(UpdateRoute::RoleRefused { detail }) => {
            say(&format!(
                "this account cannot approve or decline: {} (nothing was sent)",
                crate::text::clean(&detail, 200)
            ));
            Err(Exit::Failed)
        }
        Ok(UpdateRoute::Present) => Ok(()),
        Err(e) if e.needs_sign_in() || matches!(e, ApiError::Unauthorized { .. }) => {
            super::report(None, &e);
            super::hint(&ctx.client, &e);
            Err(Exit::of(&e))
        }
        Err(e) => {
            tracing::warn!("the update-route probe was not answered: {e}");
            Ok(())
        }
    }
}

/// `requests approve|decline|delete`: ids checked, read-only refused, the update route
/// asked (approve, decline) and (for delete) the user asked before anything is sent; then
/// every id through [`run::decide`] with bounded concurrency. Prints what the server shows
/// as done (approve/decline: the requests; delete: the deleted ids); every other outcome is
/// one line on standard error. The exit code is the worst outcome ([`Exit`]): 0 when every
/// write is applied, 4 when an outcome stayed unknown.
pub async fn act(action: RowAction, args: &ActArgs, yes: bool, flags: &Flags) -> Exit {
    let (ids, from_stdin) = match read_ids(&args.targets) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if ids.is_empty() {
        // An empty pipe (`... --ids | club-admin requests approve -` on a quiet night).
        say("nothing to do: no ids on standard input");
        if args.common.out.json {
            return emit("[]\n").err().unwrap_or(Exit::Ok);
        }
        return Exit::Ok;
    }
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
        && let Err(e) = confirm_delete(&ctx, &ids, from_stdin).await
    {
        return e;
    }
    let user = match ctx.user_for_writes().await {
        Ok(u) => u,
        Err(e) => return e,
    };
    if action.needs_update_route()
        && let Err(e) = check_update_route(&ctx).await
    {
        if ctx.format == Format::Json {
            let _ = emit("[]\n");
        }
        return e;
    }
    let control = Control::default();
    let (ids, left_out) = skip_decided(&ctx, action, ids, &control).await;
    let (results, audit_warned) = send_all(&ctx, &user, action, &ids, control).await;
    summary(&ctx, action, &results);
    let mut exit = exit_of(&results);
    if left_out {
        exit = exit.and(Exit::Failed);
    }
    if audit_warned {
        exit = exit.and(Exit::Failed);
    }
    let printed = print_results(ctx.format, action, &results);
    exit.and(printed.err().unwrap_or(Exit::Ok))
}

/// Requests the server already shows decided (approve, decline) are not sent: the server
/// would refuse them, and a lost answer re-read as decided must be this run's own; nor are
/// requests whose status could not be read first ([`run::undecided`]). Each left out is said
/// on standard error. Returns the ids to send, and whether any was left out.
async fn skip_decided(
    ctx: &Ctx,
    action: RowAction,
    ids: Vec<Uuid>,
    control: &Control,
) -> (Vec<Uuid>, bool) {
    let split = run::undecided(&ctx.client, action, ids, control).await;
    for (id, status) in &split.already {
        say(&format!("{id}: already {status}: not sent"));
    }
    for (id, why) in &split.unread {
        say(&format!(
            "{id}: not sent: its status could not be read first ({why}); try it again"
        ));
    }
    let left_out = !split.already.is_empty() || !split.unread.is_empty();
    (split.send, left_out)
}

/// Prints what the server shows as done: the requests (approve, decline) or the deleted ids.
fn print_results(
    format: Format,
    action: RowAction,
    results: &[(Uuid, Option<Verdict>)],
) -> Result<(), Exit> {
    match action {
        RowAction::Delete => print_deleted(format, &applied_ids(results)),
        _ => {
            let rows: Vec<ClubRequest> = results
                .iter()
                .filter_map(|(_, v)| v.as_ref())
                .filter(|v| v.outcome() == Outcome::Ok)
                .filter_map(|v| v.request().cloned())
                .collect();
            print_requests(format, &rows, false)
        }
    }
}

/// Sends the decision to every id through the core's runner, each answer audited and a lost
/// one settled ([`run::decide`]), with the progress bar and Ctrl-C; returns the verdicts
/// (`None`: not sent, said on standard error) and whether an audit line could not be written.
async fn send_all(
    ctx: &Ctx,
    user: &crate::api::User,
    action: RowAction,
    ids: &[Uuid],
    control: Control,
) -> (Vec<(Uuid, Option<Verdict>)>, bool) {
    let log = ctx.audit_log(Some(user));
    let bar = ctx.progress(ids.len(), action.past());
    let watcher = watch_ctrl_c(control.clone(), log.clone(), bar.clone());
    let audit_warned = AtomicBool::new(false);
    let audit_failed = |e: String| {
        if !audit_warned.swap(true, Ordering::SeqCst) {
            say(&e);
        }
    };
    let run = run::Decisions {
        client: &ctx.client,
        log: &log,
        action,
        limit: ctx.settings.concurrency,
        control: &control,
    };
    let results = run
        .send(ids, &audit_failed, |id, v| {
            bar.inc(1);
            ctx.show_pace(&bar);
            if let Some(v) = v {
                bar.suspend(|| tell(action, id, v));
            }
        })
        .await;
    watcher.abort();
    bar.finish_and_clear();
    for (id, v) in &results {
        if v.is_none() {
            say(&format!("{id}: not sent (the run stopped early)"));
        }
    }
    (results, audit_warned.load(Ordering::SeqCst))
}

/// One line on standard error for a verdict that is not a plain success: the server's
/// refusal, a lost answer and what the re-read showed, or an outcome still unknown.
fn tell(action: RowAction, id: Uuid, v: &Verdict) {
    match v {
        Verdict::Done(_) => {}
        Verdict::Refused(e) if verdict::not_sent(e) => {
            say(&format!("{id}: not sent: {}", super::error_text(e)))
        }
        Verdict::Refused(e) => super::report(Some(&id), e),
        // Applied after all: the output and the audit file say so; nothing to warn about.
        Verdict::Settled { found, .. } if found.applied() => {}
        _ => say(&format!("{id}: {}", v.english(action))),
    }
}

/// The ids the server shows as done (confirmed, settled as applied, or already decided so by
/// someone else).
fn applied_ids(results: &[(Uuid, Option<Verdict>)]) -> Vec<Uuid> {
    results
        .iter()
        .filter(|(_, v)| {
            v.as_ref()
                .is_some_and(|v| matches!(v.outcome(), Outcome::Ok | Outcome::Already))
        })
        .map(|(id, _)| *id)
        .collect()
}

/// The exit code of a run: the worst of its verdicts. Applied (confirmed or settled) is 0;
/// refused is [`Exit::of`] its error; settled as not applied or not sent is 1; an outcome
/// still unknown is [`Exit::Unknown`].
pub fn exit_of(results: &[(Uuid, Option<Verdict>)]) -> Exit {
    results.iter().fold(Exit::Ok, |acc, (_, v)| match v {
        None => acc.and(Exit::Failed),
        Some(Verdict::Refused(e)) => acc.and(Exit::of(e)),
        Some(v) => acc.and(match v.outcome() {
            // Someone else made the same decision first: the request is as asked.
            Outcome::Ok | Outcome::Already => Exit::Ok,
            Outcome::Unknown => Exit::Unknown,
            _ => Exit::Failed,
        }),
    })
}

/// Watches for Ctrl-C during a run: the first sends nothing more (the answers in flight
/// and the re-reads of lost answers go on); the second stops waiting, audits `unknown`
/// for every write still without an answer and leaves with code 130.
fn watch_ctrl_c(
    control: Control,
    log: audit::AuditLog,
    bar: indicatif::ProgressBar,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        control.stop();
        bar.suspend(|| {
            say("interrupted: nothing more is sent; waiting for the answers in flight (Ctrl-C again to leave now)")
        });
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        control.give_up();
        for (id, verb) in control.in_flight() {
            let entry = log.entry(
                chrono::Utc::now(),
                verb,
                id,
                Outcome::Unknown,
                Some(audit::abandoned_detail()),
            );
            let _ = log.write(&entry);
            say(&format!(
                "{id}: {verb} sent, no answer seen: outcome unknown"
            ));
        }
        say("interrupted again: leaving without the answers in flight");
        std::process::exit(130);
    })
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

/// One line on a terminal's standard error: how many of how many, and what else happened.
fn summary(ctx: &Ctx, action: RowAction, results: &[(Uuid, Option<Verdict>)]) {
    if !ctx.stderr_tty {
        return;
    }
    let count = |o: Outcome| {
        results
            .iter()
            .filter(|(_, v)| v.as_ref().is_some_and(|v| v.outcome() == o))
            .count()
    };
    let (done, failed, unknown) = (
        count(Outcome::Ok),
        count(Outcome::Failed),
        count(Outcome::Unknown),
    );
    let not_sent = results.iter().filter(|(_, v)| v.is_none()).count();
    let mut line = format!("{} {done} of {}", action.past(), results.len());
    if failed > 0 {
        line.push_str(&format!(", {failed} failed"));
    }
    if unknown > 0 {
        line.push_str(&format!(", {unknown} outcome unknown"));
    }
    if not_sent > 0 {
        line.push_str(&format!(", {not_sent} not sent"));
    }
    say(&line);
}

/// `--dry-run`: says what would be sent, sends nothing.
fn dry_run(ctx: &Ctx, action: RowAction, ids: &[Uuid]) -> Exit {
    let plan: Vec<(Uuid, Planned)> = ids
        .iter()
        .map(|id| (*id, planned(&ctx.client, action, *id)))
        .collect();
    say(&format!(
        "dry run: nothing was sent ({} request{} would be {})",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" },
        action.past()
    ));
    print_plan(ctx.format, &plan).err().unwrap_or(Exit::Ok)
}
