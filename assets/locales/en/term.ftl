# The term at a glance (T): the scope's figures, as `club-admin stats` prints them.
action-term = the term at a glance: per club, per day, waits
hint-term = term
popup-help-close-term = close the term view (also T)
term-title = The term at a glance (T or Esc to close)
term-loading = Reading the scope's requests…
term-failed = Could not read the scope's requests: { $why }
term-no-scope = Nothing is listed yet: the scope is not known (sign in first).
term-scope-clubs = { $n ->
    [one] Scope: the 1 club you moderate
   *[other] Scope: the { $n } clubs you moderate
}
term-scope-all = Scope: every club
term-counts = { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
}: { $pending } pending, { $approved } approved, { $declined } declined
term-wait = Wait for a decision: median { $median }, 90th percentile { $p90 } ({ $n } decisions in the audit)
term-wait-club = median { $median }, 90th percentile { $p90 } ({ $n })
term-wait-unknown = Wait for a decision: unknown (no decision of these requests in this host's audit)
term-pending-by-club = Pending requests by club
term-nothing = None.
term-arrivals = Requests per day
term-span-per = { $span } (a column is { $n } days)
term-decisions = Decisions per day (from this host's audit)
term-approved = approved
term-declined = declined
term-no-audit = Unknown: no audit here (only the decisions made through club-admin on this host are audited).
term-no-decisions = No decision of these requests in this host's audit yet.
term-unaudited = { $n ->
    [one] { $n } decided request has no line in this host's audit (decided elsewhere or earlier).
   *[other] { $n } decided requests have no line in this host's audit (decided elsewhere or earlier).
}
term-wait-by-club = Wait for a decision, by club
term-moderators = Decisions by moderator (from this host's audit)
term-moderator = { $approved } approved, { $declined } declined, median wait { $wait }
term-as-text = The last days as text
term-day = { $asked ->
    [one] { $asked } request
   *[other] { $asked } requests
}, { $approved } approved, { $declined } declined
term-day-asked = { $asked ->
    [one] { $asked } request
   *[other] { $asked } requests
}
term-more-as-json = Every day and every figure: { $command } stats --json
term-unit-s = { $n }s
term-unit-m = { $n }m
term-unit-h = { $n }h
term-unit-d = { $n }d
