//! The host budget's own tests: slots shared and freed, the fall-back and what it tells,
//! and the rules of `place` against what another user of the host could plant under every
//! name the budget uses (a FIFO, a link, a directory, a file of another uid).

use super::*;
use std::os::unix::fs::PermissionsExt;
use std::sync::mpsc;

/// "Another user" of the host: `nobody` (the tests run as root, which may give it files).
const OTHER_UID: u32 = 65534;
const URL: &str = "http://127.0.0.1:8080";
const SLOT0: &str = "127.0.0.1_8080.0.lock";

fn opts(dir: &Path, slots: usize) -> BudgetOptions {
    BudgetOptions {
        slots,
        dir: dir.join("budget"),
        service: false,
    }
}

#[tokio::test]
async fn a_member_of_the_budget_takes_two_thirds_of_the_slots_and_the_service_the_rest() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let member = HostBudget::open(URL, &opts(tmp.path(), 12));
    let mut held = Vec::new();
    while let Some(i) = member.try_slot() {
        held.push(i);
    }
    assert_eq!(held.len(), 8, "a member holds 8 of 12 at most: {held:?}");
    let service = HostBudget::open(
        URL,
        &BudgetOptions {
            service: true,
            ..opts(tmp.path(), 12)
        },
    );
    let mut theirs = Vec::new();
    while let Some(i) = service.try_slot() {
        theirs.push(i);
    }
    assert_eq!(theirs, vec![8, 9, 10, 11], "the service's own are free");
    assert_eq!(shared_slots(1), 1);
    assert_eq!(shared_slots(2), 2);
}

/// Opens the budget on a thread of its own: a FIFO opened for reading without `O_NONBLOCK`
/// waits for a writer without end, so the deadline (real time, far above any open) only
/// turns such a hang into a failure; it measures nothing.
fn open_guarded(options: &BudgetOptions) -> HostBudget {
    let (tx, rx) = mpsc::channel();
    let options = options.clone();
    std::thread::spawn(move || {
        let _ = tx.send(HostBudget::open(URL, &options));
    });
    rx.recv_timeout(std::time::Duration::from_secs(20))
        .expect("the budget opens without blocking on anything planted")
}

fn chown(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).expect("chown (the tests run as root)");
}

fn facts(kind: Kind, uid: u32, mode: u32) -> Facts {
    Facts {
        kind,
        uid,
        mode,
        links: 1,
    }
}

#[tokio::test]
async fn two_processes_share_the_slots_and_a_dropped_holder_frees_them() {
    // Two budgets opened apart are two open files per slot: their locks exclude each
    // other exactly as two processes' do.
    let tmp = tempfile::tempdir().expect("tempdir");
    let a = HostBudget::open(URL, &opts(tmp.path(), 2));
    let b = HostBudget::open(URL, &opts(tmp.path(), 2));
    let a1 = a.acquire().await;
    let a2 = a.acquire().await;
    assert_eq!((a1.mode(), a2.mode()), (Mode::Slot, Mode::Slot));
    assert_eq!(b.try_slot(), None, "both slots are A's");
    drop(a1);
    let b1 = b.acquire().await;
    assert_eq!(b1.mode(), Mode::Slot, "A's freed slot is B's");
    // A process that dies closes its files: the kernel frees its locks.
    drop(a2);
    drop(a);
    let b2 = b.acquire().await;
    assert_eq!(b2.mode(), Mode::Slot);
    assert_eq!(b.held(), 2);
    // Another server has a budget of its own.
    let c = HostBudget::open("http://127.0.0.1:9090", &opts(tmp.path(), 2));
    assert_eq!(c.acquire().await.mode(), Mode::Slot);
    assert_eq!(
        b.status(),
        BudgetStatus::default(),
        "nothing refused, not busy"
    );
    // The files every user of the host opens: readable by all, written by none.
    let dir = tmp.path().join("budget");
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o7777);
    assert_eq!(mode(&dir).ok(), Some(0o1777));
    assert_eq!(mode(&dir.join(SLOT0)).ok(), Some(0o644));
}

#[tokio::test(start_paused = true)]
async fn a_budget_held_without_end_falls_back_to_one_call_and_says_so() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let hog = HostBudget::open(URL, &opts(tmp.path(), 2));
    let h1 = hog.acquire().await;
    let _h2 = hog.acquire().await;
    let me = HostBudget::open(URL, &opts(tmp.path(), 2));
    let mut told = me.watch();
    let started = Instant::now();
    let first = me.acquire().await;
    assert_eq!(first.mode(), Mode::Fallback);
    assert!(started.elapsed() >= WAIT && started.elapsed() < WAIT * 2);
    assert!(told.has_changed().unwrap_or(false), "the watcher is told");
    let now = told.borrow_and_update().clone();
    assert!(
        now.busy && now.unslotted == 1 && now.refusal.is_none(),
        "{now:?}"
    );
    // One call only: a second waits for the first (or for a slot).
    let me2 = me.clone();
    let second = tokio::spawn(async move { me2.acquire().await.mode() });
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!second.is_finished(), "a second unslotted call waits");
    drop(first);
    assert_eq!(second.await.ok(), Some(Mode::Fallback));
    assert_eq!(me.status().unslotted, 2);
    assert!(
        !told.has_changed().unwrap_or(true),
        "the count alone tells nobody"
    );
    // A slot freed within the fall-back is taken, and calls are still "busy" until it ends.
    drop(h1);
    assert_eq!(me.acquire().await.mode(), Mode::Slot);
    assert!(me.status().busy);
    tokio::time::sleep(FALLBACK_FOR).await;
    assert_eq!(me.acquire().await.mode(), Mode::Slot);
    assert!(
        !me.status().busy,
        "a slot after the fall-back: no longer busy"
    );
    assert!(told.has_changed().unwrap_or(false));
}

#[test]
fn the_folder_rule_wants_a_directory_of_root_or_mine_sticky_if_others_may_write() {
    let me = 1000;
    let dir = |uid, mode| folder_rule(&facts(Kind::Directory, uid, mode), me);
    assert_eq!(dir(me, 0o700), Ok(()));
    assert_eq!(dir(0, 0o755), Ok(()));
    assert_eq!(dir(0, 0o1777), Ok(()), "/tmp's own rule");
    assert_eq!(dir(me, 0o1777), Ok(()));
    assert_eq!(dir(0, 0o1770), Ok(()), "an operator's group folder");
    assert_eq!(dir(0, 0o777), Err(Why::Unsticky(0o777)));
    assert_eq!(
        dir(me, 0o775),
        Err(Why::Unsticky(0o775)),
        "the group may remove"
    );
    assert_eq!(dir(OTHER_UID, 0o1777), Err(Why::Owner(OTHER_UID)));
    assert_eq!(dir(OTHER_UID, 0o755), Err(Why::Owner(OTHER_UID)));
    for k in [
        Kind::Link,
        Kind::File,
        Kind::Fifo,
        Kind::Socket,
        Kind::Device,
    ] {
        assert_eq!(
            folder_rule(&facts(k, me, 0o700), me),
            Err(Why::NotFolder(k))
        );
    }
    // Root is "this user" to itself, and no other uid is.
    assert_eq!(folder_rule(&facts(Kind::Directory, 0, 0o1777), 0), Ok(()));
    assert_eq!(
        folder_rule(&facts(Kind::Directory, me, 0o1777), 0),
        Err(Why::Owner(me))
    );
}

#[test]
fn the_slot_rule_wants_a_plain_file_with_one_name_of_a_trusted_owner() {
    let me = 1000;
    let open_to_all = 0o1777;
    let closed = 0o1770;
    let file = |uid, mode, folder| slot_rule(&facts(Kind::File, uid, mode), me, folder);
    assert_eq!(file(me, 0o644, open_to_all), Ok(()));
    assert_eq!(file(0, 0o444, open_to_all), Ok(()));
    assert_eq!(
        file(me, 0o600, open_to_all),
        Ok(()),
        "mine, unreadable to others"
    );
    // A stranger's file where anyone may add one: refused (its owner may remove it).
    assert_eq!(
        file(OTHER_UID, 0o644, open_to_all),
        Err(Why::Owner(OTHER_UID))
    );
    // In a folder only its owner and group may write to: a member's, shared.
    assert_eq!(file(OTHER_UID, 0o644, closed), Ok(()));
    assert_eq!(file(me, 0o666, closed), Err(Why::Writable(0o666)));
    assert_eq!(file(me, 0o664, closed), Err(Why::Writable(0o664)));
    let linked = Facts {
        links: 2,
        ..facts(Kind::File, 0, 0o644)
    };
    assert_eq!(slot_rule(&linked, me, closed), Err(Why::Links(2)));
    for k in [
        Kind::Link,
        Kind::Directory,
        Kind::Fifo,
        Kind::Socket,
        Kind::Device,
    ] {
        assert_eq!(
            slot_rule(&facts(k, me, 0o644), me, closed),
            Err(Why::NotFile(k))
        );
    }
}

/// What another user might plant under a name.
#[derive(Debug, Clone, Copy)]
enum Plant {
    Fifo,
    Link,
    Directory,
    OthersFile,
}

const PLANTS: [Plant; 4] = [
    Plant::Fifo,
    Plant::Link,
    Plant::Directory,
    Plant::OthersFile,
];

fn plant(what: Plant, path: &Path, elsewhere: &Path) {
    match what {
        Plant::Fifo => nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o666))
            .expect("mkfifo"),
        Plant::Link => std::os::unix::fs::symlink(elsewhere, path).expect("symlink"),
        Plant::Directory => std::fs::create_dir(path).expect("mkdir"),
        Plant::OthersFile => {
            std::fs::write(path, "").expect("write");
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
            chown(path, OTHER_UID);
        }
    }
}

#[tokio::test]
async fn anything_planted_under_a_slot_name_is_refused_without_blocking() {
    for what in PLANTS {
        let tmp = tempfile::tempdir().expect("tempdir");
        let options = BudgetOptions {
            service: true,
            ..opts(tmp.path(), 3)
        };
        // The folder as club-admin makes it (sticky, every user may add a file), then the
        // first slot's name taken by another user before any club-admin came.
        std::fs::create_dir(&options.dir).expect("mkdir");
        std::fs::set_permissions(&options.dir, std::fs::Permissions::from_mode(0o1777))
            .expect("chmod");
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep").expect("write");
        plant(what, &options.dir.join(SLOT0), &victim);
        let b = open_guarded(&options);
        assert!(b.inner.files[0].is_none(), "{what:?} refused");
        assert!(b.inner.files[1..].iter().all(Option::is_some), "{what:?}");
        let r = b.status().refusal.expect("said");
        assert_eq!((r.refused, r.usable()), (1, 2), "{what:?}");
        assert_eq!(r.path, options.dir.join(SLOT0));
        let expected = match what {
            Plant::Fifo => Why::NotFile(Kind::Fifo),
            Plant::Link => Why::NotFile(Kind::Link),
            Plant::Directory => Why::NotFile(Kind::Directory),
            Plant::OthersFile => Why::Owner(OTHER_UID),
        };
        assert_eq!(r.why, expected);
        assert!(r.to_string().contains("2 of 3 slots used"), "{r}");
        // The other slots work; the planted one is never tried.
        assert_eq!(b.acquire().await.mode(), Mode::Slot);
        assert_eq!(
            std::fs::read_to_string(&victim).ok().as_deref(),
            Some("keep")
        );
    }
}

#[tokio::test]
async fn anything_planted_at_the_folders_name_leaves_the_process_alone_at_two_calls() {
    let plants = [Plant::Fifo, Plant::Link, Plant::OthersFile];
    for what in plants {
        let tmp = tempfile::tempdir().expect("tempdir");
        let options = BudgetOptions {
            service: true,
            ..opts(tmp.path(), 4)
        };
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).expect("dir");
        plant(what, &options.dir, &elsewhere);
        let b = open_guarded(&options);
        let r = b.status().refusal.expect("said");
        let kind = match what {
            Plant::Fifo => Kind::Fifo,
            Plant::Link => Kind::Link,
            Plant::OthersFile => Kind::File,
            Plant::Directory => unreachable!("not among this test's plants"),
        };
        assert_eq!(
            (&r.why, r.refused, r.usable()),
            (&Why::NotFolder(kind), 4, 0)
        );
        assert!(r.to_string().contains("at most 2 calls in flight"), "{r}");
        assert_alone(&b).await;
        assert_eq!(
            std::fs::read_dir(&elsewhere).map(|d| d.count()).ok(),
            Some(0)
        );
    }
}

/// Calls go at once, [`ALONE`] at a time, never waiting [`WAIT`] for a slot.
async fn assert_alone(b: &HostBudget) {
    let one = b.acquire().await;
    let two = b.acquire().await;
    assert_eq!((one.mode(), two.mode()), (Mode::Alone, Mode::Alone));
    let b2 = b.clone();
    let third = tokio::spawn(async move { b2.acquire().await.mode() });
    tokio::task::yield_now().await;
    assert!(!third.is_finished(), "a third waits for one of the two");
    drop(one);
    assert_eq!(third.await.ok(), Some(Mode::Alone));
    assert!(!b.status().busy, "alone is not a starved budget");
}

#[tokio::test]
async fn a_folder_of_another_user_or_open_to_all_without_the_sticky_bit_is_refused() {
    // Another user made the folder first (0755, or 1777 like club-admin's): root's and
    // every other user's club-admin refuse it, and plant nothing there.
    for mode in [0o755, 0o1777] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let options = opts(tmp.path(), 2);
        std::fs::create_dir(&options.dir).expect("mkdir");
        std::fs::set_permissions(&options.dir, std::fs::Permissions::from_mode(mode))
            .expect("chmod");
        chown(&options.dir, OTHER_UID);
        let b = open_guarded(&options);
        let r = b.status().refusal.expect("said");
        assert_eq!((&r.why, r.usable()), (&Why::Owner(OTHER_UID), 0));
        assert_eq!(
            std::fs::read_dir(&options.dir).map(|d| d.count()).ok(),
            Some(0)
        );
        assert_alone(&b).await;
    }
    // Mine, but anyone may remove the files in it.
    let tmp = tempfile::tempdir().expect("tempdir");
    let options = opts(tmp.path(), 2);
    std::fs::create_dir(&options.dir).expect("mkdir");
    std::fs::set_permissions(&options.dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let r = open_guarded(&options).status().refusal.expect("said");
    assert_eq!(r.why, Why::Unsticky(0o777));
}

#[tokio::test]
async fn an_operators_group_folder_shares_the_slots_another_user_made() {
    // /run/club-admin-budget as the package's tmpfiles line makes it: root's, 1770. A slot
    // another member (uid 65534) made is used, and excludes as one slot.
    let tmp = tempfile::tempdir().expect("tempdir");
    let options = opts(tmp.path(), 2);
    std::fs::create_dir(&options.dir).expect("mkdir");
    std::fs::set_permissions(&options.dir, std::fs::Permissions::from_mode(0o1770)).expect("chmod");
    plant(Plant::OthersFile, &options.dir.join(SLOT0), tmp.path());
    let a = open_guarded(&options);
    let b = open_guarded(&options);
    assert_eq!(a.status(), BudgetStatus::default());
    let (a1, a2) = (a.acquire().await, a.acquire().await);
    assert_eq!((a1.mode(), a2.mode()), (Mode::Slot, Mode::Slot));
    assert_eq!(b.try_slot(), None, "the member's slot is one of the two");
}

/// A refused slot costs that slot only: with a FIFO (or a link, a file of another user
/// where every user may add files, or one others may write to) under slot 0's name, every
/// other slot is used at once, each by one call (calls go neither [`Mode::Alone`] nor one at
/// a time), and the refusal is reported once: to the first watcher, not again as calls come and
/// go.
#[tokio::test]
async fn a_refused_slot_0_costs_that_slot_only_and_the_others_are_used() {
    for what in [Plant::Fifo, Plant::Link, Plant::OthersFile] {
        for folder_mode in [0o1777, 0o1770] {
            let tmp = tempfile::tempdir().expect("tempdir");
            let options = BudgetOptions {
                service: true,
                ..opts(tmp.path(), 4)
            };
            std::fs::create_dir(&options.dir).expect("mkdir");
            std::fs::set_permissions(&options.dir, std::fs::Permissions::from_mode(folder_mode))
                .expect("chmod");
            plant(what, &options.dir.join(SLOT0), tmp.path());
            if matches!(what, Plant::OthersFile) && folder_mode == 0o1770 {
                // A member's file is shared there: refused only when others may write to it.
                std::fs::set_permissions(
                    options.dir.join(SLOT0),
                    std::fs::Permissions::from_mode(0o666),
                )
                .expect("chmod");
            }
            let b = open_guarded(&options);
            let mut watch = b.watch();
            assert!(watch.borrow_and_update().refusal.is_some(), "{what:?}");
            let r = b.status().refusal.expect("said");
            assert_eq!((r.refused, r.usable()), (1, 3), "{what:?} {folder_mode:o}");
            assert!(r.to_string().contains("3 of 4 slots used"), "{r}");
            let held = [b.acquire().await, b.acquire().await, b.acquire().await];
            let mut slots: Vec<Option<usize>> = held.iter().map(|p| p.slot).collect();
            slots.sort();
            assert_eq!(
                slots,
                [Some(1), Some(2), Some(3)],
                "{what:?} {folder_mode:o}"
            );
            assert!(held.iter().all(|p| p.mode() == Mode::Slot));
            assert_eq!(b.held(), 3);
            assert!(!b.status().busy);
            drop(held);
            assert_eq!(b.acquire().await.mode(), Mode::Slot);
            assert!(
                !watch.has_changed().unwrap_or(true),
                "said once, not per call"
            );
        }
    }
}

#[tokio::test]
async fn the_slot_files_of_local_servers_no_longer_running_are_removed_and_no_others() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let options = opts(tmp.path(), 2);
    std::fs::create_dir(&options.dir).expect("mkdir");
    std::fs::set_permissions(&options.dir, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    let listening = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let live = listening.local_addr().expect("addr").port();
    // A port nothing listens on: bound and let go.
    let gone = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a port")
        .port();
    let held_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a port")
        .port();
    let name = |host: &str, port: u16, i: usize| format!("{host}_{port}.{i}.lock");
    let files = [
        name("127.0.0.1", gone, 0),
        name("127.0.0.1", gone, 1),
        name("127.0.0.1", live, 0),
        name("mysk.school.example", 443, 0),
        name("127.0.0.1", held_port, 0),
    ];
    for f in &files {
        std::fs::write(options.dir.join(f), "").expect("write");
    }
    // Another process holds the slot of a server gone: it stays.
    let holder = std::fs::File::open(options.dir.join(&files[4])).expect("open");
    holder.lock().expect("lock");
    let _ = HostBudget::open(URL, &options);
    let left: Vec<String> = std::fs::read_dir(&options.dir)
        .expect("read")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    for f in &files[..2] {
        assert!(!left.contains(f), "{f} removed: {left:?}");
    }
    for f in &files[2..] {
        assert!(left.contains(f), "{f} kept: {left:?}");
    }
    drop(listening);
}
