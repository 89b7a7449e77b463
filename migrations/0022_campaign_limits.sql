-- SQLite's migration 22: a campaign's optional limits (issue 41). At most `usage_limit_total` uses
-- ever; at most `usage_limit_per_employee` uses by one employee per `usage_limit_period` (a
-- calendar day, ISO week or month in the operator's time zone, or the campaign's life); a
-- `verified_only` campaign is used only with a redemption code the partner confirms. The pairing
-- of the per-employee limit with its period is the form's rule (resources/campaigns/form.rs).
ALTER TABLE campaigns ADD COLUMN usage_limit_total INTEGER CHECK (usage_limit_total BETWEEN 1 AND 10000000);
ALTER TABLE campaigns ADD COLUMN usage_limit_per_employee INTEGER CHECK (usage_limit_per_employee BETWEEN 1 AND 1000);
ALTER TABLE campaigns ADD COLUMN usage_limit_period TEXT CHECK (usage_limit_period IN ('day', 'week', 'month', 'campaign'));
ALTER TABLE campaigns ADD COLUMN verified_only INTEGER NOT NULL DEFAULT 0 CHECK (verified_only IN (0, 1));

-- An employee's uses of a campaign since a period's start, counted in the use's transaction.
CREATE INDEX usage_history_campaign_employee ON usage_history (campaign_id, employee_id, created_at)
    WHERE deleted_at IS NULL;
