//! Each table is written from one file (docs/architecture.md, "Which file writes a table"): a
//! literal INSERT, UPDATE or DELETE of a table stands in one source file of `src/`, beside the
//! generic mechanism (`crud`), whose statements name their table from a declaration. The demo
//! data (`cli/demo.rs`) and the copy to PostgreSQL (`db/copy.rs`), which fill an empty database
//! in bulk, and unit tests (after `#[cfg(test)]`, or a file of its own named `*_tests.rs`) are the
//! exceptions.

use crate::sources;
use std::collections::{BTreeMap, BTreeSet};

const EXCEPTIONS: &[&str] = &["cli/demo.rs", "db/copy.rs"];

/// The tables a source text writes with literal statements, up to its unit tests.
fn written_tables(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let words: Vec<&str> =
        code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let mut tables = BTreeSet::new();
    for (i, word) in words.iter().enumerate() {
        let table = match *word {
            "INSERT" => words[i + 1..].iter().skip_while(|w| **w != "INTO").nth(1).filter(|_| {
                // INSERT [OR ...] INTO table: INTO within the next three words.
                words[i + 1..].iter().take(3).any(|w| *w == "INTO")
            }),
            "UPDATE" => words.get(i + 1).filter(|next| words.get(i + 2) == Some(&"SET") && **next != "SET"),
            "DELETE" => words.get(i + 2).filter(|_| words.get(i + 1) == Some(&"FROM")),
            _ => None,
        };
        if let Some(table) = table
            && table.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        {
            tables.insert(table.to_string());
        }
    }
    tables
}

#[test]
fn each_table_is_written_from_one_file() {
    let mut writers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (relative, text) in sources::rust_sources() {
        let relative = relative.display().to_string();
        if EXCEPTIONS.contains(&relative.as_str())
            || relative.starts_with("db/migrations")
            || relative.ends_with("_tests.rs")
        {
            continue;
        }
        for table in written_tables(&text) {
            writers.entry(table).or_default().insert(relative.clone());
        }
    }
    assert!(writers.len() >= 20, "found the writers of only {} tables: {writers:?}", writers.len());
    let shared: Vec<String> = writers
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(table, files)| format!("{table} is written from {files:?}"))
        .collect();
    assert!(shared.is_empty(), "{}", shared.join("\n"));
}

#[test]
fn statements_are_read_for_their_tables() {
    let text = r#"tx.execute("INSERT INTO users (a) VALUES (?1)"); tx.execute("INSERT OR IGNORE INTO files (a)");
        conn.execute("UPDATE sessions SET revoked_at = ?2"); conn.execute("DELETE FROM campaign_assets WHERE x");
        let s = format!("UPDATE {} SET", table);"#;
    let tables: Vec<String> = written_tables(text).into_iter().collect();
    assert_eq!(tables, ["campaign_assets", "files", "sessions", "users"]);
}
