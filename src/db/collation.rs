//! `az`: text in the order of the Azerbaijani alphabet (A B C Ç D E Ə F G Ğ H X I İ J K Q L M N O
//! Ö P R S Ş T U Ü V Y Z), without regard to case, Cyrillic after Latin. It is ICU4X's collator
//! with CLDR's Azerbaijani tailoring at secondary strength (case-blind, accent-aware), registered
//! on every connection. Every sortable text column's index is built in it (migration 16) and the
//! lists' ORDER BY names it, so a sorted page reads its rows from an index as before.

use std::cmp::Ordering;
use std::sync::LazyLock;

use icu_collator::options::{CollatorOptions, Strength};
use icu_collator::{Collator, CollatorBorrowed};
use icu_locale_core::locale;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

/// The collation's name in SQL (`ORDER BY name COLLATE az`).
pub const NAME: &str = "az";

/// What a text sort appends to its expression (the lists' ORDER BY and deep-page anchors).
pub const COLLATE: &str = " COLLATE az";

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

/// Registers `az` on the connection. The collator's data is compiled into the binary, so it is
/// there; were it not, opening the database fails rather than sort by another order than the
/// indexes were built in.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let Some(collator) = COLLATOR.as_ref() else {
        return Err(rusqlite::Error::UserFunctionError(
            "the Azerbaijani collation data is missing from this build".into(),
        ));
    };
    conn.create_collation(NAME, move |a, b| collator.compare(a, b))
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
}
