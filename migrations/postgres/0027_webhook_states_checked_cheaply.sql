-- PostgreSQL's migration 27: nothing to do. SQLite's rebuilds webhook_messages to spell its state
-- check as comparisons (an IN list costs SQLite a temporary b-tree per statement); PostgreSQL
-- checks `state IN (...)` as cheaply, so its table stays as migration 26 made it. The version
-- is kept in step on both engines.
SELECT 1;
