-- x-requestid answers belong to the session that made the request: a replay is served only to
-- that session while it is still valid. Stored answers are short-lived (24 h), so the table is
-- made anew rather than carried over. Only committed work has a row: a request still running is
-- tracked in memory, so a crash never leaves a claim that blocks a retry.
DROP TABLE idempotency_keys;
CREATE TABLE idempotency_keys (
    request_id   TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    session_id   TEXT    NOT NULL DEFAULT '',
    method       TEXT    NOT NULL,
    path         TEXT    NOT NULL,
    payload_hash TEXT    NOT NULL,
    status       INTEGER,
    content_type TEXT,
    body         BLOB,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (request_id, user_id, session_id)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
