-- perkdesk schema: every entity of both specification documents.
-- Timestamps are UTC ISO 8601 text ('2026-11-22T03:19:13.123Z'); deletes are soft (deleted_at).
-- row_counts holds the live-row total of each list, kept by triggers in the writing transaction,
-- so an unfiltered list never counts its table.

CREATE TABLE app_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE row_counts (
    name TEXT PRIMARY KEY,
    n    INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Uploaded images, served at /cdn/{id}.{ext}.
CREATE TABLE files (
    id           INTEGER PRIMARY KEY,
    content_type TEXT    NOT NULL,
    ext          TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    sha256       TEXT    NOT NULL,
    bytes        BLOB    NOT NULL,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Back-office staff (kind 'staff') and HR-portal logins (kind 'hr'); only staff sign in here.
CREATE TABLE users (
    id             INTEGER PRIMARY KEY,
    kind           TEXT    NOT NULL DEFAULT 'staff' CHECK (kind IN ('staff', 'hr')),
    first_name     TEXT    NOT NULL,
    last_name      TEXT    NOT NULL,
    email          TEXT    NOT NULL COLLATE NOCASE,
    phone          TEXT    NOT NULL DEFAULT '',
    role_id        INTEGER NOT NULL DEFAULT 1 CHECK (role_id IN (0, 1, 2)),
    password_hash  TEXT    NOT NULL,
    totp_secret    TEXT    NOT NULL,
    totp_last_step INTEGER NOT NULL DEFAULT 0,
    locked_until   TEXT,
    is_active      INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at     TEXT
);
-- E-mails are unique per kind among live users; for staff the same index serves the e-mail sort.
CREATE UNIQUE INDEX users_email_live ON users (kind, email) WHERE deleted_at IS NULL;
CREATE INDEX users_staff_first_name ON users (first_name, id) WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_staff_last_name ON users (last_name, id) WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_staff_phone ON users (phone, id) WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_staff_active ON users (is_active, id) WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_staff_role ON users (role_id, id) WHERE kind = 'staff' AND deleted_at IS NULL;
CREATE INDEX users_staff_live ON users (id) WHERE kind = 'staff' AND deleted_at IS NULL;

CREATE TABLE sessions (
    id             TEXT PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users (id),
    ip             TEXT    NOT NULL DEFAULT '',
    user_agent     TEXT    NOT NULL DEFAULT '',
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at     TEXT,
    revoked_reason TEXT
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL;

-- Single-use refresh tokens, stored hashed; a spent token presented again revokes its session.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at TEXT NOT NULL,
    used_at    TEXT
) WITHOUT ROWID;
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

CREATE TABLE login_failures (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX login_failures_user_at ON login_failures (user_id, at);

CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at TEXT    NOT NULL,
    used_at    TEXT
) WITHOUT ROWID;

-- x-requestid store: a repeated mutation returns the stored answer.
CREATE TABLE idempotency_keys (
    request_id   TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    method       TEXT    NOT NULL,
    path         TEXT    NOT NULL,
    payload_hash TEXT    NOT NULL,
    status       INTEGER,
    content_type TEXT,
    body         BLOB,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (request_id, user_id)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE cities (
    id      INTEGER PRIMARY KEY,
    name_az TEXT NOT NULL,
    name_en TEXT NOT NULL,
    name_ru TEXT NOT NULL
);

CREATE TABLE assets (
    id                          INTEGER PRIMARY KEY,
    name                        TEXT    NOT NULL,
    contact_person              TEXT    NOT NULL,
    contact_person_phone_number TEXT    NOT NULL,
    contact_person_email        TEXT    NOT NULL COLLATE NOCASE,
    barcode_prefix              TEXT    NOT NULL,
    file_id                     INTEGER REFERENCES files (id),
    is_active                   INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at                  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at                  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at                  TEXT
);
CREATE INDEX assets_name ON assets (name, id) WHERE deleted_at IS NULL;
CREATE INDEX assets_contact_person ON assets (contact_person, id) WHERE deleted_at IS NULL;
CREATE INDEX assets_phone ON assets (contact_person_phone_number, id) WHERE deleted_at IS NULL;
CREATE INDEX assets_email ON assets (contact_person_email, id) WHERE deleted_at IS NULL;
CREATE INDEX assets_active ON assets (is_active, id) WHERE deleted_at IS NULL;

-- An HR account is an HR-portal login (users row of kind 'hr') tied to one asset.
CREATE TABLE hr_accounts (
    id               INTEGER PRIMARY KEY,
    user_id          INTEGER NOT NULL UNIQUE REFERENCES users (id),
    asset_id         INTEGER NOT NULL REFERENCES assets (id),
    is_mfa_active    INTEGER NOT NULL DEFAULT 0 CHECK (is_mfa_active IN (0, 1)),
    is_employee_seen INTEGER NOT NULL DEFAULT 0 CHECK (is_employee_seen IN (0, 1)),
    is_active        INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at       TEXT
);
CREATE INDEX hr_accounts_asset ON hr_accounts (asset_id) WHERE deleted_at IS NULL;
CREATE INDEX hr_accounts_created ON hr_accounts (created_at) WHERE deleted_at IS NULL;

CREATE TABLE partners (
    id                         INTEGER PRIMARY KEY,
    name                       TEXT    NOT NULL,
    contact_person_first_name  TEXT    NOT NULL,
    contact_person_last_name   TEXT    NOT NULL,
    phone_number               TEXT    NOT NULL,
    email                      TEXT    NOT NULL COLLATE NOCASE,
    file_id                    INTEGER REFERENCES files (id),
    is_promo_code_using        INTEGER NOT NULL DEFAULT 0 CHECK (is_promo_code_using IN (0, 1)),
    promo_code_version         INTEGER CHECK (promo_code_version IN (1, 2)),
    is_active                  INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at                 TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at                 TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at                 TEXT,
    CHECK ((is_promo_code_using = 0 AND promo_code_version IS NULL)
        OR (is_promo_code_using = 1 AND promo_code_version IS NOT NULL))
);
CREATE INDEX partners_name ON partners (name, id) WHERE deleted_at IS NULL;
CREATE INDEX partners_contact ON partners (contact_person_first_name, contact_person_last_name, id) WHERE deleted_at IS NULL;
CREATE INDEX partners_phone ON partners (phone_number, id) WHERE deleted_at IS NULL;
CREATE INDEX partners_email ON partners (email, id) WHERE deleted_at IS NULL;
CREATE INDEX partners_promo ON partners (is_promo_code_using, id) WHERE deleted_at IS NULL;
CREATE INDEX partners_active ON partners (is_active, id) WHERE deleted_at IS NULL;

-- A partner's branch in a city.
CREATE TABLE partner_cities (
    id         INTEGER PRIMARY KEY,
    partner_id INTEGER NOT NULL REFERENCES partners (id),
    city_id    INTEGER NOT NULL REFERENCES cities (id),
    address    TEXT    NOT NULL,
    latitude   REAL    NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude  REAL    NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at TEXT
);
CREATE INDEX partner_cities_partner ON partner_cities (partner_id) WHERE deleted_at IS NULL;

-- People attached to a partner and one of its branches; they do not sign in to this panel.
CREATE TABLE merchants (
    id              INTEGER PRIMARY KEY,
    partner_id      INTEGER NOT NULL REFERENCES partners (id),
    partner_city_id INTEGER NOT NULL REFERENCES partner_cities (id),
    first_name      TEXT    NOT NULL,
    last_name       TEXT    NOT NULL,
    email           TEXT    NOT NULL COLLATE NOCASE,
    phone           TEXT    NOT NULL,
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at      TEXT
);
CREATE UNIQUE INDEX merchants_email_live ON merchants (email) WHERE deleted_at IS NULL;
CREATE INDEX merchants_partner ON merchants (partner_id, id) WHERE deleted_at IS NULL;
CREATE INDEX merchants_first_name ON merchants (first_name, id) WHERE deleted_at IS NULL;
CREATE INDEX merchants_last_name ON merchants (last_name, id) WHERE deleted_at IS NULL;
CREATE INDEX merchants_phone ON merchants (phone, id) WHERE deleted_at IS NULL;

CREATE TABLE campaign_categories (
    id            INTEGER PRIMARY KEY,
    name_az       TEXT    NOT NULL,
    name_en       TEXT    NOT NULL,
    name_ru       TEXT    NOT NULL,
    photo_file_id INTEGER REFERENCES files (id),
    order_no      INTEGER NOT NULL DEFAULT 0,
    is_active     INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at    TEXT
);
CREATE INDEX campaign_categories_order ON campaign_categories (order_no, id) WHERE deleted_at IS NULL;

CREATE TABLE campaigns (
    id                  INTEGER PRIMARY KEY,
    partner_id          INTEGER NOT NULL REFERENCES partners (id),
    campaign_category_id INTEGER NOT NULL REFERENCES campaign_categories (id),
    discount_percent    INTEGER NOT NULL CHECK (discount_percent BETWEEN 0 AND 100),
    start_date          TEXT    NOT NULL,
    expire_date         TEXT    NOT NULL,
    file_id             INTEGER REFERENCES files (id),
    background_file_id  INTEGER REFERENCES files (id),
    name_az             TEXT    NOT NULL,
    name_en             TEXT    NOT NULL,
    name_ru             TEXT    NOT NULL,
    description_az      TEXT    NOT NULL,
    description_en      TEXT    NOT NULL,
    description_ru      TEXT    NOT NULL,
    special_offer       INTEGER NOT NULL DEFAULT 0 CHECK (special_offer IN (0, 1)),
    is_premium          INTEGER NOT NULL DEFAULT 0 CHECK (is_premium IN (0, 1)),
    is_trend            INTEGER NOT NULL DEFAULT 0 CHECK (is_trend IN (0, 1)),
    is_active           INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    is_confirmed        INTEGER NOT NULL DEFAULT 1 CHECK (is_confirmed IN (0, 1)),
    order_no            INTEGER NOT NULL DEFAULT 0,
    notification_status INTEGER NOT NULL DEFAULT 0 CHECK (notification_status IN (0, 1)),
    created_at          TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at          TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at          TEXT,
    CHECK (start_date <= expire_date)
);
CREATE INDEX campaigns_confirmed ON campaigns (is_confirmed, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_partner ON campaigns (partner_id, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_category_order ON campaigns (campaign_category_id, order_no) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_discount ON campaigns (discount_percent, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_expire ON campaigns (expire_date, id) WHERE deleted_at IS NULL;
CREATE INDEX campaigns_name_az ON campaigns (name_az, id) WHERE deleted_at IS NULL;

CREATE TABLE campaign_assets (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    asset_id    INTEGER NOT NULL REFERENCES assets (id),
    PRIMARY KEY (campaign_id, asset_id)
) WITHOUT ROWID;
CREATE INDEX campaign_assets_asset ON campaign_assets (asset_id);

-- Employees of client organisations (assets); they use campaigns through the mobile app.
CREATE TABLE employees (
    id         INTEGER PRIMARY KEY,
    asset_id   INTEGER NOT NULL REFERENCES assets (id),
    first_name TEXT    NOT NULL,
    last_name  TEXT    NOT NULL,
    email      TEXT    NOT NULL COLLATE NOCASE,
    phone      TEXT    NOT NULL DEFAULT '',
    is_active  INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at TEXT
);
CREATE INDEX employees_asset ON employees (asset_id, id) WHERE deleted_at IS NULL;
CREATE INDEX employees_first_name ON employees (first_name, id) WHERE deleted_at IS NULL;
CREATE INDEX employees_last_name ON employees (last_name, id) WHERE deleted_at IS NULL;
CREATE INDEX employees_email ON employees (email, id) WHERE deleted_at IS NULL;
CREATE INDEX employees_active ON employees (is_active, id) WHERE deleted_at IS NULL;

-- Employees' wishes for new partners or campaigns (/requests).
CREATE TABLE wish_list_requests (
    id           INTEGER PRIMARY KEY,
    employee_id  INTEGER NOT NULL REFERENCES employees (id),
    text         TEXT    NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
    request_date TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at   TEXT
);
CREATE INDEX wish_list_requests_date ON wish_list_requests (request_date, id) WHERE deleted_at IS NULL;
CREATE INDEX wish_list_requests_employee ON wish_list_requests (employee_id) WHERE deleted_at IS NULL;

-- Businesses applying to become merchants (/by-merchant).
CREATE TABLE merchant_applications (
    id           INTEGER PRIMARY KEY,
    partner_name TEXT    NOT NULL,
    full_name    TEXT    NOT NULL,
    email        TEXT    NOT NULL COLLATE NOCASE,
    phone        TEXT    NOT NULL,
    file_id      INTEGER REFERENCES files (id),
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at   TEXT
);

CREATE TABLE merchant_application_cities (
    application_id INTEGER NOT NULL REFERENCES merchant_applications (id),
    city_id        INTEGER NOT NULL REFERENCES cities (id),
    PRIMARY KEY (application_id, city_id)
) WITHOUT ROWID;

-- One use of a campaign by an employee. Names are kept as they were at the time of use,
-- so the history reads the same after a rename and every column sorts on an index.
CREATE TABLE usage_history (
    id               INTEGER PRIMARY KEY,
    employee_id      INTEGER NOT NULL REFERENCES employees (id),
    asset_id         INTEGER NOT NULL REFERENCES assets (id),
    partner_id       INTEGER NOT NULL REFERENCES partners (id),
    campaign_id      INTEGER NOT NULL REFERENCES campaigns (id),
    category_id      INTEGER NOT NULL REFERENCES campaign_categories (id),
    employee_email   TEXT    NOT NULL,
    asset_name       TEXT    NOT NULL,
    partner_name     TEXT    NOT NULL,
    campaign_name    TEXT    NOT NULL,
    category_name    TEXT    NOT NULL,
    discount_percent INTEGER NOT NULL,
    status           INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1)),
    rating           INTEGER CHECK (rating BETWEEN 1 AND 5),
    created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at       TEXT
);
CREATE INDEX usage_history_live ON usage_history (id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_created ON usage_history (created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_asset ON usage_history (asset_id, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_partner ON usage_history (partner_id, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_employee ON usage_history (employee_id, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_campaign ON usage_history (campaign_id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_category ON usage_history (category_id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_employee_email ON usage_history (employee_email, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_asset_name ON usage_history (asset_name, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_partner_name ON usage_history (partner_name, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_campaign_name ON usage_history (campaign_name, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_category_name ON usage_history (category_name, id) WHERE deleted_at IS NULL;
CREATE INDEX usage_history_discount ON usage_history (discount_percent, id) WHERE deleted_at IS NULL;

CREATE TABLE notifications (
    id          INTEGER PRIMARY KEY,
    header      TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    file_id     INTEGER REFERENCES files (id),
    type        INTEGER NOT NULL CHECK (type IN (1, 2)),
    category_id INTEGER REFERENCES campaign_categories (id),
    campaign_id INTEGER REFERENCES campaigns (id),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at  TEXT
);
CREATE INDEX notifications_header ON notifications (header, id) WHERE deleted_at IS NULL;

CREATE TABLE complaint_reasons (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE complaints (
    id          INTEGER PRIMARY KEY,
    employee_id INTEGER REFERENCES employees (id),
    full_name   TEXT    NOT NULL,
    email       TEXT    NOT NULL,
    phone       TEXT    NOT NULL,
    reason_id   INTEGER NOT NULL REFERENCES complaint_reasons (id),
    description TEXT    NOT NULL,
    is_read     INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1)),
    record_date TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at  TEXT
);
CREATE INDEX complaints_record_date ON complaints (record_date, id) WHERE deleted_at IS NULL;
CREATE INDEX complaints_read ON complaints (is_read, id) WHERE deleted_at IS NULL;

CREATE TABLE promo_codes (
    id          INTEGER PRIMARY KEY,
    partner_id  INTEGER NOT NULL REFERENCES partners (id),
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
    code        TEXT    NOT NULL UNIQUE CHECK (length(code) = 8),
    is_used     INTEGER NOT NULL DEFAULT 0 CHECK (is_used IN (0, 1)),
    used_date   TEXT,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    deleted_at  TEXT
);
CREATE INDEX promo_codes_campaign ON promo_codes (campaign_id, id) WHERE deleted_at IS NULL;
CREATE INDEX promo_codes_partner ON promo_codes (partner_id, id) WHERE deleted_at IS NULL;
CREATE INDEX promo_codes_used ON promo_codes (is_used, id) WHERE deleted_at IS NULL;

-- Substring search ("contains" filters) through trigram indexes instead of LIKE scans.
-- Each index holds exactly the rows of its list (live staff; live usage records), so a search
-- alone is counted and paged from the index without visiting the table.
CREATE VIRTUAL TABLE users_search USING fts5 (
    first_name, last_name, email, content = 'users', content_rowid = 'id', tokenize = 'trigram'
);
CREATE TRIGGER users_search_ai AFTER INSERT ON users WHEN new.kind = 'staff' AND new.deleted_at IS NULL BEGIN
    INSERT INTO users_search (rowid, first_name, last_name, email)
    VALUES (new.id, new.first_name, new.last_name, new.email);
END;
CREATE TRIGGER users_search_ad AFTER DELETE ON users WHEN old.kind = 'staff' AND old.deleted_at IS NULL BEGIN
    INSERT INTO users_search (users_search, rowid, first_name, last_name, email)
    VALUES ('delete', old.id, old.first_name, old.last_name, old.email);
END;
CREATE TRIGGER users_search_au AFTER UPDATE OF first_name, last_name, email, kind, deleted_at ON users BEGIN
    INSERT INTO users_search (users_search, rowid, first_name, last_name, email)
    SELECT 'delete', old.id, old.first_name, old.last_name, old.email
    WHERE old.kind = 'staff' AND old.deleted_at IS NULL;
    INSERT INTO users_search (rowid, first_name, last_name, email)
    SELECT new.id, new.first_name, new.last_name, new.email
    WHERE new.kind = 'staff' AND new.deleted_at IS NULL;
END;

CREATE VIRTUAL TABLE usage_history_search USING fts5 (
    campaign_name, content = 'usage_history', content_rowid = 'id', tokenize = 'trigram'
);
CREATE TRIGGER usage_history_search_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO usage_history_search (rowid, campaign_name) VALUES (new.id, new.campaign_name);
END;
CREATE TRIGGER usage_history_search_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL BEGIN
    INSERT INTO usage_history_search (usage_history_search, rowid, campaign_name)
    VALUES ('delete', old.id, old.campaign_name);
END;
CREATE TRIGGER usage_history_search_au AFTER UPDATE OF campaign_name, deleted_at ON usage_history BEGIN
    INSERT INTO usage_history_search (usage_history_search, rowid, campaign_name)
    SELECT 'delete', old.id, old.campaign_name WHERE old.deleted_at IS NULL;
    INSERT INTO usage_history_search (rowid, campaign_name)
    SELECT new.id, new.campaign_name WHERE new.deleted_at IS NULL;
END;

-- Live-row totals. Users are counted per kind, campaigns per confirmation state.
CREATE TRIGGER users_count_ai AFTER INSERT ON users WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('users:' || new.kind, 1)
    ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER users_count_au AFTER UPDATE OF deleted_at, kind ON users BEGIN
    UPDATE row_counts SET n = n - 1 WHERE old.deleted_at IS NULL AND name = 'users:' || old.kind;
    INSERT INTO row_counts (name, n) SELECT 'users:' || new.kind, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER users_count_ad AFTER DELETE ON users WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'users:' || old.kind;
END;

CREATE TRIGGER campaigns_count_ai AFTER INSERT ON campaigns WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('campaigns:' || new.is_confirmed, 1)
    ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER campaigns_count_au AFTER UPDATE OF deleted_at, is_confirmed ON campaigns BEGIN
    UPDATE row_counts SET n = n - 1 WHERE old.deleted_at IS NULL AND name = 'campaigns:' || old.is_confirmed;
    INSERT INTO row_counts (name, n) SELECT 'campaigns:' || new.is_confirmed, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER campaigns_count_ad AFTER DELETE ON campaigns WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'campaigns:' || old.is_confirmed;
END;

-- Live-row totals of the tables counted as a whole.
CREATE TRIGGER assets_count_ai AFTER INSERT ON assets WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('assets', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER assets_count_au AFTER UPDATE OF deleted_at ON assets WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('assets', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER assets_count_ad AFTER DELETE ON assets WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'assets';
END;
CREATE TRIGGER hr_accounts_count_ai AFTER INSERT ON hr_accounts WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('hr_accounts', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER hr_accounts_count_au AFTER UPDATE OF deleted_at ON hr_accounts WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('hr_accounts', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER hr_accounts_count_ad AFTER DELETE ON hr_accounts WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'hr_accounts';
END;
CREATE TRIGGER partners_count_ai AFTER INSERT ON partners WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('partners', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER partners_count_au AFTER UPDATE OF deleted_at ON partners WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('partners', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER partners_count_ad AFTER DELETE ON partners WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'partners';
END;
CREATE TRIGGER merchants_count_ai AFTER INSERT ON merchants WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('merchants', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER merchants_count_au AFTER UPDATE OF deleted_at ON merchants WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('merchants', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER merchants_count_ad AFTER DELETE ON merchants WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'merchants';
END;
CREATE TRIGGER campaign_categories_count_ai AFTER INSERT ON campaign_categories WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('campaign_categories', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER campaign_categories_count_au AFTER UPDATE OF deleted_at ON campaign_categories WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('campaign_categories', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER campaign_categories_count_ad AFTER DELETE ON campaign_categories WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'campaign_categories';
END;
CREATE TRIGGER employees_count_ai AFTER INSERT ON employees WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('employees', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER employees_count_au AFTER UPDATE OF deleted_at ON employees WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('employees', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER employees_count_ad AFTER DELETE ON employees WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'employees';
END;
CREATE TRIGGER wish_list_requests_count_ai AFTER INSERT ON wish_list_requests WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('wish_list_requests', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER wish_list_requests_count_au AFTER UPDATE OF deleted_at ON wish_list_requests WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('wish_list_requests', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER wish_list_requests_count_ad AFTER DELETE ON wish_list_requests WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'wish_list_requests';
END;
CREATE TRIGGER merchant_applications_count_ai AFTER INSERT ON merchant_applications WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('merchant_applications', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER merchant_applications_count_au AFTER UPDATE OF deleted_at ON merchant_applications WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('merchant_applications', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER merchant_applications_count_ad AFTER DELETE ON merchant_applications WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'merchant_applications';
END;
CREATE TRIGGER usage_history_count_ai AFTER INSERT ON usage_history WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('usage_history', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER usage_history_count_au AFTER UPDATE OF deleted_at ON usage_history WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('usage_history', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER usage_history_count_ad AFTER DELETE ON usage_history WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'usage_history';
END;
CREATE TRIGGER notifications_count_ai AFTER INSERT ON notifications WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('notifications', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER notifications_count_au AFTER UPDATE OF deleted_at ON notifications WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('notifications', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER notifications_count_ad AFTER DELETE ON notifications WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'notifications';
END;
CREATE TRIGGER complaints_count_ai AFTER INSERT ON complaints WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('complaints', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER complaints_count_au AFTER UPDATE OF deleted_at ON complaints WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('complaints', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER complaints_count_ad AFTER DELETE ON complaints WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'complaints';
END;
CREATE TRIGGER promo_codes_count_ai AFTER INSERT ON promo_codes WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO row_counts (name, n) VALUES ('promo_codes', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER promo_codes_count_au AFTER UPDATE OF deleted_at ON promo_codes WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL) BEGIN
    INSERT INTO row_counts (name, n) VALUES ('promo_codes', CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END)
    ON CONFLICT (name) DO UPDATE SET n = n + excluded.n;
END;
CREATE TRIGGER promo_codes_count_ad AFTER DELETE ON promo_codes WHEN old.deleted_at IS NULL BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'promo_codes';
END;

INSERT INTO cities (id, name_az, name_en, name_ru) VALUES
    (1, 'Bakı', 'Baku', 'Баку'),
    (2, 'Gəncə', 'Ganja', 'Гянджа'),
    (3, 'Sumqayıt', 'Sumgait', 'Сумгаит'),
    (4, 'Mingəçevir', 'Mingachevir', 'Мингячевир'),
    (5, 'Lənkəran', 'Lankaran', 'Ленкорань'),
    (6, 'Şəki', 'Shaki', 'Шеки'),
    (7, 'Naxçıvan', 'Nakhchivan', 'Нахичевань'),
    (8, 'Şirvan', 'Shirvan', 'Ширван'),
    (9, 'Quba', 'Guba', 'Губа'),
    (10, 'Qəbələ', 'Gabala', 'Габала'),
    (11, 'Şamaxı', 'Shamakhi', 'Шамахы'),
    (12, 'Xaçmaz', 'Khachmaz', 'Хачмаз'),
    (13, 'Zaqatala', 'Zagatala', 'Закатала'),
    (14, 'Yevlax', 'Yevlakh', 'Евлах'),
    (15, 'Xankəndi', 'Khankendi', 'Ханкенди'),
    (16, 'Şuşa', 'Shusha', 'Шуша');

INSERT INTO complaint_reasons (id, name) VALUES
    (1, 'Discount not honoured'),
    (2, 'Wrong discount amount'),
    (3, 'Staff behaviour'),
    (4, 'App problem'),
    (5, 'Other');
