//! Every awaited answer to its own handler ([`route`]), and the answers no single file of `update` owns:
//! the clubs a student staffs and a decision's answer (who is signed in and a pasted token's
//! check are [`super::signin`]'s), handed by what it means to
//! the file it concerns ([`on_decision`]: the decision machine, the bulk task, a session
//! over, a lost answer's re-reads).

use uuid::Uuid;

use super::connection::note_ok;
use super::errors::error_text;
use super::tell::{label_of, say};
use super::{
    bulk, capability, count, decisions, held, listing, lost, new_requests, rows, scope, signin,
};
use crate::api::{ApiError, ClubRequest, Reply, UpdateRoute};
use crate::app::call::{Answer, Decided};
use crate::app::model::{ListScope, ListingSupport, Model, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;
use crate::ops::RowAction;
use crate::ops::decision::{self, Event};

/// The clubs the signed-in student staffs: the listing's scope.
pub(super) fn on_staffed_clubs(
    m: &mut Model,
    res: Result<Reply<Vec<crate::api::Club>>, ApiError>,
) -> Vec<Effect> {
    let reply = match res {
        Ok(reply) => reply,
        Err(e) => {
            let what = tr(m.lang, "status-staffed-clubs-failed");
            return listing::listing_failed(m, &e, &what);
        }
    };
    note_ok(m, &reply.api_version);
    m.listing.support = ListingSupport::Available;
    let mut fx = rows::fetch_unloaded(m);
    let ids: Vec<Uuid> = reply.data.iter().map(|c| c.id).collect();
    m.listing.staffed = Some(ids.clone());
    let thai = m.lang == crate::i18n::Lang::Thai;
    for c in &reply.data {
        let name = c.name.as_ref();
        if let Some(n) = name.and_then(|n| if thai { n.thai_first() } else { n.best() }) {
            m.listing.club_names.insert(c.id, crate::text::clean(n, 60));
        }
    }
    if ids.is_empty() {
        fx.extend(scope::chosen(m, ListScope::None));
        // What to do next, too long for a phone's status line: in the log too, whole, where
        // the line's "L: full text" leads.
        let text = tr(m.lang, "status-no-staffed-clubs");
        super::tell::log_notice(m, &text, Severity::Info);
        say(m, Severity::Info, &text);
        if let Some(n) = m.notice.as_mut() {
            n.logged = true;
        }
    } else {
        fx.extend(scope::chosen(m, ListScope::Clubs(ids)));
    }
    fx
}

/// Hands the answer to its own handler, the one file of `update` that waits for it: one arm
/// per purpose, nothing left over (so no answer reaches the handler of another call).
/// `update` calls it for every awaited answer, between the link's bookkeeping and what
/// waits on reads. Here, not in `app/call.rs`: the call that an answer answers never
/// imports its handler, so the call's file stays below the files that handle answers.
pub(super) fn route(answer: Answer, m: &mut Model) -> Vec<Effect> {
    use super::club;
    match answer {
        Answer::User(result) => signin::on_user(m, result),
        Answer::TokenCheck {
            token,
            save,
            result,
        } => signin::on_token_check(m, token, save, result),
        Answer::StaffedClubs(result) => on_staffed_clubs(m, result),
        Answer::ListPage {
            page,
            generation,
            result,
        } => listing::on_list_page(m, page, generation, result),
        Answer::ListCount { generation, result } => count::on_list_count(m, generation, result),
        Answer::Known { page, result } => new_requests::on_known(m, page, result),
        Answer::Reread { ids, result } => rows::on_reread(m, ids, result),
        Answer::Row { id, result } => rows::on_fetch(m, id, result),
        Answer::Decision { id, action, result } => on_decision(m, id, action, result),
        Answer::Club { id, result } => club::on_club(m, id, result),
        Answer::ClubSearch(result) => club::on_club_search(m, result),
        Answer::ContactCreated { club_id, result } => club::on_contact_created(m, club_id, result),
        Answer::UpdateRoute(result) => capability::on_update_route(m, result),
    }
}

/// The server's answer to the decision on `id`: the table of decisions takes its meaning (the shared
/// [`decision::classify`]), the audit gets the line the transition writes, the row takes the
/// server's word (or keeps its error), a bulk task counts it.
fn on_decision(m: &mut Model, id: Uuid, action: RowAction, result: Decided) -> Vec<Effect> {
    if action.needs_update_route()
        && let Some(route) = UpdateRoute::learned_from(&result)
        && let Err(e) = result
    {
        return bulk::refused_by_route(m, id, route, e);
    }
    let result: Result<Option<ClubRequest>, ApiError> = result.map(|reply| {
        note_ok(m, &reply.api_version);
        reply.data
    });
    if let Err(e) = &result
        && e.needs_sign_in()
    {
        return held::session_over(m, id, e.clone());
    }
    let label = label_of(m, id);
    let (answer, request) = decision::classify(result).split();
    let mut fx: Vec<Effect> = decisions::step(m, id, Event::Answered(answer.clone()))
        .into_iter()
        .collect();
    match answer {
        decision::Answer::Done(()) => {
            decisions::confirmed(m, id, action, request.flatten(), &label)
        }
        decision::Answer::Already(status) => decisions::already(m, id, action, status, &label),
        decision::Answer::Lost(e) => fx.extend(lost::lost(m, id, action, e, &label)),
        // It never left (no connection could be made): queued again, it waits.
        decision::Answer::Refused(e) if decision::not_sent(&e) => {
            decisions::not_left(m, id, &e);
            let why = crate::tr!(m.lang, "log-write-waits", error = error_text(m.lang, &e));
            let queued = crate::app::msg::Outcome::Queued;
            decisions::push_log(m, action, id, &label, queued, &why);
        }
        // Dropped before it left (a bulk stopped): not sent, the row as it was.
        decision::Answer::Refused(e @ ApiError::NotSent(_)) => {
            let why = error_text(m.lang, &e);
            let not_sent = crate::app::msg::Outcome::NotSent;
            decisions::push_log(m, action, id, &label, not_sent, &why);
        }
        decision::Answer::Refused(e) => fx.extend(decisions::refused(m, id, action, e, &label)),
    }
    if m.activities.bulk.is_some() {
        fx.extend(bulk::after_answer(m, id));
    }
    fx
}
