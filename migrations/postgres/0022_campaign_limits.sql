-- PostgreSQL's migration 22: a campaign's optional limits (issue 41), as SQLite's.
ALTER TABLE campaigns ADD COLUMN usage_limit_total BIGINT CHECK (usage_limit_total BETWEEN 1 AND 10000000);
ALTER TABLE campaigns ADD COLUMN usage_limit_per_employee BIGINT CHECK (usage_limit_per_employee BETWEEN 1 AND 1000);
ALTER TABLE campaigns ADD COLUMN usage_limit_period TEXT CHECK (usage_limit_period IN ('day', 'week', 'month', 'campaign'));
ALTER TABLE campaigns ADD COLUMN verified_only BIGINT NOT NULL DEFAULT 0 CHECK (verified_only IN (0, 1));

-- An employee's live uses since a moment, with their partners and campaigns: the per-employee
-- limit counts an employee's uses of a campaign since a period's start over it, and the usage
-- review's rules (migration 24) an employee's uses in a window. It takes the place of
-- usage_history_employee (employee_id, id): what that served (the list's EmployeeId filter and its
-- total, the employees' foreign key) reads this one's first column as well, and each index of a
-- use's is one more page a write dirties at a random place (the inbound write's cost, issue 41).
DROP INDEX usage_history_employee;
CREATE INDEX usage_history_employee_time ON usage_history (employee_id, created_at, partner_id, campaign_id)
    WHERE deleted_at IS NULL;

-- campaign_counts: each campaign's live uses, as SQLite's, kept as migration 16's counts are: the
-- triggers append deltas, fold_counts() moves them into _folded, the view adds both. A use of a
-- campaign with a total limit reads its campaign's rows of the ledger; two app servers that both
-- read 9 of 10 and both append a delta fail each other under SERIALIZABLE, and the loser runs
-- again and reads 10.
CREATE TABLE campaign_counts_folded (
    campaign_id BIGINT PRIMARY KEY,
    uses        BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE campaign_counts_deltas (
    campaign_id BIGINT NOT NULL,
    uses        BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX campaign_counts_deltas_campaign ON campaign_counts_deltas (campaign_id);
CREATE VIEW campaign_counts AS
    SELECT campaign_id, SUM(uses)::bigint AS uses
    FROM (SELECT campaign_id, uses FROM campaign_counts_folded
          UNION ALL SELECT campaign_id, uses FROM campaign_counts_deltas) AS ledger
    GROUP BY campaign_id;
INSERT INTO campaign_counts_folded (campaign_id, uses)
SELECT campaign_id, COUNT(*) FROM usage_history WHERE deleted_at IS NULL GROUP BY 1;

CREATE FUNCTION count_campaign_uses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        INSERT INTO campaign_counts_deltas (campaign_id, uses) VALUES (OLD.campaign_id, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        INSERT INTO campaign_counts_deltas (campaign_id, uses) VALUES (NEW.campaign_id, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER usage_campaign_counts AFTER INSERT OR DELETE ON usage_history
    FOR EACH ROW EXECUTE FUNCTION count_campaign_uses();
CREATE TRIGGER usage_campaign_counts_update AFTER UPDATE OF deleted_at, campaign_id ON usage_history FOR EACH ROW
    WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id)
    EXECUTE FUNCTION count_campaign_uses();

-- fold_counts() folds the campaigns' deltas too, under the same lock in the same transaction.
ALTER FUNCTION fold_counts() RENAME TO fold_dashboard_counts;
CREATE FUNCTION fold_counts() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF NOT fold_dashboard_counts() THEN
        RETURN false;
    END IF;
    WITH moved AS (DELETE FROM campaign_counts_deltas RETURNING campaign_id, uses)
    INSERT INTO campaign_counts_folded AS f (campaign_id, uses)
    SELECT campaign_id, SUM(uses) FROM moved GROUP BY campaign_id
    ON CONFLICT (campaign_id) DO UPDATE SET uses = f.uses + excluded.uses;
    RETURN true;
END $$;
