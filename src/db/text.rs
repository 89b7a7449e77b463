//! `contains_text(haystack, needle)`: the case-insensitive substring test that list filters use
//! when they do not go through a trigram index. It folds case the way the trigram tokenizer
//! does (all of Unicode, not only ASCII as `LIKE` does), so `şah` finds `Şahin` whichever way
//! a filter is answered, and a count from the index agrees with a page read by scanning.

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::ValueRef;

/// Lower case, except `İ`: the trigram tokenizer leaves it as it is, and so must we.
pub fn fold_case(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars() {
        if c == 'İ' {
            folded.push(c);
        } else {
            folded.extend(c.to_lowercase());
        }
    }
    folded
}

fn text(value: ValueRef<'_>) -> Option<&str> {
    match value {
        ValueRef::Text(bytes) => std::str::from_utf8(bytes).ok(),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        "contains_text",
        2,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let (Some(haystack), Some(needle)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
                return Ok(false);
            };
            Ok(fold_case(haystack).contains(&fold_case(needle)))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contains(haystack: Option<&str>, needle: &str) -> bool {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.query_row("SELECT contains_text(?1, ?2)", (haystack, needle), |r| r.get(0)).unwrap()
    }

    #[test]
    fn folds_azerbaijani_letters_and_takes_wildcards_literally() {
        assert!(contains(Some("Şahin Məmmədov"), "şah"));
        assert!(contains(Some("ƏLƏKBƏROV"), "ələk"));
        assert!(contains(Some("ILKIN"), "ilk"));
        assert!(contains(Some("50%_off"), "%_"));
        assert!(!contains(Some("50 off"), "%"));
        assert!(!contains(Some("Aysel"), "ayt"));
        assert!(!contains(None, "a"));
    }

    /// The scan and the trigram index must agree, or a page disagrees with its total.
    #[test]
    fn agrees_with_the_trigram_index() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.execute_batch("CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'trigram');").unwrap();
        let names = ["İlkin", "ILKIN", "Şahin", "şahin", "Əli", "ılgar", "Ülvi", "ÇİÇƏK", "Gülnarə"];
        for name in names {
            conn.execute("INSERT INTO t (x) VALUES (?1)", [name]).unwrap();
        }
        for term in ["ilk", "İlk", "şah", "ŞAH", "əli", "ılg", "Ilg", "ülv", "çiç", "ÇİÇ", "nar"] {
            let phrase = format!("\"{term}\"");
            let mut by_index: Vec<String> = conn
                .prepare("SELECT x FROM t WHERE t MATCH ?1")
                .unwrap()
                .query_map([&phrase], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let mut by_scan: Vec<String> = conn
                .prepare("SELECT x FROM t WHERE contains_text(x, ?1)")
                .unwrap()
                .query_map([term], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            by_index.sort();
            by_scan.sort();
            assert_eq!(by_index, by_scan, "term {term}");
        }
    }
}
