//! The `club-admin` binary: parse the command line and hand over to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = club_admin::cli::Cli::parse();
    club_admin::cli::run(cli)
}
