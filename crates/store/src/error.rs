//! The storage layer's one error type.

use tidemark_domain::TrackingRequestId;

/// What can go wrong in storage. Client-caused cases (`Duplicate`, `Conflict`) are named;
/// everything else is an internal failure for the caller to log and hide.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An open tracking request with the same account, number and SCAC exists.
    #[error("an open tracking request for this number and carrier exists")]
    Duplicate {
        /// The open request, when it could be read back.
        existing_id: Option<TrackingRequestId>,
    },
    /// A unique value (an account name, a key prefix) is taken.
    #[error("{0} already exists")]
    Conflict(&'static str),
    /// The SQLite file does not exist and was not to be created.
    #[error("there is no database at {0}: `tidemark migrate` (or `tidemark serve`) creates it")]
    Missing(String),
    /// The database URL names no supported backend.
    #[error("unsupported database URL: use sqlite://PATH or postgres://…")]
    UnsupportedUrl,
    /// A stored value does not parse as its domain type.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The connection was lost while a write was being committed: it may have been kept
    /// or not. Never written again blindly; the client reads back or retries with a key.
    #[error("the connection to the database was lost during a commit: {0}")]
    OutcomeUnknown(sqlx::Error),
    /// The SQLite writer task has stopped (the store is shutting down).
    #[error("the database writer has stopped")]
    WriterStopped,
    /// A group commit failed as a whole; every create in it failed with this message.
    #[error("group commit failed: {0}")]
    BatchFailed(String),
    /// SQLite failed.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database's storage is full: the write was refused, nothing was changed.
    #[error("the database's storage is full")]
    StorageFull,
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl StoreError {
    pub(crate) fn corrupt(what: impl std::fmt::Display) -> Self {
        Self::Corrupt(what.to_string())
    }

    /// Whether the write was refused for want of space: SQLite's `SQLITE_FULL`,
    /// PostgreSQL's `disk_full` (53100). Reads still work; the client may try later.
    #[must_use]
    pub fn is_storage_full(&self) -> bool {
        match self {
            Self::StorageFull => true,
            Self::Sqlite(rusqlite::Error::SqliteFailure(error, _)) => {
                error.code == rusqlite::ErrorCode::DiskFull
            }
            Self::Database(sqlx::Error::Database(database)) => {
                database.code().is_some_and(|code| code == "53100")
            }
            _ => false,
        }
    }

    /// Whether the database could not be reached, rather than refusing or failing the
    /// statement: no connection within the pool's acquire timeout, a connection that
    /// broke, or a server shutting down or starting (SQLSTATE classes 08 and 57P). The
    /// client may try again shortly (503); nothing was changed, unless the outcome is
    /// unknown ([`Self::OutcomeUnknown`]).
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        let (Self::Database(error) | Self::OutcomeUnknown(error)) = self else {
            return false;
        };
        match error {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Protocol(_) => true,
            sqlx::Error::Database(database) => database
                .code()
                .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
            _ => false,
        }
    }
}
