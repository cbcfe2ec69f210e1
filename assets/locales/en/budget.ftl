## The host budget (api/budget.rs): what of it cannot be used, said once at start (status
## line and activity log), and calls going one at a time while other processes hold it.

# A start-up warning (inside status-warning): $path is the budget's folder or a slot file,
# $why one of budget-why-*, $n the calls in flight of a process without the budget.
budget-off = the host budget's { $path } { $why }: going on without the shared budget, at most { $n } calls in flight
budget-part = the host budget's { $path } { $why }: { $usable } of { $slots } slots used
budget-why-not-folder = is not a real directory ({ $kind })
budget-why-not-file = is not a plain file ({ $kind })
budget-why-owner = belongs to another user (uid { $uid })
budget-why-unsticky = can be written by other users without the sticky bit (mode { $mode })
budget-why-writable = can be written by other users (mode { $mode })
budget-why-links = has { $n } names (a hard link)
budget-why-io = cannot be used: { $error }
budget-kind-file = a plain file
budget-kind-directory = a directory
budget-kind-link = a symbolic link
budget-kind-fifo = a FIFO
budget-kind-socket = a socket
budget-kind-device = a device
# The activity log's line of the warning: "warning  host budget check failed: <budget-off>".
log-budget-check = host budget check
# Every slot of the host budget is held by other club-admin processes: calls go one at a time.
# On the status line when it starts, and after a bulk action's progress while it lasts.
status-budget-busy = host budget busy: other club-admin processes hold every slot, 1 call at a time
status-bulk-budget-busy = host budget busy: 1 call at a time
