# club-admin panes, English: header, queue, detail, club lookup, and the words of rows and
# membership statuses (src/ui/panes/*, src/ui/mod.rs, src/app/model/row.rs and queue.rs).
#
# Same keys and $placeholders as th/panes.ftl (tests/i18n.rs checks). Separators (" · ",
# ", ", "  ") and symbols (● ○ # —) are added by the code, so no text here starts or ends
# with a blank. Key letters (S, i, r, c, n, f/F) are the default keys.

## Header (src/ui/panes/header.rs) and the footer's read-only mark

header-no-email = (no e-mail)
# After the server's role: "(management, admin)".
# The user's role (api-notes.md: student, teacher, organization, staff, management).
header-role = { $role ->
    [student] student
    [teacher] teacher
    [organization] organization
    [staff] staff
   *[management] management
}
header-role-admin = admin
header-role-not-onboarded = not onboarded
header-signing-in = signing in…
header-not-signed-in = not signed in
header-online = online
header-offline = offline
header-connecting = connecting
header-no-token = no token: S to sign in
header-session-expired = session expired: S to sign in
# $left: a time left, age-left-* or age-expired.
header-token = token { $left }
# The short form where the header is narrow.
header-cannot-decide-short = no approve/decline
header-read-only = read-only

## Rows of the queue (status cell, student cell)

# A decision held for its grace period: $verb is status-progress without "…", $n seconds.
row-held = { $verb } in { $n } s
row-held-short = { $verb } { $n } s
# After row-held: "· z undo".
row-held-undo = { $key } undo
row-deleted = deleted
row-not-found = not found
row-gone = gone
row-loading = loading…
row-error = error
row-outcome-unknown = outcome unknown
row-outcome-unknown-short = unknown
# A student known by id only: the first 8 hex digits of the id.
row-student-id = student { $id }…

## Queue pane (src/ui/panes/queue.rs)

queue-title = Queue { $n }
queue-count-pending = { $n } pending
queue-count-approved = { $n } approved
queue-count-declined = { $n } declined
queue-count-gone = { $n } gone
queue-count-reading = { $n } being read
# Rows whose decision was sent and its answer lost, not counted as pending meanwhile.
queue-count-unknown = { $n } unknown
queue-count-marked = { $n } marked
queue-col-status = status
queue-col-student = student
queue-col-club = club
queue-col-year = year
queue-col-age = age
# Bottom line: $order is one of queue-sort-*.
queue-sort = sort: { $order }
queue-sort-server = server order
queue-sort-age = oldest first
queue-sort-club = club
queue-sort-status = status
# $ago: "now" or "5m ago" (age-now, age-ago).
queue-updated = updated { $ago }
queue-server-total = server: { $n } pending
queue-more-below = more below

## Empty states

empty-loading = Loading…
empty-no-listing = No requests. This server has no listing: press i to add club request ids.
empty-not-signed-in = Not signed in: press S to sign in, and the queue loads.
empty-user-failed = Could not read the signed-in user (see the status line): r to try again.
empty-loading-queue = Loading the queue…
empty-queue-failed = Could not load the queue: { $error }. Press r to try again.
empty-no-pending = No pending requests. Press i to add club request ids, r to refresh.
empty-no-match = No request matches the filter /{ $filter }  (/ to change, Esc in the filter to undo)
empty-nothing-selected = Nothing selected.
empty-no-club-match = no club matches
empty-club-hint = Press c, type a club id (or a name to search), Enter.
empty-terminal-too-small = Terminal too small ({ $width }x{ $height }): club-admin needs at least { $min_width }x{ $min_height } (columns x rows). Enlarge the window, turn the phone on its side or make the font smaller.
empty-terminal-too-small-keys = Until it is larger no key acts but q (quit), Ctrl-C (quit at once, held decisions not sent), z (undo) and Ctrl-L (redraw).

## Detail pane (src/ui/panes/detail.rs): field names at most 8 columns wide

detail-title = Request
detail-field-id = id
detail-field-status = status
detail-field-student = student
detail-field-club = club
detail-field-year = year
detail-field-asked = asked
detail-field-source = source
detail-field-levels = levels
# A student's number in class.
detail-class-no = no. { $n }
detail-source-listing = server listing
detail-source-manual = added by id
detail-last-action = last action: { $error }
detail-last-read = last read: { $error }
# A write whose answer was lost, while its re-read waits (counts down) or is on its way.
detail-reread-in = reading it again by itself in { $secs } s (Enter: now)
detail-reread-now = reading it again now
# Fetch level names (the `:level` command takes the English ones).
detail-level-id-only = id_only
detail-level-compact = compact
detail-level-default = default
detail-level-detailed = detailed

## Club lookup pane (src/ui/panes/club.rs): field names at most 8 columns wide

club-title = Club lookup (c)
club-field-label = id or name:
club-field-name = name
club-field-about = about
club-field-people = people
club-field-colours = colours
club-staff-count = { $n } staff
club-contacts = contacts ({ $n })
club-staff-list = staff ({ $n })
club-member-list = members ({ $n })
# Contact types the server names; LINE, Facebook, Instagram and Discord keep their names.
club-footer = fetch level { $level } (f/F) · n new contact
# The same, to an account that may not add the club's contacts (ops::permit).
club-footer-read = fetch level { $level } (f/F)
club-loading = loading…
club-searching = searching…
# Footer hints while the club field has focus.
club-hint-look-up = look up
club-hint-cancel = cancel

## Queue title while a filter hides rows

# After queue-title while a filter hides rows: "Queue 193 · 3 shown · 190 pending".
queue-shown = { $n } shown

# A decision held and not sent (the quit question is open, or it waits for the sign-in).
row-held-unsent = { $action ->
    [approve] approve held
    [decline] decline held
   *[delete] delete held
}
# A request never read and not found on the server: its id, short.
row-request-id = request { $id }…
# The queue's bottom line when a sort covers only the loaded rows.
queue-sort-loaded-only = sort: { $order }, only the { $n } loaded

## Header where it is narrow (a phone): the session's state in few words

header-no-token-short = no token
header-session-expired-short = expired
detail-decided-elsewhere = { $status } by someone else while it was in this queue
detail-decided-by = { $status } by { $by } { $ago } (in another session)
