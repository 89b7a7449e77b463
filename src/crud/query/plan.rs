//! A parsed list request turned into one plan: its total (a maintained counter, a search index,
//! or a count remembered until the database changes) and the statement that reads its page, from
//! a remembered row when the page is deep, or every matching row for the export.

use crate::db::dialect::Dialect;
use crate::db::sql::{Connection, OptionalExtension, ReadAhead, Value, params_from_iter};

use super::{DEFAULT_PAGE, ListQuery, SearchVia, select_sql};
use crate::core::error::AppResult;
use crate::crud::{Column, Resource, Total};
use crate::db::Reading;

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

/// A page's statement sent ahead of its plan ([`ListQuery::page_ahead`]).
pub struct PageAhead<'c> {
    sent: Statement,
    rows: ReadAhead<'c>,
}

impl PageAhead<'_> {
    /// The page's rows, each turned into a value, when `planned` is the statement sent ahead;
    /// else `planned`'s, read now (the plan is the judge of what the page is).
    pub fn rows<T>(
        self,
        planned: &Statement,
        conn: &Connection,
        each: impl FnMut(&crate::db::sql::Row) -> crate::db::sql::Result<T>,
    ) -> AppResult<Vec<T>> {
        if self.sent.sql != planned.sql || self.sent.params != planned.params {
            return planned.rows(conn, each);
        }
        Ok(self.rows.query_all(each)?)
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
pub const ANCHOR_EVERY: i64 = 1000;

/// How many rows the anchor's statement reads (it keeps the first); see `anchor_statement`.
const ANCHOR_READS: i64 = DEFAULT_PAGE;

/// A remembered list position and the row there.
pub type Positioned = (i64, crate::db::Anchor);

impl ListQuery {
    /// Plans one page of `resource`'s list columns: counts the total (a maintained counter, the
    /// search index, or a remembered count), then picks how the page's rows are found.
    pub fn plan_page(mut self, conn: &Connection, counts: &Reading<'_>, resource: &Resource) -> AppResult<ListPlan> {
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

    /// Sends the page's statement ahead (see `ReadAhead`) when it is known before the total: no
    /// search (how a search's page is read depends on how many rows match) and a page above the
    /// first remembered row. On PostgreSQL it then travels with the request's clock, in one round
    /// trip; [`ListQuery::plan_page`] still decides whether the page is read at all.
    pub fn page_ahead<'c>(&mut self, conn: &'c Connection, resource: &Resource) -> AppResult<Option<PageAhead<'c>>> {
        self.spell_for(conn);
        if self.has_searches() || self.skip >= ANCHOR_EVERY {
            return Ok(None);
        }
        let sent = self.page_statement(resource, SearchVia::Index, None);
        let rows = conn.read_ahead(&sent.sql, params_from_iter(sent.params.iter()))?;
        Ok(Some(PageAhead { sent, rows }))
    }

    /// The remembered row at the nearest multiple of [`ANCHOR_EVERY`] at or before the page, when
    /// the page is that deep and its order can be continued from a row (a never-NULL sort).
    pub fn anchor(
        &self,
        conn: &Connection,
        counts: &Reading<'_>,
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
                self.sort_sql
                    .map_or_else(|| resource.id.to_string(), |sort| self.sort_order.anchor_value(self.dialect, sort)),
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
        counts: &Reading<'_>,
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
            Some((search, index, expr)) => Statement {
                sql: format!(
                    "SELECT {select} FROM {from} WHERE {scope} AND {key} IN ({ids}) {order}",
                    from = resource.from,
                    scope = resource.scope,
                    key = search.key,
                    ids = index.page_of_ids(direction, self.take, self.skip),
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
                                    self.dialect,
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

    /// Spells the plan in the connection's dialect: a search of a table the engine has no search
    /// index for becomes a row test, which the table's own indexes serve (PostgreSQL's trigram
    /// indexes on the folded columns).
    fn spell_for(&mut self, conn: &Connection) {
        self.dialect = Dialect::of(conn);
        for searched in &mut self.searches {
            searched.index = self.dialect.search_index(searched.search.of);
        }
        let (indexed, unindexed): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.searches).into_iter().partition(|searched| searched.index.is_some());
        self.searches = indexed;
        self.tested.extend(unindexed.into_iter().flat_map(|searched| searched.tests));
    }

    /// The row total: a maintained counter when nothing narrows the list, else a count (from the
    /// search index alone when it is the only filter) remembered until the database changes.
    fn total(&self, conn: &Connection, counts: &Reading<'_>, resource: &Resource) -> AppResult<i64> {
        if !self.is_filtered() {
            return unfiltered_total(conn, counts, resource);
        }
        let count = match self.index_only_search() {
            Some((_, index, expr)) => Statement { sql: index.count(), params: vec![Value::Text(expr)] },
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
        counts: &Reading<'_>,
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
fn unfiltered_total(conn: &Connection, counts: &Reading<'_>, resource: &Resource) -> AppResult<i64> {
    match resource.total {
        // Remembered as a count is (the counter moves only with a write, which moves the clock):
        // a list's first page then reads its rows and nothing else.
        Total::Maintained(key) => counts.total(format!("row_counts {key}"), || {
            let n: Option<i64> = conn
                .prepare_cached("SELECT n FROM row_counts WHERE name = ?1")?
                .query_row([key], |r| r.get("n"))
                .optional()?;
            Ok(n.unwrap_or(0))
        }),
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

impl ListQuery {
    /// `WHERE` clause: the resource's scope plus every given filter; [`ListQuery::params`] are its
    /// parameters, in the same order.
    pub(super) fn where_sql(&self, resource: &Resource, via: SearchVia) -> String {
        let mut parts = vec![resource.scope.to_string()];
        parts.extend(self.conditions.iter().map(|(condition, _)| condition.clone()));
        parts.extend(self.tested.iter().map(|test| test.spelled(self.dialect).0));
        parts.extend(self.search_terms(via).0);
        format!("WHERE {}", parts.join(" AND "))
    }

    /// The parameters of [`ListQuery::where_sql`], in order.
    pub(super) fn params(&self, via: SearchVia) -> Vec<Value> {
        let mut params: Vec<Value> = self.conditions.iter().map(|(_, value)| value.clone()).collect();
        params.extend(self.tested.iter().map(|test| test.spelled(self.dialect).1));
        params.extend(self.search_terms(via).1);
        params
    }

    pub(super) fn order_sql(&self, resource: &Resource) -> String {
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
                format!(
                    "ORDER BY {} {direction}{nulls}, {} {direction}",
                    self.sort_order.term(self.dialect, sort),
                    resource.id
                )
            }
            None => format!("ORDER BY {} {direction}", resource.id),
        }
    }
}
