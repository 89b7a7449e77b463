//! The trash's rows, kept by triggers made from the resources' declarations ([`Trashed`]): a
//! delete (`deleted_at` set) adds the record with its label, a restore (cleared) or the row's
//! removal takes it out, a row inserted already deleted (an import of history) is added, and a
//! new deletion time re-adds it, newest. In the writing transaction, whatever writes (the
//! screens, the CLI, the sqlite3 shell). The restore and purge rules are the resources' own
//! (`resources::trash`).

use super::sql::{Connection, Result};

/// A kind of record whose soft-deleted rows the trash holds.
#[derive(Clone, Copy, Debug)]
pub struct Trashed {
    /// The resource as the API spells its path (`campaign/category`), as the activity log does.
    pub kind: &'static str,
    pub table: &'static str,
    /// Which of the table's rows are this kind's (`{row}` is the row); all when `None`.
    pub rows: Option<&'static str>,
    /// The record's name as it is when deleted, SQL over the row (`{row}`).
    pub label: &'static str,
}

/// Makes the trash's triggers follow `trashed`, in the caller's transaction.
pub(super) fn install(conn: &Connection, trashed: &[Trashed]) -> Result<()> {
    if conn.is_postgres() {
        return conn.execute_batch(&postgres(trashed));
    }
    let has_trash: bool =
        conn.query_row("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'trash')", [], |row| row.get(0))?;
    if !has_trash {
        // A database before migration 14 (a test stopping short).
        return Ok(());
    }
    let wanted: Vec<(String, String)> =
        trashed.iter().enumerate().flat_map(|(index, kind)| sqlite(index, kind)).collect();
    super::triggers::sync_sqlite(conn, "trash_", &wanted)
}

/// ` AND <rows>` of `row`, or nothing.
fn and_rows(kind: &Trashed, row: &str) -> String {
    kind.rows.map(|rows| format!(" AND {}", rows.replace("{row}", row))).unwrap_or_default()
}

/// SQLite's three triggers of one kind, as SQLite keeps their text.
fn sqlite(index: usize, kind: &Trashed) -> Vec<(String, String)> {
    let Trashed { kind: name, table, label, .. } = *kind;
    let prefix = format!("trash_{index}_{table}");
    let label = |row: &str| format!("COALESCE({}, '')", label.replace("{row}", row));
    let insert = "INSERT INTO trash (kind, record_id, label, deleted_at)";
    let remove = format!("DELETE FROM trash WHERE kind = '{name}' AND record_id = OLD.id");
    vec![
        (
            format!("{prefix}_au"),
            format!(
                "CREATE TRIGGER {prefix}_au AFTER UPDATE OF deleted_at ON {table} WHEN OLD.deleted_at IS NOT NEW.deleted_at{} \
                 BEGIN {remove}; {insert} SELECT '{name}', NEW.id, {}, NEW.deleted_at WHERE NEW.deleted_at IS NOT NULL; END",
                and_rows(kind, "NEW"),
                label("NEW")
            ),
        ),
        (
            format!("{prefix}_ai"),
            format!(
                "CREATE TRIGGER {prefix}_ai AFTER INSERT ON {table} WHEN NEW.deleted_at IS NOT NULL{} \
                 BEGIN {insert} VALUES ('{name}', NEW.id, {}, NEW.deleted_at); END",
                and_rows(kind, "NEW"),
                label("NEW")
            ),
        ),
        (
            format!("{prefix}_ad"),
            format!(
                "CREATE TRIGGER {prefix}_ad AFTER DELETE ON {table} WHEN OLD.deleted_at IS NOT NULL{} BEGIN {remove}; END",
                and_rows(kind, "OLD")
            ),
        ),
    ]
}

/// PostgreSQL's: each kind's label as `trash_label(row)` overloaded on its table's row type (the
/// one trigger function `track_trash()` of migration 16 calls it), and its triggers, made again at
/// each start as the activity log's are.
fn postgres(trashed: &[Trashed]) -> String {
    let mut sql = String::from(
        "DO $$ DECLARE t record; BEGIN
             FOR t IN SELECT tgname, tgrelid::regclass AS tab FROM pg_trigger WHERE tgname LIKE 'trash\\_%' LOOP
                 EXECUTE format('DROP TRIGGER %I ON %s', t.tgname, t.tab);
             END LOOP;
         END $$;\n",
    );
    for (index, kind) in trashed.iter().enumerate() {
        let Trashed { kind: name, table, label, .. } = *kind;
        sql.push_str(&format!(
            "CREATE OR REPLACE FUNCTION trash_label(r {table}) RETURNS text LANGUAGE sql STABLE RETURN COALESCE({}, '');\n",
            label.replace("{row}", "r")
        ));
        let trigger = format!("trash_{index}_{table}");
        match kind.rows {
            // WHEN cannot name NEW in a delete's trigger, nor OLD in an insert's: one trigger each.
            Some(rows) => sql.push_str(&format!(
                "CREATE TRIGGER {trigger}_ai AFTER INSERT ON {table} FOR EACH ROW WHEN ({}) EXECUTE FUNCTION track_trash('{name}');
                 CREATE TRIGGER {trigger}_au AFTER UPDATE OF deleted_at ON {table} FOR EACH ROW WHEN ({}) EXECUTE FUNCTION track_trash('{name}');
                 CREATE TRIGGER {trigger}_ad AFTER DELETE ON {table} FOR EACH ROW WHEN ({}) EXECUTE FUNCTION track_trash('{name}');\n",
                rows.replace("{row}", "NEW"),
                rows.replace("{row}", "NEW"),
                rows.replace("{row}", "OLD"),
            )),
            None => sql.push_str(&format!(
                "CREATE TRIGGER {trigger} AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON {table} FOR EACH ROW \
                 EXECUTE FUNCTION track_trash('{name}');\n"
            )),
        }
    }
    sql
}
