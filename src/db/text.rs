//! `contains_text(haystack, needle)`: the case-insensitive substring test that list filters use
//! when they do not go through a trigram index, and [`fold_search`], the folding both it and the
//! trigram indexes apply. Staff type Azerbaijani names with or without the Azerbaijani letters,
//! so `ilkin` finds `İlkin`, `sahin` finds `Şahin`, `gulnar` finds `Gülnar` and `memmedov` finds
//! `Məmmədov`: those letters fold to their Latin base letters, and case folds over all of
//! Unicode as the trigram tokenizer folds it. Migration 5 stores the same folding in the indexes
//! (as nested SQL `replace` calls, see [`FOLDED`]), so a count from the index agrees with a page
//! read by testing rows.

use std::convert::Infallible;
use std::sync::Arc;

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::ValueRef;

/// The Azerbaijani letters and what they fold to, in the order migration 5 replaces them.
pub const FOLDED: [(char, char); 14] = [
    ('İ', 'i'),
    ('ı', 'i'),
    ('Ş', 's'),
    ('ş', 's'),
    ('Ç', 'c'),
    ('ç', 'c'),
    ('Ü', 'u'),
    ('ü', 'u'),
    ('Ö', 'o'),
    ('ö', 'o'),
    ('Ğ', 'g'),
    ('ğ', 'g'),
    ('Ə', 'e'),
    ('ə', 'e'),
];

/// Text as the search compares it: Azerbaijani letters to their Latin base letters, then lower
/// case (what the trigram tokenizer does to every other letter).
pub fn fold_search(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars() {
        match FOLDED.iter().find(|(from, _)| *from == c) {
            Some((_, to)) => folded.push(*to),
            None => folded.extend(c.to_lowercase()),
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
            let Some(haystack) = text(ctx.get_raw(0)) else { return Ok(false) };
            if text(ctx.get_raw(1)).is_none() {
                return Ok(false);
            }
            // The needle is the same for every row a statement tests: folded once, kept by SQLite.
            let needle: Arc<String> = ctx.get_or_create_aux(1, |value| -> Result<String, Infallible> {
                Ok(text(value).map(fold_search).unwrap_or_default())
            })?;
            Ok(contains_folded(haystack, &needle))
        },
    )
}

/// Whether `haystack`, folded, contains `needle` (already folded). Most stored text is ASCII,
/// which folds to its ASCII lower case: that is compared in place, without building a copy.
fn contains_folded(haystack: &str, needle: &str) -> bool {
    if !haystack.is_ascii() {
        return fold_search(haystack).contains(needle);
    }
    if !needle.is_ascii() {
        return false;
    }
    let (haystack, needle) = (haystack.as_bytes(), needle.as_bytes());
    needle.is_empty() || haystack.windows(needle.len()).any(|window| window.eq_ignore_ascii_case(needle))
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
    fn the_in_place_ascii_test_agrees_with_folding_both_sides() {
        let haystacks =
            ["Endirim 1899", "ENDIRIM 18", "Şahin Məmmədov", "kamil@perk.az", "", "Ilkin", "İlkin", "a\u{212A}b"];
        let needles = ["189", "rim 1", "END", "sahin", "MƏM", "", "ilk", "@PERK", "k", "\u{212A}", "x"];
        for haystack in haystacks {
            for needle in needles {
                assert_eq!(
                    contains_folded(haystack, &fold_search(needle)),
                    fold_search(haystack).contains(&fold_search(needle)),
                    "{haystack:?} / {needle:?}"
                );
                assert_eq!(contains(Some(haystack), needle), fold_search(haystack).contains(&fold_search(needle)));
            }
        }
    }

    #[test]
    fn folds_azerbaijani_letters_and_takes_wildcards_literally() {
        assert!(contains(Some("Şahin Məmmədov"), "şah"));
        assert!(contains(Some("Şahin Məmmədov"), "sahin"));
        assert!(contains(Some("Şahin Məmmədov"), "memmedov"));
        assert!(contains(Some("ƏLƏKBƏROV"), "ələk"));
        assert!(contains(Some("ILKIN"), "ilk"));
        assert!(contains(Some("İlkin"), "ilk"));
        assert!(contains(Some("İsmayıl"), "ismayil"));
        assert!(contains(Some("Gülnar"), "gulnar"));
        assert!(contains(Some("Çingiz"), "cingiz"));
        assert!(contains(Some("Cavid"), "cavid"));
        assert!(contains(Some("Gülnar"), "GÜL"));
        assert!(contains(Some("50%_off"), "%_"));
        assert!(!contains(Some("50 off"), "%"));
        assert!(!contains(Some("Aysel"), "ayt"));
        assert!(!contains(None, "a"));
    }

    /// The scan and the trigram index (as migration 5 fills it) must agree, or a page
    /// disagrees with its total.
    #[test]
    fn agrees_with_the_trigram_index() {
        let conn = crate::db::migrated_in_memory().unwrap();
        let names = [
            "İlkin",
            "ILKIN",
            "Şahin",
            "şahin",
            "Əli",
            "ılgar",
            "Ülvi",
            "ÇİÇƏK",
            "Gülnarə",
            "İsmayıl",
            "Çingiz",
            "Cavid",
            "Məmmədov",
            "Öztürk",
            "Ağa",
        ];
        for (i, name) in names.iter().enumerate() {
            conn.execute(
                "INSERT INTO users (first_name, last_name, email, password_hash, totp_secret) VALUES (?1, 'X', ?2, 'x', 'y')",
                (name, format!("u{i}@perk.az")),
            )
            .unwrap();
        }
        for term in [
            "ilk", "İlk", "şah", "ŞAH", "sah", "əli", "eli", "ılg", "ilg", "Ilg", "ülv", "ulv", "çiç", "ÇİÇ", "cic",
            "nar", "ilkin", "ismayil", "sahin", "gulnar", "cavid", "cingiz", "memmedov", "ozt", "aga",
        ] {
            let phrase = format!("first_name : \"{}\"", fold_search(term));
            let mut by_index: Vec<String> = conn
                .prepare("SELECT u.first_name FROM users_search s JOIN users u ON u.id = s.rowid WHERE users_search MATCH ?1")
                .unwrap()
                .query_map([&phrase], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let mut by_scan: Vec<String> = conn
                .prepare("SELECT first_name FROM users WHERE contains_text(first_name, ?1)")
                .unwrap()
                .query_map([term], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            by_index.sort();
            by_scan.sort();
            assert_eq!(by_index, by_scan, "term {term}");
            assert!(!by_scan.is_empty(), "term {term} finds something");
        }
    }

    /// Migration 5 spells the folding out as SQL; it must be exactly [`FOLDED`].
    #[test]
    fn the_migration_folds_the_same_letters() {
        let sql = include_str!("../../migrations/0005_search_folds_azerbaijani.sql");
        let chain: String = FOLDED.iter().map(|(from, to)| format!(", '{from}', '{to}')")).collect();
        assert!(sql.contains(&chain), "migration 5 does not fold as FOLDED says");
    }
}
