-- Text sorts in the Azerbaijani alphabet (issue 25): every index a text column is sorted by is
-- rebuilt in the `az` collation that perkdesk registers on each connection (src/db/collation.rs),
-- so a sorted page still reads its rows from an index. The list's ORDER BY names the same
-- collation. A tool without the collation (the sqlite3 shell) can read every table but cannot
-- write the rows these indexes cover: `perkdesk sql` runs SQL with it.

DROP INDEX users_staff_first_name;
DROP INDEX users_staff_last_name;
CREATE INDEX users_staff_first_name ON users (first_name COLLATE az, id) WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_staff_last_name ON users (last_name COLLATE az, id) WHERE kind = 'staff' AND deleted_at IS NULL;
-- The e-mail's unique index keeps the column's case-blind comparison (one rule for uniqueness);
-- the list's order by e-mail gets its own.
CREATE INDEX users_staff_email_sorted ON users (email COLLATE az, id) WHERE kind = 'staff' AND deleted_at IS NULL;

DROP INDEX assets_name;
DROP INDEX assets_contact_person;
DROP INDEX assets_email;
CREATE INDEX assets_name ON assets (name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX assets_contact_person ON assets (contact_person COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX assets_email ON assets (contact_person_email COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX partners_name;
DROP INDEX partners_email;
CREATE INDEX partners_name ON partners (name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX partners_email ON partners (email COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX merchants_first_name;
DROP INDEX merchants_last_name;
CREATE INDEX merchants_first_name ON merchants (first_name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX merchants_last_name ON merchants (last_name COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX employees_first_name;
DROP INDEX employees_last_name;
CREATE INDEX employees_first_name ON employees (first_name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX employees_last_name ON employees (last_name COLLATE az, id) WHERE deleted_at IS NULL;
-- employees_email stays: the inbound API finds an employee by e-mail (`email = ?`) through it on
-- every use; the list's order by e-mail has its own index.
CREATE INDEX employees_email_sorted ON employees (email COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX usage_history_employee_email;
DROP INDEX usage_history_asset_name;
DROP INDEX usage_history_partner_name;
DROP INDEX usage_history_campaign_name;
DROP INDEX usage_history_category_name;
CREATE INDEX usage_history_employee_email ON usage_history (employee_email COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_asset_name ON usage_history (asset_name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_partner_name ON usage_history (partner_name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_campaign_name ON usage_history (campaign_name COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_category_name ON usage_history (category_name COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX notifications_header;
CREATE INDEX notifications_header ON notifications (header COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX campaigns_listed_name_az;
DROP INDEX campaigns_listed_name_en;
DROP INDEX campaigns_listed_name_ru;
CREATE INDEX campaigns_listed_name_az ON campaigns (is_confirmed, name_az COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_name_en ON campaigns (is_confirmed, name_en COLLATE az, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_listed_name_ru ON campaigns (is_confirmed, name_ru COLLATE az, id) WHERE deleted_at IS NULL;

DROP INDEX api_clients_name;
CREATE INDEX api_clients_name ON api_clients (name COLLATE az, id);

-- Which collator built the indexes above. A perkdesk whose collator orders differently (newer
-- Unicode data) rebuilds them at start (REINDEX az), and a tool that wrote rows with a stand-in
-- collation clears this row so the next start rebuilds them.
CREATE TABLE collations (
    name    TEXT PRIMARY KEY,
    version TEXT NOT NULL
);
