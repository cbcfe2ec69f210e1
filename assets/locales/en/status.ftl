# club-admin: the status line, row errors, the activity log and the : command line, English.
#
# Prefixes: status-* (status line and row texts), error-* (API errors as the dashboard shows
# them), log-* (activity log pane and entries), command-* (the : command line).
# Every key here must exist in th/status.ftl with the same $placeholders (tests/i18n.rs).
# A $suffix, $status or $excerpt argument starts with its own space or colon (": detail (HTTP 403)").

## API errors (ApiError::describe; English equals the Display text)

error-unauthorised = unauthorised: { $why }{ $suffix }
error-auth-missing-key = no API key was sent
error-auth-invalid-key = the API key was refused (unknown, revoked or expired): whoever set it up (over SSH, the server's operator) must put in a new one
error-auth-missing-token = this needs a sign-in token
error-auth-invalid-token = session expired or token invalid: sign in again
error-auth-unknown = not authorised
error-refused = refused{ $suffix }
error-not-found = not found{ $suffix }
error-unavailable = this server does not offer that operation{ $suffix }
error-invalid = invalid request{ $suffix }
error-conflict = conflict{ $suffix }
error-server = server error{ $suffix }
# $seconds: one decimal, "2.5".
error-timeout = timed out after { $seconds } s
# A read tried again: $spent, $seconds: one decimal; $tries: how many tries (2 or more).
error-timeout-tries = no answer in { $spent } s: { $tries } tries, the last timed out after { $seconds } s
# $what: one of error-connect-none, -closed, -mid-answer; $cause: what the system said.
error-connect = connection failed: { $what }
error-connect-cause = connection failed: { $what } ({ $cause })
error-connect-none = could not connect to { $host }
error-connect-closed = the connection to { $host } closed without an answer
error-connect-mid-answer = the connection to { $host } closed in the middle of the answer
error-decode = unreadable answer{ $status }: { $message }{ $excerpt }
error-config = configuration error: { $message }

## Words of decisions and statuses (app::model::words). $action is approve, decline or delete.

status-verb = { $action ->
    [approve] approve
    [decline] decline
    [add-contact] add the contact
   *[delete] delete
}
status-progress = { $action ->
    [approve] approving…
    [decline] declining…
    [add-contact] adding the contact…
   *[delete] deleting…
}
status-past = { $action ->
    [approve] approved
    [decline] declined
    [add-contact] contact added
   *[delete] deleted
}
# A membership status; $status is pending, approved, declined (or deleted for a row).
status-state = { $status ->
    [pending] pending
    [approved] approved
    [declined] declined
   *[deleted] deleted
}
status-requests = { $n ->
    [one] { $n } request
   *[other] { $n } requests
}

## Activities on the status line (Model::status_line)

status-checking-token = signed in: checking the token…
status-refreshing = refreshing…
status-mark-all-loading = mark all: loading the rest of the queue, { $n } loaded…
status-mark-all-loading-of = mark all: loading the rest of the queue, { $n } loaded of { $total }…
# Bulk progress: "approving… 16/99 (3 failed, 1 unknown, re-reading)".
status-bulk-failed = { $n } failed
status-bulk-unknown = { $n } unknown, re-reading
# A decision held for the grace period: "approving Somchai → Robotics in 4 s · z undo (2 decisions held)".
status-held = { $action ->
    [approve] approving
    [decline] declining
   *[delete] deleting
} { $what }{ $seconds ->
    [0] , waiting for your answer
   *[other] {" "}in { $seconds } s
}
status-held-undo = { $key } undo
status-held-more = ({ $n } decisions held)

## What the server lets this account do (model::capability)

status-cannot-decide-server = this server cannot approve or decline
status-cannot-decide-account = this account cannot approve or decline
status-cannot-decide-account-why = this account cannot approve or decline: { $detail }

## Activity log: entries (model::log) and the pane (ui::panes::log)

log-earlier-session = (earlier session)
log-no-answer-seen = no answer seen
# What ran (LogEntry::what codes; the audit file's action names).
log-what-approve = approve
log-what-decline = decline
log-what-delete = delete
log-what-add-contact = add-contact
log-what-sign-in = sign-in
log-what-signed-in = signed in
log-what-start = start
log-what-capability = capability
log-what-add-ids = add ids
log-what-error = error
log-what-notice = notice
log-title = Activity ({ $n })
log-empty = nothing done yet in this session
log-outcome-ok = ok
log-outcome-failed = failed
log-outcome-unknown = outcome unknown
log-outcome-undone = undone
log-outcome-sending = sending
log-outcome-queued = not sent

## Status line: start, local failures, sessions (update/mod.rs)

status-no-token = no token: reads that need only the API key work; sign in to review requests
# Calls to the server not answered yet (right of the status line, beside a spinner).
status-in-flight = { $n } in flight
status-calls-waiting = { $n } waiting
# A start-up warning on the status line: $warning is one of warning-readable-*.
status-warning = warning: { $warning }
warning-readable-config = the config file, which holds the API key, { $path } can be read by other users (mode { $mode }): run chmod 600 { $path } so that only you can read it
warning-readable-api-key = the API key file { $path } can be read by other users (mode { $mode }): run chmod 600 { $path } so that only you can read it
warning-readable-token = the token file { $path } can be read by other users (mode { $mode }): run chmod 600 { $path } so that only you can read it
status-effect-failed = { $what } failed: { $error }
status-effect-saving-token = saving the token
status-effect-audit-file = writing the audit file
status-effect-saving-queue = saving the queue
status-needs-token = this needs a sign-in token
status-session-expired = session expired: sign in again
# A 403 while students are read above compact: $level is the wire name, $key lowers it.
error-at-fetch-level = { $error } — at fetch level { $level }: press { $key } to lower it
log-error-id = { $error } · error id { $id }

## Answers: user, token, staffed clubs (update/answers.rs)

status-refreshed = refreshed
status-user-failed = could not read the current user: { $error }
status-signed-in = signed in
status-token-refused-why = that token was refused: { $detail } (HTTP 401)
status-token-refused = that token was refused (HTTP 401)
status-token-check-failed = could not check the token: { $error }
log-token-taken = token pasted and taken
status-staffed-clubs-failed = could not find your clubs
status-no-staffed-clubs = you are not on the staff of any club: add request ids with i, or :scope <club id>

## Reading rows and the listing (update/fetch.rs)

status-no-listing = this server has no listing: add request ids with i (or pass them as arguments)
status-queue-failed = could not load the queue
status-queue-refresh-failed = could not refresh the queue
status-loaded = { $n ->
    [one] { $n } pending request loaded
   *[other] { $n } pending requests loaded
}
status-loaded-of = { $n ->
    [one] { $n } pending request loaded of { $total }
   *[other] { $n } pending requests loaded of { $total }
}
status-refresh-failed = could not refresh the queue: { $error }
status-retrying-in = ; trying again in { $secs } s
error-row-gone-elsewhere = not on the server any more (deleted elsewhere?)
error-row-deleted-since-read = gone: deleted on the server since it was read
error-row-not-found = not found: the server has no club request with this id

## Decisions: answers, lost answers, bulk summaries (update/verdict.rs)

status-action-failed = { $action } { $label } failed: { $error }
error-answer-lost = { $action } sent, answer lost: outcome unknown, re-reading
status-answer-lost = { $action } { $label }: the answer was lost ({ $error }); re-reading to learn the outcome
log-answer-lost = the answer was lost ({ $error }): re-reading the request
error-reread-failed-too = the re-read failed too: { $error }
error-level-hides-status = this fetch level does not show the status
error-still-unknown = { $action } sent, answer lost: outcome still unknown ({ $why })
error-verdict-gone = the request is not on the server any more
error-verdict-not-deleted = still on the server: not deleted
error-verdict-not-added = not added
error-verdict-still-pending = not applied: still pending
error-verdict-now = not applied: the request is { $status } now
log-answer-had-been-lost = its answer had been lost: { $error }
log-settled = settled by a re-read ({ $lost }): { $outcome }
error-settled-failed = { $action } { $why } ({ $lost })
status-settled-ok = { $label }: { $outcome } (re-read after the answer was lost)
status-settled-failed = { $action } { $label }: { $why } ({ $lost })
status-bulk-summary = { $action }: { $ok } of { $total } done
status-bulk-summary-failed = { $n } failed (still marked: press { $key } to retry)
status-bulk-summary-unknown = { $n } unknown (answer lost: re-reading)

## Club lookup and contacts (update/club.rs)

status-club-type-something = type a club id, or a name to search
status-bad-club-id = { $text } is not a valid club id (UUID)
status-no-club-search = this server cannot search clubs by name: enter a club id
status-club-first = look up a club first ({ $key })
status-adding-contact = adding contact…
status-club-shown = club: { $name }
status-no-club = no club with id { $id }
status-clubs-found = { $n ->
    [0] no club has that name: try another name or the club's id
    [one] { $n } club found: j/k and Enter to open
   *[other] { $n } clubs found: j/k and Enter to open
}
status-contact-added = contact added: { $contact }
status-contact-not-added = contact not added: { $error }

## Deciding (update/decide.rs, update/held.rs, update/capability.rs)

status-queue-empty = the queue is empty: add request ids with i
status-cannot-act = cannot { $action } { $label }: { $why }
status-why-already-acting = already { $progress }
status-why-deleted = it was deleted
status-why-gone = the server does not know it
status-why-already = it is already { $status }
status-why-cannot-change = it cannot change
status-why-not-read = its status is not read yet (reading it now: press again once it shows pending)
status-already-changing = that request is already being changed or deleted
status-nothing-to-do = nothing to do: those requests are no longer pending
status-confirm-closed = { $label }: { $why }; the confirmation closed, nothing was sent
status-unread-left-out = { $n ->
    [one] nothing sent: 1 request's status is not read yet (reading it now: press again once it shows pending)
   *[other] nothing sent: { $n } requests' status is not read yet (reading them now: press again once they show pending)
}
status-decision-refused-here = cannot { $action }: { $why } (nothing was sent)
status-nothing-to-undo = nothing to undo: no decision is waiting to be sent (sent ones are final)
status-taken-back = { $action } of { $what } taken back: pending again, nothing was sent
status-sending-held = sending the held decisions: quitting when the server has answered (q q quits now)
# Why a held decision was never sent (activity log; the audit file has the English).
log-why-undone = taken back (z) before it was sent
log-why-force-quit = force quit before it was sent
log-why-ended-queued = not sent: the dashboard ended before its turn came
log-why-server-stopped = not sent: the server stopped
log-why-discarded = discarded on quitting before it was sent
log-why-discarded-resume = discarded after a suspend, before it was sent
# An error cut short on the status line: the key that shows it whole in the activity log.
status-full-text = { $key }: full text
status-held-discarded = { $n ->
    [one] 1 decision discarded, never sent
   *[other] { $n } decisions discarded, never sent
}
status-held-again = held again: a new grace period (z takes the latest back)

## Keys (update/keys.rs, update/marking.rs, update/scope.rs)

status-quit-armed = { $n ->
    [one] { $n } action still waiting for the server: press q again to quit anyway
   *[other] { $n } actions still waiting for the server: press q again to quit anyway
}
status-read-only = read-only mode: nothing can be changed (started with --read-only)
# $sort: server, age, club or status.
status-sorted = sorted: { $sort ->
    [age] oldest first
    [club] club
    [status] status
   *[server] server order
}
status-marks-cleared = marks cleared
status-marked = { $n } marked
status-club-level = club fetch level: { $level }
status-student-level = students stay at compact: the service refuses more to a student account
status-request-level = request fetch level: default, student and club at { $level }: reloading…
status-copied = { $n ->
    [one] copied { $n } id to the clipboard
   *[other] copied { $n } ids to the clipboard
}
status-busy-row = { $label }: already being read or changed
status-reading-row = reading { $label }…
status-mark-all-stopped = mark all stopped: the rest of the queue could not be loaded, nothing was marked (press * to try again)
status-marked-every = { $n } marked: every pending request matching the filter
status-marked-every-of = { $n } marked: every pending request of { $club } matching the filter
status-marked-some = { $n } marked matching the filter ({ $all } marked in all)
status-marked-some-of = { $n } marked of { $club } matching the filter ({ $all } marked in all)
status-clubs-changed = your clubs changed since the last start: listing them
status-clubs-changed-dropped = { $n ->
    [one] your clubs changed since the last start: { $n } request of other clubs left the queue
   *[other] your clubs changed since the last start: { $n } requests of other clubs left the queue
}

## Ids added by hand, the saved queue (update/ids.rs)

status-ids-added = { $n ->
    [one] added { $n } request id from { $origin }
   *[other] added { $n } request ids from { $origin }
}
status-ids-skipped = skipped { $n } that are not UUIDs ({ $ids })
status-ids-already = { $n ->
    [one] 1 was in the queue already
   *[other] { $n } were in the queue already
}
# $filter: the queue filter as typed; $key: the key that clears it (Backspace).
status-ids-hidden = { $n ->
    [one] the filter /{ $filter } hides 1 request you added: { $key } clears it
   *[other] the filter /{ $filter } hides { $n } requests you added: { $key } clears it
}
status-filter-cleared = filter cleared: every request shows
# The filter pop-up closed with Enter (a message said before it no longer stands).
status-filter-applied = filter { $filter }: { $shown } of { $total } shown
# The add-ids line of the activity log, read with what follows: "2 ids from the i dialog
# failed: not club request ids, never sent: abc, x1". $origin: a status-origin-* text.
log-ids-from = { $n ->
    [one] 1 id from { $origin }
   *[other] { $n } ids from { $origin }
}
log-ids-never-sent = not club request ids, never sent: { $ids }
status-origin-paste = a paste
status-origin-dialog = the i dialog
status-origin-command = :add
status-origin-arguments = the command line
status-origin-stdin = standard input
status-restored-ids = { $n ->
    [one] restored from the last session: { $n } request id
   *[other] restored from the last session: { $n } request ids
}
status-restored-filter = restored from the last session: the filter /{ $filter } (/ to change it)
status-restored-both = { $n ->
    [one] restored from the last session: { $n } request id and the filter /{ $filter } (/ to change it)
   *[other] restored from the last session: { $n } request ids and the filter /{ $filter } (/ to change it)
}

## The : command line (update/commands.rs): help texts and answers

command-help-add = add IDS — add club request ids to the queue
command-help-club = club ID|NAME — look up a club by id, or search by name
command-help-scope = scope mine|all|CLUB — which requests the listing brings
command-help-level = level L [D] — fetch level of requests [and of their students and clubs]
command-help-club-level = club-level L — fetch level of the club pane
command-help-filter = filter TEXT — filter the queue (status: club: year: or any text)
command-help-sort = sort age|club|status|server — sort the queue
command-help-signin = signin — sign in (paste a token)
command-help-mouse = mouse on|off — mouse on or off
command-help-refresh = refresh — reload the queue from the server
command-help-clear-done = clear-done — drop decided and deleted requests from the queue
command-help-log = log — show or hide the activity log
command-help-quit = quit — quit (quit! quits at once)
command-mouse-usage = mouse takes on or off (not { $given })
command-mouse-on = mouse on
command-mouse-off = mouse off
command-cleared = { $n ->
    [one] cleared { $n } decided or deleted request from the queue
   *[other] cleared { $n } decided or deleted requests from the queue
}
command-log-shown = activity log shown (L or :log hides it)
command-log-hidden = activity log hidden
command-unknown = unknown command { $given }: try { $names }
command-sort-usage = sort takes age, club, status or server
command-club-level-usage = club-level takes a fetch level: id_only, compact, default or detailed
command-unknown-level = unknown fetch level { $given }: use id_only, compact, default or detailed
command-level-set = request fetch level { $level } / descendants { $descendants }
command-level-usage = level takes one or two fetch levels
command-scope-usage = scope takes mine, all, a club id or a club's name
command-scope-no-club = no club known here is named "{ $name }" (:club { $name } looks it up; :scope takes its id too)
command-scope-several = several clubs are named "{ $name }": { $clubs }; give more of the name or the id
status-unknown-reread = the answer to { $action } { $label } was lost: reading it again instead of sending it twice
status-rereading-unknown = { $n ->
    [one] nothing sent: 1 earlier decision's answer was lost, reading it again
   *[other] nothing sent: { $n } earlier decisions' answers were lost, reading them again
}
status-bulk-rate = { $n }/s
status-bulk-server-slow = server slow: fewer at once
status-bulk-paused = paused: the service cannot be reached; { $n } waiting
status-quit-waits-unknown = { $n ->
    [one] quitting once 1 lost answer is settled by a re-read (Ctrl-C quits now)
   *[other] quitting once { $n } lost answers are settled by re-reads (Ctrl-C quits now)
}
status-quit-not-applied = { $n ->
    [one] not quitting: 1 decision was not applied (its row says why); q quits
   *[other] not quitting: { $n } decisions were not applied (their rows say why); q quits
}
ssh-refused-exec = commands are turned off on this server (its operator set exec = false): connect without a command for the dashboard
ssh-refused-subsystem = the subsystem { $name } is refused here (no sftp, no file transfer): this server runs the dashboard only
ssh-needs-terminal = the dashboard needs a terminal: connect with ssh -t
ssh-full-total = the server has { $n } dashboards open, its most: try again later
ssh-full-key = this key has { $n } dashboards open, its most: quit one first
ssh-full-total-runs = the server has { $n } dashboards and commands running, its most: try again later
ssh-full-key-runs = this key has { $n } dashboards and commands running, its most: wait for a command to end or quit a dashboard
ssh-busy-key = this key has { $n } connections open, its most (dashboards, commands and idle ones such as ssh -N or a stopped ssh alike): close one, then try again
ssh-busy-total = the server has { $n } connections open, its most: try again in a minute
ssh-no-terminal-key = this key may run commands only (no-pty or restrict in the server's authorized keys): give a command, e.g. ssh HOST requests list
ssh-earlier-ended = your earlier session has just ended: connect again for a new one
ssh-session-failed = this session stopped on an internal error (see the server's log); others are not touched
ssh-idle = no key for { $idle }: disconnected. Your dashboard waits { $wait } for you: connect again with the same key
ssh-seconds = { $n } s
ssh-minutes = { $n } min
status-too-small-key-ignored = key ignored: this window ({ $width }x{ $height }) is too small to show the queue; enlarge it, or press q to quit
status-too-small-quit-waiting = { $n } { $n ->
    [one] decision is
   *[other] decisions are
} still to be sent or answered: enlarge the window to see { $n ->
    [one] it
   *[other] them
} (Ctrl-C quits at once and does not send held decisions)

# Signing in only when asked; a session that ended; a new account.
status-no-token-press = no token: press { $key } to sign in (reads that need only the API key work)
status-needs-token-press = this needs a sign-in token: press { $key } to sign in
status-session-expired-press = session expired: press { $key } to sign in; nothing is sent until then
status-session-expired-held = session expired: press { $key } to sign in; { $n ->
    [one] the held decision waits
   *[other] { $n } held decisions wait
} for it
status-sign-in-first = { $action }: sign in first (press { $key }); nothing was sent
status-held-sign-in = { $action ->
    [approve] approve
    [decline] decline
   *[delete] delete
} { $what } held until you sign in ({ $key }){ $n ->
    [one] {""}
   *[other] {" "}({ $n } held)
}
status-held-other-account = another account signed in: { $n ->
    [one] the held decision
   *[other] { $n } held decisions
} of the last one not sent
status-quit-waits-sign-in = press { $key } to sign in: { $n ->
    [one] the held decision is
   *[other] the { $n } held decisions are
} sent, then the dashboard quits (Ctrl-C quits without sending)
log-why-session-expired = not sent: the session had expired
log-why-other-account = not sent: another account signed in
status-delete-not-allowed = delete: the server lets only the student who made a request (or an administrator) delete it; nothing was sent
# A sort other than the server's order loads the whole scope first; $order is queue-sort-*.
status-sort-all-loading = sorting { $order }: loading the rest of the queue, { $n } loaded…
status-sort-all-loading-of = sorting { $order }: loading the rest of the queue, { $n } loaded of { $total }…
status-sort-all-done = sorted { $order }: all { $n } pending requests
status-sort-all-capped = sorted { $order }: the first { $n } requests only (a sort loads at most { $cap })
status-sort-all-stopped = sort: a page of the queue did not load; only the loaded rows are sorted
status-already-same = { $label }: already { $status } by someone else (nothing to do)
status-already-conflict = { $label }: conflict: someone else already { $status } it; your { $action } was not applied
error-already-conflict = conflict: already { $status } by someone else; your { $action } was not applied
status-bulk-summary-already = { $n } already { $status } by someone else
status-bulk-summary-conflicts = { $n } { $n ->
    [one] conflict
   *[other] conflicts
} (decided the other way by someone else: not applied)
log-outcome-already = already so
log-outcome-conflict = conflict
# Applied, then overwritten by a later decision the server also accepted.
log-outcome-overwritten = overwritten
# Never sent: the dashboard or the server stopped before its turn (nobody took it back).
log-outcome-not-sent = not sent: stopped
# The command line (requests approve, decline, delete; clubs contact add): Ctrl-C before the write went out.
cli-interrupted-nothing-sent = interrupted: nothing was sent, nothing changed on the server
cli-time-limit-nothing-sent = past this server's time limit: nothing was sent, nothing changed on the server
# A 2xx answer that is not the club service's envelope (api_version and data): a wrong base URL. $status: " (HTTP 200)"; $excerpt: " [start of the page]" or empty.
error-not-the-service = this server is not the club service: its answer{ $status } is not the service's (no api_version and data): check the base URL{ $excerpt }
# The activity log's line of a start-up warning: "warning  secret file check failed: <warning-readable-*>".
log-what-warning = warning
log-warning-check = secret file check
status-new-requests = { $n ->
    [one] 1 new request
   *[other] { $n } new requests
} in the queue (marked new)
status-decided-elsewhere = { $n ->
    [one] 1 request was
   *[other] { $n } requests were
} decided by someone else meanwhile (no longer marked)

# A call whose task failed inside the program (a bug): the call is answered with this.
error-internal = the client failed internally
error-not-sent = not sent: { $why }
log-write-waits = { $error }: it never reached the server and waits until the service answers again
error-no-answer = no answer: { $why }
# The program's own words inside those two (api::error::why): English as the audit has them.
why-run-ended = the run that sent it ended before its answer
why-left-before-answer = left before the server answered; check the request's state
why-calls-ended = the client's calls ended before the answer
why-dashboard-ending = the dashboard was ending (a hang-up or a stop) before it was sent
why-server-stopped = the server stopped
why-audit-not-written = its audit line could not be written first
others-someone = someone else
others-holding = { $by } is about to { $verb } it in another session (held, not sent yet)
status-heard-decided = { $label }: { $status } by { $by } (another session)
status-heard-decided-unmarked = { $label }: { $status } by { $by } (another session); no longer marked
status-copied-address = sign-in address copied: { $url }
status-already-same-by = { $label }: already { $status } by { $by } (nothing to do)
status-already-conflict-by = { $label }: conflict: { $by } already { $status } it; your { $action } was not applied
status-decided-elsewhere-plain = { $n ->
    [one] 1 request was
   *[other] { $n } requests were
} decided by someone else meanwhile
status-interrupted-reading = { $n } { $n ->
    [one] write
   *[other] writes
} of an interrupted run: reading { $n ->
    [one] it
   *[other] them
} again to learn what became of { $n ->
    [one] it
   *[other] them
}
status-interrupted-settled = { $n } { $n ->
    [one] write
   *[other] writes
} of an interrupted run: { $outcomes }
status-contact-settling = the last contact for this club is still being checked (its answer was lost): wait for it
status-contact-lost-not-added = the contact { $contact } was not added (its answer had been lost; a re-read of the club shows it missing): add it again

## Who may do what (ops::permit; api-notes.md, "Who may do what")

permit-not-student-decide = teachers and administrators review; only club staff students decide
permit-not-student-delete = only the student who made a request may delete it
permit-not-student-contact = only a club's staff students add its contacts
permit-not-staff-decide = only the club's staff students decide its requests
permit-not-staff-contact = only the club's staff students add its contacts
permit-not-own = a student may delete only their own requests
permit-refused = { $action }: { $why }; nothing was sent
header-review-only = review only: { $why }
header-review-only-short = review only

## A bulk's summary in few words, for a narrow status line (the counts whole)

status-bulk-summary-short = { $action } { $ok }/{ $total } done
status-bulk-summary-already-short = { $n } by others
status-bulk-summary-conflicts-short = { $n } in conflict
status-bulk-summary-failed-short = { $n } failed
status-bulk-summary-unknown-short = { $n } unknown
# A decision of this dashboard the server applied, then overwrote: a later read shows the
# other status ($status, in words). $action: approve or decline (code).
status-overwritten = your { $action ->
    [approve] approval
   *[decline] decline
} of { $label } was overwritten: { $status } since
