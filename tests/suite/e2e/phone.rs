//! End to end on a phone's screen: the real binary in a pseudo-terminal (the prompt lines
//! redrawn by Ctrl-L) and `serve-ssh` with the OpenSSH client at 45x30 (see `ssh.rs`).
#![cfg(unix)]

use std::time::Duration;

use club_admin::demo::{self, DemoOptions};

use crate::common::dashboard;
use crate::common::pty::Pty;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// Every cell of the screen: its text and the attributes that show.
fn cells(s: &Pty) -> Vec<(String, bool, bool, bool, bool)> {
    let p = s.parser();
    let screen = p.screen();
    let (rows, cols) = screen.size();
    let mut out = Vec::new();
    for r in 0..rows.get() {
        for c in 0..cols.get() {
            if let Some(cell) = screen.cell(r, c) {
                let t = match cell.contents() {
                    "" => " ",
                    t => t,
                };
                out.push((
                    t.to_owned(),
                    cell.bold(),
                    cell.underline(),
                    cell.inverse(),
                    cell.dim(),
                ));
            }
        }
    }
    out
}

/// Waits until the program has written nothing for a while.
fn settle(s: &Pty) {
    assert!(s.quiesce(Duration::from_millis(300), Duration::from_secs(10)));
}

#[test]
fn ctrl_l_leaves_the_filter_and_command_prompts_as_they_were() {
    let rt = rt();
    let d = rt
        .block_on(demo::start(DemoOptions::default()))
        .expect("demo");
    let m = d.moderator().clone();
    let envs = [
        ("CLUB_ADMIN_API_KEY", m.api_key.as_str()),
        ("CLUB_ADMIN_TOKEN", m.token.as_str()),
    ];
    for (cols, rows, lang) in [(80u16, 24u16, "en"), (80, 24, "th"), (45, 30, "th")] {
        let mut s = dashboard(&["--base-url", &d.base_url, "--lang", lang], &envs);
        s.resize(rows, cols);
        s.wait_for("the queue", |t| t.contains("#5"));
        settle(&s);
        for (open, text) in [
            ("/", "robo"),
            (":", "club rob"),
            ("/", "ชุมนุมน้ำใจ"),
            (":", "filter คำ"),
        ] {
            s.send(open.as_bytes());
            s.send(text.as_bytes());
            s.send(b"\x7f");
            settle(&s);
            let before = cells(&s);
            s.send(b"\x0c");
            settle(&s);
            let after = cells(&s);
            let first = before.iter().zip(&after).position(|(a, b)| a != b);
            assert!(
                first.is_none(),
                "{cols}x{rows} {lang} {open}{text}: cell {:?} changed on Ctrl-L: {:?} -> {:?}\n{}",
                first.map(|i| (i / usize::from(cols), i % usize::from(cols))),
                first.map(|i| &before[i]),
                first.map(|i| &after[i]),
                s.screen()
            );
            s.send(b"\x1b");
            settle(&s);
        }
        s.send(b"q");
        assert!(s.wait_exit().success());
    }
}
