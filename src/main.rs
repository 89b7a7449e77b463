use std::process::ExitCode;

use clap::Parser;

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
