//! The runtime: terminal set-up, the event loop and the API worker; and [`run`], the entry
//! point of the binary.

use std::io::Write;
use std::process::ExitCode;

use crate::cli::{Cli, Command, ServeDemoArgs};

/// Runs the command line: the dashboard, `demo` or `serve-demo`. Returns the exit code;
/// errors are printed to standard error in words (never a secret).
pub fn run(cli: Cli) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("club-admin: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = match cli.command {
        Some(Command::ServeDemo(args)) => rt.block_on(serve_demo(args)),
        Some(Command::Demo(_)) | None => Err("the dashboard is not built yet".to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("club-admin: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve_demo(args: ServeDemoArgs) -> Result<(), String> {
    let handle = crate::demo::start(crate::demo::DemoOptions {
        port: args.port,
        faults: args.faults.to_faults(),
        token_ttl: None,
        extra_requests: args.extra_requests,
    })
    .await?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "club-admin demo server listening on {}",
        handle.base_url
    );
    let _ = writeln!(
        out,
        "demo credentials (demo data only, valid until {}):",
        handle.moderator().token_expires.to_rfc3339()
    );
    for u in &handle.users {
        let _ = writeln!(out, "  {} <{}> role={}", u.label, u.email, u.role);
        let _ = writeln!(out, "    X-Api-Key: {}", u.api_key);
        let _ = writeln!(out, "    Authorization: Bearer {}", u.token);
    }
    let m = handle.moderator();
    let _ = writeln!(
        out,
        "try:\n  curl -s -H 'X-Api-Key: {}' -H 'Authorization: Bearer {}' {}/auth/user",
        m.api_key, m.token, handle.base_url
    );
    let _ = writeln!(
        out,
        "open the dashboard on it:\n  CLUB_ADMIN_API_KEY={} CLUB_ADMIN_TOKEN={} club-admin --base-url {}",
        m.api_key, m.token, handle.base_url
    );
    let _ = out.flush();
    drop(out);
    wait_for_stop().await;
    drop(handle);
    Ok(())
}

/// Waits for Ctrl-C, SIGTERM or SIGHUP.
async fn wait_for_stop() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).ok();
        let mut hup = signal(SignalKind::hangup()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async { if let Some(t) = term.as_mut() { t.recv().await; } else { std::future::pending::<()>().await } } => {}
            _ = async { if let Some(h) = hup.as_mut() { h.recv().await; } else { std::future::pending::<()>().await } } => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
