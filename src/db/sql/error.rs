//! One error type for both engines, with the questions callers ask of a failed statement: was it
//! a unique value already taken, a row others still refer to, or no row at all.

use super::value::FromSqlError;
use crate::core::error::AppError;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Sqlite(rusqlite::Error),
    #[error("{}", postgres_message(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// A piece of work one engine does not do (a SQLite-only setting on PostgreSQL).
    #[error("{0}")]
    Engine(&'static str),
    /// A query that must return a row returned none ([`OptionalExtension`] makes it `None`).
    #[error("the query returned no rows")]
    NoRows,
    #[error("column {index} cannot be read as {wanted}: {reason}")]
    Column { index: String, wanted: &'static str, reason: String },
    #[error("the value {0} is out of the database's integer range")]
    OutOfRange(String),
    #[error("an insert of one row changed {0} rows")]
    InsertedRows(usize),
    #[error("the statement takes {expected} parameters, {given} were given")]
    ParameterCount { expected: usize, given: usize },
}

/// The server's own words for a failure ("db error" alone says nothing), or the driver's.
fn postgres_message(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => error.to_string(),
    }
}

impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Self {
        match error {
            rusqlite::Error::QueryReturnedNoRows => Error::NoRows,
            error => Error::Sqlite(error),
        }
    }
}

impl Error {
    /// A column's value that could not be read as `wanted`.
    pub fn column(index: String, wanted: &'static str, error: FromSqlError) -> Error {
        let reason = match error {
            FromSqlError::InvalidType => "another type is stored".to_string(),
            FromSqlError::OutOfRange(n) => format!("{n} is out of range"),
            FromSqlError::Other(reason) => reason,
        };
        Error::Column { index, wanted, reason }
    }

    /// The statement broke a constraint: a UNIQUE value already taken, a CHECK, a foreign key.
    pub fn is_constraint_violation(&self) -> bool {
        match self {
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => e.code == rusqlite::ErrorCode::ConstraintViolation,
            // Class 23: integrity constraint violation.
            Error::Postgres(error) => error.code().is_some_and(|code| code.code().starts_with("23")),
            _ => false,
        }
    }

    /// The transaction lost to a concurrent one (PostgreSQL's serialization failure or
    /// deadlock): nothing of it is kept, and running it again sees the winner's work.
    pub fn is_contended(&self) -> bool {
        match self {
            Error::Postgres(error) => error.code().is_some_and(|code| {
                code == &tokio_postgres::error::SqlState::T_R_SERIALIZATION_FAILURE
                    || code == &tokio_postgres::error::SqlState::T_R_DEADLOCK_DETECTED
            }),
            _ => false,
        }
    }

    /// A claim taken ahead of a request's work failed its transaction: another server holds it,
    /// or the request was answered already (`db::cluster::claim_ahead_sql`). Nothing of the
    /// transaction is kept; the request runs again, claiming first.
    pub fn is_claimed_elsewhere(&self) -> bool {
        match self {
            Error::Postgres(error) => error.as_db_error().is_some_and(|db| {
                db.code() == &tokio_postgres::error::SqlState::UNDEFINED_OBJECT
                    && db.message().contains(crate::db::cluster::CLAIMED_OR_ANSWERED)
            }),
            _ => false,
        }
    }

    /// The change could not be recorded in the activity log (its triggers' entry or the functions
    /// they call failed), so the statement, and with it the write, failed.
    pub fn is_unrecorded(&self) -> bool {
        let message = match self {
            Error::Sqlite(rusqlite::Error::SqliteFailure(_, Some(message))) => message.as_str(),
            Error::Sqlite(rusqlite::Error::UserFunctionError(error)) => return error.to_string().contains("activity"),
            Error::Postgres(error) => match error.as_db_error() {
                Some(db) => db.message(),
                None => return false,
            },
            _ => return false,
        };
        message.contains("activity")
    }

    /// The statement failed on a foreign key: a row others still refer to (a purge).
    pub fn is_foreign_key(&self) -> bool {
        match self {
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::ConstraintViolation
                    && e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY
            }
            Error::Postgres(error) => error.code() == Some(&tokio_postgres::error::SqlState::FOREIGN_KEY_VIOLATION),
            _ => false,
        }
    }
}

/// `query_row(…).optional()`: no row is `None`, any other failure stays one.
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(Error::NoRows) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

impl From<Error> for AppError {
    fn from(error: Error) -> Self {
        if error.is_contended() {
            tracing::info!(error = %error, "a write lost to a concurrent one");
            return AppError::Contended;
        }
        if error.is_claimed_elsewhere() {
            tracing::debug!("a request's claim taken ahead was held elsewhere, or it was answered already");
            return AppError::Contended;
        }
        if error.is_unrecorded() {
            tracing::error!(error = %error, "a write was refused: its activity log entry could not be written");
            return AppError::NotRecorded;
        }
        AppError::Internal(error.into())
    }
}

/// The engine's own failures in `db`'s engine-specific code (settings, the count cache's watcher).
impl From<rusqlite::Error> for AppError {
    fn from(error: rusqlite::Error) -> Self {
        Error::from(error).into()
    }
}

/// A write's constraint failure (a taken unique value) as a 409 on the field it is about, for
/// `.map_err(on_constraint("email", DUPLICATE_EMAIL))`; any other failure stays what it was.
pub fn on_constraint(field: &'static str, message: &'static str) -> impl Fn(Error) -> AppError {
    move |error| if error.is_constraint_violation() { AppError::taken(field, message) } else { error.into() }
}

/// True when a failure, however it was passed on, is a statement's foreign-key failure.
pub fn is_foreign_key(error: &AppError) -> bool {
    matches!(error, AppError::Internal(error) if error.downcast_ref::<Error>().is_some_and(Error::is_foreign_key))
}
