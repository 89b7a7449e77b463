-- API clients: the operator's employee app and partners' systems call the inbound API with a
-- key `pk_...` that is shown once and stored only as its SHA-256 hash. A client is of one kind:
-- the employee app, or one partner (partner_id). Revoked clients stay listed (revoked_at).
CREATE TABLE api_clients (
    id                    INTEGER PRIMARY KEY,
    name                  TEXT    NOT NULL,
    kind                  TEXT    NOT NULL CHECK (kind IN ('employee-app', 'partner')),
    partner_id            INTEGER REFERENCES partners (id),
    key_hash              TEXT    NOT NULL UNIQUE,
    -- The key's first characters (`pk_` and 6 more), so an operator can tell keys apart.
    key_prefix            TEXT    NOT NULL,
    rate_limit_per_minute INTEGER NOT NULL DEFAULT 600 CHECK (rate_limit_per_minute BETWEEN 1 AND 1000000),
    last_used_at          TEXT,
    created_at            TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    revoked_at            TEXT,
    CHECK ((kind = 'partner') = (partner_id IS NOT NULL))
);
CREATE INDEX api_clients_name ON api_clients (name, id);

CREATE TRIGGER api_clients_count_ai AFTER INSERT ON api_clients BEGIN
    INSERT INTO row_counts (name, n) VALUES ('api_clients', 1) ON CONFLICT (name) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER api_clients_count_ad AFTER DELETE ON api_clients BEGIN
    UPDATE row_counts SET n = n - 1 WHERE name = 'api_clients';
END;


-- The branch where the employee used the discount, when the app says (POST /api/app/usage).
ALTER TABLE usage_history ADD COLUMN partner_city_id INTEGER REFERENCES partner_cities (id);
