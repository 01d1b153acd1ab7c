//! The `tidemark` command.

use std::process::ExitCode;

use clap::Parser;

/// mimalloc rather than the system allocator: under load on two cores glibc's malloc and
/// free took an eighth of a request's time (bench/run.sh).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = tidemark::cli::Cli::parse();
    match tidemark::run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
