-- SQLite's sort indexes are built on the `az` collation's sort key (`az_key(column)`, registered
-- by perkdesk on each connection, src/db/collation.rs) instead of on the column in `COLLATE az`:
-- the same order, but an insert computes one key per sorted column where the collated index
-- called the collator at every comparison on its way down the tree (on the inbound write's five
-- usage-history indexes, 8.8 % of its instructions with 100,000 rows). The lists' ORDER BY names
-- the same expression. A tool without the function (the sqlite3 shell) can read every table but cannot
-- write the rows these indexes cover: `perkdesk sql` runs SQL with it.

DROP INDEX users_staff_first_name;
CREATE INDEX users_staff_first_name ON users (az_key(first_name), id) WHERE kind = 'staff' AND deleted_at IS NULL;

DROP INDEX users_staff_last_name;
CREATE INDEX users_staff_last_name ON users (az_key(last_name), id) WHERE kind = 'staff' AND deleted_at IS NULL;

DROP INDEX users_staff_email_sorted;
CREATE INDEX users_staff_email_sorted ON users (az_key(email), id) WHERE kind = 'staff' AND deleted_at IS NULL;

DROP INDEX assets_name;
CREATE INDEX assets_name ON assets (az_key(name), id) WHERE deleted_at IS NULL;

DROP INDEX assets_contact_person;
CREATE INDEX assets_contact_person ON assets (az_key(contact_person), id) WHERE deleted_at IS NULL;

DROP INDEX assets_email;
CREATE INDEX assets_email ON assets (az_key(contact_person_email), id) WHERE deleted_at IS NULL;

DROP INDEX partners_name;
CREATE INDEX partners_name ON partners (az_key(name), id) WHERE deleted_at IS NULL;

DROP INDEX partners_email;
CREATE INDEX partners_email ON partners (az_key(email), id) WHERE deleted_at IS NULL;

DROP INDEX merchants_first_name;
CREATE INDEX merchants_first_name ON merchants (az_key(first_name), id) WHERE deleted_at IS NULL;

DROP INDEX merchants_last_name;
CREATE INDEX merchants_last_name ON merchants (az_key(last_name), id) WHERE deleted_at IS NULL;

DROP INDEX employees_first_name;
CREATE INDEX employees_first_name ON employees (az_key(first_name), id) WHERE deleted_at IS NULL;

DROP INDEX employees_last_name;
CREATE INDEX employees_last_name ON employees (az_key(last_name), id) WHERE deleted_at IS NULL;

DROP INDEX employees_email_sorted;
CREATE INDEX employees_email_sorted ON employees (az_key(email), id) WHERE deleted_at IS NULL;

DROP INDEX usage_history_employee_email;
CREATE INDEX usage_history_employee_email ON usage_history (az_key(employee_email), id) WHERE deleted_at IS NULL;

DROP INDEX usage_history_asset_name;
CREATE INDEX usage_history_asset_name ON usage_history (az_key(asset_name), id) WHERE deleted_at IS NULL;

DROP INDEX usage_history_partner_name;
CREATE INDEX usage_history_partner_name ON usage_history (az_key(partner_name), id) WHERE deleted_at IS NULL;

DROP INDEX usage_history_campaign_name;
CREATE INDEX usage_history_campaign_name ON usage_history (az_key(campaign_name), id) WHERE deleted_at IS NULL;

DROP INDEX usage_history_category_name;
CREATE INDEX usage_history_category_name ON usage_history (az_key(category_name), id) WHERE deleted_at IS NULL;

DROP INDEX notifications_header;
CREATE INDEX notifications_header ON notifications (az_key(header), id) WHERE deleted_at IS NULL;

DROP INDEX campaigns_listed_name_az;
CREATE INDEX campaigns_listed_name_az ON campaigns (is_confirmed, az_key(name_az), id) WHERE deleted_at IS NULL;

DROP INDEX campaigns_listed_name_en;
CREATE INDEX campaigns_listed_name_en ON campaigns (is_confirmed, az_key(name_en), id) WHERE deleted_at IS NULL;

DROP INDEX campaigns_listed_name_ru;
CREATE INDEX campaigns_listed_name_ru ON campaigns (is_confirmed, az_key(name_ru), id) WHERE deleted_at IS NULL;

DROP INDEX api_clients_name;
CREATE INDEX api_clients_name ON api_clients (az_key(name), id);
