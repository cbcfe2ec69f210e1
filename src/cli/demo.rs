//! The options of `demo` and `serve-demo`: the account, the service version the demo server
//! imitates, its pool of connections and its faults.

use clap::Args;

use super::DashboardArgs;
use super::whole;

/// Options of `demo`.
#[derive(Debug, Args, Clone)]
pub struct DemoArgs {
    /// Demo account to sign in as.
    #[arg(long = "as", value_name = "ACCOUNT", default_value = "moderator", value_parser = ["moderator", "moderator2", "teacher", "admin", "requester"])]
    pub account: String,
    /// Sign in with the API key only (shows the sign-in popup, as a new user would see it).
    #[arg(long)]
    pub no_token: bool,
    /// Which service version the demo server imitates.
    #[command(flatten)]
    pub server: DemoServerArgs,
    /// Faults of the demo server.
    #[command(flatten)]
    pub faults: FaultArgs,
    /// Dashboard options.
    #[command(flatten)]
    pub dashboard: DashboardArgs,
}

impl DemoArgs {
    /// The demo server to start and the account to sign in as.
    pub fn demo_start(&self) -> crate::runtime::DemoStart {
        crate::runtime::DemoStart {
            server: crate::demo::DemoOptions {
                port: 0,
                faults: self.faults.to_faults(),
                token_ttl: None,
                extra_requests: 0,
                api_version: self.server.api_version,
                pool: self.server.pool(),
            },
            account: self.account.clone(),
            with_token: !self.no_token,
        }
    }
}

/// Options of `serve-demo`.
#[derive(Debug, Args, Clone)]
pub struct ServeDemoArgs {
    /// TCP port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<u16>)]
    pub port: u16,
    /// Which service version the demo server imitates.
    #[command(flatten)]
    pub server: DemoServerArgs,
    /// Faults of the demo server.
    #[command(flatten)]
    pub faults: FaultArgs,
    /// Extra pending requests to add (for scale tests).
    #[arg(long, default_value_t = 0, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub extra_requests: usize,
}

impl ServeDemoArgs {
    /// The demo server to run.
    pub fn options(&self) -> crate::demo::DemoOptions {
        crate::demo::DemoOptions {
            port: self.port,
            faults: self.faults.to_faults(),
            token_ttl: None,
            extra_requests: self.extra_requests,
            api_version: self.server.api_version,
            pool: self.server.pool(),
        }
    }
}

impl DemoServerArgs {
    /// The imitated pool (`--pool`, `--pool-timeout-ms`), if any.
    pub fn pool(&self) -> Option<crate::demo::Pool> {
        self.pool.map(|size| crate::demo::Pool {
            acquire_timeout: std::time::Duration::from_millis(self.pool_timeout_ms),
            ..crate::demo::Pool::deployed(size)
        })
    }
}

/// The deployed service the demo server imitates (`demo` and `serve-demo`).
#[derive(Debug, Args, Clone, Default)]
pub struct DemoServerArgs {
    /// Service version to imitate: 0.8 (0.8.4: approve and decline exist) or 0.9 (0.9.0: no
    /// update route, joining inserts an approved request).
    #[arg(long, value_name = "VERSION", default_value = "0.8", value_parser = crate::demo::ServiceVersion::parse)]
    pub api_version: crate::demo::ServiceVersion,
    /// Imitate the deployed service's database pool of N connections: each signed-in
    /// request holds one while it waits for a second, so N requests in flight stall until
    /// the acquire timeout, then fail with 500 (the deployed service: 16).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub pool: Option<usize>,
    /// The pool's acquire timeout, in milliseconds (with --pool).
    #[arg(long, value_name = "MS", default_value_t = 5000, allow_negative_numbers = true, value_parser = whole::<u64>, requires = "pool")]
    pub pool_timeout_ms: u64,
}

/// Fault injection of the demo server (all off by default).
#[derive(Debug, Args, Clone, Default)]
pub struct FaultArgs {
    /// Fixed delay added to every answer, in milliseconds.
    #[arg(long, default_value_t = 0, value_name = "MS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub latency_ms: u64,
    /// Extra random delay (0..=N ms) added to every answer.
    #[arg(long, default_value_t = 0, value_name = "MS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub jitter_ms: u64,
    /// Share of requests (0.0-1.0) answered with 500 or 503.
    #[arg(long, default_value_t = 0.0, value_name = "RATE", allow_negative_numbers = true, value_parser = rate)]
    pub failure_rate: f64,
    /// Share of requests (0.0-1.0) whose connection is closed without an answer.
    #[arg(long, default_value_t = 0.0, value_name = "RATE", allow_negative_numbers = true, value_parser = rate)]
    pub drop_rate: f64,
    /// Share of successful writes (0.0-1.0) whose answer is lost after the write committed.
    #[arg(long, default_value_t = 0.0, value_name = "RATE", allow_negative_numbers = true, value_parser = rate)]
    pub drop_after_write_rate: f64,
    /// Time (ms) between a decision's pending check and its write, as the deployed 0.8.4
    /// service: two decisions on one request within it are both accepted, the last stays.
    #[arg(long, default_value_t = 0, value_name = "MS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub race_ms: u64,
}

/// A share from 0.0 to 1.0. (Its flags take negative numbers as values, so that `-0.1`
/// gets a message naming the bound instead of being taken for a flag.)
fn rate(text: &str) -> Result<f64, String> {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("{text} is not a rate from 0.0 to 1.0")),
    }
}

impl FaultArgs {
    /// The demo server's [`crate::demo::Faults`].
    pub fn to_faults(&self) -> crate::demo::Faults {
        crate::demo::Faults {
            latency: std::time::Duration::from_millis(self.latency_ms),
            jitter: std::time::Duration::from_millis(self.jitter_ms),
            failure_rate: self.failure_rate,
            drop_rate: self.drop_rate,
            drop_after_write_rate: self.drop_after_write_rate,
            race: std::time::Duration::from_millis(self.race_ms),
        }
    }
}
