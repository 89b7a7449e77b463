-- SQLite's migration 26: outbound webhooks (issue 42). An endpoint (`webhooks`) hears of the events
-- it names (`events`, a JSON array of names, sorted), of every partner and asset or of one of them.
-- Its signing secret is kept because HMAC needs it to sign (as a TOTP secret is kept to check a
-- code); it is never read back by a list, a detail or the activity log. After a rotation the
-- previous secret signs beside it until `previous_secret_expires_at`.
CREATE TABLE webhooks (
    id                         INTEGER PRIMARY KEY,
    url                        TEXT    NOT NULL,
    description                TEXT,
    events                     TEXT    NOT NULL,
    partner_id                 INTEGER REFERENCES partners (id),
    asset_id                   INTEGER REFERENCES assets (id),
    is_active                  INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    signing_secret             TEXT    NOT NULL,
    previous_signing_secret    TEXT,
    previous_secret_expires_at TEXT,
    failing_since              TEXT,
    disabled_at                TEXT,
    disabled_reason            TEXT,
    last_delivery_at           TEXT,
    last_status_code           INTEGER,
    created_at                 TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at                 TEXT,
    deleted_at                 TEXT,
    CHECK (partner_id IS NULL OR asset_id IS NULL)
);

-- The outbox: one message per endpoint and event, written in the transaction of the change it
-- tells of. `message_id` is the `webhook-id` every attempt repeats (160 random bits: no index
-- keeps it unique, which every use would pay for). A server claims a due message
-- until `claimed_until`; a server that dies holding it leaves it to be claimed again.
CREATE TABLE webhook_messages (
    id               INTEGER PRIMARY KEY,
    webhook_id       INTEGER NOT NULL REFERENCES webhooks (id),
    event            TEXT    NOT NULL,
    message_id       TEXT    NOT NULL,
    payload          TEXT    NOT NULL,
    state            TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    claimed_until    TEXT,
    last_status_code INTEGER,
    last_duration_ms INTEGER,
    last_error       TEXT,
    created_at       TEXT    NOT NULL,
    delivered_at     TEXT
);
-- An endpoint's waiting messages, in the order they are sent: each endpoint is claimed from on its
-- own, so one with a long queue and no room is never read through.
CREATE INDEX webhook_messages_due ON webhook_messages (webhook_id, next_attempt_at, id) WHERE state = 'pending';
-- An endpoint's delivery log, newest first.
CREATE INDEX webhook_messages_of_webhook ON webhook_messages (webhook_id, id);

-- Every attempt of a message: when, the answer's status (none when no answer came), how long.
CREATE TABLE webhook_attempts (
    id          INTEGER PRIMARY KEY,
    message_id  INTEGER NOT NULL REFERENCES webhook_messages (id),
    attempt     INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    status_code INTEGER,
    duration_ms INTEGER NOT NULL,
    error       TEXT
);
CREATE INDEX webhook_attempts_of_message ON webhook_attempts (message_id, attempt);

