//! Statements and the rows they answer, the same for both engines: parameters bound by place,
//! rows read by a column's name or place (`row.get("first_name")`).

use super::conn::Connection;
use super::error::{Error, Result};
use super::params::{Binder, Params};
use super::pg::{Column, Param};
use super::value::{FromSql, Value, ValueRef};

/// A compiled statement.
pub struct Statement<'c> {
    pub(super) conn: &'c Connection,
    pub(super) inner: StatementInner<'c>,
}

pub(super) enum StatementInner<'c> {
    Sqlite(rusqlite::Statement<'c>),
    SqliteCached(rusqlite::CachedStatement<'c>),
    /// The compiled statement and its text, for a cursor over it.
    Postgres(tokio_postgres::Statement, String),
}

/// A statement as its engine holds it.
enum Side<'s, 'c> {
    Sqlite(&'s mut rusqlite::Statement<'c>),
    Postgres(&'s tokio_postgres::Statement, &'c Connection),
}

/// Binds `params` to a SQLite statement, refusing too few or too many.
fn bind_sqlite(statement: &mut rusqlite::Statement<'_>, params: impl Params) -> Result<()> {
    let mut binder = SqliteBinder { statement, given: 0 };
    params.bind_to(&mut binder)?;
    let expected = binder.statement.parameter_count();
    if binder.given != expected {
        return Err(Error::ParameterCount { expected, given: binder.given });
    }
    Ok(())
}

/// Binds a statement's parameters by position, and checks that every one was given.
struct SqliteBinder<'s, 'c> {
    statement: &'s mut rusqlite::Statement<'c>,
    given: usize,
}

impl Binder for SqliteBinder<'_, '_> {
    fn bind(&mut self, value: ValueRef<'_>) -> Result<()> {
        self.given += 1;
        if self.given > self.statement.parameter_count() {
            return Err(Error::ParameterCount { expected: self.statement.parameter_count(), given: self.given });
        }
        Ok(self.statement.raw_bind_parameter(self.given, ToSqlite(value))?)
    }
}

/// Gathers a PostgreSQL statement's values (copied: they are sent after binding ends).
struct OwnedBinder {
    values: Vec<Value>,
}

impl Binder for OwnedBinder {
    fn bind(&mut self, value: ValueRef<'_>) -> Result<()> {
        self.values.push(value.to_owned());
        Ok(())
    }
}

/// The values of `params` for a PostgreSQL statement, checked against its parameter count.
pub(super) fn gather(statement: &tokio_postgres::Statement, params: impl Params) -> Result<Vec<Value>> {
    let values = owned_values(params)?;
    let expected = statement.params().len();
    if values.len() != expected {
        return Err(Error::ParameterCount { expected, given: values.len() });
    }
    Ok(values)
}

/// The values of `params`, owned (a statement's to run later).
pub(super) fn owned_values(params: impl Params) -> Result<Vec<Value>> {
    let mut binder = OwnedBinder { values: Vec::new() };
    params.bind_to(&mut binder)?;
    Ok(binder.values)
}

/// Runs `work` with the values as the driver takes them.
pub(super) fn with_pg_params<T>(
    values: &[Value],
    work: impl FnOnce(&[&(dyn tokio_postgres::types::ToSql + Sync)]) -> T,
) -> T {
    let params: Vec<Param<'_>> = values.iter().map(|value| Param(ValueRef::from(value))).collect();
    let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
        params.iter().map(|param| param as &(dyn tokio_postgres::types::ToSql + Sync)).collect();
    work(&refs)
}

/// A value handed to SQLite as it is, without a copy.
struct ToSqlite<'a>(ValueRef<'a>);

impl rusqlite::ToSql for ToSqlite<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::ValueRef as Sqlite;
        Ok(rusqlite::types::ToSqlOutput::Borrowed(match self.0 {
            ValueRef::Null => Sqlite::Null,
            ValueRef::Integer(n) => Sqlite::Integer(n),
            ValueRef::Real(x) => Sqlite::Real(x),
            ValueRef::Text(text) => Sqlite::Text(text),
            ValueRef::Blob(bytes) => Sqlite::Blob(bytes),
        }))
    }
}

pub(super) fn from_sqlite(value: rusqlite::types::ValueRef<'_>) -> ValueRef<'_> {
    use rusqlite::types::ValueRef as Sqlite;
    match value {
        Sqlite::Null => ValueRef::Null,
        Sqlite::Integer(n) => ValueRef::Integer(n),
        Sqlite::Real(x) => ValueRef::Real(x),
        Sqlite::Text(text) => ValueRef::Text(text),
        Sqlite::Blob(bytes) => ValueRef::Blob(bytes),
    }
}

impl<'c> Statement<'c> {
    /// The engine's statement, with the connection a PostgreSQL one runs on.
    fn side(&mut self) -> Side<'_, 'c> {
        match &mut self.inner {
            StatementInner::Sqlite(statement) => Side::Sqlite(statement),
            StatementInner::SqliteCached(statement) => Side::Sqlite(statement),
            StatementInner::Postgres(statement, _) => Side::Postgres(statement, self.conn),
        }
    }

    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, params: impl Params) -> Result<usize> {
        match self.side() {
            Side::Sqlite(statement) => {
                bind_sqlite(statement, params)?;
                Ok(statement.raw_execute()?)
            }
            Side::Postgres(statement, conn) => {
                let values = gather(statement, params)?;
                let statement = statement.clone();
                let changed = conn
                    .pg()?
                    .call(move |client| with_pg_params(&values, |params| client.execute(&statement, params)))??;
                Ok(changed as usize)
            }
        }
    }

    /// The rows of the query, one at a time.
    pub fn query(&mut self, params: impl Params) -> Result<Rows<'_>> {
        match self.side() {
            Side::Sqlite(statement) => {
                bind_sqlite(statement, params)?;
                Ok(Rows { inner: RowsInner::Sqlite { rows: statement.raw_query(), names: ColumnNames::default() } })
            }
            Side::Postgres(statement, conn) => {
                let values = gather(statement, params)?;
                // The rows are read whole: the driver's row stream borrows the connection for as
                // long as it is read, which a row handed back through the seam would outlive.
                let statement = statement.clone();
                let rows = conn
                    .pg()?
                    .call(move |client| with_pg_params(&values, |params| client.query(&statement, params)))??;
                Ok(Rows { inner: RowsInner::Postgres { rows: rows.into_iter(), current: None } })
            }
        }
    }

    /// The rows of a query too large to hold at once (an export, a report): on PostgreSQL read
    /// through a cursor, [`CURSOR_BATCH`] rows per exchange, so memory holds one batch; on
    /// SQLite the same as [`Statement::query`], which steps through the rows one at a time.
    pub fn query_in_batches(&mut self, params: impl Params) -> Result<Rows<'_>> {
        let StatementInner::Postgres(statement, text) = &self.inner else {
            return self.query(params);
        };
        let values = gather(statement, params)?;
        let (name, fetch) = self.conn.declare_cursor(text, &values)?;
        Ok(Rows {
            inner: RowsInner::PostgresCursor {
                conn: self.conn,
                name,
                fetch,
                batch: Vec::new().into_iter(),
                current: None,
                done: false,
            },
        })
    }

    /// Each row of the query read by `read`.
    pub fn query_map<T, F>(&mut self, params: impl Params, read: F) -> Result<MappedRows<'_, F>>
    where
        F: FnMut(&Row<'_>) -> Result<T>,
    {
        Ok(MappedRows { rows: self.query(params)?, read })
    }

    /// The first row, read by `read`; [`Error::NoRows`] when there is none.
    pub fn query_row<T>(&mut self, params: impl Params, read: impl FnOnce(&Row<'_>) -> Result<T>) -> Result<T> {
        let mut rows = self.query(params)?;
        match rows.next()? {
            Some(row) => read(&row),
            None => Err(Error::NoRows),
        }
    }

    pub fn column_count(&self) -> usize {
        match &self.inner {
            StatementInner::Sqlite(statement) => statement.column_count(),
            StatementInner::SqliteCached(statement) => statement.column_count(),
            StatementInner::Postgres(statement, _) => statement.columns().len(),
        }
    }
}

/// The rows of a running query.
pub struct Rows<'s> {
    inner: RowsInner<'s>,
}

enum RowsInner<'s> {
    Sqlite {
        rows: rusqlite::Rows<'s>,
        names: ColumnNames,
    },
    Postgres {
        rows: std::vec::IntoIter<tokio_postgres::Row>,
        current: Option<tokio_postgres::Row>,
    },
    /// A cursor read a batch at a time; `done` once a batch came back short.
    PostgresCursor {
        conn: &'s Connection,
        name: String,
        fetch: tokio_postgres::Statement,
        batch: std::vec::IntoIter<tokio_postgres::Row>,
        current: Option<tokio_postgres::Row>,
        done: bool,
    },
}

/// Rows a cursor hands over per exchange: few enough that a batch of wide rows stays small in
/// memory, many enough that the round trips cost little beside the rows.
pub const CURSOR_BATCH: usize = 1000;

impl Drop for Rows<'_> {
    /// A cursor is closed however the reading ends. A failure is left unsaid: the transaction it
    /// lived in has failed (and the cursor with it), or the connection is gone.
    fn drop(&mut self) {
        if let RowsInner::PostgresCursor { conn, name, .. } = &self.inner
            && let Ok(pg) = conn.pg()
        {
            let close = format!("CLOSE {name}");
            let _ = pg.call(move |client| client.batch_execute(&close));
        }
    }
}

impl Rows<'_> {
    /// The next row, or `None` after the last. Not an `Iterator`: each row borrows the cursor
    /// (rusqlite's and SQLite's own shape), which `Iterator::next` cannot express.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        match &mut self.inner {
            RowsInner::Sqlite { rows, names } => {
                Ok(rows.next()?.map(|row| Row { inner: RowInner::Sqlite(row, names) }))
            }
            RowsInner::Postgres { rows, current } => {
                *current = rows.next();
                Ok(current.as_ref().map(|row| Row { inner: RowInner::Postgres(row) }))
            }
            RowsInner::PostgresCursor { conn, fetch, batch, current, done, .. } => {
                *current = batch.next();
                if current.is_none() && !*done {
                    let statement = fetch.clone();
                    let rows = conn.pg()?.call(move |client| client.query(&statement, &[]))??;
                    *done = rows.len() < CURSOR_BATCH;
                    *batch = rows.into_iter();
                    *current = batch.next();
                }
                Ok(current.as_ref().map(|row| Row { inner: RowInner::Postgres(row) }))
            }
        }
    }
}

/// The rows of a query, each read as its caller asked.
pub struct MappedRows<'s, F> {
    rows: Rows<'s>,
    read: F,
}

impl<T, F> Iterator for MappedRows<'_, F>
where
    F: FnMut(&Row<'_>) -> Result<T>,
{
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        match self.rows.next() {
            Ok(Some(row)) => Some((self.read)(&row)),
            Ok(None) => None,
            Err(error) => Some(Err(error)),
        }
    }
}

/// One row of a query's result.
pub struct Row<'r> {
    inner: RowInner<'r>,
}

enum RowInner<'r> {
    Sqlite(&'r rusqlite::Row<'r>, &'r ColumnNames),
    Postgres(&'r tokio_postgres::Row),
}

impl<'r> Row<'r> {
    /// A row PostgreSQL answered, read through the seam.
    pub(super) fn of_postgres(row: &'r tokio_postgres::Row) -> Row<'r> {
        Row { inner: RowInner::Postgres(row) }
    }
}

impl Row<'_> {
    /// The column `index` names (its name in the statement, or its place from 0) read as `T`.
    pub fn get<T: FromSql>(&self, index: impl RowIndex) -> Result<T> {
        T::from_sql(self.get_ref(index)?)
            .map_err(|error| Error::column(index.to_string(), std::any::type_name::<T>(), error))
    }

    /// The column `index` names as it is stored.
    pub fn get_ref(&self, index: impl RowIndex) -> Result<ValueRef<'_>> {
        match (&self.inner, index.place()) {
            (RowInner::Sqlite(row, _), Place::At(at)) => Ok(from_sqlite(row.get_ref(at)?)),
            (RowInner::Sqlite(row, names), Place::Named(name)) => {
                let at =
                    names.place_of(row, name).ok_or_else(|| rusqlite::Error::InvalidColumnName(name.to_string()))?;
                Ok(from_sqlite(row.get_ref(at)?))
            }
            (RowInner::Postgres(row), Place::At(at)) => Ok(row.try_get::<_, Column<'_>>(at)?.0),
            (RowInner::Postgres(row), Place::Named(name)) => Ok(row.try_get::<_, Column<'_>>(name)?.0),
        }
    }
}

/// A SQLite query's column names, asked of the statement once, at the first read by name, for
/// all its rows. rusqlite's own lookup asks SQLite for every name before the one it seeks, a
/// locked call each, at every read: a use's check reads some forty columns by name, and those
/// calls were a twentieth of the inbound write's instructions.
#[derive(Default)]
struct ColumnNames(std::cell::OnceCell<Vec<Box<str>>>);

impl ColumnNames {
    /// The place of the column `name` (compared as rusqlite compares it, ignoring ASCII case).
    fn place_of(&self, row: &rusqlite::Row<'_>, name: &str) -> Option<usize> {
        let names = self.0.get_or_init(|| {
            let statement = row.as_ref();
            // A name SQLite cannot answer (out of memory) matches nothing: the read is refused
            // as a column the statement does not have.
            (0..statement.column_count())
                .map(|at| statement.column_name(at).map(Box::from).unwrap_or_default())
                .collect()
        });
        names.iter().position(|candidate| candidate.eq_ignore_ascii_case(name))
    }
}

/// Which column of a row: its name in the statement (`"first_name"`, an alias), or its place from 0.
pub trait RowIndex: Copy + std::fmt::Display {
    #[doc(hidden)]
    fn place(self) -> Place<'static>;
}

#[doc(hidden)]
pub enum Place<'a> {
    At(usize),
    Named(&'a str),
}

impl RowIndex for usize {
    fn place(self) -> Place<'static> {
        Place::At(self)
    }
}

impl RowIndex for &'static str {
    fn place(self) -> Place<'static> {
        Place::Named(self)
    }
}
