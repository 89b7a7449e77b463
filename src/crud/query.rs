//! Validated paging, sorting and filtering, turned into one plan: the list's total and the
//! parameterised statement that reads its rows, used alike by the list and the export. Field
//! names only ever come from the resource's whitelist; values only ever travel as parameters.

use crate::db::sql::Value;
use crate::db::sql::{Connection, OptionalExtension, params_from_iter};
use axum::http::HeaderMap;
use time::format_description::well_known::Rfc3339;
use time::{Date, Duration, OffsetDateTime, Time};

use super::{Column, FilterKind, Kind, Resource, Search, Total, ValueKind};
use crate::core::error::{AppError, AppResult};
use crate::db::{CountCache, collation, format_iso};
use crate::http::extract::QueryMap;

/// Largest page a table may ask for.
pub const MAX_PAGE: i64 = 100;
/// Rows returned when a caller (a picker) asks without paging.
pub const UNPAGED_LIMIT: i64 = 1000;
const DEFAULT_PAGE: i64 = 10;
/// A trigram found in fewer rows than this is rare enough to look up on its own; counting stops
/// here, so telling a common trigram from a rare one never reads its whole list.
pub const RARE_TRIGRAM_ROWS: i64 = 1000;

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
    /// How the sort column is ordered: text in the Azerbaijani alphabet, as its index is built.
    sort_order: SortOrder,
    /// The sort column is never NULL (or the list is in id order).
    sort_never_null: bool,
    pub ascending: bool,
    pub language: Language,
    /// Conditions with one parameter each (a date filter adds two).
    conditions: Vec<(String, Value)>,
    /// Trigram searches, grouped by index.
    searches: Vec<(Search, Vec<Phrase>)>,
    /// The same searches as row tests, for [`SearchVia::Scan`].
    scanned: Vec<RowTest>,
}

/// How a list's sort column is spelled in its ORDER BY, in the anchor's reading of it and in the
/// condition that starts a deep page at the anchor: each as the column's index is built, so the
/// page is read from that index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SortOrder {
    /// The value itself (numbers, dates, flags).
    Value,
    /// SQLite's text: the `az` collation's sort key (`az_key`), bytes in the alphabet's order.
    SortKey,
    /// PostgreSQL's text: the column in its ICU `az` collation.
    Collated,
}

impl SortOrder {
    /// The ORDER BY term.
    fn term(self, sort: &str) -> String {
        match self {
            SortOrder::Value => sort.to_string(),
            SortOrder::SortKey => format!("{}({sort})", collation::KEY_FUNCTION),
            SortOrder::Collated => format!("{sort}{}", collation::COLLATE),
        }
    }

    /// What the anchor's statement reads as the anchor row's sort value.
    fn anchor_value(self, sort: &str) -> String {
        match self {
            SortOrder::SortKey => self.term(sort),
            SortOrder::Value | SortOrder::Collated => sort.to_string(),
        }
    }

    /// The anchor row and the rows after it (`comparison` `>=` or `<=`), with its parameters:
    /// the anchor's sort value as often as the condition names it, then its id.
    fn at_and_after_anchor(self, sort: &str, id: &str, comparison: &str, anchor: (Value, i64)) -> (String, Vec<Value>) {
        let (value, anchor_id) = anchor;
        match self {
            SortOrder::Value => (format!("({sort}, {id}) {comparison} (?, ?)"), vec![value, Value::Integer(anchor_id)]),
            // SQLite seeks an index on an expression for a plain comparison with it, not for a
            // row value holding it (it would walk the index from the top to the anchor): the key
            // alone starts the seek, the row value then places the anchor among equal keys.
            SortOrder::SortKey => {
                let key = self.term(sort);
                let condition = format!("{key} {comparison} ? AND ({key}, {id}) {comparison} (?, ?)");
                (condition, vec![value.clone(), value, Value::Integer(anchor_id)])
            }
            // The collation goes on the anchor's side: with it on the column's side the row value
            // no longer names the sort index's column.
            SortOrder::Collated => (
                format!("({sort}, {id}) {comparison} (?{}, ?)", collation::COLLATE),
                vec![value, Value::Integer(anchor_id)],
            ),
        }
    }
}

/// A searched filter's test of one row: the column holds the term, folded.
#[derive(Debug)]
struct RowTest {
    sql: String,
    term: String,
}

impl RowTest {
    /// SQLite's spelling: the registered `contains_text`.
    fn sqlite(&self) -> (String, Value) {
        (self.sqlite_condition(), self.sqlite_value())
    }

    fn sqlite_condition(&self) -> String {
        format!("contains_text({}, ?)", self.sql)
    }

    fn sqlite_value(&self) -> Value {
        Value::Text(self.term.clone())
    }

    /// PostgreSQL's: the folded column (in byte order, as `LIKE` needs a deterministic collation)
    /// against the folded term with its wildcards escaped, the expression its trigram indexes
    /// are built on (migrations/postgres/0016_search.sql), so a rare term is found through them.
    fn postgres(&self) -> (String, Value) {
        let term = crate::db::fold_search(&self.term).replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        (format!("fold_search({}) COLLATE \"C\" LIKE ?", self.sql), Value::Text(format!("%{term}%")))
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
                let order = if column.kind == Kind::Text { SortOrder::SortKey } else { SortOrder::Value };
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

    fn is_filtered(&self) -> bool {
        !self.conditions.is_empty() || !self.searches.is_empty()
    }

    fn has_searches(&self) -> bool {
        !self.searches.is_empty()
    }

    /// The search and its MATCH expression when it is the list's only filter, its index holds
    /// exactly the list's rows, and the index alone answers it (no row needs testing).
    fn index_only_search(&self) -> Option<(&Search, String)> {
        match (self.conditions.is_empty(), self.searches.as_slice()) {
            (true, [(search, phrases)]) if search.scoped && !self.is_narrowed() => Some((search, match_expr(phrases))),
            _ => None,
        }
    }

    /// The search whose index itself yields the page, in id order: the table is then visited for
    /// the page's rows only.
    fn paged_by_index(&self, via: SearchVia) -> Option<(&Search, String)> {
        self.index_only_search().filter(|_| self.sort_sql.is_none() && via == SearchVia::Index)
    }

    /// Some term is looked up by its rare trigrams only, so rows must be tested for the whole term.
    fn is_narrowed(&self) -> bool {
        self.searches.iter().flat_map(|(_, phrases)| phrases).any(|phrase| phrase.rare.is_some())
    }

    /// Looks up a term whose trigrams are partly common (every bench e-mail holds `use` and
    /// `ser`) by its rare trigrams alone and tests the few rows they find for the whole term,
    /// instead of reading and intersecting every trigram's list. `rows_with` counts the rows of
    /// the search's index holding a trigram, up to [`RARE_TRIGRAM_ROWS`].
    fn narrow_searches(&mut self, mut rows_with: impl FnMut(&Search, &str) -> AppResult<i64>) -> AppResult<()> {
        for (search, phrases) in &mut self.searches {
            for phrase in phrases {
                let trigrams = trigrams(&phrase.term);
                if trigrams.len() < 2 {
                    continue;
                }
                let mut rare = vec![];
                for trigram in &trigrams {
                    if rows_with(search, trigram)? < RARE_TRIGRAM_ROWS {
                        rare.push(trigram.clone());
                    }
                }
                if !rare.is_empty() && rare.len() < trigrams.len() {
                    phrase.rare = Some(rare);
                }
            }
        }
        Ok(())
    }

    /// Rows are tested for the searched terms when the page is read by scanning, or when a term
    /// was looked up by its rare trigrams only.
    fn tests_rows(&self, via: SearchVia) -> bool {
        via == SearchVia::Scan || self.is_narrowed()
    }

    /// The parameters of [`ListQuery::where_sql`], in order.
    fn params(&self, via: SearchVia) -> Vec<Value> {
        let mut params: Vec<Value> = self.conditions.iter().map(|(_, value)| value.clone()).collect();
        if via == SearchVia::Index {
            params.extend(self.searches.iter().map(|(_, phrases)| Value::Text(match_expr(phrases))));
        }
        if self.tests_rows(via) {
            params.extend(self.scanned.iter().map(RowTest::sqlite_value));
        }
        params
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
                match self.searches.iter_mut().find(|(s, _)| s.table == search.table) {
                    Some((_, phrases)) => phrases.push(phrase),
                    None => self.searches.push((search, vec![phrase])),
                }
                self.scanned.push(row_test);
            }
            _ => self.conditions.push(row_test.sqlite()),
        }
        Ok(())
    }

    fn push(&mut self, condition: String, value: Value) {
        self.conditions.push((condition, value));
    }

    /// `WHERE` clause: the resource's scope plus every given filter.
    fn where_sql(&self, resource: &Resource, via: SearchVia) -> String {
        let mut parts = vec![resource.scope.to_string()];
        parts.extend(self.conditions.iter().map(|(condition, _)| condition.clone()));
        if via == SearchVia::Index {
            parts.extend(self.searches.iter().map(|(search, _)| {
                format!("{} IN (SELECT rowid FROM {1} WHERE {1} MATCH ?)", search.key, search.table)
            }));
        }
        if self.tests_rows(via) {
            parts.extend(self.scanned.iter().map(RowTest::sqlite_condition));
        }
        format!("WHERE {}", parts.join(" AND "))
    }

    fn order_sql(&self, resource: &Resource) -> String {
        let direction = if self.ascending { "ASC" } else { "DESC" };
        // Empty values first going up, last going down: SQLite's own order, which PostgreSQL
        // reverses unless told (for SQLite these are its defaults, so its plans do not change).
        let nulls = match (self.sort_never_null, self.ascending) {
            (true, _) => "",
            (false, true) => " NULLS FIRST",
            (false, false) => " NULLS LAST",
        };
        match self.sort_sql {
            Some(sort) => {
                format!("ORDER BY {} {direction}{nulls}, {} {direction}", self.sort_order.term(sort), resource.id)
            }
            None => format!("ORDER BY {} {direction}", resource.id),
        }
    }
}

/// A statement and its parameters, ready to run.
#[derive(Debug)]
pub struct Statement {
    pub sql: String,
    pub params: Vec<Value>,
}

impl Statement {
    /// Runs the statement and turns each row into a value.
    pub fn rows<T>(
        &self,
        conn: &Connection,
        mut each: impl FnMut(&crate::db::sql::Row) -> crate::db::sql::Result<T>,
    ) -> AppResult<Vec<T>> {
        let mut stmt = conn.prepare_cached(&self.sql)?;
        let rows = stmt.query_map(params_from_iter(self.params.iter()), |row| each(row))?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}

/// A list request decided once: its total and, when the page can hold rows, how they are read.
#[derive(Debug)]
pub struct ListPlan {
    pub total_count: i64,
    /// `None` when the list is empty or the page lies past its end: nothing to read.
    pub page: Option<Statement>,
}

/// Rows a page may read by scanning before the trigram index is the cheaper way to find it.
/// A row test costs about a microsecond; a phrase looked up in the index costs about as much
/// per match, and every match is visited whatever the page.
const SCAN_BUDGET: i64 = 2000;

/// A page at least this deep starts from the row at the nearest lower multiple of it, found
/// once until the database changes, instead of stepping over every row before it: page 5,000
/// of a list otherwise walks 50,000 index entries on every request.
const ANCHOR_EVERY: i64 = 1000;

/// How many rows the anchor's statement reads (it keeps the first); see `anchor_statement`.
const ANCHOR_READS: i64 = DEFAULT_PAGE;

/// A remembered list position and the row there.
pub type Positioned = (i64, crate::db::Anchor);

impl ListQuery {
    /// Plans one page of `resource`'s list columns: counts the total (a maintained counter, the
    /// search index, or a remembered count), then picks how the page's rows are found.
    pub fn plan_page(mut self, conn: &Connection, counts: &CountCache, resource: &Resource) -> AppResult<ListPlan> {
        self.spell_for(conn);
        self.narrow_searches_in(conn, counts)?;
        let total_count = self.total(conn, counts, resource)?;
        if total_count == 0 || self.skip >= total_count {
            return Ok(ListPlan { total_count, page: None });
        }
        let via = self.search_via(conn, counts, resource, total_count)?;
        let anchor = self.anchor(conn, counts, resource, via)?;
        Ok(ListPlan { total_count, page: Some(self.page_statement(resource, via, anchor)) })
    }

    /// The remembered row at the nearest multiple of [`ANCHOR_EVERY`] at or before the page, when
    /// the page is that deep and its order can be continued from a row (a never-NULL sort).
    pub fn anchor(
        &self,
        conn: &Connection,
        counts: &CountCache,
        resource: &Resource,
        via: SearchVia,
    ) -> AppResult<Option<Positioned>> {
        if self.skip < ANCHOR_EVERY || !self.sort_never_null || self.paged_by_index(via).is_some() {
            return Ok(None);
        }
        let position = self.skip / ANCHOR_EVERY * ANCHOR_EVERY;
        let Statement { sql, params } = self.anchor_statement(resource, via, position);
        let found = counts.anchor(format!("{sql} {params:?}"), || {
            Ok(conn
                .prepare_cached(&sql)?
                .query_row(params_from_iter(params.iter()), |r| Ok((r.get::<Value>(0)?, r.get::<i64>(1)?)))
                .optional()?)
        })?;
        Ok(found.map(|row| (position, row)))
    }

    /// The statement whose first row is the list's row at `position` (its sort value and id).
    /// It reads a few rows, not one: with `LIMIT 1` or `2` SQLite sorts the whole list rather
    /// than walk the sort's index to the position (190 ms instead of 3 ms at row 50,000 of 100,000 users).
    pub fn anchor_statement(&self, resource: &Resource, via: SearchVia, position: i64) -> Statement {
        Statement {
            sql: format!(
                "SELECT {}, {} FROM {} {} {} LIMIT {ANCHOR_READS} OFFSET {position}",
                self.sort_sql.map_or_else(|| resource.id.to_string(), |sort| self.sort_order.anchor_value(sort)),
                resource.id,
                resource.from,
                self.where_sql(resource, via),
                self.order_sql(resource),
            ),
            params: self.params(via),
        }
    }

    /// Plans every matching row of `columns`, in the list's order, for the export.
    pub fn plan_all<'a>(
        mut self,
        conn: &Connection,
        counts: &CountCache,
        resource: &Resource,
        columns: impl Iterator<Item = &'a Column>,
    ) -> AppResult<Statement> {
        self.spell_for(conn);
        self.narrow_searches_in(conn, counts)?;
        let sql = format!(
            "SELECT {} FROM {} {} {}",
            select_sql(columns, self.language),
            resource.from,
            self.where_sql(resource, SearchVia::Index),
            self.order_sql(resource)
        );
        Ok(Statement { sql, params: self.params(SearchVia::Index) })
    }

    /// The statement reading this page of the list columns, with searches answered `via`, from
    /// `anchor` on when there is one.
    pub fn page_statement(&self, resource: &Resource, via: SearchVia, anchor: Option<Positioned>) -> Statement {
        let select = select_sql(resource.list_columns(), self.language);
        let direction = if self.ascending { "ASC" } else { "DESC" };
        match self.paged_by_index(via) {
            Some((search, expr)) => Statement {
                sql: format!(
                    "SELECT {select} FROM {from} WHERE {scope} AND {key} IN (SELECT rowid FROM {index} WHERE {index} \
                     MATCH ?1 ORDER BY rowid {direction} LIMIT {take} OFFSET {skip}) {order}",
                    from = resource.from,
                    scope = resource.scope,
                    key = search.key,
                    index = search.table,
                    take = self.take,
                    skip = self.skip,
                    order = self.order_sql(resource)
                ),
                params: vec![Value::Text(expr)],
            },
            _ => {
                let mut params = self.params(via);
                let (from_anchor, skip) = match anchor {
                    None => (String::new(), self.skip),
                    Some((position, (sort_value, id))) => {
                        // The anchor row and every row after it in the page's order.
                        let comparison = if self.ascending { ">=" } else { "<=" };
                        let condition = match self.sort_sql {
                            Some(sort) => {
                                let (condition, values) = self.sort_order.at_and_after_anchor(
                                    sort,
                                    resource.id,
                                    comparison,
                                    (sort_value, id),
                                );
                                params.extend(values);
                                format!(" AND {condition}")
                            }
                            None => {
                                params.push(Value::Integer(id));
                                format!(" AND {} {comparison} ?", resource.id)
                            }
                        };
                        (condition, self.skip - position)
                    }
                };
                Statement {
                    sql: format!(
                        "SELECT {select} FROM {} {}{from_anchor} {} LIMIT {} OFFSET {skip}",
                        resource.from,
                        self.where_sql(resource, via),
                        self.order_sql(resource),
                        self.take,
                    ),
                    params,
                }
            }
        }
    }

    /// On PostgreSQL every search is a row test its trigram indexes serve: the FTS5 tables, and
    /// the ways of reading them (rare trigrams, counting and paging from the index), are SQLite's.
    fn spell_for(&mut self, conn: &Connection) {
        if conn.is_postgres() {
            if self.sort_order == SortOrder::SortKey {
                self.sort_order = SortOrder::Collated;
            }
            self.searches.clear();
            let tests = std::mem::take(&mut self.scanned);
            self.conditions.extend(tests.iter().map(RowTest::postgres));
        }
    }

    /// Tells rare trigrams from common ones by counting each trigram's rows up to
    /// [`RARE_TRIGRAM_ROWS`], once until the database changes.
    fn narrow_searches_in(&mut self, conn: &Connection, counts: &CountCache) -> AppResult<()> {
        self.narrow_searches(|search, trigram| {
            let sql = format!(
                "SELECT COUNT(*) FROM (SELECT rowid FROM {0} WHERE {0} MATCH ?1 LIMIT {RARE_TRIGRAM_ROWS})",
                search.table
            );
            let phrase = quoted(trigram);
            counts.total(format!("{sql} {phrase}"), || {
                Ok(conn.prepare_cached(&sql)?.query_row([&phrase], |r| r.get(0))?)
            })
        })
    }

    /// The row total: a maintained counter when nothing narrows the list, else a count (from the
    /// search index alone when it is the only filter) remembered until the database changes.
    fn total(&self, conn: &Connection, counts: &CountCache, resource: &Resource) -> AppResult<i64> {
        if !self.is_filtered() {
            return unfiltered_total(conn, counts, resource);
        }
        let count = match self.index_only_search() {
            Some((search, expr)) => Statement {
                sql: format!("SELECT COUNT(*) FROM {0} WHERE {0} MATCH ?1", search.table),
                params: vec![Value::Text(expr)],
            },
            None => Statement {
                sql: format!("SELECT COUNT(*) FROM {} {}", resource.from, self.where_sql(resource, SearchVia::Index)),
                params: self.params(SearchVia::Index),
            },
        };
        let key = format!("{} {:?}", count.sql, count.params);
        counts.total(key, || {
            Ok(conn.prepare_cached(&count.sql)?.query_row(params_from_iter(count.params.iter()), |r| r.get(0))?)
        })
    }

    /// Scan when matches are common enough that reading the table in the page's order meets the
    /// page's last row within [`SCAN_BUDGET`] rows, assuming matches are spread evenly; a common
    /// term (`yse`, or a surname with a role) is then found without visiting all its matches.
    fn search_via(
        &self,
        conn: &Connection,
        counts: &CountCache,
        resource: &Resource,
        total_count: i64,
    ) -> AppResult<SearchVia> {
        if !self.has_searches() {
            return Ok(SearchVia::Index);
        }
        let in_scope = unfiltered_total(conn, counts, resource)?;
        let rows_to_read = (self.skip + self.take).saturating_mul(in_scope) / total_count.max(1);
        Ok(if rows_to_read <= SCAN_BUDGET { SearchVia::Scan } else { SearchVia::Index })
    }
}

/// Every row of the list: a maintained counter where the resource keeps one, else a count.
fn unfiltered_total(conn: &Connection, counts: &CountCache, resource: &Resource) -> AppResult<i64> {
    match resource.total {
        Total::Maintained(key) => {
            let n: Option<i64> = conn
                .prepare_cached("SELECT n FROM row_counts WHERE name = ?1")?
                .query_row([key], |r| r.get(0))
                .optional()?;
            Ok(n.unwrap_or(0))
        }
        Total::IdSpan => {
            // Both ends of the primary key: two look-ups, whatever the length.
            let sql = format!("SELECT COALESCE(MAX(id) - MIN(id) + 1, 0) FROM {}", resource.table);
            Ok(conn.prepare_cached(&sql)?.query_row([], |r| r.get(0))?)
        }
        Total::Counted => {
            let sql = format!("SELECT COUNT(*) FROM {} WHERE {}", resource.from, resource.scope);
            counts.total(sql.clone(), || Ok(conn.prepare_cached(&sql)?.query_row([], |r| r.get(0))?))
        }
    }
}

/// One searched filter's term in its index.
#[derive(Debug)]
struct Phrase {
    columns: &'static str,
    term: String,
    /// When set, the index is asked for these trigrams of the term only.
    rare: Option<Vec<String>>,
}

impl Phrase {
    fn expr(&self) -> String {
        match &self.rare {
            None => format!("{} : {}", self.columns, quoted(&self.term)),
            Some(trigrams) => {
                trigrams.iter().map(|t| format!("{} : {}", self.columns, quoted(t))).collect::<Vec<_>>().join(" AND ")
            }
        }
    }
}

fn match_expr(phrases: &[Phrase]) -> String {
    phrases.iter().map(Phrase::expr).collect::<Vec<_>>().join(" AND ")
}

/// An FTS5 string: everything inside is taken literally.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// The term's distinct three-character windows, the units the trigram index stores.
fn trigrams(term: &str) -> Vec<String> {
    let chars: Vec<char> = term.chars().collect();
    let mut trigrams: Vec<String> = vec![];
    for window in chars.windows(3) {
        let trigram: String = window.iter().collect();
        if !trigrams.contains(&trigram) {
            trigrams.push(trigram);
        }
    }
    trigrams
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
    use serde_json::Value as J;
    Ok(match kind {
        Kind::Int | Kind::Words(_) => row.get::<Option<i64>>(index)?.map_or(J::Null, J::from),
        Kind::Float => row.get::<Option<f64>>(index)?.map_or(J::Null, J::from),
        Kind::Bool => row.get::<Option<i64>>(index)?.map_or(J::Null, |v| J::Bool(v != 0)),
        Kind::Text | Kind::DateTime | Kind::File | Kind::Phone => {
            row.get::<Option<String>>(index)?.map_or(J::Null, J::from)
        }
        Kind::Objects(_) => match row.get::<Option<String>>(index)? {
            Some(json) => serde_json::from_str(&json).map_err(|error| {
                crate::db::sql::Error::column(
                    index.to_string(),
                    "JSON",
                    crate::db::sql::FromSqlError::Other(error.to_string()),
                )
            })?,
            None => J::Array(vec![]),
        },
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
        let refused = ListQuery::parse(&crate::resources::users::USERS, &query, Language::Az).unwrap_err();
        assert_eq!(refused.to_string(), "FirstName must not contain control characters.");
    }

    fn users_query(query: &str) -> ListQuery {
        ListQuery::parse(&crate::resources::users::USERS, &QueryMap::parse(Some(query)), Language::Az).unwrap()
    }

    /// Trigram rows as the bench database has them: every e-mail holds `use` and `ser`.
    fn bench_rows(_: &Search, trigram: &str) -> AppResult<i64> {
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
        assert!(query.where_sql(&crate::resources::users::USERS, SearchVia::Index).ends_with(
            "u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH ?) AND contains_text(u.email, ?)"
        ));
        assert!(query.index_only_search().is_none());
    }

    #[test]
    fn a_term_whose_trigrams_are_all_rare_or_all_common_is_looked_up_whole() {
        for (term, rows) in [("4242", 10), ("user", 5_000), ("Say\"s", 10)] {
            let mut query = users_query(&format!("Email={term}"));
            query.narrow_searches(|_, _| Ok(rows)).unwrap();
            let (_, expr) = query.index_only_search().unwrap();
            // Looked up folded, as the index stores it (migration 5).
            assert_eq!(expr, format!("email : {}", quoted(&crate::db::fold_search(term))));
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
