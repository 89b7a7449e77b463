-- Recovery codes (issue 23): ten one-time codes per authenticator enrolment, each stored as its
-- argon2id hash, used once in place of the six-digit code. A sign-in with one sets
-- must_set_up_authenticator, and the panel asks for a new authenticator before anything else;
-- the own-account enrolment keeps the secret being set up in totp_pending_secret until a code
-- from it confirms it.
CREATE TABLE recovery_codes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    code_hash  TEXT    NOT NULL,
    used_at    TEXT,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX recovery_codes_user ON recovery_codes (user_id);

ALTER TABLE users ADD COLUMN must_set_up_authenticator INTEGER NOT NULL DEFAULT 0
    CHECK (must_set_up_authenticator IN (0, 1));
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
