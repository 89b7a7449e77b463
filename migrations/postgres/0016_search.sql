-- The lists' searches on PostgreSQL (part of schema version 16). SQLite answers a searched filter
-- from an FTS5 trigram table its triggers keep (users_search, usage_history_search,
-- campaigns_search); PostgreSQL from trigram indexes (pg_trgm, a trusted extension) on the
-- tables themselves, built on the very expression the lists test rows with (crud::query,
-- RowTest): the folded column in byte order (`LIKE` needs a deterministic collation, and the
-- index's collation must be the query's for the planner to use it). The same rows as SQLite's search tables are indexed: live
-- staff, live uses, live campaigns.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX users_search_first_name ON users USING gin ((fold_search(first_name) COLLATE "C") gin_trgm_ops)
    WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_search_last_name ON users USING gin ((fold_search(last_name) COLLATE "C") gin_trgm_ops)
    WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_search_email ON users USING gin ((fold_search(email) COLLATE "C") gin_trgm_ops)
    WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX usage_history_search_campaign_name ON usage_history
    USING gin ((fold_search(campaign_name) COLLATE "C") gin_trgm_ops) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_search_names ON campaigns
    USING gin ((fold_search(name_az || ' ' || name_en || ' ' || name_ru) COLLATE "C") gin_trgm_ops)
    WHERE deleted_at IS NULL;
