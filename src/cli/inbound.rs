//! The inbound side's commands: the API clients' keys (`api-client`) and the employee import
//! (`import-employees`).

use anyhow::Context;

use super::args::{ApiClientCommand, ImportEmployeesArgs};
use super::open_existing;

pub(super) fn api_client(command: ApiClientCommand) -> anyhow::Result<()> {
    use crate::resources::api_clients::{self as clients, NewClient};
    match command {
        ApiClientCommand::Create(args) => {
            let db = open_existing(&args.db.db)?;
            let form = serde_json::json!({
                "name": args.name,
                "kind": args.kind,
                "partnerId": args.partner_id,
                "rateLimitPerMinute": args.rate_limit,
            });
            let new = NewClient::from_json(&form).map_err(|error| anyhow::anyhow!("{error}"))?;
            let mut conn = db.conn()?;
            let (id, key) =
                crate::db::write_tx(&mut conn, |tx| new.insert(tx)).map_err(|error| anyhow::anyhow!("{error}"))?;
            println!("Created API client {id} ({}, {}).", new.name, new.kind.as_str());
            println!("Its key, shown this once (only its hash is kept):");
            println!("{key}");
            Ok(())
        }
        ApiClientCommand::List(db) => {
            let db = open_existing(&db.db)?;
            let conn = db.conn()?;
            let rows = clients::list_all(&conn).map_err(|error| anyhow::anyhow!("{error}"))?;
            if rows.is_empty() {
                println!("No API clients yet.");
            }
            for row in rows {
                let partner = row.partner.map(|name| format!(" for {name}")).unwrap_or_default();
                let state = match row.revoked_at {
                    Some(at) => format!("revoked {at}"),
                    None => "active".into(),
                };
                let used = row.last_used_at.unwrap_or_else(|| "never".into());
                println!(
                    "{}\t{}\t{}{partner}\t{}...\t{}/min\tlast used {used}\t{state}",
                    row.id, row.name, row.kind, row.key_prefix, row.per_minute
                );
            }
            Ok(())
        }
        ApiClientCommand::Revoke(args) => {
            let db = open_existing(&args.db.db)?;
            let mut conn = db.conn()?;
            crate::db::write_tx(&mut conn, |tx| clients::revoke(tx, args.id))
                .map_err(|error| anyhow::anyhow!("{error}"))?;
            println!("Revoked API client {}; its key is refused from now on.", args.id);
            Ok(())
        }
    }
}

pub(super) fn import_employees(args: ImportEmployeesArgs) -> anyhow::Result<()> {
    let db = open_existing(&args.db.db)?;
    // The same size limit as the Employee list's Import button: a larger file is no HR sheet.
    let size = std::fs::metadata(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?.len();
    if size > crate::http::forms::MULTIPART_LIMIT as u64 {
        anyhow::bail!(
            "{} is larger than an import takes ({} MB); split it into smaller files",
            args.file.display(),
            crate::http::forms::MULTIPART_LIMIT / (1024 * 1024)
        );
    }
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    eprintln!("Reading {} ...", args.file.display());
    let mut conn = db.conn()?;
    let report = crate::inbound::import::import(&mut conn, &bytes, args.dry_run).map_err(|error| match error {
        crate::core::error::AppError::Validation { message, .. } => anyhow::anyhow!("{message}"),
        other => anyhow::anyhow!("{other}"),
    })?;
    for refused in &report.refused {
        println!("row {}: {}: {}", refused.row, refused.field, refused.message);
    }
    let verb = if report.applied { "Imported" } else { "Dry run, nothing written" };
    println!(
        "{verb}: {} rows read, {} to add, {} to update, {} refused.",
        report.rows,
        report.added,
        report.updated,
        report.refused.len()
    );
    Ok(())
}
