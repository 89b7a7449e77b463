-- SQLite's migration 21: the trash's triggers are made from the resources' declarations at each
-- start (src/db/trash.rs); the hand-written ones of migration 16 go. `track_trash()` stays: the
-- made triggers call it, with each table's `trash_label`, made again with them.
DROP TRIGGER users_trash ON users;
DROP TRIGGER users_trash_update ON users;
DROP TRIGGER users_trash_delete ON users;
DROP TRIGGER hr_accounts_trash ON hr_accounts;
DROP TRIGGER assets_trash ON assets;
DROP TRIGGER partners_trash ON partners;
DROP TRIGGER merchants_trash ON merchants;
DROP TRIGGER campaign_categories_trash ON campaign_categories;
DROP TRIGGER campaigns_trash ON campaigns;
DROP TRIGGER notifications_trash ON notifications;
DROP TRIGGER employees_trash ON employees;
DROP TRIGGER usage_history_trash ON usage_history;
DROP TRIGGER promo_codes_trash ON promo_codes;
