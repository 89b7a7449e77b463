-- PostgreSQL's migration 22: a campaign's optional limits (issue 41), as SQLite's.
ALTER TABLE campaigns ADD COLUMN usage_limit_total BIGINT CHECK (usage_limit_total BETWEEN 1 AND 10000000);
ALTER TABLE campaigns ADD COLUMN usage_limit_per_employee BIGINT CHECK (usage_limit_per_employee BETWEEN 1 AND 1000);
ALTER TABLE campaigns ADD COLUMN usage_limit_period TEXT CHECK (usage_limit_period IN ('day', 'week', 'month', 'campaign'));
ALTER TABLE campaigns ADD COLUMN verified_only BIGINT NOT NULL DEFAULT 0 CHECK (verified_only IN (0, 1));

-- An employee's uses of a campaign since a period's start, counted in the use's transaction.
CREATE INDEX usage_history_campaign_employee ON usage_history (campaign_id, employee_id, created_at)
    WHERE deleted_at IS NULL;
