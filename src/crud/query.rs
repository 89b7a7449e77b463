//! Validated paging, sorting and filtering, turned into parameterised SQL. Field names only
//! ever come from the resource's whitelist; values only ever travel as parameters.

use axum::http::HeaderMap;
use rusqlite::types::Value;
use time::format_description::well_known::Rfc3339;
use time::{Date, Duration, OffsetDateTime, Time};

use super::{Column, FilterKind, Kind, Resource, Search, ValueKind};
use crate::db::format_iso;
use crate::error::{AppError, AppResult};
use crate::extract::QueryMap;

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
#[derive(Debug)]
pub struct ListQuery {
    pub skip: i64,
    pub take: i64,
    pub sort_sql: Option<&'static str>,
    pub ascending: bool,
    pub language: Language,
    /// Conditions with one parameter each (a date filter adds two).
    conditions: Vec<(String, Value)>,
    /// Trigram searches, one MATCH expression per index.
    searches: Vec<(Search, String)>,
    /// The same searches as row tests, for [`SearchVia::Scan`].
    scanned: Vec<(String, Value)>,
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
        let sort_sql = match query.get("SortField") {
            None => None,
            Some(field) if field.eq_ignore_ascii_case("id") => None,
            Some(field) => Some(sort_column(resource, field)?.sql.for_language(language)),
        };
        let ascending = query.bool("OrderBy")?.unwrap_or(false);
        let mut list = ListQuery {
            skip,
            take,
            sort_sql,
            ascending,
            language,
            conditions: vec![],
            searches: vec![],
            scanned: vec![],
        };
        for filter in resource.filters {
            if let Some(raw) = query.get(filter.param) {
                list.add_filter(filter.param, filter.kind, raw)?;
            }
        }
        Ok(list)
    }

    pub fn is_filtered(&self) -> bool {
        !self.conditions.is_empty() || !self.searches.is_empty()
    }

    pub fn has_searches(&self) -> bool {
        !self.searches.is_empty()
    }

    /// The search when it is the list's only filter and its index holds exactly the list's rows.
    pub fn index_only_search(&self) -> Option<&(Search, String)> {
        match (self.conditions.is_empty(), self.searches.as_slice()) {
            (true, [only]) if only.0.scoped => Some(only),
            _ => None,
        }
    }

    /// The parameters of [`ListQuery::where_sql`], in order.
    pub fn params(&self, via: SearchVia) -> Vec<Value> {
        let conditions = self.conditions.iter().map(|(_, value)| value.clone());
        match via {
            SearchVia::Index => {
                conditions.chain(self.searches.iter().map(|(_, expr)| Value::Text(expr.clone()))).collect()
            }
            SearchVia::Scan => conditions.chain(self.scanned.iter().map(|(_, value)| value.clone())).collect(),
        }
    }

    fn add_filter(&mut self, param: &str, kind: FilterKind, raw: &str) -> AppResult<()> {
        match kind {
            FilterKind::Contains { sql, search } => self.add_contains(sql, search, raw),
            FilterKind::Equals { sql, value } => {
                let value = match value {
                    ValueKind::Int => Value::Integer(
                        raw.parse().map_err(|_| AppError::BadRequest(format!("{param} must be a whole number.")))?,
                    ),
                    ValueKind::Bool => Value::Integer(match raw.to_ascii_lowercase().as_str() {
                        "true" | "1" => 1,
                        "false" | "0" => 0,
                        _ => {
                            return Err(AppError::BadRequest(format!("{param} must be true or false.")));
                        }
                    }),
                    ValueKind::Text => Value::Text(raw.to_string()),
                };
                self.push(format!("{sql} = ?"), value);
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

    fn add_contains(&mut self, sql: &str, search: Option<Search>, term: &str) {
        let row_test = (format!("contains_text({sql}, ?)"), Value::Text(term.to_string()));
        // The trigram index needs at least three characters; shorter terms scan.
        match search {
            Some(search) if term.chars().count() >= 3 => {
                let phrase = format!("{} : \"{}\"", search.columns, term.replace('"', "\"\""));
                match self.searches.iter_mut().find(|(s, _)| s.table == search.table) {
                    Some((_, expr)) => *expr = format!("{expr} AND {phrase}"),
                    None => self.searches.push((search, phrase)),
                }
                self.scanned.push(row_test);
            }
            _ => self.conditions.push(row_test),
        }
    }

    fn push(&mut self, condition: String, value: Value) {
        self.conditions.push((condition, value));
    }

    /// `WHERE` clause: the resource's scope plus every given filter.
    pub fn where_sql(&self, resource: &Resource, via: SearchVia) -> String {
        let mut sql = format!("WHERE {}", resource.scope);
        for (condition, _) in &self.conditions {
            sql.push_str(" AND ");
            sql.push_str(condition);
        }
        match via {
            SearchVia::Index => {
                for (search, _) in &self.searches {
                    sql.push_str(&format!(
                        " AND {} IN (SELECT rowid FROM {1} WHERE {1} MATCH ?)",
                        search.key, search.table
                    ));
                }
            }
            SearchVia::Scan => {
                for (condition, _) in &self.scanned {
                    sql.push_str(" AND ");
                    sql.push_str(condition);
                }
            }
        }
        sql
    }

    pub fn order_sql(&self, resource: &Resource) -> String {
        let direction = if self.ascending { "ASC" } else { "DESC" };
        match self.sort_sql {
            Some(sort) => format!("ORDER BY {sort} {direction}, {} {direction}", resource.id),
            None => format!("ORDER BY {} {direction}", resource.id),
        }
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
    if let Ok(at) = OffsetDateTime::parse(raw, &Rfc3339) {
        let at = format_iso(at);
        return Ok((at.clone(), at));
    }
    let date_only = raw.get(..10).unwrap_or(raw);
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let day = Date::parse(date_only, &format)
        .map_err(|_| AppError::BadRequest(format!("{param} must be a date like 2026-11-22.")))?;
    let start = day.with_time(Time::MIDNIGHT).assume_utc();
    Ok((format_iso(start), format_iso(start + Duration::days(1))))
}

/// The SELECT list for the given columns, in the given language.
pub fn select_sql<'a>(columns: impl Iterator<Item = &'a Column>, language: Language) -> String {
    columns.map(|c| c.sql.for_language(language)).collect::<Vec<_>>().join(", ")
}

/// Reads column `index` of a row as JSON according to its kind.
pub fn json_value(row: &rusqlite::Row, index: usize, kind: Kind) -> rusqlite::Result<serde_json::Value> {
    use serde_json::Value as J;
    Ok(match kind {
        Kind::Int => row.get::<_, Option<i64>>(index)?.map_or(J::Null, J::from),
        Kind::Float => row.get::<_, Option<f64>>(index)?.map_or(J::Null, J::from),
        Kind::Bool => row.get::<_, Option<i64>>(index)?.map_or(J::Null, |v| J::Bool(v != 0)),
        Kind::Text | Kind::DateTime | Kind::File => row.get::<_, Option<String>>(index)?.map_or(J::Null, J::from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
