//! PostgreSQL's spelling: the ICU `az` collation, and the folded column against the folded term
//! (the expression its trigram indexes are built on, migrations/postgres/0016_search.sql).

use super::super::collation::COLLATE;
use super::super::sql::Value;

pub(super) fn text_order(column: &str) -> String {
    format!("{column}{COLLATE}")
}

/// The collation goes on the anchor's side: with it on the column's side the row value no longer
/// names the sort index's column.
pub(super) fn text_at_or_after(
    column: &str,
    id: &str,
    comparison: &str,
    value: Value,
    anchor: i64,
) -> (String, Vec<Value>) {
    (format!("({column}, {id}) {comparison} (?{COLLATE}, ?)"), vec![value, Value::Integer(anchor)])
}

/// The folded column (in byte order, as `LIKE` needs a deterministic collation) against the folded
/// term with its wildcards escaped, so a rare term is found through the trigram indexes.
pub(super) fn contains(column: &str, term: &str) -> (String, Value) {
    let term = super::super::fold_search(term).replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    (format!("fold_search({column}) COLLATE \"C\" LIKE ?"), Value::Text(format!("%{term}%")))
}
