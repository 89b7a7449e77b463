//! The operators' command line: every flag is also an environment variable, and every failure
//! ends the process non-zero with one line.

pub mod demo;
mod sql;

use std::io::{BufRead, IsTerminal, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::auth::accounts::{self, NewStaff};
use crate::auth::{Role, password, totp};
use crate::core::mail::Mailer;
use crate::core::validation;
use crate::db::{Actor, Db, SCHEMA_VERSION};
use crate::http::listener::ConnectionLimits;
use crate::http::state::Settings;

#[derive(Parser, Debug)]
#[command(name = "perkdesk", version, about = "Back-office panel for a discount and perks marketplace")]
pub struct Cli {
    /// Log level or filter, e.g. `info` or `perkdesk=debug,tower_http=info` (RUST_LOG also works).
    #[arg(long, env = "PERKDESK_LOG_LEVEL", default_value = "info", global = true)]
    log_level: String,
    #[arg(long, env = "PERKDESK_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand, Debug)]
enum Command {
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
struct ImportEmployeesArgs {
    #[command(flatten)]
    db: DbArg,
    /// The workbook: a header row naming Email, First name, Last name, Phone number, Asset (and Active).
    file: PathBuf,
    /// Check every row and report what would be added, updated and refused; write nothing.
    #[arg(long, env = "PERKDESK_IMPORT_DRY_RUN", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    dry_run: bool,
}

#[derive(Subcommand, Debug)]
enum ApiClientCommand {
    /// Make an API client and print its key (shown this once; only its hash is kept).
    Create(ApiClientCreateArgs),
    /// List the API clients (never their keys).
    List(DbArg),
    /// Revoke an API client: its key is refused from the next request on.
    Revoke(ApiClientRevokeArgs),
}

#[derive(Args, Debug)]
struct ApiClientCreateArgs {
    #[command(flatten)]
    db: DbArg,
    /// A name people recognise, e.g. "Employee app (production)".
    #[arg(long, env = "PERKDESK_API_CLIENT_NAME")]
    name: String,
    /// employee-app or partner.
    #[arg(long, env = "PERKDESK_API_CLIENT_KIND")]
    kind: String,
    /// The partner a partner key acts for.
    #[arg(long, env = "PERKDESK_API_CLIENT_PARTNER_ID")]
    partner_id: Option<i64>,
    /// Requests per minute the client may make.
    #[arg(long, env = "PERKDESK_API_CLIENT_RATE_LIMIT", default_value_t = crate::auth::api_keys::DEFAULT_PER_MINUTE as i64)]
    rate_limit: i64,
}

#[derive(Args, Debug)]
struct ApiClientRevokeArgs {
    #[command(flatten)]
    db: DbArg,
    /// The client's id (see `api-client list`).
    id: i64,
}

#[derive(Args, Debug)]
struct SqlArgs {
    #[command(flatten)]
    db: DbArg,
    /// The statements, separated by semicolons.
    sql: String,
}

#[derive(Args, Debug, Clone)]
struct DbArg {
    /// The database: a SQLite file (`sqlite://` before it allowed), or a PostgreSQL server's URL
    /// (`postgres://user@host/db`; several hosts with `target_session_attrs=read-write` for failover).
    #[arg(long, env = "PERKDESK_DB", default_value = "perkdesk.db")]
    db: PathBuf,
}

#[derive(Args, Debug, Clone)]
struct ServeOptions {
    /// Address to listen on.
    #[arg(long, env = "PERKDESK_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
    /// Let visitors request accounts at /auth/registration (created inactive).
    #[arg(long, env = "PERKDESK_ALLOW_REGISTRATION", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    allow_registration: bool,
    /// A proxy in front terminates TLS: send Strict-Transport-Security.
    #[arg(long, env = "PERKDESK_BEHIND_TLS", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    behind_tls: bool,
    /// Public address used in password-reset links and in the file links of exports (default: http://<bind>).
    #[arg(long, env = "PERKDESK_PUBLIC_URL")]
    public_url: Option<String>,
    /// SMTP server for password-reset mail, e.g. smtps://user:pass@mail.example.az:465 (default: log the link).
    #[arg(long, env = "PERKDESK_SMTP_URL")]
    smtp_url: Option<String>,
    /// Sender of password-reset mail.
    #[arg(long, env = "PERKDESK_MAIL_FROM", default_value = "perkdesk <no-reply@perkdesk.local>")]
    mail_from: String,
    /// Sign-in, registration and reset attempts allowed per client address per minute.
    #[arg(long, env = "PERKDESK_SIGN_IN_PER_MINUTE", default_value_t = 10)]
    sign_in_per_minute: u32,
    /// Addresses of the load balancers or proxies in front (comma-separated): from them, the
    /// client's address is read from X-Forwarded-For, for the per-address limits and the sessions
    /// list. Without it the connection's peer is the client (behind a balancer, everyone would
    /// share its address).
    #[arg(long, env = "PERKDESK_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Seconds a connection may take to send a request's head, from its opening or its last
    /// answer (an idle kept-alive connection is closed after as long).
    #[arg(long, env = "PERKDESK_REQUEST_HEAD_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    request_head_timeout: u64,
    /// Connections open at once (lowered to fit the open-file limit); near it, the idlest
    /// connection of the client address holding the most is closed for each new one.
    #[arg(long, env = "PERKDESK_MAX_CONNECTIONS", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
    /// Connections one client address may hold at once (at most half the cap); one more closes
    /// its own idlest connection. The --trusted-proxies hold no share.
    #[arg(long, env = "PERKDESK_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections_per_address: u64,
    /// Days the activity log keeps its entries; older ones are removed by the server, hourly.
    #[arg(long, env = "PERKDESK_ACTIVITY_RETENTION_DAYS", default_value_t = 365, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    activity_retention_days: u32,
    /// Days deleted records stay in the trash; older ones are deleted for good by the server,
    /// hourly (those other records still refer to stay until those go).
    #[arg(long, env = "PERKDESK_TRASH_RETENTION_DAYS", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=36_500))]
    trash_retention_days: u32,
    /// Folder for scheduled backups: a checked copy of the database every --backup-every, the
    /// newest --backup-keep kept (created when missing).
    #[arg(long, env = "PERKDESK_BACKUP_DIR")]
    backup_dir: Option<PathBuf>,
    /// How often to back up, e.g. 6h, 30m, 1d (with --backup-dir).
    #[arg(long, env = "PERKDESK_BACKUP_EVERY", default_value = "6h", value_parser = parse_interval)]
    backup_every: std::time::Duration,
    /// Scheduled backups kept; older ones are removed.
    #[arg(long, env = "PERKDESK_BACKUP_KEEP", default_value_t = 14, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    backup_keep: u64,
}

/// `6h`, `30m`, `1d`, `90s`: at least one second.
fn parse_interval(text: &str) -> Result<std::time::Duration, String> {
    let every = humantime::parse_duration(text)
        .map_err(|error| format!("'{text}' is not an interval like 6h or 30m ({error})"))?;
    if every < std::time::Duration::from_secs(1) {
        return Err(format!("'{text}' is shorter than a second"));
    }
    Ok(every)
}

#[derive(Args, Debug)]
struct ServeArgs {
    #[command(flatten)]
    db: DbArg,
    #[command(flatten)]
    options: ServeOptions,
}

#[derive(Args, Debug)]
struct DemoArgs {
    /// The demo database file (created with demo data when missing, reused otherwise).
    #[arg(long, env = "PERKDESK_DEMO_DB", default_value = "perkdesk-demo.db")]
    db: PathBuf,
    #[command(flatten)]
    options: ServeOptions,
}

#[derive(Args, Debug)]
struct CreateAdminArgs {
    #[command(flatten)]
    db: DbArg,
    #[arg(long, env = "PERKDESK_ADMIN_EMAIL")]
    email: Option<String>,
    #[arg(long, env = "PERKDESK_ADMIN_FIRST_NAME")]
    first_name: Option<String>,
    #[arg(long, env = "PERKDESK_ADMIN_LAST_NAME")]
    last_name: Option<String>,
    /// Read the password from the first line of standard input instead of prompting.
    #[arg(long, env = "PERKDESK_PASSWORD_STDIN", value_parser = BoolishValueParser::new(), default_value = "false", num_args = 0..=1, default_missing_value = "true")]
    password_stdin: bool,
}

#[derive(Args, Debug)]
struct OtpArgs {
    #[command(flatten)]
    db: DbArg,
    #[arg(long, env = "PERKDESK_OTP_EMAIL")]
    email: String,
}

#[derive(Args, Debug)]
struct BackupArgs {
    #[command(flatten)]
    db: DbArg,
    /// Where to write the copy (must not exist yet).
    dest: PathBuf,
}

#[derive(Args, Debug)]
struct CopyToPostgresArgs {
    /// The SQLite file to copy (stop the server first: what it writes during the copy is not
    /// copied).
    #[arg(long)]
    from: PathBuf,
    /// The PostgreSQL database to copy into: `postgres://user@host/db`, empty (no data yet).
    #[arg(long)]
    to: String,
}

#[derive(Args, Debug)]
struct RestoreArgs {
    /// The backup to restore (a file `perkdesk backup` or --backup-dir wrote).
    backup: PathBuf,
    #[command(flatten)]
    db: DbArg,
    /// Replace the database even when it holds changes newer than the backup.
    #[arg(long)]
    force: bool,
}

#[derive(Args, Debug)]
struct ExportReportsArgs {
    #[command(flatten)]
    db: DbArg,
    /// Folder to write the spreadsheets to.
    #[arg(long, env = "PERKDESK_REPORTS_OUT")]
    out: PathBuf,
}

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
        Command::Serve(args) => runtime()?.block_on(serve(crate::app::open_db(&args.db.db)?, args.options, None)),
        Command::Demo(args) => demo(args),
        Command::CreateAdmin(args) => create_admin(args),
        Command::Otp(args) => otp(args),
        Command::ResetOtp(args) => reset_otp(args),
        Command::Backup(args) => backup(args),
        Command::Restore(args) => restore(args),
        Command::ExportReports(args) => export_reports(args),
        Command::Sql(args) => {
            let db = open_existing(&args.db.db)?;
            sql::run(&db, &args.sql, &mut std::io::stdout().lock())
        }
        Command::Openapi => {
            let (_, document) = crate::app::api().into_parts();
            let json = document.to_pretty_json().context("writing the OpenAPI document")?;
            writeln!(std::io::stdout().lock(), "{json}").context("printing the OpenAPI document")
        }
        Command::CopyToPostgres(args) => copy_to_postgres(args),
        Command::ApiClient(command) => api_client(command),
        Command::ImportEmployees(args) => import_employees(args),
    }
}

impl DbArg {
    fn parse_default() -> DbArg {
        DbArg { db: std::env::var_os("PERKDESK_DB").map_or_else(|| PathBuf::from("perkdesk.db"), PathBuf::from) }
    }
}

impl ServeOptions {
    /// The options as `perkdesk serve` with no flags would read them (environment included).
    fn parse_default() -> ServeOptions {
        #[derive(Parser)]
        struct Only {
            #[command(flatten)]
            options: ServeOptions,
        }
        Only::parse_from(["perkdesk"]).options
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
    if let crate::db::Location::File(path) = crate::db::Location::parse(db) {
        anyhow::ensure!(path.exists(), "the database {} does not exist (use --db or PERKDESK_DB)", path.display());
    }
    crate::app::open_db(db)
}

/// Binds `bind`; the demo falls back to a free port when its default one is taken.
async fn listen(bind: &str, fall_back: bool) -> anyhow::Result<tokio::net::TcpListener> {
    let addr: SocketAddr = bind.parse().with_context(|| format!("'{bind}' is not an address like 127.0.0.1:8080"))?;
    match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => Ok(listener),
        Err(error) if fall_back && error.kind() == std::io::ErrorKind::AddrInUse => {
            eprintln!("{addr} is in use; serving on a free port instead.");
            Ok(tokio::net::TcpListener::bind(SocketAddr::new(addr.ip(), 0)).await?)
        }
        Err(error) => Err(error).with_context(|| format!("cannot listen on {addr}")),
    }
}

/// Serves until SIGTERM or Ctrl-C, lets in-flight requests finish, then checkpoints the WAL.
/// Printed once the server listens, with its URL.
type Banner = Box<dyn FnOnce(&str) + Send>;

async fn serve(db: Db, options: ServeOptions, banner: Option<Banner>) -> anyhow::Result<()> {
    if db.is_postgres() {
        anyhow::ensure!(options.backup_dir.is_none(), crate::db::POSTGRES_BACKUP);
    }
    let backups = scheduled_backups(&options)?;
    let listener = listen(&options.bind, banner.is_some()).await?;
    let local = listener.local_addr()?;
    let url = format!("http://{local}");
    let settings = Settings {
        allow_registration: options.allow_registration,
        behind_tls: options.behind_tls,
        public_url: options.public_url.clone().unwrap_or_else(|| url.clone()),
        sign_in_per_minute: options.sign_in_per_minute,
        trusted_proxies: options.trusted_proxies.clone(),
    };
    let mailer = Mailer::from_settings(options.smtp_url.as_deref(), &options.mail_from)?;
    let state = crate::app::state(db.clone(), settings, mailer)?;
    let shutdown = shutdown_signal()?;
    crate::app::housekeeping::spawn(
        db.clone(),
        crate::app::housekeeping::Retention {
            activity_days: options.activity_retention_days,
            trash_days: options.trash_retention_days,
        },
        backups,
    );
    tracing::info!(bind = %local, db = %db.location().describe(), schema_version = SCHEMA_VERSION, "perkdesk is serving");
    if let Some(banner) = banner {
        banner(&url);
    }
    let max_connections = crate::http::listener::fit_to_file_limit(options.max_connections as usize);
    let limits = ConnectionLimits {
        request_head_timeout: std::time::Duration::from_secs(options.request_head_timeout),
        max_connections,
        // Half the cap at most, so one address can never hold it all.
        per_address: (options.max_connections_per_address as usize).min(max_connections.div_ceil(2)),
        exempt: options.trusted_proxies.clone(),
    };
    let stopping = async {
        shutdown.await;
        tracing::info!("shutting down: finishing the requests in flight");
    };
    // In-flight requests may finish, but a stuck connection does not hold the shutdown forever.
    crate::http::listener::serve(listener, crate::app::app(state), limits, stopping, crate::app::SHUTDOWN_GRACE).await;
    tracing::info!("shutting down: checkpointing the database");
    db.checkpoint()?;
    Ok(())
}

/// The backup schedule, with its folder made and found writable before the server starts: a
/// schedule that could never write is refused at once, not discovered at its first run.
fn scheduled_backups(options: &ServeOptions) -> anyhow::Result<Option<crate::app::housekeeping::Backups>> {
    let Some(dir) = options.backup_dir.clone() else { return Ok(None) };
    crate::core::owner_only::create_dir_all(&dir)
        .with_context(|| format!("cannot create the backup folder {}", dir.display()))?;
    let probe = dir.join(".perkdesk-write-test");
    std::fs::write(&probe, b"").with_context(|| format!("cannot write in the backup folder {}", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    tracing::info!(dir = %dir.display(), every = ?options.backup_every, keep = options.backup_keep, "scheduled backups");
    Ok(Some(crate::app::housekeeping::Backups {
        dir,
        every: options.backup_every,
        keep: usize::try_from(options.backup_keep).unwrap_or(usize::MAX),
    }))
}

/// SIGTERM or Ctrl-C. The handlers are installed when this is called (before the server
/// announces itself), so a signal sent right after the banner is never missed.
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?;
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot listen for Ctrl-C")?;
        Ok(async move {
            tokio::select! {
                _ = terminate.recv() => {},
                _ = interrupt.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

fn demo(args: DemoArgs) -> anyhow::Result<()> {
    let fresh = !args.db.exists();
    let db = crate::app::open_db(&args.db)?;
    if fresh {
        eprintln!("Creating the demo database {} ...", args.db.display());
    }
    let admin = crate::cli::demo::prepare(&db, fresh)?;
    let db_path = args.db.display().to_string();
    // Only the codes' hashes are kept, so each start makes and shows a new set (docs/decisions.md).
    let codes_heading = if admin.codes_replaced {
        "New recovery codes (each signs in once in place of the six-digit code; those printed at an earlier start no longer work):"
    } else {
        "Recovery codes (each signs in once in place of the six-digit code; each start of the demo prints a new set):"
    };
    let enrolment = enrolment(&admin.totp_secret, &admin.email, codes_heading, &admin.recovery_codes)?;
    let banner = move |url: &str| {
        println!();
        println!("perkdesk demo is running at {url}");
        println!();
        println!("  E-mail:   {}", admin.email);
        println!("  Password: {}", admin.password);
        println!();
        print!("{enrolment}");
        println!();
        println!("Or print the current code: perkdesk otp --db {db_path} --email {}", admin.email);
        println!("Stop with Ctrl-C.");
        let _ = std::io::stdout().flush();
    };
    runtime()?.block_on(serve(db, args.options, Some(Box::new(banner))))
}

fn prompt(label: &str, given: Option<String>, flag: &str) -> anyhow::Result<String> {
    if let Some(value) = given {
        return Ok(value.trim().to_string());
    }
    if !std::io::stdin().is_terminal() {
        bail!("{flag} is required when not running interactively");
    }
    eprint!("{label}: ");
    std::io::stderr().flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(line.trim().to_string())
}

fn create_admin(args: CreateAdminArgs) -> anyhow::Result<()> {
    let db = crate::app::open_db(&args.db.db)?;
    let email = prompt("E-mail", args.email, "--email")?;
    let first_name = prompt("First name", args.first_name, "--first-name")?;
    let last_name = prompt("Last name", args.last_name, "--last-name")?;
    let password = if args.password_stdin {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).context("cannot read the password from standard input")?;
        line.trim_end_matches(['\r', '\n']).to_string()
    } else {
        anyhow::ensure!(std::io::stdin().is_terminal(), "use --password-stdin when not running interactively");
        let first = rpassword::prompt_password("Password: ")?;
        let again = rpassword::prompt_password("Repeat the password: ")?;
        anyhow::ensure!(first == again, "the passwords do not match");
        first
    };
    anyhow::ensure!(!first_name.is_empty(), "Firstname is required");
    anyhow::ensure!(!last_name.is_empty(), "Lastname is required");
    anyhow::ensure!(
        validation::is_email(&email) && (3..=50).contains(&email.chars().count()),
        "{}",
        validation::EMAIL_FORMAT
    );
    anyhow::ensure!(validation::is_strong_password(&password), "{}", validation::STRONG_PASSWORD);
    let secret = totp::new_secret();
    let hash = password::hash(&password)?;
    let (codes, recovery_hashes) = crate::auth::recovery::new_set()?;
    let mut conn = db.conn()?;
    let tx = conn.transaction()?;
    crate::db::activity::declare_writer(&tx)?;
    let admin = NewStaff {
        first_name: &first_name,
        last_name: &last_name,
        email: &email,
        role: Role::Admin,
        password_hash: &hash,
        active: true,
    };
    let inserted = accounts::insert_staff(&tx, &admin, &secret);
    let id = match inserted {
        Err(error) if error.is_constraint_violation() => {
            bail!("a user with the e-mail {email} already exists")
        }
        other => other.context("cannot create the admin")?,
    };
    crate::auth::recovery::replace(&tx, id, &recovery_hashes).map_err(|error| anyhow::anyhow!("{error}"))?;
    tx.commit()?;
    println!("Created the Admin {first_name} {last_name} <{email}>.");
    print_enrolment(&secret, &email, &codes)
}

/// The authenticator's enrolment for the terminal: its QR code, the `otpauth://` address, then the
/// recovery codes.
fn print_enrolment(secret: &str, email: &str, recovery_codes: &[String]) -> anyhow::Result<()> {
    let heading = "Recovery codes (each signs in once in place of the six-digit code; shown only now, keep them safe):";
    print!("{}", enrolment(secret, email, heading, recovery_codes)?);
    Ok(())
}

/// The enrolment's lines: the QR code, the `otpauth://` address, and the recovery codes under
/// `codes_heading`.
fn enrolment(secret: &str, email: &str, codes_heading: &str, recovery_codes: &[String]) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let uri = totp::otpauth_uri(secret, email)?;
    let mut text = String::new();
    writeln!(text, "Scan this QR code with an authenticator app:")?;
    writeln!(text, "{}", crate::core::qr::terminal(&uri)?)?;
    writeln!(text, "{uri}")?;
    writeln!(text)?;
    writeln!(text, "{codes_heading}")?;
    for code in recovery_codes {
        writeln!(text, "  {code}")?;
    }
    Ok(text)
}

fn otp(args: OtpArgs) -> anyhow::Result<()> {
    let db = open_existing(&args.db.db)?;
    let secret: Option<String> = {
        use crate::db::sql::OptionalExtension;
        db.conn()?
            .query_row(
                "SELECT totp_secret FROM users WHERE email = ?1 AND deleted_at IS NULL",
                [args.email.trim()],
                |r| r.get(0),
            )
            .optional()?
    };
    let secret = secret.with_context(|| format!("no user has the e-mail {}", args.email.trim()))?;
    println!("{}", totp::current_code(&secret)?);
    Ok(())
}

fn reset_otp(args: OtpArgs) -> anyhow::Result<()> {
    let db = open_existing(&args.db.db)?;
    let email = args.email.trim().to_string();
    let (codes, recovery_hashes) = crate::auth::recovery::new_set()?;
    let mut conn = db.conn()?;
    let reset = crate::db::write_tx(&mut conn, |tx| {
        use crate::db::sql::OptionalExtension;
        let id: Option<i64> = tx
            .query_row(
                "SELECT id FROM users WHERE email = ?1 AND deleted_at IS NULL ORDER BY kind = 'staff' DESC LIMIT 1",
                [&email],
                |r| r.get(0),
            )
            .optional()?;
        let Some(id) = id else { return Ok(None) };
        crate::auth::accounts::reset_totp(tx, id, "authenticator reset at the command line", &recovery_hashes)
    })
    .map_err(|error| anyhow::anyhow!("{error}"))?;
    let (secret, email) = reset.with_context(|| format!("no user has the e-mail {email}"))?;
    println!("A new authenticator for {email}; the old one no longer works and every session of theirs has ended.");
    print_enrolment(&secret, &email, &codes)
}

/// Refuses a command that copies a SQLite file when `--db` names PostgreSQL.
fn sqlite_only(db: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(matches!(crate::db::Location::parse(db), crate::db::Location::File(_)), crate::db::POSTGRES_BACKUP);
    Ok(())
}

fn copy_to_postgres(args: CopyToPostgresArgs) -> anyhow::Result<()> {
    use crate::db::copy::Progress;
    anyhow::ensure!(
        matches!(crate::db::Location::parse(&args.from), crate::db::Location::File(_)),
        "--from names the SQLite file to copy"
    );
    let target = crate::db::Location::parse(Path::new(&args.to));
    anyhow::ensure!(
        matches!(target, crate::db::Location::Postgres(_)),
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

fn backup(args: BackupArgs) -> anyhow::Result<()> {
    sqlite_only(&args.db.db)?;
    let db = open_existing(&args.db.db)?;
    eprintln!("Backing up {} to {} ...", args.db.db.display(), args.dest.display());
    db.backup_to(&args.dest)?;
    let checked = crate::db::backup::check(&args.dest)?;
    println!("Backup written to {} ({:.1} MB), checked.", args.dest.display(), checked.bytes as f64 / 1_048_576.0);
    Ok(())
}

fn restore(args: RestoreArgs) -> anyhow::Result<()> {
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

fn export_reports(args: ExportReportsArgs) -> anyhow::Result<()> {
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
fn save_into(dir: &Path, name: &str, mut file: std::fs::File) -> anyhow::Result<PathBuf> {
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
struct Progress {
    terminal: bool,
    last: std::time::Instant,
    width: usize,
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

fn api_client(command: ApiClientCommand) -> anyhow::Result<()> {
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

fn import_employees(args: ImportEmployeesArgs) -> anyhow::Result<()> {
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
