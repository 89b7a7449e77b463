//! A database of its own on the PostgreSQL server `./scripts/test` starts (its URL in
//! `PERKDESK_TEST_POSTGRES`), for the tests marked `#[ignore]` that need one.

use perkdesk::db::sql::Connection;

/// A fresh, empty database on the test server named `name` (each test its own name, so tests run
/// side by side), and a connection to it.
pub fn fresh_postgres(name: &str) -> Connection {
    let url = std::env::var("PERKDESK_TEST_POSTGRES").expect("PERKDESK_TEST_POSTGRES names the test server");
    let server = Connection::connect_postgres(&url).unwrap();
    // One statement each: a multi-statement batch is one transaction, which these refuse.
    server.execute_batch(&format!("DROP DATABASE IF EXISTS {name}")).unwrap();
    server.execute_batch(&format!("CREATE DATABASE {name}")).unwrap();
    Connection::connect_postgres(&postgres_url(name)).unwrap()
}

/// The URL of database `name` on the test server.
pub fn postgres_url(name: &str) -> String {
    let url = std::env::var("PERKDESK_TEST_POSTGRES").expect("PERKDESK_TEST_POSTGRES names the test server");
    let (base, _) = url.rsplit_once('/').expect("the URL names a database");
    format!("{base}/{name}")
}

/// A fresh database at the newest schema version.
pub fn migrated_postgres(name: &str) -> Connection {
    let mut conn = fresh_postgres(name);
    perkdesk::db::migrate(&mut conn, &perkdesk::resources::declared()).unwrap();
    conn
}

/// Drops every foreign key of the database: a random walk's hard deletes then leave rows pointing
/// at nothing, as SQLite's with its keys off (`PRAGMA foreign_keys = OFF`).
pub fn drop_foreign_keys(conn: &Connection) {
    conn.execute_batch(
        "DO $$ DECLARE c record; BEGIN
             FOR c IN SELECT conrelid::regclass AS t, conname FROM pg_constraint
                      WHERE contype = 'f' AND connamespace = 'public'::regnamespace LOOP
                 EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.t, c.conname);
             END LOOP;
         END $$",
    )
    .unwrap();
}

/// A database of its own for one test app, copied from a template migrated once per server (a
/// copy takes a tenth of a second; migrating, seconds); dropped with the app.
pub struct TestDatabase {
    pub url: String,
    name: String,
}

/// Test processes number their databases apart.
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The template's name, with a digest of the migrations it holds: a changed schema gets a template
/// of its own rather than an outdated one.
fn template() -> String {
    use std::hash::{Hash, Hasher};
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    for migration in perkdesk::db::POSTGRES_MIGRATIONS {
        migration.sql.hash(&mut digest);
    }
    format!("perkdesk_template_{:016x}", digest.finish())
}

impl TestDatabase {
    pub fn new() -> TestDatabase {
        let url = std::env::var("PERKDESK_TEST_POSTGRES").expect("PERKDESK_TEST_POSTGRES names the test server");
        let server = Connection::connect_postgres(&url).unwrap();
        ensure_template(&server);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let name = format!("perkdesk_t{}_{n}", std::process::id());
        server.execute_batch(&format!("DROP DATABASE IF EXISTS {name}")).unwrap();
        server.execute_batch(&format!("CREATE DATABASE {name} TEMPLATE {}", template())).unwrap();
        TestDatabase { url: postgres_url(&name), name }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Ok(url) = std::env::var("PERKDESK_TEST_POSTGRES")
            && let Ok(server) = Connection::connect_postgres(&url)
        {
            let _ = server.execute_batch(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name));
        }
    }
}

/// Makes the migrated template once per server: the first process to take the lock builds it
/// under another name and renames it when whole, so no test copies a template half made.
fn ensure_template(server: &Connection) {
    let template = template();
    let exists = |server: &Connection| -> bool {
        server
            .query_row("SELECT COUNT(*) FROM pg_database WHERE datname = ?1", [&template], |row| row.get::<i64>(0))
            .unwrap()
            > 0
    };
    if exists(server) {
        return;
    }
    server.execute_batch("SELECT pg_advisory_lock(7245031618)").unwrap();
    if !exists(server) {
        let building = format!("{template}_building");
        server.execute_batch(&format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)")).unwrap();
        server.execute_batch(&format!("CREATE DATABASE {building}")).unwrap();
        {
            let mut conn = Connection::connect_postgres(&postgres_url(&building)).unwrap();
            perkdesk::db::migrate(&mut conn, &perkdesk::resources::declared()).unwrap();
        }
        server.execute_batch(&format!("ALTER DATABASE {building} RENAME TO {template}")).unwrap();
    }
    server.execute_batch("SELECT pg_advisory_unlock(7245031618)").unwrap();
}
