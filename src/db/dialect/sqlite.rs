//! SQLite's spelling: the `az` collation's sort key, the registered `contains_text`, and the
//! trigram FTS5 tables that answer searches (migration 5; fed as `search_queue` says).

use super::super::collation::KEY_FUNCTION;
use super::super::sql::Value;

pub(super) fn text_order(column: &str) -> String {
    format!("{KEY_FUNCTION}({column})")
}

/// SQLite seeks an index on an expression for a plain comparison with it, not for a row value
/// holding it (it would walk the index from the top to the anchor): the key alone starts the
/// seek, the row value then places the anchor among equal keys.
pub(super) fn text_at_or_after(
    column: &str,
    id: &str,
    comparison: &str,
    value: Value,
    anchor: i64,
) -> (String, Vec<Value>) {
    let key = text_order(column);
    let condition = format!("{key} {comparison} ? AND ({key}, {id}) {comparison} (?, ?)");
    (condition, vec![value.clone(), value, Value::Integer(anchor)])
}

pub(super) fn contains(column: &str, term: &str) -> (String, Value) {
    (format!("contains_text({column}, ?)"), Value::Text(term.to_string()))
}

pub(super) fn search_index(table: &str) -> Option<SearchIndex> {
    super::super::search_queue::INDEXES
        .iter()
        .map(|(_, index, _)| *index)
        .find(|index| index.strip_suffix("_search") == Some(table))
        .map(|name| SearchIndex { name })
}

/// A trigram FTS5 table that answers searches of one table: `rowid` is the table's id, and each
/// searched column holds its folded text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchIndex {
    name: &'static str,
}

impl SearchIndex {
    /// The rows whose ids the index finds for the MATCH expression parameter.
    pub fn condition(&self, key: &str) -> String {
        format!("{key} IN (SELECT rowid FROM {0} WHERE {0} MATCH ?)", self.name)
    }

    /// How many rows the index finds for the MATCH expression `?1`.
    pub fn count(&self) -> String {
        format!("SELECT COUNT(*) FROM {0} WHERE {0} MATCH ?1", self.name)
    }

    /// How many rows hold a trigram (`?1`), counted no further than `limit`.
    pub fn count_up_to(&self, limit: i64) -> String {
        format!("SELECT COUNT(*) FROM (SELECT rowid FROM {0} WHERE {0} MATCH ?1 LIMIT {limit})", self.name)
    }

    /// The ids of one page of the rows the index finds for `?1`, in id order.
    pub fn page_of_ids(&self, direction: &str, take: i64, skip: i64) -> String {
        format!(
            "SELECT rowid FROM {0} WHERE {0} MATCH ?1 ORDER BY rowid {direction} LIMIT {take} OFFSET {skip}",
            self.name
        )
    }

    /// `columns : "term"`: the phrase of one searched filter, taken literally.
    pub fn phrase(columns: &str, term: &str) -> String {
        format!("{columns} : {}", quoted(term))
    }

    /// Every phrase must match.
    pub fn all_of(phrases: &[String]) -> String {
        phrases.join(" AND ")
    }

    /// A trigram looked up on its own.
    pub fn literal(text: &str) -> String {
        quoted(text)
    }
}

/// An FTS5 string: everything inside is taken literally.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}
