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
    perkdesk::db::migrate(&mut conn).unwrap();
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
