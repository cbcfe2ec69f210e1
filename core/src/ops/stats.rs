//! The term at a glance: the figures of a scope's club requests, computed once for every
//! front end (`club-admin stats`, the dashboard's term view, `stats` over SSH). A front
//! end reads the requests and the audit and presents what [`figures`] returns; nothing
//! here reads a file or the network.
//!
//! Where each figure comes from:
//! - counts by status, pending per club and arrivals per day: the service's listing of the
//!   scope, every status (a request's `created_at`, `club`, `membership_status`: request
//!   at `default`, its club at `compact`, the smallest levels that carry them);
//! - decisions per day, the wait from a request to its decision, each moderator's
//!   decisions: the audit ([`super::history`] rows), since the service records no time of
//!   decision (api-notes.md: a request carries only `created_at`). A request decided
//!   elsewhere (the web pages, another host) counts in the totals by status and nowhere
//!   else; [`Figures::decided_unaudited`] says how many.
//!
//! Days are calendar days at the caller's UTC offset (a school's: +07:00), `YYYY-MM-DD` in
//! the proleptic Gregorian calendar; a front end shows them in the reader's era (Buddhist in
//! Thai). Waits are whole seconds; a percentile is the nearest rank (the smallest wait
//! with at least that share of waits at or below it).

use std::collections::{BTreeMap, HashMap};

use chrono::{FixedOffset, NaiveDate};
use uuid::Uuid;

use super::audit::Outcome;
use super::history::Row;
use crate::api::{
    ApiClient, ApiError, ClubRequest, Levels, MembershipStatus, Page, RequestFilter, Sort,
    Timestamp,
};

/// The levels the figures are read at: a request at `default` (its time, club and status),
/// its club and student at `compact` (the club's name): the queue's own
/// ([`Levels::REQUEST_ROW`]), so that over SSH a read of the term and a queue's page of the
/// same query are shared (`api/shared_listing.rs` shares reads at `compact` below).
pub const LEVELS: Levels = Levels::REQUEST_ROW;

/// Every page of the listing of `filter` (`GET /v1/clubs/requests`, the dashboard's order,
/// year then id; [`LEVELS`]; `size` a page), on `client` as it is: a client that shares
/// the listing's reads (`serve-ssh`'s sessions) shares these. Stops at the last page
/// (`meta.pagination.next_p` null), or, on a server without pagination metadata, at a short
/// page or a page with no new id; a request met twice (a page shifted) is kept once.
///
/// Errors: the first page that failed (the client's own retries spent).
pub async fn read_pages(
    client: &ApiClient,
    filter: &RequestFilter,
    size: u32,
) -> Result<Vec<ClubRequest>, ApiError> {
    let mut rows: Vec<ClubRequest> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut p = 1;
    loop {
        let reply = client
            .list_club_requests(filter, &Sort::default(), Page::new(p, size), LEVELS)
            .await?;
        let n = reply.data.len();
        let before = rows.len();
        for r in reply.data {
            if seen.insert(r.id) {
                rows.push(r);
            }
        }
        let next = match reply.meta.and_then(|m| m.pagination) {
            Some(pg) => pg.next_p,
            None => (n as u32 >= size).then_some(p + 1),
        };
        match next {
            Some(nx) if nx > p && rows.len() > before => p = nx,
            _ => return Ok(rows),
        }
    }
}

/// Every figure of the term, as `club-admin stats --json` prints it (the manual's
/// "club-admin stats" page documents each field and its unit).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Figures {
    /// Requests in the scope, every status.
    pub requests: u64,
    /// Of them, waiting for a decision.
    pub pending: u64,
    /// Of them, approved.
    pub approved: u64,
    /// Of them, declined.
    pub declined: u64,
    /// Per club, most pending first (then most requests, then name).
    pub clubs: Vec<ClubFigures>,
    /// Requests asked per day, every day from the first request's to the last's (days
    /// without one count 0). Requests without `created_at` are left out.
    pub arrivals: Vec<DayCount>,
    /// Decisions per day by outcome, from the audit, every day from the first to the last.
    pub decisions: Vec<DayDecisions>,
    /// The wait from a request to its decision, over every decision the audit knows.
    pub wait: Option<Wait>,
    /// Each moderator's decisions, from the audit, most first.
    pub moderators: Vec<ModeratorFigures>,
    /// True when an audit was read (false: the decisions, waits and moderators are
    /// unknown, not zero).
    pub audited: bool,
    /// Approved or declined requests with no decision of theirs in the audit (decided
    /// elsewhere, or before the audit began).
    pub decided_unaudited: u64,
}

/// One club's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ClubFigures {
    /// The club's id.
    pub id: Uuid,
    /// Its English name, when the listing carried it.
    pub name_en: Option<String>,
    /// Its Thai name, when the listing carried it.
    pub name_th: Option<String>,
    /// Its requests waiting for a decision.
    pub pending: u64,
    /// Its approved requests.
    pub approved: u64,
    /// Its declined requests.
    pub declined: u64,
    /// The wait of its decisions the audit knows.
    pub wait: Option<Wait>,
}

/// Requests asked on one day.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DayCount {
    /// The day (`YYYY-MM-DD`, Gregorian, at the caller's UTC offset).
    pub day: NaiveDate,
    /// Requests asked that day.
    pub requests: u64,
}

/// Decisions on one day, by outcome.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DayDecisions {
    /// The day (`YYYY-MM-DD`, Gregorian, at the caller's UTC offset).
    pub day: NaiveDate,
    /// Approvals the service confirmed that day.
    pub approved: u64,
    /// Declines the service confirmed that day.
    pub declined: u64,
}

/// How long requests waited for their decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Wait {
    /// Decisions measured.
    pub decided: u64,
    /// The median wait, in seconds (nearest rank).
    pub median_s: i64,
    /// The 90th percentile wait, in seconds (nearest rank).
    pub p90_s: i64,
}

/// One moderator's decisions.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ModeratorFigures {
    /// Who: the e-mail the audit names, else the SSH key's comment or fingerprint, else
    /// `unknown`.
    pub moderator: String,
    /// Approvals the service confirmed.
    pub approved: u64,
    /// Declines the service confirmed.
    pub declined: u64,
    /// The median wait of their decisions, in seconds (nearest rank).
    pub median_wait_s: Option<i64>,
}

/// One decision the audit knows, of a request in the scope.
struct Decided<'a> {
    row: &'a Row,
    approved: bool,
    wait_s: Option<i64>,
}

/// The term's figures of `requests` (the scope's listing, every status) and, when the caller
/// has one, the audit's `rows` (only approvals and declines the service confirmed, of the
/// requests in `requests` and, when `server` is given, sent to that server, count); days at
/// `offset`.
pub fn figures(
    requests: &[ClubRequest],
    rows: Option<&[Row]>,
    server: Option<&str>,
    offset: FixedOffset,
) -> Figures {
    let by_id: HashMap<Uuid, &ClubRequest> = requests.iter().map(|r| (r.id, r)).collect();
    let decided = rows
        .map(|rows| decisions(rows, &by_id, server))
        .unwrap_or_default();
    let count = |s: MembershipStatus| {
        requests
            .iter()
            .filter(|r| r.membership() == Some(&s))
            .count() as u64
    };
    let approved = count(MembershipStatus::Approved);
    let declined = count(MembershipStatus::Declined);
    let audited_ids: std::collections::HashSet<Uuid> =
        decided.iter().map(|d| d.row.target).collect();
    let decided_unaudited = requests
        .iter()
        .filter(|r| is_decided(r) && !audited_ids.contains(&r.id))
        .count() as u64;
    Figures {
        requests: requests.len() as u64,
        pending: count(MembershipStatus::Pending),
        approved,
        declined,
        clubs: clubs(requests, &decided),
        arrivals: arrivals(requests, offset),
        decisions: per_day(&decided, offset),
        wait: wait_of(decided.iter().filter_map(|d| d.wait_s).collect()),
        moderators: moderators(&decided),
        audited: rows.is_some(),
        decided_unaudited,
    }
}

fn is_decided(r: &ClubRequest) -> bool {
    matches!(
        r.membership(),
        Some(MembershipStatus::Approved | MembershipStatus::Declined)
    )
}

/// The audit's confirmed approvals and declines of the requests in `by_id` that the service
/// shows so (an approval of a request it lists as approved), the last one per request (a request is decided once; a later row is a repeat the service refused or
/// confirmed again).
fn decisions<'a>(
    rows: &'a [Row],
    by_id: &HashMap<Uuid, &ClubRequest>,
    server: Option<&str>,
) -> Vec<Decided<'a>> {
    let mut last: BTreeMap<Uuid, Decided<'a>> = BTreeMap::new();
    for row in rows {
        let approved = match row.action.as_str() {
            "approve" => true,
            "decline" => false,
            _ => continue,
        };
        if row.outcome != Outcome::Ok || server.is_some_and(|s| s != row.server) {
            continue;
        }
        // A decision counts where the service shows it: a request the audit says was
        // approved but the service lists as pending (its data restored, a demo started
        // again) is not counted as decided.
        let Some(request) = by_id.get(&row.target) else {
            continue;
        };
        let shows = if approved {
            MembershipStatus::Approved
        } else {
            MembershipStatus::Declined
        };
        if request.membership() != Some(&shows) {
            continue;
        }
        let wait_s = request
            .created_at
            .map(|asked| (row.at - asked).num_seconds().max(0));
        let keep = last.get(&row.target).is_none_or(|d| d.row.at <= row.at);
        if keep {
            last.insert(
                row.target,
                Decided {
                    row,
                    approved,
                    wait_s,
                },
            );
        }
    }
    last.into_values().collect()
}

/// The requests `ids` read by id through the listing (`filter[data][ids]`, every status),
/// `size` at a time ([`LEVELS`], on `client` as it is): each id maps to the request, or
/// `None` when the service lists it no more (deleted).
///
/// Errors: a read that failed.
pub async fn read_by_id(
    client: &ApiClient,
    ids: &[Uuid],
    size: u32,
) -> Result<HashMap<Uuid, Option<ClubRequest>>, ApiError> {
    let mut out: HashMap<Uuid, Option<ClubRequest>> = ids.iter().map(|id| (*id, None)).collect();
    for chunk in ids.chunks(size.clamp(1, 100) as usize) {
        let filter = RequestFilter {
            ids: chunk.to_vec(),
            ..RequestFilter::default()
        };
        let reply = client
            .list_club_requests(&filter, &Sort::default(), Page::new(1, size), LEVELS)
            .await?;
        for r in reply.data {
            if out.contains_key(&r.id) {
                out.insert(r.id, Some(r));
            }
        }
    }
    Ok(out)
}

/// The scope's requests of `filter` (every status) brought up to date from `previous`, an
/// earlier whole read of it ([`read_pages`]), at the cost of the scope's pending requests:
/// a decided request stays decided, so only the pending listing is read again (the queue's
/// own query, shared over `serve-ssh` with the queue's refresh of the same scope), and the
/// requests pending before that it no longer lists are read by id ([`read_by_id`]: decided
/// since, or deleted). New requests are pending, so the pending read brings them. What it
/// cannot see: a decided request deleted since (a student may delete their own request
/// whatever its status) stays until the next whole read.
///
/// Errors: a read that failed.
pub async fn refresh_pages(
    client: &ApiClient,
    filter: &RequestFilter,
    size: u32,
    previous: &[ClubRequest],
) -> Result<Vec<ClubRequest>, ApiError> {
    let pending_filter = RequestFilter {
        membership_status: Some(MembershipStatus::Pending),
        ..filter.clone()
    };
    let pending = read_pages(client, &pending_filter, size).await?;
    let now: std::collections::HashSet<Uuid> = pending.iter().map(|r| r.id).collect();
    let is_pending = |r: &ClubRequest| r.membership() == Some(&MembershipStatus::Pending);
    let left: Vec<Uuid> = previous
        .iter()
        .filter(|r| is_pending(r) && !now.contains(&r.id))
        .map(|r| r.id)
        .collect();
    let mut read = read_by_id(client, &left, size).await?;
    let mut out: Vec<ClubRequest> = previous
        .iter()
        .filter(|r| !is_pending(r) && !now.contains(&r.id))
        .cloned()
        .collect();
    out.extend(left.iter().filter_map(|id| read.remove(id).flatten()));
    out.extend(pending);
    Ok(out)
}

/// The nearest-rank percentile `pct` (1 to 100) of `sorted` (ascending, not empty).
fn percentile(sorted: &[i64], pct: usize) -> i64 {
    let rank = (pct * sorted.len()).div_ceil(100).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

/// The median and 90th percentile of `waits`; `None` when there are none.
fn wait_of(mut waits: Vec<i64>) -> Option<Wait> {
    if waits.is_empty() {
        return None;
    }
    waits.sort_unstable();
    Some(Wait {
        decided: waits.len() as u64,
        median_s: percentile(&waits, 50),
        p90_s: percentile(&waits, 90),
    })
}

fn clubs(requests: &[ClubRequest], decided: &[Decided<'_>]) -> Vec<ClubFigures> {
    let mut clubs: BTreeMap<Uuid, ClubFigures> = BTreeMap::new();
    let mut club_of: HashMap<Uuid, Uuid> = HashMap::new();
    for r in requests {
        let Some(club) = &r.club else { continue };
        club_of.insert(r.id, club.id);
        let entry = clubs.entry(club.id).or_insert_with(|| ClubFigures {
            id: club.id,
            name_en: None,
            name_th: None,
            pending: 0,
            approved: 0,
            declined: 0,
            wait: None,
        });
        if let Some(name) = &club.name {
            entry.name_en = entry.name_en.take().or_else(|| name.en.clone());
            entry.name_th = entry.name_th.take().or_else(|| name.th.clone());
        }
        match r.membership() {
            Some(MembershipStatus::Pending) => entry.pending += 1,
            Some(MembershipStatus::Approved) => entry.approved += 1,
            Some(MembershipStatus::Declined) => entry.declined += 1,
            Some(MembershipStatus::Other(_)) | None => {}
        }
    }
    let mut waits: HashMap<Uuid, Vec<i64>> = HashMap::new();
    for d in decided {
        if let (Some(club), Some(w)) = (club_of.get(&d.row.target), d.wait_s) {
            waits.entry(*club).or_default().push(w);
        }
    }
    let mut out: Vec<ClubFigures> = clubs.into_values().collect();
    for c in &mut out {
        c.wait = waits.remove(&c.id).and_then(wait_of);
    }
    out.sort_by(|a, b| {
        let total = |c: &ClubFigures| c.pending + c.approved + c.declined;
        b.pending
            .cmp(&a.pending)
            .then(total(b).cmp(&total(a)))
            .then(a.name_en.cmp(&b.name_en))
            .then(a.id.cmp(&b.id))
    });
    out
}

/// The calendar day of `t` at `offset`.
pub fn day_of(t: Timestamp, offset: FixedOffset) -> NaiveDate {
    t.with_timezone(&offset).date_naive()
}

/// Every day from `first` to `last`, both included.
fn days(first: NaiveDate, last: NaiveDate) -> impl Iterator<Item = NaiveDate> {
    first.iter_days().take_while(move |d| *d <= last)
}

fn arrivals(requests: &[ClubRequest], offset: FixedOffset) -> Vec<DayCount> {
    let mut per: BTreeMap<NaiveDate, u64> = BTreeMap::new();
    for t in requests.iter().filter_map(|r| r.created_at) {
        *per.entry(day_of(t, offset)).or_default() += 1;
    }
    let (Some(first), Some(last)) = (per.keys().next().copied(), per.keys().last().copied()) else {
        return Vec::new();
    };
    days(first, last)
        .map(|day| DayCount {
            day,
            requests: per.get(&day).copied().unwrap_or(0),
        })
        .collect()
}

fn per_day(decided: &[Decided<'_>], offset: FixedOffset) -> Vec<DayDecisions> {
    let mut per: BTreeMap<NaiveDate, (u64, u64)> = BTreeMap::new();
    for d in decided {
        let e = per.entry(day_of(d.row.at, offset)).or_default();
        if d.approved {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    let (Some(first), Some(last)) = (per.keys().next().copied(), per.keys().last().copied()) else {
        return Vec::new();
    };
    days(first, last)
        .map(|day| {
            let (approved, declined) = per.get(&day).copied().unwrap_or((0, 0));
            DayDecisions {
                day,
                approved,
                declined,
            }
        })
        .collect()
}

fn moderators(decided: &[Decided<'_>]) -> Vec<ModeratorFigures> {
    let mut per: BTreeMap<String, (u64, u64, Vec<i64>)> = BTreeMap::new();
    for d in decided {
        let who = d
            .row
            .user
            .clone()
            .or_else(|| d.row.key_name().map(str::to_owned))
            .unwrap_or_else(|| "unknown".to_owned());
        let e = per.entry(who).or_default();
        if d.approved {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
        e.2.extend(d.wait_s);
    }
    let mut out: Vec<ModeratorFigures> = per
        .into_iter()
        .map(
            |(moderator, (approved, declined, waits))| ModeratorFigures {
                moderator,
                approved,
                declined,
                median_wait_s: wait_of(waits).map(|w| w.median_s),
            },
        )
        .collect();
    out.sort_by(|a, b| {
        (b.approved + b.declined)
            .cmp(&(a.approved + a.declined))
            .then(a.moderator.cmp(&b.moderator))
    });
    out
}

/// A bar of `value` out of `max` in at most `cells` cells, in eighths (`█▉▊▋▌▍▎▏`); a value
/// above 0 shows at least an eighth.
pub fn bar(value: u64, max: u64, cells: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    if max == 0 || value == 0 || cells == 0 {
        return String::new();
    }
    let eighths = ((value as u128 * cells as u128 * 8) / max as u128).max(1) as usize;
    let mut out = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        out.push(PARTS[eighths % 8]);
    }
    out
}

/// `values` as one line of block heights (`▁▂▃▄▅▆▇█`), each of `per` values summed into one
/// cell, at most `cells` cells (the latest kept). A cell of 0 is `▁`'s space: ` `.
pub fn sparkline(values: &[u64], cells: usize) -> String {
    const HEIGHTS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if values.is_empty() || cells == 0 {
        return String::new();
    }
    let per = values.len().div_ceil(cells);
    let sums: Vec<u64> = values.chunks(per).map(|c| c.iter().sum()).collect();
    let max = sums.iter().copied().max().unwrap_or(0).max(1);
    sums.iter()
        .map(|v| {
            let level = (*v as u128 * 8).div_ceil(max as u128) as usize;
            HEIGHTS[level.min(8)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Club;
    use chrono::{TimeZone, Utc};

    fn at(day: u32, hour: u32) -> Timestamp {
        Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0)
            .single()
            .expect("a time")
    }

    fn club(n: u128, en: &str) -> Club {
        serde_json::from_value(serde_json::json!({
            "id": Uuid::from_u128(n),
            "name": {"en-US": en, "th": format!("ชุมนุม{en}")},
        }))
        .expect("a club")
    }

    fn request(n: u128, club_n: u128, status: MembershipStatus, asked: Timestamp) -> ClubRequest {
        ClubRequest {
            created_at: Some(asked),
            club: Some(club(club_n, if club_n == 1 { "Chess" } else { "Robotics" })),
            membership_status: Some(status),
            ..ClubRequest::bare(Uuid::from_u128(n))
        }
    }

    fn row(target: u128, action: &str, outcome: Outcome, when: Timestamp, who: &str) -> Row {
        let entry: crate::ops::audit::AuditEntry = serde_json::from_value(serde_json::json!({
            "at": when,
            "server": "http://s",
            "user": who,
            "action": action,
            "target": Uuid::from_u128(target),
            "outcome": outcome,
            "detail": null,
        }))
        .expect("an audit line");
        crate::ops::history::fold([entry]).remove(0)
    }

    /// Three clubs' worth of requests and four audit rows, each figure worked by hand.
    #[test]
    fn the_figures_of_a_known_term() {
        use MembershipStatus::{Approved, Declined, Pending};
        let requests = vec![
            request(1, 1, Pending, at(1, 1)),
            request(2, 1, Pending, at(1, 2)),
            request(3, 1, Approved, at(3, 1)),
            request(4, 2, Pending, at(3, 2)),
            request(5, 2, Declined, at(3, 3)),
            request(6, 2, Approved, at(3, 4)),
        ];
        let rows = vec![
            // Request 3 approved 10 hours after it was asked.
            row(3, "approve", Outcome::Ok, at(3, 11), "a@x"),
            // Request 5 declined 1 day and 3 hours after.
            row(5, "decline", Outcome::Ok, at(4, 6), "b@x"),
            // A refused write, a request outside the scope and an approval of a request the
            // service lists as pending count nowhere.
            row(1, "approve", Outcome::Failed, at(4, 7), "a@x"),
            row(99, "approve", Outcome::Ok, at(4, 7), "a@x"),
            row(2, "approve", Outcome::Ok, at(4, 7), "a@x"),
        ];
        let f = figures(
            &requests,
            Some(&rows),
            None,
            FixedOffset::east_opt(0).expect("UTC"),
        );
        assert_eq!(
            (f.requests, f.pending, f.approved, f.declined),
            (6, 3, 2, 1)
        );
        assert_eq!(f.clubs[0].name_en.as_deref(), Some("Chess"));
        assert_eq!(f.clubs[0].pending, 2);
        assert_eq!(f.clubs[1].pending, 1);
        assert_eq!(f.clubs[1].name_th.as_deref(), Some("ชุมนุมRobotics"));
        let arrivals: Vec<u64> = f.arrivals.iter().map(|d| d.requests).collect();
        assert_eq!(arrivals, vec![2, 0, 4]);
        assert_eq!(f.decisions.len(), 2);
        assert_eq!((f.decisions[0].approved, f.decisions[1].declined), (1, 1));
        let w = f.wait.expect("two waits");
        assert_eq!((w.decided, w.median_s, w.p90_s), (2, 10 * 3600, 27 * 3600));
        assert_eq!(f.clubs[0].wait.map(|w| w.median_s), Some(10 * 3600));
        assert_eq!(f.moderators.len(), 2);
        assert_eq!(f.moderators[0].moderator, "a@x");
        assert_eq!(f.moderators[0].approved, 1);
        assert_eq!(f.decided_unaudited, 1, "request 6 was decided elsewhere");
        assert!(f.audited);
    }

    /// Without an audit, nothing of the decisions is guessed.
    #[test]
    fn without_an_audit_the_decisions_are_unknown_not_zero() {
        let requests = vec![request(1, 1, MembershipStatus::Approved, at(1, 1))];
        let f = figures(
            &requests,
            None,
            None,
            FixedOffset::east_opt(0).expect("UTC"),
        );
        assert!(!f.audited);
        assert!(f.wait.is_none() && f.decisions.is_empty() && f.moderators.is_empty());
        assert_eq!(f.decided_unaudited, 1);
    }

    /// A request asked at 23:00 UTC is the next day in Bangkok (+07:00).
    #[test]
    fn days_are_the_face_s_days() {
        let requests = vec![request(1, 1, MembershipStatus::Pending, at(1, 23))];
        let bangkok = FixedOffset::east_opt(7 * 3600).expect("+07:00");
        let f = figures(&requests, None, None, bangkok);
        assert_eq!(f.arrivals[0].day.to_string(), "2026-11-02");
    }

    /// Nearest rank: of 1..=10, the median is 5 and the 90th percentile 9; of one, itself.
    #[test]
    fn percentiles_are_nearest_rank() {
        let w = wait_of((1..=10).collect()).expect("ten");
        assert_eq!((w.median_s, w.p90_s), (5, 9));
        let w = wait_of(vec![7]).expect("one");
        assert_eq!((w.median_s, w.p90_s), (7, 7));
    }
    #[test]
    fn bars_are_drawn_in_eighths() {
        assert_eq!(bar(10, 10, 4), "████");
        assert_eq!(bar(5, 10, 4), "██");
        assert_eq!(bar(1, 80, 4), "▏");
        assert_eq!(bar(0, 10, 4), "");
    }

    #[test]
    fn a_sparkline_fits_its_cells() {
        assert_eq!(sparkline(&[0, 4, 8], 3), " ▄█");
        assert_eq!(sparkline(&[1, 1, 1, 1], 2).chars().count(), 2);
    }
}
