-- SQLite's migration 20: failed sign-ins and locks per e-mail and client address.
ALTER TABLE sign_in_failures ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_email_address_at ON sign_in_failures (email, address, at);

DROP TABLE sign_in_locks;
CREATE TABLE sign_in_locks (
    email   TEXT NOT NULL COLLATE nocase,
    address TEXT NOT NULL,
    until   TEXT NOT NULL,
    PRIMARY KEY (email, address)
);

CREATE INDEX sessions_user_ip ON sessions (user_id, ip, created_at);
