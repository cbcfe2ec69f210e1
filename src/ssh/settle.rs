//! Interrupted writes settled as `serve-ssh` starts, before anyone signs in: the writes a
//! run no longer alive left open in the host's audit (a crash, `kill -9`, a power cut) are
//! re-read with a moderator's remembered token and settled with that run's id
//! ([`crate::ops::recover::settle_all_in`]), so `history` and `status` show them settled from
//! the start, not only once the first moderator connects. One log line says what became of
//! them. Without a remembered token that the service takes (or while it cannot be reached)
//! they stay open, and the first session that signs in settles them as before
//! (`runtime::build::Dashboard::settle_interrupted`); the run locks keep the two from
//! settling one write twice.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use secrecy::SecretString;

use super::Shared;

/// Settles the host's interrupted writes now (see the module). Returns the log line, or
/// `None` when nothing was open.
pub(crate) async fn at_start(shared: &Arc<Shared>) -> Option<String> {
    let audit = shared.audit_path.clone()?;
    let client = shared.client.for_session();
    let server = client.base_url().to_owned();
    let open = {
        let (audit, writes) = (audit.clone(), shared.clone());
        tokio::task::spawn_blocking(move || writes.open_writes.scan(&audit))
            .await
            .ok()?
            .ok()?
    };
    let open: Vec<_> = open
        .into_iter()
        .filter(|e| e.server == server && e.run.as_deref() != Some(crate::ops::audit::run_id()))
        .collect();
    if open.is_empty() {
        return None;
    }
    let token = shared
        .token_dir
        .as_deref()
        .and_then(|dir| token_for(dir, &open));
    let Some(token) = token else {
        let line = format!(
            "{} open writes of an interrupted run wait for the first sign-in to be settled (no remembered token to read them with)",
            open.len()
        );
        tracing::info!("{line}");
        return Some(line);
    };
    client.set_token(Some(token));
    let control = crate::ops::run::Control::default();
    let settled =
        crate::ops::recover::settle_all_in(&client, &audit, &server, &control, &shared.open_writes);
    let line = match settled.await {
        Ok(settled) if settled.is_empty() => return None,
        Ok(settled) => settled_line(&settled),
        Err(e) => format!("interrupted writes not settled at start: {e}"),
    };
    tracing::info!("{line}");
    Some(line)
}

/// "3 writes of an interrupted run settled: 2 approved, 1 not applied"; writes no read
/// could settle (the service unreachable, the remembered token refused) are not called
/// settled: the line says they wait for the first sign-in, which settles them.
fn settled_line(settled: &[crate::ops::recover::Settled]) -> String {
    let known: Vec<_> = settled.iter().filter(|s| s.is_some()).cloned().collect();
    let unknown = settled.len() - known.len();
    let waiting = |n: usize| {
        let writes = if n == 1 { "write" } else { "writes" };
        format!(
            "{n} {writes} of an interrupted run could not be read at start (the service did not answer, or the remembered token was refused): they wait for the first sign-in to be settled"
        )
    };
    if known.is_empty() {
        return waiting(unknown);
    }
    let summary = crate::ops::recover::summary(&known);
    let line = summary.replacen(
        " of an interrupted run:",
        " of an interrupted run settled:",
        1,
    );
    match unknown {
        0 => line,
        n => format!("{line}; {}", waiting(n)),
    }
}

/// A remembered token to read the open writes with: the token of the key that sent the
/// newest of them, else any remembered token whose expiry (the JWT's `exp`) has not passed.
/// Every account may read requests (api-notes.md, "Who may do what").
fn token_for(dir: &Path, open: &[crate::ops::AuditEntry]) -> Option<SecretString> {
    let now = chrono::Utc::now();
    let usable = |path: &Path| -> Option<SecretString> {
        let text = std::fs::read_to_string(path).ok()?;
        let token = text.trim();
        let alive = crate::api::jwt_expiry(token).is_none_or(|exp| exp > now);
        (!token.is_empty() && alive).then(|| SecretString::from(token.to_owned()))
    };
    let senders = open
        .iter()
        .rev()
        .filter_map(|e| e.key.as_deref())
        .map(|key| super::token_file(dir, key));
    let others = token_files(dir);
    senders.chain(others).find_map(|p| usable(&p))
}

/// The remembered token files in `dir` (`*.token`), newest first.
fn token_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "token"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files.into_iter().map(|(_, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::settled_line;
    use crate::ops::decision::Found;

    #[test]
    fn only_what_a_read_settled_is_called_settled() {
        let approved = Some(Found::Decided(crate::api::MembershipStatus::Approved));
        let line = settled_line(&[approved, None, None]);
        assert!(
            line.starts_with("1 write of an interrupted run settled: 1 approved; 2 writes")
                && line.ends_with("wait for the first sign-in to be settled"),
            "{line}"
        );
        let line = settled_line(&[None]);
        assert!(!line.contains("settled:"), "{line}");
        assert!(
            line.starts_with("1 write of an interrupted run could not be read"),
            "{line}"
        );
    }
}
