//! Serving: `serve` and `demo`, the listener, the scheduled backups and the shutdown on a signal.

use std::io::Write;
use std::net::SocketAddr;

use anyhow::Context;

use super::accounts::enrolment;
use super::args::{DemoArgs, ServeOptions};
use super::runtime;
use crate::core::mail::Mailer;
use crate::db::{Db, SCHEMA_VERSION};
use crate::http::listener::ConnectionLimits;
use crate::http::state::Settings;

/// Binds `bind`; the demo falls back to a free port when its default one is taken.
pub(super) async fn listen(bind: &str, fall_back: bool) -> anyhow::Result<tokio::net::TcpListener> {
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
pub(super) type Banner = Box<dyn FnOnce(&str) + Send>;

/// Opens the database while another thread builds the API's routes and document: start-up takes
/// the longer of the two, not both.
pub(super) fn open_beside_describing(db: &std::path::Path) -> anyhow::Result<(Db, crate::app::Described)> {
    let describing = std::thread::Builder::new().name("describe".into()).spawn(crate::app::describe)?;
    let db = crate::app::open_db(db)?;
    let described = describing.join().map_err(|_| anyhow::anyhow!("building the API's routes failed"))?;
    Ok((db, described))
}

pub(super) async fn serve(
    db: Db,
    described: crate::app::Described,
    options: ServeOptions,
    banner: Option<Banner>,
) -> anyhow::Result<()> {
    if !db.is_a_file() {
        anyhow::ensure!(options.backup_dir.is_none(), crate::db::POSTGRES_BACKUP);
    }
    let backups = scheduled_backups(&options)?;
    db.share_connections(usize::try_from(options.postgres_connections).unwrap_or(usize::MAX)).await?;
    let listener = listen(&options.bind, banner.is_some()).await?;
    let local = listener.local_addr()?;
    let url = format!("http://{local}");
    let settings = Settings {
        allow_registration: options.allow_registration,
        behind_tls: options.behind_tls,
        public_url: options.public_url.clone().unwrap_or_else(|| url.clone()),
        sign_in_per_minute: options.sign_in_per_minute,
        trusted_proxies: options.trusted_proxies.clone(),
        time_zone: options.time_zone.clone(),
        redemption_ttl_secs: options.redemption_ttl,
        wrong_codes_per_minute: options.wrong_codes_per_minute,
        webhooks_allow_private: options.webhooks.allow_private,
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
    let flags = &options.webhooks;
    let webhooks = crate::app::webhooks::spawn(
        db.clone(),
        crate::app::webhooks::Delivery::new(flags.retries.0.clone(), flags.disable_after, flags.allow_private),
    )?;
    tracing::info!(bind = %local, db = %db.location().describe(), schema_version = SCHEMA_VERSION, time_zone = options.time_zone.name(), "perkdesk is serving");
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
    let app = crate::app::app_from(described, state);
    crate::http::listener::serve(listener, app, limits, stopping, crate::app::SHUTDOWN_GRACE).await;
    // The sender stops before the database closes; what it was sending goes out after a restart.
    let _ = tokio::task::spawn_blocking(move || webhooks.stop()).await;
    tracing::info!("shutting down: checkpointing the database");
    db.checkpoint()?;
    Ok(())
}

/// The backup schedule, with its folder made and found writable before the server starts: a
/// schedule that could never write is refused at once, not discovered at its first run.
pub(super) fn scheduled_backups(options: &ServeOptions) -> anyhow::Result<Option<crate::app::housekeeping::Backups>> {
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
pub(super) fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
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

pub(super) fn demo(args: DemoArgs) -> anyhow::Result<()> {
    let fresh = !args.db.exists();
    let (db, described) = open_beside_describing(&args.db)?;
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
    runtime()?.block_on(serve(db, described, args.options, Some(Box::new(banner))))
}
