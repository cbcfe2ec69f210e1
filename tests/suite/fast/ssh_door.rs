//! The door of `serve-ssh` (`club_admin::ssh::door`): OpenSSH's MaxStartups rule for
//! connections not signed in, the per-address limit, silent connections cut first, then
//! those stalled in the key exchange, never one at the sign-in, and a signed-in connection
//! out of every count. In-process, no socket: the door's own logic
//! with a seeded random early drop.

use std::net::{IpAddr, Ipv4Addr};

use club_admin::ssh::Startups;
use club_admin::ssh::door::{Door, Refused, Ticket};

fn ip(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(192, 0, 2, last))
}

/// Resolves `ticket.cut()` if it is ready now: true when the door cut it.
fn was_cut(ticket: &mut Ticket) -> bool {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    rt.block_on(async {
        tokio::select! {
            biased;
            () = ticket.cut() => true,
            () = std::future::ready(()) => false,
        }
    })
}

#[test]
fn max_startups_parses_as_openssh_reads_it_and_refuses_nonsense() {
    let s: Startups = "10:30:100".parse().expect("parses");
    assert_eq!(
        s,
        Startups {
            start: 10,
            rate: 30,
            full: 100
        }
    );
    assert_eq!(s.to_string(), "10:30:100");
    let one: Startups = "20".parse().expect("one number");
    assert_eq!((one.start, one.rate, one.full), (20, 100, 20));
    for bad in [
        "",
        "0:30:100",
        "10:0:100",
        "10:101:100",
        "50:30:10",
        "a:b:c",
        "1:2",
    ] {
        assert!(bad.parse::<Startups>().is_err(), "{bad:?} refused");
    }
}

#[test]
fn the_drop_probability_rises_from_rate_at_start_to_all_at_full() {
    let s = Startups::default();
    assert_eq!(s.drop_percent(0), 0);
    assert_eq!(s.drop_percent(9), 0);
    assert_eq!(s.drop_percent(10), 30);
    assert_eq!(s.drop_percent(55), 65);
    assert_eq!(s.drop_percent(99), 99);
    assert_eq!(s.drop_percent(100), 100);
    assert_eq!(s.drop_percent(5000), 100);
}

#[test]
fn a_flood_of_silent_connections_from_one_address_keeps_only_its_limit_and_cuts_its_own_oldest() {
    let door = Door::new(Startups::default(), 4, Some(1));
    let mut flood: Vec<Ticket> = (0..300)
        .map(|_| door.knock(ip(66)).expect("a silent one always makes room"))
        .collect();
    let c = door.counts();
    assert_eq!((c.waiting, c.silent), (4, 4), "{c:?}");
    assert_eq!(c.cut_silent, 296, "{c:?}");
    assert!(was_cut(&mut flood[0]), "the oldest went first");
    assert!(!was_cut(&mut flood[299]), "the newest stays");
    // A moderator from another address is let in below `start` at once.
    let moderator = door.knock(ip(1)).expect("let in");
    moderator.spoke();
    moderator.pass().at_sign_in();
    moderator.pass().signed_in();
    let c = door.counts();
    assert_eq!((c.waiting, c.signed_in), (4, 1), "{c:?}");
    drop(moderator);
    assert_eq!(
        door.counts().waiting,
        4,
        "a signed-in connection is counted nowhere"
    );
}

#[test]
fn at_the_address_limit_a_new_connection_is_refused_when_all_of_its_own_are_at_the_sign_in() {
    let door = Door::new(Startups::default(), 2, Some(1));
    let a = door.knock(ip(5)).expect("in");
    let b = door.knock(ip(5)).expect("in");
    a.pass().at_sign_in();
    b.pass().at_sign_in();
    assert_eq!(door.knock(ip(5)).err(), Some(Refused::PerAddress));
    // Another address is not touched.
    let _c = door.knock(ip(6)).expect("in");
    // One of the two signs in: its place is free again.
    a.pass().signed_in();
    let _d = door.knock(ip(5)).expect("in again");
    assert_eq!(door.counts().refused_per_address, 1);
}

#[test]
fn a_distributed_silent_flood_fills_to_full_at_most_and_a_speaking_client_always_gets_in() {
    let door = Door::new(Startups::default(), 10, Some(7));
    let mut held = Vec::new();
    for i in 0..300u32 {
        let addr = ip(u8::try_from(10 + i % 30).expect("small"));
        held.push(door.knock(addr).expect("a silent one makes room"));
    }
    let c = door.counts();
    assert!(c.waiting <= 100 && c.waiting >= 10, "{c:?}");
    assert_eq!(c.admitted, 300);
    assert_eq!(c.waiting as u64 + c.cut_silent, 300, "{c:?}");
    // Ten moderators in a row from elsewhere: each one is let in (a silent one goes).
    for _ in 0..10 {
        let m = door.knock(ip(1)).expect("a moderator is let in");
        m.spoke();
        m.pass().at_sign_in();
        m.pass().signed_in();
    }
    assert_eq!(door.counts().signed_in, 10);
    assert_eq!(door.counts().refused_startups, 0);
}

#[test]
fn when_every_waiting_connection_is_at_the_sign_in_max_startups_refuses_new_ones_as_openssh_does() {
    let door = Door::new(
        Startups {
            start: 3,
            rate: 100,
            full: 3,
        },
        10,
        Some(3),
    );
    let held: Vec<Ticket> = (0..3).map(|i| door.knock(ip(i)).expect("in")).collect();
    for t in &held {
        t.spoke();
        t.pass().at_sign_in();
    }
    assert_eq!(door.knock(ip(9)).err(), Some(Refused::Startups));
    assert_eq!(door.counts().refused_startups, 1);
    // One at the sign-in is never cut, and leaves the count when it ends.
    drop(held);
    assert_eq!(door.counts().waiting, 0);
    assert!(door.knock(ip(9)).is_ok());
}

#[test]
fn random_early_drop_between_start_and_full_is_repeatable_with_a_seed() {
    // Every waiting connection is at the sign-in: RED refuses newcomers at its rate.
    let run = |seed| {
        let door = Door::new(Startups::default(), 1000, Some(seed));
        let mut held = Vec::new();
        let mut refused = 0;
        for i in 0..200u32 {
            match door.knock(IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + i))) {
                Ok(t) => {
                    t.pass().at_sign_in();
                    held.push(t);
                }
                Err(Refused::Startups) => refused += 1,
                Err(e) => panic!("{e:?}"),
            }
        }
        (held.len(), refused)
    };
    let (held, refused) = run(11);
    assert_eq!(run(11), (held, refused), "the same seed, the same drops");
    assert!((10..100).contains(&held), "between start and full: {held}");
    assert_eq!(held + refused, 200);
}

#[test]
fn connections_stalled_in_the_key_exchange_are_cut_after_every_silent_one_oldest_first() {
    let door = Door::new(
        Startups {
            start: 3,
            rate: 100,
            full: 3,
        },
        10,
        Some(5),
    );
    let mut talker = door.knock(ip(1)).expect("in");
    talker.spoke();
    let mut silent = door.knock(ip(2)).expect("in");
    let mut younger_talker = door.knock(ip(3)).expect("in");
    younger_talker.spoke();
    let c = door.counts();
    assert_eq!((c.waiting, c.silent, c.in_kex), (3, 1, 2), "{c:?}");
    // Full: the silent one goes first, though younger than the first talker.
    let a = door.knock(ip(4)).expect("in");
    assert!(was_cut(&mut silent));
    assert!(!was_cut(&mut talker));
    // The new one speaks too: no silent one is left, the oldest in the key exchange goes.
    a.spoke();
    let b = door.knock(ip(5)).expect("in");
    assert!(was_cut(&mut talker), "the oldest talker");
    assert!(!was_cut(&mut younger_talker));
    let c = door.counts();
    assert_eq!((c.cut_silent, c.cut_in_kex), (1, 1), "{c:?}");
    // One at the sign-in is never cut: with all three there, the new one is refused.
    younger_talker.pass().at_sign_in();
    a.pass().at_sign_in();
    b.pass().at_sign_in();
    assert_eq!(door.knock(ip(6)).err(), Some(Refused::Startups));
}
