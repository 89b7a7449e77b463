//! A row's columns by name, as a write stores them, and the INSERT and UPDATE made from them:
//! each statement names its columns beside their values, so no write counts `?N` placeholders
//! by hand. The declared writes (`crud::writes`) and the writers below them (`auth`'s API keys)
//! build their statements here.

use crate::db::sql::{self, Connection, Row, Value, params_from_iter};

/// Columns by name, each with its value: `Some` is written; `None` is kept as stored by an
/// UPDATE (and is NULL in an INSERT): a kept field an edit did not send, an image that did not
/// come.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Columns {
    columns: Vec<(&'static str, Option<Value>)>,
}

impl Columns {
    pub fn new() -> Columns {
        Columns::default()
    }

    /// `column` set to `value`.
    pub fn set(mut self, column: &'static str, value: impl Into<Value>) -> Columns {
        self.columns.push((column, Some(value.into())));
        self
    }

    /// `column` set to `value` when there is one; without, an UPDATE keeps the stored value and
    /// an INSERT leaves it NULL.
    pub fn set_or_keep<V: Into<Value>>(mut self, column: &'static str, value: Option<V>) -> Columns {
        self.columns.push((column, value.map(Into::into)));
        self
    }

    /// The columns of `row` these `names` name, each read by its name as it is stored (a copy of
    /// one row's values into another's).
    pub fn read(row: &Row<'_>, names: &[&'static str]) -> sql::Result<Columns> {
        names.iter().try_fold(Columns::new(), |columns, name| Ok(columns.set(name, row.get::<Value>(*name)?)))
    }

    /// These columns, then `more`.
    pub fn and(mut self, more: Columns) -> Columns {
        self.columns.extend(more.columns);
        self
    }

    /// The columns' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.columns.iter().map(|(column, _)| *column)
    }

    /// The value `column` is set to: `None` when it is not named or is kept.
    pub fn get(&self, column: &str) -> Option<&Value> {
        self.columns.iter().find(|(name, _)| *name == column).and_then(|(_, value)| value.as_ref())
    }

    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    fn values(&self) -> impl Iterator<Item = &Option<Value>> {
        self.columns.iter().map(|(_, value)| value)
    }

    fn insert_sql(&self, table: &str) -> String {
        insert_sql(table, &self.names().collect::<Vec<_>>())
    }

    /// INSERTs the columns as a row of `table` and answers its id.
    pub fn insert(&self, conn: &Connection, table: &str) -> sql::Result<i64> {
        conn.insert(&self.insert_sql(table), params_from_iter(self.values()))
    }

    /// INSERTs the columns as a row of `table` and answers its id, the insert sent with the next
    /// exchange where its id can be taken ahead (PostgreSQL, `Connection::take_id`): its failure,
    /// a broken constraint, is then that exchange's.
    pub fn insert_later(&self, conn: &Connection, table: &str) -> sql::Result<i64> {
        let Some(id) = conn.take_id(table)? else { return self.insert(conn, table) };
        let names: Vec<&str> = std::iter::once("id").chain(self.names()).collect();
        let id_value = Some(Value::from(id));
        conn.execute_later(
            &insert_sql(table, &names),
            params_from_iter(std::iter::once(&id_value).chain(self.values())),
        )?;
        Ok(id)
    }

    /// INSERTs the columns as a row of a `table` whose rows have no id of their own (a link
    /// between two rows).
    pub fn insert_link(&self, conn: &Connection, table: &str) -> sql::Result<()> {
        conn.prepare_cached(&self.insert_sql(table))?.execute(params_from_iter(self.values()))?;
        Ok(())
    }

    /// INSERTs the row unless its value of the `unique` column is taken; whether it was added.
    pub fn insert_unless_taken(&self, conn: &Connection, table: &str, unique: &str) -> sql::Result<bool> {
        let sql = format!("{} ON CONFLICT ({unique}) DO NOTHING", self.insert_sql(table));
        Ok(conn.prepare_cached(&sql)?.execute(params_from_iter(self.values()))? == 1)
    }

    /// UPDATEs the row of `table` with this `id`; how many rows changed.
    pub fn update(&self, conn: &Connection, table: &str, id: i64) -> sql::Result<usize> {
        self.update_where(conn, table, id, "")
    }

    /// UPDATEs the row of `table` with this `id` when it is not deleted; how many rows changed.
    pub fn update_live(&self, conn: &Connection, table: &str, id: i64) -> sql::Result<usize> {
        self.update_where(conn, table, id, " AND deleted_at IS NULL")
    }

    /// The UPDATE of the row `id` names, when `and` (more of the WHERE clause) holds too: a kept
    /// column's stored value stays.
    fn update_where(&self, conn: &Connection, table: &str, id: i64, and: &str) -> sql::Result<usize> {
        let sets: Vec<String> = self
            .columns
            .iter()
            .enumerate()
            .map(|(at, (column, value))| match value {
                Some(_) => format!("{column} = ?{}", at + 2),
                None => format!("{column} = COALESCE(?{}, {column})", at + 2),
            })
            .collect();
        let sql = format!("UPDATE {} SET {} WHERE id = ?1{and}", table, sets.join(", "));
        let id = Some(Value::Integer(id));
        let params = std::iter::once(&id).chain(self.values());
        conn.prepare_cached(&sql)?.execute(params_from_iter(params))
    }
}

/// The INSERT of one row of `table` with these columns `names`, a numbered place each. The places
/// are written with itoa, not a format! each: this runs for every row a write inserts (a use's
/// among them).
fn insert_sql(table: &str, names: &[&str]) -> String {
    let mut places = String::with_capacity(names.len() * 4);
    for place in 1..=names.len() {
        if place > 1 {
            places.push_str(", ");
        }
        places.push('?');
        places.push_str(itoa::Buffer::new().format(place));
    }
    format!("INSERT INTO {} ({}) VALUES ({places})", table, names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, note TEXT, deleted_at TEXT)",
        )
        .unwrap();
        conn
    }

    fn row(conn: &Connection, id: i64) -> (String, Option<String>) {
        conn.query_row("SELECT name, note FROM t WHERE id = ?1", [id], |r| Ok((r.get("name")?, r.get("note")?)))
            .unwrap()
    }

    #[test]
    fn an_insert_names_its_columns_and_a_kept_one_is_null() {
        let conn = table();
        let id = Columns::new().set("name", "a").set_or_keep("note", None::<String>).insert(&conn, "t").unwrap();
        assert_eq!(row(&conn, id), ("a".into(), None));
    }

    #[test]
    fn an_update_keeps_a_column_without_a_value_and_skips_a_deleted_row() {
        let conn = table();
        let id = Columns::new().set("name", "a").set("note", "kept").insert(&conn, "t").unwrap();
        let changed = Columns::new().set("name", "b").set_or_keep("note", None::<String>).update(&conn, "t", id);
        assert_eq!(changed.unwrap(), 1);
        assert_eq!(row(&conn, id), ("b".into(), Some("kept".into())));
        Columns::new().set("deleted_at", "now").update(&conn, "t", id).unwrap();
        assert_eq!(Columns::new().set("name", "c").update_live(&conn, "t", id).unwrap(), 0);
    }

    #[test]
    fn a_taken_unique_value_adds_no_row() {
        let conn = table();
        let first = Columns::new().set("name", "a");
        assert!(first.insert_unless_taken(&conn, "t", "name").unwrap());
        assert!(!first.insert_unless_taken(&conn, "t", "name").unwrap());
    }
}
