//! The workers' one error type.

use tidemark_store::StoreError;

/// What stops a worker from finishing a job. The job stays leased and is claimed again
/// when its lease runs out, so a failure here delays work but never loses it.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A worker could not be set up (its HTTP client, say).
    #[error("setup failed: {0}")]
    Setup(String),
}
