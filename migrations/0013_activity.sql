-- The activity log (issue 23): one entry per change, written by the connection's own temporary
-- triggers (src/db/activity.rs) in the transaction of the change. Who: the staff user, the API
-- client, `cli`, `system` or an anonymous caller (`public`), by id and by name as it was then.
-- What: the resource as the API spells it and the row's id. The action, and for an update the
-- changed fields as {"field": [old, new]}, a secret as {"field": "changed"}. Entries are never
-- updated; they leave only by the retention the server runs (`--activity-retention-days`).
--
-- The id orders the entries in time (it only grows), so the list's newest-first order and every
-- "newest first" read walk the primary key; `at` is kept for the date filters and the display.
CREATE TABLE activity (
    id          INTEGER PRIMARY KEY,
    at          TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- Comparisons, not IN (...): SQLite checks a five-value IN list by building a temporary index
    -- at every insert, which cost more than the rest of the entry.
    actor_kind  TEXT    NOT NULL CHECK (actor_kind = 'user' OR actor_kind = 'client' OR actor_kind = 'cli'
                                        OR actor_kind = 'system' OR actor_kind = 'public'),
    actor_id    INTEGER,
    actor_name  TEXT    NOT NULL,
    resource    TEXT    NOT NULL,
    record_id   INTEGER,
    action      TEXT    NOT NULL,
    changes     TEXT
);
-- A record's history (the drawers' History tab), newest first.
CREATE INDEX activity_record ON activity (resource, record_id, id);
-- The Activity screen's filter by staff user. Only users' entries: the inbound API's entries,
-- by far the most, cost no index entry here (the filter by kind scans in id order).
CREATE INDEX activity_user ON activity (actor_id, id) WHERE actor_kind = 'user';
-- Retention deletes a prefix of the log (the oldest ids, up to the first entry inside the window),
-- so the log's ids stay one unbroken span and the list's total is that span: no counter, whose
-- update would cost every recorded write about as much as the entry itself (docs/performance.md).
