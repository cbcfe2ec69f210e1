#!/usr/bin/env bash
# The Debian package's life under a real systemd, as the school's operator lives it: a Debian 12
# root (debootstrap, made once in target/systemd/, an ignored folder of the repository) booted
# with systemd-nspawn, the package installed and walked through: --check (a read-only log path
# refused with its drop-in, the drop-in followed), enable --now, a moderator's approval over
# SSH against a demo server on the host, kill -9 mid-bulk and the restart, SIGHUP (the log
# level re-read, the door open), systemctl stop mid-bulk, an upgrade to a higher version with
# a moderator connected, remove then install again, purge. Exits 0 when every step held, 1 at
# the first that did not (said), and 0 with "SKIP: why" where systemd-nspawn, debootstrap or
# Debian's registry cannot be had (or the machine lets no container boot).
#   .ci/systemd.sh BINARY        (the club-admin binary to package: CI's debug build)
# Figures (install, first approval, restart after kill -9, upgrade) are printed as
# "figure: NAME SECONDS". Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
bin=$(readlink -f "${1:?usage: .ci/systemd.sh BINARY}")
work=$repo/target/systemd
root=$work/root
copy=$work/booted
mkdir -p "$work"

skip() { echo "SKIP: $*"; exit 0; }
fail() { echo "FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

[ "$(id -u)" = 0 ] || skip "not root: systemd-nspawn needs root"
for tool in dpkg-deb ssh ssh-keygen python3 nsenter; do
    command -v "$tool" >/dev/null || skip "$tool is not installed here"
done
if ! command -v systemd-nspawn >/dev/null || ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y systemd-container debootstrap >/dev/null 2>&1 \
        || skip "systemd-nspawn and debootstrap are not installed and apt-get could not install them"
fi

# The root, made once (about a minute; reused while target/ lasts).
if [ ! -x "$root/usr/lib/systemd/systemd" ]; then
    rm -rf "$root"
    t=$(now)
    timeout 600 debootstrap --variant=minbase \
        --include=systemd,systemd-sysv,dbus,adduser,ca-certificates,procps \
        bookworm "$root" >"$work/debootstrap.log" 2>&1 \
        || { rm -rf "$root"; skip "debootstrap could not make a Debian 12 root (is Debian's registry reachable? $work/debootstrap.log)"; }
    echo "figure: debootstrap $(since "$t")"
fi

# Two packages of the binary: this version and a higher one (the upgrade).
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
rm -rf "$work/deb" && mkdir -p "$work/deb/old" "$work/deb/new"
CLUB_ADMIN_DEB_COMPRESS=none packaging/deb/build.sh "$bin" "$work/deb/old" >/dev/null
CLUB_ADMIN_DEB_COMPRESS=none CLUB_ADMIN_DEB_VERSION="$version+upgrade" \
    packaging/deb/build.sh "$bin" "$work/deb/new" >/dev/null

# The demo service on the host (the container shares the host's network).
demo_log=$work/demo.log
"$bin" serve-demo --latency-ms 150 >"$demo_log" 2>&1 &
demo=$!
nspawn=
cleanup() {
    kill "$demo" 2>/dev/null || true
    if [ -n "$nspawn" ]; then
        kill "$nspawn" 2>/dev/null || true
        for _ in $(seq 1 30); do kill -0 "$nspawn" 2>/dev/null || break; sleep 1; done
        kill -9 "$nspawn" 2>/dev/null || true
    fi
    rm -rf "$copy"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
for _ in $(seq 1 100); do grep -q 'X-Api-Key' "$demo_log" 2>/dev/null && break; sleep 0.1; done
base_url=$(sed -n 's/^club-admin demo server listening on \(http[^ ]*\).*/\1/p' "$demo_log")
api_key=$(grep -m1 'X-Api-Key:' "$demo_log" | awk '{print $2}')
token=$(grep -m1 'Authorization: Bearer' "$demo_log" | awk '{print $3}')
[ -n "$base_url" ] && [ -n "$api_key" ] && [ -n "$token" ] || fail "the demo server did not start: $(cat "$demo_log")"

# Boot a copy of the root.
rm -rf "$copy"; cp -a "$root" "$copy"
setsid systemd-nspawn -q -D "$copy" --boot --register=no --keep-unit --machine=club-admin-ci \
    </dev/null >"$work/console.log" 2>&1 &
nspawn=$!
pid=
for _ in $(seq 1 60); do
    pid=$(ps -eo pid,ppid | awk -v p="$nspawn" '$2==p{print $1}' | head -1)
    if [ -n "$pid" ] && nsenter -t "$pid" -m -u -i -n -p systemctl is-system-running 2>/dev/null | grep -qE 'running|degraded'; then
        break
    fi
    kill -0 "$nspawn" 2>/dev/null || skip "systemd-nspawn could not boot a container here: $(tail -3 "$work/console.log")"
    pid=
    sleep 1
done
[ -n "$pid" ] || skip "the container did not boot within 60 s: $(tail -3 "$work/console.log")"
inside() { nsenter -t "$pid" -m -u -i -n -p -- "$@"; }
active() { inside systemctl is-active club-admin-ssh 2>/dev/null || true; }
main_pid() { inside systemctl show -p MainPID --value club-admin-ssh; }

# The moderator's key, the port.
ssh_dir=$work/ssh && rm -rf "$ssh_dir" && mkdir -p "$ssh_dir"
ssh-keygen -q -t ed25519 -N '' -C 'moderator@ci' -f "$ssh_dir/id" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ssh_to() {
    ssh -i "$ssh_dir/id" -p "$port" -o BatchMode=yes -o StrictHostKeyChecking=no \
        -o UserKnownHostsFile="$ssh_dir/known_hosts" -o ConnectTimeout=5 \
        -o SetEnv=CLUB_ADMIN_TOKEN="$token" 127.0.0.1 "$@"
}
wait_door() {
    for _ in $(seq 1 ${1:-300}); do
        ssh_to whoami >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}
pending() { ssh_to requests list --mine --status pending --ids; }

echo "== install"
cp "$work/deb/old/"*.deb "$copy/root/old.deb"
cp "$work/deb/new/"*.deb "$copy/root/new.deb"
t=$(now)
inside dpkg -i /root/old.deb >"$work/dpkg.log" 2>&1 || fail "dpkg -i: $(cat "$work/dpkg.log")"
echo "figure: install $(since "$t")"
[ "$(active)" != active ] || fail "the install started the service before its keys were there"

echo "== configure, --check"
inside sed -i "s|^# base_url = .*|base_url = \"$base_url\"|; s|^listen = .*|listen = \"127.0.0.1:$port\"|" \
    /etc/club-admin/serve-ssh.toml
printf '%s\n' "$api_key" >"$copy/etc/club-admin/api_key"
cp "$ssh_dir/id.pub" "$copy/etc/club-admin/authorized_keys"
check() { inside runuser -u club-admin -- club-admin serve-ssh --check --config /etc/club-admin/serve-ssh.toml; }
out=$(check) || fail "--check: $out"
echo "$out" | grep '✓ the state folder /var/lib/club-admin/club-admin is writable under club-admin-ssh.service (StateDirectory=club-admin)' >/dev/null \
    || fail "--check did not try the state folder against the unit's sandbox: $out"

echo "== enable --now, a moderator's approval over SSH"
t=$(now)
inside systemctl enable --now club-admin-ssh >/dev/null 2>&1 || fail "enable --now: $(inside systemctl status club-admin-ssh)"
wait_door || fail "no SSH door after enable --now: $(inside journalctl -u club-admin-ssh --no-pager | tail)"
pending >"$work/pending"
first=$(head -n 1 "$work/pending")
ssh_to requests approve "$first" >/dev/null || fail "the approval over SSH failed"
echo "figure: first_approval $(since "$t")"
ssh_to requests show "$first" --json | grep '"approved"' >/dev/null || fail "$first is not approved"

echo "== kill -9 mid-bulk, the restart"
pending >"$work/pending"
head -n 40 "$work/pending" >"$work/bulk1"
(ssh_to requests approve - <"$work/bulk1" >"$work/bulk1.out" 2>&1; echo "exit $?" >>"$work/bulk1.out") &
bulk=$!
sleep 0.7
before=$(main_pid)
t=$(now)
inside systemctl kill -s KILL club-admin-ssh
wait "$bulk" || true
for _ in $(seq 1 300); do
    [ "$(main_pid)" != "$before" ] && [ "$(main_pid)" != 0 ] && wait_door 1 && break
    sleep 0.1
done
wait_door 1 || fail "not restarted after kill -9: $(inside systemctl status club-admin-ssh --no-pager | head)"
echo "figure: restart_after_kill9 $(since "$t")"
echo "the moderator's bulk, killed: $(tail -n 2 "$work/bulk1.out" | tr '\n' ' ')"
inside runuser -u club-admin -- club-admin history --host --format json >/dev/null \
    || fail "the audit after kill -9 is not readable"

echo "== SIGHUP: the door stays open, the log level is read again"
before=$(main_pid)
inside sed -i 's|^\[serve_ssh\]$|[serve_ssh]\nlog_level = "debug"|' /etc/club-admin/serve-ssh.toml
inside systemctl kill -s HUP club-admin-ssh
sleep 2
[ "$(active)" = active ] && [ "$(main_pid)" = "$before" ] \
    || fail "SIGHUP stopped serve-ssh: $(inside systemctl status club-admin-ssh --no-pager | head)"
wait_door 50 || fail "no SSH door after SIGHUP"
inside systemctl reload club-admin-ssh || fail "systemctl reload failed"
sleep 1
[ "$(main_pid)" = "$before" ] || fail "systemctl reload restarted serve-ssh"
inside journalctl -u club-admin-ssh --no-pager | grep 'SIGHUP: the log level is now debug' >/dev/null \
    || fail "SIGHUP did not read the log level again: $(inside journalctl -u club-admin-ssh --no-pager | tail -5)"

echo "== systemctl stop mid-bulk"
pending >"$work/pending"
head -n 40 "$work/pending" >"$work/bulk2"
(ssh_to requests approve - <"$work/bulk2" >"$work/bulk2.out" 2>&1; echo "exit $?" >>"$work/bulk2.out") &
bulk=$!
sleep 0.7
t=$(now)
inside systemctl stop club-admin-ssh
echo "figure: stop_mid_bulk $(since "$t")"
wait "$bulk" || true
state=$(inside systemctl show -p ActiveState --value club-admin-ssh)/$(inside systemctl show -p Result --value club-admin-ssh)
[ "$state" = "inactive/success" ] || fail "after stop: $state"
echo "the moderator's bulk, stopped: $(tail -n 2 "$work/bulk2.out" | tr '\n' ' ')"
inside systemctl start club-admin-ssh
wait_door || fail "no door after start"

echo "== upgrade with a moderator connected"
sums_before=$(inside sha256sum /etc/club-admin/api_key /etc/club-admin/authorized_keys /etc/club-admin/serve-ssh.toml /var/lib/club-admin/club-admin/ssh_host_ed25519_key)
(sleep 20 | ssh -tt -i "$ssh_dir/id" -p "$port" -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$ssh_dir/known_hosts" 127.0.0.1 >"$work/session.out" 2>&1 || true) &
session=$!
sleep 2
kill -0 "$session" 2>/dev/null || fail "the moderator's session did not stay: $(tail -c 300 "$work/session.out")"
before=$(main_pid)
t=$(now)
inside dpkg -i /root/new.deb >"$work/dpkg.log" 2>&1 || fail "upgrade: $(cat "$work/dpkg.log")"
wait_door || fail "no door after the upgrade"
echo "figure: upgrade $(since "$t")"
[ "$(main_pid)" != "$before" ] || fail "the upgrade did not restart serve-ssh"
[ "$(inside dpkg-query -W -f '${Version}' club-admin)" = "$version+upgrade" ] || fail "not upgraded"
sums_after=$(inside sha256sum /etc/club-admin/api_key /etc/club-admin/authorized_keys /etc/club-admin/serve-ssh.toml /var/lib/club-admin/club-admin/ssh_host_ed25519_key)
[ "$sums_before" = "$sums_after" ] || fail "the upgrade changed the operator's files: $sums_before / $sums_after"
ssh_to whoami >/dev/null || fail "the moderator could not reconnect after the upgrade"
wait "$session" 2>/dev/null || true
grep -a 'the server is stopping' "$work/session.out" >/dev/null \
    || fail "the connected moderator was not told why the server went: $(tail -c 300 "$work/session.out")"

echo "== a read-only log path: --check refuses it with the drop-in, the drop-in followed"
inside sed -i 's|^\[serve_ssh\]$|[serve_ssh]\nlog_file = "/srv/club-admin-log/serve-ssh.log"|' /etc/club-admin/serve-ssh.toml
# Its folder made as the check's own line for a missing folder says, the folder is fine but
# the sandbox keeps the service from writing it: a warning (the log goes to the journal).
inside install -d -m 700 -o club-admin -g club-admin /srv/club-admin-log
out=$(check) || fail "--check failed for a log file, which the server does without: $out"
line=$(echo "$out" | grep '^· the log file /srv/club-admin-log/serve-ssh.log is read-only to club-admin-ssh.service (ProtectSystem=strict): warning') \
    || fail "no warning for the read-only log file: $out"
mend=$(echo "$line" | sed -n 's/.*Open it with a drop-in, as root: \(.*\); or give a path under.*/\1/p')
[ -n "$mend" ] || fail "the ✗ line has no mend: $line"
inside sh -c "$mend" || fail "the mend failed: $mend"
out=$(check) || fail "--check after the mend: $out"
inside systemctl restart club-admin-ssh \
    || fail "no restart after the mend ($mend): $(inside journalctl -u club-admin-ssh --no-pager | tail -n 12)"
wait_door || fail "no door after the drop-in"
ssh_to whoami >/dev/null
inside test -s /srv/club-admin-log/serve-ssh.log || fail "nothing logged to the opened log file"
# Without the drop-in the server still logs (to the journal), said once.
inside rm -rf /etc/systemd/system/club-admin-ssh.service.d
inside systemctl daemon-reload
inside systemctl restart club-admin-ssh
wait_door || fail "no door with a read-only log file"
inside journalctl -u club-admin-ssh --no-pager | grep 'no log file' >/dev/null || fail "the read-only log file was not said"
inside sed -i '/^log_file = /d' /etc/club-admin/serve-ssh.toml
# A state folder there: the server could not make its host key: a ✗, the check fails.
inside sed -i 's|^state_dir = .*|state_dir = "/srv/club-admin-state"|' /etc/club-admin/serve-ssh.toml
out=$(check) && fail "--check passed a state folder the sandbox makes read-only: $out"
echo "$out" | grep '^✗ the state folder /srv/club-admin-state is read-only to club-admin-ssh.service' >/dev/null \
    || fail "no ✗ for the read-only state folder: $out"
inside sed -i 's|^state_dir = .*|state_dir = "/var/lib/club-admin/club-admin"|' /etc/club-admin/serve-ssh.toml

echo "== the journal holds no key nor token"
journal=$(inside journalctl -u club-admin-ssh --no-pager)
echo "journal lines: $(echo "$journal" | wc -l)"
if echo "$journal" | grep -qF -e "$api_key" -e "$token"; then fail "a key or a token in the journal"; fi

echo "== remove, install again, enable --now"
inside dpkg -r club-admin >"$work/dpkg.log" 2>&1 || fail "remove: $(cat "$work/dpkg.log")"
[ "$(active)" != active ] || fail "remove left the service running"
inside test -s /etc/club-admin/api_key || fail "remove removed the API key"
inside dpkg -i /root/old.deb >"$work/dpkg.log" 2>&1 || fail "install again: $(cat "$work/dpkg.log")"
inside systemctl enable --now club-admin-ssh >"$work/enable.log" 2>&1 \
    || fail "enable --now after remove and install: $(cat "$work/enable.log")"
wait_door || fail "no door after install again"

echo "== purge"
inside dpkg -P club-admin >"$work/dpkg.log" 2>&1 || fail "purge: $(cat "$work/dpkg.log")"
for gone in /etc/club-admin /var/lib/club-admin /usr/bin/club-admin; do
    inside test ! -e "$gone" || fail "purge left $gone"
done
inside test ! -L /etc/systemd/system/club-admin-ssh.service || fail "purge left the unit masked"
[ "$(active)" != active ] || fail "purge left the service running"
echo "systemd walk passed"
