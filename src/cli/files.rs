//! The commands that write files beside the database or from it: `backup`, `restore`,
//! `copy-to-postgres` and `export-reports`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::args::{BackupArgs, CopyToPostgresArgs, ExportReportsArgs, RestoreArgs};
use super::open_existing;

/// Refuses a command that copies a SQLite file when `--db` names PostgreSQL.
pub(super) fn sqlite_only(db: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(crate::db::Location::parse(db).file().is_some(), crate::db::POSTGRES_BACKUP);
    Ok(())
}

pub(super) fn copy_to_postgres(args: CopyToPostgresArgs) -> anyhow::Result<()> {
    use crate::db::copy::Progress;
    anyhow::ensure!(crate::db::Location::parse(&args.from).file().is_some(), "--from names the SQLite file to copy");
    let target = crate::db::Location::parse(Path::new(&args.to));
    anyhow::ensure!(
        target.file().is_none(),
        "--to names the PostgreSQL database to copy into (postgres://user@host/db)"
    );
    anyhow::ensure!(args.from.exists(), "the file {} does not exist (--from)", args.from.display());
    let from = crate::app::open_db(&args.from)?;
    let to = crate::app::open_db(Path::new(&args.to))?;
    let (source, mut destination) = (from.conn()?, to.conn()?);
    let report = crate::db::copy::copy_to_postgres(&source, &mut destination, |progress| match progress {
        Progress::Started => {
            println!("Copying {} to {}", args.from.display(), target.describe());
            println!("{:<32} {:>12} {:>12}", "table", "SQLite", "PostgreSQL");
        }
        // Printed as each table is done: a large copy shows how far it is.
        Progress::Copied(copied) => {
            println!("{:<32} {:>12} {:>12}", copied.table, copied.sqlite_rows, copied.postgres_rows)
        }
    })?;
    let rows: i64 = report.tables.iter().map(|t| t.sqlite_rows).sum();
    let images: i64 = report.tables.iter().filter(|t| t.table == "files").map(|t| t.postgres_rows).sum();
    println!(
        "Copied {rows} rows ({images} images) in {} tables; {} maintained counts equal on both sides. \
         Serve with --db {} from now on.",
        report.tables.len(),
        report.counts.len(),
        target.describe()
    );
    Ok(())
}

pub(super) fn backup(args: BackupArgs) -> anyhow::Result<()> {
    sqlite_only(&args.db.db)?;
    let db = open_existing(&args.db.db)?;
    eprintln!("Backing up {} to {} ...", args.db.db.display(), args.dest.display());
    db.backup_to(&args.dest)?;
    let checked = crate::db::backup::check(&args.dest)?;
    println!("Backup written to {} ({:.1} MB), checked.", args.dest.display(), checked.bytes as f64 / 1_048_576.0);
    Ok(())
}

pub(super) fn restore(args: RestoreArgs) -> anyhow::Result<()> {
    sqlite_only(&args.db.db)?;
    let restored = crate::db::backup::restore(&args.backup, &args.db.db, args.force)?;
    let replaced = match &restored.replaced {
        None => String::new(),
        Some(last) => {
            format!(", replacing a database last changed at {}", last.as_deref().unwrap_or("an unknown time"))
        }
    };
    println!(
        "Restored {} from {} (schema {}, last change at {}){replaced}. Start the server to use it.",
        args.db.db.display(),
        args.backup.display(),
        restored.backup.schema_version,
        restored.backup.last_change.as_deref().unwrap_or("an unknown time"),
    );
    Ok(())
}

pub(super) fn export_reports(args: ExportReportsArgs) -> anyhow::Result<()> {
    use crate::resources::reports;
    let db = open_existing(&args.db.db)?;
    crate::core::owner_only::create_dir_all(&args.out)
        .with_context(|| format!("cannot create the folder {}", args.out.display()))?;
    let mut conn = db.conn()?;
    // Both files from one snapshot, while a server may keep writing.
    let conn = conn.transaction()?;
    let mut progress = Progress::new();
    progress.show(&format!("Writing {} ...", reports::COUNTS_FILE));
    let counts = reports::counts_workbook(&conn)?;
    let counts_path = save_into(&args.out, reports::COUNTS_FILE, counts)?;
    let totals: Vec<i64> = reports::KINDS
        .iter()
        .map(|kind| Ok(reports::state_counts(&conn, kind.kind)?.all()))
        .collect::<anyhow::Result<_>>()?;
    let names = reports::names_workbook(&conn, crate::crud::Language::Az, &mut |kind, written| {
        let index = reports::KINDS.iter().position(|k| k.kind == kind.kind).unwrap_or(0);
        let total = totals.get(index).copied().unwrap_or(0);
        progress.show(&format!("Writing {}: {} names {written} of {total}", reports::NAMES_FILE, kind.label));
    })?;
    let names_path = save_into(&args.out, reports::NAMES_FILE, names)?;
    progress.done();
    println!("{}", counts_path.display());
    println!("{}", names_path.display());
    Ok(())
}

/// Copies a finished spreadsheet into `dir` as `name`, through a temporary file in the same folder
/// renamed at the end, so the folder never holds half a file.
pub(super) fn save_into(dir: &Path, name: &str, mut file: std::fs::File) -> anyhow::Result<PathBuf> {
    let target = dir.join(name);
    let mut temp =
        tempfile::NamedTempFile::new_in(dir).with_context(|| format!("cannot write to {}", dir.display()))?;
    std::io::copy(&mut file, &mut temp).with_context(|| format!("cannot write {}", target.display()))?;
    // The temporary file starts owner-only (0600), as everything perkdesk writes (the reports
    // name people and partners; core::owner_only), and keeps that mode when renamed.
    temp.persist(&target).with_context(|| format!("cannot write {}", target.display()))?;
    Ok(target)
}

/// One progress line on standard error, redrawn in place, shown only on a terminal.
pub(super) struct Progress {
    pub(super) terminal: bool,
    pub(super) last: std::time::Instant,
    pub(super) width: usize,
}

impl Progress {
    fn new() -> Progress {
        Progress { terminal: std::io::stderr().is_terminal(), last: std::time::Instant::now(), width: 0 }
    }

    fn show(&mut self, line: &str) {
        if !self.terminal || (self.width > 0 && self.last.elapsed() < std::time::Duration::from_millis(100)) {
            return;
        }
        self.last = std::time::Instant::now();
        let pad = self.width.saturating_sub(line.chars().count());
        eprint!("\r{line}{}", " ".repeat(pad));
        self.width = line.chars().count();
        let _ = std::io::stderr().flush();
    }

    fn done(&mut self) {
        if self.terminal && self.width > 0 {
            eprint!("\r{}\r", " ".repeat(self.width));
            let _ = std::io::stderr().flush();
        }
    }
}
