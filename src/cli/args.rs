//! The command line's arguments: the commands, their flags (each also an environment variable)
//! and the defaults `perkdesk` with no command serves with.

use std::path::PathBuf;

use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(name = "perkdesk", version, about = "Back-office panel for a discount and perks marketplace")]
pub struct Cli {
    /// Log level or filter, e.g. `info` or `perkdesk=debug,tower_http=info` (RUST_LOG also works).
    #[arg(long, env = "PERKDESK_LOG_LEVEL", default_value = "info", global = true)]
    pub(super) log_level: String,
    #[arg(long, env = "PERKDESK_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    pub(super) log_format: LogFormat,
    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Serve the API and the admin panel (the default command).
    Serve(ServeArgs),
    /// Create or reuse ./perkdesk-demo.db with demo data, print the demo admin's sign-in, and serve it.
    Demo(DemoArgs),
    /// Create an Admin account and print its authenticator QR code.
    CreateAdmin(CreateAdminArgs),
    /// Print a user's current 6-digit sign-in code (for operators with shell access).
    Otp(OtpArgs),
    /// Give a user a new authenticator (for a lost phone): signs them out and prints the new QR code.
    ResetOtp(OtpArgs),
    /// Write a consistent copy of the database while the server keeps running.
    Backup(BackupArgs),
    /// Put a backup in place of the database (the server must be stopped); checks the copy first.
    Restore(RestoreArgs),
    /// Write Reports-count.xlsx and Reports-name.xlsx to a folder.
    ExportReports(ExportReportsArgs),
    /// Run SQL with perkdesk's collation and functions (the sqlite3 shell cannot write rows the sort
    /// indexes cover); all statements in one transaction, rows printed as `a|b|c`.
    Sql(SqlArgs),
    /// Make, list and revoke the keys of the employee app and partners (the inbound API).
    #[command(subcommand)]
    ApiClient(ApiClientCommand),
    /// Import employees from an .xlsx (HR's spreadsheet): a dry run first with --dry-run.
    ImportEmployees(ImportEmployeesArgs),
    /// Move an installation from its SQLite file to an empty PostgreSQL database (data, images,
    /// counts, id sequences) in one transaction, and print both sides' totals.
    CopyToPostgres(CopyToPostgresArgs),
    /// Print the OpenAPI document that /api/openapi.json serves (the client's types are made from it).
    Openapi,
}

#[derive(Args, Debug)]
pub(super) struct ImportEmployeesArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    /// The workbook: a header row naming Email, First name, Last name, Phone number, Asset (and Active).
    pub(super) file: PathBuf,
    /// Check every row and report what would be added, updated and refused; write nothing.
    #[arg(long, env = "PERKDESK_IMPORT_DRY_RUN", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    pub(super) dry_run: bool,
}

#[derive(Subcommand, Debug)]
pub(super) enum ApiClientCommand {
    /// Make an API client and print its key (shown this once; only its hash is kept).
    Create(ApiClientCreateArgs),
    /// List the API clients (never their keys).
    List(DbArg),
    /// Revoke an API client: its key is refused from the next request on.
    Revoke(ApiClientRevokeArgs),
}

#[derive(Args, Debug)]
pub(super) struct ApiClientCreateArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    /// A name people recognise, e.g. "Employee app (production)".
    #[arg(long, env = "PERKDESK_API_CLIENT_NAME")]
    pub(super) name: String,
    /// employee-app or partner.
    #[arg(long, env = "PERKDESK_API_CLIENT_KIND")]
    pub(super) kind: String,
    /// The partner a partner key acts for.
    #[arg(long, env = "PERKDESK_API_CLIENT_PARTNER_ID")]
    pub(super) partner_id: Option<i64>,
    /// Requests per minute the client may make.
    #[arg(long, env = "PERKDESK_API_CLIENT_RATE_LIMIT", default_value_t = crate::auth::api_keys::DEFAULT_PER_MINUTE as i64)]
    pub(super) rate_limit: i64,
}

#[derive(Args, Debug)]
pub(super) struct ApiClientRevokeArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    /// The client's id (see `api-client list`).
    pub(super) id: i64,
}

#[derive(Args, Debug)]
pub(super) struct SqlArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    /// The statements, separated by semicolons.
    pub(super) sql: String,
}

#[derive(Args, Debug, Clone)]
pub(super) struct DbArg {
    /// The database: a SQLite file (`sqlite://` before it allowed), or a PostgreSQL server's URL
    /// (`postgres://user@host/db`; several hosts with `target_session_attrs=read-write` for failover).
    #[arg(long, env = "PERKDESK_DB", default_value = "perkdesk.db")]
    pub(super) db: PathBuf,
}

#[derive(Args, Debug, Clone)]
pub(super) struct ServeOptions {
    /// Address to listen on.
    #[arg(long, env = "PERKDESK_BIND", default_value = "127.0.0.1:8080")]
    pub(super) bind: String,
    /// Let visitors request accounts at /auth/registration (created inactive).
    #[arg(long, env = "PERKDESK_ALLOW_REGISTRATION", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    pub(super) allow_registration: bool,
    /// A proxy in front terminates TLS: send Strict-Transport-Security.
    #[arg(long, env = "PERKDESK_BEHIND_TLS", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    pub(super) behind_tls: bool,
    /// Public address used in password-reset links and in the file links of exports (default: http://<bind>).
    #[arg(long, env = "PERKDESK_PUBLIC_URL")]
    pub(super) public_url: Option<String>,
    /// SMTP server for password-reset mail, e.g. smtps://user:pass@mail.example.az:465 (default: log the link).
    #[arg(long, env = "PERKDESK_SMTP_URL")]
    pub(super) smtp_url: Option<String>,
    /// Sender of password-reset mail.
    #[arg(long, env = "PERKDESK_MAIL_FROM", default_value = "perkdesk <no-reply@perkdesk.local>")]
    pub(super) mail_from: String,
    /// Sign-in, registration and reset attempts allowed per client address per minute.
    #[arg(long, env = "PERKDESK_SIGN_IN_PER_MINUTE", default_value_t = 10)]
    pub(super) sign_in_per_minute: u32,
    /// Addresses of the load balancers or proxies in front (comma-separated): from them, the
    /// client's address is read from X-Forwarded-For, for the per-address limits and the sessions
    /// list. Without it the connection's peer is the client (behind a balancer, everyone would
    /// share its address).
    #[arg(long, env = "PERKDESK_TRUSTED_PROXIES", value_delimiter = ',')]
    pub(super) trusted_proxies: Vec<std::net::IpAddr>,
    /// Seconds a connection may take to send a request's head, from its opening or its last
    /// answer (an idle kept-alive connection is closed after as long).
    #[arg(long, env = "PERKDESK_REQUEST_HEAD_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(super) request_head_timeout: u64,
    /// Connections open at once (lowered to fit the open-file limit); near it, the idlest
    /// connection of the client address holding the most is closed for each new one.
    #[arg(long, env = "PERKDESK_MAX_CONNECTIONS", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(super) max_connections: u64,
    /// Connections one client address may hold at once (at most half the cap); one more closes
    /// its own idlest connection. The --trusted-proxies hold no share.
    #[arg(long, env = "PERKDESK_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(super) max_connections_per_address: u64,
    /// On PostgreSQL: the database connections every app server on it uses together for
    /// requests. Each server takes its share (this divided by the servers, which count each other
    /// every ten seconds; at least 2), so a second server does not double the load on the database
    /// server. Raise it with that server's cores; its max_connections bounds the sum.
    #[arg(long, env = "PERKDESK_POSTGRES_CONNECTIONS", default_value_t = crate::db::DEFAULT_POSTGRES_CONNECTIONS as u64, value_parser = clap::value_parser!(u64).range(crate::db::FEWEST_CONNECTIONS as u64..=1000))]
    pub(super) postgres_connections: u64,
    /// Days the activity log keeps its entries; older ones are removed by the server, hourly.
    #[arg(long, env = "PERKDESK_ACTIVITY_RETENTION_DAYS", default_value_t = 365, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    pub(super) activity_retention_days: u32,
    /// Days deleted records stay in the trash; older ones are deleted for good by the server,
    /// hourly (those other records still refer to stay until those go).
    #[arg(long, env = "PERKDESK_TRASH_RETENTION_DAYS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    pub(super) trash_retention_days: u32,
    /// Folder for scheduled backups: a checked copy of the database every --backup-every, the
    /// newest --backup-keep kept (created when missing).
    #[arg(long, env = "PERKDESK_BACKUP_DIR")]
    pub(super) backup_dir: Option<PathBuf>,
    /// How often to back up, e.g. 6h, 30m, 1d (with --backup-dir).
    #[arg(long, env = "PERKDESK_BACKUP_EVERY", default_value = "6h", value_parser = parse_interval)]
    pub(super) backup_every: std::time::Duration,
    /// Scheduled backups kept; older ones are removed.
    #[arg(long, env = "PERKDESK_BACKUP_KEEP", default_value_t = 14, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub(super) backup_keep: u64,
    /// The operator's time zone (an IANA name): a campaign's limit per employee counts the uses of
    /// the calendar day, ISO week (from Monday) or month as they are in it.
    #[arg(long, env = "PERKDESK_TIME_ZONE", default_value = crate::core::periods::DEFAULT_ZONE, value_parser = parse_zone)]
    pub(super) time_zone: crate::core::periods::OperatorZone,
    /// Seconds a redemption code the employee app asks for stays valid (30 to 86400).
    #[arg(long, env = "PERKDESK_REDEMPTION_TTL", default_value_t = 300, value_parser = clap::value_parser!(u64).range(30..=86_400))]
    pub(super) redemption_ttl: u64,
    /// Wrong redemption codes a partner key may send a minute; past it every code the key sends is
    /// refused (429, Retry-After) until its oldest wrong code is a minute old.
    #[arg(long, env = "PERKDESK_WRONG_CODES_PER_MINUTE", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(super) wrong_codes_per_minute: u32,
    #[command(flatten)]
    pub(super) webhooks: WebhookOptions,
}

/// How outbound webhooks are delivered.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct WebhookOptions {
    /// Let webhook URLs point to loopback, private and link-local addresses (tests, receivers on
    /// the operator's own network); refused otherwise, when saved and at every delivery.
    #[arg(long = "webhooks-allow-private", env = "PERKDESK_WEBHOOKS_ALLOW_PRIVATE")]
    pub(super) allow_private: bool,
    /// The waits before each retry of a failed delivery, e.g. 5s,5m,30m,2h,5h,10h,10h (the
    /// default): after the last, the delivery has failed for good.
    #[arg(long = "webhook-retries", env = "PERKDESK_WEBHOOK_RETRIES", default_value = crate::app::webhooks::DEFAULT_RETRIES, value_parser = parse_retries)]
    pub(super) retries: Retries,
    /// An endpoint whose every delivery has failed for this long is switched off (the panel says
    /// so until an Admin switches it back on), e.g. 5d.
    #[arg(long = "webhook-disable-after", env = "PERKDESK_WEBHOOK_DISABLE_AFTER", default_value = "5d", value_parser = parse_interval)]
    pub(super) disable_after: std::time::Duration,
}

/// The retry schedule, as `--webhook-retries` reads it.
#[derive(Debug, Clone)]
pub(super) struct Retries(pub(super) Vec<std::time::Duration>);

/// `5s,5m,30m`: each wait at least one second, at most 20 of them (an empty text: no retry).
pub(super) fn parse_retries(text: &str) -> Result<Retries, String> {
    if text.trim().is_empty() {
        return Ok(Retries(Vec::new()));
    }
    let waits = text.split(',').map(|wait| parse_interval(wait.trim())).collect::<Result<Vec<_>, _>>()?;
    if waits.len() > 20 {
        return Err("at most 20 retries".into());
    }
    Ok(Retries(waits))
}

/// An IANA time zone's name, from the database bundled in the binary.
pub(super) fn parse_zone(text: &str) -> Result<crate::core::periods::OperatorZone, String> {
    crate::core::periods::OperatorZone::named(text)
}

/// `6h`, `30m`, `1d`, `90s`: at least one second.
pub(super) fn parse_interval(text: &str) -> Result<std::time::Duration, String> {
    let every = humantime::parse_duration(text)
        .map_err(|error| format!("'{text}' is not an interval like 6h or 30m ({error})"))?;
    if every < std::time::Duration::from_secs(1) {
        return Err(format!("'{text}' is shorter than a second"));
    }
    Ok(every)
}

#[derive(Args, Debug)]
pub(super) struct ServeArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    #[command(flatten)]
    pub(super) options: ServeOptions,
}

#[derive(Args, Debug)]
pub(super) struct DemoArgs {
    /// The demo database file (created with demo data when missing, reused otherwise).
    #[arg(long, env = "PERKDESK_DEMO_DB", default_value = "perkdesk-demo.db")]
    pub(super) db: PathBuf,
    #[command(flatten)]
    pub(super) options: ServeOptions,
}

#[derive(Args, Debug)]
pub(super) struct CreateAdminArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    #[arg(long, env = "PERKDESK_ADMIN_EMAIL")]
    pub(super) email: Option<String>,
    #[arg(long, env = "PERKDESK_ADMIN_FIRST_NAME")]
    pub(super) first_name: Option<String>,
    #[arg(long, env = "PERKDESK_ADMIN_LAST_NAME")]
    pub(super) last_name: Option<String>,
    /// Read the password from the first line of standard input instead of prompting.
    #[arg(long, env = "PERKDESK_PASSWORD_STDIN", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    pub(super) password_stdin: bool,
}

#[derive(Args, Debug)]
pub(super) struct OtpArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    #[arg(long, env = "PERKDESK_OTP_EMAIL")]
    pub(super) email: String,
}

#[derive(Args, Debug)]
pub(super) struct BackupArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    /// Where to write the copy (must not exist yet).
    pub(super) dest: PathBuf,
}

#[derive(Args, Debug)]
pub(super) struct CopyToPostgresArgs {
    /// The SQLite file to copy (stop the server first: what it writes during the copy is not
    /// copied).
    #[arg(long)]
    pub(super) from: PathBuf,
    /// The PostgreSQL database to copy into: `postgres://user@host/db`, empty (no data yet).
    #[arg(long)]
    pub(super) to: String,
}

#[derive(Args, Debug)]
pub(super) struct RestoreArgs {
    /// The backup to restore (a file `perkdesk backup` or --backup-dir wrote).
    pub(super) backup: PathBuf,
    #[command(flatten)]
    pub(super) db: DbArg,
    /// Replace the database even when it holds changes newer than the backup.
    #[arg(long)]
    pub(super) force: bool,
}

#[derive(Args, Debug)]
pub(super) struct ExportReportsArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    /// Folder to write the spreadsheets to.
    #[arg(long, env = "PERKDESK_REPORTS_OUT")]
    pub(super) out: PathBuf,
}

impl DbArg {
    pub(super) fn parse_default() -> DbArg {
        DbArg { db: std::env::var_os("PERKDESK_DB").map_or_else(|| PathBuf::from("perkdesk.db"), PathBuf::from) }
    }
}

impl ServeOptions {
    /// The options as `perkdesk serve` with no flags would read them (environment included).
    pub(super) fn parse_default() -> ServeOptions {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            options: ServeOptions,
        }
        Only::parse_from(["perkdesk"]).options
    }
}
