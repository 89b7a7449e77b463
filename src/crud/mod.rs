//! The generic list mechanism. A resource declares where its rows come from, which fields sort
//! and filter, and what its export holds; from that declaration come list, filter, detail,
//! soft delete, the active toggle and the .xlsx export, with their OpenAPI descriptions.

pub mod events;
mod export;
mod handlers;
mod query;
mod schema;
mod status;
pub mod writes;

use crate::db::sql::Connection;

use crate::auth::{CurrentUser, Roles};
use crate::core::error::AppResult;

pub use export::{SheetWriter, export as export_file, file_response};
pub use handlers::{
    ActiveChange, Deleted, IdList, ListPage, delete_rows, export_call, fetch_detail, fetch_page, history_route,
    list_call, list_call_doc, list_params, routes, routes_over, save_then_fetch, save_then_fetch_with, toggle_call,
};
pub use query::{Language, ListPlan, ListQuery, MAX_PAGE, SearchVia, Statement, UNPAGED_LIMIT, select_sql};
pub use schema::{list as list_schema, row as row_schema};
pub use status::{StatusAction, StatusValues, status_route};

/// A row the call names that does not exist (or not in the caller's scope); `{kind}` is the
/// resource's `name`, which the routes declare beside it so the panel translates both.
pub const NOT_FOUND: &str = "{kind} not found.";

/// How the generic calls refuse what the panel may meet (another operator deleted the rows).
pub const REFUSALS: &[&str] =
    &[NOT_FOUND, "{missing} of the {n} selected records were not found; nothing was deleted.", query::REVERSED_RANGE];

/// How the generic calls refuse what only a hand-made request sends.
pub const MACHINE_REFUSALS: &[&str] = &[
    "Select at least one record to {verb}.",
    "{Verb} at most 1000 records at a time.",
    "Skip must be 0 or more.",
    "Take must be between 1 and {max}.",
    "{param} must be a whole number.",
    "{param} must be true or false.",
    "{param} must not contain control characters.",
    "Cannot sort by '{field}'. Sort by one of: {fields}.",
    "{param} must be a date between 0001-01-01 and 9999-12-30.",
    "{param} must be a date like 2026-11-22.",
];

/// A resource's declaration.
pub struct Resource {
    /// Path under `/api`, spelled as in the specification (`user`, `humanResource`).
    pub path: &'static str,
    /// The OpenAPI component of its rows (`UserRow`), which the client's generated types name.
    pub row: &'static str,
    /// OpenAPI tag and export sheet name, e.g. `Users`.
    pub tag: &'static str,
    /// Singular, capitalised, for messages and schema names: `User` → "User not found."
    pub name: &'static str,
    /// The table that soft delete and the active toggle write to.
    pub table: &'static str,
    /// `FROM` clause: the table (aliased) and any joins the columns need.
    pub from: &'static str,
    /// Condition every row of this resource meets (live rows, kind).
    pub scope: &'static str,
    /// The row id expression, e.g. `u.id`.
    pub id: &'static str,
    /// How the unfiltered total is known.
    pub total: Total,
    pub columns: &'static [Column],
    pub filters: &'static [Filter],
    pub export: Option<Export>,
    /// Who may read lists, details and exports.
    pub read: Roles,
    /// Who may delete and toggle.
    pub write: Roles,
    /// Offer `PATCH {path}/active`.
    pub toggle: bool,
    /// Offer `DELETE {path}` (soft delete of an id list).
    pub delete: bool,
    /// Runs inside the delete/toggle/restore transaction after the generic update; an error rolls
    /// back.
    pub on_change: Option<ChangeHook>,
    /// Adds fields to the detail answer (e.g. a partner's city branches).
    pub detail_extra: Option<DetailExtra>,
    /// Its records as a list of them is called in a sentence ("usage records").
    pub plural: &'static str,
    /// A record's name, SQL over its table's row (`{row}`): the name the activity log gives its
    /// entries' record and, unless its trash declares a longer one, the Trash's label of a deleted
    /// one. `None`: its records have none.
    pub label: Option<&'static str>,
    /// What the activity log records of its tables, its History tab's entries (empty: nothing).
    pub history: &'static [Recorded],
    /// Its soft-deleted rows are kept in the trash, and come back or go for good by these rules.
    pub trash: Option<Trash>,
    /// The webhook events its writes raise (`events`); `None`: none.
    pub events: Option<&'static events::Events>,
    /// The tables its writes touch that the activity log does not record, each with the reason
    /// (`tests/history_decisions.rs` asks every table for a decision).
    pub unrecorded: &'static [(&'static str, &'static str)],
}

pub use crate::db::activity::Recorded;

/// What a restore from the trash and a purge of a resource's records must respect beyond the
/// generic steps.
#[derive(Clone, Copy, Debug)]
pub struct Trash {
    /// Which of its table's rows are its records (`{row}` is the row); all when `None`.
    pub rows: Option<&'static str>,
    /// Links that must lead to a live record for a restore: (column, field, parent table, what the
    /// parent is called). A usage record keeps its links whatever they lead to: it is history.
    pub parents: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// A value a live record may have taken while this one was deleted: (field, query that finds
    /// the taker, `?1` the record's id).
    pub unique: Option<(&'static str, &'static str)>,
    /// The rows that belong to the record only, as (table, the condition that picks them, `?1`
    /// the record's id, what they are called): the resource's hook removes them
    /// (`Change::Purging`) before the record goes, and a refused purge names what still refers
    /// to them.
    pub owned: &'static [(&'static str, &'static str, &'static str)],
    /// The login the record signs in with (`?1` its id), deleted for good after it.
    pub login: Option<&'static str>,
    /// The Trash's label of a deleted record (`{row}` its row) when its name alone would not tell
    /// two deleted records apart (a person's e-mail beside the name); the resource's label when
    /// `None`.
    pub label: Option<&'static str>,
}

impl Trash {
    /// A record with nothing more to respect.
    pub const PLAIN: Trash = Trash { rows: None, parents: &[], unique: None, owned: &[], login: None, label: None };
}

/// Where a list's unfiltered total comes from.
#[derive(Clone, Copy, Debug)]
pub enum Total {
    /// A `row_counts` key, maintained by triggers in the writing transaction.
    Maintained(&'static str),
    /// The span of the ids, for a log that only grows at the newest end and is only pruned from
    /// the oldest (the activity log): counting it, or a counter, would cost every write.
    IdSpan,
    /// `COUNT(*)`, remembered until the database changes (small tables).
    Counted,
}

pub type DetailHook =
    fn(&crate::db::sql::Connection, i64, Language) -> AppResult<Vec<(&'static str, serde_json::Value)>>;

/// Fields a single row's answer has beyond the columns: their names and shapes (for the row
/// schema, and so the client's type), and the function that loads them.
#[derive(Clone, Copy)]
pub struct DetailExtra {
    pub fields: &'static [(&'static str, ExtraShape)],
    pub load: DetailHook,
}

#[derive(Clone, Copy, Debug)]
pub enum ExtraShape {
    /// A list of row ids.
    Ids,
    /// A list of objects with these fields, none of them null.
    Objects(&'static [(&'static str, Kind)]),
}

/// A resource's follow-up of a generic change, with the staff user making it (`None`: the server's
/// own work, the trash's retention).
pub type ChangeHook = fn(&Connection, Option<&CurrentUser>, &Change) -> AppResult<()>;

#[derive(Debug)]
pub enum Change<'a> {
    Deleted(&'a [i64]),
    /// Brought back from the trash (`resources::trash`), after the rows' `deleted_at` is cleared.
    Restored(&'a [i64]),
    /// About to be deleted for good from the trash: the hook removes the rows that belong to these
    /// only (a partner's city branches), each table by its own writer.
    Purging(&'a [i64]),
    Toggled {
        id: i64,
        active: bool,
    },
}

/// The SQL behind a field: one expression, one per content language (Az, En, Ru), or one made
/// once from the other declarations (the activity log's record names).
#[derive(Clone, Copy, Debug)]
pub enum Sql {
    Expr(&'static str),
    Localized([&'static str; 3]),
    Made(fn() -> &'static str),
}

impl Sql {
    pub fn for_language(self, language: Language) -> &'static str {
        match self {
            Sql::Expr(sql) => sql,
            Sql::Localized(by_language) => by_language[language as usize - 1],
            Sql::Made(make) => make(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Float,
    Text,
    Bool,
    /// ISO 8601 text in the database; an Excel date-time in exports.
    DateTime,
    /// A `cdn/...` path to an uploaded image; never sortable.
    File,
    /// A list of objects with these fields, which the SQL builds as a JSON array (a request's
    /// cities); never sortable.
    Objects(&'static [(&'static str, Kind)]),
    /// A list of words, which the column holds as a JSON array of texts (a webhook's events);
    /// never sortable.
    Strings,
    /// A phone's digits (994513342591); exports write it as the screen shows it, +994 51 334 25 91.
    Phone,
    /// A small integer code (a campaign's notification status) that exports write as the word the
    /// screen shows for it: the code indexes the words.
    Words(&'static [&'static str]),
}

#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// camelCase field name in JSON and the `SortField` value.
    pub field: &'static str,
    pub sql: Sql,
    pub kind: Kind,
    pub sortable: bool,
    /// Shown in list rows (detail always has every column).
    pub in_list: bool,
    /// The column is never NULL: the row schema says so (the client's type has no `null`), and
    /// a deep page sorted by it can start from a remembered row (see `query::plan::ANCHOR_EVERY`).
    /// `tests/row_nullability.rs` checks each declaration against the tables.
    pub never_null: bool,
}

impl Column {
    pub const fn new(field: &'static str, sql: &'static str, kind: Kind) -> Column {
        Column {
            field,
            sql: Sql::Expr(sql),
            kind,
            sortable: !matches!(kind, Kind::File | Kind::Objects(_) | Kind::Strings),
            in_list: true,
            never_null: false,
        }
    }

    /// A column whose SQL is made once from the other declarations.
    pub const fn made(field: &'static str, sql: fn() -> &'static str, kind: Kind) -> Column {
        Column { field, sql: Sql::Made(sql), kind, sortable: false, in_list: true, never_null: false }
    }

    pub const fn localized(field: &'static str, sql: [&'static str; 3]) -> Column {
        Column { field, sql: Sql::Localized(sql), kind: Kind::Text, sortable: true, in_list: true, never_null: false }
    }

    /// Declares that the column's value is never NULL (NOT NULL in its table, not on the
    /// optional side of a LEFT JOIN, or an expression that always has a value).
    pub const fn never_null(self) -> Column {
        Column { never_null: true, ..self }
    }

    pub const fn unsorted(self) -> Column {
        Column { sortable: false, ..self }
    }

    pub const fn detail_only(self) -> Column {
        Column { in_list: false, sortable: false, ..self }
    }
}

/// A query parameter that narrows a list.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// The parameter name as the specification spells it (matched case-insensitively).
    pub param: &'static str,
    pub kind: FilterKind,
}

#[derive(Clone, Copy, Debug)]
pub enum FilterKind {
    /// Case-insensitive substring; through the trigram index when one is named.
    Contains { sql: &'static str, search: Option<Search> },
    Equals {
        sql: &'static str,
        value: ValueKind,
        /// A condition the matching rows also meet, written out so a partial index on it serves
        /// the filter (a parameter never matches an index's condition).
        among: Option<&'static str>,
    },
    /// The date-time expression falls on the given day.
    OnDate(&'static str),
    /// On or after the given day (or instant).
    From(&'static str),
    /// On or before the given day (or instant), inclusive.
    To(&'static str),
}

/// What a `Contains` filter searches: a table's folded text, by the row's id (`key`) and the
/// searched fields' name in its search (`columns`). Where an index of the engine answers searches
/// of the table on its own (`db::dialect::Dialect::search_index`), the plan reads it; otherwise
/// the rows are tested. Terms on one table are looked up together.
#[derive(Clone, Copy, Debug)]
pub struct Search {
    pub key: &'static str,
    /// The searched table.
    pub of: &'static str,
    pub columns: &'static str,
    /// The search holds exactly the resource's rows (its triggers follow the scope), so a search
    /// alone is counted and, in id order, paged from its index without visiting the table.
    pub scoped: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Int,
    Bool,
    Text,
}

impl Filter {
    pub const fn contains(param: &'static str, sql: &'static str) -> Filter {
        Filter { param, kind: FilterKind::Contains { sql, search: None } }
    }

    pub const fn searched(param: &'static str, sql: &'static str, search: Search) -> Filter {
        Filter { param, kind: FilterKind::Contains { sql, search: Some(search) } }
    }

    pub const fn equals(param: &'static str, sql: &'static str, value: ValueKind) -> Filter {
        Filter { param, kind: FilterKind::Equals { sql, value, among: None } }
    }

    /// Equals among the rows that meet `among` (the activity log's user filter: a user's id among
    /// the entries written by users, whose index holds only those).
    pub const fn equals_among(param: &'static str, among: &'static str, sql: &'static str, value: ValueKind) -> Filter {
        Filter { param, kind: FilterKind::Equals { sql, value, among: Some(among) } }
    }

    pub const fn on_date(param: &'static str, sql: &'static str) -> Filter {
        Filter { param, kind: FilterKind::OnDate(sql) }
    }

    pub const fn from(param: &'static str, sql: &'static str) -> Filter {
        Filter { param, kind: FilterKind::From(sql) }
    }

    pub const fn to(param: &'static str, sql: &'static str) -> Filter {
        Filter { param, kind: FilterKind::To(sql) }
    }
}

/// The spreadsheet a resource exports: its file name and (header, field) columns.
#[derive(Clone, Copy, Debug)]
pub struct Export {
    pub file_name: &'static str,
    pub columns: &'static [(&'static str, &'static str)],
}

#[cfg(test)]
impl Resource {
    /// A resource of one table that declares nothing else, for the mechanism's unit tests, which
    /// keep to this layer (the declared resources sit above it): `..Resource::of_table(..)`.
    pub(crate) const fn of_table(path: &'static str, table: &'static str) -> Resource {
        Resource {
            path,
            row: "Row",
            tag: "Tests",
            name: "Record",
            table,
            from: table,
            scope: "1 = 1",
            id: "id",
            total: Total::Counted,
            columns: &[],
            filters: &[],
            export: None,
            read: Roles::ADMIN,
            write: Roles::ADMIN,
            toggle: false,
            delete: false,
            on_change: None,
            detail_extra: None,
            plural: "records",
            label: None,
            history: &[],
            trash: None,
            events: None,
            unrecorded: &[],
        }
    }
}

impl Resource {
    pub fn column(&self, field: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.field.eq_ignore_ascii_case(field))
    }

    pub fn list_columns(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| c.in_list)
    }

    pub fn not_found(&self) -> crate::core::error::AppError {
        crate::core::error::AppError::NotFound(NOT_FOUND.replace("{kind}", self.name))
    }

    /// `id` when an UPDATE changed a row, otherwise this resource's 404.
    pub fn updated(&self, changed_rows: usize, id: i64) -> AppResult<i64> {
        if changed_rows == 0 { Err(self.not_found()) } else { Ok(id) }
    }
}
