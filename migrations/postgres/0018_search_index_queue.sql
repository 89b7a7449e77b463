-- SQLite's migration 18 queues its FTS5 search index entries for the group commit's COMMIT.
-- PostgreSQL's trigram indexes are built on the tables themselves and written with each row, so
-- there is nothing to queue.
SELECT 1;
