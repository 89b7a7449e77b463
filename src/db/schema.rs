//! Questions about the schema itself that the trash asks (which tables refer to a table, and
//! through which columns), in each engine's own catalogue.

use super::sql::{Connection, Result};

/// Each (table, column) whose foreign key refers to `table`, by table name.
pub fn references_to(conn: &Connection, table: &str) -> Result<Vec<(String, String)>> {
    let sql = if conn.sqlite().is_some() {
        "SELECT m.name, k.\"from\" FROM sqlite_schema m, pragma_foreign_key_list(m.name) k
         WHERE m.type = 'table' AND k.\"table\" = ?1 ORDER BY m.name"
    } else {
        "SELECT t.relname::text, a.attname::text FROM pg_constraint c
         JOIN pg_class t ON t.oid = c.conrelid
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
         WHERE c.contype = 'f' AND c.confrelid = to_regclass(?1) ORDER BY t.relname"
    };
    conn.prepare_cached(sql)?.query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
}

/// The columns of `table` whose foreign key refers to `target`.
pub fn references_from(conn: &Connection, table: &str, target: &str) -> Result<Vec<String>> {
    let sql = if conn.sqlite().is_some() {
        "SELECT \"from\" FROM pragma_foreign_key_list(?1) WHERE \"table\" = ?2"
    } else {
        "SELECT a.attname::text FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
         WHERE c.contype = 'f' AND c.conrelid = to_regclass(?1) AND c.confrelid = to_regclass(?2)"
    };
    conn.prepare_cached(sql)?.query_map([table, target], |r| r.get(0))?.collect()
}
