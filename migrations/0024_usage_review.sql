-- SQLite's migration 24: the review queue of uses (issue 41). A use that a rule flags when it is
-- written gets one `usage_review` row per rule it broke (`reason`: `manyUses`, more than
-- `many_uses` uses by one employee within `many_uses_minutes`; `twoPartners`, a use at another
-- partner within `two_partners_minutes`). A row is open (0) until someone clears it (1: the use is
-- fine) or voids the use (2: the use is soft-deleted, and the row keeps who voided it and why).
-- The thresholds are the one row of `usage_review_settings`, which an Admin sets.
CREATE TABLE usage_review (
    id             INTEGER PRIMARY KEY,
    usage_id       INTEGER NOT NULL REFERENCES usage_history (id),
    reason         TEXT    NOT NULL CHECK (reason IN ('manyUses', 'twoPartners')),
    -- The uses the rule counted (the employee's uses in the window, this one included; or the
    -- uses at other partners), and the window in minutes, as they were when the use was written.
    counted        INTEGER NOT NULL,
    window_minutes INTEGER NOT NULL,
    state          INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
    decided_by     TEXT,
    decided_at     TEXT,
    void_reason    TEXT CHECK (length(void_reason) BETWEEN 1 AND 500),
    created_at     TEXT    NOT NULL,
    UNIQUE (usage_id, reason)
);
CREATE INDEX usage_review_state ON usage_review (state, id);

CREATE TABLE usage_review_settings (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    many_uses            INTEGER NOT NULL DEFAULT 3 CHECK (many_uses BETWEEN 1 AND 1000),
    many_uses_minutes    INTEGER NOT NULL DEFAULT 10 CHECK (many_uses_minutes BETWEEN 1 AND 1440),
    two_partners_minutes INTEGER NOT NULL DEFAULT 5 CHECK (two_partners_minutes BETWEEN 1 AND 1440),
    updated_at           TEXT
);
INSERT INTO usage_review_settings (id) VALUES (1);

-- Both rules read an employee's live uses in a window through usage_history_employee_time
-- (migration 22: employee, moment, partner, campaign).
