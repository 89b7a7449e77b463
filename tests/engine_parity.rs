//! SQLite and PostgreSQL behave as one database: after each engine's own migrations the schemas
//! agree (the same tables, each with the same columns and nullability, and the same unique sets:
//! the columns a unique key or index covers, and whether it is partial), e-mails follow one rule,
//! and the search folds text as the Rust folding does. The PostgreSQL halves run on the server
//! `./scripts/test` starts (its URL in `PERKDESK_TEST_POSTGRES`).

use std::collections::BTreeMap;

use perkdesk::db::sql::Connection;

/// SQLite's full-text search tables (FTS5 and its shadow tables): PostgreSQL searches with trigram
/// indexes on the tables themselves instead.
const SQLITE_SEARCH_TABLES: &[&str] = &["campaigns_search", "usage_history_search", "users_search"];

/// The maintained counts: tables on SQLite, views of a ledger on PostgreSQL (`<name>_folded` plus
/// `<name>_deltas`, migrations/postgres/0016_counts.sql). A view's columns are compared by name
/// only (PostgreSQL knows no NOT NULL or unique key on a view), and the ledger tables are
/// PostgreSQL's own.
const POSTGRES_LEDGER_VIEWS: &[&str] = &[
    "row_counts",
    "usage_month_counts",
    "usage_category_counts",
    "partner_counts",
    "asset_counts",
    "state_counts",
    "campaign_counts",
    "usage_verified_month_counts",
];

/// A table's columns (name to NOT NULL) and unique sets ("a,b" and whether partial); a view has
/// its columns' names, all nullable, and no unique set.
#[derive(Debug, PartialEq)]
struct Table {
    columns: BTreeMap<String, bool>,
    uniques: Vec<(String, bool)>,
}

impl Table {
    /// The shape a view of the same columns would have.
    fn as_view(&self) -> Table {
        Table { columns: self.columns.keys().map(|name| (name.clone(), false)).collect(), uniques: Vec::new() }
    }
}

/// Every row of a question, read by `read`.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    params: impl perkdesk::db::sql::Params,
    read: impl FnMut(&perkdesk::db::sql::Row<'_>) -> perkdesk::db::sql::Result<T>,
) -> Vec<T> {
    conn.prepare(sql).unwrap().query_map(params, read).unwrap().collect::<Result<_, _>>().unwrap()
}

fn sqlite_schema(conn: &Connection) -> BTreeMap<String, Table> {
    let names: Vec<String> =
        rows(conn, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", [], |row| {
            row.get(0)
        });
    let searched = |name: &str| SQLITE_SEARCH_TABLES.iter().any(|t| name == *t || name.starts_with(&format!("{t}_")));
    names
        .into_iter()
        .filter(|name| !searched(name))
        .map(|name| {
            let mut columns = BTreeMap::new();
            let mut rowid_key = None;
            let info: Vec<(String, bool, i64, String)> =
                rows(conn, "SELECT name, \"notnull\", pk, type FROM pragma_table_info(?1)", [&name], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
                });
            let key_columns = info.iter().filter(|(_, _, pk, _)| *pk > 0).count();
            for (column, not_null, pk, kind) in info {
                // An INTEGER PRIMARY KEY is the rowid: never null, unique, and not an index.
                let is_rowid = pk == 1 && key_columns == 1 && kind.eq_ignore_ascii_case("INTEGER");
                if is_rowid {
                    rowid_key = Some(column.clone());
                }
                columns.insert(column, not_null || is_rowid || pk > 0);
            }
            let indexes: Vec<(String, bool)> =
                rows(conn, "SELECT name, partial FROM pragma_index_list(?1) WHERE \"unique\" = 1", [&name], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                });
            let mut uniques: Vec<(String, bool)> = indexes
                .into_iter()
                .map(|(index, partial)| {
                    let columns: Vec<String> =
                        rows(conn, "SELECT name FROM pragma_index_info(?1) ORDER BY seqno", [&index], |row| row.get(0));
                    (columns.join(","), partial)
                })
                .collect();
            uniques.extend(rowid_key.map(|key| (key, false)));
            uniques.sort();
            let table = Table { columns, uniques };
            let table = if POSTGRES_LEDGER_VIEWS.contains(&name.as_str()) { table.as_view() } else { table };
            (name, table)
        })
        .collect()
}

fn postgres_schema(conn: &Connection) -> BTreeMap<String, Table> {
    let names: Vec<String> = rows(
        conn,
        "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'
         UNION ALL SELECT viewname::text FROM pg_views WHERE schemaname = 'public'",
        [],
        |row| row.get(0),
    );
    let ledger = |name: &str| {
        POSTGRES_LEDGER_VIEWS.iter().any(|view| name == format!("{view}_folded") || name == format!("{view}_deltas"))
    };
    names
        .into_iter()
        .filter(|name| !ledger(name))
        .map(|name| {
            let columns: BTreeMap<String, bool> = rows(
                conn,
                "SELECT attname::text, attnotnull FROM pg_attribute
                 WHERE attrelid = to_regclass(?1) AND attnum > 0 AND NOT attisdropped",
                [&name],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .into_iter()
            .collect();
            let mut uniques: Vec<(String, bool)> = rows(
                conn,
                "SELECT array_to_string(array(
                            SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k (attnum, n)
                            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n), ','),
                        i.indpred IS NOT NULL
                 FROM pg_index i WHERE i.indisunique AND i.indrelid = to_regclass(?1)",
                [&name],
                |row| Ok((row.get(0)?, row.get(1)?)),
            );
            uniques.sort();
            (name, Table { columns, uniques })
        })
        .collect()
}

use crate::common;
use common::postgres::{fresh_postgres, migrated_postgres};

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_and_sqlite_schemas_agree() {
    let mut sqlite = Connection::open_in_memory().unwrap();
    let sqlite_version = perkdesk::db::migrate(&mut sqlite, &perkdesk::resources::declared()).unwrap();
    let mut postgres = fresh_postgres("perkdesk_parity");
    let postgres_version = perkdesk::db::migrate(&mut postgres, &perkdesk::resources::declared()).unwrap();
    assert_eq!(postgres_version, sqlite_version, "both engines at the newest schema version");
    // A second start finds nothing to do.
    assert_eq!(perkdesk::db::migrate(&mut postgres, &perkdesk::resources::declared()).unwrap(), postgres_version);

    let (sqlite, postgres) = (sqlite_schema(&sqlite), postgres_schema(&postgres));
    let mut differences = Vec::new();
    for name in sqlite.keys().chain(postgres.keys()).collect::<std::collections::BTreeSet<_>>() {
        match (sqlite.get(name), postgres.get(name)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => differences.push(format!("{name}:\n  SQLite     {a:?}\n  PostgreSQL {b:?}")),
            (Some(_), None) => differences.push(format!("{name}: only on SQLite")),
            (None, _) => differences.push(format!("{name}: only on PostgreSQL")),
        }
    }
    assert!(differences.is_empty(), "the schemas differ:\n{}", differences.join("\n"));
    assert!(sqlite.len() > 30, "the comparison saw the tables ({})", sqlite.len());
}

/// One rule for e-mails on both engines: an address is the same whatever its letters' case, for
/// the unique indexes and for look-ups.
fn emails_are_one_address_whatever_the_case(conn: &Connection) {
    let insert = "INSERT INTO users (kind, first_name, last_name, email, password_hash, totp_secret)
                  VALUES ('staff', 'Aysel', 'Məmmədova', ?1, 'x', 'y')";
    conn.insert(insert, ["Aysel.Mammadova@Perk.az"]).unwrap();
    let taken = conn.insert(insert, ["aysel.mammadova@perk.AZ"]).unwrap_err();
    assert!(taken.is_constraint_violation(), "{taken}");
    let found: i64 = conn
        .query_row("SELECT COUNT(*) FROM users WHERE email = ?1", ["AYSEL.MAMMADOVA@PERK.AZ"], |row| row.get(0))
        .unwrap();
    assert_eq!(found, 1);
}

/// The characters an address may hold (printable ASCII, `validation::is_email`), each pair the
/// e-mail columns' collation calls equal. The engines' collations differ outside ASCII (SQLite's
/// NOCASE folds A–Z alone, PostgreSQL's ICU `nocase` every script and skips ignorable code
/// points), which is why an address is ASCII only; inside it they must be exactly the same rule.
fn equal_address_characters(conn: &Connection) -> Vec<(String, String)> {
    let characters: Vec<String> = (b'!'..=b'~').map(|byte| char::from(byte).to_string()).collect();
    assert!(characters.iter().all(|c| perkdesk::core::validation::is_email(&format!("a{c}b@perk.az")) || c == "@"));
    let values = (1..=characters.len()).map(|n| format!("(?{n})")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "WITH c(ch) AS (VALUES {values})
         SELECT a.ch, b.ch FROM c a, c b WHERE a.ch <> b.ch AND a.ch = b.ch COLLATE nocase ORDER BY 1, 2"
    );
    rows(conn, &sql, perkdesk::db::sql::params_from_iter(&characters), |row| Ok((row.get(0)?, row.get(1)?)))
}

fn the_rule_for_one_address(conn: &Connection) {
    let letters: Vec<(String, String)> = ('A'..='Z')
        .flat_map(|upper| {
            let (upper, lower) = (upper.to_string(), upper.to_ascii_lowercase().to_string());
            [(upper.clone(), lower.clone()), (lower, upper)]
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(equal_address_characters(conn), letters, "only A–Z and a–z pair up, letter by letter");
}

#[test]
fn sqlite_emails_are_one_address_whatever_the_case() {
    emails_are_one_address_whatever_the_case(&perkdesk::db::migrated_in_memory().unwrap());
    the_rule_for_one_address(&perkdesk::db::migrated_in_memory().unwrap());
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_emails_are_one_address_whatever_the_case() {
    let conn = migrated_postgres("perkdesk_emails");
    emails_are_one_address_whatever_the_case(&conn);
    the_rule_for_one_address(&conn);
}

/// Text the search folds: Azerbaijani in both cases, Russian, letters whose lower case is special
/// elsewhere (final sigma, ẞ, title-case digraphs, the Kelvin sign), wildcards, marks, emoji.
const FOLDING_CASES: &[&str] = &[
    "İLKİN İsmayıl ŞAHİN Şahin ÇİNGİZ GÜLNAR ÖZGÜR AĞA ƏLƏKBƏROV Məmmədov",
    "ilkin ısmayıl sahin cingiz",
    "Азербайджан МӘММӘДОВ Ёлка ЁЖИК",
    "ΟΔΟΣ ΣΑΣ Straße STRASSE ẞ ǅ ǈ \u{212A}elvin",
    "50%_off a\\b 'quoted' \"double\"",
    "e\u{301} É Ä ﬁ 🎉 日本語",
    "",
];

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_folds_search_text_as_rust_does() {
    let conn = migrated_postgres("perkdesk_folding");
    for text in FOLDING_CASES {
        let folded: String = conn.query_row("SELECT fold_search(?1)", [text], |row| row.get(0)).unwrap();
        assert_eq!(folded, perkdesk::db::fold_search(text), "folding {text:?}");
    }
    // The row test: the folded haystack holds the folded needle, wildcards taken literally.
    let needles = ["sahin", "MƏM", "ilk", "%_", "%", "_", "\\", "strasse", "ёлка", "", "x"];
    for haystack in FOLDING_CASES {
        for needle in needles {
            let found: bool =
                conn.query_row("SELECT contains_text(?1, ?2)", (haystack, needle), |row| row.get(0)).unwrap();
            let expected = perkdesk::db::fold_search(haystack).contains(&perkdesk::db::fold_search(needle));
            assert_eq!(found, expected, "{haystack:?} holds {needle:?}");
        }
    }
    let null: bool = conn.query_row("SELECT contains_text(NULL, ?1)", ["a"], |row| row.get(0)).unwrap();
    assert!(!null);
}

use crate::sources;

/// The SQL statements written as whole literals in the modules outside `db` (those built with
/// `format!` are left to the tests that run them), with where each is: `(file:line, text)`.
fn literal_statements() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, text) in sources::rust_sources() {
        if path.starts_with("db") {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let mut rest = code;
        while let Some(start) = rest.find('"') {
            let after = &rest[start + 1..];
            let mut end = None;
            let mut escaped = false;
            for (at, c) in after.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(at);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(end) = end else { break };
            let literal = after[..end].replace("\\\"", "\"").replace("\\n", "\n");
            let line = code[..code.len() - rest.len() + start].lines().count();
            let statement = literal.trim();
            let is_sql = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH "].iter().any(|k| statement.starts_with(k));
            if is_sql && !statement.contains('{') {
                found.push((format!("{}:{line}", path.display()), statement.to_string()));
            }
            rest = &after[end + 1..];
        }
    }
    found
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_prepares_the_apps_statements() {
    let conn = migrated_postgres("perkdesk_statements");
    let statements = literal_statements();
    assert!(statements.len() > 150, "the scan found the statements ({})", statements.len());
    let refused: Vec<String> = statements
        .iter()
        .filter_map(|(at, sql)| {
            conn.prepare(sql).err().map(|error| format!("{at}: {error}\n    {}", sql.replace('\n', " ")))
        })
        .collect();
    assert!(
        refused.is_empty(),
        "{} of {} statements PostgreSQL refuses:\n{}",
        refused.len(),
        statements.len(),
        refused.join("\n")
    );
}

/// The trash's questions about the schema get the same answers from both catalogues.
#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_and_sqlite_name_the_same_references() {
    use perkdesk::db::schema::{references_from, references_to};
    let sqlite = perkdesk::db::migrated_in_memory().unwrap();
    let postgres = migrated_postgres("perkdesk_references");
    for table in ["files", "users", "partners", "campaigns", "assets", "employees"] {
        let mut expected = references_to(&sqlite, table).unwrap();
        let mut found = references_to(&postgres, table).unwrap();
        expected.sort();
        found.sort();
        assert!(!expected.is_empty(), "{table} is referred to");
        assert_eq!(found, expected, "the references to {table}");
    }
    for table in ["campaigns", "partners", "campaign_categories", "assets", "notifications"] {
        let mut expected = references_from(&sqlite, table, "files").unwrap();
        let mut found = references_from(&postgres, table, "files").unwrap();
        expected.sort();
        found.sort();
        assert_eq!(found, expected, "{table}'s images");
    }
}

/// One write of the activity walk: who makes it (none: the server, and on PostgreSQL no writer
/// declared), and the statement.
struct Write {
    actor: Option<perkdesk::db::Actor>,
    sql: &'static str,
}

/// Writes of every kind the log names an action for, by every kind of actor, with text that
/// needs escaping; the same on both engines.
fn activity_writes() -> Vec<Write> {
    use perkdesk::db::Actor;
    let aysel = || Some(Actor::user(1, "Aysel Məmmədova"));
    let app = || Some(Actor::client(5, "Employee app"));
    let public = || Some(Actor::public("who@x.az"));
    let write = |actor: Option<Actor>, sql: &'static str| Write { actor, sql };
    vec![
        write(aysel(), "INSERT INTO cities (id, name_az, name_en, name_ru) VALUES (100, 'Şəki \"köhnə\"', 'Sheki\n\ttab', 'Шеки \\ 😀')"),
        write(aysel(), "UPDATE cities SET name_en = 'Sheki \u{1}', name_ru = 'Шеки' WHERE id = 100"),
        write(aysel(), "UPDATE cities SET name_az = name_az WHERE id = 100"),
        write(aysel(), "INSERT INTO partners (id, name, contact_person_first_name, contact_person_last_name, phone_number, email)
                        VALUES (10, 'Bravo', 'Elvin', 'Quliyev', '994501234567', 'p@b.az')"),
        write(aysel(), "UPDATE partners SET is_active = 0 WHERE id = 10"),
        write(aysel(), "UPDATE partners SET is_active = 1, name = 'Bravo MMC' WHERE id = 10"),
        write(aysel(), "UPDATE partners SET deleted_at = '2026-11-27T10:00:00.000Z' WHERE id = 10"),
        write(aysel(), "UPDATE partners SET deleted_at = NULL WHERE id = 10"),
        write(aysel(), "INSERT INTO users (id, kind, first_name, last_name, email, password_hash, totp_secret)
                        VALUES (20, 'staff', 'Aysel', 'Məmmədova', 'aysel@perk.az', 'p1', 't1')"),
        write(aysel(), "UPDATE users SET password_hash = 'p2' WHERE id = 20"),
        write(aysel(), "UPDATE users SET totp_secret = 't2', password_hash = 'p3' WHERE id = 20"),
        write(aysel(), "UPDATE users SET must_set_up_authenticator = 1 WHERE id = 20"),
        write(aysel(), "UPDATE users SET totp_last_step = 5, updated_at = 'later' WHERE id = 20"),
        write(aysel(), "INSERT INTO assets (id, name, contact_person, contact_person_phone_number, contact_person_email, barcode_prefix)
                        VALUES (1, 'Asset', 'Kontakt', '994501234567', 'a@b.az', 'AB1')"),
        write(aysel(), "INSERT INTO users (id, kind, first_name, last_name, email, password_hash, totp_secret)
                        VALUES (21, 'hr', 'Nigar', 'Əliyeva', 'nigar@perk.az', 'p', 't')"),
        write(aysel(), "INSERT INTO hr_accounts (id, user_id, asset_id) VALUES (30, 21, 1)"),
        write(aysel(), "UPDATE users SET first_name = 'Leyla', is_active = 0 WHERE id = 21"),
        write(aysel(), "INSERT INTO campaign_categories (id, name_az, name_en, name_ru) VALUES (1, 'Yemək', 'Food', 'Еда')"),
        write(aysel(), "INSERT INTO campaigns (id, partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                            name_az, name_en, name_ru, description_az, description_en, description_ru, is_confirmed)
                        VALUES (40, 10, 1, 15, '2026-01-01', '2027-01-01', 'a', 'b', 'c', 'd', 'e', 'f', 0)"),
        write(aysel(), "UPDATE campaigns SET is_confirmed = 1 WHERE id = 40"),
        write(app(), "INSERT INTO api_clients (id, name, kind, key_hash, key_prefix) VALUES (50, 'App', 'employee-app', 'h', 'pk_abc')"),
        write(app(), "UPDATE api_clients SET last_used_at = '2026-11-27T10:00:00.000Z' WHERE id = 50"),
        write(app(), "UPDATE api_clients SET revoked_at = '2026-11-27T11:00:00.000Z' WHERE id = 50"),
        write(app(), "INSERT INTO sessions (id, user_id) VALUES ('s1', 20)"),
        write(public(), "INSERT INTO sign_in_failures (email, at) VALUES ('Aysel@Perk.AZ', '2026-11-27T10:00:00.000Z')"),
        write(public(), "INSERT INTO sign_in_failures (email, at) VALUES ('nobody@perk.az', '2026-11-27T10:00:00.000Z')"),
        write(None, "UPDATE partners SET name = 'Bravo 2' WHERE id = 10"),
        write(aysel(), "DELETE FROM api_clients WHERE id = 50"),
        write(aysel(), "DELETE FROM cities WHERE id = 100"),
    ]
}

/// Runs the walk's writes, each in a transaction of its own as `Db::write` runs them, and answers
/// the log: who, what, which record, the action and the changes, in order.
fn activity_after_writes(conn: &mut Connection) -> Vec<String> {
    for write in activity_writes() {
        let declared = write.actor.is_some();
        let mut run = || {
            let tx = conn.transaction().unwrap();
            if declared {
                perkdesk::db::activity::declare_writer(&tx).unwrap();
            }
            tx.execute(write.sql, []).unwrap_or_else(|error| panic!("{}: {error}", write.sql));
            tx.commit().unwrap();
        };
        match write.actor {
            Some(actor) => actor.enter(run),
            None => run(),
        }
    }
    rows(
        conn,
        "SELECT actor_kind || '|' || COALESCE(CAST(actor_id AS TEXT), '-') || '|' || actor_name || '|' || resource || '|'
                || COALESCE(CAST(record_id AS TEXT), '-') || '|' || action || '|' || COALESCE(changes, '-')
         FROM activity ORDER BY id",
        [],
        |row| row.get(0),
    )
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_and_sqlite_log_the_same_activity() {
    let dir = tempfile::tempdir().unwrap();
    let db = perkdesk::app::open_db(&dir.path().join("activity.db")).unwrap();
    let sqlite = activity_after_writes(&mut db.conn().unwrap());
    let postgres = activity_after_writes(&mut migrated_postgres("perkdesk_activity"));
    assert!(sqlite.len() > 20, "the walk was logged ({})", sqlite.len());
    for action in ["create", "update", "statusChange", "delete", "restore", "passwordChange", "authenticatorReset"] {
        assert!(sqlite.iter().any(|entry| entry.contains(&format!("|{action}|"))), "{action} logged");
    }
    let differences: Vec<String> = (0..sqlite.len().max(postgres.len()))
        .filter(|&i| sqlite.get(i) != postgres.get(i))
        .map(|i| format!("entry {i}:\n  SQLite     {:?}\n  PostgreSQL {:?}", sqlite.get(i), postgres.get(i)))
        .collect();
    assert!(differences.is_empty(), "the logs differ:\n{}", differences.join("\n"));
}

/// The same rows on both engines for the lists: staff with Azerbaijani, Russian and English
/// names (some deleted, some HR), names holding wildcards, and uses of campaigns so named.
fn list_rows(conn: &Connection) {
    let first = [
        "İlkin", "ilkin", "Şahin", "şahin", "Çingiz", "Gülnar", "Əli", "Ölkər", "Aysel", "aysel", "Ağa", "Иван",
        "Ёлка", "John", "50%_off", "a_b", "Axb", "50 ball",
    ];
    let last =
        ["Məmmədov", "Mammadov", "Əliyeva", "Şükürov", "Qasımova", "Иванов", "Smith", "Xəlilov", "Hüseynli", "Kərimov"];
    for id in 1..=240_i64 {
        let (f, l) = (first[(id as usize * 7) % first.len()], last[(id as usize * 3) % last.len()]);
        let kind = if id % 11 == 0 { "hr" } else { "staff" };
        let deleted = (id % 13 == 0).then_some("2026-01-01T00:00:00.000Z");
        conn.execute(
            "INSERT INTO users (id, kind, first_name, last_name, email, phone, role_id, is_active, password_hash, totp_secret, created_at, deleted_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'x', 'y', ?9, ?10)",
            (
                id,
                kind,
                f,
                l,
                format!("{}.{}{id}@Perk.az", f.to_lowercase(), l.to_lowercase()),
                format!("99450{:07}", id * 7919 % 10_000_000),
                id % 3,
                id % 4 != 0,
                format!("2026-{:02}-01T10:00:00.000Z", id % 12 + 1),
                deleted,
            ),
        )
        .unwrap();
    }
    let campaigns = [
        "Şənbə endirimi",
        "SHƏNBƏ 50%",
        "Yay_kampaniyası",
        "Yay-kampaniyası",
        "50 manat",
        "Скидка дня",
        "Weekend deal",
        "Ramazan",
    ];
    for id in 1..=150_i64 {
        let campaign = campaigns[id as usize % campaigns.len()];
        conn.execute(
            "INSERT INTO usage_history (id, employee_id, asset_id, partner_id, campaign_id, category_id, employee_email,
                                        asset_name, partner_name, campaign_name, category_name, discount_percent, status, created_at, deleted_at)
             VALUES (?1, 1, 1, 1, 1, 1, ?2, ?3, ?4, ?5, 'Kateqoriya', ?6, ?7, ?8, ?9)",
            (
                id,
                format!("e{}@x.az", id % 17),
                format!("Asset {}", id % 5),
                format!("Partnyor {}", id % 7),
                campaign,
                id % 50,
                id % 2,
                format!("2026-{:02}-{:02}T10:00:00.000Z", id % 12 + 1, id % 28 + 1),
                (id % 9 == 0).then_some("2026-02-01T00:00:00.000Z"),
            ),
        )
        .unwrap();
    }
}

/// Pages of the searched lists, as JSON lines: the total, then each row.
fn list_pages(conn: &Connection, counts: &perkdesk::db::CountCache) -> Vec<String> {
    use perkdesk::crud::{Language, ListQuery, fetch_page};
    use perkdesk::http::extract::QueryMap;
    use perkdesk::resources::{usage_history::USAGE_HISTORY, users::USERS};
    let terms = [
        "ilk", "İLK", "sahin", "ŞAH", "mm", "ов", "%", "_", "a_b", "50%", "xyz", "əli", "ALI", "perk.az", "shənbə",
        "şənbə", "y_k",
    ];
    let mut queries: Vec<(&perkdesk::crud::Resource, String)> = vec![];
    for resource in [&USERS, &USAGE_HISTORY] {
        let sorts = resource.list_columns().filter(|c| c.sortable).map(|c| format!("&SortField={}", c.field));
        for sort in std::iter::once(String::new()).chain(sorts) {
            for ascending in [true, false] {
                queries.push((resource, format!("Skip=0&Take=15{sort}&OrderBy={ascending}")));
            }
        }
        let searched: Vec<&str> =
            resource.filters.iter().map(|f| f.param).filter(|p| p.ends_with("Name") || *p == "Email").collect();
        for param in searched {
            for term in terms {
                let term = term.replace('%', "%25");
                queries.push((resource, format!("Skip=0&Take=20&{param}={term}")));
                queries.push((resource, format!("Skip=5&Take=5&SortField=id&OrderBy=true&{param}={term}")));
            }
        }
    }
    let mut lines = vec![];
    for (resource, raw) in queries {
        let query = ListQuery::parse(resource, &QueryMap::parse(Some(&raw)), Language::Az).unwrap();
        let page = fetch_page(conn, counts, resource, query).unwrap_or_else(|error| panic!("{raw}: {error}"));
        lines.push(format!("{} {raw}: total {}", resource.path, page.total_count));
        lines.extend(page.data.iter().map(|row| format!("  {row}")));
    }
    lines
}

#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_and_sqlite_list_the_same_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = perkdesk::app::open_db(&dir.path().join("lists.db")).unwrap();
    let sqlite = db.conn().unwrap();
    // The uses point at no employee, campaign or partner: the lists read their own columns only.
    sqlite.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
    list_rows(&sqlite);
    let postgres = migrated_postgres("perkdesk_lists");
    common::postgres::drop_foreign_keys(&postgres);
    list_rows(&postgres);
    let postgres_counts =
        perkdesk::db::CountCache::open_postgres(&common::postgres::postgres_url("perkdesk_lists")).unwrap();
    let (sqlite, postgres) = (list_pages(&sqlite, &db.counts()), list_pages(&postgres, &postgres_counts));
    assert!(sqlite.len() > 500, "the pages hold rows ({})", sqlite.len());
    let differences: Vec<String> = (0..sqlite.len().max(postgres.len()))
        .filter(|&i| sqlite.get(i) != postgres.get(i))
        .take(20)
        .map(|i| format!("line {i}:\n  SQLite     {:?}\n  PostgreSQL {:?}", sqlite.get(i), postgres.get(i)))
        .collect();
    assert!(differences.is_empty(), "the lists differ:\n{}", differences.join("\n"));
}

/// Each searched filter on PostgreSQL is spelled so its trigram index serves it (the planner
/// left only bitmap scans, and given enough rows to weigh them, so the one that serves the
/// search is the one its selectivity picks).
#[test]
#[ignore = "needs PostgreSQL: ./scripts/test starts one and runs it"]
fn postgres_searches_use_their_trigram_indexes() {
    use perkdesk::crud::{Language, ListQuery};
    use perkdesk::http::extract::QueryMap;
    use perkdesk::resources::{campaigns::CAMPAIGNS, usage_history::USAGE_HISTORY, users::USERS};
    let conn = migrated_postgres("perkdesk_search_plans");
    let counts =
        perkdesk::db::CountCache::open_postgres(&common::postgres::postgres_url("perkdesk_search_plans")).unwrap();
    // Enough rows for the planner to weigh its indexes by their selectivity.
    common::postgres::drop_foreign_keys(&conn);
    conn.execute_batch(
        "INSERT INTO users (kind, first_name, last_name, email, password_hash, totp_secret)
             SELECT 'staff', 'Ad' || i, 'Soyad' || i, 'u' || i || '@x.az', 'x', 'y' FROM generate_series(1, 5000) AS i;
         INSERT INTO usage_history (employee_id, asset_id, partner_id, campaign_id, category_id, employee_email,
                                    asset_name, partner_name, campaign_name, category_name, discount_percent)
             SELECT 1, 1, 1, 1, 1, 'e@x.az', 'a', 'p', 'Kampaniya ' || i, 'k', 5 FROM generate_series(1, 5000) AS i;
         INSERT INTO campaigns (partner_id, campaign_category_id, discount_percent, start_date, expire_date,
                                name_az, name_en, name_ru, description_az, description_en, description_ru)
             SELECT 1, 1, 5, '2026-01-01', '2027-01-01', 'Ad ' || i, 'Name ' || i, 'Имя ' || i, 'd', 'e', 'f'
             FROM generate_series(1, 5000) AS i;
         SET enable_seqscan = off; SET enable_indexscan = off;",
    )
    .unwrap();
    // As autovacuum would: statistics, and the trigram indexes' pending entries merged (the
    // planner prices a GIN index by its pending list too). VACUUM runs alone, outside a batch.
    conn.execute_batch("VACUUM ANALYZE").unwrap();
    let cases = [
        (&USERS, "FirstName", "users_search_first_name"),
        (&USERS, "LastName", "users_search_last_name"),
        (&USERS, "Email", "users_search_email"),
        (&USAGE_HISTORY, "CampaignName", "usage_history_search_campaign_name"),
        (&CAMPAIGNS, "CampaignName", "campaigns_search_names"),
    ];
    for (resource, param, index) in cases {
        let raw = format!("Skip=0&Take=10&{param}=Məmməd");
        let query = ListQuery::parse(resource, &QueryMap::parse(Some(&raw)), Language::Az).unwrap();
        let statement = query.plan_all(&conn, &counts.reading().unwrap(), resource, resource.list_columns()).unwrap();
        let plan: Vec<String> = rows(
            &conn,
            &format!("EXPLAIN {}", statement.sql),
            perkdesk::db::sql::params_from_iter(statement.params.iter()),
            |row| row.get(0),
        );
        let plan = plan.join("\n");
        assert!(
            plan.contains(&format!("Bitmap Index Scan on {index}")),
            "{} {raw}: {}\n{plan}",
            resource.path,
            statement.sql
        );
    }
}
