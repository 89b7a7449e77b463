//! One write of a declared form, by name: the fields' values as read, the image, the columns the
//! writer computes and the child rows, each checked against the form's declaration, then written
//! as one INSERT or UPDATE that names its columns (`http::form_fields::Columns`) and the child
//! rows after it.

use crate::db::sql::{Connection, Value as SqlValue, on_constraint};

use super::WriteForm;
use crate::core::error::{AppError, AppResult};
use crate::db::now_iso;
use crate::http::form_fields::{Columns, Values};

/// Rows of another table that belong to the written row, each naming it in `parent`: links a
/// write replaces whole (a campaign's assets, an application's cities), or rows of their own,
/// with an id, that a writer adds, edits and removes one by one (a partner's branches).
pub struct Children {
    pub table: &'static str,
    /// The column that names the parent row.
    pub parent: &'static str,
    /// Each row's columns beside `parent`.
    pub columns: &'static [&'static str],
}

impl Children {
    /// The first column of `row` this declaration does not name, if any.
    fn undeclared<'c>(&self, row: &'c Columns) -> Option<&'c str> {
        row.names().find(|column| !self.columns.contains(column))
    }

    fn check(&self, row: &Columns) -> AppResult<()> {
        match self.undeclared(row) {
            Some(column) => Err(undeclared(self.table, &format!("the column {column}"))),
            None => Ok(()),
        }
    }

    /// Replaces the parent's links with `rows`.
    pub fn replace(&self, tx: &Connection, parent: i64, rows: &[Columns]) -> AppResult<()> {
        tx.execute(&format!("DELETE FROM {} WHERE {} = ?1", self.table, self.parent), [parent])?;
        self.link(tx, parent, rows)
    }

    /// Adds `rows` as links of a parent that has none yet (a row just written).
    fn link(&self, tx: &Connection, parent: i64, rows: &[Columns]) -> AppResult<()> {
        for row in rows {
            self.check(row)?;
            Columns::new().set(self.parent, parent).and(row.clone()).insert_link(tx, self.table)?;
        }
        Ok(())
    }

    /// Adds one row of the parent's own; its id.
    pub fn add(&self, tx: &Connection, parent: i64, row: Columns) -> AppResult<i64> {
        self.check(&row)?;
        Ok(Columns::new().set(self.parent, parent).and(row).insert(tx, self.table)?)
    }

    /// Changes the row `id` to `row`'s values.
    pub fn edit(&self, tx: &Connection, id: i64, row: Columns) -> AppResult<()> {
        self.check(&row)?;
        row.update(tx, self.table, id)?;
        Ok(())
    }

    /// Removes the row `id` softly: it is marked deleted at `now`.
    pub fn remove(&self, tx: &Connection, id: i64, now: &str) -> AppResult<()> {
        Columns::new().set("deleted_at", now).update(tx, self.table, id)?;
        Ok(())
    }
}

/// A mistake of the code, not of the request: a write naming what its declaration does not.
fn undeclared(table: &str, what: &str) -> AppError {
    AppError::Internal(anyhow::anyhow!("a write of {table} sets {what}, which its declaration does not name"))
}

/// One write of a [`WriteForm`]: its columns by name and its child rows, made with
/// [`WriteForm::write`] (or [`Write::new`] for a write whose columns are all the writer's) and
/// the setters below, then run with [`Write::insert`] or [`Write::update`].
pub struct Write {
    form: &'static WriteForm,
    columns: Columns,
    children: Vec<(&'static Children, Vec<Columns>)>,
    /// The first unique field of the values, whose message a taken value answers (409).
    unique: Option<(&'static str, &'static str)>,
    /// The first thing set that the declaration does not name: the write is refused when run.
    mistake: Option<String>,
}

impl WriteForm {
    /// A write of this form's fields as read (more of its fields, read apart, with
    /// [`Write::fields`]).
    pub fn write(&'static self, values: &Values) -> Write {
        Write::new(self).fields(values)
    }
}

impl Write {
    /// A write of `form` with nothing set yet.
    pub fn new(form: &'static WriteForm) -> Write {
        Write { form, columns: Columns::new(), children: Vec::new(), unique: None, mistake: None }
    }

    /// Records the first mistake only: it is the one reported.
    fn mistaken(&mut self, what: String) {
        self.mistake.get_or_insert(what);
    }

    fn add(mut self, more: Columns) -> Write {
        if let Some(column) = more.names().find(|column| self.columns.names().any(|set| set == *column)) {
            self.mistaken(format!("the column {column} twice"));
        }
        self.columns = self.columns.and(more);
        self
    }

    /// The stored columns of declared fields read together (a form read in groups adds each).
    pub fn fields(mut self, values: &Values) -> Write {
        let stored = values.stored();
        let form = self.form;
        if let Some(column) = stored.names().find(|column| !form.fields.iter().any(|f| f.column == Some(*column))) {
            self.mistaken(format!("the field column {column}"));
        }
        self.unique = self.unique.or(values.unique());
        self.add(stored)
    }

    /// The stored image's id in the form's image column: an edit without one keeps the stored
    /// image.
    pub fn image(mut self, file_id: Option<i64>) -> Write {
        match (&self.form.image, file_id) {
            (Some(image), _) => self.add(Columns::new().set_or_keep(image.column, file_id)),
            (None, None) => self,
            (None, Some(_)) => {
                self.mistaken("an image".into());
                self
            }
        }
    }

    /// Columns the writer computes; each must be one of the declaration's `computed`.
    pub fn computed(mut self, columns: Columns) -> Write {
        if let Some(column) = columns.names().find(|column| !self.form.computed.contains(column)) {
            self.mistaken(format!("the computed column {column}"));
        }
        self.add(columns)
    }

    /// One computed column.
    pub fn set(self, column: &'static str, value: impl Into<SqlValue>) -> Write {
        self.computed(Columns::new().set(column, value))
    }

    /// One computed column, kept as stored by an edit when there is no value (a second image).
    pub fn set_or_keep<V: Into<SqlValue>>(self, column: &'static str, value: Option<V>) -> Write {
        self.computed(Columns::new().set_or_keep(column, value))
    }

    /// The links of `of` (one of the declaration's `children`) the row has after the write.
    pub fn children(mut self, of: &'static Children, rows: impl IntoIterator<Item = Columns>) -> Write {
        if !self.form.children.iter().any(|declared| std::ptr::eq(*declared, of)) {
            self.mistaken(format!("rows of {}", of.table));
        }
        let rows: Vec<Columns> = rows.into_iter().collect();
        if let Some(column) = rows.iter().find_map(|row| of.undeclared(row)) {
            self.mistaken(format!("the column {column} of {}", of.table));
        }
        self.children.push((of, rows));
        self
    }

    /// The value a column is set to (for the writer's own use of what it set).
    pub fn get(&self, column: &str) -> Option<&SqlValue> {
        self.columns.get(column)
    }

    fn checked(&self) -> AppResult<()> {
        match &self.mistake {
            Some(what) => Err(undeclared(self.form.table, what)),
            None => Ok(()),
        }
    }

    fn on_constraint(&self) -> impl Fn(crate::db::sql::Error) -> AppError {
        let unique = self.unique;
        move |error| match unique {
            Some((field, message)) => on_constraint(field, message)(error),
            None => error.into(),
        }
    }

    /// INSERTs the row, then its links; its id. A taken unique value is a 409 on its field. A row
    /// without links whose failure has no field to name is sent with the next exchange (see
    /// `Columns::insert_later`): what reads it next, the answer's read, carries it.
    pub fn insert(&self, tx: &Connection) -> AppResult<i64> {
        self.checked()?;
        if self.unique.is_none() && self.children.is_empty() {
            return Ok(self.columns.insert_later(tx, self.form.table)?);
        }
        let id = self.columns.insert(tx, self.form.table).map_err(self.on_constraint())?;
        for (children, rows) in &self.children {
            children.link(tx, id, rows)?;
        }
        Ok(id)
    }

    /// INSERTs the row unless the value of its `unique` column is taken; whether it was added.
    pub fn insert_unless_taken(&self, tx: &Connection, unique: &str) -> AppResult<bool> {
        self.checked()?;
        if !self.children.is_empty() {
            return Err(undeclared(self.form.table, "links on a row that may not be added"));
        }
        Ok(self.columns.insert_unless_taken(tx, self.form.table, unique)?)
    }

    /// UPDATEs a live row (and `updated_at`, now unless the write sets it), then replaces its
    /// links; 404 when there is no such row, 409 on a taken unique value's field.
    pub fn update(&self, tx: &Connection, id: i64) -> AppResult<i64> {
        self.checked()?;
        let mut columns = self.columns.clone();
        if self.get("updated_at").is_none() {
            columns = columns.set("updated_at", now_iso());
        }
        let changed = columns.update_live(tx, self.form.table, id).map_err(self.on_constraint())?;
        let id = self.form.resource.updated(changed, id)?;
        for (children, rows) in &self.children {
            children.replace(tx, id, rows)?;
        }
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::validation::Validator;
    use crate::crud::Resource;
    use crate::http::form_fields::{Field, Mode, read_fields};
    use serde_json::json;

    static PARENT: Resource = Resource::of_table("parent", "parent");
    static PARENT_FORM: WriteForm = WriteForm {
        resource: &PARENT,
        table: "parent",
        fields: &[Field::text("name", "name").required("Name is required")],
        image: None,
        extra_parts: &[],
        computed: &["position"],
        children: &[&LINKS],
    };

    static LINKS: Children = Children { table: "link", parent: "parent_id", columns: &["target"] };
    static OTHER: Children = Children { table: "other", parent: "parent_id", columns: &["target"] };

    fn database() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT, position INTEGER, updated_at TEXT, deleted_at TEXT);
             CREATE TABLE link (parent_id INTEGER, target INTEGER);",
        )
        .unwrap();
        conn
    }

    fn values(name: &str) -> Values {
        let body = json!({ "name": name });
        let mut v = Validator::new();
        read_fields(PARENT_FORM.fields, body.as_object().unwrap(), Mode::Create, &mut v)
    }

    fn targets(conn: &Connection, parent: i64) -> Vec<i64> {
        let mut statement = conn.prepare("SELECT target FROM link WHERE parent_id = ?1 ORDER BY target").unwrap();
        statement.query_map([parent], |r| r.get("target")).unwrap().collect::<Result<_, _>>().unwrap()
    }

    fn links(targets: &[i64]) -> Vec<Columns> {
        targets.iter().map(|target| Columns::new().set("target", *target)).collect()
    }

    #[test]
    fn a_write_stores_its_fields_computed_columns_and_links_by_name() {
        let conn = database();
        let id = PARENT_FORM.write(&values("first")).set("position", 3).children(&LINKS, links(&[1, 2])).insert(&conn);
        let id = id.unwrap();
        let (name, position): (String, i64) = conn
            .query_row("SELECT name, position FROM parent", [], |r| Ok((r.get("name")?, r.get("position")?)))
            .unwrap();
        assert_eq!((name.as_str(), position, targets(&conn, id)), ("first", 3, vec![1, 2]));
        PARENT_FORM.write(&values("second")).children(&LINKS, links(&[5])).update(&conn, id).unwrap();
        let (name, position): (String, i64) = conn
            .query_row("SELECT name, position FROM parent", [], |r| Ok((r.get("name")?, r.get("position")?)))
            .unwrap();
        assert_eq!((name.as_str(), position, targets(&conn, id)), ("second", 3, vec![5]), "links replaced");
    }

    #[test]
    fn a_write_naming_what_its_declaration_does_not_is_refused_before_any_statement() {
        let conn = database();
        let undeclared = [
            PARENT_FORM.write(&values("a")).set("colour", "red"),
            PARENT_FORM.write(&values("a")).set("position", 1).set("position", 2),
            PARENT_FORM.write(&values("a")).children(&OTHER, links(&[1])),
            PARENT_FORM.write(&values("a")).children(&LINKS, [Columns::new().set("colour", 1)]),
            PARENT_FORM.write(&values("a")).image(Some(1)),
        ];
        for write in undeclared {
            assert!(matches!(write.insert(&conn), Err(AppError::Internal(_))));
        }
        let rows: i64 = conn.query_row("SELECT COUNT(*) AS n FROM parent", [], |r| r.get("n")).unwrap();
        assert_eq!(rows, 0);
    }

    #[test]
    fn an_edit_of_a_row_that_is_not_there_is_a_404() {
        let conn = database();
        let answer = PARENT_FORM.write(&values("a")).update(&conn, 7);
        assert!(matches!(answer, Err(AppError::NotFound(_))));
    }
}
