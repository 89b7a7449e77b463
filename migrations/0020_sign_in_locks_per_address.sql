-- A lockout cannot lock the right person out (docs/decisions.md, "Lockout per address"): failed
-- sign-ins are counted per e-mail and client address, and five from one address lock that
-- address out of that e-mail only. Across addresses the e-mail is throttled more slowly, and
-- never for an address the account signed in from before (its sessions, by user and address).
-- Locks were per e-mail: they last fifteen minutes at most, and go with the old table.
ALTER TABLE sign_in_failures ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_email_address_at ON sign_in_failures (email, address, at);

DROP TABLE sign_in_locks;
CREATE TABLE sign_in_locks (
    email   TEXT NOT NULL COLLATE NOCASE,
    address TEXT NOT NULL,
    until   TEXT NOT NULL,
    PRIMARY KEY (email, address)
) WITHOUT ROWID;

CREATE INDEX sessions_user_ip ON sessions (user_id, ip, created_at);
