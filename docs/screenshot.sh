#!/usr/bin/env bash
# Makes a PNG of the dashboard as a real terminal draws it (the README's screenshots).
#
#   docs/screenshot.sh OUT.png COLS ROWS "KEYS" [club-admin arguments...]
#   docs/screenshot.sh assets/screenshots/queue-th.png 120 40 "j j a" demo --lang th
#
# The dashboard runs in tmux (KEYS go in through `tmux send-keys`, space-separated), shown by
# xterm on a virtual X display, and the xterm window is captured. Needs Debian's packages
# tmux xvfb xterm x11-apps x11-utils imagemagick fonts-dejavu-core fonts-tlwg-mono (Thai
# glyphs); not needed by the build or the tests. Uses ./target/release/club-admin.
set -euo pipefail
out=$1; cols=$2; rows=$3; keys=$4; shift 4
bin=${CLUB_ADMIN_BIN:-./target/release/club-admin}
d=$(mktemp -d)
sock=screenshot-$$
display=:$(( 90 + RANDOM % 100 ))
cleanup() {
    kill "${xterm_pid:-}" "${xvfb_pid:-}" 2>/dev/null || true
    tmux -L "$sock" kill-server 2>/dev/null || true
    rm -rf "$d"
}
trap cleanup EXIT
tmux -L "$sock" new-session -d -s shot -x "$cols" -y "$rows" \
    "XDG_STATE_HOME=$d XDG_CONFIG_HOME=$d TERM=xterm-256color $bin $*"
tmux -L "$sock" set -t shot status off
Xvfb "$display" -screen 0 1920x1200x24 >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1
DISPLAY=$display xterm -geometry "${cols}x${rows}+0+0" -fa "DejaVu Sans Mono" -fs 11 \
    -bg black -fg '#dddddd' -b 0 -bw 0 -e tmux -L "$sock" attach -t shot >/dev/null 2>&1 &
xterm_pid=$!
sleep 3
for k in $keys; do
    tmux -L "$sock" send-keys -t shot "$k"
    sleep 0.4
done
sleep 1.5
wid=$(DISPLAY=$display xwininfo -root -tree | awk '/xterm/ {print $1; exit}')
DISPLAY=$display xwd -id "$wid" -silent | /usr/bin/convert xwd:- "$out"
echo "$out"
