-- Each campaign list is one value of is_confirmed (Campaigns 1, Expected Campaigns 0), so the
-- indexes its sorts walk lead with it: `is_confirmed = 1 ORDER BY name_en, id` reads the first
-- page straight from (is_confirmed, name_en, id). With the sort column first (0001, 0006) SQLite
-- preferred the is_confirmed index and sorted every campaign of the list for each page
-- (10,000 campaigns: 48 ms p50 at 32 connections, against 3 ms in id order). The filters on
-- discount and expiry date use the new indexes the same way, so the old ones go.

DROP INDEX campaigns_name_az;
DROP INDEX campaigns_name_en;
DROP INDEX campaigns_name_ru;
DROP INDEX campaigns_discount;
DROP INDEX campaigns_expire;
CREATE INDEX campaigns_listed_name_az ON campaigns (is_confirmed, name_az, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_name_en ON campaigns (is_confirmed, name_en, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_name_ru ON campaigns (is_confirmed, name_ru, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_discount ON campaigns (is_confirmed, discount_percent, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_start ON campaigns (is_confirmed, start_date, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_expire ON campaigns (is_confirmed, expire_date, id) WHERE deleted_at IS NULL;
