# club-admin user interface, English.
#
# Key scheme (see src/i18n/mod.rs): <area>-<item>, lower-case kebab-case, e.g.
#   scope-*   help section titles (one per keymap Scope)
#   action-*  help text of an action; the suffix is the action's config name with _ as -
#   hint-*    short label of an action in the footer hints
#   age-*     relative ages and times left
#   club-*, header-*, status-*, error-*, confirm-*, popup-*, empty-*, log-*: the rest of the UI
# Every key here must exist in th/main.ftl with the same $placeholders (tests/i18n.rs).

## Help section titles (keymap Scope)

scope-global = Everywhere
scope-queue = Review queue
scope-club = Club lookup
scope-log = Activity log

## Help texts of actions (keymap Action::info)

action-force-quit = quit at once, from anywhere
action-suspend = suspend to the shell (fg resumes)
action-quit = quit
action-help = this help
action-next-pane = next pane
action-prev-pane = previous pane
action-refresh = reload the queue from the server
action-toggle-log = show or hide the activity log
action-command-line = command line (:help for commands)
action-add-ids = add club request ids
action-club-lookup = look up a club
action-sign-in = sign in (paste a token)
action-redraw = redraw the screen
action-down = down
action-up = up
action-top = first row
action-bottom = last row
action-page-down = page down
action-page-up = page up
action-approve = approve (marked rows, else the selected one)
action-decline = decline (marked rows, else the selected one)
action-delete = delete, after confirmation
action-undo = take back the latest approve/decline before it is sent
action-mark = mark or unmark the row
action-mark-range = mark from the last mark to here
action-mark-all = mark all matching the filter (loads every page)
action-clear-marks = clear marks
action-filter = filter (status: club: year: or any text)
action-clear-filter = clear the filter
action-sort = cycle the sort: server order, oldest first, club, status
action-open = re-read the selected request / load the club
action-raise-level = raise the fetch level
action-lower-level = lower the fetch level
action-copy = copy the id(s) to the clipboard (OSC 52)
action-new-contact = add a contact to the club
action-detail-down = scroll the detail pane down
action-detail-up = scroll the detail pane up
action-history = the team's history: who decided what, when, from where

## Footer hints (ui/hints.rs, for the keymap's Keymap::hint_actions): short labels

hint-force-quit = force quit
hint-suspend = suspend
hint-quit = quit
# The detail pane's scroll keys, offered while its lines are hidden (ui::detail_hint).
hint-detail-more = more ↓
hint-detail-back = back up ↑
hint-help = help
hint-next-pane = pane
hint-prev-pane = prev pane
hint-refresh = refresh
hint-toggle-log = log
hint-command-line = command
hint-add-ids = add ids
hint-club-lookup = club
hint-sign-in = sign in
hint-redraw = redraw
hint-down = down
hint-up = up
hint-top = top
hint-bottom = bottom
hint-page-down = page down
hint-page-up = page up
hint-approve = approve
hint-decline = decline
hint-delete = delete
hint-undo = undo
hint-mark = mark
hint-mark-range = mark range
hint-mark-all = mark all
hint-clear-marks = clear marks
hint-clear-filter = clear filter
hint-filter = filter
hint-sort = sort
hint-open = load
hint-raise-level = more
hint-lower-level = less
hint-copy = copy
hint-new-contact = new contact
hint-detail-down = detail down
hint-detail-up = detail up
hint-history = history

## Relative ages (ui::age, ui::time_left) and counts

age-now = now
age-minutes = { $n }m
age-hours = { $n }h
age-days = { $n }d
age-weeks = { $n }w
age-years = { $n }y
# "5m ago", "3d ago": $age is one of the age-* texts above.
age-ago = { $age } ago
age-updated-seconds = updated { $n } s ago
age-updated = updated { $age } ago
# Time left until a token expires: "3d 4h", "7h 59m", "12m".
age-left-days-hours = { $days }d { $hours }h
age-left-hours-minutes = { $hours }h { $minutes }m
age-left-minutes = { $minutes }m
age-left-seconds = { $seconds }s
age-expired = expired

club-members = { $n ->
    [one] { $n } member
   *[other] { $n } members
}

## The help's last line: the queue filter's terms
# A Thai reader's example year is BE; year: matches CE and BE in both languages.
help-filter-terms = Filter terms: status:pending club:robot year:2026 -term, any text (Thai too)
help-dropped = If the terminal drops
help-dropped-hangup = A hang-up (the SSH link dropped, the window closed) sends the decisions still held at once, as if their time had run out, and waits for the answers; each is audited. You pressed a or x: the grace period is for undoing, not a second confirmation.
help-dropped-suspend = After Ctrl-Z and fg, decisions whose time ran out meanwhile wait for you: s send now, k keep holding, d discard.
help-markers = Row markers
help-marker-marked = marked (Space)
help-marker-marked-error = marked, and its last action or read failed
help-marker-error = its last action or read failed (the detail pane says why)
help-marker-unknown = outcome unknown: the answer was lost; the row is read again by itself until the server tells
help-marker-new = a new request: it came in since the queue was loaded (until the cursor reaches it)
help-marker-held-elsewhere = a decision on it is held in another session (serve-ssh): a or x here asks first

## Hint bar of the narrow layout (src/ui/mod.rs, below 60 columns)

hint-narrow-detail = detail
hint-narrow-back = back
hint-narrow-look-up = look up
# The terminal window's title while the dashboard runs (the terminal's own title comes back on exit).
title-pending = club-admin · { $n } pending
