//! Every new request is seen (issue 32, item 2): whatever order a refresh's answers arrive
//! in (the listing's pages and the re-reads of known rows), each request new to the queue
//! is placed where the server's order puts it (ids ascending, the listing's sort), marked
//! new, said once and counted in the title; one that sorts onto a page the queue had not
//! loaded is found too (the server's count grew, so the refresh reads on). Through `update`
//! with real answers.

use crate::common::answers::ApiAnswer;
use crate::common::*;
use crate::fast::live_queue::pending;
use club_admin::api::{ClubRequest, UpdateRoute};
use club_admin::app::{ApiCall, Effect, ListPurpose, Model, ModelOptions, Msg, update};

/// A model (pages of `page_size`) signed in as an administrator (every pending request is
/// listed), whose listing's first page (`known`, of `total`) was answered at [`now`].
fn listed(page_size: u32, known: &[u128], total: u64) -> Model {
    listed_asking(page_size, known, total).0
}

/// [`listed`], and the effects of the first page's answer (the next page asked ahead).
fn listed_asking(page_size: u32, known: &[u128], total: u64) -> (Model, Vec<Effect>) {
    let mut m = model_from(ModelOptions {
        page_size,
        ..options()
    });
    let fx = club_admin::app::start(&mut m);
    for probe in api_ids(&fx, |c| *c == ApiCall::ProbeUpdateRoute) {
        let _ = answer(
            &mut m,
            probe,
            ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
        );
    }
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    let list = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let first: Vec<ClubRequest> = known.iter().map(|n| pending(*n, now())).collect();
    let next = (total > first.len() as u64).then_some(2);
    let fx = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(first, next, total))),
    );
    assert_eq!(m.queue().len(), known.len());
    (m, fx)
}

/// The answer the server gives `call`: a page of `server` (ids ascending, `size` a page),
/// or the rows a re-read by ids asks for.
fn answer_of(call: &ApiCall, server: &[ClubRequest], size: usize) -> ApiAnswer {
    let ApiCall::ListRequests { filter, page, .. } = call else {
        panic!("a refresh reads listings only: {call:?}");
    };
    let total = server.len() as u64;
    if !filter.ids.is_empty() {
        let rows = server
            .iter()
            .filter(|r| filter.ids.contains(&r.id))
            .cloned()
            .collect();
        return ApiAnswer::Listing(Ok(listing_reply(rows, None, total)));
    }
    let p = page.p as usize;
    let rows: Vec<ClubRequest> = server
        .iter()
        .skip((p - 1) * size)
        .take(size)
        .cloned()
        .collect();
    let last = server.len().div_ceil(size) as u32;
    let mut reply = listing_reply(rows, (p < last as usize).then_some(p as u32 + 1), total);
    if let Some(pg) = reply.meta.as_mut().and_then(|x| x.pagination.as_mut()) {
        pg.last_p = Some(last);
        pg.size = Some(size as u32);
    }
    ApiAnswer::Listing(Ok(reply))
}

/// Every order of `n` items (Heap's algorithm).
fn orders(n: usize) -> Vec<Vec<usize>> {
    fn heap(k: usize, a: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k <= 1 {
            out.push(a.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, a, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            a.swap(j, k - 1);
        }
    }
    let mut out = Vec::new();
    heap(n, &mut (0..n).collect(), &mut out);
    out
}

/// Runs a refresh on `m` against `server`, its first calls answered in `order` (the calls
/// those answers ask for, such as a next page, answered as they come); returns every
/// effect of the answers.
fn refresh_in(m: &mut Model, server: &[ClubRequest], size: usize, order: &[usize]) -> Vec<Effect> {
    let later = now() + chrono::Duration::seconds(30);
    let _ = update(m, Msg::Tick(later));
    let fx = update(m, key('r'));
    let first = calls(&fx);
    assert_eq!(first.len(), order.len(), "the refresh's reads: {first:?}");
    let mut all = Vec::new();
    let mut queue: Vec<(u64, ApiCall)> = order.iter().map(|i| first[*i].clone()).collect();
    while let Some((rid, call)) = (!queue.is_empty()).then(|| queue.remove(0)) {
        let fx = answer(m, rid, answer_of(&call, server, size));
        queue.extend(calls(&fx));
        all.extend(fx);
    }
    all
}

/// The ids of the queue's rows in the order they are shown (server order: ids ascending).
fn shown_ids(m: &Model) -> Vec<uuid::Uuid> {
    let q = m.queue();
    q.visible().iter().map(|&i| q.items()[i].id).collect()
}

#[test]
fn new_requests_are_placed_in_order_and_marked_whatever_order_the_answers_come_in() {
    let known = [10, 20, 30, 40, 50, 60];
    let mut server: Vec<ClubRequest> = known.iter().map(|n| pending(*n, now())).collect();
    let made = now() + chrono::Duration::seconds(10);
    for n in [15, 45, 70] {
        server.push(pending(n, made));
    }
    server.sort_by_key(|r| r.id);
    // Two calls: the page, and the re-read of the six known rows (page size 50).
    let mut tried = 0;
    for order in orders(2) {
        let mut m = listed(50, &known, 6);
        let fx = refresh_in(&mut m, &server, 50, &order);
        tried += 1;
        let ids: Vec<_> = server.iter().map(|r| r.id).collect();
        assert_eq!(shown_ids(&m), ids, "order {order:?}: in the server's order");
        for n in [15, 45, 70] {
            assert!(
                m.queue().get(id(n)).is_some_and(|i| i.is_new),
                "{n} new ({order:?})"
            );
        }
        for n in known {
            assert!(!m.queue().get(id(n)).is_some_and(|i| i.is_new), "{n} known");
        }
        assert_eq!(
            status(&m),
            club_admin::tr!(m.lang(), "status-new-requests", n = 3usize)
        );
        let titles: Vec<&String> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Title(t) => Some(t),
                _ => None,
            })
            .collect();
        assert!(
            titles.last().is_some_and(|t| t.contains('9')),
            "the title counts 9: {titles:?}"
        );
    }
    assert_eq!(tried, 2);
}

#[test]
fn a_new_request_on_a_page_not_loaded_is_found_and_marked_in_any_order() {
    // Pages of 3: the queue loaded page 1 (10, 20, 30) of 6; a new request (25) pushes 30
    // onto page 2, and another (55) sorts onto page 2.
    let known = [10, 20, 30];
    let mut server: Vec<ClubRequest> = [10, 20, 30, 40, 50, 60]
        .iter()
        .map(|n| pending(*n, now()))
        .collect();
    let made = now() + chrono::Duration::seconds(10);
    server.push(pending(25, made));
    server.push(pending(55, made));
    server.sort_by_key(|r| r.id);
    for order in orders(2) {
        let mut m = listed(3, &known, 6);
        let _ = refresh_in(&mut m, &server, 3, &order);
        for n in [25, 55] {
            let row = m.queue().get(id(n));
            assert!(
                row.is_some_and(|i| i.is_new),
                "{n} found and marked new ({order:?})"
            );
        }
        let ids: Vec<_> = shown_ids(&m);
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted, "{order:?}: in the server's order");
        assert_eq!(
            status(&m),
            club_admin::tr!(m.lang(), "status-new-requests", n = 2usize)
        );
    }
}

/// The requests marked new in `m`, by number among `ns`.
fn marked(m: &Model, ns: &[u128]) -> Vec<u128> {
    ns.iter()
        .copied()
        .filter(|n| m.queue().get(id(*n)).is_some_and(|i| i.is_new))
        .collect()
}

#[test]
fn back_dated_and_moved_in_requests_that_arrive_on_a_refresh_are_marked_new() {
    // The whole listing (10, 20, 30) was read. Then a request back-dated by three days (15:
    // a long transaction, another host's clock) and one made a month ago in another club
    // and moved into this one (70) enter it: new to this dashboard, whatever their
    // `created_at`.
    let known = [10, 20, 30];
    let mut server: Vec<ClubRequest> = known.iter().map(|n| pending(*n, now())).collect();
    server.push(pending(15, now() - chrono::Duration::days(3)));
    server.push(pending(70, now() - chrono::Duration::days(30)));
    server.sort_by_key(|r| r.id);
    for order in orders(2) {
        let mut m = listed(50, &known, 3);
        let fx = refresh_in(&mut m, &server, 50, &order);
        assert_eq!(marked(&m, &[10, 15, 20, 30, 70]), [15, 70], "{order:?}");
        assert_eq!(
            status(&m),
            club_admin::tr!(m.lang(), "status-new-requests", n = 2usize),
            "{order:?}"
        );
        let title = fx.iter().rev().find_map(|e| match e {
            Effect::Title(t) => Some(t.clone()),
            _ => None,
        });
        assert!(
            title.as_deref().is_some_and(|t| t.contains('5')),
            "the title counts 5: {title:?}"
        );
    }
}

#[test]
fn a_back_dated_request_among_the_pages_read_of_a_long_queue_is_new_and_the_rest_are_not() {
    // Pages of 3: page 1 (10, 20, 30) of 6 was read. A request back-dated by a day (15)
    // enters page 1; the refresh reads on (the count grew) and brings 40, 50 and 60 too,
    // which were always there, on pages not read before.
    let known = [10, 20, 30];
    let mut server: Vec<ClubRequest> = [10, 20, 30, 40, 50, 60]
        .iter()
        .map(|n| pending(*n, now() - chrono::Duration::hours(2)))
        .collect();
    server.push(pending(15, now() - chrono::Duration::days(1)));
    server.sort_by_key(|r| r.id);
    for order in orders(2) {
        let mut m = listed(3, &known, 6);
        let _ = refresh_in(&mut m, &server, 3, &order);
        assert_eq!(m.queue().len(), 7, "{order:?}: the whole listing read");
        assert_eq!(marked(&m, &[10, 15, 20, 30, 40, 50, 60]), [15], "{order:?}");
        assert_eq!(
            status(&m),
            club_admin::tr!(m.lang(), "status-new-requests", n = 1usize)
        );
    }
}

#[test]
fn the_rows_of_a_page_read_for_the_first_time_are_not_new() {
    // Pages of 3: page 1 (10, 20, 30) of 6 was read. The queue reads on (its end is near
    // the cursor) and page 2 (40, 50, 60) comes later: requests made after the first load,
    // but on a page never read before: not new.
    let (mut m, fx) = listed_asking(3, &[10, 20, 30], 6);
    let made = now() + chrono::Duration::minutes(10);
    let server: Vec<ClubRequest> = [10, 20, 30]
        .iter()
        .map(|n| pending(*n, now()))
        .chain([40, 50, 60].iter().map(|n| pending(*n, made)))
        .collect();
    let _ = later(&mut m, std::time::Duration::from_secs(15 * 60));
    let mut pages: Vec<(u64, ApiCall)> = calls(&fx)
        .into_iter()
        .filter(|(_, c)| {
            matches!(
                c,
                ApiCall::ListRequests {
                    purpose: ListPurpose::Page { .. },
                    ..
                }
            )
        })
        .collect();
    assert_eq!(
        pages.len(),
        1,
        "the queue near its end reads page 2: {pages:?}"
    );
    let (rid, call) = pages.remove(0);
    let _ = answer(&mut m, rid, answer_of(&call, &server, 3));
    assert_eq!(m.queue().len(), 6, "page 2 read");
    assert_eq!(marked(&m, &[10, 20, 30, 40, 50, 60]), [0u128; 0]);
    assert_ne!(
        status(&m),
        club_admin::tr!(m.lang(), "status-new-requests", n = 3usize)
    );
}

/// Answers every read of a refresh of `m` as a server holding `all` does: a page lists its
/// pending requests (ids ascending), a read by ids gives those requests whatever their
/// status; the reads those answers ask for are answered too.
fn refresh_on(m: &mut Model, all: &[ClubRequest]) {
    use club_admin::api::MembershipStatus;
    let later = m.now() + chrono::Duration::seconds(30);
    let _ = update(m, Msg::Tick(later));
    let mut queue = calls(&update(m, key('r')));
    let pending: Vec<ClubRequest> = all
        .iter()
        .filter(|r| r.membership_status == Some(MembershipStatus::Pending))
        .cloned()
        .collect();
    while let Some((rid, call)) = (!queue.is_empty()).then(|| queue.remove(0)) {
        let a = match &call {
            ApiCall::ListRequests { filter, .. } if !filter.ids.is_empty() => {
                let rows = all
                    .iter()
                    .filter(|r| filter.ids.contains(&r.id))
                    .cloned()
                    .collect();
                ApiAnswer::Listing(Ok(listing_reply(rows, None, pending.len() as u64)))
            }
            ApiCall::ListRequests { .. } => answer_of(&call, &pending, 50),
            other => panic!("a refresh reads listings only: {other:?}"),
        };
        queue.extend(calls(&answer(m, rid, a)));
    }
}

#[test]
fn a_loaded_request_declined_elsewhere_then_set_back_to_pending_is_new() {
    use club_admin::api::MembershipStatus;
    let known = [10, 20, 30];
    let mut m = listed(50, &known, 3);
    let mut all: Vec<ClubRequest> = known.iter().map(|n| pending(*n, now())).collect();
    all[1].membership_status = Some(MembershipStatus::Declined);
    refresh_on(&mut m, &all);
    let row = m.queue().get(id(20)).expect("the row stays");
    assert_eq!(row.decided_elsewhere, Some(MembershipStatus::Declined));
    assert!(marked(&m, &known).is_empty());
    // Someone set it back to pending (the school's web site): new here, as never seen.
    all[1].membership_status = Some(MembershipStatus::Pending);
    refresh_on(&mut m, &all);
    assert_eq!(marked(&m, &known), [20]);
    let row = m.queue().get(id(20)).expect("the row");
    assert_eq!(row.decided_elsewhere, None);
    assert_eq!(
        status(&m),
        club_admin::tr!(m.lang(), "status-new-requests", n = 1usize),
        "the notice counts the rows marked"
    );
}

#[test]
fn a_back_dated_request_entering_a_page_not_read_yet_is_new_by_the_ids_read_at_the_start() {
    // Pages of 3: page 1 (10, 20, 30) of 6 was read, and with it the ids of the whole
    // pending listing at `id_only` (10 to 60). A request back-dated by a day (45) then enters
    // page 2, never read: not among the ids listed at the start, so new, whatever its
    // `created_at`; 40, 50 and 60 were among them, so not.
    let at_start: Vec<ClubRequest> = [10, 20, 30, 40, 50, 60]
        .iter()
        .map(|n| pending(*n, now() - chrono::Duration::hours(2)))
        .collect();
    let mut server = at_start.clone();
    server.push(pending(45, now() - chrono::Duration::days(1)));
    server.sort_by_key(|r| r.id);
    for order in orders(2) {
        let (mut m, fx) = listed_asking(3, &[10, 20, 30], 6);
        let known: Vec<(u64, ApiCall)> = calls(&fx)
            .into_iter()
            .filter(|(_, c)| {
                matches!(c, ApiCall::ListRequests { levels, filter, .. }
                    if *levels == club_admin::api::Levels::ID_ONLY && filter.ids.is_empty())
            })
            .collect();
        assert_eq!(known.len(), 1, "the ids of the listing read once: {fx:?}");
        for (rid, call) in known {
            let more = answer(&mut m, rid, answer_of(&call, &at_start, 100));
            assert!(calls(&more).is_empty(), "one page of ids: {more:?}");
        }
        let _ = refresh_in(&mut m, &server, 3, &order);
        assert_eq!(m.queue().len(), 7, "{order:?}: the whole listing read");
        assert_eq!(marked(&m, &[10, 20, 30, 40, 45, 50, 60]), [45], "{order:?}");
        assert_eq!(
            status(&m),
            club_admin::tr!(m.lang(), "status-new-requests", n = 1usize)
        );
    }
}
