-- SQLite's migration 17 rebuilds its sort indexes on the `az` collation's sort key. PostgreSQL's
-- stay as they are: built in its ICU `az` collation, which it compares natively (and with
-- abbreviated keys), in the same order.
SELECT 1;
