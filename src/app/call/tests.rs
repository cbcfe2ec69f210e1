//! What a call's answer is for, kept by construction: a failed call is answered for its
//! own purpose, and what the ledger and the link read of each call.

use super::*;
use crate::api::{ClubQuery, Levels, Page, RequestFilter, Sort};

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

fn list(purpose: ListPurpose) -> ApiCall {
    ApiCall::ListRequests {
        filter: RequestFilter::default(),
        sort: Sort::default(),
        page: Page::new(1, 50),
        levels: Levels::REQUEST_ROW,
        purpose,
    }
}

fn search(purpose: SearchPurpose) -> ApiCall {
    ApiCall::SearchClubs {
        query: ClubQuery::Text("robot".into()),
        page: Page::new(1, 20),
        levels: Levels::REQUEST_ROW,
        purpose,
    }
}

/// A failed call (a panicked task) is answered with the answer of its own purpose, its
/// context kept: the same handler as the server's answer takes it.
#[test]
fn a_failed_call_is_answered_for_its_own_purpose() {
    let e = || ApiError::Internal;
    let decline = ApiCall::UpdateRequest {
        id: id(1),
        status: MembershipStatus::Declined,
        levels: Levels::REQUEST_ROW,
    };
    assert!(matches!(
        decline.failed(e()),
        Answer::Decision { id: i, action: RowAction::Decline, result: Err(_) } if i == id(1)
    ));
    assert!(matches!(
        ApiCall::DeleteRequest { id: id(2) }.failed(e()),
        Answer::Decision { id: i, action: RowAction::Delete, result: Err(_) } if i == id(2)
    ));
    let page = list(ListPurpose::Page {
        page: 3,
        generation: 7,
    });
    assert!(matches!(
        page.failed(e()),
        Answer::ListPage {
            page: 3,
            generation: 7,
            result: Err(_)
        }
    ));
    assert!(matches!(
        list(ListPurpose::Reread(vec![id(4), id(5)])).failed(e()),
        Answer::Reread { ids, result: Err(_) } if ids == vec![id(4), id(5)]
    ));
    assert!(matches!(
        search(SearchPurpose::StaffedClubs).failed(e()),
        Answer::StaffedClubs(Err(_))
    ));
    assert!(matches!(
        search(SearchPurpose::Lookup).failed(e()),
        Answer::ClubSearch(Err(_))
    ));
    let token = ApiCall::CheckToken {
        token: CandidateToken(secrecy::SecretString::from("t")),
        save: true,
    };
    assert!(matches!(
        token.failed(e()),
        Answer::TokenCheck {
            save: true,
            result: Err(_),
            ..
        }
    ));
}

/// The predicates the ledger and the link read, per purpose.
#[test]
fn what_the_ledger_and_the_link_read_of_a_call() {
    let approve = ApiCall::UpdateRequest {
        id: id(1),
        status: MembershipStatus::Approved,
        levels: Levels::REQUEST_ROW,
    };
    assert!(approve.is_mutation());
    assert_eq!(approve.decision(), Some((id(1), RowAction::Approve)));
    assert_eq!(approve.audited_as(), Some((id(1), "approve")));
    assert_eq!(approve.when_back(), WhenBack::Dropped);
    assert!(!approve.is_refresh_read());
    let reread = list(ListPurpose::Reread(vec![id(4)]));
    assert_eq!(reread.rows_read(), &[id(4)]);
    assert_eq!(reread.when_back(), WhenBack::Rows(vec![id(4)]));
    assert!(reread.is_refresh_read());
    let page = list(ListPurpose::Page {
        page: 2,
        generation: 1,
    });
    assert!(page.rows_read().is_empty());
    assert_eq!(
        page.when_back(),
        WhenBack::Page {
            page: 2,
            generation: 1
        }
    );
    assert_eq!(
        search(SearchPurpose::StaffedClubs).when_back(),
        WhenBack::User
    );
    assert!(search(SearchPurpose::StaffedClubs).is_refresh_read());
    assert_eq!(search(SearchPurpose::Lookup).when_back(), WhenBack::Dropped);
    assert!(!search(SearchPurpose::Lookup).is_refresh_read());
    let contact = ApiCall::CreateContact {
        club_id: id(9),
        contact: crate::api::NewContact {
            kind: crate::api::ContactType::Email,
            value: "club@school.ac.th".into(),
        },
        levels: Levels::REQUEST_ROW,
    };
    assert!(contact.is_mutation());
    assert_eq!(contact.decision(), None);
    assert_eq!(contact.audited_as(), Some((id(9), "add-contact")));
}
