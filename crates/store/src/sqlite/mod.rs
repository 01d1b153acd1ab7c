//! The embedded backend: one SQLite file in WAL mode.
//!
//! Writes go through a single sqlx connection (SQLite has one writer at a time, and one
//! connection avoids lock contention and `SQLITE_BUSY` between our own writers), with
//! creates and lookups group-committed. Reads use read-only connections run on the calling thread
//! (`readers`), which WAL mode never blocks.

mod accounts;
mod group_commit;
mod jobs;
mod lookup_commits;
mod readers;
mod tracking;
mod tracking_requests;

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use tidemark_domain::Timestamp;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use uuid::Uuid;

use crate::{ConnectOptions, Store, StoreError};

/// SQLite's `synchronous` setting in WAL mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// Every commit is flushed to disk before it returns: an acknowledged write survives
    /// a power cut. The default.
    #[default]
    Full,
    /// Commits survive a crash of Tidemark but may be lost on a power cut or OS crash.
    Normal,
}

/// The SQLite store.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    write: SqlitePool,
    read: std::sync::Arc<readers::Readers>,
    inserts: group_commit::InsertQueue,
    lookups: lookup_commits::CommitQueue,
}

impl SqliteStore {
    /// Opens (creating if missing) the database file named by `options.url`.
    ///
    /// # Errors
    /// When the file cannot be opened or a migration fails.
    pub async fn connect(options: &ConnectOptions) -> Result<Self, StoreError> {
        let synchronous = match options.sqlite_synchronous {
            Synchronous::Full => SqliteSynchronous::Full,
            Synchronous::Normal => SqliteSynchronous::Normal,
        };
        let base = SqliteConnectOptions::from_str(&options.url)?;
        let path = base.get_filename();
        if !options.create && path != std::path::Path::new(":memory:") && !path.exists() {
            return Err(StoreError::Missing(path.display().to_string()));
        }
        let base = base
            .create_if_missing(options.create)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(synchronous)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let write = SqlitePoolOptions::new()
            .test_before_acquire(false)
            .max_connections(1)
            .connect_with(base.clone())
            .await?;
        if options.migrate {
            sqlx::migrate!("./migrations/sqlite").run(&write).await?;
        }
        let read = std::sync::Arc::new(readers::Readers::new(
            base.get_filename().to_owned(),
            usize::try_from(options.max_connections).unwrap_or(8),
        ));
        let inserts = group_commit::InsertQueue::start(write.clone());
        let lookups = lookup_commits::CommitQueue::start(write.clone());
        Ok(Self {
            write,
            read,
            inserts,
            lookups,
        })
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn ping(&self) -> Result<(), StoreError> {
        self.read
            .point(|connection| Ok(connection.query_row("SELECT 1", [], |_| Ok(()))?))
    }

    fn backend(&self) -> &'static str {
        "sqlite"
    }
}

/// Times are stored as fixed-width RFC 3339 text, which sorts in time order.
fn time_text(at: Timestamp) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z");
    at.as_datetime().format(&format).unwrap_or_default()
}

fn parse_time(text: &str) -> Result<Timestamp, StoreError> {
    time::OffsetDateTime::parse(text, &Rfc3339)
        .map(Timestamp::from_datetime)
        .map_err(|_| StoreError::corrupt(format!("time {text:?}")))
}

fn parse_uuid(text: &str) -> Result<Uuid, StoreError> {
    Uuid::try_parse(text).map_err(|_| StoreError::corrupt(format!("id {text:?}")))
}
