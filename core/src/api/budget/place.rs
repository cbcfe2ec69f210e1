//! Where the host budget lives, checked before it is used: the folder and its slot files,
//! opened so that nothing another user plants there can hang this process (a FIFO is
//! opened without blocking) or lead it elsewhere (a link is never followed), and used only
//! when the rules below hold ([`folder_rule`], [`slot_rule`]). Every fact a rule reads comes
//! from the kernel: `lstat` of the folder's name, then `fstat` of what was opened (so the
//! checks are of the very file used, not of a name that may change meanwhile).

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

/// The sticky bit of a mode: in a folder others may write to, only a file's owner (or the
/// folder's, or root) may remove or rename it.
const STICKY: u32 = 0o1000;
/// Write permission for the group and for others.
const WRITE_BY_OTHERS: u32 = 0o022;
/// Write permission for others (every user of the host).
const WRITE_BY_ALL: u32 = 0o002;

/// What a path is (from `lstat` or `fstat`), for the words of a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A plain file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link.
    Link,
    /// A named pipe (FIFO): opened for reading without `O_NONBLOCK`, it blocks until a
    /// writer comes.
    Fifo,
    /// A Unix socket.
    Socket,
    /// A character or block device.
    Device,
}

impl Kind {
    /// The kind of a file type from `lstat` or `fstat`.
    pub fn of(t: std::fs::FileType) -> Kind {
        if t.is_symlink() {
            Kind::Link
        } else if t.is_dir() {
            Kind::Directory
        } else if t.is_fifo() {
            Kind::Fifo
        } else if t.is_socket() {
            Kind::Socket
        } else if t.is_block_device() || t.is_char_device() {
            Kind::Device
        } else {
            Kind::File
        }
    }

    /// English words for logs and standard error ("a FIFO").
    pub fn words(self) -> &'static str {
        match self {
            Kind::File => "a plain file",
            Kind::Directory => "a directory",
            Kind::Link => "a symbolic link",
            Kind::Fifo => "a FIFO",
            Kind::Socket => "a socket",
            Kind::Device => "a device",
        }
    }

    /// The Fluent key of its words (`budget-kind-*`, assets/locales/*/budget.ftl).
    pub fn key(self) -> &'static str {
        match self {
            Kind::File => "budget-kind-file",
            Kind::Directory => "budget-kind-directory",
            Kind::Link => "budget-kind-link",
            Kind::Fifo => "budget-kind-fifo",
            Kind::Socket => "budget-kind-socket",
            Kind::Device => "budget-kind-device",
        }
    }
}

/// Why the budget's folder or one of its slot files is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The folder's name is not a real directory (a link, a file, a FIFO, ...).
    NotFolder(Kind),
    /// A slot's name is not a plain file.
    NotFile(Kind),
    /// Owned by another user (this uid), neither root nor this process's user: the folder
    /// always; a slot file in a folder every user may write to.
    Owner(u32),
    /// A folder others may write to without the sticky bit (its permission bits): they
    /// could remove or replace any slot file.
    Unsticky(u32),
    /// A slot file others may write to (its permission bits): not one this program made.
    Writable(u32),
    /// A slot file with this many names (a hard link to a file elsewhere).
    Links(u64),
    /// The system refused (the error's words: "Permission denied (os error 13)").
    Io(String),
}

impl std::fmt::Display for Why {
    /// English, after the path: "is not a plain file (a FIFO)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::NotFolder(k) => write!(f, "is not a real directory ({})", k.words()),
            Why::NotFile(k) => write!(f, "is not a plain file ({})", k.words()),
            Why::Owner(uid) => write!(f, "belongs to another user (uid {uid})"),
            Why::Unsticky(m) => write!(
                f,
                "can be written by other users without the sticky bit (mode {m:o})"
            ),
            Why::Writable(m) => write!(f, "can be written by other users (mode {m:o})"),
            Why::Links(n) => write!(f, "has {n} names (a hard link)"),
            Why::Io(e) => write!(f, "cannot be used: {e}"),
        }
    }
}

/// The facts a rule reads, from `lstat` or `fstat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// What it is.
    pub kind: Kind,
    /// Its owner's uid.
    pub uid: u32,
    /// Its permission bits with set-id and sticky (`0o1777`).
    pub mode: u32,
    /// Its names (hard links).
    pub links: u64,
}

impl Facts {
    /// The facts of `meta` (from `lstat`, or `fstat` of an open file).
    pub fn of(meta: &std::fs::Metadata) -> Facts {
        Facts {
            kind: Kind::of(meta.file_type()),
            uid: meta.uid(),
            mode: meta.mode() & 0o7777,
            links: meta.nlink(),
        }
    }
}

/// The rule of the folder: a real directory (not a link), owned by root or by `me` (this
/// process's effective uid), and sticky if others may write to it (else they could remove
/// or replace the slot files).
///
/// Errors: the first rule broken, as a [`Why`].
pub fn folder_rule(f: &Facts, me: u32) -> Result<(), Why> {
    if f.kind != Kind::Directory {
        return Err(Why::NotFolder(f.kind));
    }
    if f.uid != 0 && f.uid != me {
        return Err(Why::Owner(f.uid));
    }
    if f.mode & WRITE_BY_OTHERS != 0 && f.mode & STICKY == 0 {
        return Err(Why::Unsticky(f.mode));
    }
    Ok(())
}

/// The rule of a slot file, in a folder of permission bits `folder_mode` that passed
/// [`folder_rule`]: a plain file with one name, that others may not write to, and owned
/// by root or by `me` (this process's effective uid) where every user may add files to
/// the folder. In a folder closed to others (an operator's, group-writable and sticky,
/// `1770`), a file of another user is one the operator let in (only the folder's owner and
/// group can make files there), and sharing it is the point: the moderators' processes and
/// `serve-ssh` each use the slots another made. In a folder every user may write to, a
/// stranger's file is refused: its owner could remove it and make another, splitting the
/// budget.
///
/// Errors: the first rule broken, as a [`Why`].
pub fn slot_rule(f: &Facts, me: u32, folder_mode: u32) -> Result<(), Why> {
    if f.kind != Kind::File {
        return Err(Why::NotFile(f.kind));
    }
    if f.links != 1 {
        return Err(Why::Links(f.links));
    }
    if f.mode & WRITE_BY_OTHERS != 0 {
        return Err(Why::Writable(f.mode));
    }
    if f.uid != 0 && f.uid != me && folder_mode & WRITE_BY_ALL != 0 {
        return Err(Why::Owner(f.uid));
    }
    Ok(())
}

/// This process's effective uid (the "this user" of the rules).
pub fn effective_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The budget's folder, open (`O_DIRECTORY | O_NOFOLLOW`) and checked by
/// [`folder_rule`] on what was opened.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    /// Its permission bits, for [`slot_rule`].
    mode: u32,
}

/// Opens the folder `dir` if it passes [`folder_rule`]; a missing one is made `1777`
/// (sticky, every user may add a file: the default in the temporary directory) and is
/// this process's. Never blocks: the name is checked with `lstat` before it is opened, and
/// opened with `O_NONBLOCK`.
///
/// Errors: the rule broken, or the system's refusal ([`Why::Io`]: no parent, no right).
pub fn open_folder(dir: &Path, me: u32) -> Result<Folder, Why> {
    let made = match std::fs::symlink_metadata(dir) {
        Ok(meta) => {
            folder_rule(&Facts::of(&meta), me)?;
            false
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            match rustix::fs::mkdir(dir, Mode::from_raw_mode(0o1777)) {
                Ok(()) => true,
                // Another process made it meanwhile: checked as found, below.
                Err(Errno::EXIST) => false,
                Err(e) => return Err(Why::Io(std::io::Error::from(e).to_string())),
            }
        }
        Err(e) => return Err(Why::Io(e.to_string())),
    };
    let flags = OFlags::RDONLY
        | OFlags::DIRECTORY
        | OFlags::NOFOLLOW
        | OFlags::NONBLOCK
        | OFlags::CLOEXEC
        | OFlags::NOCTTY;
    let fd = rustix::fs::open(dir, flags, Mode::empty()).map_err(|e| refused(dir, e))?;
    let file = File::from(fd);
    if made {
        // The umask cut the mode: set it whole (the folder is ours, just made).
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o1777));
    }
    let meta = file.metadata().map_err(|e| Why::Io(e.to_string()))?;
    let facts = Facts::of(&meta);
    folder_rule(&facts, me)?;
    Ok(Folder {
        fd: OwnedFd::from(file),
        mode: facts.mode,
    })
}

/// Opens (making it `0644` if missing) the slot file `name` in `folder`, for reading only
/// (a lock needs no write access, and nothing is ever written), never through a link
/// (`O_NOFOLLOW`), never blocking (`O_NONBLOCK`: a FIFO opens at once, and is then refused),
/// never inherited by a child (`O_CLOEXEC`), relative to the open folder (`openat`: the
/// folder checked is the folder used). Used only if [`slot_rule`] holds for what was opened.
///
/// Errors: the rule broken, or the system's refusal.
pub fn open_slot(folder: &Folder, name: &str, me: u32) -> Result<File, Why> {
    let flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    let made = rustix::fs::openat(
        &folder.fd,
        name,
        flags | OFlags::CREATE | OFlags::EXCL,
        Mode::from_raw_mode(0o644),
    );
    let file = match made {
        Ok(fd) => {
            let file = File::from(fd);
            // Ours, just made: the umask undone, so that every user of the host can open it.
            let _ = file.set_permissions(std::fs::Permissions::from_mode(0o644));
            file
        }
        Err(Errno::EXIST) => {
            let fd = rustix::fs::openat(&folder.fd, name, flags, Mode::empty())
                .map_err(|e| refused_at(folder, name, e))?;
            File::from(fd)
        }
        Err(e) => return Err(refused_at(folder, name, e)),
    };
    let meta = file.metadata().map_err(|e| Why::Io(e.to_string()))?;
    slot_rule(&Facts::of(&meta), me, folder.mode)?;
    Ok(file)
}

/// Most slot files looked at by one [`sweep_stale`].
const SWEEP_AT_MOST: usize = 4096;

/// Removes the slot files in `folder` of servers on this host's loopback (`127.0.0.1_PORT`,
/// `localhost_PORT`, `__1_PORT`: a demo server, a test's) other than `ours`, whose port
/// nothing listens on any more and whose lock no process holds: the files every demo run
/// left behind (12 per port, for ever). Only this user's own files (in a sticky folder no
/// other could be removed anyway), never through a link, at most [`SWEEP_AT_MOST`] names
/// looked at. A server that listens keeps its files, as does a real service's (not on
/// loopback). How many were removed.
pub fn sweep_stale(folder: &Folder, me: u32, ours: &str) -> usize {
    let Ok(dir) = rustix::fs::Dir::read_from(&folder.fd) else {
        return 0;
    };
    let mut ports: std::collections::HashMap<u16, bool> = std::collections::HashMap::new();
    let mut removed = 0;
    for entry in dir.flatten().take(SWEEP_AT_MOST) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(port) = loopback_port(&name, ours) else {
            continue;
        };
        let gone = *ports.entry(port).or_insert_with(|| {
            std::net::TcpStream::connect_timeout(
                &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                std::time::Duration::from_millis(50),
            )
            .is_err()
        });
        if !gone {
            continue;
        }
        let flags =
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
        let Ok(fd) = rustix::fs::openat(&folder.fd, name.as_str(), flags, Mode::empty()) else {
            continue;
        };
        let file = File::from(fd);
        let mine = file
            .metadata()
            .is_ok_and(|m| m.file_type().is_file() && m.uid() == me);
        // Held by no one now (a process holds a slot only while its call is in flight):
        // removed while locked, so that none can take it meanwhile.
        if mine
            && file.try_lock().is_ok()
            && rustix::fs::unlinkat(&folder.fd, name.as_str(), rustix::fs::AtFlags::empty()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// The port of a slot file's name (`127.0.0.1_8080.3.lock`) when its server is on this
/// host's loopback and is not `ours`.
fn loopback_port(name: &str, ours: &str) -> Option<u16> {
    let key = name.strip_suffix(".lock")?.rsplit_once('.')?.0;
    if key == ours {
        return None;
    }
    let (host, port) = key.rsplit_once('_')?;
    matches!(host, "127.0.0.1" | "localhost" | "__1").then_some(())?;
    port.parse().ok()
}

/// Why the open of the folder `path` failed: a name that is no longer a directory (made
/// a link or a file since it was looked at) in a message naming its kind, else the system's error.
fn refused(path: &Path, e: Errno) -> Why {
    match std::fs::symlink_metadata(path).map(|m| Kind::of(m.file_type())) {
        Ok(kind) if kind != Kind::Directory => Why::NotFolder(kind),
        _ => Why::Io(std::io::Error::from(e).to_string()),
    }
}

/// As [`refused`], for a name in `folder` (looked at with `fstatat`, without following).
fn refused_at(folder: &Folder, name: &str, e: Errno) -> Why {
    let io = || Why::Io(std::io::Error::from(e).to_string());
    match rustix::fs::statat(&folder.fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => match rustix::fs::FileType::from_raw_mode(st.st_mode) {
            rustix::fs::FileType::RegularFile => io(),
            rustix::fs::FileType::Symlink => Why::NotFile(Kind::Link),
            rustix::fs::FileType::Directory => Why::NotFile(Kind::Directory),
            rustix::fs::FileType::Fifo => Why::NotFile(Kind::Fifo),
            rustix::fs::FileType::Socket => Why::NotFile(Kind::Socket),
            _ => Why::NotFile(Kind::Device),
        },
        Err(_) => io(),
    }
}
