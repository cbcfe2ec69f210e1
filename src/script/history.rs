//! `club-admin history`: who decided what, from an audit file, as a table, JSON or CSV.
//! The reading, folding and filtering are `ops::history`'s ([`crate::ops::history`]); this file
//! chooses the file, resolves `--club` through the service and presents the rows.

use std::collections::HashSet;
use std::path::PathBuf;

use super::args::{HistoryArgs, HistoryFormat};
use super::output::{self, Column};
use super::{Ctx, Exit, Host, emit, emit_json, say};
use crate::api::{Levels, RequestFilter};
use crate::config::Flags;
use crate::ops::audit::{AuditLog, FILE_NAME};
use crate::ops::history::{self, End, Filter, Row};

/// Table columns of a history row.
const COLUMNS: [Column; 7] = [
    Column::new("WHEN", 16, 16),
    Column::new("MODERATOR", 10, 40),
    Column::new("ACTION", 6, 11),
    Column::new("TARGET", 8, 36),
    // The longest: "overwritten, settled after a crash".
    Column::new("OUTCOME", 7, 34),
    Column::new("VIA", 3, 30),
    Column::new("DETAIL", 10, 80),
];

/// The audit file `args` name on this machine: `--audit FILE`, the host's `serve-ssh`
/// audit with `--host` (the state folder of the host's config: `--config`, else
/// [`crate::config::HOST_CONFIG`], else [`crate::config::HOST_STATE_DIR`]), else the
/// user's own (`$XDG_STATE_HOME/club-admin/audit.jsonl`). With `--host`, `--club` resolves
/// the club on the service that wrote the host's audit, with its base URL and API key (the
/// token stays the user's own: the environment, `--token-file` or the saved one).
///
/// Errors (in the path): no state directory to find the user's own in; a host config that
/// cannot be read.
pub fn local_audit(args: &HistoryArgs, flags: &Flags) -> super::HistoryAudit {
    let found = |path: Result<PathBuf, String>, flags: Option<Flags>| super::HistoryAudit {
        path,
        shown: None,
        needs_sign_in: false,
        flags,
    };
    if let Some(p) = &args.audit {
        return found(Ok(p.clone()), None);
    }
    if args.host {
        let mut flags = flags.clone();
        if flags.config.is_none() {
            flags.config = Some(PathBuf::from(crate::config::HOST_CONFIG));
        }
        let dir = crate::config::load_file(flags.config.as_deref(), false).map(|(file, _)| {
            file.serve_ssh
                .state_dir
                .unwrap_or_else(|| PathBuf::from(crate::config::HOST_STATE_DIR))
        });
        return found(dir.map(|d| d.join(FILE_NAME)), Some(flags));
    }
    let own = AuditLog::in_state_dir(crate::config::default_state_dir().as_deref())
        .ok_or_else(|| "no state directory (no home): give --audit FILE".to_owned());
    found(own, None)
}

/// The filter of `args`, `--club` left out (it needs the service: [`club_targets`]).
///
/// Errors (in words): a time, an outcome or a request id that cannot be read.
pub fn filter_of(args: &HistoryArgs) -> Result<Filter, String> {
    let now = chrono::Local::now();
    let time = |t: &Option<String>, end| {
        t.as_deref()
            .map(|t| history::parse_time(t, now, end))
            .transpose()
    };
    let mut requests = Vec::new();
    for r in &args.request {
        let (ids, bad) = crate::ops::parse::parse_ids(r);
        if let Some(b) = bad.first() {
            return Err(format!("--request {b:?} is not a request id (a UUID)"));
        }
        requests.extend(ids);
    }
    let outcomes = args
        .outcome
        .iter()
        .map(|o| history::parse_outcome(o))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Filter {
        moderator: args.moderator.clone(),
        targets: None,
        requests,
        outcomes,
        since: time(&args.since, End::Start)?,
        until: time(&args.until, End::End)?,
    })
}

/// The targets of the club `text` (an id or a name, as `requests list --club`): the club
/// itself (its new contacts) and every request to it the service lists, whatever its
/// status.
///
/// Errors (already printed): the configuration, the club or the listing: their exit code.
async fn club_targets(text: &str, host: &dyn Host) -> Result<HashSet<uuid::Uuid>, Exit> {
    let ctx = Ctx::new(host, &Default::default(), true)?;
    let club = super::clubs::resolve_club(&ctx, text).await?;
    let filter = RequestFilter {
        club_ids: vec![club],
        ..RequestFilter::default()
    };
    let rows = super::requests::all_requests(&ctx, &filter, Levels::ID_ONLY)
        .await
        .map_err(|e| {
            say(&format!(
                "could not list the requests of the club {club}: {}",
                super::error_text(&e)
            ));
            Exit::of(&e)
        })?;
    Ok(rows.iter().map(|r| r.id).chain([club]).collect())
}

/// The audit file at `path` (`shown` in messages) read whole; its lines that are not audit
/// lines said and passed over.
///
/// Errors (already printed): a file named (`--audit`, `--host`) that is not there or may not
/// be seen, or one that cannot be read: [`Exit::Failed`].
fn read_audit(
    args: &HistoryArgs,
    path: &std::path::Path,
    shown: &str,
) -> Result<history::History, Exit> {
    // A file named (`--audit`, `--host`) that is not there is an error: a typo, or a host
    // without `serve-ssh`; the user's own missing audit is only a history not begun. One
    // this user may not see (a folder it cannot enter) says so.
    if args.audit.is_some() || args.host {
        match std::fs::metadata(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && args.host => {
                say(&format!(
                    "no audit file at {shown}, where the host's serve-ssh config keeps it; a serve-ssh started by hand writes its audit to its own state folder (its config's state_dir, else $XDG_STATE_HOME/club-admin of the user that ran it): give that file with --audit FILE"
                ));
                return Err(Exit::Failed);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                say(&format!("no audit file at {shown}"));
                return Err(Exit::Failed);
            }
            Err(e) => {
                say(&format!("could not read the audit file {shown}: {e}"));
                return Err(Exit::Failed);
            }
        }
    }
    let read = match history::read(path) {
        Ok(h) => h,
        Err(e) => {
            say(&format!("could not read the audit file {shown}: {e}"));
            return Err(Exit::Failed);
        }
    };
    if read.skipped > 0 {
        say(&format!(
            "{} lines of {shown} are not audit lines: passed over",
            read.skipped
        ));
    }
    Ok(read)
}

/// `club-admin history`: the rows of the audit file that pass the filters, oldest first.
/// Exit 0 (also when none pass: standard error says so on a terminal), 2 for a filter that
/// cannot be read, 1 for a file that cannot be read.
///
/// An audit that needs a signed-in reader (the server's, read over SSH) is read after the
/// service accepts the token, as for any read.
pub async fn run(args: &HistoryArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let audit = host.history_audit(args);
    if audit.needs_sign_in {
        let ctx = Ctx::new(host, &Default::default(), true)?;
        ctx.user_for_writes().await?;
    }
    let path = match audit.path {
        Ok(p) => p,
        Err(e) => {
            say(&e);
            return Ok(Exit::Usage);
        }
    };
    let mut filter = match filter_of(args) {
        Ok(f) => f,
        Err(e) => {
            say(&e);
            return Ok(Exit::Usage);
        }
    };
    if let Some(club) = &args.club {
        let host = audit.flags.as_ref().map_or(host, |f| f as &dyn Host);
        filter.targets = Some(club_targets(club, host).await?);
    }
    let shown = audit.shown.unwrap_or_else(|| path.display().to_string());
    let read = read_audit(args, &path, &shown)?;
    let rows: Vec<Row> = read.rows.into_iter().filter(|r| filter.keeps(r)).collect();
    let out = match args.output() {
        HistoryFormat::Json => return Ok(emit_json(&rows).err().unwrap_or(Exit::Ok)),
        HistoryFormat::Csv => csv(&rows),
        HistoryFormat::Table => {
            if rows.is_empty() {
                say(&format!("no decisions in {shown} pass the filters"));
            }
            let width = super::output::Format::detect(&Default::default());
            let width = match width {
                super::output::Format::Table { width } => width,
                _ => None,
            };
            Ok(table(&rows, width))
        }
    };
    match out {
        Ok(text) => emit(&text).map(|()| Exit::Ok),
        Err(e) => {
            say(&format!("could not write CSV: {e}"));
            Err(Exit::Failed)
        }
    }
}

/// The outcome as a row shows it: the audit's word, `, settled after a crash` for an
/// interrupted run's write settled by a later start.
pub fn outcome_words(r: &Row) -> String {
    match r.settled_after_crash {
        true => format!("{}, settled after a crash", r.outcome.as_str()),
        false => r.outcome.as_str().to_owned(),
    }
}

/// The moderator as a row shows it: the e-mail, else the SSH key's comment, else its
/// fingerprint, else `?`.
fn moderator(r: &Row) -> String {
    r.user
        .clone()
        .or_else(|| r.key_name().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// The front end (`via`) as a row shows it: `ssh (alice@phone)` for a `serve-ssh` write whose key has a
/// comment (two moderators on one account are told apart by their keys), else the front end.
fn via(r: &Row) -> String {
    let face = r.via.clone().unwrap_or_default();
    match &r.key_comment {
        Some(c) => format!("{face} ({c})"),
        None => face,
    }
}

/// The request as a row names it: `#12345 → Robotics Club (1a2b3c4d)` where its line
/// knew the request (as the dashboard's history shows it), else its whole id.
fn target(r: &Row) -> String {
    match &r.label {
        Some(l) => format!("{l} ({})", crate::text::short_id(r.target)),
        None => r.target.to_string(),
    }
}

/// The rows as an aligned table (times in the local zone; cells cut and aligned by display
/// width, so Thai text lines up: [`output::table`]).
pub fn table(rows: &[Row], width: Option<usize>) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let detail = match &r.value {
                Some(v) => v.clone(),
                None => r.detail.clone().unwrap_or_default(),
            };
            vec![
                r.at.with_timezone(&chrono::Local)
                    .format("%Y-%m-%d %H:%M")
                    .to_string(),
                moderator(r),
                r.action.clone(),
                target(r),
                outcome_words(r),
                via(r),
                detail,
            ]
        })
        .collect();
    output::table(&COLUMNS, &cells, width)
}

/// The rows as CSV with a header line (RFC 4180, the `csv` crate): at, settled_at,
/// server, user, key, action, target, value, outcome, settled_after_crash, via, run,
/// detail, key_comment, label, lines, session: the fields of `--format json`, named as
/// there (the later ones added at the end, so a reader of the older columns reads on). Times in RFC 3339 UTC; control characters become spaces.
///
/// Errors: the writer's (never for a `Vec`).
pub fn csv(rows: &[Row]) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "at",
        "settled_at",
        "server",
        "user",
        "key",
        "action",
        "target",
        "value",
        "outcome",
        "settled_after_crash",
        "via",
        "run",
        "detail",
        "key_comment",
        "label",
        "lines",
        "session",
    ])?;
    let time = |t: &crate::api::Timestamp| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let clean = |s: &Option<String>| crate::text::strip_controls(s.as_deref().unwrap_or(""));
    for r in rows {
        w.write_record([
            time(&r.at),
            time(&r.settled_at),
            crate::text::strip_controls(&r.server),
            clean(&r.user),
            clean(&r.key),
            r.action.clone(),
            r.target.to_string(),
            clean(&r.value),
            r.outcome.as_str().to_owned(),
            r.settled_after_crash.to_string(),
            clean(&r.via),
            clean(&r.run),
            clean(&r.detail),
            clean(&r.key_comment),
            clean(&r.label),
            r.lines.to_string(),
            clean(&r.session),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::COLUMNS;
    use crate::ops::audit::Outcome;

    /// Every outcome a row can show, with ", settled after a crash" after it, fits the
    /// table's OUTCOME column whole: no row's outcome is cut.
    #[test]
    fn every_outcome_fits_its_column() {
        let outcome = COLUMNS.iter().find(|c| c.header == "OUTCOME");
        let max = outcome.map_or(0, |c| c.max);
        for o in Outcome::ALL {
            let words = format!("{}, settled after a crash", o.as_str());
            assert!(words.len() <= max, "{words:?} is cut at {max}");
        }
    }
}
