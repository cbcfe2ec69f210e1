#!/bin/sh
# One release command: builds the release binary and lays out, in OUT_DIR,
#   club-admin_VERSION_ARCH.deb              the Debian package (packaging/deb/build.sh)
#   club-admin-VERSION-MACHINE-linux.tar.gz  the binary, man pages, completions, and
#                                            packaging/docs.sh's files: README.md, CHANGELOG.md,
#                                            the licences, the manual (docs/src), the example
#                                            configs, the unit and the tmpfiles line
#   SHA256SUMS                               for `sha256sum -c SHA256SUMS` in OUT_DIR
#     packaging/release.sh OUT_DIR
# VERSION is Cargo.toml's, ARCH dpkg's (amd64), MACHINE uname's (x86_64). Prints the three
# paths. CLUB_ADMIN_RELEASE_BINARY: a binary already built to use instead of
# `cargo build --release --locked` (the tests pass the debug binary they have). The
# tarball is reproducible: sorted, owned by root, dated from the last commit
# (SOURCE_DATE_EPOCH when set). CLUB_ADMIN_DEB_COMPRESS is passed to build.sh;
# CLUB_ADMIN_RELEASE_GZIP is the tarball's gzip level (9, the default; the tests take 1).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
out=$1
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

if [ -n "${CLUB_ADMIN_RELEASE_BINARY:-}" ]; then
    bin=$CLUB_ADMIN_RELEASE_BINARY
else
    (cd "$repo" && cargo build --release --locked)
    bin=$repo/target/release/club-admin
fi
[ -x "$bin" ] || { echo "$0: $bin is not an executable" >&2; exit 2; }

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)
[ -n "$version" ] || { echo "$0: no version in $repo/Cargo.toml" >&2; exit 2; }
machine=$(uname -m)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 022

# The Debian package.
deb=$("$here/deb/build.sh" "$bin" "$out")

# The tarball: one folder named as the archive.
name=club-admin-$version-$machine-linux
dir=$work/$name
install -D -m 0755 "$bin" "$dir/club-admin"
"$bin" man --out-dir "$dir/man" >/dev/null
chmod 0644 "$dir"/man/*
install -d -m 0755 "$dir/completions"
"$bin" completions bash >"$dir/completions/club-admin.bash"
"$bin" completions zsh >"$dir/completions/_club-admin"
"$bin" completions fish >"$dir/completions/club-admin.fish"
chmod 0644 "$dir"/completions/*
# The README, the manual, the example configs, the unit and the tmpfiles line, as in the
# repository (packaging/docs.sh): the manual's links resolve in the unpacked folder.
"$here/docs.sh" "$dir"
tarball=$out/$name.tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$work" -cf - "$name" | gzip "-${CLUB_ADMIN_RELEASE_GZIP:-9}" -n >"$tarball"

# The checksums, by file name, beside the files.
(cd "$out" && sha256sum "$(basename "$deb")" "$(basename "$tarball")" >SHA256SUMS)

printf '%s\n' "$deb" "$tarball" "$out/SHA256SUMS"
