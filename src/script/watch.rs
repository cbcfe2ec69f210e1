//! `club-admin requests watch`: each change of the scope's pending requests as it is seen,
//! one line (or one JSON object) per event, until interrupted or the reader goes away.
//!
//! Every period (`--every`, else the configured automatic refresh, else 30 s) the scope's
//! pending requests are read page by page with the dashboard's own query (its filter,
//! order, page size and levels) on the run's client, so that over SSH the reads go through
//! the server's shared listing store (`api/shared_listing.rs`): the watchers of one scope,
//! and the dashboards of the same scope, are answered by one read. The rounds start on the
//! wall clock's multiples of the period, so that watchers started at different times still
//! read together.
//!
//! A request that leaves the pending listing is read by id (one read for all of a round's,
//! shared too) to tell a decision from a deletion, and a request still pending there (a
//! page shifted under the reading) stays known: an event is said once, never guessed. Who
//! decided comes from the audit (over SSH the host's), when it has the decision.
//!
//! When a round cannot be read, `unreachable` is said once; the round that reads again
//! says `back` with the stretch that was not seen, then the events of that stretch, each
//! once (the state before it is kept): a request that came and went inside it is not seen,
//! which `back` says.

use std::collections::HashMap;
use std::time::Duration;

use uuid::Uuid;

use super::Host;
use super::args::WatchArgs;
use super::{Ctx, Exit, error_text, say};
use crate::api::{ApiClient, ApiError, ClubRequest, MembershipStatus, RequestFilter, Timestamp};

/// True for `requests watch`: a run that only reads and ends when it is stopped (the
/// server's time limit for a run does not apply to it).
pub fn runs_until_stopped(command: &super::ScriptCommand) -> bool {
    matches!(
        command,
        super::ScriptCommand::Requests(super::args::RequestsCommand::Watch(_))
    )
}

/// What happened to a request, or to the watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A pending request new to the scope.
    New,
    /// A request of the scope approved or declined.
    Decided,
    /// A request of the scope no longer there (deleted).
    Gone,
    /// The service could not be read (said once, until it is back).
    Unreachable,
    /// The service is read again after a stretch that was not seen.
    Back,
}

/// One event, as `--json` prints it (one object per line; fields that do not apply are
/// left out).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Event {
    /// What happened.
    pub event: Kind,
    /// When the watch saw it (RFC 3339, UTC): the end of the read that showed it.
    pub at: Timestamp,
    /// The request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<Uuid>,
    /// Its membership status now (`pending`, `approved`, `declined`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Its club's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub club_id: Option<Uuid>,
    /// Its club's name in English, else Thai.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// The student's school number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub student: Option<String>,
    /// When the student asked (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<Timestamp>,
    /// For `decided`: who, when the audit knows (the moderator's e-mail, else the SSH
    /// key's name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// For `back`: since when nothing was seen (RFC 3339, UTC): the last read that
    /// answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Timestamp>,
    /// For `unreachable`: the error, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Event {
    fn bare(event: Kind, at: Timestamp) -> Event {
        Event {
            event,
            at,
            id: None,
            status: None,
            club_id: None,
            club: None,
            student: None,
            created_at: None,
            by: None,
            since: None,
            error: None,
        }
    }

    fn of(event: Kind, at: Timestamp, r: &ClubRequest) -> Event {
        let club = r.club.as_ref();
        let name = club.and_then(|c| c.name.as_ref());
        Event {
            id: Some(r.id),
            status: r.membership().map(|s| s.to_string()),
            club_id: club.map(|c| c.id),
            club: name.and_then(|n| n.en.clone().or_else(|| n.th.clone())),
            student: r.student.as_ref().and_then(|s| s.student_id.clone()),
            created_at: r.created_at,
            ..Event::bare(event, at)
        }
    }

    /// The event as one line of text: the local time, the event, the request.
    pub fn line(&self) -> String {
        let when = self
            .at
            .with_timezone(&chrono::Local)
            .format("%Y-%m-%d %H:%M:%S");
        let what = match self.event {
            Kind::New => "new",
            Kind::Decided => self.status.as_deref().unwrap_or("decided"),
            Kind::Gone => "gone",
            Kind::Unreachable => "unreachable",
            Kind::Back => "back",
        };
        let mut parts = vec![format!("{when}  {what:<11}")];
        if let Some(club) = &self.club {
            parts.push(crate::text::clean(club, 40));
        }
        if let Some(s) = &self.student {
            parts.push(format!("#{}", crate::text::clean(s, 20)));
        }
        if let Some(by) = &self.by {
            parts.push(format!("by {}", crate::text::clean(by, 60)));
        }
        if let Some(id) = self.id {
            parts.push(id.to_string());
        }
        if let Some(since) = self.since {
            let since = since.with_timezone(&chrono::Local).format("%H:%M:%S");
            parts.push(format!(
                "nothing seen since {since}: changes of that stretch follow; a request that came and went in it is not seen"
            ));
        }
        if let Some(e) = &self.error {
            parts.push(crate::text::clean(e, 200));
        }
        parts.join("  ") + "\n"
    }
}

/// What the watch knows between two rounds.
#[derive(Debug, Default)]
pub struct Watch {
    /// The pending requests of the scope, by id (`None` before the first read).
    known: Option<HashMap<Uuid, ClubRequest>>,
    /// Since when the service could not be read: the last read that answered.
    down_since: Option<Timestamp>,
    /// When the last read answered.
    last_read: Option<Timestamp>,
}

impl Watch {
    /// The events of a round whose read of the pending requests gave `pending` at `at`;
    /// `settle` reads by id the requests that left the listing (`None` for one not there).
    /// The first round's requests are the baseline: no event.
    ///
    /// Errors: the by-id read failed: no event of the requests that left is said, and they
    /// stay known for the next round.
    pub fn round(
        &mut self,
        pending: Vec<ClubRequest>,
        left: Result<HashMap<Uuid, Option<ClubRequest>>, ApiError>,
        at: Timestamp,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        if let Some(since) = self.down_since.take() {
            events.push(Event {
                since: Some(since),
                ..Event::bare(Kind::Back, at)
            });
        }
        self.last_read = Some(at);
        let now: HashMap<Uuid, ClubRequest> = pending.into_iter().map(|r| (r.id, r)).collect();
        let Some(known) = self.known.take() else {
            self.known = Some(now);
            return events;
        };
        let mut fresh: Vec<&ClubRequest> = now
            .values()
            .filter(|r| !known.contains_key(&r.id))
            .collect();
        fresh.sort_by_key(|r| (r.created_at, r.id));
        events.extend(fresh.into_iter().map(|r| Event::of(Kind::New, at, r)));
        let mut next = now.clone();
        let mut gone: Vec<&ClubRequest> = known
            .values()
            .filter(|r| !now.contains_key(&r.id))
            .collect();
        gone.sort_by_key(|r| (r.created_at, r.id));
        match left {
            Ok(read) => {
                for r in gone {
                    match read.get(&r.id) {
                        Some(Some(now)) if now.membership() == Some(&MembershipStatus::Pending) => {
                            next.insert(now.id, now.clone());
                        }
                        Some(Some(now)) => events.push(Event::of(Kind::Decided, at, now)),
                        Some(None) | None => events.push(Event {
                            status: None,
                            ..Event::of(Kind::Gone, at, r)
                        }),
                    }
                }
            }
            Err(_) => next.extend(gone.into_iter().map(|r| (r.id, r.clone()))),
        }
        self.known = Some(next);
        events
    }

    /// The ids known now that `pending` does not hold: what [`Watch::round`] will ask about.
    pub fn left(&self, pending: &[ClubRequest]) -> Vec<Uuid> {
        let Some(known) = &self.known else {
            return Vec::new();
        };
        let now: std::collections::HashSet<Uuid> = pending.iter().map(|r| r.id).collect();
        let mut ids: Vec<Uuid> = known
            .keys()
            .filter(|id| !now.contains(id))
            .copied()
            .collect();
        ids.sort();
        ids
    }

    /// A round that could not be read at `at`: `unreachable` the first time, nothing after.
    pub fn failed(&mut self, error: &str, at: Timestamp) -> Option<Event> {
        if self.down_since.is_some() {
            return None;
        }
        self.down_since = Some(self.last_read.unwrap_or(at));
        Some(Event {
            error: Some(error.to_owned()),
            ..Event::bare(Kind::Unreachable, at)
        })
    }

    /// The pending requests known now (after the first round).
    pub fn known(&self) -> usize {
        self.known.as_ref().map_or(0, HashMap::len)
    }
}

/// Every page of the scope's pending requests, with the dashboard's query (order, page
/// size, levels; [`crate::ops::stats::read_pages`]): one try each, by the client's own
/// policy (a round that fails is the next round's to read).
///
/// Errors: the first page that failed.
pub async fn read_pending(
    client: &ApiClient,
    filter: &RequestFilter,
    size: u32,
) -> Result<Vec<ClubRequest>, ApiError> {
    let filter = RequestFilter {
        membership_status: Some(MembershipStatus::Pending),
        ..filter.clone()
    };
    crate::ops::stats::read_pages(client, &filter, size).await
}

/// How long from `now` (milliseconds since the epoch) to the next multiple of `period`.
pub fn until_next_round(now_ms: u128, period: Duration) -> Duration {
    let p = period.as_millis().max(1);
    let next = (now_ms / p + 1) * p;
    Duration::from_millis((next - now_ms) as u64)
}

/// `club-admin requests watch`.
pub async fn run(args: &WatchArgs, host: &dyn Host) -> Exit {
    let (ctx, filter) = match super::stats::scoped(host, &args.scope).await {
        Ok((ctx, Some(f))) => (ctx, f),
        Ok((_, None)) => return Exit::Ok,
        Err(e) => return e,
    };
    let period = args
        .every
        .map(Duration::from_secs)
        .or(ctx.settings.auto_refresh)
        .unwrap_or(Duration::from_secs(30));
    let audit = crate::ops::AuditLog::in_state_dir(ctx.settings.state_dir.as_deref());
    let mut watch = Watch::default();
    let mut interrupts = super::stdio::Interrupts::default();
    loop {
        if !round(&ctx, &filter, &mut watch, audit.as_deref(), args.json).await {
            return Exit::Ok;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let wait = until_next_round(now, period);
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            more = interrupts.next() => {
                if more {
                    return Exit::Ok;
                }
                tokio::time::sleep(wait).await;
            }
        }
        if super::stdio::streams().reader_gone() {
            return Exit::Ok;
        }
    }
}

/// One round: read, tell the events. False when the reader went away.
async fn round(
    ctx: &Ctx,
    filter: &RequestFilter,
    watch: &mut Watch,
    audit: Option<&std::path::Path>,
    json: bool,
) -> bool {
    let size = ctx.settings.page_size;
    let first = watch.known.is_none();
    let events = match read_pending(&ctx.client, filter, size).await {
        Ok(pending) => {
            let left = watch.left(&pending);
            let read = if left.is_empty() {
                Ok(HashMap::new())
            } else {
                crate::ops::stats::read_by_id(&ctx.client, &left, size).await
            };
            let mut events = watch.round(pending, read, chrono::Utc::now());
            name_deciders(&mut events, audit);
            if first {
                say(&format!("watching {} pending requests", watch.known()));
            }
            events
        }
        Err(e) => {
            let text = error_text(&e);
            let event = watch.failed(&text, chrono::Utc::now());
            if event.is_some() {
                say(&format!("the service cannot be reached: {text}"));
            }
            event.into_iter().collect()
        }
    };
    events.iter().all(|e| tell(e, json))
}

/// Writes one event; false when standard output is gone (the reader went away).
fn tell(event: &Event, json: bool) -> bool {
    let text = if json {
        match serde_json::to_string(event) {
            Ok(s) => s + "\n",
            Err(_) => return true,
        }
    } else {
        event.line()
    };
    super::stdio::streams().write_out(text.as_bytes()).is_ok()
}

/// Names who decided each `decided` event from the audit at `path`, when it has the
/// decision (its last confirmed approval or decline of the request).
fn name_deciders(events: &mut [Event], path: Option<&std::path::Path>) {
    if !events.iter().any(|e| e.event == Kind::Decided) {
        return;
    }
    let Some(rows) = path.and_then(|p| crate::ops::history::read_recent(p, 4 << 20).ok()) else {
        return;
    };
    for e in events.iter_mut().filter(|e| e.event == Kind::Decided) {
        let by = rows.rows.iter().rev().find(|r| {
            Some(r.target) == e.id
                && r.outcome == crate::ops::Outcome::Ok
                && matches!(r.action.as_str(), "approve" | "decline")
        });
        e.by = by.and_then(|r| r.user.clone().or_else(|| r.key_name().map(str::to_owned)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(n: u128) -> ClubRequest {
        ClubRequest {
            membership_status: Some(MembershipStatus::Pending),
            ..ClubRequest::bare(Uuid::from_u128(n))
        }
    }

    fn with_status(n: u128, s: MembershipStatus) -> ClubRequest {
        ClubRequest {
            membership_status: Some(s),
            ..ClubRequest::bare(Uuid::from_u128(n))
        }
    }

    fn kinds(events: &[Event]) -> Vec<(Kind, Option<Uuid>)> {
        events.iter().map(|e| (e.event, e.id)).collect()
    }

    /// The baseline says nothing; then a new request, a decision, a deletion, and a
    /// request that only moved between pages, each reported once.
    #[test]
    fn each_change_is_told_once() {
        let t = chrono::Utc::now();
        let mut w = Watch::default();
        assert!(
            w.round(
                vec![pending(1), pending(2), pending(3)],
                Ok(HashMap::new()),
                t
            )
            .is_empty()
        );
        let now = vec![pending(3), pending(4)];
        assert_eq!(w.left(&now), vec![Uuid::from_u128(1), Uuid::from_u128(2)]);
        let read = HashMap::from([
            (
                Uuid::from_u128(1),
                Some(with_status(1, MembershipStatus::Approved)),
            ),
            (Uuid::from_u128(2), None),
        ]);
        let events = w.round(now.clone(), Ok(read), t);
        assert_eq!(
            kinds(&events),
            vec![
                (Kind::New, Some(Uuid::from_u128(4))),
                (Kind::Decided, Some(Uuid::from_u128(1))),
                (Kind::Gone, Some(Uuid::from_u128(2))),
            ]
        );
        assert_eq!(events[1].status.as_deref(), Some("approved"));
        // A request missed by a page that shifted is read still pending: no event, kept.
        let read = HashMap::from([(Uuid::from_u128(3), Some(pending(3)))]);
        assert!(w.round(vec![pending(4)], Ok(read), t).is_empty());
        assert_eq!(w.known(), 2);
        assert!(w.round(now, Ok(HashMap::new()), t).is_empty());
    }

    /// An outage is said once; what changed during it is reported once when it is back, after
    /// `back` with the stretch not seen; a failed by-id read loses nothing.
    #[test]
    fn an_outage_is_said_once_and_loses_nothing() {
        let t0 = chrono::Utc::now();
        let t1 = t0 + chrono::Duration::seconds(30);
        let mut w = Watch::default();
        w.round(vec![pending(1)], Ok(HashMap::new()), t0);
        assert!(w.failed("down", t1).is_some());
        assert!(w.failed("down", t1).is_none());
        let left = Err(ApiError::Config("down".into()));
        let events = w.round(vec![pending(2)], left, t1);
        assert_eq!(
            kinds(&events),
            vec![(Kind::Back, None), (Kind::New, Some(Uuid::from_u128(2)))]
        );
        assert_eq!(events[0].since, Some(t0));
        let read = HashMap::from([(
            Uuid::from_u128(1),
            Some(with_status(1, MembershipStatus::Declined)),
        )]);
        let events = w.round(vec![pending(2)], Ok(read), t1);
        assert_eq!(
            kinds(&events),
            vec![(Kind::Decided, Some(Uuid::from_u128(1)))]
        );
    }

    #[test]
    fn rounds_start_on_the_period_s_multiples() {
        let p = Duration::from_secs(30);
        assert_eq!(until_next_round(61_000, p), Duration::from_secs(29));
        assert_eq!(until_next_round(60_000, p), Duration::from_secs(30));
    }
}
