-- The maintained counts on PostgreSQL (part of schema version 16): the dashboard, the reports and
-- the list totals read the same six names as on SQLite (row_counts, usage_month_counts,
-- usage_category_counts, partner_counts, asset_counts, state_counts) with the same SQL text.
--
-- SQLite keeps each as a table its triggers update in place. On PostgreSQL that would make every
-- write of a kind wait on one hot row (measured for issue 24: 568-688 inserts/s at 32 clients with
-- an in-place counter, 3,729-4,291 with an appended delta). So each name is a view over a ledger:
--   <name>_folded   the counts as of the last fold, one row per key;
--   <name>_deltas   what writes added since, appended by the triggers below (-1 / +1 per change,
--                   never read-modify-write, so writers never wait on each other);
-- and the view sums the two by key. A key filter (WHERE name = ?1) is pushed through the view's
-- GROUP BY into both branches. fold_counts() moves the deltas into _folded in one transaction; the
-- server runs it every few seconds on whichever node takes its advisory lock.
--
-- A reader sees the folded rows and the deltas of one snapshot, so a fold is never half-seen: the
-- counts are exact at every moment, folded or not.

CREATE TABLE row_counts_folded (
    name TEXT PRIMARY KEY,
    n    BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE row_counts_deltas (
    name TEXT NOT NULL,
    n    BIGINT NOT NULL
);
CREATE VIEW row_counts AS
    SELECT name, SUM(n)::bigint AS n
    FROM (SELECT name, n FROM row_counts_folded UNION ALL SELECT name, n FROM row_counts_deltas) AS ledger
    GROUP BY name;

CREATE TABLE usage_month_counts_folded (
    month TEXT PRIMARY KEY,
    n     BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE usage_month_counts_deltas (
    month TEXT NOT NULL,
    n     BIGINT NOT NULL
);
CREATE VIEW usage_month_counts AS
    SELECT month, SUM(n)::bigint AS n
    FROM (SELECT month, n FROM usage_month_counts_folded
          UNION ALL SELECT month, n FROM usage_month_counts_deltas) AS ledger
    GROUP BY month;

CREATE TABLE usage_category_counts_folded (
    category_id BIGINT PRIMARY KEY,
    n           BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE usage_category_counts_deltas (
    category_id BIGINT NOT NULL,
    n           BIGINT NOT NULL
);
CREATE VIEW usage_category_counts AS
    SELECT category_id, SUM(n)::bigint AS n
    FROM (SELECT category_id, n FROM usage_category_counts_folded
          UNION ALL SELECT category_id, n FROM usage_category_counts_deltas) AS ledger
    GROUP BY category_id;

CREATE TABLE partner_counts_folded (
    partner_id BIGINT PRIMARY KEY,
    campaigns  BIGINT NOT NULL DEFAULT 0,
    uses       BIGINT NOT NULL DEFAULT 0,
    rating_sum BIGINT NOT NULL DEFAULT 0,
    ratings    BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE partner_counts_deltas (
    partner_id BIGINT NOT NULL,
    campaigns  BIGINT NOT NULL DEFAULT 0,
    uses       BIGINT NOT NULL DEFAULT 0,
    rating_sum BIGINT NOT NULL DEFAULT 0,
    ratings    BIGINT NOT NULL DEFAULT 0
);
CREATE VIEW partner_counts AS
    SELECT partner_id, SUM(campaigns)::bigint AS campaigns, SUM(uses)::bigint AS uses,
           SUM(rating_sum)::bigint AS rating_sum, SUM(ratings)::bigint AS ratings
    FROM (SELECT partner_id, campaigns, uses, rating_sum, ratings FROM partner_counts_folded
          UNION ALL SELECT partner_id, campaigns, uses, rating_sum, ratings FROM partner_counts_deltas) AS ledger
    GROUP BY partner_id;

CREATE TABLE asset_counts_folded (
    asset_id           BIGINT PRIMARY KEY,
    active_employees   BIGINT NOT NULL DEFAULT 0,
    deactive_employees BIGINT NOT NULL DEFAULT 0,
    uses               BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE asset_counts_deltas (
    asset_id           BIGINT NOT NULL,
    active_employees   BIGINT NOT NULL DEFAULT 0,
    deactive_employees BIGINT NOT NULL DEFAULT 0,
    uses               BIGINT NOT NULL DEFAULT 0
);
CREATE VIEW asset_counts AS
    SELECT asset_id, SUM(active_employees)::bigint AS active_employees,
           SUM(deactive_employees)::bigint AS deactive_employees, SUM(uses)::bigint AS uses
    FROM (SELECT asset_id, active_employees, deactive_employees, uses FROM asset_counts_folded
          UNION ALL SELECT asset_id, active_employees, deactive_employees, uses FROM asset_counts_deltas) AS ledger
    GROUP BY asset_id;

CREATE TABLE state_counts_folded (
    kind  TEXT   NOT NULL,
    state TEXT   NOT NULL,
    n     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, state)
);
-- The keys are checked where they are written.
CREATE TABLE state_counts_deltas (
    kind  TEXT   NOT NULL CHECK (kind IN ('asset', 'partner', 'campaign', 'employee')),
    state TEXT   NOT NULL CHECK (state IN ('active', 'deactive', 'deleted')),
    n     BIGINT NOT NULL
);
CREATE VIEW state_counts AS
    SELECT kind, state, SUM(n)::bigint AS n
    FROM (SELECT kind, state, n FROM state_counts_folded UNION ALL SELECT kind, state, n FROM state_counts_deltas) AS ledger
    GROUP BY kind, state;

-- Moves every delta a committed write left into the folded counts, in one transaction, and answers
-- whether it ran: one node folds at a time (a transaction-scoped advisory lock; another node finding
-- it taken answers false and leaves the work to the next round). Run it in a READ COMMITTED
-- transaction of its own: the deletes take exactly the deltas its snapshot sees, and a write that
-- commits meanwhile keeps its deltas for the next fold.
CREATE FUNCTION fold_counts() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(7245031617) THEN
        RETURN false;
    END IF;
    WITH moved AS (DELETE FROM row_counts_deltas RETURNING name, n)
    INSERT INTO row_counts_folded AS f (name, n) SELECT name, SUM(n) FROM moved GROUP BY name
    ON CONFLICT (name) DO UPDATE SET n = f.n + excluded.n;

    WITH moved AS (DELETE FROM usage_month_counts_deltas RETURNING month, n)
    INSERT INTO usage_month_counts_folded AS f (month, n) SELECT month, SUM(n) FROM moved GROUP BY month
    ON CONFLICT (month) DO UPDATE SET n = f.n + excluded.n;

    WITH moved AS (DELETE FROM usage_category_counts_deltas RETURNING category_id, n)
    INSERT INTO usage_category_counts_folded AS f (category_id, n)
    SELECT category_id, SUM(n) FROM moved GROUP BY category_id
    ON CONFLICT (category_id) DO UPDATE SET n = f.n + excluded.n;

    WITH moved AS (DELETE FROM partner_counts_deltas RETURNING partner_id, campaigns, uses, rating_sum, ratings)
    INSERT INTO partner_counts_folded AS f (partner_id, campaigns, uses, rating_sum, ratings)
    SELECT partner_id, SUM(campaigns), SUM(uses), SUM(rating_sum), SUM(ratings) FROM moved GROUP BY partner_id
    ON CONFLICT (partner_id) DO UPDATE SET campaigns = f.campaigns + excluded.campaigns, uses = f.uses + excluded.uses,
        rating_sum = f.rating_sum + excluded.rating_sum, ratings = f.ratings + excluded.ratings;

    WITH moved AS (DELETE FROM asset_counts_deltas RETURNING asset_id, active_employees, deactive_employees, uses)
    INSERT INTO asset_counts_folded AS f (asset_id, active_employees, deactive_employees, uses)
    SELECT asset_id, SUM(active_employees), SUM(deactive_employees), SUM(uses) FROM moved GROUP BY asset_id
    ON CONFLICT (asset_id) DO UPDATE SET active_employees = f.active_employees + excluded.active_employees,
        deactive_employees = f.deactive_employees + excluded.deactive_employees, uses = f.uses + excluded.uses;

    WITH moved AS (DELETE FROM state_counts_deltas RETURNING kind, state, n)
    INSERT INTO state_counts_folded AS f (kind, state, n) SELECT kind, state, SUM(n) FROM moved GROUP BY kind, state
    ON CONFLICT (kind, state) DO UPDATE SET n = f.n + excluded.n;
    RETURN true;
END $$;

-- ---- The triggers: each adds what a row change takes away and gives, as SQLite's do ----
-- They append deltas only (no read of the counts), so a SERIALIZABLE writer takes no read
-- dependency on them. OLD is null for an insert and NEW for a delete, hence the TG_OP tests.

-- row_counts[<table>]: the table's live rows (deleted_at null). TG_ARGV[0] names the key; a
-- second argument names a column whose value the key ends with (row_counts['users:staff'],
-- ['campaigns:1']), for the lists that count a kind apart.
CREATE FUNCTION count_live_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before text;
    after text;
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        before := TG_ARGV[0];
        IF TG_NARGS > 1 THEN
            before := before || ':' || (to_jsonb(OLD) ->> TG_ARGV[1]);
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        after := TG_ARGV[0];
        IF TG_NARGS > 1 THEN
            after := after || ':' || (to_jsonb(NEW) ->> TG_ARGV[1]);
        END IF;
    END IF;
    IF before IS DISTINCT FROM after THEN
        IF before IS NOT NULL THEN
            INSERT INTO row_counts_deltas (name, n) VALUES (before, -1);
        END IF;
        IF after IS NOT NULL THEN
            INSERT INTO row_counts_deltas (name, n) VALUES (after, 1);
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER users_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at, kind ON users
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('users', 'kind');
CREATE TRIGGER campaigns_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at, is_confirmed ON campaigns
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('campaigns', 'is_confirmed');

CREATE TRIGGER assets_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON assets
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('assets');
CREATE TRIGGER hr_accounts_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON hr_accounts
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('hr_accounts');
CREATE TRIGGER partners_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON partners
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('partners');
CREATE TRIGGER merchants_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON merchants
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('merchants');
CREATE TRIGGER campaign_categories_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON campaign_categories
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('campaign_categories');
CREATE TRIGGER employees_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON employees
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('employees');
CREATE TRIGGER wish_list_requests_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON wish_list_requests
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('wish_list_requests');
CREATE TRIGGER merchant_applications_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON merchant_applications
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('merchant_applications');
CREATE TRIGGER usage_history_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON usage_history
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('usage_history');
CREATE TRIGGER notifications_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON notifications
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('notifications');
CREATE TRIGGER complaints_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON complaints
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('complaints');
CREATE TRIGGER promo_codes_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON promo_codes
    FOR EACH ROW EXECUTE FUNCTION count_live_rows('promo_codes');

-- row_counts['api_clients']: every key, revoked ones too (they stay listed).
CREATE FUNCTION count_all_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO row_counts_deltas (name, n) VALUES (TG_ARGV[0], CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END);
    RETURN NULL;
END $$;
CREATE TRIGGER api_clients_count AFTER INSERT OR DELETE ON api_clients
    FOR EACH ROW EXECUTE FUNCTION count_all_rows('api_clients');

-- The usage history's live rows per month of created_at, per category, per partner (uses and
-- ratings) and per asset.
CREATE FUNCTION count_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        INSERT INTO usage_month_counts_deltas (month, n) VALUES (substr(OLD.created_at, 1, 7), -1);
        INSERT INTO usage_category_counts_deltas (category_id, n) VALUES (OLD.category_id, -1);
        INSERT INTO partner_counts_deltas (partner_id, uses, rating_sum, ratings)
        VALUES (OLD.partner_id, -1, -COALESCE(OLD.rating, 0), -(OLD.rating IS NOT NULL)::int);
        INSERT INTO asset_counts_deltas (asset_id, uses) VALUES (OLD.asset_id, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        INSERT INTO usage_month_counts_deltas (month, n) VALUES (substr(NEW.created_at, 1, 7), 1);
        INSERT INTO usage_category_counts_deltas (category_id, n) VALUES (NEW.category_id, 1);
        INSERT INTO partner_counts_deltas (partner_id, uses, rating_sum, ratings)
        VALUES (NEW.partner_id, 1, COALESCE(NEW.rating, 0), (NEW.rating IS NOT NULL)::int);
        INSERT INTO asset_counts_deltas (asset_id, uses) VALUES (NEW.asset_id, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER usage_counts AFTER INSERT OR DELETE ON usage_history FOR EACH ROW EXECUTE FUNCTION count_usage();
CREATE TRIGGER usage_counts_update
    AFTER UPDATE OF deleted_at, created_at, category_id, partner_id, asset_id, rating ON usage_history FOR EACH ROW
    WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.category_id IS DISTINCT FROM NEW.category_id OR OLD.partner_id IS DISTINCT FROM NEW.partner_id
          OR OLD.asset_id IS DISTINCT FROM NEW.asset_id OR OLD.rating IS DISTINCT FROM NEW.rating)
    EXECUTE FUNCTION count_usage();

-- state_counts[<kind>, <state>]: every row of the kind (deleted ones too) by its state.
CREATE FUNCTION row_state(deleted_at text, is_active bigint) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN deleted_at IS NOT NULL THEN 'deleted' WHEN is_active = 1 THEN 'active' ELSE 'deactive' END;
-- TG_ARGV[0] names the kind.
CREATE FUNCTION count_states() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before text;
    after text;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        before := row_state(OLD.deleted_at, OLD.is_active);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        after := row_state(NEW.deleted_at, NEW.is_active);
    END IF;
    IF before IS DISTINCT FROM after THEN
        IF before IS NOT NULL THEN
            INSERT INTO state_counts_deltas (kind, state, n) VALUES (TG_ARGV[0], before, -1);
        END IF;
        IF after IS NOT NULL THEN
            INSERT INTO state_counts_deltas (kind, state, n) VALUES (TG_ARGV[0], after, 1);
        END IF;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER asset_states AFTER INSERT OR DELETE OR UPDATE OF is_active, deleted_at ON assets
    FOR EACH ROW EXECUTE FUNCTION count_states('asset');
CREATE TRIGGER partner_states AFTER INSERT OR DELETE OR UPDATE OF is_active, deleted_at ON partners
    FOR EACH ROW EXECUTE FUNCTION count_states('partner');
CREATE TRIGGER campaign_states AFTER INSERT OR DELETE OR UPDATE OF is_active, deleted_at ON campaigns
    FOR EACH ROW EXECUTE FUNCTION count_states('campaign');
CREATE TRIGGER employee_states AFTER INSERT OR DELETE OR UPDATE OF is_active, deleted_at ON employees
    FOR EACH ROW EXECUTE FUNCTION count_states('employee');

-- asset_counts: each asset's live employees, active and not.
CREATE FUNCTION count_asset_employees() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
        INSERT INTO asset_counts_deltas (asset_id, active_employees, deactive_employees)
        VALUES (OLD.asset_id, -(OLD.is_active = 1)::int, -(OLD.is_active <> 1)::int);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
        INSERT INTO asset_counts_deltas (asset_id, active_employees, deactive_employees)
        VALUES (NEW.asset_id, (NEW.is_active = 1)::int, (NEW.is_active <> 1)::int);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER employee_asset_counts AFTER INSERT OR DELETE ON employees
    FOR EACH ROW EXECUTE FUNCTION count_asset_employees();
CREATE TRIGGER employee_asset_counts_update AFTER UPDATE OF is_active, deleted_at, asset_id ON employees FOR EACH ROW
    WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
          OR OLD.asset_id IS DISTINCT FROM NEW.asset_id)
    EXECUTE FUNCTION count_asset_employees();

-- partner_counts.campaigns: each partner's live confirmed campaigns.
CREATE FUNCTION count_partner_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL AND OLD.is_confirmed = 1 THEN
        INSERT INTO partner_counts_deltas (partner_id, campaigns) VALUES (OLD.partner_id, -1);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL AND NEW.is_confirmed = 1 THEN
        INSERT INTO partner_counts_deltas (partner_id, campaigns) VALUES (NEW.partner_id, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER campaign_partner_counts AFTER INSERT OR DELETE ON campaigns
    FOR EACH ROW EXECUTE FUNCTION count_partner_campaigns();
CREATE TRIGGER campaign_partner_counts_update AFTER UPDATE OF deleted_at, is_confirmed, partner_id ON campaigns FOR EACH ROW
    WHEN ((OLD.deleted_at IS NULL AND OLD.is_confirmed = 1) IS DISTINCT FROM (NEW.deleted_at IS NULL AND NEW.is_confirmed = 1)
          OR OLD.partner_id IS DISTINCT FROM NEW.partner_id)
    EXECUTE FUNCTION count_partner_campaigns();
