-- SQLite's migration 23: redemption codes (issue 41). A use the partner confirmed at the till with
-- the employee's code is `verified`; its branch is the `partner_city_id` the use already has. A
-- code is one employee's for one campaign until `expires_at`; confirming it sets `confirmed_at`
-- and names the use it became (`usage_id`). Codes are unique among those kept, live or not, so a
-- code read at a till names one use at most; an unused code is deleted a week after it expired.
ALTER TABLE usage_history ADD COLUMN verified INTEGER NOT NULL DEFAULT 0 CHECK (verified IN (0, 1));

CREATE TABLE redemption_codes (
    id           INTEGER PRIMARY KEY,
    code         TEXT    NOT NULL UNIQUE CHECK (length(code) = 8),
    employee_id  INTEGER NOT NULL REFERENCES employees (id),
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at   TEXT    NOT NULL,
    confirmed_at TEXT,
    usage_id     INTEGER REFERENCES usage_history (id)
);
-- The employee's live code of a campaign, found when the app asks again.
CREATE INDEX redemption_codes_open ON redemption_codes (employee_id, campaign_id, expires_at)
    WHERE confirmed_at IS NULL;
CREATE INDEX redemption_codes_campaign ON redemption_codes (campaign_id);
-- Unused codes by expiry, which the server's retention deletes a week after.
CREATE INDEX redemption_codes_unused ON redemption_codes (expires_at) WHERE confirmed_at IS NULL;
CREATE INDEX redemption_codes_usage ON redemption_codes (usage_id) WHERE usage_id IS NOT NULL;
