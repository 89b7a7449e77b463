-- SQLite's migration 25: what the dashboard shows of issue 41. usage_verified_month_counts holds
-- each UTC month's live uses the partner confirmed with a redemption code (`verified`), kept by
-- triggers in the writing transaction as migration 7's usage_month_counts holds every use, so the
-- dashboard's share of verified uses never reads the usage history. The campaigns at their limit
-- are read through campaigns_total_limit: only the campaigns that have a total limit.
CREATE TABLE usage_verified_month_counts (
    month TEXT    PRIMARY KEY,
    n     INTEGER NOT NULL DEFAULT 0
);
INSERT INTO usage_verified_month_counts (month, n)
SELECT substr(created_at, 1, 7), COUNT(*) FROM usage_history WHERE deleted_at IS NULL AND verified = 1 GROUP BY 1;

CREATE TRIGGER usage_verified_counts_ai AFTER INSERT ON usage_history
WHEN new.deleted_at IS NULL AND new.verified = 1
BEGIN
    INSERT INTO usage_verified_month_counts (month, n) VALUES (substr(new.created_at, 1, 7), 1)
    ON CONFLICT (month) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER usage_verified_counts_ad AFTER DELETE ON usage_history
WHEN old.deleted_at IS NULL AND old.verified = 1
BEGIN
    UPDATE usage_verified_month_counts SET n = n - 1 WHERE month = substr(old.created_at, 1, 7);
END;
CREATE TRIGGER usage_verified_counts_au AFTER UPDATE OF deleted_at, created_at, verified ON usage_history
WHEN (old.deleted_at IS NULL AND old.verified = 1) <> (new.deleted_at IS NULL AND new.verified = 1)
  OR old.created_at IS NOT new.created_at
BEGIN
    UPDATE usage_verified_month_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND old.verified = 1 AND month = substr(old.created_at, 1, 7);
    INSERT INTO usage_verified_month_counts (month, n)
    SELECT substr(new.created_at, 1, 7), 1 WHERE new.deleted_at IS NULL AND new.verified = 1
    ON CONFLICT (month) DO UPDATE SET n = n + 1;
END;

CREATE INDEX campaigns_total_limit ON campaigns (id) WHERE usage_limit_total IS NOT NULL AND deleted_at IS NULL;
