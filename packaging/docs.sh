#!/bin/sh
# The operator's reading, laid out in DEST as in the repository, so that every relative link
# of the README and the manual resolves there:
#   packaging/docs.sh DEST
# README.md, CHANGELOG.md, CONTRIBUTING.md, the licences, the manual (docs/src, Markdown),
# the example configs (assets/config.example.toml, packaging/deb/serve-ssh.toml), the unit
# and the tmpfiles line the manual's "without the package" copies (packaging/deb/), and the
# screenshot the README shows. Every file mode 0644, every folder 0755.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 DEST" >&2
    exit 2
fi
dest=$1
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
umask 022

mkdir -p "$dest"
for f in README.md CHANGELOG.md CONTRIBUTING.md LICENSE-MIT LICENSE-APACHE \
    assets/config.example.toml assets/screenshots/queue-th.png \
    packaging/deb/serve-ssh.toml packaging/deb/club-admin-ssh.service packaging/deb/tmpfiles.conf; do
    install -D -m 0644 "$repo/$f" "$dest/$f"
done
(cd "$repo" && find docs/src -type f -name '*.md' | LC_ALL=C sort) | while read -r f; do
    install -D -m 0644 "$repo/$f" "$dest/$f"
done
find "$dest" -type d -exec chmod 0755 {} +
