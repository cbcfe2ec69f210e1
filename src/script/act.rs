//! `requests approve|decline|delete`: checked before anything is sent (ids, read-only, the
//! server's update route, a delete asked on a terminal), then sent through the shared
//! runner ([`crate::ops::run`]): bounded concurrency, each answer audited, a lost answer
//! re-read until the server's status is known. What is printed, the audit file and the
//! exit code follow the server's truth, never a guess.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;
use uuid::Uuid;

use super::Host;
use super::args::ActArgs;
use super::output::{self, Column, Format};
use super::requests::print_requests;
use super::{Ctx, Exit, emit, emit_json, read_ids, say, stdio};
use crate::api::{ApiClient, ApiError, ClubRequest, FetchLevel, Levels, Planned, UpdateRoute};
use crate::ops::run::{self, Control, DECISION_LEVELS, Verdict};
use crate::ops::{Outcome, RowAction, decision};

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

/// Prints a dry run's verdict per id, and one line on standard error (nothing was sent; how
/// many would be). Table: `ID  would send  METHOD URL BODY` or `ID  not sent  WHY`; TSV:
/// the same fields tab-separated; JSON: an array of `{"id", "would_send": true, "method",
/// "url", "body"}` or `{"id", "would_send": false, "reason"}`; `--ids`: the ids that would
/// be sent.
pub fn print_dry_run(
    ctx: &Ctx,
    action: RowAction,
    plan: &[(Uuid, Result<Planned, String>)],
) -> Result<(), Exit> {
    let sent = plan.iter().filter(|(_, p)| p.is_ok()).count();
    say(&format!(
        "dry run: nothing was sent ({sent} of {} request{} would be {}{})",
        plan.len(),
        if plan.len() == 1 { "" } else { "s" },
        action.past(),
        if sent < plan.len() {
            format!(", {} not sent", plan.len() - sent)
        } else {
            String::new()
        }
    ));
    let body_text = |p: &Planned| p.body.as_ref().map(|b| b.to_string()).unwrap_or_default();
    let fields = |id: &Uuid, step: &Result<Planned, String>| match step {
        Ok(p) => vec![
            id.to_string(),
            "would send".to_owned(),
            p.method.to_owned(),
            p.url.clone(),
            body_text(p),
        ],
        Err(why) => vec![id.to_string(), "not sent".to_owned(), why.clone()],
    };
    match ctx.format {
        Format::Json => emit_json(
            &plan
                .iter()
                .map(|(id, step)| match step {
                    Ok(p) => json!({"id": id, "would_send": true, "method": p.method, "url": p.url, "body": p.body}),
                    Err(why) => json!({"id": id, "would_send": false, "reason": why}),
                })
                .collect::<Vec<_>>(),
        ),
        Format::Ids => emit(&output::ids(
            plan.iter().filter(|(_, p)| p.is_ok()).map(|(id, _)| *id),
        )),
        Format::Tsv => emit(&output::tsv(
            &plan.iter().map(|(id, p)| fields(id, p)).collect::<Vec<_>>(),
        )),
        Format::Table { .. } => {
            let mut out = String::new();
            for (id, step) in plan {
                let line = fields(id, step).join("  ");
                out.push_str(crate::text::sanitize(&line).trim_end());
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
    if from_stdin || !stdio::streams().terminals()[0] {
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
    let mut question = String::new();
    for (id, read) in shown.iter().zip(reads) {
        question.push_str(&format!("  {}\n", delete_names(*id, read.map(|r| r.data))));
    }
    if ids.len() > DELETE_NAMED {
        question.push_str(&format!("  ... and {} more\n", ids.len() - DELETE_NAMED));
    }
    question.push_str(&format!(
        "Delete {} club request{}? This cannot be undone. [y/N] ",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" }
    ));
    stdio::streams().write_err(question.as_bytes());
    let answer = stdio::streams().read_line().await;
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
/// once before anything is sent, by `ops::run` ([`run::update_route`], which changes nothing).
/// A server without it, or one that refuses it to this account's role, is one sentence and
/// no write. A probe that could not be answered lets the run go on: each answer tells.
///
/// Errors (already said on standard error): the exit code and, for a dry run's lines, why
/// nothing would be sent.
async fn check_update_route(ctx: &Ctx, control: &Control, dry: bool) -> Result<(), (Exit, String)> {
    match run::update_route(&ctx.client, control).await {
        Ok(UpdateRoute::Missing) => {
            let why = "this server cannot approve or decline: it has no update route";
            say(&format!("{why} (nothing was sent)"));
            Err((Exit::Unavailable, why.to_owned()))
        }
        Ok(UpdateRoute::RoleRefused { detail }) => {
            let why = format!(
                "this account cannot approve or decline: {}",
                crate::text::clean(&detail, 200)
            );
            say(&format!("{why} (nothing was sent)"));
            Err((Exit::Failed, why))
        }
        Ok(UpdateRoute::Present) => Ok(()),
        Err(e) if e.needs_sign_in() || matches!(e, ApiError::Unauthorized { .. }) => {
            super::report(None, &e);
            super::hint(ctx, &e);
            Err((Exit::of(&e), super::error_text(&e)))
        }
        Err(e) => {
            tracing::warn!("the update-route probe was not answered: {e}");
            if dry {
                say(&format!(
                    "the server did not say whether this account can approve or decline ({}): a run would learn it from its first answer",
                    super::error_text(&e)
                ));
            }
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
///
/// `--dry-run` goes the same way up to the first write: the same checks and reads (the
/// signed-in user, the update route, each request's status, by the same core code), then
/// prints per id what the run would do ([`print_dry_run`]) with the exit code the run would
/// have up to its writes; nothing is written, nothing audited, nothing asked.
pub async fn act(
    action: RowAction,
    args: &ActArgs,
    yes: bool,
    host: &dyn Host,
) -> Result<Exit, Exit> {
    // Interrupted while its input is read (over SSH: the time limit, with an input that
    // never ends), the run leaves at once: nothing was sent, no answer is awaited.
    let reading = nothing_sent_on_ctrl_c(crate::i18n::Lang::English);
    let read = read_ids(&args.targets, host).await;
    reading.abort();
    let (ids, from_stdin) = read?;
    if ids.is_empty() {
        // An empty pipe (`... --ids | club-admin requests approve -` on a quiet night).
        say("nothing to do: no ids on standard input");
        if args.common.out.json {
            return emit("[]\n").map(|()| Exit::Ok);
        }
        return Ok(Exit::Ok);
    }
    let ctx = Ctx::new(host, &args.common.out, true)?;
    let dry = args.dry_run;
    // Every reason the run stops before its writes: a dry run prints it per id.
    let stopped = |exit: Exit, why: &str| {
        if dry {
            let plan: Vec<(Uuid, Result<Planned, String>)> =
                ids.iter().map(|id| (*id, Err(why.to_owned()))).collect();
            return exit.and(print_dry_run(&ctx, action, &plan).err().unwrap_or(Exit::Ok));
        }
        exit
    };
    if let Err(e) = ctx.check_writable(action.verb()) {
        return Ok(stopped(e, "read-only mode"));
    }
    // Until the first write goes out (the delete question, the reads), Ctrl-C leaves at
    // once, saying nothing was sent.
    let quiet = nothing_sent_on_ctrl_c(ctx.settings.lang);
    // Who is signed in, and whether the service lets that account make this write at all,
    // before anything is asked or sent.
    let user = match ctx.user_for_writes().await {
        Ok(u) => u,
        Err(e) => return Ok(stopped(e, "the signed-in user could not be read")),
    };
    let write = crate::ops::permit::Write::of(action);
    let target = crate::ops::permit::Target::default();
    if let Err((e, why)) = Ctx::refuse_unpermitted(&user, write, action.verb(), target) {
        if ctx.format == Format::Json && !dry {
            let _ = emit("[]\n");
        }
        return Ok(stopped(e, &why));
    }
    if action == RowAction::Delete && !yes && !dry {
        confirm_delete(&ctx, &ids, from_stdin).await?;
    }
    let control = Control::default();
    if action.needs_update_route()
        && let Err((e, why)) = check_update_route(&ctx, &control, dry).await
    {
        if ctx.format == Format::Json && !dry {
            let _ = emit("[]\n");
        }
        return Ok(stopped(e, &why));
    }
    let split = split_permitted(&ctx, &user, action, &ids, &control).await;
    if dry {
        quiet.abort();
        return Ok(dry_run(&ctx, action, &ids, &split));
    }
    skip_decided(&split);
    ctx.settle_interrupted(&control).await;
    quiet.abort();
    let sent = send_all(&ctx, &user, action, &split, control.clone()).await;
    Ok(finish_run(&ctx, &user, action, &split, sent, &control).await)
}

/// After the writes: the run's summary, the re-read of what it applied
/// ([`report_overwritten`]), the results printed; the exit code.
async fn finish_run(
    ctx: &Ctx,
    user: &crate::api::User,
    action: RowAction,
    split: &run::Undecided,
    (results, audit_warned): (Vec<(Uuid, Option<Verdict>)>, bool),
    control: &Control,
) -> Exit {
    let results = &results[..];
    summary(ctx, action, results);
    let mut exit = Exit::of_run(split, action, results);
    if audit_warned {
        exit = exit.and(Exit::Failed);
    }
    exit = exit.and(report_overwritten(ctx, user, action, results, control).await);
    let printed = print_results(ctx.format, action, results);
    exit.and(printed.err().unwrap_or(Exit::Ok))
}

/// Re-reads once what the run applied (one listing of their ids:
/// [`run::overwritten_since`]); each one the server shows decided the other way since is
/// audited `overwritten` (a line of its write, with the status read) and said ("ID:
/// approved, then overwritten: declined since"), and counted ("2 overwritten since"): exit
/// 1. Exit 0 when none was.
async fn report_overwritten(
    ctx: &Ctx,
    user: &crate::api::User,
    action: RowAction,
    results: &[(Uuid, Option<Verdict>)],
    control: &Control,
) -> Exit {
    let applied: Vec<Uuid> = results
        .iter()
        .filter(|(_, v)| v.as_ref().is_some_and(|v| v.outcome() == Outcome::Ok))
        .map(|(id, _)| *id)
        .collect();
    let over = run::overwritten_since(&ctx.client, action, &applied, control).await;
    if over.is_empty() {
        return Exit::Ok;
    }
    let log = ctx.audit_log(Some(user));
    for (id, status) in &over {
        let detail = decision::overwritten_detail(status);
        let line = log.entry(
            chrono::Utc::now(),
            action.verb(),
            *id,
            Outcome::Overwritten,
            Some(detail.clone()),
        );
        if let Err(e) = log.write(&line).await {
            say(&e);
        }
        say(&format!("{id}: {}, then {detail}", action.past()));
    }
    say(&format!("{} overwritten since", over.len()));
    Exit::Failed
}

/// The requests of a run split before it is sent ([`run::undecided`]), and, row by row,
/// the service's rules for a student ([`run::permitted`]: a club it staffs, its own
/// request): what the run sends and what its dry run says, alike.
async fn split_permitted(
    ctx: &Ctx,
    user: &crate::api::User,
    action: RowAction,
    ids: &[Uuid],
    control: &Control,
) -> run::Undecided {
    let mut split = run::undecided(&ctx.client, action, ids.to_vec(), control).await;
    let staffed = match action != RowAction::Delete && crate::ops::permit::is_student(user) {
        true => super::requests::my_clubs(ctx).await.ok().flatten(),
        false => None,
    };
    run::permitted(
        &ctx.client,
        action,
        &mut split,
        user,
        staffed.as_deref(),
        control,
    )
    .await;
    split
}

/// Until it is aborted, a Ctrl-C (over SSH also the time limit, said as such:
/// `cli-time-limit-nothing-sent`) ends the process with code 130 and one line in the
/// reader's language (`cli-interrupted-nothing-sent`): nothing was sent yet (the ids read,
/// reads, and the update-route probe, which changes nothing). Abort it just before the
/// first write.
pub fn nothing_sent_on_ctrl_c(lang: crate::i18n::Lang) -> tokio::task::JoinHandle<()> {
    stdio::spawn(async move {
        if stdio::Interrupts::default().next().await {
            // A line of its own, also after a question left unanswered on the terminal.
            stdio::streams().write_err(b"\n");
            let words = match stdio::streams().past_time_limit() {
                true => "cli-time-limit-nothing-sent",
                false => "cli-interrupted-nothing-sent",
            };
            say(&crate::i18n::tr(lang, words));
            stdio::streams().leave(super::exit::INTERRUPTED);
        }
    })
}

/// Requests the server already shows decided (approve, decline) are not sent: the server
/// would refuse them, and a lost answer re-read as decided must be this run's own; nor are
/// requests whose status could not be read first ([`run::undecided`]). Each left out is said
/// on standard error.
fn skip_decided(split: &run::Undecided) {
    for id in &split.missing {
        say(&format!("{id}: not sent: {}", run::NO_SUCH_REQUEST));
    }
    no_such_count(split);
    for (id, status) in &split.already {
        say(&format!("{id}: already {status}: not sent"));
    }
    for (id, why) in &split.unread {
        say(&format!(
            "{id}: not sent: its status could not be read first ({why}); try it again"
        ));
    }
    for (id, why) in &split.refused {
        say(&format!("{id}: {why}; not sent"));
    }
}

/// Counts the requests the server does not know, once, after their own lines ("3 not
/// sent: no such request"); nothing when there are none.
fn no_such_count(split: &run::Undecided) {
    if !split.missing.is_empty() {
        say(&format!(
            "{} not sent: {}",
            split.missing.len(),
            run::NO_SUCH_REQUEST
        ));
    }
}

/// Prints what the server shows as done: the requests (approve, decline) or the deleted ids.
fn print_results(
    format: Format,
    action: RowAction,
    results: &[(Uuid, Option<Verdict>)],
) -> Result<(), Exit> {
    match action {
        RowAction::Delete => print_deleted(format, &applied_ids(results)),
        RowAction::Approve | RowAction::Decline | RowAction::AddContact => {
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

/// Sends the decision to every id `split` sends through the shared runner, each answer audited and a lost
/// one settled ([`run::decide`]), with the progress bar and Ctrl-C; returns the verdicts
/// (`None`: not sent, said on standard error) and whether an audit line could not be written.
async fn send_all(
    ctx: &Ctx,
    user: &crate::api::User,
    action: RowAction,
    split: &run::Undecided,
    control: Control,
) -> (Vec<(Uuid, Option<Verdict>)>, bool) {
    let ids = &split.send;
    // Each request's lines name it as its pre-read showed it.
    let log = crate::ops::AuditLog {
        labels: std::sync::Arc::new(split.labels.clone()),
        ..ctx.audit_log(Some(user))
    };
    let bar = ctx.progress(ids.len(), action.past());
    let watcher = watch_ctrl_c(control.clone(), bar.clone());
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
        Verdict::Refused(e) if decision::not_sent(e) => {
            say(&format!("{id}: not sent: {}", super::error_text(e)))
        }
        Verdict::Refused(e) => super::report(Some(&id), e),
        // Applied after all: the output and the audit file say so; nothing to warn about.
        Verdict::Settled { found, .. } if found.applied() => {}
        Verdict::Settled { .. } | Verdict::Already { .. } | Verdict::Unknown { .. } => {
            say(&format!("{id}: {}", v.english(action)))
        }
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

/// Watches for Ctrl-C during a run: the first sends nothing more (the answers in flight
/// and the re-reads of lost answers go on); the second stops waiting: every write still
/// without an answer is audited `unknown` by its own decision ([`crate::ops::run::decide`]),
/// and the run leaves with code 130 once those lines are in the file.
fn watch_ctrl_c(control: Control, bar: indicatif::ProgressBar) -> tokio::task::JoinHandle<()> {
    stdio::spawn(async move {
        let mut interrupts = stdio::Interrupts::default();
        if !interrupts.next().await {
            return;
        }
        control.stop();
        // Past the server's time limit, the server has said why already.
        if !stdio::streams().past_time_limit() {
            bar.suspend(|| {
                say(match stdio::streams().can_press_ctrl_c() {
                true => "interrupted: nothing more is sent; waiting for the answers in flight (Ctrl-C again to leave now)",
                false => "interrupted: nothing more is sent; waiting for the answers in flight",
            })
            });
        }
        if !interrupts.next().await {
            return;
        }
        // Each write still waiting for its answer stops waiting, and its decision writes
        // its `unknown` line (awaited in the file) before it leaves the writes in flight.
        control.give_up();
        let waited = tokio::time::Instant::now();
        while !control.in_flight().is_empty()
            && waited.elapsed() < std::time::Duration::from_secs(2)
        {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        for (id, verb) in control.in_flight() {
            say(&format!(
                "{id}: {verb} sent, no answer seen: outcome unknown"
            ));
        }
        let _ = crate::ops::writer::Writer::process().written().await;
        say(match stdio::streams().past_time_limit() {
            true => "still waiting past the time limit: leaving without the answers in flight",
            false => "interrupted again: leaving without the answers in flight",
        });
        stdio::streams().leave(super::exit::INTERRUPTED);
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

/// `--dry-run` after the run's reads: per id, the request the run would send (the very
/// request, [`planned`]) or why it would not (`split`, the shared [`run::undecided`]); the
/// exit code the run would have before its writes (1 when one left out fails the run:
/// [`run::Undecided::fails`]; else 0).
fn dry_run(ctx: &Ctx, action: RowAction, ids: &[Uuid], split: &run::Undecided) -> Exit {
    let plan: Vec<(Uuid, Result<Planned, String>)> = ids
        .iter()
        .map(|id| {
            let step = match split.why_left_out(*id) {
                Some(why) => Err(why),
                None => Ok(planned(&ctx.client, action, *id)),
            };
            (*id, step)
        })
        .collect();
    let exit = if split.fails(action) {
        Exit::Failed
    } else {
        Exit::Ok
    };
    no_such_count(split);
    exit.and(print_dry_run(ctx, action, &plan).err().unwrap_or(Exit::Ok))
}
