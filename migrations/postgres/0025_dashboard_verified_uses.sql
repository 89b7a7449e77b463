-- PostgreSQL's migration 25: as SQLite's. usage_verified_month_counts is a ledger as migration
-- 16's counts are: the trigger appends deltas, fold_counts() moves them into _folded, the view
-- adds both.
CREATE TABLE usage_verified_month_counts_folded (
    month TEXT   PRIMARY KEY,
    n     BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE usage_verified_month_counts_deltas (
    month TEXT   NOT NULL,
    n     BIGINT NOT NULL DEFAULT 0
);
CREATE VIEW usage_verified_month_counts AS
    SELECT month, SUM(n)::bigint AS n
    FROM (SELECT month, n FROM usage_verified_month_counts_folded
          UNION ALL SELECT month, n FROM usage_verified_month_counts_deltas) AS ledger
    GROUP BY month;
INSERT INTO usage_verified_month_counts_folded (month, n)
SELECT substr(created_at, 1, 7), COUNT(*) FROM usage_history WHERE deleted_at IS NULL AND verified = 1 GROUP BY 1;

CREATE FUNCTION count_verified_uses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL AND OLD.verified = 1 THEN
        INSERT INTO usage_verified_month_counts_deltas (month, n) VALUES (substr(OLD.created_at, 1, 7), -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL AND NEW.verified = 1 THEN
        INSERT INTO usage_verified_month_counts_deltas (month, n) VALUES (substr(NEW.created_at, 1, 7), 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER usage_verified_counts AFTER INSERT OR DELETE ON usage_history
    FOR EACH ROW EXECUTE FUNCTION count_verified_uses();
CREATE TRIGGER usage_verified_counts_update AFTER UPDATE OF deleted_at, created_at, verified ON usage_history FOR EACH ROW
    WHEN ((OLD.deleted_at IS NULL AND OLD.verified = 1) <> (NEW.deleted_at IS NULL AND NEW.verified = 1)
          OR OLD.created_at IS DISTINCT FROM NEW.created_at)
    EXECUTE FUNCTION count_verified_uses();

-- fold_counts() folds these too, under the same lock in the same transaction.
CREATE OR REPLACE FUNCTION fold_counts() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF NOT fold_dashboard_counts() THEN
        RETURN false;
    END IF;
    WITH moved AS (DELETE FROM campaign_counts_deltas RETURNING campaign_id, uses)
    INSERT INTO campaign_counts_folded AS f (campaign_id, uses)
    SELECT campaign_id, SUM(uses) FROM moved GROUP BY campaign_id
    ON CONFLICT (campaign_id) DO UPDATE SET uses = f.uses + excluded.uses;

    WITH moved AS (DELETE FROM usage_verified_month_counts_deltas RETURNING month, n)
    INSERT INTO usage_verified_month_counts_folded AS f (month, n) SELECT month, SUM(n) FROM moved GROUP BY month
    ON CONFLICT (month) DO UPDATE SET n = f.n + excluded.n;
    RETURN true;
END $$;

CREATE INDEX campaigns_total_limit ON campaigns (id) WHERE usage_limit_total IS NOT NULL AND deleted_at IS NULL;
