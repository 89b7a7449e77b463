-- The trash (issue 23): one row per soft-deleted record of the kinds an operator deletes, kept
-- by the tables' own triggers in the writing transaction (so every writer, the sqlite3 shell
-- included, keeps it right): a delete adds the record, a restore or a purge removes it. `kind` is
-- the resource as the API spells it (as in the activity log, whose newest delete entry of the
-- record says who deleted it); `label` is the record's name as it was when deleted, so the Trash
-- screen reads one table. The id grows with each delete: newest-first is the primary key's order.
CREATE TABLE trash (
    id         INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL,
    record_id  INTEGER NOT NULL,
    label      TEXT    NOT NULL,
    deleted_at TEXT    NOT NULL,
    UNIQUE (kind, record_id)
);
-- The screen's filter by kind, newest first.
CREATE INDEX trash_kind ON trash (kind, id);
-- The retention's oldest-first walk.
CREATE INDEX trash_deleted_at ON trash (deleted_at);

-- Back-fill: the rows deleted before this migration, oldest first.

INSERT INTO trash (kind, record_id, label, deleted_at)
SELECT kind, record_id, label, deleted_at FROM (
    SELECT 'user' AS kind, d.id AS record_id, COALESCE(d.first_name || ' ' || d.last_name || ' <' || d.email || '>', '') AS label, d.deleted_at FROM users d WHERE d.deleted_at IS NOT NULL AND d.kind = 'staff'
    UNION ALL SELECT 'humanResource', d.id, COALESCE((SELECT u.first_name || ' ' || u.last_name || ' <' || u.email || '>' FROM users u WHERE u.id = d.user_id), ''), d.deleted_at FROM hr_accounts d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'asset', d.id, COALESCE(d.name, ''), d.deleted_at FROM assets d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'partner', d.id, COALESCE(d.name, ''), d.deleted_at FROM partners d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'partner/merchant', d.id, COALESCE(d.first_name || ' ' || d.last_name || ' <' || d.email || '>', ''), d.deleted_at FROM merchants d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'campaign/category', d.id, COALESCE(d.name_en, ''), d.deleted_at FROM campaign_categories d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'campaign', d.id, COALESCE(d.name_en, ''), d.deleted_at FROM campaigns d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'notification', d.id, COALESCE(d.header, ''), d.deleted_at FROM notifications d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'employee', d.id, COALESCE(d.first_name || ' ' || d.last_name || ' <' || d.email || '>', ''), d.deleted_at FROM employees d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'usageHistory', d.id, COALESCE(d.campaign_name || ' · ' || d.employee_email || ' · ' || substr(d.created_at, 1, 10), ''), d.deleted_at FROM usage_history d WHERE d.deleted_at IS NOT NULL
    UNION ALL SELECT 'promoCode', d.id, COALESCE(d.code, ''), d.deleted_at FROM promo_codes d WHERE d.deleted_at IS NOT NULL
) ORDER BY deleted_at, kind, record_id;


-- Per table: a delete (deleted_at set) adds the record, a restore (cleared) or a row's removal
-- takes it out, a row inserted already deleted (an import of history) is added.

CREATE TRIGGER users_trash_au AFTER UPDATE OF deleted_at ON users
WHEN old.deleted_at IS NOT new.deleted_at AND new.kind = 'staff' BEGIN
    DELETE FROM trash WHERE kind = 'user' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'user', new.id, COALESCE(new.first_name || ' ' || new.last_name || ' <' || new.email || '>', ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER users_trash_ai AFTER INSERT ON users WHEN new.deleted_at IS NOT NULL AND new.kind = 'staff' BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('user', new.id, COALESCE(new.first_name || ' ' || new.last_name || ' <' || new.email || '>', ''), new.deleted_at);
END;
CREATE TRIGGER users_trash_ad AFTER DELETE ON users WHEN old.deleted_at IS NOT NULL AND old.kind = 'staff' BEGIN
    DELETE FROM trash WHERE kind = 'user' AND record_id = old.id;
END;

CREATE TRIGGER hr_accounts_trash_au AFTER UPDATE OF deleted_at ON hr_accounts
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'humanResource' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'humanResource', new.id, COALESCE((SELECT u.first_name || ' ' || u.last_name || ' <' || u.email || '>' FROM users u WHERE u.id = new.user_id), ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER hr_accounts_trash_ai AFTER INSERT ON hr_accounts WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('humanResource', new.id, COALESCE((SELECT u.first_name || ' ' || u.last_name || ' <' || u.email || '>' FROM users u WHERE u.id = new.user_id), ''), new.deleted_at);
END;
CREATE TRIGGER hr_accounts_trash_ad AFTER DELETE ON hr_accounts WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'humanResource' AND record_id = old.id;
END;

CREATE TRIGGER assets_trash_au AFTER UPDATE OF deleted_at ON assets
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'asset' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'asset', new.id, COALESCE(new.name, ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER assets_trash_ai AFTER INSERT ON assets WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('asset', new.id, COALESCE(new.name, ''), new.deleted_at);
END;
CREATE TRIGGER assets_trash_ad AFTER DELETE ON assets WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'asset' AND record_id = old.id;
END;

CREATE TRIGGER partners_trash_au AFTER UPDATE OF deleted_at ON partners
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'partner' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'partner', new.id, COALESCE(new.name, ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER partners_trash_ai AFTER INSERT ON partners WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('partner', new.id, COALESCE(new.name, ''), new.deleted_at);
END;
CREATE TRIGGER partners_trash_ad AFTER DELETE ON partners WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'partner' AND record_id = old.id;
END;

CREATE TRIGGER merchants_trash_au AFTER UPDATE OF deleted_at ON merchants
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'partner/merchant' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'partner/merchant', new.id, COALESCE(new.first_name || ' ' || new.last_name || ' <' || new.email || '>', ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER merchants_trash_ai AFTER INSERT ON merchants WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('partner/merchant', new.id, COALESCE(new.first_name || ' ' || new.last_name || ' <' || new.email || '>', ''), new.deleted_at);
END;
CREATE TRIGGER merchants_trash_ad AFTER DELETE ON merchants WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'partner/merchant' AND record_id = old.id;
END;

CREATE TRIGGER campaign_categories_trash_au AFTER UPDATE OF deleted_at ON campaign_categories
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'campaign/category' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'campaign/category', new.id, COALESCE(new.name_en, ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER campaign_categories_trash_ai AFTER INSERT ON campaign_categories WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('campaign/category', new.id, COALESCE(new.name_en, ''), new.deleted_at);
END;
CREATE TRIGGER campaign_categories_trash_ad AFTER DELETE ON campaign_categories WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'campaign/category' AND record_id = old.id;
END;

CREATE TRIGGER campaigns_trash_au AFTER UPDATE OF deleted_at ON campaigns
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'campaign' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'campaign', new.id, COALESCE(new.name_en, ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER campaigns_trash_ai AFTER INSERT ON campaigns WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('campaign', new.id, COALESCE(new.name_en, ''), new.deleted_at);
END;
CREATE TRIGGER campaigns_trash_ad AFTER DELETE ON campaigns WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'campaign' AND record_id = old.id;
END;

CREATE TRIGGER notifications_trash_au AFTER UPDATE OF deleted_at ON notifications
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'notification' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'notification', new.id, COALESCE(new.header, ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER notifications_trash_ai AFTER INSERT ON notifications WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('notification', new.id, COALESCE(new.header, ''), new.deleted_at);
END;
CREATE TRIGGER notifications_trash_ad AFTER DELETE ON notifications WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'notification' AND record_id = old.id;
END;

CREATE TRIGGER employees_trash_au AFTER UPDATE OF deleted_at ON employees
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'employee' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'employee', new.id, COALESCE(new.first_name || ' ' || new.last_name || ' <' || new.email || '>', ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER employees_trash_ai AFTER INSERT ON employees WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('employee', new.id, COALESCE(new.first_name || ' ' || new.last_name || ' <' || new.email || '>', ''), new.deleted_at);
END;
CREATE TRIGGER employees_trash_ad AFTER DELETE ON employees WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'employee' AND record_id = old.id;
END;

CREATE TRIGGER usage_history_trash_au AFTER UPDATE OF deleted_at ON usage_history
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'usageHistory' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'usageHistory', new.id, COALESCE(new.campaign_name || ' · ' || new.employee_email || ' · ' || substr(new.created_at, 1, 10), ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER usage_history_trash_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('usageHistory', new.id, COALESCE(new.campaign_name || ' · ' || new.employee_email || ' · ' || substr(new.created_at, 1, 10), ''), new.deleted_at);
END;
CREATE TRIGGER usage_history_trash_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'usageHistory' AND record_id = old.id;
END;

CREATE TRIGGER promo_codes_trash_au AFTER UPDATE OF deleted_at ON promo_codes
WHEN old.deleted_at IS NOT new.deleted_at BEGIN
    DELETE FROM trash WHERE kind = 'promoCode' AND record_id = old.id;
    INSERT INTO trash (kind, record_id, label, deleted_at)
    SELECT 'promoCode', new.id, COALESCE(new.code, ''), new.deleted_at WHERE new.deleted_at IS NOT NULL;
END;
CREATE TRIGGER promo_codes_trash_ai AFTER INSERT ON promo_codes WHEN new.deleted_at IS NOT NULL BEGIN
    INSERT INTO trash (kind, record_id, label, deleted_at) VALUES ('promoCode', new.id, COALESCE(new.code, ''), new.deleted_at);
END;
CREATE TRIGGER promo_codes_trash_ad AFTER DELETE ON promo_codes WHEN old.deleted_at IS NOT NULL BEGIN
    DELETE FROM trash WHERE kind = 'promoCode' AND record_id = old.id;
END;
