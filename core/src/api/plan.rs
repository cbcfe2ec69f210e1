//! A write as it would be sent (method, URL, JSON body), built by the code that sends it:
//! a dry run shows exactly what a real run sends (`--dry-run`).

use serde::Serialize;
use uuid::Uuid;

use super::client::ApiClient;
use super::models::{Levels, MembershipStatus, NewContact};

#[derive(Serialize)]
struct Body<'a, D: Serialize> {
    data: &'a D,
    fetch_level: &'static str,
    descendant_fetch_level: &'static str,
}

#[derive(Serialize)]
struct StatusData<'a> {
    status: &'a str,
}

/// A write as it would be sent: method, URL and JSON body (none for DELETE). Built by the
/// same code that sends it ([`ApiClient::plan_update`], [`ApiClient::plan_delete`],
/// [`ApiClient::plan_new_contact`]), so a dry run shows exactly what a real run sends.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Planned {
    /// `PUT`, `DELETE` or `POST`.
    pub method: &'static str,
    /// The whole URL.
    pub url: String,
    /// The JSON body, if any.
    pub body: Option<serde_json::Value>,
}

fn body_json<D: Serialize>(data: &D, levels: Levels) -> serde_json::Value {
    let body = Body {
        data,
        fetch_level: levels.fetch_level.as_str(),
        descendant_fetch_level: levels.descendant_fetch_level.as_str(),
    };
    serde_json::to_value(&body).unwrap_or(serde_json::Value::Null)
}

impl ApiClient {
    /// Operation 3 as it is sent: `PUT /v1/clubs/requests/{id}` with
    /// `{"data":{"status"},"fetch_level","descendant_fetch_level"}`.
    pub fn plan_update(&self, id: Uuid, status: &MembershipStatus, levels: Levels) -> Planned {
        let data = StatusData {
            status: status.as_str(),
        };
        Planned {
            method: "PUT",
            url: format!("{}/v1/clubs/requests/{id}", self.base),
            body: Some(body_json(&data, levels)),
        }
    }

    /// Operation 6 as it is sent: `DELETE /v1/clubs/requests/{id}`, no body.
    pub fn plan_delete(&self, id: Uuid) -> Planned {
        Planned {
            method: "DELETE",
            url: format!("{}/v1/clubs/requests/{id}", self.base),
            body: None,
        }
    }

    /// Operation 2 as it is sent: `POST /v1/clubs/{club_id}/contacts` with
    /// `{"data":{"type","value"},"fetch_level","descendant_fetch_level"}`.
    pub fn plan_new_contact(
        &self,
        club_id: Uuid,
        new_contact: &NewContact,
        levels: Levels,
    ) -> Planned {
        Planned {
            method: "POST",
            url: format!("{}/v1/clubs/{club_id}/contacts", self.base),
            body: Some(body_json(new_contact, levels)),
        }
    }
}
