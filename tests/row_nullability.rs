//! Each list column's `never_null` declaration, which the row schemas (and so the client's
//! generated row types) and deep paging rely on, agrees with the tables.
//!
//! A column read straight from a table is never null exactly when the table declares it NOT NULL
//! (or it is the integer primary key) and the table is not on the optional side of a LEFT JOIN.
//! An expression may be declared never null only in a shape that always has a value: COALESCE or
//! IFNULL ending in a literal, a CASE whose every branch is a literal, a count, a comparison, or a
//! concatenation of operands that are never null.

use perkdesk::crud::{Kind, Resource, Sql};
use perkdesk::resources::{self, reports};
// The column origins are SQLite's own metadata (sqlite3_column_table_name), read on a connection
// of the driver's own beside the server's.
use rusqlite::Connection;

fn declared_resources() -> Vec<&'static Resource> {
    let mut all: Vec<&'static Resource> = resources::all().to_vec();
    all.extend([
        &resources::campaigns::CAMPAIGN_ROWS,
        &reports::ASSET_NAMES,
        &reports::PARTNER_NAMES,
        &reports::CAMPAIGN_NAMES,
        &reports::EMPLOYEE_NAMES,
    ]);
    all
}

/// The tables a FROM clause joins with LEFT JOIN: their columns may be null whatever the table says.
fn optional_tables(from: &str) -> Vec<String> {
    let words: Vec<&str> = from.split_whitespace().collect();
    words
        .windows(3)
        .filter(|w| w[0].eq_ignore_ascii_case("LEFT") && w[1].eq_ignore_ascii_case("JOIN"))
        .map(|w| w[2].to_string())
        .collect()
}

/// Whether a table column is NOT NULL (or the integer primary key, which is never null).
fn table_column_never_null(conn: &Connection, table: &str, column: &str) -> bool {
    let mut info = conn.prepare(&format!("PRAGMA table_info({table})")).expect("table_info");
    let rows = info
        .query_map([], |row| {
            Ok((row.get::<_, String>(1)?, row.get::<_, String>(2)?, row.get::<_, i64>(3)?, row.get::<_, i64>(5)?))
        })
        .expect("table_info rows");
    for row in rows {
        let (name, declared_type, not_null, primary_key) = row.expect("table_info row");
        if name == column {
            return not_null == 1 || (primary_key == 1 && declared_type.eq_ignore_ascii_case("INTEGER"));
        }
    }
    panic!("{table}.{column} is not a column");
}

fn is_literal(text: &str) -> bool {
    let text = text.trim();
    (text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'') && !text[1..text.len() - 1].contains('\''))
        || (!text.is_empty() && text.trim_start_matches('-').chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// The expression shapes that always have a value.
fn expression_never_null(sql: &str) -> bool {
    let sql = sql.trim();
    let upper = sql.to_ascii_uppercase();
    let last_argument = |open: &str| {
        upper.starts_with(open)
            && sql.ends_with(')')
            && sql[..sql.len() - 1].rsplit_once(',').is_some_and(|(_, last)| is_literal(last))
    };
    if last_argument("COALESCE(") || last_argument("IFNULL(") {
        return true;
    }
    if upper.starts_with("(SELECT COUNT(") || upper.starts_with("EXISTS") || upper.starts_with("(EXISTS") {
        return true;
    }
    if upper.starts_with("CASE") && upper.ends_with("END") {
        // Every THEN and the ELSE are literals: split on the keywords and look at what follows.
        let mut results = Vec::new();
        for part in upper.split(" THEN ").skip(1) {
            let end = [" WHEN ", " ELSE ", " END"].iter().filter_map(|k| part.find(k)).min().unwrap_or(part.len());
            results.push(part[..end].to_string());
        }
        let Some((_, otherwise)) = upper.rsplit_once(" ELSE ") else { return false };
        results.push(otherwise.trim_end_matches("END").to_string());
        return !results.is_empty() && results.iter().all(|r| is_literal(r));
    }
    [" IS NULL", " IS NOT NULL"].iter().any(|test| upper.ends_with(test))
}

/// Whether the word `keyword` (any case) starts at byte `at`.
fn keyword_at(sql: &str, at: usize, keyword: &str) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = sql.as_bytes();
    sql.get(at..at + keyword.len()).is_some_and(|text| text.eq_ignore_ascii_case(keyword))
        && (at == 0 || !word(bytes[at - 1]))
        && bytes.get(at + keyword.len()).is_none_or(|c| !word(*c))
}

/// The operands of a top-level `||` concatenation (none inside parentheses, CASE or quotes).
fn concatenated(sql: &str) -> Vec<&str> {
    let (mut depth, mut quoted, mut start, mut parts) = (0, false, 0, Vec::new());
    let bytes = sql.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted => depth -= 1,
            _ if !quoted && keyword_at(sql, i, "CASE") => depth += 1,
            _ if !quoted && keyword_at(sql, i, "END") => depth -= 1,
            b'|' if !quoted && depth == 0 && bytes.get(i + 1) == Some(&b'|') => {
                parts.push(sql[start..i].trim());
                i += 1;
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(sql[start..].trim());
    parts
}

/// Whether the column's value can never be null, from the tables and the expression: a
/// concatenation is never null when none of its operands is.
fn derived_never_null(conn: &Connection, resource: &Resource, sql: &str) -> bool {
    // A scalar subquery that finds no row is null, whatever its column (the trash's deleter).
    if sql.trim_start().to_ascii_uppercase().starts_with("(SELECT") {
        return false;
    }
    let operands = concatenated(sql);
    if operands.len() > 1 {
        return operands.iter().all(|operand| is_literal(operand) || derived_never_null(conn, resource, operand));
    }
    let statement = conn
        .prepare(&format!("SELECT {sql} FROM {} WHERE {}", resource.from, resource.scope))
        .unwrap_or_else(|error| panic!("{} {sql}: {error}", resource.path));
    let columns = statement.columns_with_metadata();
    let origin = &columns[0];
    match (origin.table_name(), origin.origin_name()) {
        (Some(table), Some(column)) => {
            let optional = optional_tables(resource.from);
            table_column_never_null(conn, table, column) && !optional.iter().any(|t| t == table)
        }
        _ => expression_never_null(sql),
    }
}

#[test]
fn every_never_null_declaration_agrees_with_the_tables() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let db = perkdesk::app::open_db(&dir.path().join("rows.db")).expect("database");
    let conn = Connection::open(db.path().unwrap()).expect("connection");
    let mut disagreements = Vec::new();
    for resource in declared_resources() {
        for column in resource.columns {
            if column.field == "id" || matches!(column.kind, Kind::Objects(_)) {
                continue;
            }
            let expressions: Vec<&str> = match column.sql {
                Sql::Expr(sql) => vec![sql],
                Sql::Localized(by_language) => by_language.to_vec(),
                Sql::Made(make) => vec![make()],
            };
            let derived = expressions.iter().all(|sql| derived_never_null(&conn, resource, sql));
            if derived != column.never_null {
                disagreements.push(format!(
                    "{} {}: declared {}, the tables say {}",
                    resource.path,
                    column.field,
                    if column.never_null { "never null" } else { "nullable" },
                    if derived { "never null" } else { "nullable" }
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn the_expression_shapes_that_always_have_a_value() {
    assert!(expression_never_null("COALESCE(p.name, '')"));
    assert!(expression_never_null("IFNULL(x.n, 0)"));
    assert!(!expression_never_null("COALESCE(p.name, q.name)"));
    assert!(expression_never_null("CASE u.role_id WHEN 0 THEN 'Admin' WHEN 1 THEN 'User' ELSE 'Call Center' END"));
    assert!(!expression_never_null("CASE WHEN a THEN 'x' END"));
    assert!(!expression_never_null("CASE WHEN a THEN b.name ELSE 'x' END"));
    assert!(expression_never_null("(SELECT COUNT(*) FROM t WHERE t.a = b.id)"));
    assert!(!expression_never_null("(SELECT name FROM t)"));
    assert_eq!(concatenated("a.first_name || ' ' || a.last_name"), vec!["a.first_name", "' '", "a.last_name"]);
    assert_eq!(concatenated("COALESCE(a || b, '')"), vec!["COALESCE(a || b, '')"]);
    assert_eq!(concatenated("'x||y' || a.b"), vec!["'x||y'", "a.b"]);
    assert_eq!(concatenated("CASE WHEN a THEN 'x' || b END"), vec!["CASE WHEN a THEN 'x' || b END"]);
    assert_eq!(optional_tables("a JOIN b x ON 1 LEFT JOIN files f ON f.id = a.file_id"), vec!["files".to_string()]);
}
