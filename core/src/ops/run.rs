//! Sending writes for a caller that awaits them (the command line): one decision with its
//! answer's meaning and, when the answer is lost, the one loop that reads the request until
//! the server's status is known ([`super::settle::follow`]); and the bulk runner, with
//! bounded concurrency and its stop rules.
//!
//! The dashboard drives the same state machine ([`super::decision`]) through its effects
//! and `Msg::Retry` (it never blocks).

use std::future::Future;
use std::time::Duration;

use futures::StreamExt;
use uuid::Uuid;

pub use super::control::{Control, RealClock, RunClock, Stopwatch};
pub use super::verdict::Verdict;

use super::action::RowAction;
use super::audit::AuditLog;
use super::decision::{self, Decision, Event, Line, Reread, Stage, StillUnknown};
use super::settle;
use crate::api::{ApiClient, ApiError, FetchLevel, Levels};

/// Levels of the request a decision returns and a re-read reads: the request at `default`
/// (its membership status), club and student at `compact` (api-notes.md, "Fetch levels": a
/// student account may not read `default` students outside its classroom).
pub const DECISION_LEVELS: Levels = Levels::new(FetchLevel::Default, FetchLevel::Compact);

/// How long a front end that awaits its writes keeps re-reading a request whose answer was lost
/// before it leaves the outcome `unknown` (the dashboard never gives up).
pub const SETTLE_PATIENCE: Duration = Duration::from_secs(120);

/// Sends one decision and follows it to the server's truth, through the one state machine
/// ([`decision::Decision`]: held, sending, then answered, or lost and re-read until
/// settled): the audit gets the lines its transitions write, each awaited in the file before
/// the run goes on: `sending` before the write leaves (a write whose line cannot be written
/// is not sent: [`ApiError::NotSent`]), then `ok` or `failed` for an answer; for a lost
/// answer `unknown`, then re-reads at [`DECISION_LEVELS`] by the one loop
/// ([`settle::follow`], on `control`'s clock), and a second line with the settled outcome. Never sends the write
/// twice. Gives up re-reading after `patience`, and stops waiting for the answer or the
/// re-reads when `control` gives up (a second Ctrl-C): the verdict is then
/// [`Verdict::Unknown`], audited `unknown` by the machine. Audit lines that cannot be
/// written are passed to `audit_failed` (the run goes on).
pub async fn decide(
    client: &ApiClient,
    log: &AuditLog,
    id: Uuid,
    action: RowAction,
    patience: Duration,
    control: &Control,
    audit_failed: &(dyn Fn(String) + Sync),
) -> Verdict {
    // A decision of its own, born held and sent at once, so every transition below is
    // legal by construction; an illegal one would be a bug in this function.
    let now = chrono::Utc::now();
    let Ok(mut d) = Decision::new(id, action, 0, Stage::Held { send_at: now }) else {
        unreachable!("a decision may be born held");
    };
    let mut waiting = Waiting {
        watch: control.clock.start(),
        tries: 0,
        patience,
    };
    loop {
        if let Err(e) = step(log, &mut d, Event::Send).await {
            audit_failed(e.clone());
            let refused = ApiError::NotSent(format!(
                "{} ({e})",
                crate::api::error::why::AUDIT_NOT_WRITTEN
            ));
            let _ = step(
                log,
                &mut d,
                Event::Answered(decision::Answer::Refused(refused.clone())),
            )
            .await;
            return Verdict::Refused(refused);
        }
        control.sent(id, action.verb());
        let Some(result) = send_write(client, id, action, control).await else {
            let written = step(log, &mut d, Event::Abandon).await;
            written.err().into_iter().for_each(audit_failed);
            control.answered(id);
            return Verdict::Unknown {
                cause: ApiError::NoAnswer(decision::abandoned_detail()),
                why: StillUnknown::ReadFailed("the run gave up waiting".to_owned()),
            };
        };
        let unsent = result
            .as_ref()
            .err()
            .filter(|e| decision::not_sent(e))
            .cloned();
        let (answer, request) = decision::classify(result).split();
        let written = step(log, &mut d, Event::Answered(answer)).await;
        written.err().into_iter().for_each(audit_failed);
        control.answered(id);
        // The write could not leave (queued by the machine): it waits for the service, then
        // goes again; given up, it was never sent.
        let Some(e) = unsent else {
            let request = request.flatten();
            return follow(
                client,
                log,
                &mut d,
                request,
                patience,
                control,
                audit_failed,
            )
            .await;
        };
        if let Err(why) = waiting.for_service(client, id, control).await {
            let detail = format!("not sent: {}; {why}", decision::error_detail(&e));
            let written = step(log, &mut d, Event::TakeBack(detail)).await;
            written.err().into_iter().for_each(audit_failed);
            return Verdict::Refused(e);
        }
    }
}

/// A write that could not leave, waiting for the service ([`decide`]): the run's patience
/// and the probes tried so far.
struct Waiting {
    watch: Box<dyn Stopwatch>,
    tries: u32,
    patience: Duration,
}

impl Waiting {
    /// Waits until the service answers a read of `id` again (the one backoff between
    /// probes, on `control`'s clock).
    ///
    /// Errors: why it stopped waiting, in English: the run's patience ran out, or the run
    /// was stopped (Ctrl-C: nothing more is sent).
    async fn for_service(
        &mut self,
        client: &ApiClient,
        id: Uuid,
        control: &Control,
    ) -> Result<(), String> {
        let once = client.single_try();
        loop {
            let wait = decision::backoff(self.tries);
            if self.watch.elapsed() + wait > self.patience {
                return Err(format!(
                    "the service could not be reached for {} s",
                    self.patience.as_secs()
                ));
            }
            if control.stopped() || control.given_up() {
                return Err("the run was stopped before the service answered again".to_owned());
            }
            tokio::select! {
                () = self.watch.sleep(wait) => {}
                () = control.gave_up() => {}
            }
            self.tries += 1;
            match once.club_request(id, DECISION_LEVELS).await {
                Err(e) if decision::not_sent(&e) => continue,
                _ if control.stopped() || control.given_up() => {
                    return Err("the run was stopped before the service answered again".to_owned());
                }
                _ => return Ok(()),
            }
        }
    }
}

/// Follows a decision that has its answer (`request`: the request it returned) to the
/// server's truth: settled already, or lost and read again by the one loop
/// ([`settle::follow`]) until settled or given up ([`decide`]).
async fn follow(
    client: &ApiClient,
    log: &AuditLog,
    d: &mut Decision,
    request: Option<crate::api::ClubRequest>,
    patience: Duration,
    control: &Control,
    audit_failed: &(dyn Fn(String) + Sync),
) -> Verdict {
    let (id, action) = (d.id, d.action);
    let cause = match d.stage() {
        Stage::Settled(ending) => return Verdict::of(action, ending.clone(), request),
        Stage::Lost { cause, .. } => cause.clone(),
        Stage::Held { .. } | Stage::Queued | Stage::Sending => unreachable!("answered above"),
    };
    let read = || client.club_request(id, DECISION_LEVELS);
    let record = |d: &Decision, line| {
        let entry = entry(log, d, line);
        async move {
            log.write(&entry)
                .await
                .err()
                .into_iter()
                .for_each(audit_failed)
        }
    };
    let (settled, read) =
        settle::follow(d, read, Reread::of_request, patience, control, record).await;
    match settled {
        Ok(found) => Verdict::Settled {
            found,
            cause,
            request: read.map(|r| r.data),
        },
        Err(why) => Verdict::Unknown { cause, why },
    }
}

/// Sends the write of `action` on `id`: its answer, or `None` when `control` gave up
/// before it came (the write may or may not have been applied).
async fn send_write(
    client: &ApiClient,
    id: Uuid,
    action: RowAction,
    control: &Control,
) -> Option<Result<Option<crate::api::ClubRequest>, ApiError>> {
    let call = async {
        match action.status() {
            Some(status) => client
                .update_club_request(id, &status, DECISION_LEVELS)
                .await
                .map(|r| Some(r.data)),
            None => client.delete_club_request(id).await.map(|_| None),
        }
    };
    tokio::select! {
        r = call => Some(r),
        () = control.gave_up() => None,
    }
}

/// Applies `event` to `d` and writes the audit line the transition gives, awaited in the
/// file. Errors: the line could not be written (in words).
async fn step(log: &AuditLog, d: &mut Decision, event: Event) -> Result<(), String> {
    match d.apply(event) {
        Ok(Some(line)) => log.write(&entry(log, d, line)).await,
        Ok(None) => Ok(()),
        Err(e) => panic!("{e}"),
    }
}

/// The audit record of `line`, a line of `d`, in `log`'s name.
fn entry(log: &AuditLog, d: &Decision, line: Line) -> super::audit::AuditEntry {
    let (now, verb) = (chrono::Utc::now(), d.action.verb());
    log.entry(now, verb, d.id, line.outcome, line.detail)
}

/// Attempts at reading a request's status before a run decides it (each a GET that the
/// client itself retries on a transient failure), with the re-read backoff between them
/// ([`decision::backoff`]: 1, 2, 4, 8 s on the run's clock).
pub const PRE_READ_TRIES: u32 = 5;

/// What a run read of its requests before deciding them ([`prior_statuses`]).
#[derive(Debug, Clone, Default)]
pub struct Prior {
    /// The membership status the server showed, by request.
    pub status: std::collections::HashMap<Uuid, crate::api::MembershipStatus>,
    /// Requests whose status could not be read, with why (in English, for standard error):
    /// never sent, since a lost answer re-read as decided could not be told apart from a decision
    /// made before the run.
    pub unread: Vec<(Uuid, String)>,
    /// The club and the student of each request read ([`crate::ops::permit::Target`]'s `club` and
    /// `owner`), for the service's rules on who may decide or delete it.
    pub targets: std::collections::HashMap<Uuid, (Option<Uuid>, Option<Uuid>)>,
    /// What each request read is ([`super::audit::request_label`]: `#12345 → Robotics
    /// Club`), for its audit lines.
    pub labels: std::collections::HashMap<Uuid, String>,
    /// Requests the server does not know: the listing of their ids did not show them, or
    /// their read answered 404. Never sent ("no such request").
    pub missing: Vec<Uuid>,
}

/// The club and the student of `r` as read (`None` where the read left them out).
fn target_of(r: &crate::api::ClubRequest) -> (Option<Uuid>, Option<Uuid>) {
    (
        r.club.as_ref().map(|c| c.id),
        r.student.as_ref().map(|st| st.id),
    )
}

/// The membership status of each request before a run decides it, read through the
/// deployed listing's `ids` filter, 50 a call (api-notes.md, "Listing"), or one GET each
/// (operation 5) on a server without the listing (a 404 or 501 to it, as the dashboard
/// falls back). A read that fails is tried again, [`PRE_READ_TRIES`] times in all, waiting
/// on `control`'s clock; a request still unread is in [`Prior::unread`]. A request the
/// server does not show (unknown id: a listing of its id that answered without it, or 404 to
/// its read) is in [`Prior::missing`]: found by the reads the run makes anyway, no read more.
pub async fn prior_statuses(client: &ApiClient, ids: &[Uuid], control: &Control) -> Prior {
    let once = client.single_try();
    use crate::api::{Page, RequestFilter, Sort};
    // Club and student at `compact`: their names for the audit's label (a student account
    // may read `compact` students outside its classroom).
    let levels = DECISION_LEVELS;
    let mut prior = Prior::default();
    let sort = Sort::default();
    let mut listing = true;
    for chunk in ids.chunks(50) {
        if listing {
            let filter = RequestFilter {
                ids: chunk.to_vec(),
                ..RequestFilter::default()
            };
            let read = with_tries(control, || {
                once.list_club_requests(&filter, &sort, Page::new(1, 50), levels)
            })
            .await;
            match read {
                Ok(reply) => {
                    let shown: std::collections::HashSet<Uuid> =
                        reply.data.iter().map(|r| r.id).collect();
                    prior
                        .missing
                        .extend(chunk.iter().filter(|id| !shown.contains(id)));
                    for r in reply.data {
                        if !chunk.contains(&r.id) {
                            continue;
                        }
                        prior.targets.insert(r.id, target_of(&r));
                        if let Some(l) = super::audit::request_label(&r) {
                            prior.labels.insert(r.id, l);
                        }
                        if let Some(s) = r.membership() {
                            prior.status.insert(r.id, s.clone());
                        }
                    }
                    continue;
                }
                Err(ApiError::OperationUnavailable(_) | ApiError::NotFound(_)) => listing = false,
                Err(e) => {
                    let why = decision::error_detail(&e);
                    prior
                        .unread
                        .extend(chunk.iter().map(|id| (*id, why.clone())));
                    continue;
                }
            }
        }
        for id in chunk {
            match with_tries(control, || once.club_request(*id, levels)).await {
                Ok(reply) => {
                    prior.targets.insert(*id, target_of(&reply.data));
                    if let Some(l) = super::audit::request_label(&reply.data) {
                        prior.labels.insert(*id, l);
                    }
                    if let Some(s) = reply.data.membership() {
                        prior.status.insert(*id, s.clone());
                    }
                }
                Err(ApiError::NotFound(_)) => prior.missing.push(*id),
                Err(e) => prior.unread.push((*id, decision::error_detail(&e))),
            }
        }
    }
    prior
}

/// Runs the read `call` up to [`PRE_READ_TRIES`] times (on an [`ApiClient::single_try`]
/// client, so a read is tried at most that often) while it fails (but for an answer no second
/// try changes: not found, no such operation, refused, invalid), waiting the re-read backoff
/// on `control`'s clock between tries ([`decision::backoff`]: 1, 2, 4, 8 s); stops early on
/// [`Control::stop`]. For reads only (a 5xx to a read changed nothing): the pre-reads of a
/// run, the pages of a listing. Each try has the whole `--timeout`: a read that timed out
/// after several says so ([`ApiError::after_tries`]: "no answer in 40.1 s: 5 tries, ...").
pub async fn with_tries<T, F, Fut>(control: &Control, mut call: F) -> Result<T, ApiError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let mut watch = control.clock.start();
    let started = tokio::time::Instant::now();
    let mut attempt = 0;
    loop {
        let result = call().await;
        // A refusal gets the same answer again; anything else may pass next time.
        let settled = result
            .as_ref()
            .map_or_else(|e| e.class() == crate::api::ErrorClass::Refused, |_| true);
        attempt += 1;
        if settled || attempt >= PRE_READ_TRIES || control.stopped() {
            return result.map_err(|e| e.after_tries(attempt, started.elapsed()));
        }
        watch.sleep(decision::backoff(attempt - 1)).await;
    }
}

/// Whether approve and decline can work for this account on this server, asked before a
/// decision is sent ([`ApiClient::probe_update_route`], which changes nothing): a fault on
/// the way (a transient failure or a lost answer) is tried again, after 1 s and 2 s on
/// `control`'s clock. A real run and its dry run ask it alike.
///
/// Errors: the probe's last error (401: sign in; anything else: the route is unknown, and
/// each decision's answer tells).
pub async fn update_route(
    client: &ApiClient,
    control: &Control,
) -> Result<crate::api::UpdateRoute, ApiError> {
    let mut answer = client.probe_update_route().await;
    let mut watch = control.clock.start();
    for attempt in 0..2 {
        match &answer {
            Err(e) if e.is_transient() || e.class().write_lost() => {
                watch.sleep(decision::backoff(attempt)).await;
                answer = client.probe_update_route().await;
            }
            _ => break,
        }
    }
    answer
}

/// The requests of a decision, split before it is sent ([`undecided`]): what a run sends,
/// and what its dry run says it would send.
#[derive(Debug, Clone, Default)]
pub struct Undecided {
    /// To send, in the order given.
    pub send: Vec<Uuid>,
    /// Left out: the server already shows them decided (approve, decline), with the status.
    pub already: Vec<(Uuid, crate::api::MembershipStatus)>,
    /// Left out: their status could not be read first, with why ([`Prior::unread`]).
    pub unread: Vec<(Uuid, String)>,
    /// Left out: the service's rules do not let this account make the write on them
    /// ([`permitted`]), with why in English.
    pub refused: Vec<(Uuid, String)>,
    /// The club and student of each request read first ([`Prior::targets`]).
    pub targets: std::collections::HashMap<Uuid, (Option<Uuid>, Option<Uuid>)>,
    /// What each request read first is ([`Prior::labels`]), for its audit lines.
    pub labels: std::collections::HashMap<Uuid, String>,
    /// Left out: the server does not know them ([`Prior::missing`]): "no such request".
    pub missing: std::collections::HashSet<Uuid>,
}

impl Undecided {
    /// Why `id` is left out, in the command line's English: `already approved`, or `its
    /// status could not be read first (WHY)`; `None` when it is to be sent.
    pub fn why_left_out(&self, id: Uuid) -> Option<String> {
        if self.missing.contains(&id) {
            return Some(NO_SUCH_REQUEST.to_owned());
        }
        if let Some((_, status)) = self.already.iter().find(|(x, _)| *x == id) {
            return Some(format!("already {status}"));
        }
        if let Some((_, why)) = self.refused.iter().find(|(x, _)| *x == id) {
            return Some(why.clone());
        }
        self.unread
            .iter()
            .find(|(x, _)| *x == id)
            .map(|(_, why)| format!("its status could not be read first ({why})"))
    }

    /// True when a request was left out.
    pub fn left_out(&self) -> bool {
        !self.already.is_empty()
            || !self.unread.is_empty()
            || !self.refused.is_empty()
            || !self.missing.is_empty()
    }

    /// True when a request left out makes the run fail (exit code at least 1): one whose
    /// status could not be read, or one decided the other way already (approving a declined
    /// request). A request that already has the status `action` sets is as asked, whoever
    /// decided it: not a failure, so a run done twice, or two moderators' overlapping runs,
    /// end the same way ([`Outcome::Already`] for the same case answered by the server).
    pub fn fails(&self, action: RowAction) -> bool {
        !self.unread.is_empty()
            || !self.refused.is_empty()
            || !self.missing.is_empty()
            || self
                .already
                .iter()
                .any(|(_, s)| action.status().as_ref() != Some(s))
    }
}

/// The requests of `applied` (approvals or declines this run saw applied) that a read at the
/// run's end shows in the other decided status: overwritten since, with the status read
/// (the deployed 0.8.4 service accepts two opposite decisions that race, and the last one
/// stays). One listing of their ids, 50 a call ([`prior_statuses`]), never a read per id;
/// a request that could not be read is not reported. Empty for a delete.
pub async fn overwritten_since(
    client: &ApiClient,
    action: RowAction,
    applied: &[Uuid],
    control: &Control,
) -> Vec<(Uuid, crate::api::MembershipStatus)> {
    let Some(ours) = action.status() else {
        return Vec::new();
    };
    if applied.is_empty() {
        return Vec::new();
    }
    let read = prior_statuses(client, applied, control).await;
    applied
        .iter()
        .filter_map(|id| {
            let s = read.status.get(id)?;
            let decided = matches!(
                s,
                crate::api::MembershipStatus::Approved | crate::api::MembershipStatus::Declined
            );
            (decided && *s != ours).then(|| (*id, s.clone()))
        })
        .collect()
}

/// Why a request the server does not know is not sent, in the command line's English.
pub const NO_SUCH_REQUEST: &str = "no such request";

/// Splits `ids` before a decision is sent: requests the server already shows decided
/// (approve, decline; read by [`prior_statuses`]) are left out, since the server would
/// refuse them and a lost answer re-read as decided must be this run's own; so are requests
/// whose status could not be read (a lost answer on them could not be told apart from an earlier
/// decision). A delete sends every id (a lost delete re-read as gone is this run's: nothing
/// else deletes).
pub async fn undecided(
    client: &ApiClient,
    action: RowAction,
    ids: Vec<Uuid>,
    control: &Control,
) -> Undecided {
    if !action.needs_update_route() {
        return Undecided {
            send: ids,
            ..Undecided::default()
        };
    }
    let prior = prior_statuses(client, &ids, control).await;
    let unread: std::collections::HashSet<Uuid> = prior.unread.iter().map(|(id, _)| *id).collect();
    let missing: std::collections::HashSet<Uuid> = prior.missing.iter().copied().collect();
    let mut already = Vec::new();
    let send = ids
        .into_iter()
        .filter(|id| !unread.contains(id) && !missing.contains(id))
        .filter(|id| match prior.status.get(id) {
            Some(s) if *s != crate::api::MembershipStatus::Pending => {
                already.push((*id, s.clone()));
                false
            }
            _ => true,
        })
        .collect();
    Undecided {
        send,
        already,
        unread: prior.unread,
        refused: Vec::new(),
        targets: prior.targets,
        labels: prior.labels,
        missing,
    }
}

/// Leaves out of `split.send` every request the service's rules do not let `user` make
/// `action` on ([`crate::ops::permit::check`], api-notes.md "Who may do what"): a student's decision on
/// a request of a club it does not staff (`staffed`: the clubs it staffs, `None` when the
/// lookup failed: then the server's answer tells), a student's delete of another student's
/// request. A delete's requests are read first for their student (a decision's were read by
/// [`undecided`]); a request whose read failed goes on (the server's answer tells). Each
/// one left out is in `split.refused` with why, in English: the run and its dry run say the
/// same, and nothing is sent for it. Nothing for an account that is not a student: the
/// front ends refuse its writes whole before any read.
pub async fn permitted(
    client: &ApiClient,
    action: RowAction,
    split: &mut Undecided,
    user: &crate::api::User,
    staffed: Option<&[Uuid]>,
    control: &Control,
) {
    if !crate::ops::permit::is_student(user) {
        return;
    }
    let write = crate::ops::permit::Write::of(action);
    if action == RowAction::Delete {
        let prior = prior_statuses(client, &split.send, control).await;
        split.targets.extend(prior.targets);
        split.labels.extend(prior.labels);
        let missing: std::collections::HashSet<Uuid> = prior.missing.into_iter().collect();
        split.send.retain(|id| !missing.contains(id));
        split.missing.extend(missing);
    }
    let mut refused = Vec::new();
    split.send.retain(|id| {
        let (club, owner) = split.targets.get(id).copied().unwrap_or((None, None));
        let target = crate::ops::permit::Target {
            club,
            owner,
            staffed,
        };
        match crate::ops::permit::check(user, write, target) {
            Ok(()) => true,
            Err(r) => {
                refused.push((
                    *id,
                    format!(
                        "not permitted: {} (the service answers 403 \"{}\")",
                        r.english(write),
                        r.detail(write)
                    ),
                ));
                false
            }
        }
    });
    split.refused.extend(refused);
}

/// One decision sent to many requests, as the command line sends it.
pub struct Decisions<'a> {
    /// The client (its limiter paces the calls).
    pub client: &'a ApiClient,
    /// Where each answer and each settlement is audited.
    pub log: &'a AuditLog,
    /// Approve, decline or delete.
    pub action: RowAction,
    /// Requests decided at once, at most (at least 1).
    pub limit: usize,
    /// The run's switches and the clock its re-reads wait on.
    pub control: &'a Control,
}

impl Decisions<'_> {
    /// Sends the decision to every id of `ids` through [`decide`] (re-reads of a lost answer
    /// for up to [`SETTLE_PATIENCE`]) with [`bulk`]: a refusal no further call can beat
    /// ([`decision::stops_run`]) sends nothing more. `each` sees every verdict as it arrives
    /// (`None`: not sent); audit lines that cannot be written go to `audit_failed`. Returns
    /// the verdicts in the order of `ids`.
    pub async fn send(
        &self,
        ids: &[Uuid],
        audit_failed: &(dyn Fn(String) + Sync),
        each: impl FnMut(Uuid, Option<&Verdict>),
    ) -> Vec<(Uuid, Option<Verdict>)> {
        let (client, log, control, action) = (self.client, self.log, self.control, self.action);
        bulk(
            ids,
            self.limit,
            control,
            |id| {
                decide(
                    client,
                    log,
                    id,
                    action,
                    SETTLE_PATIENCE,
                    control,
                    audit_failed,
                )
            },
            |v| matches!(v, Verdict::Refused(e) if decision::stops_run(e)),
            each,
        )
        .await
    }
}

/// Settles a new contact whose answer was lost: the one loop ([`settle::follow`]) re-reads
/// the club (its contacts, at `default`) until a read tells, for at most `patience`.
/// `Ok(true)`: the club has a contact of that type and value (added); `Ok(false)`: it has
/// not, or the club is gone (not added, safe to try again).
///
/// Errors: no re-read showed the outcome in time (or `control` gave up): why the last one did not.
pub async fn settle_contact(
    client: &ApiClient,
    club: Uuid,
    new: &crate::api::NewContact,
    patience: Duration,
    control: &Control,
) -> Result<bool, StillUnknown> {
    // The loop follows a decision: this one is born lost, its lines written by the caller.
    let cause = ApiError::NoAnswer("the new contact's answer was lost".to_owned());
    let mut d = Decision::lost(club, RowAction::AddContact, 0, cause);
    let read = || client.club(club, super::club_read::CONTACT_LEVELS);
    let no_record = |_: &Decision, _| async {};
    let proves = Reread::of_club(new);
    let (settled, _) = settle::follow(&mut d, read, proves, patience, control, no_record).await;
    settled.map(|found| found.applied())
}

/// Runs `call` for every id with at most `limit` in flight (at least 1), results in input
/// order; `None` for an id not sent because the run stopped first ([`Control::stop`]: a
/// Ctrl-C, or an earlier result for which `stops` is true, such as a missing route or a
/// refused key: [`decision::stops_run`]). `each` sees every result as it arrives (progress,
/// one line per failure).
pub async fn bulk<T, F, Fut>(
    ids: &[Uuid],
    limit: usize,
    control: &Control,
    call: F,
    stops: impl Fn(&T) -> bool,
    mut each: impl FnMut(Uuid, Option<&T>),
) -> Vec<(Uuid, Option<T>)>
where
    F: Fn(Uuid) -> Fut,
    Fut: Future<Output = T>,
{
    let mut stream = futures::stream::iter(ids.iter().copied())
        .map(|id| {
            // `buffered` calls this closure only when a slot is free, so the flag read here
            // is current when the call would start.
            let fut = (!control.stopped()).then(|| call(id));
            async move {
                match fut {
                    Some(f) => (id, Some(f.await)),
                    None => (id, None),
                }
            }
        })
        .buffered(limit.max(1));
    let mut out = Vec::with_capacity(ids.len());
    while let Some((id, r)) = stream.next().await {
        if r.as_ref().is_some_and(&stops) {
            control.stop();
        }
        each(id, r.as_ref());
        out.push((id, r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stopping_result_leaves_the_rest_unsent() {
        let ids: Vec<Uuid> = (0..6).map(|_| Uuid::new_v4()).collect();
        let control = Control::default();
        let third = ids[2];
        let mut seen = 0;
        let out = bulk(
            &ids,
            1,
            &control,
            |id| async move { id == third },
            |stop: &bool| *stop,
            |_, _| seen += 1,
        )
        .await;
        assert_eq!(seen, 6);
        let sent = out.iter().filter(|(_, r)| r.is_some()).count();
        assert_eq!(sent, 3, "{out:?}");
        assert!(control.stopped());
    }
}
