//! The operators' command line: every flag is also an environment variable, and every failure
//! ends the process non-zero with one line.
//!
//! The arguments are `args.rs`; each group of commands has its file: serving (`serve.rs`), the
//! accounts (`accounts.rs`), the database's files (`files.rs`), the inbound side (`inbound.rs`),
//! and `sql.rs`, `demo.rs`.

mod accounts;
mod args;
pub mod demo;
mod files;
mod inbound;
mod serve;
mod sql;

use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::db::{Actor, Db};
pub use args::Cli;
use args::{Command, DbArg, LogFormat, ServeArgs, ServeOptions};

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let command = cli.command.unwrap_or_else(|| {
        Command::Serve(ServeArgs { db: DbArg::parse_default(), options: ServeOptions::parse_default() })
    });
    // The database, its copies and the exports hold secrets and people's data.
    crate::core::owner_only::restrict_process();
    let serving = matches!(command, Command::Serve(_) | Command::Demo(_));
    init_logging(if serving { &cli.log_level } else { "warn" }, cli.log_format);
    // What a command writes outside any request is recorded as the command line's, or the server's.
    Actor::set_process_default(if serving { Actor::system() } else { Actor::cli() });
    match command {
        Command::Serve(args) => {
            let (db, described) = serve::open_beside_describing(&args.db.db)?;
            runtime()?.block_on(serve::serve(db, described, args.options, None))
        }
        Command::Demo(args) => serve::demo(args),
        Command::CreateAdmin(args) => accounts::create_admin(args),
        Command::Otp(args) => accounts::otp(args),
        Command::ResetOtp(args) => accounts::reset_otp(args),
        Command::Backup(args) => files::backup(args),
        Command::Restore(args) => files::restore(args),
        Command::ExportReports(args) => files::export_reports(args),
        Command::Sql(args) => {
            let db = open_existing(&args.db.db)?;
            sql::run(&db, &args.sql, &mut std::io::stdout().lock())
        }
        Command::Openapi => {
            let (_, document, _) = crate::app::api().into_parts();
            let json = crate::http::api::document_json(&document, true).context("writing the OpenAPI document")?;
            writeln!(std::io::stdout().lock(), "{json}").context("printing the OpenAPI document")
        }
        Command::CopyToPostgres(args) => files::copy_to_postgres(args),
        Command::ApiClient(command) => inbound::api_client(command),
        Command::ImportEmployees(args) => inbound::import_employees(args),
    }
}

fn init_logging(level: &str, format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}

fn open_existing(db: &Path) -> anyhow::Result<Db> {
    if let Some(path) = crate::db::Location::parse(db).file() {
        anyhow::ensure!(path.exists(), "the database {} does not exist (use --db or PERKDESK_DB)", path.display());
    }
    crate::app::open_db(db)
}
