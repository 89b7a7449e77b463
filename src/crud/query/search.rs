//! Searched filters looked up through a search index (SQLite's trigram tables, through
//! `db::dialect::SearchIndex`): the terms of one searched table asked together, a term whose
//! trigrams are partly common asked by its rare ones and its rows tested whole, and a search
//! alone counted and paged from its index.

use crate::db::dialect::SearchIndex;
use crate::db::sql::{Connection, Value};

use super::{ListQuery, RowTest, SearchVia};
use crate::core::error::AppResult;
use crate::crud::Search;
use crate::db::Reading;

/// A trigram found in fewer rows than this is rare enough to look up on its own; counting stops
/// here, so telling a common trigram from a rare one never reads its whole list.
pub const RARE_TRIGRAM_ROWS: i64 = 1000;

/// The searched filters on one table: their phrases for its index, and the same terms as row
/// tests (for [`SearchVia::Scan`], or where the engine has no index for the table).
#[derive(Debug, Clone)]
pub(super) struct Searched {
    pub search: Search,
    pub index: Option<SearchIndex>,
    pub phrases: Vec<Phrase>,
    pub tests: Vec<RowTest>,
}

/// One searched filter's term in its index.
#[derive(Debug, Clone)]
pub(super) struct Phrase {
    pub columns: &'static str,
    pub term: String,
    /// When set, the index is asked for these trigrams of the term only.
    pub rare: Option<Vec<String>>,
}

impl Phrase {
    fn expr(&self) -> String {
        match &self.rare {
            None => SearchIndex::phrase(self.columns, &self.term),
            Some(trigrams) => SearchIndex::all_of(
                &trigrams.iter().map(|trigram| SearchIndex::phrase(self.columns, trigram)).collect::<Vec<_>>(),
            ),
        }
    }
}

/// The MATCH expression of a table's phrases: every one must match.
pub(super) fn match_expr(phrases: &[Phrase]) -> String {
    SearchIndex::all_of(&phrases.iter().map(Phrase::expr).collect::<Vec<_>>())
}

/// The term's distinct three-character windows, the units the trigram index stores.
pub(super) fn trigrams(term: &str) -> Vec<String> {
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

impl ListQuery {
    pub(super) fn has_searches(&self) -> bool {
        !self.searches.is_empty()
    }

    /// The search, its index and MATCH expression when it is the list's only filter, its index
    /// holds exactly the list's rows, and the index alone answers it (no row needs testing).
    pub(super) fn index_only_search(&self) -> Option<(&Search, SearchIndex, String)> {
        match (self.conditions.is_empty() && self.tested.is_empty(), self.searches.as_slice()) {
            (true, [searched]) if searched.search.scoped && !self.is_narrowed() => {
                Some((&searched.search, searched.index?, match_expr(&searched.phrases)))
            }
            _ => None,
        }
    }

    /// The search whose index itself yields the page, in id order: the table is then visited for
    /// the page's rows only.
    pub(super) fn paged_by_index(&self, via: SearchVia) -> Option<(&Search, SearchIndex, String)> {
        self.index_only_search().filter(|_| self.sort_sql.is_none() && via == SearchVia::Index)
    }

    /// Some term is looked up by its rare trigrams only, so rows must be tested for the whole term.
    pub(super) fn is_narrowed(&self) -> bool {
        self.searches.iter().flat_map(|searched| &searched.phrases).any(|phrase| phrase.rare.is_some())
    }

    /// Rows are tested for the searched terms when the page is read by scanning, or when a term
    /// was looked up by its rare trigrams only.
    pub(super) fn tests_rows(&self, via: SearchVia) -> bool {
        via == SearchVia::Scan || self.is_narrowed()
    }

    /// The searches' conditions and parameters, as read `via`.
    pub(super) fn search_terms(&self, via: SearchVia) -> (Vec<String>, Vec<Value>) {
        let (mut conditions, mut params) = (Vec::new(), Vec::new());
        if via == SearchVia::Index {
            for searched in &self.searches {
                if let Some(index) = searched.index {
                    conditions.push(index.condition(searched.search.key));
                    params.push(Value::Text(match_expr(&searched.phrases)));
                }
            }
        }
        if self.tests_rows(via) {
            for (condition, value) in self.searches.iter().flat_map(|s| &s.tests).map(|t| t.spelled(self.dialect)) {
                conditions.push(condition);
                params.push(value);
            }
        }
        (conditions, params)
    }

    /// Looks up a term whose trigrams are partly common (every bench e-mail holds `use` and
    /// `ser`) by its rare trigrams alone and tests the few rows they find for the whole term,
    /// instead of reading and intersecting every trigram's list. `rows_with` counts the rows of
    /// the search's index holding a trigram, up to [`RARE_TRIGRAM_ROWS`].
    pub(super) fn narrow_searches(
        &mut self,
        mut rows_with: impl FnMut(SearchIndex, &str) -> AppResult<i64>,
    ) -> AppResult<()> {
        for searched in &mut self.searches {
            let Some(index) = searched.index else { continue };
            for phrase in &mut searched.phrases {
                let trigrams = trigrams(&phrase.term);
                if trigrams.len() < 2 {
                    continue;
                }
                let mut rare = vec![];
                for trigram in &trigrams {
                    if rows_with(index, trigram)? < RARE_TRIGRAM_ROWS {
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

    /// Tells rare trigrams from common ones by counting each trigram's rows up to
    /// [`RARE_TRIGRAM_ROWS`], once until the database changes.
    pub(super) fn narrow_searches_in(&mut self, conn: &Connection, counts: &Reading<'_>) -> AppResult<()> {
        self.narrow_searches(|index, trigram| {
            let sql = index.count_up_to(RARE_TRIGRAM_ROWS);
            let literal = SearchIndex::literal(trigram);
            counts.total(format!("{sql} {literal}"), || {
                Ok(conn.prepare_cached(&sql)?.query_row([&literal], |r| r.get(0))?)
            })
        })
    }
}
