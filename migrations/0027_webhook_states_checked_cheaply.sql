-- SQLite's migration 27: webhook_messages's state check is spelled as three comparisons instead of
-- `state IN ('pending', 'delivered', 'failed')`. SQLite evaluates an IN list of more than two
-- constants through a temporary b-tree it builds at each statement, so every message written
-- (one per use, when an endpoint listens) and every attempt recorded paid for one. A check cannot
-- be altered in SQLite: the table is built anew, its rows and their attempts kept. The attempts'
-- table is built anew too, since its rows name the messages' table, which cannot be dropped under
-- them.
CREATE TABLE webhook_messages_rebuilt (
    id               INTEGER PRIMARY KEY,
    webhook_id       INTEGER NOT NULL REFERENCES webhooks (id),
    event            TEXT    NOT NULL,
    message_id       TEXT    NOT NULL,
    payload          TEXT    NOT NULL,
    state            TEXT    NOT NULL DEFAULT 'pending'
                             CHECK (state = 'pending' OR state = 'delivered' OR state = 'failed'),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    claimed_until    TEXT,
    last_status_code INTEGER,
    last_duration_ms INTEGER,
    last_error       TEXT,
    created_at       TEXT    NOT NULL,
    delivered_at     TEXT
);
INSERT INTO webhook_messages_rebuilt
SELECT id, webhook_id, event, message_id, payload, state, attempts, next_attempt_at, claimed_until,
       last_status_code, last_duration_ms, last_error, created_at, delivered_at
FROM webhook_messages;

CREATE TEMP TABLE webhook_attempts_kept AS SELECT * FROM webhook_attempts;
DROP TABLE webhook_attempts;
DROP TABLE webhook_messages;
ALTER TABLE webhook_messages_rebuilt RENAME TO webhook_messages;
CREATE INDEX webhook_messages_due ON webhook_messages (webhook_id, next_attempt_at, id) WHERE state = 'pending';
CREATE INDEX webhook_messages_of_webhook ON webhook_messages (webhook_id, id);

CREATE TABLE webhook_attempts (
    id          INTEGER PRIMARY KEY,
    message_id  INTEGER NOT NULL REFERENCES webhook_messages (id),
    attempt     INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    status_code INTEGER,
    duration_ms INTEGER NOT NULL,
    error       TEXT
);
INSERT INTO webhook_attempts (id, message_id, attempt, started_at, status_code, duration_ms, error)
SELECT id, message_id, attempt, started_at, status_code, duration_ms, error FROM webhook_attempts_kept;
DROP TABLE webhook_attempts_kept;
CREATE INDEX webhook_attempts_of_message ON webhook_attempts (message_id, attempt);
