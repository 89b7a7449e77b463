//! Numbered SQL migrations, embedded in the binary, and the one runner that applies an engine's
//! unseen ones at start, all in one transaction: an upgrade that fails leaves the database as it was.

use anyhow::Context;

use super::sql::Connection;
use super::triggers::Declared;

pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

/// Every migration in order. A landed migration is never edited; changes come as a new one.
pub const MIGRATIONS: &[Migration] = &[
    Migration { version: 1, name: "init", sql: include_str!("../../migrations/0001_init.sql") },
    Migration {
        version: 2,
        name: "users_email_partial_unique",
        sql: include_str!("../../migrations/0002_users_email_partial_unique.sql"),
    },
    Migration {
        version: 3,
        name: "idempotency_per_session",
        sql: include_str!("../../migrations/0003_idempotency_per_session.sql"),
    },
    Migration {
        version: 4,
        name: "files_public_name",
        sql: include_str!("../../migrations/0004_files_public_name.sql"),
    },
    Migration {
        version: 5,
        name: "search_folds_azerbaijani",
        sql: include_str!("../../migrations/0005_search_folds_azerbaijani.sql"),
    },
    Migration { version: 6, name: "campaign_search", sql: include_str!("../../migrations/0006_campaign_search.sql") },
    Migration { version: 7, name: "dashboard_counts", sql: include_str!("../../migrations/0007_dashboard_counts.sql") },
    Migration { version: 8, name: "api_clients", sql: include_str!("../../migrations/0008_api_clients.sql") },
    Migration {
        version: 9,
        name: "usage_names_in_order_indexes",
        sql: include_str!("../../migrations/0009_usage_names_in_order_indexes.sql"),
    },
    Migration {
        version: 10,
        name: "campaign_sort_indexes_per_list",
        sql: include_str!("../../migrations/0010_campaign_sort_indexes_per_list.sql"),
    },
    Migration {
        version: 11,
        name: "sign_in_locks_by_email",
        sql: include_str!("../../migrations/0011_sign_in_locks_by_email.sql"),
    },
    Migration {
        version: 12,
        name: "refresh_token_grace",
        sql: include_str!("../../migrations/0012_refresh_token_grace.sql"),
    },
    Migration { version: 13, name: "activity", sql: include_str!("../../migrations/0013_activity.sql") },
    Migration { version: 14, name: "trash", sql: include_str!("../../migrations/0014_trash.sql") },
    Migration { version: 15, name: "recovery_codes", sql: include_str!("../../migrations/0015_recovery_codes.sql") },
    Migration {
        version: 16,
        name: "azerbaijani_sort",
        sql: include_str!("../../migrations/0016_azerbaijani_sort.sql"),
    },
    Migration {
        version: 17,
        name: "azerbaijani_sort_keys",
        sql: include_str!("../../migrations/0017_azerbaijani_sort_keys.sql"),
    },
    Migration {
        version: 18,
        name: "search_index_queue",
        sql: include_str!("../../migrations/0018_search_index_queue.sql"),
    },
    Migration {
        version: 19,
        name: "complaint_reason_names",
        sql: include_str!("../../migrations/0019_complaint_reason_names.sql"),
    },
    Migration {
        version: 20,
        name: "sign_in_locks_per_address",
        sql: include_str!("../../migrations/0020_sign_in_locks_per_address.sql"),
    },
    Migration {
        version: 21,
        name: "trash_triggers_declared",
        sql: include_str!("../../migrations/0021_trash_triggers_declared.sql"),
    },
    Migration { version: 22, name: "campaign_limits", sql: include_str!("../../migrations/0022_campaign_limits.sql") },
    Migration {
        version: 23,
        name: "redemption_codes",
        sql: include_str!("../../migrations/0023_redemption_codes.sql"),
    },
    Migration { version: 24, name: "usage_review", sql: include_str!("../../migrations/0024_usage_review.sql") },
    Migration {
        version: 25,
        name: "dashboard_verified_uses",
        sql: include_str!("../../migrations/0025_dashboard_verified_uses.sql"),
    },
    Migration { version: 26, name: "webhooks", sql: include_str!("../../migrations/0026_webhooks.sql") },
    Migration {
        version: 27,
        name: "webhook_states_checked_cheaply",
        sql: include_str!("../../migrations/0027_webhook_states_checked_cheaply.sql"),
    },
];

pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// PostgreSQL's migrations, numbered as SQLite's: its installations begin at 16 (the schema as
/// SQLite's first sixteen leave it, in files by concern); from then on each number has both
/// spellings.
pub const POSTGRES_MIGRATIONS: &[Migration] = &[
    Migration {
        version: 16,
        name: "schema",
        sql: concat!(
            include_str!("../../migrations/postgres/0016_schema.sql"),
            include_str!("../../migrations/postgres/0016_functions.sql"),
            include_str!("../../migrations/postgres/0016_counts.sql"),
            include_str!("../../migrations/postgres/0016_trash.sql"),
            include_str!("../../migrations/postgres/0016_search.sql"),
        ),
    },
    Migration {
        version: 17,
        name: "azerbaijani_sort_keys",
        sql: include_str!("../../migrations/postgres/0017_azerbaijani_sort_keys.sql"),
    },
    Migration {
        version: 18,
        name: "search_index_queue",
        sql: include_str!("../../migrations/postgres/0018_search_index_queue.sql"),
    },
    Migration {
        version: 19,
        name: "complaint_reason_names",
        sql: include_str!("../../migrations/postgres/0019_complaint_reason_names.sql"),
    },
    Migration {
        version: 20,
        name: "sign_in_locks_per_address",
        sql: include_str!("../../migrations/postgres/0020_sign_in_locks_per_address.sql"),
    },
    Migration {
        version: 21,
        name: "trash_triggers_declared",
        sql: include_str!("../../migrations/postgres/0021_trash_triggers_declared.sql"),
    },
    Migration {
        version: 22,
        name: "campaign_limits",
        sql: include_str!("../../migrations/postgres/0022_campaign_limits.sql"),
    },
    Migration {
        version: 23,
        name: "redemption_codes",
        sql: include_str!("../../migrations/postgres/0023_redemption_codes.sql"),
    },
    Migration {
        version: 24,
        name: "usage_review",
        sql: include_str!("../../migrations/postgres/0024_usage_review.sql"),
    },
    Migration {
        version: 25,
        name: "dashboard_verified_uses",
        sql: include_str!("../../migrations/postgres/0025_dashboard_verified_uses.sql"),
    },
    Migration { version: 26, name: "webhooks", sql: include_str!("../../migrations/postgres/0026_webhooks.sql") },
    Migration {
        version: 27,
        name: "webhook_states_checked_cheaply",
        sql: include_str!("../../migrations/postgres/0027_webhook_states_checked_cheaply.sql"),
    },
];

/// Where an engine's migrations are recorded, spelled in its SQL.
const SQLITE_LEDGER: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
     version    INTEGER PRIMARY KEY,
     name       TEXT NOT NULL,
     applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
 )";
const POSTGRES_LEDGER: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
     version    BIGINT PRIMARY KEY,
     name       TEXT NOT NULL,
     applied_at TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))
 )";

/// Applies the migrations of the connection's engine that the database has not seen yet, and
/// makes the triggers the resources' declarations ask for (the activity log's, the trash's), all
/// in one transaction; returns the resulting schema version.
pub fn migrate(conn: &mut Connection, declared: &Declared) -> anyhow::Result<i64> {
    migrate_through(conn, SCHEMA_VERSION, declared)
}

/// Applies the unseen migrations up to and including `last` (a test stops short of the newest).
/// App servers starting together take turns: the first applies, the others find it done (SQLite's
/// write lock, taken at BEGIN; on PostgreSQL an advisory lock, with each statement reading what
/// the one before it committed).
fn migrate_through(conn: &mut Connection, last: i64, declared: &Declared) -> anyhow::Result<i64> {
    let postgres = conn.is_postgres();
    let (migrations, ledger, folder) = match postgres {
        false => (MIGRATIONS, SQLITE_LEDGER, ""),
        true => (POSTGRES_MIGRATIONS, POSTGRES_LEDGER, "postgres/"),
    };
    if let Some(sqlite) = conn.sqlite() {
        // Migration 16 builds indexes in the `az` collation, the search triggers of migration 18
        // ask `search_deferred(index)`, and the activity triggers the writer; a connection
        // opened without them gets them here.
        super::register_functions(sqlite)?;
    }
    let tx = if postgres { conn.transaction()? } else { conn.write_transaction()? };
    if postgres {
        // Held to the transaction's end; the key is any constant of perkdesk's own.
        tx.execute("SELECT pg_advisory_xact_lock(7245031616)", [])?;
    }
    tx.execute_batch(ledger)?;
    let current: i64 = tx.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |row| row.get(0))?;
    anyhow::ensure!(
        current <= SCHEMA_VERSION,
        "the database has schema version {current}, newer than this binary knows ({SCHEMA_VERSION}); use a newer perkdesk"
    );
    for migration in migrations.iter().filter(|m| m.version > current && m.version <= last) {
        tx.execute_batch(migration.sql)
            .with_context(|| format!("migration {folder}{:04}_{} failed", migration.version, migration.name))?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name) VALUES (?1, ?2)",
            (migration.version, migration.name),
        )?;
    }
    // The triggers follow this binary's declarations, in the same transaction.
    super::activity::install(&tx, &declared.recorded)?;
    super::trash::install(&tx, &declared.trashed)?;
    tx.commit()?;
    if let Some(sqlite) = conn.sqlite()
        && current < last
    {
        measure_new_indexes(sqlite).context("measuring the new indexes for the query planner failed")?;
    }
    Ok(current.max(last))
}

/// Analyzes each table that has statistics (someone ran `ANALYZE`) but also an index without
/// them, as a migration leaves it. The planner would weigh measured indexes against unmeasured
/// ones, which it guesses, and can pick the wrong one: an analyzed campaigns table whose new list
/// indexes were unmeasured sorted every campaign for its default page. A database never analyzed
/// stays so; there every index is guessed alike.
fn measure_new_indexes(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    let analyzed: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1')",
        [],
        |row| row.get(0),
    )?;
    if !analyzed {
        return Ok(());
    }
    let tables: Vec<String> = conn
        .prepare(
            "SELECT DISTINCT i.tbl_name FROM sqlite_master i
             WHERE i.type = 'index' AND i.sql IS NOT NULL
               AND EXISTS (SELECT 1 FROM sqlite_stat1 s WHERE s.tbl = i.tbl_name)
               AND NOT EXISTS (SELECT 1 FROM sqlite_stat1 s WHERE s.idx = i.name)",
        )?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    // Sampled, as `PRAGMA optimize` does: exact counts of a large table take minutes and the
    // planner needs proportions.
    conn.execute_batch("PRAGMA analysis_limit = 1000")?;
    for table in tables {
        conn.execute_batch(&format!("ANALYZE \"{}\"", table.replace('"', "\"\"")))?;
    }
    conn.execute_batch("PRAGMA analysis_limit = 0")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_names(conn: &Connection) -> Vec<String> {
        let mut stmt = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").unwrap();
        stmt.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
    }

    #[test]
    fn each_migration_applies_on_an_empty_database_and_only_once() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        assert_eq!(migrate(&mut conn, &Declared::default()).unwrap(), SCHEMA_VERSION);
        let applied: i64 = conn.query_row("SELECT COUNT(*) FROM schema_migrations", [], |r| r.get(0)).unwrap();
        assert_eq!(applied, MIGRATIONS.len() as i64);
        assert_eq!(migrate(&mut conn, &Declared::default()).unwrap(), SCHEMA_VERSION);
        let again: i64 = conn.query_row("SELECT COUNT(*) FROM schema_migrations", [], |r| r.get(0)).unwrap();
        assert_eq!(again, applied);
        let fk_problems: i64 =
            conn.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
        assert_eq!(fk_problems, 0);
    }

    #[test]
    fn the_schema_covers_every_entity_of_the_specification() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, &Declared::default()).unwrap();
        let tables = table_names(&conn);
        for expected in [
            "users",
            "sessions",
            "refresh_tokens",
            "sign_in_failures",
            "sign_in_locks",
            "password_resets",
            "idempotency_keys",
            "files",
            "cities",
            "assets",
            "hr_accounts",
            "partners",
            "partner_cities",
            "merchants",
            "campaign_categories",
            "campaigns",
            "campaign_assets",
            "employees",
            "wish_list_requests",
            "merchant_applications",
            "merchant_application_cities",
            "usage_history",
            "notifications",
            "complaint_reasons",
            "complaints",
            "promo_codes",
            "row_counts",
            "app_settings",
        ] {
            assert!(tables.iter().any(|t| t == expected), "missing table {expected}");
        }
        let cities: Vec<String> = conn
            .prepare("SELECT name_en FROM cities")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for city in ["Baku", "Ganja", "Sumgait", "Mingachevir", "Lankaran", "Shaki", "Nakhchivan"] {
            assert!(cities.iter().any(|c| c == city), "missing city {city}");
        }
    }

    #[test]
    fn a_database_from_a_newer_binary_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, &Declared::default()).unwrap();
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (?1, 'future')", [SCHEMA_VERSION + 1])
            .unwrap();
        let error = migrate(&mut conn, &Declared::default()).unwrap_err().to_string();
        assert!(error.contains("newer than this binary"), "{error}");
    }

    fn count(conn: &Connection, name: &str) -> i64 {
        conn.query_row("SELECT COALESCE((SELECT n FROM row_counts WHERE name = ?1), 0)", [name], |r| r.get(0)).unwrap()
    }

    #[test]
    fn row_counts_follow_inserts_soft_deletes_restores_and_hard_deletes() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, &Declared::default()).unwrap();
        let insert_user = |conn: &Connection, email: &str, kind: &str| {
            conn.execute(
                "INSERT INTO users (kind, first_name, last_name, email, password_hash, totp_secret)
                 VALUES (?1, 'A', 'B', ?2, 'x', 'y')",
                (kind, email),
            )
            .unwrap();
        };
        insert_user(&conn, "a@x.az", "staff");
        insert_user(&conn, "b@x.az", "staff");
        insert_user(&conn, "c@x.az", "hr");
        assert_eq!(count(&conn, "users:staff"), 2);
        assert_eq!(count(&conn, "users:hr"), 1);
        conn.execute("UPDATE users SET deleted_at = 'now' WHERE email = 'a@x.az'", []).unwrap();
        assert_eq!(count(&conn, "users:staff"), 1);
        conn.execute("UPDATE users SET first_name = 'Z' WHERE email = 'a@x.az'", []).unwrap();
        assert_eq!(count(&conn, "users:staff"), 1);
        conn.execute("UPDATE users SET deleted_at = NULL WHERE email = 'a@x.az'", []).unwrap();
        assert_eq!(count(&conn, "users:staff"), 2);
        conn.execute("DELETE FROM users WHERE email = 'b@x.az'", []).unwrap();
        assert_eq!(count(&conn, "users:staff"), 1);

        conn.execute(
            "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
             VALUES ('A', 'B', '994501234567', 'a@b.az', 'AB1')",
            [],
        )
        .unwrap();
        assert_eq!(count(&conn, "assets"), 1);
        conn.execute("UPDATE assets SET deleted_at = 'x'", []).unwrap();
        conn.execute("UPDATE assets SET deleted_at = 'y'", []).unwrap();
        assert_eq!(count(&conn, "assets"), 0);
    }

    #[test]
    fn the_trigram_index_finds_substrings_and_follows_updates() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, &Declared::default()).unwrap();
        conn.execute(
            "INSERT INTO users (first_name, last_name, email, password_hash, totp_secret)
             VALUES ('Aysel', 'Məmmədova', 'aysel@perk.az', 'x', 'y')",
            [],
        )
        .unwrap();
        let hits = |q: &str| -> i64 {
            conn.query_row("SELECT COUNT(*) FROM users_search WHERE users_search MATCH ?1", [q], |r| r.get(0)).unwrap()
        };
        assert_eq!(hits("first_name : \"yse\""), 1);
        assert_eq!(hits("email : \"PERK\""), 1);
        conn.execute("UPDATE users SET first_name = 'Leyla'", []).unwrap();
        assert_eq!(hits("first_name : \"yse\""), 0);
        assert_eq!(hits("first_name : \"eyl\""), 1);
        conn.execute("UPDATE users SET deleted_at = 'now'", []).unwrap();
        assert_eq!(hits("first_name : \"eyl\""), 0, "deleted rows leave the index");
        conn.execute("UPDATE users SET deleted_at = NULL", []).unwrap();
        assert_eq!(hits("first_name : \"eyl\""), 1, "restored rows come back");
        conn.execute(
            "INSERT INTO users (kind, first_name, last_name, email, password_hash, totp_secret)
             VALUES ('hr', 'Leyla', 'Hr', 'hr@perk.az', 'x', 'y')",
            [],
        )
        .unwrap();
        assert_eq!(hits("first_name : \"eyl\""), 1, "only staff are indexed");
        conn.execute("DELETE FROM users WHERE kind = 'staff'", []).unwrap();
        assert_eq!(hits("first_name : \"eyl\""), 0);
        let integrity: crate::db::sql::Result<usize> =
            conn.execute("INSERT INTO users_search (users_search) VALUES ('integrity-check')", []);
        assert!(integrity.is_ok(), "{integrity:?}");
    }

    #[test]
    fn migration_2_keeps_emails_unique_per_kind_on_a_database_with_users() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(MIGRATIONS[0].sql).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT);
             INSERT INTO schema_migrations (version, name) VALUES (1, 'init');
             INSERT INTO users (kind, first_name, last_name, email, password_hash, totp_secret)
             VALUES ('staff', 'Aysel', 'Məmmədova', 'aysel@perk.az', 'x', 'y'),
                    ('hr', 'Aysel', 'Məmmədova', 'aysel@perk.az', 'x', 'y');",
        )
        .unwrap();
        assert_eq!(migrate(&mut conn, &Declared::default()).unwrap(), SCHEMA_VERSION);
        let insert = |kind: &str, email: &str| {
            conn.execute(
                "INSERT INTO users (kind, first_name, last_name, email, password_hash, totp_secret)
                 VALUES (?1, 'A', 'B', ?2, 'x', 'y')",
                (kind, email),
            )
        };
        assert!(insert("staff", "AYSEL@perk.az").is_err(), "a live staff e-mail is unique, in any case");
        assert!(insert("hr", "aysel@perk.az").is_err(), "a live HR e-mail is unique");
        conn.execute("UPDATE users SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE kind = 'staff'", []).unwrap();
        assert!(insert("staff", "aysel@perk.az").is_ok(), "a deleted user frees the e-mail");
    }

    #[test]
    fn migration_27_keeps_every_webhook_message_and_attempt() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        assert_eq!(migrate_through(&mut conn, 26, &Declared::default()).unwrap(), 26);
        conn.execute_batch(
            "INSERT INTO webhooks (url, events, signing_secret) VALUES ('https://hooks.example.com/', '[]', 'whsec_x');
             INSERT INTO webhook_messages (webhook_id, event, message_id, payload, state, attempts, created_at)
             VALUES (1, 'usage.created', 'msg_a', '{}', 'delivered', 1, '2026-11-01T00:00:00.000Z'),
                    (1, 'usage.created', 'msg_b', '{}', 'pending', 2, '2026-11-01T00:00:01.000Z');
             INSERT INTO webhook_attempts (message_id, attempt, started_at, status_code, duration_ms)
             VALUES (1, 1, '2026-11-01T00:00:00.000Z', 204, 3), (2, 1, '2026-11-01T00:00:01.000Z', 500, 4),
                    (2, 2, '2026-11-01T00:00:06.000Z', NULL, 15000);",
        )
        .unwrap();
        assert_eq!(migrate(&mut conn, &Declared::default()).unwrap(), SCHEMA_VERSION);
        let messages: Vec<(i64, String, String, i64)> = conn
            .prepare("SELECT id, message_id, state, attempts FROM webhook_messages ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            messages,
            [(1, "msg_a".to_string(), "delivered".to_string(), 1), (2, "msg_b".to_string(), "pending".to_string(), 2)]
        );
        let attempts: i64 = conn.query_row("SELECT COUNT(*) FROM webhook_attempts", [], |r| r.get(0)).unwrap();
        assert_eq!(attempts, 3);
        let fk_problems: i64 =
            conn.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| r.get(0)).unwrap();
        assert_eq!(fk_problems, 0);
        let indexes: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name IN
                 ('webhook_messages_due', 'webhook_messages_of_webhook', 'webhook_attempts_of_message')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(indexes, 3);
        let refused = conn.execute("UPDATE webhook_messages SET state = 'lost' WHERE id = 1", []);
        assert!(refused.is_err(), "the state check still holds");
        // An attempt of no message is refused: the rebuilt attempts' table still names the messages'.
        let orphan = conn.execute(
            "INSERT INTO webhook_attempts (message_id, attempt, started_at, duration_ms) VALUES (99, 1, 'x', 1)",
            [],
        );
        assert!(orphan.is_err());
    }

    /// A database at migration 9 with `campaigns` rows, analyzed or not.
    fn at_migration_9(analyzed: bool) -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(migrate_through(&mut conn, 9, &Declared::default()).unwrap(), 9);
        conn.execute_batch(
            "INSERT INTO partners (name, contact_person_first_name, contact_person_last_name, phone_number, email)
             VALUES ('P', 'A', 'B', '994501234567', 'p@perk.az');
             INSERT INTO campaign_categories (name_az, name_en, name_ru) VALUES ('K', 'C', 'K');
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
             INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date, name_az,
                                    name_en, name_ru, description_az, description_en, description_ru, order_no)
             SELECT 1, 1, i % 50, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'Endirim ' || i,
                    'Discount ' || i, 'Скидка ' || i, 'T', 'D', 'O', i FROM n;",
        )
        .unwrap();
        if analyzed {
            conn.execute_batch("ANALYZE").unwrap();
        }
        conn
    }

    fn measured(conn: &Connection, index: &str) -> bool {
        conn.query_row("SELECT EXISTS (SELECT 1 FROM sqlite_stat1 WHERE idx = ?1)", [index], |r| r.get(0)).unwrap()
    }

    #[test]
    fn indexes_a_migration_adds_to_an_analyzed_table_are_measured_too() {
        let mut conn = at_migration_9(true);
        assert!(measured(&conn, "campaigns_confirmed"));
        assert_eq!(migrate(&mut conn, &Declared::default()).unwrap(), SCHEMA_VERSION);
        for index in ["campaigns_listed_name_en", "campaigns_listed_discount", "campaigns_listed_expire"] {
            assert!(measured(&conn, index), "{index} has statistics beside the table's older indexes");
        }
        assert!(!measured(&conn, "campaigns_name_en"), "the dropped index's statistics went with it");
    }

    #[test]
    fn a_database_never_analyzed_stays_without_statistics() {
        let mut conn = at_migration_9(false);
        assert_eq!(migrate(&mut conn, &Declared::default()).unwrap(), SCHEMA_VERSION);
        let stat_table: i64 =
            conn.query_row("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_stat1'", [], |r| r.get(0)).unwrap();
        assert_eq!(stat_table, 0);
    }
}
