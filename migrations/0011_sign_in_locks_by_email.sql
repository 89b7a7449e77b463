-- Failed sign-ins and locks are kept per e-mail as typed, whether or not an account has it, so a
-- locked sign-in answers alike for known and unknown e-mails (the lock must not tell which
-- e-mails have accounts). The failures and locks of existing accounts move over.
CREATE TABLE sign_in_failures (
    email TEXT NOT NULL COLLATE NOCASE,
    at    TEXT NOT NULL
);
CREATE INDEX sign_in_failures_email_at ON sign_in_failures (email, at);
-- Expired failures of e-mails nobody tries again are pruned by age.
CREATE INDEX sign_in_failures_at ON sign_in_failures (at);

CREATE TABLE sign_in_locks (
    email TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
    until TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO sign_in_failures (email, at)
SELECT u.email, f.at FROM login_failures f JOIN users u ON u.id = f.user_id WHERE u.kind = 'staff';
INSERT OR REPLACE INTO sign_in_locks (email, until)
SELECT email, locked_until FROM users WHERE kind = 'staff' AND deleted_at IS NULL AND locked_until IS NOT NULL;

DROP TABLE login_failures;
ALTER TABLE users DROP COLUMN locked_until;
