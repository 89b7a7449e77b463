//! Copies of the database: written consistently while the server runs (`VACUUM INTO`), checked
//! (`PRAGMA integrity_check` on the copy), kept in a folder under a sortable name with the newest
//! N kept, and put back in place by `perkdesk restore` while the server is stopped.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rusqlite::{Connection, OpenFlags};

use super::{Db, SCHEMA_VERSION};

/// Scheduled copies are named `perkdesk-<UTC time>.db`: they sort by name in time order, and
/// nothing else in the folder is ever pruned.
const PREFIX: &str = "perkdesk-";
const SUFFIX: &str = ".db";
/// The UTC time in a copy's name, written and recognised by the one description.
const STAMP: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");

/// What a check of a copy found.
#[derive(Debug, Clone)]
pub struct Checked {
    pub schema_version: i64,
    /// The time of the newest change the copy holds (its newest activity entry), if any.
    pub last_change: Option<String>,
    pub bytes: u64,
}

/// Opens `path` read-only and checks it whole: SQLite's integrity check, and a perkdesk schema
/// this binary knows.
pub fn check(path: &Path) -> anyhow::Result<Checked> {
    anyhow::ensure!(!path.is_dir(), "{} is a directory, not a backup file", path.display());
    anyhow::ensure!(path.is_file(), "{} does not exist", path.display());
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .with_context(|| format!("cannot open {}", path.display()))?;
    // The check walks the sort indexes, which are ordered in the Azerbaijani collation.
    super::collation::register(&conn)?;
    let verdict: String = conn
        .query_row("PRAGMA integrity_check(1)", [], |r| r.get(0))
        .with_context(|| format!("{} is not a readable SQLite database", path.display()))?;
    anyhow::ensure!(verdict == "ok", "{} is damaged: {verdict}", path.display());
    let schema_version: i64 = conn
        .query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |r| r.get(0))
        .with_context(|| format!("{} is not a perkdesk database", path.display()))?;
    anyhow::ensure!(
        schema_version <= SCHEMA_VERSION,
        "{} has schema version {schema_version}, newer than this binary knows ({SCHEMA_VERSION}); use a newer perkdesk",
        path.display()
    );
    Ok(Checked { schema_version, last_change: last_change(&conn)?, bytes: std::fs::metadata(path)?.len() })
}

/// The newest change a database records, from its activity log (none before the log existed).
fn last_change(conn: &Connection) -> anyhow::Result<Option<String>> {
    if !super::activity::has_table(conn, "activity")? {
        return Ok(None);
    }
    Ok(conn.query_row("SELECT MAX(at) FROM activity", [], |r| r.get(0))?)
}

/// Writes a checked copy into `dir` as `perkdesk-<now>.db` (through a `.partial` name, so a copy
/// cut short is never taken for a good one) and returns its path and what the check found.
pub fn write_checked(db: &Db, dir: &Path) -> anyhow::Result<(PathBuf, Checked)> {
    let stamp = time::OffsetDateTime::now_utc().format(STAMP)?;
    let name = format!("{PREFIX}{stamp}{SUFFIX}");
    let path = dir.join(&name);
    let partial = dir.join(format!("{name}.partial"));
    // A partial copy left by a crash is overwritten: VACUUM INTO refuses an existing file.
    let _ = std::fs::remove_file(&partial);
    let written = db.backup_to(&partial).and_then(|()| check(&partial));
    let checked = match written {
        Ok(checked) => checked,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            return Err(error);
        }
    };
    anyhow::ensure!(!path.exists(), "{} already exists", path.display());
    std::fs::rename(&partial, &path).with_context(|| format!("cannot name the copy {}", path.display()))?;
    Ok((path, checked))
}

/// Removes all but the newest `keep` scheduled copies in `dir`; returns the ones removed.
pub fn prune(dir: &Path, keep: usize) -> anyhow::Result<Vec<PathBuf>> {
    let mut copies: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.file_name().and_then(|n| n.to_str()).is_some_and(is_scheduled_copy))
        .collect();
    copies.sort();
    let remove = copies.len().saturating_sub(keep);
    let mut removed = Vec::with_capacity(remove);
    for path in copies.into_iter().take(remove) {
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        removed.push(path);
    }
    Ok(removed)
}

fn is_scheduled_copy(name: &str) -> bool {
    name.strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix(SUFFIX))
        .is_some_and(|stamp| time::PrimitiveDateTime::parse(stamp, STAMP).is_ok())
}

/// What `perkdesk restore` did.
#[derive(Debug)]
pub struct Restored {
    pub backup: Checked,
    /// The newest change of the database that was replaced, if there was one.
    pub replaced: Option<Option<String>>,
}

/// Puts the checked copy `backup` in place of the database `target`, which no server may have
/// open. A target holding changes newer than the copy's is kept unless `force`.
pub fn restore(backup: &Path, target: &Path, force: bool) -> anyhow::Result<Restored> {
    let checked = check(backup)?;
    let replaced = if target.exists() {
        let current = claim(target)?;
        // A database that cannot be read (damaged: the usual reason to restore) holds nothing
        // newer to keep.
        let current_change = last_change(&current).unwrap_or(None);
        drop(current);
        if !force && current_change > checked.last_change {
            anyhow::bail!(
                "{} has changes newer than the backup (its last at {}, the backup's at {}); add --force to replace it anyway",
                target.display(),
                current_change.as_deref().unwrap_or("-"),
                checked.last_change.as_deref().unwrap_or("-")
            );
        }
        Some(current_change)
    } else {
        None
    };
    let staged = target.with_extension("restoring");
    let _ = std::fs::remove_file(&staged);
    std::fs::copy(backup, &staged).with_context(|| format!("cannot write {}", staged.display()))?;
    // A copy takes its source's mode: the database is its owner's alone whatever the backup's was.
    crate::core::owner_only::restrict(&staged).with_context(|| format!("cannot restrict {}", staged.display()))?;
    std::fs::File::open(&staged).and_then(|file| file.sync_all())?;
    check(&staged).inspect_err(|_| {
        let _ = std::fs::remove_file(&staged);
    })?;
    // The old database's WAL belongs to it: left beside the restored file, SQLite would replay it.
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", target.display()));
        if side.exists() {
            std::fs::remove_file(&side).with_context(|| format!("cannot remove {}", side.display()))?;
        }
    }
    std::fs::rename(&staged, target).with_context(|| format!("cannot replace {}", target.display()))?;
    Ok(Restored { backup: checked, replaced })
}

/// How long a restore waits for the database to be let go: a server that was just stopped, or a
/// connection pool closing its last connections on its own thread, holds the file a moment longer.
const CLAIM_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// Opens `path` for this process alone, failing when another has it open (a running server):
/// leaving WAL mode needs the database to itself, and SQLite says "busy" while anyone else is
/// connected. SQLite takes that lock without its busy handler, so the waiting is done here.
fn claim(path: &Path) -> anyhow::Result<Connection> {
    let give_up = std::time::Instant::now() + CLAIM_PATIENCE;
    loop {
        let conn = Connection::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        super::collation::register(&conn)?;
        conn.busy_timeout(std::time::Duration::ZERO)?;
        let mode = conn.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get::<_, String>(0));
        match mode {
            Ok(mode) if mode.eq_ignore_ascii_case("delete") => return Ok(conn),
            _ if std::time::Instant::now() < give_up => {
                drop(conn);
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            _ => anyhow::bail!("{} is in use (stop the server first)", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_scheduled_copy;

    #[test]
    fn only_scheduled_copies_are_pruned() {
        assert!(is_scheduled_copy("perkdesk-20261126T153000Z.db"));
        for other in ["perkdesk.db", "perkdesk-20261126T153000Z.db.partial", "perkdesk-2026-11-26.db", "notes.txt"] {
            assert!(!is_scheduled_copy(other), "{other}");
        }
    }
}
