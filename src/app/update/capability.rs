//! What the server lets this account do: the probe of the update route at
//! start (or after signing in), its answer, approve and decline refused here, before any
//! call, where they cannot work.

use super::connection::{call, note_error};
use super::tell::{log, say};
use crate::api::{ApiError, UpdateRoute};
use crate::app::call::ApiCall;
use crate::app::model::capability::{PROBE_LIMIT, route_notice};
use crate::app::model::{Connection, Model, Severity};
use crate::app::msg::Effect;
use crate::ops::permit::Write;

/// The probe (`PUT` of the nil UUID, which changes nothing), when it can tell something new:
/// a token is set (the route needs one), not `--read-only` (nothing would be offered
/// anyway), the route is not known yet, no probe is in flight, and fewer than
/// [`PROBE_LIMIT`] were sent.
pub(super) fn probe(m: &mut Model) -> Vec<Effect> {
    if !m.has_token
        || m.read_only
        || m.capabilities.update_route.is_some()
        || m.capabilities.probes >= PROBE_LIMIT
        || m.calls.iter().any(|c| *c == ApiCall::ProbeUpdateRoute)
    {
        return Vec::new();
    }
    m.capabilities.probes += 1;
    vec![call(m, ApiCall::ProbeUpdateRoute)]
}

/// The probe's answer. An error leaves the route unknown: approve and decline stay offered,
/// and the first answer to one tells ([`UpdateRoute::learned_from`]).
pub(super) fn on_update_route(m: &mut Model, res: Result<UpdateRoute, ApiError>) -> Vec<Effect> {
    match res {
        Ok(route) => {
            m.connection = Connection::Online;
            learn(m, route);
        }
        Err(e) => {
            tracing::info!("the update-route probe could not tell: {e}");
            note_error(m, &e);
        }
    }
    Vec::new()
}

/// Records what the server said about approve and decline. The first time they turn out
/// impossible, the status line and the activity log say so (once: later refusals and key
/// presses do not repeat it in the log).
pub(super) fn learn(m: &mut Model, route: UpdateRoute) {
    let changed = m.capabilities.update_route.as_ref() != Some(&route);
    // An account the service's rules already keep from deciding (a teacher, an
    // administrator: ops::permit) is shown why in the reader's words, not the server's
    // English detail, and as what it is: expected, not an error.
    let expected = matches!(route, UpdateRoute::RoleRefused { .. })
        .then(|| m.permit(Write::Decide, None).err())
        .flatten();
    let notice = match expected {
        Some(why) => Some(crate::tr!(
            m.lang,
            "status-cannot-decide-account-why",
            detail = crate::i18n::tr(m.lang, why.key(Write::Decide))
        )),
        None => route_notice(m.lang, &route),
    };
    m.capabilities.update_route = Some(route);
    match notice {
        Some(text) if changed || !m.capabilities.notice_given => {
            m.capabilities.notice_given = true;
            let text = crate::text::clean(&text, 300);
            if expected.is_some() {
                // What the account is, not a failure: logged as information.
                log(m, "capability", None, text.clone(), Ok(()));
                say(m, Severity::Info, &text);
                return;
            }
            let warning = crate::i18n::tr(m.lang, "log-what-warning");
            log(m, "capability", None, text.clone(), Err(warning));
            say(m, Severity::Error, &text);
            // The first listing does not replace it on the status line.
            if let Some(n) = m.notice.as_mut() {
                n.start_warning = true;
            }
        }
        Some(_) => {}
        None => m.capabilities.notice_given = false,
    }
}
