use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of the system allocator: a request allocates and frees many small buffers
/// across threads (JSON, SQL values, headers), where glibc's malloc showed as a tenth of the
/// server's time under load (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = perkdesk::cli::Cli::parse();
    match perkdesk::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("perkdesk: {}", one_line(&error));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, for operators.
fn one_line(error: &anyhow::Error) -> String {
    error.chain().map(ToString::to_string).collect::<Vec<_>>().join(": ")
}
