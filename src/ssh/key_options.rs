//! The options of an `authorized_keys` line, read as OpenSSH reads them (sshd(8),
//! "AUTHORIZED_KEYS FILE FORMAT"; `auth-options.c`): a comma-separated list before the key,
//! values in double quotes (`\"` inside), ended by the first space outside quotes.
//!
//! What each option does here (the rest of the file's meaning is OpenSSH's):
//!
//! | option | here |
//! | --- | --- |
//! | `from="pattern-list"` | the client's address must match (`*`, `?`, `!` negation, CIDR `10.0.0.0/8`); the host name is the address (OpenSSH's `UseDNS no`) |
//! | `expiry-time="YYYYMMDD[HHMM[SS]][Z]"` | the key is refused after that time (the server's local time, or UTC with `Z`) |
//! | `restrict` | no terminal (so no dashboard), no forwarding; `pty` after it gives the terminal back |
//! | `no-pty` / `pty` | a terminal refused / allowed (a key without one may run commands only) |
//! | `command="..."` | a forced command: whatever the client asks (dashboard or command), this club-admin command runs instead; the client's own command is logged |
//! | `environment="NAME=value"` | not applied, as sshd with its default `PermitUserEnvironment no`; said by the check and the log |
//! | `no-port-forwarding`, `no-agent-forwarding`, `no-X11-forwarding`, `no-user-rc`, `port-forwarding`, `agent-forwarding`, `X11-forwarding`, `user-rc`, `permitopen=`, `permitlisten=`, `tunnel=`, `no-touch-required` | no effect: serve-ssh forwards nothing and runs no rc file; said by the check |
//! | `cert-authority`, `principals=`, `verify-required` | the line is refused: serve-ssh accepts no certificates and cannot check a security key's user verification |
//! | anything else | the line is refused, as sshd refuses a line it cannot read |
//!
//! A line refused keeps its key out (the other lines still count); the reason is logged
//! and shown by `serve-ssh --check`.

use std::net::IpAddr;

use chrono::{DateTime, Local, NaiveDate, NaiveDateTime, TimeZone, Utc};

/// What the options of one line allow: the rules a connection signed in with that line's
/// key runs under.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyRules {
    /// `from=`: the patterns the client's address must match; `None`: any address.
    pub from: Option<Vec<AddrPattern>>,
    /// `expiry-time=`: the key is refused from this instant on.
    pub expires: Option<DateTime<Utc>>,
    /// A terminal may be asked for (`no-pty` and `restrict` take it away, `pty` gives it
    /// back): false means no dashboard, only commands.
    pub pty: bool,
    /// `command=`: the club-admin command every request of this key runs instead of its own.
    pub command: Option<String>,
    /// Options that have no effect here, said by the check and the log (`environment=`,
    /// the forwarding ones...), each as written (a value longer than 60 characters cut).
    pub said: Vec<String>,
}

impl KeyRules {
    /// The rules of a line with no options: any address, no expiry, a terminal allowed.
    pub fn open() -> KeyRules {
        KeyRules {
            pty: true,
            ..KeyRules::default()
        }
    }

    /// Whether a connection from `addr` at `now` may sign in under these rules.
    ///
    /// Errors: why not, in English for the log (the address not matched by `from=`, or
    /// the key expired, with the time).
    pub fn admit(&self, addr: IpAddr, now: DateTime<Utc>) -> Result<(), String> {
        if let Some(at) = self.expires
            && now >= at
        {
            return Err(format!(
                "the key expired at {} (expiry-time in the authorized keys file)",
                at.to_rfc3339()
            ));
        }
        if let Some(patterns) = &self.from
            && !matches_from(patterns, addr.to_canonical())
        {
            return Err(format!(
                "the address {} is not allowed by the key's from=\"{}\"",
                addr.to_canonical(),
                patterns
                    .iter()
                    .map(AddrPattern::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
        Ok(())
    }

    /// The options in a few words for the log and the check ("from=10.0.0.0/8, no
    /// terminal, forced command \"requests list\""); empty for a line with none.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if let Some(p) = &self.from {
            let list: Vec<String> = p.iter().map(AddrPattern::to_string).collect();
            parts.push(format!("from={}", list.join(",")));
        }
        if let Some(at) = self.expires {
            parts.push(format!("expires {}", at.to_rfc3339()));
        }
        if !self.pty {
            parts.push("no terminal (commands only)".into());
        }
        if let Some(c) = &self.command {
            parts.push(format!("forced command {:?}", crate::text::clean(c, 60)));
        }
        parts.join(", ")
    }
}

/// One pattern of a `from=` list: an address with wildcards (`192.168.1.*`, `::1`), or a
/// network in CIDR notation (`10.0.0.0/8`), either negated with `!`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddrPattern {
    /// `!` before it: a match refuses the address.
    pub negated: bool,
    /// What it matches.
    pub what: AddrMatch,
}

/// What an [`AddrPattern`] matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddrMatch {
    /// A network (`10.0.0.0/8`, `fd00::/8`).
    Net(ipnet::IpNet),
    /// The address as text, with `*` and `?` (OpenSSH's `match_pattern`).
    Glob(String),
}

impl std::fmt::Display for AddrPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.negated {
            f.write_str("!")?;
        }
        match &self.what {
            AddrMatch::Net(n) => write!(f, "{n}"),
            AddrMatch::Glob(g) => f.write_str(g),
        }
    }
}

/// OpenSSH's `addr_match_list` then `match_host_and_ip`: a negated pattern that matches
/// refuses; else any pattern that matches allows; else refused.
fn matches_from(patterns: &[AddrPattern], addr: IpAddr) -> bool {
    let text = addr.to_string();
    let hit = |p: &AddrPattern| match &p.what {
        AddrMatch::Net(n) => n.contains(&addr),
        AddrMatch::Glob(g) => wildmatch::WildMatch::new(&g.to_ascii_lowercase()).matches(&text),
    };
    if patterns.iter().any(|p| p.negated && hit(p)) {
        return false;
    }
    patterns.iter().any(|p| !p.negated && hit(p))
}

/// One option of a line as written: its name and its value (unquoted), if it has one.
pub type KeyOption = (String, Option<String>);

/// A line of an authorized keys file split into its options and the key's text.
///
/// Errors: an unterminated quote, with a message.
pub fn split_line(line: &str) -> Result<(Vec<KeyOption>, &str), String> {
    let line = line.trim();
    // A line that starts with a key type has no options (OpenSSH tries the key first).
    if looks_like_key(line) {
        return Ok((Vec::new(), line));
    }
    let mut opts = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while i < bytes.len() && !matches!(bytes[i], b'=' | b',' | b' ' | b'\t') {
            i += 1;
        }
        let name = line[start..i].to_owned();
        if name.is_empty() {
            return Err("an empty option before the key".into());
        }
        let mut value = None;
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            if i >= bytes.len() || bytes[i] != b'"' {
                return Err(format!("the option {name}= has no value in double quotes"));
            }
            i += 1;
            let mut v = String::new();
            let mut closed = false;
            let rest = &line[i..];
            let mut chars = rest.char_indices();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            // sshd takes `\"` as a quote and keeps every other backslash.
                            if n != '"' {
                                v.push('\\');
                            }
                            v.push(n);
                        }
                    }
                    '"' => {
                        i += at + 1;
                        closed = true;
                        break;
                    }
                    c => v.push(c),
                }
            }
            if !closed {
                return Err(format!("the option {name}= has an unterminated quote"));
            }
            value = Some(v);
        }
        opts.push((name, value));
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b' ' | b'\t') => break,
            _ => return Err("no key after the options".into()),
        }
    }
    Ok((opts, line[i..].trim_start()))
}

/// True when `text` starts with a key type OpenSSH knows (the line has no options).
fn looks_like_key(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    first.starts_with("ssh-")
        || first.starts_with("ecdsa-sha2-")
        || first.starts_with("sk-ssh-")
        || first.starts_with("sk-ecdsa-")
        || first.starts_with("rsa-sha2-")
}

/// The rules of a line's options ([`split_line`]) (`expiry-time` read in the server's
/// local time unless it ends in `Z`).
///
/// Errors: why the line is refused (an option that cannot be honoured here, an unknown
/// one, a bad value), with a message naming the option.
pub fn rules(opts: &[KeyOption]) -> Result<KeyRules, String> {
    let mut r = KeyRules::open();
    for (name, value) in opts {
        let lower = name.to_ascii_lowercase();
        let need = |v: &Option<String>| -> Result<String, String> {
            v.clone()
                .ok_or_else(|| format!("the option {name} needs a value (={name}\"...\")"))
        };
        match lower.as_str() {
            "from" => r.from = Some(parse_from(&need(value)?)?),
            "expiry-time" => {
                let at = parse_expiry(&need(value)?)?;
                r.expires = Some(r.expires.map_or(at, |e| e.min(at)));
            }
            "restrict" => r.pty = false,
            "no-pty" => r.pty = false,
            "pty" => r.pty = true,
            "command" => {
                if r.command.is_some() {
                    return Err("command= given twice".into());
                }
                r.command = Some(need(value)?);
            }
            "environment" => r.said.push(format!(
                "environment=\"{}\" not applied (as sshd's default PermitUserEnvironment no)",
                crate::text::clean(&need(value)?, 60)
            )),
            "no-port-forwarding"
            | "no-agent-forwarding"
            | "no-x11-forwarding"
            | "no-user-rc"
            | "port-forwarding"
            | "agent-forwarding"
            | "x11-forwarding"
            | "user-rc"
            | "no-touch-required" => r.said.push(format!(
                "{name}: no effect here (serve-ssh forwards nothing and runs no rc file)"
            )),
            "permitopen" | "permitlisten" | "tunnel" => {
                r.said.push(format!(
                    "{name}=\"{}\": no effect here (serve-ssh forwards nothing)",
                    crate::text::clean(&need(value)?, 60)
                ));
            }
            "cert-authority" | "principals" => {
                return Err(format!(
                    "{name}: serve-ssh accepts no certificates, so this line signs no one in"
                ));
            }
            "verify-required" => {
                return Err(
                    "verify-required: serve-ssh cannot check a security key's user verification"
                        .into(),
                );
            }
            _ => {
                return Err(format!(
                    "unknown option {:?} (sshd refuses such a line too)",
                    crate::text::clean(name, 40)
                ));
            }
        }
    }
    Ok(r)
}

/// A `from=` pattern list.
///
/// Errors: an empty list, a bad CIDR network.
fn parse_from(list: &str) -> Result<Vec<AddrPattern>, String> {
    let mut out = Vec::new();
    for raw in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (negated, p) = match raw.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, raw),
        };
        let what = if p.contains('/') {
            let net: ipnet::IpNet = p
                .parse()
                .map_err(|_| format!("from=: {p:?} is not a network (10.0.0.0/8)"))?;
            AddrMatch::Net(net.trunc())
        } else {
            AddrMatch::Glob(p.to_owned())
        };
        out.push(AddrPattern { negated, what });
    }
    if out.is_empty() {
        return Err("from= is empty".into());
    }
    Ok(out)
}

/// An `expiry-time` timespec: `YYYYMMDD`, `YYYYMMDDHHMM` or `YYYYMMDDHHMMSS`, in the
/// server's local time, or in UTC with a final `Z` (sshd(8)).
///
/// Errors: not such a timespec.
pub fn parse_expiry(spec: &str) -> Result<DateTime<Utc>, String> {
    let bad = || format!("expiry-time=\"{spec}\" is not YYYYMMDD[HHMM[SS]][Z]");
    let (digits, utc) = match spec.strip_suffix(['Z', 'z']) {
        Some(d) => (d, true),
        None => (spec, false),
    };
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let naive = match digits.len() {
        8 => NaiveDate::parse_from_str(digits, "%Y%m%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0)),
        12 => NaiveDateTime::parse_from_str(digits, "%Y%m%d%H%M").ok(),
        14 => NaiveDateTime::parse_from_str(digits, "%Y%m%d%H%M%S").ok(),
        _ => None,
    }
    .ok_or_else(bad)?;
    if utc {
        return Ok(Utc.from_utc_datetime(&naive));
    }
    Local
        .from_local_datetime(&naive)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_of(line: &str) -> Result<KeyRules, String> {
        let (opts, _) = split_line(line)?;
        rules(&opts)
    }

    #[test]
    fn options_with_spaces_and_escaped_quotes_are_read_as_sshd_reads_them() {
        let (opts, key) = split_line(
            r#"command="requests list --json",environment="A=\"b c\"",no-pty ssh-ed25519 AAAA x y"#,
        )
        .expect("split");
        assert_eq!(key, "ssh-ed25519 AAAA x y");
        assert_eq!(
            opts[0],
            ("command".into(), Some("requests list --json".into()))
        );
        assert_eq!(opts[1], ("environment".into(), Some("A=\"b c\"".into())));
        assert_eq!(opts[2], ("no-pty".into(), None));
        assert!(split_line(r#"command="x ssh-ed25519 AAAA"#).is_err());
        let (none, key) = split_line("ssh-ed25519 AAAA c").expect("plain");
        assert!(none.is_empty());
        assert_eq!(key, "ssh-ed25519 AAAA c");
    }

    #[test]
    fn from_matches_cidr_wildcards_and_negation() {
        let r = rules_of(r#"from="10.0.0.0/8,192.168.1.*,!10.9.9.9" ssh-ed25519 A"#).expect("r");
        let now = Utc::now();
        let ok = |a: &str| r.admit(a.parse().expect("ip"), now).is_ok();
        assert!(ok("10.1.2.3"));
        assert!(ok("192.168.1.77"));
        assert!(!ok("10.9.9.9"), "negated");
        assert!(!ok("127.0.0.1"));
        assert!(
            ok("::ffff:10.1.2.3"),
            "an IPv4-mapped address counts as IPv4"
        );
        assert!(rules_of(r#"from="10.0.0.0/99" ssh-ed25519 A"#).is_err());
    }

    #[test]
    fn expiry_time_refuses_from_that_instant() {
        let r = rules_of(r#"expiry-time="20200101Z" ssh-ed25519 A"#).expect("r");
        let lo: IpAddr = "127.0.0.1".parse().expect("ip");
        assert!(r.admit(lo, Utc::now()).is_err());
        let before = Utc
            .with_ymd_and_hms(2019, 12, 31, 23, 59, 59)
            .single()
            .expect("t");
        assert!(r.admit(lo, before).is_ok());
        assert!(parse_expiry("2020010112").is_err());
        assert!(parse_expiry("202001011230").is_ok());
        assert!(parse_expiry("20200101123000Z").is_ok());
    }

    #[test]
    fn restrict_takes_the_terminal_and_pty_gives_it_back() {
        assert!(!rules_of("restrict ssh-ed25519 A").expect("r").pty);
        assert!(!rules_of("no-pty ssh-ed25519 A").expect("r").pty);
        assert!(rules_of("restrict,pty ssh-ed25519 A").expect("r").pty);
        assert!(rules_of("ssh-ed25519 A").expect("r").pty);
    }

    #[test]
    fn options_that_cannot_be_honoured_refuse_the_line_and_the_rest_are_said() {
        for line in [
            "cert-authority ssh-ed25519 A",
            r#"principals="a" ssh-ed25519 A"#,
            "verify-required ssh-ed25519 A",
            "frobnicate ssh-ed25519 A",
            "from ssh-ed25519 A",
        ] {
            assert!(rules_of(line).is_err(), "{line}");
        }
        let r = rules_of(r#"no-port-forwarding,environment="X=1",permitopen="h:1" ssh-ed25519 A"#)
            .expect("r");
        assert_eq!(r.said.len(), 3, "{:?}", r.said);
    }
}
