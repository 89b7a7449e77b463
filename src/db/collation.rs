//! `az`: text in the order of the Azerbaijani alphabet (A B C Ç D E Ə F G Ğ H X I İ J K Q L M N O
//! Ö P R S Ş T U Ü V Y Z), without regard to case, Cyrillic after Latin. It is ICU4X's collator
//! with CLDR's Azerbaijani tailoring at secondary strength (case-blind, accent-aware), registered
//! on every connection.
//!
//! SQLite's sort indexes are built on the collator's sort key, `az_key(column)` (migration 17):
//! bytes whose plain order is the collation's, computed once per row written, where an index in
//! `COLLATE az` called into ICU4X at every comparison of every insert (with 100,000 usage rows,
//! the key saves 8.8 % of an inbound write's instructions: docs/performance.md). The lists'
//! ORDER BY names the same expression, so a sorted page reads its rows from an index. PostgreSQL
//! builds its indexes in its own ICU `az` collation, compared natively.

use std::cmp::Ordering;
use std::sync::LazyLock;

use icu_collator::options::{CollatorOptions, Strength};
use icu_collator::{Collator, CollatorBorrowed};
use icu_locale_core::locale;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

/// The collation's name in SQL (`ORDER BY name COLLATE az`).
pub const NAME: &str = "az";

/// What a text sort appends to its expression (the lists' ORDER BY and deep-page anchors).
pub const COLLATE: &str = " COLLATE az";

/// The sort key function's name in SQL (`ORDER BY az_key(name)`).
pub const KEY_FUNCTION: &str = "az_key";

/// Which collator built the indexes, kept in the `collations` table: a build whose collator may
/// order differently (another ICU4X data release) rebuilds them at start.
pub const VERSION: &str = "icu_collator 2.4 az secondary";

static COLLATOR: LazyLock<Option<CollatorBorrowed<'static>>> = LazyLock::new(|| {
    let mut options = CollatorOptions::default();
    options.strength = Some(Strength::Secondary);
    Collator::try_new(locale!("az").into(), options).ok()
});

/// Compares two texts in the Azerbaijani alphabet (what `COLLATE az` does).
pub fn compare(a: &str, b: &str) -> Option<Ordering> {
    COLLATOR.as_ref().map(|collator| collator.compare(a, b))
}

/// The text's sort key: two keys compare as bytes as their texts compare in the collation (equal
/// exactly when the texts are). Text that is not UTF-8 is read as the collator reads it (each bad
/// sequence a replacement character).
pub fn sort_key(collator: &CollatorBorrowed<'_>, text: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(text.len() * 2 + 2);
    // Writing into a Vec cannot fail.
    let Ok(()) = collator.write_sort_key_utf8_to(text, &mut key);
    key
}

/// Registers the `az` collation and the `az_key` function on the connection. The collator's data
/// is compiled into the binary, so it is there; were it not, opening the database fails rather
/// than sort by another order than the indexes were built in.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let Some(collator) = COLLATOR.as_ref() else {
        return Err(rusqlite::Error::UserFunctionError(
            "the Azerbaijani collation data is missing from this build".into(),
        ));
    };
    conn.create_collation(NAME, move |a, b| collator.compare(a, b))?;
    // Deterministic, as an index on it must be; innocuous, as it reads nothing but its argument.
    conn.create_scalar_function(
        KEY_FUNCTION,
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC | FunctionFlags::SQLITE_INNOCUOUS,
        move |ctx| {
            Ok(match ctx.get_raw(0) {
                ValueRef::Null => None,
                ValueRef::Text(text) | ValueRef::Blob(text) => Some(sort_key(collator, text)),
                // A number sorts by its text, as the collation would have compared it.
                other => Some(sort_key(collator, sql_text(other).as_bytes())),
            })
        },
    )
}

fn sql_text(value: ValueRef<'_>) -> String {
    match value {
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => x.to_string(),
        _ => String::new(),
    }
}

/// Rebuilds the sort indexes when another collator (or a stand-in) built them, and records this
/// one. Runs at start, after the migrations; a no-op when the record matches.
pub fn rebuild_if_changed(conn: &mut Connection) -> rusqlite::Result<()> {
    let built_by: Option<String> =
        conn.query_row("SELECT version FROM collations WHERE name = ?1", [NAME], |row| row.get(0)).optional()?;
    if built_by.as_deref() == Some(VERSION) {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch("REINDEX az")?;
    let keyed: Vec<String> = tx
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql LIKE '%' || ?1 || '(%'")?
        .query_map([KEY_FUNCTION], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for index in keyed {
        // The name comes from the schema, not from a request; quoted as an identifier all the same.
        tx.execute_batch(&format!("REINDEX \"{}\"", index.replace('"', "\"\"")))?;
    }
    tx.execute(
        "INSERT INTO collations (name, version) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET version = excluded.version",
        (NAME, VERSION),
    )?;
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = names.iter().map(|name| name.to_string()).collect();
        names.sort_by(|a, b| compare(a, b).unwrap_or(Ordering::Equal));
        names
    }

    #[test]
    fn sorts_in_the_azerbaijani_alphabet() {
        // The alphabet's letters, given in reverse: they come back in the alphabet's order.
        let alphabet = "A B C Ç D E Ə F G Ğ H X I İ J K Q L M N O Ö P R S Ş T U Ü V Y Z";
        let letters: Vec<&str> = alphabet.split(' ').rev().collect();
        assert_eq!(sorted(&letters).join(" "), alphabet);
    }

    #[test]
    fn sorts_names_case_blind_with_cyrillic_after_latin() {
        assert_eq!(
            sorted(&[
                "Əliyev",
                "Zeynalov",
                "məmmədova",
                "Mustafayeva",
                "Çələbi",
                "Cəfərov",
                "İsmayılov",
                "Ibrahimov",
                "Абдуллаев",
                "Şahin",
                "Sadıqov",
                "Ömərov",
                "Orucov",
                "Üzeyirov",
                "Umudov",
                "Quliyev",
                "Kərimov",
                "Xəlilov",
                "Həsənov"
            ]),
            [
                "Cəfərov",
                "Çələbi",
                "Əliyev",
                "Həsənov",
                "Xəlilov",
                "Ibrahimov",
                "İsmayılov",
                "Kərimov",
                "Quliyev",
                "məmmədova",
                "Mustafayeva",
                "Orucov",
                "Ömərov",
                "Sadıqov",
                "Şahin",
                "Umudov",
                "Üzeyirov",
                "Zeynalov",
                "Абдуллаев"
            ]
        );
        assert_eq!(compare("aysel", "AYSEL"), Some(Ordering::Equal));
    }

    #[test]
    fn sort_keys_order_as_the_collation_compares() {
        let Some(collator) = COLLATOR.as_ref() else { panic!("the collator's data is compiled in") };
        let texts = [
            "",
            "a",
            "A",
            "aa",
            "ab",
            "Ə",
            "ə",
            "e",
            "E",
            "əli",
            "Əli",
            "eli",
            "İ",
            "i",
            "I",
            "ı",
            "Ç",
            "c",
            "Ş",
            "s",
            "Ğ",
            "g",
            "Ö",
            "o",
            "Ü",
            "u",
            "x",
            "X",
            "h",
            "q",
            "k",
            "Абдуллаев",
            "абв",
            "ё",
            "е",
            "ab cd",
            "ab-cd",
            "ab\u{200b}cd",
            "a1",
            "a10",
            "a2",
            "é",
            "e\u{301}",
            "ß",
            "ss",
            "😀",
            "user12@bench.az",
            "user2@bench.az",
        ];
        for a in texts {
            for b in texts {
                let by_keys = sort_key(collator, a.as_bytes()).cmp(&sort_key(collator, b.as_bytes()));
                assert_eq!(Some(by_keys), compare(a, b), "{a:?} against {b:?}");
            }
        }
    }

    #[test]
    fn the_key_function_sorts_and_seeks_through_its_index() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
             CREATE INDEX t_name ON t (az_key(name), id);
             INSERT INTO t (name) VALUES ('Zeynalov'), ('Əliyev'), ('Cəfərov'), ('çələbi'), (NULL), ('Eldar');",
        )
        .unwrap();
        let order = "SELECT name FROM t ORDER BY az_key(name), id";
        let names: Vec<Option<String>> =
            conn.prepare(order).unwrap().query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect();
        let expected = [None, Some("Cəfərov"), Some("çələbi"), Some("Eldar"), Some("Əliyev"), Some("Zeynalov")];
        assert_eq!(names, expected.map(|name| name.map(String::from)));
        let plan: String = conn.query_row(&format!("EXPLAIN QUERY PLAN {order}"), [], |row| row.get(3)).unwrap();
        assert!(plan.contains("USING INDEX t_name") || plan.contains("USING COVERING INDEX t_name"), "{plan}");
        let seek = "SELECT name FROM t WHERE az_key(name) >= az_key(?1) AND (az_key(name), id) >= (az_key(?1), ?2)
                    ORDER BY az_key(name), id";
        let plan: String = conn.query_row(&format!("EXPLAIN QUERY PLAN {seek}"), ("Ə", 0), |row| row.get(3)).unwrap();
        assert!(plan.contains("SEARCH t USING INDEX t_name (<expr>>?)"), "{plan}");
    }
}
