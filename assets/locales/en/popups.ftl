# club-admin pop-ups, English: the help, confirmations, quitting with decisions held, add ids,
# sign in, the filter line and the new-contact form; the pop-ups' key tables (hint bar and help).
#
# Keys: popup-* (pop-ups and their keys), confirm-* (confirmations), form-* (the new-contact
# form). Same keys and $placeholders in th/popups.ftl (tests/i18n.rs).
# $action is a decision's config name, approve, decline or delete: it selects the words and is
# never shown as it is. $n and $requests are counts.

## Help (?)

popup-help-title = Keys (? or Esc to close)
popup-help-search = search:
popup-help-commands = Commands (:)
# $query: what was typed into the search.
popup-help-no-match = No key matches "{ $query }".

## Help sections of the pop-ups' keys

popup-section-confirm = Confirmation
popup-section-quit-held = Quit with decisions held (q)
popup-section-resume-held = Back from a suspend with decisions due (Ctrl-Z, fg)
popup-section-filter = Filter (/)
popup-section-command = Command line (:)
popup-section-add-ids = Add ids (i)
popup-section-sign-in = Sign in (S)
popup-section-contact = New contact (n): type picker, then value

## Pop-up keys: the word shown for typing, hint bar labels, help texts

popup-key-type = type
popup-hint-search = search
popup-hint-scroll = scroll
popup-hint-close = close
popup-hint-confirm = confirm
popup-hint-cancel = cancel
popup-hint-choose = choose
popup-hint-press = press
popup-hint-ids = ids
popup-hint-add = add
popup-hint-sign-in = sign in
popup-hint-toggle-save = saving on/off
popup-hint-copy-address = copy the address
popup-hint-run = run
popup-hint-keep = keep
popup-hint-undo = undo
popup-hint-type-value = type/value
popup-hint-type = type
popup-hint-value = value
popup-hint-send-quit = send now, quit
popup-hint-discard-quit = discard, quit
popup-hint-stay = stay
popup-hint-send-now = send now
popup-hint-hold-again = keep holding
popup-hint-discard = discard

popup-help-type-search = type to search the keys
popup-help-scroll-up = scroll up
popup-help-scroll-down = scroll down
popup-help-page-up = scroll a page up
popup-help-page-down = scroll a page down
popup-help-home = to the first line
popup-help-end = to the last line
popup-help-close-help = close the help (also ?)
popup-help-close-history = close the history (also H)
popup-history-title = Team history (H or Esc to close)
popup-history-loading = Reading the audit file…
popup-history-empty = No decision is recorded for this server yet.
popup-history-failed = Could not read the history: { $why }
popup-history-shown = { $n ->
    [one] 1 decision, the newest first (older ones: { $command } history)
   *[other] { $n } decisions, the newest first (older ones: { $command } history)
}
popup-history-found = { $found } of { $n } decisions match (the search ignores case: type h for H)
popup-history-no-match = No decision matches "{ $query }".
popup-history-more = Only the newest { $n } are listed: type to search the older ones (or { $command } history).
popup-history-more-found = Only the newest { $n } matches are listed: type more to narrow the search.
history-after-crash = settled after a crash
history-sign-in-first = the team's history is shown once you are signed in: press { $key } to sign in
history-already = already, by someone else: this write changed nothing
detail-history = History
popup-help-confirm = confirm
popup-help-cancel = cancel
popup-help-choose = move between Cancel and the action
popup-help-press = press the chosen button
popup-help-type-ids = type or paste club request ids
popup-help-add-ids = add the ids to the queue
popup-help-close-no-add = close without adding
popup-help-sign-in = check the pasted token and use it
popup-help-toggle-save = save the token to a private file, or not
popup-help-copy-address = copy the sign-in address to your clipboard (OSC 52, works over SSH): open it in your phone's or computer's browser
popup-help-close-no-sign-in = close without signing in
popup-help-run = run the command
popup-help-close-no-run = close without running
popup-help-keep-filter = keep the filter
popup-help-filter-before = go back to the filter before
popup-help-type-value = move between type and value
popup-help-prev-type = previous contact type
popup-help-next-type = next contact type
popup-help-to-value = go to the value
popup-help-add-contact = add the contact
popup-help-send-held = send the held decisions now, quit once the server has answered
popup-help-discard-held = discard the held decisions (never sent) and quit
popup-help-stay = stay; the held decisions go when their time is up
popup-help-resume-send = send the decisions whose time ran out while the dashboard was suspended
popup-help-resume-hold = keep holding them: a new grace period starts (z takes the latest back)
popup-help-resume-discard = discard them (never sent, audited undone)

## Confirmation of a delete or of a decision on marked rows

confirm-title = { $action ->
    [approve] Approve?
    [decline] Decline?
   *[delete] Delete?
}
# The button that confirms.
confirm-button = { $action ->
    [approve] Approve
    [decline] Decline
   *[delete] Delete
}
confirm-cancel = Cancel
# $id: the club request's id (a UUID).
confirm-one = { $action ->
    [approve] Approve
    [decline] Decline
   *[delete] Delete
} club request { $id }?
confirm-many = { $action ->
    [approve] Approve
    [decline] Decline
   *[delete] Delete
} { $n ->
    [one] { $n } marked club request
   *[other] { $n } marked club requests
}?
# $club: the club's name in the reader's language (the other when it has none).
confirm-many-of-club = { $action ->
    [approve] Approve
    [decline] Decline
   *[delete] Delete
} { $n ->
    [one] { $n } marked club request
   *[other] { $n } marked club requests
} of { $club }?
confirm-hidden = { $n ->
    [one] { $n } of them is hidden by the current filter.
   *[other] { $n } of them are hidden by the current filter.
}
confirm-held-elsewhere = { $n ->
    [one] { $n } of them is held in another session ({ $by }): { $which }; whichever reaches the server first decides it.
   *[other] { $n } of them are held in another session ({ $by }): { $which }; whichever reaches the server first decides each.
}
confirm-held-more = and { $n } more
confirm-delete-final = Deleting cannot be undone.
# Status line after "no" to a confirmation.
confirm-cancelled = { $action ->
    [approve] approve
    [decline] decline
   *[delete] delete
} cancelled

## Quitting with decisions held (q)

popup-quit-title = Quit?
popup-quit-held = { $n ->
    [one] { $n } decision
   *[other] { $n } decisions
} on { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
} not sent yet:
# One held decision: "approve Somchai → Robotics Club"; $what is a request's label or
# popup-quit-held-requests.
popup-quit-held-row = { $action ->
    [approve] approve
    [decline] decline
   *[delete] delete
} { $what }
popup-quit-held-requests = { $n ->
    [one] { $n } request
   *[other] { $n } requests
}
popup-quit-held-more = … and { $n } more

## Back from a suspend (Ctrl-Z, fg) with decisions whose time ran out

popup-resume-title = Back from a suspend
popup-resume-held = { $n ->
    [one] { $n } decision
   *[other] { $n } decisions
} on { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
} ran out of time while the dashboard was suspended; nothing was sent:

## Add ids (i)

popup-add-ids-title = Add club request ids
popup-add-ids-text = Paste or type ids: spaces, commas or new lines between them.
popup-add-ids-label = ids:
popup-add-ids-empty = type or paste at least one club request id
# $ids: the words that are not ids, comma-separated, as typed.
popup-add-ids-bad = not a club request id (UUID): { $ids }

## Sign in (S)

popup-sign-in-title = Sign in
popup-sign-in-open = Open this address in a browser on your own computer and sign in:
popup-sign-in-paste = Then paste the token, or the whole JSON page it ends on:
popup-sign-in-token = token:
popup-sign-in-save = save the token to a private file (0600) for next time
popup-sign-in-memory = The token is kept in memory only.
popup-not-signed-in = not signed in: press S to sign in
popup-token-empty = nothing was pasted
popup-token-no-access-token = the pasted JSON has no data.access_token
popup-token-malformed = that does not look like a token (it has spaces or control characters)

## Filter line (/)

# $n: how many rows match the filter so far.
popup-filter-label = { $n ->
    [one] filter (1 match): /
   *[other] filter ({ $n } matches): /
}

## New club contact (n)

form-contact-title = New club contact
form-contact-club = club:
form-contact-type-label = type:
form-contact-value = value:
# $kind: a contact type as the server names it (phone, email, line …).
form-contact-type = { $kind }
form-contact-empty = type a value
form-contact-too-long = at most { $n } characters
form-contact-control = no control characters
# $value: the value typed, quoted; $kind: the type as the server names it.
# $format: what the type expects (a form-contact-format-* text).
form-contact-invalid = { $value } is not a valid { $kind } value: expected { $format }
# What each contact type expects (ops::input::contact_format_in; the command line's words too).
form-contact-format-email = an e-mail address, like club@school.ac.th
form-contact-format-phone = a phone number of 9 to 15 digits, like +66 81 234 5678
form-contact-format-website = a web address starting with https://
form-contact-format-line = a LINE id of 4 to 20 of a-z 0-9 . _ -, like @robot_club
form-contact-format-instagram = an Instagram name of 1 to 30 of A-Z a-z 0-9 . _
form-contact-format-facebook = a facebook.com address or a page name of 5 to 50 letters
form-contact-format-discord = a Discord name or a discord.gg invite
form-contact-format-other = any text up to 200 characters
