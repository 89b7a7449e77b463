//! Validated paging, sorting and filtering (this file), turned into one plan (`plan.rs`): the
//! list's total and the parameterised statement that reads its rows, used alike by the list and
//! the export, with searches looked up through an index where the engine has one (`search.rs`).
//! Field names only ever come from the resource's whitelist; values only ever travel as
//! parameters; what the engines spell differently comes from `db::dialect`.

mod plan;
mod search;

use crate::db::dialect::Dialect;
use crate::db::sql::Value;
use axum::http::HeaderMap;
use time::format_description::well_known::Rfc3339;
use time::{Date, Duration, OffsetDateTime, Time};

use super::{Column, FilterKind, Kind, Resource, Search, ValueKind};
use crate::core::error::{AppError, AppResult};
use crate::db::format_iso;
use crate::http::extract::QueryMap;

pub use plan::{ListPlan, PageAhead, Statement};
use search::{Phrase, Searched};

/// Largest page a table may ask for.
pub const MAX_PAGE: i64 = 100;
/// Rows returned when a caller (a picker) asks without paging.
pub const UNPAGED_LIMIT: i64 = 1000;
const DEFAULT_PAGE: i64 = 10;

/// Content language chosen by `Accept-Language`: 1 Az (default), 2 En, 3 Ru.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Az = 1,
    En = 2,
    Ru = 3,
}

impl Language {
    pub fn from_headers(headers: &HeaderMap) -> Language {
        let value = headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match value.as_str() {
            "2" => Language::En,
            "3" => Language::Ru,
            v if v.starts_with("en") => Language::En,
            v if v.starts_with("ru") => Language::Ru,
            _ => Language::Az,
        }
    }
}

/// How a list's searched filters are answered: by the trigram index, or by testing each row
/// while reading the table in the page's order (cheap when matches are common).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchVia {
    Index,
    Scan,
}

/// A list request: page, order and the filters that were given.
#[derive(Debug, Clone)]
pub struct ListQuery {
    pub skip: i64,
    pub take: i64,
    pub sort_sql: Option<&'static str>,
    /// How the sort column is ordered: text in the Azerbaijani alphabet, as its index is built.
    sort_order: SortOrder,
    /// The sort column is never NULL (or the list is in id order).
    sort_never_null: bool,
    pub ascending: bool,
    pub language: Language,
    /// Conditions with one parameter each (a date filter adds two).
    conditions: Vec<(String, Value)>,
    /// Terms too short for a search index, tested on each row.
    tested: Vec<RowTest>,
    /// Searched filters, grouped by the searched table.
    searches: Vec<Searched>,
    /// How the plan spells what the engines spell differently (set when it is planned).
    dialect: Dialect,
}

/// How a list's sort column is ordered: by its value (numbers, dates, flags), or as text in the
/// Azerbaijani alphabet, as its index is built (`Dialect::text_order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SortOrder {
    Value,
    Text,
}

impl SortOrder {
    /// The ORDER BY term.
    fn term(self, dialect: Dialect, sort: &str) -> String {
        match self {
            SortOrder::Value => sort.to_string(),
            SortOrder::Text => dialect.text_order(sort),
        }
    }

    /// What the anchor's statement reads as the anchor row's sort value.
    fn anchor_value(self, dialect: Dialect, sort: &str) -> String {
        match self {
            SortOrder::Value => sort.to_string(),
            SortOrder::Text => dialect.text_anchor(sort),
        }
    }

    /// The anchor row and the rows after it (`comparison` `>=` or `<=`), with its parameters.
    fn at_and_after_anchor(
        self,
        dialect: Dialect,
        sort: &str,
        id: &str,
        comparison: &str,
        anchor: (Value, i64),
    ) -> (String, Vec<Value>) {
        let (value, anchor_id) = anchor;
        match self {
            SortOrder::Value => (format!("({sort}, {id}) {comparison} (?, ?)"), vec![value, Value::Integer(anchor_id)]),
            SortOrder::Text => dialect.text_at_or_after(sort, id, comparison, value, anchor_id),
        }
    }
}

/// A searched filter's test of one row: the column holds the term, folded (`Dialect::contains`).
#[derive(Debug, Clone)]
struct RowTest {
    sql: String,
    term: String,
}

impl RowTest {
    fn spelled(&self, dialect: Dialect) -> (String, Value) {
        dialect.contains(&self.sql, &self.term)
    }
}

impl ListQuery {
    pub fn parse(resource: &Resource, query: &QueryMap, language: Language) -> AppResult<ListQuery> {
        let skip = query.int("Skip")?.unwrap_or(0);
        if skip < 0 {
            return Err(AppError::BadRequest("Skip must be 0 or more.".into()));
        }
        let take = match query.int("Take")? {
            None if query.get("Skip").is_some() => DEFAULT_PAGE,
            None => UNPAGED_LIMIT,
            Some(take) if (1..=MAX_PAGE).contains(&take) => take,
            Some(_) => {
                return Err(AppError::BadRequest(format!("Take must be between 1 and {MAX_PAGE}.")));
            }
        };
        let (sort_sql, sort_order, sort_never_null) = match query.get("SortField") {
            None => (None, SortOrder::Value, true),
            Some(field) if field.eq_ignore_ascii_case("id") => (None, SortOrder::Value, true),
            Some(field) => {
                let column = sort_column(resource, field)?;
                let order = if column.kind == Kind::Text { SortOrder::Text } else { SortOrder::Value };
                (Some(column.sql.for_language(language)), order, column.never_null)
            }
        };
        let ascending = query.bool("OrderBy")?.unwrap_or(false);
        let mut list = ListQuery {
            skip,
            take,
            sort_sql,
            sort_order,
            sort_never_null,
            ascending,
            language,
            conditions: vec![],
            tested: vec![],
            searches: vec![],
            // Until the plan is spelled for its connection (`spell_for`).
            dialect: Dialect::default(),
        };
        for filter in resource.filters {
            if let Some(raw) = query.get(filter.param) {
                list.add_filter(filter.param, filter.kind, raw)?;
            }
        }
        Ok(list)
    }

    fn is_filtered(&self) -> bool {
        !self.conditions.is_empty() || !self.tested.is_empty() || !self.searches.is_empty()
    }

    fn add_filter(&mut self, param: &str, kind: FilterKind, raw: &str) -> AppResult<()> {
        match kind {
            FilterKind::Contains { sql, search } => self.add_contains(param, sql, search, raw)?,
            FilterKind::Equals { sql, value, among } => {
                let value = match value {
                    ValueKind::Int => Value::Integer(
                        crate::core::validation::parse_whole(raw)
                            .ok_or_else(|| AppError::BadRequest(format!("{param} must be a whole number.")))?,
                    ),
                    ValueKind::Bool => Value::Integer(match raw.to_ascii_lowercase().as_str() {
                        "true" | "1" => 1,
                        "false" | "0" => 0,
                        _ => {
                            return Err(AppError::BadRequest(format!("{param} must be true or false.")));
                        }
                    }),
                    ValueKind::Text => {
                        crate::core::validation::refuse_control_characters(param, raw)?;
                        Value::Text(raw.to_string())
                    }
                };
                match among {
                    Some(among) => self.push(format!("{among} AND {sql} = ?"), value),
                    None => self.push(format!("{sql} = ?"), value),
                }
            }
            FilterKind::OnDate(sql) => {
                let (start, end) = day_bounds(param, raw)?;
                self.push(format!("{sql} >= ?"), Value::Text(start));
                self.push(format!("{sql} < ?"), Value::Text(end));
            }
            FilterKind::From(sql) => {
                let (start, _) = day_bounds(param, raw)?;
                self.push(format!("{sql} >= ?"), Value::Text(start));
            }
            FilterKind::To(sql) => {
                let (_, end) = day_bounds(param, raw)?;
                // Filters are declared start first, so a start bound on this column is already here.
                let start_condition = format!("{sql} >= ?");
                let reversed = self.conditions.iter().any(|(condition, start)| {
                    *condition == start_condition && matches!(start, Value::Text(start) if *start >= end)
                });
                if reversed {
                    return Err(AppError::BadRequest(REVERSED_RANGE.into()));
                }
                self.push(format!("{sql} < ?"), Value::Text(end));
            }
        }
        Ok(())
    }

    fn add_contains(&mut self, param: &str, sql: &str, search: Option<Search>, term: &str) -> AppResult<()> {
        crate::core::validation::refuse_control_characters(param, term)?;
        let row_test = RowTest { sql: sql.to_string(), term: term.to_string() };
        // The trigram index needs at least three characters; shorter terms scan.
        match search {
            Some(search) if term.chars().count() >= 3 => {
                // The index stores folded text (migration 5), so the term is folded the same way.
                let phrase = Phrase { columns: search.columns, term: crate::db::fold_search(term), rare: None };
                match self.searches.iter_mut().find(|searched| searched.search.of == search.of) {
                    Some(searched) => {
                        searched.phrases.push(phrase);
                        searched.tests.push(row_test);
                    }
                    None => self.searches.push(Searched {
                        search,
                        index: self.dialect.search_index(search.of),
                        phrases: vec![phrase],
                        tests: vec![row_test],
                    }),
                }
            }
            _ => self.tested.push(row_test),
        }
        Ok(())
    }

    fn push(&mut self, condition: String, value: Value) {
        self.conditions.push((condition, value));
    }
}

fn sort_column<'r>(resource: &'r Resource, field: &str) -> AppResult<&'r Column> {
    resource.column(field).filter(|c| c.sortable && c.in_list).ok_or_else(|| {
        let allowed: Vec<&str> = resource.list_columns().filter(|c| c.sortable).map(|c| c.field).collect();
        AppError::BadRequest(format!("Cannot sort by '{field}'. Sort by one of: {}.", allowed.join(", ")))
    })
}

pub const REVERSED_RANGE: &str = "The end date must not be before the start date.";

/// The stored-text bounds `[start, end)` of a day (`2026-11-22`) or from an instant
/// (`2026-11-22T00:00:00+04:00`, where start = end = that instant).
fn day_bounds(param: &str, raw: &str) -> AppResult<(String, String)> {
    let out_of_range = || AppError::BadRequest(format!("{param} must be a date between 0001-01-01 and 9999-12-30."));
    if let Ok(at) = OffsetDateTime::parse(raw, &Rfc3339) {
        // An instant near the ends of the calendar may not exist in UTC (9999-12-31T23:00-05:00).
        let at = at.checked_to_offset(time::UtcOffset::UTC).filter(|at| at.year() >= 1).ok_or_else(out_of_range)?;
        let at = format_iso(at);
        return Ok((at.clone(), at));
    }
    let date_only = raw.get(..10).unwrap_or(raw);
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let day = Date::parse(date_only, &format)
        .map_err(|_| AppError::BadRequest(format!("{param} must be a date like 2026-11-22.")))?;
    let start = day.with_time(Time::MIDNIGHT).assume_utc();
    // The day's end is the next midnight, which the last day of the calendar does not have.
    let end = start.checked_add(Duration::days(1)).filter(|_| day.year() >= 1).ok_or_else(out_of_range)?;
    Ok((format_iso(start), format_iso(end)))
}

/// The SELECT list for the given columns, in the given language.
pub fn select_sql<'a>(columns: impl Iterator<Item = &'a Column>, language: Language) -> String {
    columns.map(|c| c.sql.for_language(language)).collect::<Vec<_>>().join(", ")
}

/// Reads column `index` of a row as JSON according to its kind.
pub fn json_value(row: &crate::db::sql::Row, index: usize, kind: Kind) -> crate::db::sql::Result<serde_json::Value> {
    serde_json::to_value(Cell { row, index, kind }).map_err(|error| unreadable(index.to_string(), error))
}

/// A row's `columns` (in the statement's order from its first column) as one JSON object, written
/// as it is read: a page of a list goes out without a tree of values built and dropped between
/// the row and the answer's bytes.
pub struct RowObject<'a> {
    pub row: &'a crate::db::sql::Row<'a>,
    pub columns: &'a [&'a Column],
}

impl serde::Serialize for RowObject<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut object = serializer.serialize_map(Some(self.columns.len()))?;
        for (index, column) in self.columns.iter().enumerate() {
            object.serialize_entry(column.field, &Cell { row: self.row, index, kind: column.kind })?;
        }
        object.end()
    }
}

/// Column `index` of a row, serialised as its kind says: the one reading of a column as JSON.
struct Cell<'a> {
    row: &'a crate::db::sql::Row<'a>,
    index: usize,
    kind: Kind,
}

impl serde::Serialize for Cell<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use crate::db::sql::Error;
        use serde::ser::{Error as _, SerializeSeq as _};
        let failed = S::Error::custom;
        let Cell { row, index, kind } = *self;
        let text = || {
            let value = row.get_ref(index).map_err(failed)?;
            value.as_str_or_null().map_err(|error| failed(Error::column(index.to_string(), "text", error)))
        };
        match kind {
            Kind::Int | Kind::Words(_) | Kind::Bool => match row.get::<Option<i64>>(index).map_err(failed)? {
                None => serializer.serialize_unit(),
                Some(flag) if matches!(kind, Kind::Bool) => serializer.serialize_bool(flag != 0),
                Some(n) => serializer.serialize_i64(n),
            },
            Kind::Float => match row.get::<Option<f64>>(index).map_err(failed)? {
                None => serializer.serialize_unit(),
                Some(x) => serializer.serialize_f64(x),
            },
            Kind::Text | Kind::DateTime | Kind::File | Kind::Phone => match text()? {
                None => serializer.serialize_unit(),
                Some(text) => serializer.serialize_str(text),
            },
            Kind::Objects(_) | Kind::Strings => {
                match text()? {
                    // Stored JSON (a small array the SQL builds or the column holds), checked by
                    // reading it whole before it is written out.
                    Some(json) => serde_json::from_str::<serde_json::Value>(json)
                        .map_err(|error| failed(unreadable(index.to_string(), error)))?
                        .serialize(serializer),
                    None => serializer.serialize_seq(Some(0))?.end(),
                }
            }
        }
    }
}

/// The error of a column (or a row) that could not be read or written as JSON.
pub fn unreadable(column: String, error: impl std::fmt::Display) -> crate::db::sql::Error {
    crate::db::sql::Error::column(column, "JSON", crate::db::sql::FromSqlError::Other(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::search::trigrams;
    use super::*;
    use crate::crud::Filter;
    use crate::db::dialect::SearchIndex;

    const fn search(columns: &'static str) -> Search {
        Search { key: "u.id", of: "users", columns, scoped: true }
    }

    /// A list of people searched by name and e-mail, as the Users screen's is.
    static PEOPLE: Resource = Resource {
        from: "users u",
        scope: "u.deleted_at IS NULL",
        id: "u.id",
        columns: &[Column::new("id", "u.id", Kind::Int), Column::new("email", "u.email", Kind::Text).never_null()],
        filters: &[
            Filter::searched("FirstName", "u.first_name", search("first_name")),
            Filter::searched("LastName", "u.last_name", search("last_name")),
            Filter::searched("Email", "u.email", search("email")),
            Filter::equals("RoleId", "u.role_id", ValueKind::Int),
        ],
        ..Resource::of_table("people", "users")
    };

    #[test]
    fn day_bounds_cover_one_day_or_one_instant() {
        assert_eq!(
            day_bounds("D", "2026-02-28").unwrap(),
            ("2026-02-28T00:00:00.000Z".into(), "2026-03-01T00:00:00.000Z".into())
        );
        let (start, end) = day_bounds("D", "2026-11-22T00:00:00+04:00").unwrap();
        assert_eq!((start.as_str(), end.as_str()), ("2026-11-21T20:00:00.000Z", "2026-11-21T20:00:00.000Z"));
        assert!(day_bounds("StartDate", "22.11.2026").is_err());
    }

    #[test]
    fn dates_at_the_ends_of_the_calendar_are_refused_not_panicked_on() {
        for raw in ["9999-12-31", "9999-12-31T23:00:00-05:00", "0000-01-01", "-0001-01-01"] {
            assert!(day_bounds("StartDate", raw).is_err(), "{raw}");
        }
        assert!(day_bounds("StartDate", "9999-12-30").is_ok());
    }

    #[test]
    fn control_characters_in_a_searched_term_are_refused() {
        let query = QueryMap::parse(Some("FirstName=ab%00"));
        let refused = ListQuery::parse(&PEOPLE, &query, Language::Az).unwrap_err();
        assert_eq!(refused.to_string(), "FirstName must not contain control characters.");
    }

    fn users_query(query: &str) -> ListQuery {
        ListQuery::parse(&PEOPLE, &QueryMap::parse(Some(query)), Language::Az).unwrap()
    }

    /// Trigram rows as the bench database has them: every e-mail holds `use` and `ser`.
    fn bench_rows(_: SearchIndex, trigram: &str) -> AppResult<i64> {
        Ok(match trigram {
            "use" | "ser" => 100_000,
            "er4" => 11_111,
            "r42" => 1_111,
            _ => 299,
        })
    }

    #[test]
    fn a_term_with_common_trigrams_is_looked_up_by_its_rare_ones_and_tested_whole() {
        let mut query = users_query("Email=user4242&RoleId=1");
        query.narrow_searches(bench_rows).unwrap();
        assert_eq!(
            query.params(SearchVia::Index),
            [
                Value::Integer(1),
                Value::Text(r#"email : "424" AND email : "242""#.into()),
                Value::Text("user4242".into())
            ]
        );
        assert!(query.where_sql(&PEOPLE, SearchVia::Index).ends_with(
            "u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH ?) AND contains_text(u.email, ?)"
        ));
        assert!(query.index_only_search().is_none());
    }

    #[test]
    fn a_term_whose_trigrams_are_all_rare_or_all_common_is_looked_up_whole() {
        for (term, rows) in [("4242", 10), ("user", 5_000), ("Say\"s", 10)] {
            let mut query = users_query(&format!("Email={term}"));
            query.narrow_searches(|_, _| Ok(rows)).unwrap();
            let (_, _, expr) = query.index_only_search().unwrap();
            // Looked up folded, as the index stores it (migration 5).
            assert_eq!(expr, SearchIndex::phrase("email", &crate::db::fold_search(term)));
            assert_eq!(query.params(SearchVia::Index).len(), 1);
        }
    }

    #[test]
    fn a_short_term_asks_for_no_trigram_counts() {
        let mut query = users_query("FirstName=yse&LastName=ab");
        query.narrow_searches(|_, trigram| panic!("counted {trigram}")).unwrap();
        assert!(query.index_only_search().is_none(), "the two-letter term is a row test");
    }

    #[test]
    fn trigrams_are_distinct_character_windows() {
        assert_eq!(trigrams("məmməd"), ["məm", "əmm", "mmə", "məd"]);
        assert_eq!(trigrams("aaaa"), ["aaa"]);
        assert!(trigrams("ab").is_empty());
    }
}
