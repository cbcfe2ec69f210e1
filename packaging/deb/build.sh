#!/bin/sh
# Builds club-admin's Debian package from a built binary, with Debian's own dpkg-deb:
#   packaging/deb/build.sh BINARY OUT_DIR
# (README: cargo build --release && packaging/deb/build.sh target/release/club-admin target/deb)
# Prints the .deb's path. The version is Cargo.toml's, the architecture dpkg's, the
# dependencies adduser, ca-certificates and those of the binary's shared libraries (ldd,
# dpkg -S). Every file is root's (--root-owner-group); what belongs to the user club-admin
# is made by postinst.
# CLUB_ADMIN_DEB_COMPRESS: dpkg-deb's compression, xz (the default), gzip or none;
# CLUB_ADMIN_DEB_VERSION: the package's version instead of Cargo.toml's (a test's upgrade);
# SOURCE_DATE_EPOCH: the files' date (default: the last commit's), so that two builds of
# the same sources are the same bytes;
# DEBFULLNAME and DEBEMAIL: the Maintainer field (Debian's usual variables).
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 BINARY OUT_DIR" >&2
    exit 2
fi
bin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
[ -x "$bin" ] || { echo "$0: $bin is not an executable" >&2; exit 2; }
command -v dpkg-deb >/dev/null || { echo "$0: dpkg-deb is not installed" >&2; exit 2; }

version=${CLUB_ADMIN_DEB_VERSION:-$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)}
description=$(sed -n 's/^description = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)
arch=$(dpkg --print-architecture)
[ -n "$version" ] || { echo "$0: no version in $repo/Cargo.toml" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/club-admin
umask 022

# The program, its man pages and its completions, from the binary itself.
install -D -m 0755 "$bin" "$root/usr/bin/club-admin"
"$bin" man --out-dir "$work/man" >/dev/null
install -d -m 0755 "$root/usr/share/man/man1"
for page in "$work"/man/*.1; do
    gzip -9n -c "$page" >"$root/usr/share/man/man1/$(basename "$page").gz"
    chmod 0644 "$root/usr/share/man/man1/$(basename "$page").gz"
done
install -d -m 0755 "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
"$bin" completions bash >"$root/usr/share/bash-completion/completions/club-admin"
"$bin" completions zsh >"$root/usr/share/zsh/vendor-completions/_club-admin"
"$bin" completions fish >"$root/usr/share/fish/vendor_completions.d/club-admin.fish"

# The config file (a conffile), the unit, the host budget's folder at boot.
install -D -m 0644 "$here/serve-ssh.toml" "$root/etc/club-admin/serve-ssh.toml"
install -D -m 0644 "$here/club-admin-ssh.service" "$root/lib/systemd/system/club-admin-ssh.service"
install -D -m 0644 "$here/tmpfiles.conf" "$root/usr/lib/tmpfiles.d/club-admin.conf"
# The README and the manual as in the repository (packaging/docs.sh), so that their links
# resolve in /usr/share/doc/club-admin; left uncompressed for the same reason.
"$here/../docs.sh" "$root/usr/share/doc/club-admin"
# The upstream changelog and the licence, where Debian's policy puts them (changelog.gz,
# copyright: the two licence texts the project is offered under).
install -m 0644 "$repo/CHANGELOG.md" "$root/usr/share/doc/club-admin/changelog"
gzip -9n "$root/usr/share/doc/club-admin/changelog"
{
    printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
    printf 'Upstream-Name: club-admin\n\nFiles: *\nCopyright: the club-admin authors\n'
    printf 'License: MIT or Apache-2.0\n\nLicense: MIT\n'
    sed 's/^$/./; s/^/ /' "$repo/LICENSE-MIT"
    printf '\nLicense: Apache-2.0\n'
    sed 's/^$/./; s/^/ /' "$repo/LICENSE-APACHE"
} >"$root/usr/share/doc/club-admin/copyright"
chmod 0644 "$root/usr/share/doc/club-admin/copyright"
find "$root" -type f -exec chmod go-w {} +
find "$root" -type d -exec chmod 0755 {} +
chmod 0755 "$root/usr/bin/club-admin"

# adduser for postinst; ca-certificates for the TLS verifier, which reads the system's
# certificate authorities (without them no https client is made: "builder error"); the
# packages of the binary's shared libraries, libc6 at least the newest GLIBC_ it names.
depends=adduser,ca-certificates
for lib in $(ldd "$bin" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
    pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || true)
    pkg=$(printf '%s\n' "$pkg" | head -n 1 | cut -d: -f1)
    if [ -z "$pkg" ]; then
        echo "$0: no package holds $lib (a dependency the package would not name)" >&2
        exit 1
    fi
    case ",$depends," in *",$pkg,"*) ;; *) depends="$depends,$pkg" ;; esac
done
glibc=$(grep -ao 'GLIBC_2\.[0-9]*' "$bin" | sort -u -t. -k2,2n | tail -n 1 | cut -d_ -f2)
if [ -n "$glibc" ]; then
    depends=$(printf '%s\n' "$depends" | sed "s/\(^\|,\)libc6\(,\|$\)/\1libc6 (>= $glibc)\2/")
fi
depends=$(printf '%s\n' "$depends" | sed 's/,/, /g')

install -d -m 0755 "$root/DEBIAN"
for script in postinst prerm postrm; do
    install -m 0755 "$here/$script" "$root/DEBIAN/$script"
done
printf '/etc/club-admin/serve-ssh.toml\n' >"$root/DEBIAN/conffiles"
chmod 0644 "$root/DEBIAN/conffiles"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: club-admin
Version: $version
Architecture: $arch
Maintainer: ${DEBFULLNAME:-club-admin maintainers} <${DEBEMAIL:-root@localhost}>
Installed-Size: $size
Depends: $depends
Section: admin
Priority: optional
Description: $description
 club-admin reviews club membership requests from a terminal, and serves the
 same dashboard to every moderator over SSH (club-admin serve-ssh). This
 package brings the program, its man pages and shell completions, the user
 club-admin, /etc/club-admin (serve-ssh.toml, authorized_keys, api_key) and
 the systemd unit club-admin-ssh.service.
CONTROL
chmod 0644 "$root/DEBIAN/control"

# The same bytes from the same sources: every file dated from the last commit
# (SOURCE_DATE_EPOCH when set, which dpkg-deb also uses for the archive's own dates).
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$out"
deb="$out/club-admin_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Z"${CLUB_ADMIN_DEB_COMPRESS:-xz}" --build "$root" "$deb" >/dev/null
printf '%s\n' "$deb"
