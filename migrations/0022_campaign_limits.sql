-- SQLite's migration 22: a campaign's optional limits (issue 41). At most `usage_limit_total` uses
-- ever; at most `usage_limit_per_employee` uses by one employee per `usage_limit_period` (a
-- calendar day, ISO week or month in the operator's time zone, or the campaign's life); a
-- `verified_only` campaign is used only with a redemption code the partner confirms. The pairing
-- of the per-employee limit with its period is the form's rule (resources/campaigns/form.rs).
ALTER TABLE campaigns ADD COLUMN usage_limit_total INTEGER CHECK (usage_limit_total BETWEEN 1 AND 10000000);
ALTER TABLE campaigns ADD COLUMN usage_limit_per_employee INTEGER CHECK (usage_limit_per_employee BETWEEN 1 AND 1000);
ALTER TABLE campaigns ADD COLUMN usage_limit_period TEXT CHECK (usage_limit_period IN ('day', 'week', 'month', 'campaign'));
ALTER TABLE campaigns ADD COLUMN verified_only INTEGER NOT NULL DEFAULT 0 CHECK (verified_only IN (0, 1));

-- An employee's live uses since a moment, with their partners and campaigns: the per-employee
-- limit counts an employee's uses of a campaign since a period's start over it, and the usage
-- review's rules (migration 24) an employee's uses in a window. It takes the place of
-- usage_history_employee (employee_id, id): what that served (the list's EmployeeId filter and its
-- total, the employees' foreign key) reads this one's first column as well, and each index of a
-- use's is one more page a write dirties at a random place (the inbound write's cost, issue 41).
DROP INDEX usage_history_employee;
CREATE INDEX usage_history_employee_time ON usage_history (employee_id, created_at, partner_id, campaign_id)
    WHERE deleted_at IS NULL;

-- campaign_counts: each campaign's live uses, kept by triggers in the writing transaction like the
-- dashboard's counts (migration 7), so a use of a campaign with a total limit, and a campaign list
-- row, read one row instead of counting the campaign's uses.
CREATE TABLE campaign_counts (
    campaign_id INTEGER PRIMARY KEY,
    uses        INTEGER NOT NULL DEFAULT 0
);
INSERT INTO campaign_counts (campaign_id, uses)
SELECT campaign_id, COUNT(*) FROM usage_history WHERE deleted_at IS NULL GROUP BY 1;

CREATE TRIGGER usage_campaign_counts_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO campaign_counts (campaign_id, uses) VALUES (new.campaign_id, 1)
    ON CONFLICT (campaign_id) DO UPDATE SET uses = uses + 1;
END;
CREATE TRIGGER usage_campaign_counts_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL BEGIN
    UPDATE campaign_counts SET uses = uses - 1 WHERE campaign_id = old.campaign_id;
END;
CREATE TRIGGER usage_campaign_counts_au AFTER UPDATE OF deleted_at, campaign_id ON usage_history
WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) OR old.campaign_id IS NOT new.campaign_id
BEGIN
    UPDATE campaign_counts SET uses = uses - 1 WHERE old.deleted_at IS NULL AND campaign_id = old.campaign_id;
    INSERT INTO campaign_counts (campaign_id, uses) SELECT new.campaign_id, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (campaign_id) DO UPDATE SET uses = uses + 1;
END;
