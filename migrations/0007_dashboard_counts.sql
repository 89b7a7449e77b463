-- Counts behind the dashboard and the reports (issue 14), kept by triggers in the writing
-- transaction, so the dashboard never reads the usage history and every writer (the API, the
-- demo, an import or inbound API, an operator's repair in sqlite3) keeps them right. Each table is
-- back-filled from the rows already there.
--
-- A use counts while it is live (deleted_at IS NULL), in the UTC month of its stored created_at
-- (its first seven characters, '2026-11'), for its category, partner and asset as recorded on it.
-- A partner's campaigns are its live confirmed campaigns. An asset's employees are its live
-- employees, active or not. state_counts holds, per kind (asset, partner, campaign, employee),
-- the rows that are active, deactive (live, not active) and deleted (soft-deleted); a row removed
-- from the file is no longer counted.

CREATE TABLE usage_month_counts (
    month TEXT    PRIMARY KEY,
    n     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE usage_category_counts (
    category_id INTEGER PRIMARY KEY,
    n           INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE partner_counts (
    partner_id INTEGER PRIMARY KEY,
    campaigns  INTEGER NOT NULL DEFAULT 0,
    uses       INTEGER NOT NULL DEFAULT 0,
    rating_sum INTEGER NOT NULL DEFAULT 0,
    ratings    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE asset_counts (
    asset_id           INTEGER PRIMARY KEY,
    active_employees   INTEGER NOT NULL DEFAULT 0,
    deactive_employees INTEGER NOT NULL DEFAULT 0,
    uses               INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE state_counts (
    kind  TEXT    NOT NULL CHECK (kind IN ('asset', 'partner', 'campaign', 'employee')),
    state TEXT    NOT NULL CHECK (state IN ('active', 'deactive', 'deleted')),
    n     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, state)
) WITHOUT ROWID;

-- Back-fill.
INSERT INTO usage_month_counts (month, n)
SELECT substr(created_at, 1, 7), COUNT(*) FROM usage_history WHERE deleted_at IS NULL GROUP BY 1;
INSERT INTO usage_category_counts (category_id, n)
SELECT category_id, COUNT(*) FROM usage_history WHERE deleted_at IS NULL GROUP BY 1;
INSERT INTO partner_counts (partner_id, uses, rating_sum, ratings)
SELECT partner_id, COUNT(*), COALESCE(SUM(rating), 0), COUNT(rating) FROM usage_history WHERE deleted_at IS NULL GROUP BY 1;
INSERT INTO partner_counts (partner_id, campaigns)
SELECT partner_id, COUNT(*) FROM campaigns WHERE deleted_at IS NULL AND is_confirmed = 1 GROUP BY 1
ON CONFLICT (partner_id) DO UPDATE SET campaigns = excluded.campaigns;
INSERT INTO asset_counts (asset_id, uses)
SELECT asset_id, COUNT(*) FROM usage_history WHERE deleted_at IS NULL GROUP BY 1;
INSERT INTO asset_counts (asset_id, active_employees, deactive_employees)
SELECT asset_id, SUM(is_active = 1), SUM(is_active <> 1) FROM employees WHERE deleted_at IS NULL GROUP BY 1
ON CONFLICT (asset_id) DO UPDATE
SET active_employees = excluded.active_employees, deactive_employees = excluded.deactive_employees;
INSERT INTO state_counts (kind, state, n)
SELECT 'asset', CASE WHEN deleted_at IS NOT NULL THEN 'deleted' WHEN is_active = 1 THEN 'active' ELSE 'deactive' END, COUNT(*)
FROM assets GROUP BY 2;
INSERT INTO state_counts (kind, state, n)
SELECT 'partner', CASE WHEN deleted_at IS NOT NULL THEN 'deleted' WHEN is_active = 1 THEN 'active' ELSE 'deactive' END, COUNT(*)
FROM partners GROUP BY 2;
INSERT INTO state_counts (kind, state, n)
SELECT 'campaign', CASE WHEN deleted_at IS NOT NULL THEN 'deleted' WHEN is_active = 1 THEN 'active' ELSE 'deactive' END, COUNT(*)
FROM campaigns GROUP BY 2;
INSERT INTO state_counts (kind, state, n)
SELECT 'employee', CASE WHEN deleted_at IS NOT NULL THEN 'deleted' WHEN is_active = 1 THEN 'active' ELSE 'deactive' END, COUNT(*)
FROM employees GROUP BY 2;

-- Usage history: month, category, partner (uses and ratings), asset.
CREATE TRIGGER usage_counts_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO usage_month_counts (month, n) VALUES (substr(new.created_at, 1, 7), 1)
    ON CONFLICT (month) DO UPDATE SET n = n + 1;
    INSERT INTO usage_category_counts (category_id, n) VALUES (new.category_id, 1)
    ON CONFLICT (category_id) DO UPDATE SET n = n + 1;
    INSERT INTO partner_counts (partner_id, uses, rating_sum, ratings)
    VALUES (new.partner_id, 1, COALESCE(new.rating, 0), new.rating IS NOT NULL)
    ON CONFLICT (partner_id) DO UPDATE
    SET uses = uses + 1, rating_sum = rating_sum + excluded.rating_sum, ratings = ratings + excluded.ratings;
    INSERT INTO asset_counts (asset_id, uses) VALUES (new.asset_id, 1)
    ON CONFLICT (asset_id) DO UPDATE SET uses = uses + 1;
END;
CREATE TRIGGER usage_counts_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL BEGIN
    UPDATE usage_month_counts SET n = n - 1 WHERE month = substr(old.created_at, 1, 7);
    UPDATE usage_category_counts SET n = n - 1 WHERE category_id = old.category_id;
    UPDATE partner_counts
    SET uses = uses - 1, rating_sum = rating_sum - COALESCE(old.rating, 0), ratings = ratings - (old.rating IS NOT NULL)
    WHERE partner_id = old.partner_id;
    UPDATE asset_counts SET uses = uses - 1 WHERE asset_id = old.asset_id;
END;
CREATE TRIGGER usage_counts_au AFTER UPDATE OF deleted_at, created_at, category_id, partner_id, asset_id, rating ON usage_history
WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) OR old.created_at IS NOT new.created_at
  OR old.category_id IS NOT new.category_id OR old.partner_id IS NOT new.partner_id
  OR old.asset_id IS NOT new.asset_id OR old.rating IS NOT new.rating
BEGIN
    UPDATE usage_month_counts SET n = n - 1 WHERE old.deleted_at IS NULL AND month = substr(old.created_at, 1, 7);
    UPDATE usage_category_counts SET n = n - 1 WHERE old.deleted_at IS NULL AND category_id = old.category_id;
    UPDATE partner_counts
    SET uses = uses - 1, rating_sum = rating_sum - COALESCE(old.rating, 0), ratings = ratings - (old.rating IS NOT NULL)
    WHERE old.deleted_at IS NULL AND partner_id = old.partner_id;
    UPDATE asset_counts SET uses = uses - 1 WHERE old.deleted_at IS NULL AND asset_id = old.asset_id;
    INSERT INTO usage_month_counts (month, n) SELECT substr(new.created_at, 1, 7), 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (month) DO UPDATE SET n = n + 1;
    INSERT INTO usage_category_counts (category_id, n) SELECT new.category_id, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (category_id) DO UPDATE SET n = n + 1;
    INSERT INTO partner_counts (partner_id, uses, rating_sum, ratings)
    SELECT new.partner_id, 1, COALESCE(new.rating, 0), new.rating IS NOT NULL WHERE new.deleted_at IS NULL
    ON CONFLICT (partner_id) DO UPDATE
    SET uses = uses + 1, rating_sum = rating_sum + excluded.rating_sum, ratings = ratings + excluded.ratings;
    INSERT INTO asset_counts (asset_id, uses) SELECT new.asset_id, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (asset_id) DO UPDATE SET uses = uses + 1;
END;

-- Employees: their asset's active and deactive employees, and the employee states.
CREATE TRIGGER employee_counts_ai AFTER INSERT ON employees BEGIN
    INSERT INTO state_counts (kind, state, n)
    VALUES ('employee', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
    INSERT INTO asset_counts (asset_id, active_employees, deactive_employees)
    SELECT new.asset_id, new.is_active = 1, new.is_active <> 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (asset_id) DO UPDATE SET active_employees = active_employees + excluded.active_employees,
        deactive_employees = deactive_employees + excluded.deactive_employees;
END;
CREATE TRIGGER employee_counts_ad AFTER DELETE ON employees BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'employee'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
    UPDATE asset_counts
    SET active_employees = active_employees - (old.is_active = 1), deactive_employees = deactive_employees - (old.is_active <> 1)
    WHERE old.deleted_at IS NULL AND asset_id = old.asset_id;
END;
CREATE TRIGGER employee_counts_au AFTER UPDATE OF is_active, deleted_at, asset_id ON employees
WHEN old.is_active IS NOT new.is_active OR (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) OR old.asset_id IS NOT new.asset_id
BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'employee'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
    INSERT INTO state_counts (kind, state, n)
    VALUES ('employee', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
    UPDATE asset_counts
    SET active_employees = active_employees - (old.is_active = 1), deactive_employees = deactive_employees - (old.is_active <> 1)
    WHERE old.deleted_at IS NULL AND asset_id = old.asset_id;
    INSERT INTO asset_counts (asset_id, active_employees, deactive_employees)
    SELECT new.asset_id, new.is_active = 1, new.is_active <> 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (asset_id) DO UPDATE SET active_employees = active_employees + excluded.active_employees,
        deactive_employees = deactive_employees + excluded.deactive_employees;
END;

-- Campaigns: their partner's live confirmed campaigns, and the campaign states.
CREATE TRIGGER campaign_counts_ai AFTER INSERT ON campaigns BEGIN
    INSERT INTO state_counts (kind, state, n)
    VALUES ('campaign', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
    INSERT INTO partner_counts (partner_id, campaigns)
    SELECT new.partner_id, 1 WHERE new.deleted_at IS NULL AND new.is_confirmed = 1
    ON CONFLICT (partner_id) DO UPDATE SET campaigns = campaigns + 1;
END;
CREATE TRIGGER campaign_counts_ad AFTER DELETE ON campaigns BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'campaign'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
    UPDATE partner_counts SET campaigns = campaigns - 1
    WHERE old.deleted_at IS NULL AND old.is_confirmed = 1 AND partner_id = old.partner_id;
END;
CREATE TRIGGER campaign_counts_au AFTER UPDATE OF is_active, deleted_at, is_confirmed, partner_id ON campaigns
WHEN old.is_active IS NOT new.is_active OR (old.deleted_at IS NULL) <> (new.deleted_at IS NULL)
  OR old.is_confirmed IS NOT new.is_confirmed OR old.partner_id IS NOT new.partner_id
BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'campaign'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
    INSERT INTO state_counts (kind, state, n)
    VALUES ('campaign', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
    UPDATE partner_counts SET campaigns = campaigns - 1
    WHERE old.deleted_at IS NULL AND old.is_confirmed = 1 AND partner_id = old.partner_id;
    INSERT INTO partner_counts (partner_id, campaigns)
    SELECT new.partner_id, 1 WHERE new.deleted_at IS NULL AND new.is_confirmed = 1
    ON CONFLICT (partner_id) DO UPDATE SET campaigns = campaigns + 1;
END;

-- Assets and partners: their states.
CREATE TRIGGER asset_states_ai AFTER INSERT ON assets BEGIN
    INSERT INTO state_counts (kind, state, n)
    VALUES ('asset', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER asset_states_ad AFTER DELETE ON assets BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'asset'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
END;
CREATE TRIGGER asset_states_au AFTER UPDATE OF is_active, deleted_at ON assets
WHEN old.is_active IS NOT new.is_active OR (old.deleted_at IS NULL) <> (new.deleted_at IS NULL)
BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'asset'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
    INSERT INTO state_counts (kind, state, n)
    VALUES ('asset', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER partner_states_ai AFTER INSERT ON partners BEGIN
    INSERT INTO state_counts (kind, state, n)
    VALUES ('partner', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER partner_states_ad AFTER DELETE ON partners BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'partner'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
END;
CREATE TRIGGER partner_states_au AFTER UPDATE OF is_active, deleted_at ON partners
WHEN old.is_active IS NOT new.is_active OR (old.deleted_at IS NULL) <> (new.deleted_at IS NULL)
BEGIN
    UPDATE state_counts SET n = n - 1 WHERE kind = 'partner'
      AND state = CASE WHEN old.deleted_at IS NOT NULL THEN 'deleted' WHEN old.is_active = 1 THEN 'active' ELSE 'deactive' END;
    INSERT INTO state_counts (kind, state, n)
    VALUES ('partner', CASE WHEN new.deleted_at IS NOT NULL THEN 'deleted' WHEN new.is_active = 1 THEN 'active' ELSE 'deactive' END, 1)
    ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
END;
