-- The usage list searched by campaign name and read in date (or id) order tests each row's
-- campaign name in that order until a page is full: about fifty rows per match when 2 % of the
-- rows match. With the name inside the order's index, SQLite tests it from the index and reads
-- the table only for the rows that match (10.6 ms -> 0.6 ms per page on 1,000,000 rows).
DROP INDEX usage_history_created;
CREATE INDEX usage_history_created ON usage_history (created_at, id, campaign_name) WHERE deleted_at IS NULL;
DROP INDEX usage_history_live;
CREATE INDEX usage_history_live ON usage_history (id, campaign_name) WHERE deleted_at IS NULL;
