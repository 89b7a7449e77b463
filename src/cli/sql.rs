//! `perkdesk sql`: SQL against the database with perkdesk's functions and its `az` collation
//! (`db::collation`), which the sqlite3 shell lacks: the shell reads every table, but writing a
//! row a sort index covers needs the collation the index was built in. The statements run in one
//! transaction (all or nothing), with the server running or not; each statement's rows print as
//! the shell's list mode prints them, columns joined by `|`.

use std::io::Write;

use anyhow::Context;

use crate::db::Db;
use crate::db::sql::ValueRef;

pub fn run(db: &Db, sql: &str, out: &mut impl Write) -> anyhow::Result<()> {
    let mut conn = db.conn()?;
    let tx = conn.write_transaction()?;
    crate::db::activity::declare_writer(&tx)?;
    tx.each_statement_row(sql, |values| {
        let fields: Vec<String> = values.iter().copied().map(shown).collect();
        writeln!(out, "{}", fields.join("|")).context("printing the rows")
    })?;
    tx.commit().context("committing the statements")?;
    Ok(())
}

/// A value as the sqlite3 shell's list mode shows it (NULL as nothing, a blob as hex).
fn shown(value: ValueRef<'_>) -> String {
    match value {
        ValueRef::Null => String::new(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(x) => x.to_string(),
        ValueRef::Text(text) => String::from_utf8_lossy(text).into_owned(),
        ValueRef::Blob(bytes) => bytes.iter().map(|b| format!("{b:02X}")).collect(),
    }
}
