//! The `tidemark` command.

use std::process::ExitCode;

use clap::Parser;

/// jemalloc rather than the system allocator: under load on two cores glibc's malloc and
/// free took an eighth of a request's time (bench/run.sh), and kept what it freed; jemalloc
/// returns freed memory to the system after `memory.return_freed_after`
/// (`tidemark::memory`). Unprefixed, it serves SQLite's allocations too.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
