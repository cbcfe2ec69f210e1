//! `club-admin stats`: the term's figures ([`crate::ops::stats`]) as a table with Unicode
//! bars, or `--json`. The scope is read from the service (every status, request at
//! `default`, club and student at `compact`: the smallest levels that carry a request's
//! time, club and status), the decisions from the audit (the user's own, `--audit FILE`,
//! or over SSH the host's).

use uuid::Uuid;

use super::Host;
use super::args::{ScopeArgs, StatsArgs};
use super::output::{self, Column};
use super::{Ctx, Exit, emit, emit_json, hint, report, say};
use crate::api::RequestFilter;
use crate::ops::stats::{Figures, Wait, bar, sparkline};

/// The listing filter of `scope`, every status: the clubs named (resolved through the
/// service), or the user's own with `--mine`. `Ok(None)`: `--mine` and the user is on no
/// club's staff (said on standard error): nothing is in scope.
///
/// Errors (already printed): a club that cannot be resolved, the user or their clubs that
/// cannot be read.
pub async fn scope_filter(ctx: &Ctx, scope: &ScopeArgs) -> Result<Option<RequestFilter>, Exit> {
    let mut club_ids: Vec<Uuid> = Vec::new();
    for c in &scope.clubs {
        let id = super::clubs::resolve_club(ctx, c).await?;
        if !club_ids.contains(&id) {
            club_ids.push(id);
        }
    }
    if scope.mine {
        match super::requests::my_clubs(ctx).await {
            Ok(Some(ids)) if ids.is_empty() => {
                say("you are not on the staff of any club: no requests are yours");
                return Ok(None);
            }
            Ok(Some(ids)) => club_ids = ids,
            Ok(None) => {}
            Err(e) => {
                report(None, &e);
                hint(ctx, &e);
                return Err(Exit::of(&e));
            }
        }
    }
    Ok(Some(RequestFilter {
        club_ids,
        year: scope.year,
        ..RequestFilter::default()
    }))
}

/// The run's context (the configuration, the client) and the listing filter of `scope`
/// ([`scope_filter`]), for `stats` and `requests watch`.
///
/// Errors (already printed): as [`Ctx::new`] and [`scope_filter`].
pub(super) async fn scoped(
    host: &dyn Host,
    scope: &ScopeArgs,
) -> Result<(Ctx, Option<RequestFilter>), Exit> {
    let ctx = Ctx::new(host, &Default::default(), true)?;
    let filter = scope_filter(&ctx, scope).await?;
    Ok((ctx, filter))
}

/// `club-admin stats`.
pub async fn run(args: &StatsArgs, host: &dyn Host) -> Result<Exit, Exit> {
    let (ctx, filter) = scoped(host, &args.scope).await?;
    let read = match &filter {
        Some(f) => super::requests::all_requests(&ctx, f, crate::ops::stats::LEVELS).await,
        None => Ok(Vec::new()),
    };
    let requests = match read {
        Ok(r) => r,
        Err(e) => {
            report(None, &e);
            hint(&ctx, &e);
            return Ok(Exit::of(&e));
        }
    };
    let rows = audit_rows(args, host);
    let offset = *chrono::Local::now().offset();
    let figures = crate::ops::stats::figures(
        &requests,
        rows.as_deref(),
        Some(ctx.client.base_url()),
        offset,
    );
    let done = if args.json {
        emit_json(&figures)
    } else {
        let width = super::stdio::streams().terminal_width();
        emit(&table(&figures, width))
    };
    done.map(|()| Exit::Ok)
}

/// The audit's rows, `None` (said on standard error) when there is no audit to read.
fn audit_rows(args: &StatsArgs, host: &dyn Host) -> Option<Vec<crate::ops::history::Row>> {
    let history_args = super::HistoryArgs {
        audit: args.audit.clone(),
        ..Default::default()
    };
    let path = match host.history_audit(&history_args).path {
        Ok(p) => p,
        Err(e) => {
            say(&format!("decisions unknown: {e}"));
            return None;
        }
    };
    if !path.exists() {
        say(&format!(
            "decisions unknown: no audit at {} (only this host's decisions are audited)",
            path.display()
        ));
        return None;
    }
    match crate::ops::history::read(&path) {
        Ok(h) => Some(h.rows),
        Err(e) => {
            say(&format!(
                "decisions unknown: could not read {}: {e}",
                path.display()
            ));
            None
        }
    }
}

/// A wait in the largest two units: `45s`, `12m`, `3h 20m`, `2d 4h`.
pub fn duration(secs: i64) -> String {
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{secs}s"),
        (0, 0, m) => format!("{m}m"),
        (0, h, m) => format!("{h}h {m}m"),
        (d, 0, _) => format!("{d}d"),
        (d, h, _) => format!("{d}d {h}h"),
    }
}

fn wait_text(w: Option<Wait>) -> (String, String) {
    match w {
        Some(w) => (duration(w.median_s), duration(w.p90_s)),
        None => ("-".into(), "-".into()),
    }
}

/// The club's name in English, else in Thai, else its id (`--json` has both names).
pub fn club_name(c: &crate::ops::stats::ClubFigures) -> String {
    let known = |n: &Option<String>| n.clone().filter(|s| !s.trim().is_empty());
    known(&c.name_en)
        .or_else(|| known(&c.name_th))
        .unwrap_or_else(|| c.id.to_string())
}

/// The figures as text: the totals, pending per club with bars, arrivals and decisions per
/// day (the last 14 days as rows, the whole term as one line), each moderator's decisions;
/// every line at most `width` cells when known (80 otherwise for the bars).
pub fn table(f: &Figures, width: Option<usize>) -> String {
    let w = width.unwrap_or(100).max(40);
    let mut out = format!(
        "{} requests: {} pending, {} approved, {} declined\n",
        f.requests, f.pending, f.approved, f.declined
    );
    if let Some(wait) = f.wait {
        out.push_str(&format!(
            "wait for a decision: median {}, 90th percentile {} ({} decisions audited)\n",
            duration(wait.median_s),
            duration(wait.p90_s),
            wait.decided
        ));
    }
    out.push('\n');
    out.push_str(&clubs_table(f, width));
    out.push('\n');
    out.push_str(&days_text(f, w));
    out.push('\n');
    out.push_str(&moderators_text(f, width));
    out
}

fn clubs_table(f: &Figures, width: Option<usize>) -> String {
    let max = f.clubs.iter().map(|c| c.pending).max().unwrap_or(0);
    let bar_cells = width.map_or(20, |w| (w / 6).clamp(6, 20));
    let columns = [
        Column::new("CLUB", 12, 40),
        Column::new("PENDING", 7, 7),
        Column::new("", bar_cells, bar_cells),
        Column::new("APPROVED", 4, 8),
        Column::new("DECLINED", 4, 8),
        Column::new("WAIT", 4, 9),
        Column::new("P90", 4, 9),
    ];
    let rows: Vec<Vec<String>> = f
        .clubs
        .iter()
        .map(|c| {
            let (median, p90) = wait_text(c.wait);
            vec![
                club_name(c),
                c.pending.to_string(),
                bar(c.pending, max, bar_cells),
                c.approved.to_string(),
                c.declined.to_string(),
                median,
                p90,
            ]
        })
        .collect();
    output::table(&columns, &rows, width)
}

fn days_text(f: &Figures, width: usize) -> String {
    let mut out = String::new();
    let arrivals: Vec<u64> = f.arrivals.iter().map(|d| d.requests).collect();
    if let (Some(first), Some(last)) = (f.arrivals.first(), f.arrivals.last()) {
        out.push_str(&format!(
            "requests per day, {} to {}:\n{}\n",
            first.day,
            last.day,
            sparkline(&arrivals, width.saturating_sub(2))
        ));
    }
    let max = f.arrivals.iter().map(|d| d.requests).max().unwrap_or(0);
    let cells = width.saturating_sub(20).clamp(5, 40);
    for d in f.arrivals.iter().rev().take(14).rev() {
        out.push_str(&format!(
            "{}  {:>4} {}\n",
            d.day,
            d.requests,
            bar(d.requests, max, cells)
        ));
    }
    if !f.audited {
        out.push_str("\ndecisions per day: unknown (no audit here)\n");
        return out;
    }
    out.push_str(&format!(
        "\ndecisions per day from the audit ({} decided without a line in it):\n",
        f.decided_unaudited
    ));
    let max = f
        .decisions
        .iter()
        .map(|d| d.approved + d.declined)
        .max()
        .unwrap_or(0);
    for d in f.decisions.iter().rev().take(14).rev() {
        out.push_str(&format!(
            "{}  {:>4} approved {:>4} declined {}\n",
            d.day,
            d.approved,
            d.declined,
            bar(
                d.approved + d.declined,
                max,
                cells.min(width.saturating_sub(40))
            )
        ));
    }
    out
}

fn moderators_text(f: &Figures, width: Option<usize>) -> String {
    if !f.audited {
        return "decisions by moderator: unknown (no audit here)\n".into();
    }
    let columns = [
        Column::new("MODERATOR", 10, 40),
        Column::new("APPROVED", 4, 8),
        Column::new("DECLINED", 4, 8),
        Column::new("WAIT", 4, 7),
    ];
    let rows: Vec<Vec<String>> = f
        .moderators
        .iter()
        .map(|m| {
            vec![
                m.moderator.clone(),
                m.approved.to_string(),
                m.declined.to_string(),
                m.median_wait_s.map_or("-".into(), duration),
            ]
        })
        .collect();
    output::table(&columns, &rows, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_read_in_two_units() {
        assert_eq!(duration(40), "40s");
        assert_eq!(duration(3600 * 3 + 60 * 20), "3h 20m");
        assert_eq!(duration(86_400 * 2 + 3600 * 4), "2d 4h");
        assert_eq!(duration(86_400 * 54), "54d");
    }
}
