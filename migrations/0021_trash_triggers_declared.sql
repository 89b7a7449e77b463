-- The trash's triggers are made from the resources' declarations at each open (src/db/trash.rs),
-- like the activity log's: the hand-written ones of migration 14 go, so a new kind of record in the
-- trash is a line of its resource's declaration instead of a migration per engine.
DROP TRIGGER users_trash_au;
DROP TRIGGER users_trash_ai;
DROP TRIGGER users_trash_ad;
DROP TRIGGER hr_accounts_trash_au;
DROP TRIGGER hr_accounts_trash_ai;
DROP TRIGGER hr_accounts_trash_ad;
DROP TRIGGER assets_trash_au;
DROP TRIGGER assets_trash_ai;
DROP TRIGGER assets_trash_ad;
DROP TRIGGER partners_trash_au;
DROP TRIGGER partners_trash_ai;
DROP TRIGGER partners_trash_ad;
DROP TRIGGER merchants_trash_au;
DROP TRIGGER merchants_trash_ai;
DROP TRIGGER merchants_trash_ad;
DROP TRIGGER campaign_categories_trash_au;
DROP TRIGGER campaign_categories_trash_ai;
DROP TRIGGER campaign_categories_trash_ad;
DROP TRIGGER campaigns_trash_au;
DROP TRIGGER campaigns_trash_ai;
DROP TRIGGER campaigns_trash_ad;
DROP TRIGGER notifications_trash_au;
DROP TRIGGER notifications_trash_ai;
DROP TRIGGER notifications_trash_ad;
DROP TRIGGER employees_trash_au;
DROP TRIGGER employees_trash_ai;
DROP TRIGGER employees_trash_ad;
DROP TRIGGER usage_history_trash_au;
DROP TRIGGER usage_history_trash_ai;
DROP TRIGGER usage_history_trash_ad;
DROP TRIGGER promo_codes_trash_au;
DROP TRIGGER promo_codes_trash_ai;
DROP TRIGGER promo_codes_trash_ad;
